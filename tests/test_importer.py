"""KB file importer: separators, conversion, precise refusal of bad input, RDF formats."""

from __future__ import annotations

import time
from pathlib import Path
from urllib.parse import quote

import pyoxigraph as ox
import pytest

from core.kg.importer import (
    KBFileError,
    LineIssue,
    ParsedKB,
    parse_kb_file,
    sniff_format,
    stream_kb_file,
)

BASE = "https://knowloop.dev/kb/t/"
LABEL = ox.NamedNode("http://www.w3.org/2000/01/rdf-schema#label")
RDF_TYPE = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#type")
XSD = "http://www.w3.org/2001/XMLSchema#"
REPO = Path(__file__).resolve().parents[1]


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _load(parsed: ParsedKB) -> ox.Store:
    store = ox.Store()
    store.bulk_load(input=parsed.ntriples, format=ox.RdfFormat.N_TRIPLES)
    return store


def _ent(name: str) -> ox.NamedNode:
    return ox.NamedNode(BASE + "e/" + quote(name, safe=""))


def _rel(name: str) -> ox.NamedNode:
    return ox.NamedNode(BASE + "r/" + quote(name, safe=""))


def _label(store: ox.Store, node: ox.NamedNode) -> str:
    labels = [q.object.value for q in store.quads_for_pattern(node, LABEL, None)]
    assert len(labels) == 1, labels
    return labels[0]


# --------------------------------------------------------------------------- delimited


@pytest.mark.parametrize(
    ("sep", "fmt"), [("|", "delimited:|"), ("\t", "delimited:tab"), (",", "delimited:,")]
)
def test_each_separator_is_detected(tmp_path: Path, sep: str, fmt: str) -> None:
    rows = [("Alien", "directed_by", "Ridley Scott"), ("Alien", "release_year", "1979")]
    path = _write(tmp_path, "kb.txt", "\n".join(sep.join(r) for r in rows) + "\n")
    parsed = parse_kb_file(path, "t")
    assert parsed.format == fmt
    assert (parsed.n_triples, parsed.n_entities, parsed.n_relations) == (2, 2, 2)
    assert parsed.base_iri == BASE
    store = _load(parsed)
    assert ox.Quad(_ent("Alien"), _rel("directed_by"), _ent("Ridley Scott")) in store


def test_pipe_wins_a_tie_and_majority_decides(tmp_path: Path) -> None:
    # Every line also has 3 comma fields; "|" wins the tie.
    tie = _write(tmp_path, "tie.txt", "a,b|r,s|c,d\n")
    assert parse_kb_file(tie, "t").format == "delimited:|"
    # Names with commas in a tab file: tab gives 3 fields on every line, comma on fewer.
    tsv = _write(tmp_path, "kb.tsv", "Smith, John\tknows\tDoe, Jane\nA\tknows\tB\n")
    parsed = parse_kb_file(tsv, "t")
    assert parsed.format == "delimited:tab"
    assert ox.Quad(_ent("Smith, John"), _rel("knows"), _ent("Doe, Jane")) in _load(parsed)


def test_csv_quoted_field_with_comma(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "kb.csv",
        'subject,relation,object\n"Crouching Tiger, Hidden Dragon",'
        'directed_by,Ang Lee\nX, has_tags, "a, b"\n',
    )
    parsed = parse_kb_file(path, "t")
    assert parsed.format == "delimited:,"
    assert parsed.n_triples == 2
    store = _load(parsed)
    title = _ent("Crouching Tiger, Hidden Dragon")
    assert ox.Quad(title, _rel("directed_by"), _ent("Ang Lee")) in store
    assert _label(store, title) == "Crouching Tiger, Hidden Dragon"
    assert ox.Quad(_ent("X"), _rel("has_tags"), _ent("a, b")) in store


@pytest.mark.parametrize(
    "header", ["subject|relation|object", "Head | Relation | Tail", "s|p|o", "source|edge|target"]
)
def test_header_is_skipped(tmp_path: Path, header: str) -> None:
    path = _write(tmp_path, "kb.txt", f"{header}\nA|r|B\n")
    parsed = parse_kb_file(path, "t")
    assert parsed.n_triples == 1
    assert parsed.n_entities == 2  # "subject"/"head"/... did not become entities


def test_comments_blank_lines_whitespace_and_duplicates(tmp_path: Path) -> None:
    text = "# a comment|with|pipes\n\n   \nA | r | B\r\n  # indented comment\nA|r|B\n\tA|r|C\n"
    parsed = parse_kb_file(_write(tmp_path, "kb.txt", text), "t")
    assert parsed.n_triples == 2  # duplicate kept once
    assert parsed.issues == []
    store = _load(parsed)
    assert ox.Quad(_ent("A"), _rel("r"), _ent("B")) in store
    assert ox.Quad(_ent("A"), _rel("r"), _ent("C")) in store


def test_unicode_and_punctuation_round_trip_through_labels(tmp_path: Path) -> None:
    names = ["Gert Fröbe", "東京物語", 'Say "hi" \\ bye', "a/b?c#d%20 <x>", "😀 emoji", "$"]
    text = "".join(f"{n}|related_to|{n}!\n" for n in names)
    parsed = parse_kb_file(_write(tmp_path, "kb.txt", text), "t")
    store = _load(parsed)
    assert parsed.n_entities == 2 * len(names)
    for n in names:
        assert _label(store, _ent(n)) == n
        assert _label(store, _ent(n + "!")) == n + "!"


def test_relation_labels_and_property_type(tmp_path: Path) -> None:
    text = "A|directed_by|B\nA|hasImdbRating|7.5\nA|written-by|C\nA|HTMLParserOf|D\n"
    store = _load(parse_kb_file(_write(tmp_path, "kb.txt", text), "t"))
    assert _label(store, _rel("directed_by")) == "directed by"
    assert _label(store, _rel("hasImdbRating")) == "has imdb rating"
    assert _label(store, _rel("written-by")) == "written by"
    assert _label(store, _rel("HTMLParserOf")) == "html parser of"
    prop = ox.NamedNode("http://www.w3.org/1999/02/22-rdf-syntax-ns#Property")
    assert ox.Quad(_rel("directed_by"), RDF_TYPE, prop) in store


def test_numbers_become_typed_literals(tmp_path: Path) -> None:
    text = "A|release_year|1971\nA|rating|7.5\nA|delta|-3\nA|code|007x\nA|v|1.\nA|w|١٢\n"
    parsed = parse_kb_file(_write(tmp_path, "kb.txt", text), "t")
    store = _load(parsed)

    def obj(rel: str) -> ox.Literal | ox.NamedNode:
        (q,) = list(store.quads_for_pattern(_ent("A"), _rel(rel), None))
        return q.object

    assert obj("release_year") == ox.Literal("1971", datatype=ox.NamedNode(XSD + "integer"))
    assert obj("rating") == ox.Literal("7.5", datatype=ox.NamedNode(XSD + "decimal"))
    assert obj("delta") == ox.Literal("-3", datatype=ox.NamedNode(XSD + "integer"))
    assert obj("code") == _ent("007x")
    assert obj("v") == _ent("1.")
    assert obj("w") == _ent("١٢")  # non-ASCII digits are not xsd lexical forms
    assert parsed.n_entities == 4  # A, 007x, 1., ١٢ - numbers are not entities


def test_subject_numbers_stay_entities(tmp_path: Path) -> None:
    store = _load(parse_kb_file(_write(tmp_path, "kb.txt", "2012|directed_by|X\n"), "t"))
    assert ox.Quad(_ent("2012"), _rel("directed_by"), _ent("X")) in store


def test_malformed_lines_refuse_the_whole_file(tmp_path: Path) -> None:
    text = "A|r|B\nonly|two\n\nC|r|D\nA||B\na|b|c|d\n"
    with pytest.raises(KBFileError) as info:
        parse_kb_file(_write(tmp_path, "kb.txt", text), "t")
    msg = str(info.value)
    assert "\n" not in msg
    assert "3 malformed lines" in msg and "2, 5, 6" in msg and "kb.txt" in msg
    assert info.value.issues == [
        LineIssue(2, "only|two", "expected 3 fields separated by '|', found 2"),
        LineIssue(5, "A||B", "empty relation field"),
        LineIssue(6, "a|b|c|d", "expected 3 fields separated by '|', found 4"),
    ]


def test_issue_list_is_capped_and_text_cut(tmp_path: Path) -> None:
    text = "A|r|B\n" + "".join(f"bad line {i} {'x' * 300}\n" for i in range(20))
    with pytest.raises(KBFileError) as info:
        parse_kb_file(_write(tmp_path, "kb.txt", text), "t", max_issues=5)
    assert "20 malformed lines" in str(info.value)
    assert [i.line for i in info.value.issues] == [2, 3, 4, 5, 6]
    assert all(len(i.text) == 200 for i in info.value.issues)


def test_skip_bad_keeps_good_lines_and_reports_bad(tmp_path: Path) -> None:
    text = "A|r|B\nbroken\nC|r|D\n|r|E\n"
    parsed = parse_kb_file(_write(tmp_path, "kb.txt", text), "t", skip_bad=True)
    assert parsed.n_triples == 2
    assert [(i.line, i.text) for i in parsed.issues] == [(2, "broken"), (4, "|r|E")]
    assert parsed.issues[1].reason == "empty subject field"
    assert len(_load(parsed)) == 2 + 4 + 2  # data + 4 entity labels + relation label/type


def test_skip_bad_reports_lines_beyond_the_cap(tmp_path: Path) -> None:
    text = "A|r|B\n" + "bad\n" * 10
    parsed = parse_kb_file(_write(tmp_path, "kb.txt", text), "t", skip_bad=True, max_issues=3)
    assert [i.line for i in parsed.issues] == [2, 3, 4, 5]
    assert "7 more malformed lines" in parsed.issues[-1].reason


def test_skip_bad_with_no_good_line_still_fails(tmp_path: Path) -> None:
    text = "subject|relation|object\n" + "x|y\n" * 3  # only the header has 3 fields
    with pytest.raises(KBFileError, match="no valid triples"):
        parse_kb_file(_write(tmp_path, "kb.txt", text), "t", skip_bad=True)


def test_no_separator_at_all(tmp_path: Path) -> None:
    with pytest.raises(KBFileError, match="no triples found") as info:
        parse_kb_file(_write(tmp_path, "notes.txt", "hello world\nsecond line\n"), "t")
    assert [i.line for i in info.value.issues] == [1, 2]


# --------------------------------------------------------------------------- unreadable files


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(KBFileError, match="not found"):
        parse_kb_file(tmp_path / "nope.txt", "t")


@pytest.mark.parametrize("content", ["", "\n\n  \n# only a comment\n"])
def test_empty_or_comment_only(tmp_path: Path, content: str) -> None:
    with pytest.raises(KBFileError, match="no triples found"):
        parse_kb_file(_write(tmp_path, "kb.txt", content), "t")


def test_binary_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "kb.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(KBFileError, match="looks binary / not UTF-8 text"):
        parse_kb_file(path, "t")


def test_non_utf8_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "kb.txt", "A|r|B\nCaf\xe9|r|D\n".encode("latin-1"))
    with pytest.raises(KBFileError, match="looks binary / not UTF-8 text") as info:
        parse_kb_file(path, "t")
    assert "line 2" in str(info.value)
    assert info.value.issues[0].line == 2


def test_utf8_bom_is_tolerated(tmp_path: Path) -> None:
    path = _write(tmp_path, "kb.txt", "\ufeffsubject|relation|object\nA|r|B\n".encode())
    assert parse_kb_file(path, "t").n_triples == 1


@pytest.mark.parametrize("bad", ["", "a b", "../x", "a/b", "é"])
def test_kb_name_is_validated(tmp_path: Path, bad: str) -> None:
    path = _write(tmp_path, "kb.txt", "A|r|B\n")
    with pytest.raises(ValueError, match="kb_name"):
        parse_kb_file(path, bad)


# --------------------------------------------------------------------------- RDF

TURTLE = """@prefix ex: <http://ex.org/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:alien ex:directedBy ex:scott ; rdfs:label "Alien" .
ex:alien ex:year 1979 .
<rel> ex:p "multi\\nline \\"quoted\\"" .
"""


def test_sniff_format() -> None:
    assert sniff_format("x.ttl") == "rdf:TURTLE"
    assert sniff_format("X.NT") == "rdf:N_TRIPLES"
    assert sniff_format("x.owl") == "rdf:RDF_XML"
    assert sniff_format("x.jsonld") == "rdf:JSON_LD"
    assert sniff_format("x.nq") == "rdf:N_QUADS"
    assert sniff_format("x.tsv") == "delimited"
    assert sniff_format("x.data") == "delimited"


def test_turtle_parses_without_invented_labels(tmp_path: Path) -> None:
    parsed = parse_kb_file(_write(tmp_path, "kb.ttl", TURTLE), "t")
    assert parsed.format == "turtle"
    assert (parsed.n_triples, parsed.n_relations) == (4, 4)
    assert parsed.n_entities == 3  # alien, scott, <rel>
    store = _load(parsed)
    assert len(store) == 4
    ex = "http://ex.org/"
    assert (
        ox.Quad(
            ox.NamedNode(BASE + "rel"), ox.NamedNode(ex + "p"), ox.Literal('multi\nline "quoted"')
        )
        in store
    )  # relative IRI resolved against the KB namespace, escapes survive
    assert list(store.quads_for_pattern(ox.NamedNode(ex + "scott"), LABEL, None)) == []


def test_ntriples_and_nquads_flatten_and_dedupe(tmp_path: Path) -> None:
    nt = '<http://a> <http://p> "x" .\n<http://a> <http://p> "x" .\n_:b <http://p> <http://a> .\n'
    parsed = parse_kb_file(_write(tmp_path, "kb.nt", nt), "t")
    assert (parsed.format, parsed.n_triples, len(_load(parsed))) == ("ntriples", 2, 2)
    nq = "<http://a> <http://p> <http://b> <http://g1> .\n<http://a> <http://p> <http://b> .\n"
    parsed = parse_kb_file(_write(tmp_path, "kb.nq", nq), "t")
    assert (parsed.format, parsed.n_triples) == ("nquads", 1)
    assert list(_load(parsed))[0].graph_name == ox.DefaultGraph()


def test_jsonld_parses(tmp_path: Path) -> None:
    doc = '{"@context": {"ex": "http://ex.org/"}, "@id": "ex:alien", "ex:year": 1979}'
    parsed = parse_kb_file(_write(tmp_path, "kb.jsonld", doc), "t")
    assert (parsed.format, parsed.n_triples) == ("jsonld", 1)
    (quad,) = list(_load(parsed))
    assert quad.subject == ox.NamedNode("http://ex.org/alien")


def test_rdfxml_parses(tmp_path: Path) -> None:
    doc = """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:ex="http://ex.org/">
  <rdf:Description rdf:about="http://ex.org/alien"><ex:year>1979</ex:year></rdf:Description>
</rdf:RDF>"""
    parsed = parse_kb_file(_write(tmp_path, "kb.owl", doc), "t")
    assert (parsed.format, parsed.n_triples) == ("rdfxml", 1)


def test_turtle_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    bad = TURTLE + "ex:a ex:b ex:c ex:d .\n"
    with pytest.raises(KBFileError) as info:
        parse_kb_file(_write(tmp_path, "kb.ttl", bad), "t")
    msg = str(info.value)
    assert "\n" not in msg and "kb.ttl" in msg and "line 6" in msg and "column" in msg
    assert info.value.issues[0].line == 6
    assert info.value.issues[0].text == "ex:a ex:b ex:c ex:d ."


@pytest.mark.parametrize("name", ["kb.ttl", "kb.jsonld"])
def test_rdf_without_triples(tmp_path: Path, name: str) -> None:
    content = "@prefix ex: <http://ex.org/> .\n" if name.endswith("ttl") else "{}"
    with pytest.raises(KBFileError, match="no triples found"):
        parse_kb_file(_write(tmp_path, name, content), "t")


def test_rdf_binary_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KBFileError, match="looks binary"):
        parse_kb_file(_write(tmp_path, "kb.ttl", b"\x00\x01\x02"), "t")


# --------------------------------------------------------------------------- bundled KB


@pytest.mark.slow
def test_bundled_metaqa_kb_converts_fast_and_loads() -> None:
    path = REPO / "kb_data" / "metaqa" / "kb.txt"
    start = time.perf_counter()
    parsed = parse_kb_file(path, "metaqa")
    elapsed = time.perf_counter() - start
    assert parsed.n_triples == 129235
    assert parsed.format == "delimited:|" and parsed.issues == []
    store = _load(parsed)
    assert len(store) == parsed.n_triples + parsed.n_entities + 2 * parsed.n_relations
    assert elapsed < 3.0, f"conversion took {elapsed:.2f}s"  # target < 1.5 s; slack for CI


# ---------------------------------------------------------------- streamed import, every syntax
@pytest.mark.parametrize("name", ["kb.ttl", "kb.nt", "kb.nq", "kb.trig", "kb.jsonld", "kb.rdf"])
def test_every_rdf_syntax_streams_into_the_same_triples(tmp_path: Path, name: str) -> None:
    """The import streams every RDF syntax (pyoxigraph's incremental parser, in pieces);
    whatever the syntax, the same triples arrive as a whole-file parse gives."""
    whole = ox.Store()
    whole.bulk_load(input=TURTLE, format=ox.RdfFormat.TURTLE, base_iri=BASE)
    triples = [q.triple for q in whole]
    fmt = {"kb.ttl": ox.RdfFormat.TURTLE, "kb.nt": ox.RdfFormat.N_TRIPLES,
           "kb.nq": ox.RdfFormat.N_QUADS, "kb.trig": ox.RdfFormat.TRIG,
           "kb.jsonld": ox.RdfFormat.JSON_LD, "kb.rdf": ox.RdfFormat.RDF_XML}[name]  # fmt: skip
    path = tmp_path / name
    graph = ox.NamedNode("http://ex.org/g")  # named graphs are flattened into the KB
    quads = [ox.Quad(t.subject, t.predicate, t.object, graph) for t in triples]
    with_graphs = fmt in (ox.RdfFormat.N_QUADS, ox.RdfFormat.TRIG)
    path.write_bytes(ox.serialize(quads if with_graphs else triples, format=fmt))
    stream = stream_kb_file(path, "t")
    streamed = ox.Store()
    for chunk in stream.chunks():
        streamed.bulk_load(input="".join(chunk), format=ox.RdfFormat.N_TRIPLES)
    assert sorted(map(str, (q.triple for q in streamed))) == sorted(map(str, triples))
    assert stream.result().n_triples == len(triples)
