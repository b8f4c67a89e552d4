"""Build the `music` evaluation set: a generated popular-music KB plus labelled questions.

Writes into benchmarks/data/music/:

- kb.tsv                 one triple per line, ``subject<TAB>relation<TAB>object``, no header
- questions.tsv          the TUNING questions
- questions_heldout.tsv  HELD-OUT questions, worded with templates disjoint from the tuning ones
- README.md              what the data is, entities, relations, question kinds and counts

The world: invented musicians (person names drawn from per-nationality first/last name
lists), bands, albums, songs, record labels, producers, festivals, concert venues, awards,
music schools and radio stations, placed in real countries and cities; genres and
instruments are common words. Relations have natural English labels with spaces
(``member of``, ``released on label``...), and every subject has exactly one ``instance of``.

Question files have the header ``question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops``. Gold
answers are computed by executing the qtype's relation path on the generated KB
(``>`` chains hops, ``^rel`` walks backwards, ``&`` intersects branches; with two anchors
branch *i* starts at anchor *i*).

    python scripts/devsets/build_music.py     # deterministic: fixed seed, stdlib only
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "data" / "music"
SEED = 20250714
MAX_ANSWERS = 15
N_TUNE = 8  # questions per spec in the tuning file (fewer where topics run out)
N_HELD = 5  # questions per spec in the held-out file

# ---------------------------------------------------------------------------------------------
# World: countries, cities, name pools, vocabularies
# ---------------------------------------------------------------------------------------------

# country -> (demonym, name pool, cities, weight as a home of bands / artists)
COUNTRIES: dict[str, tuple[str, str, list[str], int]] = {
    "United States": ("American", "us", ["New York", "Los Angeles", "Chicago", "Nashville",
                                         "Austin", "Seattle", "Detroit", "Atlanta",
                                         "New Orleans", "Memphis", "Portland"], 14),
    "United Kingdom": ("British", "gb", ["London", "Manchester", "Liverpool", "Glasgow",
                                         "Bristol", "Birmingham", "Sheffield", "Leeds",
                                         "Edinburgh", "Cardiff"], 12),
    "Ireland": ("Irish", "ie", ["Dublin", "Cork", "Galway", "Limerick"], 3),
    "Canada": ("Canadian", "ca", ["Toronto", "Montreal", "Vancouver", "Winnipeg", "Halifax"], 4),
    "Australia": ("Australian", "au", ["Sydney", "Melbourne", "Brisbane", "Perth",
                                       "Adelaide"], 4),
    "Sweden": ("Swedish", "se", ["Stockholm", "Gothenburg", "Malmo", "Uppsala"], 4),
    "Norway": ("Norwegian", "no", ["Oslo", "Bergen", "Trondheim", "Stavanger"], 3),
    "Iceland": ("Icelandic", "is", ["Reykjavik", "Akureyri"], 2),
    "Finland": ("Finnish", "fi", ["Helsinki", "Tampere", "Turku"], 2),
    "Germany": ("German", "de", ["Berlin", "Hamburg", "Cologne", "Munich", "Dusseldorf",
                                 "Leipzig"], 4),
    "France": ("French", "fr", ["Paris", "Lyon", "Marseille", "Bordeaux", "Nantes"], 3),
    "Netherlands": ("Dutch", "nl", ["Amsterdam", "Rotterdam", "Utrecht", "Eindhoven"], 2),
    "Brazil": ("Brazilian", "br", ["Sao Paulo", "Rio de Janeiro", "Salvador", "Recife",
                                   "Belo Horizonte"], 3),
    "Japan": ("Japanese", "jp", ["Tokyo", "Osaka", "Kyoto", "Sapporo", "Fukuoka"], 3),
    "South Korea": ("South Korean", "kr", ["Seoul", "Busan", "Daegu"], 2),
    "Nigeria": ("Nigerian", "ng", ["Lagos", "Abuja", "Ibadan"], 2),
    "Jamaica": ("Jamaican", "jm", ["Kingston", "Montego Bay"], 2),
    "Spain": ("Spanish", "es", ["Madrid", "Barcelona", "Valencia", "Seville", "Bilbao"], 2),
    "Mexico": ("Mexican", "mx", ["Mexico City", "Guadalajara", "Monterrey"], 2),
    "Italy": ("Italian", "it", ["Rome", "Milan", "Naples", "Bologna", "Turin"], 2),
}

_W = str.split
NAMES: dict[str, tuple[list[str], list[str]]] = {
    "us": (_W("James Emily Tyler Hannah Jake Madison Cody Ashley Travis Brittany Logan Kayla "
              "Dustin Megan Wyatt Lauren Caleb Morgan Brandon Jenna"),
           _W("Whitfield Caldwell Hargrove Pruitt Dalton Mercer Tillman Boone Garrett Yates "
              "Conley Kessler Vance Holcomb Rourke Lyle Brennan Sawyer Tate Albright")),
    "gb": (_W("Oliver Harriet George Imogen Alfie Poppy Callum Freya Ewan Niamh Rhys Isla Toby "
              "Lottie Jamie Esme Kieran Maisie Dominic Tamsin"),
           _W("Ashdown Pembroke Hartley Fairweather Goodwin Thackeray Aldridge Crowther Dunmore "
              "Fothergill Greaves Hollins Lockwood Marlowe Pendleton Radcliffe Stainton "
              "Whitlock Yardley Ormerod")),
    "ie": (_W("Cian Aoife Darragh Saoirse Oisin Ciara Ronan Siobhan Padraig Grainne Colm Orla "
              "Eoin Fionn Roisin"),
           _W("Gallagher Kavanagh Doherty Moloney Flanagan Keane Lynch Mulcahy Nolan Quinlan "
              "Shanahan Tierney Whelan Cullinane Hennessy")),
    "ca": (_W("Liam Chloe Noah Mathieu Sophie Gabriel Amelie Owen Camille Etienne Maya Declan "
              "Ella Simon Genevieve"),
           _W("Tremblay Gagnon Bouchard MacNeil Leblanc Cote Sinclair Morin Pelletier McKinnon "
              "Lavoie Beaulieu Gauthier Fraser Desjardins")),
    "au": (_W("Lachlan Matilda Hamish Chelsea Jarrah Tahlia Brodie Kirra Nathan Shannon Riley "
              "Jasmine Cooper Bree Mitchell"),
           _W("McIntyre Holt Pearce Kearney Blackwood Rutherford Sheehan Galloway Whitehouse "
              "Carmody Tully Pickering Hendry Loveday Stanhope")),
    "se": (_W("Erik Linnea Oskar Astrid Viktor Elsa Gustav Maja Axel Saga Hugo Tove Nils Ebba "
              "Johan"),
           _W("Lindqvist Bergstrom Sandberg Holmgren Wikstrom Ekdahl Nyberg Lundgren Fors "
              "Hedlund Sjoberg Almqvist Blomberg Stenmark Wallin")),
    "no": (_W("Sindre Ingrid Eirik Sigrid Magnus Kari Torbjorn Ragnhild Haakon Silje Even Marte "
              "Jonas Thea Vegard"),
           _W("Haugen Solberg Bakken Fjeld Strand Dahl Nygard Berntsen Moe Aasen Rusten Eide "
              "Vik Hovland Tveit")),
    "is": (_W("Gunnar Sigrun Einar Katrin Hrafn Ragna Orri Solveig Kjartan Hildur Birgir "
              "Asdis"),
           _W("Sigurdsson Magnusdottir Jonsson Thorsdottir Gunnarsson Olafsdottir Einarsson "
              "Helgadottir Arnason Bjarnadottir Kristjansson Hauksdottir")),
    "fi": (_W("Eetu Aino Juho Venla Lauri Iida Antti Emilia Otto Sanni Ville Kaisa Joonas "
              "Helmi"),
           _W("Virtanen Korhonen Nieminen Makela Hamalainen Laine Heikkinen Koskinen Jarvinen "
              "Lehtonen Saarinen Salminen Tuominen Rantanen")),
    "de": (_W("Jonas Lena Felix Anna Moritz Leonie Tobias Clara Jannik Greta Niklas Frieda "
              "Paul Marlene Lukas"),
           _W("Hofmann Brandt Vogt Kruger Scholz Busch Pfeiffer Lindner Adler Engel Vollmer "
              "Stein Hahn Reuter Ebert")),
    "fr": (_W("Antoine Manon Julien Camille Bastien Margaux Theo Elodie Romain Ines Quentin "
              "Louise Maxime Clemence"),
           _W("Lefevre Moreau Girard Fontaine Chevalier Rousseau Mercier Lambert Bonnet "
              "Garnier Faure Marchand Picard Renaud")),
    "nl": (_W("Daan Sanne Bram Fleur Jesse Lotte Sem Anouk Thijs Femke Ruben Noor Stijn Iris"),
           _W("Jansen Bakker Visser Smit Meijer Mulder Bos Vos Kuipers Dekker Hendriks "
              "Verhoeven Brouwer Dijkstra")),
    "br": (_W("Thiago Larissa Rafael Beatriz Caio Juliana Mateus Gabriela Vinicius Leticia "
              "Diego Camila Bruno Fernanda"),
           _W("Oliveira Souza Ferreira Almeida Barbosa Ribeiro Carvalho Araujo Cavalcanti "
              "Moura Teixeira Nascimento Lacerda Pinheiro")),
    "jp": (_W("Haruto Yui Sota Aoi Ren Hina Kaito Sakura Riku Mio Takumi Nanami Yuki Koharu"),
           _W("Sato Suzuki Takahashi Tanaka Watanabe Ito Nakamura Kobayashi Yamamoto Kato "
              "Yoshida Yamada Sasaki Matsumoto")),
    "kr": (_W("Minjun Seoyeon Jiho Haeun Dohyun Jiwoo Seojun Yerin Hyunwoo Soyeon Jaehyun "
              "Dahye"),
           _W("Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin")),
    "ng": (_W("Chinedu Adaeze Tunde Folake Emeka Ngozi Segun Yetunde Obinna Chiamaka Femi "
              "Amara Kelechi Bisola"),
           _W("Okafor Adeyemi Eze Balogun Nwosu Olawale Chukwu Adebayo Okonkwo Afolabi Nnaji "
              "Oyelaran Onyeka Bakare")),
    "jm": (_W("Delroy Shanice Marlon Keisha Junior Tamika Devon Latoya Winston Sasha Everton "
              "Ayesha"),
           _W("Grant Reid Thompson Clarke Morrison Francis Spencer Facey Whyte McKenzie "
              "Lindo Barrett")),
    "es": (_W("Alejandro Lucia Pablo Carmen Javier Marta Alvaro Elena Sergio Nerea Ignacio "
              "Paula Raul Ainhoa"),
           _W("Herrera Navarro Castillo Ortega Moreno Vidal Serrano Delgado Rubio Calvo "
              "Pascual Ibarra Esteban Gallego")),
    "mx": (_W("Santiago Valeria Emiliano Ximena Rodrigo Renata Diego Fernanda Mateo Daniela "
              "Leonardo Regina Joaquin"),
           _W("Hernandez Gutierrez Ramirez Flores Mendoza Salinas Zamora Villarreal Cervantes "
              "Arellano Quiroga Trevino Bustos")),
    "it": (_W("Lorenzo Giulia Matteo Chiara Tommaso Francesca Riccardo Martina Edoardo Alessia "
              "Niccolo Sofia Pietro Beatrice"),
           _W("Bianchi Romano Ricci Marino Greco Gallo Conti Mancini Rinaldi Lombardi Moretti "
              "Barbieri Caruso Ferraro")),
}

GENRES = ["rock", "indie rock", "punk", "post-punk", "heavy metal", "pop", "synth-pop",
          "electronic", "jazz", "soul", "funk", "hip hop", "reggae", "folk", "blues",
          "dream pop"]
# genres a country's acts lean towards (besides the general pool)
GENRE_BIAS = {
    "Jamaica": ["reggae", "reggae", "soul"], "Nigeria": ["funk", "hip hop", "soul"],
    "Brazil": ["jazz", "funk", "pop"], "Finland": ["heavy metal", "heavy metal", "rock"],
    "Norway": ["heavy metal", "folk", "electronic"], "Iceland": ["dream pop", "folk"],
    "Sweden": ["pop", "synth-pop", "indie rock"], "Germany": ["electronic", "synth-pop"],
    "United States": ["rock", "hip hop", "blues", "soul"],
    "United Kingdom": ["indie rock", "post-punk", "rock"], "Ireland": ["folk", "rock"],
    "South Korea": ["pop", "synth-pop"], "Japan": ["pop", "punk", "electronic"],
}

# instrument -> noun for its players (used as a secondary-anchor form)
INSTRUMENTS: dict[str, str] = {
    "guitar": "guitarists", "bass guitar": "bassists", "drums": "drummers",
    "keyboards": "keyboardists", "piano": "pianists", "synthesizer": "synth players",
    "violin": "violinists", "cello": "cellists", "saxophone": "saxophonists",
    "trumpet": "trumpeters", "harmonica": "harmonica players",
}
CORE_INSTRUMENTS = ["guitar", "bass guitar", "drums", "keyboards"]

BAND_ADJ = _W("Velvet Hollow Paper Silver Midnight Neon Broken Golden Quiet Crimson Restless "
              "Amber Lunar Wandering Copper Static Violet Distant Sleeping Burning Pale "
              "Tangled Rusted Hidden Feral Gentle Saltwater Borrowed Marble Electric")
BAND_NOUN = _W("Harbors Foxes Lanterns Engines Orchards Satellites Pilots Sparrows Tides "
               "Arrows Mirrors Comets Strangers Ravens Parades Anchors Lighthouses Magnets "
               "Canyons Cathedrals Ferries Meadows Pylons Signals Weathervanes Bicycles Orbits "
               "Islands Herons Tramlines")
ALB_ADJ = _W("Blue Low High Slow Long Salt Iron Quiet Late Open Wide Bright Winter Summer "
             "Second Endless Sudden Foreign Cold Warm Little Heavy Soft True Northern Southern "
             "Paper Glass")
ALB_NOUN = _W("Arithmetic Weather Transit Harvest Frequency Horizon Season Architecture "
              "Geometry Theory Machinery Distance Fever Shelter Atlas Ceremony Currency Gravity "
              "Memory Portrait Souvenir Verse Voltage Window Static Tenderness Alphabet "
              "Monument Daylight Longitude")
SONG_VERB = _W("Run Hold Fall Drive Wait Dance Breathe Burn Stay Sleep Shine Drift Follow "
               "Carry Wander Whisper Swim Climb")
SONG_ADV = _W("Slowly Tonight Forever Away Home Alone Again Closer Softly Anyway Sideways "
              "Backwards")
SONG_NOUN = _W("Lights Smoke Echoes Footsteps Voices Shadows Rain Fire Sparks Flowers Wires "
               "Bells Stars Ashes Letters")
SONG_PLACE = _W("Hallway Garden Basement Valley Kitchen Station Attic Harbour Dark Morning "
                "Car Snow Rain")
SONG_NAME = _W("Annie Marguerite Lucas Rosa Teddy Juno Cassie Hector Mabel Otis Ines Frankie")

LABEL_WORDS = _W("Blackbird Harbourline Redwing Kestrel Tallgrass Moonrock Fieldhouse Longwave "
                 "Brightside Stoneway Lowlight Quarry Saltmarsh Ironbark Skylark Greyfield "
                 "Wildflower Northgate Sundial Driftwood Copperleaf Falconer")
LABEL_SUFFIX = ["Records", "Records", "Recordings", "Music", "Sound"]

FESTIVALS = ["Riverbend Festival", "Sunfield Festival", "Greenmoor Fest", "Harborfront Sounds",
             "Tidewater Festival", "Pinecrest Festival", "Stonecircle Weekender",
             "Meadowlark Festival", "Saltwind Fest", "Highridge Festival", "Lakeshore Sounds",
             "Emberfield Festival"]
VENUES = ["The Lantern Room", "Elmwood Hall", "Grand Meridian Theatre", "Copperline Arena",
          "Oakvale Ballroom", "Silverline Pavilion", "Redbrick Hall", "The Foundry Stage",
          "Kingsway Arena", "Bluewater Amphitheatre", "Orchard Hall", "Starlight Ballroom",
          "Ivory Hall", "Westgate Arena", "The Granary", "Harlow Pavilion"]
AWARDS = ["Golden Needle Award", "Silver Stylus Prize", "Crystal Reel Award",
          "Northern Star Music Prize", "Bluebird Album Award", "Ember Prize",
          "Platinum Compass Award", "Lantern Critics Award"]
SCHOOLS = ["Harwick Conservatory", "Bellmont School of Music", "Aldergate Academy of Music",
           "Ravensworth Institute of Music", "Linden Conservatory", "Marchbank College of Music",
           "Elmhurst Music Academy", "Stanmoor School of Music", "Thornfield Conservatory",
           "Westbrook Institute of Sound"]
RADIO = ["Radio Northwave", "Wavelength FM", "KXRT 101.5", "Beacon Radio", "Signal 88",
         "Radio Meridian", "Skyline FM", "Echo Radio", "Pulse 97", "Radio Horizon", "Tidal FM",
         "Lowland Radio"]

CLASSES = ["musician", "band", "album", "song", "record label", "producer", "city", "country",
           "music festival", "concert venue", "award", "music school", "radio station",
           "music genre", "musical instrument"]

# relation -> (head -> tail, meaning); also fixes the order of the README's relation table
RELATIONS: dict[str, tuple[str, str]] = {
    "instance of": ("any subject → class", "the node's class (exactly one per subject)"),
    "located in": ("city → country", "the country a city is in"),
    "member of": ("musician → band", "current band (0–1)"),
    "former member of": ("musician → band", "a band the musician used to play in (0–1)"),
    "lead vocalist": ("band → musician", "the band's singer (always a current member)"),
    "plays instrument": ("musician → instrument", "1–2 instruments"),
    "born in": ("musician or producer → city", "city of birth"),
    "birth year": ("musician or producer → integer", "year of birth"),
    "citizen of": ("musician or producer → country",
                   "citizenship (1–2; some people born abroad hold a second one, some do not)"),
    "studied at": ("musician or producer → music school", "music school attended (0–1)"),
    "spouse": ("person → person", "marriage (symmetric, stored both ways)"),
    "formed in": ("band → city", "city where the band formed"),
    "formation year": ("band → integer", "year the band formed"),
    "genre": ("band or album → genre", "a band's genres (1–2) / an album's genre (1); an "
              "album's genre is not always one of its band's"),
    "influenced by": ("band → band", "an earlier band it cites as an influence (0–2)"),
    "performer": ("album → band or musician", "the act that recorded the album"),
    "produced by": ("album → producer", "1–2 producers"),
    "released on label": ("album → record label", "the label that released it"),
    "release year": ("album → integer", "year of release"),
    "award won": ("album → award", "an award the album won (few albums)"),
    "recorded at": ("album → concert venue", "live albums only: where it was recorded"),
    "track of": ("song → album", "the album the song is on"),
    "written by": ("song → musician or producer", "songwriters (1–3; producers sometimes "
                   "co-write)"),
    "label headquarters": ("record label → city", "where the label is based"),
    "founder": ("record label → musician or producer", "who founded the label"),
    "founding year": ("record label → integer", "year the label was founded"),
    "held in": ("music festival → city", "the festival's city"),
    "first held": ("music festival → integer", "year of the first edition"),
    "headliner": ("music festival → band or musician", "acts that have headlined it (3–5)"),
    "venue city": ("concert venue → city", "the venue's city"),
    "capacity": ("concert venue → integer", "number of people it holds"),
    "opening year": ("concert venue → integer", "year the venue opened"),
    "campus city": ("music school → city", "where the school is"),
    "broadcast from": ("radio station → city", "the station's city"),
    "station format": ("radio station → genre", "genres the station plays (1–2)"),
    "presented by": ("award → radio station", "the station that presents the award"),
}


# ---------------------------------------------------------------------------------------------
# KB
# ---------------------------------------------------------------------------------------------


class KB:
    def __init__(self) -> None:
        self.triples: list[tuple[str, str, str]] = []
        self._seen: set[tuple[str, str, str]] = set()
        self.fwd: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.inv: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.cls: dict[str, str] = {}
        self.taken: set[str] = set(CLASSES)

    def add(self, s: str, r: str, o: object) -> None:
        assert r in RELATIONS, r
        o = str(o)
        if (s, r, o) in self._seen:
            return
        self._seen.add((s, r, o))
        self.triples.append((s, r, o))
        self.fwd[r][s].add(o)
        self.inv[r][o].add(s)

    def node(self, label: str, cls: str) -> str:
        assert cls in CLASSES, cls
        assert label not in self.taken and label not in self.cls, f"label clash: {label!r}"
        assert not label.isdigit()
        self.taken.add(label)
        self.cls[label] = cls
        self.add(label, "instance of", cls)
        return label

    def objs(self, s: str, r: str) -> list[str]:
        return sorted(self.fwd[r].get(s, set()))

    def of_class(self, cls: str) -> list[str]:
        return [x for x, c in self.cls.items() if c == cls]


def weighted_country(rng: random.Random) -> str:
    names = list(COUNTRIES)
    return rng.choices(names, weights=[COUNTRIES[n][3] for n in names])[0]


def fresh(kb: KB, rng: random.Random, make, prefix: str = "") -> str:
    """A new label from make(); with prefix, X and prefix+X count as the same name, so that
    no label is contained in another ("The Golden Islands" / "Golden Islands")."""
    for _ in range(5000):
        label = make()
        if label in kb.taken:
            continue
        if prefix:
            core = label[len(prefix):] if label.startswith(prefix) else label
            if core in kb.taken or prefix + core in kb.taken:
                continue
        return label
    raise SystemExit("ran out of names")


def person_name(kb: KB, rng: random.Random, country: str) -> str:
    firsts, lasts = NAMES[COUNTRIES[country][1]]
    return fresh(kb, rng, lambda: f"{rng.choice(firsts)} {rng.choice(lasts)}")


def band_name(kb: KB, rng: random.Random) -> str:
    def make() -> str:
        adj, noun = rng.choice(BAND_ADJ), rng.choice(BAND_NOUN)
        return f"The {adj} {noun}" if rng.random() < 0.6 else f"{adj} {noun}"
    return fresh(kb, rng, make, "The ")


def album_title(kb: KB, rng: random.Random) -> str:
    def make() -> str:
        r = rng.random()
        if r < 0.55:
            return f"{rng.choice(ALB_ADJ)} {rng.choice(ALB_NOUN)}"
        if r < 0.8:
            a, b = rng.sample(ALB_NOUN, 2)
            return f"{a} and {b}"
        a, b = rng.sample(ALB_NOUN, 2)
        return f"The {a} of {b}"
    return fresh(kb, rng, make)


def song_title(kb: KB, rng: random.Random) -> str:
    def make() -> str:
        r = rng.random()
        if r < 0.3:
            return f"{rng.choice(SONG_VERB)} {rng.choice(SONG_ADV)}"
        if r < 0.6:
            return f"{rng.choice(SONG_NOUN)} in the {rng.choice(SONG_PLACE)}"
        if r < 0.75:
            return f"Don't {rng.choice(SONG_VERB)} {rng.choice(SONG_ADV)}"
        if r < 0.9:
            return f"{rng.choice(SONG_VERB)} with {rng.choice(SONG_NAME)}"
        return f"Letters to {rng.choice(SONG_NAME)}"
    return fresh(kb, rng, make, "Don't ")


def pick_city(rng: random.Random, country: str) -> str:
    cities = COUNTRIES[country][2]
    # the first cities (the big ones) are likelier
    return rng.choices(cities, weights=[max(1, 6 - i) for i in range(len(cities))])[0]


def build_kb(rng: random.Random) -> tuple[KB, dict[str, list[str]]]:
    kb = KB()
    for country, (_dem, _pool, _cities, _w) in COUNTRIES.items():
        kb.node(country, "country")
    for country, (_dem, _pool, cities, _w) in COUNTRIES.items():
        for city in cities:
            kb.node(city, "city")
            kb.add(city, "located in", country)
    for g in GENRES:
        kb.node(g, "music genre")
    for i in INSTRUMENTS:
        kb.node(i, "musical instrument")

    # --- schools, radio, awards, venues -----------------------------------------------------
    for school in SCHOOLS:
        kb.node(school, "music school")
        kb.add(school, "campus city", pick_city(rng, weighted_country(rng)))
    for station in RADIO:
        kb.node(station, "radio station")
        kb.add(station, "broadcast from", pick_city(rng, weighted_country(rng)))
        for g in sorted(rng.sample(GENRES, rng.choice([1, 1, 2]))):
            kb.add(station, "station format", g)
    for award in AWARDS:
        kb.node(award, "award")
        kb.add(award, "presented by", rng.choice(RADIO))
    for venue in VENUES:
        kb.node(venue, "concert venue")
        kb.add(venue, "venue city", pick_city(rng, weighted_country(rng)))
        big = any(w in venue for w in ("Arena", "Amphitheatre", "Pavilion"))
        kb.add(venue, "capacity", rng.randint(8, 40) * 500 if big else rng.randint(6, 60) * 50)
        kb.add(venue, "opening year", rng.randint(1890, 2015))

    # --- labels -----------------------------------------------------------------------------
    labels: list[str] = []
    label_country: dict[str, str] = {}
    words = rng.sample(LABEL_WORDS, len(LABEL_WORDS))
    for w in words:
        label = kb.node(f"{w} {rng.choice(LABEL_SUFFIX)}", "record label")
        country = weighted_country(rng)
        label_country[label] = country
        kb.add(label, "label headquarters", pick_city(rng, country))
        kb.add(label, "founding year", rng.randint(1950, 2012))
        labels.append(label)

    people_country: dict[str, str] = {}

    def person(cls: str, country: str, birth_year: int, home_city: str | None = None) -> str:
        name = kb.node(person_name(kb, rng, country), cls)
        people_country[name] = country
        abroad = rng.random() < 0.12
        if abroad:
            bc = rng.choice([c for c in COUNTRIES if c != country])
            kb.add(name, "born in", pick_city(rng, bc))
        elif home_city and rng.random() < 0.35:
            kb.add(name, "born in", home_city)
        else:
            kb.add(name, "born in", pick_city(rng, country))
        kb.add(name, "birth year", birth_year)
        kb.add(name, "citizen of", country)
        if abroad and rng.random() < 0.5:
            kb.add(name, "citizen of", bc)
        if rng.random() < (0.4 if cls == "producer" else 0.22):
            kb.add(name, "studied at", rng.choice(SCHOOLS))
        return name

    # --- producers --------------------------------------------------------------------------
    producers = [person("producer", weighted_country(rng), rng.randint(1940, 1990))
                 for _ in range(40)]

    # --- bands and their members ------------------------------------------------------------
    def genres_for(country: str, n: int) -> list[str]:
        pool = GENRE_BIAS.get(country, []) + GENRES
        out: list[str] = []
        while len(out) < n:
            g = rng.choice(pool)
            if g not in out:
                out.append(g)
        return out

    def instruments(vocalist: bool) -> list[str]:
        if vocalist:
            first = rng.choice(["guitar", "guitar", "keyboards", "bass guitar", "piano"])
        else:
            first = rng.choice(CORE_INSTRUMENTS * 3 + list(INSTRUMENTS))
        out = [first]
        if rng.random() < 0.3:
            second = rng.choice(list(INSTRUMENTS))
            if second != first:
                out.append(second)
        return out

    bands: list[str] = []
    band_info: dict[str, dict] = {}
    musicians: list[str] = []
    for _ in range(62):
        country = weighted_country(rng)
        band = kb.node(band_name(kb, rng), "band")
        city = pick_city(rng, country)
        year = rng.randint(1962, 2016)
        kb.add(band, "formed in", city)
        kb.add(band, "formation year", year)
        genres = genres_for(country, rng.choice([1, 1, 2]))
        for g in genres:
            kb.add(band, "genre", g)
        members = []
        for k in range(rng.choice([3, 4, 4, 5])):
            mc = country if rng.random() < 0.85 else weighted_country(rng)
            m = person("musician", mc, year - rng.randint(17, 29), city)
            kb.add(m, "member of", band)
            for ins in instruments(k == 0):
                kb.add(m, "plays instrument", ins)
            members.append(m)
            musicians.append(m)
        kb.add(band, "lead vocalist", members[0])
        bands.append(band)
        band_info[band] = {"country": country, "year": year, "genres": genres,
                           "members": members}

    # influences: earlier bands only
    for band in bands:
        earlier = [b for b in bands if band_info[b]["year"] < band_info[band]["year"]]
        for b in rng.sample(earlier, min(len(earlier), rng.choice([0, 1, 1, 2, 2]))):
            kb.add(band, "influenced by", b)

    # --- solo artists -----------------------------------------------------------------------
    solo: list[str] = []
    solo_info: dict[str, dict] = {}
    for _ in range(42):
        country = weighted_country(rng)
        by = rng.randint(1945, 1998)
        m = person("musician", country, by)
        for ins in instruments(True):
            kb.add(m, "plays instrument", ins)
        musicians.append(m)
        solo.append(m)
        solo_info[m] = {"country": country, "birth": by, "genres": genres_for(country, 2)}

    # former bands: some solo artists and some band members used to be in another band
    for m in rng.sample(solo, 16) + rng.sample([x for b in bands for x in band_info[b]["members"]],
                                               40):
        current = kb.objs(m, "member of")
        choices = [b for b in bands if b not in current]
        kb.add(m, "former member of", rng.choice(choices))

    # some band members also make solo records
    for m in rng.sample([x for b in bands for x in band_info[b]["members"]], 10):
        band = kb.objs(m, "member of")[0]
        solo.append(m)
        by = int(kb.objs(m, "birth year")[0])
        solo_info[m] = {"country": people_country[m], "birth": by,
                        "genres": band_info[band]["genres"]}

    # label founders: producers and musicians
    founder_pool = rng.sample(producers, 13) + rng.sample(musicians, 9)
    rng.shuffle(founder_pool)
    for label, founder in zip(labels, founder_pool, strict=True):
        kb.add(label, "founder", founder)

    # --- albums and songs -------------------------------------------------------------------
    def home_label(country: str) -> str:
        local = [lb for lb in labels if label_country[lb] == country]
        return rng.choice(local) if local and rng.random() < 0.6 else rng.choice(labels)

    albums: list[str] = []

    def album(performer: str, year: int, genres: list[str], main_label: str, main_prod: str,
              writers: list[str], lead: str) -> None:
        a = kb.node(album_title(kb, rng), "album")
        kb.add(a, "performer", performer)
        prods = [main_prod if rng.random() < 0.5 else rng.choice(producers)]
        if rng.random() < 0.15:
            extra = rng.choice(producers)
            if extra not in prods:
                prods.append(extra)
        for p in prods:
            kb.add(a, "produced by", p)
        kb.add(a, "released on label", main_label if rng.random() < 0.7 else rng.choice(labels))
        kb.add(a, "release year", year)
        kb.add(a, "genre", rng.choice(genres) if rng.random() < 0.82 else rng.choice(GENRES))
        if rng.random() < 0.09:
            kb.add(a, "award won", rng.choice(AWARDS))
        if rng.random() < 0.07:
            kb.add(a, "recorded at", rng.choice(VENUES))
        albums.append(a)
        for _ in range(rng.choice([1, 1, 2])):
            s = kb.node(song_title(kb, rng), "song")
            kb.add(s, "track of", a)
            ws = [lead] if rng.random() < 0.75 else []
            others = [w for w in writers if w != lead]
            if others and (not ws or rng.random() < 0.4):
                ws.append(rng.choice(others))
            if not ws:
                ws.append(lead)
            if rng.random() < 0.12:
                ws.append(rng.choice(prods))
            for w in ws:
                kb.add(s, "written by", w)

    def years(start: int, n: int) -> list[int]:
        start = min(start, 2023)
        end = min(start + 32, 2024)
        return sorted(rng.sample(range(start, end + 1), min(n, end - start + 1)))

    for band in bands:
        info = band_info[band]
        lbl, prod = home_label(info["country"]), rng.choice(producers)
        for y in years(info["year"] + 1, rng.choice([1, 2, 2, 3, 3, 4])):
            album(band, y, info["genres"], lbl, prod, info["members"], info["members"][0])
    for m in solo:
        info = solo_info[m]
        lbl, prod = home_label(info["country"]), rng.choice(producers)
        for y in years(info["birth"] + 20, rng.choice([1, 1, 2, 2, 3])):
            album(m, y, info["genres"], lbl, prod, [m], m)

    # --- marriages --------------------------------------------------------------------------
    people = musicians + producers
    unmarried = list(people)
    rng.shuffle(unmarried)
    for k in range(24):
        a, b = unmarried[2 * k], unmarried[2 * k + 1]
        kb.add(a, "spouse", b)
        kb.add(b, "spouse", a)

    # --- festivals --------------------------------------------------------------------------
    performers = sorted({p for a in albums for p in kb.objs(a, "performer")},
                        key=lambda x: (kb.cls[x], x))
    for fest in FESTIVALS:
        kb.node(fest, "music festival")
        kb.add(fest, "held in", pick_city(rng, weighted_country(rng)))
        kb.add(fest, "first held", rng.randint(1968, 2015))
        for act in rng.sample(performers, rng.randint(3, 5)):
            kb.add(fest, "headliner", act)

    years_used = sorted({int(y) for a in albums for y in kb.objs(a, "release year")})
    ents = {
        "M": musicians, "B": bands, "A": albums, "S": kb.of_class("song"), "L": labels,
        "P": producers, "Y": kb.of_class("city"), "N": list(COUNTRIES), "G": GENRES,
        "I": list(INSTRUMENTS), "F": FESTIVALS, "V": VENUES, "W": AWARDS, "C": SCHOOLS,
        "R": RADIO, "T": [str(y) for y in years_used], "X": performers, "Q": people,
    }
    return kb, ents


# ---------------------------------------------------------------------------------------------
# Question specs
# ---------------------------------------------------------------------------------------------

# country labels written with a definite article in running text ("in the Netherlands")
COUNTRY_THE = {"United States", "United Kingdom", "Netherlands"}

# anchor type -> placeholder
PLACEHOLDER = {"M": "m", "B": "b", "A": "a", "S": "s", "L": "l", "P": "p", "Y": "y", "N": "n",
               "G": "g", "I": "i", "F": "f", "V": "v", "W": "w", "C": "c", "R": "r", "T": "t",
               "X": "x", "Q": "q"}
KIND_ORDER = ["plain", "synonym", "wh-type", "possessive", "relative", "topic-answer", "other",
              "inverse-set", "intersection"]


@dataclass
class Spec:
    kind: str
    qtype: str
    anchors: str  # one letter per anchor
    tune: list[str]
    held: list[str]


S = Spec
SPECS: list[Spec] = [
    # ---------------------------------------------------------------- plain
    S("plain", "member_of", "M",
      ["Which band is {m} a member of?", "{m} is a member of which band?",
       "what band is {m} a member of", "Name the band {m} is a member of.",
       "which band has {m} as a member"],
      ["Of which band is {m} a member?", "Band that {m} is currently a member of?",
       "Tell me what band {m} is a member of"]),
    S("plain", "plays_instrument", "M",
      ["What instrument does {m} play?", "Which instruments does {m} play?",
       "List the instruments {m} plays.", "Name the instrument played by {m}.",
       "which instrument is played by {m}"],
      ["Instruments played by {m}?", "What does {m} play, instrument-wise?",
       "tell me which instruments {m} plays"]),
    S("plain", "produced_by", "A",
      ["Who produced {a}?", "Who was {a} produced by?", "{a} was produced by whom?",
       "name the producer of {a}", "Which producer produced the album {a}?"],
      ["By whom was {a} produced?", "Who is credited as producer on {a}?",
       "Give me the producers of {a}."]),
    S("plain", "released_on_label", "A",
      ["Which label was {a} released on?", "What record label released {a}?",
       "{a} was released on what label?", "record label of {a}",
       "Name the label that released {a}."],
      ["Tell me the label {a} was released on.", "Through which record label was {a} released?",
       "which record label is {a} on"]),
    S("plain", "founder", "L",
      ["Who founded {l}?", "Who is the founder of {l}?", "{l} was founded by whom?",
       "Name the founder of {l}.", "who founded the label {l}"],
      ["By whom was {l} founded?", "Founder of {l}?",
       "Which person founded the record label {l}?"]),
    S("plain", "written_by", "S",
      ["Who wrote {s}?", "Who wrote the song {s}?", "{s} was written by whom?",
       "Name the writers of {s}.", "which people wrote {s}"],
      ["By whom was the song {s} written?", "List everyone who wrote {s}.",
       "Who are the credited writers of {s}?"]),
    S("plain", "spouse", "M",
      ["Who is the spouse of {m}?", "Who is {m}'s spouse?", "name {m}'s spouse",
       "{m}'s spouse is who?", "Which person is the spouse of {m}?"],
      ["Spouse of {m}?", "Tell me who {m}'s spouse is.", "who is listed as {m}'s spouse"]),
    # ---------------------------------------------------------------- synonym
    S("synonym", "lead_vocalist", "B",
      ["Who fronts {b}?", "Who is the frontman of {b}?", "who sings for {b}",
       "Who's the singer in {b}?", "Which member handles the singing in {b}?"],
      ["Who is {b}'s frontperson?", "Who takes the mic for {b}?", "who is the voice of {b}"]),
    S("synonym", "member_of", "M",
      ["Which outfit does {m} play in?", "What group is {m} in?",
       "Which band does {m} play with?", "what act is {m} part of",
       "Which band is {m} in these days?"],
      ["{m} is in which group?", "Which combo does {m} currently belong to?",
       "What's {m}'s current band?"]),
    S("synonym", "released_on_label", "A",
      ["Which imprint put out {a}?", "Which record company issued {a}?",
       "What imprint is {a} on?", "{a} came out on which imprint?",
       "which company put {a} out"],
      ["Which record company published {a}?", "What company was {a} issued through?",
       "which imprint was behind {a}"]),
    S("synonym", "produced_by", "A",
      ["Who sat behind the mixing desk for {a}?", "Who was at the controls for {a}?",
       "Who helmed the recording sessions for {a}?", "who twiddled the knobs on {a}",
       "Who oversaw the studio work on {a}?"],
      ["Who ran the board for {a}?", "Whose studio hands shaped {a}?",
       "who manned the console when {a} was recorded"]),
    S("synonym", "spouse", "M",
      ["Who is {m} married to?", "Who did {m} marry?", "Who is {m}'s husband or wife?",
       "who's {m} wed to", "Whom has {m} married?"],
      ["{m} tied the knot with whom?", "Who is {m}'s other half?",
       "Name {m}'s partner in marriage."]),
    S("synonym", "written_by", "S",
      ["Who penned {s}?", "Who composed {s}?", "who's the songwriter behind {s}",
       "Who came up with the song {s}?", "Whose composition is {s}?"],
      ["Who authored the song {s}?", "Who gets songwriting credit for {s}?",
       "which songsmith is behind {s}"]),
    S("synonym", "^performer", "X",
      ["What records has {x} put out?", "Which albums has {x} dropped?",
       "What's in {x}'s discography?", "which LPs did {x} make",
       "What albums did {x} record?"],
      ["Which albums did {x} bring out?", "Name the LPs in {x}'s catalogue.",
       "what has {x} put on wax"]),
    S("synonym", "born_in", "M",
      ["Which city does {m} hail from?", "What's {m}'s hometown?",
       "what city is {m} originally from", "Where does {m} come from originally?",
       "Which town is {m} a native of?"],
      ["Where's {m} from originally, city-wise?", "What is the home town of {m}?",
       "in which city did {m} first see the light of day"]),
    # ---------------------------------------------------------------- wh-type
    S("wh-type", "born_in", "M",
      ["Where was {m} born?", "In which city was {m} born?", "Which city was {m} born in?",
       "What city is {m}'s birthplace?", "whereabouts was {m} born"],
      ["{m} was born where?", "Name the city where {m} was born.",
       "Birthplace of {m}: which city?"]),
    S("wh-type", "birth_year", "M",
      ["When was {m} born?", "What year was {m} born?", "In what year was {m} born?",
       "{m} was born in which year?", "what's {m}'s year of birth"],
      ["Year of birth of {m}?", "{m} was born when?",
       "in which year did {m} come into the world"]),
    S("wh-type", "release_year", "A",
      ["When was {a} released?", "What year did {a} come out?",
       "In which year was {a} released?", "when did {a} drop",
       "What's the release year of {a}?"],
      ["{a} came out when?", "Year of release for {a}?",
       "in what year did {a} hit the shelves"]),
    S("wh-type", "formation_year", "B",
      ["When was {b} formed?", "What year did {b} form?", "In which year did {b} get together?",
       "when were {b} founded", "Since when have {b} been around?"],
      ["{b} formed in what year?", "Year {b} started out?",
       "when did {b} first come together"]),
    S("wh-type", "formed_in>located_in", "B",
      ["Which country are {b} from?", "What country was {b} formed in?",
       "In which country did {b} form?", "which country do {b} come from",
       "{b} is a band from which country?"],
      ["Country of origin of {b}?", "{b} started out in what country?",
       "from what country do {b} hail"]),
    S("wh-type", "born_in>located_in", "M",
      ["In which country was {m} born?", "Which country was {m} born in?",
       "What country is {m}'s birthplace in?", "{m} was born in what country?",
       "which country is {m}'s hometown in"],
      ["Country of birth of {m}?", "Tell me the country where {m} was born.",
       "{m}: born in which nation?"]),
    S("wh-type", "track_of>performer>formed_in", "S",
      ["Where was the band behind {s} formed?",
       "Which city does the band that recorded {s} come from?",
       "In which city did the act behind {s} get together?",
       "what city is the band that did {s} from",
       "Which city was the group that made {s} formed in?"],
      ["The band responsible for {s} formed in which city?",
       "Which city gave us the band behind the song {s}?",
       "where did the group that released {s} start out"]),
    S("wh-type", "capacity", "V",
      ["How many people can {v} hold?", "What is the capacity of {v}?", "how big is {v}",
       "How many fans fit into {v}?", "What size of crowd can {v} take?"],
      ["Capacity of {v}?", "How large a crowd does {v} accommodate?",
       "how many punters can squeeze into {v}"]),
    # ---------------------------------------------------------------- possessive
    S("possessive", "released_on_label>founder", "A",
      ["Who is {a}'s label's founder?", "Who founded {a}'s label?",
       "{a}'s record label was founded by whom?", "who is the founder of {a}'s label",
       "Name {a}'s label's founder."],
      ["Founder of {a}'s record label?", "{a}'s imprint: who founded it?",
       "who started up {a}'s label"]),
    S("possessive", "released_on_label>label_headquarters", "A",
      ["What is {a}'s label's headquarters?", "Where is {a}'s label headquartered?",
       "{a}'s label is headquartered in which city?", "what city is {a}'s label based in",
       "Name the city of {a}'s label's head office."],
      ["Headquarters city of {a}'s label?", "Which city houses {a}'s record label?",
       "where does {a}'s label have its HQ"]),
    S("possessive", "member_of>formed_in", "M",
      ["Where was {m}'s band formed?", "What is {m}'s band's home city?",
       "In which city was {m}'s band formed?", "{m}'s band formed in what city?",
       "what city was {m}'s group started in"],
      ["City of formation of {m}'s band?", "{m}'s band's city of origin?",
       "which city did {m}'s outfit form in"]),
    S("possessive", "produced_by>born_in>located_in", "A",
      ["What is {a}'s producer's country of birth?", "In which country was {a}'s producer born?",
       "{a}'s producer was born in which country?",
       "which country is {a}'s producer from by birth",
       "Name the birth country of {a}'s producer."],
      ["Country where {a}'s producer was born?", "{a}'s producer: born in what country?",
       "which nation was {a}'s producer born in"]),
    S("possessive", "lead_vocalist>citizen_of", "B",
      ["What is {b}'s singer's nationality?",
       "Which country is {b}'s lead vocalist a citizen of?",
       "{b}'s frontman holds citizenship of which country?",
       "what nationality is {b}'s lead singer", "Name the citizenship of {b}'s vocalist."],
      ["{b}'s lead vocalist: which citizenship?", "Nationality of {b}'s frontman?",
       "which passport does {b}'s singer hold"]),
    S("possessive", "track_of>released_on_label>founder", "S",
      ["Who founded {s}'s album's label?", "Who is the founder of {s}'s album's record label?",
       "{s}'s album's label was founded by whom?", "who set up the label of {s}'s album",
       "Name the founder of {s}'s album's label."],
      ["Founder of the label of {s}'s album?", "{s}'s album's imprint was started by whom?",
       "whose label is {s}'s album on"]),
    S("possessive", "spouse>member_of", "M",
      ["What band is {m}'s spouse in?", "Which band is {m}'s spouse a member of?",
       "{m}'s husband or wife plays in which band?", "what group is {m}'s spouse in",
       "Name {m}'s spouse's band."],
      ["Band of {m}'s spouse?", "{m}'s partner's band?",
       "which outfit does {m}'s spouse belong to"]),
    S("possessive", "member_of>lead_vocalist>studied_at", "M",
      ["Where did {m}'s band's singer study?",
       "Which music school did {m}'s band's lead vocalist attend?",
       "{m}'s band's frontman studied at which school?",
       "what school did {m}'s band's vocalist go to",
       "Name the music school of {m}'s band's singer."],
      ["Alma mater of {m}'s band's lead singer?",
       "{m}'s band's vocalist trained at which conservatory?",
       "which school educated {m}'s group's singer"]),
    # ---------------------------------------------------------------- relative
    S("relative", "track_of>produced_by", "S",
      ["Who produced the album that {s} is on?",
       "Who was the producer of the album containing {s}?",
       "the album featuring {s} was produced by whom",
       "Which producer worked on the record that includes {s}?",
       "Who produced the album on which {s} appears?"],
      ["Name the producer of the album that contains {s}.",
       "Who is the producer behind the record {s} comes from?",
       "the LP with {s} on it: who produced it"]),
    S("relative", "member_of>formation_year", "M",
      ["When was the band that {m} plays in formed?",
       "In which year was the band {m} belongs to formed?",
       "what year did the band that {m} is in form",
       "The band {m} is a member of was formed when?",
       "When did the group {m} plays with get started?"],
      ["Formation year of the band that {m} is part of?",
       "In what year was the group that counts {m} as a member founded?",
       "which year did the band {m} plays for come together"]),
    S("relative", "^lead_vocalist>^performer", "M",
      ["Which albums were released by the band that {m} fronts?",
       "What albums did the band {m} sings for put out?",
       "List the albums by the band whose lead vocalist is {m}.",
       "which records were made by the group {m} fronts",
       "Name the albums of the band in which {m} is the lead singer."],
      ["Albums by the band that has {m} as its singer?",
       "What records came from the group that {m} sings in?",
       "which LPs were recorded by the band {m} is the voice of"]),
    S("relative", "^written_by>track_of", "Q",
      ["Which albums contain songs that {q} wrote?",
       "On which albums are there songs written by {q}?",
       "what albums feature songs {q} wrote",
       "Name the albums that include a song written by {q}.",
       "Which records have tracks that {q} co-wrote?"],
      ["Albums featuring a song that {q} penned?",
       "Which records carry tracks credited to {q} as writer?",
       "give the albums with songs that were written by {q}"]),
    S("relative", "^founder>^released_on_label>performer", "Q",
      ["Which artists released albums on the label that {q} founded?",
       "Who has put out records on the label {q} founded?",
       "which acts are on the label founded by {q}",
       "Name the performers of albums released by the label that {q} set up.",
       "Which artists recorded for the label {q} started?"],
      ["Artists whose albums came out on the label founded by {q}?",
       "Who released music through the imprint that {q} started?",
       "which acts have records on the label {q} established"]),
    S("relative", "^studied_at>member_of", "C",
      ["Which bands have a member who studied at {c}?",
       "Which bands include musicians who studied at {c}?",
       "what bands feature someone who went to {c}",
       "Name the bands with members that attended {c}.",
       "Which groups count an alumnus of {c} among their members?"],
      ["Bands with at least one member educated at {c}?",
       "Which outfits have players who trained at {c}?",
       "in which bands do people who studied at {c} play"]),
    S("relative", "^born_in>^produced_by", "Y",
      ["Which albums were produced by someone born in {y}?",
       "What albums were produced by producers born in {y}?",
       "which records had a producer who was born in {y}",
       "Name the albums produced by a person born in {y}.",
       "Which albums did producers from {y} produce?"],
      ["Albums whose producer was born in {y}?",
       "What records were produced by people who were born in {y}?",
       "which LPs were made with a producer native to {y}"]),
    # ---------------------------------------------------------------- topic-answer
    S("topic-answer", "member_of>^member_of", "M",
      ["Who are the members of {m}'s band?", "Who is in {m}'s band?",
       "List everyone in the band {m} belongs to.", "who plays in {m}'s group",
       "Name the members of the band that {m} is in."],
      ["Full lineup of {m}'s band?", "Which musicians make up {m}'s band?",
       "give me the members of the group {m} plays in"]),
    S("topic-answer", "^performer>performer", "X",
      ["Who performs on the albums {x} released?", "Who is the performer of {x}'s albums?",
       "Which artists recorded the albums that {x} put out?",
       "who performed the albums by {x}", "Name the performers of {x}'s records."],
      ["Who are the credited performers on {x}'s albums?",
       "Whose names appear as performer on the records {x} made?",
       "the albums {x} released were performed by whom"]),
    S("topic-answer", "spouse>spouse", "M",
      ["Who is {m}'s spouse married to?", "Who is the spouse of {m}'s spouse?",
       "whom did {m}'s husband or wife marry", "{m}'s spouse is married to whom?",
       "Name the spouse of {m}'s spouse."],
      ["Who did the spouse of {m} marry?",
       "The person {m} is married to is married to whom?",
       "who's the partner of {m}'s partner"]),
    S("topic-answer", "track_of>^track_of", "S",
      ["What songs are on the album that has {s}?", "Which songs are on {s}'s album?",
       "list the tracks of the album {s} is from",
       "What are the tracks on the record featuring {s}?",
       "Name the songs from the album containing {s}."],
      ["Tracklist of the album that {s} appears on?",
       "What does the album with {s} on it contain, song-wise?",
       "give me every song on {s}'s album"]),
    S("topic-answer", "lead_vocalist>member_of", "B",
      ["Which band is {b}'s lead vocalist a member of?",
       "What band does {b}'s singer belong to?", "which group is {b}'s frontman in",
       "{b}'s lead singer plays in which band?", "Name the band of {b}'s vocalist."],
      ["The singer of {b} is a member of which band?",
       "Which group counts {b}'s frontperson as a member?",
       "band membership of {b}'s lead vocalist"]),
    S("topic-answer", "released_on_label>^released_on_label", "A",
      ["Which albums came out on {a}'s label?", "What albums has {a}'s label released?",
       "which records did the label of {a} put out", "Name all albums on {a}'s record label.",
       "List the releases of the label that put out {a}."],
      ["Catalogue of {a}'s label?", "Every album released by the label behind {a}?",
       "what has the record label of {a} released"]),
    # ---------------------------------------------------------------- other
    S("other", "member_of>^member_of", "M",
      ["Who are {m}'s bandmates?", "Who else plays in {m}'s band?",
       "Which other musicians are in {m}'s band?", "who does {m} share a band with",
       "Name {m}'s fellow band members."],
      ["List the people {m} is in a band with.", "Besides {m}, who is in the band?",
       "which musicians play alongside {m} in the group"]),
    S("other", "released_on_label>^released_on_label", "A",
      ["What other albums came out on the same label as {a}?",
       "Which other records did {a}'s label release?", "what else did {a}'s label put out",
       "Name the label-mates of {a}.", "Which other albums share a label with {a}?"],
      ["Apart from {a}, which albums did its label release?",
       "Other releases on {a}'s record label?",
       "which albums besides {a} were issued by the same imprint"]),
    S("other", "born_in>^born_in", "M",
      ["Who else was born in {m}'s hometown?",
       "Which other people were born in the same city as {m}?",
       "who else comes from {m}'s birthplace",
       "Name others born in the city where {m} was born.",
       "Which other musicians or producers share {m}'s birthplace?"],
      ["Besides {m}, who was born in that same city?",
       "Other people whose birthplace matches {m}'s?", "who shares a hometown with {m}"]),
    S("other", "formed_in>^formed_in", "B",
      ["Which other bands were formed in the same city as {b}?",
       "What other bands come from {b}'s city?",
       "which bands besides {b} formed in its home city",
       "Name other groups formed where {b} was formed.",
       "Who else formed in {b}'s home town?"],
      ["Other bands from the city where {b} started?",
       "Apart from {b}, which bands got together in the same city?",
       "which fellow bands share {b}'s city of formation"]),
    S("other", "produced_by>^produced_by", "A",
      ["What other albums did {a}'s producer work on?",
       "Which other albums were produced by the producer of {a}?",
       "what else has {a}'s producer produced", "Name other records by {a}'s producer.",
       "Which other albums share a producer with {a}?"],
      ["Besides {a}, what did its producer produce?",
       "Other albums from the producer behind {a}?",
       "which records other than {a} had the same producer"]),
    S("other", "influenced_by>^influenced_by", "B",
      ["Which other bands were influenced by the same bands as {b}?",
       "What other bands share an influence with {b}?",
       "which bands besides {b} were influenced by {b}'s influences",
       "Name other bands that drew on the same influences as {b}.",
       "Who else was influenced by the bands that influenced {b}?"],
      ["Bands other than {b} with the same influences?",
       "Which other groups took inspiration from {b}'s influences?",
       "apart from {b}, who cites the same influences"]),
    # ---------------------------------------------------------------- inverse-set
    S("inverse-set", "^released_on_label", "L",
      ["Which albums came out on {l}?", "What albums were released on {l}?",
       "which records did {l} release", "List the albums on {l}.",
       "Name the albums released by {l}."],
      ["Albums released through {l}?", "What has {l} put out?", "show me {l}'s releases"]),
    S("inverse-set", "^born_in", "Y",
      ["Who was born in {y}?", "Which musicians or producers were born in {y}?",
       "who comes from {y}", "List people born in {y}.", "Name everyone born in {y}."],
      ["People whose birthplace is {y}?", "Who has {y} as their birthplace?",
       "which people are natives of {y}"]),
    S("inverse-set", "^member_of", "B",
      ["Who are the members of {b}?", "Who plays in {b}?", "which musicians are in {b}",
       "List the members of {b}.", "Name the lineup of {b}."],
      ["Current members of {b}?", "Who makes up {b}?", "which people belong to {b}"]),
    S("inverse-set", "^produced_by", "P",
      ["Which albums did {p} produce?", "What records has {p} produced?",
       "list the albums produced by {p}", "Name the albums that {p} produced.",
       "What albums has {p} worked on as producer?"],
      ["Albums with {p} as producer?", "{p}'s production credits?",
       "which LPs were produced by {p}"]),
    S("inverse-set", "^located_in>^formed_in", "N",
      ["Which bands were formed in {n}?", "What bands come from {n}?",
       "which groups formed in {n}", "List bands formed in {n}.",
       "Name the bands that started in {n}."],
      ["Bands whose origins lie in {n}?", "Which acts got together in {n}?",
       "which bands originate from {n}"]),
    S("inverse-set", "^award_won>performer", "W",
      ["Which artists have won the {w}?", "Who has won the {w}?",
       "which acts received the {w}", "List the performers of albums that won the {w}.",
       "Name the artists with an album that won the {w}."],
      ["{w} winners (artists)?", "Which performers picked up the {w}?",
       "who took home the {w}"]),
    S("inverse-set", "^located_in>^born_in>member_of", "N",
      ["Which bands have a member born in {n}?",
       "What bands include musicians born in {n}?",
       "which groups have someone born in {n}", "List bands with a member born in {n}.",
       "Name the bands featuring a member who was born in {n}."],
      ["Bands that count a native of {n} among their members?",
       "In which bands does someone born in {n} play?",
       "which outfits have members whose birthplace is in {n}"]),
    S("inverse-set", "^headliner", "X",
      ["Which festivals has {x} headlined?", "What festivals did {x} headline?",
       "which festivals had {x} as headliner", "List the festivals headlined by {x}.",
       "At which festivals was {x} a headliner?"],
      ["Festivals topped by {x}?", "Which festival bills has {x} topped?",
       "headline slots of {x}: which festivals"]),
    # ---------------------------------------------------------------- intersection
    S("intersection", "^citizen_of&^plays_instrument", "NI",
      ["Which {dem} musicians play the {i}?", "Which {dem} {ip} are there?",
       "who are the {dem} {ip}", "List musicians from {n} who play {i}.",
       "Name citizens of {n} who play the {i}."],
      ["{dem} players of the {i}?", "Which musicians holding citizenship of {n} play {i}?",
       "who plays {i} and is a citizen of {n}"]),
    S("intersection", "^released_on_label&^genre", "LG",
      ["Which {g} albums came out on {l}?", "What {g} albums did {l} release?",
       "which {g} records are on {l}", "List {g} albums released on {l}.",
       "Name the albums on {l} in the {g} genre."],
      ["{l} releases in the {g} genre?", "Which albums on {l} are {g}?",
       "{g} records put out by {l}"]),
    S("intersection", "^released_on_label&^release_year", "LT",
      ["Which albums did {l} release in {t}?", "What albums came out on {l} in {t}?",
       "which records did {l} put out in {t}", "List {l} albums from {t}.",
       "Name the albums released on {l} in {t}."],
      ["{l} releases from {t}?", "In {t}, which albums did {l} issue?",
       "albums on {l} with release year {t}"]),
    S("intersection", "^formed_in&^genre", "YG",
      ["Which {g} bands were formed in {y}?", "What {g} bands come from {y}?",
       "which {g} groups formed in {y}", "List {g} bands formed in {y}.",
       "Name the bands from {y} that play {g}."],
      ["{g} acts formed in {y}?", "Which bands that started in {y} play {g}?",
       "{y} bands in the {g} genre"]),
    S("intersection", "^member_of&^plays_instrument", "BI",
      ["Who plays {i} in {b}?", "Which members of {b} play the {i}?",
       "who's on {i} in {b}", "List the {ip} in {b}.",
       "Name the members of {b} who play {i}."],
      ["Which {b} members are {ip}?", "{i} players in {b}?",
       "in {b}, who handles the {i}"]),
    S("intersection", "^located_in>^formed_in&^genre", "NG",
      ["Which {g} bands come from {n}?", "What {dem} {g} bands are there?",
       "which {g} groups were formed in {n}", "List {g} bands from {n}.",
       "Name the {dem} bands that play {g}."],
      ["{dem} {g} acts?", "Which bands formed in {n} play {g}?",
       "bands from {n} in the {g} genre"]),
]

# words a synonym wording must not use (the relation's own words)
SYNONYM_BANNED = {
    "lead_vocalist": ["lead", "vocalist", "vocalists"],
    "member_of": ["member", "members"],
    "released_on_label": ["label", "released", "release"],
    "produced_by": ["produced", "producer", "produce", "production"],
    "spouse": ["spouse"],
    "written_by": ["write", "wrote", "written", "writer", "writers"],
    "^performer": ["performer", "performed", "perform"],
    "born_in": ["born", "birth", "birthplace"],
}


# ---------------------------------------------------------------------------------------------
# Executing paths and making questions
# ---------------------------------------------------------------------------------------------


def branches(qtype: str) -> list[list[str]]:
    return [b.split(">") for b in qtype.split("&")]


def hops(qtype: str) -> int:
    return max(len(b) for b in branches(qtype))


def execute(kb: KB, qtype: str, anchors: tuple[str, ...]) -> set[str]:
    """Run a qtype path; with one anchor every branch starts at it, else branch i at anchor i."""
    result: set[str] | None = None
    for i, steps in enumerate(branches(qtype)):
        frontier = {anchors[i] if len(anchors) > 1 else anchors[0]}
        for step in steps:
            rel = step.lstrip("^").replace("_", " ")
            assert rel in RELATIONS, step
            index = kb.inv[rel] if step.startswith("^") else kb.fwd[rel]
            nxt: set[str] = set()
            for x in frontier:
                nxt |= index.get(x, set())
            frontier = nxt
        result = frontier if result is None else result & frontier
    return result or set()


def candidates(kb: KB, ents: dict[str, list[str]], spec: Spec) -> list:
    pools = [ents[a] for a in spec.anchors]
    combos: list[tuple[str, ...]] = [(x,) for x in pools[0]]
    for pool in pools[1:]:
        combos = [c + (y,) for c in combos for y in pool if y not in c]
    out = []
    for anchors in combos:
        gold = execute(kb, spec.qtype, anchors)
        if spec.kind == "other":
            gold = gold - {anchors[0]}
        if spec.kind == "topic-answer" and anchors[0] not in gold:
            continue
        if 1 <= len(gold) <= MAX_ANSWERS:
            out.append((anchors, gold))
    return out


def possessive(text: str, label: str) -> str:
    return text.replace(f"{label}'s", f"{label}'") if label.endswith("s") else text


def render(template: str, spec: Spec, anchors: tuple[str, ...]) -> str:
    values: dict[str, str] = {}
    for kind, label in zip(spec.anchors, anchors, strict=True):
        values[PLACEHOLDER[kind]] = label
        if kind == "N":
            values["dem"] = COUNTRIES[label][0]
            if label in COUNTRY_THE:
                values["n"] = f"the {label}"
        if kind == "I":
            values["ip"] = INSTRUMENTS[label]
    text = template.format(**values)
    for label in anchors:
        text = possessive(text, label)
    for kind, label in zip(spec.anchors, anchors, strict=True):
        shown = {label}
        if kind == "N":
            shown.add(COUNTRIES[label][0])
        if kind == "I":
            shown.add(INSTRUMENTS[label])
        if not any(re.search(rf"(?<![\w-]){re.escape(x)}(?![\w-])", text) for x in shown):
            raise SystemExit(f"anchor {label!r} missing from {text!r}")
    if len(anchors) == 1 and not re.search(rf"(?<![\w-]){re.escape(anchors[0])}(?![\w-])", text):
        raise SystemExit(f"topic {anchors[0]!r} not written as its label: {text!r}")
    return text


def make_questions(kb: KB, ents: dict[str, list[str]], rng: random.Random):
    tune_rows: list[tuple[str, str, str, str, int]] = []
    held_rows: list[tuple[str, str, str, str, int]] = []
    seen_text: set[str] = set()
    spec_counts: list[tuple[Spec, int, int]] = []
    for spec in SPECS:
        cands = candidates(kb, ents, spec)
        rng.shuffle(cands)
        counts = []
        used_topics: set[tuple[str, ...]] = set()
        for templates, n, rows in ((spec.tune, N_TUNE, tune_rows), (spec.held, N_HELD, held_rows)):
            order = [c for c in cands if c[0] not in used_topics] + \
                    [c for c in cands if c[0] in used_topics]
            offset = rng.randrange(len(templates))
            made = 0
            for anchors, gold in order:
                if made == n:
                    break
                for k in range(len(templates)):
                    t = templates[(offset + made + k) % len(templates)]
                    text = render(t, spec, anchors)
                    if text not in seen_text:
                        break
                else:
                    continue
                seen_text.add(text)
                used_topics.add(anchors)
                rows.append((text, "|".join(sorted(gold)), spec.qtype, spec.kind,
                             hops(spec.qtype)))
                made += 1
            counts.append(made)
        spec_counts.append((spec, counts[0], counts[1]))
    rng.shuffle(tune_rows)
    rng.shuffle(held_rows)
    return tune_rows, held_rows, spec_counts


# ---------------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------------


def norm(template: str) -> str:
    """Template text for comparison: lower case, no punctuation, placeholders anonymised."""
    t = re.sub(r"\{[a-z]+\}", "{}", template.lower())
    return re.sub(r"\s+", " ", re.sub(r"[^a-z{} ]+", " ", t)).strip()


def check_templates() -> None:
    tune = {norm(t) for s in SPECS for t in s.tune}
    held = {norm(t) for s in SPECS for t in s.held}
    both = tune & held
    if both:
        raise SystemExit(f"templates shared by tuning and held-out: {sorted(both)}")
    raw_tune = {t for s in SPECS for t in s.tune}
    raw_held = {t for s in SPECS for t in s.held}
    assert not raw_tune & raw_held
    for s in SPECS:
        assert s.kind in KIND_ORDER, s.kind
        if len(s.tune) < 5 or len(s.held) < 3:
            raise SystemExit(f"{s.kind} {s.qtype}: too few templates")
        if len({norm(t) for t in s.tune}) != len(s.tune) or \
                len({norm(t) for t in s.held}) != len(s.held):
            raise SystemExit(f"{s.kind} {s.qtype}: duplicate template")
        if len(s.anchors) != len(s.qtype.split("&")) and len(s.anchors) > 1:
            raise SystemExit(f"{s.qtype}: anchors do not match branches")
        if s.kind != "synonym":
            continue
        for t in s.tune + s.held:
            for word in SYNONYM_BANNED.get(s.qtype, []):
                if re.search(rf"\b{word}\b", t.lower()):
                    raise SystemExit(f"synonym wording uses {word!r}: {t}")
    keys = [(s.kind, s.qtype) for s in SPECS]
    assert len(keys) == len(set(keys)), "duplicate spec"


def check_kb(kb: KB) -> None:
    # no invented label contains another label as a run of whole words
    natural = {"music genre", "musical instrument", "city", "country"}
    labels = set(kb.cls)
    for label, cls in kb.cls.items():
        if cls in natural:
            continue
        words = label.split()
        for i in range(len(words)):
            for j in range(i + 1, len(words) + 1):
                part = " ".join(words[i:j]).rstrip(",")
                if part != label and part in labels and kb.cls[part] not in natural - {"city"}:
                    raise SystemExit(f"label {part!r} is contained in {label!r}")
    subjects = {s for s, _r, _o in kb.triples}
    inst = Counter(s for s, r, _o in kb.triples if r == "instance of")
    for s in subjects:
        assert inst[s] == 1, f"{s!r} has {inst[s]} instance of"
    classes = {o for _s, r, o in kb.triples if r == "instance of"}
    assert len(classes) >= 13, classes
    for s, r, o in kb.triples:
        assert "\t" not in s + r + o and "\n" not in s + r + o
        assert " " in r or r in ("performer", "genre", "spouse", "founder", "headliner",
                                 "capacity"), r
    for a, bs in kb.fwd["spouse"].items():
        for b in bs:
            assert a in kb.fwd["spouse"][b]


def check_rows(kb: KB, rows: list, name: str) -> None:
    labels = set(kb.cls) | {o for _s, _r, o in kb.triples}
    texts: set[str] = set()
    for text, answers, qtype, kind, nhops in rows:
        assert text not in texts, f"{name}: duplicate question {text!r}"
        texts.add(text)
        assert "\t" not in text and "\n" not in text
        gold = answers.split("|")
        assert 1 <= len(gold) <= MAX_ANSWERS, (name, text)
        assert gold == sorted(gold)
        for a in gold:
            assert a in labels, f"{name}: answer {a!r} not in KB"
        assert kind in KIND_ORDER and nhops == hops(qtype), (kind, qtype, nhops)


# ---------------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------------


def write_tsv(path: Path, rows: list) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write("question\tanswers\tqtype\tkind\thops\n")
        for row in rows:
            f.write("\t".join(str(x) for x in row) + "\n")


def kind_hops_table(rows: list) -> list[str]:
    c = Counter((r[3], r[4]) for r in rows)
    lines = ["| kind | 1 hop | 2 hops | 3 hops | total |", "|---|---:|---:|---:|---:|"]
    for k in KIND_ORDER:
        vals = [c[(k, h)] for h in (1, 2, 3)]
        lines.append(f"| `{k}` | {vals[0]} | {vals[1]} | {vals[2]} | {sum(vals)} |")
    tot = [sum(c[(k, h)] for k in KIND_ORDER) for h in (1, 2, 3)]
    lines.append(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]} | **{sum(tot)}** |")
    return lines


ENTITY_ROWS = [("musician", "musicians (band members and solo artists)"), ("band", "bands"),
               ("album", "albums"), ("song", "songs"), ("record label", "record labels"),
               ("producer", "producers"), ("city", "cities"), ("country", "countries"),
               ("music festival", "music festivals"), ("concert venue", "concert venues"),
               ("award", "awards"), ("music school", "music schools"),
               ("radio station", "radio stations"), ("music genre", "genres"),
               ("musical instrument", "instruments")]


def write_readme(kb: KB, ents: dict, tune: list, held: list, spec_counts: list) -> None:
    rel_count = Counter(r for _s, r, _o in kb.triples)
    cls_count = Counter(kb.cls.values())
    multi = sum(1 for m in ents["Q"] if len(kb.fwd["citizen of"].get(m, ())) > 1)
    L: list[str] = []
    a = L.append
    a("# music: a generated popular-music KB with labelled questions")
    a("")
    a("A small, fully generated knowledge base about popular music: musicians, bands, albums,")
    a("songs, record labels, producers, festivals, concert venues, awards, music schools and")
    a("radio stations, with labelled 1-3 hop questions. It is an evaluation set for")
    a("knowledge-graph question answering: the KB and the question wordings were written")
    a("without reference to the engine, and the held-out file uses separately written")
    a("wordings, so it measures how well what was tuned on one set of phrasings carries over")
    a("to new ones.")
    a("")
    a("Countries and cities are real, genres and instruments are common words; every")
    a("musician, band, album, song, label, producer, festival, venue, award, school and radio")
    a("station is invented (person names drawn from per-nationality first/last name lists), so")
    a("a language model cannot know the answers beforehand. Any resemblance to real people,")
    a("bands or records is coincidental.")
    a("")
    a("## How it is generated")
    a("")
    a("```")
    a("python scripts/devsets/build_music.py")
    a("```")
    a("")
    a(f"Python 3.11 standard library only, deterministic (fixed seed `{SEED}`): running it")
    a("again gives byte-identical files. Change the script, not the files.")
    a("")
    a("## Files")
    a("")
    a(f"- `kb.tsv`: `subject<TAB>relation<TAB>object`, no header, UTF-8 "
      f"({len(kb.triples):,} triples).")
    a("  Relation labels are plain English with spaces (`member of`, `released on label`).")
    a("  Integers (years, capacity) are plain literals such as `1998`.")
    a(f"- `questions.tsv`: TUNING questions ({len(tune)}).")
    a(f"- `questions_heldout.tsv`: HELD-OUT questions ({len(held)}), worded with templates that")
    a("  share none of the tuning templates (the script checks this, and that no question")
    a("  text is shared).")
    a('- `questions_probe.tsv`: 43 questions written by hand on 2026-12-06 (not by the build')
    a("  script) for a few of this KB's own entities, the way an analyst might ask where a musician's band was formed or which bands influenced which (both ways);")
    a('  answers read off `kb.tsv`. Used to find failures and check changes, so tuning data, not')
    a('  held-out (`python benchmarks/devsets.py --split probe`).')
    a("")
    a("Both question files have the header `question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops`:")
    a("")
    a("- `question`: natural English, as an analyst might type it (some lower case, some")
    a("  without a question mark); the topic entity appears as its exact KB label (no")
    a("  brackets; a label ending in `s` takes a bare apostrophe: `The Velvet Harbors'`).")
    a("  Secondary anchors of intersection questions may appear as a demonym (`Norwegian` for")
    a("  `Norway`) or a player noun (`guitarists` for `guitar`); a year anchor is its literal.")
    a("- `answers`: **all** gold answers, sorted, joined by `|`, exactly as KB labels/literals.")
    a("  Gold is computed by executing `qtype` on the KB. Questions with no answer or more than")
    a(f"  {MAX_ANSWERS} answers are dropped.")
    a("- `qtype`: the relation path over relation labels with `_` for spaces. Steps are joined")
    a("  by `>`; `^rel` walks `rel` backwards (object to subject); `&` intersects branches.")
    a("  With one anchor every branch starts at the topic; with two anchors (the")
    a("  `intersection` kind) branch *i* starts at anchor *i* (`^released_on_label&^genre`:")
    a("  albums on LABEL in GENRE). Paths are executed literally (`^genre` from a genre reaches")
    a("  both bands and albums; the other branch filters).")
    a("- `kind`: the wording category (below). For `other` the topic is removed from the")
    a("  path's result; for `topic-answer` the result is taken as is and contains the topic;")
    a("  every other kind takes the result as is. `hops`: length of the longest branch.")
    a("")
    a("Questions are shuffled and no question text appears twice in or across the files. Where")
    a("enough topics exist, held-out questions use topics not used for the same spec in tuning.")
    a("")
    a("## Entities")
    a("")
    a("| type (`instance of`) | count |")
    a("|---|---:|")
    for cls, desc in ENTITY_ROWS:
        a(f"| `{cls}`: {desc} | {cls_count[cls]} |")
    a("")
    a(f"{len(set(kb.cls.values()))} classes in all. Every subject has exactly one `instance of`;")
    a("every entity label is unique across the KB (no two nodes share a label). Of the")
    a(f"{len(ents['M'])} musicians, {len(ents['M']) - 42} play in bands (3–5 members each) and 42")
    a("are solo artists; some band members also have solo albums. Producers are a separate")
    a("class; label founders are producers or musicians.")
    a("")
    a("No invented label contains another label as a run of whole words (there is no")
    a("`Golden Islands` beside `The Golden Islands`, no `Run Home` beside `Don't Run Home`;")
    a("the script checks this). Only real words nest: `guitar` / `bass guitar`, `rock` /")
    a("`indie rock`, `pop` / `dream pop`, `Mexico` / `Mexico City`. In running text")
    a("`United States`, `United Kingdom` and `Netherlands` take *the* (`bands formed in the")
    a("United Kingdom`).")
    a("")
    a("## Relations")
    a("")
    a("| relation | head → tail | meaning | triples |")
    a("|---|---|---|---:|")
    for rel, (ht, meaning) in RELATIONS.items():
        a(f"| `{rel}` | {ht} | {meaning} | {rel_count[rel]} |")
    a("")
    a("Distractors on purpose: current vs former band (`member of` / `former member of`);")
    a("birth city's country vs citizenship (people born abroad; "
      f"{multi} people hold two citizenships, others")
    a("born abroad hold only one); a band's genres vs its albums' genres (most albums share")
    a("one of the band's genres, some do not); where a band formed vs where its label is")
    a("based; an album's performer vs its songs' writers (producers sometimes co-write;")
    a("solo albums by band members); label founders who also release on their own label.")
    a("`performer` and `headliner` reach both bands and musicians; `^genre` reaches both bands")
    a("and albums.")
    a("")
    a("## Question kinds")
    a("")
    a("- `plain`: direct wordings using the relation's own words (*who produced A*, *which")
    a("  label was A released on*).")
    a("- `synonym`: the relation is named with colloquial or paraphrased words it doesn't")
    a("  share (*who fronts B*, *which outfit does M play in*, *which imprint put out A*, *who")
    a("  penned S*, *which albums has X dropped*, *which city does M hail from*).")
    a("- `wh-type`: the wh-word or a type noun carries the answer type (*where was M born* →")
    a("  city, *when was M born* → year, *which country are B from* → country, *how many people")
    a("  can V hold* → number).")
    a("- `possessive`: chained possessives (*A's label's founder*, *M's band's singer's music")
    a("  school*), 2-3 hops.")
    a("- `relative`: relative clauses (*the album that S is on*, *the label that P founded*).")
    a("- `topic-answer`: the answer includes the topic itself (*who performs on the albums X")
    a("  released* → X; *who are the members of M's band* → includes M). Gold keeps the topic.")
    a("- `other`: asks for others, so the topic is removed from the gold (*M's bandmates*, *what")
    a("  other albums came out on A's label*).")
    a("- `inverse-set`: set-valued inverse hops (*which albums came out on L*, *who was born in")
    a("  Y*, *which bands have a member born in N*).")
    a("- `intersection`: two anchors (*which Norwegian guitarists…*, *jazz albums on L*, *which")
    a("  albums did L release in 1998*).")
    a("")
    for title, rows in (("Tuning file (`questions.tsv`)", tune),
                        ("Held-out file (`questions_heldout.tsv`)", held)):
        a(f"### {title}: questions per kind and hops")
        a("")
        L.extend(kind_hops_table(rows))
        a("")
    a("### Per spec")
    a("")
    a("| kind | qtype | hops | tuning | held-out | tuning templates | held-out templates | "
      "example tuning wording |")
    a("|---|---|---:|---:|---:|---:|---:|---|")
    for spec, nt, nh in spec_counts:
        a(f"| `{spec.kind}` | `{spec.qtype}` | {hops(spec.qtype)} | {nt} | {nh} | "
          f"{len(spec.tune)} | {len(spec.held)} | {spec.tune[0]} |")
    a("")
    a("Where a spec has fewer usable topics than asked for (there are only 8 awards and 16")
    a("venues, for instance), it has fewer questions, and the held-out file reuses tuning")
    a("topics with its own wordings. All wordings are in `SPECS` in the script.")
    a("")
    a("## Licence")
    a("")
    a("Everything here but `questions_probe.tsv` is generated by `scripts/devsets/build_music.py`. The data is")
    a("dedicated to the public domain under")
    a("[CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/).")
    (OUT / "README.md").write_text("\n".join(L) + "\n", encoding="utf-8")


def main() -> None:
    check_templates()
    rng = random.Random(SEED)
    kb, ents = build_kb(rng)
    check_kb(kb)
    tune, held, spec_counts = make_questions(kb, ents, rng)
    check_rows(kb, tune, "tuning")
    check_rows(kb, held, "held-out")
    overlap = {r[0] for r in tune} & {r[0] for r in held}
    assert not overlap, overlap
    OUT.mkdir(parents=True, exist_ok=True)
    with (OUT / "kb.tsv").open("w", encoding="utf-8", newline="\n") as f:
        for s, r, o in kb.triples:
            f.write(f"{s}\t{r}\t{o}\n")
    write_tsv(OUT / "questions.tsv", tune)
    write_tsv(OUT / "questions_heldout.tsv", held)
    write_readme(kb, ents, tune, held, spec_counts)
    print(f"kb.tsv: {len(kb.triples)} triples; questions.tsv: {len(tune)}; "
          f"questions_heldout.tsv: {len(held)}")


if __name__ == "__main__":
    main()
