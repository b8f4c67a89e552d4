"""The layers of docs/architecture.md hold: no core module imports one above its layer (lazy
imports inside functions included; imports for type hints only are exempt), there is no import
circle among core modules, the loop's state has no string-keyed notes, and pages stay thin."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# bottom up; a module belongs to the longest prefix that names it
LAYERS: tuple[tuple[str, ...], ...] = (
    ("core.trace", "core.metrics", "core.text", "core.textmodel", "core.lexnet", "core.secrets",
     "core.locks",
     "core.worker", "core.registry"),
    ("core.kg", "core.workspace", "core.sources", "core.llm.client", "core.llm.local",
     "core.llm.prompts", "core.runs"),
    ("core.loop", "core.settings_spec", "core.analysis", "core.chain", "core.path_fit",
     "core.answer_types", "core.constraints"),
    ("core.kg.source", "core.llm", "core.sources.loop_sources", "core.judges", "core.agents",
     "core.wkm", "core.support", "core.grounding"),
    ("core.paradigms",),
    ("core.feedback", "core.evaluate", "core.evaluations", "core.learn", "core.compare",
     "core.examples", "core.uploads", "core.report", "core.graph_view", "core.app_settings"),
    ("core.engine",),
    ("core.cli", "core.cli_edits", "core.cli_sources", "core.__main__", "core", "core.api"),
)  # fmt: skip
PAGES = sorted((REPO / "pages").glob("*.py"))  # the pages and their shared drawing helpers


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(REPO).with_suffix("").parts)
    return name.removesuffix(".__init__")


def layer(module: str) -> int:
    best = max(
        ((i, len(p)) for i, names in enumerate(LAYERS) for p in names
         if module == p or module.startswith(p + ".")),
        key=lambda x: x[1],
    )  # fmt: skip
    return best[0]


@functools.cache
def core_imports(path: Path, *, lazy: bool) -> list[tuple[str, int]]:
    """(module, line) of every core import; lazy ones (inside functions) too when asked;
    never those under `if TYPE_CHECKING:`. Read once per session (the files do not change)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(n)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for n in ast.walk(node)
    }
    nodes = ast.walk(tree) if lazy else iter(tree.body)
    out = []
    for node in nodes:
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "core":
            if node.module == "core":
                out += [(f"core.{a.name}", node.lineno) for a in node.names]
            else:
                out.append((node.module, node.lineno))
        elif isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "core"]
    return out


CORE = {module_name(p): p for p in sorted((REPO / "core").rglob("*.py"))}


@pytest.mark.parametrize("module", sorted(CORE))
def test_nothing_imports_upwards(module: str) -> None:
    mine = layer(module)
    upward = [
        f"{target} (layer {layer(target)}) at line {line}"
        for target, line in core_imports(CORE[module], lazy=True)
        if target in CORE and layer(target) > mine
    ]
    assert not upward, f"{module} (layer {mine}) imports upwards: {upward}"


def test_no_import_circle() -> None:
    graph = {
        m: {t for t, _ in core_imports(p, lazy=True) if t in CORE and t != m}
        for m, p in CORE.items()
    }
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> None:
        if node in trail:
            raise AssertionError(
                "import circle: " + " → ".join(trail[trail.index(node) :] + [node])
            )
        if node in done:
            return
        for nxt in sorted(graph[node]):
            if not (nxt == "core" or node == "core"):  # the package's own __init__ re-exports
                visit(nxt, [*trail, node])
        done.add(node)

    for module in sorted(graph):
        visit(module, [])


def test_the_state_has_no_string_keyed_notes() -> None:
    from core.loop import State

    assert "notes" not in State.__dataclass_fields__
    for path in CORE.values():
        assert ".notes[" not in path.read_text(encoding="utf-8"), path


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.stem)
def test_pages_reach_core_through_its_api_only(page: Path) -> None:
    """A page draws; what it needs of core comes through core.api (the Engine, the values it
    takes and returns, the helpers that draw them), never from a module inside core."""
    used = {t for t, _ in core_imports(page, lazy=True)}
    assert used <= {"core.api"}, sorted(used - {"core.api"})


def test_the_api_names_exactly_what_the_pages_use() -> None:
    """core.api's __all__ is every name it imports, each one used by some page: the UI's
    dependencies on core, complete and nothing more."""
    import core.api

    tree = ast.parse((REPO / "core" / "api.py").read_text(encoding="utf-8"))
    imported = {
        a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom)
        if n.module != "__future__" for a in n.names
    }  # fmt: skip
    assert set(core.api.__all__) == imported
    assert len(core.api.__all__) == len(imported)
    used = {
        a.name for page in PAGES for n in ast.walk(ast.parse(page.read_text(encoding="utf-8")))
        if isinstance(n, ast.ImportFrom) and n.module == "core.api" for a in n.names
    }  # fmt: skip
    assert imported - used == set(), "exported but used by no page"


def test_only_the_entry_points_choose_a_workspace() -> None:
    """The workspace is passed down (Engine → the objects it hands out); no module below the
    CLI falls back to $KNOWLOOP_HOME or ~/.knowloop (so none can write into a workspace it was
    not given), and none writes $KNOWLOOP_HOME into the environment."""
    # Workspace(None), the --home help text, and the app's entry (core.api hands it to the pages)
    choosers = {"core.workspace", "core.cli", "core.api"}
    for module, path in CORE.items():
        text = path.read_text(encoding="utf-8")
        if module not in choosers:
            assert "default_home" not in text and "KNOWLOOP_HOME" not in text, module
        assert 'environ["KNOWLOOP_HOME"] =' not in text, module
