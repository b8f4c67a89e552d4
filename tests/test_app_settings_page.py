"""The Settings page, driven headless through AppTest: defaults, saving to settings.json,
refused values, key presence (names only, never values) and the connection test.

The page is opened directly (pytest puts the repo root on sys.path, so `pages._shared`
imports); KNOWLOOP_HOME is the per-test workspace conftest sets.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import core.api
from core import app_settings
from core.loop import LoopSettings

PAGE = Path(__file__).resolve().parents[1] / "pages" / "settings.py"
FAKE_KEY = "sk-test-123456789"
API_MODEL = "openai/gpt-4o-mini"


@pytest.fixture(autouse=True)
def no_env_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """The effective model must not depend on the developer's shell."""
    monkeypatch.delenv("KNOWLOOP_MODEL", raising=False)
    monkeypatch.delenv("KNOWLOOP_API_BASE", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


def open_page() -> AppTest:
    return run(AppTest.from_file(PAGE, default_timeout=60))


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, at.exception
    return at


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    for kind in (at.success, at.info, at.warning, at.error):
        parts += [e.value for e in kind]
    return "\n".join(str(p) for p in parts).replace("\\", "")


def everything(at: AppTest) -> str:
    """Every element the page sent (protos, so labels, values, help and options) and the
    session state: where a leaked key would show."""
    parts = [str(node.proto) for node in at if getattr(node, "proto", None) is not None]
    return "\n".join(parts) + repr(at.session_state.to_dict())


def set_model(at: AppTest, model: str) -> AppTest:
    at.text_input(key="set_model").input(model)
    return run(at)


def saved_file(home: Path) -> Path:
    return home / app_settings.FILE


@pytest.mark.slow  # ≈ 0.3 s: `make test` runs it; the fast loop keeps cheaper ones
def test_renders_with_defaults(knowloop_home: Path) -> None:
    at = open_page()
    assert at.title[0].value == "Settings"
    assert at.text_input(key="set_model").value == ""
    assert at.text_input(key="set_api_base").value == ""
    page = texts(at)
    assert "Effective model: `local/gemma-3-270m`" in page
    assert "no key needed" in page
    assert at.selectbox(key="set_paradigm").value == "kg-only"
    assert at.slider(key="set_max_steps").value == LoopSettings.max_steps
    assert at.slider(key="set_threshold").value == pytest.approx(LoopSettings.threshold)
    assert at.selectbox(key="set_judge").value == ""
    assert at.number_input(key="set_width").value == LoopSettings.width
    assert at.radio(key="set_refresh").value == "always"
    assert at.checkbox(key="set_planning").value is False
    assert at.number_input(key="set_lookahead").disabled  # only with planning
    local = at.table[0].value["value"]
    assert local["model"] == "local/gemma-3-270m"
    assert {"file", "assembled", "size", "runtime"} <= set(local.index)
    assert not at.error and not at.warning
    assert not saved_file(knowloop_home).exists()  # opening the page writes nothing


@pytest.mark.slow
def test_save_writes_settings_and_a_new_session_shows_them(knowloop_home: Path) -> None:
    at = set_model(open_page(), "  ollama_chat/llama3.1 ")
    at.text_input(key="set_api_base").input("http://localhost:11434")
    at.slider(key="set_threshold").set_value(0.6)
    at.selectbox(key="set_judge").set_value("consensus")
    at.checkbox(key="set_planning").check()
    at = run(at)
    at.number_input(key="set_beam").set_value(4)
    at.button(key="set_save").click()
    at = run(at)
    assert not at.error, [e.value for e in at.error]
    assert at.success[0].value.startswith("Saved")
    data = json.loads(saved_file(knowloop_home).read_text())
    assert data["model"] == "ollama_chat/llama3.1"  # stripped
    assert data["api_base"] == "http://localhost:11434"
    assert data["threshold"] == pytest.approx(0.6)
    assert (data["judge"], data["planning"], data["beam"]) == ("consensus", True, 4)
    assert app_settings.load(home=knowloop_home).effective_model == "ollama_chat/llama3.1"

    fresh = open_page()
    assert fresh.text_input(key="set_model").value == "ollama_chat/llama3.1"
    assert fresh.slider(key="set_threshold").value == pytest.approx(0.6)
    assert fresh.selectbox(key="set_judge").value == "consensus"
    assert fresh.number_input(key="set_beam").value == 4
    assert not fresh.number_input(key="set_beam").disabled
    assert "Effective model: `ollama_chat/llama3.1`" in texts(fresh)


def test_a_refused_value_shows_the_reason_and_leaves_the_file(
    knowloop_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The widgets' bounds match LoopSettings.validate, so no refused value can be typed;
    a stricter validate (as a later core version might have) stands in for one."""
    app_settings.save(app_settings.AppSettings(width=3), home=knowloop_home)
    before = saved_file(knowloop_home).read_bytes()
    strict = LoopSettings.validate

    def stricter(self: LoopSettings) -> None:
        if self.width > 5:
            raise ValueError("width must be within 1..5")
        strict(self)

    monkeypatch.setattr(LoopSettings, "validate", stricter)
    at = open_page()
    at.number_input(key="set_width").set_value(7)
    at.button(key="set_save").click()
    at = run(at)
    assert [e.value for e in at.error] == ["Not saved: width must be within 1..5"]
    assert not at.success
    assert saved_file(knowloop_home).read_bytes() == before


@pytest.mark.slow  # ≈ 3.8 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_hand_edited_file_falls_back_to_defaults_with_a_warning(knowloop_home: Path) -> None:
    knowloop_home.mkdir(parents=True)
    bad = {"model": "openai/gpt-4o-mini", "width": 99, "judge": "oracle", "max_steps": 2.0}
    saved_file(knowloop_home).write_text(json.dumps(bad))
    at = open_page()
    warning = at.warning[0].value
    assert "width" in warning and "judge" in warning and "max_steps" not in warning
    assert at.number_input(key="set_width").value == LoopSettings.width
    assert at.selectbox(key="set_judge").value == ""
    assert at.slider(key="set_max_steps").value == 2
    assert at.text_input(key="set_model").value == "openai/gpt-4o-mini"


def test_key_status_names_the_missing_key(knowloop_home: Path) -> None:
    at = set_model(open_page(), API_MODEL)
    page = texts(at)
    assert f"Effective model: `{API_MODEL}`" in page
    assert "missing: `OPENAI_API_KEY`" in page


@pytest.mark.slow  # ≈ 0.5 s: `make test` runs it; the fast loop keeps cheaper ones
def test_a_present_key_is_reported_but_never_shown(
    knowloop_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", FAKE_KEY)
    at = set_model(open_page(), API_MODEL)
    page = texts(at)
    assert "key present" in page and "missing" not in page
    at.button(key="set_save").click()
    at = run(at)
    assert at.success
    shown = everything(at)
    assert "API base" in shown and API_MODEL in shown  # nested elements are searched too
    assert FAKE_KEY not in shown
    assert FAKE_KEY not in saved_file(knowloop_home).read_text()


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_connection_failure_shows_the_exact_error(knowloop_home: Path) -> None:
    """No key: litellm refuses before any request leaves the machine."""
    at = set_model(open_page(), API_MODEL)
    at.button(key="set_test").click()
    at = run(at)
    assert not at.success
    [error] = [e.value for e in at.error]
    assert error.startswith(f"{API_MODEL}: ") and "OPENAI_API_KEY" in error


def test_connection_success_shows_the_message(
    knowloop_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real call is covered above (failure) and by test_llm; here only what the page
    does with a success, without loading the local model."""
    calls = []

    def fake(model: str, api_base: str = "", timeout_s: float = 20.0) -> tuple[bool, str]:
        calls.append((model, api_base))
        return True, f"{model} answered 'OK' in 12 ms"

    monkeypatch.setattr(core.api, "test_connection", fake)  # the name the page reads
    at = open_page()
    at.text_input(key="set_api_base").input("http://localhost:8080")
    at = run(at)
    at.button(key="set_test").click()
    at = run(at)
    assert calls == [("local/gemma-3-270m", "http://localhost:8080")]
    assert at.success[0].value == "local/gemma-3-270m answered 'OK' in 12 ms"
    assert not at.error


def test_the_llm_deadline_is_saved_and_a_hand_edited_one_is_bounded(knowloop_home: Path) -> None:
    at = open_page()
    assert at.number_input(key="set_llm_deadline").value == pytest.approx(120.0)
    at.number_input(key="set_llm_deadline").set_value(45.0)
    at.button(key="set_save").click()
    at = run(at)
    assert at.success and not at.error
    assert json.loads(saved_file(knowloop_home).read_text())["llm_deadline"] == 45.0
    assert app_settings.load(home=knowloop_home).loop_settings().llm.deadline_s == 45.0
    assert open_page().number_input(key="set_llm_deadline").value == pytest.approx(45.0)

    saved_file(knowloop_home).write_text(json.dumps({"llm_deadline": 99999}))
    fresh = open_page()
    assert "llm_deadline" in fresh.warning[0].value
    assert fresh.number_input(key="set_llm_deadline").value == pytest.approx(120.0)
