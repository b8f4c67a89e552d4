"""Example questions of a KB: from its question files, else written from its relations."""

from __future__ import annotations

from pathlib import Path

from core.examples import examples_for, phrase
from core.workspace import Workspace


def test_a_relation_label_reads_as_a_question() -> None:
    assert phrase("capital", "France") == "what is the capital of France"
    assert phrase("born in", "Ann Lee") == "Ann Lee born in what"
    assert phrase("directed by", "Heat") == "Heat directed by what"


def test_question_files_first_round_robin_then_relations(tmp_path: Path, football_file: Path):
    ws = Workspace(tmp_path / "home")
    ws.import_file(football_file, name="football")
    generated = examples_for(ws, "football")
    assert generated.origin == "the relations of football" and len(generated.questions) == 4
    assert generated == examples_for(ws, "football")  # stable: a fixed seed
    for i, rows in enumerate((["a [one]", "b"], ["c"])):
        path = tmp_path / f"q{i}.tsv"
        path.write_text("question\tanswers\n" + "".join(f"{q}\tx\n" for q in rows), "utf-8")
        ws.add_question_file("football", path, path.name)
    own = examples_for(ws, "football", n=3)
    assert own.origin == "the question files of football"
    assert sorted(own.questions) == ["a one", "b", "c"]  # both files, marks stripped
    assert own.questions[1] == "c"  # one from each file in turn
