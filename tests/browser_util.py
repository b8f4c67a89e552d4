"""Helpers for the real-browser test: start the app on a free port, launch Debian's chromium
through Playwright, wait for Streamlit to settle, and watch that nothing leaves localhost.

Playwright's own browser downloads are never used (they cannot be fetched here): setup.sh
installs Debian's `chromium` and the test drives /usr/bin/chromium.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.processes import free_port, stop

CHROMIUM = Path("/usr/bin/chromium")


def playwright_or_skip():
    """Playwright's sync API for a browser test module; the module is skipped where chromium
    is missing, except on CI, where `make test` installs it and the test must never vanish."""
    import pytest

    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            raise RuntimeError(f"{CHROMIUM} is missing on CI: setup.sh --with-browser failed")
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (scripts/setup.sh does, "
                    "as root)", allow_module_level=True)  # fmt: skip
    return pytest.importorskip("playwright.sync_api", reason="pip install -e '.[test]'")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LOCAL_PREFIXES = (
    "http://localhost",
    "http://127.0.0.1",
    "ws://localhost",
    "ws://127.0.0.1",
    "data:",
    "blob:",
    "about:",
)
REPO = Path(__file__).resolve().parents[1]


def streamlit_command(port: int) -> list[str]:
    """`streamlit run streamlit_app.py` on 127.0.0.1:port, headless, no file watcher."""
    return [
        sys.executable, "-m", "streamlit", "run", str(REPO / "streamlit_app.py"),
        "--server.headless", "true", "--server.port", str(port),
        "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip


@contextmanager
def streamlit_app(home: Path, log_path: Path, timeout_s: float = 60) -> Iterator[str]:
    """Run `streamlit run streamlit_app.py` on a free port with KNOWLOOP_HOME=home; yields
    the base URL once /_stcore/health answers, and stops the server afterwards."""
    port = free_port()
    env = {**os.environ, "KNOWLOOP_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    env.pop("KNOWLOOP_NO_WARM_UP", None)  # the real app warms its LLM stack up
    cmd = streamlit_command(port)
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_healthy(base, proc, timeout_s, log_path)
            yield base
        finally:
            stop(proc)


def wait_healthy(base: str, proc: subprocess.Popen, timeout_s: float, log_path: Path) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited ({proc.returncode}):\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"streamlit did not become healthy in {timeout_s}s:\n{log_path.read_text()}")


def launch_chromium(playwright):
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
    )


def wait_idle(page, timeout_ms: float = 30_000) -> None:
    """Let a rerun start, then wait until the script is no longer running."""
    page.wait_for_timeout(300)
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout_ms
    )


def external(urls: list[str]) -> list[str]:
    """The URLs that left this machine."""
    return [u for u in urls if not u.startswith(LOCAL_PREFIXES)]
