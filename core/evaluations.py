"""Stored evaluations: what the Evaluate page ran, with its settings, one row per question.

An evaluation is started (its settings and sample recorded), then each question's result is
stored the moment it finishes — with the run's trace, so any row of a past evaluation can be
opened again — and finally it is marked done, cancelled (stopped, or a Streamlit rerun that
interrupted the page: the rows already stored stay) or failed. Summaries are computed from
the stored rows, so a cancelled evaluation's summary covers exactly the questions it did.

Storage is ``<root>/evaluations.duckdb`` beside the run store, under the run store's own
discipline (``core.runs``): threads of a process take turns, then an flock on
``evaluations.duckdb.lock`` (exclusive to write, shared to read), waiting at most
``$KNOWLOOP_BUSY_TIMEOUT`` seconds; no connection outlives a call. A separate file keeps a
long evaluation's many small writes out of the way of Ask and the KG editor.

Everything the page shows that is not drawing lives here too: the per-question table and
its CSV, Hits@1 per question type, comparing two evaluations, the summary download.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import duckdb

from core import paradigms as paradigm_registry
from core.evaluate import (
    SUMMARY_KEYS,
    LabelledQuestion,
    QuestionResult,
    evaluate_iter,
    summarize,
)
from core.loop import LoopSettings
from core.runs import RunStore, StoreBusy, _clean, ensure_schema
from core.secrets import scrub_obj
from core.trace import Trace

if TYPE_CHECKING:  # the engine sits above this module: named here as a type only
    from core.engine import Engine

DB_NAME = "evaluations.duckdb"
LOCK_NAME = "evaluations.duckdb.lock"
SCHEMA_VERSION = 1
STATUSES = ("running", "done", "cancelled", "failed")
# columns that say what kind of question a row is (MetaQA: qtype; ours: type, hops, kind)
GROUP_COLUMNS = ("type", "qtype", "hops", "hop", "kind")
TABLE_COLUMNS = (
    "#", "paradigm", "line", "question", "gold", "top answers", "hit", "steps", "tokens",
    "latency ms", "support", "error",
)  # fmt: skip
MAX_TOP = 5  # top answers shown per row (ties at the top, then the best)

T = TypeVar("T")

_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)",
    "CREATE SEQUENCE IF NOT EXISTS evaluation_ids START 1",
    """CREATE TABLE IF NOT EXISTS evaluations (
        id BIGINT PRIMARY KEY, kb VARCHAR NOT NULL, file VARCHAR NOT NULL,
        paradigms VARCHAR NOT NULL, settings VARCHAR NOT NULL, sample VARCHAR NOT NULL,
        planned INTEGER NOT NULL, status VARCHAR NOT NULL, created_at DOUBLE NOT NULL,
        finished_at DOUBLE)""",
    """CREATE TABLE IF NOT EXISTS evaluation_rows (
        evaluation_id BIGINT NOT NULL, seq INTEGER NOT NULL, paradigm VARCHAR NOT NULL,
        result VARCHAR NOT NULL, trace VARCHAR NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS evaluation_rows_id ON evaluation_rows (evaluation_id)",
]
_EVAL_COLS = (
    "e.id, e.kb, e.file, e.paradigms, e.settings, e.sample, e.planned, e.status, "
    "e.created_at, e.finished_at, "
    "(SELECT count(*) FROM evaluation_rows r WHERE r.evaluation_id = e.id)"
)


class EvaluationError(ValueError):
    """Input the evaluation store refuses (unknown evaluation, bad status, no paradigm...)."""


@dataclass
class Evaluation:
    id: int
    kb: str
    file: str  # the question file's name
    paradigms: list[str]
    settings: dict[str, Any]  # the loop settings it ran with (no keys)
    sample: dict[str, Any]  # how the questions were drawn: size, mode, seed, strip_brackets
    planned: int  # questions x paradigms
    status: str  # "running" | "done" | "cancelled" | "failed"
    done: int  # rows stored
    created_at: float
    finished_at: float | None

    def label(self) -> str:
        """One line naming it in a picker."""
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.created_at))
        return (
            f"#{self.id} · {self.file} · {', '.join(self.paradigms)} · {self.status} "
            f"{self.done}/{self.planned} · {when}"
        )


@dataclass
class StoredRow:
    """One question of one paradigm as stored (its trace is read on demand: `trace`)."""

    seq: int
    paradigm: str
    result: QuestionResult


@dataclass
class Progress:
    """What `run_evaluation` yields after each stored question."""

    done: int
    planned: int
    paradigm: str
    result: QuestionResult
    hits_at_1: float  # running Hits@1 of this paradigm so far


class _Db(RunStore):
    """The run store's connection discipline (``RunStore._transact``: thread turn, flock,
    bounded wait, collision retries) on the evaluations file; evaluations have no spool."""

    def __init__(self, root: Path, busy_timeout_s: float | None):
        super().__init__(root, busy_timeout_s=busy_timeout_s)
        self.path, self.lock_path = self.root / DB_NAME, self.root / LOCK_NAME

    def _spooled(self) -> list[Path]:
        return []

    def _ensure_schema(self, con: duckdb.DuckDBPyConnection, *, create: bool) -> bool:
        return _ensure_schema(con, create=create)

    def _busy(self, holder: str = "another process") -> StoreBusy:
        return StoreBusy(
            f"the evaluation store {self.path} is in use by {holder}; "
            f"gave up after {self.busy_timeout_s:g}s, try again in a moment"
        )


class EvaluationStore:
    """Evaluations of one workspace, in ``<root>/evaluations.duckdb``."""

    def __init__(self, root: Path | str, *, busy_timeout_s: float | None = None):
        self._db = _Db(Path(root), busy_timeout_s)
        self.path = self._db.path

    def start(
        self,
        *,
        kb: str,
        file: str,
        paradigms: list[str],
        settings: dict[str, Any],
        sample: dict[str, Any],
        planned: int,
    ) -> int:
        """Record a new, running evaluation; its id. Checked before anything is written."""
        names = _paradigms(paradigms)
        if isinstance(planned, bool) or not isinstance(planned, int) or planned < 1:
            raise EvaluationError(f"an evaluation needs at least one question, not {planned!r}")
        values = [
            _clean(str(kb)), _clean(str(file)), _json(names), _json(settings), _json(sample),
            planned, time.time(),
        ]  # fmt: skip

        def work(con: duckdb.DuckDBPyConnection) -> int:
            (eid,) = con.execute("SELECT nextval('evaluation_ids')").fetchone() or (0,)
            con.execute(
                "INSERT INTO evaluations VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, NULL)",
                [eid, *values],
            )
            return int(eid)

        return self._db._transact(work)

    def add_row(self, evaluation_id: int, paradigm: str, result: QuestionResult) -> int:
        """Store one finished question (with its trace) of a running evaluation; its seq."""
        eid = _id(evaluation_id)
        record = _json(result.record())
        trace = _clean(result.trace.to_json(indent=None)) if result.trace is not None else ""

        def work(con: duckdb.DuckDBPyConnection) -> int:
            status = _status(con, eid)
            if status != "running":
                raise EvaluationError(f"evaluation {eid} is {status}; it takes no more rows")
            row = con.execute(
                "SELECT coalesce(max(seq), 0) + 1 FROM evaluation_rows WHERE evaluation_id = ?",
                [eid],
            ).fetchone()
            seq = int(row[0]) if row else 1
            con.execute(
                "INSERT INTO evaluation_rows VALUES (?, ?, ?, ?, ?)",
                [eid, seq, _clean(paradigm), record, trace],
            )
            return seq

        return self._db._transact(work)

    def finish(self, evaluation_id: int, status: str = "done") -> Evaluation:
        """Mark a running evaluation done, cancelled or failed; one already finished is left
        as it is (a page that reconciles an interrupted run may ask twice)."""
        eid = _id(evaluation_id)
        if status not in STATUSES[1:]:
            raise EvaluationError(f"status must be one of {', '.join(STATUSES[1:])}")

        def work(con: duckdb.DuckDBPyConnection) -> Evaluation:
            if _status(con, eid) == "running":
                con.execute(
                    "UPDATE evaluations SET status = ?, finished_at = ? WHERE id = ?",
                    [status, time.time(), eid],
                )
            return _get(con, eid)

        return self._db._transact(work)

    def get(self, evaluation_id: int) -> Evaluation:
        eid = _id(evaluation_id)
        return self._db._transact(
            lambda con: _get(con, eid), write=False, missing=lambda: _missing(eid)
        )

    def list(self, kb: str | None = None, limit: int = 100) -> list[Evaluation]:
        """Evaluations, newest first (optionally of one KB)."""

        def work(con: duckdb.DuckDBPyConnection) -> list[Evaluation]:
            rows = con.execute(
                f"SELECT {_EVAL_COLS} FROM evaluations e WHERE (? IS NULL OR e.kb = ?) "
                "ORDER BY e.created_at DESC, e.id DESC LIMIT ?",
                [kb, kb, int(limit)],
            ).fetchall()
            return [_evaluation(r) for r in rows]

        return self._db._transact(work, write=False, missing=lambda: [])

    def rows(self, evaluation_id: int) -> list[StoredRow]:
        """Every stored question of an evaluation, in the order they finished (no traces)."""
        eid = _id(evaluation_id)

        def work(con: duckdb.DuckDBPyConnection) -> list[StoredRow]:
            _get(con, eid)
            rows = con.execute(
                "SELECT seq, paradigm, result FROM evaluation_rows WHERE evaluation_id = ? "
                "ORDER BY seq",
                [eid],
            ).fetchall()
            return [StoredRow(int(s), p, QuestionResult.from_record(json.loads(r)))
                    for s, p, r in rows]  # fmt: skip

        return self._db._transact(work, write=False, missing=lambda: _missing(eid))

    def trace(self, evaluation_id: int, seq: int) -> Trace | None:
        """The trace of one stored row (None: the question was refused before it ran)."""
        eid = _id(evaluation_id)

        def work(con: duckdb.DuckDBPyConnection) -> Trace | None:
            row = con.execute(
                "SELECT trace FROM evaluation_rows WHERE evaluation_id = ? AND seq = ?",
                [eid, int(seq)],
            ).fetchone()
            if row is None:
                raise EvaluationError(f"evaluation {eid} has no row {seq}")
            return Trace.from_dict(json.loads(row[0])) if row[0] else None

        return self._db._transact(work, write=False, missing=lambda: _missing(eid))

    def delete(self, evaluation_id: int) -> None:
        """Remove an evaluation and its rows."""
        eid = _id(evaluation_id)

        def work(con: duckdb.DuckDBPyConnection) -> None:
            _get(con, eid)
            con.execute("DELETE FROM evaluation_rows WHERE evaluation_id = ?", [eid])
            con.execute("DELETE FROM evaluations WHERE id = ?", [eid])

        self._db._transact(work)

    def summaries(self, evaluation_id: int) -> list[dict]:
        """`knowloop eval`'s summary per paradigm, over the rows stored (cancelled: the done)."""
        evaluation = self.get(evaluation_id)
        return summaries(evaluation.paradigms, self.rows(evaluation_id))


# -- running -----------------------------------------------------------------------------------
def run_evaluation(
    engine: Engine,
    store: EvaluationStore,
    evaluation_id: int,
    questions: list[LabelledQuestion],
    paradigms: list[str],
    *,
    kb: str | None,
    settings: LoopSettings | None,
) -> Iterator[Progress]:
    """Run each paradigm over the questions, storing every result as it finishes.

    Closing the generator early (the page was stopped or rerun) marks the evaluation
    cancelled with the rows done so far; an error marks it failed; the end marks it done.
    """
    planned, done, status = len(questions) * len(paradigms), 0, "failed"
    try:
        for paradigm in paradigms:
            hits = 0.0
            results = evaluate_iter(engine, questions, kb=kb, paradigm=paradigm,
                                    settings=settings)  # fmt: skip
            for n, result in enumerate(results, start=1):
                store.add_row(evaluation_id, paradigm, result)
                done, hits = done + 1, hits + result.hits_at_1
                yield Progress(done, planned, paradigm, result, round(hits / n, 4))
        status = "done"
    except (GeneratorExit, KeyboardInterrupt):
        status = "cancelled"
        raise
    finally:
        _finish_quietly(store, evaluation_id, status)


def _finish_quietly(store: EvaluationStore, evaluation_id: int, status: str) -> None:
    """Mark the end; a busy store must not replace the exception that ended the run (a
    Streamlit rerun): the evaluation then stays "running" until the page reconciles it."""
    try:
        store.finish(evaluation_id, status)
    except ValueError:
        pass


def settings_record(settings: LoopSettings) -> dict[str, Any]:
    """The loop settings as stored with an evaluation: every option and the model's name
    (never the LLM settings themselves, which may carry a test's mock or an API base)."""
    record = {f.name: getattr(settings, f.name) for f in fields(settings) if f.name != "llm"}
    record["model"] = getattr(settings.llm, "model", "") if settings.llm else ""
    return record


# -- what the page shows ---------------------------------------------------------------------
def summaries(paradigms: list[str], rows: list[StoredRow]) -> list[dict]:
    """One summary per paradigm that has rows, in the evaluation's order."""
    out = []
    for paradigm in paradigms:
        results = [r.result for r in rows if r.paradigm == paradigm]
        if results:
            out.append(summarize(paradigm, results))
    return out


def summaries_json(items: list[dict]) -> str:
    """The summary download: a list with one `knowloop eval --json` object per paradigm,
    exactly its keys (SUMMARY_KEYS) in its order."""
    return json.dumps([{k: s[k] for k in SUMMARY_KEYS} for s in items], indent=2) + "\n"


def group_column(rows: list[StoredRow]) -> str | None:
    """The file's column that says what kind of question each is (type, qtype, hops, kind),
    when it has one with a value; None otherwise."""
    for name in GROUP_COLUMNS:
        if any(r.result.extra.get(name, "").strip() for r in rows):
            return name
    return None


def hits_by_group(rows: list[StoredRow], column: str) -> list[dict]:
    """Hits@1 per paradigm and per value of `column`, in first-seen order."""
    groups: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        key = (r.paradigm, r.result.extra.get(column, "").strip() or "(none)")
        groups.setdefault(key, []).append(r.result.hits_at_1)
    return [
        {"paradigm": p, column: g, "n": len(h), "hits_at_1": round(sum(h) / len(h), 4)}
        for (p, g), h in groups.items()
    ]


def is_hit(result: QuestionResult) -> bool:
    """A question counts as right when its Hits@1 is 1 (ties: every tied answer gold)."""
    return result.hits_at_1 >= 1.0


def result_table(rows: list[StoredRow], *, failures_only: bool = False) -> list[dict]:
    """One row per question for the page and the CSV: what it asked, the gold, the top
    answers, the hit, steps, tokens, latency, support (and the question-type column)."""
    column = group_column(rows)
    out = []
    for r in rows:
        res = r.result
        if failures_only and is_hit(res):
            continue
        top = res.predicted[: max(1, min(res.tied, MAX_TOP))]
        row = {
            "#": r.seq,
            "paradigm": r.paradigm,
            "line": res.line,
            "question": res.question,
            "gold": " | ".join(res.gold),
            "top answers": " | ".join(top),
            "hit": is_hit(res),
            "steps": res.steps,
            "tokens": res.prompt_tokens + res.completion_tokens,
            "latency ms": round(res.latency_ms, 1),
            "support": res.support,
            "error": res.error or "",
        }
        if column:
            row[column] = res.extra.get(column, "")
        out.append(row)
    return out


def table_csv(table: list[dict]) -> str:
    """The per-question table as CSV text (the page's download)."""
    columns = list(table[0]) if table else list(TABLE_COLUMNS)
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table)
    return buffer.getvalue()


# -- comparing two evaluations ---------------------------------------------------------------
def compare_summaries(
    a: Evaluation, a_summaries: list[dict], b: Evaluation, b_summaries: list[dict]
) -> list[dict]:
    """The summary metrics side by side: one row per metric, one column per evaluation and
    paradigm, and the difference when each side has one paradigm."""
    columns = [(f"#{a.id} {s['paradigm']}", s) for s in a_summaries]
    columns += [(f"#{b.id} {s['paradigm']}", s) for s in b_summaries]
    out = []
    for key in SUMMARY_KEYS[1:]:
        row: dict[str, Any] = {"metric": key}
        row.update({name: s[key] for name, s in columns})
        if len(a_summaries) == len(b_summaries) == 1:
            left, right = a_summaries[0][key], b_summaries[0][key]
            both = isinstance(left, int | float) and isinstance(right, int | float)
            row["B − A"] = round(right - left, 6) if both else None
        out.append(row)
    return out


def compare_rows(a_rows: list[StoredRow], b_rows: list[StoredRow]) -> list[dict]:
    """Per-question hits of two evaluations on the questions both asked: matched on question
    and paradigm when they share a paradigm, else on the question alone (kg-only in A
    against llmxkg in B). `change` is "fixed" (wrong in A, right in B), "broken" or "same"."""
    shared = {r.paradigm for r in a_rows} & {r.paradigm for r in b_rows}

    def key(r: StoredRow) -> tuple[str, str]:
        return (r.result.question, r.paradigm if shared else "")

    right: dict[tuple[str, str], StoredRow] = {}
    for r in b_rows:
        right.setdefault(key(r), r)
    out, seen = [], set()
    for left in a_rows:
        k = key(left)
        if k in seen or k not in right:
            continue
        seen.add(k)
        other = right[k]
        hit_a, hit_b = is_hit(left.result), is_hit(other.result)
        change = "same" if hit_a == hit_b else ("fixed" if hit_b else "broken")
        out.append({"question": left.result.question, "paradigm A": left.paradigm,
                    "paradigm B": other.paradigm, "hit A": hit_a, "hit B": hit_b,
                    "change": change})  # fmt: skip
    return out


# -- helpers ---------------------------------------------------------------------------------
def _ensure_schema(con: duckdb.DuckDBPyConnection, *, create: bool = True) -> bool:
    return ensure_schema(con, _SCHEMA, SCHEMA_VERSION, "evaluation store", create=create)


def _paradigms(names: Iterable[str]) -> list[str]:
    if isinstance(names, str):
        raise EvaluationError("paradigms must be a list of names")
    out = list(dict.fromkeys(names))
    if not out:
        raise EvaluationError("pick at least one paradigm")
    known = paradigm_registry.names()
    for name in out:
        if name not in known:
            raise EvaluationError(f"unknown paradigm {name!r} (known: {', '.join(known)})")
    return out


def _json(value: Any) -> str:
    return _clean(json.dumps(scrub_obj(value), ensure_ascii=False, default=str))


def _id(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise EvaluationError(f"evaluation id must be a positive integer, not {value!r}")
    return value


def _missing(eid: int) -> Any:
    raise EvaluationError(f"no evaluation {eid}")


def _status(con: duckdb.DuckDBPyConnection, eid: int) -> str:
    row = con.execute("SELECT status FROM evaluations WHERE id = ?", [eid]).fetchone()
    if row is None:
        _missing(eid)
    return row[0]


def _get(con: duckdb.DuckDBPyConnection, eid: int) -> Evaluation:
    row = con.execute(f"SELECT {_EVAL_COLS} FROM evaluations e WHERE e.id = ?", [eid]).fetchone()
    if row is None:
        _missing(eid)
    return _evaluation(row)


def _evaluation(row: tuple[Any, ...]) -> Evaluation:
    eid, kb, file, names, settings, sample, planned, status, created, finished, done = row
    return Evaluation(int(eid), kb, file, json.loads(names), json.loads(settings),
                      json.loads(sample), int(planned), status, int(done), created,
                      finished)  # fmt: skip
