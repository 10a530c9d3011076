"""A photo of the teach page's five rows, drawn by the project's tile renderer from the shared tile art
(../shared/tiles or TOUTENKOU_TILE_ART; without it the tests that need it skip, saying why)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.synth.art import ArtMissing, TileArt
from vision.synth.tile import FACE_ASPECT, TileStyle, draw_tile, face_image, rect_corners
from vision.classes import BACK
from vision.teach import LAYOUT

STYLE = TileStyle(art_style="png-regular", stroke=0, ink_gain=(1.0, 1.0, 1.0), face_tint=(225, 245, 250),
                  back_colour=(20, 120, 245), glyph_scale=0.92)
FELT = (70, 110, 40)


def tile_art() -> TileArt:
    try:
        return TileArt()
    except ArtMissing as e:
        pytest.skip(f"tile art not available: {e}")


def rows_photo(art: TileArt, layout=LAYOUT, size=(960, 720), width: int = 48, seed: int = 0) -> np.ndarray:
    """The rows laid face up on felt, seen from above (BGR): one tile ``width`` px wide per kind,
    rows half a tile apart, each tile's near side showing below it; a kind ``""`` is room left empty."""
    rng = np.random.default_rng(seed)
    w, h = size
    image = np.ones((h, w, 3), np.float32) * (np.array(FELT, np.float32) / 255)
    image += rng.normal(0, 0.01, image.shape).astype(np.float32)
    height = width * FACE_ASPECT
    y0 = (h - len(layout) * height * 1.5) / 2 + height / 2
    for r, row in enumerate(layout):
        x0 = (w - len(row) * (width + 2)) / 2 + width / 2
        for i, kind in enumerate(row):
            if not kind:
                continue
            quad = rect_corners(x0 + i * (width + 2), y0 + r * height * 1.5, width, height, 0)
            face = face_image(art, kind, STYLE, int(width * 1.5), rng)
            draw_tile(image, face, quad, np.float32([0, width * 0.18]), STYLE, kind == BACK)
    return np.clip(image * 255, 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int = 90) -> bytes:
    """As a phone sends a photo (and under the test service's 200 kB upload limit)."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def rows_on_table(art: TileArt, layout=LAYOUT, seed: int = 3) -> np.ndarray:
    """The rows laid face up in the middle of the demo's table, as its camera sees them (BGR, the
    rendered table's pose, light and lens drawn from ``seed``)."""
    from calibration.markers import default_layout
    from vision.synth.table import STEP, TH, Laid, render_laid
    table = default_layout()
    cx, cy = np.array(table.table_mm) / 2
    tiles = [Laid(kind, cx + (i - (len(row) - 1) / 2) * STEP, cy + (r - (len(layout) - 1) / 2) * TH * 1.6, 0.0)
             for r, row in enumerate(layout) for i, kind in enumerate(row)]
    frame, _ = render_laid(tiles, np.random.default_rng(seed), art, table)
    return frame
