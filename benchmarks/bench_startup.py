"""Start-up costs: first import of the bundled KB, and a cold process that opens it and answers.

Targets (issue): first import of the bundled KB (129,235 triples) <= 3 s; cold start from the
persisted store <= 1 s. Every measurement runs in a fresh subprocess (startup_child.py) so that
nothing the parent imported or cached helps. The child times its own phases; the parent also
records the wall time of the whole subprocess (which adds interpreter exit). "Cold" means a
fresh process — the OS page cache is not dropped, so the store files are usually in memory, as
they are for a user who reopens the app.

Run:  .venv/bin/python benchmarks/bench_startup.py [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import RESULTS_DIR, loadavg, machine_info, mark, now_iso, summarize, verdict, write_json

from core.workspace import bundled_kb_dir

TARGET_IMPORT_S = 3.0
TARGET_COLD_S = 1.0
CHILD = Path(__file__).resolve().parent / "startup_child.py"
QUESTION = "what movies did [Temuera Morrison] act in"  # first line of qa_dev_1hop.tsv


def spawn(mode: str, *args: str) -> dict[str, Any]:
    """Run the child once; return its own timings plus the parent's wall time for it."""
    t0 = time.perf_counter()
    spawn_ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
    proc = subprocess.run(
        [sys.executable, str(CHILD), mode, *args, str(spawn_ns)],
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"child {mode} failed ({proc.returncode}):\n{proc.stderr}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["parent_wall_s"] = round(wall, 4)
    return out


def heaviest_imports(top: int = 12) -> list[dict[str, Any]]:
    """Where the cold start's module-import time goes (one `python -X importtime` run of
    `import core.engine`): the modules with the largest cumulative time, any depth, so the
    chain from core.engine down to the costly third-party import is visible."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import core.engine"],
        capture_output=True,
        text=True,
    )
    rows = []
    for line in proc.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():
            continue
        name = parts[2].rstrip()
        depth = (len(name) - len(name.lstrip())) // 2
        rows.append({"module": name.strip(), "depth": depth, "cum_ms": int(parts[1]) / 1000})
    rows.sort(key=lambda r: r["cum_ms"], reverse=True)
    return rows[:top]


def column(runs: list[dict[str, Any]], key: str) -> dict[str, float | int]:
    return summarize([r[key] for r in runs], digits=4)


def run(args: argparse.Namespace) -> dict[str, Any]:
    machine = machine_info()  # before the work: the load average then says how quiet it was
    kb_dir = bundled_kb_dir()
    kb, schema = kb_dir / "kb.txt", kb_dir / "relations.ttl"
    tmp_root = Path(tempfile.mkdtemp(prefix="knowloop-startup-", dir=args.tmp_dir))
    imports: list[dict[str, Any]] = []
    opens: list[dict[str, Any]] = []
    kgopens: list[dict[str, Any]] = []
    try:
        home = tmp_root / "ws-0"
        for i in range(args.runs):
            if i:  # keep only the latest workspace: it serves the cold-open runs below
                shutil.rmtree(home, ignore_errors=True)
            home = tmp_root / f"ws-{i}"
            imports.append(spawn("import", str(home), str(kb), str(schema)))
            print(f"  import {i + 1}/{args.runs}: {imports[-1]['import_file_s']:.3f} s", flush=True)
        for i in range(args.runs):
            opens.append(spawn("open", str(home), QUESTION))
            kgopens.append(spawn("kgopen", str(home)))
            print(
                f"  cold {i + 1}/{args.runs}: first answer "
                f"{opens[-1]['spawn_to_first_answer_s']:.3f} s, "
                f"KnowledgeGraph.open {kgopens[-1]['kg_open_s']:.3f} s",
                flush=True,
            )
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)

    med = {
        "import": statistics.median(r["import_file_s"] for r in imports),
        "kb_open": statistics.median(r["spawn_to_kb_open_s"] for r in opens),
        "first_answer": statistics.median(r["spawn_to_first_answer_s"] for r in opens),
        "kg_open": statistics.median(r["kg_open_s"] for r in kgopens),
    }
    return {
        "benchmark": "startup",
        "date": now_iso(),
        "machine": {**machine, "loadavg_at_end": loadavg()},
        "config": {
            "runs": args.runs,
            "kb": str(kb.relative_to(kb_dir.parent.parent)),
            "schema": str(schema.relative_to(kb_dir.parent.parent)),
            "triples": imports[0]["triples"],
            "question": QUESTION,
            "tmp_dir": str(tmp_root.parent),
            "clock": "CLOCK_MONOTONIC shared by parent and child; seconds",
            "page_cache": "not dropped (fresh process, warm OS cache)",
        },
        "first_import_s": {
            "import_file": column(imports, "import_file_s"),
            "import_modules": column(imports, "import_modules_s"),
            "spawn_to_imported": column(imports, "spawn_to_imported_s"),
            "parent_wall": column(imports, "parent_wall_s"),
        },
        "cold_start_s": {
            "spawn_to_main": column(opens, "spawn_to_main_s"),
            "import_modules": column(opens, "import_modules_s"),
            "kb_open_in_process": column(opens, "kb_open_s"),
            "first_answer_in_process": column(opens, "first_answer_s"),
            "spawn_to_kb_open": column(opens, "spawn_to_kb_open_s"),
            "spawn_to_first_answer": column(opens, "spawn_to_first_answer_s"),
            "parent_wall": column(opens, "parent_wall_s"),
        },
        "kg_open_only_s": {
            "import_modules": column(kgopens, "import_modules_s"),
            "kg_open": column(kgopens, "kg_open_s"),
            "parent_wall": column(kgopens, "parent_wall_s"),
        },
        "heaviest_imports_of_core_engine": heaviest_imports(),
        "first_answer": {"answers": opens[0]["answers"], "error": opens[0]["error"]},
        "targets": {
            "first_import_s": verdict(med["import"], TARGET_IMPORT_S),
            "cold_spawn_to_kb_open_s": verdict(med["kb_open"], TARGET_COLD_S),
            "cold_spawn_to_first_answer_s": verdict(med["first_answer"], TARGET_COLD_S),
            "kg_open_only_s": verdict(med["kg_open"], TARGET_COLD_S),
        },
        "runs": {"import": imports, "open": opens, "kgopen": kgopens},
    }


def print_report(result: dict[str, Any]) -> None:
    m, cfg = result["machine"], result["config"]
    print(f"\nstart-up — {result['date']} — Python {m['python']}, {m['cpu_count']} CPUs")
    print(f"{cfg['runs']} fresh subprocesses per measurement; KB {cfg['triples']:,} triples")
    print(f"{'measurement (seconds)':<44}{'median':>9}{'min':>9}{'max':>9}")
    sections = [
        ("first import: import_file()", result["first_import_s"]["import_file"]),
        ("first import: spawn -> imported", result["first_import_s"]["spawn_to_imported"]),
        ("cold: spawn -> interpreter ready", result["cold_start_s"]["spawn_to_main"]),
        ("cold: import KnowLoop modules", result["cold_start_s"]["import_modules"]),
        ("cold: engine.kg() (open KB)", result["cold_start_s"]["kb_open_in_process"]),
        ("cold: first engine.ask()", result["cold_start_s"]["first_answer_in_process"]),
        ("cold: spawn -> KB open", result["cold_start_s"]["spawn_to_kb_open"]),
        ("cold: spawn -> first answer", result["cold_start_s"]["spawn_to_first_answer"]),
        ("cold: whole subprocess (parent wall)", result["cold_start_s"]["parent_wall"]),
        ("KnowledgeGraph.open() alone", result["kg_open_only_s"]["kg_open"]),
    ]
    for label, s in sections:
        print(f"{label:<44}{s['median']:>9.3f}{s['min']:>9.3f}{s['max']:>9.3f}")
    print("heaviest imports of core.engine (one -X importtime run, cumulative ms):")
    for r in result["heaviest_imports_of_core_engine"][:8]:
        print(f"  {'  ' * r['depth'] + r['module']:<50}{r['cum_ms']:>8.0f}")
    for key, v in result["targets"].items():
        print(
            f"{mark(v['pass'])}  {key} {v['measured']:.3f} <= {v['target']:.0f} "
            f"(target/measured = {v['ratio_target_over_measured']:.2f}x)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="fresh subprocesses per measurement")
    parser.add_argument("--tmp-dir", help="where temp workspaces go (default: system temp)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "startup.json")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be >= 1")
    result = run(args)
    path = write_json(args.out, result)  # first, so a display problem cannot lose the data
    print_report(result)
    print(f"wrote {path}")
    return 0 if all(v["pass"] for v in result["targets"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
