"""The LLM as a knowledge source (seed: "the KB is another LLM"): it answers from its own
parameters. Its words are evidence, marked unverified."""

from __future__ import annotations

import json
import re
from collections import Counter

from core.llm.client import LLM
from core.loop import Retrieval, State
from core.text import normalize
from core.trace import Action, Passage

_ANSWER = re.compile(r"^\s*answer\s*[:：]\s*(.+)$", re.I | re.M)


def text_node(text: str) -> str:
    """A node id for an answer that exists only as text (an N-Triples string literal)."""
    return json.dumps(text, ensure_ascii=False)


def final_answer(completion: str) -> str:
    """The answer line of a chain of thought; else the first non-empty line."""
    found = _ANSWER.search(completion)
    text = (
        found.group(1)
        if found
        else next((line for line in completion.splitlines() if line.strip()), "")
    )
    return text.strip().strip(".").strip()


class LLMSource:
    """Runs `generate` actions: k sampled chains of thought, majority vote on their answers."""

    def __init__(self, llm: LLM):
        self.llm = llm
        self.name = f"llm:{llm.model}"

    def execute(self, action: Action, state: State) -> Retrieval:
        if action.kind != "generate":
            raise ValueError(f"the LLM source cannot run a {action.kind!r} action")
        k = max(1, int(action.params.get("samples", 1)))
        texts: list[str] = []
        for i in range(k):  # one call per sample: every provider supports that (`n` is rarer)
            completion = self.llm.complete(
                action.query,
                purpose="chain of thought" if k == 1 else f"chain of thought {i + 1}/{k}",
                ledger=state.llm_calls,
                max_tokens=int(action.params.get("max_tokens", 96)),
                temperature=0.0 if k == 1 else 0.7,
                seed=i,
                stop=["\nQuestion:", "\n\n\n"],
            )
            texts.append(completion.text)
        passages, votes, label_of = [], Counter(), {}
        for i, text in enumerate(texts[:k], 1):
            answer = final_answer(text)
            passages.append(
                Passage(id=f"sample-{i}", text=text.strip(), source=self.name, verified=False)
            )
            if answer:
                key = normalize(answer)
                label_of.setdefault(key, answer)
                votes[key] += 1
        frontier = {text_node(label_of[k]): [] for k, _ in votes.most_common()}
        support = {text_node(label_of[k]): n for k, n in votes.items()}
        return Retrieval(frontier=frontier, support=support, passages=passages)
