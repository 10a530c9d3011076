"""A confirmed count's image kept as a labelled real photo, for measuring the detector on a parlour's own tiles.

The project's vision is chosen on a handful of real photos, one of them held out; a parlour makes
dozens a night. When the players confirm a count, its image is already the hand's snapshot, which
the log keeps; this module writes beside it the tiles' boxes, each named as the players confirmed
it, in the format of ``vision/labels`` (``vision.evaluate.load_labels``).
``bench/bench_tileset.py --labels DIR`` with ``TOUTENKOU_PHOTOS`` at the snapshots then reads them
as it reads the project's labelled photos: photos no model was chosen on. Two kinds of image:

- **A photo of the hand taken at the seat** (``service.hand_photos``): the line's boxes, with
  ``hand_line``. Labelled only where the confirmed hand says which box is which tile: every box of
  the line matched to a confirmed tile of the hand (``service.learning.confirmed_labels``: each read
  tile that is one of the confirmed ones, and where exactly one box and one tile are left, the
  players' one fix; a back, a closed kan's). A
  line with two fixes, a box the players took away or a tile they added (beyond a winning tile
  the line did not show) is not labelled: which box became which tile is not known.
- **The table camera's frame** (``service.vision_reader``): the boxes in the zones a count names
  (the winner's hand, melds and gari, the dead wall: ``service.learning.confirmed_labels``), in
  the frame's pixels, each face turned as the frame shows it, and the calibration the frame was
  read with (``table``), so the bench reads the frame as the table read it, and the count as
  confirmed (``records``: its hand records), against which the bench checks the record read. Labelled only where
  every box there is named and every tile the count shows face up has its box (a tile the reader
  missed would leave the labels silently short of the hardest tile). Discards, walls and the other
  seats are not labelled: a count does not confirm them.

The boxes are the reader's, not drawn by eye: the names are the players', so a later model is
measured fairly on naming and on the line; where the boxes lie says only what the reader found.
Writing never fails a confirm.
"""

from __future__ import annotations

import json
import logging
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from vision.classes import BACK

from .files import write_whole
from .learning import CONFIRMED_ZONES, confirmed_labels, face_up_tiles
from .reader import Reading

log = logging.getLogger(__name__)
LINE = "hand"                   # the zone of a photo's line tiles, and the labels' group for them
LABELLED_BY = "the players' confirmed count; boxes as the reader found them"
TABLE_NOTE = "discards, walls and the other seats are not labelled: a count does not confirm them"


def photo_labels(reading: Reading, size: tuple[int, int], snapshot: str,
                 records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The labels of a count's image confirmed as ``records``, in ``vision/labels``' format, or None
    where it cannot be labelled (module doc): a photo of the hand from the seat
    (``reading.from_seat``), or the table camera's frame (``reading.table``)."""
    if not records:
        return None
    if reading.from_seat:
        return seat_photo_labels(reading, size, snapshot, records)
    if reading.table is not None:
        return table_frame_labels(reading, size, snapshot, records)
    return None


def seat_photo_labels(reading: Reading, size: tuple[int, int], snapshot: str,
                      records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The labels of a photo of the hand taken at the seat: its line's boxes, or None where a box of
    the line is one the confirmed hand does not name."""
    line = [d for d in reading.detections if d.zone == LINE]
    if not line:
        return None
    # the hand the photo was read into (a double ron's second record), its own tiles: the gari and
    # the indicators lie outside its line (a back in it: a closed kan's, where the hand holds one)
    hand = [{"concealed": r.get("concealed"), "melds": r.get("melds")} for r in records[-1:]]
    names = confirmed_labels([(d.tile, LINE) for d in line], hand)
    if None in names:
        return None
    tiles = [{"tile": name, "box": [d.x, d.y, d.x + d.w, d.y + d.h], "rotation": d.rotation, "group": LINE}
             for d, name in zip(line, names)]
    return {"image": snapshot, "size": list(size), "source": f"a photo of the hand confirmed at the table, {_now()}",
            "labelled_by": LABELLED_BY, "tiles": tiles, "unreadable": [], "clear": [],
            "hand_line": list(names),
            "notes": "read as: " + " ".join(d.tile for d in line)}


def table_frame_labels(reading: Reading, size: tuple[int, int], snapshot: str,
                       records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """The labels of the table camera's frame: the boxes in the zones a count names, each with its
    ``zone``, and the calibration it was read with; None where a box there is not named or a tile the
    count shows face up has no box."""
    named = [d for d in reading.detections if d.zone in CONFIRMED_ZONES]
    if not named:
        return None
    names = confirmed_labels([(d.tile, d.zone) for d in named], records)
    if None in names or Counter(face_up_tiles(records)[0]) - Counter(names):
        return None
    tiles = [{"tile": name, "box": [d.x, d.y, d.x + d.w, d.y + d.h], "rotation": 0 if name == BACK else d.rotation,
              "zone": d.zone} for d, name in zip(named, names)]
    return {"image": snapshot, "size": list(size), "source": f"a count confirmed at the table camera, {_now()}",
            "labelled_by": LABELLED_BY, "tiles": tiles, "unreadable": [],
            "table": dict(reading.table or {}), "rules": records[-1].get("rules"),
            "records": [dict(r) for r in records],
            "notes": f"read as: {' '.join(d.tile for d in named)}; {TABLE_NOTE}"}


def _now() -> str:
    return f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC"


class PhotoLabels:
    """Where confirmed photos' labels are kept (``folder``: None keeps none), and the readings they
    come from (``reading_of``: a snapshot's reading and its size, as the tablet was shown it)."""

    def __init__(self, folder: Path | None,
                 reading_of: Callable[[str], tuple[Reading, tuple[int, int]] | None]):
        self.folder = Path(folder) if folder is not None else None
        self.reading_of = reading_of

    def keep(self, snapshot: str | None, records: Sequence[Mapping[str, Any]]) -> Path | None:
        """The labels of ``snapshot``'s photo, confirmed as ``records``, written to ``<folder>/<snapshot
        stem>.json`` (whole or not at all); None where nothing was written. Never raises: the hand is
        logged whatever happens here."""
        if self.folder is None or not snapshot:
            return None
        try:
            found = self.reading_of(snapshot)
            if found is None:
                return None
            reading, size = found
            label = photo_labels(reading, size, snapshot, records)
            if label is None:
                return None
            return write_whole(self.folder / f"{Path(snapshot).stem}.json",
                               json.dumps(label, ensure_ascii=False, indent=1))
        except Exception:
            log.exception("the confirmed photo %s could not be kept as labels", snapshot)
            return None
