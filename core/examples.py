"""Example questions for a KB: drawn from the question files that came with it, else written
from its own relations — so the examples a page offers always belong to the KB on show."""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.evaluate import read_questions
from core.kg.store import KnowledgeGraph
from core.kg.terms import is_literal_id
from core.workspace import Workspace


@dataclass(frozen=True)
class Examples:
    questions: list[str]
    origin: str  # where they come from, for the caption ("the question files of X", …)


def examples_for(workspace: Workspace, kb: str, n: int = 4, seed: int = 7) -> Examples:
    """`n` stable examples (fixed seed): round-robin over the KB's question files, else
    generated from its most used relations."""
    files = workspace.question_files(kb)
    if files:
        return Examples(_from_files(files, n, seed), f"the question files of {kb}")
    return Examples(generated(workspace.kg(kb), n, seed), f"the relations of {kb}")


def _from_files(files, n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pools = []
    for path in files:
        try:
            pools.append([q.question for q in read_questions(path, strip_brackets=True)])
        except ValueError:  # a file that stopped being readable: offer the others
            continue
    picked: list[str] = []
    while len(picked) < n and any(pools):
        for pool in pools:
            if pool and len(picked) < n:
                picked.append(pool.pop(rng.randrange(len(pool))))
    return picked


def generated(kg: KnowledgeGraph, n: int = 4, seed: int = 7) -> list[str]:
    """"what is the <relation> of <entity>?" for the `n` most used relations, each about a
    subject picked at random (fixed seed) among the entities that have that relation."""
    index = kg.index
    ranked = sorted(index.rel_ids, key=lambda r: -index.relations[r].count)[:n]
    wanted = {2 * index.rel_ids.index(r): r for r in ranked}  # the out-role of each relation
    subjects: dict[int, list[str]] = {code: [] for code in wanted}
    if index.nodes is not None:  # millions of nodes on disk: the sample of each relation's subjects
        for code in wanted:
            subjects[code] = [n for n in index.reach.get(code + 1, ()) if not is_literal_id(n)]
    else:
        for node, roles in index.roles.items():
            if is_literal_id(node):
                continue
            for code in roles:
                if code in subjects:
                    subjects[code].append(node)
    rng = random.Random(seed)
    out = []
    for code, rel in wanted.items():
        if subjects[code]:
            node = rng.choice(sorted(subjects[code]))
            out.append(phrase(kg.label(rel), kg.label(node)))
    return out


_PREPOSITIONS = {"at", "by", "for", "from", "in", "into", "of", "on", "to", "with"}


def phrase(relation: str, entity: str) -> str:
    """A relation label read as a question about an entity: a noun ("capital") as "what is the
    capital of France", a verb phrase ("born in", "directed by") as "Ann Lee born in what"."""
    words = relation.split()
    if words and (words[-1].lower() in _PREPOSITIONS or words[0].lower().endswith("ed")):
        return f"{entity} {relation} what"
    return f"what is the {relation} of {entity}"
