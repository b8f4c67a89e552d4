"""kNN over state-entry vectors, partitioned by previous action.

Vectors live in DuckDB (`core.wkm.store`); for search they are held in memory as one
normalised float32 matrix per previous action (the seed searches only entries with the same
previous action). A partition up to `EXACT_MAX` rows is scanned exactly; a larger one is
split once into IVF cells (k-means over the rows) and a query scans the `probe` cells whose
centroids are nearest, which keeps a step's lookup near a millisecond at 100k entries
(benchmarks/bench_wkm_knn.py measures the time and the recall against the exact scan).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

EXACT_MAX = 16384
PROBE = 12


@dataclass
class _Partition:
    rows: np.ndarray  # row numbers into the index's entries, grouped by cell
    vecs: np.ndarray  # (n, dim), in `rows` order
    centroids: np.ndarray | None = None  # (cells, dim) when IVF
    bounds: np.ndarray | None = None  # cell c spans vecs[bounds[c]:bounds[c + 1]]


class StateIndex:
    def __init__(self, prev_actions: list[str], vecs: np.ndarray, *, seed: int = 0):
        self.size = len(prev_actions)
        self._parts: dict[str, _Partition] = {}
        groups: dict[str, list[int]] = {}
        for i, prev in enumerate(prev_actions):
            groups.setdefault(prev, []).append(i)
        vecs = np.asarray(vecs, dtype=np.float32)
        for prev, rows in groups.items():
            part = _Partition(np.asarray(rows), vecs[rows])
            if len(rows) > EXACT_MAX:
                part = _ivf(part, np.random.default_rng(seed))
            self._parts[prev] = part

    def search(self, prev_action: str, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The k nearest entries with this previous action: (row number, cosine), best first."""
        part = self._parts.get(prev_action)
        if part is None or k <= 0:
            return []
        q = np.asarray(query, dtype=np.float32)
        if part.centroids is None:
            sims, rows = part.vecs @ q, part.rows
        else:
            near = np.argsort(-(part.centroids @ q))[:PROBE]
            spans = [(part.bounds[c], part.bounds[c + 1]) for c in near]
            sims = np.concatenate([part.vecs[a:b] @ q for a, b in spans])
            rows = np.concatenate([part.rows[a:b] for a, b in spans])
        k = min(k, len(sims))
        top = np.argpartition(-sims, k - 1)[:k] if k < len(sims) else np.arange(len(sims))
        top = top[np.argsort(-sims[top], kind="stable")]
        return [(int(rows[i]), float(sims[i])) for i in top]


def _ivf(part: _Partition, rng: np.random.Generator, iterations: int = 6) -> _Partition:
    """Cluster a large partition into about sqrt(n) cells (spherical k-means)."""
    n = len(part.rows)
    cells = int(np.sqrt(n))
    sample = part.vecs[rng.choice(n, size=min(n, 50 * cells), replace=False)]
    centroids = sample[rng.choice(len(sample), size=cells, replace=False)].copy()
    for _ in range(iterations):
        assign = np.argmax(sample @ centroids.T, axis=1)
        for c in range(cells):
            members = sample[assign == c]
            if len(members):
                centroids[c] = members.sum(axis=0)
        centroids /= np.maximum(np.linalg.norm(centroids, axis=1, keepdims=True), 1e-9)
    assign = np.concatenate(
        [np.argmax(part.vecs[i : i + 8192] @ centroids.T, axis=1) for i in range(0, n, 8192)]
    )
    order = np.argsort(assign, kind="stable")
    bounds = np.searchsorted(assign[order], np.arange(cells + 1))
    return _Partition(part.rows[order], part.vecs[order], centroids, bounds)
