"""A music KB of any size, generated deterministically, for the scale benchmark.

Not copies of the bundled KB: a different domain with natural relation names (camelCase
IRIs, no labels on the relations: the engine must humanise them), unique entity names, and a
skewed degree distribution (Zipf: a few artists, labels, genres and cities take most of the
edges, as in real KBs). Written as N-Triples straight to a file, so generating 10 M triples
needs no more memory than 1 M. Also returns questions with their answers (1 and 2 hops).

    from scale_kb import generate
    questions = generate(Path("music.nt"), n_triples=1_000_000)
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BASE = "http://example.org/music/"
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
YEAR = "<http://www.w3.org/2001/XMLSchema#gYear>"
TRIPLES_PER_ALBUM = 6.8  # data triples per album, its artists and places included (labels aside)
ZIPF = 1.05

ADJ = ("amber ashen azure bitter black blue bright broken burning calm cold copper crimson "
       "dark deep distant dusty electric empty endless faded fallen final first frozen gentle "
       "ghost gilded glass golden green grey hidden hollow honey hungry iron ivory jade last "
       "lazy little lonely lost loud lunar marble midnight mirror misty neon northern open "
       "pale paper quiet radiant rapid red restless rising rusty sacred salt scarlet secret "
       "silent silver slow solar southern static steel still stone strange summer sweet "
       "tender thin velvet violet wandering warm western white wild winter wooden young "
       "yellow brave clever dizzy eager fierce giant humble jolly").split()
NOUN = ("anchor angel arrow autumn avenue balloon banner beacon bell bird bloom bridge "
        "canyon carnival castle cathedral circle cloud comet compass coral crown dancer "
        "desert diamond dream echo ember engine feather field fire flame forest fountain "
        "garden gate glacier harbor harvest heart highway horizon island jungle kingdom "
        "lake lantern letter light lighthouse machine meadow mirror moon mountain night "
        "ocean orchard palace parade planet prairie radio rain river rocket rose sail "
        "shadow shore signal sky snow song spark spring star station storm stream sun "
        "temple thunder tide tower train valley voyage wave whisper wind window wing "
        "winter wolf").split()
TAIL = sorted(set(
    "again alive anthem anthology archive ballads blues chronicles collection companion "
    "continuum dawn days deluxe demos diaries dreams dusk echoes encore epilogue finale "
    "forever hymns interlude journal legacy live lullabies mixtape motion nights notebook "
    "outtakes overture portraits postcards prelude prologue quartet reflections remixes "
    "reprise requiem retrospective revisited rhapsody riddles rituals saga serenade sermons "
    "sessions sides signals sketches sonata songs soundtrack stories suite symphony tales "
    "tapes testament threads tides trilogy unplugged variations visions voices waltz wonders "
    "years aria ballad cadence canticle carol chorale coda concerto cycle dirge elegy etude "
    "fanfare fugue idyll jam lament madrigal march medley motet nocturne ode opus pastorale "
    "psalm raga refrain reverie rounds scherzo shanty toccata verses vespers vignettes fables "
    "sagas letters memoirs sketchbook anthems chants cantata fragments grooves mantras "
    "meditations miniatures movements odyssey parables poems recitals rhymes romances".split()
))  # one word each: a name never hides inside another
FIRST = ("ada alma amara anika ari aurora bea bram cai cara cleo dara dev edda elio ema "
         "enzo esme ezra fae felix freya gia hana hugo ida ines ira isak jana jin juno kai "
         "kira lars lea leon lina luca mae mara mika milo nadia nia niko noor oda omar orla "
         "oskar pia rafa ren rhea rio rosa sami sana silas sofi tala teo tova uma una vera "
         "vik wren yara yuki zane zara zoe bo cyd dov eli fin gus hal ivo jay kit lev max "
         "ned otto pax quin rex sol tad ugo val wim xavi yan zev agnes basil cosima dorian "
         "elsa florian greta henrik imke jorah katja ludo marek nils odile petra quincy "
         "romy stellan thea ulla vidar wanda ximena yorick zelda").split()
LAST = ("abara achebe adler alvarez amari andersen arden aslan bauer bello bergman blanco "
        "bondar brandt cabral carver castell chen dalton delacroix diaz dubois eklund "
        "esposito falk ferreira fischer fontaine garcia gaspard greco haddad halvorsen "
        "hartmann horvat ibarra ivanova jansen jovanovic kader kahale kaur keller koval "
        "kuznetsova lambert larsen leclerc lindqvist lopez lorenz lund madsen marin "
        "moreau mori nakamura navarro nielsen novak nyberg okafor olsen ortega osei "
        "pajari park petrov quintero rahman reyes richter rossi sandoval santos schulz "
        "silva sorensen strand suzuki tanaka tavares torres ueda vance varga vasquez "
        "vogel wagner walsh weber yilmaz zhang ziegler abbot baird corbin drummond "
        "ellery fairley gable holloway irwin jessup kendrick lyle merritt norwood "
        "pembroke quill radley sutton thackeray underhill vail whitlock yardley").split()
PLACE = ("ash bright cold deer elm fair glen hart iron kings lake long mill north oak "
         "pine red river rock rose salt silver south spring stone sun west white wind "
         "wolf black green high low new old port east").split()
PLACE_END = ("borough bridge brook burg bury by chester dale field ford gate haven holm "
             "hurst ing lea ley minster mond moor mouth ness pool port stead stow ton vale "
             "ville wick wood worth").split()
COUNTRY = [f"{a}{b}" for a in ("Al", "Bel", "Cor", "Dra", "Ester", "Fal", "Gor", "Hel", "Istr",
                               "Jor", "Kal", "Lor", "Mor", "Nor", "Ost", "Pel", "Quar", "Ros",
                               "Sar", "Tor")
           for b in ("avia", "enia", "mark", "land", "ova", "ania", "istan", "onia")]  # fmt: skip
GENRES = [f"{a} {b}" for a in ("dream", "post", "art", "acid", "free", "chamber", "dark",
                                "space", "folk", "noise", "math", "neo", "proto", "synth",
                                "garage", "desert", "surf", "baroque", "glitch", "lo-fi")
          for b in ("pop", "rock", "jazz", "soul", "punk", "folk", "house", "techno", "metal",
                    "wave", "core", "funk", "blues", "hop", "gaze")]  # fmt: skip
INSTRUMENTS = ("guitar bass drums piano violin cello trumpet saxophone clarinet flute harp "
               "synthesizer organ accordion banjo mandolin ukulele vocals percussion "
               "theremin").split()


@dataclass(frozen=True)
class Question:
    text: str
    answers: tuple[str, ...]
    hops: int


def _names(parts: tuple[list[str], ...], n: int, sep: str = " ") -> list[str]:
    """n distinct names from the product of word lists, spread (not in product order)."""
    sizes = [len(p) for p in parts]
    total = 1
    for size in sizes:
        total *= size
    if n > total:
        raise ValueError(f"{n} names asked, {total} possible")
    step = next(s for s in range(int(total * 0.618) + 1, 2 * total + 2) if _coprime(s, total))
    out = []
    for i in range(n):
        k = (i * step) % total
        words = []
        for part, size in zip(parts, sizes, strict=True):
            words.append(part[k % size])
            k //= size
        out.append(sep.join(words))
    return out


def _coprime(a: int, b: int) -> bool:
    while b:
        a, b = b, a % b
    return a == 1


def _zipf(rng: random.Random, n: int, k: int) -> list[int]:
    """k draws from 0..n-1 with Zipf weights (rank r drawn ∝ 1 / (r+1)^ZIPF)."""
    cum = list(itertools.accumulate(1 / (r + 1) ** ZIPF for r in range(n)))
    return rng.choices(range(n), cum_weights=cum, k=k)


def _lit(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(path: Path, n_triples: int, seed: int = 11, n_questions: int = 300) -> list[Question]:
    """Write about n_triples triples to `path` (N-Triples); return sample questions."""
    rng = random.Random(seed)
    n_albums = max(50, int(n_triples / TRIPLES_PER_ALBUM))
    n_artists = max(20, n_albums // 4)
    n_cities = max(10, min(len(PLACE) * len(PLACE_END) * 4, n_artists // 12))
    n_labels, n_studios = max(5, n_albums // 400), max(5, n_albums // 200)
    albums = [t.strip().title() for t in _names((("", "the"), ADJ, NOUN, TAIL), n_albums)]
    artists = [t.title() for t in _names((FIRST, LAST), min(n_artists, len(FIRST) * len(LAST)))]
    if len(artists) < n_artists:  # more artists than first × last names: a middle initial
        extra = _names((FIRST, list("abcdefghijklmnopqrstuvwxyz"), LAST), n_artists - len(artists))
        artists += [f"{a.title()} {b.upper()}. {c.title()}" for a, b, c in
                    (x.split(" ") for x in extra)]  # fmt: skip
    towns = [f"{a}{b}".title() for a in PLACE for b in PLACE_END]
    cities = [t if i < len(towns) else f"{t} {('Upper', 'Lower', 'New')[i // len(towns) - 1]}"
              for i, t in enumerate(towns * 4)][:n_cities]  # fmt: skip
    labels = [f"{t.title()} Records" for t in _names((ADJ, NOUN), n_labels)]
    studios = [f"{t.title()} Studio" for t in _names((PLACE, PLACE_END, NOUN), n_studios)]

    e = lambda kind, i: f"<{BASE}{kind}/{i}>"  # noqa: E731
    r = lambda name: f"<{BASE}{name}>"  # noqa: E731
    asked = set(rng.sample(range(n_albums), min(n_questions, n_albums)))
    facts: dict[int, dict[str, list[int]]] = {}
    artist_city: dict[int, int] = {}
    label_country: dict[int, int] = {}
    with open(path, "w", encoding="utf-8") as fh:
        def lines() -> Iterator[str]:
            for i, name in enumerate(COUNTRY):
                yield f"{e('country', i)} {LABEL} {_lit(name)} .\n"
            for i, name in enumerate(GENRES):
                yield f"{e('genre', i)} {LABEL} {_lit(name)} .\n"
            for i, name in enumerate(INSTRUMENTS):
                yield f"{e('instrument', i)} {LABEL} {_lit(name)} .\n"
            for i, (name, country) in enumerate(
                zip(cities, _zipf(rng, len(COUNTRY), n_cities), strict=True)
            ):
                yield f"{e('city', i)} {LABEL} {_lit(name)} .\n"
                yield f"{e('city', i)} {r('country')} {e('country', country)} .\n"
            for i, (name, country) in enumerate(
                zip(labels, _zipf(rng, len(COUNTRY), n_labels), strict=True)
            ):
                label_country[i] = country
                yield f"{e('label', i)} {LABEL} {_lit(name)} .\n"
                yield f"{e('label', i)} {r('country')} {e('country', country)} .\n"
            for i, name in enumerate(studios):
                yield f"{e('studio', i)} {LABEL} {_lit(name)} .\n"
            born = _zipf(rng, n_cities, n_artists)
            plays = _zipf(rng, len(INSTRUMENTS), n_artists)
            for i, name in enumerate(artists):
                artist_city[i] = born[i]
                yield f"{e('artist', i)} {LABEL} {_lit(name)} .\n"
                yield f"{e('artist', i)} {r('placeOfBirth')} {e('city', born[i])} .\n"
                yield f"{e('artist', i)} {r('instrument')} {e('instrument', plays[i])} .\n"
            performer = _zipf(rng, n_artists, n_albums)
            producer = _zipf(rng, n_artists, n_albums)
            label = _zipf(rng, n_labels, n_albums)
            genre = _zipf(rng, len(GENRES), n_albums)
            studio = _zipf(rng, n_studios, n_albums)
            for i, name in enumerate(albums):
                a = e("album", i)
                genres = [genre[i]] + ([rng.randrange(len(GENRES))] if rng.random() < 0.3 else [])
                year = rng.randint(1955, 2025)
                yield f"{a} {LABEL} {_lit(name)} .\n"
                yield f"{a} {r('performer')} {e('artist', performer[i])} .\n"
                yield f"{a} {r('producer')} {e('artist', producer[i])} .\n"
                yield f"{a} {r('recordLabel')} {e('label', label[i])} .\n"
                for g in genres:
                    yield f"{a} {r('genre')} {e('genre', g)} .\n"
                yield f"{a} {r('releaseYear')} \"{year}\"^^{YEAR} .\n"
                yield f"{a} {r('recordingStudio')} {e('studio', studio[i])} .\n"
                if i in asked:
                    facts[i] = {"performer": [performer[i]], "label": [label[i]],
                                "genre": genres, "year": [year]}  # fmt: skip

        fh.writelines(lines())
    return _questions(rng, facts, albums, artists, cities, labels, artist_city, label_country)


def _questions(rng, facts, albums, artists, cities, labels, artist_city, label_country):
    out = []
    for i in sorted(facts):
        f, album = facts[i], albums[i]
        p = f["performer"][0]
        kind = rng.randrange(6)
        if kind == 0:
            out.append(Question(f"who is the performer of {album}?", (artists[p],), 1))
        elif kind == 1:
            out.append(Question(f"which record label released {album}?",
                                (labels[f["label"][0]],), 1))  # fmt: skip
        elif kind == 2:
            out.append(Question(f"what genre is {album}?", tuple(GENRES[g] for g in f["genre"]), 1))
        elif kind == 3:
            out.append(Question(f"what is the release year of {album}?", (str(f["year"][0]),), 1))
        elif kind == 4:
            out.append(Question(f"where was the performer of {album} born?",
                                (cities[artist_city[p]],), 2))  # fmt: skip
        else:
            out.append(Question(f"which country is the record label of {album} from?",
                                (COUNTRY[label_country[f["label"][0]]],), 2))  # fmt: skip
    return out


def to_delimited(ntriples: Path, out: Path) -> Path:
    """The same KB as `subject<TAB>relation<TAB>object` names (the bundled KB's format):
    entities by their labels (unique here), relations by their IRI's local name, years as
    numbers. Labels are read first (a dict of them: this tool's memory, not the importer's)."""
    names: dict[str, str] = {}
    with open(ntriples, encoding="utf-8") as fh:
        for line in fh:
            s, p, o = line.rstrip(" .\n").split(" ", 2)
            if p == LABEL:
                names[s] = o[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    with open(ntriples, encoding="utf-8") as fh, open(out, "w", encoding="utf-8") as dst:
        for line in fh:
            s, p, o = line.rstrip(" .\n").split(" ", 2)
            if p == LABEL:
                continue
            obj = o[1 : o.index('"', 1)] if o.startswith('"') else names[o]
            dst.write(f"{names[s]}\t{p[len(BASE) + 1 : -1]}\t{obj}\n")
    return out
