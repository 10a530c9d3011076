"""Training the box refiner (``vision/refine.py``) on rendered scenes (the ``train`` extra: torch).

    python -m vision refiner [--data data/ft] [--view oblique] [--epochs 6] [--into OUT.onnx]

The samples are the view's own locator's candidates (both passes, before
suppression) on the training scenes a ``python -m vision train --stage data``
run rendered, each paired with the tile it overlaps most: the refiner learns
the mistakes this locator makes, not made-up ones. Candidates meeting a tile
at IoU 0.25-0.75 (the misplaced ones) are most of them; some well placed
ones and some boxes shifted at random (mostly up and down) are added, so
that it also learns to leave a good box alone. The scenes are split by scene
into training and a twentieth held out, on which the IoU after refinement is
printed each epoch.

What trained the shipped ``models/oblique/tile-refiner.onnx`` (about 8 minutes
of sampling and 17 of training on a 2-core CPU): the default settings on
data/ft, the oblique, rim and a quarter of the overhead training scenes.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from ..evaluate import iou
from ..refine import context_cut, edge_deltas

HARD = (0.25, 0.75)       # candidates meeting a tile at IoU in this range: the boxes to mend
PER_SCENE_HARD = 24       # at most this many of them per scene
PER_SCENE_GOOD = 8        # and this many placed well (IoU >= 0.75): they must stay put
PER_SCENE_SHIFTED = 8     # and this many tiles' true boxes shifted at random
MAX_DELTA = 1.0           # targets clipped to a box's own size


@dataclass(frozen=True)
class Samples:
    """Refiner training samples: context cuts (N x 64 x 64 x 3 BGR), edge deltas (N x 4), the cut
    box's IoU with its tile, and the scene each came from (the held-out split is by scene)."""
    cuts: np.ndarray
    deltas: np.ndarray
    iou: np.ndarray
    scene: np.ndarray


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` (N x 4) with every box in ``b`` (M x 4)."""
    iw = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = iw * ih
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None, :] - inter + 1e-9)


def shifted(truth: Sequence[float], rng: random.Random) -> tuple[float, float, float, float]:
    """A tile's true box moved up or down by up to 45% of its height, sideways by up to 15% of its width,
    and resized by 0.8-1.2 (width) and 0.75-1.25 (height): the locator's typical misses, made."""
    x1, y1, x2, y2 = truth
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.uniform(-0.15, 0.15) * w
    cy = (y1 + y2) / 2 + rng.uniform(-0.45, 0.45) * h
    sw, sh = w * rng.uniform(0.8, 1.2) / 2, h * rng.uniform(0.75, 1.25) / 2
    return (cx - sw, cy - sh, cx + sw, cy + sh)


def pairs(candidates: np.ndarray, truth: np.ndarray, rng: random.Random) -> list[tuple[np.ndarray, np.ndarray]]:
    """(box to mend, its tile's true box) pairs from one scene's candidates and true boxes."""
    if len(truth) == 0:
        return []
    out = []
    if len(candidates):
        m = iou_matrix(candidates, truth)
        best, best_iou = m.argmax(axis=1), m.max(axis=1)
        hard = [k for k in range(len(candidates)) if HARD[0] <= best_iou[k] < HARD[1]]
        good = [k for k in range(len(candidates)) if best_iou[k] >= HARD[1]]
        chosen = rng.sample(hard, min(PER_SCENE_HARD, len(hard))) + rng.sample(good, min(PER_SCENE_GOOD, len(good)))
        out += [(candidates[k], truth[best[k]]) for k in chosen]
    for t in rng.sample(list(truth), min(PER_SCENE_SHIFTED, len(truth))):
        out.append((np.array(shifted(t, rng)), t))
    return out


def truth_files(data: Path, view: str = "oblique", overhead_share: int = 4) -> list[Path]:
    """The training scenes' truth files in ``data`` for a view's refiner: for ``oblique``, the oblique
    (seeds 3,000,000 up) and rim (4,000,000 up) scenes and every ``overhead_share``-th overhead one;
    for ``overhead``, every overhead scene (seeds below 1,000,000)."""
    folder = data / "truth" / "train"
    overhead = sorted(folder.glob("s0*.json"))
    if view == "overhead":
        return overhead
    return sorted(f for p in ("s3", "s4") for f in folder.glob(f"{p}*.json")) + overhead[::overhead_share]


def sample_scenes(detector, data: Path, files: Sequence[Path],
                  seed: int = 0) -> Iterator[tuple[np.ndarray, tuple, float, str]]:
    """(context cut, edge deltas, IoU, scene) for every sample of the given truth files, the
    candidates from ``detector``'s locator (both passes when it mirrors)."""
    import cv2

    rng = random.Random(seed)
    for f in files:
        truth = json.loads(f.read_text())
        image = cv2.imread(str(data / truth["image"]))
        if image is None:
            raise FileNotFoundError(f"{data / truth['image']}: the scene's image is missing")
        true_boxes = np.array([t["box"] for t in truth["tiles"]], float).reshape(-1, 4)
        boxes, _ = detector.candidates(image)
        boxes = boxes[(boxes[:, 2] - boxes[:, 0] > 4) & (boxes[:, 3] - boxes[:, 1] > 4)]
        for box, tile in pairs(boxes, true_boxes, rng):
            d = np.clip(edge_deltas(box, tile), -MAX_DELTA, MAX_DELTA)
            yield context_cut(image, box), tuple(d), iou(box, tile), f.stem


def collect(detector, data: Path, files: Sequence[Path], seed: int = 0) -> Samples:
    rows = list(sample_scenes(detector, data, files, seed))
    if not rows:
        raise ValueError(f"{data}: no training scenes to sample (run python -m vision train --stage data)")
    cuts, deltas, ious, scenes = zip(*rows)
    return Samples(np.stack(cuts), np.array(deltas, np.float32), np.array(ious, np.float32), np.array(scenes))


def network():
    """The refiner: five 3x3 conv layers (batch norm, ReLU), four poolings to 4x4, two dense layers -> 4."""
    import torch.nn as nn

    def conv(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    return nn.Sequential(*conv(3, 32), nn.MaxPool2d(2), *conv(32, 48), nn.MaxPool2d(2), *conv(48, 64),
                         *conv(64, 64), nn.MaxPool2d(2), *conv(64, 96), nn.MaxPool2d(2), nn.Flatten(),
                         nn.Linear(96 * 16, 128), nn.ReLU(inplace=True), nn.Linear(128, 4))


def iou_after(predicted: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The IoU of each refined box with its tile, both given as edge deltas (N x 4) of the same box."""
    refined, truth = predicted + [0.0, 0.0, 1.0, 1.0], target + [0.0, 0.0, 1.0, 1.0]
    iw = np.clip(np.minimum(refined[:, 2], truth[:, 2]) - np.maximum(refined[:, 0], truth[:, 0]), 0, None)
    ih = np.clip(np.minimum(refined[:, 3], truth[:, 3]) - np.maximum(refined[:, 1], truth[:, 1]), 0, None)
    inter = iw * ih
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])  # noqa: E731
    return inter / (area(refined) + area(truth) - inter + 1e-9)


def fit(samples: Samples, into: Path, epochs: int = 6, batch: int = 128, seed: int = 0,
        log=print) -> Path:
    """Train the refiner on ``samples`` (a twentieth of the scenes held out) and export it to ONNX."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    scenes = np.unique(samples.scene)
    held = set(np.random.default_rng(seed).choice(scenes, max(1, len(scenes) // 20), replace=False))
    is_val = np.array([s in held for s in samples.scene])
    if is_val.all():
        is_val[:] = False
    xt, yt = torch.from_numpy(samples.cuts[~is_val]), torch.from_numpy(samples.deltas[~is_val])
    xv, yv = torch.from_numpy(samples.cuts[is_val]), samples.deltas[is_val]
    model = network()

    def prep(x):  # BGR uint8 NHWC -> RGB float NCHW, as vision.runtime.blob
        return x.flip(-1).permute(0, 3, 1, 2).float() / 255.0

    steps = max(1, epochs * (len(xt) // batch))
    opt = torch.optim.AdamW(model.parameters(), 2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    for epoch in range(epochs):
        model.train()
        order, total = torch.randperm(len(xt)), 0.0
        for k in range(0, max(1, len(xt) - batch + 1), batch):
            i = order[k:k + batch]
            x = prep(xt[i])
            # lighting: the photo's tiles are brighter and flatter than most renders
            x = (x * torch.empty(len(x), 1, 1, 1).uniform_(0.7, 1.3) + torch.empty(len(x), 1, 1, 1).uniform_(-0.1, 0.1))
            loss = F.smooth_l1_loss(model(x.clamp(0, 1)), yt[i], beta=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch < steps - 1:
                sched.step()
            total += loss.item()
        if len(xv):
            model.eval()
            with torch.no_grad():
                p = torch.cat([model(prep(xv[k:k + 512])) for k in range(0, len(xv), 512)]).numpy()
            before, after = samples.iou[is_val], iou_after(p, yv)
            log(f"epoch {epoch}: loss {total / max(1, len(xt) // batch):.4f}; held-out boxes at IoU >= 0.5 "
                f"{(before >= 0.5).mean():.1%} -> {(after >= 0.5).mean():.1%}, >= 0.7 "
                f"{(before >= 0.7).mean():.1%} -> {(after >= 0.7).mean():.1%}")
    model.eval()
    into.parent.mkdir(parents=True, exist_ok=True)
    from ..refine import REF_SIZE

    torch.onnx.export(model, torch.zeros(1, 3, REF_SIZE, REF_SIZE), str(into), input_names=["images"],
                      output_names=["deltas"], dynamic_axes={"images": {0: "n"}, "deltas": {0: "n"}},
                      opset_version=17, dynamo=False)
    return into
