"""How a run is drawn: steps (with the LLM's decisions, plans, passages and calls), the
reasoning graph, the reward chart and running totals. Shared by the Ask and Compare pages;
the pictures themselves are built by core.report so the HTML export matches the page."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects  # noqa: F401 — imported with the page, not on the first Run
import streamlit as st

from core.api import (
    BADGES,
    LOW,
    NO_ANSWER,
    UNVERIFIED,
    VERIFIED,
    Answer,
    Step,
    Support,
    Trace,
    Triple,
    answer_text,
    graph_html,
    knowledge_figure,
    last_judged,
    reward_figure,
    step_topics,
    tied_at_top,
    totals,
    trace_graph,
)
from pages._shared import md

MAX_TRIPLE_ROWS = 50
MAX_ANSWER_ROWS = 10
GRAPH_HEIGHT = 560  # the graph's frame: 12 nodes a column (+ folded) read at >= 12 px


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# -- one step --------------------------------------------------------------------------------
def render_step(step: Step) -> None:
    action = step.action
    st.markdown(f"**Step {step.index} — {md(action.description)}**")
    if action.query:
        st.code(action.query, language=action.language or "text")
    st.caption(step_summary(step))
    if step.error:
        st.error(f"The query failed: {step.error}")
    render_plan(step)
    render_decisions(step)
    render_knowledge(step)
    render_passages(step)
    render_sent(step)
    if step.triples or action.kind in ("hop", "constrain", "neighbourhood"):
        render_triples(step.triples, truncated=step.truncated)
    render_calls(step)


def step_summary(step: Step) -> str:
    """One line: where it queried, what the judge said, how many candidates, how long."""
    parts = []
    if step.action.source:
        parts.append(f"source `{step.action.source}`")
    if step.action.kind not in ("answer", "stopped"):
        reason = f" — {md(step.reward_reason)}" if step.reward_reason else ""
        parts.append(f"reward **{step.reward:.2f}**{reason}")
        parts.append(plural(step.candidates, "candidate"))
    parts.append(f"{step.duration_ms:,.0f} ms")
    if step.llm_calls:
        parts.append(f"{plural(len(step.llm_calls), 'LLM call')}, {step.tokens:,} tokens")
    if not step.refreshed:
        parts.append("buffer snapshot kept (not enough new information)")
    return " · ".join(parts)


def render_plan(step: Step) -> None:
    """Why the rule agent chose this action: its plan, the score, and what it passed over."""
    details = step.action.details
    plan, score = details.get("plan"), details.get("plan_score")
    if plan:
        scored = f" (score {score:.2f})" if isinstance(score, int | float) else ""
        st.caption(f"plan: {md(plan)}{scored}")
    if note := details.get("note"):
        st.caption(md(note))
    if signals := details.get("signals"):
        with st.expander("Why this plan: the signals, their weights and what each added"):
            asked = details.get("answer_type", "")
            words = details.get("relation_words") or []
            st.caption(
                f"answer asked for: {md(asked)} · topic entity: {md(details.get('topic', ''))}"
                + (" · relation words: " + ", ".join(
                    f"{md(w)} → {md(r)} (needs {n:.2f})" for w, r, n in words) if words else "")
            )  # fmt: skip
            st.dataframe(pd.DataFrame(signals), hide_index=True)
    alternatives = details.get("alternatives") or []
    if alternatives:
        with st.expander(f"Other plans considered ({len(alternatives)})"):
            st.dataframe(pd.DataFrame(alternatives), hide_index=True)


def render_decisions(step: Step) -> None:
    """The LLM agent's closed choices (option probabilities, rule prior) and its planning."""
    details = step.action.details
    if rationale := details.get("rationale"):
        st.markdown(
            f"*Rationale ({md(rationale['source'])})* — before: “{md(rationale['before'])}”"
            + (f" → after: **{md(rationale['after'])}**" if rationale.get("after") else "")
        )
    if sources := details.get("sources"):
        st.caption(
            "sources: "
            + " · ".join(
                f"{md(name)} {info.get('score', 0.0):.2f}{' ✓' if info.get('chosen') else ''}"
                for name, info in sources.items()
            )
        )
    for key, title in (("topic_choice", "topic entity"), ("relation_choice", "relation"),
                       ("entity_choice", "entities"), ("column_choice", "column"),
                       ("comparison_choice", "comparison")):  # fmt: skip
        choice = details.get(key)
        if not choice or (key == "topic_choice" and step.index > 1):
            continue
        st.caption(
            f"{title}: chose **{md(choice.get('chosen'))}** ({md(choice.get('method'))})"
            + (f" — {md(choice['fault'])}" if choice.get("fault") else "")
        )
        if len(choice.get("options") or []) > 1:
            with st.expander(f"{title.capitalize()} options ({len(choice['options'])})"):
                st.dataframe(pd.DataFrame(choice["options"]), hide_index=True)
    plan = details.get("planning")
    if plan:
        with st.expander(f"Planning (U={plan.get('U')}, W={plan.get('W')}, N={plan.get('N')})"):
            if plan.get("fault"):
                st.warning(plan["fault"])
            for level, rows in enumerate(plan.get("levels") or [], 1):
                st.caption(f"lookahead level {level}")
                st.dataframe(pd.DataFrame(rows), hide_index=True)
            if plan.get("chosen"):
                st.caption(f"best trajectory: {md(plan['chosen'])}")


def render_knowledge(step: Step) -> None:
    """The World Knowledge Model's part in this step: P_agent, P_know, the mix (bars), the
    neighbours that voted and the task knowledge used."""
    record = step.action.details.get("wkm")
    if not record:
        return
    changed = (
        f" — the agent alone would have chosen {md(record['agent_choice'])}"
        if record.get("changed")
        else " (the agent's own choice)"
    )
    st.caption(f"World knowledge (γ = {record['gamma']}): **{md(record['chosen'])}**{changed}")
    with st.expander(
        f"State knowledge: {plural(len(record.get('neighbours') or []), 'similar state')}"
        + (f", {plural(len(record['tasks']), 'task hint')}" if record.get("tasks") else "")
    ):
        if record.get("options"):
            st.plotly_chart(knowledge_figure(record), config={"displayModeBar": False},
                            key=f"wkm-{step.index}-{id(record)}")  # fmt: skip
        st.caption(f"state summary: {md(record.get('summary', ''))}")
        for task in record.get("tasks") or []:
            st.info(f"{md(task['guidance'])} (similarity {task['sim']:.2f})")
        if record.get("neighbours"):
            st.dataframe(
                pd.DataFrame(record["neighbours"])[["summary", "next_label", "sim"]],
                hide_index=True,
            )


def render_sent(step: Step) -> None:
    """A remote KB's step: the SPARQL requests really sent to the endpoint, with its time."""
    sent = step.action.details.get("sent")
    if not sent:
        return
    title = (f"{plural(sent['requests'], 'SPARQL request')} to {sent['endpoint']} · "
             f"{sent['ms']:,.0f} ms at the endpoint")  # fmt: skip
    with st.expander(title):
        st.dataframe(pd.DataFrame(sent["queries"]), hide_index=True)
        if sent["requests"] > len(sent["queries"]):
            st.caption(f"the first {len(sent['queries'])} shown")


def render_passages(step: Step) -> None:
    for p in step.passages:
        badge = "source" if p.verified else "unverified — the model's own words"
        st.markdown(f"*{md(p.id)} ({badge})*")
        st.text(p.text[:1500])


def render_calls(step: Step) -> None:
    if not step.llm_calls:
        return
    with st.expander(f"LLM calls ({len(step.llm_calls)})"):
        st.dataframe(
            pd.DataFrame(
                [
                    {"purpose": c.purpose, "model": c.model, "prompt": c.prompt_tokens,
                     "completion": c.completion_tokens, "cost $": c.cost_usd,
                     "ms": round(c.latency_ms), "cached": c.cached, "error": c.error or ""}
                    for c in step.llm_calls
                ]
            ),
            hide_index=True,
        )  # fmt: skip


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


# -- the run as a picture ----------------------------------------------------------------------
def draw_graph(slot, steps: list[Step], answers: list[Answer] = (), topics=None) -> None:
    view = trace_graph(steps, answers, topics or step_topics(steps))
    if view.empty:
        slot.caption("No graph: nothing was retrieved from the knowledge graph.")
    else:
        slot.iframe(graph_html(view, height=GRAPH_HEIGHT), width="stretch", height=GRAPH_HEIGHT,
                    alt="Reasoning graph: steps as columns, left to right")  # fmt: skip


def draw_chart(slot, steps: list[Step], threshold: float) -> None:
    if steps:  # keyed per redraw: two redraws of equal figures would share an automatic id
        slot.plotly_chart(reward_figure(steps, threshold), config={"displayModeBar": False},
                          key=f"reward-chart-{len(steps)}")  # fmt: skip


def draw_totals(slot, steps: list[Step]) -> None:
    t = totals(steps)
    with slot.container():
        a, b, c = st.columns(3)
        a.metric("steps", t["steps"])
        b.metric("LLM calls", t["llm_calls"])
        c.metric("tokens", f"{t['tokens']:,}")
        d, e, _ = st.columns(3)
        d.metric("cost", f"${t['cost_usd']:.4f}" if t["cost_usd"] else "$0")
        e.metric("time", f"{t['ms'] / 1000:.2f} s")


# -- answers ---------------------------------------------------------------------------------
# the box each support status is shown in: only a verified answer is ever green
STATUS_BOX = {VERIFIED: st.success, LOW: st.warning, UNVERIFIED: st.info, NO_ANSWER: st.warning}


def render_answer_card(trace: Trace, *, shown: int = MAX_ANSWER_ROWS) -> None:
    """The answer first: the answer(s) (ties named as ties), the engine's support status with
    its one-line reason, the evidence of each top answer, and the LLM's claims checked."""
    support = trace.support or Support(UNVERIFIED, "the run was not checked")
    badge, _ = BADGES.get(support.status, (support.status, ""))
    box = STATUS_BOX.get(support.status, st.info)
    if trace.answers:
        box(f"**{md(answer_text(trace))}** — {badge}  \n{md(support.reason)}", icon=None)
    else:
        box(f"**No answer** — {md(support.reason)}")
    judged = last_judged(trace.steps, trace.answered_from)
    if support.status == LOW and judged and judged.reward_reason:
        st.caption(f"The judge on step {judged.index}, which the answers come from: "
                   f"{md(judged.reward_reason)}")
    tied = tied_at_top(trace.answers)
    for rank, answer in enumerate(trace.answers[:shown]):
        tie = " · tied at the top" if rank < tied and tied > 1 else ""
        with st.expander(f"{rank + 1}. {answer.label} · score {answer.score:.2f}{tie}"):
            render_evidence(answer)
    if len(trace.answers) > shown:
        st.caption(f"… and {len(trace.answers) - shown:,} more answers")
    render_claims(trace)


def render_evidence(answer: Answer) -> None:
    """What backs one answer: its KG path, its source passages, or nothing but the LLM."""
    if answer.evidence:
        st.markdown(f"Evidence path: {md(evidence_chain(answer.evidence))}")
    for p in answer.passages[:3]:
        st.caption(f"{'Source' if p.verified else 'Unverified (the model’s own words)'} "
                   f"{md(p.id)}: {md(p.text[:300])}")  # fmt: skip
    if not answer.evidence and not answer.passages:
        st.caption("No evidence kept for this answer (only the top answers carry their paths).")


def render_claims(trace: Trace) -> None:
    """The groundedness check of the LLM's own text: each claim and what it was checked with."""
    if not trace.claims:
        return
    counts = trace.claim_counts
    with st.expander(
        f"Groundedness of the LLM's text: {counts['supported']} of {len(trace.claims)} "
        f"claim(s) supported, {counts['contradicted']} contradicted"
    ):
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "status": c.status,
                        "written in": c.origin,
                        "claim": c.text,
                        "checked": c.reason,
                    }
                    for c in trace.claims
                ]  # fmt: skip
            ),
            hide_index=True,
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


def status_label(trace: Trace) -> str:
    took = f"{plural(len(trace.steps), 'step')} · {trace.duration_ms:,.0f} ms"
    return f"Answered in {took}" if trace.answers else f"No answer · {took}"
