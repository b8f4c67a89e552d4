"""Index a large KB with bounded memory: DuckDB aggregates, SQLite keeps the per-node maps.

`build_index` (core.kg.store) holds a dict entry per node while it reads; at 10 M triples
that is ≈ 4 GB. Here the triples go to a DuckDB file in pieces as the importer converts
them, DuckDB groups them by node under a memory limit (spilling to disk past it), and the
grouped rows stream through Python once, into the node table (core.kg.nodebase) and the
small relation-level parts that `finish_index` derives exactly as for a small KB.
"""

from __future__ import annotations

import heapq
import itertools
import shutil
import tempfile
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

import duckdb
import pyarrow as pa

from core.kg.nodebase import NODES_FILE, NodeMap, NodeTable, NodeTableWriter, pack_roles
from core.kg.store import (
    _ALT_ID,
    _COMMENT_ID,
    _FEW,
    _LABEL_ID,
    _SCHEMA_IDS,
    _TYPE_ID,
    INTEGER_TYPES,
    KGIndex,
    ReachPools,
    _fallback_label,
    add_name,
    finish_index,
    literal_kind,
    literal_text,
    ntriples_triples,
    order_relations,
    rebuild_index,
    store_triples,
    store_version,
)
from core.kg.terms import is_literal_id
from core.text import normalize

MEMORY_LIMIT = "1GB"  # DuckDB's share while it aggregates; it spills to disk past this
_BATCH = 50_000  # node rows per fetch and per SQLite insert


class DiskIndexBuilder:
    """`add` N-Triples text piece by piece (canonical lines, as the importer makes them),
    then `finish` writes `nodes.sqlite` into `kb_dir` and returns the index."""

    def __init__(self, kb_dir: Path, memory_limit: str = MEMORY_LIMIT):
        self.kb_dir = Path(kb_dir)
        # a directory of its own: two processes rebuilding one KB never share files
        self.work = Path(tempfile.mkdtemp(prefix=".index-build-", dir=self.kb_dir))
        self.db = duckdb.connect(str(self.work / "triples.duckdb"))
        self.db.execute(f"SET memory_limit = '{memory_limit}'")
        self.db.execute(f"SET temp_directory = '{self.work / 'spill'}'")
        self.db.execute("SET preserve_insertion_order = false")
        self.db.execute("CREATE TABLE t (s VARCHAR, p VARCHAR, o VARCHAR)")

    def add(self, ntriples: str) -> None:
        """A piece of canonical N-Triples text."""
        self.add_triples(ntriples_triples(ntriples))

    def add_triples(self, triples: Iterable[tuple[str, str, str]]) -> None:
        s, p, o = [], [], []
        for a, b, c in triples:
            s.append(a)
            p.append(b)
            o.append(c)
        if s:
            piece = pa.table({"s": s, "p": p, "o": o})  # noqa: F841 — read by name below
            self.db.execute("INSERT INTO t SELECT * FROM piece")

    def close(self) -> None:
        try:
            self.db.close()
        finally:
            shutil.rmtree(self.work, ignore_errors=True)

    def finish(self) -> KGIndex:
        try:
            return self._finish()
        finally:
            self.close()

    def _finish(self) -> KGIndex:
        db = self.db
        schema = sorted(_SCHEMA_IDS)
        marks = ",".join("?" * len(schema))
        db.execute("CREATE TABLE d AS SELECT DISTINCT s, p, o FROM t")
        db.execute("DROP TABLE t")
        db.execute(f"CREATE TABLE rel AS SELECT p, count(*) AS n, count(DISTINCT o) AS nd "
                   f"FROM d WHERE p NOT IN ({marks}) GROUP BY p", schema)  # fmt: skip
        stats = {p: (n, nd) for p, n, nd in db.execute("SELECT p, n, nd FROM rel").fetchall()}

        # names and documentation of the relations themselves (few rows)
        labels: dict[str, str] = {}
        aliases: dict[str, list[str]] = defaultdict(list)
        comments: dict[str, str] = {}
        rows = db.execute(
            "SELECT s, p, o FROM d WHERE p IN (?, ?, ?) AND s IN (SELECT p FROM rel) "
            "AND starts_with(o, '\"') ORDER BY s, p, o", [_LABEL_ID, _ALT_ID, _COMMENT_ID]
        ).fetchall()  # fmt: skip
        for s, p, o in rows:
            add_name(s, p, literal_text(o), labels, aliases, comments)
        rel_ids = order_relations(stats, labels)
        code = {p: k for k, p in enumerate(rel_ids)}
        codes = pa.table({"p": rel_ids, "rid": list(range(len(rel_ids)))})  # noqa: F841
        db.execute("CREATE TABLE rid AS SELECT * FROM codes")
        kinds = self._kinds(rel_ids)
        distinct = {}
        for p, (n, nd) in stats.items():
            if nd <= _FEW:
                distinct[2 * code[p]] = (nd, n)

        writer = NodeTableWriter(self.kb_dir / NODES_FILE, self.work)
        signatures: Counter[tuple[int, ...]] = Counter()
        pools = ReachPools()
        counts = Counter()
        batch_nodes: list[tuple] = []
        batch_norms: list[tuple[str, str]] = []
        for node, node_codes, degree, lab, classes in self._node_rows():
            explicit = literal_text(lab) if lab else None
            label = None
            if node_codes:
                signatures[node_codes] += 1
                pools.add(node, explicit, degree, node_codes)
                label = explicit or _fallback_label(node)
            elif explicit is not None and node not in code:
                label = explicit
            if label is not None:
                batch_norms.append((normalize(label), node))
                if is_literal_id(node):
                    label = None
                else:
                    counts["n_entities"] += bool(node_codes)
            counts["n_labels"] += label is not None
            counts["n_roles"] += bool(node_codes)
            counts["n_classes"] += classes is not None
            packed = pack_roles(node_codes) if node_codes else None
            batch_nodes.append((node, label, packed, degree, classes))
            if len(batch_nodes) >= _BATCH:
                writer.add(batch_nodes, batch_norms)
                batch_nodes, batch_norms = [], []
        writer.add(batch_nodes, batch_norms)
        counts["n_degree"] = counts["n_roles"]
        n_triples = sum(n for n, _ in stats.values())
        writer.close(dict(counts))

        table = NodeTable(self.kb_dir / NODES_FILE)
        index = KGIndex(nodes=table)
        index.labels = NodeMap(table, "labels")
        index.by_norm = NodeMap(table, "by_norm")
        index.roles = NodeMap(table, "roles")
        index.degree = NodeMap(table, "degree")
        index.classes = NodeMap(table, "classes")
        return finish_index(
            index, rel_ids, labels, aliases, {p: n for p, (n, _) in stats.items()}, kinds,
            signatures, pools, distinct, n_triples, comments,
        )  # fmt: skip

    def _node_rows(self) -> Iterator[tuple[str, tuple[int, ...], int, str | None, str | None]]:
        """(node, role codes, degree, label literal, classes) for every node, in node order.

        Three sorted streams merged here rather than one grouped query: DuckDB spills a sort
        or a plain GROUP BY to disk, but not list aggregates, which ran out of memory at 10 M
        triples under its limit."""
        db = self.db
        db.execute("""
            CREATE TABLE nc AS SELECT node, code, count(*) AS n FROM (
                SELECT s AS node, rid * 2 AS code FROM d JOIN rid USING (p)
                UNION ALL SELECT o, rid * 2 + 1 FROM d JOIN rid USING (p)) GROUP BY node, code
        """)  # fmt: skip
        streams = [
            self._sorted("SELECT node, 0, code, n FROM nc ORDER BY node, code", []),
            self._sorted("SELECT s, 1, min(o), 0 FROM d WHERE p = ? AND starts_with(o, '\"') "
                         "GROUP BY s ORDER BY s", [_LABEL_ID]),
            self._sorted("SELECT DISTINCT s, 2, o, 0 FROM d WHERE p = ? "
                         "AND NOT starts_with(o, '\"') ORDER BY s, o", [_TYPE_ID]),
        ]  # fmt: skip
        for node, rows in itertools.groupby(heapq.merge(*streams), key=lambda r: r[0]):
            codes, degree, label, classes = [], 0, None, []
            for _, kind, value, n in rows:
                if kind == 0:
                    codes.append(value)
                    degree += n
                elif kind == 1:
                    label = value
                else:
                    classes.append(value)
            yield node, tuple(codes), degree, label, " ".join(classes) if classes else None

    def _sorted(self, sql: str, params: list) -> Iterator[tuple]:
        """One query's rows, fetched a batch at a time on a cursor of its own."""
        result = self.db.cursor().execute(sql, params)
        while batch := result.fetchmany(_BATCH):
            yield from batch

    def _kinds(self, rel_ids: list[str]) -> dict[str, str]:
        """Each relation's commonest kind of object, counted by (datatype, value class) groups
        so that `literal_kind` decides for a group as it would for each of its triples."""
        ints = ",".join(f"'{t}'" for t in INTEGER_TYPES)
        rows = self.db.execute(
            f"""
            WITH lit AS (
                SELECT p, starts_with(o, '"') AS is_lit,
                       regexp_extract(o, '\\^\\^<([^>]*)>$', 1) AS dt,
                       regexp_extract(o, '^"(.*)"', 1) AS v
                FROM d JOIN rid USING (p))
            SELECT p, is_lit, dt,
                   CASE WHEN dt IN ({ints}) THEN
                       CASE WHEN try_cast(v AS BIGINT) IS NULL THEN 'x'
                            WHEN try_cast(v AS BIGINT) BETWEEN 1000 AND 2100 THEN '1500'
                            ELSE '0' END
                   ELSE '' END AS rep,
                   count(*) AS n
            FROM lit GROUP BY ALL
            """
        ).fetchall()
        tally: dict[str, Counter[str]] = defaultdict(Counter)
        for p, is_lit, dt, rep, n in rows:
            tally[p][literal_kind(dt, rep) if is_lit else "entity"] += n
        return {p: max(sorted(tally[p]), key=lambda k: tally[p][k]) for p in rel_ids}


REBUILD_PIECE = 200_000  # triples per piece when an index is rebuilt from a store


def rebuild_where_it_lives(store, kb_dir: Path) -> KGIndex:
    """A fresh index of a KB's store (its format changed, or recovery), kept where the KB
    keeps it: on disk, with bounded memory, when the KB has a node table; else in memory."""
    if not (Path(kb_dir) / NODES_FILE).exists():
        return rebuild_index(store)
    builder = DiskIndexBuilder(kb_dir)
    triples = store_triples(store)
    try:
        while piece := list(itertools.islice(triples, REBUILD_PIECE)):
            builder.add_triples(piece)
        index = builder.finish()
    except BaseException:
        builder.close()
        raise
    index.kb_version = store_version(store)
    return index
