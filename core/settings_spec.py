"""One declarative spec of the loop settings a user can set: type, bounds, choices, help,
widget label and CLI flag. `LoopSettings.validate`, the CLI flags (core.cli) and the pages'
widgets (pages._shared.setting_widget) are all generated from `SETTINGS`, so a bound or a
judge can no longer be one thing in the UI and another in the checks.

`LoopSettings` (the typed settings of one run) is defined here too, beside its spec, and the
spec's defaults are read from it; core.loop re-exports it. The choices of `judge` and
`knowledge_from` come from the declared names in core.registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any

from core.registry import JUDGES, PARADIGMS


@dataclass
class LoopSettings:
    """The loop's own settings (T, R, refresh) and the paradigm options its parts read."""

    max_steps: int = 4  # T
    threshold: float = 0.8  # R
    refresh: str = "always"  # "always" (Algorithm 1) or "entropy" (Algorithm 3 snapshots)
    refresh_bits: float = 1.0  # information needed before the agent's snapshot refreshes
    judge: str = ""  # "rules" | "llm" | "consensus"; "" = the paradigm's default
    width: int = 3  # candidates (relations / entities) the LLM agent weighs per decision
    samples: int = 1  # k: sampled chains of thought (llm-only; majority vote)
    planning: bool = False  # Algorithm 2 on llmxkg
    lookahead: int = 1  # U
    beam: int = 2  # W
    proposals: int = 3  # N
    exhaustive: bool = False  # ToG-style: the LLM scores every candidate, no rule pre-selection
    consensus: float = 0.67  # cok: vote share of the samples that answers without retrieval
    progressive: bool = True  # cok: each rationale from the corrected ones (else all at once)
    prior: float = 2.0  # weight of the rules' distribution beside the LLM's in decisions
    # WKM: weight of the agent's own distribution beside P_know (1: the agent alone; None:
    # auto, from how often the agent alone was right on the KB's `knowloop learn` questions)
    gamma: float | None = None
    knowledge_k: int = 8  # WKM: nearest state entries that vote for the next action
    knowledge_from: str = ""  # WKM: use only knowledge learned by this paradigm ("" = any)
    llm: Any = None  # core.llm.LLMSettings (None: defaults from the environment)

    def validate(self) -> None:
        """Refuse settings that cannot run, with the setting's name (CLI flags and UI)."""
        checks = [(False, message) for message in problems(self)]
        if self.llm is not None:
            checks += [
                (bool(str(self.llm.model).strip()), "the model name is empty"),
                (self.llm.max_calls >= 1, "the LLM call budget must be at least 1"),
                (self.llm.max_tokens >= 1, "the LLM token budget must be at least 1"),
            ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)

    def public(self) -> dict[str, Any]:
        """The settings as recorded in a trace (the model name, never a key)."""
        out = {k: v for k, v in self.__dict__.items() if k != "llm"}
        if self.llm is not None:
            out["model"] = self.llm.model
        return out


Choices = tuple[Any, ...] | Callable[[], tuple[Any, ...]]
_DEFAULTS = {f.name: f.default for f in fields(LoopSettings) if f.default is not MISSING}


@dataclass(frozen=True)
class Setting:
    """One user-facing LoopSettings field."""

    name: str  # the LoopSettings field
    type: type  # int | float | str | bool
    what: str  # how error messages name it ("max steps T")
    label: str  # the widget label ("Max steps T")
    help: str  # the CLI help (and the widget tooltip unless `tip` is given)
    flag: str | None  # the CLI flag; None: not on the command line
    low: float | None = None
    high: float | None = None
    low_open: bool = False  # low itself is refused: (low, high]
    step: float | None = None  # widget step for floats
    choices: Choices | None = None  # a tuple, or a function that reads a registry
    nullable: bool = False  # None is allowed ("auto")
    group: str = "loop"  # CLI argument group: "loop", "wkm" or "llm"
    widget: str = ""  # "slider", "radio", … ("" : picked from the type)
    tip: str = ""  # widget tooltip when the CLI help is too terse for a page
    metavar: str | None = None

    @property
    def default(self) -> Any:
        return _DEFAULTS[self.name]

    def options(self) -> tuple[Any, ...] | None:
        """The allowed values, read from the registry now (paradigms register on import)."""
        return self.choices() if callable(self.choices) else self.choices

    def span(self) -> str:
        """The bounds as messages write them: 1..10 for integers, [0, 1] for numbers."""
        if self.type is int:
            return f"{self.low}..{self.high}"
        return f"{'(' if self.low_open else '['}{self.low:g}, {self.high:g}]"

    def problem(self, value: Any) -> str | None:
        """Why `value` is refused (the message names the setting), or None when it is fine."""
        if value is None and self.nullable:
            return None
        options = self.options()
        if options is not None:
            if value in options:
                return None
            if self.name == "judge":
                return f"unknown judge {value!r}"
            if len(options) == 2:
                return f"{self.what} must be {options[0]!r} or {options[1]!r}"
            return f"unknown {self.what} {value!r}"
        if self.low is None or self.high is None:
            return None
        above_low = value > self.low if self.low_open else value >= self.low
        if above_low and value <= self.high:
            return None
        return f"{self.what} must be within {self.span()}"


def _judges() -> tuple[str, ...]:
    return ("", *JUDGES)  # "": the paradigm's own judge


def _paradigms() -> tuple[str, ...]:
    return ("", *PARADIGMS)  # "": knowledge learned by any paradigm


SETTINGS: tuple[Setting, ...] = (
    Setting("max_steps", int, "max steps T", "Max steps T", "T", "--max-steps", 1, 10,
            widget="slider", tip="the loop stops after T steps"),
    Setting("threshold", float, "threshold R", "Threshold R", "R in [0,1]", "--threshold",
            0.0, 1.0, step=0.05, widget="slider",
            tip="the loop stops once the judge's reward reaches R"),
    Setting("refresh", str, "refresh", "Buffer",
            "agent buffer: refreshed every step (Algorithm 1) or only after >= 1 bit of "
            "information (Algorithm 3 snapshots)", "--refresh",
            choices=("always", "entropy"), widget="radio"),
    Setting("gamma", float, "gamma", "γ (WKM)",
            "weight of the agent's own choice beside the learned knowledge, in [0, 1] "
            "(1: the agent alone; default auto: from the agent's accuracy when it learned)",
            "--gamma", 0.0, 1.0, step=0.25, nullable=True, group="wkm",
            widget="select_slider"),
    Setting("knowledge_k", int, "knowledge k", "Knowledge k", "neighbours that vote",
            "--knowledge-k", 1, 100, group="wkm"),
    Setting("knowledge_from", str, "paradigm", "Knowledge from",
            "use only knowledge learned by this paradigm (default: any)", "--knowledge-from",
            choices=_paradigms, group="wkm", metavar="PARADIGM"),
    Setting("judge", str, "judge", "Judge", "judge (default: the paradigm's own)", "--judge",
            choices=_judges, group="llm"),
    Setting("samples", int, "samples k", "Samples k",
            "k chains of thought for llm-only (majority vote)", "--samples", 1, 20,
            group="llm", tip="sampled chains of thought (llm-only)"),
    Setting("width", int, "width", "Width", "candidates the LLM weighs per decision",
            "--width", 1, 50, group="llm", tip="candidates the LLM agent weighs per decision"),
    Setting("prior", float, "prior weight", "Rule prior weight",
            "weight of the rules' distribution beside the LLM's (0: LLM alone)", "--prior",
            0.0, 20.0, step=0.5, group="llm"),
    Setting("planning", bool, "planning", "Planning (Alg. 2)",
            "Algorithm 2 planning on llmxkg", "--planning", group="llm"),
    Setting("lookahead", int, "lookahead U", "Lookahead U", "planning U", "--lookahead", 1, 3,
            group="llm"),
    Setting("beam", int, "beam W", "Beam W", "planning W", "--beam", 1, 10, group="llm"),
    Setting("proposals", int, "proposals N", "Proposals N", "planning N", "--proposals", 1, 10,
            group="llm"),
    Setting("exhaustive", bool, "exhaustive", "Exhaustive (ToG)",
            "ToG-style: the LLM scores every candidate relation and entity", "--exhaustive",
            group="llm"),
    Setting("consensus", float, "the consensus gate", "Consensus gate",
            "cok: vote share of the samples that answers without retrieval", None, 0.0, 1.0,
            low_open=True, step=0.05),
)  # fmt: skip
BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}


def setting(name: str) -> Setting:
    return BY_NAME[name]


def problems(values: Any) -> list[str]:
    """What is wrong with an object holding the settings as attributes (LoopSettings)."""
    found = (s.problem(getattr(values, s.name)) for s in SETTINGS)
    return [p for p in found if p]
