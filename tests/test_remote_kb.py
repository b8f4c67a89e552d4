"""Remote KBs over the SPARQL 1.1 Protocol, against real servers started here on 127.0.0.1
(tests/sparql_servers.py): the Oxigraph server and Virtuoso 7, each loaded with the bundled
KB under its own IRIs. Where a server is not installed the tests skip, unless
KNOWLOOP_REQUIRE_SERVERS=1 (set by .ci/run, whose setup installs both): then they fail."""

from __future__ import annotations

import http.server
import itertools
import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

from core.engine import Engine
from core.kg.importer import KBFileError, kb_base_iri
from core.kg.remote import REMOTE_FILE, Endpoint, EndpointError, _read_results
from core.kg.sparql_guard import QueryRefused
from core.llm.client import LLMSettings
from core.loop import LoopSettings
from core.registry import PARADIGMS
from core.workspace import Workspace
from tests import sparql_servers as servers
from tests.processes import free_port

GRAPH = servers.VIRTUOSO_GRAPH
QUESTIONS = Path(__file__).resolve().parent.parent / "kb_data" / "metaqa"


def require(found: object, what: str) -> None:
    if found:
        return
    if os.environ.get("KNOWLOOP_REQUIRE_SERVERS") == "1":
        pytest.fail(f"{what} is not installed, and this run requires it (scripts/setup.sh)")
    pytest.skip(f"{what} is not installed")


# -- fast: the protocol client without a server --------------------------------------------------
def test_json_results_become_the_local_stores_term_ids() -> None:
    data = {
        "head": {"vars": ["x", "y"]},
        "results": {"bindings": [
            {"x": {"type": "uri", "value": "http://e.org/a b"},
             "y": {"type": "typed-literal", "value": "1999",
                   "datatype": "http://www.w3.org/2001/XMLSchema#integer"}},
            {"x": {"type": "bnode", "value": "b0"},
             "y": {"type": "literal", "value": 'say "hi"', "xml:lang": "en"}},
            {"x": {"type": "literal", "value": "plain"}},
        ]},
    }  # fmt: skip
    variables, rows, truncated = _read_results(data, None)
    assert variables == ["x", "y"] and not truncated
    assert rows[0] == ["<http://e.org/a b>", '"1999"^^<http://www.w3.org/2001/XMLSchema#integer>']
    assert rows[1] == ["_:b0", '"say \\"hi\\""@en']
    assert rows[2] == ['"plain"', None]
    assert _read_results(data, 1)[2] is True  # cut to max_rows, and says so
    assert _read_results({"boolean": True}, None)[1] == [['"true"']]
    with pytest.raises(EndpointError, match="not SPARQL JSON"):
        _read_results({"rows": []}, None)


def test_bad_urls_and_unreachable_endpoints_are_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(EndpointError, match="not an http"):
        Endpoint("file:///etc/passwd")
    port = free_port()  # nothing listens there
    endpoint = Endpoint(f"http://127.0.0.1:{port}/sparql", timeout_s=2)
    with pytest.raises(EndpointError, match="cannot reach"):
        endpoint.select("ASK { ?s ?p ?o }")
    assert endpoint.drain()[0].error.startswith("cannot reach")  # logged for the trace
    ws = Workspace(tmp_path)
    with pytest.raises(EndpointError, match="cannot reach"):
        ws.connect("nowhere", f"http://127.0.0.1:{port}/sparql")
    assert ws.kb_names() == [] and not (tmp_path / "kbs" / "nowhere").exists()
    with pytest.raises(KBFileError, match="invalid KB name"):
        ws.connect("../up", f"http://127.0.0.1:{port}/sparql")


def test_each_thread_sees_only_the_requests_it_sent() -> None:
    """One opened remote KB serves every session of the app: a run's trace lists its own."""
    endpoint = Endpoint(f"http://127.0.0.1:{free_port()}/sparql", timeout_s=2)
    seen: dict[str, list[str]] = {}

    def ask(name: str) -> None:
        with pytest.raises(EndpointError):
            endpoint.select(f"ASK {{ <urn:{name}> ?p ?o }}")
        seen[name] = [q.query for q in endpoint.drain()]

    threads = [threading.Thread(target=ask, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {n: [f"ASK {{ <urn:{n}> ?p ?o }}"] for n in ("a", "b")}
    assert endpoint.drain() == []


# -- the servers ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def served_file(metaqa_home: Path, tmp_path_factory) -> Path:
    """The bundled KB as a team's server would hold it: its own namespace."""
    out = tmp_path_factory.mktemp("served") / "movies.nt"
    store = metaqa_home / "kbs" / "metaqa" / "store"
    return servers.export_ntriples(store, out, kb_base_iri("metaqa"))


@pytest.fixture(scope="module")
def oxigraph_url(served_file: Path, tmp_path_factory):
    require(servers.oxigraph_binary(), "the Oxigraph server")
    with servers.oxigraph_server(served_file, tmp_path_factory.mktemp("oxigraph")) as url:
        yield url


@pytest.fixture(scope="module")
def virtuoso_url(served_file: Path, tmp_path_factory):
    require(servers.virtuoso_binaries(), "Virtuoso")
    with servers.virtuoso_server(served_file, tmp_path_factory.mktemp("virtuoso")) as url:
        yield url


@pytest.fixture(scope="module")
def remote_engine(oxigraph_url: str, virtuoso_url: str, tmp_path_factory) -> Engine:
    """One workspace holding both endpoints (`ox`, `virt`) and, for comparison, a local import
    of the Oxigraph server's own answer (`mirror`: the same triples in the same order)."""
    ws = Workspace(tmp_path_factory.mktemp("remote-workspace"))
    ws.connect("ox", oxigraph_url)
    ws.connect("virt", virtuoso_url, graph=GRAPH)
    _, rows, _ = Endpoint(oxigraph_url).select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }")
    mirror = tmp_path_factory.mktemp("mirror") / "mirror.nt"
    mirror.write_text("".join(f"{s} {p} {o} .\n" for s, p, o in rows))
    ws.import_file(mirror, name="mirror")
    return Engine(ws)


def questions(n: int) -> list[str]:
    """The first n questions of each bundled dev set (1, 2, 3 hops)."""
    out = []
    for hops in ("1hop", "2hop", "3hop"):
        lines = (QUESTIONS / f"qa_dev_{hops}.tsv").read_text().splitlines()
        out += [line.split("\t")[0].replace("[", "").replace("]", "") for line in lines[:n]]
    return out


@pytest.mark.slow
def test_connect_indexes_the_endpoint_like_an_import(remote_engine: Engine, metaqa_kg) -> None:
    ws = remote_engine.workspace
    assert set(ws.kb_names()) == {"ox", "virt", "mirror"}
    for name in ("ox", "virt"):
        info, kg = ws.kb_info(name), remote_engine.kg(name)
        assert info.format == "sparql endpoint" and info.source.startswith("http://127.0.0.1:")
        assert kg.remote and kg.index.n_triples == metaqa_kg.index.n_triples == info.triples
        assert sorted(r.label for r in kg.relations) == sorted(r.label for r in metaqa_kg.relations)
        assert kg.lookup("The Matrix")[0].id == "<http://movies.example.org/e/The%20Matrix>"
    # registered once; other settings need --refresh, which reads the endpoint again
    with pytest.raises(KBFileError, match="--refresh"):
        ws.connect("ox", ws.kg("ox").endpoint.url, graph=GRAPH)
    assert json.loads((ws.kbs_dir / "ox" / REMOTE_FILE).read_text())["graph"] is None
    # the same settings again: the cached index, the endpoint is not read again
    assert ws.connect("ox", ws.kg("ox").endpoint.url) == ws.kb_info("ox")


@pytest.mark.slow
@pytest.mark.parametrize("kb", ["ox", "virt"])
def test_same_questions_same_answers_as_the_local_store(remote_engine: Engine, kb: str) -> None:
    for question in questions(12):
        local = remote_engine.ask(question, kb="mirror", paradigm="kg-only")
        remote = remote_engine.ask(question, kb=kb, paradigm="kg-only")
        assert remote.error is None, (question, remote.error)
        assert remote.answer_labels == local.answer_labels, question
        assert [s.action.description for s in remote.steps] == [
            s.action.description for s in local.steps
        ]


@pytest.mark.slow
@pytest.mark.parametrize("paradigm", list(PARADIGMS))
@pytest.mark.parametrize("lazy", [False, True], ids=["read-whole", "lazy"])
def test_every_paradigm_runs_on_an_endpoint_and_shows_what_it_sent(
    remote_engine: Engine, lazy_engine: Engine, paradigm: str, lazy: bool
) -> None:
    replies = itertools.count()  # CoK's samples disagree, so it goes on to retrieval
    reply = (lambda prompt: str(next(replies))) if paradigm == "cok" else "1"
    mock = LLMSettings(model="openai/gpt-4o-mini", mock_response=reply)
    engine = lazy_engine if lazy else remote_engine
    trace = engine.ask("who directed Clownhouse", kb="virt", paradigm=paradigm,
                       settings=LoopSettings(llm=mock))  # fmt: skip
    assert trace.error is None and trace.steps, paradigm
    sent = [s.action.details["sent"] for s in trace.steps if "sent" in s.action.details]
    if paradigm != "llm-only":  # the LLM alone asks no knowledge graph
        assert sent and sent[0]["endpoint"].endswith("/sparql")
        query = next(q for s in sent for q in s["queries"])
        assert query["query"].startswith(("SELECT", "ASK")) and query["ms"] >= 0
    if paradigm in ("kg-only", "cok"):
        assert trace.answer_labels == ["Victor Salva"]


@pytest.mark.slow
def test_typed_sparql_is_guarded_and_bounded(remote_engine: Engine) -> None:
    kg = remote_engine.kg("ox")
    result = kg.sparql("SELECT ?f WHERE { ?f <http://movies.example.org/r/directed_by> ?d }",
                       max_rows=5)  # fmt: skip
    assert len(result.rows) == 5 and result.truncated and result.kind == "select"
    assert kg.sparql("ASK { ?s ?p ?o }").rows == [["true"]]
    for hostile, reason in [
        ("DELETE WHERE { ?s ?p ?o }", "DELETE"),
        ("SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }", "SERVICE"),
        ("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "SELECT and ASK"),
        ("SELECT ?x WHERE { ?x", "syntax|parse|expected"),
    ]:
        with pytest.raises(QueryRefused, match=reason):
            kg.sparql(hostile)
    with pytest.raises(KBFileError, match="read-only"):
        remote_engine.editor("ox")


@pytest.mark.slow
def test_endpoint_faults_end_in_the_trace_not_in_a_crash(remote_engine: Engine, tmp_path) -> None:
    ws = Workspace(tmp_path)
    shutil.copytree(remote_engine.workspace.kbs_dir / "ox", ws.kbs_dir / "gone")
    registration = json.loads((ws.kbs_dir / "gone" / REMOTE_FILE).read_text())
    registration["url"] = f"http://127.0.0.1:{free_port()}/query"
    (ws.kbs_dir / "gone" / REMOTE_FILE).write_text(json.dumps(registration))
    trace = Engine(ws).ask("who directed Clownhouse", kb="gone", paradigm="kg-only")
    errors = [trace.error or "", *(s.error or "" for s in trace.steps)]
    assert any("cannot reach http://127.0.0.1" in e for e in errors), errors
    assert not trace.answer_labels

    class Slow(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 — the stdlib's name
            time.sleep(3)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    slow = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    threading.Thread(target=slow.serve_forever, daemon=True).start()
    try:
        with pytest.raises(EndpointError, match="did not answer within 0.5 s"):
            Endpoint(f"http://127.0.0.1:{slow.server_port}/q", timeout_s=0.5).select("ASK {}")
    finally:
        slow.shutdown()
    with pytest.raises(EndpointError, match="HTTP 404"):
        Endpoint(remote_engine.kg("ox").endpoint.url.replace("/query", "/nothing")).select(
            "ASK { ?s ?p ?o }"
        )


@pytest.mark.slow
def test_a_capped_endpoint_is_read_page_by_page(football_engine: Engine, tmp_path) -> None:
    """Virtuoso answers at most ResultSetMaxRows rows (10,000 as shipped): connect pages."""
    require(servers.virtuoso_binaries(), "Virtuoso")
    kb = football_engine.kg("football")
    served = servers.export_ntriples(kb.path / "store", tmp_path / "f.nt", kb_base_iri("football"))
    with servers.virtuoso_server(served, tmp_path, max_rows=10) as url:
        info = Workspace(tmp_path / "ws").connect("clubs", url, graph=GRAPH)
    assert info.triples == kb.index.n_triples > 10


# -- an endpoint too large to read whole: indexed lazily ------------------------------------------
@pytest.fixture(scope="module")
def lazy_engine(oxigraph_url: str, virtuoso_url: str, tmp_path_factory) -> Engine:
    """Both servers connected as if they held more than --max-triples: relations read at
    connect, nodes when needed (Virtuoso with its text index, Oxigraph without one)."""
    ws = Workspace(tmp_path_factory.mktemp("lazy-workspace"))
    ws.connect("ox", oxigraph_url, max_triples=1000)
    ws.connect("virt", virtuoso_url, graph=GRAPH, max_triples=1000)
    return Engine(ws)


@pytest.mark.slow
def test_a_large_endpoint_is_indexed_lazily(lazy_engine: Engine, remote_engine: Engine) -> None:
    mirror = remote_engine.kg("mirror")
    for name in ("ox", "virt"):
        kg = lazy_engine.kg(name)
        assert kg.lazy and kg.index.nodes.text_search == (name == "virt")
        assert lazy_engine.workspace.kb_info(name).format == "sparql endpoint (lazy)"
        assert kg.index.n_triples == mirror.index.n_triples
        assert [(r.label, r.count, r.object_kind) for r in kg.relations] == [
            (r.label, r.count, r.object_kind) for r in mirror.relations
        ]
        kb_dir = lazy_engine.workspace.kbs_dir / name
        assert not (kb_dir / "nodes.sqlite").exists()
        assert (kb_dir / "index.pickle").stat().st_size < 200_000  # relations only
        matrix = "<http://movies.example.org/e/The%20Matrix>"
        assert kg.exact("The Matrix") == [matrix] == kg.exact("the matrix")
        assert kg.label(matrix) == "The Matrix" and kg.degree(matrix) == mirror.degree(matrix)
        assert sorted(kg.roles(matrix)) == sorted(mirror.roles(matrix))
        assert kg.exact("No Such Film Anywhere") == []
    # fuzzy linking where the endpoint has a text index
    assert lazy_engine.kg("virt").lookup("The Matrx")[0].label == "The Matrix"
    assert lazy_engine.kg("virt").starts_label("the matr")


@pytest.mark.slow
@pytest.mark.parametrize("kb", ["ox", "virt"])
def test_lazy_endpoint_answers_like_the_local_store(
    lazy_engine: Engine, remote_engine: Engine, kb: str
) -> None:
    same, asked = 0, questions(12)
    for question in asked:
        local = remote_engine.ask(question, kb="mirror", paradigm="kg-only")
        lazy = lazy_engine.ask(question, kb=kb, paradigm="kg-only")
        assert lazy.error is None, (question, lazy.error)
        same += lazy.answer_labels == local.answer_labels
    assert same >= 0.9 * len(asked), f"{same}/{len(asked)}"
    trace = lazy_engine.ask("who directed The Matrix", kb=kb, paradigm="kg-only")
    sent = [q for s in trace.steps for q in s.action.details["sent"]["queries"]]
    assert any(("bif:contains" if kb == "virt" else "VALUES ?l") in q["query"] for q in sent)
