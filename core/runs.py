"""Stored runs and analyst feedback: the outer feedback loop.

Every answered question is kept with its full trace; analysts rate answers, comment, mark
evidence triples as wrong and propose fixes, which wait as proposals until a KG edit accepts
them or someone rejects them. Rated runs become chosen/rejected trajectories, and after an
edit ``runs_using`` finds the runs whose traces relied on what changed.

Storage is one DuckDB file per workspace (``<root>/knowloop.duckdb``). DuckDB lets one
process at a time open a file read-write, or any number read-only but never beside a writer,
and a refused open does not wait in line. Many CLI processes and app sessions share a
workspace, so the model is **one writer or many readers, waiting in line, and no run lost**:

- No connection outlives a call: every public method connects, works in one transaction and
  closes. Threads of one process take turns first (``_path_lock``); then the call takes an
  flock on ``knowloop.duckdb.lock``, exclusive to write, shared to read (with a read-only
  connection), and only then opens the file. Waiters poll the lock file (one syscall)
  rather than reopening the database, which on a busy machine starved the holder.
- Waiting is bounded: after ``busy_timeout_s`` (default 30 s, ``KNOWLOOP_BUSY_TIMEOUT``)
  a call gives up with ``StoreBusy``. A process that holds the file without the lock file
  (an older KnowLoop, a DuckDB shell) is waited for the same way, with jittered backoff.
- A run is not lost when the store stays busy: ``save`` writes it atomically (temporary
  file, fsync, rename) to ``runs-pending/`` and raises ``RunPending`` (a ``StoreBusy``), so
  callers that only know ``StoreBusy`` still say "not stored yet". Whoever opens the store
  next, reader or writer, first moves pending runs in under the exclusive lock; a file is
  deleted only after its row is committed, and its name is committed with the row (table
  ``run_spool``), so a crash between the two stores it once. Temporary files of a spool
  write that never finished are ignored.
"""

from __future__ import annotations

import json
import math
import os
import random
import re
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

import duckdb

from core.locks import LockTimeout, file_lock
from core.trace import Trace, Triple

DB_NAME = "knowloop.duckdb"
LOCK_NAME = "knowloop.duckdb.lock"  # every store call takes this flock first (see above)
SPOOL_DIR = "runs-pending"  # runs that found the store busy, waiting to be moved in
BUSY_TIMEOUT_ENV = "KNOWLOOP_BUSY_TIMEOUT"
DEFAULT_BUSY_TIMEOUT_S = 30.0
STORE_SCHEMA_VERSION = 1
MAX_COMMENT_CHARS = 5000
MAX_PROPOSAL_CHARS = 2000
MAX_PROPOSAL_TRIPLES = 1000
MAX_WHO_CHARS = 200
STATUSES = ("pending", "accepted", "rejected")
_LOCK_HOLDER = re.compile(r"Conflicting lock is held\s+in (.+?) \(PID (\d+)\)")
_SURROGATES = re.compile("[\ud800-\udfff]")  # what undecodable bytes of argv become
_SPOOL_TABLE = (
    "CREATE TABLE IF NOT EXISTS run_spool (spool_id VARCHAR PRIMARY KEY, run_id BIGINT NOT NULL)"
)

T = TypeVar("T")

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE SEQUENCE IF NOT EXISTS run_ids START 1",
    "CREATE SEQUENCE IF NOT EXISTS feedback_ids START 1",
    "CREATE SEQUENCE IF NOT EXISTS proposal_ids START 1",
    """CREATE TABLE IF NOT EXISTS runs (
        id BIGINT PRIMARY KEY, kb VARCHAR NOT NULL, question VARCHAR NOT NULL,
        paradigm VARCHAR NOT NULL, created_at DOUBLE NOT NULL, source VARCHAR NOT NULL,
        answers VARCHAR NOT NULL, trace VARCHAR NOT NULL)""",
    # spo: the triple as one key; DuckDB uses an ART index only for single-column filters.
    """CREATE TABLE IF NOT EXISTS run_triples (
        run_id BIGINT, s VARCHAR, p VARCHAR, o VARCHAR, spo VARCHAR)""",
    "CREATE TABLE IF NOT EXISTS run_nodes (run_id BIGINT, node VARCHAR)",
    """CREATE TABLE IF NOT EXISTS feedback (
        id BIGINT PRIMARY KEY, run_id BIGINT NOT NULL, rating INTEGER NOT NULL,
        comment VARCHAR NOT NULL, wrong VARCHAR NOT NULL, who VARCHAR NOT NULL,
        created_at DOUBLE NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS proposals (
        id BIGINT PRIMARY KEY, feedback_id BIGINT NOT NULL, run_id BIGINT NOT NULL,
        kb VARCHAR NOT NULL, add_triples VARCHAR NOT NULL, remove_triples VARCHAR NOT NULL,
        why VARCHAR NOT NULL, status VARCHAR NOT NULL, edit_id BIGINT, decided_at DOUBLE,
        decided_by VARCHAR NOT NULL, created_at DOUBLE NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS runs_kb ON runs (kb)",
    "CREATE INDEX IF NOT EXISTS run_triples_spo ON run_triples (spo)",
    "CREATE INDEX IF NOT EXISTS run_nodes_node ON run_nodes (node)",
    "CREATE INDEX IF NOT EXISTS feedback_run ON feedback (run_id)",
]

_RUN_COLS = "r.id, r.kb, r.question, r.paradigm, r.created_at, r.source, r.answers, r.trace"
_FEEDBACK_COLS = "id, run_id, rating, comment, wrong, who, created_at"
_PROPOSAL_COLS = (
    "id, feedback_id, run_id, kb, add_triples, remove_triples, why, status, edit_id, "
    "decided_at, decided_by"
)


class StoreBusy(ValueError):
    """Another process holds the run store open; the caller may simply try again."""


class RunPending(StoreBusy):
    """The run could not be stored in time but is kept in the spool (`path`) and is stored
    by the next call that opens the store: nothing is lost, the run has no id yet."""

    def __init__(self, message: str, path: Path):
        super().__init__(message)
        self.path = path


class FeedbackError(ValueError):
    """Input the store refuses (unknown run, bad rating, malformed proposal...)."""


@dataclass
class StoredRun:
    id: int
    kb: str
    question: str
    paradigm: str
    created_at: float
    source: str  # "ask", "app", "reask", ...
    answers: list[str]  # top answer labels, in rank order
    trace: Trace


@dataclass
class Feedback:
    id: int
    run_id: int
    rating: int  # +1 good, -1 bad, 0 none
    comment: str
    wrong: list[Triple]  # evidence triples the user marked wrong
    who: str
    created_at: float


@dataclass
class Proposal:
    id: int
    feedback_id: int
    run_id: int
    kb: str
    add: list[str]  # "subject|relation|object"
    remove: list[str]
    why: str  # the comment of the feedback that proposed it
    status: str  # "pending" | "accepted" | "rejected"
    edit_id: int | None
    decided_at: float | None
    decided_by: str


@dataclass
class _Row:
    """A run as it is stored and spooled: plain text (no lone surrogates), ready to insert."""

    kb: str
    question: str
    paradigm: str
    created_at: float
    source: str
    answers: str  # JSON list of the top answer labels
    trace: str  # the trace as JSON
    triples: list[list[str]]  # distinct [s, p, o] the trace used
    nodes: list[str]


class RunStore:
    """Runs, feedback and proposals of one workspace, in ``<root>/knowloop.duckdb``."""

    def __init__(self, root: Path | str, *, busy_timeout_s: float | None = None):
        self.root = Path(root)
        self.path = self.root / DB_NAME
        self.lock_path = self.root / LOCK_NAME
        self.spool_dir = self.root / SPOOL_DIR
        self.busy_timeout_s = busy_timeout() if busy_timeout_s is None else busy_timeout_s

    # -- runs -------------------------------------------------------------------------------
    def save(self, trace: Trace, source: str = "ask") -> int:
        """Store a finished run; returns its id.

        A store still busy after the timeout raises RunPending once the run is safely in
        the spool (StoreBusy only if even that failed): the caller reports "stored later".
        """
        row = _row(trace, source)
        try:
            return self._transact(lambda con: _insert_run(con, row))
        except StoreBusy as busy:
            try:
                path = self._spool(row)
            except OSError as exc:
                raise StoreBusy(
                    f"{busy}; the run could not be kept for later either ({exc})"
                ) from None
            raise RunPending(
                f"{busy}; the run is kept in {path} and is stored when the store is next opened",
                path,
            ) from None

    def pending(self) -> int:
        """How many runs wait in the spool (moved in by the next call that opens the store)."""
        return len(self._spooled())

    def get(self, run_id: int) -> StoredRun:
        run_id = _id(run_id, "run")

        def work(con: duckdb.DuckDBPyConnection) -> StoredRun:
            row = con.execute(f"SELECT {_RUN_COLS} FROM runs r WHERE r.id = ?", [run_id]).fetchone()
            if row is None:
                raise FeedbackError(f"no run {run_id}")
            return _run(row)

        return self._transact(work, write=False, missing=lambda: _raise(f"no run {run_id}"))

    def list(self, kb: str | None = None, limit: int = 100) -> list[StoredRun]:
        """Stored runs, newest first (optionally of one KB)."""
        limit = _limit(limit)

        def work(con: duckdb.DuckDBPyConnection) -> list[StoredRun]:
            rows = con.execute(
                f"SELECT {_RUN_COLS} FROM runs r WHERE (? IS NULL OR r.kb = ?) "
                "ORDER BY r.created_at DESC, r.id DESC LIMIT ?",
                [kb, kb, limit],
            ).fetchall()
            return [_run(row) for row in rows]

        return self._transact(work, write=False, missing=lambda: [])

    # -- feedback and proposals -------------------------------------------------------------
    def add_feedback(
        self,
        run_id: int,
        *,
        rating: int = 0,
        comment: str = "",
        wrong: Iterable[Triple] = (),
        propose_add: Iterable[str] = (),
        propose_remove: Iterable[str] = (),
        who: str = "",
    ) -> tuple[Feedback, Proposal | None]:
        """Record one piece of feedback; a proposal is created when it adds or removes triples.

        Everything is validated before anything is written, and the writes share one
        transaction, so refused input leaves the store exactly as it was.
        """
        run_id = _id(run_id, "run")
        if isinstance(rating, bool) or not isinstance(rating, int) or rating not in (-1, 0, 1):
            raise FeedbackError(f"rating must be -1, 0 or +1, not {rating!r}")
        comment = _short_text(comment, "comment", MAX_COMMENT_CHARS, multiline=True)
        who = _short_text(who, "who", MAX_WHO_CHARS)
        wrong_list = _triples(wrong)
        add = _proposal_texts(propose_add, "propose_add")
        remove = _proposal_texts(propose_remove, "propose_remove")
        both = sorted(set(add) & set(remove))
        if both:
            raise FeedbackError(f"{both[0]!r} is proposed both for adding and for removing")
        if not (rating or comment or wrong_list or add or remove):
            raise FeedbackError(
                "empty feedback: give a rating, a comment, wrong triples or a proposal"
            )
        wrong_json = _clean(json.dumps([asdict(t) for t in wrong_list], ensure_ascii=False))

        def work(con: duckdb.DuckDBPyConnection) -> tuple[Feedback, Proposal | None]:
            row = con.execute("SELECT kb FROM runs WHERE id = ?", [run_id]).fetchone()
            if row is None:
                raise FeedbackError(f"no run {run_id}")
            now = time.time()
            (fid,) = _one(con, "SELECT nextval('feedback_ids')")
            con.execute(
                "INSERT INTO feedback VALUES (?, ?, ?, ?, ?, ?, ?)",
                [fid, run_id, rating, comment, wrong_json, who, now],
            )
            feedback = Feedback(int(fid), run_id, rating, comment, wrong_list, who, now)
            if not (add or remove):
                return feedback, None
            (pid,) = _one(con, "SELECT nextval('proposal_ids')")
            con.execute(
                "INSERT INTO proposals VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', NULL, NULL, '', ?)",
                [
                    pid,
                    fid,
                    run_id,
                    row[0],
                    json.dumps(add, ensure_ascii=False),
                    json.dumps(remove, ensure_ascii=False),
                    comment,
                    now,
                ],
            )
            proposal = Proposal(
                int(pid), int(fid), run_id, row[0], add, remove, comment, "pending", None, None, ""
            )
            return feedback, proposal

        return self._transact(work)

    def feedback_for(self, run_id: int) -> list[Feedback]:
        """Feedback on one run, oldest first (an unknown run simply has none)."""
        run_id = _id(run_id, "run")

        def work(con: duckdb.DuckDBPyConnection) -> list[Feedback]:
            rows = con.execute(
                f"SELECT {_FEEDBACK_COLS} FROM feedback WHERE run_id = ? ORDER BY id", [run_id]
            ).fetchall()
            return [_feedback(row) for row in rows]

        return self._transact(work, write=False, missing=lambda: [])

    def proposals(self, kb: str | None = None, status: str | None = "pending") -> list[Proposal]:
        """The review queue, oldest first; status None lists every proposal."""
        if status is not None and status not in STATUSES:
            raise FeedbackError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")

        def work(con: duckdb.DuckDBPyConnection) -> list[Proposal]:
            rows = con.execute(
                f"SELECT {_PROPOSAL_COLS} FROM proposals WHERE (? IS NULL OR kb = ?) "
                "AND (? IS NULL OR status = ?) ORDER BY id",
                [kb, kb, status, status],
            ).fetchall()
            return [_proposal(row) for row in rows]

        return self._transact(work, write=False, missing=lambda: [])

    def proposal(self, proposal_id: int) -> Proposal:
        proposal_id = _id(proposal_id, "proposal")

        def work(con: duckdb.DuckDBPyConnection) -> Proposal:
            return _get_proposal(con, proposal_id)

        return self._transact(
            work, write=False, missing=lambda: _raise(f"no proposal {proposal_id}")
        )

    def decide(
        self, proposal_id: int, *, accepted: bool, edit_id: int | None = None, who: str = ""
    ) -> Proposal:
        """Accept (with the id of the KG edit that applied it) or reject a pending proposal."""
        proposal_id = _id(proposal_id, "proposal")
        if not isinstance(accepted, bool):
            raise FeedbackError("accepted must be True or False")
        if accepted:
            if edit_id is None:
                raise FeedbackError("accepting a proposal needs the id of the KG edit")
            edit_id = _id(edit_id, "edit")
        elif edit_id is not None:
            raise FeedbackError("a rejected proposal has no KG edit")
        who = _short_text(who, "who", MAX_WHO_CHARS)
        status = "accepted" if accepted else "rejected"

        def work(con: duckdb.DuckDBPyConnection) -> Proposal:
            current = _get_proposal(con, proposal_id)
            if current.status != "pending":
                raise FeedbackError(f"proposal {proposal_id} is already {current.status}")
            con.execute(
                "UPDATE proposals SET status = ?, edit_id = ?, decided_at = ?, decided_by = ? "
                "WHERE id = ?",
                [status, edit_id, time.time(), who, proposal_id],
            )
            return _get_proposal(con, proposal_id)

        return self._transact(work)

    # -- learning and impact ----------------------------------------------------------------
    def trajectories(self, kb: str | None = None) -> list[tuple[StoredRun, str]]:
        """Rated runs, newest first, as "chosen" (latest non-zero rating +1) or "rejected"."""

        def work(con: duckdb.DuckDBPyConnection) -> list[tuple[StoredRun, str]]:
            rows = con.execute(
                f"""SELECT {_RUN_COLS}, l.rating FROM runs r JOIN (
                        SELECT run_id, rating FROM feedback WHERE rating <> 0
                        QUALIFY row_number() OVER (PARTITION BY run_id ORDER BY id DESC) = 1
                    ) l ON l.run_id = r.id
                    WHERE (? IS NULL OR r.kb = ?)
                    ORDER BY r.created_at DESC, r.id DESC""",
                [kb, kb],
            ).fetchall()
            return [(_run(row[:-1]), "chosen" if row[-1] > 0 else "rejected") for row in rows]

        return self._transact(work, write=False, missing=lambda: [])

    def runs_using(
        self,
        kb: str,
        triples: Iterable[Triple] = (),
        nodes: set[str] | frozenset[str] = frozenset(),
    ) -> list[StoredRun]:
        """Runs of `kb` whose trace used any of `triples` or touched any of `nodes`.

        Only the newest matching run of each question is returned (newest first): after an
        edit, that is the one worth asking again.
        """
        keys = sorted({_spo_key(t.s, t.p, t.o) for t in _triples(triples)})
        if isinstance(nodes, str) or not all(isinstance(n, str) and n for n in nodes):
            raise FeedbackError("nodes must be a set of node ids")
        node_list = sorted(nodes)
        if not keys and not node_list:
            return []

        def work(con: duckdb.DuckDBPyConnection) -> list[StoredRun]:
            # Two simple queries: DuckDB turns each IN (unnest) into ART index lookups, which
            # it does not do for the same filters nested in a join with `runs`.
            hits = con.execute(
                "SELECT run_id FROM run_triples WHERE spo IN (SELECT unnest(?::VARCHAR[])) "
                "UNION SELECT run_id FROM run_nodes WHERE node IN (SELECT unnest(?::VARCHAR[]))",
                [keys, node_list],
            ).fetchall()
            if not hits:
                return []
            rows = con.execute(
                f"""SELECT {_RUN_COLS} FROM runs r
                    WHERE r.id IN (SELECT unnest(?::BIGINT[])) AND r.kb = ?
                    QUALIFY row_number() OVER (
                        PARTITION BY r.question ORDER BY r.created_at DESC, r.id DESC) = 1
                    ORDER BY r.created_at DESC, r.id DESC""",
                [[h[0] for h in hits], kb],
            ).fetchall()
            return [_run(row) for row in rows]

        return self._transact(work, write=False, missing=lambda: [])

    # -- connection handling ----------------------------------------------------------------
    def _transact(
        self,
        work: Callable[[duckdb.DuckDBPyConnection], T],
        *,
        write: bool = True,
        missing: Callable[[], T] | None = None,
    ) -> T:
        """Run `work` in one transaction on a fresh connection, closed before returning.

        Reads on a store that does not exist yet answer `missing()` without creating the
        file, so looking never changes a workspace. Spooled runs turn any call into a
        writer: they are moved in first, so a reader sees them.
        """
        spooled = bool(self._spooled())
        if not write and missing is not None and not spooled and not self.path.exists():
            return missing()
        write = write or spooled or missing is None
        _warm_binding()
        deadline = time.monotonic() + self.busy_timeout_s
        with self._turn(write, deadline):
            delay = 0.02
            while True:
                try:
                    return self._once(work, write, missing, deadline)
                except (duckdb.TransactionException, duckdb.BinderException) as exc:
                    if not _collision(exc) or time.monotonic() >= deadline:
                        raise
                time.sleep(delay)
                delay = min(delay * 2, 0.25)

    @contextmanager
    def _turn(self, write: bool, deadline: float) -> Iterator[None]:
        """Wait in line: threads of this process one at a time, then the lock file (one
        writer or many readers across processes), each until the deadline at most."""
        with ExitStack() as stack:
            lock = _path_lock(self.path)
            if not lock.acquire(timeout=_left(deadline)):
                raise self._busy("another session of this process")
            stack.callback(lock.release)
            try:
                stack.enter_context(
                    file_lock(self.lock_path, shared=not write, timeout_s=_left(deadline))
                )
            except LockTimeout:
                raise self._busy() from None
            yield

    def _once(
        self,
        work: Callable[[duckdb.DuckDBPyConnection], T],
        write: bool,
        missing: Callable[[], T] | None,
        deadline: float,
    ) -> T:
        """One attempt: connect, check the schema, move spooled runs in, run `work`, close."""
        con = self._connect(write, deadline)
        try:
            if not self._ensure_schema(con, create=write):
                assert missing is not None  # a read without `missing` is made a write
                return missing()
            if write:
                self._merge_spool(con)
            con.execute("BEGIN TRANSACTION")
            try:
                result = work(con)
            except BaseException:
                con.execute("ROLLBACK")
                raise
            con.execute("COMMIT")
            return result
        finally:
            con.close()

    def _ensure_schema(self, con: duckdb.DuckDBPyConnection, *, create: bool) -> bool:
        """This store's tables (a subclass on another file names its own)."""
        return _ensure_schema(con, create=create)

    def _connect(self, write: bool, deadline: float) -> duckdb.DuckDBPyConnection:
        """Open the file (read-only for readers). Callers hold the lock file, so a refusal
        means a process outside the discipline holds the file: wait for it with backoff."""
        self.root.mkdir(parents=True, exist_ok=True)
        delay = 0.005
        while True:
            try:
                return duckdb.connect(str(self.path), read_only=not write)
            except duckdb.IOException as exc:
                message = str(exc)
                if "lock" not in message.lower():
                    raise
                if time.monotonic() >= deadline:
                    holder = _LOCK_HOLDER.search(message)
                    who = f"another process (PID {holder[2]}, {holder[1]})" if holder else None
                    raise self._busy(who or "another process") from None
            time.sleep(min(random.uniform(delay / 2, delay), _left(deadline)))
            delay = min(delay * 2, 0.25)

    def _busy(self, holder: str = "another process") -> StoreBusy:
        return StoreBusy(
            f"the run store {self.path} is in use by {holder}; "
            f"gave up after {self.busy_timeout_s:g}s, try again in a moment"
        )

    # -- the spool of runs that found the store busy ----------------------------------------
    def _spooled(self) -> list[Path]:
        """Complete spool files, oldest first (temporary files of a write in progress, or of
        one that never finished, do not end in .json)."""
        try:
            return sorted(p for p in self.spool_dir.iterdir() if p.suffix == ".json")
        except FileNotFoundError:
            return []

    def _spool(self, row: _Row) -> Path:
        """Keep a run for later, atomically: written and fsync'ed under a temporary name, then
        renamed, so a reader sees the whole file or none."""
        self.spool_dir.mkdir(parents=True, exist_ok=True)
        name = f"{time.time_ns()}-{uuid.uuid4().hex}"
        final, tmp = self.spool_dir / f"{name}.json", self.spool_dir / f".{name}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(asdict(row), fh, ensure_ascii=True)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
        _fsync_dir(self.spool_dir)
        return final

    def _merge_spool(self, con: duckdb.DuckDBPyConnection) -> int:
        """Move spooled runs in (the caller holds the exclusive lock); returns how many.

        One transaction stores the rows with their spool names; the files are deleted only
        after it committed, and a name already stored is skipped, so a crash in between
        stores no run twice. An unreadable file is renamed *.bad and kept for a person.
        """
        entries = [(path, row) for path in self._spooled() if (row := _read_spool(path))]
        if not entries:
            return 0
        con.execute(_SPOOL_TABLE)
        con.execute("BEGIN TRANSACTION")
        try:
            for path, row in entries:
                seen = con.execute("SELECT 1 FROM run_spool WHERE spool_id = ?", [path.stem])
                if seen.fetchone() is None:
                    run_id = _insert_run(con, row)
                    con.execute("INSERT INTO run_spool VALUES (?, ?)", [path.stem, run_id])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        for path, _ in entries:
            path.unlink(missing_ok=True)
        return len(entries)


# -- helpers --------------------------------------------------------------------------------

_PATH_LOCKS: dict[Path, threading.Lock] = {}
_PATH_LOCKS_GUARD = threading.Lock()
_WARM = threading.Event()


def _warm_binding() -> None:
    """The first parameter a process binds makes DuckDB import pandas (0.6 s alone, seconds on
    a busy machine). Pay that before taking the store's lock, not while everyone waits: it
    was most of the time a fresh CLI process held the lock."""
    if not _WARM.is_set():
        con = duckdb.connect(":memory:")
        try:
            con.execute("SELECT ?", [0]).fetchall()
        finally:
            con.close()
        _WARM.set()


def _path_lock(path: Path) -> threading.Lock:
    """One lock per store file and process.

    Threads of one process (the web app) share DuckDB's cached database instance; opening it
    while another thread closes it fails ("Unique file handle conflict"), and concurrent
    transactions can conflict. Taking turns within the process avoids both; other processes
    wait on the lock file (``RunStore._turn``).
    """
    key = path.resolve()
    with _PATH_LOCKS_GUARD:
        return _PATH_LOCKS.setdefault(key, threading.Lock())


def _collision(exc: Exception) -> bool:
    """Errors from a collision with another user of the same file in this process: retry."""
    message = str(exc).lower()
    return "conflict" in message or "already attached" in message


def _ensure_schema(con: duckdb.DuckDBPyConnection, *, create: bool = True) -> bool:
    return ensure_schema(con, _SCHEMA, STORE_SCHEMA_VERSION, "run store", create=create)


def ensure_schema(
    con: duckdb.DuckDBPyConnection,
    statements: Iterable[str],
    version: int,
    what: str,
    *,
    create: bool = True,
) -> bool:
    """Create a store's tables on first use and refuse a store written by a newer KnowLoop;
    False when they do not exist and `create` is off (a read-only look).

    The common case (schema present) costs one query; the version row is written last, in
    the same transaction as the tables, so a store is either fully created or not at all.
    """
    try:
        row = con.execute("SELECT max(version) FROM schema_version").fetchone()
        found = row[0] if row else None
    except duckdb.CatalogException:
        found = None
    if found is None:
        if not create:
            return False
        con.execute("BEGIN TRANSACTION")
        for statement in statements:
            con.execute(statement)
        con.execute(
            "INSERT INTO schema_version SELECT ? WHERE NOT EXISTS (SELECT 1 FROM schema_version)",
            [version],
        )
        con.execute("COMMIT")
    elif found > version:
        raise ValueError(f"the {what} was made by a newer KnowLoop (schema {found}); upgrade")
    return True


def busy_timeout() -> float:
    """Seconds a call waits for a busy store: $KNOWLOOP_BUSY_TIMEOUT, else 30."""
    text = os.environ.get(BUSY_TIMEOUT_ENV, "").strip()
    if not text:
        return DEFAULT_BUSY_TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"{BUSY_TIMEOUT_ENV} must be a number of seconds, not {text!r}")
    return value


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.monotonic())


def _fsync_dir(path: Path) -> None:
    """Make a rename in `path` durable (the directory entry, not just the file)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _clean(text: str) -> str:
    """Lone surrogates (undecodable bytes, as Python hands over argv) become U+FFFD:
    DuckDB refuses them, and one odd byte must not cost a whole run."""
    return _SURROGATES.sub("\ufffd", text)


def _row(trace: Trace, source: str) -> _Row:
    """Everything `save` stores, validated and computed before any lock is taken."""
    if not isinstance(trace, Trace):
        raise FeedbackError("only a Trace can be saved as a run")
    source = _short_text(source, "source", 64, required=True)
    triples = _used_triples(trace)
    return _Row(
        kb=_clean(trace.kb),
        question=_clean(trace.question),
        paradigm=_clean(trace.paradigm),
        created_at=time.time(),
        source=source,
        answers=_clean(json.dumps(trace.answer_labels, ensure_ascii=False)),
        trace=_clean(trace.to_json(indent=None)),
        triples=[[_clean(x) for x in t] for t in triples],
        nodes=[_clean(n) for n in _used_nodes(trace, triples)],
    )


def _insert_run(con: duckdb.DuckDBPyConnection, row: _Row) -> int:
    (run_id,) = _one(con, "SELECT nextval('run_ids')")
    con.execute(
        "INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (run_id, row.kb, row.question, row.paradigm, row.created_at, row.source)
        + (row.answers, row.trace),
    )
    if row.triples:
        # Parallel unnest zips the lists: one round trip however large the trace.
        con.execute(
            "INSERT INTO run_triples SELECT ?, unnest(?), unnest(?), unnest(?), unnest(?)",
            [
                run_id,
                [t[0] for t in row.triples],
                [t[1] for t in row.triples],
                [t[2] for t in row.triples],
                [_spo_key(*t) for t in row.triples],
            ],
        )
    if row.nodes:
        con.execute("INSERT INTO run_nodes SELECT ?, unnest(?)", [run_id, row.nodes])
    return int(run_id)


def _read_spool(path: Path) -> _Row | None:
    """A spooled run, or None for a file that is not one (renamed *.bad, kept for a person)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if _is_row(data):
            return _Row(**{k: _clean(v) if isinstance(v, str) else v for k, v in data.items()})
    except FileNotFoundError:
        return None
    except (OSError, ValueError):  # JSONDecodeError and UnicodeDecodeError included
        pass
    os.replace(path, path.with_name(path.name + ".bad"))
    return None


_ROW_TEXTS = ("kb", "question", "paradigm", "source", "answers", "trace")


def _is_row(data: Any) -> bool:
    """The shape `_spool` writes, checked so that a damaged file cannot fail every merge."""

    def texts(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)

    if not isinstance(data, dict) or set(data) != {f.name for f in fields(_Row)}:
        return False
    return (
        all(isinstance(data[k], str) for k in _ROW_TEXTS)
        and isinstance(data["created_at"], (int, float))
        and isinstance(data["triples"], list)
        and all(texts(t) and len(t) == 3 for t in data["triples"])
        and texts(data["nodes"])
    )


def _one(con: duckdb.DuckDBPyConnection, sql: str) -> tuple[Any, ...]:
    row = con.execute(sql).fetchone()
    assert row is not None
    return row


def _raise(message: str) -> Any:
    raise FeedbackError(message)


def _used_triples(trace: Trace) -> list[tuple[str, str, str]]:
    """Every distinct (s, p, o) the trace retrieved or cited as evidence, in first-seen order."""
    seen: dict[tuple[str, str, str], None] = {}
    for step in trace.steps:
        for t in step.triples:
            seen.setdefault((t.s, t.p, t.o))
    for answer in trace.answers:
        for t in answer.evidence:
            seen.setdefault((t.s, t.p, t.o))
    return list(seen)


def _spo_key(s: str, p: str, o: str) -> str:
    """One unambiguous string per triple (a JSON array), so one indexed column matches it."""
    return json.dumps([s, p, o], ensure_ascii=False, separators=(",", ":"))


def _used_nodes(trace: Trace, triples: list[tuple[str, str, str]]) -> list[str]:
    """Subjects and objects of the used triples plus every linked entity id."""
    seen: dict[str, None] = {}
    for s, _, o in triples:
        seen.setdefault(s)
        seen.setdefault(o)
    for link in trace.linked:
        for node in link.get("ids", []) if isinstance(link, dict) else []:
            if isinstance(node, str):
                seen.setdefault(node)
    return list(seen)


def _id(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FeedbackError(f"{what} id must be a positive integer, not {value!r}")
    return value


def _limit(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FeedbackError(f"limit must be a positive integer, not {value!r}")
    return value


def _short_text(
    value: Any, what: str, max_chars: int, *, multiline: bool = False, required: bool = False
) -> str:
    """Stripped text without control characters (newlines and tabs allowed when multiline)."""
    if not isinstance(value, str):
        raise FeedbackError(f"{what} must be text")
    allowed = "\t\n\r" if multiline else ""
    if any((ord(c) < 32 and c not in allowed) or ord(c) == 127 for c in value):
        raise FeedbackError(f"{what} contains control characters")
    value = _clean(value.strip())
    if len(value) > max_chars:
        raise FeedbackError(f"{what} is too long ({len(value)} characters, at most {max_chars})")
    if required and not value:
        raise FeedbackError(f"{what} must not be empty")
    return value


def _triples(values: Iterable[Triple]) -> list[Triple]:
    if isinstance(values, (str, bytes, Triple)):
        raise FeedbackError("triples must be given as a list of Triple")
    out = list(values)
    for t in out:
        if not isinstance(t, Triple):
            raise FeedbackError(f"not a triple: {t!r:.80}")
    return list(dict.fromkeys(out))


def _proposal_texts(values: Iterable[str], what: str) -> list[str]:
    """Validate "subject|relation|object" texts: exactly two bars, three non-empty parts."""
    if isinstance(values, (str, bytes)):
        raise FeedbackError(f"{what} must be a list of 'subject|relation|object' texts")
    out: list[str] = []
    for value in values:
        text = _short_text(value, f"{what} triple", MAX_PROPOSAL_CHARS)
        parts = text.split("|")
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise FeedbackError(
                f"{what}: {text!r:.120} is not 'subject|relation|object' "
                "(exactly two '|' and three non-empty parts)"
            )
        if text not in out:
            out.append(text)
    if len(out) > MAX_PROPOSAL_TRIPLES:
        raise FeedbackError(f"{what}: too many triples (at most {MAX_PROPOSAL_TRIPLES})")
    return out


def _run(row: tuple[Any, ...]) -> StoredRun:
    run_id, kb, question, paradigm, created_at, source, answers, payload = row
    return StoredRun(
        int(run_id),
        kb,
        question,
        paradigm,
        created_at,
        source,
        json.loads(answers),
        Trace.from_dict(json.loads(payload)),
    )


def _feedback(row: tuple[Any, ...]) -> Feedback:
    fid, run_id, rating, comment, wrong, who, created_at = row
    triples = [Triple(**t) for t in json.loads(wrong)]
    return Feedback(int(fid), int(run_id), int(rating), comment, triples, who, created_at)


def _proposal(row: tuple[Any, ...]) -> Proposal:
    pid, fid, run_id, kb, add, remove, why, status, edit_id, decided_at, decided_by = row
    return Proposal(
        int(pid),
        int(fid),
        int(run_id),
        kb,
        json.loads(add),
        json.loads(remove),
        why,
        status,
        None if edit_id is None else int(edit_id),
        decided_at,
        decided_by,
    )


def _get_proposal(con: duckdb.DuckDBPyConnection, proposal_id: int) -> Proposal:
    row = con.execute(
        f"SELECT {_PROPOSAL_COLS} FROM proposals WHERE id = ?", [proposal_id]
    ).fetchone()
    if row is None:
        raise FeedbackError(f"no proposal {proposal_id}")
    return _proposal(row)
