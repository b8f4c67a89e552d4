"""Data page: bring your own data. Upload a KB file (with relation documentation and
labelled questions), a table or documents; see what the workspace holds; replace or delete
with a confirmation.

UI only: the checks, temporary files, imports and deletes are core.uploads; this page draws
the widgets, the progress bar and the messages.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import streamlit as st

from core.api import DEFAULT_KB, MAX_UPLOAD_MB, KBFileError, Upload, Workspace, uploads
from pages._shared import KB_KEY, choose_kb, get_engine, md

FLASH = "data_flash"  # (kind, text) shown once, after the rerun that follows a change
PENDING = "data_kb_pending"  # a KB refused for malformed lines: what to show, which file
REFUSED = (ValueError, OSError)  # UploadError, KBFileError and the sources' ValueError


def workspace() -> Workspace:
    return get_engine(open_default=False).workspace


def flash(kind: str, text: str) -> None:
    """Keep a message for the next run (a change reruns the page, so lists and the sidebar
    picker show it)."""
    st.session_state[FLASH] = (kind, text)


def show_flash() -> None:
    kind, text = st.session_state.pop(FLASH, (None, ""))
    if kind:
        getattr(st, kind)(text)


def as_upload(file) -> Upload:
    return Upload(file.name, file.getvalue())


def default_name_input(label: str, key: str, file, kind: str) -> str:
    """A name box that follows the uploaded file's name until the user types another."""
    marker = f"{key}_for"
    if file is not None and st.session_state.get(marker) != file.name:
        st.session_state[marker] = file.name
        st.session_state[key] = uploads.default_name(file.name, kind)
    name = st.text_input(label, key=key).strip()
    problem = uploads.name_problem(name, kind) if file is not None else None
    if problem:
        st.caption(f":red[{md(problem)}]")
    return name if not problem else ""


def replace_box(exists: bool, what: str, name: str, key: str, note: str = "") -> bool:
    """Replacing needs a tick; nothing to confirm when nothing of that name exists."""
    if not exists:
        return True
    st.warning(f"A {what} named “{md(name)}” exists.")
    return st.checkbox(f"Replace the existing {what} “{md(name)}”{note}", key=key)


# -- remote SPARQL endpoint ------------------------------------------------------------------
def render_connect(ws: Workspace) -> None:
    st.caption(
        "A knowledge graph that lives in a SPARQL server (Virtuoso, Oxigraph, Fuseki, …): it is "
        "read once to build the index, then queried live; read-only here."
    )
    name = st.text_input("Name", key="data_sparql_name").strip()
    url = st.text_input("SPARQL endpoint URL", key="data_sparql_url",
                        placeholder="http://127.0.0.1:8890/sparql").strip()  # fmt: skip
    graph = st.text_input("Named graph (optional)", key="data_sparql_graph").strip()
    labels = st.text_area(
        "Label predicates (optional, one IRI per line; default rdfs:label)",
        key="data_sparql_labels", height=68,
    )  # fmt: skip
    exists = bool(name) and name in ws.kb_names()
    refresh = replace_box(exists, "KB", name, "data_sparql_refresh", " (read the endpoint again)")
    ready = bool(name and url) and refresh
    if st.button("Connect", key="data_sparql_connect", type="primary", disabled=not ready):
        predicates = [line.strip() for line in labels.splitlines() if line.strip()]
        try:
            with st.spinner(f"Reading {url} once…"):
                info = ws.connect(name, url, graph=graph or None,
                                  label_predicates=predicates or None, refresh=exists)  # fmt: skip
        except REFUSED as exc:
            st.error(f"Nothing connected: {exc}")
            return
        st.session_state[KB_KEY] = name
        flash("success", f"Connected “{info.name}”: {info.triples:,} triples, "
                         f"{info.entities:,} entities, {info.relations} relations indexed "
                         f"in {info.import_seconds:.1f} s.")  # fmt: skip
        st.rerun()


# -- KB --------------------------------------------------------------------------------------
def render_kb_import(ws: Workspace) -> None:
    file = st.file_uploader(
        "KB file",
        key="data_kb_file",
        max_upload_size=MAX_UPLOAD_MB,
        help="RDF (.ttl .nt .nq .rdf/.xml/.owl .jsonld .trig .n3) or delimited triples "
        "'subject|relation|object' per line (| tab or comma; any other extension)",
    )
    name = default_name_input("KB name", "data_kb_name", file, "kb")
    schema = st.file_uploader(
        "Relation documentation (optional, Turtle .ttl)",
        key="data_kb_schema",
        max_upload_size=MAX_UPLOAD_MB,
        help="rdfs:label, rdfs:comment and skos:altLabel of relations, as `knowloop import "
        "--schema`; relative IRIs such as <r/directed_by> name the KB's relations",
    )
    questions = st.file_uploader(
        "Labelled questions (optional, TSV with columns question and answers)",
        key="data_kb_questions",
        accept_multiple_files=True,
        max_upload_size=MAX_UPLOAD_MB,
        help="answers joined by '|'; kept with the KB for examples and evaluation",
    )
    exists = bool(name) and uploads.kb_exists(ws, name)
    note = " (its question files are kept)"
    confirmed = replace_box(exists, "KB", name, "data_kb_replace", note)
    ready = file is not None and bool(name) and confirmed
    if st.button("Import KB", key="data_kb_import", type="primary", disabled=not ready):
        st.session_state.pop(PENDING, None)
        run_kb_import(ws, file, name, exists, schema, questions or [], skip_bad=False)
    render_pending(ws, file, name, exists, schema, questions or [])


def run_kb_import(ws, file, name, replace, schema, questions, *, skip_bad: bool) -> None:
    """Import under a progress bar; malformed lines become a choice, other refusals a
    message, success a rerun onto the new KB."""
    bar = st.progress(0.0, text="Importing…")

    def progress(share: float, phase: str) -> None:
        bar.progress(min(max(share, 0.0), 1.0), text=f"{phase} ({share:.0%})")

    try:
        result = uploads.import_kb(
            ws, as_upload(file), name, skip_bad=skip_bad, replace=replace,
            schema=as_upload(schema) if schema else None,
            questions=[as_upload(q) for q in questions], progress=progress,
        )  # fmt: skip
    except KBFileError as exc:
        bar.empty()
        if not skip_bad and uploads.can_skip_bad(file.name, exc):
            st.session_state[PENDING] = {
                "file": (file.name, file.size), "message": str(exc),
                "rows": uploads.issue_rows(exc.issues),
            }  # fmt: skip
            return
        st.error(f"Nothing imported: {exc}")
        return
    except REFUSED as exc:
        bar.empty()
        st.error(f"Nothing imported: {exc}")
        return
    st.session_state.pop(PENDING, None)
    st.session_state[KB_KEY] = name
    flash("success", uploads.describe_import(result))
    st.rerun()


def render_pending(ws, file, name, replace, schema, questions) -> None:
    """The malformed lines of the last import, and the choice: import nothing, or the good
    lines only (the CLI's --skip-bad)."""
    pending = st.session_state.get(PENDING)
    if not pending:
        return
    if file is None or pending["file"] != (file.name, file.size):
        st.session_state.pop(PENDING, None)  # another file now: the choice is moot
        return
    st.error(f"Nothing imported yet: {pending['message']}")
    st.dataframe(pd.DataFrame(pending["rows"]), hide_index=True, key="data_kb_issues")
    good, nothing = st.columns(2)
    if good.button("Import the good lines", key="data_kb_skip_bad", disabled=not name):
        run_kb_import(ws, file, name, replace, schema, questions, skip_bad=True)
    if nothing.button("Import nothing", key="data_kb_cancel"):
        st.session_state.pop(PENDING, None)
        flash("info", f"Nothing imported from {file.name}.")
        st.rerun()


# -- tables and documents --------------------------------------------------------------------
def render_table_import(root: Path) -> None:
    file = st.file_uploader(
        "Table file (.csv, .tsv or .parquet)",
        key="data_table_file",
        max_upload_size=MAX_UPLOAD_MB,
        help="one table of the Chain-of-Knowledge sources (DuckDB), queried with guarded SQL",
    )
    name = default_name_input("Table name", "data_table_name", file, "table")
    columns = st.file_uploader(
        "Column descriptions (optional, JSON {column: description})",
        key="data_table_columns",
        max_upload_size=MAX_UPLOAD_MB,
        help="what each column means and words people use for it",
    )
    exists = bool(name) and uploads.table_exists(root, name)
    confirmed = replace_box(exists, "table", name, "data_table_replace")
    ready = file is not None and bool(name) and confirmed
    if st.button("Import table", key="data_table_import", type="primary", disabled=not ready):
        with st.spinner(f"Importing {file.name}…"):
            try:
                info = uploads.import_table(
                    root, as_upload(file), name, replace=exists,
                    columns=as_upload(columns) if columns else None,
                )  # fmt: skip
            except REFUSED as exc:
                st.error(f"Nothing imported: {exc}")
                return
        flash("success", uploads.describe_table(info))
        st.rerun()


def render_docs_import(root: Path) -> None:
    file = st.file_uploader(
        "Documents (.txt, .md or .jsonl)",
        key="data_docs_file",
        max_upload_size=MAX_UPLOAD_MB,
        help="a .txt/.md file is one document; a .jsonl has one {id, title, url, text} per "
        "line; cut into passages with a full-text index",
    )
    name = default_name_input("Collection name", "data_docs_name", file, "documents")
    exists = bool(name) and uploads.collection_exists(root, name)
    confirmed = replace_box(exists, "collection", name, "data_docs_replace")
    ready = file is not None and bool(name) and confirmed
    if st.button("Import documents", key="data_docs_import", type="primary", disabled=not ready):
        with st.spinner(f"Importing {file.name} and indexing…"):
            try:
                info = uploads.import_documents(root, as_upload(file), name, replace=exists)
            except REFUSED as exc:
                st.error(f"Nothing imported: {exc}")
                return
        flash("success", uploads.describe_collection(info))
        st.rerun()


# -- what is there, and deleting -------------------------------------------------------------
def render_listing(ws: Workspace) -> None:
    root = ws.root
    try:
        with st.spinner("Importing the bundled table and documents (once)…"):
            uploads.ensure_bundled_sources(root)
        kbs, tables, docs = (
            uploads.kb_rows(ws),
            uploads.table_rows(root),
            uploads.collection_rows(root),
        )
    except REFUSED as exc:
        st.error(f"Cannot read the workspace: {exc}")
        return
    st.subheader("Knowledge graphs")
    st.dataframe(pd.DataFrame(kbs), hide_index=True, key="data_list_kbs")
    delete_control("KB", [r["name"] for r in kbs], "data_del_kb", _delete_kb)
    st.subheader("Tables")
    if tables:
        st.dataframe(pd.DataFrame(tables), hide_index=True, key="data_list_tables")
    else:
        st.caption("No tables yet.")
    delete_control("table", [r["name"] for r in tables], "data_del_table", _delete_table)
    st.subheader("Document collections")
    if docs:
        st.dataframe(pd.DataFrame(docs), hide_index=True, key="data_list_docs")
    else:
        st.caption("No document collections yet.")
    delete_control("collection", [r["name"] for r in docs], "data_del_docs", _delete_docs)


def delete_control(what: str, names: list[str], key: str, action) -> None:
    """Pick, tick "I understand", then delete: nothing goes on one click."""
    if not names:
        return
    with st.expander(f"Delete a {what}"):
        name = st.selectbox(f"{what[0].upper()}{what[1:]} to delete", names, key=key, index=None)
        sure = st.checkbox(f"I understand: the {what} is deleted for good", key=f"{key}_confirm")
        st.button(
            f"Delete {what}", key=f"{key}_go", disabled=not (name and sure),
            on_click=action, args=(name, f"{key}_confirm"),
        )  # fmt: skip


def _deleted(what: str, name: str, confirm_key: str, delete) -> None:
    """Run a delete from a button's callback; the tick is cleared whatever happened."""
    st.session_state[confirm_key] = False
    try:
        delete(name)
    except REFUSED as exc:
        flash("error", f"Not deleted: {exc}")
        return
    flash("success", f"Deleted {what} {name}.")


def _delete_kb(name: str, confirm_key: str) -> None:
    ws = workspace()
    _deleted("KB", name, confirm_key, lambda n: uploads.delete_kb(ws, n))
    if st.session_state.get(KB_KEY) == name and not uploads.kb_exists(ws, name):
        st.session_state[KB_KEY] = DEFAULT_KB


def _delete_table(name: str, confirm_key: str) -> None:
    root = workspace().root
    _deleted("table", name, confirm_key, lambda n: uploads.delete_table(root, n))


def _delete_docs(name: str, confirm_key: str) -> None:
    root = workspace().root
    _deleted("collection", name, confirm_key, lambda n: uploads.delete_collection(root, n))


# -- page ------------------------------------------------------------------------------------
def main() -> None:
    st.title("Data")
    choose_kb()
    show_flash()
    st.caption(
        f"Bring your own knowledge graph, tables and documents. Each file up to "
        f"**{MAX_UPLOAD_MB} MB**; larger ones import with the CLI (`knowloop import`, "
        "`knowloop table`, `knowloop docs`). Nothing changes until an import succeeds."
    )
    ws = workspace()
    kb_tab, sparql_tab, table_tab, docs_tab = st.tabs(
        ["Knowledge graph", "SPARQL endpoint", "Table", "Documents"]
    )
    with kb_tab:
        render_kb_import(ws)
    with sparql_tab:
        render_connect(ws)
    with table_tab:
        render_table_import(ws.root)
    with docs_tab:
        render_docs_import(ws.root)
    st.header("What is there")
    render_listing(ws)


main()
