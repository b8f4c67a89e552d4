"""Question analysis: what a question names and asks, read against one KB.

- **Entity mentions**: spans whose text is a node label of the KB (exact after normalisation;
  plural or adjectival forms of lower-case names as a weaker reading: "lawyers" → lawyer,
  "Brazilian" → Brazil). Brackets are a hint, never required.
- **Relation words**: the content words outside the names, each compared with every relation
  of the KB by English morphology (core.text) and by meaning (the text model, through the
  KB's relation semantics, core.kg.semantics): its names, its documentation, and what it
  reaches ("which *country*" sounds like what `located in` leads to).
- **The answer asked for**: who → a person, where → a place, when → a time, how many/old/tall
  → a number, "what/which N" → N, "A or B" → one of the choices.
- **Constraints**: comparisons with numbers and years, superlatives (core.constraints), and
  whether the question asks for *other* things than the topic ("other", "same … as", "also").

What is read here feeds three modules beside it: `core.chain` (how many hops the question's
grammar asks for), `core.path_fit` (how much of the question a relation path accounts for:
the planner ranks paths by it and the rule judge rewards by it, so both read the question the
same way) and `core.answer_types` (whether what a path arrives at is the kind of answer asked
for).
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np

import core.lexnet as lexnet
from core.constraints import Comparison, find_comparisons
from core.kg.semantics import KIND_SHARE, RelationSemantics, label_parts, semantics_for
from core.kg.store import KnowledgeGraph
from core.text import (
    EVENT_NOUNS,
    IRREGULAR_VERB_FORMS,
    MARKED_MODIFIERS,
    MARKED_SENSES,
    MARKED_STEMS,
    STOPWORDS,
    content_words,
    is_agent_noun,
    is_agentive_label,
    is_plural,
    normalize,
    plural,
    present_cues,
    singular,
    word_forms,
    word_senses,
)
from core.text import tokens as label_tokens
from core.textmodel import text_model

# a possessive after a name's closing dot ("Acme Inc.*'s* CEO") is one token, as after a letter
_TOKEN = re.compile(r"\w+(?:[.'’&]\w+)*|['’]s\b|[^\w\s]", re.UNICODE)
_POSSESSIVE = re.compile(r"^(.*\w)['’]s$", re.UNICODE)
_MAX_SPAN = 12
WH_WORDS = frozenset("who whom whose what which when where how".split())
# words that ask, not mean: the question's frame ("tell me", "I'd like to know")
FRAME_WORDS = frozenset(
    """tell know like want wonder please name list show give find identify say mention
    could would can i'd id me us let lets let's d i'm im looking searching seeking need
    interested curious wondering""".split()
)
# English words that ask for things other than the topic ("other films", "same director as",
# "apart from X", "X's teammates", "co-stars"): the topic is left out of the answers
_OTHER_CUES = frozenset(
    """other others else same share shares shared sharing also too another besides except
    excluding apart aside co fellow fellows colleague colleagues coworker coworkers peer peers
    compatriot compatriots counterpart counterparts rival rivals opponent opponents
    together alongside rest remainder remaining both""".split()
)
# ... of those, the ones that may add things of another kind ("which films did X *also*
# direct")
_ADDITIVE_CUES = frozenset("also too".split())
# nouns for a part or an amount of a set, whose "of" phrase names what is asked for ("the
# *rest* of the clubs", "a *couple* of words describing X"); not "number", which asks a count
PARTITIVES = frozenset("rest remainder couple pair handful lot lots bunch dozen".split())
_OTHER_SUFFIXES = ("mate", "mates")  # teammates, classmates, clubmates
_PREDICATIVE = frozenset("is are was were be as".split())  # "… is a doctor", "play as keeper"
PREPOSITIONS = frozenset(
    """besides except among amongst like including within without across between during via
    per against toward towards upon through throughout along around beyond behind despite
    near alongside""".split()
)
_HOW_NUMBER = frozenset("old tall high big long large heavy far wide deep much many".split())
# nouns that ask for a person, whatever the KB calls its people
PERSON_NOUNS = frozenset(
    """person persons people someone somebody everyone everybody anyone anybody individual
    individuals man men woman women human humans folks""".split()
)
_TIME_NOUNS = frozenset("year years date dates decade century time day month".split())
PLACE_WORDS = "place location city town country region area"
# A person is named like one: what persons reach is compared with common given names of many
# languages (language knowledge, not any KB's; "person" itself sits far from people's names)
PERSON_WORDS = (
    "john mary james maria david anna michael sarah robert elena peter laura paul sophie "
    "thomas emma daniel julia carlos ana jose ahmed fatima mohammed wei li yuki hiroshi ivan "
    "olga pierre marie hans giovanni luca raj priya kwame amara"
)

# scoring constants of `explain` (fitted with the planner weights, see core.agents.planner)
TAU = 0.08  # how fast a word's explanation fades below its best relation
TAU_SOFT = 0.25  # the same, gently: a second coverage feature for the planner
NEED_AT = 0.32  # a word matching no relation better than this barely needs explaining
NEED_WIDTH = 0.05
REACH_WEIGHT = 0.8  # a type word ("which city") explained by what a hop reaches
SENSE_SCORE = 0.7  # a word sharing a frequent WordNet sense with a label word (core.lexnet)
# a noun no relation's name reads at SYNONYM_BELOW is read by the synonyms of its first sense,
# at SYNONYM_SHARE of their reading ("papa" as "dad"): tuning family +4, 0 lost (0.8: the same)
SYNONYM_BELOW, SYNONYM_SHARE = 0.4, 0.7
# ... and then by the genus of its dictionary definition ("a mentor is an advisor"), at
# DEFINITION_SHARE of its reading: tuning +12, 0 lost (family, business, science)
DEFINITION_SHARE = 0.7
# a verb read weakly, by a short definition of one of its senses ("work": "be employed"), at
# PARAPHRASE_SHARE of the sense that shares with a label (README "Dev sets", item 140): 0.85,
# so that one met through a derivation ("employed" - `employer`: SENSE_SCORE x 0.85 x
# DERIVED = 0.48) names it for the planner (NAMED_AT 0.45); 0.8: tuning -1, held-out -3
PARAPHRASE_SHARE = 0.85
LEX_BASE = 0.55  # a morphological match ("directed" ~ "directed by") scores at least this
STEM_SENSE = 0.15  # ... where the two words mean alike this much (see Lexicon._alike)
MODIFIER_SHARE = 0.5  # the weight of a word in a label it only qualifies, where it heads another
# a label's head said without its qualifiers names the qualified relation only where no other
# relation's nodes sound this much more like the word (REACH_WEIGHT-scaled reach scores)...
UNSAID_REACH_LEAD = 0.03
SAID_SENSE = 0.5  # ... a qualifier counts as said by a word this alike ("nation", not "country")
HOP_EXPLAINED = 0.4  # a hop some word matches at least this well is explained
HOP_NAMED_WORD = 0.3  # ... and its word is said to name it (the word `hop_kind` reads)
# a word that names a relation this well and this far above its next best names it, though
# weakly ("the person *leading* X", "who *studied* in X"): for building paths (the planner)
# and for explaining a hop; a relative clause's head less clear than NAMED_CLEAR says only
# what its node is (`_score_words`)
NAMED_WEAK, NAMED_CLEAR = 0.3, 0.1
PLACE_NAMES = 0.55  # a word naming a path relation this well is a place of the question
HAS_SHARE = 0.5  # a relation this share of a role's nodes have says what those nodes are
KIND_SLACK = 0.1  # a clause head that only says what its node is: how far below the best
FOCUS_SYNONYM = 0.75  # the noun asked about names a relation by meaning at this cosine
ORDER_PULL = 0.03  # per structural rank: an earlier hop takes the word the structure puts first
SWAP_COST = 0.25  # support two hops may give up to take their words in the structure's order


@dataclass(frozen=True)
class EntityMention:
    start: int  # first token
    end: int  # one past the last token
    text: str
    ids: tuple[str, ...]
    link_score: float
    bracketed: bool
    capitalized: bool
    variant: bool = False  # matched as a plural or adjectival form, not the label itself

    def overlaps(self, other: EntityMention) -> bool:
        return self.start < other.end and other.start < self.end

    @property
    def named(self) -> bool:
        """Written as a name (capitalised or bracketed), not a common noun."""
        return self.capitalized or self.bracketed


@dataclass(frozen=True)
class AnswerType:
    """What kind of answer the question asks for."""

    wh: str = ""  # "person" | "place" | "time" | "number" | "choice" | "thing" | ""
    focus: int | None = None  # token of the noun that names the answer ("which *city*")
    choices: tuple[str, ...] = ()  # "male or female"


@dataclass
class QuestionAnalysis:
    question: str
    tokens: list[str]  # raw token texts
    words: list[str]  # one normalised word per token ("" for punctuation)
    text: str = ""  # the question as read (`analyse`: undislocated, compounds unfolded)
    entities: list[EntityMention] = field(default_factory=list)
    answer: AnswerType = AnswerType()
    comparisons: list[Comparison] = field(default_factory=list)
    asks_for_others: bool = False  # "other", "same … as", "also": the topic is not an answer
    # ... and are of the topic's kind: "who *else* …", "the *other* graduates of …", "X's
    # *teammates*" (`_asks_for_peers`)
    asks_for_peers: bool = False
    # "*whose papers* appeared in J": the noun the answers own (its token) — the walk passes
    # things of its kind and goes one hop on, to their owners (core.path_fit)
    owned: int | None = None
    # relation words: token index per row of the score matrices below
    word_tokens: list[int] = field(default_factory=list)
    scores: np.ndarray | None = None  # (words × relations) lexical or semantic match
    reach: np.ndarray | None = None  # (words × role codes) match with what a role reaches
    # the type noun asked about that names relations by its form ("which *nation*"): its row,
    # that score and its word forms, for the hops whose nodes its relations point at
    kind_focus: tuple[int, float, frozenset[str]] | None = None
    # (row, forms) of a noun asked about that names no relation but that a dictionary gives
    # as what one of the KB's kinds is ("which *teams*": a club is "a team of …"): answers of
    # that kind explain it, though it names none of the hops (core.path_fit)
    genus_focus: tuple[int, frozenset[str]] | None = None
    # per word row: the relations it meets only in a head whose qualifiers the question does
    # not say ("team": `national team`, "national" unsaid) — the trace says so
    unsaid: dict[int, list[str]] = field(default_factory=dict)
    unsaid_relations: set[str] = field(default_factory=set)  # ... those relations' ids
    # roles arriving at what the noun asked about names as the thing a verb is done to
    # ("which *records*": the subjects of `recorded at`, not the studios) — the rule typing
    subject_roles: frozenset[int] = frozenset()
    best: np.ndarray | None = None  # (words,) the best explanation each word could get
    need: np.ndarray | None = None  # (words,) how much each word needs explaining
    # (words × role codes + 1): what a hop over each role explains of each word (its name or
    # what it reaches); the last column is padding (-inf)
    explains: np.ndarray | None = None
    named: np.ndarray | None = None  # (words × relations + 1): by the relation's name alone
    role_names: np.ndarray | None = None  # (words × role codes + 1): by the role's name
    lexical: np.ndarray | None = None  # (words × relations): by word form only (-1: no match)
    role_lex: np.ndarray | None = None  # (words × role codes + 1): by word form only
    vectors: np.ndarray | None = None  # (words × dims): the relation words' vectors
    semantics: RelationSemantics | None = field(default=None, repr=False)
    _cache: dict = field(default_factory=dict, repr=False)

    # -- relation words outside names ----------------------------------------------------
    def word_rows(self, *used: EntityMention) -> list[int]:
        """Rows of the relation words outside the given entity spans (memoised)."""
        key = ("rows", *((u.start, u.end) for u in used))
        if key not in self._cache:
            self._cache[key] = [
                i
                for i, t in enumerate(self.word_tokens)
                if not any(u.start <= t < u.end for u in used)
            ]
        return self._cache[key]

    @property
    def focus_row(self) -> int | None:
        """The score matrices' row of the noun asked about, where it is a relation word."""
        return self.row_of(self.answer.focus)

    def row_of(self, token: int | None) -> int | None:
        """The score matrices' row of a token, where it is a relation word."""
        return next((r for r, t in enumerate(self.word_tokens) if t == token), None)

    def relation_reading(self, row: int) -> np.ndarray:
        """(relations,): how well the word of score row `row` reads as each relation, by its
        name or what it reaches, walked either way."""
        said = self.explains[row]
        return np.maximum(said[0:-1:2], said[1:-1:2])

    def describes_answer(self, mention: EntityMention) -> bool:
        """Does a (common-noun) mention say what the answer is: the noun asked about or its
        modifier ("which *drama* films", "which *lawyers*"), or what the answer is said to
        be ("… is a *doctor*", "plays as *goalkeeper*")?"""
        focus = self.answer.focus
        counted = counted_noun(self)  # ("*count* the *papers* X wrote", "the number of *papers*")
        if counted is not None and mention.start <= counted < mention.end:
            return True
        if focus is not None and mention.start <= focus + 1 and focus <= mention.end:
            # the focus itself, or the words right before it — or after it, unless an object
            # follows: "which organisations *award* the prizes X won" (a verb, no class)
            return mention.start <= focus or not object_follows(self, mention.end)
        if self._says_what_a_name_is(mention):
            return False  # "films with X *as director*": the role of X, not the answer
        before = [w for w in self.words[max(0, mention.start - 2) : mention.start] if w]
        return bool(before) and before[-1] in _PREDICATIVE or (
            len(before) == 2 and before[0] in _PREDICATIVE and before[1] in ("a", "an", "the")
        )

    def asks_for_many(self) -> bool:
        """Does the question ask for several things: a plural noun names the answers ("which
        *clubs*", "X's *defenders*", "who are the *goalkeepers* at X"), or "who *are*"? Not
        where a singular verb follows the wh-word ("what *is* the *headquarters* …")."""
        if "many" not in self._cache:
            focus, words = self.answer.focus, self.words
            after_wh = {(w, nxt) for w, nxt in zip(words, words[1:], strict=False) if w in WH_WORDS}
            plural_noun = (focus is not None and is_plural(words[focus])) or any(
                not m.named and is_plural(words[m.end - 1]) and self.describes_answer(m)
                for m in self.entities
            )  # fmt: skip
            singular = any(nxt in ("is", "was", "'s") for _, nxt in after_wh)
            self._cache["many"] = not singular and (
                plural_noun or bool(after_wh & {("who", "are"), ("who", "were")}))
        return self._cache["many"]

    def _says_what_a_name_is(self, mention: EntityMention) -> bool:
        """ "X as N" (N right after "as", or "as the N", where X is a name of the question):
        N says what X is, so it names X's part, not a kind of answer."""
        k = mention.start - 1
        if k >= 0 and self.words[k] in ARTICLES:
            k -= 1
        return k > 0 and self.words[k] == "as" and any(
            m.named and m.end == k for m in self.entities
        )

    def relation_words(self, *used: EntityMention) -> list[list]:
        """[word, closest relation label, how much the word needs explaining] of each relation
        word: what the trace shows (lists, so a trace survives its JSON round trip)."""
        sem = self.semantics
        out = []
        for row in self.word_rows(*used):
            r = int(np.argmax(self.scores[row])) if sem and sem.rel_ids else -1
            label = sem.kg.label(sem.rel_ids[r]) if r >= 0 else ""
            if self.unsaid.get(row):  # "league (not national team: national unsaid)"
                label += f" (not {'; '.join(self.unsaid[row])} unsaid)"
            out.append([self.words[self.word_tokens[row]], label, round(float(self.need[row]), 3)])
        return out


class Lexicon:
    """Relation words of one KB by English morphology: word form -> {relation: weight}.

    Weights are inverse document frequencies over relations, so a word shared by many
    relation labels ("has") says little and a word unique to one says a lot.
    """

    def __init__(self, kg: KnowledgeGraph):
        forms_by_rel: dict[str, set[str]] = {}
        modifiers_by_rel: dict[str, set[str]] = {}
        heads: set[str] = set()
        # the label words each (form, relation) comes from: a question word meets them only
        # where it means something alike ("office" shares a stem with "officer", not a sense)
        self.sources: dict[tuple[str, str], set[str]] = defaultdict(set)
        # per relation, each name's (head words, qualifying words): ("team",), ("national",)
        self.name_parts: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        # a name of three or more words by its initials: "ceo" -> `chief executive officer`
        self.acronyms: dict[str, set[str]] = defaultdict(set)
        # per relation, the content words of each of its names: what a compound's first part
        # must be a form of where its last part meets one of them ("*birth*place")
        self.name_words: dict[str, list[set[str]]] = {}
        for rel in kg.relations:
            text = rel.words.replace(".", " ")
            forms = set()
            self.name_words[rel.id] = [set(content_words(name.replace(".", " ")))
                                       for name in (rel.label, *rel.aliases)]  # fmt: skip
            for word in content_words(text):
                for f in word_forms(word, patient=True):
                    if len(f) >= 3:
                        forms.add(f)
                        self.sources[f, rel.id].add(word)
            forms_by_rel[rel.id] = forms
            head_words, modifier_words = label_parts(text)
            last = label_tokens(text)[-1:]
            if last and last[0] not in STOPWORDS:  # a verb's label ("plays *for*") heads no kind
                heads |= {singular(w) for w in head_words}
            modifiers_by_rel[rel.id] = {singular(w) for w in modifier_words}
            self.name_parts[rel.id] = [label_parts(name.replace(".", " "))
                                       for name in (rel.label, *rel.aliases)]  # fmt: skip
            for name in (rel.label, *rel.aliases):  # (its initials: `_acronym`)
                words = label_tokens(name.replace(".", " "))
                content = tuple(w for w in words if w not in STOPWORDS)
                for part in {tuple(words), content}:
                    # (two letters from content words only: "PI" is no "published in")
                    if len(part) >= 3 or (len(part) == 2 and part == content):
                        self.acronyms["".join(w[0] for w in part)].add(rel.id)
        self.heads = frozenset(heads)  # the (singular) head nouns of the KB's labels
        # per relation, the WordNet senses of its label words (core.lexnet): what a question
        # word may mean the same as though no form nor the word vectors link them
        self.label_senses: list[tuple[str, str, dict[str, float]]] = []
        if lexnet.available():
            for rel in kg.relations:
                words = label_tokens(rel.words.replace(".", " "))
                label_heads, label_modifiers = label_parts(words)
                for i, word in enumerate(words):
                    if word in STOPWORDS or len(word) < 3:
                        continue
                    if label_modifiers and word in label_heads:
                        continue  # "team" of `national team`: a "squad" need not be national
                    pos = _label_pos(word, words[i + 1 : i + 2])
                    senses = lexnet.label_senses_with_gloss(word, pos)
                    if word in label_modifiers:  # "release" of `release year` says less
                        senses = senses.scaled(MODIFIER_SHARE)
                    self.label_senses.append((rel.id, word, senses))
        df: dict[str, int] = defaultdict(int)
        for forms in forms_by_rel.values():
            for f in forms:
                df[f] += 1
        n = max(1, len(forms_by_rel))
        self._cache: dict[str, dict[str, float]] = {}
        self._senses: dict[str, dict[str, float]] = {}
        self._paraphrased: dict[str, dict[str, float]] = {}
        # relations whose label says which side does the verb, with no stored inverse:
        # index -> is the doer the object (`_voiced_labels`)
        sem = semantics_for(kg)
        self.voiced = {sem.code[r.id]: doer for r in kg.relations if r.id not in sem.inverse
                       and (doer := label_doer(r.label)) is not None}  # fmt: skip
        self._unsaid: dict[tuple[str, str], set[str] | None] = {}
        self.by_form: dict[str, dict[str, float]] = defaultdict(dict)
        for rel_id, forms in forms_by_rel.items():
            # its modifiers that head another label: the same word, not merely a shared stem
            # ("national" qualifies `national team`; "nationality" is another word)
            qualifying = {f for w in modifiers_by_rel[rel_id] & heads
                          for f in word_forms(w, patient=True)}  # fmt: skip
            for f in forms:
                weight = math.log(1 + n / df[f]) / math.log(1 + n)
                if f in qualifying:
                    # "coach" heads `head coach` and only qualifies `coach nationality` (a
                    # nationality): it names the relation it heads rather than this one
                    weight *= MODIFIER_SHARE
                self.by_form[f][rel_id] = weight

    def match(self, word: str) -> dict[str, float]:
        """Relations a question word names by its form, with weights in (0, 1]."""
        if word not in self._cache:
            self._cache[word] = self._match(word)
        return self._cache[word]

    def _match(self, word: str) -> dict[str, float]:
        if not word or word in STOPWORDS:
            return {}
        found: dict[str, float] = {}
        for form in word_forms(word):
            for rel_id, w in self.by_form.get(form, {}).items():
                if self._alike(word, self.sources[form, rel_id]):
                    found[rel_id] = max(found.get(rel_id, 0.0), w)
        if not found and len(word) >= 8:  # compounds: "screenwriter" names "writer"
            for k in range(4, len(word) - 3):  # a head of 4+ letters: not "stu-died"
                tail = self.match(word[k:])
                if tail:  # ... and a relation its first part names too the more
                    # ("*birth*place": `place of birth`, not `place of death`)
                    first = self.match(word[:k]) if k >= 3 else {}
                    named = {rel_id: (1.0 if rel_id in first else 0.8) * w
                             for rel_id, w in tail.items()
                             if rel_id in first or self._qualifies(word[:k], word[k:], rel_id)}
                    if named:
                        return named
        return found

    def _qualifies(self, first: str, tail: str, rel_id: str) -> bool:
        """May a compound whose last part meets a relation's label name that relation though
        its first part does not? Only where the label says no more than that part (a
        "screen*writer*" is a `writer`): a "*work*place" is no `place of birth`, whose label
        says which place; "*inter*nationals" has a prefix, no noun, before its last part."""
        if not lexnet.is_noun(first):
            return True
        met = {w for f in word_forms(tail) for w in self.sources.get((f, rel_id), ())}
        return any(not (others := words - met) or any(_inflection(first, w) for w in others)
                   for words in self.name_words.get(rel_id, ()) if words & met)

    def senses(self, word: str) -> dict[str, float]:
        """Relations a question word (or a phrase joined by "_": "pass_away") shares a
        frequent WordNet sense with, through a word of their label that it is not a form of:
        "skipper" — `captain`, "set_up" — `founded by`, "passed_away" — `place of death` (by
        the derivation "death" — "die"). Weights in (0, 1] (core.lexnet.shared_sense)."""
        if word not in self._senses:
            found: dict[str, float] = {}
            if word not in STOPWORDS and lexnet.lemmas(word):
                for rel_id, label_word, senses in self.label_senses:
                    if _inflection(word, label_word):
                        continue  # a form of the label word: `match` reads it
                    weight = lexnet.shared_sense(word, senses)
                    if weight > found.get(rel_id, 0.0):
                        found[rel_id] = weight
            self._senses[word] = found
        return self._senses[word]

    def paraphrased(self, verb: str) -> dict[str, float]:
        """Relations a verb names through a short definition of one of its commonest senses
        (`lexnet.paraphrase_words`: "work" is "be *employed*" — `employer`, "study" "be a
        *student*"), at PARAPHRASE_SHARE of the sense it shares with their label."""
        if verb not in self._paraphrased:
            found: dict[str, float] = {}
            for said in lexnet.paraphrase_words(verb):
                for rel_id, label_word, senses in self.label_senses:
                    shared = 1.0 if _inflection(said, label_word) else \
                        lexnet.shared_sense(said, senses)  # fmt: skip
                    weight = PARAPHRASE_SHARE * shared
                    if weight > found.get(rel_id, 0.0):
                        found[rel_id] = weight
            self._paraphrased[verb] = found
        return self._paraphrased[verb]

    def qualifiers_unsaid(self, word: str, rel_id: str) -> set[str] | None:
        """Where the word is a head noun (or its plural) of every name of the relation it
        meets, each such name qualifying it further ("team" of `national team`): the words
        qualifying it. None where it meets a name whole ("word" of the alias "word") or in
        another part ("national", "plays" of `plays for club`), or no name at all."""
        key = (word, rel_id)
        if key not in self._unsaid:
            self._unsaid[key] = self._qualifiers(word, rel_id)
        return self._unsaid[key]

    def _qualifiers(self, word: str, rel_id: str) -> set[str] | None:
        qualifiers: set[str] = set()
        met = False
        for heads, modifiers in self.name_parts.get(rel_id, ()):
            if any(_inflection(word, h) for h in heads):
                if not modifiers:
                    return None
                qualifiers |= set(modifiers)
                met = True
            elif any(_inflection(word, w) for w in modifiers):
                return None
        return qualifiers if met else None

    @staticmethod
    def _alike(word: str, sources: set[str]) -> bool:
        """Is the word an inflection of one of the label words it shares a stem with, or does it
        mean something like one (the static vectors' cosine at least STEM_SENSE)? "directed"
        and "director" do (0.43), "office" and "officer" (0.13), "university" and "universe"
        (0.09) do not."""
        if any(_inflection(word, s) for s in sources):
            return True
        model = text_model()
        vec = model.embed(word)
        return any(float(vec @ model.embed(s)) >= STEM_SENSE for s in sources)


def _one_verb(a: str, b: str) -> bool:
    """Are the two words inflections of one word — of each other ("award" / "awarded") or of
    a third ("awards" / "awarded": award)?"""
    if _inflection(a, b):
        return True
    for suffix in ("s", "es", "d", "ed", "ing"):
        if a.endswith(suffix) and len(a) > len(suffix) + 2:
            stem = a[: -len(suffix)]
            if any(_inflection(base, b) for base in (stem, stem + "e")):
                return True
    return False


def _inflection(a: str, b: str) -> bool:
    """Are the two words one word's inflections ("found" / "founded", "plays" / "play")? Not a
    derivation ("office" / "officer"), which may change the sense."""
    short, long = sorted((a, b), key=len)
    if short == long:
        return True
    for suffix in ("s", "es", "d", "ed", "ing"):
        if long.endswith(suffix) and long[: -len(suffix)] in (short, short.removesuffix("e")):
            return True
    return False


def _dictionary_senses(qa: QuestionAnalysis, rows: list[int], sem: RelationSemantics,
                       lexicon: Lexicon, scores: np.ndarray) -> None:  # fmt: skip
    """Raise each word's score for the relations it shares a frequent English sense with
    (`Lexicon.senses`) to SENSE_SCORE times that sense's weight — by itself or as the first
    word of a phrase of two or three ("*passed* away", "*set* up", "*line* of work"): the
    word vectors read "pass" and "set" by their common senses. A noun read weakly still is
    read by its synonyms (`_synonym_scores`)."""
    words = qa.words
    names = {m.start for m in qa.entities if m.named}
    for row, i in enumerate(rows):
        if (row == qa.focus_row and not said_of_a_name(qa, i)) or scores[row].max() < -0.5:
            continue  # the noun asked about, a clause's head: they say what the answer is
            # (not "X's sis's *hubby*": a noun said of an owner names a relation of it)
        # (not one ending on a stranded "in" / "at": "which city does X *work in*" is no
        # phrase — WordNet's "work in" is mixing in; "which school did X *go to*" attends)
        # ... nor one ending on a preposition whose object is a name: "who *works in*
        # Grenoble" works there, the phrase "work in" is mixing in
        phrases = ["_".join(words[i:end]) for end in (i + 3, i + 2)
                   if end <= len(words) and all(words[i + 1 : end])
                   and not _stranded(words, end - 1)
                   and not (words[end - 1] in _PHRASE_PREPOSITIONS and end in names)]  # fmt: skip
        # the longest phrase WordNet knows is what the word means here ("*line* of work" is
        # an occupation, "*main* office" a headquarters)
        said = next((p for p in phrases if lexnet.lemmas(p)), words[i])
        for rel_id, weight in lexicon.senses(said).items():
            r = sem.code[rel_id]
            scores[row, r] = max(scores[row, r], SENSE_SCORE * weight)
        if scores[row].max() < SYNONYM_BELOW and said == words[i] and _verb_place(qa, i) \
                and words[i + 1 : i + 2] != ["as"]:  # fmt: skip
            # a verb read weakly: "who does X's spouse *work* for" (employed); not a phrase
            # WordNet knows ("*go to*" a school is no "go": "change location"), nor a verb said
            # of a role ("what does X *work as*": the role's kind is asked, not the verb's)
            for rel_id, weight in lexicon.paraphrased(said).items():
                r = sem.code[rel_id]
                scores[row, r] = max(scores[row, r], SENSE_SCORE * weight)
        if scores[row].max() < SYNONYM_BELOW and i > 0 and words_before_a_noun(words[i - 1]):
            _synonym_scores(said, sem, scores[row])  # a noun: "X's *papa*", "the *hubby* of"
            if scores[row].max() < SYNONYM_BELOW:
                _definition_scores(said, sem, scores[row])  # "X's *mentor*": an advisor


def _synonym_scores(word: str, sem: RelationSemantics, row: np.ndarray) -> None:
    """A noun the word vectors read weakly ("X's *papa*", "X's *hubby*") is read as well as
    the synonyms of its first WordNet sense are ("dad", "husband"), at SYNONYM_SHARE: the
    static vectors know the common word of a sense better than its rare ones — and as the
    plainer word the dictionary defines it as a term for ("X's *missus*": "informal term of
    address for someone's *wife*")."""
    lemmas = lexnet.lemmas(word)
    synonyms = [w for w in lexnet.synonyms(lemmas[0], "n", 1) if "_" not in w] if lemmas else []
    synonyms += [term] if lemmas and (term := lexnet.term_for(lemmas[0])) else []
    if synonyms:
        read = sem.word_scores(sem.model.embed_words(synonyms)).max(axis=0)
        np.maximum(row, SYNONYM_SHARE * read, out=row)


def _definition_scores(word: str, sem: RelationSemantics, row: np.ndarray) -> None:
    """A noun neither the word vectors nor its synonyms read well ("X's *mentor*") is read
    as the words of its first sense's genus are (what its dictionary definition says it is a
    kind of: "a wise and trusted guide and *advisor*"), at DEFINITION_SHARE."""
    words = [w for w in dict.fromkeys(lexnet.genus_words(word))
             if w.isalpha() and w not in STOPWORDS and w != word]
    if words:
        read = sem.word_scores(sem.model.embed_words(words)).max(axis=0)
        np.maximum(row, DEFINITION_SHARE * read, out=row)


def _label_pos(word: str, after: list[str]) -> str:
    """The part of speech a label word is read in (core.lexnet): a verb where it is a
    participle or a preposition follows ("*founded* by", "*plays* for club", "*born* in"),
    else a noun ("place of *birth*", "*captain*")."""
    return "v" if verb_form(word) or (after and after[0] in STOPWORDS) else "n"


def lexicon_for(kg: KnowledgeGraph) -> Lexicon:
    lex = getattr(kg, "_lexicon", None)
    if lex is None:
        lex = kg._lexicon = Lexicon(kg)
    return lex


# -- the analysis ---------------------------------------------------------------------------
_PRONOUNS = {"he": "", "she": "", "they": "", "it": "", "him": "", "them": "",
             "his": "'s", "its": "'s", "their": "'s"}  # fmt: skip
_DISLOCATED = re.compile(r"^(?P<topic>[^:\[\]]+?)\s*:\s*(?P<ask>[^:\[\]]+)$")


def undislocate(question: str) -> str:
    """A question whose topic stands first, before a colon ("Canada: official language?",
    "X's club: who is the manager?", "X's dad's wife: what faith is she") read as one
    sentence: a pronoun of the request stands for the topic, a request with a question word
    asks about the topic, a bare request names what the topic has ("Canada's official
    language?", "headquarters location of the parent of X?"). Left as written when the topic
    has a question word itself ("when was Mission: Impossible released") or the request is
    neither a question nor has a pronoun."""
    m = _DISLOCATED.match(question.strip())
    if not m:
        return question
    topic, ask = m["topic"].strip(), m["ask"].strip()
    topic_words = [w.casefold() for w in re.findall(r"[\w']+", topic)]
    ask_words = [w.casefold() for w in re.findall(r"[\w']+", ask)]
    if not topic_words or not ask_words or set(topic_words) & WH_WORDS:
        return question
    pronoun = next((i for i, w in enumerate(ask_words) if w in _PRONOUNS), None)
    if pronoun is None and not ask.endswith("?") and not set(ask_words) & WH_WORDS:
        return question
    inner = topic[0].lower() + topic[1:] if topic_words[0] in STOPWORDS else topic
    possessive = inner + ("'" if inner.endswith("'") else "'s")
    if pronoun is not None:
        word = ask_words[pronoun]
        stand_in = possessive if _PRONOUNS[word] else inner
        return re.sub(rf"\b{word}\b", lambda _: stand_in, ask, count=1, flags=re.I)
    if ask_words[0] in WH_WORDS and len(ask_words) == 1:
        return f"{ask_words[0]} is {inner}?"
    if ask_words[0] in WH_WORDS or "of" in topic_words:  # "the X of Y's Z" would read Z as Y's
        return f"{ask.rstrip('?').rstrip()} of {inner}?"
    return f"{possessive} {ask}"


# "Did X direct any westerns? Which ones?": a yes/no question about "any N", then a request
# that points back at N ("which ones", "what are they", "name them")
_ANY_THEN_WHICH = re.compile(
    r"^(?P<aux>did|do|does|has|have|had|is|are|was|were|can|could)\s+(?P<middle>[^?]+?)\s+"
    r"any\s+(?P<noun>[^?]+?)\s*\?\s*(?:(?:and\s+)?(?:which|what)\s+(?:ones|are\s+they|were\s+they)"
    r"|(?:please\s+)?(?:name|list)\s+them)\s*[?.!]?\s*$",
    re.IGNORECASE,
)


def unfold_which_ones(question: str) -> str:
    """A yes/no question about "any N" followed by a request for them ("Did X direct any
    westerns in the seventies? Which ones?") read as the one question it means: "which
    westerns in the seventies did X direct?" — so N is the noun asked about (its modifiers
    constrain the answers) rather than a pronoun's empty "ones"."""
    m = _ANY_THEN_WHICH.match(question.strip())
    if not m:
        return question
    return f"which {m['noun']} {m['aux'].lower()} {m['middle']}?"


_GRAND = re.compile(r"^(?:great-?)?grand-?(?P<base>[a-z]{2,})$")
GRAND_NAMES = 0.6  # a compound naming a relation this well is left as it is ("grandparent")
GRAND_BASE = 0.35  # the base must name a relation at least this well ("mother": `parent`)
GRAND_CHAIN = 0.2  # ... one whose nodes mostly have it themselves (parents have parents)
# a clipped base ("grand*ma*") names nothing: the whole compound must name the relation at
# least GRAND_WHOLE, GRAND_LEAD ahead of the next
GRAND_WHOLE, GRAND_LEAD = 0.3, 0.05


def _leads(scores: np.ndarray, lead: float) -> np.ndarray:
    """The best entry of `scores` alone, where it leads the next by `lead` (else none)."""
    if len(scores) < 2:
        return np.ones(len(scores), bool)
    second, top = np.sort(scores)[-2:]
    return (scores >= top) & (top - second >= lead)


def unfold_compounds(qa: QuestionAnalysis, kg: KnowledgeGraph) -> str | None:
    """English kinship compounds read as the chains they mean, in the KB's own words:
    "X's *grandmother*" is "X's *parent*'s mother", "the *grandkids* of X" is "the kids of
    the *child* of X" — the inner word is the label of the relation the base word names,
    where that relation chains onto itself in the KB (a parent's parent). None when the
    question has no such compound, or the KB names the compound itself ("grandparent")."""
    sem = qa.semantics
    if sem is None or not sem.rel_ids:
        return None
    text = qa.text
    for row, t in enumerate(qa.word_tokens):
        token, word = qa.tokens[t], qa.words[t]
        m = _GRAND.match(word)
        scores = _base_scores(sem, m) if m else None
        if m is None or scores.max() < GRAND_BASE:
            # a word for one ("granny", "nan": WordNet's first senses are grandmother's), or a
            # clipped one ("grand*pa*"): read as its synonym with the longest base
            grand = [w for w in lexnet.synonyms(word) if _GRAND.match(w)]
            same = max(grand, key=lambda w: len(_GRAND.match(w)["base"]), default=None)
            if same is not None and (not m or len(_GRAND.match(same)["base"]) > len(m["base"])):
                same += "s" * (_inflected_plural(word) and not is_plural(same))
                text = _replace_once(text, re.escape(token), same)
                token, m = same, _GRAND.match(same)
                scores = _base_scores(sem, m)
            elif m is None:
                continue
        base, least = token[len(token) - len(m["base"]):], GRAND_BASE
        if scores.max() < GRAND_BASE:  # a clipped base ("grand*ma*"): what the whole reads
            # as, itself the outer part ("X's parent's grandma")
            scores = np.where(_leads(qa.scores[row], GRAND_LEAD), qa.scores[row], -1.0)
            base, least = token, GRAND_WHOLE
        r = int(np.argmax(scores))
        if qa.scores[row].max() >= GRAND_NAMES and int(np.argmax(qa.scores[row])) != r:
            continue  # the compound names a relation of its own ("grandparent")
        code = 2 * r
        if scores[r] < least or sem.follow_share[code, code] < GRAND_CHAIN:
            continue
        inner = kg.label(sem.rel_ids[r])
        follows = qa.words[t + 1] if t + 1 < len(qa.words) else ""
        chain = f"{base} of the {inner}" if follows == "of" else f"{inner}'s {base}"
        text = _replace_once(text, re.escape(token), chain)
    return text if text != qa.text else None


def _inflected_plural(word: str) -> bool:
    """Is a word a plural WordNet reads as an inflection ("nans", "nieces"; not "gramps")?"""
    return is_plural(word) and lexnet.lemmas(word)[:1] != (word,)


def _replace_once(text: str, pattern: str, by: str) -> str:
    """`text` with the first whole-word match of a regex `pattern` replaced by `by`
    (literally: no group references)."""
    return re.sub(rf"(?<!\w){pattern}(?!\w)", lambda _: by, text, count=1)


def _base_scores(sem: RelationSemantics, compound: re.Match) -> np.ndarray:
    """How well a kinship compound's base ("*mother*" of "grandmother") names each relation —
    read in the singular, which names the kind (the static vectors put "sons" nearer
    `parent` than `child`)."""
    return sem.word_scores(sem.model.embed_words([singular(compound["base"])]))[0]


# a relational noun's definition that spells a chain: "(a niece is) a *daughter* of your
# *brother* or *sister*", "(a stepmother is) the *wife* of your *father* by a … marriage"
_CHAIN_GLOSS = re.compile(r"^(?:a|an|the) ([a-z]+) of your ([a-z]+)(?: or ([a-z]+))?"
                          r"(?: (?:by|in|on|from|through) .*)?$")


def unfold_definitions(qa: QuestionAnalysis, kg: KnowledgeGraph) -> str | None:
    """A noun that names no relation of the KB, read as the chain its dictionary definition
    spells (`_CHAIN_GLOSS`), in the KB's words where its parts are coordinated: "X's
    *nieces*" is "X's sibling's daughters" (a niece is "a daughter of your brother or
    sister", both of which name `sibling`), "the *cousins* of X" "the children of X's parent's
    sibling" (an aunt or uncle unfolds the same way). None where no word does."""
    sem = qa.semantics
    if sem is None or not sem.rel_ids or not lexnet.available():
        return None
    text = qa.text
    for row, t in enumerate(qa.word_tokens):
        if qa.scores[row].max() >= GRAND_NAMES:
            continue  # the word names a relation itself
        chain = _definition_chain(sem, kg, qa.words[t])
        if chain is None:
            continue
        *parts, outer = chain
        token = qa.tokens[t]
        if _inflected_plural(qa.words[t]):
            outer = plural(outer)
        follows = qa.words[t + 1] if t + 1 < len(qa.words) else ""
        owner = next((m for m in qa.entities if m.named and m.start == t + 2), None)
        if follows == "of" and owner is not None:  # "the nephews of X": "the sons of X's sibling"
            name = r"\s+".join(re.escape(w) for w in qa.tokens[owner.start : owner.end])
            token = rf"{re.escape(token)}\s+of\s+{name}"
            unfolded = f"{outer} of {' '.join(qa.tokens[owner.start : owner.end])}" + \
                "".join(f"'s {p}" for p in parts)  # fmt: skip
        elif follows == "of":  # "the nephews of the CEO of X"
            token = re.escape(token)
            unfolded = " ".join([outer, *(f"of the {p}" for p in reversed(parts))])
        else:  # "X's nephews": "X's sibling's sons"
            token = re.escape(token)
            unfolded = "".join(f"{p}'s " for p in parts) + outer
        text = _replace_once(text, token, unfolded)
    return text if text != qa.text else None


def _definition_chain(sem: RelationSemantics, kg: KnowledgeGraph, word: str,
                      depth: int = 0) -> list[str] | None:  # fmt: skip
    """The parts of the chain a noun's first definition spells, the owner's first and the
    word that names the last hop last ("niece": [`sibling`'s label, "daughter"]); None where
    it spells none, or a part names no relation (GRAND_BASE)."""
    lemma = (lexnet.lemmas(word) or (word,))[0]
    m = _CHAIN_GLOSS.match(lexnet.first_gloss(lemma))
    if m is None:
        return None
    outer, owners = m[1], [w for w in m.groups()[1:] if w]
    scores = sem.word_scores(sem.model.embed_words([outer, *owners]))
    if scores[0].max() < GRAND_BASE:
        return None
    if len(owners) == 1 and scores[1].max() >= GRAND_BASE:
        return [owners[0], outer]  # "the wife of your *father*": the owner's own word
    named = {int(np.argmax(row)) for row in scores[1:]}
    if len(named) == 1 and all(row.max() >= GRAND_BASE for row in scores[1:]):
        # "your brother or sister": the relation both name, by its label
        return [kg.label(sem.rel_ids[named.pop()]), outer]
    if depth == 0:  # "the child of your aunt or uncle": each unfolded, to the same chain
        chains = [_definition_chain(sem, kg, w, depth + 1) for w in owners]
        if all(chains) and len({tuple(c[:-1]) for c in chains}) == 1:
            lasts = sem.word_scores(sem.model.embed_words([c[-1] for c in chains]))
            named = {int(np.argmax(row)) for row in lasts}
            if len(named) == 1 and all(row.max() >= GRAND_BASE for row in lasts):
                return [*chains[0][:-1], kg.label(sem.rel_ids[named.pop()]), outer]
    return None


# "X's *mother-in-law*", "the *in-laws* of X": kin by marriage, read as the chain they mean
_IN_LAW = re.compile(r"\b(?:(?P<kin>[a-z]+)-)?in-law(?P<plural>s)?\b", re.IGNORECASE)
_DESCENDANTS = {"son": "husband", "sons": "husbands", "daughter": "wife", "daughters": "wives",
                "child": "spouse", "children": "spouses"}  # fmt: skip


def unfold_in_laws(question: str) -> str:
    """English kin by marriage as the chain it means, in plain words the analysis reads
    against the KB like any other: "X's *mother-in-law*" is "X's spouse's mother", "X's
    *son-in-law*" is "X's child's husband", bare "*in-laws*" are the spouse's parents; "the
    *mother-in-law* of X" is "the mother of the spouse of X". Coordinated halves ("mother- and
    father-in-law") are left as written."""

    def chain(m: re.Match) -> str:
        kin = (m["kin"] or "").lower()
        if not kin:
            kin = "parents" if m["plural"] else "parent"
        elif m["plural"]:
            kin = kin + "s"  # "brother-in-laws", as people write it
        of_form = re.match(r"\s+of\b", question[m.end():]) is not None
        if kin in _DESCENDANTS:  # the spouse of one's child
            child = "children" if kin.endswith(("s", "ren")) else "child"
            return (f"{_DESCENDANTS[kin]} of the {child}" if of_form
                    else f"{child}'s {_DESCENDANTS[kin]}")  # fmt: skip
        return f"{kin} of the spouse" if of_form else f"spouse's {kin}"

    if re.search(r"-\s+(?:and|or)\b", question):
        return question  # "mother- and father-in-law": one relation's two halves
    return _IN_LAW.sub(chain, question)


def analyse(question: str, kg: KnowledgeGraph) -> QuestionAnalysis:
    """Entity mentions, relation words with their scores, the answer asked for, constraints.
    A question written topic first ("Canada: official language?") is read as one sentence
    (`undislocate`), and so is "Did X … any N? Which ones?" (`unfold_which_ones`); kin by
    marriage as the chain it means (`unfold_in_laws`); a kinship
    compound as its chain (`unfold_compounds`, which needs the first reading); `question`
    stays as asked."""
    text = unfold_in_laws(unfold_which_ones(undislocate(question)))
    qa = _analyse(question, text, kg)
    for unfold in (unfold_compounds, unfold_definitions):
        unfolded = unfold(qa, kg)
        if unfolded is not None:
            qa = _analyse(question, unfolded, kg)
    return qa


def _analyse(question: str, text: str, kg: KnowledgeGraph) -> QuestionAnalysis:
    bracketed = [(m.start(), m.end()) for m in re.finditer(r"\[[^\]]+\]", text)]
    clean = text.replace("[", " ").replace("]", " ")
    spans = _tokenize(clean)
    tokens = [clean[a:b] for a, b in spans]
    words = [_word(t) for t in tokens]
    for k in range(1, len(tokens) - 1):  # "X's *parents'* jobs": a plural's possessive
        if tokens[k] in ("'", "’") and spans[k - 1][1] == spans[k][0] and \
                words[k - 1].endswith("s") and words[k + 1]:  # fmt: skip
            words[k] = "'s"
    qa = QuestionAnalysis(question=question, tokens=tokens, words=words, text=text)
    qa.entities = _entity_mentions(clean, spans, bracketed, kg, words)
    names = {k for m in qa.entities if m.named for k in range(m.start, m.end)}
    qa.comparisons = find_comparisons(words, names)
    compared = {k for c in qa.comparisons for k in range(c.start, c.end)}
    # a year inside a comparison ("before 1998") is a value to compare with, not a topic
    qa.entities = [
        m for m in qa.entities
        if not any(c.op != "=" and m.start < c.end and c.start < m.end for c in qa.comparisons)
    ]  # fmt: skip
    modifiers = {k for m in qa.entities if not m.named for k in range(m.start, m.end)}
    for k, t in enumerate(tokens):  # "French-language films": both parts modify "films"
        if t in ("-", "–") and 0 < k < len(tokens) - 1:
            modifiers.update((k - 1, k + 1))
    qa.answer = _named_not_person(_answer_type(words, names | compared, modifiers), words,
                                  names | compared, modifiers, kg)
    qa.asks_for_others = any(_other_cue(w) for i, w in enumerate(words) if i not in names) \
        or _accompanied(words, qa.answer.focus)
    qa.asks_for_peers = _asks_for_peers(words, qa.answer.focus, names)
    qa.owned = _owned_noun(words, names | compared, modifiers)
    _score_words(qa, kg, names)
    return qa


def _accompanied(words: list[str], focus: int | None) -> bool:
    """ "*Who* did X start companies *with*?": a "who" question that ends on "with" asks for
    the people X did it together with — others than X, like "who *else*" ("which *band* does
    X play with" asks for no person)."""
    said = [w for w in words if w]
    return focus is not None and words[focus] in ("who", "whom") and said[-1:] == ["with"]


def _other_cue(word: str) -> bool:
    return word in _OTHER_CUES or (word.endswith(_OTHER_SUFFIXES) and len(word) > 6)


def relation_word(word: str) -> str:
    """The part of a word that can name a relation: the first part of a peer compound
    ("*club*mates", "*class*mates": others sharing a club, a class), else the word itself."""
    for suffix in sorted(_OTHER_SUFFIXES, key=len, reverse=True):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)].rstrip("-")
    return word


def _asks_for_peers(words: list[str], focus: int | None, names: set[int] = frozenset()) -> bool:
    """Does a cue for others say what the answers are — "who *else*", "the *other* graduates",
    "X's *teammates*" — rather than something met on the way ("the languages of the films
    that *share* directors with X")?"""
    if focus is not None:
        before = words[focus - 1] if focus > 0 else ""
        if _other_cue(words[focus]) or (_other_cue(before) and before not in _ADDITIVE_CUES):
            return True
        if words[focus] in ("who", "whom"):  # "who works *alongside* X at the *same* firm":
            copula = focus + 1 < len(words) and words[focus + 1] in COPULAS
            for k in range(focus + 1, len(words)):  # a cue in the clause the question opens
                if words[k] in RELATIVE_PRONOUNS:
                    break  # ("who directed the films that *share* actors with X")
                if words[k - 1] == "'s" and not copula:
                    continue  # ("who founded X's *rival*": the rival is met on the way; "who
                    # are X's *teammates*" says what the answers are)
                if k not in names and _other_cue(words[k]) and words[k] not in _ADDITIVE_CUES:
                    return True
    return any(w == "else" and words[i - 1] in WH_WORDS for i, w in enumerate(words) if i > 0)


# pronouns that open a relative clause ("the club *that* X plays for"); core.agents.cok splits
# a question's clauses at them too
RELATIVE_PRONOUNS = frozenset("that which who whom whose where when".split())


def _tokenize(text: str) -> list[tuple[int, int]]:
    """Character spans of tokens: words (inner apostrophes and dots kept: "O'Brien",
    "C.H.O.M.P.S"), punctuation on its own, and the possessive "'s" split off its word."""
    out = []
    for m in _TOKEN.finditer(text):
        a, b = m.start(), m.end()
        poss = _POSSESSIVE.match(m.group())
        if poss:
            cut = a + len(poss.group(1))
            out += [(a, cut), (cut, b)]
        else:
            out.append((a, b))
    return out


def _word(token: str) -> str:
    if token in ("'s", "’s"):
        return "'s"
    return normalize(token) if any(c.isalnum() for c in token) else ""


# -- entities ---------------------------------------------------------------------------------
def _entity_mentions(clean, spans, bracketed, kg: KnowledgeGraph, words) -> list[EntityMention]:
    found: list[EntityMention] = []
    n = len(spans)
    # does the writer use capitals for names at all (past the first word)? Only then does a
    # name written in lower case say something (an all-lowercase question says nothing)
    uses_case = any(clean[spans[k][0]].isupper() for k in range(1, n) if words[k])
    for i in range(n):
        if not words[i] or words[i] == "'s":
            continue
        for j in range(i + 1, min(n, i + _MAX_SPAN) + 1):
            if words[j - 1] == "'s":
                continue  # a name does not end in a possessive ("Merrill's Marauders" may hold one)
            text = clean[spans[i][0] : spans[j - 1][1]]
            span_words = [w for w in words[i:j] if w]
            in_brackets = bool(bracketed) and any(
                a <= spans[i][0] and spans[j - 1][1] <= b for a, b in bracketed
            )
            has_upper = any(c.isupper() for c in text)
            if all(w in STOPWORDS for w in span_words) and not in_brackets:
                if j - i < 2 or not has_upper:
                    continue
            ids, variant = kg.exact(text), False
            if not ids and j - i <= 2 and not in_brackets:
                ids, variant = _variant_ids(kg, text), True
            if not ids and j - i == 1 and text[:1].isupper() and text.isalpha() \
                    and words[i] not in STOPWORDS and words[i] not in FRAME_WORDS:  # fmt: skip
                ids = _value_by_meaning(kg, text)
            if not ids:
                if j - i >= 2 and not _may_grow(kg, text):
                    break  # no label starts with these words: a longer span is none either
                continue
            capitalized = any(
                clean[spans[k][0]].isupper() for k in range(i, j) if k > 0 and words[k]
            ) or (i == 0 and any(c.isupper() for c in text[1:]))
            if capitalized and not in_brackets and _title_cased_word(kg, words[i:j], ids):
                capitalized = False
            ids = sorted(ids, key=lambda x: (kg.label(x) != text, -kg.degree(x)))
            score = 1.0 + 0.1 * min(5, j - i)
            label = kg.label(ids[0])
            if label == text and has_upper:
                score += 0.4  # the question writes the name exactly as the KB does
            elif uses_case and not has_upper and not in_brackets and label != label.lower():
                score -= 0.3  # the KB writes a name ("Made") where the question, which
                # capitalises names, writes a common word ("movies made by Chuck Russell")
            if capitalized:
                score += 0.3
            if in_brackets:
                score += 1.0
            if variant:
                score -= 0.3
            found.append(
                EntityMention(i, j, text, tuple(ids), score, in_brackets, capitalized, variant)
            )
    found.sort(key=lambda m: (-m.link_score, m.start))
    return found


def _title_cased_word(kg: KnowledgeGraph, words: list[str], ids) -> bool:
    """Is a capitalised single word a title-cased common noun, not a name? "who is the
    *Director* of X": the KB writes the node it matches in lower case (a tag, a keyword: a
    common word there too) and the word names a relation by its form — so it is read as the
    relation word it is, not as a name the question leaves unused."""
    return (
        len(words) == 1
        and all(kg.label(x) == kg.label(x).lower() for x in ids)
        and bool(lexicon_for(kg).match(words[0]))
    )


def _value_by_meaning(kg: KnowledgeGraph, word: str) -> list[str]:
    """A capitalised word that is no label may name a shared value of the KB by meaning — an
    adjective of a country ("*Dutch*" → Netherlands, "*French*" → France), which no rule of
    morphology reaches: the value nearest it, where it is near (cosine ≥ VALUE_NEAR) and
    clearly nearer than the next (by VALUE_MARGIN)."""
    if len(word) < 4:
        return []
    sem = semantics_for(kg)
    ids, vecs = sem.shared_value_nodes()
    if len(ids) < 2:
        return []
    sims = vecs @ sem.model.embed_words([word])[0]
    first, second = np.argsort(-sims)[:2]
    if sims[first] >= VALUE_NEAR and sims[first] - sims[second] >= VALUE_MARGIN:
        return [ids[int(first)]]
    return []


VALUE_NEAR, VALUE_MARGIN = 0.45, 0.1


def _may_grow(kg: KnowledgeGraph, text: str) -> bool:
    """Can a longer span starting like `text` still be a label?"""
    return kg.starts_label(normalize(text)) or kg.starts_label(normalize(text.strip(_EDGE)))


_EDGE = "\"'“”‘’«»()[]{}<>,;:.?!"


def _variant_ids(kg: KnowledgeGraph, text: str) -> list[str]:
    """Nodes named by a plural or an adjective of their label: "lawyers", "comedies",
    "Brazilian" (English morphology only; a weaker reading than the label itself)."""
    word = normalize(text)
    if len(word) < 4:
        return []
    for form in _singulars(word):
        ids = kg.exact(form)
        if ids:
            return ids
    for cut in range(1, 5):  # "brazilian" -> "brazil", "japanese" -> "japan"
        stem = word[:-cut]
        if len(stem) >= 4 and word[len(stem) :] in _ADJ_ENDINGS_BY_LEN.get(cut, ()):
            ids = kg.exact(stem) or kg.exact(stem + "y") or kg.exact(stem + "a")
            if ids:
                return ids
    head, _, last = word.rpartition(" ")
    for form in practised(last):  # "plasma physicists" -> "plasma physics"
        ids = kg.exact(f"{head} {form}" if head else form)
        if ids:  # (not a class: "*journal*ists" are no journals)
            sem = semantics_for(kg)
            ids = [n for n in ids if not sem.class_node(n)]
        if ids:
            return ids
    return []


def practised(noun: str) -> list[str]:
    """What a practitioner noun names the practice or instrument of, by English derivation:
    "physicists" -> physics, "geologist" -> geology, "chemist" -> chemistry, "guitarists" ->
    guitar, "pianist" -> piano, "mathematician" -> mathematics, "historian" -> history,
    "crystallographers" -> crystallography, "astronomer" -> astronomy, "number *theorist*" ->
    theory. Candidates only: a KB label decides which (if any) is meant."""
    word = next(iter(_singulars(noun)), noun) if noun.endswith("s") else noun
    out: list[str] = []
    for suffix, ends in _PRACTICE_SUFFIXES:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 3:
            out += [stem + end for end in ends]
    if word.endswith("ist") and len(word) > 5:
        out += [word + "ry", word + "ics"]  # "chemist" -> chemistry, "linguist" -> linguistics
    return [f for f in dict.fromkeys(out) if f != word]


_PRACTICE_SUFFIXES = (
    ("ist", ("s", "y", "ics", "o", "ism", "")),  # physic-s, geolog-y, pian-o, guitar
    ("ian", ("s", "y", "")),  # mathematic-s, histor-y, music
    ("grapher", ("graphy",)),  # crystallographer, oceanographer, photographer
    ("nomer", ("nomy",)),  # astronomer
    ("logian", ("logy",)),  # theologian
)


_ADJ_ENDINGS_BY_LEN = {
    1: ("n",),
    2: ("an", "ic", "sh"),
    3: ("ian", "ean", "ese", "ish", "ean", "ite"),
    4: ("ians", "eans", "ites"),
}


def _singulars(word: str) -> list[str]:
    if word.endswith("ies") and len(word) > 4:
        return [word[:-3] + "y"]
    if word.endswith("es") and len(word) > 4:
        return [word[:-2], word[:-1]]
    if word.endswith("s") and not word.endswith("ss"):
        return [word[:-1]]
    return []


# -- the answer asked for ---------------------------------------------------------------------
def _answer_type(words: list[str], names: set[int], modifiers: frozenset | set = frozenset()
                 ) -> AnswerType:  # fmt: skip
    """who -> person; where -> place; when / what year -> time; how many / old / tall ->
    number; what / which N -> N; "A or B" -> a choice; else the head noun of the request.
    "the *number of* N" asks for a number, as "how many N" does."""
    asked = _asked_type(words, names, modifiers)
    start = next((i for i, w in enumerate(words) if w not in _POLITE), len(words))
    if start + 1 < len(words) and words[start] == "count" and start not in names \
            and words[start + 1] != "of" and asked.wh in ("thing", ""):  # fmt: skip
        return AnswerType("number", start, asked.choices)  # "*count* the films X directed"
    k = asked.focus
    if asked.wh == "thing" and k is not None and words[k] in QUANTITY_NOUNS \
            and k + 2 < len(words) and words[k + 1] == "of" and k + 2 not in names \
            and words[k + 2] not in STOPWORDS:  # fmt: skip
        return AnswerType("number", k, asked.choices)
    return asked


QUANTITY_NOUNS = frozenset("number count amount total".split())  # "the *number* of seats"
# words a request may open with before its verb ("please *count* …", "can you count …")
_POLITE = frozenset("please can could would will you just now kindly".split())
# "how *many* films", "the *number* of films": a count of things, where no number of the KB is
# what the noun names ("how much", "what amount" ask for a quantity, never a count)
COUNT_WORDS = frozenset("many number count total".split())


def asks_count(qa: QuestionAnalysis) -> bool:
    """Does the question ask how many (of something)? Then its answer may be how many things
    a walk reaches ("how many films did X direct") as well as a number the KB holds ("how
    many seats does the stadium have": its capacity)."""
    k = qa.answer.focus
    return qa.answer.wh == "number" and k is not None and qa.words[k] in COUNT_WORDS


TIME_UNITS = frozenset("years months weeks days hours minutes decades centuries".split())


def literal_kinds(qa: QuestionAnalysis) -> tuple[str, ...]:
    """The literal kinds of value that answer the question ("year" for "when"; a number or a
    year for "how many"), empty for any other. "How many *years* …" asks for a length of
    time — a number ("how many years has X been alive": X's age), not a date."""
    if qa.answer.wh == "time":
        return ("year",)
    if qa.answer.wh != "number":
        return ()
    k = counted_noun(qa)
    return ("number",) if k is not None and qa.words[k] in TIME_UNITS else ("number", "year")


def counted_noun(qa: QuestionAnalysis) -> int | None:
    """The token of the noun a count question counts ("how many *films*", "the number of
    *films*"), if it asks one."""
    if not asks_count(qa):
        return None
    rows = set(qa.word_tokens)
    for k in range(qa.answer.focus + 1, len(qa.words)):  # "how many *other* members"
        if k in rows or qa.words[k] in AUXILIARIES:
            return k if k in rows else None
    return None


_OBJECT_OPENERS = frozenset("the a an his her their its my your our".split())


def object_follows(qa: QuestionAnalysis, at: int) -> bool:
    """Does an object start at token `at` — a determiner or a name ("who *awards* the
    prize", "who *awards* Jowett Prize")? Then the word before it is a verb taking it."""
    if at >= len(qa.words):
        return False
    return qa.words[at] in _OBJECT_OPENERS or any(m.named and m.start == at for m in qa.entities)


def _named_not_person(asked: AnswerType, words: list[str], names: set[int],
                      modifiers: frozenset | set, kg: KnowledgeGraph) -> AnswerType:  # fmt: skip
    """"Who is *the employer* of X": "who" asks for a person unless the noun after "is
    the" names, by its form, only relations of the KB that reach no persons (a firm here,
    where "who is the *director* of X", "who is the *gaffer* at X" still ask for one)."""
    i = asked.focus
    if asked.wh != "person" or i is None or i + 2 >= len(words) \
            or words[i] not in ("who", "whom") or words[i + 1] not in ("is", "was") \
            or words[i + 2] != "the":  # fmt: skip
        return asked
    named = _which_noun(words, i + 2, names, modifiers, asked.choices)
    if named.focus is None or named.wh != "thing":
        return asked
    sem = semantics_for(kg)
    rels = lexicon_for(kg).match(words[named.focus])
    if not rels or not sem.rel_ids:
        return asked
    person = sem.model.embed(PERSON_WORDS)
    return named if all(sem.relative_reach(person, 2 * sem.code[r]) < 0 for r in rels) \
        else asked  # fmt: skip


def _asked_type(words: list[str], names: set[int], modifiers: frozenset | set
                ) -> AnswerType:  # fmt: skip
    """The answer type by the question word or the noun asked for (see `_answer_type`)."""
    choices = _choices(words, names)
    last = _afterthought(words, names)
    if last is not None:  # "Where was X born - *which country*?": the later, narrower ask
        return _which_noun(words, last, names, modifiers, choices)
    for i, w in enumerate(words):
        if i in names:
            continue  # "When Ladies Meet" is a title, not a question word
        if w in WH_WORDS and _relative(words, i, names):
            # "the country *in which* X was born": the noun before it is asked for — unless a
            # later wh-word asks ("the player *who* captains X is at *which club*")
            continue
        if w in ("who", "whom"):
            if _strands_preposition(words, i) and not _says_who_is(words, i) \
                    and not _subject_of_verb(words, i, names):  # fmt: skip
                return AnswerType("", i, choices)  # "who does X play for": a team as often
            return AnswerType("person", i, choices)
        if w == "whose":
            k = _next_content(words, i, names, modifiers)
            if _copula_after_noun(words, i) or _does_its_own_verb(words, k, names):
                # "*whose* mother is X", "*whose* papers appeared in J": the answers own the
                # noun — it names a relation walked to them, not the answer
                return AnswerType("", None, choices)
            return AnswerType("thing", k, choices)
        if w == "where":
            return AnswerType("place", i, choices)
        if w == "when":
            return AnswerType("time", i, choices)
        if w == "how" and i + 1 < len(words) and words[i + 1] in _HOW_NUMBER:
            return AnswerType("number", i + 1, choices)
        if w in ("what", "which"):
            return _which_noun(words, i, names, modifiers, choices)
    if choices:
        return AnswerType("choice", None, choices)
    # no question word: "name the city where …", "Liverpool-born players?", and a
    # possessive chain names its head last ("X's wife's *birthplace*")
    k = head_noun(words, names)
    if k is not None and words[k] in PERSON_NOUNS:
        return AnswerType("person", k, choices)
    return AnswerType("thing" if k is not None else "", k, choices)


def _which_noun(words: list[str], i: int, names: set[int], modifiers: frozenset | set,
                choices: tuple) -> AnswerType:  # fmt: skip
    """The answer type of "what / which N" at i: a time, a person or a thing by the noun.
    Right before "do" / "does" / "did" the question word is the verb's object and asks no
    noun: "what does *the husband* of X work as" asks for no husband."""
    if i + 1 < len(words) and words[i + 1] in DO_SUPPORT:
        return AnswerType("choice" if choices else "", None, choices)
    if 0 < i < len(words) - 1 and words[i - 1] in AUXILIARIES \
            and words[i + 1] in _LEADING_PREPOSITIONS and words[i + 1] != "of":  # fmt: skip
        # "X's husband *does what for* a living": in place of the verb's object, the question
        # word asks no noun — the one after the preposition is the preposition's
        return AnswerType("choice" if choices else "", None, choices)
    k = _next_content(words, i, names, modifiers)
    start = i + 3 if i + 3 < len(words) and words[i + 2] in ARTICLES else i + 2
    if k is None and start < len(words) and words[i + 1] in COPULAS and start in names:
        # "what is (the) *X*'s band's home *city*": a possessive chain after the copula names
        # its head last, as "what is the home city of X's band" names it first (not "what was
        # X the director of", whose question word is the object)
        end = next(j for j in range(start, len(words) + 1) if j not in names)
        k = head_noun(words, names) if end < len(words) and words[end] == "'s" else None
        k = k if k is not None and k > end else None
    if k is not None and k + 1 < len(words) and k + 1 not in names and words[k + 1] \
            and compound_noun(words[k], words[k + 1]):  # fmt: skip
        k += 1  # "which *record company*": the compound's head is the noun asked about
    if k is not None and words[k] in _TIME_NOUNS:
        return AnswerType("time", k, choices)
    if k is not None and words[k] in PERSON_NOUNS:
        return AnswerType("person", k, choices)
    if choices:
        return AnswerType("choice", k, choices)
    return AnswerType("thing" if k is not None else "", k, choices)


def _afterthought(words: list[str], names: set[int]) -> int | None:
    """The "which" / "what" of a short ask after a dash or comma that ends the question
    ("Where does X play - *which* country?", "X's captain was born where, *what* city?")."""
    for p in range(len(words) - 2, 0, -1):
        if words[p] not in ("which", "what"):
            continue
        rest = [k for k in range(p + 1, len(words)) if words[k]]
        if words[p - 1] in ("", "-", "–") and 0 < len(rest) <= 2 and not set(rest) & names:
            return p
        return None
    return None


def _copula_after_noun(words: list[str], i: int) -> bool:
    """Does the noun phrase after words[i] end in "is"/"was" ("whose *alma mater* is X")
    rather than run on into another verb ("whose films have X direct")?"""
    j = i + 1
    while j < len(words) and j - i <= 4 and words[j] not in COPULAS:
        if words[j] in STOPWORDS and words[j] not in ("of", "-"):
            return False
        j += 1
    return j < len(words) and words[j] in COPULAS


def _owned_noun(words: list[str], names: set[int], modifiers: frozenset | set) -> int | None:
    """The noun after the question's own "whose" that does its own verb ("*whose papers*
    appeared in J"): what the answers own, not the answer."""
    for i, w in enumerate(words):
        if w == "whose" and i not in names and not _relative(words, i, names):
            k = _next_content(words, i, names, modifiers)
            return k if _does_its_own_verb(words, k, names) else None
    return None


def _does_its_own_verb(words: list[str], k: int | None, names: set[int]) -> bool:
    """Is the noun at k (after "whose") the subject of the verb right after it ("whose
    *papers appeared* in J")? Then the answers own the noun. Not where an auxiliary follows
    it ("whose films *have* X direct", machine-translated "which": the noun is the object)."""
    j = None if k is None else k + 1
    return j is not None and j < len(words) and j not in names and \
        words[j] not in AUXILIARIES and words[j] not in STOPWORDS and \
        (verb_form(words[j]) or bool(lexnet.senses(words[j], "v")))  # fmt: skip


COPULAS = frozenset("is are was were".split())
ARTICLES = frozenset("the a an".split())
# pronouns that stand for what is asked ("list *everything* X scripted")
_INDEFINITES = frozenset(
    f"{q}{r}" for q in ("every", "any", "some") for r in ("thing", "one", "body"))
# what may open a noun phrase that heads a clause ("name *every* comedy picture X scripted")
_NOUN_PHRASE_OPENERS = ARTICLES | frozenset(
    "every each all any some no these those this that my your his her its our their".split())
DO_SUPPORT = frozenset("do does did".split())
MODALS = frozenset("can could will would should may might must shall".split())
_INVERTING = DO_SUPPORT | MODALS  # auxiliaries that put the subject after them (`do_question`)
AUXILIARIES = COPULAS | DO_SUPPORT | frozenset("has have had can could will would".split())


def _partitive(words: list[str], k: int) -> bool:
    """Is token k a part or an amount whose "of" phrase names what is asked ("the *rest* of
    the clubs", "a *couple* of words")?"""
    return words[k] in PARTITIVES and k + 1 < len(words) and words[k + 1] == "of"


def do_question(words: list[str], end: int) -> bool:
    """Does "do" / "does" / "did" — or a modal, which inverts the same way ("which languages
    *can* X's mum speak") — stand before token `end` ("where *did* X's kids study")?"""
    return not _INVERTING.isdisjoint(words[:end])


def head_noun(words: list[str], names: set[int]) -> int | None:
    """The noun a request without a question word asks for: the head of its first run of
    content words outside names, or of the last noun of a possessive chain."""
    k, described = 0, False
    while k < len(words):
        w = words[k]
        if k in names or not w or w in STOPWORDS or w in FRAME_WORDS or w == "'s" or w.isdigit() \
                or ((described or k - 1 in names) and verb_form(w)):  # fmt: skip
            # "X *directed* to films": a participle after a name is its verb, not a noun
            k += 1
            continue
        end = k
        while end + 1 < len(words) and end + 1 not in names:
            nxt = words[end + 1]
            if not nxt or nxt in STOPWORDS or nxt in FRAME_WORDS or nxt == "'s" or verb_form(nxt):
                break
            if nxt in PREPOSITIONS:
                break
            end += 1
        if end + 1 < len(words) and words[end + 1] == "'s":
            k = end + 2  # "X's wife's birthplace": go on to the possessed noun
            continue
        if _partitive(words, end):
            k = end + 2  # "the rest of the clubs": the clubs are asked for
            continue
        if end + 1 in names and (k == 0 or words[k - 1] not in _NOUN_PHRASE_OPENERS) \
                and words[end] not in _INDEFINITES:  # fmt: skip
            # "can you describe *movie* X in a few words": a noun right before a name, with
            # no determiner, says what the name is; the ask is elsewhere ("words") — with
            # one it heads a clause ("name every comedy *picture* X scripted")
            k, described = end + 1, True
            continue
        if k >= 3 and words[k - 1] in ("a", "an") and words[k - 2] in COPULAS \
                and k - 3 in names:  # fmt: skip
            # "X is a *film* written by this person": the noun says what X is; what the
            # clause after it names is asked for
            k, described = end + 1, True
            continue
        return end
    return None


def _strands_preposition(words: list[str], wh: int) -> bool:
    """Does the question after "who" leave a preposition without its object — at the end
    ("who does X play *for*"), or before another preposition or a clause ("who does X turn
    out *for* at international level", "who does X line up *for* when …")? Then "who" is that
    object: a team or a company as often as a person ("by" asks for an agent)."""
    if next((w for w in reversed(words) if w), "") in STRANDABLE:
        return True
    for k in range(wh + 2, len(words) - 1):
        if words[k] in STRANDABLE and (words[k + 1] in STRANDABLE
                                        or words[k + 1] in _CLAUSE_AFTER):  # fmt: skip
            return True
    return False


def _says_who_is(words: list[str], wh: int) -> bool:
    """Is "who" the subject of a copula whose complement follows ("who *is in charge of*
    the side X plays for", "who *is the* coach of the club X plays for")? Then a preposition
    left at the end is a relative clause's, not the question word's."""
    return wh + 2 < len(words) and words[wh + 1] in COPULAS and \
        words[wh + 2] in ARTICLES | _PHRASE_PREPOSITIONS  # fmt: skip


def _subject_of_verb(words: list[str], wh: int, names: set[int]) -> bool:
    """Is "who" the subject of the verb right after it ("who *runs* the projects the
    foundation pays for")? Then a preposition left at the end is a relative clause's: the
    question word had no auxiliary to invert, so it is no verb's object ("who *does* X play
    for")."""
    k = wh + 1
    return k < len(words) and k not in names and words[k] not in AUXILIARIES \
        and bool(lexnet.senses(words[k], "v"))  # fmt: skip


STRANDABLE = frozenset("for with against at to from in on".split())
# prepositions that open a phrase of their own after a copula ("which was *in* the film X")
_PHRASE_PREPOSITIONS = frozenset("in on at by with from into inside".split())
# a clause that follows a stranded preposition ("… line up *for when* …"); not a relative
# pronoun, which takes the preposition as its own ("the club *for which* X plays")
_CLAUSE_AFTER = frozenset("when while whenever".split())


def _relative(words: list[str], i: int, names: set[int]) -> bool:
    """Is the wh-word at i a relative pronoun ("name the city *where* X was born")? Content
    comes before it, and a clause after it; a wh-word among the last words asks the question
    where it stands ("X were in *which* genres", "X's wife is *who*")."""
    if i + 1 < len(words) and words[i + 1] in AUXILIARIES and (
        (i > 0 and not words[i - 1]) or words[i] in ("where", "when")
    ):  # "X's wife, *where* was she born": a question after the comma, inverted; and a
        return False  # relative "where"/"when" has a subject next, never a verb ("X *when* was")
    first = _after_fronted_phrase(words, i)
    if i == first + 1 and words[first] in _LEADING_PREPOSITIONS:
        return False  # "*since when* has X existed", "*in which* city was X born"
    if words[i] == "what" and i > 0 and words[i - 1] in AUXILIARIES:
        return False  # "X's husband *does what* for a living": "what" has no antecedent
    content_before = any(
        w and (k in names or (w not in STOPWORDS and w not in FRAME_WORDS and w != "'s"))
        for k, w in enumerate(words[first:i], start=first)
    )
    after = [w for w in words[i + 1 :] if w]
    return content_before and len(after) > 2


_LEADING_PREPOSITIONS = PREPOSITIONS | frozenset(
    "in for of from with at since until till to by on into".split())
_OPENERS = PREPOSITIONS | {"apart", "aside", "other", "in", "for", "of", "from", "with", "at"}


def _after_fronted_phrase(words: list[str], i: int) -> int:
    """Where the question proper starts when it opens with a prepositional phrase closed by
    punctuation ("Apart from X, who …", "In 1990, which …"): the wh-word after the comma
    asks the question; it is not a relative pronoun of the name before the comma."""
    if not words or words[0] not in _OPENERS:
        return 0
    marks = [k for k in range(1, i) if not words[k]]
    return marks[-1] + 1 if marks else 0


def _next_content(words: list[str], i: int, names: set[int], modifiers=frozenset()
                  ) -> int | None:  # fmt: skip
    """The noun after token i that names what is asked: the first content word that is not
    a name or the question's frame, or the noun a modifier before it qualifies ("which
    *drama* films", "French-language films": a value of the KB or part of a hyphenated
    compound)."""
    start = None
    # "which *of* X's teammates …": the partitive's noun is asked for, past the owner's name
    partitive = i + 1 < len(words) and words[i + 1] == "of"
    owned = False  # the noun follows an owner's name: "which of X's *scripts* date from …"
    for k in range(i + 1, min(len(words), i + (10 if partitive else 6))):
        if k in names and partitive:
            owned = True
            continue
        if k in names:
            break  # "what does X act in": the question word asks no noun
        w = words[k]
        if _partitive(words, k):
            continue  # "what are a *couple of* words for X": the words are asked for
        if w in _PHRASE_PREPOSITIONS and k > i + 1 and words[k - 1] in COPULAS:
            break  # "which was *in* the film X": the noun is the preposition's, not asked
        if w and w not in STOPWORDS and w not in FRAME_WORDS and w != "'s" and not w.isdigit():
            start = k
            break
    if start is None:
        return None
    if owned:  # "which of X's club *teammates*": a plural after a noun heads the phrase
        nxt = start + 1
        return nxt if nxt < len(words) and nxt not in names and words[nxt].isalpha() \
            and words[nxt] not in STOPWORDS | FRAME_WORDS | PREPOSITIONS \
            and not verb_form(words[nxt]) and not is_plural(words[start]) \
            and is_plural(words[nxt]) else start  # fmt: skip
    end = start
    while end in modifiers or not words[end]:
        if is_plural(words[end]):
            break  # a plural modifies no noun: "which *forwards* represent X" asks for them
        nxt = end + 1
        if nxt >= len(words) or nxt in names:
            break
        w = words[nxt]
        if w and (w in STOPWORDS or w in FRAME_WORDS or w == "'s" or verb_form(w) or
                  w in PREPOSITIONS):  # fmt: skip
            break
        if nxt + 1 < len(words) and words[nxt + 1] in ARTICLES:
            break  # a verb with its object: "which *city* hosts the headquarters of …"
        end = nxt
    while not words[end] and end > start:
        end -= 1
    # "what are the main *languages*", "what is the birth *country* of X": in a noun phrase
    # after its article, the last of two nouns is the head — a plural after a word that is
    # not one, or a noun that ends the phrase (right after "which" it is a verb: "which
    # company *controls* X")
    nxt = end + 1
    if start > i + 1 and nxt < len(words) and nxt not in names and words[nxt].isalpha() \
            and words[nxt] not in STOPWORDS | FRAME_WORDS | PREPOSITIONS \
            and not verb_form(words[nxt]) and not is_plural(words[end]) \
            and (is_plural(words[nxt]) or _ends_noun_phrase(words, nxt + 1, names)):  # fmt: skip
        return nxt
    return end


def _ends_noun_phrase(words: list[str], k: int, names: set[int]) -> bool:
    """Does the noun phrase end before token k: the question's end, "of", or a name?"""
    return k >= len(words) or k in names or words[k] in ("of", "")


def verb_form(word: str) -> bool:
    """A past participle or gerund ("made", "directed", "starring"): it ends a noun phrase."""
    # (four letters only as the past of a verb in "-ie": "died", "tied" — not "seed", "shed")
    return word in IRREGULAR_VERB_FORMS or (
        (len(word) > 4 or word.endswith("ied")) and word.endswith(("ed", "ing"))
        and lexnet.may_inflect_a_verb(word)
    )


def _stranded(words: list[str], k: int) -> bool:
    """Is token k a preposition of place left at the end, its object the question's fronted
    phrase ("which city does X work *in*"), or a clause's before the question's own ("which
    country is the institution X works *at* in")? Not "to", "for", "on", which end phrasal
    verbs as often ("go to": attend, "work on": exert effort)."""
    return words[k] in ("in", "at") and not any(w and w not in STRANDABLE for w in words[k + 1 :])


def _choices(words: list[str], names: set[int]) -> tuple[str, ...]:
    """ "male or female", "a man or a woman": two content words joined by "or"."""
    for i, w in enumerate(words):
        if w != "or" or i in names:
            continue
        at = next((k for k in range(i - 1, max(-1, i - 3), -1) if words[k]
                   and words[k] not in STOPWORDS), None)  # fmt: skip
        left = words[at] if at is not None else None
        right = next((words[k] for k in range(i + 1, min(len(words), i + 3)) if words[k]
                      and words[k] not in STOPWORDS), None)  # fmt: skip
        if at is not None and at > 0 and words[at - 1] == "'s":
            continue  # "X's *husband or wife*": one noun phrase said of X, no choice
        if left and right and left.isalpha() and right.isalpha():
            return (left, right)
    return ()


# -- relation words ---------------------------------------------------------------------------
def _score_words(qa: QuestionAnalysis, kg: KnowledgeGraph, names: set[int]) -> None:
    """Score every content word outside written names against every relation of the KB."""
    sem = semantics_for(kg)
    qa.semantics = sem
    skip = set(names)
    focus = qa.answer.focus
    if qa.answer.wh == "person" and focus is not None and not (
            qa.words[focus - 1 : focus] == ["'s"] or qa.words[focus + 1 : focus + 2] == ["of"]):
        # "which people …": the answer type, not a relation (but "X's *folks*", "the *folks*
        # of X" name one; "which *person* headed X", "what *people* think of X" do not)
        skip.add(focus)
    if qa.answer.wh == "number" and qa.answer.focus is not None \
            and qa.words[qa.answer.focus] in QUANTITY_NOUNS:  # fmt: skip
        skip.add(qa.answer.focus)  # "the *number* of seats" is no `shirt number`
    for c in qa.comparisons:
        skip.update(range(c.start, c.end))
    # (words that say when — "*currently*", "*these days*" — say no relation: the static
    # vectors read "currently" nearest `former member of`, its opposite)
    skip.update(present_cues(qa.words))
    rows = [
        i
        for i, w in enumerate(qa.words)
        if i not in skip
        and w
        and w not in STOPWORDS
        and w not in WH_WORDS
        and w not in FRAME_WORDS
        and w != "'s"
        and not w.isdigit()
    ]
    qa.word_tokens = rows
    row_words = [relation_word(qa.words[i]) for i in rows]  # "clubmates" reads "club"
    vectors = sem.model.embed_words(row_words)
    _read_compound_heads(qa, rows, sem, vectors)
    qa.vectors = vectors
    scores = sem.word_scores(vectors)
    lexicon = lexicon_for(kg)
    lexical = np.full_like(scores, -1.0)
    for row, word in enumerate(row_words):
        for part in word.replace("-", " ").split():
            for rel_id, weight in lexicon.match(part).items():
                r = sem.code[rel_id]
                lexical[row, r] = max(lexical[row, r], LEX_BASE + (1 - LEX_BASE) * weight)
        for rel_id in lexicon.acronyms.get(_acronym(qa.tokens[rows[row]]), ()):
            lexical[row, sem.code[rel_id]] = 1.0
    _read_singulars(scores, sem, qa.words, rows, lexical)
    _subject_verb(qa, sem, rows, scores, lexical)
    whole = _whole_names(qa, rows, sem, lexical)
    qa.reach = REACH_WEIGHT * sem.reach_scores(vectors)
    _unsaid_qualifiers(qa, row_words, sem, lexicon, lexical, scores)
    _other_complement(qa, rows, sem, lexical, scores)
    _compound_modifier(qa, rows, sem, lexical, scores)
    _verb_not_noun(qa, rows, sem, lexical, scores)
    focus = qa.focus_row
    if focus is not None and not said_of_a_name(qa, rows[focus]):
        # the noun asked about names a relation only by its form ("which *league*"); by
        # meaning only when nearly a synonym ("occupation"); otherwise it says what the
        # answer is ("which *companies*" is not `industry`) — unless it is said of an owner:
        # "the *kids* of X", "X's *offspring*" name a relation of X like any other noun
        scores[focus] = np.where(scores[focus] >= FOCUS_SYNONYM, scores[focus], -1.0)
    kinds = []  # rows of clause heads that say only what their node is
    for row, i in enumerate(rows):
        if row == focus or scores.shape[1] < 2 or not _clause_head(qa.words, i):
            continue
        second, top = np.sort(scores[row])[-2:]
        if top - second < NAMED_CLEAR:
            kinds.append(row)
            # "the *person* who runs X": the noun a relative clause is said of, preferring
            # no relation clearly, says what the node is; the clause's verb names the
            # relation (not "person" → `employer`; "the *university* that educated X" still
            # names `located in` more than any other)
            scores[row] = np.where(scores[row] >= FOCUS_SYNONYM, scores[row], -1.0)
    _unasked_heads(qa, row_words, sem, lexical, scores)
    _dictionary_senses(qa, rows, sem, lexicon, scores)
    scores = np.maximum(scores, lexical)
    _read_as_its_agent(qa, rows, scores)
    qa.scores = scores
    if rows and sem.rel_ids:
        qa.best = np.maximum(scores.max(axis=1), qa.reach.max(axis=1))
    else:
        qa.best = np.zeros(len(rows), np.float32)
    # "the *firm* that makes X": any hop reaching firms nearly as well as the best role of
    # the KB explains it (the maker, not only a parent company, whose firms read a little
    # more like "firm")
    qa.best[kinds] -= KIND_SLACK
    qa.need = 1.0 / (1.0 + np.exp(-(qa.best - NEED_AT) / NEED_WIDTH))
    pad = np.full((len(rows), 1), -np.inf, np.float32)
    # role 2i is named like relation i; walked backwards (2i+1) it is named like its stored
    # inverse when the KB has one ("parent" backwards is "child": "X's mum" is not a child)
    by_role = np.repeat(scores, 2, axis=1)
    for rel, inverse in sem.inverse.items():
        by_role[:, 2 * sem.code[rel] + 1] = scores[:, sem.code[inverse]]
    owned, articled = _name_both_ways(qa, rows, lexical, scores, by_role, sem)
    _voiced_labels(qa, rows, lexical, scores, by_role, sem, lexicon.voiced)
    patient = _verb_named(lexicon, qa.words[rows[focus]], lexical[focus], sem) \
        if focus is not None and focus not in whole else []  # fmt: skip
    if focus is not None and focus not in whole and is_agent_noun(qa.words[rows[focus]]):
        _agent_focus(by_role, focus, lexical[focus], kg, sem, qa.words[rows[focus]])
    elif patient:
        qa.subject_roles = _subject_focus(by_role, focus, lexical[focus], kg, patient)
    elif focus is not None and focus not in whole and lexical[focus].max() > 0 \
            and not _relational(qa.words, rows[focus]):
        _kind_focus(by_role, focus, float(lexical[focus].max()), qa.words[rows[focus]], sem)
        qa.kind_focus = (focus, float(lexical[focus].max()), word_forms(qa.words[rows[focus]]))
    elif focus is not None and focus not in whole and not _relational(qa.words, rows[focus]) \
            and word_forms(qa.words[rows[focus]]) & sem.genera:
        qa.genus_focus = (focus, word_forms(qa.words[rows[focus]]))
    elif focus is not None and focus not in whole and not _relational(qa.words, rows[focus]) \
            and _class_named(qa.words[rows[focus]], sem, by_genus=False):
        # a class of the KB that no label names ("which *bands* …", each an `instance of`
        # band): explained where the walk arrives at nodes of that class (`kind_after`)
        qa.kind_focus = (focus, float(qa.best[focus]), word_forms(qa.words[rows[focus]]))
    if focus is not None and focus not in whole and qa.kind_focus is None \
            and is_agent_noun(qa.words[rows[focus]]) \
            and (named := _class_named(qa.words[rows[focus]], sem, by_genus=True)):
        # ... and an agent noun that names a class, itself or by its dictionary genus
        # ("*researchers*": "a *scientist* who …", each an `instance of` scientist)
        qa.kind_focus = (focus, float(qa.best[focus]), named)
    for row, i in enumerate(rows):  # ... and another noun so: "X's *record* label"
        if row != focus and row not in whole and i > 0 and words_before_a_noun(qa.words[i - 1]):
            other = _verb_named(lexicon, qa.words[i], lexical[row], sem)
            if other:
                _subject_focus(by_role, row, lexical[row], kg, other)
    marked_variants = _marked_variants(qa, skip, sem)
    _name_variants(by_role, marked_variants)
    qa.explains = np.hstack([np.maximum(by_role, qa.reach), pad])
    qa.named = np.hstack([scores, pad])
    qa.role_names = np.hstack([by_role, pad])
    # the same by English word forms alone (morphology is precise where it matches)
    qa.lexical = lexical
    by_form = np.repeat(lexical, 2, axis=1)
    for rel, inverse in sem.inverse.items():
        by_form[:, 2 * sem.code[rel] + 1] = lexical[:, sem.code[inverse]]
    _walk_backwards(by_form, owned, lexical, sem)
    _also_backwards(by_form, articled, lexical, sem)  # ("companies with *a CEO* …" by form)
    _name_variants(by_form, marked_variants)
    qa.role_lex = np.hstack([by_form, pad])


def _unsaid_qualifiers(qa: QuestionAnalysis, row_words: list[str], sem: RelationSemantics,
                       lexicon: Lexicon, lexical: np.ndarray, scores: np.ndarray) -> None:
    """A word that meets a label only in its head, where the question says none of the words
    qualifying that head and the word sounds more like the nodes some other relation reaches,
    names the general kind, not the qualified relation: a footballer's "*team*" is his club
    (clubs read more like "team" than the countries `national team` reaches), unless the
    question says "*national*" (`_said`: "inter*national*" does). Such a word still explains
    the relation by what it reaches, as any type word does. Where the question does say the
    qualifiers of another label the word heads ("what *year* was the band *formed*":
    `formation year`), the word names that one, not those whose qualifiers are unsaid
    (`birth year`), whatever they reach — unless that qualifier heads a label itself
    ("the *country* of X's *club*'s stadium": "club" is a hop of its own)."""
    if qa.reach is None or not row_words:
        return
    spoken = [w for w in qa.words if w and w not in STOPWORDS]
    for row, word in enumerate(row_words):
        unsaid, qualified = [], False
        for r in np.flatnonzero(lexical[row] > 0).tolist():
            modifiers = lexicon.qualifiers_unsaid(word, sem.rel_ids[r])
            if modifiers and any(_said(m, spoken) for m in modifiers - lexicon.heads):
                qualified = True  # (not by a word that may name a hop of its own: "club")
            elif modifiers:
                unsaid.append((r, modifiers))
        for r, modifiers in unsaid:
            rel = sem.rel_ids[r]
            if sem.kinds[r] != "entity" and not qualified:
                continue  # values (years, numbers) are alike whatever they are of: "what
                # *year* did the paper come out" may be its `publication year`
            own = qa.reach[row, 2 * r]  # what the head names: the nodes the relation reaches
            others = np.delete(qa.reach[row, : 2 * len(sem.rel_ids)], [2 * r, 2 * r + 1])
            # (a marked one, "*former* club", is read by its sense: `said_senses`)
            if (qualified and not modifiers & MARKED_MODIFIERS) or \
                    (len(others) and others.max() >= own + UNSAID_REACH_LEAD):  # fmt: skip
                lexical[row, r] = scores[row, r] = -1.0
                qa.unsaid_relations.add(rel)
                qa.unsaid.setdefault(row, []).append(
                    f"{sem.kg.label(rel)}: {', '.join(sorted(modifiers))}")


def _acronym(token: str) -> str:
    """The letters of a token written as an acronym ("CEO", "CEOs"), lower-cased; else ""."""
    letters = token[:-1] if token.endswith("s") else token
    return letters.casefold() if len(letters) >= 2 and letters.isalpha() and letters.isupper() \
        else ""  # fmt: skip


_COMPLEMENT_PREPOSITIONS = frozenset("in on at with for from into".split())
_BEFORE_A_NOUN = frozenset(
    "the a an its their his her our your my whose 's have has had having with of in on at for by"
    " from to no any some every each".split())


def words_before_a_noun(word: str) -> bool:
    """Does a noun (not a verb) follow this word: a determiner, a possessive, a preposition,
    "have", "which"/"what"?"""
    return word in _BEFORE_A_NOUN or word in ("which", "what")


def _other_complement(qa: QuestionAnalysis, rows: list[int], sem: RelationSemantics,
                      lexical: np.ndarray, scores: np.ndarray) -> None:  # fmt: skip
    """A verb whose label takes a noun for its object ("*plays* instrument"), said with a
    preposition instead and without that noun ("who *plays in* X", "the band X *plays
    with*"), or with an object that relation never has ("bands that *play* dream pop": a
    genre, no instrument), says another thing of the verb: it does not name that relation
    (in place, on both score matrices). "what does X play", "who plays guitar in X" still
    do; a noun ("have *headquarters in* X", "its *headquarters*") is no verb: not after a
    determiner, a possessive, a preposition or "have"."""
    words, spoken = qa.words, [w for w in qa.words if w and w not in STOPWORDS]
    roles = sem.kg.index.roles
    for row, i in enumerate(rows):
        after = words[i + 1] if i + 1 < len(words) else ""
        said_objects = [m.ids[0] for m in qa.entities if m.start == i + 1 and m.ids]
        if not _verb_place(qa, i):
            continue
        # (the verb said with a preposition or an object; or only with a name further on)
        said_with = after in _COMPLEMENT_PREPOSITIONS or bool(said_objects)
        if not said_with and not complement_names(qa, i):
            continue
        for r in np.flatnonzero(lexical[row] > 0).tolist():
            if any(2 * r + 1 in roles.get(node, ()) for node in said_objects):
                continue  # "plays *guitar*": an object it has
            info = sem.kg.relation(sem.rel_ids[r])
            label_objects = []  # per name the verb is met in: the word right after it there
            for name in (info.label, *info.aliases):
                label = label_tokens(name)
                at = [k for k, w in enumerate(label) if _inflection(words[i], w)]
                if at and not verb_form(label[at[0]]):  # ("*starred* actors": the actors
                    # who starred, no object: "who co-starred *with* X" names it)
                    label_objects.append(label[at[0] + 1] if at[0] + 1 < len(label) else None)
            if said_with and label_objects and all(o and o not in STOPWORDS
                                                   and not _said(o, spoken)
                                                   for o in label_objects):  # fmt: skip
                lexical[row, r] = scores[row, r] = -1.0
            elif label_objects and all(o in _COMPLEMENT_PREPOSITIONS for o in label_objects):
                taken = _foreign_complement(qa, i, label_objects, roles, 2 * r + 1,
                                            said_objects)  # fmt: skip
                if taken:
                    _transfer(sem, row, r, taken, scores)
                    lexical[row, r] = scores[row, r] = -1.0


def _read_compound_heads(qa: QuestionAnalysis, rows: list[int], sem: RelationSemantics,
                         vectors: np.ndarray) -> None:  # fmt: skip
    """The head of a compound noun the dictionary lists ("alma *maters*", "home *ground*")
    reads as the whole compound where that reads the KB's relations better than the head
    alone (in place)."""
    for row, i in enumerate(rows):
        if not row or rows[row - 1] != i - 1 or not compound_noun(qa.words[i - 1], qa.words[i]):
            continue
        whole = sem.model.embed_words([f"{qa.words[i - 1]} {qa.words[i]}"])
        both = np.vstack([vectors[row : row + 1], whole])
        reads = np.maximum(sem.word_scores(both).max(axis=1),
                           REACH_WEIGHT * sem.reach_scores(both).max(axis=1))  # fmt: skip
        if reads[1] > reads[0]:
            vectors[row] = whole[0]


def compound_noun(first: str, second: str) -> bool:
    """Do two words make a noun WordNet lists, in any number ("alma maters")?"""
    return any(lexnet.is_noun(lemma) for lemma in lexnet.lemmas(f"{first}_{second}"))


def _compound_modifier(qa: QuestionAnalysis, rows: list[int], sem: RelationSemantics,
                       lexical: np.ndarray, scores: np.ndarray) -> None:  # fmt: skip
    """The first word of a compound noun the dictionary lists ("*record* company") is a noun:
    it does not name a relation whose label has it only as a verb ("*recorded* at") — in
    place, on both score matrices."""
    words = qa.words
    for row, i in enumerate(rows):
        following = words[i + 1] if i + 1 < len(words) else ""
        if not following or not compound_noun(words[i], following):
            continue
        for r in np.flatnonzero(lexical[row] > 0).tolist():
            info = sem.kg.relation(sem.rel_ids[r])
            met = [w for name in (info.label, *info.aliases) for w in label_tokens(name)
                   if _inflection(words[i], w)]  # fmt: skip
            if met and all(w != words[i] and verb_form(w) for w in met):
                lexical[row, r] = scores[row, r] = -1.0


_BE_FORMS = COPULAS | frozenset("be been being".split())  # the auxiliary of a passive
_PASSIVE = _BE_FORMS | frozenset("get gets got".split())  # ... or "get" ("got awarded")


# what may stand between the noun asked about and a passive's participle ("that are run by")
_BEFORE_PASSIVE = _BE_FORMS | frozenset("that which who".split())


def passive_of_focus(qa: QuestionAnalysis) -> int | None:
    """The token of a passive's participle said of the noun asked about, its doer after "by"
    ("which companies (that) are *run* by graduates of U"); None where there is none."""
    words, verb = qa.words, qa.answer.focus
    if verb is None:
        return None
    verb += 1
    while verb < len(words) and words[verb] in _BEFORE_PASSIVE:
        verb += 1
    if verb + 1 >= len(words) or words[verb + 1] != "by":
        return None
    # (a participle by its form, or any verb after a "be": "are *run* by")
    if verb_form(words[verb]) or (words[verb - 1] in _BEFORE_PASSIVE
                                  and bool(lexnet.senses(words[verb], "v"))):  # fmt: skip
        return verb
    return None


def _verb_not_noun(qa: QuestionAnalysis, rows: list[int], sem: RelationSemantics,
                   lexical: np.ndarray, scores: np.ndarray) -> None:  # fmt: skip
    """A verb taking an object ("who *awarded* the prizes X won") that one label has as its
    verb (`awarded by`) and another as the noun its own verb takes (`award received`: the
    award is what is received) names the first: not the second (in place, on both score
    matrices)."""
    words = qa.words
    for row, i in enumerate(rows):
        if not (_verb_place(qa, i) and object_follows(qa, i + 1)
                and words[i - 1] not in _PASSIVE):  # fmt: skip
            continue  # (not "have been *awarded* the prize": the recipients, passive)
        uses: dict[int, set[str]] = {}
        for r in np.flatnonzero(lexical[row] > 0).tolist():
            label = label_tokens(sem.kg.relation(sem.rel_ids[r]).label)
            for k, w in enumerate(label):
                if _one_verb(words[i], w):
                    after = label[k + 1] if k + 1 < len(label) else ""
                    uses.setdefault(r, set()).add(
                        "noun" if after and verb_form(after) else
                        "verb" if verb_form(w) or after in PREPOSITIONS else "")  # fmt: skip
        if any("verb" in u for u in uses.values()):
            for r, u in uses.items():
                if u == {"noun"}:
                    lexical[row, r] = scores[row, r] = -1.0


def complement_names(qa: QuestionAnalysis, i: int) -> dict[str, list[str]]:
    """Per preposition after the verb at token i, before the next verb or wh-word, the
    nodes of the name right after it ("plays as defender *for Sweden*": {"for": [Sweden]})
    — memoised per question and verb."""
    key = ("complement-names", i)
    if key not in qa._cache:
        words, out = qa.words, {}
        for k in range(i + 1, min(len(words), i + 6)):
            if words[k] in WH_WORDS or words[k] in RELATIVE_PRONOUNS:
                break
            if words[k] in _COMPLEMENT_PREPOSITIONS and (name := _name_at(qa, k + 1)):
                out.setdefault(words[k], list(name.ids[:2]))
        qa._cache[key] = out
    return qa._cache[key]


def _name_at(qa: QuestionAnalysis, at: int) -> EntityMention | None:
    """The name at token `at` (or after an article there), the longest, unless it owns what
    follows ("for *X*'s side", "by *X*'s influences": X is no complement of the verb)."""
    words = qa.words
    starts = {at, at + (at < len(words) and words[at] in ARTICLES)}
    found = max((m for m in qa.entities if m.named and m.ids and m.start in starts),
                key=lambda m: m.end, default=None)  # fmt: skip
    if found is None or words[found.end : found.end + 1] == ["'s"]:
        return None
    return found


def _foreign_complement(qa: QuestionAnalysis, i: int, prepositions: list[str], roles: dict,
                        object_role: int, said_objects: list[str]) -> list[str]:  # fmt: skip
    """The nodes the verb at token i, whose label takes a preposition ("plays *for* club"),
    takes here that its relation never has: a direct object ("players who *play defender*",
    not one of its objects: checked by the caller), or after that preposition a name that
    is never its object ("who plays as defender *for Sweden*": a national side, no club);
    none where it takes what its relation has."""
    if said_objects:
        return said_objects
    names = complement_names(qa, i)
    said = [node for p in prepositions for node in names.get(p, ())]
    return said if said and all(object_role not in roles.get(node, ()) for node in said) else []


TRANSFER = 0.8  # a verb's reading carried over to the relation its complement takes, this much


def _transfer(sem: RelationSemantics, row: int, r: int, taken: list[str],
              scores: np.ndarray) -> None:  # fmt: skip
    """The verb of relation r, said of a node r never reaches (`_foreign_complement`), names
    the relation of the same subjects that does reach it and whose label is most like r's
    ("who plays for *Sweden*": `national team`, what players also have, not `nationality`;
    "players who play *defender*": `position`) — at TRANSFER of its reading of r."""
    roles, follow = sem.kg.index.roles, sem.kg.index.follow
    options = [c >> 1 for node in taken for c in roles.get(node, ())
               if c % 2 and c >> 1 != r
               and follow.get(c, {}).get(2 * r, 0.0) >= KIND_SHARE]  # fmt: skip
    if options:
        best = max(set(options), key=lambda o: float(sem.label_vecs[o] @ sem.label_vecs[r]))
        scores[row, best] = max(scores[row, best], TRANSFER * scores[row, r])


def _said(word: str, spoken: list[str]) -> bool:
    """Does the question (its content words, `spoken`) say the word: in one of its forms,
    inside a longer word ("inter*national*"), as a derivation of a word's stem ("*form*" of
    "formation"), or by a word meaning nearly the same ("nation")?"""
    forms = word_forms(word)
    if any(w in forms or singular(w) == word or (len(word) >= 5 and word in w) for w in spoken):
        return True
    if any(len(f) >= 4 and word.startswith(f) for w in spoken for f in word_forms(w)):
        return True
    model = text_model()
    vec = model.embed(word)
    return any(float(model.embed(w) @ vec) >= SAID_SENSE for w in spoken)


def _subject_verb(qa: QuestionAnalysis, sem: RelationSemantics, rows: list[int],
                  scores: np.ndarray, lexical: np.ndarray) -> None:  # fmt: skip
    """ "which *clubs play* in X": the verb right after the noun asked about has that noun for
    its subject, so it does not name a relation whose objects the noun names ("plays for
    *club*": clubs do not play for clubs) — in place, on both score matrices."""
    focus = qa.answer.focus
    if focus is None or focus + 1 not in rows or focus - 1 < 0 \
            or qa.words[focus - 1] not in WH_WORDS or is_agent_noun(qa.words[focus]):  # fmt: skip
        return  # ("which *players play* for X": players do play for clubs)
    row = rows.index(focus + 1)
    forms = word_forms(qa.words[focus])
    for r in np.flatnonzero(lexical[row] > 0):
        if sem.kind_heads[2 * r] & forms and not sem.kind_heads[2 * r + 1] & forms:
            scores[row, r] = lexical[row, r] = -1.0


def _read_singulars(scores: np.ndarray, sem: RelationSemantics, words: list[str],
                    rows: list[int], lexical: np.ndarray) -> None:  # fmt: skip
    """A plural noun that names no relation by its form is read by its singular as well (the
    better score of the two, in place; rows: the words' indexes): static vectors place some
    plurals oddly — "daughters" and "sons" lie nearer `parent` than `child`, "daughter" and
    "son" do not. A form's match says more than either ("parents" is `parent`, though
    "parent" lies nearer `child` than "parents" does)."""
    plural = [row for row, i in enumerate(rows) if is_plural(words[i])
              and lexical[row].max() <= 0 and _noun_slot(words, i)]  # fmt: skip
    if plural:
        single = sem.word_scores(sem.model.embed_words([singular(words[rows[row]])
                                                        for row in plural]))  # fmt: skip
        scores[plural] = np.maximum(scores[plural], single)


_DETERMINERS = frozenset("'s the a an his her their its my your our which what whose all any "
                         "these those".split())  # fmt: skip


def _noun_slot(words: list[str], i: int) -> bool:
    """Does the word at i stand where a noun does — after a determiner or a possessive, said
    of an owner ("the *sons* of X"), or joined by "and" / "or" to such a noun ("the sons and
    *daughters*")? Not a verb's "-s" ("X *puts* out"), nor a plural that is an idiom's object
    ("*win caps* for")."""
    if i > 0 and words[i - 1] in _DETERMINERS or _relational(words, i):
        return True
    return i > 1 and words[i - 1] in ("and", "or") and _noun_slot(words, i - 2)


def _marked_variants(qa: QuestionAnalysis, skip: set[int], sem: RelationSemantics
                     ) -> list[tuple[int, int]]:  # fmt: skip
    """(marked relation, plain relation) pairs where the question says the sense the marked
    one carries and the two share a head: "who *previously played* for X", "who *used to*
    play for X" ask for `former club` as much as "played" names `plays for club`."""
    senses = said_senses(qa, skip)
    if not senses:
        return []
    labels = sem.label_sets
    return [(m, p) for m, carried in enumerate(sem.marked_senses) if carried & senses
            for p, words in enumerate(labels)
            if p != m and not sem.marked_senses[p] and words & (labels[m] - MARKED_MODIFIERS)]


def said_senses(qa: QuestionAnalysis, skip: set[int]) -> set[int]:
    """The marked senses (indexes into core.text.MARKED_SENSES) the question says outside
    the tokens in `skip` (its names): by a word of the sense or one of its forms ("*past*
    teams", "*formerly*"), by "*used to*" or a verb of leaving ("which band did X *leave*");
    "how (many years) *old*" asks for an age."""
    said = {w for i, w in enumerate(qa.words) if w and i not in skip}
    if qa.answer.wh == "number":
        said.discard("old")
    forms = said | {f for w in said for f in word_forms(w)}
    senses = {j for j, (sense, stems) in enumerate(zip(MARKED_SENSES, MARKED_STEMS, strict=True))
              if sense & forms or stems & forms}  # fmt: skip
    return senses | {j for i, w in enumerate(qa.words) if w and i not in skip
                     for j in word_senses(qa.words, i)}  # fmt: skip


def _name_variants(by_role: np.ndarray, pairs: list[tuple[int, int]]) -> None:
    """A word naming a plain relation names its marked variant as well (`_marked_variants`);
    the planner's `unmarked_modifiers` then prefers the one the sense marks."""
    for m, p in pairs:
        for d in (0, 1):
            np.maximum(by_role[:, 2 * m + d], by_role[:, 2 * p + d], out=by_role[:, 2 * m + d])


def _whole_names(qa: QuestionAnalysis, rows: list[int], sem: RelationSemantics,
                 lexical: np.ndarray) -> set[int]:  # fmt: skip
    """A relation name of several words written out whole ("Canada: *official language*?")
    names that relation with every one of its words: a modifier there is part of the name,
    not a description of what has it (else walking out and back, to the countries that have
    an official language, explains "official" better than the one hop), nor an agent noun
    ("*headquarters* location" is not whoever headquarters). The rows so named."""
    at = {i: row for row, i in enumerate(rows)}
    named: set[int] = set()
    for r, span in whole_names(qa.words, sem):
        for i in span:
            if i in at:
                lexical[at[i], r] = 1.0
                named.add(at[i])
    return named


def _unasked_heads(qa: QuestionAnalysis, row_words: list[str], sem: RelationSemantics,
                   lexical: np.ndarray, scores: np.ndarray) -> None:  # fmt: skip
    """ "*Where* does X *work*": a word that names an "H of C" relation only by its form in C
    ("field of *work*") names it no more than it is like H, where the question asks for a
    place, a time or a number that H is not ("field" is no place) and no word says H. An
    asked head keeps it: "*where* was X born" is the *place* of birth, "*when*" the *year*.
    A verb that is an inflection of C is held to the same where the question asks for a
    person or a kind its noun says ("who *works* for X", "which *city* does X *work* in":
    neither is a field); a bare "what does X work on" keeps it."""
    if not row_words:
        return
    concept = _ASKED_KINDS.get(qa.answer.wh)
    verbs_only = concept is None
    if verbs_only:  # ... or, for the verb C itself, a person ("who *works* at") or the kind
        # of thing the noun asked about says ("which *city* does X *work* in")
        focus = qa.answer.focus
        concept = "person" if qa.answer.wh == "person" else \
            qa.words[focus] if focus is not None else None  # fmt: skip
        if not concept:
            return  # a bare "what does X *work* on" may ask for a field
    asked = sem.model.embed(concept)
    said = set().union(*(word_forms(w) for w in row_words))
    for r, head_vec, head_forms, forms in sem.of_labels():
        if said & head_forms or float(head_vec @ asked) >= HEAD_ASKED:
            continue
        for row, word in enumerate(row_words):
            if verbs_only and not (_verb_place(qa, qa.word_tokens[row])
                                   and any(_inflection(word, c) for c in forms)):  # fmt: skip
                continue
            if lexical[row, r] > 0 and word_forms(word) & forms:
                lexical[row, r] = -1.0
                scores[row, r] = min(scores[row, r], float(sem.model.embed(word) @ head_vec))


def _verb_place(qa: QuestionAnalysis, i: int) -> bool:
    """May token i be a verb rather than a noun: is the word before it none that a noun
    follows (a determiner, possessive or preposition)? "does X *work*", "who *works*", and
    after a noun too — "X's spouse *work* for", "X's advisor *study*" — but not "the kind of
    *work*". Looser than `_verb_position` (where English puts a verb: after a name, a
    wh-word, an auxiliary), which decides a verb's direction; this only lets a verb be read
    as one (items 140–141: tuning −11 with `_verb_position`)."""
    return i > 0 and not words_before_a_noun(qa.words[i - 1])


# what a where / when / how-many question asks for, to compare a relation's head noun with
_ASKED_KINDS = {"place": PLACE_WORDS, "time": "time date year", "number": "number amount count"}
HEAD_ASKED = 0.35  # a head noun this like the kind asked for is asked ("place", "year")


def whole_names(words: list[str], sem: RelationSemantics, end: int | None = None
                ) -> list[tuple[int, range]]:  # fmt: skip
    """(relation index, token range) of each relation name of several words written out
    whole among `words[:end]` ("*place of birth*")."""
    out = []
    for start, word in enumerate(words[:end]):
        for r, phrase in sem.phrases.get(word, ()):  # the names that begin with this word
            if tuple(words[start : start + len(phrase)]) == phrase:
                out.append((r, range(start, start + len(phrase))))
    return out


def _name_both_ways(qa: QuestionAnalysis, rows: list[int], lexical: np.ndarray,
                    scores: np.ndarray, by_role: np.ndarray,
                    sem: RelationSemantics) -> tuple[list[int], list[int]]:  # fmt: skip
    """A noun said of its owner ("X's *mum*", "the *mother* of X") names one direction of a
    relation with a stored inverse: `parent` walked from X, not backwards (X's children); a
    noun the answers own by a possessive ("*whose* mother is X", "*their* parent") the other
    direction (the rows returned first; second, the nouns owned by an article, below). Two
    kinds of word name it whichever way it is walked:
    - a noun said of the answers by an article ("companies with *a CEO* educated at Y"): the
      walk from Y arrives at the owner, backwards over the relation — but "who is *a* child
      of X" is X's;
    - a verb that names it by its form, where it stands as a verb: whether the topic is its
      subject or its object decides the direction ("what does X *manufacture*": X is the
      agent, `manufacturer` backwards; "who *manufactures* X": forwards; "the firm that
      *produces* X": `product or material produced` backwards, not only as its inverse
      `manufacturer` is named)."""
    owned, whose, articled = [], [], []
    for row, i in enumerate(rows):
        owner = _answers_own(qa.words, i)
        if owner in _POSSESSIVES or _role_of_the_name(qa, i):
            owned.append(row)  # "*whose* child is X", "who has X as *their* parent": the
            if owner == "whose":  # answers own the relation to X, so it is walked
                whose.append(row)  # backwards from X
            continue
        if owner is not None:
            articled.append(row)
        elif not is_agent_noun(qa.words[i]) and _verb_position(qa, i):
            for rel in sem.inverse:  # (a verb: the relations it names by its form)
                c = sem.code[rel]
                if lexical[row, c] > 0:
                    by_role[row, 2 * c + 1] = max(by_role[row, 2 * c + 1], scores[row, c])
    _also_backwards(by_role, articled, scores, sem)
    _walk_backwards(by_role, owned, scores, sem)
    # a relation with no stored inverse, a noun after "whose" names backwards only ("whose
    # *doctoral advisor* is Y": walked back from Y, not on to Y's own advisor) — "their" and
    # "its" may be the topic's ("where do X play *their* home games")
    one_way = [2 * sem.code[rel] for rel in sem.rel_ids if rel not in sem.inverse]
    if whose and one_way:
        by_role[np.ix_(whose, one_way)] = np.minimum(by_role[np.ix_(whose, one_way)], 0.0)
    return owned, articled


def _voiced_labels(qa: QuestionAnalysis, rows: list[int], lexical: np.ndarray,
                   scores: np.ndarray, by_role: np.ndarray, sem: RelationSemantics,
                   voiced: dict[int, bool]) -> None:  # fmt: skip
    """A label may say which side does its verb (`label_doer`): the object of `influenced
    by` and of `doctoral advisor` (X's advisor advised X), the subject of `author of`. A verb
    naming such a relation says which side a name next to it is on: the doer after "by"
    ("bands influenced *by X*") or as an active verb's subject ("which bands did *X*
    influence", "the people *X advised*"), the one it is done to as a passive's subject ("who
    was *X* influenced by") or an active verb's object ("which bands influenced *X*"). Walked
    from that name, the relation goes the doer's way; the other way is not what the verb
    says (both ways read alike by meaning: "bands influenced by X" are not X's influences).
    Only where one side is told and the name takes part in the relation on that side
    (garbled wording — "which has been written by *the film*" — is left to the rest);
    relations with a stored inverse are read by `_name_both_ways`."""
    if not voiced or not rows:
        return
    roles = sem.kg.index.roles
    cols = np.array(sorted(voiced))
    by_form = lexical[:, cols] > 0
    meant = scores.argmax(axis=1)
    for row, i in enumerate(rows):
        word = qa.words[i]
        participle = verb_form(word)
        # the relations it names by its form, or, a participle, the one it means clearly
        # ("bands *inspired* by X")
        named = set(cols[by_form[row]].tolist())
        if participle and int(meant[row]) in voiced and scores[row, meant[row]] >= HOP_EXPLAINED:
            named.add(int(meant[row]))
        if not named or is_agent_noun(word) or not (
                participle or (_verb_position(qa, i) and lexnet.senses(word, "v"))):
            continue  # ("who was the film's *writer*", "whose *doctoral* advisor": no verb)
        side = None
        for r in sorted(named):
            side = side or _side_named(qa, i)
            if side is not None:
                doer, mention = side
                # walked from the name: to the doer's side or from it
                code = 2 * r + (1 if doer == voiced[r] else 0)
                if any(code in roles.get(node, ()) for node in mention.ids[:1]):
                    by_role[row, code ^ 1] = -1.0


def label_doer(label: str) -> bool | None:
    """Which side of a relation does what its label's verb says: the object (True) of
    "<participle> by" ("influenced by": X influenced by Y, Y did) and of a label ending on an
    agent noun ("doctoral advisor": X's advisor Y advised X; "employer") — the agentive
    labels (`is_agentive_label`), where "by" follows a participle; the subject (False) of an
    agent noun before "of" ("author of"); None for any other label."""
    label = label.replace(".", " ")
    words = label_tokens(label)
    if is_agentive_label(label) and (words[-1] != "by" or verb_form(words[-2])):
        return True
    if len(words) >= 2 and words[-1] == "of" and is_agent_noun(words[-2]):
        return False
    return None


def _side_named(qa: QuestionAnalysis, i: int) -> tuple[bool, EntityMention] | None:
    """For the verb at token i: a name next to it, and whether it is the verb's doer (True)
    or the one it is done to (False); None where neither is told."""
    words = qa.words
    names = [m for m in qa.entities if m.named]
    after = i + 1

    def compared() -> EntityMention | None:  # "the *same* N *as X*" after the verb
        rest = words[after : after + 6]
        if "same" not in rest[:3] or "as" not in rest:
            return None
        at = after + rest.index("as") + 1
        return next((m for m in names if m.start == at), None)

    before = next((m for m in names if m.end == i
                   or (m.end == i - 1 and words[i - 1] in _VERB_ADVERBS)), None)  # fmt: skip
    passive = any(w in _BE_FORMS for w in words[max(0, i - 4) : i])
    if words[after : after + 1] == ["by"]:
        if (m := _name_at(qa, after + 1)) is not None:
            return True, m  # "influenced *by X*"
        if not any(words[after + 1 :]) and before is not None:
            return False, before  # "who was *X* influenced *by*"
        after += 1  # "bands influenced by the same bands as *X*": X stands where the
        m = compared()  # subject does
        return None if m is None else (not passive, m)
    if not passive and (m := _name_at(qa, after)) is not None:
        return False, m  # "which bands influenced *X*"
    if (m := compared()) is not None:  # "which bands influenced the same bands as *X*"
        return not passive, m
    if before is not None:
        return not passive, before  # "which bands did *X* influence"; "was *X* influenced"
    return None


def _walk_backwards(by_role: np.ndarray, rows: list[int], scores: np.ndarray,
                    sem: RelationSemantics) -> None:  # fmt: skip
    """The rows' words name each relation with a stored inverse backwards only: role 2i like
    the inverse, role 2i+1 like relation i (the opposite of the default)."""
    for rel, inverse in sem.inverse.items():
        c, v = sem.code[rel], sem.code[inverse]
        by_role[rows, 2 * c] = scores[rows, v]
        by_role[rows, 2 * c + 1] = scores[rows, c]


def _also_backwards(by_role: np.ndarray, rows: list[int], scores: np.ndarray,
                    sem: RelationSemantics) -> None:  # fmt: skip
    """The rows' words name each relation with a stored inverse backwards as well as
    forwards: role 2i+1 at least as relation i (a noun the answers own by an article)."""
    for rel in sem.inverse:
        c = sem.code[rel]
        by_role[rows, 2 * c + 1] = np.maximum(by_role[rows, 2 * c + 1], scores[rows, c])


def _before_compound(words: list[str], i: int, stops: set[int] = frozenset()) -> int:
    """The token before the compound that ends at noun i ("whose *chief* executive": up to
    two words back), not stepping into a name that ends at a token in `stops`."""
    j = i - 1
    while j >= 0 and j >= i - 2 and j + 1 not in stops and words[j].isalpha() \
            and words[j] not in STOPWORDS:  # fmt: skip
        j -= 1
    return j


def _answers_own(words: list[str], i: int) -> str | None:
    """The word that makes the noun at i (or ending a compound there) owned by what the
    question asks for — "whose", "their", "its" or an indefinite article ("have *a* CEO"; "a"
    for a plural after "have" or "with": "companies *with* CEOs who …") — or None."""
    j = _before_compound(words, i)
    if j >= 0 and words[j] in _HAVING and any(is_plural(w) for w in words[i : i + 2]
                                               if w.isalpha() and w not in STOPWORDS):
        return "a"  # (as an article would: "with CEOs" are "with a CEO" each)
    return words[j] if j >= 0 and words[j] in _ANSWERS_OWN else None


def _role_of_the_name(qa: QuestionAnalysis, i: int) -> bool:
    """Is the noun at i (or ending a compound there) what a name is to the answer — "which
    company is X the *CEO* of": X is the CEO, the company owns the role — a noun after the
    name (an article between) whose "of" ends the question?"""
    words = qa.words
    if words[i + 1 : i + 3] != ["of"] or i + 2 != len(words):
        return False
    ends = {m.end for m in qa.entities if m.named}
    j = _before_compound(words, i, ends)  # "the chief *executive* of"
    j -= j >= 0 and words[j] in ARTICLES
    return j + 1 in ends


_POSSESSIVES = frozenset("whose their its".split())
_ANSWERS_OWN = _POSSESSIVES | {"a", "an"}
# ... or a verb of having before a bare plural ("companies that *have* CEOs who …")
_HAVING = frozenset("have has with".split())


def _verb_position(qa: QuestionAnalysis, i: int) -> bool:
    """Does the word at i stand where English puts a verb: right after a name, a wh-word, an
    auxiliary, a relative pronoun or "to" (an adverb between aside)? Not after an article, a
    possessive or another noun ("the *office*", "X's *manufacture*", "head *office*")."""
    j = i - 1
    while j >= 0 and (qa.words[j].endswith("ly") or qa.words[j] in _VERB_ADVERBS):
        j -= 1
    if j < 0:
        return False
    if any(m.end == j + 1 for m in qa.entities if m.named):
        return True
    return qa.words[j] in WH_WORDS or qa.words[j] in AUXILIARIES or qa.words[j] in _BEFORE_VERBS


_VERB_ADVERBS = frozenset("also still not never now once first ever".split())
_BEFORE_VERBS = frozenset("that to".split())


def _agent_focus(by_role: np.ndarray, row: int, lexical: np.ndarray, kg: KnowledgeGraph,
                 sem: RelationSemantics, word: str) -> None:  # fmt: skip
    """An agent noun asked about ("which *players* …") names whoever does what a relation
    says: the object of an agentive relation ("directed by": which *director*), the subject
    of an active one ("plays for": which *players*). For an active relation the answer is
    whatever can be its subject, however the path reaches it — not what it reaches. Not
    where the noun itself is the label's head and so names its objects: "X's jersey
    *number*" (`shirt number`) is no numbered thing, though "-er" ends it ("players" is no
    head of `plays for`: its verb's doers)."""
    own = {word, singular(word)}
    active = [r for r in np.flatnonzero(lexical > 0) if not kg.relation(sem.rel_ids[r]).agentive
              and not (own & set(label_parts(kg.label(sem.rel_ids[r]))[0])
                       and sem.named_by_head(2 * r + 1))]
    _subject_focus(by_role, row, lexical, kg, active)


def _verb_named(lexicon: Lexicon, word: str, lexical: np.ndarray,
                sem: RelationSemantics) -> list[int]:  # fmt: skip
    """The relations a noun (not an agent noun, not itself a verb form) names only by the
    verb of their label, and whose subjects read more like it than their objects: "which
    *records* …" meets `recorded at` in "recorded" and means the records, not the studios
    (where "which *location*" meets `located in` and means the places). Such a noun says
    what the verb is done to."""
    if is_agent_noun(word) or verb_form(word) or singular(word) in EVENT_NOUNS:
        return []
    forms, out, vec = word_forms(word), [], None
    for r in np.flatnonzero(lexical > 0):
        sources = {w for f in forms for w in lexicon.sources.get((f, sem.rel_ids[r]), ())}
        if sources and all(verb_form(w) for w in sources):
            vec = sem.model.embed(word) if vec is None else vec
            if sem.reach_vecs[2 * r + 1] @ vec > sem.reach_vecs[2 * r] @ vec:
                out.append(int(r))
    return out


SUBJECT_SHARE = 0.5  # a role whose nodes hold a relation's subject role this often reaches them


def reaches_subjects(nexts: dict[int, float], r: int) -> bool:
    """Given what follows a role (`kg.index.follow[code]`: next role -> share of its nodes),
    are the nodes it arrives at mostly the subjects of relation r?"""
    return nexts.get(2 * r, 0.0) >= SUBJECT_SHARE


def _subject_focus(by_role: np.ndarray, row: int, lexical: np.ndarray, kg: KnowledgeGraph,
                   rels: list[int]) -> frozenset[int]:  # fmt: skip
    """The noun asked about names the subjects of relations `rels` (the players who play
    for a club, the records recorded at a studio): the answer is whatever can be their
    subject, however the path reaches it — not what they reach: a role arriving at nodes
    that mostly have them, or at nodes of the same kind as their subjects (few records say
    where they were recorded; those produced by X are records all the same)."""
    follow = kg.index.follow
    sem = semantics_for(kg)
    marked: set[int] = set()
    for r in rels:
        score = float(lexical[r])
        by_role[row, 2 * r] = -1.0  # arriving at what "plays for" reaches: clubs, not players
        alike = sem.same_kind(2 * r + 1)
        for code, nexts in follow.items():
            if code < by_role.shape[1] and (reaches_subjects(nexts, r) or alike[code]):
                by_role[row, code] = max(by_role[row, code], score)
                marked.add(code)
    return frozenset(marked)


def _class_named(word: str, sem: RelationSemantics, by_genus: bool) -> frozenset[str]:
    """The word forms by which a noun names classes of the KB (`RelationSemantics.
    class_forms`): its own, and `by_genus` those of its dictionary genus ("researcher": "a
    *scientist* who …"). Empty where it names none."""
    forms = word_forms(word)
    if by_genus:
        forms = forms.union(*(word_forms(g) for g in lexnet.genus_words(singular(word))
                              if g not in ARTICLES))  # fmt: skip
    return frozenset(forms & sem.class_forms)


def _read_as_its_agent(qa: QuestionAnalysis, rows: list[int], scores: np.ndarray) -> None:
    """A verb said with the agent noun of its own stem ("who *supervised* X's *supervisor*")
    names what that noun names: the noun is the KB's word for the doer of the verb
    (`doctoral advisor`, 0.53), which the verb alone reads otherwise (`director`, by the
    dictionary's "supervise": "direct"). In place: the verb's row takes the noun's. (Not the
    noun asked about, whose row says what the answer is, not which relation leads there.)"""
    for a, i in enumerate(rows):
        if a == qa.focus_row or not is_agent_noun(qa.words[i]):
            continue
        stems = word_forms(qa.words[i])
        for b, j in enumerate(rows):
            if b != a and not is_agent_noun(qa.words[j]) and verb_form(qa.words[j]) \
                    and word_forms(qa.words[j]) & stems:  # fmt: skip
                scores[b] = scores[a]


def _kind_focus(by_role: np.ndarray, row: int, score: float, word: str,
                sem: RelationSemantics) -> None:  # fmt: skip
    """A type noun asked about that names relations by its form ("which *clubs* …") is
    explained by whatever role reaches nodes of that kind (clubs are what "plays for *club*"
    reaches), as well as by those relations: "the clubs from Lille" is the one hop back over
    `based in`, not a walk through `club country`."""
    forms = word_forms(word)
    for code, kinds in enumerate(sem.kind_heads):
        if kinds & forms:
            by_role[row, code] = max(by_role[row, code], score)


def said_of_a_name(qa: QuestionAnalysis, i: int) -> bool:
    """Is the noun at i said of a named owner: "X's *kids*", "the *kids* of (the wife of) X"?
    Not "what *sort* of film is X" (no name in the "of" phrase)."""
    if not _relational(qa.words, i):
        return False
    if i > 0 and qa.words[i - 1] == "'s":
        return True
    j = qa.words.index("of", i)
    while j < len(qa.words) and (qa.words[j] not in STOPWORDS or qa.words[j] in _OF_PHRASE):
        if any(m.start == j for m in qa.entities if m.named):
            return True
        j += 1
    return False


_OF_PHRASE = frozenset("of the a an 's".split())


def _clause_head(words: list[str], i: int) -> bool:
    """Is the noun at i the head of a relative clause — "the *person* who runs X", "the
    *firm* that makes Y", "the *person* managing X" — and not said of an owner ("X's
    *father* who …")?"""
    if not 0 < i < len(words) - 2 or words[i - 1] not in ARTICLES:
        return False
    after = words[i + 1]
    return after in ("who", "that", "whom") or (len(after) > 4 and after.endswith("ing"))


def _relational(words: list[str], i: int) -> bool:
    """Is the noun at i used relationally — "the *parents* of X", "X's *parents*" — so
    that it names a relation of X rather than the kind of thing asked for?"""
    if i > 0 and words[i - 1] == "'s":
        return True
    j = i + 1
    while j < min(len(words), i + 3) and words[j].isalpha() and words[j] not in STOPWORDS:
        j += 1  # to the end of a compound: "the parent *company* of X"
    return j < len(words) and words[j] == "of"




def role_codes(sem: RelationSemantics, hops: list[tuple[str, str]]) -> list[int]:
    """A hop's role code: 2 × relation index, + 1 when walked backwards."""
    return [sem.code[r] * 2 + (0 if d == "out" else 1) for r, d in hops]


# English nouns for a category of something: "what *sort* of film", "what *kind* of work"
CATEGORY_NOUNS = frozenset("sort sorts kind kinds type types category categories".split())
