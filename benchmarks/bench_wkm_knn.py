"""Latency of the World Knowledge Model's kNN per step, at 100k state entries.

Target (issue): <= 2 ms per lookup for 100,000 state entries. Measured per step as the agent
pays it: embed the state summary, search the entries with the same previous action, return
the k = 8 nearest (core.wkm.guide.Guide.neighbours without the KG). Two layouts: all 100k
entries behind one previous action (the worst case: one partition) and a realistic spread
over 12 previous actions. Also reported: recall@8 of the IVF search against the exact scan,
the exact scan's own latency, and the time to load the 100k entries from DuckDB and build
the index (paid once per process and knowledge version).

Run:  .venv/bin/python benchmarks/bench_wkm_knn.py [--n 100000] [--queries 1000]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import RESULTS_DIR, machine_info, now_iso, summarize, verdict, write_json

from core.wkm.embed import DIM, embed, embed_many
from core.wkm.guide import load
from core.wkm.index import StateIndex
from core.wkm.store import KnowledgeStore

TARGET_MS = 2.0
K = 8
SEED = 7


def summaries(n: int, rng: random.Random) -> list[str]:
    """State summaries shaped like the real ones (masked question | walked path), drawn
    from a 3,000-word vocabulary so that most are distinct."""
    words = [f"w{i}" for i in range(3000)]
    heads = ["what", "which", "who", "when", "where", "how many"]
    out = []
    for _ in range(n):
        body = " ".join(rng.choice(words) for _ in range(rng.randint(4, 9)))
        walked = " → ".join(rng.choice(words) for _ in range(rng.randint(0, 2))) or "nothing"
        out.append(f"{rng.choice(heads)} {body} [E] | walked: {walked}")
    return out


def time_lookups(index: StateIndex, prevs: list[str], queries: list[str]) -> list[float]:
    times = []
    for prev, text in zip(prevs, queries, strict=True):
        t0 = time.perf_counter()
        index.search(prev, embed(text), K)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def recall(index: StateIndex, vecs: np.ndarray, prevs_all: list[str], prevs: list[str],
           queries: list[str]) -> float:  # fmt: skip
    hit = total = 0
    groups: dict[str, np.ndarray] = {}
    for p in set(prevs):
        groups[p] = np.flatnonzero(np.asarray(prevs_all) == p)
    for prev, text in zip(prevs, queries, strict=True):
        q = embed(text)
        rows = groups[prev]
        exact = set(rows[np.argsort(-(vecs[rows] @ q))[:K]].tolist())
        found = {r for r, _ in index.search(prev, q, K)}
        hit += len(found & exact)
        total += len(exact)
    return hit / total if total else 1.0


def bulk_insert(root, kb: str, texts: list[str], prevs: list[str], vecs: np.ndarray) -> None:
    """Write the entries through the store's schema in one statement (learn inserts a few
    per question; 100k one by one would measure the writer, not the lookup)."""
    import pandas as pd

    store = KnowledgeStore(root)
    store.counts(kb)  # creates the tables
    frame = pd.DataFrame({
        "id": np.arange(1, len(texts) + 1), "kb": kb, "trajectory_id": 1, "prev": prevs,
        "summary": texts, "next": "stop", "vec": list(vecs), "made": time.time(),
    })  # fmt: skip

    def work(con):
        con.register("frame", frame)
        con.execute(
            "INSERT INTO wkm_trajectories VALUES (1, ?, 'q', 'kg-only', 'chosen', 'learn', NULL,"
            " '[]', '[]', 0, 0, false)",
            [kb],
        )
        con.execute(
            f"INSERT INTO wkm_states SELECT id, kb, trajectory_id, prev, summary, next, "
            f"vec::FLOAT[{DIM}], made, false FROM frame"
        )

    store._transact(work)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1000)
    args = parser.parse_args()
    rng = random.Random(SEED)
    texts = summaries(args.n, rng)
    t0 = time.perf_counter()
    vecs = embed_many(texts)
    embed_ms = (time.perf_counter() - t0) * 1000 / args.n
    queries = summaries(args.queries, rng)
    result = {"benchmark": "wkm_knn", "when": now_iso(), "machine": machine_info(),
              "entries": args.n, "k": K, "dim": DIM, "embed_ms_per_summary": round(embed_ms, 4),
              "layouts": {}}  # fmt: skip
    layouts = {
        "one previous action (worst case)": ["start"] * args.n,
        "12 previous actions": [f"hop:out:r{rng.randint(0, 11)}" for _ in range(args.n)],
    }
    for name, prevs_all in layouts.items():
        t0 = time.perf_counter()
        index = StateIndex(prevs_all, vecs)
        build_s = time.perf_counter() - t0
        prevs = [rng.choice(prevs_all) for _ in queries]
        time_lookups(index, prevs[:50], queries[:50])  # warm up
        times = time_lookups(index, prevs, queries)
        exact_times = []  # the plain scan of the same partition, for comparison
        groups = {p: vecs[np.asarray(prevs_all) == p] for p in set(prevs)}
        for prev, text in zip(prevs[:200], queries[:200], strict=True):
            t1 = time.perf_counter()
            sims = groups[prev] @ embed(text)
            np.argpartition(-sims, K)[:K]
            exact_times.append((time.perf_counter() - t1) * 1000)
        stats = summarize(times, 4)
        result["layouts"][name] = {
            "lookup_ms": stats,
            "exact_scan_ms": summarize(exact_times, 4),
            "recall_at_k": round(recall(index, vecs, prevs_all, prevs[:300], queries[:300]), 4),
            "index_build_s": round(build_s, 3),
            "verdict": verdict(stats["median"], TARGET_MS),
        }
        print(f"{name}: median {stats['median']:.3f} ms, p95 {stats['p95']:.3f} ms, "
              f"exact scan median {result['layouts'][name]['exact_scan_ms']['median']:.3f} ms, "
              f"recall@{K} {result['layouts'][name]['recall_at_k']:.3f}, "
              f"build {build_s:.2f} s")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        bulk_insert(tmp, "bench", texts, layouts["12 previous actions"], vecs)
        t0 = time.perf_counter()
        knowledge = load(Path(tmp), "bench")
        result["load_from_duckdb_s"] = round(time.perf_counter() - t0, 3)
        assert knowledge is not None and len(knowledge.entries) == args.n
    print(f"load {args.n:,} entries from DuckDB and index them: {result['load_from_duckdb_s']} s")
    write_json(RESULTS_DIR / "wkm_knn.json", result)
    worst = result["layouts"]["one previous action (worst case)"]["verdict"]
    return 0 if worst["pass"] else 1


if __name__ == "__main__":
    sys.exit(main())
