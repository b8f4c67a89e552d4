"""Accuracy and cost of the paradigms with the bundled local model (issue: LLM layer).

Runs `knowloop eval` for each configuration on the first N questions of each MetaQA dev set
and writes benchmarks/results/llm_eval.json plus a Markdown table (README, "LLM paradigms").

    python benchmarks/eval_llm.py                 # the full matrix (long: see README)
    python benchmarks/eval_llm.py --only llmxkg   # one configuration
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "llm_eval.json"

# name -> (knowloop eval flags, questions per hop)
CONFIGS: dict[str, tuple[list[str], int]] = {
    "kg-only": (["--paradigm", "kg-only"], 200),
    "llm-only": (["--paradigm", "llm-only"], 200),
    "llmxkg": (["--paradigm", "llmxkg"], 200),
    "llm+kg": (["--paradigm", "llm+kg"], 200),
    "llmxkg+planning": (["--paradigm", "llmxkg", "--planning"], 200),
    "tog-style": (
        ["--paradigm", "llmxkg", "--exhaustive", "--width", "3", "--max-steps", "3",
         "--judge", "llm"],
        50,
    ),  # fmt: skip
    "llmxkg@50": (["--paradigm", "llmxkg"], 50),
}
HOPS = (1, 2, 3)


def run(name: str, hop: int, flags: list[str], limit: int) -> dict:
    questions = ROOT / "kb_data" / "metaqa" / f"qa_dev_{hop}hop.tsv"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "summary.json"
        cmd = [sys.executable, "-m", "core", "eval", "--questions", str(questions),
               "--limit", str(limit), "--json", str(out), *flags]  # fmt: skip
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        summary = json.loads(out.read_text())
    summary.update(config=name, hop=hop, flags=" ".join(flags))
    n = max(1, summary["n"])
    summary["calls_per_q"] = round(summary["llm_calls"] / n, 2)
    summary["tokens_per_q"] = round((summary["prompt_tokens"] + summary["completion_tokens"]) / n)
    return summary


def table(rows: list[dict]) -> str:
    head = "| configuration | hop | n | Hits@1 | LLM calls/q | tokens/q | median s/q |\n"
    head += "|---|---|---|---|---|---|---|\n"
    lines = [
        f"| {r['config']} | {r['hop']} | {r['n']} | {r['hits_at_1']:.3f} | {r['calls_per_q']} "
        f"| {r['tokens_per_q']} | {r['median_latency_ms'] / 1000:.2f} |"
        for r in rows
    ]
    return head + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", choices=list(CONFIGS))
    parser.add_argument("--hops", default="1,2,3")
    args = parser.parse_args()
    done = json.loads(RESULTS.read_text()) if RESULTS.exists() else []
    hops = [int(h) for h in args.hops.split(",")]
    for name in args.only or list(CONFIGS):
        flags, limit = CONFIGS[name]
        for hop in hops:
            row = run(name, hop, flags, limit)
            done = [r for r in done if (r["config"], r["hop"]) != (name, hop)] + [row]
            RESULTS.write_text(json.dumps(done, indent=2))
            print(table([row]).splitlines()[-1], flush=True)
    order = {n: i for i, n in enumerate(CONFIGS)}
    print(table(sorted(done, key=lambda r: (order.get(r["config"], 99), r["hop"]))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
