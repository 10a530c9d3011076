"""Turn a shipped ONNX model back into an ultralytics checkpoint, to fine-tune it (the ``train`` extra).

Only the ONNX files ship; training checkpoints do not. Ultralytics exports a
model with each convolution's batch norm folded into the convolution (weight
and bias), and keeps the parameter names. So the same architecture, built
from its yaml, takes the ONNX weights back: a folded convolution's weight
goes to the convolution, its bias to the batch norm's bias, and the batch
norm becomes the identity (scale 1, mean 0, variance 1 - eps). The rebuilt
model computes what the ONNX file computes, and training goes on from there.

But only in eval mode. Training normalises each batch norm's input by the
batch's own mean and spread, so an identity batch norm standardises every
layer and the model computes something else: the shipped classifier, so
rebuilt, started its fine-tunes at a loss of about 23 (about 0.3 once
trained). Given ``calibration`` inputs, each batch norm is set to undo what
it will do: its statistics are the convolution's outputs' mean and variance
over them, its scale their spread, its bias the folded bias plus their mean.
The model then computes the same in eval mode, and in training mode on
batches like the calibration ones.
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


def rebuild(path: Path, yaml: str, calibration=None):
    """The ultralytics model (``DetectionModel`` or ``ClassificationModel``) computing what ``path`` does;
    with ``calibration`` (an N x 3 x H x W float array of inputs like the training ones), in training
    mode too (the module's docstring)."""
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
    folded_norms = []
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
            folded_norms.append(bn)
    missing = [k for k in state if k not in new and not k.endswith("num_batches_tracked")
               and ".dfl." not in k]
    if missing:
        raise ValueError(f"{path.name}: no ONNX weight for {missing[:5]}")
    model.load_state_dict(new, strict=False)
    model = model.float().eval()
    if calibration is not None:
        calibrate(model, folded_norms, calibration)
    return model


def calibrate(model, norms: list[str], inputs) -> None:
    """Set each named batch norm (identity, but for its bias) of ``model`` so that it computes the same
    in training mode on batches like ``inputs`` as it does in eval mode: its running statistics the mean
    and variance of its convolution's outputs over ``inputs``, its scale their spread and its bias the
    folded bias plus their mean. Eval mode's output is unchanged (what the identity added, it adds)."""
    import torch

    modules = dict(model.named_modules())
    seen: dict[str, tuple] = {}
    hooks = [modules[bn[: -len("bn")] + "conv"].register_forward_hook(
        lambda _m, _i, out, bn=bn: seen.__setitem__(bn, (out.mean((0, 2, 3)), out.var((0, 2, 3), unbiased=False))))
        for bn in norms]
    try:
        with torch.no_grad():
            model(torch.as_tensor(inputs, dtype=torch.float32))
    finally:
        for h in hooks:
            h.remove()
    with torch.no_grad():
        for bn in norms:
            mean, var = seen[bn]
            norm = modules[bn]
            norm.running_mean.copy_(mean)
            norm.running_var.copy_(var)
            norm.weight.copy_(torch.sqrt(var + norm.eps))
            norm.bias.add_(mean)


def checkpoint(path: Path, yaml: str, out: Path, calibration=None) -> Path:
    """Write ``out``: an ultralytics checkpoint of the ONNX model ``path``, to train from (``calibration``:
    inputs like the training ones, so that it trains from what it computes: ``rebuild``)."""
    import torch

    model = rebuild(path, yaml, calibration)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"model": model, "train_args": {"task": model.task}, "epoch": -1, "optimizer": None, "ema": None},
               out)
    return out
