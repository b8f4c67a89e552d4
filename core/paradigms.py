"""Paradigms are compositions of parts: (agent, knowledge source, judge, loop settings).

A paradigm never re-implements the loop. Register new ones with `register`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from core.agents.rules import RuleAgent
from core.judges import ConsensusJudge, LLMJudge, RuleJudge
from core.kg.source import KGSource
from core.kg.store import KnowledgeGraph
from core.loop import Agent, Judge, KnowledgeSource, LoopSettings
from core.registry import JUDGES, PARADIGMS
from core.wkm.guide import GuidedJudge, KnowledgeCache, guide_for

if TYPE_CHECKING:  # the LLM client (and litellm behind it) loads only when a paradigm needs it
    from core.llm.client import ResponseCache


@dataclass
class Composition:
    agent: Agent
    source: KnowledgeSource
    judge: Judge
    settings: LoopSettings


@dataclass(frozen=True)
class Context:
    """What a paradigm may use besides its KB and settings, handed down by the Engine: the
    workspace root (tables, documents), the workspace's learned-knowledge cache and its LLM
    response cache. None for each when a caller composes without a workspace (an in-memory KB
    in a test): then each question's LLM keeps its own cache."""

    home: Path | None = None
    knowledge: KnowledgeCache | None = None
    llm_cache: ResponseCache | None = None


Builder = Callable[[KnowledgeGraph, LoopSettings, Context], Composition]
_BUILDERS: dict[str, Builder] = {}


def register(name: str) -> Callable[[Builder], Builder]:
    """Attach the builder of a paradigm declared in core.registry.PARADIGMS."""
    if name not in PARADIGMS:
        raise ValueError(f"paradigm {name!r} is not declared in core.registry.PARADIGMS")

    def wrap(builder: Builder) -> Builder:
        _BUILDERS[name] = builder
        return builder

    return wrap


def names() -> list[str]:
    return [name for name in PARADIGMS if name in _BUILDERS]


def describe(name: str) -> str:
    return PARADIGMS[name]


def compose(name: str, kg: KnowledgeGraph, settings: LoopSettings | None = None,
            context: Context | None = None) -> Composition:  # fmt: skip
    """The parts of paradigm `name` on `kg`; `context` is the workspace's (Engine.context)."""
    if name not in _BUILDERS:
        raise ValueError(f"unknown paradigm {name!r}; choose one of: {', '.join(names())}")
    return _BUILDERS[name](kg, settings or LoopSettings(), context or Context())


def _llm(settings: LoopSettings, ctx: Context):
    from core.llm.client import LLM, LLMSettings

    return LLM(settings.llm or LLMSettings(), cache=ctx.llm_cache)


def _judge(kind: str, kg: KnowledgeGraph, settings: LoopSettings, ctx: Context, llm=None) -> Judge:
    """The judge is a component: any paradigm takes any of them."""
    if kind == "rules":
        return RuleJudge(kg)
    if kind == "consensus":
        return ConsensusJudge()
    if kind == "cok":
        from core.agents.cok import CoKJudge

        return CoKJudge()
    if kind == "llm":
        return LLMJudge(llm or _llm(settings, ctx), kg, fallback=RuleJudge(kg))
    raise ValueError(f"unknown judge {kind!r}; choose one of: {', '.join(JUDGES)}")


def _guided(judge: Judge, guide) -> Judge:
    """With learned knowledge the judge's reward is mixed with P_know(stop)."""
    return GuidedJudge(judge, guide) if guide is not None else judge


@register("kg-only")
def _kg_only(kg: KnowledgeGraph, settings: LoopSettings, ctx: Context) -> Composition:
    max_hops = max(1, min(settings.max_steps, 3))
    guide = guide_for(kg, settings, "kg-only", ctx.knowledge)
    judge = _guided(_judge(settings.judge or "rules", kg, settings, ctx), guide)
    agent = RuleAgent(kg, max_hops=max_hops, guide=guide)
    return Composition(agent, KGSource(kg), judge, settings)


@register("llm-only")
def _llm_only(kg: KnowledgeGraph, settings: LoopSettings, ctx: Context) -> Composition:
    from core.agents.llm_agents import CoTAgent
    from core.llm.source import LLMSource

    llm = _llm(settings, ctx)
    judge = _judge(settings.judge or "consensus", kg, settings, ctx, llm)
    return Composition(CoTAgent(llm, settings.samples), LLMSource(llm), judge, settings)


@register("llm+kg")
def _llm_plus_kg(kg: KnowledgeGraph, settings: LoopSettings, ctx: Context) -> Composition:
    from core.agents.llm_agents import OneShotAgent

    llm = _llm(settings, ctx)
    judge = _judge(settings.judge or "llm", kg, settings, ctx, llm)
    return Composition(OneShotAgent(kg, llm), KGSource(kg), judge, settings)


@register("llmxkg")
def _llm_x_kg(kg: KnowledgeGraph, settings: LoopSettings, ctx: Context) -> Composition:
    from core.agents.llm_agents import IterativeAgent

    llm = _llm(settings, ctx)
    # the bundled 270M model judges sufficiency at chance level (README, "LLM paradigms"):
    # with it the rule judge decides unless another judge is asked for
    judge = _judge(settings.judge or ("rules" if llm.is_local else "llm"), kg, settings, ctx, llm)
    guide = guide_for(kg, settings, "llmxkg", ctx.knowledge)
    agent = IterativeAgent(kg, llm, settings, guide=guide)
    return Composition(agent, KGSource(kg), _guided(judge, guide), settings)


@register("cok")
def _cok(kg: KnowledgeGraph, settings: LoopSettings, ctx: Context) -> Composition:
    from dataclasses import replace

    from core.agents.cok import CoKAgent
    from core.llm.source import LLMSource
    from core.sources import ensure_bundled
    from core.sources.loop_sources import DocumentSource, SourceRouter, TableSource

    if ctx.home is None:
        raise ValueError("the cok paradigm needs a workspace (its tables and documents)")
    home = ctx.home
    ensure_bundled(home)
    llm = _llm(settings, ctx)
    kg_source = KGSource(kg)
    router = SourceRouter(
        {
            "generate": LLMSource(llm),
            "hop": kg_source,
            "constrain": kg_source,
            "count": kg_source,
            "sparql": kg_source,
            "sql": TableSource(home),
            "search": DocumentSource(home),
        }
    )
    # room for preparation, up to three hops, a table and a document step
    settings = replace(
        settings,
        max_steps=max(settings.max_steps, 6),
        samples=settings.samples if settings.samples > 1 else 3,
    )
    judge = _judge(settings.judge or "cok", kg, settings, ctx, llm)
    return Composition(CoKAgent(kg, llm, settings, home), router, judge, settings)
