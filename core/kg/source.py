"""The knowledge graph as a knowledge source of the loop: it runs hop and constraint actions.

Execution walks the store from the current frontier (fast, incremental); the query text shown
in the trace is the equivalent whole-path SPARQL from the topic entity, runnable as is with
`knowloop sparql`.
"""

from __future__ import annotations

from core.kg.store import KnowledgeGraph
from core.loop import Retrieval, State
from core.trace import Action, Triple

MAX_FRONTIER = 5000  # candidate nodes kept after a hop
MAX_STEP_TRIPLES = 400  # triples a step shows (the subgraph drawn for the analyst)
PER_NODE = 8  # edges per node and hop in a one-shot neighbourhood


class KGSource:
    """Knowledge source over a KnowledgeGraph (Oxigraph store)."""

    def __init__(self, kg: KnowledgeGraph):
        self.kg = kg
        self.name = f"kg:{kg.name}"

    def execute(self, action: Action, state: State) -> Retrieval:
        if action.kind == "hop":
            return self._hop(action, state)
        if action.kind == "constrain":
            return self._constrain(action, state)
        if action.kind == "neighbourhood":
            return self._neighbourhood(action)
        if action.kind == "sparql":
            return self._sparql(action)
        raise ValueError(f"the knowledge graph cannot run a {action.kind!r} action")

    def _hop(self, action: Action, state: State) -> Retrieval:
        p = action.params
        rel, direction, topic = p["relation"], p["direction"], p.get("anchor")
        if rel not in self.kg.index.relations:
            raise ValueError(f"unknown relation {rel}")
        frontier: dict[str, list[Triple]] = {}
        support: dict[str, int] = {}
        triples: list[Triple] = []
        truncated = False
        for node in p["from"]:
            chain = state.frontier.get(node, [])
            weight = state.support.get(node, 1)
            for other in self.kg.edges(node, rel, direction):
                if other == topic:  # paths never come back to the topic entity
                    continue
                t = (
                    self.kg.triple(node, rel, other)
                    if direction == "out"
                    else self.kg.triple(other, rel, node)
                )
                if len(triples) < MAX_STEP_TRIPLES:
                    triples.append(t)
                if other in frontier:
                    support[other] += weight
                elif len(frontier) < MAX_FRONTIER:
                    frontier[other] = [*chain, t]
                    support[other] = weight
                else:
                    truncated = True
        return Retrieval(
            triples=triples,
            frontier=frontier,
            support=support,
            truncated=truncated,
            arrival=(rel, direction),
        )

    def _constrain(self, action: Action, state: State) -> Retrieval:
        """Keep the frontier nodes linked to another topic entity (intersection of constraints)."""
        p = action.params
        anchor, rel, direction = p["anchor"], p["relation"], p["direction"]
        # direction is seen from the frontier node: "out" means frontier -> anchor
        linked = set(self.kg.edges(anchor, rel, "in" if direction == "out" else "out"))
        frontier, support, triples = {}, {}, []
        for node, chain in state.frontier.items():
            if node in linked:
                t = (
                    self.kg.triple(node, rel, anchor)
                    if direction == "out"
                    else self.kg.triple(anchor, rel, node)
                )
                frontier[node] = [*chain, t]
                support[node] = state.support.get(node, 1)
                if len(triples) < MAX_STEP_TRIPLES:
                    triples.append(t)
        if not frontier:  # an unsatisfiable constraint is reported, not silently applied
            return Retrieval(
                triples=[],
                frontier=dict(state.frontier),
                support=dict(state.support),
                note=f"no candidate is linked to {self.kg.label(anchor)}; constraint not applied",
            )
        return Retrieval(triples=triples, frontier=frontier, support=support)

    def _sparql(self, action: Action) -> Retrieval:
        """A written SPARQL query (guarded): the nodes of its first column are the candidates."""
        result = self.kg.sparql(action.query, max_rows=MAX_FRONTIER)
        frontier = {}
        for row in result.terms:
            if row and row[0] is not None:
                frontier.setdefault(str(row[0]), [])
        return Retrieval(
            frontier=frontier,
            support={n: 1 for n in frontier},
            truncated=result.truncated,
            note=f"{len(result.rows)} row(s) from the written query",
        )

    def _neighbourhood(self, action: Action) -> Retrieval:
        """One-shot retrieval: a bounded subgraph around the anchors, ranked. First the
        triples along the given relation paths (best first, `PER_NODE` edges per node and
        hop), then each anchor's own neighbourhood, until `limit` triples."""
        p = action.params
        anchors, limit = list(p["anchors"]), int(p.get("limit", 40))
        frontier: dict[str, list[Triple]] = {}
        triples: list[Triple] = []
        seen: set[Triple] = set()

        def add(t: Triple, node: str, chain: list[Triple]) -> bool:
            if len(triples) >= limit:
                return False
            if t not in seen:
                seen.add(t)
                triples.append(t)
            if node not in anchors and node not in frontier:
                frontier[node] = [*chain, t]
            return True

        for anchor, hops in p.get("paths", ()):
            level = {anchor: []}
            for rel, direction in hops:
                nxt: dict[str, list[Triple]] = {}
                for node, chain in level.items():
                    others = self.kg.edges(node, rel, direction)[:PER_NODE]
                    for other in others:
                        if other in anchors:
                            continue
                        t = (
                            self.kg.triple(node, rel, other)
                            if direction == "out"
                            else self.kg.triple(other, rel, node)
                        )
                        if not add(t, other, chain):
                            break
                        nxt.setdefault(other, [*chain, t])
                level = nxt
        for anchor in anchors:
            for t in self.kg.neighbourhood(anchor, limit=limit):
                other = t.o if t.s == anchor else t.s
                if not add(t, other, []):
                    break
        return Retrieval(
            triples=triples,
            frontier=frontier,
            support={n: 1 for n in frontier},
            truncated=len(triples) >= limit,
        )


def path_sparql(anchor: str, hops: list[tuple[str, str]], constraints=()) -> str:
    """SPARQL for the answers reached from anchor along hops (and linked to constraint anchors).

    Like the incremental walk, no variable may come back to the topic entity."""
    lines, current, variables = [], anchor, []
    for i, (rel, direction) in enumerate(hops, 1):
        var = "?answer" if i == len(hops) else f"?x{i}"
        lines.append(
            f"  {current} {rel} {var} ." if direction == "out" else f"  {var} {rel} {current} ."
        )
        current = var
        variables.append(var)
    for c_anchor, rel, direction in constraints:
        lines.append(
            f"  ?answer {rel} {c_anchor} ."
            if direction == "out"
            else f"  {c_anchor} {rel} ?answer ."
        )
    lines += [f"  FILTER(!sameTerm({var}, {anchor}))" for var in variables]
    body = "\n".join(lines)
    return f"SELECT DISTINCT ?answer WHERE {{\n{body}\n}}"
