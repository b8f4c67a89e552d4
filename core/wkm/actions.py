"""Actions as the World Knowledge Model stores them: stable keys over the KB's real relations.

A key is ``hop:<direction>:<relation id>`` or ``stop``; ``start`` is the previous action of a
run's first step. Keys name relations by id, so knowledge learned by one agent (kg-only)
applies to another (llmxkg) on the same KB, and no relation name is built into the engine.
"""

from __future__ import annotations

import re

from core.kg.store import KnowledgeGraph

START, STOP = "start", "stop"
Hop = tuple[str, str]  # (relation id, "out" | "in")


def hop_key(rel: str, direction: str) -> str:
    return f"hop:{direction}:{rel}"


def parse_hop(key: str) -> Hop | None:
    if not key.startswith("hop:"):
        return None
    _, direction, rel = key.split(":", 2)
    return rel, direction


def path_keys(hops: list[Hop]) -> list[str]:
    return [hop_key(r, d) for r, d in hops]


def label(kg: KnowledgeGraph | None, key: str) -> str:
    """What an analyst reads: 'directed by', 'starred actors⁻¹', 'stop'."""
    hop = parse_hop(key)
    if hop is None:
        return key
    rel, direction = hop
    name = kg.label(rel) if kg is not None else rel.rsplit("/", 1)[-1].strip("<>")
    return name + ("" if direction == "out" else "⁻¹")


def path_text(kg: KnowledgeGraph | None, keys: list[str]) -> str:
    return " → ".join(label(kg, k) for k in keys) or "(no hop)"


def mask(question: str, mention: str = "") -> str:
    """The question with its topic entity replaced by [E]: what is alike across questions."""
    masked = re.sub(r"\[[^\]]*\]", "[E]", question)
    if masked == question and mention:
        masked = re.sub(re.escape(mention), "[E]", question, count=1, flags=re.IGNORECASE)
    return " ".join(masked.split())


def summary(question: str, mention: str, walked: list[str], kg: KnowledgeGraph | None) -> str:
    """The state summary that is embedded: the masked question and the path walked so far."""
    return f"{mask(question, mention)} | walked: {path_text(kg, walked) if walked else 'nothing'}"
