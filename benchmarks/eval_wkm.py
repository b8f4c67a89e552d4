"""World Knowledge Model: learning on a KB the engine has never seen, γ sweep, steps and
invalid / useless actions with and without the learned knowledge, and weak-guides-strong.

Every number comes from the CLI the user runs (`knowloop learn`, `knowloop eval --json`) in
a fresh workspace. The labelled file is split once with a fixed seed into a learning set
(100 questions) and a disjoint evaluation set; `eval` never learns, so the evaluation gold
answers never reach the knowledge.

Configurations (each evaluated on the same held-out questions):
  kg-only before   γ = 1 (the agent alone), nothing learned
  kg-only γ=…      after `knowloop learn --paradigm kg-only` on the 100 learning questions
                   (auto: γ from the agent's accuracy on them; 0, 0.5, 0.7, 1 fixed)
  llmxkg before / guided by kg-only knowledge / guided by its own knowledge   (--llm)
  kg-only guided by llmxkg knowledge                                           (--llm)

Run:  .venv/bin/python benchmarks/eval_wkm.py [--kb scholar|metaqa] [--eval-n 400] [--llm 100]
Results: benchmarks/results/wkm_eval_<kb>.json
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from common import RESULTS_DIR, machine_info, now_iso, write_json

ROOT = Path(__file__).resolve().parent.parent
DATA = {
    "scholar": (ROOT / "benchmarks/data/scholar/kb.tsv",
                [ROOT / "benchmarks/data/scholar/questions.tsv"]),
    "metaqa": (None, [ROOT / f"kb_data/metaqa/qa_dev_{h}hop.tsv" for h in (1, 2, 3)]),
    # the dev KBs' held-out wordings: the planner's fit never read them
    **{n: (ROOT / f"benchmarks/data/{n}/{f}", [ROOT / f"benchmarks/data/{n}/questions_heldout.tsv"])
       for n, f in (("family", "kb.tsv"), ("football", "kb.tsv"), ("business", "kb.nt"))},
}  # fmt: skip
LEARN_N = 100
SEED = 11
KEYS = ("hits_at_1", "f1", "steps_per_question", "invalid_step_share", "useless_step_share",
        "median_latency_ms", "llm_calls")  # fmt: skip


def split(files: list[Path], eval_n: int, out: Path) -> tuple[Path, Path]:
    """One shuffled pool (equal shares of each file), cut into learn and eval TSVs."""
    rows: list[dict] = []
    per_file = (LEARN_N + eval_n) // len(files) + 1
    rng = random.Random(SEED)
    for f in files:
        with open(f, newline="", encoding="utf-8") as fh:
            got = list(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE))
        rng.shuffle(got)
        rows += got[:per_file]
    rng.shuffle(rows)
    learn_rows, eval_rows = rows[:LEARN_N], rows[LEARN_N : LEARN_N + eval_n]
    paths = []
    for name, part in (("learn", learn_rows), ("eval", eval_rows)):
        path = out / f"{name}.tsv"
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh, delimiter="\t", quoting=csv.QUOTE_NONE, escapechar="\\")
            w.writerow(["question", "answers"])
            w.writerows([r["question"], r["answers"]] for r in part)
        paths.append(path)
    return paths[0], paths[1]


def cli(home: Path, *args: str) -> None:
    cmd = [sys.executable, "-m", "core", "--home", str(home), *args]
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kb_flag(kb: str) -> list[str]:
    return ["--kb", kb] if kb else []


def evaluate(home: Path, kb: str, questions: Path, name: str, *flags: str,
             limit: int | None = None) -> dict:  # fmt: skip
    out = home / f"{name.replace(' ', '_')}.json"
    extra = ["--limit", str(limit)] if limit else []
    cli(home, "eval", "--questions", str(questions), *kb_flag(kb), "--json", str(out), *extra,
        *flags)  # fmt: skip
    summary = json.loads(out.read_text())
    row = {"config": name, "n": summary["n"], **{k: summary[k] for k in KEYS}}
    print(f"{name:<40} n={row['n']:<4} Hits@1 {row['hits_at_1']:.3f}  steps/q "
          f"{row['steps_per_question']:.2f}  invalid {row['invalid_step_share']:.3f}  useless "
          f"{row['useless_step_share']:.3f}", flush=True)  # fmt: skip
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kb", choices=list(DATA), default="scholar")
    parser.add_argument("--eval-n", type=int, default=400)
    parser.add_argument("--llm", type=int, default=0, help="held-out questions for llmxkg runs")
    args = parser.parse_args()
    kb_file, files = DATA[args.kb]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        kb = args.kb
        if kb_file is not None:
            cli(home, "import", str(kb_file), "--name", kb)
        else:
            kb = ""  # the bundled KB: the default of every command
        learn_file, eval_file = split(files, args.eval_n, home)
        rows.append(evaluate(home, kb, eval_file, "kg-only before (γ=1)", "--gamma", "1"))
        cli(home, "learn", "--questions", str(learn_file), *kb_flag(kb), "--paradigm", "kg-only")
        for gamma in ("auto", "0", "0.5", "0.7", "1"):
            rows.append(evaluate(home, kb, eval_file, f"kg-only after learning, γ={gamma}",
                                 "--gamma", gamma))  # fmt: skip
        if args.llm:
            llm = ["--paradigm", "llmxkg"]
            rows.append(evaluate(home, kb, eval_file, "llmxkg before (γ=1)", *llm, "--gamma",
                                 "1", limit=args.llm))  # fmt: skip
            rows.append(evaluate(home, kb, eval_file, "llmxkg guided by kg-only knowledge", *llm,
                                 "--knowledge-from", "kg-only", limit=args.llm))  # fmt: skip
            cli(home, "learn", "--questions", str(learn_file), *kb_flag(kb), *llm)
            rows.append(evaluate(home, kb, eval_file, "llmxkg guided by llmxkg knowledge", *llm,
                                 "--knowledge-from", "llmxkg", limit=args.llm))  # fmt: skip
            rows.append(evaluate(home, kb, eval_file, "kg-only guided by llmxkg knowledge",
                                 "--knowledge-from", "llmxkg"))  # fmt: skip
    write_json(RESULTS_DIR / f"wkm_eval_{args.kb}.json",
               {"benchmark": "wkm_eval", "kb": args.kb, "when": now_iso(),
                "machine": machine_info(), "learn_n": LEARN_N, "eval_n": args.eval_n,
                "rows": rows})  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
