"""Counting: "how many N" is answered by counting what a walk reaches where the noun names the
walk's last hop and the KB states no such number — and by the number the KB holds otherwise.

The KB is written here: a family, a club that states its member count, a hall with a
capacity. None of its relation names is known to the engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.analysis import analyse, asks_count, counted_noun
from core.engine import Engine
from core.evaluate import evidence_path
from core.trace import Trace
from core.workspace import Workspace

ROWS = [
    ("Ann Lee", "child", "Bo Lee"),
    ("Ann Lee", "child", "Cy Lee"),
    ("Ann Lee", "child", "Di Lee"),
    ("Ed Moss", "child", "Fay Moss"),
    ("Bo Lee", "year of birth", "1961"),
    ("Cy Lee", "year of birth", "1963"),
    ("Di Lee", "year of birth", "1966"),
    ("Fay Moss", "year of birth", "1990"),
    ("Ann Lee", "year of birth", "1935"),
    ("Ed Moss", "year of birth", "1958"),
    ("Ann Lee", "member of", "Rook Club"),
    ("Ed Moss", "member of", "Rook Club"),
    ("Bo Lee", "member of", "Rook Club"),
    ("Rook Club", "number of members", "120"),
    ("Rook Club", "venue", "Oak Hall"),
    ("Oak Hall", "capacity", "450"),
    ("Cy Lee", "member of", "Pawn Club"),
    ("Di Lee", "member of", "Pawn Club"),
    ("Fay Moss", "member of", "Pawn Club"),
    ("Blue Road", "written by", "Ann Lee"),
    ("Red Sky", "written by", "Ann Lee"),
    ("Old Mill", "written by", "Ann Lee"),
    ("Grey Dawn", "written by", "Ed Moss"),
    ("Blue Road", "instance of", "song"),
    ("Red Sky", "instance of", "song"),
    ("Grey Dawn", "instance of", "song"),
    ("Old Mill", "instance of", "poem"),
    *((p, "instance of", "person") for p in ("Ann Lee", "Ed Moss", "Bo Lee", "Cy Lee",
                                             "Di Lee", "Fay Moss")),
    *((c, "instance of", "club") for c in ("Rook Club", "Pawn Club")),
    ("Oak Hall", "instance of", "hall"),
]


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("counting")
    kb = Path(root) / "town.tsv"
    kb.write_text("".join(f"{s}\t{p}\t{o}\n" for s, p, o in ROWS), encoding="utf-8")
    workspace = Workspace(root / "home")
    workspace.import_file(kb, name="town")
    return Engine(workspace)


def ask(engine: Engine, question: str) -> Trace:
    return engine.ask(question, kb="town")


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("how many children does Ann Lee have", "children"),
        ("what is the number of children of Ann Lee", "children"),
        ("count the children of Ann Lee", "children"),
        ("please count Ann Lee's children", "children"),
        ("Count Rook Club's members", "members"),
        ("how much does Oak Hall hold", None),
        ("how old is Ann Lee", None),
        ("who is Ann Lee's child", None),
    ],
)
def test_a_count_question_names_the_noun_it_counts(engine: Engine, question: str,
                                                   noun: str | None) -> None:  # fmt: skip
    qa = analyse(question, engine.kg("town"))
    token = counted_noun(qa)
    assert (qa.words[token] if token is not None else None) == noun
    assert asks_count(qa) == (noun is not None)


@pytest.mark.parametrize(
    "question",
    ["how many children does Ann Lee have", "how many kids does Ann Lee have",
     "what is the number of children of Ann Lee", "Ann Lee has how many children?",
     "count the children of Ann Lee", "can you count Ann Lee's children"],
)
def test_things_the_walk_reaches_are_counted(engine: Engine, question: str) -> None:
    """Not the children's birth years (a number-valued hop no word names), but how many
    children there are — a count step after the hop, its query runnable as shown."""
    trace = ask(engine, question)
    assert trace.answer_labels == ["3"]
    assert [s.action.kind for s in trace.steps] == ["hop", "count"]
    count = trace.steps[-1]
    assert "COUNT(DISTINCT ?answer)" in count.action.query
    result = engine.kg("town").sparql(count.action.query)
    assert result.rows == [["3"]]
    evidence = {(t.s_label, t.p_label, t.o_label) for t in trace.answers[0].evidence}
    assert evidence == {("Ann Lee", "child", c) for c in ("Bo Lee", "Cy Lee", "Di Lee")}
    assert trace.support.status == "verified"


def test_a_count_the_kb_states_is_read_not_recounted(engine: Engine) -> None:
    """`number of members` states the club's count; the three `member of` links the KB
    happens to hold are not it."""
    trace = ask(engine, "how many members does Rook Club have")
    assert trace.answer_labels == ["120"]
    assert "count" not in [s.action.kind for s in trace.steps]


def test_a_noun_that_names_no_hop_is_not_counted(engine: Engine) -> None:
    """"seats" names neither `venue` nor `capacity`: the hall's capacity, not how many halls."""
    trace = ask(engine, "how many seats does the venue of Rook Club have")
    assert trace.answer_labels == ["450"]
    assert "count" not in [s.action.kind for s in trace.steps]


def test_the_topic_is_not_counted_where_the_question_asks_for_others(engine: Engine) -> None:
    """Bo Lee's mother's other children: Cy and Di — the walk back to Bo Lee is left out of
    the count, in the step and in the query it shows."""
    trace = ask(engine, "how many other children does Bo Lee's mother have")
    assert trace.answer_labels == ["2"]
    count = trace.steps[-1]
    assert count.action.kind == "count" and "other than Bo Lee" in count.action.description
    assert engine.kg("town").sparql(count.action.query).rows == [["2"]]


def test_a_thing_whose_count_the_kb_does_not_state_is_counted(engine: Engine) -> None:
    """Rook Club states its member count; Pawn Club does not, so its members are counted."""
    trace = ask(engine, "how many members does Pawn Club have")
    assert trace.answer_labels == ["3"]
    assert [s.action.kind for s in trace.steps] == ["hop", "count"]


def test_a_count_reads_in_eval_details_as_one_thing_s_path_then_the_count(engine: Engine
                                                                         ) -> None:  # fmt: skip
    trace = ask(engine, "how many other children does Bo Lee's mother have")
    assert evidence_path(trace) == "child → child → count"


def test_things_are_counted_by_their_class(engine: Engine) -> None:
    """"songs" names no relation; the nodes `written by` reaches back are `instance of` song
    (Old Mill, a poem, is no song: the class word keeps the songs, then they are counted)."""
    trace = ask(engine, "how many songs did Ann Lee write")
    assert trace.answer_labels == ["2"]
    assert trace.steps[-1].action.kind == "count"


def test_a_walk_that_reaches_one_thing_for_each_may_still_count_several(engine: Engine) -> None:
    """Each person is in one club, but Ann Lee's three children are in two."""
    trace = ask(engine, "how many clubs have members who are children of Ann Lee")
    assert trace.answer_labels == ["2"]
    assert trace.steps[-1].action.kind == "count"


@pytest.mark.parametrize(
    "question",
    ["how many songs did Ann Lee write", "count the songs Ann Lee wrote",
     "what is the number of songs written by Ann Lee"],
)
def test_the_class_of_what_is_counted_is_applied_however_the_count_is_asked(
        engine: Engine, question: str) -> None:  # fmt: skip
    """The imperative "count the N …" and "the number of N …" count N as "how many N" does:
    the noun counted (not only one right after "how many") says the class of what counts
    (Old Mill, a poem, is left out)."""
    trace = ask(engine, question)
    assert trace.answer_labels == ["2"]
    assert trace.steps[-1].action.kind == "count"
