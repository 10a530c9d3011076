"""Box refinement: a small network moves each located box's four edges onto its tile (onnxruntime).

Seen from beside the table, a tile's face and the strip of body below it look
alike, and in a row the locator often puts a box half a face too low or too
high: its left and right edges are right, the top and bottom are not, and the
classifier then reads part of a tile (the bottom of a 9s reads 6s). Among the
locator's own candidates a better box is often there, but it scores lower and
loses the suppression.

The refiner sees the box with context around it (``context_cut``: a quarter of
the box's width on each side, half its height above and below) and says how
far each edge should move, as a fraction of the box's size (``edge_deltas``).
It learnt that from the locator's candidates on rendered scenes, where the
true box is known (``vision/build/refine_train.py``).

It learnt rendered tiles only. On the real photo, moving every box lowers the
count (the refiner takes the near-top-down tiles' thin body strip for face),
so the detector keeps a moved box only where the classifier reads it as a
tile more surely than the box it came from (``detect.REFINE_MARGIN``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .runtime import blob, session

REF_SIZE = 64            # the refiner's input: a square cut, this many pixels a side
CONTEXT_X = 0.25         # the cut's margin beside the box, as a fraction of its width
CONTEXT_Y = 0.5          # ... above and below it, as a fraction of its height (the shifts are vertical)
MAX_SHRINK = 0.5         # a moved box narrower or shorter than this share of the first is not believed

Box = tuple[float, float, float, float]


def context_cut(image: np.ndarray, box: Sequence[float], size: int = REF_SIZE) -> np.ndarray:
    """The refiner's square BGR input for one box: the box and its context, squashed to ``size``;
    beyond the image's edge the border pixels repeat. The same cut in training and at run time."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = max(x2 - x1, 1.0), max(y2 - y1, 1.0)
    rx, ry = x1 - CONTEXT_X * w, y1 - CONTEXT_Y * h
    rw, rh = w * (1 + 2 * CONTEXT_X), h * (1 + 2 * CONTEXT_Y)
    to_cut = np.array([[size / rw, 0, -rx * size / rw], [0, size / rh, -ry * size / rh]], np.float32)
    shrink = rw > size or rh > size
    return cv2.warpAffine(image, to_cut, (size, size), flags=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def edge_deltas(box: Sequence[float], truth: Sequence[float]) -> tuple[float, float, float, float]:
    """How far each edge of ``box`` lies from ``truth``'s (left, top, right, bottom), as a fraction of
    the box's width (left, right) or height (top, bottom): what the refiner learns to say."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    return ((truth[0] - x1) / w, (truth[1] - y1) / h, (truth[2] - x2) / w, (truth[3] - y2) / h)


def moved(box: Sequence[float], deltas: Sequence[float]) -> Box:
    """``box`` with its edges moved by ``deltas`` (the inverse of ``edge_deltas``)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    return (x1 + float(deltas[0]) * w, y1 + float(deltas[1]) * h, x2 + float(deltas[2]) * w, y2 + float(deltas[3]) * h)


class Refiner:
    """The refiner's ONNX session, loaded once. ``refine(image, boxes)`` returns the moved boxes."""

    def __init__(self, path: Path, threads: int = 2):
        self.session = session(Path(path), threads)
        self.input = self.session.get_inputs()[0].name

    def refine(self, image: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[Box]:
        """Each box moved onto its tile, clipped to the image; a box the refiner would shrink below
        ``MAX_SHRINK`` of its size (no tile it knows there) stays where it was."""
        if not len(boxes):
            return []
        deltas = self.session.run(None, {self.input: blob([context_cut(image, b) for b in boxes])})[0]
        h, w = image.shape[:2]
        return [believed(box, d, (w, h)) for box, d in zip(boxes, deltas)]


def believed(box: Sequence[float], deltas: Sequence[float], size: tuple[int, int]) -> Box:
    """``box`` moved by the refiner's ``deltas`` and clipped to an image of ``size`` (w, h); where that
    leaves it narrower or shorter than ``MAX_SHRINK`` of what it was (no tile the refiner knows is
    there, or it moved off the image), the box as it was."""
    x1, y1, x2, y2 = moved(box, deltas)
    x1, y1, x2, y2 = max(0.0, x1), max(0.0, y1), min(float(size[0]), x2), min(float(size[1]), y2)
    if x2 - x1 < MAX_SHRINK * (box[2] - box[0]) or y2 - y1 < MAX_SHRINK * (box[3] - box[1]):
        return tuple(float(v) for v in box)
    return (x1, y1, x2, y2)
