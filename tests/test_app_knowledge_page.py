"""The Knowledge page, driven headless through AppTest: what `knowloop learn` stored for the
small `lab` KB (trajectories, state entries with neighbours, task knowledge), deleting an
entry with history, and undo. A rated run on the Ask side shows up here as a trajectory."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.engine import Engine
from core.evaluate import read_questions
from core.learn import learn
from core.runs import RunStore
from core.trace import Action, Step, Trace
from core.wkm.store import KnowledgeStore
from core.workspace import Workspace

PAGE = Path(__file__).resolve().parents[1] / "pages" / "knowledge.py"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def home(knowloop_home: Path) -> Path:
    """$KNOWLOOP_HOME with the lab KB and what learning on four questions stored."""
    ws = Workspace(knowloop_home)
    ws.import_file(FIXTURES / "lab.tsv", name="lab")
    learn(Engine(ws), read_questions(FIXTURES / "lab_questions.tsv")[:4], kb="lab")
    return knowloop_home


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.slow
def test_the_page_shows_what_was_learned(home: Path):
    at = run(AppTest.from_file(PAGE, default_timeout=60))
    assert at.title[0].value == "Knowledge"
    counts = KnowledgeStore(home).counts("lab")
    shown = metrics(at)
    assert shown["chosen trajectories"] == str(counts["chosen"])
    assert shown["rejected trajectories"] == str(counts["rejected"])
    assert shown["state entries"] == str(counts["states"]) != "0"
    assert shown["task knowledge"] == str(counts["tasks"]) != "0"
    frames = [df.value for df in at.dataframe]
    assert any("which town hosts the employer of [Ana Varga]" in set(f.get("question", []))
               for f in frames)  # fmt: skip
    assert any("affil → loc" in " ".join(map(str, f.get("path", []))) for f in frames)
    assert any(f.get("guidance") is not None for f in frames)


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_a_state_entry_shows_its_neighbours_and_can_be_deleted_and_restored(home: Path):
    store = KnowledgeStore(home)
    entry = store.states("lab")[0]
    at = run(AppTest.from_file(PAGE, default_timeout=60))
    at.selectbox(key="kn_state_pick").select(entry.id)
    run(at)
    assert any(f"Nearest neighbours of entry #{entry.id}" in m.value for m in at.markdown)
    neighbours = [df.value for df in at.dataframe if "cosine" in df.value.columns]
    assert neighbours and len(neighbours[0]) >= 1
    at.button(key="kn_del_state").click()
    run(at)
    assert any(f"Deleted state #{entry.id}" in s.value for s in at.success)
    assert entry.id not in {e.id for e in store.states("lab")}
    assert store.history("lab")[0]["op"] == "delete"
    at.button(key="kn_undo").click()
    run(at)
    assert any("Restored 1 entries" in s.value for s in at.success)
    assert entry.id in {e.id for e in store.states("lab")}


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_deleting_a_trajectory_takes_its_state_entries(home: Path):
    store = KnowledgeStore(home)
    chosen = store.trajectories("lab", outcome="chosen")[0]
    before = store.counts("lab")
    at = run(AppTest.from_file(PAGE, default_timeout=60))
    at.selectbox(key="kn_traj_pick").select(chosen.id)
    run(at)
    at.button(key="kn_del_traj").click()
    run(at)
    after = store.counts("lab")
    assert after["chosen"] == before["chosen"] - 1
    assert after["states"] == before["states"] - (len(chosen.path) + 1)


@pytest.mark.slow
def test_rated_runs_appear_as_trajectories(home: Path):
    engine = Engine(Workspace(home))
    trace = engine.ask(read_questions(FIXTURES / "lab_questions.tsv")[6].question, kb="lab")
    runs = RunStore(home)
    runs.add_feedback(runs.save(trace), rating=-1, comment="wrong town")
    at = run(AppTest.from_file(PAGE, default_timeout=60))
    at.selectbox(key="kn_outcome").select("rejected")
    run(at)
    frames = [df.value for df in at.dataframe if "origin" in df.value.columns]
    assert "rating" in set(frames[0]["origin"])


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [i.value for i in at.info]
    return "\n".join(parts).replace("\\", "")


def test_selecting_a_trajectory_shows_its_details(home: Path):
    store = KnowledgeStore(home)
    rejected = next(t for t in store.trajectories("lab", outcome="rejected")
                    if t.origin == "learn")  # fmt: skip
    at = run(AppTest.from_file(PAGE, default_timeout=60))
    assert "Select a trajectory to see its run" in texts(at)
    pick = at.selectbox(key="kn_traj_pick")
    assert f"#{rejected.id} rejected — {rejected.question}" in pick.options
    pick.select(rejected.id)
    run(at)
    page = texts(at)
    assert f"Trajectory #{rejected.id}** · rejected · learn · kg-only" in page
    assert f"Question: **{rejected.question}**" in page
    assert "Why rejected: the agent's top answer" in page and "is not a gold answer" in page
    assert "Rated by: the gold answers of the question file" in page
    assert "Hops (1, the evidence path of the top answer): affil" in page
    assert f"Answer: {rejected.answers[0]}" in page
    assert "The expert path mined instead: trajectory #" in page and "affil → loc" in page
    assert "Task knowledge: Questions like" in page
    steps = [df.value for df in at.dataframe if "action" in df.value.columns]
    assert steps and list(steps[0]["step"]) == [1]
    assert at.button(key="kn_del_traj").label.startswith(f"Delete trajectory #{rejected.id}")


@pytest.mark.slow
def test_a_rated_run_without_an_answer_shows_the_hops_it_walked(home: Path):
    """A rejected run that walked three hops and found nothing: its path is not "(no hop)"."""
    kg = Engine(Workspace(home)).kg("lab")
    rel = {kg.label(r.id): r.id for r in kg.relations}

    def hop(i: int, code: str, direction: str, at: int, found: int) -> Step:
        params = {"from": [], "relation": rel[code], "direction": direction, "hop": at}
        return Step(index=i, action=Action(kind="hop", description=f"follow {code}",
                                           params=params), candidates=found)  # fmt: skip

    trace = Trace("which town hosts the employer of [Ana Varga]", "kg-only", "lab",
                  steps=[hop(1, "affil", "out", 1, 1), hop(2, "loc", "out", 2, 1),
                         hop(3, "loc", "in", 3, 0)],
                  stop_reason="no answer found: step limit T=3 reached")  # fmt: skip
    runs = RunStore(home)
    run_id = runs.save(trace)
    runs.add_feedback(run_id, rating=-1, comment="nothing found", who="ana")
    at = run(AppTest.from_file(PAGE, default_timeout=60))
    at.selectbox(key="kn_outcome").select("rejected")
    run(at)
    table = next(df.value for df in at.dataframe if "origin" in df.value.columns)
    [row] = table[table["origin"] == "rating"].to_dict("records")
    assert row["path"] == "affil → loc → loc⁻¹" and row["steps"] == 3
    at.selectbox(key="kn_traj_pick").select(int(row["id"]))
    run(at)
    page = texts(at)
    assert "Why rejected: an analyst rated the answer bad" in page
    assert "Rated by: feedback #1 by ana, rated bad: “nothing found”" in page
    assert "Hops (3, the deepest path the run walked" in page
    assert "Answer: no answer" in page and "Stopped: no answer found" in page


def test_a_guided_step_draws_p_agent_p_know_and_the_mix():
    """The Ask page's step view (pages/_render.py) with a WKM record from a real run."""

    def page():
        from core.trace import Action, Step
        from pages._render import render_step

        record = {
            "gamma": 0.5, "prev_action": "start", "summary": "which town [E] | walked: nothing",
            "neighbours": [{"id": 3, "summary": "which town [E] | walked: nothing",
                            "next": "hop:out:a", "next_label": "affil", "sim": 1.0}],
            "tasks": [{"id": 6, "pattern": "which town [E]", "guidance": "follow affil → loc",
                       "follow": ["hop:out:a"], "avoid": [], "sim": 0.9}],
            "options": [
                {"action": "affil", "key": "hop:out:a", "p_agent": 0.3, "p_know": 1.0,
                 "p_mix": 0.65},
                {"action": "bp", "key": "hop:out:b", "p_agent": 0.7, "p_know": 0.0,
                 "p_mix": 0.35},
            ],
            "agent_choice": "bp", "chosen": "affil", "changed": True,
        }  # fmt: skip
        action = Action(kind="hop", description="follow 'affil'", details={"wkm": record})
        render_step(Step(index=1, action=action))

    at = AppTest.from_function(page, default_timeout=60)
    run(at)
    captions = " ".join(c.value for c in at.caption)
    assert "World knowledge (γ = 0.5)" in captions and "would have chosen bp" in captions
    chart = at.get("plotly_chart")[0].proto.spec
    assert '"P_agent"' in chart and '"P_know"' in chart and "mix" in chart
    assert any("follow affil → loc" in i.value for i in at.info)
