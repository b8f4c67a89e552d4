"""One LLM module: free generation and choice among closed options, through litellm.

- Any litellm model name works (`openai/...`, `anthropic/...`, `ollama_chat/...` with an api
  base, any OpenAI-compatible server); the bundled offline default is `local/gemma-3-270m`.
- Keys come only from the environment (litellm reads them); nothing here stores or logs them.
- Every call leaves an `LLMCall` in the caller's ledger: model, tokens, cost (litellm's cost
  map; the local model costs 0), latency, cache hit, error.
- A per-question `Budget` (calls, tokens, and a deadline across all calls and retries)
  raises `BudgetExhausted`, which the loop turns into a clean stop with the reason in the
  trace. Each call's timeout is cut to the time the question has left.
- Faults (timeouts, 429, 5xx, connection errors) are retried a bounded number of times with
  backoff, never past the deadline; authentication, permission and bad-request errors (a
  missing or wrong key) are not retried. What still fails raises `LLMFault` with a readable
  message, scrubbed of secrets (core.secrets), and is in the ledger.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NoReturn

from core.secrets import scrub
from core.trace import LLMCall, StopRun

DEFAULT_MODEL_ENV = "KNOWLOOP_MODEL"
API_BASE_ENV = "KNOWLOOP_API_BASE"
CACHE_SIZE = 2048
MIN_ATTEMPT_S = 0.1  # a retry with less time than this before the deadline is not started

LOGPROB_TOKENS = 4  # reply length when the option is read from the first token's logprobs


def default_model() -> str:
    from core.llm.local import LOCAL_MODEL

    return os.environ.get(DEFAULT_MODEL_ENV) or LOCAL_MODEL


@dataclass
class LLMSettings:
    """Which model and how patiently to call it (persisted without any key)."""

    model: str = field(default_factory=default_model)
    api_base: str | None = field(default_factory=lambda: os.environ.get(API_BASE_ENV) or None)
    timeout_s: float = 60.0
    retries: int = 2  # extra attempts after a transient fault
    backoff_s: float = 1.0  # first wait; doubles per retry
    max_calls: int = 60  # per question
    max_tokens: int = 60_000  # per question, prompt + completion
    deadline_s: float = 120.0  # per question, across all calls and retries
    cache: bool = True
    # litellm's mock_response for deterministic tests: a string, an exception, or a callable
    # prompt -> string/exception (never persisted)
    mock_response: Any = field(default=None, repr=False)


class BudgetExhausted(StopRun):
    """The question's LLM budget is spent: the run stops cleanly and says so."""


class LLMFault(ValueError):
    """An LLM call failed for good (after retries) or returned nothing usable (a ValueError:
    the loop records it on the step like any failed query)."""


@dataclass
class Budget:
    """What one question may spend on LLM calls: calls, tokens and wall time. The clock
    starts when the budget is made (with the question's LLM, when the paradigm is composed)."""

    max_calls: int
    max_tokens: int
    deadline_s: float = math.inf
    calls: int = 0
    tokens: int = 0
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    started: float | None = None

    def __post_init__(self) -> None:
        if self.started is None:
            self.started = self.clock()

    def left_s(self) -> float:
        """Seconds the question has left for LLM calls (negative once the deadline passed)."""
        return self.deadline_s - (self.clock() - self.started)

    def check(self) -> None:
        if self.calls >= self.max_calls:
            raise BudgetExhausted(f"LLM budget spent: {self.calls} of {self.max_calls} calls")
        if self.tokens >= self.max_tokens:
            raise BudgetExhausted(
                f"LLM budget spent: {self.tokens:,} of {self.max_tokens:,} tokens"
            )
        if self.left_s() <= 0:
            raise self.overdue()

    def overdue(self, last_error: str | None = None) -> BudgetExhausted:
        """The stop that says the deadline passed, and on what."""
        calls = f"{self.calls} call" + ("" if self.calls == 1 else "s")
        why = f" (last: {last_error})" if last_error else ""
        return BudgetExhausted(
            f"LLM deadline of {self.deadline_s:g} s for this question passed after {calls}{why}"
        )

    def charge(self, call: LLMCall) -> None:
        self.calls += 1
        self.tokens += call.prompt_tokens + call.completion_tokens


@dataclass
class Completion:
    texts: list[str]
    call: LLMCall

    @property
    def text(self) -> str:
        return self.texts[0] if self.texts else ""


@dataclass
class Choice:
    """A probability per option (sums to 1) and how it was obtained."""

    options: list[str]
    probs: list[float]
    method: str  # "loglik" (local scoring), "logprobs" (provider), "scores" (parsed), "uniform"
    call: LLMCall

    @property
    def best(self) -> int:
        return max(range(len(self.probs)), key=self.probs.__getitem__)

    def ranked(self) -> list[tuple[str, float]]:
        return sorted(zip(self.options, self.probs, strict=True), key=lambda x: -x[1])


class ResponseCache:
    """Responses of deterministic calls (temperature 0), least recently used dropped first.
    Owned by whoever outlives one question: the Engine keeps one per workspace; an LLM built
    without one keeps its own."""

    def __init__(self, size: int = CACHE_SIZE):
        self.size = size
        self._items: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key: str, response: Any) -> None:
        with self._lock:
            self._items[key] = response
            while len(self._items) > self.size:
                self._items.popitem(last=False)


class LLM:
    """A model plus the ledger and budget of one question."""

    def __init__(
        self,
        settings: LLMSettings | None = None,
        *,
        budget: Budget | None = None,
        sleep: Callable[[float], None] = time.sleep,
        cache: ResponseCache | None = None,
    ):
        self.settings = settings or LLMSettings()
        self.cache = cache if cache is not None else ResponseCache()
        self.model = self.settings.model
        self.budget = budget or Budget(
            self.settings.max_calls, self.settings.max_tokens, self.settings.deadline_s
        )
        self.sleep = sleep
        self.mock = self.settings.mock_response

    # -- public call shapes -----------------------------------------------------------------
    def complete(
        self,
        prompt: str,
        *,
        purpose: str,
        ledger: list[LLMCall],
        max_tokens: int = 64,
        temperature: float = 0.0,
        n: int = 1,
        stop: list[str] | None = None,
        seed: int | None = None,
    ) -> Completion:
        params = {"max_tokens": max_tokens, "temperature": temperature, "n": n}
        if seed is not None:
            params["seed"] = seed
        if stop:
            params["stop"] = stop
        response, call = self._call(prompt, params, purpose, ledger)
        texts = [(c.message.content or "") for c in response.choices]
        if not any(t.strip() for t in texts):
            call.error = "empty completion"
            raise LLMFault(f"{self.model} returned an empty completion ({purpose})")
        return Completion(texts, call)

    def choose(
        self, prompt: str, options: list[str], *, purpose: str, ledger: list[LLMCall]
    ) -> Choice:
        """P(option | prompt) over a closed set: the local model scores each option's
        log-likelihood; API models give logprobs of the option number where the provider
        offers them, else are asked for scores, parsed robustly."""
        if not options:
            raise ValueError("choose() needs at least one option")
        if len(options) == 1:
            call = LLMCall(model=self.model, purpose=purpose, cached=True)
            return Choice(list(options), [1.0], "single option", call)
        if self.is_local and self.mock is None:
            response, call = self._call(prompt, {"extra_body": {"options": options}}, purpose,
                                        ledger)  # fmt: skip
            scores = json.loads(response.choices[0].message.content)["option_scores"]
            return Choice(list(options), _softmax(scores), "loglik", call)
        listing = "\n".join(f"{i}. {o}" for i, o in enumerate(options, 1))
        ask = (
            f"{prompt}\n\nOptions:\n{listing}\n\nReply with the number of the best option, or "
            f"with a score from 0 to 1 for each number like `1: 0.7, 2: 0.1`."
        )
        params: dict[str, Any] = {"max_tokens": 8 * len(options) + 8, "temperature": 0.0}
        if self._supports_logprobs():
            # only the first token's distribution is read: a short reply is enough, and
            # servers that compute logprobs over the whole vocabulary per token (llama.cpp's
            # Python server: ≈ 1 s a token) answer in one token's time instead of 30
            params.update(logprobs=True, top_logprobs=min(20, max(5, len(options))),
                          max_tokens=LOGPROB_TOKENS)  # fmt: skip
        response, call = self._call(ask, params, purpose, ledger)
        probs = _probs_from_logprobs(response, len(options))
        if probs is not None:
            return Choice(list(options), probs, "logprobs", call)
        text = response.choices[0].message.content or ""
        probs = parse_option_scores(text, options)
        if probs is None:
            call.error = f"unusable choice output: {text[:80]!r}"
            raise LLMFault(f"{self.model} did not choose among the options ({purpose})")
        return Choice(list(options), probs, "scores", call)

    # -- plumbing ---------------------------------------------------------------------------
    def _timeout_s(self) -> float:
        """The next attempt's timeout: the setting, cut to what the question's deadline
        leaves (a server that never answers costs the question its deadline, no more)."""
        left = self.budget.left_s()
        if left <= 0:
            raise self.budget.overdue()
        return min(self.settings.timeout_s, left)

    def _fail(
        self,
        exc: Exception,
        attempt: int,
        purpose: str,
        ledger: list[LLMCall],
        started: float,
        *,
        out_of_time: bool,
    ) -> NoReturn:
        """Record a call that failed for good, then raise: the deadline's stop when it
        passed (or left no time for the retry a transient fault deserved), else LLMFault."""
        retried = f" (after {attempt} retries)" if attempt else ""
        call = LLMCall(
            model=self.model,
            purpose=purpose,
            latency_ms=(time.perf_counter() - started) * 1000,
            error=_readable(exc) + retried,
        )
        ledger.append(call)
        self.budget.charge(call)
        if out_of_time or self.budget.left_s() <= 0:
            raise self.budget.overdue(call.error) from None
        raise LLMFault(f"{self.model}: {call.error}") from None

    @property
    def is_local(self) -> bool:
        from core.llm.local import LOCAL_PROVIDER

        return self.model.startswith(LOCAL_PROVIDER + "/")

    def _supports_logprobs(self) -> bool:
        if self.mock is not None:
            return False
        try:
            return "logprobs" in (get_litellm().get_supported_openai_params(self.model) or [])
        except Exception:
            return False

    def _keyless_api_key(self) -> str | None:
        """A placeholder key for a server at the user's own API base that needs none.

        Self-hosted OpenAI-compatible servers (llama.cpp, vLLM, Ollama) ignore the key, but
        litellm refuses to call an `openai/` model without one; a key in the environment wins."""
        if not self.settings.api_base or self.is_local:
            return None
        provider = self.model.split("/", 1)[0].upper()
        return None if os.environ.get(f"{provider}_API_KEY") else "no-key"

    def _call(
        self, prompt: str, params: dict, purpose: str, ledger: list[LLMCall]
    ) -> tuple[Any, LLMCall]:
        self.budget.check()
        key = _cache_key(self.model, prompt, params, self.mock)
        cacheable = (
            self.settings.cache
            and params.get("temperature", 0) == 0
            and (self.mock is None or isinstance(self.mock, str))
        )
        hit = self.cache.get(key) if cacheable else None
        if hit is not None:
            call = LLMCall(model=self.model, purpose=purpose, cached=True)
            ledger.append(call)
            self.budget.charge(call)
            return hit, call
        litellm = get_litellm()
        attempt, wait = 0, self.settings.backoff_s
        started = time.perf_counter()
        while True:
            timeout_s = self._timeout_s()
            kwargs = dict(params)
            if self.mock is not None:  # stands for the server: answers after the timeout is set
                mock = self.mock(prompt) if callable(self.mock) else self.mock
                kwargs["mock_response"] = mock
            try:
                response = litellm.completion(
                    model=self.model,
                    messages=[{"role": "user", "content": prompt}],
                    api_base=self.settings.api_base,
                    api_key=self._keyless_api_key(),
                    timeout=timeout_s,
                    num_retries=0,
                    **kwargs,
                )
                break
            except Exception as exc:  # noqa: BLE001 — classified, recorded, re-raised readable
                retry = _is_transient(exc, litellm) and attempt < self.settings.retries
                if retry and wait + MIN_ATTEMPT_S < self.budget.left_s():
                    attempt += 1
                    self.sleep(wait)
                    wait *= 2
                    continue
                self._fail(exc, attempt, purpose, ledger, started, out_of_time=retry)
        usage = getattr(response, "usage", None)
        call = LLMCall(
            model=self.model,
            purpose=purpose,
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            cost_usd=_cost(litellm, response, self.is_local),
            latency_ms=(time.perf_counter() - started) * 1000,
            error=f"succeeded after {attempt} retries" if attempt else None,
        )
        ledger.append(call)
        self.budget.charge(call)
        if cacheable:
            self.cache.put(key, response)
        return response, call


_litellm = None
_litellm_lock = threading.Lock()


def get_litellm():
    """Import litellm once, offline (local cost map), with the local provider registered.
    Imported lazily: the rules-only paradigm never pays litellm's import time."""
    global _litellm
    with _litellm_lock:
        if _litellm is None:
            os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
            os.environ.setdefault("LITELLM_LOG", "ERROR")
            # pydantic notes about litellm's own types, emitted on import and first calls
            warnings.filterwarnings(
                "ignore", message=r".*`ReadOnly` qualifier", category=UserWarning
            )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                import litellm

            from core.llm.local import LOCAL_MODEL, LOCAL_PROVIDER, make_provider

            litellm.telemetry = False
            litellm.suppress_debug_info = True
            litellm.custom_provider_map = [
                *[p for p in litellm.custom_provider_map if p["provider"] != LOCAL_PROVIDER],
                {"provider": LOCAL_PROVIDER, "custom_handler": make_provider()},
            ]
            litellm.register_model(
                {
                    LOCAL_MODEL: {
                        "input_cost_per_token": 0.0,
                        "output_cost_per_token": 0.0,
                        "litellm_provider": LOCAL_PROVIDER,
                        "mode": "chat",
                        "max_input_tokens": 4096,
                    }
                }
            )
            _litellm = litellm
    return _litellm


def warm_up(model: str | None = None) -> None:
    """Pay the one-off costs before a user waits: import litellm and, for the bundled model,
    load it (the app calls this in a background thread at start)."""
    from core.llm.local import LOCAL_PROVIDER, LocalModel

    get_litellm()
    if (model or default_model()).startswith(LOCAL_PROVIDER + "/"):
        LocalModel.get()


def _cache_key(model: str, prompt: str, params: dict, mock: Any) -> str:
    blob = json.dumps([model, prompt, params, mock], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


# a key that is missing or wrong, whatever class the provider's SDK gives it (litellm reports
# a missing OpenAI key as InternalServerError 500, a missing Gemini key as APIConnectionError)
_KEY_PROBLEM = re.compile(
    r"api[\s_-]?key|credential|unauthori[sz]ed|authenticat|permission denied|forbidden", re.I
)
_NEVER_RETRIED = (
    "AuthenticationError",
    "PermissionDeniedError",
    "BadRequestError",
    "NotFoundError",
    "UnprocessableEntityError",
    "ContentPolicyViolationError",
    "ContextWindowExceededError",
)


def _is_transient(exc: Exception, litellm) -> bool:
    """Whether a retry could succeed: timeouts, rate limits, 5xx, lost connections. Key,
    permission and request errors never can: refused by class, by status, and by message
    for the SDKs that report a missing key as a 500 or a lost connection."""
    status = getattr(exc, "status_code", None)
    if isinstance(exc, _classes(litellm, _NEVER_RETRIED)) or status in (400, 401, 403, 404):
        return False
    if isinstance(exc, _classes(litellm, ("Timeout", "RateLimitError"))) or status == 429:
        return True
    if _KEY_PROBLEM.search(str(exc)):
        return False
    flaky = ("InternalServerError", "ServiceUnavailableError", "APIConnectionError",
             "BadGatewayError")  # fmt: skip
    return isinstance(exc, _classes(litellm, flaky)) or (isinstance(status, int) and status >= 500)


def _classes(litellm, names: tuple[str, ...]) -> tuple[type, ...]:
    return tuple(getattr(litellm, n) for n in names if hasattr(litellm, n))


def _readable(exc: Exception) -> str:
    """One line, no secrets: the exception type and the first line of its message, scrubbed
    before it is cut (a cut must not leave half a key behind)."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    text = scrub(text)[:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _cost(litellm, response, local: bool) -> float:
    if local:
        return 0.0
    try:
        return float(litellm.completion_cost(completion_response=response) or 0.0)
    except Exception:
        return 0.0


def _softmax(scores: list[float]) -> list[float]:
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def _probs_from_logprobs(response, n: int) -> list[float] | None:
    """P(option i) from the provider's top logprobs of the first answer token (a number)."""
    try:
        first = response.choices[0].logprobs["content"][0]
        tops = first["top_logprobs"] if isinstance(first, dict) else first.top_logprobs
    except (AttributeError, IndexError, KeyError, TypeError):
        return None
    mass = [0.0] * n
    for entry in tops or []:
        token = entry["token"] if isinstance(entry, dict) else entry.token
        logprob = entry["logprob"] if isinstance(entry, dict) else entry.logprob
        token = token.strip().rstrip(".):")
        if token.isdigit() and 1 <= int(token) <= n:
            mass[int(token) - 1] += math.exp(logprob)
    total = sum(mass)
    return [m / total for m in mass] if total > 0 else None


_PAIR = re.compile(r"(?<![\d.])(\d{1,3})\s*[:=)\-]\s*(\d*\.?\d+)\s*(%?)")
_LONE = re.compile(r"^\D*?(\d{1,3})\D*$")


def parse_option_scores(text: str, options: list[str]) -> list[float] | None:
    """Read a model's choice from its reply, tolerant of format: `2`, `Option 2.`, `1: 0.7,
    2: 0.2`, `{"1": 0.7}`, percentages, or an option's exact text. None if nothing is usable."""
    n = len(options)
    text = (text or "").strip()
    if not text:
        return None
    scores: dict[int, float] = {}
    for num, value, pct in _PAIR.findall(text.replace('"', "")):
        i = int(num)
        if 1 <= i <= n:
            v = float(value) / (100 if pct else 1)
            if 0 <= v <= 1 or pct:
                scores[i - 1] = max(0.0, min(1.0, v))
    if scores and sum(scores.values()) > 0:
        total = sum(scores.values())
        return [scores.get(i, 0.0) / total for i in range(n)]
    lone = _LONE.match(text.splitlines()[0])
    if lone and 1 <= int(lone.group(1)) <= n:
        return [1.0 if i == int(lone.group(1)) - 1 else 0.0 for i in range(n)]
    from core.text import normalize

    said = normalize(text.splitlines()[0])
    exact = [i for i, o in enumerate(options) if normalize(o) == said]
    if len(exact) == 1:
        return [1.0 if i == exact[0] else 0.0 for i in range(n)]
    return None
