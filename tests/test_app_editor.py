"""The KG editor page and the Ask page's feedback form, driven headless through AppTest.

The editor tests use the small football KB in a workspace of their own, so every test can
edit freely; AppTest runs no JavaScript (the pyvis graph is not drawn), the browser test
covers that.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.engine import Engine
from core.runs import RunStore
from core.workspace import Workspace

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"
EDITOR = "pages/kg_editor.py"


@pytest.fixture
def home(football_home: Path) -> Path:
    return football_home


def open_editor() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.switch_page(EDITOR)
    at.run()
    assert not at.exception, at.exception
    return at


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def search(at: AppTest, text: str) -> AppTest:
    at.text_input(key="kge_query").input(text)
    return run(at)


def table_key(at: AppTest) -> str:
    return at.session_state["kge_loaded"]["key"]


def row_of(at: AppTest, relation: str) -> int:
    frame = at.data_editor(key=table_key(at)).value
    return int(frame.index[frame["relation"] == relation][0])


def save(at: AppTest, edits: dict, why: str = "checked the source") -> AppTest:
    """Give the data editor an edit state, as the browser would, and press Save."""
    state = {"edited_rows": {}, "added_rows": [], "deleted_rows": []} | edits
    at.session_state[table_key(at)] = state
    at.text_input(key="kge_why").input(why)
    at.button(key="kge_save").click()
    return run(at)


def success(at: AppTest) -> str:
    """The first success message, markdown escapes removed."""
    return at.success[0].value.replace("\\", "")


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    for kind in (at.success, at.info, at.warning, at.error):
        parts += [e.value for e in kind]
    return "\n".join(str(p) for p in parts).replace("\\", "")


def test_editor_page_is_in_the_navigation(home: Path) -> None:
    at = open_editor()
    assert at.title[0].value == "KG editor"
    assert at.selectbox(key="kb_picker").value == "football"
    assert [t.label for t in at.tabs] == ["Entity", "Fix proposals", "History"]
    assert "No edits yet" in texts(at)
    labels = [b.label for b in at.get("download_button")]
    assert labels == [
        "KG as Turtle",
        "KG as N-Triples",
        "History as RDF Patch",
        "History as JSON lines",
    ]


@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
def test_search_shows_the_entity_with_score_and_its_triples(home: Path) -> None:
    at = search(open_editor(), "Erling Halland")  # a typo: found by fuzzy lookup
    pick = at.radio(key="kge_pick")
    assert "Erling Haaland · score" in pick.options[0]
    assert "fuzzy" in pick.options[0]
    assert at.subheader[0].value == "Erling Haaland"
    table = at.data_editor(key=table_key(at)).value
    assert list(table.columns) == ["subject", "relation", "object"]
    assert set(table["object"]) == {"Manchester City", "Forward", "Leeds"}
    assert "loaded at version 0" in texts(at)


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_saving_an_added_triple_creates_history_entry_1(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")
    at.text_input(key="kge_who").input("ana")
    row = {"subject": "Erling Haaland", "relation": "plays for", "object": "Norway"}
    at = save(at, {"added_rows": [row]}, why="he also plays for his country")
    assert not at.error, [e.value for e in at.error]
    assert "Saved #1" in success(at)
    [entry] = Workspace(home).editor("football").history()
    assert (entry.id, entry.kind, entry.who) == (1, "edit", "ana")
    assert entry.why == "he also plays for his country"
    assert "Erling Haaland —plays for→ Norway" in [t.text() for t in entry.added]
    # the table reloads at the new version and shows the new row
    assert at.session_state["kge_loaded"]["version"] == 1
    assert "Norway" in set(at.data_editor(key=table_key(at)).value["object"])
    assert at.text_input(key="kge_why").value == ""
    history = at.dataframe[-1].value
    assert list(history["id"]) == [1]


@pytest.mark.slow
def test_a_changed_row_removes_the_old_triple_and_adds_the_new(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")
    row = row_of(at, "plays position")
    at = save(at, {"edited_rows": {row: {"object": "Striker"}}})
    assert "Saved #1" in success(at)
    [entry] = Workspace(home).editor("football").history()
    assert [t.text() for t in entry.removed] == ["Erling Haaland —plays position→ Forward"]
    assert "Erling Haaland —plays position→ Striker" in [t.text() for t in entry.added]


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_a_deleted_row_removes_its_triple_and_an_emptied_cell_is_refused(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")
    born = row_of(at, "born in")
    at = save(at, {"edited_rows": {born: {"object": ""}}})
    assert f"row {born + 1}: the object is empty" in at.error[0].value  # rows count from 1
    at = save(at, {"deleted_rows": [row_of(at, "born in")]})
    assert "Saved #1" in success(at)
    [entry] = Workspace(home).editor("football").history()
    assert ([t.text() for t in entry.removed], entry.added) == (
        ["Erling Haaland —born in→ Leeds"],
        [],
    )


def diffs(at: AppTest) -> list[str]:
    return [c.value for c in at.code if c.language == "diff"]


@pytest.mark.slow
def test_unsaved_changes_are_one_diff_in_one_notation(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")
    assert not diffs(at)  # nothing edited yet
    added = {"subject": "Erling Haaland", "relation": "plays for", "object": "Norway"}
    state = {
        "edited_rows": {row_of(at, "plays position"): {"object": "Striker"}},
        "added_rows": [added],
        "deleted_rows": [row_of(at, "born in")],
    }
    at.session_state[table_key(at)] = state
    at = run(at)
    assert "**Unsaved changes**" in [m.value for m in at.markdown]
    [diff] = diffs(at)
    assert diff.splitlines() == [
        "- Erling Haaland —plays position→ Forward",
        "- Erling Haaland —born in→ Leeds",
        "+ Erling Haaland —plays position→ Striker",
        "+ Erling Haaland —plays for→ Norway",
    ]
    # saved, the change and the history write the lines as the unsaved diff did (plus the
    # labels of the new entities)
    at.text_input(key="kge_why").input("checked")
    at.button(key="kge_save").click()
    at = run(at)
    assert "Saved #1" in success(at)
    saved = [d for d in diffs(at) if "Norway" in d]
    assert saved and all(set(diff.splitlines()) <= set(d.splitlines()) for d in saved)


def test_pages_use_no_fullwidth_glyphs() -> None:
    """Fullwidth forms (U+FF00-U+FFEF, e.g. "＝") are missing from common browser fonts."""
    pages = Path(__file__).resolve().parents[1] / "pages"
    for page in sorted(pages.glob("*.py")):
        text = page.read_text(encoding="utf-8")
        assert not [c for c in text if 0xFF00 <= ord(c) <= 0xFFEF], page.name


@pytest.mark.slow
def test_save_needs_a_reason_and_a_confirmed_new_relation(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")
    row = {"subject": "Erling Haaland", "relation": "nicknamed", "object": "The Terminator"}
    at = save(at, {"added_rows": [row]}, why="")
    assert "say why" in at.error[0].value
    at = save(at, {"added_rows": [row]}, why="a nickname")
    assert "new relation" in at.error[0].value
    assert Workspace(home).editor("football").history() == []
    at.checkbox(key="kge_allow_new").check()
    at = save(at, {"added_rows": [row]}, why="a nickname")
    assert not at.error
    assert "Saved #1" in success(at)


@pytest.mark.slow
def test_a_stale_save_shows_the_conflict_and_reload_recovers(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")  # the table is loaded at version 0
    behind = Workspace(home).editor("football")  # another analyst, behind the page's back
    behind.edit(add=["Erling Haaland|plays position|Striker"], why="other", who="bob")
    at = save(at, {"edited_rows": {row_of(at, "plays position"): {"object": "Winger"}}})
    assert not at.error
    warning = at.warning[0].value
    assert "conflict" in warning and "#1 by bob" in warning and "reload" in warning
    assert len(behind.history()) == 1  # nothing was written
    at.button(key="kge_reload_conflict").click()
    at = run(at)
    assert not at.warning
    assert at.session_state["kge_loaded"]["version"] == 1
    assert "Striker" in set(at.data_editor(key=table_key(at)).value["object"])
    at = save(at, {"edited_rows": {row_of(at, "plays position"): {"object": "Winger"}}})
    assert "Saved #2" in success(at)


@pytest.mark.slow
def test_undo_and_redo_from_the_history(home: Path) -> None:
    at = search(open_editor(), "Erling Haaland")
    row = {"subject": "Erling Haaland", "relation": "plays for", "object": "Norway"}
    at = save(at, {"added_rows": [row]})
    ed = Workspace(home).editor("football")
    assert at.selectbox(key="kge_entry_1").value == 1
    at.button(key="kge_undo").click()
    at = run(at)
    assert "Undid #1" in success(at)
    assert ed.undone() == {1}
    assert [e.kind for e in ed.history()] == ["edit", "undo"]
    assert "Norway" not in {t.o_label for t in haaland_triples(home)}
    assert at.button(key="kge_undo").disabled
    at.button(key="kge_redo").click()
    at = run(at)
    assert "Redid #1" in success(at)
    assert ed.undone() == set()
    assert list(at.dataframe[-1].value["undone?"]) == ["", "", ""]


def haaland_triples(home: Path) -> list:
    kg = Workspace(home).kg("football")
    return kg.neighbourhood(kg.exact("Erling Haaland")[0])


def recorded_feedback(home: Path) -> tuple[int, int]:
    """A stored run answered from a wrong triple, with 👎 feedback proposing the fix."""
    ws = Workspace(home)
    ws.editor("football").edit(
        add=["Erling Haaland|born in|Bergen"],
        remove=["Erling Haaland|born in|Leeds"],
        why="planted error",
    )
    trace = Engine(ws).ask("where was Erling Haaland born", kb="football")
    assert trace.answer_labels == ["Bergen"]
    runs = RunStore(home)
    run_id = runs.save(trace, source="app")
    _, proposal = runs.add_feedback(
        run_id,
        rating=-1,
        comment="he was born in Leeds",
        wrong=trace.answers[0].evidence,
        propose_add=["Erling Haaland|born in|Leeds"],
        propose_remove=["Erling Haaland|born in|Bergen"],
        who="ana",
    )
    assert proposal is not None
    return run_id, proposal.id


@pytest.mark.slow
def test_a_pending_proposal_can_be_accepted_and_reasked(home: Path) -> None:
    run_id, proposal_id = recorded_feedback(home)
    at = open_editor()
    page = texts(at)
    assert f"Proposal #{proposal_id}" in page
    assert "where was Erling Haaland born" in page and "he was born in Leeds" in page
    diff = [c.value for c in at.code if c.language == "diff"][0]
    assert "- Erling Haaland —born in→ Bergen" in diff
    assert "+ Erling Haaland —born in→ Leeds" in diff
    at.text_input(key="kge_who").input("rev")
    at.button(key=f"kge_accept_{proposal_id}").click()
    at = run(at)
    assert not at.error, [e.value for e in at.error]
    assert f"Accepted proposal #{proposal_id} as #2" in success(at)
    assert RunStore(home).proposal(proposal_id).status == "accepted"
    entry = Workspace(home).editor("football").entry(2)
    assert (entry.who, entry.feedback_id) == ("rev", 1)
    assert "where was Erling Haaland born" in texts(at)  # an affected stored question
    at.button(key="kge_reask").click()
    at = run(at)
    page = texts(at)
    assert "🔄 changed" in page
    assert "**Bergen**" in page and "**Leeds**" in page
    assert f"kge_accept_{proposal_id}" not in [b.key for b in at.button]


@pytest.mark.slow
def test_a_proposal_can_be_rejected(home: Path) -> None:
    _, proposal_id = recorded_feedback(home)
    at = open_editor()
    at.button(key=f"kge_reject_{proposal_id}").click()
    at = run(at)
    assert f"Rejected proposal #{proposal_id}" in at.info[0].value
    assert RunStore(home).proposal(proposal_id).status == "rejected"
    assert len(Workspace(home).editor("football").history()) == 1  # only the planted edit


@pytest.mark.slow
def test_a_proposal_that_no_longer_applies_shows_a_readable_error(home: Path) -> None:
    _, proposal_id = recorded_feedback(home)
    Workspace(home).editor("football").undo(1, why="fixed by hand")
    at = open_editor()
    at.button(key=f"kge_accept_{proposal_id}").click()
    at = run(at)
    assert "not applied" in at.error[0].value
    assert RunStore(home).proposal(proposal_id).status == "pending"


# -- the Ask page's feedback form ------------------------------------------------------------


@pytest.fixture
def metaqa_copy(metaqa_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of the session's bundled-KB workspace (the original stays read-only)."""
    home = tmp_path / "metaqa-home"
    shutil.copytree(metaqa_home, home, ignore=shutil.ignore_patterns("LOCK", "*.lock"))
    monkeypatch.setenv("KNOWLOOP_HOME", str(home))
    return home


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_ask_feedback_marks_evidence_and_sends_a_proposal(metaqa_copy: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="question").input("who directed Black Snake Moan")
    at.form_submit_button[0].click()
    at = run(at)
    run_id = at.session_state["ask_run"][0]
    assert RunStore(metaqa_copy).get(run_id).answers == ["Craig Brewer"]
    key = f"fb_{run_id}_"
    at.radio(key=key + "rating").set_value("👎 bad")
    wrong = at.multiselect(key=key + "wrong")
    wrong.select(wrong.options[0])
    at = run(at)
    assert at.text_area(key=key + "remove").value == "Black Snake Moan|directed by|Craig Brewer"
    at.text_area(key=key + "add").input("Black Snake Moan|directed by|John Singleton")
    at.text_area(key=key + "comment").input("test only")
    at.button(key=key + "submit").click()
    at = run(at)
    assert not at.error, [e.value for e in at.error]
    assert "proposal #1 waits in the KG editor" in at.success[-1].value
    [proposal] = RunStore(metaqa_copy).proposals()
    assert proposal.remove == ["Black Snake Moan|directed by|Craig Brewer"]
    assert proposal.add == ["Black Snake Moan|directed by|John Singleton"]
    [feedback] = RunStore(metaqa_copy).feedback_for(run_id)
    assert feedback.rating == -1 and [t.o_label for t in feedback.wrong] == ["Craig Brewer"]
    assert at.button(key=key + "submit").disabled
    # the run is stored once, however often the page reruns
    assert len(RunStore(metaqa_copy).list()) == 1


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_ask_feedback_errors_are_readable(metaqa_copy: Path) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.text_input(key="question").input("who directed Black Snake Moan")
    at.form_submit_button[0].click()
    at = run(at)
    key = f"fb_{at.session_state['ask_run'][0]}_"
    at.button(key=key + "submit").click()
    at = run(at)  # nothing given
    assert "Feedback not saved: empty feedback" in at.error[0].value
    at.text_area(key=key + "add").input("only two|parts")
    at.button(key=key + "submit").click()
    at = run(at)
    assert "is not 'subject|relation|object'" in at.error[0].value
    assert RunStore(metaqa_copy).proposals() == []
