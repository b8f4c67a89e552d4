"""Reading a question against a KB: entity mentions, relation mentions, the expected answer.

Only English morphology and the loaded KB's own labels are used: no relation name, entity or
question template of any particular KB appears here.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

from core.kg.store import KnowledgeGraph
from core.text import STOPWORDS, content_words, is_agent_noun, normalize, word_forms

_RAW_TOKEN = re.compile(r"\S+")
_EDGE_PUNCT = "\"'“”‘’«»()[]{}<>,;:.?!"
_MAX_SPAN = 12
_PERSON_NOUNS = frozenset({"person", "people", "someone", "somebody", "man", "woman", "persons"})
_WH = ("who", "whom", "whose", "what", "which", "when", "where", "how")


@dataclass(frozen=True)
class EntityMention:
    start: int  # first raw token
    end: int  # one past the last raw token
    text: str
    ids: tuple[str, ...]
    link_score: float
    bracketed: bool
    capitalized: bool

    def overlaps(self, other: EntityMention) -> bool:
        return self.start < other.end and other.start < self.end


@dataclass(frozen=True)
class RelationMention:
    token: int  # raw token index
    word: str
    rel_id: str
    weight: float


@dataclass
class QuestionAnalysis:
    question: str
    words: list[str]  # one normalised word per raw token ("" for pure punctuation)
    entities: list[EntityMention] = field(default_factory=list)
    relation_mentions: list[RelationMention] = field(default_factory=list)
    expected: str | None = None  # "person", "time" or None
    focus: int | None = None  # token index of the wh-word or the noun it asks about
    focus_rels: frozenset[str] = frozenset()  # relations the focus noun names
    focus_is_thing: bool = False  # the focus noun names no relation and no person
    focus_agent: bool = False  # the focus noun is an agent noun ("players", "writers")
    # words that say what kind of answer is wanted, not which relation to follow ("which
    # players were born in X": "players" asks for subjects of "plays for")
    type_tokens: frozenset[int] = frozenset()

    _cache: dict = field(default_factory=dict, repr=False)

    def mentions_outside(self, *spans: EntityMention) -> list[RelationMention]:
        """Relation mentions not inside the given entity spans (memoised: plans share spans)."""
        key = ("outside", *((s.start, s.end) for s in spans))
        if key not in self._cache:
            self._cache[key] = [
                m
                for m in self.relation_mentions
                if not any(s.start <= m.token < s.end for s in spans)
                and m.token not in self.type_tokens
            ]
        return self._cache[key]

    def phrases_outside(self, *spans: EntityMention) -> dict[int, dict[str, float]]:
        """Relation phrases (see _phrases) outside the spans; callers must copy before editing."""
        key = ("phrases", *((s.start, s.end) for s in spans))
        if key not in self._cache:
            self._cache[key] = _phrases(self.mentions_outside(*spans))
        return self._cache[key]


class Lexicon:
    """Relation words of one KB: word form -> {relation id: weight}.

    Weights are inverse document frequencies over relations, so a word shared by many
    relation labels ("has") says little and a word unique to one says a lot.
    """

    def __init__(self, kg: KnowledgeGraph):
        forms_by_rel: dict[str, set[str]] = {}
        for rel in kg.relations:
            forms = set()
            for word in content_words(rel.words):
                forms |= {f for f in word_forms(word) if len(f) >= 3}
            forms_by_rel[rel.id] = forms
        df: dict[str, int] = defaultdict(int)
        for forms in forms_by_rel.values():
            for f in forms:
                df[f] += 1
        n = max(1, len(forms_by_rel))
        self._cache: dict[str, dict[str, float]] = {}
        self.by_form: dict[str, dict[str, float]] = defaultdict(dict)
        for rel_id, forms in forms_by_rel.items():
            for f in forms:
                self.by_form[f][rel_id] = math.log(1 + n / df[f]) / math.log(1 + n)

    def match(self, word: str) -> dict[str, float]:
        """Relations a question word names, with weights in (0, 1]."""
        if word not in self._cache:
            self._cache[word] = self._match(word)
        return self._cache[word]

    def _match(self, word: str) -> dict[str, float]:
        if not word or word in STOPWORDS:
            return {}
        found: dict[str, float] = {}
        for form in word_forms(word):
            for rel_id, w in self.by_form.get(form, {}).items():
                found[rel_id] = max(found.get(rel_id, 0.0), w)
        if not found and len(word) >= 7:  # compounds: "screenwriter" names "writer"
            for k in range(2, len(word) - 3):
                tail = self.match(word[k:])
                if tail:
                    return {rel_id: 0.8 * w for rel_id, w in tail.items()}
        return found


def lexicon_for(kg: KnowledgeGraph) -> Lexicon:
    lex = getattr(kg, "_lexicon", None)
    if lex is None:
        lex = kg._lexicon = Lexicon(kg)
    return lex


def analyse(question: str, kg: KnowledgeGraph) -> QuestionAnalysis:
    """Find entity and relation mentions and the expected answer type."""
    bracketed = _bracket_ranges(question)
    clean = question.replace("[", " ").replace("]", " ")
    raw = [(m.start(), m.end()) for m in _RAW_TOKEN.finditer(clean)]
    words = [normalize(clean[a:b].strip(_EDGE_PUNCT)) for a, b in raw]
    analysis = QuestionAnalysis(question=question, words=words)
    lexicon = lexicon_for(kg)

    for i, word in enumerate(words):
        for part in word.replace("-", " ").split():
            for rel_id, weight in lexicon.match(part).items():
                analysis.relation_mentions.append(RelationMention(i, part, rel_id, weight))

    analysis.entities = _entity_mentions(clean, raw, bracketed, kg, words, analysis)
    _expected_answer(analysis, words)
    if analysis.focus_agent and not any(kg.relation(r).agentive for r in analysis.focus_rels):
        analysis.type_tokens = frozenset({analysis.focus})
    return analysis


def _bracket_ranges(question: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\[[^\]]+\]", question)]


def _entity_mentions(clean, raw, bracketed, kg, words, analysis) -> list[EntityMention]:
    mention_tokens = {m.token for m in analysis.relation_mentions}
    found: list[EntityMention] = []
    for i in range(len(raw)):
        for j in range(i + 1, min(len(raw), i + _MAX_SPAN) + 1):
            span_words = [w for w in words[i:j] if w]
            if not span_words:
                continue
            text = clean[raw[i][0] : raw[j - 1][1]]
            start_char, end_char = raw[i][0], raw[j - 1][1]
            in_brackets = any(a <= start_char and end_char <= b for a, b in bracketed)
            if (
                all(w in STOPWORDS for w in span_words)
                and not in_brackets
                and (j - i < 2 or not any(c.isupper() for c in text))
            ):
                continue
            ids = _exact_ids(kg, text)
            if not ids:
                continue
            stripped = text.strip(_EDGE_PUNCT)
            ids = sorted(ids, key=lambda n: (kg.label(n) not in (text, stripped), -kg.degree(n)))
            capitalized = any(
                ch.isupper()
                for k in range(i, j)
                if k > 0
                for ch in clean[raw[k][0] : raw[k][1]][:1]
            ) or (i == 0 and any(c.isupper() for c in text[1:]))
            score = 1.0 + 0.1 * min(5, j - i)
            if kg.label(ids[0]) in (text, stripped) and any(c.isupper() for c in text):
                score += 0.4  # the question writes the name exactly as the KB does
            if capitalized:
                score += 0.3
            if in_brackets:
                score += 1.0
            if not (capitalized or in_brackets) and any(k in mention_tokens for k in range(i, j)):
                score -= 0.8  # the words name a relation; as an entity they are a weak reading
            found.append(
                EntityMention(
                    i, j, text.strip(_EDGE_PUNCT), tuple(ids), score, in_brackets, capitalized
                )
            )
    found.sort(key=lambda m: (-m.link_score, m.start))
    return found


def _exact_ids(kg: KnowledgeGraph, text: str) -> list[str]:
    ids = kg.exact(text)
    if not ids:
        stripped = text.strip(_EDGE_PUNCT)
        if stripped and stripped != text:
            ids = kg.exact(stripped)
        if not ids:
            ids = kg.exact(text.rstrip(",;:?.") or text)
    return ids


def _expected_answer(analysis: QuestionAnalysis, words: list[str]) -> None:
    """who -> a person; when -> a time; what/which N -> N is the focus noun; no question word
    ("the writer of X also wrote movies") -> the last content word is the focus."""
    rels_at: dict[int, set[str]] = defaultdict(set)
    for m in analysis.relation_mentions:
        rels_at[m.token].add(m.rel_id)
    inside_names = {
        k for m in analysis.entities if m.capitalized or m.bracketed for k in range(m.start, m.end)
    }
    for i, w in enumerate(words):
        if i in inside_names:
            continue  # "When Ladies Meet" is a title, not a question word
        if w in ("who", "whom", "whose"):
            analysis.expected, analysis.focus = "person", i
            return
        if w == "when":
            analysis.expected, analysis.focus = "time", i
            return
        if w in ("what", "which"):
            analysis.focus = i
            for k in range(i + 1, min(len(words), i + 5)):
                if k in inside_names:
                    break  # "what does X act in": the question word asks no noun
                if words[k] and words[k] not in STOPWORDS:
                    _set_focus(analysis, k, rels_at)
                    break
            return
        if w in _WH:
            return
    last_name = max(inside_names, default=len(words))
    for k in range(len(words) - 1, last_name, -1):
        if words[k] and words[k] not in STOPWORDS:
            _set_focus(analysis, k, rels_at)
            return


def _set_focus(analysis: QuestionAnalysis, k: int, rels_at: dict[int, set[str]]) -> None:
    noun = analysis.words[k]
    analysis.focus = k
    if noun in _PERSON_NOUNS:
        analysis.expected = "person"
    elif rels_at.get(k):
        analysis.focus_rels = frozenset(rels_at[k])
        analysis.focus_agent = is_agent_noun(noun)
    else:
        analysis.focus_is_thing = True


@dataclass(frozen=True)
class Alignment:
    coverage: float  # share of relation-word weight naming a relation on the path
    phrases: int  # relation phrases in the question
    unused: int  # phrases no hop took
    unexplained: int  # hops no phrase and no shape explains
    shares: int  # hops explained by shape: straight back over the relation just taken


def align(qa: QuestionAnalysis, hops: list[tuple[str, str]], extra_rels=(), used=()) -> Alignment:
    """Match a path's hops to the question's relation phrases, each phrase used once.

    A hop that walks straight back over a relation a phrase just explained ("films that share
    actors with X": actors out, actors back in) is explained by that shape instead of a word.
    """
    free = {t: ws for t, ws in qa.phrases_outside(*used).items()}
    n_phrases = len(free)
    unexplained = shares = 0
    rels = [r for r, _ in hops] + list(extra_rels)
    by_phrase = False  # was the previous hop explained by a phrase?
    for i, rel in enumerate(rels):
        phrase = max(
            (t for t, ws in free.items() if rel in ws), key=lambda t: free[t][rel], default=None
        )
        back = 0 < i < len(hops) and hops[i][0] == hops[i - 1][0] and hops[i][1] != hops[i - 1][1]
        if phrase is not None:
            del free[phrase]
            by_phrase = True
        elif back and by_phrase:
            shares += 1
            by_phrase = False
        else:
            unexplained += 1
            by_phrase = False
    return Alignment(coverage(qa, set(rels), *used), n_phrases, len(free), unexplained, shares)


def _phrases(mentions: list[RelationMention]) -> dict[int, dict[str, float]]:
    """Group relation words into phrases: words naming the same relation within two tokens
    ("release year", "director that directed") are one mention, explained by one hop."""
    by_token: dict[int, dict[str, float]] = {}
    for m in mentions:
        by_token.setdefault(m.token, {})[m.rel_id] = m.weight
    phrases: dict[int, dict[str, float]] = {}
    start, last = None, -10
    for token in sorted(by_token):
        rels = by_token[token]
        if start is not None and token - last <= 2 and rels.keys() & phrases[start].keys():
            for rel, w in rels.items():
                phrases[start][rel] = max(phrases[start].get(rel, 0.0), w)
        else:
            phrases[token] = dict(rels)
            start = token
        last = token
    return phrases


def coverage(qa: QuestionAnalysis, rels: set[str], *used: EntityMention) -> float:
    """Share of the question's relation words (outside the used entity spans) that `rels` explain.

    Each word counts once, with its best weight; 1.0 when the question names no relation.
    """
    key = ("coverage", frozenset(rels), *((u.start, u.end) for u in used))
    if key not in qa._cache:
        qa._cache[key] = _coverage(qa, rels, used)
    return qa._cache[key]


def _coverage(qa: QuestionAnalysis, rels: set[str], used) -> float:
    best: dict[int, float] = {}
    covered: dict[int, float] = {}
    for m in qa.mentions_outside(*used):
        best[m.token] = max(best.get(m.token, 0.0), m.weight)
        if m.rel_id in rels:
            covered[m.token] = max(covered.get(m.token, 0.0), m.weight)
    total = sum(best.values())
    return sum(covered.values()) / total if total else 1.0


def answer_type_fit(qa: QuestionAnalysis, kg: KnowledgeGraph, rel_id: str, direction: str) -> float:
    """+1 when arriving over (relation, direction) gives the kind of answer asked for, -1 when it
    clearly does not, 0 when the question does not say."""
    info = kg.relation(rel_id)
    forward = direction == "out"
    if qa.expected == "person":
        if info.agentive:  # "directed by", "actors": the person is the object
            return 1.0 if forward else -1.0
        return 0.0 if not forward and info.object_kind == "entity" else -1.0  # "plays for"
    if qa.expected == "time":
        return 1.0 if forward and info.object_kind == "year" else -1.0
    if qa.type_tokens:
        # "which players ...": whoever is the subject of "plays for", wherever the path ends
        return 1.0 if _can_be_subject_of(kg, rel_id, direction, qa.focus_rels) else -1.0
    if qa.focus_rels:
        if rel_id not in qa.focus_rels:
            return -1.0
        return 1.0 if forward else -1.0
    if qa.focus_is_thing and forward and (info.agentive or info.object_kind != "entity"):
        return -1.0
    return 0.0


def _can_be_subject_of(kg: KnowledgeGraph, rel_id: str, direction: str, rels) -> bool:
    """Do most nodes reached over (rel_id, direction) act as subjects of one of `rels`?"""
    index = kg.index
    codes = {r: i for i, r in enumerate(index.rel_ids)}
    hop = codes[rel_id] * 2 + (0 if direction == "out" else 1)
    reached = index.follow.get(hop, {})
    return any(reached.get(codes[r] * 2, 0.0) >= 0.5 for r in rels if r in codes)
