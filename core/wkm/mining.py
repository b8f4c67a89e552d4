"""Expert paths mined from the KG: where the agent failed, which relation path leads from the
question's linked entity to the gold answers?

Paths are walked over the KB's real relations (both directions) by iterative deepening up to
`max_hops`; a path is scored by the set F1 of the answers it reaches against the gold set
(the topic entity itself never counts). The best path has the highest F1, then the fewest
hops, then the fewest spurious answers; the search stops deepening once a path reaches the
gold set exactly. Nothing here knows the KB's relation names.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.kg.store import KnowledgeGraph
from core.metrics import answer_key, answer_keys

MAX_FRONTIER = 3000  # nodes a path may reach before it is not followed further
MAX_NODES_EXPANDED = 300  # nodes whose relations are listed per expansion


@dataclass
class MinedPath:
    anchor: str
    hops: list[tuple[str, str]]
    hits: int  # gold answers reached
    spurious: int  # other nodes reached
    f1: float

    def rank(self) -> tuple:
        return (-self.f1, len(self.hops), self.spurious)


def mine_path(kg: KnowledgeGraph, anchors: list[str], gold: list[str],
              max_hops: int = 3) -> MinedPath | None:  # fmt: skip
    """The best path from any of `anchors` to the gold answers, or None if none reaches one."""
    want = answer_keys(gold)
    if not want:
        return None
    best: MinedPath | None = None
    layer = [(anchor, [], {anchor}) for anchor in anchors]
    for _ in range(max_hops):
        next_layer = []
        for anchor, hops, nodes in layer:
            for hop in _hops_from(kg, nodes, hops):
                reached = _follow(kg, nodes, hop)
                if not reached:
                    continue
                path = [*hops, hop]
                found = _score(kg, anchor, path, reached - {anchor}, want)
                if found and (best is None or found.rank() < best.rank()):
                    best = found
                if len(reached) <= MAX_FRONTIER:
                    next_layer.append((anchor, path, reached))
        if best is not None and best.f1 >= 0.999:
            break  # exact at this depth: a longer path cannot be shorter
        layer = next_layer
    return best


def _hops_from(kg: KnowledgeGraph, nodes: set[str], walked: list) -> list[tuple[str, str]]:
    hops = dict.fromkeys(h for n in list(nodes)[:MAX_NODES_EXPANDED] for h in kg.roles(n))
    if len(walked) >= 2:  # r, r⁻¹, r walks back and forth: it adds nothing
        (r1, d1), (r2, d2) = walked[-2], walked[-1]
        if r1 == r2 and d1 != d2:
            hops.pop((r1, d1), None)
    return list(hops)


def _follow(kg: KnowledgeGraph, nodes: set[str], hop: tuple[str, str]) -> set[str]:
    rel, direction = hop
    out: set[str] = set()
    for n in nodes:
        out.update(kg.edges(n, rel, direction))
        if len(out) > MAX_FRONTIER * 4:
            break
    return out


def _score(kg: KnowledgeGraph, anchor: str, hops: list, reached: set[str],
           want: set[str]) -> MinedPath | None:  # fmt: skip
    labels = {answer_key(kg.label(n)) for n in reached}
    hits = len(labels & want)
    if not hits:
        return None
    spurious = len(labels - want)
    precision, recall = hits / len(labels), hits / len(want)
    f1 = 2 * precision * recall / (precision + recall)
    return MinedPath(anchor, hops, hits, spurious, round(f1, 4))
