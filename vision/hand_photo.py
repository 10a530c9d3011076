"""A revealed hand photographed from the seat: the line of face-up tiles, left to right, to a hand record.

A phone or the tablet held at the winner's seat sees the revealed hand as one row of tiles lying
side by side, the nearest and longest row in the picture. No table camera or calibration is
needed: the detector's oblique view finds the tiles (``vision.detect``), and this module

1. finds the line (``find_line``): the longest chain of face-up boxes that stand side by side,
   each overlapping the next in height by half or more, of like heights, with at most a tile's
   width of felt between them and reaching at most half a tile into each other; a box of the
   same tile lying on top of one of the line's (an added kan: the called tile's twin stacked on
   it) joins the line after it; a box between two tiles that leave no room for it (their centres
   under ``SQUEEZED`` pitches apart: it lies over their seam) leaves it; a line whose faces that
   have an up mostly read upside down was photographed from across the table, and runs right to
   left;
2. splits it at its gaps (``Line.groups``): the tiles of a hand touch, so felt of a third of a tile's
   width or more sets a group apart (the winning tile, a meld at the right end);
3. reads the groups (``read_line``): a group right of the hand of three or four of one kind is a
   pon or a kan (an added kan when one of its tiles lies stacked: such a run is a group of its own,
   felt or no felt, since only an added kan's tile lies on another); the last tile is the winning
   tile when the line holds 14 tiles (a kan counts three); with 13 the winning tile is not in the
   line, and the players pick it.

Before the line is read, ``look_again`` reads again the places its pitch says hold a tile that no
box holds right: a tile the locator missed, two tiles boxed as one.

A caller that can tell a hand that wins from one that cannot (the service, by the table's rule)
gives ``read_photo`` that test: a reading it refuses is read again at other sizes and turned a
little (``AGAIN_AT``), and the first the test takes is the reading. A winner reveals a winning hand,
so a line that makes none was misread; the same photo at another size or angle cuts its tiles
otherwise (what the photo's retakes showed: docs/vision.md).

What a photo of a hand cannot show (the seat, tsumo or ron, who dealt in, the gari, the dora
indicators, riichi) the caller gives: the tablet keeps what its draft already says.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Mapping, Sequence

import cv2
import numpy as np

from .classes import BACK, BLANK, HALF_TURN_SAME
from .classifier import NONE
from .colour import NO_COLOUR, colourless
from .layout import SANMA, SetCounts, hidden_pair, mpsz, plain_kind

NEIGHBOUR_GAP = 1.0      # most felt between two tiles of the line, in tile widths (a win tile or meld set apart)
NEIGHBOUR_OVERLAP = 0.5  # most two neighbours' boxes overlap across, in tile widths: seen from the seat a box
                         # holds its tile's side too (0.4 lost hand-92345ff1's end tiles in retakes)
OVERLAP = 0.5            # the least share of the lower box's height two neighbours overlap in
HEIGHTS = 1.5            # the most one neighbour's box is taller than the other's
GROUP_GAP = 0.3          # felt of this many tile widths between two tiles starts a new group
STACK_OVERLAP = 0.5      # a box over a line tile by this share of its width, of its tile, lies stacked on it
HAND = 14                # a won hand's tiles, a kan counting three
MIN_LINE = 5             # fewer face-up tiles side by side are no revealed hand
PHOTO_PX = 1920          # a photo is read at most this many px on its longer side (the hand photos measured)
# how a photo is read again, in turn, when its reading is refused: (size, turn in degrees anticlockwise)
AGAIN_AT = ((0.9, 0.0), (1.12, 0.0), (0.8, 0.0), (1.25, 0.0), (1.0, -2.0), (1.0, 2.0))
# second looks along the line (``look_again``); chosen on the hand photos' retakes and rendered seat photos
ONE_PLACE = (0.6, 1.2)   # a step between two upright neighbours' centres, in tile widths, that is one place
SQUEEZED = 1.5           # two tiles of the line whose centres lie closer than this many pitches hold no third between them
WIDE = 1.25              # an upright box this many times as wide as its narrower neighbour ...
WIDE_SURE = 0.95         # ... named less surely than this, may hold more than its tile (two boxed as one)
LOOK_SURE = 0.9          # a face read this surely in a wide box's place or a place beyond the line's end ...
GAP_SURE = 0.5           # ... or this surely in a place between two tiles of it is a tile the locator missed
PLACE_FREE = 0.3         # a place another box covers by this share of its width holds that box's tile
# 白 (BLANK) has no ink: felt or a rail beyond the line's end can read as it (a rendered seat photo's grey
# rim did, at 0.94), so it is not taken there


@dataclass(frozen=True)
class Tile:
    """A face-up tile found in the photo: mpsz name, box in pixels (x1, y1, x2, y2), score, rotation,
    and the reader's next likeliest faces for it (``Detection.others``)."""

    tile: str
    box: tuple[float, float, float, float]
    score: float = 1.0
    rotation: int = 0
    others: tuple[tuple[str, float], ...] = ()

    @property
    def width(self) -> float:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> float:
        return self.box[3] - self.box[1]

    @property
    def sideways(self) -> bool:
        """Turned a quarter (a called or winning tile laid across): its face's top points along the line."""
        return self.rotation % 180 == 90

    @classmethod
    def of(cls, found: Any) -> "Tile":
        """From a ``vision.detect.Detection`` or its dict."""
        if isinstance(found, Mapping):
            get, others = found.get, found.get("others") or ()
        else:
            get, others = (lambda k: getattr(found, k)), getattr(found, "others", ())
        others = tuple((str(t), float(p)) for t, p in others)
        return cls(str(get("tile")), tuple(float(v) for v in get("box")), float(get("score")), int(get("rotation")),
                   others)


@dataclass(frozen=True)
class Line:
    """The revealed line left to right, split into groups at its gaps; ``stacked[i]`` lies on line tile i."""

    groups: tuple[tuple[Tile, ...], ...]
    stacked: Mapping[int, Tile] = field(default_factory=dict)

    @property
    def tiles(self) -> list[Tile]:
        """Every tile of the line in order, a stacked one after the tile it lies on."""
        return [t for members in self.members() for t in members]

    def members(self) -> list[list[Tile]]:
        """Each group's tiles in order, a stacked one after the tile it lies on."""
        out, i = [], 0
        for g in self.groups:
            members = []
            for t in g:
                members.append(t)
                if i in self.stacked:
                    members.append(self.stacked[i])
                i += 1
            out.append(members)
        return out


@dataclass(frozen=True)
class HandRead:
    """What the line says of the hand: concealed tiles (the winning tile among them, last), the winning
    tile ('' when the line does not show it), melds (hand-record form), what to check, and the line's
    tiles the concealed ones were read from, in the same order (``hand``)."""

    concealed: tuple[str, ...]
    win_tile: str
    melds: tuple[Mapping[str, Any], ...]
    warnings: tuple[str, ...]
    line: Line | None
    hand: tuple[Tile, ...] = ()

    @property
    def line_tiles(self) -> list[str]:
        """The line's tiles as read, in order (a stacked one after the tile it lies on); none without a line."""
        return [t.tile for t in self.line.tiles] if self.line else []

    def into(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """``record`` (the seat, tsumo or ron, gari, dora... as the caller knows them) with the
        hand's concealed tiles, winning tile and melds replaced by what the photo shows."""
        out = {k: v for k, v in record.items() if k not in ("concealed", "win_tile", "melds")}
        out.update(concealed=mpsz(self.concealed), win_tile=self.win_tile)
        if self.melds:
            out["melds"] = [dict(m) for m in self.melds]
        return out


def _neighbours(a: Tile, b: Tile) -> bool:
    """Whether ``b`` may follow ``a`` in a line of tiles lying side by side (``b`` to the right)."""
    width = min(_upright_width(a), _upright_width(b))
    gap = b.box[0] - a.box[2]
    low, high = sorted((a.height, b.height))
    overlap = min(a.box[3], b.box[3]) - max(a.box[1], b.box[1])
    return (-NEIGHBOUR_OVERLAP * width <= gap <= NEIGHBOUR_GAP * width and high <= HEIGHTS * low
            and overlap >= OVERLAP * low)


def _upright_width(t: Tile) -> float:
    """A tile's width across the line: a sideways tile's box is as long as an upright one is tall."""
    return min(t.width, t.height) if t.sideways else t.width


def find_line(found: Iterable[Any]) -> Line | None:
    """The longest chain of face-up tiles side by side (ties: the higher summed score), split at its
    gaps, with any tile stacked on one of it; None when no chain holds ``MIN_LINE`` tiles."""
    tiles = sorted((Tile.of(f) for f in found), key=_centre)
    tiles = [t for t in tiles if t.tile != NONE]
    # per tile, the best chain ending on it: (face-up tiles, summed score, tiles, previous index); a
    # back links a chain (an ankan shows two) but adds no face, so a wall's row of backs is no line
    best: list[tuple[int, float, int, int]] = []
    for j, t in enumerate(tiles):
        face = t.tile != BACK
        best.append((int(face), t.score * face, 1, -1))
        for i in range(j):
            if _neighbours(tiles[i], t):
                n, s, k, _ = best[i]
                if (n + face, s + t.score * face, k + 1) > best[j][:3]:
                    best[j] = (n + face, s + t.score * face, k + 1, i)
    if not best:
        return None
    end = max(range(len(tiles)), key=lambda j: best[j][:3])
    if best[end][0] < MIN_LINE:
        return None
    chain = []
    while end >= 0:
        chain.append(tiles[end])
        end = best[end][3]
    chain = _unsqueezed(_trimmed(chain[::-1]))
    stacked = _stacked(chain, [t for t in tiles if t not in chain and t.tile != BACK])
    if _facing_the_player(chain):         # taken from across the table: the player's left is the photo's right
        stacked = {len(chain) - 1 - i: t for i, t in stacked.items()}
        chain = chain[::-1]
    return Line(_split(chain), stacked)


def _unsqueezed(chain: list[Tile]) -> list[Tile]:
    """The chain without boxes squeezed between two tiles that leave no room for them: a tile of the
    line lies a pitch from each of its neighbours, so the tiles either side of it lie two pitches
    apart. A box between two upright tiles whose centres lie under ``SQUEEZED`` pitches apart (halfway
    between one place and two) is no tile of its own: it lies over the seam between the two (a 白 read
    where a retake of hand-eafe5f63 showed the seam between its 9s and 9m). The most squeezed goes
    first, and the rest are measured again without it. A chain too short to have a pitch is kept."""
    pitch = _pitch(chain)
    while pitch is not None and len(chain) >= 3:
        room = [(_centre(b) - _centre(a), i) for i, (a, b) in enumerate(zip(chain, chain[2:]), start=1)
                if not (a.sideways or b.sideways)]
        least = min(room, default=None)
        if least is None or least[0] >= SQUEEZED * pitch:
            break
        chain = chain[:least[1]] + chain[least[1] + 1:]
    return chain


def _facing_the_player(chain: Sequence[Tile]) -> bool:
    """Whether more of the line's faces read upside down than upright: the photo was taken facing
    the hand's player, and the line runs right to left for them. Only faces that have an up vote
    (not ``HALF_TURN_SAME``, a red five as its five): which way up a 4s or a 5p lies is the
    classifier's guess, and a hand of many of them outvoted its characters; with none such, all vote."""
    faces = [t for t in chain if t.tile != BACK]
    with_an_up = [t for t in faces if plain_kind(t.tile) not in HALF_TURN_SAME] or faces
    down = sum(t.rotation == 180 for t in with_an_up)
    up = sum(t.rotation == 0 for t in with_an_up)
    return down > up


def _trimmed(chain: list[Tile]) -> list[Tile]:
    """The chain without backs at its ends, but for an ankan's closing back (back, X, X, back)."""
    while chain[0].tile == BACK:
        chain = chain[1:]
    while chain[-1].tile == BACK and not _ankan(chain[-4:]):
        chain = chain[:-1]
    return chain


def _split(chain: Sequence[Tile]) -> tuple[tuple[Tile, ...], ...]:
    width = statistics.median(_upright_width(t) for t in chain)
    groups, current = [], [chain[0]]
    for a, b in zip(chain, chain[1:]):
        if _felt(a, b) >= GROUP_GAP * width:
            groups.append(tuple(current))
            current = []
        current.append(b)
    groups.append(tuple(current))
    return tuple(groups)


def _felt(a: Tile, b: Tile) -> float:
    """Pixels of felt between two neighbours of the line, in either order."""
    return max(b.box[0] - a.box[2], a.box[0] - b.box[2])


def _stacked(chain: Sequence[Tile], others: Iterable[Tile]) -> dict[int, Tile]:
    """Boxes lying on a line tile of their own kind (over half its width, their bottom within its
    upper half): the added kan's fourth tile."""
    out: dict[int, Tile] = {}
    for o in others:
        for i, t in enumerate(chain):
            shared = min(o.box[2], t.box[2]) - max(o.box[0], t.box[0])
            on_top = t.box[1] - 0.2 * t.height <= o.box[3] <= t.box[1] + 0.6 * t.height and o.box[1] < t.box[1]
            if (i not in out and plain_kind(o.tile) == plain_kind(t.tile) and shared >= STACK_OVERLAP * t.width
                    and on_top):
                out[i] = o
                break
    return out


def _ankan(tiles: Sequence[Tile]) -> bool:
    """A closed kan as it lies: two backs around two faces of one kind."""
    return (len(tiles) == 4 and tiles[0].tile == tiles[3].tile == BACK and BACK not in (tiles[1].tile, tiles[2].tile)
            and plain_kind(tiles[1].tile) == plain_kind(tiles[2].tile))


def _meld(tiles: Sequence[Tile], stacked: bool, wall: SetCounts) -> tuple[dict[str, Any] | None, tuple[str, ...]]:
    """A pon (three of a kind), a kan (four; added when one lies stacked) or an ankan (two backs
    around two faces; of fives, what ``layout.hidden_pair`` says the backs hide), else None; and what
    the players should check."""
    if _ankan(tiles):
        faces = [tiles[1].tile, tiles[2].tile]
        hidden, said = hidden_pair(faces, wall)
        return {"kind": "ankan", "tiles": mpsz(sorted(faces + hidden))}, said
    if len(tiles) not in (3, 4) or BACK in {t.tile for t in tiles} or len({plain_kind(t.tile) for t in tiles}) != 1:
        return None, ()
    names = mpsz(sorted(t.tile for t in tiles))
    if len(tiles) == 3:
        return {"kind": "pon", "tiles": names}, ()
    return {"kind": "kakan" if stacked else "minkan", "tiles": names}, ()


def kans_apart(line: Line) -> Line:
    """The line with each added kan a group of its own. A tile lying on another is only ever an
    added kan's fourth, so the run of three of its kind it lies on is a meld even where no felt
    sets it apart from the hand."""
    flat = [t for g in line.groups for t in g]
    starts, at = set(), 0
    for g in line.groups:
        starts.add(at)
        at += len(g)
    for i in line.stacked:
        kind = plain_kind(flat[i].tile)
        a, b = i, i
        while a > 0 and a not in starts and plain_kind(flat[a - 1].tile) == kind:
            a -= 1
        while b + 1 < len(flat) and b + 1 not in starts and plain_kind(flat[b + 1].tile) == kind:
            b += 1
        if b - a + 1 == 3:
            starts |= {a, b + 1}
    bounds = sorted(x for x in starts if x < len(flat)) + [len(flat)]
    return Line(tuple(tuple(flat[x:y]) for x, y in zip(bounds, bounds[1:])), line.stacked)


def read_line(line: Line | None, wall: SetCounts = SANMA) -> HandRead:
    """The hand a line shows (module doc; ``wall``: what the table's set holds)."""
    if line is None:
        return HandRead((), "", (), (f"no revealed hand: no {MIN_LINE} face-up tiles lie side by side",), None)
    line = kans_apart(line)
    warnings: list[str] = []
    melds: list[dict[str, Any]] = []
    concealed: list[Tile] = []
    backs = 0
    alone = False
    for n, (group, members) in enumerate(zip(line.groups, line.members())):
        meld, said = _meld(members, any(m not in group for m in members), wall) if n > 0 else (None, ())
        if meld is not None and not concealed:
            meld = None
        if meld:
            melds.append(meld)
            warnings += said
        else:
            alone = len(members) == 1          # the hand's last tile so far lies apart from the rest
            concealed += [m for m in members if m.tile != BACK]
            backs += sum(m.tile == BACK for m in members)
    if backs:
        warnings.append(f"{backs} back(s) in the line: not read")
    size = len(concealed) + 3 * len(melds)
    if size == HAND:
        win = concealed[-1].tile
        if not (alone or concealed[-1].sideways):
            warnings.append("the winning tile is not set apart: took the last tile of the line")
    else:
        win = ""
        if size == HAND - 1:
            warnings.append("13 tiles in the line: the winning tile is not among them; pick it")
        else:
            warnings.append(f"the line holds {len(concealed)} concealed tile(s) and {len(melds)} meld(s): "
                            f"{size}, not {HAND}")
    if melds:
        warnings.append("who each meld was called from cannot be seen in a photo of the hand: check it")
    return HandRead(tuple(t.tile for t in concealed), win, tuple(melds), tuple(warnings), line, tuple(concealed))


def read_hand(found: Iterable[Any], wall: SetCounts = SANMA) -> HandRead:
    """Detections of a photo of a revealed hand (``vision.detect``) to the hand they show (``wall``:
    what the table's set holds)."""
    return read_line(find_line(found), wall)


def seat_detector(**kwargs):
    """The detector a photo from the seat is read with: the oblique view's classifier, refiner and
    perspective check, with the seat's own locator (``detect.SEAT_LOCATOR``: it learnt photos from the
    winner's seat, the line near the camera, its tiles touching) and without the second locator. That
    one learnt a seat's console (sticks, display, rail) as no tile, and vetoes boxes the first finds
    there; but it also vetoed a revealed line's own tiles (a 白, or five tiles at a line's left end),
    and the line needs no veto: console boxes make no chain of faces side by side.
    ``kwargs``: as ``Detector.for_view`` (a candidate classifier or locator, the mirrored pass)."""
    from .detect import SEAT_LOCATOR, Detector

    return Detector.for_view("oblique", second=False, **{**kwargs, "locator": kwargs.get("locator") or SEAT_LOCATOR})


def read_photo(image: np.ndarray, detector=None, accept: Callable[[HandRead], bool] | None = None,
               wall: SetCounts = SANMA) -> HandRead:
    """A photo of a revealed hand, taken from the seat (BGR), to the hand it shows, its line's boxes
    in the photo's pixels (``detector``: ``seat_detector()``'s, by default). A photo larger than
    ``PHOTO_PX`` on its longer side is read shrunk to it, in one window: a phone's 12 MP photo cut
    in windows cuts its tiles in parts. ``accept``: whether a reading may be the hand (a winning
    hand, by the caller's rule); one it refuses is read again as each of ``AGAIN_AT`` says in turn
    (that many times the size, turned that many degrees), and the first reading it takes is
    returned; where it takes none, the first. ``wall``: what the table's set holds (三人花's by default)."""
    if detector is None:
        detector = seat_detector()
    small, scale = as_read(image)
    first = _read_at(small, scale, detector, wall=wall)
    if accept is None or accept(first):
        return _colour_said(first, small, wall)
    for size, turn in AGAIN_AT:
        again = _read_at(small, scale, detector, size, turn, wall)
        if accept(again):
            how = ((f"at {size:g} times the size" if size != 1 else "at its own size")
                   + (f", turned {turn:g} degrees" if turn else ""))
            return _colour_said(replace(again, warnings=again.warnings + (
                f"read again {how}: the first reading made no winning hand",)), small, wall)
    return _colour_said(first, small, wall)


def _colour_said(hand: HandRead, image: np.ndarray, wall: SetCounts) -> HandRead:
    """``hand``, with word that its photo holds no colour (``vision.colour``) where it read a line and
    the set has red fives: each 5 of it may be red."""
    if hand.line and any(wall.reds) and colourless(image):
        return replace(hand, warnings=hand.warnings + (NO_COLOUR,))
    return hand


def look_again(found: Sequence[Any], image: np.ndarray, detector) -> tuple[list[Any], tuple[str, ...]]:
    """The detections of a photo of a hand, with the line's tiles the locator boxed wrong or missed
    read again where the line says they lie, and what the players should check (each tile so read).
    Laid side by side, the line's tiles follow one another at one pitch (``_pitch``), so

    1. an upright box ``WIDE`` times as wide as the narrower of its neighbours, named less surely
       than ``WIDE_SURE``, may hold two tiles (hand-839f5eac's 6p and 7p, boxed as one and read 8p):
       the classifier reads the place one pitch after the tile before it, and a face it reads
       there at ``LOOK_SURE`` or more replaces the box;
    2. then, on the line read again, a step of n pitches between two upright neighbours holds n - 1
       missed tiles, and one place beyond each end of the line may hold one more: each place no
       other box covers (``PLACE_FREE``) is read, and a face read at ``GAP_SURE`` (between two tiles)
       or ``LOOK_SURE`` (beyond an end, and not 白: ``BLANK``) or more is added.

    Felt between a hand and a meld set apart is no place: its step is no whole number of pitches,
    or reads as no tile. ``detector``: what found them (``Detector.name_boxes`` reads the places,
    with its tile set if it has one)."""
    found, said = list(found), []
    line = find_line(found)
    wide = _wide_places(line) if line else []
    if wide:
        read = detector.name_boxes(image, [box for _, box in wide])
        taken = [(t, r) for (t, _), r in zip(wide, read) if _face(r, LOOK_SURE)]
        gone = {t.box for t, _ in taken}
        found = [d for d in found if Tile.of(d).box not in gone] + [r for _, r in taken]
        said += [f"a box read {t.tile} held two tiles: read again as {r.tile} where the first lies; check it"
                 for t, r in taken]
        line = find_line(found)
    boxes = [Tile.of(d).box for d in found]
    places = [(box, at_end) for box, at_end in (_missed_places(line) if line else [])
              if _free(box, boxes, image.shape[1])]
    if places:
        read = detector.name_boxes(image, [box for box, _ in places])
        missed = [r for r, (_, at_end) in zip(read, places) if _missed_tile(r, at_end)]
        found += missed
        said += [f"{r.tile} read where the line's spacing says a tile was missed; check it" for r in missed]
    return found, tuple(said)


def _face(d: Any, sure: float) -> bool:
    return d.tile not in (NONE, BACK) and d.score >= sure


def _missed_tile(d: Any, at_end: bool) -> bool:
    """Whether a place's reading is a tile the locator missed: a face read at ``GAP_SURE`` between two
    tiles, at ``LOOK_SURE`` beyond an end and not 白 there (``BLANK``)."""
    return _face(d, LOOK_SURE if at_end else GAP_SURE) and not (at_end and d.tile == BLANK)


def _in_x_order(line: Line) -> list[Tile]:
    """The line's tiles left to right in the picture (a stacked tile left out)."""
    return sorted((t for g in line.groups for t in g), key=_centre)


def _pitch(run: Sequence[Tile]) -> float | None:
    """The median step between upright neighbours' centres that is one place (``ONE_PLACE``), where
    three or more are; else None (too few tiles side by side to tell)."""
    steps = [_centre(b) - _centre(a) for a, b in zip(run, run[1:])
             if not (a.sideways or b.sideways) and _one_place(_centre(b) - _centre(a), min(a.width, b.width))]
    return statistics.median(steps) if len(steps) >= 3 else None


def _one_place(step: float, width: float) -> bool:
    return ONE_PLACE[0] * width <= step <= ONE_PLACE[1] * width


def _centre(t: Tile) -> float:
    return (t.box[0] + t.box[2]) / 2


def _place(run: Sequence[Tile], x: float, width: float) -> tuple[float, float, float, float]:
    """The box of a tile of the run centred at ``x``: its top and bottom where the run's upright tiles'
    lie there (a line photographed a little aslant rises or falls along the picture)."""
    up = [t for t in run if not t.sideways]          # three or more: the run has a pitch (``_pitch``)
    xs = [_centre(t) for t in up]
    top = np.polyfit(xs, [t.box[1] for t in up], 1)
    bottom = np.polyfit(xs, [t.box[3] for t in up], 1)
    return (x - width / 2, float(np.polyval(top, x)), x + width / 2, float(np.polyval(bottom, x)))


def _wide_places(line: Line) -> list[tuple[Tile, tuple[float, float, float, float]]]:
    """Each upright box that may hold two tiles (``look_again``, 1) and the place of the first, one
    pitch after the upright tile before it (the step between that tile and the one before it where
    that is one place, else the line's pitch)."""
    run = _in_x_order(line)
    pitch = _pitch(run)
    if pitch is None:
        return []
    out = []
    for i in range(1, len(run)):
        t, before = run[i], run[i - 1]
        sides = [run[j].width for j in (i - 1, i + 1) if j < len(run) and not run[j].sideways]
        if t.sideways or before.sideways or t.score >= WIDE_SURE or t.width <= WIDE * min(sides):
            continue
        step = pitch
        if i >= 2 and not run[i - 2].sideways and _one_place(_centre(before) - _centre(run[i - 2]), before.width):
            step = _centre(before) - _centre(run[i - 2])
        normal = [u for u in run if u is not t]
        out.append((t, _place(normal, _centre(before) + step, before.width)))
    return out


def _missed_places(line: Line) -> list[tuple[tuple[float, float, float, float], bool]]:
    """The places a tile of the line may lie that no box holds (``look_again``, 2), each with whether
    it lies beyond an end: between two upright neighbours n pitches apart (n >= 2, within 0.3 of a
    pitch), and one place beyond each end that is upright (the end's own step where that is one
    place, else the line's pitch)."""
    run = _in_x_order(line)
    pitch = _pitch(run)
    if pitch is None:
        return []
    out = []
    for a, b in zip(run, run[1:]):
        step = _centre(b) - _centre(a)
        n = round(step / pitch)
        if a.sideways or b.sideways or n < 2 or abs(step / pitch - n) >= 0.3:
            continue
        out += [(_place(run, _centre(a) + k * step / n, (a.width + b.width) / 2), False) for k in range(1, n)]
    for end, next_to, way in ((run[-1], run[-2], 1), (run[0], run[1], -1)):
        if end.sideways:
            continue
        step = abs(_centre(end) - _centre(next_to))
        if next_to.sideways or not _one_place(step, end.width):
            step = pitch
        out.append((_place(run, _centre(end) + way * step, end.width), True))
    return out


def _free(box, boxes: Sequence[Sequence[float]], image_width: int) -> bool:
    """Whether a place lies in the picture and none of ``boxes`` covers ``PLACE_FREE`` of its width (and
    over 0.3 of its height: a box above or below the line, a stacked tile, leaves it free)."""
    width, height = box[2] - box[0], box[3] - box[1]
    if box[0] < 0 or box[2] > image_width:
        return False
    for o in boxes:
        across = min(o[2], box[2]) - max(o[0], box[0])
        down = min(o[3], box[3]) - max(o[1], box[1])
        if across > PLACE_FREE * width and down > 0.3 * height:
            return False
    return True


def _read_at(image: np.ndarray, scale: float, detector, size: float = 1.0, turn: float = 0.0,
             wall: SetCounts = SANMA) -> HandRead:
    """The hand in ``image`` (the photo at ``scale`` times its size) read at ``size`` times that, turned
    ``turn`` degrees anticlockwise about its centre, its boxes put back in the photo's pixels (a turned
    box: the box around its corners turned back)."""
    if size != 1.0:
        image = cv2.resize(image, None, fx=size, fy=size, interpolation=cv2.INTER_AREA if size < 1 else cv2.INTER_CUBIC)
    h, w = image.shape[:2]
    back = None
    if turn:
        m = cv2.getRotationMatrix2D((w / 2, h / 2), turn, 1.0)
        image = cv2.warpAffine(image, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        back = cv2.invertAffineTransform(m)
    found, said = look_again(detector.detect(image), image, detector)
    if back is not None:
        found = [replace(d, box=_turned_back(d.box, back)) for d in found]
    if scale * size != 1.0:
        found = [replace(d, box=tuple(v / (scale * size) for v in d.box)) for d in found]
    hand = read_hand(found, wall)
    return replace(hand, warnings=hand.warnings + said) if said and hand.line else hand


def _turned_back(box, back: np.ndarray) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    corners = np.array([[x1, y1, 1], [x2, y1, 1], [x1, y2, 1], [x2, y2, 1]], dtype=float) @ back.T
    return (*map(float, corners.min(axis=0)), *map(float, corners.max(axis=0)))


def as_read(image: np.ndarray) -> tuple[np.ndarray, float]:
    """A photo of a hand as ``read_photo`` reads it, and the scale from the photo to that: shrunk to
    ``PHOTO_PX`` on its longer side when larger, else itself (scale 1)."""
    scale = min(1.0, PHOTO_PX / max(image.shape[:2]))
    if scale < 1.0:      # never to no pixels: a 1x4096 picture shrunk by 0.47 has a side of 0.47
        h, w = image.shape[:2]
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA), scale
    return image, scale
