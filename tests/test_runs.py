"""The run store: runs, feedback, proposals, trajectories, impact queries and file locking."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

import duckdb
import pytest

from core.engine import Engine
from core.runs import FeedbackError, RunStore, StoreBusy
from core.trace import Action, Answer, Step, Trace, Triple

E = "<https://example.org/e/{}>".format
R = "<https://example.org/r/{}>".format


def triple(s: str, p: str, o: str) -> Triple:
    return Triple(E(s), R(p), E(o), s, p.replace("_", " "), o)


DIRECTED = triple("Moan", "directed_by", "Brewer")
STARRED = triple("Moan", "starred_actors", "Ricci")
WROTE = triple("Moan", "written_by", "Brewer")


def make_trace(
    question: str = "who directed Moan",
    kb: str = "films",
    steps: list[list[Triple]] | None = None,
    answers: list[tuple[str, list[Triple]]] | None = None,
    linked: Sequence[str] = (),
) -> Trace:
    steps = [[DIRECTED, STARRED]] if steps is None else steps
    answers = [("Brewer", [DIRECTED])] if answers is None else answers
    return Trace(
        question=question,
        paradigm="kg-only",
        kb=kb,
        steps=[
            Step(index=i, action=Action(kind="hop", description="follow"), triples=ts)
            for i, ts in enumerate(steps)
        ],
        answers=[Answer(id=E(label), label=label, score=1.0, evidence=ev) for label, ev in answers],
        n_answers=len(answers),
        stop_reason="done",
        linked=[{"text": n, "ids": [E(n)], "labels": [n], "score": 1.0} for n in linked],
    )


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore(tmp_path / "ws")


@pytest.fixture(scope="module")
def shared_store(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunStore, int, dict]:
    """One store with a run, a feedback and a proposal (and its row counts), never changed."""
    store = RunStore(tmp_path_factory.mktemp("runs"))
    run = store.save(make_trace())
    store.add_feedback(run, rating=1, propose_add=["x|y|z"])
    return store, run, counts(store)


def counts(store: RunStore) -> dict[str, int]:
    con = duckdb.connect(str(store.path))
    try:
        tables = ["runs", "run_triples", "run_nodes", "feedback", "proposals"]
        return {t: con.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        con.close()


# -- runs ----------------------------------------------------------------------------------


def test_real_trace_round_trips(store: RunStore, football_engine: Engine) -> None:
    trace = football_engine.ask("where was Ederson born", kb="football")
    run_id = store.save(trace)
    got = store.get(run_id)
    assert store.path == store.root / "knowloop.duckdb" and store.path.is_file()
    assert (got.id, got.kb, got.source) == (run_id, "football", "ask")
    assert got.question == trace.question and got.paradigm == trace.paradigm
    assert got.answers == trace.answer_labels == ["Osasco"]
    assert got.trace.answer_labels == trace.answer_labels
    assert len(got.trace.steps) == len(trace.steps) >= 1
    assert got.trace.to_dict() == trace.to_dict()
    used = got.trace.answers[0].evidence[0]
    assert [r.id for r in store.runs_using("football", [used])] == [run_id]
    assert [r.id for r in store.runs_using("football", nodes={used.o})] == [run_id]
    assert store.runs_using("metaqa", [used]) == []


def test_reads_do_not_create_the_file(store: RunStore) -> None:
    assert store.list() == [] and store.proposals() == [] and store.trajectories() == []
    assert store.feedback_for(1) == [] and store.runs_using("films", [DIRECTED]) == []
    with pytest.raises(FeedbackError, match="no run 1"):
        store.get(1)
    assert not store.root.exists()


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_list_is_newest_first_and_filters_by_kb(store: RunStore) -> None:
    a = store.save(make_trace("q1"), source="ask")
    b = store.save(make_trace("q2", kb="other"), source="app")
    c = store.save(make_trace("q3"), source="reask")
    assert [r.id for r in store.list()] == [c, b, a]
    assert [r.id for r in store.list(kb="films")] == [c, a]
    assert [r.id for r in store.list(limit=1)] == [c]
    assert store.list(kb="nope") == []
    assert store.get(b).source == "app"
    with pytest.raises(FeedbackError, match="limit"):
        store.list(limit=0)
    with pytest.raises(FeedbackError, match="no run 99"):
        store.get(99)


def test_save_normalises_used_triples_and_nodes(store: RunStore) -> None:
    store.save(make_trace(steps=[[DIRECTED, STARRED], [DIRECTED]], linked=["Moan", "Snake"]))
    c = counts(store)
    assert c["run_triples"] == 2  # distinct (s, p, o) over steps and evidence
    assert c["run_nodes"] == 4  # Moan, Brewer, Ricci, Snake
    with pytest.raises(FeedbackError):
        store.save({"question": "not a trace"})  # type: ignore[arg-type]


def test_two_stores_in_one_process(tmp_path: Path) -> None:
    one, two = RunStore(tmp_path), RunStore(tmp_path)
    a = one.save(make_trace("q1"))
    b = two.save(make_trace("q2"))
    assert [r.id for r in one.list()] == [b, a] == [r.id for r in two.list()]
    one.add_feedback(b, rating=1)
    assert [r.id for r, _ in two.trajectories()] == [b]


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_threads_of_one_process_take_turns(tmp_path: Path) -> None:
    """The web app serves users from threads; each with its own store object, like pages."""
    errors: list[BaseException] = []
    ids: list[int] = []

    def work(i: int) -> None:
        try:
            store = RunStore(tmp_path)
            ids.append(store.save(make_trace(f"q{i}")))
            store.add_feedback(ids[-1], rating=1)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(set(ids)) == 3
    assert len(RunStore(tmp_path).trajectories()) == 3


# -- feedback and proposals ----------------------------------------------------------------


def test_feedback_with_rating_comment_and_wrong_triples(store: RunStore) -> None:
    run = store.save(make_trace())
    fb, proposal = store.add_feedback(
        run, rating=-1, comment="  Ricci did not direct it\n", wrong=[STARRED], who="ana"
    )
    assert proposal is None
    assert (fb.run_id, fb.rating, fb.comment, fb.wrong, fb.who) == (
        run,
        -1,
        "Ricci did not direct it",
        [STARRED],
        "ana",
    )
    fb2, _ = store.add_feedback(run, comment="second thoughts")
    assert store.feedback_for(run) == [fb, fb2]
    assert counts(store)["proposals"] == 0


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_proposals_only_with_add_or_remove(store: RunStore) -> None:
    run = store.save(make_trace(kb="films"))
    _, none = store.add_feedback(run, rating=-1, wrong=[DIRECTED])
    assert none is None
    fb, prop = store.add_feedback(
        run,
        comment="wrong director",
        propose_add=["Black Snake Moan|directed_by|Craig Brewer"],
        propose_remove=["Moan|directed by|Ricci"],
        who="ana",
    )
    assert prop is not None and prop.feedback_id == fb.id and prop.run_id == run
    assert (prop.kb, prop.status, prop.why, prop.edit_id, prop.decided_at) == (
        "films",
        "pending",
        "wrong director",
        None,
        None,
    )
    assert prop.add == ["Black Snake Moan|directed_by|Craig Brewer"]
    assert prop.remove == ["Moan|directed by|Ricci"]
    assert store.proposals() == [prop] == store.proposals(kb="films")
    assert store.proposals(kb="other") == [] and store.proposal(prop.id) == prop
    _, only_remove = store.add_feedback(run, propose_remove=["a|b|c"])
    assert [p.id for p in store.proposals()] == [prop.id, only_remove.id]  # oldest first


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_decide_accept_and_reject_once(store: RunStore) -> None:
    run = store.save(make_trace())
    _, p1 = store.add_feedback(run, propose_add=["a|b|c"])
    _, p2 = store.add_feedback(run, propose_remove=["a|b|d"])
    with pytest.raises(FeedbackError, match="edit"):
        store.decide(p1.id, accepted=True)
    accepted = store.decide(p1.id, accepted=True, edit_id=7, who="bo")
    assert (accepted.status, accepted.edit_id, accepted.decided_by) == ("accepted", 7, "bo")
    assert accepted.decided_at is not None
    rejected = store.decide(p2.id, accepted=False, who="bo")
    assert (rejected.status, rejected.edit_id) == ("rejected", None)
    with pytest.raises(FeedbackError, match="already accepted"):
        store.decide(p1.id, accepted=False)
    with pytest.raises(FeedbackError, match="already rejected"):
        store.decide(p2.id, accepted=True, edit_id=8)
    assert store.proposals() == []
    assert [p.status for p in store.proposals(status=None)] == ["accepted", "rejected"]
    assert store.proposals(status="accepted") == [accepted]
    with pytest.raises(FeedbackError, match="no proposal 99"):
        store.decide(99, accepted=False)
    with pytest.raises(FeedbackError, match="status"):
        store.proposals(status="open")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({}, "empty feedback"),
        ({"comment": "   "}, "empty feedback"),
        ({"rating": 2}, "rating"),
        ({"rating": True}, "rating"),
        ({"comment": "x" * 5001}, "too long"),
        ({"comment": "bad\x00byte"}, "control"),
        ({"who": "a\x1bb", "rating": 1}, "control"),
        ({"wrong": ["a|b|c"]}, "not a triple"),
        ({"propose_add": ["a|b"]}, "'a|b' is not"),
        ({"propose_add": ["ok|fine|yes", "a|b|c|d"]}, "'a|b|c|d' is not"),
        ({"propose_remove": ["a||c"]}, "'a||c' is not"),
        ({"propose_add": [""]}, "is not"),
        ({"propose_add": "a|b|c"}, "must be a list"),
        ({"propose_add": ["a|b|c"], "propose_remove": ["a|b|c"]}, "both"),
    ],
)
def test_bad_feedback_changes_nothing(
    shared_store: tuple[RunStore, int, dict], kwargs: dict, message: str
) -> None:
    store, run, before = shared_store
    with pytest.raises(FeedbackError, match=message):
        store.add_feedback(run, **kwargs)
    assert counts(store) == before


def test_feedback_on_unknown_run_changes_nothing(store: RunStore) -> None:
    store.save(make_trace())
    before = counts(store)
    with pytest.raises(FeedbackError, match="no run 42"):
        store.add_feedback(42, rating=1, propose_add=["a|b|c"])
    with pytest.raises(FeedbackError, match="run id"):
        store.add_feedback("1", rating=1)  # type: ignore[arg-type]
    assert counts(store) == before


def test_user_text_is_data_not_sql(store: RunStore) -> None:
    evil = "x'); DROP TABLE runs; --"
    run = store.save(make_trace(question=evil, kb=evil))
    store.add_feedback(run, comment=evil, propose_add=[f"{evil}|p|o"], who=evil)
    assert store.get(run).question == evil and store.list(kb=evil)[0].id == run
    assert store.proposals(kb=evil)[0].add == [f"{evil}|p|o"]


# -- learning and impact -------------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_trajectories_follow_the_latest_nonzero_rating(store: RunStore) -> None:
    good = store.save(make_trace("q1"))
    flipped = store.save(make_trace("q2"))
    unrated = store.save(make_trace("q3"))
    other_kb = store.save(make_trace("q4", kb="other"))
    store.add_feedback(good, rating=1)
    store.add_feedback(good, comment="still fine")  # rating 0 does not reset it
    store.add_feedback(flipped, rating=1)
    store.add_feedback(flipped, rating=-1)
    store.add_feedback(unrated, comment="no opinion")
    store.add_feedback(other_kb, rating=-1)
    got = [(r.id, label) for r, label in store.trajectories(kb="films")]
    assert got == [(flipped, "rejected"), (good, "chosen")]
    assert [r.id for r, _ in store.trajectories()] == [other_kb, flipped, good]


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_runs_using_triples_and_nodes(store: RunStore) -> None:
    directed = store.save(make_trace("who directed Moan"))
    wrote = store.save(make_trace("who wrote Moan", steps=[[WROTE]], answers=[("Brewer", [WROTE])]))
    linked = store.save(make_trace("tell me about Snake", steps=[], answers=[], linked=["Snake"]))
    store.save(make_trace("who directed Moan", kb="other"))

    assert [r.id for r in store.runs_using("films", [STARRED])] == [directed]
    assert [r.id for r in store.runs_using("films", [WROTE, DIRECTED])] == [wrote, directed]
    assert [r.id for r in store.runs_using("films", nodes={E("Brewer")})] == [wrote, directed]
    assert [r.id for r in store.runs_using("films", nodes={E("Snake")})] == [linked]
    assert [r.id for r in store.runs_using("films", [WROTE], {E("Ricci")})] == [wrote, directed]
    # same ids, different labels: matching is by (s, p, o) only
    relabelled = Triple(STARRED.s, STARRED.p, STARRED.o, "?", "?", "?")
    assert [r.id for r in store.runs_using("films", [relabelled])] == [directed]
    # predicates are not nodes
    assert store.runs_using("films", nodes={R("directed_by")}) == []
    assert store.runs_using("films", [triple("x", "y", "z")], {E("nobody")}) == []
    assert store.runs_using("films") == []


def test_runs_using_keeps_the_newest_run_per_question(store: RunStore) -> None:
    store.save(make_trace("who directed Moan"))
    other = store.save(make_trace("who acted in Moan", steps=[[STARRED]], answers=[]))
    newest = store.save(make_trace("who directed Moan"), source="reask")
    got = store.runs_using("films", [STARRED])
    assert [r.id for r in got] == [newest, other]
    assert got[0].source == "reask"


# -- locking -------------------------------------------------------------------------------

HOLD = (
    "import duckdb, sys, time\n"
    "con = duckdb.connect(sys.argv[1])\n"
    "print('ready', flush=True)\n"
    "time.sleep(float(sys.argv[2]))\n"
    "con.close()\n"
)


def hold_lock(path: Path, seconds: float) -> subprocess.Popen[str]:
    """Another process holding the DuckDB file read-write, as the web app or CLI would."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(path), str(seconds)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


@pytest.mark.slow
def test_busy_store_retries_then_raises_store_busy(tmp_path: Path) -> None:
    store = RunStore(tmp_path, busy_timeout_s=0.5)
    run = store.save(make_trace())
    proc = hold_lock(store.path, 30)
    try:
        start = time.monotonic()
        with pytest.raises(StoreBusy, match="in use by another process") as info:
            store.add_feedback(run, rating=1)
        waited = time.monotonic() - start
        assert 0.4 <= waited < 6
        assert f"PID {proc.pid}" in str(info.value) and "try again" in str(info.value)
        assert isinstance(info.value, ValueError)
    finally:
        proc.kill()
        proc.wait()
    store.add_feedback(run, rating=1)  # the file is free again
    assert len(store.feedback_for(run)) == 1


@pytest.mark.slow
def test_busy_store_succeeds_once_the_other_process_lets_go(tmp_path: Path) -> None:
    store = RunStore(tmp_path, busy_timeout_s=5.0)
    run = store.save(make_trace())
    proc = hold_lock(store.path, 0.3)
    try:
        assert store.add_feedback(run, rating=-1)[0].rating == -1
    finally:
        proc.wait()
    assert [label for _, label in store.trajectories()] == ["rejected"]
