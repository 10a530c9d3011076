"""A table scene: felt, groups of tiles, clutter, seen through a camera, with the truth of every tile.

The scene is drawn on a top-down table plane, then warped by a random
homography (a camera a little off straight-down), then given the camera's
faults: uneven light, a colour cast, blur, noise and JPEG. Every tile's box,
class and rotation (0/90/180/270, clockwise, of the face's top) is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .art import TileArt
from ..classes import BACK
from . import layouts, oblique
from .console import cover, draw_console
from .fonts import FontDesign
from .suits import SuitDesign
from .tile import FACE_ASPECT, TileStyle, draw_tile, face_image, random_style, rect_corners

SEAT_TILE = (0.05, 0.085)   # a seat photo's hand tiles: this share of the picture's width each (on the
                            # table plane; the camera shows them narrower, near the real photos' 0.047-0.068)
SEAT_PLANE = (1.2, 1.6)     # ... its table plane this many times the picture's height (``oblique.plane_height``)
SEAT_ROW = (0.45, 0.7)      # ... the line lies this far down the table plane (near the camera) ...
SEAT_NADIR = (1.05, 1.4)    # ... and the camera's foot just beyond the plane's near edge
SEAT_ZOOM = (1.1, 1.8)      # ... drawn this much larger than the picture, which is cut around the hand
SEAT_CONSOLE = 0.6          # share of seat photos with the seat's console across the bottom
# a seat photo taken lower over the hand (``low_seat``): its table plane this many times the picture's
# height (faces squeezed to 0.36-0.63 of their depth; hand-839f5eac's about 0.45), its tiles' sides ivory
# for this share of their depth, the back layer thin (as hand-839f5eac's and hand-92345ff1's sets)
LOW_SEAT_PLANE = (1.6, 2.8)
LOW_SEAT_IVORY = (0.5, 0.85)
FELTS = [(120, 115, 40), (150, 140, 60), (160, 150, 135), (70, 110, 40), (110, 90, 50), (90, 80, 70)]


@dataclass(frozen=True)
class Annotation:
    """One visible tile: class, box in image pixels, rotation of its face, its face's corners."""

    cls: str
    box: tuple[float, float, float, float]
    rotation: int
    face: tuple[tuple[float, float], ...]

    def to_dict(self) -> dict:
        return {"tile": self.cls, "box": [round(v, 1) for v in self.box], "rotation": self.rotation,
                "face": [[round(x, 1), round(y, 1)] for x, y in self.face]}


@dataclass
class Scene:
    image: np.ndarray                      # BGR uint8
    tiles: list[Annotation] = field(default_factory=list)
    style: TileStyle | None = None
    console: np.ndarray | None = None      # a seat view's console: per column, the first row it covers


def felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Table felt: a base colour, a slow gradient and a fine weave (float32 BGR 0..1)."""
    base = np.array(FELTS[int(rng.integers(len(FELTS)))], np.float32) * rng.uniform(0.8, 1.15, 3)
    small = rng.normal(0, 1, (6, 8)).astype(np.float32)
    slow = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)[..., None] * 8
    weave = rng.normal(0, rng.uniform(2, 7), (h, w, 1)).astype(np.float32)
    img = np.clip(base + slow + weave, 0, 255) / 255
    for _ in range(int(rng.integers(0, 4))):          # grooves and rims of an automatic table
        x, y = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        a, b = ((x, 0), (x, h)) if rng.random() < 0.5 else ((0, y), (w, y))
        cv2.line(img, a, b, tuple(float(c) for c in base / 255 * 0.6), int(rng.integers(2, 8)))
    return img


def _clutter(rng: np.random.Generator, img: np.ndarray, occupied: np.ndarray, u: float) -> None:
    """Point sticks and chips where no tile lies."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, 6))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        stick = rng.random() < 0.6
        if stick:
            quad = rect_corners(cx, cy, u * rng.uniform(3, 4.5), u * 0.25, float(rng.uniform(0, 180)))
        else:
            quad = rect_corners(cx, cy, u * 0.9, u * 0.9, 0)
            colour = tuple(float(c) for c in rng.uniform(0.2, 1.0, 3))
        pts = np.round(quad).astype(np.int32)
        mask = np.zeros_like(occupied)
        cv2.fillConvexPoly(mask, pts, 1)
        if (mask & occupied).any():
            continue
        if stick:
            cv2.fillConvexPoly(img, pts, (0.93, 0.93, 0.92), lineType=cv2.LINE_AA)
            for k in range(int(rng.integers(1, 6))):
                dot = quad.mean(axis=0) + (quad[1] - quad[0]) * (k - 2) * 0.15
                cv2.circle(img, tuple(int(v) for v in dot), max(1, int(u * 0.07)), (0.1, 0.1, 0.6), -1)
        else:
            cv2.circle(img, (int(cx), int(cy)), int(u * 0.45), colour, -1, lineType=cv2.LINE_AA)
        occupied |= mask


def _place_groups(rng, art, style, img, occupied, u, centre, light, max_groups, body_length=None, ids=None,
                  fixed=()):
    """Groups at random places and turns where they fit; returns (cls, face quad, hull, rotation) per tile.

    A tile's side shows towards ``centre`` (the camera's foot): a strip proportional to its distance
    (overhead), or ``body_length`` deep (a slanted camera). ``ids``, when given, gets each tile's
    index + 1 where it is the tile drawn last (what the camera sees of it). ``fixed``: groups laid
    first where they are given, as (tiles, angle in degrees, origin on the plane: float32 x, y), if
    they fit."""
    h, w = img.shape[:2]
    placed = []                  # (tile, face quad, rotation on the table) of every tile that fits
    groups = 0
    names = list(layouts.GROUP_WEIGHTS)
    weights = np.array([layouts.GROUP_WEIGHTS[n] for n in names])
    shadow = np.zeros((h, w), np.float32)

    def lay(tiles, angle: float, origin: np.ndarray) -> None:
        nonlocal groups
        a = np.deg2rad(angle)
        rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        local = np.float32([[t.x, t.y] for t in tiles]) * u
        local -= local.mean(axis=0)
        centres = local @ rot.T + origin
        quads = [rect_corners(float(c[0]), float(c[1]), u, u * FACE_ASPECT, angle + t.turn)
                 for t, c in zip(tiles, centres)]
        mask = np.zeros_like(occupied)
        for q in quads:
            cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
        mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
        allq = np.vstack(quads)
        if (allq.min() < 0 or (allq[:, 0] >= w).any() or (allq[:, 1] >= h).any() or (mask & occupied).any()):
            return
        occupied[:] |= mask
        groups += 1
        for t, q in zip(tiles, quads):
            placed.append((t, q, int(round((angle + t.turn) / 90)) % 4 * 90))
            cv2.fillConvexPoly(shadow, np.round(np.vstack([q, q + light])).astype(np.int32), 1.0)

    for tiles, angle, origin in fixed:
        lay(tiles, angle, origin)
    for _ in range(max_groups * 3):
        if groups >= max_groups:
            break
        tiles = layouts.GROUPS[names[int(rng.choice(len(names), p=weights / weights.sum()))]](rng)
        turn = int(rng.choice([0, 90, 180, 270]))
        angle = turn + float(rng.normal(0, 2.0))
        lay(tiles, angle, rng.uniform([u * 2, u * 2], [w - u * 2, h - u * 2]).astype(np.float32))
    # shadows under everything, softened
    k = int(u * 0.4) | 1
    shadow = cv2.GaussianBlur(shadow, (k, k), 0)[..., None]
    img *= 1 - float(rng.uniform(0.2, 0.45)) * shadow
    out = []
    for t, q, rotation in sorted(placed, key=lambda p: float(p[1][:, 1].mean())):   # far rows first
        c = q.mean(axis=0)
        if body_length is None:
            body = (centre - c) * float(rng.uniform(0.035, 0.06))
            body *= min(1.0, u * 0.45 / max(float(np.linalg.norm(body)), 1e-6))
        else:
            body = (centre - c) / max(float(np.linalg.norm(centre - c)), 1e-6) * body_length
            body *= float(rng.uniform(0.9, 1.1))
        face = face_image(art, t.cls, style, max(8, int(round(u * 1.5))), rng)
        hull = draw_tile(img, face, q, body.astype(np.float32), style, t.face_down)
        if ids is not None:
            cv2.fillConvexPoly(ids, np.round(hull).astype(np.int32), len(out) + 1)
        out.append((t.cls, q, hull, rotation))
    return out


def _camera(rng, img, w_out, h_out):
    """A homography from the table plane to a camera a little off straight-down."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    j = rng.uniform(-0.06, 0.06, (4, 2)) * (w_out, h_out)
    dst = np.float32([[0, 0], [w_out, 0], [w_out, h_out], [0, h_out]]) + j.astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _seen(points: np.ndarray, m: np.ndarray) -> np.ndarray:
    """Points of the table plane where the camera (homography ``m``) sees them."""
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float32), m).reshape(-1, 2)


def _photo(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Light falloff, a highlight, a colour cast, blur, sensor noise, JPEG."""
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = np.sqrt(((xx - cx) / w) ** 2 + ((yy - cy) / h) ** 2)
    light = 1.0 - float(rng.uniform(0.0, 0.35)) * r + float(rng.uniform(0, 0.15)) * np.exp(-(r / 0.15) ** 2)
    cast = rng.uniform(0.85, 1.12, 3).astype(np.float32)
    out = img.astype(np.float32) * light[..., None] * cast
    s = float(rng.uniform(0, 1.3))
    if s > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), s)
    out += rng.normal(0, rng.uniform(0, 6), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def render_scene(rng: np.random.Generator, art: TileArt, size: tuple[int, int] = (960, 720),
                 unit: tuple[float, float] = (24, 52), max_groups: int = 12, view: str = "overhead",
                 rim_tiles: float = 0.0, designs: bool = False, console: bool = False,
                 real_faces: bool = False, console_details: np.random.Generator | None = None,
                 font: FontDesign | None = None, seat: bool = False, tight_boxes: bool = False,
                 suits: SuitDesign | None = None, low_seat: np.random.Generator | None = None) -> Scene:
    """One scene of ``size`` (w, h) pixels; tiles ``unit`` px wide on the table plane.

    ``view`` is ``overhead`` (a camera a little off straight-down) or ``oblique``
    (a camera beside the table, as in the real photo: see ``oblique.py``). An oblique
    scene's rim is open to tiles with probability ``rim_tiles`` (0: never, and no random
    draw is spent on it, so scenes rendered before it existed render the same). ``designs``: the
    scene's set is one of many tile designs (``tile.random_style``), not only the art's two.
    ``console`` (oblique only): the player's rail, score display and stick tray across the bottom,
    as a photo from a seat shows them (``console.py``), with keys and tray compartments drawn by
    ``console_details`` where given. ``real_faces``: each tile of a kind the real
    single tiles hold shows one of their faces (``real_faces.py``). ``font``: the set's character
    tiles are drawn in that typeface (``fonts.py``); ``suits``: its circles and bamboos in that design
    (``suits.py``). ``seat`` (oblique only): a photo from the winner's
    seat, the revealed hand across the picture near the camera (``_seat_hand``); with ``low_seat``, that
    photo taken lower over the hand, its tiles' sides mostly ivory (``LOW_SEAT_PLANE``, ``LOW_SEAT_IVORY``,
    drawn with that generator: the scene's own draws stay). ``tight_boxes`` (oblique
    only): a tile's box leaves out the slivers of it seen beside a nearer tile (``oblique.visible_boxes``);
    it changes no pixel and no draw, only boxes."""
    if view == "oblique":
        return _render_oblique(rng, art, size, unit, max_groups, rim_tiles, designs, console, real_faces,
                               console_details, font, seat, tight_boxes, suits, low_seat)
    if view != "overhead":
        raise ValueError(f"view must be 'overhead' or 'oblique', not {view!r}")
    w, h = size
    style = replace(random_style(rng, designs), real_faces=real_faces, font=font, suits=suits)
    u = float(rng.uniform(*unit))
    plane = felt(rng, w, h)
    occupied = np.zeros((h, w), np.uint8)
    centre = np.float32(rng.uniform([0.3 * w, 0.3 * h], [0.7 * w, 0.7 * h]))
    light = rng.normal(0, 1, 2).astype(np.float32) * u * 0.12
    tiles = _place_groups(rng, art, style, plane, occupied, u, centre, light, max_groups)
    _clutter(rng, plane, occupied, u)
    m = _camera(rng, plane, w, h)
    view_img = cv2.warpPerspective((plane * 255).astype(np.uint8), m, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REFLECT)
    image = _photo(rng, view_img)
    anns = []
    for cls, quad, hull, rot in tiles:
        face, outline = _seen(quad, m), _seen(hull, m)
        box = _in_frame((*outline.min(axis=0), *outline.max(axis=0)), w, h)
        if box is None:
            continue            # mostly outside the frame: not a readable tile
        anns.append(Annotation(cls, box, rot, tuple((float(x), float(y)) for x, y in face)))
    return Scene(image, anns, style)


def _in_frame(box, w: int, h: int) -> tuple[float, float, float, float] | None:
    """The part of ``box`` inside a ``w`` x ``h`` picture, or None when less than 0.6 of it is there
    (mostly outside the frame: not a readable tile)."""
    x1, y1, x2, y2 = box
    cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, w), min(y2, h)
    if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < 0.6 * (x2 - x1) * (y2 - y1):
        return None
    return float(cx1), float(cy1), float(cx2), float(cy2)


def _render_oblique(rng, art, size, unit, max_groups, rim_tiles=0.0, designs=False, console=False,
                    real_faces=False, console_details=None, font=None, seat=False, tight_boxes=False,
                    suits=None, low_seat=None) -> Scene:
    """The table seen from one side: a taller plane squeezed by the camera, a rim, what lies beyond it,
    and each tile's box around what is seen of it."""
    w, h = size
    style = replace(random_style(rng, designs), real_faces=real_faces, font=font, suits=suits)
    if seat:
        hand = layouts.seat_line(rng)
        u, max_groups = _seat_hand(rng, hand, w), int(rng.integers(2, 6))
        console = console and rng.random() < SEAT_CONSOLE
        # the table drawn larger, the picture then cut around the hand: a camera close to it
        zoom = float(rng.uniform(*SEAT_ZOOM))
        out_size, (w, h) = (w, h), (int(round(w * zoom)), int(round(h * zoom)))
    else:
        u = float(rng.uniform(*unit))
    # a seat's camera looks down on the hand more steeply than across the table: faces less squeezed
    ph = int(round(h * rng.uniform(*SEAT_PLANE))) if seat else oblique.plane_height(rng, h)
    if seat and low_seat is not None:
        ph = int(round(h * low_seat.uniform(*LOW_SEAT_PLANE)))
        style = replace(style, ivory=float(low_seat.uniform(*LOW_SEAT_IVORY)))
    plane = felt(rng, w, ph)
    if rng.random() < 0.5:             # the photo's grey-blue felt, often
        tint = np.array(oblique.PHOTO_FELTS[int(rng.integers(len(oblique.PHOTO_FELTS)))], np.float32) / 255
        plane = np.clip(plane - plane.mean(axis=(0, 1)) + tint, 0, 1)
    occupied = np.zeros((ph, w), np.uint8)
    # a seat photo's hand may reach over the rim at its ends: the rim leaves the line room
    oblique.rim(rng, plane, occupied, u, open_to_tiles=seat or (rim_tiles > 0 and rng.random() < rim_tiles))
    centre = oblique.nadir(rng, w, ph)
    fixed = ()
    if seat:        # the camera stands at the table's edge, just before the hand: the end tiles show their sides
        centre = np.float32([rng.uniform(0.35, 0.65) * w, rng.uniform(*SEAT_NADIR) * ph])
        angle = float(rng.normal(0, 1.0))
        at = np.float32([w / 2 + rng.uniform(-0.03, 0.03) * w, rng.uniform(*SEAT_ROW) * ph])     # the line's middle
        fixed = [(hand, angle, at)]
    light = np.float32([rng.normal(0, 0.5), abs(rng.normal(0, 1))]) * u * 0.12
    ids = np.zeros((ph, w), np.int32)
    tiles = _place_groups(rng, art, style, plane, occupied, u, centre, light, max_groups,
                          body_length=oblique.body_length(rng, u, h / ph), ids=ids, fixed=fixed)
    _clutter(rng, plane, occupied, u)
    m = oblique.camera(rng, w, ph, w, h)
    view_img = oblique.backdrop(rng, w, h)
    cv2.warpPerspective((plane * 255).astype(np.uint8), m, (w, h), dst=view_img, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)
    outlines = [_seen(hull, m) for _, _, hull, _ in tiles]
    boxes = oblique.visible_boxes(ids, m, w, h, outlines, sliver=oblique.SLIVER if tight_boxes else 0.0)
    if seat:
        view_img, boxes, m = _cut_around(rng, view_img, boxes, m, _seen(at, m)[0], out_size)
    edge = None
    if console:
        edge = draw_console(rng, view_img, console_details)
        boxes = [cover(b, edge) if b is not None else None for b in boxes]
    image = _photo(rng, view_img)
    anns = []
    for (cls, quad, _, rot), box in zip(tiles, boxes):
        if box is None:
            continue
        anns.append(Annotation(cls, box, rot, tuple((float(x), float(y)) for x, y in _seen(quad, m))))
    return Scene(image, anns, style, edge)


def _cut_around(rng, image: np.ndarray, boxes, m: np.ndarray, at, size: tuple[int, int]):
    """A ``size`` picture cut from ``image`` with the point ``at`` near its middle (the hand line's
    centre, a little below the middle), the boxes moved into it (None where less than 0.6 of one
    shows), and the homography ``m`` moved with it."""
    w, h = size
    x0 = int(np.clip(at[0] - w / 2 + rng.uniform(-0.03, 0.03) * w, 0, image.shape[1] - w))
    y0 = int(np.clip(at[1] - h * rng.uniform(0.45, 0.65), 0, image.shape[0] - h))
    moved = [None if b is None else _in_frame((b[0] - x0, b[1] - y0, b[2] - x0, b[3] - y0), w, h) for b in boxes]
    shift = np.float64([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]])
    return image[y0:y0 + h, x0:x0 + w].copy(), moved, shift @ m


def _seat_hand(rng: np.random.Generator, hand, w: int) -> float:
    """The tile width (plane px) of a seat photo's scene: ``SEAT_TILE`` of the picture's width, shrunk
    where the line would not fit across it (the real photos' lines span 0.65-0.9 of the picture)."""
    length = max(p.x for p in hand) - min(p.x for p in hand) + layouts.H
    return min(float(rng.uniform(*SEAT_TILE)) * w, w / length)


def draw_annotations(scene: Scene) -> np.ndarray:
    """The scene with every tile's box and class drawn: the stage's debugging image."""
    img = scene.image.copy()
    for a in scene.tiles:
        x1, y1, x2, y2 = (int(v) for v in a.box)
        colour = (0, 0, 255) if a.cls.startswith("0") else (40, 40, 40) if a.cls == BACK else (0, 160, 0)
        cv2.rectangle(img, (x1, y1), (x2, y2), colour, 1)
        cv2.putText(img, f"{a.cls}/{a.rotation}", (x1, max(10, y1 - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                    colour, 1, cv2.LINE_AA)
    return img
