"""The teach page's work: read a picture of the five rows (``vision.teach.LAYOUT``) into cuts, each
with the kind laid at its place, kept until the players confirm them (``Lesson``).

The picture is an uploaded photo, or the camera's frame: a calibrated table's frame is rectified
top-down as the reader reads it and looked at in region-sized windows, the centre first
(``VisionReader.table_windows``), so the cuts are cut as the reader will cut the tiles. A picture is detected whole
(``Detector.detect``): in one piece, and where that finds fewer tiles than laid
on a large picture, also in overlapping windows (``grid_for``), keeping the
reading that found more.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.teach import LAYOUT, assign, rows_and_strays, upright_cut, without_empty_gaps
from vision.tileset import KINDS

from .errors import ServiceError

LAID = sum(len(row) for row in LAYOUT)      # 34 tiles: 31 faces, 3 backs
WINDOW_SIDE = 1400                          # px: a picture this long a side or longer may be read in windows
THUMB_HEIGHT = 96                           # px: the cuts as the page shows them
SKIP = ""                                   # a cut's kind when the players leave it out


@dataclass(frozen=True, eq=False)
class TaughtCut:
    """One tile of the picture: its upright cut, the kind laid there (None: past the layout), what
    the detector read it as, and its row (0-based)."""

    image: np.ndarray
    kind: str | None
    read: str
    row: int


@dataclass(frozen=True, eq=False)
class Lesson:
    """A read picture waiting for the players' Confirm, named by ``token``."""

    token: str
    cuts: tuple[TaughtCut, ...]
    warnings: tuple[str, ...]

    def rows(self) -> list[list[tuple[int, TaughtCut]]]:
        """The cuts (with their index) row by row, as laid."""
        out: list[list[tuple[int, TaughtCut]]] = []
        for i, cut in enumerate(self.cuts):
            while len(out) <= cut.row:
                out.append([])
            out[cut.row].append((i, cut))
        return out


def grid_for(image: np.ndarray) -> int:
    """Windows a side for a picture whose tiles are small in it: one per ``WINDOW_SIDE`` px of its
    longer side (1 up to 1,400 px, 2 up to 2,800, ...; at most 4)."""
    return max(1, min(4, -(-max(image.shape[:2]) // WINDOW_SIDE)))


def detect(detector, image: np.ndarray) -> list:
    """The tiles of a picture of the rows: whole, and, when that finds fewer than laid on a large
    picture, in ``grid_for`` windows too; the reading with more tiles."""
    found = detector.detect(image)
    grid = grid_for(image)
    if len(found) < LAID and grid > 1:
        windowed = detector.detect(image, grid=grid)
        if len(windowed) > len(found):
            found = windowed
    return found


def best_picture(detector, pictures: Sequence[np.ndarray]) -> tuple[int, list]:
    """(index, tiles found) of the picture to teach from: the one whose tiles the classifier reads
    most often as the kind laid at their place, then the one showing the most tiles in the rows, then
    the fewest strays (``vision.teach.rows_and_strays``: a window that also holds the rim's boxes
    shows more, none of them laid); the first where every tile laid agrees ends the search."""
    chosen, found, best = 0, [], (-1, -1, 0)
    for i, picture in enumerate(pictures):
        here = detect(detector, picture)
        rows, strays = rows_and_strays(here)
        pairs, _ = assign(rows, LAYOUT, strays)
        score = (sum(d.tile == kind for d, kind in pairs), len(here) - len(strays), -len(strays))
        if score > best:
            chosen, found, best = i, here, score
        if best[0] >= LAID:
            break
    return chosen, found


def read_lesson(detector, image: np.ndarray | Sequence[np.ndarray]) -> Lesson:
    """The picture's tiles in rows, each with the kind laid at its place (``vision.teach``); given
    several pictures (a calibrated table's windows, the centre first), the one ``best_picture``
    chooses. ``ServiceError`` (422) when none shows a tile."""
    pictures = [image] if isinstance(image, np.ndarray) else list(image)
    chosen, found = best_picture(detector, pictures)
    image = pictures[chosen]
    if not found:
        raise ServiceError("no tiles found in the picture: lay the five rows in the camera's view "
                           "(or photograph them from above, the rows filling most of the photo) and try again")
    rows, strays = rows_and_strays(found)
    rows = without_empty_gaps(rows, image, detector)
    pairs, warnings = assign(rows, LAYOUT, strays)
    row_of = {id(d): r for r, row in enumerate(rows) for d in row} | {id(d): len(rows) for d in strays}
    cuts = []
    for d, kind in pairs:
        try:
            cuts.append(TaughtCut(upright_cut(image, d), kind, d.tile, row_of[id(d)]))
        except ValueError:          # a box of no pixels: nothing to learn from
            continue
    return Lesson(secrets.token_hex(8), tuple(cuts), tuple(warnings))


def thumbnail_url(image: np.ndarray, height: int = THUMB_HEIGHT) -> str:
    """A cut as a ``data:`` URL (JPEG, ``height`` px high) for the page."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(1, round(w * height / h)), height),
                       interpolation=cv2.INTER_AREA if h > height else cv2.INTER_LINEAR)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


def chosen(lesson: Lesson, kinds: Sequence[str]) -> list[tuple[str, np.ndarray]]:
    """The cuts with the kinds the players confirmed (one per cut, in order; ``SKIP`` leaves one
    out). ``ServiceError`` (422) naming what is wrong with the posted kinds."""
    if len(kinds) != len(lesson.cuts):
        raise ServiceError(f"{len(kinds)} kinds posted for {len(lesson.cuts)} tiles: read the tiles again")
    bad = sorted({k for k in kinds if k != SKIP and k not in KINDS})
    if bad:
        raise ServiceError(f"not a kind: {', '.join(bad)} (mpsz: 1m-9m, 1p-9p, 1s-9s, 1z-7z, 0m 0p 0s, back)")
    named = [(k, cut.image) for k, cut in zip(kinds, lesson.cuts) if k != SKIP]
    if not named:
        raise ServiceError("every tile is left out: choose the kind of at least one")
    return named
