"""Settings page: the model the LLM paradigms call (and whether its key is present), the
bundled local model, and the paradigm defaults the Ask page starts from.

UI only: reading, validating and writing `$KNOWLOOP_HOME/settings.json`, key checks and the
connection test are core.app_settings; this page never shows a key's value, only its name.
"""

from __future__ import annotations

from dataclasses import fields

import pandas as pd
import streamlit as st

from core.api import (
    DEADLINE_RANGE,
    SETTING_BY_NAME,
    SETTINGS,
    AppSettings,
    describe_paradigm,
    key_status,
    local_model_status,
    paradigm_names,
    test_connection,
)
from pages._shared import (
    get_engine,
    md,
    setting_widget,
    use_app_navigation,
)

PREFIX = "set_"  # widget key of a setting: "set_" + its AppSettings field name
LOADED = "set_loaded"  # the names of saved values the widgets could not show
# widget bounds of the numbers: the loop's from the settings spec (as validate checks them)
RANGES: dict[str, tuple[float, float]] = {
    s.name: (s.low, s.high) for s in SETTINGS if s.low is not None
}
RANGES["llm_deadline"] = DEADLINE_RANGE


# -- state -----------------------------------------------------------------------------------
def key(name: str) -> str:
    return PREFIX + name


def fits(name: str, value: object, default: object) -> bool:
    """Whether a saved value can be shown by its widget (a hand-edited file may hold anything;
    a widget given a value outside its bounds would stop the page)."""
    if name in RANGES:
        lo, hi = RANGES[name]
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and lo <= value <= hi and (isinstance(default, float) or value == int(value))
    spec = SETTING_BY_NAME.get(name)
    choices = paradigm_names() if name == "paradigm" else spec and spec.options()
    if choices is not None:
        return value in choices
    return isinstance(value, type(default))


def load_into_state() -> None:
    """Fill the widgets from settings.json when they have no state: on the first visit, and
    again after another page (Streamlit drops a widget's state when a run does not draw it).
    Reruns keep what the analyst typed. Values the widgets cannot show fall back to their
    defaults."""
    if all(key(f.name) in st.session_state for f in fields(AppSettings)):
        return
    saved, defaults = get_engine(open_default=False).settings.load(), AppSettings()
    refused = []
    for f in fields(AppSettings):
        value, default = getattr(saved, f.name), getattr(defaults, f.name)
        if not fits(f.name, value, default):
            refused.append(f.name)
            value = default
        if f.name in RANGES:
            value = type(default)(value)  # 3.0 for an int widget would stop the page
        st.session_state[key(f.name)] = value
    st.session_state[LOADED] = refused


def chosen() -> AppSettings:
    """The settings as the widgets show them now."""
    values = {f.name: st.session_state.get(key(f.name)) for f in fields(AppSettings)}
    values["model"] = (values["model"] or "").strip()
    values["api_base"] = (values["api_base"] or "").strip()
    for f in fields(AppSettings):
        if f.type in ("int", int) and values[f.name] is not None:
            values[f.name] = int(values[f.name])
    return AppSettings(**values)


# -- model -----------------------------------------------------------------------------------
def key_line(model: str, api_base: str) -> str:
    """What the key check says, by name only: a key's value is never read here."""
    status = key_status(model, api_base)
    if status.get("error"):
        return f"⚠️ cannot tell which key {md(model)} needs: {md(status['error'])}"
    if status["needs_key"] is False:
        return "✅ no key needed"
    missing = list(status["missing"])
    if missing and api_base and all(name.endswith("_API_BASE") for name in missing):
        return "✅ no key needed (the API base is set above)"
    if missing:
        return "❌ missing: " + ", ".join(f"`{name}`" for name in missing)
    found = ", ".join(f"`{name}`" for name in status.get("found") or [])
    return f"✅ key present ({found})" if found else "✅ key present"


def render_model() -> None:
    st.subheader("Model")
    c1, c2 = st.columns(2)
    c1.text_input(
        "Model (litellm name)",
        key=key("model"),
        placeholder="empty: $KNOWLOOP_MODEL or the bundled local model",
        help="any litellm model name, e.g. openai/gpt-4o-mini or ollama_chat/llama3.1",
    )
    c2.text_input(
        "API base",
        key=key("api_base"),
        placeholder="empty: the provider's default",
        help="for a local server, e.g. http://localhost:11434",
    )
    st.number_input(
        "LLM deadline per question (s)",
        *RANGES["llm_deadline"],
        step=10.0,
        key=key("llm_deadline"),
        help="all LLM calls and retries of one question; when it passes the run stops and "
        "says so (each call's timeout is cut to the time left)",
    )
    settings = chosen()
    model = settings.effective_model
    st.caption(f"Effective model: `{model}` · API key: {key_line(model, settings.api_base)}")
    if st.button("Test connection", key="set_test", help="one tiny real call to the model"):
        with st.spinner(f"Calling {model}…"):
            ok, message = test_connection(model, settings.api_base)
        (st.success if ok else st.error)(message)


def render_local_model() -> None:
    """What the bundled offline model is and whether it can run."""
    info = local_model_status()
    size = f"{info['size_mb']} MB" if info.get("size_mb") is not None else "not assembled yet"
    rows = {
        "model": info["model"],
        "file": info["file"],
        "assembled": "yes" if info["assembled"] else "no (assembled on first use)",
        "size": size,
        "weights package": "installed" if info.get("package_installed") else "missing",
        "runtime": info["runtime"] or "llama-cpp-python is not installed",
    }
    with st.expander("Bundled local model", expanded=False):
        st.table(pd.DataFrame({"value": rows}))


# -- paradigm defaults -----------------------------------------------------------------------
def render_defaults() -> None:
    st.subheader("Paradigm defaults")
    st.caption("The Ask page starts from these.")
    names = paradigm_names()
    c1, c2, c3 = st.columns([2, 2, 2])
    c1.selectbox(
        "Paradigm",
        names,
        key=key("paradigm"),
        help="\n\n".join(f"**{n}** — {describe_paradigm(n)}" for n in names),
    )
    setting_widget(c2, "max_steps", key("max_steps"))
    setting_widget(c3, "threshold", key("threshold"))
    c1, c2, c3, c4 = st.columns(4)
    for col, name in zip((c1, c2, c3, c4), ("judge", "width", "prior", "samples"), strict=True):
        setting_widget(col, name, key(name))
    setting_widget(st, "refresh", key("refresh"), horizontal=True)
    c1, c2, c3, c4 = st.columns(4, vertical_alignment="bottom")
    planning = setting_widget(c1, "planning", key("planning"))
    for col, name in zip((c2, c3, c4), ("lookahead", "beam", "proposals"), strict=True):
        setting_widget(col, name, key(name), disabled=not planning)


def render_save() -> None:
    """Validate and write; a refused value leaves the file as it was."""
    if not st.button("Save", key="set_save", type="primary"):
        return
    try:
        get_engine(open_default=False).settings.save(chosen())
    except ValueError as exc:
        st.error(f"Not saved: {exc}")
        return
    st.success(f"Saved to {md(get_engine(open_default=False).settings.path)}.")


# -- page ------------------------------------------------------------------------------------
def main() -> None:
    use_app_navigation()
    st.title("Settings")
    st.markdown(
        "Choose the model the LLM paradigms call and the defaults the Ask page starts from. "
        "Keys stay in the environment or in Streamlit secrets: this page only says whether "
        "one is present."
    )
    load_into_state()
    refused = st.session_state.get(LOADED)
    if refused:
        st.warning(
            "settings.json holds values this page cannot show; their defaults are shown "
            f"instead: {', '.join(refused)}."
        )
    render_model()
    render_local_model()
    render_defaults()
    render_save()


main()
