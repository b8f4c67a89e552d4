#!/usr/bin/env python3
"""Build the count questions of the dev KBs: "how many N …", answered by counting what a
relation links (or, where the KB states the number, by that number).

    python scripts/devsets/build_counts.py

Writes benchmarks/data/<kb>/questions_count.tsv (question, answers, qtype, kind, hops) for the
family, football, music and science KBs, reading each KB's own kb.tsv. The gold answer is the
number of distinct nodes the relation links to the entity (the entity itself left out), or the
value of the KB's own number relation where the template names one. Entities are drawn with a
fixed seed among those with at least two linked nodes, so re-running gives identical files.

The wordings were written on 2026-12-06, after the engine's counting (README, "How many may
count"), by the person who wrote it: a check of that capability, not an unseen measure.
"""

from __future__ import annotations

import collections
import random
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
PER_TEMPLATE = 6
SEED = 20261206

# per KB: (template, relation, direction, stated[, class]) — direction "out": count the
# objects of {x}'s relation; "in": count the subjects whose relation points at {x}; stated:
# the answer is {x}'s own value of that relation (a number the KB holds), not a count; class:
# only the nodes of that class count (X `author_of` books as well as papers)
TEMPLATES: dict[str, list[tuple]] = {
    "family": [
        ("How many children does {x} have?", "child", "out", False),
        ("how many kids has {x} got", "child", "out", False),
        ("What is the number of children of {x}?", "child", "out", False),
        ("{x} has how many children?", "child", "out", False),
        ("How many siblings does {x} have?", "sibling", "out", False),
        ("How many languages does {x} speak?", "languages_spoken", "out", False),
        ("Count {x}'s children.", "child", "out", False),
    ],
    "football": [
        ("How many players does {x} have?", "playsForClub", "in", False),
        ("how many players are on the books at {x}", "playsForClub", "in", False),
        ("How many clubs play in the {x}?", "league", "in", False),
        ("How many former clubs does {x} have?", "formerClub", "out", False),
        ("How many seats does {x} have?", "capacity", "out", True),
        ("count the players at {x}", "playsForClub", "in", False),
    ],
    "music": [
        ("How many members does {x} have?", "member of", "in", False),
        ("How many instruments does {x} play?", "plays instrument", "out", False),
        ("How many tracks are on {x}?", "track of", "in", False),
        ("How many songs did {x} write?", "written by", "in", False, "song"),
        ("How many people can {x} hold?", "capacity", "out", True),
        ("Count the tracks on {x}.", "track of", "in", False),
    ],
    "science": [
        ("How many papers has {x} authored?", "author_of", "out", False, "paper"),
        ("How many collaborators does {x} have?", "collaborator", "out", False),
        ("How many fields does {x} work in?", "field_of_work", "out", False),
        ("How many doctoral students did {x} supervise?", "doctoral_advisor", "in", False),
        ("How many employees does {x} have?", "number_of_employees", "out", True),
        ("please count the papers {x} has written", "author_of", "out", False, "paper"),
    ],
}


CLASS_RELATIONS = ("instance of", "instance_of")


def read_kb(path: Path) -> list[tuple[str, str, str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split("\t")
        if len(parts) == 3:
            rows.append((parts[0], parts[1], parts[2]))
    return rows


def questions(kb: str, rows: list[tuple[str, str, str]]) -> list[list[str]]:
    linked: dict[tuple[str, str], dict[str, list[str]]] = {}
    for s, p, o in rows:
        linked.setdefault((p, "out"), collections.defaultdict(list))[s].append(o)
        linked.setdefault((p, "in"), collections.defaultdict(list))[o].append(s)
    classes = {s: o for s, p, o in rows if p in CLASS_RELATIONS}
    rng = random.Random(f"{SEED}-{kb}")
    out = []
    for template, rel, direction, stated, *cls in TEMPLATES[kb]:
        links = {x: [v for v in values if not cls or classes.get(v) == cls[0]]
                 for x, values in linked.get((rel, direction), {}).items()}
        if stated:
            pool = sorted(x for x, values in links.items() if len(values) == 1)
        else:
            pool = sorted(x for x, values in links.items()
                          if len(set(values) - {x}) >= 2)  # fmt: skip
        for x in rng.sample(pool, min(PER_TEMPLATE, len(pool))):
            values = links[x]
            gold = values[0] if stated else str(len(set(values) - {x}))
            qtype = rel if stated else f"count({'^' if direction == 'in' else ''}{rel})"
            out.append([template.format(x=x), gold, qtype, "stated" if stated else "count", "1"])
    return out


def main() -> None:
    for kb in TEMPLATES:
        rows = read_kb(DATA / kb / "kb.tsv")
        lines = ["question\tanswers\tqtype\tkind\thops"]
        lines += ["\t".join(q) for q in questions(kb, rows)]
        (DATA / kb / "questions_count.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(kb, len(lines) - 1)


if __name__ == "__main__":
    main()
