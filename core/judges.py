"""Judges score whether the gathered information suffices: a reward in [0, 1] with a reason.

The rule judge reads the question analysis and the path that reached the current candidates;
an LLM judge plugs in through the same `score` method.
"""

from __future__ import annotations

from dataclasses import replace

from core.analysis import analyse, asks_count, counted_noun
from core.answer_types import (
    AGREE_SAMPLE,
    answer_fit,
    class_asked,
    class_of_another_noun,
    implies_first_hop,
    of_class_read_as_asked,
)
from core.kg.store import KnowledgeGraph
from core.loop import Judgement, State
from core.path_fit import Explanation, anchor_kind, explain, reached_vector
from core.text import is_plural
from core.trace import Step, Triple


class RuleJudge:
    """reward = how much of the question the path explains (core.path_fit.explain: each
    relation word weighted by how much it needs explaining), halved when the candidates are
    not the kind of answer asked for, and halved again for every hop the question does not
    explain, every relation phrase no hop of its own explains ("X's mother's father" over one
    `parent` hop) and every plan part (another name, a comparison) not applied yet — so no reward
    reaches R while a relation word of the question is unexplained."""

    name = "rules"

    def __init__(self, kg: KnowledgeGraph):
        self.kg = kg

    def score(self, state: State, memory: list[Step]) -> Judgement:
        if not state.frontier:
            return Judgement(0.0, "nothing retrieved")
        reading = state.reading
        qa = reading.analysis or analyse(state.question, self.kg)
        used = reading.used
        chain = next(iter(state.frontier.values()))
        topics = {i for m in used for i in m.ids}
        if reading.hops:  # the agent says what it walked
            hops, side_rels = reading.hops, reading.side_relations
        else:
            hops, side_rels = chain_hops(chain, topics)
        if not hops or not chain:
            return Judgement(0.0, "no relation followed yet")
        first = chain[0]
        start = first.s if first.s in topics else first.o
        fit = explain(qa, hops, used, side_rels, start, implies_first_hop(self.kg, start),
                      anchor_kind(qa, self.kg, start, used[0] if used else None))  # fmt: skip
        rel, direction = hops[-1] if reading.hops else (state.arrival or hops[-1])
        if reading.counted:  # "how many films did X direct": a count is the number asked for
            kind = 1.0
        elif class_asked(qa, self.kg, list(state.frontier), side_rels) is not None \
                or class_of_another_noun(qa, self.kg, list(state.frontier)) is not None:
            kind = -1.0  # "what *nationality* is X's singer": a musician is no country;
            # "which *artists* released *albums* …": these are the albums
        else:
            kind = answer_fit(qa, self.kg, rel, direction, trusted_only=True,
                              reached=reached_vector(self.kg, start, hops))  # fmt: skip
        if kind > KIND_FITS and fit.unexplained and len(hops) > 1 \
                and qa.answer.focus is not None \
                and fit.hop_words[-1:] in ((-1,), (qa.answer.focus,)):  # fmt: skip
            fit = self._left_another_class(qa, fit, state.frontier, rel)
        unused = _names_not_on_path(used, chain)
        said = self._said_of_answers(qa, unused, state.frontier, hops[-1])
        unused = [m for m in unused if m not in said]
        pending = max(reading.pending - sum(m in said for m in reading.pending_names),
                      len(unused))  # fmt: skip
        fits = kind > TYPE_MISMATCH
        # relative to what the best plan on this KB explains: words no relation can explain
        # are not held against the path
        cover = min(1.0, fit.coverage / max(reading.ceiling, MIN_CEILING)) if reading.ceiling \
            else fit.coverage  # fmt: skip
        missing = fit.unexplained + fit.merged + pending
        reward = round(cover * (1.0 if fits else 0.5) * 0.5**missing, 4)
        path = " → ".join(self.kg.label(r) + ("" if d == "out" else "⁻¹") for r, d in hops)
        verdict = "fits" if kind > KIND_FITS else "is not asked" if kind == 0 else (
            "may fit" if fits else "does not fit")  # fmt: skip
        reason = (
            f"path explains {fit.coverage:.0%} of the question's relation words"
            + (f" ({cover:.0%} of what the best plan explains)" if reading.ceiling else "")
            + " "
            f"(path: {path}); answer type {verdict}"
            + (f"; {fit.unexplained} hop(s) the question does not explain" if fit.unexplained
               else "")  # fmt: skip
            + (f"; unexplained: {', '.join(fit.unexplained_words)}" if fit.unexplained_words
               else "")  # fmt: skip
            + (f"; {fit.merged} relation phrase(s) with no hop of their own" if fit.merged
               else "")  # fmt: skip
            + (f"; not applied yet: {pending} part(s) of the plan" if pending else "")
        )
        return Judgement(reward, reason, answer_fit=kind)

    def _left_another_class(self, qa, fit: Explanation, frontier: dict, relation: str
                            ) -> Explanation:  # fmt: skip
        """The last hop, which no word names, is explained by the noun asked about where it
        walked on from nodes of a class another noun of the question names to the kind
        asked for, the class the noun reads most like: "which *researchers* lead *projects*
        financed by T" — the hop from the projects (each an `instance of` research project) to
        their principal investigators (scientists) is what "researchers" asks for."""
        before = list(dict.fromkeys(_node_before(node, chain, relation) for node, chain in
                                    list(frontier.items())[:AGREE_SAMPLE]))  # fmt: skip
        if None in before or class_of_another_noun(qa, self.kg, before) is None \
                or not of_class_read_as_asked(qa, self.kg, list(frontier)):  # fmt: skip
            return fit
        asked = qa.words[qa.answer.focus]
        return replace(fit, unexplained=fit.unexplained - 1,
                       unexplained_words=tuple(w for w in fit.unexplained_words if w != asked))

    def _said_of_answers(self, qa, unused: list, frontier: dict, last_hop: tuple[str, str]
                         ) -> list:  # fmt: skip
        """The names not yet on the path that only say what the answers are: the common noun
        asked about right after "which" / "what", or counted ("which *films* did X direct")
        read as a node (the tag `film`) that no candidate is linked to and that few nodes of
        their kind are (under CLASS_SHARE of those the last hop arrives at) — no class of
        theirs, so no part left to apply. A filter that holds for none is still one ("which
        *comedies*": genre Comedy, a fifth of all films)."""
        if not unused or not frontier:
            return []
        counts = asks_count(qa)  # (the noun counted, whatever comes before it: "count *the*
        focus = counted_noun(qa) if counts else qa.answer.focus  # films", "number *of* films")
        if focus is None:
            return []
        rel, direction = last_hop
        info = self.kg.index.relations.get(rel)
        kind = (info.n_objects if direction == "out" else info.n_subjects) if info else 0
        said = []
        for m in unused:
            if m.named or not m.start <= focus < m.end or not kind or any(
                    self.kg.degree(i) >= CLASS_SHARE * kind for i in m.ids) \
                    or not (counts or qa.words[m.start - 1 : m.start] in (["which"], ["what"])) \
                    or is_plural(qa.words[m.end] if m.end < len(qa.words) else ""):
                continue  # (not "which *sports* films": a noun that says which films)
            linked = {n for i in m.ids for rel, d in self.kg.roles(i)
                      for n in self.kg.edges(i, rel, d)}
            if not linked & frontier.keys():
                said.append(m)
        return said


KIND_FITS = 0.3  # answer_fit above this: the candidates are the kind asked for
TYPE_MISMATCH = -0.5  # answer_fit below this: the candidates are not what was asked for
CLASS_SHARE = 0.02  # a node linked to this share of a kind's nodes may be a class of theirs
MIN_CEILING = 0.3  # a question the KB explains less than this is judged on plain coverage


def chain_hops(chain: list[Triple], topics: set[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Walk an evidence chain from its topic entity: the (relation, direction) hops, and the
    relations of constraint edges (edges to another topic entity, off the path)."""
    if not chain:
        return [], []
    first = chain[0]
    current = first.s if first.s in topics else first.o
    hops: list[tuple[str, str]] = []
    constraints: list[str] = []
    for k, t in enumerate(chain):
        after = chain[k + 1] if k + 1 < len(chain) else None
        if t.s == current and (t.o not in topics or _goes_on(t.o, current, after)):
            hops.append((t.p, "out"))
            current = t.o
        elif t.o == current and (t.s not in topics or _goes_on(t.s, current, after)):
            hops.append((t.p, "in"))
            current = t.s
        else:
            constraints.append(t.p)
    return hops, constraints


def _goes_on(node: str, current: str, after: Triple | None) -> bool:
    """Does the walk go on from a topic entity it reached (the next edge leaves `node`, not
    the node before it: "the age of the captain of X's club", X that captain), rather than
    end a constraint's edge there?"""
    return after is not None and node in (after.s, after.o) and current not in (after.s, after.o)


def _node_before(node: str, chain: list[Triple], relation: str) -> str | None:
    """The node a candidate's evidence chain reached it from over the path's last hop
    (`relation`; a constraint's edge may come after it in the chain)."""
    for t in reversed(chain):
        if t.p == relation and node in (t.s, t.o):
            return t.s if t.o == node else t.o
    return None


def _names_not_on_path(used, chain: list[Triple]) -> list:
    """Topic entities the plan uses (a second one to intersect with) that the path has not
    reached yet: until it does, the judge is not satisfied."""
    nodes = {n for t in chain for n in (t.s, t.o)}
    return [m for m in used if not any(i in nodes for i in m.ids)]


class ConsensusJudge:
    """reward = share of the sampled answers that agree with the most common one (CoT-SC);
    with one sample it says nothing about sufficiency and scores 0.5."""

    name = "consensus"

    def score(self, state: State, memory: list[Step]) -> Judgement:
        votes = sum(state.support.values())
        if not votes:
            return Judgement(0.0, "no answer was sampled")
        top = max(state.support.values())
        if votes == 1:
            return Judgement(0.5, "one sample: agreement cannot be measured")
        return Judgement(round(top / votes, 4), f"{top} of {votes} samples agree")


class LLMJudge:
    """reward = P("yes" | question, gathered facts, candidates) from the LLM's choice between
    yes and no. A failed call falls back to the given judge (the fault is in the reason)."""

    name = "llm"

    def __init__(self, llm, kg: KnowledgeGraph | None, fallback=None):
        self.llm = llm
        self.kg = kg
        self.fallback = fallback

    def score(self, state: State, memory: list[Step]) -> Judgement:
        from core.llm.client import LLMFault
        from core.llm.prompts import judge as judge_prompt

        if not state.frontier and not state.passages:
            return Judgement(0.0, "nothing retrieved")
        chains = [t for chain in list(state.frontier.values())[:5] for t in chain]
        known = list(dict.fromkeys([*state.path, *chains, *state.new]))
        labels = [node_label(self.kg, n) for n in list(state.frontier)[:6]]
        prompt = judge_prompt(state.question, known, state.passages[-3:], labels)
        try:
            choice = self.llm.choose(prompt, ["yes", "no"], purpose="judge",
                                     ledger=state.llm_calls)  # fmt: skip
        except LLMFault as fault:
            if self.fallback is None:
                return Judgement(0.0, f"LLM judge failed ({fault}); no fallback")
            verdict = self.fallback.score(state, memory)
            return Judgement(verdict.reward, f"LLM judge failed ({fault}); rules: {verdict.reason}")
        p_yes = round(choice.probs[0], 4)
        return Judgement(p_yes, f"P(yes) = {p_yes:.2f} from {self.llm.model} ({choice.method})")


def node_label(kg: KnowledgeGraph | None, node: str) -> str:
    """Label of a frontier node: a KG node's label, or the text of a text-only answer."""
    if kg is not None and not (node.startswith('"') and node.endswith('"')):
        return kg.label(node)
    if node.startswith('"') and node.endswith('"'):
        import json

        try:
            return str(json.loads(node))
        except ValueError:
            return node.strip('"')
    return node
