"""What the relations of one KB mean, as vectors: the engine's relation understanding.

Built from the KB alone, once per opened graph (milliseconds; nothing is tuned per KB):

- **names**: each relation's label, its alt-labels and its documentation (rdfs:comment),
  embedded by the text model (core.textmodel). A name like ``people.person.place_of_birth``
  reads as its last segment, the domain prefix weighing less.
- **reach**: what a relation leads to, in each direction — the mean vector of the labels (and
  rdf:type classes) of a sample of the nodes it reaches. "which country …" asks for what
  `located in` reaches, whatever the relation is called.
- **literal kinds**: whether a relation's objects are years, numbers, text or entities.
- **kind words**: per role, the words that name what it reaches, read off the labels of the
  relations those nodes take part in — the head noun of one they are objects of ("plays for
  *club*", "*place* of birth"), a modifier of one they are subjects of ("*club* country": a
  club has a club country). "which *club* …" then asks for clubs, not for a club's country.
- **inverses**: relation pairs stored both ways (``parent``/``child``), found by sampling
  triples, so a walk out and straight back is recognised whichever of the two it takes.

Question words are compared with all of these (`RelationSemantics.word_scores`); the planner
and the judge read the result (core.analysis).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

import core.lexnet as lexnet
from core.kg.store import KnowledgeGraph
from core.kg.terms import is_literal_id
from core.text import IRREGULAR_VERB_FORMS, MARKED_SENSES, STOPWORDS, tokens, word_forms
from core.textmodel import TextModel, norm, text_model

COMMENT_WEIGHT = 0.9  # a match with the documentation counts a little less than the name
PREFIX_WEIGHT = 0.35  # domain segments of a dotted name ("people.person.") weigh less
INVERSE_SAMPLE = 24  # triples checked to call two relations inverses
INVERSE_SHARE = 0.9
SINGLE_VALUED = 1.02  # objects per subject at most this: a relation with one value each
UNIVERSAL = 0.95  # the share of every relation's subjects that have a typing relation
CLASSED = 0.5  # ... and of the nodes other relations reach, on average, for a class relation
SAME_REACH = 0.9  # two roles whose reach vectors are this alike arrive at the same kind
SHARED_VALUES = 0.15  # objects per subject at most this: a relation's values are shared
CATEGORICAL_MAX = 12
AFTER_SAMPLE = 24  # nodes of the previous role sampled for `reach_after`
REACH_NODES = 48
HAS_SAMPLE = 20  # nodes whose own relations describe their kind
KIND_SHARE = 0.5  # a relation names what a role reaches when this share of its nodes has it


@dataclass(frozen=True)
class RelationNames:
    """The texts a relation is known by, each with the weight of a match against it."""

    rel_id: str
    texts: tuple[str, ...]
    weights: tuple[float, ...]


class RelationSemantics:
    """Vectors for the relations of one KB, in `kg.index.rel_ids` order."""

    def __init__(self, kg: KnowledgeGraph, model: TextModel | None = None):
        self.kg = kg
        self.model = model or text_model()
        self.rel_ids = list(kg.index.rel_ids)
        self.code = {r: i for i, r in enumerate(self.rel_ids)}
        names = [relation_names(kg, r) for r in self.rel_ids]
        owner, texts, weights = [], [], []
        for i, n in enumerate(names):
            for text, w in zip(n.texts, n.weights, strict=True):
                owner.append(i)
                texts.append(text)
                weights.append(w)
        self._name_owner = np.array(owner, dtype=np.int64)
        self._name_vecs = self.model.embed_many(texts)
        self._name_weights = np.array(weights, dtype=np.float32)
        self.label_vecs = self.model.embed_many([kg.label(r) for r in self.rel_ids])
        # per relation: do (nearly) all the subjects of every relation have it? Then its
        # objects are classes ("instance of": city, university, business), not values of one
        # kind of thing (read from the index's role statistics: a lazily indexed endpoint
        # cannot list its nodes); what a role reaches is read by them too (`_centroid`)
        follow, n = kg.index.follow, len(self.rel_ids)
        subjects_of = [follow[2 * q + 1] for q in range(n) if follow.get(2 * q + 1)]
        self.universal = [bool(subjects_of) and all(f.get(2 * r, 0.0) >= UNIVERSAL
                                                    for f in subjects_of)
                          for r in range(n)]  # fmt: skip
        # ... and is it a class relation: one the nodes other relations point at have too
        # (bands, cities and albums are each an `instance of` something), not an attribute
        # of one kind of subject that every subject happens to have (each film's genre)
        entity = [q for q in range(n) if kg.relation(self.rel_ids[q]).object_kind == "entity"]
        self.class_relations = [
            self.rel_ids[r] for r, every in enumerate(self.universal)
            if every and entity and float(np.mean(
                [follow.get(2 * q, {}).get(2 * r, 0.0) for q in entity if q != r] or [0.0]))
            >= CLASSED
        ]  # fmt: skip
        # the roles of a class node: the object of a class relation (`class_node`)
        self._class_roles = {2 * self.code[r] + 1 for r in self.class_relations}
        # ... and of a node that has a class (its subject)
        self._classed_roles = {2 * self.code[r] for r in self.class_relations}
        # relations whose label ends on "of" name their subjects ("X is a *track* of Y", "a
        # *member* of"), not their objects as "plays for *club*" does
        self._subject_named = {i for i, r in enumerate(self.rel_ids)
                               if tokens(kg.label(r))[-1:] == ["of"]}  # fmt: skip
        self.reach_vecs = self._reach_vectors()
        self._after: dict[tuple[int, int], np.ndarray] = {}
        self._kind_after: dict[tuple[int, int], frozenset[str]] = {}
        self._bridges: dict[tuple[int, int], float] = {}
        self.scales: dict[bytes, tuple[float, float]] = {}  # see `_reach_scale`
        self._from: dict[tuple[str, int], np.ndarray] = {}
        self._values: tuple[list[str], np.ndarray] | None = None
        self._of_labels: list[tuple[int, np.ndarray, frozenset, frozenset]] | None = None
        self.kinds = [kg.relation(r).object_kind for r in self.rel_ids]
        self.inverse = find_inverses(kg)
        # per relation (+ padding): is it its own inverse (`spouse`, `competitor`, `sibling`)?
        self.self_inverse = np.array([self.inverse.get(r) == r for r in self.rel_ids] + [False])
        self.walks_back = self._walks_back()
        label_words = [tokens(kg.label(r)) for r in self.rel_ids]
        self.genus_forms = _head_genus(label_words)
        self.genera = frozenset().union(*self.genus_forms)
        # the word forms of the head nouns of the KB's classes ("band", "record *label*")
        self.class_forms = frozenset().union(*(
            self.class_head_forms(cls) for rel in self.class_relations
            for cls in kg.index.reach.get(2 * self.code[rel], ())))  # fmt: skip
        self.kind_forms = self._kind_forms(label_words)
        self.kind_heads = self._kind_forms(label_words, heads_only=True)
        # per relation: its label's words, and the marked senses they carry ("*former* club")
        self.label_sets = [frozenset(words) for words in label_words]
        self.marked_senses = [frozenset(j for j, sense in enumerate(MARKED_SENSES) if words & sense)
                              for words in self.label_sets]  # fmt: skip
        # per relation: does each subject have one object (a national team, a birth year)?
        # Then walking back to its subjects and out again returns where it started
        info = [kg.relation(r) for r in self.rel_ids]
        self.single_valued = [i.count <= SINGLE_VALUED * i.n_subjects for i in info]
        # per role code (+ padding): does a walk over it give one node for each it starts from
        # (a club's captain, a player's club)? A path of such roles answers one thing
        self.one_each = np.array(
            [i.count <= SINGLE_VALUED * (i.n_subjects if d == 0 else i.n_objects)
             for i in info for d in (0, 1)] + [True])  # fmt: skip
        # ... are its objects a few values many subjects share (professions, positions,
        # industries), rather than free tags?
        self.shared_values = [i.n_objects <= SHARED_VALUES * i.n_subjects for i in info]
        # per relation: the forms of its label's head nouns (what its objects are called)
        self.head_forms = [frozenset(f for w in label_parts(words)[0] for f in word_forms(w))
                           for words in label_words]  # fmt: skip
        # the names of several words as normalised tokens, by their first word (core.analysis
        # finds them written out whole in a question, on the hot path)
        self.phrases: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
        for i, words in enumerate(label_words):
            if len(words) >= 2:
                self.phrases.setdefault(words[0], []).append((i, tuple(words)))
        # the forms of every content word of a relation name
        self.label_forms = frozenset(
            f for words in label_words for w in words if w not in STOPWORDS
            for f in word_forms(w)
        )  # fmt: skip
        n = 2 * len(self.rel_ids)
        # (roles + 1)²: the share of nodes reached by the first role that can take the second
        self.follow_share = np.zeros((n + 1, n + 1))
        for prev, nexts in kg.index.follow.items():
            for cur, share in nexts.items():
                if prev < n and cur < n:
                    self.follow_share[prev, cur] = share
        # attributes with few distinct values over many nodes (gender, position, foot)
        self.categorical = [r for i, r in enumerate(self.rel_ids) if self._categorical(2 * i)]
        # per role (+ padding): the share of the nodes it reaches that are bare values — only
        # ever objects, with nothing of their own (genres, tags, years), not entities
        self.values = np.zeros(2 * len(self.rel_ids) + 1)
        for code in range(2 * len(self.rel_ids)):
            nodes = kg.index.reach.get(code, ())
            if nodes:
                bare = sum(1 for x in nodes if all(c % 2 for c in kg.index.roles.get(x, ())))
                self.values[code] = bare / len(nodes)

    def verbalise(self, path: list[int], topic: str = "X") -> str:
        """A path of role codes read out from its topic: "the nationality of the spouse of X";
        walked backwards, by the stored inverse's name where the KB has one ("the child of
        X" for `parent` backwards), else "whoever has place of birth X" (the contextual
        encoder ranks the right path first more often with this wording than with "what has
        …": 0.47 against 0.39 of held-out family questions, 0.29 against 0.21 of football)."""
        text = topic
        for code in path:
            rel = self.rel_ids[code >> 1]
            if code % 2 == 0:
                text = self._forwards(rel, text)
            elif rel in self.inverse:
                text = self._forwards(self.inverse[rel], text)
            else:
                text = f"whoever has {_noun(self.kg.label(rel))} {text}"
        return text

    def _forwards(self, rel: str, text: str) -> str:
        """One hop forwards read out: "the nationality of …", "whoever directed …" (a label
        naming its agent), "whatever … is a member of" (a label ending on "of" names its
        subjects, not a thing of theirs: "the member of of X" reads as nothing; not a class
        relation's "instance of"). Read so, the encoder ranked the right path first more
        often on the tuning files (music 143 → 146 of 444, the others unchanged)."""
        label = self.kg.label(rel)
        agent = _PASSIVE.fullmatch(label)
        if agent:  # "directed by": "whoever directed X"
            return f"whoever {agent[1]} {text}"
        if self.code[rel] in self._subject_named and rel not in self.class_relations:
            article = "an" if label[:1].lower() in "aeiou" else "a"
            return f"whatever {text} is {article} {label}"
        return f"the {_noun(label)} of {text}"

    def same_walk(self, hops) -> tuple:
        """Hops as the walk they take: over a relation the KB stores both ways under two
        names (`parent` / `child`, `spouse` / `spouse`) the walk forwards is the walk
        backwards over the other, so both read the same (the first by name)."""
        out = []
        for rel, direction in hops:
            other = self.inverse.get(rel)
            if other is not None and self.inverse.get(other) == rel:
                flipped = (other, "in" if direction == "out" else "out")
                out.append(min((rel, direction), flipped))
            else:
                out.append((rel, direction))
        return tuple(out)

    def __deepcopy__(self, memo) -> RelationSemantics:
        return self  # read-only and tied to its open KB: copies of a state share it

    def _categorical(self, code: int) -> bool:
        distinct, seen = self.kg.index.reach_distinct.get(code, (0, 0))
        return 2 <= distinct <= CATEGORICAL_MAX and seen >= 3 * distinct

    def _walks_back(self) -> np.ndarray:
        """(roles + 1)²: does a hop over role b walk straight back over a hop over role a? The
        same relation the other way, or its stored inverse the same way (parent out, then
        child out). The last row and column are padding."""
        n = 2 * len(self.rel_ids)
        back = np.zeros((n + 1, n + 1), bool)
        for c in range(n):
            back[c, c ^ 1] = True
        for r1, r2 in self.inverse.items():
            i, j = self.code[r1], self.code[r2]
            back[2 * i, 2 * j] = back[2 * i + 1, 2 * j + 1] = True
        return back

    def relative_reach(self, vec: np.ndarray, code: int, reached: np.ndarray | None = None
                       ) -> float:  # fmt: skip
        """cos(what role `code` reaches — or `reached`, what it reaches where a path is —,
        vec) against the best and the mean over all roles, mapped to [-1, 1]: 1 for the role
        that fits best, about 0 for an average one."""
        top, mean = self._reach_scale(vec)
        if top - mean < 1e-6:
            return 0.0
        value = float(reached @ vec) if reached is not None else float(self.reach_vecs[code] @ vec)
        return max(-1.0, min(1.0, (value - mean) / (top - mean) * 2 - 1))

    def _reach_scale(self, vec: np.ndarray) -> tuple[float, float]:
        """(best, mean) cosine of a vector with what the KB's roles reach (memoised per
        vector)."""
        key = vec.tobytes()
        scale = self.scales.get(key)
        if scale is None:
            sims = self.reach_vecs @ vec
            scale = (float(sims.max()), float(sims.mean())) if len(sims) else (0.0, 0.0)
            if len(self.scales) > 1024:
                self.scales.clear()
            self.scales[key] = scale
        return scale

    def same_kind(self, code: int) -> np.ndarray:
        """Per role: does it arrive at the same kind of node as role `code` (reach vectors
        at least SAME_REACH alike)?"""
        lengths = np.linalg.norm(self.reach_vecs, axis=1)
        sims = self.reach_vecs @ self.reach_vecs[code]
        return sims >= SAME_REACH * np.maximum(lengths * lengths[code], 1e-9)

    def class_node(self, node: str, only: bool = False) -> bool:
        """Is the node a class: the object of a class relation ("band", "city")? `only`:
        and nothing else (not also an industry that firms are in, say)."""
        roles = set(self.kg.index.roles.get(node, ()))
        return bool(self._class_roles & roles) and (not only or roles <= self._class_roles)

    def bare_value(self, node: str) -> bool:
        """Has the node nothing of its own but its class (a sector, a genre): is it the
        subject of no relation but a class relation?"""
        return all(code % 2 or code in self._classed_roles
                   for code in self.kg.index.roles.get(node, ()))  # fmt: skip

    def named_by_head(self, code: int) -> bool:
        """Does its relation label's head noun name a node that holds role `code`: an object
        ("plays for *club*", "place of *birth*"'s place), or a subject where the label ends
        on "of" ("X is a *track* of Y", "a *member* of")?"""
        return bool(code % 2) != (code >> 1 in self._subject_named)

    def _kind_forms(self, label_words: list[list[str]], heads_only: bool = False
                    ) -> list[frozenset[str]]:  # fmt: skip
        """Per role: the word forms (core.text.word_forms) of the label words that name what
        it reaches — a head noun of a relation most of those nodes are objects of, a modifier
        of one most of them are subjects of (`heads_only`: the head nouns alone, which name
        a kind more surely: "club" of "plays for club", not "national" of "national team")."""
        n = 2 * len(self.rel_ids)
        parts = [label_parts(words) for words in label_words]
        out = []
        for code in range(n):
            forms: set[str] = set()
            for nxt, share in self.kg.index.follow.get(code, {}).items():
                if nxt < n and share >= KIND_SHARE:
                    heads, modifiers = parts[nxt >> 1]
                    if self.named_by_head(nxt):  # "plays for *club*", "a *track* of"
                        words = heads if heads_only or nxt % 2 else (*heads, *modifiers)
                    elif not heads_only and nxt % 2 == 0:  # "*club* country": its subjects
                        words = modifiers
                    else:
                        words = ()
                    for word in words:
                        forms |= word_forms(word)
                    if words and words is heads:  # ... and what a dictionary says they are
                        forms |= self.genus_forms[nxt >> 1]
            out.append(frozenset(forms))
        return out

    def class_head_forms(self, cls: str) -> frozenset[str]:
        """The word forms of a class's head noun ("record *label*": label, labels …)."""
        head = tokens(self.kg.label(cls))[-1:]
        return word_forms(head[0]) if head else frozenset()

    def _held_class_forms(self, nodes) -> frozenset[str]:
        """The word forms of the head nouns of the classes most of the nodes have, by a class
        relation ("instance of" *city*, *record label*) or their stored types: what the KB
        itself says they are, where no relation's name says it."""
        nodes = list(nodes)
        if not nodes:
            return frozenset()
        counts: dict[str, int] = {}
        for rel in self.class_relations:
            for found in self.kg.edges_from(nodes, rel, "out", limit=3).values():
                for cls in set(found):
                    counts[cls] = counts.get(cls, 0) + 1
        for node in nodes:
            for cls in set(self.kg.index.classes.get(node, ())):
                counts[cls] = counts.get(cls, 0) + 1
        return frozenset().union(*(self.class_head_forms(cls) for cls, c in counts.items()
                                   if c >= KIND_SHARE * len(nodes)))  # fmt: skip

    # -- what relations reach --------------------------------------------------------------
    def _reach_vectors(self) -> np.ndarray:
        """Row 2i: what relation i reaches going out (its objects); 2i+1: going in."""
        out = np.zeros((2 * len(self.rel_ids), self.model.dim), np.float32)
        for code in range(2 * len(self.rel_ids)):
            out[code] = self._centroid(self.kg.index.reach.get(code, ()))
        return out

    def _centroid(self, nodes) -> np.ndarray:
        """What kind of thing some nodes are, as one unit vector: the mean of what they are
        called (labels, classes) plus the mean of the names of what they have (the
        relations they are subjects of: films have a genre and a director, companies a
        parent organization) — names alone say little about films or companies."""
        kg, index = self.kg, self.kg.index
        kg.prefetch(nodes)
        texts = [_node_text(kg, n) for n in nodes]
        texts += [kg.label(c) for n in nodes for c in index.classes.get(n, ())]
        sample = list(nodes)[:HAS_SAMPLE]
        # ... and by a class relation that is no rdf:type ("instance of": band, album), a
        # surer word for what they are than their names ("The Static Anchors")
        for rel in self.class_relations:
            reached = kg.edges_from(sample, rel, "out", limit=2)
            texts += [kg.label(c) for found in reached.values() for c in found]
        texts = [t for t in texts if t]
        roles = [c for n in sample for c in index.roles.get(n, ())]
        has = self.label_vecs[[c >> 1 for c in roles if c % 2 == 0]]
        # and the names of what points at them: a relation often names its object's kind
        # ("plays for *club*", "birth *city*")
        named_by = self.label_vecs[[c >> 1 for c in roles if c % 2 == 1]]
        vec = np.zeros(self.model.dim, np.float32)
        parts = (self.model.embed_many(texts) if texts else [], has, named_by)
        for part in parts:
            if len(part):
                mean = np.mean(part, axis=0)
                length = norm(mean)
                vec = vec + (mean / length if length else mean)
        length = norm(vec)
        return vec / length if length else vec

    def _mixed(self, nodes: list[str], code: int) -> np.ndarray:
        """What these nodes are, mixed with what the role reaches in general: a few nodes say
        less than the role's whole sample, so they weigh by their number (full at 8)."""
        mixed = self._centroid(nodes) * min(1.0, len(nodes) / 8) + self.reach_vecs[code]
        length = norm(mixed)
        return mixed / length if length else self.reach_vecs[code]

    def of_labels(self) -> list[tuple[int, np.ndarray, frozenset[str], frozenset[str]]]:
        """Per relation labelled "H of C" ("field of work", "place of birth"): its index, H's
        vector, the word forms of H and of C (core.analysis `_unasked_heads`). Built on first
        use."""
        if self._of_labels is None:
            out = []
            for r, rel in enumerate(self.rel_ids):
                words = tokens(self.kg.label(rel))
                if "of" not in words[1:-1]:
                    continue
                k = words.index("of", 1)
                head = [w for w in words[:k] if w not in STOPWORDS]
                forms = frozenset().union(*(word_forms(w) for w in words[k + 1 :]
                                            if w not in STOPWORDS))  # fmt: skip
                if head and forms:
                    out.append((r, self.model.embed(" ".join(head)),
                                frozenset().union(*(word_forms(w) for w in head)), forms))
            self._of_labels = out
        return self._of_labels

    def shared_value_nodes(self) -> tuple[list[str], np.ndarray]:
        """The values many subjects share (the countries of a nationality, the positions of
        players; a sample per relation, `KnowledgeGraph.index.reach`) with their labels'
        vectors: what a word that is no label may still name by meaning ("*Dutch* players"
        → Netherlands). Built on first use."""
        if self._values is None:
            ids = list(dict.fromkeys(
                n for r, shared in enumerate(self.shared_values)
                if shared and self.kinds[r] == "entity"
                for n in self.kg.index.reach.get(2 * r, ())
            ))  # fmt: skip
            self.kg.prefetch(ids)  # one request for their labels on a remote KB
            vecs = (self.model.embed_many([self.kg.label(n) for n in ids]) if ids
                    else np.zeros((0, self.model.dim), np.float32))  # fmt: skip
            self._values = (ids, vecs)
        return self._values

    def reach_after(self, prev: int, code: int) -> np.ndarray:
        """What role `code` reaches from the nodes role `prev` reached: "located in" from
        cities reaches countries, from universities cities (memoised; a sample of nodes)."""
        key = (prev, code)
        vec = self._after.get(key)
        if vec is None:
            vec = self._mixed(self._nodes_after(prev, code), code)
            self._after[key] = vec
        return vec

    def kind_after(self, prev: int, code: int) -> frozenset[str]:
        """The word forms of the head nouns that name what role `code` reaches from the nodes
        role `prev` reached — those of the relations most of those nodes are objects of: from
        cities `located in` reaches what `nationality` and `capital` point at ("nation"),
        where over all its subjects it reaches cities as often — and of the classes most of
        those nodes have (from bands, `formed in` reaches what is each an `instance of`
        *city*; memoised; a sample)."""
        key = (prev, code)
        forms = self._kind_after.get(key)
        if forms is None:
            nodes = self._nodes_after(prev, code)
            counts: dict[int, int] = {}
            for node in nodes:
                for role in self.kg.index.roles.get(node, ()):
                    if self.named_by_head(role):  # the relation's name names the node
                        counts[role >> 1] = counts.get(role >> 1, 0) + 1
            forms = frozenset().union(*(self.head_forms[r] | self.genus_forms[r]
                                        for r, c in counts.items()
                                        if c >= KIND_SHARE * len(nodes)))  # fmt: skip
            forms |= self._held_class_forms(nodes)
            self._kind_after[key] = forms
        return forms

    def bridge_share(self, code: int, nxt: int) -> float:
        """The share of the nodes that role `nxt` can start from (those holding it) that role
        `code` reaches: how much of where the next hop goes a bridge to it covers (memoised)."""
        key = (code, nxt)
        share = self._bridges.get(key)
        if share is None:
            holders = self.kg.index.reach.get(nxt ^ 1, ())
            reached = set(self.kg.index.reach.get(code, ()))
            share = sum(n in reached for n in holders) / len(holders) if holders else 0.0
            self._bridges[key] = share
        return share

    def _nodes_after(self, prev: int, code: int) -> list[str]:
        """A sample of the nodes role `code` reaches from those role `prev` reached."""
        rel, direction = self.rel_ids[code >> 1], "out" if code % 2 == 0 else "in"
        nodes: list[str] = []
        sample = self.kg.index.reach.get(prev, ())[:AFTER_SAMPLE]
        for reached in self.kg.edges_from(sample, rel, direction, limit=3).values():
            nodes += reached
        return list(dict.fromkeys(nodes))[:REACH_NODES]

    def reach_from(self, node: str, code: int) -> np.ndarray:
        """What role `code` reaches from one node: the mean vector of its actual neighbours."""
        key = (node, code)
        vec = self._from.get(key)
        if vec is None:
            rel, direction = self.rel_ids[code >> 1], "out" if code % 2 == 0 else "in"
            vec = self._mixed(self.kg.edges(node, rel, direction, limit=REACH_NODES), code)
            if len(self._from) > 4096:
                self._from.clear()
            self._from[key] = vec
        return vec

    # -- question words against relations --------------------------------------------------
    def word_scores(self, vectors: np.ndarray) -> np.ndarray:
        """(words × relations): the best weighted cosine of each word with any name of each
        relation (label, alt-label, documentation)."""
        if not len(vectors) or not len(self._name_vecs):
            return np.zeros((len(vectors), len(self.rel_ids)), np.float32)
        cos = (vectors @ self._name_vecs.T) * self._name_weights
        out = np.full((len(vectors), len(self.rel_ids)), -1.0, np.float32)
        np.maximum.at(out.T, self._name_owner, cos.T)
        return out

    def reach_scores(self, vectors: np.ndarray) -> np.ndarray:
        """(words × role codes): how much each word sounds like what each role reaches."""
        return vectors @ self.reach_vecs.T

    def same_relation(self, a: tuple[str, str], b: tuple[str, str]) -> bool:
        """Do two hops walk the same edges (one relation, or a stored inverse the other way)?"""
        if a == b:
            return True
        inv = self.inverse.get(a[0])
        return inv is not None and (inv, "in" if a[1] == "out" else "out") == b


def _head_genus(label_words: list[list[str]]) -> list[frozenset[str]]:
    """Per relation: the word forms of what an English dictionary says its label's head
    nouns are a kind of (the head of the first noun phrase of their first sense's
    definition: a *club* is "a *team* of professional … players"), where that word is itself
    a head noun of the KB's labels (no participle: a *place* is "a point *located*") and the
    genus of no other head noun there — a kind the KB names, told apart from the others (not
    "someone", the genus of every agent noun)."""
    heads = [label_parts(words)[0] for words in label_words]
    def participle(w: str) -> bool:
        return w.endswith(("ed", "ing")) and lexnet.may_inflect_a_verb(w)

    head_forms = {f for hs in heads for w in hs for f in word_forms(w) if not participle(w)}
    genus: dict[str, str] = {}
    for word in {w for hs in heads for w in hs}:
        found = [w for w in lexnet.genus_words(word, "n", 99) if w.isalpha()]
        if found and found[-1] != word and not participle(found[-1]) \
                and not word_forms(found[-1]) & word_forms(word):  # fmt: skip
            genus[word] = found[-1]
    owners: dict[str, set[str]] = {}
    for word, g in genus.items():
        owners.setdefault(g, set()).add(word)
    return [frozenset(f for w in hs if w in genus and len(owners[genus[w]]) == 1
                      and word_forms(genus[w]) & head_forms
                      for f in word_forms(genus[w])) for hs in heads]  # fmt: skip


def _participle(word: str) -> bool:
    """A trailing participle of a label, regular or not ("produced", "award *won*",
    "languages *spoken*")."""
    return word.endswith("ed") or word in IRREGULAR_VERB_FORMS


def label_parts(label: str | list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A relation label's head nouns and the content words before them (its modifiers, in
    English compound order): the word before "of" ("*place* of birth"; what follows "of" is
    neither), else the last content word ("club *country*", "plays for *club*") that is not
    a trailing participle ("*product* or *material* produced", "*award* won"); coordinated
    nouns are heads together ("directed by" keeps "directed" as its head: there is nothing
    else). The label as text or as its tokens (core.text.tokens)."""
    words = tokens(label) if isinstance(label, str) else label
    if "of" in words[1:]:
        head_at = words.index("of", 1) - 1
    else:
        content = [i for i, w in enumerate(words) if w not in STOPWORDS]
        nouns = [i for i in content if not _participle(words[i])] or content
        head_at = nouns[-1] if nouns else -1
    if head_at < 0:
        return (), ()
    heads = [head_at]
    while heads[-1] >= 2 and words[heads[-1] - 1] in ("or", "and"):
        heads.append(heads[-1] - 2)
    modifiers = tuple(w for w in words[: min(heads)] if w not in STOPWORDS)
    return tuple(words[i] for i in sorted(heads)), modifiers


def relation_names(kg: KnowledgeGraph, rel_id: str) -> RelationNames:
    """Label, alt-labels and comment of a relation; a dotted or slashed name also by its
    last segment ("people.person.place of birth" -> "place of birth")."""
    info = kg.relation(rel_id)
    texts, weights = [], []

    def add(text: str, weight: float) -> None:
        text = " ".join(text.split())
        if text and text not in texts:
            texts.append(text)
            weights.append(weight)

    for name in (info.label, *info.aliases):
        parts = [p for p in re.split(r"[./]", name) if p.strip()]
        if len(parts) > 1:
            add(parts[-1], 1.0)
            add(" ".join(parts), PREFIX_WEIGHT + (1 - PREFIX_WEIGHT) * 0.5)
        else:
            add(name, 1.0)
    comment = kg.index.comments.get(rel_id, "")
    if comment:
        add(comment, COMMENT_WEIGHT)
    return RelationNames(rel_id, tuple(texts), tuple(weights))


def _node_text(kg: KnowledgeGraph, node: str) -> str:
    """What a reached node says about its kind: its label; a literal's text when it is words
    (numbers and years say nothing a vector can use)."""
    label = kg.label(node)
    if is_literal_id(node) and not any(c.isalpha() for c in label):
        return ""
    return label


def find_inverses(kg: KnowledgeGraph) -> dict[str, str]:
    """Relation pairs stored both ways: r2 is r1's inverse when (o, r2, s) holds for nearly
    every sampled (s, r1, o). Symmetric relations (spouse) are their own inverse."""
    index, out = kg.index, {}
    entity_rels = [r for r in index.rel_ids if kg.relation(r).object_kind == "entity"]
    for r1 in entity_rels:
        subjects = index.reach.get(index.rel_ids.index(r1) * 2 + 1, ())[:INVERSE_SAMPLE]
        reached = kg.edges_from(subjects, r1, "out", limit=2)  # one request on a remote KB
        pairs = [(s, o) for s in subjects for o in reached.get(s, ())]
        if len(pairs) < 3:
            continue
        objects = list(dict.fromkeys(o for _, o in pairs))
        for r2 in entity_rels:
            back = kg.edges_from(objects, r2, "out")
            hits = sum(1 for s, o in pairs if s in back.get(o, ()))
            if hits >= INVERSE_SHARE * len(pairs):
                out[r1] = r2
                break
    return out


def semantics_for(kg: KnowledgeGraph) -> RelationSemantics:
    """The relation semantics of an opened KB, built on first use and kept with it."""
    sem = getattr(kg, "_semantics", None)
    if sem is None or sem.rel_ids != kg.index.rel_ids:
        sem = kg._semantics = RelationSemantics(kg)
    return sem


_PASSIVE = re.compile(r"(\w+(?:ed|en)) by")  # a relation named by its agent: "written by"


def _noun(label: str) -> str:
    """A relation's name as the noun of "the … of X": "has tags" reads "tags" (the verb would
    make "the has tags of X", which the encoder reads as nothing)."""
    head, _, rest = label.partition(" ")
    return rest if head.lower() in ("has", "have") and rest else label
