"""Sources page: what the knowledge sources hold. Statistics and the relation histogram of a
KB, an entity's neighbourhood as a graph and a table, the tabular sources, and a read-only
SPARQL console.

UI only: every read goes through the workspace's KnowledgeGraph; SPARQL goes through its
guard (core.kg.sparql_guard), which refuses updates, SERVICE and unbounded queries.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.api import KnowledgeGraph, Workspace, graph_html, neighbourhood_view
from pages._shared import choose_kb, get_engine, md, pick_entity, session_open

GRAPH_LIMIT = 40  # triples drawn around an entity
TABLE_LIMIT = 500  # triples of an entity in the table
GRAPH_HEIGHT = 450
MAX_BARS = 40  # relations in the histogram; the rest are summed in one bar
MAX_ROWS = 1000  # SPARQL rows shown
SPARQL_TIMEOUT_S = 10.0
EXAMPLE_QUERY = "SELECT ?s ?p ?o WHERE {\n  ?s ?p ?o\n}\nLIMIT 10"
COLUMNS = ["subject", "relation", "object"]
RESULT = "src_sparql_result"  # the last console answer: kb, query, result or error


def workspace() -> Workspace:
    """The shared workspace, without importing the bundled KB when others are there."""
    return get_engine(open_default=False).workspace


def render_stats(kg: KnowledgeGraph) -> None:
    stats = kg.stats()
    c1, c2, c3 = st.columns(3)
    c1.metric("Triples", f"{stats['triples']:,}")
    c2.metric("Nodes", f"{stats['nodes']:,}")
    c3.metric("Relations", f"{stats['relations']:,}")
    counts = stats["relation_counts"]
    if counts:
        st.plotly_chart(relation_figure(counts), config={"displayModeBar": False})


def relation_figure(counts: dict[str, int]) -> go.Figure:
    """Triples per relation, largest first; a long tail is summed so the bars stay readable."""
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) > MAX_BARS:
        rest = ranked[MAX_BARS - 1 :]
        ranked = ranked[: MAX_BARS - 1] + [(f"{len(rest)} others", sum(n for _, n in rest))]
    labels, values = zip(*reversed(ranked), strict=True)  # plotly draws bottom-up
    fig = go.Figure(go.Bar(x=values, y=labels, orientation="h", marker_color="#76b7f2"))
    fig.update_layout(
        title="Triples per relation",
        height=max(240, 26 * len(labels) + 80),
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
        xaxis_title="triples",
    )
    return fig


# -- entity ----------------------------------------------------------------------------------
def render_entity(kg: KnowledgeGraph) -> None:
    node = pick_entity(kg, "src_search", "src_pick", "e.g. a name")
    if node is None:
        return
    st.subheader(kg.label(node))
    st.caption(f"`{node}`")
    triples = kg.neighbourhood(node, limit=TABLE_LIMIT, per_relation=TABLE_LIMIT)
    if not triples:
        st.caption("This entity has no triples.")
        return
    drawn = kg.neighbourhood(node, limit=GRAPH_LIMIT)
    st.iframe(
        graph_html(neighbourhood_view(node, kg.label(node), drawn), GRAPH_HEIGHT),
        height=GRAPH_HEIGHT,
    )
    rows = [(t.s_label, t.p_label, t.o_label) for t in triples]
    st.dataframe(pd.DataFrame(rows, columns=COLUMNS), hide_index=True)
    capped = " (capped)" if len(triples) >= TABLE_LIMIT else ""
    st.caption(f"{len(triples)} triples{capped}; the graph draws the first {len(drawn)}.")


# -- tables ----------------------------------------------------------------------------------
def render_tables() -> None:
    """Tables held in DuckDB (schema, row count, preview) and document collections (with a
    search box): the sources beside the graph."""
    sources = get_engine(open_default=False).sources
    try:
        with st.spinner("Importing the bundled table and documents (once)…"):
            sources.ensure_bundled()
        tables, collections = sources.list_tables(), sources.list_collections()
    except (OSError, ValueError) as exc:
        st.error(f"Cannot read the sources: {exc}")
        return
    st.subheader("Tables (DuckDB)")
    if not tables:
        st.info("No table sources yet: import one with `knowloop table FILE.csv`.")
    for table in tables:
        with st.expander(f"{table.name} — {table.rows:,} rows, {len(table.columns)} columns"):
            st.dataframe(pd.DataFrame(table.columns, columns=["column", "type"]), hide_index=True)
            preview = sources.run_sql(f'SELECT * FROM "{table.name}" LIMIT 20')
            st.dataframe(pd.DataFrame(preview.rows, columns=preview.columns), hide_index=True)
    st.subheader("Documents")
    if not collections:
        st.info("No documents yet: import some with `knowloop docs FILE.jsonl`.")
        return
    st.dataframe(
        pd.DataFrame(
            [(c.name, c.documents, c.passages) for c in collections],
            columns=["collection", "documents", "passages"],
        ),
        hide_index=True,
    )
    text = st.text_input("Search the documents (BM25)", key="src_docs_search")
    if text.strip():
        try:
            hits = sources.search(text, k=5)
        except ValueError as exc:
            st.error(str(exc))
            return
        for passage, score in hits:
            st.markdown(
                f"**{md(passage.id)}** · score {score:.2f} · [{md(passage.url)}]"
                f"({passage.url}) · characters {passage.start}–{passage.end}"
            )
            st.caption(md(passage.text[:600]))


# -- SPARQL ----------------------------------------------------------------------------------
def render_sparql(kb: str, kg: KnowledgeGraph) -> None:
    st.caption(
        "Read-only: updates, SERVICE (the network) and unconnected patterns are refused; "
        f"at most {MAX_ROWS:,} rows, {SPARQL_TIMEOUT_S:g} s."
    )
    query = st.text_area("SPARQL query", EXAMPLE_QUERY, key="src_sparql", height=140)
    if st.button("Run", key="src_sparql_run", type="primary"):
        st.session_state[RESULT] = run_query(kb, kg, query)
    last = st.session_state.get(RESULT)
    if last and last["kb"] == kb:
        show_result(last)


def run_query(kb: str, kg: KnowledgeGraph, query: str) -> dict:
    """The answer or the guard's one-line reason; kept so a rerun shows it again."""
    try:
        result = kg.sparql(query, SPARQL_TIMEOUT_S, MAX_ROWS, wanted=session_open())
        return {"kb": kb, "result": result, "error": None}
    except ValueError as exc:  # QueryRefused: a refused, malformed or too slow query
        return {"kb": kb, "result": None, "error": str(exc)}


def show_result(last: dict) -> None:
    if last["error"]:
        st.error(f"Query refused: {last['error']}")
        return
    result = last["result"]
    cut = f" (the first {MAX_ROWS:,}; there are more)" if result.truncated else ""
    st.caption(
        f"{result.kind.upper()}: {len(result.rows):,} rows{cut} in {result.elapsed_ms:,.0f} ms"
    )
    frame = pd.DataFrame(result.rows, columns=result.columns)
    st.dataframe(frame, hide_index=True)


# -- page ------------------------------------------------------------------------------------
def main() -> None:
    st.title("Sources")
    st.markdown(
        "What the knowledge sources hold: a graph's size and relations, any entity's "
        "neighbourhood, the tables, and a read-only SPARQL console."
    )
    kb = choose_kb()
    if kb is None:
        return
    try:
        kg = workspace().kg(kb)
    except ValueError as exc:  # a KB that vanished or a store another process holds
        st.error(f"Cannot open {md(kb)}: {exc}")
        return
    graph, tables, sparql = st.tabs(["Knowledge graph", "Tables & documents", "SPARQL"])
    with graph:
        render_stats(kg)
        render_entity(kg)
    with tables:
        render_tables()
    with sparql:
        render_sparql(kb, kg)


main()
