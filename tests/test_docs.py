"""The README documents every CLI command and option, and every paradigm (docs stay complete)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from core import paradigms, settings_spec
from core.cli import _parser

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = _parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


@pytest.mark.parametrize("command", sorted(_subcommands()))
def test_every_command_and_option_is_in_the_readme(command: str) -> None:
    assert f"knowloop {command}" in README
    for action in _subcommands()[command]._actions:
        for flag in action.option_strings:
            if flag.startswith("--") and flag != "--help":
                assert flag in README, f"README does not document {command} {flag}"


@pytest.mark.parametrize("name", paradigms.names())
def test_every_paradigm_is_in_the_readme(name: str) -> None:
    assert f"`{name}`" in README


def test_readme_states_the_two_commands_and_ci_calls_the_test_one() -> None:
    assert "make run" in README and "make test" in README
    ci = (Path(__file__).resolve().parents[1] / ".ci" / "run").read_text()
    assert "make test" in ci


@pytest.mark.parametrize("setting", settings_spec.SETTINGS, ids=lambda s: s.name)
def test_every_setting_is_in_the_readme(setting: settings_spec.Setting) -> None:
    assert f"`{setting.name}`" in README
    if setting.flag:
        assert setting.flag in README, f"README does not document {setting.flag}"


@pytest.mark.parametrize("judge", paradigms.JUDGES)
def test_every_judge_is_in_the_readme(judge: str) -> None:
    assert f"`{judge}`" in README
