"""Adaptive query generation with a capable model: write the query, validate it with the
source's own parser and guard, and repair it from the error message, a bounded number of
times. (With the bundled 270M model the agents fill templates from closed options instead.)"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from core.llm.client import LLM, LLMFault

MAX_REPAIRS = 2
_FENCE = re.compile(r"```(?:\w+)?\s*(.*?)```", re.S)


@dataclass
class Generated:
    query: str | None  # None: every attempt failed (the caller falls back)
    attempts: list[dict] = field(default_factory=list)  # query and error per attempt


def generate_query(
    llm: LLM,
    language: str,
    task: str,
    validate: Callable[[str], None],
    ledger: list,
    repairs: int = MAX_REPAIRS,
) -> Generated:
    """Ask for one `language` query for `task`; `validate` raises ValueError with a reason.
    Each failure goes back to the model with the reason, up to `repairs` times."""
    out = Generated(None)
    prompt = f"{task}\nWrite one {language.upper()} query. Reply with the query only."
    for attempt in range(repairs + 1):
        try:
            text = llm.complete(
                prompt,
                purpose=f"write {language}" + (" (repair)" if attempt else ""),
                ledger=ledger,
                max_tokens=300,
            ).text
        except LLMFault as fault:
            out.attempts.append({"query": None, "error": str(fault)})
            return out
        query = extract_query(text)
        try:
            validate(query)
        except ValueError as exc:
            out.attempts.append({"query": query, "error": str(exc)})
            prompt = (
                f"{task}\nThis {language.upper()} query failed:\n{query}\nError: {exc}\n"
                f"Write a corrected {language.upper()} query. Reply with the query only."
            )
            continue
        out.attempts.append({"query": query, "error": None})
        out.query = query
        return out
    return out


def extract_query(text: str) -> str:
    """The query in a reply: a fenced block if any, else the text without a leading label."""
    fenced = _FENCE.search(text or "")
    body = fenced.group(1) if fenced else (text or "")
    return re.sub(r"^\s*(sql|sparql|query)\s*:\s*", "", body.strip(), flags=re.I).strip()
