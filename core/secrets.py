"""One secret scrubber for every boundary where text leaves the process: what is printed
(`--json`, CLI errors), stored (`runs.trace` in knowloop.duckdb) or exported (reports).

Providers echo keys in their errors ("Incorrect API key provided: sk-test"), and an error
travels far: the LLM ledger, a step's error, the stop reason. Patterns alone miss keys of
unknown shapes, so the exact values of every configured secret are replaced first:

- environment variables whose name says credential (`*_API_KEY`, `*_TOKEN`, `*_SECRET`, ...);
- Streamlit secrets (`.streamlit/secrets.toml`), where the app gets keys;
- any value registered with `register_secret` (the app calls it when it learns a key).

Common token shapes (`sk-...`, `AIza...`, `ghp_...`, `Bearer ...`, `api_key=...`, JWTs) are
a second net for keys that were never configured here, such as a key passed in a URL.
"""

from __future__ import annotations

import os
import re
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

REDACTED = "[redacted]"
MIN_SECRET_CHARS = 6  # shorter values would wreck ordinary text and are no real key

# name segments (split on "_") that mark a credential: OPENAI_API_KEY, HF_TOKEN, DB_PASSWORD
_SECRET_PARTS = frozenset(
    "KEY KEYS APIKEY TOKEN SECRET SECRETS PASSWORD PASSWD CREDENTIAL CREDENTIALS PAT".split()
)
_NOT_SECRET = frozenset("true false yes no none null on off".split())
_PATH_LIKE = re.compile(r"^(?:[/~.]|[A-Za-z]:[\\/])")
_NUMBER = re.compile(r"^[+-]?\d+(?:\.\d+)?$")

# the second net: token shapes; each match is replaced whole
_TOKEN_SHAPES = [
    r"\bsk-(?:proj-|ant-|svcacct-|admin-)?[A-Za-z0-9_\-]{4,}",  # OpenAI, Anthropic
    r"\bAIza[0-9A-Za-z_\-]{20,}",  # Google
    r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",  # GitHub
    r"\bxox[abposr]-[A-Za-z0-9\-]{10,}",  # Slack
    r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",  # AWS access key id
    r"\bhf_[A-Za-z0-9]{20,}",  # Hugging Face
    r"\beyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}",  # JWT
    r"(?<=[Bb]earer )[A-Za-z0-9._~+/\-]{8,}=*",  # an Authorization header's token
]
# `api_key=...`, `"token": "..."`, `x-api-key: ...`: the name stays, the value (token-like:
# 8+ characters with a digit, so `key: director_of` in ordinary text survives) goes
_ASSIGNMENT = (
    r"(?<![A-Za-z0-9])(?:api[_\-]?key|access[_\-]?token|auth[_\-]?token|refresh[_\-]?token"
    r"|client[_\-]?secret|secret|password|passwd|token|key)[\"']?\s*[:=]\s*[\"']?"
    r"(?=[^\s\"',;&]*\d)(?P<assigned>[^\s\"',;&]{8,})"
)


def is_secret_name(name: str) -> bool:
    """Whether a variable's name says it holds a credential (by segment, so
    TOKENIZERS_PARALLELISM or KEYBOARD are not)."""
    return not _SECRET_PARTS.isdisjoint(name.upper().replace("-", "_").split("_"))


def looks_secret(value: object) -> bool:
    """Whether a configured value is worth scrubbing: long enough, and not a flag, a number
    or a file path (GOOGLE_APPLICATION_CREDENTIALS names a file; the file is the secret)."""
    if not isinstance(value, str):
        return False
    value = value.strip()
    return (
        len(value) >= MIN_SECRET_CHARS
        and value.lower() not in _NOT_SECRET
        and not _NUMBER.match(value)
        and not _PATH_LIKE.match(value)
    )


# -- configured values -----------------------------------------------------------------------
_lock = threading.Lock()
_registered: set[str] = set()
_cache: dict[str, Any] = {"key": None, "matcher": None}


def register_secret(value: str | None) -> None:
    """Scrub this value from now on (a key the app or the CLI learned outside the
    environment). Values shorter than MIN_SECRET_CHARS are ignored."""
    if isinstance(value, str) and len(value.strip()) >= MIN_SECRET_CHARS:
        with _lock:
            _registered.add(value.strip())


def register_secrets(items: Mapping[str, Any]) -> list[str]:
    """Register every credential-named string in a (nested) mapping such as Streamlit's
    secrets; returns the names registered, never the values."""
    names = []
    for name, value in _flatten(items):
        if is_secret_name(name) and looks_secret(value):
            register_secret(value)
            names.append(name)
    return names


def forget_secrets() -> None:
    """Drop registered values and re-read the secrets files on the next scrub (tests; a key
    removed from the settings)."""
    with _lock:
        _registered.clear()
        _files.update(at=-_FILE_RECHECK_S, stamps=())


def _flatten(items: Mapping[str, Any], prefix: str = "") -> Iterable[tuple[str, Any]]:
    for name, value in dict(items).items():
        if isinstance(value, Mapping):
            yield from _flatten(value, f"{prefix}{name}_")
        else:
            yield f"{prefix}{name}", value


def secrets_files() -> list[Path]:
    """Where Streamlit reads secrets from: the user's and the working directory's."""
    return [Path.home() / ".streamlit" / "secrets.toml", Path.cwd() / ".streamlit" / "secrets.toml"]


def _file_stamps() -> tuple:
    stamps = []
    for path in secrets_files():
        try:
            stat = path.stat()
        except OSError:
            continue
        stamps.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)


def _file_values(stamps: tuple) -> list[str]:
    values = []
    for path, *_ in stamps:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        values += [v.strip() for n, v in _flatten(data) if is_secret_name(n) and looks_secret(v)]
    return values


def configured_values() -> list[str]:
    """Every configured secret value, longest first (so a key that contains another one is
    replaced whole)."""
    env = [v.strip() for n, v in os.environ.items() if is_secret_name(n) and looks_secret(v)]
    with _lock:
        registered = list(_registered)
    found = set(env) | set(registered) | set(_file_values(_file_stamps()))
    return sorted(found, key=lambda v: (-len(v), v))


# -- matching --------------------------------------------------------------------------------
# Cheap case-sensitive literals that every match contains: most strings of a trace (labels,
# IRIs) hold none, and a literal alternation is ~20x faster than the full pattern.
_TRIGGERS = [
    "sk-", "AIza", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AKIA",
    "ASIA", "hf_", "eyJ", "earer",
    *(v for w in ("key", "token", "secret", "passw") for v in (w, w.capitalize(), w.upper())),
]  # fmt: skip
_FILE_RECHECK_S = 2.0  # secrets files are re-checked at most this often (a stat is not free)
_files: dict[str, Any] = {"at": -_FILE_RECHECK_S, "stamps": ()}


def _matcher() -> Callable[[str], str]:
    """The substitution for the current configuration, compiled once per configuration: the
    environment, the registered values and the secrets files are fingerprinted cheaply and
    the regexes are rebuilt only when they change."""
    with _lock:
        key = (_env_fingerprint(), frozenset(_registered), _recent_file_stamps())
        if _cache["key"] == key:
            return _cache["matcher"]
    matcher = _substitution([re.escape(v) for v in configured_values()])
    with _lock:
        _cache.update(key=key, matcher=matcher)
    return matcher


def _env_fingerprint() -> tuple:
    """The environment as it is now. `os.environ._data` holds the raw entries: reading it
    avoids decoding every variable on each call (~2 µs instead of ~80 µs)."""
    data = getattr(os.environ, "_data", None)
    return tuple(data.items()) if isinstance(data, dict) else tuple(os.environ.items())


def _recent_file_stamps() -> tuple:
    now = time.monotonic()
    if now - _files["at"] >= _FILE_RECHECK_S:
        _files.update(at=now, stamps=_file_stamps())
    return _files["stamps"]


def _substitution(literals: list[str]) -> Callable[[str], str]:
    """Configured values first (exact, case-sensitive, longest first), then the token shapes;
    assignments case-insensitively (`API_KEY=`, `Api-Key:`). The trigger search skips the
    full pattern for the strings that cannot match."""
    trigger = re.compile("|".join([*literals, *map(re.escape, _TRIGGERS)]))
    pattern = re.compile("|".join([*literals, *_TOKEN_SHAPES, f"(?i:{_ASSIGNMENT})"]))

    def replace(match: re.Match[str]) -> str:
        if match.group("assigned") is None:
            return REDACTED
        return match.string[match.start() : match.start("assigned")] + REDACTED

    def sub(text: str) -> str:
        return pattern.sub(replace, text) if trigger.search(text) else text

    return sub


# -- public ----------------------------------------------------------------------------------
def scrub(text: str) -> str:
    """The text with every configured secret and every token-shaped string replaced by
    `[redacted]`."""
    if not isinstance(text, str) or len(text) < MIN_SECRET_CHARS:
        return text
    return _matcher()(text)


def scrub_obj(obj: Any) -> Any:
    """A JSON-like structure (dicts, lists, tuples, strings, numbers) with every string,
    keys included, scrubbed; compiled once for the whole walk."""
    return _walk(obj, _memo(_matcher()))


def _memo(sub: Callable[[str], str]) -> Callable[[str], str]:
    """A trace repeats its labels and IRIs many times: each distinct string is scrubbed once."""
    seen: dict[str, str] = {}

    def once(text: str) -> str:
        out = seen.get(text)
        if out is None:
            out = seen[text] = sub(text)
        return out

    return once


def _walk(obj: Any, sub: Callable[[str], str]) -> Any:
    if isinstance(obj, str):
        return sub(obj) if len(obj) >= MIN_SECRET_CHARS else obj
    if isinstance(obj, dict):
        return {_walk(k, sub): _walk(v, sub) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_walk(v, sub) for v in obj]
    if isinstance(obj, tuple):
        return tuple(_walk(v, sub) for v in obj)
    return obj
