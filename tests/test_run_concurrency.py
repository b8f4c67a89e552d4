"""Many processes on one run store: nobody's run is lost, none is stored twice (core/runs.py).

The spool path is forced with tiny busy timeouts and with a process that holds the lock file
or DuckDB's own lock; the load figures come from `benchmarks/load_run.py`, not from here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import duckdb
import pytest

from core.cli import EXIT_NOT_STORED, main
from core.locks import file_lock
from core.runs import LOCK_NAME, SPOOL_DIR, RunPending, RunStore, StoreBusy
from core.trace import Trace

pytestmark = pytest.mark.slow  # the fast loop (`pytest -m 'not slow'`) leaves it out


REPO = Path(__file__).resolve().parents[1]
FOOTBALL = REPO / "tests" / "fixtures" / "football.tsv"

# One writer process: `runs` saves with a busy timeout of `timeout` seconds and prints, per
# run, its id or "pending" (the spool took it).
SAVER = """
import sys
from core.runs import RunPending, RunStore
from core.trace import Trace
root, tag, runs, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
store = RunStore(root, busy_timeout_s=timeout)
print("ready", flush=True)
sys.stdin.readline()
for i in range(runs):
    trace = Trace(question=f"{tag}-q{i}", paradigm="kg-only", kb="films")
    try:
        print(store.save(trace, source="test"), flush=True)
    except RunPending:
        print("pending", flush=True)
"""

# Holds the lock file (mode "flock") or DuckDB's file lock (mode "duckdb", as a process
# outside the discipline would) until killed.
HOLDER = """
import sys, time
root, mode = sys.argv[1], sys.argv[2]
if mode == "flock":
    from pathlib import Path
    from core.locks import file_lock
    from core.runs import LOCK_NAME
    with file_lock(Path(root) / LOCK_NAME):
        print("ready", flush=True)
        time.sleep(600)
else:
    import duckdb
    con = duckdb.connect(root + "/knowloop.duckdb")
    print("ready", flush=True)
    time.sleep(600)
"""


def trace(question: str) -> Trace:
    return Trace(question=question, paradigm="kg-only", kb="films")


def child_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "KNOWLOOP_NO_WARM_UP": "1"}


def hold(root: Path, mode: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(root), mode],
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(),
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    return proc


def stop(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()


def stored_questions(root: Path) -> list[str]:
    return [r.question for r in RunStore(root).list(limit=10_000)]


def spool_rows(root: Path) -> int:
    con = duckdb.connect(str(root / "knowloop.duckdb"), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM run_spool").fetchone()[0]
    finally:
        con.close()


# -- the store -----------------------------------------------------------------------------


def test_parallel_writers_lose_no_run_and_store_none_twice(tmp_path: Path) -> None:
    """Six processes save at once with a 20 ms busy timeout; for the first half second this
    test holds the lock file, so every process spools, then they race, merging each other's
    spooled runs while still spooling new ones."""
    procs, runs_each = 6, 15
    RunStore(tmp_path).save(trace("seed"))  # the store exists: readers and writers race on it
    with file_lock(tmp_path / LOCK_NAME):
        savers = [
            subprocess.Popen(
                [sys.executable, "-c", SAVER, str(tmp_path), f"p{i}", str(runs_each), "0.02"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=child_env(),
            )
            for i in range(procs)
        ]
        for p in savers:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        for p in savers:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        time.sleep(0.5)
    outcomes = []
    for p in savers:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0, out
        outcomes += out.split()
    assert len(outcomes) == procs * runs_each
    pending = outcomes.count("pending")
    assert pending > 0  # the spool path ran (the first saves of each process at least)

    questions = stored_questions(tmp_path)  # a read moves what is left in the spool in
    expected = {f"p{i}-q{j}" for i in range(procs) for j in range(runs_each)} | {"seed"}
    duplicates = [q for q, n in Counter(questions).items() if n > 1]
    assert duplicates == [] and set(questions) == expected
    assert RunStore(tmp_path).pending() == 0
    assert spool_rows(tmp_path) == pending
    ids = [int(o) for o in outcomes if o != "pending"]
    assert len(set(ids)) == len(ids)


def test_a_busy_save_is_spooled_and_stored_by_the_next_reader(tmp_path: Path) -> None:
    store = RunStore(tmp_path, busy_timeout_s=0.05)
    store.save(trace("first"))
    holder = hold(tmp_path, "duckdb")  # outside the lock file: DuckDB refuses the open
    try:
        with pytest.raises(RunPending, match="is kept in") as info:
            store.save(trace("second"))
        assert isinstance(info.value, StoreBusy) and info.value.path.is_file()
        assert info.value.path.parent == tmp_path / SPOOL_DIR
        assert store.pending() == 1
    finally:
        stop(holder)
    assert [r.question for r in store.list()] == ["second", "first"]
    assert store.pending() == 0 and not info.value.path.exists()


def test_a_crash_between_commit_and_delete_does_not_store_twice(tmp_path: Path) -> None:
    store = RunStore(tmp_path, busy_timeout_s=0.05)
    with file_lock(store.lock_path), pytest.raises(RunPending) as info:
        store.save(trace("once"))
    spooled = info.value.path
    keep = tmp_path / "copy.json"
    shutil.copy(spooled, keep)
    assert stored_questions(tmp_path) == ["once"]  # committed, then the file was deleted
    shutil.copy(keep, spooled)  # as if the process died after the commit, before the delete
    assert stored_questions(tmp_path) == ["once"]
    assert not spooled.exists()
    assert spool_rows(tmp_path) == 1


def test_half_written_and_damaged_spool_files(tmp_path: Path) -> None:
    store = RunStore(tmp_path, busy_timeout_s=0.05)
    with file_lock(store.lock_path), pytest.raises(RunPending) as info:
        store.save(trace("good"))
    spool = info.value.path.parent
    good = json.loads(info.value.path.read_text())
    torn = spool / ".1-torn.tmp"  # a spool write that died before its rename
    torn.write_text(json.dumps(good)[:40])
    damaged = spool / "2-damaged.json"  # complete name, unusable content (a disk fault)
    damaged.write_text(json.dumps({**good, "triples": "not a list"}))
    assert store.pending() == 2
    assert stored_questions(tmp_path) == ["good"]
    assert torn.read_text() == json.dumps(good)[:40]  # ignored, left alone
    assert not damaged.exists() and (spool / "2-damaged.json.bad").is_file()  # kept aside
    assert store.pending() == 0


def test_readers_wait_for_a_writer_instead_of_failing(tmp_path: Path) -> None:
    store = RunStore(tmp_path, busy_timeout_s=10)
    store.save(trace("q"))
    for mode in ("flock", "duckdb"):
        holder = hold(tmp_path, mode)
        try:
            impatient = RunStore(tmp_path, busy_timeout_s=0.2)
            with pytest.raises(StoreBusy, match="in use by another process"):
                impatient.list()
            reader = subprocess.Popen(
                [sys.executable, "-c", LIST, str(tmp_path)],
                stdout=subprocess.PIPE,
                text=True,
                env=child_env(),
            )
            time.sleep(0.5)
            assert reader.poll() is None  # still waiting in line
        finally:
            stop(holder)
        out, _ = reader.communicate(timeout=60)
        assert reader.returncode == 0 and out.split() == ["q"], (mode, out)


LIST = """
import sys
from core.runs import RunStore
print(*[r.question for r in RunStore(sys.argv[1], busy_timeout_s=30).list()])
"""


def test_lone_surrogates_are_stored_replaced_not_crashing(tmp_path: Path) -> None:
    """Defence in depth behind the CLI's own check: one odd byte must not cost the run."""
    store = RunStore(tmp_path)
    bad = Trace(question="who directed Forrest Gump \udcff", paradigm="kg-only", kb="m\udcfe")
    run_id = store.save(bad)
    run = store.get(run_id)
    assert run.question == "who directed Forrest Gump \ufffd" and run.kb == "m\ufffd"
    assert run.trace.question == run.question
    fb, _ = store.add_feedback(run_id, rating=1, comment="odd \udcff byte", who="x\udcff")
    assert (fb.comment, fb.who) == ("odd \ufffd byte", "x\ufffd")


def test_the_busy_timeout_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert RunStore(tmp_path).busy_timeout_s == 30.0
    monkeypatch.setenv("KNOWLOOP_BUSY_TIMEOUT", "2.5")
    assert RunStore(tmp_path).busy_timeout_s == 2.5
    monkeypatch.setenv("KNOWLOOP_BUSY_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="KNOWLOOP_BUSY_TIMEOUT must be a number"):
        RunStore(tmp_path)


# -- the CLI -------------------------------------------------------------------------------


def test_cli_prints_the_answer_when_the_store_stays_busy(tmp_path: Path, capsys) -> None:
    """Another process holds DuckDB's write lock past the (1 s) timeout: the answer is
    printed, a warning names the spool, exit 4 (not 2: nothing was wrong with the input);
    the next command stores the run. (--gamma 1: no World Knowledge Model read.)"""
    home = tmp_path / "ws"
    assert main(["--home", str(home), "import", str(FOOTBALL), "--name", "football"]) == 0
    RunStore(home).save(trace("earlier"))
    capsys.readouterr()
    holder = hold(home, "duckdb")
    try:
        ask = subprocess.run(
            [
                sys.executable,
                "-m",
                "core",
                "--home",
                str(home),
                "ask",
                "who does Ederson play for",
                "--kb",
                "football",
                "--gamma",
                "1",
            ],
            capture_output=True,
            text=True,
            env={**child_env(), "KNOWLOOP_BUSY_TIMEOUT": "1"},
            cwd=REPO,
            timeout=300,
        )
    finally:
        stop(holder)
    assert ask.returncode == EXIT_NOT_STORED == 4, ask.stderr
    assert "A: Manchester City" in ask.stdout and "run #" not in ask.stdout
    assert ask.stderr.startswith("knowloop: warning: the run is not stored yet: ")
    assert "in use by another process" in ask.stderr and SPOOL_DIR in ask.stderr
    assert main(["--home", str(home), "runs"]) == 0
    out = capsys.readouterr().out
    assert "who does Ederson play for" in out and "earlier" in out
    assert RunStore(home).pending() == 0


WARM = """
import sys
from contextlib import contextmanager
from core import runs
from core.trace import Trace
inner, seen = runs.file_lock, []
@contextmanager
def spy(*args, **kwargs):
    seen.append("pandas" in sys.modules)  # what DuckDB imports on the first bound parameter
    with inner(*args, **kwargs):
        yield
runs.file_lock = spy
store = runs.RunStore(sys.argv[1])
store.save(Trace(question="q", paradigm="kg-only", kb="films"))
store.list()
print(seen)
"""


def test_a_fresh_process_pays_duckdbs_first_bind_before_taking_the_lock(tmp_path: Path) -> None:
    """DuckDB imports pandas (0.6 s, seconds on a busy box) on a process's first bound
    parameter; done under the lock, every other client waited for it on every CLI ask."""
    pytest.importorskip("pandas")
    done = subprocess.run(
        [sys.executable, "-c", WARM, str(tmp_path)],
        capture_output=True,
        text=True,
        env=child_env(),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["[True,", "True]"]
