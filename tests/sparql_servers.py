"""Real SPARQL servers on 127.0.0.1 for the remote-KB tests and benchmark: the Oxigraph server
(PyPI `oxigraph`) and Virtuoso Open Source 7 (Debian `virtuoso-opensource`, installed by
`scripts/setup.sh --with-browser`). Each is started on free ports in a directory of its own,
loaded with an N-Triples file, and stopped on exit; a missing server binary skips the test."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyoxigraph as ox

from tests.processes import free_port, stop

REMOTE_BASE = "http://movies.example.org/"  # a server's own IRIs, not KnowLoop's namespace
VIRTUOSO_GRAPH = REMOTE_BASE + "graph"


def export_ntriples(store_dir: Path, out: Path, local_base: str) -> Path:
    """A KB's store as N-Triples under the remote namespace (what a team's server holds)."""
    store = ox.Store.read_only(str(store_dir))
    text = store.dump(format=ox.RdfFormat.N_TRIPLES, from_graph=ox.DefaultGraph()).decode()
    out.write_text(text.replace(local_base, REMOTE_BASE))
    return out


def oxigraph_binary() -> str | None:
    here = Path(sys.executable).with_name("oxigraph")
    return str(here) if here.exists() else shutil.which("oxigraph")


def virtuoso_binaries() -> tuple[str, str] | None:
    server, isql = shutil.which("virtuoso-t"), shutil.which("isql-vt")
    return (server, isql) if server and isql else None


def _wait(url: str, proc: subprocess.Popen, log: Path, seconds: float = 60) -> None:
    query = url + "?" + urllib.parse.urlencode({"query": "ASK { ?s ?p ?o }"})
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(query, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the SPARQL server did not start:\n{log.read_text()[-2000:]}")
        time.sleep(0.2)


@contextmanager
def oxigraph_server(ntriples: Path, workdir: Path) -> Iterator[str]:
    """`oxigraph load` then `oxigraph serve`; yields the query endpoint URL."""
    binary = oxigraph_binary()
    if binary is None:
        raise FileNotFoundError("the oxigraph server (pip install oxigraph) is not installed")
    data, log = workdir / "oxigraph-data", workdir / "oxigraph.log"
    subprocess.run([binary, "load", "--location", str(data), "--file", str(ntriples)],
                   check=True, capture_output=True)  # fmt: skip
    port = free_port()
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [binary, "serve-read-only", "--location", str(data), "--bind", f"127.0.0.1:{port}"],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}/query"
    try:
        _wait(url, proc, log)
        yield url
    finally:
        stop(proc)


VIRTUOSO_INI = """[Database]
DatabaseFile = {d}/virtuoso.db
ErrorLogFile = {d}/virtuoso.log
LockFile = {d}/virtuoso.lck
TransactionFile = {d}/virtuoso.trx
xa_persistent_file = {d}/virtuoso.pxa
[TempDatabase]
DatabaseFile = {d}/virtuoso-temp.db
TransactionFile = {d}/virtuoso-temp.trx
[Parameters]
ServerPort = 127.0.0.1:{isql}
DisableUnixSocket = 1
DirsAllowed = ., {d}
NumberOfBuffers = 30000
MaxDirtyBuffers = 20000
MaxQueryMem = 1G
ThreadsPerQuery = 2
[HTTPServer]
ServerPort = 127.0.0.1:{http}
ServerRoot = {d}
ServerThreads = 4
Charset = UTF-8
[SPARQL]
ResultSetMaxRows = {max_rows}
MaxQueryExecutionTime = 60
MaxQueryCostEstimationTime = 400
"""


@contextmanager
def virtuoso_server(ntriples: Path, workdir: Path, max_rows: int = 1_000_000) -> Iterator[str]:
    """A Virtuoso instance of its own (database, ports, ini in `workdir`), the file bulk-loaded
    into VIRTUOSO_GRAPH with isql; yields the /sparql URL. `max_rows` is the server's answer
    cap (Virtuoso ships with 10,000: `connect` then reads page by page)."""
    found = virtuoso_binaries()
    if found is None:
        raise FileNotFoundError("Virtuoso (apt-get install virtuoso-opensource) is not installed")
    server, isql = found
    d = workdir / "virtuoso"
    d.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(ntriples, d / "kb.nt")
    isql_port, http_port = free_port(), free_port()
    (d / "virtuoso.ini").write_text(
        VIRTUOSO_INI.format(d=d, isql=isql_port, http=http_port, max_rows=max_rows)
    )
    log = d / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([server, "+configfile", str(d / "virtuoso.ini"), "+foreground"],
                                cwd=d, stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    url = f"http://127.0.0.1:{http_port}/sparql"
    try:
        _wait(url, proc, log, seconds=120)
        # the free-text index on literals (bif:contains), which a lazily indexed endpoint
        # links names with (core.kg.remote_lazy); Virtuoso leaves it off until asked
        script = ("DB.DBA.RDF_OBJ_FT_RULE_ADD(null, null, 'knowloop'); "
                  f"ld_dir('{d}', 'kb.nt', '{VIRTUOSO_GRAPH}'); rdf_loader_run(); "
                  "DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ(); checkpoint;")  # fmt: skip
        subprocess.run([isql, f"127.0.0.1:{isql_port}", "dba", "dba", f"exec={script}"],
                       check=True, capture_output=True, timeout=300)  # fmt: skip
        yield url
    finally:
        stop(proc, grace_s=30)
