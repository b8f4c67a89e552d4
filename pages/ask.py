"""Ask page: type a question, watch every reasoning step arrive, read the answer and why,
then rate it and propose a fix to the knowledge graph (the outer feedback loop).

The last run is kept in session state, so reruns (a download click, a widget change) show
the same trace again instead of an empty page. Each finished run is stored once, so feedback
and the KG editor's re-ask panel can refer to it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from core.loop import LoopSettings
from core.trace import Answer, Step, Trace, Triple
from pages._shared import (
    describe_paradigm,
    example_questions,
    feedback_loop,
    get_engine,
    md,
    paradigm_names,
    parse_lines,
    triple_line,
)

MAX_TRIPLE_ROWS = 50
MAX_ANSWER_ROWS = 10
TRACE_KEY, ERROR_KEY, QUESTION_KEY = "ask_trace", "ask_error", "question"
RUN_KEY = "ask_run"  # (run id or None, error or None) of the trace on show
RATINGS = {"👍 good": 1, "👎 bad": -1}


@dataclass
class Request:
    """What the form submitted."""

    question: str
    paradigm: str
    max_steps: int
    threshold: float


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# -- input -----------------------------------------------------------------------------------
def fill_question(text: str) -> None:
    """Button callback: runs before the form is drawn, so the box may still be changed."""
    st.session_state[QUESTION_KEY] = text


def render_examples() -> None:
    examples = example_questions()
    if not examples:
        return
    st.caption("Examples from the MetaQA dev set — click one to fill the box:")
    for i, (col, text) in enumerate(zip(st.columns(len(examples)), examples, strict=True)):
        col.button(
            text,
            key=f"example_{i}",
            on_click=fill_question,
            args=(text,),
            width="stretch",
        )


def render_form() -> Request | None:
    """The question box and a compact settings row; returns the request when Run is pressed."""
    names = paradigm_names()
    with st.form("ask_form", border=False):
        question = st.text_input(
            "Question",
            key=QUESTION_KEY,
            placeholder="e.g. who directed Black Snake Moan",
        )
        c1, c2, c3, c4 = st.columns([3, 2, 2, 1], vertical_alignment="bottom")
        paradigm = c1.selectbox(
            "Paradigm",
            names,
            key="paradigm",
            help="\n\n".join(f"**{n}** — {describe_paradigm(n)}" for n in names),
        )
        max_steps = c2.slider(
            "Max steps T", 1, 6, 4, key="max_steps", help="the loop stops after T steps"
        )
        threshold = c3.slider(
            "Threshold R",
            0.0,
            1.0,
            0.8,
            step=0.05,
            key="threshold",
            help="the loop stops once the judge's reward reaches R",
        )
        submitted = c4.form_submit_button("Run", type="primary", width="stretch")
    if not submitted:
        return None
    return Request(question, paradigm, int(max_steps), float(threshold))


# -- running ---------------------------------------------------------------------------------
def start_run(req: Request) -> Iterator[Step | Trace] | None:
    """Start the engine's stream; a refused question becomes a stored error, not a traceback."""
    try:
        return get_engine().stream(
            req.question,
            paradigm=req.paradigm,
            settings=LoopSettings(max_steps=req.max_steps, threshold=req.threshold),
        )
    except ValueError as exc:  # QuestionError, unknown paradigm, KB problems
        st.session_state[ERROR_KEY] = str(exc)
        return None


def run_live(stream: Iterator[Step | Trace]) -> None:
    """Draw each step as the engine yields it, then keep the finished trace."""
    trace: Trace | None = None
    with st.status("Reasoning…", expanded=True) as status:
        try:
            for item in stream:
                if isinstance(item, Step):
                    render_step(item)
                else:
                    trace = item
        except ValueError as exc:
            st.session_state[ERROR_KEY] = str(exc)
            status.update(label="The run failed", state="error")
            return
        if trace is None:
            st.session_state[ERROR_KEY] = "the engine ended without a trace"
            status.update(label="The run failed", state="error")
            return
        if not trace.steps:
            render_no_steps(trace)
        # expanded must be repeated: an update that only changes the label collapses the box
        status.update(label=status_label(trace), state=status_state(trace), expanded=True)
    st.session_state[TRACE_KEY] = trace


def status_label(trace: Trace) -> str:
    took = f"{plural(len(trace.steps), 'step')} · {trace.duration_ms:,.0f} ms"
    return f"Answered in {took}" if trace.answers else f"No answer · {took}"


def status_state(trace: Trace) -> str:
    return "complete" if trace.answers else "error"


# -- steps -----------------------------------------------------------------------------------
def render_steps(trace: Trace) -> None:
    """Replay a stored trace's steps (collapsed: the answer is what a rerun should lead with)."""
    with st.status(status_label(trace), state=status_state(trace), expanded=False):
        for step in trace.steps:
            render_step(step)
        if not trace.steps:
            render_no_steps(trace)


def render_no_steps(trace: Trace) -> None:
    st.markdown(f"The agent took no step: {md(plain_reason(trace))}.")


def render_step(step: Step) -> None:
    action = step.action
    st.markdown(f"**Step {step.index} — {md(action.description)}**")
    if action.query:
        st.code(action.query, language=action.language or "text")
    st.caption(step_summary(step))
    if step.error:
        st.error(f"The query failed: {step.error}")
    render_plan(step)
    render_triples(step.triples, truncated=step.truncated)


def step_summary(step: Step) -> str:
    """One line: where it queried, what the judge said, how many candidates, how long."""
    parts = []
    if step.action.source:
        parts.append(f"source `{step.action.source}`")
    reason = f" — {md(step.reward_reason)}" if step.reward_reason else ""
    parts.append(f"reward **{step.reward:.2f}**{reason}")
    parts.append(plural(step.candidates, "candidate"))
    parts.append(f"{step.duration_ms:,.0f} ms")
    if step.tokens:
        parts.append(f"{step.tokens:,} tokens")
    return " · ".join(parts)


def render_plan(step: Step) -> None:
    """Why the agent chose this action: its plan, the score, and what it passed over."""
    details = step.action.details
    plan, score = details.get("plan"), details.get("plan_score")
    if plan:
        scored = f" (score {score:.2f})" if isinstance(score, int | float) else ""
        st.caption(f"plan: {md(plan)}{scored}")
    if note := details.get("note"):
        st.caption(md(note))
    alternatives = details.get("alternatives") or []
    if alternatives:
        with st.expander(f"Other plans considered ({len(alternatives)})"):
            st.dataframe(pd.DataFrame(alternatives), hide_index=True)


def render_triples(triples: list[Triple], *, truncated: bool = False) -> None:
    capped = " (retrieval hit its size cap)" if truncated else ""
    with st.expander(f"Retrieved triples ({len(triples):,}){capped}"):
        if not triples:
            st.caption("nothing retrieved")
            return
        st.dataframe(triples_frame(triples[:MAX_TRIPLE_ROWS]), hide_index=True)
        if len(triples) > MAX_TRIPLE_ROWS:
            st.caption(f"showing the first {MAX_TRIPLE_ROWS} of {len(triples):,}")


def triples_frame(triples: list[Triple]) -> pd.DataFrame:
    return pd.DataFrame(
        [(t.s_label, t.p_label, t.o_label) for t in triples],
        columns=["subject", "relation", "object"],
    )


# -- answer ----------------------------------------------------------------------------------
def render_answer(trace: Trace) -> None:
    st.subheader("Answer")
    if trace.answers:
        render_answers(trace.answers)
        st.markdown(
            f"**{plural(trace.n_answers, 'answer')}** found · stopped because "
            f"{md(plain_reason(trace))}"
        )
    else:
        render_no_answer(trace)
    render_linked(trace.linked)
    st.download_button(
        "Download trace (JSON)",
        data=trace.to_json(),
        file_name="knowloop-trace.json",
        mime="application/json",
        on_click="ignore",
    )


def render_answers(answers: list[Answer]) -> None:
    top = answers[0]
    st.success(f"**{md(top.label)}** · score {top.score:.2f}")
    if top.evidence:
        st.markdown(f"Evidence: {md(evidence_chain(top.evidence))}")
    if len(answers) > 1:
        shown = answers[:MAX_ANSWER_ROWS]
        st.dataframe(
            pd.DataFrame({"answer": [a.label for a in shown], "score": [a.score for a in shown]}),
            hide_index=True,
            column_config={"score": st.column_config.NumberColumn(format="%.2f")},
        )


def evidence_chain(triples: list[Triple]) -> str:
    """Read the evidence as one walk (A —r→ B ←s— C) when the triples connect end to end;
    otherwise list each fact, so nothing is hidden by a walk that does not exist."""
    for start in (triples[0].s, triples[0].o):
        walk, node = [], start
        for t in triples:
            if t.s == node:
                walk.append(f"—{t.p_label}→ {t.o_label}")
                node = t.o
            elif t.o == node:
                walk.append(f"←{t.p_label}— {t.s_label}")
                node = t.s
            else:
                break
        else:
            first = triples[0].s_label if start == triples[0].s else triples[0].o_label
            return " ".join([first, *walk])
    return " · ".join(t.text() for t in triples)


def render_no_answer(trace: Trace) -> None:
    """Say why there is no answer in the words the loop used, never with a traceback."""
    st.warning(f"**No answer** — the loop stopped because {md(plain_reason(trace))}.")
    if trace.error:
        st.error(trace.error)


def plain_reason(trace: Trace) -> str:
    """The stop reason without the loop's "no answer found:" prefix (the page says that)."""
    reason = re.sub(r"^no answer found:\s*", "", trace.stop_reason or "").strip()
    return reason or "the loop ended"


def render_linked(linked: list[dict]) -> None:
    if not linked:  # the stop reason already says so
        return
    items = []
    for link in linked:
        labels = ", ".join(link.get("labels") or []) or "?"
        items.append(f"“{md(link.get('text', ''))}” → {md(labels)} ({link.get('score', 0):.2f})")
    st.caption("Linked entities: " + " · ".join(items))


# -- feedback --------------------------------------------------------------------------------
def recorded_run(trace: Trace) -> int | None:
    """Store the run on show once (the KG editor re-asks stored questions); its id."""
    if RUN_KEY not in st.session_state:
        try:
            st.session_state[RUN_KEY] = (feedback_loop().record(trace, source="app"), None)
        except ValueError as exc:  # StoreBusy, a refused trace
            st.session_state[RUN_KEY] = (None, str(exc))
    run_id, error = st.session_state[RUN_KEY]
    if error:
        st.warning(f"This run could not be stored, so it cannot take feedback: {error}")
    return run_id


def prefill_remove(wrong_key: str, remove_key: str, evidence: list[Triple]) -> None:
    """Multiselect callback: the triples marked wrong become the first "remove" lines, and
    lines of evidence triples no longer marked are dropped; what was typed by hand stays."""
    evidence_lines = {triple_line(t) for t in evidence}
    typed = [
        line for line in parse_lines(st.session_state.get(remove_key)) if line not in evidence_lines
    ]
    marked = [triple_line(t) for t in st.session_state.get(wrong_key) or []]
    st.session_state[remove_key] = "\n".join(dict.fromkeys([*marked, *typed]))


def render_feedback(trace: Trace) -> None:
    """Rate the answer, mark wrong evidence and propose a fix; saved as feedback (and, when it
    adds or removes triples, as a proposal waiting in the KG editor)."""
    run_id = recorded_run(trace)
    if run_id is None:
        return
    key = f"fb_{run_id}_"  # a new run starts with fresh widgets
    evidence = trace.answers[0].evidence if trace.answers else []
    with st.container(border=True, key="feedback"):
        st.subheader("Feedback")
        st.caption(f"Run #{run_id} is stored; rate it and, if the graph is wrong, propose a fix.")
        st.radio(
            "Was the answer right?", list(RATINGS), index=None, horizontal=True, key=key + "rating"
        )
        st.text_area("Comment", key=key + "comment", height=80)
        if evidence:
            st.multiselect(
                "Evidence triples that are wrong",
                evidence,
                format_func=lambda t: t.text(),
                key=key + "wrong",
                on_change=prefill_remove,
                args=(key + "wrong", key + "remove", evidence),
                placeholder="pick the facts the answer relied on that are wrong",
            )
        else:
            st.caption("No evidence to mark: the run found no answer.")
        st.markdown("**Fix proposal** — one `subject|relation|object` per line")
        c1, c2 = st.columns(2)
        c1.text_area("Triples to add", key=key + "add", height=100)
        c2.text_area("Triples to remove", key=key + "remove", height=100)
        st.text_input("Your name (optional)", key="fb_who")
        done = st.session_state.get(key + "done")
        st.button(
            "Submit feedback",
            key=key + "submit",
            type="primary",
            on_click=save_feedback,
            args=(run_id, key),
            disabled=bool(done),
        )
        if error := st.session_state.get(key + "error"):
            st.error(f"Feedback not saved: {error}")
        if done:
            st.success(done)
            st.page_link("pages/kg_editor.py", label="Open the KG editor", icon="✏️")


def save_feedback(run_id: int, key: str) -> None:
    """Button callback: store the feedback; a refusal is kept as one readable line."""
    state = st.session_state
    state.pop(key + "error", None)
    try:
        feedback, proposal = feedback_loop().runs.add_feedback(
            run_id,
            rating=RATINGS.get(state.get(key + "rating") or "", 0),
            comment=state.get(key + "comment") or "",
            wrong=state.get(key + "wrong") or [],
            propose_add=parse_lines(state.get(key + "add")),
            propose_remove=parse_lines(state.get(key + "remove")),
            who=state.get("fb_who") or "",
        )
    except ValueError as exc:  # FeedbackError, StoreBusy
        state[key + "error"] = str(exc)
        return
    state[key + "done"] = (
        f"Saved; proposal #{proposal.id} waits in the KG editor."
        if proposal
        else f"Saved; thank you (feedback #{feedback.id})."
    )


# -- page ------------------------------------------------------------------------------------
def main() -> None:
    st.title("Ask")
    st.markdown(
        "Ask a question about movies: KnowLoop reasons over the knowledge graph in a loop "
        "and shows every step — the query, what it found, and how the judge scored it."
    )
    render_examples()
    req = render_form()
    if req is not None:
        for state_key in (TRACE_KEY, ERROR_KEY, RUN_KEY):
            st.session_state.pop(state_key, None)
        stream = start_run(req)
        if stream is not None:
            run_live(stream)
        trace = st.session_state.get(TRACE_KEY)
    else:
        trace = st.session_state.get(TRACE_KEY)
        if trace is not None:
            render_steps(trace)
    if error := st.session_state.get(ERROR_KEY):
        st.error(f"Cannot answer this question: {error}")
    if trace is not None:
        render_answer(trace)
        render_feedback(trace)


main()
