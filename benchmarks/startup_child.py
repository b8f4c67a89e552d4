"""Child process of bench_startup.py: times its own phases and prints them as one JSON line.

It imports only the standard library before its first clock reading, so "modules imported"
is the real cost of importing KnowLoop. The parent passes the CLOCK_MONOTONIC time it read just
before spawning us; the same clock here gives "process spawned -> ..." including interpreter
start-up, which no in-process timer can see.

Usage (by bench_startup.py only):
    startup_child.py import <home> <kb.txt> <relations.ttl> <spawn_ns>
    startup_child.py open   <home> <question> <spawn_ns>
    startup_child.py kgopen <home> <spawn_ns>
"""

import json
import sys
import time


def _now() -> int:
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def _s(a: int, b: int) -> float:
    return round((b - a) / 1e9, 4)


def first_import(home: str, kb: str, schema: str, spawn: int, t_main: int) -> dict:
    from core.workspace import Workspace

    t_mod = _now()
    info = Workspace(home).import_file(kb, name="metaqa", schema=schema)
    t_done = _now()
    return {
        "spawn_to_main_s": _s(spawn, t_main),
        "import_modules_s": _s(t_main, t_mod),
        "import_file_s": _s(t_mod, t_done),
        "spawn_to_imported_s": _s(spawn, t_done),
        "triples": info.triples,
        "kbinfo_import_seconds": info.import_seconds,
    }


def cold_open(home: str, question: str, spawn: int, t_main: int) -> dict:
    from core.engine import Engine
    from core.workspace import Workspace

    t_mod = _now()
    engine = Engine(Workspace(home))
    kg = engine.kg()
    t_kb = _now()
    trace = engine.ask(question, paradigm="kg-only")
    t_ans = _now()
    return {
        "spawn_to_main_s": _s(spawn, t_main),
        "import_modules_s": _s(t_main, t_mod),
        "kb_open_s": _s(t_mod, t_kb),
        "first_answer_s": _s(t_kb, t_ans),
        "spawn_to_kb_open_s": _s(spawn, t_kb),
        "spawn_to_first_answer_s": _s(spawn, t_ans),
        "main_to_first_answer_s": _s(t_main, t_ans),
        "kb_triples": kg.index.n_triples,
        "answers": trace.answer_labels[:5],
        "error": trace.error,
    }


def kg_open(home: str, spawn: int, t_main: int) -> dict:
    from pathlib import Path

    from core.kg.store import KnowledgeGraph

    t_mod = _now()
    kg = KnowledgeGraph.open(Path(home) / "kbs" / "metaqa", name="metaqa")
    t_open = _now()
    return {
        "spawn_to_main_s": _s(spawn, t_main),
        "import_modules_s": _s(t_main, t_mod),
        "kg_open_s": _s(t_mod, t_open),
        "kb_triples": kg.index.n_triples,
    }


def main() -> None:
    t_main = _now()
    mode, *args = sys.argv[1:]
    spawn = int(args.pop())
    if mode == "import":
        out = first_import(*args, spawn=spawn, t_main=t_main)
    elif mode == "open":
        out = cold_open(*args, spawn=spawn, t_main=t_main)
    elif mode == "kgopen":
        out = kg_open(*args, spawn=spawn, t_main=t_main)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
