"""The LLM paradigms' control flow with deterministic litellm `mock_response` replies, on a
KB that shares no vocabulary with MetaQA (football): llm-only, llm+kg, llmxkg, the LLM
judge, planning (Algorithm 2), refresh (Algorithm 3), budgets and fault fallbacks."""

from __future__ import annotations

import copy
import re

import pytest

from core.engine import Engine
from core.judges import LLMJudge
from core.llm.client import LLM, LLMSettings
from core.loop import LoopSettings, State, run_to_trace
from core.paradigms import compose
from core.trace import Step, Trace

MODEL = "openai/gpt-4o-mini"  # any litellm name: every reply below is mocked


def settings(mock, **kw) -> LoopSettings:
    llm_kw = {k: kw.pop(k) for k in ("max_calls", "max_tokens") if k in kw}
    return LoopSettings(llm=LLMSettings(model=MODEL, mock_response=mock, **llm_kw), **kw)


def picker(prefer: dict[str, str], default: str = "1"):
    """A mock model: in a choice prompt, pick the listed option that `prefer` names for the
    prompt's purpose keyword; otherwise reply `default`."""

    def reply(prompt: str) -> str:
        listing = dict(
            (text.strip(), num) for num, text in re.findall(r"^(\d+)\. (.+)$", prompt, re.M)
        )
        for keyword, option in prefer.items():
            if keyword in prompt and option in listing:
                return listing[option]
        return default

    return reply


def ask(engine: Engine, question: str, paradigm: str, s: LoopSettings) -> Trace:
    return engine.ask(question, kb="football", paradigm=paradigm, settings=s)


# -- llm-only ---------------------------------------------------------------------------------
def test_llm_only_answers_from_its_chain_of_thought(football_engine: Engine) -> None:
    s = settings("Reasoning: He was born in Leeds.\nAnswer: Leeds")
    trace = ask(football_engine, "where was Erling Haaland born", "llm-only", s)
    assert trace.answer_labels == ["Leeds"]
    (step,) = trace.steps
    assert step.action.kind == "generate" and step.action.language == "text"
    assert step.passages and not step.passages[0].verified  # the LLM's words: unverified
    assert trace.answers[0].passages and trace.answers[0].evidence == []
    assert trace.usage()["llm_calls"] == 1 and trace.usage()["prompt_tokens"] > 0


def test_llm_only_majority_vote_over_k_samples(football_engine: Engine) -> None:
    replies = iter(["Answer: Leeds", "Answer: Oslo", "Answer: leeds"])
    s = settings(lambda prompt: next(replies), samples=3)
    trace = ask(football_engine, "where was Erling Haaland born", "llm-only", s)
    assert trace.answer_labels[0] == "Leeds"
    assert trace.answers[0].score == pytest.approx(2 / 3, abs=1e-3)
    assert trace.steps[0].reward == pytest.approx(2 / 3, abs=1e-3)  # consensus judge: vote share
    assert len(trace.steps[0].passages) == 3


# -- llm+kg -----------------------------------------------------------------------------------
def test_llm_plus_kg_answers_once_from_retrieved_triples(football_engine: Engine) -> None:
    s = settings(picker({"Facts:": "Leeds", "Do the known facts": "1"}))
    trace = ask(football_engine, "where was Erling Haaland born", "llm+kg", s)
    assert trace.answer_labels[0] == "Leeds"
    retrieve, answer = trace.steps
    assert retrieve.action.kind == "neighbourhood" and retrieve.triples
    assert answer.action.kind == "answer" and answer.llm_calls  # the answer call is shown
    assert trace.answers[0].evidence  # supported by the retrieved triples
    assert set(trace.answers[0].evidence) <= set(retrieve.triples)
    assert retrieve.reward == 1.0  # the LLM judge said yes


# -- llmxkg -----------------------------------------------------------------------------------
def test_llmxkg_lets_the_llm_choose_among_real_relations(football_engine: Engine) -> None:
    s = settings(picker({"next relation": "coached by"}), judge="rules")
    trace = ask(football_engine, "who coaches Manchester City", "llmxkg", s)
    assert trace.answer_labels == ["Pep Guardiola"]
    step = trace.steps[0]
    choice = step.action.details["relation_choice"]
    assert choice["chosen"] == "coached by" and choice["method"] == "scores"
    assert all(o["p_llm"] is not None and o["p_rules"] is not None for o in choice["options"])
    assert step.llm_calls and trace.answers[0].evidence


def test_llmxkg_llm_wins_where_the_rules_are_unsure(football_engine: Engine) -> None:
    """With no prior the LLM alone decides: it can pick a relation the rules rank lower."""
    question = "which club does Ederson play for"
    rules = ask(football_engine, question, "llmxkg", settings(picker({}), judge="rules"))
    options = [o["option"] for o in rules.steps[0].action.details["relation_choice"]["options"]]
    other = next(
        o for o in options if o != rules.steps[0].action.details["relation_choice"]["chosen"]
    )
    s = settings(picker({"next relation": other}), judge="rules", prior=0.0)
    trace = ask(football_engine, question, "llmxkg", s)
    assert trace.steps[0].action.details["relation_choice"]["chosen"] == other


def test_llmxkg_falls_back_to_rules_when_the_llm_fails(football_engine: Engine) -> None:
    s = settings("litellm.InternalServerError", judge="rules")
    s.llm.retries = 0
    trace = ask(football_engine, "who coaches the club Mohamed Salah plays for", "llmxkg", s)
    assert trace.answer_labels == ["Arne Slot"]
    faults = [
        st.action.details["relation_choice"]["fault"]
        for st in trace.steps
        if st.action.kind == "hop"
    ]
    assert faults and all("fell back to the rule choice" in f for f in faults)
    assert all(c.error for c in trace.llm_calls)


def test_llm_judge_fault_falls_back_to_the_rule_judge(football_engine: Engine) -> None:
    s = settings("nonsense", judge="llm")
    trace = ask(football_engine, "who coaches Manchester City", "llmxkg", s)
    assert trace.answer_labels == ["Pep Guardiola"]
    assert "LLM judge failed" in trace.steps[0].reward_reason
    assert "rules:" in trace.steps[0].reward_reason


def test_llm_judge_reward_is_the_probability_of_yes(football_kg) -> None:
    judge = LLMJudge(LLM(LLMSettings(model=MODEL, mock_response="1: 0.7, 2: 0.3")), football_kg)
    state = State(question="who coaches Manchester City")
    node = next(iter(football_kg.exact("Pep Guardiola")))
    state.frontier = {node: []}
    verdict = judge.score(state, [])
    assert verdict.reward == pytest.approx(0.7) and "P(yes) = 0.70" in verdict.reason
    assert state.llm_calls and state.llm_calls[0].purpose == "judge"


def test_budget_ends_the_run_cleanly_with_the_reason(football_engine: Engine) -> None:
    # prior 0: the LLM alone decides, so the rules' "the best plan ends here" does not stop it;
    # one call (the first relation choice) spends the budget before the LLM judge's, whatever
    # the option picked leads to (with two, a pick leading to a node with one relation left
    # asked the LLM nothing more and the run ended there instead)
    s = settings(picker({}, default="2"), judge="llm", max_calls=1, threshold=0.9, prior=0.0)
    trace = ask(football_engine, "who coaches the club Mohamed Salah plays for", "llmxkg", s)
    assert "budget" in trace.stop_reason
    assert trace.usage()["llm_calls"] <= 1
    assert trace.error is None


def test_planning_shows_proposals_predictions_and_scores(football_engine: Engine) -> None:
    def model(prompt: str) -> str:
        if "gives:" in prompt:
            return "Arne Slot"
        if "Does this plan reach" in prompt:
            return "1: 0.9, 2: 0.1" if "coached by" in prompt else "1: 0.2, 2: 0.8"
        return picker({"next relation": "plays for"})(prompt)

    s = settings(model, judge="rules", planning=True, proposals=3, beam=2, lookahead=2)
    trace = ask(football_engine, "who coaches the club Mohamed Salah plays for", "llmxkg", s)
    assert trace.answer_labels == ["Arne Slot"]
    plan = trace.steps[0].action.details["planning"]
    assert (plan["U"], plan["W"], plan["N"]) == (2, 2, 3)
    first, second = plan["levels"]
    assert 1 <= len(first) <= 3 and sum(r["kept"] for r in first) <= 2
    assert all("⇒" in r["trajectory"] and 0 <= r["critic"] <= 1 for r in first + second)
    purposes = {c.purpose for c in trace.steps[0].llm_calls}
    assert {"model: predict result", "critic", "choose relation"} <= purposes


def test_tog_style_scores_every_candidate_and_prunes_entities(football_engine: Engine) -> None:
    s = settings(picker({}), judge="rules", exhaustive=True, width=1, prior=0.0)
    trace = ask(football_engine, "where were the players of Liverpool FC born", "llmxkg", s)
    hops = [st for st in trace.steps if st.action.kind == "hop"]
    first = hops[0].action.details
    assert first["candidates"] == len(first["relation_choice"]["options"])
    later = [h for h in hops[1:] if "entity_choice" in h.action.details]
    assert all(len(h.action.params["from"]) <= 1 for h in later)


def test_refresh_entropy_acts_on_the_buffer_snapshot(football_kg) -> None:
    """Algorithm 3: the facts the LLM reads are those of the buffer snapshot it is given;
    the candidates still come from the real current state."""
    seen: list[str] = []

    def model(prompt: str) -> str:
        seen.append(prompt)
        return "1"

    parts = compose("llmxkg", football_kg, settings(model, judge="rules"))
    state = State(question="who coaches the club Mohamed Salah plays for")
    action = parts.agent.reason(state, [])
    result = parts.source.execute(action, state)
    state.frontier, state.support = result.frontier, result.support
    step = Step(index=1, action=action, triples=result.triples, candidates=len(result.frontier))
    state.last_step = step
    stale, fresh = copy.deepcopy(state), copy.deepcopy(state)
    parts.agent.reason(stale, [])  # snapshot not refreshed: no facts known yet
    assert "- (none)" in seen[-1]
    parts.agent.reason(fresh, [step])
    assert result.triples[0].text().split(" —")[0] in seen[-1] and "- (none)" not in seen[-1]


def test_refresh_entropy_runs_and_marks_steps(football_engine: Engine) -> None:
    s = settings(picker({}), judge="rules", refresh="entropy", refresh_bits=100.0)
    trace = ask(football_engine, "who coaches the club Mohamed Salah plays for", "llmxkg", s)
    assert trace.settings["refresh"] == "entropy"
    assert [st.refreshed for st in trace.steps if st.action.kind == "hop"][0] is False


def test_keys_never_reach_traces(football_engine: Engine, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret-value-123456")
    trace = ask(football_engine, "who coaches Manchester City", "llmxkg", settings(picker({})))
    assert "sk-test-secret" not in trace.to_json()
    assert trace.settings["model"] == MODEL


def test_every_paradigm_judge_combination_runs(football_engine: Engine) -> None:
    for paradigm in ("kg-only", "llm-only", "llm+kg", "llmxkg"):
        for judge in ("rules", "llm", "consensus"):
            s = settings(picker({}, default="1"), judge=judge)
            trace = run_to_trace(
                football_engine.stream(
                    "who coaches Manchester City", kb="football", paradigm=paradigm, settings=s
                )
            )
            assert trace.error is None, (paradigm, judge, trace.error)


def test_the_walk_ends_where_the_best_rule_plan_ends(football_engine: Engine) -> None:
    """With R out of reach, llmxkg still stops once the rules' best plan is the path walked
    (it used to walk on to whatever any longer plan continued with)."""
    s = settings(picker({}), judge="rules", threshold=1.0)
    trace = ask(football_engine, "which club does Mohamed Salah play for", "llmxkg", s)
    assert trace.answer_labels[:1] == ["Liverpool FC"] and len(trace.steps) == 1
    assert trace.stop_reason == "the best rule plan ends with the path walked so far"
