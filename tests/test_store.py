"""The knowledge graph store: labels, lookup, traversal, stats, rdflib view, guarded SPARQL."""

from __future__ import annotations

import pytest
import rdflib

from core.engine import Engine
from core.kg.lookup import find_entities
from core.kg.sparql_guard import QueryRefused
from core.kg.store import KnowledgeGraph
from core.trace import Step, Trace

GEO = "http://example.org/geo/"
FB = "https://knowloop.dev/kb/football/"


def geo(name: str) -> str:
    return f"<{GEO}{name}>"


def fb_entity(name: str) -> str:
    return f"<{FB}e/{name.replace(' ', '%20')}>"


def fb_rel(name: str) -> str:
    return f"<{FB}r/{name}>"


# -- labels --------------------------------------------------------------------------------


def test_entity_labels_are_kept(tiny_kg: KnowledgeGraph, football_kg: KnowledgeGraph) -> None:
    assert tiny_kg.label(geo("Danube")) == "Danube"
    assert tiny_kg.label(geo("New_York_City")) == "New York City"
    assert tiny_kg.label(geo("United_States")) == "United States"  # no label: from the IRI
    assert football_kg.label(fb_entity("Kevin De Bruyne")) == "Kevin De Bruyne"


def test_relation_labels_are_readable(
    tiny_kg: KnowledgeGraph, metaqa_kg: KnowledgeGraph, football_kg: KnowledgeGraph
) -> None:
    assert {r.label for r in metaqa_kg.relations} >= {"directed by", "starred actors"}
    assert metaqa_kg.label("<https://knowloop.dev/kb/metaqa/r/directed_by>") == "directed by"
    assert football_kg.label(fb_rel("plays_position")) == "plays position"
    assert tiny_kg.label(geo("flowsThrough")) == "flows through"  # its rdfs:label
    assert tiny_kg.label(geo("locatedIn")) == "located in"  # humanised IRI
    assert tiny_kg.label(geo("lengthKm")) == "length km"


def test_relation_info_kinds(tiny_kg: KnowledgeGraph, football_kg: KnowledgeGraph) -> None:
    assert tiny_kg.relation(geo("lengthKm")).object_kind == "number"
    assert tiny_kg.relation(geo("flowsThrough")).object_kind == "entity"
    assert football_kg.relation(fb_rel("coached_by")).agentive
    assert not football_kg.relation(fb_rel("plays_for")).agentive


# -- lookup --------------------------------------------------------------------------------


def test_lookup_exact(tiny_kg: KnowledgeGraph) -> None:
    best = tiny_kg.lookup("New York City")[0]
    assert (best.id, best.label, best.score, best.how) == (
        geo("New_York_City"),
        "New York City",
        1.0,
        "exact",
    )


@pytest.mark.parametrize("text", ["new_york_city", "NEW YORK  city", "  new york city "])
def test_lookup_ignores_case_underscores_and_spaces(tiny_kg: KnowledgeGraph, text: str) -> None:
    best = tiny_kg.lookup(text)[0]
    assert best.id == geo("New_York_City")
    assert best.how == "normalized"
    assert 0 < best.score < 1


def test_lookup_fuzzy(tiny_kg: KnowledgeGraph, metaqa_kg: KnowledgeGraph) -> None:
    best = tiny_kg.lookup("Viena")[0]
    assert (best.label, best.how) == ("Vienna", "fuzzy")
    found = metaqa_kg.lookup("Blak Snake Moan", limit=5)
    assert found[0].label == "Black Snake Moan"
    for match in [*found, best]:
        assert 0 < match.score <= 1
    assert [m.score for m in found] == sorted((m.score for m in found), reverse=True)


def test_lookup_without_fuzzy_and_empty(tiny_kg: KnowledgeGraph) -> None:
    assert tiny_kg.lookup("Viena", fuzzy=False) == []
    assert tiny_kg.lookup("   ") == []


def test_lookup_of_nonsense_finds_nothing(metaqa_kg: KnowledgeGraph) -> None:
    assert metaqa_kg.lookup("zzqqxx") == []


# -- picking among nodes named alike (core.kg.lookup) ------------------------------------------

NAMES = "http://example.org/names/"


def names_kg() -> KnowledgeGraph:
    """A person and a keyword node with her name in lowercase (the keyword on more films, so
    it has the higher degree), a one-relation "Rose" beside a "ROSE" with three, and a
    one-relation "Bo May" beside a busier one-relation "bo may"."""
    label = "<http://www.w3.org/2000/01/rdf-schema#label>"

    def n(name: str) -> str:
        return f"<{NAMES}{name}>"

    lines = [f'{n(node)} {label} "{text}" .' for node, text in [
        ("ann", "Ann Lee"), ("ann_tag", "ann lee"), ("rose", "Rose"), ("band", "ROSE"),
        ("bo", "Bo May"), ("bo_tag", "bo may"),
    ]]  # fmt: skip
    facts = [
        ("f1", "starring", "ann"), ("f2", "starring", "ann"), ("f3", "directed", "ann"),
        *[(f"f{i}", "keyword", "ann_tag") for i in range(1, 6)],
        ("f1", "about", "rose"),
        ("band", "genre", "f9"), ("band", "from", "f8"), ("f7", "starring", "band"),
        ("f4", "starring", "bo"),
        *[(f"f{i}", "keyword", "bo_tag") for i in range(1, 4)],
    ]  # fmt: skip
    lines += [f"{n(s)} {n(p)} {n(o)} ." for s, p, o in facts]
    return KnowledgeGraph.in_memory("\n".join(lines) + "\n", name="names")


def test_find_entities_prefers_the_person_over_a_lowercase_keyword_node() -> None:
    kg = names_kg()
    assert kg.lookup("ann lee")[0].id == f"<{NAMES}ann_tag>"  # the score alone: the keyword
    for text in ("ann lee", "Ann Lee", "ANN LEE", " ann  lee "):
        found = find_entities(kg, text)
        assert [c.label for c in found] == ["Ann Lee", "ann lee"], text
    person, keyword = find_entities(kg, "ann lee")
    assert (person.relations, person.described, person.degree) == (2, 0, 3)
    assert (keyword.relations, keyword.degree) == (1, 5)


def test_find_entities_keeps_an_exact_spelling_with_capitals_first() -> None:
    kg = names_kg()
    assert [c.label for c in find_entities(kg, "Rose")] == ["Rose", "ROSE"]  # as typed
    assert [c.label for c in find_entities(kg, "rose")] == ["ROSE", "Rose"]  # more facts
    assert find_entities(kg, "ROSE")[0].described == 2


def test_find_entities_breaks_a_tie_by_the_capitalised_name_then_fuzzy_matches() -> None:
    kg = names_kg()
    assert [c.label for c in find_entities(kg, "bo may")] == ["Bo May", "bo may"]
    found = find_entities(kg, "Ann Leee")
    assert [c.how for c in found][:2] == ["fuzzy", "fuzzy"]
    assert found[0].label == "Ann Lee"  # same fuzzy score: more kinds of facts first
    assert find_entities(kg, "   ") == [] and find_entities(kg, "zzqqxx") == []
    assert len(find_entities(kg, "ann lee", limit=1)) == 1


def test_find_entities_on_the_bundled_kb(metaqa_kg: KnowledgeGraph) -> None:
    """The bundled KB has keyword nodes named like people in lowercase ("tom hanks")."""
    for text in ("tom hanks", "Tom Hanks"):
        assert find_entities(metaqa_kg, text)[0].label == "Tom Hanks"
    assert find_entities(metaqa_kg, "tom hanks")[1].label == "tom hanks"  # still offered


# -- traversal -----------------------------------------------------------------------------


def test_edges_in_both_directions(football_kg: KnowledgeGraph, tiny_kg: KnowledgeGraph) -> None:
    city, plays_for = fb_entity("Manchester City"), fb_rel("plays_for")
    players = {football_kg.label(n) for n in football_kg.edges(city, plays_for, "in")}
    assert players == {
        "Ederson",
        "Stefan Ortega",
        "Erling Haaland",
        "Kevin De Bruyne",
        "Phil Foden",
    }
    assert football_kg.edges(fb_entity("Ederson"), plays_for, "out") == [city]
    assert football_kg.edges(city, plays_for, "out") == []
    length = '"2850"^^<http://www.w3.org/2001/XMLSchema#integer>'
    assert tiny_kg.edges(geo("Danube"), geo("lengthKm"), "out") == [length]
    assert tiny_kg.edges(length, geo("lengthKm"), "in") == [geo("Danube")]
    assert tiny_kg.edges(length, geo("lengthKm"), "out") == []


def test_neighbourhood_covers_both_directions(football_kg: KnowledgeGraph) -> None:
    city = fb_entity("Manchester City")
    triples = football_kg.neighbourhood(city, limit=100)
    assert len(triples) == 7  # 5 players in, based in + coached by out
    assert len(set(triples)) == len(triples)
    assert {t.s for t in triples if t.o == city} == {
        fb_entity(n)
        for n in ("Ederson", "Stefan Ortega", "Erling Haaland", "Kevin De Bruyne", "Phil Foden")
    }
    assert {(t.p_label, t.o_label) for t in triples if t.s == city} == {
        ("based in", "Manchester"),
        ("coached by", "Pep Guardiola"),
    }
    assert all(city in (t.s, t.o) for t in triples)


def test_neighbourhood_is_bounded(football_kg: KnowledgeGraph) -> None:
    city = fb_entity("Manchester City")
    assert len(football_kg.neighbourhood(city, limit=3)) == 3
    per_rel = football_kg.neighbourhood(city, limit=100, per_relation=2)
    assert sum(t.p_label == "plays for" for t in per_rel) == 2
    assert len(per_rel) == 4
    assert football_kg.neighbourhood(fb_entity("Nobody")) == []


def test_neighbourhood_of_a_node_with_in_and_out_edges(football_kg: KnowledgeGraph) -> None:
    pep = fb_entity("Pep Guardiola")
    texts = {t.text() for t in football_kg.neighbourhood(pep)}
    assert texts == {
        "Manchester City —coached by→ Pep Guardiola",
        "Pep Guardiola —born in→ Santpedor",
    }


# -- stats and the rdflib view -------------------------------------------------------------


def test_stats(tiny_kg: KnowledgeGraph, football_kg: KnowledgeGraph) -> None:
    stats = tiny_kg.stats()
    assert stats["name"] == "tiny"
    assert stats["triples"] == 9
    assert stats["nodes"] == 12
    assert stats["relations"] == 4
    assert stats["relation_counts"] == {
        "flows through": 3,
        "length km": 2,
        "capital of": 2,
        "located in": 2,
    }
    fb = football_kg.stats()
    assert (fb["triples"], fb["relations"]) == (37, 5)
    assert fb["relation_counts"]["plays for"] == 10


def test_rdflib_graph_reads_the_same_store(tiny_kg: KnowledgeGraph) -> None:
    graph = tiny_kg.graph
    assert len(graph) == len(tiny_kg.store) == 20  # 9 facts + 11 rdfs:label triples
    danube, flows = rdflib.URIRef(GEO + "Danube"), rdflib.URIRef(GEO + "flowsThrough")
    assert {o for _, _, o in graph.triples((danube, flows, None))} == {
        rdflib.URIRef(GEO + "Vienna"),
        rdflib.URIRef(GEO + "Budapest"),
    }
    assert str(graph.value(danube, rdflib.RDFS.label)) == "Danube"


# -- SPARQL --------------------------------------------------------------------------------


def test_sparql_select(tiny_kg: KnowledgeGraph) -> None:
    result = tiny_kg.sparql(f"SELECT ?city WHERE {{ <{GEO}Danube> <{GEO}flowsThrough> ?city }}")
    assert result.kind == "select"
    assert result.columns == ["city"]
    assert sorted(r[0] for r in result.rows) == [GEO + "Budapest", GEO + "Vienna"]
    assert not result.truncated


def test_sparql_row_cap(tiny_kg: KnowledgeGraph) -> None:
    result = tiny_kg.sparql("SELECT ?s ?p ?o WHERE { ?s ?p ?o }", max_rows=5)
    assert len(result.rows) == 5
    assert result.truncated


@pytest.mark.parametrize(
    "query",
    [
        f"INSERT DATA {{ <{GEO}x> <{GEO}y> <{GEO}z> }}",
        "DELETE WHERE { ?s ?p ?o }",
        "DROP ALL",
        "CLEAR DEFAULT",
        "LOAD <http://example.org/evil.ttl>",
        "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }",
    ],
    ids=["insert", "delete", "drop", "clear", "load", "service"],
)
def test_sparql_refuses_updates_and_federation(tiny_kg: KnowledgeGraph, query: str) -> None:
    before = len(tiny_kg.store)
    with pytest.raises(QueryRefused):
        tiny_kg.sparql(query)
    assert len(tiny_kg.store) == before


# -- the query an agent writes into a step is runnable and equivalent ----------------------


def _frontier(step: Step) -> set[str]:
    """The nodes a hop step reached, read off its retrieved triples."""
    assert step.action.kind == "hop" and not step.truncated
    side = "o" if step.action.params["direction"] == "out" else "s"
    return {getattr(t, side) for t in step.triples}


def _sparql_ids(kg: KnowledgeGraph, query: str) -> set[str]:
    result = kg.sparql(query, max_rows=100_000)
    assert result.columns == ["answer"]
    return {str(row[0]) for row in result.terms}


@pytest.mark.parametrize(
    ("question", "hops"),
    [
        ("what movies did [Temuera Morrison] act in", 1),
        ("the films that share directors with the film [Black Snake Moan] were in which genres", 3),
    ],
)
def test_step_sparql_returns_the_step_frontier(
    metaqa_engine: Engine, metaqa_kg: KnowledgeGraph, question: str, hops: int
) -> None:
    trace = metaqa_engine.ask(question)
    assert len(trace.steps) == hops
    for step in trace.steps:
        assert step.action.language == "sparql"
        reached = _sparql_ids(metaqa_kg, step.action.query)
        assert reached == _frontier(step)
        assert len(reached) == step.candidates
    assert _sparql_ids(metaqa_kg, trace.steps[-1].action.query) == {a.id for a in trace.answers}


@pytest.mark.parametrize(
    ("question", "gold"),
    [
        (
            "the films that share directors with the films [Following] are written by who",
            {
                "Christopher Priest",
                "Erik Skjoldbjærg",
                "Nikolaj Frobenius",
                "Jonathan Nolan",
                "Christopher Nolan",
                "David S. Goyer",
            },
        ),
        (
            "which person wrote the movies directed by the director of [Horton Hears a Who!]",
            {"Tony DeZuniga", "John Albano", "Jimmy Hayward"},
        ),
    ],
    ids=["following", "horton"],
)
def test_three_hop_answers_and_step_sparql_equal_gold(
    metaqa_engine: Engine, metaqa_kg: KnowledgeGraph, question: str, gold: set[str]
) -> None:
    trace: Trace = metaqa_engine.ask(question)
    assert set(trace.answer_labels) == gold
    final = _sparql_ids(metaqa_kg, trace.steps[-1].action.query)
    assert {metaqa_kg.label(n) for n in final} == gold


def test_the_index_is_the_same_whatever_the_order_of_the_triples(
    football_kg: KnowledgeGraph,
) -> None:
    """A file and a SPARQL endpoint serving the same KB list its triples in different orders;
    the index (relation order, role codes, what each role reaches, aliases, types) and so
    every answer must not depend on it."""
    import random

    from core.kg.store import build_index, store_triples

    triples = list(store_triples(football_kg.store))
    first = build_index(triples)
    for seed in (1, 2):
        random.Random(seed).shuffle(triples)
        again = build_index(triples)
        for name in ("rel_ids", "relations", "roles", "follow", "reach", "reach_distinct",
                     "labels", "classes", "degree", "n_triples"):  # fmt: skip
            assert getattr(again, name) == getattr(first, name), name
        assert {k: sorted(v) for k, v in again.by_norm.items()} == {
            k: sorted(v) for k, v in first.by_norm.items()
        }
