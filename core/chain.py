"""The hop structure of a question, read from its grammar: how many hops a question's
possessive chain, "of" parts and relative clauses ask for (`chain_length`), the parts of a
possessive chain (`possessive_parts`) and the order in which its words should be met along a
path (`order_ranks`). English grammar only; no KB's relation names.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core import lexnet
from core.analysis import (
    ARTICLES,
    AUXILIARIES,
    CATEGORY_NOUNS,
    COPULAS,
    DO_SUPPORT,
    FRAME_WORDS,
    HOP_EXPLAINED,
    PARTITIVES,
    PERSON_NOUNS,
    PREPOSITIONS,
    QUANTITY_NOUNS,
    RELATIVE_PRONOUNS,
    STRANDABLE,
    WH_WORDS,
    EntityMention,
    QuestionAnalysis,
    do_question,
    verb_form,
    whole_names,
)
from core.text import STOPWORDS, word_forms


def possessive_parts(words: list[str], end: int) -> list[range]:
    """The token ranges of a possessive chain after a name ending at `end`: "X's *son*'s
    *partner*'s *nationality* …" — each part runs to the next "'s", a relative pronoun or a
    function word ("of" excepted: "X's place of birth"; not one left at the end, "what did
    X's father die *of*": the verb's)."""
    parts, j, n = [], end, len(words)
    while j < n and words[j] == "'s":
        k = j + 1
        while k < n and words[k] != "'s" and words[k] not in RELATIVE_PRONOUNS and (
            words[k] not in STOPWORDS or (words[k] == "of" and k + 1 < n)
        ):  # fmt: skip
            k += 1
        parts.append(range(j + 1, k))
        j = k
    return parts


def _clause_end(words: list[str], start: int) -> int:
    """Where a relative clause that goes on after its subject at `start` ends: after its verb
    (which a possessive part may have taken: "X's brother *works*") and the prepositions it
    strands ("that X works *for*"); the end of the question where nothing is stranded."""
    n, k = len(words), start
    if k < n and words[k] not in STRANDABLE:
        while k < n and (not words[k] or words[k] in STOPWORDS):
            k += 1
        k += 1  # the verb
    if k >= n or words[k] not in STRANDABLE:
        return n
    while k < n and words[k] in STRANDABLE:
        k += 1
    return k


def order_ranks(qa: QuestionAnalysis, topic: EntityMention) -> np.ndarray:
    """Per token: the order in which its words are walked from the topic entity, read from
    the question's structure (English grammar, no KB):

    - a possessive chain after the topic comes first, in order: "X's *wife*'s *birthplace*";
    - then the nouns before the topic, nearest first: "the *birthplace* of the *wife* of X";
    - words after the topic that are not a possessive: its predicate — the innermost step
      when the topic sits in a relative clause ("the films *that* X *starred* in"), else the
      outermost ("where was the wife of X *born*");
    - the noun the question asks about last."""
    key = ("ranks", topic.start, topic.end)
    if key in qa._cache:
        return qa._cache[key]
    words, n = qa.words, len(qa.words)
    rank = np.full(n + 1, 50.0)
    parts = possessive_parts(words, topic.end)
    for order, part in enumerate(parts, 1):  # X's A's B (of C): one item per possessive
        rank[part.start : part.stop] = order
    order = float(len(parts))
    chain_end = parts[-1].stop if parts else topic.end
    # (not the question's own wh-word: "*who* are X's son's mum and dad" has no clause)
    relative = any(words[k] in RELATIVE_PRONOUNS and 0 < k != qa.answer.focus
                   for k in range(max(0, topic.start - 2), topic.start))  # fmt: skip
    before = order + 1
    for k in range(topic.start - 1, -1, -1):
        if words[k] and words[k] not in STOPWORDS and words[k] != "'s":
            rank[k] = before
            before += 1
    clause_end = _clause_end(words, chain_end) if relative else chain_end
    for k in range(chain_end, n):
        if words[k] and words[k] not in STOPWORDS:
            # (the clause's own verb is the innermost step; what follows it is the main
            # clause's: "where is the firm that X's brother *works for* *based*")
            rank[k] = 0.5 if k < clause_end else before + (k - chain_end) / n
    if parts and len(parts[-1]) > 1 and do_question(words, topic.start):
        # "who did X's daughter *marry*": the verb after the subject is its predicate, the
        # outermost step — not one more word of the chain's last part
        verb = max(k for k in parts[-1] if words[k])
        if verb > parts[-1].start and words[verb] not in STOPWORDS:
            rank[verb] = before
    if qa.answer.focus is not None:
        rank[qa.answer.focus] = 100.0
    qa._cache[key] = rank
    return rank


FOCUS_KIND_GAP = 0.2  # see _focus_names_its_own: how much less the chain's relations reach it
CHAIN_NEED = 0.5  # a word needing explaining this much makes its part of a chain a hop


def chain_length(qa: QuestionAnalysis, topic: EntityMention) -> int:
    """The fewest hops the question's grammar asks for from the topic entity: each part of a
    possessive chain after it is a hop of its own ("X's *son*'s *partner*'s *nationality*":
    three, however alike the words' relations are), and so is each part of an "of" chain that
    ends at it ("the *children* of the *child* of X"); a predicate ("where was X's wife
    *born*", "where did X's kids *study*") or, without an "of" chain, a relation noun before
    the topic that is not the one asked about adds one more. A lower bound only: an "of" or a
    possessive may part one relation's words ("place of birth", "the *location* of X's
    *headquarters*": one), and words after a chain may say what the answers are ("X's kids
    *are girls*", "… *whose job* is nurse"): only a predicate that plainly starts one counts
    (a participle, "do", the verb of a do-question)."""
    key = ("chain", topic.start, topic.end)
    if key in qa._cache:
        return qa._cache[key]
    words, n = qa.words, len(qa.words)
    needy = _needy(qa)
    content = {qa.word_tokens[r] for r in qa.word_rows(*qa.entities)}
    # ... and a common noun that also names a node, where a possessive follows it: "X's
    # *band*'s frontman" (the class band) is a hop of the chain all the same
    content |= {qa.word_tokens[r] for r in qa.word_rows(*(m for m in qa.entities if m.named))
                if qa.word_tokens[r] + 1 < n and words[qa.word_tokens[r] + 1] == "'s"}
    parts, predicate, last_part, last_words = 0, set(), n, set()
    verb = set()  # the verb of a do-question after the chain ("where does X's CEO *work*")
    j = topic.end
    for part in possessive_parts(words, topic.end):
        k = next((k for k in part[1:] if verb_form(words[k])), part.stop)
        if k < part.stop:  # "X's mother *born* in": the predicate
            predicate = set(range(k, n))
        parts += bool(set(range(part.start, k)) & content)  # a noun phrase: a hop
        last_part, last_words, j = part.start, set(range(part.start, k)), k
        if predicate:
            break
    if parts and not predicate and j < n and words[j] in DO_SUPPORT:
        predicate = set(range(j, n))  # "what does X's husband *do for a living*"
    if parts and not predicate and j + 1 < n and words[j] in COPULAS \
            and verb_form(words[j + 1]):  # fmt: skip
        predicate = set(range(j + 1, n))  # "who X's husband *is married to*"
    if parts and not predicate and do_question(words, topic.start):
        end = next((k for k in range(j - 1, last_part, -1) if words[k]), last_part)
        if end > last_part:
            predicate = verb = {end}  # "where did X's kids *study*": the verb after the
            # subject, a hop of its own however weakly it names one ("where does X's CEO *work*")
        else:  # "who did X's wife have *as kids*": what follows the verb after the subject
            predicate = set(range(j, n))
    if parts and not verb:
        # "the headquarters of the company [X's wife] works for": the possessive chain is the
        # subject of a relative clause — its parts, then the clause read from the phrase
        t = last_part + 1
        while t < n and words[t].isalpha() and words[t] not in STOPWORDS:
            subject = replace(topic, end=t)
            if subject_clause(words, subject) is not None:
                length = parts + chain_length(qa, subject)
                qa._cache[key] = length
                return length
            t += 1
    clause = subject_clause(qa.words, topic) if not parts else None
    heads = [clause[0]] if clause else _linked_heads(qa, topic) if not parts else []
    if heads:
        # "the *head* of the *company* that builds X", "the *team* (that) X plays for": the
        # clause's head is a hop from the topic (its verb links them), each "of" part outside
        # it one more, and what the question says of the outermost — its predicate after the
        # clause ("… is located in what *country*") or after the topic ("which university
        # did … *attend*"), a relation word before it ("who *acted* in the films directed by
        # X", `_said_before`) — one more
        chain = _of_parts(qa, topic, needy, heads)
        after = set(range(clause[1], n)) if clause else _predicate_after(qa, topic)
        # (a second stranded preposition after the clause verb's own is the question's:
        # "which country is [the institution X works at] *in*" — a hop beyond the head)
        stranded = words[topic.end + 1 : clause[1]] if clause else []
        length = len(chain) + bool(after & needy or _said_before(qa, needy, chain)
                                   or _in_before(qa, chain[-1])
                                   or len(chain) == 1 and _verb_before(qa, chain[0]) & content
                                   or len(stranded) >= 2 and stranded[-1] in _LOCATIVES)
        qa._cache[key] = length
        return length
    of_chain = _of_parts(qa, topic, needy)
    of_parts = len(of_chain)
    if of_parts and parts and _one_name(qa, (of_chain[0] | last_words) & needy):
        parts -= 1  # "the *location* of X's *headquarters*": one relation's name, split
    # (a do-question's verb however weakly it names a relation, as after a possessive)
    said = needy | content if do_question(words, topic.start) else needy
    if not parts and of_parts == 1 and (_predicate_after(qa, topic) & said
                                        or _verb_before(qa, of_chain[0]) & content):
        qa._cache[key] = 2  # "where did *the husband of X* study", "the college where the
        return 2  # husband of X *studied*", "who *controls* the subsidiaries of X": the noun,
        # then the predicate's own hop
    if not parts and of_parts < 2:
        qa._cache[key] = 0  # a single "the N of X" bounds nothing
        return 0
    if of_parts:  # "the *nationality* of X's son's partner": each "of" part is a hop
        parts += of_parts
        parts += bool(needy & predicate)
    elif _focus_names_its_own(qa, needy, last_words | predicate, by_kind=parts > 1):
        parts += 1  # "what *nationality* is X's son's spouse": the noun asked about is a hop
    else:  # a predicate, or a noun before the topic other than the one asked about
        before = set(range(topic.start)) - {qa.answer.focus}
        # "which town is X's team *from*": a preposition left at the end, the chain the
        # copula's subject, relates the chain's last part to the answer — a hop beyond it
        rest = [k for k in range(j, n) if words[k]]
        after_copula = any(words[k] in COPULAS for k in range(topic.start))
        left_at_end = len(rest) == 1 and words[rest[0]] in _LOCATIVES and after_copula
        qa._cache[("stranded", topic.start, topic.end)] = left_at_end
        # "where is X's employer *based*": a participle ending the question (a preposition
        # after it aside), the chain the copula's subject, is a hop beyond the chain however
        # weakly it names one — where the chain ends on a noun that names a relation itself
        # ("where are X's home *matches* held": the matches' place is the one hop)
        last_participle = after_copula and 1 <= len(rest) <= 2 and verb_form(words[rest[0]]) \
            and all(words[k] in STOPWORDS for k in rest[1:]) \
            and _names_clearly(qa, rest[0] - 1)  # fmt: skip
        # "who is *in* X's league?": what is in it, a hop beyond the league — where the chain
        # ends the question and the noun asked about does not hold the preposition ("which
        # *movies in* X's filmography are …", "the oldest entry in X's work *as a writer*")
        # — unless the chain's last part names nothing ("what's *in* X's *lineup*", "who is
        # on X's club's *books*": the part and the preposition are one hop, X's contents)
        parts += bool(needy & (predicate | before) or verb & content or left_at_end
                      or last_participle or _verb_of_who(qa, topic)) or (
            topic.start > 1 and words[topic.start - 1] in _LOCATIVES
            and topic.start - 2 != qa.answer.focus and not any(words[j:])
            and _names_something(qa, last_words)
        )  # fmt: skip
    qa._cache[key] = parts
    return parts


def stranded_hop(qa: QuestionAnalysis, topic: EntityMention) -> bool:
    """Is one of `chain_length`'s hops a preposition left at the end ("which town is X's team
    *from*")? No word of the question names that hop."""
    chain_length(qa, topic)
    return qa._cache.get(("stranded", topic.start, topic.end), False)


# verbs that link "who" to what follows as a copula does ("who *became* X's coach": X's coach)
_LINKING = frozenset("become becomes became remain remains remained stays stayed".split())


def _verb_of_who(qa: QuestionAnalysis, topic: EntityMention) -> bool:
    """Is the word between the question word and the topic a verb of its own ("who *heads*
    X's owner", "what *owns* X's rival")? It is a hop however weakly its words name a
    relation ("heads", "runs" read as nouns): "who" is its subject and the chain its object.
    Not a copula, an auxiliary or a linking verb ("who *became* X's coach": X's coach)."""
    at = qa.answer.focus
    if at is None or qa.words[at] not in WH_WORDS or topic.start != at + 2:
        return False
    word = qa.words[at + 1]
    if word in AUXILIARIES or word in _LINKING or word in STOPWORDS:
        return False
    return verb_form(word) or (word.endswith("s") and bool(lexnet.senses(word, "v")))


def role_verbs(qa: QuestionAnalysis, rows: list[int], used) -> list[tuple[int, bool]]:
    """Rows of verbs right before "as (a) M" where M is a name a plan uses ("employed *as* a
    banker"), each with whether M is its topic (the first of `used`)."""
    words, out = qa.words, []
    starts = {m.start: i == 0 for i, m in enumerate(used)}
    for row, r in enumerate(rows):
        t = qa.word_tokens[r]
        k = t + 2 if t + 1 < len(words) and words[t + 1] == "as" else None
        if k is not None and k < len(words) and words[k] in ARTICLES:
            k += 1
        if k in starts:
            out.append((row, starts[k]))
    return out


def _verb_before(qa: QuestionAnalysis, part: set[int]) -> set[int]:
    """The verb right before an "of" phrase or a clause's head that follows the question word
    (and the noun asked about): "who *controls* the subsidiaries of X", "which firm *owns* the
    parent of X", "who *presents* the awards that X won"; not a copula or the question's frame
    ("who *are* the children of X", "*name* the …")."""
    words = qa.words
    k = min(part) - 1
    if k >= 2 and words[k + 1] in ARTICLES and lexnet.senses(f"{words[k - 1]}_{words[k]}", "v"):
        k -= 1  # a phrasal verb the dictionary knows: "what bodies *hand out* the awards …"
    elif k < 1 or words[k + 1] not in ARTICLES:
        return set()
    if not words[k].isalpha() or words[k] in STOPWORDS | FRAME_WORDS | PREPOSITIONS:
        return set()  # ("who *among* the children of X …")
    asked = k > 1 and k - 1 == qa.answer.focus and words[k - 2] in WH_WORDS
    if words[k - 1] in WH_WORDS or asked:
        return {k}
    return set()


PART_NAMES = 0.3  # see _names_something


def _names_something(qa: QuestionAnalysis, tokens: set[int]) -> bool:
    """Does a word among `tokens` name a relation at least PART_NAMES well (by its name)?"""
    rows = [r for r, t in enumerate(qa.word_tokens) if t in tokens]
    return qa.scores is not None and any(float(qa.scores[r].max()) >= PART_NAMES for r in rows)


_LOCATIVES = frozenset("in at from on within across among into up".split())


def _focus_names_its_own(qa: QuestionAnalysis, needy: set[int], chain: set[int],
                         by_kind: bool = False) -> bool:  # fmt: skip
    """Does the noun asked about name a relation by its form that no word of the chain's
    last part or predicate names ("what *nationality* is X's son's spouse"; not "which
    *club* does X's captain *play* for", where both name `plays for club`)? `by_kind` (a
    chain of two parts or more): or a kind of thing that those words' relations do not
    reach (one part may name no hop of its own: "which *nation* hosts X's *head office*" is
    X's country, "which *illness* ended X's *life*" X's cause of death)."""
    focus = qa.answer.focus
    # (the noun asked about that is the chain's last part is that part's hop: "X's
    # supervisor's *institution*")
    if focus is None or focus not in needy or focus in chain or qa.lexical is None:
        return False
    rows = {t: r for r, t in enumerate(qa.word_tokens)}
    own = qa.lexical[rows[focus]]
    if own.max() >= 1.0:
        named = int(np.argmax(own))
        return not any(qa.lexical[rows[t], named] > 0 for t in chain & needy if t in rows)
    chain_rows = [rows[t] for t in chain & needy if t in rows]
    if not by_kind or not chain_rows or qa.reach is None:
        return False
    # "which *faith* does X's dad's wife follow": a kind of thing that what the chain's words
    # name does not reach (a spouse is no faith), where another relation's do
    reach = qa.reach[rows[focus]]
    named = [int(np.argmax(qa.scores[r])) for r in chain_rows]
    near = max(max(reach[2 * r], reach[2 * r + 1]) for r in named)
    return float(reach.max() - near) >= FOCUS_KIND_GAP


def _in_before(qa: QuestionAnalysis, part: set[int]) -> bool:
    """Does a locative preposition stand before the chain's outermost part, its article
    aside, said of no noun asked about but a person ("who is *in* the band X belongs to",
    "everyone *in* the team X captains": what is in it, one hop beyond — as "who is in X's
    league"; not "the *films in* the series X began", which are the series)?"""
    words, k = qa.words, min(part) - 1
    while k >= 0 and words[k] in ARTICLES:
        k -= 1
    focus = qa.answer.focus
    return k > 0 and words[k] in _LOCATIVES and (k - 1 != focus or words[focus] in PERSON_NOUNS)


def _said_before(qa: QuestionAnalysis, needy: set[int], chain: list[set[int]]) -> bool:
    """Is a relation word said before the chain's outermost part, naming another relation than
    that part's words do ("In which *country* is the team that X plays for", "which *players*
    are in the team captained by X"; not "which *stadium* is the *home* of …")?"""
    start = min(chain[-1])
    before = {t for t in needy if t < start} - _same_node(qa, start)
    return bool(before) and bool(_best_relation(qa, before)
                                 - _best_relation(qa, chain[-1] & needy))  # fmt: skip


def _same_node(qa: QuestionAnalysis, start: int) -> set[int]:
    """The noun asked about where the question says it *is* the chain's outermost part ("which
    *company is the parent* of …": one node, no hop between) — not where a preposition puts
    it elsewhere ("*in* which country is the team …", "which country is the team … *in*")."""
    words, focus = qa.words, qa.answer.focus
    if focus is None or focus < 1 or words[focus - 1] not in WH_WORDS:
        return set()
    k = focus + 1
    if k >= len(words) or words[k] not in COPULAS:
        return set()
    k += 1 + (k + 1 < len(words) and words[k + 1] in ARTICLES)
    if k not in (start, start + (words[start] in ARTICLES)):
        return set()
    elsewhere = _LOCATIVES | {"of", "for", "to", "by"}
    last = max((i for i, w in enumerate(words) if w), default=0)
    if (focus > 1 and words[focus - 2] in elsewhere) or words[last] in elsewhere:
        return set()
    return {focus}


def _best_relation(qa: QuestionAnalysis, tokens: set[int]) -> set[int]:
    """The relation each of these words names best (by meaning), as one set."""
    rows = {t: r for r, t in enumerate(qa.word_tokens)}
    return {int(np.argmax(qa.scores[rows[t]])) for t in tokens if t in rows}


def _names_clearly(qa: QuestionAnalysis, token: int) -> bool:
    """Does the word at `token` name some relation well enough to explain a hop?"""
    row = qa.row_of(token)
    return row is not None and float(qa.best[row]) >= HOP_EXPLAINED


def _needy(qa: QuestionAnalysis) -> set[int]:
    """Tokens of relation words that need explaining enough to be a chain's part."""
    needy = {qa.word_tokens[r] for r in qa.word_rows(*qa.entities) if qa.need[r] > CHAIN_NEED}
    for c in qa.comparisons:  # "*released* before 1950": a filter's words, not a hop
        needy -= set(range(c.start - 2, c.end))
    return needy


def chain_tokens(qa: QuestionAnalysis, topic: EntityMention) -> set[int]:
    """The tokens of the parts of a possessive chain after the topic and of an "of" chain
    ending at it ("the *siblings* of X's *brother*"): each part is a hop of its own."""
    key = ("chain-tokens", topic.start, topic.end)
    if key not in qa._cache:
        tokens = {i for part in possessive_parts(qa.words, topic.end) for i in part}
        qa._cache[key] = tokens.union(*_of_parts(qa, topic, _needy(qa)))
    return qa._cache[key]


def _predicate_after(qa: QuestionAnalysis, topic: EntityMention) -> set[int]:
    """The verb that ends the question right after a subject "the N of X" (auxiliaries
    aside): a participle or past tense ("the college where the husband of X *studied*", "the
    city where the founder of X was *born*"), or the verb of a do-question ("where did the
    husband of X *study*"). Empty when anything else follows (an object, a preposition's
    noun: "… studied *law*"); a particle after the verb is no such thing ("what does the
    husband of X *work as*")."""
    words = qa.words
    rest = [k for k in range(topic.end, len(words)) if words[k] and words[k] not in AUXILIARIES]
    if not rest:
        return set()
    k = rest[0]
    # a lone participle, or a do-question's verb with nothing but particles after it (in a
    # do-question only: "which city was the group that made X *formed in*" is the group's)
    if (len(rest) == 1 and verb_form(words[k])) or (
            do_question(words, topic.start) and all(words[j] in STOPWORDS for j in rest[1:])):
        return {k}
    return set()


def _of_parts(qa: QuestionAnalysis, topic: EntityMention, needy: set[int],
              first: list[set[int]] | None = None) -> list[set[int]]:  # fmt: skip
    """The parts of an "of" chain that ends at the topic ("the *children* of the *child* of
    X"), nearest the topic first; an "of" inside a relation's own name ("place of birth")
    joins one part. A part is nouns: a verb ("died of"), another name or no relation word
    ends the chain. `first`: a part already read next to the topic (a relative clause's
    head, `_relative_clause_head`); the chain goes on before it."""
    words, sem = qa.words, qa.semantics
    # the tokens of relation names written out whole
    inside = {i for _, span in whole_names(words, sem, topic.start) for i in span}
    names = {i for m in qa.entities if m is not topic for i in range(m.start, m.end)}
    parts: list[set[int]] = list(first or [])
    k = min(parts[0]) - 1 if parts else topic.start - 1
    while k >= 0 and words[k] == "of" and k not in inside:
        j = k - 1
        while j >= 0 and (words[j] != "of" or j in inside) and (
            words[j] not in STOPWORDS or words[j] in ARTICLES or words[j] == "of"
        ):  # fmt: skip
            j -= 1
        # a noun phrase starts at its article: "who *taught* [the children] of X" (the verb
        # before it is the predicate, see `_verb_before`)
        start = next((a for a in range(j + 2, k) if words[a] in ARTICLES), j + 1)
        part = set(range(start, k))
        if part & names or any(verb_form(words[i]) for i in part):
            break
        if not part & needy:
            # "the *alma mater* of the CEO of X": words the KB's names do not meet may still
            # be a part — the chain's outermost, a noun phrase of plain nouns after an article
            if parts and (j < 0 or words[j] != "of") and _plain_noun_phrase(words, part):
                parts.append(part)
            break
        if parts and _one_name(qa, (parts[-1] | part) & needy):
            parts[-1] |= part  # "the *location* of the *headquarters* of X": one name
        else:
            parts.append(part)
        k = j
    return parts


# the relative pronouns a clause said of a noun before it opens ("the company *that* …")
CLAUSE_PRONOUNS = frozenset("that who which whom".split())


def subject_clause(words: list[str], topic: EntityMention) -> tuple[set[int], int] | None:
    """The noun phrase a relative clause whose subject is the topic says something of, and
    the token after the clause: "the *team* (that) X plays for", "the *firm* X works for is
    based in …". The clause is the topic, one verb and its stranded prepositions, then the
    question's end or its own verb (an auxiliary, or a participle after a stranded
    preposition: "where was the director of the lab X works in *born*"). Without a
    pronoun, after an inverted auxiliary ("what country *is* the team X plays for in", "how
    many seats *does* the ground of the club X plays for have") the verb must be inflected
    for its subject (-s: "plays"), or it is the question's own ("when *was* the film X
    released", "where *does* the club X play")."""
    k, v = topic.start, topic.end
    pronoun = k >= 1 and words[k - 1] in CLAUSE_PRONOUNS
    head = _head_before(words, k - 1 if pronoun else k)
    if head is None or v >= len(words) or not words[v].isalpha() or words[v] in STOPWORDS:
        return None
    end = v + 1
    while end < len(words) and words[end] in STRANDABLE:
        end += 1
    # (after "do", the question's own verb in its plain form: "when did the group X plays
    # with *get* started")
    asked_by_do = any(w in DO_SUPPORT for w in words[: min(head)])
    if end < len(words) and words[end] and words[end] not in AUXILIARIES and not (
        end > v + 1
        and (verb_form(words[end]) or (asked_by_do and bool(lexnet.senses(words[end], "v"))))
    ):  # fmt: skip
        return None  # the verb has an object, or the topic's name goes on
    inverted = any(w in AUXILIARIES for w in words[: min(head)])
    if not pronoun and inverted and (not words[v].endswith("s") or words[v].endswith("ss")):
        return None
    return head, end


def _linked_heads(qa: QuestionAnalysis, topic: EntityMention) -> list[set[int]]:
    """The noun phrases that nest around the topic by relative clauses and prepositions,
    nearest first: "the *person* who runs the *company* behind X" (each a hop; an "of" chain
    outside them is read by `_of_parts`)."""
    heads: list[set[int]] = []
    end, words = topic.start, qa.words
    while (head := _relative_clause_head(words, end) or _prepositional_head(words, end)
           or _participle_head(words, end)):  # fmt: skip
        heads.append(head)
        end = min(head)
    return heads


def _relative_clause_head(words: list[str], end: int) -> set[int] | None:
    """The noun phrase a relative clause ending at token `end` says something of: "the
    *company* that builds X", "the *person* who works for X", "*firms* that are based in X"
    (the head's tokens, from its article); None where no such clause ends there."""
    k = end - 1
    while k >= 0 and words[k] in STOPWORDS and words[k] not in CLAUSE_PRONOUNS:
        k -= 1  # the clause verb's prepositions and articles ("works *for* X")
    if k < 2 or not words[k].isalpha() or words[k] in STOPWORDS:
        return None
    k -= 1  # the verb, then its auxiliaries ("that *is* based in X")
    while k >= 0 and words[k] in AUXILIARIES:
        k -= 1
    if k < 1 or words[k] not in CLAUSE_PRONOUNS:
        return None
    return _head_before(words, k)


def _participle_head(words: list[str], end: int) -> set[int] | None:
    """The noun phrase a participle with "by" says something of: "the *team* captained by X",
    "the *films* directed by X" (not "which films *were* directed by X": a verb before it)."""
    k = end - 1
    if k < 2 or words[k] != "by" or not verb_form(words[k - 1]):
        return None
    return _head_before(words, k - 1)


def _prepositional_head(words: list[str], end: int) -> set[int] | None:
    """The noun phrase a preposition of `PREPOSITIONS` ("behind", "among", "near" …; not the
    common "in", "by", nor "of", whose chain `_of_parts` reads) links to the phrase at token
    `end`: "the *company* behind X"."""
    k = end - 1
    if k < 1 or words[k] not in PREPOSITIONS:
        return None
    return _head_before(words, k)


def _head_before(words: list[str], k: int) -> set[int] | None:
    """The nouns right before token k, from their article ("*the company* that …"), where an
    article, "of" or the question's start comes before them; None otherwise (a verb: "which
    films *were directed* by X")."""
    j = k - 1
    while j >= 0 and words[j].isalpha() and words[j] not in STOPWORDS:
        j -= 1  # the head's nouns
    if j == k - 1 or j >= 0 and words[j] not in ARTICLES and words[j] != "of":
        return None
    start = j if j >= 0 and words[j] in ARTICLES else j + 1
    return set(range(start, k))


def _plain_noun_phrase(words: list[str], part: set[int]) -> bool:
    """An article, then content nouns only ("the *alma mater*"; not "the *rest*", "the
    *kind*", "the *number*", "the *name*")."""
    tokens = sorted(part)
    nouns = [words[i] for i in tokens if words[i] not in ARTICLES]
    return (bool(nouns) and words[tokens[0]] in ARTICLES
            and all(w.isalpha() and w not in STOPWORDS and w not in FRAME_WORDS
                    and w not in PARTITIVES and w not in CATEGORY_NOUNS
                    and w not in QUANTITY_NOUNS for w in nouns))  # fmt: skip


def _one_name(qa: QuestionAnalysis, tokens: set[int]) -> bool:
    """Are these words (in any form) all words of one relation name of several
    ("headquarters location", "*members* of X's *board*")?"""
    wanted = [set(word_forms(qa.words[i])) | {qa.words[i]} for i in tokens]
    return len(wanted) > 1 and any(
        all(forms & set(phrase) for forms in wanted)
        for entries in qa.semantics.phrases.values() for _, phrase in entries
    )  # fmt: skip
