"""The rule agent's bookkeeping over its ranked plans during one run (core.agents.rules).

Which plan is walked, how far, which walks found nothing, what each walked prefix reached, the
best-judged complete plan so far — and the choices made from them: the next plan after an
empty hop, a longer plan that extends a complete one. No other part reads this state.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from core.agents.planner import Plan
from core.analysis import QuestionAnalysis, role_codes
from core.answer_types import doer_share
from core.judges import KIND_FITS, TYPE_MISMATCH
from core.loop import Reading, State
from core.trace import Action, Step

MIN_ANSWER_REWARD = 0.01  # about zero: the judge finds nothing of the question; answer nothing
EXTEND_MARGIN = 1.0  # a longer plan is walked on only if it scores this close to the current
WRONG_KIND = -0.95  # type fit (core.answer_types, [-1, 1]) at the KB's average role or below
KIND_LIFT = 0.5  # ... and how much better a longer plan must fit to walk on regardless of score
SWITCH_LOSS = 0.3  # after an empty query, another plan is tried only if it explains about as much
KIND_GAIN = 0.05  # how much better a plan tried for its kind of answer must be judged
DOERS = 0.5  # "who": a longer plan reaching nodes this often doers walks on from no doers


def type_fit(plan: Plan) -> float:
    """How well where the plan ends fits the kind of answer asked for (its `type_*`
    features: one is set, in [-1, 1]) — but for "who", which is said of firms and clubs as
    well ("who are X's rivals")."""
    return sum(v for k, v in plan.features.items()
               if k.startswith("type_") and k not in ("type_rule", "type_person"))


def coverage(plan: Plan) -> float:
    return plan.features.get("coverage", 0.0)


@dataclass
class JudgedAnswer:
    """A complete plan's result as the judge scored it: what the run answers when every
    step after it does worse (a longer plan that finds nothing, a dead end at the step
    limit)."""

    step: int
    reward: float
    frontier: dict
    support: dict
    reading: Reading


@dataclass
class RulePlanRun:
    """The rule agent's own state for one run."""

    question: str
    analysis: QuestionAnalysis
    plans: list[Plan]
    plan_i: int = 0
    hop_i: int = 0
    part_i: int = 0  # constraints, then filters, applied after the hops
    failed: set = field(default_factory=set)  # (anchor, hops) prefixes that found nothing
    # ... and those that found only the topic entity, which a plan ending there may answer
    # ("which team does the X captain play for": X)
    back_to_topic: set = field(default_factory=set)
    # what each walked prefix reached (`RuleAgent._prefix_key` -> frontier, support, arrival,
    # step): a plan that starts with it goes on from there instead of walking it again
    reached: dict = field(default_factory=dict)
    last_action: Action | None = None
    why: dict = field(default_factory=dict)  # id(plan) -> what the trace shows of it
    best: JudgedAnswer | None = None  # the best-judged complete plan so far
    kind_switched: bool = False  # a plan was tried for its kind of answer (`fitting_alternative`)

    @property
    def plan(self) -> Plan:
        return self.plans[self.plan_i]

    def remember(self, state: State, last: Step) -> None:
        """Keep the result of a plan just completed, or of a plan's hops so far, when the
        judge scores it best so far."""
        plan = self.plan
        complete = self.hop_i >= len(plan.hops) and self.part_i >= plan.parts
        # ... or the hops walked so far, judged with the parts still to come held against
        # them, where they reach the kind of thing asked for: what the run answers when
        # every longer walk finds nothing
        complete = complete or (self.part_i == 0 and last.action.kind == "hop"
                                and (last.answer_fit or 0.0) > TYPE_MISMATCH)  # fmt: skip
        best = self.best.reward if self.best else MIN_ANSWER_REWARD
        if complete and last.candidates and not last.error and self.at_least(last.reward, best):
            self.best = JudgedAnswer(last.index, last.reward, dict(state.frontier),
                                     dict(state.support), replace(state.reading))  # fmt: skip

    def at_least(self, reward: float, best: float) -> bool:
        """Is a reward as good as the best so far? Once a plan was tried for its kind of
        answer only (`fitting_alternative`), it must do clearly better (KIND_GAIN)."""
        return reward >= best + KIND_GAIN if self.kind_switched else reward >= best

    def fitting_alternative(self, last: Step | None) -> int | None:
        """Where the judge found the complete plan's answers not the kind asked for, the
        best later plan scoring within EXTEND_MARGIN whose answers are (`type_fit` above
        KIND_FITS; not for "who", said of firms too: "who employs X") — tried once a run
        (None: none)."""
        if self.kind_switched or last is None or last.answer_fit is None \
                or last.answer_fit > TYPE_MISMATCH:  # fmt: skip
            return None
        base = self.plan
        for i in range(self.plan_i + 1, len(self.plans)):
            other = self.plans[i]
            if other.score >= base.score - EXTEND_MARGIN and type_fit(other) > KIND_FITS \
                    and not self.dead(other):  # fmt: skip
                self.kind_switched = True
                return i
        return None

    def move_next(self, i: int) -> None:
        """Rank plan i right after the current one (tried next)."""
        self.plans.insert(self.plan_i + 1, self.plans.pop(i))

    def dead(self, plan: Plan) -> bool:
        """Does the plan start with a path that already found nothing (or only the topic
        entity, where the plan goes on from it or never answers it)?"""
        def starts(anchor: str, hops: tuple) -> bool:
            return anchor == plan.anchor and tuple(plan.hops[: len(hops)]) == hops

        return any(starts(*walk) for walk in self.failed) or any(
            starts(anchor, hops) and (len(plan.hops) > len(hops) or plan.exclude_topic)
            for anchor, hops in self.back_to_topic
        )

    def keep_coverage(self, failed: Plan) -> None:
        """After a failed plan, the next tried is the best ranked one that explains about as
        much of the question (within SWITCH_LOSS), where the next in rank explains far less:
        "where is the university of X's CEO located" — a walk through X's chairperson found
        nothing, the next two plans leave "CEO" and "university" unexplained, the fourth
        (CEO, educated at, located in) explains all."""
        covered = coverage(failed) - SWITCH_LOSS
        if coverage(self.plan) < covered:
            self._bring_forward(covered)

    def prefer_finishable(self, steps_left: int | None, walked) -> None:
        """Where the next plan cannot be walked to its end in the steps left (a walk cut short
        answers nothing), the best later one that can, explaining about as much of the
        question, is tried first. `walked(self, plan)`: its hops an earlier walk took."""
        if steps_left is None:
            return

        def steps(plan: Plan) -> int:
            return len(plan.hops) - walked(self, plan) + plan.parts

        if steps(self.plan) > steps_left:
            self._bring_forward(coverage(self.plan) - SWITCH_LOSS,
                                lambda plan: steps(plan) <= steps_left)  # fmt: skip

    def _bring_forward(self, covered: float, fits=lambda plan: True) -> None:
        """The best later plan that explains at least `covered` of the question, `fits` and
        is not dead is tried next (none moves where there is none)."""
        later = range(self.plan_i + 1, len(self.plans))
        found = next((i for i in later if coverage(self.plans[i]) >= covered
                      and fits(self.plans[i]) and not self.dead(self.plans[i])), None)  # fmt: skip
        if found is not None:
            self.plans.insert(self.plan_i, self.plans.pop(found))

    def continuing(self, arrives=lambda code: True) -> int | None:
        """The best ranked plan that walks the current plan's hops and on, with a last hop
        that `arrives(role code)` where the question asks (None: none)."""
        sem = self.analysis.semantics
        return next((i for i, other in enumerate(self.plans) if self._continues(i)
                     and arrives(role_codes(sem, other.hops[-1:])[0])), None)  # fmt: skip

    def _continues(self, i: int) -> bool:
        """Does ranked plan i walk the current plan's hops from its topic, and on?"""
        base, other = self.plan, self.plans[i]
        return i != self.plan_i and other.anchor == base.anchor \
            and len(other.hops) > len(base.hops) \
            and other.hops[: len(base.hops)] == base.hops  # fmt: skip

    def end_at_topic(self, failed: Plan, hops: list) -> None:
        """A walk that came back only to the topic: where a ranked plan is that walk and may
        answer its topic ("who owns X's subsidiaries?" is X), it is tried next, before the
        step limit ends the run on other walks."""
        later = self.plans[self.plan_i + 1 :]
        ending = next((p for p in later if p.anchor == failed.anchor and p.hops == hops
                       and not p.exclude_topic), None)  # fmt: skip
        if ending is not None:
            self.plans.remove(ending)
            self.plans.insert(self.plan_i + 1, ending)

    def extension(self, typed: bool = False, where: bool = False) -> int | None:
        """A ranked plan that continues the current one and explains more of the question
        (another hop only helps if it explains words the current path leaves unexplained) —
        or, where a rule types the answer (`typed`), one that gives the kind asked for; or,
        where the question asks where something is from (`where`), one that reaches places
        where the current reaches none; or, for "who", one that reaches doers where the
        current reaches none (`doer_share`)."""
        base = self.plan
        base_fit = type_fit(base)
        sem = self.analysis.semantics
        who = self.analysis.answer.wh == "person" and bool(base.hops) \
            and doer_share(sem, role_codes(sem, base.hops[-1:])[0]) == 0.0  # fmt: skip
        for i, other in enumerate(self.plans):
            # the current answers are the wrong kind and the longer plan's the right one
            # ("what *types* are the films X directed": films, then their genres; "*who*
            # leads the projects X funds": projects do nothing, their investigators do)
            righted = (typed and base_fit < 0 < type_fit(other)) or (
                who and self._continues(i)
                and doer_share(sem, role_codes(sem, other.hops[-1:])[0]) >= DOERS)
            # "where … from": the current answers are no more a place than the KB's average
            # role gives ("*where* is X's manager from": a person) and the longer plan's
            # clearly more so: the judge will not take them, so the plan walks on whatever it
            # scores
            lifted = where and base_fit <= WRONG_KIND and type_fit(other) >= base_fit + KIND_LIFT \
                and coverage(other) >= coverage(base)  # fmt: skip
            if coverage(other) <= coverage(base) + 0.05 and not (righted or lifted):
                continue
            # a longer plan that also gives the kind of answer asked for where the current
            # one does not ("in which *country* was X born": a city) may score further below
            gain = min(2.0 if righted else 1.0, max(0.0, type_fit(other) - base_fit))
            if other.score < base.score - EXTEND_MARGIN * (1 + gain) and not lifted:
                continue
            # "which *movies*" asks for things: a hop on to bare values (genres, tags) explains
            # the noun by what the values sound like, not by what was asked for
            if other.features.get("value_answer", 0) > base.features.get("value_answer", 0) \
                    and not righted:  # fmt: skip
                continue
            if self._continues(i) and not other.constraints and not other.filters:
                return i
        return None
