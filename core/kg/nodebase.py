"""The per-node part of a large KB's index, on disk: labels, roles, degrees, classes.

A KB of a few hundred thousand triples keeps its whole index in memory (a pickle that loads
in milliseconds). Past that, the per-node maps grow with the KB (≈ 0.4 GB per million
triples) while everything else the planner reads (relations, transitions, reach samples)
stays small. So a large KB's per-node maps live in one SQLite file beside the store,
written once at import and never changed (opened `immutable`: no locks, any number of
readers). An edit's changes to them live in a small overlay that is pickled with the rest of
the index, so the edit log, undo and crash recovery work exactly as for a small KB.

SQLite rather than DuckDB because the hot path is point lookups (a node's roles, a label's
nodes): ~5 µs each here, against ~0.2 ms for a DuckDB query. DuckDB builds the tables (it
aggregates 10 M triples with bounded memory, spilling to disk); SQLite serves them.

Fuzzy linking: an exact scan over millions of labels costs ~0.5 s a mention, so candidates
come from an FTS5 trigram index (the mention's rarest trigrams), then rapidfuzz scores the
few hundred candidates exactly as the in-memory path scores every label.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from array import array
from collections.abc import Iterable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

NODES_FILE = "nodes.sqlite"
MAX_POSTINGS = 5_000  # a trigram met in more labels than this says too little to search by
RAREST_TRIGRAMS = 8  # how many of a mention's rarest trigrams gather fuzzy candidates


class _Gone:
    """An overlay tombstone: removed by an edit. Pickled by name, so an overlay read back in
    another process still holds *the* tombstone (a bare object() would come back as a new
    object that no `is _GONE` recognises, and read as a value)."""

    def __reduce__(self) -> str:
        return "_GONE"

    def __repr__(self) -> str:
        return "_GONE"


_GONE = _Gone()

_SCHEMA = """
CREATE TABLE nodes (id TEXT PRIMARY KEY, label TEXT, roles BLOB, degree INTEGER NOT NULL,
                    classes TEXT) WITHOUT ROWID;
CREATE TABLE norms (norm TEXT NOT NULL, id TEXT NOT NULL);
CREATE TABLE info (key TEXT PRIMARY KEY, value INTEGER) WITHOUT ROWID;
"""


def pack_roles(codes: Iterable[int]) -> bytes:
    return array("I", codes).tobytes()


def unpack_roles(blob: bytes | None) -> tuple[int, ...]:
    if not blob:
        return ()
    codes = array("I")
    codes.frombytes(blob)
    return tuple(codes)


class NodeTableWriter:
    """Writes a fresh nodes.sqlite: rows in any order, then `close()` builds the indexes and
    moves the file into place in one rename (readers of the old one keep reading it; two
    writers never write one file)."""

    def __init__(self, path: Path, work_dir: Path):
        self.path = Path(path)
        self.tmp = Path(work_dir) / self.path.name
        self.tmp.unlink(missing_ok=True)
        self.db = sqlite3.connect(self.tmp)
        self.db.executescript(
            "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA cache_size=-200000;" + _SCHEMA
        )

    def add(self, rows: list[tuple[str, str | None, bytes | None, int, str | None]],
            norms: list[tuple[str, str]]) -> None:  # fmt: skip
        """rows: (id, label, packed roles, degree, classes joined by spaces); norms: (norm, id)."""
        self.db.executemany("INSERT INTO nodes VALUES (?, ?, ?, ?, ?)", rows)
        self.db.executemany("INSERT INTO norms VALUES (?, ?)", norms)

    def close(self, counts: dict[str, int]) -> None:
        db = self.db
        db.executemany("INSERT INTO info VALUES (?, ?)", sorted(counts.items()))
        db.executescript(
            """
            CREATE INDEX norms_by_norm ON norms(norm, id);
            CREATE TABLE keys (k INTEGER PRIMARY KEY, norm TEXT NOT NULL);
            INSERT INTO keys(norm) SELECT DISTINCT norm FROM norms ORDER BY norm;
            CREATE VIRTUAL TABLE grams USING fts5(norm, content='keys', content_rowid='k',
                                                  tokenize='trigram', detail='none');
            INSERT INTO grams(grams) VALUES ('rebuild');
            INSERT INTO info SELECT 'n_by_norm', count(*) FROM keys;
            ANALYZE;
            """
        )
        db.commit()
        db.close()
        os.replace(self.tmp, self.path)


class NodeTable:
    """Read side of nodes.sqlite. One connection per thread (sqlite3 objects are not shared
    across threads); the file is immutable, so readers never lock or wait."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._local = threading.local()

    def __getstate__(self) -> dict[str, Any]:  # pickled with the index: the name, not the file
        return {"name": self.path.name}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path = Path(state["name"])  # made absolute by `bind` when the index is loaded
        self._local = threading.local()

    def bind(self, directory: Path) -> None:
        self.path = Path(directory) / self.path.name
        self._local = threading.local()

    @property
    def db(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            uri = f"file:{self.path}?mode=ro&immutable=1"
            db = self._local.db = sqlite3.connect(uri, uri=True, check_same_thread=False)
        return db

    def _one(self, sql: str, args: tuple) -> tuple | None:
        return self.db.execute(sql, args).fetchone()

    # -- columns ------------------------------------------------------------------------------
    def row(self, node: str) -> tuple | None:
        return self._one("SELECT label, roles, degree, classes FROM nodes WHERE id = ?", (node,))

    def ids(self, norm: str) -> list[str]:
        rows = self.db.execute("SELECT id FROM norms WHERE norm = ? ORDER BY id", (norm,))
        return [r[0] for r in rows]

    def starts(self, prefix: str) -> bool:
        """Does some normalised label start with `prefix`?"""
        hit = self._one(
            "SELECT 1 FROM norms WHERE norm >= ? AND norm < ? LIMIT 1",
            (prefix, prefix + "\U0010ffff"),
        )
        return hit is not None

    def info(self, key: str) -> int:
        row = self._one("SELECT value FROM info WHERE key = ?", (key,))
        return int(row[0]) if row else 0

    def candidates(self, norm: str) -> list[str]:
        """Normalised labels that share one of the mention's rarest trigrams (fuzzy linking
        scores these instead of every label). A label within a few edits of the mention
        keeps most of its trigrams, so it keeps at least one of the rarest."""
        grams = {norm[i : i + 3] for i in range(len(norm) - 2)}
        sized = []
        for gram in grams:
            phrase = '"' + gram.replace('"', '""') + '"'
            rows = self.db.execute(
                "SELECT rowid FROM grams WHERE grams MATCH ? LIMIT ?", (phrase, MAX_POSTINGS + 1)
            ).fetchall()
            if len(rows) <= MAX_POSTINGS:
                sized.append((len(rows), gram, rows))
        sized.sort()
        keys = {r[0] for _, _, rows in sized[:RAREST_TRIGRAMS] for r in rows}
        if not keys:
            return []
        out: list[str] = []
        ordered = sorted(keys)
        for i in range(0, len(ordered), 900):  # SQLite's bound-parameter limit
            chunk = ordered[i : i + 900]
            marks = ",".join("?" * len(chunk))
            out += [
                r[0] for r in self.db.execute(f"SELECT norm FROM keys WHERE k IN ({marks})", chunk)
            ]
        return out

    def iter_rows(self) -> Iterator[tuple[str, str | None, bytes | None, int, str | None]]:
        yield from self.db.execute("SELECT id, label, roles, degree, classes FROM nodes")

    def iter_norms(self) -> Iterator[tuple[str, str]]:
        yield from self.db.execute("SELECT norm, id FROM norms ORDER BY norm, id")


class NodeMap(MutableMapping):
    """One per-node map of the index (labels, roles, degree, classes or by_norm) over the
    immutable table, with the edits' changes in an in-memory overlay (pickled with the
    index). Reads look in the overlay first; a removal is a tombstone."""

    def __init__(self, table: NodeTable, column: str):
        self.table, self.column = table, column
        self.overlay: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"table": self.table, "column": self.column, "overlay": self.overlay}

    def _base(self, key: str) -> Any:
        if self.column == "by_norm":
            return self.table.ids(key) or None
        row = self.table.row(key)
        if row is None:
            return None
        label, roles, degree, classes = row
        if self.column == "labels":
            return label
        if self.column == "roles":
            return unpack_roles(roles) if roles is not None else None
        if self.column == "degree":
            return degree or None
        return tuple(classes.split(" ")) if classes else None

    def get(self, key: str, default: Any = None) -> Any:
        value = self.overlay.get(key, None)
        if value is None:
            value = self._base(key)
        elif value is _GONE:
            return default
        return default if value is None else value

    def __getitem__(self, key: str) -> Any:
        value = self.get(key, _GONE)
        if value is _GONE:
            raise KeyError(key)
        return value

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key, _GONE) is not _GONE

    def __setitem__(self, key: str, value: Any) -> None:
        self.overlay[key] = value

    def __delitem__(self, key: str) -> None:
        self[key]  # noqa: B018 — KeyError when absent, like a dict
        self.overlay[key] = _GONE

    def _base_keys(self) -> Iterator[str]:
        if self.column == "by_norm":
            last = None
            for norm, _ in self.table.iter_norms():
                if norm != last:
                    last = norm
                    yield norm
            return
        for node, label, roles, _degree, classes in self.table.iter_rows():
            present = {"labels": label, "roles": roles, "classes": classes}.get(
                self.column, _degree
            )
            if present:
                yield node

    def __iter__(self) -> Iterator[str]:
        for key in self._base_keys():
            if self.overlay.get(key) is not _GONE:
                yield key
        for key, value in list(self.overlay.items()):
            if value is not _GONE and self._base(key) is None:
                yield key

    def __len__(self) -> int:
        n = self.table.info(f"n_{self.column}")
        for key, value in self.overlay.items():
            in_base = self._base(key) is not None
            n += (value is not _GONE and not in_base) - (value is _GONE and in_base)
        return n
