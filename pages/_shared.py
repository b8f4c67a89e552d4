"""Helpers every page shares: the per-process Engine, the bundled example questions and a few
small formatting helpers for triples and diffs.

Pages stay UI-only; anything that touches the engine goes through here or through core.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable
from typing import Any

import streamlit as st

from core.api import (
    DEFAULT_KB,
    NAMED_ALIKE,
    Engine,
    Examples,
    FeedbackLoop,
    Triple,
    Workspace,
    apply_secrets,
    default_home,
    examples_for,
    find_entities,
    setting,
    warm_up,
)

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~])")


@st.cache_resource(show_spinner=False)
def _engine_for(home: str) -> Engine:
    """One Engine (so one Workspace, one set of open KBs) per workspace per process."""
    return Engine(Workspace(home))


@st.cache_resource(show_spinner="Opening the knowledge graph (the first start imports it)…")
def _kb_prepared(home: str, kb: str) -> bool:
    """Open a KB once per process, doing the one-off import of the bundled one and the
    relation semantics before any user waits on a question."""
    _engine_for(home).prepare(None if kb == DEFAULT_KB else kb)
    return True


def start_up() -> None:
    """Once per server process: provider keys from Streamlit secrets into the environment
    (never displayed or stored)."""
    _secrets_once()


@st.cache_resource(show_spinner=False)
def _secrets_once() -> bool:
    try:
        apply_secrets(st.secrets)
    except Exception:  # no secrets.toml: nothing to apply  # noqa: BLE001
        pass
    return True


def warm_up_llm() -> None:
    """After the first run has been drawn: import litellm and load the model in the
    background, so the first LLM question does not wait for them. Not at start: litellm's
    import holds the GIL for seconds and would delay the first question on a small machine."""
    if not os.environ.get("KNOWLOOP_NO_WARM_UP"):
        _warm_up_once(get_engine(open_default=False).settings.load().effective_model)


@st.cache_resource(show_spinner=False)
def _warm_up_once(model: str) -> bool:
    def warm() -> None:
        try:
            warm_up(model)
        except Exception:  # noqa: BLE001 — the first LLM run reports the real error
            pass

    threading.Thread(target=warm, name="knowloop-llm-warm-up", daemon=True).start()
    return True


def get_engine(*, open_default: bool = True) -> Engine:
    """The shared Engine for the current $KNOWLOOP_HOME (keyed by it, so tests can isolate).

    By default the chosen KB (the bundled one until `choose_kb` says otherwise) is opened and
    prepared first, under a spinner; `open_default=False` skips that (listing KBs, editing)."""
    home = str(default_home())
    if open_default:
        _kb_prepared(home, current_kb() or DEFAULT_KB)
    return _engine_for(home)


def kb_names_importing_default(ws: Workspace) -> list[str] | None:
    """The workspace's KBs; on a fresh workspace the bundled KB is imported first (once).
    None (after a readable error on the page) when even that fails."""
    names = ws.kb_names()
    if names:
        return names
    with st.spinner("Importing the bundled knowledge graph (once)…"):
        try:
            ws.resolve(None)
        except ValueError as exc:
            st.error(f"Cannot open the bundled knowledge graph: {exc}")
            return None
    return ws.kb_names()


# -- the one KB choice every page shares ----------------------------------------------------
KB_KEY = "kb"  # the chosen KB's name: plain session state, so it outlives each page's widgets
_KB_WIDGET = "kb_picker"


_NAVIGATION_CHECKED = "_app_navigation_checked"


def use_app_navigation() -> None:
    """Run every page through streamlit_app.py's navigation, even on a fresh server whose
    first request names a page (a bookmark, a reload of /data): Streamlit then runs that page
    file bare, in its legacy pages/-folder mode (every file of pages/ listed as a page, no
    icons), until some session has run the navigation once. Leave that mode and run again."""
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    if get_script_run_ctx() is None or st.session_state.get(_NAVIGATION_CHECKED):
        return
    st.session_state[_NAVIGATION_CHECKED] = True  # a session's first run is the one at stake
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()


def choose_kb() -> str | None:
    """Draw the one knowledge-graph picker (sidebar) and return the chosen KB's name.

    Every page calls this once at its top. The choice lives in session state (kept across
    pages) and in the URL's ``?kb=`` (kept across reloads and shareable); the bundled
    default until the user picks another. None (after a readable error) when no KB opens."""
    use_app_navigation()
    names = kb_names_importing_default(get_engine(open_default=False).workspace)
    if not names:
        return None
    state = st.session_state
    chosen = state.get(KB_KEY) or st.query_params.get("kb")
    if chosen not in names:  # deleted meanwhile, or a stale link
        chosen = DEFAULT_KB if DEFAULT_KB in names else names[0]
    state[KB_KEY] = state[_KB_WIDGET] = chosen
    st.sidebar.selectbox(
        "Knowledge graph",
        names,
        key=_KB_WIDGET,
        on_change=_kb_picked,
        help="the KB every page works on; import your own on the Data page",
    )
    if st.query_params.get("kb") != chosen:
        st.query_params["kb"] = chosen
    return chosen


def _kb_picked() -> None:
    st.session_state[KB_KEY] = st.session_state[_KB_WIDGET]


# -- what a page showed, kept while the user visits other pages ---------------------------------
def keep_widgets(page: str, keys: tuple[str, ...]) -> None:
    """Remember the values a form was submitted with: Streamlit drops a widget's state when
    another page runs, so without this a returning user would see the run on show beside an
    empty question box and the default paradigm."""
    state = st.session_state
    state[f"{page}_kept"] = {k: state[k] for k in keys if k in state}


def restore_widgets(page: str) -> None:
    """Put back what `keep_widgets` remembered, for the widgets whose state was dropped."""
    for key, value in (st.session_state.get(f"{page}_kept") or {}).items():
        if key not in st.session_state:
            st.session_state[key] = value


def forget_page(page: str, keys: tuple[str, ...]) -> None:
    """Drop a page's kept run and form (the user chose another KB: they belong to the old)."""
    st.session_state.pop(f"{page}_kept", None)
    for key in keys:
        st.session_state.pop(key, None)


def current_kb() -> str | None:
    """The KB chosen with `choose_kb` (None before any page drew the picker)."""
    return st.session_state.get(KB_KEY)


def pick_entity(kg, query_key: str, pick_key: str, placeholder: str, radio: bool = False):
    """Search box, then every match in a picker, the likeliest first (core.kg.lookup decides:
    a keyword node named like a person does not hide the person); the chosen node id, or
    None while nothing is typed or nothing matches."""
    query = st.text_input("Find an entity", key=query_key, placeholder=placeholder)
    if not query.strip():
        st.caption("Type a name: exact, normalised and fuzzy matches are listed with a score.")
        return None
    found = {c.id: c for c in find_entities(kg, query, limit=8)}
    if not found:
        st.info(f"No entity of {md(kg.name)} matches “{md(query.strip())}”.")
        return None
    widget = st.radio if radio else st.selectbox
    node = widget(
        "Matches",
        list(found),
        format_func=lambda i: (
            f"{found[i].label} · score {found[i].score:.2f} ({found[i].how}, "
            f"{found[i].degree} links, {found[i].relations} "
            f"relation{'s' * (found[i].relations != 1)})"
        ),
        key=pick_key,
    )
    alike = sum(c.how in NAMED_ALIKE for c in found.values())
    if alike > 1:
        st.caption(
            f"{alike} entities are named “{md(query.strip())}”, listed by the spelling typed, "
            "then by how many kinds of facts each has: pick another under Matches if the "
            "first is not the one you mean."
        )
    return node


def feedback_loop(*, open_default: bool = True) -> FeedbackLoop:
    """The outer loop (runs, feedback, proposals, re-asking) over the shared Engine."""
    return get_engine(open_default=open_default).feedback


def session_open():
    """A check a long query polls: False once the browser session that started it is gone
    (so a closed tab does not keep a server thread busy until the query's time limit)."""
    from streamlit.runtime import Runtime
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not Runtime.exists():  # AppTest, bare mode
        return None
    runtime, session = Runtime.instance(), ctx.session_id
    return lambda: runtime.is_active_session(session)


def example_questions(kb: str | None) -> Examples:
    """A stable handful of the chosen KB's own questions (its question files, else written
    from its relations); recomputed when the KB is re-imported or gets new question files."""
    if not kb:
        return Examples([], "")
    ws = get_engine(open_default=False).workspace
    files = ws.question_files(kb)
    stamp = (ws.kb_info(kb).imported_at, *((p.name, p.stat().st_mtime) for p in files))
    return _examples(str(ws.root), kb, stamp)


@st.cache_data(show_spinner=False, max_entries=32)
def _examples(home: str, kb: str, stamp: tuple) -> Examples:  # noqa: ARG001 — the cache key
    return examples_for(_engine_for(home).workspace, kb)


def md(text: object) -> str:
    """Escape KB labels so titles with '$', '*' or '_' render literally, not as markup."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


# -- triples as text -------------------------------------------------------------------------
def triple_line(t: Triple) -> str:
    """A triple as the editor reads it back: "subject|relation|object" (labels)."""
    return f"{t.s_label}|{t.p_label}|{t.o_label}"


def parse_lines(text: str | None) -> list[str]:
    """Non-empty, stripped lines of a text box (one "subject|relation|object" each)."""
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


def diff_text(added: Iterable[Triple | str] = (), removed: Iterable[Triple | str] = ()) -> str:
    """A change as diff lines: "- " for each removed triple, then "+ " for each added one."""

    def show(t: Triple | str) -> str:  # one notation: "subject —relation→ object"
        if isinstance(t, Triple):
            return t.text()
        parts = [p.strip() for p in t.split("|")]
        return f"{parts[0]} —{parts[1]}→ {parts[2]}" if len(parts) == 3 else " | ".join(parts)

    lines = [f"- {show(t)}" for t in removed] + [f"+ {show(t)}" for t in added]
    return "\n".join(lines) or "(no change)"


# how a setting's choices read on a page (others read as themselves)
CHOICE_LABELS: dict[str, dict[str, str]] = {
    "judge": {"": "paradigm default"},
    "refresh": {
        "always": "refresh every step (Alg. 1)",
        "entropy": "snapshot, refreshed after ≥ 1 bit of new information (Alg. 3)",
    },
}


def setting_widget(container: Any, name: str, key: str, value: Any = None, **extra: Any) -> Any:
    """The widget of one loop setting, with its label, bounds, step, choices and help from
    core.settings_spec, so a page cannot offer what LoopSettings.validate refuses.
    `value` None: the widget's value is in session state already; `extra` (format_func,
    disabled, horizontal …) passes through."""
    s = setting(name)
    kind = s.widget or {bool: "checkbox", str: "selectbox"}.get(s.type, "number_input")
    args: dict[str, Any] = {"key": key, "help": s.tip or s.help, **extra}
    if kind == "select_slider":  # a nullable number: "auto" (None) or a step of its range
        count = round((s.high - s.low) / s.step)
        options = ["auto", *(round(s.low + i * s.step, 6) for i in range(count + 1))]
        return container.select_slider(s.label, options, "auto" if value is None else value, **args)
    if value is not None:
        args["value"] = value
    if kind == "checkbox":
        return container.checkbox(s.label, **args)
    if kind in ("selectbox", "radio"):
        options, labels = list(s.options()), CHOICE_LABELS.get(name, {})
        args.setdefault("format_func", lambda choice: labels.get(choice, choice))
        if "value" in args:
            args["index"] = options.index(args.pop("value"))
        return getattr(container, kind)(s.label, options, **args)
    if s.type is float:
        args["step"] = s.step
        if "value" in args:
            args["value"] = float(args["value"])
    bounds = (s.type(s.low), s.type(s.high))
    return getattr(container, kind)(s.label, *bounds, **args)
