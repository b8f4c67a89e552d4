"""The run record: Triple, Step, Trace, usage totals and the JSON round trip."""

from __future__ import annotations

import json

from core.trace import SCHEMA_VERSION, Action, Answer, LLMCall, Step, Trace, Triple

T1 = Triple("<a>", "<p>", "<b>", "Alice", "knows", "Bob")
YEAR = '"1990"^^<http://www.w3.org/2001/XMLSchema#integer>'
T2 = Triple("<b>", "<q>", YEAR, "Bob", "born", "1990")


def sample_trace() -> Trace:
    call = LLMCall("gpt-x", "reason", prompt_tokens=100, completion_tokens=20, cost_usd=0.002)
    steps = [
        Step(
            index=1,
            action=Action(
                kind="hop",
                description="follow 'knows' from Alice",
                query="SELECT ?answer WHERE { <a> <p> ?answer }",
                language="sparql",
                source="kg:test",
                params={"from": ["<a>"], "relation": "<p>", "direction": "out"},
                details={"features": {"coverage": 0.5}, "alternatives": []},
            ),
            triples=[T1],
            reward=0.5,
            reward_reason="half the words",
            candidates=1,
            llm_calls=[call],
            duration_ms=1.5,
        ),
        Step(
            index=2,
            action=Action(kind="hop", description="follow 'born'"),
            triples=[T2],
            reward=1.0,
            reward_reason="all words",
            candidates=1,
            llm_calls=[
                LLMCall("gpt-x", "judge", 50, 5, 0.001),
                LLMCall("gpt-x", "judge", cached=True),
            ],
            duration_ms=2.0,
            refreshed=False,
        ),
    ]
    return Trace(
        question="when was the friend of Alice born",
        paradigm="test",
        kb="test",
        settings={"max_steps": 4, "threshold": 0.8, "refresh": "entropy"},
        steps=steps,
        answers=[Answer(T2.o, "1990", 1.0, evidence=[T1, T2])],
        n_answers=1,
        stop_reason="judge reward 1.00 reached the threshold 0.8",
        duration_ms=4.0,
        linked=[{"text": "Alice", "ids": ["<a>"], "labels": ["Alice"], "score": 2.0}],
    )


def test_triple_text_reads_as_an_arrow() -> None:
    assert T1.text() == "Alice —knows→ Bob"


def test_step_tokens_and_trace_usage() -> None:
    trace = sample_trace()
    assert trace.steps[0].tokens == 120
    assert trace.steps[1].tokens == 55
    assert len(trace.llm_calls) == 3
    usage = trace.usage()
    assert usage["llm_calls"] == 3
    assert usage["prompt_tokens"] == 150
    assert usage["completion_tokens"] == 25
    assert abs(usage["cost_usd"] - 0.003) < 1e-12
    assert trace.answer_labels == ["1990"]


def test_to_dict_adds_usage_and_schema_version() -> None:
    data = sample_trace().to_dict()
    assert data["usage"]["llm_calls"] == 3
    assert data["schema_version"] == SCHEMA_VERSION
    assert data["steps"][0]["action"]["language"] == "sparql"
    assert data["answers"][0]["evidence"][1]["o_label"] == "1990"


def test_json_round_trip_is_lossless() -> None:
    trace = sample_trace()
    back = Trace.from_dict(json.loads(trace.to_json()))
    assert back == trace
    assert back.steps[1].refreshed is False
    assert isinstance(back.steps[0].triples[0], Triple)
    assert isinstance(back.answers[0].evidence[0], Triple)
    assert isinstance(back.steps[0].llm_calls[0], LLMCall)


def test_from_dict_ignores_unknown_keys() -> None:
    data = json.loads(sample_trace().to_json())
    data["ui_state"] = {"expanded": True}
    assert Trace.from_dict(data) == sample_trace()


def test_empty_trace_round_trips() -> None:
    trace = Trace(question="q", paradigm="kg-only", kb="kb", stop_reason="no answer found: x")
    back = Trace.from_dict(json.loads(trace.to_json(indent=None)))
    assert back == trace
    assert back.usage() == {
        "llm_calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "cost_usd": 0,
    }
