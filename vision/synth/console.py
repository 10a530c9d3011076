"""The player's console in front of a seat-view photo: the near rail, the score display, the stick tray.

A photo taken from a player's seat shows, below the revealed hand, the table's own edge: a glossy
plastic rail (any colour), a dark panel of red seven-segment digits, a tray of point sticks laid side
by side. No tile lies there, yet a locator that learnt only felt finds "backs" in the rail's
highlights and "白" in a tray of white sticks. Drawn in image space over the bottom of an oblique
scene; the tiles it covers are dropped from the truth (``cover``).

With ``details`` (a generator of its own, so a console drawn without them is drawn as before), the
console also has what real ones show beside the numbers: small keys with printed labels (white,
light or black caps; a glyph or two, an arrow) and a tray split into compartments whose walls hide
the sticks but for a tile-wide window, where a stack of white sticks seen end on looks like a 白.
"""

from __future__ import annotations

import cv2
import numpy as np

# rail plastics (BGR): mint, green, black, grey, cream, wine, navy, white
RAILS = [(200, 225, 190), (60, 150, 40), (35, 35, 35), (150, 150, 150), (200, 225, 235), (50, 40, 120),
         (90, 50, 20), (235, 235, 235)]
STICKS = [(235, 235, 232), (40, 40, 200), (190, 90, 30), (40, 200, 230)]          # white, red, blue, yellow
DIGITS = {"0": "abcdef", "1": "bc", "2": "abged", "3": "abgcd", "4": "fgbc", "5": "afgcd", "6": "afgedc",
          "7": "abc", "8": "abcdefg", "9": "abcfgd"}
# each segment's two ends, in a unit cell 1 wide and 2 tall
SEGMENTS = {"a": ((0, 0), (1, 0)), "b": ((1, 0), (1, 1)), "c": ((1, 1), (1, 2)), "d": ((0, 2), (1, 2)),
            "e": ((0, 1), (0, 2)), "f": ((0, 0), (0, 1)), "g": ((0, 1), (1, 1))}


def draw_console(rng: np.random.Generator, img: np.ndarray, details: np.random.Generator | None = None) -> np.ndarray:
    """Draw a console over the bottom of ``img`` (BGR uint8, in place); returns its top edge: per
    column, the first row it covers. Sized as a seat's own console is, near the camera: by the
    image (``near``, a tile's width there), not by the tiles far across the table. ``details``:
    keys and tray compartments too, drawn with that generator (module doc)."""
    h, w = img.shape[:2]
    tile_w = near(rng, h)
    top = int(h * rng.uniform(0.62, 0.86))
    sag = rng.uniform(-0.04, 0.04) * h                              # the rail seen a little curved
    xs = np.arange(w, dtype=np.float32)
    edge = top + sag * ((xs - w / 2) / (w / 2)) ** 2
    rows = np.arange(h, dtype=np.float32)[:, None]
    mask = rows >= edge[None, :]
    layer = _rail(rng, h, w, tile_w)
    rail_h = int(h * rng.uniform(0.05, 0.14))
    y = int(edge.max()) + rail_h
    if rng.random() < 0.75 and y < h - 20:
        panel = y
        y = _display(rng, layer, y, tile_w)
        if details is not None:
            _keys(details, layer, panel, y, tile_w)
    if rng.random() < 0.6 and y < h - 10:
        _tray(rng, layer, y, tile_w)
        if details is not None:
            _compartments(details, layer, y, tile_w)
    layer[np.abs(rows - edge[None, :]) < max(2.0, tile_w * 0.06)] *= 0.45   # the rail's shadowed lip
    out = img.astype(np.float32)
    out[mask] = layer[mask]
    img[:] = np.clip(out, 0, 255).astype(np.uint8)
    return edge


def near(rng: np.random.Generator, h: int) -> float:
    """The width of a tile lying by the console, in a photo ``h`` high from a seat (1/9-1/18 of it)."""
    return h / rng.uniform(9, 18)


def cover(box, edge: np.ndarray, keep: float = 0.6):
    """A tile's box with the console (its top ``edge``, from ``draw_console``) over it: the part that
    shows, or None when less than ``keep`` of its height does."""
    x1, y1, x2, y2 = box
    span = edge[max(0, int(x1)):max(int(x1) + 1, int(np.ceil(x2)))]
    top = float(span.min()) if len(span) else float(edge.min())
    if y2 <= top:
        return box
    if top - y1 < keep * (y2 - y1):
        return None
    return (x1, y1, x2, top)


def _rail(rng: np.random.Generator, h: int, w: int, tile_w: float) -> np.ndarray:
    """Glossy plastic: a base colour, slow marbling, long specular streaks."""
    base = np.array(RAILS[int(rng.integers(len(RAILS)))], np.float32) * rng.uniform(0.85, 1.1, 3)
    marble = cv2.resize(rng.normal(0, 1, (6, 10)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    layer = np.clip(base[None, None] * (1 + 0.1 * marble[..., None]), 0, 255)
    shine = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(3, 14))):
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(tile_w * rng.uniform(0.5, 4)), max(1, int(tile_w * rng.uniform(0.05, 0.4))))
        cv2.ellipse(shine, centre, axes, float(rng.normal(0, 8)), 0, 360, float(rng.uniform(0.4, 1)), -1,
                    lineType=cv2.LINE_AA)
    shine = cv2.GaussianBlur(shine, (0, 0), max(1.0, tile_w * 0.08))[..., None]
    return layer * (1 - shine) + 250 * shine


def _display(rng: np.random.Generator, layer: np.ndarray, y: int, tile_w: float) -> int:
    """A dark panel of lit seven-segment numbers; returns the row below it."""
    h, w = layer.shape[:2]
    ph = int(min(h - y, tile_w * rng.uniform(1.2, 2.6)))
    x1 = int(w * rng.uniform(0.02, 0.25))
    x2 = int(w * rng.uniform(0.75, 0.98))
    layer[y:y + ph, x1:x2] = rng.uniform(8, 40, 3)
    glow = np.zeros((h, w), np.float32)
    lit = np.array([(40, 40, 255), (60, 220, 90), (40, 160, 255)][int(rng.choice(3, p=[0.8, 0.1, 0.1]))],
                   np.float32)
    size = tile_w * rng.uniform(0.18, 0.4)                       # a digit's width
    for _ in range(int(rng.integers(2, 5))):                     # groups of digits
        gx = rng.uniform(x1 + size, max(x1 + size + 1, x2 - 5 * size))
        gy = rng.uniform(y + size * 0.3, max(y + size * 0.3 + 1, y + ph - 2.3 * size))
        for k in range(int(rng.integers(3, 5))):
            for s in DIGITS[str(int(rng.integers(10)))]:
                (ax, ay), (bx, by) = SEGMENTS[s]
                a = (int(gx + k * 1.6 * size + ax * size), int(gy + ay * size))
                b = (int(gx + k * 1.6 * size + bx * size), int(gy + by * size))
                cv2.line(glow, a, b, 1.0, max(1, int(size * 0.2)), lineType=cv2.LINE_AA)
    glow = np.maximum(glow, cv2.GaussianBlur(glow, (0, 0), max(1.0, size * 0.15)) * 0.6)[..., None]
    panel = layer[y:y + ph]
    layer[y:y + ph] = panel * (1 - glow[y:y + ph]) + lit * glow[y:y + ph]
    return y + ph + int(tile_w * rng.uniform(0.05, 0.4))


def _tray(rng: np.random.Generator, layer: np.ndarray, y: int, tile_w: float) -> None:
    """A dark tray with point sticks laid side by side in its slots, each slot one colour."""
    h, w = layer.shape[:2]
    layer[y:] = rng.uniform(10, 45, 3)
    x = rng.uniform(0, w * 0.15)
    while x < w:
        length = tile_w * rng.uniform(2.5, 5)
        colour = np.array(STICKS[int(rng.integers(len(STICKS)))], np.float32)
        thick = max(2.0, tile_w * rng.uniform(0.1, 0.2))
        for k in range(int(rng.integers(1, 12))):
            sy = y + thick * 0.3 + k * thick * 1.05
            if sy + thick > h:
                break
            shade = rng.uniform(0.75, 1.05)
            cv2.rectangle(layer, (int(x), int(sy)), (int(x + length), int(sy + thick)),
                          tuple(float(c) for c in colour * shade), -1, lineType=cv2.LINE_AA)
            if rng.random() < 0.5:                               # the sticks' dots
                cv2.circle(layer, (int(x + length / 2), int(sy + thick / 2)), max(1, int(thick * 0.25)),
                           (30, 30, 160), -1)
        x += length + tile_w * rng.uniform(0.2, 0.8)


def _keys(rng: np.random.Generator, layer: np.ndarray, top: int, bottom: int, tile_w: float) -> None:
    """Small keys on and just below the display panel, each a cap with a printed label."""
    h, w = layer.shape[:2]
    cap = [(235, 235, 235), (200, 205, 210), (30, 30, 30)][int(rng.integers(3))]
    ink = (20, 20, 20) if cap[0] > 100 else (230, 230, 230)
    for _ in range(int(rng.integers(2, 9))):
        kw, kh = tile_w * rng.uniform(0.3, 0.9), tile_w * rng.uniform(0.2, 0.6)
        x = rng.uniform(0, max(1.0, w - kw))
        y = rng.uniform(top, max(top + 1.0, min(h - kh, bottom + tile_w * 0.3)))
        p1, p2 = (int(x), int(y)), (int(x + kw), int(y + kh))
        cv2.rectangle(layer, p1, p2, tuple(float(c) * rng.uniform(0.85, 1.05) for c in cap), -1, lineType=cv2.LINE_AA)
        if rng.random() < 0.4:              # an arrow key
            cx, cy, r = x + kw / 2, y + kh / 2, min(kw, kh) * 0.3
            turn = rng.uniform(0, 2 * np.pi)
            pts = np.array([[cx + r * np.cos(turn + a), cy + r * np.sin(turn + a)] for a in (0, 2.1, 4.2)], np.int32)
            cv2.fillPoly(layer, [pts], ink, lineType=cv2.LINE_AA)
        else:                               # a label of a few strokes, as a printed word looks at this size
            for _ in range(int(rng.integers(2, 7))):
                a = (int(x + kw * rng.uniform(0.15, 0.85)), int(y + kh * rng.uniform(0.2, 0.8)))
                b = (int(a[0] + kw * rng.uniform(-0.2, 0.2)), int(a[1] + kh * rng.uniform(-0.3, 0.3)))
                cv2.line(layer, a, b, ink, max(1, int(kh * 0.08)), lineType=cv2.LINE_AA)
        if rng.random() < 0.5:              # a printed word beside the key, on the panel
            lx = int(x + kw * rng.uniform(-1.2, 1.2))
            ly = int(y + kh * rng.uniform(1.1, 1.8))
            for k in range(int(rng.integers(2, 4))):
                cv2.rectangle(layer, (lx + int(k * kh * 0.7), ly), (lx + int(k * kh * 0.7 + kh * 0.5), ly + int(kh * 0.5)),
                              (220, 220, 220), max(1, int(kh * 0.06)), lineType=cv2.LINE_AA)


def _compartments(rng: np.random.Generator, layer: np.ndarray, y: int, tile_w: float) -> None:
    """The tray's walls: dark bars across it, leaving windows a tile or two wide onto its sticks."""
    h, w = layer.shape[:2]
    wall = np.array(rng.uniform(15, 60, 3), np.float32)
    x = rng.uniform(-tile_w, tile_w)
    while x < w:
        window = tile_w * rng.uniform(0.8, 2.2)
        thick = tile_w * rng.uniform(0.15, 0.6)
        cv2.rectangle(layer, (int(x + window), y), (int(x + window + thick), h), tuple(float(c) for c in wall), -1)
        x += window + thick
    if rng.random() < 0.5:                  # the tray's lip across the top of the windows
        cv2.rectangle(layer, (0, y), (w, int(y + tile_w * rng.uniform(0.1, 0.4))), tuple(float(c) for c in wall), -1)
