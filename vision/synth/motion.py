"""Whole tables in motion: camera sequences of a deal, with arms, tiles laid down, blur and the truth.

The table renderer (``table.py``) draws one still table after a win. A table
watcher needs what comes before and after: play, a hand laid down while arms
move over it, the still view, the tiles pushed into the automatic table, the
next deal. ``Stage(seed, art)`` draws one deal's table in its states, all with
one felt, one tile set and one camera pose:

- ``play``: every hand as backs (the winner's row too), melds, gari, discards, the dead wall;
- ``win``: the deal as ``table.render_table`` lays it out, the winner's row face up with
  the winning tile set apart (``stage.record`` is its hand record);
- ``tenpai``: a draw's tenpai display: the winner-to-be's 13 tiles and a second seat's 13
  face up, no tile set apart;
- ``empty``: the felt after the tiles went into the table;
- ``next``: the next deal: three hands of backs and the dead wall.

Each state is drawn once (about 0.7 s) and warped to the camera once; a frame
is a state's image with parts taken from another (a row turning face up under
a hand, a tile sliding into place, the felt clearing towards the middle),
arms drawn over it as occluding shapes with their shadow (and smeared when
they move fast), now and then a frame blurred whole, and fresh sensor noise.

Clips (``Clip``: frames made one at a time on iteration, the fps, the truth):

- ``win_clip``: play, a discard, the winner lays the hand down (arm along the row, the
  winning tile slid into place apart), another hand points at it, then the still view
  (``clip.settled`` is its first frame);
- ``discard_clip``: play, an arm puts a tile in a discard pond, play again: must not fire;
- ``tenpai_clip``: a draw: two seats lay their 13 tiles down one after the other: must not fire;
- ``push_clip``: tiles pushed into the table (the felt clears from the edge towards the
  middle opening) and the next deal taken: must not fire;
- ``deal_clip``: one whole deal for the bench: play, discards, a win (or a tenpai display,
  or nothing at a draw), the still view, the push, the next deal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

import cv2
import numpy as np

from calibration.markers import MarkerLayout, default_layout
from calibration.synth import SIZE, random_pose, render, topdown
from calibration.zones import SEATS, side_frame

from .art import TileArt
from ..classes import BACK, SANMA_KINDS
from .scene import felt
from .table import (PX_PER_MM, STEP, TH, TILE_HEIGHT_MM, CAMERA_HEIGHT_MM, TW, Laid, _place, _upright, deal,
                    lay_out, record_of, shadowed_quads)
from .tile import draw_tile, face_image, random_style, rect_corners

FPS = 8.0
SKINS = ((150, 175, 225), (120, 150, 205), (90, 120, 175), (60, 85, 130), (170, 195, 235))   # BGR
SLEEVES = ((40, 40, 45), (225, 225, 225), (140, 80, 40), (40, 40, 160), (70, 110, 70), (170, 170, 175))
ARM_MM = 85.0                # a forearm's width
HAND_MM = (95.0, 120.0)      # a hand, across and along the arm
BODY_V = -260.0              # where an arm comes from: the player's shoulder, beyond the table's edge


# -- one deal's table in its states ----------------------------------------------------------------

class Stage:
    """One deal's table in its states (module docstring), seen by one camera: each state's frame
    without noise (``self.frame(state)``), the table-mm geometry of the deal's tiles, the truth."""

    def __init__(self, seed: int, art: TileArt, layout: MarkerLayout | None = None, size=SIZE,
                 rules: str = "dunhill"):
        rng = np.random.default_rng(seed)
        self.seed, self.art, self.size = seed, art, size
        self.layout = layout or default_layout()
        self.deal = deal(rng)
        self.seat = self.deal["seat"]
        self.laid = lay_out(self.deal, self.layout, rng)
        self.record = record_of(self.deal, self.layout, rules)
        self.H = random_pose(rng, self.layout)
        self.cast = rng.uniform(0.9, 1.08, 3)
        self.blur = float(rng.uniform(0.4, 0.9))
        self.noise = float(rng.uniform(1.0, 3.0))
        p = PX_PER_MM
        x0, y0, x1, y1 = (int(round(v * p)) for v in self.layout.felt)
        self._felt = felt(rng, x1 - x0, y1 - y0)
        self._style = random_style(rng)
        self._frames: dict[str, np.ndarray] = {}
        self._index()
        self.noise_fields = [self._noise_field(rng) for _ in range(4)]

    # the deal's tiles by role (lay_out's order: the winner's row, melds, gari, then per seat its
    # discards and, for the others, 13 backs; then the dead wall)
    def _index(self) -> None:
        d = self.deal
        n_hand = len(d["concealed"])
        n_melds = sum(4 if m["kind"] != "pon" else 3 for m in d["melds"])
        i = n_hand + n_melds + len(d["gari"])
        self.hand = list(range(n_hand))
        self.discards: dict[str, list[int]] = {}
        self.backs: dict[str, list[int]] = {}
        for s in SEATS:
            k = len(d["discards"][s])
            self.discards[s] = list(range(i, i + k))
            i += k
            if s != self.seat:
                self.backs[s] = list(range(i, i + 13))
                i += 13
        self.dead_wall = list(range(i, len(self.laid)))
        self.other = next(s for s in SEATS if s != self.seat)       # the second seat of a tenpai display

    def tiles(self, state: str) -> list[Laid]:
        """The tiles lying on the table in ``state``."""
        laid = list(self.laid)
        if state == "win":
            return laid
        if state == "empty":
            return []
        rng = np.random.default_rng(self.seed + 7)
        if state == "next":
            out = [Laid(BACK, *_place(self.layout, s, -185.0 + TW / 2 + k * STEP, 40.0),
                        _upright(self.layout, s)) for s in SEATS for k in range(13)]
            dora = str(rng.choice(SANMA_KINDS))
            return out + [Laid(dora if k == 2 else BACK, *_place(self.layout, "north", -3 * STEP + k * STEP, 25.0),
                               _upright(self.layout, "north")) for k in range(7)]
        row = [laid[i] for i in self.hand[:-1]]           # the hand held during play: no tile set apart
        rest = [t for i, t in enumerate(laid) if i not in self.hand]
        if state == "play":
            return [Laid(BACK, t.x, t.y, t.turn) for t in row] + rest
        if state == "tenpai":
            shown = {i: Laid(str(rng.choice(SANMA_KINDS)), laid[i].x, laid[i].y, laid[i].turn)
                     for i in self.backs[self.other]}
            return row + [shown.get(i, t) for i, t in enumerate(laid) if i not in self.hand]
        raise ValueError(f"no state {state!r}")

    def top(self, state: str) -> np.ndarray:
        """The table top from above (PX_PER_MM) in ``state``: drawn as ``table._draw`` draws it, but with
        the stage's one felt and tile set (``_draw`` draws both afresh from its generator each time)."""
        p = PX_PER_MM
        top = topdown(self.layout, p).astype(np.float32) / 255
        x0, y0, x1, y1 = (int(round(v * p)) for v in self.layout.felt)
        top[y0:y1, x0:x1] = self._felt
        tiles = self.tiles(state)
        rng = np.random.default_rng(self.seed + 11)
        centre = np.array(self.layout.table_mm, np.float32) / 2 * p
        quads = shadowed_quads(top, tiles, p)
        for t, q in sorted(zip(tiles, quads), key=lambda tq: -np.linalg.norm(tq[1].mean(axis=0) - centre)):
            body = (centre - q.mean(axis=0)) * (TILE_HEIGHT_MM / CAMERA_HEIGHT_MM)
            face = face_image(self.art, t.tile, self._style, int(round(TW * p * 1.5)), rng)
            draw_tile(top, face, q, body.astype(np.float32), self._style, t.tile == BACK)
        return np.clip(top * 255, 0, 255).astype(np.uint8)

    def frame(self, state: str) -> np.ndarray:
        """The camera's view of ``state`` without noise (drawn once, then kept)."""
        if state not in self._frames:
            base, _, shift = state.partition("@")
            if shift:           # "win@dx,dy": the state's frame moved by (dx, dy) px (a tile sliding)
                dx, dy = (float(v) for v in shift.split(","))
                self._frames[state] = cv2.warpAffine(self.frame(base), np.float32([[1, 0, dx], [0, 1, dy]]),
                                                     self.size, borderMode=cv2.BORDER_REPLICATE)
            else:
                self._frames[state] = render(self.top(state), self.H, None, PX_PER_MM, self.size,
                                             blur=self.blur, noise=0.0, cast=self.cast)
        return self._frames[state]

    # -- geometry in the camera frame --------------------------------------------------------------
    def to_image(self, pts_mm) -> np.ndarray:
        pts = np.asarray(pts_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.H).reshape(-1, 2)

    def seat_point(self, seat: str, u: float, v: float) -> np.ndarray:
        (mx, my), (ix, iy), (rx, ry) = side_frame(self.layout, seat)
        return np.array([mx + u * rx + v * ix, my + u * ry + v * iy])

    def tile_mask(self, tiles: list[Laid], grow_mm: float = 4.0, shift_mm=(0.0, 0.0)) -> np.ndarray:
        """The camera-frame mask (uint8 0/255) of these tiles' faces and bodies, grown by ``grow_mm``."""
        mask = np.zeros(self.size[::-1], np.uint8)
        for t in tiles:
            q = rect_corners(t.x + shift_mm[0], t.y + shift_mm[1], TW + 2 * grow_mm, TH + 2 * grow_mm, t.turn)
            cv2.fillConvexPoly(mask, np.round(self.to_image(q)).astype(np.int32), 255)
        return mask

    def zone_mask(self, seat: str, u0: float, u1: float, v0: float = 0.0, v1: float = 80.0) -> np.ndarray:
        """The mask of a seat-local rectangle (mm along the player's edge, and towards the centre)."""
        mask = np.zeros(self.size[::-1], np.uint8)
        quad = [self.seat_point(seat, u, v) for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))]
        cv2.fillConvexPoly(mask, np.round(self.to_image(quad)).astype(np.int32), 255)
        return mask

    def outside_mask(self, r_mm: float) -> np.ndarray:
        """Everything on the felt farther than ``r_mm`` (Chebyshev) from the table's middle."""
        cx, cy = np.array(self.layout.table_mm) / 2
        mask = np.full(self.size[::-1], 255, np.uint8)
        inner = [(cx - r_mm, cy - r_mm), (cx + r_mm, cy - r_mm), (cx + r_mm, cy + r_mm), (cx - r_mm, cy + r_mm)]
        if r_mm > 0:
            cv2.fillConvexPoly(mask, np.round(self.to_image(inner)).astype(np.int32), 0)
        return mask

    def _noise_field(self, rng: np.random.Generator) -> np.ndarray:
        """Sensor noise for a frame (int16); a clip cycles through four, so no two frames in a row match."""
        return np.round(rng.normal(0, self.noise, (self.size[1], self.size[0], 3))).astype(np.int16)


# -- what moves over the table ---------------------------------------------------------------------

@dataclass(frozen=True)
class Arm:
    """An arm over the table: from the player's shoulder (beyond ``seat``'s edge) to the hand at
    seat-local ``(u, v)`` mm; ``smear`` the hand's previous place (drawn smeared between the two)."""

    seat: str
    u: float
    v: float
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    smear: tuple[float, float] | None = None


def _arm_polys(stage: Stage, arm: Arm, u: float, v: float) -> tuple[np.ndarray, np.ndarray]:
    """The forearm (a quad) and the hand (an ellipse) in camera pixels."""
    shoulder = stage.seat_point(arm.seat, u * 0.35, BODY_V)
    wrist = stage.seat_point(arm.seat, u, v - HAND_MM[1] * 0.45)
    hand_c = stage.seat_point(arm.seat, u, v)
    d = wrist - shoulder
    n = np.array([-d[1], d[0]]) / (np.linalg.norm(d) + 1e-9) * ARM_MM / 2
    fore = stage.to_image([shoulder + n, wrist + n * 0.8, wrist - n * 0.8, shoulder - n])
    along = (hand_c - wrist) / (np.linalg.norm(hand_c - wrist) + 1e-9)
    across = np.array([-along[1], along[0]])
    a = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    ell = hand_c + np.outer(np.cos(a) * HAND_MM[0] / 2, across) + np.outer(np.sin(a) * HAND_MM[1] / 2, along)
    return fore, stage.to_image(ell)


SHADOW_PX = (22, 30)         # an arm's shadow falls a little aside (the light is above and to one side)


def draw_arms(stage: Stage, frame: np.ndarray, arms: list[Arm]) -> np.ndarray:
    """The arms drawn over ``frame`` (BGR uint8), each with a soft shadow on the table; an arm with
    ``smear`` is drawn at five places between its last and this one and averaged (motion blur)."""
    out = frame.copy()
    h, w = frame.shape[:2]
    for arm in arms:
        places = [(arm.u, arm.v)]
        if arm.smear is not None:
            places = [(arm.smear[0] + (arm.u - arm.smear[0]) * k / 4, arm.smear[1] + (arm.v - arm.smear[1]) * k / 4)
                      for k in range(5)]
        polys = [_arm_polys(stage, arm, u, v) for u, v in places]
        pts = np.vstack([p for pair in polys for p in pair])
        x0, y0 = np.maximum(np.floor(pts.min(axis=0)).astype(int) - 40, 0)
        x1, y1 = np.minimum(np.ceil(pts.max(axis=0)).astype(int) + 60, (w, h))
        if x1 <= x0 or y1 <= y0:
            continue
        rw, rh = x1 - x0, y1 - y0
        fore_a, hand_a, shadow = (np.zeros((rh, rw), np.float32) for _ in range(3))
        for fore, hand in polys:
            f = np.round(fore - (x0, y0)).astype(np.int32)
            hd = np.round(hand - (x0, y0)).astype(np.int32)
            one_f, one_h, sh = (np.zeros((rh, rw), np.float32) for _ in range(3))
            cv2.fillConvexPoly(one_f, f, 1.0, lineType=cv2.LINE_AA)
            cv2.fillPoly(one_h, [hd], 1.0, lineType=cv2.LINE_AA)
            cv2.fillConvexPoly(sh, f + SHADOW_PX, 1.0)
            cv2.fillPoly(sh, [hd + SHADOW_PX], 1.0)
            fore_a += one_f / len(polys)
            hand_a += one_h / len(polys)
            shadow += sh / len(polys)
        roi = out[y0:y1, x0:x1].astype(np.float32)
        roi *= (1 - 0.35 * cv2.GaussianBlur(shadow, (0, 0), 9))[..., None]
        hand_a = np.clip(hand_a, 0, 1)[..., None]
        fore_a = np.clip(fore_a, 0, 1)[..., None] * (1 - hand_a)
        roi = roi * (1 - fore_a) + np.array(arm.sleeve, np.float32) * fore_a
        roi = roi * (1 - hand_a) + np.array(arm.skin, np.float32) * hand_a
        out[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)
    return out


# -- a frame and a clip ------------------------------------------------------------------------------

Part = tuple[str, Callable[[], np.ndarray]]     # (a state, or "state@dx,dy": shifted; the mask to take)


@dataclass(frozen=True)
class Shot:
    """How one frame is made: a state, parts taken from other states (in order), arms over it, and a
    blur over the whole frame (0: none)."""

    state: str
    parts: tuple[Part, ...] = ()
    arms: tuple[Arm, ...] = ()
    blur: float = 0.0


@dataclass
class Clip:
    """A camera sequence and its truth. Frames are made on iteration (a 1920x1080 frame is 6 MB).

    ``kind``: win, draw (a tenpai display, or nobody shows), discard, push. ``record``: the hand
    record the still view shows after a win (None for the others). ``settled``: the first frame
    of the still view after the win was laid down (None: no win). ``until``: the first frame of
    the push that clears it: an offer from ``settled`` up to ``until`` (and while the count runs
    on past it) is right, any other is a false trigger. ``marks``: (frame, what happens)."""

    stage: Stage
    shots: list[Shot]
    fps: float = FPS
    kind: str = "win"
    record: dict | None = None
    settled: int | None = None
    until: int | None = None
    marks: list[tuple[int, str]] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.shots)

    def __iter__(self) -> Iterator[np.ndarray]:
        for i in range(len(self.shots)):
            yield self.frame(i)

    def frame(self, i: int) -> np.ndarray:
        shot = self.shots[i]
        img = self.stage.frame(shot.state).copy()
        for state, mask in shot.parts:
            cv2.copyTo(self.stage.frame(state), mask(), img)
        img = draw_arms(self.stage, img, list(shot.arms))
        if shot.blur:
            img = cv2.GaussianBlur(img, (0, 0), shot.blur)
        noise = self.stage.noise_fields[(i * 7 + 3) % len(self.stage.noise_fields)]
        return np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)


class Script:
    """Builds a clip's shots at the clip's fps: ``still`` (nothing moves), ``move`` (an arm along a
    path while the table changes under it). ``state`` and ``parts`` are what the table shows now."""

    def __init__(self, stage: Stage, rng: np.random.Generator, fps: float = FPS):
        self.stage, self.rng, self.fps = stage, rng, fps
        self.shots: list[Shot] = []
        self.marks: list[tuple[int, str]] = []
        self.state = "play"
        self.parts: tuple[Part, ...] = ()
        self.hidden: dict[str, Part] = {}       # tiles not on the table yet (a discard to come), by seat

    def hide_discards(self, seats) -> None:
        """These seats' last discards are not in their ponds until ``discard`` puts them there."""
        for seat in seats:
            last = self.stage.laid[self.stage.discards[seat][-1]]
            self.hidden[seat] = ("empty", lambda t=last: self.stage.tile_mask([t], 3.0))

    def now(self, parts: tuple[Part, ...] | None = None) -> tuple[Part, ...]:
        return tuple(self.hidden.values()) + (self.parts if parts is None else parts)

    def n(self, seconds: float) -> int:
        return max(1, int(round(seconds * self.fps)))

    def mark(self, what: str) -> None:
        self.marks.append((len(self.shots), what))

    def still(self, seconds: float) -> None:
        for _ in range(self.n(seconds)):
            self.shots.append(Shot(self.state, self.now()))

    def arm_colours(self) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
        skin = SKINS[int(self.rng.integers(len(SKINS)))]
        sleeve = SLEEVES[int(self.rng.integers(len(SLEEVES)))] if self.rng.random() < 0.7 else skin
        return skin, sleeve

    def move(self, seat: str, path: list[tuple[float, float]], seconds: float,
             change: Callable[[float], tuple[Part, ...]] | None = None, blur_frames: int = 1) -> None:
        """An arm from ``seat`` along ``path`` (seat-local mm; it comes in from beyond the edge and goes
        back out) while ``change(f)`` (f from 0 to 1) says the parts shown under it."""
        skin, sleeve = self.arm_colours()
        n = self.n(seconds)
        pts = [(path[0][0] * 0.5, BODY_V + 60.0)] + list(path) + [(path[-1][0] * 0.5, BODY_V + 60.0)]
        seg = np.cumsum([0.0] + [float(np.hypot(b[0] - a[0], b[1] - a[1])) for a, b in zip(pts, pts[1:])])
        blurred = set(self.rng.choice(np.arange(1, n - 1), size=min(blur_frames, n - 2), replace=False).tolist()) \
            if n > 2 else set()
        last = None
        for k in range(n):
            f = (k + 1) / n
            at = f * seg[-1]
            j = min(int(np.searchsorted(seg, at, side="right")) - 1, len(pts) - 2)
            t = (at - seg[j]) / max(seg[j + 1] - seg[j], 1e-9)
            u = pts[j][0] + (pts[j + 1][0] - pts[j][0]) * t
            v = pts[j][1] + (pts[j + 1][1] - pts[j][1]) * t
            parts = self.now(change(f) if change is not None else None)
            fast = last is not None and np.hypot(u - last[0], v - last[1]) > 60
            arm = Arm(seat, u, v, skin, sleeve, smear=last if fast else None)
            self.shots.append(Shot(self.state, parts, (arm,), blur=1.6 if k in blurred else 0.0))
            last = (u, v)
        if change is not None:
            self.parts = change(1.0)

    def clip(self, kind: str, **kw) -> Clip:
        return Clip(self.stage, self.shots, self.fps, kind, marks=self.marks, **kw)


# -- the table's happenings ---------------------------------------------------------------------------

def seat_uv(st: Stage, seat: str, t: Laid) -> tuple[float, float]:
    """A laid tile's place in a seat's frame: mm along the player's edge (u) and towards the centre (v)."""
    mid, inward, right = side_frame(st.layout, seat)
    dx, dy = t.x - mid[0], t.y - mid[1]
    return float(dx * right[0] + dy * right[1]), float(dx * inward[0] + dy * inward[1])


def hand_zone(st: Stage, seat: str) -> Callable[[], np.ndarray]:
    return lambda: st.zone_mask(seat, -210.0, 210.0, 0.0, 80.0)


def discard(script: Script, seat: str | None = None) -> None:
    """An arm puts ``seat``'s last discard in its pond (hidden until then: ``Script.hide_discards``);
    the tile lies there from half way on."""
    st = script.stage
    seat = seat or next(iter(script.hidden), SEATS[int(script.rng.integers(3))])
    u, v = seat_uv(st, seat, st.laid[st.discards[seat][-1]])

    def put(f: float) -> tuple[Part, ...]:
        if f >= 0.55:
            script.hidden.pop(seat, None)
        return script.parts

    script.mark(f"{seat} discards")
    script.move(seat, [(u * 0.6, 120.0), (u, v)], 1.0, put)


def reveal(script: Script, seat: str, to: str, hand: list[int], win_tile: int | None = None) -> None:
    """``seat`` lays its row down: the arm runs along the row and the tiles turn face up under it
    (``to``'s row replaces the backs), then the winning tile (``win_tile``) slides into its place apart."""
    st = script.stage
    us = sorted(seat_uv(st, seat, st.laid[i])[0] for i in hand)
    u0, u1 = us[0] - 20, us[-1] + 20
    base = script.parts
    held: tuple[Part, ...] = ()
    if win_tile is not None:            # not there yet: it slides in at the end
        wt = st.laid[win_tile]
        held = (("empty", lambda: st.tile_mask([wt], 8.0)),)

    def under(f: float) -> tuple[Part, ...]:
        edge = u0 + (u1 - u0) * min(1.0, f * 1.15)
        return base + ((to, lambda e=edge: st.zone_mask(seat, -210.0, e, 0.0, 80.0)),) + held

    script.mark(f"{seat} lays the hand down")
    script.move(seat, [(u0, 45.0), (u1, 45.0)], float(script.rng.uniform(0.9, 1.4)), under,
                blur_frames=int(script.rng.integers(1, 3)))
    shown = base + ((to, hand_zone(st, seat)),)
    script.parts = shown + held
    if win_tile is None:
        script.parts = shown
        return
    u, _ = seat_uv(st, seat, wt)
    mid, inward, right = side_frame(st.layout, seat)
    steps = [(40.0, 16.0), (28.0, 11.0), (16.0, 6.0), (6.0, 2.0), (0.0, 0.0)]   # mm along the row, and in

    def slide(f: float) -> tuple[Part, ...]:
        du, dv = steps[min(int(f * len(steps)), len(steps) - 1)]
        if du == 0 and dv == 0:
            return shown
        shift = (du * right[0] + dv * inward[0], du * right[1] + dv * inward[1])
        px = st.to_image([[wt.x + shift[0], wt.y + shift[1]]])[0] - st.to_image([[wt.x, wt.y]])[0]
        return shown + held + ((f"{to}@{int(round(px[0]))},{int(round(px[1]))}",
                                lambda s=shift: st.tile_mask([wt], 8.0, s)),)

    script.mark(f"{seat} slides the winning tile into place")
    script.move(seat, [(u + 50, 60.0), (u, 40.0)], 0.6, slide, blur_frames=0)
    script.parts = shown


def point(script: Script, seat: str | None = None) -> None:
    """Another player's hand reaches over the winner's row and goes back (pointing at a tile)."""
    st = script.stage
    seat = seat or next(s for s in SEATS if s != st.seat)
    u, v = seat_uv(st, seat, st.laid[st.hand[len(st.hand) // 2]])
    script.mark(f"{seat} points at the row")
    script.move(seat, [(u * 0.5, v * 0.6), (u, v - 40.0)], float(script.rng.uniform(0.6, 1.0)))


def push(script: Script) -> None:
    """The tiles go into the table: arms from every seat sweep from the edge to the middle and the
    felt clears behind them (the automatic table's middle opening swallows the tiles)."""
    st = script.stage
    base_state, base = script.state, script.parts
    n = script.n(1.4)
    colours = [script.arm_colours() for _ in SEATS]
    half = float(min(st.layout.table_mm) / 2 - st.layout.rim_mm)
    script.mark("the tiles are pushed into the table")
    script.hidden.clear()
    for k in range(n):
        r = half * (1 - (k + 1) / n)
        arms = tuple(Arm(s, 0.0, half - r + 30.0, *colours[i]) for i, s in enumerate(SEATS))
        parts = base + (("empty", lambda r=r: st.outside_mask(r)),)
        script.shots.append(Shot(base_state, parts, arms, blur=1.4 if k == n // 2 else 0.0))
    script.state, script.parts = "empty", ()


def next_deal(script: Script) -> None:
    """The automatic table raises the next deal: each player takes a row of backs; the dead wall."""
    st = script.stage
    script.mark("the next deal")
    script.parts = script.parts + (("next", lambda: st.zone_mask("north", -160.0, 160.0, 0.0, 120.0)),)
    for s in SEATS:
        base = script.parts
        part = ("next", hand_zone(st, s))
        script.move(s, [(0.0, 40.0)], 0.5, lambda f, base=base, part=part: base + ((part,) if f > 0.4 else ()))


# -- clips ----------------------------------------------------------------------------------------------

def win_clip(stage: Stage, seed: int = 0, fps: float = FPS, settle_s: float = 2.5, push_after: bool = False) -> Clip:
    """Play, a discard, the winner lays the hand down, someone points at it, the still view
    (``settle_s``), and with ``push_after`` the tiles pushed in and the next deal."""
    script = Script(stage, np.random.default_rng(seed), fps)
    script.hide_discards([SEATS[int(script.rng.integers(3))]])
    script.still(0.6)
    discard(script)
    script.still(0.4)
    reveal(script, stage.seat, "win", stage.hand, stage.hand[-1])
    point(script)
    settled = len(script.shots)
    script.mark("the hand lies still")
    script.still(settle_s)
    until = len(script.shots)
    if push_after:
        push(script)
        script.still(0.5)
        next_deal(script)
        script.still(0.6)
    return script.clip("win", record=stage.record, settled=settled, until=until)


def discard_clip(stage: Stage, seed: int = 0, fps: float = FPS, rounds: int = 2) -> Clip:
    """Play with discards from the seats in turn, the table still between them: no win."""
    script = Script(stage, np.random.default_rng(seed), fps)
    script.hide_discards(SEATS[:rounds])
    script.still(0.6)
    for k in range(rounds):
        discard(script, SEATS[k % 3])
        script.still(1.2)
    return script.clip("discard")


def tenpai(script: Script, gap_s: float) -> None:
    """A draw's tenpai display: the first seat lays 13 tiles down, ``gap_s`` later a second seat does."""
    st = script.stage
    reveal(script, st.seat, "tenpai", st.hand[:-1])
    script.still(gap_s)
    reveal(script, st.other, "tenpai", st.backs[st.other])


def tenpai_clip(stage: Stage, seed: int = 0, fps: float = FPS, gap_s: float = 1.5, settle_s: float = 2.5) -> Clip:
    """A draw: two seats lay their 13 tiles down one after the other and the table lies still: a
    tenpai display, not a win."""
    script = Script(stage, np.random.default_rng(seed), fps)
    script.still(0.6)
    tenpai(script, gap_s)
    script.mark("a tenpai display lies still")
    script.still(settle_s)
    return script.clip("draw")


def push_clip(stage: Stage, seed: int = 0, fps: float = FPS) -> Clip:
    """Play, the tiles pushed into the table, the empty felt, the next deal: no win."""
    script = Script(stage, np.random.default_rng(seed), fps)
    script.still(0.6)
    push(script)
    script.still(0.6)
    next_deal(script)
    script.still(0.8)
    return script.clip("push")


def deal_clip(stage: Stage, seed: int = 0, fps: float = FPS, ending: str = "win", settle_s: float = 3.0) -> Clip:
    """One whole deal (the bench's unit): play and discards, then ``ending``: ``win`` (laid down,
    maybe pointed at, still), ``tenpai`` (two seats show 13 tiles at a draw, still) or ``draw``
    (nobody shows); then the tiles pushed in and the next deal."""
    rng = np.random.default_rng(seed)
    script = Script(stage, rng, fps)
    seats = [str(s) for s in rng.permutation(SEATS)[:int(rng.integers(1, 3))]]
    script.hide_discards(seats)
    script.still(0.5)
    for seat in seats:
        discard(script, seat)
        script.still(float(rng.uniform(0.3, 0.8)))
    settled = until = None
    if ending == "win":
        reveal(script, stage.seat, "win", stage.hand, stage.hand[-1])
        if rng.random() < 0.7:
            point(script)
        settled = len(script.shots)
        script.mark("the hand lies still")
        script.still(settle_s)
        until = len(script.shots)
    elif ending == "tenpai":
        tenpai(script, float(rng.uniform(0.3, 1.5)))
        script.mark("a tenpai display lies still")
        script.still(settle_s)
    elif ending == "draw":
        script.still(1.0)
    else:
        raise ValueError(f"no ending {ending!r}")
    push(script)
    script.still(0.4)
    next_deal(script)
    script.still(0.6)
    return script.clip("win" if ending == "win" else "draw", record=stage.record if ending == "win" else None,
                       settled=settled, until=until)
