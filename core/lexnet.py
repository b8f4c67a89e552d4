"""English word senses from WordNet 3.0 (core/data/wordnet, built by scripts/build_wordnet.py).

The sentence encoders here are small (MiniLM-L6): they miss senses an English dictionary
holds — "pass away" is "die", "set up" is "found", "skipper" is "captain", "faith" is
"religion". This module answers one question for the relation lexicon (core.analysis):
do a question word and a relation label word share a frequent sense? Only the first senses
of each word count (WordNet lists them by frequency), so a rare reading ("set" as a kind of
"place") does not link two words an English speaker would not link.
"""

from __future__ import annotations

import gzip
import re
import threading
from functools import lru_cache
from pathlib import Path

import numpy as np

DATA = Path(__file__).parent / "data" / "wordnet"
LABEL_SENSES = 2  # senses of a relation label word that count
QUESTION_SENSES = 2  # ... and of a question word
DERIVED = 0.8  # a sense met through a derivation ("death" — "die") counts this much
GLOSS_VERB = 0.7  # ... and one of the verb a label noun is defined by ("residence": *dwell*)
GLOSS_GENUS = 0.6  # ... and the first sense of the noun it is defined as a kind of
# ("profession": "an *occupation* requiring special education", and a job is an occupation)

# inflections back to a lemma: WordNet lists lemmas only ("passed" -> "pass")
_ENDINGS = (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""), ("ed", "e"),
            ("d", ""), ("ing", ""), ("ing", "e"))  # fmt: skip
_PLURALS = (("ies", "y"), ("es", ""), ("s", ""))


class _SortedTable:
    """A text of "key<TAB>value" lines sorted by key, searched in place: loading 150,000
    entries into a dict would cost the first answer a tenth of a second."""

    def __init__(self, path: Path):
        self.data = gzip.decompress(path.read_bytes())
        self.ends = np.flatnonzero(np.frombuffer(self.data, np.uint8) == ord("\n"))
        self.starts = np.concatenate(([0], self.ends[:-1] + 1))

    def _key(self, i: int) -> bytes:
        start = int(self.starts[i])
        return self.data[start : self.data.index(b"\t", start)]

    def get(self, key: str) -> str | None:
        want = key.encode()
        lo, hi = 0, len(self.starts)
        while lo < hi:  # the first line whose key is not below `want`
            mid = (lo + hi) // 2
            if self._key(mid) < want:
                lo = mid + 1
            else:
                hi = mid
        if lo == len(self.starts) or self._key(lo) != want:
            return None
        return self.data[int(self.starts[lo]) + len(want) + 1 : int(self.ends[lo])].decode()


_lock = threading.Lock()
_tables: dict[str, _SortedTable] = {}


def _table(name: str) -> _SortedTable:
    with _lock:
        if name not in _tables:
            _tables[name] = _SortedTable(DATA / f"{name}.txt.gz")
        return _tables[name]


@lru_cache(maxsize=65536)
def _senses_of(lemma: str) -> dict[str, tuple[str, ...]] | None:
    """Part of speech -> synset ids, most frequent first; None for no WordNet lemma."""
    line = _table("senses").get(lemma)
    if line is None:
        return None
    out = {}
    for part in line.split(";"):
        pos, ids = part.split(":")
        out[pos] = tuple(pos + i for i in ids.split(","))
    return out


@lru_cache(maxsize=65536)
def _synset(synset: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A synset's lemmas and the synsets of its derivations."""
    line = _table("synsets").get(synset) or ""
    words, _, derived = line.partition("|")
    return tuple(words.split()), tuple(derived.split())


def available() -> bool:
    """Is the bundled data there (a source checkout without it still answers, without it)?"""
    return (DATA / "senses.txt.gz").exists()


@lru_cache(maxsize=65536)
def lemmas(word: str) -> tuple[str, ...]:
    """The WordNet lemmas a written word may be an inflection of, itself first."""
    word = word.lower().replace(" ", "_")
    out = [word] if _senses_of(word) else []
    head, _, tail = word.partition("_")  # "passed_away": inflect the first word only
    for end, repl in _ENDINGS:
        if head.endswith(end) and len(head) > len(end) + 2:
            base = head[: -len(end)] + repl + ("_" + tail if tail else "")
            if base not in out and _senses_of(base):
                out.append(base)
    if tail:  # ... or a compound noun's last, in the plural ("alma_maters", "holding_companies")
        for end, repl in _PLURALS:
            if word.endswith(end) and len(tail) > len(end) + 2:
                base = word[: -len(end)] + repl
                if base not in out and "n" in (_senses_of(base) or {}):
                    out.append(base)
    return tuple(out)


def is_noun(phrase: str) -> bool:
    """Does WordNet list the words, joined by "_", as a noun ("record_company")?"""
    return "n" in (_senses_of(phrase.lower()) or {})


@lru_cache(maxsize=65536)
def may_inflect_a_verb(word: str) -> bool:
    """May a word ending like a participle or gerund be one: is it an inflection of a verb
    WordNet lists, or a word it does not know? Not "offspring", "sacred" or "spring", nouns
    and adjectives whose ending only looks like one."""
    if not available():
        return True
    word = word.lower()
    found = lemmas(word)
    stem = word[: -2 if word.endswith("ed") else -3]
    if len(stem) > 2 and stem[-1] == stem[-2] and _senses_of(stem[:-1]):
        found += (stem[:-1],)  # "starring", "wedding": a doubled consonant
    return not found or any("v" in _senses_of(lemma) for lemma in found if lemma != word)


@lru_cache(maxsize=65536)
def senses(word: str, pos: str = "nva", first: int = QUESTION_SENSES) -> frozenset[str]:
    """The synsets of a word's `first` senses per part of speech in `pos` (n, v, a)."""
    out: set[str] = set()
    for lemma in lemmas(word):
        for p, ids in _senses_of(lemma).items():
            if p in pos:
                out.update(ids[:first])
    return frozenset(out)


@lru_cache(maxsize=8192)
def label_senses(word: str, pos: str) -> dict[str, float]:
    """Synset -> weight for a relation label word: its first LABEL_SENSES senses (1.0) and
    the synsets of their derivations into other words (DERIVED: "death" reaches "die",
    "pass away"; "place" the noun does not reach "place" the verb, nor so "set")."""
    own = senses(word, pos, LABEL_SENSES)
    out = {s: 1.0 for s in own}
    same = set(lemmas(word))
    for s in own:
        for d in _synset(s)[1]:
            # (not the word itself in another part of speech: "place" the noun is no "set")
            if not same & set(_synset(d)[0]):
                out.setdefault(d, DERIVED)
    return out


def label_senses_with_gloss(word: str, pos: str) -> LabelSenses:
    """`label_senses`, and for a noun the senses of the verb its definition says one does
    there or as it (`defining_verbs`: a residence is "any address at which you *dwell*", a
    manager "someone who *controls* resources") at GLOSS_VERB — "where does X *live*" names
    `place of residence` though no form, vector or shared sense links them."""
    out = LabelSenses(label_senses(word, pos))
    if pos == "n":
        for verb in defining_verbs(word):
            for synset in (_senses_of(verb) or {}).get("v", ()):
                if synset not in out:
                    out[synset] = GLOSS_VERB
                    out.by_gloss.add(synset)
        for genus in defining_genera(word):
            out.setdefault(genus, GLOSS_GENUS)
    return out


_GENUS_START = re.compile(r"^(?:a|an|the) ([a-z]+) (?:requiring|that|who|which|of|in|for|with|"
                          r"by)\b")


@lru_cache(maxsize=8192)
def defining_genera(word: str) -> tuple[str, ...]:
    """The first noun senses of the nouns a word's first LABEL_SENSES noun senses are
    defined as a kind of, where the definition opens "a N requiring / that / of …"
    ("profession": "an *occupation* requiring special education") — not the word's own."""
    found = lemmas(word)
    if not found:
        return ()
    out: list[str] = []
    for synset in (_senses_of(found[0]) or {}).get("n", ())[:LABEL_SENSES]:
        genus = _genus_of(synset)
        if genus is not None and genus[0] != found[0]:
            out.append(genus[1])
    return tuple(dict.fromkeys(out))


def _genus_of(synset: str) -> tuple[str, str] | None:
    """The noun a synset's definition says it is a kind of ("a N requiring / that / of …"),
    as (its lemma, its first noun sense); None where the definition opens otherwise."""
    match = _GENUS_START.match(_definition(synset))
    genus = lemmas(match[1])[:1] if match else ()
    ids = (_senses_of(genus[0]) or {}).get("n", ()) if genus else ()
    return (genus[0], ids[0]) if ids else None


PERSON = "n00007846"  # person, individual, someone …
PERSON_DEPTH = 3  # definitions followed up to "a person"


@lru_cache(maxsize=8192)
def names_a_person(word: str) -> bool:
    """Does the dictionary define the word's first noun sense as a kind of person, within
    PERSON_DEPTH definitions ("graduate": *a person* who has received a degree; "employee":
    a *worker* who …, a worker being a person)? A noun asked about that does is answered by
    people, however its static vector reads ("graduates" sits near the universities)."""
    found = lemmas(word)
    ids = (_senses_of(found[0]) or {}).get("n", ()) if found else ()
    synset = ids[0] if ids else None
    for _ in range(PERSON_DEPTH):
        if synset is None or synset == PERSON:
            break
        genus = _genus_of(synset)
        synset = genus[1] if genus else None
    return synset == PERSON


class LabelSenses(dict):
    """Synset -> weight of a label word, knowing which came from its definition's verb
    (`by_gloss`): those a question word shares only as a verb it is the form of ("lives",
    not "a living")."""

    def __init__(self, *args):
        super().__init__(*args)
        self.by_gloss: set[str] = set()

    def scaled(self, share: float) -> LabelSenses:
        out = LabelSenses({s: w * share for s, w in self.items()})
        out.by_gloss = set(self.by_gloss)
        return out


# the verb of a definition's relative clause on a person or place: "an address at which you
# *dwell*", "someone who *controls* resources", "the place where someone was *born*"
# (auxiliaries skipped) — not "powers that control destiny", said of another noun
_RELATIVE = re.compile(r"(?:\b(?:where|who|whom)|\b(?:at|in|on|from|to|by|with) which|"
                       r"\b(?:which|that)(?= (?:you|one|someone|they)\b))((?: [a-z']+){1,4})")
_SUBJECTS = frozenset("you one someone somebody a person people they it he she".split())
_AUXILIARIES = frozenset("is are was were be been being has have had can may will".split())
_LIGHT_VERBS = frozenset("be do give make take get have find provide require serve use".split())


@lru_cache(maxsize=8192)
def defining_verbs(word: str, pos: str = "n") -> tuple[str, ...]:
    """The lemmas of the verbs of the relative clauses that define a word's first
    LABEL_SENSES senses in part of speech `pos` — what one does as it or there — but light
    verbs ("gives", "serves") and the word's own."""
    found = lemmas(word)
    if not found:
        return ()
    own = set(found)
    out: list[str] = []
    for synset in (_senses_of(found[0]) or {}).get(pos, ())[:LABEL_SENSES]:
        own.update(w for d in _synset(synset)[1] for w in _synset(d)[0])
        match = _RELATIVE.search(_definition(synset))
        if not match:
            continue
        words = [w for w in match.group(1).split() if w not in _SUBJECTS]
        while words and words[0] in _AUXILIARIES:
            words.pop(0)
        verbs = [v for v in lemmas(words[0]) if "v" in (_senses_of(v) or {})] if words else []
        if verbs and verbs[0] not in _LIGHT_VERBS and verbs[0] not in own:
            out.append(verbs[0])
    return tuple(dict.fromkeys(out))


@lru_cache(maxsize=8192)
def first_gloss(lemma: str, pos: str = "n") -> str:
    """The definition of a lemma's first sense in part of speech `pos`, its first clause,
    in lower case ("niece": "a daughter of your brother or sister"); "" where none."""
    ids = (_senses_of(lemma) or {}).get(pos, ())
    return _definition(ids[0]).strip() if ids else ""


def _definition(synset: str) -> str:
    """A synset's definition, its first clause (up to ";"), in lower case."""
    return (_table("glosses").get(synset) or "").split(";")[0].lower()


def shared_sense(question_word: str, label: dict[str, float]) -> float:
    """How surely a question word (or a phrase joined by "_") means a label word's sense:
    the best weight of a synset both hold, 0 if none. A sense the label has from its
    definition's verb counts only where the word may be that verb's form, not where it is
    a noun or adjective of its own that is no verb ("do for a *living*" is no "live")."""
    gloss = getattr(label, "by_gloss", ())
    found = lemmas(question_word)
    own_noun = bool(found) and found[0] == question_word.lower() \
        and "v" not in (_senses_of(found[0]) or {})  # fmt: skip
    return max((label[s] for s in senses(question_word)
                if s in label and not (s in gloss and own_noun)), default=0.0)


def synonyms(word: str, pos: str = "n", first: int = QUESTION_SENSES) -> tuple[str, ...]:
    """The other lemmas of a word's `first` senses in part of speech `pos` ("granny":
    grandma, grandmother, …), most frequent sense first, in WordNet's order."""
    out: list[str] = []
    for lemma in lemmas(word):
        for synset in (_senses_of(lemma) or {}).get(pos, ())[:first]:
            out += [w for w in _synset(synset)[0] if w != lemma and w not in out]
    return tuple(out)


# where a definition's first noun phrase (its genus: what the word is a kind of) ends
_GENUS_ENDS = frozenset("of with who whom whose that which where when from for to by on at as in "
                        "you is are was were ; ( , :".split())  # fmt: skip
_DETERMINERS = frozenset(("a", "an", "the", "your", "one's"))


@lru_cache(maxsize=8192)
def genus_words(word: str, pos: str = "n", most_senses: int = 2) -> tuple[str, ...]:
    """The words of the first noun phrase of the definition of a word's first sense in part
    of speech `pos`, up to a preposition or relative pronoun ("mentor": "a wise and trusted
    *guide* and *advisor*"; "your alma mater is a *school* you graduated from"): what an
    English dictionary says a rare word is a kind of, in common words. Only for a word of at
    most `most_senses` senses there: which sense a common word ("head") has in a question
    its first sense does not tell."""
    found = lemmas(word)
    ids = (_senses_of(found[0]) or {}).get(pos, ()) if found else ()
    if not ids or len(ids) > most_senses:
        return ()
    own = set(found[0].split("_"))
    text = (_table("glosses").get(ids[0]) or "").lower()
    out: list[str] = []
    for token in text.replace(";", " ; ").replace("(", " ( ").replace(",", " , ").split():
        if token in ("is", "are") and own.issuperset(t for t in out if t not in _DETERMINERS):
            out = []  # "your alma mater *is* a school …": the definition starts after
            continue
        if token in _GENUS_ENDS:
            break
        out.append(token)
    return tuple(t for t in out if t not in own)


# a definition that says the word is another, plainer word's name: "*informal terms for* a
# mother" (mom), "an *informal term for* a father" (dad), "*uncomplimentary terms for* a
# policeman" (cop) — the dictionary's own convention for slang and familiar words
_TERM_FOR = re.compile(r"^(?:an? )?(?:[a-z]+ )?terms? (?:of address )?for "
                       r"(?:an? |your |someone's |one's )?([a-z]+)(?:$|[;,( ])")


@lru_cache(maxsize=8192)
def term_for(word: str, pos: str = "n") -> str | None:
    """The plainer word a word's first sense is defined as a term for ("mom": mother, "dad":
    father); None where its definition says no such thing."""
    found = lemmas(word)
    ids = (_senses_of(found[0]) or {}).get(pos, ()) if found else ()
    if not ids:
        return None
    match = _TERM_FOR.match((_table("glosses").get(ids[0]) or "").lower())
    return match.group(1) if match else None


PARAPHRASE_WORDS = 3  # a definition this short is a paraphrase ("work": "be employed")
_LIGHT = frozenset("be a an the of to in on at for by with or and one's oneself someone something "
                   "somebody".split())  # fmt: skip


@lru_cache(maxsize=8192)
def paraphrase_words(word: str, pos: str = "v", first: int = QUESTION_SENSES) -> tuple[str, ...]:
    """The content words of the short definitions (at most PARAPHRASE_WORDS words before any
    ";") of a word's `first` senses in part of speech `pos`: "work" is "be *employed*",
    "study" "be a *student*" — another way to say the same (not "pen": "produce a literary
    work", a definition)."""
    out: list[str] = []
    # (the first lemma read in that part of speech: "studied" is an adjective too)
    for lemma in [w for w in lemmas(word) if pos in (_senses_of(w) or {})][:1]:
        for synset in _senses_of(lemma)[pos][:first]:
            definition = _definition(synset).split()
            if len(definition) <= PARAPHRASE_WORDS:
                out += [w for w in definition if w not in _LIGHT and w.isalpha() and w != lemma]
    return tuple(dict.fromkeys(out))
