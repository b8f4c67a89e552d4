"""The sources beside the KG as knowledge sources of the loop, and a router so one run can
query several: the KG (hops), the tables (`sql` actions), the documents (`search` actions)
and the LLM itself (`generate` actions)."""

from __future__ import annotations

from pathlib import Path

from core.loop import Retrieval, State
from core.sources.documents import search, search_many
from core.sources.tables import run_sql
from core.text import normalize, word_forms
from core.trace import Action, Passage

MAX_SEARCHED = 30  # candidates checked against the documents in one step


class TableSource:
    """Runs an `sql` action: keeps the candidates whose label the query returns (its key
    column); each kept candidate carries its row as a verified passage."""

    name = "tables"

    def __init__(self, home: Path):
        self.home = home

    def execute(self, action: Action, state: State) -> Retrieval:
        result = run_sql(action.query, self.home, max_rows=5000)
        key = action.params.get("key_column", result.columns[0] if result.columns else "")
        k = result.columns.index(key) if key in result.columns else 0
        rows = {normalize(str(r[k])): r for r in result.rows}
        table = action.params.get("table", "")
        frontier, support, passages = {}, {}, []
        for node, chain in state.frontier.items():
            row = rows.get(normalize(state.labels.get(node, "")))
            if row is None:
                continue
            frontier[node], support[node] = chain, state.support.get(node, 1)
            text = ", ".join(f"{c}={v}" for c, v in zip(result.columns, row, strict=True))
            passages.append(
                Passage(
                    id=f"row:{table}:{row[k]}", text=text, source=f"table:{table}", verified=True
                )
            )
        note = f"{len(result.rows)} row(s) returned; {len(frontier)} candidate(s) kept"
        if not frontier:
            return unfiltered(state, f"{note}: no candidate matched")
        return Retrieval(frontier=frontier, support=support, passages=passages, note=note)


class DocumentSource:
    """Runs a `search` action: per candidate, the passage about it (its name near the start)
    that holds the action's words; or (mode "global") the passages that hold the words,
    intersected with the candidates."""

    name = "documents"

    def __init__(self, home: Path):
        self.home = home

    def execute(self, action: Action, state: State) -> Retrieval:
        words = list(action.params.get("words", []))
        labels = state.labels
        kept: dict[str, Passage] = {}
        if action.params.get("mode") == "global":
            by_label = {normalize(labels.get(n, "")): n for n in state.frontier}
            for passage, _ in search(" ".join(words), self.home, k=200):
                for label, node in by_label.items():
                    if label and _about(passage, label) and _holds(passage, words):
                        kept.setdefault(node, passage)
        else:
            nodes = list(state.frontier)[:MAX_SEARCHED]
            queries = [f"{labels.get(n, '')} {' '.join(words)}" for n in nodes]
            for node, hits in zip(nodes, search_many(queries, self.home, k=5), strict=True):
                label = normalize(labels.get(node, ""))
                for passage, _ in hits:
                    if _about(passage, label) and _holds(passage, words):
                        kept[node] = passage
                        break
        frontier = {n: state.frontier[n] for n in kept}
        note = f"{len(kept)} of {len(state.frontier)} candidate(s) have a passage saying so"
        if not frontier:
            return unfiltered(state, note)
        return Retrieval(
            frontier=frontier,
            support={n: state.support.get(n, 1) for n in kept},
            passages=list(kept.values()),
            note=note,
        )


def unfiltered(state: State, note: str) -> Retrieval:
    """A filter that would keep nothing is reported, not applied (like an unsatisfiable KG
    constraint): the candidates stay as they were."""
    return Retrieval(
        frontier=dict(state.frontier),
        support=dict(state.support),
        note=f"{note}; the filter is not applied",
    )


def _about(passage: Passage, label: str) -> bool:
    """The passage is about the entity: it names it within its first sentence or so."""
    return bool(label) and label in normalize(passage.text[: len(label) + 60])


def _holds(passage: Passage, words: list[str]) -> bool:
    """Every word of the claim appears in the passage (any English form of it)."""
    text = {f for w in normalize(passage.text).split() for f in word_forms(w.strip(".,;:()"))}
    return all(word_forms(w) & text for w in words)


class SourceRouter:
    """One knowledge source for the loop that hands each action to the source of its kind."""

    def __init__(self, routes: dict[str, object]):
        self.routes = routes
        self.name = "+".join(sorted({getattr(s, "name", "?") for s in routes.values()}))

    def execute(self, action: Action, state: State) -> Retrieval:
        source = self.routes.get(action.kind)
        if source is None:
            raise ValueError(f"no knowledge source runs {action.kind!r} actions")
        return source.execute(action, state)
