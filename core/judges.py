"""Judges score whether the gathered information suffices: a reward in [0, 1] with a reason.

The rule judge reads the question analysis the agent stored and the path that reached the
current candidates; an LLM judge (later) plugs in through the same `score` method.
"""

from __future__ import annotations

from core.kg.store import KnowledgeGraph
from core.loop import Judgement, State
from core.question import analyse, answer_type_fit, coverage
from core.trace import Step


class RuleJudge:
    """reward = coverage, halved when the answer type does not fit: how much of the question the path explains,
    and whether the candidates are the kind of thing asked for."""

    name = "rules"

    def __init__(self, kg: KnowledgeGraph):
        self.kg = kg

    def score(self, state: State, memory: list[Step]) -> Judgement:
        if not state.frontier:
            return Judgement(0.0, "nothing retrieved")
        qa = state.notes.get("analysis") or analyse(state.question, self.kg)
        used = state.notes.get("used_mentions", ())
        chain = next(iter(state.frontier.values()))
        if not chain:
            return Judgement(0.0, "no relation followed yet")
        rels = {t.p for t in chain}
        cover = coverage(qa, rels, *used)
        rel, direction = state.arrival or (chain[-1].p, "out")
        fit = answer_type_fit(qa, self.kg, rel, direction)
        reward = round(cover * (1.0 if fit >= 0 else 0.5), 4)
        named = sorted({self.kg.label(m.rel_id) for m in qa.mentions_outside(*used)})
        explained = sorted({self.kg.label(r) for r in rels})
        kind = {1.0: "fits", 0.0: "is not asked", -1.0: "does not fit"}[fit]
        reason = (
            f"path explains {cover:.0%} of the relation words (question names: "
            f"{', '.join(named) or 'none'}; path uses: {', '.join(explained)}); "
            f"answer type {kind}"
        )
        return Judgement(reward, reason)
