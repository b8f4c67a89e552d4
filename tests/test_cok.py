"""Chain-of-Knowledge on the bundled KB, table and documents, with deterministic litellm
`mock_response` replies: the consensus gate, progressive vs all-at-once correction, the SQL
template filling, the documents filter and the trace of rationales."""

from __future__ import annotations

import itertools
import re

import pytest

from core.agents.cok import (
    claim_words,
    column_scores,
    comparable_columns,
    comparison_words,
    fill_sql,
    split_question,
)
from core.analysis import analyse
from core.engine import Engine
from core.llm.client import LLMSettings
from core.loop import LoopSettings
from core.sources.tables import check_sql, describe, import_table

MODEL = "openai/gpt-4o-mini"


_calls = itertools.count()


def undecided(prompt: str) -> str:
    """A model with no opinion: equal scores for every listed option; samples that disagree."""
    numbers = re.findall(r"^(\d+)\. ", prompt, re.M)
    if numbers:
        return ", ".join(f"{n}: 0.5" for n in numbers)
    return f"Reasoning: I am not sure.\nAnswer: guess {next(_calls)}"


def cok(engine: Engine, question: str, mock=undecided, **kw):
    settings = LoopSettings(llm=LLMSettings(model=MODEL, mock_response=mock), **kw)
    return engine.ask(question, paradigm="cok", settings=settings)


def test_question_reading(metaqa_kg) -> None:
    head, pred = split_question(
        "which movies starring Mila Kunis were released after 2008", metaqa_kg
    )
    assert (head, pred) == ("which movies starring Mila Kunis", "were released after 2008")
    assert claim_words("are based on a novel") == ["based", "novel"]
    head, pred = split_question("movies featuring 50 Cent that are older than 2008", metaqa_kg)
    assert (head, pred) == ("movies featuring 50 Cent", "are older than 2008")


@pytest.mark.parametrize(
    "question",
    [
        "which movies starring Mila Kunis were released after 2008",
        "which of the films directed by Steven Spielberg is the oldest",
        "which movies starring Mila Kunis came out in the nineties",
    ],
)
def test_the_compared_attribute_is_the_column_that_means_it(metaqa_kg, question) -> None:
    """The comparison is read once (core.constraints); the column is chosen by meaning."""
    qa = analyse(question, metaqa_kg)
    (comparison,) = qa.comparisons
    columns = [("year", "year the film was released"), ("actors", "number of actors"),
               ("writers", "number of writers")]  # fmt: skip
    scores = column_scores(comparison_words(qa, comparison), comparison, columns)
    assert max(range(3), key=scores.__getitem__) == 0


def test_a_column_whose_values_cannot_meet_the_comparison_is_no_option(metaqa_kg, tmp_path
                                                                         ) -> None:  # fmt: skip
    """ "… with X as screenwriter hit theatres in 2012": the words near the comparison say
    "screenwriter", but a count of writers (1 to 3) is never 2012; the year column is the
    only option left. A superlative keeps every numeric column."""
    csv = tmp_path / "films.csv"
    csv.write_text("title,year,writers,runtime\nA,1999,1,95\nB,2012,3,120\nC,2004,2,88\n")
    import_table(csv, "films", home=tmp_path,
                 comments={"writers": "number of screenwriters", "year": "release year"})
    info = describe("films", tmp_path)
    qa = analyse("Which features with James Vanderbilt as screenwriter hit theatres in 2012?",
                 metaqa_kg)  # fmt: skip
    (year,) = qa.comparisons
    assert [c for c, _ in comparable_columns(info, year, tmp_path)] == ["year"]
    (runtime,) = analyse("Which films of Tom Hanks run for more than 100 minutes", metaqa_kg
                         ).comparisons  # fmt: skip
    assert [c for c, _ in comparable_columns(info, runtime, tmp_path)] == ["runtime"]
    (latest,) = analyse("the latest film of Tom Hanks", metaqa_kg).comparisons
    assert len(comparable_columns(info, latest, tmp_path)) == 3


def test_filled_sql_passes_the_guard() -> None:
    for op, values in ((">", (2000,)), ("<=", (2000,)), ("between", (1990, 1999)),
                       ("max", ()), ("min", ())):  # fmt: skip
        sql = fill_sql("movies", "title", "year", op, values, ["Ted", "Black Swan", "O'Brien"])
        check_sql(sql, {"movies"})
    assert "'O''Brien'" in fill_sql("movies", "title", "year", ">", (1,), ["O'Brien"])
    assert "BETWEEN 1990 AND 1999" in fill_sql("movies", "t", "year", "between", (1990, 1999), [])


@pytest.mark.slow
def test_kg_and_table_progressive(metaqa_engine: Engine) -> None:
    trace = cok(metaqa_engine, "which movies starring Mila Kunis were released after 2008")
    assert set(trace.answer_labels) == {
        "Black Swan",
        "Blood Ties",
        "Extract",
        "Friends with Benefits",
        "Oz the Great and Powerful",
        "Ted",
        "The Angriest Man in Brooklyn",
        "The Book of Eli",
    }
    kinds = [s.action.kind for s in trace.steps]
    assert kinds[0] == "generate" and "hop" in kinds and kinds[-2:] == ["sql", "answer"]
    sql_step = trace.steps[-2]
    assert sql_step.action.language == "sql" and '"year" > 2008' in sql_step.action.query
    assert sql_step.action.details["column_choice"]["chosen"] == "year"
    rationales = [
        s.action.details["rationale"] for s in trace.steps if "rationale" in s.action.details
    ]
    assert {r["source"] for r in rationales} == {"kg", "table"}
    assert all(r["before"] is not None and r["after"] for r in rationales)
    sources = next(
        s.action.details["sources"] for s in trace.steps if "sources" in s.action.details
    )
    assert sources["table"]["chosen"] and sources["kg"]["chosen"]
    assert all(0.0 <= info["score"] <= 1.0 for info in sources.values())  # what the page shows
    top = trace.answers[0]
    assert top.evidence and any(p.source == "table:movies" for p in top.passages)


@pytest.mark.slow
def test_superlative_needs_progressive_correction(metaqa_engine: Engine) -> None:
    question = "which of the films directed by Steven Spielberg is the oldest"
    progressive = cok(metaqa_engine, question)
    assert progressive.answer_labels == ["The Sugarland Express"]
    at_once = cok(metaqa_engine, question, progressive=False)
    assert at_once.answer_labels != ["The Sugarland Express"]  # the whole table's oldest film
    sql = next(st for st in at_once.steps if st.action.kind == "sql")
    assert "WHERE TRUE" in sql.action.query


@pytest.mark.slow
def test_kg_and_documents(metaqa_engine: Engine) -> None:
    trace = cok(metaqa_engine, "which films directed by Stanley Kubrick are based on a novel")
    assert {"The Shining", "Lolita", "A Clockwork Orange"} <= set(trace.answer_labels)
    step = next(st for st in trace.steps if st.action.kind == "search")
    assert step.passages
    shining = next(a for a in trace.answers if a.label == "The Shining")
    passage = shining.passages[0]
    assert passage.verified and passage.url.startswith("https://en.wikipedia.org/")
    assert "novel" in passage.text


def test_consensus_gate_answers_without_retrieval(metaqa_engine: Engine) -> None:
    trace = cok(
        metaqa_engine,
        "which movies starring Mila Kunis were released after 2008",
        mock="Reasoning: easy.\nAnswer: Ted",
    )
    assert [s.action.kind for s in trace.steps] == ["generate"]
    assert trace.answer_labels == ["Ted"] and "no retrieval" in trace.stop_reason
    assert not trace.answers[0].passages[0].verified


# -- generate, validate, repair (a capable model) ----------------------------------------------
def test_generate_validate_repair() -> None:
    from core.agents.querygen import extract_query, generate_query
    from core.llm.client import LLM

    replies = iter(["SELEC broken", "```sql\nSELECT 1\n```"])
    llm = LLM(LLMSettings(model=MODEL, mock_response=lambda prompt: next(replies)))

    def validate(q: str) -> None:
        if not q.startswith("SELECT"):
            raise ValueError("does not parse")

    out = generate_query(llm, "sql", "count", validate, ledger=[])
    assert out.query == "SELECT 1"
    assert [a["error"] for a in out.attempts] == ["does not parse", None]
    hopeless = LLM(LLMSettings(model=MODEL, mock_response="nope"))
    out = generate_query(hopeless, "sql", "count", validate, ledger=[], repairs=2)
    assert out.query is None and len(out.attempts) == 3
    assert extract_query("SQL: SELECT 2") == "SELECT 2"


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_capable_model_writes_sparql_and_sql_with_repair(metaqa_engine: Engine) -> None:
    def model(prompt: str) -> str:
        if "Write one SPARQL" in prompt:
            rel = re.search(r"^starred actors = (<[^>]+>)", prompt, re.M).group(1)
            who = re.search(r"^Mila Kunis = (<[^>]+>)", prompt, re.M).group(1)
            return f"```sparql\nSELECT ?m WHERE {{ ?m {rel} {who} }}\n```"
        if "Write one SQL" in prompt:
            return "SELECT title FROM films WHERE year > 2008"  # wrong table: refused
        if "Write a corrected SQL" in prompt:
            return "SELECT title FROM movies WHERE year > 2008"
        return undecided(prompt)

    trace = cok(
        metaqa_engine, "which movies starring Mila Kunis were released after 2008", mock=model
    )
    kinds = [s.action.kind for s in trace.steps]
    assert kinds == ["generate", "sparql", "sql", "answer"]
    sql = trace.steps[-2]
    assert [a["error"] is None for a in sql.action.details["attempts"]] == [False, True]
    assert "unknown table 'films'" in sql.action.details["attempts"][0]["error"]
    assert "Ted" in trace.answer_labels and "Black Swan" in trace.answer_labels
    assert "Forgetting Sarah Marshall" not in trace.answer_labels  # 2008: not after 2008


@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
def test_the_answerer_reads_the_sql_and_its_table(metaqa_engine: Engine) -> None:
    seen: list[str] = []

    def model(prompt: str) -> str:
        seen.append(prompt)
        return undecided(prompt)

    trace = cok(
        metaqa_engine, "which movies starring Mila Kunis were released after 2008", mock=model
    )
    answer_step = trace.steps[-1]
    assert answer_step.action.kind == "answer"
    assert [c.purpose for c in answer_step.llm_calls] == ["answer from SQL, table, passages"]
    prompt = next(p for p in seen if "Result:" in p)
    assert "SQL: SELECT" in prompt and "title=Black Swan, year=2010" in prompt
    assert len(trace.answers) == 8


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_name_in_the_predicate_constrains_the_kg_part(metaqa_engine: Engine) -> None:
    """ "… have French dialogue": the predicate names a node of the KG, so the rule planner
    reads the whole question and keeps only the films in French; a comparison in the
    predicate is still Chain-of-Knowledge's own step (table or KG filter)."""
    trace = cok(metaqa_engine, "Which movies written by Mika Kaurismäki have French dialogue?")
    assert trace.answer_labels == ["L.A. Without a Map"]
    assert any(s.action.kind == "constrain" and "French" in s.action.description
               for s in trace.steps)  # fmt: skip


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_class_word_in_the_predicate_constrains_the_kg_part(metaqa_engine: Engine) -> None:
    """ "… are action pictures": not a proper name, but a word that names a node of the KG
    (the genre), so the KG part reads it as a constraint rather than leaving it to a search
    of the documents."""
    question = "Which movies in Simon Fellows's directing filmography are action pictures?"
    trace = cok(metaqa_engine, question)
    assert sorted(trace.answer_labels) == ["Second in Command", "Until Death"]
    assert any(s.action.kind == "constrain" and "Action" in s.action.description
               for s in trace.steps)  # fmt: skip


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_comparison_is_not_walked_as_a_hop_by_the_kg_part(metaqa_engine: Engine) -> None:
    """ "scripts that date from the 1970s": the plan is ranked with its filter, so the KG
    part answers scripts (then filtered by year), not their years."""
    trace = cok(metaqa_engine, "Which of Peter Bogdanovich's scripts date from the 1970s?")
    assert trace.answer_labels and not any(a.isdigit() for a in trace.answer_labels)
    assert "At Long Last Love" in trace.answer_labels


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_the_kg_part_counts_what_it_reaches(metaqa_engine: Engine) -> None:
    """"how many films did X direct": the KG source runs the rule agent's count step."""
    trace = cok(metaqa_engine, "how many films did [Steven Spielberg] direct")
    assert trace.answer_labels == ["25"] and trace.support.status == "verified"
    count = trace.steps[-1].action
    assert count.kind == "count" and "COUNT(DISTINCT ?answer)" in count.query


def test_the_topic_answers_where_the_walk_returns_to_it(tmp_path) -> None:
    """ "Who is the author of Ann Vale's novels": the KG part walks to her novels and back to
    her (core.agents.planner); CoK answers her, as `kg-only` does, where nothing else is
    reached and no other thing is asked for (it dropped every topic entity: no answer)."""
    from tests.test_analysis import _books_kb, _imported

    engine = _imported(tmp_path, "books", _books_kb())
    settings = LoopSettings(llm=LLMSettings(model=MODEL, mock_response=undecided))
    trace = engine.ask("Who is the author of Ann Vale's novels?", kb="books", paradigm="cok",
                       settings=settings)  # fmt: skip
    assert trace.answer_labels == ["Ann Vale"]
