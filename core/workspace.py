"""The workspace: one directory holding all persistent state.

Layout (``$KNOWLOOP_HOME``, default ``~/.knowloop``)::

    kbs/<name>/store/          Oxigraph store (RocksDB files)
    kbs/<name>/index.pickle    derived index (labels, relation stats, roles)
    kbs/<name>/nodes.sqlite    a large KB's per-node index on disk (core.kg.nodebase)
    kbs/<name>/meta.json       source file, content hash, counts, import report
    kbs/<name>/questions/      labelled question files kept with the KB (TSV)

Imports build in a temporary directory and appear with one atomic rename, so a failed or
interrupted import leaves the workspace exactly as it was. What a killed import leaves behind
(``kbs/.import-*``) is removed when the workspace is next opened; a running import holds a
lock on its staging directory, so it is never touched.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import json
import os
import queue
import re
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal

import pyoxigraph as ox

from core.kg.disk_index import DiskIndexBuilder
from core.kg.edits import (
    EDIT_LOCK,
    LOG_NAME,
    EditLog,
    KBEditor,
    open_for_reading,
    store_version,
)
from core.kg.importer import KBFileError, KBStream, kb_base_iri, stream_kb_file
from core.kg.remote import (
    MAX_TRIPLES,
    Registration,
    RemoteKnowledgeGraph,
    derive_index,
    is_remote,
    read_registration,
    write_registration,
)
from core.kg.store import KGIndex, KnowledgeGraph, build_index, ntriples_triples, save_index
from core.locks import LockTimeout, file_lock, try_file_lock

DEFAULT_KB = "metaqa"
# where a KB's per-node index lives (see core.kg.nodebase); "auto": on disk from this size up
IndexPlace = Literal["auto", "memory", "disk"]
INDEX_PLACES: tuple[str, ...] = ("auto", "memory", "disk")
DISK_INDEX_TRIPLES = 500_000  # from about this many lines of file, the index goes on disk
REPO_ROOT = Path(__file__).resolve().parent.parent
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
QUESTIONS_DIR = "questions"  # kbs/<name>/questions/*.tsv: labelled questions kept with a KB
STAGING_PREFIX = ".import-"  # kbs/.import-<name>-<random>: an import in progress (or killed)
LEGACY_TRASH_PREFIX = ".old-"  # kbs/.old-<name>-<pid>: a replaced KB, from before the locks
DELETE_WAIT_S = 30.0  # how long delete_kb waits for an edit of the KB to finish

ImportProgress = Callable[[float, str], None]  # share done (0..1), the phase in words
# Where each phase of an import starts, as a share of the whole (loading is the long one).
_LOADING, _INDEXING, _SAVING = 0.05, 0.7, 0.9


def default_home() -> Path:
    return Path(os.environ.get("KNOWLOOP_HOME") or Path.home() / ".knowloop").expanduser()


def bundled_kb_dir() -> Path:
    """The default KB shipped in kb_data/ (overridable for packaging: KNOWLOOP_KB_DATA)."""
    return Path(os.environ.get("KNOWLOOP_KB_DATA") or REPO_ROOT / "kb_data") / "metaqa"


@dataclass
class KBInfo:
    name: str
    source: str
    sha256: str
    format: str
    triples: int
    entities: int
    relations: int
    skipped_lines: int
    import_seconds: float
    imported_at: float


class Workspace:
    """All KBs (and, later, runs and edits) of one user, in one directory."""

    def __init__(self, root: Path | str | None = None):
        self.root = Path(root) if root else self.default_root()
        self.kbs_dir = self.root / "kbs"
        self._open: dict[str, KnowledgeGraph] = {}
        self._logs: dict[str, EditLog] = {}  # one reader of each KB's edit log (incremental)
        self.swept = self.sweep_staging()  # every process opens the workspace here

    @staticmethod
    def default_root() -> Path:
        """The workspace used when none is named: $KNOWLOOP_HOME, else ~/.knowloop."""
        return default_home()

    # -- KBs --------------------------------------------------------------------------------
    def kb_names(self) -> list[str]:
        if not self.kbs_dir.is_dir():
            return []
        return sorted(
            p.name
            for p in self.kbs_dir.iterdir()
            if not p.name.startswith(".") and (p / "meta.json").is_file()
        )

    def _has_kb(self, name: str) -> bool:
        """One stat instead of listing every KB: this runs before every question."""
        return name not in ("", ".", "..") and (self.kbs_dir / name / "meta.json").is_file()

    def kb_info(self, name: str) -> KBInfo:
        return KBInfo(**json.loads((self.kbs_dir / name / "meta.json").read_text()))

    # -- question files (labelled TSVs that came with a KB: examples, evaluation) ----------
    def question_files(self, name: str) -> list[Path]:
        """The labelled question files of a KB: those uploaded with it (``kbs/<name>/questions``)
        and, for the bundled default, the dev sets shipped in kb_data/."""
        own = sorted((self.kbs_dir / name / QUESTIONS_DIR).glob("*.tsv")) if name else []
        if name == DEFAULT_KB:
            own += sorted(bundled_kb_dir().glob("qa_*.tsv"))
        return own

    def add_question_file(self, name: str, path: Path | str, filename: str) -> Path:
        """Keep a (checked) question file with KB `name`; written whole, then renamed in."""
        if not self._has_kb(name):
            raise KBFileError(f"no KB named {name!r}")
        stem = _slug(Path(filename).stem) or "questions"
        target_dir = self.kbs_dir / name / QUESTIONS_DIR
        target_dir.mkdir(exist_ok=True)
        target = target_dir / f"{stem}.tsv"
        tmp = target_dir / f".{stem}.tsv.part"
        shutil.copyfile(path, tmp)
        os.replace(tmp, target)
        return target

    def resolve(self, spec: str | None = None) -> str:
        """A KB name from `--kb`: None (the bundled default, seeded on first use), an imported
        KB's name, or a file path (imported on first use, keyed by content, reused after)."""
        if not spec:
            if not self._has_kb(DEFAULT_KB):
                kb_dir = bundled_kb_dir()
                self.import_file(
                    kb_dir / "kb.txt", name=DEFAULT_KB, schema=kb_dir / "relations.ttl"
                )
            return DEFAULT_KB
        if "/" not in spec and self._has_kb(spec):
            return spec
        path = Path(spec).expanduser()
        if path.is_file():
            digest = file_sha256(path)
            name = f"{_slug(path.stem)}-{digest[:10]}"
            if name not in self.kb_names():
                self.import_file(path, name=name, digest=digest)
            return name
        known = ", ".join(self.kb_names()) or "none yet"
        raise KBFileError(f"no KB named or file at {spec!r} (imported KBs: {known})")

    def kg(self, spec: str | None = None) -> KnowledgeGraph:
        """Open a KB and keep it open; reopened when its edit log has grown since (an edit by
        this or another process), so every question sees the current graph."""
        name = self.resolve(spec)
        kb_dir = self.kbs_dir / name
        if is_remote(kb_dir):  # read over HTTP, never edited here: nothing to reopen
            kg = self._open.get(name)
            if kg is None:
                kg = self._open[name] = RemoteKnowledgeGraph.open(kb_dir, name)
            return kg
        log = self.edit_log(name)
        signature = log.signature()
        kg = self._open.get(name)
        if kg is None or kg.log_signature != signature:
            kg = open_for_reading(kb_dir, name)
            if store_version(kg.store) < log.version():  # a crash left the store behind
                KBEditor(kb_dir, kg, log).recover()
                kg = open_for_reading(kb_dir, name)
            log.fold(kg.index, kg.has_edge)
            kg.log_signature = signature
            self._open[name] = kg
        return kg

    def editor(self, spec: str | None = None) -> KBEditor:
        """The editor of a KB (edits, undo/redo, history) over its current read view."""
        name = self.resolve(spec)
        if is_remote(self.kbs_dir / name):
            raise KBFileError(
                f"{name!r} is a remote SPARQL endpoint, read-only here: edit its data at the "
                "source (KnowLoop sends no SPARQL Update)"
            )
        return KBEditor(self.kbs_dir / name, self.kg(name), self.edit_log(name))

    def connect(self, name: str, url: str, *, graph: str | None = None,
                label_predicates: list[str] | None = None, timeout_s: float = 10.0,
                max_triples: int = MAX_TRIPLES, refresh: bool = False,
                progress: Callable[[int], None] | None = None) -> KBInfo:  # fmt: skip
        """Register a remote SPARQL endpoint as KB `name`: its index is derived from the
        endpoint now (cached; `refresh` derives it again). Nothing is written unless the
        endpoint answered whole."""
        if not _NAME.match(name or ""):
            raise KBFileError(f"invalid KB name {name!r}: use letters, digits, '.', '_' or '-'")
        registration = Registration(url=url, graph=graph or None, timeout_s=timeout_s)
        if label_predicates:
            registration.label_predicates = list(label_predicates)
        started = time.perf_counter()
        with self._lock():
            target = self.kbs_dir / name
            if target.exists():
                if not is_remote(target):
                    raise KBFileError(f"a KB named {name!r} exists and is not a remote endpoint")
                if not refresh:
                    if read_registration(target) != registration:
                        raise KBFileError(
                            f"{name!r} is registered with other settings; add --refresh to replace"
                        )
                    return self.kb_info(name)  # the same endpoint: its index is cached
            self.kbs_dir.mkdir(parents=True, exist_ok=True)
            with _staging_dir(self.kbs_dir, name) as tmp:
                index = derive_index(registration, tmp, max_triples, progress)
                write_registration(tmp, registration)
                info = KBInfo(
                    name=name, source=url + (f" <{graph}>" if graph else ""), sha256="",
                    format="sparql endpoint" + (" (lazy)" if index.nodes is not None else ""),
                    **_index_counts(index), skipped_lines=0,
                    import_seconds=round(time.perf_counter() - started, 3),
                    imported_at=time.time(),
                )  # fmt: skip
                self._install(tmp, target, info)
        return info

    def _install(self, staged: Path, target: Path, info: KBInfo) -> None:
        """Put a KB built in `staged` in place of `target` in one rename (imports, connects):
        its meta.json, its edit lock (so opening it to read never creates a file), the
        question files kept with the KB it replaces."""
        (staged / "meta.json").write_text(json.dumps(asdict(info), indent=2))
        (staged / EDIT_LOCK).touch()
        _carry_questions(target, staged)
        self._open.pop(info.name, None)
        _swap_in(staged, target)

    def edit_log(self, name: str) -> EditLog:
        """The edit log of KB `name` (kept per workspace: later reads parse only what was
        appended since)."""
        log = self._logs.get(name)
        if log is None:
            log = self._logs[name] = EditLog(self.kbs_dir / name / LOG_NAME)
        return log

    def import_file(
        self,
        path: Path | str,
        name: str | None = None,
        *,
        skip_bad: bool = False,
        replace: bool = False,
        digest: str | None = None,
        schema: Path | str | None = None,
        progress: ImportProgress | None = None,
        source: str | None = None,
        index: IndexPlace = "auto",
    ) -> KBInfo:
        """Import a KB file atomically; raise KBFileError (workspace unchanged) on bad input.

        `schema` is an optional Turtle file documenting relations (skos:altLabel, rdfs:label,
        rdfs:comment); its relative IRIs resolve against the KB namespace (``<r/name>``).
        `progress` is told the share done and the phase ("loading triples", "indexing", …),
        rising to 1.0 on success, so the app can draw a bar for a large file. Replacing a KB
        keeps the question files uploaded with it (``questions/``). `source` is what meta.json
        records as the origin (default: the file's path; an upload names the uploaded file).
        `index`: where the per-node index lives: "memory" (a pickle, fastest for small KBs),
        "disk" (a SQLite table, bounded memory for millions of triples) or "auto" (disk from
        about DISK_INDEX_TRIPLES lines of file up: `estimated_lines`).
        """
        if index not in INDEX_PLACES:
            raise KBFileError(f"index must be one of {', '.join(INDEX_PLACES)}, not {index!r}")
        report = progress or _no_progress
        started = time.perf_counter()
        path = Path(path).expanduser()
        if not path.is_file():
            raise KBFileError(f"no such file: {path}")
        if name is not None and not name.strip():
            raise KBFileError("the name must not be empty")
        name = name or _slug(path.stem)
        if not _NAME.match(name):
            raise KBFileError(f"invalid KB name {name!r}: use letters, digits, '.', '_' or '-'")
        digest = digest or file_sha256(path)
        if schema:
            schema = Path(schema).expanduser()
            if not schema.is_file():
                raise KBFileError(f"no such schema file: {schema}")
            digest = hashlib.sha256((digest + file_sha256(schema)).encode()).hexdigest()
        with self._lock():
            target = self.kbs_dir / name
            if target.exists():
                info = self.kb_info(name) if (target / "meta.json").exists() else None
                if info and info.sha256 == digest:
                    report(1.0, "already imported")
                    return info
                if not replace:
                    raise KBFileError(
                        f"a different KB named {name!r} exists; choose another name or replace it"
                    )
            report(0.0, "reading the file")
            stream = stream_kb_file(
                path,
                kb_name=name,
                skip_bad=skip_bad,
                progress=_loading_progress(report) if progress else None,  # none: no cost
            )
            extra = _schema_ntriples(Path(schema), kb_base_iri(name)) if schema else ""
            created = not self.kbs_dir.exists()
            self.kbs_dir.mkdir(parents=True, exist_ok=True)
            try:
                with _staging_dir(self.kbs_dir, name) as tmp:
                    on_disk = index == "disk" or (
                        index == "auto" and estimated_lines(path) >= DISK_INDEX_TRIPLES
                    )
                    built = _load_and_index(stream, extra, tmp, report, on_disk)
                    parsed = stream.result()
                    info = KBInfo(
                        name=name,
                        source=source or str(path.resolve()),
                        sha256=digest,
                        format=parsed.format,
                        **_index_counts(built),
                        skipped_lines=parsed.n_skipped,
                        import_seconds=round(time.perf_counter() - started, 3),
                        imported_at=time.time(),
                    )
                    self._install(tmp, target, info)
            except BaseException:
                if created:  # leave the workspace exactly as it was
                    shutil.rmtree(self.kbs_dir, ignore_errors=True)
                raise
        report(1.0, "done")
        return info

    def delete_kb(self, name: str) -> None:
        """Remove a KB whole: under the workspace lock (no import of it meanwhile) and its edit
        lock (no edit half-written), it is renamed into a locked staging directory in one step,
        then removed; a kill in between leaves staging that the next sweep removes. The
        bundled default is refused: every command would import it again."""
        if name == DEFAULT_KB:
            raise KBFileError(
                f"{DEFAULT_KB!r} is the bundled default KB and cannot be deleted "
                "(replace it with another file instead)"
            )
        with self._lock():
            if not self._has_kb(name):
                raise KBFileError(f"no KB named {name!r}")
            target = self.kbs_dir / name
            try:
                with _staging_dir(self.kbs_dir, name) as trash:
                    with file_lock(target / EDIT_LOCK, timeout_s=DELETE_WAIT_S):
                        os.rename(target, trash)  # onto the empty staging directory
                    self._open.pop(name, None)
            except LockTimeout:
                raise KBFileError(
                    f"KB {name!r} is being edited; try deleting it again in a moment"
                ) from None

    def _lock(self):
        """Serialise imports between processes (CLI and app may run side by side)."""
        return file_lock(self.root / ".lock")

    # -- what killed imports leave ------------------------------------------------------------
    def sweep_staging(self) -> list[str]:
        """Remove the staging of imports whose process died (kill -9, power loss): a KB half
        swapped in is put back as it was, then the directory and its lock go. Staging whose
        lock is held (an import running, here or in another process) is left alone. Runs
        whenever a workspace is opened: one listdir of kbs/ when there is nothing to do.
        Returns the entries removed."""
        try:
            entries = os.listdir(self.kbs_dir)
        except (FileNotFoundError, NotADirectoryError):
            return []
        bases = sorted({_staging_base(e) for e in entries if e.startswith(STAGING_PREFIX)})
        swept = [base for base in bases if _sweep_one(self.kbs_dir, base)]
        legacy = [e for e in entries if e.startswith(LEGACY_TRASH_PREFIX)]
        if legacy:
            swept += self._sweep_legacy(legacy)
        return swept

    def _sweep_legacy(self, entries: list[str]) -> list[str]:
        """`.old-<name>-<pid>` trash of the import code before these locks; only while no
        import holds the workspace lock (they all do, for their whole run)."""
        self.root.mkdir(parents=True, exist_ok=True)
        with try_file_lock(self.root / ".lock") as free:
            if not free:
                return []
            for entry in entries:
                name = entry[len(LEGACY_TRASH_PREFIX) :].rsplit("-", 1)[0]
                _restore_or_remove(self.kbs_dir / entry, self.kbs_dir / name)
        return entries


@contextmanager
def _staging_dir(kbs_dir: Path, name: str) -> Iterator[Path]:
    """A fresh `kbs/.import-<name>-<random>/` to build a KB in, under an exclusive lock on
    its sibling `<dir>.lock` for its whole life (a sweep removes only staging whose lock is
    free). On the way out (done, failed or interrupted) the staging and the replaced KB are
    gone, or the old KB is back if the swap did not complete, before the lock goes."""
    fd, lock_path = _new_locked_file(kbs_dir, f"{STAGING_PREFIX}{name}-")
    base = lock_path.name[: -len(".lock")]
    try:
        (kbs_dir / base).mkdir()
        yield kbs_dir / base
    finally:
        _discard_staging(kbs_dir, base)
        lock_path.unlink(missing_ok=True)
        os.close(fd)  # releases the lock, after what it guards is gone


def _new_locked_file(directory: Path, prefix: str) -> tuple[int, Path]:
    """Create `<prefix><random>.lock` and hold an exclusive flock on it. A sweep that found
    it free in the instant before the flock may have unlinked it: then the lock guards
    nothing, so check that the name still points at the locked file, and retry if not."""
    while True:
        fd, path = tempfile.mkstemp(prefix=prefix, suffix=".lock", dir=directory)
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.stat(path).st_ino == os.fstat(fd).st_ino:
                return fd, Path(path)
        except FileNotFoundError:
            pass
        os.close(fd)


def _swap_in(staging: Path, target: Path) -> None:
    """Put a finished KB in place: one rename, or two when it replaces one (the old KB is
    moved to `<staging>.old` first, removed afterwards by `_discard_staging`)."""
    if not target.exists():
        os.rename(staging, target)
        return
    trash = _trash(staging)
    os.rename(target, trash)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(trash, target)
        raise


def _trash(staging: Path) -> Path:
    return staging.with_name(staging.name + ".old")


def _staging_base(entry: str) -> str:
    """`.import-x-abc.lock` / `.import-x-abc.old` / `.import-x-abc` -> `.import-x-abc`."""
    for suffix in (".lock", ".old"):
        if entry.endswith(suffix):
            return entry[: -len(suffix)]
    return entry


def _sweep_one(kbs_dir: Path, base: str) -> bool:
    """Clean one staging if its import is dead; False when it is running."""
    lock = kbs_dir / f"{base}.lock"
    try:
        with try_file_lock(lock, create=False) as free:
            if not free:
                return False
            _discard_staging(kbs_dir, base)
            lock.unlink(missing_ok=True)
            return True
    except FileNotFoundError:  # imports lock before they create: without a lock, it is dead
        _discard_staging(kbs_dir, base)
        return True


def _discard_staging(kbs_dir: Path, base: str) -> None:
    """Remove a staging directory; a replaced KB waiting in `<base>.old` goes too, or comes
    back if its successor never arrived (a kill between the two renames of `_swap_in`)."""
    name = base[len(STAGING_PREFIX) :].rsplit("-", 1)[0]
    _restore_or_remove(kbs_dir / f"{base}.old", kbs_dir / name)
    shutil.rmtree(kbs_dir / base, ignore_errors=True)


def _restore_or_remove(trash: Path, target: Path) -> None:
    if not trash.exists():
        return
    if not target.exists():
        try:
            os.rename(trash, target)
            return
        except OSError:  # something took the name meanwhile: the trash is trash
            pass
    shutil.rmtree(trash, ignore_errors=True)


def _no_progress(share: float, phase: str) -> None:
    """The default progress callback: nobody is watching."""


def _loading_progress(report: ImportProgress) -> Callable[[float], None]:
    """The importer's share of lines read, mapped onto the loading phase of the whole."""
    return lambda share: report(_LOADING + (_INDEXING - _LOADING) * share, "loading triples")


def _carry_questions(old_kb: Path, new_kb: Path) -> None:
    """A replaced KB's question files go with its successor (copied: the old KB stays whole
    until the swap)."""
    questions = old_kb / QUESTIONS_DIR
    if questions.is_dir():
        shutil.copytree(questions, new_kb / QUESTIONS_DIR)


def _schema_ntriples(schema: Path, base_iri: str) -> str:
    try:
        triples = ox.parse(path=str(schema), format=ox.RdfFormat.TURTLE, base_iri=base_iri)
        return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode("utf-8")
    except SyntaxError as exc:
        raise KBFileError(f"schema file {schema.name}: {exc}") from None


def _load_and_index(
    stream: KBStream,
    extra: str,
    kb_dir: Path,
    report: ImportProgress = _no_progress,
    on_disk: bool = False,
) -> KGIndex:
    """Bulk-load the store piece by piece while the file is still being converted, then index
    it while the last pieces load: the loader runs in Rust without the GIL, so conversion,
    loading and indexing overlap (measured ~1.8 s instead of ~2.9 s for the bundled KB).
    `extra` is more N-Triples (relation documentation) loaded and indexed with the file.
    `on_disk`: index a large KB with bounded memory (core.kg.disk_index); each piece goes to
    it as it comes, so no piece is kept."""
    store = ox.Store(str(kb_dir / "store"))
    pieces: queue.Queue[str | None] = queue.Queue(maxsize=4)  # bounded: memory stays flat
    failure: list[BaseException] = []

    def load(store: ox.Store) -> None:
        try:
            while (piece := pieces.get()) is not None:
                if not failure:
                    store.bulk_load(input=piece, format=ox.RdfFormat.N_TRIPLES)
            store.flush()
        except BaseException as exc:  # re-raised in the caller's thread
            failure.append(exc)
            while pieces.get() is not None:  # drain, so the producer never blocks forever
                pass

    builder = DiskIndexBuilder(kb_dir) if on_disk else None
    loader = threading.Thread(target=load, args=(store,), name="knowloop-bulk-load")
    loader.start()
    texts: list[str] = []
    try:
        try:
            for lines in stream.chunks():
                text = "".join(lines)
                pieces.put(text)
                if builder is not None:
                    builder.add(text)
                else:
                    texts.append(text)
            if extra:
                pieces.put(extra)
                if builder is not None:
                    builder.add(extra)
                else:
                    texts.append(extra)
        finally:
            pieces.put(None)  # also on a conversion error: the loader stops, caller cleans up
        report(_INDEXING, "indexing")
        if builder is not None:
            index = builder.finish()
        else:
            triples = itertools.chain.from_iterable(map(ntriples_triples, texts))
            index = build_index(dict.fromkeys(triples))  # pieces may repeat a triple
    except BaseException:
        if builder is not None:
            builder.close()
        raise
    finally:
        loader.join()
    report(_SAVING, "saving")
    if failure:
        raise failure[0]
    save_index(index, kb_dir / "index.pickle")
    del store  # release RocksDB's lock before the directory is renamed into place
    return index


def estimated_lines(path: Path, sample: int = 1 << 20) -> int:
    """Lines in a file, estimated from its first MiB (a triple a line in N-Triples and
    delimited files, roughly so in Turtle): what decides where an "auto" index lives, the
    same for a dense tab-separated file as for verbose N-Triples."""
    size = path.stat().st_size
    with open(path, "rb") as fh:
        head = fh.read(sample)
    return round(head.count(b"\n") * size / max(1, len(head)))


def _index_counts(index: KGIndex) -> dict[str, int]:
    """What meta.json counts, read off the index (so labels and schema triples are not data)."""
    return {
        "triples": index.n_triples,
        "entities": index.entity_count(),
        "relations": len(index.relations),
    }


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _slug(stem: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-._") or "kb"
    return slug[:40]
