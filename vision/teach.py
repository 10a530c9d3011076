"""Teaching a table its own tiles: one of each kind laid face up in four rows, and three tiles face down
in a fifth (the set's backs: a pale back can read as 白), read in one picture.

The players lay the rows the tablet shows (``LAYOUT``) and take one picture;
the detector finds the tiles, ``rows_and_strays`` groups them into rows (setting aside
boxes that are no laid tile: a marker, the rim; and cutting a tile the detector missed
between two it found where it lies, ``with_gaps``, kept where a face shows in it,
``without_empty_gaps``) and
``assign`` gives each tile the kind laid at its place. The detector's own
names are not used: the point is tiles it may not know. What does not fit (a
row with a tile too many or too few, a row too many) is said in a warning, and
the players fix the kinds on the tablet before the cuts are enrolled into the
table's tile set (``vision.tileset``).

Rows are read as the players see them: when most faces show upside down (or on
their side) to the camera, the players sit across from it (or beside it), and
the picture is read turned that way round.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import numpy as np

from .classes import BACK
from .crop import upright_cut as crop_upright
from .detect import NONE, Detection

LAYOUT: tuple[tuple[str, ...], ...] = (
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    ("1m", "5m", "9m", "0m", "0p", "0s"),
    tuple(f"{n}z" for n in range(1, 8)),
    (BACK, BACK, BACK),
)
ROW_TOLERANCE = 0.5         # of the median tile height: centres closer than this (in y) share a row
TILE_SIZE = (0.6, 1.6)      # a laid tile's box: its width and height within these of the median ones
RUN_GAP = 3.5               # of the median tile width: centres further apart along a row are not one run (two
                            # tiles missed side by side, or one box over two set aside, still leave one run)
PITCH = (0.8, 1.5)          # a step between neighbours' centres, over their width, that is one place along a row
MARGIN = 0.04               # of the box, added on each side of a cut (as vision.crop.cut_tile)

_TOP = {0: (0.0, -1.0), 90: (1.0, 0.0), 180: (0.0, 1.0), 270: (-1.0, 0.0)}   # a face's top, per rotation


def facing(detections: Sequence[Detection]) -> int:
    """How the faces lie to the camera, the players' way up: the most common rotation of the
    face-up tiles (0 when none is face up)."""
    turns = Counter(d.rotation % 360 for d in detections if d.tile != BACK)
    return turns.most_common(1)[0][0] if turns else 0


def _extent(d: Detection, turn: int) -> tuple[float, float]:
    """(width along the row, height) of a detection's box, the players' way up."""
    w, h = d.box[2] - d.box[0], d.box[3] - d.box[1]
    return (w, h) if turn in (0, 180) else (h, w)


def _players_view(d: Detection, turn: int) -> tuple[float, float, float]:
    """(x to the players' right, y towards the players, tile height) of a detection, seen from the
    side ``turn`` says the players sit on."""
    tx, ty = _TOP.get(turn, _TOP[0])
    x1, y1, x2, y2 = d.box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    right = (-ty, tx)
    return cx * right[0] + cy * right[1], -(cx * tx + cy * ty), _extent(d, turn)[1]


def rows_and_strays(detections: Sequence[Detection]) -> tuple[list[list[Detection]], list[Detection]]:
    """The laid rows (``rows_of``) and the strays set aside from them: a box not the size of the laid
    tiles (width or height outside ``TILE_SIZE`` of the median ones: a marker, a stick, a rim's edge),
    and a box far along its row from the row's longest run of tiles (more than ``RUN_GAP`` tile widths
    from its neighbour). Left in, a stray at a row's start would shift every kind after it."""
    if not detections:
        return [], []
    turn = facing(detections)
    sizes = [_extent(d, turn) for d in detections]
    mw, mh = float(np.median([w for w, _ in sizes])), float(np.median([h for _, h in sizes]))
    lo, hi = TILE_SIZE
    sized = [lo <= w / mw <= hi and lo <= h / mh <= hi for w, h in sizes]
    strays = [d for d, ok in zip(detections, sized) if not ok]
    rows = []
    for row in rows_of([d for d, ok in zip(detections, sized) if ok]):
        along = [_players_view(d, turn)[0] for d in row]
        runs = [[row[0]]]
        for k in range(1, len(row)):
            if along[k] - along[k - 1] > RUN_GAP * mw:
                runs.append([])
            runs[-1].append(row[k])
        longest = max(runs, key=len)
        rows.append(with_gaps(longest, turn))
        strays += [d for run in runs if run is not longest for d in run]
    return rows, strays


def with_gaps(row: Sequence[Detection], turn: int) -> list[Detection]:
    """The row with a box where a tile lies that the detector missed (read as ``none``, score 0),
    so that each tile after it keeps its place. Laid side by side, tiles follow one another at one
    pitch: the row's pitch is the median step between neighbours' centres over their mean width
    (of steps that are one place, within ``PITCH``), and a step of n pitches (rounded, n >= 2)
    between two tiles holds n - 1 missed ones, boxed evenly between the two (their boxes'
    corners interpolated: far tiles look smaller). A real set the detector does not know loses
    tiles in a row (a seat photo's 6m, docs/service.md); without this every kind after it was off
    by one. Where the players left room between two tiles, the box shows felt: the page drops it
    (``without_empty_gaps``)."""
    if len(row) < 2:
        return list(row)
    along = [_players_view(d, turn)[0] for d in row]
    widths = [_extent(d, turn)[0] for d in row]
    ratios = [(b - a) / ((wa + wb) / 2) for a, b, wa, wb in zip(along, along[1:], widths, widths[1:])]
    single = [r for r in ratios if PITCH[0] <= r <= PITCH[1]]
    if not single:
        return list(row)
    pitch = float(np.median(single))
    out = [row[0]]
    for a, b, r in zip(row, row[1:], ratios):
        places = round(r / pitch)
        for k in range(1, places):
            f = k / places
            box = tuple(float(u + (v - u) * f) for u, v in zip(a.box, b.box))
            out.append(Detection(NONE, box, a.rotation if a.tile != BACK else b.rotation, 0.0))
        out.append(b)
    return out


def without_empty_gaps(rows: Sequence[Sequence[Detection]], image: np.ndarray, detector) -> list[list[Detection]]:
    """The rows without the boxes ``with_gaps`` cut where the classifier (``detector.name_boxes``, no
    tile set) sees no face: there the players left room between two tiles, and no tile was missed
    (a kind given to the felt would shift every kind after it, as a missed tile did). The felt
    between two tiles, their sides at its edges, reads as none or as a back; a missed back in the
    back row is left out so too, and the backs after it, all backs, keep their kind."""
    gaps = [d for row in rows for d in row if d.tile == NONE]
    if not gaps:
        return [list(row) for row in rows]
    read = detector.name_boxes(image, [d.box for d in gaps], use_set=False)
    empty = {id(d) for d, r in zip(gaps, read) if r.tile in (NONE, BACK)}
    return [[d for d in row if id(d) not in empty] for row in rows]


def rows_of(detections: Sequence[Detection], tolerance: float = ROW_TOLERANCE) -> list[list[Detection]]:
    """The detections grouped into rows, top to bottom, each row left to right (the players' way
    up, ``facing``). Sorted by the y of their box centres, a new row starts where the step from
    one centre to the next is more than ``tolerance`` times the median tile height."""
    if not detections:
        return []
    turn = facing(detections)
    seen = [(d, *_players_view(d, turn)) for d in detections]
    gap = tolerance * float(np.median([h for *_, h in seen]))
    rows: list[list[tuple]] = []
    last_y = None
    for item in sorted(seen, key=lambda s: s[2]):
        if last_y is None or item[2] - last_y > gap:
            rows.append([])
        rows[-1].append(item)
        last_y = item[2]
    return [[d for d, *_ in sorted(row, key=lambda s: s[1])] for row in rows]


def assign(rows: Sequence[Sequence[Detection]], layout: Sequence[Sequence[str]] = LAYOUT,
           strays: Sequence[Detection] = ()) -> tuple[list[tuple[Detection, str | None]], list[str]]:
    """Each detection with the kind laid at its place: row by row, position by position. Returns
    ``(pairs, warnings)``; a tile past the end of its row's layout, or in a row the layout does not
    have, comes with ``None`` (the players name it or leave it out), and every row with more or
    fewer tiles than laid, and every row missing, is a warning. A tile the detector saw as a back
    where a face was laid keeps its place but gets no kind either (a face-down tile teaches no
    face), with a warning; where a back was laid it is the back, whatever the detector saw (a pale
    back it reads as 白 is what the set must learn). A box cut where the detector missed a tile
    (``with_gaps``: read as ``none``) gets the kind laid there, with a warning naming it. ``strays``
    (``rows_and_strays``) come last, with ``None`` and one warning."""
    pairs: list[tuple[Detection, str | None]] = []
    warnings: list[str] = []
    for i, row in enumerate(rows):
        kinds = list(layout[i]) if i < len(layout) else []
        for j, d in enumerate(row):
            kind = kinds[j] if j < len(kinds) else None
            pairs.append((d, None if d.tile == BACK and kind != BACK else kind))
        backs = [kinds[j] for j, d in enumerate(row) if d.tile == BACK and j < len(kinds) and kinds[j] != BACK]
        if backs:
            warnings.append(f"row {i + 1}: the {' '.join(backs)} show(s) a back: left out (turn it face up, "
                            f"or name it)")
        # a gap past the row's kinds is named by its place in the row: no kind was laid there
        missed = [kinds[j] if j < len(kinds) else f"tile {j + 1}" for j, d in enumerate(row) if d.tile == NONE]
        if missed:
            warnings.append(f"row {i + 1}: the {' '.join(missed)} not found, cut where it lies between the "
                            f"tiles beside it: check it")
        if i >= len(layout):
            warnings.append(f"row {i + 1}: {len(row)} tile(s) in a row the layout does not have: "
                            f"name them or leave them out")
        elif len(row) > len(kinds):
            warnings.append(f"row {i + 1}: {len(row)} tiles, {len(kinds)} laid: the last "
                            f"{len(row) - len(kinds)} have no kind (a tile too many, or two rows seen as one?)")
        elif len(row) < len(kinds):
            warnings.append(f"row {i + 1}: {len(row)} tiles, {len(kinds)} laid: "
                            f"{' '.join(kinds[len(row):])} not seen at the end; if the row's first tile was "
                            f"missed, every kind in it is off by one: check them")
    for i in range(len(rows), len(layout)):
        warnings.append(f"row {i + 1} ({' '.join(layout[i])}) not seen")
    if strays:
        pairs += [(d, None) for d in strays]
        warnings.append(f"{len(strays)} box(es) away from the rows (not a laid tile's size, or far along a row): "
                        f"name them or leave them out")
    return pairs, warnings


def upright_cut(image: np.ndarray, d: Detection, margin: float = MARGIN) -> np.ndarray:
    """The detection's tile cut from the image at its own resolution and turned upright
    (``vision.crop.upright_cut``): what a tile set enrols. ``ValueError`` for a box with no pixels."""
    return crop_upright(image, d.box, d.rotation, margin)
