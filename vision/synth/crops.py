"""Crops cut from rendered scenes.

``upright_crop`` cuts a face out by its true corners (a check on the renderer's
truth). ``classifier_samples`` cuts what the classifier sees at run time: the
locator's box (here the true box, its edges jittered as a locator's would be)
through ``vision.crop.cut_tile``, labelled with the class and whether the cut
shows the face upside down, plus ``none`` cuts of felt, clutter and boxes
straddling two tiles, so that a stray box can be refused.
"""

from __future__ import annotations

import cv2
import numpy as np

from ..boxes import inside_share
from ..classes import BACK
from ..crop import cut_tile, upside_down
from ..detect import FLIP_SUFFIX, NONE
from .console import near
from .scene import Scene

CROP_W, CROP_H = 48, 64


def upright_crop(image: np.ndarray, face, size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """Warp a face to an upright ``size`` crop.

    ``face`` lists the face's corners in the face's own order (its top-left,
    top-right, bottom-right, bottom-left, wherever they lie in the image), so the
    crop comes out upright whatever the tile's rotation on the table.
    """
    w, h = size
    quad = np.asarray(face, np.float32).reshape(4, 2)
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(quad, dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def sample_label(cls: str, rotation: int) -> str:
    """The classifier's label for a tile's cut (turned portrait): its class, ``_ud`` when upside down."""
    if cls == BACK:
        return BACK
    return cls + FLIP_SUFFIX if upside_down(rotation, rotation in (90, 270)) else cls


def _jitter(rng: np.random.Generator, box, spread: float) -> tuple[float, ...]:
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    d = rng.normal(0, spread, 4) * (w, h, w, h)
    return (x1 + d[0], y1 + d[1], x2 + d[2], y2 + d[3])


def classifier_samples(scene: Scene, rng: np.random.Generator, spread: float = 0.04,
                       n_none: int = 4, quarter_none: float = 0.12) -> list[tuple[str, np.ndarray]]:
    """(label, square crop) for every tile of the scene, and refusals: ``n_none`` boxes off the tiles,
    and for a share ``quarter_none`` of the faces the cut turned the wrong way (a quarter off)."""
    out = []
    boxes = [t.box for t in scene.tiles]
    for t in scene.tiles:
        box = _jitter(rng, t.box, spread)
        turned = t.rotation in (90, 270)        # the truth decides, not the box (nearly square boxes exist)
        out.append((sample_label(t.cls, t.rotation), cut_tile(scene.image, box, turn=turned)))
        if t.cls != BACK and rng.random() < quarter_none:
            out.append((NONE, cut_tile(scene.image, box, turn=not turned)))
    h, w = scene.image.shape[:2]
    placed = 0
    for _ in range(n_none * 10):
        if placed >= n_none or not boxes:
            break
        ref = boxes[int(rng.integers(len(boxes)))]
        bw, bh = ref[2] - ref[0], ref[3] - ref[1]
        if rng.random() < 0.5:      # a box straddling a tile and its neighbour, or off its edge
            shift = float(rng.choice([-1, 1]) * rng.uniform(0.45, 0.6))
            dx, dy = (shift * bw, 0.0) if rng.random() < 0.5 else (0.0, shift * bh)
            box = (ref[0] + dx, ref[1] + dy, ref[2] + dx, ref[3] + dy)
            if max(inside_share(box, b) for b in boxes) > 0.6:
                continue
        else:                       # felt, sticks, chips
            x, y = rng.uniform(0, w - bw), rng.uniform(0, h - bh)
            box = (x, y, x + bw, y + bh)
            if max(inside_share(box, b) for b in boxes) > 0.15:
                continue
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h:
            continue
        out.append((NONE, cut_tile(scene.image, box)))
        placed += 1
    if scene.console is not None and boxes:
        out += _console_cuts(scene, boxes, rng, n_none)
    return out


def _console_cuts(scene: Scene, boxes, rng: np.random.Generator, n: int) -> list[tuple[str, np.ndarray]]:
    """``n`` tile-sized boxes on a seat view's console (rail, display, stick tray): no tile, however
    much a highlight or a row of white sticks looks like one."""
    h, w = scene.image.shape[:2]
    out = []
    for _ in range(n * 5):
        if len(out) >= n:
            break
        if rng.random() < 0.5:      # a tile of the scene's size, or one lying by the console
            ref = boxes[int(rng.integers(len(boxes)))]
            bw, bh = (ref[2] - ref[0]) * rng.uniform(0.7, 1.4), (ref[3] - ref[1]) * rng.uniform(0.7, 1.4)
        else:
            bw = near(rng, h)
            bh = bw * rng.uniform(0.6, 1.6)
        x = rng.uniform(0, w - bw)
        top = float(scene.console[int(x):int(x + bw) + 1].max())
        if top + bh >= h:
            continue
        y = rng.uniform(top, h - bh)
        out.append((NONE, cut_tile(scene.image, (x, y, x + bw, y + bh))))
    return out
