"""A whole table after a win, seen by the overhead camera, with the hand record it shows.

The test set of the frame-to-record stage: a random but legal-looking 三人花
deal (copies and red fives as in a real set) is laid out the way players lay it:
the winner's revealed row with the winning tile set apart, melds to the right
with the called tile sideways on the side it came from, ankan with two backs,
the gari row in front, discards in rows of six; the other two seats' hands as
backs; the dead wall on the empty side with its dora indicators turned up (and
ura below them after a riichi). The table (rim, felt, ArUco markers) comes from
``calibration.synth``; a camera pose within the mount's tolerance, a mild lens
distortion, light, blur, noise and JPEG make the frame.

``render_table(seed)`` is deterministic: the fixed test set is seeds 0..199.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import cv2
import numpy as np

from calibration.markers import MarkerLayout, default_layout
from calibration.synth import K, SIZE, distort_maps, random_pose, render, topdown
from calibration.zones import SEATS, side_frame

from .art import TileArt
from ..classes import BACK, SANMA_KINDS
from ..layout import mpsz, plain_kind
from .scene import felt
from .tile import TileStyle, draw_tile, face_image, random_style, rect_corners

PX_PER_MM = 2.0
TW, TH = 26.0, 35.0               # a tile's face in mm
STEP = TW + 1.0                   # neighbours in a row
GARI = ("1m", "5m", "9m", "4z")
CAMERA_HEIGHT_MM = 1300.0
MELD_START_MM = 207.0             # melds from just past the hand zone to the felt's corner (u 200..420)
MELD_ROOM_MM = 418.0 - MELD_START_MM
MELD_GAP_MM = 10.0
MELD_WIDTH = {"pon": 2 * STEP + TH + 1, "kakan": 2 * STEP + TH + 1, "minkan": 3 * STEP + TH + 1,
              "ankan": 4 * STEP}
TILE_HEIGHT_MM = 20.0


@dataclass(frozen=True)
class Laid:
    """A tile on the table: class, centre in mm, turn (the face top's clockwise angle in the image)."""

    tile: str
    x: float
    y: float
    turn: float


@dataclass
class TableScene:
    image: np.ndarray                       # the camera frame (BGR)
    record: dict                            # the hand record the table shows
    tiles: list[Laid] = field(default_factory=list)
    H: np.ndarray | None = None             # table mm -> image px (before lens distortion)


def wall(rng: np.random.Generator) -> list[str]:
    """A shuffled 三人花 set: four of each kind, two of each five red."""
    tiles = []
    for k in SANMA_KINDS:
        tiles += ["0" + k[1]] * 2 + [k] * 2 if k[0] == "5" and k[1] != "z" else [k] * 4
    rng.shuffle(tiles)
    return tiles


def _take(pool: list[str], want) -> str | None:
    for i, t in enumerate(pool):
        if want(t):
            return pool.pop(i)
    return None


def _mpsz(tiles) -> str:
    """Tiles as one mpsz string, sorted by suit (m p s z) and number."""
    return mpsz(sorted(tiles, key=lambda t: ("mpsz".index(t[1]), t[0])))


def deal(rng: np.random.Generator, hand: Sequence[str] | None = None) -> dict:
    """What lies on the table: the winner, their tiles by place, and the other seats' discards.
    ``hand``: the winner's 14 concealed tiles, the winning tile last (a hand that wins: the rest of
    the deal is drawn from the wall without them, and no melds); else 14 tiles drawn at random."""
    pool = wall(rng)
    for t in hand or ():
        pool.remove(t)
    seat = SEATS[int(rng.integers(3))]
    melds = []
    room = MELD_ROOM_MM
    for _ in range(0 if hand else int(rng.choice([0, 0, 1, 1, 2, 2]))):
        kind = str(rng.choice(["pon", "pon", "minkan", "kakan", "ankan"]))
        width = MELD_WIDTH[kind]
        if width > room:             # the meld zone runs out at the felt's corner
            continue
        room -= width + MELD_GAP_MM
        n = 3 if kind == "pon" else 4
        counts = {}
        for t in pool:
            counts[plain_kind(t)] = counts.get(plain_kind(t), 0) + 1
        kinds = [k for k, c in counts.items() if c >= n]
        k = kinds[int(rng.integers(len(kinds)))]
        tiles = [_take(pool, lambda t, k=k: plain_kind(t) == k) for _ in range(n)]
        open_sides = [k for k, v in neighbour_side(default_layout(), seat).items() if v]   # not the empty side
        side = None if kind == "ankan" else str(rng.choice(open_sides))
        melds.append({"kind": kind, "tiles": tiles, "side": side})
    concealed = list(hand) if hand else [pool.pop() for _ in range(14 - 3 * len(melds))]
    gari = [t for t in (_take(pool, lambda t: plain_kind(t) in GARI) for _ in range(int(rng.integers(0, 6)))) if t]
    dora = [pool.pop() for _ in range(int(rng.integers(1, 3)))]
    ura = [pool.pop() for _ in dora] if rng.random() < 0.4 else []
    discards = {s: [pool.pop() for _ in range(int(rng.integers(5, 13)))] for s in SEATS}
    return {"seat": seat, "concealed": concealed, "melds": melds, "gari": gari, "dora": dora, "ura": ura,
            "discards": discards}


def neighbour_side(layout: MarkerLayout, seat: str) -> dict[str, str | None]:
    """left / across / right of a seat -> the seat there (None: the empty North side)."""
    order = ["east", "south", "west", "north"]      # counter-clockwise from above: each one's right is next
    i = order.index(seat)
    out = {"right": order[(i + 1) % 4], "across": order[(i + 2) % 4], "left": order[(i + 3) % 4]}
    return {k: (v if v != "north" else None) for k, v in out.items()}


def record_of(d: dict, layout: MarkerLayout, rules: str = "dunhill") -> dict:
    """The hand record this deal shows, in the layout stage's conventions (sorted mpsz)."""
    sides = neighbour_side(layout, d["seat"])
    melds = []
    for m in d["melds"]:
        meld = {"kind": m["kind"], "tiles": _mpsz(m["tiles"])}
        if m["side"] is not None and sides[m["side"]] is not None:
            meld["from"] = sides[m["side"]]
        melds.append(meld)
    rec = {"rules": rules, "seat": d["seat"], "win": "tsumo", "concealed": _mpsz(d["concealed"]),
           "win_tile": d["concealed"][-1]}
    if melds:
        rec["melds"] = melds
    for key, tiles in (("gari", d["gari"]), ("dora_indicators", d["dora"]), ("ura_indicators", d["ura"]),
                       ("discards", d["discards"][d["seat"]])):
        if tiles:
            rec[key] = _mpsz(tiles)
    if d["ura"]:
        rec["riichi"] = True
    return rec


def _place(layout: MarkerLayout, seat: str, u: float, v: float):
    (mx, my), (ix, iy), (rx, ry) = side_frame(layout, seat)
    return mx + u * rx + v * ix, my + u * ry + v * iy


def _upright(layout: MarkerLayout, seat: str) -> float:
    """The turn of a tile facing the seat's player: its top points away from them (towards the centre)."""
    _, (ix, iy), _ = side_frame(layout, seat)
    return float(np.degrees(np.arctan2(ix, -iy)))       # 0 when the top points up the image


def lay_out(d: dict, layout: MarkerLayout, rng: np.random.Generator) -> list[Laid]:
    """Every tile of the deal at its place on the table (mm), with a hand's natural jitter."""
    out: list[Laid] = []
    jit = lambda s=0.4: float(rng.normal(0, s))            # noqa: E731

    def put(seat, tile, u, v, sideways=False, turn_extra=0.0):
        x, y = _place(layout, seat, u + jit(), v + jit())
        out.append(Laid(tile, x, y, _upright(layout, seat) + (90.0 * sideways * turn_extra or 0) + jit(0.6)))

    seat = d["seat"]
    u = -185.0 + TW / 2
    for t in d["concealed"][:-1]:
        put(seat, t, u, 40.0)
        u += STEP
    put(seat, d["concealed"][-1], u + float(rng.uniform(10, 16)), 40.0)
    u = MELD_START_MM
    for m in d["melds"]:
        n = len(m["tiles"])
        if m["kind"] == "ankan":
            for k, t in enumerate([BACK, m["tiles"][0], m["tiles"][1], BACK]):
                put(seat, t, u + TW / 2, 40.0)
                u += STEP
        else:
            at = {"left": 0, "across": 1, "right": 2 if n == 3 else 3}[m["side"]]
            if m["kind"] == "kakan":
                at = min(at, 2)
            row = m["tiles"][:3] if m["kind"] in ("pon", "kakan") else m["tiles"]
            turn = float(rng.choice([-1.0, 1.0]))
            for k, t in enumerate(row):
                if k == at:
                    vc = 40.0 - (TH - TW) / 2                 # the sideways tile lies on the near line
                    put(seat, t, u + TH / 2, vc, True, turn)
                    if m["kind"] == "kakan":                  # the added tile beyond it, towards the centre
                        put(seat, m["tiles"][3], u + TH / 2, vc + TW + 1.0, True, turn)
                    u += TH + 1.0
                else:
                    put(seat, t, u + TW / 2, 40.0)
                    u += STEP
        u += MELD_GAP_MM + float(rng.uniform(-1, 1))
    u = -150.0
    for t in d["gari"]:
        put(seat, t, u, 115.0)
        u += STEP
    for s in SEATS:
        for k, t in enumerate(d["discards"][s]):
            put(s, t, -80.0 + (k % 6) * STEP, 215.0 + (k // 6) * (TH + 1))
        if s != seat:
            for k in range(13):
                put(s, BACK, -185.0 + TW / 2 + k * STEP, 40.0)
    # the dead wall on the empty North side: seven stacks, dora from the third, ura below
    x0 = -3 * STEP
    for k in range(7):
        top = d["dora"][k - 2] if 2 <= k < 2 + len(d["dora"]) else BACK
        put("north", top, x0 + k * STEP, 25.0)
    for k, t in enumerate(d["ura"]):
        put("north", t, x0 + (k + 2) * STEP, 25.0 + TH + 3.0)
    return out


def _draw(layout: MarkerLayout, tiles: list[Laid], art: TileArt, rng: np.random.Generator,
          style: TileStyle | None = None) -> np.ndarray:
    """The table top from above at PX_PER_MM: felt, rim, markers, then every tile (far ones first) in
    ``style`` (default: one drawn from ``rng``, as every stored frame was drawn)."""
    p = PX_PER_MM
    top = topdown(layout, p).astype(np.float32) / 255
    x0, y0, x1, y1 = (int(round(v * p)) for v in layout.felt)
    top[y0:y1, x0:x1] = felt(rng, x1 - x0, y1 - y0)
    style = random_style(rng) if style is None else style
    centre = np.array(layout.table_mm, np.float32) / 2 * p
    quads = shadowed_quads(top, tiles, p)
    for t, q in sorted(zip(tiles, quads), key=lambda tq: -np.linalg.norm(tq[1].mean(axis=0) - centre)):
        body = (centre - q.mean(axis=0)) * (TILE_HEIGHT_MM / CAMERA_HEIGHT_MM)
        face = face_image(art, t.tile, style, int(round(TW * p * 1.5)), rng)
        draw_tile(top, face, q, body.astype(np.float32), style, t.tile == BACK)
    return np.clip(top * 255, 0, 255).astype(np.uint8)


def shadowed_quads(top: np.ndarray, tiles, p: float) -> list[np.ndarray]:
    """Each tile's face on the top view (corners in px at ``p`` px/mm), after darkening the felt
    under it a little down and right of it: the tiles' soft shadows, drawn before the tiles."""
    shade = np.zeros(top.shape[:2], np.float32)
    quads = []
    for t in tiles:
        q = rect_corners(t.x * p, t.y * p, TW * p, TH * p, t.turn)
        quads.append(q)
        cv2.fillConvexPoly(shade, np.round(q + 2.5 * p).astype(np.int32), 1.0)
    top *= 1 - 0.3 * cv2.GaussianBlur(shade, (0, 0), 2 * p)[..., None]
    return quads


def render_table(seed: int, art: TileArt, layout: MarkerLayout | None = None, rules: str = "dunhill",
                 lens: bool = True) -> TableScene:
    """Frame ``seed`` of the test set: 1920x1080 BGR, its hand record, its tiles and true homography."""
    rng = np.random.default_rng(seed)
    layout = layout or default_layout()
    return render_deal(deal(rng), rng, art, layout, rules, lens)


def render_deal(d: dict, rng: np.random.Generator, art: TileArt, layout: MarkerLayout | None = None,
                rules: str = "dunhill", lens: bool = True, style: TileStyle | None = None) -> TableScene:
    """The frame of a given deal (as ``deal`` makes them), pose, light and lens drawn from ``rng``;
    the tiles in ``style`` (default: drawn from ``rng``)."""
    layout = layout or default_layout()
    tiles = lay_out(d, layout, rng)
    frame, H = render_laid(tiles, rng, art, layout, lens, style)
    return TableScene(frame, record_of(d, layout, rules), tiles, H)


def render_laid(tiles: list[Laid], rng: np.random.Generator, art: TileArt, layout: MarkerLayout,
                lens: bool = True, style: TileStyle | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The camera frame (BGR, JPEG-coded as a camera sends it) of tiles laid on the table, and its
    true homography; pose, light and lens drawn from ``rng``; the tiles in ``style`` (default: drawn
    from ``rng``)."""
    top = _draw(layout, tiles, art, rng, style)
    H = random_pose(rng, layout)
    maps = None
    if lens:
        dist = np.array([rng.uniform(-0.06, 0.0), 0.0, 0.0, 0.0, 0.0])
        maps = _maps(round(float(dist[0]), 3))
    cast = rng.uniform(0.88, 1.1, 3)
    frame = render(top, H, rng, PX_PER_MM, SIZE, blur=float(rng.uniform(0.4, 1.0)),
                   noise=float(rng.uniform(1, 4)), maps=maps, cast=cast)
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(80, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), H


_MAPS: dict[float, tuple] = {}


def _maps(k1: float):
    """Lens-distortion remap tables, cached per coefficient (they take a moment to build)."""
    if k1 not in _MAPS:
        _MAPS[k1] = distort_maps(K, np.array([k1, 0.0, 0.0, 0.0, 0.0]))
    return _MAPS[k1]
