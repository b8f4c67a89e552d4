"""Wall time of the LLM paradigms with the bundled local model on this machine.

Warm (one process, model loaded, litellm imported — the app's situation after its start-up
warm-up): per question, the time until the first step is yielded (what the analyst waits for
after Run) and the total time, medians over the first N questions of each MetaQA dev set.
Cold (a fresh process per run, the CLI's situation): time from process start to the first step.

    python benchmarks/bench_llm_latency.py [--n 20] [--cold 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from common import REPO_ROOT, RESULTS_DIR, machine_info, summarize

from core.engine import Engine
from core.evaluate import read_questions
from core.loop import LoopSettings
from core.trace import Trace

CONFIGS = {
    "llm-only": ("llm-only", {}),
    "llm+kg": ("llm+kg", {}),
    "llmxkg": ("llmxkg", {}),
    "llmxkg+planning": ("llmxkg", {"planning": True}),
}
COLD = """
import time, sys
t0 = time.perf_counter()
from core.engine import Engine
for item in Engine().stream(sys.argv[1], paradigm=sys.argv[2]):
    print(round(time.perf_counter() - t0, 3)); break
"""


def warm(n: int) -> dict:
    engine = Engine()
    questions = [
        q.question
        for hop in (1, 2, 3)
        for q in read_questions(REPO_ROOT / f"kb_data/metaqa/qa_dev_{hop}hop.tsv", limit=n)
    ]
    out = {}
    for name, (paradigm, options) in CONFIGS.items():
        engine.ask(questions[0], paradigm=paradigm, settings=LoopSettings(**options))  # warm-up
        first, total = [], []
        for q in questions:
            t0 = time.perf_counter()
            seen_first = None
            for item in engine.stream(q, paradigm=paradigm, settings=LoopSettings(**options)):
                if seen_first is None:
                    seen_first = time.perf_counter() - t0
                if isinstance(item, Trace):
                    break
            first.append(seen_first)
            total.append(time.perf_counter() - t0)
        out[name] = {"first_step_s": summarize(first), "question_s": summarize(total)}
        print(name, out[name]["first_step_s"]["median"], out[name]["question_s"]["median"],
              flush=True)  # fmt: skip
    return out


def cold(runs: int) -> dict:
    question = read_questions(REPO_ROOT / "kb_data/metaqa/qa_dev_1hop.tsv", limit=1)[0].question
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", COLD, question, "llmxkg"], cwd=REPO_ROOT,
                              capture_output=True, text=True, check=True)  # fmt: skip
        times.append(time.perf_counter() - t0)
        assert done.stdout.strip(), done.stderr
    return {"process_start_to_first_step_s": summarize(times)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="questions per hop")
    parser.add_argument("--cold", type=int, default=3, help="fresh-process runs")
    args = parser.parse_args()
    result = {"machine": machine_info(), "questions_per_hop": args.n,
              "warm": warm(args.n), "cold_llmxkg": cold(args.cold)}  # fmt: skip
    path = RESULTS_DIR / "llm_latency.json"
    path.write_text(json.dumps(result, indent=2))
    print(json.dumps(result["cold_llmxkg"]), f"-> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
