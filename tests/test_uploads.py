"""Bringing your own data (core.uploads, and what it relies on in the workspace and sources):
refused uploads change nothing, malformed lines are named and can be skipped, imports report
rising progress, and KBs, tables and collections are replaced or deleted whole."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from core import uploads
from core.kg.importer import KBFileError, stream_kb_file
from core.locks import file_lock
from core.sources import documents, tables
from core.uploads import Upload, UploadError
from core.workspace import EDIT_LOCK, STAGING_PREFIX, Workspace

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = b"question\tanswers\nwho plays for [Arsenal]\tBukayo Saka\n"
CSV = b"title,year\nHeat,1995\nAlien,1979\n"


@pytest.fixture
def ws(tmp_path: Path, football_file: Path) -> Workspace:
    """A workspace that already holds one KB (so the lock file and kbs/ exist)."""
    workspace = Workspace(tmp_path / "home")
    workspace.import_file(football_file, name="football")
    return workspace


@pytest.fixture
def football(football_file: Path) -> Upload:
    return Upload("football.tsv", football_file.read_bytes())


def files(root: Path) -> dict[str, tuple[int, int] | None]:
    """Every file under root with its size and mtime, and every directory by name (a
    directory's mtime moves when an import stages in it, which changes nothing)."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else (p.stat().st_size, p.stat().st_mtime_ns)
        for p in root.rglob("*")
    }


def malformed(malformed_file: Path) -> Upload:
    return Upload("people.txt", malformed_file.read_bytes())


# -- refused uploads change nothing -----------------------------------------------------------
@pytest.mark.parametrize(
    ("filename", "data", "message"),
    [
        ("garbage.tsv", bytes(range(256)) * 16, "binary content"),
        (
            "latin.tsv",
            "Zoë|knows|Bob\n".encode("latin-1"),
            "not UTF-8 text (invalid byte on line 1)",
        ),
        ("empty.nt", b"", "the file is empty"),
        ("blank.tsv", b" \n\n  \n", "the file is empty"),
        ("triples.zip", b"PK\x03\x04 not really", ".zip files are not KB files"),
    ],
)
def test_a_refused_kb_upload_changes_nothing(
    ws: Workspace, filename: str, data: bytes, message: str
) -> None:
    before = files(ws.root)
    with pytest.raises(UploadError, match=re.escape(message)):
        uploads.import_kb(ws, Upload(filename, data), "mine")
    assert files(ws.root) == before
    assert ws.kb_names() == ["football"]


def test_an_upload_over_the_limit_is_refused(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(uploads, "MAX_UPLOAD_MB", 1)
    data = b"a|b|c\n" * (2**20 // 6 + 1)  # just over 1 MB
    before = files(ws.root)
    with pytest.raises(UploadError, match=r"1\.0 MB is over the 1 MB upload limit"):
        uploads.import_kb(ws, Upload("big.tsv", data), "big")
    with pytest.raises(UploadError, match="over the 1 MB upload limit"):
        uploads.import_table(ws.root, Upload("big.csv", b"x\n" + b"1\n" * 2**19), "big")
    assert files(ws.root) == before


@pytest.mark.parametrize(
    ("kind", "filename", "message"),
    [
        ("table", "sheet.xlsx", "a table must be .csv or .tsv or .parquet, not .xlsx"),
        ("documents", "paper.pdf", "documents must be .txt or .md or .jsonl, not .pdf"),
        ("schema", "relations.nt", "relation documentation must be .ttl, not .nt"),
        ("questions", "questions.csv", "a question file must be .tsv, not .csv"),
        ("columns", "notes", "must be .json, not a file without extension"),
    ],
)
def test_a_wrong_extension_is_named(kind: str, filename: str, message: str) -> None:
    with pytest.raises(UploadError, match=re.escape(message)):
        uploads.check_upload(filename, b"some text\n", kind)


def test_any_extension_is_a_kb_file_per_the_contract() -> None:
    for name in ("kb.txt", "kb.tsv", "kb.csv", "kb.triples", "kb", "kb.TTL", "kb.nq"):
        uploads.check_upload(name, b"a|b|c\n", "kb")


def test_a_table_or_documents_refused_before_writing(ws: Workspace) -> None:
    before = files(ws.root)
    with pytest.raises(UploadError, match="binary content"):
        uploads.import_table(ws.root, Upload("t.csv", b"a,b\n\x00\x01"), "t")
    with pytest.raises(UploadError, match="not a Parquet file"):
        uploads.import_table(ws.root, Upload("t.parquet", b"a,b\n1,2\n"), "t")
    with pytest.raises(UploadError, match="the file is empty"):
        uploads.import_documents(ws.root, Upload("d.md", b"\n"), "d")
    with pytest.raises(UploadError, match="invalid name"):
        uploads.import_table(ws.root, Upload("t.csv", CSV), "1st table")
    assert files(ws.root) == before


def test_name_rules_and_defaults() -> None:
    assert uploads.default_name("My Films (2024).tsv", "kb") == "My-Films-2024"
    assert uploads.default_name("My Films.csv", "table") == "my_films"
    assert uploads.default_name("movie leads.jsonl", "documents") == "movie_leads"
    assert uploads.name_problem("good-name.1", "kb") is None
    assert "must not be empty" in uploads.name_problem("  ", "kb")
    assert "invalid name" in uploads.name_problem("-bad", "kb")
    assert "invalid name" in uploads.name_problem("has-dash", "table")


def test_the_limit_is_the_servers_limit() -> None:
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] == uploads.MAX_UPLOAD_MB


# -- malformed lines ------------------------------------------------------------------------
def test_malformed_lines_are_refused_with_line_numbers_then_skipped(
    ws: Workspace, malformed_file: Path
) -> None:
    upload = malformed(malformed_file)
    before = files(ws.root)
    with pytest.raises(KBFileError, match="2 malformed lines") as refused:
        uploads.import_kb(ws, upload, "people")
    assert files(ws.root) == before  # nothing imported, the temporary file gone
    assert uploads.can_skip_bad(upload.filename, refused.value)
    rows = uploads.issue_rows(refused.value.issues)
    assert [r["line"] for r in rows] == [3, 5]
    assert rows[0]["reason"] == "expected 3 fields separated by '|', found 2"
    assert rows[1] == {"line": 5, "reason": "empty object field", "text": "Dave|likes|"}

    result = uploads.import_kb(ws, upload, "people", skip_bad=True)
    assert result.info.skipped_lines == 2 and result.info.triples == 4
    assert uploads.describe_import(result) == (
        "Imported KB people: 4 triples, 4 entities, 2 relations (delimited:|); "
        "2 malformed lines skipped"
    )
    assert ws.kb_names() == ["football", "people"]
    assert not (ws.root / uploads.UPLOADS_DIR).exists()


def test_skipping_cannot_help_an_rdf_syntax_error(ws: Workspace) -> None:
    with pytest.raises(KBFileError) as refused:
        uploads.import_kb(ws, Upload("bad.ttl", b"<a> <b> .\n"), "bad")
    assert refused.value.issues and not uploads.can_skip_bad("bad.ttl", refused.value)


# -- progress ---------------------------------------------------------------------------------
def big_file(tmp_path: Path, lines: int = 70_000) -> Path:
    path = tmp_path / "chain.tsv"
    path.write_text("".join(f"n{i}\tnext\tn{i + 1}\n" for i in range(lines)))
    return path


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_import_progress_rises_to_one(tmp_path: Path) -> None:
    seen: list[tuple[float, str]] = []
    ws = Workspace(tmp_path / "home")
    ws.import_file(big_file(tmp_path), name="chain", progress=lambda s, p: seen.append((s, p)))
    shares = [s for s, _ in seen]
    assert shares == sorted(shares) and shares[0] == 0.0 and shares[-1] == 1.0
    loading = [s for s, p in seen if p == "loading triples"]
    assert len(set(loading)) >= 4  # 70,000 lines: reported block by block, not once
    phases = list(dict.fromkeys(p for _, p in seen))
    assert phases == ["reading the file", "loading triples", "indexing", "saving", "done"]


def test_the_delimited_stream_reports_the_share_of_lines_read(tmp_path: Path) -> None:
    shares: list[float] = []
    stream = stream_kb_file(big_file(tmp_path, 45_000), "chain", progress=shares.append)
    for _ in stream.chunks():
        pass
    assert shares == sorted(shares) and shares[0] == 0.0 and shares[-1] == 1.0
    assert len(shares) == 4  # blocks of 20,000 lines, then the end


def test_an_upload_ends_with_relation_semantics(ws: Workspace, football: Upload) -> None:
    seen: list[tuple[float, str]] = []
    uploads.import_kb(ws, football, "fb", progress=lambda s, p: seen.append((s, p)))
    shares = [s for s, _ in seen]
    assert shares == sorted(shares) and seen[-1] == (1.0, "ready")
    assert (uploads.SEMANTICS_SHARE, "relation semantics") in seen
    assert getattr(ws.kg("fb"), "_semantics", None) is not None  # built, kept with the KB


def test_the_same_file_again_is_reused_and_still_ends_at_one(
    ws: Workspace, football: Upload
) -> None:
    seen: list[tuple[float, str]] = []
    uploads.import_kb(ws, football, "football", progress=lambda s, p: seen.append((s, p)))
    assert (uploads.SEMANTICS_SHARE, "already imported") in [(round(s, 6), p) for s, p in seen]
    assert seen[-1] == (1.0, "ready")


# -- question files and relation documentation -------------------------------------------
def test_question_files_are_checked_then_kept(ws: Workspace, football: Upload) -> None:
    result = uploads.import_kb(ws, football, "fb", questions=[Upload("dev set.tsv", QUESTIONS)])
    assert [p.name for p in result.questions] == ["dev-set.tsv"]
    assert ws.question_files("fb") == result.questions
    assert result.n_questions == 1
    assert uploads.describe_import(result).endswith("; 1 labelled question kept")


def test_a_bad_question_file_refuses_the_whole_upload(ws: Workspace, football: Upload) -> None:
    before = files(ws.root)
    bad = Upload("q.tsv", b"text\tgold\nwho\tme\n")
    with pytest.raises(UploadError, match="need a TSV header with columns 'question' and"):
        uploads.import_kb(ws, football, "fb", questions=[bad])
    with pytest.raises(UploadError, match="no questions"):
        uploads.import_kb(ws, football, "fb", questions=[Upload("q.tsv", b"question\tanswers\n")])
    assert files(ws.root) == before


def test_relation_documentation_is_imported_with_the_kb(ws: Workspace, football: Upload) -> None:
    schema = Upload(
        "relations.ttl",
        b"@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n"
        b'<r/plays_for> skos:altLabel "club" .\n',
    )
    result = uploads.import_kb(ws, football, "fb", schema=schema)
    kg = ws.kg("fb")
    assert result.info.triples == 37
    [plays_for] = [r for r in kg.index.relations.values() if r.id.endswith("/r/plays_for>")]
    assert plays_for.aliases == ("club",)
    with pytest.raises(KBFileError, match="schema file relations.ttl"):
        uploads.import_kb(ws, football, "fb2", schema=Upload("relations.ttl", b"<a> <b> .\n"))
    assert "fb2" not in ws.kb_names()


# -- replace ----------------------------------------------------------------------------------
def test_replace_keeps_the_question_files(
    ws: Workspace, football: Upload, malformed_file: Path
) -> None:
    uploads.import_kb(ws, football, "fb", questions=[Upload("dev.tsv", QUESTIONS)])
    with pytest.raises(KBFileError, match="exists; choose another name or replace it"):
        uploads.import_kb(ws, malformed(malformed_file), "fb", skip_bad=True)
    result = uploads.import_kb(ws, malformed(malformed_file), "fb", skip_bad=True, replace=True)
    assert result.info.triples == 4 and ws.kg("fb").stats()["triples"] == 4
    [kept] = ws.question_files("fb")
    assert kept.name == "dev.tsv" and kept.read_bytes() == QUESTIONS


# -- delete -----------------------------------------------------------------------------------
def test_delete_kb_removes_it_whole(ws: Workspace, football: Upload) -> None:
    uploads.import_kb(ws, football, "fb", questions=[Upload("dev.tsv", QUESTIONS)])
    ws.kg("fb")  # open, so the cache must forget it
    uploads.delete_kb(ws, "fb")
    assert ws.kb_names() == ["football"]
    assert sorted(p.name for p in ws.kbs_dir.iterdir()) == ["football"]
    assert "fb" not in ws._open
    with pytest.raises(KBFileError, match="no KB named"):
        ws.kg("fb")
    with pytest.raises(KBFileError, match="no KB named 'fb'"):
        uploads.delete_kb(ws, "fb")


def test_the_bundled_default_kb_cannot_be_deleted(ws: Workspace, football_file: Path) -> None:
    ws.import_file(football_file, name="metaqa")  # stands in for the bundled KB: no 2 s import
    with pytest.raises(KBFileError, match="'metaqa' is the bundled default KB and cannot be"):
        uploads.delete_kb(ws, "metaqa")
    assert "metaqa" in ws.kb_names()


@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_delete_waits_for_an_edit_then_refuses(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    import core.workspace as workspace_module

    monkeypatch.setattr(workspace_module, "DELETE_WAIT_S", 0.2)
    with file_lock(ws.kbs_dir / "football" / EDIT_LOCK):  # an edit being written
        with pytest.raises(KBFileError, match="is being edited"):
            ws.delete_kb("football")
    assert ws.kb_names() == ["football"]
    assert not [p for p in ws.kbs_dir.iterdir() if p.name.startswith(STAGING_PREFIX)]


def test_a_delete_killed_after_the_rename_is_swept(ws: Workspace) -> None:
    staging = ws.kbs_dir / f"{STAGING_PREFIX}football-dead"
    (ws.kbs_dir / "football").rename(staging)  # what a kill right after the rename leaves
    assert Workspace(ws.root).kb_names() == [] and not staging.exists()


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_drop_table(ws: Workspace) -> None:
    uploads.import_table(ws.root, Upload("films.csv", CSV), "films")
    uploads.import_table(ws.root, Upload("more.csv", CSV), "more")
    uploads.delete_table(ws.root, "films")
    assert [t["name"] for t in uploads.table_rows(ws.root)] == ["more"]
    with pytest.raises(ValueError, match="no table named 'films'"):
        tables.drop_table("films", ws.root)
    with pytest.raises(ValueError, match="no table named"):
        tables.drop_table("more; DROP TABLE more", ws.root)
    with pytest.raises(UploadError, match="comes with the bundled KB"):
        uploads.delete_table(ws.root, "movies")
    assert uploads.table_exists(ws.root, "more")


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_drop_collection_reindexes(ws: Workspace) -> None:
    uploads.import_documents(ws.root, Upload("cats.md", b"The cat sat on the mat."), "cats")
    dogs = b'{"id": "d1", "text": "Dogs bark at night."}\n'
    uploads.import_documents(ws.root, Upload("dogs.jsonl", dogs), "dogs")
    uploads.delete_collection(ws.root, "cats")
    assert uploads.collection_rows(ws.root) == [{"name": "dogs", "documents": 1, "passages": 1}]
    assert documents.search("cat", home=ws.root) == []
    assert [p.id for p, _ in documents.search("dogs bark", home=ws.root)] == ["d1#0"]
    with pytest.raises(ValueError, match="no collection named 'cats'"):
        documents.drop_collection("cats", ws.root)
    with pytest.raises(UploadError, match="comes with the bundled KB"):
        uploads.delete_collection(ws.root, "movie_docs")


# -- tables and documents ------------------------------------------------------------------
@pytest.mark.slow  # ≈ 0.2 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_table_with_column_descriptions(ws: Workspace) -> None:
    notes = Upload("films.columns.json", b'{"year": "release year", "nope": "ignored"}')
    info = uploads.import_table(ws.root, Upload("films.csv", CSV), "films", columns=notes)
    assert info.rows == 2 and info.comments == {"year": "release year"}
    with pytest.raises(UploadError, match="expected a JSON object"):
        uploads.read_column_notes(Upload("c.json", b'["year"]'))
    with pytest.raises(UploadError, match="not valid JSON"):
        uploads.read_column_notes(Upload("c.json", b"{year"))
    with pytest.raises(ValueError, match="exists; pass replace"):
        uploads.import_table(ws.root, Upload("films.csv", CSV), "films")
    again = uploads.import_table(ws.root, Upload("f.csv", b"a\n1\n"), "films", replace=True)
    assert again.rows == 1


def test_a_text_document_cites_the_uploaded_name(ws: Workspace) -> None:
    info = uploads.import_documents(ws.root, Upload("notes.txt", b"Heat is a 1995 film."), "n")
    assert (info.documents, info.passages) == (1, 1)
    [(passage, _)] = documents.search("Heat", home=ws.root)
    assert passage.url == "notes.txt" and passage.id == "notes#0"
    assert not (ws.root / uploads.UPLOADS_DIR).exists()


def test_the_temporary_file_goes_whatever_happens(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        with uploads.staged(tmp_path, "kb.tsv", b"a|b|c\n") as path:
            assert path.name == "kb.tsv" and path.read_bytes() == b"a|b|c\n"
            raise RuntimeError("import failed")
    assert not path.exists() and not (tmp_path / uploads.UPLOADS_DIR).exists()
