"""Paradigms are compositions of parts: (agent, knowledge source, judge, loop settings).

A paradigm never re-implements the loop. Register new ones with `register`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.agents.rules import RuleAgent
from core.judges import ConsensusJudge, LLMJudge, RuleJudge
from core.kg.source import KGSource
from core.kg.store import KnowledgeGraph
from core.loop import Agent, Judge, KnowledgeSource, LoopSettings
from core.wkm.guide import GuidedJudge, guide_for


@dataclass
class Composition:
    agent: Agent
    source: KnowledgeSource
    judge: Judge
    settings: LoopSettings


Builder = Callable[[KnowledgeGraph, LoopSettings], Composition]
_REGISTRY: dict[str, tuple[Builder, str]] = {}


def register(name: str, description: str) -> Callable[[Builder], Builder]:
    def wrap(builder: Builder) -> Builder:
        _REGISTRY[name] = (builder, description)
        return builder

    return wrap


def names() -> list[str]:
    return list(_REGISTRY)


def describe(name: str) -> str:
    return _REGISTRY[name][1]


def compose(name: str, kg: KnowledgeGraph, settings: LoopSettings | None = None) -> Composition:
    if name not in _REGISTRY:
        raise ValueError(f"unknown paradigm {name!r}; choose one of: {', '.join(names())}")
    return _REGISTRY[name][0](kg, settings or LoopSettings())


def _llm(settings: LoopSettings):
    from core.llm.client import LLM, LLMSettings

    return LLM(settings.llm or LLMSettings())


def _judge(kind: str, kg: KnowledgeGraph, settings: LoopSettings, llm=None) -> Judge:
    """The judge is a component: any paradigm takes any of them."""
    if kind == "rules":
        return RuleJudge(kg)
    if kind == "consensus":
        return ConsensusJudge()
    if kind == "cok":
        from core.agents.cok import CoKJudge

        return CoKJudge()
    if kind == "llm":
        return LLMJudge(llm or _llm(settings), kg, fallback=RuleJudge(kg))
    raise ValueError(f"unknown judge {kind!r}; choose one of: {', '.join(JUDGES)}")


JUDGES = ("rules", "llm", "consensus", "cok")


def _guided(judge: Judge, guide) -> Judge:
    """With learned knowledge the judge's reward is mixed with P_know(stop)."""
    return GuidedJudge(judge, guide) if guide is not None else judge


@register("kg-only", "rules over the knowledge graph: entity linking, relation paths, rule judge")
def _kg_only(kg: KnowledgeGraph, settings: LoopSettings) -> Composition:
    max_hops = max(1, min(settings.max_steps, 3))
    guide = guide_for(kg, settings, "kg-only")
    judge = _guided(_judge(settings.judge or "rules", kg, settings), guide)
    agent = RuleAgent(kg, max_hops=max_hops, guide=guide)
    return Composition(agent, KGSource(kg), judge, settings)


@register("llm-only", "chain of thought: the LLM is its own knowledge source (k samples, vote)")
def _llm_only(kg: KnowledgeGraph, settings: LoopSettings) -> Composition:
    from core.agents.llm_agents import CoTAgent
    from core.llm.source import LLMSource

    llm = _llm(settings)
    judge = _judge(settings.judge or "consensus", kg, settings, llm)
    return Composition(CoTAgent(llm, settings.samples), LLMSource(llm), judge, settings)


@register("llm+kg", "one shot: link, retrieve a ranked neighbourhood, the LLM answers once")
def _llm_plus_kg(kg: KnowledgeGraph, settings: LoopSettings) -> Composition:
    from core.agents.llm_agents import OneShotAgent

    llm = _llm(settings)
    judge = _judge(settings.judge or "llm", kg, settings, llm)
    return Composition(OneShotAgent(kg, llm), KGSource(kg), judge, settings)


@register("llmxkg", "iterative: the LLM chooses among the KG's real relations, the judge decides")
def _llm_x_kg(kg: KnowledgeGraph, settings: LoopSettings) -> Composition:
    from core.agents.llm_agents import IterativeAgent

    llm = _llm(settings)
    # the bundled 270M model judges sufficiency at chance level (README, "LLM paradigms"):
    # with it the rule judge decides unless another judge is asked for
    judge = _judge(settings.judge or ("rules" if llm.is_local else "llm"), kg, settings, llm)
    guide = guide_for(kg, settings, "llmxkg")
    agent = IterativeAgent(kg, llm, settings, guide=guide)
    return Composition(agent, KGSource(kg), _guided(judge, guide), settings)


@register("cok", "Chain-of-Knowledge: consensus gate, then KG + tables + documents, progressive")
def _cok(kg: KnowledgeGraph, settings: LoopSettings) -> Composition:
    from dataclasses import replace

    from core.agents.cok import CoKAgent
    from core.llm.source import LLMSource
    from core.sources import ensure_bundled
    from core.sources.loop_sources import DocumentSource, SourceRouter, TableSource
    from core.workspace import default_home

    home = kg.path.parent.parent if kg.path else default_home()
    ensure_bundled(home)
    llm = _llm(settings)
    kg_source = KGSource(kg)
    router = SourceRouter(
        {
            "generate": LLMSource(llm),
            "hop": kg_source,
            "constrain": kg_source,
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
    judge = _judge(settings.judge or "cok", kg, settings, llm)
    return Composition(CoKAgent(kg, llm, settings, home), router, judge, settings)
