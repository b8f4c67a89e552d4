"""Lookahead: reason as planning (seed Algorithm 2) with an Actor, a Model (the LLM as a
simulated KB) and a Critic.

For U lookahead levels: the Actor proposes N next relations for every kept trajectory (its
option probabilities), the Model predicts in words what each would return — no KB call — and
the Critic scores each predicted trajectory; the best W are kept. The first hop of the best
trajectory is taken. Deeper levels draw their proposals from the KB's schema (which relation
follows which, `KGIndex.follow`), never from instance queries.

The agent hands in what the lookahead needs (its LLM, KB and settings, and its candidates as
`Option`s), so this module does not depend on the agent that calls it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from core.llm import prompts
from core.llm.client import LLM, Choice, LLMFault

if TYPE_CHECKING:
    from core.kg.store import KnowledgeGraph
    from core.loop import LoopSettings, State
    from core.trace import Triple


class Option(Protocol):
    """A next hop the Actor chose among (the agent's candidate relation)."""

    rel: str
    direction: str
    text: str  # what the LLM reads


@dataclass
class SimulatedPath:
    """One lookahead trajectory: hops the Model predicted the results of, never walked."""

    first: int  # index of its first hop among the step's candidates
    hops: list[tuple[str, str]]  # (relation, direction)
    texts: list[str]
    predictions: list[str] = field(default_factory=list)
    prior: float = 1.0  # Actor probability of the hops
    value: float = 0.0  # Critic score

    def describe(self) -> str:
        return " → ".join(
            f"{t} ⇒ {p}" if p else t
            for t, p in zip(self.texts, self.predictions + [""] * len(self.texts), strict=False)
        )


def plan_ahead(
    state: State,
    shown: Sequence[Option],
    actor: Choice,
    known: list[Triple],
    where: str,
    *,
    llm: LLM,
    kg: KnowledgeGraph,
    settings: LoopSettings,
) -> tuple[int, dict]:
    """Index of the candidate whose trajectory the Critic values most, and the record the
    trace shows (proposals, predictions, scores). A fault keeps the Actor's choice."""
    s = settings
    n, width, depth = max(1, s.proposals), max(1, s.beam), max(1, s.lookahead)
    top = sorted(range(len(shown)), key=lambda i: -actor.probs[i])[:n]
    beams = [
        SimulatedPath(
            i, [(shown[i].rel, shown[i].direction)], [shown[i].text], prior=actor.probs[i]
        )
        for i in top
    ]
    levels = []
    try:
        for level in range(depth):
            if level:
                beams = _expand(llm, kg, state, beams, n)
            for traj in beams:
                _simulate(llm, state, traj, known, where)
            beams.sort(key=lambda t: -t.value)
            levels.append(
                [
                    {
                        "trajectory": t.describe(),
                        "actor_p": round(t.prior, 4),
                        "critic": round(t.value, 4),
                        "kept": i < width,
                    }  # fmt: skip
                    for i, t in enumerate(beams)
                ]
            )
            beams = beams[:width]
    except LLMFault as fault:
        return actor.best, {"levels": levels, "fault": f"{fault}; kept the actor's choice",
                            "U": depth, "W": width, "N": n}  # fmt: skip
    best = max(beams, key=lambda t: (t.value, t.prior))
    return best.first, {"levels": levels, "chosen": best.describe(), "U": depth, "W": width,
                        "N": n}  # fmt: skip


def _simulate(llm: LLM, state: State, traj: SimulatedPath, known: list[Triple], where: str
              ) -> None:  # fmt: skip
    """Model: predict the last hop's result; Critic: does the trajectory reach the answer?"""
    if len(traj.predictions) < len(traj.texts):
        origin = traj.predictions[-1] if traj.predictions else where
        completion = llm.complete(
            prompts.predict_result(state.question, known, origin, traj.texts[-1]),
            purpose="model: predict result",
            ledger=state.llm_calls,
            max_tokens=12,
            stop=["\n"],
        )
        traj.predictions.append(completion.text.strip()[:80] or "?")
    verdict = llm.choose(
        prompts.critic(state.question, f"start at {where}; " + traj.describe()),
        ["yes", "no"],
        purpose="critic",
        ledger=state.llm_calls,
    )
    traj.value = verdict.probs[0]


def _expand(llm: LLM, kg: KnowledgeGraph, state: State, beams: list[SimulatedPath], n: int
            ) -> list[SimulatedPath]:  # fmt: skip
    """Actor at a deeper level: N schema-level next relations per kept trajectory."""
    index = kg.index
    code_of = {r: i for i, r in enumerate(index.rel_ids)}
    out = []
    for traj in beams:
        rel, direction = traj.hops[-1]
        code = code_of[rel] * 2 + (0 if direction == "out" else 1)
        nexts = sorted(index.follow.get(code, {}).items(), key=lambda kv: -kv[1])[: 3 * n]
        if not nexts:
            out.append(traj)
            continue
        hops = [(index.rel_ids[c >> 1], "out" if c % 2 == 0 else "in") for c, _ in nexts]
        texts = [kg.label(r) + ("" if d == "out" else " (reverse)") for r, d in hops]
        choice = llm.choose(
            prompts.choose_relation(state.question, [], traj.predictions[-1]),
            texts,
            purpose="actor: propose",
            ledger=state.llm_calls,
        )
        for i in sorted(range(len(texts)), key=lambda i: -choice.probs[i])[:n]:
            out.append(
                SimulatedPath(
                    traj.first,
                    [*traj.hops, hops[i]],
                    [*traj.texts, texts[i]],
                    list(traj.predictions),
                    prior=traj.prior * choice.probs[i],
                )
            )
    return out
