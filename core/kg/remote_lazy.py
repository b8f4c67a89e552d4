"""A SPARQL endpoint too large to read whole (Freebase in Virtuoso): an index read lazily.

`connect` reads an endpoint's triples once to index it when it holds at most
`--max-triples`. Past that, it reads what planning needs about the *relations* only — each
predicate's triple count (one aggregate query), its labels and documentation, and a sample
of the triples of each relation (what kind of thing it reaches, which relations follow it,
how many distinct values it has) — and caches that in `index.pickle`. What is known per
*node* (its label, its roles, its degree, which nodes a name denotes) is asked of the
endpoint when the engine needs it, cached in memory, and shown in the trace like every
other request:

- a node's roles, degree, label and class: one grouped query (100 nodes per request when a
  hop or a neighbourhood names many);
- the nodes a name denotes: the endpoint's own text index where it has one (Virtuoso's
  `bif:contains`, detected at connect), then exact comparison of the normalised label; else a
  bounded label query — the name as written and in its usual capitalisations, as plain and
  `@en` literals, for each label predicate;
- fuzzy linking: candidates from the text index (no fuzzy linking without one).
"""

from __future__ import annotations

import re
import threading
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from core.kg.importer import literal_term
from core.kg.nodebase import NodeMap, pack_roles, unpack_roles
from core.kg.store import (
    _FEW,
    _LABEL_ID,
    _SCHEMA_IDS,
    _TYPE_ID,
    KGIndex,
    ReachPools,
    _fallback_label,
    _object_kind,
    add_name,
    finish_index,
    literal_text,
    order_relations,
)
from core.kg.terms import is_blank_id, is_literal_id, term_from_id
from core.text import STOPWORDS, normalize

SAMPLE_ROWS = 500  # triples read per relation at connect
BATCH = 100  # nodes per request when rows of many nodes are wanted
CACHE_SIZE = 200_000  # node rows and names kept per opened KB
TEXT_MATCHES = 500  # labels read per text-index search
_WORD = re.compile(r"[^\W_]+")


class RemoteNodeTable:
    """The node table of a lazily indexed endpoint: the same reads as core.kg.nodebase's
    NodeTable, answered by queries (through the KB's Endpoint, so the trace lists them)."""

    def __init__(self, label_predicates: list[str], rel_codes: dict[str, int],
                 text_search: bool, counts: dict[str, int]):  # fmt: skip
        self.label_predicates = [f"<{iri}>" for iri in label_predicates]
        self.rel_codes = rel_codes  # relation id -> its number (role = 2 * number + dir)
        self.text_search = text_search
        self.counts = counts
        self.endpoint = None  # attached when the KB is opened (RemoteKnowledgeGraph.open)
        self._init_caches()

    def _init_caches(self) -> None:
        self._rows: dict[str, tuple | None] = {}
        self._names: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        return {k: self.__dict__[k] for k in ("label_predicates", "rel_codes", "text_search",
                                             "counts")}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.endpoint = None
        self._init_caches()

    def bind(self, directory) -> None:
        """Nothing on disk to find: the endpoint is attached by the KB that opens it."""

    def attach(self, endpoint) -> None:
        self.endpoint = endpoint

    def info(self, key: str) -> int:
        return self.counts.get(key, 0)

    # -- per node -------------------------------------------------------------------------
    def row(self, node: str) -> tuple | None:
        """(label, packed roles, degree, classes) as nodebase.NodeTable.row gives them."""
        if node not in self._rows:
            self.prefetch([node])
        return self._rows.get(node)

    def prefetch(self, nodes: Iterable[str]) -> None:
        """Rows of many nodes, BATCH per request (a hop's answers, a neighbourhood)."""
        todo = list(dict.fromkeys(n for n in nodes if n not in self._rows and not is_blank_id(n)))
        # a literal is only ever an object: Virtuoso refuses one in the subject position
        for literal in (False, True):
            kind = [n for n in todo if is_literal_id(n) == literal]
            for i in range(0, len(kind), BATCH):
                chunk = kind[i : i + BATCH]
                out = "" if literal else "{ ?n ?p ?x BIND(0 AS ?dir) } UNION "
                _, rows, _ = self.endpoint.select(
                    f"SELECT ?n ?p ?dir (COUNT(*) AS ?c) (SAMPLE(?x) AS ?v) WHERE {{ "
                    f"VALUES ?n {{ {' '.join(chunk)} }} {out}{{ ?x ?p ?n BIND(1 AS ?dir) }} }} "
                    f"GROUP BY ?n ?p ?dir"
                )
                found: dict[str, list] = defaultdict(list)
                for n, p, direction, count, value in rows:
                    found[n].append((p, direction, count, value))
                for node in chunk:
                    self._store(self._rows, node, self._row(node, found.get(node, [])))

    def _row(self, node: str, facts: list) -> tuple | None:
        codes, degree, label, classes = set(), 0, None, []
        for p, direction, count, value in facts:
            outgoing = _int(direction) == 0
            if p in self.rel_codes:
                codes.add(2 * self.rel_codes[p] + (0 if outgoing else 1))
                degree += _int(count)
            elif outgoing and p in self.label_predicates and value and value[0] == '"':
                label = literal_text(value)
            elif outgoing and p == _TYPE_ID and value and value[0] != '"':
                classes.append(value)
        if not codes and label is None and not classes:
            return None
        if codes and label is None and not is_literal_id(node):
            label = _fallback_label(node)
        if is_literal_id(node):
            label = None
        roles = pack_roles(sorted(codes)) if codes else None
        return label, roles, degree, " ".join(sorted(classes)) or None

    # -- names ----------------------------------------------------------------------------
    def ids(self, norm: str, text: str | None = None) -> list[str]:
        """Nodes whose label normalises to `norm` (`text`: the name as the question wrote it,
        one more spelling to try where there is no text index)."""
        if norm in self._names:
            return self._names[norm]
        found: dict[str, list[str]] = defaultdict(list)
        complete = False  # did the answer hold every label it matched (not cut at the limit)?
        if self.text_search and (words := _search_words(norm)):
            pairs = self._text_search(" AND ".join(f'"{w}"' for w in words))
            complete = len(pairs) < TEXT_MATCHES
            for n, label in pairs:
                found[normalize(label)].append(n)
        else:
            spellings = _spellings(norm, text)
            literals = " ".join(f"{literal_term(s)} {literal_term(s)}@en" for s in spellings)
            # one pattern per label predicate: a second VALUES made Oxigraph scan (30 ms)
            patterns = " UNION ".join(f"{{ ?n {lp} ?l }}" for lp in self.label_predicates)
            _, rows, _ = self.endpoint.select(
                f"SELECT DISTINCT ?n ?l WHERE {{ VALUES ?l {{ {literals} }} {patterns} }} "
                f"LIMIT {TEXT_MATCHES}"
            )
            for n, label in rows:
                if n and label and not is_blank_id(n):
                    found[normalize(term_from_id(label).value)].append(n)
        for key, nodes in found.items():
            if key == norm or complete:  # every label with these words came: cache them all
                self._store(self._names, key, sorted(set(nodes)))
        if norm not in found:
            self._store(self._names, norm, [])
        return self._names.get(norm, [])

    def starts(self, prefix: str) -> bool:
        """Can a label start with `prefix`? Asked of the text index; without one, yes."""
        words = _WORD.findall(prefix)
        if not self.text_search or not words or len(words[-1]) < 4:
            return True  # cannot tell cheaply: let the span grow
        expr = " AND ".join([*(f'"{w}"' for w in words[:-1] if w not in STOPWORDS),
                             f'"{words[-1]}*"'])  # fmt: skip
        return any(normalize(label).startswith(prefix) for _, label in self._text_search(expr))

    def candidates(self, norm: str) -> list[str]:
        """Normalised labels sharing a word with `norm` (fuzzy linking scores these)."""
        words = _search_words(norm)
        if not self.text_search or not words:
            return []
        # each word, and its first four letters as a prefix: a typo later in a word still
        # finds it (Virtuoso wants at least four letters before a wildcard)
        terms = [f'"{w}"' for w in words] + [f'"{w[:4]}*"' for w in words if len(w) > 4]
        out: dict[str, list[str]] = defaultdict(list)
        pairs = self._text_search(" OR ".join(dict.fromkeys(terms)))
        for n, label in pairs:
            out[normalize(label)].append(n)
        if len(pairs) < TEXT_MATCHES:  # complete: no need to ask again for these names
            for key, nodes in out.items():
                self._store(self._names, key, sorted(set(nodes)))
        return list(out)

    def _text_search(self, expr: str) -> list[tuple[str, str]]:
        preds = " ".join(self.label_predicates)
        escaped = expr.replace("\\", "\\\\").replace("'", "\\'")
        _, rows, _ = self.endpoint.select(
            f"SELECT ?n ?l WHERE {{ VALUES ?lp {{ {preds} }} ?n ?lp ?l . "
            f"?l bif:contains '{escaped}' }} LIMIT {TEXT_MATCHES}"
        )
        return [(n, term_from_id(label).value) for n, label in rows
                if n and label and not is_blank_id(n)]  # fmt: skip

    def _store(self, cache: dict, key: str, value) -> None:
        with self._lock:
            if len(cache) >= CACHE_SIZE:  # forget the older half (dicts keep insertion order)
                for old in list(cache)[: CACHE_SIZE // 2]:
                    cache.pop(old, None)
            cache[key] = value

    def iter_rows(self):
        raise TypeError("a lazily indexed endpoint cannot list its nodes")

    iter_norms = iter_rows


def lazy_index(endpoint, label_predicates: list[str]) -> KGIndex:
    """Read what planning needs about the relations; nodes are read when needed."""
    labels_ids = {f"<{iri}>" for iri in label_predicates}
    schema = _SCHEMA_IDS | labels_ids
    patient = max(300, endpoint.timeout_s)
    _, rows, _ = endpoint.select(
        "SELECT ?p (COUNT(*) AS ?n) WHERE { ?s ?p ?o } GROUP BY ?p", timeout_s=patient
    )
    counts = {p: _int(n) for p, n in rows if p and p not in schema}
    labels: dict[str, str] = {}
    aliases: dict[str, list[str]] = defaultdict(list)
    comments: dict[str, str] = {}
    rel_list = sorted(counts)
    for i in range(0, len(rel_list), BATCH):
        values = " ".join(rel_list[i : i + BATCH])
        _, doc, _ = endpoint.select(
            f"SELECT ?p ?q ?l WHERE {{ VALUES ?p {{ {values} }} ?p ?q ?l "
            f"FILTER(isLiteral(?l)) }} ORDER BY ?p ?q ?l"
        )
        for p, q, lit in doc:
            add_name(p, _LABEL_ID if q in labels_ids else q, literal_text(lit), labels, aliases,
                     comments)  # fmt: skip
    rel_ids = order_relations(counts, labels)
    codes = {p: k for k, p in enumerate(rel_ids)}
    # nodes are not counted (a count of distinct subjects and objects is the one query a
    # Freebase-sized endpoint cannot answer in time): `knowloop kbs` shows 0 entities
    table = RemoteNodeTable(label_predicates, codes, _has_text_search(endpoint), counts={})
    table.attach(endpoint)

    kinds, distinct, sample_nodes = {}, {}, []
    for k, p in enumerate(rel_ids):
        _, pairs, _ = endpoint.select(f"SELECT ?s ?o WHERE {{ ?s {p} ?o }} LIMIT {SAMPLE_ROWS}")
        objects = [o for _, o in pairs if o]
        tally = Counter("entity" if o[0] != '"' else _object_kind(o) for o in objects)
        kinds[p] = max(sorted(tally), key=lambda kind: tally[kind]) if tally else "entity"
        values = set(objects)
        if objects and len(values) <= _FEW and (len(pairs) < SAMPLE_ROWS or counts[p] > 10 * _FEW):
            distinct[2 * k] = (len(values), counts[p])
        sample_nodes += [n for pair in pairs for n in pair if n and not is_blank_id(n)]
    sample_nodes = list(dict.fromkeys(sample_nodes))
    table.prefetch(sample_nodes)
    signatures: Counter[tuple[int, ...]] = Counter()
    pools = ReachPools()
    for node in sample_nodes:
        row = table.row(node)
        if row is None or row[1] is None:
            continue
        label, packed, degree, _ = row
        signature = unpack_roles(packed)
        signatures[signature] += 1
        explicit = label if label and label != _fallback_label(node) else None
        pools.add(node, explicit, degree, signature)
    index = KGIndex(nodes=table)  # type: ignore[arg-type] — a NodeTable by its reads
    for column in ("labels", "by_norm", "roles", "degree", "classes"):
        setattr(index, column, NodeMap(table, column))  # type: ignore[arg-type]
    return finish_index(index, rel_ids, labels, aliases, counts, kinds, signatures, pools,
                        distinct, sum(counts.values()), comments)  # fmt: skip


def _has_text_search(endpoint) -> bool:
    """Does the endpoint answer Virtuoso's free-text predicate? (Others refuse the query:
    an unknown prefix; core.kg.remote.EndpointError is a ConnectionError.)"""
    try:
        endpoint.select("SELECT ?l WHERE { ?n ?p ?l . ?l bif:contains '\"knowloop\"' } LIMIT 1")
        return True
    except ConnectionError:
        return False


def _int(term: str | None) -> int:
    if not term:
        return 0
    try:
        return int(float(term_from_id(term).value))
    except ValueError:
        return 0


def _search_words(norm: str) -> list[str]:
    """The words a text index can look for (no stop words, no single letters)."""
    return [w for w in _WORD.findall(norm) if len(w) > 1 and w not in STOPWORDS][:8]


_SMALL = frozenset("a an and as at but by for from in into nor of on or the to with".split())


def _spellings(norm: str, text: str | None) -> list[str]:
    """How a label for this name is likely written: as the question wrote it, in lower
    case, capitalised, in title case (small words kept low), each word capitalised."""
    words = norm.split(" ")
    title = " ".join(w if i and w in _SMALL else w[:1].upper() + w[1:] for i, w in enumerate(words))
    every = " ".join(w[:1].upper() + w[1:] for w in words)
    out = [text.strip()] if text and text.strip() else []
    out += [norm, norm[:1].upper() + norm[1:], title, every, norm.upper()]
    return list(dict.fromkeys(out))
