"""Helpers every page shares: the per-process Engine, the bundled example questions and a few
small formatting helpers for triples and diffs.

Pages stay UI-only; anything that touches the engine goes through here or through core.
"""

from __future__ import annotations

import os
import random
import re
import threading
from collections.abc import Iterable

import streamlit as st

from core import app_settings, paradigms
from core.engine import Engine
from core.evaluate import read_questions
from core.feedback import FeedbackLoop
from core.llm.client import warm_up
from core.trace import Triple
from core.workspace import Workspace, bundled_kb_dir, default_home

EXAMPLE_SEED = 7
_HOPS = (1, 1, 2, 3)  # examples drawn per dev set: two 1-hop, one 2-hop, one 3-hop
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|$<>~])")


@st.cache_resource(show_spinner=False)
def _engine_for(home: str) -> Engine:
    """One Engine (so one Workspace, one set of open KBs) per workspace per process."""
    return Engine(Workspace(home))


@st.cache_resource(show_spinner="Opening the knowledge graph (the first start imports it)…")
def _default_kb_opened(home: str) -> bool:
    """Open the default KB once, doing the one-off import and the relation semantics before
    any user waits on a question."""
    _engine_for(home).prepare()
    return True


def start_up() -> None:
    """Once per server process: provider keys from Streamlit secrets into the environment
    (never displayed or stored)."""
    _secrets_once()


@st.cache_resource(show_spinner=False)
def _secrets_once() -> bool:
    try:
        app_settings.apply_secrets(st.secrets)
    except Exception:  # no secrets.toml: nothing to apply  # noqa: BLE001
        pass
    return True


def warm_up_llm() -> None:
    """After the first run has been drawn: import litellm and load the model in the
    background, so the first LLM question does not wait for them. Not at start: litellm's
    import holds the GIL for seconds and would delay the first question on a small machine."""
    if not os.environ.get("KNOWLOOP_NO_WARM_UP"):
        _warm_up_once(app_settings.load().effective_model)


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

    `open_default=False` skips opening (and on a fresh workspace importing) the bundled KB:
    the KG editor works on whichever KB the user picks."""
    home = str(default_home())
    if open_default:
        _default_kb_opened(home)
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


def pick_entity(kg, query_key: str, pick_key: str, placeholder: str, radio: bool = False):
    """Search box, then every match in a picker, the likeliest first (core.kg.lookup decides:
    a keyword node named like a person does not hide the person); the chosen node id, or
    None while nothing is typed or nothing matches."""
    from core.kg.lookup import NAMED_ALIKE, find_entities

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
    return FeedbackLoop(get_engine(open_default=open_default))


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


def paradigm_names() -> list[str]:
    """Paradigms the engine offers, in registry order (the first is the default)."""
    return paradigms.names()


def describe_paradigm(name: str) -> str:
    return paradigms.describe(name)


@st.cache_data(show_spinner=False)
def example_questions(seed: int = EXAMPLE_SEED) -> list[str]:
    """A stable handful of dev-set questions (fixed seed), brackets stripped."""
    rng = random.Random(seed)
    picked: list[str] = []
    for hop in sorted(set(_HOPS)):
        questions = _dev_questions(hop)
        picked += rng.sample(questions, min(_HOPS.count(hop), len(questions)))
    return picked


def _dev_questions(hop: int) -> list[str]:
    path = bundled_kb_dir() / f"qa_dev_{hop}hop.tsv"
    if not path.is_file():
        return []
    return [q.question for q in read_questions(path, strip_brackets=True)]


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
