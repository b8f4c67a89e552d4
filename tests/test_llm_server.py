"""The API-model path for real: an OpenAI-compatible server on 127.0.0.1 (llama-cpp-python's
`server` extra serving the bundled model, as vLLM, llama.cpp or Ollama would serve a bigger
one), reached through litellm as `openai/<alias>` with an API base and no key."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from core.engine import Engine
from core.llm.client import LLM, LLMSettings
from core.llm.local import model_path
from core.loop import LoopSettings
from tests.processes import free_port, stop

ALIAS = "knowloop-server-gemma"


@pytest.fixture(scope="module")
def llm_server(tmp_path_factory) -> str:
    """Start the server, wait until it lists the model, hand out its API base."""
    pytest.importorskip("fastapi", reason="llama-cpp-python's server extra is not installed")
    port = free_port()
    log = Path(tmp_path_factory.mktemp("llm-server")) / "server.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model_path()),
             "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(port),
             "--n_ctx", "2048", "--chat_format", "gemma"],
            stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/models", timeout=2) as r:
                    if ALIAS in r.read().decode():
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the LLM server did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.3)
        yield base
    finally:
        stop(proc)
    assert "POST /v1/chat/completions" in log.read_text()  # the calls reached this server


def test_keyless_servers_get_a_placeholder_key_and_real_keys_win(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    at_base = LLMSettings(model="openai/m", api_base="http://127.0.0.1:1/v1")
    assert LLM(at_base)._keyless_api_key() == "no-key"
    assert LLM(LLMSettings(model="openai/m"))._keyless_api_key() is None  # the provider's API
    monkeypatch.setenv("OPENAI_API_KEY", "sk-user")
    assert LLM(at_base)._keyless_api_key() is None


@pytest.mark.slow
def test_completion_through_the_server(llm_server: str) -> None:
    ledger = []
    llm = LLM(LLMSettings(model=f"openai/{ALIAS}", api_base=llm_server, retries=0))
    out = llm.complete("The capital of France is", purpose="t", ledger=ledger, max_tokens=8)
    assert out.text.strip()
    (call,) = ledger
    assert call.model == f"openai/{ALIAS}" and call.error is None
    assert call.prompt_tokens > 3 and 0 < call.completion_tokens <= 8 and call.latency_ms > 0


@pytest.mark.slow
def test_llmxkg_runs_through_the_server_with_tokens_and_latency_in_the_ledger(
    llm_server: str, football_engine: Engine
) -> None:
    llm = LLMSettings(model=f"openai/{ALIAS}", api_base=llm_server, retries=0, deadline_s=90)
    trace = football_engine.ask(
        "who coaches the club Mohamed Salah plays for", kb="football", paradigm="llmxkg",
        settings=LoopSettings(llm=llm),
    )  # fmt: skip
    assert trace.error is None and trace.steps
    calls = [c for s in trace.steps for c in s.llm_calls]
    assert calls and all(c.model == f"openai/{ALIAS}" for c in calls)
    # every call reached the server: tokens counted, time measured, no key refused; a base
    # model may still fail to pick an option, which the ledger records and the rules absorb
    assert all(c.prompt_tokens > 0 and c.latency_ms > 0 for c in calls)
    assert not any("credentials" in (c.error or "") for c in calls)
    usage = trace.usage()
    assert usage["prompt_tokens"] == sum(c.prompt_tokens for c in calls) and usage["cost_usd"] == 0
    assert json.dumps(trace.to_dict())  # the same trace the UI, the CLI and export read
