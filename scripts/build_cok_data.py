"""Build the bundled table source and the Chain-of-Knowledge dev set from the data itself.

- kb_data/metaqa/movies.csv — one row per film of the KB: its release year as a number and
  how many actors, directors, writers, genres, tags and languages the KB lists, plus the year
  and URL of its Wikipedia lead where one matches (title, year ± 1). Numbers and counts: the
  KG holds these facts only as strings or as edges to count, so questions over them need SQL.
- kb_data/metaqa/qa_dev_cok.tsv — questions that need the table and the KG ("which movies
  starring X were released after 2000", "which of the films directed by X is the oldest") and
  questions that need the documents and the KG ("which films starring X are based on a
  novel": the KG has no such fact; the Wikipedia leads do). Gold answers are computed here
  from the data; the file records each question's kind.

    python scripts/build_cok_data.py   # deterministic (fixed seed)
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KB = ROOT / "kb_data" / "metaqa" / "kb.txt"
DOCS = ROOT / "kb_data" / "metaqa" / "docs" / "movie_leads.jsonl"
TABLE = ROOT / "kb_data" / "metaqa" / "movies.csv"
DEV = ROOT / "kb_data" / "metaqa" / "qa_dev_cok.tsv"
SEED = 11
NOVEL = re.compile(r"\bbased on\b[^.]{0,120}\bnovel\b", re.I)


def load_kb() -> dict[str, dict[str, set[str]]]:
    films: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for line in KB.read_text(encoding="utf-8").splitlines():
        s, r, o = line.split("|")
        films[s][r].add(o)
    return {t: rels for t, rels in films.items() if "release_year" in rels}


def load_leads(films) -> dict[str, dict]:
    """The Wikipedia lead of each film: same title, year within one year of the KB's."""
    leads = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        film = films.get(rec["title"])
        if film is None or rec["title"] in leads:
            continue
        years = [int(y) for y in film["release_year"] if y.isdigit()]
        if years and abs(min(years) - int(rec["year"])) <= 1:
            leads[rec["title"]] = rec
    return leads


def write_table(films, leads) -> dict[str, int]:
    years = {}
    with open(TABLE, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(
            [
                "title",
                "year",
                "actors",
                "directors",
                "writers",
                "genres",
                "tags",
                "languages",
                "wikipedia_year",
                "wikipedia_url",
            ]
        )
        for title in sorted(films):
            rels = films[title]
            numeric = sorted(int(y) for y in rels["release_year"] if y.isdigit())
            if not numeric:
                continue
            years[title] = numeric[0]
            lead = leads.get(title)
            out.writerow(
                [
                    title,
                    numeric[0],
                    len(rels["starred_actors"]),
                    len(rels["directed_by"]),
                    len(rels["written_by"]),
                    len(rels["has_genre"]),
                    len(rels["has_tags"]),
                    len(rels["in_language"]),
                    lead["year"] if lead else "",
                    lead["source"] if lead else "",
                ]
            )
    return years


def by_person(films, relation: str) -> dict[str, list[str]]:
    out = defaultdict(list)
    for title, rels in films.items():
        for person in rels[relation]:
            out[person].append(title)
    return out


def questions(films, years, leads) -> list[tuple[str, list[str], str]]:
    rng = random.Random(SEED)
    actors = by_person(films, "starred_actors")
    directors = by_person(films, "directed_by")
    out = []

    def pick(people: dict, n: int, min_films: int) -> list[str]:
        pool = sorted(
            p for p, ts in people.items() if len([t for t in ts if t in years]) >= min_films
        )
        return rng.sample(pool, min(n, len(pool)))

    def threshold(films_of: list[str]) -> int | None:
        ys = sorted({years[t] for t in films_of if t in years})
        if len(ys) < 2:
            return None
        return rng.choice(ys[:-1])  # at least one film after it, at least one not

    for actor in pick(actors, 60, 3):
        films_of = [t for t in actors[actor] if t in years]
        year = threshold(films_of)
        if year is not None:
            gold = sorted(t for t in films_of if years[t] > year)
            out.append(
                (f"which movies starring {actor} were released after {year}", gold, "kg+table")
            )
    for director in pick(directors, 50, 3):
        films_of = [t for t in directors[director] if t in years]
        ys = sorted({years[t] for t in films_of})
        if len(ys) < 2:
            continue
        year = rng.choice(ys[1:])
        gold = sorted(t for t in films_of if years[t] < year)
        out.append(
            (f"which films directed by {director} were released before {year}", gold, "kg+table")
        )
    for actor in pick(actors, 40, 3):
        films_of = [t for t in actors[actor] if t in years]
        latest = max(years[t] for t in films_of)
        gold = sorted(t for t in films_of if years[t] == latest)
        out.append((f"which of the movies starring {actor} is the most recent", gold, "kg+table"))
    for director in pick(directors, 40, 3):
        films_of = [t for t in directors[director] if t in years]
        first = min(years[t] for t in films_of)
        gold = sorted(t for t in films_of if years[t] == first)
        out.append((f"which of the films directed by {director} is the oldest", gold, "kg+table"))
    novel = {t for t, rec in leads.items() if NOVEL.search(rec["text"])}
    adapted_directors = sorted({d for t in novel for d in films[t]["directed_by"]})
    for director in rng.sample(adapted_directors, min(40, len(adapted_directors))):
        with_lead = [t for t in directors[director] if t in leads]
        gold = sorted(t for t in with_lead if t in novel)
        if gold and len(with_lead) >= 2:
            out.append(
                (f"which films directed by {director} are based on a novel", gold, "kg+docs")
            )
    return out


def main() -> None:
    films = load_kb()
    leads = load_leads(films)
    years = write_table(films, leads)
    rows = questions(films, years, leads)
    random.Random(SEED).shuffle(rows)  # mixed kinds: `--limit N` takes a fair sample
    with open(DEV, "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\")
        out.writerow(["question", "answers", "qtype"])
        for q, gold, kind in rows:
            out.writerow([q, "|".join(gold), kind])
    kinds = defaultdict(int)
    for _, _, kind in rows:
        kinds[kind] += 1
    print(f"{TABLE.name}: {len(years)} films; {DEV.name}: {len(rows)} questions {dict(kinds)}")


if __name__ == "__main__":
    main()
