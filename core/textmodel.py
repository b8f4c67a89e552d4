"""The embedder: one offline text model for every part that compares meanings.

A static embedding model (model2vec's method) distilled once from all-MiniLM-L6-v2: every
token of MiniLM's WordPiece vocabulary plus the most frequent English words has one vector,
and a text's vector is the mean of its tokens' vectors. At run time this is numpy only, with
no torch and no network; a word is embedded in microseconds, so question analysis can compare
every word of a question with every relation of a KB on the hot path.

The artefact (`core/data/textmodel/`: `vocab.txt`, `vectors.npz`, its licence and model card)
is made by `scripts/build_textmodel.py`; the README ("Semantic text model") says why this
model and what it costs.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL_DIR = Path(__file__).resolve().parent / "data" / "textmodel"
_SPLIT = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_MAX_WORD_CHARS = 100


class TextModel:
    """Static token vectors, WordPiece tokenisation (BERT uncased rules), mean pooling."""

    def __init__(self, vocab: list[str], vectors: np.ndarray):
        self.vocab = {token: i for i, token in enumerate(vocab)}
        self.vectors = vectors.astype(np.float32)
        self.dim = int(vectors.shape[1])
        self._unk = self.vocab.get("[UNK]")
        self._word_cache: dict[str, tuple[np.ndarray, int]] = {}

    @classmethod
    def load(cls, directory: Path = MODEL_DIR) -> TextModel:
        vocab = (directory / "vocab.txt").read_text(encoding="utf-8").split("\n")
        with np.load(directory / "vectors.npz") as data:
            if "scales" in data:  # int8 rows with one scale each
                vectors = data["vectors"].astype(np.float32) * data["scales"][:, None]
            else:
                vectors = data["vectors"].astype(np.float32)
        if len(vocab) != len(vectors):
            raise ValueError(f"text model: {len(vocab)} tokens but {len(vectors)} vectors")
        return cls(vocab, vectors)

    # -- tokens ---------------------------------------------------------------------------
    def pieces(self, word: str) -> list[int]:
        """WordPiece ids of one pre-tokenised word: greedy longest match, "##" continuations."""
        if len(word) > _MAX_WORD_CHARS:
            return [] if self._unk is None else [self._unk]
        ids, start = [], 0
        while start < len(word):
            end, found = len(word), None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.vocab:
                    found = self.vocab[piece]
                    break
                end -= 1
            if found is None:
                return [] if self._unk is None else [self._unk]
            ids.append(found)
            start = end
        return ids

    def _word(self, word: str) -> tuple[np.ndarray, int]:
        """Sum of a word's token vectors and how many tokens (memoised)."""
        cached = self._word_cache.get(word)
        if cached is None:
            ids = [i for w in _pre_tokens(word) for i in self.pieces(w)]
            total = self.vectors[ids].sum(axis=0) if ids else np.zeros(self.dim, np.float32)
            cached = self._word_cache[word] = (total, len(ids))
        return cached

    # -- texts ----------------------------------------------------------------------------
    def embed(self, text: str) -> np.ndarray:
        """The unit vector of a text (zeros for a text without any known token)."""
        total, count = np.zeros(self.dim, np.float32), 0
        for word in text.split():
            vec, n = self._word(word)
            total = total + vec
            count += n
        return _unit(total / count) if count else total

    def embed_words(self, words: list[str]) -> np.ndarray:
        """Unit vectors of single words, one row each (the hot path: memoised per word)."""
        out = np.zeros((len(words), self.dim), np.float32)
        for i, word in enumerate(words):
            vec, n = self._word(word)
            if n:
                out[i] = _unit(vec / n)
        return out

    def embed_many(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self.embed(t) for t in texts])

    def similarity(self, a: str, b: str) -> float:
        return float(self.embed(a) @ self.embed(b))


def _pre_tokens(text: str) -> list[str]:
    """BERT's uncased normalisation and pre-tokenisation: lower case, accents stripped,
    split at white space and punctuation."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return _SPLIT.findall(text)


def _unit(vec: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vec))
    return vec / norm if norm > 0 else vec


@lru_cache(maxsize=1)
def text_model() -> TextModel:
    """The process's text model (read-only data shared by every workspace and KB)."""
    return TextModel.load()
