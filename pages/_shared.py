"""Helpers every page shares: the per-process Engine and the bundled example questions.

Pages stay UI-only; anything that touches the engine goes through here.
"""

from __future__ import annotations

import random

import streamlit as st

from core import paradigms
from core.engine import Engine
from core.evaluate import read_questions
from core.workspace import Workspace, bundled_kb_dir, default_home

EXAMPLE_SEED = 7
_HOPS = (1, 1, 2, 3)  # examples drawn per dev set: two 1-hop, one 2-hop, one 3-hop


@st.cache_resource(show_spinner="Opening the knowledge graph (the first start imports it)…")
def _engine_for(home: str) -> Engine:
    """One Engine per workspace per process; opening the default KB here does the one-off
    import before any user waits on a question."""
    engine = Engine(Workspace(home))
    engine.kg()
    return engine


def get_engine() -> Engine:
    """The shared Engine for the current $KNOWLOOP_HOME (keyed by it, so tests can isolate)."""
    return _engine_for(str(default_home()))


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
