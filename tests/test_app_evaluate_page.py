"""The Evaluate page, driven headless through AppTest on the small lab KB (a user KB, with
a question file that came with it): run kg-only, filter to failures, open a row's trace,
upload a file (good and bad), compare two stored evaluations, learn from the file.

AppTest cannot click a dataframe row, so the row selection is put into the page's session
state as a click would; the browser test clicks the row itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.evaluations import EvaluationStore
from core.wkm.store import KnowledgeStore
from core.workspace import Workspace

PAGE = Path(__file__).resolve().parents[1] / "pages" / "evaluate.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MIXED = (
    "question\tanswers\ttype\n"
    "which town hosts the employer of [Ana Varga]\tNorth Lab\temployer\n"
    "which town hosts the employer of [Ben Okafor]\tSouth Lab\temployer\n"
    "which town hosts the employer of [Cleo Marsh]\tTosk\ttown\n"
    "which town hosts the employer of [Dev Raman]\tMirr\ttown\n"
)


@pytest.fixture
def home(knowloop_home: Path, tmp_path: Path) -> Path:
    """$KNOWLOOP_HOME with the lab KB and a labelled file kept with it."""
    ws = Workspace(knowloop_home)
    ws.import_file(FIXTURES / "lab.tsv", name="lab")
    mixed = tmp_path / "mixed.tsv"
    mixed.write_text(MIXED, encoding="utf-8")
    ws.add_question_file("lab", mixed, "mixed.tsv")
    return knowloop_home


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def open_page() -> AppTest:
    return run(AppTest.from_file(PAGE, default_timeout=60))


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [s.value for s in at.subheader] + [e.value for e in at.error]
    return "\n".join(parts).replace("\\", "")


def frame(at: AppTest, key: str):
    return next(df.value for df in at.dataframe if df.key == key)


def evaluate_kg_only(at: AppTest) -> AppTest:
    assert at.selectbox(key="ev_file").value == "mixed.tsv"
    assert at.multiselect(key="ev_paradigms").value == ["kg-only"]
    assert at.number_input(key="ev_n").value == 4  # min(20, the file's 4 questions)
    at.button(key="ev_run").click()
    return run(at)


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_run_filter_and_open_a_failing_rows_trace(home: Path) -> None:
    at = evaluate_kg_only(open_page())
    (evaluation,) = EvaluationStore(home).list("lab")
    assert (evaluation.status, evaluation.done) == ("done", 4)
    assert {m.label: m.value for m in at.metric}["Hits@1 · kg-only"] == "0.50"
    results = f"ev_results_{evaluation.id}_all"
    assert len(frame(at, results)) == 4
    assert len(at.get("plotly_chart")) >= 3  # Hits@1, per type, latency
    at.toggle(key="ev_failures").set_value(True)
    run(at)
    failures = frame(at, f"ev_results_{evaluation.id}_failures")
    assert list(failures["question"]) == [
        "which town hosts the employer of [Cleo Marsh]",
        "which town hosts the employer of [Dev Raman]",
    ]
    assert not any("Trace:" in s.value for s in at.subheader)
    at.session_state[f"ev_results_{evaluation.id}_failures"] = {
        "selection": {"rows": [0], "columns": [], "cells": []}
    }
    run(at)
    assert "Trace: which town hosts the employer of [Cleo Marsh]" in texts(at)
    assert "gold: Tosk · miss" in texts(at)
    assert any("Step 1" in m.value for m in at.markdown)
    at.toggle(key="ev_failures").set_value(False)  # another table: the selection is dropped
    run(at)
    assert "Trace:" not in texts(at)


def test_a_bad_upload_is_one_message_and_nothing_runs(home: Path) -> None:
    at = open_page()
    at.file_uploader(key="ev_upload").set_value(("q.bin", bytes(range(256)) * 8, "text/plain"))
    run(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "binary file" in errors[0]
    assert not [b for b in at.button if b.key == "ev_run"]
    at.file_uploader(key="ev_upload").set_value(("q.tsv", b"text\tgold\na\tb\n", "text/plain"))
    run(at)
    assert [e.value for e in at.error] == [
        "Cannot use this question file: q.tsv: need a TSV header with columns 'question' and "
        "'answers' (found: text, gold)"
    ]
    assert EvaluationStore(home).list() == []


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_an_uploaded_file_runs_and_two_evaluations_compare(home: Path) -> None:
    at = evaluate_kg_only(open_page())
    at.file_uploader(key="ev_upload").set_value(
        ("flipped.tsv", MIXED.replace("\tTosk\t", "\tEast Lab\t").encode(), "text/plain")
    )
    run(at)
    assert "flipped.tsv: 4 questions" in texts(at)
    at.button(key="ev_run").click()
    run(at)
    newer, older = EvaluationStore(home).list("lab")
    assert newer.file == "flipped.tsv" and newer.status == "done"
    assert {m.label: m.value for m in at.metric}["Hits@1 · kg-only"] == "0.75"
    assert at.selectbox(key="ev_cmp_a").value == older.id
    assert at.selectbox(key="ev_cmp_b").value == newer.id
    assert at.selectbox(key="ev_open").value == newer.id  # the run just made, not the old pick
    assert "**4 shared questions** · 1 fixed in B · 0 broken in B · 3 the same" in texts(at)
    changed = next(df.value for df in at.dataframe if "change" in df.value.columns)
    assert list(changed["change"]) == ["fixed"]
    at.selectbox(key="ev_open").select(older.id)
    run(at)
    at.button(key="ev_show").click()
    run(at)
    assert f"Evaluation #{older.id}: mixed.tsv" in texts(at)
    at.selectbox(key="ev_open").select(newer.id)
    run(at)
    at.button(key="ev_delete").click()
    run(at)
    assert [e.id for e in EvaluationStore(home).list("lab")] == [older.id]


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_learn_from_the_file(home: Path) -> None:
    at = open_page()
    at.button(key="ev_learn").click()
    run(at)
    assert any("Learned from 4 questions" in s.value for s in at.success)
    assert KnowledgeStore(home).counts("lab")["tasks"] >= 1
    assert EvaluationStore(home).list() == []  # learning is not an evaluation
