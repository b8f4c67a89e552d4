"""Evaluate page: run a labelled question file (uploaded, or one that came with the KB) with
one or more paradigms, watch Hits@1 as it goes, stop when you like (what finished is kept),
read one row per question, open any row's full trace, chart the results, download them,
compare two evaluations, and learn from the file (the World Knowledge Model).

UI only: sampling, running, storing, grouping, comparing and the CSV are core.evaluate and
core.evaluations. Every finished question is stored at once, so a rerun that interrupts the
script (Stop, or any other click) loses nothing; the evaluation is then marked cancelled.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass

import pandas as pd
import plotly.express as px
import streamlit as st

from core.api import (
    Evaluation,
    EvaluationStore,
    LabelledQuestion,
    LoopSettings,
    StoredRow,
    compare_rows,
    compare_summaries,
    group_column,
    hits_by_group,
    learn,
    paradigm_names,
    parse_question_file,
    result_table,
    run_evaluation,
    sample_questions,
    settings_record,
    summaries,
    summaries_json,
    table_csv,
    topics_of,
)
from pages._render import draw_chart, draw_graph, render_answer_card, render_step, status_label
from pages._shared import (
    choose_kb,
    get_engine,
    keep_widgets,
    md,
    restore_widgets,
    setting_widget,
)

SHOWN_KEY = "ev_shown"  # id of the evaluation on show
ACTIVE_KEY = "ev_active"  # id of the evaluation this session is running (until it ends)
# the choices kept while the user visits other pages (per KB; the sample size is not: its
# bound is the size of whichever file is picked)
KEPT = ("ev_file", "ev_paradigms", "ev_max_steps", "ev_threshold", "ev_sampling", "ev_seed",
        "ev_strip", "ev_failures")  # fmt: skip
ERROR_KEY = "ev_error"
LEARNED_KEY = "ev_learned"
SAMPLING = {"first": "first N", "random": "random sample (seeded)"}
DEFAULT_SAMPLE = 20


@dataclass
class Plan:
    """What Run would evaluate: the file's sampled questions and the settings."""

    file: str
    questions: list[LabelledQuestion]
    paradigms: list[str]
    settings: LoopSettings
    sample: dict


def store() -> EvaluationStore:
    return get_engine(open_default=False).evaluations


# -- the question file ---------------------------------------------------------------------
def pick_file(kb: str) -> tuple[str, bytes] | None:
    """The uploaded file, else the chosen file that came with the KB: (name, bytes)."""
    files = {p.name: p for p in get_engine(open_default=False).workspace.question_files(kb)}
    c1, c2 = st.columns(2)
    chosen = c1.selectbox(
        "Question file of this KB",
        list(files),
        index=0 if files else None,
        key="ev_file",
        placeholder="no question file came with this KB" if not files else "pick a file",
        help="labelled question files imported with the KB",
    )
    upload = c2.file_uploader(
        "Or upload a question file (TSV)",
        key="ev_upload",
        help="a header row with the columns question and answers (gold answers joined by |); "
        "other columns (type, qtype, hops, kind) are kept and charted",
    )
    if upload is not None:
        return upload.name, upload.getvalue()
    if chosen:
        try:
            return chosen, files[chosen].read_bytes()
        except OSError as exc:
            st.error(f"Cannot read {md(chosen)}: {exc}")
    return None


def read_file(name: str, data: bytes, strip: bool) -> list[LabelledQuestion] | None:
    """The file's questions, or None after one clear message (nothing runs)."""
    try:
        return parse_question_file(data, name, strip_brackets=strip)
    except ValueError as exc:
        st.error(f"Cannot use this question file: {exc}")
        return None


# -- the settings ----------------------------------------------------------------------------
def render_settings(name: str, questions: list[LabelledQuestion]) -> Plan | None:
    """Paradigms, T, R and the sample; the plan, or None (after a message) when refused."""
    names = paradigm_names()
    saved, problem = get_engine(open_default=False).settings.load_checked()
    if problem:
        st.warning(f"{problem}; using the defaults — fix them on the Settings page")
    c1, c2, c3 = st.columns([3, 2, 2])
    chosen = c1.multiselect(
        "Paradigms", names, default=["kg-only"] if "kg-only" in names else names[:1],
        key="ev_paradigms",
    )  # fmt: skip
    max_steps = setting_widget(c2, "max_steps", "ev_max_steps", saved.max_steps)
    threshold = setting_widget(c3, "threshold", "ev_threshold", saved.threshold)
    s1, s2, s3 = st.columns([2, 3, 2], vertical_alignment="bottom")
    size = s1.number_input(
        "Sample size (questions)", 1, max(1, len(questions)),
        min(DEFAULT_SAMPLE, len(questions)), key="ev_n",
    )  # fmt: skip
    mode = s2.radio(
        "Sample", list(SAMPLING), format_func=SAMPLING.get, horizontal=True, key="ev_sampling"
    )
    seed = s3.number_input("Seed", 0, 10**9, 0, key="ev_seed", disabled=mode != "random")
    if not chosen:
        st.info("Pick at least one paradigm.")
        return None
    try:
        settings = saved.loop_settings(max_steps=int(max_steps), threshold=float(threshold))
        picked = sample_questions(
            questions, int(size), seed=int(seed) if mode == "random" else None
        )
    except ValueError as exc:
        st.error(f"Bad setting: {exc}")
        return None
    sample = {"size": len(picked), "of": len(questions), "mode": mode,
              "seed": int(seed) if mode == "random" else None,
              "strip_brackets": bool(st.session_state.get("ev_strip"))}  # fmt: skip
    return Plan(name, picked, chosen, settings, sample)


# -- running -------------------------------------------------------------------------------
def reconcile() -> None:
    """An evaluation this session started and a rerun interrupted: marked cancelled with
    the rows it stored (its generator normally does this itself as it is closed)."""
    active = st.session_state.pop(ACTIVE_KEY, None)
    if active is not None:
        try:
            store().finish(active, "cancelled")
        except ValueError:
            pass


def run(plan: Plan, kb: str) -> None:
    """Run the plan: a progress bar with the running Hits@1, each row stored as it ends."""
    st.session_state.pop(ERROR_KEY, None)
    evaluations = store()
    try:
        eid = evaluations.start(
            kb=kb, file=plan.file, paradigms=plan.paradigms,
            settings=settings_record(plan.settings), sample=plan.sample,
            planned=len(plan.questions) * len(plan.paradigms),
        )  # fmt: skip
    except ValueError as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return
    st.session_state[ACTIVE_KEY] = st.session_state[SHOWN_KEY] = eid
    st.button("Stop evaluation", key="ev_stop", help="keeps every question that finished")
    bar, line = st.progress(0.0, text="starting…"), st.empty()
    events = run_evaluation(get_engine(open_default=False), evaluations, eid, plan.questions,
                            plan.paradigms, kb=kb, settings=plan.settings)  # fmt: skip
    try:
        with closing(events):
            for p in events:
                bar.progress(p.done / p.planned, text=f"{p.done}/{p.planned} · {p.paradigm} · "
                             f"running Hits@1 {p.hits_at_1:.2f}")  # fmt: skip
                mark = "✅" if p.result.hits_at_1 >= 1 else "❌"
                line.caption(f"{mark} {md(p.result.question)}")
    except ValueError as exc:  # StoreBusy, KB problems
        st.session_state[ERROR_KEY] = str(exc)
    except Exception as exc:  # noqa: BLE001 — an engine or model fault: a message, not a trace
        st.session_state[ERROR_KEY] = f"the evaluation failed ({type(exc).__name__}: {exc})"
    st.session_state.pop(ACTIVE_KEY, None)
    for picker in ("ev_open", "ev_cmp_a", "ev_cmp_b"):  # pickers default to the newest again
        st.session_state.pop(picker, None)
    st.rerun()  # draw the stored results, without the live bar


# -- results ---------------------------------------------------------------------------------
def render_results(evaluation: Evaluation, rows: list[StoredRow]) -> None:
    st.subheader(f"Evaluation #{evaluation.id}: {evaluation.file}")
    st.caption(
        f"KB {md(evaluation.kb)} · {md(', '.join(evaluation.paradigms))} · "
        f"T {evaluation.settings.get('max_steps')} · R {evaluation.settings.get('threshold')} · "
        f"{evaluation.status}, {evaluation.done} of {evaluation.planned} done"
    )
    if evaluation.status == "cancelled":
        st.warning(f"Stopped: {evaluation.done} of {evaluation.planned} questions were done "
                   "and are kept; the summary covers those.")  # fmt: skip
    items = summaries(evaluation.paradigms, rows)
    if not items:
        st.info("No question finished in this evaluation.")
        return
    cols = st.columns(len(items))
    for col, s in zip(cols, items, strict=True):
        col.metric(f"Hits@1 · {s['paradigm']}", f"{s['hits_at_1']:.2f}", help=f"n = {s['n']}")
    st.dataframe(pd.DataFrame(items), hide_index=True, key="ev_summary")
    render_table(evaluation, rows)
    render_charts(rows, items)
    render_downloads(evaluation, rows, items)


def render_table(evaluation: Evaluation, rows: list[StoredRow]) -> None:
    """One row per question; a click opens its trace below."""
    failures = st.toggle("Failures only", key="ev_failures")
    table = result_table(rows, failures_only=failures)
    if not table:
        st.success("No failures: every question's top answer is gold.")
        return
    st.caption("Click a row to open its full trace.")
    picked = st.dataframe(
        pd.DataFrame(table), hide_index=True, key=results_key(evaluation.id, failures),
        on_select="rerun",
        selection_mode="single-row",
        column_config={"hit": st.column_config.CheckboxColumn(
            "hit", help="Hits@1: a tie at the top counts only when every tied answer is gold")},
    )  # fmt: skip
    selected = picked.selection.rows if picked is not None else []
    if selected and selected[0] < len(table):
        render_trace(evaluation, table[selected[0]])


def results_key(evaluation_id: int, failures: bool) -> str:
    """One table widget per evaluation and filter: a selected row is a position in the table
    on show, so another table starts with no row selected (never another question's)."""
    return f"ev_results_{evaluation_id}_{'failures' if failures else 'all'}"


def render_trace(evaluation: Evaluation, row: dict) -> None:
    """The row's full trace, drawn as on Ask: answer card, steps, graph, reward chart."""
    try:
        trace = store().trace(evaluation.id, row["#"])
    except ValueError as exc:
        st.error(f"Cannot open this row's trace: {exc}")
        return
    with st.container(border=True, key="ev_trace"):
        st.subheader(f"Trace: {row['question']}")
        st.caption(f"gold: {md(row['gold'])} · {'hit' if row['hit'] else 'miss'}")
        if trace is None:
            st.error(f"The question did not run: {row['error']}")
            return
        render_answer_card(trace)
        left, right = st.columns([3, 2])
        with left, st.expander(status_label(trace), expanded=True):
            for step in trace.steps:
                render_step(step)
        draw_graph(right.empty(), trace.steps, trace.answers, topics_of(trace))
        draw_chart(right.empty(), trace.steps, float(trace.settings.get("threshold", 0.8)))


def render_charts(rows: list[StoredRow], items: list[dict]) -> None:
    """Hits@1 per paradigm (and per question type), tokens and latency distributions."""
    charts = [px.bar(pd.DataFrame(items), x="paradigm", y="hits_at_1", title="Hits@1",
                     range_y=[0, 1])]  # fmt: skip
    column = group_column(rows)
    if column:
        groups = pd.DataFrame(hits_by_group(rows, column))
        charts.append(
            px.bar(
                groups,
                x=column,
                y="hits_at_1",
                color="paradigm",
                barmode="group",
                title=f"Hits@1 per {column}",
                range_y=[0, 1],
            )
        )
    table = pd.DataFrame(result_table(rows))
    if table["tokens"].any():
        charts.append(px.histogram(table, x="tokens", color="paradigm", title="Tokens"))
    charts.append(px.histogram(table, x="latency ms", color="paradigm", title="Latency (ms)"))
    for i, (col, fig) in enumerate(zip(st.columns(len(charts)), charts, strict=True)):
        fig.update_layout(height=280, margin={"l": 10, "r": 10, "t": 40, "b": 10})
        col.plotly_chart(fig, config={"displayModeBar": False}, key=f"ev_chart_{i}")
    if not table["tokens"].any():
        st.caption("Not charted: tokens (0 for every question — no LLM calls).")


def render_downloads(evaluation: Evaluation, rows: list[StoredRow], items: list[dict]) -> None:
    c1, c2 = st.columns(2)
    c1.download_button(
        "Download table (CSV)", table_csv(result_table(rows)),
        file_name=f"evaluation-{evaluation.id}.csv", mime="text/csv", key="ev_csv",
        on_click="ignore",
    )  # fmt: skip
    c2.download_button(
        "Download summary (JSON)", summaries_json(items),
        file_name=f"evaluation-{evaluation.id}-summary.json", mime="application/json",
        key="ev_json", on_click="ignore", help="one `knowloop eval --json` summary per paradigm",
    )  # fmt: skip


# -- past evaluations ------------------------------------------------------------------------
def render_past(kb: str) -> None:
    """Every stored evaluation of this KB: open one, delete one, compare two."""
    st.header("Past evaluations")
    past = store().list(kb)
    if not past:
        st.caption("None yet for this KB.")
        return
    by_id = {e.id: e for e in past}
    c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
    chosen = c1.selectbox("Evaluation", list(by_id), format_func=lambda i: by_id[i].label(),
                          key="ev_open")  # fmt: skip
    c2.button("Show", key="ev_show", on_click=show, args=(chosen,))
    st.button("Delete this evaluation", key="ev_delete", on_click=delete, args=(chosen,))
    if len(past) >= 2:
        render_compare(by_id)


def show(evaluation_id: int) -> None:
    st.session_state[SHOWN_KEY] = evaluation_id


def delete(evaluation_id: int) -> None:
    try:
        store().delete(evaluation_id)
    except ValueError as exc:
        st.session_state[ERROR_KEY] = str(exc)
        return
    if st.session_state.get(SHOWN_KEY) == evaluation_id:
        st.session_state.pop(SHOWN_KEY)


def render_compare(by_id: dict[int, Evaluation]) -> None:
    st.subheader("Compare two evaluations")
    ids = list(by_id)
    c1, c2 = st.columns(2)
    a = c1.selectbox("Evaluation A", ids, index=1, format_func=lambda i: by_id[i].label(),
                     key="ev_cmp_a")  # fmt: skip
    b = c2.selectbox("Evaluation B", ids, index=0, format_func=lambda i: by_id[i].label(),
                     key="ev_cmp_b")  # fmt: skip
    if a == b:
        st.caption("Pick two different evaluations.")
        return
    evaluations = store()
    rows_a, rows_b = evaluations.rows(a), evaluations.rows(b)
    ea, eb = by_id[a], by_id[b]
    table = compare_summaries(ea, summaries(ea.paradigms, rows_a),
                              eb, summaries(eb.paradigms, rows_b))  # fmt: skip
    st.dataframe(pd.DataFrame(table), hide_index=True, key="ev_cmp_summary")
    diffs = compare_rows(rows_a, rows_b)
    if not diffs:
        st.caption("The two evaluations share no question.")
        return
    changed = [d for d in diffs if d["change"] != "same"]
    fixed = sum(d["change"] == "fixed" for d in diffs)
    st.markdown(
        f"**{len(diffs)} shared questions** · {fixed} fixed in B · "
        f"{len(changed) - fixed} broken in B · {len(diffs) - len(changed)} the same"
    )
    only = st.toggle("Changed questions only", key="ev_cmp_changed", value=True)
    st.dataframe(pd.DataFrame(changed if only else diffs), hide_index=True, key="ev_cmp_rows")


# -- learning --------------------------------------------------------------------------------
def render_learn(plan: Plan, kb: str) -> None:
    """Learn from the same sample (chosen / rejected trajectories, state and task knowledge);
    evaluation itself never learns from gold."""
    with st.expander("Learn from this file (World Knowledge Model)"):
        st.caption(
            f"Runs the {len(plan.questions)} sampled questions with the agent alone and keeps "
            "what they teach for later runs (see the Knowledge page). Evaluating never does."
        )
        names = paradigm_names()
        paradigm = st.selectbox("Learn with", names, key="ev_learn_paradigm")
        if st.button("Learn from this file", key="ev_learn"):
            bar = st.progress(0.0, text="learning…")

            def progress(items):
                for i, item in enumerate(items, start=1):
                    yield item
                    bar.progress(i / len(plan.questions), text=f"{i}/{len(plan.questions)}")

            try:
                report = learn(get_engine(open_default=False), plan.questions, kb=kb,
                               paradigm=paradigm, settings=plan.settings,
                               progress=progress)  # fmt: skip
                st.session_state[LEARNED_KEY] = report.summary()
            except ValueError as exc:
                st.session_state[LEARNED_KEY] = {"error": str(exc)}
        if learned := st.session_state.get(LEARNED_KEY):
            if "error" in learned:
                st.error(f"Learning stopped: {learned['error']}")
            else:
                st.success(
                    f"Learned from {learned['n']} questions ({learned['skipped']} learned "
                    f"before): {learned['correct']} right, {learned['mined']} paths mined, "
                    f"{learned['states']} state entries, {learned['tasks']} task hints."
                )
                st.json(learned, expanded=False)


# -- page ------------------------------------------------------------------------------------
def main() -> None:
    st.title("Evaluate")
    st.markdown("Run a labelled question file and see, question by question, where the "
                "reasoning goes right or wrong.")  # fmt: skip
    reconcile()
    kb = choose_kb()
    if kb is None:
        return
    restore_widgets(f"ev-{kb}")
    plan = None
    picked = pick_file(kb)
    st.checkbox("Strip [ ] topic-entity marks before asking", key="ev_strip")
    if picked is not None:
        questions = read_file(*picked, strip=bool(st.session_state.get("ev_strip")))
        if questions is not None:
            st.caption(f"{md(picked[0])}: {len(questions)} questions")
            plan = render_settings(picked[0], questions)
    else:
        st.info("Pick a question file of this KB or upload one.")
    if plan is not None and st.button("Run evaluation", key="ev_run", type="primary"):
        run(plan, kb)
    if error := st.session_state.get(ERROR_KEY):
        st.error(f"Cannot evaluate: {error}")
    render_shown(kb)
    if plan is not None:
        render_learn(plan, kb)
    render_past(kb)
    keep_widgets(f"ev-{kb}", KEPT)


def render_shown(kb: str) -> None:
    shown = st.session_state.get(SHOWN_KEY)
    if shown is None:
        return
    try:
        evaluation, rows = store().get(shown), store().rows(shown)
    except ValueError as exc:
        st.error(f"Cannot show evaluation #{shown}: {exc}")
        return
    if evaluation.kb == kb:
        render_results(evaluation, rows)


main()
