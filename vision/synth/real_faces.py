"""Faces of real tiles for the renderer: the glyphs of many real sets on rendered tiles.

The art draws one design; a camera beside a parlour's table sees its own. A scene drawn with real
faces (``render_scene(..., real_faces=True)``) lays, on each tile of a kind the real single tiles
hold, the face of one of them: the fitting two thirds of ``../shared/real-tiles/camerash``
(``vision.build.real_tiles``; the held-out third is never drawn). The tile's body, its place,
the camera, the light and the neighbours stay the renderer's, so the classifier learns real glyphs
in the cuts it will see at run time, not in shop photos. Red fives and backs (which camerash lacks)
stay the scene's art.

A kind whose glyph reads the same after a half turn (``classes.HALF_TURN_SAME``) shows the same
picture upright and upside down, under two labels: the classifier learns it has no up, and reads
the art's tiles of it (whose faces carry a slight up) less surely. Drawing such faces on upright
tiles only was measured and not kept (docs/vision.md).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np


@lru_cache(maxsize=1)
def bank() -> dict[str, tuple[np.ndarray, ...]]:
    """kind -> the fitting real crops (BGR uint8, as read; ``tile.face_image`` scales one to its
    face); empty when the real tiles are missing (a scene asked for real faces then draws the art)."""
    from ..build.real_tiles import fitting_crops

    try:
        crops = fitting_crops()
    except FileNotFoundError:
        return {}
    faces: dict[str, list[np.ndarray]] = {}
    for _, kind, image in crops:
        faces.setdefault(kind, []).append(image)
    return {kind: tuple(v) for kind, v in faces.items()}


def real_face(cls: str, rng: np.random.Generator) -> np.ndarray | None:
    """One real face of ``cls`` drawn by ``rng``, or None where no real tile of it is held (no draw
    is spent then)."""
    faces = bank().get(cls)
    if not faces:
        return None
    return faces[int(rng.integers(len(faces)))]
