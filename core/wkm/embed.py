"""State summaries and task patterns as vectors: the engine's one text model.

The World Knowledge Model compares states by meaning with the same embedder as question
analysis (core.textmodel, static MiniLM vectors, numpy only), so a learned "who is the father
of [E]" steers "who is [E]'s dad" too. Function words are left out before embedding, so two
summaries are alike by what they ask and which path they walked, not by their grammar.

Vectors are stored with the knowledge (DuckDB, `FLOAT[DIM]`); `EMBEDDER` names the model that
made them, and a store made with another one is re-embedded from its summaries once
(core.wkm.store).
"""

from __future__ import annotations

import numpy as np

from core.text import STOPWORDS, tokens
from core.textmodel import text_model

DIM = 256
EMBEDDER = "minilm-static-256-v1"  # changes whenever embeddings are not comparable any more


def embed(text: str) -> np.ndarray:
    """The unit vector of `text` (all zeros for text without any known word)."""
    model = text_model()
    if model.dim != DIM:
        raise ValueError(f"the text model has {model.dim} dimensions; the store keeps {DIM}")
    words = [w for w in tokens(text) if w not in STOPWORDS and w != "e"]
    return model.embed(" ".join(words)) if words else np.zeros(DIM, np.float32)


def embed_many(texts: list[str]) -> np.ndarray:
    if not texts:
        return np.zeros((0, DIM), dtype=np.float32)
    return np.stack([embed(t) for t in texts])
