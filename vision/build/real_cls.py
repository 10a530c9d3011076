"""Real tiles among the classifier's training cuts: glyphs of many real sets beside the rendered art.

    python -m vision train ... --real-variants N      # (make_data calls ``write_real_cuts``)

The rendered scenes draw one art in a few inks; a parlour's set has its own glyphs. The fitting two
thirds of the real single tiles (``vision.build.real_tiles``; the held-out third is never written)
go into ``cls/train/`` as the scenes' cuts do: each crop and ``variants`` of it (edges moved, light
changed: ``vision.tileset.views``), each variant also seen a little from the side (the face's far
edge narrower, turned a few degrees, as a camera beside the table sees it), upright and upside down
(``kind`` and ``kind_ud``), and two cuts of no tile per crop (``features.real_nothing``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.classifier import FLIP_SUFFIX, NONE
from vision.tileset import square_cut, views

from .features import real_nothing
from .real_tiles import fitting_crops

PREFIX = "real"             # file names of real cuts (the scenes' are <seed>_<k>.png)


def seen_from_the_side(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face as a camera beside the table sees it: its far (top) edge 0-14% narrower each side,
    its height 70-100%, turned -4..+4 degrees; the corners left bare are filled from the edge."""
    h, w = image.shape[:2]
    inset = rng.uniform(0.0, 0.14) * w
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[inset, 0], [w - inset, 0], [w, h], [0, h]])
    warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (w, h),
                                 borderMode=cv2.BORDER_REPLICATE)
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-4, 4)), 1.0)
    warped = cv2.warpAffine(warped, turn, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(warped, (w, max(8, int(h * rng.uniform(0.7, 1.0)))), interpolation=cv2.INTER_AREA)


def real_training_cuts(variants: int) -> list[tuple[str, np.ndarray]]:
    """(label, square cut) of the fitting real crops as described above; ``FileNotFoundError`` when
    the real tiles are missing."""
    out: list[tuple[str, np.ndarray]] = []
    for seed, kind, image in fitting_crops():
        rng = np.random.default_rng(seed)
        for v in views(image, variants, seed):
            for look in (v, seen_from_the_side(v, rng)):
                cut = square_cut(look)
                out += [(kind, cut), (kind + FLIP_SUFFIX, cv2.rotate(cut, cv2.ROTATE_180))]
    out += [(NONE, cut) for cut in real_nothing()]
    return out


def write_real_cuts(data: Path, variants: int) -> int:
    """Write ``real_training_cuts`` under ``data/cls/train/<label>/``; returns how many."""
    cuts = real_training_cuts(variants)
    for k, (label, cut) in enumerate(cuts):
        folder = data / "cls" / "train" / label
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / f"{PREFIX}_{k}.png"), cut)
    return len(cuts)
