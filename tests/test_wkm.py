"""World Knowledge Model: embedding, kNN, the knowledge store, path mining, the mixed next
action, task knowledge, `knowloop learn` end to end and ratings becoming trajectories.

The small `lab` KB has opaque relation codes (`affil`, `loc`, `bp`) that share no word with
its questions ("which town hosts the employer of [X]"): the rule agent alone cannot tell the
two-hop path from the one-hop distractor, so whatever improves after learning was learned.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from core.cli import main as cli
from core.engine import Engine
from core.evaluate import evaluate, read_questions, step_quality
from core.learn import (
    explain,
    learn,
    remember_rated,
    repair_paths,
    state_entries,
    task_entry,
    walked_path,
)
from core.llm.client import LLMSettings
from core.loop import LoopSettings, State
from core.metrics import trace_hits_at_1
from core.runs import RunStore
from core.trace import Action, Step, Trace
from core.wkm import actions
from core.wkm.embed import DIM, embed
from core.wkm.guide import Guide, Knowledge, load
from core.wkm.index import StateIndex
from core.wkm.mining import mine_path
from core.wkm.store import KnowledgeError, KnowledgeStore, StateEntry, Trajectory
from core.workspace import Workspace

FIXTURES = Path(__file__).resolve().parent / "fixtures"
QUESTIONS = FIXTURES / "lab_questions.tsv"


@pytest.fixture
def lab(tmp_path: Path) -> Engine:
    ws = Workspace(tmp_path / "ws")
    ws.import_file(FIXTURES / "lab.tsv", name="lab")
    return Engine(ws)


def rel(kg, code: str) -> str:
    return next(r.id for r in kg.relations if kg.label(r.id) == code)


# -- representation and kNN ------------------------------------------------------------------
def test_embedding_is_deterministic_unit_and_lexical():
    a = embed("which town hosts the employer of [E] | walked: nothing")
    assert a.shape == (DIM,) and abs(float(np.linalg.norm(a)) - 1) < 1e-5
    assert np.array_equal(a, embed("which town hosts the employer of [E] | walked: nothing"))
    near = embed("which town hosts the employer of [E] | walked: affil")
    far = embed("what year did [E] appear | walked: nothing")
    assert float(a @ near) > float(a @ far)
    assert not embed("   ").any()


def test_index_searches_only_the_same_previous_action_and_matches_the_exact_scan():
    rng = np.random.default_rng(1)
    vecs = rng.standard_normal((300, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    prevs = ["start" if i % 3 else "hop:out:r" for i in range(300)]
    index = StateIndex(prevs, vecs)
    q = vecs[7]
    hits = index.search("start", q, 5)
    assert hits[0] == (7, pytest.approx(1.0, abs=1e-5))
    assert all(prevs[r] == "start" for r, _ in hits)
    rows = [i for i in range(300) if prevs[i] == "start"]
    exact = sorted(rows, key=lambda i: -float(vecs[i] @ q))[:5]
    assert [r for r, _ in hits] == exact
    assert index.search("hop:in:unknown", q, 5) == []


@pytest.mark.slow
def test_large_partitions_use_ivf_with_high_recall():
    rng = np.random.default_rng(2)
    centres = rng.standard_normal((40, DIM)).astype(np.float32)
    n = 20_000
    vecs = centres[rng.integers(0, 40, n)] + 0.3 * rng.standard_normal((n, DIM))
    vecs = (vecs / np.linalg.norm(vecs, axis=1, keepdims=True)).astype(np.float32)
    index = StateIndex(["start"] * n, vecs)
    assert index._parts["start"].centroids is not None  # IVF, not the exact scan
    found = total = 0
    for i in range(0, n, 500):
        exact = set(np.argsort(-(vecs @ vecs[i]))[:8].tolist())
        found += len(exact & {r for r, _ in index.search("start", vecs[i], 8)})
        total += 8
    assert found / total >= 0.9


# -- the store ---------------------------------------------------------------------------------
def _trajectory(kb="lab", outcome="chosen", path=("hop:out:x",)) -> Trajectory:
    return Trajectory(0, kb, "which town hosts the employer of [Ana]", "kg-only", outcome,
                      "learn", None, list(path), ["Varn"], 2)  # fmt: skip


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_store_keeps_trajectories_states_and_deletes_with_undo(tmp_path: Path):
    store = KnowledgeStore(tmp_path)
    entries = state_entries(None, "which town hosts the employer of [Ana]", "", ["hop:out:x"])
    assert [(e.prev_action, e.next_action) for e in entries] == [
        ("start", "hop:out:x"),
        ("hop:out:x", "stop"),
    ]
    tid = store.add_trajectory(_trajectory(), entries)
    store.add_trajectory(_trajectory(outcome="rejected", path=()), [])
    assert store.counts("lab") == {"chosen": 1, "rejected": 1, "states": 2, "tasks": 0}
    before = store.version("lab")
    assert store.delete("trajectory", tid, who="ana") == 3  # the trajectory and its 2 states
    assert store.counts("lab")["states"] == 0 and store.version("lab") != before
    assert [h["op"] for h in store.history("lab")] == ["delete"] * 3
    with pytest.raises(KnowledgeError, match="already deleted"):
        store.delete("trajectory", tid)
    assert store.undo("lab") == 3
    assert store.counts("lab") == {"chosen": 1, "rejected": 1, "states": 2, "tasks": 0}
    with pytest.raises(KnowledgeError, match="nothing to undo"):
        store.undo("lab")
    assert store.counts("other") == {"chosen": 0, "rejected": 0, "states": 0, "tasks": 0}


def test_store_refuses_bad_entries_and_changes_nothing(tmp_path: Path):
    store = KnowledgeStore(tmp_path)
    with pytest.raises(KnowledgeError, match="outcome"):
        store.add_trajectory(_trajectory(outcome="maybe"), [])
    entries = state_entries(None, "q [E]", "", ["hop:out:x"])
    with pytest.raises(KnowledgeError, match="only chosen"):
        store.add_trajectory(_trajectory(outcome="rejected"), entries)
    with pytest.raises(KnowledgeError, match="no trajectory 99"):
        store.delete("trajectory", 99)
    with pytest.raises(KnowledgeError, match="kind must be"):
        store.delete("everything", 1)
    assert store.counts("lab") == {"chosen": 0, "rejected": 0, "states": 0, "tasks": 0}


def test_reading_an_empty_workspace_creates_nothing(tmp_path: Path):
    assert KnowledgeStore(tmp_path).trajectories("lab") == []
    assert load(tmp_path, "lab") is None
    assert not (tmp_path / "knowloop.duckdb").exists()


# -- path mining -------------------------------------------------------------------------------
def test_mining_finds_the_shortest_exact_path_to_gold(lab: Engine):
    kg = lab.kg("lab")
    ana = kg.lookup("Ana Varga", limit=1)[0].id
    found = mine_path(kg, [ana], ["Varn"])
    assert found is not None
    assert found.hops == [(rel(kg, "affil"), "out"), (rel(kg, "loc"), "out")]
    assert (found.hits, found.spurious, found.f1) == (1, 0, 1.0)
    tosk = mine_path(kg, [ana], ["Tosk"])  # her birthplace: one hop
    assert tosk.hops == [(rel(kg, "bp"), "out")]
    assert mine_path(kg, [ana], ["Nowhere"]) is None
    assert mine_path(kg, [ana], ["", "  "]) is None


# -- the mix -----------------------------------------------------------------------------------
def _knowledge(kg, question: str, path: list[str], n: int = 3) -> Knowledge:
    entries = []
    for i in range(n):
        for e in state_entries(kg, question, "", path):
            entries.append(StateEntry(len(entries) + 1, "lab", i + 1, e.prev_action, e.summary,
                                      e.next_action, e.vec))  # fmt: skip
    return Knowledge.build(entries, [])


def test_p_know_counts_neighbours_and_gamma_one_is_the_agent_alone(lab: Engine):
    kg = lab.kg("lab")
    affil, bp = actions.hop_key(rel(kg, "affil"), "out"), actions.hop_key(rel(kg, "bp"), "out")
    knowledge = _knowledge(kg, "which town hosts the employer of [Ana Varga]", [affil])
    state = State(question="which town hosts the employer of [Ben Okafor]")
    guide = Guide(knowledge, kg, gamma=0.5, k=8)
    p_know, _, found, _ = guide.p_know(state, [], [bp, affil])
    assert p_know == [0.0, 1.0] and len(found) == 3
    best, record = guide.choose(state, [], [bp, affil], [0.8, 0.2])
    assert best == 1 and record["changed"] and record["options"][0]["p_mix"] == 0.6
    alone, record = Guide(knowledge, kg, gamma=1.0).choose(state, [], [bp, affil], [0.8, 0.2])
    assert alone == 0 and record == {}
    unrelated = State(question="what year did [Ben Okafor] appear in a film")
    assert guide.p_know(unrelated, [], [bp, affil])[0] == [0.0, 0.0]  # below min_sim: no vote
    assert guide.choose(unrelated, [], [bp, affil], [0.8, 0.2])[0] == 0


# -- learning end to end ------------------------------------------------------------------------
@pytest.mark.slow
def test_learn_labels_trajectories_mines_paths_and_steers_later_runs(lab: Engine, tmp_path):
    questions = read_questions(QUESTIONS)
    learn_set, held_out = questions[:4], questions[4:]
    alone = LoopSettings(gamma=1.0)
    before, _ = evaluate(lab, held_out, kb="lab", settings=alone)
    report = learn(lab, learn_set, kb="lab")
    assert report.n == 4 and report.correct + report.mined + report.unmined == 4
    again = learn(lab, learn_set, kb="lab")
    assert (again.n, again.skipped) == (0, 4)  # nothing is learned twice
    assert report.mined >= 1  # the agent alone fails here, and the mined path is kept
    store = KnowledgeStore(lab.workspace.root)
    trajectories = store.trajectories("lab")
    assert {t.origin for t in trajectories if t.outcome == "chosen"} <= {"learn", "mined"}
    assert sum(t.outcome == "rejected" for t in trajectories) == report.mined + report.unmined
    mined = [t for t in trajectories if t.origin == "mined"]
    kg = lab.kg("lab")
    assert mined[0].path == [actions.hop_key(rel(kg, "affil"), "out"),
                             actions.hop_key(rel(kg, "loc"), "out")]  # fmt: skip
    counts = store.counts("lab")
    after, results = evaluate(lab, held_out, kb="lab", settings=LoopSettings(gamma=0.5))
    assert store.counts("lab") == counts  # evaluation never learns
    assert after["hits_at_1"] == 1.0 > before["hits_at_1"]
    trace = lab.ask(held_out[0].question, kb="lab", settings=LoopSettings(gamma=0.5))
    record = trace.steps[0].action.details["wkm"]
    assert record["neighbours"] and record["tasks"] and record["chosen"] == "affil"
    assert "state knowledge" in trace.steps[-1].reward_reason
    again = lab.ask(held_out[0].question, kb="lab", settings=alone)
    assert all("wkm" not in s.action.details for s in again.steps)  # γ = 1: the agent alone


@pytest.mark.slow
def test_gamma_one_runs_exactly_as_without_knowledge(lab: Engine):
    question = read_questions(QUESTIONS)[5].question
    plain = lab.ask(question, kb="lab", settings=LoopSettings(gamma=1.0))
    learn(lab, read_questions(QUESTIONS)[:4], kb="lab")
    alone = lab.ask(question, kb="lab", settings=LoopSettings(gamma=1.0))
    assert alone.answer_labels == plain.answer_labels
    assert [s.action.description for s in alone.steps] == [
        s.action.description for s in plain.steps
    ]


def test_task_knowledge_by_rules_and_by_an_llm(lab: Engine):
    kg = lab.kg("lab")
    affil, loc, bp = (actions.hop_key(rel(kg, c), "out") for c in ("affil", "loc", "bp"))
    chosen = _trajectory(path=(affil, loc))
    rejected = _trajectory(outcome="rejected", path=(bp,))
    q = "which town hosts the employer of [Ana Varga]"
    by_rules = task_entry(kg, q, "", chosen, rejected, LoopSettings())
    assert by_rules.method == "rules" and by_rules.follow == [affil, loc]
    assert "affil → loc" in by_rules.guidance and "avoid bp" in by_rules.guidance
    assert by_rules.pattern == "which town hosts the employer of [E]"
    mock = LLMSettings(model="openai/gpt-4o-mini", mock_response="Go via the employer's town.")
    by_llm = task_entry(kg, q, "", chosen, rejected, LoopSettings(llm=mock))
    assert by_llm.guidance == "Go via the employer's town." and by_llm.method == mock.model
    broken = LLMSettings(model="openai/gpt-4o-mini", mock_response="   ")
    assert task_entry(kg, q, "", chosen, rejected, LoopSettings(llm=broken)).method == "rules"


@pytest.mark.slow
def test_llmxkg_is_steered_by_knowledge_learned_with_kg_only(lab: Engine):
    questions = read_questions(QUESTIONS)
    learn(lab, questions[:4], kb="lab", paradigm="kg-only")
    mock = LLMSettings(model="openai/gpt-4o-mini", mock_response="bp")
    settings = LoopSettings(gamma=0.5, llm=mock, judge="rules")
    trace = lab.ask(questions[5].question, kb="lab", paradigm="llmxkg", settings=settings)
    first = trace.steps[0].action.details["wkm"]
    assert first["chosen"] == "affil" and first["neighbours"]
    assert trace_hits_at_1(trace, questions[5].answers)


# -- ratings and the CLI -------------------------------------------------------------------------
@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
def test_rated_runs_become_trajectories_once_and_follow_the_latest_rating(lab: Engine):
    root, kg = lab.workspace.root, lab.kg("lab")
    runs = RunStore(root)
    trace = lab.ask(read_questions(QUESTIONS)[0].question, kb="lab")
    run_id = runs.save(trace)
    runs.add_feedback(run_id, rating=1)
    assert remember_rated(root, kg) == 1 and remember_rated(root, kg) == 0
    store = KnowledgeStore(root)
    (t,) = store.trajectories("lab")
    assert (t.origin, t.outcome, t.run_id) == ("rating", "chosen", run_id)
    runs.add_feedback(run_id, rating=-1)
    assert remember_rated(root, kg) == 1
    (t,) = store.trajectories("lab")
    assert t.outcome == "rejected" and store.counts("lab")["states"] == 0
    store.delete("trajectory", t.id)
    assert remember_rated(root, kg) == 0  # an analyst's deletion is not undone by a sync


@pytest.mark.slow
def test_cli_learn_then_eval(lab: Engine, capsys, tmp_path: Path):
    home = str(lab.workspace.root)
    out = tmp_path / "learn.json"
    assert cli(["--home", home, "learn", "--questions", str(QUESTIONS), "--kb", "lab",
                "--limit", "4", "--json", str(out)]) == 0  # fmt: skip
    report = json.loads(out.read_text())
    assert report["n"] == 4 and len(report["rows"]) == 4
    assert "states" in capsys.readouterr().out
    assert cli(["--home", home, "learn", "--questions", str(tmp_path / "none.tsv")]) == 2
    assert cli(["--home", home, "eval", "--questions", str(QUESTIONS), "--kb", "lab",
                "--gamma", "2"]) == 2  # fmt: skip
    assert "gamma must be within" in capsys.readouterr().err


def test_step_quality_counts_invalid_and_useless_steps(lab: Engine):
    trace = lab.ask(read_questions(QUESTIONS)[0].question, kb="lab")
    steps, invalid, useless = step_quality(trace)
    assert steps == len([s for s in trace.steps if s.action.kind not in ("answer", "stopped")])
    assert 0 <= invalid <= steps and 0 <= useless <= steps
    if trace.answers:
        assert useless < steps  # the step that reached the answer is on its path


@pytest.mark.slow
def test_auto_gamma_trusts_the_agent_as_far_as_it_was_right(lab: Engine):
    empty = Knowledge.build([], [], {})
    assert empty.auto_gamma("kg-only") == 0.5  # nothing learned: the seed's middle
    assert Knowledge.build([], [], {"kg-only": (5, 5)}).auto_gamma("kg-only") == 0.5
    assert Knowledge.build([], [], {"kg-only": (100, 98)}).auto_gamma("kg-only") == 0.9
    assert Knowledge.build([], [], {"kg-only": (100, 13)}).auto_gamma("kg-only") == 0.3
    assert Knowledge.build([], [], {"kg-only": (100, 60)}).auto_gamma("llmxkg") == 0.5
    questions = read_questions(QUESTIONS)
    learn(lab, questions[:4], kb="lab")
    trace = lab.ask(questions[5].question, kb="lab")  # γ left to KnowLoop
    assert trace.settings["gamma"] is None
    assert trace.steps[0].action.details["wkm"]["gamma"] == 0.5  # 4 learned: too few to judge


# -- runs without answer evidence keep the hops they walked; explaining a trajectory ------------
def hop_step(index: int, rel_id: str, direction: str, hop: int | None = None, **kw) -> Step:
    params = {"from": [], "relation": rel_id, "direction": direction}
    if hop is not None:
        params["hop"] = hop
    action = Action(kind="hop", description=f"follow {rel_id} {direction}", params=params)
    return Step(index=index, action=action, **kw)


def unanswered(kg, question: str) -> Trace:
    """A run that walked three hops, found nothing at the third, started again from its
    topic and ran out of steps: no answer, so no answer evidence."""
    affil, loc = rel(kg, "affil"), rel(kg, "loc")
    steps = [
        hop_step(1, affil, "out", 1, candidates=1),
        hop_step(2, loc, "out", 2, candidates=1),
        hop_step(3, loc, "in", 3, candidates=0),
        hop_step(4, affil, "out", 1, candidates=1),
    ]
    topic = question[question.find("[") + 1 : question.find("]")]
    linked = [{"text": topic, "ids": kg.exact(topic)}] if kg.exact(topic) else []
    return Trace(question, "kg-only", kg.name, steps=steps, linked=linked,
                 stop_reason="no answer found: step limit T=4 reached")  # fmt: skip


def test_walked_path_is_the_deepest_path_of_the_hop_steps(lab: Engine):
    kg = lab.kg("lab")
    affil, loc = rel(kg, "affil"), rel(kg, "loc")
    assert walked_path(unanswered(kg, "q")) == [
        actions.hop_key(affil, "out"), actions.hop_key(loc, "out"), actions.hop_key(loc, "in"),
    ]  # fmt: skip
    failed = hop_step(2, loc, "out", error="unknown relation")
    other = Step(index=3, action=Action(kind="constrain", description="c",
                                        params={"relation": loc, "direction": "in"}))  # fmt: skip
    no_hop_param = [hop_step(1, affil, "out"), failed, other, hop_step(4, loc, "out")]
    assert walked_path(Trace("q", "kg-only", "lab", steps=no_hop_param)) == [
        actions.hop_key(affil, "out"), actions.hop_key(loc, "out"),
    ]  # fmt: skip
    assert walked_path(Trace("q", "llm-only", "lab")) == []


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_rejected_run_without_an_answer_keeps_its_hops(lab: Engine):
    root, kg = lab.workspace.root, lab.kg("lab")
    runs = RunStore(root)
    run_id = runs.save(unanswered(kg, "which town hosts the employer of [Ana Varga]"))
    runs.add_feedback(run_id, rating=-1, comment="no answer", who="ana")
    assert remember_rated(root, kg) == 1
    (t,) = KnowledgeStore(root).trajectories("lab")
    assert t.outcome == "rejected" and len(t.path) == 3
    assert actions.path_text(kg, t.path) == "affil → loc → loc⁻¹"
    assert KnowledgeStore(root).counts("lab")["states"] == 0
    details = explain(lab, kg, t.id)
    assert details.hops == ["affil", "loc", "loc⁻¹"]
    assert details.path_from.startswith("the deepest path the run walked")
    assert details.why == "an analyst rated the answer bad"
    assert details.rated_by == "feedback #1 by ana, rated bad: “no answer”"
    assert [s["found"] for s in details.steps] == [1, 1, 0, 1]
    assert details.stop_reason.startswith("no answer found")
    # the rules' task knowledge says the rejected run found nothing, not wrong answers
    chosen = _trajectory(path=t.path[:2])
    guidance = task_entry(kg, t.question, "", chosen, t, LoopSettings()).guidance
    assert "avoid affil → loc → loc⁻¹ (it gave no answer)" in guidance


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_trajectories_stored_without_their_walked_hops_are_repaired_once(lab: Engine):
    root, kg = lab.workspace.root, lab.kg("lab")
    assert repair_paths(root, kg) == 0  # an empty workspace
    assert not (root / "knowloop.duckdb").exists()
    runs, store = RunStore(root), KnowledgeStore(root)
    question = "which town hosts the employer of [Ben Okafor]"
    run_id = runs.save(unanswered(kg, question))
    # stored as before the fix: a run without answer evidence recorded no hop
    old = Trajectory(0, "lab", question, "kg-only", "rejected", "learn", run_id, [], [], 4)
    old.id = store.add_trajectory(old, [])
    assert repair_paths(root, kg) == 1
    assert len(store.trajectory(old.id).path) == 3
    store.set_path(old.id, [])
    assert repair_paths(root, kg) == 0  # once per KB
    with pytest.raises(KnowledgeError):
        store.trajectory(10_000)


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_explain_a_learned_rejected_run_and_its_mined_expert_path(lab: Engine):
    root, kg = lab.workspace.root, lab.kg("lab")
    learn(lab, read_questions(QUESTIONS)[:1], kb="lab")
    store = KnowledgeStore(root)
    (rejected,) = store.trajectories("lab", outcome="rejected")
    (mined,) = store.trajectories("lab", outcome="chosen")
    d = explain(lab, kg, rejected.id)
    assert d.hops == ["affil"] and d.path_from == "the evidence path of the top answer"
    assert d.why == "the agent's top answer North Lab is not a gold answer (Varn)"
    assert d.rated_by == "the gold answers of the question file (knowloop learn)"
    assert d.gold == ["Varn"] and d.counterpart.id == mined.id
    assert d.counterpart_role == "the expert path mined instead"
    assert d.counterpart_hops == ["affil", "loc"]
    assert "affil → loc" in d.guidance and d.steps and d.steps[0]["action"]
    m = explain(lab, kg, mined.id)
    assert m.path_from.startswith("a path mined") and m.steps == []
    assert m.counterpart.id == rejected.id
    assert m.counterpart_role == "the agent's own run it replaces"


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_learn_keeps_the_hops_of_a_run_that_found_no_answer(lab: Engine, monkeypatch):
    kg = lab.kg("lab")
    monkeypatch.setattr(lab, "ask", lambda question, **_: unanswered(kg, question))
    report = learn(lab, read_questions(QUESTIONS)[:1], kb="lab")
    assert (report.correct, report.mined) == (0, 1)
    store = KnowledgeStore(lab.workspace.root)
    (rejected,) = store.trajectories("lab", outcome="rejected")
    assert actions.path_text(kg, rejected.path) == "affil → loc → loc⁻¹"  # not "(no hop)"
    assert rejected.answers == [] and rejected.steps == 4
    (task,) = store.tasks("lab")
    assert "avoid affil → loc → loc⁻¹ (it gave no answer)" in task.guidance
    assert explain(lab, kg, rejected.id).why == "the agent alone found no answer"
