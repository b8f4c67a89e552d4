"""What backs an answer (core.support) and the groundedness of the LLM's text
(core.grounding), on the small football KB of the fixtures."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.compare import answer_text, compare_stream
from core.engine import Engine
from core.grounding import CONTRADICTED, NOT_FOUND, SUPPORTED, check_claim, ground, sentences
from core.kg.store import KnowledgeGraph
from core.support import LOW, NO_ANSWER, UNVERIFIED, VERIFIED, assess
from core.trace import Action, Answer, Passage, Step, Trace

TWO_HOP = "who coaches the club Mohamed Salah plays for"


def _trace(answers: list[Answer], reward: float = 1.0, question: str = TWO_HOP) -> Trace:
    step = Step(index=1, action=Action(kind="hop", description="x"), reward=reward)
    return Trace(question, "test", "football", settings={"threshold": 0.8}, steps=[step],
                 answers=answers)  # fmt: skip


def test_a_kg_answer_with_every_fact_in_the_kb_is_verified(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    assert trace.support is not None and trace.support.status == VERIFIED
    assert trace.support.checked == len(trace.answers[0].evidence) == 2
    assert not trace.claims  # kg-only: no LLM wrote anything


def test_the_status_survives_json_even_from_an_older_trace(football_engine: Engine) -> None:
    data = football_engine.ask(TWO_HOP, kb="football").to_dict()
    assert Trace.from_dict(data).support.status == VERIFIED
    data["support"]["tied"] = 1  # a field traces stored earlier carried
    assert Trace.from_dict(data).support.checked == 2


def test_evidence_the_kb_does_not_hold_is_unverified(
    football_engine: Engine, football_kg: KnowledgeGraph
) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    real = trace.answers[0].evidence[0]
    fake = replace(real, o=real.o.replace("Liverpool", "Atlantis"), o_label="Atlantis")
    trace.answers[0].evidence = [fake]
    support = assess(trace, football_kg)
    assert support.status == UNVERIFIED and support.missing == [fake.text()]


def test_low_reward_and_ties_are_low_confidence(
    football_engine: Engine, football_kg: KnowledgeGraph
) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    trace.steps[-1].reward = 0.3
    support = assess(trace, football_kg)
    assert support.status == LOW and "below R = 0.8" in support.reason
    # a rival reached by another path, tied at the top score
    trace.steps[-1].reward = 1.0
    salah = trace.answers[0].evidence[0]
    rival = Answer("<x:rival>", "Rival", trace.answers[0].score, evidence=[salah])
    trace.answers.insert(1, rival)
    support = assess(trace, football_kg)
    assert support.status == LOW and "tie at the top" in support.reason
    assert "(2 tied at the top)" in answer_text(trace)


def test_answer_type_that_does_not_fit_is_low_confidence(
    football_engine: Engine, football_kg: KnowledgeGraph
) -> None:
    trace = football_engine.ask("which position does Mohamed Salah play", kb="football")
    assert trace.support.status == VERIFIED
    club = football_kg.exact("Liverpool FC")[0]
    salah = football_kg.exact("Mohamed Salah")[0]
    plays_for = next(r for r, d in football_kg.roles(salah) if football_kg.label(r) == "plays for")
    wrong = Answer(club, "Liverpool FC", 1.0, evidence=[football_kg.triple(salah, plays_for, club)])
    trace.answers = [wrong]
    support = assess(trace, football_kg)
    assert support.status == LOW and "not the kind" in support.reason


def test_llm_text_without_kb_evidence_is_unverified(football_kg: KnowledgeGraph) -> None:
    said = Passage("sample-1", "Salah is coached by Jürgen Klopp.", "llm:m", verified=False)
    trace = _trace([Answer('"Jürgen Klopp"', "Jürgen Klopp", 1.0, passages=[said])])
    assert assess(trace, football_kg).status == UNVERIFIED
    assert assess(_trace([]), football_kg).status == NO_ANSWER


def test_claims_supported_contradicted_and_not_found(football_kg: KnowledgeGraph) -> None:
    def status(text: str) -> str:
        return check_claim(text, football_kg, [])[0]

    assert status("Mohamed Salah plays for Liverpool FC.") == SUPPORTED
    assert status("Mohamed Salah plays for Real Madrid.") == CONTRADICTED
    assert status("Mohamed Salah likes green tea a lot.") == NOT_FOUND
    assert status("The weather in Paris is nice today.") == NOT_FOUND


def test_a_claim_is_supported_by_a_retrieved_passage(football_kg: KnowledgeGraph) -> None:
    row = Passage("row:clubs:Arsenal", "club=Arsenal, stadium=Emirates Stadium", "table:clubs")
    status, reason, evidence = check_claim("Arsenal play at the Emirates Stadium.", football_kg,
                                           [row])  # fmt: skip
    assert status == SUPPORTED and evidence == [row.id] and "table:clubs" in reason


def test_the_answer_an_llm_gave_is_checked_as_a_claim(football_kg: KnowledgeGraph) -> None:
    said = Passage("sample-1", "He plays for Liverpool FC.\nAnswer: Pep Guardiola", "llm:m",
                   verified=False)  # fmt: skip
    pep = football_kg.exact("Pep Guardiola")[0]
    trace = _trace([Answer(pep, "Pep Guardiola", 1.0, passages=[said])])
    claims = {c.origin: c for c in ground(trace, football_kg)}
    assert claims["answer"].text == f"{TWO_HOP} → Pep Guardiola"
    assert claims["answer"].status == CONTRADICTED  # the KB's path reaches Arne Slot
    assert list(claims) == ["sample-1", "answer"]  # "Answer:" lines are the answer claim
    slot = football_kg.exact("Arne Slot")[0]
    status, reason, evidence = check_claim(TWO_HOP, football_kg, [], answer=(slot, "Arne Slot"))
    assert status == SUPPORTED and len(evidence) == 2  # plays for, then coached by


def test_sentences_keep_initials_and_drop_answer_lines() -> None:
    text = 'Forrest Gump was directed by George C. Gordon. It won.\nAnswer: Forrest Gump'
    assert sentences(text) == ["Forrest Gump was directed by George C. Gordon."]


def test_compare_streams_each_step_before_its_result(football_engine: Engine) -> None:
    events = list(compare_stream(football_engine, TWO_HOP, ["kg-only", "kg-only"],
                                 kb="football", gold=["Arne Slot"]))  # fmt: skip
    for index in (0, 1):
        mine = [e for e in events if e.index == index]
        assert [e.step.index for e in mine[:-1]] == [1, 2] and mine[-1].result.correct


def test_compare_refuses_settings_that_cannot_run(football_engine: Engine) -> None:
    from core.loop import LoopSettings

    with pytest.raises(ValueError, match="max steps"):
        list(compare_stream(football_engine, TWO_HOP, ["kg-only"], LoopSettings(max_steps=0),
                            kb="football"))  # fmt: skip
