"""Faces of real tiles for the renderer: the glyphs of many real sets on rendered tiles.

The art draws one design; a camera beside a parlour's table sees its own. A scene drawn with real
faces (``render_scene(..., real_faces=True)``) lays, on each tile of a kind the real single tiles
hold, the face of one of them: the fitting two thirds of ``../shared/real-tiles/camerash``
(``vision.build.real_tiles``; the held-out third is never drawn). The tile's body, its place,
the camera, the light and the neighbours stay the renderer's, so the classifier learns real glyphs
in the cuts it will see at run time, not in shop photos. Red fives and backs (which camerash lacks)
stay the scene's art.

A real face of a kind whose glyph reads the same after a half turn (``HALF_TURN_SAME``) is drawn only
on a tile lying upright: upside down it would show the same picture under the other label, and
teach the classifier that such kinds have no up and down, which it then reads on every tile of
them, the art's too. Upside down, those tiles keep the art's face.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..classes import HALF_TURN_SAME

FACE_SIZE = (150, 200)      # the size tile.face_image composes a face at


@lru_cache(maxsize=1)
def bank() -> dict[str, tuple[np.ndarray, ...]]:
    """kind -> the fitting real crops as faces (BGR float32 0..1 at ``FACE_SIZE``); empty when the
    real tiles are missing (a scene asked for real faces then draws the art)."""
    from ..build.real_tiles import fitting_crops

    try:
        crops = fitting_crops()
    except FileNotFoundError:
        return {}
    faces: dict[str, list[np.ndarray]] = {}
    for _, kind, image in crops:
        face = cv2.resize(image, FACE_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32) / 255
        faces.setdefault(kind, []).append(face)
    return {kind: tuple(v) for kind, v in faces.items()}


def real_face(cls: str, rng: np.random.Generator, upside_down: bool = False) -> np.ndarray | None:
    """One real face of ``cls`` drawn by ``rng``, or None where no real tile of it is held, or where
    the tile lies ``upside_down`` and its kind looks the same that way (``HALF_TURN_SAME``). No draw is
    spent when None."""
    faces = bank().get(cls)
    if not faces or (upside_down and cls in HALF_TURN_SAME):
        return None
    return faces[int(rng.integers(len(faces)))]
