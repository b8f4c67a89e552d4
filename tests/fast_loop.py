"""The fast loop runs a spread of each long table of refusal cases, `make test` all of them.

A table of forty hostile inputs proves the guard; the developer's loop (`pytest -m "not slow"`)
needs a few of each kind to catch a break in seconds. `spread` keeps every n-th case (the
first and the last included) in the fast loop and marks the rest slow, ids unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from _pytest.mark.structures import ParameterSet


def spread(cases: Iterable[Any], keep: int) -> list[ParameterSet]:
    """The cases as pytest params, `keep` of them spread evenly over the table left unmarked
    (the rest marked slow)."""
    params = [c if isinstance(c, ParameterSet) else _param(c) for c in cases]
    n = len(params)
    fast = {round(i * (n - 1) / (keep - 1)) for i in range(keep)} if n > keep > 1 else set(range(n))
    return [
        p if i in fast else pytest.param(*p.values, marks=[*p.marks, pytest.mark.slow], id=p.id)
        for i, p in enumerate(params)
    ]


def _param(case: Any) -> ParameterSet:
    values: Sequence[Any] = case if isinstance(case, tuple) else (case,)
    return pytest.param(*values)
