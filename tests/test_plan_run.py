"""The rule agent's bookkeeping over its ranked plans (core/agents/plan_run.py)."""

from __future__ import annotations

from core.agents.plan_run import RulePlanRun
from core.agents.planner import Plan
from core.analysis import EntityMention

TOPIC = EntityMention(0, 1, "X", ("x",), 1.0, False, True)


def _plan(name: str, hops: int, coverage: float) -> Plan:
    return Plan("x", TOPIC, [(f"{name}{i}", "out") for i in range(hops)],
                features={"coverage": coverage})  # fmt: skip


def _run(*plans: Plan) -> RulePlanRun:
    return RulePlanRun("q", None, list(plans))  # type: ignore[arg-type]


def _no_walk(run: RulePlanRun, plan: Plan) -> int:
    return 0


def test_a_plan_the_steps_left_cannot_finish_gives_way() -> None:
    """A walk cut short answers nothing: with two steps left, a three-hop plan gives way to
    the best later plan that fits and explains about as much (within SWITCH_LOSS) — not to
    one that explains far less, nor to one whose walk already failed."""
    long, fits, weak = _plan("a", 3, 1.0), _plan("b", 2, 0.9), _plan("c", 1, 0.5)
    run = _run(long, fits, weak)
    run.prefer_finishable(2, _no_walk)
    assert run.plan is fits
    run = _run(long, fits, weak)
    run.prefer_finishable(3, _no_walk)  # it fits: nothing moves
    assert run.plan is long
    run = _run(long, fits, weak)
    run.failed.add(("x", tuple(fits.hops[:1])))
    run.prefer_finishable(2, _no_walk)  # the one that fits is dead, the other explains less
    assert run.plan is long
    run = _run(long, fits, weak)
    run.prefer_finishable(2, lambda r, p: 1 if p is long else 0)  # its first hop was walked
    assert run.plan is long
    run = _run(long, fits)
    run.prefer_finishable(None, _no_walk)  # no limit known
    assert run.plan is long


def test_answers_of_the_wrong_kind_try_the_next_plan_that_fits_once() -> None:
    """Where the judge finds a complete plan's answers not the kind asked for ("which city
    is X's club based in" answered by the home stadium), the best later plan scoring within
    EXTEND_MARGIN whose answers fit is tried next — once a run, not for "who" (said of firms
    too), and its answer is kept only where the judge rates it clearly better (KIND_GAIN)."""
    from core.agents.plan_run import EXTEND_MARGIN, KIND_GAIN
    from core.trace import Action, Step

    def typed(name: str, score: float, fit: float, kind: str = "type_place") -> Plan:
        plan = _plan(name, 2, 0.9)
        plan.score, plan.features[kind] = score, fit
        return plan

    def judged(fit: float | None) -> Step:
        return Step(1, Action("hop", "q"), reward=0.5, answer_fit=fit)

    stadium, far, city = typed("a", 5.0, -1.0), typed("b", 3.5, 1.0), typed("c", 4.5, 0.9)
    run = _run(stadium, far, city)
    assert run.fitting_alternative(judged(0.2)) is None  # the judge found them fitting
    assert run.fitting_alternative(judged(None)) is None  # ... or did not type them
    assert run.fitting_alternative(judged(-1.0)) == 2 and run.kind_switched
    run.move_next(2)
    assert run.plans == [stadium, city, far]
    assert run.fitting_alternative(judged(-1.0)) is None  # once a run
    assert run.at_least(0.5 + KIND_GAIN, 0.5) and not run.at_least(0.52, 0.5)
    beyond = typed("d", 5.0 - EXTEND_MARGIN - 0.1, 1.0)
    assert _run(stadium, beyond).fitting_alternative(judged(-1.0)) is None  # scores too low
    who = typed("e", 4.9, 1.0, "type_person")
    assert _run(stadium, who).fitting_alternative(judged(-1.0)) is None
    assert _run(stadium, city).at_least(0.5, 0.5)  # no plan tried for its kind: a tie holds
