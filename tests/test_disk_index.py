"""A large KB's index on disk (core.kg.disk_index, core.kg.nodebase): the same index, the same
answers, edits and undo through the overlay, fuzzy linking by trigram candidates, and the
N-Triples import that streams a file of any size block by block."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from core.engine import Engine
from core.kg import importer
from core.kg.disk_index import DiskIndexBuilder
from core.kg.importer import KBFileError
from core.kg.nodebase import NODES_FILE, NodeMap
from core.kg.store import KnowledgeGraph, build_index, load_index, ntriples_triples, rebuild_index
from core.workspace import Workspace
from tests.kg_checks import index_view

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from scale_kb import generate  # noqa: E402

NODE_MAPS = ("labels", "roles", "degree", "classes")


@pytest.fixture(scope="module")
def music(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list]:
    """A generated 20k-triple music KB (not the bundled domain) and its questions."""
    path = tmp_path_factory.mktemp("music") / "music.nt"
    return path, generate(path, 20_000, n_questions=60)


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory, music) -> Engine:
    """The music KB imported twice: index in memory ("mem") and on disk ("disk")."""
    ws = Workspace(tmp_path_factory.mktemp("disk-index"))
    ws.import_file(music[0], name="mem", index="memory")
    ws.import_file(music[0], name="disk", index="disk")
    return Engine(ws)


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_the_disk_index_is_the_memory_index(both: Engine) -> None:
    mem, disk = both.kg("mem").index, both.kg("disk").index
    assert mem.nodes is None and disk.nodes is not None
    assert (both.workspace.kbs_dir / "disk" / NODES_FILE).is_file()
    for field in ("relations", "rel_ids", "follow", "n_triples", "reach", "reach_distinct",
                  "comments"):  # fmt: skip
        assert getattr(disk, field) == getattr(mem, field), field
    for field in NODE_MAPS:
        m, d = getattr(mem, field), getattr(disk, field)
        assert len(d) == len(m), field
        assert set(d) == set(m), field
        assert all(d.get(node) == value for node, value in m.items()), field
    assert {k: sorted(v) for k, v in mem.by_norm.items()} == dict(disk.by_norm.items())
    assert disk.entity_count() == mem.entity_count() > 0
    # the pickle holds the small part only; the node table is found again beside it
    size = (both.workspace.kbs_dir / "disk" / "index.pickle").stat().st_size
    assert size < (both.workspace.kbs_dir / "mem" / "index.pickle").stat().st_size / 10


@pytest.mark.slow
def test_same_answers_and_paths_as_the_memory_index(both: Engine, music) -> None:
    for q in music[1]:
        a = both.ask(q.text, kb="mem", paradigm="kg-only")
        b = both.ask(q.text, kb="disk", paradigm="kg-only")
        assert b.error is None
        assert b.answer_labels == a.answer_labels, q.text
        assert [s.action.description for s in b.steps] == [s.action.description for s in a.steps]
    assert sum(both.ask(q.text, kb="disk").answer_labels[:1] == [q.answers[0]]
               for q in music[1][:20]) >= 18  # fmt: skip


def test_fuzzy_linking_finds_what_a_full_scan_finds(both: Engine) -> None:
    mem, disk = both.kg("mem"), both.kg("disk")
    labels = sorted(label for label in mem.index.labels.values() if len(label) > 8)[::80][:40]
    assert len(labels) == 40
    for label in labels:
        typo = label[:3] + label[4:]  # one letter dropped
        # near matches (QRatio ≥ 89) as a full scan finds them; weaker ones may be missed
        want = [(m.id, m.score) for m in mem.lookup(typo, limit=3) if m.score >= 0.8]
        got = [(m.id, m.score) for m in disk.lookup(typo, limit=3) if m.score >= 0.8]
        assert got == want, typo
        assert want and want[0][0] in mem.exact(label)
    for text in ("Fierc", "fierce fountain", "zzqx", "x"):
        assert disk.starts_label(text.lower()) == mem.starts_label(text.lower())


@pytest.mark.slow
def test_edit_undo_and_reopen_through_the_overlay(tmp_path: Path, music) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.import_file(music[0], name="m", index="disk")
    engine = Engine(ws)
    q = next(q for q in music[1] if q.text.startswith("who is the performer of"))
    album = q.text.removeprefix("who is the performer of ").rstrip("?")
    editor = engine.editor("m")
    change = editor.edit(
        remove=[f"{album} | performer | {q.answers[0]}"],
        add=[f"{album} | performer | Ada Newcomer"],  # a node the table has never seen
        why="test",
    )
    assert engine.ask(q.text, kb="m", paradigm="kg-only").answer_labels == ["Ada Newcomer"]
    # a fresh process sees the same: the overlay is pickled with the index
    fresh = Workspace(ws.root).kg("m")
    assert fresh.index.nodes is not None and fresh.index.roles.overlay
    assert fresh.lookup("Ada Newcomer")[0].label == "Ada Newcomer"
    assert fresh.lookup("Ada Newcomr")[0].label == "Ada Newcomer"  # fuzzy, from the overlay
    assert fresh.starts_label("ada newc")
    touched = {n for t in change.added + change.removed for n in (t.s, t.o)}
    rebuilt = KnowledgeGraph("rebuilt", fresh.store, rebuild_index(fresh.store))
    assert index_view(fresh, touched) == index_view(rebuilt, touched)
    editor.undo(change.id, why="test")
    assert engine.ask(q.text, kb="m", paradigm="kg-only").answer_labels == [q.answers[0]]
    again = Workspace(ws.root).kg("m")
    assert index_view(again, touched) == index_view(
        KnowledgeGraph("rebuilt", again.store, rebuild_index(again.store)), touched
    )


def test_node_map_is_a_mapping_with_an_overlay(both: Engine) -> None:
    index = both.kg("disk").index
    copy = pickle.loads(pickle.dumps(index))
    copy.bind(both.workspace.kbs_dir / "disk")
    roles: NodeMap = copy.roles
    node = next(iter(roles))
    n = len(roles)
    assert node in roles and roles[node] == index.roles[node]
    del roles[node]
    assert node not in roles and roles.get(node) is None and len(roles) == n - 1
    with pytest.raises(KeyError):
        roles[node]  # noqa: B018
    roles["<urn:new>"] = (0,)
    assert len(roles) == n and "<urn:new>" in set(roles)
    # the overlay, tombstone included, survives the pickle the edit log's index write makes
    again = pickle.loads(pickle.dumps(copy))
    again.bind(both.workspace.kbs_dir / "disk")
    assert node not in again.roles and again.roles.get(node) is None and len(again.roles) == n
    assert again.roles["<urn:new>"] == (0,)
    assert node in index.roles  # the original (and the file) did not change
    with pytest.raises(KeyError):
        copy.labels["<urn:nothing>"]  # noqa: B018


# -- RDF files, piece by piece ------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_rdf_import_streams_in_pieces(tmp_path: Path, monkeypatch) -> None:
    lines = [f'<http://x/e{i}> <http://x/next> <http://x/e{i + 1}> .\n' for i in range(40)]
    lines += ['<http://x/e1> <http://www.w3.org/2000/01/rdf-schema#label> "One" .\n',
              "# a comment line\n", lines[3]]  # fmt: skip
    path = tmp_path / "kb.nt"
    path.write_text("".join(lines))
    whole = build_index(dict.fromkeys(ntriples_triples(_canonical(path))))
    monkeypatch.setattr(importer._RDFStream, "PIECE", 4)  # triples per piece
    ws = Workspace(tmp_path / "ws")
    for place in ("memory", "disk"):
        info = ws.import_file(path, name=f"kb-{place}", index=place)
        kg = ws.kg(f"kb-{place}")
        assert info.triples == kg.index.n_triples == whole.n_triples == 40  # repeat counted once
        assert kg.label("<http://x/e1>") == "One"
        assert kg.edges("<http://x/e3>", "<http://x/next>", "out") == ["<http://x/e4>"]
    # Turtle streams the same way (prefixes, several triples per statement)
    ttl = tmp_path / "kb.ttl"
    ttl.write_text("@prefix x: <http://x/> .\n"
                   + "".join(f"x:e{i} x:next x:e{i + 1} .\n" for i in range(40))
                   + 'x:e1 <http://www.w3.org/2000/01/rdf-schema#label> "One" .\n')  # fmt: skip
    info = ws.import_file(ttl, name="kb-ttl", index="disk")
    assert info.triples == 40 and ws.kg("kb-ttl").label("<http://x/e1>") == "One"
    bad_ttl = tmp_path / "bad.ttl"
    bad_ttl.write_text(ttl.read_text().replace("x:e30 x:next", "x:e30 x:next ;;"))
    with pytest.raises(KBFileError, match="line 32") as err:
        ws.import_file(bad_ttl, name="bad-ttl")
    assert err.value.issues[0].line == 32 and "x:e30" in err.value.issues[0].text
    # an error in a later piece names the file's line, and nothing is imported
    bad = tmp_path / "bad.nt"
    bad.write_text("".join(lines[:30]) + "<http://x/a> <http://x/b> .\n" + "".join(lines[30:]))
    with pytest.raises(KBFileError, match="line 31") as err:
        ws.import_file(bad, name="bad", index="disk")
    assert err.value.issues[0].line == 31 and "<http://x/a>" in err.value.issues[0].text
    assert "bad" not in ws.kb_names()
    binary = tmp_path / "binary.nt"
    binary.write_bytes(b"\x00\x01" * 100)
    with pytest.raises(KBFileError, match="binary"):
        ws.import_file(binary, name="binary")
    empty = tmp_path / "empty.nt"
    empty.write_text("")
    with pytest.raises(KBFileError, match="empty"):
        ws.import_file(empty, name="empty")
    with pytest.raises(KBFileError, match="index must be"):
        ws.import_file(path, name="x", index="cloud")
    assert sorted(ws.kb_names()) == ["kb-disk", "kb-memory", "kb-ttl"]


def test_builder_cleans_up_when_stopped(tmp_path: Path) -> None:
    builder = DiskIndexBuilder(tmp_path)
    builder.add('<http://x/a> <http://x/b> <http://x/c> .\n')
    builder.close()
    assert list(tmp_path.iterdir()) == []


def _canonical(path: Path) -> str:
    import pyoxigraph as ox

    base = "https://knowloop.dev/kb/x/"
    triples = ox.parse(path=path, format=ox.RdfFormat.N_TRIPLES, base_iri=base)
    return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode()


def test_load_index_binds_the_node_table(both: Engine) -> None:
    kb_dir = both.workspace.kbs_dir / "disk"
    index = load_index(kb_dir / "index.pickle")
    assert index.nodes.path == kb_dir / NODES_FILE
    assert dict(index.roles.items()) == dict(both.kg("disk").index.roles.items())


def test_auto_puts_the_index_on_disk_by_lines_not_bytes(tmp_path: Path, monkeypatch) -> None:
    import core.workspace as workspace

    tsv = tmp_path / "kb.tsv"
    tsv.write_text("".join(f"e{i}\tnext\te{i + 1}\n" for i in range(300)))
    assert abs(workspace.estimated_lines(tsv, sample=1000) - 300) < 60  # early lines are short
    monkeypatch.setattr(workspace, "DISK_INDEX_TRIPLES", 200)
    ws = Workspace(tmp_path / "ws")
    ws.import_file(tsv, name="dense")  # 300 lines: on disk, although a small file
    assert ws.kg("dense").index.nodes is not None
    small = tmp_path / "small.tsv"
    small.write_text("".join(f"e{i}\tnext\te{i + 1}\n" for i in range(100)))
    ws.import_file(small, name="small")
    assert ws.kg("small").index.nodes is None


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_long_delimited_file_forgets_its_names_and_imports_the_same(
    tmp_path: Path, monkeypatch
) -> None:
    tsv = tmp_path / "kb.tsv"
    tsv.write_text("".join(f"n{i % 17}\tnext\tn{(i * 7) % 23}\n" for i in range(200)))
    whole = Workspace(tmp_path / "whole")
    whole.import_file(tsv, name="kb")
    monkeypatch.setattr(importer, "_FORGET_AFTER", 10)  # forget the names every 10 triples
    monkeypatch.setattr(importer._DelimitedStream, "CHUNK", 5)
    a = whole.kg("kb")
    nodes = set(a.index.roles)
    for place in ("memory", "disk"):
        ws = Workspace(tmp_path / place)
        info = ws.import_file(tsv, name="kb", index=place)
        b = ws.kg("kb")
        assert info.triples == whole.kb_info("kb").triples == b.index.n_triples
        assert index_view(a, nodes) == index_view(b, nodes)


@pytest.mark.slow  # ≈ 1.8 s: `make test` runs it; the fast loop keeps cheaper ones
def test_an_older_index_format_is_rebuilt_where_it_lives(tmp_path: Path, music) -> None:
    """A code change that bumps INDEX_VERSION rebuilds each KB's index once, from its store;
    a large KB's goes back on disk (bounded memory), not into a pickle of millions of nodes."""
    from core.kg.store import INDEX_VERSION, save_index

    ws = Workspace(tmp_path / "ws")
    ws.import_file(music[0], name="m", index="disk")
    kb_dir = ws.kbs_dir / "m"
    before = index_view(ws.kg("m"))
    table = (kb_dir / NODES_FILE).stat().st_ino
    old = load_index(kb_dir / "index.pickle")
    old.version = INDEX_VERSION - 1
    save_index(old, kb_dir / "index.pickle")
    fresh = Workspace(ws.root).kg("m")  # a new process opening the KB
    assert fresh.index.version == INDEX_VERSION and fresh.index.nodes is not None
    assert (kb_dir / NODES_FILE).stat().st_ino != table  # written again
    assert index_view(fresh) == before
    assert load_index(kb_dir / "index.pickle").version == INDEX_VERSION
