"""The Ask page, driven headless through Streamlit's AppTest (no browser, no server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the module: the bundled KB is imported once (seconds), then reused."""
    return tmp_path_factory.mktemp("knowloop-home")


@pytest.fixture
def app(home: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("KNOWLOOP_HOME", str(home))
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception, at.exception
    return at


def ask(at: AppTest, question: str) -> AppTest:
    at.text_input(key="question").input(question)
    return at.form_submit_button[0].click().run()


def texts(at: AppTest) -> str:
    """Everything the page says, as one string to search."""
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.success] + [e.value for e in at.warning]
    parts += [e.value for e in at.error]
    return "\n".join(str(p) for p in parts)


def test_page_renders_widgets(app: AppTest) -> None:
    assert app.title[0].value == "Ask"
    assert app.text_input(key="question").value == ""
    assert [b.label for b in app.form_submit_button] == ["Run"]
    assert "kg-only" in app.selectbox(key="paradigm").options
    assert app.slider(key="max_steps").value == 4
    assert app.slider(key="threshold").value == pytest.approx(0.8)
    assert 3 <= len([b for b in app.button if (b.key or "").startswith("example_")]) <= 5
    assert not app.error


@pytest.mark.slow
def test_question_is_answered_with_steps(app: AppTest) -> None:
    at = ask(app, "who directed Black Snake Moan")
    assert not at.exception, at.exception
    assert not at.error
    assert "Craig Brewer" in at.success[0].value
    page = texts(at)
    assert "Step 1 — " in page
    assert "Black Snake Moan —directed by→ Craig Brewer" in page.replace("\\", "")
    assert at.status[0].label.startswith("Answered in 1 step")
    assert at.code[0].language == "sparql"
    assert at.session_state["ask_trace"].answer_labels[0] == "Craig Brewer"
    assert at.download_button[0].label == "Download trace (JSON)"


@pytest.mark.slow
def test_the_answer_card_leads_with_a_verified_status(app: AppTest) -> None:
    """(That the card sits above the steps is checked in the browser test.)"""
    at = ask(app, "who directed Black Snake Moan")
    assert "✓ verified" in at.success[0].value and "in the KB" in at.success[0].value
    labels = [e.label for e in at.expander]
    assert any(label.startswith("1. Craig Brewer · score") for label in labels)


@pytest.mark.slow
def test_an_answer_the_judge_doubts_is_not_green(app: AppTest) -> None:
    at = app
    at.slider(key="max_steps").set_value(1)  # one hop of a two-hop question
    at = ask(at, "who directed the movies written by [Luc Besson]")
    assert not at.exception, at.exception
    assert not at.success, [s.value for s in at.success]
    assert "low confidence" in at.warning[0].value and "below R" in at.warning[0].value


@pytest.mark.slow
def test_a_fault_in_drawing_never_loses_the_run(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pages._render

    def broken(*args, **kwargs):
        raise RuntimeError("the chart library broke")

    monkeypatch.setattr(pages._render, "draw_chart", broken)
    at = ask(app, "who directed Black Snake Moan")
    assert not at.exception, at.exception
    assert any("Live drawing stopped" in w.value for w in at.warning)
    assert at.session_state["ask_trace"].answer_labels[0] == "Craig Brewer"  # kept
    assert at.session_state["ask_run"][0] is not None  # and stored: feedback works
    assert "Craig Brewer" in at.success[0].value


@pytest.mark.slow
def test_the_plan_says_why_it_was_chosen(app: AppTest) -> None:
    """Every planner signal, its weight and what it added, and the relation words matched."""
    at = ask(app, "who is the director of Black Snake Moan")
    assert not at.exception, at.exception
    labels = [e.label for e in at.expander]
    assert any(label.startswith("Why this plan") for label in labels)
    table = next(df.value for df in at.dataframe if "signal" in df.value.columns)
    assert {"signal", "value", "weight", "adds"} <= set(table.columns)
    assert "coverage_soft" in set(table["signal"])
    assert "director → directed by" in texts(at)


@pytest.mark.slow
def test_trace_survives_a_rerun(app: AppTest) -> None:
    at = ask(app, "who directed Black Snake Moan").run()  # a plain rerun, e.g. a download click
    assert not at.exception, at.exception
    assert "Craig Brewer" in at.success[0].value
    assert at.status[0].label.startswith("Answered in")


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_empty_question_shows_an_error(app: AppTest) -> None:
    at = ask(app, "   ")
    assert not at.exception, at.exception
    assert len(at.error) == 1
    assert "the question is empty" in at.error[0].value
    assert not at.success


def test_unknown_entity_says_no_answer_with_reason(app: AppTest) -> None:
    at = ask(app, "who is Zorglubnik Quaxx")
    assert not at.exception, at.exception
    assert not at.success
    warning = at.warning[0].value
    assert "No answer" in warning
    assert "no entity of the knowledge graph" in warning.lower().replace("\\", "")
    assert at.status[0].label.startswith("No answer")


def test_example_button_fills_the_box(app: AppTest) -> None:
    button = app.button(key="example_0")
    at = button.click().run()
    assert not at.exception, at.exception
    assert at.text_input(key="question").value == button.label
    assert at.text_input(key="question").value


# -- the live view, LLM options, exports -----------------------------------------------------
@pytest.mark.slow
def test_run_draws_graph_reward_chart_and_totals(app: AppTest) -> None:
    at = ask(app, "what movies did [Keanu Reeves] act in")
    assert not at.exception, at.exception
    frames = at.get("iframe")
    assert frames, "the reasoning graph is drawn in an iframe"
    graph = frames[0].proto.srcdoc
    assert "vis.DataSet" in graph and "Keanu Reeves" in graph
    assert "cdn.jsdelivr" not in graph and '<script src="http' not in graph
    assert at.get("plotly_chart"), "the judge's reward chart"
    assert [m.label for m in at.metric][:5] == ["steps", "LLM calls", "tokens", "cost", "time"]


@pytest.mark.slow
def test_html_report_download_is_offered(app: AppTest) -> None:
    at = ask(app, "who directed [Black Snake Moan]")
    labels = [b.label for b in at.download_button]
    assert labels == ["Download trace (JSON)", "Download report (HTML)"]


@pytest.mark.slow
def test_bad_saved_settings_fall_back_to_defaults_with_a_warning(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KNOWLOOP_HOME", str(home))
    (home / "settings.json").write_text('{"max_steps": 99, "judge": "nope"}')
    try:
        at = AppTest.from_file(APP, default_timeout=60).run()
        assert not at.exception, at.exception
        assert "saved settings ignored" in at.warning[0].value
        assert at.slider(key="max_steps").value == 4
        at = ask(at, "who directed [Black Snake Moan]")
        assert "Craig Brewer" in at.success[0].value
    finally:
        (home / "settings.json").unlink()


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_llm_down_is_reported_on_the_step_not_as_a_traceback(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A provider that cannot be reached (no key): the LLM-only run fails readably."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    app.text_input(key="question").input("who directed Black Snake Moan")
    app.selectbox(key="paradigm").set_value("llm-only")
    app.text_input(key="opt_model").input("openai/gpt-4o-mini")
    at = app.form_submit_button[0].click().run()
    assert not at.exception, at.exception
    page = texts(at)
    assert "The query failed" in page and ("api_key" in page.lower() or "key" in page.lower())
    assert at.status[0].label.startswith("No answer")
