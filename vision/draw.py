"""The detector's debugging image: every box with its class, rotation and score."""

from __future__ import annotations

import cv2
import numpy as np

from .classes import BACK


def draw_detections(image: np.ndarray, detections) -> np.ndarray:
    """A copy of ``image`` with each detection drawn: red fives red, backs grey, other faces green."""
    out = image.copy()
    scale = max(0.4, out.shape[1] / 1600)
    thick = max(1, int(round(scale * 1.5)))
    for d in detections:
        x1, y1, x2, y2 = (int(round(v)) for v in d.box)
        colour = (0, 0, 255) if d.tile.startswith("0") else (128, 128, 128) if d.tile == BACK else (0, 170, 0)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        label = d.tile if d.tile == BACK else f"{d.tile} {d.rotation}"
        cv2.putText(out, label, (x1, max(12, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale, colour, thick,
                    cv2.LINE_AA)
    return out
