"""Screenshots of the reasoning graph at 5, 30 and 100 nodes and of the HTML report's reward
chart, to judge by eye that labels read and nothing is clipped (issue 12).

    .venv/bin/python benchmarks/screenshot_graph.py [--width 560] [--height 560]

Writes benchmarks/results/graph_{5,30,100}.png (the graph in a frame the size of the Ask
page's, default 560 x 560), graph_100_open.png (a folded column unfolded), graph_100_full.png
(the whole window, as full screen shows it), report_chart.png and report_graph.png (the
report's reward chart and graph). Needs Debian's chromium (scripts/setup.sh --with-browser)
and playwright (pip install -e '.[test]'). Not a test: tests/test_graph_view.py checks the
same pages in chromium.

`sample_run(n)` builds the synthetic runs; the tests use it too.
"""

from __future__ import annotations

import argparse
import html
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.trace import Action, Answer, Step, Trace, Triple  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
SIZES = (5, 30, 100)
_WORDS = (
    "Silent", "Crimson", "Northern", "Last", "Hidden", "Electric", "Broken", "Golden", "Winter",
    "Distant", "Midnight", "Paper",
)  # fmt: skip
_NOUNS = (
    "Harbour", "Garden", "Letters", "Empire", "Horizon", "Machine", "River", "Orchestra",
    "Lantern", "Frontier", "Station",
)  # fmt: skip


def _film(i: int) -> str:
    name = f"The {_WORDS[i % len(_WORDS)]} {_NOUNS[(i // 3) % len(_NOUNS)]}"
    if i % 4 == 1:  # some titles are long, as in MetaQA
        name += f" and the Return of the {_NOUNS[i % len(_NOUNS)]} Part {i % 7 + 2}"
    return f"{name} ({1960 + i % 60})"


def _person(i: int) -> str:
    first = ("Ava", "Noah", "Maximilian", "Li", "Olufemi", "Søren", "Isabella", "Kenji")
    last = ("Okonkwo", "Hernández", "Van der Berg", "Kowalczyk", "Nakamura-Smith", "Dubois")
    return f"{first[i % len(first)]} {last[(i // 2) % len(last)]}"


def _iri(kind: str, i: int) -> str:
    return f"<http://knowloop.example/{kind}/{i}>"


def sample_run(n: int) -> tuple[list[Step], list[Answer], dict[str, str]]:
    """A two-hop run drawing `n` nodes (n >= 3): a topic person, the films step 1 reached
    (about 60 %), the people step 2 reached from them; the top answer's evidence runs through
    the last film, so at 30 and 100 nodes it sits in a folded part of its column."""
    films = max(1, round((n - 1) * 0.6))
    people = max(1, n - 1 - films)
    topic = Triple(_iri("person", 0), "", "", "Christopher Edward Nolan", "", "")
    hop1 = [
        Triple(topic.s, "urn:p:directed", _iri("film", i), topic.s_label, "directed",
               _film(i))
        for i in range(films)
    ]  # fmt: skip
    hop2 = [
        Triple(hop1[(films - 1 - j) % films].o, "urn:p:starred_actors", _iri("person", j + 1),
               hop1[(films - 1 - j) % films].o_label, "starred_actors", _person(j + 1))
        for j in range(people)
    ]  # fmt: skip
    steps = [
        Step(1, Action("hop", "films directed by the topic entity",
                       params={"anchor": topic.s}), hop1, reward=0.55, reward_reason="related",
             candidates=films),
        Step(2, Action("hop", "actors of those films", params={"anchors": [topic.s]}), hop2,
             reward=0.86, reward_reason="answers the question", candidates=people),
    ]  # fmt: skip
    answers = [
        Answer(t.o, t.o_label, 0.9 - 0.1 * k, evidence=[hop1[films - 1], t] if k == 0 else [t])
        for k, t in enumerate(hop2[:3])
    ]
    return steps, answers, {topic.s: topic.s_label}


def sample_trace(n: int) -> Trace:
    steps, answers, _ = sample_run(n)
    steps.append(Step(3, Action("answer", "answer with the top candidates")))
    question = "which actors starred in films directed by Christopher Nolan"
    return Trace(question, "kg-only", "metaqa", {"threshold": 0.8}, steps, answers,
                 n_answers=len(answers), stop_reason="the reward passed the threshold",
                 duration_ms=42.0)  # fmt: skip


def framed(page_html: str, width: int, height: int) -> str:
    """The graph page in an iframe of the given size, like st.iframe on the Ask page."""
    return (
        "<!doctype html><html><body style='margin:16px;font-family:sans-serif'>"
        f"<iframe id='graph' style='width:{width}px;height:{height}px;border:0' "
        f'srcdoc="{html.escape(page_html, quote=True)}"></iframe>'
        "<p style='height:1500px'>(the page below the graph)</p></body></html>"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=560, help="frame width (Ask page column)")
    parser.add_argument("--height", type=int, default=560, help="frame height (GRAPH_HEIGHT)")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from core.graph_view import graph_html, trace_graph
    from core.report import report_html
    from tests.browser_util import launch_chromium

    args.out.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch_chromium(p)
        try:
            page = browser.new_page(viewport={"width": args.width + 32, "height": args.height + 32})
            page.on("pageerror", lambda e: errors.append(str(e)))
            for n in SIZES:
                view = trace_graph(*sample_run(n))
                page.set_content(framed(graph_html(view, height=args.height), args.width,
                                        args.height))  # fmt: skip
                frame = page.frame_locator("#graph")
                frame.locator("canvas").wait_for()
                page.wait_for_timeout(400)
                page.locator("#graph").screenshot(path=str(args.out / f"graph_{n}.png"))
                print(f"graph_{n}.png: {len(view.nodes)} nodes drawn, "
                      f"{sum(map(len, view.hidden.values()))} folded")  # fmt: skip
                if n == max(SIZES):
                    more = next(iter(view.hidden))
                    page.frames[1].evaluate(f"knowloopGraph.toggle({more!r})")
                    page.wait_for_timeout(600)
                    page.locator("#graph").screenshot(path=str(args.out / f"graph_{n}_open.png"))
            full = browser.new_page(viewport={"width": 1400, "height": 900})
            full.on("pageerror", lambda e: errors.append(str(e)))
            full.set_content(graph_html(trace_graph(*sample_run(100)), height=args.height))
            full.locator("canvas").wait_for()
            full.wait_for_timeout(400)
            full.screenshot(path=str(args.out / "graph_100_full.png"))

            report = Path(tmp) / "report.html"
            report.write_text(report_html(sample_trace(30)), encoding="utf-8")
            rpage = browser.new_page(viewport={"width": 1200, "height": 900})
            rpage.on("pageerror", lambda e: errors.append(str(e)))
            rpage.goto(report.as_uri())
            chart = rpage.locator(".plotly-graph-div").first
            chart.wait_for()
            rpage.wait_for_timeout(400)
            chart.screenshot(path=str(args.out / "report_chart.png"))
            rpage.frame_locator("iframe").first.locator("canvas").wait_for()
            rpage.wait_for_timeout(400)
            rpage.locator("iframe").first.screenshot(path=str(args.out / "report_graph.png"))
        finally:
            browser.close()
    for name in ("graph_5", "graph_30", "graph_100", "report_chart"):
        print(args.out / f"{name}.png")
    if errors:
        print("JS errors:", *errors, sep="\n  ")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
