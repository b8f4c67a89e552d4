"""The dashboard in a real browser: ask and watch the steps, the graph (pyvis, in an iframe)
and the answer arrive; export the HTML report and open it offline; compare two paradigms;
open Sources and Settings. Nothing may leave localhost. Timings (page loads, first step after
Run) are measured here and written to test-artifacts/browser-timings.json (README, "Speed").
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from tests.browser_util import (
    REPO,
    external,
    launch_chromium,
    playwright_or_skip,
    streamlit_app,
    wait_idle,
)

pytestmark = pytest.mark.slow  # the fast loop (`pytest -m 'not slow'`) leaves it out


sync_api = playwright_or_skip()
expect = sync_api.expect

ARTIFACTS = REPO / "test-artifacts"
TIMEOUT_MS = 60_000
QUESTION = "who directed Black Snake Moan"


@pytest.fixture
def home(metaqa_home: Path, tmp_path: Path) -> Path:
    home = tmp_path / "dashboard-home"
    shutil.copytree(metaqa_home, home, ignore=shutil.ignore_patterns("LOCK", "*.lock"))
    return home


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"dashboard-{name}.png"), full_page=True)


def test_dashboard_end_to_end(home: Path) -> None:
    requests: list[str] = []
    timings: dict[str, float] = {}
    with streamlit_app(home, ARTIFACTS / "dashboard-streamlit.log") as base, \
            sync_api.sync_playwright() as p:  # fmt: skip
        browser = launch_chromium(p)
        try:
            context = browser.new_context(viewport={"width": 1500, "height": 2200},
                                          accept_downloads=True)  # fmt: skip
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            expect.set_options(timeout=TIMEOUT_MS)
            context.on("request", lambda r: requests.append(r.url))
            page.on("websocket", lambda ws: requests.append(ws.url))
            try:
                ask_and_watch(page, base, timings)
                open_report(page, context, timings)
                compare_two(page, base)
                other_pages(page, base, timings)
            except Exception:
                shot(page, "failure")
                raise
        finally:
            browser.close()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "browser-timings.json").write_text(json.dumps(timings, indent=2))
    assert external([u for u in requests if not u.startswith("file:")]) == [], external(requests)
    # smoke bounds only (the figures themselves are reported, not asserted to the millisecond)
    assert timings["first_step_s"] < 5 and timings["warm_page_load_s"] < 10, timings


def ask_and_watch(page, base: str, timings: dict) -> None:
    t0 = time.perf_counter()
    page.goto(base)
    expect(page.get_by_role("heading", name="Ask")).to_be_visible()
    wait_idle(page, TIMEOUT_MS)
    timings["first_page_load_s"] = round(time.perf_counter() - t0, 3)
    t0 = time.perf_counter()
    page.reload()
    expect(page.get_by_role("heading", name="Ask")).to_be_visible()
    wait_idle(page, TIMEOUT_MS)
    timings["warm_page_load_s"] = round(time.perf_counter() - t0, 3)

    page.get_by_label("Question").fill(QUESTION)
    t0 = time.perf_counter()
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_text("Step 1 — ").first).to_be_visible()
    timings["first_step_s"] = round(time.perf_counter() - t0, 3)
    answer = page.locator(".st-key-answer_card")  # the answer card, above the steps
    expect(answer).to_contain_text("Craig Brewer")
    timings["answer_s"] = round(time.perf_counter() - t0, 3)
    expect(page.get_by_text(re.compile(r"Answered in \d+ step"))).to_be_visible()
    wait_idle(page, TIMEOUT_MS)
    graph = graph_frame(page)
    assert graph.evaluate("nodes.length") >= 2  # the subgraph, drawn by vis-network
    assert graph.evaluate("edges.length") >= 1
    expect(page.locator(".js-plotly-plot").first).to_be_visible()  # the reward chart
    page.wait_for_timeout(500)
    shot(page, "1-ask")


def graph_frame(page):
    for frame in page.frames:
        try:
            if frame.evaluate("typeof nodes !== 'undefined' && typeof vis !== 'undefined'"):
                return frame
        except Exception:  # noqa: BLE001 — frames that are not ours
            continue
    raise AssertionError("no pyvis graph frame on the page")


def open_report(page, context, timings: dict) -> None:
    with page.expect_download() as download:
        page.get_by_role("button", name="Download report (HTML)").click()
    path = ARTIFACTS / "dashboard-report.html"
    ARTIFACTS.mkdir(exist_ok=True)
    download.value.save_as(path)
    report = context.new_page()
    report.goto(path.as_uri())
    expect(report.get_by_role("heading", name=QUESTION)).to_be_visible()
    expect(report.get_by_text("Craig Brewer").first).to_be_visible()
    expect(report.locator(".js-plotly-plot").first).to_be_visible()
    frame = report.frame_locator("iframe").first
    expect(frame.locator("canvas")).to_be_visible()
    report.wait_for_timeout(500)
    shot(report, "2-report")
    timings["report_mb"] = round(path.stat().st_size / 2**20, 2)
    report.close()


def compare_two(page, base: str) -> None:
    page.get_by_role("link", name="Compare").click()
    expect(page.get_by_role("heading", name="Compare")).to_be_visible()
    page.get_by_label("Question").fill(QUESTION)
    page.get_by_role("textbox", name="Gold answer(s), optional").fill("Craig Brewer")
    page.get_by_role("button", name="Compare", exact=True).click()
    wait_idle(page, 180_000)
    expect(page.get_by_text("✅ correct").first).to_be_visible()
    expect(page.get_by_role("heading", name="kg-only")).to_be_visible()
    expect(page.get_by_role("heading", name="llmxkg")).to_be_visible()
    # tokens and engine time; the cost chart is left out (0 for both paradigms), and said so
    expect(page.locator(".js-plotly-plot")).to_have_count(2)
    expect(page.get_by_text("Not charted (0 for every paradigm): Cost (USD)")).to_be_visible()
    shot(page, "3-compare")


def other_pages(page, base: str, timings: dict) -> None:
    for name in ("Sources", "Settings"):
        t0 = time.perf_counter()
        page.get_by_role("link", name=name).click()
        expect(page.get_by_role("heading", name=name)).to_be_visible()
        wait_idle(page, TIMEOUT_MS)
        timings[f"{name.lower()}_page_s"] = round(time.perf_counter() - t0, 3)
        shot(page, f"4-{name.lower()}")


def test_closing_the_tab_stops_its_query(home: Path) -> None:
    """A runaway query in Sources → SPARQL, then the tab is closed: the query worker is
    stopped within about a second, not at the console's 10 s limit (it once kept a server
    thread busy > 60 s after the browser closed)."""
    product = "SELECT (COUNT(*) AS ?n) WHERE { { ?a ?b ?c } { ?x ?y ?z } }"
    with streamlit_app(home, ARTIFACTS / "close-tab-streamlit.log") as base, \
            sync_api.sync_playwright() as p:  # fmt: skip
        browser = launch_chromium(p)
        try:
            context = browser.new_context(viewport={"width": 1400, "height": 1600})
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(base)
            expect(page.get_by_role("heading", name="Ask")).to_be_visible(timeout=TIMEOUT_MS)
            page.get_by_role("link", name="Sources").click()
            expect(page.get_by_role("heading", name="Sources")).to_be_visible(timeout=TIMEOUT_MS)
            wait_idle(page, TIMEOUT_MS)
            page.get_by_role("tab", name="SPARQL").click()
            page.get_by_label("SPARQL query").fill(product)
            page.get_by_role("button", name="Run").click()
            busy = _busy_worker(home)
            context.close()  # the tab goes away; the server keeps running
            t0 = time.monotonic()
            while _alive(busy) and time.monotonic() - t0 < 8:
                time.sleep(0.05)
            gone_after = time.monotonic() - t0
        finally:
            browser.close()
    assert gone_after < 3, f"the query worker ran {gone_after:.1f} s after the tab closed"


def _busy_worker(home: Path) -> int:
    """The query worker of this app that is burning CPU (waits until the query starts)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                cmdline = (proc / "cmdline").read_bytes()
                environ = (proc / "environ").read_bytes()
                stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            mine = f"KNOWLOOP_HOME={home}".encode() in environ.split(b"\0")
            if b"core.worker" in cmdline and mine and stat[0] == "R" and int(stat[11]) > 20:
                return int(proc.name)  # running, with > 0.2 s of CPU: the query
        time.sleep(0.1)
    raise AssertionError("no busy query worker appeared")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
