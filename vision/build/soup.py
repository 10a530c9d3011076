"""A weight soup: the mean of several fine-tunes of one model, exported to ONNX (the ``train`` extra).

    python -m vision soup --into models/oblique/tile-locator.onnx A.pt B.pt [...]

Fine-tunes that start from the same checkpoint stay close to it in weight
space, so the parameter-wise mean of their weights is a model too, often
better than each (it behaves like an ensemble at the cost of one model).
The ingredients must share the architecture *and* their starting point: a
model fine-tuned from a warm start (``vision/warmstart.py``: batch norms as
identities) and one trained from its yaml hold the same names in different
parametrisations, and their mean is no model. Averaging exported ONNX files
instead (batch norms folded in) was measured worse: models/README.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence


def _is_float(v: Any) -> bool:
    test = getattr(v, "is_floating_point", None)   # a torch tensor
    return test() if callable(test) else getattr(v, "dtype", None) is not None and v.dtype.kind == "f"


def average(states: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The uniform mean of each floating-point entry of same-named state dicts; other entries
    (counters such as a batch norm's ``num_batches_tracked``) are taken from the first."""
    if not states:
        raise ValueError("a soup needs at least one state dict")
    names = states[0].keys()
    for i, s in enumerate(states[1:], 1):
        if s.keys() != names:
            raise ValueError(f"ingredient {i} holds other weights than ingredient 0: not the same architecture")
        for k, v in s.items():
            if getattr(v, "shape", None) != getattr(states[0][k], "shape", None):
                raise ValueError(f"ingredient {i}: {k} has another shape than in ingredient 0")
    n = len(states)
    return {k: sum(s[k] for s in states) / n if _is_float(v) else v for k, v in states[0].items()}


def soup(checkpoints: Sequence[Path], into: Path) -> Path:
    """Average ultralytics checkpoints (``.pt``) and export the mean to ONNX at ``into``: a locator at its
    trained input size, a classifier at the cut size with a dynamic batch, as ``vision.train`` does."""
    import torch
    from ultralytics import YOLO

    from ..crop import CLS_SIZE
    from .train import CPU_PLAN, export

    loaded = []
    for path in checkpoints:
        ckpt = torch.load(str(path), map_location="cpu", weights_only=False)
        loaded.append((ckpt, (ckpt.get("ema") or ckpt["model"]).float()))
    first, model = loaded[0]
    model.load_state_dict(average([m.state_dict() for _, m in loaded]))
    pt = into.with_suffix(".soup.pt")
    pt.parent.mkdir(parents=True, exist_ok=True)
    torch.save({**first, "model": model, "ema": None, "optimizer": None}, str(pt))
    try:
        task = YOLO(str(pt)).task
        # a warm start's checkpoint names no input size: the first ingredient trained at one gives it
        sizes = [(c.get("train_args") or {}).get("imgsz") for c, _ in loaded]
        imgsz = CLS_SIZE if task == "classify" else next((s for s in sizes if s), CPU_PLAN.locator_imgsz)
        return export(pt, into, imgsz, dynamic=task == "classify")
    finally:
        pt.unlink(missing_ok=True)
        pt.with_suffix(".onnx").unlink(missing_ok=True)
