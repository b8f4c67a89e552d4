"""The reasoning graph of a run, drawn offline: which nodes go where, and the vis-network page
(pyvis, the library inlined) the Ask page and the HTML report embed.

The layout is computed here, not by a physics simulation: a node's column is the step that
first reached it and its row the order it arrived in, so the graph drawn after step 3 is the
graph of step 2 with new nodes appended — nothing moves while the analyst watches.

Readable at any size: a column holds at most MAX_PER_COLUMN nodes and folds the rest into one
"+N more" node that unfolds on click (answers, their evidence and the topic entities are never
folded); labels are shortened (the full name is the hover title) and never drawn smaller than
MIN_FONT_PX screen pixels at the default view; the wheel scrolls the page and zooms only with
ctrl/⌘ held (or the +/− buttons); a button shows the graph full screen.
"""

from __future__ import annotations

import html
import json
import math
import re
from dataclasses import dataclass, field

from core.trace import Step, Triple

MAX_PER_COLUMN = 12  # nodes drawn per step column; the rest fold into one "+N more" node
ROW_GAP = 40  # canvas pixels between nodes of one column (a dot and its label)
COLUMN_GAP = 250  # canvas pixels between step columns (a shortened label and the edges)
LABEL_CHARS = 24  # node labels longer than this are cut with an ellipsis
EDGE_LABEL_CHARS = 20
FONT_PX = 14  # label size in canvas pixels (screen pixels at scale 1)
MIN_FONT_PX = 12  # labels grow in canvas pixels so that they never read smaller than this…
EDGE_FONT_PX = 11
MIN_EDGE_FONT_PX = 10
FLOOR_SCALE = 0.5  # …down to this zoom; further out they shrink (they would overlap)
START_SCALE = 0.6  # the first view never starts further out: it shows the latest steps
MAX_START_SCALE = 1.25  # nor closer in, for a graph of a few nodes
BAR_PX = 30  # the legend and buttons above the canvas
COLORS = {
    "topic": "#f28e2b",
    "seen": "#9ecae9",
    "new": "#2ca02c",
    "answer": "#d62728",
    "more": "#dddddd",
}
LEGEND = {
    "topic": "topic",
    "answer": "answer & evidence",
    "new": "this step",
    "seen": "earlier",
    "more": "folded",
}
_REMOTE_SCRIPT = re.compile(
    r"<script\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//[^>]*>\s*</script\s*>", re.I | re.S
)
_REMOTE_TAG = re.compile(
    r"<(?:script|link)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.I | re.S
)
_EMPTY_HEADING = re.compile(r"<center>\s*<h1>\s*</h1>\s*</center>")  # pyvis's title slots
_CANVAS_DIV = '<div id="mynetwork"'


@dataclass
class GraphView:
    nodes: dict[str, dict] = field(default_factory=dict)  # id -> label, kind, x, y (drawn)
    edges: list[dict] = field(default_factory=list)  # from, to, label, new, evidence, key
    # "+N more" node id -> the nodes it stands for (id -> as in `nodes`), drawn on a click
    hidden: dict[str, dict[str, dict]] = field(default_factory=dict)
    hidden_edges: list[dict] = field(default_factory=list)  # an end folded: drawn with it
    # a run's graph, steps as columns: a colour key above it, and a first view that keeps
    # labels legible (the latest steps, when all of it would read too small)
    steps: bool = False

    @property
    def empty(self) -> bool:
        return not self.nodes


def trace_graph(
    steps: list[Step], answers: list = (), topics: dict[str, str] | None = None,
    evidence_answers: int = 3,
) -> GraphView:  # fmt: skip
    """The subgraph retrieved by `steps`, cumulative; the last step's additions marked new and
    the evidence of the top answers marked as such. A column past MAX_PER_COLUMN nodes folds
    the rest into one "+N more" node; topics, top answers and their evidence always show."""
    view = GraphView(steps=True)
    topics = topics or {}
    top = list(answers)[:evidence_answers]
    evidence = {t for a in top for t in a.evidence}
    answer_ids = {a.id for a in top}
    keep = answer_ids | set(topics) | {n for t in evidence for n in (t.s, t.o)}
    last = steps[-1].index if steps else 0
    rows: dict[int, int] = {}  # column -> nodes drawn in it
    folded: dict[int, dict[str, dict]] = {}  # column -> nodes folded, in arrival order
    seen_keys: set[tuple[str, str, str]] = set()

    def place(node: str, label: str, column: int, kind: str) -> None:
        if node in view.nodes or any(node in f for f in folded.values()):
            return
        row = rows.get(column, 0)
        if row >= MAX_PER_COLUMN and node not in keep:
            folded.setdefault(column, {})[node] = {"label": label, "kind": kind}
            return
        rows[column] = row + 1
        view.nodes[node] = {"label": label, "kind": kind, "x": column * COLUMN_GAP,
                            "y": _row_y(row)}  # fmt: skip

    def connect(t: Triple, new: bool) -> None:
        if _key(t) in seen_keys:  # retrieved again by a later step: drawn once, as first seen
            return
        seen_keys.add(_key(t))
        drawn = t.s in view.nodes and t.o in view.nodes
        (view.edges if drawn else view.hidden_edges).append(_edge(t, new, t in evidence))

    for topic, label in topics.items():
        place(topic, label, 0, "topic")
    for step in steps:
        new = step.index == last
        kind = "new" if new else "seen"
        for t in step.triples:
            place(t.s, t.s_label, 0 if t.s in topics else step.index, kind)
            place(t.o, t.o_label, 0 if t.o in topics else step.index, kind)
            connect(t, new)
    for t in evidence:  # evidence is always drawn, even when no step retrieved it
        for node, label in ((t.s, t.s_label), (t.o, t.o_label)):
            place(node, label, 0 if node in topics else last, "seen")
        connect(t, False)
    for node in answer_ids:
        if node in view.nodes:
            view.nodes[node]["kind"] = "answer"
    for node in topics:
        if node in view.nodes:
            view.nodes[node]["kind"] = "topic"
    for column, nodes in folded.items():
        more, row = f"more:{column}", rows.get(column, 0)
        view.nodes[more] = {"label": f"+{len(nodes)} more", "kind": "more", "count": len(nodes),
                            "x": column * COLUMN_GAP, "y": _row_y(row) + ROW_GAP / 4}  # fmt: skip
        for i, info in enumerate(nodes.values(), row + 1):
            info.update(x=column * COLUMN_GAP, y=_row_y(i))
        view.hidden[more] = nodes
    return view


def _row_y(row: int) -> float:
    return (row - MAX_PER_COLUMN / 2) * ROW_GAP


def _key(t: Triple) -> tuple[str, str, str]:
    return (t.s, t.p, t.o)


def _edge(t: Triple, new: bool, evidence: bool) -> dict:
    return {"from": t.s, "to": t.o, "label": t.p_label, "new": new, "evidence": evidence,
            "key": _key(t)}  # fmt: skip


# -- the page --------------------------------------------------------------------------------
def graph_html(view: GraphView, height: int = 420) -> str:
    """A self-contained pyvis page, `height` pixels tall (the whole window when opened on its
    own or full screen): vis-network inlined, no CDN tag, fixed positions, folded columns that
    unfold on a click, ctrl/⌘ + wheel zoom and a full-screen button."""
    from pyvis.network import Network

    net = Network(height=f"{height}px", width="100%", directed=True, cdn_resources="in_line")
    net.options = _options()
    for node, info in view.nodes.items():
        net.add_node(node, **_vis_node(node, info))
    net.edges.extend(_vis_edges(view.edges, "e", {**view.nodes}))
    folded = {n: info for nodes in view.hidden.values() for n, info in nodes.items()}
    groups = {
        more: {
            "nodes": [{"id": n, **_vis_node(n, info)} for n, info in nodes.items()],
            "closed": view.nodes[more]["label"],
            "open": f"− fold {len(nodes)}",
        }
        for more, nodes in view.hidden.items()
        if more in view.nodes
    }
    data = {
        "groups": groups,
        "hiddenEdges": _vis_edges(view.hidden_edges, "h", {**view.nodes, **folded}),
        "font": FONT_PX, "minFont": MIN_FONT_PX, "edgeFont": EDGE_FONT_PX,
        "minEdgeFont": MIN_EDGE_FONT_PX, "floorScale": FLOOR_SCALE,
        "startScale": START_SCALE if view.steps else 0, "maxStartScale": MAX_START_SCALE,
        "edgeChars": EDGE_LABEL_CHARS,
    }  # fmt: skip
    page = _EMPTY_HEADING.sub("", net.generate_html(notebook=False))
    if any(mark not in page for mark in (_CANVAS_DIV, "</head>", "</body>")):
        raise RuntimeError("unexpected pyvis page (pinned 0.3.2): its template changed")
    css = _CSS % {"height": height, "bar": BAR_PX, "hint": BAR_PX + 8}
    early = (  # before pyvis draws: the canvas gets its final size first
        f"<style>{css}</style>\n"
        '<script>if (window.self === window.top) document.documentElement.classList.add("kl-top");'
        "</script>\n</head>"
    )
    late = (
        f'<script type="application/json" id="kl-graph-data">{_script_json(data)}</script>\n'
        f"<script>{_JS}</script>\n</body>"
    )
    page = page.replace("</head>", early, 1).replace(_CANVAS_DIV, _bar(view) + _CANVAS_DIV, 1)
    head, _, rest = page.rpartition("</body>")
    page = head + late + rest
    return strip_remote(page if page.lstrip().startswith("<!") else "<!doctype html>\n" + page)


def strip_remote(page: str) -> str:
    """Drop <script src=http…> and <link href=http…> tags, so a generated page (pyvis puts
    bootstrap from a CDN in) loads nothing from the network; inline scripts stay."""
    return _REMOTE_TAG.sub("", _REMOTE_SCRIPT.sub("", page))


def short(text: str, n: int = LABEL_CHARS) -> str:
    """`text` cut to `n` characters, the last an ellipsis, when it is longer."""
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _options() -> dict:
    face = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"
    return {
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False},
        "interaction": {
            "zoomView": False,  # the wheel scrolls the page; ctrl/⌘ + wheel zooms (the script)
            "navigationButtons": True,
            "dragView": True,
            "hover": True,
            "tooltipDelay": 150,
            "keyboard": {"enabled": False},
        },
        "nodes": {
            "font": {
                "size": FONT_PX,
                "face": face,
                "color": "#1f2328",
                "strokeWidth": 3,
                "strokeColor": "#ffffff",
            },
            "shapeProperties": {"borderRadius": 3},
        },  # fmt: skip
        "edges": {
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.5}},
            "font": {
                "size": EDGE_FONT_PX,
                "face": face,
                "color": "#555555",
                "strokeWidth": 3,
                "strokeColor": "#ffffff",
                "align": "horizontal",
                "background": "rgba(255,255,255,0.85)",
            },
            "smooth": False,
            "selectionWidth": 2,
        },  # fmt: skip
    }


def _vis_node(node: str, info: dict) -> dict:
    kind, label = info["kind"], str(info["label"])
    fill = COLORS.get(kind, COLORS["seen"])
    box = node.startswith('"') or kind == "more"
    if kind == "more":
        title = f"{info.get('count', '')} more nodes in this column: click to show them"
    else:
        title = label if label == node else f"{label}\n{node}"
    return {
        "label": short(label),
        # pyvis renders titles holding "href" as raw HTML: keep every title plain text
        "title": title.replace("href", "hre\u200bf"),
        "color": {
            "background": fill,
            "border": _darker(fill),
            "highlight": {"background": fill, "border": "#000000"},
            "hover": {"background": fill, "border": "#000000"},
        },  # fmt: skip
        "x": info["x"],
        "y": info["y"],
        "physics": False,
        "shape": "box" if box else "dot",
        "size": 9 if kind in ("topic", "answer") else 6,
        "borderWidth": 3 if kind in ("new", "answer", "topic") else 1,
        **({"font": {"bold": True}, "margin": 5} if kind == "more" else {}),
    }


def _vis_edges(edges: list[dict], prefix: str, nodes: dict[str, dict]) -> list[dict]:
    """vis edges: relations between the same two nodes merged into one edge, and a relation
    shared by many edges from (or to) one node labelled once (all keep the hover title)."""
    merged: dict[tuple[str, str], dict] = {}
    for e in edges:
        m = merged.setdefault((e["from"], e["to"]), {"labels": [], "new": False, "ev": False})
        if e["label"] not in m["labels"]:
            m["labels"].append(e["label"])
        m["new"] |= bool(e["new"])
        m["ev"] |= bool(e["evidence"])
    out = []
    for i, ((a, b), m) in enumerate(merged.items()):
        text = " · ".join(str(lbl) for lbl in m["labels"])
        out.append({
            "id": f"{prefix}{i}", "from": a, "to": b, "label": short(text, EDGE_LABEL_CHARS),
            "title": text.replace("href", "hre\u200bf"),
            "color": "#d62728" if m["ev"] else ("#2ca02c" if m["new"] else "#9a9a9a"),
            "width": 3 if m["ev"] or m["new"] else 1, "evidence": m["ev"],
        })  # fmt: skip
    _label_once(out, nodes)
    return out


def _label_once(edges: list[dict], nodes: dict[str, dict]) -> None:
    """Of edges sharing a label and an end (the topic's 12 `starred_actors`), or a label and
    the two columns they join, only one keeps its label on the canvas (the middle one, an
    evidence edge where there is one); the others show it on hover."""

    def at(node: str, axis: str) -> float:
        return float(nodes.get(node, {}).get(axis, 0))

    passes = (
        lambda e: (e["from"], e["label"]),
        lambda e: (e["to"], e["label"]),
        lambda e: (e["label"], at(e["from"], "x"), at(e["to"], "x")),
    )
    labelled: set[str] = set()
    for key in passes:
        groups: dict[tuple, list[dict]] = {}
        for e in edges:
            if e["label"] and e["id"] not in labelled:
                groups.setdefault(key(e), []).append(e)
        for group in groups.values():
            if len(group) < 2:
                continue
            group.sort(key=lambda e: at(e["from"], "y") + at(e["to"], "y"))
            pick = [e for e in group if e["evidence"]] or group
            keeper = pick[(len(pick) - 1) // 2]
            labelled.add(keeper["id"])
            for e in group:
                if e is not keeper:
                    e["label"] = ""
    for e in edges:
        e.pop("evidence", None)


def _darker(color: str, factor: float = 0.7) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    return "#{:02x}{:02x}{:02x}".format(*(int(c * factor) for c in (r, g, b)))


def _bar(view: GraphView) -> str:
    kinds = {info["kind"] for info in view.nodes.values()}
    items = "".join(
        f'<span class="kl-key"><i style="background:{COLORS[k]};border-color:{_darker(COLORS[k])}"'
        f"{' class=kl-box' if k == 'more' else ''}></i>{html.escape(LEGEND[k])}</span>"
        for k in LEGEND
        if view.steps and k in kinds
    )
    return (
        f'<div id="kl-bar"><div id="kl-legend">{items}</div>'
        '<button id="kl-full" type="button" title="Show the graph full screen">'
        '⤢<span class="kl-word"> Full screen</span></button></div>\n'
        '<div id="kl-hint">ctrl/⌘ + wheel (or the +/− buttons) to zoom · drag to pan</div>\n'
    )


def _script_json(data: dict) -> str:
    """JSON safe inside a <script> element (no `</script>`, no `<!--`)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_CSS = """
html, body { margin: 0; padding: 0; background: #fff; }
.card { position: relative; }
#mynetwork { box-sizing: border-box; float: none; width: 100%%; border: 1px solid #e3e3e3;
  height: calc(min(%(height)dpx, 100vh) - %(bar)dpx); }
html.kl-top #mynetwork, html:fullscreen #mynetwork { height: calc(100vh - %(bar)dpx); }
#kl-bar { box-sizing: border-box; height: %(bar)dpx; display: flex; align-items: center;
  gap: 8px; padding: 0 2px; font: 12px system-ui, -apple-system, 'Segoe UI', Roboto, Arial,
  sans-serif; color: #444; white-space: nowrap; overflow: hidden; }
#kl-legend { flex: 1 1 auto; overflow: hidden; text-overflow: ellipsis; }
.kl-key { margin-right: 8px; }
.kl-key i { display: inline-block; width: 10px; height: 10px; border-radius: 50%%;
  border: 1px solid; margin-right: 4px; vertical-align: -1px; }
.kl-key i.kl-box { border-radius: 2px; }
#kl-hint { position: absolute; top: %(hint)dpx; left: 50%%; transform: translateX(-50%%);
  z-index: 10; pointer-events: none; opacity: 0; transition: opacity 0.3s; color: #000;
  background: #fff3bf; border: 1px solid #e6d27a; border-radius: 4px; padding: 3px 8px;
  font: 12px system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; }
#kl-hint.kl-flash { opacity: 1; }
div.vis-network div.vis-navigation div.vis-button.vis-up,
div.vis-network div.vis-navigation div.vis-button.vis-down,
div.vis-network div.vis-navigation div.vis-button.vis-left,
div.vis-network div.vis-navigation div.vis-button.vis-right { display: none !important; }
div.vis-network div.vis-navigation div.vis-button { opacity: 0.55; transform: scale(0.8);
  right: auto !important; bottom: 6px !important; }  /* bottom left: the topic column's end */
div.vis-network div.vis-navigation div.vis-button.vis-zoomOut { left: 4px !important; }
div.vis-network div.vis-navigation div.vis-button.vis-zoomIn { left: 36px !important; }
div.vis-network div.vis-navigation div.vis-button.vis-zoomExtends { left: 68px !important; }
div.vis-network div.vis-navigation div.vis-button:hover { opacity: 1; }
@media (max-width: 520px) { #kl-full .kl-word { display: none; } .kl-key { margin-right: 5px; } }
#kl-full { font: inherit; padding: 2px 8px; border: 1px solid #bbb; border-radius: 4px;
  background: #fff; cursor: pointer; }
#kl-full:hover { background: #f0f0f0; }
div.vis-tooltip { white-space: pre-wrap; max-width: 420px; font: 13px system-ui, sans-serif; }
"""

# Runs after pyvis's drawGraph(): `network` is its vis.Network.
_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kl-graph-data").textContent);
  var net = network, nodes = net.body.data.nodes, edges = net.body.data.edges;
  var container = document.getElementById("mynetwork");
  var root = document.documentElement;
  var bar = document.getElementById("kl-bar");
  if (bar && bar.parentElement !== container.parentElement) {
    container.parentElement.insertBefore(bar, container);
  }

  // -- folded columns: "+N more" nodes unfold on a click and fold back on the next ----------
  var owner = {}, open = {}, derived = [], before = {};
  Object.keys(data.groups).forEach(function (g) {
    data.groups[g].nodes.forEach(function (n) { owner[n.id] = g; });
  });
  function shortLabel(s) {
    return s.length <= data.edgeChars ? s : s.slice(0, data.edgeChars - 1) + "\u2026";
  }
  function rep(id) { return nodes.get(id) ? id : owner[id]; }
  function refreshEdges() {  // folded ends are drawn as their "+N more" node, dashed
    edges.remove(derived);
    var add = [], proxies = {}, n = 0;
    data.hiddenEdges.forEach(function (e) {
      var a = rep(e.from), b = rep(e.to);
      if (a === e.from && b === e.to) { add.push(e); return; }
      if (!a || !b || a === b) return;
      var key = a + "\u0000" + b, p = proxies[key];
      if (!p) {
        p = proxies[key] = {id: "p" + (n++), from: a, to: b, dashes: true, width: 1,
                            color: "#c4c4c4", count: 0, titles: []};
      }
      p.count += 1;
      if (p.titles.indexOf(e.title) < 0) p.titles.push(e.title);
    });
    Object.keys(proxies).forEach(function (key) {
      var p = proxies[key];
      p.title = p.count + " edge" + (p.count === 1 ? "" : "s") + " to folded nodes: " +
                p.titles.join(", ");
      delete p.count; delete p.titles;
      add.push(p);
    });
    edges.add(add);
    derived = add.map(function (e) { return e.id; });
  }
  function toggle(g) {
    var group = data.groups[g];
    if (!group) return false;
    var s = net.getScale(), view = net.getViewPosition();
    if (open[g]) {
      open[g] = false;
      edges.remove(derived); derived = [];
      nodes.remove(group.nodes.map(function (n) { return n.id; }));
      nodes.update({id: g, label: group.closed});
      refreshEdges();
      if (before[g]) net.moveTo({position: before[g], scale: s, animation: {duration: 250}});
    } else {
      open[g] = true;
      before[g] = view;
      nodes.add(group.nodes);
      nodes.update({id: g, label: group.open});
      refreshEdges();
      var at = net.getPositions([g])[g];  // bring the unfolded nodes (below it) into view
      var y = at.y - 40 / s + container.clientHeight / 2 / s;
      net.moveTo({position: {x: view.x, y: Math.max(view.y, y)}, scale: s,
                  animation: {duration: 250}});
    }
    return true;
  }
  net.on("click", function (params) {
    if (params.nodes.length === 1 && data.groups[params.nodes[0]]) toggle(params.nodes[0]);
  });
  refreshEdges();

  // -- labels: never smaller than minFont screen pixels, down to floorScale ------------------
  var fontScale = -1, pending = false;
  function fitFonts() {
    pending = false;
    var s = net.getScale();
    if (Math.abs(s - fontScale) < 1e-4) return;
    fontScale = s;
    var eff = Math.max(s, data.floorScale);
    net.setOptions({nodes: {font: {size: Math.max(data.font, data.minFont / eff)}},
                    edges: {font: {size: Math.max(data.edgeFont, data.minEdgeFont / eff)}}});
  }
  net.on("afterDrawing", function () {
    if (!pending && Math.abs(net.getScale() - fontScale) >= 1e-4) {
      pending = true;
      window.requestAnimationFrame(fitFonts);
    }
  });

  // -- the first view: everything when that stays legible, else the left (topic) end --------
  function home() {
    net.setSize("100%", "100%");  // the canvas follows its box now, not at the next resize
    for (var i = 0; i < 3; i++) {  // labels grow as the scale drops: fit again with them grown
      net.fit({animation: false, maxZoomLevel: data.maxStartScale});
      fitFonts();
      net.redraw();
    }
    if (net.getScale() >= data.startScale - 1e-6) return;
    var s = data.startScale;
    net.moveTo({scale: s});
    fitFonts();
    net.redraw();
    var right = -Infinity, top = Infinity;  // the latest steps: their additions, the answers
    nodes.getIds().forEach(function (id) {
      var box = net.getBoundingBox(id);
      if (box) { right = Math.max(right, box.right); top = Math.min(top, box.top); }
    });
    var w = container.clientWidth, h = container.clientHeight;
    net.moveTo({scale: s, position: {x: right + 8 / s - w / 2 / s, y: top - 8 / s + h / 2 / s}});
  }
  home();

  // -- zoom only with ctrl/⌘ + wheel (a pinch on a touchpad is one too); plain wheel scrolls --
  var hint = document.getElementById("kl-hint"), hintTimer = null;
  container.addEventListener("wheel", function (ev) {
    if (!(ev.ctrlKey || ev.metaKey)) {
      if (hint) {
        hint.classList.add("kl-flash");
        clearTimeout(hintTimer);
        hintTimer = setTimeout(function () { hint.classList.remove("kl-flash"); }, 1200);
      }
      return;
    }
    ev.preventDefault();
    var dy = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaY;
    var s = net.getScale();
    dy = Math.max(-300, Math.min(300, dy));
    var next = Math.min(4, Math.max(0.05, s * Math.exp(-dy * 0.002)));
    var r = container.getBoundingClientRect();
    var dom = {x: ev.clientX - r.left, y: ev.clientY - r.top};
    var p = net.DOMtoCanvas(dom);  // the point under the pointer stays under it
    net.moveTo({scale: next, position: {x: p.x - (dom.x - r.width / 2) / next,
                                        y: p.y - (dom.y - r.height / 2) / next}});
    fitFonts();
  }, {passive: false, capture: true});

  // -- full screen: the Fullscreen API where the frame allows it, else the page in a new tab --
  var full = document.getElementById("kl-full");
  function label() {
    if (!full) return;
    var on = !!document.fullscreenElement;
    full.firstChild.textContent = on ? "\u2715" : "\u2922";
    full.lastChild.textContent = on ? " Exit full screen" : " Full screen";
    full.title = on ? "Leave full screen" : "Show the graph full screen";
  }
  function openTab() {
    var copy = root.cloneNode(true);
    copy.querySelectorAll("#mynetwork > *").forEach(function (e) { e.remove(); });
    copy.classList.remove("kl-top");
    var page = "<!doctype html>\n" + copy.outerHTML;
    var w = null;
    try {
      w = window.open(URL.createObjectURL(new Blob([page], {type: "text/html"})), "_blank");
    } catch (e) { w = null; }
    if (!w) {
      w = window.open("", "_blank");
      if (w) { w.document.open(); w.document.write(page); w.document.close(); }
    }
    return w;
  }
  function toggleFull() {
    if (document.fullscreenElement) { document.exitFullscreen(); return "exit"; }
    if (document.fullscreenEnabled && root.requestFullscreen) {
      root.requestFullscreen().catch(openTab);
      return "fullscreen";
    }
    openTab();
    return "tab";
  }
  if (full) full.addEventListener("click", toggleFull);
  document.addEventListener("fullscreenchange", function () {
    label();
    setTimeout(function () { net.redraw(); home(); }, 60);
  });

  window.knowloopGraph = {network: net, toggle: toggle, groups: data.groups, home: home,
                          toggleFull: toggleFull, openTab: openTab};
})();
"""


# -- an entity's neighbourhood (the Sources page and the KG editor) --------------------------
def neighbourhood_view(center: str, label: str, triples: list[Triple]) -> GraphView:
    """One entity's neighbourhood, drawn by `graph_html` like a run's graph (one renderer for
    every page): the entity in the middle, its neighbours on a circle. Fixed positions, so
    the drawing does not move (no physics) and reads the same on every rerun."""
    view = GraphView()
    view.nodes[center] = {"label": label, "kind": "topic", "x": 0, "y": 0}
    others: dict[str, str] = {}
    for t in triples:
        for node, node_label in ((t.s, t.s_label), (t.o, t.o_label)):
            if node != center:
                others.setdefault(node, node_label)
    radius = max(180.0, 45.0 * len(others) / (2 * math.pi))
    for i, (node, node_label) in enumerate(others.items()):
        angle = 2 * math.pi * i / max(1, len(others))
        view.nodes[node] = {
            "label": node_label,
            "kind": "seen",
            "x": radius * math.cos(angle),
            "y": radius * math.sin(angle),
        }
    for t in triples:
        view.edges.append(
            {
                "from": t.s,
                "to": t.o,
                "label": t.p_label,
                "new": False,
                "evidence": False,
                "key": (t.s, t.p, t.o),
            }
        )
    return view
