"""The KG-only agent: soft rules over the graph, no LLM (paradigm `kg-only`).

Reason: on the first step, read the question against the KB (core.analysis) and rank
relation-path plans (core.agents.planner); then follow the best plan one hop per step, then
its constraints (other named entities) and its filters (comparisons on literal values). An
empty hop switches to the next plan; a finished plan the judge still finds insufficient is
extended by one hop when a ranked plan continues it.
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np

from core.agents.plan_ranker import PlanRanker
from core.agents.plan_run import MIN_ANSWER_REWARD, SWITCH_LOSS, RulePlanRun, coverage
from core.agents.planner import Filter, Plan, Planner, coverage_ceiling, floored, rule_prior
from core.analysis import (
    HOP_EXPLAINED,
    HOP_NAMED_WORD,
    QuestionAnalysis,
    analyse,
    literal_kinds,
    role_codes,
)
from core.answer_types import (
    attribute_agreement,
    class_asked,
    class_of_another_noun,
    hop_kind,
    typed_by_rule,
)
from core.chain import chain_length
from core.kg.source import path_sparql
from core.kg.store import KnowledgeGraph
from core.loop import State
from core.path_fit import explain
from core.trace import Action, Answer, Step
from core.wkm.actions import STOP, path_keys
from core.wkm.guide import Guide, with_stop

MAX_ANSWERS_WITH_EVIDENCE = 25
TOPIC_ANSWER = 0.5  # score factor of the topic entity as an answer: after every other one
DETOUR_REWARD = 0.5  # an uncued out-and-back detour below this answers another question
WHERE_EXPLAINED = 0.9  # a "where" plan explaining less of the question walks on to a place


class RuleAgent:
    name = "rules"

    def __init__(self, kg: KnowledgeGraph, max_hops: int = 3, guide: Guide | None = None,
                 filters: bool = True):  # fmt: skip
        """`filters=False`: comparisons are left to the caller (Chain-of-Knowledge asks a
        table or calls `attribute_for`). Plans are still ranked with their filters — "scripts
        that date from the 1970s" is a path to the scripts plus a comparison, not a hop on to
        their years — and the filters are then dropped from the plans walked."""
        self.kg = kg
        self.applies_filters = filters
        self.planner = Planner(kg, max_hops=max_hops)
        self.guide = guide  # World Knowledge Model: mixes learned P_know into each hop choice
        self._state: State | None = None
        self._run: RulePlanRun | None = None

    def reason(self, state: State, memory: list[Step], question: str | None = None
               ) -> Action | None:  # fmt: skip
        """`question`: the part of the question to answer, when another agent delegates one
        clause (Chain-of-Knowledge's head clause); by default the state's question."""
        if self._state is not state:
            self._state, self._run = state, None
            if not self._plan(state, question or state.question):
                return None
        run = self._run
        if run is None:
            return None
        last = state.last_step  # the latest step, even when reasoning on a snapshot
        if last is not None and last.action is run.last_action:
            run.remember(state, last)
            if last.action.kind == "hop" and last.candidates and not last.error:
                run.reached[self._prefix_key(run.plan, run.hop_i)] = (
                    state.frontier, state.support, state.arrival, last.index)
            if last.error or last.candidates == 0:
                return self._keep(run, self._next_plan(state, "the last query found nothing"))
            retry = self._other_reading(state, last)
            if retry is not None:
                return self._keep(run, retry)
            if self._wrong_kind(last):
                # walk on from these nodes where a ranked plan does ("in which country was X
                # born": the birth city, then where it is located), else the next plan; the
                # candidates kept are none to answer with
                if run.best is not None and run.best.step == last.index:
                    run.best = None
                anchor, rel, _ = run.plan.constraints[run.part_i - 1]
                because = "no candidate is of the kind the question asks for"
                return self._keep(run, self._walk_on_to_class(state, rel, anchor, because)
                                  or self._next_plan(state, because))
        plan = run.plan
        if run.hop_i < len(plan.hops):
            return self._keep(run, self._next_hop(state, run.hop_i))
        if run.part_i < plan.parts:
            return self._keep(run, self._part_action(state, plan, run.part_i))
        if plan.count:
            state.stop_reason = "the best plan is complete: the things it reaches are counted"
            return None
        # "what *nationality* is X's lead singer": the singer is no country; walk on where a
        # ranked plan does and arrives at the class the noun asked about names
        asked = class_asked(run.analysis, self.kg, list(state.frontier),
                            [r for _, r, _ in plan.constraints])  # fmt: skip
        on = self._walk_on_to_class(
            state, *asked, "the answers are not of the class asked for") if asked else None
        if on is None:
            # "which *artists* released *albums* on the label X founded": the answers are the
            # albums another noun names; walk on where a ranked plan leaves that class
            named = class_of_another_noun(run.analysis, self.kg, list(state.frontier))
            on = self._walk_on_to_class(
                state, *named, "the answers are of the class another noun of the question "
                "names", leave=True) if named else None  # fmt: skip
        if on is not None:
            return self._keep(run, on)
        longer = run.extension(typed_by_rule(run.analysis), asks_origin(run.analysis, plan))
        if self.guide is not None:
            return self._keep(run, self._guided_completion(state, plan, longer))
        if longer is None:
            fitting = run.fitting_alternative(state.last_step)
            if fitting is not None:  # "which city is X's club based in": not the home
                # stadium (a venue) but the next plan's city
                run.move_next(fitting)
                return self._keep(run, self._next_plan(
                    state, "the answers are not the kind of thing asked for"))
            state.stop_reason = "the best plan is complete and no ranked plan extends it"
            return None
        run.plan_i = longer
        run.plans[longer].kinds = list(plan.kinds)  # the hops they share were walked so
        return self._keep(run, self._hop_action(state, run.plans[longer], run.hop_i))

    def _wrong_kind(self, last: Step) -> bool:
        """Did a class constraint by the noun asked about link none of the candidates ("in
        which *country* was X born": the birth city is not an `instance of` country)? Then
        the plan answers another kind of thing than asked for, where a constraint by another
        name that links none is left out (`_other_reading` tried its other readings)."""
        run = self._run
        i = run.part_i - 1
        if last.action.kind != "constrain" or last.triples or \
                not 0 <= i < len(run.plan.constraint_mentions):  # fmt: skip
            return False
        sem, mention, focus = self.planner.sem, run.plan.constraint_mentions[i], \
            run.analysis.answer.focus  # fmt: skip
        rel = run.plan.constraints[i][1]
        # (the noun itself: "which *business* people" names no class of the answer; one of
        # two nouns joined does — "which *universities* or research institutes are in X":
        # cities are neither)
        return rel in sem.class_relations and focus is not None \
            and mention.start <= focus < mention.end  # fmt: skip

    def _walk_on_to_class(self, state: State, rel: str, cls: str, because: str,
                          leave: bool = False) -> Action | None:  # fmt: skip
        """The next hop of the best ranked plan that walks on from the current one to nodes
        of class `cls` (by class relation `rel`) — or, `leave`, to nodes of none of it over a
        relation that is no class relation — switched to (None: no such plan)."""
        run, sem = self._run, self.planner.sem

        def arrives(code: int) -> bool:
            if not leave:
                return self._reaches_class(code, rel, cls)
            return sem.rel_ids[code >> 1] not in sem.class_relations \
                and not self._reaches_class(code, rel, cls)  # fmt: skip

        on = run.continuing(arrives)
        if on is None:
            return None
        run.plan_i, run.part_i = on, 0
        action = self._hop_action(state, run.plan, run.hop_i)
        action.details["switched_because"] = because
        return action

    def _reaches_class(self, code: int, rel: str, cls: str) -> bool:
        """Are some of the nodes role `code` reaches (the index's sample) of class `cls`?"""
        sample = self.kg.index.reach.get(code, ())
        found = self.kg.edges_from(list(sample), rel, "out", limit=3)
        return any(cls in classes for classes in found.values())

    def _other_reading(self, state: State, last: Step) -> Action | None:
        """A constraint that linked none of the candidates (so was not applied) is tried
        again with the next reading of its name: "films in *English*" is the language, not
        the tag "english" that no film of the topic has. None when it applied or no other
        reading is left."""
        run = self._run
        i = run.part_i - 1
        plan = run.plan
        if last.action.kind != "constrain" or last.triples or not 0 <= i < len(plan.constraints):
            return None
        others = plan.constraint_alternatives[i] if i < len(plan.constraint_alternatives) else []
        if not others:
            return None
        failed = plan.constraints[i]
        plan.constraints[i] = others.pop(0)
        action = self._part_action(state, plan, i)
        action.details["retried_because"] = (
            f"no candidate is linked to {self.kg.label(failed[0])} by "
            f"'{self.kg.label(failed[1])}'"
        )
        return action

    def attribute_for(self, state: State, comparison) -> str | None:
        """The literal relation of the current candidates a comparison is about (None: they
        have none), for a caller that applies comparisons itself."""
        if self._run is None or self._state is not state:
            return None
        plan = self._run.plan
        code = role_codes(self.planner.sem, plan.hops[-1:])[0]
        return self.planner.filter_attribute(self._run.analysis, code, comparison)

    def filtered_sparql(self, state: State, attribute: str, comparison) -> str:
        """The current plan's whole-path query with one more comparison on `attribute`."""
        plan = self._run.plan
        extended = Plan(plan.anchor, plan.mention, plan.hops, plan.constraints,
                        plan.constraint_mentions, [*plan.filters, Filter(attribute, comparison)],
                        exclude_topic=plan.exclude_topic)  # fmt: skip
        n = len(extended.constraints) + len(extended.filters)
        return self._sparql(extended, len(plan.hops), n)

    def started(self, state: State) -> bool:
        """Has this agent read and planned the question of this run yet?"""
        return self._state is state

    def _fall_back(self, state: State, memory: list[Step]) -> float:
        """When the run ends worse than a complete plan it judged before (nothing found after
        it, a lower reward, or a walk the step limit cut short of its last hop: its nodes
        answer no question yet), answer from that plan's state. The reward to trust."""
        run = self._run
        best = run.best if run is not None and self._state is state else None
        final = memory[-1].reward if memory else 0.0
        if best is None or not memory or memory[-1].index == best.step:
            return final
        if state.frontier and run.at_least(final, best.reward) and run.hop_i >= len(run.plan.hops):
            return final
        state.frontier, state.support, state.reading = best.frontier, best.support, best.reading
        state.answered_from = best.step
        state.stop_reason = (
            f"answered from step {best.step}, the best-judged complete plan (reward "
            f"{best.reward:.2f}): the steps after it did worse"
        )
        return best.reward

    @staticmethod
    def _keep(run: RulePlanRun, action: Action | None) -> Action | None:
        run.last_action = action
        return action

    # -- planning ---------------------------------------------------------------------------
    def _plan(self, state: State, question: str) -> bool:
        qa = analyse(question, self.kg)
        state.reading.analysis = qa
        state.reading.linked = linked_entities(self.kg, qa)
        if not qa.entities:
            state.stop_reason = "no entity of the knowledge graph is named in the question"
            return False
        plans = self.planner.plans(qa)
        if not self.applies_filters:
            for plan in plans:
                plan.filters = []
        if not plans:
            state.stop_reason = "the linked entities have no relation to follow"
            return False
        self._run = RulePlanRun(question, qa, plans)
        state.walk.mention = plans[0].mention.text
        state.reading.ceiling = coverage_ceiling(plans, qa)
        return True

    def _next_plan(self, state: State, why: str) -> Action | None:
        run = self._run
        failed = run.plan
        last = state.last_step
        if last is not None and last.action.kind == "hop":
            # a plan starting with the same empty walk would find nothing again: skip it
            prefix = (failed.anchor, tuple(failed.hops[: run.hop_i]))
            if self._back_to_topic(last):
                run.back_to_topic.add(prefix)
                run.end_at_topic(failed, list(prefix[1]))
            else:
                run.failed.add(prefix)
        run.plan_i += 1
        while run.plan_i < len(run.plans) and run.dead(run.plan):
            run.plan_i += 1
        run.hop_i, run.part_i = 0, 0
        if run.plan_i >= len(run.plans):
            state.stop_reason = f"{why}, and no other plan is left"
            return None
        # the same walk with its last word read the next way is tried as it comes ("X's
        # husband's *job*": he has no employer, so his profession)
        second_reading = _another_last_reading(failed, run.plan)
        if not second_reading:
            run.keep_coverage(failed)
        run.prefer_finishable(self._steps_left(state), self._walked_prefix)
        lost = coverage(failed) - coverage(run.plan)
        if lost > SWITCH_LOSS and not second_reading:
            # the KB lacks the fact asked for: say so, do not guess
            state.stop_reason = (
                f"{why}; the next plan explains far less of the question "
                f"({coverage(run.plan):.0%}), so no answer is given"
            )
            return None
        state.frontier, state.support = {}, {}
        start = self._walked_prefix(run, run.plan)
        if start:  # the plan starts with a walk already taken: on from where it ended
            walked = run.reached[self._prefix_key(run.plan, start)]
            state.frontier, state.support = dict(walked[0]), dict(walked[1])
            state.arrival = walked[2]
        action = self._next_hop(state, start)
        action.details["switched_because"] = why
        if start:
            action.details["resumed"] = (f"the first {start} hop{'s' * (start > 1)} of this "
                                         f"plan were walked at step {walked[3]}")  # fmt: skip
        return action

    @staticmethod
    def _steps_left(state: State) -> int | None:
        """Steps the run may still take (None: no limit known)."""
        if state.step_limit is None:
            return None
        used = state.last_step.index if state.last_step is not None else 0
        return state.step_limit - used

    def _prefix_key(self, plan: Plan, n: int) -> tuple:
        """What decides the nodes the plan's first n hops reach: the topic, the hops, what
        each hop's word says its nodes are, where the walk may pass through the topic, and
        whether the last of them may end on it."""
        return (plan.anchor, tuple(plan.hops[:n]),
                tuple(self._kind_of_hop(plan, i) for i in range(n)),
                tuple(self._through_topic(plan, i) for i in range(n)),
                n == len(plan.hops))  # fmt: skip

    def _walked_prefix(self, run: RulePlanRun, plan: Plan) -> int:
        """The most hops (fewer than all) of the plan that an earlier walk of this run took
        and found something by; 0 when none."""
        for n in range(len(plan.hops) - 1, 0, -1):
            if self._prefix_key(plan, n) in run.reached:
                return n
        return 0

    def _back_to_topic(self, last: Step) -> bool:
        """Did an empty hop come back only to the topic entity (which it leaves out)?"""
        p = last.action.params
        if last.error or p.get("topic_allowed") or "anchor" not in p:
            return False
        reached = self.kg.edges_from(p["from"], p["relation"], p["direction"])
        nodes = {n for found in reached.values() for n in found}
        return nodes == {p["anchor"]}

    # -- the World Knowledge Model's say (core.wkm.guide) --------------------------------
    def _next_hop(self, state: State, hop_i: int) -> Action:
        """The current plan's next hop, or, with a guide, the mixed choice among every real
        relation of the current nodes (P_agent: softmax of the best plan score per hop)."""
        run = self._run
        plan = run.plan
        if self.guide is None:
            return self._hop_action(state, plan, hop_i)
        walked = plan.hops[:hop_i]
        nodes = [plan.anchor] if hop_i == 0 else list(state.frontier)
        options = [plan.hops[hop_i]] + [
            h for h in self._relations_of(nodes)
            if h != plan.hops[hop_i] and (plan.anchor, (*walked, h)) not in run.failed
        ]  # fmt: skip
        scores = {}
        for p in run.plans:
            if p.anchor == plan.anchor and len(p.hops) > hop_i and p.hops[:hop_i] == walked:
                scores.setdefault(p.hops[hop_i], p.score)
        p_agent = rule_prior(floored([scores.get(h, -100.0) for h in options]))
        best, record = self.guide.choose(
            state, path_keys(walked), path_keys(options), p_agent, agent_best=0
        )
        if best:
            self._adopt(plan, [*walked, options[best]])
        action = self._hop_action(state, run.plan, hop_i)
        action.details["wkm"] = record
        return action

    def _guided_completion(self, state: State, plan: Plan, longer: int | None) -> Action | None:
        """The plan is walked and the judge wants more: stop, or one more hop? Mixed over
        stop and every relation of the current nodes; similar expert states vote."""
        run = self._run
        hop_i = len(plan.hops)
        own = run.plans[longer].hops[hop_i] if longer is not None else None
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
            state.walk.knowledge_stop = bool(stop and stop["p_know"] >= 0.5)
            state.stop_reason = (
                "similar expert runs stopped here (state knowledge)"
                if record.get("changed")
                else "the plan is complete; the rules and similar expert runs agree to stop"
                if record.get("neighbours")
                else "the best plan is complete and no ranked plan extends it"
            )
            return None
        self._adopt(plan, [*plan.hops, hops[best - 1]])
        action = self._hop_action(state, run.plan, hop_i)
        action.details["wkm"] = record
        return action

    def _relations_of(self, nodes: list[str]) -> list[tuple[str, str]]:
        """The distinct (relation, direction) pairs of the first 50 nodes: the real options."""
        return list(dict.fromkeys(h for n in nodes[:50] for h in self.kg.roles(n)))

    def _adopt(self, plan: Plan, hops: list) -> None:
        """Switch to the best ranked plan with these hops, or to a new plan the guide made."""
        run = self._run
        for i, p in enumerate(run.plans):
            if p.anchor == plan.anchor and p.hops[: len(hops)] == hops and not p.filters:
                run.plan_i = i
                return
        features = {"guided": 1.0, "coverage": 0.0, "hops": len(hops)}
        run.plans.append(Plan(plan.anchor, plan.mention, hops, score=-100.0, features=features,
                              exclude_topic=plan.exclude_topic))  # fmt: skip
        run.plan_i = len(run.plans) - 1

    # -- actions ----------------------------------------------------------------------------
    def _track(self, state: State, plan: Plan, hops_done: int, parts_done: int) -> None:
        """What the judge and the guide read of the plan: the names it uses, the parts not
        applied yet, whether the topic may be an answer, the hops walked."""
        reading = state.reading
        reading.used = plan.used
        reading.pending = (len(plan.hops) - hops_done) + (plan.parts - parts_done)
        reading.counted = plan.count and parts_done == plan.parts
        applied = parts_done if hops_done == len(plan.hops) else 0
        reading.pending_names = tuple(plan.constraint_mentions[applied:])
        reading.exclude_topic = plan.exclude_topic
        reading.hops = list(plan.hops[:hops_done])
        side = [r for _, r, _ in plan.constraints] + [f.relation for f in plan.filters]
        reading.side_relations = side[:parts_done]
        state.walk.walked = path_keys(plan.hops[:hops_done])

    def _hop_action(self, state: State, plan: Plan, hop_i: int) -> Action:
        rel, direction = plan.hops[hop_i]
        start = [plan.anchor] if hop_i == 0 else list(state.frontier)
        self._run.hop_i = hop_i + 1
        self._run.part_i = 0
        self._track(state, plan, hop_i + 1, 0)
        label = self.kg.label(rel)
        n = len(start)
        where = self.kg.label(plan.anchor) if hop_i == 0 else f"{n} candidate{'s' * (n != 1)}"
        arrow = f"'{label}'" if direction == "out" else f"'{label}' backwards"
        final = hop_i + 1 == len(plan.hops)
        kind = self._kind_of_hop(plan, hop_i)
        keeping = (f", keeping those whose {self.kg.label(kind[0])} is "
                   f"{self.kg.label(kind[1])}" if kind else "")  # fmt: skip
        return Action(
            kind="hop",
            description=f"follow {arrow} from {where}{keeping}",
            query=self._sparql(plan, hop_i + 1, 0),
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={
                "from": start,
                "relation": rel,
                "direction": direction,
                "anchor": plan.anchor,
                "hop": hop_i + 1,
                # the answer may be the topic; `summarize` leaves it out where the plan asks
                # for other things (unless it is the only thing reached)
                "topic_allowed": final,
                "through_topic": self._through_topic(plan, hop_i),
                # what the hop's word says the nodes are: kept where some are (the source
                # applies it only then)
                "kind": list(kind) if kind else None,
            },
            details=self._why(plan),
        )

    def _through_topic(self, plan: Plan, hop_i: int) -> bool:
        """May hop `hop_i` (0-based) go on from the topic entity where it is the only node
        reached? Where the question's grammar asks for every hop of the plan (`chain_length`)
        and the hop does not walk straight back over the one before: "which club does the
        *captain* of X's *national team* play for", X being that captain. (Otherwise a walk
        that comes back only to the topic fails, and a plan ending there may answer it.)"""
        qa, sem = self._run.analysis, self.planner.sem
        rel, direction = plan.hops[-1]
        # (a last hop onto the value "how old" or "when" asks for is the question word's own:
        # "how old is the captain of X's club", X that captain; so is one onto a value the
        # noun asked about names: "what *shirt number* does X's club captain wear")
        kind, focus = sem.kinds[sem.code[rel]], qa.focus_row
        valued = direction == "out" and (kind in literal_kinds(qa) or (
            kind != "entity" and focus is not None
            and qa.role_names[focus, 2 * sem.code[rel]] >= HOP_EXPLAINED))
        if hop_i == 0 or len(plan.hops) > chain_length(qa, plan.mention) + valued:
            return False
        before, this = role_codes(sem, plan.hops[hop_i - 1 : hop_i + 1])
        return not sem.walks_back[before, this]

    def _kind_of_hop(self, plan: Plan, hop_i: int) -> tuple[str, str] | None:
        """What the word of hop `hop_i` (0-based) says the nodes it reaches are ("X's
        *mother*'s birthplace": a female parent, core.answer_types.hop_kind); remembered on the
        plan, so the whole-path query says it too."""
        known = next(((r, v) for h, r, v in plan.kinds if h == hop_i + 1), None)
        if known is not None:
            return known
        qa = self._run.analysis
        side = [r for _, r, _ in plan.constraints] + [f.relation for f in plan.filters]
        words = explain(qa, plan.hops, plan.used, side, plan.anchor).hop_words
        token = words[hop_i] if hop_i < len(words) else -1
        if token < 0 or {qa.words[t] for t in (token - 1, token + 1) if 0 <= t < len(qa.words)
                         } & {"and", "or", "&"}:  # fmt: skip
            return None  # "X's mother *and* father": the word names one of several kinds
        found = hop_kind(self.kg, qa.words[token], plan.hops[hop_i])
        if found is not None:
            plan.kinds.append((hop_i + 1, *found))
        return found

    def _part_action(self, state: State, plan: Plan, part_i: int) -> Action:
        """The plan's next constraint (another topic entity) or filter (a comparison)."""
        self._run.part_i = part_i + 1
        self._track(state, plan, len(plan.hops), part_i + 1)
        query = self._sparql(plan, len(plan.hops), part_i + 1)
        if part_i < len(plan.constraints):
            anchor, rel, direction = plan.constraints[part_i]
            return Action(
                kind="constrain",
                description=(
                    f"keep candidates linked to {self.kg.label(anchor)} by "
                    f"'{self.kg.label(rel)}'"
                ),
                query=query,
                language="sparql",
                source=f"kg:{self.kg.name}",
                params={"from": list(state.frontier), "anchor": anchor, "relation": rel,
                        "direction": direction,
                        "exclude": [plan.anchor] if plan.exclude_topic else []},  # fmt: skip
                details=self._why(plan),
            )
        if part_i == len(plan.constraints) + len(plan.filters):  # the count, last
            exclude = self._not_counted(plan)
            left_out = [self.kg.label(n) for n in exclude if n in state.frontier]
            return Action(
                kind="count",
                description=f"count the {len(state.frontier) - len(left_out)} candidates"
                + (f" other than {', '.join(left_out)}" if left_out else ""),
                query=query,
                language="sparql",
                source=f"kg:{self.kg.name}",
                # "chain": the triples of each thing counted (its evidence, in the answer's)
                params={"from": list(state.frontier), "exclude": exclude,
                        "chain": len(next(iter(state.frontier.values()), []))},  # fmt: skip
                details=self._why(plan),
            )
        f = plan.filters[part_i - len(plan.constraints)]
        return Action(
            kind="filter",
            description=f"keep candidates whose {self.kg.label(f.relation)} is "
            f"{f.comparison.text()}",
            query=query,
            language="sparql",
            source=f"kg:{self.kg.name}",
            params={"from": list(state.frontier), "relation": f.relation,
                    "comparison": asdict(f.comparison)},  # fmt: skip
            details=self._why(plan),
        )

    def _not_counted(self, plan: Plan) -> list[str]:
        """What a count leaves out, as the answers would: the names the plan starts from or
        intersects with, and the topic where the plan asks for other things."""
        anchors = [i for m in plan.used[1:] for i in m.ids]
        return anchors + ([plan.anchor] if plan.exclude_topic else [])

    def _sparql(self, plan: Plan, n_hops: int, n_parts: int) -> str:
        """The whole-path query so far, headed by a comment in words for the reader."""
        n_constraints = min(n_parts, len(plan.constraints))
        n_filters = min(max(0, n_parts - len(plan.constraints)), len(plan.filters))
        part = Plan(plan.anchor, plan.mention, plan.hops[:n_hops],
                    plan.constraints[:n_constraints], filters=plan.filters[:n_filters],
                    kinds=[k for k in plan.kinds if k[0] <= n_hops],
                    count=plan.count and n_parts == plan.parts)  # fmt: skip
        query = path_sparql(
            plan.anchor,
            part.hops,
            part.constraints,
            [(f.relation, f.comparison) for f in part.filters],
            # as the walk: only a path's last hop may come back to the topic (`summarize`
            # leaves it out of the answers where the plan asks for other things)
            exclude_topic=n_hops < len(plan.hops),
            kinds=part.kinds,
            count=self._not_counted(plan) if part.count else None,
        )
        return f"# {self._describe(part)}\n{query}"

    def _why(self, plan: Plan) -> dict:
        """What the trace shows of the plan behind an action (the same for all its steps)."""
        run = self._run
        if id(plan) not in run.why:
            run.why[id(plan)] = self._explain_plan(plan)
        return dict(run.why[id(plan)])

    def _explain_plan(self, plan: Plan) -> dict:
        run = self._run
        qa = run.analysis
        return {
            "plan": self._describe(plan),
            "plan_score": round(plan.score, 3),
            "features": plan.features,
            "signals": signal_table(plan.features, self.planner.ranker_of(plan)),
            "relation_words": qa.relation_words(*plan.used),
            "answer_type": qa.answer.wh or "not said",
            "topic": "excluded" if plan.exclude_topic else "may be an answer",
            "alternatives": [
                {"plan": self._describe(p), "score": round(p.score, 3)}
                for p in run.plans
                if p is not plan
            ][:3],
        }

    def _describe(self, plan: Plan) -> str:
        parts = [self.kg.label(plan.anchor)]
        for i, (rel, direction) in enumerate(plan.hops, 1):
            parts.append(
                f"—{self.kg.label(rel)}→" if direction == "out" else f"←{self.kg.label(rel)}—"
            )
            parts += [f"[{self.kg.label(r)} {self.kg.label(v)}]" for h, r, v in plan.kinds
                      if h == i]  # fmt: skip
        text = " ".join(parts)
        for anchor, rel, _ in plan.constraints:
            text += f" ∩ {self.kg.label(rel)} {self.kg.label(anchor)}"
        for f in plan.filters:
            text += f" where {self.kg.label(f.relation)} {f.comparison.text()}"
        return f"count of {text}" if plan.count else text

    # -- summarise --------------------------------------------------------------------------
    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        """Answers: the frontier, most supported first. The topic entities are left out when
        the plan asks for other things; otherwise the topic may answer (the spouse of X's
        husband is X) but ranks after every other candidate."""
        reward = self._fall_back(state, memory)
        reading = state.reading
        anchors = {i for m in reading.used[1:] for i in m.ids}
        topic = {i for i in reading.used[0].ids} if reading.used else set()
        candidates = [n for n in state.frontier if n not in anchors]
        if reading.exclude_topic:
            kept = answer_candidates(candidates, topic, reading.analysis)
            if candidates and kept and set(kept) <= topic:
                state.stop_reason = "the topic entity itself is the only thing the path reaches"
            candidates = kept
        # a stop the learned knowledge confirmed (`_guided_completion`) passes the gate too
        trusted = memory and (reward >= MIN_ANSWER_REWARD or state.walk.knowledge_stop)
        if trusted and not state.walk.knowledge_stop and reward < DETOUR_REWARD \
                and _uncued_detour(reading):  # fmt: skip
            state.stop_reason = (
                "the path walks out and straight back over a relation the question does not "
                f"ask about (reward {reward:.2f}): it answers another question"
            )
            return [], 0
        if not candidates or not trusted:
            if candidates and memory:
                state.stop_reason = (
                    f"the judge found the evidence insufficient (reward {reward:.2f} "
                    f"< {MIN_ANSWER_REWARD})"
                )
            return [], 0
        top = max(state.support.get(n, 1) for n in candidates)
        agree = attribute_agreement(reading.analysis, self.kg, candidates, reading.used)
        most = max(agree.values(), default=0)

        def base(n: str) -> float:  # agreeing attributes first; support orders the rest
            return (agree.get(n, 0) + state.support.get(n, 1) / top) / (1 + most)

        others = [base(n) for n in candidates if n not in topic]
        last = min(others, default=1.0) * TOPIC_ANSWER

        def score(n: str) -> float:
            """What ranks an answer, in its score so that ties are real ties (Hits@1 counts
            a tie only when every tied answer is gold): the chains that reach it, whether
            its attributes agree with the question's words; the topic itself after all."""
            return round(last * base(n) if n in topic and others else base(n), 4)

        candidates.sort(key=lambda n: (-score(n), -self.kg.degree(n), self.kg.label(n)))
        answers = [
            Answer(
                id=n,
                label=self.kg.label(n),
                score=score(n),
                evidence=state.frontier[n] if i < MAX_ANSWERS_WITH_EVIDENCE else [],
            )
            for i, n in enumerate(candidates)
        ]
        return answers, len(answers)


def answer_candidates(nodes: list[str], topic: set[str], qa: QuestionAnalysis | None) -> list[str]:
    """The nodes that may answer: those outside the topic — or, where the walk reaches
    nothing else and the question asks for no other thing, the topic itself ("the performer
    of X's albums" is X). Shared by the rule and Chain-of-Knowledge summaries."""
    others = [n for n in nodes if n not in topic]
    if others or (qa is not None and qa.asks_for_others):
        return others
    return [n for n in nodes if n in topic]


def signal_table(features: dict[str, float], ranker: PlanRanker) -> list[dict]:
    """Each signal of a plan with its effective weight and what it added to the score against
    an average plan, largest first: why this plan beat the others, in the trace and on the Ask
    page (core.agents.plan_ranker.PlanRanker.explain)."""
    return ranker.explain(np.array([features.get(f, 0.0) for f in ranker.features]))


def linked_entities(kg: KnowledgeGraph, qa: QuestionAnalysis) -> list[dict]:
    """The entity links the trace shows: text, candidate nodes, score, how it was found."""
    return [
        {
            "text": m.text,
            "ids": list(m.ids[:3]),
            "labels": [kg.label(i) for i in m.ids[:3]],
            "score": round(m.link_score, 3),
            "bracketed": m.bracketed,
            "variant": m.variant,
        }
        for m in qa.entities[:5]
    ]


def asks_origin(qa: QuestionAnalysis, base: Plan) -> bool:
    """ "*Where* is X *from*?", "where does X's coach come *from*": a place of origin — or
    any "where" whose words the best plan leaves partly unexplained ("where is X's band
    *based*": the band, not "based"; "where does X *work*" is answered by the employer)."""
    words = [w for w in qa.words if w]
    return qa.answer.wh == "place" and bool(words) and (
        words[-1] == "from" or coverage(base) < WHERE_EXPLAINED)


def _uncued_detour(reading) -> bool:
    """Does the path go out over a relation no word names and straight back (to the topic's
    neighbours), then on ("who starred in X" answered by the actors of X's director's other
    films), while no word asks for other things ("same", "other", "share", "also")? Then a
    missing fact is being answered around, not found. (A walk back that ends the path gives
    the topic's peers, which the question may ask for in words no relation is named by: "who
    plays in X's group".)"""
    qa = reading.analysis
    if qa is None or qa.semantics is None or qa.asks_for_others or len(reading.hops) < 2:
        return False
    codes = role_codes(qa.semantics, reading.hops)
    back = qa.semantics.walks_back
    rows = qa.word_rows(*reading.used)
    named = [bool(rows) and float(qa.role_names[rows, c].max()) >= HOP_EXPLAINED for c in codes]
    # "the films directed by the *director* of X" names the relation it walks back over
    pairs = enumerate(zip(codes, codes[1:-1], strict=False))
    return any(back[a, b] and not named[i] for i, (a, b) in pairs)


def _another_last_reading(failed: Plan, other: Plan) -> bool:
    """Is `other` the failed plan with its last hop read another way, one that a word still
    names (every hop's word at HOP_NAMED_WORD or better), after the same walk?"""
    return (other.anchor == failed.anchor and len(other.hops) == len(failed.hops)
            and other.hops[:-1] == failed.hops[:-1] and other.constraints == failed.constraints
            and other.features.get("min_support", 0.0) >= HOP_NAMED_WORD)
