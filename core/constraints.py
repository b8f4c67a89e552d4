"""Comparisons in a question: "before 2005", "since 1990", "between 1990 and 1999", "in the
nineties", "more than 3", "the latest", "the oldest".

English comparison words only — which attribute a comparison applies to (a release year, a
rating, an age) is decided against the KB by the planner, from the relation the words next to
the comparison name and from what the candidates have. A comparison is a plan part; it is
shown in the trace as the SPARQL FILTER (or SQL WHERE) that was run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (cue words, operator): longest cues first so "no earlier than" wins over "earlier than"
_BEFORE_VALUE = [
    ("up to and including", "<="), ("no later than", "<="), ("not later than", "<="),
    ("in or before", "<="), ("on or before", "<="), ("not after", "<="), ("at most", "<="),
    ("no more than", "<="), ("up to", "<="), ("until", "<="), ("till", "<="),
    ("no earlier than", ">="), ("not earlier than", ">="), ("in or after", ">="),
    ("on or after", ">="), ("not before", ">="), ("at least", ">="), ("since", ">="),
    ("more recent than", ">"), ("newer than", ">"), ("older than", "<"), ("younger than", ">"),
    ("starting in", ">="), ("starting from", ">="), ("beginning in", ">="),
    ("ahead of", "<"), ("predates", "<"), ("predate", "<"), ("predated", "<"),
    ("predating", "<"), ("precedes", "<"), ("precede", "<"), ("preceded", "<"),
    ("preceding", "<"), ("postdates", ">"), ("postdate", ">"), ("postdated", ">"),
    ("postdating", ">"),
    ("earlier than", "<"), ("prior to", "<"), ("before", "<"), ("less than", "<"),
    ("fewer than", "<"), ("lower than", "<"), ("smaller than", "<"), ("under", "<"),
    ("below", "<"), ("pre", "<"),
    ("later than", ">"), ("after", ">"), ("more than", ">"), ("greater than", ">"),
    ("higher than", ">"), ("bigger than", ">"), ("larger than", ">"), ("over", ">"),
    ("above", ">"), ("beyond", ">"), ("exceeding", ">"), ("post", ">"),
]  # fmt: skip
# an age compares the other way round from a year: "older than 30" is more than 30 years,
# "older than 2013" is before 2013
_AGE_OP = {"older than": ">", "younger than": "<"}
_AFTER_VALUE = [
    ("or earlier", "<="), ("or before", "<="), ("and earlier", "<="), ("or less", "<="),
    ("or fewer", "<="), ("or later", ">="), ("or after", ">="), ("and later", ">="),
    ("onwards", ">="), ("onward", ">="), ("forward", ">="), ("on", ">="), ("or more", ">="),
    ("and up", ">="), ("and above", ">="), ("or above", ">="), ("plus", ">="),
]  # fmt: skip
_RANGE_OPEN = ("between", "from", "in", "during", "within", "of", "the", "period")
_RANGE_JOIN = ("and", "to", "until", "till", "through", "-", "–", "—")
_DECADE_WORDS = {
    "twenties": 20, "thirties": 30, "forties": 40, "fifties": 50, "sixties": 60,
    "seventies": 70, "eighties": 80, "nineties": 90,
}  # fmt: skip
# superlatives: (operator, temporal?) — temporal ones apply to years (latest = the largest)
SUPERLATIVES = {
    "latest": ("max", True), "newest": ("max", True), "recent": ("max", True),
    "last": ("max", True), "final": ("max", True), "earliest": ("min", True),
    "first": ("min", True), "debut": ("min", True),
    "oldest": ("min", True), "youngest": ("max", True),
    "highest": ("max", False), "largest": ("max", False), "biggest": ("max", False),
    "most": ("max", False), "tallest": ("max", False), "longest": ("max", False),
    "greatest": ("max", False), "best": ("max", False), "top": ("max", False),
    "lowest": ("min", False), "smallest": ("min", False), "least": ("min", False),
    "fewest": ("min", False), "shortest": ("min", False), "worst": ("min", False),
}  # fmt: skip
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_DECADE = re.compile(r"^(\d{2}|\d{4})s$")


@dataclass(frozen=True)
class Comparison:
    start: int  # first token of the cue and value
    end: int  # one past the last
    op: str  # "<", "<=", ">", ">=", "=", "between", "max", "min"
    values: tuple[float, ...] = ()
    temporal: bool = False  # about time: years, "latest", "in the nineties"
    cue: str = ""

    def text(self) -> str:
        if self.op in ("max", "min"):
            return f"{'largest' if self.op == 'max' else 'smallest'} ({self.cue})"
        if self.op == "between":
            return f"between {_fmt(self.values[0])} and {_fmt(self.values[1])}"
        return f"{self.op} {_fmt(self.values[0])}"

    def holds(self, value: float) -> bool:
        """Does a literal value satisfy the comparison (superlatives are applied to sets)?"""
        v = self.values
        return {
            "<": lambda: value < v[0],
            "<=": lambda: value <= v[0],
            ">": lambda: value > v[0],
            ">=": lambda: value >= v[0],
            "=": lambda: value == v[0],
            "between": lambda: v[0] <= value <= v[1],
        }.get(self.op, lambda: True)()


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _value(word: str) -> tuple[float, bool] | None:
    """A number in a question word, and whether it looks like a year."""
    if _NUMBER.match(word):
        x = float(word)
        return x, x.is_integer() and 1000 <= x <= 2100 and len(word) == 4
    return None


def _decade(words: list[str], i: int) -> tuple[float, float] | None:
    """ "1990s", "90s", "'90s", "nineties" (19xx assumed for two digits) -> the years."""
    w = words[i]
    m = _DECADE.match(w)
    if m:
        start = int(m.group(1))
        start = start + 1900 if start < 100 else start
        return float(start), float(start + 9)
    if w in _DECADE_WORDS:
        start = 1900 + _DECADE_WORDS[w]
        return float(start), float(start + 9)
    return None


def _ends_with(words: list[str], end: int, phrase: str) -> bool:
    parts = phrase.split()
    return end - len(parts) >= 0 and words[end - len(parts) : end] == parts


def find_comparisons(words: list[str], names: set[int]) -> list[Comparison]:
    """Every comparison in the question's words (outside names), left to right."""
    out: list[Comparison] = []
    taken: set[int] = set(names)
    i = 0
    while i < len(words):
        if i in taken or not words[i]:
            i += 1
            continue
        found = _range_at(words, i) or _decade_at(words, i) or _value_at(words, i)
        if found:
            out.append(found)
            taken.update(range(found.start, found.end))
            i = found.end
            continue
        i += 1
    for k, w in enumerate(words):
        if k in taken or w not in SUPERLATIVES:
            continue
        if w == "most" and k + 1 < len(words) and words[k + 1] == "recent":
            out.append(Comparison(k, k + 2, "max", (), True, "most recent"))
            taken.update((k, k + 1))
            continue
        if w == "recent" and not (k > 0 and words[k - 1] == "most"):
            continue  # "recent films" alone is no superlative
        if w in ("first", "last", "top", "best", "most", "least") and _not_superlative(words, k):
            continue
        op, temporal = SUPERLATIVES[w]
        out.append(Comparison(k, k + 1, op, (), temporal, w))
        taken.add(k)
    return sorted(out, key=lambda c: c.start)


def _not_superlative(words: list[str], k: int) -> bool:
    """ "first"/"last"/"most" are superlatives only where they modify the answer: "the first
    film", "came out first" — not "first name", "most of", "at least"."""
    nxt = words[k + 1] if k + 1 < len(words) else ""
    prev = words[k - 1] if k > 0 else ""
    if words[k] in ("most", "least") and nxt in ("of", "") or prev == "at":
        return True
    return words[k] == "first" and nxt == "name"


def _cue_before(words: list[str], i: int) -> tuple[str, str, int] | None:
    for phrase, op in _BEFORE_VALUE:
        if _ends_with(words, i, phrase):
            return phrase, op, i - len(phrase.split())
    return None


def _cue_after(words: list[str], j: int) -> tuple[str, str, int] | None:
    for phrase, op in _AFTER_VALUE:
        parts = phrase.split()
        if words[j : j + len(parts)] == parts:
            return phrase, op, j + len(parts)
    return None


def _value_at(words: list[str], i: int) -> Comparison | None:
    got = _value(words[i])
    if got is None:
        return None
    value, is_year = got
    start, end = i, i + 1
    # the cue may stand before "the year": "before the year 2000"
    head = i
    while head > 0 and words[head - 1] in ("the", "year", ""):  # "pre-1990", "the year"
        head -= 1
    before = _cue_before(words, head)
    after = _cue_after(words, end)
    if before:
        phrase, op, start = before
        if not is_year:
            op = _AGE_OP.get(phrase, op)
        if after and after[0] in ("forward", "onwards", "onward", "on") and op in (">=",):
            end = after[2]
        return Comparison(start, end, op, (value,), is_year, phrase)
    if after:
        phrase, op, end = after
        return Comparison(start, end, op, (value,), is_year, phrase)
    if head > 0 and words[head - 1] == "from" and _cue_after(words, end) is None:
        start = head - 1
    return Comparison(start, end, "=", (value,), is_year, "")


def _range_at(words: list[str], i: int) -> Comparison | None:
    """ "between 1990 and 1999", "from 1985 to 1995", "1964-1966"."""
    got = _value(words[i])
    if got is None:
        return None
    j = i + 1
    while j < len(words) and not words[j] and j < i + 3:
        j += 1  # a dash is punctuation: "1964 - 1966"
    if j < len(words) and words[j] in _RANGE_JOIN:
        j += 1
    elif j == i + 1:
        return None
    if j >= len(words) or _value(words[j]) is None:
        return None
    low, high = sorted((got[0], _value(words[j])[0]))
    start = i
    if i > 0 and words[i - 1] in _RANGE_OPEN:
        start = i - 1
    return Comparison(start, j + 1, "between", (low, high), got[1], "between")


def _decade_at(words: list[str], i: int) -> Comparison | None:
    years = _decade(words, i)
    if years is None:
        return None
    start = i
    while start > 0 and words[start - 1] in _RANGE_OPEN + ("'",):
        start -= 1
    before = _cue_before(words, start)
    if before and before[1] in ("<", "<="):  # "before the 1980s"
        return Comparison(before[2], i + 1, "<", (years[0],), True, before[0])
    if before and before[1] in (">", ">="):  # "after the 1980s"
        return Comparison(before[2], i + 1, ">", (years[1],), True, before[0])
    return Comparison(start, i + 1, "between", years, True, "decade")
