"""The knowledge graph as a knowledge source of the loop: it runs hop and constraint actions.

Execution walks the store from the current frontier (fast, incremental); the query text shown
in the trace is the equivalent whole-path SPARQL from the topic entity, runnable as is with
`knowloop sparql`.
"""

from __future__ import annotations

from dataclasses import asdict, replace

from core.kg.store import KnowledgeGraph
from core.kg.terms import XSD
from core.loop import Retrieval, State
from core.trace import Action, Triple

MAX_FRONTIER = 5000  # candidate nodes kept after a hop
MAX_STEP_TRIPLES = 400  # triples a step shows (the subgraph drawn for the analyst)
MAX_COUNTED_EVIDENCE = 50  # things counted whose evidence chains a count answer carries
PER_NODE = 8  # edges per node and hop in a one-shot neighbourhood


class KGSource:
    """Knowledge source over a KnowledgeGraph (Oxigraph store)."""

    def __init__(self, kg: KnowledgeGraph):
        self.kg = kg
        self.name = f"kg:{kg.name}"

    def execute(self, action: Action, state: State) -> Retrieval:
        endpoint = getattr(self.kg, "endpoint", None)
        if endpoint is None:
            return self._run(action, state)
        try:
            return self._run(action, state)
        finally:  # what was sent to a remote KB since the last step (planning included)
            action.details["sent"] = sent_summary(endpoint.url, endpoint.drain())

    def _run(self, action: Action, state: State) -> Retrieval:
        if action.kind == "hop":
            return self._hop(action, state)
        if action.kind == "constrain":
            return self._constrain(action, state)
        if action.kind == "filter":
            return self._filter(action, state)
        if action.kind == "count":
            return self._count(action, state)
        if action.kind == "neighbourhood":
            return self._neighbourhood(action)
        if action.kind == "sparql":
            return self._sparql(action)
        raise ValueError(f"the knowledge graph cannot run a {action.kind!r} action")

    def _hop(self, action: Action, state: State) -> Retrieval:
        p = action.params
        rel, direction = p["relation"], p["direction"]
        # paths come back to the topic entity only where the agent allows it (an answer may
        # be the topic itself: "the spouse of X's husband")
        topic = None if p.get("topic_allowed") else p.get("anchor")
        if rel not in self.kg.index.relations:
            raise ValueError(f"unknown relation {rel}")
        frontier: dict[str, list[Triple]] = {}
        support: dict[str, int] = {}
        triples: list[Triple] = []
        truncated = False
        reached = self.kg.edges_from(p["from"], rel, direction)
        for node in p["from"]:
            chain = state.frontier.get(node, [])
            weight = state.support.get(node, 1)
            for other in reached.get(node, ()):
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
        if not frontier and topic is not None and p.get("through_topic") \
                and any(topic in reached.get(node, ()) for node in p["from"]):  # fmt: skip
            # the walk passes through the topic entity alone where the agent allows it ("the
            # club of the captain of X's national team", where X is the captain)
            through = self._hop(replace(action, params={**p, "topic_allowed": True}), state)
            through.note = " ".join(filter(None, [
                f"the walk passes through the topic entity {self.kg.label(topic)}, the only "
                "node this hop reaches (the query's FILTER that keeps the path off the topic "
                "is lifted for it)", through.note]))  # fmt: skip
            return through
        note = ""
        if p.get("kind"):
            frontier, support, triples, note = self._keep_kind(p["kind"], direction, frontier,
                                                               support, triples)  # fmt: skip
        return Retrieval(
            triples=triples,
            frontier=frontier,
            support=support,
            truncated=truncated,
            arrival=(rel, direction),
            note=note,
        )

    def _keep_kind(self, kind: list[str], direction: str, frontier: dict, support: dict,
                   triples: list):  # fmt: skip
        """The reached nodes that have the value a hop's word asks for ("X's *mother*": gender
        female), those facts among the step's triples (not on the evidence chains, which stay
        the path walked); all of them, with a note, when none has it (a word read wrongly must
        not empty the walk)."""
        rel, value = kind
        has = self.kg.edges_from(list(frontier), rel, "out")
        kept = [n for n in frontier if value in has.get(n, ())]
        if not kept:
            note = f"no candidate has {self.kg.label(rel)} {self.kg.label(value)}; not applied"
            return frontier, support, triples, note
        facts = {n: self.kg.triple(n, rel, value) for n in kept}
        triples = [t for t in triples if (t.o if direction == "out" else t.s) in facts]
        triples += list(facts.values())[: max(0, MAX_STEP_TRIPLES - len(triples))]
        return ({n: frontier[n] for n in kept}, {n: support[n] for n in kept}, triples,
                "")  # fmt: skip

    def _constrain(self, action: Action, state: State) -> Retrieval:
        """Keep the frontier nodes linked to another topic entity (intersection of constraints)."""
        p = action.params
        anchor, rel, direction = p["anchor"], p["relation"], p["direction"]
        # direction is seen from the frontier node: "out" means frontier -> anchor
        linked = set(self.kg.edges(anchor, rel, "in" if direction == "out" else "out"))
        # a node the plan never answers (its topic entity) does not satisfy a constraint:
        # "X's teammates at X's club" that leaves only X leaves nobody
        linked -= set(p.get("exclude", ()))
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

    def _filter(self, action: Action, state: State) -> Retrieval:
        """Keep the candidates whose literal value over `relation` satisfies the comparison
        (a superlative keeps those with the largest or smallest value)."""
        from core.constraints import Comparison

        p = action.params
        rel = p["relation"]
        comparison = Comparison(**p["comparison"])
        values: dict[str, tuple[float, str]] = {}
        for node, literals in self.kg.edges_from(state.frontier, rel, "out").items():
            for lit in literals:
                number = literal_number(lit)
                if number is not None:
                    values.setdefault(node, (number, lit))
        if comparison.op in ("max", "min"):
            pick = max if comparison.op == "max" else min
            best = pick((v for v, _ in values.values()), default=None)
            keep = [n for n, (v, _) in values.items() if v == best]
        else:
            keep = [n for n, (v, _) in values.items() if comparison.holds(v)]
        if not keep:  # an unsatisfiable filter is reported, not silently applied
            return Retrieval(
                frontier=dict(state.frontier),
                support=dict(state.support),
                note=f"no candidate has {self.kg.label(rel)} {comparison.text()}; "
                "filter not applied",
            )
        frontier, support, triples = {}, {}, []
        for node in keep:
            t = self.kg.triple(node, rel, values[node][1])
            frontier[node] = [*state.frontier[node], t]
            support[node] = state.support.get(node, 1)
            if len(triples) < MAX_STEP_TRIPLES:
                triples.append(t)
        return Retrieval(triples=triples, frontier=frontier, support=support,
                         note=f"{len(keep)} of {len(state.frontier)} candidates kept")  # fmt: skip

    def _count(self, action: Action, state: State) -> Retrieval:
        """How many candidates there are (less those the plan never answers): one number,
        whose evidence is the chains of the things counted."""
        left_out = set(action.params.get("exclude", ()))
        counted = [n for n in state.frontier if n not in left_out]
        if not counted:
            return Retrieval(note="nothing is left to count")
        number = f'"{len(counted)}"^^<{XSD}integer>'
        evidence = [t for n in counted[:MAX_COUNTED_EVIDENCE] for t in state.frontier[n]]
        last = [state.frontier[n][-1] for n in counted if state.frontier[n]]
        capped = len(state.frontier) >= MAX_FRONTIER  # the walk kept no more: a lower bound
        note = f"{len(counted)} counted"
        if len(counted) < len(state.frontier):
            note += f" ({len(state.frontier) - len(counted)} left out: the question's names)"
        if capped:
            note += f"; the walk keeps at most {MAX_FRONTIER} candidates, so there may be more"
        return Retrieval(triples=last[:MAX_STEP_TRIPLES], frontier={number: evidence},
                         support={number: 1}, truncated=capped, note=note)

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


SHOWN_QUERIES = 20  # requests a step's trace lists in full (all are counted and timed)


def sent_summary(url: str, sent: list) -> dict:
    """The requests one step sent to a remote endpoint, as the trace shows them."""
    return {
        "endpoint": url,
        "requests": len(sent),
        "ms": round(sum(q.ms for q in sent), 1),
        "queries": [asdict(q) for q in sent[:SHOWN_QUERIES]],
    }


def path_sparql(anchor: str, hops: list[tuple[str, str]], constraints=(), filters=(),
                exclude_topic: bool = True, kinds=(), count: list[str] | None = None
                ) -> str:  # fmt: skip
    """SPARQL for the answers reached from anchor along hops (linked to the constraint anchors
    and satisfying the filters: `(relation, comparison)` pairs, see core.constraints).

    Like the incremental walk, no intermediate variable comes back to the topic entity; the
    answer may be the topic itself unless `exclude_topic`. `kinds`: (hop number, relation,
    value) — the nodes that hop reaches have that value ("the *female* parent"). `count`: the
    query counts the answers, less these nodes."""
    lines, current, variables = [], anchor, []
    for i, (rel, direction) in enumerate(hops, 1):
        var = "?answer" if i == len(hops) else f"?x{i}"
        lines.append(
            f"  {current} {rel} {var} ." if direction == "out" else f"  {var} {rel} {current} ."
        )
        current = var
        variables.append(var)
    for hop, rel, value in kinds:
        if 1 <= hop <= len(variables):
            lines.append(f"  {variables[hop - 1]} {rel} {value} .")
    for c_anchor, rel, direction in constraints:
        lines.append(
            f"  ?answer {rel} {c_anchor} ."
            if direction == "out"
            else f"  {c_anchor} {rel} ?answer ."
        )
    order = ""
    for k, (rel, comparison) in enumerate(filters, 1):
        var = f"?v{k}"
        lines.append(f"  ?answer {rel} {var} .")
        if comparison.op in ("max", "min"):
            agg = "MAX" if comparison.op == "max" else "MIN"
            inner = "\n".join(lines[:-1])
            lines.append(
                f"  {{ SELECT ({agg}(?w{k}) AS {var}) WHERE {{\n{inner}\n  ?answer {rel} ?w{k} ."
                "\n  } }"
            )
        elif comparison.op == "between":
            low, high = comparison.values
            lines.append(f"  FILTER({var} >= {_num(low)} && {var} <= {_num(high)})")
        else:
            op = "=" if comparison.op == "=" else comparison.op
            lines.append(f"  FILTER({var} {op} {_num(comparison.values[0])})")
    kept = variables if exclude_topic else variables[:-1]
    lines += [f"  FILTER(!sameTerm({var}, {anchor}))" for var in kept]
    if count is not None:
        lines += [f"  FILTER(!sameTerm(?answer, {node}))" for node in dict.fromkeys(count)
                  if node != anchor or not exclude_topic]  # fmt: skip
        body = "\n".join(lines)
        return f"SELECT (COUNT(DISTINCT ?answer) AS ?count) WHERE {{\n{body}\n}}"
    body = "\n".join(lines)
    return f"SELECT DISTINCT ?answer WHERE {{\n{body}\n}}{order}"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def literal_number(node_id: str) -> float | None:
    """The number a literal node holds (a year, an integer, a decimal), or None."""
    if not node_id.startswith('"'):
        return None
    text = node_id[1:].split('"', 1)[0]
    try:
        return float(text[:4]) if len(text) >= 10 and text[4] == "-" else float(text)
    except ValueError:
        return None
