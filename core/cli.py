"""`knowloop`: the command line over the same Engine the web pages use.

Every failure caused by input prints one line `knowloop: error: <reason>` on stderr and exits
with status 2; the workspace is left unchanged. Status 3: an edit conflicted with another;
status 4: `ask` printed its answer but the run store stayed busy, so the run waits in the
spool and is stored later (see core/runs.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from core import cli_edits, cli_sources, paradigms, settings_spec
from core.engine import Engine
from core.evaluate import SUMMARY_KEYS, evaluate, read_questions, write_details
from core.kg.edits import EditConflict
from core.kg.importer import KBFileError
from core.kg.remote import MAX_TRIPLES
from core.llm.client import LLMSettings
from core.loop import LoopSettings
from core.runs import RunPending
from core.secrets import scrub, scrub_obj
from core.trace import Trace
from core.worker import MEMORY_MB
from core.workspace import DISK_INDEX_TRIPLES, INDEX_PLACES, Workspace, default_home

EXIT_BAD_INPUT = 2
EXIT_CONFLICT = 3  # someone else changed the same triples: reload and retry
EXIT_NOT_STORED = 4  # answered, but the run could not be stored now (kept for later if it can)
POSITIONAL_TEXT = {"question": "the question", "query": "the query", "text": "the search text"}


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    workspace = Workspace(args.home)  # --home, else $KNOWLOOP_HOME, else ~/.knowloop
    engine = Engine(workspace)
    try:
        check_text_args(args)
        return args.run(engine, args)
    except EditConflict as exc:
        print(f"knowloop: conflict: {_one_line(exc)}", file=sys.stderr)
        return EXIT_CONFLICT
    except (KBFileError, ValueError, OSError) as exc:  # QueryRefused is a ValueError
        print(f"knowloop: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("knowloop: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # a bug or an environment fault: one line, not a traceback
        print(
            f"knowloop: unexpected error ({type(exc).__name__}): {_one_line(exc)}", file=sys.stderr
        )
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="knowloop",
        description="Knowledge-enhanced reasoning in a loop you can watch.",
    )
    parser.add_argument(
        "--home",
        type=Path,
        default=None,
        help=f"workspace directory (default: $KNOWLOOP_HOME or {default_home()})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ask = sub.add_parser("ask", help="answer a question, with evidence")
    ask.add_argument("question")
    _kb_and_paradigm(ask)
    ask.add_argument("--json", action="store_true", help="print the full trace as JSON")
    ask.set_defaults(run=_ask)

    ev = sub.add_parser("eval", help="score a labelled question file (TSV: question, answers)")
    ev.add_argument("--questions", required=True, type=Path)
    _kb_and_paradigm(ev)
    ev.add_argument("--limit", type=int, default=None, help="first N questions only")
    ev.add_argument("--json", type=Path, default=None, metavar="OUT", help="write the summary")
    ev.add_argument(
        "--strip-brackets", action="store_true", help="remove [ ] topic-entity marks before asking"
    )
    ev.add_argument(
        "--details",
        type=Path,
        default=None,
        metavar="FILE.jsonl",
        help="write one line per question: gold, predicted, hit, path, steps, latency, tokens",
    )
    ev.set_defaults(run=_eval)

    le = sub.add_parser(
        "learn", help="learn from labelled questions (TSV: question, answers) for later runs"
    )
    le.add_argument("--questions", required=True, type=Path)
    _kb_and_paradigm(le)
    le.add_argument("--limit", type=int, default=None, help="first N questions only")
    le.add_argument("--json", type=Path, default=None, metavar="OUT", help="write the report")
    le.set_defaults(run=_learn)

    imp = sub.add_parser("import", help="load a KB file (RDF or delimited triples)")
    imp.add_argument("path", type=Path)
    imp.add_argument("--name", default=None, help="KB name (default: from the file name)")
    imp.add_argument(
        "--schema",
        type=Path,
        default=None,
        help="Turtle file documenting relations (skos:altLabel, rdfs:comment)",
    )
    imp.add_argument(
        "--skip-bad",
        action="store_true",
        help="import the good lines and report the malformed ones",
    )
    imp.add_argument("--replace", action="store_true", help="replace a KB of the same name")
    imp.add_argument("--index", choices=INDEX_PLACES, default="auto",
                     help="where the per-node index lives: memory (fastest, small KBs), disk "
                          "(bounded memory, millions of triples); auto: disk for files from "
                          f"about {DISK_INDEX_TRIPLES:,} lines")  # fmt: skip
    imp.set_defaults(run=_import)

    co = sub.add_parser("connect", help="register a remote SPARQL endpoint as a KB (read-only)")
    co.add_argument("name", help="the KB's name (then --kb NAME)")
    co.add_argument("--sparql", required=True, metavar="URL", help="SPARQL 1.1 query endpoint")
    co.add_argument("--graph", default=None, metavar="IRI", help="read this named graph only")
    co.add_argument("--label-predicate", action="append", default=None, metavar="IRI",
                    help="predicate naming things (repeatable; default rdfs:label)")  # fmt: skip
    co.add_argument("--timeout", type=float, default=10.0,
                    help="seconds one request may take (default 10)")  # fmt: skip
    co.add_argument("--max-triples", type=int, default=MAX_TRIPLES,
                    help=f"largest endpoint read whole to index; larger ones are indexed "
                         f"lazily, nodes read when needed (default {MAX_TRIPLES:,})")  # fmt: skip
    co.add_argument("--refresh", action="store_true", help="read the endpoint again")
    co.set_defaults(run=_connect)

    sq = sub.add_parser("sparql", help="read-only SPARQL over a KB")
    sq.add_argument("query")
    sq.add_argument("--kb", default=None)
    sq.add_argument("--json", action="store_true")
    sq.add_argument("--timeout", type=float, default=10.0, help="seconds (default 10)")
    sq.add_argument("--max-rows", type=int, default=1000, help="row cap (default 1000)")
    sq.add_argument("--memory-mb", type=int, default=MEMORY_MB,
                    help=f"memory cap of the query (default {MEMORY_MB})")  # fmt: skip
    sq.set_defaults(run=_sparql)

    kbs = sub.add_parser("kbs", help="list the imported KBs")
    kbs.set_defaults(run=_kbs)

    model = sub.add_parser("model", help="the bundled local model: assemble it, show its status")
    model.add_argument("--json", action="store_true")
    model.set_defaults(run=_model)
    cli_edits.add_commands(sub)
    cli_sources.add_commands(sub)
    return parser


def _kb_and_paradigm(p: argparse.ArgumentParser) -> None:
    p.add_argument("--kb", default=None, help="KB name or file (default: the bundled MetaQA KB)")
    p.add_argument("--paradigm", default="kg-only", choices=paradigms.names())
    groups = {
        "loop": p,
        "wkm": p.add_argument_group(
            "World Knowledge Model (kg-only, llmxkg; see `knowloop learn`)"
        ),
        "llm": p.add_argument_group("LLM paradigms (llm-only, llm+kg, llmxkg)"),
    }
    for s in settings_spec.SETTINGS:
        if s.flag:
            _add_setting(groups[s.group], s)
    g = groups["llm"]  # the LLM's own settings (core.llm.LLMSettings), not the loop's
    g.add_argument(
        "--model",
        default=None,
        help="litellm model name (default: $KNOWLOOP_MODEL or local/gemma-3-270m)",
    )
    g.add_argument("--api-base", default=None, help="API base URL (Ollama, vLLM, proxies)")
    g.add_argument("--max-llm-calls", type=int, default=None, help="per-question call budget")
    g.add_argument("--max-llm-tokens", type=int, default=None, help="per-question token budget")
    g.add_argument(
        "--llm-deadline",
        type=float,
        default=None,
        metavar="SECONDS",
        help="per-question time for all LLM calls and retries "
        f"(default {LLMSettings.deadline_s:g}); when it passes the run stops and says so",
    )


def _add_setting(p: argparse._ActionsContainer, s: settings_spec.Setting) -> None:
    """One flag from the settings spec: its default, type, choices and help."""
    if s.type is bool:
        p.add_argument(s.flag, action="store_true", help=s.help)
        return
    kind = _gamma if s.nullable else s.type
    choices, extra = s.options(), {"metavar": s.metavar} if s.metavar else {}
    if choices and not s.metavar:  # "" (unset: the default) is not listed as a value to type
        choices = tuple(c for c in choices if c != "")
    p.add_argument(s.flag, type=kind, default=s.default, choices=choices, help=s.help, **extra)


def _gamma(text: str) -> float | None:
    if text == "auto":
        return None
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number or 'auto': {text!r}") from None


def _settings(args) -> LoopSettings:
    if args.max_steps < 1:
        raise ValueError("--max-steps must be at least 1")
    if not 0.0 <= args.threshold <= 1.0:
        raise ValueError("--threshold must be within [0, 1]")
    llm = LLMSettings()
    if args.model:
        llm.model = args.model
    if args.api_base:
        llm.api_base = args.api_base
    if args.max_llm_calls is not None:
        llm.max_calls = args.max_llm_calls
    if args.max_llm_tokens is not None:
        llm.max_tokens = args.max_llm_tokens
    if args.llm_deadline is not None:
        if not args.llm_deadline > 0:  # also refuses nan
            raise ValueError("--llm-deadline must be more than 0 seconds")
        llm.deadline_s = args.llm_deadline
    values = {s.name: getattr(args, s.name) for s in settings_spec.SETTINGS if s.flag}
    settings = LoopSettings(**values, llm=llm)
    settings.validate()
    return settings


def check_text_args(args: argparse.Namespace) -> None:
    """Refuse text arguments that are not valid UTF-8 before any work is done.

    Python hands undecodable argv bytes over as lone surrogates (PEP 383); stored, they fail
    inside DuckDB after the question was answered, and printed, they fail the output.
    """
    for name, value in vars(args).items():
        for text in value if isinstance(value, list) else [value]:
            problem = _not_utf8(text) if isinstance(text, str) else None
            if problem:
                what = POSITIONAL_TEXT.get(name, f"--{name.replace('_', '-')}")
                raise ValueError(f"{what} is not valid UTF-8 text ({problem})")


def _not_utf8(text: str) -> str | None:
    """Where the first undecodable byte is, as the user typed it (a byte offset); None when
    the text is fine."""
    try:
        text.encode("utf-8")
        return None
    except UnicodeEncodeError as exc:
        index = exc.start
    char = text[index]
    if "\udc80" <= char <= "\udcff":  # surrogateescape: the byte 0x80..0xff itself
        offset = len(text[:index].encode("utf-8", "surrogateescape"))
        return f"byte 0x{ord(char) - 0xDC00:02x} at position {offset}"
    return f"lone surrogate U+{ord(char):04X} at character {index}"


def _ask(engine: Engine, args) -> int:
    """Answer, then store the run; an answer whose run cannot be stored is still printed
    (flushed first), with a warning and EXIT_NOT_STORED rather than the bad-input code."""
    trace = engine.ask(args.question, kb=args.kb, paradigm=args.paradigm, settings=_settings(args))
    print(trace.to_json() if args.json else format_trace(trace), flush=True)
    try:
        run_id = engine.feedback.record(trace, source="cli")
    except RunPending as exc:
        print(f"knowloop: warning: the run is not stored yet: {_one_line(exc)}", file=sys.stderr)
        return EXIT_NOT_STORED
    except Exception as exc:  # the answer stands; only keeping it failed
        print(f"knowloop: warning: the run was not stored: {_one_line(exc)}", file=sys.stderr)
        return EXIT_NOT_STORED
    if not args.json:
        print(f"run #{run_id} — rate it: knowloop feedback {run_id} --rating good|bad")
    return 0


def format_trace(trace: Trace, top: int = 10) -> str:
    """Human-readable answer: ranked answers with their evidence, then the steps."""
    lines = [f"Q: {trace.question}"]
    if trace.answers:
        more = f" (of {trace.n_answers})" if trace.n_answers > top else ""
        lines.append(f"A{more}: " + "; ".join(a.label for a in trace.answers[:top]))
        best = trace.answers[0]
        if best.evidence:
            lines.append("evidence for " + repr(best.label) + ":")
            lines += [f"  {t.text()}" for t in best.evidence]
    else:
        lines.append("A: no answer found")
    if trace.support and trace.answers:
        lines.append(f"support: {trace.support.status.upper()} — {trace.support.reason}")
    if trace.claims:
        counts = ", ".join(f"{n} {status}" for status, n in trace.claim_counts.items() if n)
        lines.append(f"claims the LLM wrote: {counts}")
        lines += [f"  [{c.status}] {c.text} — {c.reason}" for c in trace.claims]
    lines.append(f"stopped: {trace.stop_reason}")
    for s in trace.steps:
        status = f"error: {s.error}" if s.error else f"{s.candidates} candidates"
        lines.append(
            f"  step {s.index}: {s.action.description} -> {status}; reward {s.reward:.2f}"
            f" ({s.duration_ms:.1f} ms)"
        )
        if note := s.action.details.get("note"):  # a filter or constraint that was lifted
            lines.append(f"    note: {note}")
    return scrub("\n".join(lines))  # errors in the steps may echo a provider's key


def _progress_bar(desc: str):
    """An import's progress (share done, phase) as a bar on a terminal's stderr; silent when
    stderr is not a terminal (scripts, tests)."""
    from tqdm import tqdm

    bar = tqdm(total=100, desc=desc, unit="%", file=sys.stderr, disable=not sys.stderr.isatty(),
               bar_format="{desc} {percentage:3.0f}%|{bar}| [{elapsed}]")  # fmt: skip

    def report(share: float, phase: str) -> None:
        bar.set_description_str(f"{desc} ({phase})", refresh=False)
        bar.update(max(0, round(share * 100) - bar.n))
        bar.refresh()
        if share >= 1.0:
            bar.close()

    return report


def _labelled(args, verb: str, strip_brackets: bool = False) -> dict:
    """What `eval` and `learn` share: the checked question file, the KB, the paradigm, the
    settings and a progress bar on stderr (keyword arguments of `evaluate` and `learn`)."""
    from tqdm import tqdm

    if args.limit is not None and args.limit < 1:
        raise ValueError("--limit must be at least 1")
    questions = read_questions(args.questions, limit=args.limit, strip_brackets=strip_brackets)
    if not questions:
        raise ValueError(f"{args.questions}: no questions found")
    return {
        "questions": questions,
        "kb": args.kb,
        "paradigm": args.paradigm,
        "settings": _settings(args),
        "progress": lambda it: tqdm(it, desc=f"{verb} {args.paradigm}", unit="q", file=sys.stderr),
    }


def _eval(engine: Engine, args) -> int:
    summary, results = evaluate(engine, **_labelled(args, "eval", args.strip_brackets))
    if args.details:
        write_details(results, args.details)
    summary = {k: summary[k] for k in SUMMARY_KEYS}
    for key in SUMMARY_KEYS:
        print(f"{key:>23}: {summary[key]}")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n")
    return 0


def _learn(engine: Engine, args) -> int:
    from core.learn import learn

    report = learn(engine, **_labelled(args, "learn"))
    summary = report.summary()
    for key, value in summary.items():
        print(f"{key:>10}: {value}")
    if args.json:
        rows = scrub_obj({**summary, "rows": report.rows})
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


def _import(engine: Engine, args) -> int:
    info = engine.workspace.import_file(
        args.path,
        name=args.name,
        skip_bad=args.skip_bad,
        replace=args.replace,
        schema=args.schema,
        index=args.index,
        progress=_progress_bar(f"importing {args.path.name}"),
    )
    print(
        f"imported {info.name}: {info.triples:,} triples, {info.entities:,} entities, "
        f"{info.relations} relations ({info.format}, {info.import_seconds:.2f} s)"
    )
    if info.skipped_lines:
        print(f"skipped {info.skipped_lines} malformed lines", file=sys.stderr)
    return 0


def _connect(engine: Engine, args) -> int:
    info = engine.workspace.connect(
        args.name, args.sparql, graph=args.graph, label_predicates=args.label_predicate,
        timeout_s=args.timeout, max_triples=args.max_triples, refresh=args.refresh,
    )  # fmt: skip
    print(
        f"connected {info.name}: {info.source}; {info.triples:,} triples, {info.entities:,} "
        f"entities, {info.relations} relations indexed ({info.import_seconds:.2f} s)"
    )
    return 0


def _sparql(engine: Engine, args) -> int:
    result = engine.kg(args.kb).sparql(
        args.query, timeout_s=args.timeout, max_rows=args.max_rows, memory_mb=args.memory_mb
    )
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return 0
    print("\t".join(result.columns))
    for row in result.rows:
        print("\t".join("" if v is None else v for v in row))
    note = " (truncated)" if result.truncated else ""
    print(f"{len(result.rows)} rows{note}, {result.elapsed_ms:.1f} ms", file=sys.stderr)
    return 0


def _kbs(engine: Engine, args) -> int:
    for name in engine.workspace.kb_names():
        info = engine.workspace.kb_info(name)
        print(f"{name}\t{info.triples:,} triples\t{info.source}")
    return 0


def _model(engine: Engine, args) -> int:
    from core.llm.local import model_path, status

    model_path()  # assembled on first use (verified by sha256)
    info = status()
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        for key, value in info.items():
            print(f"{key:>17}: {value}")
    return 0


def _one_line(exc: BaseException) -> str:
    """The first line of an error, scrubbed of secrets before it is cut or printed."""
    text = str(exc).strip() or type(exc).__name__
    return scrub(text.splitlines()[0])[:500]


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
