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

import json
import math
import os
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np

MODEL_DIR = Path(__file__).resolve().parent / "data" / "textmodel"
_SPLIT = re.compile(r"\w+|[^\w\s]", re.UNICODE)
_MAX_WORD_CHARS = 100
TEXT_CACHE = 20_000  # memoised text vectors (≈ 20 MB at most)


class TextModel:
    """Static token vectors, WordPiece tokenisation (BERT uncased rules), mean pooling."""

    def __init__(self, vocab: list[str], vectors: np.ndarray):
        self.vocab = {token: i for i, token in enumerate(vocab)}
        self.vectors = vectors.astype(np.float32)
        self.dim = int(vectors.shape[1])
        self._unk = self.vocab.get("[UNK]")
        self._word_cache: dict[str, tuple[np.ndarray, int]] = {}
        self._unit_cache: dict[str, np.ndarray] = {}
        self._text_cache: dict[str, np.ndarray] = {}

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

    def _word(self, word: str) -> tuple[np.ndarray, int]:
        """Sum of a word's token vectors and how many tokens (memoised)."""
        cached = self._word_cache.get(word)
        if cached is None:
            ids = [i for w in _pre_tokens(word) for i in wordpiece(w, self.vocab, self._unk)]
            total = self.vectors[ids].sum(axis=0) if ids else np.zeros(self.dim, np.float32)
            cached = self._word_cache[word] = (total, len(ids))
        return cached

    # -- texts ----------------------------------------------------------------------------
    def embed(self, text: str) -> np.ndarray:
        """The unit vector of a text (zeros for a text without any known token). Memoised,
        up to TEXT_CACHE texts: node labels recur from question to question (what a hop
        reaches is read from its nodes' names)."""
        vec = self._text_cache.get(text)
        if vec is None:
            total, count = np.zeros(self.dim, np.float32), 0
            for word in text.split():
                part, n = self._word(word)
                total = total + part
                count += n
            vec = _unit(total / count) if count else total
            vec.flags.writeable = False  # shared: a caller that changed it would change all
            if len(self._text_cache) >= TEXT_CACHE:
                self._text_cache.clear()
            self._text_cache[text] = vec
        return vec

    def embed_words(self, words: list[str]) -> np.ndarray:
        """Unit vectors of single words, one row each (the hot path: memoised per word)."""
        out = np.zeros((len(words), self.dim), np.float32)
        for i, word in enumerate(words):
            unit = self._unit_cache.get(word)
            if unit is None:
                vec, n = self._word(word)
                unit = _unit(vec / n) if n else np.zeros(self.dim, np.float32)
                self._unit_cache[word] = unit
            out[i] = unit
        return out

    def embed_many(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self.embed(t) for t in texts])

    def similarity(self, a: str, b: str) -> float:
        return float(self.embed(a) @ self.embed(b))


def wordpiece(word: str, vocab: dict[str, int], unk: int | None) -> list[int]:
    """WordPiece ids of one pre-tokenised word (BERT's rules: greedy longest match, "##"
    continuations, [UNK] for a word it cannot split or one longer than 100 characters)."""
    if len(word) > _MAX_WORD_CHARS:
        return [] if unk is None else [unk]
    ids, start = [], 0
    while start < len(word):
        end, found = len(word), None
        while start < end:
            piece = word[start:end] if start == 0 else "##" + word[start:end]
            if piece in vocab:
                found = vocab[piece]
                break
            end -= 1
        if found is None:
            return [] if unk is None else [unk]
        ids.append(found)
        start = end
    return ids


def _pre_tokens(text: str) -> list[str]:
    """BERT's uncased normalisation and pre-tokenisation: lower case, accents stripped,
    split at white space and punctuation."""
    text = unicodedata.normalize("NFD", text.lower())
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
    return _SPLIT.findall(text)


def norm(vec: np.ndarray) -> float:
    """The length of one vector (what `np.linalg.norm` computes, without its checks, which
    cost more than the sum on the hot path's short vectors)."""
    return math.sqrt(float(vec @ vec))


def _unit(vec: np.ndarray) -> np.ndarray:
    length = norm(vec)
    return vec / length if length > 0 else vec


@lru_cache(maxsize=1)
def text_model() -> TextModel:
    """The process's text model (read-only data shared by every workspace and KB)."""
    return TextModel.load()


# -- the contextual encoder -------------------------------------------------------------------
SENTENCE_DIR = Path(__file__).resolve().parent / "data" / "minilm"
CACHE_TEXTS = 50_000  # memoised sentence vectors (≈ 77 MB at most)


class SentenceModel:
    """all-MiniLM-L6-v2 itself (int8 weights, float32 at run time): reads a phrase in context
    ("tie the knot with", "passed on"), which static word vectors cannot. Its six transformer
    layers run in ONNX Runtime where it is installed (`OrtLayers`, about twice as fast) and
    in numpy otherwise, on the same weights. Slower than `TextModel` (milliseconds per short
    text), so callers embed whole phrases (a question, a verbalised path) once and cache them."""

    def __init__(self, vocab: list[str], weights: dict[str, np.ndarray], config: dict,
                 backend: str = "auto"):  # fmt: skip
        self.vocab = {token: i for i, token in enumerate(vocab)}
        self.w = weights
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        self.dim = int(config["hidden_size"])
        self._cls, self._sep = self.vocab["[CLS]"], self.vocab["[SEP]"]
        self._unk = self.vocab.get("[UNK]")
        self._cache: dict[str, np.ndarray] = {}
        self.layers_run = None if backend == "numpy" else OrtLayers.open(weights, backend == "onnx")
        self.backend = "onnxruntime" if self.layers_run is not None else "numpy"

    @classmethod
    def load(cls, directory: Path = SENTENCE_DIR, backend: str = "auto") -> SentenceModel:
        """`backend`: "auto" (ONNX Runtime where installed, else numpy), "onnx" or "numpy"."""
        vocab = (directory / "vocab.txt").read_text(encoding="utf-8").splitlines()
        weights: dict[str, np.ndarray] = {}
        with np.load(directory / "weights.npz") as data:
            for name in data.files:
                if name.endswith(".scale"):
                    continue
                value = data[name].astype(np.float32)
                if name + ".scale" in data.files:  # int8 rows, one scale each
                    value = value * data[name + ".scale"][:, None]
                    if "word_embeddings" not in name:
                        value = value.T.copy()  # a Linear is stored (out, in)
                weights[name.removeprefix("bert.")] = value
        config = json.loads((directory / "config.json").read_text())
        return cls(vocab, weights, config, backend)

    def ids(self, text: str, limit: int = 64) -> list[int]:
        pieces = [i for w in _pre_tokens(text) for i in wordpiece(w, self.vocab, self._unk)]
        return [self._cls, *pieces[: limit - 2], self._sep]

    def encode(self, texts: list[str]) -> np.ndarray:
        """Unit sentence vectors (mean of the last layer over the tokens), one row per text;
        memoised per text."""
        todo = list(dict.fromkeys(t for t in texts if t not in self._cache))
        if len(self._cache) + len(todo) > CACHE_TEXTS:  # a long-running app: start afresh
            self._cache.clear()
            todo = list(dict.fromkeys(texts))
        for start in range(0, len(todo), 64):  # batches of similar length pad little
            batch = sorted(todo[start : start + 64], key=len)
            for text, vec in zip(batch, self._forward([self.ids(t) for t in batch]), strict=True):
                self._cache[text] = vec
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return np.stack([self._cache[t] for t in texts])

    def _forward(self, batch: list[list[int]]) -> np.ndarray:
        w, n, length = self.w, len(batch), max(len(b) for b in batch)
        ids = np.zeros((n, length), np.int64)
        mask = np.zeros((n, length), np.float32)
        for i, b in enumerate(batch):
            ids[i, : len(b)] = b
            mask[i, : len(b)] = 1.0
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0])  # fmt: skip
        x = self._norm(x, "embeddings.LayerNorm")
        bias = (1.0 - mask)[:, None, None, :] * np.float32(-1e9)
        if self.layers_run is not None:
            x = self.layers_run(x, bias)
        else:
            x = self._layers(x, bias)
        pooled = (x * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-9)

    def _layers(self, x: np.ndarray, bias: np.ndarray) -> np.ndarray:
        """The transformer layers in numpy (what `layers.onnx` computes, op for op)."""
        n, length = x.shape[:2]
        h, d = self.heads, self.dim // self.heads
        scale = np.float32(1.0 / np.sqrt(d))  # a float64 scalar would turn every layer float64
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            q, k, v = (
                self._linear(x, p + f"attention.self.{name}")
                .reshape(n, length, h, d)
                .transpose(0, 2, 1, 3)
                for name in ("query", "key", "value")
            )
            att = (q @ k.transpose(0, 1, 3, 2)) * scale + bias
            att = np.exp(att - att.max(axis=-1, keepdims=True))
            att /= att.sum(axis=-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(n, length, self.dim)
            x = self._norm(x + self._linear(ctx, p + "attention.output.dense"),
                           p + "attention.output.LayerNorm")  # fmt: skip
            mid = self._linear(x, p + "intermediate.dense")
            cube = mid * mid * mid  # `mid**3` goes through a generic pow, ~200x slower
            mid = 0.5 * mid * (1.0 + np.tanh(0.7978845608 * (mid + 0.044715 * cube)))
            x = self._norm(x + self._linear(mid, p + "output.dense"), p + "output.LayerNorm")
        return x

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        """One 2-D matrix product (a 3-D `@` runs one small product per text, ~10x slower)."""
        weight = self.w[name + ".weight"]
        flat = x.reshape(-1, x.shape[-1]) @ weight + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], weight.shape[1])

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        return (x - mean) / np.sqrt(var + self.eps) * self.w[name + ".weight"] + self.w[
            name + ".bias"]  # fmt: skip


class OrtLayers:
    """The transformer layers run by ONNX Runtime from `layers.onnx` (made by
    `scripts/build_context_model.py --graph`): a graph without weights, whose initializers are
    handed the float32 arrays the numpy layers use, so both agree to float rounding. Faster
    on short texts (its kernels pack the weight matrices once); threads do not spin between
    runs, which would starve the planner's Python on a small machine."""

    def __init__(self, session, values: list):
        self.session = session
        self._values = values  # the session's weights: numpy arrays it reads in place

    @classmethod
    def open(cls, weights: dict[str, np.ndarray], required: bool = False) -> OrtLayers | None:
        """The runner, or None where onnxruntime or the graph is missing or will not load
        (`required`: raise instead)."""
        try:
            import onnxruntime as ort

            opts = ort.SessionOptions()
            opts.inter_op_num_threads = 1
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            names = [k for k in weights if k.startswith("encoder.")]
            values = [ort.OrtValue.ortvalue_from_numpy(weights[k]) for k in names]
            opts.add_external_initializers(names, values)
            session = ort.InferenceSession(LAYERS_GRAPH.read_bytes(), opts,
                                           providers=["CPUExecutionProvider"])  # fmt: skip
        except Exception:  # no onnxruntime, no graph, or a runtime that cannot run it
            if required:
                raise
            return None
        return cls(session, values)

    def __call__(self, x: np.ndarray, bias: np.ndarray) -> np.ndarray:
        feeds = {"x": np.ascontiguousarray(x, np.float32),
                 "bias": np.ascontiguousarray(bias, np.float32)}  # fmt: skip
        return self.session.run(None, feeds)[0]


LAYERS_GRAPH = SENTENCE_DIR / "layers.onnx"


@lru_cache(maxsize=1)
def sentence_model() -> SentenceModel:
    """The process's sentence encoder (read-only weights shared by every KB); where its layers
    run: `$KNOWLOOP_ENCODER` (auto, onnx or numpy; default auto)."""
    return SentenceModel.load(backend=os.environ.get("KNOWLOOP_ENCODER", "auto"))
