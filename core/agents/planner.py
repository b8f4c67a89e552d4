"""Relation-path planning by rules: which topic entity, which relations, in which order.

A plan is a topic entity, a path of (relation, direction) hops and optional constraints to
other topic entities. Plans are enumerated over the KB's real relations (the anchor's own
roles, then the relations that co-occur on the nodes each hop reaches) and scored with
explainable features; the trace shows the features of the chosen plan and its rivals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from core.kg.store import KnowledgeGraph
from core.question import EntityMention, QuestionAnalysis, align, answer_type_fit

Hop = tuple[str, str]  # (relation id, "out" | "in")

MAX_PATHS = 2000  # per topic entity
ANCHOR_MARGIN = 1.0  # plan only from names linked within this of the best
MAX_UNNAMED_BRANCH = 8  # next relations tried when the question does not name them
W_COVERAGE = 3.0  # share of the question's relation words the plan explains
W_UNEXPLAINED = 1.0  # per hop no word of the question explains
W_UNUSED = 0.3  # per relation phrase of the question that no hop takes
W_SHARE = 0.3  # per hop that walks back over the relation it arrived by (explained by shape)
W_SWITCH = 0.6  # per unusual change of role at an intermediate node (1 - how common it is)
W_TYPE = 1.0  # the answer is the kind the question asks for
W_ORDER = 0.5  # the last hop is the relation named next to the wh-word / focus noun
W_HOP = 0.15  # per hop: prefer the shorter of two equally good explanations
W_LINK = 0.5  # confidence of the entity link
W_CONSTRAINT = 0.6  # a second topic entity the plan uses
W_IGNORED = 1.0  # per capitalised or bracketed name in the question the plan does not use


@dataclass
class Plan:
    anchor: str
    mention: EntityMention
    hops: list[Hop]
    constraints: list[tuple[str, str, str]] = field(default_factory=list)  # (anchor, rel, dir)
    constraint_mentions: list[EntityMention] = field(default_factory=list)
    score: float = 0.0
    features: dict[str, float] = field(default_factory=dict)

    def key(self) -> tuple:
        return (self.anchor, tuple(self.hops), tuple(self.constraints))


class Planner:
    """Enumerate and score plans for one question on one KB."""

    def __init__(self, kg: KnowledgeGraph, max_hops: int = 3, max_anchors: int = 4):
        self.kg = kg
        self.max_hops = max_hops
        self.max_anchors = max_anchors
        idx = kg.index
        self._rel_code = {r: i for i, r in enumerate(idx.rel_ids)}

    def plans(self, qa: QuestionAnalysis, limit: int = 8) -> list[Plan]:
        out: list[Plan] = []
        mentions = _distinct_mentions(qa.entities, self.max_anchors)
        best_link = max((m.link_score for m in mentions), default=0.0)
        for mention in mentions:
            if mention.link_score < best_link - ANCHOR_MARGIN:
                continue  # far weaker than the best-linked name: not worth planning from
            for anchor in mention.ids[:3]:
                out.extend(self._plans_for(qa, mention, anchor))
        out.sort(key=lambda p: (-p.score, len(p.hops)))
        seen, ranked = set(), []
        for plan in out:
            if plan.key() not in seen:
                seen.add(plan.key())
                ranked.append(plan)
        return ranked[:limit]

    # -- enumeration ------------------------------------------------------------------------
    def _plans_for(self, qa: QuestionAnalysis, mention: EntityMention, anchor: str) -> list[Plan]:
        mentions = qa.mentions_outside(mention)
        named = {m.rel_id for m in mentions}
        start_roles = self.kg.index.roles.get(anchor, ())
        paths: list[list[int]] = []

        follow, rel_ids = self.kg.index.follow, self.kg.index.rel_ids

        def extend(path: list[int], unnamed: int) -> None:
            paths.append(list(path))
            if len(path) == self.max_hops or len(paths) >= MAX_PATHS:
                return
            on_path = {rel_ids[c >> 1] for c in path}
            nexts = follow.get(path[-1], {})
            # a relation the question never names is tried only among the most common next
            # steps, so a KB with hundreds of relations does not explode the search
            common = set(sorted(nexts, key=nexts.get, reverse=True)[:MAX_UNNAMED_BRANCH])
            for code in sorted(nexts):
                if code == path[-1] ^ 1 and len(path) >= 2 and path[-2] == code:
                    continue  # r, r^-1, r: walking back and forth adds nothing
                rel = rel_ids[code >> 1]
                extra = 0 if rel in named or rel in on_path else 1
                if unnamed + extra <= 1 and (extra == 0 or code in common):
                    extend([*path, code], unnamed + extra)

        for code in start_roles:
            rel = rel_ids[code >> 1]
            extend([code], 0 if rel in named else 1)

        plans = []
        for path in paths:
            hops = [(self.kg.index.rel_ids[c >> 1], "out" if c % 2 == 0 else "in") for c in path]
            plan = Plan(anchor, mention, hops)
            self._add_constraints(plan, qa, path[-1])
            self._score(plan, qa)
            plans.append(plan)
        return plans

    def _add_constraints(self, plan: Plan, qa: QuestionAnalysis, last: int) -> None:
        """Other topic entities in the question constrain the answer if the schema allows it."""
        reach = self.kg.index.follow.get(last, {})  # roles the answers can play
        named = {m.rel_id for m in qa.mentions_outside(plan.mention)}
        relation_words = {m.token for m in qa.relation_mentions}
        for other in qa.entities:
            # a written name, or the noun the question asks about ("which goalkeeper ...")
            # when it is no relation word; the latter only over a relation the question names
            focus_noun = (
                other.start == qa.focus
                and other.end == qa.focus + 1
                and qa.focus not in relation_words
            )
            if other.overlaps(plan.mention) or not (
                other.capitalized or other.bracketed or focus_noun
            ):
                continue
            if any(other.overlaps(m) for m in plan.constraint_mentions):
                continue
            best = None
            for other_id in other.ids[:2]:
                for code in self.kg.index.roles.get(other_id, ()):
                    answer_role = code ^ 1  # the role the answer plays on that edge
                    if answer_role not in reach:
                        continue
                    rel = self.kg.index.rel_ids[code >> 1]
                    rank = (rel in named, -self.kg.relation(rel).count)
                    direction = "out" if answer_role % 2 == 0 else "in"
                    if best is None or rank > best[0]:
                        best = (rank, other_id, rel, direction)
            if best and (not focus_noun or best[2] in named):
                plan.constraints.append((best[1], best[2], best[3]))
                plan.constraint_mentions.append(other)

    # -- scoring ----------------------------------------------------------------------------
    def _context(self, qa: QuestionAnalysis, used: tuple[EntityMention, ...]) -> tuple:
        """Per topic-entity choice (shared by all its plans): the relation named nearest the
        focus, and how many names of the question the choice leaves unused."""
        key = ("plan-context", *((u.start, u.end) for u in used))
        if key not in qa._cache:
            mentions = qa.mentions_outside(*used)
            nearest_rel = None
            if qa.focus is not None and mentions:
                nearest = min(mentions, key=lambda m: (abs(m.token - qa.focus), -m.weight))
                nearest_rel = nearest.rel_id
            ignored = sum(
                1
                for m in _distinct_mentions(qa.entities, 6)
                if (m.capitalized or m.bracketed) and not any(m.overlaps(u) for u in used)
            )
            qa._cache[key] = (nearest_rel, ignored)
        return qa._cache[key]

    def _score(self, plan: Plan, qa: QuestionAnalysis) -> None:
        """Explainable score: alignment of hops with the question's words (see
        core.question.align), answer type, word order, shape and linking terms."""
        used = (plan.mention, *plan.constraint_mentions)
        fit = align(qa, plan.hops, [r for _, r, _ in plan.constraints], used)
        roles = [self._rel_code[r] * 2 + (0 if d == "out" else 1) for r, d in plan.hops]
        switch_cost = sum(
            1.0 - self.kg.index.follow.get(prev, {}).get(cur, 0.0)
            for prev, cur in zip(roles, roles[1:], strict=False)
            if prev >> 1 != cur >> 1
        )
        last_rel, last_dir = plan.hops[-1]
        type_fit = answer_type_fit(qa, self.kg, last_rel, last_dir)
        nearest_rel, ignored = self._context(qa, used)
        order = 1.0 if nearest_rel == last_rel else 0.0
        features = {
            "coverage": round(fit.coverage, 3),
            "unexplained_hops": fit.unexplained,
            "shared_hops": fit.shares,
            "unused_phrases": fit.unused,
            "role_switch": round(switch_cost, 3),
            "answer_type": type_fit,
            "order": order,
            "hops": len(plan.hops),
            "link": round(plan.mention.link_score, 3),
            "constraints": len(plan.constraints),
            "ignored_names": ignored,
        }
        plan.score = (
            W_COVERAGE * fit.coverage
            - W_UNEXPLAINED * fit.unexplained
            - W_SHARE * fit.shares
            - W_UNUSED * fit.unused
            - W_SWITCH * switch_cost
            + W_TYPE * type_fit
            + W_ORDER * order
            - W_HOP * len(plan.hops)
            + W_LINK * plan.mention.link_score
            + W_CONSTRAINT * len(plan.constraints)
            - W_IGNORED * ignored
        )
        plan.features = features


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
