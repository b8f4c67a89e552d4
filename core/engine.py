"""The engine object shared by the CLI and the web pages: one workspace, many runs."""

from __future__ import annotations

from collections.abc import Iterator

from core.grounding import ground
from core.kg.store import KnowledgeGraph
from core.loop import LoopSettings, run_loop, run_to_trace
from core.paradigms import compose
from core.support import UNVERIFIED, assess
from core.trace import Step, Support, Trace
from core.workspace import Workspace

MAX_QUESTION_CHARS = 2000


class QuestionError(ValueError):
    """The question cannot be asked as given (empty, too long, binary)."""


class Engine:
    def __init__(self, workspace: Workspace | None = None):
        self.workspace = workspace or Workspace()

    def kg(self, kb: str | None = None) -> KnowledgeGraph:
        return self.workspace.kg(kb)

    def prepare(self, kb: str | None = None) -> KnowledgeGraph:
        """Open a KB and build what its first question would otherwise wait for (the text
        models and the KB's relation semantics, ≈ 1 s on the bundled KB): the app calls this
        while it shows its opening spinner; and one query worker, so that the first SPARQL or
        SQL query does not wait for a process start."""
        from core import worker
        from core.kg.semantics import semantics_for
        from core.textmodel import sentence_model

        kg = self.kg(kb)
        semantics_for(kg)
        sentence_model()
        worker.warm()
        return kg

    def stream(
        self,
        question: str,
        *,
        kb: str | None = None,
        paradigm: str = "kg-only",
        settings: LoopSettings | None = None,
    ) -> Iterator[Step | Trace]:
        """Yield each Step as it happens, then the Trace."""
        question = check_question(question)
        kg = self.kg(kb)
        parts = compose(paradigm, kg, settings)
        steps = run_loop(
            question,
            parts.agent,
            parts.source,
            parts.judge,
            parts.settings,
            paradigm=paradigm,
            kb=kg.name,
        )
        return checked(steps, kg)

    def ask(self, question: str, **kwargs) -> Trace:
        return run_to_trace(self.stream(question, **kwargs))


def checked(items: Iterator[Step | Trace], kg: KnowledgeGraph) -> Iterator[Step | Trace]:
    """The loop's items, the Trace with its support status and checked claims filled in
    (core.support, core.grounding); a fault in a check is recorded, never loses the run."""
    for item in items:
        if isinstance(item, Trace):
            try:
                item.support = assess(item, kg)
                item.claims = ground(item, kg)
            except Exception as exc:  # noqa: BLE001 — the run is kept whatever the check does
                item.support = Support(UNVERIFIED, f"the support check failed ({exc})")
        yield item


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
