"""Character tiles drawn in other typefaces: the glyph shapes of other sets, not only the art's hand.

The art draws one hand's 萬, numerals and winds; a parlour's set draws its own, in a brush (楷書),
Ming, Mincho or Gothic cut. A scene drawn in a typeface (``render_scene(..., font=FontDesign)``)
draws its character tiles (the manzu and the honours) from that font: the numeral over a red 萬
(both red on a red five), each wind alone, 中 in red, 發 in green, 白 blank or a blue frame (as
Chinese sets draw it), and, in some sets, a small index in the corner (an Arabic numeral on the
suits, the wind's letter on the winds), as many Western and Chinese sets print. The circles and
bamboos stay the art's. The glyph comes out as the art's does (BGRA 0..1, the face's size), so
inks, engraving, size and place apply to it alike.

A training-time feature: it needs Pillow (the ``train`` extra brings it) and CJK fonts on the
machine (Debian: fonts-arphic-ukai, fonts-arphic-uming, fonts-ipafont-mincho, fonts-ipafont-gothic,
fonts-wqy-microhei, fonts-wqy-zenhei); ``available`` lists those found.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

# (file, face index in a collection): brush, Ming, Mincho, Gothic and two sans cuts
FONT_FILES = (
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
    ("/usr/share/fonts/opentype/ipafont-mincho/ipam.ttf", 0),
    ("/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
)
NUMERALS = "一二三四五六七八九"
WINDS = {"1z": ("東", "E"), "2z": ("南", "S"), "3z": ("西", "W"), "4z": ("北", "N")}
DRAGONS = {"6z": "發", "7z": "中"}
DARK = (0.08, 0.08, 0.08)          # BGR 0..1, as the art's dark strokes (``tile.recolour`` maps them)
GREEN = (0.15, 0.5, 0.1)
BLUE = (0.62, 0.28, 0.02)
RED = (0.12, 0.1, 0.72)            # the art's red: ``tile.recolour`` never touches it


@dataclass(frozen=True)
class FontDesign:
    """One set's character cut: which font, whether it prints corner indices, how it draws 白."""

    font: str                       # a font file
    index: int = 0                  # the face in a font collection
    corner_index: bool = False
    white_frame: bool = False


@lru_cache(maxsize=1)
def available() -> tuple[tuple[str, int], ...]:
    """The fonts of ``FONT_FILES`` on this machine, where Pillow is installed (else none)."""
    if importlib.util.find_spec("PIL") is None:
        return ()
    return tuple(f for f in FONT_FILES if Path(f[0]).is_file())


def random_design(rng: np.random.Generator) -> FontDesign | None:
    """A set's character cut drawn by ``rng`` from the fonts available; None where there are none."""
    fonts = available()
    if not fonts:
        return None
    font, index = fonts[int(rng.integers(len(fonts)))]
    return FontDesign(font, index, corner_index=bool(rng.random() < 0.3), white_frame=bool(rng.random() < 0.4))


def draws(cls: str) -> bool:
    """Whether a font design draws this kind (the characters), not the art."""
    return cls[-1] in "mz"


@lru_cache(maxsize=4096)
def _mask(font: str, index: int, text: str, w: int, h: int, stretch: float = 1.25) -> np.ndarray:
    """``text`` in ``font`` as an alpha mask (float 0..1) fitted into w x h: its ink's own box scaled to
    fit, its width let stretch up to ``stretch`` times its height's scale (tiles draw wide 萬)."""
    from PIL import Image, ImageDraw, ImageFont

    size = 160
    f = ImageFont.truetype(font, size, index=index)
    canvas = Image.new("L", (size * 2 * len(text), size * 2), 0)
    ImageDraw.Draw(canvas).text((size // 2, size // 2), text, fill=255, font=f)
    a = np.asarray(canvas, np.float32) / 255
    ys, xs = np.nonzero(a > 0.05)
    if len(xs) == 0:
        return np.zeros((h, w), np.float32)
    a = a[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    gh, gw = a.shape
    sy = h / gh
    sx = min(w / gw, sy * stretch)
    sy = min(sy, sx * stretch)
    out_w, out_h = max(1, int(gw * sx)), max(1, int(gh * sy))
    small = cv2.resize(a, (out_w, out_h), interpolation=cv2.INTER_AREA)
    out = np.zeros((h, w), np.float32)
    y0, x0 = (h - out_h) // 2, (w - out_w) // 2
    out[y0: y0 + out_h, x0: x0 + out_w] = small
    return out


def _put(glyph: np.ndarray, mask: np.ndarray, colour, box: tuple[float, float, float, float]) -> None:
    """Lay ``mask`` in ``colour`` into ``glyph`` (BGRA) inside ``box`` (fractions of the face)."""
    fh, fw = glyph.shape[:2]
    x1, y1 = int(box[0] * fw), int(box[1] * fh)
    region = glyph[y1: y1 + mask.shape[0], x1: x1 + mask.shape[1]]
    m = mask[: region.shape[0], : region.shape[1], None]
    region[..., :3] = region[..., :3] * (1 - m) + np.array(colour, np.float32) * m
    region[..., 3:] = np.maximum(region[..., 3:], m)


def _text(glyph: np.ndarray, design: FontDesign, text: str, colour, box) -> None:
    fh, fw = glyph.shape[:2]
    w, h = int((box[2] - box[0]) * fw), int((box[3] - box[1]) * fh)
    _put(glyph, _mask(design.font, design.index, text, w, h), colour, box)


@lru_cache(maxsize=1024)
def font_glyph(cls: str, design: FontDesign, stroke: int, fw: int, fh: int) -> np.ndarray:
    """The glyph of a character kind in ``design`` at fw x fh (float32 BGRA 0..1), stroke-adjusted."""
    g = np.zeros((fh, fw, 4), np.float32)
    corner = None
    if cls[-1] == "m":
        n = int(cls[0]) or 5
        red_five = cls[0] == "0"
        _text(g, design, NUMERALS[n - 1], RED if red_five else DARK, (0.16, 0.07, 0.84, 0.43))
        _text(g, design, "萬", RED, (0.1, 0.47, 0.9, 0.93))
        corner = str(n)
    elif cls in WINDS:
        char, corner = WINDS[cls]
        _text(g, design, char, DARK, (0.1, 0.14, 0.9, 0.86))
    elif cls in DRAGONS:
        _text(g, design, DRAGONS[cls], RED if cls == "7z" else GREEN, (0.1, 0.14, 0.9, 0.86))
    elif cls == "5z" and design.white_frame:
        frame = np.zeros((fh, fw), np.float32)
        cv2.rectangle(frame, (int(0.18 * fw), int(0.15 * fh)), (int(0.82 * fw), int(0.85 * fh)), 1.0,
                      max(3, fw // 14))
        _put(g, frame, BLUE, (0, 0, 1, 1))
    if corner and design.corner_index:
        _text(g, design, corner, DARK, (0.03, 0.02, 0.17, 0.15))
    if stroke:
        k = np.ones((3, 3), np.uint8)
        g[..., :3] = cv2.dilate(g[..., :3], k)      # the ink's colour reaches as far as its grown edge
        g[..., 3] = cv2.dilate(g[..., 3], k) if stroke > 0 else cv2.erode(g[..., 3], k)
    return g
