"""How cost grows with the KB: import, open and `kg-only` at 129 k, 1 M and 10 M triples.

The KBs are generated (benchmarks/scale_kb.py: a music KB with a Zipf degree distribution,
not copies of the bundled one) and imported with `--index auto` (on disk from about 500,000
lines of file, i.e. the 1 M and 10 M KBs; the 129 k KB is indexed in memory). Each phase runs in a
fresh child process, so its peak RSS is its own:

- import: wall time and peak RSS of `Workspace.import_file` (stream, store, index);
- open:   a cold process opening the KB (store + index), seconds and RSS;
- ask:    `kg-only` on the generated questions (after a warm-up): median and p95 ms per
          question, Hits@1, the process's peak RSS;
- edit:   add a triple that changes an answer, re-ask, undo, re-ask (the edit log at scale).

Targets (issue 15): import ≤ 3 GB peak RSS and ≤ 15 min at 10 M; open ≤ 2 s; one question
process ≤ 1.5 GB; kg-only median ≤ 10 ms and p95 ≤ 50 ms at 10 M.

Run:  .venv/bin/python benchmarks/bench_scale.py [--sizes 129000 1000000 10000000] [--n 300]
      [--format nt|tsv]  (tsv: the same KBs as tab-separated names, the bundled KB's format)
      (the generated files and workspaces stay in --work, default .knowloop-bench/scale)
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from common import REPO_ROOT, RESULTS_DIR, loadavg, machine_info, now_iso, write_json

PYTHON = sys.executable
TARGETS = {"import_rss_gb": 3.0, "import_min": 15.0, "open_s": 2.0, "ask_rss_gb": 1.5,
           "median_ms": 10.0, "p95_ms": 50.0}  # fmt: skip

_PRELUDE = f"""
import json, resource, statistics, sys, time
sys.path[:0] = [{str(REPO_ROOT)!r}, {str(REPO_ROOT / "benchmarks")!r}]
from pathlib import Path
def rss_gb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
"""

_IMPORT = """
from core.workspace import Workspace
t0 = time.perf_counter()
info = Workspace(Path(HOME)).import_file(Path(FILE), name=NAME, index="auto")
print(json.dumps({"seconds": round(time.perf_counter() - t0, 2), "rss_gb": round(rss_gb(), 3),
                  "triples": info.triples, "entities": info.entities,
                  "relations": info.relations}))
"""

_OPEN = """
t0 = time.perf_counter()
from core.workspace import Workspace
kg = Workspace(Path(HOME)).kg(NAME)
opened = time.perf_counter() - t0
on_disk = kg.index.nodes is not None
print(json.dumps({"seconds": round(opened, 3), "rss_gb": round(rss_gb(), 3),
                  "index_on_disk": on_disk}))
"""

_ASK = """
from core.engine import Engine
from core.metrics import hits_at_1, tied_at_top
from core.workspace import Workspace
from common import summarize
questions = json.loads(Path(QUESTIONS).read_text())
engine = Engine(Workspace(Path(HOME)))
for q in questions[:20]:
    engine.ask(q["text"], kb=NAME, paradigm="kg-only")
lat, hits = [], []
for q in questions:
    t0 = time.perf_counter()
    trace = engine.ask(q["text"], kb=NAME, paradigm="kg-only")
    lat.append((time.perf_counter() - t0) * 1000)
    hits.append(hits_at_1(trace.answer_labels, q["answers"], tied_at_top(trace.answers)))
edit = {}
first = next(q for q in questions if q["text"].startswith("who is the performer of"))
album = first["text"].removeprefix("who is the performer of ").rstrip("?")
other = next(q["answers"][0] for q in questions if q["text"].startswith("who is the performer")
             and q["answers"] != first["answers"])
editor = engine.editor(NAME)
before = engine.ask(first["text"], kb=NAME, paradigm="kg-only").answer_labels
t0 = time.perf_counter()
change = editor.edit(remove=[f"{album} | performer | {first['answers'][0]}"],
                     add=[f"{album} | performer | {other}"], why="benchmark")
edit["edit_s"] = round(time.perf_counter() - t0, 3)
after = engine.ask(first["text"], kb=NAME, paradigm="kg-only").answer_labels
t0 = time.perf_counter()
editor.undo(change.id, why="benchmark")
edit["undo_s"] = round(time.perf_counter() - t0, 3)
again = engine.ask(first["text"], kb=NAME, paradigm="kg-only").answer_labels
edit["ok"] = before == list(first["answers"]) and after == [other] and again == before
print(json.dumps({"latency_ms": summarize(lat), "hits_at_1": round(statistics.fmean(hits), 4),
                  "rss_gb": round(rss_gb(), 3), "edit": edit}))
"""


def child(code: str, **values: str) -> dict[str, Any]:
    """Run one phase in a fresh interpreter; its last stdout line is its JSON result."""
    assign = "".join(f"{k} = {v!r}\n" for k, v in values.items())
    script = _PRELUDE + assign + textwrap.dedent(code)
    done = subprocess.run([PYTHON, "-c", script], capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"child failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_size(work: Path, n_triples: int, n_questions: int, fmt: str = "nt") -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from scale_kb import generate, to_delimited

    name = f"music{n_triples}"
    file, qfile = work / f"{name}.nt", work / f"{name}.questions.json"
    t0 = time.perf_counter()
    if not (file.is_file() and qfile.is_file()):
        questions = generate(file, n_triples, n_questions=n_questions)
        qfile.write_text(json.dumps([q.__dict__ for q in questions]))
    if fmt == "tsv":  # the same KB as the bundled KB's delimited format
        tsv = work / f"{name}.tsv"
        if not tsv.is_file():
            to_delimited(file, tsv)
        file, name = tsv, f"{name}-tsv"
    generated_s = time.perf_counter() - t0
    home = work / f"home-{n_triples}-{fmt}"
    subprocess.run(["rm", "-rf", str(home)], check=True)
    print(f"[{n_triples:,}] importing {file.stat().st_size >> 20} MiB", file=sys.stderr)
    imported = child(_IMPORT, HOME=str(home), FILE=str(file), NAME=name)
    print(f"[{n_triples:,}] import {imported}", file=sys.stderr)
    opened = [child(_OPEN, HOME=str(home), NAME=name) for _ in range(3)]
    opened_best = min(opened, key=lambda o: o["seconds"])
    asked = child(_ASK, HOME=str(home), NAME=name, QUESTIONS=str(qfile))
    print(f"[{n_triples:,}] open {opened_best} ask {asked}", file=sys.stderr)
    disk = sum(f.stat().st_size for f in (home / "kbs" / name).rglob("*") if f.is_file())
    return {
        "target_triples": n_triples,
        "format": fmt,
        "file_mib": round(file.stat().st_size / 2**20, 1),
        "generate_s": round(generated_s, 1),
        "import": imported,
        "open": {**opened_best, "all_s": [o["seconds"] for o in opened]},
        "ask": asked,
        "kb_on_disk_mib": round(disk / 2**20, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[129_000, 1_000_000, 10_000_000])
    parser.add_argument("--n", type=int, default=300, help="questions per KB")
    parser.add_argument("--work", type=Path, default=REPO_ROOT / ".knowloop-bench" / "scale")
    parser.add_argument("--format", choices=["nt", "tsv"], default="nt",
                        help="import the generated KB as N-Triples, or as tab-separated names")
    parser.add_argument("--out", type=Path, default=None,
                        help="default benchmarks/results/scale.json (scale_tsv.json for tsv)")
    args = parser.parse_args()
    args.out = args.out or RESULTS_DIR / ("scale.json" if args.format == "nt" else "scale_tsv.json")
    args.work.mkdir(parents=True, exist_ok=True)
    rows = [run_size(args.work, n, args.n, args.format) for n in args.sizes]
    top = rows[-1]
    checks = {
        "import_rss_gb": top["import"]["rss_gb"] <= TARGETS["import_rss_gb"],
        "import_min": top["import"]["seconds"] / 60 <= TARGETS["import_min"],
        "open_s": top["open"]["seconds"] <= TARGETS["open_s"],
        "ask_rss_gb": top["ask"]["rss_gb"] <= TARGETS["ask_rss_gb"],
        "median_ms": top["ask"]["latency_ms"]["median"] <= TARGETS["median_ms"],
        "p95_ms": top["ask"]["latency_ms"]["p95"] <= TARGETS["p95_ms"],
        "edit_undo_reask": top["ask"]["edit"]["ok"],
    }
    base = rows[0]
    growth = [{
        "triples": r["import"]["triples"],
        "x_triples": round(r["import"]["triples"] / base["import"]["triples"], 1),
        "x_import_s": round(r["import"]["seconds"] / base["import"]["seconds"], 1),
        "x_median_ms": round(r["ask"]["latency_ms"]["median"]
                             / base["ask"]["latency_ms"]["median"], 2),
        "x_ask_rss": round(r["ask"]["rss_gb"] / base["ask"]["rss_gb"], 2),
    } for r in rows]  # fmt: skip
    result = {"when": now_iso(), "machine": machine_info(), "load": loadavg(),
              "targets_at_largest": TARGETS, "pass_at_largest": checks, "sizes": rows,
              "growth_vs_smallest": growth}  # fmt: skip
    write_json(args.out, result)
    print(f"{'triples':>12} {'import s':>9} {'imp GB':>7} {'open s':>7} {'ask GB':>7} "
          f"{'median':>7} {'p95':>7} {'hits@1':>7} edit")  # fmt: skip
    for r in rows:
        lat = r["ask"]["latency_ms"]
        print(f"{r['import']['triples']:>12,} {r['import']['seconds']:>9.1f} "
              f"{r['import']['rss_gb']:>7.2f} {r['open']['seconds']:>7.3f} "
              f"{r['ask']['rss_gb']:>7.2f} {lat['median']:>7.2f} {lat['p95']:>7.2f} "
              f"{r['ask']['hits_at_1']:>7.3f} {r['ask']['edit']['ok']}")  # fmt: skip
    print("targets at the largest size:", checks)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss >> 10
    print(f"wrote {args.out}; peak child RSS {peak} MiB")


if __name__ == "__main__":
    main()
