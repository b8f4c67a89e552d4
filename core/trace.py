"""The one record of a run: typed steps and the final trace.

The UI, the CLI, evaluation and export all read these types; nothing else describes a run.
Node ids are N-Triples terms (``<iri>`` or ``"lexical"^^<datatype>``), unambiguous and
stable, with a human label beside each.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from core.secrets import scrub_obj


class StopRun(Exception):
    """Raised by a part of the loop to end the run cleanly (e.g. an exhausted LLM budget);
    the message becomes the trace's stop reason. Here, below every part, so a knowledge
    source or the LLM client can raise it without importing the loop."""

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Triple:
    """One retrieved fact, with the labels an analyst reads."""

    s: str
    p: str
    o: str
    s_label: str
    p_label: str
    o_label: str

    def text(self) -> str:
        return f"{self.s_label} —{self.p_label}→ {self.o_label}"


@dataclass
class LLMCall:
    """Usage of one LLM call, attached to the step that made it."""

    model: str
    purpose: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    cached: bool = False
    error: str | None = None


@dataclass(frozen=True)
class Passage:
    """Text evidence: a document passage (verified source) or an LLM's own words (unverified)."""

    id: str
    text: str
    source: str  # e.g. "llm:local/gemma-3-270m", "docs:movie_docs"
    verified: bool = True  # False for what an LLM says from its own parameters
    url: str = ""
    start: int = 0  # character offsets in the source document
    end: int = 0


@dataclass
class Action:
    """What the agent decided: which information to keep, which query to run where."""

    kind: str  # "hop", "constrain", ... (agent-defined, shown to the user)
    description: str  # one readable sentence
    query: str = ""  # the query text, runnable in `language` against `source`
    language: str = ""  # "sparql", "sql", "text", ...
    source: str = ""  # name of the knowledge source queried
    params: dict[str, Any] = field(default_factory=dict)  # structured query, for the source
    details: dict[str, Any] = field(default_factory=dict)  # why: scores, alternatives, links


@dataclass
class Step:
    """One turn of the inner loop: action, retrieval, judgement, cost."""

    index: int
    action: Action
    triples: list[Triple] = field(default_factory=list)  # the subgraph this step retrieved
    reward: float = 0.0
    reward_reason: str = ""
    candidates: int = 0  # size of the answer frontier after this step
    llm_calls: list[LLMCall] = field(default_factory=list)
    duration_ms: float = 0.0
    error: str | None = None
    refreshed: bool = True  # Algorithm 3: did the agent's buffer snapshot refresh here?
    truncated: bool = False  # retrieval hit a size cap
    passages: list[Passage] = field(default_factory=list)  # text this step retrieved
    # the judge's answer typing of this step's candidates in [-1, 1] (core.answer_types.answer_fit;
    # 0: the question does not say; None: the judge does not type answers)
    answer_fit: float | None = None

    @property
    def tokens(self) -> int:
        return sum(c.prompt_tokens + c.completion_tokens for c in self.llm_calls)


@dataclass
class Answer:
    """A ranked answer and the triples that prove it (the path from the topic entity)."""

    id: str
    label: str
    score: float
    evidence: list[Triple] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)  # text evidence (unverified if LLM)


@dataclass
class Support:
    """How far the KB backs the answer, computed by the engine once the run ends
    (core.support): the one status the card, the CLI, reports, Compare and Evaluate show."""

    status: str  # "verified" | "low confidence" | "unverified" | "no answer"
    reason: str  # one line on why
    checked: int = 0  # evidence facts re-checked against the store
    missing: list[str] = field(default_factory=list)  # evidence facts the KB does not hold


@dataclass
class Claim:
    """One claim of text an LLM wrote in the run, checked against the KB, the table rows
    and the passages the run retrieved (core.grounding)."""

    text: str
    origin: str  # where the LLM wrote it: "answer", "sample-2", "rationale (step 3)"
    status: str  # "supported" | "contradicted" | "not found"
    reason: str
    evidence: list[str] = field(default_factory=list)  # facts or passage ids behind the status


@dataclass
class Trace:
    """A finished run: the question, every step, the ranked answers and why it stopped."""

    question: str
    paradigm: str
    kb: str
    settings: dict[str, Any] = field(default_factory=dict)
    steps: list[Step] = field(default_factory=list)
    answers: list[Answer] = field(default_factory=list)
    n_answers: int = 0  # all answers found; `answers` may hold only the top ones
    stop_reason: str = ""
    duration_ms: float = 0.0
    error: str | None = None
    linked: list[dict[str, Any]] = field(default_factory=list)  # entities linked in the question
    # the step whose state the answers come from, when not the last one (an agent that falls
    # back to an earlier, better-judged state): its reward is the one the answers earned
    answered_from: int | None = None
    support: Support | None = None  # filled by the engine after the loop (core.support)
    claims: list[Claim] = field(default_factory=list)  # the LLM's text, checked (core.grounding)
    schema_version: int = SCHEMA_VERSION

    @property
    def answer_labels(self) -> list[str]:
        return [a.label for a in self.answers]

    @property
    def llm_calls(self) -> list[LLMCall]:
        return [c for s in self.steps for c in s.llm_calls]

    def usage(self) -> dict[str, float]:
        calls = self.llm_calls
        return {
            "llm_calls": len(calls),
            "prompt_tokens": sum(c.prompt_tokens for c in calls),
            "completion_tokens": sum(c.completion_tokens for c in calls),
            "cost_usd": sum(c.cost_usd for c in calls),
        }

    def to_dict(self) -> dict[str, Any]:
        """The trace as plain data, scrubbed of secrets: `--json`, the run store and every
        export serialise through here, and a provider's error may have echoed a key."""
        data = asdict(self)
        data["usage"] = self.usage()
        return scrub_obj(data)

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trace:
        """Inverse of to_dict (extra keys such as "usage" are ignored)."""
        steps = []
        for s in data.get("steps", []):
            s = dict(s)
            s["action"] = Action(**s["action"])
            s["triples"] = [Triple(**t) for t in s.get("triples", [])]
            s["llm_calls"] = [LLMCall(**c) for c in s.get("llm_calls", [])]
            s["passages"] = [Passage(**p) for p in s.get("passages", [])]
            steps.append(Step(**s))
        answers = [
            Answer(
                **{
                    **a,
                    "evidence": [Triple(**t) for t in a.get("evidence", [])],
                    "passages": [Passage(**p) for p in a.get("passages", [])],
                }
            )
            for a in data.get("answers", [])
        ]
        known = {f.name for f in fields(cls)}
        nested = ("steps", "answers", "support", "claims")
        rest = {k: v for k, v in data.items() if k in known and k not in nested}
        support = _known(Support, data["support"]) if data.get("support") else None
        claims = [Claim(**c) for c in data.get("claims") or []]
        return cls(steps=steps, answers=answers, support=support, claims=claims, **rest)

    @property
    def claim_counts(self) -> dict[str, int]:
        """Claims per status: what the supported-claim rate is computed from."""
        counts = {"supported": 0, "contradicted": 0, "not found": 0}
        for c in self.claims:
            counts[c.status] = counts.get(c.status, 0) + 1
        return counts


def _known(cls, data: dict[str, Any]):
    """A dataclass from a dict, ignoring keys it no longer has (traces stored earlier)."""
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})
