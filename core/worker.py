"""Hard limits for queries: run them in a child process that can be stopped mid-operator.

pyoxigraph cannot be interrupted inside an operator (an aggregate over a cartesian product, a
property path over the whole graph, a regex on every literal), and DuckDB's interrupt is not
checked inside a scalar function (``len(range(50000000))``). So every user-typed or generated
SPARQL and SQL query runs in a *query worker*: a long-lived child process that opens the store
itself (read-only) and answers one request at a time over a pipe. The parent waits for the
answer and, while it waits, enforces

* the **time limit**: past it the child is killed (SIGKILL) and a fresh one starts on the next
  request, so the query ends within its limit plus the ~50 ms it takes to kill and reap;
* the **memory limit**: the child's resident memory is read from ``/proc`` every poll and the
  child is killed above the cap; ``RLIMIT_DATA`` inside the child is the hard backstop for a
  burst between two polls (allocation fails, the query errors or the child dies);
* a CPU-time backstop (``RLIMIT_CPU``) and ``PR_SET_PDEATHSIG``, so a worker never outlives a
  parent that was killed while waiting.

The message of :class:`LimitExceeded` says which limit ended the query. Workers are pooled
(one per concurrent caller: app sessions do not queue behind each other) and reused, so a
query costs a pipe round trip (~0.2 ms), not a process start (~0.3 s). This module's top level
uses the standard library only: the child imports pyoxigraph or DuckDB on its first request.
"""

from __future__ import annotations

import atexit
import os
import pickle
import resource  # here, not lazily: os.wait4 on the reaper thread builds its rusage from it
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

MEMORY_MB = 1024  # default cap per query worker (resident memory and data segment)
POLL_S = 0.02
_MAX_IDLE = 4  # workers kept for reuse
_PAGE = os.sysconf("SC_PAGE_SIZE")
_ROOT = str(Path(__file__).resolve().parent.parent)  # the directory holding the core package


class LimitExceeded(ValueError):
    """A query was stopped by a hard limit; str(exc) names the limit and its value."""


class WorkerFault(ValueError):
    """The query raised inside the worker (str(exc) is the engine's own message)."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind  # the exception class name in the child, e.g. "SyntaxError"


@dataclass(frozen=True)
class Limits:
    timeout_s: float = 10.0
    memory_mb: int = MEMORY_MB

    def __post_init__(self) -> None:
        if not self.timeout_s > 0 or self.memory_mb < 64:
            raise ValueError("timeout_s must be > 0 and memory_mb >= 64")


def call(
    task: str,
    limits: Limits,
    *,
    started: float | None = None,
    wanted: Callable[[], bool] | None = None,
    **kwargs: Any,
) -> Any:
    """Run ``task`` (a name in the child's TASKS) with ``kwargs`` under ``limits``; the time
    limit counts from ``started`` (time.monotonic(), e.g. before the caller's own checks).
    ``wanted`` is polled while the query runs: once it says False (the app session that
    asked has closed) the query is stopped."""
    worker = _take()
    try:
        result = worker.request(task, kwargs, limits, started or time.monotonic(), wanted)
    except BaseException:
        worker.close(wait=False)  # stopped, broken or interrupted (Ctrl-C): never reuse it
        raise
    _give_back(worker)
    return result


class _Worker:
    """One child process and its pipes."""

    def __init__(self) -> None:
        path = os.pathsep.join([_ROOT, os.environ.get("PYTHONPATH", "")])
        env = dict(os.environ, PYTHONPATH=path)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "core.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=_ROOT,
        )
        self.closed = False

    def request(
        self, task: str, kwargs: dict, limits: Limits, start: float, wanted: Callable | None
    ) -> Any:
        try:
            pickle.dump((task, kwargs, limits.timeout_s, limits.memory_mb), self.proc.stdin)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise WorkerFault("WorkerDied", "the query worker could not be started") from None
        while True:
            ready, _, _ = select.select([self.proc.stdout], [], [], POLL_S)
            if ready:
                return self._answer(limits)
            if time.monotonic() - start > limits.timeout_s:
                self.stop()
                raise LimitExceeded(f"time limit: the query ran longer than {limits.timeout_s:g} s "
                                    "and was stopped")
            if self._resident_mb() > limits.memory_mb:
                self.stop()
                raise LimitExceeded(_memory_message(limits))
            if wanted is not None and not wanted():
                self.stop()
                raise LimitExceeded("stopped: the session that asked for the query has closed")

    def _answer(self, limits: Limits) -> Any:
        try:
            status, value, peak_kb = pickle.load(self.proc.stdout)
        except (EOFError, pickle.UnpicklingError, OSError):
            self.close()
            code = self.proc.returncode
            if code == -signal.SIGXCPU:
                raise LimitExceeded(f"time limit: the query used more than {limits.timeout_s:g} s "
                                    "of CPU and was stopped") from None
            if code in _ALLOCATION_FAILED:  # native code aborts when RLIMIT_DATA refuses memory
                raise LimitExceeded(_memory_message(limits)) from None
            message = f"the query worker stopped (exit status {code})"
            raise WorkerFault("WorkerDied", message) from None
        _note_peak(peak_kb / 1024)
        if status == "ok":
            return value
        kind, message = value
        if kind in ("MemoryError", "OutOfMemoryException"):
            raise LimitExceeded(_memory_message(limits))
        raise WorkerFault(kind, message)

    def _resident_mb(self) -> float:
        try:
            with open(f"/proc/{self.proc.pid}/statm") as fh:
                return int(fh.read().split()[1]) * _PAGE / 2**20
        except (OSError, IndexError, ValueError):
            return 0.0

    def alive(self) -> bool:
        return not self.closed and self.proc.poll() is None

    def close(self, wait: bool = True) -> None:
        """Kill the child; reap it now, or on a thread (tearing down a large address space
        takes a while, and the caller should hear about its limit at once)."""
        if self.closed:
            return
        self.closed = True
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass
        if self.proc.returncode is None:
            self.proc.kill()  # a no-op on a child that already exited (not yet reaped)
            if wait:
                self._reap()
            else:
                threading.Thread(target=self._reap, daemon=True).start()

    def _reap(self) -> None:
        try:
            _, status, usage = os.wait4(self.proc.pid, 0)
            self.proc.returncode = os.waitstatus_to_exitcode(status)
            _note_peak(usage.ru_maxrss / 1024)
        except ChildProcessError:  # reaped elsewhere
            self.proc.wait()

    def stop(self) -> None:
        """Stopped at a limit: kill without waiting, and start its successor right away."""
        self.close(wait=False)
        _give_back(_Worker())


_ALLOCATION_FAILED = {-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGKILL, -signal.SIGBUS}


def _memory_message(limits: Limits) -> str:
    return f"memory limit: the query needed more than {limits.memory_mb:,} MB and was stopped"


_peak = {"mb": 0.0}


def _note_peak(mb: float) -> None:
    _peak["mb"] = max(_peak["mb"], mb)


def peak_mb() -> float:
    """The largest resident memory any query worker of this process has reached (benchmarks)."""
    return _peak["mb"]


_idle: list[_Worker] = []
_idle_lock = threading.Lock()


def _take() -> _Worker:
    with _idle_lock:
        while _idle:
            worker = _idle.pop()
            if worker.alive():
                return worker
            worker.close()
    return _Worker()


def _give_back(worker: _Worker) -> None:
    with _idle_lock:
        if len(_idle) < _MAX_IDLE:
            _idle.append(worker)
            return
    worker.close()


def warm() -> None:
    """Start one worker ahead of the first query (the app does this behind its spinner)."""
    _give_back(_take())


@atexit.register
def shutdown() -> None:
    """Stop the idle workers (they would also exit on their own when the pipe closes)."""
    with _idle_lock:
        workers, _idle[:] = list(_idle), []
    for worker in workers:
        worker.close()


# -- the child ----------------------------------------------------------------------------------
def _sparql(store_dir: str, version: Any, query: str, max_rows: int) -> tuple:
    """(kind, columns, rows of pyoxigraph terms, truncated) from a read-only store."""
    try:
        result = _open_store(store_dir, version).query(query)
    except OSError:  # an edit elsewhere compacted away a file of this snapshot: reopen once
        _stores.pop(store_dir, None)
        result = _open_store(store_dir, version).query(query)
    return read_result(result, max_rows)


def read_result(result: Any, max_rows: int, tick: Callable[[], None] | None = None) -> tuple:
    """A pyoxigraph query result as (kind, columns, rows of terms, truncated), ASK as
    [[bool]]: pulled lazily up to the cap (one extra row tells it was cut). ``tick`` runs
    before each row taken (the in-process caller's deadline check)."""
    import pyoxigraph

    if isinstance(result, pyoxigraph.QueryBoolean):
        return "ask", ["result"], [[bool(result)]], False
    if isinstance(result, pyoxigraph.QuerySolutions):
        kind, columns = "select", [v.value for v in result.variables]
        rows: Any = (list(solution) for solution in result)
    else:
        kind, columns = "construct", ["subject", "predicate", "object"]
        rows = ([t.subject, t.predicate, t.object] for t in result)
    taken = []
    for row in rows:
        if len(taken) >= max_rows:
            return kind, columns, taken, True
        if tick is not None:
            tick()
        taken.append(row)
    return kind, columns, taken, False


_stores: dict[str, tuple[Any, Any]] = {}  # store dir -> (version it was opened at, store)


def _open_store(store_dir: str, version: Any) -> Any:
    """The read-only store, reopened when the caller's KB is at another edit version (a
    read-only RocksDB open is a snapshot)."""
    import pyoxigraph

    cached = _stores.get(store_dir)
    if cached is None or cached[0] != version:
        if len(_stores) >= 4:
            _stores.clear()
        _stores[store_dir] = (version, pyoxigraph.Store.read_only(store_dir))
    return _stores[store_dir][1]


def _sql(db: str, sql: str, max_rows: int, config: dict, memory_mb: int) -> tuple:
    """(columns, rows, truncated) on a read-only, sandboxed DuckDB connection."""
    import duckdb

    settings = {**config, "memory_limit": f"{max(memory_mb // 2, 32)}MB", "threads": 2}
    with duckdb.connect(db, read_only=True, config=settings) as con:
        cursor = con.execute(sql)
        columns = [d[0] for d in cursor.description or []]
        rows = cursor.fetchmany(max_rows + 1)
    return columns, rows[:max_rows], len(rows) > max_rows


TASKS = {"sparql": _sparql, "sql": _sql}


def _set_limits(timeout_s: float, memory_mb: int) -> None:
    cap = memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_DATA, (cap, resource.RLIM_INFINITY))
    used = resource.getrusage(resource.RUSAGE_SELF)
    cpu = int(used.ru_utime + used.ru_stime + timeout_s * 4 + 2)  # 2 threads, plus slack
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, resource.RLIM_INFINITY))


def _die_with_parent() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main() -> None:
    """Serve requests from stdin until it closes."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answer pipe
    while True:
        try:
            task, kwargs, timeout_s, memory_mb = pickle.load(stdin)
        except EOFError:
            return
        try:
            _set_limits(timeout_s, memory_mb)
            if task == "sql":
                kwargs = {**kwargs, "memory_mb": memory_mb}
            answer: tuple = ("ok", TASKS[task](**kwargs))
        except MemoryError:
            answer = ("error", ("MemoryError", "out of memory"))
        except Exception as exc:  # the engine's own error, reported to the parent as text
            answer = ("error", (type(exc).__name__, str(exc)))
        peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        pickle.dump((*answer, peak_kb), stdout)
        stdout.flush()


if __name__ == "__main__":
    main()
