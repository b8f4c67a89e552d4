"""What a run looks like: the cumulative reasoning graph, the judge's reward chart, running
totals and the self-contained HTML report. Shared by the Ask and Compare pages and export, so
the pages stay UI-only and the report shows exactly what the page showed.

The graph layout is computed here, not by a physics simulation: a node's column is the step
that first reached it and its row the order it arrived in, so the graph drawn after step 3 is
the graph of step 2 with new nodes appended — nothing moves while the analyst watches.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field

from core.trace import Step, Trace, Triple

MAX_PER_COLUMN = 18  # nodes drawn per step column; the rest are summarised in one node
_REMOTE_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>\s*</script\s*>", re.I | re.S
)
_REMOTE_TAG = re.compile(
    r"<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.I | re.S
)
ROW_GAP = 60  # pixels between nodes of one column (room for a label)
COLORS = {
    "topic": "#f28e2b",
    "seen": "#9ecae9",
    "new": "#2ca02c",
    "answer": "#d62728",
    "more": "#dddddd",
}


@dataclass
class GraphView:
    nodes: dict[str, dict] = field(default_factory=dict)  # id -> label, kind, x, y, title
    edges: list[dict] = field(default_factory=list)  # from, to, label, new, evidence

    @property
    def empty(self) -> bool:
        return not self.nodes


def trace_graph(
    steps: list[Step], answers: list = (), topics: dict[str, str] | None = None,
    evidence_answers: int = 3,
) -> GraphView:  # fmt: skip
    """The subgraph retrieved by `steps`, cumulative; the last step's additions marked new and
    the evidence of the top answers marked as such."""
    view = GraphView()
    topics = topics or {}
    column_rows: dict[int, int] = {}
    hidden: dict[int, int] = {}
    evidence = {t for a in list(answers)[:evidence_answers] for t in a.evidence}
    answer_ids = {a.id for a in list(answers)[:evidence_answers]}
    last = steps[-1].index if steps else 0

    def place(node: str, label: str, column: int, kind: str) -> bool:
        if node in view.nodes:
            return True
        row = column_rows.get(column, 0)
        if row >= MAX_PER_COLUMN and node not in answer_ids:
            hidden[column] = hidden.get(column, 0) + 1
            return False
        column_rows[column] = row + 1
        view.nodes[node] = {"label": label, "kind": kind, "x": column * 260,
                            "y": (row - MAX_PER_COLUMN / 2) * ROW_GAP}  # fmt: skip
        return True

    for topic, label in topics.items():
        place(topic, label, 0, "topic")
    for step in steps:
        new = step.index == last
        for t in step.triples:
            a = place(t.s, t.s_label, 0 if t.s in topics else step.index, "new" if new else "seen")
            b = place(t.o, t.o_label, 0 if t.o in topics else step.index, "new" if new else "seen")
            if a and b:
                view.edges.append(_edge(t, new, t in evidence))
    for t in evidence:  # evidence is always drawn, even past a column's cap
        for node, label in ((t.s, t.s_label), (t.o, t.o_label)):
            if node not in view.nodes:
                view.nodes[node] = {"label": label, "kind": "seen", "x": 0, "y": 0}
        if not any(e["key"] == _key(t) for e in view.edges):
            view.edges.append(_edge(t, False, True))
    for node in answer_ids:
        if node in view.nodes:
            view.nodes[node]["kind"] = "answer"
    for column, n in hidden.items():
        y = (MAX_PER_COLUMN / 2 + 1) * ROW_GAP
        view.nodes[f"more:{column}"] = {"label": f"+{n} more", "kind": "more",
                                        "x": column * 260, "y": y}  # fmt: skip
    for node in topics:
        if node in view.nodes:
            view.nodes[node]["kind"] = "topic"
    return view


def _key(t: Triple) -> tuple[str, str, str]:
    return (t.s, t.p, t.o)


def _edge(t: Triple, new: bool, evidence: bool) -> dict:
    return {"from": t.s, "to": t.o, "label": t.p_label, "new": new, "evidence": evidence,
            "key": _key(t)}  # fmt: skip


def graph_html(view: GraphView, height: int = 420) -> str:
    """A self-contained pyvis page: vis-network inlined, no CDN tag, fixed positions."""
    from pyvis.network import Network

    net = Network(height=f"{height - 20}px", width="100%", directed=True,
                  cdn_resources="in_line")  # fmt: skip
    for node, info in view.nodes.items():
        label = info["label"]
        net.add_node(
            node,
            label=label if len(label) <= 26 else label[:25] + "…",
            title=label,
            color=COLORS[info["kind"]],
            x=info["x"],
            y=info["y"],
            physics=False,
            shape="box" if node.startswith('"') or info["kind"] == "more" else "dot",
            size=22 if info["kind"] in ("topic", "answer") else 12,
            borderWidth=3 if info["kind"] in ("new", "answer") else 1,
        )
    for e in view.edges:
        net.add_edge(
            e["from"],
            e["to"],
            label=e["label"],
            title=e["label"],
            color="#d62728" if e["evidence"] else ("#2ca02c" if e["new"] else "#999999"),
            width=3 if e["evidence"] or e["new"] else 1,
            font={"size": 10},
        )
    net.toggle_physics(False)
    page = net.generate_html(notebook=False)
    return strip_remote(page.replace("<center>\n<h1></h1>\n</center>", ""))


def strip_remote(page: str) -> str:
    """Drop <script src=http…> and <link href=http…> tags, so a generated page (pyvis puts
    bootstrap from a CDN in) loads nothing from the network; inline scripts stay."""
    return _REMOTE_TAG.sub("", _REMOTE_SCRIPT.sub("", page))


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
    fig.update_layout(
        height=260,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        title="Judge reward per step",
        xaxis={"title": "step", "dtick": 1},
        yaxis={"title": "reward", "range": [0, 1.05]},
    )
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
    graph, reward chart, steps, costs."""
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
    slug = "".join(c if c.isalnum() else "-" for c in trace.question.lower())[:50].strip("-")
    return f"knowloop-{slug or 'run'}.html"


def trace_json(trace: Trace) -> str:
    return json.dumps(trace.to_dict(), ensure_ascii=False, indent=2)
