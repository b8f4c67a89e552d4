"""The inner reasoning loop (seed Algorithm 1, with the Algorithm 3 snapshot as an option).

Every paradigm runs through `run_loop`: it composes an agent (Reason + Summarize), a
knowledge source (Select_and_query) and a judge. It yields each Step as it happens and the
finished Trace last, so the UI renders live and the CLI just takes the final item.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.secrets import scrub
from core.settings_spec import LoopSettings  # the settings and their spec live together
from core.trace import Action, Answer, LLMCall, Passage, Step, StopRun, Trace, Triple

MAX_QUESTION_CHARS = 2000


class QuestionError(ValueError):
    """The question cannot be asked as given (empty, too long, binary)."""


def check_question(question: str) -> str:
    """Refuse what cannot be a question, with a reason a user can act on."""
    if not isinstance(question, str):
        raise QuestionError("the question must be text")
    if "\x00" in question or any(ord(c) < 32 and c not in "\t\n\r" for c in question):
        raise QuestionError("the question contains control characters (binary input?)")
    question = " ".join(question.split())
    if not question:
        raise QuestionError("the question is empty")
    if len(question) > MAX_QUESTION_CHARS:
        raise QuestionError(
            f"the question is {len(question):,} characters long; "
            f"the limit is {MAX_QUESTION_CHARS:,}"
        )
    return question


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
    passages: list[Passage] = field(default_factory=list)  # text evidence (documents, LLM)


@dataclass
class Reading:
    """How the agent reads the question, shared with the judge: the analysis against the KB
    (core.analysis), the entities it linked, and what the current plan uses of it."""

    analysis: Any = None  # core.analysis.QuestionAnalysis
    linked: list[dict[str, Any]] = field(default_factory=list)  # shown in the trace
    used: tuple = ()  # the entity mentions the current path starts from or intersects with
    hops: list[tuple[str, str]] = field(default_factory=list)  # (relation, direction) walked
    side_relations: list[str] = field(default_factory=list)  # constraints and filters applied
    pending: int = 0  # plan parts (constraints, filters, a count) not applied yet
    counted: bool = False  # the candidates are how many things the path reaches (a number)
    # the names whose constraints are among the `pending` parts (core.judges reads them)
    pending_names: tuple = ()
    exclude_topic: bool = False  # the topic entity is not an answer ("other films …")
    # how much of the question the best plan on this KB explains (core.path_fit.explain):
    # words no relation of the KB can explain are not held against a path (0: unknown)
    ceiling: float = 0.0


@dataclass
class Walk:
    """The walk as the World Knowledge Model reads it (core.wkm.guide): the topic's words,
    the hops taken, the judge's own reward before knowledge was mixed in."""

    mention: str = ""  # the topic entity's words in the question (masked in state summaries)
    walked: list[str] = field(default_factory=list)  # action keys of the hops taken so far
    judged_reward: float = 0.0  # the inner judge's reward of the latest state
    knowledge_stop: bool = False  # similar expert runs stopped here: trust the answer
    guided: bool = False  # the guide took the walk off every rule plan


@dataclass
class State:
    """s_t = (question, kept path, new information) plus the running agent's own memory."""

    question: str
    path: list[Triple] = field(default_factory=list)  # selected, kept information
    new: list[Triple] = field(default_factory=list)  # retrieved by the last query
    passages: list[Passage] = field(default_factory=list)  # text evidence gathered so far
    frontier: dict[str, list[Triple]] = field(default_factory=dict)
    support: dict[str, int] = field(default_factory=dict)
    arrival: tuple[str, str] | None = None  # last (relation, direction) that reached the frontier
    reading: Reading = field(default_factory=Reading)
    walk: Walk = field(default_factory=Walk)
    answered_from: int | None = None  # the earlier step the answers come from (Trace's)
    # labels of the current candidates, written by the agent for sources that match table
    # rows and passages by name (Chain-of-Knowledge)
    labels: dict[str, str] = field(default_factory=dict)
    stop_reason: str = ""  # set by the agent when it has nothing further to ask
    # the running agent's own typed memory (e.g. `WalkMemo`, `CoKProgress`): its class owns
    # it, and no other part reads it, except a paradigm's own judge where its class says so.
    # It lives on the state, not the agent, so that a copied state carries it.
    memo: object | None = None
    llm_calls: list[LLMCall] = field(default_factory=list)  # calls made in the current step
    # the latest step, whatever buffer snapshot the agent reasons on (Algorithm 3)
    last_step: Step | None = None
    step_limit: int | None = None  # T, the run's step limit: what an agent may still plan for


@dataclass
class Judgement:
    reward: float  # in [0, 1]: does the gathered information suffice?
    reason: str
    answer_fit: float | None = None  # how well the candidates are the kind asked ([-1, 1])


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
    paused = 0.0  # time the consumer held a yielded step (drawing it): not the engine's time
    state = State(question=question, step_limit=settings.max_steps)
    memory: list[Step] = []
    snapshot: list[Step] = []
    snapshot_bits = _entropy_bits(state)
    stop_reason = ""
    while True:
        t0 = time.perf_counter()
        state.llm_calls = []
        try:
            action = agent.reason(state, snapshot if settings.refresh == "entropy" else memory)
        except StopRun as stop:
            stop_reason = str(stop)
            if state.llm_calls:
                memory.append(_calls_step(len(memory) + 1, "stopped", str(stop), t0, state))
                paused += yield from _handed_over(memory[-1])
            break
        except Exception as exc:  # an agent fault ends the run with the reason, never a crash
            stop_reason, error = "agent failed", scrub(f"{type(exc).__name__}: {exc}")
            memory.append(_failed_step(len(memory) + 1, error, t0, state))
            paused += yield from _handed_over(memory[-1])
            break
        if action is None:
            stop_reason = state.stop_reason or "the agent has nothing further to ask"
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
            state.passages = [*state.passages, *result.passages]
            step.triples, step.truncated = result.triples, result.truncated
            step.passages = result.passages
            if result.note:
                step.action.details["note"] = result.note
            verdict = judge.score(state, memory)
            step.reward, step.reward_reason = verdict.reward, verdict.reason
            step.answer_fit = verdict.answer_fit
        except StopRun as stop:
            stop_reason = str(stop)
            step.reward_reason = f"not judged: {stop}"
        except (ValueError, ConnectionError) as exc:  # a refused query, an endpoint fault
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
        state.last_step = step
        if step.refreshed:
            snapshot, snapshot_bits = list(memory), bits
        paused += yield from _handed_over(step)
        if stop_reason:
            break
        if step.reward >= settings.threshold:
            stop_reason = (
                f"judge reward {step.reward:.2f} reached the threshold {settings.threshold}"
            )
            break
        if len(memory) >= settings.max_steps:
            stop_reason = f"step limit T={settings.max_steps} reached"
            break

    t0 = time.perf_counter()
    state.llm_calls = []
    reason_before = state.stop_reason
    try:
        answers, total = agent.summarize(state, memory)
        if state.stop_reason != reason_before:  # Summarize says why it answered as it did
            stop_reason = f"{stop_reason}; {state.stop_reason}" if stop_reason else (
                state.stop_reason)  # fmt: skip
    except StopRun as stop:
        answers, total = [], 0
        stop_reason = f"{stop_reason}; {stop}" if stop_reason else str(stop)
    if state.llm_calls:  # the answer itself was written by an LLM: show that call as a step
        memory.append(_calls_step(len(memory) + 1, "answer", "write the answer", t0, state))
        paused += yield from _handed_over(memory[-1])
    if not answers and not stop_reason.startswith("agent failed"):
        stop_reason = f"no answer found: {stop_reason}"
    yield Trace(
        question=question,
        paradigm=paradigm,
        kb=kb,
        settings=settings.public(),
        steps=memory,
        answers=answers,
        n_answers=total,
        stop_reason=stop_reason,
        duration_ms=(time.perf_counter() - started - paused) * 1000,
        error=next((s.error for s in memory if s.error and stop_reason == "agent failed"), None),
        linked=state.reading.linked,
        answered_from=state.answered_from,
    )


def _handed_over(step: Step) -> Generator[Step, None, float]:
    """Yield one step and return how long the consumer kept it (seconds)."""
    t0 = time.perf_counter()
    yield step
    return time.perf_counter() - t0


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


def _calls_step(index: int, kind: str, description: str, t0: float, state: State) -> Step:
    """A step that only carries LLM calls (writing the answer, or calls cut by the budget)."""
    return Step(
        index=index,
        action=Action(kind=kind, description=description),
        llm_calls=list(state.llm_calls),
        duration_ms=(time.perf_counter() - t0) * 1000,
        error=next((c.error for c in state.llm_calls if c.error), None),
    )


def _failed_step(index: int, error: str, t0: float, state: State) -> Step:
    return Step(
        index=index,
        action=Action(kind="error", description="the agent could not decide"),
        error=error,
        duration_ms=(time.perf_counter() - t0) * 1000,
        llm_calls=list(state.llm_calls),
    )
