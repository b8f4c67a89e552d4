"""The reasoning graph reads at 5, 30 and 100 nodes (issue 12): columns past the cap fold into
"+N more" (answers and evidence never), labels are shortened with the full name on hover, the
wheel zooms only with ctrl/⌘, the page loads nothing remote — and in chromium it draws,
unfolds on a click and zooms as promised.

The runs are synthetic (benchmarks/screenshot_graph.py builds them; it also writes the
screenshots to judge legibility by eye).
"""

from __future__ import annotations

import html
import json
import re

import pytest

from benchmarks.screenshot_graph import SIZES, framed, sample_run, sample_trace
from core.graph_view import (
    FLOOR_SCALE,
    FONT_PX,
    LABEL_CHARS,
    MAX_PER_COLUMN,
    MIN_FONT_PX,
    START_SCALE,
    GraphView,
    graph_html,
    short,
    trace_graph,
)
from core.report import report_html, reward_figure, topics_of
from core.trace import Action, Answer, Step, Triple
from tests.browser_util import launch_chromium, playwright_or_skip

REMOTE = re.compile(r"<(script|link)[^>]*(src|href)=[\"']?(https?:)?//", re.I)


def page_nodes(page: str) -> list[dict]:
    """The nodes pyvis hands to vis.DataSet, as the browser gets them."""
    return json.loads(re.search(r"nodes = new vis\.DataSet\((\[.*?\])\);", page, re.S)[1])


def page_data(page: str) -> dict:
    raw = re.search(r'<script type="application/json" id="kl-graph-data">(.*?)</script>', page,
                    re.S)[1]  # fmt: skip
    return json.loads(raw)


def page_options(page: str) -> dict:
    return json.loads(re.search(r"var options = (\{.*?\});\n", page, re.S)[1])


def column_of(view: GraphView, node: str) -> float:
    return view.nodes[node]["x"]


# -- the view ------------------------------------------------------------------------------
def test_a_small_run_folds_nothing() -> None:
    view = trace_graph(*sample_run(5))
    assert len(view.nodes) == 5 and not view.hidden and not view.hidden_edges
    assert all(info["kind"] != "more" for info in view.nodes.values())


@pytest.mark.parametrize("n", [30, 100])
def test_columns_past_the_cap_fold_into_one_more_node(n: int) -> None:
    steps, answers, topics = sample_run(n)
    view = trace_graph(steps, answers, topics)
    kept = {a.id for a in answers} | {x for a in answers for t in a.evidence for x in (t.s, t.o)}
    assert view.hidden, "a column this long folds"
    for more, folded in view.hidden.items():
        info = view.nodes[more]
        assert info["kind"] == "more" and info["label"] == f"+{len(folded)} more"
        column = [k for k, v in view.nodes.items() if v["x"] == info["x"] and k != more]
        # the cap fills in arrival order; answers and evidence past it are drawn all the same
        assert MAX_PER_COLUMN <= len(column) <= MAX_PER_COLUMN + len(kept & set(column))
        # the folded nodes are carried, laid out below the "+N more" node in its column
        assert all(v["x"] == info["x"] and v["y"] > info["y"] for v in folded.values())
        assert not set(folded) & set(view.nodes) and not set(folded) & kept
    every = {(t.s, t.o) for s in steps for t in s.triples}
    drawn = {(e["from"], e["to"]) for e in view.edges}
    carried = {(e["from"], e["to"]) for e in view.hidden_edges}
    assert drawn | carried == every and not drawn & carried
    hidden = {k for f in view.hidden.values() for k in f}
    assert all(a in hidden or b in hidden for a, b in carried)
    assert len(view.nodes) + len(hidden) - len(view.hidden) == n


def test_answers_evidence_and_topics_never_fold() -> None:
    steps, answers, topics = sample_run(100)
    view = trace_graph(steps, answers, topics)
    for a in answers:
        assert view.nodes[a.id]["kind"] == "answer"
        for t in a.evidence:
            assert t.s in view.nodes and t.o in view.nodes
    evidence = {(t.s, t.o) for a in answers for t in a.evidence}
    assert evidence == {(e["from"], e["to"]) for e in view.edges if e["evidence"]}
    assert all(view.nodes[t]["kind"] == "topic" for t in topics)
    # the last film is past the cap in its column, drawn because the top answer goes through it
    last_film = answers[0].evidence[0].o
    rows = sorted(v["y"] for v in view.nodes.values() if v["x"] == column_of(view, last_film))
    assert rows.index(view.nodes[last_film]["y"]) >= MAX_PER_COLUMN


def test_folding_keeps_the_layout_stable_as_steps_arrive() -> None:
    steps, _, topics = sample_run(100)
    first, both = trace_graph(steps[:1], topics=topics), trace_graph(steps, topics=topics)
    for node, info in first.nodes.items():
        assert (both.nodes[node]["x"], both.nodes[node]["y"]) == (info["x"], info["y"])
    for more, folded in first.hidden.items():
        assert {k: (v["x"], v["y"]) for k, v in folded.items()} == {
            k: (v["x"], v["y"]) for k, v in both.hidden[more].items()
        }


def test_an_edge_retrieved_twice_is_drawn_once() -> None:
    t = Triple("<a>", "<p>", "<b>", "A", "p", "B")
    steps = [Step(1, Action("hop", "x"), [t]), Step(2, Action("hop", "y"), [t])]
    view = trace_graph(steps, topics={"<a>": "A"})
    assert len(view.edges) == 1 and not view.edges[0]["new"]


# -- the page ------------------------------------------------------------------------------
def test_short_labels_keep_the_full_name_in_the_title() -> None:
    assert short("Arne Slot") == "Arne Slot"
    long = "The Lord of the Rings: The Fellowship of the Ring (2001)"
    assert len(short(long)) <= LABEL_CHARS and short(long).endswith("…")
    view = trace_graph(*sample_run(30))
    nodes = {n["id"]: n for n in page_nodes(graph_html(view))}
    assert set(nodes) == set(view.nodes)
    for node, info in view.nodes.items():
        label, drawn = info["label"], nodes[node]
        assert len(drawn["label"]) <= LABEL_CHARS
        if len(label) > LABEL_CHARS:
            assert drawn["label"].endswith("…") and label.startswith(drawn["label"][:-1])
        if info["kind"] != "more":
            assert drawn["title"].startswith(label)
    assert any(len(v["label"]) > LABEL_CHARS for v in view.nodes.values())


def test_the_page_carries_the_folded_nodes_for_unfolding() -> None:
    view = trace_graph(*sample_run(100))
    data = page_data(graph_html(view))
    assert set(data["groups"]) == set(view.hidden)
    for more, group in data["groups"].items():
        assert [n["id"] for n in group["nodes"]] == list(view.hidden[more])
        assert group["closed"] == view.nodes[more]["label"]
    assert len(data["hiddenEdges"]) >= 1
    assert data["minFont"] >= 12


def test_the_wheel_zooms_only_with_ctrl_or_cmd() -> None:
    page = graph_html(trace_graph(*sample_run(30)))
    interaction = page_options(page)["interaction"]
    assert interaction["zoomView"] is False and interaction["navigationButtons"] is True
    assert page_options(page)["physics"]["enabled"] is False
    script = page[page.index('id="kl-graph-data"') :]
    assert 'addEventListener("wheel"' in script and "ev.ctrlKey || ev.metaKey" in script
    assert "network" in script and "moveTo" in script and "requestFullscreen" in script


@pytest.mark.parametrize("n", SIZES)
def test_the_page_loads_nothing_remote(n: int) -> None:
    page = graph_html(trace_graph(*sample_run(n)), height=560)
    assert "vis.DataSet" in page and page.startswith("<!doctype html>")
    assert not REMOTE.search(page) and "cdn.jsdelivr" not in page
    assert "min(560px, 100vh)" in page


def test_a_hand_built_view_is_fitted_whole_without_a_key() -> None:
    """The Sources page draws its own GraphView (a neighbourhood on a circle): all of it is
    fitted, and the run's colour key is not shown."""
    view = GraphView(nodes={"<a>": {"label": "A", "kind": "topic", "x": 0, "y": 0},
                            "<b>": {"label": "B", "kind": "seen", "x": 200, "y": 0}},
                     edges=[{"from": "<a>", "to": "<b>", "label": "p", "new": False,
                             "evidence": False, "key": ("<a>", "p", "<b>")}])  # fmt: skip
    page = graph_html(view, 450)
    assert page_data(page)["startScale"] == 0 and 'class="kl-key"' not in page
    assert 'class="kl-key"' in graph_html(trace_graph(*sample_run(5)))


def test_hostile_labels_stay_text() -> None:
    evil = "</script><script>alert(1)</script> href"
    t = Triple("<a>", "<p>", "<b>", "A", "p", evil)
    steps = [Step(1, Action("hop", "x"), [t])]
    page = graph_html(trace_graph(steps, [Answer("<b>", evil, 1.0, evidence=[t])], {"<a>": "A"}))
    assert "<script>alert(1)" not in page
    titles = [n["title"] for n in page_nodes(page)]
    assert not any("href" in title for title in titles)  # pyvis would render it as HTML


@pytest.mark.slow  # ≈ 0.4 s: `make test` runs it; the fast loop keeps cheaper ones
def test_the_report_embeds_the_same_graph_offline() -> None:
    trace = sample_trace(30)
    report = report_html(trace)
    srcdoc = html.unescape(re.search(r'srcdoc="([^"]*)"', report)[1])
    view = trace_graph(trace.steps, trace.answers, topics_of(trace))
    assert page_data(srcdoc) == page_data(graph_html(view, height=520))
    assert page_nodes(srcdoc) == page_nodes(graph_html(view, height=520))
    assert not REMOTE.search(report) and not REMOTE.search(srcdoc)


def test_the_reward_chart_has_room_for_its_ticks_and_title() -> None:
    fig = reward_figure(sample_trace(5).steps, 0.8)
    margin = fig.layout.margin
    assert margin.l >= 50 and margin.t >= 40 and margin.b >= 40
    assert fig.layout.yaxis.automargin and fig.layout.title.text


# -- in chromium ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser():
    sync_api = playwright_or_skip()
    with sync_api.sync_playwright() as p:
        chromium = launch_chromium(p)
        try:
            yield chromium
        finally:
            chromium.close()


def open_graph(browser, view: GraphView, errors: list[str], viewport=(700, 600)):
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith(("about:", "data:", "blob:"))
            else errors.append(f"request {r.url}"))  # fmt: skip
    page.set_content(graph_html(view, height=560))
    page.locator("#mynetwork canvas").wait_for()
    page.wait_for_timeout(200)
    return page


def state(page) -> dict:
    return page.evaluate(
        """() => { const n = knowloopGraph.network, ids = n.body.nodeIndices;
        return {nodes: n.body.data.nodes.length, scale: n.getScale(),
                font: n.body.nodes[ids[0]].options.font.size}; }"""
    )


def node_on_screen(page, node: str) -> tuple[float, float]:
    """Centre the view on `node` and return its page coordinates."""
    return tuple(
        page.evaluate(
            """(id) => { const n = knowloopGraph.network;
            const p = n.getPositions([id])[id];
            n.moveTo({position: p, scale: n.getScale()});
            const d = n.canvasToDOM(p);
            const r = document.getElementById('mynetwork').getBoundingClientRect();
            return [r.left + d.x, r.top + d.y]; }""",
            node,
        )
    )


@pytest.mark.slow  # chromium
@pytest.mark.parametrize("width", [400, 900])
@pytest.mark.parametrize("n", SIZES)
def test_chromium_draws_the_graph_legibly(browser, n: int, width: int) -> None:
    errors: list[str] = []
    view = trace_graph(*sample_run(n))
    page = open_graph(browser, view, errors, viewport=(width, 600))
    try:
        s = state(page)
        assert s["nodes"] == len(view.nodes)
        # the first view: labels at least 12 screen pixels (zoomed no further out than that)
        assert s["scale"] >= START_SCALE - 1e-6 and s["font"] * s["scale"] >= MIN_FONT_PX - 0.01
        box = page.locator("#mynetwork canvas").bounding_box()
        assert box["width"] >= width - 10 and box["height"] >= 500  # full width, tall frame
        assert errors == []
    finally:
        page.close()


@pytest.mark.slow  # chromium
@pytest.mark.parametrize("n", [30, 100])
def test_clicking_more_unfolds_and_folds_back(browser, n: int) -> None:
    errors: list[str] = []
    view = trace_graph(*sample_run(n))
    page = open_graph(browser, view, errors)
    try:
        more = next(iter(view.hidden))
        before = state(page)["nodes"]
        page.mouse.click(*node_on_screen(page, more))
        page.wait_for_timeout(400)
        assert state(page)["nodes"] == before + len(view.hidden[more])
        label = page.evaluate(f"knowloopGraph.network.body.data.nodes.get({more!r}).label")
        assert label.startswith("− fold")
        page.mouse.click(*node_on_screen(page, more))
        page.wait_for_timeout(400)
        assert state(page)["nodes"] == before
        assert errors == []
    finally:
        page.close()


@pytest.mark.slow  # chromium
def test_plain_wheel_scrolls_ctrl_wheel_zooms(browser) -> None:
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 700, "height": 600})
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:  # as on the Ask page: the graph in a frame, the page longer than the window
        page.set_content(framed(graph_html(trace_graph(*sample_run(100)), height=500), 600, 500))
        frame = page.frame_locator("#graph")
        frame.locator("#mynetwork canvas").wait_for()
        graph = next(f for f in page.frames if f != page.main_frame)
        graph.wait_for_function("window.knowloopGraph !== undefined")
        scale = graph.evaluate("knowloopGraph.network.getScale()")
        page.mouse.move(300, 250)
        page.mouse.wheel(0, 200)
        page.wait_for_timeout(300)
        assert graph.evaluate("knowloopGraph.network.getScale()") == scale
        assert page.evaluate("window.scrollY") > 0, "a plain wheel scrolls the page"
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(100)
        page.keyboard.down("Control")
        page.mouse.wheel(0, 200)
        page.keyboard.up("Control")
        page.wait_for_timeout(300)
        zoomed = graph.evaluate("knowloopGraph.network.getScale()")
        assert zoomed < scale and page.evaluate("window.scrollY") == 0
        font = graph.evaluate(
            "(() => { const n = knowloopGraph.network; return n.body.nodes["
            "n.body.nodeIndices[0]].options.font.size; })()"
        )
        assert font > FONT_PX and font * max(zoomed, FLOOR_SCALE) >= MIN_FONT_PX - 0.01
        assert errors == []
    finally:
        page.close()


@pytest.mark.slow  # chromium
def test_full_screen_and_its_new_tab_fallback(browser) -> None:
    errors: list[str] = []
    view = trace_graph(*sample_run(30))
    page = open_graph(browser, view, errors)
    try:
        page.locator("#kl-full").click()
        page.wait_for_function("document.fullscreenElement !== null")
        assert page.locator("#kl-full").inner_text().endswith("Exit full screen")
        page.locator("#kl-full").click()
        page.wait_for_function("document.fullscreenElement === null")
        # a frame that may not go full screen: the button opens the graph in a new tab
        page.set_content(
            "<iframe allow=\"fullscreen 'none'\" style='width:600px;height:500px' srcdoc=\""
            + html.escape(graph_html(view, height=500), quote=True) + '"></iframe>'
        )  # fmt: skip
        page.frame_locator("iframe").locator("#mynetwork canvas").wait_for()
        with page.context.expect_page() as opened:
            page.frame_locator("iframe").locator("#kl-full").click()
        tab = opened.value
        tab.locator("#mynetwork canvas").wait_for()
        assert tab.evaluate("knowloopGraph.network.body.data.nodes.length") == len(view.nodes)
        tab.close()
        assert errors == []
    finally:
        page.close()
