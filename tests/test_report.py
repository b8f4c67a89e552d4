"""The run as a picture and as a report: stable graph layout, highlights, offline HTML."""

from __future__ import annotations

import re

import pytest

from core.compare import compare
from core.engine import Engine
from core.report import graph_html, report_html, reward_figure, topics_of, totals, trace_graph

TWO_HOP = "who coaches the club Mohamed Salah plays for"


def test_graph_is_stable_as_steps_arrive(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    topics = topics_of(trace)
    first = trace_graph(trace.steps[:1], topics=topics)
    both = trace_graph(trace.steps, topics=topics)
    for node, info in first.nodes.items():  # nothing drawn at step 1 moves at step 2
        assert (both.nodes[node]["x"], both.nodes[node]["y"]) == (info["x"], info["y"])
    assert set(first.nodes) < set(both.nodes)
    new = {e["to"] for e in both.edges if e["new"]}
    assert new and all(both.nodes[n]["kind"] in ("new", "answer") for n in new)
    assert not any(e["new"] for e in both.edges if e["from"] in topics)


def test_evidence_of_the_answer_is_highlighted(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    view = trace_graph(trace.steps, trace.answers, topics_of(trace))
    answer = trace.answers[0]
    assert view.nodes[answer.id]["kind"] == "answer"
    evidence = {(t.s, t.o) for t in answer.evidence}
    assert evidence == {(e["from"], e["to"]) for e in view.edges if e["evidence"]}
    assert all(view.nodes[t]["kind"] == "topic" for t in topics_of(trace))


def test_graph_html_is_offline(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    page = graph_html(trace_graph(trace.steps, trace.answers, topics_of(trace)))
    assert "vis.DataSet" in page and "Arne Slot" in page
    assert not re.search(r"<(script|link)[^>]*(src|href)=[\"']?(https?:)?//", page)


def test_reward_chart_draws_each_step_and_the_threshold(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    fig = reward_figure(trace.steps, 0.8)
    assert list(fig.data[0].y) == [s.reward for s in trace.steps]
    assert any(getattr(shape, "y0", None) == 0.8 for shape in fig.layout.shapes)


def test_report_is_one_self_contained_file(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    page = report_html(trace)
    assert TWO_HOP in page and "Arne Slot" in page and "srcdoc=" in page
    assert "plotly" in page.lower() and 'id="knowloop-trace"' in page
    assert not re.search(r"<(script|link)[^>]*(src|href)=[\"']?(https?:)?//", page)


def test_report_escapes_hostile_text(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    trace.question = "<script>alert('x')</script>"
    page = report_html(trace)
    assert "<script>alert('x')</script>" not in page


def test_totals_sum_the_ledgers(football_engine: Engine) -> None:
    trace = football_engine.ask(TWO_HOP, kb="football")
    t = totals(trace.steps)
    assert t["steps"] == len(trace.steps) and t["llm_calls"] == 0 and t["tokens"] == 0


def test_compare_runs_paradigms_on_one_question(football_engine: Engine) -> None:
    results = compare(
        football_engine, TWO_HOP, ["kg-only", "kg-only"], kb="football", gold=["Arne Slot"]
    )
    assert [r.paradigm for r in results] == ["kg-only", "kg-only"]
    row = results[0].row()
    assert row["answer"] == "Arne Slot" and row["correct"] is True
    assert row["support"] == "verified" and row["steps"] == 2
    assert row["engine_ms"] > 0 and row["wall_ms"] >= row["engine_ms"]


def test_compare_refuses_an_empty_question_before_running(football_engine: Engine) -> None:
    with pytest.raises(ValueError, match="empty"):
        compare(football_engine, "   ", ["kg-only"], kb="football")


def test_report_leads_with_the_support_status(football_engine: Engine) -> None:
    page = report_html(football_engine.ask(TWO_HOP, kb="football"))
    assert page.index('class="support"') < page.index("Arne Slot")
    assert "✓ verified" in page
