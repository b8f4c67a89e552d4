"""Crash-test worker: many edits in one batch, acknowledging each one on stdout.

Usage: python edit_worker.py HOME KB N

Opens the workspace at HOME, and inside ``editor.batch()`` makes N edits to KB: adds of
``Player{i}|plays_for|Club{i % 7}``, every third step also removes an earlier player's triple
and every tenth step undoes the previous add. Right after each edit call returns it prints
``ACK <edit id>`` and flushes, so whoever kills this process knows what was acknowledged.
"""

from __future__ import annotations

import sys

from core.workspace import Workspace


def main() -> int:
    home, kb, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    editor = Workspace(home).editor(kb)
    live = []  # (edit id, triple) of adds still in the graph
    done = 0
    with editor.batch():
        i = 0
        while done < n:
            if done % 10 == 9 and live:
                edit_id, _ = live.pop()
                edit = editor.undo(edit_id, why="worker undo", who="worker")
            elif done % 3 == 2 and len(live) > 1:
                _, triple = live.pop(0)
                edit = editor.edit(remove=[triple], why="worker remove", who="worker")
            else:
                edit = editor.edit(
                    add=[f"Player{i}|plays_for|Club{i % 7}"], why="worker add", who="worker"
                )
                live.append((edit.id, edit.added[0]))
                i += 1
            print(f"ACK {edit.id}", flush=True)
            done += 1
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
