"""Run several paradigms on the same question and line them up (the Compare page).

Runs go concurrently in threads — the knowledge graph is read-only and the local model
serialises its own calls — and report each step as it happens (`compare_stream`), so the
page shows live progress per paradigm. Each row carries the metrics a reader compares:
answer (ties shown as ties), correctness against an optional gold set (the Hits@1 of
`knowloop eval`, ties included), the support status, the LLM's supported claims, steps, LLM
calls, tokens, cost, the engine's time (the trace's own clock) and the wall time.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.loop import LoopSettings, check_question
from core.metrics import tied_at_top, trace_hits_at_1
from core.trace import Step, Trace

if TYPE_CHECKING:  # the engine sits above this module: named here as a type only
    from core.engine import Engine


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
        counts = t.claim_counts if t and t.claims else {}
        return {
            "paradigm": self.paradigm,
            "answer": answer_text(t) if t and t.answers else (self.error or "no answer"),
            "correct": self.correct,
            "support": t.support.status if t and t.support else "no answer",
            "claims supported": f"{counts['supported']}/{len(t.claims)}" if counts else "",
            "steps": len(t.steps) if t else 0,
            "llm_calls": usage.get("llm_calls", 0),
            "tokens": usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0),
            "cost_usd": usage.get("cost_usd", 0.0),
            "engine_ms": round(t.duration_ms, 1) if t else 0.0,
            "wall_ms": round(self.wall_ms, 1),
        }


@dataclass
class Progress:
    """One event of a comparison: a paradigm's new step, or its finished result."""

    paradigm: str
    index: int  # position in the paradigms asked for (a paradigm may be asked twice)
    step: Step | None = None
    result: Comparison | None = None


def answer_text(trace: Trace, shown: int = 3) -> str:
    """The top answer; answers tied with it at the top score are named with it, as a tie."""
    tied = tied_at_top(trace.answers)
    if tied <= 1:
        return trace.answers[0].label
    labels = " · ".join(a.label for a in trace.answers[: min(tied, shown)])
    more = f" … {tied} tied at the top" if tied > shown else f" ({tied} tied at the top)"
    return labels + more


def compare_stream(
    engine: Engine,
    question: str,
    paradigm_names: list[str],
    settings: LoopSettings | None = None,
    *,
    gold: list[str] | None = None,
    kb: str | None = None,
    workers: int = 2,
) -> Iterator[Progress]:
    """Run every paradigm on the question; yield each step as it happens and each result
    as it finishes. A refused question or an empty choice raises before anything runs."""
    question = check_question(question)
    if not paradigm_names:
        raise ValueError("pick at least one paradigm to compare")
    if settings is not None:
        settings.validate()
    engine.kg(kb)  # open (or import) once, before the clocks start
    events: queue.Queue[Progress] = queue.Queue()

    def one(index: int, name: str) -> None:
        t0 = time.perf_counter()
        trace, error = None, None
        try:
            for item in engine.stream(question, kb=kb, paradigm=name, settings=settings):
                if isinstance(item, Trace):
                    trace = item
                else:
                    events.put(Progress(name, index, step=item))
            error = trace.error if trace else "the engine ended without a trace"
        except ValueError as exc:
            error = str(exc)
        except Exception as exc:  # noqa: BLE001 — one paradigm's fault is its row, not the page's
            error = f"{type(exc).__name__}: {exc}"
        wall = (time.perf_counter() - t0) * 1000
        correct = bool(trace and trace_hits_at_1(trace, gold)) if gold else None
        events.put(Progress(name, index, result=Comparison(name, trace, error, wall, correct)))

    with ThreadPoolExecutor(max_workers=max(1, min(workers, len(paradigm_names)))) as pool:
        for index, name in enumerate(paradigm_names):
            pool.submit(one, index, name)
        finished = 0
        while finished < len(paradigm_names):
            event = events.get()
            finished += event.result is not None
            yield event


def compare(
    engine: Engine,
    question: str,
    paradigm_names: list[str],
    settings: LoopSettings | None = None,
    **kwargs,
) -> list[Comparison]:
    """One run per paradigm on the same question; results in the order asked."""
    done = {
        e.index: e.result
        for e in compare_stream(engine, question, paradigm_names, settings, **kwargs)
        if e.result is not None
    }
    return [done[i] for i in range(len(paradigm_names))]
