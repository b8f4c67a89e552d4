"""Build the `football` evaluation set: a small international-football KB plus questions.

Writes into benchmarks/data/football/:

- kb.tsv                 one triple per line, ``subject<TAB>relation<TAB>object``, no header
- questions.tsv          the TUNING questions
- questions_heldout.tsv  HELD-OUT questions, worded with templates disjoint from the tuning ones
- README.md              what the data is, relations, question kinds and counts, licence

Question files have the header ``question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops``. Gold
answers are computed by executing the qtype's relation path on the generated KB.

    python scripts/devsets/build_football.py     # deterministic: fixed seed, stdlib only
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "data" / "football"
SEED = 20250611
MAX_ANSWERS = 15
N_TUNE = 15  # questions per spec in the tuning file (fewer where topics run out)
N_HELD = 7  # questions per spec in the held-out file

# ---------------------------------------------------------------------------------------------
# World: countries, cities, name pools
# ---------------------------------------------------------------------------------------------

# country -> (demonym, name pool, cities (first ones likelier as birthplaces))
COUNTRIES: dict[str, tuple[str, str, list[str]]] = {
    "England": ("English", "en", ["London", "Manchester", "Liverpool", "Birmingham", "Leeds",
                                  "Newcastle", "Sheffield", "Bristol", "Nottingham", "Leicester"]),
    "Spain": ("Spanish", "es", ["Madrid", "Barcelona", "Seville", "Valencia", "Bilbao", "Malaga",
                                "Zaragoza", "Vigo", "Gijon"]),
    "Italy": ("Italian", "it", ["Rome", "Milan", "Naples", "Turin", "Florence", "Genoa",
                                "Bologna", "Verona"]),
    "Germany": ("German", "de", ["Berlin", "Munich", "Hamburg", "Cologne", "Dortmund",
                                 "Frankfurt", "Stuttgart", "Leipzig", "Bremen"]),
    "France": ("French", "fr", ["Paris", "Marseille", "Lyon", "Lille", "Bordeaux", "Nantes",
                                "Toulouse"]),
    "Portugal": ("Portuguese", "pt", ["Lisbon", "Porto", "Braga", "Coimbra", "Faro"]),
    "Netherlands": ("Dutch", "nl", ["Amsterdam", "Rotterdam", "Eindhoven", "Utrecht",
                                    "Groningen"]),
    "Brazil": ("Brazilian", "br", ["Sao Paulo", "Rio de Janeiro", "Belo Horizonte",
                                   "Porto Alegre", "Recife", "Curitiba", "Fortaleza"]),
    "Argentina": ("Argentine", "ar", ["Buenos Aires", "Rosario", "Cordoba", "La Plata",
                                      "Mendoza"]),
    "Japan": ("Japanese", "jp", ["Tokyo", "Yokohama", "Osaka", "Kobe", "Saitama", "Nagoya"]),
    "United States": ("American", "us", ["Los Angeles", "New York", "Seattle", "Chicago",
                                         "Houston", "Atlanta", "Carson", "Harrison"]),
    "Turkey": ("Turkish", "tr", ["Istanbul", "Ankara", "Izmir", "Trabzon", "Bursa"]),
    "Belgium": ("Belgian", "be", ["Brussels", "Antwerp", "Ghent", "Liege"]),
    "Croatia": ("Croatian", "hr", ["Zagreb", "Rijeka", "Osijek"]),
    "Uruguay": ("Uruguayan", "uy", ["Montevideo", "Salto", "Paysandu"]),
    "Colombia": ("Colombian", "co", ["Bogota", "Medellin", "Cali", "Barranquilla"]),
    "Mexico": ("Mexican", "mx", ["Mexico City", "Guadalajara", "Monterrey", "Puebla"]),
    "Nigeria": ("Nigerian", "ng", ["Lagos", "Abuja", "Kano", "Enugu"]),
    "Ghana": ("Ghanaian", "gh", ["Accra", "Kumasi", "Tamale"]),
    "Senegal": ("Senegalese", "sn", ["Dakar", "Thies", "Ziguinchor"]),
    "Morocco": ("Moroccan", "ma", ["Casablanca", "Rabat", "Marrakesh", "Fez", "Tangier"]),
    "South Korea": ("South Korean", "kr", ["Seoul", "Busan", "Incheon", "Daegu"]),
    "Denmark": ("Danish", "dk", ["Copenhagen", "Aarhus", "Odense"]),
    "Sweden": ("Swedish", "se", ["Stockholm", "Gothenburg", "Malmo"]),
    "Poland": ("Polish", "pl", ["Warsaw", "Krakow", "Gdansk", "Wroclaw"]),
    "Serbia": ("Serbian", "rs", ["Belgrade", "Novi Sad", "Kragujevac"]),
    "Scotland": ("Scottish", "sc", ["Glasgow", "Edinburgh", "Aberdeen", "Dundee"]),
    "Norway": ("Norwegian", "no", ["Oslo", "Bergen", "Trondheim"]),
}

# Countries whose players are sometimes born in another country of the KB.
DIASPORA = {
    "Senegal": ["France"], "Morocco": ["France", "Netherlands", "Belgium", "Spain"],
    "Nigeria": ["England"], "Ghana": ["England", "Netherlands"], "Turkey": ["Germany"],
    "Croatia": ["Germany"], "Serbia": ["Germany"], "Scotland": ["England"],
    "Mexico": ["United States"], "Uruguay": ["Spain"], "Argentina": ["Spain", "Italy"],
    "Poland": ["Germany"], "Portugal": ["France"], "Colombia": ["United States"],
    "Belgium": ["Netherlands"],
}

# Weights for drawing a foreign player's origin.
FOREIGN_WEIGHT = {
    "Brazil": 8, "Argentina": 6, "France": 6, "Spain": 5, "Portugal": 5, "Netherlands": 4,
    "Belgium": 5, "Croatia": 4, "Uruguay": 4, "Colombia": 4, "Mexico": 3, "Nigeria": 4,
    "Ghana": 3, "Senegal": 4, "Morocco": 4, "South Korea": 3, "Japan": 3, "Denmark": 3,
    "Sweden": 3, "Poland": 3, "Serbia": 3, "Scotland": 3, "Norway": 3, "England": 3,
    "Germany": 3, "Italy": 2, "United States": 2, "Turkey": 2,
}
COACH_WEIGHT = {
    "Spain": 5, "Italy": 5, "Germany": 5, "Portugal": 4, "Argentina": 4, "Netherlands": 3,
    "France": 3, "England": 2, "Brazil": 2, "Croatia": 1, "Serbia": 1, "Denmark": 1,
    "Norway": 1, "Belgium": 1, "Uruguay": 1, "Scotland": 2,
}
BIG_NATIONS = {"England", "Spain", "Italy", "Germany", "France", "Brazil", "Argentina",
               "Portugal", "Netherlands"}

_W = str.split
NAMES: dict[str, tuple[list[str], list[str]]] = {
    "en": (_W("James Oliver Jack George Thomas Callum Connor Ben Lewis Ryan Jamie Mason Reece "
              "Jordan Luke Danny Marcus Aaron Kieran Tom Joe Sam Alfie Ethan Nathan Owen Dominic "
              "Tyrone Jacob Harvey"),
           _W("Walker Turner Bennett Fletcher Hughes Barnes Cooper Harris Mitchell Parker "
              "Holloway Whitaker Marsh Gibbs Lowe Dawson Pritchard Ashworth Crossley Hartley "
              "Sutton Fenwick Rowe Thornton Ellis Bradshaw Kirby Lambert Norris Webb Ramsden "
              "Cartwright Hale Pearson")),
    "us": (_W("Tyler Brandon Christian Weston Josh Kyle Cody Zack Brian DeAndre Matt Chase "
              "Caleb Logan Dylan Austin Trevor Mikey"),
           _W("Anderson Miller Robinson Brooks Hayes Foster Reynolds Sullivan Coleman Jenkins "
              "Price Griffin Wallace Russell Hamilton Ortiz Morales Nguyen Keller Bauer")),
    "sc": (_W("Callum Ross Scott Craig Fraser Euan Ewan Stuart Alan Graeme Kenny Ally Lachlan "
              "Hamish Finlay"),
           _W("McLeod MacKenzie McAllister Campbell Stewart Ferguson Murray Reid Paterson Duncan "
              "McGregor Sinclair Buchanan Kerr Munro Ritchie Gray Drummond")),
    "es": (_W("Alejandro Pablo Sergio Javier Daniel Adrian Alvaro Raul Diego Ivan Marcos Iker "
              "Unai Mikel Jorge Ruben Hugo Borja Dani Gonzalo Alberto Carlos Victor Oscar Nacho"),
           _W("Garcia Martinez Lopez Sanchez Romero Navarro Ruiz Serrano Molina Delgado Castro "
              "Ortega Rubio Marin Iglesias Medina Cortes Garrido Herrera Prieto Vidal Aguirre "
              "Etxeberria Arrieta Soler Blanco Campos Fuentes Pascual")),
    "ar": (_W("Matias Facundo Nicolas Agustin Franco Thiago Santiago Emiliano Julian Joaquin "
              "Maximiliano Rodrigo Gaston Leandro Cristian Exequiel Lucas Tomas"),
           _W("Fernandez Gonzalez Rodriguez Gomez Diaz Perez Alvarez Acosta Benitez Sosa "
              "Cabrera Vega Paredes Villalba Ibarra Peralta Godoy Ojeda Rossetti Bianco")),
    "uy": (_W("Federico Sebastian Nahitan Facundo Mathias Agustin Bruno Gaston Rodrigo Martin "
              "Diego Brian Maximiliano"),
           _W("Pereyra Olivera Silveira Techera Laborda Arambarri Viera Lemos Cabral Nunez "
              "Bentancor Gimenez Rochet Acevedo Caceres")),
    "co": (_W("Juan Andres Jhon Duvan Wilmar Brayan Santiago Camilo Jefferson Yeison Luis "
              "Sebastian Mateo Cristian Jaminton"),
           _W("Quintero Mosquera Cardenas Arango Zapata Montoya Salazar Cuadrado Murillo Palacios "
              "Borja Asprilla Cuesta Rios Lerma Uribe")),
    "mx": (_W("Hector Jesus Alan Uriel Erick Jorge Santiago Raul Orbelin Cesar Luis Roberto "
              "Alexis Julian"),
           _W("Guzman Ramirez Flores Castillo Reyes Cruz Mendoza Aguilar Chavez Vargas Luna "
              "Dominguez Gallardo Araujo Sepulveda Esquivel")),
    "it": (_W("Lorenzo Alessandro Matteo Federico Riccardo Davide Simone Andrea Marco Stefano "
              "Nicolo Gianluca Luca Filippo Tommaso Emanuele Giacomo Daniele Fabio Pietro"),
           _W("Rossi Bianchi Ferrari Esposito Colombo Ricci Marino Greco Bruno Gallo Conti "
              "Bellini Giordano Rizzo Lombardi Moretti Barbieri Fontana Santoro Mariani "
              "Rinaldi Caruso Ferri Gentile Vitale Serra Cattaneo")),
    "de": (_W("Lukas Leon Jonas Niklas Felix Maximilian Tim Julian Florian Tobias Jan Moritz "
              "Philipp Sebastian Dennis Marvin Kevin Benedikt Lars Matthias"),
           _W("Schmidt Schneider Fischer Weber Becker Hoffmann Schulz Koch Richter Wolf Krause "
              "Hartmann Lange Vogel Zimmermann Kaiser Lorenz Seidel Engel Roth Ziegler Franke "
              "Winkler Berger Haas Graf Pohl Sommer")),
    "fr": (_W("Lucas Hugo Mathis Enzo Clement Maxime Adrien Benjamin Jules Alexandre Romain "
              "Yann Florian Bastien Killian Quentin Nathan Axel Damien Loic"),
           _W("Martin Bernard Dubois Durand Lefebvre Moreau Laurent Simon Michel Leroy Roux "
              "Bertrand Morel Fournier Girard Bonnet Dupont Fontaine Rousseau Vincent Lefevre "
              "Faure Mercier Blanc Guerin Boyer Garnier Chevalier")),
    "pt": (_W("Joao Diogo Goncalo Rafael Tiago Rui Bruno Pedro Andre Nuno Ricardo Vitor Fabio "
              "Miguel Renato Francisco Duarte"),
           _W("Ferreira Pereira Oliveira Rodrigues Martins Sousa Goncalves Gomes Lopes Marques "
              "Almeida Ribeiro Pinto Carvalho Teixeira Moreira Correia Mendes Nunes Monteiro "
              "Cardoso Rocha")),
    "br": (_W("Gabriel Matheus Felipe Gustavo Caio Douglas Everton Wellington Renan Danilo Igor "
              "Eduardo Vitinho Luan Rodrigo Paulo Henrique Murilo Wesley Diego Thiago"),
           _W("Santos Souza Lima Araujo Barbosa Alves Cavalcanti Nascimento Moura Batista Freitas "
              "Dias Machado Moraes Pires Farias Rezende Tavares Bezerra Queiroz Siqueira "
              "Fonseca")),
    "nl": (_W("Daan Sem Jesse Luuk Bram Thijs Stijn Ruben Joris Wout Kees Niels Jasper Teun "
              "Dirk Bas Jurrien Sven Koen"),
           ["Jansen", "de Vries", "van den Berg", "Bakker", "Visser", "Smit", "Meijer",
            "de Boer", "Mulder", "de Groot", "Bos", "Vos", "Hendriks", "Dekker", "Brouwer",
            "Kramer", "van Leeuwen", "Postma", "Schouten", "Verhoeven", "Timmermans",
            "van der Meer"]),
    "be": (_W("Arne Jens Yannick Maxime Jeremy Brecht Sander Lander Romeo Senne Amadou Charles "
              "Olivier Hans Thibault"),
           ["Peeters", "Janssens", "Maes", "Jacobs", "Willems", "Claes", "Goossens", "Wouters",
            "De Smet", "Dumont", "Lemaire", "Vermeulen", "Van Damme", "Hermans", "Declercq",
            "Lambrecht"]),
    "hr": (_W("Luka Marko Mateo Josip Domagoj Nikola Ante Mario Duje Lovro Borna Dominik "
              "Kristijan Filip"),
           _W("Horvat Kovacevic Maric Juric Novak Knezevic Vukovic Bozic Grgic Blazevic Tomic "
              "Kolar Lovric Radic Sesar")),
    "ng": (_W("Chukwuemeka Emeka Chidi Samuel Oluwaseun Tunde Ikechukwu Uche Obinna Babatunde "
              "Sunday Ahmed Nnamdi Femi"),
           _W("Okafor Okonkwo Adeyemi Eze Nwosu Balogun Obi Ogunleye Onyekachi Chukwu Adebayo "
              "Olatunji Nwachukwu Ibekwe Akinola Ugochukwu Ojo Afolabi")),
    "gh": (_W("Kwame Kofi Yaw Kwabena Kwaku Emmanuel Abdul Isaac Richmond Ebenezer Mohammed "
              "Joseph"),
           _W("Mensah Asante Owusu Agyemang Osei Appiah Acheampong Darko Amoah Boakye Frimpong "
              "Opoku Sarpong Tetteh Quaye")),
    "sn": (_W("Moussa Cheikh Abdou Pape Mamadou Babacar Ousmane Lamine Aliou Bamba Youssouf "
              "Habib Modou"),
           _W("Diop Ndiaye Fall Sow Diallo Sy Seck Faye Cisse Mbaye Thiam Gueye Ba Niang Dieng "
              "Camara Ndour Badji")),
    "ma": (_W("Youssef Sofiane Nayef Amine Bilal Mehdi Ayoub Soufiane Anass Hamza Zakaria "
              "Ilias Abdelhak Othmane Adil"),
           ["El Amrani", "Benali", "Tazi", "Bennani", "Alaoui", "Chakir", "El Idrissi",
            "Berrada", "Ziani", "Haddad", "Bouzid", "El Fassi", "Lahlou", "Saidi", "Mansouri",
            "Ouazzani", "Rahmani", "Kettani"]),
    "kr": (_W("Ji-hoon Seung-woo Hyun-woo Dong-hyun Tae-hwan Jun-ho Woo-young Sang-ho Do-hyun "
              "Min-seok Jae-won Yong-jun"),
           _W("Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Oh Seo Shin Kwon Hwang Ahn "
              "Song")),
    "jp": (_W("Takumi Hiroki Yuto Shota Kenta Ryota Daiki Kazuki Sho Yuya Kaito Haruto Sota "
              "Renji Tsubasa Koki Shuto"),
           _W("Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato "
              "Yoshida Yamada Sasaki Yamaguchi Matsumoto Inoue Kimura Hayashi Shimizu Mori "
              "Ikeda Hashimoto Ishikawa Ogawa")),
    "dk": (_W("Rasmus Mikkel Anders Mads Jonas Kasper Andreas Frederik Mathias Simon Jesper "
              "Nikolaj Jakob Magnus"),
           _W("Jensen Nielsen Hansen Pedersen Christensen Larsen Sorensen Rasmussen Jorgensen "
              "Madsen Kristensen Thomsen Poulsen Lund")),
    "se": (_W("Erik Johan Viktor Oscar Filip Gustav Axel Linus Albin Ludvig Emil Jesper "
              "Anton"),
           _W("Johansson Andersson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson "
              "Gustafsson Lindqvist Bergstrom Lundgren Holm Sjoberg Nyberg")),
    "no": (_W("Ola Magnus Kristian Sander Henrik Jonas Martin Fredrik Sindre Eirik Torbjorn "
              "Vegard Havard Mathias"),
           _W("Johansen Olsen Berg Haugen Solberg Dahl Bakken Lie Moen Strand Aas Nygaard Eide "
              "Halvorsen")),
    "pl": (_W("Jakub Kamil Piotr Krzysztof Mateusz Bartosz Lukasz Tomasz Michal Pawel Grzegorz "
              "Szymon Przemyslaw Damian Karol Adam"),
           _W("Nowak Kowalski Wisniewski Wojcik Kaminski Szymanski Wozniak Dabrowski Kozlowski "
              "Jankowski Mazur Krawczyk Grabowski Pawlak Michalski Zajac Krol Wieczorek")),
    "rs": (_W("Nemanja Aleksandar Dusan Stefan Milos Uros Marko Lazar Strahinja Vanja Andrija "
              "Dejan Nikola"),
           _W("Jovanovic Petrovic Nikolic Markovic Djordjevic Stojanovic Ilic Stankovic "
              "Milosevic Todorovic Lukic Zivkovic Radovanovic Simic Obradovic Gavrilovic")),
    "tr": (_W("Emre Burak Mert Ozan Kerem Yusuf Baris Okay Ferdi Cengiz Kaan Mehmet Umut Efe "
              "Oguz Serdar"),
           _W("Yilmaz Kaya Demir Sahin Celik Aydin Ozturk Arslan Dogan Kilic Aslan Cetin Kara "
              "Koc Kurt Ozdemir Polat Erdem Tekin Korkmaz Akin")),
}

# league -> (country, clubs); club = (name, based-in city, stadium, stadium city, founded)
LEAGUES: dict[str, tuple[str, list[tuple[str, str, str, str, int]]]] = {
    "Premier League": ("England", [
        ("Thameside United", "London", "Riverside Park", "London", 1886),
        ("Kingsbridge Albion", "London", "Albion Lane", "London", 1899),
        ("Manchester Athletic", "Manchester", "Irwell Road", "Manchester", 1880),
        ("Mersey Wanderers", "Liverpool", "Kirkdale Park", "Liverpool", 1892),
        ("Tyneside Harriers", "Newcastle", "St Aidan's Park", "Newcastle", 1881)]),
    "EFL Championship": ("England", [
        ("Hallam Rovers", "Sheffield", "The Steelworks Ground", "Sheffield", 1889),
        ("Bristol Town", "Bristol", "Ashton Meadow", "Bristol", 1897),
        ("Highgate Corinthians", "London", "Northern Heights Stadium", "London", 1905)]),
    "La Liga": ("Spain", [
        ("Real Castellana", "Madrid", "Estadio Castellana", "Madrid", 1902),
        ("Atletico Manzanares", "Madrid", "Estadio del Manzanares", "Madrid", 1903),
        ("CD Montjuic", "Barcelona", "Estadi Mar Blau", "Barcelona", 1899),
        ("Sevilla Triana CF", "Seville", "Estadio Triana", "Seville", 1905),
        ("Union Deportiva Turia", "Valencia", "Estadio del Turia", "Valencia", 1919)]),
    "Segunda Division": ("Spain", [
        ("Real Cantabrico", "Gijon", "Campo del Muro", "Gijon", 1905),
        ("Deportivo Ebro", "Zaragoza", "Estadio Ribera", "Zaragoza", 1932),
        ("Club Atletico Olivo", "Vigo", "Estadio Castro", "Vigo", 1923)]),
    "Serie A": ("Italy", [
        ("AC Lombarda", "Milan", "Stadio Ambrosiano", "Milan", 1899),
        ("FC Navigli Milano", "Milan", "Stadio Ambrosiano", "Milan", 1908),
        ("AS Capitolina", "Rome", "Stadio dei Pini", "Rome", 1927),
        ("SS Tiberina", "Rome", "Stadio dei Pini", "Rome", 1900),
        ("Partenope Calcio", "Naples", "Stadio Vesuvio", "Naples", 1926)]),
    "Bundesliga": ("Germany", [
        ("FC Isar Munchen", "Munich", "Isarstadion", "Munich", 1900),
        ("Borussia Ruhrtal", "Dortmund", "Ruhrtal-Arena", "Dortmund", 1909),
        ("SV Spreeufer Berlin", "Berlin", "Spreeufer-Stadion", "Berlin", 1892),
        ("Hamburger Elbe SV", "Hamburg", "Elbpark", "Hamburg", 1887),
        ("FSV Mainufer", "Frankfurt", "Waldarena Frankfurt", "Frankfurt", 1899)]),
    "Ligue 1": ("France", [
        ("Paris Etoile FC", "Paris", "Stade de l'Etoile", "Paris", 1970),
        ("Olympique Phoceen", "Marseille", "Stade du Vieux-Port", "Marseille", 1899),
        ("AS Rhodanienne", "Lyon", "Stade des Confluences", "Lyon", 1950),
        ("RC Flandres", "Lille", "Stade de la Citadelle", "Lille", 1944)]),
    "Primeira Liga": ("Portugal", [
        ("Sporting Tejo", "Lisbon", "Estadio do Tejo", "Lisbon", 1906),
        ("FC Ribeira", "Porto", "Estadio da Ribeira", "Porto", 1893),
        ("SC Minho", "Braga", "Estadio da Pedreira Nova", "Braga", 1921)]),
    "Eredivisie": ("Netherlands", [
        ("AFC Amstel", "Amsterdam", "Amstel Arena", "Amsterdam", 1900),
        ("SBV Maasstad", "Rotterdam", "De Havenkuip", "Rotterdam", 1908),
        ("EVV Lichtstad", "Eindhoven", "Lichtstadion", "Eindhoven", 1913)]),
    "Brasileirao": ("Brazil", [
        ("Paulistano FC", "Sao Paulo", "Arena Paulistana", "Sao Paulo", 1914),
        ("Clube Guanabara", "Rio de Janeiro", "Estadio Guanabara", "Rio de Janeiro", 1895),
        ("Uniao Mineira", "Belo Horizonte", "Arena da Serra", "Belo Horizonte", 1908),
        ("Esporte Clube Guaiba", "Porto Alegre", "Arena Guaiba", "Porto Alegre", 1903)]),
    "Liga Profesional Argentina": ("Argentina", [
        ("Club Atletico Riachuelo", "Buenos Aires", "Estadio Riachuelo", "Buenos Aires", 1905),
        ("Deportivo Palermo", "Buenos Aires", "Estadio Palermo Chico", "Buenos Aires", 1901),
        ("Club Parana Rosario", "Rosario", "Estadio del Parana", "Rosario", 1889)]),
    "J1 League": ("Japan", [
        ("Tokyo Verdant", "Tokyo", "Musashino Arena", "Tokyo", 1969),
        ("Yokohama Kaiyo", "Yokohama", "Minato Mirai Stadium", "Yokohama", 1972),
        ("Naniwa Osaka", "Osaka", "Naniwa Dome Stadium", "Osaka", 1957)]),
    "Major League Soccer": ("United States", [
        ("Los Angeles Stars", "Los Angeles", "Harbor Park", "Carson", 1995),
        ("Empire City FC", "New York", "Meadowlands Field", "Harrison", 2006),
        ("Seattle Rainiers", "Seattle", "Puget Sound Stadium", "Seattle", 2007)]),
    "Super Lig": ("Turkey", [
        ("Bosphorus SK", "Istanbul", "Bogazici Arena", "Istanbul", 1905),
        ("Kadikoy Yildiz SK", "Istanbul", "Yildiz Stadyumu", "Istanbul", 1907),
        ("Karadeniz FK", "Trabzon", "Akyazi Park", "Trabzon", 1967)]),
}
DOMESTIC_SHARE = {"England": 0.45, "Spain": 0.55, "Italy": 0.5, "Germany": 0.5, "France": 0.55,
                  "Portugal": 0.45, "Netherlands": 0.55, "Brazil": 0.8, "Argentina": 0.85,
                  "Japan": 0.8, "United States": 0.55, "Turkey": 0.5}
TOP_TIER = {"Premier League", "La Liga", "Serie A", "Bundesliga", "Ligue 1"}

POSITIONS = ["goalkeeper", "defender", "midfielder", "forward"]
PLURAL = {"goalkeeper": "goalkeepers", "defender": "defenders", "midfielder": "midfielders",
          "forward": "forwards"}
CLASSIC_NUMBERS = {"goalkeeper": [1], "defender": [2, 3, 4, 5], "midfielder": [6, 8, 10],
                   "forward": [7, 9, 11]}
HEIGHT = {"goalkeeper": (185, 200), "defender": (177, 194), "midfielder": (166, 186),
          "forward": (170, 193)}

RELATIONS = [  # name, head -> tail, description
    ("playsForClub", "player → club", "the club he plays for now (exactly 1)"),
    ("formerClub", "player → club", "clubs he played for before (0–4)"),
    ("nationalTeam", "player → country", "the national team he is capped by (capped players "
     "only; a country label doubles as its national team)"),
    ("nationality", "player → country", "citizenship (1–2; a second one when born abroad)"),
    ("position", "player → position", "`goalkeeper`, `defender`, `midfielder` or `forward`"),
    ("shirtNumber", "player → integer", "squad number at his club (unique within a club)"),
    ("age", "player → integer", "age in years"),
    ("heightCm", "player → integer", "height in centimetres"),
    ("birthCity", "player → city", "city of birth"),
    ("cityCountry", "city → country", "the country a city is in"),
    ("basedIn", "club → city", "the club's home city"),
    ("clubCountry", "club → country", "the club's country"),
    ("homeStadium", "club → stadium", "home ground (two stadiums are shared by two clubs)"),
    ("stadiumCity", "stadium → city", "where the stadium stands (two MLS grounds are in a "
     "suburb, not the club's city)"),
    ("capacity", "stadium → integer", "number of seats"),
    ("league", "club → league", "the league the club plays in"),
    ("leagueCountry", "league → country", "the league's country"),
    ("foundedYear", "club → year", "year the club was founded"),
    ("manager", "club → coach", "the club's manager"),
    ("headCoach", "country → coach", "head coach of the country's national team"),
    ("coachNationality", "coach → country", "a coach's nationality"),
    ("captain", "club or country → player", "club captain / national-team captain"),
]


# ---------------------------------------------------------------------------------------------
# KB generation
# ---------------------------------------------------------------------------------------------


@dataclass
class Player:
    name: str
    origin: str
    club: str
    position: str
    age: int
    height: int
    birth_city: str
    nationalities: list[str]
    capped: bool
    number: int = 0
    former: list[str] = field(default_factory=list)


class KB:
    def __init__(self) -> None:
        self.triples: list[tuple[str, str, str]] = []
        self.seen: set[tuple[str, str, str]] = set()
        self.fwd: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.inv: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.label_type: dict[str, str] = {}

    def label(self, name: str, kind: str) -> None:
        old = self.label_type.get(name)
        if old is not None and old != kind:
            raise ValueError(f"label clash: {name!r} is both {old} and {kind}")
        self.label_type[name] = kind

    def add(self, s: str, r: str, o: object) -> None:
        o = str(o)
        t = (s, r, o)
        if t in self.seen:
            return
        self.seen.add(t)
        self.triples.append(t)
        self.fwd[r][s].add(o)
        self.inv[r][o].add(s)


def build_kb(rng: random.Random):
    kb = KB()
    used_names: set[str] = set()
    city_country: dict[str, str] = {}
    for country, (_dem, _pool, cities) in COUNTRIES.items():
        kb.label(country, "country")
        for city in cities:
            kb.label(city, "city")
            city_country[city] = country

    def person_name(country: str) -> str:
        firsts, lasts = NAMES[COUNTRIES[country][1]]
        for _ in range(1000):
            first, last = rng.choice(firsts), rng.choice(lasts)
            name = f"{last} {first}" if country == "South Korea" else f"{first} {last}"
            if name not in used_names and name not in kb.label_type:
                used_names.add(name)
                return name
        raise RuntimeError(f"name pool for {country} exhausted")

    def weighted(weights: dict[str, int], exclude: str = "") -> str:
        keys = [k for k in weights if k != exclude]
        return rng.choices(keys, weights=[weights[k] for k in keys])[0]

    # clubs, stadiums, leagues
    clubs: dict[str, dict] = {}
    stadiums: dict[str, str] = {}
    for league, (country, club_rows) in LEAGUES.items():
        kb.label(league, "league")
        for name, city, stadium, stadium_city, founded in club_rows:
            kb.label(name, "club")
            kb.label(stadium, "stadium")
            assert city_country[city] == country and city_country[stadium_city] == country
            clubs[name] = {"league": league, "country": country, "city": city,
                           "stadium": stadium, "founded": founded}
            stadiums[stadium] = stadium_city

    # players, squad by squad
    players: list[Player] = []
    for club_name, club in clubs.items():
        country = club["country"]
        squad_positions = (["goalkeeper"] * rng.choice([1, 2]) + ["defender"] * 4
                           + ["midfielder"] * 4 + ["forward"] * rng.choice([2, 3]))
        for pos in squad_positions:
            if rng.random() < DOMESTIC_SHARE[country]:
                origin = country
            else:
                origin = weighted(FOREIGN_WEIGHT, exclude=country)
            age = max(17, min(37, round(rng.triangular(17, 37, 26))))
            lo, hi = HEIGHT[pos]
            height = rng.randint(lo, hi)
            birth_country = origin
            if origin in DIASPORA and rng.random() < 0.2:
                birth_country = rng.choice(DIASPORA[origin])
            cities = COUNTRIES[birth_country][2]
            birth_city = rng.choices(cities, weights=[len(cities) - i + 1
                                                      for i in range(len(cities))])[0]
            nats = sorted({origin, birth_country})
            p_cap = 0.55 if origin in BIG_NATIONS else 0.85
            if age < 20:
                p_cap *= 0.5
            player = Player(person_name(origin), origin, club_name, pos, age, height,
                            birth_city, nats, rng.random() < p_cap)
            kb.label(player.name, "player")
            players.append(player)

    # shirt numbers, unique within a club
    by_club: dict[str, list[Player]] = defaultdict(list)
    for p in players:
        by_club[p.club].append(p)
    for club_name in clubs:
        taken: set[int] = set()
        for p in by_club[club_name]:
            free_classic = [n for n in CLASSIC_NUMBERS[p.position] if n not in taken]
            if free_classic and rng.random() < 0.55:
                num = rng.choice(free_classic)
            else:
                while True:
                    num = rng.randint(12, 40) if rng.random() < 0.85 else rng.randint(41, 99)
                    if num not in taken:
                        break
            taken.add(num)
            p.number = num

    # former clubs: older players have moved more
    club_names = list(clubs)
    for p in players:
        if p.age <= 20:
            k = rng.choices([0, 1], weights=[7, 3])[0]
        elif p.age <= 24:
            k = rng.choices([0, 1, 2], weights=[5, 4, 1])[0]
        elif p.age <= 29:
            k = rng.choices([0, 1, 2, 3], weights=[30, 40, 25, 5])[0]
        else:
            k = rng.choices([0, 1, 2, 3, 4], weights=[15, 35, 30, 15, 5])[0]
        others = [c for c in club_names if c != p.club]
        weights = [3 if clubs[c]["country"] in (clubs[p.club]["country"], p.origin) else 1
                   for c in others]
        chosen: list[str] = []
        while len(chosen) < k:
            c = rng.choices(others, weights=weights)[0]
            if c not in chosen:
                chosen.append(c)
        p.former = chosen

    # coaches
    managers: dict[str, tuple[str, str]] = {}
    for club_name, club in clubs.items():
        nat = club["country"] if rng.random() < 0.55 else weighted(COACH_WEIGHT,
                                                                   exclude=club["country"])
        name = person_name(nat)
        kb.label(name, "coach")
        managers[club_name] = (name, nat)
    head_coaches: dict[str, tuple[str, str]] = {}
    for country in COUNTRIES:
        nat = country if rng.random() < 0.7 else weighted(COACH_WEIGHT, exclude=country)
        name = person_name(nat)
        kb.label(name, "coach")
        head_coaches[country] = (name, nat)

    # captains: a senior player of the squad
    club_captain: dict[str, str] = {}
    for club_name in clubs:
        squad = by_club[club_name]
        club_captain[club_name] = max(squad, key=lambda p: p.age + rng.random() * 6).name
    nat_captain: dict[str, str] = {}
    for country in COUNTRIES:
        capped = [p for p in players if p.capped and p.origin == country]
        if capped:
            nat_captain[country] = max(capped, key=lambda p: p.age + rng.random() * 6).name

    # capacities
    capacity: dict[str, int] = {}
    for stadium in stadiums:
        league = next(c["league"] for c in clubs.values() if c["stadium"] == stadium)
        lo, hi = (38000, 81000) if league in TOP_TIER else (14000, 52000)
        capacity[stadium] = rng.randint(lo, hi)

    # ---- emit triples (grouped by entity, fixed order) ----
    for city, country in city_country.items():
        kb.add(city, "cityCountry", country)
    for league, (country, _rows) in LEAGUES.items():
        kb.add(league, "leagueCountry", country)
    for stadium, city in stadiums.items():
        kb.add(stadium, "stadiumCity", city)
        kb.add(stadium, "capacity", capacity[stadium])
    for club_name, club in clubs.items():
        kb.add(club_name, "basedIn", club["city"])
        kb.add(club_name, "clubCountry", club["country"])
        kb.add(club_name, "league", club["league"])
        kb.add(club_name, "homeStadium", club["stadium"])
        kb.add(club_name, "foundedYear", club["founded"])
        kb.add(club_name, "manager", managers[club_name][0])
        kb.add(club_name, "captain", club_captain[club_name])
    for country in COUNTRIES:
        kb.add(country, "headCoach", head_coaches[country][0])
        if country in nat_captain:
            kb.add(country, "captain", nat_captain[country])
    for name, nat in list(managers.values()) + list(head_coaches.values()):
        kb.add(name, "coachNationality", nat)
    for p in players:
        kb.add(p.name, "playsForClub", p.club)
        for c in p.former:
            kb.add(p.name, "formerClub", c)
        if p.capped:
            kb.add(p.name, "nationalTeam", p.origin)
        for n in p.nationalities:
            kb.add(p.name, "nationality", n)
        kb.add(p.name, "position", p.position)
        kb.add(p.name, "shirtNumber", p.number)
        kb.add(p.name, "age", p.age)
        kb.add(p.name, "heightCm", p.height)
        kb.add(p.name, "birthCity", p.birth_city)
    for pos in POSITIONS:
        kb.label(pos, "position")

    ents = {
        "P": sorted(p.name for p in players),
        "C": sorted(clubs),
        "N": sorted(COUNTRIES),
        "L": sorted(LEAGUES),
        "S": sorted(stadiums),
        "Y": sorted({c for c in city_country if kb.inv["basedIn"].get(c)
                     or kb.inv["birthCity"].get(c) or kb.inv["stadiumCity"].get(c)}),
        "K": sorted(n for n, _ in list(managers.values()) + list(head_coaches.values())),
        "Z": list(POSITIONS),
    }
    ents["C2"] = ents["C"]
    return kb, ents


# ---------------------------------------------------------------------------------------------
# Question specs
# ---------------------------------------------------------------------------------------------
# qtype syntax: steps joined by ">" (a step "^rel" walks the relation backwards, tail -> head);
# branches joined by "&" are intersected. With one anchor every branch starts at the topic;
# with two anchors branch i starts at anchor i.
# Placeholders: {p} player, {c} club, {c2} second club, {n} country, {dem} its demonym,
# {l} league, {s} stadium, {y} city, {k} coach, {z} position, {zpl} position plural.


@dataclass
class Spec:
    kind: str
    qtype: str
    anchors: tuple[str, ...]
    tune: list[str]
    held: list[str]
    alt_kind: str = ""  # topic-answer specs: kind to use when the topic is not in the gold
    exclude_topic: bool = False  # "other": the topic itself is removed from the gold
    min_size: int = 1
    in_share: float = 0.0  # topic-answer specs: share of topics whose gold includes them


SPECS: list[Spec] = [
    # ------------------------------------------------------------------ synonym
    Spec("synonym", "playsForClub", ("P",), [
        "Which side does {p} turn out for?",
        "who does {p} play professionally for",
        "What team is {p} on these days?",
        "Tell me which outfit {p} is currently with",
        "{p} is on the books of which team?",
        "Where is {p} plying his trade at the moment?",
        "which team has {p} under contract right now",
    ], [
        "Who are {p}'s current employers?",
        "name the team {p} lines up for week in, week out",
        "{p} - which squad is he part of at the moment?",
        "At present, who is {p} registered with?",
    ]),
    Spec("synonym", "shirtNumber", ("P",), [
        "What shirt does {p} wear?",
        "which jersey does {p} wear",
        "What digits are printed on the back of {p}'s jersey?",
        "{p} wears what on his back?",
        "what does {p} have printed on the back of his top",
        "Which squad digit has {p} been handed?",
    ], [
        "Which kit digit belongs to {p}?",
        "If you bought a {p} replica top, what figure would be on the back?",
        "{p} pulls on which jersey every matchday?",
        "what is {p}'s squad digit",
    ]),
    Spec("synonym", "age", ("P",), [
        "How old is {p}?",
        "how many years old is {p}",
        "How many birthdays has {p} had?",
        "{p} is how old now?",
        "Tell me how old {p} is",
        "how many years has {p} been alive",
    ], [
        "How many candles were on {p}'s last birthday cake?",
        "{p}: how many years old?",
        "Give me the number of years {p} has lived",
        "how old would {p} be today",
    ]),
    Spec("synonym", "manager", ("C",), [
        "Who is the gaffer at {c}?",
        "who's the boss of {c}",
        "Who calls the shots in the {c} dugout?",
        "Who picks the team at {c}?",
        "Name the man in the {c} hot seat",
        "who runs the first team at {c}",
    ], [
        "Who took over the reins at {c}?",
        "Who does the team selection for {c}?",
        "tell me who prowls the touchline for {c}",
        "{c} are led from the bench by whom?",
    ]),
    Spec("synonym", "homeStadium", ("C",), [
        "Where do {c} play their home games?",
        "What ground do {c} call home?",
        "Where are {c}'s home matches held?",
        "which venue hosts {c} home fixtures",
        "Name {c}'s home turf",
        "where do {c} fans go to watch home games",
    ], [
        "Which arena is the fortress of {c}?",
        "On home weekends, where can you catch {c} in action?",
        "{c} host visiting teams where?",
        "what is the name of the ground {c} play out of",
    ]),
    Spec("synonym", "nationalTeam", ("P",), [
        "Which country does {p} represent?",
        "Who does {p} win caps for?",
        "which international side has capped {p}",
        "Who does {p} turn out for at international level?",
        "For which nation does {p} earn his caps?",
        "who does {p} line up for when the internationals come around",
    ], [
        "Which flag does {p} play under at World Cups?",
        "{p} gets called up by which country?",
        "when the international break comes, which country does {p} join up with?",
        "What country has {p} been capped by",
    ]),
    Spec("synonym", "formerClub", ("P",), [
        "Which teams did {p} turn out for in the past?",
        "Where did {p} play before his current side?",
        "who were {p}'s previous employers",
        "List the sides {p} used to play for",
        "What outfits has {p} been at before?",
        "name every team {p} has left during his career",
    ], [
        "Who had {p} on their books earlier in his career?",
        "Before joining his present team, where had {p} been?",
        "which sides are on {p}'s CV from previous spells",
        "{p}'s past teams?",
    ]),
    Spec("synonym", "captain", ("C",), [
        "Who wears the armband at {c}?",
        "who skippers {c}",
        "Who leads {c} out onto the pitch as skipper?",
        "Name the {c} skipper",
        "which player has the armband for {c}",
        "Who is {c}'s on-field leader?",
    ], [
        "{c} are skippered by whom?",
        "Whose arm carries the armband at {c}?",
        "tell me who leads the {c} team out",
        "Who's the {c} skip these days?",
    ]),
    # ------------------------------------------------------------------ plain
    Spec("plain", "position", ("P",), [
        "What position does {p} play?",
        "what is the position of {p}",
        "{p} plays in which position?",
        "Tell me {p}'s position",
        "In what position does {p} line up?",
        "which position is {p} listed at",
    ], [
        "Position of {p}?",
        "What's {p} registered as, position-wise?",
        "could you give me the playing position of {p}",
        "{p} - what position?",
    ]),
    Spec("plain", "league", ("C",), [
        "Which league does {c} play in?",
        "what league are {c} in",
        "{c} compete in which league?",
        "Name the league {c} belong to",
        "In which league is {c}?",
        "tell me the league of {c}",
    ], [
        "League of {c}?",
        "What league are {c} members of?",
        "which league would I find {c} in",
        "{c}: what league?",
    ]),
    Spec("plain", "headCoach", ("N",), [
        "Who is the head coach of {n}?",
        "who coaches the {n} national team",
        "Who is {n}'s national team coach?",
        "Name the head coach of the {n} national side",
        "who is the coach of {n}",
        "Tell me who coaches {n}",
    ], [
        "{n} head coach?",
        "Which coach is in charge of the {n} national team",
        "who is currently the national coach of {n}",
        "The {n} team is coached by whom?",
    ]),
    Spec("plain", "^manager", ("K",), [
        "Which club does {k} manage?",
        "what club is {k} the manager of",
        "{k} manages which club?",
        "Tell me the club managed by {k}",
        "Which team is {k} managing?",
        "who does {k} manage",
    ], [
        "{k} is manager of what club?",
        "What's the club under the management of {k}?",
        "name the club where {k} is the manager",
        "Which club has {k} as manager",
    ]),
    Spec("plain", "nationality", ("P",), [
        "What is {p}'s nationality?",
        "what nationality is {p}",
        "Which nationality does {p} have?",
        "Tell me the nationality of {p}",
        "{p} holds which nationalities?",
        "what nationalities does {p} have",
    ], [
        "Nationality of {p}?",
        "list every nationality {p} holds",
        "{p}: nationality?",
        "What nationality or nationalities is {p}",
    ]),
    Spec("plain", "captain", ("C",), [
        "Who is the captain of {c}?",
        "who captains {c}",
        "Name the {c} captain",
        "Who is {c}'s club captain?",
        "tell me who the captain at {c} is",
        "Which player captains {c}?",
    ], [
        "{c} captain?",
        "Who has been made captain of {c}",
        "who is captain for {c}",
        "The captain of {c} is who?",
    ]),
    # ------------------------------------------------------------------ wh-type
    Spec("wh-type", "basedIn", ("C",), [
        "Where is {c} based?",
        "Which city are {c} from?",
        "In what city is {c} based",
        "where are {c} based",
        "What city is home to {c}?",
        "which town do {c} come from",
    ], [
        "{c} hail from which city?",
        "Name the city {c} are located in",
        "Where do {c} come from?",
        "in which city would you find {c}",
    ]),
    Spec("wh-type", "playsForClub>clubCountry", ("P",), [
        "Which country is the club of {p} located in?",
        "In which country does {p} play his club football?",
        "what country is {p}'s club from",
        "Where does {p} play his club football - which country?",
        "In what country is {p}'s team based?",
        "which country does {p}'s current club come from",
    ], [
        "{p} plays his league football in which country?",
        "Name the country where {p}'s club is",
        "What country is {p} playing in at club level?",
        "in which nation is {p}'s team located",
    ]),
    Spec("wh-type", "playsForClub>basedIn", ("P",), [
        "Which city is {p}'s club in?",
        "What city does {p} play his club football in?",
        "In which city is the club of {p} based?",
        "which town is {p}'s team from",
        "Where is {p}'s club based?",
        "what city is home to the club {p} plays for",
    ], [
        "{p} plays for a club in which city?",
        "Name the city where {p}'s team is based",
        "In what town does {p} play his club football",
        "{p}'s club: which city?",
    ]),
    Spec("wh-type", "capacity", ("S",), [
        "How many seats does {s} have?",
        "how many people can {s} hold",
        "What is the capacity of {s}?",
        "How many fans fit into {s}?",
        "how big a crowd can {s} take",
        "What's the seating capacity at {s}",
    ], [
        "{s} holds how many spectators?",
        "How many supporters can squeeze into {s}?",
        "what size crowd can {s} accommodate",
        "tell me how many spectators {s} seats",
    ]),
    Spec("wh-type", "foundedYear", ("C",), [
        "When was {c} founded?",
        "what year was {c} founded",
        "In which year were {c} established?",
        "When did {c} come into existence?",
        "How far back do {c} go - what year were they formed?",
        "when were {c} formed",
    ], [
        "{c} were founded in what year?",
        "What year did {c} start out?",
        "In what year was {c} set up",
        "when did {c} first come into being",
    ]),
    Spec("wh-type", "heightCm", ("P",), [
        "How tall is {p}?",
        "what is {p}'s height",
        "What height is {p}?",
        "How tall does {p} stand?",
        "tell me how tall {p} is",
        "{p} is how tall?",
    ], [
        "What's the height of {p} in centimetres?",
        "How many cm tall is {p}",
        "{p} measures how tall?",
        "how high does {p} stand in cm",
    ]),
    Spec("wh-type", "birthCity", ("P",), [
        "Where was {p} born?",
        "which city was {p} born in",
        "What is {p}'s hometown?",
        "In what city was {p} born?",
        "Tell me the birthplace of {p}",
        "Where is {p} from originally - which city?",
    ], [
        "{p} was born where?",
        "Which town is {p}'s place of birth?",
        "In which city did {p} first see the light of day?",
        "name the city where {p} was born",
    ]),
    Spec("wh-type", "birthCity>cityCountry", ("P",), [
        "In which country was {p} born?",
        "what country was {p} born in",
        "Which country is {p}'s birthplace in?",
        "Where was {p} born - which country?",
        "What country is {p}'s hometown in",
        "tell me the country of birth of {p}",
    ], [
        "{p} was born in what country?",
        "Name the country where {p} was born",
        "which nation did {p} come into the world in",
        "In what country is the city where {p} was born",
    ]),
    Spec("wh-type", "captain>playsForClub>basedIn", ("N",), [
        "In which city does the captain of {n} play his club football?",
        "Where does {n}'s captain play his club football - which city?",
        "which city is the club of the {n} captain based in",
        "What city is {n}'s national team captain's club from?",
        "In what city is the club of the player who captains {n}?",
        "tell me the city where {n}'s skipper plays for his club",
    ], [
        "{n}'s captain plays club football in which town?",
        "Which city is home to the club of the man who captains {n}?",
        "the club of {n}'s captain is located in what city",
        "Name the city where the {n} skipper's club is based",
    ]),
    # ------------------------------------------------------------------ possessive
    Spec("possessive", "playsForClub>homeStadium", ("P",), [
        "What is {p}'s club's stadium?",
        "{p}'s club's home ground?",
        "Name {p}'s club's stadium",
        "which stadium is {p}'s team's home",
        "What's the home ground of {p}'s club called?",
        "tell me {p}'s club's home stadium",
    ], [
        "{p}'s team's ground - what's it called?",
        "Which stadium does {p}'s club call home",
        "what is the name of {p}'s club's home venue",
        "{p}'s side's stadium?",
    ]),
    Spec("possessive", "playsForClub>homeStadium>stadiumCity", ("P",), [
        "What is the city of {p}'s club's home ground?",
        "In which city is {p}'s club's stadium?",
        "{p}'s club's stadium is in which city?",
        "where is {p}'s team's home ground located",
        "Which city is {p}'s club's home stadium in?",
        "tell me the city of the stadium of {p}'s club",
    ], [
        "{p}'s club's ground: which city?",
        "Name the city that {p}'s team's stadium stands in",
        "what town is the home stadium of {p}'s side in",
        "In what city is the home venue of {p}'s club?",
    ]),
    Spec("possessive", "playsForClub>manager>coachNationality", ("P",), [
        "What is the nationality of the manager of {p}'s club?",
        "{p}'s club's manager is from which country?",
        "Where is {p}'s club's manager from?",
        "What nationality is {p}'s club manager?",
        "which country does {p}'s manager at club level come from",
        "tell me the nationality of {p}'s club's boss",
    ], [
        "{p}'s club boss - what nationality?",
        "Which nation does the manager of {p}'s team hail from?",
        "the manager of {p}'s side is of what nationality",
        "Name the country {p}'s club's gaffer comes from",
    ]),
    Spec("possessive", "nationalTeam>headCoach", ("P",), [
        "Who is {p}'s national team coach?",
        "who is the head coach of {p}'s national team",
        "Name {p}'s international coach",
        "{p}'s national side is coached by whom?",
        "Who coaches {p}'s country?",
        "tell me the head coach of {p}'s national team",
    ], [
        "Who's in charge of {p}'s national team?",
        "{p}'s national team boss?",
        "which coach picks {p}'s country's squad",
        "Name the man who coaches the national side {p} represents",
    ]),
    Spec("possessive", "playsForClub>league", ("P",), [
        "What league is {p}'s club in?",
        "{p}'s club's league?",
        "Which league does {p}'s team play in?",
        "Name the league of {p}'s club",
        "In which league does {p}'s club compete?",
        "tell me {p}'s club's league",
    ], [
        "{p}'s side competes in which league?",
        "What division is {p}'s team in?",
        "which competition does {p}'s club play its league games in",
        "league of {p}'s club?",
    ]),
    Spec("possessive", "homeStadium>capacity", ("C",), [
        "What is the capacity of {c}'s stadium?",
        "How many people does {c}'s stadium hold?",
        "{c}'s ground holds how many?",
        "How many seats are there in {c}'s home stadium?",
        "what's the capacity of {c}'s home ground",
        "tell me how many fans {c}'s stadium can take",
    ], [
        "{c}'s home venue capacity?",
        "How big a crowd can {c}'s ground accommodate?",
        "how many spectators fit in {c}'s stadium",
        "Give me the seating capacity of {c}'s home ground",
    ]),
    Spec("possessive", "captain>nationalTeam", ("C",), [
        "Which national team does {c}'s captain play for?",
        "What country does {c}'s captain represent?",
        "{c}'s captain plays for which national team?",
        "Who does {c}'s skipper play for internationally?",
        "which country has {c}'s captain been capped by",
        "tell me the national team of {c}'s captain",
    ], [
        "{c}'s captain - what national side?",
        "Which nation's shirt does {c}'s captain wear at international level",
        "the captain of {c} is an international for which country?",
        "Name the national team {c}'s skipper turns out for",
    ]),
    Spec("possessive", "playsForClub>manager", ("P",), [
        "Who is {p}'s club manager?",
        "who manages {p}'s club",
        "Who is the manager of {p}'s club?",
        "{p}'s club boss is who?",
        "Name the manager of {p}'s team",
        "who's in charge at {p}'s club",
    ], [
        "Who is {p}'s gaffer at club level?",
        "{p}'s club: who is the manager?",
        "which manager does {p} play under at his club",
        "tell me who manages the team {p} plays for",
    ]),
    Spec("possessive", "nationalTeam>headCoach>coachNationality", ("P",), [
        "What nationality is {p}'s national team coach?",
        "{p}'s national side's head coach comes from which country?",
        "Where is {p}'s international coach from?",
        "what is the nationality of the head coach of {p}'s national team",
        "Which country is {p}'s national team boss from?",
        "tell me the nationality of {p}'s country's coach",
    ], [
        "{p}'s national coach: which nationality?",
        "The head coach of {p}'s national side is a national of where?",
        "which nation does {p}'s international manager hail from",
        "Name the country {p}'s national team coach comes from",
    ]),
    Spec("possessive", "captain>birthCity>cityCountry", ("C",), [
        "In which country was {c}'s captain born?",
        "What is the birth country of {c}'s captain?",
        "{c}'s skipper was born in which country?",
        "which country is {c}'s captain's birthplace in",
        "Where was {c}'s captain born - which country?",
        "tell me the country {c}'s club captain was born in",
    ], [
        "{c}'s captain: country of birth?",
        "Which nation did {c}'s skipper come into the world in?",
        "name the country where the {c} captain was born",
        "the captain of {c} is a native of which country",
    ]),
    # ------------------------------------------------------------------ relative
    Spec("relative", "playsForClub>clubCountry", ("P",), [
        "The club that {p} plays for is based in which country?",
        "Which country is the club {p} plays for from?",
        "In which country is the team that {p} plays for?",
        "what country is the club {p} turns out for based in",
        "Name the country of the club {p} is signed to",
        "the team {p} plays for is located in what country",
    ], [
        "Which country hosts the club where {p} plays?",
        "The side {p} currently represents at club level is in what country?",
        "in what country can you find the team that has {p} on its books",
        "what nation is home to the club {p} is at",
    ]),
    Spec("relative", "^manager>^playsForClub", ("K",), [
        "Which players play for the club that {k} manages?",
        "Who plays for the team managed by {k}?",
        "List the players at the club {k} is in charge of",
        "who are the players in the squad {k} manages",
        "Name the players who play under {k}",
        "which footballers play for the club whose manager is {k}",
    ], [
        "Who are the players {k} manages?",
        "Which players turn out for the side that {k} runs?",
        "tell me the squad of the club where {k} is manager",
        "the team {k} looks after has which players",
    ]),
    Spec("relative", "manager>coachNationality", ("C",), [
        "The manager of {c} is from which country?",
        "What is the nationality of the man who manages {c}?",
        "Which country does the manager of {c} come from?",
        "what nationality is the coach who manages {c}",
        "Where is the person managing {c} from?",
        "Tell me the nationality of the manager in charge of {c}",
    ], [
        "The coach currently running {c} holds which nationality?",
        "which country is the {c} manager a national of",
        "the man who picks the {c} team is what nationality?",
        "Name the country that the manager of {c} is from",
    ]),
    Spec("relative", "playsForClub>homeStadium>capacity", ("P",), [
        "How many fans fit into the stadium where {p}'s team plays?",
        "What is the capacity of the stadium where {p}'s club play their home games?",
        "How many seats does the ground of the club {p} plays for have?",
        "the stadium that {p}'s club calls home holds how many people",
        "What's the capacity of the home ground of the team {p} plays for?",
        "how many spectators can the stadium of the club {p} plays for hold",
    ], [
        "The ground where {p} plays his home games holds how many?",
        "How big is the crowd that can watch {p} at home?",
        "what crowd capacity does the stadium of {p}'s club have",
        "Give the number of seats in the stadium used by the club {p} plays for",
    ]),
    Spec("relative", "^coachNationality>^manager", ("N",), [
        "Which clubs are managed by a coach from {n}?",
        "Which clubs have a manager whose nationality is {n}?",
        "list the clubs whose manager comes from {n}",
        "What clubs are run by managers from {n}?",
        "Name the clubs where the manager holds {n} nationality",
        "which teams have a manager from {n}",
    ], [
        "Which clubs employ a manager from {n}?",
        "the clubs whose boss is a national of {n}?",
        "Tell me every club that is managed by someone from {n}",
        "which sides are being managed by coaches from {n}",
    ]),
    Spec("relative", "nationalTeam>captain>playsForClub", ("P",), [
        "Which club does the captain of {p}'s national team play for?",
        "Who does the player that captains {p}'s country play for at club level?",
        "The man who captains the national side {p} represents plays for which club?",
        "what club is the captain of {p}'s national team at",
        "Name the club of the player who captains {p}'s country",
        "which team does the skipper of the national side {p} plays for turn out for",
    ], [
        "The captain of the country {p} plays for is signed to what club?",
        "tell me the club side of the man who skippers {p}'s national team",
        "Where does the player wearing the armband for {p}'s country play his club football?",
        "{p}'s national captain plays for which club?",
    ]),
    Spec("relative", "^coachNationality>^manager>league", ("N",), [
        "In which leagues do managers from {n} work?",
        "Which leagues have a club managed by someone from {n}?",
        "list the leagues of the clubs whose manager is from {n}",
        "What leagues do the clubs run by coaches from {n} play in?",
        "Name the leagues where a manager from {n} is in charge of a club",
        "which leagues feature clubs with a manager from {n}",
    ], [
        "Managers from {n} are working in which leagues?",
        "tell me the leagues in which clubs are led by coaches from {n}",
        "Across which leagues can you find a club whose boss comes from {n}?",
        "which divisions include a club managed by a national of {n}",
    ]),
    # ------------------------------------------------------------------ topic-answer
    Spec("topic-answer", "playsForClub>captain", ("P",), [
        "Who is the captain of {p}'s club?",
        "who captains the club {p} plays for",
        "Who wears the armband at {p}'s club?",
        "Name the captain of {p}'s team",
        "{p}'s club captain is who?",
        "who skippers the team {p} plays for",
    ], [
        "Who leads {p}'s club out as captain?",
        "Which player is captain of the side {p} turns out for",
        "tell me the skipper of {p}'s club",
        "the club {p} plays for is captained by whom?",
    ], alt_kind="possessive", in_share=0.6),
    Spec("topic-answer", "^captain>^playsForClub", ("P",), [
        "Who plays for the club whose captain is {p}?",
        "Which players are in the team captained by {p}?",
        "List the players of the club {p} captains",
        "who is in the squad that {p} skippers",
        "Name everyone who plays for the side {p} captains",
        "which players turn out for the club that has {p} as captain",
    ], [
        "Who makes up the squad led by captain {p}?",
        "the team {p} captains has which players",
        "tell me every player at the club where {p} wears the armband",
        "Which footballers play in the side that {p} leads as skipper?",
    ]),
    Spec("topic-answer", "playsForClub>^playsForClub", ("P",), [
        "Who is in {p}'s club's squad?",
        "List the squad of {p}'s club",
        "Which players play for {p}'s club?",
        "Name all the players at the club {p} plays for",
        "Give me the full squad of the team {p} plays for",
        "who are all the players on {p}'s team, {p} included",
    ], [
        "Which players make up the roster of {p}'s club?",
        "the full player list of {p}'s team?",
        "tell me everybody registered with the club {p} plays for",
        "who is on the books at {p}'s club",
    ], min_size=2),
    Spec("topic-answer", "captain>playsForClub", ("C",), [
        "Which club does {c}'s captain play for?",
        "Who does the captain of {c} play for?",
        "{c}'s captain plays his club football where?",
        "What club is {c}'s skipper at?",
        "which team does the {c} captain play for",
        "tell me the club of {c}'s captain",
    ], [
        "The player who captains {c} is on the books of which club?",
        "Name the club the {c} skipper is registered with",
        "{c}'s captain is signed to what team?",
        "which side employs the captain of {c}",
    ]),
    Spec("topic-answer", "birthCity>^birthCity", ("P",), [
        "Who was born in {p}'s hometown?",
        "Which players were born in the city where {p} was born?",
        "List the players born in {p}'s birthplace",
        "name all the footballers born in {p}'s home city",
        "Who comes from {p}'s birth city?",
        "Give me every player born in the city {p} was born in",
    ], [
        "The city where {p} was born produced which players?",
        "who hails from {p}'s place of birth",
        "tell me all players whose birthplace is {p}'s birth city",
        "Players born in {p}'s hometown?",
    ], min_size=2),
    Spec("topic-answer", "league>^league", ("C",), [
        "Which clubs are in {c}'s league?",
        "List the clubs in the league {c} plays in",
        "Name every club that plays in {c}'s league",
        "what teams make up the league {c} is in",
        "which clubs play in {c}'s division",
        "Give me all the clubs in the league that {c} belongs to",
    ], [
        "Who is in {c}'s league?",
        "the league that {c} competes in contains which clubs",
        "tell me the full list of teams in {c}'s league",
        "Which sides make up {c}'s division?",
    ], min_size=2),
    # ------------------------------------------------------------------ other
    Spec("other", "playsForClub>^playsForClub", ("P",), [
        "Who are {p}'s teammates?",
        "who are {p}'s club teammates",
        "Which players play alongside {p} at his club?",
        "Name {p}'s teammates at club level",
        "Who else plays for {p}'s club?",
        "list the other players at {p}'s club",
    ], [
        "Who shares a dressing room with {p}?",
        "which players does {p} line up with for his club",
        "tell me {p}'s clubmates",
        "Apart from {p}, who plays for his club?",
    ], exclude_topic=True),
    Spec("other", "shirtNumber>^shirtNumber", ("P",), [
        "Which other players wear the same number as {p}?",
        "Who else wears {p}'s shirt number?",
        "which players have the same shirt number as {p}",
        "Name the other players who share {p}'s squad number",
        "Who wears the same number as {p} at other clubs?",
        "list players other than {p} with his shirt number",
    ], [
        "Which players elsewhere have the same jersey number as {p}?",
        "{p}'s number is also worn by whom?",
        "tell me who else has {p}'s number on their back",
        "Apart from {p}, which players wear {p}'s shirt number?",
    ], exclude_topic=True),
    Spec("other", "playsForClub>^playsForClub&position>^position", ("P",), [
        "Who else plays in {p}'s position for {p}'s club?",
        "Which of {p}'s teammates play the same position as him?",
        "who does {p} compete with for a starting spot in his position at his club",
        "Name the other players at {p}'s club who play his position",
        "Which teammates of {p} share his position?",
        "list {p}'s club teammates in the same position",
    ], [
        "Who are {p}'s rivals for his position at club level?",
        "Apart from {p}, who plays his position for his team?",
        "tell me which of {p}'s clubmates line up in the same role",
        "Which other players at {p}'s club are listed in his position",
    ], exclude_topic=True),
    Spec("other", "league>^league", ("C",), [
        "Which other clubs play in {c}'s league?",
        "Who are {c}'s league rivals?",
        "Name the clubs {c} play against in their league",
        "which clubs does {c} share a league with",
        "What other teams are in the same league as {c}?",
        "list the rest of the clubs in {c}'s league",
    ], [
        "Besides {c}, which clubs compete in {c}'s league?",
        "Who do {c} face in their league?",
        "tell me {c}'s opponents in the league",
        "Which sides are {c}'s league competitors?",
    ], exclude_topic=True),
    Spec("other", "nationalTeam>^nationalTeam&playsForClub>^playsForClub", ("P",), [
        "Which of {p}'s club teammates also play for his national team?",
        "Who plays for both {p}'s club and {p}'s national team?",
        "which teammates of {p} are also his international teammates",
        "Name the players at {p}'s club who represent the same country as him",
        "Who else at {p}'s club plays for {p}'s national side?",
        "list {p}'s clubmates who are in his national team too",
    ], [
        "Which of {p}'s clubmates does he also join up with on international duty?",
        "Apart from {p}, who at his club plays for the same country?",
        "tell me the players who are {p}'s teammates for both club and country",
        "Who shares both a club and a national team with {p}?",
    ], exclude_topic=True),
    Spec("other", "nationalTeam>^nationalTeam", ("P",), [
        "Who are {p}'s international teammates?",
        "Which other players play for {p}'s national team?",
        "Who else represents {p}'s country?",
        "name {p}'s teammates in the national team",
        "Which players does {p} line up with for his country?",
        "list the other members of {p}'s national side",
    ], [
        "Who joins {p} in the national squad?",
        "Apart from {p}, who plays for his national team?",
        "which players are {p}'s teammates at international level",
        "tell me who else gets capped by {p}'s country",
    ], exclude_topic=True),
    # ------------------------------------------------------------------ inverse-set
    Spec("inverse-set", "^playsForClub", ("C",), [
        "Which players play for {c}?",
        "Who plays for {c}?",
        "List the {c} squad",
        "Name the players at {c}",
        "who is in the {c} squad",
        "Which footballers are on {c}'s books?",
    ], [
        "Tell me who {c} have in their squad",
        "the players of {c}?",
        "Who turns out for {c}?",
        "give me {c}'s roster",
    ]),
    Spec("inverse-set", "^league", ("L",), [
        "Which clubs are in {l}?",
        "Which clubs play in {l}?",
        "List the clubs in {l}",
        "What teams compete in {l}?",
        "name all {l} clubs",
        "who plays in {l}",
    ], [
        "Which sides make up {l}?",
        "Tell me the teams that play their league football in {l}",
        "{l} clubs?",
        "what clubs take part in {l}",
    ]),
    Spec("inverse-set", "^nationalTeam>playsForClub", ("N",), [
        "Which clubs have a player from {n}?",
        "Which clubs do {n} internationals play for?",
        "Where do the players of the {n} national team play their club football?",
        "List the clubs that have players in the {n} national team",
        "what clubs employ players who represent {n}",
        "name the clubs with at least one {n} international",
    ], [
        "Which teams have someone capped by {n}?",
        "At which clubs can you find {n} internationals?",
        "name the clubs of the players who play for the {n} national side",
        "the {n} national team draws its players from which clubs",
    ]),
    Spec("inverse-set", "^nationalTeam>playsForClub>league", ("N",), [
        "In which leagues do {n} internationals play?",
        "Which leagues do players of the {n} national team play in?",
        "List the leagues where {n} internationals play their club football",
        "what leagues are the {n} national team players in",
        "Name the leagues that have players from the {n} national team",
        "which leagues feature {n} internationals",
    ], [
        "The {n} squad is spread over which leagues?",
        "tell me the leagues the {n} national side's players play in",
        "In what leagues can you watch {n} internationals every week?",
        "which divisions do players capped by {n} compete in",
    ]),
    Spec("inverse-set", "^formerClub", ("C",), [
        "Who used to play for {c}?",
        "Which players are former {c} players?",
        "List the former players of {c}",
        "Name the ex-{c} players",
        "Which players previously played for {c}?",
        "who has {c} as a former club",
    ], [
        "Which current players once turned out for {c}?",
        "Who had an earlier spell at {c}?",
        "tell me which players are {c} old boys",
        "Players who were once at {c}?",
    ]),
    Spec("inverse-set", "^basedIn", ("Y",), [
        "Which clubs are based in {y}?",
        "What clubs are there in {y}?",
        "List the football clubs based in {y}",
        "Which teams come from {y}?",
        "name the clubs located in {y}",
        "which clubs call {y} home",
    ], [
        "{y} is home to which clubs?",
        "What teams does {y} have?",
        "tell me the clubs from {y}",
        "Which sides are based in the city of {y}",
    ]),
    Spec("inverse-set", "^birthCity", ("Y",), [
        "Which players were born in {y}?",
        "Who was born in {y}?",
        "List the footballers born in {y}",
        "Name the players whose birthplace is {y}",
        "which players come from {y} originally",
        "what players have {y} as their birth city",
    ], [
        "{y}-born players?",
        "Which footballers first saw the light of day in {y}?",
        "tell me the players who were born in {y}",
        "Which current players are natives of {y}?",
    ]),
    # ------------------------------------------------------------------ intersection
    Spec("intersection", "^playsForClub&^position", ("C", "Z"), [
        "Which players of {c} play as {z}?",
        "Who are the {zpl} at {c}?",
        "Which {zpl} play for {c}?",
        "List {c}'s {zpl}",
        "who plays {z} for {c}",
        "Name the {c} players whose position is {z}",
    ], [
        "{c} {zpl}?",
        "Tell me which {c} squad members are {zpl}",
        "What {zpl} do {c} have?",
        "who lines up at {z} for {c}",
    ]),
    Spec("intersection", "^nationality&^playsForClub", ("N", "C"), [
        "Which {dem} players play for {c}?",
        "Who are the players from {n} at {c}?",
        "Which players at {c} have {n} nationality?",
        "list the {c} players who are {dem}",
        "Name the {dem} nationals in the {c} squad",
        "which {c} players hold {n} nationality",
    ], [
        "How about {dem} players at {c} - who are they?",
        "Who in the {c} squad has a passport from {n}?",
        "tell me the {c} players carrying {dem} passports",
        "{dem} players at {c}?",
    ]),
    Spec("intersection", "^nationalTeam&^position", ("N", "Z"), [
        "Who are the {zpl} in the {n} squad?",
        "Who plays as {z} for {n}?",
        "Which {zpl} represent {n}?",
        "List the {n} national team players who play {z}",
        "name the {zpl} who play for the {n} national team",
        "which {n} internationals are {zpl}",
    ], [
        "{n}'s {zpl}?",
        "What {zpl} does {n} have at international level?",
        "tell me which players capped by {n} play as {z}",
        "Who are {n}'s options at {z}?",
    ]),
    Spec("intersection", "^league>^playsForClub&^position", ("L", "Z"), [
        "Which {zpl} play in {l}?",
        "Who are the {zpl} playing in {l}?",
        "List the {zpl} at {l} clubs",
        "Name the players in {l} who play {z}",
        "which {l} players are {zpl}",
        "who plays as {z} for a club in {l}",
    ], [
        "{zpl} in {l}?",
        "Tell me every {z} whose club competes in {l}",
        "What {zpl} are there across {l}?",
        "which players line up at {z} for {l} sides",
    ]),
    Spec("intersection", "^formerClub&^playsForClub", ("C", "C2"), [
        "Which {c2} players used to play for {c}?",
        "Who at {c2} is a former {c} player?",
        "which players of {c2} previously played for {c}",
        "List the {c2} players who once played for {c}",
        "Name the ex-{c} players now at {c2}",
        "Who has moved from {c} and now plays for {c2}?",
    ], [
        "Which former {c} players are on the books at {c2}?",
        "{c2} players with a past at {c}?",
        "tell me who plays for {c2} after an earlier spell at {c}",
        "Who in the {c2} squad once turned out for {c}",
    ]),
]

# Synonym wordings must not name the relation with its own words.
SYNONYM_BANNED = {
    "playsForClub": ["club"], "shirtNumber": ["number"], "age": ["age"],
    "manager": ["manager", "manage", "manages"], "homeStadium": ["stadium"],
    "nationalTeam": ["national team"], "formerClub": ["former", "club"],
    "captain": ["captain", "captains"],
}

KIND_ORDER = ["synonym", "possessive", "relative", "wh-type", "topic-answer", "other",
              "inverse-set", "intersection", "plain"]
PLACEHOLDER = {"P": "p", "C": "c", "C2": "c2", "N": "n", "L": "l", "S": "s", "Y": "y",
               "K": "k", "Z": "z"}


# ---------------------------------------------------------------------------------------------
# Executing paths and drawing questions
# ---------------------------------------------------------------------------------------------


def branches(qtype: str) -> list[list[str]]:
    return [b.split(">") for b in qtype.split("&")]


def hops(qtype: str) -> int:
    return max(len(b) for b in branches(qtype))


def execute(kb: KB, qtype: str, anchors: tuple[str, ...]) -> set[str]:
    result: set[str] | None = None
    for i, steps in enumerate(branches(qtype)):
        frontier = {anchors[i] if len(anchors) > 1 else anchors[0]}
        for step in steps:
            index = kb.inv[step[1:]] if step.startswith("^") else kb.fwd[step]
            frontier = set().union(*(index.get(x, set()) for x in frontier))
        result = frontier if result is None else result & frontier
    return result or set()


def candidates(kb: KB, ents: dict[str, list[str]], spec: Spec):
    pools = [ents[a] for a in spec.anchors]
    combos: list[tuple[str, ...]] = [(x,) for x in pools[0]]
    for pool in pools[1:]:
        combos = [c + (y,) for c in combos for y in pool if y not in c]
    out = []
    for anchors in combos:
        gold = execute(kb, spec.qtype, anchors)
        if spec.exclude_topic:
            gold = gold - {anchors[0]}
        if spec.min_size <= len(gold) <= MAX_ANSWERS:
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
        if kind == "Z":
            values["zpl"] = PLURAL[label]
    text = template.format(**values)
    for label in anchors:
        text = possessive(text, label)
    for kind, label in zip(spec.anchors, anchors, strict=True):
        shown = {label, COUNTRIES[label][0] if kind == "N" else label,
                 PLURAL.get(label, label)}
        if not any(re.search(rf"(?<!\w){re.escape(x)}(?!\w)", text) for x in shown):
            raise SystemExit(f"anchor {label!r} missing from {text!r}")
    if len(anchors) == 1 and not re.search(rf"(?<!\w){re.escape(anchors[0])}(?!\w)", text):
        raise SystemExit(f"topic {anchors[0]!r} not written as its label: {text!r}")
    return text


def pick(rng: random.Random, cands: list, n: int, avoid: set, spec: Spec, kb_topic_in) -> list:
    """n candidates, preferring ones not in avoid; honours spec.in_share."""
    fresh = [c for c in cands if c[0] not in avoid]
    stale = [c for c in cands if c[0] in avoid]
    if not spec.in_share:
        return (fresh + stale)[:n]
    ins = [c for c in fresh if kb_topic_in(c)] + [c for c in stale if kb_topic_in(c)]
    outs = [c for c in fresh if not kb_topic_in(c)] + [c for c in stale if not kb_topic_in(c)]
    n_in = min(len(ins), round(n * spec.in_share))
    chosen = ins[:n_in] + outs[: n - n_in]
    rng.shuffle(chosen)
    return chosen


def make_questions(kb: KB, ents: dict[str, list[str]], rng: random.Random):
    tune_rows: list[tuple[str, str, str, str, int]] = []
    held_rows: list[tuple[str, str, str, str, int]] = []
    seen_text: set[str] = set()
    spec_counts: list[tuple[Spec, int, int]] = []
    for spec in SPECS:
        cands = candidates(kb, ents, spec)
        rng.shuffle(cands)

        def topic_in(c: tuple) -> bool:
            return c[0][0] in c[1]

        tune = pick(rng, cands, N_TUNE, set(), spec, topic_in)
        held = pick(rng, cands, N_HELD, {c[0] for c in tune}, spec, topic_in)
        counts = []
        for chosen, templates, rows in ((tune, spec.tune, tune_rows),
                                        (held, spec.held, held_rows)):
            order = list(templates)
            rng.shuffle(order)
            made = 0
            for i, (anchors, gold) in enumerate(chosen):
                for j in range(len(order)):
                    text = render(order[(i + j) % len(order)], spec, anchors)
                    if text not in seen_text:
                        break
                else:
                    continue
                seen_text.add(text)
                kind = spec.kind
                if spec.kind == "topic-answer" and anchors[0] not in gold:
                    kind = spec.alt_kind
                rows.append((text, "|".join(sorted(gold)), spec.qtype, kind,
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
    return re.sub(r"[^a-z{} ]+", "", template.lower()).strip()


def check_templates() -> None:
    tune = {norm(t) for s in SPECS for t in s.tune}
    held = {norm(t) for s in SPECS for t in s.held}
    both = tune & held
    if both:
        raise SystemExit(f"templates shared by tuning and held-out: {sorted(both)}")
    for s in SPECS:
        if len(s.tune) < 6 or len(s.held) < 4:
            raise SystemExit(f"{s.kind} {s.qtype}: too few templates")
        if len({norm(t) for t in s.tune}) != len(s.tune):
            raise SystemExit(f"{s.kind} {s.qtype}: duplicate tuning template")
        if s.kind != "synonym":
            continue
        for t in s.tune + s.held:
            for word in SYNONYM_BANNED.get(s.qtype, []):
                if re.search(rf"\b{word}\b", t.lower()):
                    raise SystemExit(f"synonym wording uses {word!r}: {t}")


def check_rows(kb: KB, rows: list, name: str) -> None:
    labels = set(kb.label_type)
    for _s, _r, o in kb.triples:
        labels.add(o)
    texts = set()
    for text, answers, qtype, kind, nhops in rows:
        assert text not in texts, f"{name}: duplicate question {text!r}"
        texts.add(text)
        assert "\t" not in text and "\n" not in text
        gold = answers.split("|")
        assert 1 <= len(gold) <= MAX_ANSWERS, (name, text)
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
    lines = ["| kind | 1 hop | 2 hops | 3 hops | total |", "|---|---|---|---|---|"]
    for k in KIND_ORDER:
        vals = [c[(k, h)] for h in (1, 2, 3)]
        lines.append(f"| `{k}` | {vals[0]} | {vals[1]} | {vals[2]} | {sum(vals)} |")
    tot = [sum(c[(k, h)] for k in KIND_ORDER) for h in (1, 2, 3)]
    lines.append(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]} | **{sum(tot)}** |")
    return lines


def write_readme(kb: KB, ents: dict, tune: list, held: list, spec_counts: list) -> None:
    rel_count = Counter(r for _s, r, _o in kb.triples)
    type_count = Counter(kb.label_type.values())
    L: list[str] = []
    a = L.append
    a("# football: a generated international-football KB with labelled questions")
    a("")
    a("A small, fully generated knowledge base about international football (soccer): players,")
    a("clubs, national teams, leagues, stadiums, cities and coaches, with labelled 1-3 hop")
    a("questions. It is an evaluation set for knowledge-graph question answering: the questions")
    a("were written without reference to the engine, and the held-out file uses separately")
    a("written wordings, so it measures how well what was tuned on one set of phrasings carries")
    a("over to new ones.")
    a("")
    a("Countries, cities and league names are real; every club, stadium, player and coach is")
    a("invented (names drawn from per-nationality first/last name lists), so a language model")
    a("cannot know the answers beforehand. Any resemblance to real people is coincidental.")
    a("")
    a("## How it is generated")
    a("")
    a("```")
    a("python scripts/devsets/build_football.py")
    a("```")
    a("")
    a(f"Python 3.11 standard library only, deterministic (fixed seed `{SEED}`): running it")
    a("again gives byte-identical files. Change the script, not the files.")
    a("")
    a("## Files")
    a("")
    a(f"- `kb.tsv`: `subject<TAB>relation<TAB>object`, no header ({len(kb.triples):,} triples).")
    a("  Integers (age, height, shirt number, capacity, year) are plain literals such as `27`.")
    a(f"- `questions.tsv`: TUNING questions ({len(tune)}).")
    a(f"- `questions_heldout.tsv`: HELD-OUT questions ({len(held)}), worded with templates that")
    a("  share none of the tuning templates (the script checks this).")
    a('- `questions_probe.tsv`: 27 questions written by hand on 2026-12-06 (not by the build')
    a("  script) for one of this KB's own players, the way an analyst might ask about his club")
    a("  (the last 7, the twenty-fifth session's: national sides' players by position, clubs by")
    a("  their manager's country, a player's former clubs — answers computed from `kb.tsv`);")
    a('  answers read off `kb.tsv`. Used to find failures and check changes, so tuning data, not')
    a('  held-out (`python benchmarks/devsets.py --split probe`).')
    a("")
    a("Both question files have the header `question<TAB>answers<TAB>qtype<TAB>kind<TAB>hops`:")
    a("")
    a("- `question`: natural English; the topic entity appears as its exact KB label (no")
    a("  brackets). Secondary anchors of intersection questions may appear as a demonym")
    a("  (`Brazilian` for `Brazil`) or a plural (`defenders` for `defender`).")
    a("- `answers`: **all** gold answers, sorted, joined by `|`, exactly as KB labels/literals.")
    a("  Gold is computed by executing `qtype` on the KB. Questions with no answer or more than")
    a(f"  {MAX_ANSWERS} answers are dropped.")
    a("- `qtype`: the relation path. Steps are joined by `>`; `^rel` walks `rel` backwards")
    a("  (object to subject); `&` intersects branches. With one anchor every branch starts at")
    a("  the topic (`playsForClub>^playsForClub&position>^position`); with two anchors (the")
    a("  `intersection` kind) branch *i* starts at anchor *i* (`^playsForClub&^position`: players")
    a("  of CLUB that play POSITION).")
    a("- `kind`: the wording category (below). `hops`: length of the longest branch.")
    a("")
    a("Questions are shuffled and no question text appears twice in or across the files. Where")
    a("enough topics exist, held-out questions use topics not used for the same spec in tuning.")
    a("")
    a("## Entities")
    a("")
    a("| type | count |")
    a("|---|---|")
    for t in ["player", "club", "country", "league", "stadium", "city", "coach", "position"]:
        a(f"| {t} | {type_count[t]} |")
    a("")
    a("Every label is unique across entity types. A country label doubles as its national team")
    a("(`nationalTeam`, `headCoach` and `captain` of a country refer to the national team).")
    a("")
    a("## Relations")
    a("")
    a("| relation | head → tail | meaning | triples |")
    a("|---|---|---|---|")
    for name, sig, desc in RELATIONS:
        a(f"| `{name}` | {sig} | {desc} | {rel_count[name]} |")
    a("")
    a("Distractors on purpose: current vs former club (`playsForClub` / `formerClub`); national")
    a("team vs nationality vs birth city's country (players born abroad hold two nationalities,")
    a("uncapped players have no `nationalTeam`); club city vs club country (`basedIn` /")
    a("`clubCountry`) and club city vs stadium city (two grounds lie in a suburb); club manager vs")
    a("national head coach (`manager` / `headCoach`); club captain vs national captain (both")
    a("`captain`). Two stadiums are shared by two clubs.")
    a("")
    a("## Question kinds")
    a("")
    a("- `synonym`: the relation is named with words it doesn't share (*turn out for*, *gaffer*,")
    a("  *how old*, *what shirt does X wear*, *where do X play their home games*).")
    a("- `possessive`: chained possessives (*X's club's stadium*, *the nationality of X's club's")
    a("  manager*).")
    a("- `relative`: relative clauses (*the club that X plays for is based in which country*).")
    a("- `wh-type`: the answer type follows from the question word or type noun (*where is C")
    a("  based* → city, *which country is X's club in* → country, *how many seats* → number,")
    a("  *when was C founded* → year, *how tall*).")
    a("- `topic-answer`: the answer is, or includes, the topic (*who captains X's club* asked of")
    a("  the captain; *list the squad of X's club*). Gold keeps the topic.")
    a("- `other`: asks for others, so the topic is removed from the gold (*X's teammates*, *who")
    a("  else wears X's number*, *C's league rivals*).")
    a("- `inverse-set`: set-valued inverse hops (*which players play for C*, *which clubs have a")
    a("  player from N*).")
    a("- `intersection`: two anchors (*which defenders play for C*, *which Brazilian players play")
    a("  for C*, *which C2 players used to play for C*).")
    a("- `plain`: direct wordings using the relation's own words.")
    a("")
    a("The spec `playsForClub>captain` mixes captains (kind `topic-answer`) and other players")
    a("(kind `possessive`) under the same wordings.")
    a("")
    a("### Tuning file: questions per kind and hops")
    a("")
    L.extend(kind_hops_table(tune))
    a("")
    a("### Held-out file: questions per kind and hops")
    a("")
    L.extend(kind_hops_table(held))
    a("")
    a("### Per spec")
    a("")
    a("| kind | qtype | hops | tuning | held-out | tuning templates | held-out templates |"
      " example tuning wording |")
    a("|---|---|---|---|---|---|---|---|")
    for spec, nt, nh in spec_counts:
        ex = spec.tune[0].replace("|", "/")
        a(f"| `{spec.kind}` | `{spec.qtype}` | {hops(spec.qtype)} | {nt} | {nh} | "
          f"{len(spec.tune)} | {len(spec.held)} | {ex} |")
    a("")
    a("Where a spec has fewer usable topics than asked for (there are only "
      f"{len(ents['L'])} leagues,")
    a("for instance), it has fewer questions, and the held-out file reuses tuning topics with")
    a("its own wordings. All wordings are in `SPECS` in the script.")
    a("")
    a("## Licence")
    a("")
    a("Everything here is generated by `scripts/devsets/build_football.py`. The data is")
    a("dedicated to the public domain under")
    a("[CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/).")
    (OUT / "README.md").write_text("\n".join(L) + "\n", encoding="utf-8")


def main() -> None:
    check_templates()
    rng = random.Random(SEED)
    kb, ents = build_kb(rng)
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
