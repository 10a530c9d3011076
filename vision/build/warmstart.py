"""Turn a shipped ONNX model back into an ultralytics checkpoint, to fine-tune it (the ``train`` extra).

Only the ONNX files ship; training checkpoints do not. Ultralytics exports a
model with each convolution's batch norm folded into the convolution (weight
and bias), and keeps the parameter names. So the same architecture, built
from its yaml, takes the ONNX weights back: a folded convolution's weight
goes to the convolution, its bias to the batch norm's bias, and the batch
norm becomes the identity (scale 1, mean 0, variance 1 - eps). The rebuilt
model computes what the ONNX file computes, and training goes on from there.
"""

from __future__ import annotations

import ast
from pathlib import Path


def onnx_weights(path: Path) -> tuple[dict, dict]:
    """The ONNX file's initialisers by name (NumPy arrays) and its metadata."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    return weights, {p.key: p.value for p in model.metadata_props}


def rebuild(path: Path, yaml: str):
    """The ultralytics model (``DetectionModel`` or ``ClassificationModel``) computing what ``path`` does."""
    import torch
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel

    weights, meta = onnx_weights(path)
    names = ast.literal_eval(meta["names"])
    kind = ClassificationModel if meta.get("task") == "classify" else DetectionModel
    model = kind(yaml, nc=len(names), verbose=False)
    model.names = names
    model.task = "classify" if kind is ClassificationModel else "detect"   # ultralytics picks its trainer by it
    state = model.state_dict()
    modules = dict(model.named_modules())
    new = {}
    for name, value in weights.items():
        t = torch.from_numpy(value.copy())
        folded = name.endswith(".conv.bias") and name not in state
        target = name[: -len(".conv.bias")] + ".bn.bias" if folded else name
        if target not in state:
            continue                                   # a constant of the graph, not a parameter
        if state[target].shape != t.shape:
            raise ValueError(f"{path.name} does not fit {yaml}: {name} is {tuple(t.shape)} in the ONNX "
                             f"file, {tuple(state[target].shape)} in the model")
        new[target] = t
        if folded:                                     # the folded batch norm: its bias, the rest identity
            bn = target[: -len(".bias")]
            eps = modules[bn].eps
            new[bn + ".weight"] = torch.ones_like(t)
            new[bn + ".running_mean"] = torch.zeros_like(t)
            new[bn + ".running_var"] = torch.full_like(t, 1 - eps)
    missing = [k for k in state if k not in new and not k.endswith("num_batches_tracked")
               and ".dfl." not in k]
    if missing:
        raise ValueError(f"{path.name}: no ONNX weight for {missing[:5]}")
    model.load_state_dict(new, strict=False)
    return model.float().eval()


def checkpoint(path: Path, yaml: str, out: Path) -> Path:
    """Write ``out``: an ultralytics checkpoint of the ONNX model ``path``, to train from."""
    import torch

    model = rebuild(path, yaml)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"task": model.task}, "epoch": -1, "optimizer": None, "ema": None},
               out)
    return out
