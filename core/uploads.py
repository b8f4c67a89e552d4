"""Bring your own data through the browser: the checks an uploaded file passes before it
touches the workspace, the temporary file it is imported from, and the import, replace and
delete of KBs, tables and document collections that the Data page drives.

The page stays UI-only: everything here works on bytes and names, so it is tested without a
browser. A refused upload (binary, empty, too large, wrong extension) raises UploadError
before anything is written; an import that fails leaves the workspace as it was (the
workspace and the DuckDB sources import atomically) and its temporary file is always removed.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from core.evaluate import read_questions
from core.kg.importer import KBFileError, LineIssue, sniff_format
from core.sources import documents, tables
from core.workspace import _NAME as KB_NAME
from core.workspace import DEFAULT_KB, ImportProgress, KBInfo, Workspace, _slug

MAX_UPLOAD_MB = 200  # per file; the uploaders and .streamlit/config.toml use the same figure
UPLOADS_DIR = ".uploads"  # <workspace>/.uploads/<random>/<file>: an upload being imported
STALE_UPLOAD_S = 24 * 3600  # leftovers of a killed server older than this are removed
SEMANTICS_SHARE = 0.85  # the KB import's share of the bar; relation semantics take the rest
BUNDLED_TABLES = frozenset({"movies"})  # imported again whenever missing (core.sources)
BUNDLED_COLLECTIONS = frozenset({"movie_docs"})
_BINARY_PROBE = 8192
# Packed or office formats: binary anyway, but the reason is clearer by name.
_NOT_KB = frozenset(
    ".gz .zip .bz2 .xz .7z .tar .tgz .parquet .xlsx .xls .ods .pdf .docx .doc".split()
)


class UploadError(ValueError):
    """The upload is refused; str(exc) says why in one line. Nothing was written."""


@dataclass(frozen=True)
class Kind:
    """What one uploader takes: its extensions (None: any, per the KB file contract)."""

    what: str
    suffixes: tuple[str, ...] | None
    binary_ok: tuple[str, ...] = ()  # suffixes whose content is binary by design


KINDS: dict[str, Kind] = {
    "kb": Kind("KB file", None),
    "schema": Kind("relation documentation", (".ttl",)),
    "questions": Kind("question file", (".tsv",)),
    "table": Kind("table", (".csv", ".tsv", ".parquet"), binary_ok=(".parquet",)),
    "columns": Kind("column descriptions", (".json",)),
    "documents": Kind("documents", (".txt", ".md", ".jsonl")),
}


# -- checks ----------------------------------------------------------------------------------
def limit_bytes() -> int:
    """The upload limit in bytes (read at call time, so a test can lower MAX_UPLOAD_MB)."""
    return MAX_UPLOAD_MB * 1024 * 1024


def accepted(kind: str) -> str:
    """The extensions an uploader takes, for its help text."""
    suffixes = KINDS[kind].suffixes
    return ", ".join(suffixes) if suffixes else "any (RDF by extension, else delimited triples)"


def check_upload(filename: str, data: bytes, kind: str) -> None:
    """Refuse what cannot be imported, before anything is written: a wrong extension, an
    empty or over-large file, binary content where text is expected."""
    spec = KINDS[kind]
    suffix = Path(filename).suffix.lower()
    if spec.suffixes is not None and suffix not in spec.suffixes:
        raise UploadError(
            f"{filename}: a {spec.what} must be {' or '.join(spec.suffixes)}, not "
            f"{suffix or 'a file without extension'}"
        )
    if kind == "kb" and suffix in _NOT_KB:
        raise UploadError(f"{filename}: {suffix} files are not KB files; unpack or export "
                          "the triples as RDF or 'subject|relation|object' lines")  # fmt: skip
    if not data.strip():
        raise UploadError(f"{filename}: the file is empty; nothing imported")
    if len(data) > limit_bytes():
        raise UploadError(
            f"{filename}: {len(data) / 2**20:.1f} MB is over the {MAX_UPLOAD_MB} MB upload "
            "limit; import it with the CLI instead (knowloop import/table/docs)"
        )
    if suffix in spec.binary_ok:
        _check_parquet(filename, data)
    else:
        _check_text(filename, data)


def _check_text(filename: str, data: bytes) -> None:
    if b"\x00" in data[:_BINARY_PROBE]:
        raise UploadError(f"{filename}: binary content (NUL bytes), not a text file")
    try:
        data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UploadError(
            f"{filename}: not UTF-8 text (invalid byte on line {line}); re-save it as UTF-8"
        ) from None


def _check_parquet(filename: str, data: bytes) -> None:
    if not (data.startswith(b"PAR1") and data.endswith(b"PAR1")):
        raise UploadError(f"{filename}: not a Parquet file (no PAR1 header and footer)")


def default_name(filename: str, kind: str) -> str:
    """The name an upload gets unless the user types another, as the CLI derives it."""
    stem = Path(filename).stem
    if kind == "table":
        return re.sub(r"\W+", "_", stem).strip("_").lower() or "table"
    if kind == "documents":
        return re.sub(r"[^A-Za-z0-9_.-]+", "_", stem).strip("_.") or "docs"
    return _slug(stem)


_NAME_RULES = {
    "kb": (KB_NAME, "letters, digits, '.', '_' or '-', starting with a letter or digit"),
    "table": (tables._NAME, "letters, digits and '_', not starting with a digit"),
    "documents": (documents._NAME, "letters, digits, '.', '_' or '-'"),
}


def name_problem(name: str, kind: str) -> str | None:
    """Why `name` cannot name a KB / table / collection (None when it can)."""
    pattern, rule = _NAME_RULES[kind]
    if not name.strip():
        return "the name must not be empty"
    if not pattern.match(name):
        return f"invalid name {name!r}: use {rule} (at most 63 characters)"
    return None


def _check_name(name: str, kind: str) -> None:
    problem = name_problem(name, kind)
    if problem:
        raise UploadError(problem)


# -- temporary files -------------------------------------------------------------------------
@contextmanager
def staged(root: Path, filename: str, data: bytes) -> Iterator[Path]:
    """The upload as a file named like the original (importers read the extension and name
    from it) in a private directory under the workspace, removed on the way out whatever
    happens; `.uploads/` itself goes when it is left empty."""
    uploads = Path(root) / UPLOADS_DIR
    uploads.mkdir(parents=True, exist_ok=True)
    _sweep_stale(uploads)
    tmp = Path(tempfile.mkdtemp(prefix="up-", dir=uploads))
    try:
        path = tmp / (Path(filename).name or "upload")
        path.write_bytes(data)
        yield path
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        try:
            uploads.rmdir()
        except OSError:  # another upload is in progress (or a stale one is kept)
            pass


def _sweep_stale(uploads: Path) -> None:
    """What a killed server left behind (a day old: no upload imports that long)."""
    cutoff = time.time() - STALE_UPLOAD_S
    for entry in uploads.iterdir():
        try:
            if entry.stat().st_mtime < cutoff:
                shutil.rmtree(entry, ignore_errors=True)
        except FileNotFoundError:
            pass


# -- KBs -------------------------------------------------------------------------------------
@dataclass
class Upload:
    """One uploaded file: its name as the user had it and its bytes."""

    filename: str
    data: bytes


@dataclass
class KBImport:
    """What a KB upload produced: the KB and the question files kept with it."""

    info: KBInfo
    questions: list[Path] = field(default_factory=list)
    n_questions: int = 0


def kb_exists(ws: Workspace, name: str) -> bool:
    return name in ws.kb_names()


def import_kb(
    ws: Workspace,
    upload: Upload,
    name: str,
    *,
    skip_bad: bool = False,
    replace: bool = False,
    schema: Upload | None = None,
    questions: Sequence[Upload] = (),
    progress: ImportProgress | None = None,
) -> KBImport:
    """Check every file, import the KB atomically (with its relation documentation), keep
    its question files, then build its relation semantics so the first question does not
    wait. Raises UploadError / KBFileError (with .issues for malformed lines) and leaves the
    workspace unchanged when anything is refused before the KB is swapped in."""
    report = progress or (lambda share, phase: None)
    check_upload(upload.filename, upload.data, "kb")
    _check_name(name, "kb")
    if schema:
        check_upload(schema.filename, schema.data, "schema")
    for q in questions:
        check_upload(q.filename, q.data, "questions")
    with ExitStack() as stack:
        path = stack.enter_context(staged(ws.root, upload.filename, upload.data))
        schema_path = stack.enter_context(staged(ws.root, schema.filename, schema.data)) \
            if schema else None  # fmt: skip
        checked = [(q, _checked_questions(stack, ws.root, q)) for q in questions]
        info = ws.import_file(
            path, name=name, skip_bad=skip_bad, replace=replace, schema=schema_path,
            progress=lambda share, phase: report(share * SEMANTICS_SHARE, phase),
            source=f"upload: {upload.filename}",
        )  # fmt: skip
        kept = [ws.add_question_file(name, q_path, q.filename) for q, (q_path, _) in checked]
    report(SEMANTICS_SHARE, "relation semantics")
    build_semantics(ws, name)
    report(1.0, "ready")
    return KBImport(info, kept, sum(n for _, (_, n) in checked))


def _checked_questions(stack: ExitStack, root: Path, q: Upload) -> tuple[Path, int]:
    """A question file staged and read as `knowloop eval` reads it: (path, questions)."""
    path = stack.enter_context(staged(root, q.filename, q.data))
    try:
        n = len(read_questions(path))
    except (ValueError, UnicodeDecodeError) as exc:
        raise UploadError(str(exc)) from None
    if not n:
        raise UploadError(f"{q.filename}: no questions in the file")
    return path, n


def build_semantics(ws: Workspace, name: str) -> None:
    """What a KB's first question would otherwise wait for (as Engine.prepare does)."""
    from core.kg.semantics import semantics_for

    semantics_for(ws.kg(name))


def describe_import(result: KBImport) -> str:
    """The one-line success message the page shows."""
    info = result.info
    text = (
        f"Imported KB {info.name}: {info.triples:,} triples, {info.entities:,} entities, "
        f"{info.relations:,} relations ({info.format})"
    )
    if info.skipped_lines:
        text += f"; {info.skipped_lines:,} malformed line{'s' * (info.skipped_lines != 1)} skipped"
    if result.questions:
        n = result.n_questions
        text += f"; {n:,} labelled question{'s' * (n != 1)} kept"
    return text


def can_skip_bad(filename: str, exc: KBFileError) -> bool:
    """Whether "import the good lines" can help: malformed lines of a delimited file (an RDF
    syntax error or a file of no triples at all stays refused either way)."""
    return (
        sniff_format(filename) == "delimited"
        and bool(exc.issues)
        and " malformed line" in str(exc)
        and "no valid triples" not in str(exc)
    )


def issue_rows(issues: list[LineIssue]) -> list[dict[str, object]]:
    """Malformed lines as table rows: line number, reason, the line's text."""
    return [{"line": i.line, "reason": i.reason, "text": i.text} for i in issues]


def delete_kb(ws: Workspace, name: str) -> None:
    """Delete a KB whole (Workspace.delete_kb refuses the bundled default)."""
    ws.delete_kb(name)


def kb_rows(ws: Workspace) -> list[dict[str, object]]:
    """Every KB with its counts, for the listing."""
    rows = []
    for name in ws.kb_names():
        info = ws.kb_info(name)
        rows.append(
            {
                "name": name,
                "triples": info.triples,
                "entities": info.entities,
                "relations": info.relations,
                "format": info.format,
                "skipped lines": info.skipped_lines,
                "question files": len(ws.question_files(name)),
            }
        )
    return rows


# -- tables and documents --------------------------------------------------------------------
def read_column_notes(upload: Upload) -> dict[str, str]:
    """A column-description file ({column: description}, as movies.columns.json)."""
    check_upload(upload.filename, upload.data, "columns")
    try:
        notes = json.loads(upload.data.decode("utf-8-sig"))
    except ValueError as exc:
        raise UploadError(f"{upload.filename}: not valid JSON ({exc})") from None
    if not isinstance(notes, dict) or not all(isinstance(v, str) for v in notes.values()):
        raise UploadError(f"{upload.filename}: expected a JSON object {{column: description}}")
    return notes


def table_exists(root: Path, name: str) -> bool:
    return name in {t.name for t in tables.list_tables(root)}


def import_table(
    root: Path,
    upload: Upload,
    name: str,
    *,
    replace: bool = False,
    columns: Upload | None = None,
) -> tables.TableInfo:
    """A CSV/TSV/Parquet upload as table `name` (atomic: refused or failed, nothing changes)."""
    check_upload(upload.filename, upload.data, "table")
    _check_name(name, "table")
    comments = read_column_notes(columns) if columns else {}
    with staged(root, upload.filename, upload.data) as path:
        return tables.import_table(path, name, home=root, replace=replace, comments=comments)


def collection_exists(root: Path, name: str) -> bool:
    return name in {c.name for c in documents.list_collections(root)}


def import_documents(
    root: Path, upload: Upload, name: str, *, replace: bool = False
) -> documents.Collection:
    """A .txt/.md/.jsonl upload as collection `name`. A .txt/.md file becomes one JSON line
    first, so its passages cite the uploaded file's name, not the temporary path."""
    check_upload(upload.filename, upload.data, "documents")
    _check_name(name, "documents")
    filename, data = upload.filename, upload.data
    if Path(filename).suffix.lower() in (".txt", ".md"):
        filename, data = _as_jsonl(filename, data)
    with staged(root, filename, data) as path:
        return documents.import_documents(path, name, home=root, replace=replace)


def _as_jsonl(filename: str, data: bytes) -> tuple[str, bytes]:
    stem = Path(filename).stem
    record = {"id": stem, "title": stem, "url": filename, "text": data.decode("utf-8-sig")}
    return f"{stem}.jsonl", (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def describe_table(info: tables.TableInfo) -> str:
    n = len(info.columns)
    return f"Imported table {info.name}: {_count(info.rows, 'row')}, {_count(n, 'column')}"


def describe_collection(info: documents.Collection) -> str:
    return (
        f"Imported collection {info.name}: {_count(info.documents, 'document')}, "
        f"{_count(info.passages, 'passage')}"
    )


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}{'s' * (n != 1)}"


def delete_table(root: Path, name: str) -> None:
    """Drop a table; the bundled one is refused (it would be imported again at once)."""
    if name in BUNDLED_TABLES:
        raise UploadError(_bundled(f"table {name!r}"))
    tables.drop_table(name, root)


def delete_collection(root: Path, name: str) -> None:
    """Drop a collection and reindex; the bundled one is refused, as for tables."""
    if name in BUNDLED_COLLECTIONS:
        raise UploadError(_bundled(f"collection {name!r}"))
    documents.drop_collection(name, root)


def _bundled(what: str) -> str:
    return (
        f"the {what} comes with the bundled KB {DEFAULT_KB!r} and is imported again when "
        "missing; replace it instead"
    )


def table_rows(root: Path) -> list[dict[str, object]]:
    return [
        {"name": t.name, "rows": t.rows, "columns": len(t.columns),
         "described columns": len(t.comments)}
        for t in tables.list_tables(root)
    ]  # fmt: skip


def collection_rows(root: Path) -> list[dict[str, object]]:
    return [
        {"name": c.name, "documents": c.documents, "passages": c.passages}
        for c in documents.list_collections(root)
    ]


def ensure_bundled_sources(root: Path) -> None:
    """The bundled table and documents, so the listing shows what the Sources page shows."""
    from core.sources import ensure_bundled

    ensure_bundled(root)
