"""Answer metrics, defined exactly (and stated in the README).

Answers are compared after `core.text.normalize`: Unicode NFKC, case-folded, underscores read
as spaces, runs of whitespace collapsed, ends stripped; and a plain decimal number by its
value ("2.00" is "2": a store writes a decimal literal in its canonical form, not as the file
did). Nothing else: a predicted answer that merely contains a gold answer as a substring does
not match.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterable

from core.text import normalize

TIE_EPSILON = 1e-9  # scores closer than this are equal


_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def answer_key(answer: str) -> str:
    """The form answers are compared in: normalised text, a plain decimal number by value
    ("2.00", "02" and "2" are one; "2.5" and "2.50" too)."""
    text = normalize(answer)
    if not _NUMBER.fullmatch(text):
        return text
    whole, _, fraction = text.partition(".")
    fraction = fraction.rstrip("0")
    return str(int(whole)) + (f".{fraction}" if fraction else "")


def answer_keys(answers: Iterable[str]) -> set[str]:
    """The distinct non-empty `answer_key`s of some answers."""
    return {key for a in answers if (key := answer_key(a))}


def hits_at_1(predicted: list[str], gold: Iterable[str], tied: int = 1) -> float:
    """1 if the top-ranked prediction is one of the gold answers, else 0. When `tied`
    answers share the top score, every one of them must be gold: the order inside a tie
    (by degree or label) is not knowledge, so a tie won by chance is no hit."""
    gold_set = answer_keys(gold)
    top = predicted[: max(1, tied)]
    return float(bool(top) and all(answer_key(p) in gold_set for p in top))


def tied_at_top(answers: list) -> int:
    """How many ranked answers (anything with a `score`) share the top score."""
    if not answers:
        return 0
    top = answers[0].score
    return sum(1 for a in answers if abs(a.score - top) <= TIE_EPSILON)


def trace_hits_at_1(trace, gold: Iterable[str]) -> float:
    """Hits@1 of a run (core.trace.Trace): its ranked answers, ties at the top as one."""
    return hits_at_1(trace.answer_labels, gold, tied=tied_at_top(trace.answers))


def exact_match(predicted: Iterable[str], gold: Iterable[str]) -> float:
    """1 if the set of predictions equals the gold set, else 0."""
    return float(answer_keys(predicted) == answer_keys(gold))


def f1(predicted: Iterable[str], gold: Iterable[str]) -> float:
    """Set F1 of predictions against gold (0 when either side is empty, unless both are)."""
    p, g = answer_keys(predicted), answer_keys(gold)
    if not p and not g:
        return 1.0
    common = len(p & g)
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in [0, 100]); 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0
