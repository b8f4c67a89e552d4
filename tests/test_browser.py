"""End to end in a real browser: an analyst finds a wrong answer, sends 👎 feedback with a fix,
accepts it in the KG editor and sees the corrected answer when the question is asked again.

Drives Debian's chromium (/usr/bin/chromium, installed by scripts/setup.sh) through
Playwright against `streamlit run`; screenshots of each stage go to test-artifacts/.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from core.workspace import Workspace
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
QUESTION = "who directed Black Snake Moan"
WRONG = "Black Snake Moan|directed by|Wrong Person"
RIGHT = "Black Snake Moan|directed by|Craig Brewer"
TIMEOUT_MS = 30_000


@pytest.fixture
def planted_home(metaqa_home: Path, tmp_path: Path) -> Path:
    """A copy of the session's bundled-KB workspace with one wrong fact planted."""
    home = tmp_path / "browser-home"
    shutil.copytree(metaqa_home, home, ignore=shutil.ignore_patterns("LOCK", "*.lock"))
    Workspace(home).editor().edit(add=[WRONG], remove=[RIGHT], why="planted", who="test")
    return home


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_feedback_fix_accept_and_reask_in_a_browser(planted_home: Path) -> None:
    requests: list[str] = []
    log = ARTIFACTS / "browser-streamlit.log"
    with streamlit_app(planted_home, log) as base, sync_api.sync_playwright() as p:
        browser = launch_chromium(p)
        try:
            # tall: Streamlit scrolls inside its main block, so a screenshot shows the viewport
            page = browser.new_page(viewport={"width": 1400, "height": 2400})
            page.set_default_timeout(TIMEOUT_MS)
            expect.set_options(timeout=TIMEOUT_MS)
            page.on("request", lambda r: requests.append(r.url))
            page.on("websocket", lambda ws: requests.append(ws.url))
            try:
                run_scenario(page, base)
            except Exception:
                shot(page, "failure")
                raise
        finally:
            browser.close()
    assert requests, "no request was seen"
    assert external(requests) == [], f"requests left localhost: {external(requests)[:5]}"


def run_scenario(page, base: str) -> None:
    # 1. Ask: the planted fact gives a wrong answer; the steps show why.
    page.goto(base)
    expect(page.get_by_role("heading", name="Ask")).to_be_visible()
    page.get_by_label("Question").fill(QUESTION)
    page.get_by_role("button", name="Run", exact=True).click()
    answer = page.locator(".st-key-answer_card")  # the answer card, above the steps
    expect(answer).to_contain_text("Wrong Person")
    expect(page.get_by_text("Step 1 — ").first).to_be_visible()
    expect(page.get_by_text(re.compile(r"Answered in \d+ step"))).to_be_visible()
    expect(page.get_by_role("button", name="Submit feedback")).to_be_visible()
    wait_idle(page)
    shot(page, "1-ask-wrong-answer")

    # 2. Feedback: 👎, a comment, the wrong evidence triple marked, the fix proposed.
    feedback = page.locator(".st-key-feedback")
    feedback.get_by_text("👎 bad").click()
    wait_idle(page)
    comment = feedback.get_by_label("Comment")
    comment.fill("Black Snake Moan was directed by Craig Brewer")
    comment.blur()
    wait_idle(page)
    feedback.get_by_test_id("stMultiSelect").click()
    page.get_by_role("option", name=re.compile("Wrong Person")).click()
    page.keyboard.press("Escape")
    wait_idle(page)
    expect(feedback.get_by_label("Triples to remove")).to_have_value(WRONG)
    add = feedback.get_by_label("Triples to add")
    add.fill(RIGHT)
    add.blur()
    wait_idle(page)
    feedback.get_by_role("button", name="Submit feedback").click()
    expect(feedback.get_by_text("proposal #1 waits in the KG editor")).to_be_visible()
    wait_idle(page)
    shot(page, "2-feedback-sent")

    # 3. KG editor: the proposal waits with its question, comment and diff; accept it.
    feedback.get_by_role("link", name="Open the KG editor").click()
    expect(page.get_by_role("heading", name="KG editor")).to_be_visible()
    wait_idle(page)
    page.get_by_role("tab", name="Fix proposals").click()
    wait_idle(page)
    proposal = page.locator(".st-key-kge_proposal_1")
    expect(proposal).to_contain_text(QUESTION)
    expect(proposal).to_contain_text("Craig Brewer")
    expect(proposal).to_contain_text("- Black Snake Moan —directed by→ Wrong Person")
    name = page.get_by_role("textbox", name="Your name")
    name.fill("reviewer")
    name.blur()
    wait_idle(page)
    shot(page, "3-proposal-queue")
    proposal.get_by_role("button", name="Accept").click()
    panel = page.locator(".st-key-kge_last_panel")
    expect(panel).to_contain_text("Accepted proposal #1 as #2")
    expect(panel).to_contain_text(QUESTION)

    # 4. Re-ask: before/after side by side, the corrected answer marked as changed.
    panel.get_by_role("button", name="Re-ask").click()
    expect(panel).to_contain_text("changed", timeout=60_000)
    after = panel.get_by_test_id("stAlert").filter(has_text="Craig Brewer")
    expect(after).to_be_visible()
    expect(panel.get_by_test_id("stAlert").filter(has_text="Wrong Person")).to_be_visible()
    wait_idle(page)
    shot(page, "4-reask-before-after")

    # 5. Entity: the neighbourhood graph (pyvis, offline) and the editable triples.
    page.get_by_role("tab", name="Entity").click()
    wait_idle(page)
    search = page.get_by_role("textbox", name="Find an entity")
    search.fill("Black Snake Moan")
    search.press("Enter")
    wait_idle(page)
    expect(page.get_by_role("heading", name="Black Snake Moan")).to_be_visible()
    graph = page.frame_locator("iframe").first
    expect(graph.locator("canvas")).to_be_visible()
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible()
    page.wait_for_timeout(2500)  # let the physics layout settle for the screenshot
    shot(page, "5-entity-graph-and-table")

    # 6. History: the planted edit and the accepted fix, with undo/redo and downloads.
    page.get_by_role("tab", name="History").click()
    wait_idle(page)
    expect(page.get_by_role("button", name="Undo #2")).to_be_enabled()
    shot(page, "6-history")
    with page.expect_download() as download:
        page.get_by_role("button", name="KG as N-Triples").click()
    assert download.value.suggested_filename == "metaqa-v2.nt"
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    directed = [
        line for line in lines if "Black%20Snake%20Moan> <" in line and "directed_by" in line
    ]
    assert len(directed) == 1 and "/Craig%20Brewer> ." in directed[0]
