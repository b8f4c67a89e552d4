#!/usr/bin/env python3
"""Build the `science` dev set: an invented academic-science KB plus labelled questions.

    python scripts/devsets/build_science.py

Writes benchmarks/data/science/{kb.tsv, questions.tsv, questions_heldout.tsv, README.md}.
Python 3.11 standard library only; deterministic (fixed seed, no set-order dependence),
so a rerun gives byte-identical files. Change this script, not the files.

Every scientist, university, institute, laboratory, learned society, foundation,
award, journal, paper, book and research project is invented. Countries and cities
are real; fields are common real names of disciplines.
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections import Counter, defaultdict

SEED = 20250921
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "benchmarks", "data", "science")
MAX_ANSWERS = 15

# --------------------------------------------------------------------------------------
# Real places: (country, demonym, takes "the", cities)
# --------------------------------------------------------------------------------------
COUNTRIES = [
    ("Norway", "Norwegian", False, ["Oslo", "Bergen", "Trondheim", "Tromsø", "Stavanger"]),
    ("Sweden", "Swedish", False, ["Stockholm", "Uppsala", "Gothenburg", "Lund", "Umeå"]),
    ("Denmark", "Danish", False, ["Copenhagen", "Aarhus", "Odense", "Aalborg"]),
    ("Finland", "Finnish", False, ["Helsinki", "Turku", "Tampere", "Oulu"]),
    ("Germany", "German", False, ["Berlin", "Munich", "Hamburg", "Heidelberg", "Göttingen", "Leipzig"]),
    ("France", "French", False, ["Paris", "Lyon", "Toulouse", "Strasbourg", "Grenoble", "Marseille"]),
    ("Italy", "Italian", False, ["Rome", "Milan", "Bologna", "Turin", "Pisa", "Naples"]),
    ("Spain", "Spanish", False, ["Madrid", "Barcelona", "Valencia", "Seville", "Salamanca"]),
    ("Netherlands", "Dutch", True, ["Amsterdam", "Leiden", "Utrecht", "Delft", "Groningen"]),
    ("United Kingdom", "British", True, ["London", "Edinburgh", "Manchester", "Bristol", "Glasgow", "Leeds"]),
    ("United States", "American", True, ["Boston", "Chicago", "Pittsburgh", "Seattle", "Austin", "Philadelphia", "Denver"]),
    ("Japan", "Japanese", False, ["Tokyo", "Kyoto", "Osaka", "Sendai", "Nagoya"]),
    ("Poland", "Polish", False, ["Warsaw", "Kraków", "Wrocław", "Gdańsk", "Poznań"]),
    ("Hungary", "Hungarian", False, ["Budapest", "Debrecen", "Szeged"]),
    ("Brazil", "Brazilian", False, ["São Paulo", "Rio de Janeiro", "Campinas", "Porto Alegre"]),
    ("India", "Indian", False, ["Mumbai", "Bangalore", "Chennai", "Kolkata", "Pune"]),
    ("Canada", "Canadian", False, ["Toronto", "Montreal", "Vancouver", "Ottawa"]),
    ("Switzerland", "Swiss", False, ["Zurich", "Geneva", "Basel", "Lausanne"]),
]
COUNTRY_WEIGHT = {"United States": 2.0, "United Kingdom": 1.5, "Germany": 1.5, "France": 1.3, "Japan": 1.2}

# Per-nationality name lists: male first names, female first names, surnames
# (a surname given as (male, female) is gendered).
NAMES = {
    "Norway": (
        "Erik Lars Magnus Henrik Sindre Torbjørn Eirik Anders Kjetil Halvard".split(),
        "Ingrid Solveig Kari Marit Sigrid Astrid Tone Ragnhild Liv Hanne".split(),
        "Haugen Solberg Brekke Aasen Nygård Moen Dahl Strand Bakken Lunde Fossum Rønning Tveit Vik".split(),
    ),
    "Sweden": (
        "Gustav Nils Olof Per Sven Mattias Johan Axel Henning Rune".split(),
        "Karin Elsa Britta Maja Linnea Agnes Ebba Sofia Greta Ylva".split(),
        "Lindqvist Bergström Holm Sjöberg Ekström Wallin Nyberg Forsberg Lundgren Engström Hedlund Åberg Sandberg Blom".split(),
    ),
    "Denmark": (
        "Søren Mads Niels Rasmus Jesper Frederik Aksel Thorkild Bent Kasper".split(),
        "Mette Birgitte Lone Signe Karen Dorte Trine Ida Helle Kirsten".split(),
        "Kjærgaard Mortensen Holst Lauridsen Dalgaard Bech Skov Thygesen Vestergaard Bundgaard Krogh Ravn Friis Ebbesen".split(),
    ),
    "Finland": (
        "Mikko Juhani Pekka Antti Heikki Lauri Tapio Ville Eero Kalevi".split(),
        "Aino Liisa Kaisa Riitta Päivi Sanna Helmi Tuula Marjatta Eeva".split(),
        "Virtanen Mäkinen Koskinen Heikkinen Lehtonen Salminen Järvinen Laaksonen Rantanen Kallio Hietala Saarinen Nurmi Peltola".split(),
    ),
    "Germany": (
        "Friedrich Klaus Wolfgang Dieter Matthias Jürgen Konrad Rudolf Tobias Gerhard".split(),
        "Ursula Helga Brigitte Sabine Katharina Renate Gisela Annegret Johanna Dorothea".split(),
        "Brandt Kessler Vogt Hartmann Lindner Baumann Kettner Krüger Seidel Ziegler Franke Pfeiffer Hoffmeister Winter".split(),
    ),
    "France": (
        "Étienne Julien Thierry Laurent Olivier Benoît Rémi Gaston Mathieu Hervé".split(),
        "Camille Élodie Sandrine Hélène Margaux Sylvie Odile Claire Aurélie Mireille".split(),
        "Lefèvre Girard Morel Fournier Chevalier Garnier Rousseau Blanchard Perrin Lemoine Faure Mercier Dumont Renaud".split(),
    ),
    "Italy": (
        "Lorenzo Giovanni Matteo Enrico Alberto Stefano Vittorio Paolo Massimo Carlo".split(),
        "Chiara Giulia Francesca Lucia Paola Elena Silvia Rosa Beatrice Marta".split(),
        "Bianchi Colombo Ricci Marino Greco Gallo Conti Mancini Lombardi Moretti Barbieri Fontana Rinaldi Pellegrini".split(),
    ),
    "Spain": (
        "Javier Alejandro Andrés Miguel Sergio Ramón Ignacio Tomás Álvaro Emilio".split(),
        "Lucía Carmen Pilar Inés Rocío Beatriz Nuria Montserrat Teresa Amparo".split(),
        "Navarro Romero Ortega Delgado Castillo Vidal Serrano Molina Iglesias Cabrera Herrera Fuentes Pascual Aguirre".split(),
    ),
    "Netherlands": (
        "Joost Pieter Maarten Bram Sander Willem Hendrik Gerrit Ruud Daan".split(),
        "Anouk Marieke Femke Saskia Ineke Lotte Janneke Wilma Esther Mirjam".split(),
        ["de Vries", "Jansen", "Bakker", "Visser", "Smit", "Mulder", "de Boer", "Dekker",
         "van Dijk", "Brouwer", "Hoekstra", "Kuipers", "Verhoeven", "Postma"],
    ),
    "United Kingdom": (
        "Alistair Nigel Graham Rupert Duncan Simon Oliver Hugh Malcolm Edmund".split(),
        "Fiona Harriet Imogen Gillian Rosalind Philippa Eleanor Margaret Alison Penelope".split(),
        "Ashworth Pemberton Whitfield Hargreaves Cartwright Fairbairn Thornton Blackwood Sutcliffe Kershaw Marchbank Ellery Dunmore Hollis".split(),
    ),
    "United States": (
        "Russell Dwight Clifford Warren Bradley Grant Elliott Howard Curtis Wesley".split(),
        "Dorothy Marjorie Janet Shirley Carol Megan Lauren Rebecca Vivian Evelyn".split(),
        "Whitaker Caldwell Holloway Merritt Brennan Donnelly Prescott Sawyer Lockhart Hendricks McAllister Garrison Pruitt Thackeray".split(),
    ),
    "Japan": (
        "Hiroshi Takeshi Kenji Satoshi Daisuke Yoshio Masato Kazuo Ryo Tetsuya".split(),
        "Yuko Akiko Naoko Keiko Haruka Emiko Sachiko Megumi Tomoko Ayumi".split(),
        "Tanaka Watanabe Nakamura Kobayashi Yoshida Yamaguchi Matsumoto Inoue Kimura Hayashi Shimizu Mori Ishikawa Fujita".split(),
    ),
    "Poland": (
        "Piotr Tomasz Krzysztof Andrzej Marek Paweł Jerzy Wojciech Stanisław Bartosz".split(),
        "Agnieszka Katarzyna Małgorzata Ewa Joanna Magdalena Zofia Barbara Halina Dorota".split(),
        [("Kowalski", "Kowalska"), "Nowak", ("Wiśniewski", "Wiśniewska"), ("Zieliński", "Zielińska"),
         ("Szymański", "Szymańska"), "Wójcik", ("Kamiński", "Kamińska"), ("Lewandowski", "Lewandowska"),
         ("Dąbrowski", "Dąbrowska"), "Mazur", "Krawczyk", ("Jabłoński", "Jabłońska"), "Pawlak", "Sikora"],
    ),
    "Hungary": (
        "László Gábor Zoltán István Péter Attila Tibor Ferenc Balázs Miklós".split(),
        "Katalin Erzsébet Zsuzsanna Ildikó Judit Anikó Eszter Réka Márta Noémi".split(),
        "Nagy Kovács Tóth Szabó Horváth Varga Molnár Farkas Balogh Papp Takács Juhász Lakatos Mészáros".split(),
    ),
    "Brazil": (
        "João Rafael Thiago Gustavo Leandro Marcelo Rodrigo Fernando Eduardo Caio".split(),
        "Ana Juliana Fernanda Camila Patrícia Larissa Renata Luana Adriana Tatiana".split(),
        "Silva Oliveira Souza Pereira Almeida Ribeiro Carvalho Gomes Barbosa Rocha Teixeira Cardoso Moreira Nascimento".split(),
    ),
    "India": (
        "Arjun Vikram Rajesh Sanjay Anand Rohan Prakash Suresh Kiran Aditya".split(),
        "Priya Ananya Lakshmi Kavita Meera Deepa Sunita Nandini Radhika Shreya".split(),
        "Iyer Raghavan Menon Bhattacharya Kulkarni Deshpande Chatterjee Nair Subramanian Venkatesan Joshi Banerjee Pillai Rao".split(),
    ),
    "Canada": (
        "Gordon Trevor Wayne Brent Luc Darren Craig Stéphane Neil Yannick".split(),
        "Heather Shannon Geneviève Tamara Colleen Nathalie Brenda Kristen Isabelle Joanne".split(),
        "MacLeod Tremblay Gagnon Fraser Boucher McKenzie Pelletier Bergeron Ouellette Lavoie Côté Robertson Leblanc Gauthier".split(),
    ),
    "Switzerland": (
        "Beat Urs Reto Lukas Andreas Christoph Jürg Marcel Dominik Felix".split(),
        "Regula Verena Corinne Nadia Andrea Monika Seraina Claudia Franziska Ursina".split(),
        "Müller Meier Schmid Keller Weber Huber Brunner Gerber Baumgartner Zimmermann Frei Steiner Moser Widmer".split(),
    ),
}

# Fields: (label, practitioner noun (plural), group, weight)
FIELDS = [
    ("particle physics", "particle physicists", "physics", 3),
    ("condensed matter physics", "condensed matter physicists", "physics", 3),
    ("astrophysics", "astrophysicists", "physics", 2),
    ("plasma physics", "plasma physicists", "physics", 1),
    ("quantum optics", "quantum opticians", "physics", 1),
    ("organic chemistry", "organic chemists", "chemistry", 3),
    ("inorganic chemistry", "inorganic chemists", "chemistry", 2),
    ("physical chemistry", "physical chemists", "chemistry", 2),
    ("biochemistry", "biochemists", "chemistry", 2),
    ("crystallography", "crystallographers", "chemistry", 1),
    ("number theory", "number theorists", "mathematics", 2),
    ("topology", "topologists", "mathematics", 2),
    ("algebraic geometry", "algebraic geometers", "mathematics", 1),
    ("probability theory", "probabilists", "mathematics", 2),
    ("statistics", "statisticians", "mathematics", 2),
    ("combinatorics", "combinatorialists", "mathematics", 1),
    ("genetics", "geneticists", "biology", 3),
    ("molecular biology", "molecular biologists", "biology", 3),
    ("ecology", "ecologists", "biology", 2),
    ("neuroscience", "neuroscientists", "biology", 2),
    ("microbiology", "microbiologists", "biology", 1),
    ("geology", "geologists", "earth", 2),
    ("oceanography", "oceanographers", "earth", 1),
    ("meteorology", "meteorologists", "earth", 1),
    ("computer science", "computer scientists", "computing", 3),
]
GROUPS = ["physics", "chemistry", "mathematics", "biology", "earth", "computing"]

# Invented place-like roots (universities, some institutes, societies, journals).
ROOTS = """Varrow Quellin Osterbrand Miraval Caldris Brennmark Tollen Aldmere Wexcombe Harlund
Sorvik Delmont Fennick Glaswen Irvale Kestin Lorrow Marrick Norvane Pellingham Rudmoor Silverhay
Tressan Ulvedal Westmarch Yarrowby Ashgrove Blackmere Corrowin Dunhallow Fallowmere Greythorn
Holmvik Ingleford Larkspire Moorhaven Nethercombe Orlanth Quarrendon Ravensholt Stellbourne
Thistlewick Umberleigh Valdmark Whitcombe Ysselmont Zarrenfeld Arnsholm Brightwater Cindermoor
Drevenich Eskdarrow Frostwick Galdenbruck Hesperby Ivorsund Kaldmere Lindenhall Marwood Nordvale
Oakhurst Pyrmore Quinsey Rookwell Saltrenne Tamberlow Vessingham Wolverholt Elderwick Harrowfield
Aubergate Belvarre Copperdell Dunsworth Evenmoor Farrandale Glimmerby Hollowmere Kirkavel Lowenstrand""".split()

# Invented eponyms (awards, foundations, institutes, labs); never a scientist's surname.
EPONYMS = """Halvorsen Ambrecht Castellane Drummelin Elgström Fairclough Grevenbroek Hallworth Isenmann
Jaskólski Kettleby Lomasney Marchetti Norrington Ostervald Pallister Quenneville Rossiter Sandoval
Tolvanen Ulbricht Vandermeer Wexley Yardley Zanetti Abernethy Corwen Danforth Everleigh Gilchrist
Ingram Jessop Kincaid Lathbury Montague Nettleship Orme Prideaux Quarles Rendell Stallworth Tavener
Underhill Whitlock Aldous Brocklehurst Calloway Dunstable Ellingham Fothergill Greenhalgh Hepworth
Ibbotson Jowett Kilner Lessing Mowbray Northcote Ormerod Penhallow Rushworth Sowerby Trelawny Uttley
Verity Wetherall Ashdown Beauclerk""".split()

PROJECT_NAMES = """HALCYRA VERIDUNE OSTRAKON PELAGON MORAVEX QUILLON BRISQUET DREVNA FENRIX GLIMARA
KESTOVA LUMISCAN NIMBREL ORRINDEL PRAXIDA SOLVANE TERVANA UMBRIX VANTARA WYNDREL XERITH YSELDA
ZOLVANE ARCTRIS""".split()

LAB_TOPICS = {
    "physics": ["Photonics", "Cryogenics", "Neutron Scattering", "Ultrafast Lasers"],
    "chemistry": ["Catalysis", "Spectroscopy", "Polymer Synthesis", "Electrochemistry"],
    "mathematics": ["Computational Algebra", "Stochastic Modelling", "Discrete Geometry", "Symbolic Computation"],
    "biology": ["Genomics", "Cell Imaging", "Neural Circuits", "Plant Physiology"],
    "earth": ["Climate Modelling", "Seismology", "Sediment Dynamics", "Glaciology"],
    "computing": ["Robotics", "Distributed Systems", "Programming Languages", "Machine Learning"],
}

TITLE_VOCAB = {
    "physics": (
        "Anomalous Coherent Transverse Metastable Chiral Nonlinear Residual Collective Frustrated Damped".split(),
        ["Spin Waves", "Lattice Vibrations", "Charge Transport", "Photon Echoes", "Vortex Lines", "Shock Fronts",
         "Electron Pairs", "Magnetic Domains", "Plasma Sheaths", "Stellar Winds", "Neutrino Masses", "Thin Films"],
        ["in Layered Crystals", "at Low Temperature", "in Dense Media", "under Strong Magnetisation",
         "near the Critical Point", "in Rotating Frames", "in Dilute Gases", "beyond Linear Response"],
    ),
    "chemistry": (
        "Selective Catalytic Asymmetric Stepwise Reversible Oxidative Aqueous Bridged Strained Chelated".split(),
        ["Ring Closures", "Ligand Exchange", "Proton Transfer", "Cage Compounds", "Enzyme Folding", "Salt Bridges",
         "Metal Clusters", "Radical Couplings", "Crystal Habits", "Peptide Chains", "Hydrogen Bonds", "Dye Complexes"],
        ["in Polar Solvents", "at Room Temperature", "on Copper Surfaces", "under Mild Conditions",
         "in Living Cells", "with Chiral Auxiliaries", "in the Solid State", "from Simple Precursors"],
    ),
    "mathematics": (
        "Twisted Sparse Finite Elliptic Random Symmetric Bounded Graded Periodic Singular".split(),
        ["Partitions", "Modular Forms", "Knot Invariants", "Walks", "Sheaves", "Prime Gaps", "Colourings",
         "Moduli Spaces", "Martingales", "Lattice Paths", "Quadratic Forms", "Hypergraphs"],
        ["on Compact Surfaces", "over Finite Rings", "in High Dimension", "and Their Limits", "of Small Genus",
         "with Bounded Degree", "on Trees", "in the Plane"],
    ),
    "biology": (
        "Conserved Maternal Circadian Dormant Migratory Symbiotic Regulatory Invasive Cortical Clonal".split(),
        ["Gene Clusters", "Seed Banks", "Feeding Circuits", "Spore Walls", "Reef Communities", "Signalling Pathways",
         "Root Networks", "Cell Lineages", "Pollinator Guilds", "Synaptic Inputs", "Immune Receptors", "Leaf Stomata"],
        ["in Alpine Meadows", "in Early Embryos", "of Freshwater Fish", "in the Fruit Fly", "across Island Chains",
         "during Starvation", "in Soil Bacteria", "of the Songbird Brain"],
    ),
    "earth": (
        "Glacial Coastal Seasonal Volcanic Deep Tidal Sedimentary Abyssal Convective Ancient".split(),
        ["Moraines", "Upwelling", "Storm Tracks", "Basalt Flows", "Ocean Currents", "Fault Systems", "Ice Cores",
         "Cloud Bands", "Delta Deposits", "Mantle Plumes", "Sea Breezes", "Karst Caves"],
        ["of the Northern Shelf", "in Arid Basins", "along Passive Margins", "since the Last Glaciation",
         "in Mountain Valleys", "over the Open Ocean", "beneath Ice Sheets", "in Monsoon Regions"],
    ),
    "computing": (
        "Lazy Distributed Concurrent Succinct Adaptive Verified Probabilistic Incremental Typed Parallel".split(),
        ["Hash Tables", "Proof Search", "Scheduling", "Garbage Collection", "Query Plans", "Sorting Networks",
         "Type Inference", "Graph Search", "Caches", "Compilers", "Consensus Protocols", "Page Replacement"],
        ["for Large Clusters", "with Weak Memory", "in Constant Space", "under Adversarial Input",
         "for Embedded Systems", "at Scale", "without Locks", "on Shared Disks"],
    ),
}
PAPER_PATTERNS = ["{A} {N} {C}", "On {A} {N}", "A Note on {N} {C}", "{N} {C}", "Towards {A} {N}",
                  "The Structure of {A} {N}", "{A} {N}: New Evidence", "Remarks on {A} {N} {C}"]
BOOK_PATTERNS = ["Lectures on {A} {N}", "Principles of {A} {N}", "{A} {N}: A Survey", "Elements of {N}",
                 "The Theory of {A} {N}", "A Treatise on {N}"]

CLASSES = ["scientist", "university", "research institute", "laboratory", "learned society", "foundation",
           "award", "journal", "paper", "book", "research project", "city", "country", "field"]

# Relations in output order: (name, head -> tail, meaning)
RELATIONS = [
    ("instance_of", "any subject → class", "the node's class (exactly one per subject)"),
    ("located_in", "city → country; university or institute → city", "where a city or an institution is"),
    ("born_in", "scientist → city", "city of birth"),
    ("birth_year", "scientist → integer", "year of birth"),
    ("died_in", "scientist → city", "city of death (deceased scientists only)"),
    ("country_of_citizenship", "scientist → country", "citizenship (1–2; some born abroad hold a second one)"),
    ("educated_at", "scientist → university", "universities attended (1–2; the doctorate is where the advisor worked)"),
    ("doctoral_advisor", "scientist → scientist", "PhD supervisor (0–1; advisor chains run up to four generations)"),
    ("employer", "scientist → university or institute", "institutions the scientist works or worked for (1–2)"),
    ("field_of_work", "scientist → field", "1–2 fields"),
    ("award_received", "scientist → award", "awards won (0–2)"),
    ("member_of", "scientist → learned society", "membership of a learned society (0–1)"),
    ("spouse", "scientist → scientist", "marriage (symmetric, stored both ways)"),
    ("collaborator", "scientist → scientist", "research collaborator (symmetric, stored both ways)"),
    ("h_index", "scientist → integer", "the scientist's h-index"),
    ("author_of", "scientist → paper or book", "works the scientist wrote (some papers have two authors)"),
    ("published_in", "paper → journal", "the journal a paper appeared in (books have none)"),
    ("publication_year", "paper or book → integer", "year of publication"),
    ("founded_year", "university, institute, society, foundation or journal → integer", "year founded"),
    ("number_of_employees", "university or institute → integer", "staff headcount"),
    ("director", "research institute or laboratory → scientist", "the director (an employee of the institution)"),
    ("part_of", "laboratory → university or institute", "the institution a lab belongs to"),
    ("awarded_by", "award → learned society or foundation", "the body that confers the award"),
    ("principal_investigator", "research project → scientist", "the project's PI (1–2)"),
    ("funded_by", "research project → learned society or foundation", "the project's funders (1–2)"),
]
REL_ORDER = {r[0]: i for i, r in enumerate(RELATIONS)}
SYMMETRIC = {"spouse", "collaborator"}

# Labels allowed to contain a class label (kept rare on purpose); checked below.
WORDS = re.compile(r"\w+")


def words(s):
    return tuple(WORDS.findall(s.lower()))


def subruns(ws):
    n = len(ws)
    return [ws[i:j] for i in range(n) for j in range(i + 1, n + 1)]


# --------------------------------------------------------------------------------------
# KB
# --------------------------------------------------------------------------------------
class KB:
    def __init__(self):
        self.facts = {}  # (s, r, o) -> None (ordered)
        self.fwd = defaultdict(set)
        self.bwd = defaultdict(set)
        self.cls = {}  # label -> class
        self.order = []  # subjects in creation order
        self.the = set()  # labels that take "the" in running text
        self.sub_index = set()  # word runs of every label
        self.full = set()  # word tuples of every label

    def new(self, label, cls, the=False, check=True):
        assert label not in self.cls, f"duplicate label {label}"
        self.cls[label] = cls
        self.order.append(label)
        if the:
            self.the.add(label)
        w = words(label)
        self.full.add(w)
        self.sub_index.update(subruns(w))
        self.add(label, "instance_of", cls)
        return label

    def clashes(self, label):
        """Whether a candidate label contains, or is contained in, an existing label."""
        w = words(label)
        if w in self.sub_index:
            return True
        return any(r in self.full for r in subruns(w))

    def add(self, s, r, o):
        o = str(o)
        assert "\t" not in s + o and "|" not in s + o
        key = (s, r, o)
        if key in self.facts:
            return
        self.facts[key] = None
        self.fwd[(s, r)].add(o)
        self.bwd[(o, r)].add(s)
        if r in SYMMETRIC:
            self.add(o, r, s)

    def objs(self, s, r):
        return sorted(self.fwd.get((s, r), ()))

    def subjs(self, o, r):
        return sorted(self.bwd.get((str(o), r), ()))

    def walk(self, nodes, step):
        out = set()
        if step.startswith("^"):
            r = step[1:]
            for n in nodes:
                out |= self.bwd.get((n, r), set())
        else:
            for n in nodes:
                out |= self.fwd.get((n, step), set())
        return out

    def run(self, qtype, anchors):
        result = None
        for i, branch in enumerate(qtype.split("&")):
            start = anchors[i] if len(anchors) > 1 else anchors[0]
            nodes = {str(start)}
            for step in branch.split(">"):
                nodes = self.walk(nodes, step)
            result = nodes if result is None else (result & nodes)
        return result

    def lines(self):
        pos = {s: i for i, s in enumerate(self.order)}
        facts = sorted(self.facts, key=lambda t: (pos[t[0]], REL_ORDER[t[1]], t[2]))
        return [f"{s}\t{r}\t{o}" for s, r, o in facts]


def wchoice(rng, items, weights):
    return rng.choices(items, weights=weights, k=1)[0]


def build_kb(rng):
    kb = KB()
    info = {"gender": {}, "gen": {}, "dem": {}, "prac": {}, "group": {}, "people": [], "dead": set()}
    country_cities = {}
    city_country = {}
    # ---- places and fields
    for country, dem, the, cities in COUNTRIES:
        kb.new(country, "country", the)
        info["dem"][country] = dem
        country_cities[country] = cities
    for country, _dem, _the, cities in COUNTRIES:
        for c in cities:
            kb.new(c, "city")
            kb.add(c, "located_in", country)
            city_country[c] = country
    field_labels = [f[0] for f in FIELDS]
    field_weight = {f[0]: f[3] for f in FIELDS}
    fields_of_group = defaultdict(list)
    for label, prac, group, _w in FIELDS:
        kb.new(label, "field")
        info["prac"][label] = prac
        info["group"][label] = group
        fields_of_group[group].append(label)
    countries = [c[0] for c in COUNTRIES]

    roots = ROOTS[:]
    rng.shuffle(roots)
    eponyms = EPONYMS[:]
    rng.shuffle(eponyms)
    all_surnames = set()
    for _m, _f, sur in NAMES.values():
        for s in sur:
            all_surnames.update([s] if isinstance(s, str) else list(s))
    assert not (set(EPONYMS) & all_surnames), set(EPONYMS) & all_surnames

    def take_root():
        return roots.pop()

    def take_eponym():
        return eponyms.pop()

    # ---- institutions: 28 universities, 12 research institutes, 2 per country + 4 extra
    slots = countries[:]  # first one per country: a university
    extra = countries + ["United States", "United Kingdom", "Germany", "France"]
    rng.shuffle(extra)
    kinds = ["university"] * (28 - len(slots)) + ["research institute"] * 12
    rng.shuffle(kinds)
    placements = [(c, "university") for c in slots] + list(zip(extra, kinds, strict=False))
    uni_forms = (["{R} College"] * 11 + ["{R} Polytechnic"] * 5 + ["Royal {R} College"] * 2
                 + ["University of {R}"] * 3 + ["{R} School of Science"] * 3
                 + ["{R} Institute of Technology"] * 2 + ["{R} Technical College"] * 2)
    inst_forms = (["{E} Centre"] * 4 + ["{E} Centre for Advanced Study", "{E} Centre for Theoretical Studies",
                                        "{R} Observatory", "{R} Marine Station", "{E} Institute",
                                        "{E} Institute", "{R} Research Institute", "{R} Biological Station"])
    rng.shuffle(uni_forms)
    rng.shuffle(inst_forms)
    used_cities = Counter()
    institutions, universities, institutes = [], [], []
    inst_country = {}
    for country, kind in placements:
        cities = country_cities[country]
        fresh = [c for c in cities if used_cities[c] == 0]
        city = rng.choice(fresh or cities)
        used_cities[city] += 1
        form = uni_forms.pop() if kind == "university" else inst_forms.pop()
        label = form.format(R=take_root() if "{R}" in form else "", E=take_eponym() if "{E}" in form else "")
        the = not (form.startswith("{R} College") or form.startswith("{R} Polytechnic")
                   or form.startswith("Royal") or form.startswith("{R} Technical College"))
        kb.new(label, kind, the)
        kb.add(label, "located_in", city)
        if kind == "university":
            kb.add(label, "founded_year", rng.randint(1380, 1965))
            kb.add(label, "number_of_employees", rng.randint(1800, 32000))
            universities.append(label)
        else:
            kb.add(label, "founded_year", rng.randint(1870, 1995))
            kb.add(label, "number_of_employees", rng.randint(120, 2400))
            institutes.append(label)
        institutions.append(label)
        inst_country[label] = country

    # ---- learned societies and foundations (funders)
    soc_forms = (["{R} Academy of Sciences"] * 3 + ["Royal {R} Society"] * 2
                 + ["{R} Philosophical Union", "{R} Academy of Letters and Sciences", "{R} Natural Science Guild",
                    "{R} Mathematical Circle", "{R} Chemical Union"])
    rng.shuffle(soc_forms)
    societies = []
    for form in soc_forms:
        label = form.format(R=take_root())
        kb.new(label, "learned society", the=True)
        kb.add(label, "founded_year", rng.randint(1660, 1950))
        societies.append(label)
    fnd_forms = ["{E} Trust", "{E} Trust", "{E} Fund for Science", "{E} Endowment", "{E} Endowment",
                 "{E} Foundation"]
    foundations = []
    for form in fnd_forms:
        label = form.format(E=take_eponym())
        kb.new(label, "foundation", the=True)
        kb.add(label, "founded_year", rng.randint(1880, 1995))
        foundations.append(label)
    funders = societies + foundations

    # ---- awards: per group, roughly by the group's size, + 3 general
    award_group = {}
    award_forms = ["{E} Medal", "{E} Prize"]
    awards = []
    per_group = {"physics": 4, "chemistry": 4, "mathematics": 3, "biology": 4, "earth": 2, "computing": 1,
                 "general": 3}
    for group in GROUPS + ["general"]:
        for _ in range(per_group[group]):
            label = rng.choice(award_forms).format(E=take_eponym())
            if group == "general" and not any(a.endswith("Award") for a in awards):
                label = label.rsplit(" ", 1)[0] + " Award"
            kb.new(label, "award", the=True)
            kb.add(label, "awarded_by", wchoice(rng, funders, [3] * len(societies) + [2] * len(foundations)))
            awards.append(label)
            award_group[label] = group

    # ---- journals: 3 per group + 4 general
    journal_forms = {
        "physics": ["{R} Physics Letters", "{R} Review of Physics", "Annals of {R} Physics", "{R} Physical Reports"],
        "chemistry": ["{R} Chemical Reports", "{R} Journal of Chemistry", "{R} Chemistry Letters",
                      "{R} Molecular Review"],
        "mathematics": ["{R} Mathematical Quarterly", "Acta Mathematica {R}", "{R} Mathematics Review",
                        "{R} Mathematical Notes"],
        "biology": ["{R} Biology Letters", "{R} Life Sciences Review", "Annals of {R} Biology", "{R} Zoological Notes"],
        "earth": ["{R} Earth Sciences Quarterly", "{R} Geoscience Letters", "{R} Marine and Atmospheric Review",
                  "{R} Geological Reports"],
        "computing": ["{R} Computing Review", "{R} Transactions on Computation", "{R} Informatics Letters",
                      "{R} Algorithmic Notes"],
        "general": ["{R} Review of Sciences", "Proceedings of the {R} Circle", "{R} Quarterly",
                    "{R} Natural Science Bulletin", "{R} Scientific Monthly"],
    }
    journals, journal_group, journal_year = [], {}, {}
    for group in GROUPS + ["general"]:
        for k, form in enumerate(journal_forms[group]):
            label = form.format(R=take_root())
            year = rng.randint(1845, 1895) if k <= 1 else rng.randint(1880, 1960)
            kb.new(label, "journal", the=form.startswith("Proceedings"))
            kb.add(label, "founded_year", year)
            journals.append(label)
            journal_group[label] = group
            journal_year[label] = year

    # ---- scientists, generation by generation
    gens = [(0, 32, 1866, 1900), (1, 62, 1897, 1930), (2, 96, 1927, 1958), (3, 116, 1955, 1990)]
    people = []
    P = {}
    students = Counter()
    alumni = Counter()
    staff = Counter()
    used_names = set()

    def make_name(country, gender):
        male, female, sur = NAMES[country]
        for _ in range(1000):
            first = rng.choice(male if gender == "m" else female)
            s = rng.choice(sur)
            if not isinstance(s, str):
                s = s[0] if gender == "m" else s[1]
            label = f"{first} {s}"
            if label not in used_names and label not in kb.cls and not kb.clashes(label):
                used_names.add(label)
                return label
        raise RuntimeError("names exhausted")

    def pick_uni(country=None, exclude=()):
        pool = [u for u in universities if u not in exclude and (country is None or inst_country[u] == country)]
        if not pool:
            pool = [u for u in universities if u not in exclude]
        return wchoice(rng, pool, [1.0 / (1 + alumni[u]) ** 1.5 for u in pool])

    def pick_inst(country=None, exclude=()):
        pool = [u for u in institutions if u not in exclude and (country is None or inst_country[u] == country)]
        if not pool:
            pool = [u for u in institutions if u not in exclude]
        return wchoice(rng, pool, [1.0 / (1 + staff[u]) ** 1.5 for u in pool])

    cweights = [COUNTRY_WEIGHT.get(c, 1.0) for c in countries]
    for gen, n, y0, y1 in gens:
        prev = [p for p in people if P[p]["gen"] == gen - 1]
        for _ in range(n):
            gender = "f" if rng.random() < (0.2 + 0.07 * gen) else "m"
            advisor = None
            if prev and rng.random() < 0.84:
                pool = [p for p in prev if students[p] < 6]
                advisor = wchoice(rng, pool, [1.0 / (1 + students[p]) ** 1.3 for p in pool])
                students[advisor] += 1
            if advisor and rng.random() < 0.55:
                nat = inst_country[P[advisor]["employers"][0]]
            else:
                nat = wchoice(rng, countries, cweights)
            label = make_name(nat, gender)
            by = rng.randint(y0, y1)
            if advisor:
                by = max(by, P[advisor]["birth_year"] + 22)
            born_abroad = rng.random() < 0.12
            if born_abroad:
                bcountry = rng.choice([c for c in countries if c != nat])
                bcity = rng.choice(country_cities[bcountry])
            else:
                bcity = rng.choice(country_cities[nat])
            cits = [nat]
            if born_abroad and rng.random() < 0.4:
                cits.append(city_country[bcity])
            # fields
            if advisor:
                afield = P[advisor]["fields"][0]
                if rng.random() < 0.75:
                    f1 = afield
                else:
                    grp = fields_of_group[info["group"][afield]]
                    f1 = wchoice(rng, grp, [field_weight[f] for f in grp])
            else:
                f1 = wchoice(rng, field_labels, [field_weight[f] for f in field_labels])
            flds = [f1]
            if rng.random() < 0.35:
                grp = [f for f in fields_of_group[info["group"][f1]] if f != f1]
                if not grp or rng.random() >= 0.7:
                    grp = [f for f in field_labels if f != f1]
                flds.append(wchoice(rng, grp, [field_weight[f] for f in grp]))
            # education
            edu = []
            phd = None
            if advisor:
                aunis = [u for u in P[advisor]["employers"] if u in universities]
                if aunis:
                    phd = rng.choice(aunis)
                else:
                    phd = pick_uni(inst_country[P[advisor]["employers"][0]])
                edu.append(phd)
                if rng.random() < 0.35:
                    edu.append(pick_uni(nat if rng.random() < 0.7 else None, exclude=edu))
            else:
                edu.append(pick_uni(nat if rng.random() < 0.7 else None))
                if rng.random() < 0.3:
                    edu.append(pick_uni(None, exclude=edu))
            for u in edu:
                alumni[u] += 1
            # employment
            emps = []
            if phd and rng.random() < 0.25:
                emps.append(phd)
            else:
                emps.append(pick_inst(nat if rng.random() < 0.65 else None))
            if rng.random() < 0.18:
                emps.append(pick_inst(None, exclude=emps))
            for u in emps:
                staff[u] += 1
            dead = rng.random() < [1.0, 0.9, 0.35, 0.03][gen]
            P[label] = dict(gender=gender, gen=gen, nat=nat, born=bcity, birth_year=by, cits=cits,
                            fields=flds, advisor=advisor, edu=edu, employers=emps, dead=dead)
            people.append(label)
            info["gender"][label] = gender
            info["gen"][label] = gen

    # ---- add scientist triples (core)
    for p in people:
        d = P[p]
        kb.new(p, "scientist")
        kb.add(p, "born_in", d["born"])
        kb.add(p, "birth_year", d["birth_year"])
        for c in d["cits"]:
            kb.add(p, "country_of_citizenship", c)
        for u in d["edu"]:
            kb.add(p, "educated_at", u)
        if d["advisor"]:
            kb.add(p, "doctoral_advisor", d["advisor"])
        for u in d["employers"]:
            kb.add(p, "employer", u)
        for f in d["fields"]:
            kb.add(p, "field_of_work", f)
        if d["dead"]:
            info["dead"].add(p)
            r = rng.random()
            if r < 0.55:
                city = kb.objs(d["employers"][0], "located_in")[0]
            elif r < 0.8:
                city = d["born"]
            else:
                city = rng.choice(country_cities[d["nat"]])
            kb.add(p, "died_in", city)

    # ---- awards and society membership
    award_count = Counter()
    won = defaultdict(list)
    order = people[:]
    rng.shuffle(order)
    for p in order:
        d = P[p]
        if rng.random() >= [0.7, 0.62, 0.55, 0.35][d["gen"]]:
            continue
        groups = {info["group"][f] for f in d["fields"]} | {"general"}
        for k in range(2):
            if k == 1 and rng.random() >= 0.22:
                break
            pool = [a for a in awards if award_group[a] in groups and award_count[a] < 14 and a not in won[p]]
            if not pool:
                break
            a = wchoice(rng, pool, [1.0 / (1 + award_count[a]) ** 2 for a in pool])
            award_count[a] += 1
            won[p].append(a)
            kb.add(p, "award_received", a)
    members = Counter()
    for p in order:
        if rng.random() < [0.6, 0.55, 0.45, 0.25][P[p]["gen"]]:
            pool = [s for s in societies if members[s] < 24]
            s = wchoice(rng, pool, [1.0 / (1 + members[s]) for s in pool])
            members[s] += 1
            kb.add(p, "member_of", s)
    for p in people:
        d = P[p]
        h = [38, 46, 40, 22][d["gen"]] + rng.randint(-14, 22) + 9 * len(won[p])
        kb.add(p, "h_index", max(3, min(150, h)))

    # ---- spouses
    married = set()
    for gen, target in [(0, 5), (1, 7), (2, 9), (3, 9)]:
        pool = [p for p in people if P[p]["gen"] == gen]
        rng.shuffle(pool)
        made = 0
        for p in pool:
            if made >= target:
                break
            if p in married:
                continue
            cands = [q for q in pool if q not in married and q != p and P[q]["gender"] != P[p]["gender"]]
            close = [q for q in cands if P[q]["nat"] == P[p]["nat"]
                     or set(P[q]["employers"]) & set(P[p]["employers"])]
            if not close:
                continue
            q = rng.choice(close)
            married.update([p, q])
            kb.add(p, "spouse", q)
            made += 1

    # ---- collaborators
    collab = defaultdict(set)
    made = 0
    tries = 0
    while made < 165 and tries < 20000:
        tries += 1
        p = rng.choice(people)
        if len(collab[p]) >= 6:
            continue
        g = P[p]["gen"]
        grp = {info["group"][f] for f in P[p]["fields"]}
        cands = [q for q in people if q != p and abs(P[q]["gen"] - g) <= 1 and q not in collab[p]
                 and len(collab[q]) < 6]
        same = [q for q in cands if grp & {info["group"][f] for f in P[q]["fields"]}]
        pool = same if (same and rng.random() < 0.8) else cands
        if not pool:
            continue
        q = rng.choice(pool)
        collab[p].add(q)
        collab[q].add(p)
        kb.add(p, "collaborator", q)
        made += 1

    # ---- papers and books
    journal_count = Counter()

    def make_title(group, patterns):
        adjs, nouns, ctxs = TITLE_VOCAB[group]
        for _ in range(500):
            t = rng.choice(patterns).format(A=rng.choice(adjs), N=rng.choice(nouns), C=rng.choice(ctxs))
            if t not in kb.cls and not kb.clashes(t):
                return t
        raise RuntimeError("titles exhausted")

    papers = []
    for p in people:
        d = P[p]
        n = wchoice(rng, [0, 1, 2, 3], [8, 60, 26, 6])
        for _ in range(n):
            year = d["birth_year"] + rng.randint(26, 58)
            if year > 2024:
                year = rng.randint(min(2024, d["birth_year"] + 24), 2024)
            grp = info["group"][rng.choice(d["fields"])]
            if rng.random() < 0.72:
                pool = [j for j in journals if journal_group[j] == grp and journal_year[j] <= year]
            else:
                pool = [j for j in journals if journal_group[j] == "general" and journal_year[j] <= year]
            if not pool:
                pool = [j for j in journals if journal_year[j] <= year] or journals[:1]
            j = wchoice(rng, pool, [1.0 / (1 + journal_count[j]) ** 2 for j in pool])
            journal_count[j] += 1
            title = make_title(grp, PAPER_PATTERNS)
            kb.new(title, "paper")
            kb.add(title, "published_in", j)
            kb.add(title, "publication_year", year)
            kb.add(p, "author_of", title)
            papers.append(title)
            if collab[p] and rng.random() < 0.3:
                co = [q for q in sorted(collab[p]) if P[q]["birth_year"] + 24 <= year <= P[q]["birth_year"] + 75]
                if co:
                    kb.add(rng.choice(co), "author_of", title)
    authors = [p for p in people if P[p]["gen"] <= 2]
    rng.shuffle(authors)
    books = []
    for p in authors[:36]:
        d = P[p]
        grp = info["group"][d["fields"][0]]
        title = make_title(grp, BOOK_PATTERNS)
        kb.new(title, "book")
        kb.add(title, "publication_year", min(2024, d["birth_year"] + rng.randint(35, 62)))
        kb.add(p, "author_of", title)
        books.append(title)

    # ---- directors of institutes, labs
    directing = set()

    def pick_director(inst):
        emp = [p for p in kb.subjs(inst, "employer") if p not in directing and P[p]["gen"] >= 2 and not P[p]["dead"]]
        if not emp:
            emp = [p for p in kb.subjs(inst, "employer") if p not in directing]
        if not emp:
            pool = [p for p in people if p not in directing and P[p]["gen"] >= 2 and not P[p]["dead"]
                    and inst_country[inst] in P[p]["cits"]]
            q = rng.choice(pool)
            kb.add(q, "employer", inst)
            emp = [q]
        q = rng.choice(emp)
        directing.add(q)
        return q

    for inst in institutes:
        kb.add(inst, "director", pick_director(inst))
    hosts = sorted(institutions, key=lambda u: (-len(kb.subjs(u, "employer")), u))[:11]
    lab_hosts = [hosts[i % len(hosts)] for i in range(24)]
    rng.shuffle(lab_hosts)
    labs = []
    for host in lab_hosts:
        q = pick_director(host)
        grp = info["group"][P[q]["fields"][0]]
        for _ in range(100):
            label = f"{take_eponym() if eponyms else rng.choice(EPONYMS)} {rng.choice(LAB_TOPICS[grp])} Lab"
            if label not in kb.cls and not kb.clashes(label):
                break
        kb.new(label, "laboratory", the=True)
        kb.add(label, "part_of", host)
        kb.add(label, "director", q)
        labs.append(label)

    # ---- research projects
    pi_count = Counter()
    alive = [p for p in people if P[p]["gen"] >= 2 and not P[p]["dead"]]
    projects = []
    for name in PROJECT_NAMES:
        kb.new(name, "research project")
        for _ in range(2 if rng.random() < 0.25 else 1):
            pool = [p for p in alive if pi_count[p] < 2]
            q = wchoice(rng, pool, [1.0 / (1 + 3 * pi_count[p]) for p in pool])
            pi_count[q] += 1
            kb.add(name, "principal_investigator", q)
        fs = rng.sample(funders, 2 if rng.random() < 0.2 else 1)
        for f in fs:
            kb.add(name, "funded_by", f)
        projects.append(name)

    info.update(dict(people=people, universities=universities, institutes=institutes, institutions=institutions,
                     societies=societies, foundations=foundations, funders=funders, awards=awards,
                     journals=journals, papers=papers, books=books, labs=labs, projects=projects,
                     countries=countries, cities=list(city_country), fields=field_labels, P=P))
    return kb, info


def check_labels(kb):
    """No label contains another label (or a class name) as a run of whole words, except the few listed."""
    labels = list(kb.cls) + CLASSES
    full = {}
    for lab in labels:
        full.setdefault(words(lab), []).append(lab)
    hits = []
    for lab in labels:
        ws = words(lab)
        for r in subruns(ws):
            if r != ws and r in full:
                for inner in full[r]:
                    hits.append((inner, lab))
    bad = [(i, o) for i, o in hits if i not in CLASSES]
    assert not bad, f"label nesting: {bad[:10]}"
    # class names inside labels: allowed only rarely
    assert len(hits) <= 12, hits
    return sorted(hits)


def word_sharing(kb):
    """Entity labels sharing a content word with a relation or class name."""
    stop = {"of", "in", "at", "by", "the", "and", "h"}
    vocab = set()
    for r in RELATIONS:
        vocab.update(r[0].split("_"))
    for c in CLASSES:
        vocab.update(c.split())
    vocab -= stop
    shared = []
    for lab, c in kb.cls.items():
        if c in ("field", "city", "country"):
            continue
        ws = set(words(lab))
        if ws & vocab:
            shared.append(lab)
    return sorted(shared)


# --------------------------------------------------------------------------------------
# Question specs. Tuning templates (tune) and held-out templates (held) never overlap.
# Placeholders: {t} topic (with "the" where the label takes it), {t_pos} its possessive,
# {t_bare} without article, {his}/{he}/{him} the topic's pronouns, {partner} the noun for the
# topic's spouse (husband/wife). Intersection anchors: {dem} demonym / {n} country,
# {fd} field / {prac} practitioners, {u} institution, {a} award, {j} journal, {y} year,
# {c} city, {so} society (and *_bare without article).
# --------------------------------------------------------------------------------------
def S(kind, qtype, topic, tune, held, min_size=1):
    return dict(kind=kind, qtype=qtype, topic=topic, tune=tune, held=held, min_size=min_size)


SPECS = [
    # ------------------------------------------------------------------ plain
    S("plain", "doctoral_advisor", "sci",
      ["Who was the doctoral advisor of {t}?", "What is the name of {t_pos} doctoral advisor?",
       "who was {t_pos} doctoral advisor", "Name the doctoral advisor of {t}.",
       "Tell me who {t_pos} doctoral advisor was"],
      ["Which scientist acted as doctoral advisor to {t}?", "{t} — who was the doctoral advisor?",
       "give me {t_pos} doctoral advisor"]),
    S("plain", "educated_at", "sci",
      ["Where was {t} educated?", "Which institutions was {t} educated at?",
       "List the universities where {t} was educated", "{t} was educated at which university?",
       "what universities was {t} educated at"],
      ["At which universities did {t} receive {his} education?", "name the institutions that educated {t}",
       "Where did {t} get educated?"]),
    S("plain", "employer", "sci",
      ["Who is the employer of {t}?", "What is {t_pos} employer?", "Which institution employs {t}?",
       "list the employers of {t}", "Who employs {t}?"],
      ["By which institution is {t} employed?", "{t} is employed by whom?", "Tell me {t_pos} employer."]),
    S("plain", "award_received", "sci",
      ["Which awards has {t} received?", "What awards did {t} receive?", "List the awards received by {t}",
       "awards received by {t}?", "Has {t} received any awards, and which?"],
      ["Name every award {t} has received", "Which awards were received by {t}?",
       "what are the awards that {t} has received"]),
    S("plain", "published_in", "paper",
      ["In which journal was {t} published?", "Which journal published {t}?", "What journal was {t} published in?",
       "{t} was published in which journal?", "name the journal that published {t}"],
      ["Tell me the journal in which {t} was published", "In what journal did {t} get published?",
       "journal where {t} was published?"]),
    S("plain", "director", "dirorg",
      ["Who is the director of {t}?", "Who directs {t}?", "name the director of {t}", "Who is {t_pos} director?",
       "Which scientist is the director of {t}?"],
      ["Tell me who directs {t}", "{t} is directed by whom?", "Who serves as director at {t}?"]),
    S("plain", "h_index", "sci",
      ["What is the h-index of {t}?", "What is {t_pos} h-index?", "h-index of {t}?", "tell me {t_pos} h-index",
       "Which h-index does {t} have?"],
      ["Give me the h-index for {t}", "{t} has what h-index?", "What h-index is recorded for {t}?"]),
    # ------------------------------------------------------------------ synonym
    S("synonym", "doctoral_advisor", "sci",
      ["Who supervised {t_pos} PhD?", "Who was {t_pos} mentor?", "Under whom did {t} do {his} doctorate?",
       "Who was {t_pos} thesis supervisor", "who did {t} write {his} dissertation under"],
      ["Who oversaw {t_pos} doctoral thesis?", "{t} trained under which professor for the PhD?",
       "Whose PhD student was {t}?"]),
    S("synonym", "educated_at", "sci",
      ["Where did {t} study?", "What is {t_pos} alma mater?", "Which schools did {t} attend?",
       "where did {t} go to university", "Where did {t} earn {his} degrees?"],
      ["Which universities did {t} attend?", "{t} studied where?", "name {t_pos} alma maters"]),
    S("synonym", "field_of_work", "sci",
      ["What does {t} research?", "What is {t_pos} area of expertise?", "What field is {t} in?",
       "what does {t} work on", "{t} specializes in what?"],
      ["What subject does {t} do research on?", "Which discipline is {t} active in?",
       "what's {t_pos} research area"]),
    S("synonym", "award_received", "sci",
      ["Which prizes has {t} picked up?", "What honours has {t} won?", "What has {t} been awarded?",
       "which prizes did {t} win", "What accolades does {t} have?"],
      ["What distinctions were bestowed on {t}?", "Which medals or prizes has {t} collected?",
       "{t} has won which prizes?"]),
    S("synonym", "employer", "sci",
      ["Where is {t} based?", "Where does {t} work?", "Which institution is {t} affiliated with?",
       "where is {t} on staff", "What is {t_pos} home institution?"],
      ["At which institutions does {t} hold a position?", "{t} has an appointment where?",
       "what is {t_pos} affiliation"]),
    S("synonym", "spouse", "sci",
      ["Who is {t} married to?", "Who is {t_pos} {partner}?", "Who did {t} marry?", "who's {t_pos} partner",
       "Whom did {t} wed?"],
      ["To whom is {t} married?", "Who is {t_pos} better half?", "name the person {t} is married to"]),
    S("synonym", "collaborator", "sci",
      ["Which scientists has {t} teamed up with?", "Who are {t_pos} research partners?",
       "Who has {t} worked alongside?", "name {t_pos} scientific partners",
       "With whom has {t} worked together on research?"],
      ["Who are {t_pos} frequent partners in research?", "with which scientists has {t} joined forces?",
       "{t} has partnered with which researchers?"]),
    # ------------------------------------------------------------------ wh-type
    S("wh-type", "born_in", "sci",
      ["Where was {t} born?", "In which city was {t} born?", "what city was {t} born in",
       "Where is {t_pos} birthplace?", "Which city was {t} born in?"],
      ["In what city was {t} born?", "{t} was born in which city?", "name the city where {t} was born"]),
    S("wh-type", "birth_year", "sci",
      ["When was {t} born?", "What year was {t} born in?", "In which year was {t} born?",
       "what's {t_pos} birth year", "Year of birth of {t}?"],
      ["In what year was {t} born", "{t} was born when?", "When did {t} come into the world?"]),
    S("wh-type", "publication_year", "pub",
      ["When was {t} published?", "What year did {t} come out?", "In which year was {t} published?",
       "when did {t} appear", "What is the publication year of {t}?"],
      ["{t} came out in what year?", "In what year did {t} appear in print?", "Year {t} was published?"]),
    S("wh-type", "founded_year", "inst",
      ["When was {t} founded?", "What year was {t} established?", "In which year was {t} founded?",
       "when did {t} open", "What's the founding year of {t}?"],
      ["{t} was founded when?", "In what year did {t} come into being?", "year of foundation of {t}?"]),
    S("wh-type", "number_of_employees", "inst",
      ["How many employees does {t} have?", "How many people are employed at {t}?",
       "what is the number of employees at {t}", "How big is {t_pos} workforce?",
       "How many staff does {t} employ?"],
      ["{t} employs how many people?", "What headcount does {t} have?",
       "Number of people on the payroll of {t}?"]),
    S("wh-type", "died_in", "sci",
      ["Where did {t} die?", "In which city did {t} die?", "what city did {t} pass away in",
       "Which city did {t} die in?", "Where did {t} pass away?"],
      ["{t} died in which city?", "In what city did {t} pass away?", "name the place of death of {t}"]),
    S("wh-type", "born_in>located_in", "sci",
      ["In which country was {t} born?", "What country was {t} born in?", "Which country is {t_pos} birthplace in?",
       "what country is {t_pos} hometown in", "Tell me the country where {t} was born"],
      ["{t} was born in which country?", "Name the country of {t_pos} birth", "birth country of {t}?"]),
    S("wh-type", "employer>located_in", "sci",
      ["In which city does {t} work?", "What city is {t} working in?", "Which city is {t_pos} institution in?",
       "which city does {t} work in", "In what city is {t} employed?"],
      ["{t} works in which city?", "Which city hosts {t_pos} employer?", "Name the city where {t} has {his} job"]),
    S("wh-type", "employer>located_in>located_in", "sci",
      ["In which country does {t} work?", "What country is {t} employed in?",
       "Which country is {t_pos} employer located in?", "what country does {t} work in",
       "In what country is {t_pos} workplace?"],
      ["{t} works in which country?", "Name the country where {t} is employed", "country of {t_pos} employer?"]),
    # ------------------------------------------------------------------ possessive
    S("possessive", "doctoral_advisor>educated_at", "sci",
      ["What is {t_pos} advisor's alma mater?", "Where did {t_pos} doctoral advisor study?",
       "{t_pos} advisor — where did they study?", "Which universities did {t_pos} supervisor attend?",
       "where was {t_pos} doctoral advisor educated"],
      ["{t_pos} PhD supervisor went to which universities?", "Name {t_pos} mentor's alma mater",
       "{t_pos} thesis advisor's education: which institutions?"]),
    S("possessive", "doctoral_advisor>doctoral_advisor", "sci",
      ["Who was {t_pos} advisor's advisor?", "Who is {t_pos} doctoral advisor's doctoral advisor?",
       "Who is {t_pos} academic grandparent?", "who supervised {t_pos} supervisor",
       "Name {t_pos} advisor's own doctoral advisor"],
      ["Who mentored {t_pos} mentor?", "{t_pos} PhD supervisor's supervisor — who was it?",
       "give me the advisor of {t_pos} thesis advisor"]),
    S("possessive", "doctoral_advisor>doctoral_advisor>field_of_work", "sci",
      ["What is {t_pos} advisor's advisor's field?", "What did {t_pos} doctoral advisor's advisor work on?",
       "{t_pos} academic grandparent's field of work?", "Which field did {t_pos} supervisor's supervisor research?",
       "what was the research area of {t_pos} advisor's advisor"],
      ["In what field did {t_pos} mentor's mentor work?", "{t_pos} grand-advisor worked in which discipline?",
       "Name the field of {t_pos} doctoral advisor's own advisor"]),
    S("possessive", "doctoral_advisor>employer", "sci",
      ["Where does {t_pos} advisor work?", "What is {t_pos} doctoral advisor's employer?",
       "{t_pos} supervisor's institution?", "which institution employed {t_pos} advisor",
       "Who employs {t_pos} mentor?"],
      ["{t_pos} PhD supervisor was employed where?", "Name {t_pos} advisor's employer",
       "At which institution did {t_pos} thesis advisor hold a post?"]),
    S("possessive", "spouse>employer", "sci",
      ["Where does {t_pos} spouse work?", "Who is {t_pos} {partner}'s employer?", "{t_pos} {partner}'s institution?",
       "which institution employs {t_pos} spouse", "What is {t_pos} spouse's employer?"],
      ["{t_pos} {partner} works where?", "Tell me {t_pos} spouse's place of work",
       "Where is {t_pos} {partner} employed?"]),
    S("possessive", "director>educated_at", "dirorg",
      ["Where did {t_pos} director study?", "What is {t_pos} director's alma mater?",
       "{t_pos} director — where were they educated?", "which university did {t_pos} director attend",
       "Where was {t_pos} director educated?"],
      ["{t_pos} director studied where?", "Name the alma mater of {t_pos} director",
       "What schools did {t_pos} head go to?"]),
    S("possessive", "principal_investigator>employer>located_in", "proj",
      ["In which city does {t_pos} principal investigator work?", "What city is {t_pos} PI's employer in?",
       "{t_pos} lead researcher's institution — which city is it in?",
       "where is {t_pos} principal investigator's employer located", "Which city is {t_pos} PI based in?"],
      ["{t_pos} principal investigator is employed in which city?",
       "Name the city of {t_pos} lead scientist's institution", "What city hosts the employer of {t_pos} PI?"]),
    S("possessive", "doctoral_advisor>born_in>located_in", "sci",
      ["In which country was {t_pos} advisor born?", "What is {t_pos} doctoral advisor's country of birth?",
       "{t_pos} supervisor was born in which country?", "what country was {t_pos} mentor born in",
       "Which country is {t_pos} advisor's birthplace in?"],
      ["{t_pos} PhD advisor's birth country?", "Name the country where {t_pos} doctoral supervisor was born",
       "In what country was {t_pos} thesis advisor born?"]),
    # ------------------------------------------------------------------ relative
    S("relative", "^doctoral_advisor>employer", "sci",
      ["Where do the students {t} supervised work?",
       "Which institutions employ the scientists whose doctoral advisor was {t}?",
       "the institutions that employ people {t} advised",
       "Where are the people who did their PhD under {t} employed?",
       "Which institutions hired researchers that {t} supervised?"],
      ["Name the employers of scientists who had {t} as their advisor",
       "Where do those who wrote their thesis under {t} work?",
       "What institutions have taken on the doctoral students that {t} trained?"]),
    S("relative", "author_of>published_in", "sci",
      ["In which journals did the papers {t} wrote appear?", "Which journals published papers by {t}?",
       "the journals where {t} has published papers", "What journals carried the papers that {t} authored?",
       "which journals did the papers written by {t} come out in"],
      ["Name the journals in which papers written by {t} appeared",
       "Which journals have printed papers that {t} wrote?",
       "Where were the papers that {t} authored published?"]),
    S("relative", "^author_of>employer", "paper",
      ["Where do the authors of {t} work?", "Which institutions employ the people who wrote {t}?",
       "the institution that the author of {t} works for",
       "What institutions are the scientists who wrote {t} affiliated with?",
       "which institution employs whoever wrote {t}"],
      ["Where is the scientist who authored {t} employed?", "Name the employers of those who wrote {t}",
       "At which institution does the person behind {t} work?"]),
    S("relative", "^part_of>director", "inst",
      ["Who directs the labs that are part of {t}?", "Which scientists head laboratories belonging to {t}?",
       "who runs the labs at {t}", "Who are the directors of the labs that {t} houses?",
       "Name the people who direct labs which are part of {t}"],
      ["The labs belonging to {t} are directed by whom?", "who heads the laboratories that fall under {t}",
       "Tell me who leads each lab that is part of {t}"]),
    S("relative", "award_received>awarded_by", "sci",
      ["Which organisations award the prizes {t} has received?", "Who presents the awards that {t} won?",
       "which bodies gave {t} {his} awards", "What bodies hand out the awards {t} received?",
       "Who awarded the prizes that {t} has won?"],
      ["By whom are the awards {t} received conferred?", "Name the organisations that grant the prizes won by {t}",
       "The awards {t} holds were given by which bodies?"]),
    S("relative", "doctoral_advisor>author_of>published_in", "sci",
      ["Which journals published the papers written by the advisor of {t}?",
       "In which journals did the scientist who supervised {t} publish?",
       "What journals carried work by the person who was {t_pos} doctoral advisor?",
       "Where were the papers of the scientist that advised {t} published?",
       "the journals in which the person who advised {t} published papers"],
      ["In what journals did the doctoral advisor of {t} publish papers?",
       "Which journals carry papers written by whoever supervised {t}?",
       "Name the journals that published work by the scientist {t} trained under"]),
    S("relative", "^funded_by>principal_investigator", "funder",
      ["Who leads the projects that {t} funds?",
       "Which scientists are principal investigators on projects funded by {t}?",
       "who runs the projects {t} pays for", "Name the PIs of the projects that are funded by {t}",
       "Which researchers lead projects financed by {t}?"],
      ["The projects funded by {t} are led by whom?",
       "who are the principal investigators of projects that {t} finances",
       "Tell me the scientists heading projects which {t} funds"]),
    # ------------------------------------------------------------------ topic-answer
    S("topic-answer", "spouse>spouse", "sci",
      ["Who is the spouse of {t_pos} {partner}?", "Who is {t_pos} {partner} married to?",
       "whom did {t_pos} {partner} marry", "Who is {t_pos} spouse's spouse?",
       "Name the person {t_pos} {partner} is married to"],
      ["{t_pos} {partner} is married to whom?", "Who did the spouse of {t} wed?",
       "Tell me the husband or wife of {t_pos} spouse"]),
    S("topic-answer", "doctoral_advisor>^doctoral_advisor", "sci",
      ["Who are the doctoral students of {t_pos} advisor?", "Which scientists did {t_pos} doctoral advisor supervise?",
       "Whose doctoral advisor is {t_pos} advisor?", "list everyone who studied under {t_pos} supervisor",
       "Who were the PhD students of the scientist who advised {t}?"],
      ["{t_pos} advisor supervised which students?", "Name all doctoral students of {t_pos} mentor",
       "Which people had {t_pos} PhD supervisor as their advisor?"], min_size=2),
    S("topic-answer", "author_of>^author_of", "sci",
      ["Who are the authors of {t_pos} papers?", "Who wrote the works {t} authored?",
       "list the authors of everything {t} has written", "Which scientists are authors of the papers by {t}?",
       "Who authored the publications of {t}?"],
      ["Name all authors of the works written by {t}", "{t_pos} papers were written by whom?",
       "Who are the writers of {t_pos} publications?"], min_size=2),
    S("topic-answer", "part_of>^part_of", "lab",
      ["What laboratories belong to {t_pos} parent institution?", "list the labs at the institution {t} is part of",
       "Which labs does {t_pos} host institution have?", "What labs are housed at the institution that {t} belongs to?",
       "Which labs are part of the institution that runs {t}?"],
      ["{t_pos} parent institution has which labs?", "Name every lab that belongs to the institution of {t}",
       "the laboratories of the institution {t} is part of?"], min_size=2),
    S("topic-answer", "employer>^employer", "sci",
      ["Who works at {t_pos} institution?", "Which scientists are employed by {t_pos} employer?",
       "list the staff of the institution where {t} works", "Who is employed where {t} is employed?",
       "Who are the researchers at {t_pos} workplace?"],
      ["{t_pos} employer employs which scientists?", "Name everyone on the staff of {t_pos} institution",
       "Which researchers does the institution that employs {t} have?"], min_size=2),
    # ------------------------------------------------------------------ other
    S("other", "doctoral_advisor>^doctoral_advisor", "sci",
      ["Which other scientists share {t_pos} advisor?", "Who are {t_pos} academic siblings?",
       "Who else did {t_pos} doctoral advisor supervise?", "other students of {t_pos} supervisor",
       "Who else got a PhD under {t_pos} mentor?"],
      ["Besides {t}, who did {his} advisor supervise?",
       "Which fellow students had the same doctoral advisor as {t}?",
       "name {t_pos} academic brothers and sisters"]),
    S("other", "award_received>^award_received", "sci",
      ["Who else won the prizes {t} won?", "Which other scientists received an award that {t} also received?",
       "who else holds one of {t_pos} awards", "Who has won the same awards as {t}?",
       "Which other people were given the awards {t} got?"],
      ["Apart from {t}, who has received any of {his} prizes?", "Name other recipients of the awards {t} has won",
       "Besides {t}, who won any of the same honours?"]),
    S("other", "employer>^employer", "sci",
      ["Who are {t_pos} colleagues?", "Which colleagues does {t} have at the same institution?",
       "who else works where {t} works", "Which other researchers are employed at {t_pos} institution?",
       "List the colleagues of {t} at the same institute"],
      ["Apart from {t}, who is on staff at {his} employer?",
       "Name the people {t} works alongside at {his} institution", "Who else does {t_pos} employer employ?"]),
    S("other", "born_in>^born_in", "sci",
      ["Who else was born in {t_pos} hometown?", "Which other scientists were born in the same city as {t}?",
       "who shares {t_pos} birthplace", "Name the others born where {t} was born",
       "Which scientists besides {t} were born in {his} city of birth?"],
      ["Apart from {t}, who was born in {his} birth city?", "Who else has the same birthplace as {t}?",
       "other people born in the city where {t} was born?"]),
    S("other", "part_of>^part_of", "lab",
      ["Which other labs belong to the same institution as {t}?",
       "What other laboratories are part of {t_pos} institution?", "sister labs of {t}",
       "Which labs share a parent institution with {t}?", "Name the other labs at {t_pos} host institution"],
      ["Apart from {t}, which labs does its institution have?",
       "Besides {t}, what labs are part of the same institution?",
       "Which laboratories other than {t} belong to its parent institution?"]),
    # ------------------------------------------------------------------ inverse-set
    S("inverse-set", "^educated_at", "univ",
      ["Which scientists studied at {t}?", "Who was educated at {t}?", "list the alumni of {t}",
       "Who are {t_pos} alumni?", "Which researchers got their education at {t}?"],
      ["Name the scientists who went to {t}", "{t} educated which scientists?", "Who attended {t}?"]),
    S("inverse-set", "^award_received", "award",
      ["Who won {t}?", "Who has received {t}?", "list the recipients of {t}",
       "Which scientists have been awarded {t}?", "Who are the winners of {t}?"],
      ["{t} went to which scientists?", "Name every recipient of {t}", "To whom has {t} been given?"]),
    S("inverse-set", "^field_of_work", "field",
      ["List the researchers working in {t}", "Who works in {t}?", "Which scientists work on {t}?",
       "Which scientists have {t} as their field?", "give me the scientists whose field is {t}"],
      ["Name researchers active in {t}", "Which people do research in {t}?", "Who specialises in {t}?"]),
    S("inverse-set", "^doctoral_advisor", "sci",
      ["Who were {t_pos} doctoral students?", "Which scientists did {t} supervise?", "list the PhD students of {t}",
       "Who did {t} advise?", "Whose doctoral advisor was {t}?"],
      ["Name the people {t} supervised for their PhD", "{t} was doctoral advisor to whom?",
       "Which students completed a doctorate under {t}?"]),
    S("inverse-set", "^born_in", "city",
      ["Who was born in {t}?", "Which scientists were born in {t}?", "list the scientists born in {t}",
       "Name the researchers whose birthplace is {t}", "Who are the scientists that were born in {t}?"],
      ["{t} is the birthplace of which scientists?", "Which researchers come from {t} by birth?",
       "tell me who was born in {t}"]),
    S("inverse-set", "^published_in>^author_of", "journal",
      ["Who has published in {t}?", "Which scientists wrote papers that appeared in {t}?",
       "list the authors who published in {t}", "Whose papers appeared in {t}?",
       "Which researchers have papers in {t}?"],
      ["Name the scientists with a paper in {t}", "{t} has published work by which scientists?",
       "Who are the authors of papers published in {t}?"]),
    S("inverse-set", "^located_in>^located_in", "country",
      ["Which institutions are located in {t}?", "What universities and institutes are there in {t}?",
       "list the research institutions in {t}", "Name the institutions based in {t}",
       "Which universities or research institutes are in {t}?"],
      ["What research institutions does {t} have?", "Name all institutions situated in {t}",
       "In {t}, which universities or institutes exist?"]),
    S("inverse-set", "^located_in>^employer>^principal_investigator", "city",
      ["Which projects are led by scientists working in {t}?", "What research projects have a PI employed in {t}?",
       "list projects led by researchers based in {t}", "Which projects are run by people who work in {t}?",
       "Name the projects whose principal investigator works in {t}"],
      ["Projects headed by scientists employed in {t}?",
       "Which research projects are directed by someone working in {t}?",
       "What projects do researchers at institutions in {t} lead?"]),
    # ------------------------------------------------------------------ intersection
    S("intersection", "^country_of_citizenship&^field_of_work", ("country", "field"),
      ["Which {dem} {prac} are there?", "List the {dem} {prac}", "Who are the {dem} scientists working in {fd}?",
       "Which {prac} are {dem}?", "give me all {dem} {prac}"],
      ["Which scientists of {dem} nationality work in {fd}?", "{dem} researchers in {fd}?",
       "Who among the {prac} holds {dem} citizenship?"]),
    S("intersection", "^employer&^field_of_work", ("inst", "field"),
      ["Which {prac} work at {u}?", "Who at {u} works in {fd}?", "list the {prac} employed by {u}",
       "Which scientists at {u} do research in {fd}?", "What {prac} does {u} employ?"],
      ["{u} employs which {prac}?", "Name the {fd} researchers on the staff of {u}",
       "Among the staff of {u}, who works on {fd}?"]),
    S("intersection", "^educated_at&^award_received", ("univ", "award"),
      ["Who studied at {u} and won {a}?", "Which alumni of {u} have received {a}?",
       "{a_bare} winners educated at {u}?", "which scientists educated at {u} received {a}",
       "Name the {u_bare} alumni who won {a}"],
      ["Which recipients of {a} went to {u}?", "Among the winners of {a}, who attended {u}?",
       "who got {a} after studying at {u}"]),
    S("intersection", "^published_in&^publication_year", ("journal", "year"),
      ["Which papers did {j} publish in {y}?", "What papers appeared in {j} in {y}?", "list {y} papers from {j}",
       "Which {j} papers came out in {y}?", "What did {j} publish in {y}?"],
      ["Papers published in {j} during {y}?", "In {y}, which papers appeared in {j}?",
       "Name the {j} articles from {y}"]),
    S("intersection", "^located_in>^employer&^field_of_work", ("city", "field"),
      ["Which {prac} work in {c}?", "Who works on {fd} in {c}?", "list {prac} based in {c}",
       "Which scientists in {c} research {fd}?", "Name the {prac} employed in {c}"],
      ["Which {fd} researchers have jobs in {c}?", "Who among the {prac} is employed in {c}?",
       "In {c}, who does research in {fd}?"]),
    S("intersection", "^member_of&^country_of_citizenship", ("society", "country"),
      ["Which {dem} scientists are members of {so}?", "Who in {so} is {dem}?", "list the {dem} members of {so}",
       "Which members of {so} are {dem} citizens?", "Name {dem} scientists who belong to {so}"],
      ["{so} has which {dem} members?", "Which {dem} researchers hold membership in {so}?",
       "Among the members of {so}, who has {dem} citizenship?"]),
]


def norm(s):
    return re.sub(r"\W+", " ", s.lower()).strip()


def hops_of(qtype):
    return max(len(b.split(">")) for b in qtype.split("&"))


def possessive(s):
    return s + ("'" if s.endswith("s") else "'s")


def topic_pool(kb, info, topic):
    pools = {
        "sci": info["people"], "inst": info["institutions"], "univ": info["universities"],
        "dirorg": info["institutes"] + info["labs"], "lab": info["labs"], "paper": info["papers"],
        "pub": info["papers"] + info["books"], "proj": info["projects"], "award": info["awards"],
        "field": info["fields"], "city": info["cities"], "country": info["countries"],
        "journal": info["journals"], "funder": info["funders"], "society": info["societies"],
    }
    if topic == "year":
        return sorted({o for (s, r, o) in kb.facts if r == "publication_year"})
    return sorted(pools[topic])


def with_article(kb, label):
    return ("the " + label) if label in kb.the else label


def anchor_ctx(kb, info, kind, label):
    if kind == "country":
        return {"dem": info["dem"][label], "n": with_article(kb, label)}
    if kind == "field":
        return {"fd": label, "prac": info["prac"][label]}
    if kind in ("inst", "univ"):
        return {"u": with_article(kb, label), "u_bare": label, "u_pos": possessive(with_article(kb, label))}
    if kind == "award":
        return {"a": with_article(kb, label), "a_bare": label}
    if kind == "journal":
        return {"j": with_article(kb, label)}
    if kind == "year":
        return {"y": label}
    if kind == "city":
        return {"c": label}
    if kind == "society":
        return {"so": with_article(kb, label)}
    raise KeyError(kind)


def topic_ctx(kb, info, label):
    t = with_article(kb, label)
    ctx = {"t": t, "t_pos": possessive(t), "t_bare": label}
    g = info["gender"].get(label)
    if g:
        ctx.update({"his": "his" if g == "m" else "her", "he": "he" if g == "m" else "she",
                    "him": "him" if g == "m" else "her"})
        sp = kb.objs(label, "spouse")
        if sp:
            ctx["partner"] = "husband" if info["gender"][sp[0]] == "m" else "wife"
    return ctx


def render(template, ctx):
    q = template.format(**ctx)
    if template.startswith("{") and q.startswith("the "):
        q = "The " + q[4:]
    return q


def candidates(kb, info, spec):
    qtype, kind = spec["qtype"], spec["kind"]
    out = []
    if isinstance(spec["topic"], tuple):
        k1, k2 = spec["topic"]
        b1, b2 = qtype.split("&")
        for a1 in topic_pool(kb, info, k1):
            r1 = kb.run(b1, [a1])
            if not r1:
                continue
            for a2 in topic_pool(kb, info, k2):
                r2 = kb.run(b2, [a2])
                res = r1 & r2
                # both anchors must matter: the intersection is smaller than either branch
                if 1 <= len(res) <= MAX_ANSWERS and res != r1 and res != r2:
                    out.append(((a1, a2), sorted(res)))
        return out
    for t in topic_pool(kb, info, spec["topic"]):
        res = kb.run(qtype, [t])
        if kind == "other":
            res = res - {t}
        if kind == "topic-answer" and t not in res:
            continue
        if spec["min_size"] <= len(res) <= MAX_ANSWERS:
            out.append(((t,), sorted(res)))
    return out


def build_questions(kb, info, rng):
    files = {"tune": [], "held": []}
    seen = set()
    all_templates = {}
    for si, spec in enumerate(SPECS):
        for part in ("tune", "held"):
            for tpl in spec[part]:
                key = norm(tpl)
                assert key not in all_templates, f"template reused: {tpl!r} ({all_templates[key]})"
                all_templates[key] = (si, part)
    tune_keys = {k for k, v in all_templates.items() if v[1] == "tune"}
    held_keys = {k for k, v in all_templates.items() if v[1] == "held"}
    assert not (tune_keys & held_keys)
    spec_stats = []
    for si, spec in enumerate(SPECS):
        hops = hops_of(spec["qtype"])
        n_tune = 7 if hops >= 2 else 6
        n_held = 4
        cands = candidates(kb, info, spec)
        rng.shuffle(cands)
        used_topics = set()
        counts = {}
        for part, n in (("tune", n_tune), ("held", n_held)):
            tpls = spec[part][:]
            rng.shuffle(tpls)
            order = [c for c in cands if c[0] not in used_topics] + [c for c in cands if c[0] in used_topics]
            made = 0
            for anchors, gold in order:
                if made >= n:
                    break
                tpl = tpls[made % len(tpls)]
                if isinstance(spec["topic"], tuple):
                    ctx = {}
                    for k, a in zip(spec["topic"], anchors, strict=False):
                        ctx.update(anchor_ctx(kb, info, k, a))
                else:
                    ctx = topic_ctx(kb, info, anchors[0])
                try:
                    q = render(tpl, ctx)
                except KeyError:
                    continue
                # a little of the case and punctuation variation analysts show
                if not tpl.startswith("{") and q[0].isupper() and rng.random() < 0.12:
                    q = q[0].lower() + q[1:]
                if q.endswith("?") and rng.random() < 0.08:
                    q = q[:-1]
                if norm(q) in seen:
                    continue
                # the topic appears as its exact label
                if not isinstance(spec["topic"], tuple):
                    assert anchors[0] in q, (q, anchors)
                seen.add(norm(q))
                used_topics.add(anchors)
                files[part].append(dict(question=q, answers="|".join(gold), qtype=spec["qtype"],
                                        kind=spec["kind"], hops=hops, spec=si, template=tpl, anchors=anchors))
                made += 1
            counts[part] = made
        spec_stats.append(counts)
    for part in files:
        rng.shuffle(files[part])
    return files, spec_stats


def verify(kb, files):
    """Re-execute every question's qtype from its anchors and compare with the stored gold."""
    for part, rows in files.items():
        texts = [norm(r["question"]) for r in rows]
        assert len(texts) == len(set(texts)), f"duplicate question in {part}"
        for r in rows:
            gold = r["answers"].split("|")
            assert 1 <= len(gold) <= MAX_ANSWERS
            assert gold == sorted(gold)
            res = kb.run(r["qtype"], list(r["anchors"]))
            if r["kind"] == "other":
                res = res - {r["anchors"][0]}
            if r["kind"] == "topic-answer":
                assert r["anchors"][0] in res
            assert sorted(res) == gold, r
            assert r["hops"] == hops_of(r["qtype"])
    a = {norm(r["question"]) for r in files["tune"]}
    b = {norm(r["question"]) for r in files["held"]}
    assert not (a & b), "question shared across files"
    ta = {norm(r["template"]) for r in files["tune"]}
    tb = {norm(r["template"]) for r in files["held"]}
    assert not (ta & tb), "template shared across files"


# --------------------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------------------
KIND_ORDER = ["plain", "synonym", "wh-type", "possessive", "relative", "topic-answer", "other", "inverse-set",
              "intersection"]
KIND_TEXT = {
    "plain": "direct wordings that name the relation in its own words (*who was the doctoral advisor of X*, "
             "*which institution employs X*, *who directs L*).",
    "synonym": "the relation is named with paraphrases or colloquialisms it doesn't share (*who supervised X's "
               "PhD*, *what is X's alma mater*, *what does X research*, *which prizes has X picked up*, *where is "
               "X based*, *who has X teamed up with*).",
    "wh-type": "the wh-word or a type noun carries the answer type (*where was X born* → city, *when was X born* "
               "→ year, *what country does X work in* → country, *how many employees does U have* → number).",
    "possessive": "chained possessives, 2-3 hops (*X's advisor's alma mater*, *X's advisor's advisor's field*, "
                  "*P's principal investigator's employer's city*), including fronted forms (*X's advisor — where "
                  "did they study?*).",
    "relative": "relative clauses (*the institutions that employ people X advised*, *the journals in which the "
                "person who advised X published papers*, *who leads the projects that F funds*).",
    "topic-answer": "the answer includes the topic itself (*who is the spouse of X's husband* → X; *who are the "
                    "doctoral students of X's advisor* → includes X). Gold keeps the topic.",
    "other": "asks for others, so the topic is removed from the gold (*X's academic siblings*, *who else won the "
             "prizes X won*, *X's colleagues*, *sister labs of L*).",
    "inverse-set": "set-valued backward questions (*which scientists studied at U*, *who won A*, *list the "
                   "researchers working in F*, *which institutions are located in N*).",
    "intersection": "two anchors (*which Norwegian number theorists are there*, *which physicists work at U*, "
                    "*who studied at U and won A*, *which papers did J publish in 1975*).",
}


def kind_table(rows):
    c = Counter((r["kind"], r["hops"]) for r in rows)
    out = ["| kind | 1 hop | 2 hops | 3 hops | total |", "|---|---:|---:|---:|---:|"]
    tot = Counter()
    for k in KIND_ORDER:
        vals = [c[(k, h)] for h in (1, 2, 3)]
        for h, v in zip((1, 2, 3), vals, strict=False):
            tot[h] += v
        out.append(f"| `{k}` | {vals[0]} | {vals[1]} | {vals[2]} | {sum(vals)} |")
    out.append(f"| **all** | {tot[1]} | {tot[2]} | {tot[3]} | **{sum(tot.values())}** |")
    return "\n".join(out)


def write_readme(kb, info, files, spec_stats, nesting, shared):
    cls_count = Counter(kb.cls.values())
    rel_count = Counter(r for (_s, r, _o) in kb.facts)
    n_triples = len(kb.facts)
    desc = {
        "scientist": "scientists (four generations, born 1866–1990)",
        "university": "universities", "research institute": "research institutes",
        "laboratory": "laboratories (each part of a university or institute)",
        "learned society": "academies and learned societies", "foundation": "funding foundations",
        "award": "awards, medals and prizes (field-specific and general)", "journal": "journals", "paper": "papers", "book": "books",
        "research project": "research projects (code names)", "city": "cities (real)",
        "country": "countries (real)", "field": "fields (real discipline names)",
    }
    P = info["P"]
    n_adv = sum(1 for p in info["people"] if P[p]["advisor"])
    chains = Counter()
    for p in info["people"]:
        depth, q = 0, p
        while P[q]["advisor"]:
            depth += 1
            q = P[q]["advisor"]
        chains[depth] += 1
    n_abroad = sum(1 for p in info["people"] if kb.objs(kb.objs(p, "born_in")[0], "located_in")[0] != P[p]["nat"])
    n_two = sum(1 for p in info["people"] if len(P[p]["cits"]) == 2)
    coauth = sum(1 for x in info["papers"] if len(kb.subjs(x, "author_of")) == 2)
    ex_s = next(p for p in info["people"] if p.endswith("s"))
    ex_award = info["awards"][0]
    ex_uni = next(u for u in info["universities"] if u.startswith("University of"))
    reused = 0
    for si in range(len(SPECS)):
        tt = {r["anchors"] for r in files["tune"] if r["spec"] == si}
        reused += sum(1 for r in files["held"] if r["spec"] == si and r["anchors"] in tt)
    short = [f"`{sp['kind']}` `{sp['qtype']}`" for sp, st in zip(SPECS, spec_stats, strict=False)
             if st["tune"] < (7 if hops_of(sp["qtype"]) >= 2 else 6) or st["held"] < 4]
    L = []
    L.append("# science: a generated academic-science KB with labelled questions\n")
    L.append(
        "A small, fully generated knowledge base about academic science: scientists, their doctoral\n"
        "advisors and students, universities, research institutes and their laboratories, learned\n"
        "societies and foundations, awards, journals, papers, books and research projects, with labelled\n"
        "1-3 hop questions. It is an evaluation set for knowledge-graph question answering: the KB and the\n"
        "question wordings were written without reference to the engine (none of its code, tests or other\n"
        "datasets' questions were read while writing them), and the held-out file uses separately written\n"
        "wordings, so it measures how well what was tuned on one set of phrasings carries over to new ones.\n")
    L.append(
        "Countries and cities are real, fields are common names of disciplines (`number theory`,\n"
        "`organic chemistry`); every scientist, university, institute, laboratory, society, foundation,\n"
        "award, journal, paper, book and project is invented (person names drawn from per-nationality\n"
        "first/last name lists), so a language model cannot know the answers beforehand. Any resemblance to\n"
        "real people, institutions or publications is coincidental.\n")
    L.append("## How it is generated\n")
    L.append("```\npython scripts/devsets/build_science.py\n```\n")
    L.append(
        f"Python 3.11 standard library only, deterministic (fixed seed `{SEED}`): running it again gives\n"
        "byte-identical files. Change the script, not the files. The script re-executes every question's\n"
        "`qtype` for its gold, and checks that no template or question text is shared between the files.\n")
    L.append("## Files\n")
    L.append(
        f"- `kb.tsv`: `subject<TAB>relation<TAB>object`, no header, UTF-8 ({n_triples:,} triples).\n"
        "  Relation labels are snake_case (`doctoral_advisor`, `award_received`). Integers (years,\n"
        "  headcounts, h-indices) are plain literals such as `1987`.\n"
        f"- `questions.tsv`: TUNING questions ({len(files['tune'])}).\n"
        f"- `questions_heldout.tsv`: HELD-OUT questions ({len(files['held'])}), worded with templates that\n"
        "  share none of the tuning templates (the script checks this, and that no question text is\n"
        "  shared).\n")
    L.append(
        "Both question files have the header `question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops`:\n\n"
        "- `question`: natural English, as an analyst might type it (some lower case, some without a\n"
        "  question mark); the topic entity appears as its exact KB label (no brackets; a label ending in\n"
        f"  `s` takes a bare apostrophe: `{ex_s}'`). Labels of institutes, labs, societies, foundations,\n"
        f"  awards and some universities are preceded by *the* in running text (`the {ex_award}`,\n"
        f"  `the {ex_uni}`), as are `United States`, `United Kingdom` and `Netherlands`.\n"
        "  Secondary anchors of intersection questions may appear as a demonym (`Norwegian` for `Norway`)\n"
        "  or a practitioner noun (`number theorists` for `number theory`); a year anchor is its literal.\n"
        f"- `answers`: **all** gold answers, sorted, joined by `|`, exactly as KB labels/literals. Gold is\n"
        f"  computed by executing `qtype` on the KB. Questions with no answer or more than {MAX_ANSWERS}\n"
        "  answers are dropped.\n"
        "- `qtype`: the relation path. Steps are joined by `>`; `^rel` walks `rel` backwards (object to\n"
        "  subject); `&` intersects branches. With one anchor every branch starts at the topic; with two\n"
        "  anchors (the `intersection` kind) branch *i* starts at anchor *i* (`^employer&^field_of_work`:\n"
        "  scientists employed at U working in F). Paths are executed literally (`^located_in` from a\n"
        "  country reaches its cities, from a city its universities and institutes).\n"
        "- `kind`: the wording category (below). For `other` the topic is removed from the path's result;\n"
        "  for `topic-answer` the result is taken as is and contains the topic; every other kind takes the\n"
        "  result as is. `hops`: length of the longest branch.\n")
    L.append(
        "Questions are shuffled and no question text appears twice in or across the files. Where enough\n"
        "topics exist, held-out questions use topics not used for the same spec in tuning. Intersection\n"
        "questions only use anchor pairs where both anchors matter (the answer set is smaller than either\n"
        "branch alone).\n")
    L.append("## Entities\n")
    L.append("| type (`instance_of`) | count |\n|---|---:|")
    for c in CLASSES:
        L.append(f"| `{c}`: {desc[c]} | {cls_count[c]} |")
    L.append("")
    L.append(
        f"{len(CLASSES)} classes in all. Every subject has exactly one `instance_of`; every entity label is\n"
        f"unique across the KB. Of the {len(info['people'])} scientists, {n_adv} have a doctoral advisor;\n"
        "advisor chains run back " + ", ".join(f"{k} generation{'s' if k != 1 else ''}: {v}"
                                               for k, v in sorted(chains.items()))
        + f" scientists. {n_abroad} were born outside their country of citizenship ({n_two} of all scientists\n"
        f"hold two citizenships). {coauth} papers have two authors; books have a year but no journal.\n")
    L.append(
        "No label contains another entity label as a run of whole words (the script checks this). Labels\n"
        "share words with class or relation names only rarely: "
        + ", ".join(f"`{o}` contains the class name `{i}`" for i, o in nesting)
        + f"; in all {len(shared)} non-place entity labels share a content word with a class or relation\n"
        "name (" + ", ".join(f"`{s}`" for s in shared) + ").\n")
    L.append("## Relations\n")
    L.append("| relation | head → tail | meaning | triples |\n|---|---|---|---:|")
    for name, ht, meaning in RELATIONS:
        L.append(f"| `{name}` | {ht} | {meaning} | {rel_count[name]} |")
    L.append("")
    L.append(
        "Distractors on purpose: where a scientist studied vs where they work (most doctorates are taken where\n"
        "the advisor worked, and a quarter stay there); the birth city's country vs citizenship (people born\n"
        "abroad); a paper's authors vs the journal's other authors; the society that confers an award vs the\n"
        "society a winner is a member of; institute directors vs lab directors (labs belong to universities\n"
        "and institutes alike). `located_in` links cities to countries and institutions to cities;\n"
        "`founded_year` covers institutions, societies, foundations and journals; `author_of` reaches papers\n"
        "and books.\n")
    L.append("## Question kinds\n")
    for k in KIND_ORDER:
        L.append(f"- `{k}`: {KIND_TEXT[k]}")
    L.append("")
    L.append("### Tuning file (`questions.tsv`): questions per kind and hops\n")
    L.append(kind_table(files["tune"]) + "\n")
    L.append("### Held-out file (`questions_heldout.tsv`): questions per kind and hops\n")
    L.append(kind_table(files["held"]) + "\n")
    L.append("### Per spec\n")
    L.append("| kind | qtype | hops | tuning | held-out | tuning templates | held-out templates | example tuning wording |")
    L.append("|---|---|---:|---:|---:|---:|---:|---|")
    for spec, st in zip(SPECS, spec_stats, strict=False):
        L.append(f"| `{spec['kind']}` | `{spec['qtype']}` | {hops_of(spec['qtype'])} | {st['tune']} | {st['held']} "
                 f"| {len(spec['tune'])} | {len(spec['held'])} | {spec['tune'][0]} |")
    L.append("")
    L.append(
        "Each spec asks for 6 tuning questions (7 for 2-3 hop specs) and 4 held-out ones. Where a spec has\n"
        "fewer usable topics than asked for it has fewer questions ("
        + (", ".join(short) if short else "none at present")
        + "), and where the held-out file runs out of fresh topics it reuses tuning topics with its own\n"
        f"wordings ({reused} held-out questions at present). All wordings are in `SPECS` in the script.\n")
    L.append("## Licence\n")
    L.append(
        "Everything here is generated by `scripts/devsets/build_science.py`. The data is dedicated to the\n"
        "public domain under [CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/).\n")
    return "\n".join(L)


def main():
    rng = random.Random(SEED)
    kb, info = build_kb(rng)
    nesting = check_labels(kb)
    shared = word_sharing(kb)
    for lab in kb.cls:
        assert len(kb.objs(lab, "instance_of")) == 1
    files, spec_stats = build_questions(kb, info, random.Random(SEED + 1))
    verify(kb, files)
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "kb.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(kb.lines()) + "\n")
    header = "question\tanswers\tqtype\tkind\thops\n"
    for part, name in (("tune", "questions.tsv"), ("held", "questions_heldout.tsv")):
        with open(os.path.join(OUT, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(header)
            for r in files[part]:
                f.write(f"{r['question']}\t{r['answers']}\t{r['qtype']}\t{r['kind']}\t{r['hops']}\n")
    with open(os.path.join(OUT, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(write_readme(kb, info, files, spec_stats, nesting, shared).rstrip("\n") + "\n")
    print(f"{len(kb.facts)} triples; {len(files['tune'])} tuning, {len(files['held'])} held-out questions "
          f"-> {os.path.relpath(OUT, ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
