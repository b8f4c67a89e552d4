"""The Compare page through AppTest: two paradigms on one question, against a gold answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core import app_settings

APP = Path(__file__).resolve().parents[1] / "streamlit_app.py"


@pytest.fixture
def compare_page(metaqa_home: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("KNOWLOOP_HOME", str(metaqa_home))
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.switch_page("pages/compare.py").run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Compare"
    return at


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
    assert (
        kg["answer"] == "Craig Brewer" and bool(kg["correct"]) and kg["evidence"] == "KG evidence"
    )
    assert kg["llm_calls"] == 0
    llm = table.iloc[1]
    assert llm["llm_calls"] >= 1 and llm["tokens"] > 0
    assert llm["evidence"] in ("unverified (LLM only)", "none")
    assert len(at.get("plotly_chart")) == 3  # tokens, cost, latency
    assert any("✅ correct" in m.value for m in at.markdown)


def test_no_paradigm_is_a_readable_error(compare_page: AppTest) -> None:
    at = compare_page
    at.text_input(key="cmp_question").input("who directed [Black Snake Moan]")
    at.multiselect(key="cmp_paradigms").set_value([])
    at = at.form_submit_button[0].click().run()
    assert not at.exception, at.exception
    assert "pick at least one paradigm" in at.error[0].value


def test_compare_uses_saved_settings(compare_page: AppTest, metaqa_home: Path) -> None:
    app_settings.save(app_settings.AppSettings(max_steps=1), metaqa_home)
    try:
        at = compare_page
        at.text_input(key="cmp_question").input("who directed the movies written by [Luc Besson]")
        at.multiselect(key="cmp_paradigms").set_value(["kg-only"])
        at = at.form_submit_button[0].click().run()
        assert at.dataframe[0].value.iloc[0]["steps"] == 1
    finally:
        (metaqa_home / "settings.json").unlink()
