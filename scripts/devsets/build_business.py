#!/usr/bin/env python3
"""Build the "business" evaluation set: a small Wikidata-style KB about companies and
the economy, plus labelled questions (a tuning file and a held-out file whose wordings
were written separately).

Run from the repository root:

    python scripts/devsets/build_business.py

Python 3.11 standard library only. Deterministic: the fixed seed below makes every run
write byte-identical files. Outputs go to benchmarks/data/business/.
"""

from __future__ import annotations

import math
import os
import random
import re
from collections import defaultdict

SEED = 20250311
N_TUNE = 17   # questions per spec, tuning file
N_HELD = 7    # questions per spec, held-out file
MAX_ANSWERS = 15

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT_DIR = os.path.join(ROOT, "benchmarks", "data", "business")

BASE = "http://example.org/business/"
ENT = BASE + "entity/Q"
PROP = BASE + "prop/P"
RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
RDFS_COMMENT = "http://www.w3.org/2000/01/rdf-schema#comment"
XSD = "http://www.w3.org/2001/XMLSchema#"

# --------------------------------------------------------------------------------------
# Relations: key (label with "_"), label, optional rdfs:comment
# --------------------------------------------------------------------------------------
RELATIONS = [
    ("instance_of", "instance of", "class of which this item is a particular example"),
    ("founded_by", "founded by", "person who founded the organization"),
    ("chief_executive_officer", "chief executive officer",
     "highest-ranking manager in charge of running the organization"),
    ("board_member", "board member", "member of the organization's board of directors"),
    ("chairperson", "chairperson", "person who presides over the organization's board"),
    ("headquarters_location", "headquarters location",
     "city where the organization's headquarters are"),
    ("country", "country", "sovereign state this item is located in or belongs to"),
    ("industry", "industry", "sector of the economy in which the company operates"),
    ("parent_organization", "parent organization",
     "organization that owns or controls this organization"),
    ("subsidiary", "subsidiary", "organization owned or controlled by this organization"),
    ("product_or_material_produced", "product or material produced",
     "goods, brands or titles that the company makes"),
    ("manufacturer", "manufacturer", "company that makes this product"),
    ("listed_on", "listed on", "stock exchange on which the company's shares trade"),
    ("inception", "inception", "year in which the item was founded or established"),
    ("number_of_employees", "number of employees", None),
    ("revenue", "revenue", "total annual revenue, in billions of US dollars"),
    ("competitor", "competitor", "company competing with this one in the same market"),
    ("educated_at", "educated at", "educational institution attended"),
    ("place_of_birth", "place of birth", None),
    ("employer", "employer", "organization the person works for"),
    ("country_of_citizenship", "country of citizenship", None),
    ("currency", "currency", "currency used in the country"),
    ("capital", "capital", None),
    ("located_in", "located in", "city in which the institution is located"),
]
REL_LABEL = {k: lab for k, lab, _ in RELATIONS}

# --------------------------------------------------------------------------------------
# Geography
# --------------------------------------------------------------------------------------
# country: (currency, [(city, company weight, is_capital)], stock exchanges [(label, city)])
COUNTRIES = [
    ("United States", "United States dollar",
     [("New York City", 10, False), ("San Francisco", 6, False), ("Chicago", 4, False),
      ("Seattle", 4, False), ("Boston", 4, False), ("Houston", 4, False),
      ("Washington, D.C.", 1, True)],
     [("New York Stock Exchange", "New York City"), ("Nasdaq", "New York City")]),
    ("Canada", "Canadian dollar",
     [("Ottawa", 0.5, True), ("Toronto", 4, False), ("Vancouver", 2, False)],
     [("Toronto Stock Exchange", "Toronto")]),
    ("Mexico", "Mexican peso",
     [("Mexico City", 3, True), ("Monterrey", 2, False)],
     [("Bolsa Mexicana de Valores", "Mexico City")]),
    ("Brazil", "Brazilian real",
     [("Brasília", 0.5, True), ("São Paulo", 4, False)],
     [("B3", "São Paulo")]),
    ("Argentina", "Argentine peso",
     [("Buenos Aires", 3, True), ("Córdoba", 1, False)],
     [("Bolsa de Comercio de Buenos Aires", "Buenos Aires")]),
    ("United Kingdom", "pound sterling",
     [("London", 8, True), ("Manchester", 2, False), ("Edinburgh", 2, False)],
     [("London Stock Exchange", "London")]),
    ("Ireland", "euro",
     [("Dublin", 3, True)],
     [("Euronext Dublin", "Dublin")]),
    ("France", "euro",
     [("Paris", 6, True), ("Lyon", 2, False)],
     [("Euronext Paris", "Paris")]),
    ("Germany", "euro",
     [("Berlin", 3, True), ("Munich", 4, False), ("Hamburg", 3, False),
      ("Frankfurt", 3, False)],
     [("Frankfurt Stock Exchange", "Frankfurt")]),
    ("Netherlands", "euro",
     [("Amsterdam", 4, True), ("Rotterdam", 2, False), ("Eindhoven", 2, False)],
     [("Euronext Amsterdam", "Amsterdam")]),
    ("Switzerland", "Swiss franc",
     [("Bern", 0.5, True), ("Zurich", 3, False), ("Geneva", 2, False)],
     [("SIX Swiss Exchange", "Zurich")]),
    ("Sweden", "Swedish krona",
     [("Stockholm", 3, True), ("Gothenburg", 2, False)],
     [("Nasdaq Stockholm", "Stockholm")]),
    ("Norway", "Norwegian krone",
     [("Oslo", 2, True), ("Bergen", 1, False)],
     [("Oslo Børs", "Oslo")]),
    ("Spain", "euro",
     [("Madrid", 3, True), ("Barcelona", 3, False)],
     [("Bolsa de Madrid", "Madrid")]),
    ("Italy", "euro",
     [("Rome", 2, True), ("Milan", 4, False), ("Turin", 2, False)],
     [("Borsa Italiana", "Milan")]),
    ("Japan", "Japanese yen",
     [("Tokyo", 8, True), ("Osaka", 3, False)],
     [("Tokyo Stock Exchange", "Tokyo")]),
    ("South Korea", "South Korean won",
     [("Seoul", 5, True), ("Busan", 1, False)],
     [("Korea Exchange", "Busan")]),
    ("China", "renminbi",
     [("Beijing", 4, True), ("Shanghai", 4, False), ("Shenzhen", 3, False)],
     [("Shanghai Stock Exchange", "Shanghai")]),
    ("India", "Indian rupee",
     [("New Delhi", 2, True), ("Mumbai", 4, False), ("Bangalore", 3, False)],
     [("National Stock Exchange of India", "Mumbai")]),
    ("Australia", "Australian dollar",
     [("Canberra", 0.3, True), ("Sydney", 4, False), ("Melbourne", 3, False)],
     [("Australian Securities Exchange", "Sydney")]),
    ("South Africa", "South African rand",
     [("Pretoria", 0.5, True), ("Johannesburg", 3, False), ("Cape Town", 2, False)],
     [("Johannesburg Stock Exchange", "Johannesburg")]),
]

EXCHANGE_INCEPTION = {
    "New York Stock Exchange": 1792, "Nasdaq": 1971, "Toronto Stock Exchange": 1861,
    "Bolsa Mexicana de Valores": 1894, "B3": 2008, "Bolsa de Comercio de Buenos Aires": 1854,
    "London Stock Exchange": 1801, "Euronext Dublin": 1793, "Euronext Paris": 1724,
    "Frankfurt Stock Exchange": 1585, "Euronext Amsterdam": 1602, "SIX Swiss Exchange": 1995,
    "Nasdaq Stockholm": 1863, "Oslo Børs": 1819, "Bolsa de Madrid": 1831,
    "Borsa Italiana": 1808, "Tokyo Stock Exchange": 1878, "Korea Exchange": 2005,
    "Shanghai Stock Exchange": 1990, "National Stock Exchange of India": 1992,
    "Australian Securities Exchange": 1987, "Johannesburg Stock Exchange": 1887,
}

# Universities (invented), by country
UNIVERSITIES = {
    "United States": ["Hartwell University", "Ashcombe Institute of Technology",
                      "Kingsbridge University", "Fairholme College",
                      "Larkspur State University", "Whitmore School of Business",
                      "Glenridge University", "Pellham Polytechnic Institute"],
    "United Kingdom": ["University of Thornbury", "Redcliffe College",
                       "Stanmore School of Economics", "Ellingham University",
                       "Royal Harcourt Institute"],
    "Canada": ["Dunmore University", "Université de Saint-Aubert"],
    "Ireland": ["Kilbride University"],
    "France": ["École Supérieure Delacroix", "Université Marcellin-Berthier",
               "Institut Valmont de Commerce"],
    "Germany": ["Technische Hochschule Ebersbach", "Universität Rosenau",
                "Kaiser Leopold University"],
    "Netherlands": ["Hoogland University of Technology"],
    "Switzerland": ["Institut Lémanique de Technologie", "Helvetia School of Management"],
    "Sweden": ["Kungsholm Institute of Technology"],
    "Norway": ["Fjordvik University"],
    "Spain": ["Universidad de San Telmo", "Escuela de Negocios Alhambra"],
    "Mexico": ["Instituto Tecnológico de Valdeflores"],
    "Argentina": ["Universidad del Plata Austral"],
    "Brazil": ["Universidade Federal de Itaverá"],
    "Italy": ["Politecnico di Valsesia", "Università Ferrandina"],
    "Japan": ["Hanazono University", "Kurosaki Institute of Technology", "Seiwa University"],
    "South Korea": ["Hanbit National University",
                    "Seoyeon Institute of Science and Technology"],
    "China": ["Jinghua University", "Donghai Jiaotong University"],
    "India": ["Sarasvati Institute of Technology", "Deccan School of Business"],
    "Australia": ["University of Wattlebrook", "Southern Cross Institute of Technology"],
    "South Africa": ["Drakensberg University"],
}

# --------------------------------------------------------------------------------------
# People names by region
# --------------------------------------------------------------------------------------
NAMES = {
    "anglo": (
        "James Michael Sarah Emily David Laura Daniel Rachel Thomas Olivia Matthew Hannah "
        "Andrew Megan Christopher Rebecca Jonathan Claire Patrick Fiona Gregory Natalie "
        "Benjamin Victoria Nathan Abigail Samuel Caroline Owen Lucy Russell Heather Graham "
        "Alison Simon Diane Colin Joanna Trevor Melissa",
        "Whitaker Holloway Prescott Caldwell Donovan Fairbanks Hargrove Kensington Langford "
        "Merriweather Norwood Ashford Blackwell Carrington Dempsey Ellison Forsyth Garrity "
        "Hensley Jarrett Kimball Lockhart McAllister Northcott O'Malley Quinlan Radcliffe "
        "Sutherland Thornton Underwood Vance Wexler Yardley Abernathy Brennan Draper Eastwood "
        "Fitzgerald Gallagher Harrington Kavanagh Langley Mercer Nash Osborne Pryor Redmond "
        "Sinclair Talbot Whitfield Winslow"),
    "german": (
        "Matthias Katharina Stefan Julia Tobias Anna Florian Lena Markus Sabine Jürgen "
        "Claudia Lukas Miriam Andreas Ulrike Felix Johanna Dieter Birgit",
        "Brandt Hoffmann Krause Lehmann Vogel Richter Baumann Schreiber Neumann Keller Wolff "
        "Zimmermann Hartmann Berger Fuchs Engel Kessler Winkler Lorenz Seidel Brunner Gerber "
        "Meier Steiner"),
    "french": (
        "Julien Camille Mathieu Élodie Antoine Sophie Nicolas Margaux Olivier Céline "
        "Thibault Amélie Laurent Inès Guillaume Chloé Étienne Manon Rémi Aurélie",
        "Moreau Lefèvre Girard Bonnet Dupont Lambert Fontaine Rousseau Vincent Mercier Blanc "
        "Guérin Faure Chevalier Gauthier Perrin Morel Clément Roussel Lemaire"),
    "spanish": (
        "Alejandro Lucía Javier Carmen Diego Sofía Pablo Elena Andrés Valentina Sergio Marta "
        "Rodrigo Paula Fernando Isabel Gonzalo Ximena Emilio Daniela",
        "Navarro Herrera Castillo Ortega Romero Delgado Vargas Morales Ruiz Medina Aguilar "
        "Fuentes Cabrera Salazar Domínguez Iglesias Montoya Serrano Valdés Rojas"),
    "portuguese": (
        "João Mariana Rafael Beatriz Gustavo Larissa Thiago Camila Bruno Fernanda Leonardo "
        "Juliana Felipe Gabriela Otávio",
        "Souza Oliveira Carvalho Ribeiro Almeida Pereira Barbosa Rocha Teixeira Moreira "
        "Cardoso Araújo Nascimento Lima Correia"),
    "italian": (
        "Marco Giulia Luca Chiara Alessandro Francesca Matteo Federica Davide Elisa Stefano "
        "Silvia Riccardo Valeria Lorenzo",
        "Bianchi Romano Colombo Ricci Marino Greco Gallo Conti Mancini Costa Giordano Rizzo "
        "Lombardi Moretti Barbieri Fontana Santoro Marchetti"),
    "nordic": (
        "Erik Ingrid Lars Astrid Magnus Sigrid Henrik Karin Anders Maja Nils Elin Johan "
        "Freya Olav Linnea Sven Gustav Tove",
        "Lindqvist Johansson Berglund Nyström Halvorsen Sandberg Eriksen Holm Dahl Lund "
        "Strand Bakke Engström Sjöberg Solberg Hedlund Ekman Åberg Nordin Lindgren"),
    "dutch": (
        "Jeroen Sanne Pieter Femke Bram Lotte Maarten Anouk Ruben Eva Joost Marloes Thijs "
        "Iris Wouter",
        "de_Vries van_Dijk Bakker Visser Smit Meijer de_Boer Mulder de_Groot Bos Vos "
        "Hendriks van_Leeuwen Dekker Brouwer de_Wit Dijkstra Kok"),
    "japanese": (
        "Hiroshi Yuki Takeshi Aiko Kenji Haruka Satoshi Naomi Daisuke Emi Kazuo Mei Ryo "
        "Sakura Tetsuya Yumiko Shinji Keiko Masato Rina",
        "Tanaka Watanabe Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki Matsumoto "
        "Inoue Kimura Hayashi Shimizu Mori Ikeda Hashimoto Ishikawa Ogawa Fujita"),
    "korean": (
        "Min-jun Seo-yeon Ji-hoon Ha-eun Dong-hyun Soo-jin Jae-won Ye-jin Sung-min Eun-ji "
        "Hyun-woo Ji-woo Tae-yang Da-eun Young-ho",
        "Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin Seo Kwon Hwang"),
    "chinese": (
        "Wei Jun Hao Yan Zhiwei Jing Tao Xin Lei Fang Hui Qiang Ying Rui Yifan Xiaowen "
        "Jiahui Meiling",
        "Wang Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Gao Luo Zheng"),
    "indian": (
        "Arjun Priya Rahul Ananya Vikram Kavya Rohan Neha Sanjay Divya Aditya Meera Karthik "
        "Pooja Nikhil Shreya Varun Aisha Siddharth Lakshmi",
        "Sharma Patel Iyer Reddy Nair Gupta Mehta Rao Kapoor Desai Banerjee Joshi Menon "
        "Malhotra Chatterjee Pillai Agarwal Bhatt Kulkarni Saxena"),
    "safrica": (
        "Thabo Naledi Sipho Lerato Annelie Zanele Themba Nomvula Willem Karabo Riaan Ayanda",
        "Nkosi Dlamini van_der_Merwe Botha Mokoena Pretorius Ndlovu Khumalo du_Plessis "
        "Molefe Venter Mahlangu"),
}
REGIONS = {
    "United States": [("anglo", 75), ("spanish", 8), ("indian", 7), ("chinese", 5), ("korean", 5)],
    "Canada": [("anglo", 70), ("french", 30)],
    "United Kingdom": [("anglo", 85), ("indian", 15)],
    "Ireland": [("anglo", 100)],
    "Australia": [("anglo", 85), ("chinese", 15)],
    "South Africa": [("safrica", 80), ("anglo", 20)],
    "Germany": [("german", 100)],
    "Switzerland": [("german", 60), ("french", 30), ("italian", 10)],
    "France": [("french", 100)],
    "Spain": [("spanish", 100)], "Mexico": [("spanish", 100)], "Argentina": [("spanish", 100)],
    "Brazil": [("portuguese", 100)], "Italy": [("italian", 100)],
    "Sweden": [("nordic", 100)], "Norway": [("nordic", 100)], "Netherlands": [("dutch", 100)],
    "Japan": [("japanese", 100)], "South Korea": [("korean", 100)],
    "China": [("chinese", 100)], "India": [("indian", 100)],
}

# --------------------------------------------------------------------------------------
# Companies
# --------------------------------------------------------------------------------------
INDUSTRY_COUNTS = {
    "conglomerate": 18, "software": 18, "automotive": 11, "oil and gas": 10, "banking": 15,
    "insurance": 11, "pharmaceuticals": 12, "biotechnology": 10, "telecommunications": 11,
    "retail": 13, "e-commerce": 9, "aerospace": 9, "food and beverage": 14,
    "semiconductors": 10, "logistics": 12, "media": 10, "chemicals": 10, "steel": 8,
    "consumer electronics": 12, "video games": 9, "mining": 9, "renewable energy": 9,
}
INDUSTRY_SUFFIX = {
    "conglomerate": ["Holdings", "Group", "Industries", "Corporation"],
    "software": ["Software", "Systems", "Labs", "Technologies"],
    "automotive": ["Motors", "Automotive", "Motor Company"],
    "oil and gas": ["Petroleum", "Energy", "Oil"],
    "banking": ["Bank", "Financial", "Bancorp"],
    "insurance": ["Insurance", "Assurance", "Mutual"],
    "pharmaceuticals": ["Pharma", "Pharmaceuticals", "Therapeutics"],
    "biotechnology": ["Biosciences", "Bio", "Genomics"],
    "telecommunications": ["Telecom", "Communications", "Networks"],
    "retail": ["Stores", "Retail", "Markets"],
    "e-commerce": ["Online", "Marketplace", "Commerce"],
    "aerospace": ["Aerospace", "Aviation", "Aeronautics"],
    "food and beverage": ["Foods", "Beverages", "Brewing"],
    "semiconductors": ["Semiconductor", "Microdevices", "Silicon"],
    "logistics": ["Logistics", "Freight", "Shipping"],
    "media": ["Media", "Broadcasting", "Publishing"],
    "chemicals": ["Chemicals", "Chemical", "Materials"],
    "steel": ["Steel", "Metals", "Ironworks"],
    "consumer electronics": ["Electronics", "Devices", "Digital"],
    "video games": ["Games", "Interactive", "Studios"],
    "mining": ["Mining", "Resources", "Minerals"],
    "renewable energy": ["Renewables", "Solar", "Wind Power"],
}
INCEPTION_RANGE = {
    "conglomerate": (1850, 1990), "software": (1975, 2019), "automotive": (1890, 2015),
    "oil and gas": (1880, 2000), "banking": (1820, 2010), "insurance": (1840, 2005),
    "pharmaceuticals": (1870, 2005), "biotechnology": (1978, 2018),
    "telecommunications": (1880, 2005), "retail": (1860, 2010), "e-commerce": (1995, 2018),
    "aerospace": (1910, 2010), "food and beverage": (1850, 2010),
    "semiconductors": (1960, 2015), "logistics": (1870, 2012), "media": (1850, 2015),
    "chemicals": (1860, 2000), "steel": (1860, 1990), "consumer electronics": (1920, 2015),
    "video games": (1980, 2019), "mining": (1870, 2005), "renewable energy": (1990, 2019),
}
# log10 range of head count, revenue per employee (million USD) range
SIZE = {
    "conglomerate": (4.0, 5.6, 0.2, 0.6), "software": (2.0, 5.0, 0.2, 0.9),
    "automotive": (3.5, 5.5, 0.3, 0.8), "oil and gas": (3.0, 5.0, 0.8, 2.5),
    "banking": (3.0, 5.2, 0.3, 0.7), "insurance": (3.0, 4.8, 0.4, 0.9),
    "pharmaceuticals": (3.0, 5.0, 0.3, 0.8), "biotechnology": (2.0, 3.8, 0.2, 0.9),
    "telecommunications": (3.3, 5.0, 0.3, 0.7), "retail": (3.5, 5.6, 0.1, 0.3),
    "e-commerce": (2.5, 5.0, 0.3, 1.2), "aerospace": (3.0, 5.0, 0.2, 0.5),
    "food and beverage": (3.0, 5.0, 0.2, 0.5), "semiconductors": (3.0, 4.9, 0.3, 1.0),
    "logistics": (3.0, 5.2, 0.1, 0.3), "media": (2.5, 4.3, 0.2, 0.6),
    "chemicals": (3.0, 4.9, 0.3, 0.8), "steel": (3.0, 4.8, 0.3, 0.7),
    "consumer electronics": (3.0, 5.2, 0.2, 0.6), "video games": (2.0, 4.0, 0.2, 0.8),
    "mining": (3.0, 4.8, 0.4, 1.2), "renewable energy": (2.5, 4.3, 0.3, 0.9),
}
TECHY = {"software", "biotechnology", "semiconductors", "e-commerce", "video games",
         "consumer electronics"}
LEGAL_SUFFIX = {
    "United States": "Inc.", "United Kingdom": "plc", "Germany": "AG", "Switzerland": "AG",
    "France": "SA", "Netherlands": "N.V.", "Sweden": "AB", "Norway": "ASA", "Italy": "S.p.A.",
    "Spain": "S.A.", "Brazil": "S.A.", "India": "Limited", "Australia": "Limited",
    "South Africa": "Limited", "Canada": "Inc.", "Mexico": "S.A.B.", "Ireland": "plc",
}

STEM_PREFIX = ("Bright North Silver Blue Red Iron Stone Oak Clear Swift High Green Gold "
               "Black White Sun Cedar Maple Harbor River Summit Pine Crystal Eagle Granite "
               "Copper Amber Frost West East South Lake Storm Wind Elm Ash").split()
STEM_SUFFIX = ("water field gate bridge ridge stone wood vale point peak line bay brook ford "
               "haven crest mark light wave path view hill port spring dale leaf "
               "stream").split()
STEM_LATIN = (
    "Veltara Corvista Nexora Quantix Solvane Aurelis Kyren Zentro Altrix Orvana Pellion "
    "Tavira Drakon Meridia Calyx Vantor Elarion Synthra Obsidia Lumiro Ferrano Tessara "
    "Virelia Axion Bellora Cresta Dravix Estara Fyrion Galvia Heliant Ixora Jovana Kaltex "
    "Lorvan Novaris Pyrana Quorra Rendra Sarvo Talyra Ulmara Valtis Wyvern Xandor Yarden "
    "Zephra Arvana Cendra Delmar Fennix Gavron Halcyon Irvana Kestra Lyris Montara Norrix "
    "Ostara Parvus Quillon Rivora Stellan Torvan Vexa Wendrix Zorvan Aldara Brivia Exora "
    "Fiora Marvella Okano Tsubame Hanwa Daesan Jinlong Tianhe Sagar Vasant Kagiso").split()

# product name material
PRODUCT_WORDS = (
    "Nimbus Lattice Quartz Beacon Cobalt Aspen Zephyr Orbit Pulse Vector Onyx Helix Prism "
    "Ember Talon Vista Arcadia Titan Comet Ridgeback Mistral Sirocco Monsoon Tundra Sequoia "
    "Juniper Saffron Indigo Cascade Meridian Solstice Equinox Horizon Aurora Polaris Zenith "
    "Apex Atlas Orion Lyra Vega Rigel Altair Draco Phoenix Griffin Kestrel Osprey Merlin "
    "Harrier Condor Albatross Pelican Heron Marlin Barracuda Stingray Mako Puma Lynx Ocelot "
    "Cougar Bison Stallion Gazelle Antelope Caribou Sable Ermine Marten Otter Badger Viper "
    "Cobra Mamba Raptor Wasp Hornet Cicada Firefly Dragonfly Glacier Canyon Mesa Fjord "
    "Lagoon Reef Atoll Savanna Prairie Steppe Quasar Pulsar Nebula Photon Ion Argon Neon "
    "Xenon Boron Cinder Flint Basalt Obsidian Garnet Topaz Beryl Jasper Opal Coral Pearl "
    "Ivory Slate Velvet Satin Linen Tempo Cadence Rhythm Allegro Rondo Fable Saga "
    "Verse Riddle Cipher Rune Glyph Falcon Sparrow Robin Wren Finch Kite Tern Plover Ibis "
    "Crane Egret Lark Magpie Raven Rook Jay Swallow Swift Martin Petrel Gannet "
    "Alder Birch Hazel Willow Rowan Laurel Myrtle Thistle Clover Sorrel Fennel Sage "
    "Tarragon Anise Cumin Nutmeg Paprika Mango Papaya Guava Lychee Quince Damson Sloe "
    "Bramble Nettle Heather Gorse Bracken Moss Lichen Fern Reed Rush Sedge Tansy Yarrow "
    "Dune Cove Inlet Shoal Skerry Tarn Loch Brae Glen Moor Fell Tor Scree Cairn Butte "
    "Arroyo Sierra Pampas Tropic Monarch Regent Herald Envoy Sentinel Vanguard").split()
GAME_ADJ = ("Shattered Silent Crimson Hollow Broken Eternal Forgotten Neon Frozen Burning "
            "Distant Sunken Gilded Savage Lost").split()
GAME_NOUN = ("Crown Tides Frontier Legion Kingdom Skies Circuit Requiem Dominion Harvest "
             "Odyssey Throne Empire Covenant Expanse").split()
DRUG_A = "lor zen tri vax pel cor mir dal ner sot fen bex tal qui ral ven oza ustra eli".split()
DRUG_B = "a i o e u".split()
DRUG_C = "va ti ro xa me lu ne fi zo ca".split()
DRUG_D = ("mab vir tinib zole pril statin parin lukast oxetine cillin sartan gliptin "
          "cel").split()
CHEM_A = "Dura Poly Flexi Hydro Therm Ultra Resi Nano Sili Carbo Fluo Acry".split()
CHEM_B = "lon mar prene thane sil tex guard cote bond lite".split()

PRODUCT_CATS = {
    "automotive": [("car", "automobile model")],
    "software": [("software", "software product")],
    "pharmaceuticals": [("drug", "medication")],
    "biotechnology": [("drug", "medication")],
    "food and beverage": [("food", "food product"), ("drink", "beverage")],
    "semiconductors": [("chip", "microprocessor")],
    "consumer electronics": [("device", "electronic device")],
    "video games": [("game", "video game")],
    "aerospace": [("aircraft", "aircraft model")],
    "chemicals": [("chem", "chemical product")],
    "renewable energy": [("turbine", "wind turbine model"), ("solar", "solar panel model")],
    "oil and gas": [("fuel", "fuel")],
    "media": [("paper", "periodical"), ("tv", "television channel")],
}

CLASSES = ["business", "human", "city", "sovereign state", "university", "stock exchange",
           "currency", "economic sector", "automobile model", "software product",
           "medication", "food product", "beverage", "microprocessor", "electronic device",
           "video game", "aircraft model", "chemical product", "wind turbine model",
           "solar panel model", "fuel", "periodical", "television channel"]


# --------------------------------------------------------------------------------------
# KB container
# --------------------------------------------------------------------------------------
class KB:
    def __init__(self):
        self.ents = {}          # key -> {"label", "type"}
        self.order = []
        self.labels = {}        # label -> key
        self.triples = []
        self.seen = set()
        self.fwd = defaultdict(list)
        self.inv = defaultdict(list)

    def add_entity(self, key, label, etype):
        assert key not in self.ents, key
        assert label not in self.labels, label
        self.ents[key] = {"label": label, "type": etype}
        self.labels[label] = key
        self.order.append(key)

    def free(self, label):
        return label not in self.labels and label not in REL_LABEL.values()

    def add(self, s, rel, o):
        t = (s, rel, o)
        if t in self.seen:
            return
        self.seen.add(t)
        self.triples.append(t)
        self.fwd[(rel, s)].append(o)
        if not isinstance(o, tuple):
            self.inv[(rel, o)].append(s)

    def objs(self, s, rel):
        return self.fwd.get((rel, s), [])

    def subjs(self, o, rel):
        return self.inv.get((rel, o), [])

    def of_type(self, etype):
        return [k for k in self.order if self.ents[k]["type"] == etype]

    def label(self, node):
        if isinstance(node, tuple):
            return node[1]
        return self.ents[node]["label"]


def lit(lex, dtype):
    return ("lit", lex, dtype)


def wchoice(rng, items, weights):
    return rng.choices(items, weights=weights, k=1)[0]


def round_sig(n):
    if n < 1000:
        return max(10, int(round(n / 10.0)) * 10)
    digits = int(math.floor(math.log10(n))) + 1
    q = 10 ** (digits - 3)
    return int(round(n / q)) * q


def fmt_revenue(r):
    if r < 0.01:
        r = 0.01
    if r < 10:
        s = f"{r:.2f}"
    elif r < 100:
        s = f"{r:.1f}"
    else:
        s = f"{r:.0f}"
    return s


# --------------------------------------------------------------------------------------
# Build the KB
# --------------------------------------------------------------------------------------
def build_kb(rng):
    kb = KB()
    for c in CLASSES:
        kb.add_entity("class:" + c, c, "class")

    def inst(key, cls):
        kb.add(key, "instance_of", "class:" + cls)

    # currencies, countries, cities, exchanges
    country_cities = {}
    city_weight = {}
    city_country = {}
    exchanges_of = {}
    for cname, cur, cities, exs in COUNTRIES:
        ck = "country:" + cname
        kb.add_entity(ck, cname, "country")
        inst(ck, "sovereign state")
        curk = "currency:" + cur
        if curk not in kb.ents:
            kb.add_entity(curk, cur, "currency")
            inst(curk, "currency")
        kb.add(ck, "currency", curk)
        country_cities[cname] = []
        for city, w, cap in cities:
            yk = "city:" + city
            kb.add_entity(yk, city, "city")
            inst(yk, "city")
            kb.add(yk, "country", ck)
            if cap:
                kb.add(ck, "capital", yk)
            country_cities[cname].append(yk)
            city_weight[yk] = w
            city_country[yk] = ck
        exchanges_of[cname] = []
        for ex, excity in exs:
            ek = "exchange:" + ex
            kb.add_entity(ek, ex, "exchange")
            inst(ek, "stock exchange")
            kb.add(ek, "located_in", "city:" + excity)
            kb.add(ek, "country", ck)
            kb.add(ek, "inception", lit(str(EXCHANGE_INCEPTION[ex]), "gYear"))
            exchanges_of[cname].append(ek)
    country_names = [c[0] for c in COUNTRIES]
    country_weight = {c: sum(city_weight[y] for y in country_cities[c]) for c in country_names}

    def pick_city(cname):
        ys = country_cities[cname]
        return wchoice(rng, ys, [city_weight[y] for y in ys])

    def pick_country():
        return wchoice(rng, country_names, [country_weight[c] for c in country_names])

    # universities
    unis_of = defaultdict(list)
    for cname in country_names:
        for u in UNIVERSITIES.get(cname, []):
            uk = "uni:" + u
            kb.add_entity(uk, u, "university")
            inst(uk, "university")
            kb.add(uk, "located_in", pick_city(cname))
            kb.add(uk, "country", "country:" + cname)
            year = wchoice(rng, [rng.randint(1450, 1800), rng.randint(1800, 1900),
                                 rng.randint(1900, 1995)], [1, 3, 3])
            kb.add(uk, "inception", lit(str(year), "gYear"))
            unis_of[cname].append(uk)
    all_unis = [k for k in kb.order if kb.ents[k]["type"] == "university"]

    # industries
    for ind in INDUSTRY_COUNTS:
        kb.add_entity("industry:" + ind, ind, "industry")
        inst("industry:" + ind, "economic sector")

    # ---- companies: structure first, names after parents are known
    comps = []
    for ind, n in INDUSTRY_COUNTS.items():
        for _ in range(n):
            comps.append({"industry": ind})
    rng.shuffle(comps)
    for i, c in enumerate(comps):
        c["id"] = i
        c["key"] = f"company:{i}"
        cname = pick_country()
        c["country"] = cname
        c["city"] = pick_city(cname)
        lo, hi = INCEPTION_RANGE[c["industry"]]
        c["inception"] = rng.randint(lo, hi)
        a, b, r1, r2 = SIZE[c["industry"]]
        emp = round_sig(10 ** rng.uniform(a, b))
        c["employees"] = emp
        c["revenue"] = fmt_revenue(emp * rng.uniform(r1, r2) / 1000.0)
        c["parent"] = None

    congl = [c for c in comps if c["industry"] == "conglomerate"]
    others = [c for c in comps if c["industry"] != "conglomerate"]
    mids = sorted(others, key=lambda c: (-c["employees"], c["id"]))[:14]
    mid_ids = {c["id"] for c in mids}
    for m in mids:
        if rng.random() < 0.35:
            m["parent"] = rng.choice(congl)["id"]
    leaf_pool = [c for c in others if c["id"] not in mid_ids]
    rng.shuffle(leaf_pool)
    children = leaf_pool[:80]
    parents = congl + mids
    # one child per parent first, then the rest
    for i, ch in enumerate(children):
        if i < len(parents):
            p = parents[i]
        else:
            same = [p for p in parents if p["country"] == ch["country"]]
            if same and rng.random() < 0.6:
                p = rng.choice(same)
            else:
                p = wchoice(rng, parents, [2 if p in congl else 1 for p in parents])
        ch["parent"] = p["id"]
        if rng.random() < 0.6:   # most subsidiaries sit in their parent's country
            ch["country"] = p["country"]
            ch["city"] = pick_city(p["country"])

    # names
    compounds = [p + s for p in STEM_PREFIX for s in STEM_SUFFIX
                 if p.lower()[-3:] != s[:3] and p.lower() != s]
    rng.shuffle(compounds)
    latin = list(STEM_LATIN)
    rng.shuffle(latin)
    stems = []
    while latin or compounds:
        if latin and (rng.random() < 0.4 or not compounds):
            stems.append(latin.pop())
        else:
            stems.append(compounds.pop())
    stems.reverse()
    by_id = {c["id"]: c for c in comps}

    def name_company(c, stem):
        ind = c["industry"]
        suf = rng.choice(INDUSTRY_SUFFIX[ind])
        if ind == "banking" and c["country"] in ("Spain", "Mexico", "Argentina", "Brazil"):
            name = f"Banco {stem}"
        elif ind == "banking" and c["country"] == "Italy":
            name = f"Banca {stem}"
        else:
            name = f"{stem} {suf}"
        if rng.random() < 0.12 and c["country"] in LEGAL_SUFFIX:
            name = f"{name} {LEGAL_SUFFIX[c['country']]}"
        return name

    def depth(c):
        return 0 if c["parent"] is None else 1 + depth(by_id[c["parent"]])

    order = sorted(comps, key=lambda c: (depth(c), c["id"]))
    for c in order:
        name = None
        if c["parent"] is not None and rng.random() < 0.22:
            p = by_id[c["parent"]]
            cand = name_company(c, p["stem"])
            if kb.free(cand):
                name, c["stem"] = cand, p["stem"]
        while name is None:
            stem = stems.pop()
            cand = name_company(c, stem)
            if kb.free(cand):
                name, c["stem"] = cand, stem
        c["label"] = name
        kb.add_entity(c["key"], name, "company")

    for c in comps:
        k = c["key"]
        inst(k, "business")
        kb.add(k, "industry", "industry:" + c["industry"])
        kb.add(k, "headquarters_location", c["city"])
        home = "country:" + c["country"]
        if rng.random() < 0.04:   # registered elsewhere than its headquarters
            home = "country:" + rng.choice([x for x in country_names if x != c["country"]])
        kb.add(k, "country", home)
        kb.add(k, "inception", lit(str(c["inception"]), "gYear"))
        kb.add(k, "number_of_employees", lit(str(c["employees"]), "integer"))
        kb.add(k, "revenue", lit(c["revenue"], "decimal"))
    for c in comps:
        if c["parent"] is not None:
            p = by_id[c["parent"]]
            kb.add(c["key"], "parent_organization", p["key"])
            kb.add(p["key"], "subsidiary", c["key"])

    # listings
    for c in comps:
        p_list = 0.25 if (c["parent"] is not None and c["id"] not in mid_ids) else 0.8
        if rng.random() >= p_list:
            continue
        cname = c["country"]
        if cname == "United States":
            nas = 0.7 if c["industry"] in TECHY else 0.25
            ex = "exchange:Nasdaq" if rng.random() < nas else "exchange:New York Stock Exchange"
            kb.add(c["key"], "listed_on", ex)
        else:
            kb.add(c["key"], "listed_on", exchanges_of[cname][0])
            if rng.random() < 0.15:
                ex = "exchange:Nasdaq" if c["industry"] in TECHY else \
                    "exchange:New York Stock Exchange"
                kb.add(c["key"], "listed_on", ex)

    # competitors (same industry, not parent/child)
    by_ind = defaultdict(list)
    for c in comps:
        by_ind[c["industry"]].append(c)
    for ind in INDUSTRY_COUNTS:
        group = by_ind[ind]
        for c in group:
            k = rng.choice([1, 1, 2])
            cands = [d for d in group if d["id"] != c["id"]
                     and d["parent"] != c["id"] and c["parent"] != d["id"]]
            for d in rng.sample(cands, min(k, len(cands))):
                kb.add(c["key"], "competitor", d["key"])
                kb.add(d["key"], "competitor", c["key"])

    # products
    words = list(PRODUCT_WORDS)
    rng.shuffle(words)

    def word():
        return words.pop() if words else rng.choice(PRODUCT_WORDS)

    def make_product(kind):
        if kind == "car":
            return word() + rng.choice([" GT", " EV", " Sport", " 300", " Hybrid"])
        if kind == "software":
            return word() + rng.choice([" Cloud", " CRM", " Studio", " Analytics", "DB",
                                        " Suite", "OS"])
        if kind == "drug":
            a, b, c, d = (rng.choice(DRUG_A), rng.choice(DRUG_B), rng.choice(DRUG_C),
                          rng.choice(DRUG_D))
            if a[-1] in "aeiou":
                b = ""
            if d[0] in "aeiou":
                c = c[:-1]
            s = a + b + c + d
            return s[0].upper() + s[1:]
        if kind == "food":
            return word() + rng.choice([" Crisps", " Oat Bars", " Instant Noodles",
                                        " Dark Chocolate", " Breakfast Cereal"])
        if kind == "drink":
            return word() + rng.choice([" Cola", " Lager", " Sparkling Water", " Cold Brew",
                                        " Energy Drink"])
        if kind == "chip":
            return f"{word()} {rng.choice('KXRMZ')}{rng.choice([5, 7, 9, 200, 480, 900])}"
        if kind == "device":
            return word() + rng.choice([" Phone", " Tab", " Buds", " Watch", "Book Pro",
                                        " Smart Speaker"])
        if kind == "game":
            if rng.random() < 0.6:
                return f"{rng.choice(GAME_ADJ)} {rng.choice(GAME_NOUN)}"
            return word() + rng.choice([" Legends", " Tactics", " Racing", " Online"])
        if kind == "aircraft":
            return f"{word()} {rng.choice(['', 'RJ', 'LX'])}{rng.choice([90, 120, 220, 350])}"
        if kind == "chem":
            return rng.choice(CHEM_A) + rng.choice(CHEM_B)
        if kind == "turbine":
            return f"{word()} V{rng.choice([90, 112, 136, 150, 164])}"
        if kind == "solar":
            return f"{word()} {rng.choice([360, 420, 450, 540])}W"
        if kind == "fuel":
            return word() + rng.choice([" Premium Diesel", " Motor Oil", " Jet Fuel"])
        if kind == "paper":
            return rng.choice(["The Daily ", "The ", ""]) + word() + \
                rng.choice([" Weekly", " Gazette", " Review", " Ledger"])
        if kind == "tv":
            return word() + rng.choice([" TV", " News Channel", " Sports"])
        raise ValueError(kind)

    pidx = 0
    goods = [c for c in comps if c["industry"] in PRODUCT_CATS or
             (c["industry"] == "conglomerate" and rng.random() < 0.5)]
    for c in goods:
        cats = PRODUCT_CATS.get(c["industry"])
        if cats is None:
            cats = PRODUCT_CATS[rng.choice(sorted(PRODUCT_CATS))]
        n = wchoice(rng, [1, 2, 3], [55, 35, 10])
        for _ in range(n):
            kind, cls = rng.choice(cats)
            for _try in range(50):
                lab = make_product(kind)
                if kb.free(lab):
                    break
            else:
                continue
            pk = f"product:{pidx}"
            pidx += 1
            kb.add_entity(pk, lab, "product")
            inst(pk, cls)
            kb.add(c["key"], "product_or_material_produced", pk)
            kb.add(pk, "manufacturer", c["key"])
            if rng.random() < 0.04:   # co-produced with a firm of the same industry
                partner = rng.choice([d for d in by_ind[c["industry"]] if d["id"] != c["id"]])
                kb.add(partner["key"], "product_or_material_produced", pk)
                kb.add(pk, "manufacturer", partner["key"])

    # ---- people
    used_names = set()
    people = []
    n_people = 320

    def person_name(region):
        firsts = NAMES[region][0].split()
        lasts = [x.replace("_", " ") for x in NAMES[region][1].split()]
        for _ in range(200):
            nm = f"{rng.choice(firsts)} {rng.choice(lasts)}"
            if nm not in used_names and kb.free(nm):
                return nm
        raise RuntimeError("names exhausted: " + region)

    for i in range(n_people):
        bcountry = pick_country()
        bcity = pick_city(bcountry)
        regs = REGIONS[bcountry]
        if rng.random() < 0.12:
            region = rng.choice(sorted(NAMES))
        else:
            region = wchoice(rng, [r for r, _ in regs], [w for _, w in regs])
        nm = person_name(region)
        used_names.add(nm)
        pk = f"person:{i}"
        kb.add_entity(pk, nm, "person")
        inst(pk, "human")
        kb.add(pk, "place_of_birth", bcity)
        cit = bcountry if rng.random() < 0.88 else rng.choice(country_names)
        kb.add(pk, "country_of_citizenship", "country:" + cit)
        n_edu = wchoice(rng, [1, 2], [65, 35])
        chosen = []
        for _ in range(n_edu):
            r = rng.random()
            if r < 0.6 and unis_of[bcountry]:
                u = rng.choice(unis_of[bcountry])
            elif r < 0.85:
                u = rng.choice(unis_of["United States"] + unis_of["United Kingdom"])
            else:
                u = rng.choice(all_unis)
            if u not in chosen:
                chosen.append(u)
        for u in chosen:
            kb.add(pk, "educated_at", u)
        people.append({"key": pk, "country": cit, "ceo_of": None, "founded": [],
                       "boards": 0})

    def pick_person(cname, ok):
        pool = [p for p in people if ok(p)]
        same = [p for p in pool if p["country"] == cname]
        if same and rng.random() < 0.75:
            return rng.choice(same)
        return rng.choice(pool)

    # CEOs
    for c in comps:
        p = pick_person(c["country"], lambda p: p["ceo_of"] is None)
        p["ceo_of"] = c["id"]
        c["ceo"] = p
        kb.add(c["key"], "chief_executive_officer", p["key"])
    # founders
    for c in comps:
        nf = wchoice(rng, [1, 2, 3], [50, 35, 15])
        fs = []
        if c["inception"] >= 1975 and rng.random() < 0.4:
            fs.append(c["ceo"])
        while len(fs) < nf:
            old = c["inception"] < 1975

            def ok(p, fs=fs, old=old):
                if len(p["founded"]) >= 3 or p in fs:
                    return False
                return not old or p["ceo_of"] is None or rng.random() < 0.3

            fs.append(pick_person(c["country"], ok))
        for p in fs:
            p["founded"].append(c["id"])
            kb.add(c["key"], "founded_by", p["key"])
        c["founders"] = fs
    # board members and chairperson
    for c in comps:
        nb = wchoice(rng, [2, 3, 4], [40, 40, 20])
        board = []
        if rng.random() < 0.5:
            board.append(c["ceo"])
        if rng.random() < 0.3:
            f = rng.choice(c["founders"])
            if f not in board:
                board.append(f)
        while len(board) < nb:
            def free_seat(p, board=board):
                return p["boards"] < 4 and p not in board

            p = pick_person(c["country"], free_seat)
            board.append(p)
        for p in board:
            p["boards"] += 1
            kb.add(c["key"], "board_member", p["key"])
        non_ceo = [p for p in board if p is not c["ceo"]]
        chair = rng.choice(non_ceo) if non_ceo else board[0]
        kb.add(c["key"], "chairperson", chair["key"])
    # employer
    for p in people:
        if p["ceo_of"] is not None:
            emp = by_id[p["ceo_of"]]
        elif p["founded"] and rng.random() < 0.6:
            emp = by_id[rng.choice(p["founded"])]
        else:
            same = [c for c in comps if c["country"] == p["country"]]
            emp = rng.choice(same or comps)
        kb.add(p["key"], "employer", emp["key"])
    return kb


# --------------------------------------------------------------------------------------
# Question specs
# --------------------------------------------------------------------------------------
# Each spec: kind, path (qtype), topic type, tuning templates, held-out templates.
# {X} is the topic; {A}/{B} the two anchors of an intersection (A feeds the first branch).
SPECS = [
    # ---------------------------------------------------------------- synonym
    dict(kind="synonym", path="founded_by", topic="company", tune=[
        "Who started {X}?",
        "who set up {X}",
        "Who launched {X} originally?",
        "Who created {X}?",
        "Who got {X} off the ground?",
        "Who established {X}",
        "Whose brainchild was {X}?",
    ], held=[
        "Name the people who brought {X} into existence.",
        "who dreamt up {X} in the first place",
        "Which entrepreneurs are behind the creation of {X}?",
        "Who built {X} from the ground up?",
        "Tell me who originally set {X} in motion.",
    ]),
    dict(kind="synonym", path="chief_executive_officer", topic="company", tune=[
        "Who runs {X}?",
        "who is the boss of {X}",
        "Who heads {X} these days?",
        "Who's in charge at {X}?",
        "Who leads {X}?",
        "who's at the helm of {X}?",
        "Who is the top manager at {X}",
    ], held=[
        "Who calls the shots at {X}?",
        "Name the person currently steering {X}.",
        "Who holds the top job at {X}?",
        "which person manages {X} day to day",
        "Who's the big cheese at {X}?",
    ]),
    dict(kind="synonym", path="headquarters_location", topic="company", tune=[
        "Where is {X} based?",
        "In what city does {X} have its main office?",
        "Which city is home to {X}?",
        "where's {X}'s home base",
        "Where does {X} call home?",
        "What city is {X} run out of?",
        "Where is {X}'s head office?",
    ], held=[
        "Which city hosts {X}'s corporate seat?",
        "{X} operates out of which city?",
        "Where would I find the central office of {X}?",
        "what town is {X} anchored in",
        "Where has {X} put down its base of operations?",
    ]),
    dict(kind="synonym", path="product_or_material_produced", topic="company", tune=[
        "What does {X} make?",
        "What goods does {X} sell?",
        "Which items come out of {X}'s factories?",
        "what does {X} manufacture",
        "Name the things {X} makes.",
        "What's in {X}'s lineup?",
    ], held=[
        "Which brands does {X} put out?",
        "what is {X} known for turning out",
        "List the offerings that {X} brings to market.",
        "What merchandise comes from {X}?",
        "What has {X} got on the market right now?",
    ]),
    dict(kind="synonym", path="parent_organization", topic="company", tune=[
        "Who owns {X}?",
        "Which company controls {X}?",
        "{X} belongs to which group?",
        "What's the holding company behind {X}?",
        "who has {X} under its umbrella",
        "Which firm is {X} a unit of?",
    ], held=[
        "Which corporate family does {X} sit within?",
        "Who is the owner of {X}?",
        "{X} is a division of which company?",
        "whose hands is {X} in, ownership-wise",
        "Who holds the controlling stake in {X}?",
    ]),
    dict(kind="synonym", path="industry", topic="company", tune=[
        "What sector is {X} in?",
        "What line of business is {X} in?",
        "what field does {X} operate in",
        "What kind of business is {X}?",
        "What area of the economy is {X} active in?",
        "{X} works in which sector?",
    ], held=[
        "In which branch of commerce does {X} operate?",
        "what market segment does {X} belong to",
        "Classify {X} by its type of business.",
        "Which trade is {X} engaged in?",
        "What business category does {X} fall under?",
    ]),
    dict(kind="synonym", path="number_of_employees", topic="company", tune=[
        "How many people work at {X}?",
        "How big is {X}'s workforce?",
        "What's the headcount at {X}?",
        "how large is the staff at {X}",
        "How many workers are on {X}'s payroll?",
        "How many staff does {X} have?",
    ], held=[
        "What size is {X}'s labour force?",
        "how many jobs does {X} provide",
        "How many personnel does {X} have?",
        "How many people draw a paycheck from {X}?",
        "Tell me {X}'s personnel count.",
    ]),
    dict(kind="synonym", path="revenue", topic="company", tune=[
        "What is {X}'s turnover?",
        "How much money does {X} bring in a year?",
        "What are {X}'s annual sales?",
        "what's the top line at {X}",
        "How much does {X} take in each year?",
        "What does {X} gross annually?",
    ], held=[
        "How much cash comes into {X} over a year?",
        "what are {X}'s yearly takings",
        "What kind of money does {X} make in sales?",
        "How much business does {X} do per year?",
        "What were {X}'s gross receipts for the year?",
    ]),
    dict(kind="synonym", path="manufacturer", topic="product", tune=[
        "Who makes {X}?",
        "Which firm produces {X}?",
        "Who's behind {X}?",
        "What company puts out {X}?",
        "who builds {X}",
        "Who is the maker of {X}?",
    ], held=[
        "{X} comes from which company?",
        "Which business turns out {X}?",
        "whose product is {X}",
        "Name the company that brings {X} to market.",
        "Which outfit is responsible for {X}?",
    ]),
    dict(kind="synonym", path="educated_at", topic="person", tune=[
        "Where did {X} study?",
        "Which school did {X} go to?",
        "What's {X}'s alma mater?",
        "Which university did {X} attend?",
        "where did {X} get a degree",
        "{X} graduated from which university?",
    ], held=[
        "Where did {X} do their studies?",
        "{X} is a graduate of which school?",
        "In which university did {X} earn a diploma?",
        "Where did {X} go to college",
        "Name the universities {X} attended.",
    ]),
    dict(kind="synonym", path="employer", topic="person", tune=[
        "Who does {X} work for?",
        "Where does {X} have a job?",
        "Which company pays {X}'s salary?",
        "what firm is {X} with",
        "Which company does {X} work at?",
        "Where does {X} work?",
    ], held=[
        "{X} is on the payroll of which company?",
        "Which business hired {X}?",
        "what company has {X} on staff",
        "Where is {X} working these days?",
        "Name the company {X} draws a paycheck from.",
    ]),
    # ---------------------------------------------------------------- possessive
    dict(kind="possessive", path="founded_by>educated_at", topic="company", tune=[
        "{X}'s founder's alma mater",
        "What is {X}'s founder's alma mater?",
        "Where did {X}'s founders go to university?",
        "Which university did {X}'s founder attend?",
        "{X}'s founders' universities?",
        "what school did {X}'s founder study at",
    ], held=[
        "Name {X}'s co-founders' universities.",
        "Which college did {X}'s creator graduate from?",
        "what was the university of {X}'s founding team",
        "{X}'s founder studied where?",
        "Tell me the educational institutions of {X}'s founders.",
    ]),
    dict(kind="possessive", path="parent_organization>headquarters_location>country",
         topic="company", tune=[
             "the country of {X}'s parent company's headquarters",
             "What country is {X}'s parent company headquartered in?",
             "{X}'s parent company's home country?",
             "Which country is {X}'s owner's head office in?",
             "What's the country of {X}'s parent's headquarters?",
             "{X}'s parent organization's headquarters country",
         ], held=[
             "In which nation does {X}'s owning company have its HQ?",
             "{X}'s parent firm: which country is its HQ in?",
             "What nation hosts the head office of {X}'s parent?",
             "{X}'s parent group keeps its HQ in which country?",
             "tell me the country of the HQ of {X}'s holding company",
         ]),
    dict(kind="possessive", path="chief_executive_officer>place_of_birth", topic="company",
         tune=[
             "{X}'s CEO's birthplace",
             "Where was {X}'s CEO born?",
             "What is {X}'s chief executive's place of birth?",
             "{X}'s boss's city of birth?",
             "in which city was {X}'s CEO born",
             "Which city is {X}'s chief executive officer from originally?",
         ], held=[
             "{X}'s top executive was born in which city?",
             "What city did {X}'s chief exec come into the world in?",
             "Birth city of {X}'s CEO?",
             "where does {X}'s head honcho come from, birth-wise",
             "Name the city where {X}'s current chief executive was born.",
         ]),
    dict(kind="possessive", path="parent_organization>chief_executive_officer",
         topic="company", tune=[
             "{X}'s parent company's CEO",
             "Who is the CEO of {X}'s parent company?",
             "Who runs {X}'s parent organization?",
             "Who heads {X}'s owner?",
             "{X}'s parent's chief executive?",
             "who is the chief executive officer of {X}'s parent",
         ], held=[
             "{X}'s owner is led by whom?",
             "Name the boss of {X}'s holding company.",
             "Who's the top exec at {X}'s parent firm?",
             "{X}'s parent group: who is its chief executive?",
             "the chief executive of {X}'s parent organization",
         ]),
    dict(kind="possessive", path="founded_by>place_of_birth>country", topic="company", tune=[
        "{X}'s founder's country of birth",
        "Which country was {X}'s founder born in?",
        "What is the birth country of {X}'s founders?",
        "{X}'s founders' native countries?",
        "In what country were {X}'s founders born?",
        "the country where {X}'s founder was born",
    ], held=[
        "{X}'s co-founders were born in which nations?",
        "Which nation is {X}'s creator originally from, by birth?",
        "what countries do {X}'s founders come from (birthplace)",
        "Country of birth of {X}'s founder?",
        "Tell me the native land of {X}'s founding figures.",
    ]),
    dict(kind="possessive", path="parent_organization>founded_by>educated_at",
         topic="company", tune=[
             "{X}'s parent company's founder's alma mater",
             "Where did {X}'s parent company's founders study?",
             "Which university did {X}'s owner's founder attend?",
             "{X}'s parent organization's founders' universities?",
             "what school did {X}'s parent's founder go to",
             "the alma mater of {X}'s parent company's founder",
         ], held=[
             "Name the universities of the founders of {X}'s holding company.",
             "{X}'s owning group: where were its founders educated?",
             "Which college turned out the founder of {X}'s parent firm?",
             "where did the people who set up {X}'s parent get their degrees",
             "Tell me the alma maters of {X}'s parent group's founders.",
         ]),
    # ---------------------------------------------------------------- relative
    dict(kind="relative", path="manufacturer>headquarters_location", topic="product", tune=[
        "the city where the company that makes {X} is headquartered",
        "In which city is the company that manufactures {X} based?",
        "Where is the firm that produces {X} headquartered?",
        "What city is the maker of {X} headquartered in?",
        "Which city hosts the headquarters of the company that builds {X}?",
        "where is the company behind {X} based",
    ], held=[
        "Name the city in which the business that turns out {X} has its head office.",
        "The company responsible for {X}: which city is it headquartered in?",
        "What's the HQ city of the firm manufacturing {X}?",
        "{X} is made by a company headquartered where?",
        "Which city is home to the manufacturer of {X}?",
    ]),
    dict(kind="relative", path="chief_executive_officer>educated_at", topic="company", tune=[
        "the university that the CEO of {X} went to",
        "Which university did the person who runs {X} attend?",
        "Where did the chief executive of {X} study?",
        "What school did the person leading {X} graduate from?",
        "the alma mater of the CEO of {X}",
        "which college educated the chief executive officer of {X}",
    ], held=[
        "Name the institution where the current boss of {X} got their degree.",
        "The person at the helm of {X} was educated at which university?",
        "Which universities count the chief executive of {X} among their alumni?",
        "Where was the executive in charge of {X} schooled?",
        "university attended by whoever runs {X}",
    ]),
    dict(kind="relative", path="manufacturer>founded_by", topic="product", tune=[
        "Who founded the company that makes {X}?",
        "the person who founded the company behind {X}",
        "Who started the firm that manufactures {X}?",
        "Who are the founders of the company that produces {X}?",
        "who set up the maker of {X}",
        "Which people founded the business that sells {X}?",
    ], held=[
        "Name the founders of the outfit that turns out {X}.",
        "The company making {X} was founded by whom?",
        "Who created the enterprise responsible for {X}?",
        "who is credited with founding the company that brings out {X}",
        "Which entrepreneurs launched the manufacturer of {X}?",
    ]),
    dict(kind="relative", path="employer>headquarters_location", topic="person", tune=[
        "the city where the company that {X} works for is based",
        "In which city is the company {X} works for headquartered?",
        "Where is the firm that employs {X} headquartered?",
        "What city is the employer of {X} based in?",
        "where's the company {X} works at headquartered",
        "Which city hosts the headquarters of the company that employs {X}?",
    ], held=[
        "The company paying {X}'s salary is based in which city?",
        "Name the headquarters city of the organisation {X} is employed by.",
        "{X} works for a company headquartered where?",
        "Where does the business that has {X} on its payroll have its head office?",
        "which city is home to the firm where {X} has a job",
    ]),
    dict(kind="relative", path="manufacturer>headquarters_location>country", topic="product",
         tune=[
             "the country in which the company that makes {X} has its headquarters",
             "Which country is the company that manufactures {X} headquartered in?",
             "In what country is the maker of {X} based?",
             "What country hosts the head office of the firm that produces {X}?",
             "the nation where the company behind {X} is headquartered",
             "which country is the headquarters of the company making {X} in",
         ], held=[
             "{X} is made by a company whose HQ sits in which country?",
             "Name the country where the producer of {X} has its head office.",
             "The firm responsible for {X}: which country is its headquarters in?",
             "what nation is the manufacturer of {X} headquartered in",
             "Where, as a country, is the business that turns out {X} headquartered?",
         ]),
    dict(kind="relative", path="manufacturer>chief_executive_officer>educated_at",
         topic="product", tune=[
             "the university attended by the CEO of the company that makes {X}",
             "Where did the person who runs the company behind {X} study?",
             "Which university did the chief executive of the firm that produces {X} go to?",
             "What school educated the CEO of the company that manufactures {X}?",
             "the alma mater of the boss of the company that makes {X}",
             "which university did the head of the company that builds {X} attend",
         ], held=[
             "Name the institution where the chief executive of {X}'s producer got a degree.",
             "The company turning out {X} is run by someone educated where?",
             "Which college did the person leading the maker of {X} graduate from?",
             "where was the top executive of the business responsible for {X} schooled",
             "Tell me the university of whoever heads the firm manufacturing {X}.",
         ]),
    # ---------------------------------------------------------------- wh-type
    dict(kind="wh-type", path="headquarters_location", topic="company", tune=[
        "Where is {X} headquartered?",
        "Which city is {X} headquartered in?",
        "where are {X}'s headquarters",
        "In which city are the headquarters of {X}?",
        "Where does {X} have its headquarters?",
        "What city is {X}'s HQ in?",
    ], held=[
        "Where's the head office of {X}?",
        "Name the city that serves as {X}'s headquarters.",
        "In what city would you find {X}'s headquarters?",
        "where is {X}'s HQ",
        "Which city has the headquarters of {X}?",
    ]),
    dict(kind="wh-type", path="headquarters_location>country", topic="company", tune=[
        "Which country is {X} headquartered in?",
        "In which country are {X}'s headquarters?",
        "What country is {X}'s HQ in?",
        "which country has {X}'s headquarters",
        "What country does {X} have its headquarters in?",
        "Where, country-wise, is {X} headquartered?",
    ], held=[
        "{X}'s headquarters are in which nation?",
        "Which nation hosts {X}'s head office?",
        "Name the country where {X} keeps its HQ.",
        "In what nation can {X}'s headquarters be found?",
        "what country is home to {X}'s main headquarters",
    ]),
    dict(kind="wh-type", path="inception", topic="company", tune=[
        "When was {X} founded?",
        "What year was {X} founded?",
        "In what year was {X} established?",
        "When did {X} get started?",
        "what year did {X} come into being",
        "When was {X} set up?",
    ], held=[
        "Since when has {X} existed?",
        "{X} dates back to which year?",
        "Which year saw the founding of {X}?",
        "In which year was {X} created?",
        "When did {X} first open for business?",
    ]),
    dict(kind="wh-type", path="number_of_employees", topic="company", tune=[
        "How many employees does {X} have?",
        "How many people does {X} employ?",
        "how many employees work for {X}",
        "How many staff are employed at {X}?",
        "How many employees are there at {X}?",
        "How many workers does {X} employ?",
    ], held=[
        "{X} employs how many people?",
        "How many people are employed by {X}?",
        "what is the employee count at {X}",
        "How many employees has {X} got on its books?",
        "How many people are on the {X} payroll?",
    ]),
    dict(kind="wh-type", path="place_of_birth", topic="person", tune=[
        "Where was {X} born?",
        "In which city was {X} born?",
        "what city was {X} born in",
        "Which city is {X}'s birthplace?",
        "Where did {X} come into the world?",
        "What's {X}'s city of birth?",
    ], held=[
        "{X} was born where?",
        "Name the city {X} was born in.",
        "In what town did {X} start life?",
        "which city saw the birth of {X}",
        "Where is the birthplace of {X}?",
    ]),
    dict(kind="wh-type", path="place_of_birth>country", topic="person", tune=[
        "In which country was {X} born?",
        "What country was {X} born in?",
        "Which country is {X}'s birthplace in?",
        "where was {X} born, which country",
        "What is {X}'s country of birth?",
        "In what country did {X} come into the world?",
    ], held=[
        "{X} was born in what nation?",
        "Name the country of {X}'s birth.",
        "Which nation is {X} a native of by birth?",
        "The city where {X} was born lies in which country?",
        "Which nation did {X} first see the light of day in?",
    ]),
    dict(kind="wh-type", path="chief_executive_officer>educated_at>located_in",
         topic="company", tune=[
             "In which city did {X}'s CEO go to university?",
             "Where did the CEO of {X} study? Give the city.",
             "Which city is the university that {X}'s chief executive attended in?",
             "what city did {X}'s chief executive officer go to college in",
             "In what city is the alma mater of {X}'s CEO?",
             "Where is the university of {X}'s CEO located?",
         ], held=[
             "{X}'s boss went to university in which city?",
             "Name the city where the chief executive of {X} was a student.",
             "What town hosts the university that educated {X}'s CEO?",
             "which city did the head of {X} study in",
             "The university {X}'s chief exec attended is in what city?",
         ]),
    # ---------------------------------------------------------------- topic-answer
    dict(kind="topic-answer", path="subsidiary>parent_organization", topic="company", tune=[
        "What is the parent organization of {X}'s subsidiaries?",
        "Who owns {X}'s subsidiaries?",
        "Which company is the parent of the companies that {X} owns?",
        "who is the parent company of {X}'s subsidiary",
        "What's the parent organization of the firms {X} controls?",
        "Who controls the subsidiaries of {X}?",
    ], held=[
        "The businesses owned by {X}: who is their parent?",
        "Name the owner of {X}'s daughter companies.",
        "which group holds the units that {X} owns",
        "{X}'s subsidiaries belong to which parent company?",
        "Who sits above {X}'s subsidiaries as their parent company?",
    ]),
    dict(kind="topic-answer", path="manufacturer>product_or_material_produced",
         topic="product", tune=[
             "What products does the maker of {X} make?",
             "What does the company that makes {X} produce?",
             "List the products of {X}'s manufacturer.",
             "Which products come from the company that manufactures {X}?",
             "What is the full product line of the firm behind {X}?",
             "Name all products made by {X}'s manufacturer",
         ], held=[
             "Give me the entire catalogue of the company responsible for {X}.",
             "{X}'s producer makes which products?",
             "What goods does the manufacturer of {X} have on the market?",
             "which items does the firm that turns out {X} sell",
             "Show everything produced by the company that makes {X}.",
         ]),
    dict(kind="topic-answer", path="chief_executive_officer>employer", topic="company", tune=[
        "Who employs {X}'s CEO?",
        "Which company does the CEO of {X} work for?",
        "What is the employer of {X}'s chief executive officer?",
        "Where does {X}'s chief executive work?",
        "who is the employer of the person who runs {X}",
        "Which firm pays the salary of {X}'s CEO?",
    ], held=[
        "{X}'s boss is employed by which company?",
        "Name the organisation that employs the chief executive of {X}.",
        "The person at the top of {X} works at which company?",
        "which company is {X}'s CEO on the payroll of",
        "For which company does the head of {X} work?",
    ]),
    dict(kind="topic-answer", path="founded_by>^founded_by", topic="company", tune=[
        "Which companies were founded by {X}'s founders?",
        "What companies did the founders of {X} start?",
        "List the companies founded by the people who founded {X}.",
        "which firms were set up by {X}'s founders",
        "What businesses have {X}'s founders founded?",
        "Which companies did {X}'s founder establish?",
    ], held=[
        "Name every company that {X}'s co-founders have started.",
        "The people who created {X}: which companies did they found?",
        "What ventures can {X}'s founding team claim?",
        "{X}'s founders launched which companies?",
        "show all firms started by whoever founded {X}",
    ]),
    # ---------------------------------------------------------------- other
    dict(kind="other", path="industry>^industry", topic="company", tune=[
        "Which other companies are in the same industry as {X}?",
        "What other firms operate in {X}'s industry?",
        "Which companies work in the same sector as {X}?",
        "Name other companies in {X}'s industry.",
        "who else is in the same line of business as {X}",
        "Which companies besides {X} are in its industry?",
    ], held=[
        "Apart from {X}, which businesses belong to that industry?",
        "List {X}'s industry peers.",
        "What companies share an industry with {X}?",
        "Other than {X}, who operates in the same field?",
        "which firms are in {X}'s sector, excluding {X} itself",
    ]),
    dict(kind="other", path="headquarters_location>^headquarters_location", topic="company",
         tune=[
             "Which firms share a headquarters city with {X}?",
             "What other companies are headquartered in the same city as {X}?",
             "Which companies are based in the same city as {X}?",
             "Name other companies with headquarters in {X}'s city.",
             "who else has their HQ in the same city as {X}",
             "Which other businesses are based where {X} is?",
         ], held=[
             "Besides {X}, which companies call the same city home?",
             "List the companies that are {X}'s neighbours in its headquarters city.",
             "Other than {X}, what firms have their head office in {X}'s home city?",
             "which companies have HQs in the same town as {X} does",
             "What other corporations sit in {X}'s headquarters city?",
         ]),
    dict(kind="other", path="parent_organization>subsidiary", topic="company", tune=[
        "Which other companies have the same parent company as {X}?",
        "What are {X}'s sister companies?",
        "Which companies share a parent organization with {X}?",
        "Name the other subsidiaries of {X}'s parent.",
        "what other firms does {X}'s owner control",
        "Which companies are owned by the same group as {X}?",
    ], held=[
        "List {X}'s sibling companies within its group.",
        "Apart from {X}, what else does its parent company own?",
        "Which firms sit alongside {X} under the same owner?",
        "who are the fellow subsidiaries of {X}",
        "What other businesses belong to the group that owns {X}?",
    ]),
    dict(kind="other", path="competitor", topic="company", tune=[
        "Who are {X}'s competitors?",
        "Which companies compete with {X}?",
        "Who are {X}'s main rivals?",
        "which firms does {X} compete against",
        "Name the competitors of {X}.",
        "Who does {X} go up against in the market?",
    ], held=[
        "Which businesses are vying with {X} for customers?",
        "List the companies in competition with {X}.",
        "who's fighting {X} for market share",
        "Who are the other players challenging {X}?",
        "{X} faces competition from which companies?",
    ]),
    dict(kind="other", path="^founded_by>founded_by", topic="person", tune=[
        "Who co-founded companies with {X}?",
        "Who are {X}'s co-founders?",
        "Which people founded companies together with {X}?",
        "who else helped found the companies {X} founded",
        "Name the other founders of the companies {X} started.",
        "Who did {X} start companies with?",
    ], held=[
        "List the business partners who founded firms alongside {X}.",
        "Apart from {X}, who founded the companies that {X} founded?",
        "which entrepreneurs shared founding credit with {X}",
        "{X} launched companies with which other people?",
        "Who were {X}'s partners in founding companies?",
    ]),
    # ---------------------------------------------------------------- inverse-set
    dict(kind="inverse-set", path="^founded_by", topic="person", tune=[
        "Which companies were founded by {X}?",
        "What companies did {X} found?",
        "Which firms has {X} started?",
        "List the companies {X} founded.",
        "what businesses did {X} set up",
        "Which companies count {X} as a founder?",
    ], held=[
        "Name every company started by {X}.",
        "{X} founded which companies?",
        "What ventures has {X} launched?",
        "which firms owe their existence to {X}",
        "Show me the businesses {X} created.",
    ]),
    dict(kind="inverse-set", path="^headquarters_location", topic="city", tune=[
        "Which companies are headquartered in {X}?",
        "What companies are based in {X}?",
        "Which firms have their headquarters in {X}?",
        "List the companies with an HQ in {X}.",
        "what businesses call {X} home",
        "Which companies have their head office in {X}?",
    ], held=[
        "Name the corporations headquartered in {X}.",
        "{X} is home to the headquarters of which companies?",
        "which firms have {X} as their base",
        "What companies keep their main office in {X}?",
        "Show all companies whose HQ is in {X}.",
    ]),
    dict(kind="inverse-set", path="^educated_at>^chief_executive_officer", topic="university",
         tune=[
             "Which companies have a CEO educated at {X}?",
             "Which companies are run by graduates of {X}?",
             "What companies have a chief executive who studied at {X}?",
             "List companies whose CEO went to {X}.",
             "which firms are led by {X} alumni",
             "At which companies is the CEO an alumnus of {X}?",
         ], held=[
             "Name the businesses whose top boss attended {X}.",
             "{X} alumni are running which companies?",
             "Which firms have a chief executive officer with a degree from {X}?",
             "what companies are headed by someone who studied at {X}",
             "Show companies where the person in charge was educated at {X}.",
         ]),
    dict(kind="inverse-set", path="^country>^headquarters_location", topic="country", tune=[
        "Which companies are headquartered in {X}?",
        "What companies have their headquarters in {X}?",
        "List the companies based in {X}.",
        "which firms have their HQ somewhere in {X}",
        "What businesses are headquartered in cities in {X}?",
        "Which companies have a head office in {X}?",
    ], held=[
        "Name the corporations whose headquarters are in {X}.",
        "{X} hosts the headquarters of which companies?",
        "which companies are based out of {X}",
        "What firms are headquartered somewhere within {X}?",
        "Show me companies headquartered on {X}'s soil.",
    ]),
    dict(kind="inverse-set", path="^place_of_birth", topic="city", tune=[
        "Who was born in {X}?",
        "Which people were born in {X}?",
        "List the people whose birthplace is {X}.",
        "who comes from {X} originally, by birth",
        "Name people born in {X}.",
        "Which business people were born in {X}?",
    ], held=[
        "{X} is the birthplace of which people?",
        "Who are the natives of {X}?",
        "Which executives first saw the light of day in {X}?",
        "whose place of birth is {X}",
        "Give me everyone born in {X}.",
    ]),
    dict(kind="inverse-set", path="^located_in>^educated_at>^chief_executive_officer",
         topic="city", tune=[
             "Which companies are run by people who went to university in {X}?",
             "What companies have a CEO who studied at a university in {X}?",
             "List companies whose chief executive was educated at a university located in {X}.",
             "which firms are led by someone who attended university in {X}",
             "Which companies have CEOs educated in {X}?",
             "Name companies whose CEO studied in {X}.",
         ], held=[
             "Which businesses are headed by alumni of universities in {X}?",
             "{X}'s universities produced the chief executives of which companies?",
             "Show the firms whose top boss was a student in {X}.",
             "what companies does someone schooled in {X} run",
             "Companies with a chief executive who got their degree in {X}?",
         ]),
    # ---------------------------------------------------------------- intersection
    dict(kind="intersection", path="^industry&^headquarters_location", topic="industry_city",
         tune=[
             "Which {A} companies are based in {B}?",
             "Which companies in the {A} industry are headquartered in {B}?",
             "List {A} firms headquartered in {B}.",
             "what {A} companies have their HQ in {B}",
             "Which companies in {B} are in the {A} business?",
             "Name the {B}-based companies in {A}.",
         ], held=[
             "{A} players headquartered in {B}?",
             "Which firms in {B} operate in {A}?",
             "Show me companies from the {A} sector with head offices in {B}.",
             "Which {B} companies work in the {A} sector?",
             "Companies that are both in {A} and headquartered in {B}?",
         ]),
    dict(kind="intersection", path="^listed_on&^industry", topic="exchange_industry", tune=[
        "Which companies listed on {A} are in the {B} industry?",
        "Which {B} companies are listed on {A}?",
        "What {B} firms trade on {A}?",
        "List {B} companies with a listing on {A}.",
        "which companies on {A} are in {B}",
        "Name the {B} stocks listed on {A}.",
    ], held=[
        "Among the companies quoted on {A}, which are in {B}?",
        "{B} businesses whose shares trade on {A}?",
        "Show {A}-listed companies from the {B} sector.",
        "what {B} names can I buy on {A}",
        "Which firms in {B} have shares listed on {A}?",
    ]),
    dict(kind="intersection", path="^industry&^country", topic="industry_country", tune=[
        "Which {A} companies are from {B}?",
        "What {A} companies are there in {B}?",
        "List the {A} firms from {B}.",
        "which companies in {B} are in the {A} industry",
        "Name {B}'s {A} companies.",
        "Which {A} businesses does {B} have?",
    ], held=[
        "Which of {B}'s companies work in {A}?",
        "Show me {A} firms whose country is {B}.",
        "What companies in {B} operate in the {A} sector?",
        "who are the {A} players in {B}",
        "Companies in {A} that come from {B}?",
    ]),
    dict(kind="intersection", path="^board_member&^board_member", topic="person_person",
         tune=[
             "Which companies have both {A} and {B} on their board?",
             "On which companies' boards do {A} and {B} both sit?",
             "Which boards include both {A} and {B} as members?",
             "where do {A} and {B} serve together as board members",
             "List companies where {A} and {B} are both board members.",
             "Which firms count {A} and {B} among their board members?",
         ], held=[
             "{A} and {B} are fellow directors at which companies?",
             "Name the companies whose directors include {A} as well as {B}.",
             "At what firms do {A} and {B} share a boardroom?",
             "which company boards feature {A} alongside {B}",
             "Show the companies that have {A} and {B} as directors.",
         ]),
    # ---------------------------------------------------------------- plain
    dict(kind="plain", path="founded_by", topic="company", tune=[
        "Who founded {X}?",
        "{X} was founded by whom?",
        "Who is {X} founded by?",
        "Who are the founders of {X}?",
        "who was {X} founded by",
        "Name the founders of {X}.",
    ], held=[
        "By whom was {X} founded?",
        "List the founder or founders of {X}.",
        "{X}: founded by?",
        "Tell me who {X}'s founders were.",
        "Who were the founding members of {X}?",
    ]),
    dict(kind="plain", path="chief_executive_officer", topic="company", tune=[
        "Who is the chief executive officer of {X}?",
        "Who is {X}'s CEO?",
        "Who is the CEO of {X}?",
        "{X}'s chief executive officer?",
        "who's the chief executive of {X}",
        "Name the CEO of {X}.",
    ], held=[
        "Chief executive officer of {X}?",
        "Who serves as {X}'s chief executive officer?",
        "which person holds the CEO role at {X}",
        "Tell me {X}'s current CEO.",
        "{X} has which chief executive?",
    ]),
    dict(kind="plain", path="headquarters_location", topic="company", tune=[
        "What is the headquarters location of {X}?",
        "What is {X}'s headquarters location?",
        "Where is the headquarters of {X}?",
        "headquarters location of {X}",
        "Tell me the headquarters location of {X}.",
        "What's the location of {X}'s headquarters?",
    ], held=[
        "{X} headquarters location?",
        "Give the location of the headquarters of {X}.",
        "What location are {X}'s headquarters at?",
        "which headquarters location does {X} have",
        "Name {X}'s headquarters location.",
    ]),
    dict(kind="plain", path="parent_organization", topic="company", tune=[
        "What is the parent organization of {X}?",
        "What is {X}'s parent organization?",
        "Which company is {X}'s parent?",
        "What is the parent company of {X}?",
        "{X}'s parent organization?",
        "name the parent organization of {X}",
    ], held=[
        "Parent organization of {X}?",
        "Which organization is the parent of {X}?",
        "Tell me {X}'s parent company.",
        "what organization is {X} a subsidiary of",
        "{X} has which parent organization?",
    ]),
    dict(kind="plain", path="product_or_material_produced", topic="company", tune=[
        "What products does {X} produce?",
        "What products are produced by {X}?",
        "List the products produced by {X}.",
        "what product or material does {X} produce",
        "Name {X}'s products.",
        "What are the products of {X}?",
    ], held=[
        "Products produced by {X}?",
        "Tell me what products {X} produces.",
        "What does {X} produce?",
        "{X} produces which products?",
        "Give the product list of {X}.",
    ]),
    dict(kind="plain", path="manufacturer", topic="product", tune=[
        "Who is the manufacturer of {X}?",
        "Who manufactures {X}?",
        "What company manufactures {X}?",
        "{X} is manufactured by which company?",
        "which manufacturer makes {X}",
        "Name the manufacturer of {X}.",
    ], held=[
        "Manufacturer of {X}?",
        "By which company is {X} manufactured?",
        "Tell me who manufactured {X}.",
        "what firm is the manufacturer of {X}",
        "{X}'s manufacturer?",
    ]),
    dict(kind="plain", path="educated_at", topic="person", tune=[
        "Where was {X} educated?",
        "Which university was {X} educated at?",
        "What institutions was {X} educated at?",
        "where did {X} get educated",
        "Name the university where {X} was educated.",
        "At which school was {X} educated?",
    ], held=[
        "Tell me where {X} received an education.",
        "In which university did {X} receive their education?",
        "{X}: educated where?",
        "which universities educated {X}",
        "List the universities at which {X} was educated.",
    ]),
    dict(kind="plain", path="board_member", topic="company", tune=[
        "Who are the board members of {X}?",
        "Who sits on the board of {X}?",
        "Which people are members of {X}'s board?",
        "who is on {X}'s board",
        "Name the board members of {X}.",
        "List {X}'s board of directors.",
    ], held=[
        "Board members of {X}?",
        "Who serves on {X}'s board?",
        "Which individuals hold seats on the board of {X}?",
        "tell me the members of the board at {X}",
        "{X}'s board is made up of whom?",
    ]),
    dict(kind="plain", path="chairperson", topic="company", tune=[
        "Who is the chairperson of {X}?",
        "Who chairs {X}?",
        "Who is the chair of {X}'s board?",
        "{X}'s chairperson?",
        "who is chairman or chairwoman of {X}",
        "Name the chairperson of {X}.",
    ], held=[
        "Chairperson of {X}?",
        "Who holds the chair at {X}?",
        "Tell me who chairs the board of {X}.",
        "which person is {X}'s chair",
        "{X} is chaired by whom?",
    ]),
    dict(kind="plain", path="parent_organization>headquarters_location", topic="company",
         tune=[
             "What is the headquarters location of the parent organization of {X}?",
             "Where is the headquarters of {X}'s parent organization?",
             "headquarters location of {X}'s parent company",
             "What city is the headquarters of the parent organization of {X} in?",
             "Where is the parent company of {X} headquartered?",
             "Give the headquarters location of {X}'s parent organization.",
         ], held=[
             "Parent organization of {X}: headquarters location?",
             "Which city is the parent company of {X} headquartered in?",
             "Tell me where the headquarters of {X}'s parent company are.",
             "{X}'s parent organization has its headquarters in which city?",
             "What's the headquarters city of the organization that is {X}'s parent?",
         ]),
]

STOP_CHECK_EXTRA = {"chief_executive_officer": {"ceo"}}


def synonym_violations(spec):
    """Words of a synonym template that share a token (or a 5-letter stem) with the label."""
    bad = []
    rels = [s.lstrip("^") for s in re.split(r"[>&]", spec["path"])]
    lab_toks = set()
    for r in rels:
        lab_toks |= set(REL_LABEL[r].split())
        lab_toks |= STOP_CHECK_EXTRA.get(r, set())
    for t in spec["tune"] + spec["held"]:
        toks = re.findall(r"[a-z]+", re.sub(r"\{[A-Z]\}", " ", t).lower())
        for w in toks:
            for lt in lab_toks:
                if w == lt or (len(w) >= 5 and len(lt) >= 5 and w[:5] == lt[:5]):
                    bad.append((t, w, lt))
    return bad


# --------------------------------------------------------------------------------------
# Path execution and question generation
# --------------------------------------------------------------------------------------
def run_branch(kb, start, path):
    frontier = [start]
    for step in path.split(">"):
        inv = step.startswith("^")
        rel = step.lstrip("^")
        assert rel in REL_LABEL, rel
        nxt = {}
        for n in frontier:
            if isinstance(n, tuple):
                continue
            outs = kb.subjs(n, rel) if inv else kb.objs(n, rel)
            for o in outs:
                nxt[o] = True
        frontier = list(nxt)
    return frontier


def gold_for(kb, spec, topic):
    if "&" in spec["path"]:
        p1, p2 = spec["path"].split("&")
        a, b = topic
        r1 = set(run_branch(kb, a, p1))
        r2 = set(run_branch(kb, b, p2))
        nodes = [n for n in run_branch(kb, a, p1) if n in r2 and n in r1]
    else:
        nodes = run_branch(kb, topic, spec["path"])
        if spec["kind"] == "other":
            nodes = [n for n in nodes if n != topic]
        if spec["kind"] == "topic-answer" and topic not in nodes:
            return None
    labels = sorted({kb.label(n) for n in nodes})
    if not labels or len(labels) > MAX_ANSWERS:
        return None
    return labels


def hops_of(path):
    return max(len(b.split(">")) for b in path.split("&"))


def topic_candidates(kb, spec, rng):
    t = spec["topic"]
    simple = {"company": "company", "person": "person", "city": "city",
              "country": "country", "university": "university", "product": "product"}
    if t in simple:
        return kb.of_type(simple[t])
    comps = kb.of_type("company")
    pairs = []
    if t == "industry_city":
        for c in comps:
            for i in kb.objs(c, "industry"):
                for y in kb.objs(c, "headquarters_location"):
                    pairs.append((i, y))
    elif t == "exchange_industry":
        for c in comps:
            for e in kb.objs(c, "listed_on"):
                for i in kb.objs(c, "industry"):
                    pairs.append((e, i))
    elif t == "industry_country":
        for c in comps:
            for i in kb.objs(c, "industry"):
                for y in kb.objs(c, "country"):
                    pairs.append((i, y))
    elif t == "person_person":
        for c in comps:
            bm = kb.objs(c, "board_member")
            for x in range(len(bm)):
                for y in range(x + 1, len(bm)):
                    pr = [bm[x], bm[y]]
                    rng.shuffle(pr)
                    pairs.append(tuple(pr))
    else:
        raise ValueError(t)
    out, seen = [], set()
    for p in pairs:
        key = tuple(sorted(p)) if t == "person_person" else p
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def possessive(label):
    return label + ("'" if label.endswith("s") else "'s")


# country labels that take the definite article in running text
WITH_ARTICLE = {"United States", "United Kingdom", "Netherlands"}


def render(kb, template, topic):
    if isinstance(topic, tuple):
        subs = {"A": kb.label(topic[0]), "B": kb.label(topic[1])}
    else:
        subs = {"X": kb.label(topic)}
    out = template
    for k, v in subs.items():
        ph = "{" + k + "}"
        if v in WITH_ARTICLE:
            head = "The " if out.startswith(ph) else ""
            out = head + out.replace(ph, "the " + ph)
            if head:
                out = "The " + out[len("The the "):]
        out = out.replace(ph + "'s", possessive(v)).replace(ph, v)
    assert "{" not in out, out
    return out


def build_questions(kb, rng):
    tune_rows, held_rows = [], []
    seen_q = set()
    for spec in SPECS:
        cands = topic_candidates(kb, spec, rng)
        valid = []
        for t in cands:
            g = gold_for(kb, spec, t)
            if g is not None:
                valid.append((t, g))
        rng.shuffle(valid)
        need = N_TUNE + N_HELD
        if len(valid) >= need:
            n_t, n_h = N_TUNE, N_HELD
        else:
            n_t = int(round(len(valid) * N_TUNE / need))
            n_h = len(valid) - n_t
        tune_t = list(spec["tune"])
        held_t = list(spec["held"])
        rng.shuffle(tune_t)
        rng.shuffle(held_t)
        qtype = spec["path"].replace(" ", "_")
        hops = hops_of(spec["path"])
        for rows, items, temps in ((tune_rows, valid[:n_t], tune_t),
                                   (held_rows, valid[n_t:n_t + n_h], held_t)):
            for i, (topic, gold) in enumerate(items):
                for j in range(len(temps)):
                    q = render(kb, temps[(i + j) % len(temps)], topic)
                    if q not in seen_q:
                        break
                else:
                    continue
                seen_q.add(q)
                rows.append((q, "|".join(gold), qtype, spec["kind"], str(hops)))
    rng.shuffle(tune_rows)
    rng.shuffle(held_rows)
    return tune_rows, held_rows


# --------------------------------------------------------------------------------------
# Serialisation
# --------------------------------------------------------------------------------------
def nt_escape(s):
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return "".join(out)


def write_nt(kb, rng, path):
    qnums = rng.sample(range(1000, 99999), len(kb.order))
    qid = {k: ENT + str(n) for k, n in zip(kb.order, qnums, strict=True)}
    pnums = rng.sample(range(10, 999), len(RELATIONS))
    pid = {r[0]: PROP + str(n) for r, n in zip(RELATIONS, pnums, strict=True)}
    lines = []
    for key, lab, comment in RELATIONS:
        lines.append(f'<{pid[key]}> <{RDFS_LABEL}> "{nt_escape(lab)}"@en .')
        if comment:
            lines.append(f'<{pid[key]}> <{RDFS_COMMENT}> "{nt_escape(comment)}"@en .')
    for k in kb.order:
        lines.append(f'<{qid[k]}> <{RDFS_LABEL}> "{nt_escape(kb.ents[k]["label"])}"@en .')
    for s, rel, o in kb.triples:
        if isinstance(o, tuple):
            obj = f'"{nt_escape(o[1])}"^^<{XSD}{o[2]}>'
        else:
            obj = f"<{qid[o]}>"
        lines.append(f"<{qid[s]}> <{pid[rel]}> {obj} .")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    return pid, len(lines)


def write_tsv(rows, path):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("question\tanswers\tqtype\tkind\thops\n")
        for r in rows:
            assert all("\t" not in x and "\n" not in x for x in r), r
            f.write("\t".join(r) + "\n")


KIND_ORDER = ["synonym", "possessive", "relative", "wh-type", "topic-answer", "other",
              "inverse-set", "intersection", "plain"]


def count_table(rows):
    cnt = defaultdict(int)
    for r in rows:
        cnt[(r[3], r[4])] += 1
    lines = ["| kind | 1 hop | 2 hops | 3 hops | total |", "|---|---:|---:|---:|---:|"]
    tot = [0, 0, 0]
    for k in KIND_ORDER:
        vals = [cnt[(k, str(h))] for h in (1, 2, 3)]
        tot = [a + b for a, b in zip(tot, vals, strict=True)]
        lines.append(f"| {k} | {vals[0]} | {vals[1]} | {vals[2]} | {sum(vals)} |")
    lines.append(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]} | {sum(tot)} |")
    return "\n".join(lines)


def qtype_table(tune, held):
    ct, ch = defaultdict(int), defaultdict(int)
    for r in tune:
        ct[(r[2], r[3], r[4])] += 1
    for r in held:
        ch[(r[2], r[3], r[4])] += 1
    lines = ["| qtype | kind | hops | tuning | held-out |", "|---|---|---:|---:|---:|"]
    for spec in SPECS:
        key = (spec["path"], spec["kind"], str(hops_of(spec["path"])))
        lines.append(f"| `{key[0]}` | {key[1]} | {key[2]} | {ct[key]} | {ch[key]} |")
    return "\n".join(lines)


def write_readme(kb, pid, n_lines, tune, held, path):
    types = defaultdict(int)
    for k in kb.order:
        types[kb.ents[k]["type"]] += 1
    rel_count = defaultdict(int)
    for _, rel, _ in kb.triples:
        rel_count[rel] += 1
    domains = {
        "instance_of": "any item → class", "founded_by": "company → person",
        "chief_executive_officer": "company → person", "board_member": "company → person",
        "chairperson": "company → person (one of its board members)",
        "headquarters_location": "company → city",
        "country": "city / company / university / stock exchange → country",
        "industry": "company → industry", "parent_organization": "company → company",
        "subsidiary": "company → company (inverse of parent organization, stored)",
        "product_or_material_produced": "company → product",
        "manufacturer": "product → company (inverse of the above, stored)",
        "listed_on": "company → stock exchange",
        "inception": "company / university / stock exchange → xsd:gYear",
        "number_of_employees": "company → xsd:integer",
        "revenue": "company → xsd:decimal (billions of US dollars)",
        "competitor": "company → company (symmetric, both directions stored)",
        "educated_at": "person → university", "place_of_birth": "person → city",
        "employer": "person → company",
        "country_of_citizenship": "person → country",
        "currency": "country → currency", "capital": "country → city",
        "located_in": "university / stock exchange → city",
    }
    rel_rows = "\n".join(
        f"| {lab} | `<{pid[key]}>` | {domains[key]} | {rel_count[key]} |"
        for key, lab, _ in RELATIONS)
    ent_names = [("company", "companies"), ("person", "people"), ("product", "products"),
                 ("city", "cities"), ("university", "universities"),
                 ("industry", "industries"), ("exchange", "stock exchanges"),
                 ("country", "countries"), ("currency", "currencies"),
                 ("class", "classes (targets of instance of)")]
    ent_rows = "\n".join(f"| {n} | {types[t]} |" for t, n in ent_names)
    size_kb = os.path.getsize(os.path.join(OUT_DIR, "kb.nt"))
    text = f"""# business: a Wikidata-style KB about companies and the economy

A small generated knowledge base (companies, their founders, chief executives, board
members, headquarters, industries, parents and subsidiaries, products, listings, people's
schooling and birthplaces, countries, capitals and currencies) with labelled questions, for
evaluating knowledge-graph question answering. Company, person, product and university names
are invented; countries, cities, currencies and stock exchanges are real names, but every
fact linking them to the invented entities is generated, so no model can know the answers
beforehand.

The style follows Wikidata: entities are opaque IRIs `http://example.org/business/entity/Q<n>`
and relations opaque IRIs `http://example.org/business/prop/P<n>`; every entity and every
relation has one English `rdfs:label` (`@en`), and some relations also have an
`rdfs:comment` description. Years are `xsd:gYear`, head counts `xsd:integer`, revenue
`xsd:decimal`. Every entity label is unique across the KB.

## How it was generated

```
python scripts/devsets/build_business.py
```

Python 3.11 standard library only, deterministic (fixed seed `{SEED}` in the script): running
it again writes byte-identical files. Change the script and rerun it rather than editing the
files by hand. The wordings were written by hand without looking at the engine's code, tests
or pages; the tuning and held-out files use disjoint sets of templates written separately.

## Files

- `kb.nt`: N-Triples, one triple per line, UTF-8 ({n_lines:,} triples, labels and comments included;
  {size_kb / 1e6:.2f} MB).
- `questions.tsv`: TUNING questions ({len(tune)}).
- `questions_heldout.tsv`: HELD-OUT questions ({len(held)}); the same paths and kinds with
  topics of the same types, but worded with a separately written, disjoint set of templates;
  within each (qtype, kind) the held-out topic entities differ from the tuning ones. No
  question text occurs in both files.
- `questions_probe.tsv`: 34 questions written by hand on 2026-12-06 (not by the build
  script) for a few of this KB's own entities, the way an analyst might ask about a firm's CEO and founder;
  answers read off `kb.nt`. Used to find failures and check changes, so tuning data, not
  held-out (`python benchmarks/devsets.py --split probe`).

Both TSVs have the header `question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops`:

- `question`: English question or imperative; the topic entity (or both anchors of an
  intersection) is written exactly as its `rdfs:label`, without brackets.
- `answers`: all gold answers, sorted, joined by `|`: the `rdfs:label` of each answer entity,
  or a literal's lexical form (`1998`, `12400`, `3.75`). Gold is computed by executing the
  qtype's path on the KB. Questions with no answer or more than {MAX_ANSWERS} answers are dropped.
- `qtype`: the path over relation labels with `_` for spaces; `>` chains hops, `^rel` follows
  a relation backwards (object → subject), `p1&p2` intersects two branches started from the
  question's two anchors: `^industry&^headquarters_location` (industry, city),
  `^industry&^country` (industry, country), `^listed_on&^industry` (stock exchange,
  industry), `^board_member&^board_member` (two people). The anchors may appear in either
  order in the text. Paths are executed literally (e.g. `^country` from a country reaches its
  cities, companies, universities and exchanges; the next hop filters).
- `kind`: the wording category (below). For `other`, the topic entity is removed from the
  path's result ("which *other* companies…"); for `topic-answer`, the result is taken as is
  and contains the topic itself; every other kind also takes the path's result as is.
- `hops`: the path length (for an intersection, its longest branch).

## Entities

| kind | count |
|---|---:|
{ent_rows}

## Relations

| label | IRI | head → tail | triples |
|---|---|---|---:|
{rel_rows}

## Question kinds

- `synonym`: the relation is named by words sharing nothing with its label ("who runs X",
  "where is X based", "what's the headcount at X", "who owns X").
- `possessive`: chains of possessives ("X's founder's alma mater"), 2-3 hops.
- `relative`: relative clauses ("the city where the company that makes P is headquartered").
- `wh-type`: the question word selects the relation/answer type: "where" → city, "when" /
  "what year" → inception year, "how many employees" → number, "which country is X
  headquartered in" (2 hops) vs "which city" (1 hop).
- `topic-answer`: the answer includes the topic itself ("who owns X's subsidiaries" → X).
- `other`: asks for other things, topic excluded ("which other companies are in X's
  industry", "X's competitors", "X's sister companies").
- `inverse-set`: sets reached backwards ("which companies were founded by P", "which
  companies have a CEO educated at U").
- `intersection`: two anchors ("which software companies are based in Berlin").
- `plain`: direct wordings using the relation label's own words.

### Tuning file (`questions.tsv`)

{count_table(tune)}

### Held-out file (`questions_heldout.tsv`)

{count_table(held)}

### Per path

{qtype_table(tune, held)}

## Licence

CC0 1.0 (public domain dedication). Entirely generated; names of real countries, cities,
currencies and stock exchanges are used as plain facts.
"""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def main():
    for spec in SPECS:
        if spec["kind"] == "synonym":
            bad = synonym_violations(spec)
            assert not bad, bad
        assert not (set(spec["tune"]) & set(spec["held"])), spec["path"]
    # separate streams: the KB, the IRIs and the questions don't disturb one another
    kb = build_kb(random.Random(SEED))
    tune, held = build_questions(kb, random.Random(SEED + 2))
    os.makedirs(OUT_DIR, exist_ok=True)
    pid, n_lines = write_nt(kb, random.Random(SEED + 1), os.path.join(OUT_DIR, "kb.nt"))
    write_tsv(tune, os.path.join(OUT_DIR, "questions.tsv"))
    write_tsv(held, os.path.join(OUT_DIR, "questions_heldout.tsv"))
    write_readme(kb, pid, n_lines, tune, held, os.path.join(OUT_DIR, "README.md"))
    print(f"kb.nt: {n_lines} triples, {len(kb.order)} entities")
    print(f"questions.tsv: {len(tune)}  questions_heldout.tsv: {len(held)}")


if __name__ == "__main__":
    main()
