"""Shared checks for tests that edit a KB: what the store holds, the log replayed, the index."""

from __future__ import annotations

from pathlib import Path

import pyoxigraph as ox

from core.kg.edits import Edit
from core.kg.importer import entity_term, relation_term
from core.kg.store import KnowledgeGraph
from core.trace import Triple

FOOTBALL = "football"
Key = tuple[str, str, str]


def E(name: str, kb: str = FOOTBALL) -> str:
    """The id of an entity name in a delimited KB (as the importer mints it)."""
    return entity_term(name, kb)


def R(name: str, kb: str = FOOTBALL) -> str:
    return relation_term(name, kb)


def key(t: Triple) -> Key:
    return (t.s, t.p, t.o)


def read_store(kb_dir: Path) -> ox.Store:
    """A fresh read-only handle on a KB's store."""
    return ox.Store.read_only(str(Path(kb_dir) / "store"))


def store_triples(kb_dir: Path | ox.Store) -> set[Key]:
    """The default graph of a KB's store, read through a fresh read-only handle (or the one
    given)."""
    store = kb_dir if isinstance(kb_dir, ox.Store) else read_store(kb_dir)
    return {
        (str(q.subject), str(q.predicate), str(q.object))
        for q in store.quads_for_pattern(None, None, None, ox.DefaultGraph())
    }


def replay(base: set[Key], history: list[Edit]) -> set[Key]:
    """The original import with every logged entry applied in order; each entry must remove
    only triples that are there and add only triples that are not."""
    state = set(base)
    for entry in history:
        for t in entry.removed:
            assert key(t) in state, f"#{entry.id} removes a triple that is not there"
            state.discard(key(t))
        for t in entry.added:
            assert key(t) not in state, f"#{entry.id} adds a triple already there"
            state.add(key(t))
    return state


def index_view(kg: KnowledgeGraph, nodes: set[str] | None = None) -> dict:
    """What linking and planning read from the index, in a form independent of role codes
    (so an incrementally updated index and a rebuilt one compare equal); all live nodes when
    `nodes` is None."""
    if nodes is None:
        nodes = {n for n, roles in kg.index.roles.items() if roles}
    return {
        "roles": {n: sorted(kg.roles(n)) for n in nodes},
        "labels": {n: kg.label(n) for n in nodes},
        "degree": {n: kg.degree(n) for n in nodes},
        "findable": {n: n in kg.exact(kg.label(n)) for n in nodes if kg.roles(n)},
        "relations": {r.id: (r.label, r.count) for r in kg.relations if r.count > 0},
        "n_triples": kg.index.n_triples,
    }
