"""Concurrency-test worker: one edit against a given base version, started on a signal.

Usage: python conflict_worker.py HOME KB BASE_VERSION GO_FILE ADD [REMOVE]

Opens the editor of KB in the workspace at HOME, prints ``READY``, waits until GO_FILE
exists, then makes one edit (ADD and REMOVE are "subject|relation|object" texts; "-" for
none) based on BASE_VERSION. Prints ``OK <id>`` (exit 0), ``CONFLICT <message>`` (exit 3) or
``ERROR <message>`` (exit 2).
"""

from __future__ import annotations

import os
import sys
import time

from core.kg.edits import EditConflict, EditError
from core.workspace import Workspace


def main() -> int:
    home, kb, base, go_file, add = sys.argv[1:6]
    remove = sys.argv[6] if len(sys.argv) > 6 else "-"
    editor = Workspace(home).editor(kb)
    print("READY", flush=True)
    deadline = time.monotonic() + 30
    while not os.path.exists(go_file):
        if time.monotonic() > deadline:
            print("ERROR no go signal", flush=True)
            return 2
        time.sleep(0.001)
    try:
        edit = editor.edit(
            add=[] if add == "-" else [add],
            remove=[] if remove == "-" else [remove],
            why=f"worker {os.getpid()}",
            who=f"pid{os.getpid()}",
            base_version=int(base),
        )
    except EditConflict as exc:
        print(f"CONFLICT {exc}", flush=True)
        return 3
    except EditError as exc:
        print(f"ERROR {exc}", flush=True)
        return 2
    print(f"OK {edit.id}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
