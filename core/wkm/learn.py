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

from core.engine import Engine
from core.evaluate import LabelledQuestion
from core.judges import chain_hops
from core.kg.store import KnowledgeGraph
from core.loop import LoopSettings
from core.metrics import hits_at_1
from core.runs import RunStore
from core.trace import Trace
from core.wkm import actions
from core.wkm.embed import embed
from core.wkm.mining import mine_path
from core.wkm.store import KnowledgeStore, StateEntry, TaskEntry, Trajectory


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
        correct = bool(hits_at_1(trace.answer_labels, item.answers))
        walked = evidence_path(trace)
        mention = mention_of(trace)
        own = Trajectory(0, kg.name, item.question, paradigm,
                         "chosen" if correct and walked else "rejected", "learn", run_id,
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
    if wrong and wrong == follow[: len(wrong)]:
        text += f"; do not stop after {actions.path_text(kg, wrong)} (that gave wrong answers)"
    elif wrong and wrong != follow:
        text += f"; avoid {actions.path_text(kg, wrong)} (it gave wrong answers)"
    elif rejected is not None and not rejected.path:
        text += "; the agent alone found no answer"
    return text + "."


def remember_rated(root: Path, kg: KnowledgeGraph) -> int:
    """Turn the runs analysts rated (latest rating wins) into trajectories; a run whose
    rating flipped has its old trajectory deleted (with history). Returns how many changed."""
    store = KnowledgeStore(root)
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
        walked = evidence_path(trace)
        t = Trajectory(0, kg.name, run.question, run.paradigm, outcome, "rating", run.id,
                       walked, run.answers[:10], len(trace.steps))  # fmt: skip
        entries = (
            state_entries(kg, run.question, mention_of(trace), walked)
            if outcome == "chosen" and walked
            else []
        )
        store.add_trajectory(t, entries)
        changed += 1
    return changed
