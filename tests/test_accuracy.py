"""Accuracy on a fixed slice of the MetaQA dev sets: the first 300 questions of each hop file.

Hard floors, with the topic entity marked by brackets (as in MetaQA) and with the brackets
stripped (the engine must find the entity on its own).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.engine import Engine
from core.evaluate import SUMMARY_KEYS, evaluate, read_questions

pytestmark = pytest.mark.slow  # the fast loop (`pytest -m 'not slow'`) leaves it out


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


# -- the project's own dev KBs: held-out wordings, zero-shot ---------------------------------

DEVSETS = Path(__file__).resolve().parents[1] / "benchmarks" / "data"
# floors a few points under what `benchmarks/devsets.py --split heldout` measures (README),
# so a change that loses ground on KBs the engine was not written for fails here
HELDOUT_FLOOR = {"family": 0.58, "football": 0.42, "business": 0.52,
                 "music": 0.62,  # (music: 0.68 on this slice at its item 102, 0.60 before)
                 "science": 0.66}  # (0.73 on this slice when it was added, 2026-12-06)
HELDOUT_SLICE = 150


@pytest.fixture(scope="module")
def dev_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    from core.workspace import Workspace

    workspace = Workspace(tmp_path_factory.mktemp("dev-kbs") / "home")
    for name, kb in (("family", "kb.tsv"), ("football", "kb.tsv"), ("business", "kb.nt"),
                     ("music", "kb.tsv"), ("science", "kb.tsv")):
        workspace.import_file(DEVSETS / name / kb, name=name)
    return Engine(workspace)


@pytest.mark.parametrize("name", sorted(HELDOUT_FLOOR))
def test_heldout_wordings_on_dev_kbs(dev_engine: Engine, name: str) -> None:
    questions = read_questions(DEVSETS / name / "questions_heldout.tsv")
    step = len(questions) / HELDOUT_SLICE  # an even spread over the file, as devsets.py does
    questions = [questions[int(i * step)] for i in range(HELDOUT_SLICE)]
    summary, results = evaluate(dev_engine, questions, kb=name)
    misses = [(r.question, r.gold[:2], r.predicted[:2]) for r in results if not r.hits_at_1]
    assert summary["hits_at_1"] >= HELDOUT_FLOOR[name], misses[:10]
    assert all(r.error is None for r in results)


def test_heldout_filters_on_the_bundled_kb(metaqa_engine: Engine) -> None:
    """Comparisons and class filters worded independently of the parser (issue 17's ≥ 0.90
    for `kg-only`; measured 0.968, README)."""
    questions = read_questions(DEVSETS / "filters" / "questions_heldout.tsv")
    summary, results = evaluate(metaqa_engine, questions)
    misses = [(r.question, r.gold[:2], r.predicted[:2]) for r in results if not r.hits_at_1]
    assert summary["hits_at_1"] >= 0.90, misses[:10]
    assert all(r.error is None for r in results)
