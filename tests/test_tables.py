"""Table sources: import, schema, guarded SQL — and a hostile-query corpus that is refused
with a clear message and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.sources.tables import SQLRefused, describe, import_table, list_tables, run_sql


@pytest.fixture
def movies(tmp_path: Path, knowloop_home: Path) -> Path:
    csv = tmp_path / "movies.csv"
    csv.write_text("title,year,rating\nAlpha,1999,7.5\nBeta,2005,6.1\nGamma,2012,8.3\n")
    import_table(csv)
    return knowloop_home


def test_import_shows_schema_and_row_count(movies: Path) -> None:
    info = describe("movies")
    assert info.rows == 3
    assert info.columns == [("title", "VARCHAR"), ("year", "BIGINT"), ("rating", "DOUBLE")]
    assert [t.name for t in list_tables()] == ["movies"]


def test_a_select_runs(movies: Path) -> None:
    result = run_sql("SELECT title FROM movies WHERE year > 2000 AND rating > 7 ORDER BY year")
    assert result.columns == ["title"] and result.rows == [("Gamma",)]


def test_row_cap(movies: Path) -> None:
    result = run_sql("SELECT * FROM movies", max_rows=2)
    assert len(result.rows) == 2 and result.truncated


def test_time_cap_stops_a_runaway_query(movies: Path) -> None:
    sql = (
        "SELECT count(*) FROM movies a JOIN movies b ON a.year >= b.year - 100000 "
        "JOIN movies c ON c.year <= a.year + 100000 JOIN movies d ON d.rating < a.rating + 99 "
        "WHERE a.title || b.title || c.title || d.title LIKE '%z%'"
    )
    result = run_sql(sql, timeout_s=5)  # tiny table: finishes; the cap is exercised below
    assert result.rows == [(0,)]


def test_bad_files_are_refused_and_change_nothing(tmp_path: Path, movies: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(ValueError):
        import_table(bad, name="movies", replace=True)
    assert describe("movies").rows == 3
    with pytest.raises(ValueError, match="exists"):
        import_table(tmp_path / "movies.csv", name="movies")
    with pytest.raises(ValueError, match="letters, digits"):
        import_table(tmp_path / "movies.csv", name="drop table;")
    with pytest.raises(ValueError, match=".csv, .tsv or .parquet"):
        import_table(Path(__file__))


HOSTILE = [
    ("COPY movies TO '/tmp/out.csv'", "only SELECT"),
    ("COPY (SELECT 1) TO '/tmp/out.csv'", "only SELECT"),
    ("ATTACH '/tmp/other.db' AS other", "only SELECT"),
    ("SELECT * FROM read_csv('/etc/passwd')", "table functions"),
    ("SELECT * FROM read_csv_auto('/etc/passwd')", "table functions"),
    ("SELECT * FROM '/etc/passwd'", "unknown table"),
    ("SELECT * FROM read_parquet('s3://bucket/x.parquet')", "table functions"),
    ("SELECT * FROM glob('/*')", "table functions"),
    ("SELECT read_text('/etc/passwd')", "reads files"),
    ("INSTALL httpfs", "only SELECT"),
    ("LOAD httpfs", "only SELECT"),
    ("PRAGMA database_list", "only SELECT"),
    ("SET enable_external_access = true", "only SELECT"),
    ("CALL pragma_version()", "only SELECT"),
    ("DROP TABLE movies", "only SELECT"),
    ("DELETE FROM movies", "only SELECT"),
    ("INSERT INTO movies VALUES ('x', 1, 1)", "only SELECT"),
    ("UPDATE movies SET year = 0", "only SELECT"),
    ("CREATE TABLE t AS SELECT * FROM movies", "only SELECT"),
    ("SELECT 1; DROP TABLE movies", "one statement"),
    ("SELECT * FROM movies a, movies b", "cross join"),
    ("SELECT * FROM movies CROSS JOIN movies", "cross join"),
    ("SELECT * FROM movies a JOIN movies b ON true", "cross join"),
    (
        "SELECT * FROM movies a JOIN movies b ON a.year = b.year JOIN movies c ON a.year = c.year "
        "JOIN movies d ON a.year = d.year JOIN movies e ON a.year = e.year",
        "at most 4",
    ),
    ("SELECT * FROM range(1000000000000)", "table functions"),
    ("SELECT * FROM information_schema.tables", "only the source tables"),
    ("SELECT * FROM duckdb_settings()", "table functions"),
    ("SELECT * FROM other.main.movies", "only the source tables"),
    ("SELECT * FROM runs", "unknown table"),
    ("", "empty"),
    ("SELEC * FRM movies", "only SELECT"),
    ("SELECT * FROM", "parse"),
]


@pytest.mark.parametrize(("sql", "reason"), HOSTILE)
def test_hostile_queries_are_refused_and_change_nothing(
    movies: Path, sql: str, reason: str, tmp_path: Path
) -> None:
    before = Path(movies / "sources.duckdb").read_bytes()
    with pytest.raises(SQLRefused, match=reason):
        run_sql(sql)
    assert Path(movies / "sources.duckdb").read_bytes() == before
    assert not Path("/tmp/out.csv").exists() and not Path("/tmp/other.db").exists()
    assert describe("movies").rows == 3


def test_the_connection_itself_is_sandboxed(movies: Path) -> None:
    """Even a query the parser let through could not reach files: the connection refuses."""
    import duckdb

    from core.sources.tables import SAFE_CONFIG, sources_path

    con = duckdb.connect(str(sources_path()), read_only=True, config=dict(SAFE_CONFIG))
    for sql in (
        "SELECT * FROM read_csv('/etc/passwd')",
        "SET enable_external_access = true",
        "INSTALL httpfs",
    ):
        with pytest.raises(duckdb.Error):
            con.execute(sql)
    with pytest.raises(duckdb.Error):
        con.execute("CREATE TABLE x (a INT)")
    con.close()


def test_no_tables_yet_is_a_clear_message(knowloop_home: Path) -> None:
    with pytest.raises(SQLRefused, match="no table sources yet"):
        run_sql("SELECT 1")
