"""A located tile cut out for the classifier: the same cut in training and at run time.

The locator gives an axis-aligned box around the tile (its face and the strip
of body the camera sees). The cut is that box, turned a quarter clockwise when
it lies sideways (wider than tall), so that every crop stands portrait; a
nearly square box (a tile's body strip seen aslant) is cut both ways and the
classifier's surer reading wins, since it learnt a quarter-turned tile as ``none``; it is
then squashed to a square ``CLS_SIZE`` input. What is left for the classifier
is which kind the face shows and whether it stands upright or upside down.

Rotation bookkeeping (clockwise turn of the face's top in the image):

    portrait box:  rotation 0 -> upright, 180 -> upside down
    sideways box:  rotation 270 -> upright after the turn, 90 -> upside down
"""

from __future__ import annotations

import cv2
import numpy as np

CLS_SIZE = 64
MARGIN = 0.04         # of a box added on each side of its cut: a located tile is read with a little of its surroundings
GREY = (114, 114, 114)  # what a crop given alone is set in (``with_margin``): the letterbox grey, no table's colour
AMBIGUOUS = 1.25      # a box less elongated than this may hold an upright or a sideways tile


def is_sideways(box) -> bool:
    x1, y1, x2, y2 = box
    return (x2 - x1) > (y2 - y1)


def is_ambiguous(box) -> bool:
    """Nearly square: the tile's body strip, seen aslant, can make an upright tile's box as wide as tall."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    return max(w, h) < AMBIGUOUS * min(w, h)


def cut_tile(image: np.ndarray, box, margin: float = MARGIN, size: int = CLS_SIZE,
             turn: bool | None = None) -> np.ndarray:
    """The classifier's square BGR input for one box (``margin``: a fraction of the box added on each side).

    ``turn`` says whether to turn the cut a quarter clockwise; by default the
    box's shape decides (sideways boxes are turned)."""
    return cv2.resize(cut_box(image, box, margin, turn), (size, size), interpolation=cv2.INTER_AREA)


def upright_cut(image: np.ndarray, box, rotation: int, margin: float = MARGIN, size: int | None = None) -> np.ndarray:
    """One tile at ``rotation`` cut upright: a tile lying sideways (rotation 90 or 270) turned a quarter
    clockwise, then a half turn when the face shows upside down; at the image's own resolution, or
    squashed to ``size`` square. What a table's tile set enrols and learns from. The rotation, not the
    box's shape, says whether to turn: a nearly square box (``is_ambiguous``) may hold either way."""
    turned = rotation % 180 == 90
    cut = cut_box(image, box, margin, turn=turned)
    if upside_down(rotation, turned):
        cut = cv2.rotate(cut, cv2.ROTATE_180)
    return np.ascontiguousarray(cut) if size is None else cv2.resize(cut, (size, size), interpolation=cv2.INTER_AREA)


def cut_box(image: np.ndarray, box, margin: float = MARGIN, turn: bool | None = None) -> np.ndarray:
    """The box with ``margin`` of it added on each side, turned portrait (``turn``: see ``cut_tile``);
    ``ValueError`` for a box that holds no pixels of the image."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = (float(v) for v in box)
    mx, my = (x2 - x1) * margin, (y2 - y1) * margin
    a, b = max(0, int(round(x1 - mx))), max(0, int(round(y1 - my)))
    c, d = min(w, int(round(x2 + mx))), min(h, int(round(y2 + my)))
    if c - a < 2 or d - b < 2:
        raise ValueError(f"box {box} holds no pixels of a {w}x{h} image")
    crop = image[b:d, a:c]
    if is_sideways(box) if turn is None else turn:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return crop


def with_margin(image: np.ndarray, margin: float = MARGIN) -> np.ndarray:
    """A crop cut at a tile's own edges (a photo of one tile, as a tile set is given them from a
    folder) set in ``margin`` of its size on each side, as the detector's cut of a located box has:
    the classifier learnt every tile with a little of its surroundings. What surrounded the tile is not
    in the crop; the margin is plain grey (on camerash's held-out third four fills, grey among them,
    named alike: docs/vision.md)."""
    if margin <= 0:
        return image
    h, w = image.shape[:2]
    my, mx = int(round(h * margin)), int(round(w * margin))
    return cv2.copyMakeBorder(image, my, my, mx, mx, cv2.BORDER_CONSTANT, value=GREY)


def upside_down(rotation: int, sideways: bool) -> bool:
    """Whether the cut of a tile at ``rotation`` shows its face upside down."""
    return (rotation + (90 if sideways else 0)) % 360 == 180


def rotation_of(sideways: bool, flipped: bool) -> int:
    """The tile's rotation on the table from the box's shape and the classifier's up/down call."""
    if sideways:
        return 90 if flipped else 270
    return 180 if flipped else 0
