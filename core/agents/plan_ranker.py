"""The planner's scorer: a small network over the plans' explainable features.

A weighted sum cannot say "a type match matters when the question asks *where*, not when it
asks *which club*", or "a word read by meaning counts less when the contextual encoder
disagrees". The ranker adds one hidden layer of ReLUs to the linear score,

    score(x) = w·z + v·relu(A z + b),   z = (x - mu) / sd,

fitted listwise on the dev sets' tuning files (`scripts/fit_planner.py`), then averaged with
the linear weights (folded into `w` and `v`: the average of the two carried better to a KB
left out of the fit than either alone), so its scores keep the scale of log-odds between
plans. Explanations stay
exact: with the ReLUs' on/off pattern of one plan fixed, the score is linear in its features,
so each signal's *effective* weight and what it added against an average plan are read off
(`explain`). The rules' weights (`RULE_WEIGHTS`) are added as they are, outside the fit.
Without a fitted network in `planner_weights.json` the ranker is the linear weights alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class PlanRanker:
    features: tuple[str, ...]
    mu: np.ndarray  # (F,)
    sd: np.ndarray  # (F,)
    w: np.ndarray  # (F,) linear part, standardised units
    A: np.ndarray  # (F, H)
    b: np.ndarray  # (H,)
    v: np.ndarray  # (H,)
    rules: np.ndarray  # (F,) raw weights of the unfitted rules (0 elsewhere)

    @classmethod
    def linear(cls, features: tuple[str, ...], weights: dict[str, float]) -> PlanRanker:
        """The plain weighted sum (no hidden layer)."""
        n = len(features)
        w = np.array([weights.get(f, 0.0) for f in features])
        return cls(features, np.zeros(n), np.ones(n), w, np.zeros((n, 0)), np.zeros(0),
                   np.zeros(0), np.zeros(n))  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict, features: tuple[str, ...], rules: dict[str, float]
                  ) -> PlanRanker:  # fmt: skip
        """From the `ranker` entry of `planner_weights.json`; a feature the file does not
        know gets weight 0 (a newer planner still loads an older fit)."""
        known = list(data["features"])
        pick = [known.index(f) if f in known else -1 for f in features]

        def take(values, fill: float) -> np.ndarray:
            arr = np.asarray(values, float)
            out = np.full((len(features), *arr.shape[1:]), fill)
            for i, j in enumerate(pick):
                if j >= 0:
                    out[i] = arr[j]
            return out

        return cls(features, take(data["mu"], 0.0), take(data["sd"], 1.0),
                   take(data["w"], 0.0), take(data["A"], 0.0), np.asarray(data["b"], float),
                   np.asarray(data["v"], float),
                   np.array([rules.get(f, 0.0) for f in features]))  # fmt: skip

    def to_dict(self) -> dict:
        r = lambda a: np.round(a, 5).tolist()  # noqa: E731
        return {"features": list(self.features), "hidden": len(self.b), "mu": r(self.mu),
                "sd": r(self.sd), "w": r(self.w), "A": r(self.A), "b": r(self.b),
                "v": r(self.v)}  # fmt: skip

    def scores(self, x: np.ndarray) -> np.ndarray:
        """One score per row of a (plans × features) matrix."""
        z = (x - self.mu) / self.sd
        hidden = np.maximum(0.0, z @ self.A + self.b) if len(self.b) else np.zeros((len(x), 0))
        return z @ self.w + hidden @ self.v + x @ self.rules

    def explain(self, x: np.ndarray) -> list[dict]:
        """Per signal of one plan (a feature row): its effective weight per unit, and what it
        added to the score against a plan with average features; largest first. With the
        row for the average plan itself, the rows add up to the plan's score."""
        z = (x - self.mu) / self.sd
        active = (z @ self.A + self.b > 0) if len(self.b) else np.zeros(0, bool)
        effective = (self.w + self.A[:, active] @ self.v[active]) / self.sd + self.rules
        adds = effective * (x - self.mu * (self.rules == 0))
        rows = [
            {"signal": f, "value": round(float(x[i]), 3), "weight": round(float(effective[i]), 3),
             "adds": round(float(adds[i]), 3)}
            for i, f in enumerate(self.features)
            if round(float(adds[i]), 3) != 0.0
        ]  # fmt: skip
        baseline = float(self.b[active] @ self.v[active]) if len(self.b) else 0.0
        if round(baseline, 3):  # the score of an average plan with this plan's active units
            rows.append({"signal": BASELINE, "value": 1.0, "weight": round(baseline, 3),
                         "adds": round(baseline, 3)})  # fmt: skip
        return sorted(rows, key=lambda r: -abs(r["adds"]))


BASELINE = "average plan"
