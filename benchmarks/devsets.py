"""The dev sets the engine is measured on, and one in-process runner for all of them.

Each dev set is a KB (imported once into a benchmark workspace) and question files. The
engine was written against none of these KBs; `questions.tsv` is the tuning file,
`questions_heldout.tsv` holds wordings never tuned on; `questions_probe.tsv` (where there is
one) wordings written later for the tuning KB's own entities, to find failures (tuning data);
`questions_count.tsv` "how many" questions (`--split count`); `questions_wordings.tsv` our own
wordings of paths, written to find failures (`--split wordings`, scripts/devsets/build_wordings.py).

    python benchmarks/devsets.py                      # every set, Hits@1 per set and kind
    python benchmarks/devsets.py --only family --limit 200 --split heldout
    python benchmarks/devsets.py --details out/       # per-question JSON lines per set

The same figures come from `knowloop eval` (the commands are printed); this runner only
saves the per-process start-up by running every set in one process.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.engine import Engine  # noqa: E402
from core.evaluate import evaluate, read_questions, write_details  # noqa: E402
from core.loop import LoopSettings  # noqa: E402
from core.workspace import Workspace  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "benchmarks" / "data"
METAQA = ROOT / "kb_data" / "metaqa"
SHARED = ROOT.parent / "shared" / "data" / "metaqa"


@dataclass(frozen=True)
class DevSet:
    name: str
    kb_file: Path
    kb_name: str | None  # None: the bundled default KB (with its relation documentation)
    tuning: Path
    heldout: Path | None = None
    probe: Path | None = None  # wordings written later for the tuning KB's own entities
    count: Path | None = None  # "how many" questions (scripts/devsets/build_counts.py)
    wordings: Path | None = None  # our own wordings (scripts/devsets/build_wordings.py)
    paradigm: str = "kg-only"
    strip_brackets: bool = False


def dev_sets() -> list[DevSet]:
    sets = [
        DevSet(n, DATA / n / f, n, DATA / n / "questions.tsv", DATA / n / "questions_heldout.tsv",
               DATA / n / "questions_probe.tsv", DATA / n / "questions_count.tsv",
               DATA / n / "questions_wordings.tsv")
        for n, f in (("family", "kb.tsv"), ("football", "kb.tsv"), ("business", "kb.nt"),
                     ("music", "kb.tsv"), ("science", "kb.tsv"))
    ]
    for hop in (1, 2, 3):
        sets.append(
            DevSet(f"metaqa-bare-{hop}hop", METAQA / "kb.txt", "metaqa-bare",
                   METAQA / f"qa_dev_{hop}hop.tsv")  # fmt: skip
        )
        sets.append(
            DevSet(f"metaqa-{hop}hop", METAQA / "kb.txt", None, METAQA / f"qa_dev_{hop}hop.tsv")
        )
    ntm = SHARED / "qa_dev_ntm_1hop.tsv"
    if ntm.is_file():
        sets.append(DevSet("metaqa-ntm-1hop", METAQA / "kb.txt", None, ntm))
        sets.append(DevSet("metaqa-bare-ntm-1hop", METAQA / "kb.txt", "metaqa-bare", ntm))
    sets.append(
        DevSet("filters", METAQA / "kb.txt", None, DATA / "filters" / "questions.tsv",
               DATA / "filters" / "questions_heldout.tsv")  # fmt: skip
    )
    return sets


def ensure_kb(workspace: Workspace, ds: DevSet) -> str | None:
    if ds.kb_name and ds.kb_name not in workspace.kb_names():
        workspace.import_file(ds.kb_file, name=ds.kb_name)
    return ds.kb_name


def run(ds: DevSet, engine: Engine, split: str, limit: int | None, group: str,
        details: Path | None, settings: LoopSettings | None = None) -> dict:  # fmt: skip
    path = {"heldout": ds.heldout, "probe": ds.probe, "count": ds.count,
            "wordings": ds.wordings}.get(split, ds.tuning)  # fmt: skip
    if path is None or not path.is_file():
        return {}
    questions = read_questions(path)
    if limit and len(questions) > limit:  # an even spread over the file, not its head
        step = len(questions) / limit
        questions = [questions[int(i * step)] for i in range(limit)]
    kb = ensure_kb(engine.workspace, ds)
    t0 = time.perf_counter()
    summary, results = evaluate(
        engine, questions, kb=kb, paradigm=ds.paradigm, settings=settings
    )
    by: dict[str, list[float]] = defaultdict(list)
    for r in results:
        by[r.extra.get(group, "")].append(r.hits_at_1)
    if details:
        details.mkdir(parents=True, exist_ok=True)
        write_details(results, details / f"{ds.name}-{split}.jsonl")
    return {
        "set": ds.name,
        "split": split,
        "n": summary["n"],
        "hits_at_1": summary["hits_at_1"],
        "f1": summary["f1"],
        "median_latency_ms": summary["median_latency_ms"],
        "by_" + group: {k: round(sum(v) / len(v), 3) for k, v in sorted(by.items())},
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="dev set names (prefixes)")
    parser.add_argument("--split", choices=("tuning", "heldout", "probe", "count", "wordings"),
                        default="tuning")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--group", default="kind", help="column to break Hits@1 down by")
    parser.add_argument("--details", type=Path, default=None)
    parser.add_argument("--home", type=Path, default=ROOT / ".knowloop-bench")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    engine = Engine(Workspace(args.home))
    out = []
    for ds in dev_sets():
        if args.only and not any(ds.name.startswith(o) for o in args.only):
            continue
        res = run(ds, engine, args.split, args.limit, args.group, args.details)
        if not res:
            continue
        out.append(res)
        print(json.dumps(res, ensure_ascii=False), flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
