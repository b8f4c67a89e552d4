"""Read-only, bounded execution of untrusted SPARQL against a local pyoxigraph store.

Every query a person types (CLI ``knowloop sparql``, the UI console) or the engine writes goes
through :func:`run_readonly`. :func:`check_query` refuses, statically and in milliseconds:

* empty text, text over ``max_length`` characters, text with control characters;
* any SPARQL Update (detected by parsing with rdflib, never by substring, so a literal
  ``"INSERT DATA"`` or a variable ``?drop`` is fine);
* ``SERVICE`` anywhere in the query (federation would reach the network);
* every ``FROM`` / ``FROM NAMED`` clause: the store is the whole dataset, so a dataset clause is
  either remote (not allowed) or redundant (use ``GRAPH <iri> { ... }`` instead);
* a group whose triple patterns fall into unconnected pieces (a cartesian product): the
  common mistake, refused with a reason before anything runs.

:func:`run_readonly` then runs the query in a query worker (core.worker) with a row cap, a
time limit and a memory cap that hold whatever the query does: pyoxigraph cannot be
interrupted mid-operator, so the worker process is killed at the limit.
``Store.query`` cannot run updates anyway; the update check is defence in depth and gives a
clear message.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyoxigraph
from pyparsing import ParseBaseException, ParseResults
from rdflib import RDF, BNode, Literal, URIRef, Variable
from rdflib.plugins.sparql.parser import parseQuery, parseUpdate
from rdflib.plugins.sparql.parserutils import CompValue

from core import worker
from core.worker import MEMORY_MB, LimitExceeded, Limits, WorkerFault

__all__ = ["QueryRefused", "SparqlResult", "check_query", "display_term", "run_readonly"]

_FORMS = {
    "SelectQuery": "select",
    "AskQuery": "ask",
    "ConstructQuery": "construct",
    "DescribeQuery": "describe",
}
_UPDATE_WORDS = {
    "INSERT",
    "DELETE",
    "LOAD",
    "CLEAR",
    "DROP",
    "CREATE",
    "ADD",
    "MOVE",
    "COPY",
    "WITH",
}
_UPDATE_NAMES = {
    "InsertData": "INSERT DATA",
    "DeleteData": "DELETE DATA",
    "DeleteWhere": "DELETE WHERE",
    "Load": "LOAD",
    "Clear": "CLEAR",
    "Drop": "DROP",
    "Create": "CREATE",
    "Add": "ADD",
    "Move": "MOVE",
    "Copy": "COPY",
}
_GROUPS = {"GroupGraphPatternSub", "FakeGroupGraphPatten"}  # sic: rdflib's spelling
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # not tab/LF/CR
_MAX_DEPTH = 32  # bracket nesting; rdflib's grammar recurses (and slows) per level
_PARSE_RECURSION = 50_000  # rdflib recurses ~10 frames per triple pattern
_PARSE_LOCK = threading.Lock()  # the recursion limit is process-wide
_BRACKETS = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''
    r"|<[^<>\"{}|^`\\\x00-\x20]*>|#[^\n]*|[(){}\[\]]"
)
_XSD_BOOLEAN = pyoxigraph.NamedNode("http://www.w3.org/2001/XMLSchema#boolean")


class QueryRefused(ValueError):
    """A query the guard will not run; str(exc) is a one-line, user-readable reason."""


@dataclass
class SparqlResult:
    """A bounded query answer: display strings for people, pyoxigraph terms for code."""

    kind: str
    columns: list[str]
    rows: list[list[str | None]]
    terms: list[list[object]]
    truncated: bool
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable view (terms are left out: they are not JSON)."""
        return {
            "kind": self.kind,
            "columns": list(self.columns),
            "rows": [list(row) for row in self.rows],
            "truncated": self.truncated,
            "elapsed_ms": self.elapsed_ms,
        }


def check_query(query: str, *, max_length: int = 20_000) -> str:
    """Validate statically; return the query form ("select"/"ask"/"construct"/"describe").

    Raises QueryRefused with a one-line reason. FROM / FROM NAMED is refused outright: the
    local store is the whole dataset, so such a clause is remote or redundant.
    """
    if not isinstance(query, str):
        raise QueryRefused("the query must be text")
    if not query.strip():
        raise QueryRefused("the query is empty")
    if len(query) > max_length:
        raise QueryRefused(
            f"the query is too long ({len(query)} characters; the limit is {max_length})"
        )
    _check_text(query)
    depth = _nesting_depth(query)
    if depth > _MAX_DEPTH:
        raise QueryRefused(
            f"the query nests brackets too deeply (depth {depth}; the limit is {_MAX_DEPTH})"
        )
    tree = _parse(query)
    _check_tree(tree)
    return _FORMS[tree.name]


def run_readonly(
    store: pyoxigraph.Store,
    query: str,
    *,
    timeout_s: float = 10.0,
    max_rows: int = 10_000,
    store_dir: Path | None = None,
    version: Any = None,
    memory_mb: int = MEMORY_MB,
    wanted: Callable[[], bool] | None = None,
) -> SparqlResult:
    """check_query, then execute with a row cap, a time limit and a memory cap.

    A store on disk (``store_dir``) is queried in a query worker (core.worker) that is killed
    at the limit, whatever the query does; ``version`` is the caller's edit version, so the
    worker sees the same edits; ``wanted`` stops it early (see core.worker.call). An
    in-memory store (tests, previews) is queried in-process, where the deadline can only be
    checked between rows.
    """
    if timeout_s <= 0 or max_rows < 0:
        raise ValueError("timeout_s must be > 0 and max_rows >= 0")
    start = time.monotonic()
    check_query(query)
    if store_dir is None:
        kind, columns, terms, truncated = _run_here(store, query, start + timeout_s, timeout_s,
                                                    max_rows)
    else:
        try:
            kind, columns, terms, truncated = worker.call(
                "sparql", Limits(timeout_s, memory_mb), started=start, wanted=wanted,
                store_dir=str(store_dir), version=version, query=query, max_rows=max_rows,
            )  # fmt: skip
        except LimitExceeded as exc:
            raise QueryRefused(str(exc)) from None
        except WorkerFault as exc:
            raise QueryRefused(_one_line(f"the store rejected the query: {exc}")) from None
    if kind == "ask":
        terms = [[_boolean(terms[0][0])]]
    rows = [[display_term(term) for term in row] for row in terms]
    elapsed_ms = (time.monotonic() - start) * 1000.0
    return SparqlResult(kind, columns, rows, terms, truncated, elapsed_ms)


def _run_here(
    store: pyoxigraph.Store, query: str, deadline: float, timeout_s: float, max_rows: int
) -> tuple[str, list[str], list[list[object]], bool]:
    """In-process execution (in-memory stores): the deadline is checked between rows."""

    def in_time() -> None:
        if time.monotonic() > deadline:
            raise QueryRefused(f"query exceeded the time limit of {timeout_s:g} s")

    result = None
    try:
        result = store.query(query)
        return worker.read_result(result, max_rows, in_time)
    except (SyntaxError, OSError) as exc:
        raise QueryRefused(_one_line(f"the store rejected the query: {exc}")) from exc
    finally:
        # a traceback kept elsewhere (pyparsing caches exceptions) would keep this frame and
        # the pyoxigraph result alive, to be dropped later on another thread
        result = None  # noqa: F841


def _boolean(value: bool) -> pyoxigraph.Literal:
    return pyoxigraph.Literal("true" if value else "false", datatype=_XSD_BOOLEAN)


def display_term(term: object) -> str | None:
    """IRIs and literals as their plain text; blank nodes as _:id; None for unbound."""
    if term is None:
        return None
    if isinstance(term, pyoxigraph.BlankNode):
        return "_:" + term.value
    if isinstance(term, pyoxigraph.NamedNode | pyoxigraph.Literal):
        return term.value
    return str(term)  # RDF 1.2 triple terms


def _check_text(query: str) -> None:
    """Refuse control characters: they are never part of a typed query and confuse logs."""
    match = _CONTROL.search(query)
    if match:
        raise QueryRefused(
            f"the query contains a control character (U+{ord(match.group()):04X})"
            f" at position {match.start()}"
        )


def _nesting_depth(query: str) -> int:
    """Deepest ( { [ nesting outside strings, IRIs and comments, found with one regex pass."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(query):
        token = match.group()
        if token in "({[":
            depth += 1
            deepest = max(deepest, depth)
        elif token in ")}]":
            depth -= 1
    return deepest


def _parse(query: str) -> CompValue:
    """Parse as a query; if that fails, tell an update from plain bad syntax.

    rdflib's grammar recurses per triple pattern, so a plain 100-pattern query would overflow
    the default recursion limit; it is raised (under a lock) for the parse only.
    """
    with _PARSE_LOCK:
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, _PARSE_RECURSION))
        try:
            return _parse_unlocked(query)
        finally:
            sys.setrecursionlimit(old_limit)


def _parse_unlocked(query: str) -> CompValue:
    try:
        return parseQuery(query)[1]
    except ParseBaseException as exc:
        query_error: ParseBaseException = exc
    except Exception as exc:  # rdflib/pyparsing internals (e.g. RecursionError)
        raise QueryRefused(_one_line(f"the query could not be parsed: {exc}")) from exc
    try:
        update = parseUpdate(query)
    except Exception:
        found = str(getattr(query_error, "found", "") or "").strip("'\"").upper()
        if found in _UPDATE_WORDS and "SelectQuery" in str(query_error.msg):
            raise _update_refused(found) from query_error
        raise QueryRefused(_syntax_message(query_error)) from query_error
    words = [_update_word(request) for request in update.get("request") or []]
    raise _update_refused(", ".join(dict.fromkeys(words)) or "an update")


def _update_refused(keyword: str) -> QueryRefused:
    return QueryRefused(f"updates are not allowed; this endpoint is read-only (found {keyword})")


def _update_word(request: CompValue) -> str:
    """Name an update operation the way it is written, for the refusal message."""
    if request.name != "Modify":
        return _UPDATE_NAMES.get(request.name, request.name.upper())
    parts = ["WITH"] if _field(request, "withClause") is not None else []
    parts += [w for w in ("DELETE", "INSERT") if _field(request, w.lower()) is not None]
    return " ... ".join(parts) + " ... WHERE"


def _syntax_message(exc: ParseBaseException) -> str:
    found = getattr(exc, "found", "")
    detail = f"{exc.msg}, found {found}" if found else str(exc.msg)
    return _one_line(f"syntax error at line {exc.lineno} col {exc.col}: {detail}")


def _one_line(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _check_tree(tree: CompValue) -> None:
    """Refuse dataset clauses, SERVICE and cartesian products anywhere in the parse tree."""
    for clause in _field(tree, "datasetClause") or []:
        if _field(clause, "named") is not None:
            raise QueryRefused(
                f"FROM NAMED <{_field(clause, 'named')}> is not allowed; use GRAPH <iri> {{ ... }}"
                " over the local store instead"
            )
        raise QueryRefused(
            f"remote FROM <{_field(clause, 'default')}> is not allowed; the query always runs on"
            " the local store (use GRAPH <iri> { ... } for a named graph)"
        )
    for node in _walk(tree):
        if node.name == "ServiceGraphPattern":
            target = _written(_field(node, "term"))
            raise QueryRefused(f"federated SERVICE calls are not allowed (SERVICE {target})")
        if node.name in _GROUPS:
            _check_connected(node)


def _written(term: Any) -> str:
    """A SERVICE target the way the user wrote it: ?var, <iri> or prefix:name."""
    if isinstance(term, Variable):
        return f"?{term}"
    if isinstance(term, CompValue) and term.name == "pname":
        return f"{term.get('prefix') or ''}:{term.get('localname') or ''}"
    return f"<{term}>"


def _walk(root: Any) -> Any:
    """Yield every CompValue below root, iteratively (deep queries must not blow the stack)."""
    stack = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, CompValue):
            yield item
            stack.extend(item.values())
        elif isinstance(item, list | tuple | ParseResults):
            stack.extend(item)


def _check_connected(group: CompValue) -> None:
    """Refuse a group whose triple patterns form unconnected pieces (a cartesian product).

    Triple patterns of all the group's basic graph patterns are joined on shared variables and
    blank nodes. Pieces anchored on a constant (an IRI/literal subject, or an object other than
    an rdf:type class) are small, so their products are allowed: ``:a :p ?x . :b :p ?y`` is a
    normal comparison query. Nested groups (OPTIONAL, UNION, subqueries) are checked on their own.
    """
    triples: list[tuple[Any, Any, Any]] = []
    for part in _field(group, "part") or []:
        if isinstance(part, CompValue) and part.name == "TriplesBlock":
            for flat in _field(part, "triples") or []:
                flat = list(flat)
                triples += [tuple(flat[i : i + 3]) for i in range(0, len(flat) - 2, 3)]
    if len(triples) < 2:
        return
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    pieces: list[tuple[list[str], bool]] = []
    for s, p, o in triples:
        keys = [k for k in (_var_key(s), _var_key(p), _var_key(o)) if k]
        anchored = _is_constant(s) or (_is_constant(o) and _plain_iri(p) != RDF.type)
        pieces.append((keys, anchored))
        for key in keys[1:]:
            parent[find(key)] = find(keys[0])
    components: dict[str, bool] = {}
    for keys, anchored in pieces:
        if keys:
            root = find(keys[0])
            components[root] = components.get(root, False) or anchored
    if len(components) < 2 or all(components.values()):
        return
    names: dict[str, list[str]] = {}
    for key in parent:
        names.setdefault(find(key), []).append(key)
    shown = " and ".join("{" + " ".join(sorted(names[r])) + "}" for r in list(components)[:2])
    raise QueryRefused(
        "the query joins unconnected patterns (a cartesian product): "
        f"{shown} share no variable; connect them with a shared variable or run separate queries"
    )


def _field(node: CompValue, key: str) -> Any:
    """A parse-tree field or None (CompValue.get returns the key itself when it is missing)."""
    return dict.get(node, key)


def _var_key(term: Any) -> str | None:
    if isinstance(term, Variable):
        return f"?{term}"
    if isinstance(term, BNode):
        return f"_:{term}"
    return None


def _is_constant(term: Any) -> bool:
    if isinstance(term, URIRef | Literal):
        return True
    return isinstance(term, CompValue) and term.name == "literal"


def _plain_iri(path: Any) -> Any:
    """The IRI a predicate path reduces to (rdflib wraps even a plain IRI), else None."""
    while isinstance(path, CompValue):
        if _field(path, "mod") is not None:
            return None
        part = _field(path, "part")
        if isinstance(part, list | ParseResults):
            if len(part) != 1:
                return None
            part = part[0]
        path = part
    return path if isinstance(path, URIRef) else None
