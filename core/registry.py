"""The names KnowLoop's parts are known by: the paradigms (with the line that describes each)
and the judges. Declared here, at the bottom of the layers, so the settings spec, the CLI and
the pages read one list without importing what builds the parts; `core.paradigms` attaches a
builder to each paradigm name (and refuses a name not declared here)."""

from __future__ import annotations

PARADIGMS: dict[str, str] = {  # name -> what it is, in the order the UI offers them
    "kg-only": "rules over the knowledge graph: entity linking, relation paths, rule judge",
    "llm-only": "chain of thought: the LLM is its own knowledge source (k samples, vote)",
    "llm+kg": "one shot: link, retrieve a ranked neighbourhood, the LLM answers once",
    "llmxkg": "iterative: the LLM chooses among the KG's real relations, the judge decides",
    "cok": "Chain-of-Knowledge: consensus gate, then KG + tables + documents, progressive",
}
JUDGES: tuple[str, ...] = ("rules", "llm", "consensus", "cok")
