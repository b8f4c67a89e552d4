"""The mixed next action (seed §C): next = argmax γ·P_agent + (1−γ)·P_know.

P_know comes from the state knowledge base: the k nearest state entries (cosine over the
summary vectors) with the same previous action vote for their next action, each with weight
exp((cos − 1) / TAU) (only neighbours at least `min_sim` alike vote, so an unrelated KB or
question gets no push). At the first step, task knowledge of similar past questions adds its
chosen path's first hop to the vote (the "global prior"). Stopping is an action too: the
`GuidedJudge` mixes the judge's reward with P_know(stop).
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.kg.store import KnowledgeGraph
from core.loop import Judgement, State
from core.runs import StoreBusy
from core.trace import Step
from core.wkm import actions
from core.wkm.embed import embed
from core.wkm.index import StateIndex
from core.wkm.store import KnowledgeStore, StateEntry, TaskEntry

MIN_SIM = 0.5  # neighbours less alike than this do not vote
TAU = 0.05  # vote weight exp((cos - 1) / TAU): the nearest states count most (README, WKM)
TASKS_SHOWN = 3
GAMMA_DEFAULT, GAMMA_MIN, GAMMA_MAX = 0.5, 0.3, 0.9  # auto γ (Knowledge.auto_gamma)
MIN_LEARNED = 10


@dataclass
class Knowledge:
    """A loaded snapshot of one KB's live state entries and task knowledge."""

    entries: list[StateEntry]
    index: StateIndex
    tasks: list[TaskEntry]
    task_vecs: np.ndarray
    accuracy: dict[str, tuple[int, int]]  # paradigm -> (learned, right alone)

    @classmethod
    def build(cls, entries: list[StateEntry], tasks: list[TaskEntry],
              accuracy: dict[str, tuple[int, int]] | None = None) -> Knowledge:  # fmt: skip
        vecs = np.stack([e.vec for e in entries]) if entries else np.zeros((0, 1), np.float32)
        task_vecs = np.stack([t.vec for t in tasks]) if tasks else np.zeros((0, 1), np.float32)
        index = StateIndex([e.prev_action for e in entries], vecs)
        return cls(entries, index, tasks, task_vecs, accuracy or {})

    def auto_gamma(self, paradigm: str) -> float:
        """γ when the user leaves it to KnowLoop: the share of the KB's learning questions
        this agent answered right on its own (trust an agent as far as it was right),
        within [GAMMA_MIN, GAMMA_MAX]; GAMMA_DEFAULT until it learned MIN_LEARNED questions."""
        n, right = self.accuracy.get(paradigm, (0, 0))
        if n < MIN_LEARNED:
            return GAMMA_DEFAULT
        return round(min(GAMMA_MAX, max(GAMMA_MIN, right / n)), 3)

    @property
    def empty(self) -> bool:
        return not self.entries and not self.tasks


class KnowledgeCache:
    """The loaded knowledge of one workspace's store, per (KB, paradigm). Owned by the
    workspace's Engine, so a cache never outlives the workspace or serves another's."""

    MAX_ENTRIES = 8

    def __init__(self, root: Path):
        self.root = Path(root)
        self._cache: dict[tuple, tuple] = {}  # (kb, paradigm) -> (file stamp, knowledge, version)
        self._lock = threading.Lock()

    def load(self, kb: str, paradigm: str | None = None) -> Knowledge | None:
        """The live knowledge of `kb` (only from `paradigm`'s trajectories when given); cached
        until the store changes. None when the workspace holds none. While the store's files
        are untouched (size and mtime of the database and its WAL) nothing is queried, so a
        question costs no database round trip."""
        store = KnowledgeStore(self.root)
        stamp = _stamp(store.path)
        if stamp is None:
            return None
        key = (kb, paradigm or "")
        with self._lock:
            cached = self._cache.get(key)
            if cached is not None and cached[0] == stamp:
                return cached[1]
        try:
            version = store.version(kb)
        except StoreBusy:  # writers held the store past the wait: keep the last knowledge read
            return cached[1] if cached is not None else None
        knowledge = None
        if version and (version[0] or version[2]):
            with self._lock:
                old = self._cache.get(key)
                if old is not None and old[2] == version:
                    knowledge = old[1]
            if knowledge is None:
                knowledge = Knowledge.build(
                    store.states(kb, paradigm=paradigm),
                    store.tasks(kb, paradigm=paradigm),
                    store.learn_accuracy(kb),
                )
        with self._lock:
            if len(self._cache) > self.MAX_ENTRIES:
                self._cache.clear()
            self._cache[key] = (stamp, knowledge, version)
        return knowledge

    def neighbours_of(self, kb: str, entry_id: int, k: int = 5) -> list[dict[str, Any]]:
        """The live state entries nearest to entry `entry_id` (same previous action), for
        browsing the state knowledge base; the entry itself is left out."""
        knowledge = self.load(kb)
        if knowledge is None:
            return []
        rows = {e.id: i for i, e in enumerate(knowledge.entries)}
        if entry_id not in rows:
            return []
        entry = knowledge.entries[rows[entry_id]]
        hits = knowledge.index.search(entry.prev_action, entry.vec, k + 1)
        return [
            {
                "id": knowledge.entries[r].id,
                "summary": knowledge.entries[r].summary,
                "next_action": knowledge.entries[r].next_action,
                "sim": round(sim, 3),
            }  # fmt: skip
            for r, sim in hits
            if knowledge.entries[r].id != entry_id
        ][:k]


def load(root: Path, kb: str, paradigm: str | None = None) -> Knowledge | None:
    """The live knowledge of `kb` in the workspace at `root`, read afresh (no cache kept):
    for one-off readers such as benchmarks and tests; the engine uses its KnowledgeCache."""
    return KnowledgeCache(root).load(kb, paradigm)


def _stamp(path: Path) -> tuple | None:
    """What changes when the store file is written (None: there is no store)."""
    try:
        db = path.stat()
    except OSError:
        return None
    wal = path.with_name(path.name + ".wal")
    w = wal.stat() if wal.exists() else None
    return (db.st_mtime_ns, db.st_size, w and w.st_mtime_ns, w and w.st_size)


class Guide:
    """Steers an agent's choices with the knowledge of its KB."""

    def __init__(self, knowledge: Knowledge, kg: KnowledgeGraph | None, gamma: float,
                 k: int = 8, min_sim: float = MIN_SIM):  # fmt: skip
        self.knowledge, self.kg = knowledge, kg
        self.gamma, self.k, self.min_sim = gamma, k, min_sim
        # the judge, the stop check and the choice of one step ask about the same state
        self._near: dict[tuple, tuple[str, list[dict[str, Any]]]] = {}

    # -- state knowledge --------------------------------------------------------------------
    def neighbours(self, state: State, walked: list[str]) -> tuple[str, list[dict[str, Any]]]:
        """The state's summary and its nearest entries with the same previous action."""
        mention = state.walk.mention
        key = (state.question, mention, tuple(walked))
        if key not in self._near:
            self._near[key] = self._search(state.question, mention, walked)
        return self._near[key]

    def _search(self, question: str, mention: str, walked: list[str]):
        text = actions.summary(question, mention, walked, self.kg)
        prev = walked[-1] if walked else actions.START
        hits = self.knowledge.index.search(prev, embed(text), self.k)
        found = []
        for row, sim in hits:
            if sim < self.min_sim:
                continue
            e = self.knowledge.entries[row]
            found.append({"id": e.id, "summary": e.summary, "next": e.next_action,
                          "next_label": actions.label(self.kg, e.next_action),
                          "sim": round(sim, 3)})  # fmt: skip
        return text, found

    def tasks_for(self, state: State) -> list[dict[str, Any]]:
        """Task knowledge of the most similar past questions (shown on the first step)."""
        kn = self.knowledge
        if not kn.tasks:
            return []
        q = embed(actions.mask(state.question, state.walk.mention))
        sims = kn.task_vecs @ q
        out = []
        for i in np.argsort(-sims)[: TASKS_SHOWN * 3]:
            if sims[i] < self.min_sim:
                break
            t = kn.tasks[int(i)]
            if any(o["guidance"] == t.guidance for o in out):
                continue
            sim = round(float(sims[i]), 3)
            out.append({"id": t.id, "pattern": t.pattern, "guidance": t.guidance,
                        "follow": t.follow, "avoid": t.avoid, "sim": sim})  # fmt: skip
            if len(out) == TASKS_SHOWN:
                break
        return out

    def p_know(self, state: State, walked: list[str], candidates: list[str]):
        """P_know over `candidates`, the summary, the neighbours and the task knowledge used
        (first step only). Each neighbour votes for its next action with weight
        exp((cos − 1) / TAU): the seed's count / N is the TAU → ∞ limit, and on the unseen
        scholar KB the kernel vote answered 0.92 of held-out questions against 0.52."""
        text, found = self.neighbours(state, walked)
        tasks = self.tasks_for(state) if not walked else []
        votes = [(n["next"], n["sim"]) for n in found]
        votes += [(t["follow"][0], t["sim"]) for t in tasks if t["follow"]]
        weight = {sim: math.exp((sim - 1.0) / TAU) for _, sim in votes}
        total = sum(weight[w] for _, w in votes)
        probs = [sum(weight[w] for a, w in votes if a == c) / total if total else 0.0
                 for c in candidates]  # fmt: skip
        return probs, text, found, tasks

    def choose(self, state: State, walked: list[str], candidates: list[str],
               p_agent: list[float], agent_best: int | None = None,
               known: tuple | None = None) -> tuple[int, dict[str, Any]]:  # fmt: skip
        """Index of the mixed choice among `candidates` (`agent_best`: the agent's own choice,
        by default the argmax of P_agent), and the record the trace shows. `known`: the
        result of `p_know` for these candidates, when the caller already has it."""
        if agent_best is None:
            agent_best = max(range(len(candidates)), key=lambda i: (p_agent[i], -i))
        if self.gamma >= 1.0:
            return agent_best, {}
        p_know, text, found, tasks = known or self.p_know(state, walked, candidates)
        g = self.gamma
        mix = [g * a + (1 - g) * b for a, b in zip(p_agent, p_know, strict=True)]
        best = max(range(len(candidates)), key=lambda i: (mix[i], i == agent_best, -i))
        order = sorted(range(len(candidates)), key=lambda i: -mix[i])[:12]
        record = {
            "gamma": g,
            "prev_action": actions.label(self.kg, walked[-1]) if walked else actions.START,
            "summary": text,
            "neighbours": found,
            "tasks": tasks,
            "options": [
                {
                    "action": actions.label(self.kg, candidates[i]),
                    "key": candidates[i],
                    "p_agent": round(p_agent[i], 4),
                    "p_know": round(p_know[i], 4),
                    "p_mix": round(mix[i], 4),
                }  # fmt: skip
                for i in order
            ],
            "agent_choice": actions.label(self.kg, candidates[agent_best]),
            "chosen": actions.label(self.kg, candidates[best]),
            "changed": best != agent_best,
        }
        return best, record

    def p_stop(self, state: State, walked: list[str]) -> tuple[float, int]:
        """P_know(stop) after `walked`, and how many neighbours voted (0: no knowledge)."""
        _, found = self.neighbours(state, walked)
        if not found:
            return 0.0, 0
        return sum(n["next"] == actions.STOP for n in found) / len(found), len(found)


def with_stop(state: State, p_hops: list[float]) -> list[float]:
    """P_agent over [stop, *hops]: stop gets the judge's own reward for the state (its
    confidence that the evidence suffices, recorded by `GuidedJudge`), the hops share the
    rest in proportion to `p_hops`."""
    enough = float(state.walk.judged_reward)
    total = sum(p_hops) or 1.0
    return [enough, *((1.0 - enough) * p / total for p in p_hops)]


class GuidedJudge:
    """A judge whose reward is mixed with the state knowledge's P(stop): stopping is the
    agent's action too, and similar expert states that went on lower the reward."""

    def __init__(self, inner, guide: Guide):
        self.inner, self.guide = inner, guide
        self.name = inner.name

    def score(self, state: State, memory: list[Step]) -> Judgement:
        verdict = self.inner.score(state, memory)
        state.walk.judged_reward = verdict.reward  # the agent's own P(enough), unmixed
        walked = state.walk.walked
        if not walked or self.guide.gamma >= 1.0:
            return verdict
        p, n = self.guide.p_stop(state, walked)
        if not n:
            return verdict
        g = self.guide.gamma
        reward = round(g * verdict.reward + (1 - g) * p, 4)
        return Judgement(
            reward,
            f"{verdict.reason}; state knowledge: {n} similar expert state(s), P(stop) = {p:.2f}"
            f", mixed with γ = {g}: {verdict.reward:.2f} → {reward:.2f}",
            verdict.answer_fit,
        )


def guide_for(kg: KnowledgeGraph, settings, paradigm: str,
              cache: KnowledgeCache | None) -> Guide | None:  # fmt: skip
    """The guide for a `paradigm` run on `kg` with these loop settings, from the knowledge in
    `cache` (the workspace's), or None (γ = 1, no workspace, or no knowledge learned yet):
    the agent then decides alone."""
    if (settings.gamma is not None and settings.gamma >= 1.0) or cache is None or kg.path is None:
        return None
    knowledge = cache.load(kg.name, settings.knowledge_from or None)
    if knowledge is None or knowledge.empty:
        return None
    gamma = settings.gamma if settings.gamma is not None else knowledge.auto_gamma(paradigm)
    if gamma >= 1.0:
        return None
    return Guide(knowledge, kg, gamma, settings.knowledge_k)
