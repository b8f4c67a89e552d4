"""LLM agents (paradigms `llm-only`, `llm+kg`, `llmxkg`). Each is a Reason + Summarize pair
for the one loop; the LLM decides wherever the choice is closed (topic entity, relation,
answer) through `LLM.choose`, and a failed call falls back to the rule ranking for that step
with the fault recorded in the step."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from core.agents.lookahead import plan_ahead
from core.agents.planner import Plan, Planner, coverage_ceiling, floored, rule_prior
from core.analysis import analyse
from core.judges import node_label
from core.kg.source import path_sparql
from core.kg.store import KnowledgeGraph
from core.llm import prompts
from core.llm.client import LLM, Choice, LLMFault
from core.llm.source import final_answer
from core.loop import LoopSettings, State
from core.trace import Action, Answer, Step, Triple
from core.wkm.actions import STOP, path_keys
from core.wkm.guide import Guide, with_stop

MAX_ANSWERS_WITH_EVIDENCE = 25
MAX_OPTIONS = 30  # options one LLM choice may weigh (ToG-style scores all, up to this)
RELATION_FACTS = 12  # facts shown with a relation decision (small prompts stay interactive)


def decide(llm: LLM, prompt: str, options: list[str], purpose: str, state: State,
           prior: list[float] | None = None, weight: float = 0.0,
           ) -> tuple[int, Choice | None, str | None]:  # fmt: skip
    """Index of the decision: argmax of log P_llm + weight · log P_rules (weight 0: the LLM
    alone). On a fault: the rule choice, and the fault text for the trace."""
    fallback = max(range(len(options)), key=lambda i: prior[i]) if prior else 0
    try:
        choice = llm.choose(prompt, options, purpose=purpose, ledger=state.llm_calls)
    except LLMFault as fault:
        return fallback, None, f"{fault}; fell back to the rule choice"
    if not prior or weight <= 0:
        return choice.best, choice, None
    mixed = log_mix(choice.probs, prior, weight)
    return max(range(len(options)), key=mixed.__getitem__), choice, None


def log_mix(p_llm: list[float], prior: list[float], weight: float) -> list[float]:
    """log P_llm + weight · log P_rules per option: how the LLM and the rules decide together."""
    return [
        math.log(max(p, 1e-9)) + weight * math.log(max(q, 1e-9))
        for p, q in zip(p_llm, prior, strict=True)
    ]


def link_topics(kg: KnowledgeGraph, state: State) -> list[tuple[str, str]]:
    """Linked (node id, mention text) pairs, best first (rule entity linking)."""
    from core.agents.rules import linked_entities

    qa = analyse(state.question, kg)
    state.reading.analysis = qa
    state.reading.linked = linked_entities(kg, qa)
    out, seen = [], set()
    for m in qa.entities:
        for node in m.ids[:2]:
            if node not in seen:
                seen.add(node)
                out.append((node, m.text))
    return out


# -- llm-only ---------------------------------------------------------------------------------
class CoTAgent:
    """Chain of thought: the LLM is both agent and knowledge source (k samples, majority)."""

    name = "llm"

    def __init__(self, llm: LLM, samples: int = 1):
        self.llm = llm
        self.samples = max(1, samples)

    def reason(self, state: State, memory: list[Step]) -> Action | None:
        if memory:
            state.stop_reason = "the chain of thought is written"
            return None
        k = self.samples
        return Action(
            kind="generate",
            description=f"ask {self.llm.model} to reason step by step"
            + (f" ({k} samples, majority vote)" if k > 1 else ""),
            query=prompts.chain_of_thought(state.question),
            language="text",
            source=f"llm:{self.llm.model}",
            params={"samples": k},
        )

    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        total = sum(state.support.values()) or 1
        by_answer = {final_answer(p.text): p.id for p in state.passages if not p.verified}
        answers = []
        for node in sorted(state.frontier, key=lambda n: -state.support.get(n, 0)):
            label = node_label(None, node)
            answers.append(
                Answer(
                    id=node,
                    label=label,
                    score=round(state.support.get(node, 0) / total, 4),
                    passages=[p for p in state.passages if by_answer.get(label) == p.id]
                    or [p for p in state.passages if label in p.text][:1],
                )
            )
        return answers, len(answers)


# -- llm+kg (one shot) ------------------------------------------------------------------------
class OneShotAgent:
    """Link, retrieve one bounded ranked neighbourhood, let the LLM answer once: it chooses
    the answer among the entities the retrieved triples mention (so every answer has them as
    evidence)."""

    name = "llm"

    def __init__(self, kg: KnowledgeGraph, llm: LLM, limit: int = 30, max_options: int = 16):
        self.kg, self.llm = kg, llm
        self.limit, self.max_options = limit, max_options
        self.planner = Planner(kg, max_hops=2)

    def reason(self, state: State, memory: list[Step]) -> Action | None:
        if memory:
            state.stop_reason = "one-shot: one retrieval, then the answer"
            return None
        topics = link_topics(self.kg, state)
        if not topics:
            state.stop_reason = "no entity of the knowledge graph is named in the question"
            return None
        anchors = [node for node, _ in topics[:2]]
        plans = self.planner.plans(state.reading.analysis, limit=6)
        paths = [(p.anchor, p.hops) for p in plans if p.anchor in anchors]
        names = ", ".join(self.kg.label(a) for a in anchors)
        return Action(
            kind="neighbourhood",
            description=f"retrieve the ranked neighbourhood of {names} (≤ {self.limit} triples)",
            query="\n".join(f"# {self.kg.label(a)}\nDESCRIBE {a}" for a in anchors),
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={"anchors": anchors, "paths": paths, "limit": self.limit},
        )

    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        anchors = set(memory[0].action.params.get("anchors", ())) if memory else set()
        candidates = [n for n in state.frontier if n not in anchors]
        if not candidates:
            return [], 0
        options, nodes = [], []
        for node in candidates:  # frontier order = retrieval rank
            label = self.kg.label(node)
            if label not in options:
                options.append(label)
                nodes.append(node)
            if len(options) >= self.max_options:
                break
        known = list(dict.fromkeys(t for s in memory for t in s.triples))
        prompt = prompts.answer_from_facts(state.question, known)
        best, choice, fault = decide(self.llm, prompt, options, "answer", state)
        probs = choice.probs if choice else [1.0 / (i + 1) for i in range(len(options))]
        if fault:
            state.stop_reason = f"answer choice failed ({fault})"
        order = sorted(range(len(options)), key=lambda i: -probs[i])
        answers = [
            Answer(
                id=nodes[i],
                label=options[i],
                score=round(probs[i], 4),
                evidence=state.frontier[nodes[i]],
            )  # fmt: skip
            for i in order
        ]
        return answers, len(answers)


# -- llmxkg (iterative) -----------------------------------------------------------------------
@dataclass
class Candidate:
    rel: str
    direction: str
    text: str  # what the LLM reads
    rule_score: float
    nodes: int  # frontier nodes that have this relation


@dataclass
class Reached:
    """The candidates one step reached and the judge's reward for them (Summarize answers
    from the best of these; a hop that found nothing steps back to the previous one)."""

    step: int
    reward: float
    frontier: dict[str, list[Triple]]
    support: dict[str, int]


@dataclass
class WalkMemo:
    """`IterativeAgent`'s own memory of one run, kept on the state (`State.memo`) so that a
    copied state carries it; nothing but the agent reads it."""

    topic: str  # the topic entity the walk starts from
    topic_choice: dict  # the trace's record of the topic decision
    path: list[tuple[str, str]] = field(default_factory=list)  # (relation, direction) walked
    tried: set[tuple[int, str, str]] = field(default_factory=set)  # (hop, rel, dir) that failed
    history: list[Reached] = field(default_factory=list)
    plans: list[Plan] | None = None  # the rule plans, ranked once per run


class IterativeAgent:
    """Each step: the rules list the KG's real candidate relations of the current entities
    (ranked by the plan scores of core.agents.planner); the LLM chooses one (optionally by
    Algorithm 2 planning); the KG walks it; the judge scores. ToG-style (`exhaustive`): the
    LLM scores every candidate relation and every entity, keeping `width` entities."""

    name = "llm"

    def __init__(self, kg: KnowledgeGraph, llm: LLM, settings: LoopSettings, max_hops: int = 3,
                 guide: Guide | None = None):  # fmt: skip
        self.kg, self.llm, self.settings = kg, llm, settings
        self.max_hops = max_hops
        self.planner = Planner(kg, max_hops=max_hops)
        self.guide = guide  # World Knowledge Model: mixes learned P_know into each choice

    @staticmethod
    def _memo(state: State) -> WalkMemo | None:
        """This agent's memory of the run (None until the topic entity is chosen)."""
        return state.memo if isinstance(state.memo, WalkMemo) else None

    # -- Reason -----------------------------------------------------------------------------
    def reason(self, state: State, memory: list[Step]) -> Action | None:
        memo = self._memo(state)
        if memo is None:
            memo = self._choose_topic(state)
            if memo is None:
                return None
        elif state.last_step is not None:
            self._remember(state, memo, state.last_step)
        if len(memo.path) >= self.max_hops:
            state.stop_reason = f"{self.max_hops} hops walked"
            return None
        candidates = self._candidates(state, memo)
        if not candidates:
            state.stop_reason = "the current entities have no relation left to follow"
            return None
        s = self.settings
        if (
            memo.path and s.prior > 0 and not s.exhaustive and not state.walk.guided
            and not self._knowledge_goes_on(state, memo)
        ):  # fmt: skip
            if candidates[0].rule_score <= -100:
                state.stop_reason = "no rule plan continues the path walked so far"
                return None
            if self._ends_here(memo) >= candidates[0].rule_score:
                state.stop_reason = "the best rule plan ends with the path walked so far"
                return None
        return self._relation_action(state, memo, memory, candidates)

    @staticmethod
    def _ends_here(memo: WalkMemo) -> float:
        """Best score of a rule plan that is the path walked so far (-inf: none is): when it
        beats every plan that goes on, the rules say the walk is complete."""
        ending = [p.score for p in memo.plans or ()
                  if p.anchor == memo.topic and p.hops == memo.path]  # fmt: skip
        return max(ending, default=-math.inf)

    def _knowledge_goes_on(self, state: State, memo: WalkMemo) -> bool:
        """Do similar expert states continue from here (so the guide, not the rules'
        end of plan, decides whether to stop)?"""
        if self.guide is None:
            return False
        p_stop, n = self.guide.p_stop(state, path_keys(memo.path))
        return n > 0 and p_stop < 1.0

    def _choose_topic(self, state: State) -> WalkMemo | None:
        """Link the question and let the LLM choose the topic entity; the run's memory starts
        here (None: nothing of the KB is named)."""
        topics = link_topics(self.kg, state)
        if not topics:
            state.stop_reason = "no entity of the knowledge graph is named in the question"
            return None
        topics = topics[: max(1, self.settings.width)]
        options = _distinct_labels(self.kg, [n for n, _ in topics])
        prior = rule_prior([-float(i) for i in range(len(topics))])  # linking rank
        best, choice, fault = decide(
            self.llm,
            prompts.choose_topic(state.question),
            options,
            "topic entity",
            state,
            prior,
            self.settings.prior,
        )
        node, state.walk.mention = topics[best]
        qa = state.reading.analysis
        state.reading.used = tuple(
            m for m in qa.entities if m.text == state.walk.mention and node in m.ids
        )[:1]
        record = _choice_record(options, choice, fault, best, prior)
        memo = WalkMemo(topic=node, topic_choice=record)
        state.memo = memo
        state.frontier, state.support = {node: []}, {node: 1}
        return memo

    @staticmethod
    def _remember(state: State, memo: WalkMemo, last: Step) -> None:
        """Keep each step's candidates for Summarize; step back when a hop found nothing."""
        if any(h.step == last.index for h in memo.history):
            return
        if last.error or not state.frontier:
            memo.tried.add((len(memo.path) - 1, *memo.path[-1]))
            memo.path.pop()
            prev = memo.history[-1] if memo.history else None
            state.frontier, state.support = (
                (dict(prev.frontier), dict(prev.support))
                if prev
                else ({memo.topic: []}, {memo.topic: 1})
            )
            return
        memo.history.append(
            Reached(last.index, last.reward, dict(state.frontier), dict(state.support))
        )

    def _candidates(self, state: State, memo: WalkMemo) -> list[Candidate]:
        path = memo.path
        counts: dict[tuple[str, str], int] = {}
        for node in list(state.frontier)[:50]:
            for rel, direction in self.kg.roles(node):
                counts[(rel, direction)] = counts.get((rel, direction), 0) + 1
        counts = {k: v for k, v in counts.items() if (len(path), *k) not in memo.tried}
        scores = self._rule_scores(state, memo)
        cands = [
            Candidate(
                rel=rel,
                direction=d,
                text=self.kg.label(rel) + ("" if d == "out" else " (reverse)"),
                rule_score=scores.get((rel, d), -100.0),
                nodes=n,
            )
            for (rel, d), n in counts.items()
        ]
        cands.sort(key=lambda c: (-c.rule_score, -c.nodes, c.text))
        return cands

    def _rule_scores(self, state: State, memo: WalkMemo) -> dict[tuple[str, str], float]:
        """Best score of a rule plan that continues the path walked so far with each hop."""
        if memo.plans is None:
            memo.plans = self.planner.plans(state.reading.analysis, limit=40)
            state.reading.ceiling = coverage_ceiling(memo.plans, state.reading.analysis)
        plans: list[Plan] = memo.plans
        path, t = memo.path, len(memo.path)
        scores: dict[tuple[str, str], float] = {}
        for plan in plans:
            if plan.anchor == memo.topic and len(plan.hops) > t and plan.hops[:t] == path:
                key = plan.hops[t]
                scores[key] = max(scores.get(key, -100.0), plan.score)
        return scores

    def _relation_action(
        self, state: State, memo: WalkMemo, memory: list[Step], cands: list[Candidate]
    ) -> Action | None:
        s = self.settings
        shown = cands[:MAX_OPTIONS] if s.exhaustive else cands[: max(1, s.width)]
        walked = path_keys(memo.path)
        known = None
        if self.guide is not None:  # relations similar expert states took join the options
            keys = path_keys([(c.rel, c.direction) for c in cands])
            known = self.guide.p_know(state, walked, [*keys, STOP])
            extra = [c for c, p in zip(cands, known[0], strict=False) if p > 0 and c not in shown]
            shown = shown + extra[:2]
        where = self._where(state)
        facts = [t for step in memory for t in step.triples][-RELATION_FACTS:]
        prompt = prompts.choose_relation(state.question, facts, where)
        options = [c.text for c in shown]
        prior = None if s.exhaustive else rule_prior([c.rule_score for c in shown])
        best, choice, fault = decide(
            self.llm, prompt, options, "choose relation", state, prior, s.prior
        )
        details = {"relation_choice": _choice_record(options, choice, fault, best, prior),
                   "topic_choice": memo.topic_choice}  # fmt: skip
        if s.planning and choice is not None and len(shown) > 1:
            best, record = plan_ahead(state, shown, choice, facts, where,
                                      llm=self.llm, kg=self.kg, settings=s)  # fmt: skip
            details["planning"] = record
        if self.guide is not None:
            best = self._guided(state, walked, shown, cands, choice, best, known, details)
            if best < 0:
                state.stop_reason = "similar expert runs stopped here (state knowledge)"
                return None
        chosen = shown[best]
        start = list(state.frontier)
        if s.exhaustive and len(start) > s.width:
            start, details["entity_choice"] = self._prune_entities(state, facts, start)
        memo.path = [*memo.path, (chosen.rel, chosen.direction)]
        state.walk.walked = path_keys(memo.path)
        state.reading.hops = list(memo.path)  # what the judge reads as walked
        details["candidates"] = len(cands)
        return Action(
            kind="hop",
            description=f"follow '{chosen.text}' from {where}",
            query=f"# chosen by {self.llm.model}\n" + path_sparql(memo.topic, memo.path),
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={
                "from": start,
                "relation": chosen.rel,
                "direction": chosen.direction,
                "anchor": memo.topic,
                "hop": len(memo.path),
            },
            details=details,
        )

    def _guided(self, state: State, walked: list[str], shown: list[Candidate],
                cands: list[Candidate], choice: Choice | None, best: int, known: tuple,
                details: dict) -> int:  # fmt: skip
        """WKM: the mixed choice among the shown relations and, after the first hop, stopping
        (-1). P_agent: stop gets the judge's own reward (its confidence that the evidence
        suffices), the relations share the rest by the LLM's probabilities combined with the
        rules' prior as `decide` does (a relation no plan covers gets a small floor)."""
        p_llm = choice.probs if choice else [1.0] * len(shown)
        w = 0.0 if self.settings.exhaustive else self.settings.prior
        prior = rule_prior(floored([c.rule_score for c in shown]))
        p_agent = rule_prior(log_mix(p_llm, prior, w))
        index = {(c.rel, c.direction): i for i, c in enumerate(cands)}
        p_know = [known[0][index[(c.rel, c.direction)]] for c in shown]
        keys = path_keys([(c.rel, c.direction) for c in shown])
        if walked:  # stopping is an action too once something was retrieved
            p_agent = with_stop(state, p_agent)
            p_know, keys, best = [known[0][-1], *p_know], [STOP, *keys], best + 1
        mixed, record = self.guide.choose(
            state, walked, keys, p_agent, agent_best=best, known=(p_know, *known[1:])
        )
        details["wkm"] = record
        if walked:
            mixed -= 1
            if mixed < 0:
                return -1
        if shown[mixed].rule_score <= -100:
            state.walk.guided = True  # a path no rule plan covers: the guide leads
        return mixed

    def _prune_entities(self, state: State, known: list[Triple], nodes: list[str]):
        """ToG: the LLM scores every current entity; the top `width` are kept."""
        nodes = nodes[:MAX_OPTIONS]
        options = _distinct_labels(self.kg, nodes)
        prompt = prompts.choose_entity(state.question, known)
        _, choice, fault = decide(self.llm, prompt, options, "choose entities", state)
        probs = choice.probs if choice else [1.0] * len(options)
        order = sorted(range(len(nodes)), key=lambda i: -probs[i])[: self.settings.width]
        return [nodes[i] for i in order], _choice_record(options, choice, fault, order[0])

    def _where(self, state: State) -> str:
        nodes = list(state.frontier)
        if len(nodes) == 1:
            return self.kg.label(nodes[0])
        shown = ", ".join(self.kg.label(n) for n in nodes[:3])
        return f"{shown}{' ...' if len(nodes) > 3 else ''} ({len(nodes)} entities)"

    # -- Summarize --------------------------------------------------------------------------
    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        """The answer is read from the step the judge rated best (the buffer, not just the
        last step: a noisy judge that let the walk go one hop too far does not lose it)."""
        memo = self._memo(state)
        if memo is None or not memory:
            return [], 0
        history = list(memo.history)
        last = memory[-1]
        if state.frontier and not last.error and (not history or history[-1].step != last.index):
            history.append(Reached(last.index, last.reward, state.frontier, state.support))
        if not history:
            return [], 0
        best = max(history, key=lambda h: (h.reward, -h.step))
        if best.step != last.index:
            state.stop_reason = (
                f"answer from step {best.step} (judge reward {best.reward:.2f}, the best)"
            )
        frontier, support = best.frontier, best.support
        candidates = [n for n in frontier if n != memo.topic]
        if not candidates:
            return [], 0
        top = max(support.get(n, 1) for n in candidates)
        candidates.sort(key=lambda n: (-support.get(n, 1), -self.kg.degree(n), self.kg.label(n)))
        answers = [
            Answer(
                id=n,
                label=self.kg.label(n),
                score=round(best.reward * support.get(n, 1) / top, 4),
                evidence=frontier[n] if i < MAX_ANSWERS_WITH_EVIDENCE else [],
            )
            for i, n in enumerate(candidates)
        ]
        return answers, len(answers)


def _distinct_labels(kg: KnowledgeGraph, nodes: list[str]) -> list[str]:
    """Option texts for nodes; equal labels are told apart by one of their relations."""
    labels = [kg.label(n) for n in nodes]
    out = []
    for node, label in zip(nodes, labels, strict=True):
        if labels.count(label) > 1:
            roles = kg.roles(node)
            hint = kg.label(roles[0][0]) if roles else node.rsplit("/", 1)[-1].strip(">")
            label = f"{label} ({hint})"
        while label in out:
            label += "'"
        out.append(label)
    return out


def _choice_record(options: list[str], choice: Choice | None, fault: str | None, best: int,
                   prior: list[float] | None = None):  # fmt: skip
    """What the trace shows about one decision: every option with its probabilities."""
    return {
        "options": [
            {
                "option": o,
                "p_llm": round(choice.probs[i], 4) if choice else None,
                "p_rules": round(prior[i], 4) if prior else None,
            }
            for i, o in enumerate(options)
        ],
        "chosen": options[best] if options else None,
        "method": choice.method if choice else "rules (fallback)",
        "fault": fault,
    }
