"""Turn a user's KB file into N-Triples for a pyoxigraph store, and report bad input precisely.

Two kinds of input are accepted:

* RDF files (``.ttl .nt .nq .rdf .xml .owl .jsonld .trig .n3``), parsed by pyoxigraph so that
  syntax errors carry a line and column. Named graphs are flattened into the default graph:
  KnowLoop reasons over one graph per KB, so the graph name carries no meaning for it.
* Delimited triple files (any other extension): one ``subject SEP relation SEP object`` per
  line, SEP being ``|``, tab or comma (auto-detected). Plain names are minted as IRIs in a
  per-KB namespace and labelled, so the index builder and the LLM see the original text.

The result is an N-Triples string because ``Store.bulk_load(format=RdfFormat.N_TRIPLES)`` is
the fastest way into pyoxigraph; loading and indexing are the caller's job. Bad input raises
:class:`KBFileError` and never yields a partial result, so a half-imported KB cannot happen.
"""

from __future__ import annotations

import csv
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote

import pyoxigraph as ox

__all__ = [
    "KBFileError",
    "KBStream",
    "LineIssue",
    "ParsedKB",
    "entity_term",
    "kb_base_iri",
    "literal_term",
    "number_term",
    "parse_kb_file",
    "relation_label",
    "relation_term",
    "sniff_format",
    "stream_kb_file",
]

RDF_EXTENSIONS: dict[str, ox.RdfFormat] = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".nq": ox.RdfFormat.N_QUADS,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".xml": ox.RdfFormat.RDF_XML,
    ".owl": ox.RdfFormat.RDF_XML,
    ".jsonld": ox.RdfFormat.JSON_LD,
    ".trig": ox.RdfFormat.TRIG,
    ".n3": ox.RdfFormat.N3,
}
# Attribute name on RdfFormat -> the short label reported in ParsedKB.format.
_RDF_LABELS: dict[str, str] = {
    "TURTLE": "turtle",
    "N_TRIPLES": "ntriples",
    "N_QUADS": "nquads",
    "RDF_XML": "rdfxml",
    "JSON_LD": "jsonld",
    "TRIG": "trig",
    "N3": "n3",
}
_SEPARATORS: tuple[str, ...] = ("|", "\t", ",")  # order = tie-break order
_SEP_NAMES: dict[str, str] = {"|": "|", "\t": "tab", ",": ","}
_SNIFF_LINES = 200
_BINARY_PROBE = 8192
_TEXT_CUT = 200
_SHOWN_LINE_NUMBERS = 5
_COLUMNS = ("subject", "relation", "object")
_MAYBE_SKIP = frozenset(" \t\r\f\v#")  # first chars of lines that may be blank/comment

# Header words per column; the first line is a header only if all three columns match, so a
# real triple such as "s|p|o" would be mistaken only if it were literally made of column names.
_HEAD_WORDS = frozenset(
    "subject subj s head h source src from start entity entity1 e1 node node1 id1 sub".split()
)
_REL_WORDS = frozenset(
    "relation rel r predicate pred p edge property prop relationship relation_type type label "
    "link verb".split()
)
_TAIL_WORDS = frozenset(
    "object obj o tail t target tgt dst to end entity2 e2 value node2 id2".split()
)

_KB_NAME_RE = re.compile(r"[A-Za-z0-9._-]+")
# re.ASCII: "\d" must not accept e.g. Arabic-Indic digits, which are invalid xsd lexical forms.
# Numbers in canonical form only: "007" or "7.50" stay names (a tag, a code), because the
# store would rewrite them to 7 and 7.5 and the original text would be lost.
_NUMBER_RE = re.compile(r"-?(?:0|[1-9]\d*)(\.\d*[1-9])?", re.ASCII)
_CAMEL_RE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SPACES_RE = re.compile(r"\s+")
_PROGRESS_LINES = 20_000  # lines between two progress reports of a delimited stream

Progress = Callable[[float], None]  # share of the input read so far, 0..1


class _QuoteTable(dict[int, str]):
    """``str.translate`` table equal to ``quote(ch, safe="")``, about 2x faster than ``quote``.

    ASCII is precomputed; other code points are quoted (UTF-8 percent-encoded) on first use.
    """

    def __missing__(self, code: int) -> str:
        value = self[code] = quote(chr(code), safe="")
        return value


_QUOTE = _QuoteTable({i: quote(chr(i), safe="") for i in range(128)})

_XSD = "http://www.w3.org/2001/XMLSchema#"
_RDFS_LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
_RDF_TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
_RDF_PROPERTY = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#Property>"
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"})
_INT_SUFFIX = f'"^^<{_XSD}integer>'
_DEC_SUFFIX = f'"^^<{_XSD}decimal>'


@dataclass(frozen=True)
class LineIssue:
    """One malformed line: where it is, what it says, and why it was rejected."""

    line: int  # 1-based line number in the file
    text: str  # the offending line, cut to 200 chars
    reason: str  # e.g. "expected 3 fields separated by '|', found 2"


class KBFileError(ValueError):
    """The file cannot be imported; str(exc) is one readable line; .issues holds details."""

    issues: list[LineIssue]

    def __init__(self, message: str, issues: list[LineIssue] | None = None) -> None:
        super().__init__(message)
        self.issues = list(issues or [])


@dataclass
class ParsedKB:
    """A converted KB, ready for ``Store.bulk_load(input=ntriples, format=N_TRIPLES)``."""

    ntriples: str  # N-Triples document to bulk-load (includes labels)
    n_triples: int  # data triples (not counting added labels/types)
    n_entities: int
    n_relations: int
    format: str  # "delimited:|", "delimited:tab", "delimited:,", "turtle", "ntriples", ...
    issues: list[LineIssue] = field(default_factory=list)  # skipped lines (skip_bad=True only)
    base_iri: str = ""
    n_skipped: int = 0  # every malformed line skipped (skip_bad=True only); issues may list fewer


def kb_base_iri(kb_name: str) -> str:
    """The namespace a KB's plain names are minted in (and schema files resolve against)."""
    return f"https://knowloop.dev/kb/{kb_name}/"


def entity_term(name: str, kb_name: str) -> str:
    """The N-Triples IRI a plain entity name gets in a KB (as the importer mints it)."""
    return "<" + kb_base_iri(kb_name) + "e/" + name.translate(_QUOTE) + ">"


def relation_term(name: str, kb_name: str) -> str:
    """The N-Triples IRI a plain relation name gets in a KB (as the importer mints it)."""
    return "<" + kb_base_iri(kb_name) + "r/" + name.translate(_QUOTE) + ">"


def number_term(text: str) -> str | None:
    """A typed literal for a canonical integer/decimal (as the importer converts objects)."""
    m = _NUMBER_RE.fullmatch(text)
    if m is None:
        return None
    return '"' + text + (_DEC_SUFFIX if m.group(1) else _INT_SUFFIX)


def literal_term(text: str) -> str:
    """A plain string literal in N-Triples syntax."""
    return _literal(text)


def relation_label(name: str) -> str:
    """Readable words for a relation name ("directed_by" -> "directed by")."""
    return _relation_label(name)


def sniff_format(path: str | PathLike[str]) -> str:
    """Return ``"rdf:<RdfFormat attribute>"`` (e.g. ``"rdf:TURTLE"``) or ``"delimited"``.

    Decided by extension only (case-insensitive): the file contract says every extension that
    is not a known RDF one is delimited text, and content sniffing would make that ambiguous.
    """
    fmt = RDF_EXTENSIONS.get(Path(path).suffix.lower())
    if fmt is None:
        return "delimited"
    return "rdf:" + next(k for k in _RDF_LABELS if getattr(ox.RdfFormat, k) == fmt)


def parse_kb_file(
    path: str | PathLike[str], kb_name: str, *, skip_bad: bool = False, max_issues: int = 50
) -> ParsedKB:
    """Parse, validate and convert a KB file to N-Triples.

    Raises ``ValueError`` for an invalid ``kb_name`` and :class:`KBFileError` for any file that
    cannot be imported (missing, empty, binary/non-UTF-8, RDF syntax error, malformed delimited
    lines unless ``skip_bad``). With ``skip_bad=True`` malformed delimited lines are left out
    and listed in ``ParsedKB.issues``: at most ``max_issues`` entries, plus one final summary
    entry giving the number of further bad lines, so no skipped line goes unreported.
    """
    if not isinstance(kb_name, str) or not _KB_NAME_RE.fullmatch(kb_name):
        raise ValueError(f"invalid kb_name {kb_name!r}: use one or more of A-Z a-z 0-9 . _ -")
    max_issues = max(1, max_issues)
    p = Path(path)
    name = p.name
    base = kb_base_iri(kb_name)
    data = _read_bytes(p)
    text = _decode(data, name)
    sniffed = sniff_format(p)
    if sniffed == "delimited":
        return _convert_delimited(text, name, base, skip_bad, max_issues)
    return _convert_rdf(p, text, sniffed.removeprefix("rdf:"), base)


def stream_kb_file(
    path: str | PathLike[str],
    kb_name: str,
    *,
    skip_bad: bool = False,
    max_issues: int = 50,
    progress: Progress | None = None,
) -> KBStream:
    """Like parse_kb_file, but the file comes in chunks so a loader can start at once and
    memory stays bounded (the same checks and errors). `progress` gets the share of the file
    read so far (0..1), so a caller can draw a bar for a large file."""
    if not isinstance(kb_name, str) or not _KB_NAME_RE.fullmatch(kb_name):
        raise ValueError(f"invalid kb_name {kb_name!r}: use one or more of A-Z a-z 0-9 . _ -")
    p = Path(path)
    base = kb_base_iri(kb_name)
    sniffed = sniff_format(p)
    if sniffed != "delimited":  # parsed as a stream, converted piece by piece: any size
        return _RDFStream(p, sniffed.removeprefix("rdf:"), base, progress)
    return _DelimitedStream(p, p.name, base, skip_bad, max(1, max_issues), progress)


# --------------------------------------------------------------------------- reading


def _read_bytes(p: Path) -> bytes:
    """Read the whole file, turning OS errors into one-line KBFileErrors."""
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise _read_error(p, exc) from None
    if not data:
        raise KBFileError(f"{p.name}: no triples found (the file is empty)")
    return data


@contextmanager
def _opened(path: Path) -> Iterator[tuple[BinaryIO, int]]:
    """A KB file open for a streamed read, with its size; refused as a whole-file read would
    refuse it (missing, a directory, unreadable, empty, binary)."""
    try:
        fh = open(path, "rb")  # noqa: SIM115 — closed below, when the reader is done
    except OSError as exc:
        raise _read_error(path, exc) from None
    with fh:
        size = os.fstat(fh.fileno()).st_size
        if not size:
            raise KBFileError(f"{path.name}: no triples found (the file is empty)")
        head = fh.read(_BINARY_PROBE)
        if b"\x00" in head:
            _decode(head, path.name)  # raises the binary-file message
        fh.seek(0)
        yield fh, size


def _read_error(p: Path, exc: OSError) -> KBFileError:
    """An OS error reading a KB file, as one line."""
    if isinstance(exc, FileNotFoundError):
        return KBFileError(f"{p}: file not found")
    if isinstance(exc, IsADirectoryError):
        return KBFileError(f"{p}: is a directory, not a file")
    return KBFileError(f"{p}: cannot read file ({exc.strerror or exc})")


def _decode(data: bytes, name: str) -> str:
    """Decode strict UTF-8 (a BOM is tolerated); refuse binaries before they produce noise."""
    if b"\x00" in data[:_BINARY_PROBE]:
        raise KBFileError(
            f"{name}: looks binary / not UTF-8 text (NUL bytes found); expected RDF or "
            "'subject|relation|object' lines"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise KBFileError(
            f"{name}: looks binary / not UTF-8 text (invalid byte at line {line}); "
            "re-save the file as UTF-8",
            [LineIssue(line, _line_text(data, exc.start), "not valid UTF-8")],
        ) from None


def _line_text(data: bytes, pos: int) -> str:
    """The (lossily decoded) line containing byte offset ``pos``, cut for display."""
    start = data.rfind(b"\n", 0, pos) + 1
    end = data.find(b"\n", pos)
    raw = data[start : end if end >= 0 else len(data)]
    return raw.decode("utf-8", "replace").rstrip("\r")[:_TEXT_CUT]


# --------------------------------------------------------------------------- RDF


def _convert_rdf(p: Path, text: str, fmt_attr: str, base: str) -> ParsedKB:
    """Parse with pyoxigraph (for line/column errors) and re-serialize as N-Triples.

    Named graphs are flattened into the default graph and duplicate triples are kept once.
    Relative IRIs are resolved against the KB namespace. No labels are added: the index
    builder derives them from IRIs where rdfs:label is missing.
    """
    fmt = getattr(ox.RdfFormat, fmt_attr)
    label = _RDF_LABELS[fmt_attr]
    try:
        triples = dict.fromkeys(q.triple for q in ox.parse(path=p, format=fmt, base_iri=base))
        ntriples = ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode("utf-8")
    except SyntaxError as exc:
        msg = " ".join((exc.msg or str(exc)).split())  # str(KBFileError) must stay one line
        issues = []
        if exc.lineno:
            lines = text.split("\n")
            line_text = lines[exc.lineno - 1] if exc.lineno <= len(lines) else ""
            issues.append(LineIssue(exc.lineno, line_text.rstrip("\r")[:_TEXT_CUT], msg))
        raise KBFileError(f"{p.name}: invalid {fmt.name} ({msg})", issues) from None
    except (OSError, ValueError) as exc:
        msg = " ".join(str(exc).split())
        raise KBFileError(f"{p.name}: cannot parse as {fmt.name} ({msg})") from None
    if not triples:
        raise KBFileError(f"{p.name}: no triples found")
    nodes = set()
    preds = set()
    for t in triples:
        nodes.add(t.subject)
        preds.add(t.predicate)
        if not isinstance(t.object, ox.Literal):
            nodes.add(t.object)
    return ParsedKB(ntriples, len(triples), len(nodes), len(preds), label, [], base)


# --------------------------------------------------------------------------- delimited


def _split_csv(line: str) -> list[str]:
    """Split one line as CSV, so quoted fields may contain commas (unparsable -> no fields)."""
    try:
        return next(csv.reader([line], skipinitialspace=True), [])
    except csv.Error:
        return []


def _splitter(sep: str) -> Callable[[str], list[str]]:
    if sep == ",":
        return _split_csv
    return lambda line: line.split(sep)


def _good_fields(fields: list[str]) -> bool:
    return len(fields) == 3 and all(f.strip() for f in fields)


def _detect_separator(sample: list[str]) -> tuple[str, int]:
    """Pick the separator giving exactly 3 non-empty fields on most sample lines."""
    best, best_score = _SEPARATORS[0], -1
    for sep in _SEPARATORS:
        split = _splitter(sep)
        score = sum(1 for line in sample if _good_fields(split(line)))
        if score > best_score:  # strict ">" keeps the earlier separator on ties
            best, best_score = sep, score
    return best, best_score


def _is_header(fields: list[str]) -> bool:
    if len(fields) != 3:
        return False
    h, r, t = (f.strip().strip("\"'").lower().replace(" ", "_") for f in fields)
    return h in _HEAD_WORDS and r in _REL_WORDS and t in _TAIL_WORDS


def _relation_label(rel: str) -> str:
    """'directed_by' -> 'directed by', 'hasImdbRating' -> 'has imdb rating'."""
    words = _CAMEL_RE.sub(" ", rel.replace("_", " ").replace("-", " "))
    return _SPACES_RE.sub(" ", words).strip().lower() or rel


def _literal(value: str) -> str:
    """N-Triples string literal; only backslash, quote, LF and CR need escaping."""
    if "\\" in value or '"' in value or "\n" in value or "\r" in value:
        value = value.translate(_ESCAPES)
    return f'"{value}"'


def _convert_delimited(
    text: str, name: str, base: str, skip_bad: bool, max_issues: int
) -> ParsedKB:
    """Detect the separator, validate every line and mint IRIs/literals in one pass."""
    stream = _DelimitedStream(text, name, base, skip_bad, max_issues)
    ntriples = "".join(line for chunk in stream.chunks() for line in chunk)
    return stream.result(ntriples)


class KBStream:
    """A KB file converted piece by piece: iterate `chunks()` (lists of N-Triples lines) while
    loading them, then read `result()`. Errors (malformed lines without skip_bad) are raised
    from `chunks()` after the last line, so a loader fed so far must be discarded."""

    def chunks(self) -> Iterator[list[str]]:
        raise NotImplementedError

    def result(self, ntriples: str = "") -> ParsedKB:
        raise NotImplementedError


class _RDFStream(KBStream):
    """An RDF file (N-Triples, Turtle, N-Quads, TriG, RDF/XML, N3) parsed as a stream: the
    parser reads the file incrementally, triples go on in pieces of PIECE (canonical
    N-Triples, named graphs flattened), so memory stays bounded whatever the file's size. A
    triple repeated across pieces is passed on twice; the store keeps one, and the index
    counts distinct triples."""

    PIECE = 80_000  # triples per piece handed on

    def __init__(self, path: Path, fmt_attr: str, base: str, progress: Progress | None = None):
        self.path, self.fmt_attr, self.base, self.progress = path, fmt_attr, base, progress
        self._result: ParsedKB | None = None

    def result(self, ntriples: str = "") -> ParsedKB:
        if self._result is None:
            raise RuntimeError("result() before chunks() was exhausted")
        return self._result

    def chunks(self) -> Iterator[list[str]]:
        fmt = getattr(ox.RdfFormat, self.fmt_attr)
        name, n_triples, predicates = self.path.name, 0, set()
        with _opened(self.path) as (fh, size):
            quads = ox.parse(input=fh, format=fmt, base_iri=self.base)
            try:  # pieces of PIECE quads, each triple once (named graphs flattened)
                while piece := dict.fromkeys(q.triple for q in itertools.islice(quads, self.PIECE)):
                    n_triples += len(piece)
                    predicates.update(t.predicate for t in piece)
                    yield [_ntriples(piece)]
                    if self.progress:
                        self.progress(min(1.0, fh.tell() / size))
            except SyntaxError as exc:
                raise self._syntax_error(exc, fmt) from None
            except (OSError, ValueError) as exc:
                msg = " ".join(str(exc).split())
                raise KBFileError(f"{name}: cannot parse as {fmt.name} ({msg})") from None
        if not n_triples:
            raise KBFileError(f"{name}: no triples found")
        label = _RDF_LABELS[self.fmt_attr]
        # entity counts come from the index (meta.json); only these are known without it
        self._result = ParsedKB("", n_triples, 0, len(predicates), label, [], self.base)

    def _syntax_error(self, exc: SyntaxError, fmt) -> KBFileError:
        msg = " ".join((exc.msg or str(exc)).split())
        line = exc.lineno or 0
        text = _file_line(self.path, line) if line else ""
        if "Invalid UTF-8" in msg:
            return KBFileError(
                f"{self.path.name}: looks binary / not UTF-8 text (invalid byte at line {line}); "
                "re-save the file as UTF-8",
                [LineIssue(line, text, "not valid UTF-8")],
            )
        issues = [LineIssue(line, text, msg)] if line else []
        return KBFileError(f"{self.path.name}: invalid {fmt.name} ({msg})", issues)


def _ntriples(triples: Iterable[ox.Triple]) -> str:
    return ox.serialize(triples, format=ox.RdfFormat.N_TRIPLES).decode("utf-8")


def _file_line(path: Path, number: int) -> str:
    """Line `number` (1-based) of a file, lossily decoded and cut for display."""
    with open(path, "rb") as fh:
        for i, raw in enumerate(fh, 1):
            if i == number:
                return raw.decode("utf-8", "replace").rstrip("\r\n")[:_TEXT_CUT]
    return ""


class _DelimitedStream(KBStream):
    CHUNK = (
        45_000  # triples per piece handed to the loader (measured: 3 pieces for 129k overlap best)
    )

    def __init__(
        self,
        source: str | Path,
        name: str,
        base: str,
        skip_bad: bool,
        max_issues: int,
        progress: Progress | None = None,
    ):
        """`source`: the text (every line kept: exact counts, one label per name), or a
        file's path (read block by block; past _FORGET_AFTER triples the name caches start
        afresh, so memory stays bounded whatever the file's size — a triple or label
        repeated after that is passed on again, and the store and the index keep one)."""
        self.source, self.name, self.base = source, name, base
        self.skip_bad, self.max_issues = skip_bad, max_issues
        self.progress = progress
        self._result: ParsedKB | None = None

    def result(self, ntriples: str = "") -> ParsedKB:
        if self._result is None:
            raise RuntimeError("result() before chunks() was exhausted")
        self._result.ntriples = ntriples
        return self._result

    def chunks(self) -> Iterator[list[str]]:
        name, base, max_issues = self.name, self.base, self.max_issues
        bounded = isinstance(self.source, Path)
        if bounded:
            numbered = _file_lines(self.source, self.progress)
        else:
            numbered = _reported(self.source.split("\n"), self.progress)
        read: list[tuple[int, str]] = []  # the lines read to sniff, read again below
        sample: list[tuple[int, str]] = []
        for no, line in numbered:
            read.append((no, line))
            stripped = line.strip()
            if stripped and stripped[0] != "#":
                sample.append((no, line))
                if len(sample) >= _SNIFF_LINES:
                    break
        if not sample:
            raise KBFileError(f"{name}: no triples found (only blank or comment lines)")
        sep, score = _detect_separator([line for _, line in sample])
        sep_name = _SEP_NAMES[sep]
        if score == 0:
            reason = "not 3 non-empty fields separated by '|', tab or ','"
            raise KBFileError(
                f"{name}: no triples found: none of the first {len(sample)} lines has exactly "
                "3 non-empty fields separated by '|', tab or ','",
                [LineIssue(no, line.rstrip("\r")[:_TEXT_CUT], reason) for no, line in sample][
                    :max_issues
                ],
            )
        is_csv = sep == ","

        # Validation and conversion share one pass. Each name is quoted once (dict caches);
        # lines are deduplicated by their N-Triples text, which is injective in (subject,
        # relation, object); new lines go to the caller in chunks so loading can start early.
        e_base = "<" + base + "e/"
        r_base = "<" + base + "r/"
        entities: dict[str, str] = {}
        relations: dict[str, str] = {}
        objects: dict[str, str] = {}
        number = _NUMBER_RE.fullmatch
        seen: set[str] = set()
        pending: list[str] = []
        issues: list[LineIssue] = []
        n_bad = 0
        first_unlisted: LineIssue | None = None
        first_data_line = True
        n_triples = 0
        for no, line in itertools.chain(read, numbered):
            if not line or line[0] in _MAYBE_SKIP:  # cheap pre-check; strip() only when needed
                stripped = line.strip()
                if not stripped or stripped[0] == "#":
                    continue
            fields = _split_csv(line) if is_csv else line.split(sep)
            if first_data_line:
                first_data_line = False
                if _is_header(fields):
                    continue
            if len(fields) == 3:
                s, r, o = fields[0].strip(), fields[1].strip(), fields[2].strip()
                if s and r and o:
                    s_iri = entities.get(s)
                    if s_iri is None:
                        s_iri = entities[s] = e_base + s.translate(_QUOTE) + ">"
                    r_iri = relations.get(r)
                    if r_iri is None:
                        r_iri = relations[r] = r_base + r.translate(_QUOTE) + ">"
                    o_term = objects.get(o)
                    if o_term is None:
                        m = number(o)
                        if m is None:
                            o_term = entities.get(o)
                            if o_term is None:
                                o_term = entities[o] = e_base + o.translate(_QUOTE) + ">"
                        else:
                            o_term = '"' + o + (_DEC_SUFFIX if m.group(1) else _INT_SUFFIX)
                        objects[o] = o_term
                    triple = f"{s_iri} {r_iri} {o_term} .\n"
                    if triple not in seen:
                        seen.add(triple)
                        pending.append(triple)
                        if len(pending) >= self.CHUNK:
                            if bounded and len(seen) >= _FORGET_AFTER:  # names so far, then
                                n_triples += len(seen)  # forget them: memory stays bounded
                                pending.extend(_label_lines(entities, relations))
                                entities, relations, objects, seen = {}, {}, {}, set()
                            yield pending
                            pending = []
                    continue
                empty = [n for n, v in zip(_COLUMNS, (s, r, o), strict=True) if not v]
                reason = f"empty {' and '.join(empty)} field"
            else:
                reason = f"expected 3 fields separated by {sep_name!r}, found {len(fields)}"
            n_bad += 1
            if len(issues) < max_issues:
                issues.append(LineIssue(no, line.rstrip("\r")[:_TEXT_CUT], reason))
            elif first_unlisted is None:
                first_unlisted = LineIssue(no, line.rstrip("\r")[:_TEXT_CUT], reason)

        if n_bad and not self.skip_bad:
            shown = ", ".join(str(i.line) for i in issues[:_SHOWN_LINE_NUMBERS])
            more = ", ..." if n_bad > _SHOWN_LINE_NUMBERS else ""
            shape = "<TAB>".join(_COLUMNS) if sep == "\t" else sep.join(_COLUMNS)
            raise KBFileError(
                f"{name}: {n_bad} malformed line{'s' if n_bad != 1 else ''} "
                f"(line{'s' if n_bad != 1 else ''} {shown}{more}); expected '{shape}' on every "
                "line (import with --skip-bad to load only the good lines)",
                issues,
            )
        if first_unlisted is not None:
            more_reason = f"... and {n_bad - max_issues} more malformed lines not listed"
            issues.append(LineIssue(first_unlisted.line, first_unlisted.text, more_reason))
        n_triples += len(seen)
        if not n_triples:
            raise KBFileError(f"{name}: no valid triples found ({n_bad} malformed lines)", issues)
        pending.extend(_label_lines(entities, relations))
        yield pending
        self._result = ParsedKB(
            "",
            n_triples,  # bounded: counted per piece (the index counts distinct ones)
            0 if bounded else len(entities),
            0 if bounded else len(relations),
            f"delimited:{sep_name}",
            issues,
            base,
            n_bad,
        )


_BLOCK = 8 << 20  # bytes of a delimited file decoded at a time
# a delimited file's name caches and seen triples start afresh past this many triples (a
# file below it is converted exactly as a whole text is: one label per name)
_FORGET_AFTER = 1_000_000


def _file_lines(path: Path, progress: Progress | None) -> Iterator[tuple[int, str]]:
    """(1-based number, line) of a text file read block by block, with the same checks and
    messages as a whole-file read (empty, binary, not UTF-8 at line N); `progress` is told
    the share of the file read every `_PROGRESS_LINES` lines."""
    with _opened(path) as (fh, size):
        if progress:
            progress(0.0)
        no, done, carry, first = 0, 0, b"", True
        while True:
            block = fh.read(_BLOCK)
            data = carry + block
            if block:
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            elif not data:
                break
            else:
                carry = b""
            try:
                text = data.decode("utf-8-sig" if first else "utf-8")
            except UnicodeDecodeError as exc:
                line = no + data.count(b"\n", 0, exc.start) + 1
                raise KBFileError(
                    f"{path.name}: looks binary / not UTF-8 text (invalid byte at line {line}); "
                    "re-save the file as UTF-8",
                    [LineIssue(line, _line_text(data, exc.start), "not valid UTF-8")],
                ) from None
            first = False
            lines = text.split("\n")
            if text.endswith("\n"):
                lines.pop()  # the split's empty tail: the next block starts a new line
            for k, line in enumerate(lines):
                no += 1
                if progress and no % _PROGRESS_LINES == 1 and no > 1:
                    progress(min(1.0, (done + len(data) * k / len(lines)) / size))
                yield no, line
            done += len(data)
            if not block:
                break
    if progress:
        progress(1.0)


def _reported(lines: list[str], progress: Progress | None) -> Iterator[tuple[int, str]]:
    """(1-based number, line) like enumerate; with `progress`, told the share read every
    `_PROGRESS_LINES` lines (once per block, not per line: this loop is the hot path)."""
    if progress is None:
        return enumerate(lines, 1)
    return _in_blocks(lines, progress)


def _in_blocks(lines: list[str], progress: Progress) -> Iterator[tuple[int, str]]:
    total = len(lines) or 1
    for start in range(0, len(lines), _PROGRESS_LINES):
        progress(start / total)
        yield from enumerate(lines[start : start + _PROGRESS_LINES], start + 1)
    progress(1.0)


def _label_lines(entities: dict[str, str], relations: dict[str, str]) -> Iterator[str]:
    """rdfs:label for every entity (exact text) and relation (readable words) + rdf:Property.

    Labels are what the index builder and the LLM match questions against; the IRIs are
    percent-encoded and not meant to be read.
    """
    for label, iri in entities.items():
        yield f"{iri} {_RDFS_LABEL} {_literal(label)} .\n"
    for rel, iri in relations.items():
        yield f"{iri} {_RDF_TYPE} {_RDF_PROPERTY} .\n"
        yield f"{iri} {_RDFS_LABEL} {_literal(_relation_label(rel))} .\n"
