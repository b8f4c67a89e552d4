"""`knowloop` commands of the outer loop, run in-process with `core.cli.main`: edit, history,
undo, redo, export, feedback, proposals, accept, reject, reask and runs. Happy paths print
what happened; bad input exits 2 with one line on stderr and changes nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyoxigraph as ox
import pytest

from core.cli import main
from core.kg.edits import LOG_NAME, rdf_patch
from core.kg.importer import entity_term, relation_term
from core.runs import DB_NAME, RunStore
from core.workspace import Workspace
from tests.fast_loop import spread

KB = "football"
TRANSFER_ADD = "Erling Haaland|plays_for|Arsenal"
TRANSFER_REMOVE = "Erling Haaland|plays_for|Manchester City"


def E(name: str) -> str:
    return entity_term(name, KB)


def R(name: str) -> str:
    return relation_term(name, KB)


def run(capsys: pytest.CaptureFixture[str], home: Path, *argv: str) -> tuple[int, str, str]:
    code = main(["--home", str(home), *[str(a) for a in argv]])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *fragments: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("knowloop: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], err


def store_triples(home: Path) -> set[tuple[str, str, str]]:
    store = ox.Store.read_only(str(home / "kbs" / KB / "store"))
    return {
        (str(q.subject), str(q.predicate), str(q.object))
        for q in store.quads_for_pattern(None, None, None, ox.DefaultGraph())
    }


def state(home: Path) -> tuple:
    """What a command could change: the edit log, the store, the saved index, the run store."""
    kb_dir = home / "kbs" / KB
    log, db = kb_dir / LOG_NAME, home / DB_NAME
    runs = RunStore(home)
    return (
        log.read_bytes() if log.exists() else None,
        store_triples(home),
        (kb_dir / "index.pickle").read_bytes(),
        [(r.id, r.answers) for r in runs.list(limit=1000)] if db.exists() else None,
        [(p.id, p.status) for p in runs.proposals(status=None)] if db.exists() else None,
    )


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, football_file: Path) -> Path:
    root = tmp_path_factory.mktemp("cli-template")
    Workspace(root).import_file(football_file, name=KB)
    return root


@pytest.fixture
def home(tmp_path: Path, template: Path) -> Path:
    """This test's own workspace holding a freshly imported football KB."""
    shutil.copytree(template, tmp_path / "home")
    return tmp_path / "home"


def edit(capsys, home: Path, *args: str) -> str:
    code, out, err = run(capsys, home, "edit", "--kb", KB, *args)
    assert code == 0, err
    assert err == ""
    return out


# -- edit, history, undo, redo ------------------------------------------------------------------


def test_edit_prints_the_saved_entry(capsys, home: Path) -> None:
    out = edit(
        capsys,
        home,
        "--add",
        TRANSFER_ADD,
        "--remove",
        TRANSFER_REMOVE,
        "--why",
        "transfer",
        "--who",
        "ana",
    )
    lines = out.splitlines()
    assert lines[0] == "saved #1 (edit) in football: transfer"
    assert "  + Erling Haaland —plays for→ Arsenal" in lines
    assert "  - Erling Haaland —plays for→ Manchester City" in lines
    assert lines[-1] == "version is now 1; affected questions: knowloop reask 1"
    assert (E("Erling Haaland"), R("plays_for"), E("Arsenal")) in store_triples(home)
    (entry,) = Workspace(home).editor(KB).history()
    assert (entry.who, entry.why) == ("ana", "transfer")


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_history_undo_redo(capsys, home: Path) -> None:
    edit(capsys, home, "--add", TRANSFER_ADD, "--why", "transfer", "--who", "ana")
    code, out, _ = run(capsys, home, "history", "--kb", KB)
    assert code == 0
    (line,) = out.splitlines()
    assert line.startswith("#1 ") and "edit by ana: transfer (+1 -0)" in line

    code, out, _ = run(capsys, home, "undo", "1", "--kb", KB, "--who", "bo", "--why", "oops")
    assert code == 0
    assert out.splitlines()[0] == "saved #2 (undo) in football: oops"
    assert "  - Erling Haaland —plays for→ Arsenal" in out.splitlines()
    assert (E("Erling Haaland"), R("plays_for"), E("Arsenal")) not in store_triples(home)

    code, out, _ = run(capsys, home, "history", "--kb", KB)
    first, second = out.splitlines()
    assert "(undone)" in first and "undo #1" in second and "by bo: oops" in second

    code, out, _ = run(capsys, home, "redo", "1", "--kb", KB)
    assert code == 0
    assert out.splitlines()[0] == "saved #3 (redo) in football: redo #1"
    assert (E("Erling Haaland"), R("plays_for"), E("Arsenal")) in store_triples(home)

    code, out, _ = run(capsys, home, "history", "--kb", KB, "--json")
    assert code == 0
    entries = json.loads(out)
    assert [e["kind"] for e in entries] == ["edit", "undo", "redo"]
    expected = [json.loads(e.to_json()) for e in Workspace(home).editor(KB).history()]
    assert entries == expected


def test_history_of_an_unedited_kb(capsys, home: Path) -> None:
    code, out, _ = run(capsys, home, "history", "--kb", KB)
    assert (code, out) == (0, "no edits yet\n")
    code, out, _ = run(capsys, home, "history", "--kb", KB, "--json")
    assert (code, json.loads(out)) == (0, [])


def test_a_new_relation_needs_the_flag(capsys, home: Path) -> None:
    code, _, err = run(
        capsys, home, "edit", "--kb", KB, "--add", "Ederson|nicknamed|Eddie", "--why", "w"
    )
    assert code == 2
    assert_one_line_error(err, "--allow-new-relation")
    out = edit(
        capsys, home, "--add", "Ederson|nicknamed|Eddie", "--why", "w", "--allow-new-relation"
    )
    assert out.startswith("saved #1 (edit)")


# -- export -------------------------------------------------------------------------------------


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_export_graph_and_history(capsys, home: Path, tmp_path: Path) -> None:
    edit(capsys, home, "--add", TRANSFER_ADD, "--remove", TRANSFER_REMOVE, "--why", "transfer")
    for name, fmt in (("kg.ttl", ox.RdfFormat.TURTLE), ("kg.nt", ox.RdfFormat.N_TRIPLES)):
        path = tmp_path / name
        code, out, _ = run(capsys, home, "export", path, "--kb", KB)
        assert code == 0 and out.startswith("wrote the knowledge graph") and str(path) in out
        parsed = {
            (str(t.subject), str(t.predicate), str(t.object))
            for t in ox.parse(path=str(path), format=fmt)
        }
        assert parsed == store_triples(home)
        assert (E("Erling Haaland"), R("plays_for"), E("Arsenal")) in parsed

    history = Workspace(home).editor(KB).history()
    code, out, _ = run(capsys, home, "export", tmp_path / "h.jsonl", "--kb", KB)
    assert code == 0 and "edit history" in out
    assert (tmp_path / "h.jsonl").read_text() == "".join(e.to_json() + "\n" for e in history)
    code, out, _ = run(capsys, home, "export", tmp_path / "h.rdfp", "--kb", KB)
    assert code == 0 and "RDF Patch" in out
    text = (tmp_path / "h.rdfp").read_text()
    assert text == rdf_patch(history)
    assert "TX ." in text and "TC ." in text
    assert f"A {E('Erling Haaland')} {R('plays_for')} {E('Arsenal')} ." in text
    assert f"D {E('Erling Haaland')} {R('plays_for')} {E('Manchester City')} ." in text


# -- ask, feedback, proposals, accept, reject, reask, runs ---------------------------------------


def plant_wrong_coach(capsys, home: Path) -> None:
    edit(
        capsys,
        home,
        "--add",
        "Arsenal|coached_by|Arne Slot",
        "--remove",
        "Arsenal|coached_by|Mikel Arteta",
        "--why",
        "bad import",
    )


def ask(capsys, home: Path, question: str = "Who coaches Arsenal?") -> tuple[int, str]:
    code, out, err = run(capsys, home, "ask", question, "--kb", KB)
    assert code == 0, err
    run_id = int(out.splitlines()[-1].split()[1].lstrip("#"))
    return run_id, out


@pytest.mark.slow
def test_feedback_accept_reask_runs(capsys, home: Path) -> None:
    plant_wrong_coach(capsys, home)
    run_id, out = ask(capsys, home)
    assert "A: Arne Slot" in out
    assert f"run #{run_id} — rate it: knowloop feedback {run_id}" in out

    code, out, _ = run(capsys, home, "runs", "--kb", KB)
    assert code == 0
    assert out.splitlines() == [f"#{run_id}\tfootball\tWho coaches Arsenal?\tArne Slot"]

    code, out, _ = run(
        capsys,
        home,
        "feedback",
        run_id,
        "--rating",
        "bad",
        "--comment",
        "Arteta coaches Arsenal",
        "--wrong",
        "Arsenal|coached_by|Arne Slot",
        "--propose-remove",
        "Arsenal|coached_by|Arne Slot",
        "--propose-add",
        "Arsenal|coached_by|Mikel Arteta",
        "--who",
        "ana",
    )
    assert code == 0
    assert out.splitlines() == [
        f"saved feedback #1 on run #{run_id}",
        "fix proposal #1 waits for review: knowloop accept 1",
    ]
    (feedback,) = RunStore(home).feedback_for(run_id)
    assert (feedback.rating, feedback.who) == (-1, "ana")
    assert [t.o_label for t in feedback.wrong] == ["Arne Slot"]

    code, out, _ = run(capsys, home, "proposals", "--kb", KB)
    assert code == 0
    assert out.splitlines() == [
        f"#1 [pending] run #{run_id} in football: Arteta coaches Arsenal",
        "  + Arsenal|coached_by|Mikel Arteta",
        "  - Arsenal|coached_by|Arne Slot",
    ]

    code, out, _ = run(capsys, home, "accept", "1", "--who", "reviewer")
    assert code == 0
    assert out.splitlines()[0] == "saved #2 (edit) in football: Arteta coaches Arsenal"
    entry = Workspace(home).editor(KB).history()[-1]
    assert (entry.id, entry.feedback_id, entry.who) == (2, feedback.id, "reviewer")
    proposal = RunStore(home).proposal(1)
    assert (proposal.status, proposal.edit_id) == ("accepted", 2)

    code, out, _ = run(capsys, home, "proposals", "--kb", KB)
    assert (code, out) == (0, "no proposals\n")
    code, out, _ = run(capsys, home, "proposals", "--all")
    assert out.splitlines()[0].startswith("#1 [accepted]")

    code, out, _ = run(capsys, home, "reask", "2", "--kb", KB)
    assert code == 0
    assert out.splitlines() == [
        "[CHANGED] Who coaches Arsenal?",
        "  before: Arne Slot",
        "  after:  Mikel Arteta",
    ]
    # asked again, the newest run of the question (the re-asked one) is already right
    code, out, _ = run(capsys, home, "reask", "2", "--kb", KB, "--json")
    (result,) = json.loads(out)
    assert result["run"] > run_id and result["question"] == "Who coaches Arsenal?"
    assert (result["before"], result["after"], result["changed"]) == (
        ["Mikel Arteta"],
        ["Mikel Arteta"],
        False,
    )

    code, out, _ = run(capsys, home, "runs", "--kb", KB, "--limit", "1")
    assert code == 0
    (newest,) = out.splitlines()
    assert newest.endswith("\tWho coaches Arsenal?\tMikel Arteta")
    code, out, _ = run(capsys, home, "runs", "--kb", KB)
    assert len(out.splitlines()) == 3  # the asked run and the two re-asked ones

    assert [label for _, label in RunStore(home).trajectories(kb=KB)] == ["rejected"]


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_reject_marks_the_proposal(capsys, home: Path) -> None:
    plant_wrong_coach(capsys, home)
    run_id, _ = ask(capsys, home)
    code, _, err = run(
        capsys,
        home,
        "feedback",
        run_id,
        "--rating",
        "bad",
        "--propose-add",
        "Arsenal|coached_by|Unai Emery",
    )
    assert code == 0, err
    before = store_triples(home)
    code, out, _ = run(capsys, home, "reject", "1", "--who", "reviewer")
    assert (code, out) == (0, "rejected proposal #1\n")
    assert RunStore(home).proposal(1).status == "rejected"
    assert store_triples(home) == before
    code, out, _ = run(capsys, home, "proposals", "--all", "--kb", KB)
    assert out.splitlines()[0] == f"#1 [rejected] run #{run_id} in football: "
    assert len(Workspace(home).editor(KB).history()) == 1


def test_reask_of_an_edit_no_stored_question_used(capsys, home: Path) -> None:
    edit(capsys, home, "--add", "Cole Palmer|plays_for|Chelsea FC", "--why", "w")
    code, out, _ = run(capsys, home, "reask", "1", "--kb", KB)
    assert (code, out) == (0, "no stored question used the triples edit #1 changed\n")


# -- bad input: exit 2, one line, nothing changed ---------------------------------------------

BAD = [
    pytest.param(
        ["edit", "--kb", KB, "--add", "Ederson|plays_for", "--why", "w"],
        "subject|relation|object",
        id="malformed",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--add", "|plays_for|Arsenal", "--why", "w"],
        "subject is empty",
        id="empty-field",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--add", "Ederson|plays_for|<bad iri", "--why", "w"],
        "IRI",
        id="bad-iri",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--add", '"x"|plays_for|Arsenal', "--why", "w"],
        "literal cannot be a subject",
        id="literal-subject",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--add", "Ederson|plays_for|Manchester City", "--why", "w"],
        "already in the knowledge graph",
        id="existing",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--remove", "Ederson|plays_for|Arsenal", "--why", "w"],
        "not in the knowledge graph",
        id="missing",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--remove", "Nobody|plays_for|Arsenal", "--why", "w"],
        "no entity named",
        id="unknown-entity",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--remove", "Ederson|likes|Arsenal", "--why", "w"],
        "no relation",
        id="unknown-relation",
    ),
    pytest.param(
        [
            "edit",
            "--kb",
            KB,
            "--add",
            "Ederson|plays_for|Arsenal",
            "--remove",
            "Ederson|plays_for|Arsenal",
            "--why",
            "w",
        ],
        "both added and removed",
        id="add-and-remove",
    ),
    pytest.param(
        ["edit", "--kb", KB, "--add", "Ed\x00erson|plays_for|Arsenal", "--why", "w"],
        "control characters",
        id="nul",
    ),
    pytest.param(["edit", "--kb", KB, "--why", "w"], "nothing to change", id="nothing"),
    pytest.param(
        ["edit", "--kb", "nosuchkb", "--add", "a|b|c", "--why", "w"], "nosuchkb", id="unknown-kb"
    ),
    pytest.param(
        [
            "edit",
            "--kb",
            KB,
            "--add",
            "Ederson|plays_for|Arsenal",
            "--why",
            "w",
            "--base-version",
            "-1",
        ],
        "",
        id="bad-base-version",
    ),
    pytest.param(["undo", "99", "--kb", KB], "no edit #99", id="undo-unknown"),
    pytest.param(["redo", "99", "--kb", KB], "no edit #99", id="redo-unknown"),
    pytest.param(["export", "out.csv", "--kb", KB], ".ttl or .nt", id="export-extension"),
    pytest.param(["feedback", "99", "--rating", "bad"], "no run 99", id="feedback-unknown-run"),
    pytest.param(["accept", "99"], "no proposal 99", id="accept-unknown"),
    pytest.param(["reask", "99", "--kb", KB], "no edit #99", id="reask-unknown"),
    pytest.param(["runs", "--limit", "0"], "limit", id="runs-limit"),
]


@pytest.mark.parametrize(("argv", "message"), spread(BAD, keep=6))
def test_bad_input_exits_2_with_one_line_and_changes_nothing(capsys, home, tmp_path, argv, message):
    before = state(home)
    argv = [str(tmp_path / a) if a == "out.csv" else a for a in argv]
    code, out, err = run(capsys, home, *argv)
    if "--base-version" in argv:  # a version that cannot exist is refused (as a conflict)
        assert code == 3 and err.startswith("knowloop: conflict:") and err.count("\n") == 1
    else:
        assert code == 2, err
        assert_one_line_error(err, message)
    assert out == ""
    assert state(home) == before
    assert not (tmp_path / "out.csv").exists()


@pytest.mark.slow
def test_bad_feedback_and_undo_after_real_activity_change_nothing(capsys, home: Path) -> None:
    plant_wrong_coach(capsys, home)
    run_id, _ = ask(capsys, home)
    before = state(home)
    cases = [
        (["feedback", run_id], "empty feedback"),
        (["feedback", run_id, "--wrong", "Arsenal|coached_by"], "subject|relation|object"),
        (["feedback", run_id, "--wrong", "Nobody|coached_by|Arsenal"], "no entity named"),
        (["feedback", run_id, "--propose-add", "Arsenal|coached_by"], "subject|relation|object"),
        (
            [
                "feedback",
                run_id,
                "--comment",
                "x",
                "--propose-add",
                "a|b|c",
                "--propose-remove",
                "a|b|c",
            ],
            "both",
        ),
        (["redo", "1", "--kb", KB], "not undone"),
        (["undo", "1", "--kb", KB, "--why", "a\x00b"], "NUL"),
        (["accept", "99"], "no proposal 99"),
        (["reject", "99"], "no proposal 99"),
    ]
    for argv, message in cases:
        code, out, err = run(capsys, home, *argv)
        assert code == 2, (argv, err)
        assert out == ""
        assert_one_line_error(err, message)
        assert state(home) == before, argv
    code, _, _ = run(capsys, home, "undo", "1", "--kb", KB)
    assert code == 0
    code, _, err = run(capsys, home, "undo", "1", "--kb", KB)
    assert code == 2
    assert_one_line_error(err, "already undone")
    code, _, err = run(capsys, home, "undo", "2", "--kb", KB)
    assert code == 2
    assert_one_line_error(err, "is an undo")


@pytest.mark.parametrize(
    "argv",
    [
        ["edit", "--kb", KB, "--add", "a|b|c"],  # --why is required
        ["undo", "one", "--kb", KB],
        ["feedback", "1", "--rating", "meh"],
    ],
    ids=["edit-without-why", "undo-non-integer", "bad-rating-choice"],
)
def test_argument_errors_exit_2(capsys, home: Path, argv: list[str]) -> None:
    before = state(home)
    with pytest.raises(SystemExit) as info:
        main(["--home", str(home), *argv])
    assert info.value.code == 2
    assert "error" in capsys.readouterr().err
    assert state(home) == before


def test_rejecting_an_unknown_proposal_creates_nothing(capsys, home: Path) -> None:
    code, _, err = run(capsys, home, "reject", "99")
    assert code == 2
    assert_one_line_error(err, "no proposal 99")
    assert not (home / DB_NAME).exists()
