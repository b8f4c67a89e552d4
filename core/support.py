"""What backs an answer: one support status per run, computed in the engine so the answer
card, the CLI, the JSON trace, the HTML report, Compare and Evaluate all say the same.

- *verified*: every fact of the top answer's evidence is a triple of the KB (re-checked
  against the store now, so a later edit shows), or a retrieved source passage names it; the
  answer is the kind asked for; the judge's last reward reached R; no rival answer ties it.
- *low confidence*: evidence exists, but the reward is below R, the type does not fit, or
  answers reached by different paths tie at the top.
- *unverified*: the answer is an LLM's text with no KB evidence (or its facts are not in the
  KB).
- *no answer*: the run found none.
"""

from __future__ import annotations

from core.kg.store import KnowledgeGraph
from core.metrics import tied_at_top
from core.text import names
from core.trace import Step, Support, Trace, Triple

VERIFIED, LOW, UNVERIFIED, NO_ANSWER = "verified", "low confidence", "unverified", "no answer"
# how each status reads (badge text, colour): only a verified answer is ever green
BADGES = {
    VERIFIED: ("✓ verified", "#1a7f37"),
    LOW: ("⚠ low confidence", "#9a6700"),
    UNVERIFIED: ("? unverified", "#57606a"),
    NO_ANSWER: ("✗ no answer", "#cf222e"),
}
UNJUDGED = ("answer", "stopped", "error")  # step kinds the judge does not score


def last_judged(steps: list[Step], answered_from: int | None = None) -> Step | None:
    """The step whose judgement the answers carry: the one they come from where the agent
    fell back to an earlier state (`Trace.answered_from`), else the last step the judge
    scored (steps that only write the answer, stop or fail are not judged)."""
    if answered_from is not None:
        step = next((s for s in steps if s.index == answered_from), None)
        if step is not None:
            return step
    return next((s for s in reversed(steps) if s.action.kind not in UNJUDGED), None)


def assess(trace: Trace, kg: KnowledgeGraph | None) -> Support:
    """The run's support status and one line on why."""
    if not trace.answers:
        reason = trace.stop_reason.removeprefix("no answer found:").strip()
        return Support(NO_ANSWER, reason or "the run found no answer")
    top = trace.answers[0]
    tied = tied_at_top(trace.answers)
    shapes = {_shape(a.evidence) for a in trace.answers[:tied] if a.evidence}
    set_answer = tied > 1 and len(shapes) == 1 and bool(top.evidence)
    sources = [p for p in top.passages if p.verified and names(p.text, top.label)]
    if not top.evidence and not sources:
        why = ("the LLM's own text: no KB fact or source passage backs it" if top.passages
               else "no evidence")  # fmt: skip
        return Support(UNVERIFIED, why)
    missing = [t.text() for t in top.evidence if kg is None or not kg.holds(t.s, t.p, t.o)]
    checked = len(top.evidence)
    if missing and not sources:
        return Support(
            UNVERIFIED,
            f"{len(missing)} of {checked} evidence fact(s) are not in the KB "
            f"(e.g. {missing[0]})",
            checked=checked,
            missing=missing,
        )
    doubts = []
    threshold = float(trace.settings.get("threshold", 0.8))
    judged = last_judged(trace.steps, trace.answered_from)
    reward = judged.reward if judged else None
    if reward is not None and reward < threshold:
        doubts.append(f"the judge's reward {reward:.2f} is below R = {threshold:g}")
    fit = type_fit(trace, kg, top.evidence) if top.evidence and kg is not None else None
    if fit is False:
        doubts.append("the answer is not the kind of thing the question asks for")
    if tied > 1 and not set_answer:
        doubts.append(f"{tied} answers reached by different paths tie at the top")
    if missing:
        doubts.append(f"{len(missing)} evidence fact(s) are no longer in the KB")
    if doubts:
        return Support(LOW, "; ".join(doubts), checked=checked, missing=missing)
    backed = (f"all {checked} evidence fact(s) are in the KB" if checked
              else f"a source passage names it ({sources[0].source})")  # fmt: skip
    reward_text = f", the judge's reward {reward:.2f} ≥ R = {threshold:g}" if reward is not None \
        else ""  # fmt: skip
    typed = ", the answer type fits" if fit else ""
    many = f"; the top {tied} answers share the score by one path (a set)" if set_answer else ""
    return Support(VERIFIED, f"{backed}{typed}{reward_text}{many}", checked=checked)


def type_fit(trace: Trace, kg: KnowledgeGraph, evidence: list[Triple]) -> bool | None:
    """Does arriving over the evidence's last hop give the kind of answer asked for?
    None when the question does not say (or the path cannot be read from a topic)."""
    from core.analysis import analyse
    from core.answer_types import answer_fit
    from core.judges import TYPE_MISMATCH, chain_hops
    from core.path_fit import reached_vector

    answered = last_judged(trace.steps, trace.answered_from)
    if answered is not None and answered.action.kind == "count":
        return True  # a count answers "how many", the only question the rule agent counts for
    topics = {i for link in trace.linked for i in link.get("ids", ())}
    hops, _ = chain_hops(evidence, topics)
    if not hops:
        return None
    kind = _judged_fit(trace, hops[-1][0])
    if kind is not None:  # the judge typed the step that reached the answers: no second reading
        return None if kind == 0 else kind > TYPE_MISMATCH
    first = evidence[0]
    start = first.s if first.s in topics else first.o
    try:
        qa = analyse(trace.question, kg)
        kind = answer_fit(qa, kg, *hops[-1], trusted_only=True,
                          reached=reached_vector(kg, start, hops))  # fmt: skip
    except (KeyError, ValueError, IndexError):  # a relation edited away since the run
        return None
    if kind == 0:
        return None
    return kind > TYPE_MISMATCH


def _judged_fit(trace: Trace, last_relation: str) -> float | None:
    """The judge's answer typing of the step the answers come from, when that step walked the
    evidence's last relation (so its candidates are the answers)."""
    step = last_judged(trace.steps, trace.answered_from)
    if step is None or step.answer_fit is None:
        return None
    walked = step.action.params.get("relation") or (step.triples[0].p if step.triples else "")
    return step.answer_fit if walked == last_relation else None


def _shape(evidence: list[Triple]) -> tuple[str, ...]:
    return tuple(t.p for t in evidence)

