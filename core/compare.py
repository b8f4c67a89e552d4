"""Run several paradigms on the same question and line them up (the Compare page).

Runs go concurrently in threads — the knowledge graph is read-only and the local model
serialises its own calls — and each row carries the metrics a reader compares: answer,
correctness against an optional gold set (Hits@1, the README's definition), steps, LLM calls,
tokens, cost, latency, and what backs the answer.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from core.engine import Engine
from core.loop import LoopSettings
from core.metrics import hits_at_1
from core.trace import Answer, Trace


@dataclass
class Comparison:
    paradigm: str
    trace: Trace | None
    error: str | None
    wall_ms: float
    correct: bool | None  # None without gold answers

    def row(self) -> dict:
        t = self.trace
        usage = t.usage() if t else {}
        top = t.answers[0] if t and t.answers else None
        return {
            "paradigm": self.paradigm,
            "answer": top.label if top else (self.error or "no answer"),
            "correct": self.correct,
            "steps": len(t.steps) if t else 0,
            "llm_calls": usage.get("llm_calls", 0),
            "tokens": usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0),
            "cost_usd": usage.get("cost_usd", 0.0),
            "latency_ms": round(self.wall_ms, 1),
            "evidence": support_of(top) if top else "none",
        }


def support_of(answer: Answer) -> str:
    """What backs an answer: KG triples, a source passage, or only the model's own words."""
    if answer.evidence:
        return "KG evidence"
    if any(p.verified for p in answer.passages):
        return "document evidence"
    return "unverified (LLM only)" if answer.passages else "none"


def compare(
    engine: Engine,
    question: str,
    paradigm_names: list[str],
    settings: LoopSettings | None = None,
    *,
    gold: list[str] | None = None,
    kb: str | None = None,
    workers: int = 2,
) -> list[Comparison]:
    """One run per paradigm on the same question; results in the order asked."""
    if not paradigm_names:
        raise ValueError("pick at least one paradigm to compare")
    engine.kg(kb)  # open (or import) once, before the clocks start

    def one(name: str) -> Comparison:
        t0 = time.perf_counter()
        try:
            trace = engine.ask(question, kb=kb, paradigm=name, settings=settings)
            error = trace.error
        except ValueError as exc:
            trace, error = None, str(exc)
        wall = (time.perf_counter() - t0) * 1000
        correct = bool(hits_at_1(trace.answer_labels if trace else [], gold)) if gold else None
        return Comparison(name, trace, error, wall, correct)

    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(paradigm_names)))) as pool:
        return list(pool.map(one, paradigm_names))
