"""Hostile and runaway queries, shared by the tests and ``benchmarks/bench_hostile.py``.

Each entry is (query, expected outcome, fragment of the message). Outcomes:
``refused`` — stopped by the static guard before anything runs; ``limit`` — runs, and a hard
limit (time or memory) stops it; ``ok`` — a heavy-looking query that is bounded and answers.
The SPARQL queries use variables only, so they run on any KB of a few thousand triples or more;
the SQL queries use the table ``t(x BIGINT, s VARCHAR)`` written by :func:`write_table`.
"""

from __future__ import annotations

from pathlib import Path

LIMIT = "limit"  # either hard limit: the message says which
_ALL = "SELECT * WHERE { ?s ?p ?o }"

SPARQL: list[tuple[str, str, str]] = [
    # -- updates, in every form (the store is read-only) --------------------------------------
    ("INSERT DATA { <urn:a> <urn:b> <urn:c> }", "refused", "updates are not allowed"),
    ("insert data { <urn:a> <urn:b> 'x' }", "refused", "updates are not allowed"),
    ("DELETE DATA { <urn:a> <urn:b> <urn:c> }", "refused", "updates are not allowed"),
    ("DELETE WHERE { ?s ?p ?o }", "refused", "updates are not allowed"),
    ("DELETE { ?s ?p ?o } INSERT { ?s ?p 1 } WHERE { ?s ?p ?o }", "refused", "updates"),
    ("WITH <urn:g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }", "refused", "updates are not"),
    ("DROP ALL", "refused", "updates are not allowed"),
    ("DROP SILENT GRAPH <urn:g>", "refused", "updates are not allowed"),
    ("CLEAR DEFAULT", "refused", "updates are not allowed"),
    ("LOAD <http://example.org/data.ttl>", "refused", "updates are not allowed"),
    ("CREATE GRAPH <urn:g>", "refused", "updates are not allowed"),
    ("ADD DEFAULT TO <urn:g>", "refused", "updates are not allowed"),
    ("MOVE DEFAULT TO <urn:g>", "refused", "updates are not allowed"),
    ("COPY DEFAULT TO <urn:g>", "refused", "updates are not allowed"),
    ("SELECT * WHERE { ?s ?p ?o } ; DROP ALL", "refused", "syntax error"),
    # -- federation and remote datasets --------------------------------------------------------
    ("SELECT * WHERE { SERVICE <http://remote/sparql> { ?s ?p ?o } }", "refused", "SERVICE"),
    ("SELECT * WHERE { SERVICE SILENT <http://r/> { ?s ?p ?o } }", "refused", "SERVICE"),
    ("SELECT * WHERE { SERVICE ?endpoint { ?s ?p ?o } }", "refused", "SERVICE ?endpoint"),
    ("PREFIX r: <http://remote/> SELECT * WHERE { SERVICE r:sparql { ?s ?p ?o } }",
     "refused", "SERVICE r:sparql"),
    ("SELECT * { ?s ?p ?o OPTIONAL { SERVICE <http://r> { ?s ?q ?v } } } LIMIT 1",
     "refused", "SERVICE"),
    ("ASK { FILTER EXISTS { { SELECT ?s { SERVICE ?svc { ?s ?p ?o } } } } }", "refused", "SERVICE"),
    ("SELECT * FROM <http://evil/graph> WHERE { ?s ?p ?o }", "refused", "remote FROM"),
    ("SELECT * FROM NAMED <urn:g> WHERE { GRAPH ?g { ?s ?p ?o } }", "refused", "FROM NAMED"),
    # -- text the guard refuses before parsing -------------------------------------------------
    ("", "refused", "empty"),
    ("   \n\t ", "refused", "empty"),
    (_ALL + " " * 20_001, "refused", "too long"),
    ("SELECT * WHERE { ?s ?p ?o \x00 }", "refused", "control character"),
    ("SELECT * WHERE " + "{ " * 40 + "?s ?p ?o" + " }" * 40, "refused", "nests brackets"),
    ("SELEC garbage {", "refused", "syntax error"),
    ("SELECT * WHERE { ?s ?p }", "refused", "syntax error"),
    ("\ufeffSELECT * WHERE { ?s ?p ?o", "refused", "syntax error"),
    # -- flat cartesian products (refused with a reason) ---------------------------------------
    ("SELECT * { ?a ?b ?c . ?d ?e ?f }", "refused", "cartesian product"),
    ("SELECT (COUNT(*) AS ?n) { ?a ?b ?c . ?d ?e ?f }", "refused", "cartesian product"),
    ("SELECT * { ?a ?b ?c FILTER(?c != 1) ?d ?e ?f }", "refused", "cartesian product"),
    ("SELECT * { ?a ?b ?c . ?d ?e ?f } ORDER BY ?a", "refused", "cartesian product"),
    # -- products the static check cannot see: nested groups, sub-selects, OPTIONAL ------------
    ("SELECT (COUNT(*) AS ?n) WHERE { { ?a ?b ?c } { ?x ?y ?z } }", LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { { SELECT * { ?a ?b ?c } } { SELECT * { ?x ?y ?z } } }",
     LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c OPTIONAL { ?x ?y ?z } }", LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { { ?a ?b ?c } UNION { ?a ?b ?c } { ?x ?y ?z } }",
     LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { { ?a ?b ?c } MINUS { ?a <urn:none> ?c } { ?x ?y ?z } }",
     LIMIT, "limit"),
    ("SELECT * WHERE { { ?a ?b ?c } { ?x ?y ?z } } ORDER BY ?a ?x", LIMIT, "limit"),
    ("SELECT DISTINCT ?a ?x WHERE { { ?a ?b ?c } { ?x ?y ?z } }", "ok", ""),  # streamed: row cap
    ("SELECT (GROUP_CONCAT(CONCAT(STR(?a), STR(?x))) AS ?g) WHERE { { ?a ?b ?c } { ?x ?y ?z } }",
     LIMIT, "limit"),
    ("SELECT ?a (COUNT(?x) AS ?n) WHERE { { ?a ?b ?c } { ?x ?y ?z } } GROUP BY ?a",
     LIMIT, "limit"),
    ("ASK { { ?a ?b ?c } { ?x ?y ?z } FILTER(STR(?a) = CONCAT(STR(?x), 'never')) }",
     LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c FILTER NOT EXISTS { ?x ?y ?z FILTER(?x = ?c && "
     "?z = ?a && ?y = <urn:none>) } { ?u ?v ?w } }", LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c { SELECT ?x WHERE { ?x ?y ?z } } }",
     LIMIT, "limit"),
    ("CONSTRUCT { ?a <urn:pair> ?x } WHERE { { ?a ?b ?c } { ?x ?y ?z } } ORDER BY ?x",
     LIMIT, "limit"),
    # -- connected but explosive joins ---------------------------------------------------------
    ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?p ?d . ?e ?p ?f }", LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?o . ?b ?q ?o . ?b ?r ?c . ?d ?s ?c . ?d ?t ?e }",
     LIMIT, "limit"),
    ("SELECT (COUNT(DISTINCT ?e) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?b . ?c ?r ?d . ?e ?s ?d . "
     "?e ?t ?f . ?g ?u ?f }", LIMIT, "limit"),
    # -- property paths over the whole graph ---------------------------------------------------
    ("SELECT DISTINCT ?o WHERE { ?s (!<urn:x>|^!<urn:x>)+ ?o }", LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?s (!<urn:x>|^!<urn:x>)* ?o }", LIMIT, "limit"),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?s (<urn:x>|!<urn:x>)/(^!<urn:x>)/(!<urn:x>)/(^!<urn:x>) "
     "?o }", LIMIT, "limit"),
    # -- expensive expressions on every row ----------------------------------------------------
    ('SELECT ?s WHERE { { ?s ?p ?o } { ?x ?y ?z } FILTER regex(CONCAT(STR(?o), STR(?z)), '
     '"^(a+)+$") }', LIMIT, "limit"),
    ("SELECT (MAX(STRLEN(CONCAT(STR(?o), STR(?o), STR(?o), STR(?z)))) AS ?n) WHERE { { ?s ?p ?o }"
     " { ?x ?y ?z } }", LIMIT, "limit"),
    ("SELECT (SUM(STRLEN(SHA512(CONCAT(STR(?s), STR(?x))))) AS ?n) WHERE { { ?s ?p ?o } "
     "{ ?x ?y ?z } }", LIMIT, "limit"),
    # -- heavy-looking but bounded: must still answer ------------------------------------------
    (_ALL + " LIMIT 5", "ok", ""),
    ("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", "ok", ""),
    ("SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p ORDER BY DESC(?n)", "ok", ""),
    (_ALL + " ORDER BY DESC(STR(?o))", LIMIT, "time limit"),  # ~25 s for 172k rows here
    ('SELECT ?s WHERE { ?s ?p ?o FILTER regex(STR(?o), "^(a+)+$") } LIMIT 3', "ok", ""),
    ("ASK { ?s ?p ?o }", "ok", ""),
    ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o } LIMIT 10", "ok", ""),
    ("DESCRIBE ?s WHERE { ?s ?p ?o } LIMIT 2", "ok", ""),
    ("SELECT * WHERE { ?s ?p ?o . ?o ?q ?x } LIMIT 10", "ok", ""),
    ("SELECT ?s WHERE { ?s ?p 'INSERT DATA' }", "ok", ""),
]

SQL: list[tuple[str, str, str]] = [
    # -- anything but one SELECT -----------------------------------------------------------
    ("COPY t TO '/tmp/knowloop-out.csv'", "refused", "only SELECT"),
    ("COPY (SELECT 1) TO '/tmp/knowloop-out.csv'", "refused", "only SELECT"),
    ("EXPORT DATABASE '/tmp/knowloop-export'", "refused", "does not parse"),
    ("ATTACH '/tmp/knowloop-other.db' AS other", "refused", "only SELECT"),
    ("DETACH sources", "refused", "only SELECT"),
    ("INSTALL httpfs", "refused", "only SELECT"),
    ("LOAD httpfs", "refused", "only SELECT"),
    ("PRAGMA database_list", "refused", "only SELECT"),
    ("SET enable_external_access = true", "refused", "only SELECT"),
    ("RESET lock_configuration", "refused", "only SELECT"),
    ("CALL pragma_version()", "refused", "only SELECT"),
    ("CHECKPOINT", "refused", "only SELECT"),
    ("VACUUM", "refused", "only SELECT"),
    ("DROP TABLE t", "refused", "only SELECT"),
    ("DELETE FROM t", "refused", "only SELECT"),
    ("INSERT INTO t VALUES (1, 'x')", "refused", "only SELECT"),
    ("UPDATE t SET x = 0", "refused", "only SELECT"),
    ("CREATE TABLE u AS SELECT * FROM t", "refused", "only SELECT"),
    ("CREATE MACRO m(a) AS a", "refused", "only SELECT"),
    ("ALTER TABLE t ADD COLUMN y INT", "refused", "only SELECT"),
    ("SELECT 1; DROP TABLE t", "refused", "one statement"),
    ("SHOW TABLES", "refused", "only SELECT"),
    ("", "refused", "empty"),
    ("SELECT * FROM", "refused", "parse"),
    ("SELECT " + "1 + " * 6000 + "1", "refused", "longer than 20,000"),
    # -- files, network, settings ----------------------------------------------------------
    ("SELECT * FROM read_csv('/etc/passwd')", "refused", "table functions"),
    ("SELECT * FROM read_csv_auto('/etc/passwd')", "refused", "table functions"),
    ("SELECT * FROM read_parquet('s3://bucket/x.parquet')", "refused", "table functions"),
    ("SELECT * FROM read_json('http://example.org/x.json')", "refused", "table functions"),
    ("SELECT * FROM '/etc/passwd'", "refused", "unknown table"),
    ('SELECT * FROM "/etc/passwd"', "refused", "unknown table"),
    ("SELECT * FROM glob('/*')", "refused", "table functions"),
    ("SELECT read_text('/etc/passwd')", "refused", "reads files"),
    ("SELECT (SELECT read_blob('/etc/passwd'))", "refused", "reads files"),
    ("SELECT 1 UNION ALL SELECT length(read_text('/etc/hostname'))", "refused", "reads files"),
    ("SELECT getenv('HOME')", "refused", "reads files"),
    ("SELECT current_setting('temp_directory')", "refused", "settings"),
    ("SELECT getvariable('x')", "refused", "settings"),
    ("SELECT * FROM duckdb_settings()", "refused", "table functions"),
    ("SELECT * FROM sqlite_scan('/tmp/x.db', 'a')", "refused", "table functions"),
    ("SELECT * FROM information_schema.tables", "refused", "only the source tables"),
    ("SELECT * FROM other.main.t", "refused", "only the source tables"),
    ("SELECT * FROM runs", "refused", "unknown table"),
    # -- unbounded joins -------------------------------------------------------------------
    ("SELECT * FROM t a, t b", "refused", "cross join"),
    ("SELECT * FROM t CROSS JOIN t", "refused", "cross join"),
    ("SELECT * FROM t a JOIN t b ON true", "refused", "cross join"),
    ("SELECT * FROM t a JOIN t b ON 1 = 1", "refused", "cross join"),
    ("SELECT * FROM t a JOIN t b ON a.x = b.x JOIN t c ON a.x = c.x JOIN t d ON a.x = d.x "
     "JOIN t e ON a.x = e.x", "refused", "at most 4"),
    ("SELECT * FROM range(1000000000000)", "refused", "table functions"),
    ("SELECT * FROM generate_series(1, 1000000000000)", "refused", "table functions"),
    # -- runaway work inside a SELECT ------------------------------------------------------
    ("SELECT len(range(500000000)) AS n", LIMIT, "memory limit"),
    ("SELECT len(range(5000000000)) AS n", "refused", "Lists larger than 2^32"),
    ("SELECT repeat('x', 2000000000)", LIMIT, "memory limit"),
    ("SELECT string_agg(repeat('ab', 100000), ',') FROM t", LIMIT, "memory limit"),
    ("SELECT len(list(range(100000))) FROM t", LIMIT, "limit"),
    ("SELECT list_sort(range(300000000))", LIMIT, "limit"),
    ("SELECT count(*) FROM t a JOIN t b ON a.x <> b.x", LIMIT, "time limit"),
    ("SELECT sum(a.x * b.x) FROM t a JOIN t b ON a.x >= b.x", LIMIT, "time limit"),
    ("SELECT count(*) FROM t a JOIN t b ON a.s < b.s JOIN t c ON b.s < c.s", LIMIT, "time limit"),
    ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r",
     LIMIT, "limit"),
    ("WITH RECURSIVE r(n, s) AS (SELECT 1, 'x' UNION ALL SELECT n + 1, s || s FROM r "
     "WHERE n < 40) SELECT max(length(s)) FROM r", LIMIT, "limit"),
    ("SELECT count(*) FROM (SELECT unnest(range(1000000)) FROM t)", LIMIT, "limit"),
    ("SELECT md5(string_agg(a.s || b.s, '')) FROM t a JOIN t b ON a.x > b.x", LIMIT, "limit"),
    # -- heavy-looking but bounded: must still answer --------------------------------------
    ("SELECT count(*) FROM t", "ok", ""),
    ("SELECT x FROM t ORDER BY random() LIMIT 3", "ok", ""),
    ("SELECT s, count(*) FROM t GROUP BY s ORDER BY 2 DESC LIMIT 5", "ok", ""),
    ("SELECT len(range(1000000)) AS n", "ok", ""),
    ("SELECT count(*) FROM t a JOIN t b ON a.x = b.x", "ok", ""),
    ("SELECT 'DROP TABLE t' AS text", "ok", ""),
]


def write_table(path: Path, rows: int = 50_000) -> Path:
    """A CSV for ``t``: ``x`` 1..rows and ``s`` a short string with ~1,000 distinct values."""
    lines = ["x,s"] + [f"{i},name{i % 997:04d}" for i in range(1, rows + 1)]
    path.write_text("\n".join(lines) + "\n")
    return path
