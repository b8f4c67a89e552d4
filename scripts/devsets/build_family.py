#!/usr/bin/env python3
"""Build the `family` evaluation set: a small people / families / places knowledge base
(like a slice of Freebase's people domain) plus labelled questions.

    python scripts/devsets/build_family.py

Writes, under benchmarks/data/family/:
    kb.tsv                  subject<TAB>relation<TAB>object, one triple a line, no header
    questions.tsv           tuning questions   (question, answers, qtype, kind, hops)
    questions_heldout.tsv   held-out questions (same paths, disjoint wording templates)
    README.md               description, relation list, counts

Python 3.11 standard library only; deterministic (fixed seed, no iteration over unordered
sets), so running it twice gives byte-identical files. Everything is generated: the people
are fictional, the name lists are common given names and surnames written for this script,
the countries / cities / universities are real place names used only as labels, the
companies are invented. Released under CC0.
"""

from __future__ import annotations

import collections
import os
import random
import re
import sys

SEED = 20240611
PRESENT_YEAR = 2024
MAX_ANSWERS = 15

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT_DIR = os.path.join(ROOT, "benchmarks", "data", "family")

# ---------------------------------------------------------------------------------------
# Geography
# ---------------------------------------------------------------------------------------

# country, cities (capital first), official languages, name group
COUNTRIES = [
    ("France", ["Paris", "Lyon", "Marseille", "Toulouse"], ["French"], "fr"),
    ("Germany", ["Berlin", "Munich", "Hamburg", "Cologne"], ["German"], "de"),
    ("Italy", ["Rome", "Milan", "Naples", "Bologna"], ["Italian"], "it"),
    ("Spain", ["Madrid", "Barcelona", "Valencia", "Seville"], ["Spanish"], "es"),
    ("United Kingdom", ["London", "Manchester", "Edinburgh", "Oxford"], ["English"], "en"),
    ("United States", ["Washington, D.C.", "New York City", "Chicago", "Los Angeles"], ["English"], "us"),
    ("Canada", ["Ottawa", "Toronto", "Montreal", "Vancouver"], ["English", "French"], "ca"),
    ("Japan", ["Tokyo", "Osaka", "Kyoto", "Yokohama"], ["Japanese"], "ja"),
    ("China", ["Beijing", "Shanghai", "Guangzhou", "Wuhan"], ["Mandarin Chinese"], "zh"),
    ("India", ["New Delhi", "Mumbai", "Kolkata", "Chennai"], ["Hindi", "English"], "in"),
    ("Brazil", ["Brasília", "São Paulo", "Rio de Janeiro", "Salvador"], ["Portuguese"], "br"),
    ("Mexico", ["Mexico City", "Guadalajara", "Monterrey", "Puebla"], ["Spanish"], "mx"),
    ("Nigeria", ["Abuja", "Lagos", "Ibadan", "Kano"], ["English"], "ng"),
    ("Poland", ["Warsaw", "Kraków", "Gdańsk", "Wrocław"], ["Polish"], "pl"),
    ("Sweden", ["Stockholm", "Gothenburg", "Malmö", "Uppsala"], ["Swedish"], "se"),
]
COUNTRY_NAMES = [c[0] for c in COUNTRIES]
CITIES = {c[0]: c[1] for c in COUNTRIES}
GROUP = {c[0]: c[3] for c in COUNTRIES}
CITY_COUNTRY = {city: c[0] for c in COUNTRIES for city in c[1]}
ALL_CITIES = [city for c in COUNTRIES for city in c[1]]
COUNTRIES_WITH_THE = {"United States", "United Kingdom"}

UNIVERSITIES = [
    ("Sorbonne University", "Paris"), ("University of Lyon", "Lyon"),
    ("Humboldt University of Berlin", "Berlin"), ("Ludwig Maximilian University of Munich", "Munich"),
    ("Sapienza University of Rome", "Rome"), ("University of Bologna", "Bologna"),
    ("Complutense University of Madrid", "Madrid"), ("University of Barcelona", "Barcelona"),
    ("University of Oxford", "Oxford"), ("University of Edinburgh", "Edinburgh"),
    ("Columbia University", "New York City"), ("University of Chicago", "Chicago"),
    ("University of Toronto", "Toronto"), ("McGill University", "Montreal"),
    ("University of Tokyo", "Tokyo"), ("Kyoto University", "Kyoto"),
    ("Peking University", "Beijing"), ("Fudan University", "Shanghai"),
    ("University of Delhi", "New Delhi"), ("University of Mumbai", "Mumbai"),
    ("University of São Paulo", "São Paulo"), ("Federal University of Rio de Janeiro", "Rio de Janeiro"),
    ("National Autonomous University of Mexico", "Mexico City"), ("University of Guadalajara", "Guadalajara"),
    ("University of Lagos", "Lagos"), ("University of Ibadan", "Ibadan"),
    ("University of Warsaw", "Warsaw"), ("Jagiellonian University", "Kraków"),
    ("Uppsala University", "Uppsala"), ("Stockholm University", "Stockholm"),
]

# invented companies, headquarters city
COMPANIES = [
    ("Atlas Shipping Company", "Hamburg"), ("Meridian Bank", "London"),
    ("Northgate Steel", "Manchester"), ("Silverline Railways", "Chicago"),
    ("Bluewater Insurance", "New York City"), ("Crestview Pharmaceuticals", "Lyon"),
    ("Helios Energy", "Madrid"), ("Granite Construction Group", "Toronto"),
    ("Orion Aerospace", "Toulouse"), ("Sterling Publishing House", "Paris"),
    ("Evergreen Foods", "São Paulo"), ("Vanguard Motors", "Munich"),
    ("Pinnacle Telecom", "Mumbai"), ("Harbor Textiles", "Osaka"),
    ("Summit Chemicals", "Cologne"), ("Lighthouse Media", "Los Angeles"),
    ("Redwood Timber Company", "Vancouver"), ("Coral Reef Hotels", "Rio de Janeiro"),
    ("Ironbridge Engineering", "Gdańsk"), ("Sakura Electronics", "Tokyo"),
    ("Golden Dragon Trading", "Shanghai"), ("Lotus Software", "New Delhi"),
    ("Southern Cross Mining", "Lagos"), ("Aurora Airlines", "Stockholm"),
    ("Terra Cement", "Monterrey"), ("Vistula Savings Bank", "Warsaw"),
    ("Adriatic Shipyards", "Naples"), ("Sahel Agro Industries", "Kano"),
    ("Pearl River Electric", "Guangzhou"), ("Andalusia Olive Cooperative", "Seville"),
]

# ethnic groups per country (weight) and the language(s) that go with each group
ETHNICITIES = {
    "France": [("French people", 1.0)],
    "Germany": [("Germans", 1.0)],
    "Italy": [("Italians", 1.0)],
    "Spain": [("Spaniards", 0.7), ("Catalans", 0.2), ("Basques", 0.1)],
    "United Kingdom": [("English people", 0.65), ("Scottish people", 0.2), ("Welsh people", 0.15)],
    "United States": [("Irish Americans", 0.3), ("Italian Americans", 0.2),
                      ("African Americans", 0.3), ("German Americans", 0.2)],
    "Canada": [("French Canadians", 0.45), ("English Canadians", 0.55)],
    "Japan": [("Yamato people", 1.0)],
    "China": [("Han Chinese", 1.0)],
    "India": [("Punjabis", 0.3), ("Bengalis", 0.25), ("Tamils", 0.25), ("Gujaratis", 0.2)],
    "Brazil": [("Afro-Brazilians", 0.5), ("Italian Brazilians", 0.5)],
    "Mexico": [("Mestizos", 1.0)],
    "Nigeria": [("Yoruba people", 0.4), ("Igbo people", 0.3), ("Hausa people", 0.3)],
    "Poland": [("Poles", 1.0)],
    "Sweden": [("Swedes", 1.0)],
}
ETHNIC_LANGUAGES = {
    "French people": ["French"], "Germans": ["German"], "Italians": ["Italian"],
    "Spaniards": ["Spanish"], "Catalans": ["Catalan", "Spanish"], "Basques": ["Basque", "Spanish"],
    "English people": ["English"], "Scottish people": ["English"], "Welsh people": ["Welsh", "English"],
    "Irish Americans": ["English"], "Italian Americans": ["English"],
    "African Americans": ["English"], "German Americans": ["English"],
    "French Canadians": ["French"], "English Canadians": ["English"],
    "Yamato people": ["Japanese"], "Han Chinese": ["Mandarin Chinese"],
    "Punjabis": ["Punjabi", "Hindi"], "Bengalis": ["Bengali"], "Tamils": ["Tamil"],
    "Gujaratis": ["Gujarati"], "Afro-Brazilians": ["Portuguese"], "Italian Brazilians": ["Portuguese"],
    "Mestizos": ["Spanish"], "Yoruba people": ["Yoruba", "English"], "Igbo people": ["Igbo", "English"],
    "Hausa people": ["Hausa", "English"], "Poles": ["Polish"], "Swedes": ["Swedish"],
}

RELIGIONS = {
    "France": [("Catholicism", 0.6), ("Islam", 0.1), ("Protestantism", 0.08), ("Judaism", 0.05)],
    "Germany": [("Catholicism", 0.35), ("Lutheranism", 0.35), ("Islam", 0.05), ("Judaism", 0.03)],
    "Italy": [("Catholicism", 0.85)],
    "Spain": [("Catholicism", 0.85)],
    "United Kingdom": [("Anglicanism", 0.5), ("Catholicism", 0.15), ("Presbyterianism", 0.1), ("Islam", 0.05)],
    "United States": [("Protestantism", 0.45), ("Catholicism", 0.25), ("Judaism", 0.08)],
    "Canada": [("Catholicism", 0.4), ("Protestantism", 0.25), ("Anglicanism", 0.1)],
    "Japan": [("Shinto", 0.45), ("Buddhism", 0.45)],
    "China": [("Buddhism", 0.3), ("Taoism", 0.2)],
    "India": [("Hinduism", 0.7), ("Islam", 0.12), ("Sikhism", 0.1)],
    "Brazil": [("Catholicism", 0.7), ("Protestantism", 0.2)],
    "Mexico": [("Catholicism", 0.85), ("Protestantism", 0.05)],
    "Nigeria": [("Islam", 0.45), ("Protestantism", 0.25), ("Catholicism", 0.25)],
    "Poland": [("Catholicism", 0.9)],
    "Sweden": [("Lutheranism", 0.7)],
}

PROFESSIONS = [
    ("teacher", 8), ("engineer", 7), ("physician", 6), ("lawyer", 6), ("nurse", 5),
    ("farmer", 5), ("accountant", 4), ("writer", 4), ("journalist", 3), ("architect", 3),
    ("politician", 3), ("actor", 3), ("police officer", 3), ("civil servant", 3),
    ("singer", 2), ("painter", 2), ("chef", 2), ("pilot", 2), ("economist", 2),
    ("pharmacist", 2), ("dentist", 2), ("carpenter", 2), ("photographer", 2), ("chemist", 2),
    ("banker", 2), ("soldier", 2), ("musician", 2), ("film director", 1), ("physicist", 1),
    ("diplomat", 1), ("mathematician", 1), ("composer", 1),
]
CAUSES = [
    "cancer", "heart attack", "stroke", "pneumonia", "tuberculosis", "car accident",
    "natural causes", "Alzheimer's disease", "diabetes", "influenza", "kidney failure",
    "liver cirrhosis", "COVID-19", "malaria", "drowning", "cholera",
]

# ---------------------------------------------------------------------------------------
# Names (common given names and surnames; lists written for this script)
# ---------------------------------------------------------------------------------------

def _w(s: str) -> list[str]:
    return [x.strip() for x in s.split(",") if x.strip()]


FIRST = {
    "fr": (_w("Jean, Pierre, Michel, André, Philippe, Louis, Henri, Jacques, François, Marcel, Claude, Alain, Bernard, Julien, Nicolas, Étienne, Olivier, Thierry"),
           _w("Marie, Jeanne, Françoise, Monique, Catherine, Nathalie, Isabelle, Sophie, Camille, Hélène, Madeleine, Simone, Élise, Claire, Juliette, Colette, Sylvie, Chantal")),
    "de": (_w("Hans, Klaus, Jürgen, Wolfgang, Dieter, Friedrich, Karl, Heinrich, Stefan, Thomas, Andreas, Matthias, Lukas, Felix, Otto, Ernst, Uwe, Günter"),
           _w("Ursula, Helga, Ingrid, Gisela, Monika, Sabine, Petra, Katrin, Anna, Greta, Lena, Hannah, Elke, Brigitte, Renate, Frieda, Heike, Gertrud")),
    "it": (_w("Giuseppe, Giovanni, Antonio, Mario, Francesco, Luigi, Angelo, Vincenzo, Pietro, Salvatore, Carlo, Marco, Alessandro, Luca, Matteo, Paolo, Enrico, Roberto"),
           _w("Maria, Anna, Giuseppina, Rosa, Angela, Giovanna, Teresa, Lucia, Carmela, Francesca, Giulia, Chiara, Sofia, Elena, Paola, Silvia, Valentina, Federica")),
    "es": (_w("Antonio, José, Manuel, Francisco, Juan, David, Javier, Carlos, Miguel, Rafael, Pedro, Alejandro, Fernando, Pablo, Sergio, Jorge, Ramón, Álvaro"),
           _w("María, Carmen, Josefa, Isabel, Dolores, Pilar, Teresa, Ana, Laura, Cristina, Lucía, Marta, Elena, Rosa, Sara, Paula, Mercedes, Inés")),
    "mx": (_w("Jesús, Luis, Ricardo, Arturo, Alejandro, Jorge, Roberto, Fernando, Eduardo, Raúl, Héctor, Sergio, Enrique, Víctor, Gerardo, Armando, Ignacio, Octavio"),
           _w("Guadalupe, Alejandra, Verónica, Gabriela, Adriana, Leticia, Rocío, Patricia, Claudia, Yolanda, Margarita, Mariana, Ximena, Fernanda, Daniela, Esperanza, Lourdes, Araceli")),
    "en": (_w("John, William, James, George, Thomas, Robert, David, Richard, Charles, Edward, Henry, Peter, Michael, Andrew, Christopher, Arthur, Alistair, Gareth"),
           _w("Mary, Elizabeth, Margaret, Sarah, Alice, Emily, Charlotte, Jane, Susan, Helen, Catherine, Emma, Victoria, Lucy, Dorothy, Joan, Fiona, Gwen")),
    "us": (_w("James, John, Robert, Michael, William, David, Richard, Joseph, Charles, Daniel, Matthew, Anthony, Mark, Steven, Paul, Kevin, Brian, Tyrone"),
           _w("Mary, Patricia, Jennifer, Linda, Barbara, Susan, Jessica, Karen, Nancy, Betty, Sandra, Ashley, Kimberly, Donna, Michelle, Shirley, Brenda, Latoya")),
    "ca": (_w("Liam, Noah, Ethan, Gabriel, Samuel, Benjamin, Olivier, Mathieu, Jean-François, Étienne, Ryan, Tyler, Gilles, Réjean, Connor, Dylan, Marc-André, Owen"),
           _w("Olivia, Emma, Chloé, Léa, Amélie, Megan, Hannah, Sophie, Émilie, Geneviève, Josée, Brittany, Mélanie, Isabelle, Kayla, Nicole, Maude, Ashley")),
    "ja": (_w("Hiroshi, Takashi, Kenji, Akira, Satoshi, Makoto, Yuki, Daisuke, Kazuo, Haruto, Ren, Shota, Takeshi, Kenta, Yoshio, Ichiro, Masato, Tetsuya"),
           _w("Yoko, Keiko, Sakura, Yui, Hana, Aiko, Naoko, Emiko, Yumiko, Mei, Haruka, Michiko, Akiko, Kumiko, Rin, Nanami, Sachiko, Tomoko")),
    "zh": (_w("Wei, Jun, Lei, Qiang, Tao, Ming, Hao, Jie, Yong, Jian, Bo, Chao, Peng, Gang, Long, Bin, Feng, Zhiwei"),
           _w("Fang, Min, Jing, Yan, Xiu, Hong, Mei, Lan, Ying, Na, Xia, Ting, Yun, Hua, Qing, Lihua, Xiaoling, Juan")),
    "in": (_w("Raj, Amit, Rahul, Vikram, Arjun, Sanjay, Ravi, Anil, Suresh, Rajesh, Deepak, Vijay, Karan, Rohan, Manoj, Harpreet, Arvind, Prakash"),
           _w("Priya, Anjali, Sunita, Pooja, Neha, Kavita, Lakshmi, Meera, Divya, Anita, Rekha, Shreya, Aarti, Deepa, Gurpreet, Sita, Radha, Nandini")),
    "br": (_w("João, José, Antônio, Francisco, Carlos, Paulo, Pedro, Lucas, Luiz, Marcos, Gabriel, Rafael, Daniel, Marcelo, Bruno, Eduardo, Thiago, Rodrigo"),
           _w("Maria, Ana, Francisca, Antônia, Adriana, Juliana, Márcia, Fernanda, Patrícia, Aline, Beatriz, Camila, Larissa, Letícia, Gabriela, Luana, Raquel, Vitória")),
    "ng": (_w("Chinedu, Emeka, Oluwaseun, Babatunde, Adebayo, Ibrahim, Musa, Chukwuemeka, Tunde, Obinna, Segun, Abubakar, Femi, Ikenna, Yusuf, Kelechi, Sani, Olumide"),
           _w("Ngozi, Chioma, Funmilayo, Adaeze, Aisha, Folake, Amina, Nneka, Yetunde, Zainab, Bisi, Ifeoma, Halima, Temitope, Uchenna, Kemi, Hadiza, Ebere")),
    "pl": (_w("Piotr, Krzysztof, Andrzej, Tomasz, Jan, Paweł, Michał, Marcin, Stanisław, Józef, Marek, Jakub, Adam, Łukasz, Kazimierz, Wojciech, Grzegorz, Zbigniew"),
           _w("Anna, Maria, Katarzyna, Małgorzata, Agnieszka, Barbara, Ewa, Krystyna, Magdalena, Elżbieta, Joanna, Zofia, Aleksandra, Monika, Teresa, Danuta, Halina, Jadwiga")),
    "se": (_w("Lars, Anders, Johan, Karl, Erik, Per, Nils, Mikael, Lennart, Gustav, Olof, Sven, Magnus, Oskar, Axel, Björn, Henrik, Leif"),
           _w("Anna, Eva, Maria, Karin, Kristina, Lena, Sara, Ingrid, Astrid, Elin, Linnéa, Ebba, Sofia, Birgitta, Margareta, Maja, Ulla, Sigrid")),
}
SURNAMES = {
    "fr": _w("Martin, Bernard, Dubois, Thomas, Robert, Richard, Petit, Durand, Leroy, Moreau, Simon, Laurent, Lefebvre, Fournier, Girard, Bonnet, Dupont, Lambert, Fontaine, Rousseau, Mercier, Blanc, Chevalier, Gauthier"),
    "de": _w("Müller, Schmidt, Schneider, Fischer, Weber, Meyer, Wagner, Becker, Schulz, Hoffmann, Koch, Richter, Klein, Wolf, Schröder, Neumann, Schwarz, Zimmermann, Braun, Krüger, Hartmann, Lange, Werner, Krause"),
    "it": _w("Rossi, Russo, Ferrari, Esposito, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Bruno, Gallo, Conti, De Luca, Mancini, Costa, Giordano, Rizzo, Lombardi, Moretti, Barbieri, Fontana, Santoro, Mariani"),
    "es": _w("García, Fernández, González, Rodríguez, López, Martínez, Sánchez, Pérez, Gómez, Martín, Jiménez, Ruiz, Hernández, Díaz, Moreno, Álvarez, Muñoz, Romero, Alonso, Navarro, Torres, Domínguez, Vázquez, Serrano"),
    "mx": _w("Hernández, García, Martínez, López, González, Pérez, Rodríguez, Sánchez, Ramírez, Cruz, Flores, Gómez, Morales, Vázquez, Reyes, Jiménez, Torres, Díaz, Gutiérrez, Ruiz, Mendoza, Aguilar, Ortiz, Castillo"),
    "en": _w("Smith, Jones, Taylor, Brown, Williams, Wilson, Johnson, Davies, Robinson, Wright, Thompson, Evans, Walker, White, Roberts, Green, Hall, Wood, Jackson, Clarke, Campbell, MacDonald, Stewart, Hughes"),
    "us": _w("Smith, Johnson, Williams, Brown, Jones, Miller, Davis, Wilson, Anderson, Taylor, Moore, Jackson, Martin, Lee, Thompson, White, Harris, Clark, Lewis, Robinson, Walker, Young, O'Connor, Sullivan"),
    "ca": _w("Tremblay, Gagnon, Roy, Côté, Bouchard, Gauthier, Morin, Lavoie, Fortin, Gagné, Ouellet, Pelletier, MacDonald, Campbell, Stewart, Anderson, Wilson, Brown, Fraser, Mackenzie, O'Brien, Boucher, Lévesque, Bergeron"),
    "ja": _w("Sato, Suzuki, Takahashi, Tanaka, Watanabe, Ito, Yamamoto, Nakamura, Kobayashi, Kato, Yoshida, Yamada, Sasaki, Yamaguchi, Matsumoto, Inoue, Kimura, Hayashi, Shimizu, Mori, Ikeda, Hashimoto, Ishikawa, Ogawa"),
    "zh": _w("Wang, Li, Zhang, Liu, Chen, Yang, Huang, Zhao, Wu, Zhou, Xu, Sun, Ma, Zhu, Hu, Guo, He, Lin, Gao, Luo, Zheng, Liang, Song, Tang"),
    "in": _w("Sharma, Patel, Singh, Kumar, Gupta, Reddy, Iyer, Nair, Mehta, Chatterjee, Banerjee, Mukherjee, Rao, Joshi, Verma, Das, Bose, Kapoor, Malhotra, Pillai, Desai, Menon, Shah, Ghosh"),
    "br": _w("Silva, Santos, Oliveira, Souza, Rodrigues, Ferreira, Alves, Pereira, Lima, Gomes, Costa, Ribeiro, Martins, Carvalho, Almeida, Lopes, Soares, Fernandes, Vieira, Barbosa, Rocha, Dias, Nascimento, Moura"),
    "ng": _w("Okafor, Adeyemi, Okonkwo, Balogun, Bello, Eze, Ogunleye, Nwosu, Abdullahi, Chukwu, Danjuma, Obi, Onyeka, Afolabi, Nwachukwu, Oladipo, Usman, Okeke, Lawal, Adewale, Igwe, Olaniyan, Sule, Ezeh"),
    "pl": _w("Nowak, Kowalski, Wiśniewski, Wójcik, Kowalczyk, Kamiński, Lewandowski, Zieliński, Szymański, Woźniak, Dąbrowski, Kozłowski, Jankowski, Mazur, Kwiatkowski, Krawczyk, Piotrowski, Grabowski, Nowakowski, Pawłowski, Michalski, Wróbel, Jabłoński, Majewski"),
    "se": _w("Andersson, Johansson, Karlsson, Nilsson, Eriksson, Larsson, Olsson, Persson, Svensson, Gustafsson, Pettersson, Jonsson, Jansson, Hansson, Bengtsson, Lindberg, Lindström, Lindqvist, Berg, Holm, Sandberg, Forsberg, Sjöberg, Engström"),
}


def surname_for(group: str, surname: str, gender: str) -> str:
    """Polish surnames in -ski/-cki/-dzki take -ska/-cka/-dzka for women."""
    if group == "pl" and gender == "female":
        for m, f in (("ski", "ska"), ("cki", "cka"), ("dzki", "dzka")):
            if surname.endswith(m):
                return surname[: -len(m)] + f
    return surname


def wchoice(rng: random.Random, pairs):
    """Weighted choice from [(item, weight)]; the remaining probability mass (if the
    weights sum below 1 and `allow_none` semantics are wanted) is handled by callers."""
    items = [p[0] for p in pairs]
    weights = [p[1] for p in pairs]
    return rng.choices(items, weights=weights, k=1)[0]


# ---------------------------------------------------------------------------------------
# People and families
# ---------------------------------------------------------------------------------------

class Person:
    __slots__ = ("label", "gender", "yob", "yod", "nat", "group", "surname", "pob", "pod",
                 "home", "parents", "children", "spouses", "ethnicity", "religion",
                 "professions", "education", "employer", "languages", "height", "cod",
                 "outsider", "home_known")

    def __init__(self, label, gender, yob, nat, group, surname, pob):
        self.label = label
        self.gender = gender
        self.yob = yob
        self.yod = None
        self.nat = list(nat)
        self.group = group
        self.surname = surname
        self.pob = pob
        self.pod = None
        self.home = None
        self.parents: list[Person] = []
        self.children: list[Person] = []
        self.spouses: list[Person] = []
        self.ethnicity = None
        self.religion = None
        self.professions: list[str] = []
        self.education: list[str] = []
        self.employer = None
        self.languages: list[str] = []
        self.height = None
        self.cod = None
        self.outsider = False
        self.home_known = True


class World:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.people: list[Person] = []
        self.used: set[str] = set()

    # -- names -----------------------------------------------------------------------
    def new_label(self, group: str, gender: str, surname: str | None = None,
                  first_group: str | None = None):
        """`group` decides the surname (and name order); given names come from
        `first_group` (a parent's naming tradition) or the same group."""
        rng = self.rng
        firsts = FIRST[first_group or group][0 if gender == "male" else 1]
        for attempt in range(400):
            sur = surname if surname is not None else rng.choice(SURNAMES[group])
            first = rng.choice(firsts)
            if attempt >= 60:  # crowded surname line: add a second given name
                second = rng.choice(firsts)
                if second == first:
                    continue
                first = f"{first} {second}"
            sg = surname_for(group, sur, gender)
            zh_order = group == "zh" and (first_group or group) == "zh"
            label = f"{sg} {first}" if zh_order else f"{first} {sg}"
            if label not in self.used:
                self.used.add(label)
                return label, sur
        raise RuntimeError("could not find a unique name")

    def new_person(self, gender, yob, country, group=None, surname=None, pob=None):
        group = group or GROUP[country]
        label, sur = self.new_label(group, gender, surname)
        if pob is None:
            pob = self.rng.choice(CITIES[country])
        p = Person(label, gender, yob, [country], group, sur, pob)
        self.people.append(p)
        return p

    # -- families --------------------------------------------------------------------
    def marry(self, a: Person, b: Person):
        a.spouses.append(b)
        b.spouses.append(a)

    def couple_home(self, h: Person, w: Person) -> str:
        rng = self.rng
        if h.nat[0] == w.nat[0] or rng.random() < 0.7:
            base = h
        else:
            base = w
        if rng.random() < 0.55 and CITY_COUNTRY[base.pob] == base.nat[0]:
            return base.pob
        return rng.choice(CITIES[base.nat[0]])

    def outsider_for(self, p: Person, same_sex=False) -> Person:
        rng = self.rng
        gender = p.gender if same_sex else ("female" if p.gender == "male" else "male")
        if gender == "male":
            yob = p.yob + rng.randint(-7, 2)
        else:
            yob = p.yob + rng.randint(-2, 7)
        country = p.nat[0] if rng.random() < 0.9 else rng.choice(COUNTRY_NAMES)
        o = self.new_person(gender, yob, country)
        o.outsider = True
        return o

    def related(self, a: Person, b: Person) -> bool:
        pa = {x.label for x in a.parents}
        pb = {x.label for x in b.parents}
        if pa & pb:
            return True
        ga = {g.label for x in a.parents for g in x.parents}
        gb = {g.label for x in b.parents for g in x.parents}
        return bool(ga & gb)

    def make_children(self, h: Person, w: Person, home: str) -> list[Person]:
        rng = self.rng
        n = wchoice(rng, [(0, 10), (1, 22), (2, 32), (3, 22), (4, 10), (5, 4)])
        lo, hi = max(w.yob, h.yob) + 19, min(w.yob + 40, 2008)
        if hi - lo < n:
            n = max(0, hi - lo)
        if n == 0:
            return []
        years = sorted(rng.sample(range(lo, hi + 1), n))
        kids = []
        for y in years:
            g = rng.choice(["male", "female"])
            first_grp = h.group if rng.random() < 0.8 else w.group
            r = rng.random()
            if r < 0.75:
                pob = home
            elif r < 0.95:
                pob = rng.choice(CITIES[CITY_COUNTRY[home]])
            else:
                pob = rng.choice(ALL_CITIES)
            kid_label, sur = self.new_label(h.group, g, h.surname, first_grp)
            kid = Person(kid_label, g, y, [h.nat[0]], h.group, sur, pob)
            self.people.append(kid)
            if w.nat[0] != h.nat[0] and rng.random() < 0.5:
                kid.nat.append(w.nat[0])
            bc = CITY_COUNTRY[pob]
            if bc not in kid.nat and bc in ("United States", "Canada", "Brazil", "Mexico") and rng.random() < 0.6:
                kid.nat.append(bc)
            kid.parents = [h, w]
            h.children.append(kid)
            w.children.append(kid)
            kid.home = home
            kids.append(kid)
        return kids

    def build_families(self, founders_per_country=2):
        rng = self.rng
        couples = []
        for country in COUNTRY_NAMES:
            for _ in range(founders_per_country):
                hy = rng.randint(1876, 1902)
                h = self.new_person("male", hy, country)
                w = self.new_person("female", hy + rng.randint(-2, 6), country)
                self.marry(h, w)
                home = self.couple_home(h, w)
                h.home = w.home = home
                couples.append((h, w, home))
        generation = 0
        while couples:
            generation += 1
            kids = []
            for h, w, home in couples:
                kids.extend(self.make_children(h, w, home))
            couples = self.match(kids)

    def match(self, kids: list[Person]):
        rng = self.rng
        pool = [k for k in kids if k.yob <= 1992]
        order = pool[:]
        rng.shuffle(order)
        couples = []
        for p in order:
            if p.spouses:
                continue
            if rng.random() > 0.8:
                continue
            if rng.random() < 0.03:
                o = self.outsider_for(p, same_sex=True)
                self.marry(p, o)
                p.home = o.home = self.couple_home(p, o)
                continue  # no children recorded for these couples
            partner = None
            if rng.random() < 0.45:
                cands = [q for q in pool if q is not p and not q.spouses and q.gender != p.gender
                         and abs(q.yob - p.yob) <= 8 and not self.related(p, q)]
                same = [q for q in cands if q.nat[0] == p.nat[0]]
                if same and rng.random() < 0.9:
                    partner = rng.choice(same)
                elif cands:
                    partner = rng.choice(cands)
            if partner is None:
                partner = self.outsider_for(p)
            self.marry(p, partner)
            h, w = (p, partner) if p.gender == "male" else (partner, p)
            home = self.couple_home(h, w)
            h.home = w.home = home
            couples.append((h, w, home))
        return couples

    # -- attributes ------------------------------------------------------------------
    def assign_attributes(self):
        rng = self.rng
        # people were created parents-before-children (outsiders have no parents), so a
        # single pass in creation order sees the parents' values already set.
        for p in self.people:
            country = p.nat[0]
            if p.parents:
                f, m = p.parents
                src = f if rng.random() < 0.7 else m
                if src.ethnicity and rng.random() < 0.8:
                    p.ethnicity = src.ethnicity
                elif rng.random() < 0.5:
                    p.ethnicity = wchoice(rng, ETHNICITIES[country])
                r = rng.random()
                if r < 0.5 and m.religion:
                    p.religion = m.religion
                elif r < 0.85 and f.religion:
                    p.religion = f.religion
                elif rng.random() < 0.4:
                    p.religion = self.sample_religion(country)
            else:
                p.ethnicity = wchoice(rng, ETHNICITIES[country]) if rng.random() < 0.75 else None
                p.religion = self.sample_religion(country)
        for p in self.people:
            self.assign_life(p)

    def sample_religion(self, country):
        rng = self.rng
        opts = RELIGIONS[country]
        r = rng.random()
        acc = 0.0
        for rel, w in opts:
            acc += w
            if r < acc:
                return rel
        return None

    def assign_life(self, p: Person):
        rng = self.rng
        country = p.nat[0]
        if p.home is None:
            p.home = p.pob
        # adult residence: unmarried adults sometimes move
        if not p.spouses and p.yob < 2000:
            r = rng.random()
            if r < 0.35:
                p.home = rng.choice(CITIES[country])
            elif r < 0.45:
                p.home = rng.choice(ALL_CITIES)
        # death
        r = rng.random()
        if r < 0.04:
            age = rng.randint(18, 50)
        elif r < 0.06:
            age = rng.randint(1, 17)
        else:
            age = max(45, min(103, int(rng.gauss(77, 11))))
        last_child = max([c.yob for c in p.children], default=p.yob)
        if p.children:
            age = max(age, last_child - p.yob + 1)
        if p.spouses:
            age = max(age, 25 + rng.randint(0, 30))
        yod = p.yob + age
        if yod < PRESENT_YEAR:
            p.yod = yod
        elif p.yob < 1921:  # nobody in the data is older than 103
            p.yod = rng.randint(max(p.yob + 80, last_child + 1), PRESENT_YEAR - 1)
        if p.yod is not None:
            if rng.random() < 0.88:
                p.cod = self.sample_cause(p)
            if rng.random() < 0.9:
                r = rng.random()
                if r < 0.7:
                    p.pod = p.home
                elif r < 0.9:
                    p.pod = rng.choice(CITIES[CITY_COUNTRY[p.home]])
                else:
                    p.pod = rng.choice(ALL_CITIES)
        adult_age = (p.yod or PRESENT_YEAR) - p.yob
        adult = adult_age >= 22 and p.yob <= 2002
        # professions
        if adult and rng.random() < 0.88:
            k = wchoice(rng, [(1, 72), (2, 23), (3, 5)])
            profs: list[str] = []
            parent_profs = sorted({x for par in p.parents for x in par.professions})
            if parent_profs and rng.random() < 0.3:
                profs.append(rng.choice(parent_profs))
            while len(profs) < k:
                x = wchoice(rng, PROFESSIONS)
                if x not in profs:
                    profs.append(x)
            p.professions = profs
        # education
        if adult and p.yob >= 1885:
            pe = 0.35 if p.yob < 1930 else 0.62
            if rng.random() < pe:
                n = 2 if rng.random() < 0.12 else 1
                own = [u for u, c in UNIVERSITIES if CITY_COUNTRY[c] in p.nat]
                while len(p.education) < n:
                    u = rng.choice(own) if (own and rng.random() < 0.8) else rng.choice(UNIVERSITIES)[0]
                    if u not in p.education:
                        p.education.append(u)
        # employer
        if adult and p.yob >= 1895 and rng.random() < 0.5:
            own = [c for c, city in COMPANIES if CITY_COUNTRY[city] == CITY_COUNTRY[p.home]]
            p.employer = rng.choice(own) if (own and rng.random() < 0.75) else rng.choice(COMPANIES)[0]
        # languages
        if rng.random() < 0.3:
            langs = list(ETHNIC_LANGUAGES[p.ethnicity]) if p.ethnicity else list(
                COUNTRIES_BY_NAME[country]["langs"][:1])
            if "English" not in langs and rng.random() < 0.3:
                langs.append("English")
            for sp in p.spouses:
                sl = COUNTRIES_BY_NAME[sp.nat[0]]["langs"][0]
                if sl not in langs and rng.random() < 0.3:
                    langs.append(sl)
            p.languages = langs
        # residence is not recorded for everybody
        if rng.random() < 0.12:
            p.home_known = False
        # height
        if adult_age >= 18 and rng.random() < 0.78:
            mu = 176 if p.gender == "male" else 163
            if p.yob < 1930:
                mu -= 4
            sd = 7 if p.gender == "male" else 6
            p.height = int(round(rng.gauss(mu, sd)))

    def sample_cause(self, p: Person) -> str:
        rng = self.rng
        age = p.yod - p.yob
        c = p.nat[0]
        tropical = c in ("Nigeria", "India", "Brazil")
        opts = [("cancer", 14), ("heart attack", 12), ("stroke", 8), ("pneumonia", 5),
                ("kidney failure", 3), ("liver cirrhosis", 2), ("diabetes", 3)]
        if age >= 75:
            opts += [("natural causes", 12), ("Alzheimer's disease", 5 if p.yod >= 1960 else 0)]
        if age < 50:
            opts += [("drowning", 3)]
            if p.yod >= 1925:
                opts += [("car accident", 8)]
        if p.yod < 1960:
            opts += [("tuberculosis", 7), ("influenza", 4), ("cholera", 2 if p.yod < 1930 else 0)]
        else:
            opts += [("influenza", 1)]
        if tropical:
            opts += [("malaria", 4)]
        if 2020 <= p.yod <= 2023:
            opts += [("COVID-19", 10)]
        opts = [o for o in opts if o[1] > 0]
        return wchoice(rng, opts)


COUNTRIES_BY_NAME = {c[0]: {"cities": c[1], "langs": c[2], "group": c[3]} for c in COUNTRIES}


# ---------------------------------------------------------------------------------------
# Triples
# ---------------------------------------------------------------------------------------

RELATION_DOC = [
    ("parent", "person → person", "a parent of the subject (mother or father)"),
    ("child", "person → person", "a child of the subject; exact inverse of `parent`"),
    ("spouse", "person → person", "husband / wife / partner; symmetric"),
    ("sibling", "person → person", "shares at least one parent with the subject; symmetric"),
    ("gender", "person → `male` / `female`", ""),
    ("year_of_birth", "person → year literal", "e.g. `1954`"),
    ("year_of_death", "person → year literal", "only for people who have died"),
    ("place_of_birth", "person → city", ""),
    ("place_of_death", "person → city", ""),
    ("place_of_residence", "person → city", "where the person lives (or last lived)"),
    ("cause_of_death", "person → cause", ""),
    ("nationality", "person → country", "citizenship; may differ from the country of birth; some people have two"),
    ("ethnicity", "person → ethnic group", ""),
    ("religion", "person → religion", ""),
    ("profession", "person → profession", "one to three per person"),
    ("education", "person → university", "one or two per person"),
    ("employer", "person → company", ""),
    ("languages_spoken", "person → language", "one or more"),
    ("height_cm", "person → number literal", "height in centimetres, e.g. `178`"),
    ("located_in", "city → country; university → city", ""),
    ("headquartered_in", "company → city", ""),
    ("capital", "country → city", ""),
    ("official_language", "country → language", "one or two per country"),
]
RELATIONS = [r[0] for r in RELATION_DOC]


def build_kb(world: World) -> list[tuple[str, str, str]]:
    T: list[tuple[str, str, str]] = []
    for name, cities, langs, _ in COUNTRIES:
        T.append((name, "capital", cities[0]))
        for lang in langs:
            T.append((name, "official_language", lang))
        for city in cities:
            T.append((city, "located_in", name))
    for u, city in UNIVERSITIES:
        T.append((u, "located_in", city))
    for c, city in COMPANIES:
        T.append((c, "headquartered_in", city))
    for p in world.people:
        s = p.label
        T.append((s, "gender", p.gender))
        T.append((s, "year_of_birth", str(p.yob)))
        if p.yod is not None:
            T.append((s, "year_of_death", str(p.yod)))
        T.append((s, "place_of_birth", p.pob))
        if p.pod:
            T.append((s, "place_of_death", p.pod))
        if p.home_known:
            T.append((s, "place_of_residence", p.home))
        if p.cod:
            T.append((s, "cause_of_death", p.cod))
        for n in p.nat:
            T.append((s, "nationality", n))
        if p.ethnicity:
            T.append((s, "ethnicity", p.ethnicity))
        if p.religion:
            T.append((s, "religion", p.religion))
        for x in p.professions:
            T.append((s, "profession", x))
        for u in p.education:
            T.append((s, "education", u))
        if p.employer:
            T.append((s, "employer", p.employer))
        for lang in p.languages:
            T.append((s, "languages_spoken", lang))
        if p.height is not None:
            T.append((s, "height_cm", str(p.height)))
        for par in p.parents:
            T.append((s, "parent", par.label))
        for c in p.children:
            T.append((s, "child", c.label))
        for sp in p.spouses:
            T.append((s, "spouse", sp.label))
        sibs = sorted({c.label for par in p.parents for c in par.children} - {s})
        for sb in sibs:
            T.append((s, "sibling", sb))
    # dedupe, keep order
    seen = set()
    out = []
    for t in T:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out



# ---------------------------------------------------------------------------------------
# Question specifications
#
# qtype grammar (also executed below to compute the gold answers):
#   path      := step ('>' step)*
#   step      := ['^'] relation ['[gender=male|female]']     ^ = inverse hop; [..] keeps only
#                                                            the nodes with that gender
#   qtype     := path ('&' path)* ['-self']                  '&' intersects the results of
#                                                            paths started at the 1st, 2nd ..
#                                                            anchor; '-self' removes the
#                                                            (first) topic entity from gold
# Placeholders in templates: {X} first anchor label, {Y} second anchor label; {X_a} / {Y_a}
# the label with an indefinite article ("an engineer"); {X_t} / {Y_t} the label with "the"
# where English needs it ("the United States").  The label itself is never altered.
# ---------------------------------------------------------------------------------------

SPECS: list[dict] = []


# questions per path (tuning, held-out) unless a spec says otherwise
KIND_N = {"synonym": (14, 6), "kinship": (10, 5), "possessive": (11, 5), "relative": (11, 5),
          "wh-type": (11, 5), "topic-answer": (12, 5), "other": (12, 5), "inverse-set": (11, 5),
          "intersection": (13, 5), "plain": (11, 5)}


def S(kind, qtype, anchors, tune, held, nt=None, nh=None, filt=None):
    SPECS.append(dict(kind=kind, qtype=qtype, anchors=anchors, tune=tune, held=held,
                      nt=nt or KIND_N[kind][0], nh=nh or KIND_N[kind][1], filt=filt))


P = ["person"]

# ---- synonym: the relation is named by words that share nothing with its KB name ---------
S("synonym", "place_of_birth", P,
  ["where was {X} born", "{X}'s birthplace?", "{X} hails from which city",
   "what town did {X} come into the world in", "tell me the city {X} was born in",
   "Do you know where {X} was born?", "what is the native city for {X}"],
  ["in what city did {X} first see the light of day", "{X} was born where?",
   "which city does {X} originally come from", "name the town {X} is a native of",
   "I'm curious which city {X} was born in"])
S("synonym", "profession", P,
  ["what does {X} do for a living", "{X}'s line of work", "what's {X}'s job?",
   "What is {X}'s occupation", "tell me what kind of work {X} does",
   "how does {X} earn a living", "what trade is {X} in?"],
  ["what is {X} by trade", "which career did {X} pursue?", "{X} works as what",
   "name the vocation {X} follows", "I'd like to know how {X} makes money, job-wise"])
S("synonym", "cause_of_death", P,
  ["what did {X} die of", "{X} passed away from what?", "what killed {X}",
   "What was the reason {X} died", "tell me what {X} died from",
   "do you know what took {X}'s life?"],
  ["what led to {X}'s demise", "{X} succumbed to what?", "how did {X} pass away",
   "what brought about the passing of {X}", "which illness or accident ended {X}'s life"])
S("synonym", "religion", P,
  ["which faith does {X} follow", "what is {X}'s creed?", "{X}'s spiritual affiliation",
   "which church or faith is {X} a member of", "tell me what faith {X} practises",
   "What does {X} believe in, spiritually?"],
  ["what belief system does {X} adhere to", "to which faith does {X} belong?",
   "what is the spiritual tradition of {X}", "what's {X}'s faith background",
   "how does {X} worship, which creed"])
S("synonym", "education", P,
  ["where did {X} study", "{X}'s alma mater", "which university did {X} go to?",
   "what college did {X} attend", "where did {X} get a degree",
   "Tell me which school {X} graduated from"],
  ["at which institution was {X} schooled", "where did {X} earn a diploma?",
   "where was {X} a student", "{X} graduated from which university",
   "what institution awarded {X} a degree"])
S("synonym", "employer", P,
  ["who does {X} work for", "which company pays {X}'s salary?", "{X}'s workplace",
   "what firm is {X} on the staff of", "which organisation hired {X}",
   "tell me the company {X} works at"],
  ["where does {X} have a job", "what business has {X} on the payroll?",
   "for which firm does {X} work", "what outfit is {X} working at these days",
   "I want to know which company {X} is with"])
S("synonym", "place_of_residence", P,
  ["where does {X} live", "what city does {X} call home?", "where is {X} based",
   "which city has {X} settled in", "tell me where {X} lives now", "where's {X}'s home?"],
  ["what city is {X} living in", "where has {X} set up house?",
   "in what town does {X} dwell", "where is {X}'s household located",
   "which city would I find {X} living in"], filt="alive")

# ---- kinship: colloquial family words (gendered words filter by gender) ------------------
S("kinship", "parent[gender=male]", P,
  ["who is {X}'s dad", "who's the father of {X}?", "name {X}'s father",
   "who was {X}'s old man", "tell me who {X}'s papa is", "who fathered {X}"],
  ["which man is {X}'s father", "do you know who {X}'s daddy is?",
   "I want the name of {X}'s father", "{X}'s pa, who is he"])
S("kinship", "parent[gender=female]", P,
  ["who is {X}'s mum", "who is {X}'s mom?", "name the mother of {X}",
   "who was {X}'s mother", "tell me who gave birth to {X}", "{X}'s mama?"],
  ["which woman is {X}'s mother", "do you know who {X}'s mommy is",
   "I'd like the name of {X}'s mum", "{X}'s ma, who is she?"])
S("kinship", "parent", P,
  ["who are {X}'s parents", "name {X}'s folks", "tell me {X}'s mother and father",
   "who are the parents of {X}?", "list the mum and dad of {X}", "whose child is {X}"],
  ["who are {X}'s mom and dad", "{X} was born to which two people",
   "give me the names of {X}'s parents", "{X} is the offspring of whom?"])
S("kinship", "child", P,
  ["who are {X}'s kids", "list {X}'s children", "does {X} have any offspring? name them",
   "who are the sons and daughters of {X}", "tell me the names of {X}'s kids",
   "{X}'s children?"],
  ["which people are {X}'s children", "who did {X} have as kids",
   "name every child of {X}", "give me {X}'s offspring", "whose parent is {X}?"])
S("kinship", "child[gender=male]", P,
  ["who is {X}'s son", "name {X}'s sons", "does {X} have a son? who",
   "which of {X}'s kids are boys", "tell me the sons of {X}", "{X}'s son?"],
  ["who are the sons of {X}?", "which sons does {X} have",
   "give me the male children of {X}", "name any boy that {X} is a parent to"])
S("kinship", "child[gender=female]", P,
  ["who is {X}'s daughter", "name {X}'s daughters", "which of {X}'s kids are girls",
   "tell me the daughters of {X}", "does {X} have a daughter? who?", "{X}'s daughter?"],
  ["any daughters for {X}? list them", "give me the female children of {X}",
   "name any girl {X} is a parent of", "which daughters does {X} have?"])
S("kinship", "spouse[gender=female]", P,
  ["who is {X}'s wife", "name the wife of {X}", "who is the missus of {X}",
   "tell me who {X}'s wife is", "{X}'s wife?", "which woman did {X} marry"],
  ["whom did {X} take as a wife", "the wife of {X}: what's her name?",
   "I'd like to know {X}'s wife", "which lady is married to {X}"])
S("kinship", "spouse[gender=male]", P,
  ["who is {X}'s husband", "name the husband of {X}", "which man did {X} marry",
   "tell me who {X}'s hubby is", "{X}'s husband?", "who's {X}'s husband?"],
  ["the husband of {X}: what's his name?", "which gentleman is {X} married to",
   "give me the name of {X}'s husband", "whom did {X} take as a husband?"])
S("kinship", "spouse", P,
  ["who is {X}'s partner", "who is {X} married to", "{X}'s other half?",
   "name {X}'s significant other", "who did {X} marry", "tell me who {X} wed"],
  ["whose husband or wife is {X}?", "who is the partner of {X}?",
   "who did {X} tie the knot with", "which person is {X}'s better half"])
S("kinship", "sibling[gender=male]", P,
  ["who is {X}'s brother", "name {X}'s brothers", "does {X} have a brother? who",
   "tell me the brothers of {X}", "which of {X}'s siblings are male", "{X}'s bro?"],
  ["{X}'s brothers, who are they", "list any brother that {X} has",
   "which men are {X}'s brothers?", "I'm looking for {X}'s brothers"])
S("kinship", "sibling[gender=female]", P,
  ["who is {X}'s sister", "name {X}'s sisters", "does {X} have a sister? who",
   "tell me the sisters of {X}", "which of {X}'s siblings are female", "{X}'s sis?"],
  ["{X}'s sisters, who are they", "list any sister that {X} has",
   "which women are {X}'s sisters?", "I'm trying to find {X}'s sisters"])
S("kinship", "parent>parent", P,
  ["who are {X}'s grandparents", "name the grandparents of {X}",
   "who are {X}'s grandma and grandpa", "list {X}'s grandparents",
   "tell me who {X}'s grandparents are", "who were the parents of {X}'s parents"],
  ["which people are grandparents of {X}", "{X}'s grandparents: who were they?",
   "{X}'s nan and grandad, who are they?", "whose grandchild is {X}?"])
S("kinship", "parent>parent[gender=male]", P,
  ["who is {X}'s grandfather", "name {X}'s grandpa", "who are the grandfathers of {X}",
   "tell me {X}'s granddad", "list the grandfathers of {X}", "{X}'s grandfather?"],
  ["which men are {X}'s grandfathers", "who is {X}'s gramps",
   "give me the grandpas of {X}", "who was {X}'s grandfather on either side"])
S("kinship", "parent>parent[gender=female]", P,
  ["who is {X}'s granny", "who is {X}'s grandmother", "name the grandmothers of {X}",
   "tell me {X}'s grandma", "list {X}'s nans", "{X}'s grandmother?"],
  ["which women are {X}'s grandmothers", "who is the granny of {X}?",
   "give me the names of {X}'s grandmas", "who's {X}'s nana"])
S("kinship", "child>child", P,
  ["who are {X}'s grandchildren", "name {X}'s grandkids", "list the grandchildren of {X}",
   "does {X} have grandchildren? who", "tell me who {X}'s grandkids are",
   "who are the children of {X}'s children"],
  ["which people are grandchildren of {X}", "give me {X}'s grandsons and granddaughters",
   "whose grandparent is {X}?", "who are the grandkids of {X}?"])
S("kinship", "spouse>parent", P,
  ["who are {X}'s in-laws", "name {X}'s parents-in-law", "who are the parents of {X}'s spouse",
   "tell me who {X}'s in-laws are", "list {X}'s mother- and father-in-law",
   "who are {X}'s partner's parents"],
  ["which people are {X}'s parents-in-law", "who are the in-laws of {X}?",
   "give me the mother-in-law and father-in-law of {X}",
   "whose son-in-law or daughter-in-law is {X}"])

# ---- possessive chains -----------------------------------------------------------------
S("possessive", "spouse[gender=female]>place_of_birth", P,
  ["{X}'s wife's birthplace", "where was {X}'s wife born", "tell me {X}'s wife's place of birth",
   "which city was {X}'s wife born in", "{X}'s wife's city of birth?",
   "what's the birthplace of {X}'s wife"],
  ["in which city was {X}'s missus born", "{X}'s wife, where was she born?",
   "what city does {X}'s wife come from originally", "{X}'s wife was born in what city"])
S("possessive", "spouse[gender=male]>profession", P,
  ["{X}'s husband's job", "what does {X}'s husband do for a living",
   "{X}'s husband's profession?", "tell me {X}'s husband's occupation",
   "what is {X}'s husband's line of work", "what kind of work does {X}'s hubby do"],
  ["{X}'s husband works as what?", "what is {X}'s husband by trade",
   "name the occupation of {X}'s husband", "what's {X}'s husband's career"])
S("possessive", "parent[gender=male]>spouse[gender=female]>religion", P,
  ["the religion of {X}'s father's wife", "what is {X}'s father's wife's religion",
   "which faith does {X}'s dad's wife follow", "{X}'s father's wife's religion?",
   "tell me {X}'s dad's wife's faith", "what religion is {X}'s father's wife"],
  ["{X}'s dad's wife: what faith is she", "which religion does the wife of {X}'s father practise",
   "what's {X}'s father's wife's creed", "name the faith of {X}'s dad's wife"])
S("possessive", "child[gender=male]>spouse>nationality", P,
  ["what is the nationality of {X}'s son's spouse", "{X}'s son's partner's nationality?",
   "which country is {X}'s son's spouse a citizen of",
   "tell me the citizenship of {X}'s son's spouse",
   "what passport does {X}'s son's partner hold", "{X}'s son's spouse, what nationality?"],
  ["the nationality of the spouse of {X}'s son", "which nationality does {X}'s son's partner have",
   "{X}'s son's partner holds the nationality of which country",
   "I want to know {X}'s son's spouse's citizenship"])
S("possessive", "parent[gender=female]>place_of_birth", P,
  ["{X}'s mum's birthplace", "where was {X}'s mother born", "{X}'s mom's place of birth?",
   "which city was {X}'s mother born in", "tell me where {X}'s mum was born",
   "{X}'s mother's birth city"],
  ["{X}'s mother was born in what city", "in which town was {X}'s mom born?",
   "what is {X}'s ma's native city", "where does {X}'s mother come from originally"])
S("possessive", "parent>parent>place_of_birth", P,
  ["{X}'s grandparents' birthplaces", "where were {X}'s grandparents born",
   "which cities were {X}'s grandparents born in",
   "tell me {X}'s grandparents' places of birth", "{X}'s grandparents' cities of birth?",
   "where were the parents of {X}'s parents born"],
  ["in what towns were {X}'s grandparents born", "{X}'s grandparents came into the world where?",
   "name the birth cities of {X}'s grandparents", "where were {X}'s grandmas and grandpas born"])
S("possessive", "spouse>employer", P,
  ["{X}'s partner's employer", "who does {X}'s spouse work for",
   "which company employs {X}'s spouse", "tell me {X}'s spouse's workplace",
   "where does {X}'s partner work", "{X}'s spouse's employer?"],
  ["which firm is {X}'s other half employed by", "{X}'s spouse works for which company",
   "what company does {X}'s partner have a job at", "name the employer of {X}'s spouse"])
S("possessive", "sibling[gender=female]>spouse", P,
  ["who is {X}'s sister's spouse", "{X}'s sister's partner?", "who is {X}'s sister married to",
   "tell me who {X}'s sister's spouse is", "name {X}'s sister's partner",
   "who did {X}'s sister marry"],
  ["who is the spouse of {X}'s sister", "which person is {X}'s sister's other half",
   "{X}'s sister is married to whom?", "to whom is {X}'s sister wed"])
S("possessive", "child>education", P,
  ["where did {X}'s kids study", "{X}'s children's alma maters",
   "which universities did {X}'s children attend", "tell me {X}'s kids' universities",
   "{X}'s children's education?", "what colleges did {X}'s children go to"],
  ["{X}'s kids went to which universities", "name the schools {X}'s children graduated from",
   "where were {X}'s offspring educated", "at which universities did {X}'s sons and daughters study"])
S("possessive", "spouse>parent>profession", P,
  ["{X}'s in-laws' professions", "what do {X}'s in-laws do for a living",
   "what are the jobs of {X}'s spouse's parents", "tell me the occupations of {X}'s partner's parents",
   "{X}'s spouse's parents' professions?", "which professions do the parents of {X}'s spouse have"],
  ["what work do {X}'s parents-in-law do", "{X}'s partner's mum and dad work as what",
   "name the occupations of {X}'s in-laws", "what line of work are {X}'s spouse's parents in"])
S("possessive", "child>spouse>nationality", P,
  ["what nationalities do {X}'s children's spouses have", "{X}'s kids' partners' nationalities",
   "which countries are the spouses of {X}'s children citizens of",
   "tell me the nationality of {X}'s children's spouses",
   "what passports do {X}'s children's spouses hold", "{X}'s children's spouses' nationality?"],
  ["{X}'s sons- and daughters-in-law: what nationalities?",
   "which nationality do the partners of {X}'s kids hold",
   "name the citizenships of {X}'s children's husbands and wives",
   "the people {X}'s kids married, what nationality are they"])

# ---- relative clauses / nested noun phrases ----------------------------------------------
S("relative", "spouse[gender=female]>place_of_birth", P,
  ["the city where the wife of {X} was born", "which is the city in which the wife of {X} was born",
   "name the town that {X}'s wife was born in", "what city was the woman married to {X} born in",
   "the birthplace of the woman who is married to {X}",
   "tell me the city where the woman {X} married was born"],
  ["what's the city in which the wife of {X} came into the world",
   "the town where the woman {X} is married to was born",
   "which city is it that {X}'s wife was born in",
   "identify the place where the wife of {X} was born"])
S("relative", "place_of_birth>located_in", P,
  ["the country that {X}'s birthplace belongs to", "which country is the city where {X} was born in",
   "what country contains the town {X} was born in",
   "name the country in which {X}'s city of birth lies",
   "the nation that the city {X} was born in is part of",
   "tell me the country where the city of {X}'s birth is"],
  ["to which country does the city {X} was born in belong",
   "the country in which lies the town where {X} was born",
   "the country whose territory includes {X}'s birthplace",
   "which nation is the birth city of {X} located in"])
S("relative", "spouse[gender=male]>education", P,
  ["the university which the husband of {X} attended",
   "which university did the man {X} married go to",
   "name the school that {X}'s husband studied at", "the college where the husband of {X} studied",
   "tell me the university that the man married to {X} graduated from",
   "what is the institution the husband of {X} was educated at"],
  ["which college is it that {X}'s husband attended",
   "the university the man who married {X} went to",
   "identify the school at which the husband of {X} studied",
   "what university did the person who is {X}'s husband graduate from"])
S("relative", "parent>employer", P,
  ["the companies that the parents of {X} work for", "name the employers of the parents of {X}",
   "the companies where {X}'s mother and father work",
   "what organisations do the parents of {X} work for",
   "tell me the firms that employ {X}'s parents",
   "which businesses employ the people who are {X}'s parents"],
  ["which companies are the parents of {X} employed by",
   "the businesses at which {X}'s mom and dad have jobs",
   "what are the firms the parents of {X} work at",
   "name the companies that {X}'s mum and dad are employed at"])
S("relative", "education>located_in", P,
  ["the city in which the university {X} attended is located",
   "which city is the school that {X} went to in", "in what city is the university where {X} studied",
   "name the city where {X}'s alma mater is", "the town that houses the university {X} graduated from",
   "tell me the city where the college {X} attended is located"],
  ["what city hosts the university that {X} studied at", "the city that is home to {X}'s alma mater",
   "where is the university {X} went to, which city",
   "which town is the institution that educated {X} found in"])
S("relative", "employer>headquartered_in>located_in", P,
  ["the country where the company that employs {X} is headquartered",
   "in which country is the firm {X} works for based",
   "name the country that the company {X} works at has its head office in",
   "which nation is the employer of {X} headquartered in",
   "tell me the country in which the company that pays {X} has its headquarters",
   "what country is home to the head office of the company {X} works for"],
  ["the nation in which the firm employing {X} has its headquarters",
   "where, country-wise, is the company {X} works for based",
   "which country hosts the main office of the business that employs {X}",
   "in what country does the organisation {X} works for have its head office"])
S("relative", "parent[gender=male]>place_of_death>located_in", P,
  ["the country in which the father of {X} died", "which country did the man who fathered {X} pass away in",
   "name the country where {X}'s dad died", "in what country did {X}'s father die",
   "the nation where the father of {X} passed away",
   "tell me the country in which {X}'s father breathed his last"],
  ["which nation is it that {X}'s father died in",
   "the country in which the man who is {X}'s father passed away",
   "where, as a country, did the father of {X} die", "identify the country of death of {X}'s dad"])

# ---- wh-type: the question word / type noun carries the answer type -----------------------
S("wh-type", "year_of_birth", P,
  ["when was {X} born", "what year was {X} born", "in which year was {X} born?",
   "{X} was born in what year", "tell me the birth year of {X}", "do you know when {X} was born"],
  ["in what year did {X} come into the world", "what's the year {X} was born in",
   "when did {X} come into the world?", "I'd like to know what year {X} was born"])
S("wh-type", "year_of_death", P,
  ["when did {X} die", "what year did {X} pass away", "in which year did {X} die?",
   "{X} died in what year", "tell me when {X} passed away", "what year was {X}'s death"],
  ["{X} passed on in which year", "when did {X} breathe their last?",
   "what was the year of {X}'s passing", "I want to know the year {X} died"])
S("wh-type", "gender", P,
  ["is {X} male or female", "is {X} a man or a woman?", "what gender is {X}",
   "{X}: man or woman", "tell me whether {X} is male or female", "what's the sex of {X}"],
  ["would {X} be a man or a woman", "male or female: {X}?", "is {X} a he or a she",
   "which sex is {X}"])
S("wh-type", "height_cm", P,
  ["how tall is {X}", "what is {X}'s height in cm", "how tall was {X}?",
   "{X} is how many centimetres tall", "tell me how tall {X} is", "what's the height of {X}"],
  ["how many cm tall is {X}", "what height does {X} stand at", "{X}'s height?",
   "how tall does {X} stand in centimetres"])
S("wh-type", "place_of_birth", P,
  ["in which city was {X} born", "what city was {X} born in", "{X} was born in which city?",
   "which city is {X} from by birth", "tell me the city where {X} was born",
   "Which city was {X} born in?"],
  ["which town saw the birth of {X}", "what city is on {X}'s birth certificate",
   "name the city of {X}'s birth", "what's the birth city of {X}"])
S("wh-type", "place_of_birth>located_in", P,
  ["in which country was {X} born", "what country was {X} born in?", "{X} was born in which country",
   "which country is {X}'s birthplace in", "tell me the country where {X} was born",
   "in what country did {X} come into the world"],
  ["what nation was {X} born in", "which country did {X} first see daylight in",
   "{X}'s country of birth?", "the country of {X}'s birth, which one is it"])
S("wh-type", "place_of_death>located_in", P,
  ["in which country did {X} die", "what country did {X} pass away in?", "{X} died in which country",
   "tell me the country where {X} died", "which country was {X} in when they died",
   "in what country did {X} breathe their last"],
  ["what nation did {X} die in", "which country was it that {X} died in?", "the country of {X}'s death?",
   "which country saw the death of {X}"])
S("wh-type", "place_of_residence>located_in", P,
  ["which country does {X} live in", "in what country is {X} living?", "what country is {X} based in",
   "tell me the country {X} lives in", "{X} lives in which country",
   "which country has {X} made their home in"],
  ["what nation does {X} reside in", "{X} has a home in what country",
   "in which country is {X}'s home", "what country does {X} call home these days"], filt="alive")
S("wh-type", "parent>place_of_birth>located_in", P,
  ["in which countries were {X}'s parents born", "which country were {X}'s parents born in",
   "{X}'s parents were born in which countries", "tell me the countries where {X}'s mother and father were born",
   "in what country were the parents of {X} born?", "which nations did {X}'s parents come into the world in"],
  ["what nations were {X}'s mom and dad born in", "birth countries of {X}'s mother and father?",
   "the countries of birth of {X}'s parents?", "which country did each of {X}'s parents come from by birth"])

# ---- topic-answer: the answer is (or includes) the topic itself --------------------------
S("topic-answer", "spouse[gender=male]>spouse", P,
  ["who is the spouse of {X}'s husband", "who is {X}'s husband married to",
   "who is {X}'s husband's partner", "tell me who {X}'s husband is married to",
   "name the spouse of {X}'s husband", "{X}'s husband's spouse?"],
  ["who did {X}'s husband wed?", "who's the other half of {X}'s husband",
   "the person {X}'s husband is married to is who?", "whom did {X}'s husband marry"])
S("topic-answer", "spouse[gender=female]>child", P,
  ["who are the children of {X}'s wife", "name the kids of {X}'s wife", "{X}'s wife's children?",
   "list the sons and daughters of {X}'s wife", "who are {X}'s wife's kids",
   "tell me the offspring of {X}'s wife"],
  ["which children does {X}'s wife have", "who did {X}'s wife have as kids",
   "give me the names of the children of {X}'s wife", "whose mother is {X}'s wife"])
S("topic-answer", "child[gender=male]>parent", P,
  ["who are the parents of {X}'s son", "name the mother and father of {X}'s son",
   "{X}'s son's parents?", "who are {X}'s son's mum and dad", "tell me the parents of {X}'s son",
   "whose child is {X}'s son"],
  ["{X}'s son was born to which two people", "{X}'s son is the child of whom",
   "give me the mom and dad of {X}'s son", "the son of {X}: who are his parents?"])
S("topic-answer", "parent[gender=female]>child", P,
  ["who are the children of {X}'s mother", "name all of {X}'s mum's kids", "{X}'s mother's children?",
   "list the kids of {X}'s mom", "who are {X}'s mother's sons and daughters",
   "tell me everyone {X}'s mother gave birth to"],
  ["which children does {X}'s mum have", "whom did {X}'s mother raise as her children",
   "give me every child of {X}'s mother", "the mother of {X}: who are her kids?"])
S("topic-answer", "sibling[gender=male]>sibling", P,
  ["who are the siblings of {X}'s brother", "name {X}'s brother's brothers and sisters",
   "who are {X}'s brother's siblings", "list the siblings of {X}'s brother",
   "tell me who {X}'s brother's siblings are", "{X}'s brother's siblings?"],
  ["{X}'s brother has which siblings", "the brother of {X}: who are his siblings?",
   "give me the brothers and sisters of {X}'s brother", "who shares parents with {X}'s brother"])

# ---- other: people other than the topic (topic excluded from gold) ------------------------
S("other", "parent>child-self", P,
  ["who are {X}'s siblings", "which other people share a parent with {X}",
   "name {X}'s brothers and sisters", "who else has the same parents as {X}",
   "tell me {X}'s siblings", "list everyone who shares a mother or father with {X}"],
  ["which people are brothers or sisters of {X}", "apart from {X}, who are the children of {X}'s parents",
   "give me the other kids of {X}'s parents", "who else did {X}'s parents have as children"])
S("other", "place_of_birth>^place_of_birth-self", P,
  ["who else was born in the same city as {X}", "which other people were born where {X} was born",
   "name people born in {X}'s birthplace, apart from {X}", "who shares a birthplace with {X}",
   "tell me who else comes from the same birth city as {X}",
   "list the others born in the city where {X} was born"],
  ["besides {X}, who was born in that same city", "which people share {X}'s city of birth",
   "who other than {X} was born in {X}'s birth city", "anyone else born in the same town as {X}?"])
S("other", "employer>^employer-self", P,
  ["who are {X}'s colleagues", "who else works for the same company as {X}",
   "which other people have the same employer as {X}", "name {X}'s coworkers",
   "tell me who works alongside {X} at the same firm",
   "list the people besides {X} employed by {X}'s company"],
  ["which people does {X} work with at the company", "apart from {X}, who is on the staff of {X}'s employer",
   "who else is employed where {X} is", "give me {X}'s workmates"])
S("other", "education>^education-self", P,
  ["who else studied at the same university as {X}", "which other people went to {X}'s alma mater",
   "name {X}'s fellow alumni", "who shares an alma mater with {X}",
   "tell me the other graduates of the university {X} attended",
   "list everyone besides {X} who studied where {X} did"],
  ["apart from {X}, who attended the same school", "which people were schoolmates of {X} at university",
   "who else graduated from {X}'s university?", "who, other than {X}, was educated at the same institution"])
S("other", "place_of_residence>^place_of_residence-self", P,
  ["who else lives in the same city as {X}", "which other people live where {X} lives",
   "name {X}'s fellow residents in the same city", "who shares a home city with {X}",
   "tell me who else is living in {X}'s town", "list the other residents of {X}'s city"],
  ["apart from {X}, who lives in that city", "who lives in the same town as {X}, besides {X}",
   "which others call {X}'s city home", "give me the people other than {X} living where {X} does"])

# ---- inverse-set: who / which things point at the anchor ----------------------------------
S("inverse-set", "^place_of_birth", ["city"],
  ["who was born in {X}", "which people were born in {X}", "list the people born in {X}",
   "name everyone who was born in {X}", "tell me who was born in {X}",
   "{X} is the birthplace of which people"],
  ["whose birthplace is {X}", "which individuals came into the world in {X}",
   "who are the natives of {X}", "people born in {X}?"])
S("inverse-set", "^profession", ["profession"],
  ["which people work as {X_a}", "list all the people whose job is {X}",
   "name everyone who works as {X_a}", "who has the profession {X}",
   "tell me which people are employed as {X_a}", "which people earn their living as {X_a}"],
  ["who makes a living as {X_a}", "give me every person whose occupation is {X}",
   "which individuals are by trade {X_a}", "people working as {X_a}?"])
S("inverse-set", "^cause_of_death", ["cause"],
  ["who died of {X}", "which people died from {X}", "list the people killed by {X}",
   "name everyone whose death was caused by {X}", "tell me who passed away from {X}",
   "which people lost their lives to {X}"],
  ["whose cause of death was {X}", "who succumbed to {X}",
   "which individuals were taken by {X}", "give me all the people {X} killed"])
S("inverse-set", "^employer", ["company"],
  ["who works for {X}", "which people are employed by {X}", "list the employees of {X}",
   "name everyone on the staff of {X}", "tell me who has a job at {X}", "who is on the payroll of {X}"],
  ["which people does {X} employ", "give me the staff of {X}", "whose employer is {X}",
   "who are the workers at {X}?"])
S("inverse-set", "^education", ["university"],
  ["who studied at {X}", "which people attended {X}", "list the alumni of {X}",
   "name the people educated at {X}", "tell me who graduated from {X}", "who went to {X}"],
  ["whose alma mater is {X}", "which individuals are graduates of {X}",
   "give me everyone who was a student at {X}", "{X} educated which people?"])
S("inverse-set", "^located_in", ["country"],
  ["which cities are in {X_t}", "list the cities located in {X_t}", "name the cities of {X_t}",
   "what cities does {X_t} contain", "tell me which towns are in {X_t}", "which cities lie in {X_t}"],
  ["what cities are there in {X_t}", "give me the towns situated in {X_t}", "{X_t} has which cities",
   "which urban centres belong to {X_t}"], nt=10, nh=5)
S("inverse-set", "^located_in>^place_of_death", ["country"],
  ["who died in {X_t}", "which people passed away in {X_t}", "list the people who died in {X_t}",
   "name everyone who died somewhere in {X_t}", "tell me who breathed their last in {X_t}",
   "which people met their death in {X_t}"],
  ["whose place of death is in {X_t}", "which individuals passed on in {X_t}",
   "who ended their days in {X_t}", "{X_t} is where which people died?"], nt=10, nh=5)
S("inverse-set", "^located_in>^education", ["city"],
  ["who studied in {X}", "which people went to university in {X}",
   "list the people who attended a university in {X}", "name everyone educated at a school in {X}",
   "tell me who got a degree in {X}", "which people are alumni of a university located in {X}"],
  ["whose alma mater is in {X}", "which individuals did their studies in {X}",
   "give me the people who were students in {X}", "who graduated from a college in {X}?"])
S("inverse-set", "^nationality&^profession", ["country", "profession"],
  ["which nationals of {X_t} work as {Y_a}", "who among the citizens of {X_t} is {Y_a}",
   "list the people whose nationality is {X} and whose profession is {Y}",
   "name the citizens of {X_t} employed as {Y_a}",
   "tell me which people holding {X} citizenship work as {Y_a}",
   "which people with {X} nationality have the job {Y}"],
  ["give me nationals of {X_t} whose job is {Y}", "who works as {Y_a} and holds a passport from {X_t}",
   "which citizens of {X_t} make a living as {Y_a}", "people whose nationality is {X}, working as {Y_a}?"])
S("inverse-set", "^located_in>^place_of_birth&^profession", ["country", "profession"],
  ["which people born in {X_t} work as {Y_a}", "who was born in {X_t} and is {Y_a}",
   "name every {Y} born in {X_t}", "list the people born somewhere in {X_t} whose job is {Y}",
   "tell me which {Y} was born in {X_t}", "which people whose birthplace is in {X_t} have the job {Y}"],
  ["any {Y} who was born in {X_t}?", "give me people born in {X_t} that make a living as {Y_a}",
   "of those born in {X_t}, who works as {Y_a}", "{Y_a} born in {X_t}: who?"])

# ---- intersection: two anchors ------------------------------------------------------------
S("intersection", "^place_of_birth&^profession", ["city", "profession"],
  ["which people born in {X} work as {Y_a}", "who among the people born in {X} is {Y_a}",
   "list those born in {X} whose job is {Y}", "name every {Y} born in {X}",
   "tell me who was born in {X} and works as {Y_a}", "which {Y} was born in {X}"],
  ["any {Y} born in {X}?", "give me the people born in {X} whose profession is {Y}",
   "born in {X} and working as {Y_a}: who?", "who, among {X} natives, earns a living as {Y_a}"])
S("intersection", "child&^profession", ["person", "profession"],
  ["who among the children of {X} is {Y_a}", "which of {X}'s kids works as {Y_a}",
   "name {X}'s children whose job is {Y}", "tell me which child of {X} is {Y_a}",
   "list the kids of {X} employed as {Y_a}", "is any of {X}'s children {Y_a}? who"],
  ["which of the offspring of {X} became {Y_a}", "give me every child of {X} that works as {Y_a}",
   "{X}'s sons or daughters working as {Y_a}?", "who, of {X}'s children, makes a living as {Y_a}"])
S("intersection", "^profession&^religion", ["profession", "religion"],
  ["which people who work as {X_a} follow {Y}", "who is {X_a} and practises {Y}",
   "name every {X} who follows {Y}", "list the adherents of {Y} whose job is {X}",
   "tell me which followers of {Y} work as {X_a}", "which {X} is an adherent of {Y}"],
  ["give me followers of {Y} employed as {X_a}", "any {X} practising {Y}?",
   "who works as {X_a} and belongs to {Y}", "people whose faith is {Y} and whose occupation is {X}?"])
S("intersection", "^education&^profession", ["university", "profession"],
  ["which graduates of {X} work as {Y_a}", "who studied at {X} and became {Y_a}",
   "name every {Y} educated at {X}", "list the alumni of {X} whose job is {Y}",
   "tell me which {X} alumni are working as {Y_a}", "which {Y} went to {X}"],
  ["any {Y} who attended {X}?", "give me people who studied at {X} and work as {Y_a}",
   "who among {X}'s graduates makes a living as {Y_a}", "former students of {X} employed as {Y_a}?"])
S("intersection", "^cause_of_death&^nationality", ["cause", "country"],
  ["which citizens of {Y_t} died of {X}", "who with {Y} nationality died from {X}",
   "name the nationals of {Y_t} who were killed by {X}",
   "list people whose nationality is {Y} and whose cause of death was {X}",
   "tell me which people holding {Y} citizenship passed away from {X}",
   "which nationals of {Y_t} lost their lives to {X}"],
  ["give me citizens of {Y_t} who succumbed to {X}", "{X} killed which citizens of {Y_t}?",
   "people with {Y} citizenship who died of {X}?", "among nationals of {Y_t}, who was taken by {X}"])

# ---- plain: the relation's own words -----------------------------------------------------
S("plain", "place_of_birth", P,
  ["what is the place of birth of {X}", "{X} place of birth", "tell me the place of birth of {X}",
   "what's {X}'s place of birth?", "give the place of birth for {X}", "place of birth of {X}?"],
  ["for my records, what's the place of birth of {X}", "what place of birth is recorded for {X}",
   "place of birth, {X}: which city", "could you tell me {X}'s place of birth"])
S("plain", "spouse", P,
  ["who is the spouse of {X}", "{X}'s spouse?", "name the spouse of {X}", "who is {X}'s spouse",
   "tell me {X}'s spouse", "what is the name of {X}'s spouse"],
  ["spouse of {X}?", "who is listed as the spouse of {X}", "I'd like to know the spouse of {X}",
   "the spouse of {X}, who would that be"])
S("plain", "profession", P,
  ["what is the profession of {X}", "{X}'s profession?", "tell me {X}'s profession",
   "which profession does {X} have", "name the profession of {X}", "what professions does {X} have"],
  ["what profession is {X} in", "profession of {X}?", "could you give me the profession of {X}",
   "which professions are listed for {X}"])
S("plain", "nationality", P,
  ["what is the nationality of {X}", "{X}'s nationality?", "tell me the nationality of {X}",
   "which nationality does {X} have", "what nationality is {X}", "name {X}'s nationality"],
  ["nationality of {X}?", "I'd like to know {X}'s nationality", "what nationalities does {X} hold",
   "could you look up the nationality of {X}"])
S("plain", "cause_of_death", P,
  ["what was the cause of death of {X}", "{X} cause of death", "tell me {X}'s cause of death",
   "what is the cause of death for {X}?", "name the cause of death of {X}",
   "what cause of death is given for {X}"],
  ["cause of death of {X}?", "could you tell me the cause of {X}'s death",
   "what was {X}'s cause of death", "I'm looking for the cause of death of {X}"])
S("plain", "religion", P,
  ["what is the religion of {X}", "{X}'s religion?", "which religion does {X} follow",
   "tell me the religion of {X}", "what religion is {X}", "name {X}'s religion"],
  ["religion of {X}?", "could you tell me what religion {X} has", "what religion does {X} belong to",
   "I'd like to know {X}'s religion"])
S("plain", "capital", ["country"],
  ["what is the capital of {X_t}", "name the capital of {X_t}", "which city is the capital of {X_t}",
   "tell me the capital of {X_t}", "capital city of {X_t}?", "What's the capital of {X_t}?"],
  ["the capital of {X_t} is which city", "I forgot the capital of {X_t}, what is it",
   "what city serves as the capital of {X_t}", "{X}: capital?"], nt=10, nh=5)
S("plain", "official_language", ["country"],
  ["what is the official language of {X_t}", "which official languages does {X_t} have",
   "name the official language of {X_t}", "tell me the official language of {X_t}",
   "official language of {X_t}?", "what are the official languages of {X_t}"],
  ["{X}: official language?", "could you tell me what the official language of {X_t} is",
   "which languages are official in {X_t}", "I'd like to know the official languages of {X_t}"],
  nt=10, nh=5)
S("plain", "located_in", ["city"],
  ["which country is {X} located in", "{X} is located in which country",
   "what country is {X} located in?", "tell me the country {X} is located in",
   "in which country is {X} located", "where is {X} located"],
  ["{X}, located in what country?", "could you say which country {X} is located in",
   "the city of {X} is located in which nation", "what nation is {X} located in"])


# ---------------------------------------------------------------------------------------
# Path executor
# ---------------------------------------------------------------------------------------

STEP_RE = re.compile(r"^(\^?)([a-z_]+)(?:\[gender=(male|female)\])?$")


class Graph:
    def __init__(self, triples):
        self.fwd: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
        self.inv: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
        self.nodes: set[str] = set()
        for s, r, o in triples:
            self.fwd[(s, r)].add(o)
            self.inv[(o, r)].add(s)
            self.nodes.add(s)
            self.nodes.add(o)

    def run_path(self, start: str, path: str) -> set[str]:
        cur = {start}
        for step in path.split(">"):
            m = STEP_RE.match(step)
            if not m:
                raise ValueError(f"bad step {step!r}")
            inv, rel, gender = m.groups()
            if rel not in RELATIONS:
                raise ValueError(f"unknown relation {rel!r}")
            index = self.inv if inv else self.fwd
            nxt: set[str] = set()
            for e in cur:
                nxt |= index.get((e, rel), set())
            if gender:
                nxt = {e for e in nxt if gender in self.fwd.get((e, "gender"), set())}
            cur = nxt
        return cur

    def execute(self, qtype: str, anchors: list[str]) -> set[str]:
        q = qtype
        drop_self = q.endswith("-self")
        if drop_self:
            q = q[: -len("-self")]
        branches = q.split("&")
        if len(branches) != len(anchors):
            raise ValueError(f"{qtype}: {len(branches)} branches but {len(anchors)} anchors")
        result = None
        for a, b in zip(anchors, branches, strict=False):
            r = self.run_path(a, b)
            result = r if result is None else (result & r)
        if drop_self:
            result.discard(anchors[0])
        return result


def hops_of(qtype: str) -> int:
    q = qtype[:-5] if qtype.endswith("-self") else qtype
    return max(len(b.split(">")) for b in q.split("&"))


# ---------------------------------------------------------------------------------------
# Question generation
# ---------------------------------------------------------------------------------------

def with_article(label: str) -> str:
    return ("an " if label[0].lower() in "aeiou" else "a ") + label


def with_the(label: str) -> str:
    return "the " + label if label in COUNTRIES_WITH_THE else label


def bindings(anchors: list[str]) -> dict:
    b = {}
    for name, lab in zip(("X", "Y"), anchors, strict=False):
        b[name] = lab
        b[name + "_a"] = with_article(lab)
        b[name + "_t"] = with_the(lab)
    return b


def anchor_pools(world: World, g: Graph) -> dict[str, list[str]]:
    religions = []
    for p in world.people:
        if p.religion and p.religion not in religions:
            religions.append(p.religion)
    return {
        "person": [p.label for p in world.people],
        "city": list(ALL_CITIES),
        "country": list(COUNTRY_NAMES),
        "profession": [x for x, _ in PROFESSIONS],
        "religion": religions,
        "university": [u for u, _ in UNIVERSITIES],
        "company": [c for c, _ in COMPANIES],
        "cause": list(CAUSES),
    }


def candidates(spec, g: Graph, pools, alive: set[str]):
    types = spec["anchors"]
    combos = [[a] for a in pools[types[0]]]
    if len(types) == 2:
        combos = [[a, b] for a in pools[types[0]] for b in pools[types[1]]]
    out = []
    for anchors in combos:
        if spec["filt"] == "alive" and anchors[0] not in alive:
            continue
        gold = g.execute(spec["qtype"], anchors)
        if 1 <= len(gold) <= MAX_ANSWERS:
            out.append((anchors, sorted(gold)))
    return out


def select(cands, n, rng, picked_keys, use_count, global_use, cap):
    """Pick up to n candidates, spreading anchors: prefer anchors that are used little
    (in this spec and overall); `cap` limits how often one anchor value is reused."""
    order = cands[:]
    rng.shuffle(order)
    order.sort(key=lambda c: (global_use[c[0][0]], use_count[tuple(c[0])[0]]))
    chosen = []
    for relax in (False, True):
        for c in order:
            if len(chosen) >= n:
                break
            key = tuple(c[0])
            if key in picked_keys:
                continue
            if not relax and any(use_count[a] >= cap for a in c[0]):
                continue
            chosen.append(c)
            picked_keys.add(key)
            for a in c[0]:
                use_count[a] += 1
        if len(chosen) >= n:
            break
    return chosen


def make_questions(world: World, g: Graph):
    rng = random.Random(SEED + 1)
    pools = anchor_pools(world, g)
    alive = {p.label for p in world.people if p.yod is None}
    global_use: collections.Counter = collections.Counter()
    files = {"tune": [], "held": []}
    seen_q: set[str] = set()
    report = []
    for spec in SPECS:
        cands = candidates(spec, g, pools, alive)
        picked: set = set()
        use_count: collections.Counter = collections.Counter()
        cap = 1 if len(spec["anchors"]) == 1 else 2
        tune = select(cands, spec["nt"], rng, picked, use_count, global_use, cap)
        held = select(cands, spec["nh"], rng, picked, use_count, global_use, cap)
        if len(held) < spec["nh"]:  # tiny pool: reuse tuning topics with held-out wordings
            extra = [c for c in tune if c not in held]
            held += extra[: spec["nh"] - len(held)]
        report.append((spec["kind"], spec["qtype"], len(cands), len(tune), len(held)))
        for part, chosen, templates in (("tune", tune, spec["tune"]), ("held", held, spec["held"])):
            off = rng.randrange(len(templates))
            for i, (anchors, gold) in enumerate(chosen):
                tpl = templates[(off + i) % len(templates)]
                q = tpl.format(**bindings(anchors))
                if q in seen_q:
                    continue
                seen_q.add(q)
                global_use[anchors[0]] += 1
                files[part].append(dict(question=q, answers="|".join(gold), qtype=spec["qtype"],
                                        kind=spec["kind"], hops=hops_of(spec["qtype"]),
                                        template=tpl, anchors=anchors))
    for part in files:
        rng.shuffle(files[part])
    return files, report


# ---------------------------------------------------------------------------------------
# Checks
# ---------------------------------------------------------------------------------------

STOP = {"of", "the", "a", "an", "in", "to"}


def words(s: str) -> set[str]:
    s = re.sub(r"\{[A-Z](_[at])?\}", " ", s)
    return {w for w in re.findall(r"[a-z]+", s.lower())}


def check_templates():
    all_t = collections.Counter()
    tune_t, held_t = set(), set()
    for spec in SPECS:
        assert len(spec["tune"]) >= 6, spec["qtype"]
        assert len(spec["held"]) >= 4, spec["qtype"]
        for t in spec["tune"] + spec["held"]:
            all_t[t] += 1
            for ph in re.findall(r"\{([^}]*)\}", t):
                assert ph in ("X", "X_a", "X_t", "Y", "Y_a", "Y_t"), (t, ph)
                if ph.startswith("Y"):
                    assert len(spec["anchors"]) == 2, t
        tune_t |= set(spec["tune"])
        held_t |= set(spec["held"])
        if spec["kind"] == "synonym":
            rel_words = set(spec["qtype"].split("_")) - STOP
            for t in spec["tune"] + spec["held"]:
                bad = words(t) & rel_words
                assert not bad, (t, bad)
    dup = [t for t, c in all_t.items() if c > 1]
    assert not dup, dup
    assert not (tune_t & held_t)
    # normalised comparison as well (case, punctuation)
    def norm(t):
        return " ".join(re.findall(r"[a-z{}_]+", t.lower()))

    assert not ({norm(t) for t in tune_t} & {norm(t) for t in held_t})


def check_questions(files, g: Graph):
    for rows in files.values():
        for r in rows:
            for a in r["answers"].split("|"):
                assert a in g.nodes, (r, a)
            for a in r["anchors"]:
                assert a in r["question"], r
                assert a in g.nodes, r
            assert "\t" not in r["question"] and "\n" not in r["question"]
            assert 1 <= len(r["answers"].split("|")) <= MAX_ANSWERS
            # recompute gold independently of the generation loop
            assert "|".join(sorted(g.execute(r["qtype"], r["anchors"]))) == r["answers"]
    qt = {r["question"] for r in files["tune"]}
    qh = {r["question"] for r in files["held"]}
    assert not (qt & qh)
    assert len(qt) == len(files["tune"]) and len(qh) == len(files["held"])


def check_kb(world: World, triples):
    g = collections.defaultdict(set)
    for s, r, o in triples:
        g[(s, r)].add(o)
    labels = [p.label for p in world.people]
    assert len(labels) == len(set(labels))
    other = set(ALL_CITIES) | set(COUNTRY_NAMES) | {u for u, _ in UNIVERSITIES} | {c for c, _ in COMPANIES}
    assert not (set(labels) & other)
    for p in labels:
        for c in g[(p, "child")]:
            assert p in g[(c, "parent")]
        for c in g[(p, "parent")]:
            assert p in g[(c, "child")]
        for s in g[(p, "spouse")]:
            assert p in g[(s, "spouse")]
        for s in g[(p, "sibling")]:
            assert g[(p, "parent")] & g[(s, "parent")]
            assert p in g[(s, "sibling")]
        yob = int(next(iter(g[(p, "year_of_birth")])))
        for c in g[(p, "child")]:
            cy = int(next(iter(g[(c, "year_of_birth")])))
            assert cy >= yob + 15, (p, c)
            if g[(p, "year_of_death")]:
                assert int(next(iter(g[(p, "year_of_death")]))) >= cy, (p, c)
        if g[(p, "year_of_death")]:
            assert int(next(iter(g[(p, "year_of_death")]))) < PRESENT_YEAR
            assert int(next(iter(g[(p, "year_of_death")]))) >= yob
    for s, r, o in triples:
        for x in (s, r, o):
            assert "\t" not in x and "\n" not in x and "|" not in x and x.strip() == x


# ---------------------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------------------

KIND_DOC = [
    ("synonym", "the relation is named by words that share none with its KB name "
                "(\"where was X born\", \"X's alma mater\", \"what did X die of\")"),
    ("kinship", "colloquial family words (dad, mum, kids, wife, brother, granny, in-laws …); "
                "gendered words keep only answers of that gender (`[gender=…]` in the qtype)"),
    ("possessive", "possessive chains, 2–3 hops (\"X's wife's birthplace\", \"X's son's spouse's nationality\")"),
    ("relative", "relative clauses / nested noun phrases (\"the city where the wife of X was born\")"),
    ("wh-type", "the question word or a type noun carries the answer type: when/what year → year, "
                "man or woman → gender, how tall → height, which country vs which city over place relations"),
    ("topic-answer", "the path leads back to (or through) the topic and gold keeps it "
                     "(\"who is the spouse of X's husband\" = X, \"who are the parents of X's son\" includes X)"),
    ("other", "asks for people other than the topic; the topic is removed from gold (`-self`)"),
    ("inverse-set", "set-valued inverse questions anchored on a place, profession, cause, company, "
                    "university or country (\"who was born in Lyon\", \"which people born in France work as a nurse\")"),
    ("intersection", "two anchors intersected (\"which people born in Lyon work as a lawyer\", "
                     "\"who among the children of X is a doctor\")"),
    ("plain", "direct wordings with the relation's own words (\"what is the place of birth of X\")"),
]


def write_tsv(path, rows):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("question\tanswers\tqtype\tkind\thops\n")
        for r in rows:
            f.write(f"{r['question']}\t{r['answers']}\t{r['qtype']}\t{r['kind']}\t{r['hops']}\n")


def count_table(rows_by_part, key, order):
    lines = [f"| {key} | tuning (`questions.tsv`) | held-out (`questions_heldout.tsv`) |", "|---|---|---|"]
    ct = collections.Counter(r[key] for r in rows_by_part["tune"])
    ch = collections.Counter(r[key] for r in rows_by_part["held"])
    for k in order:
        lines.append(f"| {k} | {ct[k]} | {ch[k]} |")
    lines.append(f"| **total** | **{sum(ct.values())}** | **{sum(ch.values())}** |")
    return "\n".join(lines)


def write_readme(path, world, triples, files, report):
    rel_count = collections.Counter(r for _, r, _ in triples)
    people = world.people
    n_dead = sum(1 for p in people if p.yod is not None)
    religions = sorted({p.religion for p in people if p.religion})
    ethn = sorted({p.ethnicity for p in people if p.ethnicity})
    langs = sorted({x for p in people for x in p.languages} | {x for c in COUNTRIES for x in c[2]})
    causes = sorted({p.cod for p in people if p.cod})
    profs = sorted({x for p in people for x in p.professions})
    kinds = [k for k, _ in KIND_DOC]
    hops = sorted({r["hops"] for part in files.values() for r in part})
    ex_t = files["tune"][:5]
    L = []
    L.append("# family: people, families and places (a small Freebase-like people slice)\n")
    L.append(
        "A fully generated genealogy / biography knowledge base (fictional people with realistic names, "
        "their families over four or five generations, and real country / city / university names used as "
        "labels) with labelled questions for knowledge-graph question answering. Relation names are natural "
        "snake_case names as a real KB would have them, and the KB deliberately contains relations that are "
        "easy to confuse (`place_of_birth` / `place_of_death` / `place_of_residence`, `nationality` vs the "
        "country of the birthplace, `parent` / `child` / `sibling`, `official_language` vs "
        "`languages_spoken`), so answering needs the right relation, not just a related one.\n")
    L.append("Two question files share the same relation paths but use **disjoint wording templates**: "
             "`questions.tsv` is for tuning, `questions_heldout.tsv` only for the final measurement. The "
             "held-out templates were written separately (no template string, nor its case/punctuation-"
             "normalised form, occurs in both files; the script asserts this), and where the pool of topics "
             "allows, held-out questions are also about different topic entities than the tuning questions "
             "of the same path.\n")
    L.append("## How it is generated\n")
    L.append("```\npython scripts/devsets/build_family.py\n```\n")
    L.append(f"Python 3.11 standard library only, deterministic (fixed seed `{SEED}`; no iteration over "
             "unordered sets), so running it again gives byte-identical files. Change the script and rerun it "
             "rather than editing the files by hand. The script also checks the data before writing: family "
             "links are consistent (`child` is the exact inverse of `parent`, `spouse` and `sibling` are "
             "symmetric, siblings share a parent, parents are at least 15 years older than their children and "
             "alive at their birth), every label is unique, every answer is a node of the KB, and the gold of "
             "every question is recomputed by executing its `qtype` on the KB.\n")
    L.append("Families: a few founding couples per country (born 1870s–1900s) have 0–5 children each; "
             "children marry each other across families (never cousins or siblings) or marry people from "
             "outside the recorded families (who have no parents in the KB); this repeats until the youngest "
             "generation (born up to 2008). Children take the father's surname (Polish surnames take the "
             "feminine form for daughters; Chinese names are written surname first when the given name is Chinese too). A few couples are "
             "same-sex (no children recorded). Professions, religion and ethnicity partly run in families; "
             "nationality usually follows the father, sometimes also the mother or the country of birth "
             "(so `nationality` and `place_of_birth>located_in` differ for some people). Each person has "
             "some attributes missing, as in a real KB.\n")
    L.append("## Files\n")
    L.append(f"- `kb.tsv`: one triple per line, `subject<TAB>relation<TAB>object`, no header "
             f"({len(triples):,} triples). Subjects and objects are labels; every label names exactly one "
             "entity. Years and heights are literal objects (`1954`, `178`).")
    L.append(f"- `questions.tsv` ({len(files['tune'])} questions) and `questions_heldout.tsv` "
             f"({len(files['held'])} questions): header `question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops`.")
    L.append("  - `question`: English, written as different users would ask (questions, \"tell me …\", "
             "\"name …\", fragments). The topic entity appears as its exact KB label, without brackets.")
    L.append("  - `answers`: **all** gold answers (KB labels or literal values), sorted, joined by `|`. "
             f"Questions with no answer or more than {MAX_ANSWERS} answers were dropped.")
    L.append("  - `qtype`: the relation path that was executed for the gold (grammar below).")
    L.append("  - `kind`: the question category (below). `hops`: number of relation hops on the longest branch.")
    L.append('- `questions_probe.tsv`: 40 questions written by hand on 2026-12-06 (not by the build')
    L.append("  script) for a few of this KB's own entities, the way an analyst might ask about a woman's husband, sisters and parents;")
    L.append('  answers read off `kb.tsv`. Used to find failures and check changes, so tuning data, not')
    L.append('  held-out (`python benchmarks/devsets.py --split probe`).')
    L.append("- `README.md`: this file (generated by the same script).\n")
    L.append("### qtype grammar\n")
    L.append("- `a>b`: follow relation `a`, then `b`; `^a`: follow `a` backwards (from object to subject).")
    L.append("- `rel[gender=female]`: follow `rel`, keep only nodes whose `gender` is `female` "
             "(used for gendered words such as wife, son, granny).")
    L.append("- `p&q`: intersection; `p` starts at the first anchor named in the question, `q` at the second "
             "(e.g. `^place_of_birth&^profession` for \"which people born in Lyon work as a nurse\").")
    L.append("- a trailing `-self`: the topic entity is removed from the result (\"who else …\").\n")
    L.append("## Entities\n")
    L.append("| kind | count | examples |\n|---|---|---|")
    L.append(f"| person | {len(people)} ({n_dead} deceased) | {people[0].label}, {people[-1].label} |")
    L.append(f"| country | {len(COUNTRIES)} | {', '.join(COUNTRY_NAMES[:4])} |")
    L.append(f"| city | {len(ALL_CITIES)} | {', '.join(ALL_CITIES[:4])} |")
    L.append(f"| university | {len(UNIVERSITIES)} | {UNIVERSITIES[0][0]}, {UNIVERSITIES[3][0]} |")
    L.append(f"| company (invented) | {len(COMPANIES)} | {COMPANIES[0][0]}, {COMPANIES[1][0]} |")
    L.append(f"| profession | {len(profs)} | {', '.join(profs[:5])} |")
    L.append(f"| religion | {len(religions)} | {', '.join(religions[:5])} |")
    L.append(f"| ethnic group | {len(ethn)} | {', '.join(ethn[:4])} |")
    L.append(f"| language | {len(langs)} | {', '.join(langs[:5])} |")
    L.append(f"| cause of death | {len(causes)} | {', '.join(causes[:5])} |")
    L.append("| gender | 2 | male, female |\n")
    L.append("## Relations\n")
    L.append("| relation | subject → object | triples | notes |\n|---|---|---|---|")
    for r, sig, note in RELATION_DOC:
        L.append(f"| `{r}` | {sig} | {rel_count[r]} | {note} |")
    L.append("")
    L.append("## Question kinds\n")
    for k, d in KIND_DOC:
        L.append(f"- `{k}`: {d}")
    L.append("")
    L.append("### Counts per kind\n")
    L.append(count_table(files, "kind", kinds) + "\n")
    L.append("### Counts per hops\n")
    L.append(count_table(files, "hops", hops) + "\n")
    L.append("### Paths\n")
    L.append("Each path has at least 6 tuning templates and at least 4 different held-out templates. "
             "`candidates` is the number of topics (or topic pairs) with 1–15 answers.\n")
    L.append("| kind | qtype | hops | candidates | tuning | held-out |\n|---|---|---|---|---|---|")
    ct = collections.Counter((r["kind"], r["qtype"]) for r in files["tune"])
    ch = collections.Counter((r["kind"], r["qtype"]) for r in files["held"])
    for kind, qtype, ncand, _, _ in report:
        L.append(f"| {kind} | `{qtype}` | {hops_of(qtype)} | {ncand} | {ct[(kind, qtype)]} | {ch[(kind, qtype)]} |")
    L.append("")
    L.append("### Examples\n")
    L.append("```")
    for r in ex_t:
        L.append(f"{r['question']}\t{r['answers']}\t{r['qtype']}\t{r['kind']}\t{r['hops']}")
    L.append("```\n")
    L.append("## Caveats\n")
    L.append("- Gold is exactly what the KB says along the path; missing attributes are simply missing "
             "(a person with no recorded religion gets no religion question).")
    L.append("- Gendered kinship words filter by gender only (\"wife\" = a `spouse` whose gender is `female`); "
             "a question whose filtered answer set would be empty was dropped.")
    L.append("- `place_of_residence` questions in the present tense (\"where does X live\") are asked only "
             "about living people.")
    L.append("- `topic-answer` gold is the honest result of the path and may include the topic; `other` "
             "gold never includes the topic.")
    L.append("- Real country, city and university names are used as labels only; all people, families, "
             "companies and facts are fictional.\n")
    L.append("## Licence\n")
    L.append("CC0 1.0 (public domain dedication). The data is generated; the given-name and surname lists "
             "are common names written for the generator; place and university names are facts. No "
             "third-party data set was used.")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(L) + "\n")


def main():
    check_templates()
    rng = random.Random(SEED)
    world = World(rng)
    world.build_families()
    world.assign_attributes()
    triples = build_kb(world)
    check_kb(world, triples)
    g = Graph(triples)
    files, report = make_questions(world, g)
    check_questions(files, g)
    os.makedirs(OUT_DIR, exist_ok=True)
    with open(os.path.join(OUT_DIR, "kb.tsv"), "w", encoding="utf-8", newline="\n") as f:
        for s, r, o in triples:
            f.write(f"{s}\t{r}\t{o}\n")
    write_tsv(os.path.join(OUT_DIR, "questions.tsv"), files["tune"])
    write_tsv(os.path.join(OUT_DIR, "questions_heldout.tsv"), files["held"])
    write_readme(os.path.join(OUT_DIR, "README.md"), world, triples, files, report)
    print(f"people={len(world.people)} triples={len(triples)} "
          f"tuning={len(files['tune'])} heldout={len(files['held'])}")
    if "--report" in sys.argv:
        for row in report:
            print(*row, sep="\t")


if __name__ == "__main__":
    main()
