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


class ConsensusJudge:
    """reward = share of the sampled answers that agree with the most common one (CoT-SC);
    with one sample it says nothing about sufficiency and scores 0.5."""

    name = "consensus"

    def score(self, state: State, memory: list[Step]) -> Judgement:
        votes = sum(state.support.values())
        if not votes:
            return Judgement(0.0, "no answer was sampled")
        top = max(state.support.values())
        if votes == 1:
            return Judgement(0.5, "one sample: agreement cannot be measured")
        return Judgement(round(top / votes, 4), f"{top} of {votes} samples agree")


class LLMJudge:
    """reward = P("yes" | question, gathered facts, candidates) from the LLM's choice between
    yes and no. A failed call falls back to the given judge (the fault is in the reason)."""

    name = "llm"

    def __init__(self, llm, kg: KnowledgeGraph | None, fallback=None):
        self.llm = llm
        self.kg = kg
        self.fallback = fallback

    def score(self, state: State, memory: list[Step]) -> Judgement:
        from core.llm.client import LLMFault
        from core.llm.prompts import judge as judge_prompt

        if not state.frontier and not state.passages:
            return Judgement(0.0, "nothing retrieved")
        chains = [t for chain in list(state.frontier.values())[:5] for t in chain]
        known = list(dict.fromkeys([*state.path, *chains, *state.new]))
        labels = [node_label(self.kg, n) for n in list(state.frontier)[:6]]
        prompt = judge_prompt(state.question, known, state.passages[-3:], labels)
        try:
            choice = self.llm.choose(prompt, ["yes", "no"], purpose="judge",
                                     ledger=state.llm_calls)  # fmt: skip
        except LLMFault as fault:
            if self.fallback is None:
                return Judgement(0.0, f"LLM judge failed ({fault}); no fallback")
            verdict = self.fallback.score(state, memory)
            return Judgement(verdict.reward, f"LLM judge failed ({fault}); rules: {verdict.reason}")
        p_yes = round(choice.probs[0], 4)
        return Judgement(p_yes, f"P(yes) = {p_yes:.2f} from {self.llm.model} ({choice.method})")


def node_label(kg: KnowledgeGraph | None, node: str) -> str:
    """Label of a frontier node: a KG node's label, or the text of a text-only answer."""
    if kg is not None and not (node.startswith('"') and node.endswith('"')):
        return kg.label(node)
    if node.startswith('"') and node.endswith('"'):
        import json

        try:
            return str(json.loads(node))
        except ValueError:
            return node.strip('"')
    return node
