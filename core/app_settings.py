"""Settings the analyst chooses in the app, persisted in the workspace (`settings.json`):
the model, its API base, the per-question LLM deadline and the paradigm defaults. Never a
key: keys live in the environment or in Streamlit secrets, and this module only reports
whether they are present (and registers their values with the scrubber, core.secrets)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from core.llm.client import LLM, LLMFault, LLMSettings, default_model
from core.loop import LoopSettings
from core.secrets import register_secrets, scrub

FILE = "settings.json"
DEADLINE_RANGE = (1.0, 3600.0)  # seconds an LLM paradigm may spend on one question


@dataclass
class AppSettings:
    model: str = ""  # "" = $KNOWLOOP_MODEL or the bundled local model
    api_base: str = ""
    llm_deadline: float = LLMSettings.deadline_s  # s per question, all calls and retries
    paradigm: str = "kg-only"
    max_steps: int = LoopSettings.max_steps
    threshold: float = LoopSettings.threshold
    refresh: str = LoopSettings.refresh
    judge: str = LoopSettings.judge
    width: int = LoopSettings.width
    prior: float = LoopSettings.prior
    samples: int = LoopSettings.samples
    planning: bool = LoopSettings.planning
    lookahead: int = LoopSettings.lookahead
    beam: int = LoopSettings.beam
    proposals: int = LoopSettings.proposals

    @property
    def effective_model(self) -> str:
        return self.model.strip() or default_model()

    def llm_settings(self) -> LLMSettings:
        lo, hi = DEADLINE_RANGE
        deadline = self.llm_deadline
        if isinstance(deadline, bool) or not isinstance(deadline, int | float):
            raise ValueError("the LLM deadline must be a number of seconds")
        if not lo <= deadline <= hi:
            raise ValueError(f"the LLM deadline must be within {lo:g}..{hi:g} s")
        llm = LLMSettings(model=self.effective_model, deadline_s=float(deadline))
        if self.api_base.strip():
            llm.api_base = self.api_base.strip()
        return llm

    def loop_settings(self, **overrides) -> LoopSettings:
        values = {
            f.name: getattr(self, f.name) for f in fields(LoopSettings) if hasattr(self, f.name)
        }
        values.update(overrides)
        settings = LoopSettings(**values, llm=self.llm_settings())
        settings.validate()
        return settings


def settings_path(home: Path) -> Path:
    return Path(home) / FILE


def load(home: Path) -> AppSettings:
    """The saved settings; defaults when none are saved or the file is unreadable."""
    path = settings_path(home)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return AppSettings()
    known = {f.name for f in fields(AppSettings)}
    try:
        return AppSettings(**{k: v for k, v in data.items() if k in known})
    except TypeError:
        return AppSettings()


def load_checked(home: Path) -> tuple[AppSettings, str | None]:
    """The saved settings if they are valid, else the defaults and what was wrong (a file
    edited by hand must not break the pages that read it)."""
    settings = load(home)
    try:
        check(settings)
    except (ValueError, TypeError) as exc:
        return AppSettings(), f"saved settings ignored ({exc})"
    return settings, None


def check(settings: AppSettings) -> None:
    from core import paradigms

    if settings.paradigm not in paradigms.names():
        raise ValueError(f"unknown paradigm {settings.paradigm!r}")
    settings.loop_settings()  # raises ValueError with the setting's name


def save(settings: AppSettings, home: Path) -> None:
    """Validate, then write atomically (a crash never leaves half a file)."""
    check(settings)
    path = settings_path(home)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".settings-", suffix=".json")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(asdict(settings), fh, indent=2)
    os.replace(tmp, path)


def key_status(model: str, api_base: str = "") -> dict:
    """Whether the provider's key is in the environment — names only, never values.
    `found` names the keys present; an API base given in the settings satisfies *_API_BASE."""
    from core.llm.local import LOCAL_PROVIDER

    if model.startswith(LOCAL_PROVIDER + "/"):
        return {"needs_key": False, "present": True, "missing": [], "found": []}
    from core.llm.client import get_litellm

    litellm = get_litellm()
    try:
        provider = litellm.get_llm_provider(model)[1]
        found = litellm.validate_environment(model=model)
    except Exception as exc:  # unknown provider: say so rather than guess
        return {
            "needs_key": None,
            "present": False,
            "missing": [],
            "found": [],
            "error": str(exc)[:200],
        }
    missing = [
        name
        for name in found.get("missing_keys") or []
        if not (api_base.strip() and name.endswith("_API_BASE"))
    ]
    expected = f"{str(provider).upper()}_API_KEY"
    present = [expected] if os.environ.get(expected) else []
    return {
        "needs_key": bool(missing or present),
        "present": not missing,
        "missing": missing,
        "found": present,
    }


def test_connection(model: str, api_base: str = "", timeout_s: float = 20.0) -> tuple[bool, str]:
    """One tiny real call; (True, what came back and how fast) or (False, the exact error)."""
    llm_settings = LLMSettings(
        model=model.strip() or default_model(), retries=0, timeout_s=timeout_s, cache=False
    )
    if api_base.strip():
        llm_settings.api_base = api_base.strip()
    ledger = []
    try:
        out = LLM(llm_settings).complete(
            "Reply with OK.\nReply:", purpose="connection test", ledger=ledger, max_tokens=4
        )
    except LLMFault as fault:
        return False, str(fault)
    except Exception as exc:  # noqa: BLE001 — reported to the user, scrubbed, not raised
        return False, scrub(f"{type(exc).__name__}: {exc}")
    call = ledger[-1]
    return (
        True,
        f"{llm_settings.model} answered {out.text.strip()[:40]!r} in {call.latency_ms:,.0f} ms",
    )


def apply_secrets(secrets: Mapping) -> list[str]:
    """Copy provider keys / bases from Streamlit secrets into the environment (where litellm
    reads them) unless already set; returns the names copied (never the values). Every
    credential in the secrets is registered with the scrubber, copied or not: a key set in
    both places may differ, and either may be echoed in an error."""
    register_secrets(secrets)
    copied = []
    for name, value in dict(secrets).items():
        if not isinstance(value, str) or not name.isupper():
            continue
        if name.endswith(("_API_KEY", "_API_BASE", "_API_VERSION")) and name not in os.environ:
            os.environ[name] = value
            copied.append(name)
    return copied


class SettingsFile:
    """The settings saved in one workspace (``settings.json``), handed out as
    `Engine.settings` so pages read and write the engine's workspace, not a default home."""

    def __init__(self, home: Path):
        self.home = Path(home)

    @property
    def path(self) -> Path:
        return settings_path(self.home)

    def load(self) -> AppSettings:
        return load(self.home)

    def load_checked(self) -> tuple[AppSettings, str | None]:
        return load_checked(self.home)

    def save(self, settings: AppSettings) -> None:
        save(settings, self.home)
