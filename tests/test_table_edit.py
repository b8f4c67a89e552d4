"""What moved out of the pages into core (issue 16): the KG editor's table diff, the one
neighbourhood drawing both the editor and the Sources page use, and the learning after a
rating that the CLI's `feedback` now does like the Ask page."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine import Engine
from core.graph_view import graph_html, neighbourhood_view
from core.kg.table_edit import table_changes
from core.trace import Triple
from core.wkm.store import KnowledgeStore
from core.workspace import Workspace

T1 = Triple("e:a", "r:knows", "e:b", "Ann", "knows", "Bob")
T2 = Triple("e:a", "r:likes", '"tea"', "Ann", "likes", "tea")


def test_an_untouched_table_changes_nothing() -> None:
    changes = table_changes([T1, T2], None)
    assert (changes.add, changes.remove, changes.problems) == ([], [], [])


def test_an_edited_cell_replaces_the_row_and_keeps_the_other_nodes_by_id() -> None:
    changes = table_changes([T1, T2], {"edited_rows": {"0": {"object": "Cleo"}}})
    assert changes.remove == [T1]
    assert changes.add == ["e:a|r:knows|Cleo"]  # unchanged cells: the exact node ids
    assert changes.shown == ["Ann|knows|Cleo"]


def test_deleted_added_and_incomplete_rows() -> None:
    state = {
        "deleted_rows": [1],
        "added_rows": [{"subject": "Bob", "relation": "knows", "object": "Ann"}, {"subject": "x"}],
        "edited_rows": {"0": {"subject": ""}},
    }
    changes = table_changes([T1, T2], state)
    assert changes.remove == [T2]
    assert changes.add == ["Bob|knows|Ann"]
    assert changes.problems == [
        "row 1: the subject is empty",
        "new row 2: fill in subject, relation and object",
    ]


def test_the_neighbourhood_is_drawn_by_the_one_renderer() -> None:
    view = neighbourhood_view("e:a", "Ann", [T1, T2])
    assert view.nodes["e:a"]["kind"] == "topic"
    assert set(view.nodes) == {"e:a", "e:b", '"tea"'}
    assert [e["label"] for e in view.edges] == ["knows", "likes"]
    page = graph_html(view, 450)
    assert "Ann" in page and "<script src=" not in page.replace('<script src="data:', "")


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_rating_through_the_feedback_loop_teaches_the_kb(
    tmp_path: Path, football_file: Path
) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.import_file(football_file, name="football")
    engine = Engine(ws)
    run_id = engine.feedback.record(engine.ask("Who coaches Arsenal?", kb="football"))
    rated = engine.feedback.rate(run_id, rating=1, who="ana")
    assert rated.not_learned is None and rated.proposal is None
    learned = KnowledgeStore(ws.root).trajectories("football")
    assert [(t.run_id, t.outcome, t.origin) for t in learned] == [(run_id, "chosen", "rating")]


def test_the_engine_hands_out_objects_of_its_own_workspace(tmp_path: Path) -> None:
    engine = Engine(Workspace(tmp_path))
    assert engine.runs.root == tmp_path
    assert engine.knowledge.path.parent == tmp_path
    assert engine.settings.path.parent == tmp_path
    assert engine.sources.home == tmp_path
    assert engine.knowledge_cache.root == tmp_path
    assert engine.feedback.runs is engine.runs
