"""What a run looks like: the cumulative reasoning graph, the judge's reward chart, running
totals and the self-contained HTML report. Shared by the Ask and Compare pages and export, so
the pages stay UI-only and the report shows exactly what the page showed.

The graph itself (layout, folding, the vis-network page) lives in core.graph_view; its names
are re-exported here for the pages and tests that import them from this module.
"""

from __future__ import annotations

import html

from core.graph_view import (  # noqa: F401 — re-exported: the pages import them from here
    COLORS,
    MAX_PER_COLUMN,
    ROW_GAP,
    GraphView,
    graph_html,
    strip_remote,
    trace_graph,
)
from core.secrets import scrub
from core.support import BADGES
from core.trace import Step, Trace


def reward_figure(steps: list[Step], threshold: float):
    """The judge's reward per step with the threshold R drawn."""
    import plotly.graph_objects as go

    judged = [s for s in steps if s.action.kind not in ("answer", "stopped", "error")]
    fig = go.Figure(
        go.Scatter(
            x=[s.index for s in judged],
            y=[s.reward for s in judged],
            mode="lines+markers",
            name="reward",
            hovertext=[s.reward_reason for s in judged],
        )
    )
    fig.add_hline(y=threshold, line_dash="dash", line_color="#d62728",
                  annotation_text=f"R = {threshold:g}")  # fmt: skip
    fig.update_layout(  # margins wide enough for the tick labels, axis titles and the title
        height=280,
        margin={"l": 64, "r": 24, "t": 48, "b": 52},
        title={"text": "Judge reward per step", "x": 0, "xref": "paper", "y": 0.97},
        xaxis={"title": {"text": "step"}, "dtick": 1, "automargin": True},
        yaxis={"title": {"text": "reward"}, "range": [0, 1.05], "tickformat": ".1f",
               "automargin": True},
    )  # fmt: skip
    return fig


def knowledge_figure(record: dict):
    """The World Knowledge Model's mix for one decision: P_agent, P_know and the mix per
    option, as grouped bars (the chosen option's mix bar is what won)."""
    import plotly.graph_objects as go

    options = record.get("options") or []
    names = [o["action"] for o in options]
    fig = go.Figure(
        [
            go.Bar(name="P_agent", x=names, y=[o["p_agent"] for o in options]),
            go.Bar(name="P_know", x=names, y=[o["p_know"] for o in options]),
            go.Bar(name=f"mix (γ = {record.get('gamma')})", x=names,
                   y=[o["p_mix"] for o in options]),
        ]
    )  # fmt: skip
    fig.update_layout(
        barmode="group",
        height=240,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        title=f"Next action: {record.get('chosen')}",
        yaxis={"range": [0, 1.05]},
        legend={"orientation": "h"},
    )
    return fig


def totals(steps: list[Step]) -> dict[str, float]:
    """Running totals the page shows while the loop runs."""
    calls = [c for s in steps for c in s.llm_calls]
    return {
        "steps": len(steps),
        "llm_calls": len(calls),
        "tokens": sum(c.prompt_tokens + c.completion_tokens for c in calls),
        "cost_usd": sum(c.cost_usd for c in calls),
        "ms": sum(s.duration_ms for s in steps),
    }


def report_html(trace: Trace) -> str:
    """One file a stakeholder opens in any browser, offline: question, answer, evidence,
    graph, reward chart, steps, costs. Drawn from the scrubbed trace: no secret an error
    echoed reaches the file."""
    trace = Trace.from_dict(trace.to_dict())
    topics = topics_of(trace)
    view = trace_graph(trace.steps, trace.answers, topics)
    graph = graph_html(view, height=520) if not view.empty else ""
    chart = reward_figure(trace.steps, float(trace.settings.get("threshold", 0.8))).to_html(
        include_plotlyjs=True, full_html=False
    )
    esc = html.escape
    usage = trace.usage()
    answers = "".join(
        f"<li><b>{esc(a.label)}</b> <small>(score {a.score:.2f})</small>"
        + (
            f"<br><small>{esc(' · '.join(t.text() for t in a.evidence))}</small>"
            if a.evidence
            else ""
        )  # fmt: skip
        + "".join(
            f"<br><small>{'source' if p.verified else 'unverified'}: {esc(p.text[:300])}</small>"
            for p in a.passages[:1]
        )
        + "</li>"
        for a in trace.answers[:10]
    )
    steps = "".join(
        f"<tr><td>{s.index}</td><td>{esc(s.action.description)}</td><td>{s.reward:.2f}</td>"
        f"<td>{esc(s.reward_reason)}</td><td>{s.candidates}</td><td>{s.tokens}</td>"
        f"<td>{s.duration_ms:,.0f}</td></tr>"
        + (
            f"<tr><td></td><td colspan=6><pre>{esc(s.action.query)}</pre></td></tr>"
            if s.action.query
            else ""
        )  # fmt: skip
        for s in trace.steps
    )
    frame = (
        f'<iframe style="width:100%;height:540px;border:1px solid #ddd" '
        f'srcdoc="{esc(graph, quote=True)}"></iframe>'
        if graph
        else "<p>No graph: this run retrieved no triples.</p>"
    )
    support = trace.support
    badge, colour = BADGES.get(support.status, (support.status, "#57606a")) if support \
        else ("", "")  # fmt: skip
    support_html = (
        f'<p class="support" style="border-left:6px solid {colour};padding:6px 10px">'
        f"<b style=\"color:{colour}\">{esc(badge)}</b> — {esc(support.reason)}</p>"
        if support
        else ""
    )
    claims = "".join(
        f"<tr><td>{esc(c.status)}</td><td>{esc(c.origin)}</td><td>{esc(c.text)}</td>"
        f"<td>{esc(c.reason)}</td></tr>"
        for c in trace.claims
    )
    claims_html = (
        "<h2>Groundedness of the LLM's text</h2><table><tr><th>status</th><th>written in</th>"
        f"<th>claim</th><th>checked against the KB and the retrieved sources</th></tr>{claims}"
        "</table>"
        if claims
        else ""
    )
    data = esc(trace.to_json(indent=None))
    model = trace.settings.get("model") if usage["llm_calls"] else None
    model = f"· model <b>{esc(str(model))}</b>" if model else ""
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>KnowLoop report — {esc(trace.question)}</title>
<style>body{{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}}
table{{border-collapse:collapse;width:100%}}td,th{{border-bottom:1px solid #eee;padding:4px;
text-align:left;vertical-align:top}}pre{{white-space:pre-wrap;font-size:12px;margin:0}}
.kpi span{{display:inline-block;margin-right:2em}}</style></head><body>
<h1>{esc(trace.question)}</h1>
<p>Paradigm <b>{esc(trace.paradigm)}</b> on KB <b>{esc(trace.kb)}</b>
{model}</p>
<h2>Answer</h2>
{support_html}
{"<ol>" + answers + "</ol>" if answers else "<p><b>No answer</b></p>"}
<p>{trace.n_answers} answer(s) · stopped because {esc(trace.stop_reason)}</p>
<p class="kpi"><span>{len(trace.steps)} steps</span><span>{usage["llm_calls"]} LLM calls</span>
<span>{usage["prompt_tokens"] + usage["completion_tokens"]:,} tokens</span>
<span>${usage["cost_usd"]:.4f}</span><span>{trace.duration_ms:,.0f} ms</span></p>
<h2>Reasoning graph</h2><p><small>orange: topic entity · red: answers and their evidence ·
green: the last step's additions</small></p>
{frame}
<h2>Judge</h2>{chart}
<h2>Steps</h2><table><tr><th>#</th><th>action</th><th>reward</th><th>why</th>
<th>candidates</th><th>tokens</th><th>ms</th></tr>{steps}</table>
{claims_html}
<script type="application/json" id="knowloop-trace">{data}</script>
</body></html>"""


def topics_of(trace: Trace) -> dict[str, str]:
    """The topic entities a run started from, id -> label."""
    return step_topics(trace.steps)


def step_topics(steps: list[Step]) -> dict[str, str]:
    """The topic entities of a run (so far): the anchors its steps start from."""
    out: dict[str, str] = {}
    for step in steps:
        params = step.action.params
        anchors = params.get("anchors") or ([params["anchor"]] if params.get("anchor") else [])
        labels = {n: lbl for t in step.triples for n, lbl in ((t.s, t.s_label), (t.o, t.o_label))}
        for anchor in anchors:
            if anchor not in out and anchor in labels:
                out[anchor] = labels[anchor]
    return out


def report_filename(trace: Trace) -> str:
    question = scrub(trace.question).lower()
    slug = "".join(c if c.isalnum() else "-" for c in question)[:50].strip("-")
    return f"knowloop-{slug or 'run'}.html"
