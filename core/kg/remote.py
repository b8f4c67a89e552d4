"""A KB behind a SPARQL 1.1 endpoint (Virtuoso, the Oxigraph server, Fuseki, …) read over HTTP.

`knowloop connect NAME --sparql URL` registers it in the workspace. What linking and planning
read on the hot path (labels, relation statistics, node roles) is derived once from the
endpoint's triples, exactly as for an imported file, and cached beside the registration
(`--refresh` derives it again). Every read after that — hops, constraints, filters,
neighbourhoods, evidence checks, typed SPARQL — is a query sent to the endpoint, checked by
the same read-only guard as a local one, bounded in time and rows, and logged with the
endpoint's time so the trace shows what was sent. The KB is read-only: edits belong to the
endpoint's owner (SPARQL Update is not sent).
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from core.kg.remote_lazy import RemoteNodeTable, lazy_index
from core.kg.store import (
    Direction,
    KGIndex,
    KnowledgeGraph,
    build_index,
    load_index,
    save_index,
)
from core.kg.terms import RDFS_LABEL, is_blank_id, term_from_id
from core.text import normalize

REMOTE_FILE = "remote.json"  # marks a KB directory as a remote endpoint's registration
PAGE = 10_000  # rows per page when an endpoint caps its answers (Virtuoso's default cap)
MAX_TRIPLES = 2_000_000  # read whole to index up to this; larger: core.kg.remote_lazy
BATCH = 100  # nodes per VALUES block when a hop walks from many nodes at once
MAX_RESPONSE_BYTES = 512 * 2**20  # an answer larger than this is refused, not read on
EDGE_ROWS = 100_000  # neighbours fetched for one node and relation at most
_JSON = "application/sparql-results+json"
_LABEL_ID = str(RDFS_LABEL)


class EndpointError(ConnectionError):
    """The endpoint could not be reached, timed out, refused the query or answered garbage;
    the message says which, in one line, for the trace and the CLI."""


@dataclass
class SentQuery:
    """One request sent to the endpoint, as the trace shows it."""

    query: str
    ms: float
    rows: int
    error: str | None = None


@dataclass
class Registration:
    """What `connect` records about an endpoint (remote.json)."""

    url: str
    graph: str | None = None
    label_predicates: list[str] = field(default_factory=lambda: [_LABEL_ID[1:-1]])
    timeout_s: float = 10.0


class Endpoint:
    """SPARQL 1.1 Protocol client (POST, JSON results) with a total deadline per request."""

    def __init__(self, url: str, graph: str | None = None, timeout_s: float = 10.0):
        parsed = urllib.parse.urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise EndpointError(f"not an http(s) SPARQL endpoint URL: {url!r}")
        self.url, self.graph, self.timeout_s = url, graph, timeout_s
        # what this thread sent, drained by whoever shows it (KGSource): one opened KB serves
        # every session of the app, and each run's trace lists its own requests only
        self._local = threading.local()

    def select(
        self, query: str, *, timeout_s: float | None = None, max_rows: int | None = None
    ) -> tuple[list[str], list[list[str | None]], bool]:
        """(variables, rows of term ids, truncated) of a SELECT; an ASK gives one row holding
        an xsd:boolean literal."""
        started = time.perf_counter()
        try:
            data = self._post(query, timeout_s or self.timeout_s)
            variables, rows, truncated = _read_results(data, max_rows)
        except EndpointError as exc:
            self.sent.append(SentQuery(query, _ms(started), 0, str(exc)))
            raise
        self.sent.append(SentQuery(query, _ms(started), len(rows)))
        return variables, rows, truncated

    @property
    def sent(self) -> list[SentQuery]:
        if not hasattr(self._local, "sent"):
            self._local.sent = []
        return self._local.sent

    def drain(self) -> list[SentQuery]:
        sent, self._local.sent = self.sent, []
        return sent

    def _post(self, query: str, timeout_s: float) -> dict:
        form = {"query": query}
        if self.graph:
            form["default-graph-uri"] = self.graph
        request = urllib.request.Request(
            self.url,
            data=urllib.parse.urlencode(form).encode(),
            headers={"Accept": _JSON, "Content-Type": "application/x-www-form-urlencoded"},
        )
        deadline = time.monotonic() + timeout_s
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as response:
                body = _read_until(response, deadline, timeout_s)
        except urllib.error.HTTPError as exc:
            detail = exc.read(300).decode("utf-8", "replace").strip().splitlines()
            raise EndpointError(
                f"{self.url} answered HTTP {exc.code}: {detail[0][:200] if detail else exc.reason}"
            ) from None
        except urllib.error.URLError as exc:
            raise EndpointError(f"cannot reach {self.url}: {exc.reason}") from None
        except TimeoutError:
            raise EndpointError(f"{self.url} did not answer within {timeout_s:g} s") from None
        except OSError as exc:
            raise EndpointError(f"cannot reach {self.url}: {exc}") from None
        try:
            return json.loads(body)
        except ValueError:
            raise EndpointError(f"{self.url} did not answer with SPARQL JSON results") from None


def _read_until(response, deadline: float, timeout_s: float) -> bytes:
    """The whole body, refused past the deadline or the size cap (a socket timeout bounds
    each read, not the sum of them)."""
    chunks, size = [], 0
    while chunk := response.read(1 << 20):
        size += len(chunk)
        if size > MAX_RESPONSE_BYTES:
            raise EndpointError(f"the answer exceeds {MAX_RESPONSE_BYTES >> 20} MB; refused")
        if time.monotonic() > deadline:
            raise TimeoutError
        chunks.append(chunk)
    return b"".join(chunks)


def _read_results(data: dict, max_rows: int | None) -> tuple[list[str], list, bool]:
    if "boolean" in data:
        return ["ask"], [['"true"' if data["boolean"] else '"false"']], False
    try:
        variables = list(data["head"]["vars"])
        bindings = data["results"]["bindings"]
    except (KeyError, TypeError):
        raise EndpointError("the endpoint's answer is not SPARQL JSON results") from None
    truncated = max_rows is not None and len(bindings) > max_rows
    if truncated:
        bindings = bindings[:max_rows]
    rows = [[_term_id(b[v]) if v in b else None for v in variables] for b in bindings]
    return variables, rows, truncated


def _term_id(term: dict) -> str:
    """A JSON result term as the N-Triples id the local store would give it."""
    kind, value = term.get("type"), term.get("value", "")
    if kind == "uri":
        return f"<{value}>"
    if kind == "bnode":
        return f"_:{value}"
    if term.get("xml:lang"):
        return str(ox.Literal(value, language=term["xml:lang"]))
    if term.get("datatype"):  # "typed-literal" in the older JSON format (Virtuoso)
        return str(ox.Literal(value, datatype=ox.NamedNode(term["datatype"])))
    return str(ox.Literal(value))


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


# -- reading the endpoint's triples (connect, refresh) ---------------------------------------
def count_triples(endpoint: Endpoint) -> int:
    (_, ((count,),), _) = endpoint.select(
        "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", timeout_s=max(60, endpoint.timeout_s)
    )
    return int(term_from_id(count).value) if count else 0


def endpoint_triples(
    endpoint: Endpoint,
    registration: Registration,
    total: int,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[str, str, str]]:
    """Every triple of the endpoint's (default or named) graph as ids, label predicates read
    as rdfs:label. One request when the endpoint answers whole; pages in a fixed order when
    it caps answers (`total`: how many triples it holds)."""
    labels = {f"<{iri}>" for iri in registration.label_predicates}
    patient = max(300, endpoint.timeout_s)  # reading everything once may take minutes
    _, rows, _ = endpoint.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", timeout_s=patient)
    pages = [rows]
    if len(rows) < total:  # a capped answer: read it again page by page, in a stable order
        pages, offset = [], 0
        while offset < total:
            # the order in a subquery, the page outside it: Virtuoso refuses to sort past
            # its answer cap for OFFSET + LIMIT, not to page through a sorted subquery
            _, page, _ = endpoint.select(
                "SELECT ?s ?p ?o WHERE { { SELECT ?s ?p ?o WHERE { ?s ?p ?o } "
                f"ORDER BY ?s ?p ?o }} }} LIMIT {PAGE} OFFSET {offset}",
                timeout_s=patient,
            )
            if not page:
                break
            pages.append(page)
            offset += len(page)
            if progress:
                progress(offset)
    for page in pages:
        for s, p, o in page:
            if s is None or p is None or o is None:
                continue
            yield s, (_LABEL_ID if p in labels else p), o


# -- the opened KB ----------------------------------------------------------------------------
class RemoteKnowledgeGraph(KnowledgeGraph):
    """The engine's KnowledgeGraph over an endpoint: the cached index plus live reads."""

    remote = True

    def __init__(self, name: str, endpoint: Endpoint, index: KGIndex, path: Path | None = None):
        super().__init__(name, None, index, path)  # type: ignore[arg-type] — no local store
        self.endpoint = endpoint
        self.read_only = True

    @classmethod
    def open(cls, kb_dir: Path, name: str | None = None, read_only: bool = True):
        kb_dir = Path(kb_dir)
        reg = read_registration(kb_dir)
        endpoint = Endpoint(reg.url, reg.graph, reg.timeout_s)
        index = load_index(kb_dir / "index.pickle")
        if isinstance(index.nodes, RemoteNodeTable):  # a lazily indexed endpoint
            index.nodes.attach(endpoint)
        return cls(name or kb_dir.name, endpoint, index, kb_dir)

    @property
    def lazy(self) -> bool:
        """Is this endpoint indexed lazily (too large to read whole; nodes read on demand)?"""
        return isinstance(self.index.nodes, RemoteNodeTable)

    def exact(self, text: str) -> list[str]:
        if self.lazy:  # the name as written is one more spelling to try
            ids = self.index.nodes.ids(normalize(text), text)
            self.prefetch(ids)  # their degrees and labels rank them next
            return ids
        return super().exact(text)

    def prefetch(self, nodes: Iterable[str]) -> None:
        if self.lazy:
            self.index.nodes.prefetch(nodes)

    @property
    def graph(self):
        """The endpoint through the rdflib Graph API (rdflib's SPARQLStore, read-only)."""
        import rdflib
        from rdflib.plugins.stores.sparqlstore import SPARQLStore

        return rdflib.Graph(store=SPARQLStore(self.endpoint.url, returnFormat="json"))

    def edges(self, node_id: str, rel_id: str, direction: Direction,
              limit: int | None = None) -> list[str]:  # fmt: skip
        return self.edges_from([node_id], rel_id, direction, limit).get(node_id, [])

    def edges_from(self, nodes: Iterable[str], rel_id: str, direction: Direction,
                   limit: int | None = None) -> dict[str, list[str]]:  # fmt: skip
        """Neighbours of many nodes over one relation: one request per BATCH nodes. Blank
        nodes cannot be named in a query (their labels are the endpoint's, per answer)."""
        nodes = [n for n in nodes if not is_blank_id(n) and (direction == "in" or n[0] != '"')]
        out: dict[str, list[str]] = {}
        cap = min(limit, EDGE_ROWS) if limit is not None and len(nodes) == 1 else EDGE_ROWS
        for i in range(0, len(nodes), BATCH):
            chunk = nodes[i : i + BATCH]
            values = " ".join(chunk)  # N-Triples ids are SPARQL terms as they are
            pattern = f"?n {rel_id} ?x" if direction == "out" else f"?x {rel_id} ?n"
            query = f"SELECT ?n ?x WHERE {{ VALUES ?n {{ {values} }} {pattern} }} LIMIT {cap}"
            _, rows, _ = self.endpoint.select(query)
            for node, other in rows:
                out.setdefault(node, []).append(other)
        if limit is not None:
            out = {n: others[:limit] for n, others in out.items()}
        self.prefetch(x for others in out.values() for x in others)  # read next: labels, …
        return out

    def holds(self, s: str, p: str, o: str) -> bool:
        if s.startswith('"') or is_blank_id(s) or is_blank_id(o):
            return False
        return self._ask(f"ASK {{ {s} {p} {o} }}")

    def has_edge(self, node_id: str, rel_id: str, direction: Direction) -> bool:
        if (direction == "out" and node_id.startswith('"')) or is_blank_id(node_id):
            return False
        pattern = f"{node_id} {rel_id} ?x" if direction == "out" else f"?x {rel_id} {node_id}"
        return self._ask(f"ASK {{ {pattern} }}")

    def _ask(self, query: str) -> bool:
        _, rows, _ = self.endpoint.select(query)
        return bool(rows) and rows[0][0] == '"true"'

    def sparql(self, query: str, timeout_s: float = 10.0, max_rows: int = 10_000,
               memory_mb: int = 0, wanted: Callable[[], bool] | None = None):  # fmt: skip
        """A typed or generated query: the local guard first, then sent with the time limit;
        rows past `max_rows` are cut (and the answer marked truncated)."""
        from core.kg.sparql_guard import QueryRefused, SparqlResult, check_query, display_term

        if timeout_s <= 0 or max_rows < 0:
            raise ValueError("timeout_s must be > 0 and max_rows >= 0")
        kind = check_query(query)
        if kind not in ("select", "ask"):
            raise QueryRefused(f"a remote KB answers SELECT and ASK queries, not {kind.upper()}")
        started = time.monotonic()
        try:
            columns, rows, truncated = self.endpoint.select(
                query, timeout_s=timeout_s, max_rows=max_rows
            )
        except EndpointError as exc:
            raise QueryRefused(str(exc)) from None
        terms = [[None if t is None else term_from_id(t) for t in row] for row in rows]
        if kind == "ask":
            columns = []
        display = [[display_term(t) for t in row] for row in terms]
        return SparqlResult(kind, columns, display, terms, truncated,
                            (time.monotonic() - started) * 1000.0)  # fmt: skip

    def stats(self) -> dict[str, Any]:
        return {**super().stats(), "endpoint": self.endpoint.url}


# -- registration -----------------------------------------------------------------------------
def read_registration(kb_dir: Path) -> Registration:
    return Registration(**json.loads((Path(kb_dir) / REMOTE_FILE).read_text()))


def write_registration(kb_dir: Path, registration: Registration) -> None:
    (Path(kb_dir) / REMOTE_FILE).write_text(json.dumps(asdict(registration), indent=2))


def is_remote(kb_dir: Path) -> bool:
    return (Path(kb_dir) / REMOTE_FILE).is_file()


def derive_index(registration: Registration, kb_dir: Path, max_triples: int = MAX_TRIPLES,
                 progress: Callable[[int], None] | None = None) -> KGIndex:  # fmt: skip
    """Read the endpoint once and write the index a remote KB opens with."""
    endpoint = Endpoint(registration.url, registration.graph, registration.timeout_s)
    total = count_triples(endpoint)
    if total > max_triples:  # too large to read whole: relations now, nodes when needed
        index = lazy_index(endpoint, registration.label_predicates)
    else:
        index = build_index(endpoint_triples(endpoint, registration, total, progress))
    if not index.n_triples:
        where = f" in graph <{registration.graph}>" if registration.graph else ""
        raise EndpointError(f"{registration.url} holds no triples{where}")
    save_index(index, Path(kb_dir) / "index.pickle")
    return index
