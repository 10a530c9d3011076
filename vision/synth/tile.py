"""One tile drawn onto the table plane, as an overhead camera sees it.

A tile lying flat shows its top (the face, or the back layer when face down) and,
towards the camera, a strip of its body: ivory next to the face, then the
coloured back layer. The face is the art's glyph composited onto ``Front.png``
with a per-scene style (stroke weight, ink colour, face tint) so that the model
learns tiles, not one font.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from ..art import TileArt
from ..classes import BACK

FACE_ASPECT = 1.36        # face height / width of a real tile (26 x 35 mm)


@dataclass(frozen=True)
class TileStyle:
    """How one scene's tiles look (one physical set per scene)."""

    art_style: str            # png-regular or png-black (recoloured to dark ink)
    stroke: int               # -1 thinner, 0, +1 bolder glyph strokes
    ink_gain: tuple[float, float, float]   # per-channel multipliers of the glyph colour
    face_tint: tuple[int, int, int]        # BGR of the face (ivory, white, cream)
    back_colour: tuple[int, int, int]      # BGR of the back layer (AMOS orange, blue, green...)
    glyph_scale: float        # the glyph's size on the face


def random_style(rng: np.random.Generator) -> TileStyle:
    backs = [(20, 120, 245), (30, 140, 250), (40, 100, 230), (150, 90, 30), (60, 130, 50), (40, 170, 240)]
    # ivory, cream or white: red >= green >= blue, never pink
    r = int(rng.integers(236, 256))
    g = r - int(rng.integers(0, 10))
    ivory = (g - int(rng.integers(0, 28)), g, r)
    return TileStyle(
        art_style="png-black" if rng.random() < 0.3 else "png-regular",
        stroke=int(rng.integers(-1, 2)),
        ink_gain=tuple(float(g) for g in rng.uniform(0.6, 1.1, 3)),
        face_tint=ivory,
        back_colour=backs[int(rng.integers(len(backs)))],
        glyph_scale=float(rng.uniform(0.82, 1.0)),
    )


@lru_cache(maxsize=512)
def _glyph(art: TileArt, cls: str, art_style: str, stroke: int) -> np.ndarray:
    """The glyph at 150x200, stroke-adjusted; black-style art recoloured to dark ink (float32 BGRA 0..1)."""
    im = cv2.resize(art.face(cls, art_style), (150, 200), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
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
    front = _front(art, 150, 200)
    shade = front[..., :3].mean(axis=2, keepdims=True)      # Front.png's soft shading
    if cls == BACK:
        top = shade * (np.array(style.back_colour, np.float32) / 255)
    else:
        top = shade * (np.array(style.face_tint, np.float32) / 255)
        g = _glyph(art, cls, style.art_style, style.stroke)
        s = style.glyph_scale * float(rng.uniform(0.97, 1.03))
        m = np.float32([[s, 0, 75 * (1 - s)], [0, s, 100 * (1 - s)]])
        g = cv2.warpAffine(g, m, (150, 200), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
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
    mid = quad + body * 0.55
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
