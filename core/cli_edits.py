"""`knowloop` commands of the outer loop: edit, history, undo/redo, export, feedback,
proposals, accept/reject, reask, runs. Same rules and log as the KG editor page."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from core.engine import Engine
from core.kg.edits import Edit


def add_commands(sub) -> None:
    ed = sub.add_parser("edit", help="add/remove triples as one logged edit")
    ed.add_argument(
        "--add",
        action="append",
        default=[],
        metavar="S|P|O",
        help='triple to add (names, <IRIs> or "literals"); repeatable',
    )
    ed.add_argument(
        "--remove",
        action="append",
        default=[],
        metavar="S|P|O",
        help="triple to remove; repeatable",
    )
    ed.add_argument("--why", required=True, help="the reason, kept in the history")
    _who_and_kb(ed)
    ed.add_argument(
        "--allow-new-relation",
        action="store_true",
        help="confirm that a relation name not yet in the KB may be created",
    )
    ed.add_argument(
        "--base-version",
        type=int,
        default=None,
        help="the KB version you looked at; a conflicting newer edit is refused",
    )
    ed.set_defaults(run=_edit)

    hist = sub.add_parser("history", help="the edit history of a KB")
    hist.add_argument("--kb", default=None)
    hist.add_argument("--json", action="store_true")
    hist.set_defaults(run=_history)

    for name, text in (("undo", "undo an edit (a new history entry)"), ("redo", "redo an edit")):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("id", type=int)
        cmd.add_argument("--why", default="")
        _who_and_kb(cmd)
        cmd.set_defaults(run=_undo_redo, action=name)

    exp = sub.add_parser("export", help="write the KG (.ttl/.nt) or its history (.jsonl/.rdfp)")
    exp.add_argument("path", type=Path)
    exp.add_argument("--kb", default=None)
    exp.set_defaults(run=_export)

    fb = sub.add_parser("feedback", help="rate a stored run, mark wrong evidence, propose a fix")
    fb.add_argument("run_id", type=int, metavar="RUN", help="the run id `knowloop ask` printed")
    fb.add_argument("--rating", choices=("good", "bad"), default=None)
    fb.add_argument("--comment", default="")
    fb.add_argument(
        "--wrong",
        action="append",
        default=[],
        metavar="S|P|O",
        help="an evidence triple that is wrong; repeatable",
    )
    fb.add_argument("--propose-add", action="append", default=[], metavar="S|P|O")
    fb.add_argument("--propose-remove", action="append", default=[], metavar="S|P|O")
    fb.add_argument("--who", default=os.environ.get("USER", ""))
    fb.set_defaults(run=_feedback)

    runs = sub.add_parser("runs", help="stored runs (newest first)")
    runs.add_argument("--kb", default=None)
    runs.add_argument("--limit", type=int, default=20)
    runs.set_defaults(run=_runs)

    props = sub.add_parser("proposals", help="fix proposals waiting for review")
    props.add_argument("--kb", default=None)
    props.add_argument("--all", action="store_true", help="also accepted and rejected ones")
    props.set_defaults(run=_proposals)

    for name in ("accept", "reject"):
        cmd = sub.add_parser(name, help=f"{name} a fix proposal")
        cmd.add_argument("id", type=int)
        cmd.add_argument("--who", default=os.environ.get("USER", ""))
        cmd.add_argument("--allow-new-relation", action="store_true")
        cmd.set_defaults(run=_decide, action=name)

    ra = sub.add_parser("reask", help="ask again the stored questions an edit affects")
    ra.add_argument("id", type=int, help="edit id (see `knowloop history`)")
    ra.add_argument("--kb", default=None)
    ra.add_argument("--json", action="store_true")
    ra.set_defaults(run=_reask)


def _who_and_kb(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kb", default=None)
    p.add_argument("--who", default=os.environ.get("USER", ""), help="your name (default $USER)")


def describe_edit(edit: Edit) -> str:
    lines = [f"saved #{edit.id} ({edit.kind}) in {edit.kb}: {edit.why}"]
    lines += [f"  + {t.text()}" for t in edit.added]
    lines += [f"  - {t.text()}" for t in edit.removed]
    lines.append(f"version is now {edit.id}; affected questions: knowloop reask {edit.id}")
    return "\n".join(lines)


def _edit(engine: Engine, args) -> int:
    edit = engine.editor(args.kb).edit(
        add=args.add,
        remove=args.remove,
        why=args.why,
        who=args.who,
        base_version=args.base_version,
        allow_new_relation=args.allow_new_relation,
    )
    print(describe_edit(edit))
    return 0


def _history(engine: Engine, args) -> int:
    editor = engine.editor(args.kb)
    history = editor.history()
    if args.json:
        print(json.dumps([json.loads(e.to_json()) for e in history], ensure_ascii=False, indent=2))
        return 0
    undone = editor.undone()
    for e in history:
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(e.at))
        target = f" #{e.target}" if e.target else ""
        mark = " (undone)" if e.id in undone else ""
        print(
            f"#{e.id} {when} {e.kind}{target}{mark} by {e.who or '?'}: {e.why} "
            f"(+{len(e.added)} -{len(e.removed)})"
        )
    if not history:
        print("no edits yet")
    return 0


def _undo_redo(engine: Engine, args) -> int:
    editor = engine.editor(args.kb)
    method = editor.undo if args.action == "undo" else editor.redo
    print(describe_edit(method(args.id, why=args.why, who=args.who)))
    return 0


def _export(engine: Engine, args) -> int:
    what = engine.editor(args.kb).export(args.path)
    print(f"wrote {what} to {args.path}")
    return 0


def _feedback(engine: Engine, args) -> int:
    loop = engine.feedback
    run = loop.runs.get(args.run_id)
    editor = engine.editor(run.kb)
    wrong = [editor.parse(text, must_exist=True)[0] for text in args.wrong]
    rated = loop.rate(
        args.run_id,
        rating={"good": 1, "bad": -1, None: 0}[args.rating],
        comment=args.comment,
        wrong=wrong,
        propose_add=args.propose_add,
        propose_remove=args.propose_remove,
        who=args.who,
    )
    feedback, proposal = rated.feedback, rated.proposal
    print(f"saved feedback #{feedback.id} on run #{args.run_id}")
    if rated.not_learned:
        print(f"knowloop: not yet learned from ({rated.not_learned})", file=sys.stderr)
    if proposal:
        print(f"fix proposal #{proposal.id} waits for review: knowloop accept {proposal.id}")
    return 0


def _runs(engine: Engine, args) -> int:
    for run in engine.feedback.runs.list(kb=args.kb, limit=args.limit):
        answers = "; ".join(run.answers[:3]) or "no answer"
        print(f"#{run.id}\t{run.kb}\t{run.question}\t{answers}")
    return 0


def _proposals(engine: Engine, args) -> int:
    items = engine.feedback.runs.proposals(kb=args.kb, status=None if args.all else "pending")
    for p in items:
        print(f"#{p.id} [{p.status}] run #{p.run_id} in {p.kb}: {p.why}")
        print("\n".join([f"  + {t}" for t in p.add] + [f"  - {t}" for t in p.remove]))
    if not items:
        print("no proposals")
    return 0


def _decide(engine: Engine, args) -> int:
    loop = engine.feedback
    if args.action == "reject":
        loop.reject(args.id, who=args.who)
        print(f"rejected proposal #{args.id}")
        return 0
    print(
        describe_edit(
            loop.accept(args.id, who=args.who, allow_new_relation=args.allow_new_relation)
        )
    )
    return 0


def _reask(engine: Engine, args) -> int:
    loop = engine.feedback
    results = loop.reask(engine.editor(args.kb).entry(args.id))
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "run": r.run.id,
                        "question": r.run.question,
                        "before": r.before,
                        "after": r.after.answer_labels,
                        "changed": r.changed,
                    }
                    for r in results
                ],
                ensure_ascii=False,
                indent=2,
            )
        )
        return 0
    for r in results:
        flag = "CHANGED" if r.changed else "same"
        print(
            f"[{flag}] {r.run.question}\n  before: {'; '.join(r.before[:5]) or 'no answer'}"
            f"\n  after:  {'; '.join(r.after.answer_labels[:5]) or 'no answer'}"
        )
    if not results:
        print(f"no stored question used the triples edit #{args.id} changed")
    return 0
