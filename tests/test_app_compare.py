"""The Compare page through AppTest: two paradigms on one question, against a gold answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core import app_settings

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"


@pytest.fixture
def compare_page(metaqa_copy: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("KNOWLOOP_HOME", str(metaqa_copy))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    return at


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_two_paradigms_side_by_side_with_gold(compare_page: AppTest) -> None:
    at = compare_page
    at.text_input(key="cmp_question").input("who directed [Black Snake Moan]")
    at.multiselect(key="cmp_paradigms").set_value(["kg-only", "llm-only"])
    at.text_input(key="cmp_gold").input("Craig Brewer")
    at = at.form_submit_button[0].click().run()
    assert not at.exception, at.exception
    table = at.dataframe[0].value
    assert list(table["paradigm"]) == ["kg-only", "llm-only"]
    kg = table.iloc[0]
    assert kg["answer"] == "Craig Brewer" and bool(kg["correct"]) and kg["support"] == "verified"
    assert kg["llm_calls"] == 0 and 0 < kg["engine_ms"] <= kg["wall_ms"]
    llm = table.iloc[1]
    assert llm["llm_calls"] >= 1 and llm["tokens"] > 0
    assert llm["support"] in ("unverified", "no answer")  # never verified without KB evidence
    charts = [c.proto.spec for c in at.get("plotly_chart")]
    assert len(charts) == 2  # tokens and engine time; cost is 0 for both: left out
    assert any("Not charted" in c.value and "Cost" in c.value for c in at.caption)
    assert any("✅ correct" in m.value for m in at.markdown)
    assert any("verified" in s.value for s in at.success)  # kg-only's card is green


@pytest.mark.slow
def test_empty_question_is_refused_before_anything_runs(compare_page: AppTest) -> None:
    at = compare_page
    at.text_input(key="cmp_question").input("   ")
    at = at.form_submit_button[0].click().run()
    assert not at.exception, at.exception
    assert "the question is empty" in at.error[0].value
    assert not at.dataframe and not at.get("plotly_chart")


@pytest.mark.slow  # > 3 s: not in the fast loop
def test_t_and_r_controls_reach_the_runs(compare_page: AppTest) -> None:
    at = compare_page
    at.text_input(key="cmp_question").input("who directed the movies written by [Luc Besson]")
    at.multiselect(key="cmp_paradigms").set_value(["kg-only"])
    at.slider(key="cmp_max_steps").set_value(1)
    at = at.form_submit_button[0].click().run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value.iloc[0]["steps"] == 1


def test_no_paradigm_is_a_readable_error(compare_page: AppTest) -> None:
    at = compare_page
    at.text_input(key="cmp_question").input("who directed [Black Snake Moan]")
    at.multiselect(key="cmp_paradigms").set_value([])
    at = at.form_submit_button[0].click().run()
    assert not at.exception, at.exception
    assert "pick at least one paradigm" in at.error[0].value


@pytest.mark.slow  # ≈ 0.7 s: `make test` runs it; the fast loop keeps cheaper ones
def test_saved_settings_are_the_controls_defaults(
    metaqa_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KNOWLOOP_HOME", str(metaqa_copy))
    app_settings.save(app_settings.AppSettings(max_steps=1, threshold=0.5), metaqa_copy)
    try:
        at = AppTest.from_file(APP, default_timeout=120).run()
        at.switch_page("pages/compare.py").run()
        assert at.slider(key="cmp_max_steps").value == 1
        assert at.slider(key="cmp_threshold").value == 0.5
    finally:
        (metaqa_copy / "settings.json").unlink()
