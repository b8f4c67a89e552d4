"""Shared fixtures: isolated workspaces, the bundled KB imported once, small fixture KBs.

Every test runs with ``KNOWLOOP_HOME`` pointed at its own temporary directory, so nothing
ever reads or writes ``~/.knowloop``. The bundled MetaQA KB (129k triples, seconds to import)
is imported once per session into a temporary workspace, with its bundled table and documents
(so CoK's sources need no import later), and only read afterwards; a test that writes (stores
a run, imports, edits, saves settings) takes ``metaqa_copy``, a copy of its own, or builds a
fresh workspace from the small fixture KBs in ``tests/fixtures``.

The shared session workspaces (``metaqa_home``, ``football_engine``, ``tiny_kg``) are
watched: after every test their file trees (every name; files' sizes and mtimes; lock files
aside) are compared with what they were, and a test that changed one fails in its teardown
naming the paths; at session end each is compared with its state right after it was built.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path


def _cache_bytecode() -> None:
    """Compiled modules are kept between sessions, in the user's cache, not the tree.

    Where PYTHONDONTWRITEBYTECODE is set (this machine sets it), every session recompiled the
    project and re-rewrote every test module's asserts, and every CLI subprocess of a test
    recompiled core/ again: about 3 s of each fast loop. Set before core/ is imported here;
    the environment carries it to the subprocesses."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    prefix = os.environ.setdefault("PYTHONPYCACHEPREFIX", str(cache / "knowloop" / "pycache"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.pycache_prefix, sys.dont_write_bytecode = prefix, False


_cache_bytecode()

import pytest  # noqa: E402

from core.engine import Engine  # noqa: E402
from core.kg.store import KnowledgeGraph  # noqa: E402
from core.workspace import Workspace  # noqa: E402

os.environ.setdefault("KNOWLOOP_NO_WARM_UP", "1")  # no background model load in AppTests

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = Path(__file__).resolve().parents[1]
METAQA_DIR = REPO / "kb_data" / "metaqa"

Snapshot = dict[str, tuple[int, int]]


# -- the fast loop covers every module ------------------------------------------------------
# `pytest -m "not slow"` over the whole suite must still reach every module of core/ and
# pages/: a core module counts when it was imported in this process, a page when its script
# was executed (AppTest runs pages with exec, so they never appear in sys.modules; the
# interpreter's "exec" audit event names the file). At session end the modules never reached
# are listed and the session fails.

_EXECUTED: set[str] = set()


def _audit(event: str, args: tuple) -> None:
    if event == "exec" and args:
        filename = getattr(args[0], "co_filename", "")
        if filename.startswith(str(REPO / "pages")):
            _EXECUTED.add(filename)


sys.addaudithook(_audit)


def project_modules() -> dict[str, Path]:
    """Every module of core/ (subpackages too) and pages/, by dotted name."""
    out: dict[str, Path] = {}
    for top in ("core", "pages"):
        for path in sorted((REPO / top).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


# Modules the fast loop reaches only in a child process, where this check cannot see them.
IN_A_SUBPROCESS = {"core.__main__": "test_cli.py's test_python_m_core_* run `python -m core`"}


def modules_reached() -> set[str]:
    """The project modules this process reached (imported, or a page executed)."""
    return {
        name
        for name, path in project_modules().items()
        if (str(path) in _EXECUTED if name.startswith("pages.") else name in sys.modules)
    }


def modules_not_reached() -> list[str]:
    reached = modules_reached()
    return [n for n in project_modules() if n not in IN_A_SUBPROCESS and n not in reached]


def _is_whole_fast_loop(config: pytest.Config) -> bool:
    """`pytest -m "not slow"` over the whole suite (no paths, no -k, --lf, --sw, --deselect)."""
    markexpr = (config.getoption("markexpr") or "").replace('"', "").replace("'", "").strip()
    testpaths = [str(REPO / p) for p in config.getini("testpaths")]
    args = [str(Path(a).resolve()) for a in config.args]
    narrowed = any(
        config.getoption(name, None) for name in ("keyword", "lf", "stepwise", "deselect")
    )
    return markexpr == "not slow" and not narrowed and args == testpaths


# -- temporary files in memory where the machine has a RAM disk -----------------------------
# The suite writes about half a gigabyte of throwaway stores (Oxigraph, DuckDB, edit logs),
# each with its fsyncs; on a disk those dominate the fast loop (87 s against 64 s measured
# here). Where /dev/shm is a RAM disk with room, this session's temporary root is a fresh
# directory there, removed when the session passes (kept, and named, when it fails).
# `--basetemp` or KNOWLOOP_TEST_TMP=disk keeps pytest's own choice.
_RAM_DISK = Path("/dev/shm")
_RAM_DISK_ROOM = 4 << 30  # bytes free that the suite may use at most


def _ram_basetemp() -> Path | None:
    if os.environ.get("KNOWLOOP_TEST_TMP") == "disk" or not _RAM_DISK.is_dir():
        return None
    try:
        if shutil.disk_usage(_RAM_DISK).free < _RAM_DISK_ROOM:
            return None
        return Path(tempfile.mkdtemp(prefix="knowloop-tests-", dir=_RAM_DISK))
    except OSError:
        return None


def pytest_configure(config: pytest.Config) -> None:
    if config.option.basetemp is None and (root := _ram_basetemp()):
        config.option.basetemp = str(root / "t")
        config.stash[_RAM_ROOT] = root


def pytest_unconfigure(config: pytest.Config) -> None:
    root = config.stash.get(_RAM_ROOT, None)
    if root is None:
        return
    if config.stash.get(_PASSED, True) is False:  # tests failed: keep what they left
        print(f"\ntest files kept in {root}", file=sys.stderr)
    else:
        shutil.rmtree(root, ignore_errors=True)


_RAM_ROOT = pytest.StashKey[Path]()
_PASSED = pytest.StashKey[bool]()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    session.config.stash[_PASSED] = exitstatus == pytest.ExitCode.OK
    if exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        return  # interrupted, a collection error, nothing collected: nothing to judge
    if session.config.getoption("collectonly") or not session.testscollected:
        return  # nothing ran
    if not _is_whole_fast_loop(session.config) or session.shouldstop:
        return
    missing = modules_not_reached()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if missing:
        if reporter:
            reporter.write_sep("=", "the fast loop reaches no test of these modules", red=True)
            for name in missing:
                reporter.write_line(f"  {name}  (mark fewer of its tests slow, or add one)")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif reporter:
        reporter.write_line(
            f"fast loop: all {len(project_modules())} modules of core/ and pages/ reached"
        )


# -- Streamlit scans the installed packages once, not on every AppTest run ------------------
@pytest.fixture(scope="session", autouse=True)
def _streamlit_components_scanned_once() -> Iterator[None]:
    """AppTest.run asks Streamlit to scan every installed distribution for v2 components
    (≈ 0.4 s of metadata parsing per run); the packages do not change during a session, so
    the first scan's result serves every run."""
    from streamlit.components.v2 import manifest_scanner

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(
            manifest_scanner,
            "scan_component_manifests",
            functools.cache(manifest_scanner.scan_component_manifests),
        )
        yield


# -- shared session workspaces are read-only: a check proves it ----------------------------

_LOCKS = ("LOCK", "*.lock")  # lock files a reader may create: not a change of the content


def _is_lock(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in _LOCKS)


def content_snapshot(root: Path) -> Snapshot:
    """Every file under root with its size and mtime (lock files aside), every directory by
    name (a directory's mtime moves when a reader creates a lock file in it)."""
    out: Snapshot = {}
    for dirpath, dirnames, filenames in os.walk(root):
        base = Path(dirpath)
        for name in dirnames:
            out[str((base / name).relative_to(root)) + "/"] = (0, 0)
        for name in filenames:
            if _is_lock(name):
                continue
            path = base / name
            try:
                st = path.stat()
            except FileNotFoundError:  # removed while walking: a change the next walk sees
                continue
            out[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return out


def snapshot_diff(before: Snapshot, after: Snapshot) -> list[str]:
    """The changed paths, each with what happened to it."""
    changes = [f"+ {p}" for p in sorted(after.keys() - before.keys())]
    changes += [f"- {p}" for p in sorted(before.keys() - after.keys())]
    changes += [
        f"~ {p} (size {before[p][0]} -> {after[p][0]}, mtime {before[p][1]} -> {after[p][1]})"
        for p in sorted(before.keys() & after.keys())
        if before[p] != after[p]
    ]
    return changes


class _Shared:
    """One shared session workspace: its state when built, and after the last test."""

    def __init__(self, label: str, root: Path):
        self.label, self.root = label, root
        self.built = self.last = content_snapshot(root)
        self.blamed = False  # a test already failed for changing it


_SHARED: list[_Shared] = []


def share(label: str, root: Path) -> Path:
    """Declare root a shared, read-only session workspace (call once it is fully built)."""
    _SHARED.append(_Shared(label, root))
    return root


@pytest.fixture(scope="session", autouse=True)
def shared_workspaces_unchanged() -> Iterator[None]:
    """Session end: every shared workspace is as it was right after it was built."""
    yield
    failures = []
    for shared in _SHARED:
        changes = snapshot_diff(shared.built, content_snapshot(shared.root))
        if changes and not shared.blamed:  # else the test that wrote has failed already
            failures.append(f"{shared.label} ({shared.root}):\n  " + "\n  ".join(changes[:50]))
    if failures:
        pytest.fail(
            "shared session workspaces changed during the session (a test wrote into one; "
            "give it metaqa_copy or its own workspace):\n" + "\n".join(failures),
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def no_writes_to_shared_workspaces(request: pytest.FixtureRequest) -> Iterator[None]:
    """After each test: the shared workspaces it could reach (through the fixtures it uses,
    however indirectly) are unchanged (else it fails in teardown, naming the paths it
    changed)."""
    yield
    failures = []
    for shared in _SHARED:
        if shared.label not in request.fixturenames:
            continue  # out of this test's reach
        now = content_snapshot(shared.root)
        changes = snapshot_diff(shared.last, now)
        shared.last = now  # the next test is judged on its own writes
        if changes:
            shared.blamed = True
            failures.append(f"{shared.label} ({shared.root}):\n  " + "\n  ".join(changes[:50]))
    if failures:
        pytest.fail(
            f"{request.node.nodeid} wrote into a shared session workspace (use metaqa_copy "
            "or a workspace of its own):\n" + "\n".join(failures),
            pytrace=False,
        )


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
    from core.sources import ensure_bundled

    root = tmp_path_factory.mktemp("metaqa-workspace")
    assert Workspace(root).resolve(None) == "metaqa"
    ensure_bundled(root)  # CoK's table and documents, so a CoK run reads and imports nothing
    return share("metaqa_home", root)


@pytest.fixture
def metaqa_copy(metaqa_home: Path, tmp_path: Path) -> Path:
    """A copy of the session workspace, this test's own: free to store runs, import, edit."""
    root = tmp_path / "metaqa-copy"
    # RocksDB's LOCK stays behind; the edit lock files come along, so the copy's tree is the
    # original's and a test comparing trees before and after sees only its own changes
    shutil.copytree(metaqa_home, root, ignore=shutil.ignore_patterns("LOCK"))
    return root


@pytest.fixture
def metaqa_copy_engine(metaqa_copy: Path) -> Engine:
    """An engine over this test's own copy of the bundled workspace."""
    return Engine(Workspace(metaqa_copy))


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
    share("football_engine", ws.root)
    return Engine(ws)


@pytest.fixture
def football_home(knowloop_home: Path, tmp_path: Path, football_file: Path) -> Path:
    """$KNOWLOOP_HOME (this test's own) holding a fresh import of the football KB, free to
    change (imported from a copy, so the KB's recorded source is not the fixture file)."""
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
    share("tiny_kg", ws.root)
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
