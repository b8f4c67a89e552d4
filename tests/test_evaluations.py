"""The Evaluate page's core: the evaluation iterator (the one function the CLI and the page
share), the stored evaluations (round trip, a cancelled evaluation keeps its rows, a failed
one says so), the per-question table and its CSV, Hits@1 per question type, comparing two
evaluations, the summary download's contract and refused question files.

Every store lives in a workspace of the test's own (the small lab KB); nothing writes into
the shared session workspaces."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from pathlib import Path

import pytest

from core.engine import Engine
from core.evaluate import (
    SUMMARY_KEYS,
    QuestionResult,
    evaluate,
    evaluate_iter,
    parse_question_file,
    read_questions,
    sample_questions,
    summarize,
    write_details,
)
from core.evaluations import (
    TABLE_COLUMNS,
    EvaluationError,
    EvaluationStore,
    StoredRow,
    compare_rows,
    compare_summaries,
    group_column,
    hits_by_group,
    result_table,
    run_evaluation,
    settings_record,
    summaries,
    summaries_json,
    table_csv,
)
from core.loop import LoopSettings
from core.workspace import Workspace

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# kg-only answers the employer (a lab) for "which town hosts the employer of X": gold set to
# the lab makes a hit, gold set to the town a miss — four of each, two question types
EMPLOYERS = {"Ana Varga": "North Lab", "Ben Okafor": "South Lab", "Cleo Marsh": "East Lab",
             "Dev Raman": "West Lab"}  # fmt: skip
TOWNS = {"Eli Stone": "Varn", "Fay Lund": "Quell", "Gus Pike": "Tosk", "Hana Ito": "Mirr"}
DETAIL_KEYS = [
    "question", "gold", "predicted", "hits_at_1", "exact_match", "f1", "latency_ms",
    "llm_calls", "prompt_tokens", "completion_tokens", "cost_usd", "error", "steps",
    "invalid_steps", "useless_steps", "path", "line", "extra", "tied", "support", "claims",
    "n_predicted",
]  # fmt: skip


def question_text() -> str:
    lines = ["question\tanswers\ttype"]
    lines += [
        f"which town hosts the employer of [{p}]\t{a}\temployer" for p, a in EMPLOYERS.items()
    ]
    lines += [f"which town hosts the employer of [{p}]\t{a}\ttown" for p, a in TOWNS.items()]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    ws = Workspace(tmp_path_factory.mktemp("eval-lab"))
    ws.import_file(FIXTURES / "lab.tsv", name="lab")
    return Engine(ws)


@pytest.fixture
def questions():
    return parse_question_file(question_text().encode(), "mixed.tsv")


@pytest.fixture
def store(tmp_path: Path) -> EvaluationStore:
    return EvaluationStore(tmp_path / "evals")


def started(store: EvaluationStore, n: int, paradigms=("kg-only",)) -> int:
    return store.start(kb="lab", file="mixed.tsv", paradigms=list(paradigms),
                       settings=settings_record(LoopSettings()), sample={"size": n},
                       planned=n * len(paradigms))  # fmt: skip


# -- the iterator ------------------------------------------------------------------------------
def test_the_iterator_gives_evaluates_totals_with_each_trace(lab: Engine, questions) -> None:
    summary, results = evaluate(lab, questions, kb="lab")
    streamed = list(evaluate_iter(lab, questions, kb="lab"))
    again = summarize("kg-only", streamed)
    timing = {"median_latency_ms", "p95_latency_ms"}
    assert {k: v for k, v in again.items() if k not in timing} == {
        k: v for k, v in summary.items() if k not in timing
    }
    assert summary["n"] == 8 and summary["hits_at_1"] == 0.5
    assert [r.hits_at_1 for r in streamed] == [1.0] * 4 + [0.0] * 4
    for r in streamed:
        assert r.trace is not None and r.trace.question == r.question
        assert "trace" not in asdict(r) and "trace" not in r.details()


def test_details_rows_keep_their_shape(lab: Engine, questions, tmp_path: Path) -> None:
    _, results = evaluate(lab, questions[:2], kb="lab")
    out = tmp_path / "details.jsonl"
    write_details(results, out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [list(r) for r in rows] == [DETAIL_KEYS, DETAIL_KEYS]
    assert rows[0]["extra"] == {"type": "employer"} and rows[0]["predicted"] == ["North Lab"]
    assert QuestionResult.from_record(rows[0]).question == results[0].question


# -- the store ---------------------------------------------------------------------------------
@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_stored_evaluation_round_trips(lab: Engine, store: EvaluationStore, questions) -> None:
    eid = started(store, len(questions))
    progress = list(run_evaluation(lab, store, eid, questions, ["kg-only"], kb="lab",
                                   settings=None))  # fmt: skip
    assert [p.done for p in progress] == list(range(1, 9))
    assert progress[3].hits_at_1 == 1.0 and progress[-1].hits_at_1 == 0.5
    evaluation = store.get(eid)
    assert (evaluation.status, evaluation.done, evaluation.planned) == ("done", 8, 8)
    assert evaluation.settings["max_steps"] == 4 and "llm" not in evaluation.settings
    rows = store.rows(eid)
    assert [r.result.question for r in rows] == [q.question for q in questions]
    assert [r.result.hits_at_1 for r in rows] == [p.result.hits_at_1 for p in progress]
    trace = store.trace(eid, rows[0].seq)
    assert trace is not None and trace.answer_labels == ["North Lab"]
    assert store.summaries(eid)[0]["hits_at_1"] == 0.5
    assert [e.id for e in store.list("lab")] == [eid] and store.list("other") == []
    store.delete(eid)
    assert store.list() == []
    with pytest.raises(EvaluationError, match="no evaluation"):
        store.rows(eid)


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_cancelled_evaluation_keeps_what_finished(lab: Engine, store, questions) -> None:
    eid = started(store, len(questions))
    events = run_evaluation(lab, store, eid, questions, ["kg-only"], kb="lab", settings=None)
    for _ in range(3):
        next(events)
    assert store.get(eid).status == "running"
    events.close()  # what a Streamlit rerun does to the page's loop
    evaluation = store.get(eid)
    assert (evaluation.status, evaluation.done) == ("cancelled", 3)
    assert store.summaries(eid)[0]["n"] == 3
    with pytest.raises(EvaluationError, match="cancelled"):
        store.add_row(eid, "kg-only", store.rows(eid)[0].result)
    assert store.finish(eid, "done").status == "cancelled"  # finishing twice changes nothing


def test_a_fault_marks_the_evaluation_failed(store: EvaluationStore, questions) -> None:
    class Broken:
        def kg(self, kb):
            return None

        def ask(self, *args, **kwargs):
            raise RuntimeError("the model file is gone")

    eid = started(store, 2)
    with pytest.raises(RuntimeError):
        list(run_evaluation(Broken(), store, eid, questions[:2], ["kg-only"], kb="lab",
                            settings=None))  # fmt: skip
    assert store.get(eid).status == "failed"


def test_the_store_refuses_bad_input_and_reading_creates_nothing(tmp_path: Path) -> None:
    store = EvaluationStore(tmp_path / "fresh")
    assert store.list() == [] and not store.path.exists()
    with pytest.raises(EvaluationError, match="no evaluation 3"):
        store.get(3)
    with pytest.raises(EvaluationError, match="unknown paradigm"):
        store.start(kb="k", file="f", paradigms=["nope"], settings={}, sample={}, planned=1)
    with pytest.raises(EvaluationError, match="at least one paradigm"):
        store.start(kb="k", file="f", paradigms=[], settings={}, sample={}, planned=1)
    with pytest.raises(EvaluationError, match="at least one question"):
        store.start(kb="k", file="f", paradigms=["kg-only"], settings={}, sample={}, planned=0)
    with pytest.raises(EvaluationError, match="status"):
        store.finish(1, "running")


# -- what the page shows -----------------------------------------------------------------------
def stored(lab: Engine, questions, paradigm: str = "kg-only") -> list[StoredRow]:
    results = evaluate_iter(lab, questions, kb="lab", paradigm=paradigm)
    return [StoredRow(i, paradigm, r) for i, r in enumerate(results, start=1)]


def test_table_csv_groups_and_summary_contract(lab: Engine, questions) -> None:
    rows = stored(lab, questions)
    table = result_table(rows)
    assert len(table) == 8 and tuple(table[0])[: len(TABLE_COLUMNS)] == TABLE_COLUMNS
    assert table[0]["top answers"] == "North Lab" and table[0]["hit"] is True
    assert table[0]["type"] == "employer"
    failures = result_table(rows, failures_only=True)
    assert [r["#"] for r in failures] == [5, 6, 7, 8]
    parsed = list(csv.DictReader(io.StringIO(table_csv(failures))))
    assert [r["question"] for r in parsed] == [r["question"] for r in failures]
    assert parsed[0]["hit"] == "False" and parsed[0]["gold"] == "Varn"
    assert group_column(rows) == "type"
    assert hits_by_group(rows, "type") == [
        {"paradigm": "kg-only", "type": "employer", "n": 4, "hits_at_1": 1.0},
        {"paradigm": "kg-only", "type": "town", "n": 4, "hits_at_1": 0.0},
    ]
    items = summaries(["kg-only", "llm-only"], rows)  # a paradigm without rows is left out
    data = json.loads(summaries_json(items))
    assert len(data) == 1 and tuple(data[0]) == SUMMARY_KEYS and data[0]["n"] == 8


def test_an_empty_table_still_has_its_header() -> None:
    assert table_csv([]).splitlines() == [",".join(TABLE_COLUMNS)]


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_comparing_two_evaluations(lab: Engine, questions, store: EvaluationStore) -> None:
    a = stored(lab, questions)
    flipped = parse_question_file(
        question_text().replace("[Ana Varga]\tNorth Lab", "[Ana Varga]\tVarn")
        .replace("[Eli Stone]\tVarn", "[Eli Stone]\tNorth Lab").encode(), "flipped.tsv",
    )  # fmt: skip
    b = stored(lab, flipped[:7])  # B did not get to the last question
    diffs = compare_rows(a, b)
    assert len(diffs) == 7
    assert [d["change"] for d in diffs] == ["broken", "same", "same", "same",
                                            "fixed", "same", "same"]  # fmt: skip
    assert (diffs[0]["hit A"], diffs[0]["hit B"]) == (True, False)
    ea, eb = store.get(started(store, 8)), store.get(started(store, 8))
    table = compare_summaries(ea, summaries(["kg-only"], a), eb, summaries(["kg-only"], b))
    hits = next(r for r in table if r["metric"] == "hits_at_1")
    assert hits[f"#{ea.id} kg-only"] == 0.5 and hits[f"#{eb.id} kg-only"] == round(4 / 7, 4)
    assert hits["B − A"] == round(4 / 7 - 0.5, 4)
    assert [r["metric"] for r in table] == list(SUMMARY_KEYS[1:])
    other = [StoredRow(r.seq, "llm-only", r.result) for r in b]  # no shared paradigm
    assert len(compare_rows(a, other)) == 7
    assert compare_rows(a, []) == []


# -- question files ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"  \n\n", "empty"),
        (bytes(range(256)) * 4, "binary"),
        ("question\tanswers\nqui a réalisé\tmoi\n".encode("latin-1"), "not UTF-8"),
        (b"text\tgold\nwho\tme\n", "question' and 'answers'"),
        (b"question\tanswers\n", "no questions"),
        (b"question\tanswers\n\t\n  \tx\n", "no questions"),
    ],
)
def test_bad_question_files_are_refused_with_one_message(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message) as caught:
        parse_question_file(data, "q.tsv")
    assert str(caught.value).startswith("q.tsv: ") and "\n" not in str(caught.value)


def test_a_good_upload_reads_like_the_cli_file(tmp_path: Path) -> None:
    path = tmp_path / "q.tsv"
    path.write_text(question_text(), encoding="utf-8")
    with_bom = parse_question_file(b"\xef\xbb\xbf" + question_text().encode(), "q.tsv")
    assert with_bom == read_questions(path)
    stripped = parse_question_file(question_text().encode(), "q.tsv", strip_brackets=True)
    assert stripped[0].question == "which town hosts the employer of Ana Varga"


def test_sampling(questions) -> None:
    assert sample_questions(questions, 3) == questions[:3]
    assert sample_questions(questions, 50) == questions
    drawn = sample_questions(questions, 4, seed=7)
    assert drawn == sample_questions(questions, 4, seed=7) != questions[:4]
    assert [q.line for q in drawn] == sorted(q.line for q in drawn)
    with pytest.raises(ValueError, match="at least 1"):
        sample_questions(questions, 0)
