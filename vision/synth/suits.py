"""Circles and bamboos drawn as other makers draw them, not only in the art's one hand.

The art draws one set's pinzu and souzu: navy rings with a dashed inner ring, bone-shaped green
sticks. A parlour's set draws its own: rings with a flower or a solid heart, discs, two-tone rings
(the top of a 6p or 7p in grey or green, the bottom in red), circles packed tight or spread out,
sticks cut in segments, outlined or solid, in green, blue or black. A scene drawn in a suit design
(``render_scene(..., suits=SuitDesign)``) draws its pinzu and souzu 2-9 (and their red fives) this
way; the 1s bird, each maker's own, stays the art's. The glyph comes out as the art's does (BGRA
0..1, the face's size), in the art's dark, green, blue and red, so a design's inks
(``tile.recolour``), engraving, size and place apply to it alike.

Plain OpenCV: no font or art file is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .fonts import BLUE, DARK, GREEN, RED

GREY = (0.35, 0.35, 0.35)           # a dark ring some makers print in grey: ``recolour`` keeps it dark
CIRCLES = ("rings", "flower", "disc", "double", "dot")
STICKS = ("segments", "outline", "bone")
PIN_INKS = (BLUE, GREEN, DARK, GREY)     # the circles' main ink; the accent is red
SOU_INKS = (GREEN, BLUE, DARK)           # the sticks' main ink; the accent is red

# Where a kind's circles lie (centre x, y as fractions of the face) and which are in the accent (red);
# the standard places every maker keeps, spread or packed about the face's centre by the design.
_PIN: dict[int, tuple[tuple[tuple[float, float], ...], tuple[int, ...]]] = {
    1: (((0.5, 0.5),), ()),          # its heart drawn red besides (``suit_glyph``)
    2: (((0.5, 0.27), (0.5, 0.73)), ()),
    3: (((0.24, 0.2), (0.5, 0.5), (0.76, 0.8)), (1,)),
    4: (((0.29, 0.28), (0.71, 0.28), (0.29, 0.72), (0.71, 0.72)), ()),
    5: (((0.26, 0.22), (0.74, 0.22), (0.5, 0.5), (0.26, 0.78), (0.74, 0.78)), (2,)),
    6: (((0.29, 0.17), (0.71, 0.17), (0.29, 0.55), (0.71, 0.55), (0.29, 0.83), (0.71, 0.83)), (2, 3, 4, 5)),
    7: (((0.2, 0.12), (0.5, 0.22), (0.8, 0.32), (0.29, 0.58), (0.71, 0.58), (0.29, 0.85), (0.71, 0.85)),
        (3, 4, 5, 6)),
    8: (tuple((x, y) for y in (0.13, 0.38, 0.62, 0.87) for x in (0.29, 0.71)), ()),
    9: (tuple((x, y) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)), (3, 4, 5)),
}
# Where a kind's sticks lie (centre x, y, turn in degrees) and which are in the accent.
_SOU: dict[int, tuple[tuple[tuple[float, float, float], ...], tuple[int, ...]]] = {
    2: (((0.5, 0.27, 0), (0.5, 0.73, 0)), ()),
    3: (((0.5, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)), ()),
    4: (((0.3, 0.27, 0), (0.7, 0.27, 0), (0.3, 0.73, 0), (0.7, 0.73, 0)), ()),
    5: (((0.24, 0.27, 0), (0.76, 0.27, 0), (0.5, 0.5, 0), (0.24, 0.73, 0), (0.76, 0.73, 0)), (2,)),
    6: (tuple((x, y, 0) for y in (0.27, 0.73) for x in (0.2, 0.5, 0.8)), ()),
    7: (((0.5, 0.15, 0),) + tuple((x, y, 0) for y in (0.5, 0.83) for x in (0.2, 0.5, 0.8)), (0,)),
    8: (((0.14, 0.27, 0), (0.38, 0.27, 35), (0.62, 0.27, -35), (0.86, 0.27, 0),
         (0.14, 0.73, 0), (0.38, 0.73, -35), (0.62, 0.73, 35), (0.86, 0.73, 0)), ()),
    9: (tuple((x, y, 0) for y in (0.17, 0.5, 0.83) for x in (0.2, 0.5, 0.8)), (1, 4, 7)),
}


@dataclass(frozen=True)
class SuitDesign:
    """One set's circles and bamboos: how a circle and a stick are drawn, their inks, their size and spread."""

    circle: str = "rings"                   # one of CIRCLES
    stick: str = "segments"                 # one of STICKS
    pin_ink: tuple[float, float, float] = BLUE
    pin_top: tuple[float, float, float] | None = None    # a 6p's and 7p's top circles in another ink
    sou_ink: tuple[float, float, float] = GREEN
    size: float = 1.0                       # a circle's radius, a stick's width, against the standard
    spread: float = 1.0                     # the places drawn apart (>1) or together (<1) about the centre
    accent: bool = True                     # the kind's usual red circles and sticks drawn red


def random_suits(rng: np.random.Generator) -> SuitDesign:
    """A set's circles and bamboos drawn by ``rng``."""
    pin = PIN_INKS[int(rng.integers(len(PIN_INKS)))]
    top = PIN_INKS[int(rng.integers(len(PIN_INKS)))] if rng.random() < 0.4 else None
    return SuitDesign(
        circle=CIRCLES[int(rng.integers(len(CIRCLES)))],
        stick=STICKS[int(rng.integers(len(STICKS)))],
        pin_ink=pin, pin_top=top,
        sou_ink=SOU_INKS[int(rng.integers(len(SOU_INKS)))],
        size=float(rng.uniform(0.85, 1.15)),
        spread=float(rng.uniform(0.85, 1.08)),
        accent=bool(rng.random() < 0.85),
    )


def draws(cls: str) -> bool:
    """Whether a suit design draws this kind: the circles and the bamboos but the 1s bird."""
    return cls[-1] in "ps" and cls != "1s"


def _spread(v: float, spread: float) -> float:
    return 0.5 + (v - 0.5) * spread


def _closest(centres: list[tuple[float, float]]) -> float:
    """The least distance between two of ``centres`` (infinite for one)."""
    return min((float(np.hypot(a[0] - b[0], a[1] - b[1])) for i, a in enumerate(centres) for b in centres[i + 1:]),
               default=float("inf"))


def _circle(alpha: np.ndarray, colour: np.ndarray, c: tuple[int, int], r: float, style: str, ink) -> None:
    """One circle of ``style`` at ``c``, radius ``r`` px, in ``ink``: drawn into the glyph's alpha and colour."""
    layer = np.zeros(alpha.shape, np.uint8)      # drawn in 8 bits: OpenCV smooths edges only there
    r = max(r, 3.0)
    t = max(1, int(round(r * 0.22)))
    ri = int(round(r))
    if style == "rings":            # an outer ring, an inner ring, a dot at the heart
        cv2.circle(layer, c, ri - t // 2, 255, t, cv2.LINE_AA)
        cv2.circle(layer, c, int(round(r * 0.55)), 255, max(1, t // 2), cv2.LINE_AA)
        cv2.circle(layer, c, max(1, int(round(r * 0.18))), 255, -1, cv2.LINE_AA)
    elif style == "flower":         # an outer ring and six petals round a dot
        cv2.circle(layer, c, ri - t // 2, 255, t, cv2.LINE_AA)
        for k in range(6):
            a = k * np.pi / 3
            petal = _px((c[0] + r * 0.45 * np.cos(a), c[1] + r * 0.45 * np.sin(a)))
            cv2.circle(layer, petal, max(1, int(round(r * 0.17))), 255, -1, cv2.LINE_AA)
        cv2.circle(layer, c, max(1, int(round(r * 0.15))), 255, -1, cv2.LINE_AA)
    elif style == "disc":           # a solid disc with a face-coloured ring inside
        cv2.circle(layer, c, ri, 255, -1, cv2.LINE_AA)
        cv2.circle(layer, c, int(round(r * 0.55)), 0, max(1, t // 2), cv2.LINE_AA)
    elif style == "double":         # two thick rings, the inner one solid at the heart
        cv2.circle(layer, c, ri - t // 2, 255, t, cv2.LINE_AA)
        cv2.circle(layer, c, int(round(r * 0.42)), 255, -1, cv2.LINE_AA)
    else:                           # "dot": a thin ring round a large dot
        cv2.circle(layer, c, ri - 1, 255, max(1, t // 2), cv2.LINE_AA)
        cv2.circle(layer, c, int(round(r * 0.6)), 255, -1, cv2.LINE_AA)
    _lay(alpha, colour, layer, ink)


def _stick(alpha: np.ndarray, colour: np.ndarray, c: tuple[float, float], length: float, width: float,
           turn: float, style: str, ink) -> None:
    """One bamboo stick of ``style`` centred at ``c``, ``length`` x ``width`` px, turned ``turn`` degrees."""
    layer = np.zeros(alpha.shape, np.uint8)      # drawn in 8 bits: OpenCV smooths edges only there
    box = cv2.boxPoints(((c[0], c[1]), (width, length), turn)).astype(np.int32)
    if style == "outline":          # the line drawn inside the stick's box, not across its edge
        t = max(1, int(round(width * 0.22)))
        inner = cv2.boxPoints(((c[0], c[1]), (width - t, length - t), turn)).astype(np.int32)
        cv2.polylines(layer, [inner], True, 255, t, cv2.LINE_AA)
    else:
        cv2.fillPoly(layer, [box], 255, cv2.LINE_AA)
    along = np.array([-np.sin(np.radians(turn)), np.cos(np.radians(turn))])
    across = np.array([along[1], -along[0]])
    for f in (-0.17, 0.17):         # the stick's two nodes
        p = np.array(c) + along * length * f
        if style == "bone":         # a bulge at each node
            axes = (int(round(width * 0.62)), max(1, int(round(width * 0.28))))
            cv2.ellipse(layer, _px(p), axes, -turn, 0, 360, 255, -1, cv2.LINE_AA)
        half = width * (0.4 if style == "outline" else 0.6)     # a cut across the stick; a bar across an outline
        cv2.line(layer, _px(p - across * half), _px(p + across * half), 255 if style == "outline" else 0,
                 max(1, int(round(width * 0.16))), cv2.LINE_AA)
    if style == "segments":         # the stick's middle line
        cv2.line(layer, _px(np.array(c) - along * length * 0.32), _px(np.array(c) + along * length * 0.32), 0,
                 max(1, int(round(width * 0.14))), cv2.LINE_AA)
    _lay(alpha, colour, layer, ink)


def _px(p) -> tuple[int, int]:
    return int(round(p[0])), int(round(p[1]))


def _lay(alpha: np.ndarray, colour: np.ndarray, layer: np.ndarray, ink) -> None:
    m = layer.astype(np.float32) / 255
    colour[:] = colour * (1 - m[..., None]) + np.array(ink, np.float32) * m[..., None]
    np.maximum(alpha, m, out=alpha)


@lru_cache(maxsize=1024)
def suit_glyph(cls: str, design: SuitDesign, stroke: int, fw: int, fh: int) -> np.ndarray:
    """The glyph of a circles or bamboos kind (``draws``) in ``design`` at fw x fh (float32 BGRA 0..1)."""
    if not draws(cls):
        raise ValueError(f"a suit design does not draw {cls!r}")
    n, red_five = (5, True) if cls[0] == "0" else (int(cls[0]), False)
    alpha = np.zeros((fh, fw), np.float32)
    colour = np.zeros((fh, fw, 3), np.float32)
    if cls[-1] == "p":
        places, accents = _PIN[n]
        centres = [(_spread(x, design.spread) * fw, _spread(y, design.spread) * fh) for x, y in places]
        r = fw * (0.36 if n == 1 else 0.2 if n <= 4 else 0.17 if n <= 7 else 0.14) * design.size
        # circles never touch, as on a tile, nor run off the face
        r = min(r, 0.42 * _closest(centres), min(min(x, fw - x, y, fh - y) for x, y in centres) - 2)
        for k, centre in enumerate(centres):
            if red_five or (design.accent and k in accents):
                ink = RED
            elif design.pin_top is not None and n in (6, 7) and k not in accents:
                ink = design.pin_top
            else:
                ink = design.pin_ink
            _circle(alpha, colour, _px(centre), r, design.circle, ink)
        if n == 1 and design.accent:        # the big circle's heart in red, as most makers draw it
            cv2.circle(alpha, (fw // 2, fh // 2), int(round(r * 0.3)), 0.0, -1)
            _circle(alpha, colour, (fw // 2, fh // 2), r * 0.3, "dot", RED)
    else:
        places, accents = _SOU[n]
        centres = [(_spread(x, design.spread) * fw, _spread(y, design.spread) * fh) for x, y, _ in places]
        rows = sorted({round(c[1]) for c in centres})
        columns = sorted({round(c[0]) for c in centres})
        # sticks never touch: no longer than 0.8 of the rows' step, no wider than 0.4 of the columns'
        length = min(fh * (0.36 if len(rows) == 2 else 0.27), 0.8 * min(np.diff(rows), default=fh),
                     2 * min(rows[0], fh - rows[-1]) - 4)
        width = min(fw * (0.12 if n >= 6 else 0.14) * design.size, 0.4 * min(np.diff(columns), default=fw))
        for k, (centre, (_, _, turn)) in enumerate(zip(centres, places)):
            ink = RED if red_five or (design.accent and k in accents) else design.sou_ink
            _stick(alpha, colour, centre, length * (0.95 if turn else 1.0), width, turn, design.stick, ink)
    if stroke:
        k = np.ones((3, 3), np.uint8)
        alpha = cv2.dilate(alpha, k) if stroke > 0 else cv2.erode(alpha, k)
        colour = cv2.dilate(colour, k)      # the ink's colour reaches as far as its grown edge
    return np.dstack([colour, alpha]).astype(np.float32)
