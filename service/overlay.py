"""What was read, drawn where it was read: the reading's boxes over the snapshot, as the tablet shows them.

Two views of one snapshot, each an SVG drawn by ``templates/_overlay.html``:

- ``full``: the whole frame with every read tile's box and name (tap to zoom);
- ``strip``: the winner's row, melds and gari cut out and turned so the row reads as the winner
  sees it (a row along the right edge of the frame is turned a quarter, the far side upside
  down), large enough to check each tile by eye above the editor.

A box is unsure (drawn dashed, its name with a ?) when its score is under the table's warning
threshold (``TABLE_UNSURE_SCORE``, the layout's 0.6) or when not every voted frame read it so.
Each box of the hand, melds, gari or dead wall carries the editor op that picks its tile in the
draft (``editing.Draft.pick``): tap a wrong tile on the snapshot, then the right one in the picker.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from statistics import median
from typing import Sequence

from .editing import Draft, plain_five, tile_names
from .reader import Detection, Reading

ROW_ZONES = ("hand", "melds", "gari")
BACK = "back"
MARGIN = 0.6            # the strip's margin around the row, in tile boxes


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    tile: str
    unsure: bool
    pick: str = ""          # the editor op's argument (``concealed:3p``, ``meld:0``); empty: not pickable
    picked: bool = False
    score: float = 1.0
    changed: bool = False   # read as ``tile``, and the hand no longer holds it: the players (or a mend) fixed it

    @property
    def label(self) -> str:
        """The name drawn above the box (none for a back); a fixed tile's, struck through by the page."""
        return "" if self.tile == BACK else self.tile + ("?" if self.unsure and not self.changed else "")


@dataclass(frozen=True)
class View:
    """An SVG of ``vw`` x ``vh`` user units showing the frame (``width`` x ``height`` px) through
    ``transform``, with the boxes in view units; ``font`` the labels' size."""

    vw: float
    vh: float
    width: int
    height: int
    transform: str
    boxes: tuple[Box, ...] = field(default=())
    font: float = 20.0
    turn: int = 0


def unsure(d: Detection, threshold: float) -> bool:
    return d.score < threshold or (d.agree is not None and d.agree < 1.0)


def pick_of(d: Detection, draft: Draft) -> str:
    """The draft's field (and tile, or meld index) a detection stands for there; empty if none."""
    if d.tile == BACK:
        return ""
    name = {"hand": "concealed", "gari": "gari"}.get(d.zone)
    if d.zone == "dead_wall":
        name = next((f for f in ("dora_indicators", "ura_indicators") if d.tile in draft.tiles(f)), None)
    if name is not None:
        return f"{name}:{d.tile}" if d.tile in draft.tiles(name) else ""
    if d.zone == "melds":
        plain = plain_five(d.tile)
        for i, m in enumerate(draft.melds):
            tiles = [plain_five(t) for t in tile_names(m.get("tiles", ""))]
            if plain in tiles:
                return f"meld:{i}"
    return ""


def _first_winners(reading: Reading, draft: Draft) -> bool:
    """Whether the reading is of a double ron's first winner, whose hand the draft holds apart."""
    return bool(draft.first and reading.record and reading.record.get("seat") == draft.first.get("seat"))


def _mended(reading: Reading, draft: Draft) -> set[int]:
    """The row boxes whose tile the draft does not hold, counted copy by copy (two 6s read, one
    fixed to 5s: one box), where the draft is this reading's hand: not a double ron's first winner's,
    most of its row's tiles still held. Else none (a draft of another hand would mark every box)."""
    if not reading.record or _first_winners(reading, draft):
        return set()
    held = {"hand": Counter(draft.tiles("concealed")), "gari": Counter(draft.tiles("gari")),
            "melds": Counter(plain_five(t) for m in draft.melds for t in tile_names(m.get("tiles", "")))}
    row = [(i, d) for i, d in enumerate(reading.detections)
           if d.zone in ROW_ZONES and d.tile != BACK and i not in draft.fixed]       # those are marked already
    missing = set()
    for i, d in row:
        tile = plain_five(d.tile) if d.zone == "melds" else d.tile
        if held[d.zone][tile] > 0:
            held[d.zone][tile] -= 1
        else:
            missing.add(i)
    return missing if len(missing) * 2 < len(row) else set()


def views(reading: Reading | None, size: tuple[int, int], draft: Draft, threshold: float) -> dict[str, View] | None:
    """The ``full`` and ``strip`` views of a reading's snapshot (None: nothing was read)."""
    if reading is None or not reading.detections or not all(size):
        return None
    w, h = size
    # the row of a double ron's first winner, held, fixes nothing of the second's hand (a seat the
    # players changed on a single hand is still that hand's)
    own = not _first_winners(reading, draft)
    picks = [pick_of(d, draft) if own or d.zone not in ROW_ZONES else "" for d in reading.detections]
    if (win := _win_box(reading, draft, size, picks)) is not None:
        picks[win] = f"win_tile:{draft.win_tile}"
    boxes = []
    mended = _mended(reading, draft)
    for i, (d, p) in enumerate(zip(reading.detections, picks)):
        # a box fixed on the snapshot, or a tile the reader's mend counted as another: marked so, and
        # not picked again (fixed twice, the hand broke); a double ron's first winner's box, fixed, is
        # kept (the tile set learns it) but not marked on the second's hand
        changed = i in draft.fixed and own or i in mended
        p = f"{p}:{i}" if p and not changed else ""
        boxes.append(Box(d.x, d.y, d.w, d.h, d.tile, unsure(d, threshold) and d.tile != BACK, p,
                         bool(p) and p == draft.pick, d.score, changed))
    side = median([max(d.w, d.h) for d in reading.detections])
    out = {"full": View(w, h, w, h, "", tuple(boxes), font=max(14.0, side * 0.45))}
    row = [(b, d) for b, d in zip(boxes, reading.detections) if d.zone in ROW_ZONES]
    if row:
        out["strip"] = strip([b for b, _ in row], [d for _, d in row if d.zone == "hand"] or [d for _, d in row],
                             size, side, upright=reading.from_seat)
    return out


def _win_box(reading: Reading, draft: Draft, size: tuple[int, int], picks: Sequence[str]) -> int | None:
    """The detection that is the winning tile, where the hand holds other copies of it (with one
    copy, a tap on it fixes the winning tile already, ``Draft._swap``): the row's last box as the
    winner sees it (the tile set apart at its right end), when it reads as the winning tile."""
    tile = draft.win_tile
    hand = [d for d in reading.detections if d.zone == "hand"] if tile else []
    copies = [i for i, p in enumerate(picks) if p == f"concealed:{tile}"]
    if len(copies) < 2 or not hand or draft.tiles("concealed").count(tile) < 2:
        return None
    turn = 0 if reading.from_seat else turn_for(hand, size)
    along = {0: lambda d: d.x, 180: lambda d: -d.x, 90: lambda d: -d.y, 270: lambda d: d.y}[turn]
    end = max(hand, key=along)                   # the row's last tile, as the layout took it
    return next((i for i in copies if reading.detections[i] is end), None)


def strip(boxes: Sequence[Box], hand: Sequence[Detection], size: tuple[int, int], side: float,
          upright: bool = False) -> View:
    """The row cut out with a margin and turned upright for the winner (see the module's docstring);
    ``upright``: a photo taken at the winner's seat, whose row is read as it lies."""
    w, h = size
    m = side * MARGIN
    x0 = max(0.0, min(b.x for b in boxes) - m)
    y0 = max(0.0, min(b.y for b in boxes) - m * 1.6)           # room for the names above the boxes
    x1 = min(float(w), max(b.x + b.w for b in boxes) + m)
    y1 = min(float(h), max(b.y + b.h for b in boxes) + m)
    cw, ch = x1 - x0, y1 - y0
    turn = 0 if upright else turn_for(hand, size)
    place = _placer(turn, x0, y0, cw, ch)
    vw, vh = (cw, ch) if turn in (0, 180) else (ch, cw)
    moved = []
    for b in boxes:
        (ax, ay), (bx, by) = place(b.x, b.y), place(b.x + b.w, b.y + b.h)
        moved.append(replace(b, x=min(ax, bx), y=min(ay, by), w=abs(bx - ax), h=abs(by - ay)))
    transform = {0: f"translate({-x0:.1f} {-y0:.1f})",
                 90: f"translate({ch:.1f} 0) rotate(90) translate({-x0:.1f} {-y0:.1f})",
                 180: f"translate({cw:.1f} {ch:.1f}) rotate(180) translate({-x0:.1f} {-y0:.1f})",
                 270: f"translate(0 {cw:.1f}) rotate(270) translate({-x0:.1f} {-y0:.1f})"}[turn]
    return View(vw, vh, w, h, transform, tuple(moved), font=max(10.0, side * 0.36), turn=turn)


def turn_for(hand: Sequence[Detection], size: tuple[int, int]) -> int:
    """How far to turn the frame (clockwise degrees) so the row reads as its player sees it: the
    row's long axis says along which edge the player sits, its side of the frame's middle which edge
    (the camera hangs over the table's middle)."""
    xs = [d.x + d.w / 2 for d in hand]
    ys = [d.y + d.h / 2 for d in hand]
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    if max(xs) - min(xs) >= max(ys) - min(ys):
        return 0 if cy >= size[1] / 2 else 180
    return 90 if cx >= size[0] / 2 else 270


def _placer(turn: int, x0: float, y0: float, cw: float, ch: float):
    def place(x: float, y: float) -> tuple[float, float]:
        u, v = x - x0, y - y0
        return {0: (u, v), 90: (ch - v, u), 180: (cw - u, ch - v), 270: (v, cw - u)}[turn]
    return place
