"""Entity search for people picking a node: of the nodes named like the text, which is meant.

`KnowledgeGraph.lookup` finds the nodes (exact, normalised, fuzzy) and ranks them by score,
so a lowercase query ranks a lowercase twin first: in the bundled movie KB a keyword node
named like a person wins over the person. Here the ranking reads general signals instead:

1. an exact match counts only when the text carries case (has a capital): a text typed all
   in lowercase says nothing about which spelling is meant;
2. among nodes named alike: more kinds of facts first (distinct relation/direction pairs the
   node takes part in; a keyword node is only ever the object of one relation), then the
   relations it is the subject of (a node described by facts of its own), then a label
   written with capitals (a name as written) over its all-lowercase twin, then degree;
3. fuzzy matches after every node named alike, by score, then the same signals.

Nothing here knows a relation name.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.kg.store import KnowledgeGraph

NAMED_ALIKE = ("exact", "normalized")  # EntityMatch.how of a node named like the text


@dataclass(frozen=True)
class Candidate:
    """A node the text may mean, with what its rank was decided on."""

    id: str
    label: str
    score: float  # KnowledgeGraph.lookup's: 1.0 exact, 0.95 normalised, < 0.9 fuzzy
    how: str  # "exact", "normalized" or "fuzzy"
    degree: int  # triples it takes part in
    relations: int  # distinct (relation, direction) pairs it takes part in
    described: int  # relations it is the subject of

    @property
    def capitalised(self) -> bool:
        return self.label != self.label.lower()


def find_entities(kg: KnowledgeGraph, text: str, limit: int = 8) -> list[Candidate]:
    """The nodes `text` may name, the most likely first (see the module docstring)."""
    text = text.strip()
    if not text:
        return []
    found = []
    for m in kg.lookup(text, limit=max(2 * limit, limit + 8)):
        roles = kg.roles(m.id)
        described = len({rel for rel, direction in roles if direction == "out"})
        found.append(Candidate(m.id, m.label, m.score, m.how, m.degree, len(roles), described))
    has_case = text != text.lower()
    return sorted(found, key=lambda c: _rank(c, has_case))[:limit]


def _rank(c: Candidate, has_case: bool) -> tuple:
    if c.how in NAMED_ALIKE:
        tier, score = (0 if has_case and c.how == "exact" else 1), 0.0
    else:
        tier, score = 2, -c.score
    return (tier, score, -c.relations, -c.described, not c.capitalised, -c.degree, c.label)
