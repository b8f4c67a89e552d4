"""Advisory file locks between processes (the app and CLI commands run side by side)."""

from __future__ import annotations

import fcntl
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class LockTimeout(TimeoutError):
    """The lock stayed held by another open file past the caller's deadline."""


@contextmanager
def file_lock(
    path: Path, *, shared: bool = False, timeout_s: float | None = None
) -> Iterator[None]:
    """Hold an flock on `path` (created if missing): exclusive for writers, shared for readers.

    Without `timeout_s` it waits as long as it takes; with it, a holder that never lets go
    (a hung process) raises LockTimeout instead of blocking the caller for ever.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as fh:
        op = fcntl.LOCK_SH if shared else fcntl.LOCK_EX
        if timeout_s is None:
            fcntl.flock(fh, op)
        else:
            _flock_within(fh.fileno(), op, timeout_s)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _flock_within(fd: int, op: int, timeout_s: float) -> None:
    """Take the flock, polling with jittered exponential backoff (1 ms doubling to 20 ms).

    flock has no timeout, and a blocking call cannot be interrupted from a thread (the app's
    sessions are threads). A failed non-blocking attempt is one syscall, so polling the lock
    file costs waiters almost nothing, unlike polling the database itself; the jitter keeps
    waiters from retrying in step.
    """
    deadline = time.monotonic() + timeout_s
    delay = 0.001
    while True:
        try:
            fcntl.flock(fd, op | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LockTimeout(f"{timeout_s:g}s passed waiting for a lock") from None
        time.sleep(min(left, random.uniform(delay / 2, delay)))
        delay = min(delay * 2, 0.02)


@contextmanager
def try_file_lock(path: Path, *, create: bool = True) -> Iterator[bool]:
    """Take an exclusive flock on `path` only if it is free now: yields True while held, False
    when another open file holds it (one of this process's included). For sweeps, which must
    never wait on, or touch, work in progress. With create=False a missing file raises
    FileNotFoundError instead of being created (a sweep must not bring back a removed lock)."""
    with open(path, "a" if create else "r+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
