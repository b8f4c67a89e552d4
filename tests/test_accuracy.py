"""Accuracy on a fixed slice of the MetaQA dev sets: the first 300 questions of each hop file.

Hard floors, with the topic entity marked by brackets (as in MetaQA) and with the brackets
stripped (the engine must find the entity on its own).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine import Engine
from core.evaluate import SUMMARY_KEYS, evaluate, read_questions

DEV = Path(__file__).resolve().parents[1] / "kb_data" / "metaqa"
SLICE = 300
FLOOR = {True: 0.98, False: 0.96}  # brackets kept -> floor


@pytest.mark.parametrize("brackets", [True, False], ids=["brackets", "no-brackets"])
@pytest.mark.parametrize("hops", [1, 2, 3], ids=["1hop", "2hop", "3hop"])
def test_hits_at_1_floor(metaqa_engine: Engine, hops: int, brackets: bool) -> None:
    questions = read_questions(
        DEV / f"qa_dev_{hops}hop.tsv", limit=SLICE, strip_brackets=not brackets
    )
    assert len(questions) == SLICE
    assert all(("[" in q.question) == brackets for q in questions)
    summary, results = evaluate(metaqa_engine, questions)
    assert tuple(summary) == SUMMARY_KEYS
    assert summary["n"] == SLICE
    misses = [(r.question, r.gold[:3], r.predicted[:3]) for r in results if not r.hits_at_1]
    assert summary["hits_at_1"] >= FLOOR[brackets], misses[:10]
    assert all(r.error is None for r in results)
