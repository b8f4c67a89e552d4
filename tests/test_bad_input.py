"""Bad input is refused with a reason a user can act on; nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli import main
from core.engine import MAX_QUESTION_CHARS, Engine, QuestionError, check_question
from core.kg.importer import KBFileError
from core.workspace import Workspace

BAD_QUESTIONS = {
    "empty": ("", "empty"),
    "whitespace": (" \t\n  ", "empty"),
    "huge": ("who directed Black Snake Moan " * 3500, "limit"),  # ~100 KB
    "nul": ("who directed\x00 Black Snake Moan", "control characters"),
    "control": ("who directed \x07\x1b[31m Black Snake Moan", "control characters"),
}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, fragment: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("knowloop: error: ")
    assert fragment in lines[0]


# -- questions -----------------------------------------------------------------------------


@pytest.mark.parametrize(("question", "reason"), BAD_QUESTIONS.values(), ids=BAD_QUESTIONS)
def test_bad_question_is_refused_by_the_engine(question: str, reason: str) -> None:
    with pytest.raises(QuestionError, match=reason):
        check_question(question)


@pytest.mark.parametrize(("question", "reason"), BAD_QUESTIONS.values(), ids=BAD_QUESTIONS)
def test_bad_question_cli_exits_2_and_writes_nothing(
    capsys, knowloop_home: Path, question: str, reason: str
) -> None:
    code, out, err = run(capsys, "ask", question)
    assert code == 2
    assert out == ""
    assert_one_line_error(err, reason)
    assert not knowloop_home.exists()


def test_huge_question_is_about_100_kb() -> None:
    question = BAD_QUESTIONS["huge"][0]
    assert 100_000 <= len(question.encode()) <= 110_000
    assert len(question) > MAX_QUESTION_CHARS


def test_question_whitespace_is_collapsed() -> None:
    assert check_question("  who\tdirected \n Black  Snake Moan ") == (
        "who directed Black Snake Moan"
    )


def test_stream_refuses_before_touching_the_workspace(knowloop_home: Path) -> None:
    engine = Engine(Workspace())
    with pytest.raises(QuestionError):
        engine.stream("")
    assert not knowloop_home.exists()


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_question_naming_no_known_entity(capsys, metaqa_copy: Path, tree_snapshot) -> None:
    before = tree_snapshot(metaqa_copy)
    code, out, err = run(capsys, "--home", metaqa_copy, "ask", "xyzzy plugh frobnicate")
    assert code == 0, err
    assert "A: no answer found" in out
    assert "stopped: no answer found" in out
    code, out, _ = run(capsys, "--home", metaqa_copy, "ask", "xyzzy plugh frobnicate", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["answers"] == [] and data["steps"] == []
    assert data["stop_reason"].startswith("no answer found")
    # the KB is untouched; the run is stored (knowloop.duckdb) so it can get feedback
    after = tree_snapshot(metaqa_copy)
    assert {k: v for k, v in after.items() if not k.startswith("knowloop.duckdb")} == {
        k: v for k, v in before.items() if not k.startswith("knowloop.duckdb")
    }


# -- KB files ------------------------------------------------------------------------------


def test_binary_file_as_kb(capsys, knowloop_home: Path, binary_file: Path) -> None:
    code, out, err = run(capsys, "ask", "who plays for Arsenal", "--kb", binary_file)
    assert code == 2 and out == ""
    assert_one_line_error(err, "binary")
    assert not (knowloop_home / "kbs").exists()


def test_non_utf8_text_file_names_the_line(workspace: Workspace, tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("a|b|c\nd|e|f\nCaf\xe9|is|open\n".encode("latin-1"))
    with pytest.raises(KBFileError, match="line 3"):
        workspace.import_file(path)
    assert workspace.kb_names() == []


def test_malformed_lines_are_named(capsys, knowloop_home: Path, malformed_file: Path) -> None:
    code, out, err = run(capsys, "ask", "who knows Bob", "--kb", malformed_file)
    assert code == 2 and out == ""
    assert_one_line_error(err, "2 malformed lines (lines 3, 5)")
    with pytest.raises(KBFileError) as exc:
        Workspace().import_file(malformed_file)
    assert [(i.line, i.text) for i in exc.value.issues] == [(3, "Carol|knows"), (5, "Dave|likes|")]
    assert "found 2" in exc.value.issues[0].reason
    assert "empty object" in exc.value.issues[1].reason
    assert not (knowloop_home / "kbs").exists()


def test_empty_and_comment_only_files(workspace: Workspace, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    comments = tmp_path / "comments.txt"
    comments.write_text("# nothing here\n\n   \n")
    for path in (empty, comments):
        with pytest.raises(KBFileError, match="no triples"):
            workspace.import_file(path)
    assert workspace.kb_names() == []


def test_turtle_syntax_error_names_the_line(workspace: Workspace, tmp_path: Path) -> None:
    path = tmp_path / "broken.ttl"
    path.write_text(
        "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:d ex:e .\n", encoding="utf-8"
    )
    with pytest.raises(KBFileError) as exc:
        workspace.import_file(path)
    assert "broken.ttl" in str(exc.value) and "\n" not in str(exc.value)
    assert exc.value.issues and exc.value.issues[0].line == 3


def test_missing_kb_file(capsys, knowloop_home: Path, tmp_path: Path) -> None:
    code, _, err = run(capsys, "import", tmp_path / "nope.tsv")
    assert code == 2
    assert_one_line_error(err, "no such file")


def test_unknown_kb_name(capsys, knowloop_home: Path, metaqa_home: Path) -> None:
    code, out, err = run(capsys, "ask", "who plays for Arsenal", "--kb", "premier-league")
    assert code == 2 and out == ""
    assert_one_line_error(err, "no KB named or file at 'premier-league'")
    assert not (knowloop_home / "kbs").exists()
    code, _, err = run(
        capsys, "--home", metaqa_home, "ask", "who directed Black Snake Moan", "--kb", "nope"
    )
    assert code == 2
    assert_one_line_error(err, "imported KBs: metaqa")
