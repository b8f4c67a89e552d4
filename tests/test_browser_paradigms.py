"""Every paradigm on the Ask page, to the end, in a real browser (the bundled local model for
the LLM ones): the steps stream, the run finishes with a status, and the page shows no failure.
Screenshots go to test-artifacts/paradigm-<name>.png.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.browser_util import REPO, launch_chromium, playwright_or_skip, streamlit_app, wait_idle

sync_api = playwright_or_skip()
expect = sync_api.expect

ARTIFACTS = REPO / "test-artifacts"
RUN_TIMEOUT_MS = 240_000  # the local model on two cores
QUESTION = "who directed Black Snake Moan"
PARADIGMS = ("kg-only", "llm-only", "llm+kg", "llmxkg", "cok")


@pytest.fixture
def home(metaqa_home: Path, tmp_path: Path) -> Path:
    home = tmp_path / "paradigms-home"
    shutil.copytree(metaqa_home, home, ignore=shutil.ignore_patterns("LOCK", "*.lock"))
    return home


def test_every_paradigm_runs_to_the_end_on_the_ask_page(home: Path) -> None:
    with streamlit_app(home, ARTIFACTS / "paradigms-streamlit.log") as base, \
            sync_api.sync_playwright() as p:  # fmt: skip
        browser = launch_chromium(p)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 2000})
            page.set_default_timeout(60_000)
            page.goto(base)
            expect(page.get_by_role("heading", name="Ask")).to_be_visible()
            wait_idle(page, 60_000)
            for name in PARADIGMS:
                run_one(page, name)
        finally:
            browser.close()


def run_one(page, name: str) -> None:
    page.get_by_label("Question").fill(QUESTION)
    page.get_by_role("combobox", name="Paradigm").click()
    page.get_by_role("option", name=name, exact=True).click()
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_text("Step 1 — ").first).to_be_visible(timeout=RUN_TIMEOUT_MS)
    wait_idle(page, RUN_TIMEOUT_MS)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"paradigm-{name.replace('+', 'plus')}.png"),
                    full_page=True)  # fmt: skip
    body = page.locator("body").inner_text()
    assert "The run failed" not in body and "Cannot answer" not in body, (name, body[-2000:])
    assert re.search(r"Answered in \d+ step|No answer", body), (name, body[-2000:])
    assert "Traceback" not in body, name
