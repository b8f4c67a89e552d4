"""`knowloop eval`: run a labelled question file and summarise the metrics.

Evaluation never learns: gold answers are only compared against, never stored as knowledge.
"""

from __future__ import annotations

import csv
import io
import random
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import InitVar, dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING

from core.loop import LoopSettings
from core.metrics import exact_match, f1, hits_at_1, median, percentile, tied_at_top
from core.support import last_judged
from core.trace import Trace

if TYPE_CHECKING:  # the engine sits above this module: named here as a type only
    from core.engine import Engine

SUMMARY_KEYS = (
    "paradigm",
    "n",
    "hits_at_1",
    "exact_match",
    "f1",
    "median_latency_ms",
    "p95_latency_ms",
    "llm_calls",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
    "steps_per_question",
    "invalid_step_share",
    "useless_step_share",
    # after the contract's keys: what backs the answers (core.support, core.grounding)
    "verified_share",
    "low_confidence_share",
    "unverified_share",
    "claims",
    "supported_claim_rate",
    "contradicted_claim_rate",
)


@dataclass
class LabelledQuestion:
    line: int
    question: str
    answers: list[str]
    extra: dict[str, str] = field(default_factory=dict)  # other columns (qtype, kind, hops)


@dataclass
class QuestionResult:
    question: str
    gold: list[str]
    predicted: list[str]
    hits_at_1: float
    exact_match: float
    f1: float
    latency_ms: float
    llm_calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    error: str | None = None
    steps: int = 0  # query steps (hops, constraints, lookups), not the answer-writing step
    invalid_steps: int = 0  # the query failed or found nothing
    useless_steps: int = 0  # valid, but off the path that reached the top answer
    path: str = ""  # the relations the top answer was reached by ("" without KG evidence)
    line: int = 0  # line of the question file
    extra: dict[str, str] = field(default_factory=dict)  # the file's other columns
    tied: int = 1  # answers sharing the top score (Hits@1 needs all of them gold)
    support: str = ""  # the run's support status (core.support)
    claims: dict[str, int] = field(default_factory=dict)  # the LLM's claims per status
    # The run itself, for the Evaluate page to open. An InitVar, not a field: asdict(),
    # details() and the stored row never carry (or deep-copy) a whole trace.
    trace: InitVar[Trace | None] = None

    def __post_init__(self, trace: Trace | None) -> None:
        self.trace = trace

    def record(self) -> dict:
        """Every field as plain data, without the trace: what is stored per question."""
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def details(self) -> dict:
        """One line of `knowloop eval --details`: what a user needs to see why it failed."""
        row = self.record()
        row["predicted"] = self.predicted[:10]
        row["n_predicted"] = len(self.predicted)
        return row

    @classmethod
    def from_record(cls, data: dict) -> QuestionResult:
        """Inverse of record() (unknown keys, e.g. n_predicted of details(), are ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def _plain(value):
    """A copy of a field's value (lists and dicts are copied so a record never aliases)."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, dict):
        return dict(value)
    return value


def read_questions(
    path: Path | str, limit: int | None = None, strip_brackets: bool = False
) -> list[LabelledQuestion]:
    """TSV with a header; columns `question` and `answers` (gold joined by `|`)."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no such question file: {path}")
    with open(path, newline="", encoding="utf-8") as fh:
        return _parse(fh, path.name, limit, strip_brackets)


def parse_question_file(
    data: bytes, name: str, *, strip_brackets: bool = False
) -> list[LabelledQuestion]:
    """An uploaded (or picked) question file, checked whole: empty, binary, not UTF-8, without
    the header columns or without a single question each raise one ValueError saying so, so
    the page shows one message and runs nothing."""
    if not data.strip():
        raise ValueError(f"{name}: the file is empty")
    if b"\x00" in data:
        raise ValueError(f"{name}: this is a binary file, not a TSV question file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"{name}: not UTF-8 text (byte {exc.start} cannot be read); save it as UTF-8"
        ) from None
    questions = _parse(io.StringIO(text, newline=""), name, None, strip_brackets)
    if not questions:
        raise ValueError(f"{name}: no questions found (every 'question' cell is empty)")
    return questions


def _parse(
    fh: Iterable[str], name: str, limit: int | None, strip_brackets: bool
) -> list[LabelledQuestion]:
    reader = csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)
    fields_ = reader.fieldnames or []
    if "question" not in fields_ or "answers" not in fields_:
        raise ValueError(
            f"{name}: need a TSV header with columns 'question' and 'answers' (found: "
            f"{', '.join(fields_) or 'nothing'})"
        )
    out = []
    for i, row in enumerate(reader, start=2):
        q = (row.get("question") or "").strip()
        if not q:
            continue
        if strip_brackets:
            q = re.sub(r"\[([^\]]*)\]", r"\1", q)
        answers = [a.strip() for a in (row.get("answers") or "").split("|") if a.strip()]
        extra = {k: (v or "") for k, v in row.items() if k not in ("question", "answers") and k}
        out.append(LabelledQuestion(i, q, answers, extra))
        if limit and len(out) >= limit:
            break
    return out


def sample_questions(
    questions: list[LabelledQuestion], n: int, *, seed: int | None = None
) -> list[LabelledQuestion]:
    """The first `n` questions, or (with a seed) `n` drawn at random, the same for the same
    seed, kept in file order so two evaluations of one sample line up row by row."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"the sample size must be at least 1, not {n!r}")
    if seed is None or n >= len(questions):
        return questions[:n]
    picked = random.Random(seed).sample(range(len(questions)), n)
    return [questions[i] for i in sorted(picked)]


def evaluate(
    engine: Engine,
    questions: list[LabelledQuestion],
    *,
    kb: str | None = None,
    paradigm: str = "kg-only",
    settings: LoopSettings | None = None,
    progress: Callable[[Iterator], Iterator] = lambda it: it,
) -> tuple[dict, list[QuestionResult]]:
    """Run every question and summarise (the CLI's `eval`); `progress` wraps the questions."""
    results = list(
        evaluate_iter(engine, progress(questions), kb=kb, paradigm=paradigm, settings=settings)
    )
    return summarize(paradigm, results), results


def evaluate_iter(
    engine: Engine,
    questions: Iterable[LabelledQuestion],
    *,
    kb: str | None = None,
    paradigm: str = "kg-only",
    settings: LoopSettings | None = None,
) -> Iterator[QuestionResult]:
    """One QuestionResult (with its trace) as each question finishes: the CLI collects them,
    the Evaluate page stores and draws each one, so a stopped evaluation keeps what it did."""
    engine.kg(kb)  # load before timing: latency excludes the cold start
    for item in questions:
        yield score_question(engine, item, kb=kb, paradigm=paradigm, settings=settings)


def score_question(
    engine: Engine,
    item: LabelledQuestion,
    *,
    kb: str | None,
    paradigm: str,
    settings: LoopSettings | None,
) -> QuestionResult:
    """Ask one labelled question and score it against its gold answers (never learning)."""
    t0 = time.perf_counter()
    error, trace = None, None
    quality = (0, 0, 0)
    path, support, claims = "", "", {}
    try:
        trace = engine.ask(item.question, kb=kb, paradigm=paradigm, settings=settings)
        predicted, tied = trace.answer_labels, tied_at_top(trace.answers)
        usage = trace.usage()
        error = trace.error
        quality = step_quality(trace)
        path = evidence_path(trace)
        support = trace.support.status if trace.support else ""
        claims = trace.claim_counts if trace.claims else {}
    except ValueError as exc:
        predicted, usage, error, tied = [], {}, str(exc), 1
    latency = (time.perf_counter() - t0) * 1000
    return QuestionResult(
        question=item.question,
        gold=item.answers,
        predicted=predicted,
        hits_at_1=hits_at_1(predicted, item.answers, tied),
        exact_match=exact_match(predicted, item.answers),
        f1=f1(predicted, item.answers),
        latency_ms=latency,
        llm_calls=int(usage.get("llm_calls", 0)),
        prompt_tokens=int(usage.get("prompt_tokens", 0)),
        completion_tokens=int(usage.get("completion_tokens", 0)),
        cost_usd=float(usage.get("cost_usd", 0.0)),
        error=error,
        steps=quality[0],
        invalid_steps=quality[1],
        useless_steps=quality[2],
        path=path,
        line=item.line,
        extra=item.extra,
        tied=tied,
        support=support,
        claims=claims,
        trace=trace,
    )


def evidence_path(trace: Trace) -> str:
    """The relations on the top answer's evidence, in order ("directed by → release year")."""
    if not trace.answers or not trace.answers[0].evidence:
        return ""
    evidence = trace.answers[0].evidence
    step = last_judged(trace.steps, trace.answered_from)
    if step is not None and step.action.kind == "count":  # one counted thing's chain
        return " → ".join(t.p_label for t in evidence[: step.action.params["chain"]]) + " → count"
    return " → ".join(t.p_label for t in evidence)


def write_details(results: list[QuestionResult], path: Path | str) -> None:
    """`knowloop eval --details FILE.jsonl`: one JSON line per question."""
    import json

    from core.secrets import scrub_obj

    with open(path, "w", encoding="utf-8") as fh:
        for r in results:
            fh.write(json.dumps(scrub_obj(r.details()), ensure_ascii=False) + "\n")


def step_quality(trace: Trace) -> tuple[int, int, int]:
    """(steps, invalid, useless) of a run (the seed's WKM Tables 2-3): a step is invalid when
    its query failed or found nothing, useless when it is valid but its relation is not on
    the evidence path of the top answer (every valid step, when there is no answer)."""
    on_path = {t.p for t in trace.answers[0].evidence} if trace.answers else set()
    steps = invalid = useless = 0
    for step in trace.steps:
        if step.action.kind in ("answer", "stopped"):
            continue
        steps += 1
        off_path = step.action.params.get("relation") not in on_path
        if step.error or step.candidates == 0:
            invalid += 1
        elif not trace.answers or (step.action.kind in ("hop", "constrain") and off_path):
            useless += 1
    return steps, invalid, useless


def summarize(paradigm: str, results: list[QuestionResult]) -> dict:
    n = len(results)
    claims = sum(sum(r.claims.values()) for r in results)
    mean = (lambda xs: sum(xs) / n) if n else (lambda xs: 0.0)
    latencies = [r.latency_ms for r in results]
    return {
        "paradigm": paradigm,
        "n": n,
        "hits_at_1": round(mean([r.hits_at_1 for r in results]), 4),
        "exact_match": round(mean([r.exact_match for r in results]), 4),
        "f1": round(mean([r.f1 for r in results]), 4),
        "median_latency_ms": round(median(latencies), 3),
        "p95_latency_ms": round(percentile(latencies, 95), 3),
        "llm_calls": sum(r.llm_calls for r in results),
        "prompt_tokens": sum(r.prompt_tokens for r in results),
        "completion_tokens": sum(r.completion_tokens for r in results),
        "cost_usd": round(sum(r.cost_usd for r in results), 6),
        "steps_per_question": round(mean([r.steps for r in results]), 3),
        "invalid_step_share": _share(results, "invalid_steps"),
        "useless_step_share": _share(results, "useless_steps"),
        "verified_share": round(mean([r.support == "verified" for r in results]), 4),
        "low_confidence_share": round(mean([r.support == "low confidence" for r in results]), 4),
        "unverified_share": round(mean([r.support == "unverified" for r in results]), 4),
        "claims": claims,
        "supported_claim_rate": _claim_rate(results, "supported", claims),
        "contradicted_claim_rate": _claim_rate(results, "contradicted", claims),
    }


def _share(results: list[QuestionResult], key: str) -> float:
    steps = sum(r.steps for r in results)
    return round(sum(getattr(r, key) for r in results) / steps, 4) if steps else 0.0


def _claim_rate(results: list[QuestionResult], status: str, total: int) -> float | None:
    """Share of the `total` claims the LLM wrote with this status (None: it wrote none)."""
    return round(sum(r.claims.get(status, 0) for r in results) / total, 4) if total else None
