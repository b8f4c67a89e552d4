"""Question analysis and planning on a KB written in this file: each signal on its own.

A small family KB with natural relation names (none of them is a word of the questions
unless the test says so): paraphrase, answer typing, hop order, the topic as the answer,
"other" questions, inverse sets, two-anchor intersections and comparisons. Countries carry a
fact of their own, as in any real KB, so they read as entities rather than bare values.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.agents.planner import Planner
from core.analysis import (
    _asks_for_peers,
    analyse,
    lexicon_for,
    literal_kinds,
    relation_word,
    undislocate,
    unfold_in_laws,
)
from core.answer_types import (
    _asks_for_people,
    answer_fit,
    doer_share,
    hop_kind,
    nearest_relation,
    rule_type_fit,
)
from core.chain import chain_length
from core.constraints import find_comparisons
from core.engine import Engine
from core.evaluate import evidence_path
from core.kg.semantics import label_parts, semantics_for
from core.kg.source import KGSource
from core.loop import State
from core.path_fit import anchor_kind, explain, focus_has
from core.text import says_now
from core.trace import Action
from core.workspace import Workspace, bundled_kb_dir

FAMILY = """\
Ann Lee\tgender\tfemale
Bob Lee\tgender\tmale
Cara Lee\tgender\tfemale
Dan Lee\tgender\tmale
Eve Stone\tgender\tfemale
Frank Stone\tgender\tmale
Gus Ray\tgender\tmale
Ann Lee\tspouse\tBob Lee
Bob Lee\tspouse\tAnn Lee
Eve Stone\tspouse\tFrank Stone
Frank Stone\tspouse\tEve Stone
Cara Lee\tparent\tAnn Lee
Cara Lee\tparent\tBob Lee
Dan Lee\tparent\tAnn Lee
Dan Lee\tparent\tBob Lee
Ann Lee\tparent\tEve Stone
Ann Lee\tparent\tFrank Stone
Ann Lee\tchild\tCara Lee
Bob Lee\tchild\tCara Lee
Ann Lee\tchild\tDan Lee
Bob Lee\tchild\tDan Lee
Eve Stone\tchild\tAnn Lee
Frank Stone\tchild\tAnn Lee
Ann Lee\tplace_of_birth\tParis
Bob Lee\tplace_of_birth\tLyon
Cara Lee\tplace_of_birth\tParis
Dan Lee\tplace_of_birth\tBerlin
Eve Stone\tplace_of_birth\tLyon
Frank Stone\tplace_of_birth\tMunich
Gus Ray\tplace_of_birth\tLyon
Paris\tlocated_in\tFrance
Lyon\tlocated_in\tFrance
Berlin\tlocated_in\tGermany
Munich\tlocated_in\tGermany
France\tcurrency\teuro
Germany\tcurrency\teuro
Ann Lee\tprofession\tlawyer
Bob Lee\tprofession\tdoctor
Cara Lee\tprofession\tlawyer
Dan Lee\tprofession\tpainter
Eve Stone\tprofession\tlawyer
Frank Stone\tprofession\tdoctor
Gus Ray\tprofession\tlawyer
Ann Lee\tyear_of_birth\t1970
Bob Lee\tyear_of_birth\t1968
Cara Lee\tyear_of_birth\t1995
Dan Lee\tyear_of_birth\t1998
Eve Stone\tyear_of_birth\t1945
Frank Stone\tyear_of_birth\t1941
Gus Ray\tyear_of_birth\t1980
"""


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("family-kb")
    kb = Path(root) / "family.tsv"
    kb.write_text(FAMILY, encoding="utf-8")
    workspace = Workspace(root / "home")
    workspace.import_file(kb, name="family")
    return Engine(workspace)


def answers(engine: Engine, question: str) -> list[str]:
    return engine.ask(question, kb="family").answer_labels


# -- reading the question -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("what is Dan Lee's occupation", "painter"),
        ("who is Ann Lee married to", "Bob Lee"),
        ("what is the hometown of Gus Ray", "Lyon"),
    ],
)
def test_a_word_that_shares_nothing_with_the_relation_name_still_names_it(
    family, question: str, answer: str
) -> None:
    assert answers(family, question)[0] == answer


@pytest.mark.parametrize(
    ("question", "wh"),
    [
        ("who is the spouse of Ann Lee", "person"),
        ("where was Ann Lee born", "place"),
        ("when was Ann Lee born", "time"),
        ("in which year was Ann Lee born", "time"),
        ("how old is Ann Lee", "number"),
        ("is Ann Lee male or female", "choice"),
        ("which people were born in Paris", "person"),
        ("Ann Lee's husband, where was he born", "place"),  # inverted: a question, no relative
        # "who" as the object of a stranded preposition: a team or a firm as often as a person
        ("who does Ann Lee work for", ""),
        ("who does Ann Lee work for at weekends", ""),
        ("who does Ann Lee play for when the season starts", ""),
        ("who worked for Ann Lee in Paris", "person"),
        # ... not where "who" is a copula's subject: the preposition is a relative clause's
        ("who is in charge of the firm Ann Lee works for", "person"),
        ("who is the boss of the firm Ann Lee works for", "person"),
        ("who is Ann Lee working for", ""),
        ("who works at the firm for which Ann Lee works", "person"),  # a relative pronoun
        # ... nor where "who" is the subject of the verb right after it: no auxiliary was
        # inverted, so the preposition at the end is a reduced relative clause's
        ("who runs the firm Ann Lee works for", "person"),
        ("who owns the firm that Ann Lee works for", "person"),
        # "what" in place of a verb's object asks no noun ("living" is the preposition's),
        # and is no relative pronoun whose antecedent (the husband) would be asked for
        ("Ann Lee's husband does what for a living", ""),
        ("Ann Lee's husband did what for a living in Paris", ""),
    ],
)
def test_the_answer_type_comes_from_the_question_word(family, question: str, wh: str) -> None:
    assert analyse(question, family.kg("family")).answer.wh == wh


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("what is Ann Lee's husband's birthplace", "birthplace"),
        ("what is the birthplace of Ann Lee's husband", "birthplace"),
        ("what was Ann Lee the mother of", None),  # the question word is the object of "of"
    ],
)
def test_what_is_a_possessive_chain_asks_its_last_noun(family, question: str, noun) -> None:
    """ "What is X's band's home *city*": after the copula the chain names its head last,
    as "what is the home city of X's band" names it first (it asked for nothing before, and
    the walk stopped at the band)."""
    qa = analyse(question, family.kg("family"))
    assert (qa.words[qa.answer.focus] if qa.answer.focus is not None else None) == noun


def test_what_is_the_possessive_chain_after_an_article_asks_its_last_noun(tmp_path: Path) -> None:
    """ "What is *the* Hepworth Centre's director's alma *mater*": a name with its article
    opens the chain as a bare name does (it asked for nothing, and the walk went to the
    director and back, "mater" read as a person)."""
    labs = ["Hepworth Centre", "Quill Institute", "Marsh Laboratory", "Fenwick Centre"]
    people = ["Vivian Caldwell", "Grant Ames", "Pilar Soto", "Wes Brennan"]
    schools = ["Rudmoor College", "Stellbourne University", "Oakfield College", "Ely College"]
    rows = []
    for i, lab in enumerate(labs):
        rows += [(lab, "director", people[i]), (lab, "located in", ["Austin", "Oslo"][i % 2]),
                 (people[i], "educated at", schools[i]), (people[i], "employer", lab),
                 (people[i], "doctoral advisor", people[(i + 1) % 4]),
                 (people[i], "born in", ["Paris", "Rome"][i % 2])]
    engine = _imported(tmp_path, "labs", rows)
    question = "What is the Hepworth Centre's director's alma mater?"
    qa = analyse(question, engine.kg("labs"))
    assert qa.answer.focus is not None and qa.words[qa.answer.focus] == "mater"
    assert engine.ask(question, kb="labs").answer_labels == ["Rudmoor College"]


def test_a_plural_noun_naming_an_amount_asks_for_one_value(tmp_path: Path) -> None:
    """ "What are the annual *sales* of F": a plural asks for several things, but one amount
    named by it (the revenue, one per firm) is no one-for-many answer (the walk had gone back
    to the firms of the same revenue)."""
    from core.agents.planner import Planner

    firms = ["Acme Works", "Bolt Forge", "Crest Mills", "Dune Labs", "Elm Foods", "Fir Motors"]
    rows = []
    for i, firm in enumerate(firms):
        rows += [(firm, "revenue", str(2 + i % 3)), (firm, "competitor", firms[(i + 1) % 6]),
                 (firm, "founded by", f"Pat Quill {i}"), (firm, "instance of", "company")]
    engine = _imported(tmp_path, "firms", rows)
    kg = engine.kg("firms")
    plans = Planner(kg).plans(analyse("what are the annual sales of Crest Mills", kg))
    revenue = next(p for p in plans if [kg.label(r) for r, _ in p.hops] == ["revenue"])
    assert revenue.features["one_for_many"] == 0.0
    assert engine.ask("What are Acme Works's annual sales?", kb="firms").answer_labels == ["2"]


def test_the_last_noun_of_a_possessive_chain_is_read_by_its_synonyms_too(family) -> None:
    """ "Dan Lee's mum's *hubby*": the noun asked about is said of an owner, so it names a
    relation of it like any other part of the chain — read by its WordNet synonyms where the
    word vectors read it weakly ("husband"), not skipped as if it only said what the answer
    is (the walk stopped at the mother's own parents)."""
    assert answers(family, "Dan Lee's mum's hubby?") == ["Bob Lee"]


def test_what_before_do_support_asks_no_noun(family) -> None:
    """ "What does *the husband* of X work as": right before "does" the question word is the
    verb's object, so the noun after it is the subject, not the kind of answer (no husband is
    asked for); "what *work* does X do" still asks for a kind of work."""
    kg = family.kg("family")
    qa = analyse("what does the husband of Ann Lee work as", kg)
    assert qa.answer.focus is None and qa.answer.wh == ""
    assert answers(family, "what does the husband of Ann Lee work as") == ["doctor"]
    qa = analyse("what work does Ann Lee do", kg)
    assert qa.answer.wh == "thing" and qa.words[qa.answer.focus] == "work"


def test_a_word_naming_nothing_well_leads_an_unnamed_hop(family, monkeypatch) -> None:
    """Past a named hop, relations no word names are tried among the commonest next steps
    and those nearest the question's words; "the *parents* of X" comes nearer to every family
    tie than "work" comes to anything, so each word that names nothing well (outside the
    chain's parts) gets its own nearest next step tried as well."""
    from core.agents import planner as planner_module

    monkeypatch.setattr(planner_module, "MAX_UNNAMED_BRANCH", 1)
    monkeypatch.setattr(planner_module, "UNNAMED_BY_WORDS", 1)
    kg = family.kg("family")
    qa = analyse("what do the parents of Dan Lee work as", kg)
    walks = [[kg.label(r) for r, _ in p.hops] for p in Planner(kg).plans(qa, limit=40)]
    assert ["parent", "profession"] in walks


@pytest.mark.parametrize(("question", "expected"), [
    ("who are the daughters of Ann Lee", ["Cara Lee"]),
    ("who are Ann Lee's daughters", ["Cara Lee"]),
    ("list the sons and daughters of Eve Stone", ["Ann Lee"]),
    ("Ann Lee's parents", ["Eve Stone", "Frank Stone"]),  # named by its form: left as it is
])
def test_a_plural_noun_is_read_by_its_singular_too(family, question: str,
                                                   expected: list[str]) -> None:  # fmt: skip
    """Static vectors place "daughters" and "sons" nearer `parent` than `child` ("daughter"
    and "son" are not): the daughters of Ann were her mother. A plural noun that names no
    relation by its form is read by its singular as well."""
    assert sorted(answers(family, question)) == expected


def test_the_noun_after_whose_names_the_relation_not_the_answer(family) -> None:
    """ "*whose* alma mater is X" asks for who has that relation to X: "alma mater" is a
    relation phrase to explain, not the kind of answer (a university)."""
    qa = analyse("whose alma mater is Peking University", family.kg("family"))
    assert qa.answer.focus is None and qa.answer.wh == ""
    assert {"alma", "mater"} <= {qa.words[i] for i in qa.word_tokens}
    # ... but where the noun phrase runs on into another verb, "whose" reads as "which"
    # (machine-translated "whose films have X direct"): the noun is what is asked for
    qa = analyse("whose films have Ann Lee direct", family.kg("family"))
    assert qa.answer.wh == "thing" and qa.words[qa.answer.focus] == "films"


@pytest.mark.parametrize(("question", "expected"), [
    ("whose child is Cara Lee", ["Ann Lee", "Bob Lee"]),
    ("whose parent is Ann Lee", ["Cara Lee", "Dan Lee"]),
    ("who has Ann Lee as their parent", ["Cara Lee", "Dan Lee"]),
    ("who is a child of Ann Lee", ["Cara Lee", "Dan Lee"]),  # "a": said of Ann, not of them
])
def test_a_noun_the_answers_own_is_walked_backwards(family, question: str,
                                                    expected: list[str]) -> None:  # fmt: skip
    """ "*whose* child is X" asks for X's parents: the answers own the relation to X, so
    `child` is walked backwards from X (or `parent` forwards), not read either way and left
    to chance (it answered X's siblings)."""
    assert sorted(answers(family, question)) == expected


@pytest.mark.parametrize(("question", "read_as"), [
    ("who are X's in-laws", "who are X's spouse's parents"),
    ("X's in-laws' professions", "X's spouse's parents' professions"),
    ("who is X's mother-in-law", "who is X's spouse's mother"),
    ("who is X's son-in-law", "who is X's child's husband"),
    ("the daughters-in-law of X", "the wives of the children of X"),
    ("who are the in-laws of X", "who are the parents of the spouse of X"),
    ("list X's mother- and father-in-law", None),  # two halves of one relation: as written
])
def test_kin_by_marriage_reads_as_its_chain(question: str, read_as: str | None) -> None:
    assert unfold_in_laws(question) == (read_as or question)


@pytest.mark.parametrize(("question", "expected"), [
    ("who are Bob Lee's in-laws", ["Eve Stone", "Frank Stone"]),
    ("who is Bob Lee's mother-in-law", ["Eve Stone"]),
    ("who is Eve Stone's son-in-law", ["Bob Lee"]),
    ("who is Eve Stone's child's husband", ["Bob Lee"]),
])
def test_a_possessive_chain_is_walked_in_its_written_order(family, question: str,
                                                          expected: list[str]) -> None:  # fmt: skip
    """ "Eve's child's husband" walks to the child first, then to the husband: the plan over
    the spouse's children took the same two words — and more of the tiny KB's children have
    parents than spouses, so the KB's statistics (`role_switch`) preferred it. The parts of a
    possessive chain taken in the other order are a rule's penalty (`chain_inversions`)."""
    assert sorted(answers(family, question)) == expected


def test_who_with_a_copula_names_its_last_hop_by_the_predicate_s_head(family) -> None:
    """ "who are X's spouse's *parents*": the last hop is the head of the predicate (the
    possessive chain's last part), not the word nearest "who"; a forward relation that
    reaches entities is no worse an answer to "who" than its inverse (only the labels of
    agentive relations say a person is their object)."""
    kg = family.kg("family")
    sem = semantics_for(kg)
    qa = analyse("who are Bob Lee's spouse's parents", kg)
    assert kg.label(sem.rel_ids[nearest_relation(qa)]) == "parent"
    parent = 2 * sem.code[next(r for r in sem.rel_ids if kg.label(r) == "parent")]
    assert rule_type_fit(qa, kg, parent) == rule_type_fit(qa, kg, parent + 1) == 0.0


def test_an_agent_noun_leading_from_people_to_things_names_no_person(tmp_path: Path) -> None:
    """An agentive label says "who" asks for its object ("doctoral advisor": a person), unless
    the KB's nodes say otherwise: `employer` leads from people (they have what people have)
    to institutes (they do not), so "who" no more asks for the employer than for the staff.
    On the science dev KB's tuning question "who works at X's institution" the rule's −1 for
    the staff had kept the walk back over `employer` below `educated at` twice."""
    rows = []
    for name, sex, born, school, work, advisor in (
            ("Ann Holt", "female", "Oslo", "North College", "Hill Institute", "Cy Lund"),
            ("Ben Dahl", "male", "Bergen", "North College", "Lake Institute", "Cy Lund"),
            ("Cy Lund", "male", "Oslo", "South College", "Hill Institute", "Di Moe"),
            ("Di Moe", "female", "Bergen", "South College", "Lake Institute", "Eli Berg"),
            ("Eli Berg", "male", "Oslo", "North College", "Lake Institute", "Fay Nord"),
            ("Fay Nord", "female", "Bergen", "South College", "Hill Institute", "Ann Holt"),
    ):  # fmt: skip
        rows += [(name, "gender", sex), (name, "born in", born), (name, "educated at", school),
                 (name, "employer", work), (name, "doctoral advisor", advisor)]
    rows += [("North College", "located in", "Oslo"), ("Hill Institute", "located in", "Bergen")]
    kg = _imported(tmp_path, "staff", rows).workspace.kg("staff")
    sem = semantics_for(kg)
    qa = analyse("who works at Ann Holt's institution", kg)

    def code(label: str) -> int:
        return 2 * sem.code[next(r for r in sem.rel_ids if kg.label(r) == label)]

    employer = code("employer")
    assert rule_type_fit(qa, kg, employer) == rule_type_fit(qa, kg, employer + 1) == 0.0
    assert rule_type_fit(qa, kg, code("doctoral advisor")) == 1.0
    assert rule_type_fit(qa, kg, code("doctoral advisor") + 1) == -1.0


@pytest.mark.slow  # imports a dev KB of 6k triples
def test_who_works_at_a_place_walks_back_over_the_employer(tmp_path: Path) -> None:
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    # (the first hop is either reading of "X's institution": where X works, or studied —
    # the same institution for her; the last is the walk back over `employer`, the staff)
    trace = ask_dev_kb(tmp_path, "science", "Who works at Joanne Ouellette's institution?")
    assert evidence_path(trace).endswith("→ employer")
    assert {"Alistair Dunmore", "Arjun Banerjee"} <= set(trace.answer_labels)


@pytest.mark.slow  # imports a dev KB of 6k triples
def test_two_roles_taking_the_same_step_fill_one_slot_of_the_unnamed_ones(tmp_path: Path) -> None:
    """A hop no word names is tried among the most common next steps only; `spouse` either
    way, or `child` and `parent` backwards, take the same step and filled two of those slots,
    so from the spouse's parents `profession` was never tried (the family dev KB's tuning
    question; "do for a living" is read by the contextual encoder, once the plan exists)."""
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "family", "what do Inés Moreno's in-laws do for a living")
    assert evidence_path(trace) == "spouse → parent → profession"
    assert sorted(trace.answer_labels) == ["accountant", "dentist", "engineer"]


def test_a_verb_and_the_preposition_before_a_name_make_no_phrase(tmp_path: Path) -> None:
    """ "who *works in* Hill Institute": the preposition's object is a name, so the verb is
    read by its own senses (WordNet: "work" is "be employed" — `employer`), not as the
    dictionary's phrase "work in" (mixing in); the science own wordings' third batch read
    "which researchers work at X" as those educated there."""
    rows = []
    for name, work in (("Ann Holt", "Hill Institute"), ("Ben Dahl", "Lake Institute"),
                       ("Cy Lund", "Hill Institute")):  # fmt: skip
        rows += [(name, "employer", work), (name, "educated at", "North College")]
    kg = _imported(tmp_path, "staff", rows).workspace.kg("staff")
    sem = semantics_for(kg)
    employer = sem.code[next(r for r in sem.rel_ids if kg.label(r) == "employer")]
    for question in ("who works in Hill Institute", "which people work at Hill Institute"):
        qa = analyse(question, kg)
        row = qa.row_of(next(i for i, w in enumerate(qa.words) if w.startswith("work")))
        assert qa.named[row, employer] >= 0.45


def test_a_relative_pronoun_is_not_the_question_word(family) -> None:
    qa = analyse("name the country in which Dan Lee was born", family.kg("family"))
    assert qa.words[qa.answer.focus] == "country"


def test_possessive_names_keep_their_apostrophe() -> None:
    """"Merrill's Marauders" is one name; "Ann Lee's" is a name and a possessive."""
    from core.analysis import _tokenize

    text = "who directed Merrill's Marauders"
    assert [text[a:b] for a, b in _tokenize(text)][-3:] == ["Merrill", "'s", "Marauders"]
    text = "the maker of Gizmo 2's parts, and X's"  # a one-character word's possessive too
    assert [text[a:b] for a, b in _tokenize(text)][3:] == ["Gizmo", "2", "'s", "parts", ",",
                                                            "and", "X", "'s"]  # fmt: skip


# -- answer typing decides the hop count ----------------------------------------------------


def test_country_asks_one_hop_more_than_city(family) -> None:
    assert answers(family, "in which city was Dan Lee born") == ["Berlin"]
    assert answers(family, "in which country was Dan Lee born") == ["Germany"]


def test_the_judge_wants_more_while_a_word_is_unexplained(family) -> None:
    trace = family.ask("in which country was Dan Lee born", kb="family")
    assert len(trace.steps) == 2
    assert trace.steps[0].reward < 0.8 <= trace.steps[-1].reward


# -- order of hops ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "path"),
    [
        ("where was Dan Lee's father's wife born", ["parent", "spouse", "place of birth"]),
        ("what is the profession of the husband of Dan Lee's mother",
         ["parent", "spouse", "profession"]),
    ],
)  # fmt: skip
def test_possessive_chain_hops_come_in_the_order_of_the_words(
    family, question: str, path: list[str]
) -> None:
    trace = family.ask(question, kb="family")
    kg = family.kg("family")
    walked = [kg.label(s.action.params["relation"]) for s in trace.steps if s.action.kind == "hop"]
    assert walked == path


def test_two_words_for_one_relation_count_as_two_places(family) -> None:
    """"X's mother's father" names `parent` twice: the walk takes it twice, and a path with
    one `parent` hop leaves a phrase without a hop of its own, which the judge would say."""
    question = "where was Dan Lee's mother's father born"
    trace = family.ask(question, kb="family")
    kg = family.kg("family")
    walked = [kg.label(s.action.params["relation"]) for s in trace.steps if s.action.kind == "hop"]
    assert walked == ["parent", "parent", "place of birth"]
    qa = analyse(question, kg)
    rel = {kg.label(r): r for r in kg.index.relations}
    one = explain(qa, [(rel["parent"], "out"), (rel["place of birth"], "out")], qa.entities[:1],
                  anchor=qa.entities[0].ids[0])  # fmt: skip
    assert one.merged == 1


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("where was Dan Lee's mother's husband born", 3),
        ("where was Dan Lee's wife born", 2),  # a participle starts the predicate
        ("what does Dan Lee's wife do for a living", 2),
        ("which of Dan Lee's kids are girls", 1),  # what the answers are, not a hop
        ("tell me Dan Lee's mother and father", 1),
        ("who is Dan Lee's mother's father", 2),
        ("what is the profession of Dan Lee", 0),  # one "of": no bound
        ("what is the profession of the husband of Dan Lee's mother", 3),  # "of" parts too
        ("what is the place of birth of the father of Dan Lee", 2),  # "place of birth": one
        ("where were Dan Lee's parents' parents born", 3),  # a plural's possessive
        ("what do Ann Lee's kids do", 1),  # "do" alone is no predicate
        # a do-question's verb after "the N of X", a particle after it (not an object)
        ("what does the husband of Ann Lee work as", 2),
        ("what does the husband of Ann Lee paint portraits of", 0),
        # a kind of thing the last part's relation does not reach: a hop of its own ...
        ("which city is Dan Lee's mother's husband from", 3),
        ("which woman is Dan Lee's mother's mother", 2),  # ... not one it does
        # a do-question's verb is a hop however weakly it names a relation
        ("where does Dan Lee's mother work?", 2),
        # a verb before a single "of" part after the question word is one too ...
        ("who taught the children of Ann Lee", 2),
        ("which teacher taught the children of Ann Lee", 2),
        ("who among the children of Ann Lee is a lawyer", 0),  # ... not a preposition
        ("who are the children of Ann Lee", 0),  # ... nor a copula
        # what is in a clause's head, after a locative, is one hop beyond it (as "who is in
        # X's league")
        ("who is in the country Ann Lee comes from", 2),
        ("list everyone in the country Ann Lee comes from", 2),
        ("who is in Dan Lee's hometown", 2),
        # ... but a last part that names nothing is what the preposition is in: one hop
        # (X's contents; the football dev KB's "which footballers are on X's *books*")
        ("who is on Dan Lee's books", 1),
        ("what is in Dan Lee's portfolio", 1),
        # a noun that only ends like a gerund is a part all the same (core.lexnet)
        ("tell me the offspring of Dan Lee's wife", 2),
        # an "of" left at the end is the verb's, not the part's ("place of birth")
        ("what did Dan Lee's mother die of", 2),
        ("what did Dan Lee's mother die from", 2),
        # a modal inverts as "do" does: the verb after the subject is a hop
        ("which city can Dan Lee's mother work in", 2),
    ],
)
def test_a_possessive_chain_asks_for_a_hop_per_part(family, question: str, parts: int) -> None:
    qa = analyse(question, family.kg("family"))
    assert chain_length(qa, qa.entities[0]) == parts


def test_possessive_chains_read_as_ordered_paths_and_words_say_the_kind(family) -> None:
    """Three hops for three parts; "mother" keeps the female parent, "father" the male one
    (the step says so and its query has the facts)."""
    trace = family.ask("where was Dan Lee's mother's father born", kb="family")
    assert trace.answer_labels == ["Munich"]
    hops = [s for s in trace.steps if s.action.kind == "hop"]
    assert "keeping those whose gender is female" in hops[0].action.description
    assert "keeping those whose gender is male" in hops[1].action.description
    assert "gender" in hops[-1].action.query and "female" in hops[-1].action.query


def test_the_whole_path_query_keeps_what_the_words_say(family) -> None:
    """The step's SPARQL (with the gender triples) answers what the walk answered."""
    trace = family.ask("where was Dan Lee's mother's father born", kb="family")
    kg = family.kg("family")
    rows = kg.sparql(trace.steps[-1].action.query).rows
    assert [kg.label(f"<{r[0]}>") for r in rows] == ["Munich"]


@pytest.mark.xfail(strict=True, reason="known weakness (README): an 'of' chain around a "
                   "possessive ('the father of X's mother') is read as two hops")  # fmt: skip
def test_of_chains_read_as_ordered_paths(family) -> None:
    assert answers(family, "the birthplace of the father of Dan Lee's mother")[0] == "Munich"


@pytest.mark.parametrize(
    ("question", "read", "answers"),
    [
        ("who is Dan Lee's grandmother", "who is Dan Lee's parent's mother", ["Eve Stone"]),
        ("where was Dan Lee's grandfather born", "where was Dan Lee's parent's father born",
         ["Munich"]),
        ("who are the grandchildren of Eve Stone",
         "who are the children of the child of Eve Stone", ["Cara Lee", "Dan Lee"]),
        # a clipped base ("grand*ma*") names nothing: it is read as its WordNet synonym with
        # the longest base, so the outer part keeps the gender ("grandpa" is male)
        ("who are Dan Lee's grandma and grandpa",
         "who are Dan Lee's parent's mother and parent's father", ["Eve Stone", "Frank Stone"]),
        ("who is Dan Lee's grandpa", "who is Dan Lee's parent's father", ["Frank Stone"]),
        # ... and so is a word for a compound ("granny", "nan", "gramps": WordNet's first
        # senses), a plural where WordNet reads it as an inflection ("nans", not "gramps")
        ("who is Dan Lee's granny", "who is Dan Lee's parent's mother", ["Eve Stone"]),
        ("name Dan Lee's nans", "name Dan Lee's parent's mothers", ["Eve Stone"]),
        ("who is Dan Lee's gramps", "who is Dan Lee's parent's father", ["Frank Stone"]),
        # the base read in the singular, which names the kind ("sons" reads nearer `parent`)
        ("who are Eve Stone's grandsons", "who are Eve Stone's child's sons", ["Dan Lee"]),
        ("who are the granddaughters of Eve Stone",
         "who are the daughters of the child of Eve Stone", ["Cara Lee"]),
    ],
)  # fmt: skip
def test_a_kinship_compound_reads_as_its_chain_in_the_kbs_words(
    family, question: str, read: str, answers: list[str]
) -> None:
    """"grand-" + a word naming a relation that chains onto itself: the chain, with the
    relation's own label for the inner step; the trace keeps the question as asked."""
    qa = analyse(question, family.kg("family"))
    assert qa.text == read and qa.question == question
    assert sorted(family.ask(question, kb="family").answer_labels) == answers


@pytest.mark.parametrize(
    ("question", "read", "answers"),
    [
        ("who are Ann Moss's nieces", "who are Ann Moss's sibling's daughters", ["Fay Moss"]),
        ("who are Cara Lee's aunts", "who are Cara Lee's parent's sisters", ["Jo Moss"]),
        ("who are Cara Lee's uncles", "who are Cara Lee's parent's brothers", ["Bob Moss"]),
        # "the child of your aunt or uncle": both unfold to the same chain
        ("who are Eli Moss's cousins", "who are Eli Moss's parent's sibling's children",
         ["Cara Lee", "Dan Lee"]),
    ],
)  # fmt: skip
def test_a_noun_reads_as_the_chain_its_definition_spells(
        tmp_path: Path, question: str, read: str, answers: list[str]) -> None:  # fmt: skip
    """A niece is "a daughter of your brother or sister" (WordNet): a noun naming no relation
    of the KB is read as the chain its definition spells, coordinated parts by the label of
    the relation both name; the trace keeps the question as asked."""
    rows = [(p, "gender", g) for p, g in (("Ann Moss", "female"), ("Bob Moss", "male"),
            ("Jo Moss", "female"), ("Cara Lee", "female"), ("Dan Lee", "male"),
            ("Eli Moss", "male"), ("Fay Moss", "female"))]  # fmt: skip
    siblings = ["Ann Moss", "Bob Moss", "Jo Moss"]
    rows += [(a, "sibling", b) for a in siblings for b in siblings if a != b]
    for parent, kids in (("Ann Moss", ["Cara Lee", "Dan Lee"]),
                         ("Bob Moss", ["Eli Moss", "Fay Moss"])):  # fmt: skip
        rows += [(parent, "child", kid) for kid in kids] + [(kid, "parent", parent) for kid in kids]
    rows += [(a, "sibling", b) for a, b in (("Cara Lee", "Dan Lee"), ("Dan Lee", "Cara Lee"),
             ("Eli Moss", "Fay Moss"), ("Fay Moss", "Eli Moss"))]  # fmt: skip
    engine = _imported(tmp_path, "kin", rows)
    qa = analyse(question, engine.kg("kin"))
    assert qa.text == read and qa.question == question
    assert sorted(engine.ask(question, kb="kin").answer_labels) == answers
    # "the N of X" keeps X the owner of the chain ("the sons of X's sibling")
    of_form = analyse("who are the nephews of Ann Moss", engine.kg("kin")).text
    assert of_form == "who are the sons of Ann Moss's sibling"


def test_a_compound_the_kb_names_itself_is_left_as_it_is(tmp_path: Path) -> None:
    kb = tmp_path / "kb.tsv"
    kb.write_text(FAMILY + "Dan Lee\tgrandparent\tEve Stone\nDan Lee\tgrandparent\tFrank Stone\n"
                  "Cara Lee\tgrandparent\tEve Stone\nCara Lee\tgrandparent\tFrank Stone\n",
                  encoding="utf-8")  # fmt: skip
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name="grand")
    qa = analyse("who are Dan Lee's grandparents", Engine(workspace).kg("grand"))
    assert qa.text == "who are Dan Lee's grandparents"


def test_a_word_that_says_no_kind_keeps_every_node(family) -> None:
    trace = family.ask("where were Ann Lee's kids born", kb="family")
    assert set(trace.answer_labels) == {"Paris", "Berlin"}
    assert "keeping" not in trace.steps[0].action.description


# -- the topic as an answer, and "other" --------------------------------------------------------


def test_the_topic_may_be_the_answer(family) -> None:
    assert answers(family, "who is the spouse of Ann Lee's husband") == ["Ann Lee"]


def test_other_leaves_the_topic_out(family) -> None:
    got = answers(family, "who else was born in the same city as Ann Lee")
    assert got == ["Cara Lee"]


# -- sets and intersections -------------------------------------------------------------------


def test_inverse_questions_answer_the_whole_set(family) -> None:
    assert set(answers(family, "which people were born in Paris")) == {"Ann Lee", "Cara Lee"}


def test_a_common_noun_constrains_the_answers(family) -> None:
    assert set(answers(family, "which lawyers were born in Lyon")) == {"Eve Stone", "Gus Ray"}


def test_a_gendered_word_ranks_the_matching_candidate_first(family) -> None:
    assert answers(family, "who is Cara Lee's mum")[0] == "Ann Lee"
    assert answers(family, "who is Cara Lee's dad")[0] == "Bob Lee"


def _parents_kb() -> list[tuple[str, str, str]]:
    """Children whose father sorts first (by name and by degree): only the kin word's gender
    can put the mother first."""
    rows = []
    for i, family_name in enumerate(("Park", "Moss", "Hale", "Reed")):
        child, father, mother = f"Zoe {family_name}", f"Adam {family_name}", f"Beth {family_name}"
        rows += [(child, "parent", father), (child, "parent", mother),
                 (father, "gender", "male"), (mother, "gender", "female"),
                 (father, "profession", ("pilot", "baker")[i % 2]), (child, "gender", "female")]
    return rows


@pytest.mark.parametrize("word", ["mom", "mama", "mum"])
def test_colloquial_kin_words_say_their_gender_too(tmp_path: Path, word: str) -> None:
    """ "X's *mom*", "X's *mama*" read "female" only weakly (0.15 and 0.09 to the static
    vectors; "mother" 0.29), yet clearly more than "male": the value a word is most alike
    needs to stand out (AGREE_MARGIN) more than to be close (AGREE_MIN 0.08; at 0.2 the
    father, first by name, was the answer)."""
    engine = _imported(tmp_path, "parents", _parents_kb())
    assert engine.ask(f"who is Zoe Park's {word}", kb="parents").answer_labels[0] == "Beth Park"
    assert engine.ask("who is Zoe Moss's dad", kb="parents").answer_labels[0] == "Adam Moss"


# -- comparisons ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "op", "values"),
    [
        ("released before 2005", "<", (2005.0,)),
        ("released since 1990", ">=", (1990.0,)),
        ("made after the year 2001", ">", (2001.0,)),
        ("from 1985 to 1995", "between", (1985.0, 1995.0)),
        ("in the 1990s", "between", (1990.0, 1999.0)),
        ("in the nineties", "between", (1990.0, 1999.0)),
        ("pre-1970 films", "<", (1970.0,)),
        ("1979 or earlier", "<=", (1979.0,)),
        ("the most recent film", "max", ()),
        ("the oldest film", "min", ()),
        ("films older than 2013", "<", (2013.0,)),  # a year: earlier
        ("players older than 30", ">", (30.0,)),  # an age: more years
        ("players younger than 25", "<", (25.0,)),
        ("pictures more recent than 1982", ">", (1982.0,)),
        ("comedies that predate 1980", "<", (1980.0,)),
        ("films that postdate 1990", ">", (1990.0,)),
        ("what he made ahead of 2008", "<", (2008.0,)),
        ("starting in 1994, what did he make", ">=", (1994.0,)),
    ],
)
def test_comparisons_are_read(text: str, op: str, values: tuple) -> None:
    from core.analysis import _tokenize, _word

    words = [_word(text[a:b]) for a, b in _tokenize(text)]
    (found,) = find_comparisons(words, set())
    assert (found.op, found.values) == (op, values)


def test_a_year_comparison_filters_over_the_kb_literals(family) -> None:
    trace = family.ask("which children of Ann Lee were born after 1996", kb="family")
    assert trace.answer_labels == ["Dan Lee"]
    filtered = [s for s in trace.steps if s.action.kind == "filter"]
    assert filtered and "FILTER" in filtered[0].action.query


def test_a_superlative_keeps_the_extreme(family) -> None:
    assert answers(family, "who is the oldest child of Ann Lee") == ["Cara Lee"]


# -- what the trace shows -------------------------------------------------------------------


def test_every_signal_of_the_chosen_plan_is_in_the_trace(family) -> None:
    trace = family.ask("in which country was Dan Lee born", kb="family")
    details = trace.steps[0].action.details
    assert {"coverage", "hops", "type_thing", "inversions"} <= set(details["features"])
    top = details["signals"][0]
    assert set(top) == {"signal", "value", "weight", "adds"}
    assert abs(sum(r["adds"] for r in details["signals"]) - details["plan_score"]) < 0.05
    assert details["relation_words"]
    assert details["answer_type"] == "thing"


def test_explain_counts_an_unexplained_word(family) -> None:
    kg = family.kg("family")
    sem = semantics_for(kg)
    qa = analyse("in which country was Dan Lee born", kg)
    pob = next(r for r in sem.rel_ids if kg.label(r) == "place of birth")
    loc = next(r for r in sem.rel_ids if kg.label(r) == "located in")
    anchor = qa.entities[0].ids[0]
    one = explain(qa, [(pob, "out")], (qa.entities[0],), anchor=anchor)
    two = explain(qa, [(pob, "out"), (loc, "out")], (qa.entities[0],), anchor=anchor)
    assert two.coverage > one.coverage


def test_relation_semantics_find_stored_inverses(family) -> None:
    kg = family.kg("family")
    sem = semantics_for(kg)
    label = {r: kg.label(r) for r in sem.rel_ids}
    pairs = {(label[a], label[b]) for a, b in sem.inverse.items()}
    assert ("parent", "child") in pairs and ("spouse", "spouse") in pairs


# -- generality -------------------------------------------------------------------------------


def _relation_names() -> set[str]:
    """The relation names of every dev KB and of the bundled KB, raw and as read."""
    import re

    from core.kg.terms import humanize

    root = Path(__file__).resolve().parents[1]
    names: set[str] = set()
    for path in [*root.glob("benchmarks/data/*/kb.tsv"), root / "kb_data/metaqa/kb.txt"]:
        for line in path.read_text(encoding="utf-8").splitlines()[:20000]:
            parts = re.split(r"[\t|]", line)
            if len(parts) == 3:
                names.add(parts[1])
    for path in root.glob("benchmarks/data/*/kb.nt"):
        for m in re.finditer(r'/prop/P\d+> <http://www.w3.org/2000/01/rdf-schema#label> "([^"]+)"',
                             path.read_text(encoding="utf-8")):  # fmt: skip
            names.add(m.group(1))
    return names | {humanize(n) for n in names}


@pytest.mark.slow  # ≈ 1.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_no_relation_name_of_a_dev_kb_is_in_the_engine() -> None:
    """Generality: no string in core/'s code (docstrings and comments aside) holds a relation
    name of the bundled KB or of a dev KB."""
    import ast
    import re

    root = Path(__file__).resolve().parents[1] / "core"
    # names of more than one word (place_of_birth, "directed by", playsForClub); a name that
    # is one plain English word ("child", "topic") is a word, not a relation name
    names = {n.casefold() for n in _relation_names() if re.search(r"[_ .]|[a-z][A-Z]", n)}
    assert len(names) > 50
    found = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }  # fmt: skip
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docstrings:
                    continue
                text = node.value.casefold()
                found += [(path.name, n) for n in names if n in text]
    assert not found, found


def test_a_question_of_names_only_still_ranks_its_plans(family) -> None:
    """No relation word at all ("Ann Lee?"): every plan still gets a finite score."""
    import math

    from core.agents.planner import Planner

    kg = family.kg("family")
    plans = Planner(kg).plans(analyse("Ann Lee?", kg))
    assert plans and all(math.isfinite(p.score) for p in plans)
    assert all(math.isfinite(v) for p in plans for v in p.features.values())


# -- relations named by what they reach, and the contextual encoder ------------------------------


def _tsv(rows) -> str:
    """Triples as the lines of a TSV file (subject, relation, object)."""
    return "".join("\t".join(r) + "\n" for r in rows)

def _work_kb() -> str:
    """Eight people with nine attributes each; only two have an employer, so `employer` is not
    among the most common next steps after a hop."""
    people = ["Ann Lee", "Bob Lee", "Cara Diaz", "Dan Diaz", "Eve Moss", "Finn Moss", "Gil Roy",
              "Hana Roy"]  # fmt: skip
    rows = []
    for i, person in enumerate(people):
        partner = people[i ^ 1]
        rows += [
            (person, "spouse", partner),
            (person, "gender", "female" if i % 2 == 0 else "male"),
            (person, "nationality", ("France", "Spain")[i % 2]),
            (person, "religion", ("Buddhism", "Hinduism")[i // 4]),
            (person, "year_of_birth", str(1960 + i)),
            (person, "height_cm", str(160 + i)),
            (person, "hobby", ("chess", "rowing", "opera")[i % 3]),
            (person, "blood_type", ("A", "B", "O")[i % 3]),
            (person, "eye_colour", ("brown", "blue")[i % 2]),
        ]
    rows += [
        ("Bob Lee", "employer", "Acme Corporation"),
        ("Dan Diaz", "employer", "Globex Holdings"),
        ("Acme Corporation", "industry", "software"),
        ("Globex Holdings", "industry", "banking"),
        ("France", "currency", "euro"),
        ("Spain", "currency", "euro"),
    ]
    return _tsv(rows)


def test_a_relation_named_only_by_what_it_reaches_is_planned(tmp_path: Path) -> None:
    """No word of "works for which company" names `employer`; "company" names what it reaches.
    The planner must still try it after a hop, among a person's many other relations."""
    kb = tmp_path / "work.tsv"
    kb.write_text(_work_kb(), encoding="utf-8")
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name="work")
    trace = Engine(workspace).ask("Ann Lee's spouse works for which company", kb="work")
    assert trace.answer_labels == ["Acme Corporation"]


def test_the_contextual_encoder_reads_phrases() -> None:
    """MiniLM in numpy: a phrase whose words name nothing ("tie the knot") still reads as the
    relation it means, and the encoder agrees with itself across batches."""
    from core.textmodel import sentence_model

    model = sentence_model()
    q, spouse, born = model.encode(["who did X tie the knot with", "the spouse of X",
                                    "the place of birth of X"])  # fmt: skip
    assert q @ spouse > q @ born
    again = model.encode(["the spouse of X"])[0]
    assert abs(float(again @ spouse) - 1.0) < 1e-5


def test_the_contextual_encoder_stays_in_single_precision() -> None:
    """A float64 scalar anywhere in the layers (NumPy 2 lets it win) turns every later product
    float64 and the encoder 3x slower; a padded batch reads each text as it reads it alone."""
    from core.textmodel import sentence_model

    model = sentence_model()
    texts = ["who did X marry", "the place of birth of the spouse of the parent of X"]
    batch = model._forward([model.ids(t) for t in texts])
    assert batch.dtype.name == "float32"
    alone = model._forward([model.ids(texts[0])])[0]
    assert float(alone @ batch[0]) > 1 - 1e-5


def test_the_encoder_layers_agree_in_onnx_runtime_and_numpy(monkeypatch) -> None:
    """ONNX Runtime runs the layers by default (the weights its graph leaves out are the numpy
    layers' own arrays): both read every text alike, alone or padded in a batch; where the
    graph (or onnxruntime) is missing, "auto" falls back to numpy and "onnx" says so."""
    import core.textmodel as tm

    fast, plain = tm.SentenceModel.load(), tm.SentenceModel.load(backend="numpy")
    assert (fast.backend, plain.backend) == ("onnxruntime", "numpy")
    texts = ["who did X tie the knot with", "the place of birth of the spouse of the parent of X",
             "X"]  # fmt: skip
    batch = [fast.ids(t) for t in texts]
    a, b = fast._forward(batch), plain._forward(batch)
    assert a.dtype.name == "float32" and np.abs(a - b).max() < 1e-5
    assert np.abs(fast._forward(batch[:1])[0] - b[0]).max() < 1e-5
    monkeypatch.setattr(tm, "LAYERS_GRAPH", Path("/nonexistent/layers.onnx"))
    assert tm.SentenceModel.load().backend == "numpy"
    with pytest.raises(OSError):
        tm.SentenceModel.load(backend="onnx")


def test_a_path_reads_out_from_its_topic(family) -> None:
    kg = family.kg("family")
    sem = semantics_for(kg)
    code = {r: i for i, r in enumerate(sem.rel_ids)}
    parent = next(r for r in sem.rel_ids if kg.label(r) == "parent")
    birth = next(r for r in sem.rel_ids if kg.label(r) == "place of birth")
    # parent backwards reads as its stored inverse; a hop without one as "whoever has"
    assert sem.verbalise([2 * code[parent] + 1]) == "the child of X"
    two = sem.verbalise([2 * code[parent], 2 * code[birth]])
    assert two == "the place of birth of the parent of X"
    assert sem.verbalise([2 * code[birth] + 1]) == "whoever has place of birth X"


def test_a_label_ending_on_of_reads_out_as_what_its_subject_is(tmp_path: Path) -> None:
    """ "member of" names its subjects (a member), so a hop over it reads "whatever X is a
    member of", not "the member of of X" (which the encoder reads as nothing); the class
    relation "instance of" keeps "the … of" form."""
    kg = _imported(tmp_path, "bands", [
        ("Ann Lee", "member of", "The Owls"), ("Bob Ray", "member of", "The Owls"),
        ("The Owls", "formed in", "Leeds"), ("The Owls", "instance of", "band"),
        ("Leeds", "instance of", "city"), ("Ann Lee", "instance of", "person"),
        ("Bob Ray", "instance of", "person")]).kg("bands")  # fmt: skip
    sem = semantics_for(kg)
    rel = {kg.label(r): sem.code[r] for r in sem.rel_ids}
    path = [2 * rel["member of"], 2 * rel["formed in"]]
    assert sem.verbalise(path) == "the formed in of whatever X is a member of"
    assert sem.verbalise([2 * rel["instance of"]]) == "the instance of of X"


def test_only_a_clear_first_stage_winner_skips_the_encoder(family) -> None:
    """The contextual encoder is most of a question's time; where the linear first stage's
    best plan leads by CONTEXT_GATE it is skipped, and that plan is explained by the weights
    that scored it (the rows still add up to its score)."""
    kg = family.kg("family")
    clear = analyse("what is the profession of Dan Lee", kg)
    paraphrase = analyse("what does Dan Lee do for a living", kg)  # only the encoder reads it
    (gated, *_), (read, *_) = Planner(kg).plans(clear), Planner(kg).plans(paraphrase)
    assert gated.first_stage and gated.features["context_similarity"] == 0.0
    assert not read.first_stage and read.features["context_similarity"] > 0.5
    always = Planner(kg, context_gate=float("inf")).plans(clear)[0]
    assert not always.first_stage and always.hops == gated.hops  # the same plan either way
    trace = family.ask("what is the profession of Dan Lee", kb="family")
    details = trace.steps[0].action.details
    assert abs(sum(r["adds"] for r in details["signals"]) - details["plan_score"]) < 0.05


FILMS = """\
Made\tdirected_by\tJon Favreau
Made\trelease_year\t2001
Eraser\tdirected_by\tChuck Russell
Eraser\trelease_year\t1996
The Mask\tdirected_by\tChuck Russell
The Mask\trelease_year\t1994
"""


def test_a_common_word_written_in_lower_case_is_a_weak_link(tmp_path: Path) -> None:
    """The KB writes "Made" as a name; a question that capitalises names but writes "made"
    means the verb, so the name it does capitalise is the topic. An all-lowercase question
    says nothing by its case, and the word keeps its score."""
    (tmp_path / "films.tsv").write_text(FILMS, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "films.tsv", name="films")
    kg = engine.kg("films")

    def link(question: str, text: str) -> float:
        return next(m.link_score for m in analyse(question, kg).entities if m.text == text)

    cased = "which films made by Chuck Russell came out in 1995 or later"
    assert link(cased, "made") < link(cased.lower(), "made")
    assert link(cased, "Chuck Russell") - link(cased, "made") > 1.0  # not planned from
    trace = engine.ask(cased, kb="films")
    assert trace.answer_labels == ["Eraser"]


CLUBS = """\
Rovers FC\tclubCountry\tEngland
Harriers FC\tclubCountry\tEngland
Estrela SC\tclubCountry\tPortugal
Rovers FC\tmanager\tTom Lowe
Harriers FC\tmanager\tJoe Hart
Estrela SC\tmanager\tRui Costa
Ann Kerr\tplaysForClub\tRovers FC
Ben Mills\tplaysForClub\tHarriers FC
Caio Lima\tplaysForClub\tEstrela SC
Dan Wood\tplaysForClub\tRovers FC
England\tcapital\tLondon
Portugal\tcapital\tLisbon
"""


def test_an_irregular_participle_is_no_head_noun_of_a_label() -> None:
    """ "award *won*", "languages *spoken*": a trailing participle is not the head, however it
    is spelt — "which awards has X won" asks for what `award won` reaches (awards), not for
    the albums that won the same awards (the music dev KB, own wordings' third batch)."""
    assert label_parts("award won") == (("award",), ())
    assert label_parts("languages spoken") == (("languages",), ())
    assert label_parts("born in") == (("born",), ())  # nothing else: the participle stays


def test_a_modifier_of_a_relation_name_says_what_has_it(tmp_path: Path) -> None:
    """ "club country" is a country (its head noun) that a club has (its modifier): "which
    club" asks for the nodes that have a club country, not for the countries it reaches,
    though the word "club" is in its name; "which country" still walks on to the country."""
    assert label_parts("club country") == (("country",), ("club",))
    assert label_parts("product or material produced") == (("product", "material"), ())
    assert label_parts("place of birth") == (("place",), ())
    (tmp_path / "clubs.tsv").write_text(CLUBS, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "clubs.tsv", name="clubs")
    for question in ("name the club where Tom Lowe is the manager",
                     "Tom Lowe is manager of what club?"):  # fmt: skip
        assert engine.ask(question, kb="clubs").answer_labels == ["Rovers FC"], question
    trace = engine.ask("which country is the club that Tom Lowe manages in", kb="clubs")
    assert trace.answer_labels == ["England"]


FIRMS = """\
Acme Freight\theadquarters_location\tTokyo
Bolt Labs\theadquarters_location\tTokyo
Crest Media\theadquarters_location\tOslo
Acme Freight\tindustry\tlogistics
Bolt Labs\tindustry\tbiotech
Crest Media\tindustry\tmedia
Tokyo\tcountry\tJapan
Oslo\tcountry\tNorway
"""


def test_a_relation_name_written_out_whole_names_it_with_every_word(tmp_path: Path) -> None:
    """ "which headquarters location does X have": "headquarters" is part of the name, not a
    description of the firms that have one (walking out and back to them) nor an agent noun."""
    (tmp_path / "firms.tsv").write_text(FIRMS, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "firms.tsv", name="firms")
    trace = engine.ask("which headquarters location does Acme Freight have", kb="firms")
    assert trace.answer_labels == ["Tokyo"]


@pytest.mark.parametrize(
    ("asked", "read"),
    [
        ("Canada: official language?", "Canada's official language?"),
        ("X's club: who is the manager?", "who is the manager of X's club?"),
        ("X's dad's wife: what faith is she", "what faith is X's dad's wife"),
        ("a carpenter born in Mexico: who?", "who is a carpenter born in Mexico?"),
        ("Y's owning group: where were its founders educated?",
         "where were Y's owning group's founders educated?"),
        ("The firm behind Z: which city is it in?", "which city is the firm behind Z in?"),
        ("Parent of Z: headquarters location?", "headquarters location of Parent of Z?"),
        ("when was Mission: Impossible released", "when was Mission: Impossible released"),
        ("who directed [Star Wars: Episode IV]", "who directed [Star Wars: Episode IV]"),
        ("Léa Gauthier: man or woman", "Léa Gauthier: man or woman"),
        (r"C\1 Corp: who is the CEO?", r"who is the CEO of C\1 Corp?"),  # text, not a pattern
    ],
)  # fmt: skip
def test_a_topic_written_first_is_read_as_one_sentence(asked: str, read: str) -> None:
    assert undislocate(asked) == read


def test_a_question_written_topic_first_is_answered(family) -> None:
    assert answers(family, "Gus Ray: place of birth?") == ["Lyon"]
    assert answers(family, "Ann Lee's spouse: what is his profession?") == ["doctor"]


# -- films: a yes/no question about "any N", and a name with two readings -------------------


def _films_kb() -> str:
    """Two directors' films with a genre, a year, free-text tags and (not all) a language.
    Every film has tags, so a tag is the likelier reading of a name that is both a tag and a
    language; no film of Ida Moss is tagged "english"."""
    rows = []
    films = [  # title, director, genre, language, year, tags
        ("Dawn Ride", "Ida Moss", "western", "English", 1972, ["horses"]),
        ("Night Talk", "Ida Moss", "drama", "French", 1985, ["paris"]),
        ("Last Train", "Ida Moss", "western", "French", 1990, ["trains"]),
        ("Blue Hour", "Ida Moss", "drama", "English", 2001, ["night"]),
        ("Cold Sun", "Otto Berg", "drama", None, 1995, ["english", "night", "director"]),
        ("High Plains", "Otto Berg", "western", None, 1999, ["english", "horses"]),
    ]
    for title, director, genre, language, year, tags in films:
        rows += [f"{title}\tdirected_by\t{director}", f"{title}\thas_genre\t{genre}",
                 f"{title}\trelease_year\t{year}"]  # fmt: skip
        rows += [f"{title}\tin_language\t{language}"] if language else []
        rows += [f"{title}\thas_tags\t{t}" for t in tags]
    rows += ["English\tspoken_in\tEngland", "French\tspoken_in\tFrance"]
    return "\n".join(rows) + "\n"


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("films-kb")
    kb = Path(root) / "films.tsv"
    kb.write_text(_films_kb(), encoding="utf-8")
    workspace = Workspace(root / "home")
    workspace.import_file(kb, name="films")
    return Engine(workspace)


@pytest.mark.parametrize(
    ("question", "read_as"),
    [
        ("Did Ida Moss direct any westerns? Which ones?", "which westerns did Ida Moss direct?"),
        ("Has Ida Moss made any films in French? Name them.",
         "which films in French has Ida Moss made?"),
        ("did Ida Moss direct any dramas in the nineties? what are they",
         "which dramas in the nineties did Ida Moss direct?"),
        ("Did Ida Moss direct any westerns?", None),  # a yes/no question alone: left as asked
        ("which westerns did Ida Moss direct?", None),
    ],
)  # fmt: skip
def test_any_n_then_which_ones_reads_as_one_question(question: str, read_as: str | None) -> None:
    from core.analysis import unfold_which_ones

    assert unfold_which_ones(question) == (read_as or question)


def test_which_ones_asks_for_the_n_of_the_yes_no_question(films: Engine) -> None:
    trace = films.ask("Did Ida Moss direct any westerns? Which ones?", kb="films")
    assert sorted(trace.answer_labels) == ["Dawn Ride", "Last Train"]
    assert trace.question == "Did Ida Moss direct any westerns? Which ones?"  # kept as asked


def test_a_constraint_that_links_no_candidate_is_tried_with_its_other_reading(
    films: Engine,
) -> None:
    trace = films.ask("which films in English did Ida Moss direct", kb="films")
    assert sorted(trace.answer_labels) == ["Blue Hour", "Dawn Ride"]
    retried = [s for s in trace.steps if s.action.details.get("retried_because")]
    assert retried, "the tag reading of 'English' was not tried first: the test proves nothing"
    assert "english" in retried[0].action.details["retried_because"]
    assert "in language" in retried[0].action.description


@pytest.mark.parametrize(
    ("question", "answers"),
    [("what was Ida Moss's debut", ["Dawn Ride"]),
     ("name the final film Ida Moss directed", ["Blue Hour"])],
)  # fmt: skip
def test_debut_and_final_are_superlatives_in_time(films: Engine, question, answers) -> None:
    assert films.ask(question, kb="films").answer_labels == answers


@pytest.mark.parametrize(
    "question",
    ["I'm looking for western films with Ida Moss as director",
     "I'm looking for western films with Ida Moss as the director"],
)  # fmt: skip
def test_a_request_frame_and_x_as_role(films: Engine, question: str) -> None:
    """"I'm looking for" frames the request (the films are asked for, "western" constrains
    them); "Ida Moss as director" says what Ida Moss is, not what the answers are (a tag
    "director" exists and must not become a constraint)."""
    from core.analysis import analyse

    kg = films.kg("films")
    qa = analyse(question, kg)
    assert qa.words[qa.answer.focus] == "films"
    director = next(m for m in qa.entities if m.text == "director")
    assert not qa.describes_answer(director)
    assert sorted(films.ask(question, kb="films").answer_labels) == ["Dawn Ride", "Last Train"]


@pytest.mark.parametrize(
    "question", ["who is the Director of [Night Talk]", "who is the director of [Night Talk]",
                 "Who was registered as the Director of Night Talk"],
)  # fmt: skip
def test_a_title_cased_common_word_is_read_as_the_relation_it_names(
    films: Engine, question: str
) -> None:
    """ "the *Director* of X": the KB has a tag "director" (lower case: a common word there
    too) and the word names `directed_by` by its form — its capital is the writer's style, not
    a name, so it is not a written name the plan leaves unused (it was, and the walk went to the
    year or the genre)."""
    kg = films.kg("films")
    qa = analyse(question, kg)
    director = next(m for m in qa.entities if m.text.lower() == "director")
    assert not director.named
    assert films.ask(question, kb="films").answer_labels == ["Ida Moss"]


def test_a_capitalised_name_that_names_no_relation_stays_a_name(films: Engine) -> None:
    """The exception is narrow: a capitalised word the KB writes in lower case stays a name
    when it names no relation by its form ("Paris", a tag here)."""
    qa = analyse("which films are set in Paris", films.kg("films"))
    assert next(m for m in qa.entities if m.text == "Paris").named


@pytest.mark.parametrize(
    "question",
    ["the film [Blue Hour] when has been released", "Blue Hour, when was it released",
     "the film Blue Hour when was released"],
)  # fmt: skip
def test_where_or_when_before_a_verb_asks_the_question(films: Engine, question: str) -> None:
    """A relative "when" / "where" has a subject next ("the year *when* X was released"); one
    followed by a verb asks the question ("the film X *when* has been released"), and asks for
    a time."""
    kg = films.kg("films")
    assert analyse(question, kg).answer.wh == "time"
    assert films.ask(question, kb="films").answer_labels == ["2001"]


@pytest.mark.parametrize(
    ("question", "focus", "answer"),
    [("Can you give a couple of words describing Dawn Ride", "words", ["horses"]),
     ("what are a couple of words that describe Dawn Ride", "words", ["horses"]),
     ("Ida Moss directed to films", "films", None),
     ("Dawn Ride is a film made by this person", "person", ["Ida Moss"]),
     ("list the rest of the films of Ida Moss", "films", None),  # as before
     ("can you describe movie Dawn Ride in a few words", "words", ["horses"]),
     ("name every western film Ida Moss directed", "film", None),  # a clause's head
     ("list everything Ida Moss directed", "everything", None)],  # a pronoun: as before
)  # fmt: skip
def test_the_noun_asked_for_is_not_an_amount_a_verb_or_what_the_topic_is(
    films: Engine, question: str, focus: str, answer: list[str] | None
) -> None:
    """ "a *couple* of words" asks for words (an amount's "of" phrase names what is asked);
    "X *directed* to films": a participle after a name is its verb; "X is a *film* made by this
    person": the noun after "X is a" says what X is, and the clause after it what is asked;
    "describe *movie* X": a noun right before a name with no determiner says what it is."""
    qa = analyse(question, films.kg("films"))
    assert qa.words[qa.answer.focus] == focus
    if answer:
        assert films.ask(question, kb="films").answer_labels == answer


@pytest.mark.parametrize(
    ("question", "focus"),
    [("what are the main languages in Ida Moss directed films", "languages"),
     ("what are the usual genres of Ida Moss's films", "genres"),
     ("which film directed by Ida Moss features horses", "film"),  # a verb in -s after it
     ("what genre films did Ida Moss direct", "genre"),  # no article: as before
     ("what is the release year of Dawn Ride", "year"),  # a compound that ends at "of"
     ("what is the main genre of Dawn Ride", "genre"),
     ("what is the genre of Dawn Ride", "genre")],  # one noun: as before
)  # fmt: skip
def test_a_plural_after_a_word_that_is_not_heads_the_noun_asked_for(
    films: Engine, question: str, focus: str
) -> None:
    """ "what are the *main* languages": in a noun phrase after its article, the plural
    after a singular is the head (the adjective was read as the noun asked about); so is
    the second of two nouns that ends the phrase ("the birth *country* of X")."""
    qa = analyse(question, films.kg("films"))
    assert qa.words[qa.answer.focus] == focus
    if focus == "languages":
        assert sorted(films.ask(question, kb="films").answer_labels) == ["English", "French"]


def test_a_category_noun_before_a_copula_asks_for_a_category(tmp_path: Path) -> None:
    """ "what *types* are the films X directed" asks for a category the films have (one of
    few values many share: a genre), as "what *types of* film" does — not for the films (on
    the bare MetaQA KB: 3-hop 0.928 -> 0.951; a KB this small still answers films, as it does
    for "what kinds of film", the answer type being one signal among many)."""
    from core.answer_types import _asks_for_a_category

    directors, genres = ["Ida Moss", "Otto Berg", "Max Roy", "Lea Kim"], ["drama", "western"]
    rows = [
        line
        for i in range(16)
        for line in (f"Film {i}\tdirected_by\t{directors[i % 4]}",
                     f"Film {i}\thas_genre\t{genres[(i // 4) % 2]}",
                     f"Film {i}\trelease_year\t{1990 + i}")
    ]  # fmt: skip
    (tmp_path / "films.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "films.tsv", name="films")
    kg = engine.kg("films")
    genre, directed = (next(r.id for r in kg.relations if r.label == label)
                       for label in ("has genre", "directed by"))  # fmt: skip
    for question in ("what types are the films directed by Max Roy",
                     "what kinds of film did Max Roy direct"):  # fmt: skip
        qa = analyse(question, kg)
        assert _asks_for_a_category(qa), question
        assert answer_fit(qa, kg, genre, "out") == 1.0, question
        assert answer_fit(qa, kg, directed, "in") == -1.0, question
    assert _asks_for_a_category(analyse("what types of film are there", kg))
    assert not _asks_for_a_category(analyse("what films did Max Roy direct", kg))
    # the loop walks on from the films, which the rule says are the wrong kind, to their
    # genres, though the one-hop plan scores higher and explains as much of the question
    trace = engine.ask("what types are the films of Max Roy", kb="films")
    assert sorted(trace.answer_labels) == ["drama", "western"]
    assert len(trace.steps) >= 2
    # ... where only a noun's meaning types the answer ("which films"), that is no verdict
    trace = engine.ask("which films did Max Roy direct", kb="films")
    assert sorted(trace.answer_labels) == ["Film 10", "Film 14", "Film 2", "Film 6"]


def test_a_relation_named_has_n_reads_as_its_noun(films: Engine) -> None:
    """The encoder reads "the tags of X", not "the has tags of X" (a verb where the path's
    noun stands)."""
    kg = films.kg("films")
    sem = semantics_for(kg)
    tags = sem.code[next(r for r in sem.rel_ids if kg.label(r) == "has tags")]
    assert sem.verbalise([2 * tags]) == "the tags of X"
    assert sem.verbalise([2 * tags + 1]) == "whoever has tags X"


def test_a_noun_in_apposition_before_the_name_says_what_the_topic_is(films: Engine) -> None:
    """ "who was in the *film* Dawn Ride": "film" names no relation by its form, so it says
    what Dawn Ride is and needs no hop — however near its meaning is to some relation (MetaQA
    documents `directed_by` as "the film's director")."""
    kg = films.kg("films")
    qa = analyse("who was in the film Dawn Ride", kg)
    topic = next(m for m in qa.entities if m.text == "Dawn Ride")
    row = qa.word_tokens.index(qa.words.index("film"))
    assert anchor_kind(qa, kg, topic.ids[0], topic)[row] == pytest.approx(qa.best[row])


def test_the_noun_after_a_preposition_is_not_the_noun_asked_for(films: Engine) -> None:
    """ "which was *in* the film X": "film" is the preposition's object, not what "which"
    asks for (it was read as "which film", and films were the answer)."""
    kg = films.kg("films")
    assert analyse("which was in the film Dawn Ride", kg).answer.focus is None
    qa = analyse("which film was Ida Moss in", kg)  # the noun right after "which": as before
    assert qa.words[qa.answer.focus] == "film"


def test_a_possessive_after_a_names_closing_dot_is_one_token() -> None:
    """ "Acme Inc.'s CEO": the "'s" after "Inc." is a possessive, as after any letter (it
    was split into an apostrophe and an "s", and the name was read as one in apposition)."""
    from core.analysis import _tokenize

    text = "the university Acme Inc.'s CEO attended"
    assert [text[a:b] for a, b in _tokenize(text)] == [
        "the", "university", "Acme", "Inc", ".", "'s", "CEO", "attended"]  # fmt: skip
    plural = "the players' stats"
    assert [plural[a:b] for a, b in _tokenize(plural)] == ["the", "players", "'", "stats"]


def test_a_relation_named_by_its_agent_reads_as_the_agent(films: Engine) -> None:
    """ "directed by" walked forwards reads "whoever directed X" (not "the directed by of X",
    which the encoder reads as little as "the has tags of X"); backwards as before."""
    kg = films.kg("films")
    sem = semantics_for(kg)
    directed = sem.code[next(r for r in sem.rel_ids if kg.label(r) == "directed by")]
    assert sem.verbalise([2 * directed]) == "whoever directed X"
    assert sem.verbalise([2 * directed + 1]) == "whoever has directed by X"


def test_where_no_word_names_the_leader_the_encoder_picks_among_close_plans(
    tmp_path: Path,
) -> None:
    """ "what does X do *for a living*": the static vectors put "living" nearest residence,
    so the leader rests on a weak word match; the encoder reads the whole phrase as the
    profession, and a plan that close behind goes first. "where does X live" is named well
    and stays as it was."""
    people = [("Ann Lee", "lawyer", "Paris", "Lyon"), ("Bob Lee", "doctor", "Lyon", "Paris"),
              ("Cara Diaz", "painter", "Berlin", "Munich"),
              ("Dan Diaz", "lawyer", "Munich", "Berlin"), ("Eve Ray", "nurse", "Paris", "Berlin"),
              ("Gus Ray", "doctor", "Lyon", "Munich")]  # fmt: skip
    rows = [line for name, job, home, birth in people
            for line in (f"{name}\tprofession\t{job}", f"{name}\tplace_of_residence\t{home}",
                         f"{name}\tplace_of_birth\t{birth}")]  # fmt: skip
    (tmp_path / "people.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "people.tsv", name="people")
    for question, answer in (("what does Cara Diaz do for a living", "painter"),
                             ("what does Gus Ray do for a living", "doctor"),
                             ("where does Cara Diaz live", "Berlin")):  # fmt: skip
        assert engine.ask(question, kb="people").answer_labels == [answer], question


def test_a_leader_no_word_names_is_read_by_the_encoder(films: Engine) -> None:
    """A first-stage lead is no clear win when no word names the leader's relations well
    ("who is *behind* X"): the contextual encoder reads the plans too. A leader a word names
    ("who *directed* X") still skips it."""
    kg = films.kg("films")
    planner = Planner(kg)
    guessed = planner.plans(analyse("who is behind Dawn Ride", kg))[0]
    assert guessed.features["min_support"] < 0.45 and not guessed.first_stage
    assert guessed.features["context_similarity"] > 0
    assert planner.plans(analyse("who directed Dawn Ride", kg))[0].first_stage


@pytest.mark.parametrize(
    ("question", "asked"),
    [("apart from Dan Lee, who was born in Paris", "person"),
     ("besides Cara Lee, who practises law", "person"),
     ("name the city where Dan Lee was born", "thing"),  # a relative "where" after content
     ("since when has Dan Lee practised law", "time"),
     ("from where does Dan Lee come", "place")],
)  # fmt: skip
def test_a_wh_word_after_a_fronted_phrase_asks_the_question(family, question, asked) -> None:
    """ "Apart from X, who …": the comma closes a fronted phrase, and "who" after it is the
    question word, not a relative pronoun of X; so is a wh-word right after the question's
    opening preposition ("*since when* has X …")."""
    assert analyse(question, family.kg("family")).answer.wh == asked


def test_others_after_a_fronted_phrase_are_people(family) -> None:
    assert answers(family, "apart from Ann Lee, who was born in the same city") == ["Cara Lee"]


def test_when_asks_for_a_time_whatever_the_words_match(tmp_path: Path) -> None:
    """ "when was X founded": `founded by` matches the words, but only `inception` gives a
    time — a plan ending elsewhere is marked (a rule, -10), so the words alone no longer
    answer with the founder; "who founded X" still walks `founded by`."""
    kb = tmp_path / "companies.tsv"
    kb.write_text(
        "Acme Corp\tfounded_by\tJane Roe\nAcme Corp\tinception\t1921\n"
        "Bolt Inc\tfounded_by\tJohn Doe\nBolt Inc\tinception\t1999\n"
        "Acme Corp\tindustry\tsteel\nBolt Inc\tindustry\tsoftware\n",
        encoding="utf-8",
    )
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name="companies")
    engine = Engine(workspace)
    kg = engine.kg("companies")
    planner = Planner(kg)
    for plan in planner.plans(analyse("when was Acme Corp founded", kg)):
        ends_on_year = kg.relation(plan.hops[-1][0]).object_kind == "year"
        assert plan.features["no_time"] == (0.0 if ends_on_year else 1.0)
    assert "Jane Roe" not in engine.ask("when was Acme Corp founded", kb="companies").answer_labels
    assert all(p.features["no_time"] == 0.0
               for p in planner.plans(analyse("who founded Bolt Inc", kg)))  # fmt: skip
    assert engine.ask("who founded Bolt Inc", kb="companies").answer_labels == ["John Doe"]


TOWNS = """\
Rovers FC\tbasedIn\tLeeds
Harriers FC\tbasedIn\tLeeds
Estrela SC\tbasedIn\tPorto
Rovers FC\tclubCountry\tEngland
Harriers FC\tclubCountry\tEngland
Estrela SC\tclubCountry\tPortugal
Ann Kerr\tplaysForClub\tRovers FC
Ben Mills\tplaysForClub\tHarriers FC
Caio Lima\tplaysForClub\tEstrela SC
Ann Kerr\tbirthCity\tLeeds
Ben Mills\tbirthCity\tPorto
Caio Lima\tbirthCity\tPorto
Leeds\tcityCountry\tEngland
Porto\tcityCountry\tPortugal
"""


@pytest.mark.parametrize("question", ["tell me the clubs from Leeds",
                                      "What clubs are there in Leeds?"])  # fmt: skip
def test_a_type_noun_is_explained_by_what_a_hop_reaches(tmp_path: Path, question: str) -> None:
    """ "clubs" names what `plays for club` reaches, so the one hop back over `based in`
    (which reaches clubs) explains it as well as a relation with "club" in its name does:
    no walk on through `club country` (a modifier) or a player is needed to explain it.
    Used relationally ("the *parents* of X", "X's *parents*") the noun names the relation
    alone."""
    (tmp_path / "towns.tsv").write_text(TOWNS, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "towns.tsv", name="towns")
    kg = engine.kg("towns")
    sem = semantics_for(kg)
    qa = analyse(question, kg)
    row = next(r for r, i in enumerate(qa.word_tokens) if qa.words[i] == "clubs")
    based_in_back = 2 * next(i for i, r in enumerate(sem.rel_ids) if kg.label(r) == "based in") + 1
    club_country = 2 * next(i for i, r in enumerate(sem.rel_ids) if kg.label(r) == "club country")
    assert qa.explains[row, based_in_back] >= qa.explains[row, club_country] > 0.5
    assert sorted(engine.ask(question, kb="towns").answer_labels) == ["Harriers FC", "Rovers FC"]
    relational = analyse("tell me the clubs of Ann Kerr", kg)
    row = next(r for r, i in enumerate(relational.word_tokens) if relational.words[i] == "clubs")
    assert relational.explains[row, based_in_back] < relational.explains[row, club_country]


SPELLS = """\
Ann Kerr\tplaysForClub\tRovers FC
Ben Mills\tplaysForClub\tRovers FC
Caio Lima\tplaysForClub\tEstrela SC
Dan Wood\tplaysForClub\tEstrela SC
Caio Lima\tformerClub\tRovers FC
Dan Wood\tformerClub\tHarriers FC
Ann Kerr\tformerClub\tHarriers FC
Ben Mills\tage\t27
Dan Wood\tage\t31
"""


@pytest.mark.parametrize(("question", "expected"), [
    ("Players who were once at Rovers FC?", ["Caio Lima"]),
    ("tell me which players are Harriers FC old boys", ["Ann Kerr", "Dan Wood"]),
    ("Who plays for Rovers FC?", ["Ann Kerr", "Ben Mills"]),
    ("how many years old is Dan Wood", ["31"]),
    ("Which players previously played for Rovers FC?", ["Caio Lima"]),
    ("Who used to play for Harriers FC?", ["Ann Kerr", "Dan Wood"]),
    ("List the clubs Dan Wood used to play for", ["Harriers FC"]),
    ("Where did Caio Lima play before his current club?", ["Rovers FC"]),
])  # fmt: skip
def test_a_marked_modifier_is_read_by_its_sense(tmp_path: Path, question: str,
                                                expected: list[str]) -> None:  # fmt: skip
    """ "once", "earlier", "old", "used to" say what "former" says: the marked relation is
    meant, and the plain one of the same head noun ("plays for club") is not; unsaid, the plain
    one is. The verb that names the plain relation ("previously *played* for") names the
    marked one as well."""
    (tmp_path / "spells.tsv").write_text(SPELLS, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "spells.tsv", name="spells")
    assert sorted(engine.ask(question, kb="spells").answer_labels) == expected


# dev-KB tuning questions where a relation whose marked modifier is unsaid ("*former* member
# of", "plays for club" where "used to" says "former") led by a hair of coverage — what its
# nodes are like, not what the words say (`rank_order`); each fails without the rule
@pytest.mark.parametrize(
    ("kb", "question", "answer"),
    [
        ("music", "Where was Simon Tremblay's band formed?", "Halifax"),
        ("football", "Who used to play for Bosphorus SK?", "Franco Acosta"),
    ],
)
def test_an_unsaid_marked_modifier_takes_no_lead_by_coverage(
        tmp_path: Path, kb: str, question: str, answer: str) -> None:  # fmt: skip
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / kb / "kb.tsv"
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(dev_kb, name=kb)
    got = engine.ask(question, kb=kb).answer_labels
    assert got and answer in got[:3]


GROUNDS = """\
Kirk Park\tcapacity\t31000
Kirk Park\tstadiumCity\tLeeds
Mill Lane\tcapacity\t18000
Mill Lane\tstadiumCity\tPorto
Rovers FC\thomeStadium\tKirk Park
Estrela SC\thomeStadium\tMill Lane
Rovers FC\tfoundedYear\t1888
Estrela SC\tfoundedYear\t1921
Rovers FC\tfoundedBy\tAnn Kerr
Estrela SC\tfoundedBy\tCaio Lima
Ann Kerr\tbirthCity\tLeeds
Caio Lima\tbirthCity\tPorto
"""


@pytest.mark.parametrize(("question", "relation", "expected"), [
    ("How many fans fit into Kirk Park?", "capacity", ["31000"]),
    ("Which year saw the founding of Estrela SC?", "founded year", ["1921"]),
    ("when did Rovers FC first open its doors?", "founded year", ["1888"]),
])  # fmt: skip
def test_a_time_or_number_question_names_the_hop_that_gives_one(
        tmp_path: Path, question: str, relation: str, expected: list[str]) -> None:  # fmt: skip
    """ "when", "how many" name the last hop when it ends on a year or a number, whatever the
    other words say ("fit into", "open its doors"): that hop is not left unexplained (which
    would halve the judge's reward)."""
    (tmp_path / "grounds.tsv").write_text(GROUNDS, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "grounds.tsv", name="grounds")
    kg = engine.kg("grounds")
    qa = analyse(question, kg)
    rel = next(r for r in semantics_for(kg).rel_ids if kg.label(r) == relation)
    fit = explain(qa, [(rel, "out")], (qa.entities[0],), anchor=qa.entities[0].ids[0])
    assert fit.unexplained == 0
    assert engine.ask(question, kb="grounds").answer_labels == expected


KIN = """\
Tom Reed\tparent\tAda Reed
Tom Reed\tparent\tBen Reed
Ada Reed\tspouse\tBen Reed
""" + "".join(f"{name}\tgender\t{gender}\n" for name, gender in [
    ("Ada Reed", "female"), ("Ben Reed", "male"), ("Tom Reed", "male"), ("Cy Hale", "male"),
    ("Di Hale", "female"), ("Ed Moss", "male"), ("Flo Moss", "female")])  # fmt: skip


@pytest.mark.parametrize(("question", "first"), [
    ("Tom Reed's ma, who is she?", "Ada Reed"),
    ("Tom Reed's pa, who is he?", "Ben Reed"),
])  # fmt: skip
def test_the_answers_own_pronoun_says_its_gender(tmp_path: Path, question: str,
                                                 first: str) -> None:  # fmt: skip
    """ "who is *she*" says the answer is a woman as "mother" would: of the two parents the
    one whose gender reads female ranks first ("ma" alone the static model barely knows)."""
    (tmp_path / "kin.tsv").write_text(KIN, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "kin.tsv", name="kin")
    assert engine.ask(question, kb="kin").answer_labels[0] == first


LEAGUES = TOWNS + """\
Rovers FC\tleague\tNorth League
Harriers FC\tleague\tNorth League
Estrela SC\tleague\tSouth League
Ann Kerr\tposition\tdefender
Ben Mills\tposition\tforward
Caio Lima\tposition\tdefender
"""


@pytest.mark.parametrize(("question", "parts"), [
    ("Who is in Rovers FC's league?", 2),
    ("who hails from Ann Kerr's birth city", 2),
    ("what is Rovers FC's league?", 1),
    ("which clubs in Ann Kerr's birth city are in the North League", 1),  # not at the end
])  # fmt: skip
def test_a_possessive_after_a_locative_asks_a_hop_beyond_it(tmp_path: Path, question: str,
                                                            parts: int) -> None:  # fmt: skip
    """ "who is *in* X's league" asks for what is in the league, not for the league: the
    locative before a possessive chain that ends the question is a hop of its own
    (`chain_length`)."""
    (tmp_path / "leagues.tsv").write_text(LEAGUES, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "leagues.tsv", name="leagues")
    qa = analyse(question, engine.kg("leagues"))
    assert chain_length(qa, qa.entities[0]) == parts
    if parts == 2 and "league" in question:
        labels = engine.ask(question, kb="leagues").answer_labels
        assert "Harriers FC" in labels and "North League" not in labels


COACHES = LEAGUES + """\
Ann Kerr\tnationalTeam\tEngland
Ben Mills\tnationalTeam\tPortugal
Caio Lima\tnationalTeam\tPortugal
England\theadCoach\tGus Ward
Portugal\theadCoach\tRui Alves
Gus Ward\tcoachNationality\tEngland
Rui Alves\tcoachNationality\tPortugal
Rovers FC\tmanager\tIvo Sousa
Ivo Sousa\tcoachNationality\tPortugal
"""


@pytest.mark.parametrize(("question", "word", "topical"), [
    ("Which clubs are based in the city of Leeds?", "city", True),
    ("who coaches the Portugal national team", "team", True),
    ("which clubs have their base in Leeds", "base", False),  # not one noun phrase
    ("who is the manager of Rovers FC's captain", "manager", False),  # the phrase is X's
])  # fmt: skip
def test_a_noun_in_one_phrase_with_the_name_says_what_it_is(
        tmp_path: Path, question: str, word: str, topical: bool) -> None:  # fmt: skip
    """ "the *city* of Leeds", "the Portugal *national team*": the noun names a relation the
    topic is an object of and never a subject of (Leeds is a birth city and has none), so it
    says what the topic is and needs no hop of its own (`anchor_kind`). Outside one noun
    phrase with the name, or where the phrase is "X's …", it says nothing of the kind."""
    (tmp_path / "coaches.tsv").write_text(COACHES, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "coaches.tsv", name="coaches")
    kg = engine.kg("coaches")
    qa = analyse(question, kg)
    topic = qa.entities[0]
    row = next(r for r, i in enumerate(qa.word_tokens) if qa.words[i] == word)
    kind = anchor_kind(qa, kg, topic.ids[0], topic)[row]
    assert (kind >= qa.best[row] - 1e-6) == topical


def test_a_compound_after_the_name_saying_what_it_is_needs_no_hop(tmp_path: Path) -> None:
    """ "the Italy *national team*", "Serbia's *national team* coach": the topic is a national
    team, so those words are explained by their forms without walking `national team`
    (`anchor_forms`, read by the planner's lexical coverage) — the answer is its head coach,
    not the coaches of its players' nationality. (On the football dev KB: a KB written here
    did not offer the planner those longer walks.)"""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    engine = engine_over(tmp_path, dev_kb, "football")
    for question in ("who coaches the Italy national team", "Who is Serbia's national team coach?"):
        assert evidence_path(engine.ask(question, kb="football")) == "head coach", question


def test_no_plan_walks_to_the_subjects_of_a_single_valued_relation_and_back(
        tmp_path: Path) -> None:  # fmt: skip
    """Each player has one birth city: from a city to its natives and out over `birth city`
    again returns the city itself — a no-op the planner does not enumerate. Out and back the
    other way (a player's club, then its players: teammates) is a real walk and stays."""
    (tmp_path / "coaches.tsv").write_text(COACHES, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "coaches.tsv", name="coaches")
    kg = engine.kg("coaches")
    planner = Planner(kg)
    sem = planner.sem
    for question in ("which city were the players of Leeds born in",
                     "who is the coach of the Portugal national team"):  # fmt: skip
        for plan in planner.plans(analyse(question, kg), limit=40):
            codes = [2 * sem.code[r] + (d == "in") for r, d in plan.hops]
            for a, b in zip(codes, codes[1:], strict=False):
                assert not (a % 2 == 1 and b == a ^ 1 and sem.single_valued[b >> 1]), plan
    plans = planner.plans(analyse("who are Ann Kerr's teammates", kg), limit=40)
    assert any([h[0] for h in p.hops[:2]] == [p.hops[0][0]] * 2 and p.hops[0][1] == "out"
               for p in plans)  # fmt: skip


def _deaths_kb() -> str:
    """36 people of three countries, two causes of death, three professions; a typing
    relation every subject has (`instanceOf`: human, country, disease, occupation)."""
    first = ["Ana", "Luis", "Eva", "Tom", "Sam", "Ivy", "Pia", "Max", "Zoe", "Ian", "Lea", "Noa"]
    countries = {"Ruiz": "Spain", "Hale": "England", "Berg": "Sweden"}
    rows = []
    for i, (f, last) in enumerate((f, last) for f in first for last in countries):
        name = f"{f} {last}"
        rows += [(name, "nationality", countries[last]),
                 (name, "causeOfDeath", ("pneumonia", "stroke")[i % 2]),
                 (name, "profession", ("teacher", "farmer", "writer")[i % 3]),
                 (name, "instanceOf", "human")]  # fmt: skip
    rows += [(c, "instanceOf", "country") for c in countries.values()]
    rows += [(v, "instanceOf", "disease") for v in ("pneumonia", "stroke")]
    rows += [(v, "instanceOf", "occupation") for v in ("teacher", "farmer", "writer")]
    return _tsv(rows)


@pytest.mark.parametrize(("question", "country", "cause"), [
    ("which nationals of Spain lost their lives to pneumonia", "Spain", "pneumonia"),
    ("name the nationals of England who were killed by stroke", "England", "stroke"),
])  # fmt: skip
def test_a_common_noun_that_is_a_shared_value_constrains_the_answers(
        tmp_path: Path, question: str, country: str, cause: str) -> None:  # fmt: skip
    """ "pneumonia" is a node only ever an object (but of its class), one of a few values
    many people share: it can only mean a value the answers have, wherever it stands in the
    question, so it constrains them. A class every kind of node has ("country", by
    `instanceOf`) is not."""
    (tmp_path / "deaths.tsv").write_text(_deaths_kb(), encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "deaths.tsv", name="deaths")
    kg = engine.kg("deaths")
    people = {r.split("\t")[0] for r in _deaths_kb().splitlines()
              if f"\tnationality\t{country}" in r} & {
        r.split("\t")[0] for r in _deaths_kb().splitlines() if r.endswith(f"\t{cause}")}
    assert sorted(engine.ask(question, kb="deaths").answer_labels) == sorted(people)
    planner = Planner(kg)
    qa = analyse("which country is Ana Ruiz from", kg)
    assert not any(planner._bare(qa, m) for m in qa.entities if not m.named)


def test_a_label_s_patient_noun_meets_its_verb_not_its_agent_noun(tmp_path: Path) -> None:
    """ "number of *employees*" is named by "how many people does X *employ*" (the label's
    patient noun meets the verb), while a question's "employee" still does not meet the
    label "employer" (only label words strip "-ee")."""
    from core.text import word_forms

    assert "employ" in word_forms("employees", patient=True)
    assert word_forms("employ") & word_forms("employees", patient=True)
    assert not word_forms("employee") & word_forms("employer", patient=True)
    kb = tmp_path / "staff.tsv"
    kb.write_text("Ann Lee\temployer\tAcme Corp\nBo Kim\temployer\tAcme Corp\n"
                  "Acme Corp\tnumber_of_employees\t1200\nBolt Inc\tnumber_of_employees\t80\n"
                  "Cy Fox\temployer\tBolt Inc\n", encoding="utf-8")  # fmt: skip
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(kb, name="staff")
    kg = engine.kg("staff")
    named = {kg.label(r) for r in lexicon_for(kg).match("employ")}
    assert named == {"employer", "number of employees"}
    assert {kg.label(r) for r in lexicon_for(kg).match("employee")} == {"number of employees"}
    assert engine.ask("Acme Corp employs how many people?", kb="staff").answer_labels == ["1200"]


def _moves_kb() -> str:
    """24 people at four firms, each with a former employer among the other three."""
    firms = ["Acme Corp", "Bolt Inc", "Cobalt Ltd", "Dune Works"]
    first = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
    rows = []
    for i, f in enumerate(first):
        for j, firm in enumerate(firms):
            rows += [(f"{f} {firm.split()[0]}son", "employer", firm),
                     (f"{f} {firm.split()[0]}son", "former employer", firms[(j + 1 + i % 3) % 4])]
    return _tsv(rows)


@pytest.mark.parametrize(("question", "now", "before", "asked"), [
    ("which ex-Acme Corp people are now at Bolt Inc", "Bolt Inc", "Acme Corp", True),
    ("who at Dune Works is a former Cobalt Ltd employee", "Dune Works", "Cobalt Ltd", False),
    ("which Cobalt Ltd people previously worked for Bolt Inc", "Cobalt Ltd", "Bolt Inc", True),
    ("name the people of Acme Corp who once worked at Dune Works", "Acme Corp", "Dune Works",
     True),
])  # fmt: skip
def test_a_marked_modifier_reads_the_name_it_stands_next_to(
        tmp_path: Path, question: str, now: str, before: str, asked: bool) -> None:  # fmt: skip
    """Two names reaching the answers over one relation and its marked twin ("employer",
    "former employer"): the name the marked word ("ex", "former", "once") stands next to is
    read by the marked relation, the other by the plain one — not both by the plain one, nor
    the other way round. (`asked`: the engine's answer is checked too; on this two-relation
    KB, "a former Cobalt Ltd *employee*" ranks the plan without the second name first.)"""
    (tmp_path / "moves.tsv").write_text(_moves_kb(), encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "moves.tsv", name="moves")
    kg = engine.kg("moves")
    both = [p for p in Planner(kg).plans(analyse(question, kg), limit=40) if p.constraints]
    reading = {kg.label(both[0].anchor): kg.label(both[0].hops[0][0]),
               **{kg.label(a): kg.label(r) for a, r, _ in both[0].constraints}}
    assert reading == {now: "employer", before: "former employer"}
    if asked:
        rows = [r.split("\t") for r in _moves_kb().splitlines()]
        gold = {s for s, r, o in rows if r == "employer" and o == now} & {
            s for s, r, o in rows if r == "former employer" and o == before}
        assert sorted(engine.ask(question, kb="moves").answer_labels) == sorted(gold)


def test_the_topic_is_an_answer_when_the_walk_back_has_a_word_of_its_own(tmp_path: Path) -> None:
    """ "the people born in the city where *Ann* was born" walks out (birth city) and back
    with a word per hop: Ann is one of the answers. Asked for others ("who *else* …"), Ann is
    not."""
    cities = ("Leeds", "York", "Hull")
    names = [f"{first} {last}" for first in ("Ann", "Cy", "Di")
             for last in ("Lee", "Fox", "Kim", "Orr")]  # fmt: skip
    rows = [(name, "birth city", cities[i % 3]) for i, name in enumerate(names)]
    (tmp_path / "mix.tsv").write_text(_tsv(rows), encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "mix.tsv", name="mix")
    leeds = sorted(s for s, r, o in rows if r == "birth city" and o == "Leeds")
    assert "Ann Lee" in leeds
    for question in ("which people were born in the city where Ann Lee was born",
                     "list the people born in Ann Lee's birth city"):  # fmt: skip
        assert sorted(engine.ask(question, kb="mix").answer_labels) == leeds, question
    others = engine.ask("who else was born in Ann Lee's birth city", kb="mix").answer_labels
    assert sorted(others) == [p for p in leeds if p != "Ann Lee"]


def _books_kb() -> list[tuple[str, str, str]]:
    """Four writers with three novels each (`author`: one per novel), two chapters per novel
    (`part of`), two publishers; writers, novels and chapters have a class."""
    rows = []
    for i, writer in enumerate(("Ann Vale", "Bo Strand", "Cy Moor", "Di Holt")):
        rows += [(writer, "instance of", "writer"), (writer, "born in", ("Leeds", "York")[i % 2])]
        for b, title in enumerate(("Harbour", "Orchard", "Lantern")):
            book = f"{('Salt', 'Iron', 'Glass', 'Stone')[i]} {title}"
            rows += [(book, "instance of", "novel"), (book, "author", writer),
                     (book, "publisher", ("Kite Press", "Fern House")[(i + b) % 2])]
            for c in (1, 2):
                rows += [(f"{book} chapter {c}", "part of", book),
                         (f"{book} chapter {c}", "instance of", "chapter")]
    return rows


def test_a_walk_to_the_topic_and_back_answers_when_both_hops_are_said(tmp_path: Path) -> None:
    """ "Who is the *author* of Ann Vale's *novels*": the question names the relation
    (`author`, one per novel) and, by another word, what the walk from Ann passes (her
    novels) — the walk out and straight back, never enumerated for a single-valued relation
    (it gives the topic again), is the reading, and Ann the answer. Asked for the novels, or
    for others, it is not."""
    engine = _imported(tmp_path, "books", _books_kb())
    for question in ("Who is the author of Ann Vale's novels?",
                     "who wrote the novels by Ann Vale"):  # fmt: skip
        trace = engine.ask(question, kb="books")
        assert trace.answer_labels == ["Ann Vale"], question
        assert trace.support.status == "verified", question
    novels = engine.ask("which novels did Ann Vale write", kb="books").answer_labels
    assert sorted(novels) == ["Salt Harbour", "Salt Lantern", "Salt Orchard"]


def test_a_last_unnamed_hop_reaches_the_kind_asked_for_from_where_the_walk_is(
        tmp_path: Path) -> None:  # fmt: skip
    """The science dev KB's tuning question: "which *city* is X's *institution* in" names
    neither hop well (X's employer, 0.40; `located in`, which over all its subjects reaches
    countries as often as cities, 0.33 to the 0.45 of `born in`). A last hop no word names is
    tried where it arrives at what the noun asked about reads like — from where the walk is:
    from institutions, `located in` reaches cities (before: X's university, a type misfit)."""
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "science", "Which city is Niels Friis' institution in?")
    assert evidence_path(trace).endswith("→ located in")
    assert trace.support.status == "verified"


def test_answers_of_the_kind_the_noun_is_the_genus_of_fit_it(tmp_path: Path) -> None:
    """The football dev KB's tuning question: "what *teams* make up the league X is in" —
    "teams" reads more like leagues than like clubs to the word vectors, but a club is "a
    *team* of …" (WordNet's genus): the walk back to the league's clubs is what the noun asks
    for (the echo rule spares it, and its answers fit the noun), not X's league."""
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "football",
                       "what teams make up the league Real Cantabrico is in")  # fmt: skip
    kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    rows = [line.split("\t") for line in kb.read_text(encoding="utf-8").splitlines()]
    league = next(o for s, r, o in rows if s == "Real Cantabrico" and r == "league")
    clubs = {s for s, r, o in rows if r == "league" and o == league}
    assert set(trace.answer_labels) | {"Real Cantabrico"} == clubs  # (X may be left out)


def test_a_compound_noun_is_read_as_a_whole(tmp_path: Path) -> None:
    """The football dev KB's tuning question: "X's team's *home ground*" — "ground" alone
    reads the KB's relations worse than the compound WordNet lists, so the head word reads as
    the whole compound: the club's home stadium, then its city (before: X's birth city)."""
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "football", "where is Bruno Marques' team's home ground located")
    assert evidence_path(trace) == "plays for club → home stadium → stadium city"


def test_a_noun_asked_about_that_reads_like_nothing_is_read_by_its_genus(tmp_path: Path) -> None:
    """The family dev KB's tuning question: "X's children's *alma maters*" — "maters" reads
    like nothing the KB's roles reach, so the answers are typed by what the dictionary says
    an alma mater is (a *school*: universities), not by the word (before: the children's
    children)."""
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "family", "Bruno Lima's children's alma maters")
    assert evidence_path(trace) == "child → education"


def test_a_walk_back_is_read_where_another_word_names_what_it_passes(tmp_path: Path) -> None:
    """ "list the chapters of the *book* Glass Lantern chapter 2 is *part of*": one word names
    the relation walked both ways, but "book" names what the walk passes — the walk back is
    what the question says (no echo of one word), and the chapters of that book answer."""
    engine = _imported(tmp_path, "books", _books_kb())
    trace = engine.ask("list the chapters of the book Glass Lantern chapter 2 is part of",
                       kb="books")  # fmt: skip
    assert sorted(trace.answer_labels) == ["Glass Lantern chapter 1"]


def test_plural_nouns() -> None:
    from core.text import is_plural

    assert all(is_plural(w) for w in ("defenders", "cities", "children", "people", "clubs"))
    assert not any(is_plural(w) for w in ("boss", "status", "analysis", "politics", "news",
                                          "series", "club", "is"))  # fmt: skip


def test_singular_nouns() -> None:
    from core.text import singular

    pairs = {"teams": "team", "cities": "city", "wives": "wife", "people": "person",
             "matches": "match", "boxes": "box", "players": "player", "status": "status",
             "series": "series", "club": "club"}  # fmt: skip
    assert {w: singular(w) for w in pairs} == pairs


def _lives_kb() -> list[tuple[str, str, str]]:
    """Six people, each born in a city of one country, dead in a city of another, with a
    nationality of a third, and a college; the countries' languages."""
    cities = {"Leeds": "England", "Lyon": "France", "Porto": "Portugal"}
    names = list(cities)
    rows = [(city, "located in", country) for city, country in cities.items()]
    rows += [(country, "official language", language) for country, language in (
        ("England", "English"), ("France", "French"), ("Portugal", "Portuguese"),
        ("Spain", "Spanish"), ("Italy", "Italian"))]  # fmt: skip
    for i, person in enumerate(("Ann Lee", "Bo Kim", "Cy Orr", "Di Fox", "Ed Roy", "Flo Day")):
        rows += [(person, "place of birth", names[i % 3]),
                 (person, "place of death", names[(i + 1) % 3]),
                 (person, "nationality", ("Spain", "Italy")[i % 2]),
                 (person, "education", ("Hill College", "Lake College")[i % 2])]
    return rows


def test_a_verb_names_its_event_noun(tmp_path: Path) -> None:
    """ "born" names `place of birth` and "died" `place of death`, as "educated" names
    `education` (English event nouns not of the verb's stem): "in which country was X born"
    is the country of X's birthplace, not X's nationality. And "studied" is no compound of
    "died"."""
    from core.text import word_forms

    assert word_forms("birth") <= word_forms("born")
    assert word_forms("death") <= word_forms("died")
    engine = _imported(tmp_path, "lives", _lives_kb())
    kg = engine.kg("lives")
    assert lexicon_for(kg).match("studied") == {}
    for question, expected in (("in which country was Ann Lee born", ["England"]),
                               ("what country did Bo Kim die in", ["Portugal"]),
                               ("who studied at Lake College", ["Bo Kim", "Di Fox", "Flo Day"])):
        assert sorted(engine.ask(question, kb="lives").answer_labels) == expected, question


@pytest.mark.slow  # imports a dev KB of 6k triples
def test_a_type_noun_is_typed_by_its_singular(tmp_path: Path) -> None:
    """Static word vectors place some plurals oddly: on the football dev KB "teams" lies
    far from what `league` reaches backwards (clubs: an answer fit of 0.04), "team" near it.
    A plural type noun is read with its singular, which names the kind."""
    kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name="football")
    kg = Engine(workspace).kg("football")
    rel = {kg.label(r): r for r in semantics_for(kg).rel_ids}
    qa = analyse("Which teams play in Serie A?", kg)
    assert answer_fit(qa, kg, rel["league"], "in") > 0.3


@pytest.fixture(scope="module")
def football_dev(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, list[list[str]]]:
    return _dev_kb_and_rows(tmp_path_factory, "football")


def _dev_kb_and_rows(factory: pytest.TempPathFactory, name: str
                     ) -> tuple[Engine, list[list[str]]]:  # fmt: skip
    """An engine over a dev KB given as TSV, and its triples (to read gold answers off)."""
    kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / name / "kb.tsv"
    workspace = Workspace(factory.mktemp(f"{name}-dev") / "home")
    workspace.import_file(kb, name=name)
    return Engine(workspace), [r.split("\t") for r in kb.read_text(encoding="utf-8").splitlines()]


def _having(rows: list[list[str]], relation: str, obj: str) -> set[str]:
    return {s for s, r, o in rows if r == relation and o == obj}


@pytest.mark.slow  # imports a dev KB of 6k triples
@pytest.mark.parametrize(
    ("question", "side", "position"),
    [
        # "play *defender*": a direct object `plays for club` never has ("play" is `position`)
        ("List the Colombia national team players who play defender", "Colombia", "defender"),
        ("List the Spain national team players who play forward", "Spain", "forward"),
        # "plays … *for Sweden*": a national side, never what `plays for club` reaches — the
        # verb names the relation of the same players that does (`national team`)
        ("Who plays as defender for Sweden?", "Sweden", "defender"),
        ("Who plays as goalkeeper for Japan?", "Japan", "goalkeeper"),
        # ... and a verb said "as M" of a constraint and "for" the topic reads the first hop
        # from the topic as well (the national side's captain, a defender, before)
        ("who plays as a defender for Nigeria", "Nigeria", "defender"),
    ],
)
def test_a_verb_taking_what_its_relation_never_has_names_the_one_that_does(
        football_dev: tuple[Engine, list[list[str]]], question: str, side: str,
        position: str) -> None:  # fmt: skip
    """A verb whose label takes a preposition ("*plays for* club") said with a direct object
    or with a name after that preposition that its relation never reaches says another
    thing: each walked over clubs and their squads (or a national side's captain) before."""
    engine, rows = football_dev
    gold = _having(rows, "nationalTeam", side) & _having(rows, "position", position)
    assert len(gold) > 1
    assert set(engine.ask(question, kb="football").answer_labels) == gold, question


@pytest.mark.slow  # imports a dev KB of 6k triples
@pytest.mark.parametrize(
    ("question", "relation", "topic"),
    [
        ("which teams have a manager from Japan", "manager", "Japan"),
        ("list the teams managed by someone from Scotland", "manager", "Scotland"),
        ("what teams has Gustav Olsson played for before", "formerClub", "Gustav Olsson"),
    ],
)
def test_a_noun_asked_about_is_read_by_a_dictionarys_genus_of_the_kbs_kinds(
        football_dev: tuple[Engine, list[list[str]]], question: str, relation: str,
        topic: str) -> None:  # fmt: skip
    """The football KB calls them clubs ("plays for *club*"); "teams" lies nearer leagues to
    the word vectors, so the walk went on from the clubs to their leagues. WordNet defines a
    club as "a *team* of professional … players": the clubs are what was asked for."""
    engine, rows = football_dev
    if relation == "manager":
        coaches = _having(rows, "coachNationality", topic)
        gold = {s for s, r, o in rows if r == "manager" and o in coaches}
    else:
        gold = {o for s, r, o in rows if r == relation and s == topic}
    assert set(engine.ask(question, kb="football").answer_labels) == gold, question


@pytest.mark.slow  # imports a dev KB of 6k triples
@pytest.mark.parametrize("club", ["Bristol Town", "Deportivo Ebro"])
def test_a_last_hop_onto_the_kind_asked_is_tried_whatever_its_words(
        football_dev: tuple[Engine, list[list[str]]], club: str) -> None:  # fmt: skip
    """ "X's ground holds *how many*?": "ground" names `home stadium` weakly and "holds"
    names `capacity` not at all — two hops no word names, more than the planner walks; a
    last one that arrives at the kind of answer asked for (a number) is tried all the same
    (the club's founding year before)."""
    engine, rows = football_dev
    stadium = next(o for s, r, o in rows if r == "homeStadium" and s == club)
    gold = [o for s, r, o in rows if r == "capacity" and s == stadium]
    assert engine.ask(f"{club}'s ground holds how many?", kb="football").answer_labels == gold


@pytest.mark.parametrize("country", ["Germany", "Norway"])
def test_a_last_hop_onto_the_kind_the_noun_asked_about_reads_like_is_tried(
        tmp_path: Path, country: str) -> None:  # fmt: skip
    """ "which *groups* have someone born in X": "born" names `born in`, but neither the walk
    from the country to its cities nor the one from the people to their bands has a word —
    two hops no word names, more than the planner walks; a last one arriving at what the
    noun asked about reads like (bands, for "groups") is tried all the same (the cities of
    the country, or the people's cities of birth, before)."""
    rows = [(city, "located in", c) for c, cities in
            {"Germany": ["Berlin", "Hamburg"], "Norway": ["Oslo", "Bergen"]}.items()
            for city in cities]  # fmt: skip
    people = [("Anna Berg", "Berlin", "The Static Anchors", "Germany"),
              ("Jonas Wolf", "Hamburg", "Velvet Engine", "Norway"),
              ("Liv Dahl", "Oslo", "Northern Drift", "Norway"),
              ("Erik Sand", "Bergen", "Velvet Engine", "Germany"),
              ("Mia Holt", "Oslo", "Glass Harbour", "Germany")]  # fmt: skip
    for person, city, band, citizen in people:
        rows += [(person, "born in", city), (person, "member of", band),
                 (person, "citizen of", citizen), (person, "plays instrument", "bass")]
    rows += [("The Static Anchors", "formed in", "Berlin"), ("Velvet Engine", "formed in", "Oslo"),
             ("Northern Drift", "formed in", "Bergen"), ("Glass Harbour", "formed in", "Hamburg")]
    engine = _imported(tmp_path, "bands", rows)
    cities = {s for s, r, o in rows if r == "located in" and o == country}
    gold = {band for _, city, band, _ in people if city in cities}
    answer = engine.ask(f"which groups have someone born in {country}", kb="bands")
    assert set(answer.answer_labels) == gold


@pytest.mark.slow  # imports a dev KB of 6k triples
@pytest.mark.parametrize("city", ["Barcelona", "Braga"])
def test_the_encoder_does_not_walk_on_from_answers_of_the_kind_asked_for(
        football_dev: tuple[Engine, list[list[str]]], city: str) -> None:  # fmt: skip
    """ "Which *teams* come from X": the clubs based in X are teams by the dictionary's genus
    of "club"; the contextual encoder read the walk on to their leagues closer to the
    question, and went there from a leader whose answers were of the kind asked for."""
    engine, rows = football_dev
    gold = _having(rows, "basedIn", city)
    assert set(engine.ask(f"Which teams come from {city}?", kb="football").answer_labels) == gold


@pytest.mark.parametrize(("album", "label"), [("Endless Weather", "Blackbird Recordings"),
                                             ("Cold Rivers", "Skylark Records")])
def test_a_compound_noun_is_one_noun_whose_head_is_asked_about(
        tmp_path: Path, album: str, label: str) -> None:  # fmt: skip
    """ "Which *record company* issued X": WordNet lists "record company" as a noun, so
    "record" is no verb naming `recorded at` by its form, and the noun asked about is the
    company (the studio was the answer: "record" as the noun asked about read like studios)."""
    rows = []
    for name, company, studio, band in [
            ("Endless Weather", "Blackbird Recordings", "Studio Nine", "The Pale Orbits"),
            ("Transit and Memory", "Skylark Records", "Harbour Room", "Glass Harbour"),
            ("Paper Lanterns", "Blackbird Recordings", "Harbour Room", "The Pale Orbits"),
            ("Cold Rivers", "Skylark Records", "Studio Nine", "Velvet Engine")]:  # fmt: skip
        rows += [(name, "released on label", company), (name, "recorded at", studio),
                 (name, "performer", band), (name, "release year", "2001")]  # fmt: skip
    rows += [("Blackbird Recordings", "label headquarters", "Leeds"),
             ("Skylark Records", "label headquarters", "Bristol")]  # fmt: skip
    engine = _imported(tmp_path, "records", rows)
    answer = engine.ask(f"Which record company issued {album}?", kb="records")
    assert answer.answer_labels == [label]
    # ... in any number: "which record *companies*" asks about companies, not records
    qa = analyse(f"Which record companies issued {album}?", engine.kg("records"))
    assert qa.words[qa.answer.focus] == "companies"
    assert engine.ask(f"Which record companies issued {album}?",
                      kb="records").answer_labels == [label]  # fmt: skip


@pytest.mark.parametrize(("question", "school"), [
    ("Which companies are run by graduates of {}?", "Kilbride University"),
    ("Which companies are run by graduates of {}?", "Oslo Business School"),
    ("Which firms are headed by graduates of {}?", "Kilbride University")])
def test_things_done_by_someone_are_not_reached_over_a_relation_they_do(
        tmp_path: Path, question: str, school: str) -> None:  # fmt: skip
    """ "companies *run by* graduates of U": the graduates run them, so the hop from the
    graduates to the companies is one the graduates do (they are the firms' chief executive
    officers), not one the companies do (`employer`: the firm employs) — the graduates'
    employers were answered, staff and all."""
    firms = [("Harbor Freight Co", "Ana Ruiz", "Kilbride University"),
             ("Northvale Games", "Ben Cole", "Oslo Business School"),
             ("Windline Retail", "Chen Wei", "Kilbride University"),
             ("Obsidia Studios", "Dara Okoro", "Oslo Business School")]  # fmt: skip
    rows = []
    for firm, ceo, alma_mater in firms:
        rows += [(firm, "chief executive officer", ceo), (ceo, "employer", firm),
                 (ceo, "educated at", alma_mater)]  # fmt: skip
    for person, firm, alma_mater in [("Eli Park", "Northvale Games", "Kilbride University"),
                                     ("Fay Lund", "Obsidia Studios", "Kilbride University"),
                                     ("Gus Hale", "Harbor Freight Co", "Oslo Business School")]:
        rows += [(person, "employer", firm), (person, "educated at", alma_mater)]
    engine = _imported(tmp_path, "firms", rows)
    gold = {firm for firm, _, alma_mater in firms if alma_mater == school}
    assert set(engine.ask(question.format(school), kb="firms").answer_labels) == gold


def test_a_genus_counts_where_it_is_a_kind_the_kb_names_and_tells_apart(tmp_path: Path) -> None:
    """ "club" is "a *team* of …" and the KB says "team" (`national team`): clubs are teams;
    "manager" is "*someone* who …", a word the KB's labels do not use."""
    rows = [(f"Player {i}", "plays for club", f"Club {i % 2}") for i in range(4)]
    rows += [(f"Player {i}", "national team", f"Nation {i % 2}") for i in range(4)]
    rows += [(f"Club {i}", "manager", f"Coach {i}") for i in range(2)]
    # a *place* is "a point *located* …": a participle, no kind, though the KB says "location"
    rows += [(f"Player {i}", "place of birth", "Leeds") for i in range(2)]
    rows += [("Club 0", "headquarters location", "Leeds")]
    kg = _imported(tmp_path, "squads", rows).kg("squads")
    sem = semantics_for(kg)
    genus = {kg.label(r): forms for r, forms in zip(sem.rel_ids, sem.genus_forms, strict=True)}
    assert "team" in genus["plays for club"]
    assert not genus["manager"] and not genus["national team"] and not genus["place of birth"]
    assert "team" in sem.kind_heads[2 * sem.code[next(r for r in sem.rel_ids
                                                      if kg.label(r) == "manager")] + 1]


@pytest.fixture(scope="module")
def science_dev(tmp_path_factory: pytest.TempPathFactory) -> tuple[Engine, list[list[str]]]:
    return _dev_kb_and_rows(tmp_path_factory, "science")


def _awarders(rows: list[list[str]], person: str) -> set[str]:
    prizes = {o for s, r, o in rows if r == "award_received" and s == person}
    return {o for s, r, o in rows if r == "awarded_by" and s in prizes}


@pytest.mark.parametrize(
    ("question", "person"),
    [
        # "award" right after the noun asked about, an object after it, is its verb: no class
        # of the answers (it links the class node "award": X's prizes that are awards)
        ("Which organisations award the prizes Thiago Barbosa has received?", "Thiago Barbosa"),
        # ... and as a verb it is `awarded by`'s, not `award received`'s noun (the prize is
        # what is received): the co-recipients before
        ("Who awarded the prizes that Gerrit Brouwer has won?", "Gerrit Brouwer"),
    ],
)
def test_a_verb_taking_an_object_names_the_label_it_is_the_verb_of(
        science_dev: tuple[Engine, list[list[str]]], question: str,
        person: str) -> None:  # fmt: skip
    engine, rows = science_dev
    trace = engine.ask(question, kb="science")
    assert set(trace.answer_labels) == _awarders(rows, person) != set()
    assert evidence_path(trace) == "award received → awarded by"


def test_a_class_noun_right_before_the_noun_asked_about_is_its_own(
        science_dev: tuple[Engine, list[list[str]]]) -> None:  # fmt: skip
    """ "Which *learned society* counts X as a member": the noun asked about was read past
    the class's two words into the verb ("counts"); the society X is a member of is of the
    class those words name, and is the answer — no other noun's things to walk on from."""
    engine, rows = science_dev
    trace = engine.ask("Which learned society counts Arjun Kulkarni as a member?", kb="science")
    expected = {o for s, r, o in rows if s == "Arjun Kulkarni" and r == "member_of"}
    assert set(trace.answer_labels) == expected != set()


def test_a_verb_inflected_otherwise_than_the_label_still_is_its_verb(tmp_path: Path) -> None:
    """ "Which body *awards* the Gold Medal": "awards" and the label's "awarded" are two
    inflections of one verb (neither of the other), so the verb names `awarded by`, not the
    noun of `award received` — the awarding body, not the medal's recipients."""
    rows = [("Gold Medal", "awarded by", "Royal Academy"),
            ("Blue Prize", "awarded by", "Nova Trust")]
    for i, person in enumerate(("Ada Moss", "Bo Lind", "Cy Ray", "Di Park")):
        rows += [(person, "award received", ("Gold Medal", "Blue Prize")[i % 2]),
                 (person, "born in", "Leeds")]
    engine = _imported(tmp_path, "awards", rows)
    # ... with its object a bare name as well ("awards Gold Medal": a verb and its object,
    # not the plural noun asked about — `object_follows`)
    for question in ("Which body awards the Gold Medal?", "Who awards the Gold Medal?",
                     "who awards Gold Medal"):
        assert engine.ask(question, kb="awards").answer_labels == ["Royal Academy"], question


def test_a_passive_verb_with_an_object_keeps_the_noun_label(
        science_dev: tuple[Engine, list[list[str]]]) -> None:  # fmt: skip
    # "have been *awarded* the prize" is receiving it: `award received`, backwards
    engine, rows = science_dev
    trace = engine.ask("which scientists have been awarded the Halvorsen Prize?", kb="science")
    assert set(trace.answer_labels) == {s for s, r, o in rows
                                        if r == "award_received" and o == "Halvorsen Prize"}


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        # the projects N funds, then who leads them: a project does nothing, "who" asks for
        # one who does (the first hop's projects were the answer)
        ("Who leads the projects that the Norrington Foundation funds?",
         lambda rows: {o for s, r, o in rows if r == "principal_investigator" and s in {
             s2 for s2, r2, o2 in rows if r2 == "funded_by" and o2 == "Norrington Foundation"}}),
        ("Who has published in Acta Mathematica Wexcombe?",
         lambda rows: {s for s, r, o in rows if r == "author_of" and o in {
             s2 for s2, r2, o2 in rows if r2 == "published_in"
             and o2 == "Acta Mathematica Wexcombe"}}),
    ],
)
def test_who_walks_on_from_things_that_do_nothing_to_those_that_do(
        science_dev: tuple[Engine, list[list[str]]], question: str, gold) -> None:  # fmt: skip
    engine, rows = science_dev
    assert set(engine.ask(question, kb="science").answer_labels) == gold(rows) != set()


def test_a_doer_is_a_node_on_the_doing_side_of_an_agentive_label(tmp_path: Path) -> None:
    """`funded by`'s object funds, `author of`'s subject writes, `principal investigator`'s
    object investigates; projects and papers are on the other side of each."""
    rows = [("Project A", "funded by", "Trust T"), ("Project A", "principal investigator", "Ann"),
            ("Ann", "author of", "Paper P"), ("Paper P", "published in", "Journal J")]
    kg = _imported(tmp_path, "doers", rows).kg("doers")
    sem = semantics_for(kg)
    rel = {kg.label(r): sem.code[r] for r in sem.rel_ids}
    assert doer_share(sem, 2 * rel["funded by"]) == 1.0  # trusts
    assert doer_share(sem, 2 * rel["funded by"] + 1) == 0.0  # projects
    assert doer_share(sem, 2 * rel["author of"] + 1) == 1.0  # authors
    assert doer_share(sem, 2 * rel["published in"] + 1) == 0.0  # papers


def _dev_kb(tmp_path: Path, name: str, file: str) -> Engine:
    """An engine over one of the dev KBs in benchmarks/data."""
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(Path(__file__).resolve().parents[1] / "benchmarks" / "data" / name
                          / file, name=name)  # fmt: skip
    return Engine(workspace)


def test_a_time_question_s_verb_is_the_event_a_last_hop_on_a_year_dates(tmp_path: Path) -> None:
    """ "*When* was X *founded*?": "founded" names `founded by` by its form, so the walk over
    `inception` (a year) explained nothing and the judge gave no answer; the time asked for
    is the time of the predicate's verb, which a last hop ending on a year explains."""
    rows = []
    for firm, founder, year in (("Acme Works", "Ada Lind", "1901"), ("Bolt Forge", "Ben Ray",
                                "1950"), ("Crest Mills", "Cy Moss", "1977")):  # fmt: skip
        rows += [(firm, "founded by", founder), (firm, "inception", year),
                 (firm, "industry", "tools"), (founder, "employer", firm),
                 (firm, "listed on", "Nasdaq")]
    engine = _imported(tmp_path, "firms", rows)
    assert engine.ask("When was Bolt Forge founded?", kb="firms").answer_labels == ["1950"]
    # the verb after the subject of a do-question ("*open*" is nearest `listed on`)
    assert engine.ask("When did Acme Works open?", kb="firms").answer_labels == ["1901"]
    assert engine.ask("Who founded Crest Mills?", kb="firms").answer_labels == ["Cy Moss"]

def test_a_word_that_clearly_prefers_a_relation_explains_its_hop(tmp_path: Path) -> None:
    """ "who *studied* in Oslo": "studied" names `education` weakly (0.33) but clearly (0.15
    above the next); it explains the hop as well as builds the path, so the walk through the
    universities in Oslo is not held to have two unexplained hops against one over `place of
    residence` (Oslo's residents)."""
    rows = [("Oslo University", "located in", "Oslo"), ("Bergen College", "located in", "Bergen"),
            ("Oslo", "located in", "Norway"), ("Bergen", "located in", "Norway")]
    for person, school, city in (
            ("Ann Berg", "Oslo University", "Bergen"), ("Bo Dahl", "Oslo University", "Oslo"),
            ("Cy Holm", "Bergen College", "Oslo"), ("Di Lund", "Bergen College", "Bergen"),
            ("Eli Moe", "Oslo University", "Bergen"), ("Fay Aas", "Bergen College", "Oslo")):
        rows += [(person, "education", school), (person, "place of residence", city),
                 (person, "place of birth", city), (person, "profession", "teacher")]
    engine = _imported(tmp_path, "studies", rows)
    trace = engine.ask("who studied in Oslo", kb="studies")
    assert sorted(trace.answer_labels) == ["Ann Berg", "Bo Dahl", "Eli Moe"]

def test_the_number_of_n_asks_for_a_number_not_a_relation_named_number(tmp_path: Path) -> None:
    """ "Give the *number of* seats in the stadium of the club X plays for": a quantity, as
    "how many seats" is; "number" there names no relation (it named `shirt number`, and the
    walk went back to X's teammates' shirts). "X's shirt number" still names it."""
    rows = []
    for c, (club, ground, seats) in enumerate((("Acme FC", "Acme Park", "19126"),
                                               ("Bolt United", "Bolt Road", "41532"))):
        rows += [(club, "home stadium", ground), (ground, "capacity", seats)]
        for p in range(3):
            player = f"{('Ann', 'Bea', 'Cy')[p]} {club.split()[0]}"
            rows += [(player, "plays for club", club), (player, "shirt number", str(p + 7 * c))]
    engine = _imported(tmp_path, "grounds", rows)
    kg = engine.kg("grounds")
    question = "Give the number of seats in the stadium used by the club Bea Bolt plays for"
    qa = analyse(question, kg)
    assert qa.answer.wh == "number" and qa.words[qa.answer.focus] == "number"
    assert "number" not in [qa.words[t] for t in qa.word_tokens]
    assert engine.ask(question, kb="grounds").answer_labels == ["41532"]
    assert engine.ask("What is Cy Acme's shirt number?", kb="grounds").answer_labels == ["2"]

@pytest.mark.slow  # imports a dev KB of 8k triples
def test_a_relative_clauses_head_that_prefers_no_relation_says_what_the_node_is(tmp_path) -> None:
    """On the business dev KB "the *person* who runs X" read "person" as a relation word
    (nearest `employer`, then `founded by`, 0.03 apart) and walked to X's founder; the head
    of a relative clause that prefers no relation clearly says what the node is, and the
    clause's verb names the relation (the CEO)."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    kg = engine.kg("business")
    qa = analyse("Which university did the person who runs Aurelis Markets AG attend?", kg)
    person = qa.word_tokens.index(qa.words.index("person"))
    assert qa.need[person] < 0.5
    trace = engine.ask("Which university did the person who runs Aurelis Markets AG attend?",
                       kb="business")  # fmt: skip
    assert trace.answer_labels == ["Royal Harcourt Institute"]
    # a head that clearly prefers one relation keeps naming it: "the *university* that
    # educated X's CEO" is still where the walk goes on from (`located in`)
    qa = analyse("What town hosts the university that educated Amberpath Beverages' CEO?", kg)
    university = qa.word_tokens.index(qa.words.index("university"))
    assert qa.need[university] > 0.5


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_each_part_of_a_possessive_chain_keeps_its_own_word(tmp_path: Path) -> None:
    """ "Rajesh Joshi's *son*'s *spouse*, what *nationality*?": three hops. The noun asked
    about names a relation no part of the chain names, so it is a hop of its own
    (`chain_length`), and "spouse" — which reaches X's children a little better than "son"
    names `child` — does not take the first hop's word as well as its own, so the son is
    read as a *male* child (core.answer_types.hop_kind)."""
    engine = _dev_kb(tmp_path, "family", "kb.tsv")
    kg = engine.kg("family")
    rel = {kg.label(r): r for r in semantics_for(kg).rel_ids}
    question = "Rajesh Joshi's son's spouse, what nationality?"
    qa = analyse(question, kg)
    topic = next(m for m in qa.entities if m.text == "Rajesh Joshi")
    assert chain_length(qa, topic) == 3
    hops = [(rel["child"], "out"), (rel["spouse"], "out"), (rel["nationality"], "out")]
    words = explain(qa, hops, [topic], [], topic.ids[0]).hop_words
    assert [qa.words[t] for t in words] == ["son", "spouse", "nationality"]
    assert engine.ask(question, kb="family").answer_labels == ["China"]

def _hospitals_kb() -> str:
    """Three hospitals, each with one director, one chief surgeon and eight doctors of three
    specialties."""
    rows = []
    for h, hospital in enumerate(("St Mary Hospital", "Northgate Clinic", "Riverside Infirmary")):
        rows.append((hospital, "director", f"Dr {('Ames', 'Birch', 'Cole')[h]}"))
        rows.append((hospital, "chief surgeon", f"Dr {('Ames', 'Birch', 'Cole')[h]} 0"))
        for d in range(8):
            doctor = f"Dr {('Ames', 'Birch', 'Cole')[h]} {d}"
            rows += [(doctor, "works at", hospital),
                     (doctor, "specialty", ("surgeon", "radiologist", "pediatrician")[d % 3])]
    return _tsv(rows)


def test_a_plural_asks_for_several_answers(tmp_path: Path) -> None:
    """ "who are the *surgeons* at H", "H's *surgeons*": a plural asks for several things, so
    a path giving one node for each it starts from (a hospital's `chief surgeon`, its
    `director`) is held against (`one_for_many`); its staff who are surgeons are not. A
    singular ("who *is* the director of H") asks for one."""
    (tmp_path / "care.tsv").write_text(_hospitals_kb(), encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / "care.tsv", name="care")
    kg = engine.kg("care")
    planner = Planner(kg)
    for question in ("who are the surgeons at St Mary Hospital",
                     "List St Mary Hospital's surgeons"):  # fmt: skip
        qa = analyse(question, kg)
        assert qa.asks_for_many(), question
        flagged = {tuple(kg.label(r) for r, _ in p.hops): p.features["one_for_many"]
                   for p in planner.plans(qa, limit=40)}  # fmt: skip
        assert flagged[("chief surgeon",)] == flagged[("director",)] == 1.0, question
        assert flagged[("works at",)] == 0.0, question
    single = "who is the director of St Mary Hospital"
    assert not analyse(single, kg).asks_for_many()
    assert engine.ask(single, kb="care").answer_labels == ["Dr Ames"]


@pytest.mark.slow  # imports a dev KB of 6k triples
def test_a_plural_is_not_answered_by_a_one_valued_relation_on_the_football_kb(tmp_path) -> None:
    """On the football dev KB "who are the goalkeepers at X" was answered by X's manager
    (a person, one per club) and "List X's defenders" by its captain: the plural asks for
    X's players who are goalkeepers / defenders."""
    kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    rows = [r.split("\t") for r in kb.read_text(encoding="utf-8").splitlines()]
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name="football")
    engine = Engine(workspace)
    for question, club, position in (
            ("Who are the goalkeepers at Hallam Rovers?", "Hallam Rovers", "goalkeeper"),
            ("List CD Montjuic's defenders", "CD Montjuic", "defender")):  # fmt: skip
        gold = {s for s, r, o in rows if r == "playsForClub" and o == club} & {
            s for s, r, o in rows if r == "position" and o == position}
        assert len(gold) > 1
        assert set(engine.ask(question, kb="football").answer_labels) == gold, question


def _imported(tmp_path: Path, name: str, rows: str | list[tuple[str, str, str]]) -> Engine:
    """An engine over a small KB written in the test (TSV text or triples), imported as
    `name`."""
    text = rows if isinstance(rows, str) else _tsv(rows)
    (tmp_path / f"{name}.tsv").write_text(text, encoding="utf-8")
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(tmp_path / f"{name}.tsv", name=name)
    return engine


def _makers_kb() -> str:
    """Four firms, each with two products stored both ways (`product` / `manufacturer`), a
    CEO stored both ways (`chief executive officer` / `employer`), the CEOs' universities."""
    rows = []
    for f, (firm, ceo, school) in enumerate((
            ("Acme Works", "Ada Lind", "Hill College"), ("Bolt Forge", "Ben Ray", "Lake College"),
            ("Crest Mills", "Cy Moss", "Hill College"), ("Dune Labs", "Di Park", "Lake College"),
    )):  # fmt: skip
        for p in range(2):
            item = f"{('Anvil', 'Bolt', 'Crank', 'Drill')[f]} {p + 1}"
            rows += [(firm, "product", item), (item, "manufacturer", firm)]
        rows += [(firm, "chief executive officer", ceo), (ceo, "employer", firm),
                 (ceo, "educated at", school), (firm, "industry", "tools")]
    return _tsv(rows)


def test_a_verb_or_a_noun_said_of_the_answers_names_a_stored_inverse_either_way(
        tmp_path: Path) -> None:  # fmt: skip
    """A noun said of its owner names one direction of a relation stored both ways ("X's
    *manufacturer*"); a verb ("what does X *manufacture*": X is the agent, so `manufacturer`
    backwards; "the firm that *produces* X": the products backwards) and a noun said of the
    answers ("firms *whose CEO* …", "firms with *a CEO* …": the walk arrives at the owner)
    name it either way."""
    engine = _imported(tmp_path, "makers", _makers_kb())
    kg = engine.kg("makers")
    assert len(semantics_for(kg).inverse) == 4
    ask = lambda q: sorted(engine.ask(q, kb="makers").answer_labels)  # noqa: E731
    assert ask("what does Bolt Forge manufacture") == ["Bolt 1", "Bolt 2"]
    assert ask("who manufactures Crank 2") == ["Crest Mills"]
    assert ask("Anvil 1's manufacturer") == ["Acme Works"]
    # ... and so does any verb that names one by its form, agentive or not: the firm that
    # *produces* X is reached from X backwards over `product`
    rows = [(firm, "product or material produced", item) for firm, item in (
        ("Acme Works", "Anvil 1"), ("Bolt Forge", "Bolt 1"), ("Crest Mills", "Crank 1"))]
    rows += [(item, "manufacturer", firm) for firm, _, item in rows]
    (tmp_path / "goods").mkdir()
    kg = _imported(tmp_path / "goods", "goods", rows).kg("goods")
    qa = analyse("who set up the firm that produces Crank 1", kg)
    row = [qa.words[t] for t in qa.word_tokens].index("produces")
    produced = semantics_for(kg).code[next(r for r in kg.index.rel_ids
                                           if kg.label(r).startswith("product"))]  # fmt: skip
    assert qa.lexical[row, produced] > 0
    assert qa.role_names[row, 2 * produced + 1] == qa.role_names[row, 2 * produced]
    for question in ("list the firms whose chief executive officer was educated at Hill College",
                     "which firms have a chief executive officer educated at Hill College"):
        assert ask(question) == ["Acme Works", "Crest Mills"], question


def test_a_type_noun_names_a_relation_only_where_it_arrives_at_that_kind(tmp_path: Path) -> None:
    """ "which *clubs* play in L" names `plays for club`, but walked backwards that relation
    arrives at players, not clubs: the answer-type fit of a path ending there is the worst.
    (Which plan wins is the ranker's to say: on a KB this small "play" still pulls towards
    `plays for club`.)"""
    rows = []
    for c, club in enumerate(("Ash Rovers", "Elm United", "Oak Town")):
        rows.append((club, "league", "North League" if c < 2 else "South League"))
        rows += [(f"Player {c}{p}", "plays for club", club) for p in range(3)]
    engine = _imported(tmp_path, "clubs", rows)
    kg = engine.kg("clubs")
    question = "Which clubs play in North League?"
    fits = {tuple(kg.label(r) + ("" if d == "out" else "^") for r, d in p.hops):
            p.features["type_thing"] for p in Planner(kg).plans(analyse(question, kg), limit=40)}
    assert fits[("league^",)] == 1.0
    assert fits[("league^", "plays for club^")] == -1.0


def test_a_participle_after_a_possessive_chain_is_a_hop_of_its_own(family) -> None:
    """ "who X's husband *is married to*": the predicate after the chain is a hop beyond it
    (the answer is X), as "where was X's wife *born*" is."""
    kg = family.kg("family")
    qa = analyse("tell me who Ann Lee's husband is married to", kg)
    assert chain_length(qa, qa.entities[0]) == 2
    assert answers(family, "tell me who Ann Lee's husband is married to") == ["Ann Lee"]
    qa = analyse("tell me who Ann Lee's husband is", kg)
    assert chain_length(qa, qa.entities[0]) == 1


def test_the_noun_asked_about_names_a_relation_when_said_of_an_owner(family) -> None:
    """ "the *kids* of X's wife": the noun asked about is said of an owner, so it names a
    relation by meaning like any other noun of the chain (not only by its form, as "which
    *companies* …" must); before, the walk stopped at the wife."""
    kg = family.kg("family")
    qa = analyse("name the kids of Bob Lee's wife", kg)
    row = qa.word_tokens.index(qa.answer.focus)
    assert qa.named[row].max() > 0.5
    assert sorted(answers(family, "name the kids of Bob Lee's wife")) == ["Cara Lee", "Dan Lee"]
    qa = analyse("what sort of city is Paris", kg)  # no owner named: "sort" says the kind
    assert qa.words[qa.answer.focus] == "sort"
    assert qa.named[qa.word_tokens.index(qa.answer.focus)].max() == -1.0


def test_the_rest_of_asks_for_the_others(family) -> None:
    """ "list the *rest* of the children of X's mother": the noun after the partitive is
    asked for, and "rest" asks for others than the topic."""
    question = "list the rest of the children of Cara Lee's mother"
    qa = analyse(question, family.kg("family"))
    assert qa.words[qa.answer.focus] == "children"
    assert qa.asks_for_others
    assert answers(family, question) == ["Dan Lee"]


def _squads_kb() -> str:
    """Two clubs of six players each, two players of each position at each club."""
    rows = []
    for c, club in enumerate(("Ash Rovers", "Elm United")):
        for p in range(6):
            player = f"{('Al', 'Bo', 'Cy', 'Di', 'Ed', 'Fi')[p]} {('Reed', 'Stone')[c]}"
            rows += [(player, "plays for club", club),
                     (player, "position", ("keeper", "defender", "forward")[p % 3])]
    return _tsv(rows)


def test_others_like_the_topic_share_its_value_of_a_named_relation(tmp_path: Path) -> None:
    """ "the other players at X's club who play his position": the answers are X's teammates
    (the walk back over `plays for club`) whose `position` is X's — a constraint on the
    topic's own value, which the trace shows as a step (or the other way round). A constraint
    that would leave only X leaves nobody, so it is not applied ("other players at X's
    national team" keeps the squad, not X alone, where X's club has no other)."""
    engine = _imported(tmp_path, "squads", _squads_kb())
    for question in ("Name the other players at Al Reed's club who play his position",
                     "who else plays in Al Reed's position for Al Reed's club?"):
        trace = engine.ask(question, kb="squads")
        assert trace.answer_labels == ["Di Reed"], question
    constrain = next(s for s in trace.steps if s.action.kind == "constrain")
    # the same step on a frontier of X alone, which the plan never answers: not applied
    kg = engine.kg("squads")
    topic = constrain.action.params["exclude"][0]
    alone = State(question=trace.question, frontier={topic: []})
    action = Action(kind="constrain", description="", params={
        **constrain.action.params, "from": [topic]})  # fmt: skip
    assert KGSource(kg).execute(action, alone).note.startswith("no candidate is linked")


def test_a_walk_back_to_the_topic_leaves_the_plan_that_ends_there(tmp_path: Path) -> None:
    """ "X's captain plays his club football where?": a longer plan's hop that comes back
    only to the topic X finds nothing (paths do not pass through the topic), but the plan
    ending there may answer X — it is not skipped as a dead walk."""
    kb = _squads_kb() + ("Ash Rovers\tcaptain\tBo Reed\nElm United\tcaptain\tCy Stone\n"
                         "Ash Rovers\tclub country\tEngland\nElm United\tclub country\tWales\n")
    engine = _imported(tmp_path, "squads", kb)
    trace = engine.ask("Ash Rovers' captain plays his club football where?", kb="squads")
    assert trace.answer_labels == ["Ash Rovers"]
    assert [s.candidates for s in trace.steps][:2] == [1, 0]  # the longer plan's walk back


def test_a_capitalised_word_that_is_no_label_may_name_a_shared_value_by_meaning(
        tmp_path: Path) -> None:  # fmt: skip
    """ "Which *Dutch* players play for C?": no rule of morphology takes "Dutch" to
    Netherlands, but its meaning is nearest that value of `nationality`, clearly nearer than
    any other; a word near no value ("Zorbic") names nothing."""
    countries = ("Netherlands", "Germany", "Spain")
    rows = []
    for p in range(21):
        player = f"Player {p}"
        rows += [(player, "plays for club", ("Ash Rovers", "Elm United")[p % 2]),
                 (player, "nationality", countries[p % 3])]
    engine = _imported(tmp_path, "nations", rows)
    kg = engine.kg("nations")
    qa = analyse("Which Dutch players play for Ash Rovers?", kg)
    dutch = next(m for m in qa.entities if m.text == "Dutch")
    assert [kg.label(i) for i in dutch.ids] == ["Netherlands"]
    assert not any(m.text == "Zorbic" for m in analyse("Which Zorbic players play for Ash Rovers?",
                                                      kg).entities)  # fmt: skip
    answers = engine.ask("Which Dutch players play for Ash Rovers?", kb="nations").answer_labels
    assert sorted(answers) == ["Player 0", "Player 12", "Player 18", "Player 6"]


def test_a_category_noun_asks_for_a_shared_value(tmp_path: Path) -> None:
    """ "what *sort of* film is X": the answer is a category X has — one of few values many
    films share (a genre), not its director (one per film); the answer-type fit says so."""
    rows = []
    for f in range(21):
        rows += [(f"Film {f}", "directed by", f"Director {f}"),
                 (f"Film {f}", "has genre", ("Drama", "Comedy", "Horror")[f % 3])]
    engine = _imported(tmp_path, "films", rows)
    for question in ("what sort of film is Film 4", "what kind of movie is Film 4"):
        assert engine.ask(question, kb="films").answer_labels == ["Comedy"], question
    kg = engine.kg("films")
    qa = analyse("what sort of film is Film 4", kg)
    fits = {kg.label(p.hops[0][0]): p.features["type_thing"]
            for p in Planner(kg).plans(qa, limit=10) if len(p.hops) == 1}
    assert fits == {"has genre": 1.0, "directed by": -1.0}


def test_a_walk_back_to_the_topic_tries_the_ranked_plan_ending_there_next(tmp_path: Path) -> None:
    """ "who is the parent company of X's subsidiaries": a three-hop plan comes back to X at
    its second hop and finds nothing; the ranked plan that ends there is tried next, before
    the step limit ends the run on other walks (before: no answer)."""
    rows = []
    for h, group in enumerate(("Acme Holdings", "Bolt Group")):
        for k in range(3):
            unit = f"{group.split()[0]} Unit {k}"
            rows += [(group, "subsidiary", unit), (unit, "parent organization", group)]
        rows.append((group, "founded by", f"Founder {h}"))
    engine = _imported(tmp_path, "groups", rows)
    trace = engine.ask("who is the parent company of Bolt Group's subsidiaries", kb="groups")
    assert trace.answer_labels == ["Bolt Group"]


def test_a_word_that_clearly_prefers_a_relation_names_it_for_a_path(tmp_path: Path) -> None:
    """ "the person *leading* X", "*graduate* from" match `chief executive officer` and
    `educated at` only weakly (below NAMED_AT) but clearly better than anything else: the
    path over both is tried, and answers."""
    engine = _imported(tmp_path, "makers", _makers_kb())
    for question, expected in (
            ("What school did the person leading Bolt Forge graduate from?", ["Lake College"]),
            ("What school did the person leading Crest Mills graduate from?", ["Hill College"]),
    ):  # fmt: skip
        assert engine.ask(question, kb="makers").answer_labels == expected, question


def test_which_of_asks_for_the_noun_of_its_of_phrase(family) -> None:
    """ "which *of* X's N …" asks for the N, past the owner's name (not for nothing)."""
    qa = analyse("Which of Ann Lee's children are lawyers?", family.kg("family"))
    assert qa.answer.wh == "thing" and qa.words[qa.answer.focus] == "children"
    # the owned noun is the whole ask, even when a KB value ("lawyer"): the verb after it is
    # no part of it ("which of X's *lawyers* date from …" does not ask for a date)
    qa = analyse("Which of Ann Lee's lawyers date from 1970?", family.kg("family"))
    assert qa.answer.wh == "thing" and qa.words[qa.answer.focus] == "lawyers"


def test_a_word_names_the_relation_it_heads_more_than_one_it_qualifies(tmp_path: Path) -> None:
    """ "coach" heads `head coach` and only qualifies `coach nationality` (a nationality):
    "who coaches Spain" is Spain's head coach, not the coaches of Spanish nationality. A
    shared stem is not the same word: "national" still names `national team` fully though
    "nationality" heads another label; a verb's label ("plays for") heads nothing."""
    rows = []
    for i, (country, coach) in enumerate((("Spain", "Ana Ruiz"), ("Italy", "Bo Conti"),
                                          ("France", "Cy Blanc"))):  # fmt: skip
        rows += [(country, "head coach", coach),
                 (coach, "coach nationality", ("Italy", "France", "Spain")[i]),
                 (f"Player {i}", "national team", country),
                 (f"Player {i}", "nationality", ("France", "Spain", "Italy")[i]),
                 (f"Player {i}", "plays for", f"Club {i}"),
                 (f"Player {i}", "plays position", ("keeper", "defender", "forward")[i])]
    engine = _imported(tmp_path, "coaches", rows)
    kg = engine.kg("coaches")
    weights = {kg.label(r): w for r, w in lexicon_for(kg).match("coach").items()}
    assert weights["head coach"] > weights["coach nationality"]
    weights = {kg.label(r): w for r, w in lexicon_for(kg).match("national").items()}
    assert weights["national team"] == weights["nationality"]
    # a verb's label ("plays for") has no head noun: "play" names both "plays" labels alike
    weights = {kg.label(r): w for r, w in lexicon_for(kg).match("play").items()}
    assert weights["plays for"] == weights["plays position"]
    assert engine.ask("who coaches Spain", kb="coaches").answer_labels == ["Ana Ruiz"]
    assert engine.ask("who is the coach of Italy", kb="coaches").answer_labels == ["Bo Conti"]


def test_an_afterthought_narrows_the_answer_type(family) -> None:
    """ "Where was X born - *which country*?": the short ask after the dash says what kind of
    place; the country, not the city, answers."""
    kg = family.kg("family")
    qa = analyse("Where was Dan Lee born - which country?", kg)
    assert qa.answer.wh == "thing" and qa.words[qa.answer.focus] == "country"
    assert answers(family, "Where was Dan Lee born - which country?") == ["Germany"]
    assert analyse("Where was Dan Lee born?", kg).answer.wh == "place"
    # a "which" that starts a longer clause is no afterthought
    assert analyse("Where, and in which city, was Dan Lee born?", kg).answer.wh == "place"


@pytest.mark.slow  # imports a dev KB of 6k triples
def test_the_modifier_of_a_compound_a_name_owns_may_say_what_the_name_is(tmp_path) -> None:
    """ "SC Minho's *club* captain": "club" says what SC Minho is (as in "the club SC
    Minho"), so it needs no hop — before, the walk went on to the captain's club's captain.
    Said of a player, "X's club captain" still walks to X's club first."""
    kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    rows = [r.split("\t") for r in kb.read_text(encoding="utf-8").splitlines()]
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name="football")
    engine = Engine(workspace)
    captain = {s: o for s, r, o in rows if r == "captain"}
    club = {s: o for s, r, o in rows if r == "playsForClub"}
    for name in ("SC Minho", "Naniwa Osaka"):
        question = f"Who is {name}'s club captain?"
        assert engine.ask(question, kb="football").answer_labels == [captain[name]], question
    player = next(p for p in sorted(club) if club[p] in captain and captain[club[p]] != p)
    question = f"Who is {player}'s club captain?"
    assert engine.ask(question, kb="football").answer_labels == [captain[club[player]]]


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_a_hops_word_says_a_kind_only_where_both_encoders_agree(tmp_path: Path) -> None:
    """On the family dev KB the contextual encoder alone read "bro" as a *Taoist* sibling
    (religion) and missed "brother" as a male one by 0.008; the static vectors lean the same
    way for "brother" and another way for "bro". A kind is read where both agree."""
    kg = _dev_kb(tmp_path, "family", "kb.tsv").kg("family")
    rel = {kg.label(r): r for r in semantics_for(kg).rel_ids}
    sibling, parent = (rel["sibling"], "out"), (rel["parent"], "out")

    def said(word: str, hop: tuple[str, str]) -> str | None:
        kind = hop_kind(kg, word, hop)
        return kg.label(kind[1]) if kind else None

    assert said("brother", sibling) == "male"
    assert said("sister", sibling) == "female"
    assert said("mother", parent) == "female"
    # "mom" reads "female" too faintly here; the dictionary defines it as "informal terms for
    # a *mother*", and the mother reads female (core.lexnet.term_for)
    assert said("mom", parent) == "female" and said("dad", parent) == "male"
    assert said("bro", sibling) is None
    assert said("siblings", sibling) is None and said("folks", parent) is None


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_each_part_of_a_chain_is_a_hop_even_on_a_walk_back(tmp_path: Path) -> None:
    """ "X's *brother*'s *siblings*" walks `sibling` twice: "siblings" names both hops better
    than "brother" names the first, but each part of a chain is a hop of its own, so the
    brother is read as male and X is among his siblings."""
    engine = _dev_kb(tmp_path, "family", "kb.tsv")
    for question, expected in (
        ("who are Shota Moreno's brother's siblings",
         ["Paula Moreno", "Sakura Moreno", "Shota Moreno"]),
        ("list the siblings of Barbara Wróbel's brother", ["Barbara Wróbel", "Josefa Wróbel"]),
    ):  # fmt: skip
        assert sorted(engine.ask(question, kb="family").answer_labels) == expected


def test_a_shared_stem_names_a_relation_only_with_a_shared_sense(tmp_path: Path) -> None:
    """Snowball stems "office" and "officer" alike, so "X's head *office*" named `chief
    executive officer` by its form and walked to the CEO. A stem match counts where the two
    words are one word's inflections ("found" / "founded") or mean alike by the static
    vectors ("director" / "directed"), not for a derivation that changes the sense."""
    rows = []
    for firm, boss, city, founder in (("Acme Works", "Ada Lind", "Oslo", "Al Berg"),
                                      ("Bolt Forge", "Ben Ray", "Turin", "Bo Holm")):
        rows += [(firm, "chief executive officer", boss), (firm, "headquarters location", city),
                 (firm, "founded by", founder), (boss, "directed", firm)]  # fmt: skip
    engine = _imported(tmp_path, "firms", rows)
    lexicon = lexicon_for(engine.kg("firms"))
    names = {w: {engine.kg("firms").label(r) for r in lexicon.match(w)}
             for w in ("office", "officers", "found", "director")}  # fmt: skip
    assert names == {"office": set(), "officers": {"chief executive officer"},
                     "found": {"founded by"}, "director": {"directed"}}  # fmt: skip
    assert engine.ask("Where is Bolt Forge's head office?", kb="firms").answer_labels == [
        "Turin"]


def _positions_kb() -> list[tuple[str, str, str]]:
    """Three clubs of four players; each player has a position and a shirt number."""
    rows = []
    positions = ["goalkeeper", "defender", "midfielder", "forward"]
    for c, club in enumerate(["Rovers FC", "United AFC", "Athletic SC"]):
        rows.append((club, "based in", ["Leeds", "Derby", "Hull"][c]))
        for p, position in enumerate(positions):
            player = f"{['Ada', 'Ben', 'Cy', 'Dee'][p]} {['Holt', 'Marsh', 'Reed'][c]}"
            rows += [(player, "plays for club", club), (player, "position", position),
                     (player, "shirt number", str(p + 1))]  # fmt: skip
    return rows


@pytest.mark.parametrize(
    ("question", "answer"),
    [("What position does Ben Marsh play?", ["defender"]),
     ("Ben Marsh plays in which position?", ["defender"]),
     ("Which club does Ben Marsh play for?", ["United AFC"])],
)  # fmt: skip
def test_the_verb_whose_object_is_asked_about_is_explained_by_that_noun(
    tmp_path: Path, question: str, answer: list[str]
) -> None:
    """ "What *position* does X *play*": the noun asked about is the verb's object, so the
    verb is explained by the hop the noun names (`position`) — it was left unexplained, and
    the walk went to X's club and back to its players' positions. "Which club does X play
    *for*" strands a preposition: there the verb names the relation, as before."""
    engine = _imported(tmp_path, "positions", _positions_kb())
    assert engine.ask(question, kb="positions").answer_labels == answer


def _groups_kb() -> list[tuple[str, str, str]]:
    """Four firms in two groups, two products each (stored both ways), their founders and the
    groups' founders."""
    rows = []
    for f, (firm, parent, founder) in enumerate((
            ("Acme Works", "Zenith Group", "Ada Lind"), ("Bolt Forge", "Zenith Group", "Ben Ray"),
            ("Crest Mills", "Yonder Holdings", "Cy Moss"),
            ("Dune Labs", "Yonder Holdings", "Di Park"),
    )):  # fmt: skip
        for p in range(2):
            item = f"{('Anvil', 'Bolt', 'Crank', 'Drill')[f]} {p + 1}"
            rows += [(firm, "product", item), (item, "manufacturer", firm)]
        rows += [(firm, "parent organization", parent), (parent, "subsidiary", firm),
                 (firm, "founded by", founder), (firm, "industry", "tools")]  # fmt: skip
    rows += [("Zenith Group", "founded by", "Zed Oak"), ("Yonder Holdings", "founded by", "Yu Elm")]
    return rows


def test_a_clause_head_is_explained_by_any_hop_reaching_its_kind(tmp_path: Path) -> None:
    """ "Who started the *firm* that manufactures X": "firm" says what the maker is; a hop to
    the maker's parent company reaches firms that read a little more like "firm", so the
    two-hop reading (maker, founder) explained less of the question than a walk through the
    parent. A clause head that prefers no relation is explained by any hop reaching its kind
    nearly as well as the best (KIND_SLACK)."""
    engine = _imported(tmp_path, "groups", _groups_kb())
    kg = engine.kg("groups")
    question = "Who started the firm that manufactures Crank 2?"
    qa = analyse(question, kg)
    topic = next(m for m in qa.entities if m.text == "Crank 2")
    rel = {kg.label(r): r for r in qa.semantics.rel_ids}
    hops = [(rel["manufacturer"], "out"), (rel["founded by"], "out")]
    assert explain(qa, hops, (topic,), anchor=topic.ids[0]).coverage == pytest.approx(1.0)
    assert engine.ask(question, kb="groups").answer_labels == ["Cy Moss"]


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_a_clause_head_does_not_push_the_short_reading_out_on_the_business_kb(tmp_path) -> None:
    """On the business dev KB the two-hop reading of "Who started the firm that manufactures
    X" was not among the plans scored in full (60 of 453): walks through a parent company
    explained "firm" a little better. Now it is, and answers."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    trace = engine.ask("Who started the firm that manufactures Linen RJ90?", kb="business")
    assert sorted(trace.answer_labels) == ["Fang Chen", "Michael Underwood", "Rachel Hensley"]


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_the_shorter_readings_of_the_best_paths_are_scored_in_full(tmp_path: Path) -> None:
    """Only the PROMISING paths with the best cheap bound get the full features, and the bound
    puts a path below its extensions wherever one more hop explains a weak word a little: on
    the business dev KB "which companies *count* X as a founder" kept 60 of 773 paths, all
    longer than X's firms (their competitors explain "count" at 0.19). The prefixes of the
    best paths are scored in full too."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    trace = engine.ask("Which companies count Abigail Caldwell as a founder?", kb="business")
    assert trace.answer_labels == ["Goldline Online"]


@pytest.mark.slow  # imports a dev KB of 5k triples
def test_a_clear_first_stage_winner_must_explain_nearly_as_much_as_any_plan(
        tmp_path: Path) -> None:  # fmt: skip
    """ "which firms have their HQ somewhere in X": the firms of country X, one hop named
    well, led the first stage by a wide margin while leaving "HQ" unexplained (coverage 0.33
    against 0.67 for the headquarters in X's cities); a leader that explains much less than
    another plan is no clear winner, and the ranker reads the encoder too."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    for country in ("Canada", "South Korea"):
        question = f"which firms have their HQ somewhere in {country}"
        gold = _tuning_gold("business", question)
        assert sorted(engine.ask(question, kb="business").answer_labels) == sorted(gold)


@pytest.mark.slow  # imports a dev KB of 6k triples
@pytest.mark.parametrize("question", ["Which universities or research institutes are in Norway?",
                                      "What universities and institutes are there in Brazil?"])
def test_a_class_one_of_two_joined_nouns_names_is_asked_for(tmp_path: Path, question: str
                                                            ) -> None:  # fmt: skip
    """ "Which *universities* or research institutes are in X": the class constraint by
    "universities" linked none of X's cities, yet the cities were answered — one of two
    joined nouns was taken to name no class of the answer. Cities are neither; the walk goes
    on to the institutions located in them."""
    engine = _dev_kb(tmp_path, "science", "kb.tsv")
    gold = _tuning_gold("science", question)
    assert sorted(engine.ask(question, kb="science").answer_labels) == sorted(gold)


@pytest.mark.parametrize(
    ("question", "hops"),
    [("where was the husband of Ann Lee born", 2),
     ("the city where the husband of Ann Lee was born", 2),
     ("in which city was the husband of Ann Lee born", 2),
     ("who is the husband of Ann Lee", 0),  # a single "the N of X" bounds nothing
     ("the husband of Ann Lee was born in which city", 0)],  # more follows the verb
)  # fmt: skip
def test_a_predicate_after_a_single_of_part_is_a_hop_of_its_own(family, question, hops) -> None:
    """ "the college where *the husband of X* studied": the subject is one hop (the husband),
    the verb that ends the question another — a one-hop plan (X's own college) is shorter
    than the question. It was counted only after a possessive ("X's husband")."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.parametrize(
    ("question", "hops"),
    [("the alma mater of the spouse of Ann Lee", 2),  # words no KB name meets: still a part
     ("the number of the children of Ann Lee", 0),  # an amount, not a part
     ("the rest of the children of Ann Lee", 0)],  # a part of a set, not a part
)  # fmt: skip
def test_the_outermost_of_part_is_a_hop_whatever_its_words(family, question, hops) -> None:
    """ "the X of the Y of Z" is two hops whatever the words: the outermost part of an "of"
    chain counts where it is plain nouns after an article, though no relation name of the KB
    meets its words ("alma mater" is Latin to the static vectors)."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.parametrize(
    ("question", "hops"),
    [("who raised the children that Ann Lee adopted", 2),
     ("what firms hand out the prizes Ann Lee received", 2),  # a phrasal verb WordNet knows
     ("who are the children that Ann Lee adopted", 1),  # a copula: the children
     ("name the children that Ann Lee adopted", 1)],  # the question's frame
)  # fmt: skip
def test_the_verb_before_a_clause_head_is_a_hop(family, question, hops) -> None:
    """ "who *presents* the awards that X won": the clause's head is one hop from X (her
    awards), the verb between the question word and it another (who presents them) — as
    "who *controls* the subsidiaries of X" counts the verb before an "of" part. Only for a
    head alone: before an "of" chain ("which city *hosts* the headquarters of the firm that
    …", the business dev KB) the verb links the answer to the chain's outer noun."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.parametrize(
    ("question", "hops"),
    [("who heads Ann Lee's husband", 2),  # "heads", "runs": nouns' forms, verbs here
     ("who runs Ann Lee's husband", 2),
     ("who raised Ann Lee's husband", 2),
     ("who became Ann Lee's husband", 1),  # a linking verb: the husband
     ("who is Ann Lee's husband", 1)],
)  # fmt: skip
def test_the_verb_between_who_and_a_possessive_chain_is_a_hop(family, question, hops) -> None:
    """ "who *heads* X's owner": "who" is the verb's subject and the chain its object, so the
    verb is a hop beyond the chain however weakly its words name a relation (the business dev
    KB's tuning question was walked to X's own chief executive, "owner" left unexplained)."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_two_weakly_worded_parts_are_both_walked(tmp_path: Path) -> None:
    """A path may take one hop no word names well; within the parts the grammar asks for,
    one more ("who *heads* X's *owner*": "heads" and "owner" each read weakly — the parent
    firm's chief executive was never tried)."""
    from core.evaluate import evidence_path

    engine = _dev_kb(tmp_path, "business", "kb.nt")
    trace = engine.ask("Who heads Cedarbay Retail's owner?", kb="business")
    assert evidence_path(trace) == "parent organization → chief executive officer"
    assert trace.answer_labels == ["Valentina Ruiz"]


def test_what_follows_the_verb_of_a_do_question_is_part_of_the_predicate(family) -> None:
    """ "who did X's wife have *as kids*": after the subject's verb ("have", a function
    word that ends the possessive part) comes the predicate's noun — a hop beyond the wife."""
    qa = analyse("who did Bob Lee's wife have as kids", family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Bob Lee")
    assert chain_length(qa, topic) == 2
    assert chain_length(analyse("who did Bob Lee's wife marry", family.kg("family")),
                        topic) == 2  # the verb itself, as before  # fmt: skip


@pytest.mark.parametrize(
    ("question", "focus"),
    [("the man who married Ann Lee was born in which city", "city"),
     ("The person who is married to Ann Lee has which profession?", "profession"),
     ("name the city where Dan Lee was born", "city")],  # no later wh-word: as before
)  # fmt: skip
def test_a_wh_word_after_a_relative_clause_asks_the_question(family, question, focus) -> None:
    """ "The player *who* captains X is on the books of *which club*?": the relative "who"
    does not end the search for the question word; the later "which" asks for a club (the
    first noun, "player", was read as the noun asked about)."""
    qa = analyse(question, family.kg("family"))
    assert qa.words[qa.answer.focus] == focus
    if focus == "city" and "married" in question:
        assert answers(family, question) == ["Lyon"]


def _alumni_kb() -> list[tuple[str, str, str]]:
    """Eight people at two universities in two cities, with professions and birthplaces."""
    rows = [("Lund University", "located in", "Lund"), ("Oslo University", "located in", "Oslo")]
    people = ("Ana Diaz", "Ben Holt", "Cleo Park", "Dag Berg", "Eli Moss", "Fay Lund",
              "Gil Roth", "Hal Dunn")
    for i, person in enumerate(people):
        rows += [(person, "education", ("Lund University", "Oslo University")[i % 2]),
                 (person, "profession", ("lawyer", "doctor", "teacher")[i % 3]),
                 (person, "place of birth", ("Lund", "Oslo", "Bergen")[i % 3])]
    return rows


@pytest.mark.parametrize("question, peers", [
    ("tell me the other graduates of the university Ana Diaz attended", True),
    ("which other people went to Ana Diaz's university", True),
    ("who else studied where Ana Diaz did", True),
    ("name Ana Diaz's fellow alumni", True),
    ("the films that share directors with Heat were in which languages", False),
    ("which films did Ana Diaz also direct", False),
    ("tell me who studied alongside Ana Diaz at the same university", True),  # the clause
    ("who directed the films that share actors with Heat", False),  # ... of "who" only
])  # fmt: skip
def test_a_cue_for_others_said_of_the_answer_asks_for_peers(tmp_path: Path, question: str,
                                                             peers: bool) -> None:  # fmt: skip
    """ "the *other* graduates of …", "who *else*": the answers are of the topic's kind, so a
    plan whose last hop never arrives at the topic's kind answers something else (the
    university, not its graduates); a cue said of a thing met on the way ("the films that
    *share* directors") or adding things ("*also*") says nothing of the answers' kind."""
    engine = _imported(tmp_path, "alumni", _alumni_kb())
    qa = analyse(question, engine.kg("alumni"))
    assert qa.asks_for_peers is peers
    if peers and "Ana Diaz" in question and "fellow" not in question and "who " not in question:
        trace = engine.ask(question, kb="alumni")
        assert sorted(trace.answer_labels) == ["Cleo Park", "Eli Moss", "Gil Roth"], question


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_the_cheap_bound_keeps_paths_ending_on_the_place_asked_for(tmp_path: Path) -> None:
    """ "*Where* is the company behind X based": no word names `headquarters location` well
    ("based" reads nearer `founded by`), so the cheap bound of `_promising` left the walk
    manufacturer → headquarters out of the 60 of 472 paths scored in full. A path ending on
    the kind a "where" question asks for gets the bound's bonus, as one ending on a year does
    for "when"."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    for question in ("where is the company behind Polaris V150 based",
                     "where is the maker of Polaris V150 headquartered"):
        assert engine.ask(question, kb="business").answer_labels == ["Osaka"], question


def test_a_cue_inside_a_name_asks_for_no_peers() -> None:
    """ "who is listed as screenwriter of … [The *Other* Side of Midnight] …": a word of a
    name is no cue (a MetaQA 3-hop question lost to it)."""
    words = "who wrote the other side of midnight".split()
    assert not _asks_for_peers(words, 0, names={2, 3, 4, 5, 6})
    assert _asks_for_peers(words, 0, names=set())


def _nations_kb() -> list[tuple[str, str, str]]:
    """Twelve players at two clubs in two countries, each capped by one of two nations
    across clubs, two of each position per club."""
    rows = [("Ash Rovers", "club country", "Spain"), ("Elm United", "club country", "Italy")]
    for c, club in enumerate(("Ash Rovers", "Elm United")):
        for p in range(6):
            player = f"{('Al', 'Bo', 'Cy', 'Di', 'Ed', 'Fi')[p]} {('Reed', 'Stone')[c]}"
            rows += [(player, "plays for club", club),
                     (player, "position", ("keeper", "defender", "forward")[p % 3]),
                     (player, "national team", ("Spain", "Italy")[(p + c) % 2])]
    return rows


def test_a_plural_value_asked_about_is_what_a_constraint_makes_the_answers(
        tmp_path: Path) -> None:  # fmt: skip
    """ "Which *forwards* represent Spain?": a plural names what is asked for, not a noun
    after it ("represent"); the answers of a plan constrained to the position `forward` are
    forwards whatever "forwards" reads like to the encoder (nothing like a player), so the
    answer type does not push the walk on to the players' clubs."""
    engine = _imported(tmp_path, "nations", _nations_kb())
    qa = analyse("Which forwards represent Spain?", engine.kg("nations"))
    assert qa.words[qa.answer.focus] == "forwards"
    for question in ("Which forwards represent Spain?",
                     "name the forwards who play for the Spain national team"):
        answers = sorted(engine.ask(question, kb="nations").answer_labels)
        assert answers == ["Cy Reed", "Fi Stone"], question


def _staff_kb() -> list[tuple[str, str, str]]:
    """Six people at two firms, with professions and nationalities."""
    rows = [("Acme Works", "industry", "tools"), ("Bolt Bank", "industry", "banking")]
    for i, person in enumerate(("Ada Lind", "Ben Ray", "Cy Moss", "Di Park", "Ed Holt",
                                "Flo Dunn")):  # fmt: skip
        rows += [(person, "employer", ("Acme Works", "Bolt Bank")[i % 2]),
                 (person, "profession", ("banker", "engineer", "lawyer")[i % 3]),
                 (person, "nationality", ("Canada", "Germany")[i // 3])]
    return rows


@pytest.mark.parametrize(("question", "expected"), [
    ("tell me which people are employed as a banker", ["Ada Lind", "Di Park"]),
    ("who works as an engineer", ["Ben Ray", "Ed Holt"]),
])  # fmt: skip
def test_a_verb_before_as_and_a_name_says_how_the_answers_link_to_it(
        tmp_path: Path, question: str, expected: list[str]) -> None:  # fmt: skip
    """ "employed *as* a banker": the verb says how the answers are linked to the name after
    "as" (their profession), not the relation it names by itself (`employer`, whose walk
    answered the bankers' firms)."""
    engine = _imported(tmp_path, "staff", _staff_kb())
    assert sorted(engine.ask(question, kb="staff").answer_labels) == expected


def test_a_compound_names_the_relation_both_its_parts_name_the_more(tmp_path: Path) -> None:
    """ "*birth*place" meets `place of birth`, `place of death` and `place of residence` by
    its head "place"; its first part names `place of birth`, and says which place where the
    others' labels say another ("who shares a birthplace with X" walked the place of
    residence). A compound whose first part is a noun no label says names none of them: a
    "*work*place" is no place of birth — "Ann Lee's workplace" is her employer, by meaning."""
    engine = _imported(tmp_path, "places", [
        ("Ann Lee", "place of birth", "Lyon"), ("Ann Lee", "place of death", "Paris"),
        ("Ann Lee", "place of residence", "Nice"), ("Bob Ray", "place of birth", "Nice"),
        ("Ann Lee", "employer", "Acme Works"), ("Bob Ray", "employer", "Bolt Forge")])
    lexicon = lexicon_for(engine.kg("places"))
    weights = {engine.kg("places").label(r): w for r, w in lexicon.match("birthplace").items()}
    assert set(weights) == {"place of birth"}
    assert lexicon.match("workplace") == {}
    assert engine.ask("Ann Lee's workplace", kb="places").answer_labels == ["Acme Works"]
    assert engine.ask("Bob Ray's birthplace", kb="places").answer_labels == ["Nice"]


def test_a_compound_after_a_prefix_keeps_what_its_last_part_names(tmp_path: Path) -> None:
    """ "*inter*nationals": no noun before "nationals", so it still meets `national team`
    (a prefix says no other kind of team)."""
    engine = _imported(tmp_path, "caps", [
        ("Ann Lee", "national team", "Peru"), ("Ann Lee", "nationality", "Peru")])
    kg = engine.kg("caps")
    named = {kg.label(r) for r in lexicon_for(kg).match("internationals")}
    assert "national team" in named


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_a_cue_for_others_keeps_the_walk_back_among_the_paths_scored_in_full(
        tmp_path: Path) -> None:  # fmt: skip
    """ "who *else* founded the firms X founded": of 982 paths from X, the walk back over
    `founded by` (X's firms, then their founders) was not among the 60 the cheap bound keeps —
    many paths explain every word as well. Where a cue asks for others, the bound prefers the
    shape it asks for."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    trace = engine.ask("who else founded the firms that Karabo Nkosi founded", kb="business")
    assert sorted(trace.answer_labels) == ["Marco Ricci", "Meera Kapoor", "Melissa Quinlan"]


def test_the_verb_after_the_noun_asked_about_has_it_for_subject(tmp_path: Path) -> None:
    """ "which *clubs play* in X": "play" names `plays for club` by its form, but its subject
    is the clubs asked about, and clubs do not play for clubs — so the walk does not go on to
    the clubs' players; "which club does X play for" keeps the verb's relation."""
    rows = [("Ash Rovers", "league", "Liga One"), ("Elm United", "league", "Liga One"),
            ("Oak City", "league", "Liga Two")]
    for i, player in enumerate(("Al Reed", "Bo Stone", "Cy Moss")):
        rows += [(player, "plays for club", ("Ash Rovers", "Elm United", "Oak City")[i]),
                 (player, "position", "forward")]
    engine = _imported(tmp_path, "leagues", rows)
    trace = engine.ask("Which clubs play in Liga One?", kb="leagues")
    assert sorted(trace.answer_labels) == ["Ash Rovers", "Elm United"]
    assert engine.ask("which club does Bo Stone play for", kb="leagues").answer_labels == [
        "Elm United"]


@pytest.mark.parametrize(
    ("question", "hops"),
    [("the birthplace of the child of the woman who married Ann Lee", 3),
     ("the alma mater of the sister of the man who married Ann Lee", 3),
     ("where was the person who is married to Ann Lee born", 2),
     ("where was the child of the man who married Ann Lee born", 3),
     ("the person who married Ann Lee", 1),
     ("where was the person who married the man behind Ann Lee born", 3),  # nested
     ("which films were directed by Ann Lee", 0),  # a verb before "by", no noun's phrase
     ("who married Ann Lee", 0),  # the question word opens no noun's clause
     ("the child of Ann Lee", 0)],  # a single "the N of X", as before
)  # fmt: skip
def test_a_relative_clause_ending_at_the_topic_is_a_hop(family, question, hops) -> None:
    """ "the *head* of the *company* that builds X": the clause's head is one hop from the
    topic (its verb links them; a preposition's noun too: "the *person* who runs the
    *company* behind X"), each "of" part outside it one more, and the verb a
    do-question ends with one more ("which university did … *attend*"). Without it the
    chain read nothing, and a one-hop plan (the company) answered "the alma mater of the boss
    of the company that makes X"."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.parametrize(
    ("question", "hops"),
    [("who married the man employed by Ann Lee", 2),  # a relation word before the head
     ("the children of the man employed by Ann Lee", 2),  # an "of" part outside it
     ("in which city was the man employed by Ann Lee born", 2),
     ("who is the man employed by Ann Lee", 1),
     ("which films were directed by Ann Lee", 0)],  # a verb before it: no noun's phrase
)  # fmt: skip
def test_a_participle_with_by_makes_its_noun_a_hop(family, question, hops) -> None:
    """ "who *acted* in the *films* directed by X": the noun a participle with "by" says
    something of is a hop from the topic, and a relation word said before it (naming another
    relation than the noun does) one more. Without it the chain read nothing."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.parametrize(
    ("question", "hops"),
    [("the city Ann Lee lives in is located in what country", 2),  # the clause's predicate
     ("In which country is the city that Ann Lee lives in?", 2),  # the noun asked about
     ("who is the wife of the man Ann Lee works for", 2),  # an "of" part outside it
     ("Name the man Ann Lee works for", 1),
     ("what is the name of the city Ann Lee lives in", 1),  # a frame word, no relation
     ("where does the person Ann Lee live", 0),  # uninflected: the question's own verb
     ("when was the man Ann Lee born", 0),  # a participle after "was": the question's
     ("who married the man Ann Lee", 0)],  # no verb after the topic: an apposition
)  # fmt: skip
def test_a_relative_clause_with_the_topic_as_subject_is_a_hop(family, question, hops) -> None:
    """ "the *team* (that) X plays for is located in what *country*": the clause's head is a
    hop from the topic, its subject, and what the question says of the head one more. Without
    it the chain read nothing, and a one-hop plan (X's national team, a country) answered."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_a_relative_clause_chain_is_walked_to_its_end(tmp_path: Path) -> None:
    """ "the alma mater of the boss of the company that makes X" is three hops (the company,
    its chief, where the chief studied); read as none, a one-hop plan answered the company."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    trace = engine.ask("the alma mater of the boss of the company that makes Shoal LX220",
                       kb="business")  # fmt: skip
    assert trace.answer_labels == ["Kingsbridge University"]


def _captains_kb() -> list[tuple[str, str, str]]:
    """National teams, their captains and the clubs their players play for."""
    rows = []
    for nation in ("Norland", "Sudria", "Estmark"):
        for i, colour in enumerate(("Red", "Blue", "Gold", "Grey")):
            player = f"{('Ari', 'Ben', 'Cas', 'Dag')[i]} {nation[:3]}son"
            rows += [(player, "national team", nation),
                     (player, "plays for club", f"{colour} {nation} FC")]
            if i == 0:
                rows.append((nation, "captain", player))
        rows.append((f"Red {nation} FC", "based in", f"{nation} City"))
    return rows


def test_a_walk_may_pass_through_the_topic_where_the_question_asks_for_every_hop(
        tmp_path: Path) -> None:  # fmt: skip
    """ "Which club does the *captain* of X's *national team* play for?", X being that
    captain: the second hop reaches the topic alone, and the grammar asks for all three hops
    — the walk goes on from X to X's club, and the step says so. Before, a walk that came
    back only to the topic failed, and the plan ending there answered X himself."""
    engine = _imported(tmp_path, "captains", _captains_kb())
    trace = engine.ask("Which club does the captain of Ari Norson's national team play for?",
                       kb="captains")  # fmt: skip
    assert trace.answer_labels == ["Red Norland FC"]
    assert "passes through the topic entity Ari Norson" in trace.steps[1].action.details["note"]
    trace = engine.ask("Which club does the captain of Ben Norson's national team play for?",
                       kb="captains")  # fmt: skip
    assert trace.answer_labels == ["Red Norland FC"]  # (the usual walk, through Ari)


def test_a_walk_may_pass_through_the_topic_to_the_value_how_old_asks_for(
        tmp_path: Path) -> None:  # fmt: skip
    """ "How old is the captain of X's national team?", X being that captain (own wordings,
    fourth batch, football): the grammar counts two hops and "how old" the age, a hop onto
    the value the question word asks for — so the walk may go on from X to X's own age, and
    the answer's evidence is read as that walk (the age is what is typed, and it fits), not
    as a path ending at the national team with two edges off it."""
    from core.judges import chain_hops

    ages = [(f"{('Ari', 'Ben', 'Cas', 'Dag')[i]} {nation[:3]}son", "age", str(20 + 4 * n + i))
            for n, nation in enumerate(("Norland", "Sudria", "Estmark")) for i in range(4)]
    engine = _imported(tmp_path, "captains", _captains_kb() + ages)
    trace = engine.ask("How old is the captain of Ari Norson's national team?", kb="captains")
    assert trace.answer_labels == ["20"]
    assert trace.support.status == "verified"
    topics = {i for link in trace.linked for i in link.get("ids", ())}
    hops, off_path = chain_hops(trace.answers[0].evidence, topics)
    assert [engine.kg("captains").label(rel) for rel, _ in hops] == [
        "national team", "captain", "age"] and not off_path  # fmt: skip


def test_a_walk_may_pass_through_the_topic_to_the_value_the_noun_asked_about_names(
        tmp_path: Path) -> None:  # fmt: skip
    """ "What shirt number does X's club captain wear?", X being that captain (own wordings,
    third batch, football): the noun asked about names the value the last hop reaches, as
    "how old" names an age, so the walk goes on from X to his own number — before, it failed
    there and no answer was given (on the dev KB a walk over X's teammates answered theirs)."""
    rows = []
    for c, club in enumerate(("Red Rovers", "Blue Town", "Gold United")):
        for i, first in enumerate(("Ari", "Ben", "Cas")):
            player = f"{first} {club.split()[0]}man"
            rows += [(player, "plays for club", club),
                     (player, "shirt number", str(10 * c + i + 2)),
                     (player, "position", ("keeper", "defender", "forward")[i])]  # fmt: skip
        rows += [(club, "captain", f"Ari {club.split()[0]}man"), (club, "based in", f"City {c}")]
    engine = _imported(tmp_path, "clubs", rows)
    for who in ("Ari Redman", "Ben Redman"):  # the captain himself, and a teammate
        trace = engine.ask(f"What shirt number does {who}'s club captain wear?", kb="clubs")
        assert trace.answer_labels == ["2"], who
        assert evidence_path(trace) == "plays for club → captain → shirt number"


def test_a_head_noun_and_the_verb_of_its_clause_are_one_place(tmp_path: Path) -> None:
    """ "What bodies hand out the *awards* X *received*": the noun and the verb of the clause
    said of it with the topic name one hop (X's awards), however both name `award received`
    — so a walk back over it (the other winners of X's awards) has no word of its own and is
    an echo, and the awards' givers answer (science tuning; before, the other winners did)."""
    awards = {"Gold Quill": "Royal Letters Society", "Blue Prism": "Optics Guild",
              "Iron Key": "Royal Letters Society", "Star Medal": "Optics Guild"}  # fmt: skip
    people = ["Ann Roe", "Bo Lind", "Cy Marsh", "Di Kerr", "Ed Vance", "Flo Hart"]
    rows = [(p, "award received", a) for i, p in enumerate(people)
            for a in list(awards)[i % 4 : i % 4 + 2]]  # fmt: skip
    rows += [(p, "employer", ("North College", "South College")[i % 2])
             for i, p in enumerate(people)]  # fmt: skip
    rows += [(a, "awarded by", body) for a, body in awards.items()]
    rows += [("Royal Letters Society", "based in", "Leeds"), ("Optics Guild", "based in", "York")]
    engine = _imported(tmp_path, "awards", rows)
    trace = engine.ask("What bodies hand out the awards Ann Roe received?", kb="awards")
    assert sorted(trace.answer_labels) == ["Optics Guild", "Royal Letters Society"]


def test_a_clause_verb_before_two_stranded_prepositions_is_read_as_a_verb(
        tmp_path: Path) -> None:  # fmt: skip
    """ "which country is the institution X *works at in*": "at" is the clause's, stranded
    before the question's own "in", so "works at" is no dictionary phrase (WordNet's "work
    at": exert effort) and "works" reads as being employed; and the second preposition is a
    hop beyond the clause's head (`chain_length` 2). Before, X's citizenship answered,
    verified. (Own wordings, fifth batch, on the science dev KB: a KB written here let a
    walk over X's colleagues win instead.)"""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "science" / "kb.tsv"
    engine = engine_over(tmp_path, dev_kb, "science")
    question = "which country is the institution Philippa Cartwright works at in"
    qa = analyse(question, engine.kg("science"))
    assert chain_length(qa, qa.entities[0]) == 2
    trace = engine.ask(question, kb="science")
    assert evidence_path(trace) == "employer → located in → located in"


@pytest.mark.slow  # imports a dev KB
def test_a_type_noun_naming_another_relation_that_reaches_the_same_kind_fits(
        tmp_path: Path) -> None:  # fmt: skip
    """ "which *nation* is X located in": "nation" names `nationality` by its form, yet
    `located in` from a city reaches the very countries `nationality` does — the answers are
    the kind asked for (the judge had typed them -1, so a walk the step limit cut short kept
    no answer). A noun naming a relation that reaches another kind still counts against."""
    engine = _dev_kb(tmp_path, "family", "kb.tsv")
    kg = engine.kg("family")
    located = next(r for r in kg.index.rel_ids if kg.label(r) == "located in")
    qa = analyse("which nation is Lyon located in", kg)
    assert answer_fit(qa, kg, located, "out", trusted_only=True) > 0.0
    qa = analyse("which profession is Lyon located in", kg)
    assert answer_fit(qa, kg, located, "out", trusted_only=True) == -1.0


@pytest.mark.slow  # imports the bundled MetaQA KB (bare: without relations.ttl)
def test_a_plan_goes_on_from_a_walk_another_plan_already_took(tmp_path: Path) -> None:
    """The best plan failed at its second hop; the next starts with the same first hop, and
    goes on from where that walk ended rather than walking it again — so its three hops fit
    in the step limit (T = 4: before, the run ended on the second plan's second hop and
    answered films where writers were asked for)."""
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(bundled_kb_dir() / "kb.txt", name="bare")
    trace = Engine(workspace).ask(
        "who are the writers that the directors of their films also directed [Second Best]",
        kb="bare")  # fmt: skip
    assert sorted(trace.answer_labels) == ["Scott Sommer", "Shawn Slovo"]
    resumed = [s for s in trace.steps if "resumed" in s.action.details]
    assert resumed and "walked at step 1" in resumed[0].action.details["resumed"]


@pytest.mark.slow  # imports a dev KB
def test_a_walk_the_step_limit_cuts_short_is_no_answer(tmp_path: Path) -> None:
    """The step limit ended the run one hop into a plan (X's wife, on the way to her kids):
    those nodes are no answer of the question, however the judge scored them; the run
    answers from the best-judged walk before (X's own children)."""
    engine = _dev_kb(tmp_path, "family", "kb.tsv")
    trace = engine.ask("give me the names of the children of Alessandro Marino's wife",
                       kb="family")  # fmt: skip
    assert trace.answer_labels == ["Elena Marino"]
    assert "answered from step" in trace.stop_reason


@pytest.mark.parametrize(("question", "focus"), [
    ("which city hosts the headquarters of Acme Steel", "city"),  # a verb with its object
    ("which city firms are based in Lyon", "firms"),  # a value of the KB before its noun
])  # fmt: skip
def test_a_kind_named_by_the_kb_before_a_verb_is_the_noun_asked_about(
        tmp_path: Path, question: str, focus: str) -> None:  # fmt: skip
    """ "which *city* hosts the …": "city" is a node of the KB (a class), which before a noun
    only qualifies it ("which *drama* films"); before a verb and its object it is the noun
    asked about — read as "city hosts" the question asked for hosts."""
    engine = _imported(tmp_path, "sites", [
        ("Lyon", "instance of", "city"), ("Acme Steel", "headquarters location", "Lyon"),
        ("Acme Steel", "instance of", "business"), ("Bo Lind", "employer", "Acme Steel"),
        ("Nice", "instance of", "city"), ("Orla Group", "headquarters location", "Nice")])
    qa = analyse(question, engine.kg("sites"))
    assert qa.words[qa.answer.focus] == focus


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_after_a_failed_plan_the_next_tried_explains_as_much(tmp_path: Path) -> None:
    """The best plan (through the chairperson) finds nothing; the next two in rank leave
    "CEO" and "university" unexplained, so the run gave no answer ("explains far less"). A
    plan further down explains as much as the failed one and is tried next."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    trace = engine.ask("Where is the university of Novaris Industries' CEO located?",
                       kb="business")  # fmt: skip
    assert trace.answer_labels == ["Shanghai"]


def test_walks_over_a_relation_stored_both_ways_are_one_plan(family) -> None:
    """`parent` forwards and `child` backwards reach the same nodes: two such plans took two
    of the few places in the ranked list (and two walks of the step limit), leaving a third
    reading out ("X's *alma mater*" read as a parent crowded out `education`)."""
    kg = family.kg("family")
    planner = Planner(kg)
    plans = planner.plans(analyse("who are the parents of Cara Lee", kg))
    walks = [planner.sem.same_walk(p.hops) for p in plans if not p.constraints]
    assert len(walks) == len(set(walks))
    parent = next(r for r in kg.index.rel_ids if kg.label(r) == "parent")
    child = next(r for r in kg.index.rel_ids if kg.label(r) == "child")
    assert planner.sem.same_walk([(parent, "out")]) == planner.sem.same_walk([(child, "in")])


def _clubs_kb() -> list[tuple[str, str, str]]:
    """Four clubs, each with a home city, a founding year, a coach and three players; every
    person with a citizenship (a country) and a birth year."""
    rows = []
    countries = ("Norway", "Chile", "Kenya", "Japan")
    cities = {"Bergen": "Norway", "Valdivia": "Chile", "Mombasa": "Kenya", "Sendai": "Japan"}
    for i, (club, city) in enumerate(zip(("Fjord FC", "Andes United", "Coast Stars",
                                          "Bay Rovers"), cities, strict=True)):
        coach = ("Ola Dahl", "Juan Soto", "Ken Ouma", "Rin Sato")[i]
        rows += [(club, "home city", city), (city, "country", cities[city]),
                 (club, "founded", str(1900 + 7 * i)), (club, "coach", coach),
                 (coach, "citizenship", countries[(i + 1) % 4]),
                 (coach, "birth year", str(1960 + i))]
        for j in range(3):
            player = f"Player {i}{j}"
            rows += [(player, "plays for", club),
                     (player, "citizenship", countries[(i + j + 2) % 4]),
                     (player, "birth year", str(1990 + j))]
    return rows


def test_where_walks_on_from_a_person(tmp_path: Path) -> None:
    """ "*Where* is the coach of X from": the coach is a person, no place; the judge does not
    take them, so the loop walks on over the ranked plan that reaches places, though no word
    names its last hop (`citizenship`)."""
    engine = _imported(tmp_path, "clubs", _clubs_kb())
    for question, expected in (("Where is the coach of Fjord FC from?", ["Chile"]),
                               ("Where is Player 21's club's coach from?", ["Japan"]),
                               ("who is the coach of Coast Stars", ["Ken Ouma"])):
        assert engine.ask(question, kb="clubs").answer_labels == expected, question


def _teams_kb() -> list[tuple[str, str, str]]:
    """Players with a club and a national team (a country), clubs with a manager, countries
    with a head coach: "team" alone is the club, "national team" the country."""
    rows = []
    countries = ("Norway", "Chile", "Kenya", "Japan")
    clubs = ("Fjord FC", "Andes United", "Coast Rovers", "Bay Athletic")
    for i, (club, country) in enumerate(zip(clubs, countries, strict=True)):
        rows += [(club, "manager", ("Ola Dahl", "Juan Soto", "Ken Ouma", "Rin Sato")[i]),
                 (country, "head coach", ("Per Lie", "Ana Diaz", "Tom Otieno", "Aki Mori")[i])]
        for j in range(3):
            player = f"Player {i}{j}"
            rows += [(player, "plays for club", club),
                     (player, "national team", countries[(i + j + 1) % 4])]
    return rows


def test_a_head_noun_without_its_qualifier_names_the_general_kind(tmp_path: Path) -> None:
    """ "X's *team*" meets `national team` only in its head; the question says nothing like
    "national", and clubs read more like "team" than countries do: the team is the club.
    Said with its qualifier (or a word alike, "international"), it is the national team."""
    engine = _imported(tmp_path, "teams", _teams_kb())
    for question, expected in (("Who manages Player 12's team?", ["Juan Soto"]),
                               ("Name the manager of Player 30's team", ["Rin Sato"]),
                               ("Who coaches Player 12's national team?", ["Per Lie"]),
                               ("who is the head coach of Player 31's international side",
                                ["Ana Diaz"])):  # fmt: skip
        assert engine.ask(question, kb="teams").answer_labels == expected, question
    kg = engine.kg("teams")
    national = next(r for r in kg.index.rel_ids if kg.label(r) == "national team")
    for question, names in (("Who manages Player 12's team?", False),
                            ("Who coaches Player 12's national team?", True)):
        qa = analyse(question, kg)
        row = next(r for r, t in enumerate(qa.word_tokens) if qa.words[t] == "team")
        assert bool(qa.lexical[row, qa.semantics.code[national]] > 0) is names, question
        said = dict((w, r) for w, r, _ in qa.relation_words(*qa.entities[:1]))  # the trace's
        assert ("not national team: national unsaid" in said["team"]) is not names, question


@pytest.fixture(scope="module")
def football(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    """The unseen `football` dev KB (natural camelCase relation names, clubs and national
    teams), imported once for this module."""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    return engine_over(tmp_path_factory.mktemp("football"), dev_kb, "football")


# tuning questions of the dev KB the contextual encoder read as the national team, by the
# word "team" it shares with `national team` (each fails with UNSAID_CONTEXT set to 0)
@pytest.mark.parametrize(("question", "answer"), [
    ("which team has Gustavo Santos under contract right now", "Empire City FC"),
    ("Tom Gibbs is on the books of which team?", "Bristol Town"),
    ("name every team Soufiane Haddad has left during his career", "Mersey Wanderers"),
])  # fmt: skip
def test_the_encoder_reads_a_path_less_for_a_head_it_shares_with_the_question_alone(
        football: Engine, question: str, answer: str) -> None:  # fmt: skip
    """ "which *team* …" meets `national team` only in its head ("national" unsaid): the
    contextual encoder's reading of "the national team of X" counts UNSAID_CONTEXT less, so
    the club (or former club) the other words and the answer type point at goes first."""
    kg = football.kg("football")
    qa = analyse(question, kg)
    assert any(kg.label(r) == "national team" for r in qa.unsaid_relations)
    assert football.ask(question, kb="football").answer_labels[:1] == [answer]


def test_a_plan_passing_over_a_better_linked_name_answers_another_question(
        tmp_path_factory: pytest.TempPathFactory) -> None:  # fmt: skip
    """ "Which *rock* bands come from the *United Kingdom*?" (a tuning question of the unseen
    `music` dev KB): the plan from "rock" alone (every rock band) leaves out the name the
    question links best; it counts as passed over and loses 3, so the plan from the country
    with the genre as a constraint answers. A name linked no better than the plan's own is
    not passed over."""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "music" / "kb.tsv"
    engine = engine_over(tmp_path_factory.mktemp("music"), dev_kb, "music")
    question = "Which rock bands come from the United Kingdom?"
    kg = engine.kg("music")
    qa = analyse(question, kg)
    by_text = {m.text: m for m in qa.entities}
    planner = Planner(kg)
    assert planner._passed_over(qa, (by_text["rock"],)) == 1
    assert planner._passed_over(qa, (by_text["United Kingdom"],)) == 0
    assert planner._passed_over(qa, (by_text["United Kingdom"], by_text["rock"])) == 0
    assert engine.ask(question, kb="music").answer_labels == ["Electric Tides"]


@pytest.mark.parametrize(("question", "answers"), [
    ("Who did Jing Zheng start companies with?",
     ["Aiko Mori", "Julia Vogel", "Rachel Prescott", "Willem Venter"]),
    ("Who did Katharina Krause start companies with?", ["Florian Steiner"]),
])  # fmt: skip
def test_a_who_question_ending_on_with_asks_for_the_others(
        tmp_path_factory: pytest.TempPathFactory, question: str,
        answers: list[str]) -> None:  # fmt: skip
    """ "Who did X start companies *with*?" (tuning questions of the unseen `business` dev
    KB) asks for the people X founded firms together with: others than X (`_accompanied`,
    like "who *else*"), the other founders of X's firms — not what X's firms are; "which
    *firm* is X with" asks for no person."""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "business" / "kb.nt"
    engine = engine_over(tmp_path_factory.mktemp("business"), dev_kb, "business")
    kg = engine.kg("business")
    assert analyse(question, kg).asks_for_others
    assert not analyse("Which firm is Jing Zheng with?", kg).asks_for_others
    assert sorted(engine.ask(question, kb="business").answer_labels) == answers


def test_a_peer_compound_names_a_relation_by_its_first_part(tmp_path: Path) -> None:
    """ "X's *club*mates" are the others at X's club: the compound's first part names the
    relation by its form (and "mates" asks for others); "*team*mates" meets `national team`
    only in its head, which the question does not qualify."""
    engine = _imported(tmp_path, "teams", _teams_kb())
    kg = engine.kg("teams")
    assert relation_word("clubmates") == "club" and relation_word("mates") == "mates"
    code = {kg.label(r): i for i, r in enumerate(semantics_for(kg).rel_ids)}
    for question, word, relation, names in (
            ("Who are Player 12's clubmates?", "clubmates", "plays for club", True),
            ("Who are Player 12's teammates?", "teammates", "national team", False)):
        qa = analyse(question, kg)
        assert qa.asks_for_others, question
        row = next(r for r, t in enumerate(qa.word_tokens) if qa.words[t] == word)
        assert bool(qa.lexical[row, code[relation]] > 0) is names, question
    assert sorted(engine.ask("Who are Player 12's clubmates?", kb="teams").answer_labels) \
        == ["Player 10", "Player 11"]


def test_qualifiers_unsaid_reads_each_name_of_a_relation(tmp_path: Path, metaqa_kg) -> None:
    """The head and qualifiers of each name apart: "team" heads `national team` (qualified by
    "national"), "national" is no head; on the bundled KB "words" meets `has_tags` by its
    alias "word", a whole name, so nothing qualifies it (the label and the aliases run
    together would make "word" a head qualified by "describe", "tag", …)."""
    engine = _imported(tmp_path, "teams", _teams_kb())
    kg = engine.kg("teams")
    national = next(r for r in kg.index.rel_ids if kg.label(r) == "national team")
    lexicon = lexicon_for(kg)
    assert lexicon.qualifiers_unsaid("team", national) == {"national"}
    assert lexicon.qualifiers_unsaid("teams", national) == {"national"}
    assert lexicon.qualifiers_unsaid("national", national) is None
    tags = next(r for r in metaqa_kg.index.rel_ids if metaqa_kg.label(r) == "has tags")
    assert lexicon_for(metaqa_kg).qualifiers_unsaid("words", tags) is None


def _firms_kb() -> list[tuple[str, str, str]]:
    """People with an employer, a university and a birthplace; firms headquartered in cities,
    universities located in cities, cities located in countries, countries with a capital
    and citizens: `located in` reaches cities as often as countries."""
    rows = []
    places = {"Lyon": "France", "Porto": "Portugal", "Turin": "Italy", "Graz": "Austria"}
    capitals = {"France": "Paris", "Portugal": "Lisbon", "Italy": "Rome", "Austria": "Vienna"}
    for i, (city, country) in enumerate(places.items()):
        rows += [(city, "located in", country), (country, "capital", capitals[country]),
                 (capitals[country], "located in", country),
                 (f"Firm {i}", "headquartered in", city),
                 (f"University of {city}", "located in", city)]
        for j in range(2):
            person = f"Person {i}{j}"
            rows += [(person, "employer", f"Firm {(i + j) % 4}"),
                     (person, "education", f"University of {city}"),
                     (person, "nationality", country),
                     (person, "place of birth", list(places)[(i + j + 1) % 4])]
    for city, country in (("Nice", "France"), ("Braga", "Portugal"), ("Milan", "Italy"),
                          ("Linz", "Austria"), ("Bari", "Italy"), ("Metz", "France")):
        rows += [(city, "located in", country), (f"University of {city}", "located in", city)]
    return rows


def test_a_type_noun_explains_a_hop_by_what_it_reaches_on_this_path(tmp_path: Path) -> None:
    """ "which *nation* is the employer of X headquartered in": over all its subjects
    `located in` reaches cities and countries alike, so the noun reads it no better than
    the walk back over `capital`; from the cities the firms are headquartered in it
    reaches what `nationality` and `capital` point at — nations."""
    engine = _imported(tmp_path, "firms", _firms_kb())
    for question, expected in (
            ("which nation is the employer of Person 01 headquartered in", ["Portugal"]),
            ("which nation is the employer of Person 20 headquartered in", ["Italy"])):
        assert engine.ask(question, kb="firms").answer_labels == expected, question


def test_both_asks_for_others_sharing_two_things_with_the_topic(tmp_path: Path) -> None:
    """ "Who plays for *both* X's club and X's national team": the others at X's club whose
    national team is X's — "both" asks for others, so what the answers share with the topic
    (its national team) constrains them, as "also" and "too" do."""
    rows = [*_teams_kb(), ("Player 13", "plays for club", "Andes United"),
            ("Player 13", "national team", "Norway")]
    engine = _imported(tmp_path, "teams", rows)
    question = "Who plays for both Player 12's club and Player 12's national team?"
    assert analyse(question, engine.kg("teams")).asks_for_others
    assert engine.ask(question, kb="teams").answer_labels == ["Player 13"]


def _products_kb() -> list[tuple[str, str, str]]:
    """Makers and their products stored both ways (`manufacturer`, `product or material
    produced`), each maker with one symmetric `competitor` pair."""
    rows = []
    for i, maker in enumerate(("Ardent Labs", "Borel Works", "Cyan Motors", "Delta Foods")):
        for j in range(3):
            product = f"Product {i}{j}"
            rows += [(product, "manufacturer", maker), (maker, "product or material produced",
                                                          product)]  # fmt: skip
    for a, b in (("Ardent Labs", "Borel Works"), ("Cyan Motors", "Delta Foods"),
                 ("Ardent Labs", "Cyan Motors")):
        rows += [(a, "competitor", b), (b, "competitor", a)]
    return rows


def test_walks_back_and_forth_over_a_stored_inverse_are_not_planned(tmp_path: Path) -> None:
    """ "What does the company that makes P produce": `manufacturer` then `product or material
    produced` walks back (the two are one relation stored both ways), and a third hop back
    again adds nothing — as r, r⁻¹, r over one relation; and a peer word that names a
    relation that is its own inverse ("X's *rivals*": `competitor`) asks for one hop, not the
    competitors of X's competitors."""
    engine = _imported(tmp_path, "makers", _products_kb())
    kg = engine.kg("makers")
    sem = semantics_for(kg)
    competitor = next(r for r in kg.index.rel_ids if kg.label(r) == "competitor")
    assert sem.self_inverse.tolist() == [r == competitor for r in sem.rel_ids] + [False]
    question = "What does the company that makes Product 12 produce?"
    rel = {kg.label(r): r for r in kg.index.rel_ids}
    maker, product = rel["manufacturer"], rel["product or material produced"]
    walks = {sem.same_walk(p.hops) for p in Planner(kg).plans(analyse(question, kg), limit=100)}
    assert sem.same_walk([(maker, "out"), (product, "out")]) in walks
    assert sem.same_walk([(maker, "out"), (product, "out"), (product, "in")]) not in walks
    answer = engine.ask(question, kb="makers")
    assert sorted(answer.answer_labels) == ["Product 10", "Product 11", "Product 12"]
    rivals = engine.ask("Who are Ardent Labs' main rivals?", kb="makers")
    assert sorted(rivals.answer_labels) == ["Borel Works", "Cyan Motors"]


@pytest.mark.slow  # imports a dev KB of 8k triples
def test_a_second_name_constrains_by_the_relation_a_word_names(tmp_path: Path) -> None:
    """ "On which companies' *boards* do A and B both sit": B constrains the answers by
    `board member`, which "boards" names — not by the rarer `chairperson`, which the noun
    asked about, "companies", describes as well as any relation reaching companies (on the
    business dev KB every such relation counted as named, and the rarest came first)."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    kg = engine.kg("business")
    question = "On which companies' boards do Aditya Bhatt and Lakshmi Chatterjee both sit?"
    qa = analyse(question, kg)
    planner = Planner(kg)
    member = next(r for r in kg.index.rel_ids if kg.label(r) == "board member")
    topic, other = qa.entities[1], qa.entities[0]
    last = 2 * planner.sem.code[member] + 1  # back over `board member`: the companies
    readings = planner._constraints(qa, topic, topic.ids[0], last)
    assert readings[1][0] == ((other.ids[0], member, "out"),)
    assert engine.ask(question, kb="business").answer_labels == ["Windline Retail"]


def _classes_kb() -> list[tuple[str, str, str]]:
    """Firms, cities, universities and places of a dozen other kinds, each with its class
    (`instance of`, which every node has: more classes than a categorical attribute has
    values) and its country: walking `country` back from a country reaches every kind."""
    rows = []
    for i, kind in enumerate(("airport", "museum", "stadium", "hospital", "river", "bridge",
                              "park", "church", "theatre", "harbour", "castle", "lake")):
        rows += [(f"Site {i}", "instance of", kind),
                 (f"Site {i}", "country", ("France", "Spain")[i % 2])]
    for country, cities in (("France", ("Lyon", "Nice")), ("Spain", ("Bilbao", "Cadiz"))):
        for city in cities:
            rows += [(city, "instance of", "city"), (city, "country", country),
                     (f"{city} Motors", "instance of", "business"),
                     (f"{city} Motors", "country", country),
                     (f"{city} Motors", "headquarters location", city),
                     (f"University of {city}", "instance of", "university"),
                     (f"University of {city}", "country", country)]
    return rows


def test_the_noun_asked_about_ranks_the_answers_of_its_class_first(tmp_path: Path) -> None:
    """ "Which *companies* have France as their country": the walk back over `country`
    reaches firms, cities and universities alike; the noun asked about reads like the class
    `business` of the firms (the class relation every node has), so they rank first and tie
    alone at the top. "Which companies are *in* France" walks on over the cities of France to
    the firms headquartered there, which explains "companies" and reads better
    (`_explains_far_more`): the firms alone."""
    engine = _imported(tmp_path, "classes", _classes_kb())
    trace = engine.ask("which companies have France as their country", kb="classes")
    top = [a.label for a in trace.answers if a.score == trace.answers[0].score]
    assert sorted(top) == ["Lyon Motors", "Nice Motors"]
    assert {a.label for a in trace.answers} >= {"Lyon", "University of Lyon"}  # ranked after
    trace = engine.ask("which companies are in France", kb="classes")
    assert sorted(a.label for a in trace.answers) == ["Lyon Motors", "Nice Motors"]
    assert evidence_path(trace) == "country → headquarters location"


def test_a_class_constraint_that_links_no_candidate_walks_on(tmp_path: Path) -> None:
    """ "In which *country* was X born": the plan that keeps the birth places that are an
    `instance of` country keeps none (a city is none), so the walk goes on from the city to
    where it is located, as a ranked plan does — not answering the city."""
    rows = [("France", "instance of", "country"), ("Spain", "instance of", "country")]
    for i, city in enumerate(("Lyon", "Nice", "Bilbao", "Cadiz")):
        country = "France" if i < 2 else "Spain"
        rows += [(city, "instance of", "city"), (city, "located in", country),
                 (f"Singer {i}", "instance of", "musician"), (f"Singer {i}", "born in", city),
                 (f"Singer {i}", "citizen of", ("Spain", "France")[(i + 1) % 2]),
                 (f"Band {i}", "instance of", "band"), (f"Band {i}", "formed in", city),
                 (f"Singer {i}", "member of", f"Band {i}"),
                 (f"Singer {i}", "plays instrument", ("guitar", "drums")[i % 2]),
                 (f"Singer {i}", "spouse", f"Singer {3 - i}")]
    rows += [("guitar", "instance of", "instrument"), ("drums", "instance of", "instrument")]
    engine = _imported(tmp_path, "classes", rows)
    for question, expected in (("in which country was Singer 1 born", ["France"]),
                               ("Singer 2 was born in what country?", ["Spain"]),
                               # ... on where the nodes reached include the class asked for
                               ("what band is Singer 0's spouse in", ["Band 3"])):
        assert engine.ask(question, kb="classes").answer_labels == expected, question


def test_answers_of_the_class_another_noun_names_walk_on(tmp_path: Path) -> None:
    """ "Which *artists* released *albums* on the label X founded": the label's albums are
    each an `instance of` album, the class "albums" names — not the artists asked for, so the
    walk goes on to the albums' performers rather than answering the albums; where the noun
    asked about is that class's own word ("which *albums* …") the albums are the answer."""
    rows = [("Lark Records", "instance of", "record label"), ("Ada Moss", "instance of", "person"),
            ("Lark Records", "founder", "Ada Moss")]
    for i in range(4):
        band, album = f"Band {i}", f"Record {i}"
        rows += [(band, "instance of", "band"), (album, "instance of", "album"),
                 (album, "performer", band), (album, "released on label", "Lark Records"),
                 (album, "release year", str(1990 + i)), (band, "formed in", "Leeds")]
    rows += [("Leeds", "instance of", "city"), ("Record 9", "instance of", "album"),
             ("Record 9", "performer", "Band 0")]
    engine = _imported(tmp_path, "labels", rows)
    artists = engine.ask("Which artists released albums on the label that Ada Moss founded?",
                         kb="labels").answer_labels  # fmt: skip
    assert sorted(artists) == ["Band 0", "Band 1", "Band 2", "Band 3"]
    albums = engine.ask("Which albums came out on the label that Ada Moss founded?",
                        kb="labels").answer_labels  # fmt: skip
    assert sorted(albums) == ["Record 0", "Record 1", "Record 2", "Record 3"]


def test_a_class_named_by_its_head_word_is_another_nouns_class(tmp_path: Path) -> None:
    """ "Which *consultants* run *campaigns* sponsored by the Acme Fund": the fund's campaigns
    are each an `instance of` election campaign, a class no mention links ("campaigns" alone
    names no node) but whose head word the question says — not the consultants asked for, so
    the walk goes on to their strategists, and the judge takes that hop as what
    "consultants" asks for (VERIFIED, not held below R for a hop no word names)."""
    rows = [("Acme Fund", "instance of", "foundation"),
            ("Zenith Trust", "instance of", "foundation")]
    for i in range(4):
        campaign, person = f"Campaign {'ABCD'[i]}", f"Pat Quill {i}"
        rows += [(campaign, "instance of", "election campaign"),
                 (campaign, "sponsored by", ("Acme Fund", "Zenith Trust")[i % 2]),
                 (campaign, "chief strategist", person), (person, "instance of", "consultant"),
                 (person, "born in", "Leeds"), (campaign, "start year", str(2001 + i))]
    rows += [("Leeds", "instance of", "city")]
    engine = _imported(tmp_path, "campaigns", rows)
    trace = engine.ask("Which consultants run campaigns sponsored by the Acme Fund?",
                       kb="campaigns")  # fmt: skip
    assert sorted(trace.answer_labels) == ["Pat Quill 0", "Pat Quill 2"]
    assert trace.support.status == "verified"
    campaigns = engine.ask("Which campaigns are sponsored by the Acme Fund?", kb="campaigns")
    assert sorted(campaigns.answer_labels) == ["Campaign A", "Campaign C"]


def test_what_a_role_reaches_is_read_by_the_class_of_its_nodes(tmp_path: Path) -> None:
    """Band names ("Crimson Orbits") say little of what they are; their class (`instance of`
    band, a relation every node has) says it: "which *act* does X belong to" reads like what
    `member of` reaches, not like the instruments X plays."""
    names = ["The Static Anchors", "Velvet Ravens", "Hollow Ferries", "Crimson Orbits"]
    cities = ["Lyon", "Nice", "Bilbao", "Cadiz"]
    rows = [("guitar", "instance of", "instrument"), ("drums", "instance of", "instrument")]
    for i, band in enumerate(names):
        rows += [(band, "instance of", "band"), (band, "formed in", cities[i]),
                 (band, "influenced by", names[(i + 1) % 4]), (cities[i], "instance of", "city")]
        for j in range(2):
            rows += [(f"Singer {i}{j}", "instance of", "musician"),
                     (f"Singer {i}{j}", "member of", band),
                     (f"Singer {i}{j}", "plays instrument", ("guitar", "drums")[j]),
                     (f"Singer {i}{j}", "born in", cities[(i + j) % 4])]
    engine = _imported(tmp_path, "bands", rows)
    assert engine.ask("which act does Singer 30 belong to", kb="bands").answer_labels == [
        "Crimson Orbits"]


def _label_kb() -> list[tuple[str, str, str]]:
    """Bands in cities in countries, their members and the instruments these play, their
    albums, who produced each and — for a few only — the studio it was recorded at; every
    node an `instance of` its class."""
    names = ["The Static Anchors", "Velvet Ravens", "Hollow Ferries", "Crimson Orbits"]
    cities = [("Lyon", "France"), ("Bilbao", "Spain"), ("Nice", "France"), ("Cadiz", "Spain")]
    rows = [(thing, "instance of", kind) for thing, kind in (
        ("guitar", "instrument"), ("drums", "instrument"), ("France", "country"),
        ("Spain", "country"), ("Studio North", "studio"), ("Studio South", "studio"))]
    for i, band in enumerate(names):
        city, country = cities[i]
        rows += [(band, "instance of", "band"), (band, "formed in", city),
                 (city, "instance of", "city"), (city, "located in", country)]
        for j in range(2):
            rows += [(f"Singer {i}{j}", "instance of", "musician"),
                     (f"Singer {i}{j}", "member of", band),
                     (f"Singer {i}{j}", "plays instrument", ("guitar", "drums")[j])]
        for j in range(3):
            album = f"Album {i}{j}"
            rows += [(album, "instance of", "album"), (album, "performer", band),
                     (album, "produced by", f"Producer {(i + j) % 3}")]
            if i == j:
                rows.append((album, "recorded at", ("Studio North", "Studio South")[j % 2]))
    rows += [(f"Producer {k}", "instance of", "producer") for k in range(3)]
    return rows


def test_a_class_is_no_topic_where_the_question_names_a_thing(tmp_path: Path) -> None:
    """ "Which *country* are X from": `country` links the class node, whose members (every
    country) a plan from it would answer; where the question names a thing of its own the
    class only says what the answer is, so the walk starts from the band."""
    engine = _imported(tmp_path, "labels", _label_kb())
    assert engine.ask("Which country are Velvet Ravens from?",
                      kb="labels").answer_labels == ["Spain"]


def test_a_noun_met_in_a_verb_of_a_label_asks_for_what_the_verb_is_done_to(
        tmp_path: Path) -> None:
    """ "What *records* has P produced": "records" meets `recorded at` only in "recorded", and
    reads more like the albums recorded than the studios, so it asks for albums (whatever
    reaches them: few say where they were recorded) — not for the studio of P's albums."""
    engine = _imported(tmp_path, "labels", _label_kb())
    trace = engine.ask("What records has Producer 1 produced?", kb="labels")
    produced = sorted(s for s, r, o in _label_kb() if r == "produced by" and o == "Producer 1")
    assert sorted(trace.answer_labels) == produced == ["Album 01", "Album 10", "Album 22",
                                                       "Album 31"]  # fmt: skip


def test_a_verb_said_with_a_preposition_names_no_relation_taking_an_object(
        tmp_path: Path) -> None:
    """ "Who *plays in* X", "which band does X *play with*": `plays instrument` takes its noun
    for an object; said with a preposition and no instrument the verb says another thing
    (membership) — while "what does X play" still asks for the instrument."""
    engine = _imported(tmp_path, "labels", _label_kb())
    assert sorted(engine.ask("Who plays in Hollow Ferries?", kb="labels").answer_labels) == [
        "Singer 20", "Singer 21"]
    assert engine.ask("Which band does Singer 31 play with?",
                      kb="labels").answer_labels == ["Crimson Orbits"]
    assert engine.ask("What does Singer 31 play?", kb="labels").answer_labels == ["drums"]


@pytest.mark.slow  # imports the bundled MetaQA KB (bare: without relations.ttl)
def test_a_participle_in_a_label_takes_no_object(tmp_path: Path) -> None:
    """`starred_actors` reads "*starred* actors": the actors who starred, not a verb taking
    "actors" for its object — so "who co-starred *with* X" still names it (the rule on a
    verb said with a preposition, above, had read it as "plays *in*")."""
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(bundled_kb_dir() / "kb.txt", name="bare")
    trace = Engine(workspace).ask("who co-starred with [Mathieu Amalric]", kb="bare")
    assert sorted(trace.answer_labels) == ["Anne Consigny", "Catherine Deneuve", "Daniel Craig",
                                           "Olga Kurylenko"]  # fmt: skip


def test_a_verb_of_the_stem_of_a_marked_word_says_no_marked_sense(tmp_path: Path) -> None:
    """ "Where was X's band *formed*" says nothing "*former*" says (that word is no agent of
    "form"): the band is the one X is a member of, not the one X was a member of."""
    rows = _label_kb() + [(f"Singer {i}0", "former member of", band) for i, band in enumerate(
        ("Velvet Ravens", "Hollow Ferries", "Crimson Orbits", "The Static Anchors"))]
    engine = _imported(tmp_path, "labels", rows)
    assert engine.ask("In which city was Singer 10's band formed?",
                      kb="labels").answer_labels == ["Bilbao"]
    assert engine.ask("In which city was Singer 10's former band formed?",
                      kb="labels").answer_labels == ["Nice"]


def test_a_head_noun_names_the_label_whose_qualifiers_are_said(tmp_path: Path) -> None:
    """ "In which *year* was the band X belongs to *formed*": "year" heads `birth year` and
    `formation year` alike; the question says "formed" (near "formation") and nothing of a
    birth, so it names the band's formation year — X's birth year is another question."""
    bands = ("The Static Anchors", "Velvet Ravens", "Hollow Ferries", "Crimson Orbits")
    rows = _label_kb() + [(band, "formation year", str(1990 + i)) for i, band in enumerate(bands)]
    rows += [(f"Singer {i}{j}", "birth year", str(1960 + 2 * i + j)) for i in range(4)
             for j in range(2)]  # fmt: skip
    engine = _imported(tmp_path, "labels", rows)
    for question in ("In which year was the band Singer 10 belongs to formed?",
                     "what year did the band that Singer 10 is in form"):
        assert engine.ask(question, kb="labels").answer_labels == ["1991"], question
    assert engine.ask("In which year was Singer 10 born?", kb="labels").answer_labels == ["1962"]


def test_an_acronym_names_the_relation_of_its_initials(tmp_path: Path) -> None:
    """ "CEO", "CEOs" are `chief executive officer` by form (its initials), as "chief" or
    "officer" would be; lower-case "ceo" is read by meaning only (a word like any other)."""
    engine = _imported(tmp_path, "firms", [
        ("Acme", "chief executive officer", "Ann Lee"), ("Acme", "chairperson", "Bo Kim"),
        ("Bolt", "chief executive officer", "Cy Ray"), ("Bolt", "chairperson", "Di Fox"),
        ("Ann Lee", "place of birth", "Oslo"), ("Cy Ray", "place of birth", "Rome")])
    kg = engine.kg("firms")
    sem = semantics_for(kg)
    ceo = sem.code[next(r for r in sem.rel_ids if kg.label(r) == "chief executive officer")]
    for question, by_form in (("Who is the CEO of Acme?", True),
                              ("which firms have CEOs born in Rome", True),
                              ("who is the ceo of acme", False)):
        qa = analyse(question, kg)
        row = next(r for r, i in enumerate(qa.word_tokens) if qa.words[i].startswith("ceo"))
        assert bool(qa.lexical[row, ceo] == 1.0) is by_form, question
    assert engine.ask("Who is the CEO of Acme?", kb="firms").answer_labels == ["Ann Lee"]


def test_a_value_constrains_the_answers_the_class_noun_describes(tmp_path: Path) -> None:
    """ "What *rock* bands come from Lyon": the genre constrains the answers; "bands" (a class
    node too) is read as what the hop back over `formed in` reaches — the plan that made it a
    constraint as well left that hop unexplained, and the one without the genre answered
    every band from Lyon."""
    rows = _label_kb() + [("Blue Lanterns", "instance of", "band"),
                          ("Blue Lanterns", "formed in", "Lyon"),
                          ("Singer 90", "member of", "Blue Lanterns"),
                          ("Singer 90", "instance of", "musician")]
    rows += [(band, "genre", genre) for band, genre in (
        ("The Static Anchors", "rock"), ("Blue Lanterns", "jazz"), ("Velvet Ravens", "rock"),
        ("Hollow Ferries", "jazz"), ("Crimson Orbits", "folk"))]
    rows += [(genre, "instance of", "genre") for genre in ("rock", "jazz", "folk")]
    engine = _imported(tmp_path, "labels", rows)
    assert engine.ask("What rock bands come from Lyon?", kb="labels").answer_labels == [
        "The Static Anchors"]
    assert engine.ask("What jazz bands come from Lyon?", kb="labels").answer_labels == [
        "Blue Lanterns"]


def test_a_walk_back_to_the_kind_asked_for_answers_the_topic(tmp_path: Path) -> None:
    """ "Which *group* is X's frontman in": the singer's band is X itself — walking back over
    `member of` from X's lead singer arrives at bands, which the noun asked about names and
    the singer does not; no echo of "frontman" (the topic may be the answer)."""
    bands = ("The Static Anchors", "Velvet Ravens", "Hollow Ferries", "Crimson Orbits")
    rows = _label_kb() + [(band, "lead vocalist", f"Singer {i}0") for i, band in enumerate(bands)]
    engine = _imported(tmp_path, "labels", rows)
    for question in ("which group is Velvet Ravens' frontman in",
                     "which band is Velvet Ravens' lead vocalist in"):
        assert engine.ask(question, kb="labels").answer_labels == ["Velvet Ravens"], question
    assert engine.ask("who is Velvet Ravens' lead vocalist",
                      kb="labels").answer_labels == ["Singer 10"]


def test_who_asks_for_a_firm_where_the_noun_names_only_relations_reaching_firms(
        tmp_path: Path) -> None:
    """ "Who is *the employer* of X": `employer` reaches firms, so "who" asks for what the noun
    names, not for a person; "who is the *chief executive officer* of X" (persons) and "who is
    the *gaffer* at X" (no relation by its form) still ask for a person."""
    rows = [("Acme", "chief executive officer", "Ann Lee"), ("Bolt", "chief executive officer",
                                                            "Cy Ray")]
    rows += [(p, "employer", f) for f, _, p in rows]
    rows += [("Ann Lee", "place of birth", "Oslo"), ("Cy Ray", "place of birth", "Rome"),
             ("Acme", "country", "Norway"), ("Bolt", "country", "Italy")]
    engine = _imported(tmp_path, "firms", rows)
    kg = engine.kg("firms")
    for question, wh, focus in (("who is the employer of Ann Lee", "thing", "employer"),
                                ("who is the chief executive officer of Acme", "person", "who"),
                                ("who is the gaffer at Acme", "person", "who")):
        answer = analyse(question, kg).answer
        assert (answer.wh, question.split()[answer.focus]) == (wh, focus), question
    assert engine.ask("who is the employer of the chief executive officer of Bolt",
                      kb="firms").answer_labels == ["Bolt"]


def test_the_head_of_n_of_names_the_last_hop_by_meaning_too(tmp_path: Path) -> None:
    """ "Who are the *daughters* of Li Long's siblings" (the family dev KB, a wording of our
    own): "daughters" heads "N of", so it names the last hop — by meaning, as no relation has
    its form — and the walk goes to the siblings first (it went to Li Long's daughters and
    their siblings: his own children)."""
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "family", "who are the daughters of Li Long's siblings")
    assert evidence_path(trace).split(" → ")[0] == "sibling"
    assert set(trace.answer_labels) == {"Halima Li", "Li Ying"}  # (Li Feng is a son)


def test_who_before_a_verb_asks_for_its_doer_a_firm_too(tmp_path: Path) -> None:
    """ "Who *employs* Li Zhiwei's partner" (the family dev KB, a wording of our own): "who"
    is the subject of "employs", so it asks for the doer of `employer`'s verb — a firm as
    well as a person, and fits it fully — not for a person alone (the walk had gone to Li
    Zhiwei's colleagues, people, leaving "partner" unexplained); "who is *employed* where X
    is" still asks for people."""
    from core.evaluate import evidence_path
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "family", "who employs Li Zhiwei's partner")
    assert evidence_path(trace) == "spouse → employer"
    assert trace.answer_labels == ["Pearl River Electric"]
    trace = ask_dev_kb(tmp_path / "b", "family", "who is employed where Li Zhiwei is employed")
    assert evidence_path(trace) == "employer → employer"
    # ... a doer fits "who" as well as any person: "who *performed* the albums by X" is X (the
    # music dev KB's tuning question; a band, the performer of its own albums)
    trace = ask_dev_kb(tmp_path / "c", "music", "who performed the albums by Anna Scholz")
    assert trace.answer_labels == ["Anna Scholz"]


def test_who_is_the_noun_or_by_whom_asks_for_the_doer_the_noun_or_verb_names(
        tmp_path: Path) -> None:  # fmt: skip
    """ "Who are the *performers* of X's albums", "X's albums were *performed* by whom" (the
    music dev KB, wordings of our own): the noun "who are the" leads to, or the participle
    before a last "by whom", says what "who" does, as a verb after "who" does — so a band,
    the doer of `performer`, fits "who" fully and the walk there and back answers it (before,
    a band read as no person and the walk ended on the albums' producers)."""
    from tests.test_lexnet import ask_dev_kb

    for i, question in enumerate(("who are the performers of Hidden Anchors' albums",
                                  "Hidden Anchors' albums were performed by whom")):
        trace = ask_dev_kb(tmp_path / str(i), "music", question)
        assert trace.answer_labels == ["Hidden Anchors"]
        assert evidence_path(trace) == "performer → performer"


def test_a_word_naming_the_role_walked_lets_the_walk_come_back(tmp_path: Path) -> None:
    """ "Name the performers of Marble Foxes' *records*" (the music dev KB's tuning question):
    "records" names `performer` backwards (the albums a band performed) far better than
    forwards, so the walk to the albums and back to their performer — the topic — is tried;
    before, only a word naming what the albums *are* let it be, and the walk went on to bands
    that influenced Marble Foxes."""
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "music", "Name the performers of Marble Foxes' records.")
    assert trace.answer_labels == ["Marble Foxes"]
    assert evidence_path(trace) == "performer → performer"


def test_answers_of_another_class_than_the_noun_asked_about_walk_on(tmp_path: Path) -> None:
    """ "What *nationality* is X's lead vocalist": the walk reaches the singer, a `musician`;
    the noun asked about reads like the class `country` far more (by the contextual
    encoder), so the judge finds the answer the wrong kind and the run walks on where a
    ranked plan arrives at countries — whatever a singer's name reads like."""
    bands = ("The Static Anchors", "Velvet Ravens", "Hollow Ferries", "Crimson Orbits")
    rows = _label_kb() + [(band, "lead vocalist", f"Singer {i}0") for i, band in enumerate(bands)]
    rows += [(f"Singer {i}{j}", "citizen of", ("France", "Spain")[(i + j) % 2])
             for i in range(4) for j in range(2)]  # fmt: skip
    engine = _imported(tmp_path, "labels", rows)
    trace = engine.ask("what nationality is Velvet Ravens' lead vocalist", kb="labels")
    assert trace.answer_labels == ["Spain"]
    assert engine.ask("who is Velvet Ravens' lead vocalist", kb="labels").answer_labels == [
        "Singer 10"]


def test_a_noun_modifier_met_in_a_label_verb_says_what_the_verb_is_done_to(
        tmp_path: Path) -> None:
    """ "All albums on X's *record* label": "record" (a noun here, after a possessive) meets
    `recorded at` only in its verb, so it names what is recorded — the albums, which the walk
    back over `recorded at` (or over `released on label`) reaches — not the studios; "birth"
    (an event noun) still names `born in` itself; "did X record" is a verb."""
    rows = _label_kb() + [(f"Album {i}{j}", "released on label", ("North Records",
                                                                  "South Records")[(i + j) % 2])
                          for i in range(4) for j in range(3)]  # fmt: skip
    rows += [(f"Singer {i}{j}", "born in", ("Lyon", "Nice")[j]) for i in range(4) for j in range(2)]
    engine = _imported(tmp_path, "labels", rows)
    kg = engine.kg("labels")
    sem = semantics_for(kg)
    code = {kg.label(r): 2 * i for i, r in enumerate(sem.rel_ids)}

    def reads(question: str, word: str, role: int) -> float:
        qa = analyse(question, kg)
        row = next(r for r, i in enumerate(qa.word_tokens) if qa.words[i] == word)
        return float(qa.role_names[row, role])

    question = "Name all albums on Album 00's record label."
    assert reads(question, "record", code["recorded at"]) < 0 < reads(
        question, "record", code["recorded at"] + 1)
    assert reads("what album did Singer 00 record at Studio North", "record",
                 code["recorded at"]) > 0
    assert reads("what is the city of birth of Singer 00", "birth", code["born in"]) > 0



def test_a_label_ending_on_of_names_its_subjects(tmp_path: Path) -> None:
    """ "X is a *track* of Y", "X is a *member* of Y": a label ending on "of" names what its
    subjects are, where "plays for *club*" names its objects."""
    rows = _label_kb() + [(f"Song {i}{j}{k}", "track of", f"Album {i}{j}")
                          for i in range(4) for j in range(3) for k in range(2)]  # fmt: skip
    kg = _imported(tmp_path, "labels", rows).kg("labels")
    sem = semantics_for(kg)
    code = {kg.label(r): 2 * i for i, r in enumerate(sem.rel_ids)}
    for label, head in (("track of", "track"), ("member of", "member")):
        assert head in sem.kind_heads[code[label] + 1]  # walked back: its subjects
        assert head not in sem.kind_heads[code[label]]


# the music dev KB's tuning questions that read the album a track is on as a track, and the
# band a musician is a member of as a member, before (each answered the first hop); …
@pytest.mark.parametrize(
    ("question", "answers"),
    [
        ("What are the tracks on the record featuring Shine with Otis?",
         {"Fire in the Car", "Shine with Otis"}),
        ("Name the members of the band that Niklas Brandt is in.",
         {"Caleb Sawyer", "Jenna Rourke", "Niklas Brandt", "Tyler Whitfield"}),
        # ... and a common noun that also names a class node ("band") followed by a
        # possessive is a part of the chain (`chain_length`): the walk may pass through X,
        # the band's frontman, on to the school
        ("Imogen Fothergill's band's frontman studied at which school?",
         {"Westbrook Institute of Sound"}),
    ],
)  # fmt: skip
def test_the_kind_an_of_label_names_sends_the_walk_on(
        tmp_path: Path, question: str, answers: set[str]) -> None:  # fmt: skip
    kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "music" / "kb.tsv"
    engine = Engine(Workspace(tmp_path / "home"))
    engine.workspace.import_file(kb, name="music")
    got = engine.ask(question, kb="music").answer_labels
    assert got and set(got) <= answers


def test_a_last_hop_the_kb_lacks_is_read_the_next_way_its_word_names(tmp_path: Path) -> None:
    """ "X's husband's *job*": the word vectors put "job" nearest `employer`, but this husband
    has none. The same walk's next reading of its last word (his profession, which "job"
    still names) is walked from the husband, not refused for explaining less of the question
    — and a husband with an employer is answered by it, as before."""
    rows = []
    people = [("Ann Lee", "female", "Bob Lee", "lawyer", None),
              ("Bob Lee", "male", "Ann Lee", "doctor", None),
              ("Cara Diaz", "female", "Dan Diaz", "nurse", "Mercy Clinic"),
              ("Dan Diaz", "male", "Cara Diaz", "engineer", "Acme Steel"),
              ("Eve Ray", "female", "Gus Ray", "teacher", "Hill School"),
              ("Gus Ray", "male", "Eve Ray", "pilot", "Sky Lines")]  # fmt: skip
    for name, gender, spouse, job, firm in people:
        rows += [(name, "gender", gender), (name, "spouse", spouse), (name, "profession", job)]
        if firm:
            rows.append((name, "employer", firm))
    engine = _imported(tmp_path, "couples", rows)
    assert engine.ask("Ann Lee's husband's job", kb="couples").answer_labels == ["doctor"]
    assert engine.ask("Cara Diaz's husband's job", kb="couples").answer_labels == ["Acme Steel"]


def tiny_engine(tmp_path: Path, triples: str, name: str) -> Engine:
    """A workspace holding one small KB written in the test (TSV triples), imported as `name`."""
    kb = tmp_path / "kb.tsv"
    kb.write_text(triples, encoding="utf-8")
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(kb, name=name)
    return Engine(workspace)


FIELDS = """\
Ida Berg\tfield_of_work\tplasma physics
Ida Berg\tcountry_of_citizenship\tNorway
Ola Dahl\tfield_of_work\tgeology
Ola Dahl\tcountry_of_citizenship\tNorway
Kim Vos\tfield_of_work\tgeology
Kim Vos\tcountry_of_citizenship\tNetherlands
Lea Mol\tfield_of_work\tchemistry
Lea Mol\tcountry_of_citizenship\tNetherlands
Lea Mol\tinstrument\tpiano
Ida Berg\tauthor_of\tOn Sediments
On Sediments\tpublished_in\tRock Letters
Rock Letters\tinstance_of\tjournal
On Sediments\tinstance_of\tpaper
""" + "".join(f"{n}\tinstance_of\tscientist\n" for n in ("Ida Berg", "Ola Dahl", "Kim Vos",
                                                        "Lea Mol")) + \
    "".join(f"{n}\tinstance_of\tfield\n" for n in ("plasma physics", "geology", "chemistry")) + \
    "Norway\tinstance_of\tcountry\nNetherlands\tinstance_of\tcountry\n"


@pytest.mark.parametrize(
    ("noun", "label"),
    [("geologists", "geology"), ("plasma physicists", "plasma physics"),
     ("chemist", "chemistry"), ("pianists", "piano")],
)
def test_a_practitioner_noun_links_the_practice_the_kb_names(tmp_path: Path, noun: str,
                                                               label: str) -> None:  # fmt: skip
    engine = tiny_engine(tmp_path, FIELDS, "fields")
    kg = engine.kg("fields")
    qa = analyse(f"which {noun} are from Norway", kg)
    linked = {m.text: kg.label(m.ids[0]) for m in qa.entities}
    assert linked.get(noun) == label


def test_a_practitioner_noun_is_no_class_and_answers_by_its_field(tmp_path: Path) -> None:
    engine = tiny_engine(tmp_path, FIELDS, "fields")
    # "journalists" are no journals (a class the KB has)
    assert not any(m.text == "journalists"
                   for m in analyse("which journalists are Dutch", engine.kg("fields")).entities)
    asked = "which geologists are citizens of the Netherlands"
    assert engine.ask(asked, kb="fields").answer_labels == ["Kim Vos"]


ADVISORS = """\
Ana Lind\tdoctoral_advisor\tBo Sten
Bo Sten\tdoctoral_advisor\tCy Holm
Di Vik\tdoctoral_advisor\tBo Sten
Ana Lind\temployer\tUppsala University
Bo Sten\temployer\tLund University
Cy Holm\temployer\tLund University
Di Vik\temployer\tUppsala University
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [("whose doctoral advisor is Bo Sten?", {"Ana Lind", "Di Vik"}),
     ("Whose doctoral advisor is Ana Lind's advisor?", {"Ana Lind", "Di Vik"}),
     ("who is Bo Sten's doctoral advisor", {"Cy Holm"})],
)
def test_whose_walks_a_relation_without_an_inverse_backwards(
    tmp_path: Path, question: str, expected: set[str]
) -> None:
    engine = tiny_engine(tmp_path, ADVISORS, "advisors")
    assert set(engine.ask(question, kb="advisors").answer_labels) == expected


WORK = """\
Ana Lind\tfield_of_work\tgeology
Ana Lind\temployer\tLund University
Ana Lind\tplace_of_birth\tParis
Ana Lind\tyear_of_birth\t1970
Bo Sten\tfield_of_work\tchemistry
Bo Sten\temployer\tUppsala University
Bo Sten\tplace_of_birth\tLyon
Bo Sten\tyear_of_birth\t1962
Lund University\tlocated_in\tLund
Uppsala University\tlocated_in\tUppsala
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [("where does Ana Lind work?", "Lund University"),
     ("what field does Ana Lind work in", "geology"),
     ("where was Ana Lind born", "Paris"),
     ("when was Ana Lind born", "1970")],
)
def test_a_word_naming_only_the_complement_of_an_unasked_head_names_little(
    tmp_path: Path, question: str, expected: str
) -> None:
    """ "field of *work*" is no place: "where does X work" asks for the employer."""
    engine = tiny_engine(tmp_path, WORK, "work")
    assert engine.ask(question, kb="work").answer_labels == [expected]


def test_a_two_letter_acronym_names_a_two_word_relation(tmp_path: Path) -> None:
    """ "PI" is the principal investigator (its content words' initials), not "published in"."""
    engine = tiny_engine(tmp_path, "ORBIT\tprincipal_investigator\tAna Lind\n"
                         "On Rocks\tpublished_in\tRock Letters\nAna Lind\tauthor_of\tOn Rocks\n"
                         "ORBIT\tfunded_by\tSten Trust\n", "pi")  # fmt: skip
    kg = engine.kg("pi")
    qa = analyse("who is ORBIT's PI?", kg)
    row = [qa.words[t] for t in qa.word_tokens].index("pi")
    named = {kg.label(r) for r, c in zip(qa.semantics.rel_ids, qa.lexical[row], strict=True)
             if c > 0}  # fmt: skip
    assert named == {"principal investigator"}
    assert engine.ask("who is ORBIT's PI?", kb="pi").answer_labels == ["Ana Lind"]


AWARDS = """\
Ana Lind\taward_received\tWexley Medal
Bo Sten\taward_received\tWexley Medal
Cy Holm\taward_received\tTavener Prize
Ana Lind\teducated_at\tThistlewick College
Cy Holm\teducated_at\tThistlewick College
Di Vik\teducated_at\tThistlewick College
Bo Sten\teducated_at\tRudmoor College
Ana Lind\taward_received\tTavener Prize
"""


def test_the_noun_asked_about_is_said_by_a_constraint_s_relation(tmp_path: Path) -> None:
    """ "Wexley Medal *winners* educated at T": the winners are the answers, not their awards
    (the constraint's relation explains the noun; the loop stops there)."""
    engine = tiny_engine(tmp_path, AWARDS, "awards")
    trace = engine.ask("Wexley Medal winners educated at Thistlewick College?",
                                  kb="awards")  # fmt: skip
    assert trace.answer_labels == ["Ana Lind"]
    assert trace.steps[-1].reward >= 0.8  # "winners" explained: the judge is satisfied


ALUMNI = AWARDS + """\
Eva Berg\taward_received\tWexley Medal
Eva Berg\temployer\tThistlewick College
Eva Berg\teducated_at\tRudmoor College
Bo Sten\temployer\tThistlewick College
Di Vik\temployer\tRudmoor College
Ana Lind\temployer\tRudmoor College
Thistlewick College\tlocated_in\tLund
Rudmoor College\tlocated_in\tUppsala
""" + "".join(f"{n}\tinstance_of\tscientist\n" for n in ("Ana Lind", "Bo Sten", "Cy Holm",
                                                          "Di Vik", "Eva Berg")) + \
    "Thistlewick College\tinstance_of\tuniversity\nRudmoor College\tinstance_of\tuniversity\n"


def test_a_relational_noun_asked_about_is_said_by_the_constraint_not_a_class(
    tmp_path: Path,
) -> None:
    """ "the Thistlewick College *alumni* who won P": the noun reads like `educated at` (so the
    college constrains by it, not by `employer`) and like the class university — but it is
    said of the answers by that relation: no walk on to their universities."""
    engine = tiny_engine(tmp_path, ALUMNI, "alumni")
    trace = engine.ask("Name the Thistlewick College alumni who won the Wexley Medal",
                                  kb="alumni")  # fmt: skip
    assert trace.answer_labels == ["Ana Lind"]


INFLUENCES = """\
Ash Bay\tinfluenced by\tBlue Fern
Cold Elm\tinfluenced by\tBlue Fern
Blue Fern\tinfluenced by\tDry Oak
Dry Oak\tinfluenced by\tEast Ivy
""" + "".join(f"{n}\tinstance of\tband\n" for n in ("Ash Bay", "Blue Fern", "Cold Elm",
                                                     "Dry Oak", "East Ivy"))


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        ("Which bands were influenced by Blue Fern?", ["Ash Bay", "Cold Elm"]),
        ("Which bands did Blue Fern influence?", ["Ash Bay", "Cold Elm"]),
        ("Name the bands that were inspired by Blue Fern.", ["Ash Bay", "Cold Elm"]),
        ("Which bands influenced Blue Fern?", ["Dry Oak"]),
        ("Who was Blue Fern influenced by?", ["Dry Oak"]),
    ],
)
def test_a_verb_says_which_side_of_a_passive_label_its_name_is_on(
        tmp_path: Path, question: str, answers: list[str]) -> None:  # fmt: skip
    """`influenced by` has the doer for its object: the name after "by" or an active verb's
    subject is the doer (walked backwards), a passive's subject or an active verb's object
    the one influenced (forwards) — both ways read alike by meaning."""
    engine = tiny_engine(tmp_path, INFLUENCES, "bands")
    assert sorted(engine.ask(question, kb="bands").answer_labels) == answers


def test_a_name_compared_with_a_passive_subject_is_on_its_side(tmp_path: Path) -> None:
    """The music dev KB's tuning question: "influenced by the same bands as *X*" — X stands
    where the subject does (influenced, not influencing): X's influences, then the other
    bands they influenced (before: the bands X influenced, then their other influences)."""
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "music" / "kb.tsv"
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(dev_kb, name="music")
    trace = Engine(workspace).ask(
        "Which other bands were influenced by the same bands as Hidden Anchors?", kb="music")
    assert sorted(trace.answer_labels) == ["Gentle Tides", "The Electric Parades"]


def test_words_that_speak_of_the_present() -> None:
    assert says_now("what team is x on these days".split())
    assert says_now("which club is x at at the moment".split())
    assert not says_now("which teams did x play for in the past".split())
    assert not says_now("what days are these".split())


def test_the_encoder_does_not_bring_back_an_unsaid_former_sense_now(tmp_path: Path) -> None:
    """The football dev KB's tuning question: the contextual encoder reads "these days" close
    to `former club`; nothing says "former", and the question speaks of the present (fails
    without `says_now` in `_read_by_context`: CD Montjuic, his former club)."""
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(dev_kb, name="football")
    trace = Engine(workspace).ask("What team is Lucas Ibarra on these days?", kb="football")
    assert trace.answer_labels == ["Real Castellana"]


def _former_bands_kb() -> list[tuple[str, str, str]]:
    """Four singers, each in band A or B now and formerly in band C."""
    rows = [("Band A", "instance of", "band"), ("Band B", "instance of", "band"),
            ("Band C", "instance of", "band")]
    for i, singer in enumerate(("Ada Moss", "Bo Lind", "Cy Ray", "Di Park")):
        rows += [(singer, "member of", ("Band A", "Band B")[i % 2]),
                 (singer, "former member of", "Band C"), (singer, "born in", "Leeds")]
    return rows


def test_a_word_of_the_present_names_no_relation(tmp_path: Path) -> None:
    """ "Which band is X *currently* in": "currently" says when, not what — the static vectors
    read it nearest `former member of`, its opposite, and the band X left was answered; it
    is no relation word now (nor "these days", "at the moment")."""
    engine = _imported(tmp_path, "bands", _former_bands_kb())
    for question in ("Which band is Ada Moss currently in?",
                     "Which band is Ada Moss in these days?"):
        assert engine.ask(question, kb="bands").answer_labels == ["Band A"], question
    qa = analyse("Which band is Ada Moss currently in?", engine.kg("bands"))
    assert qa.words.index("currently") not in qa.word_tokens
    # on the music dev KB (my wording) the band she left was answered
    music = _dev_kb(tmp_path, "music", "kb.tsv")
    trace = music.ask("Which band is Lena Hofmann currently in?", kb="music")
    assert trace.answer_labels == ["The Static Anchors"]


def test_the_encoder_keeps_a_walk_back_that_others_are_asked_for(tmp_path: Path) -> None:
    """ "Who did X write papers *with*": "with" asks for others, and the leading plan walks
    X's papers back to their other authors; the contextual encoder read X's papers closer
    to the question and put them first (fails without `others` in `_read_by_context`)."""
    engine = _dev_kb(tmp_path, "science", "kb.tsv")
    trace = engine.ask("Who did Trevor MacLeod write papers with?", kb="science")
    assert trace.answer_labels == ["Carlo Pellegrini"]


def test_a_head_word_of_valued_labels_names_each_whatever_their_values_read_like(
        tmp_path: Path) -> None:  # fmt: skip
    """ "What *year* did paper P come out": "year" heads `publication year`, `founded year` and
    `birth year`, none of whose qualifiers the question says; which of them a bare "year"
    names cannot be told by what their years read like (a rule for kinds of things: a
    "team" is a club, not a national team) — `publication year` had been struck out, and the
    founding year of P's journal was answered (the science dev KB)."""
    engine = _dev_kb(tmp_path, "science", "kb.tsv")
    question = "what year did Towards Elliptic Colourings come out?"
    kg = engine.kg("science")
    qa = analyse(question, kg)
    assert {kg.label(r) for r in qa.unsaid_relations} & {"publication year"} == set()
    year = qa.word_tokens.index(qa.words.index("year"))
    sem = qa.semantics
    publication = next(r for r in sem.rel_ids if kg.label(r) == "publication year")
    assert qa.lexical[year, sem.code[publication]] > 0
    assert evidence_path(engine.ask(question, kb="science")) == "publication year"


def test_no_walk_goes_on_from_a_number_over_another_relation(tmp_path: Path) -> None:
    """ "What squad number has X been given": the walk to X's age (26) and on to the players
    whose shirt number is 26 led — a number met by chance under two measures; from a number
    the planner walks back over its own relation only (the football dev KB, my wording)."""
    engine = _dev_kb(tmp_path, "football", "kb.tsv")
    question = "What squad number has Stefano Esposito been given?"
    kg = engine.kg("football")
    planner = Planner(kg)
    sem = planner.sem
    for plan in planner.plans(analyse(question, kg), limit=60):
        for (rel, way), (after, back) in zip(plan.hops, plan.hops[1:], strict=False):
            if way == "out" and sem.kinds[sem.code[rel]] == "number":
                assert (after, back) == (rel, "in"), plan.hops
    assert engine.ask(question, kb="football").answer_labels == ["64"]


def test_a_value_has_nothing_the_noun_asked_about_names(tmp_path: Path) -> None:
    """ "What *number* does X wear": the ages the `age` hop reaches are, by chance, some
    players' shirt numbers too, so "number" was explained by what those values "have" — the
    age was answered. A value (a number, a year) has nothing of its own (`focus_has`)."""
    engine = _dev_kb(tmp_path, "football", "kb.tsv")
    question = "What number does Stefano Esposito wear?"
    kg = engine.kg("football")
    qa = analyse(question, kg)
    sem = qa.semantics
    age = 2 * sem.code[next(r for r in sem.rel_ids if kg.label(r) == "age")]
    assert focus_has(qa, qa.focus_row)[age] == -1.0
    assert engine.ask(question, kb="football").answer_labels == ["64"]


def test_a_verb_of_leaving_says_the_former_sense(tmp_path: Path) -> None:
    """ "Which band did X *leave*": what X left X was in before — the "former" sense, as
    "used to" says it — so `former member of`, though no word says "former"."""
    engine = _imported(tmp_path, "bands", _former_bands_kb())
    for question in ("Which band did Ada Moss leave?", "Which band has Ada Moss left?",
                     "Which band did Ada Moss quit?"):
        assert engine.ask(question, kb="bands").answer_labels == ["Band C"], question
    assert engine.ask("Which band is Ada Moss in?", kb="bands").answer_labels == ["Band A"]


def test_the_encoder_adds_no_hop_that_no_word_names(tmp_path: Path) -> None:
    """The business dev KB's tuning question: the graduates of U, then the firms whose CEO
    they are, names both hops ("alumnus", "CEO"); the encoder read a longer walk through
    their employers closer (`educated at → employer → …`, a hop no word names) and, the
    leader's words naming its hops only weakly, overturned it (fails without the
    unexplained-hops check in `_read_by_context`)."""
    engine = _dev_kb(tmp_path, "business", "kb.nt")
    question = "At which companies is the CEO an alumnus of Hartwell University?"
    trace = engine.ask(question, kb="business")
    assert sorted(trace.answer_labels) == sorted(_tuning_gold("business", question))
    assert evidence_path(trace) == "educated at → chief executive officer"


def test_a_person_noun_said_of_a_name_names_a_relation(tmp_path: Path) -> None:
    """ "X's *folks*" (the family dev KB's tuning question): a person noun asks for persons,
    but said of a name it names a relation of X as any noun does (WordNet: "folks", "your
    parents"); it had been left out of the relation words, and the walk went to X's
    siblings."""
    engine = _dev_kb(tmp_path, "family", "kb.tsv")
    assert sorted(engine.ask("name Victoria Walker's folks", kb="family").answer_labels) == \
        sorted(_tuning_gold("family", "name Victoria Walker's folks"))
    # ... said of a name: owned by it or right before its "of" — not "which *person* led X",
    # "what *people* think of X" (MetaQA NTM: the director, the rating — lost when a run of
    # words up to an "of" counted)
    kg = engine.kg("family")
    for question, noun in (("which person led Victoria Walker", "person"),
                           ("what people think of Victoria Walker", "people")):
        qa = analyse(question, kg)
        assert qa.words.index(noun) not in qa.word_tokens, question


def _tuning_gold(name: str, question: str) -> list[str]:
    """The gold answers of a dev set's tuning question."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / name / "questions.tsv"
    return next(line.split("\t")[1].split("|")
                for line in path.read_text(encoding="utf-8").splitlines()
                if line.split("\t")[0] == question)


def test_a_possessives_a_or_b_is_one_noun_phrase_not_a_choice(tmp_path: Path) -> None:
    """ "X's *husband or wife* plays in which band?" (the music dev KB's tuning question):
    the "or" joins two nouns said of X, no choice between two answers ("is X male *or*
    female") — read as one, the question asked to choose and the walk stopped at the
    spouse."""
    engine = _dev_kb(tmp_path, "music", "kb.tsv")
    kg = engine.kg("music")
    question = "Bruno Oliveira's husband or wife plays in which band?"
    assert analyse(question, kg).answer.wh != "choice"
    assert engine.ask(question, kb="music").answer_labels == _tuning_gold("music", question)
    assert analyse("is Bruno Oliveira male or female?", kg).answer.wh == "choice"


def test_a_where_question_left_partly_unexplained_walks_on_to_a_place(tmp_path: Path) -> None:
    """ "Where is X's band *based*?" (my wordings, music `questions_probe.tsv`): X's band is
    no place, and "based" names nothing the band hop explains — the walk goes on to where
    the band was formed; "where does X *work*" (the business KB's tuning question) is
    explained whole by the employer, which answers it."""
    music = _dev_kb(tmp_path / "music", "music", "kb.tsv")
    for question in ("Where is Lena Hofmann's band based?",
                     "Where was Lena Hofmann's band started?"):
        assert music.ask(question, kb="music").answer_labels == ["Dusseldorf"], question
    business = _dev_kb(tmp_path / "business", "business", "kb.nt")
    assert business.ask("Where does Megan Underwood work?", kb="business").answer_labels == [
        "Stormwave Marketplace"]


def test_how_old_says_no_past_and_did_use_to_does() -> None:
    """ "*How old* is the captain of X's club": an age, not the "old" of an old club (the
    captain of X's *former* club had been walked); "which band *did* X *use to* be in" is
    "used to" after "did" (own wordings, fourth batch) — not "what does X use to record"."""
    from core.text import PAST, word_senses
    assert word_senses("how old is the captain of x 's club".split(), 1) == set()
    assert word_senses("he is ten years old".split(), 4) == set()
    assert word_senses("who is x 's old club".split(), 4) == {PAST}
    assert word_senses("what band did x use to be in".split(), 4) == {PAST}
    assert word_senses("what does x use to record".split(), 3) == set()


def test_before_says_the_past_unless_said_of_a_year() -> None:
    from core.text import PAST, word_senses
    assert word_senses("where did x play before his current club".split(), 4) == {PAST}
    assert word_senses("films released before 2005".split(), 2) == set()
    assert word_senses("films released before the year 2005".split(), 2) == set()


FIRMS_OWNED = """\
Delmar Industries\tsubsidiary\tKell Tools
Delmar Industries\tsubsidiary\tOrra Foods
Kell Tools\tparent organization\tDelmar Industries
Orra Foods\tparent organization\tDelmar Industries
Kell Tools\tcountry\tNorway
Orra Foods\tcountry\tSweden
"""


@pytest.mark.parametrize(("question", "parts"), [
    # the noun asked about *is* the outermost part: one node, no hop of its own
    ("Which company is the parent of the companies that Delmar Industries owns?", 2),
    # ... but where a preposition puts it elsewhere, a hop beyond the clause
    ("In which country is the company that Delmar Industries owns?", 2),
])  # fmt: skip
def test_the_noun_asked_about_said_to_be_the_chain_s_head_is_no_hop(
        tmp_path: Path, question: str, parts: int) -> None:  # fmt: skip
    engine = tiny_engine(tmp_path, FIRMS_OWNED, "owned")
    qa = analyse(question, engine.kg("owned"))
    assert chain_length(qa, qa.entities[0]) == parts



ADVISED = """\
Ada Lind\tdoctoral_advisor\tBo Ek
Cy Holm\tdoctoral_advisor\tBo Ek
Bo Ek\tdoctoral_advisor\tDag Ros
Ada Lind\temployer\tNorrvik Institute
Cy Holm\temployer\tHalden College
Bo Ek\temployer\tMalmo University
Dag Ros\temployer\tOslo University
"""


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        # `doctoral advisor` has the doer for its object: the people *Bo Ek advised* are
        # those whose advisor he is, not his own advisor
        ("the institutions that employ people Bo Ek advised", ["Halden College",
                                                                "Norrvik Institute"]),
        ("Who advised Bo Ek?", ["Dag Ros"]),
    ],
)
def test_an_agent_noun_label_has_the_doer_for_its_object(
        tmp_path: Path, question: str, answers: list[str]) -> None:  # fmt: skip
    engine = tiny_engine(tmp_path, ADVISED, "advisors")
    assert sorted(engine.ask(question, kb="advisors").answer_labels) == answers


def test_which_side_a_label_says_does_its_verb() -> None:
    from core.analysis import label_doer
    assert label_doer("influenced by") and label_doer("doctoral advisor")
    assert label_doer("author of") is False
    assert label_doer("plays for club") is None and label_doer("spouse") is None


def test_what_a_hop_reaches_is_named_by_the_class_the_kb_gives_it(tmp_path: Path) -> None:
    """The nodes a hop reaches are of the kind the KB's class relation says most of them are
    ("Oslo" `instance of` city), though no relation's name says "city" (`formed in`): from
    bands, `formed in` reaches cities, so "which *city* …" is explained by that hop."""
    rows = [("The Reds", "formed in", "Oslo"), ("The Blues", "formed in", "Lima"),
            ("Blue Sky", "performer", "The Reds"), ("Grey Rain", "performer", "The Blues"),
            ("Ann Vale", "born in", "Oslo"), ("Oslo", "located in", "Norway"),
            ("Lima", "located in", "Peru"), ("Oslo", "instance of", "city"),
            ("Lima", "instance of", "city"), ("Norway", "instance of", "country"),
            ("Peru", "instance of", "country"), ("The Reds", "instance of", "band"),
            ("The Blues", "instance of", "band"), ("Blue Sky", "instance of", "album"),
            ("Grey Rain", "instance of", "album"),
            ("Ann Vale", "instance of", "musician")]  # fmt: skip
    engine = _imported(tmp_path, "bands", rows)
    sem = semantics_for(engine.kg("bands"))
    code = {engine.kg("bands").label(r): 2 * i for i, r in enumerate(sem.rel_ids)}
    assert "citi" in sem.kind_after(code["performer"], code["formed in"])
    assert "countri" in sem.kind_after(code["formed in"], code["located in"])
    assert "citi" not in sem.kind_after(code["formed in"], code["located in"])


def test_a_band_s_city_is_where_it_was_formed(tmp_path: Path) -> None:
    """The music dev KB's tuning question: the walk from a track to its album's band and on to
    the city it was formed in — "city" named by the class of what `formed in` reaches (before:
    the track's writer)."""
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "music",
                       "Which city does the band that recorded Letters to Teddy come from?")
    assert evidence_path(trace).startswith("track of → performer → formed in")


def test_a_class_no_label_names_is_asked_for_by_what_the_walk_reaches(tmp_path: Path) -> None:
    """ "which *universities* did X's supervisor attend": no relation's name says
    "university", but the KB's class relation does (each an `instance of` university). The
    noun is read as that kind, explained where the walk arrives at nodes of it — the
    supervisor's schools, not the institutions that employ them (science tuning question)."""
    from tests.test_lexnet import ask_dev_kb

    question = "Which universities did Álvaro Castillo's supervisor attend?"
    trace = ask_dev_kb(tmp_path, "science", question)
    assert evidence_path(trace).startswith("doctoral advisor → educated at")
    qa = analyse(question, Engine(Workspace(tmp_path / "home")).kg("science"))
    assert qa.kind_focus is not None and "universiti" in qa.kind_focus[2]


def test_an_agent_noun_asked_about_names_a_class_itself_or_by_its_genus(tmp_path: Path) -> None:
    """ "which *scientists* head laboratories belonging to T" (science tuning question): an
    agent noun that is a class of the KB is a kind noun too — the walk to the labs' directors,
    each an `instance of` scientist (before: the college's alumni). "*researchers*" names
    that class by its dictionary genus ("a scientist who devotes himself to doing research")."""
    from tests.test_lexnet import ask_dev_kb

    question = "Which scientists head laboratories belonging to Royal Vessingham College?"
    trace = ask_dev_kb(tmp_path, "science", question)
    assert evidence_path(trace).startswith("part of → director")
    kg = Engine(Workspace(tmp_path / "home")).kg("science")
    qa = analyse("which researchers lead projects funded by the Ostrova Foundation", kg)
    assert qa.kind_focus is not None and "scientist" in qa.kind_focus[2]


def test_a_verb_said_with_its_own_agent_noun_names_what_the_noun_names(tmp_path: Path) -> None:
    """ "who *supervised* X's *supervisor*" (science tuning question): "supervisor" is the
    KB's `doctoral advisor` (0.53), while "supervised" alone reads `director` (WordNet's
    "supervise" is "direct"); said together, the verb is the noun's doer — two advisor
    hops, not the advisor alone."""
    from tests.test_lexnet import ask_dev_kb

    question = "who supervised Lauren Hendricks' supervisor"
    trace = ask_dev_kb(tmp_path, "science", question)
    assert evidence_path(trace) == "doctoral advisor → doctoral advisor"
    qa = analyse(question, Engine(Workspace(tmp_path / "home")).kg("science"))
    verb, noun = (qa.word_tokens.index(qa.words.index(w)) for w in ("supervised", "supervisor"))
    assert (qa.scores[verb] == qa.scores[noun]).all()


def test_how_many_years_asks_for_a_length_of_time_not_a_date(tmp_path: Path) -> None:
    """ "how many *years* has X been alive": a number of years (X's age), not a year the walk
    reaches (his club's founding year) — a year answers "when", not "how many years"."""
    rows = [("Ann Lee", "plays for club", "Lyon FC"), ("Bo Ray", "plays for club", "Nice FC"),
            ("Ann Lee", "age", "29"), ("Bo Ray", "age", "31"),
            ("Lyon FC", "founded year", "1950"), ("Nice FC", "founded year", "1904"),
            ("Lyon FC", "captain", "Ann Lee"), ("Nice FC", "captain", "Bo Ray")]  # fmt: skip
    engine = _imported(tmp_path, "ages", rows)
    kg = engine.kg("ages")
    assert literal_kinds(analyse("how many years has Ann Lee been alive", kg)) == ("number",)
    assert literal_kinds(analyse("how many clubs has Ann Lee played for", kg)) == ("number", "year")
    assert engine.ask("how many years has Ann Lee been alive", kb="ages").answer_labels == ["29"]


def test_a_verb_keeps_its_reading_beside_the_agent_noun_asked_about(tmp_path: Path) -> None:
    """ "which *workers* worked at A": the noun asked about says what the answers are (its
    relation readings are set aside), so the verb of its stem keeps its own reading rather
    than taking the noun's (item 200 reads a verb as its agent noun elsewhere)."""
    rows = [("Ann Lee", "employer", "Acme Works"), ("Bo Ray", "employer", "Bolt Forge"),
            ("Ann Lee", "profession", "welder"), ("Bo Ray", "profession", "clerk"),
            ("Acme Works", "located in", "Lyon"), ("Bolt Forge", "located in", "Nice")]
    engine = _imported(tmp_path, "staff", rows)
    qa = analyse("which workers worked at Acme Works", engine.kg("staff"))
    verb = qa.word_tokens.index(qa.words.index("worked"))
    assert qa.scores[verb].max() > 0


def test_the_question_word_before_a_possessive_chain_opens_no_relative_clause(family) -> None:
    """ "*who* are X's son's mum and dad": "who" is the question's own word, not a relative
    pronoun before the topic ("the films *that* X starred in"), so the words after the chain
    are walked after it — the son first, then his parents (X among them), not X's parents'
    children read backwards (`order_ranks`; the family dev KB's tuning question)."""
    assert sorted(answers(family, "who are Ann Lee's son's mum and dad")) == ["Ann Lee", "Bob Lee"]


def test_the_noun_asked_about_that_ends_the_chain_is_no_hop_of_its_own(tmp_path: Path) -> None:
    """The science dev KB's tuning question: in "X's supervisor's *institution*?" the noun
    asked about is the chain's last part, so it is that part's hop — two in all, not a third
    because its kind is not what the supervisor's relation reaches (`chain_length`; it had
    walked to the supervisor's supervisor's employer)."""
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "science", "Benoît Morel's supervisor's institution?")
    assert evidence_path(trace) == "doctoral advisor → employer"


def test_a_plural_after_a_noun_heads_what_which_of_asks_for(family) -> None:
    """ "which of X's *club teammates* …": the plural heads the noun phrase, so the teammates
    are asked for, not a club (`_next_content`; the football dev KB's tuning question had
    answered the national teammates' clubs)."""
    qa = analyse("which of Dan Lee's work colleagues were born in Paris", family.kg("family"))
    assert qa.words[qa.answer.focus] == "colleagues"
    qa = analyse("which of Dan Lee's parents was born in Paris", family.kg("family"))
    assert qa.words[qa.answer.focus] == "parents"


def test_the_last_part_of_a_chain_names_the_last_hop_or_none(tmp_path: Path) -> None:
    """ "who are X's nephews" reads "who are X's sibling's *sons*": "sons" names no relation
    by its form, and the order rule (`nearest_relation`) had taken the part before it
    (`sibling`) for the last hop — X's parents' siblings. The last part of a possessive chain
    that ends the question names the last hop or, read too weakly, none."""
    from tests.test_lexnet import ask_dev_kb

    trace = ask_dev_kb(tmp_path, "family", "who are Charlotte Hall's nephews")
    assert evidence_path(trace).startswith("sibling → ")


def test_a_word_defined_as_a_term_for_another_is_read_as_that_word(family) -> None:
    """ "X's *missus*": the word vectors and its synonyms ("missis") read nothing; the
    dictionary calls it an "informal term of address for someone's *wife*", and it is read as
    "wife" is (`_synonym_scores`) — the spouse's job, not X's."""
    trace = family.ask("what is Bob Lee's missus's profession", kb="family")
    assert trace.answer_labels == ["lawyer"]


def test_a_role_said_of_the_name_is_owned_by_the_answer(family) -> None:
    """ "who is Dan Lee the child of": Dan Lee is the child, so the answers own the role —
    his parents, `child` walked backwards (`_role_of_the_name`), not his children's (or his)
    `child` walked on; the business dev KB's "which company is X the *CEO* of" alike."""
    trace = family.ask("who is Dan Lee the child of", kb="family")
    assert sorted(trace.answer_labels) == ["Ann Lee", "Bob Lee"]


@pytest.mark.parametrize(
    ("question", "first", "then"),
    [
        ("who did Dan Lee's mother marry", "mother", "marry"),
        ("where did Dan Lee's father study", "father", "study"),
    ],
)
def test_a_do_questions_verb_comes_after_the_chain(family, question: str, first: str,
                                                   then: str) -> None:  # fmt: skip
    """ "who did X's daughter *marry*": the verb after the subject is the outermost step, not
    one more word of the possessive chain's last part (the family wordings walked the spouse,
    then the children)."""
    assert _walked_before(family, question, first, then)


def _walked_before(engine: Engine, question: str, first: str, then: str) -> bool:
    """Does the question's structure (`order_ranks`) walk the word `first` before `then`?"""
    from core.chain import order_ranks

    qa = analyse(question, engine.kg("family"))
    rank = order_ranks(qa, qa.entities[0])
    return bool(rank[qa.words.index(first)] < rank[qa.words.index(then)])


@pytest.mark.parametrize(
    ("question", "inner", "outer"),
    [
        ("where is the firm that Dan Lee's brother works for based", "brother", "based"),
        ("the city where Dan Lee's mother works at her firm", "works", "firm"),
    ],
)
def test_a_relative_clause_ends_at_its_stranded_preposition(family, question: str, inner: str,
                                                            outer: str) -> None:  # fmt: skip
    """ "where is the firm that X's brother works *for* based": the clause around the topic
    ends at the preposition its verb strands; "based" is the main clause's, the outermost
    step — not, with the clause's verb, the innermost (the family own wordings' third batch
    stopped at the brother's firm; the football tuning question "the city where Japan's
    skipper plays for *his club*" walked the country's clubs)."""
    assert _walked_before(family, question, inner, outer)


@pytest.mark.parametrize(
    ("question", "hops"),
    [("where was the founder of the firm Ann Lee works for born", 3),
     ("where was the founder of the firm that Ann Lee works for born", 3),
     ("where was the firm Ann Lee works for headquartered", 2),
     # ... or, after "do", its plain form (the music dev KB's tuning question "when did the
     # group X plays with *get* started")
     ("where did the man Ann Lee lives with get born", 2)],
)  # fmt: skip
def test_a_participle_after_a_clause_s_stranded_preposition_is_the_main_verb(
        family, question: str, hops: int) -> None:  # fmt: skip
    """ "where was the director of the lab X works *in* *born*": the clause around the topic
    ends at the preposition its verb strands, and the participle after it is the question's
    own verb — a hop beyond the clause's head and the "of" part around it (the science own
    wordings' third batch counted none, and answered where X was born)."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.slow  # imports a dev KB
@pytest.mark.parametrize(
    ("question", "hops", "path"),
    [("which town is Aaron Lambert's team from", 2, "plays for club → based in"),
     ("what city is Alberto Aguirre's club in", 2, "plays for club → based in"),
     ("which town is Marcus Dawson from", 0, "birth city"),
     ("where is Aaron Lambert's club's manager from", 3,
      "plays for club → manager → coach nationality")],
)  # fmt: skip
def test_a_preposition_left_at_the_end_of_a_possessive_chain_is_a_hop(
        tmp_path: Path, question: str, hops: int, path: str) -> None:  # fmt: skip
    """ "which town is X's team *from*": the chain is the copula's subject, and the
    preposition left at the end relates its last part to the answer — a hop beyond X's team
    (`chain_length` 2), not X's own birth city; and a plan over `former club`, which the
    encoder reads a little closer, does not overtake the present one by that reading (the
    football dev KB's tuning questions answered the player's birth city). No word names
    that hop (`stranded_hop`): "where is X's club's *manager* from" still may not end by
    walking back over the relation "manager" took. (A KB written here let the one-hop walk
    to the club win: its few clubs read as towns.)"""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "football" / "kb.tsv"
    engine = engine_over(tmp_path, dev_kb, "football")
    qa = analyse(question, engine.kg("football"))
    assert chain_length(qa, qa.entities[0]) == hops
    assert evidence_path(engine.ask(question, kb="football")) == path


def test_a_cue_possessed_after_a_verb_of_who_asks_for_no_peers(tmp_path: Path) -> None:
    """ "who founded X's *rival*": the rival is met on the way (X's competitor, then its
    founder), not what "who" asks for — a founder is no company like X, so a plan ending on
    X's kind had to win (the walk to the companies sharing the rival's founder). After a
    copula, "who are X's *rivals*", the cue says what the answers are. (Own wordings, sixth
    batch, on the business dev KB.)"""
    rows = [("Acme Works", "competitor", "Bolt Forge"), ("Bolt Forge", "competitor", "Acme Works"),
            ("Acme Works", "founded by", "Ada Lind"), ("Bolt Forge", "founded by", "Ben Ray"),
            ("Crest Mills", "founded by", "Ben Ray"), ("Crest Mills", "competitor", "Dune Labs"),
            ("Dune Labs", "founded by", "Di Park"), ("Dune Labs", "competitor", "Crest Mills")]
    engine = _imported(tmp_path, "rivals", rows)
    kg = engine.kg("rivals")
    assert not analyse("who founded Acme Works's rival", kg).asks_for_peers
    assert analyse("who are Acme Works's rivals", kg).asks_for_peers
    assert engine.ask("who founded Acme Works's rival", kb="rivals").answer_labels == ["Ben Ray"]


@pytest.mark.parametrize(
    ("question", "hops"),
    [("where is the headquarters of the company Ann Lee's wife works for", 3),
     ("where is the headquarters of the company that Ann Lee's wife works for", 3),
     ("what is the company Ann Lee's brother's wife works for", 3),
     # ... not where no noun phrase stands before the chain ("where did X's wife study")
     ("where did Ann Lee's wife study", 2)],
)  # fmt: skip
def test_a_possessive_chain_as_the_subject_of_a_relative_clause_is_read_whole(
        family, question: str, hops: int) -> None:  # fmt: skip
    """ "the headquarters of the company [X's wife] works for": the possessive chain is the
    clause's subject — a hop per part, then the clause's head and the "of" part around it
    (the family own wordings' sixth batch counted two, and walked from X's own employer)."""
    qa = analyse(question, family.kg("family"))
    topic = next(m for m in qa.entities if m.text == "Ann Lee")
    assert chain_length(qa, topic) == hops


@pytest.mark.slow  # imports a dev KB
def test_a_noun_the_dictionary_defines_as_a_person_asks_for_people(tmp_path: Path) -> None:
    """ "list the *graduates* of the university X attended": the static vector of
    "graduates" sits near the universities, so the walk stopped at X's university, typed as
    what was asked; the dictionary defines a graduate as "a person who has received a
    degree", so people are asked for — the university's graduates, X among them. Only the
    head of its phrase: "which *national* team" asks for a team, though a national is a
    person. (Own wordings, eighth batch, on the family dev KB.)"""
    from core import lexnet

    assert lexnet.names_a_person("graduates") and lexnet.names_a_person("employees")
    assert not lexnet.names_a_person("universities") and not lexnet.names_a_person("team")
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "family" / "kb.tsv"
    engine = engine_over(tmp_path, dev_kb, "family")
    trace = engine.ask("list the graduates of the university Marta Ruiz attended", kb="family")
    assert evidence_path(trace) == "education → education"  # (there and back)
    assert "Marta Ruiz" in trace.answer_labels
    qa = analyse("which national team does Marta Ruiz coach", engine.kg("family"))
    assert not _asks_for_people(qa)


@pytest.mark.slow  # imports a dev KB
@pytest.mark.parametrize("question", [
    "Which companies have a CEO who went to a university in Toronto?",
    "Which companies have chief executives who graduated from universities in Toronto?",
])  # fmt: skip
def test_a_noun_the_answers_own_by_an_article_is_named_backwards_by_form(
        tmp_path: Path, question: str) -> None:  # fmt: skip
    """ "companies that have *a CEO* who studied at a university in Y": the answers own the
    CEO, so the walk from Y arrives at the companies over `chief executive officer`
    backwards — by the word's meaning that was read already, by its form ("CEO" is the
    label's acronym) it was not, and the walk lost to the companies based in Y. A plural
    after "have" or "with" is owned the same way ("have *chief executives* who …"). (The
    business dev KB's tuning questions "What companies have a CEO who studied at a
    university in Geneva?")"""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "business" / "kb.nt"
    engine = engine_over(tmp_path, dev_kb, "business")
    trace = engine.ask(question, kb="business")
    assert evidence_path(trace) == "located in → educated at → chief executive officer"


@pytest.mark.slow  # imports a dev KB
def test_a_four_letter_past_in_ied_is_a_verb_form(tmp_path: Path) -> None:
    """ "the country in which the father of X *died*": "died" is a past tense (of "die"),
    the predicate after "the father of X" — a hop of its own (`chain_length` 2); four-letter
    words in "-ed" otherwise are not ("seed", "shed")."""
    from core.analysis import verb_form
    from tests.test_lexnet import engine_over

    assert verb_form("died") and verb_form("tied")
    assert not verb_form("seed") and not verb_form("shed") and not verb_form("need")
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "family" / "kb.tsv"
    kg = engine_over(tmp_path, dev_kb, "family").kg("family")
    qa = analyse("the country in which the father of Marta Ruiz died", kg)
    assert chain_length(qa, qa.entities[0]) == 2


@pytest.mark.parametrize("question", ["what is Ann Lee's number", "what is Ann Lee's locker number",
                                      "what is the number of Ann Lee"])
def test_a_label_head_in_er_asked_about_names_its_objects(tmp_path: Path, question: str) -> None:
    """ "X's *number*" asks for the objects of `locker number`, whose label's head the noun
    is: ending in "-er" made it an agent noun, read as whoever has a number (the members,
    reached back over any relation of theirs: "X's jersey number" walked to X's national
    team's captain). An agent noun that names a label by its verb still names the doers:
    "which *players* …" are whoever plays for the club. (Own wordings on the football dev KB.)"""
    rows = []
    for n, (name, club, locker) in enumerate((("Ann Lee", "Hill Club", "14"),
                                              ("Ben Ray", "Hill Club", "7"),
                                              ("Cy Moss", "Lake Club", "22"))):
        rows += [(name, "locker number", locker), (name, "plays for club", club),
                 (name, "member since", str(2001 + n))]
    rows += [("Hill Club", "captain", "Ben Ray"), ("Lake Club", "captain", "Cy Moss")]
    engine = _imported(tmp_path, "lockers", rows)
    trace = engine.ask(question, kb="lockers")
    assert (evidence_path(trace), trace.answer_labels) == ("locker number", ["14"])
    assert set(engine.ask("which players play for Hill Club", kb="lockers").answer_labels) \
        == {"Ann Lee", "Ben Ray"}  # fmt: skip


@pytest.mark.slow  # imports a dev KB
def test_who_and_the_verb_it_names_best_may_ask_for_a_firm(tmp_path: Path) -> None:
    """ "who *owns* X": the verb names `parent organization` best of all the KB's relations,
    and parent firms do what labels say is done (people work for them) — so "who" is
    answered by the owner, not by walking on to the person who founded it. A noun phrase
    after "who is the" still asks for people. (The business dev KB's tuning questions "Who
    owns X?"; asked here of another firm.)"""
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "business" / "kb.nt"
    engine = engine_over(tmp_path, dev_kb, "business")
    trace = engine.ask("who owns Redpath Foods", kb="business")
    assert trace.answer_labels == ["Vantor Holdings"]
    trace = engine.ask("who is the founder of Redpath Foods' parent organization", kb="business")
    assert evidence_path(trace) == "parent organization → founded by"


@pytest.mark.parametrize(("question", "hops"),
                         [("where is Ann Lee's employer based", 2),
                          ("where is Ann Lee's employer located", 2),
                          # ... and no hop more where no participle ends the question
                          ("who is Ann Lee's employer", 1)])  # fmt: skip
def test_a_participle_ending_a_copula_question_is_a_hop_beyond_the_chain(
        tmp_path: Path, question: str, hops: int) -> None:  # fmt: skip
    """ "where is X's employer *based*": the chain is the copula's subject and the participle
    ending the question says where it is — a hop beyond X's employer, however weakly "based"
    names `headquarters city` (the walk stopped at the employer). (Own wordings, ninth batch,
    on the family dev KB.)"""
    rows = [("Ann Lee", "employer", "Acme Works"), ("Ben Ray", "employer", "Bolt Forge"),
            ("Acme Works", "headquarters city", "Leeds"),
            ("Bolt Forge", "headquarters city", "Hull"),
            ("Ann Lee", "place of birth", "York"), ("Ben Ray", "place of birth", "Bath"),
            ("Ann Lee", "spouse", "Ben Ray"), ("Ben Ray", "spouse", "Ann Lee")]
    engine = _imported(tmp_path, "firms", rows)
    qa = analyse(question, engine.kg("firms"))
    assert chain_length(qa, qa.entities[0]) == hops
    if hops == 2:
        trace = engine.ask(question, kb="firms")
        assert (evidence_path(trace), trace.answer_labels) == ("employer → headquarters city",
                                                               ["Leeds"])  # fmt: skip


@pytest.mark.parametrize("question", ["who coaches Hill United", "who is the coach of Hill United"])
def test_a_word_reads_the_topics_own_relation_it_shares_a_sense_with(tmp_path: Path,
                                                                     question: str) -> None:
    """ "who *coaches* X", X a club: the word's form names `head coach` best, which no club
    has (national teams do); the club's own `manager` shares a dictionary sense with it, so
    the manager explains the word — not a walk through the club's country to the national
    team's head coach. A national team is still asked for its head coach. (Own wordings,
    ninth batch, on the football dev KB.)"""
    rows = [("Hill United", "manager", "Ann Lee"), ("Lake Rovers", "manager", "Ben Ray"),
            ("Norland", "head coach", "Cy Moss")]
    rows += [(club, "club country", "Norland") for club in ("Hill United", "Lake Rovers")]
    rows += [(coach, "coach nationality", "Norland") for coach in ("Ann Lee", "Ben Ray", "Cy Moss")]
    engine = _imported(tmp_path, "coaches", rows)
    trace = engine.ask(question, kb="coaches")
    assert (evidence_path(trace), trace.answer_labels) == ("manager", ["Ann Lee"])
    assert engine.ask("who coaches Norland", kb="coaches").answer_labels == ["Cy Moss"]


def test_a_verb_said_of_the_noun_asked_about_is_explained_where_the_walk_reaches_it(
        tmp_path: Path) -> None:  # fmt: skip
    """ "what *papers* did X *publish*": the papers are what the verb is said of (each is
    `published in` a journal) — the walk to X's papers explains "publish", as a last hop on
    a year explains "when was X founded". The walk to X's journals and back to every paper
    in them did before. Not where the topic takes part in what the verb names ("which film
    did X *write*": over `written by`, not over `directed by` to films, which are written).
    (Own wordings, ninth batch, on the science dev KB.)"""
    rows = []
    written = (("Ann Lee", "Hill Letters"), ("Ann Lee", "Lake Review"),
               ("Ben Ray", "Hill Letters"), ("Cy Moss", "Lake Review"))
    for n, (author, journal) in enumerate(written):
        paper = f"Paper {n + 1}"
        rows += [(author, "author of", paper), (paper, "published in", journal)]
    # ... and where the topic takes part in what the verb names, the walk is over it
    rows += [("Film 1", "written by", "Dee Orr"), ("Film 1", "directed by", "Dee Orr"),
             ("Film 2", "written by", "Eve Hale"), ("Film 2", "directed by", "Dee Orr")]
    engine = _imported(tmp_path, "papers", rows)
    trace = engine.ask("what papers did Ann Lee publish", kb="papers")
    assert (evidence_path(trace), sorted(trace.answer_labels)) == ("author of",
                                                                   ["Paper 1", "Paper 2"])
    trace = engine.ask("which film did Dee Orr write", kb="papers")
    assert (evidence_path(trace), trace.answer_labels) == ("written by", ["Film 1"])
