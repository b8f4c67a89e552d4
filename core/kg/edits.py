"""KG edits with provenance: an append-only log, undo/redo, conflicts, crash recovery.

The log (`kbs/<name>/edits.jsonl`, one JSON object per line, RDF-Patch-like: the exact triples
added and removed) is the record. An edit is acknowledged only after its log line is written
and fsync'ed; it is then applied to the Oxigraph store in one SPARQL update that also moves the
store's version (kept in a named graph, so data and version change atomically). A crash between
the two is repaired on the next write: entries newer than the store's version are re-applied.
A torn last line (a crash while appending) was never acknowledged and is dropped.

Writers take an exclusive file lock per edit; an edit made against an older version than the
log's is refused as a conflict when a newer entry touched the same (subject, relation) slot.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path

import pyoxigraph as ox

from core.kg.disk_index import rebuild_where_it_lives
from core.kg.importer import (
    entity_term,
    literal_term,
    number_term,
    relation_label,
    relation_term,
)
from core.kg.store import (
    INDEX_VERSION,
    META_GRAPH,
    META_SUBJECT,
    META_VERSION,
    KGIndex,
    KnowledgeGraph,
    load_index,
    open_read_only,
    prune_rocksdb_logs,
    save_index,
    store_has_edge,
    store_version,
)
from core.kg.terms import RDF_TYPE, RDFS_LABEL, is_literal_id, local_name, term_from_id
from core.locks import file_lock
from core.text import normalize
from core.trace import Triple

RDF_PROPERTY = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#Property>"
LOG_NAME = "edits.jsonl"
EDIT_LOCK = ".edit.lock"
MAX_TRIPLES_PER_EDIT = 10_000
MAX_FIELD_CHARS = 2_000


class EditError(ValueError):
    """The edit cannot be made as given; str() is one readable line. Nothing was changed."""


class EditConflict(EditError):
    """Someone changed the same triples since the version this edit was based on: reload."""


@dataclass
class Edit:
    """One accepted change: who, when, why, and the exact triples added and removed."""

    id: int
    kb: str
    at: float
    who: str
    why: str
    kind: str  # "edit", "undo" or "redo"
    added: list[Triple] = field(default_factory=list)
    removed: list[Triple] = field(default_factory=list)
    target: int | None = None  # the entry an undo/redo acts on
    feedback_id: int | None = None
    base_version: int | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict) -> Edit:
        data = dict(data)
        data["added"] = [Triple(**t) for t in data.get("added", [])]
        data["removed"] = [Triple(**t) for t in data.get("removed", [])]
        return cls(**data)

    def slots(self) -> set[tuple[str, str]]:
        """The (subject, relation) pairs this entry touched: what a conflict is about."""
        return {(t.s, t.p) for t in (*self.added, *self.removed)}


class KBEditor:
    """Edits one KB of a workspace. Use `batch()` to keep the store open over many edits."""

    def __init__(self, kb_dir: Path, kg: KnowledgeGraph, log: EditLog | None = None):
        self.kb_dir = Path(kb_dir)
        self.kg = kg  # read view, used to resolve names and check what exists
        self.name = kg.name
        self.log = log or EditLog(self.kb_dir / LOG_NAME)
        self._store: ox.Store | None = None
        self._batch = False

    # -- reading ----------------------------------------------------------------------------
    def history(self) -> list[Edit]:
        """Every acknowledged entry, oldest first."""
        return self.log.edits()

    @property
    def version(self) -> int:
        """The KB version: the id of the last acknowledged edit (0 before any edit)."""
        return self.log.version()

    def entry(self, edit_id: int) -> Edit:
        for edit in self.history():
            if edit.id == edit_id:
                return edit
        raise EditError(f"no edit #{edit_id} in the history of {self.name}")

    def undone(self) -> set[int]:
        """Entries whose latest undo/redo is an undo."""
        state: dict[int, str] = {}
        for edit in self.history():
            if edit.kind in ("undo", "redo") and edit.target is not None:
                state[edit.target] = edit.kind
        return {i for i, kind in state.items() if kind == "undo"}

    # -- parsing user input -----------------------------------------------------------------
    def parse(
        self, text: str, *, must_exist: bool, allow_new_relation: bool = False
    ) -> tuple[Triple, list[Triple]]:
        """Read "subject|relation|object" (names, <IRIs> or "literals") into a Triple, plus the
        schema triples (labels, property type) a new entity or relation needs."""
        if not isinstance(text, str):
            raise EditError("a triple must be text")
        parts = [p.strip() for p in text.split("|")]
        if len(parts) != 3:
            raise EditError(
                f"{_show(text)}: write a triple as subject|relation|object "
                f"(found {len(parts)} part{'s' * (len(parts) != 1)})"
            )
        for role, part in zip(("subject", "relation", "object"), parts, strict=True):
            if not part:
                raise EditError(f"{_show(text)}: the {role} is empty")
            if len(part) > MAX_FIELD_CHARS:
                raise EditError(f"{_show(text)}: the {role} is longer than {MAX_FIELD_CHARS}")
            if any(ord(c) < 32 for c in part):
                raise EditError(f"{_show(text)}: the {role} contains control characters")
        extra: list[Triple] = []
        s = self._node(parts[0], "subject", text, must_exist, extra)
        p = self._relation(parts[1], text, must_exist, allow_new_relation, extra)
        o = self._node(parts[2], "object", text, must_exist, extra)
        return self.kg.triple(s, p, o), extra

    def _node(self, part: str, role: str, text: str, must_exist: bool, extra: list) -> str:
        if part.startswith("<") or part.startswith('"'):
            node = _explicit_term(part, text)
            if role == "subject" and is_literal_id(node):
                raise EditError(f"{_show(text)}: a literal cannot be a subject")
            return node
        found = _pick(self.kg, part)
        if found:
            return found
        if role == "object":
            number = number_term(part)
            if number:
                return number
        if must_exist:
            raise EditError(f"{_show(text)}: no entity named {part!r} in {self.name}")
        node = entity_term(part, self.name)
        label = Triple(node, str(RDFS_LABEL), literal_term(part), part, "label", part)
        if label not in extra:
            extra.append(label)
        return node

    def _relation(
        self, part: str, text: str, must_exist: bool, allow_new: bool, extra: list
    ) -> str:
        if part.startswith("<"):
            rel = _explicit_term(part, text)
        else:
            wanted = normalize(part)
            rel = next(
                (
                    r.id
                    for r in self.kg.relations
                    if normalize(r.label) == wanted or normalize(_local(r.id)) == wanted
                ),
                relation_term(part.replace(" ", "_"), self.name),
            )
        if rel in self.kg.index.relations:
            return rel
        if must_exist:
            raise EditError(f"{_show(text)}: no relation {part!r} in {self.name}")
        if not allow_new:
            raise EditError(
                f"{_show(text)}: {part!r} is a new relation; confirm to create it "
                "(--allow-new-relation on the CLI)"
            )
        label = relation_label(_local(rel))
        extra.append(Triple(rel, str(RDF_TYPE), RDF_PROPERTY, label, "type", "Property"))
        extra.append(Triple(rel, str(RDFS_LABEL), literal_term(label), label, "label", label))
        return rel

    # -- writing ----------------------------------------------------------------------------
    def edit(
        self,
        add: list[str | Triple] = (),
        remove: list[str | Triple] = (),
        *,
        why: str = "",
        who: str = "",
        feedback_id: int | None = None,
        base_version: int | None = None,
        allow_new_relation: bool = False,
    ) -> Edit:
        """Add and remove triples as one logged, atomic change."""
        if not add and not remove:
            raise EditError("nothing to change: give triples to add or remove")
        if len(add) + len(remove) > MAX_TRIPLES_PER_EDIT:
            raise EditError(f"at most {MAX_TRIPLES_PER_EDIT:,} triples per edit")
        added: list[Triple] = []
        schema: list[Triple] = []
        for item in add:
            triple, extra = self._as_triple(item, must_exist=False, allow_new=allow_new_relation)
            added.append(triple)
            schema += [t for t in extra if t not in schema]
        removed = [self._as_triple(item, must_exist=True)[0] for item in remove]
        if set(_key(t) for t in added) & set(_key(t) for t in removed):
            raise EditError("the same triple is both added and removed")
        _no_duplicates(added, "added")
        _no_duplicates(removed, "removed")
        return self._commit(
            "edit",
            added,
            removed,
            schema,
            why=why,
            who=who,
            feedback_id=feedback_id,
            base_version=base_version,
        )

    def undo(
        self, edit_id: int, *, why: str = "", who: str = "", base_version: int | None = None
    ) -> Edit:
        """Reverse one entry (a new entry: the log never loses anything)."""
        target = self.entry(edit_id)
        if target.kind != "edit":
            raise EditError(f"#{edit_id} is an {target.kind}; undo or redo the edit it acts on")
        if edit_id in self.undone():
            raise EditError(f"#{edit_id} is already undone")
        data_added = [t for t in target.added if not _is_schema(t)]
        return self._commit(
            "undo",
            list(target.removed),
            data_added,
            [],
            why=why or f"undo #{edit_id}",
            who=who,
            target=edit_id,
            base_version=base_version,
            feedback_id=target.feedback_id,
        )

    def redo(
        self, edit_id: int, *, why: str = "", who: str = "", base_version: int | None = None
    ) -> Edit:
        target = self.entry(edit_id)
        if edit_id not in self.undone():
            raise EditError(f"#{edit_id} is not undone, so there is nothing to redo")
        data_added = [t for t in target.added if not _is_schema(t)]
        schema = [t for t in target.added if _is_schema(t)]
        return self._commit(
            "redo",
            data_added,
            list(target.removed),
            schema,
            why=why or f"redo #{edit_id}",
            who=who,
            target=edit_id,
            base_version=base_version,
            feedback_id=target.feedback_id,
        )

    def _as_triple(self, item, *, must_exist: bool, allow_new: bool = False):
        if isinstance(item, Triple):
            return item, []
        return self.parse(item, must_exist=must_exist, allow_new_relation=allow_new)

    def _commit(
        self,
        kind,
        added,
        removed,
        schema,
        *,
        why,
        who,
        target=None,
        feedback_id=None,
        base_version=None,
    ) -> Edit:
        why, who = _clean_text(why, "why"), _clean_text(who, "who")
        with self._locked():
            store = self._open_store()
            try:
                edit = self._write(
                    store, kind, added, removed, schema, why, who, target, feedback_id, base_version
                )
            except EditError as exc:
                # The traceback would keep this frame's read-write handle alive and lock the
                # store for every later edit: raise a fresh error without it.
                store = None
                if not self._batch:
                    self._close_store()
                exc.__traceback__ = None
                raise type(exc)(str(exc)) from None
            except BaseException:
                store = None
                if not self._batch:
                    self._close_store()
                raise
            # the editor's own read view learns the edit, so its next names resolve
            current = self.kg.index.kb_version == edit.id - 1
            self.kg.index.apply(edit.added, edit.removed, partial(store_has_edge, store))
            self.kg.index.kb_version = edit.id
            self.kg.forget_caches()
            if not self._batch:
                self._finish(store, self.kg.index if current else None)
        return edit

    def _write(
        self, store, kind, added, removed, schema, why, who, target, feedback_id, base_version
    ) -> Edit:
        """Checks, then the log line (the acknowledgement point), then the store."""
        self._recover(store)
        entries = self.log.edits()
        version = entries[-1].id if entries else 0
        if base_version is not None and base_version != version:
            self._check_conflict(entries, base_version, added + removed)
        for t in added:
            if _exists(store, t):
                raise EditError(f"{t.text()} is already in the knowledge graph")
        for t in removed:
            if not _exists(store, t):
                raise EditError(f"{t.text()} is not in the knowledge graph")
        new_schema = [t for t in schema if not _exists(store, t)]
        edit = Edit(
            id=version + 1,
            kb=self.name,
            at=time.time(),
            who=who,
            why=why,
            kind=kind,
            added=[*added, *new_schema],
            removed=removed,
            target=target,
            feedback_id=feedback_id,
            base_version=base_version,
        )
        self.log.append(edit)
        _apply(store, edit)
        return edit

    def _check_conflict(self, entries: list[Edit], base_version: int, mine: list[Triple]) -> None:
        if base_version > (entries[-1].id if entries else 0) or base_version < 0:
            raise EditConflict(f"version {base_version} does not exist; reload")
        slots = {(t.s, t.p) for t in mine}
        for entry in entries:
            if entry.id > base_version and entry.slots() & slots:
                t = next(t for t in (*entry.added, *entry.removed) if (t.s, t.p) in slots)
                who = f" by {entry.who}" if entry.who else ""
                raise EditConflict(
                    f"conflict: #{entry.id}{who} changed '{t.s_label} — {t.p_label}' after "
                    f"version {base_version} you edited; reload and try again"
                )

    # -- export -----------------------------------------------------------------------------
    def export(self, path: Path | str) -> str:
        """Write the KG (.ttl Turtle, .nt N-Triples) or its history (.jsonl the log as is,
        .rdfp RDF Patch: one transaction per entry). Returns what was written."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix in (".ttl", ".nt"):
            fmt = ox.RdfFormat.TURTLE if suffix == ".ttl" else ox.RdfFormat.N_TRIPLES
            store = open_read_only(str(self.kb_dir / "store"))
            with open(path, "wb") as fh:
                store.dump(fh, format=fmt, from_graph=ox.DefaultGraph())
            return f"the knowledge graph ({fmt.name.replace('_', '-').lower()})"
        if suffix == ".jsonl":
            path.write_text("".join(e.to_json() + "\n" for e in self.history()), encoding="utf-8")
            return "the edit history (JSON lines)"
        if suffix in (".rdfp", ".patch"):
            path.write_text(rdf_patch(self.history()), encoding="utf-8")
            return "the edit history (RDF Patch)"
        raise EditError(
            f"{path.name}: export to .ttl or .nt (the graph), .jsonl or .rdfp (the history)"
        )

    # -- store, lock, recovery --------------------------------------------------------------
    @contextmanager
    def batch(self) -> Iterator[KBEditor]:
        """Keep the store open for many edits (one process); each edit is still durable."""
        self._batch = True
        try:
            yield self
        finally:
            self._batch = False
            if self._store is not None:
                with self._locked():
                    self._finish(self._store)

    def _finish(self, store: ox.Store, current: KGIndex | None = None) -> None:
        """After writing: save an index that includes the new entries, release the store.
        `current` is the editor's own index when it is known to be up to date."""
        index_path = self.kb_dir / "index.pickle"
        index = current
        if index is None:
            index = load_index(index_path)
            if index.version != INDEX_VERSION:
                index = rebuild_where_it_lives(store, self.kb_dir)
            self.log.fold(index, partial(store_has_edge, store))
        save_index(index, index_path)
        self._close_store()

    def recover(self) -> int:
        """Bring the store up to the log (after a crash); returns the entries re-applied."""
        with self._locked():
            store = self._open_store()
            n = self._recover(store)
            if not self._batch:
                self._close_store()
        return n

    def _recover(self, store: ox.Store) -> int:
        """Re-apply log entries the store has not seen (a crash between log and store)."""
        applied = store_version(store)
        pending = [Edit.from_dict(d) for d in self.log.entries(repair=True) if d["id"] > applied]
        for edit in pending:
            _apply(store, edit)
        return len(pending)

    def _locked(self):
        return file_lock(self.kb_dir / EDIT_LOCK)

    def _open_store(self) -> ox.Store:
        if self._store is None:
            deadline = time.monotonic() + 10
            while True:
                try:
                    self._store = ox.Store(str(self.kb_dir / "store"))
                    prune_rocksdb_logs(self.kb_dir / "store")  # each write open adds one
                    break
                except OSError as exc:  # another process holds the store open for writing
                    if time.monotonic() > deadline:
                        raise EditError(
                            f"{self.name} is being edited by another process; try again"
                        ) from exc
                    time.sleep(0.1)
        return self._store

    def _close_store(self) -> None:
        if self._store is not None:
            self._store.flush()
            self._store = None  # dropping the handle releases RocksDB's lock


def rdf_patch(edits: list[Edit]) -> str:
    """The history as RDF Patch (https://afs.github.io/rdf-patch/): a transaction per entry,
    with its provenance in headers."""
    out = []
    for e in edits:
        out.append(f"H id <urn:knowloop:edit:{e.kb}:{e.id}> .")
        out.append(f"H kind {json.dumps(e.kind)} .")
        for key in ("who", "why"):
            if getattr(e, key):
                out.append(f"H {key} {json.dumps(getattr(e, key), ensure_ascii=False)} .")
        if e.target is not None:
            out.append(f"H target <urn:knowloop:edit:{e.kb}:{e.target}> .")
        out.append("TX .")
        out += [f"D {t.s} {t.p} {t.o} ." for t in e.removed]
        out += [f"A {t.s} {t.p} {t.o} ." for t in e.added]
        out.append("TC .")
    return "\n".join(out) + ("\n" if out else "")


# -- log file -------------------------------------------------------------------------------
def open_for_reading(kb_dir: Path, name: str, attempts: int = 6) -> KnowledgeGraph:
    """Open a KB read-only while no edit is being written (a shared lock against writers'
    exclusive one), retrying briefly: RocksDB's read-only open may fail while another process
    compacts the store."""
    kb_dir = Path(kb_dir)
    for attempt in range(attempts):
        try:
            with file_lock(kb_dir / EDIT_LOCK, shared=True):
                return KnowledgeGraph.open(kb_dir, name=name, rebuild=rebuild_where_it_lives)
        except (RuntimeError, OSError):
            if attempt == attempts - 1:
                raise
            time.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


class EditLog:
    """The append-only edit log of one KB (`edits.jsonl`): the acknowledgement point of every
    edit. Reads are incremental: only bytes appended since the last read are parsed, so an
    edit costs the same with 10 or 10,000 entries. One object per KB of a workspace
    (`Workspace.edit_log`), so what it remembers lives and dies with that workspace."""

    def __init__(self, path: Path):
        self.path = Path(path)
        # (inode, bytes parsed, size seen, entries): what the last read already parsed
        self._seen: tuple[int, int, int, list[dict]] | None = None

    def signature(self) -> tuple[int, int] | None:
        """Changes whenever an entry is appended: readers compare it to know when to reopen."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return (st.st_size, st.st_mtime_ns)

    def version(self) -> int:
        """The id of the last acknowledged entry (0 before any edit)."""
        entries = self.entries()
        return entries[-1]["id"] if entries else 0

    def edits(self) -> list[Edit]:
        return [Edit.from_dict(d) for d in self.entries()]

    def entries(self, repair: bool = False) -> list[dict]:
        """Entries of the log; a torn last line (crash while appending) is ignored, or cut off
        when `repair` (only under the write lock)."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return []
        inode, end, size, entries = self._seen or (st.st_ino, 0, 0, [])
        if inode != st.st_ino or st.st_size < end:  # replaced or truncated: read it all again
            end, entries = 0, []
        if st.st_size != size or end == 0:
            with open(self.path, "rb") as fh:
                fh.seek(end)
                tail = fh.read()
            entries = list(entries)  # a reader in another thread keeps the list it was given
            for line in tail.splitlines(keepends=True):
                if not line.endswith(b"\n"):
                    break
                try:
                    entries.append(json.loads(line))
                except json.JSONDecodeError:
                    break
                end += len(line)
            self._seen = (st.st_ino, end, st.st_size, entries)
        if repair and end < st.st_size:
            with open(self.path, "r+b") as fh:
                fh.truncate(end)
                os.fsync(fh.fileno())
            self._seen = (st.st_ino, end, end, entries)
        return entries

    def append(self, edit: Edit) -> None:
        with open(self.path, "ab") as fh:
            fh.write(edit.to_json().encode("utf-8") + b"\n")
            fh.flush()
            os.fsync(fh.fileno())

    def fold(self, index: KGIndex, has_edge) -> int:
        """Apply the entries newer than the index to it; returns how many."""
        n = 0
        for data in self.entries():
            if data["id"] > index.kb_version:
                edit = Edit.from_dict(data)
                index.apply(edit.added, edit.removed, has_edge)
                index.kb_version = edit.id
                n += 1
        return n


# -- store ----------------------------------------------------------------------------------
def _apply(store: ox.Store, edit: Edit) -> None:
    """One SPARQL update: the data change and the new version, atomically."""
    delete = " ".join(f"{t.s} {t.p} {t.o} ." for t in edit.removed)
    insert = " ".join(f"{t.s} {t.p} {t.o} ." for t in edit.added)
    version = f'"{edit.id}"^^<http://www.w3.org/2001/XMLSchema#integer>'
    store.update(
        f"DELETE DATA {{ {delete} }} ;\n"
        f"INSERT DATA {{ {insert} }} ;\n"
        f"DELETE WHERE {{ GRAPH {META_GRAPH} {{ {META_SUBJECT} {META_VERSION} ?v }} }} ;\n"
        f"INSERT DATA {{ GRAPH {META_GRAPH} {{ {META_SUBJECT} {META_VERSION} {version} }} }}"
    )


def _exists(store: ox.Store, t: Triple) -> bool:
    s, p, o = term_from_id(t.s), term_from_id(t.p), term_from_id(t.o)
    return next(iter(store.quads_for_pattern(s, p, o, ox.DefaultGraph())), None) is not None


# -- small helpers --------------------------------------------------------------------------
def _explicit_term(part: str, text: str) -> str:
    try:
        term = term_from_id(part)
    except ValueError:
        raise EditError(f'{_show(text)}: {part[:60]!r} is not a valid <IRI> or "literal"') from None
    if isinstance(term, ox.BlankNode):
        raise EditError(f"{_show(text)}: blank nodes cannot be edited")
    if isinstance(term, ox.NamedNode) and ":" not in term.value:
        raise EditError(f"{_show(text)}: {part[:60]!r} is not an absolute IRI")
    return str(term)


def _pick(kg: KnowledgeGraph, name: str) -> str | None:
    ids = [i for i in kg.exact(name) if not is_literal_id(i)]
    if not ids:
        return None
    exact = [i for i in ids if kg.label(i) == name]
    return (exact or ids)[0]


def _local(rel_id: str) -> str:
    return local_name(rel_id[1:-1]) if rel_id.startswith("<") else rel_id


def _key(t: Triple) -> tuple[str, str, str]:
    return (t.s, t.p, t.o)


def _is_schema(t: Triple) -> bool:
    return t.p in (str(RDFS_LABEL), str(RDF_TYPE))


def _no_duplicates(triples: list[Triple], what: str) -> None:
    keys = [_key(t) for t in triples]
    if len(keys) != len(set(keys)):
        raise EditError(f"a triple is {what} twice")


def _clean_text(text: str, name: str) -> str:
    text = (text or "").strip()
    if len(text) > 5_000:
        raise EditError(f"'{name}' is longer than 5,000 characters")
    if "\x00" in text:
        raise EditError(f"'{name}' contains a NUL character")
    return text


def _show(text: str) -> str:
    text = " ".join(str(text).split())
    return repr(text if len(text) <= 80 else text[:77] + "...")
