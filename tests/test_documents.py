"""Document sources: import, passages with offsets, BM25 search, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.sources import ensure_bundled, list_collections, list_tables, run_sql
from core.sources.documents import import_documents, passages_of, search
from core.workspace import Workspace


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The workspace the sources live in (named explicitly: no default home)."""
    return tmp_path / "home"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    path = tmp_path / "rivers.jsonl"
    records = [
        {
            "id": "nile",
            "title": "Nile",
            "source": "https://example.org/nile",
            "text": "The Nile flows north through Egypt.\n\nIt is about 6,650 km long.",
        },
        {
            "id": "rhine",
            "title": "Rhine",
            "source": "https://example.org/rhine",
            "text": "The Rhine rises in the Swiss Alps and flows to the North Sea.",
        },
    ]
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n")
    return path


def test_passages_keep_offsets_into_the_document() -> None:
    text = "First paragraph.\n\nSecond one. " + "Long sentence here. " * 60
    spans = passages_of(text, limit=200)
    assert spans[0] == (0, len("First paragraph."))
    assert all(e - s <= 200 for s, e in spans[1:-1])
    assert all(text[s:e].strip() == text[s:e] for s, e in spans)


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_import_and_search_return_passages_with_ids_offsets_and_urls(
    docs: Path, home: Path
) -> None:
    info = import_documents(docs, "rivers", home=home)
    assert (info.documents, info.passages) == (2, 3)
    (best, score), *_ = search("how long is the Nile", home, k=3)
    assert best.id == "nile#1" and best.url == "https://example.org/nile"
    assert best.text == "It is about 6,650 km long." and best.verified
    original = json.loads(docs.read_text().splitlines()[0])["text"]
    assert original[best.start : best.end] == best.text and score > 0
    assert search("Swiss Alps", home)[0][0].id == "rhine#0"


def test_bad_documents_are_refused_and_change_nothing(
    tmp_path: Path, docs: Path, home: Path
) -> None:
    import_documents(docs, "rivers", home=home)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine"}\nnot json\n{"title": "no text"}\n')
    with pytest.raises(ValueError, match="2 malformed line"):
        import_documents(bad, "rivers", replace=True, home=home)
    binary = tmp_path / "b.txt"
    binary.write_bytes(b"\x00\x01")
    with pytest.raises(ValueError, match="binary"):
        import_documents(binary, home=home)
    with pytest.raises(ValueError, match="exists"):
        import_documents(docs, "rivers", home=home)
    assert [(c.name, c.passages) for c in list_collections(home)] == [("rivers", 3)]
    with pytest.raises(ValueError, match="no words"):
        search("?!", home)


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_hostile_search_text_is_only_words(docs: Path, home: Path) -> None:
    import_documents(docs, "rivers", home=home)
    assert search("Nile'); DROP TABLE passages; --", home)[0][0].id.startswith("nile")
    assert list_collections(home)[0].passages == 3


@pytest.mark.slow
def test_the_bundled_sources_are_imported_once(home: Path) -> None:
    ensure_bundled(home)  # no bundled KB in this workspace: its table and documents stay out
    assert list_tables(home) == [] and list_collections(home) == []
    Workspace(home).resolve(None)  # import the bundled KB
    ensure_bundled(home)
    ensure_bundled(home)  # idempotent
    assert [t.name for t in list_tables(home)] == ["movies"]
    assert list_collections(home)[0].name == "movie_docs"
    rows = run_sql("SELECT year FROM movies WHERE title = 'Top Hat'", home).rows
    assert rows == [(1935,)]
    hit = search("Top Hat Fred Astaire Ginger Rogers", home, k=1)[0][0]
    assert hit.url.startswith("https://en.wikipedia.org/wiki/Top_Hat")
