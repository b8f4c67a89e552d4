"""Chain-of-Knowledge against the iterative and LLM-only paradigms on the table+KG and
documents+KG dev set (kb_data/metaqa/qa_dev_cok.tsv, built by scripts/build_cok_data.py),
with the bundled local model. Also reports the share of questions the consensus gate
answered without retrieval. Writes benchmarks/results/cok_eval.json.

    python benchmarks/eval_cok.py [--limit N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from common import REPO_ROOT, RESULTS_DIR, machine_info
from tqdm import tqdm

from core.engine import Engine
from core.evaluate import read_questions
from core.loop import LoopSettings
from core.metrics import f1, median, trace_hits_at_1

CONFIGS = {
    "cok": ("cok", {}),
    "cok (all at once)": ("cok", {"progressive": False}),
    "llmxkg": ("llmxkg", {}),
    "llm-only": ("llm-only", {}),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--only", action="append", choices=list(CONFIGS))
    args = parser.parse_args()
    path = REPO_ROOT / "kb_data/metaqa/qa_dev_cok.tsv"
    questions = read_questions(path, limit=args.limit)
    kinds = {}
    with open(path, encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            q, _, kind = line.rstrip("\n").split("\t")
            kinds[q] = kind
    engine = Engine()
    engine.kg()
    out = RESULTS_DIR / "cok_eval.json"
    results = json.loads(out.read_text()) if out.exists() else {}
    results["machine"] = machine_info()
    for name in args.only or list(CONFIGS):
        paradigm, options = CONFIGS[name]
        rows = []
        for item in tqdm(questions, desc=name, file=sys.stderr):
            t0 = time.perf_counter()
            trace = engine.ask(item.question, paradigm=paradigm, settings=LoopSettings(**options))
            usage = trace.usage()
            rows.append(
                {
                    "kind": kinds.get(item.question, "?"),
                    "hits": trace_hits_at_1(trace, item.answers),
                    "f1": f1(trace.answer_labels, item.answers),
                    "tokens": usage["prompt_tokens"] + usage["completion_tokens"],
                    "calls": usage["llm_calls"],
                    "s": time.perf_counter() - t0,
                    "gate": "no retrieval" in trace.stop_reason,
                }
            )
        summary = {"n": len(rows)}
        for kind in ("all", "kg+table", "kg+docs"):
            part = [r for r in rows if kind == "all" or r["kind"] == kind]
            if not part:
                continue
            summary[kind] = {
                "n": len(part),
                "hits_at_1": round(sum(r["hits"] for r in part) / len(part), 4),
                "f1": round(sum(r["f1"] for r in part) / len(part), 4),
                "tokens_per_q": round(sum(r["tokens"] for r in part) / len(part)),
                "calls_per_q": round(sum(r["calls"] for r in part) / len(part), 2),
                "median_s": round(median([r["s"] for r in part]), 2),
                "gate_share": round(sum(r["gate"] for r in part) / len(part), 4),
            }
        results[name] = summary
        out.write_text(json.dumps(results, indent=2))
        print(name, json.dumps(summary["all"]), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
