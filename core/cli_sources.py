"""CLI commands for the sources beside the KG: tables (`table`, `sql`) and documents
(`docs`, `search`)."""

from __future__ import annotations

import json
from pathlib import Path

from core.worker import MEMORY_MB


def add_commands(sub) -> None:
    tb = sub.add_parser("table", help="import a CSV/Parquet file as a table source (DuckDB)")
    tb.add_argument("path", type=Path)
    tb.add_argument("--name", default=None, help="table name (default: from the file name)")
    tb.add_argument("--replace", action="store_true", help="replace a table of that name")
    tb.set_defaults(run=_table)

    dc = sub.add_parser("docs", help="import .txt/.md/.jsonl documents (passages, full-text index)")
    dc.add_argument("path", type=Path)
    dc.add_argument("--name", default=None, help="collection name (default: the file name)")
    dc.add_argument("--replace", action="store_true", help="replace a collection of that name")
    dc.set_defaults(run=_docs)

    sq = sub.add_parser("sql", help="read-only, guarded SQL over the table sources")
    sq.add_argument("query")
    sq.add_argument("--json", action="store_true")
    sq.add_argument("--max-rows", type=int, default=100, help="row cap (default 100)")
    sq.add_argument("--timeout", type=float, default=5.0, help="seconds (default 5)")
    sq.add_argument("--memory-mb", type=int, default=MEMORY_MB,
                    help=f"memory cap of the query (default {MEMORY_MB})")  # fmt: skip
    sq.set_defaults(run=_sql)

    se = sub.add_parser("search", help="full-text search (BM25) over the document sources")
    se.add_argument("text")
    se.add_argument("--k", type=int, default=5, help="passages (default 5)")
    se.add_argument("--json", action="store_true")
    se.set_defaults(run=_search)


def _home(engine) -> Path:
    from core.sources import ensure_bundled

    engine.workspace.resolve(None)  # the bundled KB (and with it its sources) on first use
    ensure_bundled(engine.workspace.root)
    return engine.workspace.root


def _table(engine, args) -> int:
    from core.sources import import_table

    info = import_table(args.path, args.name, home=engine.workspace.root, replace=args.replace)
    cols = ", ".join(f"{c} {t}" for c, t in info.columns)
    print(f"table {info.name}: {info.rows:,} rows ({cols})")
    return 0


def _docs(engine, args) -> int:
    from core.sources import import_documents

    if args.name is not None and not args.name.strip():  # "" would fall back to the default
        raise ValueError("the name must not be empty")
    info = import_documents(args.path, args.name, home=engine.workspace.root, replace=args.replace)
    print(f"collection {info.name}: {info.documents:,} documents, {info.passages:,} passages")
    return 0


def _sql(engine, args) -> int:
    from core.sources import run_sql

    if args.max_rows < 1 or args.timeout <= 0 or args.memory_mb < 64:
        raise ValueError("--max-rows must be >= 1, --timeout > 0 and --memory-mb >= 64")
    result = run_sql(
        args.query, _home(engine), timeout_s=args.timeout, max_rows=args.max_rows,
        memory_mb=args.memory_mb,
    )  # fmt: skip
    if args.json:
        print(
            json.dumps(
                {"columns": result.columns, "rows": result.rows, "truncated": result.truncated},
                default=str,
            )
        )
    else:
        print("\t".join(result.columns))
        for row in result.rows:
            print("\t".join("" if v is None else str(v) for v in row))
        more = " (cut at --max-rows)" if result.truncated else ""
        print(f"-- {len(result.rows)} row(s){more}, {result.elapsed_ms:.0f} ms")
    return 0


def _search(engine, args) -> int:
    from core.sources import search

    if not 1 <= args.k <= 100:
        raise ValueError("--k must be within 1..100")
    hits = search(args.text, k=args.k, home=_home(engine))
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "id": p.id,
                        "score": s,
                        "url": p.url,
                        "start": p.start,
                        "end": p.end,
                        "text": p.text,
                    }
                    for p, s in hits
                ],
                ensure_ascii=False,
            )
        )
    else:
        for p, score in hits:
            print(f"{score:7.2f}  {p.id}  {p.url}  [{p.start}:{p.end}]\n         {p.text[:200]}")
    return 0
