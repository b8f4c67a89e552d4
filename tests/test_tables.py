"""Table sources: import, schema, guarded SQL — and a hostile-query corpus that is refused
with a clear message and changes nothing."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from core.sources.tables import (
    SQLRefused,
    describe,
    import_table,
    list_tables,
    run_sql,
    sources_path,
)
from tests.fast_loop import spread
from tests.hostile_corpus import SQL as SQL_CORPUS

MOVIES_CSV = "title,year,rating\nAlpha,1999,7.5\nBeta,2005,6.1\nGamma,2012,8.3\n"


@pytest.fixture
def movies(tmp_path: Path, knowloop_home: Path) -> Path:
    """A workspace with one small table, for tests that change it."""
    csv = tmp_path / "movies.csv"
    csv.write_text(MOVIES_CSV)
    import_table(csv, home=knowloop_home)
    return knowloop_home


@pytest.fixture(scope="module")
def unchanged_movies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same workspace shared by the tests that prove a refusal changes nothing (each
    compares the database file's bytes before and after)."""
    home = tmp_path_factory.mktemp("movies-home")
    csv = home.parent / f"{home.name}.csv"
    csv.write_text(MOVIES_CSV)
    import_table(csv, "movies", home=home)
    return home


def test_import_shows_schema_and_row_count(movies: Path) -> None:
    info = describe("movies", home=movies)
    assert info.rows == 3
    assert info.columns == [("title", "VARCHAR"), ("year", "BIGINT"), ("rating", "DOUBLE")]
    assert [t.name for t in list_tables(home=movies)] == ["movies"]


def test_a_select_runs(movies: Path) -> None:
    result = run_sql(
        "SELECT title FROM movies WHERE year > 2000 AND rating > 7 ORDER BY year", home=movies
    )
    assert result.columns == ["title"] and result.rows == [("Gamma",)]


def test_row_cap(movies: Path) -> None:
    result = run_sql("SELECT * FROM movies", max_rows=2, home=movies)
    assert len(result.rows) == 2 and result.truncated


def test_time_cap_stops_a_runaway_query(movies: Path) -> None:
    sql = (
        "SELECT count(*) FROM movies a JOIN movies b ON a.year >= b.year - 100000 "
        "JOIN movies c ON c.year <= a.year + 100000 JOIN movies d ON d.rating < a.rating + 99 "
        "WHERE a.title || b.title || c.title || d.title LIKE '%z%'"
    )
    result = run_sql(
        sql, timeout_s=5, home=movies
    )  # tiny table: finishes; the cap is exercised below
    assert result.rows == [(0,)]


def test_bad_files_are_refused_and_change_nothing(tmp_path: Path, movies: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(ValueError):
        import_table(bad, name="movies", replace=True, home=movies)
    assert describe("movies", home=movies).rows == 3
    with pytest.raises(ValueError, match="exists"):
        import_table(tmp_path / "movies.csv", name="movies", home=movies)
    with pytest.raises(ValueError, match="letters, digits"):
        import_table(tmp_path / "movies.csv", name="drop table;", home=movies)
    with pytest.raises(ValueError, match=".csv, .tsv or .parquet"):
        import_table(Path(__file__), home=movies)


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


@pytest.mark.parametrize(("sql", "reason"), spread(HOSTILE, keep=8))
def test_hostile_queries_are_refused_and_change_nothing(
    unchanged_movies: Path, sql: str, reason: str
) -> None:
    movies = unchanged_movies
    before = Path(movies / "sources.duckdb").read_bytes()
    with pytest.raises(SQLRefused, match=reason):
        run_sql(sql, home=movies)
    assert Path(movies / "sources.duckdb").read_bytes() == before
    assert not Path("/tmp/out.csv").exists() and not Path("/tmp/other.db").exists()
    assert describe("movies", home=movies).rows == 3


def test_the_connection_itself_is_sandboxed(movies: Path) -> None:
    """Even a query the parser let through could not reach files: the connection refuses."""
    import duckdb

    from core.sources.tables import SAFE_CONFIG, sources_path

    con = duckdb.connect(str(sources_path(home=movies)), read_only=True, config=dict(SAFE_CONFIG))
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
        run_sql("SELECT 1", home=knowloop_home)


# -- files DuckDB would load wrongly without a word (issue 14, part 8) ---------------------

REFUSED_CSV = [
    pytest.param(b"", "the file is empty", id="zero-bytes"),
    pytest.param(b"\n \n", "the file is empty", id="blank-lines"),
    pytest.param(b"title,year,rating\n", "a header but no data rows", id="header-only"),
    pytest.param(
        b"title,year,rating\nAlpha,1999,7.5\nBeta,2005\nGamma,2012,8.3\n",
        r"line 3 has 2 fields, expected 3",
        id="ragged-short",
    ),
    pytest.param(
        b"title;year;rating\nAlpha;1999;7.5\nBeta;2005;6.1;extra\n",
        r"line 3 has 4 fields, expected 3",
        id="ragged-long-semicolons",
    ),
    pytest.param(  # DuckDB's sniffer took the long last row as the table, dropping the rest
        b"a,b,c\n1,2,3\n3,4,5\n6,7,8,9\n",
        r"line 4 has 4 fields, expected 3",
        id="ragged-last-row-long",
    ),
    pytest.param(b"a\tb\tc\n1\t2\t3\n4\t5\n", r"line 3 has 2 fields, expected 3", id="ragged-tsv"),
    pytest.param(
        b"just some prose\nwith no delimiter\nat all\n",
        "could not find columns: the file looks like one column; is it a CSV?",
        id="one-column",
    ),
]


@pytest.mark.parametrize(("content", "reason"), REFUSED_CSV)
def test_empty_ragged_and_one_column_csv_are_refused(
    tmp_path: Path, unchanged_movies: Path, content: bytes, reason: str
) -> None:
    movies = unchanged_movies
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    before = (movies / "sources.duckdb").read_bytes()
    with pytest.raises(ValueError, match=reason):
        import_table(bad, home=movies)
    with pytest.raises(ValueError, match=reason):
        import_table(bad, name="movies", replace=True, home=movies)
    assert [t.name for t in list_tables(home=movies)] == ["movies"]
    assert describe("movies", home=movies).rows == 3
    assert (movies / "sources.duckdb").read_bytes() == before


def test_a_ragged_row_past_the_sniffers_sample_names_its_line(tmp_path: Path, movies: Path) -> None:
    rows = [f"{i},{i * 2},{i * 3}" for i in range(30_000)]
    rows[25_000] = "7,8"
    bad = tmp_path / "late.csv"
    bad.write_text("a,b,c\n" + "\n".join(rows) + "\n")
    with pytest.raises(ValueError, match="line 25002 has 2 fields, expected 3; nothing imported"):
        import_table(bad, home=movies)
    assert [t.name for t in list_tables(home=movies)] == ["movies"]


def test_parquet_is_unaffected(tmp_path: Path, movies: Path) -> None:
    import duckdb

    out = tmp_path / "words.parquet"
    with duckdb.connect() as con:  # one text column: refused from a CSV, fine from Parquet
        con.execute(f"COPY (SELECT 'w' || range AS word FROM range(5)) TO '{out}' (FORMAT parquet)")
    info = import_table(out, home=movies)
    assert (info.name, info.rows, info.columns) == ("words", 5, [("word", "VARCHAR")])


@pytest.mark.parametrize("command", ["table", "docs"])
def test_empty_name_is_refused(tmp_path: Path, movies: Path, command: str, capsys) -> None:
    from core.cli import main

    source = tmp_path / ("more.csv" if command == "table" else "notes.txt")
    source.write_text("title,year\nDelta,2020\n" if command == "table" else "A note.\n")
    assert main([command, str(source), "--name", ""]) == 2
    assert "knowloop: error: the name must not be empty" in capsys.readouterr().err
    assert [t.name for t in list_tables(home=movies)] == ["movies"]
    if command == "table":
        with pytest.raises(ValueError, match="the name must not be empty"):
            import_table(source, name="", home=movies)


# -- hard limits: the query runs in a worker that is killed at the limit --------------------


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 30,000-row table shared by the tests below: each one only reads or is refused."""
    from tests.hostile_corpus import write_table

    home = tmp_path_factory.mktemp("big-home")
    import_table(write_table(home.parent / f"{home.name}.csv", rows=30_000), "t", home=home)
    return home


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_scalar_work_is_stopped_at_the_memory_cap(big: Path) -> None:
    """DuckDB's interrupt is not checked inside range(): the worker's cap stops it."""
    t0 = time.monotonic()
    with pytest.raises(SQLRefused, match=r"^memory limit: the query needed more than 1,024 MB"):
        run_sql("SELECT len(range(500000000)) AS n", timeout_s=5, home=big)
    assert time.monotonic() - t0 < 6
    assert run_sql("SELECT count(*) FROM t", home=big).rows == [(30_000,)]  # a fresh worker answers


@pytest.mark.slow
def test_a_runaway_join_is_stopped_at_its_time_limit(big: Path) -> None:
    t0 = time.monotonic()
    with pytest.raises(SQLRefused) as info:
        # three tables: two (9e8 pairs) are counted within 1.5 s on a fast machine
        run_sql(
            "SELECT count(*) FROM t a JOIN t b ON a.x <> b.x JOIN t c ON b.x <> c.x",
            timeout_s=1.5,
            home=big,
        )
    assert str(info.value) == "time limit: the query ran longer than 1.5 s and was stopped"
    assert time.monotonic() - t0 < 2.5


def test_settings_are_not_readable(big: Path) -> None:
    with pytest.raises(SQLRefused, match="settings; not allowed"):
        run_sql("SELECT current_setting('temp_directory')", home=big)


@pytest.mark.parametrize(
    ("sql", "fragment"),
    spread([(q, f) for q, outcome, f in SQL_CORPUS if outcome == "refused"], keep=10),
)
def test_the_corpus_refusals_say_why(big: Path, sql: str, fragment: str) -> None:
    """The refused half of the hostile corpus (the runaway half: benchmarks/bench_hostile.py)."""
    before = sources_path(home=big).read_bytes()
    with pytest.raises(SQLRefused, match=re.escape(fragment)):
        run_sql(sql, home=big)
    assert sources_path(home=big).read_bytes() == before
    assert not Path("/tmp/knowloop-out.csv").exists()
    assert not Path("/tmp/knowloop-other.db").exists()
