"""One KB choice for every page (sidebar picker, kept across pages and in the URL), example
questions from the chosen KB, and a returning user seeing the run they left with its own
question and paradigm. Driven headless through AppTest over small KBs of their own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.workspace import Workspace

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"
PAGES = ("pages/compare.py", "pages/kg_editor.py", "pages/sources.py", "pages/knowledge.py")


@pytest.fixture
def home(knowloop_home: Path, tmp_path: Path, football_file: Path, tiny_file: Path) -> Path:
    """$KNOWLOOP_HOME with two small KBs and no bundled one."""
    ws = Workspace(knowloop_home)
    for src, name in ((football_file, "football"), (tiny_file, "tiny")):
        copy = tmp_path / src.name
        shutil.copy(src, copy)
        ws.import_file(copy, name=name)
    return knowloop_home


def start(query_params: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    for key, value in (query_params or {}).items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def picked(at: AppTest) -> str:
    return at.selectbox(key="kb_picker").value


def go(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


def test_the_choice_follows_the_user_to_every_page(home: Path) -> None:
    at = start()
    assert picked(at) == "football"  # no bundled KB here: the first one
    assert at.selectbox(key="kb_picker").options == ["football", "tiny"]
    at.selectbox(key="kb_picker").set_value("tiny").run()
    assert at.query_params["kb"] == "tiny"
    for page in PAGES:
        assert picked(go(at, page)) == "tiny", page
    assert picked(go(at, "pages/ask.py")) == "tiny"


@pytest.mark.slow
def test_a_reload_keeps_the_choice_from_the_url(home: Path) -> None:
    assert picked(start({"kb": "tiny"})) == "tiny"
    assert picked(start({"kb": "no-such-kb"})) == "football"  # a stale link: the default


@pytest.mark.slow
def test_ask_answers_on_the_chosen_kb(home: Path) -> None:
    at = start()
    at.text_input(key="question").input("where was Ederson born")
    at = at.form_submit_button[0].click().run()
    trace = at.session_state["ask_trace"]
    assert trace.kb == "football"
    assert trace.answer_labels[:1] == ["Osasco"]


@pytest.mark.slow
def test_examples_belong_to_the_chosen_kb(home: Path, tmp_path: Path) -> None:
    at = start()
    captions = " ".join(c.value for c in at.caption)
    assert "Examples from the relations of football" in captions
    examples = [b.label for b in at.button if (b.key or "").startswith("example_")]
    kg = Workspace(home).kg("football")
    relations = [r.label for r in sorted(kg.relations, key=lambda r: -r.count)][:4]
    assert len(examples) == len(relations)
    for question, relation in zip(examples, relations, strict=True):  # its own relations
        assert relation in question, (question, relation)

    questions = tmp_path / "football_questions.tsv"
    questions.write_text("question\tanswers\nwhere was Ederson born\tOsasco\n", encoding="utf-8")
    Workspace(home).add_question_file("football", questions, "football_questions.tsv")
    at = start()
    examples = [b.label for b in at.button if (b.key or "").startswith("example_")]
    assert examples == ["where was Ederson born"]


@pytest.mark.slow
def test_returning_to_ask_shows_the_run_with_its_question_and_paradigm(home: Path) -> None:
    at = start()
    at.text_input(key="question").input("where was Ederson born")
    at.selectbox(key="paradigm").set_value("kg-only")
    at.slider(key="max_steps").set_value(3)
    at = at.form_submit_button[0].click().run()
    at = go(go(at, "pages/sources.py"), "pages/ask.py")
    assert at.text_input(key="question").value == "where was Ederson born"
    assert at.selectbox(key="paradigm").value == "kg-only"
    assert at.slider(key="max_steps").value == 3
    trace = at.session_state["ask_trace"]
    assert trace.question == "where was Ederson born" and trace.paradigm == "kg-only"
    assert any("Osasco" in m.value for m in at.markdown)


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_choosing_another_kb_drops_the_old_kbs_run(home: Path) -> None:
    at = start()
    at.text_input(key="question").input("where was Ederson born")
    at = at.form_submit_button[0].click().run()
    assert "ask_trace" in at.session_state
    at.selectbox(key="kb_picker").set_value("tiny").run()
    assert "ask_trace" not in at.session_state
    assert at.text_input(key="question").value == ""


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_returning_to_evaluate_shows_the_evaluation_and_its_choices(
    home: Path, tmp_path: Path
) -> None:
    questions = tmp_path / "football_questions.tsv"
    questions.write_text(
        "question\tanswers\nwhere was Ederson born\tOsasco\nwho plays for Atlantis\tNobody\n",
        encoding="utf-8",
    )
    Workspace(home).add_question_file("football", questions, questions.name)
    at = go(start(), "pages/evaluate.py")
    at.slider(key="ev_max_steps").set_value(3)
    at = at.button(key="ev_run").click().run()
    at.toggle(key="ev_failures").set_value(True).run()
    at = go(go(at, "pages/sources.py"), "pages/evaluate.py")
    assert at.slider(key="ev_max_steps").value == 3
    assert at.toggle(key="ev_failures").value is True
    assert at.selectbox(key="ev_file").value == "football_questions.tsv"
    assert any(s.value.startswith("Evaluation #1") for s in at.subheader)
    assert any(m.label == "Hits@1 · kg-only" and m.value == "0.50" for m in at.metric)
