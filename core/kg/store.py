"""The knowledge graph: an Oxigraph store on disk plus a small index for linking and planning.

The store is the record (SPARQL, the rdflib API, edits). The index (labels, relation
statistics, which relations each node takes part in) is derived once at import and pickled
beside it, so a cold start opens 129k triples in milliseconds instead of re-parsing.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import os
import pickle
import time
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Literal

import pyoxigraph as ox
from rapidfuzz import fuzz, process

from core.kg.nodebase import NodeTable
from core.kg.terms import (
    RDF_TYPE,
    RDFS_COMMENT,
    RDFS_LABEL,
    SCHEMA_PREDICATES,
    SKOS_ALT,
    XSD,
    humanize,
    is_literal_id,
    local_name,
    term_from_id,
)
from core.text import is_agentive_label, normalize
from core.trace import Triple
from core.worker import MEMORY_MB

_READ_ATTEMPTS = 4  # a read that meets a compacted-away file: reopen and retry
INDEX_VERSION = 6  # 6: derived the same whatever the order of the triples
# where a store records the edit version it is at (a named graph, outside the KB's data)
META_GRAPH = "<urn:knowloop:meta>"
META_SUBJECT = "<urn:knowloop:kb>"
META_VERSION = "<urn:knowloop:version>"
_SCHEMA_IDS = frozenset(f"<{iri}>" for iri in SCHEMA_PREDICATES)
_LABEL_ID, _ALT_ID = str(RDFS_LABEL), str(SKOS_ALT)
_COMMENT_ID, _TYPE_ID = str(RDFS_COMMENT), str(RDF_TYPE)
FOLLOW_MIN_SHARE = 0.01  # see build_index
REACH_SAMPLE = 48  # nodes kept per role: what a relation reaches (answer typing, core.kg.semantics)
_REACH_POOL = 4 * REACH_SAMPLE
_FEW = 12  # a relation with at most this many distinct objects may be categorical
Direction = Literal["out", "in"]  # "out": node is the subject; "in": node is the object
Rebuild = Callable[[ox.Store, Path], "KGIndex"]  # derives a KB's index again from its store
_YEAR_TYPES = {XSD + "gYear", XSD + "date", XSD + "dateTime"}


@dataclass(frozen=True)
class RelationInfo:
    """What the engine knows about one predicate of the loaded KB."""

    id: str
    label: str
    aliases: tuple[str, ...]
    count: int
    n_subjects: int
    n_objects: int
    object_kind: str  # "entity", "year", "number" or "text": what its objects are
    agentive: bool  # its objects are agents (person-like): "directed by", "actors"

    @property
    def words(self) -> str:
        return " ".join((self.label, *self.aliases))


@dataclass(frozen=True)
class EntityMatch:
    id: str
    label: str
    score: float  # 1.0 exact, <1 normalised or fuzzy
    how: str  # "exact", "normalized", "fuzzy"
    degree: int = 0


@dataclass
class KGIndex:
    """Everything derived from the store that linking and planning read on the hot path."""

    labels: dict[str, str] = field(default_factory=dict)
    by_norm: dict[str, list[str]] = field(default_factory=dict)
    relations: dict[str, RelationInfo] = field(default_factory=dict)
    rel_ids: list[str] = field(default_factory=list)
    roles: dict[str, tuple[int, ...]] = field(default_factory=dict)  # node -> role codes
    # hop role -> {next role: share of the nodes reached that can take it}
    follow: dict[int, dict[int, float]] = field(default_factory=dict)
    degree: dict[str, int] = field(default_factory=dict)
    n_triples: int = 0
    # role code -> a sample of the nodes it reaches, best connected first: what kind of thing
    # a relation leads to, read by answer typing (core.kg.semantics)
    reach: dict[int, tuple[str, ...]] = field(default_factory=dict)
    # role code (out) -> (distinct objects, triples) of relations with at most _FEW distinct
    # objects: few values met again and again make a categorical attribute (gender)
    reach_distinct: dict[int, tuple[int, int]] = field(default_factory=dict)
    comments: dict[str, str] = field(default_factory=dict)  # relation id -> rdfs:comment
    classes: dict[str, tuple[str, ...]] = field(default_factory=dict)  # node -> rdf:type ids
    version: int = INDEX_VERSION
    kb_version: int = 0  # the last edit-log entry folded into this index (see core.kg.edits)
    # a large KB's per-node maps (labels, by_norm, roles, degree, classes) read from this
    # table on disk, edits in an overlay (core.kg.nodebase); None: all in memory
    nodes: NodeTable | None = None

    def bind(self, directory: Path) -> None:
        """After loading from `directory`: where the on-disk node table is."""
        if self.nodes is not None:
            self.nodes.bind(directory)

    def entity_count(self) -> int:
        """Nodes that take part in a relation and are not literals (meta.json's entities)."""
        if self.nodes is not None:
            return self.nodes.info("n_entities")
        return sum(1 for node in self.roles if not is_literal_id(node))

    def _add_norm(self, key: str, node: str) -> None:
        self.by_norm[key] = [*self.by_norm.get(key, ()), node]

    def _drop_norm(self, key: str, node: str) -> None:
        ids = [i for i in self.by_norm.get(key, ()) if i != node]
        if ids:
            self.by_norm[key] = ids
        elif key in self.by_norm:
            del self.by_norm[key]

    def apply(self, added: list[Triple], removed: list[Triple], has_edge) -> None:
        """Fold one edit into the index without a rebuild.

        `has_edge(node, relation, direction)` asks the (already edited) store whether a node
        still takes part in a relation, so a role disappears only with its last triple.
        """
        for t in added:
            if t.p == _LABEL_ID and t.o.startswith('"'):
                self._set_label(t.s, term_from_id(t.o).value)
            elif t.p == _ALT_ID and t.s in self.relations and t.o.startswith('"'):
                rel = self.relations[t.s]
                self.relations[t.s] = replace(rel, aliases=(*rel.aliases, term_from_id(t.o).value))
            elif t.p not in _SCHEMA_IDS:
                self._add_data(t)
        for t in removed:
            if t.p == _LABEL_ID and self.labels.get(t.s) == _literal_value(t.o):
                self._set_label(t.s, None)
            elif t.p not in _SCHEMA_IDS:
                self._remove_data(t, has_edge)

    def _set_label(self, node: str, label: str | None) -> None:
        old = self.labels.pop(node, None) or (_fallback_label(node) if node in self.roles else None)
        if old is not None:
            self._drop_norm(normalize(old), node)
        if node in self.relations:
            if label:
                self.relations[node] = replace(self.relations[node], label=label)
            return
        if label is not None:
            self.labels[node] = label
        new = label or (_fallback_label(node) if node in self.roles else None)
        if new is not None:
            self._add_norm(normalize(new), node)

    def _add_data(self, t: Triple) -> None:
        if t.p not in self.relations:
            label = self.labels.pop(t.p, None) or humanize(local_name(t.p[1:-1]))
            kind = "entity" if not is_literal_id(t.o) else _object_kind(t.o)
            self.relations[t.p] = RelationInfo(
                t.p, label, (), 0, 0, 0, kind, kind == "entity" and is_agentive_label(label)
            )
            self.rel_ids.append(t.p)
        rel = self.relations[t.p]
        self.relations[t.p] = replace(rel, count=rel.count + 1)
        code = self.rel_ids.index(t.p) * 2
        self.n_triples += 1
        for node, role in ((t.s, code), (t.o, code + 1)):
            self.degree[node] = self.degree.get(node, 0) + 1
            roles = self.roles.get(node)
            if roles is None:  # a new node: findable by its label
                label = self.labels.get(node) or _fallback_label(node)
                self._add_norm(normalize(label), node)
                roles = ()
            if role not in roles:
                for other in roles:  # keep the planner's transition table able to reach it
                    self.follow.setdefault(other ^ 1, {}).setdefault(role, FOLLOW_MIN_SHARE)
                    self.follow.setdefault(role ^ 1, {}).setdefault(other, FOLLOW_MIN_SHARE)
                self.follow.setdefault(role ^ 1, {}).setdefault(role, FOLLOW_MIN_SHARE)
                self.roles[node] = tuple(sorted((*roles, role)))

    def _remove_data(self, t: Triple, has_edge) -> None:
        if t.p not in self.relations:
            return
        rel = self.relations[t.p]
        self.relations[t.p] = replace(rel, count=max(0, rel.count - 1))
        self.n_triples = max(0, self.n_triples - 1)
        code = self.rel_ids.index(t.p) * 2
        for node, role, direction in ((t.s, code, "out"), (t.o, code + 1, "in")):
            self.degree[node] = max(0, self.degree.get(node, 0) - 1)
            if not has_edge(node, t.p, direction) and role in self.roles.get(node, ()):
                self.roles[node] = tuple(r for r in self.roles[node] if r != role)


def edge_pattern(node_id: str, rel_id: str, direction: Direction) -> tuple | None:
    """The (s, p, o) pattern of a node's edges over one relation in one direction; None when
    there can be none (a literal has no outgoing edges)."""
    node, pred = term_from_id(node_id), term_from_id(rel_id)
    if direction == "out":
        return None if isinstance(node, ox.Literal) else (node, pred, None)
    return None, pred, node


def store_has_edge(store: ox.Store, node_id: str, rel_id: str, direction: Direction) -> bool:
    """Does a node take part in a relation in that direction, in this store?"""
    pattern = edge_pattern(node_id, rel_id, direction)
    if pattern is None:
        return False
    return next(iter(store.quads_for_pattern(*pattern, ox.DefaultGraph())), None) is not None


def store_triples(store: ox.Store) -> Iterator[tuple[str, str, str]]:
    """The default graph of a store as (subject, predicate, object) ids."""
    for q in store.quads_for_pattern(None, None, None, ox.DefaultGraph()):
        yield str(q.subject), str(q.predicate), str(q.object)


def ntriples_triples(text: str) -> Iterator[tuple[str, str, str]]:
    """(subject, predicate, object) ids straight from N-Triples text, one triple per line.

    Subjects and predicates are IRIs or blank nodes (no spaces), so two splits suffice; this
    is several times faster than building pyoxigraph terms for every triple.
    """
    for line in text.splitlines():
        if not line or line[0] == "#":
            continue
        s, p, rest = line.split(" ", 2)
        yield s, p, rest.rstrip()[:-1].rstrip()


def build_index(triples: Iterable[tuple[str, str, str]]) -> KGIndex:
    """One pass over (subject, predicate, object) ids; linear cost, all in memory (a large
    KB's per-node maps go to disk instead: core.kg.disk_index, which shares the rest)."""
    labels: dict[str, str] = {}
    aliases: dict[str, list[str]] = defaultdict(list)
    rel_index: dict[str, int] = {}
    rel_count: dict[str, int] = {}
    rel_kinds: dict[str, Counter[str]] = defaultdict(Counter)
    roles: dict[str, set[int]] = defaultdict(set)
    degree: dict[str, int] = {}
    comments: dict[str, str] = {}
    classes: dict[str, list[str]] = defaultdict(list)
    few_values: dict[int, tuple[str, ...] | None] = {}  # relation -> its objects while few
    seen: dict[int, int] = {}
    schema = _SCHEMA_IDS
    label_id, alt_id, comment_id, type_id = _LABEL_ID, _ALT_ID, _COMMENT_ID, _TYPE_ID
    n = 0
    for sid, pid, oid in triples:
        if pid in schema:
            if oid[0] == '"' and pid in (label_id, alt_id, comment_id):
                add_name(sid, pid, literal_text(oid), labels, aliases, comments)
            elif pid == type_id and oid[0] != '"':
                classes[sid].append(oid)
            continue
        n += 1
        i = rel_index.get(pid)
        if i is None:
            i = rel_index[pid] = len(rel_index)
            rel_count[pid] = 0
        rel_count[pid] += 1
        rel_kinds[pid]["entity" if oid[0] != '"' else _object_kind(oid)] += 1
        roles[sid].add(i * 2)
        roles[oid].add(i * 2 + 1)
        values = few_values.get(i, ())
        if values is not None:
            if oid not in values:
                values = few_values[i] = (*values, oid) if len(values) < _FEW else None
            seen[i] = seen.get(i, 0) + 1
        degree[sid] = degree.get(sid, 0) + 1
        degree[oid] = degree.get(oid, 0) + 1

    # The index is a function of the set of triples, not of their order (a file and a SPARQL
    # endpoint serving the same KB answer the same): relations in label order, codes remapped.
    first_seen = list(rel_index)
    rel_ids = order_relations(first_seen, labels)
    new_index = {pid: k for k, pid in enumerate(rel_ids)}
    remap = [new_index[pid] for pid in first_seen]  # old relation number -> new
    for node, codes in roles.items():
        roles[node] = {remap[c >> 1] * 2 + (c & 1) for c in codes}
    few_values = {remap[i]: v for i, v in few_values.items()}
    seen = {remap[i]: v for i, v in seen.items()}

    by_norm: dict[str, list[str]] = defaultdict(list)
    entity_labels: dict[str, str] = {}
    signatures: Counter[tuple[int, ...]] = Counter()
    pools = ReachPools()
    for node, codes in roles.items():
        signature = tuple(sorted(codes))
        signatures[signature] += 1
        explicit = labels.get(node)
        pools.add(node, explicit, degree[node], signature)
        label = explicit or _fallback_label(node)
        if not is_literal_id(node):
            entity_labels[node] = label
        by_norm[normalize(label)].append(node)
    for node, label in labels.items():
        if node not in roles and node not in rel_index:
            entity_labels[node] = label
            by_norm[normalize(label)].append(node)
    # (distinct objects, triples) of relations with few objects: a categorical attribute
    distinct = {2 * i: (len(v), seen[i]) for i, v in few_values.items() if v is not None}
    index = KGIndex(
        labels=entity_labels,
        by_norm=dict(by_norm),
        roles={k: tuple(sorted(v)) for k, v in roles.items()},
        degree=degree,
        classes={k: tuple(sorted(v)) for k, v in classes.items()},
    )
    kinds = {pid: rel_kinds[pid].most_common(1)[0][0] for pid in rel_ids}
    return finish_index(
        index, rel_ids, labels, aliases, rel_count, kinds, signatures, pools, distinct, n,
        {r: c for r, c in comments.items() if r in rel_index},
    )  # fmt: skip


def add_name(node: str, pred: str, value: str, labels: dict[str, str],
             aliases: dict[str, list[str]], comments: dict[str, str]) -> None:  # fmt: skip
    """Fold one naming triple in: a node's first label and comment count, every alias."""
    if pred == _LABEL_ID:
        labels.setdefault(node, value)
    elif pred == _ALT_ID:
        aliases[node].append(value)
    elif pred == _COMMENT_ID:
        comments.setdefault(node, value)


def literal_text(literal_id: str) -> str:
    """The lexical value of a literal id (fast for the common case: no escapes)."""
    if literal_id[-1] == '"' and "\\" not in literal_id:
        return literal_id[1:-1]
    return term_from_id(literal_id).value


def order_relations(rel_ids: Iterable[str], labels: dict[str, str]) -> list[str]:
    """Relations in label order: codes that do not depend on the order of the triples."""
    return sorted(rel_ids, key=lambda r: (labels.get(r) or humanize(local_name(r[1:-1])), r))


class ReachPools:
    """What each role reaches: a pseudo-random pool of the nodes it reaches (by a hash of
    their names, so the same whatever the order of the triples), best connected first.
    Fed one node at a time, so a KB of millions of nodes needs only the pools in memory."""

    def __init__(self) -> None:
        self.heaps: dict[int, list[tuple[int, str, str, int]]] = defaultdict(list)

    def add(self, node: str, label: str | None, degree: int, codes: Iterable[int]) -> None:
        name = label or node
        # heapq keeps the smallest on top: negate, so the top is the largest hash kept
        item = (-zlib.crc32(name.encode()), _Desc(name), _Desc(node), degree)
        for code in codes:
            heap = self.heaps[code ^ 1]  # arriving over the other end of this role
            if len(heap) < _REACH_POOL:
                heapq.heappush(heap, item)
            elif item > heap[0]:
                heapq.heapreplace(heap, item)

    def sample(self) -> dict[int, tuple[str, ...]]:
        reach = {}
        for code, heap in self.heaps.items():
            pool = sorted(heap, key=lambda it: (-it[3], it[1].value, it[2].value))
            reach[code] = tuple(it[2].value for it in pool[:REACH_SAMPLE])
        return reach


class _Desc:
    """A string that sorts backwards (the pool heap keeps the smallest names)."""

    __slots__ = ("value",)

    def __init__(self, value: str):
        self.value = value

    def __lt__(self, other: _Desc) -> bool:
        return self.value > other.value

    def __gt__(self, other: _Desc) -> bool:
        return self.value < other.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Desc) and self.value == other.value


def finish_index(
    index: KGIndex,
    rel_ids: list[str],
    labels: dict[str, str],
    aliases: dict[str, list[str]],
    counts: dict[str, int],
    kinds: dict[str, str],
    signatures: Counter[tuple[int, ...]],
    pools: ReachPools,
    distinct: dict[int, tuple[int, int]],
    n_triples: int,
    comments: dict[str, str],
) -> KGIndex:
    """The relation-level part of an index, from per-node facts gathered either way."""
    # Nodes that play the same set of roles behave alike: count role sets, not nodes.
    players: Counter[int] = Counter()
    for signature, count in signatures.items():
        for code in signature:
            players[code] += count
    relations = {}
    for k, pid in enumerate(rel_ids):
        label = labels.get(pid) or humanize(local_name(pid[1:-1]))
        kind = kinds[pid]
        relations[pid] = RelationInfo(
            id=pid,
            label=label,
            aliases=tuple(sorted(aliases.get(pid, ()))),
            count=counts[pid],
            n_subjects=players[k * 2],
            n_objects=players[k * 2 + 1],
            object_kind=kind,
            agentive=kind == "entity" and is_agentive_label(label),
        )
    # follow[hop]: the roles that nodes reached by `hop` can take next, with the share of
    # those nodes that can. Arriving over an "out" edge puts you at its object (role ^ 1).
    # A transition seen on fewer than FOLLOW_MIN_SHARE of the nodes is noise (two things that
    # share a name merged into one node) and would send the planner down empty paths.
    pairs: Counter[tuple[int, int]] = Counter()
    for signature, count in signatures.items():
        for arrived in signature:
            for nxt in signature:
                pairs[(arrived, nxt)] += count
    follow: dict[int, dict[int, float]] = defaultdict(dict)
    for (arrived, nxt), count in pairs.items():
        share = count / players[arrived]
        if share >= FOLLOW_MIN_SHARE:
            follow[arrived ^ 1][nxt] = round(share, 4)
    index.relations, index.rel_ids = relations, list(rel_ids)
    index.follow, index.n_triples = dict(follow), n_triples
    index.reach, index.reach_distinct, index.comments = pools.sample(), distinct, comments
    return index


@lru_cache(maxsize=4096)
def _object_kind(literal_id: str) -> str:
    term = term_from_id(literal_id)
    dt = term.datatype.value if isinstance(term, ox.Literal) and term.datatype else ""
    return literal_kind(dt, term.value)


INTEGER_TYPES = (XSD + "integer", XSD + "int", XSD + "long")


def literal_kind(datatype: str, value: str) -> str:
    """ "year", "number" or "text": what a literal of this datatype and value is to a question."""
    if datatype in _YEAR_TYPES:
        return "year"
    if datatype in INTEGER_TYPES:
        try:
            return "year" if 1000 <= int(value) <= 2100 else "number"
        except ValueError:
            return "text"
    if datatype in (XSD + "decimal", XSD + "double", XSD + "float"):
        return "number"
    return "text"


def _literal_value(literal_id: str) -> str | None:
    try:
        return term_from_id(literal_id).value
    except ValueError:
        return None


def _fallback_label(node_id: str) -> str:
    if is_literal_id(node_id):
        return term_from_id(node_id).value
    if node_id.startswith("<"):
        return local_name(node_id[1:-1]).replace("_", " ")
    return node_id


def open_read_only(store_dir: str) -> ox.Store:
    """A read-only RocksDB open of a store another process may be editing: the files its
    MANIFEST names can be compacted away between reading it and opening them (RocksDB says
    "Corruption: IO error: No such file"), so such an open is tried again, on the newer
    MANIFEST, up to _READ_ATTEMPTS times."""
    for attempt in range(_READ_ATTEMPTS):
        try:
            return ox.Store.read_only(store_dir)
        except (OSError, RuntimeError) as exc:
            if attempt == _READ_ATTEMPTS - 1 or "No such file" not in str(exc):
                raise
            time.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")


class KnowledgeGraph:
    """An opened KB: the Oxigraph store, its index and the reads the engine needs."""

    remote = False  # a SPARQL endpoint's KB (core.kg.remote): read-only, read over HTTP

    def __init__(self, name: str, store: ox.Store, index: KGIndex, path: Path | None = None):
        self.name = name
        self.store = store
        self.index = index
        self.path = path
        self.log_signature: tuple[int, int] | None = None  # edit log state when opened
        self.read_only = False  # opened read-only from disk: reads may reopen the store

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, kb_dir: Path, name: str | None = None, read_only: bool = True,
             rebuild: Rebuild | None = None) -> KnowledgeGraph:  # fmt: skip
        """Open a KB directory made by the workspace import (store/ + index.pickle).
        `rebuild(store, kb_dir)` derives the index again when its format is older (default:
        in memory; core.kg.disk_index.rebuild_where_it_lives keeps a large KB's on disk)."""
        kb_dir = Path(kb_dir)
        store_dir = str(kb_dir / "store")
        store = open_read_only(store_dir) if read_only else ox.Store(store_dir)
        prune_rocksdb_logs(kb_dir / "store")
        index = load_index(kb_dir / "index.pickle")
        if getattr(index, "version", None) != INDEX_VERSION:  # an older format: rebuild once
            index = rebuild(store, kb_dir) if rebuild else rebuild_index(store)
            save_index(index, kb_dir / "index.pickle")
        kg = cls(name or kb_dir.name, store, index, kb_dir)
        kg.read_only = read_only
        return kg

    @classmethod
    def in_memory(cls, ntriples: str, name: str = "memory") -> KnowledgeGraph:
        """A throwaway KB from N-Triples text (tests, previews)."""
        store = ox.Store()
        store.bulk_load(input=ntriples, format=ox.RdfFormat.N_TRIPLES)
        return cls(name, store, build_index(store_triples(store)))

    def forget_caches(self) -> None:
        """After the index changed in place: derived lookups are rebuilt on next use."""
        for cached in ("_norm_keys", "_overlay_norms", "sorted_labels"):
            self.__dict__.pop(cached, None)
        self._lexicon = None
        self._semantics = None

    @cached_property
    def graph(self):
        """The same store through the rdflib Graph API (oxrdflib), for users and tools."""
        import rdflib
        from oxrdflib import OxigraphStore
        from rdflib.graph import DATASET_DEFAULT_GRAPH_ID

        # the KB lives in the store's default graph; rdflib names that graph this way
        return rdflib.Graph(
            store=OxigraphStore(store=self.store), identifier=DATASET_DEFAULT_GRAPH_ID
        )

    # -- labels and relations ---------------------------------------------------------------
    def label(self, node_id: str) -> str:
        rel = self.index.relations.get(node_id)
        if rel:
            return rel.label
        return self.index.labels.get(node_id) or _fallback_label(node_id)

    def relation(self, rel_id: str) -> RelationInfo:
        return self.index.relations[rel_id]

    @property
    def relations(self) -> list[RelationInfo]:
        return [self.index.relations[r] for r in self.index.rel_ids]

    def triple(self, s: str, p: str, o: str) -> Triple:
        return Triple(s, p, o, self.label(s), self.label(p), self.label(o))

    def roles(self, node_id: str) -> list[tuple[str, Direction]]:
        """The (relation, direction) pairs this node takes part in."""
        ids = self.index.rel_ids
        return [
            (ids[c >> 1], "out" if c % 2 == 0 else "in") for c in self.index.roles.get(node_id, ())
        ]

    # -- lookup -----------------------------------------------------------------------------
    def exact(self, text: str) -> list[str]:
        """Node ids whose label equals text after normalisation (case, underscores, spaces)."""
        return self.index.by_norm.get(normalize(text), [])

    def lookup(self, text: str, limit: int = 10, fuzzy: bool = True) -> list[EntityMatch]:
        """Entities by label: exact, then normalised, then fuzzy (rapidfuzz), best first."""
        text = text.strip()
        if not text:
            return []
        matches: dict[str, EntityMatch] = {}
        for node in self.exact(text):
            how, score = ("exact", 1.0) if self.label(node) == text else ("normalized", 0.95)
            matches[node] = EntityMatch(node, self.label(node), score, how, self.degree(node))
        if fuzzy and len(matches) < limit:
            found = process.extract(
                normalize(text), self._fuzzy_keys(text), scorer=fuzz.QRatio, limit=limit,
                score_cutoff=75,
            )  # fmt: skip
            for key, score, _ in found:
                for node in self.index.by_norm.get(key, ()):
                    if node not in matches:
                        matches[node] = EntityMatch(
                            node,
                            self.label(node),
                            round(score / 100 * 0.9, 4),
                            "fuzzy",
                            self.degree(node),
                        )
        ranked = sorted(matches.values(), key=lambda m: (-m.score, -m.degree, m.label))
        return ranked[:limit]

    def _fuzzy_keys(self, text: str) -> list[str]:
        """The normalised labels fuzzy linking scores: all of them, or for a KB whose node
        table is on disk, those sharing a rare trigram with the text (and the edits' own)."""
        table = self.index.nodes
        if table is None:
            return self._norm_keys
        return table.candidates(normalize(text)) + self._overlay_norms

    @cached_property
    def _norm_keys(self) -> list[str]:
        return list(self.index.by_norm)

    @cached_property
    def _overlay_norms(self) -> list[str]:
        return [k for k, v in self.index.by_norm.overlay.items() if isinstance(v, list) and v]

    @cached_property
    def sorted_labels(self) -> list[str]:
        """Normalised labels in order: `starts_label` finds in log time whether a text can
        still grow into a label."""
        if self.index.nodes is not None:
            return sorted(self._overlay_norms)
        return sorted(self.index.by_norm)

    def starts_label(self, text: str) -> bool:
        """Does some normalised label start with this normalised text?"""
        keys = self.sorted_labels
        i = bisect.bisect_left(keys, text)
        if i < len(keys) and keys[i].startswith(text):
            return True
        return self.index.nodes is not None and self.index.nodes.starts(text)

    def degree(self, node_id: str) -> int:
        return self.index.degree.get(node_id, 0)

    def prefetch(self, nodes: Iterable[str]) -> None:
        """About to read the labels, roles or degrees of these nodes: a KB that reads them
        over the network (a lazily indexed endpoint) fetches them in a few requests instead
        of one each. Here they are at hand already."""

    # -- traversal --------------------------------------------------------------------------
    def edges(self, node_id: str, rel_id: str, direction: Direction,
              limit: int | None = None) -> list[str]:  # fmt: skip
        """Neighbours of node over one relation in one direction (ids); the first `limit`
        only, when given (a sample of a genre's ten thousand films costs as much as three)."""
        pattern = edge_pattern(node_id, rel_id, direction)
        if pattern is None:
            return []
        quads = self._quads(*pattern, limit)
        return [str(q.object if direction == "out" else q.subject) for q in quads]

    def edges_from(self, nodes: Iterable[str], rel_id: str, direction: Direction,
                   limit: int | None = None) -> dict[str, list[str]]:  # fmt: skip
        """`edges` of many nodes at once (a remote KB sends one request per batch)."""
        return {node: self.edges(node, rel_id, direction, limit) for node in nodes}

    def holds(self, s: str, p: str, o: str) -> bool:
        """Is this exact triple in the store now (evidence re-checked after edits)?"""
        try:
            subject, pred, obj = term_from_id(s), term_from_id(p), term_from_id(o)
        except ValueError:
            return False
        if isinstance(subject, ox.Literal):
            return False
        return bool(self._quads(subject, pred, obj, 1))

    def has_edge(self, node_id: str, rel_id: str, direction: Direction) -> bool:
        """Does the node take part in the relation in that direction (at least one triple)?"""
        pattern = edge_pattern(node_id, rel_id, direction)
        return pattern is not None and bool(self._quads(*pattern, 1))

    def _quads(self, s, p, o, limit: int | None) -> list[ox.Quad]:
        """Matching quads of the default graph, read now. A read-only RocksDB open is a
        snapshot whose files an edit in another process may compact away ("IO error: No such
        file"); such a read is retried on a fresh read-only open of the same store."""
        for attempt in range(_READ_ATTEMPTS):
            try:
                quads = self.store.quads_for_pattern(s, p, o, ox.DefaultGraph())
                return list(itertools.islice(quads, limit))
            except OSError:
                if attempt == _READ_ATTEMPTS - 1 or not self.read_only or self.path is None:
                    raise
                time.sleep(0.02 * attempt)
                try:
                    self.store = open_read_only(str(self.path / "store"))
                except OSError:
                    continue
        raise AssertionError("unreachable")

    def neighbourhood(self, node_id: str, limit: int = 60, per_relation: int = 12) -> list[Triple]:
        """Triples around a node in both directions, bounded and ranked.

        Ranking: relations with few edges at this node first (they are specific facts),
        and within a relation the most connected neighbours first (the ones people know).
        """
        groups: list[tuple[int, list[Triple]]] = []
        for rel_id, direction in self.roles(node_id):
            others = self.edges(node_id, rel_id, direction)
            others.sort(key=lambda o: (-self.degree(o), self.label(o)))
            triples = [
                self.triple(node_id, rel_id, o)
                if direction == "out"
                else self.triple(o, rel_id, node_id)
                for o in others[:per_relation]
            ]
            groups.append((len(others), triples))
        groups.sort(key=lambda g: g[0])
        out: list[Triple] = []
        for i in range(max((len(t) for _, t in groups), default=0)):  # round-robin by relation
            for _, triples in groups:
                if i < len(triples):
                    out.append(triples[i])
        return out[:limit]

    # -- SPARQL and statistics --------------------------------------------------------------
    def sparql(
        self,
        query: str,
        timeout_s: float = 10.0,
        max_rows: int = 10_000,
        memory_mb: int = MEMORY_MB,
        wanted: Callable[[], bool] | None = None,
    ):
        """Read-only, guarded SPARQL with hard limits (see core.kg.sparql_guard; imported on
        first use because rdflib's parser costs ~0.3 s of start-up)."""
        from core.kg.sparql_guard import run_readonly

        store_dir = self.path / "store" if self.path is not None else None
        return run_readonly(
            self.store, query, timeout_s=timeout_s, max_rows=max_rows, store_dir=store_dir,
            version=store_version(self.store) if store_dir else None, memory_mb=memory_mb,
            wanted=wanted,
        )  # fmt: skip

    def stats(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "triples": self.index.n_triples,
            "nodes": len(self.index.roles),
            "relations": len(self.index.relations),
            "relation_counts": {r.label: r.count for r in self.relations},
        }


def save_index(index: KGIndex, path: Path) -> None:
    """Write atomically: a reader never sees half an index."""
    tmp = Path(path).with_suffix(".tmp")
    with open(tmp, "wb") as fh:
        pickle.dump(index, fh, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(tmp, path)


def load_index(path: Path) -> KGIndex:
    with open(path, "rb") as fh:
        index = pickle.load(fh)
    if isinstance(index, KGIndex):
        index.bind(Path(path).parent)
    return index


ROCKSDB_LOGS_KEPT = 3


def prune_rocksdb_logs(store_dir: Path, keep: int = ROCKSDB_LOGS_KEPT) -> int:
    """Delete all but the newest `keep` RocksDB info logs (LOG.old.<µs>); returns how many.

    Every read-write open (each edit's) renames LOG to a new LOG.old.* and RocksDB never
    removes them (pyoxigraph does not expose keep_log_file_num); read-only opens write none.
    Called on each open, so the count stays bounded; a file another process removed first is
    no error."""
    try:
        names = [n for n in os.listdir(store_dir) if n.startswith("LOG.old.")]
    except FileNotFoundError:
        return 0
    if len(names) <= keep:
        return 0
    names.sort(key=lambda n: (len(n), n))  # the suffix is a timestamp: longer means newer
    removed = 0
    for stale in names[: len(names) - keep]:
        try:
            os.unlink(Path(store_dir) / stale)
            removed += 1
        except FileNotFoundError:
            pass
    return removed


def rebuild_index(store: ox.Store) -> KGIndex:
    """A fresh index of a store, stamped with the edit version the store is at."""
    index = build_index(store_triples(store))
    index.kb_version = store_version(store)
    return index


def store_version(store: ox.Store) -> int:
    """The id of the last edit-log entry applied to this store (0 for a freshly imported KB);
    core.kg.edits writes it in the same update as the data."""
    for q in store.quads_for_pattern(
        term_from_id(META_SUBJECT), term_from_id(META_VERSION), None, term_from_id(META_GRAPH)
    ):
        return int(q.object.value)
    return 0
