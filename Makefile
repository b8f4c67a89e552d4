# The two commands of the README: `make run` (the app on the bundled KB, offline, no API key)
# and `make test` (the whole test suite). Both install what they need first.
PORT ?= 8501

.PHONY: setup run test test-fast lint bench

setup:
	@scripts/setup.sh

run: setup
	.venv/bin/streamlit run streamlit_app.py --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

test:
	@scripts/setup.sh --with-browser
	.venv/bin/ruff check core pages tests benchmarks streamlit_app.py
	.venv/bin/pytest

# The fast loop while developing: everything but the tests marked slow (accuracy, local model,
# browser, concurrency, time limits), in about 70 s here; it fails if it leaves a module of
# core/ or pages/ untested. `make test` still runs everything.
test-fast: setup
	.venv/bin/pytest -m "not slow"

lint: setup
	.venv/bin/ruff check core pages tests benchmarks streamlit_app.py

bench: setup
	.venv/bin/python benchmarks/bench_startup.py
	.venv/bin/python benchmarks/bench_kg_only.py
