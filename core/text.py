"""Text normalisation shared by entity linking, relation matching and the metrics.

One place decides what "the same words" means, so the linker, the rule agent and the
Hits@1 metric never disagree about case, underscores or whitespace.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

_WS = re.compile(r"\s+")
_TOKEN = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_STEMMER = snowballstemmer.stemmer("english")

# English function words: they never name a relation or an entity on their own.
STOPWORDS = frozenset(
    """a an the of in on at to for from by with about as into onto over under than then
    and or but nor not no so too very is are was were be been being am do does did done
    has have had having can could would should will shall may might must
    what which who whom whose when where why how that this these those there here
    it its it's itself he she him her his hers they them their theirs we us our you your i me my
    some any all each every few many much more most other such same also only just
    one ones s 's name give tell list show find""".split()
)

# Irregular English verb forms -> base form, so "wrote"/"written" meet "writer".
_IRREGULAR = {
    "wrote": "write",
    "written": "write",
    "writes": "write",
    "writing": "write",
    "made": "make",
    "did": "do",
    "done": "do",
    "gave": "give",
    "given": "give",
    "took": "take",
    "taken": "take",
    "spoke": "speak",
    "spoken": "speak",
    "sang": "sing",
    "sung": "sing",
    "born": "bear",
    "bore": "bear",
    "won": "win",
    "led": "lead",
    "built": "build",
    "drew": "draw",
    "drawn": "draw",
    "shot": "shoot",
    "began": "begin",
    "begun": "begin",
    "knew": "know",
    "known": "know",
    "played": "play",
    "met": "meet",
    "found": "find",
    "founded": "found",
    "held": "hold",
    "ran": "run",
    "sold": "sell",
    "taught": "teach",
    "thought": "think",
    "brought": "bring",
    "bought": "buy",
    "chose": "choose",
    "chosen": "choose",
    "flew": "fly",
    "flown": "fly",
    "grew": "grow",
    "grown": "grow",
    "left": "leave",
    "lost": "lose",
    "paid": "pay",
    "said": "say",
    "saw": "see",
    "seen": "see",
    "sent": "send",
    "spent": "spend",
    "stood": "stand",
    "told": "tell",
    "went": "go",
    "gone": "go",
    "fought": "fight",
    "rose": "rise",
    "risen": "rise",
    "fell": "fall",
}
_IRREGULAR_PLURALS = {
    "children": "child",
    "people": "person",
    "men": "man",
    "women": "woman",
    "wives": "wife",
    "lives": "life",
    "feet": "foot",
    "teeth": "tooth",
    "mice": "mouse",
    "geese": "goose",
    "alumni": "alumnus",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "media": "medium",
}
_IRREGULAR.update(_IRREGULAR_PLURALS)
IRREGULAR_FORMS = frozenset(_IRREGULAR)
IRREGULAR_PLURALS = frozenset(_IRREGULAR_PLURALS)
# the irregular past tenses and participles ("won", "spoken", "born"), plurals aside
IRREGULAR_VERB_FORMS = IRREGULAR_FORMS - IRREGULAR_PLURALS
_AGENT_SUFFIXES = ("ors", "ers", "or", "er", "ist", "ists", "ess", "ress")
_PATIENT_SUFFIXES = ("ees", "ee")  # whoever the verb is done to: "employees", "nominee"
_NOT_PLURAL_ENDINGS = ("ss", "us", "is", "ous", "ics", "news", "series", "species")


def is_plural(word: str) -> bool:
    """Is a (normalised) noun plural: irregular ("children", "people") or in -s ("defenders",
    "cities"), not a singular that ends so ("boss", "status", "analysis", "politics")."""
    return word in IRREGULAR_PLURALS or (
        len(word) > 3 and word.endswith("s") and not word.endswith(_NOT_PLURAL_ENDINGS))


def singular(word: str) -> str:
    """The singular of a plural noun ("teams" -> "team", "cities" -> "city", "wives" ->
    "wife"); the word itself otherwise. Static word vectors place some plurals oddly (in a
    football KB "players" and "teams" lie nearer "league" than "player" and "team" do), and
    the singular names the kind."""
    if not is_plural(word):
        return word
    if word in IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    return word[:-1]


_PLURAL_OF = {one: many for many, one in _IRREGULAR_PLURALS.items()}


def plural(noun: str) -> str:
    """The plural of a singular noun ("daughter" -> "daughters", "wife" -> "wives")."""
    if noun in _PLURAL_OF:
        return _PLURAL_OF[noun]
    if noun.endswith("y") and len(noun) > 2 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("s", "sh", "ch", "x", "z")) else "s")


def normalize(text: str) -> str:
    """Case-, width- and underscore-insensitive form used for every comparison."""
    text = unicodedata.normalize("NFKC", text).replace("_", " ").casefold()
    return _WS.sub(" ", text).strip()


def tokens(text: str) -> list[str]:
    """Word tokens of normalised text (punctuation dropped, apostrophes kept inside words)."""
    return _TOKEN.findall(normalize(text).replace("-", " "))


def names(text: str, phrase: str) -> bool:
    """Does the text contain the phrase as whole words (after `tokens`; never a substring:
    "Anna" is not named by "Annabel")?"""
    words, target = tokens(text), tokens(phrase)
    n = len(target)
    return bool(n) and any(words[i : i + n] == target for i in range(len(words) - n + 1))


# English modifiers that mark a variant of a relation ("former club", "previous employer"),
# by sense: a question that says one of a sense ("his *past* teams", "players who were *once*
# at X") means the relation marked by any word of that sense
MARKED_SENSES = (
    frozenset("former previous past ex old earlier once erstwhile formerly previously".split()),
    frozenset({"original"}),
    frozenset("late deceased".split()),
    frozenset("second alternative".split()),
)
MARKED_MODIFIERS = frozenset().union(*MARKED_SENSES)
# ... by their stems alone: "former" is no agent of "form" (a band *formed* in 1990 says no
# earlier sense)
MARKED_STEMS = tuple(frozenset(_STEMMER.stemWord(w) for w in sense) for sense in MARKED_SENSES)
PAST = 0  # the index of the "former" sense
# ... and words that speak of the present, against the "former" sense ("X's club *these days*")
PRESENT_CUES = (("currently",), ("now",), ("nowadays",), ("presently",), ("today",),
                ("these", "days"), ("at", "the", "moment"), ("at", "present"))  # fmt: skip


# verbs whose object is something the subject was part of before ("the clubs X has *left*")
LEAVING_VERBS = frozenset("leave leaves leaving left quit quits quitting departed exited".split())


def says_now(words: list[str]) -> bool:
    """Does the question speak of the present ("currently", "these days", "at the moment")?"""
    return bool(present_cues(words))


def present_cues(words: list[str]) -> set[int]:
    """The tokens of the words that speak of the present ("*currently*", "*these days*")."""
    return {k for cue in PRESENT_CUES for i in range(len(words) - len(cue) + 1)
            if tuple(words[i : i + len(cue)]) == cue for k in range(i, i + len(cue))}  # fmt: skip


def word_senses(words: list[str], i: int) -> set[int]:
    """The marked senses (indexes into MARKED_SENSES) the word at i says: its own
    ("*former*", "*previously*"; not the "old" of an age), or the past of English "*used
    to*" ("who used to play for X" played for X before, "which band did X *use to* be in")
    and of "*before*" said of no year or number."""
    if words[i] == "used" and i + 1 < len(words) and words[i + 1] == "to":
        return {PAST}
    if words[i] == "use" and i + 1 < len(words) and words[i + 1] == "to" and "did" in words[:i]:
        return {PAST}  # "which band *did* X *use to* be in" (not "what does X use to record")
    if words[i] == "old" and i > 0 and words[i - 1] in ("how", "years", "year"):
        return set()  # "*how old*", "ten *years old*": an age, no earlier sense
    if words[i] == "before" and not any(c.isdigit() for c in "".join(words[i + 1 : i + 4])):
        return {PAST}  # "where did X play *before* his current side" (not "before 2005")
    if words[i] in LEAVING_VERBS:
        return {PAST}  # "which group did X *leave*": one X was in before
    return {j for j, sense in enumerate(MARKED_SENSES) if words[i] in sense}


# English verbs whose event noun is not of their stem ("born" / "birth", "died" / "death"):
# "where was X *born*" names `place of birth` as "where was X *educated*" names `education`
_EVENT_NOUNS = {
    "born": "birth",
    "die": "death",
    "died": "death",
    "dies": "death",
    "dying": "death",
    "dead": "death",
    "marry": "marriage",
    "married": "marriage",
    "marries": "marriage",
}
EVENT_NOUNS = frozenset(_EVENT_NOUNS.values())  # "birth": the event of being born, no patient


@lru_cache(maxsize=65536)
def word_forms(word: str, patient: bool = False) -> frozenset[str]:
    """Stems a word may meet another word by: its stem, its irregular base, its agent-noun base
    (and with `patient`, its patient-noun base).

    "directed", "director" and "directs" share "direct"; "wrote" and "writer" share "write";
    "actors" and "acted" share "act". `patient` is for a relation label's words: "employees"
    ("number of employees") then meets the verb "employ" — but a question's "employee" does
    not meet the label "employer", as it would if both sides stripped their suffixes.
    """
    word = word.casefold()
    base = _IRREGULAR.get(word, word)
    forms = {_STEMMER.stemWord(base), _STEMMER.stemWord(word)}
    if word in _EVENT_NOUNS:
        forms.add(_STEMMER.stemWord(_EVENT_NOUNS[word]))
    for suffix in (*_AGENT_SUFFIXES, *(_PATIENT_SUFFIXES if patient else ())):
        if base.endswith(suffix) and len(base) - len(suffix) >= 3:
            root = base[: -len(suffix)]
            forms.add(_STEMMER.stemWord(root))
            forms.add(_STEMMER.stemWord(root + "e"))
            break
    return frozenset(f for f in forms if len(f) >= 2)


def content_words(text: str) -> list[str]:
    """Tokens that may carry meaning (not stopwords, not bare digits of one char)."""
    return [t for t in tokens(text) if t not in STOPWORDS]


def is_agent_noun(word: str) -> bool:
    """ "writer", "actors", "player": a noun for whoever does the verb."""
    word = word.casefold()
    return len(word) > 4 and any(word.endswith(s) for s in _AGENT_SUFFIXES)


def is_agentive_label(label: str) -> bool:
    """Does a relation label name a person-like role ("directed by", "starred actors", "author")?

    English morphology only: a passive agent ("... by") or an agent noun (-or/-er/-ist).
    """
    words = tokens(label)
    if not words:
        return False
    if words[-1] == "by" and len(words) >= 2:
        return True
    return is_agent_noun(words[-1])
