"""Knowledge page: what the World Knowledge Model has learned for a KB — trajectories (chosen
and rejected), state-knowledge entries with their nearest neighbours, task knowledge — and
deleting bad entries, with history and undo.

UI only: reads and deletions go through core.wkm.store; learning happens in `knowloop learn`
and whenever an analyst rates an answer on the Ask page.
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from core.api import KnowledgeStore, TrajectoryDetails, action_label, explain, path_text
from pages._shared import choose_kb, get_engine, md

MAX_ROWS = 500
NOTICE = "kn_notice"


def store() -> KnowledgeStore:
    return get_engine(open_default=False).knowledge


def delete(kind: str, entry_id: int) -> None:
    """Button callback: soft-delete with history; a refusal becomes one readable line."""
    try:
        n = store().delete(kind, entry_id, who=st.session_state.get("kn_who") or "")
        st.session_state[NOTICE] = ("success", f"Deleted {kind} #{entry_id} ({n} entries).")
    except ValueError as exc:  # KnowledgeError, StoreBusy
        st.session_state[NOTICE] = ("error", f"Not deleted: {exc}")


def undo(kb: str) -> None:
    try:
        n = store().undo(kb, who=st.session_state.get("kn_who") or "")
        st.session_state[NOTICE] = ("success", f"Restored {n} entries.")
    except ValueError as exc:
        st.session_state[NOTICE] = ("error", f"Nothing undone: {exc}")


def render_counts(kb: str) -> None:
    counts = store().counts(kb)
    c = st.columns(4)
    c[0].metric("chosen trajectories", counts["chosen"])
    c[1].metric("rejected trajectories", counts["rejected"])
    c[2].metric("state entries", counts["states"])
    c[3].metric("task knowledge", counts["tasks"])


def pick_row(frame: pd.DataFrame, key: str, what: str, describe=None) -> int | None:
    """The table, then a picker of one of its entries (by id) to inspect or delete;
    `describe(id)` words an entry in the picker."""
    st.dataframe(frame, hide_index=True)
    ids = [int(i) for i in frame["id"]]
    return st.selectbox(f"Select a {what}", ids, index=None, key=key, placeholder=f"{what} id",
                        format_func=describe or str)  # fmt: skip


def render_trajectories(kb: str, kg) -> None:
    f1, f2 = st.columns(2)
    paradigm = f1.selectbox("Paradigm", ["all", "kg-only", "llmxkg", "llm+kg", "llm-only", "cok"],
                            key="kn_paradigm")  # fmt: skip
    outcome = f2.selectbox("Outcome", ["all", "chosen", "rejected"], key="kn_outcome")
    items = store().trajectories(
        kb,
        paradigm=None if paradigm == "all" else paradigm,
        outcome=None if outcome == "all" else outcome,
    )[:MAX_ROWS]
    if not items:
        st.info("No trajectories yet: run `knowloop learn --questions FILE.tsv` or rate answers "
                "on the Ask page.")  # fmt: skip
        return
    frame = pd.DataFrame(
        [{"id": t.id, "outcome": t.outcome, "origin": t.origin, "paradigm": t.paradigm,
          "question": t.question, "path": path_text(kg, t.path), "steps": t.steps,
          "answers": ", ".join(t.answers[:3]),
          "when": dt.datetime.fromtimestamp(t.created_at).strftime("%Y-%m-%d %H:%M")}
         for t in items]
    )  # fmt: skip
    by_id = {t.id: t for t in items}
    chosen = pick_row(frame, "kn_traj_pick", "trajectory",
                      lambda i: f"#{i} {by_id[i].outcome} — {by_id[i].question}")  # fmt: skip
    if chosen is None:
        st.caption("Select a trajectory to see its run: the hops, the answer and why it is "
                   "chosen or rejected.")  # fmt: skip
        return
    try:
        details = explain(get_engine(open_default=False), kg, chosen)
    except ValueError as exc:  # KnowledgeError, StoreBusy
        st.error(f"Cannot show trajectory #{chosen}: {exc}")
    else:
        render_trajectory(details)
    st.button(f"Delete trajectory #{chosen} (and its state entries)", key="kn_del_traj",
              on_click=delete, args=("trajectory", chosen))  # fmt: skip


def render_trajectory(d: TrajectoryDetails) -> None:
    t = d.trajectory
    with st.container(border=True, key="kn_traj_details"):
        st.markdown(f"**Trajectory #{t.id}** · {t.outcome} · {md(t.origin)} · {md(t.paradigm)}"
                    + (" · deleted" if t.deleted else ""))  # fmt: skip
        st.markdown(f"Question: **{md(t.question)}**")
        st.markdown(f"Why {t.outcome}: {md(d.why)}")
        st.markdown(f"Rated by: {md(d.rated_by)}")
        hops = " → ".join(md(h) for h in d.hops) or "no hop"
        st.markdown(f"Hops ({len(d.hops)}, {md(d.path_from)}): {hops}")
        answers = ", ".join(md(a) for a in t.answers[:10]) or "no answer"
        st.markdown(f"Answer: {answers}")
        if d.gold and t.origin != "mined":
            st.markdown(f"Gold answers: {', '.join(md(g) for g in d.gold[:10])}")
        if d.steps:
            st.dataframe(pd.DataFrame(d.steps), hide_index=True)
        if d.stop_reason:
            st.caption(f"Stopped: {md(d.stop_reason)}")
        if d.counterpart is not None:
            c = d.counterpart
            path = " → ".join(md(h) for h in d.counterpart_hops) or "no hop"
            st.markdown(f"{d.counterpart_role.capitalize()}: trajectory #{c.id} "
                        f"({c.outcome}, {md(c.origin)}): {path}")  # fmt: skip
        if d.guidance:
            st.info(f"Task knowledge: {md(d.guidance)}")
        for note in d.notes:
            st.caption(note)


def render_states(kb: str, kg) -> None:
    entries = store().states(kb)[-MAX_ROWS:]
    if not entries:
        st.info("No state knowledge yet: it is built from chosen (expert) trajectories.")
        return
    frame = pd.DataFrame(
        [{"id": e.id, "previous action": action_label(kg, e.prev_action),
          "state summary": e.summary, "next action": action_label(kg, e.next_action)}
         for e in entries]
    )  # fmt: skip
    chosen = pick_row(frame, "kn_state_pick", "state entry")
    if chosen is None:
        st.caption("Select an entry to see its nearest neighbours (same previous action).")
        return
    near = get_engine(open_default=False).knowledge_cache.neighbours_of(kb, chosen)
    st.markdown(f"**Nearest neighbours of entry #{chosen}**")
    if near:
        st.dataframe(
            pd.DataFrame(
                [{"id": n["id"], "state summary": n["summary"],
                  "next action": action_label(kg, n["next_action"]), "cosine": n["sim"]}
                 for n in near]
            ),
            hide_index=True,
        )  # fmt: skip
    else:
        st.caption("no other entry with the same previous action")
    st.button(f"Delete state entry #{chosen}", key="kn_del_state", on_click=delete,
              args=("state", chosen))  # fmt: skip


def render_tasks(kb: str, kg) -> None:
    tasks = store().tasks(kb)[-MAX_ROWS:]
    if not tasks:
        st.info("No task knowledge yet: `knowloop learn` writes it from chosen vs rejected paths.")
        return
    frame = pd.DataFrame(
        [{"id": t.id, "questions like": t.pattern, "guidance": t.guidance,
          "follow": path_text(kg, t.follow),
          "avoid": path_text(kg, t.avoid) if t.avoid else "", "by": t.method}
         for t in tasks]
    )  # fmt: skip
    chosen = pick_row(frame, "kn_task_pick", "task entry")
    if chosen is not None:
        st.button(f"Delete task knowledge #{chosen}", key="kn_del_task", on_click=delete,
                  args=("task", chosen))  # fmt: skip


def render_history(kb: str) -> None:
    rows = store().history(kb)
    st.button("Undo the last deletion", key="kn_undo", on_click=undo, args=(kb,),
              disabled=not any(r["op"] == "delete" for r in rows))  # fmt: skip
    if rows:
        st.dataframe(
            pd.DataFrame(
                [{**r, "at": dt.datetime.fromtimestamp(r["at"]).strftime("%Y-%m-%d %H:%M:%S")}
                 for r in rows]
            ),
            hide_index=True,
        )  # fmt: skip


def main() -> None:
    st.title("Knowledge")
    st.markdown(
        "What KnowLoop has learned from past reasoning (World Knowledge Model): expert and "
        "failed trajectories, the state knowledge that steers each next action, and task "
        "knowledge for kinds of questions. Delete what is wrong; every deletion can be undone."
    )
    kb = choose_kb()
    if kb is None:
        st.info("No knowledge graph in the workspace yet.")
        return
    kg = get_engine(open_default=False).kg(kb)
    try:
        get_engine(open_default=False).feedback.learn_ratings(kb)
    except ValueError as exc:  # a busy store: the page still shows what is there
        st.warning(f"Rated runs not synced yet: {exc}")
    if notice := st.session_state.pop(NOTICE, None):
        getattr(st, notice[0])(notice[1])
    st.text_input("Your name (recorded with deletions)", key="kn_who")
    render_counts(kb)
    tabs = st.tabs(["Trajectories", "State knowledge", "Task knowledge", "History"])
    with tabs[0]:
        render_trajectories(kb, kg)
    with tabs[1]:
        render_states(kb, kg)
    with tabs[2]:
        render_tasks(kb, kg)
    with tabs[3]:
        render_history(kb)


main()
