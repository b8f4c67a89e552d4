"""The hostile-query corpus against the hard limits: every query must end within its time limit
plus 1 s, under the memory cap, with a clear reason — none may run past a limit.

The SPARQL corpus runs on the bundled MetaQA KB (129k triples: a product of two triple patterns
is 1.7e10 rows), the SQL corpus on a 50,000-row table, both in a fresh workspace. Each query's
outcome (answered / refused / stopped by the time or memory limit), wall time and message are
written to benchmarks/results/bench_hostile.json; the peak resident memory is the largest any
query worker reached (read by the kernel when a worker ends, or reported by the worker).

Run:  .venv/bin/python benchmarks/bench_hostile.py [--timeout 5] [--memory-mb 1024] [--home DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import REPO_ROOT, RESULTS_DIR, machine_info, now_iso, summarize, write_json

sys.path.insert(0, str(REPO_ROOT / "tests"))
from hostile_corpus import SPARQL, SQL, write_table  # noqa: E402

from core import worker  # noqa: E402
from core.engine import Engine  # noqa: E402
from core.kg.sparql_guard import QueryRefused  # noqa: E402
from core.sources.tables import SQLRefused, import_table, list_tables, run_sql  # noqa: E402
from core.workspace import Workspace  # noqa: E402

SLACK_S = 1.0


def classify(message: str | None) -> str:
    if message is None:
        return "answered"
    if message.startswith("time limit"):
        return "time limit"
    if message.startswith("memory limit"):
        return "memory limit"
    return "refused"


def run_one(kind: str, query: str, expected: str, fragment: str, execute) -> dict[str, Any]:
    t0 = time.monotonic()
    message = None
    try:
        execute(query)
    except (QueryRefused, SQLRefused) as exc:
        message = str(exc)
    elapsed = time.monotonic() - t0
    outcome = classify(message)
    wanted = {"ok": "answered", "refused": "refused"}.get(expected, "limit")
    got = "limit" if outcome in ("time limit", "memory limit") else outcome
    return {
        "kind": kind,
        "query": query if len(query) <= 200 else query[:197] + "...",
        "expected": expected,
        "outcome": outcome,
        "as_expected": got == wanted and (fragment in (message or "")),
        "elapsed_s": round(elapsed, 3),
        "message": message,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    machine = machine_info()
    home = Path(args.home) if args.home else Path(tempfile.mkdtemp(prefix="knowloop-hostile-"))
    engine = Engine(Workspace(home))
    kg = engine.kg()  # the bundled KB, imported on first use
    csv = write_table(home / "t.csv")
    if "t" not in {t.name for t in list_tables(home)}:
        import_table(csv, home=home, name="t")
    worker.warm()

    def sparql(q: str) -> None:
        kg.sparql(q, timeout_s=args.timeout, max_rows=10_000)

    def sql(q: str) -> None:
        run_sql(q, home, timeout_s=args.timeout, max_rows=1000, memory_mb=args.memory_mb)

    rows = []
    for corpus, kind, execute in ((SPARQL, "sparql", sparql), (SQL, "sql", sql)):
        for query, expected, fragment in corpus:
            row = run_one(kind, query, expected, fragment, execute)
            rows.append(row)
            flag = "" if row["as_expected"] else "  <-- UNEXPECTED"
            print(f"{kind:6} {row['outcome']:12} {row['elapsed_s']:6.2f}s  "
                  f"{row['query'][:70]!r}{flag}", flush=True)  # fmt: skip
    over = [r for r in rows if r["elapsed_s"] > args.timeout + SLACK_S]
    summary = {
        kind: {
            "queries": sum(1 for r in rows if r["kind"] == kind),
            "outcomes": _count(r["outcome"] for r in rows if r["kind"] == kind),
            "as_expected": sum(1 for r in rows if r["kind"] == kind and r["as_expected"]),
            "elapsed_s": summarize([r["elapsed_s"] for r in rows if r["kind"] == kind]),
        }
        for kind in ("sparql", "sql")
    }
    result = {
        "when": now_iso(),
        "machine": machine,
        "timeout_s": args.timeout,
        "memory_mb": args.memory_mb,
        "summary": summary,
        "past_limit_plus_1s": len(over),
        "max_elapsed_s": max(r["elapsed_s"] for r in rows),
        "worker_peak_rss_mb": round(worker.peak_mb(), 1),
        "under_memory_cap": worker.peak_mb() <= args.memory_mb,
        "rows": rows,
    }
    print()
    for kind, s in summary.items():
        print(f"{kind}: {s['queries']} queries, {s['outcomes']}, as expected {s['as_expected']}")
    print(f"past limit + {SLACK_S:g} s: {len(over)}; slowest {result['max_elapsed_s']:.2f} s "
          f"(limit {args.timeout:g} s); worker peak RSS {result['worker_peak_rss_mb']} MB "
          f"(cap {args.memory_mb} MB)")  # fmt: skip
    return result


def _count(values) -> dict[str, int]:
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per query")
    parser.add_argument("--memory-mb", type=int, default=worker.MEMORY_MB)
    parser.add_argument("--home", help="a workspace to reuse (default: a fresh temp dir)")
    args = parser.parse_args()
    result = run(args)
    write_json(RESULTS_DIR / "bench_hostile.json", result)
    bad = result["past_limit_plus_1s"] or not result["under_memory_cap"]
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
