"""Node ids: N-Triples terms as strings, and the way back to pyoxigraph terms."""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote

import pyoxigraph as ox

RDFS_LABEL = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
SKOS_ALT = ox.NamedNode("http://www.w3.org/2004/02/skos/core#altLabel")
RDFS_COMMENT = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#comment")
XSD = "http://www.w3.org/2001/XMLSchema#"
# Schema-level predicates: describe names and types, never answer a question by themselves.
SCHEMA_PREDICATES = frozenset(
    {
        RDFS_LABEL.value,
        RDF_TYPE.value,
        SKOS_ALT.value,
        RDFS_COMMENT.value,
        "http://www.w3.org/2004/02/skos/core#prefLabel",
        "http://www.w3.org/2000/01/rdf-schema#domain",
        "http://www.w3.org/2000/01/rdf-schema#range",
        "http://www.w3.org/2002/07/owl#inverseOf",
        "http://www.w3.org/2002/07/owl#sameAs",
    }
)

_LITERAL = re.compile(
    r'^"(?P<lex>(?:[^"\\]|\\.)*)"(?:@(?P<lang>[A-Za-z0-9-]+)|\^\^<(?P<dt>[^>]*)>)?$'
)
_ESCAPES = {"t": "\t", "b": "\b", "n": "\n", "r": "\r", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


def term_id(term: ox.NamedNode | ox.Literal | ox.BlankNode) -> str:
    return str(term)


@lru_cache(maxsize=200_000)
def term_from_id(node_id: str) -> ox.NamedNode | ox.Literal | ox.BlankNode:
    """Parse an id made by term_id; raise ValueError on anything else."""
    if node_id.startswith("<") and node_id.endswith(">"):
        return ox.NamedNode(node_id[1:-1])
    if node_id.startswith("_:"):
        return ox.BlankNode(node_id[2:])
    match = _LITERAL.match(node_id)
    if not match:
        raise ValueError(f"not a node id: {node_id[:80]!r}")
    lex = re.sub(r"\\(u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)", _unescape, match["lex"])
    if match["lang"]:
        return ox.Literal(lex, language=match["lang"])
    if match["dt"]:
        return ox.Literal(lex, datatype=ox.NamedNode(match["dt"]))
    return ox.Literal(lex)


def _unescape(m: re.Match[str]) -> str:
    code = m.group(1)
    if code[0] in "uU" and len(code) > 1:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)


def local_name(iri: str) -> str:
    """Readable name from an IRI when no rdfs:label exists: the part after the last / or #."""
    tail = re.split(r"[/#:]", iri.rstrip("/#"))[-1] or iri
    return unquote(tail)


def humanize(name: str) -> str:
    """Relation names read as words: directed_by -> "directed by", hasImdbRating -> "has imdb
    rating"."""
    name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    return re.sub(r"[\s_\-]+", " ", name).strip().lower() or name


def is_literal_id(node_id: str) -> bool:
    return node_id.startswith('"')


def is_blank_id(node_id: str) -> bool:
    """A blank node: its name is the store's, per answer, and cannot be put in a query."""
    return node_id.startswith("_:")
