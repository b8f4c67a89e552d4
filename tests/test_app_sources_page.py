"""The Sources page, driven headless through AppTest on the small football KB imported into
the per-test workspace: statistics, the relation histogram, entity search with its
neighbourhood, the tables note and the read-only SPARQL console.

AppTest runs no JavaScript (the pyvis graph is not drawn); the iframe's HTML is checked to
load nothing from the network.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.workspace import Workspace

PAGE = Path(__file__).resolve().parents[1] / "pages" / "sources.py"
REMOTE = re.compile(r"<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//", re.I)


@pytest.fixture
def home(football_home: Path) -> Path:
    return football_home


def open_page() -> AppTest:
    return run(AppTest.from_file(PAGE, default_timeout=60))


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def sparql(at: AppTest, query: str) -> AppTest:
    at.text_area(key="src_sparql").input(query)
    at.button(key="src_sparql_run").click()
    return run(at)


def triple_count(home: Path) -> int:
    return Workspace(home).kg("football").stats()["triples"]


def test_statistics_and_relation_histogram(home: Path) -> None:
    at = open_page()
    assert at.title[0].value == "Sources"
    stats = Workspace(home).kg("football").stats()
    assert metrics(at) == {
        "Triples": str(stats["triples"]),
        "Nodes": str(stats["nodes"]),
        "Relations": str(stats["relations"]),
    }
    assert metrics(at)["Triples"] == "37"
    [chart] = at.get("plotly_chart")
    spec = json.loads(chart.proto.spec)
    bars = dict(zip(spec["data"][0]["y"], spec["data"][0]["x"], strict=True))
    assert bars == stats["relation_counts"]
    assert at.selectbox(key="kb_picker").value == "football"
    assert at.info[0].value.startswith("No table sources yet")
    assert not at.error


def test_search_shows_the_entity_its_graph_and_triples(home: Path) -> None:
    at = open_page()
    at.text_input(key="src_search").input("Arsenal")
    at = run(at)
    pick = at.selectbox(key="src_pick")
    assert pick.options[0].startswith("Arsenal · score 1.00 (exact")
    assert at.subheader[0].value == "Arsenal"
    table = at.dataframe[0].value
    assert list(table.columns) == ["subject", "relation", "object"]
    rows = set(map(tuple, table.values.tolist()))
    assert ("Arsenal", "coached by", "Mikel Arteta") in rows
    assert ("Bukayo Saka", "plays for", "Arsenal") in rows
    [frame] = at.get("iframe")
    page = frame.proto.srcdoc or frame.proto.src
    assert "Mikel Arteta" in page and not REMOTE.search(page)


def test_search_without_a_match_says_so(home: Path) -> None:
    at = open_page()
    at.text_input(key="src_search").input("Zzyzx Qwerty")
    at = run(at)
    assert "No entity of football matches" in at.info[0].value
    assert not at.get("iframe")


def test_sparql_console_runs_a_select(home: Path) -> None:
    at = open_page()
    assert "SELECT ?s ?p ?o" in at.text_area(key="src_sparql").value
    at.button(key="src_sparql_run").click()
    at = run(at)
    assert not at.error
    assert len(at.dataframe[-1].value) == 10  # the example query's LIMIT
    query = (
        "PREFIX r: <https://knowloop.dev/kb/football/r/>\n"
        "SELECT ?player WHERE { ?player r:plays_for ?club . ?club r:based_in ?city }"
    )
    at = sparql(at, query)
    assert not at.error, [e.value for e in at.error]
    frame = at.dataframe[-1].value
    assert list(frame.columns) == ["player"] and len(frame) > 0
    assert any("SELECT:" in c.value for c in at.caption)
    at = run(at)  # a rerun (another widget) keeps the answer on show
    assert list(at.dataframe[-1].value.columns) == ["player"]


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ("INSERT DATA { <http://a.example/s> <http://a.example/p> 'o' }", "read-only"),
        ("SELECT * WHERE { SERVICE <http://a.example/sparql> { ?s ?p ?o } }", "SERVICE"),
        ("SELEC ?s WHERE { ?s ?p ?o }", "syntax error"),
    ],
)
def test_sparql_console_refuses_with_a_readable_error(home: Path, query: str, reason: str) -> None:
    before = triple_count(home)
    at = sparql(open_page(), query)
    [error] = [e.value for e in at.error]
    assert error.startswith("Query refused: ") and reason in error
    assert triple_count(home) == before
    assert metrics(run(at))["Triples"] == str(before)


def test_several_kbs_get_a_picker(home: Path, tiny_file: Path) -> None:
    Workspace(home).import_file(tiny_file, name="tiny")
    at = open_page()
    picker = at.selectbox(key="kb_picker")
    assert picker.options == ["football", "tiny"]
    picker.set_value("tiny")
    at = run(at)
    assert metrics(at)["Triples"] == str(Workspace(home).kg("tiny").stats()["triples"])


NAMES_KB = """\
Film One\tstarring\tAnn Lee
Film Two\tstarring\tAnn Lee
Film Three\tdirected_by\tAnn Lee
Film One\tkeyword\tann lee
Film Two\tkeyword\tann lee
Film Three\tkeyword\tann lee
Film Four\tkeyword\tann lee
Film Five\tkeyword\tann lee
"""


@pytest.fixture
def names_home(knowloop_home: Path, tmp_path: Path) -> Path:
    """A KB of its own: a person, and a keyword node with her name in lowercase on more
    films (the higher degree), as the bundled movie KB has them."""
    kb_file = tmp_path / "names.tsv"
    kb_file.write_text(NAMES_KB, encoding="utf-8")
    Workspace(knowloop_home).import_file(kb_file, name="names")
    return knowloop_home


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_search_picks_the_person_over_a_lowercase_keyword_and_offers_both(
    names_home: Path,
) -> None:
    at = open_page()
    at.text_input(key="src_search").input("ann lee")
    at = run(at)
    pick = at.selectbox(key="src_pick")
    assert pick.options[0].startswith("Ann Lee · score 0.95 (normalized, 3 links, 2 relations")
    assert pick.options[1].startswith("ann lee · score 1.00 (exact, 5 links, 1 relation)")
    assert at.subheader[0].value == "Ann Lee"
    assert any("2 entities are named" in c.value for c in at.caption)
    rows = set(map(tuple, at.dataframe[0].value.values.tolist()))
    assert ("Film Three", "directed by", "Ann Lee") in rows
    at.selectbox(key="src_pick").select_index(1)  # the other candidate, picked by hand
    at = run(at)
    assert at.subheader[0].value == "ann lee"
    rows = set(map(tuple, at.dataframe[0].value.values.tolist()))
    assert ("Film Five", "keyword", "ann lee") in rows and len(rows) == 5


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_a_runaway_query_is_stopped_at_the_console_limit(home: Path) -> None:
    """The console promises 10 s: a product the static check cannot see (nested groups) is
    killed there, and the page says which limit ended it (it once held a server thread > 60 s)."""
    import time

    from pages.sources import SPARQL_TIMEOUT_S

    # five groups: four (80^4 rows on this KB) are counted within 10 s on a fast machine
    product = "{ ?a ?b ?c } { ?d ?e ?f } { ?g ?h ?i } { ?j ?k ?l } { ?m ?n ?o }"
    at = open_page()
    t0 = time.monotonic()
    at = sparql(at, f"SELECT (COUNT(*) AS ?n) WHERE {{ {product} }}")
    elapsed = time.monotonic() - t0
    [error] = [e.value for e in at.error]
    assert error == (f"Query refused: time limit: the query ran longer than "
                     f"{SPARQL_TIMEOUT_S:g} s and was stopped")  # fmt: skip
    assert elapsed < SPARQL_TIMEOUT_S + 3  # + the page's own rerun
