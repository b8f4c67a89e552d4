"""Concurrent KG edits: writers that edit the same (subject, relation) slot from the same base
version conflict (exactly one wins, the other is told to reload); writers of different
slots both succeed; a writer kept out of the store by another process gets a clear error.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import core.kg.edits as edits
from core.cli import EXIT_CONFLICT, main
from core.kg.edits import LOG_NAME, Edit, EditConflict, EditError, KBEditor
from core.workspace import Workspace
from tests.kg_checks import E, Key, R, replay, store_triples

pytestmark = pytest.mark.slow  # the fast loop (`pytest -m 'not slow'`) leaves it out


KB = "football"
REPO = Path(__file__).resolve().parents[1]
WORKER = Path(__file__).resolve().parent / "scripts" / "conflict_worker.py"
ENV = {**os.environ, "PYTHONPATH": str(REPO)}

HAALAND_TO_ARSENAL = "Erling Haaland|plays_for|Arsenal"
HAALAND_AT_CITY = "Erling Haaland|plays_for|Manchester City"
SALAH_BORN = "Mohamed Salah|born_in|Cairo"
HAALAND_BORN = "Erling Haaland|born_in|Bristol"


@pytest.fixture
def ws(tmp_path: Path, football_file: Path) -> Workspace:
    workspace = Workspace(tmp_path / "ws")
    workspace.import_file(football_file, name=KB)
    return workspace


@pytest.fixture
def base(ws: Workspace) -> set[Key]:
    return store_triples(ws.kbs_dir / KB)


def history(ws: Workspace) -> list[Edit]:
    return Workspace(ws.root).editor(KB).history()


def refusal(call) -> tuple[type, str]:
    """Run a call that must raise EditError; return the exception's class and message only.

    The exception itself is not kept: its traceback would keep the refused writer's store
    handle alive (see test_a_kept_refusal_does_not_keep_the_store_locked in test_edits.py).
    """
    try:
        call()
    except EditError as exc:
        return type(exc), str(exc)
    raise AssertionError("the call was not refused")


def assert_consistent(ws: Workspace, base: set[Key]) -> None:
    assert store_triples(ws.kbs_dir / KB) == replay(base, history(ws))


# -- two editor objects in one process ------------------------------------------------------


@pytest.mark.parametrize(
    "second",
    [
        {"remove": [HAALAND_AT_CITY]},  # same slot, another triple
        {"add": [HAALAND_TO_ARSENAL]},  # same slot, the very same triple
        {"add": ["Erling Haaland|plays_for|Liverpool FC"]},
    ],
    ids=["remove-other-triple", "same-triple", "add-other-object"],
)
def test_same_slot_from_the_same_base_version_conflicts(ws, base, second):
    first_editor = ws.editor(KB)
    second_editor = Workspace(ws.root).editor(KB)  # another user, same starting point
    assert first_editor.version == second_editor.version == 0

    won = first_editor.edit(add=[HAALAND_TO_ARSENAL], why="a", who="ana", base_version=0)
    assert won.id == 1
    log_before = (ws.kbs_dir / KB / LOG_NAME).read_bytes()
    kind, message = refusal(lambda: second_editor.edit(**second, why="b", who="bo", base_version=0))
    assert kind is EditConflict
    assert "reload" in message and "conflict" in message.lower()
    assert "#1" in message and "ana" in message  # who changed it, and in which entry
    assert "\n" not in message
    assert (ws.kbs_dir / KB / LOG_NAME).read_bytes() == log_before
    assert [e.id for e in history(ws)] == [1]
    assert_consistent(ws, base)

    # after reloading (basing the edit on the current version) it goes through
    retry = (
        Workspace(ws.root)
        .editor(KB)
        .edit(add=["Erling Haaland|plays_for|Liverpool FC"], why="b", who="bo", base_version=1)
    )
    assert retry.id == 2
    assert_consistent(ws, base)


def test_different_slots_from_the_same_base_version_both_succeed(ws, base):
    first_editor = ws.editor(KB)
    second_editor = Workspace(ws.root).editor(KB)
    a = first_editor.edit(add=[HAALAND_TO_ARSENAL], why="a", base_version=0)
    b = second_editor.edit(add=[SALAH_BORN], why="b", base_version=0)  # other subject
    c = Workspace(ws.root).editor(KB).edit(add=[HAALAND_BORN], why="c", base_version=0)  # other rel
    assert (a.id, b.id, c.id) == (1, 2, 3)
    assert c.base_version == 0
    keys = store_triples(ws.kbs_dir / KB)
    assert (E("Erling Haaland"), R("plays_for"), E("Arsenal")) in keys
    assert (E("Mohamed Salah"), R("born_in"), E("Cairo")) in keys
    assert (E("Erling Haaland"), R("born_in"), E("Bristol")) in keys
    assert_consistent(ws, base)


def test_a_conflict_is_about_entries_after_the_base_version_only(ws, base):
    ws.editor(KB).edit(add=[HAALAND_TO_ARSENAL], why="a", base_version=0)
    ws.editor(KB).edit(add=[SALAH_BORN], why="b", base_version=1)
    # based on version 1: #2 (Salah) is newer but touches another slot
    edit = ws.editor(KB).edit(remove=[HAALAND_AT_CITY], why="c", base_version=1)
    assert edit.id == 3
    assert_consistent(ws, base)


def test_an_undo_based_on_an_old_version_conflicts_with_a_newer_edit_of_its_slot(ws, base):
    first = ws.editor(KB).edit(add=[HAALAND_TO_ARSENAL], why="a")
    ws.editor(KB).edit(remove=[HAALAND_AT_CITY], why="b", base_version=1)
    kind, message = refusal(lambda: ws.editor(KB).undo(first.id, base_version=1))
    assert kind is EditConflict and "reload" in message
    assert [e.id for e in history(ws)] == [1, 2]
    assert_consistent(ws, base)


@pytest.mark.parametrize("version", [5, -1])
def test_a_base_version_that_does_not_exist_is_refused(ws, base, version):
    kind, message = refusal(
        lambda: ws.editor(KB).edit(add=[HAALAND_TO_ARSENAL], why="a", base_version=version)
    )
    assert kind is EditConflict and "does not exist" in message
    assert history(ws) == []
    assert store_triples(ws.kbs_dir / KB) == base


# -- two processes --------------------------------------------------------------------------


def start_workers(ws: Workspace, tmp_path: Path, jobs: list[tuple[str, str]]):
    """Start one worker per (add, remove) job, all based on version 0; release them at once."""
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(ws.root), KB, "0", str(go), add, remove],
            cwd=REPO,
            env=ENV,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for add, remove in jobs
    ]
    for proc in procs:
        assert proc.stdout.readline().strip() == "READY", proc.stderr.read()
    go.touch()
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        results.append((proc.returncode, out.strip(), err))
    return results


def test_two_processes_editing_the_same_slot_one_wins_one_must_reload(ws, base, tmp_path):
    results = start_workers(ws, tmp_path, [(HAALAND_TO_ARSENAL, "-"), ("-", HAALAND_AT_CITY)])
    codes = sorted(code for code, _, _ in results)
    assert codes == [0, 3], results
    ok = next(out for code, out, _ in results if code == 0)
    conflict = next(out for code, out, _ in results if code == 3)
    assert ok == "OK 1"
    assert conflict.startswith("CONFLICT") and "reload" in conflict
    assert [e.id for e in history(ws)] == [1]
    assert_consistent(ws, base)


def test_two_processes_editing_different_slots_both_succeed(ws, base, tmp_path):
    results = start_workers(ws, tmp_path, [(HAALAND_TO_ARSENAL, "-"), (SALAH_BORN, "-")])
    assert [code for code, _, _ in results] == [0, 0], results
    assert sorted(out for _, out, _ in results) == ["OK 1", "OK 2"]
    assert [e.id for e in history(ws)] == [1, 2]
    assert_consistent(ws, base)


# -- the CLI ---------------------------------------------------------------------------------


def cli_edit(ws: Workspace, *args: str) -> list[str]:
    return ["--home", str(ws.root), "edit", "--kb", KB, "--why", "cli", *args]


def test_cli_second_edit_of_the_same_slot_exits_3_with_conflict(ws, base, capsys):
    assert main(cli_edit(ws, "--add", HAALAND_TO_ARSENAL, "--base-version", "0")) == 0
    capsys.readouterr()
    code = main(cli_edit(ws, "--remove", HAALAND_AT_CITY, "--base-version", "0"))
    out, err = capsys.readouterr()
    assert code == EXIT_CONFLICT == 3
    assert out == ""
    assert err.startswith("knowloop: conflict:") and "reload" in err
    assert err.count("\n") == 1
    assert [e.id for e in history(ws)] == [1]
    assert_consistent(ws, base)
    # a different slot from the same base version still goes through
    assert main(cli_edit(ws, "--add", SALAH_BORN, "--base-version", "0")) == 0


def test_cli_conflict_exit_status_from_a_real_process(ws, base):
    cmd = [sys.executable, "-m", "core", *cli_edit(ws, "--base-version", "0")]
    first = subprocess.run(
        [*cmd, "--add", HAALAND_TO_ARSENAL], cwd=REPO, env=ENV, capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr
    second = subprocess.run(
        [*cmd, "--remove", HAALAND_AT_CITY], cwd=REPO, env=ENV, capture_output=True, text=True
    )
    assert second.returncode == 3
    assert "conflict" in second.stderr and "reload" in second.stderr
    assert "Traceback" not in second.stderr
    assert_consistent(ws, base)


# -- a writer kept out by another process -----------------------------------------------------

HOLDER = """
import sys, time
from core.workspace import Workspace
editor = Workspace(sys.argv[1]).editor(sys.argv[2])
with editor.batch():
    editor.edit(add=["Bukayo Saka|plays_for|Liverpool FC"], why="holder")
    print("READY", flush=True)
    time.sleep(120)
"""


class FastClock:
    """Stands in for the `time` module inside core.kg.edits: every sleep advances the clock
    a whole second, so the editor's 10-second wait for the store passes in moments."""

    def __init__(self) -> None:
        self.offset = 0.0
        self.sleeps = 0

    def monotonic(self) -> float:
        return time.monotonic() + self.offset

    def sleep(self, seconds: float) -> None:
        self.sleeps += 1
        self.offset += 1.0
        time.sleep(0.005)

    def time(self) -> float:
        return time.time()


def test_a_writer_blocked_by_another_process_gets_a_clear_error(ws, base, monkeypatch):
    # opened before the other process starts writing: opening a read view while another
    # process writes is a separate problem (test_a_reader_can_open_the_kb_while_another_
    # process_edits)
    editor = ws.editor(KB)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(ws.root), KB],
        cwd=REPO,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "READY", holder.stderr.read()
        clock = FastClock()
        monkeypatch.setattr(
            edits,
            "time",
            types.SimpleNamespace(monotonic=clock.monotonic, sleep=clock.sleep, time=clock.time),
        )
        log_before = (ws.kbs_dir / KB / LOG_NAME).read_bytes()
        started = time.monotonic()
        kind, message = refusal(lambda: editor.edit(add=[HAALAND_TO_ARSENAL], why="blocked"))
        assert time.monotonic() - started < 10
        assert clock.sleeps >= 5  # it did wait for the store before giving up
        assert kind is EditError
        assert "another process" in message and "try again" in message
        assert (ws.kbs_dir / KB / LOG_NAME).read_bytes() == log_before
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.communicate(timeout=30)
    monkeypatch.undo()
    # once the other process is gone the edit goes through, after the holder's durable one
    edit = ws.editor(KB).edit(add=[HAALAND_TO_ARSENAL], why="after")
    assert edit.id == 2
    assert [e.why for e in history(ws)] == ["holder", "after"]
    assert_consistent(ws, base)


def test_two_editors_in_one_process_take_turns(ws, base):
    """Two KBEditor objects of one process, interleaved: the file lock and the store handle
    are released after each edit, so neither blocks the other."""
    a, b = ws.editor(KB), KBEditor(ws.kbs_dir / KB, Workspace(ws.root).kg(KB))
    ids = []
    for i in range(5):
        ids.append(a.edit(add=[f"Player{i}|plays_for|Arsenal"], why="a").id)
        ids.append(b.edit(add=[f"Player{i}|plays_for|Liverpool FC"], why="b").id)
    assert ids == list(range(1, 11))
    assert_consistent(ws, base)


# -- a reader while another process edits ----------------------------------------------------

WRITER = """
import sys
from core.workspace import Workspace
editor = Workspace(sys.argv[1]).editor(sys.argv[2])
for i in range(100000):
    editor.edit(add=[f"Reserve{i}|plays_for|Arsenal"], why="writer")
    if i == 0:
        print("READY", flush=True)
"""


def test_a_reader_can_open_the_kb_while_another_process_edits(ws):
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(ws.root), KB],
        cwd=REPO,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout.readline().strip() == "READY", writer.stderr.read()
        for _ in range(40):  # a reader (the web app, a CLI question) opening as edits land
            kg = Workspace(ws.root).kg(KB)
            assert kg.lookup("Bukayo Saka")
            time.sleep(0.02)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.communicate(timeout=30)


def test_a_read_only_open_that_meets_a_compacted_away_file_tries_again(tmp_path, monkeypatch):
    """RocksDB may compact away a file the MANIFEST a reader just read names ("Corruption:
    IO error: No such file", seen once in CI while another process edited): the open is
    retried on the newer MANIFEST; any other error is raised at once."""
    import pyoxigraph as ox

    from core.kg.store import open_read_only

    ox.Store(str(tmp_path / "store")).flush()
    real, calls = ox.Store.read_only, []

    def flaky(path: str):
        calls.append(path)
        if len(calls) == 1:
            raise RuntimeError("Corruption: IO error: No such file or directory: 001142.sst")
        return real(path)

    monkeypatch.setattr(ox.Store, "read_only", staticmethod(flaky))
    assert open_read_only(str(tmp_path / "store")) is not None
    assert len(calls) == 2

    def broken(path: str):
        raise RuntimeError("Corruption: bad block")

    monkeypatch.setattr(ox.Store, "read_only", staticmethod(broken))
    with pytest.raises(RuntimeError, match="bad block"):
        open_read_only(str(tmp_path / "store"))
