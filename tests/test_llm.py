"""The LLM module: both call shapes through real litellm calls with `mock_response`, the
ledger, budgets, retries and every fault path."""

from __future__ import annotations

import re

import pytest

from core.llm.client import (
    LLM,
    BudgetExhausted,
    LLMFault,
    LLMSettings,
    clear_cache,
    get_litellm,
    parse_option_scores,
)
from core.trace import LLMCall


def make(mock, **kw) -> LLM:
    waits: list[float] = []
    llm = LLM(LLMSettings(model="openai/gpt-4o-mini", mock_response=mock, **kw), sleep=waits.append)
    llm.waits = waits  # type: ignore[attr-defined]
    return llm


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_cache()


def test_complete_records_model_tokens_cost_and_latency() -> None:
    ledger: list[LLMCall] = []
    out = make("Paris").complete("capital of France?", purpose="test", ledger=ledger)
    assert out.text == "Paris"
    (call,) = ledger
    assert call.model == "openai/gpt-4o-mini" and call.purpose == "test"
    assert call.prompt_tokens > 0 and call.completion_tokens > 0
    assert call.cost_usd > 0  # from litellm's (local) cost map
    assert call.latency_ms >= 0 and not call.cached and call.error is None


def test_identical_deterministic_calls_hit_the_cache() -> None:
    llm, ledger = make("Paris"), []
    llm.complete("q", purpose="a", ledger=ledger)
    llm.complete("q", purpose="a", ledger=ledger)
    assert [c.cached for c in ledger] == [False, True]
    assert ledger[1].cost_usd == 0 and ledger[1].prompt_tokens == 0


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("2", [0, 1, 0]),
        ("Option 3.", [0, 0, 1]),
        ("1: 0.6, 2: 0.2, 3: 0.2", [0.6, 0.2, 0.2]),
        ('{"1": 0.5, "3": 0.5}', [0.5, 0, 0.5]),
        ("1: 60%, 2: 40%", [0.6, 0.4, 0]),
        ("written by", [0, 1, 0]),
    ],
)
def test_choice_replies_are_parsed_robustly(reply: str, expected: list[float]) -> None:
    probs = parse_option_scores(reply, ["directed by", "written by", "starred actors"])
    assert probs == pytest.approx(expected)


@pytest.mark.parametrize("reply", ["", "no idea", "7", "0: 0.5"])
def test_unusable_choice_replies_give_none(reply: str) -> None:
    assert parse_option_scores(reply, ["a", "b"]) is None


def test_choose_returns_a_distribution_over_the_options() -> None:
    ledger: list[LLMCall] = []
    choice = make("1: 0.25, 2: 0.75").choose("pick", ["x", "y"], purpose="p", ledger=ledger)
    assert choice.probs == pytest.approx([0.25, 0.75]) and choice.best == 1
    assert choice.method == "scores" and sum(choice.probs) == pytest.approx(1)
    assert len(ledger) == 1


def test_malformed_choice_output_is_a_fault_in_the_ledger() -> None:
    ledger: list[LLMCall] = []
    with pytest.raises(LLMFault, match="did not choose"):
        make("I like turtles").choose("pick", ["x", "y"], purpose="p", ledger=ledger)
    assert ledger[0].error and "unusable" in ledger[0].error


def test_a_single_option_needs_no_call() -> None:
    ledger: list[LLMCall] = []
    choice = make("unused").choose("pick", ["only"], purpose="p", ledger=ledger)
    assert choice.probs == [1.0] and ledger == []


def test_rate_limits_are_retried_with_backoff_then_succeed() -> None:
    replies = iter(["litellm.RateLimitError", "litellm.InternalServerError", "fine"])
    llm, ledger = make(lambda prompt: next(replies), retries=2, backoff_s=0.5), []
    assert llm.complete("q", purpose="p", ledger=ledger).text == "fine"
    assert llm.waits == [0.5, 1.0]  # type: ignore[attr-defined]
    assert ledger[0].error == "succeeded after 2 retries"


def test_retries_are_bounded_and_the_fault_is_readable() -> None:
    llm, ledger = make("litellm.RateLimitError", retries=2, backoff_s=0.1), []
    with pytest.raises(LLMFault, match="RateLimitError"):
        llm.complete("q", purpose="p", ledger=ledger)
    assert llm.waits == [0.1, 0.2]  # type: ignore[attr-defined]
    assert "after 2 retries" in ledger[0].error


def test_timeouts_are_transient() -> None:
    litellm = get_litellm()
    timeout = litellm.Timeout(message="took too long", model="m", llm_provider="openai")
    llm, ledger = make(timeout, retries=1, backoff_s=0.1), []
    with pytest.raises(LLMFault, match="Timeout"):
        llm.complete("q", purpose="p", ledger=ledger)
    assert llm.waits == [0.1]  # type: ignore[attr-defined]


def test_auth_errors_are_not_retried_and_never_show_the_key() -> None:
    litellm = get_litellm()
    err = litellm.AuthenticationError(
        message="Incorrect API key provided: sk-abcdef1234567890", llm_provider="openai", model="m"
    )
    llm, ledger = make(err, retries=3), []
    with pytest.raises(LLMFault) as info:
        llm.complete("q", purpose="p", ledger=ledger)
    assert llm.waits == []  # type: ignore[attr-defined]
    assert "sk-abcdef1234567890" not in str(info.value) + ledger[0].error
    assert "AuthenticationError" in ledger[0].error


def test_empty_completions_are_faults() -> None:
    with pytest.raises(LLMFault, match="empty"):
        make(" ").complete("q", purpose="p", ledger=[])


def test_the_budget_caps_calls_and_tokens() -> None:
    llm = make("ok", max_calls=2, cache=False)
    ledger: list[LLMCall] = []
    llm.complete("a", purpose="p", ledger=ledger)
    llm.complete("b", purpose="p", ledger=ledger)
    with pytest.raises(BudgetExhausted, match="2 of 2 calls"):
        llm.complete("c", purpose="p", ledger=ledger)
    tokens = make("ok", max_tokens=5, cache=False)
    tokens.complete("a long prompt with many words", purpose="p", ledger=[])
    with pytest.raises(BudgetExhausted, match="tokens"):
        tokens.complete("b", purpose="p", ledger=[])


def test_the_local_model_is_registered_at_zero_cost() -> None:
    litellm = get_litellm()
    assert any(p["provider"] == "local" for p in litellm.custom_provider_map)
    info = litellm.get_model_info("local/gemma-3-270m")
    assert info["input_cost_per_token"] == 0 and info["output_cost_per_token"] == 0


def test_model_and_api_base_come_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("KNOWLOOP_MODEL", "ollama_chat/llama3")
    monkeypatch.setenv("KNOWLOOP_API_BASE", "http://localhost:11434")
    settings = LLMSettings()
    assert settings.model == "ollama_chat/llama3"
    assert settings.api_base == "http://localhost:11434"
    assert not re.search("key", repr(settings), re.I)
