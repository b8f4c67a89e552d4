"""The planner's final scorer (core.agents.plan_ranker): the linear case is the weighted sum,
the network's explanation adds up to its score exactly, and the fitted file loads."""

from __future__ import annotations

import numpy as np
import pytest

from core.agents.plan_ranker import PlanRanker
from core.agents.planner import FEATURES, RANKER, RULE_WEIGHTS, WEIGHTS_FILE, load_ranker

NAMES = ("coverage", "hops", "echo_hops")


def small_network(seed: int = 3) -> PlanRanker:
    rng = np.random.default_rng(seed)
    return PlanRanker(NAMES, mu=np.array([0.5, 2.0, 0.0]), sd=np.array([0.2, 0.8, 1e9]),
                      w=rng.normal(size=3), A=rng.normal(size=(3, 4)), b=rng.normal(size=4),
                      v=rng.normal(size=4), rules=np.array([0.0, 0.0, -10.0]))  # fmt: skip


def test_linear_ranker_is_the_weighted_sum() -> None:
    ranker = PlanRanker.linear(NAMES, {"coverage": 2.0, "hops": -0.5})
    x = np.array([[1.0, 2.0, 0.0], [0.5, 1.0, 1.0]])
    assert ranker.scores(x).tolist() == pytest.approx([1.0, 0.5])
    rows = ranker.explain(x[0])
    assert {r["signal"]: (r["weight"], r["adds"]) for r in rows} == {
        "coverage": (2.0, 2.0), "hops": (-0.5, -1.0)}  # fmt: skip


def test_explanation_adds_up_to_the_score() -> None:
    """The ReLUs' pattern is fixed per plan, so the score is linear there: the effective
    weights times the features (against an average plan) plus that average plan's score."""
    ranker = small_network()
    for x in ([0.9, 1.0, 0.0], [0.1, 3.0, 1.0], [0.5, 2.0, 0.0], [0.2, 4.0, 0.0]):
        x = np.array(x)
        rows = ranker.explain(x)
        assert sum(r["adds"] for r in rows) == pytest.approx(ranker.scores(x[None])[0], abs=5e-3)


def test_rules_keep_their_raw_weight() -> None:
    ranker = small_network()
    x = np.array([0.6, 2.0, 0.0])
    echo = x.copy()
    echo[2] = 1.0
    assert ranker.scores(echo[None])[0] - ranker.scores(x[None])[0] == pytest.approx(-10.0)


def test_round_trip_and_missing_features() -> None:
    ranker = small_network()
    data = ranker.to_dict()
    again = PlanRanker.from_dict(data, NAMES, {"echo_hops": -10.0})
    x = np.array([[0.2, 1.0, 0.0], [0.7, 3.0, 1.0]])
    assert again.scores(x) == pytest.approx(ranker.scores(x), abs=1e-3)
    # a planner with a feature the fit never saw gives it weight 0
    wider = PlanRanker.from_dict(data, (*NAMES, "new_signal"), {"echo_hops": -10.0})
    xw = np.column_stack([x, [5.0, -5.0]])
    assert wider.scores(xw) == pytest.approx(ranker.scores(x), abs=1e-3)


def test_the_shipped_fit_loads_over_every_feature() -> None:
    assert WEIGHTS_FILE.is_file()
    assert load_ranker().features == FEATURES
    assert RANKER.rules[FEATURES.index("echo_hops")] == RULE_WEIGHTS["echo_hops"]
    assert len(RANKER.b) > 0, "planner_weights.json carries the fitted network"


def test_plans_that_explain_every_word_tie_on_coverage_whatever_the_float_rounding() -> None:
    """Two plans that explain every word ("the languages spoken in the films directed by X",
    with and without the class constraint "languages") had coverage 1.0 and 0.99999997: the
    rounding decided, and the constrained plan's weaker answers won. Now the score does."""
    import numpy as np

    from core.agents.planner import rank_order

    order = rank_order(np.array([7.43, 7.41]), np.array([0.9999999701899644, 1.0]),
                       np.array([2, 2]), np.array([False, False]))  # fmt: skip
    assert order.tolist() == [0, 1]
