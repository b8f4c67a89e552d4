"""Shared fixtures: isolated workspaces, the bundled KB imported once, small fixture KBs.

Every test runs with ``KNOWLOOP_HOME`` pointed at its own temporary directory, so nothing
ever reads or writes ``~/.knowloop``. The bundled MetaQA KB (129k triples, seconds to import)
is imported once per session into a temporary workspace and only read afterwards; tests that
change a workspace build a fresh one from the small fixture KBs in ``tests/fixtures``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from core.engine import Engine
from core.kg.store import KnowledgeGraph
from core.workspace import Workspace

os.environ.setdefault("KNOWLOOP_NO_WARM_UP", "1")  # no background model load in AppTests

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = Path(__file__).resolve().parents[1]
METAQA_DIR = REPO / "kb_data" / "metaqa"

Snapshot = dict[str, tuple[int, int]]


@pytest.fixture(autouse=True)
def knowloop_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """KNOWLOOP_HOME for this test: a path inside tmp_path that does not exist yet."""
    home = tmp_path / "knowloop-home"
    monkeypatch.setenv("KNOWLOOP_HOME", str(home))
    return home


# -- the bundled KB, imported once ---------------------------------------------------------


@pytest.fixture(scope="session")
def metaqa_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace root seeded with the bundled MetaQA KB (first use imports it)."""
    root = tmp_path_factory.mktemp("metaqa-workspace")
    assert Workspace(root).resolve(None) == "metaqa"
    return root


@pytest.fixture(scope="session")
def metaqa_engine(metaqa_home: Path) -> Engine:
    """An engine over the session workspace; tests only read through it."""
    return Engine(Workspace(metaqa_home))


@pytest.fixture(scope="session")
def metaqa_kg(metaqa_engine: Engine) -> KnowledgeGraph:
    return metaqa_engine.kg()


# -- small fixture KBs ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def football_file() -> Path:
    return FIXTURES / "football.tsv"


@pytest.fixture(scope="session")
def tiny_file() -> Path:
    return FIXTURES / "tiny.ttl"


@pytest.fixture(scope="session")
def football_engine(tmp_path_factory: pytest.TempPathFactory, football_file: Path) -> Engine:
    """A read-only-by-convention workspace holding the football KB as `football`."""
    ws = Workspace(tmp_path_factory.mktemp("football-workspace"))
    ws.import_file(football_file, name="football")
    return Engine(ws)


@pytest.fixture
def football_home(knowloop_home: Path, tmp_path: Path, football_file: Path) -> Path:
    """$KNOWLOOP_HOME (this test's own) holding a fresh import of the football KB, free to
    change (imported from a copy, so the KB's recorded source is not the fixture file)."""
    import shutil

    kb_file = tmp_path / "football.tsv"
    shutil.copy(football_file, kb_file)
    Workspace(knowloop_home).import_file(kb_file, name="football")
    return knowloop_home


@pytest.fixture(scope="session")
def football_kg(football_engine: Engine) -> KnowledgeGraph:
    return football_engine.kg("football")


@pytest.fixture(scope="session")
def tiny_kg(tmp_path_factory: pytest.TempPathFactory, tiny_file: Path) -> KnowledgeGraph:
    ws = Workspace(tmp_path_factory.mktemp("tiny-workspace"))
    ws.import_file(tiny_file, name="tiny")
    return ws.kg("tiny")


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    """A fresh, empty workspace of this test's own."""
    return Workspace(tmp_path / "workspace")


@pytest.fixture
def binary_file(tmp_path: Path) -> Path:
    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes(range(256)) * 16)
    return path


@pytest.fixture
def malformed_file(tmp_path: Path) -> Path:
    """Pipe-delimited triples with two malformed lines: 3 (two fields) and 5 (empty object)."""
    path = tmp_path / "malformed.txt"
    path.write_text(
        "Alice|knows|Bob\n"
        "Bob|knows|Carol\n"
        "Carol|knows\n"
        "Carol|likes|Dave\n"
        "Dave|likes|\n"
        "Dave|knows|Alice\n",
        encoding="utf-8",
    )
    return path


# -- helpers exposed as fixtures -----------------------------------------------------------


def snapshot(root: Path) -> Snapshot:
    """Every file under root (hidden ones too) with its size and mtime."""
    out: Snapshot = {}
    if not root.exists():
        return out
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.stat()
            out[str(path.relative_to(root))] = (st.st_size if path.is_file() else 0, st.st_mtime_ns)
    return out


@pytest.fixture(scope="session")
def tree_snapshot() -> Callable[[Path], Snapshot]:
    return snapshot
