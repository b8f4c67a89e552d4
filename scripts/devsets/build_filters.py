#!/usr/bin/env python3
"""Build the `filters` evaluation set: filter / comparison questions on top of a KB relation.

Every question names one person (director, writer or actor, exact KB label) and asks for
that person's films restricted by a constraint: a release-year comparison (before, after,
between, equal), an extreme (latest, earliest), a genre, a language, or a genre plus a
year comparison. Gold answers are computed from the MetaQA movie KB.

Two files are written, with disjoint wording templates and disjoint anchor persons:

    benchmarks/data/filters/questions.tsv          (tuning)
    benchmarks/data/filters/questions_heldout.tsv  (held-out)

Standard library only, deterministic (fixed seed). Run from the repository root:

    python scripts/devsets/build_filters.py
"""

from __future__ import annotations

import collections
import csv
import os
import random
import re
import sys

SEED = 20250321
KB_PATH = os.path.join("kb_data", "metaqa", "kb.txt")
OUT_DIR = os.path.join("benchmarks", "data", "filters")
TUNING_FILE = "questions.tsv"
HELDOUT_FILE = "questions_heldout.tsv"

RELS = ("directed_by", "written_by", "starred_actors")
KINDS = ("year-before", "year-after", "year-between", "year-equal", "latest", "earliest",
         "genre", "language", "genre+year")
# Kinds are filled scarcest-first so the scarce anchors (language) are not used up by
# the plentiful kinds; the output order is shuffled afterwards.
FILL_ORDER = ("language", "genre+year", "genre", "latest", "earliest", "year-equal",
              "year-between", "year-before", "year-after")
N_TUNING = 30    # per kind
N_HELDOUT = 14   # per kind
MAX_ANSWERS = 15
MIN_FILMS = 3

# --------------------------------------------------------------------------------------
# Wording resources
# --------------------------------------------------------------------------------------

NOUNS = ("films", "movies", "pictures", "features")
SNOUNS = ("film", "movie", "picture", "feature")

# Per relation: base verb ("did X ___"), past ("X ___"), participle ("has X ___"),
# passive phrases around the person, possessive nouns ("X's ___"), role nouns
# ("with X as ___"), filmography nouns and debut phrases.
VERBS = {
    "directed_by": {
        "base": ("direct", "make", "helm", "shoot"),
        "past": ("directed", "made", "helmed", "shot"),
        "part": ("directed", "made", "helmed", "shot"),
        "pass": ("directed by {p}", "made by {p}", "helmed by {p}", "shot by {p}"),
        "poss": ("directing credits", "directorial efforts"),
        "poss_s": ("directing credit", "directorial effort"),
        "role": ("director",),
        "filmo": ("directing filmography", "work as a director"),
        "debut": ("directorial debut", "first outing as a director"),
    },
    "written_by": {
        "base": ("write", "pen", "script"),
        "past": ("wrote", "penned", "scripted"),
        "part": ("written", "penned", "scripted"),
        "pass": ("written by {p}", "penned by {p}", "scripted by {p}"),
        "poss": ("screenplays", "writing credits", "scripts"),
        "poss_s": ("screenplay", "writing credit", "script"),
        "role": ("writer", "screenwriter"),
        "filmo": ("screenwriting credits", "work as a writer"),
        "debut": ("screenwriting debut", "first writing credit"),
    },
    "starred_actors": {
        "base": ("star in", "act in", "appear in", "feature in"),
        "past": ("starred in", "acted in", "appeared in", "featured in"),
        "part": ("starred in", "acted in", "appeared in", "featured in"),
        "pass": ("starring {p}", "featuring {p}", "with {p} in the cast"),
        "poss": ("acting credits", "screen appearances"),
        "poss_s": ("acting credit", "screen appearance"),
        "role": ("a cast member", "an actor"),
        "filmo": ("acting filmography", "work as an actor"),
        "debut": ("screen debut", "acting debut"),
    },
}

# KB genre label -> (modifier used before a noun, own plural noun or None)
GENRES = {
    "Action": ("action", None),
    "Adventure": ("adventure", None),
    "Animation": ("animated", None),
    "Biography": ("biographical", None),
    "Comedy": ("comedy", "comedies"),
    "Crime": ("crime", None),
    "Documentary": ("documentary", "documentaries"),
    "Drama": ("drama", "dramas"),
    "Family": ("family", None),
    "Fantasy": ("fantasy", None),
    "History": ("historical", None),
    "Horror": ("horror", None),
    "Music": ("music", None),
    "Musical": ("musical", "musicals"),
    "Mystery": ("mystery", "mysteries"),
    "Romance": ("romance", "romances"),
    "Short": ("short", None),
    "Sport": ("sports", None),
    "Thriller": ("thriller", "thrillers"),
    "War": ("war", None),
    "Western": ("western", "westerns"),
}

DECADE_WORDS = {1920: "twenties", 1930: "thirties", 1940: "forties", 1950: "fifties",
                1960: "sixties", 1970: "seventies", 1980: "eighties", 1990: "nineties"}

# --------------------------------------------------------------------------------------
# Templates. Each entry: (year spec, template text, flags)
#   year spec: None (no year), "<", "<=", ">", ">=", "=", "[]" (inclusive range),
#              "dec" (decade, written 1990s), "decw" (decade, written nineties),
#              "<dec" (strictly before the decade's first year)
#   flags: "round" (years are multiples of 5), "single" (only for persons with one role)
# Slots: {p} person, {base} {past} {part} {pass} {poss} {poss_s} {role} {filmo} {debut},
#        {n} plural noun, {sn} singular noun, {y} {y1} {y2} {dec} {decw},
#        {g} genre plural noun phrase, {gm} genre modifier, {gl} KB genre label,
#        {L} KB language label.
# --------------------------------------------------------------------------------------

TUNING_TEMPLATES = {
    "year-before": [
        ("<", "Which {n} did {p} {base} before {y}?", ""),
        ("<", "List the {n} {pass} that were released earlier than {y}", ""),
        ("<", "What {n} had {p} {part} prior to {y}?", ""),
        ("<", "Name the pre-{y} {n} {pass}", "round"),
        ("<", "Show me {p}'s {poss} from before {y}", ""),
        ("<", "{n} {pass} that came out before {y}", ""),
        ("<", "Which {n} that {p} {past} were released before {y}?", ""),
        ("<", "Before {y}, which {n} had {p} {part}?", ""),
    ],
    "year-after": [
        (">", "Which {n} did {p} {base} after {y}?", ""),
        (">=", "What {n} has {p} {part} since {y}?", ""),
        (">", "List the {n} {pass} released later than {y}", ""),
        (">", "Name the post-{y} {n} {pass}", "round"),
        (">=", "Show me {n} {pass} from {y} onwards", ""),
        (">=", "Which {n} that {p} {past} came out in or after {y}?", ""),
        (">=", "Give me {p}'s {poss} released no earlier than {y}", ""),
        (">", "Which {n} {pass} were released after the year {y}?", ""),
    ],
    "year-between": [
        ("[]", "Which {n} did {p} {base} between {y1} and {y2}?", ""),
        ("dec", "What {n} did {p} {base} in the {dec}?", ""),
        ("[]", "List the {n} {pass} from {y1} to {y2}", ""),
        ("dec", "Name the {dec} {n} {pass}", ""),
        ("[]", "Show me {p}'s {poss} released between {y1} and {y2}", ""),
        ("dec", "Which {n} {pass} came out during the {dec}?", ""),
        ("[]", "Which {n} that {p} {past} were released from {y1} through {y2}?", ""),
        ("[]", "{n} {pass} between {y1} and {y2}", ""),
    ],
    "year-equal": [
        ("=", "Which {n} did {p} {base} in {y}?", ""),
        ("=", "What {n} {pass} were released in {y}?", ""),
        ("=", "List the {n} {pass} that came out in {y}", ""),
        ("=", "Name {p}'s {poss} from {y}", ""),
        ("=", "Show me the {y} {n} {pass}", ""),
        ("=", "Which of the {n} that {p} {past} were released in {y}?", ""),
        ("=", "{n} {pass} released in {y}", ""),
        ("=", "In {y}, which {n} did {p} {base}?", ""),
    ],
    "latest": [
        (None, "What is the most recent {sn} {pass}?", ""),
        (None, "Which {sn} did {p} {base} most recently?", ""),
        (None, "Name the latest {sn} {pass}", ""),
        (None, "What was the last {sn} {p} {past}?", ""),
        (None, "Show me {p}'s newest {poss_s}", ""),
        (None, "Which of the {n} {pass} is the most recent?", ""),
        (None, "Latest {sn} {pass}", ""),
        (None, "Which {sn} that {p} {past} came out last?", ""),
    ],
    "earliest": [
        (None, "What is the earliest {sn} {pass}?", ""),
        (None, "Which {sn} did {p} {base} first?", ""),
        (None, "Name the oldest {sn} {pass}", ""),
        (None, "What was the first {sn} {p} {past}?", ""),
        (None, "Show me {p}'s first {poss_s}", ""),
        (None, "Which of the {n} {pass} came out first?", ""),
        (None, "Earliest {sn} {pass}", ""),
        (None, "Which {sn} that {p} {past} was released earliest?", ""),
    ],
    "genre": [
        (None, "Which {g} did {p} {base}?", ""),
        (None, "List the {g} {pass}", ""),
        (None, "What {gm} {n} has {p} {part}?", ""),
        (None, "Which of the {n} {pass} are {g}?", ""),
        (None, "Show me {gm} {n} {pass}", ""),
        (None, "Name {p}'s {g}", "single"),
        (None, "Which {n} that {p} {past} belong to the {gl} genre?", ""),
        (None, "Name every {gm} {sn} {p} {past}", ""),
    ],
    "language": [
        (None, "Which {L}-language {n} did {p} {base}?", ""),
        (None, "List the {n} {pass} that are in {L}", ""),
        (None, "What {n} did {p} {base} in {L}?", ""),
        (None, "Which of the {n} {pass} are in the {L} language?", ""),
        (None, "Show me {L}-language {n} {pass}", ""),
        (None, "Name {p}'s {poss} in {L}", ""),
        (None, "{n} in {L} {pass}", ""),
        (None, "Which {n} that {p} {past} were made in {L}?", ""),
    ],
    "genre+year": [
        (">", "Which {g} did {p} {base} after {y}?", ""),
        ("<", "List the {gm} {n} {pass} released before {y}", ""),
        ("dec", "What {g} did {p} {base} in the {dec}?", ""),
        (">=", "Show me {gm} {n} {pass} from {y} onwards", ""),
        ("[]", "Which {n} {pass} between {y1} and {y2} are {g}?", ""),
        ("<", "Name the {g} {p} {past} earlier than {y}", ""),
        ("=", "Which {gm} {n} did {p} {base} in {y}?", ""),
        (">", "{gm} {n} {pass} released after {y}", ""),
    ],
}

HELDOUT_TEMPLATES = {
    "year-before": [
        ("<", "Which {n} {pass} predate {y}?", ""),
        ("<=", "Give me the {n} {p} {past} up to and including {y}", ""),
        ("<dec", "Which {n} {pass} date from before the {dec}?", ""),
        ("<=", "What did {p} {base} no later than {y}?", ""),
        ("<", "I'm looking for {n} {pass} that are older than {y}", ""),
        ("<", "Tell me which {n} {p} {past} ahead of {y}", ""),
        ("<=", "Which {n} with {p} as {role} came out in {y} or earlier?", ""),
    ],
    "year-after": [
        (">", "Which {n} {pass} postdate {y}?", ""),
        (">=", "Give me the {n} {p} {past} from {y} on", ""),
        (">=", "Which {n} {pass} came out in {y} or later?", ""),
        (">=", "Starting in {y}, what {n} did {p} {base}?", ""),
        (">", "I'm looking for {n} {pass} that are newer than {y}", ""),
        (">", "Which {n} with {p} as {role} are more recent than {y}?", ""),
        (">=", "List everything {p} {past} from the year {y} forward", ""),
    ],
    "year-between": [
        ("[]", "Which {n} {pass} were released in the period {y1}-{y2}?", ""),
        ("decw", "What {n} did {p} {base} in the {decw}?", ""),
        ("[]", "Give me the {n} {p} {past} anywhere from {y1} to {y2}", ""),
        ("dec", "Which of {p}'s {poss} date from the {dec}?", ""),
        ("[]", "I'm looking for {n} {pass} released no earlier than {y1} and no later than {y2}", ""),
        ("[]", "Which {n} with {p} as {role} came out between {y1} and {y2} inclusive?", ""),
        ("dec", "Tell me what {p} {past} over the course of the {dec}", ""),
    ],
    "year-equal": [
        ("=", "Which {n} {pass} premiered in {y}?", ""),
        ("=", "Give me the {n} {p} {past} in the year {y}", ""),
        ("=", "Which of {p}'s {poss} are dated {y}?", ""),
        ("=", "I'm looking for {n} {pass} with a release year of {y}", ""),
        ("=", "Which {n} with {p} as {role} hit theatres in {y}?", ""),
        ("=", "Tell me which {n} {p} {past} during {y}", ""),
        ("=", "{n} of {y} {pass}", ""),
    ],
    "latest": [
        (None, "Which {sn} {pass} is the newest?", ""),
        (None, "Give me the final {sn} {p} {past}", ""),
        (None, "Of all the {n} {pass}, which came out latest?", ""),
        (None, "I'm looking for the newest {sn} {p} {past}", ""),
        (None, "Which {sn} with {p} as {role} has the latest release year?", ""),
        (None, "Tell me the last {sn} {pass} to be released", ""),
        (None, "What is the most recent entry in {p}'s {filmo}?", ""),
    ],
    "earliest": [
        (None, "Which {sn} {pass} is the oldest?", ""),
        (None, "Give me the very first {sn} {p} {past}", ""),
        (None, "Of all the {n} {pass}, which came out earliest?", ""),
        (None, "What was {p}'s {debut}?", ""),
        (None, "Which {sn} with {p} as {role} has the earliest release year?", ""),
        (None, "Tell me the first {sn} {pass} to be released", ""),
        (None, "What is the oldest entry in {p}'s {filmo}?", ""),
    ],
    "genre": [
        (None, "Which {n} {pass} are classified as {gl}?", ""),
        (None, "Give me the {g} {p} {past}", ""),
        (None, "Did {p} {base} any {g}? Which ones?", ""),
        (None, "I'm looking for {gm} {n} with {p} as {role}", ""),
        (None, "What {gm} {n} can I watch that {p} {past}?", ""),
        (None, "Tell me the {n} {pass} that fall into the {gl} genre", ""),
        (None, "Which {n} in {p}'s {filmo} are {g}?", ""),
    ],
    "language": [
        (None, "Which {n} {pass} have {L} dialogue?", ""),
        (None, "Give me the {n} {p} {past} that are spoken in {L}", ""),
        (None, "Did {p} {base} any {n} in {L}? Which ones?", ""),
        (None, "I'm looking for {L}-language {n} with {p} as {role}", ""),
        (None, "What {n} {pass} use the {L} language?", ""),
        (None, "Tell me which {n} {p} {past} were in {L}", ""),
        (None, "Which {n} in {p}'s {filmo} are {L}-language?", ""),
    ],
    "genre+year": [
        ("<", "Which {g} {pass} predate {y}?", ""),
        (">=", "Give me the {g} {p} {past} from {y} on", ""),
        ("decw", "Did {p} {base} any {g} in the {decw}? Which ones?", ""),
        (">", "I'm looking for {gm} {n} with {p} as {role} that are newer than {y}", ""),
        ("=", "Which {g} {pass} premiered in {y}?", ""),
        ("[]", "Tell me which {gm} {n} {p} {past} anywhere from {y1} to {y2}", ""),
        ("<=", "Which {n} in {p}'s {filmo} are {g} released in {y} or earlier?", ""),
    ],
}

# --------------------------------------------------------------------------------------
# KB loading and anchor selection
# --------------------------------------------------------------------------------------


def load_kb(path):
    films = collections.defaultdict(lambda: collections.defaultdict(set))
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line:
                continue
            head, rel, tail = line.split("|")
            films[head][rel].add(tail)
    return films


def good_label(p, film_titles):
    """Person label usable verbatim: properly capitalised, no brackets, not a film title."""
    if not p or p != p.strip() or "  " in p:
        return False
    if not (p[0].isupper() or p[0].isdigit()):
        return False
    if re.search(r"[\[\]\(\)?\"|]", p):
        return False
    return p not in film_titles


class Anchor:
    __slots__ = ("person", "rel", "films", "single")

    def __init__(self, person, rel, films, single):
        self.person = person
        self.rel = rel
        self.films = films  # tuple of dicts sorted by title
        self.single = single


def build_anchors(kb):
    titles = set(kb)
    person_rels = collections.defaultdict(set)
    by_rel = {r: collections.defaultdict(set) for r in RELS}
    for title in sorted(titles):
        for r in RELS:
            for p in kb[title][r]:
                by_rel[r][p].add(title)
                person_rels[p].add(r)

    def film_info(t):
        years = kb[t]["release_year"]
        return {
            "title": t,
            "year": int(next(iter(years))) if len(years) == 1 else None,
            "n_years": len(years),
            "genres": frozenset(kb[t]["has_genre"]),
            "langs": frozenset(kb[t]["in_language"]),
        }

    info = {t: film_info(t) for t in titles}
    anchors = []
    for r in RELS:
        for p in sorted(by_rel[r]):
            fs = sorted(by_rel[r][p])
            if len(fs) < MIN_FILMS or not good_label(p, titles):
                continue
            # A title carrying several release years is shared by several films: such an
            # anchor's film set is unreliable, so the anchor is skipped altogether.
            if any(info[t]["n_years"] > 1 for t in fs):
                continue
            anchors.append(Anchor(p, r, tuple(info[t] for t in fs), len(person_rels[p]) == 1))
    return anchors


def usable_for(anchor, kind):
    fs = anchor.films
    needs_year = kind not in ("genre", "language")
    if needs_year and any(f["year"] is None for f in fs):
        return False
    if kind in ("genre", "genre+year") and any(not f["genres"] for f in fs):
        return False
    if kind == "language" and any(not f["langs"] for f in fs):
        return False
    return True


# --------------------------------------------------------------------------------------
# Constraint enumeration
# --------------------------------------------------------------------------------------


def year_pred(spec, a, b=None):
    if spec == "<":
        return lambda y: y < a
    if spec == "<=":
        return lambda y: y <= a
    if spec == ">":
        return lambda y: y > a
    if spec == ">=":
        return lambda y: y >= a
    if spec == "=":
        return lambda y: y == a
    if spec in ("[]", "dec", "decw"):
        return lambda y: a <= y <= b
    if spec == "<dec":
        return lambda y: y < a
    raise ValueError(spec)


def year_options(spec, years, flags):
    """All (params, predicate, qtype suffix) candidates for a year spec over the years."""
    lo, hi = min(years), max(years)
    opts = []
    if spec in ("<", "<=", ">", ">="):
        for y in range(lo - 1, hi + 2):
            if "round" in flags and y % 5:
                continue
            opts.append(({"y": y}, year_pred(spec, y), f"release_year{spec}{y}"))
    elif spec == "=":
        for y in sorted(set(years)):
            opts.append(({"y": y}, year_pred(spec, y), f"release_year={y}"))
    elif spec == "[]":
        for y1 in range(lo - 1, hi + 1):
            for y2 in range(y1 + 2, min(y1 + 16, hi + 2)):
                opts.append(({"y1": y1, "y2": y2}, year_pred(spec, y1, y2),
                             f"release_year[{y1},{y2}]"))
    elif spec in ("dec", "decw", "<dec"):
        for d in range(lo // 10 * 10, hi // 10 * 10 + 10, 10):
            if spec == "decw" and d not in DECADE_WORDS:
                continue
            params = {"dec": f"{d}s", "decw": DECADE_WORDS.get(d, "")}
            if spec == "<dec":
                opts.append((params, year_pred(spec, d), f"release_year<{d}"))
            else:
                opts.append((params, year_pred(spec, d, d + 9), f"release_year[{d},{d + 9}]"))
    else:
        raise ValueError(spec)
    return opts


def valid(gold, universe):
    return 1 <= len(gold) <= MAX_ANSWERS and len(gold) < len(universe)


def constraint_options(anchor, kind, spec, flags):
    """List of (params, gold titles, qtype suffix, boundary flag) for this anchor."""
    fs = anchor.films
    out = []
    if kind in ("year-before", "year-after", "year-between", "year-equal"):
        years = [f["year"] for f in fs]
        film_years = set(years)
        for params, pred, q in year_options(spec, years, flags):
            gold = [f["title"] for f in fs if pred(f["year"])]
            if valid(gold, fs):
                boundary = any(params.get(k) in film_years for k in ("y", "y1", "y2"))
                out.append((params, gold, q, boundary))
    elif kind in ("latest", "earliest"):
        years = [f["year"] for f in fs]
        target = max(years) if kind == "latest" else min(years)
        gold = [f["title"] for f in fs if f["year"] == target]
        if valid(gold, fs):
            q = "release_year=max" if kind == "latest" else "release_year=min"
            out.append(({}, gold, q, False))
    elif kind == "genre":
        for g in sorted({g for f in fs for g in f["genres"]}):
            if g not in GENRES:
                continue
            gold = [f["title"] for f in fs if g in f["genres"]]
            if valid(gold, fs):
                out.append(({"genre": g}, gold, f"has_genre={g}", False))
    elif kind == "language":
        for lang in sorted({x for f in fs for x in f["langs"]}):
            gold = [f["title"] for f in fs if lang in f["langs"]]
            if valid(gold, fs):
                out.append(({"L": lang}, gold, f"in_language={lang}", False))
    elif kind == "genre+year":
        years = [f["year"] for f in fs]
        film_years = set(years)
        genres = sorted({g for f in fs for g in f["genres"]} & set(GENRES))
        yopts = year_options(spec, years, flags)
        for g in genres:
            g_set = [f for f in fs if g in f["genres"]]
            for params, pred, q in yopts:
                y_set = [f for f in fs if pred(f["year"])]
                gold = [f["title"] for f in g_set if pred(f["year"])]
                # Both halves of the conjunction must matter.
                if gold and len(gold) <= MAX_ANSWERS and len(gold) < len(g_set) \
                        and len(gold) < len(y_set):
                    p2 = dict(params)
                    p2["genre"] = g
                    boundary = any(params.get(k) in film_years for k in ("y", "y1", "y2"))
                    out.append((p2, gold, f"has_genre={g}&{q}", boundary))
    return out


# --------------------------------------------------------------------------------------
# Rendering
# --------------------------------------------------------------------------------------


def render(template, anchor, params, rng):
    v = VERBS[anchor.rel]
    k = rng.randrange(len(v["base"]))  # keep base/past/participle/passive on one verb
    slots = {
        "p": anchor.person,
        "base": v["base"][k],
        "past": v["past"][k],
        "part": v["part"][k],
        "pass": v["pass"][k % len(v["pass"])].format(p=anchor.person),
        "poss": rng.choice(v["poss"]),
        "poss_s": rng.choice(v["poss_s"]),
        "role": rng.choice(v["role"]),
        "filmo": rng.choice(v["filmo"]),
        "debut": rng.choice(v["debut"]),
    }
    # "features featuring X" / "feature in any features" read badly: no "feature" noun
    # next to a "feature" verb.
    clash = "featur" in slots["base"] or "featur" in slots["pass"]
    nouns = [x for x in NOUNS if not (clash and x.startswith("featur"))]
    snouns = [x for x in SNOUNS if not (clash and x.startswith("featur"))]
    slots["n"] = rng.choice(nouns)
    slots["sn"] = rng.choice(snouns)
    slots.update({key: str(val) for key, val in params.items() if key != "genre"})
    if "genre" in params:
        g = params["genre"]
        mod, plural = GENRES[g]
        slots["gm"] = mod
        slots["gl"] = g
        noun = rng.choice(nouns)
        slots["g"] = plural if plural and rng.random() < 0.6 else f"{mod} {noun}"
    text = template.format(**slots)
    return text[0].upper() + text[1:]


# --------------------------------------------------------------------------------------
# Generation
# --------------------------------------------------------------------------------------


def generate(anchors, rng):
    files = {"tuning": [], "heldout": []}
    used_people = {"tuning": set(), "heldout": set()}
    texts = set()
    pools = {kind: [a for a in anchors if usable_for(a, kind)] for kind in KINDS}
    plan = {"tuning": (TUNING_TEMPLATES, N_TUNING), "heldout": (HELDOUT_TEMPLATES, N_HELDOUT)}

    for kind in FILL_ORDER:
        # Interleave held-out and tuning slots so both get a fair share of scarce anchors.
        slots = []
        for split in ("heldout", "tuning"):
            templates, n = plan[split]
            tl = templates[kind]
            for i in range(n):
                slots.append((split, tl[i % len(tl)], i))
        slots.sort(key=lambda s: (s[2] * {"heldout": N_TUNING, "tuning": N_HELDOUT}[s[0]], s[0]))
        for split, (spec, template, flags), i in slots:
            other = "tuning" if split == "heldout" else "heldout"
            rel_order = list(RELS[i % 3:] + RELS[:i % 3])
            made = False
            for rel in rel_order:
                cands = [a for a in pools[kind]
                         if a.rel == rel
                         and a.person not in used_people[split]
                         and a.person not in used_people[other]
                         and ("single" not in flags or a.single)]
                # Weighted random order (Efraimidis-Spirakis): anchors with more films
                # come first more often, which gives richer filters.
                keys = {id(a): rng.random() ** (1.0 / len(a.films)) for a in cands}
                cands.sort(key=lambda a: -keys[id(a)])
                for a in cands:
                    opts = constraint_options(a, kind, spec, flags)
                    if not opts:
                        continue
                    # Favour thresholds that coincide with a film's year (so the
                    # inclusive / exclusive reading matters) half of the time.
                    # Prefer multi-answer golds where the anchor allows them.
                    mopts = [o for o in opts if len(o[1]) >= 2]
                    if mopts and rng.random() < 0.65:
                        opts = mopts
                    bopts = [o for o in opts if o[3]]
                    if bopts and rng.random() < 0.5:
                        opts = bopts
                    params, gold, qsuffix, _ = rng.choice(opts)
                    text = render(template, a, params, rng)
                    if text in texts:
                        continue
                    texts.add(text)
                    used_people[split].add(a.person)
                    files[split].append({
                        "question": text,
                        "answers": "|".join(sorted(gold)),
                        "qtype": f"{a.rel}^>{qsuffix}",
                        "kind": kind,
                        "relation": a.rel,
                    })
                    made = True
                    break
                if made:
                    break
            if not made:
                sys.exit(f"could not fill a {split} {kind} slot ({template!r})")
    for split in files:
        rows = files[split]
        rows.sort(key=lambda r: (KINDS.index(r["kind"]), r["question"]))
        rng.shuffle(rows)
    return files


def check_templates():
    for kind in KINDS:
        t = {x[1] for x in TUNING_TEMPLATES[kind]}
        h = {x[1] for x in HELDOUT_TEMPLATES[kind]}
        assert len(t) >= 6 and len(h) >= 6, kind
        assert not (t & h), kind


def write(rows, path):
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_NONE,
                       escapechar=None)
        w.writerow(["question", "answers", "qtype", "kind", "relation"])
        for r in rows:
            for v in r.values():
                assert "\t" not in v and "\n" not in v
            w.writerow([r["question"], r["answers"], r["qtype"], r["kind"], r["relation"]])


def main():
    check_templates()
    rng = random.Random(SEED)
    kb = load_kb(KB_PATH)
    anchors = build_anchors(kb)
    files = generate(anchors, rng)
    os.makedirs(OUT_DIR, exist_ok=True)
    write(files["tuning"], os.path.join(OUT_DIR, TUNING_FILE))
    write(files["heldout"], os.path.join(OUT_DIR, HELDOUT_FILE))
    for split, name in (("tuning", TUNING_FILE), ("heldout", HELDOUT_FILE)):
        counts = collections.Counter(r["kind"] for r in files[split])
        print(name, len(files[split]), " ".join(f"{k}={counts[k]}" for k in KINDS))


if __name__ == "__main__":
    main()
