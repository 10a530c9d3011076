"""One tile drawn onto the table plane, as an overhead camera sees it.

A tile lying flat shows its top (the face, or the back layer when face down) and,
towards the camera, a strip of its body: ivory next to the face, then the
coloured back layer. The face is the art's glyph composited onto ``Front.png``
with a per-scene style (stroke weight, ink colour, face tint) so that the model
learns tiles, not one font.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from .art import TileArt
from ..classes import BACK
from .fonts import FontDesign, draws, font_glyph
from .real_faces import real_face
from .suits import SuitDesign, suit_glyph
from .suits import draws as suit_draws

FACE_ASPECT = 1.36        # face height / width of a real tile (26 x 35 mm)
FW, FH = 150, 200         # a face is composed at this size, then scaled to the tile


@dataclass(frozen=True)
class TileStyle:
    """How one scene's tiles look (one physical set per scene)."""

    art_style: str            # png-regular or png-black (recoloured to dark ink)
    stroke: int               # -1 thinner, 0, +1 bolder glyph strokes
    ink_gain: tuple[float, float, float]   # per-channel multipliers of the glyph colour
    face_tint: tuple[int, int, int]        # BGR of the face (ivory, white, cream)
    back_colour: tuple[int, int, int]      # BGR of the back layer (AMOS orange, blue, green...)
    glyph_scale: float        # the glyph's size on the face
    # other designs (``random_style(rng, designs=True)``): the art's black, green and blue ink recoloured
    # (BGR 0..1; red is never touched: red fives stay red), an engraved shadow under the glyph, and the
    # glyph moved off centre (fractions of the face)
    inks: tuple[tuple[float, float, float], ...] | None = None
    engraved: float = 0.0
    glyph_shift: tuple[float, float] = (0.0, 0.0)
    real_faces: bool = False  # faces of real tiles where one of the kind is held (synth/real_faces.py)
    font: FontDesign | None = None   # character tiles drawn in a typeface (synth/fonts.py)
    suits: SuitDesign | None = None  # circles and bamboos drawn as another maker draws them (synth/suits.py)
    ivory: float = 0.55       # the share of a tile's side, from the face down, that is ivory (the rest: the back layer)


# ink colours of real sets (BGR 0..1) for the art's dark, green and blue strokes: a blue-ink set draws its
# numerals and winds blue, some draw 發 black, others their circles green and blue
DARK_INKS = ((0.08, 0.08, 0.08), (0.45, 0.18, 0.05), (0.62, 0.28, 0.02), (0.12, 0.32, 0.08))
GREEN_INKS = ((0.15, 0.5, 0.1), (0.08, 0.08, 0.08), (0.6, 0.35, 0.05), (0.2, 0.4, 0.05))
BLUE_INKS = ((0.6, 0.3, 0.05), (0.15, 0.45, 0.1), (0.08, 0.08, 0.08))


def random_style(rng: np.random.Generator, designs: bool = False) -> TileStyle:
    """One scene's set. ``designs`` also varies the design (inks, engraving, glyph size and place,
    back colours of more sets); without it no further random draw is spent, so every scene rendered
    before designs existed (the shipped models' data, the stored test sets) renders as it did."""
    backs = [(20, 120, 245), (30, 140, 250), (40, 100, 230), (150, 90, 30), (60, 130, 50), (40, 170, 240)]
    # ivory, cream or white: red >= green >= blue, never pink
    r = int(rng.integers(236, 256))
    g = r - int(rng.integers(0, 10))
    ivory = (g - int(rng.integers(0, 28)), g, r)
    style = TileStyle(
        art_style="png-black" if rng.random() < 0.3 else "png-regular",
        stroke=int(rng.integers(-1, 2)),
        ink_gain=tuple(float(g) for g in rng.uniform(0.6, 1.1, 3)),
        face_tint=ivory,
        back_colour=backs[int(rng.integers(len(backs)))],
        glyph_scale=float(rng.uniform(0.82, 1.0)),
    )
    if not designs:
        return style
    more_backs = [(40, 40, 200), (170, 110, 140), (30, 200, 230), (90, 60, 20), (200, 200, 200), (40, 40, 40)]
    white = int(rng.integers(238, 256))
    return replace(
        style,
        stroke=int(rng.integers(-1, 3)),
        ink_gain=tuple(float(g) for g in rng.uniform(0.8, 1.1, 3)),
        face_tint=ivory if rng.random() < 0.6 else (white, white - int(rng.integers(0, 6)), white - int(rng.integers(0, 10))),
        back_colour=(backs + more_backs)[int(rng.integers(len(backs) + len(more_backs)))],
        glyph_scale=float(rng.uniform(0.72, 1.05)),
        inks=(DARK_INKS[int(rng.integers(len(DARK_INKS)))], GREEN_INKS[int(rng.integers(len(GREEN_INKS)))],
              BLUE_INKS[int(rng.integers(len(BLUE_INKS)))]),
        engraved=float(rng.uniform(0.3, 0.6)) if rng.random() < 0.5 else 0.0,
        glyph_shift=(float(rng.uniform(-0.04, 0.04)), float(rng.uniform(-0.05, 0.05))),
    )


RED_INK = (0.12, 0.1, 0.72)


def recolour(glyph: np.ndarray, inks) -> np.ndarray:
    """The glyph (float BGRA 0..1) with its dark, green and blue strokes drawn in ``inks``, and the black
    art's gold strokes in red (as real sets draw 中 and the red fives); red as it was."""
    bgr = glyph[..., :3]
    hsv = cv2.cvtColor(np.ascontiguousarray(bgr), cv2.COLOR_BGR2HSV)     # float: H 0..360, S and V 0..1
    hue, sat = hsv[..., 0], hsv[..., 1]
    inked = sat >= 0.3
    dark, green, blue = ~inked, inked & (hue > 70) & (hue < 170), inked & (hue >= 170) & (hue < 260)
    gold = inked & (hue >= 15) & (hue <= 70)
    out = glyph.copy()
    lum = bgr.max(axis=2, keepdims=True)
    for mask, ink in zip((dark, green, blue, gold), (*inks, RED_INK)):
        shade = np.clip(0.6 + lum, 0.6, 1.4) if mask is not dark else 1.0     # keep the art's own shading
        out[..., :3] = np.where(mask[..., None], np.clip(np.array(ink, np.float32) * shade, 0, 1), out[..., :3])
    return out


@lru_cache(maxsize=512)
def _glyph(art: TileArt, cls: str, art_style: str, stroke: int) -> np.ndarray:
    """The glyph at FW x FH, stroke-adjusted; black-style art recoloured to dark ink (float32 BGRA 0..1)."""
    im = cv2.resize(art.face(cls, art_style), (FW, FH), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    if art_style == "png-black":
        # the black set draws light ink for dark faces: its greys become dark, its colours stay
        bgr = im[..., :3]
        sat = bgr.max(axis=2) - bgr.min(axis=2)
        grey = sat < 0.25
        bgr[grey] = (1.0 - bgr[grey]) * 0.35
    if stroke:
        k = np.ones((3, 3), np.uint8)
        a = im[..., 3]
        im[..., 3] = cv2.dilate(a, k) if stroke > 0 else cv2.erode(a, k)
    return im


@lru_cache(maxsize=8)
def _front(art: TileArt, w: int, h: int) -> np.ndarray:
    f = cv2.resize(art.front, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    return f


def face_image(art: TileArt, cls: str, style: TileStyle, w: int, rng: np.random.Generator) -> np.ndarray:
    """The face (or back top) of a tile, ``w`` px wide, BGR float32 0..1, with its alpha (rounded corners)."""
    h = int(round(w * FACE_ASPECT))
    front = _front(art, FW, FH)
    shade = front[..., :3].mean(axis=2, keepdims=True)      # Front.png's soft shading
    real = real_face(cls, rng) if style.real_faces and cls != BACK else None
    if cls == BACK:
        top = shade * (np.array(style.back_colour, np.float32) / 255)
    elif real is not None:
        top = cv2.resize(real, (FW, FH), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    else:
        top = shade * (np.array(style.face_tint, np.float32) / 255)
        if style.font is not None and draws(cls):
            g = font_glyph(cls, style.font, style.stroke, FW, FH)
        elif style.suits is not None and suit_draws(cls):
            g = suit_glyph(cls, style.suits, style.stroke, FW, FH)
        else:
            g = _glyph(art, cls, style.art_style, style.stroke)
        if style.inks is not None:
            g = recolour(g, style.inks)
        s = style.glyph_scale * float(rng.uniform(0.97, 1.03))
        dx, dy = style.glyph_shift
        m = np.float32([[s, 0, FW / 2 * (1 - s) + FW * dx], [0, s, FH / 2 * (1 - s) + FH * dy]])
        g = cv2.warpAffine(g, m, (FW, FH), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        if style.engraved:
            # an engraved glyph: the cut's far wall shows as a darker rim beside the ink
            rim = cv2.warpAffine(g[..., 3], np.float32([[1, 0, 2], [0, 1, 2]]), (FW, FH)) * style.engraved
            top = top * (1 - rim[..., None] * 0.6)
        ink = g[..., :3] * np.array(style.ink_gain, np.float32)
        a = g[..., 3:4]
        top = top * (1 - a) + np.clip(ink, 0, 1) * a
    rgba = np.dstack([top, front[..., 3]])
    return cv2.resize(rgba, (w, h), interpolation=cv2.INTER_AREA)


def rect_corners(cx: float, cy: float, w: float, h: float, angle_deg: float) -> np.ndarray:
    """Corners of a w x h rectangle centred at (cx, cy), turned clockwise by ``angle_deg``:
    top-left, top-right, bottom-right, bottom-left of the unturned face."""
    a = np.deg2rad(angle_deg)
    c, s = np.cos(a), np.sin(a)
    pts = np.float32([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.float32([[c, -s], [s, c]])
    return pts @ rot.T + np.float32([cx, cy])


def draw_tile(canvas: np.ndarray, face: np.ndarray, quad: np.ndarray, body: np.ndarray,
              style: TileStyle, face_down: bool) -> np.ndarray:
    """Draw one tile: body strip (offset ``body``, towards the camera), then the face warped onto ``quad``.
    Returns the tile's visible outline (hull of top and base) on the table plane."""
    base = quad + body
    hull = cv2.convexHull(np.vstack([quad, base]).astype(np.float32)).reshape(-1, 2)
    mid = quad + body * style.ivory
    back = np.array(style.back_colour, np.float64) / 255
    ivory = np.array(style.face_tint, np.float64) / 255 * 0.82
    near, far = (back * 0.8, ivory) if face_down else (ivory, back * 0.85)
    cv2.fillConvexPoly(canvas, _px(hull), tuple(far), lineType=cv2.LINE_AA, shift=4)
    near_hull = cv2.convexHull(np.vstack([quad, mid]).astype(np.float32)).reshape(-1, 2)
    cv2.fillConvexPoly(canvas, _px(near_hull), tuple(near), lineType=cv2.LINE_AA, shift=4)
    _paste(canvas, face, quad)
    return hull


def _px(pts: np.ndarray) -> np.ndarray:
    return np.round(pts * 16).astype(np.int32)      # 4 fractional bits for anti-aliased fills


def _paste(canvas: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    """Warp the face (with alpha) onto the quad, inside the quad's bounding box only."""
    h, w = face.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.float32([[0, 0], [w, 0], [w, h]])
    dst = (quad[:3] - np.float32([x0, y0])).astype(np.float32)
    m = cv2.getAffineTransform(src, dst)
    warped = cv2.warpAffine(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[..., 3:4]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = roi * (1 - a) + warped[..., :3] * a
