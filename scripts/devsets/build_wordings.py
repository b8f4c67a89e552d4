#!/usr/bin/env python3
"""Build the "own wordings" questions of the dev KBs: templates written in our own words for
relation paths of each KB, filled with the KB's entities, the gold answer found by walking the
path in the KB itself.

    python scripts/devsets/build_wordings.py

Writes benchmarks/data/<kb>/questions_wordings.tsv (question, answers, qtype, kind, hops) for
the five dev KBs, reading each KB's own file (kb.tsv, or kb.nt with its rdfs:labels). A path
is relations joined by ">", "^" before one walked backwards, and "[relation=value]" after one
keeps only the nodes with that value ("parent[gender=female]": mothers). Entities are drawn
with a fixed seed among those the path leads from to something other than themselves, so
re-running gives identical files.

The wordings were written on 2026-12-07 by the person who then changed the engine (README,
"Dev sets", items 189–193) to find failures: some of them were then fixed, so these files
check capabilities; they are not an unseen measure. A second batch (each KB's last
templates) was written in the thirty-fourth session before it was first run; its first
figures are in the README ("Dev sets", thirty-fourth session); so was a third (after it),
in the thirty-fifth session, a fourth in the thirty-sixth, a fifth in the thirty-seventh, and a
sixth, a seventh (walks out and back to the topic's peers) and an eighth (the same walks with
no cue for others, the topic among the answers) in the thirty-eighth.
"""

from __future__ import annotations

import collections
import random
import re
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data"
PER_TEMPLATE = 4
SEED = 20261207

TEMPLATES: dict[str, list[tuple[str, str]]] = {
    "family": [
        ("what does {x}'s hubby do for a living", "spouse[gender=male]>profession"),
        ("where did {x}'s missus go to university", "spouse[gender=female]>education"),
        ("who is {x}'s sister's husband", "sibling[gender=female]>spouse[gender=male]"),
        ("what is the occupation of {x}'s husband", "spouse[gender=male]>profession"),
        ("who employs {x}'s partner", "spouse>employer"),
        ("who employs {x}'s spouse", "spouse>employer"),
        ("who employs {x}'s father", "parent[gender=male]>employer"),
        ("where was {x}'s grandfather born", "parent>parent[gender=male]>place_of_birth"),
        ("what is {x}'s mother's hometown", "parent[gender=female]>place_of_birth"),
        ("who is {x}'s sister married to", "sibling[gender=female]>spouse"),
        ("what religion does {x}'s dad's wife follow",
         "parent[gender=male]>spouse[gender=female]>religion"),
        ("what company does {x}'s spouse work for", "spouse>employer"),
        ("what are the names of {x}'s grandchildren", "child>child"),
        ("where do {x}'s children live", "child>place_of_residence"),
        ("what jobs do {x}'s kids have", "child>profession"),
        ("which languages does {x}'s husband speak", "spouse[gender=male]>languages_spoken"),
        ("when was {x}'s mother born", "parent[gender=female]>year_of_birth"),
        ("what did {x}'s father die of", "parent[gender=male]>cause_of_death"),
        ("who are the daughters of {x}'s siblings", "sibling>child[gender=female]"),
        ("who are the children of {x}'s daughter", "child[gender=female]>child"),
        ("who is the father of {x}'s wife", "spouse[gender=female]>parent[gender=male]"),
        ("who are the parents of {x}'s spouse", "spouse>parent"),
        ("who are the kids of {x}'s sister", "sibling[gender=female]>child"),
        ("who are {x}'s nieces", "sibling>child[gender=female]"),
        ("who are {x}'s nephews", "sibling>child[gender=male]"),
        ("who are {x}'s aunts", "parent>sibling[gender=female]"),
        ("who are {x}'s uncles", "parent>sibling[gender=male]"),
        ("who are {x}'s cousins", "parent>sibling>child"),
        ("who is {x}'s grandfather", "parent>parent[gender=male]"),
        ("who is {x}'s son-in-law", "child>spouse[gender=male]"),
        ("who is {x}'s mother-in-law", "spouse>parent[gender=female]"),
        ("who is {x}'s stepmother", "parent[gender=male]>spouse[gender=female]"),
        ("who are {x}'s grandparents", "parent>parent"),
        ("who are {x}'s grandsons", "child>child[gender=male]"),
        ("who are the granddaughters of {x}", "child>child[gender=female]"),
        # second batch (thirty-fourth session), written before it was first run
        ("which country is {x} a citizen of", "nationality"),
        ("what faith does {x}'s wife practise", "spouse[gender=female]>religion"),
        ("in which city did {x}'s father pass away", "parent[gender=male]>place_of_death"),
        ("how tall is {x}'s brother", "sibling[gender=male]>height_cm"),
        ("which languages can {x}'s mum speak", "parent[gender=female]>languages_spoken"),
        ("who are the brothers and sisters of {x}'s husband", "spouse[gender=male]>sibling"),
        ("where does the company that employs {x} have its headquarters",
         "employer>headquartered_in"),
        ("what's the official language of the country {x} was born in",
         "place_of_birth>located_in>official_language"),
        ("which year did {x}'s grandmother die", "parent>parent[gender=female]>year_of_death"),
        ("who did {x}'s daughter marry", "child[gender=female]>spouse"),
        ("what ethnic group does {x}'s mother belong to", "parent[gender=female]>ethnicity"),
        ("where did {x}'s parents study", "parent>education"),
        # third batch (thirty-fifth session), written before it was first run
        ("what line of work is {x}'s wife in", "spouse[gender=female]>profession"),
        ("which city does {x}'s son live in", "child[gender=male]>place_of_residence"),
        ("who was born in {x}", "^place_of_birth"),
        ("what is the capital of the country {x} is a national of", "nationality>capital"),
        ("which people work for {x}", "^employer"),
        ("what caused the death of {x}'s mother", "parent[gender=female]>cause_of_death"),
        ("in what year was {x}'s husband born", "spouse[gender=male]>year_of_birth"),
        ("where is the firm that {x}'s brother works for based",
         "sibling[gender=male]>employer>headquartered_in"),
        ("what language is spoken officially where {x} lives",
         "place_of_residence>located_in>official_language"),
        ("who are the siblings of {x}'s mother", "parent[gender=female]>sibling"),
        # fourth batch (thirty-sixth session), written before it was first run
        ("what religion did {x}'s grandmother follow", "parent>parent[gender=female]>religion"),
        ("what is the height of {x}'s sister", "sibling[gender=female]>height_cm"),
        ("where was {x}'s son-in-law born", "child>spouse[gender=male]>place_of_birth"),
        ("who are the grandchildren of {x}'s brother", "sibling[gender=male]>child>child"),
        ("what is {x}'s ethnic background", "ethnicity"),
        ("what is the capital of {x}'s country", "nationality>capital"),
        ("which people died in {x}", "^place_of_death"),
        ("who lives in {x}", "^place_of_residence"),
        ("in which year did {x}'s wife die", "spouse[gender=female]>year_of_death"),
        ("what do {x}'s parents do for work", "parent>profession"),
        # fifth batch (thirty-seventh session), written before it was first run
        ("who did {x}'s daughter marry", "child[gender=female]>spouse"),
        ("what is the religion of the man {x} is married to", "spouse[gender=male]>religion"),
        ("in which city does {x}'s son live", "child[gender=male]>place_of_residence"),
        ("what year was {x}'s grandmother born", "parent>parent[gender=female]>year_of_birth"),
        ("name the people who work for {x}", "^employer"),
        ("which languages are spoken by {x}'s in-laws", "spouse>parent>languages_spoken"),
        ("where did the brother of {x} study", "sibling[gender=male]>education"),
        ("what caused the death of {x}'s mother", "parent[gender=female]>cause_of_death"),
        ("which country was {x}'s spouse born in", "spouse>place_of_birth>located_in"),
        ("what ethnicity is {x}'s father", "parent[gender=male]>ethnicity"),
        # sixth batch (thirty-eighth session), written before it was first run
        ("what nationality is {x}'s mother-in-law", "spouse>parent[gender=female]>nationality"),
        ("who are {x}'s sons", "child[gender=male]"),
        ("what does {x}'s sister do", "sibling[gender=female]>profession"),
        ("which city was {x}'s husband born in", "spouse[gender=male]>place_of_birth"),
        ("what language is spoken in the country {x} comes from", "nationality>official_language"),
        ("which company is {x}'s brother employed by", "sibling[gender=male]>employer"),
        ("what religion are {x}'s parents", "parent>religion"),
        ("in which year was {x}'s father born", "parent[gender=male]>year_of_birth"),
        ("who is the spouse of {x}'s son", "child[gender=male]>spouse"),
        ("which university did {x}'s daughter attend", "child[gender=female]>education"),
        ("where is the headquarters of the company {x}'s wife works for",
         "spouse[gender=female]>employer>headquartered_in"),
        # seventh batch (thirty-eighth session): walks out and back to the topic's peers,
        # written before it was first run
        ("who works at the same company as {x}", "employer>^employer-self"),
        ("who else lives in the city {x} lives in", "place_of_residence>^place_of_residence-self"),
        ("which people went to the same university as {x}", "education>^education-self"),
        ("who was born in the same city as {x}", "place_of_birth>^place_of_birth-self"),
        # eighth batch (thirty-eighth session): walks out and back with no cue for others,
        # the topic among the answers ("+self"), written before it was first run
        ("who works for {x}'s employer", "employer>^employer+self"),
        ("who lives in {x}'s city", "place_of_residence>^place_of_residence+self"),
        ("list the graduates of the university {x} attended", "education>^education+self"),
        # ninth batch (thirty-ninth session): everyday wordings typed while probing the
        # session-start code on one entity each, then filled for four — not unseen
        ("what faith does {x} follow", "religion"),
        ("what does {x} believe in", "religion"),
        ("what ethnic group is {x} from", "ethnicity"),
        ("what tongue does {x} speak", "languages_spoken"),
        ("what is {x}'s height", "height_cm"),
        ("who is {x} married to", "spouse"),
        ("what does {x} do for work", "profession"),
        ("which university did {x} graduate from", "education"),
        ("where is {x}'s employer based", "employer>headquartered_in"),
        ("what sex is {x}", "gender"),
    ],
    "football": [
        ("who manages the club {x} plays for", "playsForClub>manager"),
        ("which stadium does {x}'s club play its home games at", "playsForClub>homeStadium"),
        ("how many people fit in the stadium of {x}'s club",
         "playsForClub>homeStadium>capacity"),
        ("which league is {x}'s club in", "playsForClub>league"),
        ("what country is {x}'s club's league in", "playsForClub>league>leagueCountry"),
        ("which city hosts {x}'s club", "playsForClub>basedIn"),
        ("who captains the club {x} plays for", "playsForClub>captain"),
        ("what number does {x} wear", "shirtNumber"),
        ("where did {x} play before", "formerClub"),
        ("in what year was {x}'s club founded", "playsForClub>foundedYear"),
        ("who captains {x}", "captain"),
        ("who coaches {x}'s club", "playsForClub>manager"),
        # second batch (thirty-fourth session), written before it was first run
        ("what position does {x} play", "position"),
        ("which clubs has {x} played for in the past", "formerClub"),
        ("who is the manager of {x}'s team", "playsForClub>manager"),
        ("in which city is {x}'s club's stadium", "playsForClub>homeStadium>stadiumCity"),
        ("what is the capacity of the ground where {x}'s club plays",
         "playsForClub>homeStadium>capacity"),
        ("which country does {x} represent internationally", "nationalTeam"),
        ("where was the captain of {x} born", "captain>birthCity"),
        ("what nationality is the manager of {x}", "manager>coachNationality"),
        ("how old is {x}'s captain", "captain>age"),
        ("which country is {x}'s home city in", "basedIn>cityCountry"),
        ("which league does the club {x} captains play in", "^captain>league"),
        # third batch (thirty-fifth session), written before it was first run
        ("how tall is {x}", "heightCm"),
        ("which city was {x} born in", "birthCity"),
        ("who plays for {x}", "^playsForClub"),
        ("which clubs play their home matches at {x}", "^homeStadium"),
        ("who is the head coach of {x}", "headCoach"),
        ("what nationality is the coach of {x}'s club", "playsForClub>manager>coachNationality"),
        ("what position does {x}'s captain play", "captain>position"),
        ("which clubs are in {x}", "^league"),
        ("what shirt number does {x}'s club captain wear", "playsForClub>captain>shirtNumber"),
        ("when was the club {x} manages founded", "^manager>foundedYear"),
        # fourth batch (thirty-sixth session), written before it was first run
        ("how many fans can {x}'s stadium hold", "homeStadium>capacity"),
        ("which player captains {x}", "captain"),
        ("where is the manager of {x}'s club from", "playsForClub>manager>coachNationality"),
        ("which players were born in {x}", "^birthCity"),
        ("in which country is the league of {x}'s club", "playsForClub>league>leagueCountry"),
        ("how old is the captain of {x}'s club", "playsForClub>captain>age"),
        ("what is the home ground of the club {x} captains", "^captain>homeStadium"),
        ("which nation does {x} play international football for", "nationalTeam"),
        ("which clubs did {x}'s captain play for before", "captain>formerClub"),
        ("who are the players at {x}", "^playsForClub"),
        # fifth batch (thirty-seventh session), written before it was first run
        ("who plays for the club managed by {x}", "^manager>^playsForClub"),
        ("which position does the captain of {x} play", "captain>position"),
        ("what is the capacity of the ground where {x} play their home matches",
         "homeStadium>capacity"),
        ("which city is {x}'s home stadium in", "homeStadium>stadiumCity"),
        ("which league does the club that {x} used to play for compete in", "formerClub>league"),
        ("what nationality is the manager of {x}", "manager>coachNationality"),
        ("who is the head coach of the national team {x} plays for", "nationalTeam>headCoach"),
        ("how tall is the captain of {x}", "captain>heightCm"),
        ("in what year was {x}'s former club founded", "formerClub>foundedYear"),
        ("which players used to play for {x}", "^formerClub"),
        # sixth batch (thirty-eighth session), written before it was first run
        ("which club does {x} currently play for", "playsForClub"),
        ("who is the boss at {x}", "manager"),
        ("what is the name of {x}'s home ground", "homeStadium"),
        ("in which city does {x}'s club play", "playsForClub>basedIn"),
        ("what position does {x}'s captain play", "captain>position"),
        ("which national team does {x} coach", "^headCoach"),
        ("how many spectators does {x}'s ground hold", "homeStadium>capacity"),
        ("where was the captain of {x} born", "captain>birthCity"),
        ("which league does {x} compete in", "league"),
        ("what shirt number does the captain of {x} wear", "captain>shirtNumber"),
        ("who manages {x}'s former club", "formerClub>manager"),
        # seventh batch (thirty-eighth session): walks out and back to the topic's peers,
        # written before it was first run
        ("which other clubs play in {x}'s league", "league>^league-self"),
        ("who are {x}'s teammates", "playsForClub>^playsForClub-self"),
        ("who plays for the same national team as {x}", "nationalTeam>^nationalTeam-self"),
        ("which players were born in the same city as {x}", "birthCity>^birthCity-self"),
        ("which clubs does {x} share a league with", "league>^league-self"),
        # eighth batch (thirty-eighth session): walks out and back with no cue for others,
        # the topic among the answers ("+self"), written before it was first run
        ("which clubs are in {x}'s league", "league>^league+self"),
        ("list the players of the club {x} plays for", "playsForClub>^playsForClub+self"),
        ("which players does {x}'s national team have", "nationalTeam>^nationalTeam+self"),
        ("name the clubs in the league {x} plays in", "league>^league+self"),
        ("who is in {x}'s squad", "playsForClub>^playsForClub+self"),
        # ninth batch (thirty-ninth session): everyday wordings typed while probing the
        # session-start code on one entity each, then filled for four — not unseen
        ("who coaches {x}", "manager"),
        ("who is the boss of {x}", "manager"),
        ("who is in charge of {x}", "manager"),
        ("who is the coach of {x}", "manager"),
        ("what is {x}'s jersey number", "shirtNumber"),
        ("what is {x}'s squad number", "shirtNumber"),
        ("what number is on {x}'s shirt", "shirtNumber"),
        ("which club did {x} play for previously", "formerClub"),
        ("which team did {x} use to play for", "formerClub"),
        ("where did {x} play before", "formerClub"),
        ("how tall is {x}", "heightCm"),
        ("what is {x}'s hometown", "birthCity"),
    ],
    "business": [
        ("who makes {x}", "manufacturer"),
        ("who manufactures {x}", "manufacturer"),
        ("who employs {x}", "employer"),
        ("who employs {x}'s founder", "founded_by>employer"),
        ("where was the CEO of {x} born", "chief_executive_officer>place_of_birth"),
        ("which university did {x}'s chief executive attend",
         "chief_executive_officer>educated_at"),
        ("who chairs {x}", "chairperson"),
        ("which stock exchange lists {x}", "listed_on"),
        ("who founded {x}'s parent company", "parent_organization>founded_by"),
        ("what industry is {x}'s parent in", "parent_organization>industry"),
        ("which firms compete with {x}", "competitor"),
        ("who runs {x}", "chief_executive_officer"),
        ("what does {x} produce", "product_or_material_produced"),
        ("when was {x}'s parent company founded", "parent_organization>inception"),
        # second batch (thirty-fourth session), written before it was first run
        ("how much money does {x} bring in", "revenue"),
        ("how many staff does {x} have", "number_of_employees"),
        ("when was {x} established", "inception"),
        ("where is {x} headquartered", "headquarters_location"),
        ("who sits on the board of {x}", "board_member"),
        ("which companies does {x} own", "subsidiary"),
        ("who are {x}'s rivals", "competitor"),
        ("in which country is {x}'s head office", "headquarters_location>located_in"),
        ("where did the founder of {x} go to school", "founded_by>educated_at"),
        ("what currency is used in the country where {x} is based", "country>currency"),
        ("who chairs the company that makes {x}", "manufacturer>chairperson"),
        ("which company is {x} the CEO of", "^chief_executive_officer"),
        # third batch (thirty-fifth session), written before it was first run
        ("who started {x}", "founded_by"),
        ("which companies did {x} found", "^founded_by"),
        ("where was the founder of {x}'s parent company born",
         "parent_organization>founded_by>place_of_birth"),
        ("what is the nationality of {x}'s chairperson", "chairperson>country_of_citizenship"),
        ("which companies are listed on {x}", "^listed_on"),
        ("what sector is the maker of {x} in", "manufacturer>industry"),
        ("how many employees does {x}'s parent organization have",
         "parent_organization>number_of_employees"),
        ("which boards does {x} sit on", "^board_member"),
        ("what currency does {x}'s country use", "country>currency"),
        ("who heads the company that owns {x}", "parent_organization>chief_executive_officer"),
        # fourth batch (thirty-sixth session), written before it was first run
        ("who is the chief executive of {x}'s parent company",
         "parent_organization>chief_executive_officer"),
        ("where was {x}'s chairperson born", "chairperson>place_of_birth"),
        ("which exchange is {x}'s parent company listed on", "parent_organization>listed_on"),
        ("who founded the company that makes {x}", "manufacturer>founded_by"),
        ("where did {x}'s board members study", "board_member>educated_at"),
        ("which firms is {x} a board member of", "^board_member"),
        ("what is the revenue of the firm that produces {x}", "manufacturer>revenue"),
        ("which country is {x}'s founder a citizen of", "founded_by>country_of_citizenship"),
        ("what currency is used where {x} has its headquarters",
         "headquarters_location>located_in>currency"),
        ("who runs the companies that {x} owns", "subsidiary>chief_executive_officer"),
        # fifth batch (thirty-seventh session), written before it was first run
        ("in which city are {x}'s headquarters", "headquarters_location"),
        ("what does {x} produce", "product_or_material_produced"),
        ("which company is {x} a subsidiary of", "parent_organization"),
        ("who are {x}'s rivals", "competitor"),
        ("where was the founder of {x} born", "founded_by>place_of_birth"),
        ("which industry is {x}'s competitor in", "competitor>industry"),
        ("who sits on the board of the company that makes {x}", "manufacturer>board_member"),
        ("when was {x}'s parent company founded", "parent_organization>inception"),
        ("which university did the chairperson of {x} go to", "chairperson>educated_at"),
        # sixth batch (thirty-eighth session), written before it was first run
        ("who is the boss of {x}", "chief_executive_officer"),
        ("which firm owns {x}", "parent_organization"),
        ("what subsidiaries does {x} have", "subsidiary"),
        ("where is {x}'s parent company based", "parent_organization>headquarters_location"),
        ("how many people does {x} employ", "number_of_employees"),
        ("what industry does the maker of {x} work in", "manufacturer>industry"),
        ("who founded {x}'s rival", "competitor>founded_by"),
        ("which country is {x}'s CEO from", "chief_executive_officer>country_of_citizenship"),
        ("where did the founder of {x} go to college", "founded_by>educated_at"),
        ("when was the company that makes {x} founded", "manufacturer>inception"),
        # seventh batch (thirty-eighth session): walks out and back to the topic's peers,
        # written before it was first run
        ("which other companies did {x}'s founders start", "founded_by>^founded_by-self"),
        ("which firms are headquartered in the same city as {x}",
         "headquarters_location>^headquarters_location-self"),
        ("which other companies are in the same industry as {x}", "industry>^industry-self"),
        ("which companies share a founder with {x}", "founded_by>^founded_by-self"),
        # eighth batch (thirty-eighth session): walks out and back with no cue for others,
        # the topic among the answers ("+self"), written before it was first run
        ("what companies were started by {x}'s founders", "founded_by>^founded_by+self"),
        ("which firms are based in {x}'s home city",
         "headquarters_location>^headquarters_location+self"),
        ("list the companies in {x}'s industry", "industry>^industry+self"),
        # ninth batch (thirty-ninth session): everyday wordings typed while probing the
        # session-start code on one entity each, then filled for four — not unseen
        ("who set up {x}", "founded_by"),
        ("where is {x}'s head office", "headquarters_location"),
        ("how many staff does {x} employ", "number_of_employees"),
        ("how much money does {x} bring in", "revenue"),
        ("who sits on the board of {x}", "board_member"),
        ("who chairs {x}", "chairperson"),
        ("where can I buy shares of {x}", "listed_on"),
        ("who does {x} compete against", "competitor"),
        ("which company owns {x}", "parent_organization"),
        ("which firms belong to {x}", "subsidiary"),
        ("what line of business is {x} in", "industry"),
        ("what business is {x} in", "industry"),
    ],
    "music": [
        ("who produced {x}", "produced by"),
        ("who wrote {x}", "written by"),
        ("who sings for {x}", "lead vocalist"),
        ("who produced {x}'s albums", "^performer>produced by"),
        ("which label put out {x}", "released on label"),
        ("where is the label that released {x} based", "released on label>label headquarters"),
        ("who started the label {x} is on", "released on label>founder"),
        ("which instruments does {x} play", "plays instrument"),
        ("what band is {x} in", "member of"),
        ("where was {x}'s band formed", "member of>formed in"),
        ("when was {x}'s band formed", "member of>formation year"),
        ("what genre does {x}'s band play", "member of>genre"),
        ("who influenced {x}", "influenced by"),
        ("which album is {x} on", "track of"),
        ("who performed {x}", "track of>performer"),
        # second batch (thirty-fourth session), written before it was first run
        ("who is the frontman of {x}", "lead vocalist"),
        ("when did {x} come out", "release year"),
        ("what kind of music does {x} make", "genre"),
        ("where was the singer of {x} born", "lead vocalist>born in"),
        ("which country is {x}'s lead singer a citizen of", "lead vocalist>citizen of"),
        ("who is {x} married to", "spouse"),
        ("which school did {x} study at", "studied at"),
        ("what year was the label behind {x} founded", "released on label>founding year"),
        ("which bands has {x} left", "former member of"),
        ("who headlined {x}", "headliner"),
        ("in which city is {x} held", "held in"),
        ("who recorded the album that {x} is from", "track of>performer"),
        # third batch (thirty-fifth session), written before it was first run
        ("which studio was {x} recorded at", "recorded at"),
        ("which albums did {x} produce", "^produced by"),
        ("who plays in {x}", "^member of"),
        ("when was {x}'s lead singer born", "lead vocalist>birth year"),
        ("which awards has {x} won", "award won"),
        ("where did {x}'s singer go to school", "lead vocalist>studied at"),
        ("who wrote the songs on {x}", "^track of>written by"),
        ("which bands were formed in {x}", "^formed in"),
        ("who founded the label {x} records for", "^performer>released on label>founder"),
        ("which musicians did {x} influence", "^influenced by"),
        # fourth batch (thirty-sixth session), written before it was first run
        ("which genre does {x} play", "genre"),
        ("who performs {x}", "performer"),
        ("in which year was the band {x} sings for formed", "^lead vocalist>formation year"),
        ("where were the members of {x} born", "^member of>born in"),
        ("which instruments do the members of {x} play", "^member of>plays instrument"),
        ("which label released the album {x} is on", "track of>released on label"),
        ("who produced the album that contains {x}", "track of>produced by"),
        ("when was {x} first held", "first held"),
        ("who founded the label that released {x}", "released on label>founder"),
        ("what band did {x} use to be in", "former member of"),
        # fifth batch (thirty-seventh session), written before it was first run
        ("which label is {x} signed to", "^performer>released on label"),
        ("who sings lead for {x}", "lead vocalist"),
        ("what instrument does {x} play", "plays instrument"),
        ("which city is the studio where {x} was recorded in", "recorded at>venue city"),
        ("which country is {x} a citizen of", "citizen of"),
        ("in what year did {x}'s band form", "member of>formation year"),
        ("who headlined {x}", "headliner"),
        ("what genre is the band that recorded {x}", "performer>genre"),
        ("where is the label that released {x} based", "released on label>label headquarters"),
        # sixth batch (thirty-eighth session), written before it was first run
        ("who are the members of {x}", "^member of"),
        ("who produced the albums of {x}", "^performer>produced by"),
        ("which label is {x}'s album on", "^performer>released on label"),
        ("where was the lead singer of {x} born", "lead vocalist>born in"),
        ("what year did {x} come out", "release year"),
        ("which band recorded {x}", "performer"),
        ("who founded the record label {x}", "founder"),
        ("where is {x}'s label headquartered", "released on label>label headquarters"),
        ("what instruments does {x}'s lead singer play", "lead vocalist>plays instrument"),
        ("which bands were influenced by {x}", "^influenced by"),
        # seventh batch (thirty-eighth session): walks out and back to the topic's peers,
        # written before it was first run
        ("who are {x}'s bandmates", "member of>^member of-self"),
        ("which other songs are on the same album as {x}", "track of>^track of-self"),
        ("which albums came out on the same label as {x}",
         "released on label>^released on label-self"),
        ("which other bands were formed in the same city as {x}", "formed in>^formed in-self"),
        ("which albums share a producer with {x}", "produced by>^produced by-self"),
        # eighth batch (thirty-eighth session): walks out and back with no cue for others,
        # the topic among the answers ("+self"), written before it was first run
        ("who plays in the band {x} is a member of", "member of>^member of+self"),
        ("what tracks are on the album that has {x}", "track of>^track of+self"),
        ("which albums did the label of {x} release", "released on label>^released on label+self"),
        ("list the members of {x}'s band", "member of>^member of+self"),
        # ninth batch (thirty-ninth session): everyday wordings typed while probing the
        # session-start code on one entity each, then filled for four — not unseen
        ("who is in {x}", "^member of"),
        ("who plays in {x}", "^member of"),
        ("who sings for {x}", "lead vocalist"),
        ("what kind of music do {x} play", "genre"),
        ("where did {x} form", "formed in"),
        ("when did {x} get together", "formation year"),
        ("which records have {x} made", "^performer"),
        ("what label is {x} on", "released on label"),
        ("who recorded {x}", "performer"),
        ("when did {x} come out", "release year"),
        ("who are {x}'s bandmates", "member of>^member of-self"),
    ],
    "science": [
        ("who funds {x}", "funded_by"),
        ("who funds the project that {x} leads", "^principal_investigator>funded_by"),
        ("who supervised {x}", "doctoral_advisor"),
        ("who advised {x}'s advisor", "doctoral_advisor>doctoral_advisor"),
        ("who directs {x}", "director"),
        ("who directs the lab where {x} works", "employer>director"),
        ("who heads the lab where {x} works", "employer>director"),
        ("who awards {x}", "awarded_by"),
        ("which journal published {x}", "published_in"),
        ("who wrote {x}", "^author_of"),
        ("who employs {x}'s doctoral advisor", "doctoral_advisor>employer"),
        ("where is the institution that employs {x} located", "employer>located_in"),
        ("which journal carried the paper that {x} wrote", "author_of>published_in"),
        ("who leads the project that {x} funds", "^funded_by>principal_investigator"),
        ("in which city is the university that educated {x}", "educated_at>located_in"),
        ("when was the institution that employs {x} founded", "employer>founded_year"),
        ("how many people work at the institution where {x} studied",
         "educated_at>number_of_employees"),
        ("what field does {x}'s advisor work in", "doctoral_advisor>field_of_work"),
        ("which award did {x}'s doctoral advisor receive", "doctoral_advisor>award_received"),
        # second batch (thirty-fourth session), written before it was first run
        ("which prizes has {x} won", "award_received"),
        ("where did {x} get their education", "educated_at"),
        ("who does {x} collaborate with", "collaborator"),
        ("what is {x}'s h-index", "h_index"),
        ("where did {x} die", "died_in"),
        ("which societies is {x} a member of", "member_of"),
        ("when was {x} published", "publication_year"),
        ("what subject does {x}'s doctoral student work on", "^doctoral_advisor>field_of_work"),
        ("where was {x}'s advisor born", "doctoral_advisor>born_in"),
        ("which city is {x}'s employer in", "employer>located_in"),
        ("who is in charge of the project {x} funds", "^funded_by>principal_investigator"),
        ("which institution is {x} part of", "part_of"),
        # third batch (thirty-fifth session), written before it was first run
        ("what papers has {x} written", "author_of"),
        ("in what year did {x} come out", "publication_year"),
        ("who are {x}'s doctoral students", "^doctoral_advisor"),
        ("which journals has {x} published in", "author_of>published_in"),
        ("what nationality is {x}'s spouse", "spouse>country_of_citizenship"),
        ("who is the head of {x}", "director"),
        ("which researchers work at {x}", "^employer"),
        ("where was the director of the lab {x} works in born", "employer>director>born_in"),
        ("which projects does {x} fund", "^funded_by"),
        ("which society gives out the award {x} received", "award_received>awarded_by"),
        # fourth batch (thirty-sixth session), written before it was first run
        ("which university did {x}'s doctoral advisor attend", "doctoral_advisor>educated_at"),
        ("where do {x}'s collaborators work", "collaborator>employer"),
        ("which journals did {x}'s advisor publish in", "doctoral_advisor>author_of>published_in"),
        ("what year was {x}'s employer founded", "employer>founded_year"),
        ("who leads {x}", "principal_investigator"),
        ("where does the principal investigator of {x} work", "principal_investigator>employer"),
        ("what fields do the researchers who work at {x} study", "^employer>field_of_work"),
        ("in which country was {x} born", "born_in>located_in"),
        ("who received {x}", "^award_received"),
        ("which scientists died in {x}", "^died_in"),
        # fifth batch (thirty-seventh session), written before it was first run
        ("what is {x}'s research field", "field_of_work"),
        ("which institution employs {x}'s collaborator", "collaborator>employer"),
        ("where was {x}'s doctoral supervisor born", "doctoral_advisor>born_in"),
        ("which papers did {x} write", "author_of"),
        ("in which journal was {x} published", "published_in"),
        ("who are the students that {x} supervised", "^doctoral_advisor"),
        ("what is the h-index of {x}'s advisor", "doctoral_advisor>h_index"),
        ("which organisation is {x} a member of", "member_of"),
        ("which country is the institution {x} works at in", "employer>located_in>located_in"),
        ("who is married to {x}", "spouse"),
        # sixth batch (thirty-eighth session), written before it was first run
        ("who was {x}'s PhD supervisor", "doctoral_advisor"),
        ("which prizes has {x} won", "award_received"),
        ("where did {x} get their degree", "educated_at"),
        ("in which city is {x}'s employer", "employer>located_in"),
        ("what is the h-index of {x}", "h_index"),
        ("who funds the project led by {x}", "^principal_investigator>funded_by"),
        ("where did {x}'s advisor study", "doctoral_advisor>educated_at"),
        ("which researchers work at {x}", "^employer"),
        ("when was {x} born", "birth_year"),
        ("what nationality is {x}'s collaborator", "collaborator>country_of_citizenship"),
        # seventh batch (thirty-eighth session): walks out and back to the topic's peers,
        # written before it was first run
        ("who else was supervised by {x}'s doctoral advisor",
         "doctoral_advisor>^doctoral_advisor-self"),
        ("who are {x}'s co-authors", "author_of>^author_of-self"),
        ("who works at the same institution as {x}", "employer>^employer-self"),
        ("which other labs are part of the same institution as {x}", "part_of>^part_of-self"),
        ("which scientists share a doctoral advisor with {x}",
         "doctoral_advisor>^doctoral_advisor-self"),
        # eighth batch (thirty-eighth session): walks out and back with no cue for others,
        # the topic among the answers ("+self"), written before it was first run
        ("who studied under {x}'s doctoral advisor", "doctoral_advisor>^doctoral_advisor+self"),
        ("list the authors of {x}'s papers", "author_of>^author_of+self"),
        ("who is employed at {x}'s institution", "employer>^employer+self"),
        ("list the labs of the institution {x} belongs to", "part_of>^part_of+self"),
        # ninth batch (thirty-ninth session): everyday wordings typed while probing the
        # session-start code on one entity each, then filled for four — not unseen
        ("where did {x} do their PhD", "educated_at"),
        ("who mentored {x}", "doctoral_advisor"),
        ("what does {x} work on", "field_of_work"),
        ("what is {x}'s discipline", "field_of_work"),
        ("which societies does {x} belong to", "member_of"),
        ("where does {x} teach", "employer"),
        ("what papers did {x} publish", "author_of"),
        ("what passport does {x} hold", "country_of_citizenship"),
        ("what is {x}'s hometown", "born_in"),
    ],
}

_TRIPLE = re.compile(r'(<[^>]+>) (<[^>]+>) (<[^>]+>|"(?:[^"\\]|\\.)*")')
_STEP = re.compile(r"^(\^?)([^\[]+)(?:\[([^=]+)=([^\]]+)\])?$")


def read_kb(folder: Path) -> list[tuple[str, str, str]]:
    """(subject, relation, object) by label: kb.tsv as written, kb.nt by its rdfs:labels
    (relation labels with "_" for spaces, as the business questions' paths write them)."""
    if (folder / "kb.tsv").is_file():
        lines = (folder / "kb.tsv").read_text(encoding="utf-8").splitlines()
        return [tuple(line.split("\t")) for line in lines if line.count("\t") == 2]
    triples = [m.groups() for line in (folder / "kb.nt").read_text(encoding="utf-8").splitlines()
               if (m := _TRIPLE.match(line))]  # fmt: skip
    labels = {s: o.strip('"') for s, p, o in triples if p.endswith("#label>")}

    def name(term: str) -> str:
        return labels.get(term, term.strip('"'))

    return [(name(s), name(p).replace(" ", "_"), name(o)) for s, p, o in triples
            if not p.startswith("<http://www.w3.org/")]  # fmt: skip


def walk(links: dict, start: str, path: str) -> set[str]:
    """The nodes a path leads to from `start` ("-self" at its end: all but `start`, the
    topic's peers; "+self": all, `start` among them)."""
    others = path.endswith("-self")
    nodes = {start}
    for step in path.removesuffix("-self").removesuffix("+self").split(">"):
        back, rel, key, value = _STEP.match(step).groups()
        rel = ("^" if back else "") + rel
        nodes = {n for node in nodes for n in links[node].get(rel, ())
                 if key is None or value in links[n].get(key, ())}  # fmt: skip
    return nodes - {start} if others else nodes


def build(kb: str) -> list[str]:
    triples = read_kb(DATA / kb)
    links: dict = collections.defaultdict(lambda: collections.defaultdict(set))
    for s, r, o in triples:
        links[s][r].add(o)
        links[o]["^" + r].add(s)
    entities = sorted({s for s, _, _ in triples} | {o for _, _, o in triples})
    rng = random.Random(SEED)
    rows = ["question\tanswers\tqtype\tkind\thops"]
    for template, path in TEMPLATES[kb]:
        usable = [e for e in entities if (gold := walk(links, e, path)) and gold != {e}
                  and (e not in gold or path.endswith("+self"))]  # fmt: skip
        for entity in rng.sample(usable, min(PER_TEMPLATE, len(usable))):
            gold = sorted(walk(links, entity, path))
            rows.append(f"{template.format(x=entity)}\t{'|'.join(gold)}\t{path}\twording\t"
                        f"{path.count('>') + 1}")  # fmt: skip
    return rows


def main() -> None:
    for kb in TEMPLATES:
        rows = build(kb)
        out = DATA / kb / "questions_wordings.tsv"
        out.write_text("\n".join(rows) + "\n", encoding="utf-8")
        print(f"{out.relative_to(DATA.parents[1])}: {len(rows) - 1} questions")


if __name__ == "__main__":
    main()
