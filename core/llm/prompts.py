"""Prompt texts, written for a small *base* model first (plain continuations, the decision as
the last line) and readable by any chat model. No KB's relation names or templates appear here:
facts are verbalised from whatever KB is loaded."""

from __future__ import annotations

from core.trace import Passage, Triple

MAX_FACTS = 40

COT_EXAMPLE = (
    "Question: what is the capital of the country where the Eiffel Tower stands?\n"
    "Reasoning: The Eiffel Tower stands in France. The capital of France is Paris.\n"
    "Answer: Paris\n\n"
)


def facts(triples: list[Triple], limit: int = MAX_FACTS) -> str:
    seen, lines = set(), []
    for t in triples:
        line = f"- {t.s_label} {t.p_label} {t.o_label}"
        if line not in seen:
            seen.add(line)
            lines.append(line)
        if len(lines) >= limit:
            break
    return "\n".join(lines) if lines else "- (none)"


def passages(items: list[Passage], limit: int = 3, chars: int = 400) -> str:
    return "\n".join(f"- {p.text.strip()[:chars]}" for p in items[:limit]) or "- (none)"


def chain_of_thought(question: str) -> str:
    return (
        "Answer the question. Reason step by step, then give the final answer on a line "
        'starting with "Answer:".\n\n' + COT_EXAMPLE + f"Question: {question}\nReasoning:"
    )


def choose_topic(question: str) -> str:
    return f"Question: {question}\nThe question is about:"


def choose_relation(question: str, known: list[Triple], where: str) -> str:
    return (
        f"Known facts:\n{facts(known)}\n\nQuestion: {question}\n"
        f"To answer, the next relation to follow from {where} is:"
    )


def choose_entity(question: str, known: list[Triple]) -> str:
    return f"Known facts:\n{facts(known)}\n\nQuestion: {question}\nMost relevant entity:"


def answer_from_facts(question: str, known: list[Triple]) -> str:
    return f"Facts:\n{facts(known)}\n\nQuestion: {question}\nAnswer:"


def judge(question: str, known: list[Triple], texts: list[Passage], candidates: list[str]) -> str:
    body = f"Known facts:\n{facts(known, 15)}\n"
    if texts:
        body += f"Notes:\n{passages(texts)}\n"
    shown = ", ".join(candidates[:5]) + (" ..." if len(candidates) > 5 else "")
    return (
        f"{body}\nQuestion: {question}\nCandidate answers: {shown or '(none)'}\n"
        "Do the known facts answer the question (yes or no)?\nAnswer:"
    )


def predict_result(question: str, known: list[Triple], where: str, relation: str) -> str:
    """The LLM as a simulated KB (Algorithm 2's Model): what would this query return?"""
    return (
        f"Known facts:\n{facts(known, 10)}\n\nQuestion: {question}\n"
        f"Following '{relation}' from {where} gives:"
    )


def critic(question: str, trajectory: str) -> str:
    return (
        f"Question: {question}\nPlan: {trajectory}\n"
        "Does this plan reach the answer to the question (yes or no)?\nAnswer:"
    )


def task_guidance(pattern: str, chosen: str, rejected: str) -> str:
    """WKM task knowledge (seed §C): contrast an expert path with a failed one."""
    return (
        f"Questions like: {pattern}\nA path that answered it: {chosen}\n"
        f"A path that failed: {rejected or '(none)'}\n"
        "In one sentence, advise how to answer questions like this and what to avoid.\n"
        "Advice:"
    )
