"""`knowloop` command line, run in-process with `core.cli.main` and once as `python -m core`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli import main
from core.evaluate import SUMMARY_KEYS

REPO = Path(__file__).resolve().parents[1]
ONE_HOP_QUESTIONS = REPO / "kb_data" / "metaqa" / "qa_dev_1hop.tsv"
HOSTILE = [
    "SELECT * WHERE { SERVICE <http://evil.example/sparql> { ?s ?p ?o } }",
    "INSERT DATA { <http://a.example/s> <http://a.example/p> <http://a.example/o> }",
    "DROP ALL",
    "LOAD <http://evil.example/data.ttl>",
    "DELETE WHERE { ?s ?p ?o }",
]

# the summary keys of `knowloop eval --json`, written out as the design contract fixes them
CONTRACT_KEYS = [
    "paradigm",
    "n",
    "hits_at_1",
    "exact_match",
    "f1",
    "median_latency_ms",
    "p95_latency_ms",
    "llm_calls",
    "prompt_tokens",
    "completion_tokens",
    "cost_usd",
]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("knowloop: error: ")
    for fragment in fragments:
        assert fragment in lines[0]


# -- ask -----------------------------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.8 s: `make test` runs it; the fast loop keeps cheaper ones
def test_ask_prints_answer_and_evidence(capsys, metaqa_copy: Path) -> None:
    code, out, err = run(capsys, "--home", metaqa_copy, "ask", "who directed Black Snake Moan")
    assert code == 0, err
    assert "A: Craig Brewer" in out
    assert "Black Snake Moan —directed by→ Craig Brewer" in out
    assert "stopped: judge reward 1.00 reached the threshold 0.8" in out
    assert "step 1:" in out


def test_ask_uses_knowloop_home(capsys, monkeypatch, metaqa_copy: Path) -> None:
    monkeypatch.setenv("KNOWLOOP_HOME", str(metaqa_copy))
    code, out, _ = run(capsys, "ask", "what movies did Temuera Morrison act in")
    assert code == 0
    assert "Once Were Warriors" in out


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_ask_json_prints_the_trace(capsys, metaqa_copy: Path) -> None:
    question = (
        "the films that share directors with the film [Black Snake Moan] were in which genres"
    )
    code, out, _ = run(capsys, "--home", metaqa_copy, "ask", question, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["question"] == question
    assert len(data["steps"]) == 3
    assert all(s["action"]["language"] == "sparql" for s in data["steps"])
    assert {a["label"] for a in data["answers"]} == {"Drama", "Music"}
    assert data["answers"][0]["evidence"]
    assert data["usage"]["llm_calls"] == 0


@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
def test_ask_settings_are_passed_through(capsys, metaqa_copy: Path) -> None:
    question = (
        "the films that share directors with the film [Black Snake Moan] were in which genres"
    )
    code, out, _ = run(capsys, "--home", metaqa_copy, "ask", question, "--json", "--max-steps", "1")
    assert code == 0
    data = json.loads(out)
    assert len(data["steps"]) == 1
    assert "step limit T=1" in data["stop_reason"]


@pytest.mark.parametrize(
    ("option", "value", "reason"),
    [
        ("--threshold", "1.01", "--threshold must be within [0, 1]"),
        ("--threshold", "-0.1", "--threshold must be within [0, 1]"),
        ("--max-steps", "0", "--max-steps must be at least 1"),
    ],
)
def test_ask_refuses_out_of_range_settings(
    capsys, metaqa_home: Path, option: str, value: str, reason: str
) -> None:
    code, out, err = run(
        capsys, "--home", metaqa_home, "ask", "who directed Black Snake Moan", option, value
    )
    assert code == 2
    assert out == ""
    assert_one_line_error(err, reason)


def test_unknown_paradigm_is_an_argument_error(capsys, metaqa_home: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--home", str(metaqa_home), "ask", "q", "--paradigm", "telepathy"])
    assert exc.value.code == 2
    assert "telepathy" in capsys.readouterr().err


def test_no_command_prints_help(capsys) -> None:
    code, out, _ = run(capsys)
    assert code == 2
    assert "ask" in out and "eval" in out and "sparql" in out


# -- eval ----------------------------------------------------------------------------------


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_eval_writes_the_summary_json(capsys, metaqa_copy: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "summary.json"
    code, out, err = run(
        capsys,
        "--home",
        metaqa_copy,
        "eval",
        "--questions",
        ONE_HOP_QUESTIONS,
        "--limit",
        "20",
        "--json",
        out_file,
    )
    assert code == 0, err
    summary = json.loads(out_file.read_text())
    # the contract's keys first, exactly; then the step-quality keys the WKM issue adds and
    # what backs the answers (support status, the LLM's claims)
    assert list(summary)[: len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert list(summary)[len(CONTRACT_KEYS) :] == [
        "steps_per_question",
        "invalid_step_share",
        "useless_step_share",
        "verified_share",
        "low_confidence_share",
        "unverified_share",
        "claims",
        "supported_claim_rate",
        "contradicted_claim_rate",
    ]
    # kg-only answers from KB facts: verified or (reward < R) low confidence, never unverified
    assert summary["unverified_share"] == 0
    assert summary["verified_share"] + summary["low_confidence_share"] == pytest.approx(1.0)
    assert summary["claims"] == 0 and summary["supported_claim_rate"] is None
    assert tuple(summary) == SUMMARY_KEYS
    assert summary["paradigm"] == "kg-only"
    assert summary["n"] == 20
    assert summary["hits_at_1"] >= 0.95
    assert 0 < summary["median_latency_ms"] <= summary["p95_latency_ms"]
    assert summary["llm_calls"] == 0 and summary["cost_usd"] == 0
    assert "20/20" in err and "eval kg-only" in err  # the progress bar, on stderr
    assert "hits_at_1" in out


@pytest.mark.slow
def test_eval_strip_brackets(capsys, metaqa_copy: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "summary.json"
    code, _, _ = run(
        capsys,
        "--home",
        metaqa_copy,
        "eval",
        "--questions",
        ONE_HOP_QUESTIONS,
        "--limit",
        "5",
        "--strip-brackets",
        "--json",
        out_file,
    )
    assert code == 0
    assert json.loads(out_file.read_text())["n"] == 5


def test_eval_refuses_a_file_without_the_columns(capsys, metaqa_home: Path, tmp_path) -> None:
    bad = tmp_path / "q.tsv"
    bad.write_text("text\tgold\nwho\tme\n", encoding="utf-8")
    code, _, err = run(capsys, "--home", metaqa_home, "eval", "--questions", bad)
    assert code == 2
    assert_one_line_error(err, "question", "answers")


# -- import and kbs ------------------------------------------------------------------------


def test_import_good_file_then_list(capsys, knowloop_home: Path, football_file: Path) -> None:
    code, out, err = run(capsys, "import", football_file, "--name", "football")
    assert code == 0, err
    assert out.startswith("imported football: 37 triples")
    assert (knowloop_home / "kbs" / "football" / "meta.json").is_file()
    code, out, _ = run(capsys, "kbs")
    assert code == 0
    assert out.startswith("football\t37 triples\t")


def test_import_bad_file_exits_2_with_one_line(
    capsys, knowloop_home: Path, binary_file: Path, malformed_file: Path
) -> None:
    code, out, err = run(capsys, "import", binary_file)
    assert code == 2 and out == ""
    assert_one_line_error(err, "garbage.bin", "binary")
    code, out, err = run(capsys, "import", malformed_file)
    assert code == 2 and out == ""
    assert_one_line_error(err, "malformed.txt", "lines 3, 5")
    assert not (knowloop_home / "kbs").exists()


def test_import_skip_bad_reports_skipped_lines(
    capsys, knowloop_home: Path, malformed_file: Path
) -> None:
    code, out, err = run(capsys, "import", malformed_file, "--skip-bad")
    assert code == 0
    assert out.startswith("imported malformed: 4 triples")
    assert "skipped 2 malformed lines" in err


def test_import_existing_name_needs_replace(capsys, football_file: Path, tiny_file: Path) -> None:
    assert run(capsys, "import", football_file, "--name", "kb")[0] == 0
    code, _, err = run(capsys, "import", tiny_file, "--name", "kb")
    assert code == 2
    assert_one_line_error(err, "exists")
    code, out, _ = run(capsys, "import", tiny_file, "--name", "kb", "--replace")
    assert code == 0 and "turtle" in out


# -- sparql --------------------------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.8 s: `make test` runs it; the fast loop keeps cheaper ones
def test_sparql_select(capsys, metaqa_home: Path) -> None:
    query = (
        "SELECT ?d WHERE { <https://knowloop.dev/kb/metaqa/e/Black%20Snake%20Moan> "
        "<https://knowloop.dev/kb/metaqa/r/directed_by> ?d }"
    )
    code, out, err = run(capsys, "--home", metaqa_home, "sparql", query)
    assert code == 0, err
    assert out.splitlines() == ["d", "https://knowloop.dev/kb/metaqa/e/Craig%20Brewer"]
    assert "1 rows" in err
    code, out, _ = run(capsys, "--home", metaqa_home, "sparql", query, "--json")
    assert code == 0
    assert json.loads(out)["rows"] == [["https://knowloop.dev/kb/metaqa/e/Craig%20Brewer"]]


@pytest.mark.parametrize("query", HOSTILE, ids=["service", "insert", "drop", "load", "delete"])
def test_sparql_refuses_hostile_queries(
    capsys, metaqa_home: Path, tree_snapshot, query: str
) -> None:
    before = tree_snapshot(metaqa_home)
    code, out, err = run(capsys, "--home", metaqa_home, "sparql", query)
    assert code == 2
    assert out == ""
    assert_one_line_error(err)
    assert "not allowed" in err
    assert tree_snapshot(metaqa_home) == before


# -- python -m core ------------------------------------------------------------------------


def _subprocess_env(home: Path) -> dict[str, str]:
    return {**os.environ, "KNOWLOOP_HOME": str(home)}


def _python_m_core(home: Path, *argv: str | bytes) -> subprocess.CompletedProcess:
    """`python -m core ARGV…` in a fresh process on workspace `home`."""
    return subprocess.run(
        [sys.executable, "-m", "core", *argv],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=_subprocess_env(home),
        timeout=60,
    )


def test_python_m_core_help(knowloop_home: Path) -> None:
    done = _python_m_core(knowloop_home, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage: knowloop" in done.stdout
    for command in ("ask", "eval", "import", "sparql", "kbs"):
        assert command in done.stdout
    assert not knowloop_home.exists()


@pytest.mark.slow
def test_python_m_core_ask_smoke(knowloop_home: Path, football_file: Path) -> None:
    done = _python_m_core(
        knowloop_home, "ask", "where was Erling Haaland born", "--kb", str(football_file)
    )
    assert done.returncode == 0, done.stderr
    assert "A: Leeds" in done.stdout
    assert len(list((knowloop_home / "kbs").iterdir())) == 1


# -- text that is not UTF-8 ----------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_python_m_core_refuses_a_question_that_is_not_utf8(
    knowloop_home: Path, football_file: Path
) -> None:
    """Bytes argv as a shell passes them: refused before any work, with where the byte is;
    exit 2, no run stored (once this answered, then crashed storing the run, exit 1)."""
    done = _python_m_core(
        knowloop_home, "ask", b"who directed Forrest Gump \xff", "--kb", str(football_file)
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "knowloop: error: the question is not valid UTF-8 text (byte 0xff at position 26)\n"
    )
    assert not knowloop_home.exists()  # no KB imported, no run store created


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["ask", "who directed Forrest Gump", "--kb", "m\udcff"], "--kb is not valid"),
        (["feedback", "1", "--comment", "caf\u00e9 \udcfe"], "(byte 0xfe at position 6)"),
        (["feedback", "1", "--rating", "good", "--who", "\udcc3"], "--who is not valid"),
        (["edit", "--add", "a|b|c\udcff", "--why", "fix"], "--add is not valid"),
        (["edit", "--add", "a|b|c", "--why", "fix \ud800"], "(lone surrogate U+D800 at"),
        (["sparql", "SELECT * WHERE { ?s ?p '\udcff' }"], "the query is not valid"),
    ],
)
def test_text_arguments_must_be_utf8(
    capsys, knowloop_home: Path, argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert_one_line_error(err, message, "is not valid UTF-8 text")
    assert not knowloop_home.exists()


@pytest.mark.slow  # imports a dev KB
def test_a_lifted_filter_is_noted_under_its_step(tmp_path: Path) -> None:
    """A step whose filter matches no candidate keeps them all, with a note (a word read
    wrongly must not empty the walk): the CLI prints the note under the step, so the step's
    "keeping those whose …" is not read as applied. ("where was X's father born" where X has
    no father in the family dev KB: the walk over his spouse keeps her, gender aside.)"""
    from core.cli import format_trace
    from tests.test_lexnet import engine_over

    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "family" / "kb.tsv"
    engine = engine_over(tmp_path, dev_kb, "family")
    trace = engine.ask("where was Hans Hoffmann's father born", kb="family")
    lifted = [s for s in trace.steps if s.action.details.get("note")]
    assert lifted and "not applied" in lifted[0].action.details["note"]
    assert f"    note: {lifted[0].action.details['note']}" in format_trace(trace).splitlines()
