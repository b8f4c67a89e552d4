"""The groundedness check: is what an LLM wrote in a run backed by knowledge?

The LLM's text in a trace (chains of thought, CoK rationales, the answer it chose or wrote)
is split into claims, and each claim is checked against the KB and the evidence the run
retrieved:

- **supported**: a KB triple links two things the claim names by a relation the claim's
  words name (one hop, or two for an answer to a two-relation question), or a source
  passage / table row the run retrieved names every thing the claim names;
- **contradicted**: the claim states one fact (one relation), the KB holds that relation for
  the thing it names, and what the claim says is not among the KB's values;
- **not found**: neither (a name the KB lacks, a fact no source retrieved holds).

Matching uses the question analysis of `core.analysis` (entity linking and the relation word
scores of the KB's own semantics), so no KB's relation names are written here.
"""

from __future__ import annotations

import re

import numpy as np

from core.kg.store import KnowledgeGraph
from core.text import STOPWORDS, names, normalize, tokens
from core.trace import Claim, Passage, Trace

SUPPORTED, CONTRADICTED, NOT_FOUND = "supported", "contradicted", "not found"
RELATION_MATCH = 0.45  # a claim word names a relation at least this well
RELATION_MARGIN = 0.1  # ... and within this of the best relation that word names
ONE_FACT = 0.55  # ... and this well for the claim to be read as that one fact
FACT_RELATIONS = 2  # a word naming more relations than this alike is a type word
MAX_CLAIMS = 12  # per run, besides the answer: a long chain of thought on its first claims
MAX_VALUES = 500  # values of one relation read per node
MAX_MIDDLE = 60  # nodes walked on from after a chain's first hop
_SENTENCE = re.compile(r"(?<=[.!?])(?<!\b[A-Z]\.)\s+|\n+")  # not after an initial
_ANSWER_LINE = re.compile(r"^\s*(final\s+)?answer\s*:", re.I)


def ground(trace: Trace, kg: KnowledgeGraph) -> list[Claim]:
    """Every claim the LLM wrote in the run, checked (empty when no LLM wrote text)."""
    passages = [p for s in trace.steps for p in s.passages if p.verified]
    out: list[Claim] = []
    seen: set[str] = set()
    for text, origin, answer in _claims_of(trace):
        key = normalize(text)
        if key in seen or (len(out) >= MAX_CLAIMS and answer is None):
            continue
        seen.add(key)
        status, reason, evidence = check_claim(text, kg, passages, answer=answer)
        shown = f"{text} → {answer[1]}" if answer else text
        out.append(Claim(shown, origin, status, reason, evidence))
    return out


def _claims_of(trace: Trace):
    """(text, origin, answer) of each claim: sentences of the LLM's own passages and of its
    rationales, and the answer itself read as "question — answer" when an LLM gave it."""
    top = trace.answers[0] if trace.answers else None
    written = [p for s in trace.steps for p in s.passages] + (top.passages if top else [])
    for p in written:
        if not p.verified:
            for sentence in sentences(p.text):
                yield sentence, p.id, None
    for step in trace.steps:
        rationale = step.action.details.get("rationale") or {}
        if rationale.get("before") and not str(rationale["before"]).startswith("("):
            for sentence in sentences(str(rationale["before"])):
                yield sentence, f"rationale (step {step.index})", None
    if top and _llm_answered(trace):
        yield trace.question, "answer", (top.id, top.label)


def _llm_answered(trace: Trace) -> bool:
    """Did an LLM write or pick the answer (an answer step with calls, or text passages)?"""
    wrote = any(s.action.kind == "answer" and s.llm_calls for s in trace.steps)
    return wrote or any(not p.verified for p in trace.answers[0].passages)


def sentences(text: str) -> list[str]:
    """Claims of a text: its sentences of three words or more, without "Answer:" lines (the
    answer is checked as its own claim)."""
    out = []
    for part in _SENTENCE.split(text or ""):
        part = part.strip().strip('"').strip()
        if part and not _ANSWER_LINE.match(part) and len(tokens(part)) >= 3:
            out.append(part)
    return out


def check_claim(text: str, kg: KnowledgeGraph, passages: list[Passage],
                answer: tuple[str, str] | None = None) -> tuple[str, str, list[str]]:  # fmt: skip
    """(status, reason, evidence) of one claim; with `answer` (id, label) the text is a
    question and the claim is that this is its answer."""
    from core.analysis import analyse

    qa = analyse(text, kg)
    # names as written (capitalised, also first in the sentence; bracketed) or long exact
    # ones: "fall under" does not name the film "Fall"
    mentions = [
        m for m in qa.entities
        if m.ids and (m.named or (m.link_score >= 0.9 and (
            m.end - m.start > 1 or qa.tokens[m.start][:1].isupper())))
    ]  # fmt: skip
    facts = _fact_words(qa, mentions)
    if answer:
        return _check_answer(kg, qa, mentions, facts, answer, passages)
    spans = {k for m in mentions for k in range(m.start, m.end)}
    said = _asserted(qa, spans)
    relations = _relations(qa, mentions)
    for m in mentions:
        others = {i for o in mentions if o is not m for i in o.ids}
        found = _linking_fact(kg, m.ids[:3], relations, others, text)
        if found:
            return SUPPORTED, f"the KB holds {found}", [found]
    by_passage = _passage_naming([m.text for m in mentions] + said, passages)
    if by_passage:
        return by_passage
    if said and len(facts) == 1:
        for m in mentions:
            reached = _reached(kg, m.ids[:3], facts)
            if reached:
                return CONTRADICTED, *_kb_says([chain for _, chain in reached])
    if not mentions:
        return NOT_FOUND, "names nothing the KB knows", []
    return NOT_FOUND, "no KB fact or retrieved passage backs it", []


def _check_answer(kg: KnowledgeGraph, qa, mentions, facts: list[set[str]],
                  answer: tuple[str, str], passages: list[Passage]):  # fmt: skip
    """Is the answer what the KB reaches from the question's names over the relations its
    words name, in order? With a comparison in the question ("… came out before 1995") a
    relation word may be the filter, not a hop: a chain over fewer of them counts too."""
    node, label = answer
    targets = set(kg.exact(label)) | ({node} if node.startswith("<") else set())

    def is_answer(value: str) -> bool:
        return value in targets or normalize(kg.label(value)) == normalize(label)

    chains = []
    if mentions and 1 <= len(facts) <= 2:
        subsets = [facts] + ([[f] for f in facts] if qa.comparisons and len(facts) > 1 else [])
        for m in mentions:
            for part in subsets:
                reached = _reached(kg, m.ids[:3], part)
                hit = next((chain for value, chain in reached if is_answer(value)), None)
                if hit:
                    return SUPPORTED, f"the KB holds {' · '.join(hit)}", hit
                if part is facts:
                    chains += [chain for _, chain in reached]
    by_passage = _passage_naming([m.text for m in mentions] + [label], passages)
    if by_passage:
        return by_passage
    if chains:
        return CONTRADICTED, *_kb_says(chains)
    if not mentions:
        return NOT_FOUND, "the question names nothing the KB knows", []
    return NOT_FOUND, "the KB has no path over the question's relations to check it by", []


def _passage_naming(named: list[str], passages: list[Passage]):
    """(supported, reason, [id]) of the first retrieved passage that names all of at least
    two things; None when none does."""
    for p in passages:
        if len(named) >= 2 and all(names(p.text, n) for n in named):
            return SUPPORTED, f"the retrieved {p.source} passage {p.id} names " \
                f"{', '.join(named)}", [p.id]  # fmt: skip
    return None


def _kb_says(chains: list[list[str]]) -> tuple[str, list[str]]:
    shown = [" · ".join(chain) for chain in chains[:3]]
    more = f" (and {len(chains) - 3} more)" if len(chains) > 3 else ""
    return f"the KB says {'; '.join(shown)}{more}", shown


def _word_relations(qa, mentions) -> list[dict[str, float]]:
    """Per relation word of the claim (outside its names): the relations it names nearly as
    well as its best one, with their scores."""
    sem = qa.semantics
    if qa.scores is None or sem is None or not sem.rel_ids:
        return []
    out = []
    for row in qa.scores[qa.word_rows(*mentions)]:
        top = float(row.max())
        near = np.flatnonzero(row >= max(RELATION_MATCH, top - RELATION_MARGIN))
        if near.size:
            out.append({sem.rel_ids[int(r)]: float(row[r]) for r in near})
    return out


def _relations(qa, mentions) -> dict[str, float]:
    """Relations the claim's words name, with the best word's score."""
    out: dict[str, float] = {}
    for named in _word_relations(qa, mentions):
        for rel, score in named.items():
            out[rel] = max(out.get(rel, 0.0), score)
    return out


def _fact_words(qa, mentions) -> list[set[str]]:
    """The facts a claim states: per word that names relations well (≥ ONE_FACT), the
    relations it may mean ("plays" may be "plays for" or "plays position"); words naming
    the same relations are one fact. A word naming many relations alike says what things
    are ("the *films* written by X": films have all those relations), not which fact."""
    facts: list[set[str]] = []
    for named in _word_relations(qa, mentions):
        strong = max(named.values()) >= ONE_FACT
        if strong and len(named) <= FACT_RELATIONS and set(named) not in facts:
            facts.append(set(named))
    return facts


def _reached(kg: KnowledgeGraph, ids, facts: list[set[str]]) -> list[tuple[str, list[str]]]:
    """(value, chain) of the KB's chains from the named thing over the stated facts in order
    (one hop per fact, either order for two): what the KB says the claim's value is."""
    orders = [facts] if len(facts) == 1 else [facts, facts[::-1]]
    chains: list[tuple[str, list[str]]] = []
    for order in orders:
        frontier = [(node, []) for node in ids]
        for rels in order:
            step = []
            for node, chain in frontier[:MAX_MIDDLE]:
                for rel, direction in kg.roles(node):
                    if rel in rels:
                        step += [(v, [*chain, _fact(kg, node, rel, direction, v)])
                                 for v in kg.edges(node, rel, direction, limit=50)]  # fmt: skip
            frontier = step
        chains += frontier
    return chains


def _asserted(qa, spans: set[int]) -> list[str]:
    """Names the claim states besides the linked ones: capitalised runs after its first word
    (what a wrong fact names: "directed by *George C. Gordon*")."""
    runs, current = [], []
    for k, token in enumerate(qa.tokens):
        word = qa.words[k]
        name_like = k > 0 and k not in spans and token[:1].isupper() and word not in STOPWORDS
        if name_like:
            current.append(token)
        elif current and token == "." and len(token) == 1 and current[-1][:1].isupper() \
                and len(current[-1]) == 1:  # fmt: skip
            current[-1] += "."  # an initial: "George C. Gordon"
        else:
            if current:
                runs.append(" ".join(current))
            current = []
    if current:
        runs.append(" ".join(current))
    return runs


def _linking_fact(kg: KnowledgeGraph, ids, relations: dict[str, float], others: set[str],
                  text: str) -> str:  # fmt: skip
    """The fact by which a named thing reaches another named thing (or a value the claim
    writes) over a relation the claim names; "" when there is none."""
    for node in ids:
        for rel, direction in kg.roles(node):
            if rel not in relations:
                continue
            for value in kg.edges(node, rel, direction, limit=MAX_VALUES):
                if value in others or (names(text, kg.label(value)) and value != node
                                       and kg.label(value) != kg.label(node)):  # fmt: skip
                    return _fact(kg, node, rel, direction, value)
    return ""


def _fact(kg: KnowledgeGraph, node: str, rel: str, direction: str, value: str) -> str:
    s, o = (node, value) if direction == "out" else (value, node)
    return kg.triple(s, rel, o).text()

