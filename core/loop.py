"""The inner reasoning loop (seed Algorithm 1, with the Algorithm 3 snapshot as an option).

Every paradigm runs through `run_loop`: it composes an agent (Reason + Summarize), a
knowledge source (Select_and_query) and a judge. It yields each Step as it happens and the
finished Trace last, so the UI renders live and the CLI just takes the final item.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.trace import Action, Answer, LLMCall, Step, Trace, Triple


@dataclass
class Retrieval:
    """What a knowledge source returned for one action."""

    triples: list[Triple] = field(default_factory=list)
    # candidate answers after this action: node id -> the evidence chain that reaches it
    frontier: dict[str, list[Triple]] = field(default_factory=dict)
    support: dict[str, int] = field(default_factory=dict)  # node id -> number of chains
    truncated: bool = False
    note: str = ""
    arrival: tuple[str, str] | None = None  # (relation, direction) the candidates were reached by


@dataclass
class State:
    """s_t = (question, kept path, new information) plus the agent's own notes."""

    question: str
    path: list[Triple] = field(default_factory=list)  # selected, kept information
    new: list[Triple] = field(default_factory=list)  # retrieved by the last query
    frontier: dict[str, list[Triple]] = field(default_factory=dict)
    support: dict[str, int] = field(default_factory=dict)
    arrival: tuple[str, str] | None = None  # last (relation, direction) that reached the frontier
    notes: dict[str, Any] = field(default_factory=dict)  # agent/judge scratch (plans, analysis)
    llm_calls: list[LLMCall] = field(default_factory=list)  # calls made in the current step


@dataclass
class Judgement:
    reward: float  # in [0, 1]: does the gathered information suffice?
    reason: str


class Agent(Protocol):
    name: str

    def reason(self, state: State, memory: list[Step]) -> Action | None:
        """a_t: what to keep and what to query next; None when there is nothing left to try."""

    def summarize(self, state: State, memory: list[Step]) -> tuple[list[Answer], int]:
        """The ranked answers (top ones with evidence) and how many answers there are."""


class KnowledgeSource(Protocol):
    name: str

    def execute(self, action: Action, state: State) -> Retrieval:
        """Run the action's query; raise ValueError with a readable message on bad queries."""


class Judge(Protocol):
    name: str

    def score(self, state: State, memory: list[Step]) -> Judgement: ...


@dataclass
class LoopSettings:
    max_steps: int = 4  # T
    threshold: float = 0.8  # R
    refresh: str = "always"  # "always" (Algorithm 1) or "entropy" (Algorithm 3 snapshots)
    refresh_bits: float = 1.0  # information needed before the agent's snapshot refreshes


def run_loop(
    question: str,
    agent: Agent,
    source: KnowledgeSource,
    judge: Judge,
    settings: LoopSettings | None = None,
    *,
    paradigm: str = "",
    kb: str = "",
) -> Iterator[Step | Trace]:
    """Yield every Step as it completes, then the Trace."""
    settings = settings or LoopSettings()
    started = time.perf_counter()
    state = State(question=question)
    memory: list[Step] = []
    snapshot: list[Step] = []
    snapshot_bits = _entropy_bits(state)
    stop_reason = ""
    while True:
        t0 = time.perf_counter()
        state.llm_calls = []
        try:
            action = agent.reason(state, snapshot if settings.refresh == "entropy" else memory)
        except Exception as exc:  # an agent fault ends the run with the reason, never a crash
            stop_reason, error = "agent failed", f"{type(exc).__name__}: {exc}"
            memory.append(_failed_step(len(memory) + 1, error, t0, state))
            yield memory[-1]
            break
        if action is None:
            stop_reason = state.notes.get("stop_reason", "the agent has nothing further to ask")
            break
        step = Step(index=len(memory) + 1, action=action)
        try:
            result = source.execute(action, state)
            state.path = _kept(state, action)
            state.new, state.frontier, state.support = (
                result.triples,
                result.frontier,
                result.support,
            )
            state.arrival = result.arrival or state.arrival
            step.triples, step.truncated = result.triples, result.truncated
            if result.note:
                step.action.details["note"] = result.note
            verdict = judge.score(state, memory)
            step.reward, step.reward_reason = verdict.reward, verdict.reason
        except ValueError as exc:
            step.error = str(exc)
            state.new = []
            step.reward, step.reward_reason = 0.0, "the query failed"
        step.candidates = len(state.frontier)
        step.llm_calls = list(state.llm_calls)
        step.duration_ms = (time.perf_counter() - t0) * 1000
        bits = _entropy_bits(state)
        step.refreshed = (
            settings.refresh != "entropy" or abs(bits - snapshot_bits) >= settings.refresh_bits
        )
        memory.append(step)
        if step.refreshed:
            snapshot, snapshot_bits = list(memory), bits
        yield step
        if step.reward >= settings.threshold:
            stop_reason = (
                f"judge reward {step.reward:.2f} reached the threshold {settings.threshold}"
            )
            break
        if len(memory) >= settings.max_steps:
            stop_reason = f"step limit T={settings.max_steps} reached"
            break

    answers, total = agent.summarize(state, memory)
    if not answers and not stop_reason.startswith("agent failed"):
        stop_reason = f"no answer found: {stop_reason}"
    yield Trace(
        question=question,
        paradigm=paradigm,
        kb=kb,
        settings={
            "max_steps": settings.max_steps,
            "threshold": settings.threshold,
            "refresh": settings.refresh,
        },
        steps=memory,
        answers=answers,
        n_answers=total,
        stop_reason=stop_reason,
        duration_ms=(time.perf_counter() - started) * 1000,
        error=next((s.error for s in memory if s.error and stop_reason == "agent failed"), None),
        linked=state.notes.get("linked", []),
    )


def run_to_trace(steps: Iterator[Step | Trace]) -> Trace:
    """Drain a run and return its Trace (the last item)."""
    *_, last = steps
    if not isinstance(last, Trace):
        raise RuntimeError("a run must end with its Trace")
    return last


def _kept(state: State, action: Action) -> list[Triple]:
    """a_sel: the agent keeps the chains that reach the nodes it chose to continue from."""
    keep = set(action.params.get("from", ()))
    kept: list[Triple] = []
    seen = set()
    for node in keep:
        for t in state.frontier.get(node, ()):
            if t not in seen:
                seen.add(t)
                kept.append(t)
    return kept or state.path


def _entropy_bits(state: State) -> float:
    """Uncertainty over candidate answers, in bits (uniform over the frontier)."""
    return math.log2(1 + len(state.frontier))


def _failed_step(index: int, error: str, t0: float, state: State) -> Step:
    return Step(
        index=index,
        action=Action(kind="error", description="the agent could not decide"),
        error=error,
        duration_ms=(time.perf_counter() - t0) * 1000,
        llm_calls=list(state.llm_calls),
    )
