"""Reading the table after a win: tiles in table millimetres grouped into a hand record, with warnings.

Input: ``Piece`` s (a detected tile placed on the table plane by the
calibration's homography: class, box in table mm, score) and the table's zones
(``calibration.zones``: per seat ``hand``, ``melds``, ``gari``, ``discards``,
and the ``dead_wall``). A seat's own frame is read off its hand zone: the
polygon's first edge runs along the player's edge to the player's right (u),
its last edge runs from the player towards the centre (v).

The rules, each a small function below:

- **winner**: the seat whose hand zone holds the most face-up tiles.
- **hand and winning tile**: that row sorted left to right (the player's view);
  the winning tile is the last one when a gap of at least ``WIN_GAP`` of a tile's
  width sets it apart, else the last one with a warning.
- **boxes the row cannot hold**: the locator can split a run of identical
  touching tiles (9s 9s 9s 9s) into more boxes than there are tiles, box one
  tile twice, or box the seam between two tiles. A run of same-class boxes in
  the concealed row holds as many tiles as its length fits at one ``PITCH``
  each; the whole row holds no more than fit at one face width each (tiles lie
  side by side, never on top of each other). Surplus boxes go with a warning,
  the least sure first (in a row: of those closer than ``CROWDED`` pitches to
  a neighbour); nothing is ever added.
- **melds**: tiles in the winner's meld zone, split where a gap of
  ``MELD_GAP`` of a tile's width opens or the face changes kind (a meld is
  one kind; an ankan's backs go with their neighbours); a box as wide as a
  sideways tile and deeper than ``PAIR_DEEP`` faces is a kakan's stacked pair
  boxed as one, and is cut in two; a tile lying on top of its neighbour's
  span (kakan's added tile) stays in that group. Two backs among four make an
  ankan; one sideways tile a pon (3) or minkan (4); two sideways tiles stacked
  a kakan. The sideways tile's place says from whom: at the left end from the
  player's left, in the middle from across, at the right end from the right.
- **gari**: the face-up tiles in the winner's gari zone; a kind that is no gari
  is warned about.
- **dora and ura**: face-up tiles in the dead wall: the row nearest the rim is
  dora indicators, a second row towards the centre ura indicators.
- **discards**: face-up tiles in the winner's discard zone.

Warnings rather than silent guesses: a low-confidence tile, more copies of a
kind than the set holds, a hand of the wrong size, a non-gari tile in the gari
zone, a sideways tile pointing at the empty side, tsumo or ron (which no
camera can see).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

import numpy as np

from .classes import BACK

WIN_GAP = 0.3               # a gap of 30% of a tile's width sets the winning tile apart
MELD_GAP = 0.25             # tiles of one meld touch; 25% of a width between them starts another meld ...
SAME_KIND_GAP = 1.0         # ... but faces of one kind less than a width apart stay one: a kind has four tiles,
                            # so no two melds share one, and a box drawn a little off opens a gap inside a meld
                            # (a wall of more copies, chinton's, may hold two: a whole meld's gap parts them)
TILE_MM = (26.0, 35.0)      # a tile's face, width x height; gaps are measured between nominal faces
                            # placed on the box centres, since a box also holds the tile's side
PITCH = TILE_MM[0] + 1.0    # tiles of a row touch: one face and a hair from centre to centre
CROWDED = 0.85              # boxes closer than this many pitches crowd each other (one may be spurious)
PAIR_ALONG = 1.1            # a meld box this many face heights along the row is a sideways tile's width ...
PAIR_DEEP = 1.35            # ... and this many deep holds two sideways tiles stacked (kakan): upright faces
                            # box about 1.2 deep, a stacked pair 1.45-1.7 (seen on table frames, seeds 1000-1199)
LOW_SCORE = 0.6
SQUARE = 1.15               # a box within this ratio of square may be a tile either way: its rotation decides
DEFAULT_GARI = ("1m", "5m", "9m", "4z")     # the union over the presets; the reader passes the preset's


@dataclass(frozen=True)
class SetCounts:
    """What the table's set holds of each kind: more seen is a misread, and an ankan's backs hide what
    its four leave of a five. 三人花 by default (``SANMA``); the service gives the rule's own from its
    preset (chinton: eight of each pinzu and souzu kind, four of each of their fives red)."""

    copies: int = 4                                 # of each manzu kind and honour
    suit_copies: int = 4                            # of each pinzu and souzu kind
    reds: tuple[int, int, int] = (2, 2, 2)          # red fives of m, p, s

    def of(self, kind: str) -> int:
        """Copies of ``kind`` (a red five: of its five)."""
        return self.suit_copies if kind[1] in "ps" else self.copies

    def red(self, suit: str) -> int:
        return self.reds["mps".index(suit)] if suit in "mps" else 0


SANMA = SetCounts()


@dataclass(frozen=True)
class Piece:
    """A tile on the table: class (mpsz or ``back``), box in table mm (x1, y1, x2, y2), detector score,
    the face's rotation in the rectified table image (clockwise turn of its top; None: unknown), and
    the reader's next likeliest faces for it (``Detection.others``)."""

    tile: str
    box: tuple[float, float, float, float]
    score: float = 1.0
    rotation: int | None = None
    others: tuple[tuple[str, float], ...] = ()

    @property
    def centre(self) -> np.ndarray:
        x1, y1, x2, y2 = self.box
        return np.array([(x1 + x2) / 2, (y1 + y2) / 2])

    @property
    def face_up(self) -> bool:
        return self.tile != BACK


@dataclass(frozen=True)
class SeatFrame:
    """A seat's own axes on the table: origin, u (to the player's right), v (towards the centre)."""

    origin: np.ndarray
    u: np.ndarray
    v: np.ndarray

    @classmethod
    def of_zone(cls, polygon: Sequence[Sequence[float]]) -> "SeatFrame":
        p = np.asarray(polygon, float)
        u, v = p[1] - p[0], p[-1] - p[0]
        return cls(p[0], u / np.linalg.norm(u), v / np.linalg.norm(v))

    def local(self, point) -> tuple[float, float]:
        d = np.asarray(point, float) - self.origin
        return float(d @ self.u), float(d @ self.v)

    def span(self, piece: Piece, axis: str = "u") -> tuple[float, float]:
        """The piece's extent along one of the seat's axes."""
        x1, y1, x2, y2 = piece.box
        a = self.u if axis == "u" else self.v
        proj = [float(np.dot((x, y), a)) - float(self.origin @ a) for x, y in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))]
        return min(proj), max(proj)

    def half_width(self, piece: Piece) -> float:
        """Half the nominal face along the row: a sideways tile shows its height."""
        return TILE_MM[1 if self.sideways(piece) else 0] / 2

    def gap(self, left: Piece, right: Piece) -> float:
        """Felt between two tiles along the row, from their centres and nominal faces (mm)."""
        return (self.local(right.centre)[0] - self.local(left.centre)[0]
                - self.half_width(left) - self.half_width(right))

    def sideways(self, piece: Piece) -> bool:
        """A tile turned a quarter to the player (a called tile): its face's top points along the row.
        Its box says so when longer across the player's view than deep by ``SQUARE``; a nearly square
        box goes by the detector's rotation, when it read a face. (A box alone misleads when the body
        strip seen aslant makes a sideways tile's box as deep as wide.) A plain box shape wins over
        the rotation, which a face like haku cannot show."""
        a, b = self.span(piece, "u")
        c, d = self.span(piece, "v")
        along, deep = b - a, d - c
        if piece.rotation is None or not piece.face_up or not 1 / SQUARE < along / deep < SQUARE:
            return along > deep
        top_along_x = piece.rotation % 180 == 90          # 90 / 270: the face's top points along x
        return top_along_x == (abs(float(self.u[0])) > abs(float(self.u[1])))


@dataclass
class Reading:
    """What the layout stage read: the hand record (a dict in the documented format) and warnings.
    ``hand``: the pieces the record's concealed tiles were read from, in its order (the winning tile
    last, when the record has one): where the hand is no win, what else each might be; ``gari``: the
    pieces its gari were read from."""

    record: dict
    warnings: list[str] = field(default_factory=list)
    pieces: list[Piece] = field(default_factory=list)      # the tiles it was read from (table mm)
    hand: list[Piece] = field(default_factory=list)
    gari: list[Piece] = field(default_factory=list)

    def key(self) -> str:
        return json.dumps(self.record, sort_keys=True)


def mpsz(tiles: Iterable[str]) -> str:
    """Tiles as one mpsz string, grouped by suit in the order given (``123p0s``)."""
    out, run, suit = [], [], None
    for t in tiles:
        if suit is not None and t[1] != suit:
            out.append("".join(run) + suit)
            run = []
        run.append(t[0])
        suit = t[1]
    if run:
        out.append("".join(run) + suit)
    return "".join(out)


def plain_kind(tile: str) -> str:
    """A red five counts as its five for copies and meld sameness."""
    return "5" + tile[1] if tile[0] == "0" else tile


def hidden_pair(faces: Sequence[str], wall: SetCounts = SANMA) -> tuple[list[str], tuple[str, ...]]:
    """The two tiles an ankan's backs hide, and what the players should check: of a five the wall
    holds four of, what those four leave after the two shown (三人花: two red, two plain); of a five
    it holds more of, partly red (chinton: eight, four red), unknown: taken plain, as the tablet's
    tap makes them, and said; of any other kind, two more of it."""
    kind = plain_kind(faces[0])
    suit = kind[1]
    red = wall.red(suit)
    if kind[0] != "5" or suit == "z" or not red:
        return [kind, kind], ()
    if wall.of(kind) > 4 and red < wall.of(kind):
        return [kind, kind], (f"an ankan of {kind}: its backs may hide red fives ({red} 0{suit} of "
                              f"{wall.of(kind)} {kind} in the set), taken as plain: check them",)
    reds = min(2, max(0, red - sum(t[0] == "0" for t in faces)))
    return ["0" + suit] * reds + [kind] * (2 - reds), ()


def _in_zone(pieces: Sequence[Piece], zone) -> list[Piece]:
    return [p for p in pieces if zone.contains(p.centre)]


def _zones(zones, seat: str | None, kind: str):
    return next((z for z in zones if z.kind == kind and z.seat == seat), None)


def find_winner(pieces: Sequence[Piece], zones) -> tuple[str | None, list[str]]:
    """The seat whose hand zone holds the most face-up tiles (a revealed hand)."""
    counts = {z.seat: sum(p.face_up for p in _in_zone(pieces, z)) for z in zones if z.kind == "hand"}
    if not counts or max(counts.values()) < 2:
        return None, ["no revealed hand: no hand zone holds two face-up tiles"]
    best = max(counts.values())
    seats = [s for s, n in counts.items() if n == best]
    warn = [f"two hands revealed ({', '.join(seats)}): took {seats[0]}"] if len(seats) > 1 else []
    return seats[0], warn


def faces_not_backs(pieces: Sequence[Piece]) -> tuple[list[Piece], list[str]]:
    """The winner's revealed row, the discards and a meld with a sideways tile (not an ankan) lie face
    up, so a back there is read as its likeliest face, however unsure, with a warning for the players
    to check it: a set whose backs are as pale as its faces reads its 白 as backs, one whose backs
    share the colour of its circles' ink an 8p. A back with no face in the running stays a back (not
    read)."""
    out, warnings = [], []
    for p in pieces:
        runner_up = next(((t, s) for t, s in p.others if t != BACK), None) if p.tile == BACK else None
        if runner_up is None:
            out.append(p)
            continue
        face, score = runner_up
        out.append(replace(p, tile=face, score=score, others=((BACK, p.score),)))
        warnings.append(f"a back read as {face} where tiles lie face up ({score:.2f} {face} against "
                        f"{p.score:.2f} back): check it")
    return out, warnings


def split_hand(row: Sequence[Piece], frame: SeatFrame) -> tuple[list[Piece], Piece | None, list[str]]:
    """The revealed row left to right, and the winning tile: the last one, set apart by a gap."""
    row = sorted(row, key=lambda p: frame.local(p.centre)[0])
    if not row:
        return [], None, ["the winner's hand zone is empty"]
    if len(row) >= 2 and frame.gap(row[-2], row[-1]) >= WIN_GAP * TILE_MM[0]:
        return row[:-1], row[-1], []
    return row[:-1], row[-1], ["the winning tile is not set apart: took the last tile of the row"]


def fit_runs(row: Sequence[Piece], frame: SeatFrame) -> tuple[list[Piece], list[str]]:
    """The row (left to right) with each run of same-class boxes cut to the tiles its length holds."""
    out: list[Piece] = []
    warnings: list[str] = []
    i = 0
    while i < len(row):
        j = i + 1
        while j < len(row) and row[j].tile == row[i].tile:
            j += 1
        run = list(row[i:j])
        length = frame.span(run[-1])[1] - frame.span(run[0])[0]
        fits = max(1, round(length / PITCH))
        if fits < len(run):
            sure = set(map(id, sorted(run, key=lambda p: -p.score)[:fits]))
            warnings.append(f"{len(run)} boxes of {run[0].tile} in {length:.0f} mm of the hand row: "
                            f"read as {fits}")
            run = [p for p in run if id(p) in sure]
        out += run
        i = j
    return out, warnings


def fit_row(row: Sequence[Piece], frame: SeatFrame) -> tuple[list[Piece], list[str]]:
    """The row (left to right) cut to the tiles its length holds at one face width each."""
    row = list(row)
    if len(row) < 2:
        return row, []
    length = frame.span(row[-1])[1] - frame.span(row[0])[0]
    fits = max(1, round(length / TILE_MM[0]))
    warnings = []
    while len(row) > fits:
        us = [frame.local(p.centre)[0] for p in row]
        crowded = {k for i in range(len(row) - 1) if us[i + 1] - us[i] < CROWDED * PITCH for k in (i, i + 1)}
        drop = min((row[k] for k in crowded or range(len(row))), key=lambda p: p.score)
        warnings.append(f"{len(row)} boxes in {length:.0f} mm of the hand row: dropped the {drop.tile} "
                        f"crowding its neighbours (score {drop.score:.2f})")
        row.remove(drop)
    return row, warnings


def split_stacked_pairs(pieces: Sequence[Piece], frame: SeatFrame) -> tuple[list[Piece], list[str]]:
    """A kakan's called tile and the one added on it, boxed as one: a face box as wide along the row
    as a sideways tile and deeper than ``PAIR_DEEP`` faces is cut in two across the row, each half a
    sideways tile of the box's class (both are one kind: a meld is)."""
    out: list[Piece] = []
    warnings: list[str] = []
    for p in pieces:
        a, b = frame.span(p, "u")
        c, d = frame.span(p, "v")
        if not (p.face_up and b - a >= PAIR_ALONG * TILE_MM[1] and d - c >= PAIR_DEEP * TILE_MM[1]):
            out.append(p)
            continue
        x1, y1, x2, y2 = p.box
        if abs(float(frame.v[0])) > abs(float(frame.v[1])):        # the seat's depth runs along x
            xm = (x1 + x2) / 2
            halves = [(x1, y1, xm, y2), (xm, y1, x2, y2)]
        else:
            ym = (y1 + y2) / 2
            halves = [(x1, y1, x2, ym), (x1, ym, x2, y2)]
        out += [replace(p, box=h) for h in halves]
        warnings.append(f"a {p.tile} box {d - c:.0f} mm deep in the meld zone: read as a stacked pair (kakan)")
    return out, warnings


def group_melds(pieces: Sequence[Piece], frame: SeatFrame, wall: SetCounts = SANMA) -> list[list[Piece]]:
    """Pieces of the meld zone in groups, left to right: a face of another kind starts a new one, and
    so does a gap of ``MELD_GAP`` widths, but for a face of the group's own kind within
    ``SAME_KIND_GAP`` (two melds never share a kind where the wall holds four). A tile stacked on
    its neighbour (kakan) overlaps it along the row and stays in its group. Where the wall holds
    more of a kind (chinton's eight), a group of more faces than a kan's four is two melds side by
    side, parted at its widest gap (``_parted``)."""
    pieces = sorted(pieces, key=lambda p: (frame.local(p.centre)[0], frame.local(p.centre)[1]))
    if not pieces:
        return []
    groups: list[list[Piece]] = [[pieces[0]]]
    for p in pieces[1:]:
        reach = max(groups[-1], key=lambda q: frame.local(q.centre)[0] + frame.half_width(q))
        kinds = {plain_kind(q.tile) for q in groups[-1] if q.face_up}
        gap = frame.gap(reach, p)
        same = p.face_up and kinds == {plain_kind(p.tile)}
        if (p.face_up and kinds and not same) or gap >= (SAME_KIND_GAP if same else MELD_GAP) * TILE_MM[0]:
            groups.append([p])
        else:
            groups[-1].append(p)
    return [part for g in groups for part in _parted(g, frame, wall)]


def _parted(group: list[Piece], frame: SeatFrame, wall: SetCounts) -> list[list[Piece]]:
    """A group of more than four faces of a kind the wall holds more of, and no backs, cut at its
    widest gap until each part is four tiles or fewer (a box drawn a little off inside a meld opens
    a narrower gap than the felt between two melds); any other group as it is."""
    if len(group) <= 4 or not all(p.face_up for p in group) or wall.of(group[0].tile) <= 4:
        return [group]
    gaps = [frame.gap(max(group[:i], key=lambda q: frame.local(q.centre)[0] + frame.half_width(q)), group[i])
            for i in range(1, len(group))]
    cut = 1 + int(np.argmax(gaps))
    return _parted(group[:cut], frame, wall) + _parted(group[cut:], frame, wall)


def _neighbours(frame: SeatFrame, seat: str, zones) -> dict[str, str | None]:
    """Which seat sits on the player's left, across and right (None: the empty side)."""
    out: dict[str, str | None] = {"left": None, "across": None, "right": None}
    own = next(z for z in zones if z.kind == "hand" and z.seat == seat)
    middle = np.mean(np.asarray(own.polygon, float), axis=0)
    for z in zones:
        if z.kind != "hand" or z.seat == seat:
            continue
        d = np.mean(np.asarray(z.polygon, float), axis=0) - middle
        u, v = float(d @ frame.u), float(d @ frame.v)
        # a neighbour's hand lies about 45 degrees off to one side; the player across, straight ahead
        side = "across" if abs(u) < 0.5 * v else "right" if u > 0 else "left"
        out[side] = z.seat
    return out


def read_meld(group: Sequence[Piece], frame: SeatFrame, neighbours: dict, wall: SetCounts = SANMA
              ) -> tuple[dict | None, list[str]]:
    """One group as a hand-record meld ``{kind, tiles, from}``, or None with the reason."""
    said: list[str] = []
    if any(frame.sideways(p) for p in group):   # only an ankan shows backs, and it lies upright
        group, said = faces_not_backs(group)
    meld, warnings = _meld_of(group, frame, neighbours, wall)
    return meld, said + warnings


def _meld_of(group: Sequence[Piece], frame: SeatFrame, neighbours: dict, wall: SetCounts
             ) -> tuple[dict | None, list[str]]:
    faces = [p.tile for p in group if p.face_up]
    backs = len(group) - len(faces)
    kinds = {plain_kind(t) for t in faces}
    if not faces:
        return None, [f"a group of {len(group)} backs in the meld zone: not read"]
    if len(kinds) > 1:
        return None, [f"meld tiles differ ({' '.join(faces)}): not read"]
    if backs:
        kind = plain_kind(faces[0])
        if len(group) == 4 and backs == 2:
            hidden, said = hidden_pair(faces, wall)
            return {"kind": "ankan", "tiles": mpsz(sorted(faces + hidden))}, list(said)
        if len(group) == 3 and group[1].face_up:
            # only an ankan shows backs, at its ends: one tile of its four was not seen
            hidden, _ = hidden_pair([kind, kind], wall)
            return ({"kind": "ankan", "tiles": mpsz(sorted([kind, kind] + hidden))},
                    [f"an ankan of {kind} with one of its four tiles not seen: check it"])
        return None, [f"a meld of {len(group)} tiles with {backs} back(s): not read"]
    # the row is what lies on the near line; kakan's added tile lies beyond its partner
    sideways = [p for p in group if frame.sideways(p)]
    row = sorted(group, key=lambda p: frame.span(p)[0])
    kind = {(3, 1): "pon", (4, 1): "minkan", (4, 2): "kakan"}.get((len(group), len(sideways)))
    if kind is None:
        return None, [f"a meld of {len(group)} tiles with {len(sideways)} sideways: not read"]
    near = min(sideways, key=lambda p: -frame.span(p, "v")[0]) if kind != "kakan" else \
        min(sideways, key=lambda p: frame.span(p, "v")[0])
    line = [p for p in row if p is near or not frame.sideways(p)]
    at = line.index(near)
    side = "left" if at == 0 else "right" if at == len(line) - 1 else "across"
    source = neighbours.get(side)
    meld = {"kind": kind, "tiles": mpsz(sorted(faces))}
    if source is None:
        return meld, [f"{kind} of {plain_kind(faces[0])}: its sideways tile points at the empty side ({side})"]
    meld["from"] = source
    return meld, []


def dead_wall_rows(pieces: Sequence[Piece], zone) -> tuple[list[str], list[str]]:
    """(dora indicators, ura indicators): face-up rows of the dead wall, nearest the rim first."""
    frame = SeatFrame.of_zone(zone.polygon)
    faces = sorted((p for p in _in_zone(pieces, zone) if p.face_up), key=lambda p: frame.local(p.centre)[1])
    if not faces:
        return [], []
    depth = float(np.median([frame.span(p, "v")[1] - frame.span(p, "v")[0] for p in faces]))
    first = frame.local(faces[0].centre)[1]
    dora = [p for p in faces if frame.local(p.centre)[1] - first < 0.6 * depth]
    ura = [p for p in faces if p not in dora]
    by_u = lambda ps: [p.tile for p in sorted(ps, key=lambda p: frame.local(p.centre)[0])]  # noqa: E731
    return by_u(dora), by_u(ura)


def table_warnings(pieces: Sequence[Piece], wall: SetCounts = SANMA) -> list[str]:
    """Copies beyond what the table's set holds, and tiles the detector was unsure of."""
    warnings = []
    faces = [p.tile for p in pieces if p.face_up]
    for kind, n in sorted(Counter(plain_kind(t) for t in faces).items()):
        if n > wall.of(kind):
            warnings.append(f"{n} copies of {kind} on the table (a set has {wall.of(kind)})")
    for red, n in sorted(Counter(t for t in faces if t[0] == "0").items()):
        if n > wall.red(red[1]):
            warnings.append(f"{n} copies of {red} on the table (a set has {wall.red(red[1])})")
    for p in pieces:
        if p.score < LOW_SCORE:
            x, y = p.centre
            warnings.append(f"unsure of the {p.tile} at ({x:.0f}, {y:.0f}) mm (score {p.score:.2f})")
    return warnings


def read_layout(pieces: Sequence[Piece], zones, rules: str, gari_kinds: Iterable[str] = DEFAULT_GARI,
                wall: SetCounts = SANMA) -> Reading:
    """The hand record of a table after a win (``rules``: the table's preset, ``wall``: what its set
    holds), with warnings."""
    warnings = table_warnings(pieces, wall)
    seat, w = find_winner(pieces, zones)
    warnings += w
    if seat is None:
        return Reading({}, warnings, list(pieces))
    hand_zone = _zones(zones, seat, "hand")
    frame = SeatFrame.of_zone(hand_zone.polygon)
    row, w = faces_not_backs(_in_zone(pieces, hand_zone))
    warnings += w
    backs = [p for p in row if not p.face_up]
    if backs:
        warnings.append(f"{len(backs)} back(s) in {seat}'s hand row: not read")
    concealed, win, w = split_hand([p for p in row if p.face_up], frame)
    warnings += w
    concealed, w = fit_runs(concealed, frame)
    warnings += w
    concealed, w = fit_row(concealed, frame)
    warnings += w
    melds = []
    meld_zone = _zones(zones, seat, "melds")
    if meld_zone is not None:
        neighbours = _neighbours(frame, seat, zones)
        in_zone, w = split_stacked_pairs(_in_zone(pieces, meld_zone), frame)
        warnings += w
        for group in group_melds(in_zone, frame, wall):
            meld, w = read_meld(group, frame, neighbours, wall)
            warnings += w
            if meld:
                melds.append(meld)
    gari_zone = _zones(zones, seat, "gari")
    gari_pieces = [p for p in _in_zone(pieces, gari_zone) if p.face_up] if gari_zone else []
    gari = [p.tile for p in gari_pieces]
    allowed = {plain_kind(g) for g in gari_kinds}
    warnings += [f"{t} in the gari zone is no gari" for t in gari if plain_kind(t) not in allowed]
    dead = _zones(zones, None, "dead_wall")
    dora, ura = dead_wall_rows(pieces, dead) if dead else ([], [])
    discard_zone = _zones(zones, seat, "discards")
    discarded = faces_not_backs(_in_zone(pieces, discard_zone))[0] if discard_zone else []
    discards = [p.tile for p in discarded if p.face_up]
    tiles = [p.tile for p in concealed] + ([win.tile] if win else [])
    if len(tiles) + 3 * len(melds) != 14:
        warnings.append(f"the hand has {len(tiles)} concealed tiles and {len(melds)} meld(s): "
                        f"{len(tiles) + 3 * len(melds)}, not 14")
    record = {"rules": rules, "seat": seat, "win": "tsumo", "concealed": mpsz(tiles),
              "win_tile": win.tile if win else ""}
    if melds:
        record["melds"] = melds
    for key, value in (("gari", gari), ("dora_indicators", dora), ("ura_indicators", ura),
                       ("discards", discards)):
        if value:
            record[key] = mpsz(value)
    if ura:
        record["riichi"] = True
    warnings.append("tsumo or ron cannot be seen on the table: check it")
    return Reading(record, warnings, list(pieces), list(concealed) + ([win] if win else []), gari_pieces)


def vote(readings: Sequence[Reading], quorum: float = 0.5) -> Reading:
    """One reading from several frames: the record most frames agree on (a hand reaching in is outvoted)."""
    if not readings:
        raise ValueError("no frames to vote on")
    counts = Counter(r.key() for r in readings)
    key, n = counts.most_common(1)[0]
    chosen = next(r for r in readings if r.key() == key)
    warnings = list(chosen.warnings)
    if n / len(readings) <= quorum:
        warnings.append(f"frames disagree: {n} of {len(readings)} read this hand")
    return replace(chosen, warnings=warnings)


def tiles_of(mpsz: str) -> list[str]:
    """``"123p0s"`` -> ``["1p", "2p", "3p", "0s"]`` (order kept)."""
    out, digits = [], []
    for ch in mpsz.replace(" ", ""):
        if ch.isascii() and ch.isdigit():
            digits.append(ch)
        else:
            out += [d + ch for d in digits]
            digits = []
    return out


RECORD_FIELDS = ("seat", "concealed", "win_tile", "melds", "gari", "dora_indicators", "ura_indicators",
                 "discards")


def record_diff(truth: dict, read: dict) -> list[str]:
    """The fields where a reading differs from the truth (tile order aside): [] when exact."""
    def norm(rec: dict, key: str):
        v = rec.get(key)
        if key == "melds":
            return sorted((m["kind"], tuple(sorted(tiles_of(m["tiles"]))), m.get("from")) for m in v or [])
        if key in ("seat", "win_tile"):
            return v
        return sorted(tiles_of(v or ""))
    return [k for k in RECORD_FIELDS if norm(truth, k) != norm(read, k)]
