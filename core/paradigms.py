"""Paradigms are compositions of parts: (agent, knowledge source, judge, loop settings).

A paradigm never re-implements the loop. Register new ones with `register`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.agents.rules import RuleAgent
from core.judges import RuleJudge
from core.kg.source import KGSource
from core.kg.store import KnowledgeGraph
from core.loop import Agent, Judge, KnowledgeSource, LoopSettings


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


@register("kg-only", "rules over the knowledge graph: entity linking, relation paths, rule judge")
def _kg_only(kg: KnowledgeGraph, settings: LoopSettings) -> Composition:
    max_hops = max(1, min(settings.max_steps, 3))
    return Composition(RuleAgent(kg, max_hops=max_hops), KGSource(kg), RuleJudge(kg), settings)
