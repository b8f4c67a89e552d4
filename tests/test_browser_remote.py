"""A remote KB in the app, in a real browser: the bundled KB served by a real Oxigraph server,
registered with `connect`, picked by URL; every paradigm runs to the end on the Ask page and
each KG step lists the SPARQL requests it sent; the KG editor says the KB is read-only.
Screenshots: test-artifacts/remote-<paradigm>.png, test-artifacts/remote-editor.png."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.kg.importer import kb_base_iri
from core.workspace import Workspace
from tests import sparql_servers as servers
from tests.browser_util import REPO, launch_chromium, playwright_or_skip, streamlit_app, wait_idle
from tests.test_browser_paradigms import PARADIGMS, run_one
from tests.test_remote_kb import require

pytestmark = pytest.mark.slow

sync_api = playwright_or_skip()
expect = sync_api.expect
ARTIFACTS = REPO / "test-artifacts"


def test_every_paradigm_on_a_remote_kb_and_the_editor_refuses(
    metaqa_home: Path, tmp_path: Path
) -> None:
    require(servers.oxigraph_binary(), "the Oxigraph server")
    home = tmp_path / "remote-home"
    shutil.copytree(metaqa_home, home, ignore=shutil.ignore_patterns("LOCK", "*.lock"))
    served = servers.export_ntriples(
        metaqa_home / "kbs" / "metaqa" / "store", tmp_path / "movies.nt", kb_base_iri("metaqa")
    )
    with servers.oxigraph_server(served, tmp_path) as url:
        with streamlit_app(home, ARTIFACTS / "remote-streamlit.log") as base, \
                sync_api.sync_playwright() as p:  # fmt: skip
            browser = launch_chromium(p)
            try:
                page = browser.new_page(viewport={"width": 1500, "height": 2000})
                page.set_default_timeout(60_000)
                connect_on_the_data_page(page, base, url)
                assert "movies-remote" in Workspace(home).kb_names()
                page.goto(f"{base}/?kb=movies-remote")
                expect(page.get_by_role("heading", name="Ask")).to_be_visible()
                wait_idle(page, 60_000)
                for name in PARADIGMS:
                    run_one(page, name)
                    body = page.locator("body").inner_text()
                    if name != "llm-only":  # the LLM alone asks no knowledge graph
                        assert "SPARQL request" in body and url in body, (name, body[-1500:])
                    shot = name.replace("+", "plus")
                    page.screenshot(path=str(ARTIFACTS / f"remote-{shot}.png"), full_page=True)
                page.goto(f"{base}/kg_editor?kb=movies-remote")
                expect(page.get_by_text("is a remote SPARQL endpoint, read-only")).to_be_visible()
                page.screenshot(path=str(ARTIFACTS / "remote-editor.png"), full_page=True)
            finally:
                browser.close()


def connect_on_the_data_page(page, base: str, url: str) -> None:
    """Data page → "SPARQL endpoint": a dead URL is refused with its reason, nothing added;
    the server's URL connects and the KB is listed."""
    page.goto(f"{base}/data")
    expect(page.get_by_role("heading", name="Data")).to_be_visible()
    wait_idle(page, 60_000)
    page.get_by_role("tab", name="SPARQL endpoint").click()
    type_in(page, "Name", "movies-remote")
    type_in(page, "SPARQL endpoint URL", "http://127.0.0.1:9/sparql")
    page.get_by_role("button", name="Connect", exact=True).click()
    expect(page.get_by_text("Nothing connected: cannot reach")).to_be_visible()
    type_in(page, "SPARQL endpoint URL", url)
    page.get_by_role("button", name="Connect", exact=True).click()
    expect(page.get_by_text("Connected “movies-remote”")).to_be_visible(timeout=120_000)
    wait_idle(page, 60_000)
    page.screenshot(path=str(ARTIFACTS / "remote-connect.png"), full_page=True)


def type_in(page, label: str, text: str) -> None:
    """Fill a text box and commit it (Streamlit reads a text input on Enter or blur)."""
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press("Enter")
    wait_idle(page, 30_000)
