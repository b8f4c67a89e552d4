"""Build a small synthetic scholarly knowledge base the engine has never seen, plus questions.

Writes into benchmarks/data/scholar/:

- kb.tsv — one triple per line, ``head<TAB>relation<TAB>tail``, no header. Researchers,
  institutions, towns, nations, papers, publication outlets and research fields, every name
  generated from syllables (no two entities share a label). Relation names are short opaque
  codes (``affil``, ``loc``, ``ctry``, ``auth``, ``venue``, ``topic``, ``advisor``,
  ``birthplace``, ``yr``) that share no word with the question wording.
- questions.tsv — header ``question<TAB>answers<TAB>qtype``; the topic entity sits in
  [square brackets], answers are ALL gold answers reached by the path, joined by ``|``,
  and qtype names the relation path (``_in`` marks a reversed hop).

    python scripts/build_unseen_kb.py   # deterministic (fixed seed)
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "data" / "scholar"
SEED = 20240607
PER_QTYPE = 60
MAX_ANSWERS = 20

N_COUNTRIES = 8
N_CITIES = 32
N_INSTITUTIONS = 40
N_FIELDS = 10
N_PERSONS = 320
N_SENIORS = 60
N_PAPERS = 520
YEARS = (1995, 2024)

# Substrings no generated name or question wording may contain: the relation codes and the
# obvious stems of the words they abbreviate.
FORBIDDEN = tuple("affil loc ctry country auth venue topic advis birth born yr year".split())

ONSETS = tuple("b d f g k l m n p r s t v z br dr kr tr th sh qu st".split()) + ("",)
VOWELS = ("a", "a", "e", "e", "i", "o", "u", "ai", "ei")
CODAS = ("", "", "", "", "n", "r", "l", "s", "m")
CLUSTER = re.compile(r"[aeiou]{3}|[^aeiou]{3}|([aeiou])\1")

Graph = dict[str, dict[str, list[str]]]


class Namer:
    """Generate pronounceable names, unique across the whole KB."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def word(self, syllables: int, ending: str = "") -> str:
        """One capitalised pseudo-word that contains no forbidden substring."""
        while True:
            parts = [
                self.rng.choice(ONSETS) + self.rng.choice(VOWELS) + self.rng.choice(CODAS)
                for _ in range(syllables)
            ]
            w = ("".join(parts) + ending).capitalize()
            low = w.lower()
            if (
                3 <= len(w) <= 11
                and not CLUSTER.search(low.replace("qu", "q"))
                and not any(f in low for f in FORBIDDEN)
            ):
                return w

    def unique(self, make: Callable[[], str]) -> str:
        """Call ``make`` until it yields a label not used anywhere in the KB yet."""
        while True:
            label = make()
            if label.lower() not in self.used:
                self.used.add(label.lower())
                return label


def build_kb(rng: random.Random) -> list[tuple[str, str, str]]:
    """Generate the entities and return the triples, in a fixed order."""
    nm = Namer(rng)
    triples: list[tuple[str, str, str]] = []

    countries = [
        nm.unique(lambda: nm.word(rng.choice((2, 3)), rng.choice(("ia", "and", "ora", "esh"))))
        for _ in range(N_COUNTRIES)
    ]
    cities = [nm.unique(lambda: nm.word(rng.choice((1, 2, 3)))) for _ in range(N_CITIES)]
    for i, city in enumerate(cities):
        # Every nation gets at least one town; the rest are spread at random.
        ctry = countries[i] if i < N_COUNTRIES else rng.choice(countries)
        triples.append((city, "ctry", ctry))

    inst_forms = (
        "{} Institute of Technology",
        "{} University",
        "{} College",
        "{} Research Centre",
        "Polytechnic of {}",
        "{} Academy of Sciences",
    )
    institutions = [
        nm.unique(lambda: rng.choice(inst_forms).format(nm.word(rng.choice((2, 3)))))
        for _ in range(N_INSTITUTIONS)
    ]
    inst_city: dict[str, str] = {}
    for inst in institutions:
        inst_city[inst] = rng.choice(cities)
        triples.append((inst, "loc", inst_city[inst]))

    fields = [
        nm.unique(lambda: nm.word(rng.choice((2, 3)), rng.choice(("ology", "ics", "onomy"))))
        for _ in range(N_FIELDS)
    ]
    venues: list[str] = []
    venue_field: dict[str, str] = {}
    other_forms = (
        "{} Letters",
        "Proceedings of the {} Symposium",
        "{} Review",
        "Annals of {} Studies",
    )
    for f in fields:
        for name in (
            nm.unique(lambda f=f: f"Journal of {f}"),
            nm.unique(lambda: rng.choice(other_forms).format(nm.word(2))),
        ):
            venues.append(name)
            venue_field[name] = f

    persons = [
        nm.unique(
            lambda: (
                f"{nm.word(rng.choice((2, 3)), rng.choice(('', 'a', 'o')))} "
                f"{nm.word(2, rng.choice(('', 'esk', 'ov', 'ard', 'ine', 'ez')))}"
            )
        )
        for _ in range(N_PERSONS)
    ]
    p_inst: dict[str, str] = {}
    p_field: dict[str, str] = {}
    students: dict[str, list[str]] = defaultdict(list)
    mentor: dict[str, str] = {}
    popularity = [rng.paretovariate(1.5) for _ in persons]
    for i, p in enumerate(persons):
        if i >= N_SENIORS and rng.random() < 0.75:
            # Supervisors come from earlier cohorts; a few popular ones take many students.
            pool = persons[: max(N_SENIORS, i // 2)]
            adv = rng.choices(pool, weights=popularity[: len(pool)])[0]
            mentor[p] = adv
            students[adv].append(p)
            p_field[p] = p_field[adv] if rng.random() < 0.8 else rng.choice(fields)
            p_inst[p] = p_inst[adv] if rng.random() < 0.3 else rng.choice(institutions)
        else:
            p_field[p] = rng.choice(fields)
            p_inst[p] = rng.choice(institutions)
        triples.append((p, "affil", p_inst[p]))
        triples.append((p, "birthplace", rng.choice(cities)))
        if p in mentor:
            triples.append((p, "advisor", mentor[p]))

    by_inst: dict[str, list[str]] = defaultdict(list)
    for p in persons:
        by_inst[p_inst[p]].append(p)
    productivity = [rng.paretovariate(2.0) for _ in persons]

    adjs = sorted({nm.word(2, rng.choice(("ic", "al", "ive", "ant"))) for _ in range(60)})
    nouns = sorted({nm.word(2, rng.choice(("ism", "on", "ure", "ance", "ix"))) for _ in range(60)})
    title_forms = (
        "On {a} {n}",
        "Towards {a} {n} {n2}",
        "{a} {n} for {a2} {n2}",
        "{n} and {n2} in {a} {n3}",
        "A Study of {a} {n}",
        "{a} {n} Revisited",
        "Rethinking {n} under {a} {n2}",
    )
    for i in range(N_PAPERS):
        title = nm.unique(
            lambda: rng.choice(title_forms).format(
                a=rng.choice(adjs),
                a2=rng.choice(adjs),
                n=rng.choice(nouns),
                n2=rng.choice(nouns),
                n3=rng.choice(nouns),
            )
        )
        lead = persons[i] if i < N_PERSONS else rng.choices(persons, weights=productivity)[0]
        n_auth = rng.choices((1, 2, 3, 4), weights=(20, 35, 30, 15))[0]
        team = [lead]
        while len(team) < n_auth:
            r = rng.random()
            if r < 0.45:
                pool = by_inst[p_inst[lead]]
            elif r < 0.75:
                pool = students.get(lead, []) + ([mentor[lead]] if lead in mentor else [])
            else:
                pool = persons
            cands = [p for p in pool if p not in team] or [p for p in persons if p not in team]
            team.append(rng.choice(cands))
        field = p_field[lead] if rng.random() < 0.8 else rng.choice(fields)
        venue = rng.choice([v for v in venues if venue_field[v] == field])
        triples.append((title, "yr", str(rng.randint(*YEARS))))
        triples.append((title, "venue", venue))
        triples.append((title, "topic", field))
        for p in team:
            triples.append((title, "auth", p))
    return triples


# qtype -> (relation path, wordings). A path step "rel" follows head->tail, "rel_in" goes
# tail->head. Wordings avoid the relation codes and their stems (checked in main()).
QTYPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # one hop
    "affil": (
        ("affil",),
        (
            "who is the employer of [{}]",
            "which institution does [{}] work for",
            "which organisation employs [{}]",
        ),
    ),
    "auth": (
        ("auth",),
        (
            "who wrote [{}]",
            "who penned [{}]",
            "which researchers are credited with writing [{}]",
        ),
    ),
    "auth_in": (
        ("auth_in",),
        (
            "which papers did [{}] write",
            "what has [{}] penned",
            "list the works written by [{}]",
        ),
    ),
    "advisor_in": (
        ("advisor_in",),
        (
            "who studied under [{}]",
            "which students did [{}] supervise",
            "whose doctoral mentor was [{}]",
        ),
    ),
    "birthplace": (
        ("birthplace",),
        (
            "in which town did [{}] come into the world",
            "what is the hometown of [{}]",
            "where did [{}] come into the world",
        ),
    ),
    "topic": (
        ("topic",),
        (
            "what field is [{}] about",
            "which research area does [{}] address",
            "what discipline does [{}] belong to",
        ),
    ),
    "yr": (
        ("yr",),
        (
            "when was [{}] published",
            "when did [{}] come out",
            "what is the publication date of [{}]",
        ),
    ),
    # two hops
    "affil_loc": (
        ("affil", "loc"),
        (
            "which town hosts the employer of [{}]",
            "in what town does [{}] work",
            "where is the workplace of [{}] situated",
        ),
    ),
    "loc_ctry": (
        ("loc", "ctry"),
        (
            "which nation is [{}] in",
            "what nation hosts [{}]",
            "in which nation does [{}] operate",
        ),
    ),
    "birthplace_ctry": (
        ("birthplace", "ctry"),
        (
            "in which nation did [{}] come into the world",
            "what nation does [{}] originally hail from",
            "what is the native land of [{}]",
        ),
    ),
    "auth_affil": (
        ("auth", "affil"),
        (
            "which institutions employ the writers of [{}]",
            "where do the people who wrote [{}] work",
            "which organisations employ the people who penned [{}]",
        ),
    ),
    "auth_in_venue": (
        ("auth_in", "venue"),
        (
            "which outlets has [{}] published in",
            "in which journals or proceedings has [{}] published",
            "what publications carried the work of [{}]",
        ),
    ),
    "auth_in_topic": (
        ("auth_in", "topic"),
        (
            "what fields has [{}] written about",
            "which research areas does [{}] publish in",
            "what disciplines do the papers of [{}] cover",
        ),
    ),
    "advisor_affil": (
        ("advisor", "affil"),
        (
            "where does the supervisor of [{}] work",
            "which institution employs the doctoral mentor of [{}]",
            "who employs the person that supervised [{}]",
        ),
    ),
    "auth_in_auth": (
        ("auth_in", "auth"),
        (
            "who has co-written papers with [{}]",
            "which researchers wrote papers together with [{}]",
            "who shared a byline with [{}]",
        ),
    ),
    # three hops
    "affil_loc_ctry": (
        ("affil", "loc", "ctry"),
        (
            "in what nation is the employer of [{}]",
            "which nation does [{}] work in",
            "what nation hosts the institution that employs [{}]",
        ),
    ),
    "auth_affil_loc": (
        ("auth", "affil", "loc"),
        (
            "in which towns do the writers of [{}] work",
            "what towns host the employers of the people who penned [{}]",
            "where are the workplaces of the writers of [{}] situated",
        ),
    ),
}
# Paths that meet the topic entity again (co-writers) leave it out of the answers.
EXCLUDE_SELF = {"auth_in_auth"}


def index(triples: list[tuple[str, str, str]]) -> Graph:
    """Adjacency: graph[entity][rel] and graph[entity][rel + '_in'] -> neighbours."""
    g: Graph = defaultdict(lambda: defaultdict(list))
    for h, r, t in triples:
        g[h][r].append(t)
        g[t][r + "_in"].append(h)
    return g


def follow(g: Graph, start: str, path: tuple[str, ...]) -> set[str]:
    """All entities reached from ``start`` along ``path``."""
    frontier = {start}
    for rel in path:
        frontier = {n for e in frontier for n in g[e].get(rel, ())}
    return frontier


def build_questions(
    rng: random.Random, triples: list[tuple[str, str, str]]
) -> list[tuple[str, str, str]]:
    """Sample up to PER_QTYPE distinct topic entities per qtype; return shuffled rows."""
    g = index(triples)
    entities = sorted({h for h, _, _ in triples} | {t for _, _, t in triples})
    rows: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for qtype, (path, wordings) in QTYPES.items():
        cands: list[tuple[str, list[str]]] = []
        for e in entities:
            if path[0] not in g[e]:
                continue
            ans = follow(g, e, path)
            if qtype in EXCLUDE_SELF:
                ans.discard(e)
            if 0 < len(ans) <= MAX_ANSWERS:
                cands.append((e, sorted(ans)))
        for e, ans in rng.sample(cands, min(PER_QTYPE, len(cands))):
            q = rng.choice(wordings).format(e)
            if q not in seen:
                seen.add(q)
                rows.append((q, "|".join(ans), qtype))
    rng.shuffle(rows)
    return rows


def check_wordings() -> None:
    """Fail loudly if a wording leaks a relation code or its stem."""
    for qtype, (_, wordings) in QTYPES.items():
        for w in wordings:
            bad = [f for f in FORBIDDEN if f in w.replace("[{}]", "").lower()]
            if bad:
                raise SystemExit(f"{qtype}: wording {w!r} contains {bad}")


def main() -> None:
    """Generate the KB and questions, write them, print a summary."""
    check_wordings()
    rng = random.Random(SEED)
    triples = build_kb(rng)
    rows = build_questions(rng, triples)
    for row in triples:
        if any(re.search(r"[\t\n|\[\]]", c) for c in row):
            raise SystemExit(f"bad characters in triple {row}")
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "kb.tsv").open("w", encoding="utf-8", newline="\n") as f:
        f.writelines(f"{h}\t{r}\t{t}\n" for h, r, t in triples)
    with (OUT / "questions.tsv").open("w", encoding="utf-8", newline="\n") as f:
        f.write("question\tanswers\tqtype\n")
        f.writelines(f"{q}\t{a}\t{t}\n" for q, a, t in rows)

    rel_counts: dict[str, int] = defaultdict(int)
    for _, r, _ in triples:
        rel_counts[r] += 1
    print(f"{len(triples)} triples -> {OUT / 'kb.tsv'}")
    print("  " + ", ".join(f"{r}={n}" for r, n in sorted(rel_counts.items())))
    q_counts: dict[str, int] = defaultdict(int)
    for _, _, t in rows:
        q_counts[t] += 1
    print(f"{len(rows)} questions -> {OUT / 'questions.tsv'}")
    for qtype in QTYPES:
        print(f"  {qtype:16s} {q_counts[qtype]}")


if __name__ == "__main__":
    main()
