"""State summaries as vectors, without a neural model in the default install.

A light local representation: word unigrams, word bigrams and character trigrams of each
word, weighted 1 + log(tf), signed-hashed (feature hashing) into `DIM` dimensions and
L2-normalised, so the cosine of two summaries is their weighted n-gram overlap. It is
deterministic across processes (CRC32, not Python's salted `hash`), needs numpy only, and
embeds a summary in tens of microseconds. Why not a sentence-embedding model: the ones on
PyPI here need torch (multi-GB on a user's machine), and state summaries are short, templated
texts where the entity is masked out, so lexical n-grams carry most of the signal (README,
"World Knowledge Model").
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter

import numpy as np

DIM = 256
_WORD = re.compile(r"[\w']+|[^\w\s]", re.UNICODE)


def features(text: str) -> Counter[str]:
    words = [w.lower() for w in _WORD.findall(text)]
    feats: Counter[str] = Counter(f"w:{w}" for w in words)
    feats.update(f"b:{a} {b}" for a, b in zip(words, words[1:], strict=False))
    for w in words:
        padded = f"<{w}>"
        feats.update(f"c:{padded[i : i + 3]}" for i in range(max(1, len(padded) - 2)))
    return feats


def embed(text: str) -> np.ndarray:
    """The unit vector of `text` (all zeros for text without any word)."""
    vec = np.zeros(DIM, dtype=np.float32)
    for feat, count in features(text).items():
        h = zlib.crc32(feat.encode("utf-8"))
        weight = (1.0 + math.log(count)) * (0.5 if feat[0] == "c" else 1.0)
        vec[h % DIM] += weight if (h >> 16) & 1 else -weight
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm else vec


def embed_many(texts: list[str]) -> np.ndarray:
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    return np.stack([embed(t) for t in texts])
