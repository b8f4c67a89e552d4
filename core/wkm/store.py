"""The World Knowledge Model's memory, per KB, in the workspace DuckDB (``knowloop.duckdb``).

Three kinds of entries, each soft-deletable with history (like KG edits, a deletion can be
undone):
- trajectories: a finished run (or a path mined from the KG) with its outcome, "chosen"
  (rated good, or correct against gold in `knowloop learn`) or "rejected";
- states: (previous action, state summary, next action) from chosen trajectories, with the
  summary's vector (FLOAT[DIM]) for kNN;
- tasks: guidance for a kind of question, from contrasting a chosen with a rejected path.

It shares the run store's file and its connection discipline (`RunStore._transact`: no
connection outlives a call, so the app and the CLI can use the workspace side by side).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import numpy as np

from core.runs import RunStore
from core.wkm.embed import DIM, EMBEDDER, embed

T = TypeVar("T")
KINDS = ("trajectory", "state", "task")
OUTCOMES = ("chosen", "rejected")

_SCHEMA = [
    "CREATE SEQUENCE IF NOT EXISTS wkm_ids START 1",
    """CREATE TABLE IF NOT EXISTS wkm_trajectories (
        id BIGINT PRIMARY KEY, kb VARCHAR NOT NULL, question VARCHAR NOT NULL,
        paradigm VARCHAR NOT NULL, outcome VARCHAR NOT NULL, origin VARCHAR NOT NULL,
        run_id BIGINT, path VARCHAR NOT NULL, answers VARCHAR NOT NULL, steps INTEGER NOT NULL,
        created_at DOUBLE NOT NULL, deleted BOOLEAN NOT NULL DEFAULT false)""",
    f"""CREATE TABLE IF NOT EXISTS wkm_states (
        id BIGINT PRIMARY KEY, kb VARCHAR NOT NULL, trajectory_id BIGINT NOT NULL,
        prev_action VARCHAR NOT NULL, summary VARCHAR NOT NULL, next_action VARCHAR NOT NULL,
        vec FLOAT[{DIM}] NOT NULL, created_at DOUBLE NOT NULL,
        deleted BOOLEAN NOT NULL DEFAULT false)""",
    f"""CREATE TABLE IF NOT EXISTS wkm_tasks (
        id BIGINT PRIMARY KEY, kb VARCHAR NOT NULL, pattern VARCHAR NOT NULL,
        guidance VARCHAR NOT NULL, follow VARCHAR NOT NULL, avoid VARCHAR NOT NULL,
        chosen_id BIGINT, rejected_id BIGINT, method VARCHAR NOT NULL,
        vec FLOAT[{DIM}] NOT NULL, created_at DOUBLE NOT NULL,
        deleted BOOLEAN NOT NULL DEFAULT false)""",
    "CREATE TABLE IF NOT EXISTS wkm_meta (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)",
    """CREATE TABLE IF NOT EXISTS wkm_history (
        id BIGINT, kb VARCHAR NOT NULL, op VARCHAR NOT NULL, kind VARCHAR NOT NULL,
        entry_id BIGINT NOT NULL, who VARCHAR NOT NULL, at_time DOUBLE NOT NULL)""",
]
_TRAJECTORY_COLS = (
    "id, kb, question, paradigm, outcome, origin, run_id, path, answers, steps, created_at, deleted"
)
_TABLE = {"trajectory": "wkm_trajectories", "state": "wkm_states", "task": "wkm_tasks"}
_READY: set[Path] = set()  # store files whose WKM tables exist (checked once per process)


class KnowledgeError(ValueError):
    """Input the knowledge store refuses (unknown entry, bad outcome...)."""


@dataclass
class Trajectory:
    id: int
    kb: str
    question: str
    paradigm: str
    outcome: str  # "chosen" | "rejected"
    origin: str  # "learn" (the agent's own run), "mined" (a KG path to gold), "rating"
    run_id: int | None
    path: list[str]  # action keys (core.wkm.actions), in order
    answers: list[str]
    steps: int  # steps the run took (0 for a mined path)
    created_at: float = 0.0
    deleted: bool = False


@dataclass
class StateEntry:
    id: int
    kb: str
    trajectory_id: int
    prev_action: str
    summary: str
    next_action: str
    vec: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(DIM, np.float32))
    deleted: bool = False


@dataclass
class TaskEntry:
    id: int
    kb: str
    pattern: str  # the question with its topic entity masked
    guidance: str
    follow: list[str]  # action keys of the chosen path
    avoid: list[str]  # action keys of the rejected path ([] when none)
    chosen_id: int | None
    rejected_id: int | None
    method: str  # "rules" or the model that wrote the guidance
    vec: np.ndarray = field(repr=False, default_factory=lambda: np.zeros(DIM, np.float32))
    deleted: bool = False


class KnowledgeStore:
    """Trajectories, state entries and task knowledge of one workspace."""

    def __init__(self, root: Path | str):
        self.runs = RunStore(root)
        self.path = self.runs.path

    # -- writing ----------------------------------------------------------------------------
    def add_trajectory(self, t: Trajectory, states: list[StateEntry]) -> int:
        """Store a trajectory and its state entries in one transaction; returns its id."""
        if t.outcome not in OUTCOMES:
            raise KnowledgeError(f"outcome must be one of {OUTCOMES}, not {t.outcome!r}")
        if states and t.outcome != "chosen":
            raise KnowledgeError("only chosen (expert) trajectories give state entries")

        def work(con: duckdb.DuckDBPyConnection) -> int:
            now = time.time()
            (tid,) = con.execute("SELECT nextval('wkm_ids')").fetchone()
            con.execute(
                "INSERT INTO wkm_trajectories VALUES (?,?,?,?,?,?,?,?,?,?,?,false)",
                [tid, t.kb, t.question, t.paradigm, t.outcome, t.origin, t.run_id,
                 json.dumps(t.path), json.dumps(t.answers, ensure_ascii=False), t.steps, now],
            )  # fmt: skip
            for s in states:
                (sid,) = con.execute("SELECT nextval('wkm_ids')").fetchone()
                con.execute(
                    "INSERT INTO wkm_states VALUES (?,?,?,?,?,?,?,?,false)",
                    [sid, t.kb, tid, s.prev_action, s.summary, s.next_action,
                     s.vec.astype(np.float32).tolist(), now],
                )  # fmt: skip
            return int(tid)

        return self._transact(work)

    def add_task(self, task: TaskEntry) -> int:
        def work(con: duckdb.DuckDBPyConnection) -> int:
            (tid,) = con.execute("SELECT nextval('wkm_ids')").fetchone()
            con.execute(
                "INSERT INTO wkm_tasks VALUES (?,?,?,?,?,?,?,?,?,?,?,false)",
                [tid, task.kb, task.pattern, task.guidance, json.dumps(task.follow),
                 json.dumps(task.avoid), task.chosen_id, task.rejected_id, task.method,
                 task.vec.astype(np.float32).tolist(), time.time()],
            )  # fmt: skip
            return int(tid)

        return self._transact(work)

    def delete(self, kind: str, entry_id: int, who: str = "") -> int:
        """Soft-delete an entry (a trajectory takes its state entries along); returns how many
        entries were deleted. The deletion is recorded and `undo` restores it."""
        table = _table(kind)

        def work(con: duckdb.DuckDBPyConnection) -> int:
            row = con.execute(
                f"SELECT kb, deleted FROM {table} WHERE id = ?", [entry_id]
            ).fetchone()
            if row is None:
                raise KnowledgeError(f"no {kind} {entry_id}")
            if row[1]:
                raise KnowledgeError(f"{kind} {entry_id} is already deleted")
            entries = [(kind, entry_id)]
            if kind == "trajectory":
                entries += [
                    ("state", sid)
                    for (sid,) in con.execute(
                        "SELECT id FROM wkm_states WHERE trajectory_id = ? AND NOT deleted",
                        [entry_id],
                    ).fetchall()
                ]
            (group,) = con.execute("SELECT nextval('wkm_ids')").fetchone()
            for k, i in entries:
                con.execute(f"UPDATE {_TABLE[k]} SET deleted = true WHERE id = ?", [i])
                con.execute(
                    "INSERT INTO wkm_history VALUES (?, ?, 'delete', ?, ?, ?, ?)",
                    [group, row[0], k, i, who, time.time()],
                )
            return len(entries)

        return self._transact(work)

    def undo(self, kb: str, who: str = "") -> int:
        """Restore the latest deletion on `kb` that is not undone yet; returns entries restored."""

        def work(con: duckdb.DuckDBPyConnection) -> int:
            row = con.execute(
                """SELECT max(id) FROM wkm_history WHERE kb = ? AND op = 'delete' AND id NOT IN
                   (SELECT entry_id FROM wkm_history WHERE kb = ? AND op = 'undo')""",
                [kb, kb],
            ).fetchone()
            if row is None or row[0] is None:
                raise KnowledgeError("nothing to undo")
            group = row[0]
            entries = con.execute(
                "SELECT kind, entry_id FROM wkm_history WHERE id = ? AND op = 'delete'", [group]
            ).fetchall()
            for k, i in entries:
                con.execute(f"UPDATE {_TABLE[k]} SET deleted = false WHERE id = ?", [i])
            con.execute(
                "INSERT INTO wkm_history VALUES (nextval('wkm_ids'), ?, 'undo', 'group', ?, ?, ?)",
                [kb, group, who, time.time()],
            )
            return len(entries)

        return self._transact(work)

    def set_path(self, entry_id: int, path: list[str]) -> None:
        """Replace a trajectory's path (action keys); its state entries are left as they are."""

        def work(con: duckdb.DuckDBPyConnection) -> None:
            row = con.execute("SELECT id FROM wkm_trajectories WHERE id = ?", [entry_id])
            if row.fetchone() is None:
                raise KnowledgeError(f"no trajectory {entry_id}")
            con.execute("UPDATE wkm_trajectories SET path = ? WHERE id = ?",
                        [json.dumps(list(path)), entry_id])  # fmt: skip

        self._transact(work)

    def set_meta(self, key: str, value: str) -> None:
        self._transact(
            lambda con: con.execute("INSERT OR REPLACE INTO wkm_meta VALUES (?, ?)", [key, value])
        )

    # -- reading ----------------------------------------------------------------------------
    def trajectories(self, kb: str | None = None, *, paradigm: str | None = None,
                     outcome: str | None = None,
                     include_deleted: bool = False) -> list[Trajectory]:  # fmt: skip
        rows = self._read(
            f"""SELECT {_TRAJECTORY_COLS} FROM wkm_trajectories
               WHERE (? IS NULL OR kb = ?) AND (? IS NULL OR paradigm = ?)
                 AND (? IS NULL OR outcome = ?) AND (NOT deleted OR ?) ORDER BY id DESC""",
            [kb, kb, paradigm, paradigm, outcome, outcome, include_deleted],
        )
        return [_trajectory(r) for r in rows]

    def trajectory(self, entry_id: int) -> Trajectory:
        """One trajectory by id (a deleted one too)."""
        rows = self._read(
            f"SELECT {_TRAJECTORY_COLS} FROM wkm_trajectories WHERE id = ?", [entry_id]
        )
        if not rows:
            raise KnowledgeError(f"no trajectory {entry_id}")
        return _trajectory(rows[0])

    def meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM wkm_meta WHERE key = ?", [key])
        return rows[0][0] if rows else None

    def states(self, kb: str, *, paradigm: str | None = None,
               include_deleted: bool = False) -> list[StateEntry]:  # fmt: skip
        """State entries of `kb` (optionally only those learned from `paradigm`'s
        trajectories), oldest first. Vectors come through Arrow in one block: 100k entries
        load in about a second, not row by row."""
        if not self.path.exists():
            return []
        sql = """SELECT s.id, s.kb, s.trajectory_id, s.prev_action, s.summary, s.next_action,
                        s.vec, s.deleted
                 FROM wkm_states s JOIN wkm_trajectories t ON t.id = s.trajectory_id
                 WHERE s.kb = ? AND (? IS NULL OR t.paradigm = ?) AND (NOT s.deleted OR ?)
                 ORDER BY s.id"""
        params = [kb, paradigm, paradigm, include_deleted]
        table = self._transact(lambda con: con.execute(sql, params).to_arrow_table())
        if table.num_rows == 0:
            return []
        flat = table.column("vec").combine_chunks().flatten()
        vecs = flat.to_numpy(zero_copy_only=False).astype(np.float32).reshape(-1, DIM)
        names = ("id", "kb", "trajectory_id", "prev_action", "summary", "next_action", "deleted")
        cols = [table.column(c).to_pylist() for c in names]
        return [
            StateEntry(int(i), k, int(t), p, s, n, vecs[row], bool(d))
            for row, (i, k, t, p, s, n, d) in enumerate(zip(*cols, strict=True))
        ]

    def tasks(self, kb: str, *, paradigm: str | None = None,
              include_deleted: bool = False) -> list[TaskEntry]:  # fmt: skip
        """Task knowledge of `kb` (optionally only from `paradigm`'s trajectories)."""
        rows = self._read(
            """SELECT k.id, k.kb, k.pattern, k.guidance, k.follow, k.avoid, k.chosen_id,
                      k.rejected_id, k.method, k.vec, k.deleted
               FROM wkm_tasks k LEFT JOIN wkm_trajectories t ON t.id = k.chosen_id
               WHERE k.kb = ? AND (NOT k.deleted OR ?) AND (? IS NULL OR t.paradigm = ?)
               ORDER BY k.id""",
            [kb, include_deleted, paradigm, paradigm],
        )
        return [
            TaskEntry(
                int(r[0]),
                *r[1:4],
                json.loads(r[4]),
                json.loads(r[5]),
                *r[6:9],
                np.asarray(r[9], dtype=np.float32),
                bool(r[10]),
            )
            for r in rows
        ]

    def history(self, kb: str) -> list[dict[str, Any]]:
        rows = self._read(
            "SELECT id, op, kind, entry_id, who, at_time FROM wkm_history WHERE kb = ? "
            "ORDER BY at_time DESC, id DESC",
            [kb],
        )
        keys = ("group", "op", "kind", "entry_id", "who", "at")
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def version(self, kb: str) -> tuple:
        """Changes whenever the live knowledge of `kb` changes (cache key for kNN indexes)."""
        rows = self._read(
            """SELECT (SELECT count(*) FROM wkm_states WHERE kb = ? AND NOT deleted),
                      (SELECT max(id) FROM wkm_states WHERE kb = ?),
                      (SELECT count(*) FROM wkm_tasks WHERE kb = ? AND NOT deleted),
                      (SELECT max(id) FROM wkm_tasks WHERE kb = ?),
                      (SELECT count(*) FROM wkm_history WHERE kb = ?)""",
            [kb, kb, kb, kb, kb],
        )
        return tuple(rows[0]) if rows else (0,)

    def counts(self, kb: str) -> dict[str, int]:
        rows = self._read(
            """SELECT (SELECT count(*) FROM wkm_trajectories WHERE kb = ? AND NOT deleted
                         AND outcome = 'chosen'),
                      (SELECT count(*) FROM wkm_trajectories WHERE kb = ? AND NOT deleted
                         AND outcome = 'rejected'),
                      (SELECT count(*) FROM wkm_states WHERE kb = ? AND NOT deleted),
                      (SELECT count(*) FROM wkm_tasks WHERE kb = ? AND NOT deleted)""",
            [kb, kb, kb, kb],
        )
        keys = ("chosen", "rejected", "states", "tasks")
        return dict(zip(keys, rows[0], strict=True)) if rows else dict.fromkeys(keys, 0)

    def learn_accuracy(self, kb: str) -> dict[str, tuple[int, int]]:
        """Per paradigm: (questions learned, how many the agent alone got right)."""
        rows = self._read(
            """SELECT paradigm, count(*), count(*) FILTER (WHERE outcome = 'chosen')
               FROM wkm_trajectories WHERE kb = ? AND origin = 'learn' AND NOT deleted
               GROUP BY paradigm""",
            [kb],
        )
        return {r[0]: (int(r[1]), int(r[2])) for r in rows}

    # -- plumbing ---------------------------------------------------------------------------
    def _read(self, sql: str, params: list[Any]) -> list[tuple]:
        if not self.path.exists():  # looking never creates a workspace file
            return []
        return self._transact(lambda con: con.execute(sql, params).fetchall())

    def _transact(self, work: Callable[[duckdb.DuckDBPyConnection], T]) -> T:
        def with_schema(con: duckdb.DuckDBPyConnection) -> T:
            if self.path not in _READY:
                for statement in _SCHEMA:
                    con.execute(statement)
                _same_embedder(con)
            return work(con)

        result = self.runs._transact(with_schema)
        _READY.add(self.path)
        return result


def _same_embedder(con: duckdb.DuckDBPyConnection) -> None:
    """Vectors made by another embedder are not comparable: re-embed every summary and task
    pattern once (in the caller's transaction) and record the embedder."""
    row = con.execute("SELECT value FROM wkm_meta WHERE key = 'embedder'").fetchone()
    if row and row[0] == EMBEDDER:
        return
    for table, text in (("wkm_states", "summary"), ("wkm_tasks", "pattern")):
        rows = con.execute(f"SELECT id, {text} FROM {table}").fetchall()
        for entry_id, value in rows:
            con.execute(f"UPDATE {table} SET vec = ? WHERE id = ?",
                        [embed(value).tolist(), entry_id])  # fmt: skip
    con.execute("INSERT OR REPLACE INTO wkm_meta VALUES ('embedder', ?)", [EMBEDDER])


def _trajectory(r: tuple) -> Trajectory:
    return Trajectory(int(r[0]), *r[1:7], json.loads(r[7]), json.loads(r[8]), int(r[9]), r[10],
                      bool(r[11]))  # fmt: skip


def _table(kind: str) -> str:
    if kind not in _TABLE:
        raise KnowledgeError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    return _TABLE[kind]
