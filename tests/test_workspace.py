"""Workspace: seeding the bundled KB, reuse, atomic imports, content-keyed `--kb PATH`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.kg.importer import KBFileError
from core.workspace import Workspace, file_sha256

REPO = Path(__file__).resolve().parents[1]


def meta(root: Path, name: str) -> dict:
    return json.loads((root / "kbs" / name / "meta.json").read_text())


def kbs_listing(ws: Workspace) -> list[str]:
    """Every entry of kbs/ (hidden temporary ones included)."""
    return sorted(p.name for p in ws.kbs_dir.iterdir()) if ws.kbs_dir.exists() else []


# -- the bundled KB ------------------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_first_use_seeds_the_bundled_kb(metaqa_home: Path) -> None:
    kb_txt = Path(__file__).resolve().parents[1] / "kb_data" / "metaqa" / "kb.txt"
    distinct = {
        tuple(part.strip() for part in line.split("|"))
        for line in kb_txt.read_text(encoding="utf-8").splitlines()
        if line.strip()
    }
    ws = Workspace(metaqa_home)
    assert ws.kb_names() == ["metaqa"]
    info = ws.kb_info("metaqa")
    assert Path(info.source) == kb_txt.resolve()
    assert info.triples == len(distinct)
    assert info.relations == 9
    assert info.skipped_lines == 0
    assert (metaqa_home / "kbs" / "metaqa" / "store").is_dir()
    assert (metaqa_home / "kbs" / "metaqa" / "index.pickle").is_file()


@pytest.mark.slow
def test_second_workspace_reuses_the_kb_without_reimport(metaqa_home: Path, tree_snapshot) -> None:
    before_meta = meta(metaqa_home, "metaqa")
    before = tree_snapshot(metaqa_home / "kbs")
    ws = Workspace(metaqa_home)
    assert ws.resolve(None) == "metaqa"
    assert ws.kg().stats()["triples"] == before_meta["triples"]
    assert meta(metaqa_home, "metaqa")["imported_at"] == before_meta["imported_at"]
    assert tree_snapshot(metaqa_home / "kbs") == before


def test_default_home_is_knowloop_home(knowloop_home: Path) -> None:
    assert Workspace().root == knowloop_home


# -- importing -----------------------------------------------------------------------------


def test_import_records_meta_and_opens(workspace: Workspace, football_file: Path) -> None:
    info = workspace.import_file(football_file, name="football")
    assert workspace.kb_names() == ["football"]
    assert info.format == "delimited:tab"
    assert info.triples == 37
    assert info.relations == 5
    assert info.sha256 == file_sha256(football_file)
    assert meta(workspace.root, "football")["sha256"] == info.sha256
    kg = workspace.kg("football")
    assert kg.stats()["triples"] == 37


def test_import_same_content_same_name_is_idempotent(
    workspace: Workspace, football_file: Path
) -> None:
    first = workspace.import_file(football_file, name="fb")
    again = workspace.import_file(football_file, name="fb")
    assert again.imported_at == first.imported_at
    assert workspace.kb_names() == ["fb"]


@pytest.mark.parametrize("bad", ["binary_file", "malformed_file"])
def test_failed_import_leaves_kbs_exactly_as_before(
    workspace: Workspace, football_file: Path, bad: str, request, tree_snapshot
) -> None:
    workspace.import_file(football_file, name="football")
    listing, files = kbs_listing(workspace), tree_snapshot(workspace.kbs_dir)
    with pytest.raises(KBFileError):
        workspace.import_file(request.getfixturevalue(bad), name="other")
    assert kbs_listing(workspace) == listing
    assert tree_snapshot(workspace.kbs_dir) == files


def test_failed_import_into_empty_workspace_creates_no_kb(
    workspace: Workspace, binary_file: Path
) -> None:
    with pytest.raises(KBFileError, match="binary"):
        workspace.import_file(binary_file)
    assert kbs_listing(workspace) == []
    assert workspace.kb_names() == []


def test_failure_after_parsing_removes_the_partial_import(
    workspace: Workspace, football_file: Path, tmp_path: Path, tree_snapshot
) -> None:
    """A bad schema fails while the KB is being built: the temporary directory must go."""
    workspace.import_file(football_file, name="football")
    before = tree_snapshot(workspace.kbs_dir)
    schema = tmp_path / "bad-schema.ttl"
    schema.write_text("<r/plays_for> <http://www.w3.org/2000/01/rdf-schema#label> ", "utf-8")
    with pytest.raises(KBFileError, match="schema"):
        workspace.import_file(football_file, name="football2", schema=schema)
    assert kbs_listing(workspace) == ["football"]
    assert tree_snapshot(workspace.kbs_dir) == before


def test_failed_replace_keeps_the_old_kb(
    workspace: Workspace, football_file: Path, binary_file: Path
) -> None:
    old = workspace.import_file(football_file, name="fb")
    with pytest.raises(KBFileError):
        workspace.import_file(binary_file, name="fb", replace=True)
    assert workspace.kb_info("fb") == old
    assert workspace.kg("fb").stats()["triples"] == 37


def test_different_content_under_existing_name_is_refused_unless_replace(
    workspace: Workspace, football_file: Path, tiny_file: Path
) -> None:
    old = workspace.import_file(football_file, name="kb")
    assert workspace.kg("kb").lookup("Ederson")[0].label == "Ederson"
    with pytest.raises(KBFileError, match="exists"):
        workspace.import_file(tiny_file, name="kb")
    assert workspace.kb_info("kb") == old

    new = workspace.import_file(tiny_file, name="kb", replace=True)
    assert new.sha256 == file_sha256(tiny_file)
    assert workspace.kb_names() == ["kb"]
    assert kbs_listing(workspace) == ["kb"]  # no leftover trash or temporary directories
    kg = workspace.kg("kb")
    assert kg.exact("Danube") and not kg.exact("Ederson")


def test_kb_path_is_keyed_by_content(workspace: Workspace, football_file: Path, tmp_path) -> None:
    copy = tmp_path / "my kb.tsv"
    copy.write_bytes(football_file.read_bytes())
    name = workspace.resolve(str(copy))
    digest = file_sha256(copy)
    assert name == f"my-kb-{digest[:10]}"
    first = workspace.kb_info(name)

    assert workspace.resolve(str(copy)) == name
    assert workspace.kb_info(name).imported_at == first.imported_at
    assert workspace.kb_names() == [name]

    with copy.open("a", encoding="utf-8") as fh:
        fh.write("Declan Rice\tplays_for\tArsenal\n")
    changed = workspace.resolve(str(copy))
    assert changed != name
    assert sorted(workspace.kb_names()) == sorted([name, changed])
    assert workspace.kg(changed).exact("Declan Rice")
    assert not workspace.kg(name).exact("Declan Rice")


def test_unknown_kb_name_is_refused(workspace: Workspace) -> None:
    with pytest.raises(KBFileError, match="no KB named"):
        workspace.resolve("no-such-kb")
    assert not workspace.kbs_dir.exists()


def test_invalid_kb_name_is_refused(workspace: Workspace, football_file: Path) -> None:
    with pytest.raises(KBFileError, match="invalid KB name"):
        workspace.import_file(football_file, name="../escape")
    assert kbs_listing(workspace) == []


def test_skip_bad_imports_good_lines_and_counts_skipped(
    workspace: Workspace, malformed_file: Path
) -> None:
    with pytest.raises(KBFileError) as err:
        workspace.import_file(malformed_file)
    assert "lines 3, 5" in str(err.value)
    info = workspace.import_file(malformed_file, skip_bad=True)
    assert info.triples == 4
    assert info.skipped_lines == 2
    kg = workspace.kg(info.name)
    assert kg.stats()["triples"] == 4
    assert kg.exact("Alice") and kg.exact("Dave")


def test_skip_bad_counts_every_skipped_line(workspace: Workspace, tmp_path: Path) -> None:
    path = tmp_path / "many_bad.txt"
    good = [f"e{i}|rel|f{i}" for i in range(10)]
    bad = [f"broken line {i}" for i in range(60)]
    path.write_text("\n".join(good + bad) + "\n", encoding="utf-8")
    info = workspace.import_file(path, skip_bad=True)
    assert info.triples == 10
    assert info.skipped_lines == 60


def test_turtle_import_counts_agree_with_stats(workspace: Workspace, tiny_file: Path) -> None:
    info = workspace.import_file(tiny_file, name="tiny")
    stats = workspace.kg("tiny").stats()
    assert (info.triples, info.relations) == (stats["triples"], stats["relations"])


# -- what killed imports leave behind (issue 14, part 6) -----------------------------------

# An import paused inside its staging directory: it prints STAGED, then waits for a line.
PAUSED_IMPORT = """
import sys
import core.workspace as w
real = w._load_and_index
def paused(*args):
    print("STAGED", flush=True)
    sys.stdin.readline()
    return real(*args)
w._load_and_index = paused
w.Workspace(sys.argv[1]).import_file(sys.argv[2], name=sys.argv[3], replace=True)
print("DONE", flush=True)
"""


def start_paused_import(root: Path, kb_file: Path, name: str) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-c", PAUSED_IMPORT, str(root), str(kb_file), name],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout.readline().strip() == "STAGED"
    return proc


def staging(ws: Workspace) -> list[str]:
    return [e for e in kbs_listing(ws) if e.startswith(".")]


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_sweep_keeps_a_running_import_and_removes_a_killed_one(
    workspace: Workspace, football_file: Path, tiny_file: Path
) -> None:
    workspace.import_file(football_file, name="fb")
    proc = start_paused_import(workspace.root, tiny_file, "fb")
    try:
        running = staging(workspace)
        assert running and any(e.endswith(".lock") for e in running)
        assert Workspace(workspace.root).swept == []  # another process opens the workspace
        assert staging(workspace) == running
    finally:
        proc.kill()  # SIGKILL: no cleanup of its own runs
        proc.wait(timeout=30)
    assert staging(workspace) == running  # what the kill left...
    again = Workspace(workspace.root)  # ...is gone on the next start
    assert again.swept and staging(workspace) == []
    assert again.kb_names() == ["fb"]
    assert again.kb_info("fb").sha256 == file_sha256(football_file)
    assert again.kg("fb").stats()["triples"] == 37


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_running_import_survives_a_sweep_and_completes(
    workspace: Workspace, football_file: Path, tiny_file: Path
) -> None:
    workspace.import_file(football_file, name="fb")
    proc = start_paused_import(workspace.root, tiny_file, "fb")
    Workspace(workspace.root)
    out, _ = proc.communicate("go\n", timeout=60)
    assert proc.returncode == 0 and "DONE" in out
    assert kbs_listing(workspace) == ["fb"]
    assert Workspace(workspace.root).kb_info("fb").sha256 == file_sha256(tiny_file)


def test_sweep_in_the_importing_process_keeps_its_own_staging(
    workspace: Workspace, football_file: Path
) -> None:
    """The app imports in one thread while another opens the workspace: flock is per open
    file, so the sweep sees the lock held by its own process too."""
    from core.workspace import _staging_dir

    workspace.kbs_dir.mkdir(parents=True)
    with _staging_dir(workspace.kbs_dir, "fb") as tmp:
        (tmp / "partial").write_text("building")
        assert Workspace(workspace.root).swept == []
        assert (tmp / "partial").is_file()
    assert kbs_listing(workspace) == []


def test_sweep_puts_back_a_kb_caught_between_the_two_renames(
    workspace: Workspace, football_file: Path, tiny_file: Path
) -> None:
    """Killed after the old KB moved aside and before the new one moved in: the import was
    never acknowledged, so the old KB comes back (never a missing or half one)."""
    workspace.import_file(football_file, name="fb")
    workspace.import_file(tiny_file, name="new")
    kbs = workspace.kbs_dir
    os.rename(kbs / "fb", kbs / ".import-fb-abcd1234.old")
    os.rename(kbs / "new", kbs / ".import-fb-abcd1234")  # the finished, unswapped staging
    (kbs / ".import-fb-abcd1234.lock").touch()  # its lock, free: the importer died
    again = Workspace(workspace.root)
    assert again.swept == [".import-fb-abcd1234"]
    assert kbs_listing(again) == ["fb"]
    assert again.kb_info("fb").sha256 == file_sha256(football_file)
    assert again.kg("fb").stats()["triples"] == 37


def test_sweep_removes_leftovers_of_the_old_import_code(
    workspace: Workspace, football_file: Path
) -> None:
    """Before the locks: `.import-<name>-<random>` staging and `.old-<name>-<pid>` trash."""
    workspace.import_file(football_file, name="fb")
    kbs = workspace.kbs_dir
    shutil.copytree(kbs / "fb", kbs / ".import-other-x1y2z3w4")
    shutil.copytree(kbs / "fb", kbs / ".old-fb-4242")
    assert workspace.kb_names() == ["fb"]  # hidden, although they hold a meta.json
    assert sorted(Workspace(workspace.root).swept) == [".import-other-x1y2z3w4", ".old-fb-4242"]
    assert kbs_listing(workspace) == ["fb"]


def test_sweep_costs_one_listdir_when_clean(workspace: Workspace, football_file: Path) -> None:
    workspace.import_file(football_file, name="fb")
    started = time.perf_counter()
    for _ in range(200):
        Workspace(workspace.root)
    assert (time.perf_counter() - started) / 200 < 0.005  # ~0.1 ms measured


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_rocksdb_info_logs_stay_bounded(workspace: Workspace, football_file: Path) -> None:
    """Each read-write open (an edit's) leaves a RocksDB LOG.old.*; opening the KB prunes
    them to the newest three, however many edits ran."""
    import pyoxigraph as ox

    workspace.import_file(football_file, name="fb")
    store_dir = workspace.kbs_dir / "fb" / "store"
    for i in range(12):
        workspace.editor("fb").edit(add=[f"Player{i}|plays_for|Arsenal"], why="logs")
    for _ in range(5):
        ox.Store(str(store_dir)).flush()  # opened read-write and dropped, as by each edit
    Workspace(workspace.root).kg("fb")
    logs = sorted(p.name for p in store_dir.glob("LOG.old.*"))
    assert 0 < len(logs) <= 3
    for _ in range(20):  # read-only opens write none
        Workspace(workspace.root).kg("fb")
    assert sorted(p.name for p in store_dir.glob("LOG.old.*")) == logs


def test_empty_name_is_refused(workspace: Workspace, football_file: Path, capsys) -> None:
    from core.cli import main

    with pytest.raises(KBFileError, match="the name must not be empty"):
        workspace.import_file(football_file, name="")
    assert main(["--home", str(workspace.root), "import", str(football_file), "--name", ""]) == 2
    assert "knowloop: error: the name must not be empty" in capsys.readouterr().err
    assert kbs_listing(workspace) == []
