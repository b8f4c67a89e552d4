"""Answer metrics: Hits@1, exact match and set F1 after normalisation, never by substring."""

from __future__ import annotations

import math

import pytest

from core.metrics import exact_match, f1, hits_at_1, median, percentile
from core.text import normalize


@pytest.mark.parametrize(
    ("predicted", "gold", "expected"),
    [
        (["Drama", "Music"], ["Music", "Drama"], 1.0),  # top answer is gold
        (["Music", "Drama"], ["Drama"], 0.0),  # gold only second: not a hit
        (["drama"], ["Drama"], 1.0),  # case
        (["Black_Snake_Moan"], ["Black Snake Moan"], 1.0),  # underscores
        (["  Black   Snake\tMoan "], ["Black Snake Moan"], 1.0),  # whitespace
        (["ＡＢＣ"], ["abc"], 1.0),  # NFKC width
        (["2"], ["2.00"], 1.0),  # a decimal by value: a store writes its canonical form
        (["2.5"], ["2.50"], 1.0),
        (["2"], ["2.5"], 0.0),
        (["1990"], ["1990s"], 0.0),  # not a number: text as it is
        ([], ["Drama"], 0.0),
        (["Drama"], [], 0.0),
    ],
)
def test_hits_at_1(predicted: list[str], gold: list[str], expected: float) -> None:
    assert hits_at_1(predicted, gold) == expected


@pytest.mark.parametrize(
    ("predicted", "gold"),
    [
        (["The Matrix Reloaded"], ["The Matrix"]),
        (["The Matrix"], ["The Matrix Reloaded"]),
        (["Matrix"], ["The Matrix"]),
        (["The Matrix."], ["The Matrix"]),
    ],
)
def test_substrings_do_not_match(predicted: list[str], gold: list[str]) -> None:
    assert hits_at_1(predicted, gold) == 0.0
    assert exact_match(predicted, gold) == 0.0
    assert f1(predicted, gold) == 0.0


def test_exact_match_compares_sets() -> None:
    assert exact_match(["b", "A"], ["a", "B"]) == 1.0
    assert exact_match(["a", "a", "b"], ["a", "b"]) == 1.0  # duplicates do not matter
    assert exact_match(["a"], ["a", "b"]) == 0.0
    assert exact_match(["a", "b", "c"], ["a", "b"]) == 0.0
    assert exact_match([], []) == 1.0


def test_f1_is_set_f1() -> None:
    # precision 1/2, recall 1/3 -> F1 = 2 * (1/6) / (5/6) = 0.4
    assert f1(["a", "x"], ["a", "b", "c"]) == pytest.approx(0.4)
    assert f1(["A_b"], ["a b"]) == 1.0
    assert f1(["a", "b"], ["a", "b"]) == 1.0
    assert f1([], ["a"]) == 0.0
    assert f1(["a"], []) == 0.0
    assert f1([], []) == 1.0
    assert f1(["", " "], []) == 1.0  # blank predictions are no predictions


def test_normalize() -> None:
    assert normalize("  The_Matrix\t RELOADED ") == "the matrix reloaded"
    assert normalize("Straße") == normalize("STRASSE")  # case-folded, not just lowered


def test_percentile_and_median() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 100) == 100.0
    assert percentile(list(reversed(values)), 50) == 50.0
    assert percentile(values, 0) == 1.0
    assert percentile([], 95) == 0.0
    assert percentile([7.0], 95) == 7.0
    assert median([3.0, 1.0, 2.0]) == 2.0
    assert median([1.0, 2.0, 3.0, 4.0]) == 2.5
    assert median([]) == 0.0


@pytest.mark.parametrize(("q", "n"), [(95, 100), (95, 20), (90, 10)])
def test_percentile_is_nearest_rank(q: int, n: int) -> None:
    values = [float(v) for v in range(1, n + 1)]
    assert percentile(values, q) == float(math.ceil(q * n / 100))
