"""KG edits (core.kg.edits): one logged entry per change, validation that changes nothing on
bad input, undo/redo, the log and the store agreeing, the incremental index agreeing with a
rebuild, questions seeing edits at once, export, and recovery from a torn or unapplied log.

Every test that edits works on its own copy of the small football KB (or a copy of the
session's MetaQA workspace); the shared session workspaces are only read.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pyoxigraph as ox
import pytest

import core.kg.edits as edits
from core.engine import Engine
from core.kg.edits import (
    LOG_NAME,
    Edit,
    EditError,
    EditLog,
    KBEditor,
    rdf_patch,
    store_version,
)
from core.kg.importer import literal_term
from core.kg.store import KnowledgeGraph, load_index, rebuild_index
from core.trace import Triple
from core.workspace import Workspace
from tests.fast_loop import spread
from tests.kg_checks import E, Key, R, index_view, key, read_store, replay, store_triples

KB = "football"
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"


# -- helpers ---------------------------------------------------------------------------------


def stored_version(kb_dir: Path | ox.Store) -> int:
    return store_version(kb_dir if isinstance(kb_dir, ox.Store) else read_store(kb_dir))


def assert_log_matches_store(ws: Workspace, base: set[Key]) -> None:
    kb_dir = ws.kbs_dir / KB
    history = KBEditor(kb_dir, ws.kg(KB)).history()
    store = read_store(kb_dir)
    assert store_triples(store) == replay(base, history)
    assert stored_version(store) == (history[-1].id if history else 0)


def assert_index_equals_rebuild(kg: KnowledgeGraph, kb_dir: Path, extra: set[str] = frozenset()):
    store = ox.Store.read_only(str(kb_dir / "store"))
    fresh = KnowledgeGraph("fresh", store, rebuild_index(store))
    nodes = (
        {n for n, roles in kg.index.roles.items() if roles}
        | {n for n, roles in fresh.index.roles.items() if roles}
        | set(extra)
    )
    assert index_view(kg, nodes) == index_view(fresh, nodes)
    assert kg.index.kb_version == fresh.index.kb_version


def kb_state(ws: Workspace) -> tuple:
    """Everything an edit could change: the log's bytes, the store's triples and version, the
    saved index."""
    kb_dir = ws.kbs_dir / KB
    log = kb_dir / LOG_NAME
    store = read_store(kb_dir)
    return (
        log.read_bytes() if log.exists() else None,
        store_triples(store),
        stored_version(store),
        (kb_dir / "index.pickle").read_bytes(),
    )


def refused(call) -> str:
    """Run a call that must raise EditError and return its message.

    Only the message is kept: holding the exception would keep the refused writer's store
    handle alive through its traceback (see test_a_kept_refusal_does_not_keep_the_store_locked)
    and block the next write.
    """
    try:
        call()
    except EditError as exc:
        return str(exc)
    raise AssertionError("the call was not refused")


# -- fixtures --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, football_file: Path) -> Path:
    """A workspace with the football KB freshly imported; copied, never edited itself."""
    root = tmp_path_factory.mktemp("football-template")
    Workspace(root).import_file(football_file, name=KB)
    return root


@pytest.fixture(scope="module")
def imported(template: Path) -> set[Key]:
    """The store's triples right after the import, before any edit."""
    return store_triples(template / "kbs" / KB)


@pytest.fixture
def ws(tmp_path: Path, template: Path) -> Workspace:
    """This test's own copy of the freshly imported football workspace."""
    shutil.copytree(template, tmp_path / "ws")
    return Workspace(tmp_path / "ws")


@pytest.fixture
def base(imported: set[Key]) -> set[Key]:
    return imported


@pytest.fixture(scope="module")
def sequenced(tmp_path_factory: pytest.TempPathFactory, template: Path) -> Workspace:
    """A copy on which run_sequence() has been made (with the import's index kept aside as
    imported-index.pickle). Tests only read it."""
    root = tmp_path_factory.mktemp("sequenced") / "ws"
    shutil.copytree(template, root)
    kb_dir = root / "kbs" / KB
    shutil.copy(kb_dir / "index.pickle", kb_dir / "imported-index.pickle")
    workspace = Workspace(root)
    run_sequence(workspace)
    return workspace


# -- one edit, one entry ---------------------------------------------------------------------


def test_an_edit_is_one_entry_with_provenance_and_the_exact_triples(ws, base):
    editor = ws.editor(KB)
    before = time.time()
    edit = editor.edit(
        add=["Erling Haaland|plays_for|Arsenal"],
        remove=["Erling Haaland|plays_for|Manchester City"],
        why="transfer",
        who="ana",
        feedback_id=7,
    )
    added = (E("Erling Haaland"), R("plays_for"), E("Arsenal"))
    removed = (E("Erling Haaland"), R("plays_for"), E("Manchester City"))
    assert (edit.id, edit.kb, edit.kind, edit.who, edit.why) == (1, KB, "edit", "ana", "transfer")
    assert edit.feedback_id == 7 and edit.target is None
    assert before <= edit.at <= time.time()
    assert [key(t) for t in edit.added] == [added]
    assert [key(t) for t in edit.removed] == [removed]
    assert edit.added[0].s_label == "Erling Haaland" and edit.added[0].o_label == "Arsenal"

    history = ws.editor(KB).history()
    assert history == [edit]
    log_lines = (ws.kbs_dir / KB / LOG_NAME).read_text().splitlines()
    assert [Edit.from_dict(json.loads(line)) for line in log_lines] == [edit]
    assert ws.editor(KB).version == 1

    after = store_triples(ws.kbs_dir / KB)
    assert after == (base - {removed}) | {added}
    assert stored_version(ws.kbs_dir / KB) == 1


def test_a_new_entity_gets_its_label_in_the_same_entry(ws, base):
    edit = ws.editor(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="new players")
    keys = {key(t) for t in edit.added}
    assert keys == {
        (E("Cole Palmer"), R("plays_for"), E("Chelsea FC")),
        (E("Cole Palmer"), LABEL, literal_term("Cole Palmer")),
        (E("Chelsea FC"), LABEL, literal_term("Chelsea FC")),
    }
    assert store_triples(ws.kbs_dir / KB) == base | keys
    assert ws.kg(KB).lookup("Cole Palmer")[0].id == E("Cole Palmer")


def test_triples_can_be_given_as_iris_and_literals(ws, base):
    edit = ws.editor(KB).edit(
        add=[
            f"{E('Ederson')}|{R('born_in')}|{E('Rio')}",
            'Ederson|plays_position|"Sweeper keeper"',
        ],
        why="explicit terms",
    )
    assert (E("Ederson"), R("born_in"), E("Rio")) in {key(t) for t in edit.added}
    assert (E("Ederson"), R("plays_position"), '"Sweeper keeper"') in {key(t) for t in edit.added}
    assert_log_matches_store(ws, base)


def test_a_new_relation_needs_confirmation(ws, base):
    message = refused(lambda: ws.editor(KB).edit(add=["Ederson|nicknamed|Eddie"], why="nick"))
    assert "new relation" in message and "confirm" in message
    assert ws.editor(KB).history() == []
    edit = ws.editor(KB).edit(
        add=["Ederson|nicknamed|Eddie"], why="nickname", allow_new_relation=True
    )
    keys = {key(t) for t in edit.added}
    assert (E("Ederson"), R("nicknamed"), E("Eddie")) in keys
    assert (R("nicknamed"), RDF_TYPE, "<http://www.w3.org/1999/02/22-rdf-syntax-ns#Property>") in (
        keys
    )
    assert (R("nicknamed"), LABEL, literal_term("nicknamed")) in keys
    assert R("nicknamed") in ws.kg(KB).index.relations
    assert_log_matches_store(ws, base)


# -- validation: clear messages, nothing changed ---------------------------------------------

LONG = "x" * 2001

BAD_EDITS = [
    pytest.param({"add": ["Ederson|plays_for"]}, "subject|relation|object", id="two-parts"),
    pytest.param({"add": ["Ederson|plays_for|Arsenal|x"]}, "found 4 parts", id="four-parts"),
    pytest.param({"add": ["Ederson plays for Arsenal"]}, "subject|relation|object", id="no-bars"),
    pytest.param({"add": ["|plays_for|Arsenal"]}, "subject is empty", id="empty-subject"),
    pytest.param({"add": ["Ederson| |Arsenal"]}, "relation is empty", id="empty-relation"),
    pytest.param({"add": ["Ederson|plays_for|"]}, "object is empty", id="empty-object"),
    pytest.param({"add": ["Ederson|plays_for|<not an iri"]}, "valid <IRI>", id="open-iri"),
    pytest.param({"add": ["Ederson|plays_for|<relative>"]}, "IRI", id="relative-iri"),
    pytest.param({"add": ["<a b>|plays_for|Arsenal"]}, "IRI", id="iri-with-space"),
    pytest.param({"add": ['Ederson|plays_for|"unterminated']}, "literal", id="open-literal"),
    pytest.param({"add": ['Ederson|plays_for|"x"^^<bad']}, "literal", id="bad-datatype"),
    pytest.param({"add": ['"Ederson"|plays_for|Arsenal']}, "literal cannot be a subject", id="lit"),
    pytest.param({"add": ["Ederson|nicknamed|Eddie"]}, "new relation", id="new-relation"),
    pytest.param(
        {"add": ["Ederson|plays_for|Manchester City"]}, "already in the knowledge graph", id="dup"
    ),
    pytest.param(
        {"add": ["Ederson|plays_for|Arsenal", "Ederson|plays_for|Manchester City"]},
        "already in the knowledge graph",
        id="one-good-one-existing",
    ),
    pytest.param(
        {"add": ["Ed\x00erson|plays_for|Arsenal"]},
        "control characters",
        id="nul-in-triple",
    ),
    pytest.param({"add": ["Ed\x01erson|plays_for|Arsenal"]}, "control characters", id="ctrl"),
    pytest.param({"add": [f"{LONG}|plays_for|Arsenal"]}, "longer than", id="too-long"),
    pytest.param({"add": ["Ederson|plays_for|Arsenal"], "why": "a\x00b"}, "NUL", id="nul-why"),
    pytest.param({"add": ["Ederson|plays_for|Arsenal"], "who": "a\x00b"}, "NUL", id="nul-who"),
    pytest.param({"remove": ["Nobody|plays_for|Arsenal"]}, "no entity named 'Nobody'", id="rm-e"),
    pytest.param({"remove": ["Ederson|likes|Arsenal"]}, "no relation 'likes'", id="rm-rel"),
    pytest.param(
        {"remove": ["Ederson|plays_for|Arsenal"]}, "not in the knowledge graph", id="rm-missing"
    ),
    pytest.param(
        {"remove": ["Ederson|plays_for|Manchester City", "Ederson|plays_for|Arsenal"]},
        "not in the knowledge graph",
        id="rm-one-present-one-missing",
    ),
    pytest.param(
        {"add": ["Ederson|plays_for|Arsenal"], "remove": ["Ederson|plays_for|Arsenal"]},
        "both added and removed",
        id="add-and-remove",
    ),
    pytest.param(
        {"add": ["Ederson|plays_for|Arsenal", "Ederson | plays_for | Arsenal"]},
        "added twice",
        id="added-twice",
    ),
    pytest.param({}, "nothing to change", id="empty-edit"),
]


@pytest.mark.parametrize(("kwargs", "message"), spread(BAD_EDITS, keep=8))
def test_bad_edits_are_refused_with_a_clear_message_and_change_nothing(ws, kwargs, message):
    before = kb_state(ws)
    text = refused(lambda: ws.editor(KB).edit(**{"why": "test", **kwargs}))
    assert text.strip() and "\n" not in text
    assert message in text
    assert kb_state(ws) == before
    assert ws.editor(KB).history() == [] and ws.editor(KB).version == 0


def test_a_refused_edit_after_good_ones_changes_nothing(ws, base):
    ws.editor(KB).edit(add=["Erling Haaland|plays_for|Arsenal"], why="first")
    before = kb_state(ws)
    refused(lambda: ws.editor(KB).edit(add=["Erling Haaland|plays_for|Arsenal"], why="again"))
    refused(lambda: ws.editor(KB).edit(remove=["Erling Haaland|plays_for|Liverpool FC"], why="-"))
    assert kb_state(ws) == before
    assert [e.id for e in ws.editor(KB).history()] == [1]
    assert_log_matches_store(ws, base)


# -- undo and redo ---------------------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_undo_and_redo_are_new_entries(ws, base):
    first = ws.editor(KB).edit(
        add=["Erling Haaland|plays_for|Arsenal"],
        remove=["Erling Haaland|plays_for|Manchester City"],
        why="transfer",
        feedback_id=3,
    )
    undo = ws.editor(KB).undo(first.id, who="bo")
    assert (undo.id, undo.kind, undo.target, undo.who) == (2, "undo", first.id, "bo")
    assert undo.added == first.removed and undo.removed == first.added
    assert undo.feedback_id == 3
    assert store_triples(ws.kbs_dir / KB) == base
    assert ws.editor(KB).undone() == {first.id}

    redo = ws.editor(KB).redo(first.id)
    assert (redo.id, redo.kind, redo.target) == (3, "redo", first.id)
    assert redo.added == first.added and redo.removed == first.removed
    assert ws.editor(KB).undone() == set()
    assert [e.kind for e in ws.editor(KB).history()] == ["edit", "undo", "redo"]
    assert_log_matches_store(ws, base)

    again = ws.editor(KB).undo(first.id)  # after a redo, undo is allowed again
    assert again.kind == "undo" and store_triples(ws.kbs_dir / KB) == base
    assert_log_matches_store(ws, base)


def test_undo_of_an_edit_that_created_entities_keeps_them_consistent(ws, base):
    first = ws.editor(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="new")
    undo = ws.editor(KB).undo(first.id)
    assert [key(t) for t in undo.removed] == [(E("Cole Palmer"), R("plays_for"), E("Chelsea FC"))]
    assert_log_matches_store(ws, base)
    ws.editor(KB).redo(first.id)
    assert_log_matches_store(ws, base)
    assert (E("Cole Palmer"), R("plays_for"), E("Chelsea FC")) in store_triples(ws.kbs_dir / KB)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("undo twice", "already undone"),
        ("redo not undone", "not undone"),
        ("undo an undo", "is an undo"),
        ("redo an undo", "not undone"),
        ("undo a redo", "is an redo"),
        ("undo unknown", "no edit #99"),
        ("redo unknown", "no edit #99"),
    ],
)
def test_undo_and_redo_refusals(ws, action, message):
    first = ws.editor(KB).edit(add=["Erling Haaland|plays_for|Arsenal"], why="w")
    second = ws.editor(KB).edit(add=["Mohamed Salah|plays_for|Arsenal"], why="w")
    if action in ("undo twice", "undo an undo", "redo an undo"):
        ws.editor(KB).undo(first.id)
    if action == "undo a redo":
        ws.editor(KB).undo(first.id)
        ws.editor(KB).redo(first.id)
    undo_id = 3
    before = kb_state(ws)
    editor = ws.editor(KB)
    call = {
        "undo twice": lambda: editor.undo(first.id),
        "redo not undone": lambda: editor.redo(second.id),
        "undo an undo": lambda: editor.undo(undo_id),
        "redo an undo": lambda: editor.redo(undo_id),
        "undo a redo": lambda: editor.undo(4),
        "undo unknown": lambda: editor.undo(99),
        "redo unknown": lambda: editor.redo(99),
    }[action]
    text = refused(call)
    assert message in text and "\n" not in text
    assert kb_state(ws) == before


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_undo_is_refused_when_a_later_edit_re_added_what_it_would_restore(ws, base):
    first = ws.editor(KB).edit(remove=["Erling Haaland|plays_for|Manchester City"], why="w")
    ws.editor(KB).edit(add=["Erling Haaland|plays_for|Manchester City"], why="back")
    before = kb_state(ws)
    assert "already in the knowledge graph" in refused(lambda: ws.editor(KB).undo(first.id))
    assert kb_state(ws) == before
    assert_log_matches_store(ws, base)


# -- log and store agree; index equals a rebuild ---------------------------------------------


def run_sequence(ws: Workspace) -> None:
    """A mixed sequence of edits, undos and redos touching entities, literals and relations."""
    ed = ws.editor
    a = ed(KB).edit(
        add=["Erling Haaland|plays_for|Arsenal"],
        remove=["Erling Haaland|plays_for|Manchester City"],
        why="1",
    )
    ed(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC", "Chelsea FC|based_in|London"], why="2")
    c = ed(KB).edit(remove=["Phil Foden|plays_for|Manchester City"], why="3")
    ed(KB).edit(remove=["Phil Foden|plays_position|Midfielder"], why="4: Foden has no data left")
    ed(KB).edit(add=["Ederson|nicknamed|Eddie"], why="5", allow_new_relation=True)
    ed(KB).undo(a.id)
    ed(KB).edit(add=['Bukayo Saka|plays_position|"Winger"'], why="7")
    ed(KB).undo(c.id)
    ed(KB).redo(a.id)
    ed(KB).edit(remove=["Arsenal|coached_by|Mikel Arteta"], why="10")
    ed(KB).edit(remove=["Mikel Arteta|born_in|San Sebastian"], why="11: Arteta has no data")


def test_the_store_equals_the_import_plus_a_replay_of_the_log(sequenced, base):
    ws = sequenced
    history = ws.editor(KB).history()
    assert [e.id for e in history] == list(range(1, 12))
    assert [e.kind for e in history].count("undo") == 2
    assert_log_matches_store(ws, base)
    # and from a second workspace object (a new process would see the same)
    assert_log_matches_store(Workspace(ws.root), base)


def test_the_index_after_edits_equals_a_fresh_rebuild(sequenced):
    ws = sequenced
    kb_dir = ws.kbs_dir / KB
    touched = {
        n for e in ws.editor(KB).history() for t in [*e.added, *e.removed] for n in (t.s, t.o)
    }
    # the index saved after each edit, reopened
    assert_index_equals_rebuild(Workspace(ws.root).kg(KB), kb_dir, touched)
    # the same workspace object, which reopened after every edit
    assert_index_equals_rebuild(ws.kg(KB), kb_dir, touched)
    kg = ws.kg(KB)
    # #4 took Foden's position; #3 (his club) was undone, so only "plays for" is left
    assert kg.roles(E("Phil Foden")) == [(R("plays_for"), "out")]
    assert kg.roles(E("Mikel Arteta")) == []
    assert R("nicknamed") in {r.id for r in kg.relations}


def test_folding_the_whole_log_into_the_import_index_equals_a_rebuild(sequenced):
    kb_dir = sequenced.kbs_dir / KB
    index = load_index(kb_dir / "imported-index.pickle")
    assert index.kb_version == 0
    store = ox.Store.read_only(str(kb_dir / "store"))
    kg = KnowledgeGraph(KB, store, index)
    log = EditLog(kb_dir / LOG_NAME)
    assert log.fold(index, kg.has_edge) == 11
    assert log.fold(index, kg.has_edge) == 0  # idempotent
    assert_index_equals_rebuild(kg, kb_dir)


def test_kgindex_apply_matches_a_rebuild_in_memory():
    nt = "\n".join(
        f"<urn:e:{s}> <urn:r:{p}> <urn:e:{o}> ."
        for s, p, o in [("a", "knows", "b"), ("b", "knows", "c"), ("a", "likes", "c")]
    )
    kg = KnowledgeGraph.in_memory(nt + "\n")
    added = [Triple("<urn:e:c>", "<urn:r:knows>", "<urn:e:d>", "c", "knows", "d")]
    removed = [
        Triple("<urn:e:a>", "<urn:r:likes>", "<urn:e:c>", "a", "likes", "c"),
        Triple("<urn:e:a>", "<urn:r:knows>", "<urn:e:b>", "a", "knows", "b"),
    ]
    kg.store.update(
        "DELETE DATA { <urn:e:a> <urn:r:likes> <urn:e:c> . <urn:e:a> <urn:r:knows> <urn:e:b> . }"
        " ; INSERT DATA { <urn:e:c> <urn:r:knows> <urn:e:d> . }"
    )
    kg.index.apply(added, removed, kg.has_edge)
    fresh = KnowledgeGraph("fresh", kg.store, rebuild_index(kg.store))
    nodes = {f"<urn:e:{n}>" for n in "abcd"}
    assert index_view(kg, nodes) == index_view(fresh, nodes)
    assert kg.roles("<urn:e:a>") == []


# -- questions see edits at once ------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_questions_see_an_edit_immediately_in_the_same_and_another_workspace(ws):
    engine = Engine(ws)
    other = Engine(Workspace(ws.root))
    question = "Who coaches Arsenal?"
    assert engine.ask(question, kb=KB).answer_labels == ["Mikel Arteta"]
    assert other.ask(question, kb=KB).answer_labels == ["Mikel Arteta"]

    edit = ws.editor(KB).edit(
        add=["Arsenal|coached_by|Unai Emery"], remove=["Arsenal|coached_by|Mikel Arteta"], why="w"
    )
    assert engine.ask(question, kb=KB).answer_labels == ["Unai Emery"]
    assert other.ask(question, kb=KB).answer_labels == ["Unai Emery"]

    ws.editor(KB).undo(edit.id)
    assert engine.ask(question, kb=KB).answer_labels == ["Mikel Arteta"]
    assert other.ask(question, kb=KB).answer_labels == ["Mikel Arteta"]


def test_a_question_about_a_new_entity_is_answered_after_the_edit(ws):
    engine = Engine(ws)
    assert (
        "Chelsea FC" not in engine.ask("Which club does Cole Palmer play for?", kb=KB).answer_labels
    )
    ws.editor(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="w")
    assert engine.ask("Which club does Cole Palmer play for?", kb=KB).answer_labels == [
        "Chelsea FC"
    ]


@pytest.mark.slow
def test_metaqa_copy_sees_an_edit_immediately(metaqa_home: Path, tmp_path: Path):
    root = tmp_path / "metaqa-copy"
    shutil.copytree(metaqa_home, root)
    engine = Engine(Workspace(root))
    question = "who directed [Kismet]"
    assert engine.ask(question).answer_labels == ["William Dieterle"]
    edit = engine.workspace.editor().edit(
        add=["Kismet|directed_by|Vincente Minnelli"],
        remove=["Kismet|directed_by|William Dieterle"],
        why="test",
    )
    assert engine.ask(question).answer_labels == ["Vincente Minnelli"]
    kg = engine.kg()
    kismet, minnelli = edit.added[0].s, edit.added[0].o
    assert kg.edges(kismet, edit.added[0].p, "out") == [minnelli]
    assert (edit.added[0].p, "in") in kg.roles(minnelli)
    assert kg.index.kb_version == edit.id == 1


# -- export ---------------------------------------------------------------------------------


def test_export_graph_as_turtle_and_ntriples(ws, tmp_path):
    edit = ws.editor(KB).edit(
        add=["Erling Haaland|plays_for|Arsenal"],
        remove=["Erling Haaland|plays_for|Manchester City"],
        why="w",
    )
    current = store_triples(ws.kbs_dir / KB)
    for suffix, fmt in ((".ttl", ox.RdfFormat.TURTLE), (".nt", ox.RdfFormat.N_TRIPLES)):
        path = tmp_path / f"out{suffix}"
        what = ws.editor(KB).export(path)
        assert "knowledge graph" in what
        parsed = {
            (str(t.subject), str(t.predicate), str(t.object))
            for t in ox.parse(path=str(path), format=fmt)
        }
        assert parsed == current
        assert key(edit.added[0]) in parsed and key(edit.removed[0]) not in parsed
        assert "urn:knowloop:version" not in path.read_text()  # bookkeeping stays out


def test_export_history_as_jsonl_and_rdf_patch(sequenced, tmp_path):
    ws = sequenced
    history = ws.editor(KB).history()
    jsonl = tmp_path / "h.jsonl"
    assert "history" in ws.editor(KB).export(jsonl)
    assert [Edit.from_dict(json.loads(line)) for line in jsonl.read_text().splitlines()] == history
    assert jsonl.read_bytes() == (ws.kbs_dir / KB / LOG_NAME).read_bytes()

    patch = tmp_path / "h.rdfp"
    ws.editor(KB).export(patch)
    text = patch.read_text()
    assert text == rdf_patch(history)
    blocks = text.split("TX .\n")[1:]
    assert len(blocks) == len(history) == text.count("TC .")
    for entry, block in zip(history, blocks, strict=True):
        body = block.split("TC .")[0].splitlines()
        assert [line for line in body if line.startswith("D ")] == [
            f"D {t.s} {t.p} {t.o} ." for t in entry.removed
        ]
        assert [line for line in body if line.startswith("A ")] == [
            f"A {t.s} {t.p} {t.o} ." for t in entry.added
        ]
    assert f"H id <urn:knowloop:edit:{KB}:1> ." in text
    assert 'H kind "undo" .' in text and f"H target <urn:knowloop:edit:{KB}:1> ." in text


@pytest.mark.parametrize("name", ["out.csv", "out", "out.json", "out.ttl.gz"])
def test_export_to_an_unknown_extension_is_refused(ws, tmp_path, name):
    with pytest.raises(EditError, match=r"\.ttl or \.nt"):
        ws.editor(KB).export(tmp_path / name)
    assert not (tmp_path / name).exists()


# -- torn log lines and recovery ------------------------------------------------------------


@pytest.mark.parametrize(
    "garbage",
    [b'{"id":2,"kb":"foot', b"\x00\x00\x00", None],
    ids=["half-json", "nul-bytes", "whole-entry-without-newline"],
)
@pytest.mark.slow
def test_a_torn_last_line_is_ignored_and_repaired_on_the_next_write(ws, base, garbage):
    first = ws.editor(KB).edit(add=["Erling Haaland|plays_for|Arsenal"], why="w")
    log = ws.kbs_dir / KB / LOG_NAME
    if garbage is None:  # a whole entry whose newline never made it: never acknowledged
        triple = ws.kg(KB).triple(E("Ederson"), R("plays_for"), E("Arsenal"))
        garbage = Edit(2, KB, time.time(), "", "torn", "edit", added=[triple]).to_json().encode()
    with open(log, "ab") as fh:
        fh.write(garbage)

    fresh = Workspace(ws.root)
    assert fresh.editor(KB).history() == [first]
    assert fresh.editor(KB).version == 1
    assert Engine(fresh).ask("Which club does Ederson play for?", kb=KB).answer_labels == [
        "Manchester City"
    ]
    second = fresh.editor(KB).edit(add=["Mohamed Salah|plays_for|Arsenal"], why="next")
    assert second.id == 2
    assert log.read_bytes() == (first.to_json() + "\n" + second.to_json() + "\n").encode()
    assert_log_matches_store(ws, base)


def hand_written_entry(ws: Workspace, edit_id: int) -> Edit:
    kg = ws.kg(KB)
    return Edit(
        id=edit_id,
        kb=KB,
        at=time.time(),
        who="crash",
        why="logged but never applied",
        kind="edit",
        added=[kg.triple(E("Erling Haaland"), R("plays_for"), E("Arsenal"))],
        removed=[kg.triple(E("Mohamed Salah"), R("plays_for"), E("Liverpool FC"))],
    )


def append_entry(ws: Workspace, entry: Edit) -> None:
    with open(ws.kbs_dir / KB / LOG_NAME, "ab") as fh:
        fh.write(entry.to_json().encode() + b"\n")


@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
@pytest.mark.parametrize("reader", ["new workspace", "same workspace"])
def test_a_log_entry_ahead_of_the_store_is_reapplied_on_open(ws, base, reader):
    ws.editor(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="w")
    engine = Engine(ws)
    assert engine.ask("Which club does Erling Haaland play for?", kb=KB).answer_labels == [
        "Manchester City"
    ]
    entry = hand_written_entry(ws, ws.editor(KB).version + 1)
    append_entry(ws, entry)
    kb_dir = ws.kbs_dir / KB
    assert stored_version(kb_dir) == 1  # the store is behind the log

    opener = engine if reader == "same workspace" else Engine(Workspace(ws.root))
    kg = opener.kg(KB)
    assert stored_version(kb_dir) == 2
    assert (E("Erling Haaland"), R("plays_for"), E("Arsenal")) in store_triples(kb_dir)
    assert kg.roles(E("Mohamed Salah")) and R("plays_for") not in dict(kg.roles(E("Mohamed Salah")))
    answers = opener.ask("Which club does Erling Haaland play for?", kb=KB).answer_labels
    assert set(answers) == {"Manchester City", "Arsenal"}
    assert_log_matches_store(ws, base)
    assert_index_equals_rebuild(kg, kb_dir)
    third = opener.workspace.editor(KB).edit(add=["Ederson|plays_for|Arsenal"], why="after")
    assert third.id == 3
    assert_log_matches_store(ws, base)


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_recover_reapplies_pending_entries_once(ws, base):
    ws.editor(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="w")
    append_entry(ws, hand_written_entry(ws, 2))
    kb_dir = ws.kbs_dir / KB
    editor = KBEditor(kb_dir, KnowledgeGraph.open(kb_dir, name=KB))
    assert editor.recover() == 1
    assert editor.recover() == 0
    assert_log_matches_store(ws, base)


def test_the_next_write_also_recovers_a_pending_entry(ws, base):
    editor = ws.editor(KB)  # opened before the entry appears
    ws.editor(KB).edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="w")
    append_entry(ws, hand_written_entry(ws, 2))
    third = editor.edit(add=["Ederson|plays_for|Arsenal"], why="after")
    assert third.id == 3
    assert_log_matches_store(ws, base)


# -- one editor object over several edits ---------------------------------------------------


def test_one_editor_can_remove_by_name_what_it_just_added(ws, base):
    editor = ws.editor(KB)
    editor.edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="add")
    editor.edit(remove=["Cole Palmer|plays_for|Chelsea FC"], why="remove again")
    assert_log_matches_store(ws, base)


def test_one_editor_knows_a_relation_it_just_created(ws, base):
    editor = ws.editor(KB)
    editor.edit(add=["Ederson|nicknamed|Eddie"], why="new relation", allow_new_relation=True)
    editor.edit(add=["Mohamed Salah|nicknamed|Mo"], why="same relation, already created")
    assert_log_matches_store(ws, base)


def test_a_batch_keeps_every_edit_durable_and_folds_the_index_at_the_end(ws, base):
    editor = ws.editor(KB)
    with editor.batch():
        first = editor.edit(add=["Cole Palmer|plays_for|Chelsea FC"], why="1")
        editor.edit(remove=[first.added[0]], why="2: by triple")
        editor.undo(2)
        editor.edit(add=["Ederson|plays_for|Arsenal"], why="4")
        assert editor.version == 4
        log = (ws.kbs_dir / KB / LOG_NAME).read_text().splitlines()
        assert [json.loads(line)["id"] for line in log] == [1, 2, 3, 4]  # durable mid-batch
    assert load_index(ws.kbs_dir / KB / "index.pickle").kb_version == 4
    assert_log_matches_store(ws, base)
    assert_index_equals_rebuild(Workspace(ws.root).kg(KB), ws.kbs_dir / KB)


class FastClock:
    """Stands in for the `time` module inside core.kg.edits: each sleep advances the clock a
    second, so the editor's 10-second wait for a locked store passes in moments."""

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def sleep(self, seconds: float) -> None:
        self.offset += 1.0
        time.sleep(0.002)

    def time(self) -> float:
        return time.time()

    offset = 0.0


def test_a_kept_refusal_does_not_keep_the_store_locked(ws, base, monkeypatch):
    clock = FastClock()
    monkeypatch.setattr(edits, "time", clock)
    kept = []
    try:  # refused inside the write, after the store was opened
        ws.editor(KB).edit(add=["Ederson|plays_for|Manchester City"], why="exists already")
    except EditError as exc:
        kept.append(exc)
    assert "already in the knowledge graph" in str(kept[0])
    edit = ws.editor(KB).edit(add=["Ederson|plays_for|Arsenal"], why="next")
    assert edit.id == 1
    assert_log_matches_store(ws, base)


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_sparql_sees_an_edit_and_its_undo(ws):
    """SPARQL runs in a query worker with its own read-only store: it must follow the edits."""
    ask = "ASK { ?s <%s> ?o . ?o <http://www.w3.org/2000/01/rdf-schema#label> 'Unai Emery' }"
    coached = ws.kg(KB).index.relations
    rel = next(r for r in coached if coached[r].label.replace(" ", "_") == "coached_by")
    query = ask % rel.strip("<>")
    assert ws.kg(KB).sparql(query).rows == [["false"]]
    edit = ws.editor(KB).edit(add=["Arsenal|coached_by|Unai Emery"], why="w")
    assert ws.kg(KB).sparql(query).rows == [["true"]]
    ws.editor(KB).undo(edit.id)
    assert ws.kg(KB).sparql(query).rows == [["false"]]
