"""Answer typing: does what a relation path arrives at fit the kind of answer the question asks
for (a person, a place, a time, a number, a category, the noun asked about)? By English rules
over relation labels (`rule_type_fit`), by the text model over what a relation reaches
(`answer_fit`), and a hop's kind word ("X's *mother*": a female parent, `hop_kind`).
"""

from __future__ import annotations

import numpy as np

from core import lexnet
from core.analysis import (
    ARTICLES,
    AUXILIARIES,
    CATEGORY_NOUNS,
    COPULAS,
    HAS_SHARE,
    HOP_EXPLAINED,
    PERSON_WORDS,
    PLACE_WORDS,
    WH_WORDS,
    QuestionAnalysis,
    compound_noun,
    head_noun,
    label_doer,
    literal_kinds,
    role_codes,
    said_of_a_name,
)
from core.chain import role_verbs
from core.kg.semantics import RelationSemantics, semantics_for
from core.kg.store import KnowledgeGraph
from core.text import STOPWORDS, normalize, singular, word_forms
from core.textmodel import norm, sentence_model


def rule_type_fit(qa: QuestionAnalysis, kg: KnowledgeGraph, code: int) -> float:
    """The answer type by English rules over relation labels alone, in [-1, 1]: who → the
    agent of an agentive relation ("directed by", "actors": the person is the object); when
    → a year; a noun that names a relation by its form → a role whose nodes that noun names
    (core.kg.semantics kind words: "which *club*" → clubs, which have a "club country", not
    the countries `club country` reaches)."""
    sem = semantics_for(kg)
    rel, forward = sem.rel_ids[code >> 1], code % 2 == 0
    info = kg.relation(rel)
    if qa.answer.wh == "person":
        if info.agentive and not _people_to_things(sem, code & ~1):
            return 1.0 if forward else -1.0
        return 0.0 if info.object_kind == "entity" else -1.0
    if qa.answer.wh == "time":
        return 1.0 if forward and info.object_kind == "year" else -1.0
    row = qa.focus_row
    if qa.subject_roles:  # "which *records*": what `recorded at` is said of
        return 1.0 if code in qa.subject_roles else -1.0
    if row is not None and qa.role_lex[row, :-1].max() > 0:
        return 1.0 if sem.kind_forms[code] & _focus_head(qa, sem) else -1.0
    return 0.0


def _people_to_things(sem: RelationSemantics, forward: int) -> bool:
    """Does a relation lead from people to what is not (its subjects have what people have,
    its objects do not)? Then an agent noun for a label ("employer") names no person, and
    "who" does not ask for its object."""
    return _people_alike(sem, forward ^ 1) and not _people_alike(sem, forward)


def _focus_head(qa: QuestionAnalysis, sem) -> frozenset[str]:
    """The word forms of the noun asked about, read to the end of its compound when the
    next words are words of the KB's relation names ("the *release year* of X" asks for a
    year, not a release): the last word is the head."""
    if "focus-head" not in qa._cache:
        i = qa.answer.focus
        while i + 1 < len(qa.words) and word_forms(qa.words[i + 1]) & sem.label_forms:
            i += 1
        qa._cache["focus-head"] = word_forms(qa.words[i])
    return qa._cache["focus-head"]


def nearest_relation(qa: QuestionAnalysis, used=()) -> int | None:
    """The relation named by form nearest the noun asked about, or the question word (the
    last hop, in English questions; `_asked_head`), as a relation index — by meaning where
    that noun heads "N of" and names none by form ("the *daughters* of X's siblings")."""
    anchor = _asked_head(qa)
    reads = qa.lexical.copy()
    head = qa.row_of(anchor)
    if head is not None and reads[head].max() <= 0:
        # "the *daughters* of X's siblings": the head of "N of" names the last hop — by
        # meaning where no relation has its form; so does the last part of a possessive
        # chain that ends the question ("who are X's sibling's *sons*"), or, read too weakly,
        # no hop does — not the part before it (not "who is X's *sister* married to": the
        # predicate's)
        last_part = qa.words[anchor - 1 : anchor] == ["'s"] and anchor == len(qa.words) - 1
        if qa.words[anchor + 1 : anchor + 2] == ["of"] or last_part:
            named = qa.named[head, :-1]
            if last_part and named.max() < NAMES_RELATION:
                return None
            reads[head] = np.where(named >= NAMES_RELATION, named, -1.0)
    rows = qa.word_rows(*used)
    # (not a verb before "as M": "employed *as* a banker" says how the answers link to M)
    roles = {rows[i] for i, _ in role_verbs(qa, rows, used)}
    rows = [r for r in rows if reads[r].max() > 0 and r not in roles]
    if anchor is None or not rows:
        return None
    row = min(rows, key=lambda r: (abs(qa.word_tokens[r] - anchor), -reads[r].max()))
    return int(np.argmax(reads[row]))


def _asked_head(qa: QuestionAnalysis) -> int | None:
    """The token the last hop is named nearest: the noun asked about, or after "who is" /
    "what are" the head of the predicate — "who are X's spouse's *parents*" (a possessive
    chain's last part), "who are the *parents* of X's son"."""
    focus = qa.answer.focus
    if focus is None or qa.words[focus] not in WH_WORDS or focus + 2 >= len(qa.words) \
            or qa.words[focus + 1] not in COPULAS:  # fmt: skip
        return focus
    start = focus + 2
    names = {i - start for m in qa.entities if m.named for i in range(m.start, m.end)
             if i >= start}  # fmt: skip
    head = head_noun(qa.words[start:], names)
    return focus if head is None else start + head


def implies_first_hop(kg: KnowledgeGraph, node: str) -> bool:
    """Does the node take part in one relation only (a value such as a profession or a
    genre), so that starting from it says which relation is meant?"""
    return len(kg.index.roles.get(node, ())) == 1


def attribute_agreement(qa: QuestionAnalysis, kg: KnowledgeGraph, candidates: list[str],
                        used=()) -> dict[str, int]:  # fmt: skip
    """Candidates whose own categorical attributes the question's words describe: "who is
    X's *father*" prefers the parent whose gender reads "male", "which *defenders* …" the
    players whose position is defender. Per categorical relation of the KB (few distinct
    values, core.kg.semantics), the value the relation words are most alike wins when it
    stands out from the others; each candidate scores the number of such wins it holds."""
    sem = semantics_for(kg)
    rows = qa.word_rows(*used)
    # ... and the class relations ("instance of": every node has one), by the noun asked
    # about alone: "which *companies* …" prefers the candidates that are businesses, not the
    # cities and universities the same walk reaches
    focus = qa.focus_row
    classes = sem.class_relations if focus is not None and focus in rows else []
    if len(candidates) < 2 or not rows or not (sem.categorical or classes):
        return {}
    vectors = qa.vectors[rows]
    said = _answer_pronoun(qa.words)
    if said:  # "X's pa, who is *he*": the answer's own pronoun says what a noun would
        vectors = np.vstack([vectors, sem.model.embed_words([said])])
    out: dict[str, int] = {}
    for rel in [*sem.categorical, *classes]:
        values = {n: kg.edges(n, rel, "out", limit=3) for n in candidates[:AGREE_SAMPLE]}
        distinct = sorted({v for vs in values.values() for v in vs})
        if len(distinct) < 2:
            continue
        said_by = qa.vectors[[focus]] if rel in classes else vectors
        sims = said_by @ sem.model.embed_many([kg.label(v) for v in distinct]).T
        best = sims.max(axis=0)  # per value: the best word
        order = np.argsort(-best)
        if best[order[0]] < AGREE_MIN or best[order[0]] - best[order[1]] < AGREE_MARGIN:
            continue
        winner = distinct[int(order[0])]
        for n, vs in values.items():
            if winner in vs:
                out[n] = out.get(n, 0) + 1
    return out


def class_asked(qa: QuestionAnalysis, kg: KnowledgeGraph, candidates: list[str],
                side_relations: list[str] = ()) -> tuple[str, str] | None:  # fmt: skip
    """(class relation, class node) the noun asked about names where none of the candidates
    is of that class: "what *nationality* is X's lead singer" reads like the class `country`
    far more than like `musician`, the class of the singer the walk reached — the walk has
    not arrived. By the contextual encoder (static vectors read "records" as a record
    label); the class must lead the candidates' own classes by CLASS_LEAD. None where the
    KB has no class relation, the question asks for no noun or a candidate is of it."""
    sem = semantics_for(kg)
    focus = qa.answer.focus
    if qa.answer.wh != "thing" or focus is None or not sem.class_relations or not candidates:
        return None
    if said_by(qa, sem, side_relations):
        return None  # "the T *alumni* who won P": educated at T, whatever class it reads like
    after = qa.words[focus + 1] if focus + 1 < len(qa.words) else ""
    if (after and (after not in STOPWORDS or after in ("and", "or"))) \
            or said_of_a_name(qa, focus):  # fmt: skip
        return None  # a modifier ("which *chemicals* companies", "*food* and beverage
        # companies"), a relation ("the *members* of X")
    sample = candidates[:AGREE_SAMPLE]
    key = ("class-asked", *sample)  # (the judge asks, then the rule agent, of one frontier)
    if key not in qa._cache:
        # (not of bare values, a sector or a genre, which have nothing but their class: "what
        # *field* does X operate in" asks for the category itself, whatever "field" reads like)
        bare = all(sem.bare_value(n) for n in sample)
        qa._cache[key] = None if bare else _class_asked(qa, kg, sample)
    return qa._cache[key]


def class_of_another_noun(qa: QuestionAnalysis, kg: KnowledgeGraph, candidates: list[str]
                          ) -> tuple[str, str] | None:  # fmt: skip
    """(class relation, class node) of the candidates where another noun of the question than
    the one asked about names that class: "which *artists* released *albums* on the label X
    founded" — the walk reached the label's albums, which "albums" names, not the artists
    asked for, so it has not arrived. None where the question asks for no noun, or names no
    class the candidates all have, or the noun asked about names it too ("which *albums*
    share a producer with the *album* X")."""
    sem = semantics_for(kg)
    focus = qa.answer.focus
    if qa.answer.wh != "thing" or focus is None or not sem.class_relations or not candidates:
        return None  # ("who" asks for no noun: "who else is in the same *business* as X")
    sample = candidates[:AGREE_SAMPLE]
    key = ("class-of-another-noun", *sample)  # (the judge asks, then the rule agent)
    if key not in qa._cache:
        qa._cache[key] = _class_of_another_noun(qa, kg, sample)
    return qa._cache[key]


def _class_of_another_noun(qa: QuestionAnalysis, kg: KnowledgeGraph, sample: list[str]
                           ) -> tuple[str, str] | None:  # fmt: skip
    sem, focus = semantics_for(kg), qa.answer.focus
    asked = singular(qa.words[focus])
    shared = {rel: _shared_classes(kg, sample, rel) for rel in sem.class_relations}
    for mention in qa.entities:
        if mention.named or mention.start <= focus <= mention.end \
                or singular(qa.words[mention.end - 1]) == asked:  # fmt: skip
            continue  # (nor a noun right before the one asked about: "which *drama* films",
            # "which *learned society* counts X as a member", its noun read past a verb)
        for rel in sem.class_relations:
            for cls in set(mention.ids) & set(kg.index.reach.get(2 * sem.code[rel], ())):
                if cls in shared[rel] and not _reads_like_class(qa, kg, rel, cls):
                    return rel, cls
    return _class_by_head(qa, kg, shared, asked)


def _class_by_head(qa: QuestionAnalysis, kg: KnowledgeGraph, shared: dict[str, set[str]],
                   asked: str) -> tuple[str, str] | None:  # fmt: skip
    """A class all candidates share (`shared`: per class relation) whose name's head is a
    word of the question outside any name, the noun asked about and the word right before
    it: "which researchers lead *projects* financed by T" — the projects are each an
    `instance of` research project, a class no mention links ("projects" alone names no
    node)."""
    focus = qa.answer.focus
    inside = {i for m in qa.entities for i in range(m.start, m.end)}
    words = {singular(qa.words[i]) for i in qa.word_tokens
             if i not in inside and i not in (focus, focus - 1)}  # fmt: skip
    words.discard(asked)
    if not words:
        return None
    for rel, classes in shared.items():
        for cls in sorted(classes):
            head = normalize(kg.label(cls)).split()[-1:]
            if head and singular(head[0]) in words and not _reads_like_class(qa, kg, rel, cls):
                return rel, cls
    return None


def of_class_read_as_asked(qa: QuestionAnalysis, kg: KnowledgeGraph, candidates: list[str]
                           ) -> bool:  # fmt: skip
    """Are the candidates all of the class the noun asked about reads most like ("which
    *researchers*": each an `instance of` scientist)?"""
    sem, sample = semantics_for(kg), candidates[:AGREE_SAMPLE]
    if qa.answer.focus is None or not sample:
        return False
    return any(_reads_like_class(qa, kg, rel, cls) for rel in sem.class_relations
               for cls in _shared_classes(kg, sample, rel))  # fmt: skip


def _shared_classes(kg: KnowledgeGraph, nodes: list[str], rel: str) -> set[str]:
    """The classes (objects of class relation `rel`) every one of the nodes has."""
    found = kg.edges_from(nodes, rel, "out", limit=5)
    return set.intersection(*(set(found.get(node, ())) for node in nodes))


def _reads_like_class(qa: QuestionAnalysis, kg: KnowledgeGraph, rel: str, cls: str) -> bool:
    """Is class `cls` the class of relation `rel` the noun asked about reads most like (by the
    contextual encoder) — another word for the same kind ("which *firm* …" of a KB whose
    firms are each an `instance of` business)?"""
    classes = sorted(kg.index.reach.get(2 * semantics_for(kg).code[rel], ()))
    return classes[int(np.argmax(_focus_class_sims(qa, kg, rel, classes)))] == cls


def _focus_class_sims(qa: QuestionAnalysis, kg: KnowledgeGraph, rel: str, classes: list[str]
                      ) -> np.ndarray:  # fmt: skip
    """How like the noun asked about the labels of the classes of class relation `rel` read,
    by the contextual encoder (memoised per question: the judge and the agent ask per step)."""
    key = ("focus-class-sims", rel)
    if key not in qa._cache:
        vecs = sentence_model().encode([qa.words[qa.answer.focus],
                                        *(kg.label(c) for c in classes)])  # fmt: skip
        qa._cache[key] = vecs[1:] @ vecs[0]
    return qa._cache[key]


def said_by(qa: QuestionAnalysis, sem: RelationSemantics, relations: list[str]) -> bool:
    """Is the noun asked about said of the answers by one of these relations (a constraint's
    on the walk) — read as well by it, by its name or what it reaches, as by any relation
    ("the Thistlewick College *alumni*": `educated at`)?"""
    row = qa.focus_row
    if row is None or not relations:
        return False
    reading = qa.relation_reading(row)
    return any(reading[sem.code[r]] >= qa.best[row] - SAID_SLACK
               for r in relations if r in sem.code)  # fmt: skip


SAID_SLACK = 0.02  # see said_by


def _class_asked(qa: QuestionAnalysis, kg: KnowledgeGraph, sample: list[str]
                 ) -> tuple[str, str] | None:  # fmt: skip
    sem = semantics_for(kg)
    for rel in sem.class_relations:
        classes = sorted(kg.index.reach.get(2 * sem.code[rel], ()))
        have = {c for found in kg.edges_from(sample, rel, "out", limit=3).values() for c in found}
        if len(classes) < 2 or not have:
            continue
        sims = _focus_class_sims(qa, kg, rel, classes)
        best = int(np.argmax(sims))
        own = max((float(sims[k]) for k, c in enumerate(classes) if c in have), default=-1.0)
        if classes[best] not in have and sims[best] - own >= CLASS_LEAD:
            return rel, classes[best]
    return None


# see class_asked: how much more like the noun the class asked for must read (0.2 until
# 2026-12-06: "which *acts* are on the label X founded" reads `band` 0.16 above `album`; the
# bare-value rule came with it, for "what *field* does X operate in")
CLASS_LEAD = 0.15


def _answer_pronoun(words: list[str]) -> str | None:
    """The noun a pronoun standing for the answer implies: "who is *she*" → "woman"."""
    for i, w in enumerate(words[:-2]):
        if w in ("who", "whom") and words[i + 1] in AUXILIARIES:
            return _PRONOUN_NOUNS.get(words[i + 2])
    return None


_PRONOUN_NOUNS = {"she": "woman", "her": "woman", "he": "man", "him": "man"}
AGREE_SAMPLE = 60
# a categorical value the question's words describe: the closest must be at least AGREE_MIN
# alike and lead the next by AGREE_MARGIN. Colloquial kin words read their gender weakly but
# clearly ("mom": 0.15 "female", 0.03 "male"; "mama" 0.09 / 0.01): the lead says more than
# the closeness (0.2 until 2026-12-05: +6 tuning and +1 held-out family questions, 0 lost)
AGREE_MIN = 0.08
AGREE_MARGIN = 0.08
AGREE_HOP = 0.05  # see `hop_kind`: how much more a word reads as one kind than the others


def hop_kind(kg: KnowledgeGraph, word: str, hop: tuple[str, str]) -> tuple[str, str] | None:
    """The (categorical relation, value) a hop's word says the nodes it reaches have, where it
    says one: "X's *mother*'s birthplace" walks `parent`, and "mother" reads as a *female*
    parent more than the relation's own name does. Per categorical relation that most nodes
    reached over the hop have (core.kg.semantics: few distinct values), each value v scores
    how much more the word is like "v <relation>" than the relation's name is — the name's
    own lean (an encoder's bias toward one value) cancels out; the best value must lead the
    next by AGREE_HOP with the contextual encoder and with the static vectors alike (either
    alone reads slang by accident: "bro" as a Taoist). A word the dictionary defines as a term
    for a plainer one is read as that one ("mom": "informal terms for a *mother*"). None when
    no value stands out."""
    word = lexnet.term_for(word) or word
    sem = semantics_for(kg)
    rel, direction = hop
    name = kg.label(rel) if direction == "out" else (
        kg.label(sem.inverse[rel]) if rel in sem.inverse else None)  # fmt: skip
    if name is None or not sem.categorical or normalize(word) == normalize(name):
        return None
    code = role_codes(sem, [hop])[0]
    model = sentence_model()
    for cat in sem.categorical:
        cat_code = 2 * sem.code[cat]
        if sem.follow_share[code, cat_code] < HAS_SHARE:
            continue
        values = sorted(kg.index.reach.get(cat_code, ()))
        if not 2 <= len(values) <= 12:
            continue
        vecs = model.encode([word, name, *(f"{kg.label(v)} {name}" for v in values)])
        lean = vecs[2:] @ vecs[0] - vecs[2:] @ vecs[1]  # (values,)
        # ... and by the static vectors: the value's label against the word and the name
        labels = np.stack([sem.model.embed(normalize(kg.label(v))) for v in values])
        static = labels @ sem.model.embed(normalize(word)) - labels @ sem.model.embed(
            normalize(name))  # fmt: skip
        order, by_static = np.argsort(-lean), np.argsort(-static)
        if order[0] == by_static[0] and lean[order[0]] - lean[order[1]] >= AGREE_HOP \
                and static[order[0]] - static[by_static[1]] >= AGREE_HOP:  # fmt: skip
            return cat, values[int(order[0])]
    return None


# -- answer typing ----------------------------------------------------------------------------
def concept_vector(kg: KnowledgeGraph, concept: str) -> np.ndarray:
    sem = semantics_for(kg)
    key = ("concept", concept)
    cache = kg.__dict__.setdefault("_concepts", {})
    if key not in cache:
        text = {"person": PERSON_WORDS, "place": PLACE_WORDS}.get(concept, concept)
        cache[key] = sem.model.embed(text)
    return cache[key]


def answer_fit(qa: QuestionAnalysis, kg: KnowledgeGraph, rel_id: str, direction: str,
               trusted_only: bool = False, reached: np.ndarray | None = None
               ) -> float:  # fmt: skip
    """How well arriving over (relation, direction) gives the kind of answer asked for, in
    [-1, 1]; 0 when the question does not say. Literal kinds decide time and number; for
    persons, places, choices and type nouns, what the role reaches is compared by meaning
    with the best any role of the KB reaches. `trusted_only` (the judge): a type noun counts
    against a relation only when it names another relation ("which *director*"); by what
    roles reach it only counts for (names of films or companies say little of their kind).
    `reached`: the vector of what this hop reaches where the path is (`path_reach`)."""
    sem = semantics_for(kg)
    code = sem.code[rel_id] * 2 + (0 if direction == "out" else 1)
    kind = sem.kinds[code >> 1] if direction == "out" else "entity"
    wh = qa.answer.wh
    if wh in ("time", "number"):
        return 1.0 if kind in literal_kinds(qa) else -1.0
    if kind in ("year", "number") and wh in ("person", "place"):
        return -1.0
    if wh in ("person", "place", "choice"):
        fit = sem.relative_reach(_asked_vector(qa, kg, sem), code, reached)
        if wh == "person" and trusted_only and fit < 0.0 and _people_alike(sem, code):
            return 0.0  # ("who coaches X": coaches with rare first names have what people have)
        if wh == "person" and fit < 0.0 and _doer_named(qa, sem, code):
            return 1.0  # "who *employs* X": the doer of what the question names, person or not
        return fit
    if wh == "thing" and _asks_for_a_category(qa):
        # "what *sort of* movie is X": a category X has — one of few values many share (a
        # genre, a profession), reached forwards
        return 1.0 if direction == "out" and sem.shared_values[code >> 1] else -1.0
    if wh == "thing" and qa.answer.focus is not None:
        row = qa.focus_row
        if row is not None and qa.role_names[row, code] >= NAMES_RELATION \
                and _names_arrival(qa, sem, code):
            return 1.0  # the noun names the relation that reaches the answer ("which league")
        fit = sem.relative_reach(_asked_vector(qa, kg, sem), code, reached)
        if not trusted_only:
            return fit
        if row is not None and qa.role_names[row, :-1].max() >= NAMES_RELATION \
                and not sem.same_kind(code)[int(np.argmax(qa.role_names[row, :-1]))]:
            return -1.0  # it names another relation ("which director" answered by a genre)
        return max(0.0, fit)  # ("which *nation*" names `nationality`, but `located in` from
        # a city reaches the same countries)
    return 0.0


def _doer_named(qa: QuestionAnalysis, sem: RelationSemantics, code: int) -> bool:
    """Does role `code` arrive at the doer of its relation's verb (the nodes it reaches hold a
    role of `doer_roles`: the object of `employer`) while a word that says what "who" does
    names that relation ("who *employs* X's partner")? Then "who" asks for that doer, a firm as
    well as a person."""
    # (not "who *is employed* where X is": the verb's subject, not its doer)
    if code ^ 1 in doer_roles(sem) and any(
            float(qa.role_names[row, code]) >= NAMES_RELATION for row in _doer_words(qa)):
        return True
    # ... and a role the verb right after "who" names best of all and more than the walk the
    # other way (a relation stored both ways says which side the verb's doer is on), arriving
    # at nodes that mostly do what some label says is done (`doer_share`): "who *owns* X" —
    # the firm X's `parent organization` is. Not a noun phrase ("who were the *PhD students*
    # of Y" are people), nor a relation named alike both ways ("who *studied* under Y" is no
    # university Y attended)
    verbs = [row for row in _doer_words(qa) if qa.word_tokens[row] == qa.answer.focus + 1]
    return any(float(qa.role_names[row, code]) >= max(float(qa.best[row]) - 1e-6, HOP_EXPLAINED)
               and qa.role_names[row, code] > qa.role_names[row, code ^ 1] + DOER_SIDE
               for row in verbs) and doer_share(sem, code) >= DOER_MAJORITY  # fmt: skip


def _doer_words(qa: QuestionAnalysis) -> list[int]:
    """The score rows of the words that say what "who" does: the verb right after it ("who
    *employs* X"), the noun phrase "who is the" leads to ("who are the *lead performers* of
    X's albums"), or the participle before a last "by whom" ("X's albums were *performed*
    by whom"). Memoised per question: the planner asks for every path's last hop."""
    if "doer-words" in qa._cache:
        return qa._cache["doer-words"]
    at, words = qa.answer.focus, qa.words
    rows: list[int | None] = []
    if at is not None and words[at] in ("who", "whom"):
        if at >= 2 and words[at - 1] == "by" and words[at] == "whom":
            start = end = at - 2
        elif at + 3 < len(words) and words[at + 1] in COPULAS and words[at + 2] in ARTICLES:
            start = end = at + 3
            while end + 1 < len(words) and qa.row_of(end + 1) is not None:
                end += 1
        else:
            start = end = at + 1
        rows = [qa.row_of(t) for t in range(start, end + 1)]
    qa._cache["doer-words"] = [r for r in rows if r is not None]
    return qa._cache["doer-words"]


def _people_alike(sem: RelationSemantics, code: int) -> bool:
    """Do the nodes role `code` reaches have only what the nodes of the KB's most person-like
    role have (PEOPLE_ALIKE of their relations, by the share of nodes that have each; class
    relations aside)? First names say who is a person only where the text model knows them
    ("Arne", "Mikel" read less like people than "David"); what the nodes have does not."""
    cache = sem.__dict__.setdefault("_people_alike", {})
    if code not in cache:
        person = concept_vector(sem.kg, "person")
        sims = sem.reach_vecs @ person
        best = int(np.argmax(sims)) if len(sims) else code
        n = 2 * len(sem.rel_ids)
        own = np.array([c % 2 == 0 and sem.rel_ids[c >> 1] not in sem.class_relations
                        for c in range(n)])  # fmt: skip
        has = sem.follow_share[code, :n] * own
        people = sem.follow_share[best, :n] * own
        total = float(has.sum())
        cache[code] = total > 0 and float(np.minimum(has, people).sum()) / total >= PEOPLE_ALIKE
    return cache[code]


PEOPLE_ALIKE = 0.8  # see _people_alike


def _asked_vector(qa: QuestionAnalysis, kg: KnowledgeGraph, sem: RelationSemantics
                  ) -> np.ndarray:  # fmt: skip
    """The vector of the kind of answer a who / where / choice / type-noun question asks
    for, compared with what roles reach (memoised per question: the planner asks for every
    path's last hop)."""
    if "asked-vector" not in qa._cache:
        wh = qa.answer.wh
        if wh in ("person", "place"):
            vec = concept_vector(kg, wh)
        elif wh == "choice":
            vec = sem.model.embed(" ".join(qa.answer.choices))
        elif _asks_for_people(qa):
            vec = concept_vector(kg, "person")  # "which *graduates* …": people
        else:  # the noun asked about, read with its singular, which names the kind
            word = qa.words[qa.answer.focus]
            vec = sem.model.embed_words([word, singular(word)]).sum(axis=0)
            vec /= max(norm(vec), 1e-9)
            vec = _with_genus(qa, sem, vec)
        qa._cache["asked-vector"] = vec
    return qa._cache["asked-vector"]


def _asks_for_people(qa: QuestionAnalysis) -> bool:
    """Is the noun asked about one the dictionary defines as a kind of person ("list the
    *graduates* of …", `lexnet.names_a_person`) — the head of its phrase, not a modifier
    of a noun after it ("which *national* team": a national is a person, a team is not)?"""
    at, words = qa.answer.focus, qa.words
    after = words[at + 1] if at + 1 < len(words) else ""
    named = any(m.start <= at + 1 < m.end for m in qa.entities if m.named)
    if after.isalpha() and after not in STOPWORDS and not named and lexnet.is_noun(after):
        return False
    return lexnet.names_a_person(words[at])


def _with_genus(qa: QuestionAnalysis, sem: RelationSemantics, vec: np.ndarray) -> np.ndarray:
    """A noun asked about that reads like nothing any role reaches ("X's children's alma
    *maters*") is read with what its dictionary definition says it is a kind of (a *school*;
    of the compound it heads, where WordNet lists one), where that kind reads like something
    some role reaches."""
    if not len(sem.reach_vecs) or float((sem.reach_vecs @ vec).max()) >= GENUS_BELOW:
        return vec
    at = qa.answer.focus
    word = qa.words[at]
    if at > 0 and qa.words[at - 1] and compound_noun(qa.words[at - 1], word):
        word = f"{qa.words[at - 1]}_{word}"
    genus = [w for w in dict.fromkeys(lexnet.genus_words(word))
             if w.isalpha() and w not in STOPWORDS]  # fmt: skip
    kind = sem.model.embed_words(genus).mean(axis=0) if genus else vec
    kind = kind / max(norm(kind), 1e-9)
    if float((sem.reach_vecs @ kind).max()) < GENUS_BELOW:
        return vec  # (nor where the genus reads like nothing reached either)
    out = vec + kind
    return out / max(norm(out), 1e-9)


GENUS_BELOW = 0.3  # see _with_genus: a noun reading every role's reach worse than this
NAMES_RELATION = 0.6  # a type noun matching a relation this well names it ("director")
DOER_SAMPLE = 200  # nodes read per role for `doer_share`
DOER_MAJORITY = 0.5  # a role arriving at doers this often may answer "who" (`_doer_named`)
DOER_SIDE = 0.02  # ... where the verb names it this much more than the walk the other way


def doer_roles(sem: RelationSemantics) -> frozenset[int]:
    """The role a doer holds, per relation whose label says which side does its verb
    (`label_doer`: the object of `funded by` or `doctoral advisor`, the subject of `author
    of`); memoised per KB."""
    roles = sem.__dict__.get("_doer_roles")
    if roles is None:
        sides = [label_doer(sem.kg.label(r)) for r in sem.rel_ids]
        roles = frozenset(2 * i + (1 if side else 0)
                          for i, side in enumerate(sides) if side is not None)  # fmt: skip
        sem._doer_roles = roles
    return roles


def doer_share(sem: RelationSemantics, code: int) -> float:
    """The share of the nodes role `code` reaches that do what some label of the KB says is
    done (`doer_roles`) — what "who" may be answered by, a person or a firm; a project or a
    paper does nothing (memoised per KB)."""
    cache = sem.__dict__.setdefault("_doer_share", {})
    if code not in cache:
        doers, roles = doer_roles(sem), sem.kg.index.roles
        nodes = list(sem.kg.index.reach.get(code, ()))[:DOER_SAMPLE]
        cache[code] = (sum(1 for n in nodes if doers & set(roles.get(n, ()))) / len(nodes)
                       if nodes else 0.0)  # fmt: skip
    return cache[code]


def typed_by_rule(qa: QuestionAnalysis) -> bool:
    """Does a fixed rule decide the kind of answer (a time, a number, a category: `answer_fit`
    gives 1 or -1), not how near a noun's meaning is to what roles reach? Only such a verdict
    may send the loop past a complete plan on its own."""
    return qa.answer.wh in ("time", "number") or (
        qa.answer.wh == "thing" and _asks_for_a_category(qa))


def _asks_for_a_category(qa: QuestionAnalysis) -> bool:
    """Is the noun asked about a word for a category, followed by "of" ("what *kind* of
    company is X") or by the verb that says whose ("what *types* are the films X wrote")?"""
    i = qa.answer.focus
    return (i is not None and qa.words[i] in CATEGORY_NOUNS and i + 1 < len(qa.words)
            and (qa.words[i + 1] == "of" or qa.words[i + 1] in COPULAS))  # fmt: skip


def _names_arrival(qa: QuestionAnalysis, sem: RelationSemantics, code: int) -> bool:
    """Does the noun asked about name what the role arrives at, not only its relation? "which
    *clubs* play in L" names `plays for club`, but walked backwards that relation arrives at
    players. Where the KB's labels name the noun's kind for some role (core.kg.semantics
    `kind_heads`), only those roles arrive at it; where they name it for none, the relation's
    name is all there is to go by."""
    forms = word_forms(qa.words[qa.answer.focus])
    if sem.kind_heads[code] & forms:
        return True
    return not any(heads & forms for heads in sem.kind_heads)
