"""Support status and groundedness per paradigm (issue: trustworthy answers).

For each paradigm and question set, `knowloop eval --json` on the first N questions; the
table shows Hits@1, the share of answers per support status (core.support) and the rate of
the LLM's claims the KB or the run's sources support / contradict (core.grounding). Results
in benchmarks/results/grounding.json and a Markdown table (README, "Groundedness").

    python benchmarks/eval_grounding.py                  # 30 questions per set
    python benchmarks/eval_grounding.py --limit 10 --only llm-only
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "grounding.json"
PARADIGMS = ("kg-only", "llm-only", "llm+kg", "llmxkg", "cok")
# name -> (question file, KB name or "" for the bundled one)
SETS = {
    "metaqa-1hop": (ROOT / "kb_data" / "metaqa" / "qa_dev_1hop.tsv", ""),
    "metaqa-2hop": (ROOT / "kb_data" / "metaqa" / "qa_dev_2hop.tsv", ""),
    "family-heldout": (ROOT / "benchmarks" / "data" / "family" / "questions_heldout.tsv",
                       "family"),  # fmt: skip
}


def run(paradigm: str, name: str, limit: int) -> dict:
    questions, kb = SETS[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "summary.json"
        cmd = [sys.executable, "-m", "core", "eval", "--questions", str(questions),
               "--limit", str(limit), "--json", str(out), "--paradigm", paradigm]  # fmt: skip
        if kb:
            cmd += ["--kb", kb]
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=os.environ)
        summary = json.loads(out.read_text())
    summary["set"] = name
    return summary


def table(rows: list[dict]) -> str:
    def rate(x) -> str:
        return "—" if x is None else f"{x:.2f}"

    head = (
        "| paradigm | set | n | Hits@1 | verified | low confidence | unverified | claims "
        "| supported | contradicted |\n" + "|---" * 10 + "|\n"
    )
    return head + "\n".join(
        f"| `{r['paradigm']}` | {r['set']} | {r['n']} | {r['hits_at_1']:.3f} "
        f"| {r['verified_share']:.2f} | {r['low_confidence_share']:.2f} "
        f"| {r['unverified_share']:.2f} | {r['claims']} | {rate(r['supported_claim_rate'])} "
        f"| {rate(r['contradicted_claim_rate'])} |"
        for r in rows
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--only", nargs="*", default=list(PARADIGMS))
    parser.add_argument("--sets", nargs="*", default=list(SETS))
    args = parser.parse_args()
    rows = []
    for paradigm in args.only:
        for name in args.sets:
            row = run(paradigm, name, args.limit)
            rows.append(row)
            print(table([row]).splitlines()[-1], flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(rows, indent=2) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
