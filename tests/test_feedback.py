"""The outer feedback loop (core.feedback): a wrong answer is rated, its wrong evidence
marked, a fix proposed; accepting the proposal makes one KG edit carrying the feedback id,
the affected stored question is found and asked again, and now answers correctly.

Each test works on its own copy of the football KB. The wrong fact is planted first with an
ordinary edit (Arsenal "coached by" Arne Slot instead of Mikel Arteta).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.engine import Engine
from core.feedback import FeedbackLoop
from core.kg.edits import LOG_NAME, Edit, EditError
from core.runs import FeedbackError
from core.trace import Triple
from core.workspace import Workspace
from tests.kg_checks import E, R, key, store_triples

KB = "football"
QUESTION = "Who coaches Arsenal?"
WRONG = "Arsenal|coached_by|Arne Slot"
RIGHT = "Arsenal|coached_by|Mikel Arteta"


def refused(call, kind: type[Exception] = EditError) -> str:
    """The message of a refusal, without keeping the exception (whose traceback could keep a
    refused writer's store handle alive)."""
    try:
        call()
    except kind as exc:
        return str(exc)
    raise AssertionError("the call was not refused")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, football_file: Path) -> Path:
    """Football imported, then the wrong coach planted as edit #1; copied by each test."""
    root = tmp_path_factory.mktemp("feedback-template")
    ws = Workspace(root)
    ws.import_file(football_file, name=KB)
    ws.editor(KB).edit(add=[WRONG], remove=[RIGHT], why="a bad data import", who="importer")
    return root


@pytest.fixture
def loop(tmp_path: Path, template: Path) -> FeedbackLoop:
    shutil.copytree(template, tmp_path / "ws")
    return FeedbackLoop(Engine(Workspace(tmp_path / "ws")))


def history(loop: FeedbackLoop) -> list[Edit]:
    return Workspace(loop.engine.workspace.root).editor(KB).history()


def ask_and_record(loop: FeedbackLoop, question: str = QUESTION) -> int:
    return loop.record(loop.engine.ask(question, kb=KB), source="test")


def wrong_evidence(loop: FeedbackLoop, run_id: int) -> Triple:
    run = loop.runs.get(run_id)
    evidence = run.trace.answers[0].evidence
    (triple,) = [t for t in evidence if key(t) == (E("Arsenal"), R("coached_by"), E("Arne Slot"))]
    return triple


def give_bad_feedback(loop: FeedbackLoop, run_id: int, **overrides):
    kwargs = {
        "rating": -1,
        "comment": "Arteta coaches Arsenal, not Slot",
        "wrong": [wrong_evidence(loop, run_id)],
        "propose_remove": [WRONG],
        "propose_add": [RIGHT],
        "who": "ana",
        **overrides,
    }
    return loop.runs.add_feedback(run_id, **kwargs)


# -- the whole loop ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_wrong_answer_is_fixed_through_feedback_and_reasked(loop: FeedbackLoop) -> None:
    trace = loop.engine.ask(QUESTION, kb=KB)
    assert trace.answer_labels == ["Arne Slot"]  # the planted error shows
    run_id = loop.record(trace)
    run = loop.runs.get(run_id)
    assert run.answers == ["Arne Slot"] and run.question == QUESTION and run.kb == KB

    feedback, proposal = give_bad_feedback(loop, run_id)
    assert feedback.rating == -1 and feedback.run_id == run_id
    assert [key(t) for t in loop.runs.feedback_for(run_id)[0].wrong] == [
        (E("Arsenal"), R("coached_by"), E("Arne Slot"))
    ]
    assert proposal is not None and proposal.status == "pending" and proposal.edit_id is None
    assert (proposal.add, proposal.remove) == ([RIGHT], [WRONG])
    assert [p.id for p in loop.runs.proposals(kb=KB)] == [proposal.id]
    assert len(history(loop)) == 1  # a proposal alone changes nothing

    edit = loop.accept(proposal.id, who="reviewer")
    assert (edit.id, edit.kind, edit.who) == (2, "edit", "reviewer")
    assert edit.feedback_id == feedback.id
    assert edit.why == "Arteta coaches Arsenal, not Slot"
    assert [key(t) for t in edit.added] == [(E("Arsenal"), R("coached_by"), E("Mikel Arteta"))]
    assert [key(t) for t in edit.removed] == [(E("Arsenal"), R("coached_by"), E("Arne Slot"))]
    assert [e.id for e in history(loop)] == [1, 2]  # exactly one edit for the proposal
    assert history(loop)[-1] == edit

    decided = loop.runs.proposal(proposal.id)
    assert (decided.status, decided.edit_id, decided.decided_by) == ("accepted", 2, "reviewer")
    assert decided.decided_at is not None
    assert loop.runs.proposals(kb=KB) == []  # nothing pending
    assert [p.status for p in loop.runs.proposals(kb=KB, status=None)] == ["accepted"]

    assert [r.id for r in loop.affected(edit)] == [run_id]

    (result,) = loop.reask(edit)
    assert result.run.id == run_id
    assert result.before == ["Arne Slot"]
    assert result.after.answer_labels == ["Mikel Arteta"]
    assert result.changed
    evidence = {key(t) for t in result.after.answers[0].evidence}
    assert (E("Arsenal"), R("coached_by"), E("Mikel Arteta")) in evidence
    newest = loop.runs.list(kb=KB)[0]  # the re-asked run is kept too
    assert (newest.source, newest.answers) == ("reask", ["Mikel Arteta"])

    # the rated run is a rejected trajectory
    assert [(r.id, label) for r, label in loop.runs.trajectories(kb=KB)] == [(run_id, "rejected")]


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_accepting_twice_is_refused_and_changes_nothing(loop: FeedbackLoop) -> None:
    run_id = ask_and_record(loop)
    _, proposal = give_bad_feedback(loop, run_id)
    loop.accept(proposal.id)
    log = (loop.engine.workspace.kbs_dir / KB / LOG_NAME).read_bytes()
    assert "already accepted" in refused(lambda: loop.accept(proposal.id))
    assert (loop.engine.workspace.kbs_dir / KB / LOG_NAME).read_bytes() == log


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_rejected_proposal_is_marked_and_never_applied(loop: FeedbackLoop) -> None:
    run_id = ask_and_record(loop)
    kb_dir = loop.engine.workspace.kbs_dir / KB
    before = store_triples(kb_dir)
    _, proposal = give_bad_feedback(loop, run_id)
    rejected = loop.reject(proposal.id, who="reviewer")
    assert (rejected.status, rejected.edit_id, rejected.decided_by) == (
        "rejected",
        None,
        "reviewer",
    )
    assert loop.runs.proposal(proposal.id).status == "rejected"
    assert loop.runs.proposals(kb=KB) == []
    assert [e.id for e in history(loop)] == [1]
    assert store_triples(kb_dir) == before
    assert "already rejected" in refused(lambda: loop.accept(proposal.id))
    assert "already rejected" in refused(lambda: loop.reject(proposal.id), FeedbackError)
    assert [e.id for e in history(loop)] == [1]
    assert loop.engine.ask(QUESTION, kb=KB).answer_labels == ["Arne Slot"]  # still wrong
    assert [(r.id, label) for r, label in loop.runs.trajectories(kb=KB)] == [(run_id, "rejected")]


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_proposal_the_kg_refuses_stays_pending_and_changes_nothing(loop: FeedbackLoop) -> None:
    run_id = ask_and_record(loop)
    kb_dir = loop.engine.workspace.kbs_dir / KB
    before = (store_triples(kb_dir), (kb_dir / LOG_NAME).read_bytes())
    _, missing = give_bad_feedback(loop, run_id, propose_remove=["Arsenal|coached_by|Arsenal"])
    _, new_rel = give_bad_feedback(
        loop, run_id, propose_remove=[], propose_add=["Mikel Arteta|nicknamed|Mikel"]
    )
    assert "not in the knowledge graph" in refused(lambda: loop.accept(missing.id))
    assert "new relation" in refused(lambda: loop.accept(new_rel.id))
    assert (store_triples(kb_dir), (kb_dir / LOG_NAME).read_bytes()) == before
    assert {p.id: p.status for p in loop.runs.proposals(kb=KB, status=None)} == {
        missing.id: "pending",
        new_rel.id: "pending",
    }
    # with the confirmation, the new relation goes through
    edit = loop.accept(new_rel.id, allow_new_relation=True)
    assert loop.runs.proposal(new_rel.id).edit_id == edit.id


@pytest.mark.slow
def test_affected_finds_only_runs_that_used_what_changed(loop: FeedbackLoop) -> None:
    coach_run = ask_and_record(loop)
    birth_run = ask_and_record(loop, "Where was Pep Guardiola born?")
    assert loop.runs.get(birth_run).answers == ["Santpedor"]
    _, proposal = give_bad_feedback(loop, coach_run)
    edit = loop.accept(proposal.id)
    assert [r.id for r in loop.affected(edit)] == [coach_run]
    # the newest run of a question is the one re-asked
    again = ask_and_record(loop)
    assert [r.id for r in loop.affected(edit)] == [again]


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_undoing_the_fix_carries_the_feedback_id_and_restores_the_wrong_answer(loop) -> None:
    run_id = ask_and_record(loop)
    feedback, proposal = give_bad_feedback(loop, run_id)
    edit = loop.accept(proposal.id)
    assert loop.engine.ask(QUESTION, kb=KB).answer_labels == ["Mikel Arteta"]
    undo = loop.engine.workspace.editor(KB).undo(edit.id)
    assert undo.feedback_id == feedback.id
    (result,) = loop.reask(undo)
    assert result.after.answer_labels == ["Arne Slot"]


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_trajectories_follow_the_latest_rating(loop: FeedbackLoop) -> None:
    run_id = ask_and_record(loop)
    other = ask_and_record(loop, "Where was Pep Guardiola born?")
    loop.runs.add_feedback(other, rating=1, who="ana")
    loop.runs.add_feedback(run_id, rating=1)
    loop.runs.add_feedback(run_id, rating=-1, comment="no, wrong coach")
    loop.runs.add_feedback(run_id, comment="a note without a rating")  # rating 0: ignored
    labels = {r.id: label for r, label in loop.runs.trajectories(kb=KB)}
    assert labels == {run_id: "rejected", other: "chosen"}


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        (
            {"rating": 0, "comment": "", "wrong": [], "propose_add": [], "propose_remove": []},
            "empty",
        ),
        ({"rating": 2}, "rating"),
        ({"propose_add": ["Arsenal|coached_by"]}, "subject|relation|object"),
        ({"propose_add": [WRONG], "propose_remove": [WRONG]}, "both"),
        ({"comment": "bad\x00byte"}, "control characters"),
    ],
    ids=["empty", "rating", "malformed-proposal", "add-and-remove", "nul"],
)
def test_bad_feedback_is_refused_and_stores_nothing(loop, overrides, message) -> None:
    run_id = ask_and_record(loop)
    text = refused(lambda: give_bad_feedback(loop, run_id, **overrides), FeedbackError)
    assert message in text and "\n" not in text
    assert loop.runs.feedback_for(run_id) == []
    assert loop.runs.proposals(status=None) == []


def test_feedback_on_an_unknown_run_is_refused(loop: FeedbackLoop) -> None:
    assert "no run 42" in refused(lambda: loop.runs.add_feedback(42, rating=-1), FeedbackError)
    assert "no proposal 42" in refused(lambda: loop.accept(42), FeedbackError)
