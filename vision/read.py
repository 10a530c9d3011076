"""One camera frame (or several) of a table after a win, to the hand record: the whole vision pipeline.

    frame -> calibration (markers -> homography, else the stored one; white balance)
          -> rectified top-down table -> one image per seat region and the dead wall
          -> detector -> tiles in table mm -> layout rules -> hand record + warnings

Each seat region is the bounding box of that seat's zones (hand, melds, gari,
discards) padded by ``PAD_MM``; detecting per region keeps each image near the
size the detector was trained at. Only the winner's region and the dead wall
are detected: the winner is the seat whose hand zone shows the most ivory (a
revealed row of faces; the other hands show backs), found from pixels in a
millisecond, which halves the detector's work. Where the seats so chosen hold no
revealed row (backs as pale as the faces, a sheet of paper over a hand zone),
every seat is read after all. ``all_seats=True`` detects all from the start.
With ``debug`` set, every stage writes its image there (``debug.write(name, image)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import cv2
import numpy as np

from calibration.homography import rectify, table_to_image
from calibration.store import TableFile
from calibration.tracker import Tracker
from calibration.whitebalance import apply_gains

from .boxes import around
from .colour import NO_COLOUR, colourless
from .crop import CLS_SIZE, upright_cut
from .detect import NONE, Detection, Detector
from .draw import draw_detections
from .tileset import current
from .layout import (DEFAULT_GARI, SANMA, BACK, LOW_SCORE, TILE_MM, Piece, Reading, SeatFrame, SetCounts, plain_kind,
                     read_layout, split_stacked_pairs, vote)

PX_PER_MM = 1.2
PAD_MM = 25.0
WINDOW_MM = 650.0   # a region is detected on a canvas at least this wide: the locator sees its tiles at the
                    # size it learnt (a seat region's own span); a small region (the dead wall) would
                    # otherwise be blown up to the locator's input and its tiles grow past what it knows


@dataclass(frozen=True)
class Region:
    """A part of the table detected as one image: a box in table mm and the zones it answers for."""

    name: str
    box_mm: tuple[float, float, float, float]
    zones: tuple = ()

    def owns(self, point) -> bool:
        return any(z.contains(point) for z in self.zones)


def regions(table: TableFile) -> list[Region]:
    """One region per seat (all its zones) and one for the dead wall, in table mm, inside the felt
    (the rim is no place for tiles, and an orange rim looks like a row of backs)."""
    groups: dict[str, list] = {}
    for z in table.zones:
        groups.setdefault(z.seat or z.kind, []).append(z)
    out = []
    fx1, fy1, fx2, fy2 = table.layout.felt
    for name, zones in groups.items():
        pts = np.vstack([np.asarray(z.polygon, float) for z in zones])
        x1, y1 = pts.min(axis=0) - PAD_MM
        x2, y2 = pts.max(axis=0) + PAD_MM
        out.append(Region(name, (max(fx1, x1), max(fy1, y1), min(fx2, x2), min(fy2, y2)), tuple(zones)))
    return out


def pieces_in(top: np.ndarray, region: Region, detector: Detector, px_per_mm: float, debug=None) -> list[Piece]:
    """The tiles of one region of the rectified table, boxes in table mm."""
    x1, y1, x2, y2 = (int(round(v * px_per_mm)) for v in region.box_mm)
    crop = on_canvas(top[y1:y2, x1:x2], int(round(WINDOW_MM * px_per_mm)))
    found = detector.detect(crop)
    if debug is not None:
        debug.write(f"region-{region.name}", draw_detections(crop, found))
    pieces = [_piece(d, [float(v) for v in (np.array(d.box) + (x1, y1, x1, y1)) / px_per_mm]) for d in found]
    # regions overlap: each answers only for tiles inside its own zones, so none is counted twice
    return [p for p in pieces if region.owns(p.centre)]


PROBE_SCORE = 0.9   # how sure the classifier must be of a face where the locator saw nothing


def meld_frames(zones, seats):
    """(meld zone, its seat's frame) for each meld zone of ``seats`` whose seat has a hand zone."""
    for z in zones:
        if z.kind != "melds" or z.seat not in seats:
            continue
        hand = next((h for h in zones if h.kind == "hand" and h.seat == z.seat), None)
        if hand is not None:
            yield z, SeatFrame.of_zone(hand.polygon)


def added_tile_spots(pieces: Sequence[Piece], zones, seats) -> list[tuple[float, float, float, float]]:
    """Where a kakan's added tile would lie (table mm) with no tile seen there: one tile's depth beyond
    each sideways face in a meld zone of ``seats``, towards the centre. The locator saw few such stacked
    tiles when it learnt, so these spots get a second look by the classifier alone."""
    spots = []
    for z, frame in meld_frames(zones, seats):
        dx, dy = frame.v * (TILE_MM[0] + 1.0)              # a sideways face is a tile's width deep
        for p in pieces:
            if not (p.face_up and z.contains(p.centre) and frame.sideways(p)):
                continue
            x1, y1, x2, y2 = p.box
            spot = (x1 + dx, y1 + dy, x2 + dx, y2 + dy)
            centre = ((spot[0] + spot[2]) / 2, (spot[1] + spot[3]) / 2)
            taken = any(q.box[0] <= centre[0] <= q.box[2] and q.box[1] <= centre[1] <= q.box[3] for q in pieces)
            if not taken and z.contains(centre):
                spots.append(spot)
    return spots


def name_stacked_halves(top: np.ndarray, pieces: Sequence[Piece], zones, seats, detector: Detector,
                        px_per_mm: float) -> tuple[list[Piece], list[str]]:
    """A kakan's stacked pair boxed as one (the box ``layout.split_stacked_pairs`` cuts in two) is cut
    here already and each half named again by the classifier: one cut holding two stacked faces can
    read as another face (two sideways 1p as a 2p), and the meld would then split where the kind
    seems to change. A half the classifier reads as no face keeps the box's name. Returns the pieces
    and the layout's warning for each pair cut (the layout finds nothing left to cut)."""
    out = list(pieces)
    warnings: list[str] = []
    for z, frame in meld_frames(zones, seats):
        for p in [q for q in out if z.contains(q.centre)]:
            halves, w = split_stacked_pairs([p], frame)
            if len(halves) != 2:
                continue
            named = detector.name_boxes(top, [tuple(v * px_per_mm for v in h.box) for h in halves])
            out.remove(p)
            out += [_piece(d, h.box) if d.tile not in (NONE, BACK) else h for h, d in zip(halves, named)]
            warnings += w
    return out, warnings


HALF_BOX = (0.9, 1.45)  # a tile's box in table mm over its nominal face, each way (a box holds the tile's side
                        # too: about 1.2)
HALF_SHARE = 0.7        # two boxes are one tile's halves when each spans at most this share of their union's
                        # long side, and both at least ``1 - HALF_SHARE`` of its short side ...
HALF_FREE = 3.0         # ... and stand at most this many mm apart
GAP_TILE = 0.7          # felt this many faces wide between two boxes of a meld may hide a tile: two pitches less
                        # a box (a face and its side) leaves about 0.9


def _halves_of_one_tile(a: Piece, b: Piece) -> tuple[float, float, float, float] | None:
    """The box around ``a`` and ``b`` when they are one tile boxed as two halves: together a tile's
    size (``HALF_BOX`` of its nominal face, either way round), apart each part of it only, level
    across it. Else None. From above, a tile's size is known; two real tiles side by side make a
    box a tile and a half long or more."""
    u = around(a.box, b.box)
    w, h = u[2] - u[0], u[3] - u[1]
    long_axis = 0 if w >= h else 1                    # 0: the union is longer in x
    long, short = max(w, h), min(w, h)
    lo, hi = HALF_BOX
    if not (lo * TILE_MM[1] <= long <= hi * TILE_MM[1] and lo * TILE_MM[0] <= short <= hi * TILE_MM[0]):
        return None
    for p in (a, b):
        along = p.box[2 + long_axis] - p.box[long_axis]
        across = p.box[3 - long_axis] - p.box[1 - long_axis]
        if along > HALF_SHARE * long or across < (1 - HALF_SHARE) * short:
            return None
    apart = max(a.box[long_axis], b.box[long_axis]) - min(a.box[2 + long_axis], b.box[2 + long_axis])
    return u if apart <= HALF_FREE else None


def join_halves(top: np.ndarray, pieces: Sequence[Piece], zones, seats, detector: Detector,
                px_per_mm: float) -> tuple[list[Piece], list[str]]:
    """A meld tile the locator boxed as two halves (``_halves_of_one_tile``: a sideways 3s as two
    narrow boxes, each read as a 2s) read again as one: where the box around both reads a face
    surely (``PROBE_SCORE``), it replaces them, else they stay. The surest union first; a box joins
    once. A meld of halves is four or five boxes where three or four tiles lie, and is not read.
    Returns the pieces and a warning for each tile joined."""
    out = list(pieces)
    warnings: list[str] = []
    for z, _ in meld_frames(zones, seats):
        faces = [p for p in out if p.face_up and z.contains(p.centre)]
        pairs = [(a, b, u) for i, a in enumerate(faces) for b in faces[i + 1:]
                 if (u := _halves_of_one_tile(a, b)) is not None]
        if not pairs:
            continue
        named = detector.name_boxes(top, [tuple(v * px_per_mm for v in u) for *_, u in pairs])
        used: set[int] = set()
        for (a, b, u), d in sorted(zip(pairs, named), key=lambda pd: -pd[1].score):
            if d.tile in (NONE, BACK) or d.score < PROBE_SCORE or id(a) in used or id(b) in used:
                continue
            used |= {id(a), id(b)}
            out = [p for p in out if p is not a and p is not b] + [_piece(d, u)]
            warnings.append(f"a {d.tile} in the meld zone boxed as two halves ({a.tile}, {b.tile}): read as one")
    return out, warnings


def meld_gap_spots(pieces: Sequence[Piece], zones, seats) -> list[tuple[tuple[float, float, float, float], set[str]]]:
    """Where a meld tile would lie that the locator missed (table mm), with the kinds of the faces on
    either side: felt between two neighbours in a meld zone of ``seats`` ``GAP_TILE`` faces wide or more, up to one
    and a half upright tiles' boxes (the spot then a tile's width, beside the left neighbour), as
    deep as the two. The tiles of a meld touch, and melds lie apart by less than a tile; a meld with
    one tile missed reads as no meld (a pon's called tile alone, a kakan without one of its two)."""
    spots = []
    box = 1.2 * TILE_MM[0]                              # an upright tile's box along the row (``HALF_BOX``)
    least, most = GAP_TILE * TILE_MM[0], 1.5 * HALF_BOX[1] * TILE_MM[0]
    for z, frame in meld_frames(zones, seats):
        inside = sorted((p for p in pieces if z.contains(p.centre)), key=lambda p: frame.span(p)[0])
        reach = -np.inf                                 # the row's end so far (a stacked tile reaches no further)
        for a, b in zip(inside, inside[1:]):
            reach = max(reach, frame.span(a)[1])
            start = frame.span(b)[0]
            if not least <= start - reach <= most:
                continue
            end = min(start, reach + box)
            near = min(frame.span(a, "v")[0], frame.span(b, "v")[0])
            far = max(frame.span(a, "v")[1], frame.span(b, "v")[1])
            corners = [frame.origin + s * frame.u + t * frame.v for s in (reach, end) for t in (near, far)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            spot = (min(xs), min(ys), max(xs), max(ys))
            if z.contains(((spot[0] + spot[2]) / 2, (spot[1] + spot[3]) / 2)):
                spots.append((spot, {plain_kind(p.tile) for p in (a, b) if p.face_up}))
    return spots


def fill_meld_gaps(top: np.ndarray, pieces: Sequence[Piece], zones, seats, detector: Detector,
                   px_per_mm: float) -> tuple[list[Piece], list[str]]:
    """The tiles the classifier reads at ``meld_gap_spots``: a face read surely (``PROBE_SCORE``), or
    the kind of a face beside it read at ``LOW_SCORE`` or more (a meld is of one kind; the felt
    between two melds reads as no tile); with a warning for each."""
    spots = meld_gap_spots(pieces, zones, seats)
    found = probe(top, [spot for spot, _ in spots], detector, px_per_mm, [kinds for _, kinds in spots])
    return found, [f"a {p.tile} read between two meld tiles where the locator saw none: check it" for p in found]


def top_view(table: TableFile, frame: np.ndarray, fit, px_per_mm: float = PX_PER_MM, debug=None) -> np.ndarray:
    """The frame as the reader reads it: white-balanced (where the table has gains) and rectified
    top-down at ``px_per_mm`` by the homography ``fit``."""
    if table.white_balance is not None:
        frame = apply_gains(frame, table.white_balance, debug)
    return rectify(frame, fit, table.layout, px_per_mm, table.lens, debug)


def window_spots(top: np.ndarray, px_per_mm: float = PX_PER_MM) -> tuple[int, list[tuple[int, int]]]:
    """(side, top-left corners) of ``table_windows``' squares on the rectified table, in its px."""
    h, w = top.shape[:2]
    side = min(int(round(WINDOW_MM * px_per_mm)), h, w)
    spots = [((w - side) // 2, (h - side) // 2)]
    spots += [(x, y) for y in (0, (h - side) // 2, h - side) for x in (0, (w - side) // 2, w - side)
              if (x, y) != spots[0]]
    return side, spots


def table_windows(top: np.ndarray, px_per_mm: float = PX_PER_MM) -> list[np.ndarray]:
    """Squares of the rectified table as wide as a region's canvas (``WINDOW_MM``), where the locator
    sees tiles at the scale it reads them: the centre first, then a 3 x 3 spread over the table."""
    side, spots = window_spots(top, px_per_mm)
    return [top[y:y + side, x:x + side] for x, y in spots]


def probe(top: np.ndarray, spots, detector: Detector, px_per_mm: float,
          kinds: Sequence[set[str]] | None = None) -> list[Piece]:
    """The faces the classifier reads surely (``PROBE_SCORE``) at the given spots (table mm) of the
    rectified table; with ``kinds``, a spot's face of one of its kinds (plain) read at ``LOW_SCORE``
    or more too."""
    kinds = kinds or [set()] * len(spots)
    at = [(tuple(v * px_per_mm for v in spot), k) for spot, k in zip(spots, kinds)]
    at = [(b, k) for b, k in at if _on_image(top, b)]
    named = detector.name_boxes(top, [b for b, _ in at])
    return [_piece(d, [v / px_per_mm for v in d.box]) for d, (_, k) in zip(named, at) if d.tile not in (NONE, BACK)
            and (d.score >= PROBE_SCORE or (plain_kind(d.tile) in k and d.score >= LOW_SCORE))]


def draw_pieces(top: np.ndarray, pieces: Sequence[Piece], px_per_mm: float) -> np.ndarray:
    """The rectified table with each piece drawn (``draw.draw_detections``), its box from table mm."""
    return draw_detections(top, [Detection(p.tile, tuple(v * px_per_mm for v in p.box), p.rotation or 0, p.score)
                                 for p in pieces])


def _on_image(image: np.ndarray, box) -> bool:
    """Whether a box (px) lies wholly on the image."""
    h, w = image.shape[:2]
    return box[0] >= 0 and box[1] >= 0 and box[2] <= w and box[3] <= h


def _piece(d, box_mm) -> Piece:
    """A detection (``vision.detect.Detection``) as a piece on the table, its box given in table mm."""
    return Piece(d.tile, tuple(box_mm), d.score, d.rotation, d.others)


def on_canvas(image: np.ndarray, side: int) -> np.ndarray:
    """The image with its longer side padded out to ``side`` px in grey (114, the locator's letterbox
    grey), so that letterboxing scales it as it scales a ``side``-px region; pixel coordinates stay."""
    h, w = image.shape[:2]
    if max(h, w) >= side:
        return image
    canvas = np.full((side if h >= w else h, side if w > h else w, 3), 114, np.uint8)
    canvas[:h, :w] = image
    return canvas


def ivory_share(hsv: np.ndarray, polygon, px_per_mm: float, felt_value: float = 0.0) -> float:
    """The share of a zone's pixels (``hsv``: the rectified table in HSV) that look like tile faces:
    unsaturated, and brighter than the felt."""
    mask = np.zeros(hsv.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(np.asarray(polygon) * px_per_mm).astype(np.int32)], 1)
    ivory = (hsv[..., 1] < 70) & (hsv[..., 2] > max(150.0, felt_value + 40))
    n = int(mask.sum())
    return float((ivory & (mask > 0)).sum()) / n if n else 0.0


def revealing_seats(top: np.ndarray, zones, px_per_mm: float, keep: float = 0.6) -> set[str]:
    """The seat(s) whose hand zone shows a revealed row: the most ivory, and any within ``keep`` of it."""
    hsv = cv2.cvtColor(top, cv2.COLOR_BGR2HSV)
    felt = float(np.median(hsv[..., 2]))        # mostly felt: the table's own value
    shares = {z.seat: ivory_share(hsv, z.polygon, px_per_mm, felt) for z in zones if z.kind == "hand"}
    best = max(shares.values(), default=0.0)
    if best < 0.01:                 # nothing ivory anywhere (an odd light or set): look at every seat
        return set(shares)
    return {s for s, v in shares.items() if v >= keep * best}


class TableReader:
    """Holds a table's calibration, its tracker (the last good homography) and the detector."""

    def __init__(self, table: TableFile, rules: str, detector: Detector | None = None,
                 px_per_mm: float = PX_PER_MM, gari_kinds: Iterable[str] = DEFAULT_GARI, tileset=None,
                 wall: SetCounts = SANMA):
        self.table = table
        self.rules = rules
        self.wall = wall                # what the rule's set holds (copies, red fives): layout.SetCounts
        # one locator pass (the detector's default): the layout rules (a kakan's pair box, the second
        # look at added tiles) were made on single-pass boxes, and bench/bench_read.py on its 200 frames
        # reads 190 records exact with one, 186 with the mirrored pass too (more melds wrong)
        self.detector = detector or Detector()
        if tileset is not None:         # the table's own tiles (vision.tileset), rebuilt if the classifier changed
            self.detector.use_tileset(current(tileset, self.detector.classifier))
        self.tracker = Tracker(table.layout, table.lens, last_good=table.fit)
        self.px_per_mm = px_per_mm
        self.gari_kinds = tuple(gari_kinds)
        self.regions = regions(table)
        self.last_top: np.ndarray | None = None     # the last frame's rectified table (for upright_cuts)

    def read(self, frame: np.ndarray, debug=None, all_seats: bool = False) -> Reading:
        """One frame's reading. Raises calibration's NoHomography when there are no markers and no fit."""
        fit = self.tracker.update(frame, debug)
        top = top_view(self.table, frame, fit, self.px_per_mm, debug)
        self.last_top = top
        seats = None if all_seats else revealing_seats(top, self.table.zones, self.px_per_mm)
        reading = self._read_top(top, seats, debug)
        if not reading.record and seats is not None and not seats >= {z.seat for z in self.table.zones
                                                                      if z.kind == "hand"}:
            # the pixels named the wrong seat: backs as pale as the faces pass for a revealed row, and
            # the winner's seat went unread; the detector's names say whose row lies face up
            again = self._read_top(top, None, debug)
            if again.record:
                reading = again
        if any(self.wall.reds) and colourless(top):
            reading.warnings.append(NO_COLOUR)
        if not fit.fresh:        # too few markers seen, or all in a row: the table placed as last seen
            reading.warnings.append("too few of the table's markers seen in this frame (covered?): used the "
                                    "last good fit")
        return reading

    def _read_top(self, top: np.ndarray, seats: set[str] | None, debug=None) -> Reading:
        """The rectified table's reading, detecting ``seats``' regions and the dead wall (None: all)."""
        chosen = [r for r in self.regions if seats is None or r.name in seats or r.name == "dead_wall"]
        pieces = [p for r in chosen for p in pieces_in(top, r, self.detector, self.px_per_mm, debug)]
        open_seats = {z.seat for z in self.table.zones} if seats is None else seats
        pieces, joined = join_halves(top, pieces, self.table.zones, open_seats, self.detector, self.px_per_mm)
        missed, gaps = fill_meld_gaps(top, pieces, self.table.zones, open_seats, self.detector, self.px_per_mm)
        pieces += missed
        pieces += probe(top, added_tile_spots(pieces, self.table.zones, open_seats), self.detector, self.px_per_mm)
        pieces, cut = name_stacked_halves(top, pieces, self.table.zones, open_seats, self.detector, self.px_per_mm)
        if debug is not None:           # what the layout rules read: every region's tiles after the second looks
            debug.write("pieces", draw_pieces(top, pieces, self.px_per_mm))
        reading = read_layout(pieces, self.table.zones, self.rules, self.gari_kinds, self.wall)
        reading.warnings += joined + gaps + cut
        return reading

    def upright_cuts(self, pieces: Sequence[Piece]) -> list[np.ndarray | None]:
        """Each face-up piece of the last frame read, cut from the rectified table as the classifier saw
        it and turned upright (what a tile set learns from: ``vision.tileset``); None for a back or a
        box off the image."""
        out: list[np.ndarray | None] = []
        for p in pieces:
            box = tuple(v * self.px_per_mm for v in p.box)
            try:
                ok = self.last_top is not None and p.face_up and p.rotation is not None
                out.append(upright_cut(self.last_top, box, p.rotation, size=CLS_SIZE) if ok else None)
            except ValueError:
                out.append(None)
        return out

    def frame_box(self, box_mm: Sequence[float]) -> tuple[int, int, int, int]:
        """A box in table mm as an (x, y, w, h) box on the camera frame last read (the box around its
        four corners as the camera sees them)."""
        x1, y1, x2, y2 = box_mm
        pts = table_to_image(self.tracker.last_good, [[x1, y1], [x2, y1], [x2, y2], [x1, y2]], self.table.lens)
        (a, b), (c, d) = pts.min(axis=0), pts.max(axis=0)
        return int(a), int(b), int(round(c - a)), int(round(d - b))

    def frame_rotation(self, piece: Piece) -> int | None:
        """The piece's face turned as the camera frame last read shows it (clockwise, 0/90/180/270; None
        where its rotation is unknown): its rotation on the rectified table plus the camera's own turn
        there, the face's top carried into the frame by the homography."""
        if piece.rotation is None:
            return None
        turn = np.radians(piece.rotation)
        centre = piece.centre
        top = centre + TILE_MM[1] / 2 * np.array([np.sin(turn), -np.cos(turn)])   # the face's top, in table mm
        (cx, cy), (tx, ty) = table_to_image(self.tracker.last_good, [centre, top], self.table.lens)
        angle = np.degrees(np.arctan2(tx - cx, cy - ty))         # clockwise from the frame's up
        return int(round(angle / 90.0)) % 4 * 90

    def read_frames(self, frames: Sequence[np.ndarray], debug=None) -> Reading:
        """Several frames of the same still table voted into one reading."""
        return vote([self.read(f, debug) for f in frames])
