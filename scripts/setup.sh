#!/usr/bin/env bash
# Create .venv and install KnowLoop with its pinned dependencies (idempotent: re-runs only
# when pyproject.toml changed). Everything the app and the tests need comes from here.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' \
    || { echo "KnowLoop needs Python >= 3.11 (found: $("$PYTHON" --version))" >&2; exit 1; }
  "$PYTHON" -m venv .venv
fi
stamp=.venv/.knowloop-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[test]"
  echo "$want" > "$stamp"
fi
# With --with-browser (the test command): the browser test (tests/test_browser.py) drives
# Debian's chromium through Playwright; the browsers `playwright install` would download cannot
# be fetched here, so it is never run. The emoji font makes the page's 👍/👎 render.
if [ "${1:-}" = "--with-browser" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-color-emoji
  else
    echo "note: the browser test needs Debian's chromium at /usr/bin/chromium and is skipped" \
      "without it; install it as root with:" >&2
    echo "  apt-get update && apt-get install -y chromium fonts-noto-color-emoji" >&2
  fi
fi
