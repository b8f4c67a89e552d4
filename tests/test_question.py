"""Question analysis: entity mentions (brackets are a hint only), relation words, answer type."""

from __future__ import annotations

import pytest

from core.engine import Engine
from core.kg.store import KnowledgeGraph
from core.question import analyse

MOVIE = "https://knowloop.dev/kb/metaqa/"


def top_entity(question: str, kg: KnowledgeGraph) -> str:
    qa = analyse(question, kg)
    assert qa.entities, f"no entity found in {question!r}"
    return kg.label(qa.entities[0].ids[0])


def relation_labels(question: str, kg: KnowledgeGraph) -> set[str]:
    return {kg.label(m.rel_id) for m in analyse(question, kg).relation_mentions}


# -- entities ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "entity"),
    [
        ("what movies did Temuera Morrison act in", "Temuera Morrison"),
        ("what movies did [Temuera Morrison] act in", "Temuera Morrison"),
        ("who directed Black Snake Moan", "Black Snake Moan"),
        (
            "the films that share directors with the film Black Snake Moan were in which genres",
            "Black Snake Moan",
        ),
    ],
)
def test_entity_mentions_found_without_brackets(
    metaqa_kg: KnowledgeGraph, question: str, entity: str
) -> None:
    assert top_entity(question, metaqa_kg) == entity


def test_lower_case_title_links_the_whole_name(metaqa_engine: Engine) -> None:
    question = "who directed black snake moan?"
    assert top_entity(question, metaqa_engine.kg()) == "Black Snake Moan"
    assert metaqa_engine.ask(question).answer_labels == ["Craig Brewer"]


def test_longest_name_beats_its_parts(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse("who directed Black Snake Moan", metaqa_kg)
    best = qa.entities[0]
    assert (best.text, best.start, best.end) == ("Black Snake Moan", 2, 5)
    assert best.capitalized and not best.bracketed
    assert metaqa_kg.label(best.ids[0]) == "Black Snake Moan"


def test_brackets_raise_the_link_score(metaqa_kg: KnowledgeGraph) -> None:
    plain = analyse("what movies did Temuera Morrison act in", metaqa_kg).entities[0]
    marked = analyse("what movies did [Temuera Morrison] act in", metaqa_kg).entities[0]
    assert marked.bracketed and not plain.bracketed
    assert marked.link_score > plain.link_score


@pytest.mark.parametrize(
    "question",
    [
        "[what] movies did Temuera Morrison act in",  # brackets around the wrong words
        "what movies did [Temuera] Morrison act in",  # brackets around part of the name
        "what movies did [temuera morrison] act in",  # bracketed, lower case
    ],
)
def test_brackets_are_only_a_hint(metaqa_engine: Engine, question: str) -> None:
    assert top_entity(question, metaqa_engine.kg()) == "Temuera Morrison"
    trace = metaqa_engine.ask(question)
    assert set(trace.answer_labels) == {"Once Were Warriors", "Tracker", "River Queen"}


def test_bracketed_misspelling_fails_gracefully(metaqa_engine: Engine) -> None:
    trace = metaqa_engine.ask("what movies did [Temuera Morrisson] act in")
    if trace.answers:  # found through another signal: then it must be the right person
        assert set(trace.answer_labels) == {"Once Were Warriors", "Tracker", "River Queen"}
    else:
        assert trace.stop_reason.startswith("no answer found")
        assert trace.error is None


def test_entities_on_another_kb(football_kg: KnowledgeGraph) -> None:
    qa = analyse("who plays position Goalkeeper for club Manchester City", football_kg)
    names = {football_kg.label(m.ids[0]) for m in qa.entities if m.capitalized}
    assert {"Goalkeeper", "Manchester City"} <= names


def test_no_entity_in_question(metaqa_kg: KnowledgeGraph) -> None:
    assert analyse("xyzzy plugh frobnicate", metaqa_kg).entities == []


# -- relation words ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("who directed Black Snake Moan", "directed by"),
        ("who is the director of Black Snake Moan", "directed by"),
        ("what movies did Temuera Morrison act in", "starred actors"),
        ("who wrote Black Snake Moan", "written by"),
        ("when was Black Snake Moan released", "release year"),
        ("what genres is Black Snake Moan", "has genre"),
    ],
)
def test_relation_mentions_metaqa(metaqa_kg: KnowledgeGraph, question: str, relation: str) -> None:
    assert relation in relation_labels(question, metaqa_kg)


@pytest.mark.parametrize(
    ("question", "relation"),
    [
        ("where was Erling Haaland born", "born in"),
        ("who coaches Arsenal", "coached by"),
        ("where is Arsenal based", "based in"),
        ("what position does Ederson play", "plays position"),
    ],
)
def test_relation_mentions_football(
    football_kg: KnowledgeGraph, question: str, relation: str
) -> None:
    assert relation in relation_labels(question, football_kg)


def test_relation_words_inside_a_name_are_not_mentions_of_it(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse("who directed Black Snake Moan", metaqa_kg)
    outside = qa.mentions_outside(qa.entities[0])
    assert {metaqa_kg.label(m.rel_id) for m in outside} == {"directed by"}


# -- expected answer -----------------------------------------------------------------------


def test_who_expects_a_person(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse("who directed Black Snake Moan", metaqa_kg)
    assert (qa.expected, qa.focus) == ("person", 0)


def test_when_expects_a_time(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse("when was Black Snake Moan released", metaqa_kg)
    assert (qa.expected, qa.focus) == ("time", 0)


def test_what_noun_names_the_focus_relation(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse("what genres is Black Snake Moan", metaqa_kg)
    assert qa.expected is None
    assert qa.focus == 1
    assert {metaqa_kg.label(r) for r in qa.focus_rels} == {"has genre"}


def test_which_noun_naming_no_relation_is_a_thing(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse("what movies did Temuera Morrison act in", metaqa_kg)
    assert qa.focus == 1 and qa.focus_is_thing
    assert not qa.focus_rels and qa.expected is None


def test_focus_at_the_end_without_a_question_word(metaqa_kg: KnowledgeGraph) -> None:
    qa = analyse(
        "the films that share directors with the film [Black Snake Moan] were in which genres",
        metaqa_kg,
    )
    assert qa.words[qa.focus] == "genres"
    assert {metaqa_kg.label(r) for r in qa.focus_rels} == {"has genre"}


def test_person_noun_expects_a_person(football_kg: KnowledgeGraph) -> None:
    assert analyse("which person coaches Arsenal", football_kg).expected == "person"


def test_agent_noun_focus(football_kg: KnowledgeGraph) -> None:
    qa = analyse("which players play for Arsenal", football_kg)
    assert qa.focus_agent
    assert "plays for" in {football_kg.label(r) for r in qa.focus_rels}


def test_capitalised_title_word_is_not_a_question_word(metaqa_kg: KnowledgeGraph) -> None:
    """'When Ladies Meet' is a film: its 'When' must not make the question ask for a time."""
    assert metaqa_kg.exact("When Ladies Meet")
    qa = analyse("who directed When Ladies Meet", metaqa_kg)
    assert qa.expected == "person"
    assert metaqa_kg.label(qa.entities[0].ids[0]) == "When Ladies Meet"
