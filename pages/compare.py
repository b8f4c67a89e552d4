"""Compare page: run several paradigms on the same question — concurrently — optionally
against a gold answer, and read them side by side: answer, correct or not, steps, LLM calls,
tokens, cost, latency, what backs the answer; bar charts of the costs; every trace in full."""

from __future__ import annotations

import pandas as pd
import plotly.express as px
import streamlit as st

from core import app_settings
from core.compare import Comparison, compare
from pages._render import render_answers, render_step, status_label
from pages._shared import example_questions, get_engine, md, paradigm_names, warm_up_llm

RESULT_KEY, ERROR_KEY = "cmp_results", "cmp_error"
DEFAULT = ["kg-only", "llmxkg"]


def render_form() -> tuple[str, list[str], list[str]] | None:
    names = paradigm_names()
    examples = example_questions()
    with st.form("cmp_form", border=False):
        question = st.text_input(
            "Question", key="cmp_question", placeholder=examples[0] if examples else ""
        )
        c1, c2, c3 = st.columns([3, 3, 1], vertical_alignment="bottom")
        chosen = c1.multiselect(
            "Paradigms", names, default=[n for n in DEFAULT if n in names], key="cmp_paradigms"
        )
        gold = c2.text_input(
            "Gold answer(s), optional", key="cmp_gold", help="several gold answers separated by |"
        )
        submitted = c3.form_submit_button("Compare", type="primary", width="stretch")
    if not submitted:
        return None
    return question, chosen, [g.strip() for g in gold.split("|") if g.strip()]


def run(question: str, chosen: list[str], gold: list[str]) -> None:
    st.session_state.pop(RESULT_KEY, None)
    st.session_state.pop(ERROR_KEY, None)
    try:
        settings = app_settings.load().loop_settings()
        with st.spinner(f"Running {len(chosen)} paradigm(s) on the same question…"):
            results = compare(get_engine(), question, chosen, settings, gold=gold or None)
    except ValueError as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return
    st.session_state[RESULT_KEY] = (question, gold, results)


def render_results(question: str, gold: list[str], results: list[Comparison]) -> None:
    rows = pd.DataFrame([r.row() for r in results])
    if not gold:
        rows = rows.drop(columns=["correct"])
    st.subheader(f"“{question}”")
    st.dataframe(
        rows,
        hide_index=True,
        column_config={
            "cost_usd": st.column_config.NumberColumn(format="$%.5f"),
            "latency_ms": st.column_config.NumberColumn("latency ms", format="%.0f"),
        },
    )
    charts = st.columns(3)
    for col, metric, title in zip(
        charts,
        ("tokens", "cost_usd", "latency_ms"),
        ("Tokens", "Cost (USD)", "Latency (ms)"),
        strict=True,
    ):
        fig = px.bar(rows, x="paradigm", y=metric, title=title, height=260)
        fig.update_layout(margin={"l": 10, "r": 10, "t": 40, "b": 10})
        col.plotly_chart(fig, config={"displayModeBar": False}, key=f"cmp_chart_{metric}")
    columns = st.columns(len(results))
    for col, result in zip(columns, results, strict=True):
        with col:
            render_column(result, gold)


def render_column(result: Comparison, gold: list[str]) -> None:
    st.markdown(f"### `{result.paradigm}`")
    if result.trace is None:
        st.error(f"Could not run: {result.error}")
        return
    trace = result.trace
    if result.correct is not None:
        st.markdown("✅ correct" if result.correct else "❌ not the gold answer")
    if trace.answers:
        render_answers(trace.answers)
    else:
        st.warning(f"No answer — {md(trace.stop_reason)}")
    with st.expander(f"Full trace: {status_label(trace)}"):
        for step in trace.steps:
            render_step(step)


def main() -> None:
    st.title("Compare")
    st.markdown("Run the reasoning paradigms on the same question and compare answers and costs.")
    request = render_form()
    if request is not None:
        run(*request)
    if error := st.session_state.get(ERROR_KEY):
        st.error(f"Cannot compare: {error}")
    if RESULT_KEY in st.session_state:
        render_results(*st.session_state[RESULT_KEY])
    warm_up_llm()


main()
