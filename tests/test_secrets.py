"""The secret scrubber (core.secrets) and every boundary it guards: keys of several shapes,
echoed in provider errors raised through real litellm calls (`mock_response`, and a local
server that answers 401 the way OpenAI does), never reach the `--json` output, the CLI's
messages, the stored run (the raw `runs.trace` column), the report or the JSON export.

Every test first shows that the key really was in the raw text, so none passes vacuously.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb
import pytest

from core import app_settings, secrets
from core.cli import format_trace, main
from core.llm.client import LLM, LLMFault, LLMSettings, get_litellm
from core.report import report_html
from core.runs import DB_NAME, RunStore
from core.secrets import REDACTED, register_secret, scrub, scrub_obj
from core.trace import Action, LLMCall, Passage, Step, Trace

FIXTURES = Path(__file__).parent / "fixtures"
MODEL = "openai/gpt-4o-mini"

# keys of several shapes, each under the variable a user would set
KEYS = {
    "OPENAI_API_KEY": "sk-test",  # the key: short, a test key
    "ANTHROPIC_API_KEY": "sk-ant-api03-Qm9vYmFyQmF6MTIzNDU2Nzg5MA",
    "GEMINI_API_KEY": "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    "MYPROVIDER_TOKEN": "zq8Rt2vLm0xYp4Wc",  # no known shape: found only as a configured value
    "CUSTOM_LLM_SECRET": "Tr0ub4dor&3-horse.staple",  # regex metacharacters in the value
}
UNSHAPED = ("MYPROVIDER_TOKEN", "CUSTOM_LLM_SECRET")  # no pattern matches these


@pytest.fixture(autouse=True)
def _isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No key of the developer's shell or secrets files; the working directory is the
    test's own (Streamlit reads `.streamlit/secrets.toml` from it)."""
    for name in (*KEYS, "OPENAI_API_BASE", "KNOWLOOP_MODEL", "KNOWLOOP_API_BASE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    secrets.forget_secrets()
    yield
    secrets.forget_secrets()


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    return KEYS


def provider_error(key: str) -> str:
    return f"Incorrect API key provided: {key}. Find your key at https://example.com/keys."


# -- the scrubber ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(KEYS))
def test_every_configured_key_is_replaced(keys: dict[str, str], name: str) -> None:
    raw = provider_error(keys[name])
    assert keys[name] in raw
    clean = scrub(raw)
    assert keys[name] not in clean
    assert clean == provider_error(REDACTED)


@pytest.mark.parametrize("name", UNSHAPED)
def test_a_key_of_no_known_shape_is_caught_because_it_is_configured(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The patterns miss it; reading the environment (again, after it changed) catches it."""
    raw = f"upstream said: bad credentials {KEYS[name]} (401)"
    assert KEYS[name] in scrub(raw)  # the second net alone lets it through
    monkeypatch.setenv(name, KEYS[name])
    assert KEYS[name] not in scrub(raw)
    monkeypatch.delenv(name)
    assert KEYS[name] in scrub(raw)  # and the cache follows the environment back


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("Incorrect API key provided: sk-test", "sk-test"),
        ("key sk-proj-Ab3dEf6hIj9kLm2nOp5q was revoked", "sk-proj-Ab3dEf6hIj9kLm2nOp5q"),
        ("anthropic: sk-ant-api03-xyzXYZ0123456789", "sk-ant-api03-xyzXYZ0123456789"),
        ("google: AIzaSyA1234567890abcdefghijklmnopqrs", "AIzaSyA1234567890abcdefghijklmnopqrs"),
        (
            "github ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        ),
        (
            "pat github_pat_11ABCDEFG0123456789_abcdefghij",
            "github_pat_11ABCDEFG0123456789_abcdefghij",
        ),
        ("slack xoxb-123456789012-abcdefABCDEF", "xoxb-123456789012-abcdefABCDEF"),
        ("aws AKIAIOSFODNN7EXAMPLE in use", "AKIAIOSFODNN7EXAMPLE"),
        ("hf hf_abcdefghijklmnopqrstuvwxyzAB", "hf_abcdefghijklmnopqrstuvwxyzAB"),
        ("Authorization: Bearer abc.DEF-123_456~xyz", "abc.DEF-123_456~xyz"),
        ("GET /v1?api_key=Zx81mQ0pLr7t&model=m", "Zx81mQ0pLr7t"),
        ('{"token": "tok4Ni8Ql2Wx9"}', "tok4Ni8Ql2Wx9"),
        ("x-api-key: Qr5tY7uI9oP1", "Qr5tY7uI9oP1"),
        ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "eyJhbGciOiJIUzI1NiJ9"),
    ],
)
def test_token_shapes_are_caught_without_configuration(text: str, token: str) -> None:
    assert token in text
    clean = scrub(text)
    assert token not in clean and REDACTED in clean


def test_an_assignment_keeps_its_name() -> None:
    assert scrub("api_key=Zx81mQ0pLr7t&x=1") == f"api_key={REDACTED}&x=1"
    assert scrub("Authorization: Bearer abcdefgh12345") == f"Authorization: Bearer {REDACTED}"


@pytest.mark.parametrize(
    "text",
    [
        "sort key: director_of",  # `key:` with no token-like value
        "monkey: 1234567890",  # `key` inside a word
        "Keyser Söze —directed by→ Bryan Singer",
        "task-force risk-free sk-SK",
        "Bearer bonds",
        "<http://www.wikidata.org/entity/Q12345678>",
        "TOKENIZERS_PARALLELISM=false",
        "LLM budget spent: 60 of 60 calls",
    ],
)
def test_ordinary_text_survives(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """Credential-named variables with values that are no key (flags, numbers, paths) are
    not scrubbed: they would wreck ordinary text."""
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false")
    monkeypatch.setenv("MAX_TOKEN_COUNT", "1234567890")
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", "/www.wikidata.org/entity")
    assert scrub(text) == text


def test_secret_names_are_read_by_segment() -> None:
    for name in ("OPENAI_API_KEY", "HF_TOKEN", "DB_PASSWORD", "github_pat", "AWS_SECRET_X"):
        assert secrets.is_secret_name(name), name
    for name in ("TOKENIZERS_PARALLELISM", "KEYBOARD", "MONKEY", "OPENAI_API_BASE", "PATH"):
        assert not secrets.is_secret_name(name), name


def test_a_key_that_contains_another_is_replaced_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHORT_TOKEN", "abc123xyz")
    monkeypatch.setenv("LONG_TOKEN", "abc123xyz-and-more")
    assert scrub("bad: abc123xyz-and-more") == f"bad: {REDACTED}"


def test_registered_values_and_streamlit_secrets_are_scrubbed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The app learns keys from Streamlit secrets: each is registered, the one already in
    the environment (so not copied) and a nested one (a section) too."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-env-0123456789")
    monkeypatch.delenv("MISTRAL_API_KEY", raising=False)
    given = {
        "OPENAI_API_KEY": "qq-secrets-value-1234",  # differs from the environment's
        "MISTRAL_API_KEY": "mi5tral0key7value",
        "connections": {"db": {"password": "pw9-Zebra-lamp"}},
        "OPENAI_API_BASE": "http://localhost:8080",
    }
    raw = "errors: qq-secrets-value-1234 mi5tral0key7value pw9-Zebra-lamp http://localhost:8080"
    assert scrub(raw) == raw  # no pattern knows these shapes
    assert app_settings.apply_secrets(given) == ["MISTRAL_API_KEY", "OPENAI_API_BASE"]
    assert scrub(raw) == f"errors: {REDACTED} {REDACTED} {REDACTED} http://localhost:8080"
    register_secret("another-kind-of-value")
    assert scrub("see another-kind-of-value") == f"see {REDACTED}"


def test_values_in_the_working_directorys_secrets_toml_are_scrubbed(tmp_path: Path) -> None:
    raw = "denied for Wq3eR5tY7uI9"
    assert scrub(raw) == raw
    folder = tmp_path / ".streamlit"
    folder.mkdir()
    (folder / "secrets.toml").write_text('MYLLM_API_KEY = "Wq3eR5tY7uI9"\n')
    secrets.forget_secrets()  # files are re-checked every few seconds: now
    assert scrub(raw) == f"denied for {REDACTED}"


def test_scrub_obj_walks_json_like_structures(keys: dict[str, str]) -> None:
    key = keys["MYPROVIDER_TOKEN"]
    obj = {
        "error": provider_error(key),
        key: [1, 2.5, None, True, ("tuple", f"x {key}")],
        "nested": {"list": [{"deep": key}]},
    }
    assert key in json.dumps(obj)
    clean = scrub_obj(obj)
    assert key not in json.dumps(clean)
    assert clean[REDACTED] == [1, 2.5, None, True, ("tuple", f"x {REDACTED}")]
    assert clean["nested"] == {"list": [{"deep": REDACTED}]}


def test_the_compiled_matcher_is_reused_until_the_environment_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = secrets._matcher()
    assert secrets._matcher() is first
    monkeypatch.setenv("SOME_NEW_TOKEN", "n3w-t0ken-value")
    assert secrets._matcher() is not first


def test_scrubbing_a_large_trace_is_fast(keys: dict[str, str]) -> None:
    """It runs on every trace stored: 30,000 strings, most distinct, well under a second
    (measured ≈ 0.1 s; the bound only catches a pathological slowdown)."""
    rows = [{"s": f"<http://ex.org/e{i}>", "label": f"Entity number {i}"} for i in range(15_000)]
    rows[7_000]["label"] = provider_error(keys["MYPROVIDER_TOKEN"])
    scrub_obj(rows[:10])
    t0 = time.perf_counter()
    clean = scrub_obj(rows)
    assert time.perf_counter() - t0 < 1.5
    assert clean[7_000]["label"] == provider_error(REDACTED)


# -- provider errors through litellm -------------------------------------------------------
def test_a_provider_error_through_litellm_never_shows_a_key(keys: dict[str, str]) -> None:
    litellm = get_litellm()
    for name, key in keys.items():
        err = litellm.AuthenticationError(
            message=provider_error(key), llm_provider="openai", model=MODEL
        )
        assert key in str(err)
        ledger: list[LLMCall] = []
        llm = LLM(LLMSettings(model=MODEL, mock_response=err, cache=False), sleep=lambda s: None)
        with pytest.raises(LLMFault) as info:
            llm.complete("q", purpose="p", ledger=ledger)
        assert key not in str(info.value) and key not in ledger[0].error, name
        assert REDACTED in ledger[0].error and "AuthenticationError" in ledger[0].error


def test_a_plain_exception_through_litellm_never_shows_a_key(keys: dict[str, str]) -> None:
    key = keys["CUSTOM_LLM_SECRET"]
    err = ValueError(f"proxy rejected header x-api-key={key}")
    ledger: list[LLMCall] = []
    llm = LLM(LLMSettings(model=MODEL, mock_response=err, cache=False, retries=0))
    with pytest.raises(LLMFault) as info:
        llm.complete("q", purpose="p", ledger=ledger)
    assert key not in str(info.value) + ledger[0].error
    assert REDACTED in ledger[0].error


class _EchoingProvider(BaseHTTPRequestHandler):
    """Answers every request as OpenAI answers a wrong key: 401, the key echoed."""

    seen: list[str] = []

    def do_POST(self) -> None:  # noqa: N802 — http.server's name
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        token = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
        type(self).seen.append(token)
        body = json.dumps(
            {"error": {"message": provider_error(token), "type": "invalid_request_error",
                       "code": "invalid_api_key"}}
        ).encode()  # fmt: skip
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:  # quiet
        pass


@pytest.fixture
def echoing_provider() -> Iterator[str]:
    _EchoingProvider.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoingProvider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["OPENAI_API_KEY", "MYPROVIDER_TOKEN", "CUSTOM_LLM_SECRET"])
def test_cli_json_output_and_the_stored_run_never_hold_the_key(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    keys: dict[str, str],
    echoing_provider: str,
    tmp_path: Path,
    name: str,
) -> None:
    """The issue's case end to end: `knowloop ask --json` on an LLM paradigm whose provider
    echoes the key it was sent."""
    key = keys[name]
    monkeypatch.setenv("OPENAI_API_KEY", key)  # the key the provider is sent (and echoes)
    home = tmp_path / "home"
    assert main(["--home", str(home), "import", str(FIXTURES / "football.tsv")]) == 0
    capsys.readouterr()
    code = main(
        ["--home", str(home), "ask", "where was Erling Haaland born", "--kb", "football",
         "--paradigm", "llm-only", "--model", MODEL, "--api-base", echoing_provider, "--json"]
    )  # fmt: skip
    out, err = capsys.readouterr()
    assert _EchoingProvider.seen and set(_EchoingProvider.seen) == {key}  # it was echoed
    assert code == 0, err
    assert key not in out and key not in err
    trace = json.loads(out)
    assert REDACTED in trace["steps"][0]["error"]  # the provider's error is there, scrubbed
    with duckdb.connect(str(home / DB_NAME), read_only=True) as con:
        [(stored,)] = con.execute("SELECT trace FROM runs").fetchall()
    assert key not in stored and REDACTED in stored


def leaky_trace(key: str) -> Trace:
    """A trace holding the key wherever an error or an LLM's text can reach."""
    error = f"AuthenticationError: {provider_error(key)}"
    step = Step(
        index=1,
        action=Action(
            kind="generate",
            description=f"ask the model (key {key})",
            query=f"prompt with {key}",
            details={"raw": error, key: "as a dict key"},
        ),
        llm_calls=[LLMCall(model=MODEL, purpose="chain of thought", error=error)],
        passages=[Passage(id="sample-1", text=f"I was given {key}", source="llm", verified=False)],
        error=error,
        reward_reason=f"not judged: {error}",
    )
    return Trace(
        question="where was Erling Haaland born",
        paradigm="llm-only",
        kb="football",
        settings={"model": MODEL, "note": key},
        steps=[step],
        stop_reason=f"agent failed: {error}",
        error=error,
    )


@pytest.mark.parametrize("name", ["ANTHROPIC_API_KEY", "MYPROVIDER_TOKEN", "CUSTOM_LLM_SECRET"])
def test_every_way_out_of_a_trace_is_scrubbed(
    keys: dict[str, str], tmp_path: Path, name: str
) -> None:
    """JSON, the run store (the raw column and what `get` returns), the HTML report, the
    JSON export and the CLI's readable output."""
    key = keys[name]
    trace = leaky_trace(key)
    assert key in repr(trace)
    outputs = {
        "to_json": trace.to_json(),
        "report": report_html(trace),
        "cli": format_trace(trace),
    }
    store = RunStore(tmp_path)
    run_id = store.save(trace)
    with duckdb.connect(str(tmp_path / DB_NAME), read_only=True) as con:
        [(outputs["stored"],)] = con.execute("SELECT trace FROM runs").fetchall()
    outputs["get"] = repr(store.get(run_id).trace)
    for where, text in outputs.items():
        assert key not in text, where
        assert REDACTED in text, where
    assert key in repr(trace)  # the scrub copies; the run's own object is untouched


def test_cli_error_messages_are_scrubbed(
    capsys: pytest.CaptureFixture[str], keys: dict[str, str], tmp_path: Path
) -> None:
    key = keys["MYPROVIDER_TOKEN"]
    missing = tmp_path / f"kb-{key}.tsv"
    code = main(["--home", str(tmp_path / "home"), "import", str(missing)])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("knowloop: error: ")
    assert key not in err and REDACTED in err


def test_a_failed_connection_test_is_scrubbed(
    monkeypatch: pytest.MonkeyPatch, keys: dict[str, str]
) -> None:
    key = keys["CUSTOM_LLM_SECRET"]

    def boom(self, *args, **kwargs):
        raise RuntimeError(f"socket closed while sending {key}")

    monkeypatch.setattr(LLM, "complete", boom)
    ok, message = app_settings.test_connection(MODEL)
    assert not ok and key not in message and REDACTED in message
