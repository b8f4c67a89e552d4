"""Tables as a knowledge source: CSV/Parquet imported into the workspace's source database
(`sources.duckdb`, apart from the runs database), queried with guarded, read-only SQL.

The guard has two layers, so that either alone would stop a hostile query:
1. Parse check (sqlglot, DuckDB dialect): exactly one statement, a SELECT (UNION of SELECTs
   included); no table functions (read_csv, glob, …), no file paths as tables, no
   PRAGMA/ATTACH/COPY/INSTALL/LOAD/SET/CALL, only the source tables, bounded joins.
2. The connection: read-only, `enable_external_access=false` (no files, no network, no
   ATTACH, no INSTALL), extension auto-install/load off, `lock_configuration=true` (the SQL
   cannot switch any of that back on); a row cap and a time cap (interrupt).
"""

from __future__ import annotations

import csv
import json
import logging
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import sqlglot
from sqlglot import exp

from core import worker

logging.getLogger("sqlglot").setLevel(logging.ERROR)  # refusals are reported by us, in words

FILE = "sources.duckdb"
MAX_TABLES_IN_QUERY = 4
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")
SAFE_CONFIG = {
    "enable_external_access": False,
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
    "lock_configuration": True,
}


class SQLRefused(ValueError):
    """The SQL is not a safe read-only query over the source tables."""


@dataclass
class TableInfo:
    name: str
    rows: int
    columns: list[tuple[str, str]]  # (name, DuckDB type)
    comments: dict[str, str] = field(default_factory=dict)  # column -> what it means


@dataclass
class SQLResult:
    columns: list[str]
    rows: list[tuple]
    truncated: bool
    elapsed_ms: float


def sources_path(home: Path) -> Path:
    return Path(home) / FILE


# -- import (trusted: the user's own files, through our code) --------------------------------
def import_table(
    path: Path | str,
    name: str | None = None,
    *,
    home: Path,
    replace: bool = False,
    comments: dict[str, str] | None = None,
) -> TableInfo:
    """Load a CSV or Parquet file as table `name`, atomically (a failed load changes nothing).
    `comments` document columns (what they mean, words people use for them); a sidecar
    `<file>.columns.json` is read when none are given. A CSV that is empty, has no data rows
    or rows of differing widths is refused (ValueError, nothing imported): DuckDB would load
    it as an empty table, or as one text column, without a word."""
    path = Path(path)
    if comments is None:
        sidecar = path.with_suffix(".columns.json")
        comments = json.loads(sidecar.read_text(encoding="utf-8")) if sidecar.is_file() else {}
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    if name is not None and not name.strip():
        raise ValueError("the name must not be empty")
    name = name or re.sub(r"\W+", "_", path.stem).strip("_").lower() or "table"
    if not _NAME.match(name):
        raise ValueError(f"table name {name!r}: letters, digits and _ only, not first a digit")
    reader = {".csv": "read_csv_auto", ".tsv": "read_csv_auto", ".parquet": "read_parquet"}.get(
        path.suffix.lower()
    )
    if reader is None:
        raise ValueError(f"{path.name}: tables are imported from .csv, .tsv or .parquet")
    if reader == "read_csv_auto":
        _check_text(path)
    db = sources_path(home)
    db.parent.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(db)) as con:
        exists = con.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_name = ?", [name]
        ).fetchone()[0]
        if exists and not replace:
            raise ValueError(f"a table named {name!r} exists; pass replace to overwrite it")
        staging = f"_staging_{name}"
        try:
            con.execute("BEGIN")
            con.execute(f"DROP TABLE IF EXISTS {staging}")
            # skip=0: the sniffer may otherwise drop the lines above a longer row, header too
            options = ", skip=0" if reader == "read_csv_auto" else ""
            con.execute(
                f"CREATE TABLE {staging} AS SELECT * FROM {reader}(?{options})", [str(path)]
            )
            if reader == "read_csv_auto":
                _check_shape(con, staging, path)
            con.execute(f"DROP TABLE IF EXISTS {name}")
            con.execute(f"ALTER TABLE {staging} RENAME TO {name}")
            known = {
                c
                for (c,) in con.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_name = ?",
                    [name],
                ).fetchall()
            }
            for column, text in (comments or {}).items():
                if column in known:
                    quoted = str(text)[:500].replace("'", "''")  # COMMENT takes no parameters
                    con.execute(f"COMMENT ON COLUMN {name}.\"{column}\" IS '{quoted}'")
            con.execute("COMMIT")
        except ValueError:  # refused by _check_shape
            con.execute("ROLLBACK")
            raise
        except duckdb.Error as exc:
            con.execute("ROLLBACK")
            raise ValueError(_read_error(path, exc)) from None
    return describe(name, home)


def _check_text(path: Path) -> None:
    """A CSV/TSV must be UTF-8 text with something in it (checked on its first 64 KiB)."""
    with open(path, "rb") as fh:
        head = fh.read(65536)
    if not head.strip():
        raise ValueError(f"{path.name}: the file is empty; nothing imported")
    if b"\x00" in head:
        raise ValueError(f"{path.name}: binary content (NUL bytes), not a text table")
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # a cut multi-byte character at the end is fine
            raise ValueError(f"{path.name}: not UTF-8 text ({exc.reason})") from None


def _check_shape(con, table: str, path: Path) -> None:
    """Refuse what DuckDB's CSV sniffer loads without complaint but wrongly: no data rows, or
    one text column (its fallback when no delimiter splits every row alike: ragged rows)."""
    if con.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0:
        raise ValueError(f"{path.name}: a header but no data rows; nothing imported")
    types = con.execute(
        "SELECT data_type FROM duckdb_columns() WHERE table_name = ?", [table]
    ).fetchall()
    if types != [("VARCHAR",)]:
        return
    ragged = _ragged_line(path, _header_delimiter(path))
    if ragged:
        raise ValueError(f"{path.name}: {ragged}; nothing imported")
    raise ValueError(
        f"{path.name}: could not find columns: the file looks like one column; "
        "is it a CSV? Nothing imported"
    )


_DELIMITERS = (",", "\t", ";", "|")


def _header_delimiter(path: Path) -> str:
    """The delimiter the first non-blank line uses most ('' when it has none)."""
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
        header = next((line for line in fh if line.strip()), "")
    counts = {d: header.count(d) for d in _DELIMITERS}
    best = max(counts, key=counts.__getitem__)
    return best if counts[best] else ""


def _ragged_line(path: Path, delimiter: str) -> str | None:
    """The first row whose field count differs from the first row's, in words (None when
    all agree). Only run on files already found suspect, so a whole pass is affordable."""
    if not delimiter:
        return None
    with open(path, encoding="utf-8-sig", errors="replace", newline="") as fh:
        rows = csv.reader(fh, delimiter=delimiter)
        expected = header_line = 0
        for fields in rows:
            if not fields:  # a blank line
                continue
            if not expected:
                expected, header_line = len(fields), rows.line_num
            elif len(fields) != expected:
                return (
                    f"line {rows.line_num} has {len(fields)} fields, expected {expected} "
                    f"(as on line {header_line}, split on {delimiter!r})"
                )
    return None


_RAGGED = re.compile(
    r"CSV Error on Line: (\d+).*?Expected Number of Columns: (\d+) Found: (\d+)", re.S
)


def _read_error(path: Path, exc: BaseException) -> str:
    """DuckDB's read error in one line; a row of the wrong width (past the sniffer's sample)
    names its line and its field count."""
    ragged = _RAGGED.search(str(exc))
    if ragged:
        line, expected, found = ragged.groups()
        return f"{path.name}: line {line} has {found} fields, expected {expected}; nothing imported"
    return f"{path.name}: cannot be read as a table ({_first_line(exc)})"


def drop_table(name: str, home: Path) -> None:
    """Remove table `name` in one transaction (all of it, or nothing on a failure); a name
    that is not a source table is refused (ValueError), so nothing else can be dropped."""
    db = sources_path(home)
    if not db.is_file() or not _NAME.match(name or ""):
        raise ValueError(f"no table named {name!r}")
    with duckdb.connect(str(db)) as con:
        con.execute("BEGIN")
        try:
            found = con.execute(
                "SELECT count(*) FROM information_schema.tables "
                "WHERE table_schema = 'main' AND table_name = ?",
                [name],
            ).fetchone()[0]
            if not found or name.startswith("_"):
                raise ValueError(f"no table named {name!r}")
            con.execute(f'DROP TABLE "{name}"')
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise


def list_tables(home: Path) -> list[TableInfo]:
    db = sources_path(home)
    if not db.is_file():
        return []
    with _connect(db) as con:
        names = [
            r[0]
            for r in con.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' "
                "ORDER BY table_name"
            ).fetchall()
        ]
        return [_describe(con, n) for n in names if not n.startswith("_")]


def describe(name: str, home: Path) -> TableInfo:
    with _connect(sources_path(home)) as con:
        return _describe(con, name)


def column_ranges(name: str, columns: list[str], home: Path) -> dict[str, tuple[float, float]]:
    """(min, max) of each of `columns` (numeric) of table `name`: the values a comparison on
    that column can meet. Columns holding only NULLs are left out."""
    if not columns:
        return {}
    parts = ", ".join(f'min("{c}"), max("{c}")' for c in (x.replace('"', '""') for x in columns))
    with _connect(sources_path(home)) as con:
        row = con.execute(f'SELECT {parts} FROM "{name}"').fetchone()
    return {
        c: (float(row[2 * i]), float(row[2 * i + 1]))
        for i, c in enumerate(columns)
        if row[2 * i] is not None
    }


def _describe(con, name: str) -> TableInfo:
    cols = con.execute(
        "SELECT column_name, data_type, comment FROM duckdb_columns() WHERE table_name = ? "
        "ORDER BY column_index",
        [name],
    ).fetchall()
    rows = con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
    return TableInfo(name, rows, [(c, t) for c, t, _ in cols], {c: d for c, _, d in cols if d})


# -- guarded queries -------------------------------------------------------------------------
def check_sql(sql: str, tables: set[str]) -> exp.Expression:
    """Parse and vet one query; SQLRefused says why it is refused."""
    if not isinstance(sql, str) or not sql.strip():
        raise SQLRefused("the query is empty")
    if len(sql) > 20_000:
        raise SQLRefused("the query is longer than 20,000 characters")
    try:
        statements = [s for s in sqlglot.parse(sql, read="duckdb") if s is not None]
    except sqlglot.errors.ParseError as exc:
        raise SQLRefused(f"the query does not parse: {_first_line(exc)}") from None
    if len(statements) != 1:
        raise SQLRefused(f"one statement at a time ({len(statements)} given)")
    tree = statements[0]
    if not isinstance(tree, exp.Query):
        raise SQLRefused(f"only SELECT queries are allowed, not {tree.key.upper()}")
    for node in tree.walk():
        if isinstance(
            node,
            exp.Command
            | exp.Pragma
            | exp.Set
            | exp.Copy
            | exp.Insert
            | exp.Update
            | exp.Delete
            | exp.Create
            | exp.Drop
            | exp.Alter,
        ):
            raise SQLRefused(f"{node.key.upper()} is not allowed")
        if isinstance(node, exp.Table):
            if not isinstance(node.this, exp.Identifier):
                raise SQLRefused("tables must be named source tables (no table functions)")
            name = node.name
            if node.args.get("db") or node.args.get("catalog"):
                raise SQLRefused(f"{node.sql()}: only the source tables are visible")
            if name not in tables and name not in _ctes(tree):
                raise SQLRefused(
                    f"unknown table {name!r}; source tables: {', '.join(sorted(tables))}"
                )
        if isinstance(node, exp.Anonymous | exp.Func):
            if _is_file_function(node):
                raise SQLRefused(f"function {_func_name(node)}() reads files; not allowed")
            if _func_name(node) in _SETTING_FUNCS:
                raise SQLRefused(
                    f"function {_func_name(node)}() reads the server's settings; not allowed"
                )
    joined = [t for t in tree.find_all(exp.Table)]
    if len(joined) > MAX_TABLES_IN_QUERY:
        raise SQLRefused(f"at most {MAX_TABLES_IN_QUERY} table references per query")
    for join in tree.find_all(exp.Join):
        on = join.args.get("on")
        if not join.args.get("using") and (on is None or not any(on.find_all(exp.Column))):
            raise SQLRefused("joins need an ON condition on columns, or USING (no cross joins)")
    return tree


def run_sql(
    sql: str,
    home: Path,
    *,
    timeout_s: float = 5.0,
    max_rows: int = 1000,
    memory_mb: int = worker.MEMORY_MB,
) -> SQLResult:
    """check_sql, then run in a query worker (core.worker) on a sandboxed read-only connection
    with a row cap, a time limit and a memory cap that hold whatever the query does (DuckDB's
    interrupt is not checked inside a scalar function)."""
    db = sources_path(home)
    if not db.is_file():
        raise SQLRefused("no table sources yet: import one with `knowloop table FILE.csv`")
    start = time.monotonic()
    with _connect(db) as con:
        tables = {
            r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()
        }
    check_sql(sql, tables)
    try:
        columns, rows, truncated = worker.call(
            "sql", worker.Limits(timeout_s, memory_mb), started=start,
            db=str(db), sql=sql, max_rows=max_rows, config=dict(SAFE_CONFIG),
        )  # fmt: skip
    except worker.LimitExceeded as exc:
        raise SQLRefused(str(exc)) from None
    except worker.WorkerFault as exc:
        raise SQLRefused(f"DuckDB refused the query: {_first_line(exc)}") from None
    return SQLResult(columns, rows, truncated, (time.monotonic() - start) * 1000)


def _connect(db: Path):
    return duckdb.connect(str(db), read_only=True, config=dict(SAFE_CONFIG))


def _ctes(tree: exp.Expression) -> set[str]:
    return {cte.alias for cte in tree.find_all(exp.CTE)}


_FILE_FUNCS = re.compile(
    r"^(read_|glob$|parquet_|sniff_csv|iceberg_|delta_scan|query_table|"
    r"query$|sql_auto_complete|duckdb_|pragma_|which_secret|getenv)",
    re.I,
)


_SETTING_FUNCS = {"current_setting", "getvariable"}  # settings hold workspace paths


def _func_name(node: exp.Expression) -> str:
    return (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()


def _is_file_function(node: exp.Expression) -> bool:
    return bool(_FILE_FUNCS.match(_func_name(node)))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
