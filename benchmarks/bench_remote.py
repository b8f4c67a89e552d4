"""`kg-only` per question on the bundled KB: the local store against the same KB served by
real SPARQL servers on 127.0.0.1 (the Oxigraph server and Virtuoso 7, started here by
tests/sparql_servers.py, each under its own IRIs) and registered with `connect`.

Reports, per KB: the connect time (reading the endpoint once), median and p95 latency per
question, the requests sent per question, Hits@1, and the latency ratio to the local store.
Each server is connected twice: read whole (as it holds fewer than --max-triples) and
`-lazy`, indexed as if it held more (relations at connect, nodes read when needed).

Run:  .venv/bin/python benchmarks/bench_remote.py [--n 300]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from bench_kg_only import HOPS, SEED, sample_questions
from common import RESULTS_DIR, loadavg, machine_info, now_iso, summarize, write_json

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from core.engine import Engine  # noqa: E402
from core.kg.importer import kb_base_iri  # noqa: E402
from core.kg.remote import MAX_TRIPLES  # noqa: E402
from core.metrics import hits_at_1, tied_at_top  # noqa: E402
from core.workspace import Workspace  # noqa: E402
from tests import sparql_servers as servers  # noqa: E402

WARMUP = 20


def measure(engine: Engine, kb: str, questions) -> dict[str, Any]:
    for _, item in questions[:WARMUP]:
        engine.ask(item.question, kb=kb, paradigm="kg-only")
    latencies, hits, requests, errors = [], [], [], 0
    for _, item in questions:
        t0 = time.perf_counter()
        trace = engine.ask(item.question, kb=kb, paradigm="kg-only")
        latencies.append((time.perf_counter() - t0) * 1000)
        hits.append(hits_at_1(trace.answer_labels, item.answers, tied_at_top(trace.answers)))
        requests.append(sum(s.action.details.get("sent", {}).get("requests", 0)
                            for s in trace.steps))  # fmt: skip
        errors += bool(trace.error or any(s.error for s in trace.steps))
    return {
        "latency_ms": summarize(latencies),
        "hits_at_1": round(statistics.fmean(hits), 4),
        "requests_per_question": summarize(requests),
        "errors": errors,
    }


def run(args: argparse.Namespace) -> dict[str, Any]:
    machine = machine_info()
    questions = sample_questions(args.n, strip_brackets=False, seed=SEED)
    work = Path(tempfile.mkdtemp(prefix="knowloop-remote-"))
    try:
        return _run(work, questions, machine)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _run(work: Path, questions, machine: dict[str, Any]) -> dict[str, Any]:
    ws = Workspace(work / "ws")
    engine = Engine(ws)
    local = engine.kg()  # the bundled KB, imported into this workspace
    served = work / "served.nt"
    servers.export_ntriples(local.path / "store", served, kb_base_iri("metaqa"))
    report: dict[str, Any] = {"local": measure(engine, "metaqa", questions)}
    with ExitStack() as stack:
        for name, start, graph in (
            ("oxigraph-server", servers.oxigraph_server, None),
            ("virtuoso", servers.virtuoso_server, servers.VIRTUOSO_GRAPH),
        ):
            workdir = work / name
            workdir.mkdir()
            url = stack.enter_context(start(served, workdir))
            # read whole, and lazily: as if the endpoint held more than --max-triples
            for kb, max_triples in ((name, MAX_TRIPLES), (f"{name}-lazy", 1000)):
                t0 = time.perf_counter()
                ws.connect(kb, url, graph=graph, max_triples=max_triples)
                connect_s = time.perf_counter() - t0
                report[kb] = {"connect_s": round(connect_s, 2), **measure(engine, kb, questions)}
    base = report["local"]["latency_ms"]["median"]
    for row in report.values():
        row["median_ratio_to_local"] = round(row["latency_ms"]["median"] / base, 2)
    return {
        "benchmark": "remote_sparql_latency",
        "date": now_iso(),
        "machine": {**machine, "loadavg_at_end": loadavg()},
        "config": {"n_questions": len(questions), "hops": HOPS, "warmup": WARMUP,
                   "paradigm": "kg-only", "kb_triples": local.index.n_triples},  # fmt: skip
        "kbs": report,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=300, help="questions, split over 1-3 hops")
    result = run(parser.parse_args())
    path = write_json(RESULTS_DIR / "remote_sparql.json", result)
    print(f"{'KB':<24} {'connect s':>9} {'median ms':>9} {'p95 ms':>8} {'x local':>7} "
          f"{'requests':>8} {'Hits@1':>6}")  # fmt: skip
    for name, row in result["kbs"].items():
        lat = row["latency_ms"]
        print(f"{name:<24} {row.get('connect_s', 0):>9} {lat['median']:>9} {lat['p95']:>8} "
              f"{row['median_ratio_to_local']:>7} "
              f"{row['requests_per_question']['median']:>8} {row['hits_at_1']:>6}")  # fmt: skip
    print(f"written to {path}")


if __name__ == "__main__":
    main()
