"""KG editor: find an entity, see its neighbourhood, edit its triples with provenance; review the
fix proposals analysts sent from the Ask page; browse, undo, redo and export the history; and
ask the stored questions an edit affects again, before and after side by side.

UI only: reads go through the workspace's KnowledgeGraph, every change through KBEditor or
FeedbackLoop (core), which log it, refuse conflicts and keep the history.
"""

from __future__ import annotations

import tempfile
import time
from datetime import datetime
from functools import partial
from pathlib import Path

import pandas as pd
import streamlit as st

from core.api import (
    TRIPLE_COLUMNS,
    Edit,
    EditConflict,
    KBEditor,
    KnowledgeGraph,
    Reask,
    Triple,
    Workspace,
    graph_html,
    neighbourhood_view,
    table_changes,
)
from pages._shared import (
    choose_kb,
    diff_text,
    feedback_loop,
    get_engine,
    md,
    pick_entity,
)

TABLE_LIMIT = 500  # triples of one entity in the table
GRAPH_LIMIT = 40  # triples drawn around it
GRAPH_HEIGHT = 450
MAX_REASK = 20  # stored questions asked again at once
EXPORTS = [  # label, file suffix, MIME type
    ("KG as Turtle", ".ttl", "text/turtle"),
    ("KG as N-Triples", ".nt", "application/n-triples"),
    ("History as RDF Patch", ".rdfp", "application/rdf-patch"),
    ("History as JSON lines", ".jsonl", "application/jsonl"),
]

# session-state keys
WHO, QUERY, PICK = "kge_who", "kge_query", "kge_pick"
WHY, ALLOW_NEW, ENTRY = "kge_why", "kge_allow_new", "kge_entry"
LOADED = "kge_loaded"  # the table being edited: kb, node, version, triples, widget key
LAST = "kge_last"  # the last accepted change and its re-ask state
TABLE_MSG, QUEUE_MSG, HISTORY_MSG = "kge_table_msg", "kge_queue_msg", "kge_history_msg"


def change_diff(added: list[Triple | str], removed: list[Triple | str]) -> str:
    """A change as diff lines ("- " removed, "+ " added), every line written the way the
    history and the saved change write a triple, "subject —relation→ object" (Triple.text):
    the table's typed "subject|relation|object" rows read like the loaded triples they
    replace."""
    return diff_text([_as_triple(t) for t in added], [_as_triple(t) for t in removed])


def _as_triple(item: Triple | str) -> Triple | str:
    """A typed "subject|relation|object" as a Triple of its labels, for display only."""
    if isinstance(item, Triple):
        return item
    parts = [p.strip() for p in str(item).split("|")]
    return Triple(*parts, *parts) if len(parts) == 3 else item


# -- access to core --------------------------------------------------------------------------
def workspace() -> Workspace:
    return get_engine(open_default=False).workspace


def editor(kb: str) -> KBEditor:
    return workspace().editor(kb)


def who() -> str:
    return (st.session_state.get(WHO) or "").strip()


def say(slot: str, kind: str, text: str) -> None:
    """Keep a message for the next run of the page (callbacks cannot draw)."""
    st.session_state[slot] = (kind, text)


def show_message(slot: str) -> tuple[str, str] | None:
    message = st.session_state.get(slot)
    if message:
        kind, text = message
        {"error": st.error, "warning": st.warning, "info": st.info, "success": st.success}.get(
            kind, st.warning
        )(text)
    return message


# -- the last change and re-asking -------------------------------------------------------------
def remember(edit: Edit, title: str) -> None:
    """After any accepted change: find the stored questions it affects, for the re-ask panel."""
    last = {"edit": edit, "title": title, "affected": [], "results": None, "error": None}
    try:
        last["affected"] = feedback_loop(open_default=False).affected(edit)
    except ValueError as exc:  # StoreBusy
        last["error"] = f"cannot list the affected questions: {exc}"
    st.session_state[LAST] = last


def dismiss_last() -> None:
    st.session_state.pop(LAST, None)


def render_last() -> None:
    last = st.session_state.get(LAST)
    if not last:
        return
    edit: Edit = last["edit"]
    with st.container(border=True, key="kge_last_panel"):
        why = f" — {md(edit.why)}" if edit.why else ""
        st.success(f"**{md(last['title'])}**{why}")
        with st.expander("What changed"):
            st.code(diff_text(edit.added, edit.removed), language="diff")
        if last["error"]:
            st.warning(last["error"])
        affected = last["affected"][:MAX_REASK]
        if not affected:
            st.caption("No stored question used what changed, so none needs asking again.")
        else:
            st.markdown(f"**Stored questions that used what changed ({len(last['affected'])})**")
            st.markdown(
                "\n".join(
                    f"- {md(run.question)} — answered "
                    f"{md(', '.join(run.answers[:3]) or 'nothing')} (run #{run.id})"
                    for run in affected
                )
            )
            if st.button("Re-ask", key="kge_reask", type="primary"):
                with st.spinner("Asking again on the edited graph…"):
                    try:
                        last["results"] = feedback_loop(open_default=False).reask(
                            edit, runs=affected
                        )
                    except ValueError as exc:
                        last["error"] = f"re-asking failed: {exc}"
                        st.warning(last["error"])
            if last["results"] is not None:
                render_reasks(last["results"])
        st.button("Dismiss", key="kge_dismiss", on_click=dismiss_last)


def render_reasks(results: list[Reask]) -> None:
    for r in results:
        with st.container(border=True):
            marker = "🔄 changed" if r.changed else "= same"
            st.markdown(f"**{md(r.run.question)}** · {marker}")
            before, after = st.columns(2)
            with before:
                st.caption("Before")
                (st.warning if r.changed else st.info)(answer_list(r.before))
            with after:
                st.caption("After")
                (st.success if r.changed else st.info)(answer_list(r.after.answer_labels))


def answer_list(labels: list[str]) -> str:
    if not labels:
        return "no answer"
    more = f" (+{len(labels) - 5} more)" if len(labels) > 5 else ""
    return ", ".join(f"**{md(label)}**" for label in labels[:5]) + more


# -- entity: search, graph, table --------------------------------------------------------------
def render_entity(kb: str) -> None:
    kg = workspace().kg(kb)
    node = pick_entity(kg, QUERY, PICK, "e.g. Black Snake Moan", radio=True)
    if node is None:
        return
    loaded = st.session_state.get(LOADED)
    if not loaded or loaded["kb"] != kb or loaded["node"] != node:
        loaded = load_table(kb, node)
    st.subheader(kg.label(node))
    st.caption(f"`{node}`")
    render_graph(kg, node)
    render_table(kb, loaded)


def load_table(kb: str, node: str) -> dict:
    """Load the entity's triples and remember the KB version they were read at."""
    version = editor(kb).version  # read before the data: a later edit is a conflict, not lost
    triples = workspace().kg(kb).neighbourhood(node, limit=TABLE_LIMIT, per_relation=TABLE_LIMIT)
    loaded = {
        "kb": kb,
        "node": node,
        "version": version,
        "triples": triples,
        "key": f"kge_table_{time.time_ns()}",  # a fresh editor: unsaved edits are dropped
    }
    st.session_state[LOADED] = loaded
    return loaded


def reload_table() -> None:
    loaded = st.session_state.get(LOADED)
    if loaded:
        load_table(loaded["kb"], loaded["node"])
    st.session_state.pop(TABLE_MSG, None)


def render_graph(kg: KnowledgeGraph, node: str) -> None:
    triples = kg.neighbourhood(node, limit=GRAPH_LIMIT)
    if not triples:
        st.caption("This entity has no triples to draw.")
        return
    view = neighbourhood_view(node, kg.label(node), triples)
    st.iframe(graph_html(view, GRAPH_HEIGHT), height=GRAPH_HEIGHT)


def render_table(kb: str, loaded: dict) -> None:
    rows = pd.DataFrame(
        [(t.s_label, t.p_label, t.o_label) for t in loaded["triples"]], columns=TRIPLE_COLUMNS
    )
    st.data_editor(
        rows,
        key=loaded["key"],
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={c: st.column_config.TextColumn(c, required=True) for c in TRIPLE_COLUMNS},
    )
    now = editor(kb).version
    newer = f"; the KB is now at version {now}" if now != loaded["version"] else ""
    capped = " (capped)" if len(loaded["triples"]) >= TABLE_LIMIT else ""
    st.caption(
        f"{len(loaded['triples'])} triples{capped} loaded at version {loaded['version']}{newer}. "
        "Edit cells, add rows at the bottom or delete rows; names not in the graph become new "
        "entities."
    )
    changes = table_changes(loaded["triples"], st.session_state.get(loaded["key"]))
    if changes.add or changes.remove:
        st.markdown("**Unsaved changes**")
        st.code(change_diff(changes.shown, changes.remove), language="diff")
    for problem in changes.problems:
        st.warning(problem)
    c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
    c1.text_input("Why (required)", key=WHY, placeholder="e.g. the director was wrong")
    c2.checkbox(
        "Allow new relation names",
        key=ALLOW_NEW,
        help="a relation the graph does not have yet is created only when this is ticked",
    )
    buttons = st.container(horizontal=True)
    buttons.button("Save changes", key="kge_save", type="primary", on_click=save_table, args=(kb,))
    buttons.button(
        "Reload", key="kge_reload_table", on_click=reload_table, help="drop unsaved edits"
    )
    message = show_message(TABLE_MSG)
    if message and message[0] == "warning":  # a conflict: offer to start from the current KB
        st.button(
            "Reload at the current version",
            key="kge_reload_conflict",
            on_click=reload_table,
            type="primary",
        )


def save_table(kb: str) -> None:
    """Save button callback: the table's diff as one edit based on the loaded version."""
    loaded = st.session_state.get(LOADED)
    if not loaded:
        return
    changes = table_changes(loaded["triples"], st.session_state.get(loaded["key"]))
    why = (st.session_state.get(WHY) or "").strip()
    if changes.problems:
        return say(TABLE_MSG, "error", "Not saved: " + "; ".join(changes.problems))
    if not changes.add and not changes.remove:
        return say(TABLE_MSG, "info", "Nothing to save: the table is unchanged.")
    if not why:
        return say(TABLE_MSG, "error", "Not saved: say why you make this change (required).")
    try:
        edit = editor(kb).edit(
            add=changes.add,
            remove=changes.remove,
            why=why,
            who=who(),
            base_version=loaded["version"],
            allow_new_relation=bool(st.session_state.get(ALLOW_NEW)),
        )
    except EditConflict as exc:
        return say(TABLE_MSG, "warning", f"Not saved — someone else edited meanwhile: {exc}")
    except ValueError as exc:  # EditError: one readable line, nothing changed
        return say(TABLE_MSG, "error", f"Not saved: {exc}")
    st.session_state[WHY] = ""
    st.session_state[ALLOW_NEW] = False
    st.session_state.pop(TABLE_MSG, None)
    remember(edit, f"Saved #{edit.id}")
    load_table(kb, loaded["node"])


# -- fix proposals ---------------------------------------------------------------------------
def render_queue(kb: str) -> None:
    loop = feedback_loop(open_default=False)
    show_message(QUEUE_MSG)
    try:
        proposals = loop.runs.proposals(kb=kb, status=None)
    except ValueError as exc:
        st.error(f"Cannot read the proposals: {exc}")
        return
    pending = [p for p in proposals if p.status == "pending"]
    if not pending:
        st.info(
            "No fix proposal waits for review. On the Ask page, give feedback with triples "
            "to add or remove to send one here."
        )
    version = editor(kb).version
    for p in pending:
        with st.container(border=True, key=f"kge_proposal_{p.id}"):
            st.markdown(f"**Proposal #{p.id}** · feedback #{p.feedback_id} on run #{p.run_id}")
            try:
                run = loop.runs.get(p.run_id)
                feedback = next(
                    (f for f in loop.runs.feedback_for(p.run_id) if f.id == p.feedback_id), None
                )
            except ValueError as exc:
                st.warning(f"run #{p.run_id}: {exc}")
            else:
                answered = ", ".join(run.answers[:3]) or "nothing"
                st.markdown(f"Question: **{md(run.question)}** — answered {md(answered)}")
                if feedback:
                    rating = {1: "👍", -1: "👎"}.get(feedback.rating, "")
                    by = f" by {md(feedback.who)}" if feedback.who else ""
                    st.markdown(f"Feedback{by}: {rating} {md(feedback.comment or '(no comment)')}")
            st.code(diff_text(p.add, p.remove), language="diff")
            row = st.container(horizontal=True, vertical_alignment="center")
            row.button(
                "Accept",
                key=f"kge_accept_{p.id}",
                type="primary",
                on_click=accept_proposal,
                args=(p.id, version),
            )
            row.button("Reject", key=f"kge_reject_{p.id}", on_click=reject_proposal, args=(p.id,))
            row.checkbox("allow new relation names", key=f"kge_accept_new_{p.id}")
    decided = [p for p in proposals if p.status != "pending"]
    if decided:
        with st.expander(f"Decided proposals ({len(decided)})"):
            st.dataframe(
                pd.DataFrame(
                    [
                        {
                            "proposal": p.id,
                            "status": p.status,
                            "edit": f"#{p.edit_id}" if p.edit_id else "",
                            "by": p.decided_by,
                            "when": _when(p.decided_at),
                            "change": diff_text(p.add, p.remove).replace("\n", " · "),
                        }
                        for p in reversed(decided)
                    ]
                ),
                hide_index=True,
            )


def accept_proposal(proposal_id: int, version: int) -> None:
    try:
        edit = feedback_loop(open_default=False).accept(
            proposal_id,
            who=who(),
            base_version=version,
            allow_new_relation=bool(st.session_state.get(f"kge_accept_new_{proposal_id}")),
        )
    except EditConflict as exc:
        return say(QUEUE_MSG, "warning", f"Proposal #{proposal_id} not applied: {exc}")
    except ValueError as exc:  # EditError, FeedbackError, StoreBusy
        return say(QUEUE_MSG, "error", f"Proposal #{proposal_id} not applied: {exc}")
    st.session_state.pop(QUEUE_MSG, None)
    remember(edit, f"Accepted proposal #{proposal_id} as #{edit.id}")


def reject_proposal(proposal_id: int) -> None:
    try:
        feedback_loop(open_default=False).reject(proposal_id, who=who())
    except ValueError as exc:
        return say(QUEUE_MSG, "error", f"Proposal #{proposal_id}: {exc}")
    say(QUEUE_MSG, "info", f"Rejected proposal #{proposal_id}.")


# -- history ---------------------------------------------------------------------------------
def render_history(kb: str) -> None:
    ed = editor(kb)
    history = ed.history()
    undone = ed.undone()
    show_message(HISTORY_MSG)
    if not history:
        st.info(f"No edits yet: {kb} is as imported.")
    else:
        newest_first = list(reversed(history))
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "id": e.id,
                        "when": _when(e.at),
                        "kind": e.kind + (f" #{e.target}" if e.target is not None else ""),
                        "who": e.who,
                        "why": e.why,
                        "+": len(e.added),
                        "−": len(e.removed),
                        "undone?": "undone" if e.id in undone else "",
                        "feedback": f"#{e.feedback_id}" if e.feedback_id else "",
                    }
                    for e in newest_first
                ]
            ),
            hide_index=True,
        )
        by_id = {e.id: e for e in history}
        pick = st.selectbox(
            "Entry",
            [e.id for e in newest_first],
            format_func=lambda i: f"#{i} {by_id[i].kind} — {by_id[i].why or '(no reason)'}",
            key=f"{ENTRY}_{ed.version}",  # a new entry selects the newest again
        )
        entry = by_id[pick]
        st.code(diff_text(entry.added, entry.removed), language="diff")
        target = entry.id if entry.kind == "edit" else entry.target
        version = ed.version
        buttons = st.container(horizontal=True)
        buttons.button(
            f"Undo #{target}",
            key="kge_undo",
            disabled=target is None or target in undone,
            on_click=undo_redo,
            args=(kb, "undo", target, version),
        )
        buttons.button(
            f"Redo #{target}",
            key="kge_redo",
            disabled=target is None or target not in undone,
            on_click=undo_redo,
            args=(kb, "redo", target, version),
        )
    st.markdown("**Download**")
    downloads = st.container(horizontal=True)
    for label, suffix, mime in EXPORTS:
        downloads.download_button(
            label,
            data=partial(export_bytes, ed, suffix),  # made only when clicked
            file_name=f"{kb}-v{ed.version}{suffix}",
            mime=mime,
            key=f"kge_export{suffix}",
            on_click="ignore",
        )


def undo_redo(kb: str, kind: str, target: int, version: int) -> None:
    ed = editor(kb)
    try:
        do = ed.undo if kind == "undo" else ed.redo
        edit = do(target, who=who(), base_version=version)
    except EditConflict as exc:
        return say(HISTORY_MSG, "warning", f"Not done: {exc}")
    except ValueError as exc:
        return say(HISTORY_MSG, "error", f"Not done: {exc}")
    st.session_state.pop(HISTORY_MSG, None)
    remember(edit, f"{'Undid' if kind == 'undo' else 'Redid'} #{target} (entry #{edit.id})")


def export_bytes(ed: KBEditor, suffix: str) -> bytes:
    """KBEditor.export writes a file; hand its bytes to the download button."""
    with tempfile.TemporaryDirectory(prefix="knowloop-export-") as tmp:
        path = Path(tmp) / f"{ed.name}{suffix}"
        ed.export(path)
        return path.read_bytes()


def _when(at: float | None) -> str:
    return datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M:%S") if at else ""


# -- page ------------------------------------------------------------------------------------
def render_header(kb: str) -> None:
    c1, c2 = st.columns([4, 1], vertical_alignment="bottom")
    c1.text_input("Your name", key=WHO, help="recorded with every change you make")
    c2.metric("Version", editor(kb).version, help="id of the last change (0: as imported)")


def main() -> None:
    st.title("KG editor")
    st.markdown(
        "Correct the knowledge graph: every change is logged with who and why, can be undone, "
        "and the stored questions it affects can be asked again."
    )
    kb = choose_kb()
    if kb is None:
        return
    if workspace().kg(kb).remote:
        st.info(
            f"**{kb}** is a remote SPARQL endpoint, read-only here: edit its data at the source "
            "(KnowLoop sends no SPARQL Update). Pick an imported KB to edit."
        )
        return
    render_header(kb)
    render_last()
    entity, queue, history = st.tabs(
        ["Entity", "Fix proposals", "History"], key="kge_tab", on_change="rerun"
    )
    with entity:
        render_entity(kb)
    with queue:
        render_queue(kb)
    with history:
        render_history(kb)


main()
