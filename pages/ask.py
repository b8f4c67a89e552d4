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
from functools import partial

import streamlit as st

from core.api import (
    AppSettings,
    LoopSettings,
    Step,
    Trace,
    Triple,
    describe_paradigm,
    paradigm_names,
    report_filename,
    report_html,
    topics_of,
)
from pages._render import (
    draw_chart,
    draw_graph,
    draw_totals,
    plural,
    render_answer_card,
    render_step,
    status_label,
)
from pages._shared import (
    choose_kb,
    example_questions,
    feedback_loop,
    forget_page,
    get_engine,
    keep_widgets,
    md,
    parse_lines,
    restore_widgets,
    setting_widget,
    triple_line,
    warm_up_llm,
)

TRACE_KEY, ERROR_KEY, QUESTION_KEY = "ask_trace", "ask_error", "question"
RUN_KEY = "ask_run"  # (run id or None, error or None) of the trace on show
PAGE = "ask"
# the form's widgets: kept with the run they started, so a returning user sees both together
FORM_KEYS = (
    QUESTION_KEY, "paradigm", "max_steps", "threshold", "opt_model", "opt_judge", "opt_width",
    "opt_prior", "opt_planning", "opt_u", "opt_w", "opt_n", "opt_k", "opt_gamma", "opt_refresh",
)  # fmt: skip
RATINGS = {"👍 good": 1, "👎 bad": -1}


@dataclass
class Request:
    """What the form submitted."""

    question: str
    paradigm: str
    settings: LoopSettings | None  # None: the settings were refused (ERROR_KEY says why)


# -- input -----------------------------------------------------------------------------------
def fill_question(text: str) -> None:
    """Button callback: runs before the form is drawn, so the box may still be changed."""
    st.session_state[QUESTION_KEY] = text


def render_examples(kb: str) -> None:
    examples = example_questions(kb)
    if not examples.questions:
        return
    st.caption(f"Examples from {md(examples.origin)} — click one to fill the box:")
    questions = examples.questions
    for i, (col, text) in enumerate(zip(st.columns(len(questions)), questions, strict=True)):
        col.button(
            text,
            key=f"example_{i}",
            on_click=fill_question,
            args=(text,),
            width="stretch",
        )


def render_form() -> Request | None:
    """The question box, a compact settings row and the LLM options; returns the request
    when Run is pressed. Defaults come from the Settings page (saved in the workspace)."""
    names = paradigm_names()
    saved, problem = get_engine(open_default=False).settings.load_checked()
    if problem:
        st.warning(f"{problem}; using the defaults — fix them on the Settings page")
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
            index=names.index(saved.paradigm) if saved.paradigm in names else 0,
            key="paradigm",
            help="\n\n".join(f"**{n}** — {describe_paradigm(n)}" for n in names),
        )
        max_steps = setting_widget(c2, "max_steps", "max_steps", saved.max_steps)
        threshold = setting_widget(c3, "threshold", "threshold", saved.threshold)
        submitted = c4.form_submit_button("Run", type="primary", width="stretch")
        with st.expander("LLM and loop options"):
            o = st.columns(4)
            model = o[0].text_input(
                "Model (litellm name)",
                saved.model,
                key="opt_model",
                placeholder=saved.effective_model,
            )
            judge = setting_widget(o[1], "judge", "opt_judge", saved.judge)
            width = setting_widget(o[2], "width", "opt_width", saved.width)
            prior = setting_widget(o[3], "prior", "opt_prior", saved.prior)
            p = st.columns(6)
            planning = setting_widget(p[0], "planning", "opt_planning", saved.planning)
            lookahead = setting_widget(p[1], "lookahead", "opt_u", saved.lookahead)
            beam = setting_widget(p[2], "beam", "opt_w", saved.beam)
            proposals = setting_widget(p[3], "proposals", "opt_n", saved.proposals)
            samples = setting_widget(p[4], "samples", "opt_k", saved.samples)
            gamma = setting_widget(p[5], "gamma", "opt_gamma")
            refresh = setting_widget(st, "refresh", "opt_refresh", saved.refresh, horizontal=True)
    if not submitted:
        return None
    chosen = AppSettings(
        model=model,
        api_base=saved.api_base,
        paradigm=paradigm,
        max_steps=int(max_steps),
        threshold=float(threshold),
        refresh=refresh,
        judge=judge,
        width=int(width),
        prior=float(prior),
        samples=int(samples),
        planning=bool(planning),
        lookahead=int(lookahead),
        beam=int(beam),
        proposals=int(proposals),
        llm_deadline=saved.llm_deadline,
    )
    try:
        gamma = None if gamma == "auto" else float(gamma)
        return Request(question, paradigm, chosen.loop_settings(gamma=gamma))
    except ValueError as exc:
        st.session_state[ERROR_KEY] = f"bad setting: {exc}"
        return Request(question, paradigm, None)


# -- running ---------------------------------------------------------------------------------
def start_run(req: Request, kb: str) -> Iterator[Step | Trace] | None:
    """Start the engine's stream; a refused question becomes a stored error, not a traceback."""
    if req.settings is None:
        return None
    try:
        return get_engine().stream(
            req.question, kb=kb, paradigm=req.paradigm, settings=req.settings
        )
    except ValueError as exc:  # QuestionError, unknown paradigm, KB problems
        st.session_state[ERROR_KEY] = str(exc)
        return None


def run_live(stream: Iterator[Step | Trace], threshold: float) -> Trace | None:
    """Draw each step as the engine yields it — the step itself on the left; the cumulative
    graph (this step's additions highlighted), the reward chart and the totals on the right.
    The run comes first: the finished trace is kept (and stored) before anything is drawn
    from it, and a fault in drawing a step only stops the live drawing, never the run."""
    trace: Trace | None = None
    steps: list[Step] = []
    left, right = st.columns([3, 2])
    graph, chart, running = right.empty(), right.empty(), right.empty()
    drawing_fault = ""
    with left, st.status("Reasoning…", expanded=True) as status:
        try:
            for item in stream:
                if isinstance(item, Trace):
                    trace = item
                    continue
                steps.append(item)
                if drawing_fault:
                    continue
                try:
                    render_step(item)
                    draw_graph(graph, steps)
                    draw_chart(chart, steps, threshold)
                    draw_totals(running, steps)
                except Exception as exc:  # noqa: BLE001 — a drawing fault must not end the run
                    drawing_fault = f"{type(exc).__name__}: {exc}"
                    st.warning(f"Live drawing stopped ({drawing_fault}); the run goes on.")
        except Exception as exc:  # an engine or environment fault (model file, provider)
            st.session_state[ERROR_KEY] = (
                str(exc) if isinstance(exc, ValueError)
                else f"the run failed ({type(exc).__name__}: {exc})"
            )  # fmt: skip
            status.update(label="The run failed", state="error")
            return None
        if trace is None:
            st.session_state[ERROR_KEY] = "the engine ended without a trace"
            status.update(label="The run failed", state="error")
            return None
        st.session_state[TRACE_KEY] = trace  # kept before it is drawn
        recorded_run(trace)
        if not trace.steps:
            render_no_steps(trace)
        # expanded must be repeated: an update that only changes the label collapses the box
        status.update(label=status_label(trace), state=status_state(trace), expanded=True)
    try:
        draw_graph(graph, trace.steps, trace.answers, topics_of(trace))
        draw_chart(chart, trace.steps, threshold)
        draw_totals(running, trace.steps)
    except Exception as exc:  # noqa: BLE001
        right.warning(f"The graph could not be drawn ({type(exc).__name__}: {exc}).")
    return trace


def status_state(trace: Trace) -> str:
    return "complete" if trace.answers else "error"


# -- steps -----------------------------------------------------------------------------------
def render_steps(trace: Trace) -> None:
    """Replay a stored trace (steps collapsed: the answer is what a rerun should lead with)."""
    left, right = st.columns([3, 2])
    with left, st.status(status_label(trace), state=status_state(trace), expanded=False):
        for step in trace.steps:
            render_step(step)
        if not trace.steps:
            render_no_steps(trace)
    draw_graph(right.empty(), trace.steps, trace.answers, topics_of(trace))
    draw_chart(right.empty(), trace.steps, float(trace.settings.get("threshold", 0.8)))
    draw_totals(right.empty(), trace.steps)


def render_no_steps(trace: Trace) -> None:
    st.markdown(f"The agent took no step: {md(plain_reason(trace))}.")


# -- answer ----------------------------------------------------------------------------------
def render_answer(trace: Trace) -> None:
    """The answer card (what the engine found and how far the KB backs it), why it stopped,
    the linked entities and the downloads — above the steps."""
    with st.container(border=True, key="answer_card"):
        st.subheader("Answer")
        render_answer_card(trace)
        if trace.answers:
            st.markdown(
                f"**{plural(trace.n_answers, 'answer')}** found · stopped because "
                f"{md(plain_reason(trace))}"
            )
        elif trace.error:
            st.error(trace.error)
        render_linked(trace.linked)
        c1, c2 = st.columns(2)
        c1.download_button(
            "Download trace (JSON)",
            data=trace.to_json(),
            file_name="knowloop-trace.json",
            mime="application/json",
            on_click="ignore",
        )
        c2.download_button(
            "Download report (HTML)",
            data=partial(report_html, trace),  # built on click, in a thread (≈ 5 MB)
            file_name=report_filename(trace),
            mime="text/html",
            on_click="ignore",
            help="one self-contained file: question, answer, evidence, graph, reward chart, "
            "costs; opens offline in any browser",
        )


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
        elif trace.answers:
            st.caption("No KB evidence to mark: the answer is not backed by KB facts.")
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
        rated = feedback_loop().rate(
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
    feedback, proposal = rated.feedback, rated.proposal
    if rated.not_learned:
        state[key + "error"] = f"feedback saved; not yet learned from ({rated.not_learned})"
    state[key + "done"] = (
        f"Saved; proposal #{proposal.id} waits in the KG editor."
        if proposal
        else f"Saved; thank you (feedback #{feedback.id})."
    )


# -- page ------------------------------------------------------------------------------------
def main() -> None:
    st.title("Ask")
    kb = choose_kb()
    if kb is None:
        return
    shown = st.session_state.get(TRACE_KEY)
    if shown is not None and shown.kb != kb:  # another KB was chosen: that run is not this KB's
        forget_page(PAGE, (TRACE_KEY, ERROR_KEY, RUN_KEY, *FORM_KEYS))
    restore_widgets(PAGE)
    st.markdown(
        f"Ask a question about **{md(kb)}**: KnowLoop reasons over the knowledge graph in a "
        "loop and shows every step — the query, what it found, and how the judge scored it."
    )
    render_examples(kb)
    req = render_form()
    card = st.container()  # the answer comes first, above the steps
    if req is not None:
        for state_key in (TRACE_KEY, ERROR_KEY, RUN_KEY):
            st.session_state.pop(state_key, None)
        keep_widgets(PAGE, FORM_KEYS)
        stream = start_run(req, kb)
        trace = run_live(stream, req.settings.threshold) if stream is not None else None
    else:
        trace = st.session_state.get(TRACE_KEY)
        if trace is not None:
            render_steps(trace)
    with card:
        if error := st.session_state.get(ERROR_KEY):
            st.error(f"Cannot answer this question: {error}")
        if trace is not None:
            render_answer(trace)
    if trace is not None:
        render_feedback(trace)
        warm_up_llm()


main()
