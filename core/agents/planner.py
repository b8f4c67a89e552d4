"""Relation-path planning by rules: which topic entity, which relations, in which order.

A plan is a topic entity, a path of (relation, direction) hops, optional constraints to other
topic entities ("which players of club Y play as goalkeeper") and optional filters on literal
values ("released before 2005", "the latest"). Plans are enumerated over the KB's real
relations (the anchor's own roles, then the relations that co-occur on the nodes each hop
reaches) and scored by a weighted sum of explainable features — how much of the question the
path explains (core.path_fit.explain), the answer type, word order, shape, linking — whose
weights were fitted on the dev sets (`planner_weights.json`, `scripts/fit_planner.py`). The
trace shows the features of the chosen plan and its rivals.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from core.agents.plan_ranker import PlanRanker
from core.analysis import (
    HOP_EXPLAINED,
    NAMED_WEAK,
    REACH_WEIGHT,
    TAU_SOFT,
    EntityMention,
    QuestionAnalysis,
    asks_count,
    counted_noun,
    literal_kinds,
    passive_of_focus,
    role_codes,
    said_senses,
)
from core.answer_types import (
    answer_fit,
    doer_roles,
    implies_first_hop,
    nearest_relation,
    rule_type_fit,
)
from core.chain import chain_length, chain_tokens
from core.constraints import Comparison
from core.kg.semantics import RelationSemantics, semantics_for
from core.kg.store import KnowledgeGraph
from core.path_fit import (
    anchor_forms,
    anchor_kind,
    arrival_kinds,
    asked_kind,
    clear_choice,
    explain_key,
    explain_paths,
    kind_on_path,
    path_reach,
)
from core.text import MARKED_MODIFIERS, is_plural, word_forms, word_senses
from core.textmodel import sentence_model

Hop = tuple[str, str]  # (relation id, "out" | "in")

MAX_PATHS = 2000  # per topic entity
PROMISING = 60  # paths per topic entity that get the full features (see _promising)
PROMISING_HOP = 0.05
PROMISING_SHAPE = 0.5  # ... and a walk back where a cue asks for others
PREFIXED = 10  # the best paths whose prefixes are scored in full as well
BRIDGE_SHARE = 0.5  # see Planner._inclusive_bridges
ANCHOR_MARGIN = 1.0  # plan only from names linked within this of the best
MAX_REREAD = 2  # constraints read by their next relation too (see Planner._constraints)
MARK_REACH = 4  # tokens between a marked modifier ("former") and the name it belongs to
UNNAMED_BY_WORDS = 3  # ... and these, nearest the question's words (see _plans_for)
MAX_UNNAMED_BRANCH = 8  # next relations tried when the question does not name them
COUNT_MARGIN = 0.05  # a count named by the noun: within this of its best-named last hop
STATED_COUNT = 0.4  # a number-valued relation named this like a counted one states its count
NAMED_AT = 0.45  # a relation some question word matches this well counts as named (or
# weakly: core.path_fit.clear_choice)
FOCUS_SAMPLE = 20  # answers of a constraint on the noun asked about read for their roles
ASKED_FIT = 0.5  # a role arriving at the kind asked this well may be a last unnamed hop
LITERAL_KINDS = ("number", "year")  # relations to values shared by chance, not by a tie
BOUND_KINDS = ("place",)  # answer kinds the cheap bound of `_promising` reads besides literals
MAX_SHARED = 2  # values shared with the topic tried as constraints (Planner._shared_values)
WEIGHTS_FILE = Path(__file__).with_name("planner_weights.json")
ANSWER_KINDS = ("person", "place", "time", "number", "thing", "choice")
FEATURES = (
    "coverage", "coverage_soft", "coverage_lex", "unexplained_hops", "unnamed_hops_lex",
    "shared_hops", "uncued_shared_hops", "min_support", "inversions", "merged_words",
    "role_switch", "hops", "link", "anchor_rank", "constraints", "class_constraints",
    "filters", "unused_comparisons", "ignored_names", "path_similarity", "context_similarity",
    "unmarked_modifiers",
    "answers_focus_kind", "value_answer", "type_rule", "order_rule",
    *(f"type_{kind}" for kind in ANSWER_KINDS), "echo_hops", "cued_shapes", "short_chain",
    "no_time", "misplaced_modifiers", "one_for_many", "chain_inversions", "foreign_peers",
    "passed_over_names", "doer_arrives",
)  # fmt: skip
# rules, not fitted: a path does not end by walking back over a relation the question names
# once, unless the question asks for other things ("the movie X, when was it *released*" is not
# "the films released in the year X was")
# "the scriptwriter of X *also* wrote", "*co*-wrote films with X": a cue asks for the shape of
# walking back over a named hop, even when the walk back has a word of its own
CONTEXT = FEATURES.index("context_similarity")
CUED = FEATURES.index("cued_shapes")
COVERAGE = FEATURES.index("coverage")
UNMARKED = FEATURES.index("unmarked_modifiers")
SUPPORT = FEATURES.index("min_support")
UNEXPLAINED = FEATURES.index("unexplained_hops")
HOPS = FEATURES.index("hops")
VALUES = FEATURES.index("value_answer")
RULE_TYPE = FEATURES.index("type_rule")
TYPES = [FEATURES.index(f"type_{kind}") for kind in ANSWER_KINDS]
RERANK = 40  # plans ranked after the contextual encoder (as many as the fit sees)
COVERAGE_MARGIN = 0.25  # see Planner.plans: the rule on unexplained phrases
CONTEXT_MARGIN, CONTEXT_LEAD = 1.0, 0.1  # see _read_by_context
LEAP_MARGIN, LEAP_COVERAGE, LEAP_SUPPORT = 3.0, 0.4, 0.1  # see _explains_far_more
KIND_FIT, KIND_COVERAGE, KIND_MARGIN = 0.9, 0.1, 5.0  # see _ends_on_the_kind_asked
CONTEXT_COVERAGE = 0.05  # ... and how much more a plan with a hop no word names must explain
UNSAID_CONTEXT = 0.2  # the encoder's reading of a path over an unsaid-qualifier relation
# When the first stage's best plan leads the next by this much, the second stage (contextual
# encoder + ranker) is skipped: on the tuning files it then picks the same plan's quality in
# every question (`scripts/fit_planner.py --reuse --gate` measures it), and the encoder is
# most of a question's time
CONTEXT_GATE = 2.0
GATE_COVERAGE = 0.45  # ... and its winner explains at most this much less than another plan
# ... and it reads only the first stage's CONTEXT_READ best plans (the others are scored with
# no contextual reading): on the tuning files the chosen plan is the same as when all 40 are
# read (`fit_planner.py --reuse --gate`), at a quarter of the texts to encode
CONTEXT_READ = 10
# "X's *son*'s *partner*'s nationality" is three hops, however alike "son" and "partner" read
# to the encoders: a plan with fewer hops than the grammar's parts (`chain_length`) is
# shorter than the question
# "*when* was X founded" asks for a time: a plan that ends elsewhere, where another ends on a
# year, answers another question however well its words match ("founded by")
# "the *ex*-A people now at B": a marked modifier belongs to the name it stands next to; a
# reading that gives its marked relation to the other name says another thing
# "who are the *goalkeepers* at X", "X's *defenders*": a plural asks for several things; a path
# that gives one node for each it starts from (a club's captain, its manager) answers one
# "X's *child*'s *husband*" walks to the child first: a plan whose hops take the parts of a
# possessive chain in the other order says another thing (the spouse's child), however often
# the KB has that order
# "the *other* graduates of the university X attended", "who *else* …": the answers are of the
# topic's kind — a path whose last hop could never arrive at the topic itself answers something
# else (the university, not its graduates)
# "which *rock* bands come from the *United Kingdom*": a plan that leaves out a name linked
# clearly better than the ones it uses answers another question (`_passed_over`)
PASSED_OVER_MARGIN = 0.5
RULE_WEIGHTS = {"echo_hops": -10.0, "cued_shapes": 2.0, "short_chain": -5.0, "no_time": -10.0,
                "misplaced_modifiers": -5.0, "one_for_many": -3.0, "chain_inversions": -3.0,
                "foreign_peers": -6.0, "passed_over_names": -3.0,
                "doer_arrives": -3.0}
DEFAULT_WEIGHTS = {
    "coverage": 3.0,
    "unexplained_hops": -1.0,
    "shared_hops": -0.3,
    "uncued_shared_hops": -0.8,
    "min_support": 1.0,
    "inversions": -0.5,
    "role_switch": -0.6,
    "type_person": 1.0,
    "type_place": 1.0,
    "type_time": 1.0,
    "type_number": 1.0,
    "type_thing": 0.5,
    "type_choice": 1.0,
    "class_constraints": 0.3,
    "hops": -0.15,
    "link": 0.5,
    "constraints": 0.6,
    "filters": 0.6,
    "unused_comparisons": -1.0,
    "ignored_names": -1.0,
    "path_similarity": 0.5,
    "unmarked_modifiers": -1.0,
}


def _fitted(path: Path) -> dict:
    return json.loads(path.read_text()) if path.is_file() else {}


def load_weights(path: Path = WEIGHTS_FILE, data: dict | None = None) -> dict[str, float]:
    """The fitted feature weights (the defaults where a feature has none)."""
    weights = {**DEFAULT_WEIGHTS, **(_fitted(path) if data is None else data).get("weights", {})}
    weights.update(RULE_WEIGHTS)
    return weights


def load_ranker(path: Path = WEIGHTS_FILE, data: dict | None = None) -> PlanRanker:
    """The final scorer of the best plans: the fitted network where the file has one, else
    the linear weights (core.agents.plan_ranker)."""
    data = _fitted(path) if data is None else data
    if "ranker" in data:
        return PlanRanker.from_dict(data["ranker"], FEATURES, RULE_WEIGHTS)
    return PlanRanker.linear(FEATURES, load_weights(path, data))


_FILE = _fitted(WEIGHTS_FILE)  # read once at import
WEIGHTS = load_weights(data=_FILE)
RANKER = load_ranker(data=_FILE)


@dataclass(frozen=True)
class Filter:
    """A literal comparison on the answers: `relation` reaches a value that must satisfy
    `comparison` (a superlative keeps the answers with the largest or smallest value)."""

    relation: str
    comparison: Comparison


@dataclass
class Plan:
    anchor: str
    mention: EntityMention
    hops: list[Hop]
    constraints: list[tuple[str, str, str]] = field(default_factory=list)  # (anchor, rel, dir)
    constraint_mentions: list[EntityMention] = field(default_factory=list)
    filters: list[Filter] = field(default_factory=list)
    # per constraint, the next-best (anchor, rel, dir) readings of its name, best first: tried
    # in turn when a constraint links none of the candidates ("English" the language, not the
    # tag "english")
    constraint_alternatives: list[list[tuple[str, str, str]]] = field(default_factory=list)
    score: float = 0.0
    features: dict[str, float] = field(default_factory=dict)
    # what a hop's word says its nodes are, applied as they are reached: (hop number,
    # categorical relation, value) — "X's *mother*'s birthplace" keeps the female parent
    kinds: list[tuple[int, str, str]] = field(default_factory=list)
    exclude_topic: bool = False  # the topic entity is never an answer of this plan
    first_stage: bool = False  # scored by the linear first stage alone (a clear winner)
    # the answer is how many nodes the walk reaches ("how many films did X direct"), counted
    # as the plan's last part
    count: bool = False

    def key(self, sem: RelationSemantics) -> tuple:
        """What makes two plans the same: walks over a relation stored both ways are one walk
        (`parent` out is `child` in, `RelationSemantics.same_walk`)."""
        return (self.anchor, sem.same_walk(self.hops), tuple(self.constraints),
                tuple(self.filters), self.count)  # fmt: skip

    @property
    def parts(self) -> int:
        """The steps after the hops: constraints, then filters, then the count."""
        return len(self.constraints) + len(self.filters) + self.count

    @property
    def used(self) -> tuple[EntityMention, ...]:
        return (self.mention, *self.constraint_mentions)


class Planner:
    """Enumerate and score plans for one question on one KB."""

    def __init__(self, kg: KnowledgeGraph, max_hops: int = 3, max_anchors: int = 4,
                 weights: dict[str, float] | None = None, ranker: PlanRanker | None = None,
                 context_gate: float = CONTEXT_GATE, context_read: int = CONTEXT_READ
                 ):  # fmt: skip
        """`weights`: the linear first stage that picks the RERANK best plans; `ranker`: the
        final scorer of those (by default the fitted one; with `weights` given and no
        `ranker`, those weights do both); `context_gate`: the first stage's lead that skips
        the second, `context_read`: how many plans the encoder reads (the fit's collection
        needs every plan read: inf and RERANK)."""
        self.kg = kg
        self.max_hops = max_hops
        self.max_anchors = max_anchors
        self.weights = weights or WEIGHTS
        self.linear = PlanRanker.linear(FEATURES, self.weights)
        self.ranker = ranker or (self.linear if weights else RANKER)
        self.context_gate = context_gate
        self.context_read = context_read
        self.sem = semantics_for(kg)

    def plans(self, qa: QuestionAnalysis, limit: int = 8) -> list[Plan]:
        """The best `limit` plans, best first, each with its score and features."""
        candidates: list[Plan] = []
        mentions = _distinct_mentions(qa.entities, self.max_anchors)
        best_link = max((m.link_score for m in mentions), default=0.0)
        # far weaker than the best-linked name: not worth planning from; nor is a class
        # ("which *country* are X from") where the question names a thing of its own
        mentions = [m for m in mentions if m.link_score >= best_link - ANCHOR_MARGIN]
        things = [m for m in mentions if not self._is_class(m)]
        mentions = things or mentions
        for mention in mentions:
            for anchor in mention.ids[:3]:
                candidates.extend(self._plans_for(qa, mention, anchor))
        if not candidates:
            return []
        if asks_count(qa):
            candidates += self._counted(qa, candidates)
        x = self.feature_matrix(candidates, qa)
        hops = np.array([len(p.hops) for p in candidates])
        base = self.linear.scores(x)
        best = self._distinct(candidates, np.lexsort((hops, -base)), RERANK)
        # the RERANK best by the linear first stage are scored by the ranker, with the
        # contextual encoder's reading of each (memoised texts: the paths of one KB repeat
        # from question to question) — unless the first stage has a clear winner
        lead = base[best[0]] - base[best[1]] if len(best) > 1 else np.inf
        # ... and one whose every hop some word names well: a leader no word names is
        # a guess the encoder's reading of the whole phrase may correct; and one that
        # explains nearly as much of the question as any plan (a short walk named well that
        # leaves half the question unsaid is no clear winner: "which firms have their HQ
        # somewhere in X" read as the firms of country X, "HQ" left unexplained)
        first_stage = lead >= self.context_gate and \
            x[best[0], SUPPORT] >= NAMED_AT and \
            x[best[0], COVERAGE] >= x[best, COVERAGE].max() - GATE_COVERAGE  # fmt: skip
        if not first_stage:
            read = best[: self.context_read]
            x[read, CONTEXT] = self._context_similarity(qa, [candidates[i] for i in read])
        scores = (self.linear if first_stage else self.ranker).scores(x[best])
        order = rank_order(scores, x[best, COVERAGE], hops[best], x[best, UNMARKED] > 0)
        if not first_stage:
            order = _read_by_context(order, scores, x[best],
                                     self._of_asked_kind(qa, [candidates[i] for i in best]),
                                     qa.asks_for_others)
            order = _explains_far_more(order, scores, x[best])
        order = _ends_on_the_kind_asked(order, scores, x[best], [candidates[i] for i in best])
        leader = candidates[best[order[0]]]
        if qa.answer.wh in ("person", "place") and self._arrives_at_value(leader):
            values = np.array([self._arrives_at_value(candidates[i]) for i in best])
            order = _answers_no_value(order, scores, x[best], values)
        ranked = []
        for j in self._distinct([candidates[i] for i in best], order, limit):
            plan = candidates[best[j]]
            plan.score = float(scores[j])
            plan.first_stage = bool(first_stage)
            plan.features = {f: round(v, 4) for f, v in zip(FEATURES, x[best[j]].tolist(),
                                                             strict=True)}  # fmt: skip
            if plan.exclude_topic and not qa.asks_for_others and \
                    not plan.features["uncued_shared_hops"]:  # fmt: skip
                # the walk back has a word of its own ("the *spouse* of X's *husband*", "the
                # *group* that *holds* the units X owns"): the topic may well be the answer
                plan.exclude_topic = False
            ranked.append(plan)
        return ranked

    def _counted(self, qa: QuestionAnalysis, plans: list[Plan]) -> list[Plan]:
        """Each plan whose last hop arrives at the things the noun counted names, counting
        them: by what they are ("how many *songs* did X write": the nodes `written by` reaches
        back are songs, by a label's head or a class) or by the hop's name, the noun's best of
        the plans' last hops ("how many *children* does X have": `child`; not "*workers*"
        read as the chief executive of firms X employs, where `number of employees` reads
        better) — not where the noun names no hop ("how many *seats* does X have": how many
        stadiums)."""
        token = counted_noun(qa)
        row = qa.row_of(token)
        if row is None:
            return []
        sem = self.sem
        forms = word_forms(qa.words[token]) | {qa.words[token]}
        last = np.array([role_codes(sem, p.hops[-1:])[0] for p in plans])
        things = arrival_kinds(sem, last) == "entity"
        names = qa.role_names[row, last]
        kept = []
        for i, plan in enumerate(plans):
            code = int(last[i])
            if not things[i] or sem.one_each[role_codes(sem, plan.hops)].all() or (
                    code % 2 == 0 and sem.rel_ids[code >> 1] in sem.class_relations):
                # ... over a walk that may reach several (no count of a stadium's one
                # `venue` for "how many *seats*", however alike the words read), and not of
                # the classes things are `instance of` ("how many *papers*")
                continue
            prev = role_codes(sem, plan.hops[-2:-1])
            kind = (sem.kind_after(prev[0], code) if prev else sem.kind_heads[code]) \
                | self._classes_reached(plan)  # fmt: skip
            # the name read the wrong way: "*clubs*" names `plays for club`, whose walk
            # back reaches players
            backwards = bool(forms & sem.head_forms[code >> 1]) and not sem.named_by_head(code ^ 1)
            if forms & kind or (names[i] >= max(NAMED_AT, names.max() - COUNT_MARGIN)
                                and not backwards):  # fmt: skip
                kept.append(i)
        # ... nor where the KB states the count: a number that the node the counted links
        # start from has, over a relation named like the one counted (X's `number of
        # employees` beside the people whose `employer` X is)
        numbers: dict[tuple, set[int]] = {}
        for plan, code, thing in zip(plans, last.tolist(), things, strict=True):
            if not thing:
                numbers.setdefault((plan.anchor, tuple(plan.hops[:-1])), set()).add(code >> 1)
        vecs = sem.label_vecs
        return [replace(plans[i], count=True, features={}) for i in kept
                if not any(float(vecs[last[i] >> 1] @ vecs[r]) >= STATED_COUNT
                           for r in numbers.get((plans[i].anchor, tuple(plans[i].hops[:-1])),
                                                ()))]  # fmt: skip

    def _classes_reached(self, plan: Plan, sample: int = 50) -> frozenset[str]:
        """The word forms of the class labels (the head word of each) of a sample of the
        nodes the plan's walk reaches: songs are `instance of` song."""
        sem, kg = self.sem, self.kg
        if not sem.class_relations:
            return frozenset()
        nodes = [plan.anchor]
        for rel, direction in plan.hops:
            reached = kg.edges_from(nodes, rel, direction)
            nodes = list(dict.fromkeys(n for node in nodes for n in reached.get(node, ())))
            nodes = nodes[:sample]
        classes = {c for rel in sem.class_relations
                   for values in kg.edges_from(nodes, rel, "out").values() for c in values}
        heads = [kg.label(c).lower().split()[-1:] for c in classes]
        return frozenset(f for head in heads for w in head for f in word_forms(w) | {w})

    def _of_asked_kind(self, qa: QuestionAnalysis, plans: list[Plan]) -> np.ndarray | None:
        """Per plan: do its answers have the kind the noun asked about names — by a relation
        label's head or by the dictionary's genus ("which *teams* …" of a KB of clubs)? None
        where the question names no such kind."""
        forms = frozenset()
        if qa.kind_focus is not None:
            forms |= qa.kind_focus[2]
        if qa.genus_focus is not None:
            forms |= qa.genus_focus[1]
        if not forms:
            return None
        on_path = kind_on_path(qa, padded([role_codes(self.sem, p.hops) for p in plans]), forms,
                               first=True)  # fmt: skip
        # ... or by a class the plan keeps its answers to ("which *musicians* are in X": the
        # members that are `instance of` musician)
        return on_path | np.array([self._keeps_class(p, forms) for p in plans], dtype=bool)

    def _keeps_class(self, plan: Plan, forms: frozenset[str]) -> bool:
        """Does a class constraint of the plan name a kind in `forms` (by its label's head)?"""
        return any(rel in self.sem.class_relations and self.sem.class_head_forms(node) & forms
                   for node, rel, _ in plan.constraints)  # fmt: skip

    def _is_class(self, mention: EntityMention) -> bool:
        """Is every node the mention links a class (the object of a class relation)?"""
        return bool(mention.ids) and all(self.sem.class_node(n) for n in mention.ids[:3])

    def ranker_of(self, plan: Plan) -> PlanRanker:
        """The scorer that gave `plan` its score (what its explanation must read)."""
        return self.linear if plan.first_stage else self.ranker

    def _distinct(self, plans: list[Plan], order: np.ndarray, limit: int) -> list[int]:
        """The first `limit` indices in `order` whose plans differ (`Plan.key`)."""
        seen, out = set(), []
        for i in order.tolist():
            key = plans[i].key(self.sem)
            if key not in seen:
                seen.add(key)
                out.append(i)
                if len(out) == limit:
                    break
        return out

    # -- enumeration ------------------------------------------------------------------------
    def _named(self, qa: QuestionAnalysis, mention: EntityMention) -> set[str]:
        """Relations some word outside the mention names well (by form or by meaning), or
        whose reach it describes ("which *company*")."""
        key = ("named", mention.start, mention.end)
        if key not in qa._cache:
            rows = qa.word_rows(mention)
            named: set[str] = set()
            if rows:
                # by its name, or by what it reaches ("which *company*" names `employer`)
                table = qa.explains[rows, :-1]
                best = table.max(axis=0)
                named = {self.sem.rel_ids[c >> 1] for c in np.flatnonzero(best >= NAMED_AT)}
                # ... or that a word clearly prefers, though weakly ("the person *leading* X",
                # "*graduate* from"): tried on a path, for the features to judge
                clear, best = clear_choice(table.reshape(len(rows), -1, 2).max(axis=2))
                named |= {self.sem.rel_ids[r] for r in best[clear]}
            qa._cache[key] = named
        return qa._cache[key]

    def _plans_for(self, qa: QuestionAnalysis, mention: EntityMention, anchor: str) -> list[Plan]:
        named = self._named(qa, mention)
        chain = chain_length(qa, mention)
        start_roles = self.kg.index.roles.get(anchor, ())
        paths: list[list[int]] = []
        follow, rel_ids = self.kg.index.follow, self.kg.index.rel_ids
        single, back, kinds = self.sem.single_valued, self.sem.walks_back, self.sem.kinds
        rows = qa.word_rows(mention)
        table = qa.explains[rows]
        near = table.max(axis=0) if rows else np.zeros(2 * len(rel_ids) + 1)
        # words that name nothing well, outside the chain's parts (which are hops by the
        # grammar, each walked where its own word leads)
        tokens = [qa.word_tokens[w] for w in rows]
        weak = table[(table.max(axis=1) < NAMED_AT)
                     & ~np.isin(tokens, sorted(chain_tokens(qa, mention)))]

        branches: dict[int, tuple[list[int], set[int]]] = {}
        literal = literal_kinds(qa)
        fits: dict[int, bool] = {}
        # how much the noun asked about reads like what each role reaches ("which *projects*")
        kind_reach, kind_least, _ = asked_kind(qa, np.arange(2 * len(rel_ids))[None, :],
                                                 which=False)

        def asked(code: int, prev: int = -1) -> bool:
            """Does role `code` arrive at the kind of answer the question word asks for (a
            year, a number, a place), or at what the noun asked about reads like — over all
            its subjects, or from where role `prev` arrived ("which *city* is X's institution
            in": `located in` reaches cities and countries, from institutions cities)?"""
            key = (prev, code)
            if key not in fits:
                if literal:
                    fits[key] = bool(np.isin(arrival_kinds(self.sem, np.array([code])),
                                             literal)[0])  # fmt: skip
                elif qa.answer.wh in BOUND_KINDS:
                    fits[key] = answer_fit(qa, self.kg, rel_ids[code >> 1],
                                           "out" if code % 2 == 0 else "in") >= ASKED_FIT
                else:  # ... or onto what the noun asked about reads like ("which *groups*")
                    fits[key] = bool(kind_reach[0, code] >= kind_least)
                    if not fits[key] and prev >= 0 and np.isfinite(kind_least):
                        after = self.sem.reach_after(prev, code)
                        fits[key] = bool(REACH_WEIGHT * float(qa.vectors[qa.focus_row] @ after)
                                         >= kind_least)  # fmt: skip
            return fits[key]

        def unnamed_branches(last: int) -> tuple[list[int], set[int]]:
            """The next steps from role `last`, and those tried though no word names them."""
            if last not in branches:
                nexts = follow.get(last, {})
                # a relation the question never names is tried only among the most common
                # next steps, so a KB with hundreds of relations does not explode the search
                # (one of two roles that take the same step: `spouse` either way, `child` and
                # `parent` backwards — the other would only repeat its walk)
                common: set[int] = set()
                for code in sorted(nexts, key=nexts.get, reverse=True):
                    if len(common) == MAX_UNNAMED_BRANCH:
                        break
                    if not any(back[code, other ^ 1] for other in common):
                        common.add(code)
                # ... and among those the question's words come nearest to, however rare
                # ("where does X's partner *work*": few people have an `employer`)
                common |= set(sorted(nexts, key=lambda c: -near[c])[:UNNAMED_BY_WORDS])
                if len(weak):  # ... and the nearest of each word that names nothing well
                    # ("what firms do the *parents* of X *work* for": "parents" comes nearer
                    # to every family tie than "work" comes to anything)
                    codes = np.fromiter(nexts, np.int64)
                    common |= set(codes[weak[:, codes].argmax(axis=1)].tolist())
                branches[last] = (sorted(nexts), common)
            return branches[last]

        def passes_named(arrival: int, code: int) -> bool:
            """Does a word other than the one naming `code` best name what role `arrival`
            reaches, or that role itself rather than its walk back `code` ("the performers
            of X's *records*": the albums X performed, not their performers)?"""
            if not rows:
                return False
            said = qa.explains[rows, arrival]
            kinds = (qa.reach[rows, arrival] >= HOP_EXPLAINED) | (
                (said >= HOP_EXPLAINED) & (said > qa.explains[rows, code]))
            kinds[int(np.argmax(qa.role_names[rows, code]))] = False
            return bool(kinds.any())

        def extend(path: list[int], unnamed: int) -> None:
            paths.append(list(path))
            if len(path) == self.max_hops or len(paths) >= MAX_PATHS:
                return
            if len(path) >= 2 and path[-2] % 2 == 0 and path[-1] == path[-2] ^ 1 \
                    and kinds[path[-2] >> 1] in LITERAL_KINDS and not qa.asks_for_others:
                return  # things that share a number or a year by chance lead on only where
                # the question asks for others ("the journals of the papers of the *same*
                # year as X"; see below: from the value itself only back over its relation)
            on_path = {rel_ids[c >> 1] for c in path}
            nexts, common = unnamed_branches(path[-1])
            for code in nexts:
                if len(path) >= 2 and back[path[-2], path[-1]] and back[path[-1], code]:
                    # r, r^-1, r (or over a stored inverse: `manufacturer`, then `product`
                    # and back): walking back and forth adds nothing
                    continue
                if code == path[-1] ^ 1 and code % 2 == 0 and single[code >> 1]:
                    # to the subjects of r and back, where each has one: nothing — unless
                    # the question names r and, by another word, what the walk from the
                    # topic passes, and asks for the kind r reaches ("the *performer* of X's
                    # *albums*" is X): the topic answers
                    if len(path) == 1 and not qa.asks_for_others and rel_ids[code >> 1] in named \
                            and passes_named(path[-1], code) \
                            and answer_fit(qa, self.kg, rel_ids[code >> 1], "out") >= ASKED_FIT:
                        paths.append([*path, code])
                    continue
                if path[-1] % 2 == 0 and kinds[path[-1] >> 1] in LITERAL_KINDS \
                        and code != path[-1] ^ 1:  # fmt: skip
                    continue  # an age of 26 is some player's shirt number 26 by chance, a
                    # birth year some paper's publication year: from a number or a year only
                    # back over its own relation ("the same number as", "the same year as")
                rel = rel_ids[code >> 1]
                extra = 0 if rel in named or rel in on_path else 1
                # (one hop no word names; one more within the parts the grammar asks for,
                # where each part is worded weakly: "who *heads* X's *owner*")
                budget = 1 + (len(path) < chain)
                if unnamed + extra <= budget and (extra == 0 or code in common):
                    extend([*path, code], unnamed + extra)
                elif unnamed == 1 and extra == 1 and code in common and (
                        qa.owned is not None or asked(code, path[-1])):
                    # a last hop onto the kind a where / when / how-many question asks
                    # for, whatever its words ("where is X's band *based*": `formed in`), or
                    # to the owners "whose" asks for ("*whose* papers appeared in J")
                    paths.append([*path, code])

        for code in start_roles:
            rel = rel_ids[code >> 1]
            extend([code], 0 if rel in named else 1)

        plans = []
        # (narrow bridges leave the paths kept for scoring, no others take their places)
        for path in self._inclusive_bridges(self._promising(qa, mention, anchor, paths), named,
                                            start_roles, near):  # fmt: skip
            hops = [(rel_ids[c >> 1], "out" if c % 2 == 0 else "in") for c in path]
            # out and straight back over one relation (or its stored inverse): the topic is
            # trivially reached again, so the question means other things ("films that share
            # actors with X", "X's siblings" as parent → child)
            walked_back = qa.asks_for_others or any(
                back[a, b] for a, b in zip(path, path[1:], strict=False))
            filters = self._filters(qa, path[-1])
            for constraints, mentions, others in self._constraints(qa, mention, anchor,
                                                                   path[-1]):
                plans.append(Plan(anchor, mention, hops, list(constraints), list(mentions),
                                  list(filters), [list(o) for o in others],
                                  exclude_topic=walked_back))  # fmt: skip
        return plans

    def _inclusive_bridges(self, paths: list[list[int]], named: set[str], start_roles,
                           near: np.ndarray) -> list[list[int]]:  # fmt: skip
        """Drop paths whose hop no word names (not even weakly: `near`, each role's best
        word, under NAMED_WEAK) leads on to a named hop over only a slice of where that hop
        can start: "which mathematician was born in Canada" is born anywhere in Canada
        (`located in`, whose arrivals hold most places of birth), not in its `capital`. A
        bridge is kept when it reaches at least BRIDGE_SHARE of the starts of the next hop
        that the best bridge from the same place reaches."""
        rel_ids, follow = self.kg.index.rel_ids, self.kg.index.follow
        kept = []
        for path in paths:
            ok = True
            for j in range(len(path) - 1):
                if rel_ids[path[j + 1] >> 1] not in named or near[path[j]] >= NAMED_WEAK:
                    continue
                options = start_roles if j == 0 else follow.get(path[j - 1], {})
                best = max((self.sem.bridge_share(a, path[j + 1]) for a in options), default=0.0)
                if self.sem.bridge_share(path[j], path[j + 1]) < BRIDGE_SHARE * best:
                    ok = False
                    break
            if ok:
                kept.append(path)
        return kept

    def _promising(self, qa: QuestionAnalysis, mention: EntityMention, anchor: str,
                   paths: list[list[int]]) -> list[list[int]]:  # fmt: skip
        """At most PROMISING paths of one topic entity, by a cheap bound of what they could
        explain (each word's best match among the path's roles, weighted by need), and the
        prefixes of the PREFIXED best, so only those get the full features."""
        if len(paths) <= PROMISING:
            return paths
        rows = qa.word_rows(mention)
        if not rows:
            return sorted(paths, key=len)[:PROMISING]
        table = qa.explains[rows]  # (w, roles + 1)
        need = qa.need[rows]
        codes = padded(paths)
        k = codes.shape[1]
        got = table[:, codes].max(axis=2)  # (w, n)
        # words saying what the topic itself is, as well as any relation could ("the X
        # *national team*"), need no hop
        kind = anchor_kind(qa, self.kg, anchor, mention)[rows]
        kind[kind < qa.best[rows] - 1e-6] = -np.inf
        if qa.answer.focus is not None:
            kind[np.asarray(qa.word_tokens)[rows] == qa.answer.focus] = -np.inf
        got = np.maximum(got, kind[:, None])
        explained = np.exp(np.minimum(0.0, got - qa.best[rows][:, None]) / TAU_SOFT)
        lengths = (codes >= 0).sum(axis=1)
        bound = need @ explained - PROMISING_HOP * lengths
        last = codes[np.arange(len(paths)), lengths - 1]
        literal = literal_kinds(qa)
        if literal:  # "*when* was X founded": a path ending on a year, whatever its words
            bound += np.isin(arrival_kinds(self.sem, last), literal)
        elif qa.answer.wh in BOUND_KINDS:  # "*where* is the firm behind X based": on a place
            fits = {c: max(0.0, answer_fit(qa, self.kg, self.sem.rel_ids[c >> 1],
                                           "out" if c % 2 == 0 else "in"))
                    for c in set(last.tolist())}  # fmt: skip
            bound += np.array([fits[c] for c in last.tolist()])
        if qa.asks_for_others and k > 1:  # "who *else* founded the firms X founded": the
            # walk straight back over a hop is the shape the cue asks for
            back = self.sem.walks_back[np.maximum(codes[:, :-1], 0), np.maximum(codes[:, 1:], 0)]
            bound += PROMISING_SHAPE * (back & (codes[:, 1:] >= 0)).any(axis=1)
        order = np.argsort(-bound, kind="stable")
        keep = set(order[:PROMISING].tolist())
        # ... and the shorter readings of the very best: the bound puts a path below its
        # extensions wherever one more hop explains a weak word a little ("which companies
        # *count* X as a founder": X's firms' competitors explain "count" at 0.19)
        index = {tuple(p): i for i, p in enumerate(paths)}
        for i in order[:PREFIXED].tolist():
            keep.update(index[tuple(paths[i][:j])] for j in range(1, len(paths[i]))
                        if tuple(paths[i][:j]) in index)  # fmt: skip
        return [paths[i] for i in sorted(keep)]

    def _constraints(self, qa: QuestionAnalysis, mention: EntityMention, anchor: str,
                     last: int) -> list[tuple[tuple, tuple, tuple]]:  # fmt: skip
        """(constraints, their mentions, each one's alternatives) variants for plans ending in
        role `last`: none, and the other names of the question that constrain the answers (a
        named entity, or a common noun that is a node: "which *lawyers* were born in X").
        Each constraint is the best (node, relation) reading of its name; the others, best
        first, are its alternatives. Memoised."""
        key = ("constraints", mention.start, mention.end, anchor, last)
        if key in qa._cache:
            return qa._cache[key]
        reach = self.kg.index.follow.get(last, {})  # roles the answers can play
        named = self._named(qa, mention)
        said = self._said_by_name(qa, mention)
        constraints, mentions, alternatives = [], [], []
        for other in _distinct_mentions(qa.entities, 6):
            if other.overlaps(mention) or any(other.overlaps(m) for m in mentions):
                continue
            if any(c[0] in other.ids[:2] for c in constraints):
                continue  # the same node named twice ("which films … are crime films")
            if not other.named and not qa.describes_answer(other) \
                    and not self._bare(qa, other):  # fmt: skip
                continue  # a common noun constrains only the answer ("which *lawyers* …")
            options = []
            for other_id in other.ids[:2]:
                if other_id == anchor:
                    continue
                for code in self.kg.index.roles.get(other_id, ()):
                    answer_role = code ^ 1  # the role the answer plays on that edge
                    if answer_role not in reach:
                        continue
                    rel = self.kg.index.rel_ids[code >> 1]
                    rank = (rel in said, rel in named, reach[answer_role],
                            -self.kg.relation(rel).count)  # fmt: skip
                    direction = "out" if answer_role % 2 == 0 else "in"
                    options.append((rank, (other_id, rel, direction)))
            if options:
                options.sort(key=lambda o: o[0], reverse=True)  # stable: link order breaks ties
                constraints.append(options[0][1])
                alternatives.append(tuple(o for _, o in options[1:]))
                mentions.append(other)
        out = [((), (), ())]
        if constraints:
            out.append((tuple(constraints), tuple(mentions), tuple(alternatives)))
            # ... and without the class the noun asked about names ("what hip hop *bands*
            # come from X"): that noun then says what the last hop reaches, as it does
            # where no other name constrains the answers
            kept = [j for j, m in enumerate(mentions)
                    if m.named or not self.sem.class_node(m.ids[0], only=True)]
            if 0 < len(kept) < len(mentions):
                out.append(tuple(tuple(part[j] for j in kept)
                                 for part in (constraints, mentions, alternatives)))
            out += self._rereadings(qa, said, (mention, *mentions), constraints, alternatives)
        for shared in self._shared_values(qa, mention, anchor, last):
            out.append(((*constraints, shared), (*mentions, mention), (*alternatives, ())))
        qa._cache[key] = out
        return out

    def _said_by_name(self, qa: QuestionAnalysis, mention: EntityMention) -> set[str]:
        """The relations a word outside the mention, other than the noun asked about, names
        by itself (the noun may describe what many relations reach: "which *companies*'
        boards do A and B sit on" names `board member`, not `chairperson`). Memoised."""
        key = ("said", mention.start, mention.end)
        if key not in qa._cache:
            focus_row = qa.focus_row
            rows = [r for r in qa.word_rows(mention) if r != focus_row]
            by_name = qa.scores[rows].max(axis=0) if rows else np.zeros(len(self.sem.rel_ids))
            qa._cache[key] = {self.sem.rel_ids[r] for r in np.flatnonzero(by_name >= NAMED_AT)}
        return qa._cache[key]

    def _shared_values(self, qa: QuestionAnalysis, mention: EntityMention, anchor: str,
                       last: int) -> list[tuple[str, str, str]]:  # fmt: skip
        """Where the question asks for others like the topic, what else the answers share with
        it, as a constraint on the topic's own value: "X's teammates who play *the same
        position* as him" are X's teammates whose `position` is X's. A relation some word
        outside the topic names by its name (not by what it reaches), that the answers can
        have and the topic has one value of; at most MAX_SHARED, best named first."""
        if not qa.asks_for_others:
            return []
        rows = qa.word_rows(mention)
        if not rows:
            return []
        reach = self.kg.index.follow.get(last, {})
        by_name = qa.role_names[rows, :-1].max(axis=0)
        out = []
        for code in np.argsort(-by_name).tolist():
            if by_name[code] < NAMED_AT or len(out) == MAX_SHARED:
                break
            if code >> 1 == last >> 1 or code not in reach:
                continue  # the path's own last relation, or one the answers cannot have
            rel = self.sem.rel_ids[code >> 1]
            direction = "out" if code % 2 == 0 else "in"
            key = ("two-values", anchor, code)
            if key not in qa._cache:
                qa._cache[key] = self.kg.edges(anchor, rel, direction, limit=2)
            values = qa._cache[key]
            if len(values) == 1:
                out.append((values[0], rel, direction))
        return out

    def _rereadings(self, qa: QuestionAnalysis, named: set[str], used: tuple, constraints: list,
                    alternatives: list) -> list[tuple[tuple, tuple, tuple]]:  # fmt: skip
        """Each constraint's node read by its next relation to the answers, as a plan of its
        own, where the question's words say that relation (name it, or mark its sense): they
        decide ("moved from A and now plays for B", "the *ex*-A players at B": one club by
        `former club`, not both by `plays for club`)."""
        marked, code, out = self._marked(qa, used), self.sem.code, []
        for i, (node, rel, _) in enumerate(constraints[:MAX_REREAD]):
            other = next((o for o in alternatives[i] if o[0] == node and o[1] != rel), None)
            if other is None or not (other[1] in named
                                     or marked[2 * code[rel]] > marked[2 * code[other[1]]]):
                continue  # a reading the question's words do not say
            rest = tuple(o for o in alternatives[i] if o != other)
            out.append((tuple(constraints[:i]) + (other,) + tuple(constraints[i + 1:]),
                        used[1:],
                        tuple(alternatives[:i]) + (rest,) + tuple(alternatives[i + 1:])))
        return out

    def _bare(self, qa: QuestionAnalysis, mention: EntityMention) -> bool:
        """Is the common noun a bare value of the KB — a node only ever an object, one of a
        few values many subjects share (an industry, a profession, a position; not a class
        every kind of node has, not a free tag) whose words name no relation by their form —
        which the question can only mean as a value the answers have ("companies in
        *mining*", "Bristol Town *defenders*"; not "which *city*", "the *cast*")?"""
        roles = self.kg.index.roles.get(mention.ids[0], ())
        universal, valued = self.sem.universal, self.sem.shared_values
        if not roles or not all(c % 2 or universal[c >> 1] for c in roles):
            return False  # (it may have a class itself: "mining" is an instance of industry)
        if not any(valued[c >> 1] and not universal[c >> 1] for c in roles):
            return False  # a class ("city", "university": what things are) or a free tag
        rows = [r for r, t in enumerate(qa.word_tokens) if mention.start <= t < mention.end]
        return all(qa.lexical[r].max() <= 0 for r in rows)

    def _filters(self, qa: QuestionAnalysis, last: int) -> tuple[Filter, ...]:
        """Each comparison of the question applies to the literal attribute of the answers
        that the words around it name best (a year for "before 2005", "the latest")."""
        key = ("filters", last)
        if key in qa._cache:
            return qa._cache[key]
        out = []
        for comparison in qa.comparisons:
            attribute = self.filter_attribute(qa, last, comparison)
            if attribute is not None:
                out.append(Filter(attribute, comparison))
        qa._cache[key] = tuple(out)
        return qa._cache[key]

    def filter_attribute(self, qa: QuestionAnalysis, last: int, comparison: Comparison
                         ) -> str | None:  # fmt: skip
        """The literal relation of the nodes reached by role `last` that a comparison is
        about: a year for time ("before 2005", "the latest"), else a number, the one the words
        around the comparison name best."""
        rel_ids = self.kg.index.rel_ids
        options = []
        for code in self.kg.index.follow.get(last, {}):
            if code % 2:
                continue  # literal values are objects: the answer is the subject
            rel = rel_ids[code >> 1]
            kind = self.kg.relation(rel).object_kind
            if kind not in ("year", "number") or (comparison.temporal and kind != "year"):
                continue
            options.append((self._attribute_score(qa, comparison, rel), rel))
        return max(options)[1] if options else None

    def _attribute_score(self, qa: QuestionAnalysis, comparison: Comparison, rel: str) -> float:
        r = self.sem.code[rel]
        near = [
            row
            for row, t in enumerate(qa.word_tokens)
            if comparison.start - 4 <= t < comparison.end + 3
        ]
        named = max((float(qa.scores[row, r]) for row in near), default=0.0)
        return named + 0.01 * math.log1p(self.kg.relation(rel).count)

    # -- scoring ----------------------------------------------------------------------------
    def _unused_names(self, qa: QuestionAnalysis, used: tuple[EntityMention, ...]
                      ) -> list[EntityMention]:  # fmt: skip
        """The written names of the question a choice of topic entities leaves unused."""
        key = ("unused-names", *((u.start, u.end) for u in used))
        if key not in qa._cache:
            qa._cache[key] = [m for m in _distinct_mentions(qa.entities, 6)
                              if m.named and not any(m.overlaps(u) for u in used)]  # fmt: skip
        return qa._cache[key]

    def _passed_over(self, qa: QuestionAnalysis, used: tuple[EntityMention, ...]) -> int:
        """How many of the unused names are linked clearly better (PASSED_OVER_MARGIN) than
        every name the choice uses: "which *rock* bands come from the *United Kingdom*" is
        not all rock bands, whatever the words say of them."""
        weakest = min((u.link_score for u in used), default=0.0)
        return sum(m.link_score >= weakest + PASSED_OVER_MARGIN
                   for m in self._unused_names(qa, used))  # fmt: skip

    def feature_matrix(self, plans: list[Plan], qa: QuestionAnalysis) -> np.ndarray:
        """(plans × FEATURES), in bulk per choice of topic entities (the relation words left
        to explain depend on which names a plan uses)."""
        x = np.zeros((len(plans), len(FEATURES)))
        groups: dict[tuple, list[int]] = {}
        for i, plan in enumerate(plans):
            key = (plan.anchor, *((u.start, u.end) for u in plan.used))
            groups.setdefault(key, []).append(i)
        for rows in groups.values():
            x[rows] = self._features([plans[i] for i in rows], qa)
        return x

    def _features(self, plans: list[Plan], qa: QuestionAnalysis) -> np.ndarray:
        """The explainable features of plans that use the same names (what the weights
        multiply), one row per plan in FEATURES order."""
        code = self.sem.code
        used = plans[0].used
        paths = padded([role_codes(self.sem, p.hops) for p in plans])
        n, k = paths.shape
        extras = [[code[r] for _, r, _ in p.constraints] + [code[f.relation] for f in p.filters]
                  for p in plans]  # fmt: skip
        m = max((len(e) for e in extras), default=0)
        extra = np.full((n, m), -1, np.int64) if m else None
        for i, e in enumerate(extras):
            if e:
                extra[i, : len(e)] = e
        anchor = plans[0].anchor
        implied = implies_first_hop(self.kg, anchor)
        reach = path_reach(self.sem, anchor, paths)
        mention = plans[0].mention
        fits = explain_paths(qa, paths, used, extra, anchor, implied,
                             anchor_kind(qa, self.kg, anchor, mention), reach,
                             anchor_forms(qa, self.kg, anchor, mention))  # fmt: skip
        for i, p in enumerate(plans):  # the judge reads these (core.path_fit.explain)
            side = [r for _, r, _ in p.constraints] + [f.relation for f in p.filters]
            qa._cache.setdefault(explain_key(anchor, p.hops, side, used), (fits, i))
        hops = (paths >= 0).sum(axis=1)
        last = paths[np.arange(n), hops - 1]
        switch = np.zeros(n)
        share = self.sem.follow_share
        for j in range(1, k):
            prev, cur = paths[:, j - 1], paths[:, j]
            real = (cur >= 0) & ((prev >> 1) != (cur >> 1))
            switch += np.where(real, 1.0 - share[prev, cur], 0.0)
        support = np.where(paths >= 0, fits.support, np.inf).min(axis=1)
        named = sum(m.named for m in plans[0].constraint_mentions)
        columns = {
            "coverage": fits.coverage,
            "coverage_soft": fits.coverage_soft,
            "unexplained_hops": fits.unexplained,
            "shared_hops": fits.shares,
            "uncued_shared_hops": fits.bare_shares,
            "min_support": support,
            "inversions": fits.inversions,
            "chain_inversions": fits.chain_inversions,
            "merged_words": fits.merged,
            "role_switch": switch,
            "hops": hops,
            "link": plans[0].mention.link_score,
            # the mention's other readings come after the one written exactly as the KB does
            "anchor_rank": plans[0].mention.ids.index(anchor),
            "constraints": named,
            "class_constraints": len(plans[0].constraint_mentions) - named,
            "filters": np.array([len(p.filters) for p in plans]),
            "unused_comparisons": np.array([len(qa.comparisons) - len(p.filters) for p in plans]),
            "ignored_names": len(self._unused_names(qa, used)),
            "passed_over_names": self._passed_over(qa, used),
            "unmarked_modifiers": self._unmarked(qa, plans, paths, extra),
            "misplaced_modifiers": self._misplaced(qa, plans),
            "one_for_many": float(qa.asks_for_many()) * self.sem.one_each[paths].all(axis=1)
            * ~self._plural_amount(qa, last),
            "answers_focus_kind": self._focus_kind(qa)[last],
            "value_answer": self._value_answer(qa)[last],
            "coverage_lex": fits.coverage_lex,
            "unnamed_hops_lex": fits.unnamed_lex,
            # by the relation's nodes, or where this path reaches them ("which *nation* …")
            "type_rule": np.where(fits.on_kind, 1.0, self._rule_types(qa)[last]),
            "order_rule": (last >> 1) == nearest if (nearest := self._nearest(qa, used)) is not None
            else 0.0,
            "path_similarity": self._path_similarity(qa, used, paths),
            "context_similarity": 0.0,  # filled for the best plans only (see plans)
            "echo_hops": fits.echoes,
            "cued_shapes": fits.cued,
            "short_chain": fits.short,
            "no_time": self._no_time(qa, last),
            "foreign_peers": self._foreign_peers(qa, anchor, last),
            "doer_arrives": self._doer_arrives(qa)[last],
        }
        types = self._answer_types(qa, paths, reach)  # (n, kinds)
        if qa.answer.wh in ANSWER_KINDS:
            # "which *forwards* represent X": a constraint makes the answers what the noun
            # asked about names (players at that position), whatever the noun reads like
            by_value = np.isin(last, self._focus_valued(qa, plans[0]))
            types[by_value, ANSWER_KINDS.index(qa.answer.wh)] = 1.0
            # a count is a number, whatever the walk reaches
            types[[p.count for p in plans], ANSWER_KINDS.index(qa.answer.wh)] = 1.0
            # "what *teams* make up the league X is in": answers of a kind the noun asked
            # about is the dictionary's genus of (clubs, "a team of …") are that noun's,
            # whatever else it reads like (leagues)
            # (not over a relation the noun names only with a qualifier left unsaid: "what
            # *team* is X on" is no national team)
            if qa.genus_focus is not None and qa.genus_focus[0] == qa.focus_row:
                on_genus = kind_on_path(qa, paths, qa.genus_focus[1], first=True)
                on_genus &= ~np.isin(last >> 1, [self.sem.code[r] for r in qa.unsaid_relations])
                types[on_genus, ANSWER_KINDS.index(qa.answer.wh)] = 1.0
        for j, kind in enumerate(ANSWER_KINDS):
            columns[f"type_{kind}"] = types[:, j]
        x = np.empty((n, len(FEATURES)))
        for j, f in enumerate(FEATURES):
            x[:, j] = columns[f]
        return x

    def _plural_amount(self, qa: QuestionAnalysis, last: np.ndarray) -> np.ndarray:
        """Per path: does it end on a value the plural noun asked about names (X's annual
        *sales* are one amount, not several things)?"""
        row = qa.focus_row
        if row is None:
            return np.zeros(len(last), bool)
        named = qa.explains[row][last] >= HOP_EXPLAINED
        return named & (arrival_kinds(self.sem, last) != "entity")

    def _foreign_peers(self, qa: QuestionAnalysis, anchor: str, last: np.ndarray) -> np.ndarray:
        """1 for plans of a question asking for the topic's peers whose last hop cannot arrive
        at the topic (it takes no part in that relation on that side); 0 otherwise."""
        if not qa.asks_for_peers:
            return np.zeros(len(last))
        roles = np.asarray(list(self.kg.index.roles.get(anchor, ())), np.int64)
        return (~np.isin(last ^ 1, roles)).astype(float)

    def _focus_valued(self, qa: QuestionAnalysis, plan: Plan) -> list[int]:
        """The last hops that can arrive at answers of the plan's constraint on the noun asked
        about — a plural, a value of the KB that names no relation by its form ("which
        *forwards* …" constrained to position `forward`: the hops arriving at players); none
        otherwise."""
        focus = qa.answer.focus
        if focus is None or not is_plural(qa.words[focus]):
            return []  # (a singular may be an idiom's: "which in the *world* wrote X")
        row = qa.focus_row
        if row is not None and qa.lexical[row].max() > 0:
            return []  # "which *languages* …" names `in language`: its own reading decides
        codes: set[int] = set()
        for (node, rel, direction), m in zip(plan.constraints, plan.constraint_mentions,
                                             strict=False):  # fmt: skip
            if not m.named and m.start <= focus < m.end:  # (answers reach the node over rel)
                back = "in" if direction == "out" else "out"
                for answer in self.kg.edges(node, rel, back, limit=FOCUS_SAMPLE):
                    codes.update(c ^ 1 for c in self.kg.index.roles.get(answer, ()))
        return sorted(codes)

    def _doer_arrives(self, qa: QuestionAnalysis) -> np.ndarray:
        """Per role (+ padding): 1 where the question asks for things a verb no relation is
        named by was done *by* someone ("which companies are *run by* graduates of U") and
        arriving over the role gives the doer of its label's verb (`employer`: the firm
        employs), not the one it is done to — the doers are the by-phrase's, not the answers;
        0 otherwise."""
        if "doer-arrives" not in qa._cache:
            out = np.zeros(2 * len(self.sem.rel_ids) + 1)
            verb = passive_of_focus(qa)
            if verb in qa.word_tokens and qa.best[qa.word_tokens.index(verb)] < NAMED_AT:
                for role in doer_roles(self.sem):
                    out[role ^ 1] = 1.0  # arriving at the side that holds the doer's role
            qa._cache["doer-arrives"] = out
        return qa._cache["doer-arrives"]

    def _no_time(self, qa: QuestionAnalysis, last: np.ndarray) -> np.ndarray:
        """1 for plans of a "when" question that end elsewhere than on a year, where some plan
        of the same topic does end on one; 0 otherwise."""
        if qa.answer.wh != "time":
            return np.zeros(len(last))
        year = arrival_kinds(self.sem, last) == "year"
        return (~year).astype(float) if year.any() else np.zeros(len(last))

    def _arrives_at_value(self, plan: Plan) -> bool:
        """Does the plan's last hop arrive at years or numbers (LITERAL_KINDS)?"""
        code = role_codes(self.sem, plan.hops[-1:])[0]
        return code % 2 == 0 and self.sem.kinds[code >> 1] in LITERAL_KINDS

    def _rule_types(self, qa: QuestionAnalysis) -> np.ndarray:
        if "rule-types" not in qa._cache:
            n = 2 * len(self.sem.rel_ids)
            out = np.zeros(n + 1)
            for code in range(n):
                out[code] = rule_type_fit(qa, self.kg, code)
            qa._cache["rule-types"] = out
        return qa._cache["rule-types"]

    def _nearest(self, qa: QuestionAnalysis, used) -> int | None:
        key = ("nearest", *((u.start, u.end) for u in used))
        if key not in qa._cache:
            qa._cache[key] = nearest_relation(qa, used)
        return qa._cache[key]

    def _value_answer(self, qa: QuestionAnalysis) -> np.ndarray:
        """Per role (+ padding): how much arriving over it gives bare values (genres, tags)
        when the question asks for things by a noun that names no relation ("which
        *movies* …" asks for entities, not for what they have)."""
        if "value-answer" not in qa._cache:
            out = np.zeros(2 * len(self.sem.rel_ids) + 1)
            row = qa.focus_row
            if qa.answer.wh == "thing" and row is not None:
                names = qa.role_names[row] >= NAMED_AT
                out = np.where(names, 0.0, self.sem.values)
            qa._cache["value-answer"] = out
        return qa._cache["value-answer"]

    def _focus_kind(self, qa: QuestionAnalysis) -> np.ndarray:
        """Per role (+ padding): 1 when arriving over it gives things of the same kind as a
        node the noun asked about names ("which *lawyers* …" answered by professions, not by
        the people who are lawyers)."""
        if "focus-kind" not in qa._cache:
            out = np.zeros(2 * len(self.sem.rel_ids) + 1)
            focus = qa.answer.focus
            for m in qa.entities:
                if not m.named and focus is not None and m.start <= focus < m.end:
                    for node in m.ids[:2]:
                        for code in self.kg.index.roles.get(node, ()):
                            out[code ^ 1] = 1.0  # the role that reaches such nodes
            qa._cache["focus-kind"] = out
        return qa._cache["focus-kind"]

    def _marked(self, qa: QuestionAnalysis, used) -> np.ndarray:
        """Per role (+ padding): 1 when the relation's name carries a marked modifier of a
        sense the question does not say ("*former* club" for "X's club", "*ex* wife"): the
        unmarked reading is meant unless the question marks it; and 1 for the unmarked
        relation when the question does say the sense that a relation of the same head noun
        carries ("X's *past* teams" is `former club`, not `plays for club`)."""
        key = ("marked", *((u.start, u.end) for u in used))
        if key not in qa._cache:
            senses = said_senses(qa, {i for u in used for i in range(u.start, u.end)})
            out = np.zeros(2 * len(self.sem.rel_ids) + 1)
            marked_heads: set[str] = set()
            labels = self.sem.label_sets
            for i, carried in enumerate(self.sem.marked_senses):
                if carried and not carried & senses:
                    out[2 * i] = out[2 * i + 1] = 1.0
                elif carried:
                    marked_heads |= labels[i] - MARKED_MODIFIERS
            for i, words in enumerate(labels):
                if not words & MARKED_MODIFIERS and words & marked_heads:
                    out[2 * i] = out[2 * i + 1] = 1.0  # said "past": the plain one is not it
            qa._cache[key] = out
        return qa._cache[key]

    def _unmarked(self, qa: QuestionAnalysis, plans: list[Plan], paths: np.ndarray,
                  extra: np.ndarray | None) -> np.ndarray:  # fmt: skip
        """Per plan (of the same names): its relations, on the path or reaching a constraint,
        whose marked modifier the question does not say, or that are plain where it says one
        (`_marked`) — but for the names' own relations to the answers where the modifiers
        stand next to names (`_misplaced` reads those)."""
        marked = self._marked(qa, plans[0].used)
        out = marked[paths].sum(axis=1)
        if extra is not None:
            out += marked[np.where(extra >= 0, 2 * extra, -1)].sum(axis=1)
        if self._attached(qa, plans[0].used) is not None:
            code = self.sem.code
            out -= [sum(marked[2 * code[r]] for r in (p.hops[0][0], *(c[1] for c in
                                                                   p.constraints)))
                    for p in plans]  # fmt: skip
        return out

    def _misplaced(self, qa: QuestionAnalysis, plans: list[Plan]) -> np.ndarray:
        """Per plan (of the same names): how many names reach the answers over a relation
        that is wrong for the marked modifiers said next to them — a marked modifier belongs
        to the name it stands next to ("the *ex*-A people now at B", "people of A who *once*
        worked for B"): the other name's relation carrying it, or this name's plain one."""
        attached = self._attached(qa, plans[0].used)
        if attached is None:
            return np.zeros(len(plans))
        said = set().union(*attached)
        marked = self._marked(qa, plans[0].used)
        code = self.sem.code
        out = np.zeros(len(plans))
        for row, plan in enumerate(plans):
            for k, rel in enumerate([plan.hops[0][0], *(r for _, r, _ in plan.constraints)]):
                carried = self.sem.marked_senses[code[rel]]
                if carried:
                    out[row] += bool(carried & said) and not carried & attached[k]
                else:
                    out[row] += bool(attached[k]) and marked[2 * code[rel]] > 0
        return out

    def _attached(self, qa: QuestionAnalysis, used: tuple[EntityMention, ...]
                  ) -> list[set[int]] | None:  # fmt: skip
        """Per name, the marked senses said next to it (the nearest name after the modifier
        within MARK_REACH tokens, else the nearest before); None with one name, or when a
        marked modifier of the question stands next to none of them."""
        if len(used) < 2:
            return None
        key = ("attached", *((u.start, u.end) for u in used))
        if key not in qa._cache:
            qa._cache[key] = self._attach(qa, used)
        return qa._cache[key]

    @staticmethod
    def _attach(qa: QuestionAnalysis, used: tuple[EntityMention, ...]) -> list[set[int]] | None:
        attached: list[set[int]] = [set() for _ in used]
        inside = {k for u in used for k in range(u.start, u.end)}
        for i, w in enumerate(qa.words):
            if not w or i in inside:
                continue
            senses = word_senses(qa.words, i)
            if not senses:
                continue
            after = [(u.start - i, k) for k, u in enumerate(used) if 0 < u.start - i <= MARK_REACH]
            before = [(i - u.end, k) for k, u in enumerate(used) if 0 <= i - u.end < MARK_REACH]
            if not after and not before:
                return None  # said of no name: the question-wide reading (`_marked`) holds
            attached[min(after or before)[1]] |= senses
        return attached if any(attached) else None

    def _answer_types(self, qa: QuestionAnalysis, paths: np.ndarray, reach) -> np.ndarray:
        """(paths × kinds): answer_fit of where each path ends, in the column of the kind of
        question asked (who, where, when, how many, a type noun, a choice) — how far each
        kind can be trusted differs, so each has its own weight."""
        out = np.zeros((len(paths), len(ANSWER_KINDS)))
        if qa.answer.wh not in ANSWER_KINDS:
            return out
        j = ANSWER_KINDS.index(qa.answer.wh)
        vecs, index = reach
        n = len(paths)
        hops = (paths >= 0).sum(axis=1)
        last = paths[np.arange(n), hops - 1]
        rows = index[np.arange(n), hops - 1]  # the vector of what each path's last hop reaches
        fits: dict[int, float] = {}
        for row, code in set(zip(rows.tolist(), last.tolist(), strict=True)):
            rel = self.sem.rel_ids[code >> 1]
            fits[row] = answer_fit(qa, self.kg, rel, "out" if code % 2 == 0 else "in",
                                   reached=vecs[row])  # fmt: skip
        out[:, j] = [fits[r] for r in rows.tolist()]
        return out

    def _path_similarity(self, qa: QuestionAnalysis, used, paths: np.ndarray) -> np.ndarray:
        """cos(the question's relation words, the path's relation names), both as mean
        vectors: the verbalised path against the question, order aside."""
        rows = qa.word_rows(*used)
        if not rows:
            return np.zeros(len(paths))
        key = ("qvec", *((u.start, u.end) for u in used))
        if key not in qa._cache:
            qa._cache[key] = self.sem.model.embed(
                " ".join(qa.words[qa.word_tokens[r]] for r in rows)
            )
        labels = self.sem.label_vecs[np.maximum(paths, 0) >> 1]  # (n, K, d)
        labels = labels * (paths >= 0)[:, :, None]
        mean = labels.sum(axis=1)
        norms = np.linalg.norm(mean, axis=1)
        return np.where(norms > 0, (mean @ qa._cache[key]) / np.maximum(norms, 1e-9), 0.0)

    def _context_similarity(self, qa: QuestionAnalysis, plans: list[Plan]) -> np.ndarray:
        """cos(the question with its topic written "X", the path read out from "X": "the
        nationality of the spouse of X") by the contextual encoder, which reads phrases the
        word vectors cannot ("tie the knot with", "passed on"). Texts are memoised; the paths
        of one KB repeat from question to question.

        A path over a relation some word meets only in a head whose qualifiers the question
        does not say (`QuestionAnalysis.unsaid_relations`: a footballer's "*team*" and
        `national team`) reads UNSAID_CONTEXT less: the encoder matches the shared head word
        ("what team is X on": "the national team of X") where the word means the general kind."""
        if not plans:
            return np.zeros(0)
        texts = []
        for plan in plans:
            m = plan.mention
            texts.append(" ".join([*qa.tokens[: m.start], "X", *qa.tokens[m.end :]]))
            texts.append(self.sem.verbalise(role_codes(self.sem, plan.hops)))
        vecs = sentence_model().encode(texts)
        sims = (vecs[0::2] * vecs[1::2]).sum(axis=1)
        if qa.unsaid_relations:
            sims -= UNSAID_CONTEXT * np.array(
                [any(rel in qa.unsaid_relations for rel, _ in plan.hops) for plan in plans])
        return sims


def padded(paths: list) -> np.ndarray:
    """(n, K) role codes of paths of up to K hops, padded with -1 (what the features read)."""
    out = np.full((len(paths), max(len(p) for p in paths)), -1, np.int64)
    for i, p in enumerate(paths):
        out[i, : len(p)] = p
    return out


def _read_by_context(order: np.ndarray, scores: np.ndarray, x: np.ndarray,
                     kinds: np.ndarray | None = None,
                     others: bool = False) -> np.ndarray:  # fmt: skip
    """Where no word names the leader's relations well (its `min_support` under NAMED_AT),
    its lead rests on weak word matches; a plan close behind (CONTEXT_MARGIN) that the
    contextual encoder reads clearly better (CONTEXT_LEAD) goes first ("what does X do *for a
    living*": the static vectors put "living" nearest residence, the encoder reads the
    profession). Not one over a relation whose marked modifier the question does not say,
    more than the leader: the encoder's reading is no evidence of a modifier ("what team is X
    on *these days*", "which town is X's *team* from": it reads `former club` closer; "every
    team X has *left*" it reads rightly, and says the modifier). Nor one whose answers are
    not of the kind the noun asked about names where the leader's are (`kinds`, per plan:
    "which *teams* come from X" read as the clubs' leagues). Nor, where the question asks for
    others (`others`: "who did X write papers *with*"), one with fewer walks back over a
    named hop than the leader (`cued_shapes`: X's papers' other authors, not X's papers)."""
    lead = order[0]
    if x[lead, SUPPORT] >= NAMED_AT:
        return order
    close = [i for i in order.tolist() if scores[i] >= scores[lead] - CONTEXT_MARGIN
             and x[i, CONTEXT] >= x[lead, CONTEXT] + CONTEXT_LEAD
             and (x[i, UNEXPLAINED] <= x[lead, UNEXPLAINED] or x[i, HOPS] <= x[lead, HOPS]
                  or x[i, COVERAGE] >= x[lead, COVERAGE] + CONTEXT_COVERAGE)
             and not x[i, UNMARKED] > x[lead, UNMARKED]
             and (kinds is None or kinds[i] or not kinds[lead])
             and not (others and x[i, CUED] < x[lead, CUED])]  # fmt: skip
    if not close:
        return order
    best = max(close, key=lambda i: x[i, CONTEXT])
    return _to_front(order, best)


def _to_front(order: np.ndarray, first: int) -> np.ndarray:
    """The ranking with plan `first` moved to the top, the rest in order."""
    return np.array([first, *(i for i in order.tolist() if i != first)])


def _type_fit(x: np.ndarray) -> np.ndarray:
    """Per plan: how well its answers fit the kind asked for (the type columns, one set)."""
    return x[:, TYPES].sum(axis=1)


def _explains_far_more(order: np.ndarray, scores: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A plan within LEAP_MARGIN of the leader that explains far more of the question
    (LEAP_COVERAGE) and that the contextual encoder also reads better (CONTEXT_LEAD) goes
    first: two signals that do not share the static word vectors agree that the leader
    leaves a phrase unsaid ("which companies are run by people who went to *university* in
    Y" is not the companies based in Y). Not one whose hops words name less well, or whose
    answers fit the kind asked for less (each by LEAP_SUPPORT): explaining more by a hop no
    word names, or arriving at the wrong kind, is no reading of the phrase; nor is arriving at
    bare values more than the leader does ("which *movies* are about Y": genres sound like
    what "movies" are about)."""
    lead = order[0]
    fit = _type_fit(x)
    far = [i for i in order.tolist()[1:] if scores[i] >= scores[lead] - LEAP_MARGIN
           and x[i, COVERAGE] >= x[lead, COVERAGE] + LEAP_COVERAGE
           and x[i, CONTEXT] >= x[lead, CONTEXT] + CONTEXT_LEAD
           and x[i, SUPPORT] >= x[lead, SUPPORT] - LEAP_SUPPORT
           and fit[i] >= fit[lead] - LEAP_SUPPORT
           and x[i, VALUES] <= x[lead, VALUES]]  # fmt: skip
    if not far:
        return order
    return _to_front(order, far[0])


def _ends_on_the_kind_asked(order: np.ndarray, scores: np.ndarray, x: np.ndarray,
                            plans: list[Plan]) -> np.ndarray:
    """Where the leader's answers are plainly not of the kind asked for (type fit at -KIND_FIT
    or below: "which school did X's band's singer attend" answered by the singer), the first
    ranked plan that walks on from it one hop to answers plainly of that kind (KIND_FIT or
    above) and explains more of the question (KIND_COVERAGE) goes first, within KIND_MARGIN:
    the type and the words agree that the walk stopped short. Not onto bare values more than
    the leader reaches them (see `_explains_far_more`)."""
    lead = order[0]
    fit = _type_fit(x)
    if fit[lead] > -KIND_FIT:
        return order
    head = plans[lead]
    on = [i for i in order.tolist()[1:] if scores[i] >= scores[lead] - KIND_MARGIN
          and plans[i].anchor == head.anchor and len(plans[i].hops) == len(head.hops) + 1
          and list(plans[i].hops[: len(head.hops)]) == list(head.hops)
          and fit[i] >= KIND_FIT and x[i, COVERAGE] >= x[lead, COVERAGE] + KIND_COVERAGE
          and x[i, VALUES] <= x[lead, VALUES]]  # fmt: skip
    if not on:
        return order
    return _to_front(order, on[0])


def _answers_no_value(order: np.ndarray, scores: np.ndarray, x: np.ndarray,
                     values: np.ndarray) -> np.ndarray:  # fmt: skip
    """"Who" and "where" are never answered by a year or a number: a leader that arrives at
    such values (`values`, per plan) where the rules and the answers' fit both say it is not
    the kind asked (type rule -1, type fit -KIND_FIT or below) gives way to the first ranked
    plan within KIND_MARGIN that arrives at things fitting that kind (ASKED_FIT) — "who
    authored the *publications* of X" is not their `publication year`, however well the
    word names it."""
    lead = order[0]
    fit = _type_fit(x)
    if not values[lead] or x[lead, RULE_TYPE] > -1 or fit[lead] > -KIND_FIT:
        return order
    on = [i for i in order.tolist()[1:] if scores[i] >= scores[lead] - KIND_MARGIN
          and not values[i] and fit[i] >= ASKED_FIT]  # fmt: skip
    return _to_front(order, on[0]) if on else order


def coverage_ceiling(plans: list[Plan], qa: QuestionAnalysis) -> float:
    """The most of the question any of the ranked plans explains (the judge holds the rest
    against no path). A question asking for a time or a number counts only the plans that
    end on one: "when did X first open for business" is answered by the only year X has,
    however little `inception` says of "open"; a relation that names "business" but gives
    no time explains nothing the answer could."""
    literal = {"time": "type_time", "number": "type_number"}.get(qa.answer.wh)
    fitting = [p for p in plans if literal and p.features.get(literal, 0.0) > 0]
    return max((p.features.get("coverage", 0.0) for p in fitting or plans), default=0.0)


def rank_order(scores: np.ndarray, coverage: np.ndarray, hops: np.ndarray,
               unmarked: np.ndarray) -> np.ndarray:  # fmt: skip
    """Plans best first by score, with one rule that is not fitted: a plan that leaves a
    relation phrase unexplained does not beat by a hair (COVERAGE_MARGIN) one that explains it
    ("the profession of the husband of X's mother"); fewer hops break ties. A plan over a
    relation whose marked modifier the question does not say (`unmarked`: "X's band" read as
    the band X is a *former* member of) takes no lead by explaining more: the twins explain
    the same words, by a hair's difference in what their nodes are like."""
    close = (scores >= scores.max() - COVERAGE_MARGIN) & ~unmarked
    # (coverage to six places: two plans that explain every word tie, whatever float
    # rounding made of one's 1.0 — the score decides between them)
    first = np.where(close, np.round(coverage, 6), -np.inf)
    return np.lexsort((hops, -scores, -first))


def rule_prior(scores: list[float]) -> list[float]:
    """Softmax of rule scores (plan scores): the rules' distribution over the options."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    return [e / sum(exps) for e in exps]


def floored(scores: list[float], gap: float = 4.0) -> list[float]:
    """Plan scores with "no plan" (<= -100) raised to `gap` below the best real score: the
    rules' distribution keeps a little mass on relations no plan covers, so learned
    knowledge can outvote it (core.wkm.guide)."""
    real = [x for x in scores if x > -100]
    floor = (max(real) if real else 0.0) - gap
    return [x if x > -100 else floor for x in scores]


def _distinct_mentions(mentions: list[EntityMention], limit: int) -> list[EntityMention]:
    """The best-linked mentions, skipping ones nested inside a better mention."""
    chosen: list[EntityMention] = []
    for m in mentions:
        if any(m.overlaps(c) and c.link_score >= m.link_score for c in chosen):
            continue
        chosen.append(m)
        if len(chosen) == limit:
            break
    return chosen
