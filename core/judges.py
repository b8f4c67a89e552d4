"""Judges score whether the gathered information suffices: a reward in [0, 1] with a reason.

The rule judge reads the question analysis and the path that reached the current candidates;
an LLM judge plugs in through the same `score` method.
"""

from __future__ import annotations

from core.kg.store import KnowledgeGraph
from core.loop import Judgement, State
from core.question import align, analyse, answer_type_fit, coverage
from core.trace import Step, Triple


class RuleJudge:
    """reward = share of the question's relation words that relations on the path explain,
    halved when the candidates are not the kind of answer asked for, and halved again for
    every hop the question does not explain (a detour)."""

    name = "rules"

    def __init__(self, kg: KnowledgeGraph):
        self.kg = kg

    def score(self, state: State, memory: list[Step]) -> Judgement:
        if not state.frontier:
            return Judgement(0.0, "nothing retrieved")
        qa = state.notes.get("analysis") or analyse(state.question, self.kg)
        used = state.notes.get("used_mentions", ())
        chain = next(iter(state.frontier.values()))
        topics = {i for m in used for i in m.ids}
        hops, constraint_rels = chain_hops(chain, topics)
        if not hops:
            return Judgement(0.0, "no relation followed yet")
        cover = coverage(qa, {r for r, _ in hops} | set(constraint_rels), *used)
        detours = align(qa, hops, constraint_rels, used).unexplained
        rel, direction = state.arrival or hops[-1]
        kind = answer_type_fit(qa, self.kg, rel, direction)
        unused = _names_not_on_path(used, chain)
        reward = round(cover * (1.0 if kind >= 0 else 0.5) * 0.5 ** (detours + len(unused)), 4)
        words = ", ".join(sorted({self.kg.label(m.rel_id) for m in qa.mentions_outside(*used)}))
        path = " → ".join(self.kg.label(r) + ("" if d == "out" else "⁻¹") for r, d in hops)
        verdict = {1.0: "fits", 0.0: "is not constrained", -1.0: "does not fit"}[kind]
        reason = (
            f"path explains {cover:.0%} of the relation words (question names: "
            f"{words or 'none'}; path: {path}); answer type {verdict}"
            + (f"; {detours} hop(s) the question does not explain" if detours else "")
            + (f"; not yet used: {', '.join(m.text for m in unused)}" if unused else "")
        )
        return Judgement(reward, reason)


def chain_hops(chain: list[Triple], topics: set[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Walk an evidence chain from its topic entity: the (relation, direction) hops, and the
    relations of constraint edges (edges to another topic entity, off the path)."""
    if not chain:
        return [], []
    first = chain[0]
    current = first.s if first.s in topics else first.o
    hops: list[tuple[str, str]] = []
    constraints: list[str] = []
    for t in chain:
        if t.s == current and t.o not in topics:
            hops.append((t.p, "out"))
            current = t.o
        elif t.o == current and t.s not in topics:
            hops.append((t.p, "in"))
            current = t.s
        else:
            constraints.append(t.p)
    return hops, constraints


def _names_not_on_path(used, chain: list[Triple]) -> list:
    """Topic entities the plan uses (a second one to intersect with) that the path has not
    reached yet: until it does, the judge is not satisfied."""
    nodes = {n for t in chain for n in (t.s, t.o)}
    return [m for m in used if not any(i in nodes for i in m.ids)]
