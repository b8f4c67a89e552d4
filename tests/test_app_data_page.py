"""The Data page, driven headless through AppTest (this Streamlit's AppTest drives
st.file_uploader): a KB with a malformed line refused with its line number, then imported
with "Import the good lines"; refused uploads; replace with a tick; tables and documents;
the listing; deleting with a confirmation."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.workspace import Workspace

PAGE = Path(__file__).resolve().parents[1] / "pages" / "data.py"
QUESTIONS = b"question\tanswers\nwho plays for [Arsenal]\tBukayo Saka\n"


@pytest.fixture
def home(football_home: Path) -> Path:
    return football_home


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def open_page() -> AppTest:
    return run(AppTest.from_file(PAGE, default_timeout=60))


def upload(at: AppTest, key: str, name: str, data: bytes) -> AppTest:
    at.file_uploader(key=key).upload(name, data, "application/octet-stream")
    return run(at)


def click(at: AppTest, key: str) -> AppTest:
    at.button(key=key).click()
    return run(at)


def texts(elements) -> list[str]:
    return [e.value for e in elements]


def test_the_page_lists_what_is_there_and_states_the_limit(home: Path) -> None:
    at = open_page()
    assert at.title[0].value == "Data"
    assert "Each file up to **200 MB**" in at.caption[0].value
    [kbs] = [d for d in at.dataframe if "triples" in d.value.columns]
    assert kbs.value.to_dict("records") == [
        {"name": "football", "triples": 37, "entities": 33, "relations": 5,
         "format": "delimited:tab", "skipped lines": 0, "question files": 0}
    ]  # fmt: skip
    assert "No tables yet." in texts(at.caption)
    assert at.button(key="data_kb_import").disabled  # nothing uploaded yet


def test_malformed_line_refused_then_the_good_lines_imported(
    home: Path, football_file: Path
) -> None:
    at = open_page()
    data = football_file.read_bytes() + b"Arsenal\tplays_in\n"
    upload(at, "data_kb_file", "my league.tsv", data)
    assert at.text_input(key="data_kb_name").value == "my-league"
    click(at, "data_kb_import")
    [error] = texts(at.error)
    assert error.startswith("Nothing imported yet: my league.tsv: 1 malformed line (line 38)")
    [issues] = [d for d in at.dataframe if "reason" in d.value.columns]
    assert issues.value.to_dict("records") == [
        {"line": 38, "reason": "expected 3 fields separated by 'tab', found 2",
         "text": "Arsenal\tplays_in"}
    ]  # fmt: skip
    assert Workspace(home).kb_names() == ["football"]
    click(at, "data_kb_skip_bad")
    assert texts(at.success) == [
        "Imported KB my-league: 37 triples, 33 entities, 5 relations (delimited:tab); "
        "1 malformed line skipped"
    ]
    assert at.session_state["kb"] == "my-league"
    assert at.sidebar.selectbox[0].value == "my-league"
    assert Workspace(home).kb_info("my-league").skipped_lines == 1
    assert not at.error


def test_import_nothing_leaves_the_workspace(home: Path, malformed_file: Path) -> None:
    at = open_page()
    upload(at, "data_kb_file", "people.txt", malformed_file.read_bytes())
    click(at, "data_kb_import")
    assert "(lines 3, 5)" in at.error[0].value
    click(at, "data_kb_cancel")
    assert texts(at.info) == ["Nothing imported from people.txt."]
    assert not at.error and Workspace(home).kb_names() == ["football"]


def test_a_binary_upload_is_refused_with_a_reason(home: Path) -> None:
    at = open_page()
    upload(at, "data_kb_file", "garbage.tsv", bytes(range(256)) * 16)
    click(at, "data_kb_import")
    assert texts(at.error) == [
        "Nothing imported: garbage.tsv: binary content (NUL bytes), not a text file"
    ]
    assert Workspace(home).kb_names() == ["football"]


def test_an_invalid_name_is_named_and_blocks_the_import(home: Path, football_file: Path) -> None:
    at = open_page()
    upload(at, "data_kb_file", "kb.tsv", football_file.read_bytes())
    at.text_input(key="data_kb_name").input("-bad name")
    run(at)
    assert any("invalid name" in c and "bad name" in c for c in texts(at.caption))
    assert at.button(key="data_kb_import").disabled


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_replace_needs_a_tick_and_keeps_question_files(
    home: Path, football_file: Path, malformed_file: Path
) -> None:
    at = open_page()
    upload(at, "data_kb_file", "football.tsv", football_file.read_bytes())
    at.file_uploader(key="data_kb_questions").upload("dev.tsv", QUESTIONS, "text/plain")
    run(at)
    assert at.button(key="data_kb_import").disabled  # "football" exists
    at.checkbox(key="data_kb_replace").check()
    run(at)
    click(at, "data_kb_import")  # same content: kept, its questions added
    assert "1 labelled question kept" in at.success[0].value
    ws = Workspace(home)
    assert [p.name for p in ws.question_files("football")] == ["dev.tsv"]

    at = open_page()
    upload(at, "data_kb_file", "football.txt", malformed_file.read_bytes())
    at.checkbox(key="data_kb_replace").check()
    run(at)
    click(at, "data_kb_import")
    click(at, "data_kb_skip_bad")
    assert at.success[0].value.startswith("Imported KB football: 4 triples")
    assert Workspace(home).kg("football").stats()["triples"] == 4
    assert [p.name for p in Workspace(home).question_files("football")] == ["dev.tsv"]


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_delete_a_kb_after_confirming(home: Path, football_file: Path) -> None:
    Workspace(home).import_file(football_file, name="spare")
    at = open_page()
    at.selectbox(key="data_del_kb").select("spare")
    run(at)
    assert at.button(key="data_del_kb_go").disabled  # not without "I understand"
    at.checkbox(key="data_del_kb_confirm").check()
    run(at)
    click(at, "data_del_kb_go")
    assert texts(at.success) == ["Deleted KB spare."]
    assert Workspace(home).kb_names() == ["football"]
    assert at.checkbox(key="data_del_kb_confirm").value is False  # the tick does not linger


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_a_table_and_documents_join_the_sources(home: Path) -> None:
    at = open_page()
    upload(at, "data_table_file", "Films.csv", b"title,year\nHeat,1995\nAlien,1979\n")
    assert at.text_input(key="data_table_name").value == "films"
    at.file_uploader(key="data_table_columns").upload(
        "films.columns.json", b'{"year": "release year"}', "application/json"
    )
    run(at)
    click(at, "data_table_import")
    assert texts(at.success) == ["Imported table films: 2 rows, 2 columns"]
    [tables] = [d for d in at.dataframe if "rows" in d.value.columns]
    assert tables.value.to_dict("records") == [
        {"name": "films", "rows": 2, "columns": 2, "described columns": 1}
    ]

    upload(at, "data_docs_file", "notes.md", b"Heat is a 1995 crime film.\n\nAlien is older.")
    click(at, "data_docs_import")
    assert texts(at.success) == ["Imported collection notes: 1 document, 2 passages"]

    at.selectbox(key="data_del_table").select("films")
    at.checkbox(key="data_del_table_confirm").check()
    run(at)
    click(at, "data_del_table_go")
    assert texts(at.success) == ["Deleted table films."]
    at.selectbox(key="data_del_docs").select("notes")
    at.checkbox(key="data_del_docs_confirm").check()
    run(at)
    click(at, "data_del_docs_go")
    assert texts(at.success) == ["Deleted collection notes."]
    assert "No tables yet." in texts(at.caption)
    assert "No document collections yet." in texts(at.caption)


def test_a_wrong_table_extension_is_refused(home: Path) -> None:
    at = open_page()
    upload(at, "data_table_file", "sheet.xlsx", b"PK\x03\x04")
    click(at, "data_table_import")
    assert texts(at.error) == [
        "Nothing imported: sheet.xlsx: a table must be .csv or .tsv or .parquet, not .xlsx"
    ]


def test_a_sparql_endpoint_that_does_not_answer_is_refused_and_adds_nothing(home: Path) -> None:
    from tests.processes import free_port

    at = open_page()
    assert at.button(key="data_sparql_connect").disabled  # no name, no URL yet
    at.text_input(key="data_sparql_name").input("remote")
    at.text_input(key="data_sparql_url").input(f"http://127.0.0.1:{free_port()}/sparql")
    at = click(run(at), "data_sparql_connect")
    assert any(e.startswith("Nothing connected: cannot reach") for e in texts(at.error))
    assert Workspace(home).kb_names() == ["football"]
