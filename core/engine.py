"""The engine object shared by the CLI and the web pages: one workspace, many runs."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import TYPE_CHECKING

from core.grounding import ground
from core.kg.store import KnowledgeGraph
from core.llm.client import ResponseCache
from core.loop import (  # noqa: F401 — the question checks are the engine's API too
    MAX_QUESTION_CHARS,
    LoopSettings,
    QuestionError,
    check_question,
    run_loop,
    run_to_trace,
)
from core.paradigms import Context, compose
from core.support import UNVERIFIED, assess
from core.trace import Step, Support, Trace
from core.wkm.guide import KnowledgeCache
from core.workspace import Workspace

if TYPE_CHECKING:  # the outer-loop objects it hands out import the engine themselves
    from core.app_settings import SettingsFile
    from core.evaluations import EvaluationStore
    from core.feedback import FeedbackLoop
    from core.kg.edits import KBEditor
    from core.runs import RunStore
    from core.sources import Sources
    from core.wkm.store import KnowledgeStore


class Engine:
    """Everything a caller (CLI, page, benchmark) does with one workspace goes through here
    or through an object it hands out, each built on `self.workspace` (never a default
    home, never a path derived from a KB): `runs`, `feedback`, `knowledge`, `evaluations`,
    `sources`, `settings`, `editor(kb)`. The learned-knowledge cache is this engine's own."""

    def __init__(self, workspace: Workspace | None = None):
        self.workspace = workspace or Workspace()
        self.knowledge_cache = KnowledgeCache(self.workspace.root)
        self.llm_cache = ResponseCache()  # deterministic LLM responses, shared by its questions

    @property
    def context(self) -> Context:
        """What the paradigms get from this workspace (sources' home, learned knowledge, LLM
        responses)."""
        return Context(self.workspace.root, self.knowledge_cache, self.llm_cache)

    def kg(self, kb: str | None = None) -> KnowledgeGraph:
        return self.workspace.kg(kb)

    def editor(self, kb: str | None = None) -> KBEditor:
        """The editor of a KB (edits, undo/redo, history)."""
        return self.workspace.editor(kb)

    @cached_property
    def runs(self) -> RunStore:
        """Stored runs, ratings and fix proposals."""
        from core.runs import RunStore

        return RunStore(self.workspace.root)

    @cached_property
    def feedback(self) -> FeedbackLoop:
        """The outer loop: record, rate, accept fixes, re-ask."""
        from core.feedback import FeedbackLoop

        return FeedbackLoop(self)

    @cached_property
    def knowledge(self) -> KnowledgeStore:
        """The WKM store: trajectories, state and task knowledge."""
        from core.wkm.store import KnowledgeStore

        return KnowledgeStore(self.workspace.root)

    @cached_property
    def evaluations(self) -> EvaluationStore:
        from core.evaluations import EvaluationStore

        return EvaluationStore(self.workspace.root)

    @cached_property
    def sources(self) -> Sources:
        """Tables and documents beside the KGs."""
        from core.sources import Sources

        return Sources(self.workspace.root)

    @cached_property
    def settings(self) -> SettingsFile:
        """The app's saved settings (``settings.json`` of this workspace)."""
        from core.app_settings import SettingsFile

        return SettingsFile(self.workspace.root)

    def prepare(self, kb: str | None = None) -> KnowledgeGraph:
        """Open a KB and build what its first question would otherwise wait for (the text
        models, the KB's relation semantics and its relation lexicon with the word senses,
        ≈ 1 s on the bundled KB): the app calls this while it shows its opening spinner; and
        one query worker, so that the first SPARQL or SQL query does not wait for a process
        start."""
        from core import worker
        from core.analysis import lexicon_for
        from core.kg.semantics import semantics_for
        from core.textmodel import sentence_model

        kg = self.kg(kb)
        try:
            semantics_for(kg)
            lexicon_for(kg)
        except ConnectionError:  # a remote KB's endpoint is down: its first question says so
            pass
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
        try:
            parts = compose(paradigm, kg, settings, self.context)
        except ConnectionError as exc:  # a remote KB's endpoint failed while parts were built
            error = str(exc)
            failed = Trace(question, paradigm, kg.name, stop_reason=f"agent failed: {error}",
                           error=error)  # fmt: skip
            return iter([failed])
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
