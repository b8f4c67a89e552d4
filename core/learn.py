"""`knowloop learn` and ratings → trajectories, state knowledge and task knowledge.

Sources of experience (seed §C; design.md): labelled questions run by an agent (correct →
chosen, wrong → rejected, and the path mined from the KG to the gold answers becomes the
expert trajectory), and runs analysts rated in the app or the CLI. `knowloop eval` never comes
here: its gold answers are only compared against.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.evaluate import LabelledQuestion
from core.judges import chain_hops
from core.kg.store import KnowledgeGraph
from core.loop import LoopSettings
from core.metrics import trace_hits_at_1
from core.runs import RunStore
from core.trace import Trace
from core.wkm import actions
from core.wkm.embed import embed
from core.wkm.mining import mine_path
from core.wkm.store import KnowledgeStore, StateEntry, TaskEntry, Trajectory

if TYPE_CHECKING:  # the engine sits above this module: named here as a type only
    from core.engine import Engine


@dataclass
class LearnReport:
    kb: str
    paradigm: str
    n: int = 0
    correct: int = 0  # the agent's own run was right: a chosen trajectory
    mined: int = 0  # the agent failed and a KG path to the gold answers was found
    unmined: int = 0  # failed, and no path reaches the gold answers
    states: int = 0
    tasks: int = 0
    rated: int = 0  # rated runs turned into trajectories
    skipped: int = 0  # questions learned before (same KB and paradigm)
    rows: list[dict] = field(default_factory=list)

    def summary(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "rows"}


def learn(engine: Engine, questions: list[LabelledQuestion], *, kb: str | None = None,
          paradigm: str = "kg-only", settings: LoopSettings | None = None,
          progress: Callable[[Iterator], Iterator] = lambda it: it) -> LearnReport:  # fmt: skip
    """Run each labelled question with the agent alone (γ = 1) and keep what it teaches."""
    kg = engine.kg(kb)
    settings = replace(settings or LoopSettings(), gamma=1.0)
    root = engine.workspace.root
    store, runs = KnowledgeStore(root), RunStore(root)
    report = LearnReport(kg.name, paradigm)
    report.rated = remember_rated(root, kg)
    done = {t.question for t in store.trajectories(kg.name, paradigm=paradigm)
            if t.origin == "learn"}  # fmt: skip
    for item in progress(questions):
        if item.question in done:  # learning the same file again adds nothing twice
            report.skipped += 1
            continue
        done.add(item.question)
        trace = engine.ask(item.question, kb=kg.name, paradigm=paradigm, settings=settings)
        run_id = runs.save(trace, source="learn")
        report.n += 1
        correct = bool(trace_hits_at_1(trace, item.answers))
        proof = evidence_path(trace)
        walked = proof or walked_path(trace)  # a rejected run keeps what it tried
        mention = mention_of(trace)
        own = Trajectory(0, kg.name, item.question, paradigm,
                         "chosen" if correct and proof else "rejected", "learn", run_id,
                         walked, trace.answer_labels[:10], len(trace.steps))  # fmt: skip
        row = {"question": item.question, "correct": correct, "path": walked}
        if own.outcome == "chosen":
            report.correct += 1
            chosen = own
            own.id = store.add_trajectory(own, state_entries(kg, item.question, mention, walked))
            report.states += len(walked) + 1
        else:
            own.id = store.add_trajectory(own, [])
            anchors = [i for link in trace.linked[:2] for i in link.get("ids", [])[:2]]
            found = mine_path(kg, anchors, item.answers) if anchors else None
            if found is None:
                report.unmined += 1
                row["mined"] = None
                report.rows.append(row)
                continue
            report.mined += 1
            keys = actions.path_keys(found.hops)
            row["mined"] = keys
            chosen = Trajectory(0, kg.name, item.question, paradigm, "chosen", "mined", None,
                                keys, list(item.answers)[:10], 0)  # fmt: skip
            chosen.id = store.add_trajectory(
                chosen, state_entries(kg, item.question, mention, keys)
            )
            report.states += len(keys) + 1
        rejected = None if own.outcome == "chosen" else own
        store.add_task(task_entry(kg, item.question, mention, chosen, rejected, settings))
        report.tasks += 1
        report.rows.append(row)
    return report


def evidence_path(trace: Trace) -> list[str]:
    """The action keys of the path that reached the top answer (empty when it has none)."""
    if not trace.answers or not trace.answers[0].evidence:
        return []
    topics = {i for link in trace.linked for i in link.get("ids", [])}
    hops, _ = chain_hops(trace.answers[0].evidence, topics)
    return actions.path_keys(hops)


def walked_path(trace: Trace) -> list[str]:
    """The action keys of the deepest path a run walked over the KB, read from its hop steps
    (a step's `hop` param is its place on the path, so a run that starts again from its topic
    begins a new path): what a run tried when no answer carries evidence (it found none, or
    an LLM answered). A hop that failed to run is not walked."""
    deepest: list[tuple[str, str]] = []
    current: list[tuple[str, str]] = []
    for step in trace.steps:
        params = step.action.params
        if step.action.kind != "hop" or step.error:
            continue
        rel, direction = params.get("relation"), params.get("direction")
        if not isinstance(rel, str) or direction not in ("out", "in"):
            continue
        at = params.get("hop")
        if not isinstance(at, int) or not 1 <= at <= len(current) + 1:
            at = len(current) + 1
        current = [*current[: at - 1], (rel, direction)]
        if len(current) >= len(deepest):
            deepest = current
    return actions.path_keys(deepest)


def mention_of(trace: Trace) -> str:
    return trace.linked[0].get("text", "") if trace.linked else ""


def state_entries(kg: KnowledgeGraph | None, question: str, mention: str,
                  keys: list[str]) -> list[StateEntry]:  # fmt: skip
    """(previous action, state summary, next action) for every step of an expert path,
    ending with the decision to stop."""
    out = []
    for i, nxt in enumerate([*keys, actions.STOP]):
        walked = keys[:i]
        text = actions.summary(question, mention, walked, kg)
        prev = walked[-1] if walked else actions.START
        out.append(StateEntry(0, kg.name if kg else "", 0, prev, text, nxt, embed(text)))
    return out


def task_entry(kg: KnowledgeGraph, question: str, mention: str, chosen: Trajectory,
               rejected: Trajectory | None, settings: LoopSettings) -> TaskEntry:  # fmt: skip
    """Guidance for questions like this one, from the chosen path against the rejected one:
    written by the LLM when a capable one is configured, else derived by rules."""
    pattern = actions.mask(question, mention)
    follow, avoid = chosen.path, rejected.path if rejected else []
    guidance, method = rule_guidance(kg, pattern, follow, rejected), "rules"
    llm_settings = settings.llm
    if llm_settings is not None and not llm_settings.model.startswith("local/"):
        from core.llm import prompts
        from core.llm.client import LLM, LLMFault

        prompt = prompts.task_guidance(
            pattern, actions.path_text(kg, follow), actions.path_text(kg, avoid) if avoid else ""
        )
        try:
            done = LLM(llm_settings).complete(prompt, purpose="task knowledge", ledger=[],
                                              max_tokens=80, stop=["\n\n"])  # fmt: skip
            text = " ".join(done.texts[0].split())
            if text:
                guidance, method = text[:500], llm_settings.model
        except (LLMFault, ValueError):
            pass  # the rules' guidance stands
    return TaskEntry(0, kg.name, pattern, guidance, follow, avoid,
                     chosen.id or None, rejected.id if rejected else None, method,
                     embed(pattern))  # fmt: skip


def rule_guidance(kg: KnowledgeGraph, pattern: str, follow: list[str],
                  rejected: Trajectory | None) -> str:  # fmt: skip
    text = f"Questions like “{pattern}” are answered by following {actions.path_text(kg, follow)}"
    wrong = rejected.path if rejected is not None else []
    gave = "wrong answers" if rejected is not None and rejected.answers else "no answer"
    if wrong and wrong == follow[: len(wrong)]:
        text += f"; do not stop after {actions.path_text(kg, wrong)} (that gave {gave})"
    elif wrong and wrong != follow:
        text += f"; avoid {actions.path_text(kg, wrong)} (it gave {gave})"
    elif rejected is not None and not rejected.path:
        text += "; the agent alone found no answer"
    return text + "."


def remember_rated(root: Path, kg: KnowledgeGraph) -> int:
    """Turn the runs analysts rated (latest rating wins) into trajectories; a run whose
    rating flipped has its old trajectory deleted (with history). Returns how many changed."""
    store = KnowledgeStore(root)
    repair_paths(root, kg)
    known = {
        t.run_id: t
        for t in store.trajectories(kg.name, include_deleted=True)
        if t.origin == "rating"
    }
    changed = 0
    for run, outcome in RunStore(root).trajectories(kg.name):
        old = known.get(run.id)
        if old is not None and (old.outcome == outcome or old.deleted):
            continue  # known already, or an analyst deleted it: leave it so
        if old is not None:
            store.delete("trajectory", old.id, who="rating changed")
        trace = run.trace
        proof = evidence_path(trace)
        t = Trajectory(0, kg.name, run.question, run.paradigm, outcome, "rating", run.id,
                       proof or walked_path(trace), run.answers[:10],
                       len(trace.steps))  # fmt: skip
        entries = (  # expert states only from a path that proves the answer
            state_entries(kg, run.question, mention_of(trace), proof)
            if outcome == "chosen" and proof
            else []
        )
        store.add_trajectory(t, entries)
        changed += 1
    return changed


def repair_paths(root: Path, kg: KnowledgeGraph) -> int:
    """Once per KB: trajectories stored while only answer evidence gave a path (a run with no
    answer, or one an LLM answered, recorded no hop however far it walked) get the hops
    their run walked. Returns how many were repaired; an empty workspace stays unwritten."""
    store = KnowledgeStore(root)
    key = f"walked_paths:{kg.name}"
    if not store.path.exists() or store.meta(key):
        return 0
    runs, repaired = RunStore(root), 0
    for t in store.trajectories(kg.name, include_deleted=True):
        if t.path or t.run_id is None:
            continue
        try:
            keys = walked_path(runs.get(t.run_id).trace)
        except ValueError:  # the run is gone
            continue
        if keys:
            store.set_path(t.id, keys)
            repaired += 1
    store.set_meta(key, "1")
    return repaired


# -- explaining a trajectory (the Knowledge page) ---------------------------------------------
@dataclass
class TrajectoryDetails:
    """Everything an analyst reads about one trajectory: its run, its hops, and why it is
    chosen or rejected."""

    trajectory: Trajectory
    hops: list[str]  # readable hop labels, in order
    path_from: str  # where the hops come from
    why: str  # why it is chosen or rejected
    rated_by: str  # where the outcome comes from: gold answers or an analyst's rating
    steps: list[dict] = field(default_factory=list)  # the run's steps, as a table
    stop_reason: str = ""
    gold: list[str] = field(default_factory=list)  # gold answers, where known
    counterpart: Trajectory | None = None  # the other side of its task knowledge
    counterpart_role: str = ""
    counterpart_hops: list[str] = field(default_factory=list)
    guidance: str = ""  # the task knowledge drawn from it, if any
    notes: list[str] = field(default_factory=list)


def explain(engine: Engine, kg: KnowledgeGraph, trajectory_id: int) -> TrajectoryDetails:
    """The details of one trajectory (KnowledgeError for an unknown id), read from the
    engine's own stores."""
    store, runs = engine.knowledge, engine.runs
    t = store.trajectory(trajectory_id)
    notes: list[str] = []
    trace = None
    if t.run_id is not None:
        try:
            trace = runs.get(t.run_id).trace
        except ValueError:
            notes.append(f"run #{t.run_id} is no longer stored: its steps cannot be shown")
    keys = t.path or (walked_path(trace) if trace is not None else [])
    task = next((k for k in store.tasks(t.kb) if t.id in (k.chosen_id, k.rejected_id)), None)
    counterpart = None
    if task is not None:
        other = task.rejected_id if task.chosen_id == t.id else task.chosen_id
        counterpart = _trajectory_or_none(store, other)
    gold = list(t.answers) if t.origin == "mined" else []
    if counterpart is not None and counterpart.origin == "mined":
        gold = list(counterpart.answers)
    details = TrajectoryDetails(
        trajectory=t,
        hops=[actions.label(kg, k) for k in keys],
        path_from=_path_from(t, trace, keys),
        why=_why(t, trace, gold),
        rated_by=_rated_by(t, runs),
        gold=gold,
        counterpart=counterpart,
        guidance=task.guidance if task is not None else "",
        notes=notes,
    )
    if counterpart is not None:
        details.counterpart_hops = [actions.label(kg, k) for k in counterpart.path]
        details.counterpart_role = (
            "the expert path mined instead"
            if counterpart.origin == "mined"
            else "the agent's own run it replaces"
        )
    if trace is not None:
        details.stop_reason = trace.stop_reason
        details.steps = [
            {"step": s.index, "action": s.action.description, "found": s.candidates,
             "reward": round(s.reward, 2), "judge": s.error or s.reward_reason}
            for s in trace.steps
        ]  # fmt: skip
    return details


def _trajectory_or_none(store: KnowledgeStore, entry_id: int | None) -> Trajectory | None:
    if entry_id is None:
        return None
    try:
        return store.trajectory(entry_id)
    except ValueError:
        return None


def _path_from(t: Trajectory, trace: Trace | None, keys: list[str]) -> str:
    if t.origin == "mined":
        return "a path mined from the KG to the gold answers"
    if not keys:
        return "the run followed no relation of the KB"
    if trace is None:
        return "as stored"
    if keys == evidence_path(trace):
        return "the evidence path of the top answer"
    return "the deepest path the run walked (no answer carries evidence)"


def _why(t: Trajectory, trace: Trace | None, gold: list[str]) -> str:
    if t.origin == "rating":
        return f"an analyst rated the answer {'good' if t.outcome == 'chosen' else 'bad'}"
    if t.origin == "mined":
        return (
            "the agent alone failed on this question; this path from the question's entity "
            "reaches the gold answers, so it is kept as the expert trajectory"
        )
    if t.outcome == "chosen":
        return "the agent's own top answer is a gold answer and its evidence path proves it"
    if not t.answers:
        return "the agent alone found no answer"
    top = t.answers[0]
    if gold and trace is not None and trace_hits_at_1(trace, gold):
        return f"the agent's top answer {top} is a gold answer, but no evidence path proves it"
    if gold:
        return f"the agent's top answer {top} is not a gold answer ({', '.join(gold[:5])})"
    return f"the agent's top answer {top} is not a gold answer proved by an evidence path"


def _rated_by(t: Trajectory, runs: RunStore) -> str:
    if t.origin != "rating":
        return "the gold answers of the question file (knowloop learn)"
    try:
        rated = [f for f in runs.feedback_for(t.run_id) if f.rating]
    except ValueError:
        rated = []
    if not rated:
        return "a rating that is no longer stored"
    last = rated[-1]
    by = last.who or "an analyst"
    comment = f": “{last.comment}”" if last.comment else ""
    return f"feedback #{last.id} by {by}, rated {'good' if last.rating > 0 else 'bad'}{comment}"
