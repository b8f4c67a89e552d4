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
