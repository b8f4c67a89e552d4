"""The KG-only agent: soft rules over the graph, no LLM (paradigm `kg-only`).

Reason: on the first step, link the question's entities and rank relation-path plans
(core.agents.planner); then follow the best plan one hop per step. An empty hop switches to
the next plan; a finished plan the judge still finds insufficient is extended by one hop
when a ranked plan continues it.
"""

from __future__ import annotations

from core.agents.planner import Plan, Planner, floored, rule_prior
from core.kg.source import path_sparql
from core.kg.store import KnowledgeGraph
from core.loop import State
from core.question import analyse
from core.trace import Action, Answer, Step
from core.wkm.actions import STOP, path_keys
from core.wkm.guide import Guide, with_stop

MAX_ANSWERS_WITH_EVIDENCE = 25
MIN_ANSWER_REWARD = 0.5  # below this the judge calls the path a guess: answer nothing


class RuleAgent:
    name = "rules"

    def __init__(self, kg: KnowledgeGraph, max_hops: int = 3, guide: Guide | None = None):
        self.kg = kg
        self.planner = Planner(kg, max_hops=max_hops)
        self.guide = guide  # World Knowledge Model: mixes learned P_know into each hop choice

    def reason(self, state: State, memory: list[Step]) -> Action | None:
        notes = state.notes
        if "plans" not in notes:
            if not self._plan(state):
                return None
        plans: list[Plan] = notes["plans"]
        last = state.last_step  # the latest step, even when reasoning on a snapshot
        if last is not None and (last.error or last.candidates == 0):
            return self._next_plan(state, "the last query found nothing")
        plan = plans[notes["plan_i"]]
        hop_i = notes["hop_i"]
        if hop_i < len(plan.hops):
            return self._next_hop(state, hop_i)
        c_i = notes["constraint_i"]
        if c_i < len(plan.constraints):
            return self._constraint_action(state, plan, c_i)
        longer = self._extension(plans, notes["plan_i"])
        if self.guide is not None:
            return self._guided_completion(state, plan, longer)
        if longer is None:
            notes["stop_reason"] = "the best plan is complete and no ranked plan extends it"
            return None
        notes["plan_i"] = longer
        return self._hop_action(state, plans[longer], hop_i)

    # -- planning ---------------------------------------------------------------------------
    def _plan(self, state: State) -> bool:
        notes = state.notes
        qa = analyse(state.question, self.kg)
        notes["analysis"] = qa
        notes["linked"] = [
            {
                "text": m.text,
                "ids": list(m.ids[:3]),
                "labels": [self.kg.label(i) for i in m.ids[:3]],
                "score": round(m.link_score, 3),
                "bracketed": m.bracketed,
            }
            for m in qa.entities[:5]
        ]
        if not qa.entities:
            notes["stop_reason"] = "no entity of the knowledge graph is named in the question"
            return False
        plans = self.planner.plans(qa)
        if not plans:
            notes["stop_reason"] = "the linked entities have no relation to follow"
            return False
        notes.update(plans=plans, plan_i=0, hop_i=0, constraint_i=0, failed=set())
        notes["wkm_mention"] = plans[0].mention.text
        return True

    def _next_plan(self, state: State, why: str) -> Action | None:
        notes = state.notes
        failed = notes["plans"][notes["plan_i"]]
        if state.last_step is not None and state.last_step.action.kind == "hop":
            # a plan starting with the same empty walk would find nothing again: skip it
            notes["failed"].add((failed.anchor, tuple(failed.hops[: notes["hop_i"]])))
        notes["plan_i"] += 1
        while notes["plan_i"] < len(notes["plans"]) and self._dead(
            notes, notes["plans"][notes["plan_i"]]
        ):
            notes["plan_i"] += 1
        notes.update(hop_i=0, constraint_i=0)
        if notes["plan_i"] >= len(notes["plans"]):
            notes["stop_reason"] = f"{why}, and no other plan is left"
            return None
        state.frontier, state.support = {}, {}
        action = self._next_hop(state, 0)
        action.details["switched_because"] = why
        return action

    @staticmethod
    def _dead(notes: dict, plan: Plan) -> bool:
        """Does the plan start with a path that already found nothing?"""
        return any(
            anchor == plan.anchor and tuple(plan.hops[: len(hops)]) == hops
            for anchor, hops in notes["failed"]
        )

    @staticmethod
    def _extension(plans: list[Plan], current: int) -> int | None:
        """A ranked plan that continues the current one and explains more of the question
        (another hop only helps if it takes a relation phrase the current path leaves out)."""
        base = plans[current]
        for i, other in enumerate(plans):
            if other.features["unused_phrases"] >= base.features["unused_phrases"]:
                continue
            if (
                i != current
                and other.anchor == base.anchor
                and len(other.hops) > len(base.hops)
                and other.hops[: len(base.hops)] == base.hops
            ):
                return i
        return None

    # -- the World Knowledge Model's say (core.wkm.guide) --------------------------------
    def _next_hop(self, state: State, hop_i: int) -> Action:
        """The current plan's next hop, or, with a guide, the mixed choice among every real
        relation of the current nodes (P_agent: softmax of the best plan score per hop)."""
        notes = state.notes
        plans: list[Plan] = notes["plans"]
        plan = plans[notes["plan_i"]]
        if self.guide is None:
            return self._hop_action(state, plan, hop_i)
        walked = plan.hops[:hop_i]
        nodes = [plan.anchor] if hop_i == 0 else list(state.frontier)
        options = [plan.hops[hop_i]] + [
            h for h in self._relations_of(nodes)
            if h != plan.hops[hop_i] and (plan.anchor, (*walked, h)) not in notes["failed"]
        ]  # fmt: skip
        scores = {}
        for p in plans:
            if p.anchor == plan.anchor and len(p.hops) > hop_i and p.hops[:hop_i] == walked:
                scores.setdefault(p.hops[hop_i], p.score)
        p_agent = rule_prior(floored([scores.get(h, -100.0) for h in options]))
        best, record = self.guide.choose(
            state, path_keys(walked), path_keys(options), p_agent, agent_best=0
        )
        if best:
            self._adopt(state, plan, [*walked, options[best]])
        action = self._hop_action(state, plans[notes["plan_i"]], hop_i)
        action.details["wkm"] = record
        return action

    def _guided_completion(self, state: State, plan: Plan, longer: int | None) -> Action | None:
        """The plan is walked and the judge wants more: stop, or one more hop? Mixed over
        stop and every relation of the current nodes; similar expert states vote."""
        notes = state.notes
        plans: list[Plan] = notes["plans"]
        hop_i = len(plan.hops)
        own = plans[longer].hops[hop_i] if longer is not None else None
        hops = self._relations_of(list(state.frontier)) if hop_i < self.planner.max_hops else []
        if own is not None and own not in hops:
            hops.insert(0, own)
        keys = [STOP, *path_keys(hops)]
        agent_best = 0 if own is None else 1 + hops.index(own)
        # beside stopping, the rules' hop is the one they would extend by; when no ranked
        # plan continues (a path the guide chose) the relations share evenly
        p_agent = with_stop(state, [float(own is None or h == own) for h in hops])
        best, record = self.guide.choose(
            state, path_keys(plan.hops), keys, p_agent, agent_best=agent_best
        )
        if best == 0:
            # similar expert runs mostly stopped here: their answers were taken at this point,
            # so the answer gate of `summarize` trusts this stop even on a low rule reward
            stop = next((o for o in record.get("options", []) if o["key"] == STOP), None)
            notes["wkm_stop"] = bool(stop and stop["p_know"] >= 0.5)
            notes["stop_reason"] = (
                "similar expert runs stopped here (state knowledge)"
                if record.get("changed")
                else "the plan is complete; the rules and similar expert runs agree to stop"
                if record.get("neighbours")
                else "the best plan is complete and no ranked plan extends it"
            )
            return None
        self._adopt(state, plan, [*plan.hops, hops[best - 1]])
        action = self._hop_action(state, plans[notes["plan_i"]], hop_i)
        action.details["wkm"] = record
        return action

    def _relations_of(self, nodes: list[str]) -> list[tuple[str, str]]:
        """The distinct (relation, direction) pairs of the first 50 nodes: the real options."""
        return list(dict.fromkeys(h for n in nodes[:50] for h in self.kg.roles(n)))

    def _adopt(self, state: State, plan: Plan, hops: list) -> None:
        """Switch to the best ranked plan with these hops, or to a new plan the guide made."""
        notes = state.notes
        plans: list[Plan] = notes["plans"]
        for i, p in enumerate(plans):
            if p.anchor == plan.anchor and p.hops[: len(hops)] == hops:
                notes["plan_i"] = i
                return
        features = {"guided": 1.0, "unused_phrases": 0, "hops": len(hops)}
        plans.append(Plan(plan.anchor, plan.mention, hops, score=-100.0, features=features))
        notes["plan_i"] = len(plans) - 1

    # -- actions ----------------------------------------------------------------------------
    def _hop_action(self, state: State, plan: Plan, hop_i: int) -> Action:
        rel, direction = plan.hops[hop_i]
        start = [plan.anchor] if hop_i == 0 else list(state.frontier)
        state.notes["hop_i"] = hop_i + 1
        state.notes["used_mentions"] = (plan.mention, *plan.constraint_mentions)
        state.notes["wkm_walked"] = path_keys(plan.hops[: hop_i + 1])
        label = self.kg.label(rel)
        n = len(start)
        where = self.kg.label(plan.anchor) if hop_i == 0 else f"{n} candidate{'s' * (n != 1)}"
        arrow = f"'{label}'" if direction == "out" else f"'{label}' backwards"
        return Action(
            kind="hop",
            description=f"follow {arrow} from {where}",
            query=self._sparql(plan, hop_i + 1, 0),
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={
                "from": start,
                "relation": rel,
                "direction": direction,
                "anchor": plan.anchor,
                "hop": hop_i + 1,
            },
            details=self._why(state, plan),
        )

    def _constraint_action(self, state: State, plan: Plan, c_i: int) -> Action:
        anchor, rel, direction = plan.constraints[c_i]
        state.notes["constraint_i"] = c_i + 1
        return Action(
            kind="constrain",
            description=(
                f"keep candidates linked to {self.kg.label(anchor)} by '{self.kg.label(rel)}'"
            ),
            query=self._sparql(plan, len(plan.hops), c_i + 1),
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={
                "from": list(state.frontier),
                "anchor": anchor,
                "relation": rel,
                "direction": direction,
            },
            details=self._why(state, plan),
        )

    def _sparql(self, plan: Plan, n_hops: int, n_constraints: int) -> str:
        """The whole-path query so far, headed by a comment in words for the reader."""
        part = Plan(plan.anchor, plan.mention, plan.hops[:n_hops], plan.constraints[:n_constraints])
        query = path_sparql(plan.anchor, part.hops, part.constraints)
        return f"# {self._describe(part)}\n{query}"

    def _why(self, state: State, plan: Plan) -> dict:
        plans: list[Plan] = state.notes["plans"]
        return {
            "plan": self._describe(plan),
            "plan_score": round(plan.score, 3),
            "features": plan.features,
            "alternatives": [
                {"plan": self._describe(p), "score": round(p.score, 3)}
                for p in plans
                if p is not plan
            ][:3],
        }

    def _describe(self, plan: Plan) -> str:
        parts = [self.kg.label(plan.anchor)]
        for rel, direction in plan.hops:
            parts.append(
                f"—{self.kg.label(rel)}→" if direction == "out" else f"←{self.kg.label(rel)}—"
            )
        text = " ".join(parts)
        for anchor, rel, _ in plan.constraints:
            text += f" ∩ {self.kg.label(rel)} {self.kg.label(anchor)}"
        return text

    # -- summarise --------------------------------------------------------------------------
    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        """Answers: the frontier without the topic entities, most supported first."""
        topics = {m for mention in state.notes.get("used_mentions", ()) for m in mention.ids}
        candidates = [n for n in state.frontier if n not in topics]
        # a stop the learned knowledge confirmed (`_guided_completion`) passes the gate too
        trusted = memory and (memory[-1].reward >= MIN_ANSWER_REWARD or state.notes.get("wkm_stop"))
        if not candidates or not trusted:
            if candidates and memory:
                state.notes["stop_reason"] = (
                    f"the judge found the evidence insufficient (reward {memory[-1].reward:.2f} "
                    f"< {MIN_ANSWER_REWARD})"
                )
            return [], 0
        top = max(state.support.get(n, 1) for n in candidates)
        candidates.sort(
            key=lambda n: (-state.support.get(n, 1), -self.kg.degree(n), self.kg.label(n))
        )
        answers = [
            Answer(
                id=n,
                label=self.kg.label(n),
                score=round(state.support.get(n, 1) / top, 4),
                evidence=state.frontier[n] if i < MAX_ANSWERS_WITH_EVIDENCE else [],
            )
            for i, n in enumerate(candidates)
        ]
        return answers, len(answers)
