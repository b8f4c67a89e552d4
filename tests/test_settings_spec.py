"""The settings spec is the one source of the loop settings' bounds, choices and defaults:
validate, the CLI and the pages' widgets are generated from it."""

from __future__ import annotations

import argparse
from dataclasses import fields, replace

import pytest

from core import paradigms, settings_spec
from core.app_settings import AppSettings
from core.cli import _parser
from core.loop import LoopSettings

SPEC = settings_spec.SETTINGS
# LoopSettings fields no user sets: an internal tuning constant, cok's mode, the LLM's own
INTERNAL = {"refresh_bits", "progressive", "llm"}


def _ask_parser() -> argparse.ArgumentParser:
    parser = _parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices["ask"]


def _bad_values(s: settings_spec.Setting) -> list[object]:
    """Values just outside the setting's bounds, or not among its choices."""
    if s.options() is not None:
        return ["no-such-choice"]
    if s.low is None:
        return []
    step = 1 if s.type is int else 0.01
    below = s.low if s.low_open else s.low - step
    return [below, s.high + step]


def test_every_spec_name_is_a_loop_setting_and_every_user_setting_is_in_the_spec() -> None:
    names = [s.name for s in SPEC]
    assert len(names) == len(set(names))
    assert set(names) == {f.name for f in fields(LoopSettings)} - INTERNAL


def test_spec_defaults_are_the_loop_defaults_and_pass_validate() -> None:
    defaults = LoopSettings()
    for s in SPEC:
        assert s.default == getattr(defaults, s.name)
        assert s.problem(s.default) is None, s.name
    defaults.validate()


@pytest.mark.parametrize(
    ("setting", "value"),
    [(s, v) for s in SPEC for v in _bad_values(s)],
    ids=lambda x: x.name if isinstance(x, settings_spec.Setting) else repr(x),
)
def test_validate_refuses_each_bound_violation_with_the_setting_name(
    setting: settings_spec.Setting, value: object
) -> None:
    bad = replace(LoopSettings(), **{setting.name: value})
    with pytest.raises(ValueError) as refused:
        bad.validate()
    assert setting.what in str(refused.value)


def test_validate_keeps_its_messages() -> None:
    cases = {
        "max_steps": (11, "max steps T must be within 1..10"),
        "threshold": (1.5, "threshold R must be within [0, 1]"),
        "refresh": ("never", "refresh must be 'always' or 'entropy'"),
        "judge": ("oracle", "unknown judge 'oracle'"),
        "consensus": (0.0, "the consensus gate must be within (0, 1]"),
        "gamma": (2.0, "gamma must be within [0, 1]"),
    }
    for name, (value, message) in cases.items():
        with pytest.raises(ValueError) as refused:
            replace(LoopSettings(), **{name: value}).validate()
        assert str(refused.value) == message


def test_bounds_are_inclusive_and_gamma_may_be_auto() -> None:
    for s in SPEC:
        if s.low is not None and s.options() is None:
            if not s.low_open:
                replace(LoopSettings(), **{s.name: s.type(s.low)}).validate()
            replace(LoopSettings(), **{s.name: s.type(s.high)}).validate()
    replace(LoopSettings(), gamma=None).validate()


def test_judges_are_the_registry() -> None:
    assert settings_spec.setting("judge").options() == ("", *paradigms.JUDGES)
    for judge in paradigms.JUDGES:
        replace(LoopSettings(), judge=judge).validate()


def test_cli_defaults_types_and_help_come_from_the_spec() -> None:
    parser = _ask_parser()
    args = parser.parse_args(["q"])
    by_dest = {a.dest: a for a in parser._actions}
    for s in SPEC:
        if not s.flag:
            assert s.name not in by_dest
            continue
        assert getattr(args, s.name) == s.default, s.name
        action = by_dest[s.name]
        assert action.option_strings == [s.flag]
        assert action.help == s.help
        if s.type is not bool and not s.nullable:
            assert action.type is s.type


def test_the_app_settings_mirror_has_the_spec_defaults() -> None:
    saved = AppSettings()
    for f in fields(AppSettings):
        if f.name in settings_spec.BY_NAME:
            assert getattr(saved, f.name) == settings_spec.setting(f.name).default, f.name
