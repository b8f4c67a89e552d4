"""KG edit cost on the bundled KB: one acknowledged edit (log fsync + store update + saved
index, as the CLI and the editor page do it), an edit inside a batch, an undo, and how long the
next question waits while the read view catches up.

    .venv/bin/python benchmarks/bench_edits.py [--n 30] [--batch 300]

No target is set by the issues; the figures go in the README. Medians over repeated edits.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import RESULTS_DIR, machine_info, now_iso, summarize, write_json  # noqa: E402
from core.engine import Engine  # noqa: E402
from core.workspace import Workspace  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="single edits (and undos) timed")
    parser.add_argument("--batch", type=int, default=300, help="edits timed inside one batch")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "edits.json")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="knowloop-bench-edits-"))
    try:
        engine = Engine(Workspace(home))
        engine.kg()  # import the bundled KB (not timed)
        ws = engine.workspace
        single, undo, next_question = [], [], []
        for i in range(args.n):
            t0 = time.perf_counter()
            edit = ws.editor().edit(add=[f"Black Snake Moan|has tags|bench tag {i}"], why="bench")
            single.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            engine.ask("who directed Black Snake Moan")
            next_question.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            ws.editor().undo(edit.id, why="bench")
            undo.append((time.perf_counter() - t0) * 1000)
        batch = []
        editor = ws.editor()
        with editor.batch():
            for i in range(args.batch):
                t0 = time.perf_counter()
                editor.edit(add=[f"Black Snake Moan|has tags|batch tag {i}"], why="bench")
                batch.append((time.perf_counter() - t0) * 1000)
        result = {
            "date": now_iso(),
            "machine": machine_info(),
            "kb_triples": engine.kg().index.n_triples,
            "single_edit_ms": summarize(single),
            "undo_ms": summarize(undo),
            "next_question_after_edit_ms": summarize(next_question),
            "batch_edit_ms": summarize(batch),
        }
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"KG edits on the bundled KB ({result['kb_triples']:,} triples), medians (p95) in ms")
    for name in ("single_edit_ms", "undo_ms", "next_question_after_edit_ms", "batch_edit_ms"):
        stats = result[name]
        print(f"  {name:<30} {stats['median']:>8.1f} ({stats['p95']:.1f}), n={stats['n']}")
    print(f"wrote {write_json(args.out, result)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
