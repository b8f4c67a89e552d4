"""Helpers shared by the benchmark scripts: summary statistics, machine facts, JSON output.

Kept dependency-free (stdlib + core.metrics) so that a benchmark measures the engine, not its
own tooling.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import statistics
import sys
from pathlib import Path
from typing import Any

from core.metrics import percentile

REPO_ROOT = Path(__file__).resolve().parent.parent
RESULTS_DIR = REPO_ROOT / "benchmarks" / "results"


def summarize(values: list[float], digits: int = 3) -> dict[str, float | int]:
    """Median and tail of a sample. Percentiles are nearest-rank, as in `knowloop eval`, so the
    numbers here and there mean the same thing."""
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "median": round(statistics.median(values), digits),
        "p95": round(percentile(values, 95), digits),
        "p99": round(percentile(values, 99), digits),
        "min": round(min(values), digits),
        "max": round(max(values), digits),
        "mean": round(statistics.fmean(values), digits),
    }


def verdict(measured: float, target: float) -> dict[str, Any]:
    """Pass/fail against an upper bound, with the headroom ratio (target / measured: above 1
    means faster than required, below 1 means that many times too slow)."""
    ratio = target / measured if measured > 0 else float("inf")
    return {
        "target": target,
        "measured": round(measured, 4),
        "ratio_target_over_measured": round(ratio, 2),
        "pass": measured <= target,
    }


def machine_info() -> dict[str, Any]:
    """What a reader needs to compare numbers across machines (the box is noisy: say so)."""
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or _cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpu_affinity": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "loadavg_at_start": loadavg(),
    }


def loadavg() -> list[float]:
    """1/5/15-minute load: on a 2-core box, anything near 2 means the numbers are contended."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return []


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def write_json(path: Path, data: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return path


def mark(ok: bool) -> str:
    return "PASS" if ok else "FAIL"
