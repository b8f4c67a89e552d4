"""Compare page: run several paradigms on the same question — concurrently, each column
showing its steps as they happen — optionally against a gold answer, and read them side by
side: answer (ties as ties), correct or not (the Hits@1 of `knowloop eval`), support status,
the LLM's supported claims, steps, LLM calls, tokens, cost, engine and wall time; bar charts
of what is not zero; every trace in full."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pandas as pd
import plotly.express as px
import streamlit as st

from core.api import Comparison, compare_stream, paradigm_names
from pages._render import render_answer_card, render_step, status_label
from pages._shared import (
    choose_kb,
    example_questions,
    forget_page,
    get_engine,
    keep_widgets,
    md,
    restore_widgets,
    setting_widget,
    warm_up_llm,
)

RESULT_KEY, ERROR_KEY = "cmp_results", "cmp_error"
PAGE = "cmp"
FORM_KEYS = ("cmp_question", "cmp_paradigms", "cmp_gold", "cmp_max_steps", "cmp_threshold")
DEFAULT = ["kg-only", "llmxkg"]
# the bar charts: (row column, title); one is left out when every paradigm's value is 0
CHARTS = (("tokens", "Tokens"), ("cost_usd", "Cost (USD)"), ("engine_ms", "Engine time (ms)"))


@dataclass
class Request:
    question: str
    paradigms: list[str]
    gold: list[str]
    max_steps: int
    threshold: float


def render_form(kb: str) -> Request | None:
    names = paradigm_names()
    examples = example_questions(kb).questions
    saved = get_engine(open_default=False).settings.load()
    with st.form("cmp_form", border=False):
        question = st.text_input(
            "Question", key="cmp_question", placeholder=examples[0] if examples else ""
        )
        c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
        chosen = c1.multiselect(
            "Paradigms", names, default=[n for n in DEFAULT if n in names], key="cmp_paradigms"
        )
        gold = c2.text_input(
            "Gold answer(s), optional", key="cmp_gold", help="several gold answers separated by |"
        )
        c3, c4, c5 = st.columns([2, 2, 1], vertical_alignment="bottom")
        max_steps = setting_widget(c3, "max_steps", "cmp_max_steps", saved.max_steps)
        threshold = setting_widget(c4, "threshold", "cmp_threshold", saved.threshold)
        submitted = c5.form_submit_button("Compare", type="primary", width="stretch")
    if not submitted:
        return None
    gold_answers = [g.strip() for g in gold.split("|") if g.strip()]
    return Request(question, chosen, gold_answers, int(max_steps), float(threshold))


def run(req: Request, kb: str) -> None:
    """Run the paradigms concurrently; each column shows its latest step as it happens."""
    st.session_state.pop(RESULT_KEY, None)
    st.session_state.pop(ERROR_KEY, None)
    try:
        settings = replace(
            get_engine(open_default=False).settings.load().loop_settings(),
            max_steps=req.max_steps,
            threshold=req.threshold,
        )
        events = compare_stream(get_engine(), req.question, req.paradigms, settings,
                                kb=kb, gold=req.gold or None)  # fmt: skip
        columns = st.columns(len(req.paradigms)) if req.paradigms else []
        live = []
        for col, name in zip(columns, req.paradigms, strict=True):
            col.markdown(f"**`{name}`**")
            live.append((col.progress(0.0, text="waiting…"), col.empty()))
        results: dict[int, Comparison] = {}
        for event in events:
            bar, line = live[event.index]
            if event.step is not None:
                step = event.step
                bar.progress(min(1.0, step.index / req.max_steps),
                             text=f"step {step.index} · reward {step.reward:.2f}")  # fmt: skip
                line.caption(md(step.action.description))
            else:
                results[event.index] = event.result
                bar.progress(1.0, text=status_label(event.result.trace) if event.result.trace
                             else "failed")  # fmt: skip
    except ValueError as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return
    ordered = [results[i] for i in range(len(req.paradigms))]
    st.session_state[RESULT_KEY] = (req.question, req.gold, ordered, kb)
    st.rerun()  # draw the results from the stored comparison, without the live columns


def render_results(question: str, gold: list[str], results: list[Comparison], kb: str) -> None:
    rows = pd.DataFrame([r.row() for r in results])
    if not gold:
        rows = rows.drop(columns=["correct"])
    st.subheader(f"“{question}”")
    st.caption(f"on {md(kb)}")
    st.dataframe(
        rows,
        hide_index=True,
        column_config={
            "correct": st.column_config.CheckboxColumn(
                "correct",
                help="Hits@1 as in knowloop eval: a tie at the top counts only when "
                "every tied answer is gold",
            ),
            "cost_usd": st.column_config.NumberColumn("cost USD", format="$%.5f"),
            "engine_ms": st.column_config.NumberColumn(
                "engine ms", format="%.0f", help="the run's own clock (the trace's duration)"
            ),
            "wall_ms": st.column_config.NumberColumn(
                "wall ms",
                format="%.0f",
                help="from start to finish as seen by this page, "
                "including waiting for the shared local model",
            ),
        },  # fmt: skip
    )
    charts = [(metric, title) for metric, title in CHARTS if rows[metric].astype(float).any()]
    for col, (metric, title) in zip(st.columns(max(1, len(charts))), charts, strict=False):
        fig = px.bar(rows, x="paradigm", y=metric, title=title, height=260)
        fig.update_layout(margin={"l": 10, "r": 10, "t": 40, "b": 10})
        col.plotly_chart(fig, config={"displayModeBar": False}, key=f"cmp_chart_{metric}")
    if len(charts) < len(CHARTS):
        left_out = [title for metric, title in CHARTS if (metric, title) not in charts]
        st.caption(f"Not charted (0 for every paradigm): {', '.join(left_out)}")
    columns = st.columns(len(results))
    for col, result in zip(columns, results, strict=True):
        with col:
            render_column(result)


def render_column(result: Comparison) -> None:
    st.markdown(f"### `{result.paradigm}`")
    if result.trace is None:
        st.error(f"Could not run: {result.error}")
        return
    trace = result.trace
    if result.correct is not None:
        st.markdown("✅ correct (Hits@1)" if result.correct else "❌ not the gold answer")
    render_answer_card(trace, shown=3)
    with st.expander(f"Full trace: {status_label(trace)}"):
        for step in trace.steps:
            render_step(step)


def main() -> None:
    st.title("Compare")
    kb = choose_kb()
    if kb is None:
        return
    shown = st.session_state.get(RESULT_KEY)
    if shown is not None and shown[-1] != kb:  # another KB was chosen
        forget_page(PAGE, (RESULT_KEY, ERROR_KEY, *FORM_KEYS))
    restore_widgets(PAGE)
    st.markdown(
        f"Run the reasoning paradigms on the same question about **{md(kb)}** and compare "
        "answers and costs."
    )
    request = render_form(kb)
    if request is not None:
        keep_widgets(PAGE, FORM_KEYS)
        run(request, kb)
    if error := st.session_state.get(ERROR_KEY):
        st.error(f"Cannot compare: {error}")
    if RESULT_KEY in st.session_state:
        render_results(*st.session_state[RESULT_KEY])
    warm_up_llm()


main()
