"""The oblique view: a camera beside the table looking across it, as in the real photo.

The overhead scenes (``scene.py``) see the table nearly straight down. A
phone or a camera on a stand sees it from one side: faces foreshortened
(an upright tile looks wider than tall), every tile showing a tall strip of
its near side, a near row hiding the far row's sides, the table's glossy
rim around the felt and people and chairs beyond it. These helpers draw
what differs; ``render_scene(..., view="oblique")`` puts them together.
"""

from __future__ import annotations

import cv2
import numpy as np

# The real photo's rims: AMOS orange, marbled with red (BGR)
RIM_COLOURS = [(30, 110, 240), (40, 130, 250), (25, 90, 220), (60, 60, 60), (200, 200, 205)]
PHOTO_FELTS = [(190, 170, 150), (175, 160, 140), (150, 140, 125)]   # grey-blue felt of the photo


def plane_height(rng: np.random.Generator, h: int) -> int:
    """The table plane is taller than the image: the camera's slant squeezes it (depth foreshortened)."""
    return int(round(h * rng.uniform(1.3, 2.2)))


def nadir(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Where the camera stands, on the table plane: far below the bottom edge, near the middle."""
    return np.float32([rng.uniform(0.2 * w, 0.8 * w), rng.uniform(1.6 * h, 3.0 * h)])


THICKNESS = 0.75          # a tile's height over its face's width (about 20 of 26 mm)
SLIVER = 0.2              # with tight boxes: a run of a row of a tile's visible pixels narrower than this share
                          # of its outline's shorter side (its side peeking beside a nearer tile) is left out


def body_length(rng: np.random.Generator, u: float, squeeze: float) -> float:
    """How far (on the plane) a tile's side reaches towards the camera: a camera at elevation e squeezes
    depth by sin e and shows a height t as t cos e, so on the plane the side is t cot e deep."""
    cot = np.sqrt(1 - squeeze ** 2) / squeeze
    return u * THICKNESS * min(float(cot * rng.uniform(0.85, 1.15)), 1.9)


def rim(rng: np.random.Generator, plane: np.ndarray, occupied: np.ndarray, u: float,
        open_to_tiles: bool = False) -> None:
    """The table's raised rim along the plane's edges: glossy, marbled, with highlights. No tile goes on
    it unless ``open_to_tiles``: at a real table players push melds and the gari pile onto the rim,
    and the tiles nearest a phone's camera often lie on it (the real photo's top right and bottom right)."""
    h, w = plane.shape[:2]
    b = int(u * rng.uniform(0.8, 2.2))
    base = np.array(RIM_COLOURS[int(rng.choice(len(RIM_COLOURS), p=[0.35, 0.25, 0.2, 0.1, 0.1]))], np.float32)
    marble = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    streak = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 3) * 6
    colour = base[None, None] * (1 + 0.12 * marble[..., None]) + streak[..., None]
    colour[..., 1] -= np.clip(marble, 0, None) * 25 * (base[1] < 150)      # red veins in orange plastic
    band = np.zeros((h, w), np.uint8)
    edges = (np.s_[:b], np.s_[-b:], np.s_[:, :b], np.s_[:, -b:])       # far, near, left, right
    for s in [s for s in range(4) if rng.random() < 0.75] or [0]:
        band[edges[s]] = 1
    inner = cv2.erode(band, np.ones((3, 3), np.uint8), iterations=max(1, b // 5))
    m = band.astype(bool)
    plane[m] = np.clip(colour[m], 0, 255) / 255
    plane[(band - inner).astype(bool)] *= 0.7                              # the rim's edge in shadow
    shine = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 4))):                               # specular highlights
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        cv2.ellipse(shine, (x, y), (int(u * rng.uniform(1, 5)), max(1, int(u * 0.15))), float(rng.uniform(0, 180)),
                    0, 360, 1.0, -1, lineType=cv2.LINE_AA)
    shine = (cv2.GaussianBlur(shine, (0, 0), 1.5) * m)[..., None]         # on the rim only
    plane[:] = plane * (1 - shine) + 0.97 * shine
    if not open_to_tiles:
        occupied |= cv2.dilate(band, np.ones((3, 3), np.uint8), iterations=max(1, int(u * 0.3)))


def camera(rng: np.random.Generator, plane_w: int, plane_h: int, w: int, h: int) -> np.ndarray:
    """A homography from the plane to a slanted camera: the far edge narrower than the near one."""
    inset = w * rng.uniform(0.06, 0.22)
    spill = w * rng.uniform(-0.03, 0.08)
    top, bottom = h * rng.uniform(-0.04, 0.1), h * rng.uniform(0.92, 1.06)
    dst = np.float32([[inset, top], [w - inset, top], [w + spill, bottom], [-spill, bottom]])
    dst += rng.uniform(-0.03, 0.03, (4, 2)).astype(np.float32) * np.float32([w, h])
    src = np.float32([[0, 0], [plane_w, 0], [plane_w, plane_h], [0, plane_h]])
    return cv2.getPerspectiveTransform(src, dst)


def backdrop(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Beyond the table: dark clothes, chairs, a wall (uint8 BGR), blurred."""
    img = np.full((h, w, 3), rng.uniform(15, 90, 3), np.float32)
    for _ in range(int(rng.integers(3, 9))):
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        size = (int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.05, 0.3) * h))
        colour = tuple(float(c) for c in rng.uniform(0, 230, 3))
        if rng.random() < 0.5:
            cv2.rectangle(img, (x, y), (x + size[0], y + size[1]), colour, -1)
        else:
            cv2.ellipse(img, (x, y), size, float(rng.uniform(0, 180)), 0, 360, colour, -1)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 2), 0, 255).astype(np.uint8)


def visible_boxes(ids: np.ndarray, m: np.ndarray, w: int, h: int, outlines: list[np.ndarray],
                  keep: float = 0.4, sliver: float = 0.0) -> list[tuple[float, float, float, float] | None]:
    """Each tile's box around what the camera sees of it (a near tile hides a far tile's side).

    ``ids`` marks every plane pixel with the index + 1 of the tile drawn last there;
    ``outlines`` are the tiles' whole outlines in the image. A tile less than
    ``keep`` visible (hidden or out of the frame) gets no box. With ``sliver`` > 0 (``SLIVER``:
    tight boxes) the box leaves out the thin strips of a tile seen beside a nearer one in its
    column, runs of a row narrower than that share of the outline's shorter side: a far tile's
    side peeks out there, and its box would reach a third of its height into the nearer tile,
    where a person boxing the photo stops it where the nearer tile starts (vision/labels/README.md).
    """
    seen = cv2.warpPerspective(ids, m, (w, h), flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
    out = []
    for k, outline in enumerate(outlines):
        x1, y1 = np.floor(outline.min(axis=0)).astype(int)
        x2, y2 = np.ceil(outline.max(axis=0)).astype(int)
        area = cv2.contourArea(outline.astype(np.float32))
        cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2 + 1, w), min(y2 + 1, h)
        if cx2 <= cx1 or cy2 <= cy1 or area <= 0:
            out.append(None)
            continue
        mine = (seen[cy1:cy2, cx1:cx2] == k + 1).astype(np.uint8)
        if int(mine.sum()) < keep * area:
            out.append(None)
            continue
        if sliver > 0:
            side = 2 * int(round(sliver * min(x2 - x1, y2 - y1) / 2)) + 1     # odd: the opening stays in place
            core = cv2.morphologyEx(mine, cv2.MORPH_OPEN, np.ones((1, side), np.uint8))   # along rows only:
            # a row of a face or a side seen whole stays, and so do a slanted edge's corners
            mine = core if core.any() else mine
        ys, xs = np.nonzero(mine)
        out.append((float(cx1 + xs.min()), float(cy1 + ys.min()), float(cx1 + xs.max() + 1),
                    float(cy1 + ys.max() + 1)))
    return out
