"""The vision reader for the table service: ``TABLE_READER=service.vision_reader:from_env``.

It wraps ``vision.read.TableReader`` (calibration -> detector -> layout) in the
service's Reader protocol. The calibrated table is named by ``TABLE_CALIBRATION``
(a table file of ``python -m calibration fit``, in ``CALIBRATION_DIR``). A frame
with no markers and no stored homography reads nothing and says why. The file
is read again when it changes (a refit, a lens, zones edited while the table
runs): from the next frame on, without a restart.

One detector serves every house rule's reader; ``use_tileset`` switches it to
the table's tile set (``vision.tileset``). Each reading carries the upright
cuts of its face-up tiles with the zone each lay in (``Reading.cuts``): what a
confirmed count teaches the set (``service.table_tiles``).
"""

from __future__ import annotations

import os
import threading
from dataclasses import replace

import numpy as np

from calibration.errors import CalibrationError
from calibration.store import TableFile, load, table_path
from calibration.tracker import Tracker
from vision.detect import Detector
from vision.layout import DEFAULT_GARI
from vision.read import TableReader, table_windows, top_view

from .mending import mended, set_of, vouched
from .reader import Cut, Detection, ReadContext, Reading

ENV_TABLE = "TABLE_CALIBRATION"


def demo_table() -> TableFile:
    """The table the demo camera's frames show: the default rim markers and zones, no stored fit
    (every frame's markers place it)."""
    return TableFile("demo")


class VisionReader:
    name = "vision"

    def __init__(self, table: str | TableFile, detector: Detector | None = None, mend: bool = True):
        self.table = load(table) if isinstance(table, str) else table
        self._file = table_path(table) if isinstance(table, str) else None     # read again when it changes
        self._stamp = self._stamp_now()
        self._file_said: tuple[str, ...] = ()       # why a changed file could not be read again
        self.mend = mend                    # a hand read one tile off a win mended (service.mending)
        # as TableReader makes its own: one locator pass (see vision/read.py)
        self.detector = detector or Detector()
        # one per house rule (the record names it) and what its set holds (a rule edited may change it)
        self._readers: dict[tuple, TableReader] = {}
        # one frame at a time: a TableReader keeps its last frame (tracker, rectified table for the cuts)
        self._lock = threading.Lock()

    def use_tileset(self, tileset) -> None:
        """Name tiles with the table's tile set from the next frame on (None: the classifier alone)."""
        self.detector.use_tileset(tileset)

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        with self._lock:
            self._table_as_stored()
            reading = self._read(frame, context)
        return replace(reading, warnings=reading.warnings + self._file_said) if self._file_said else reading

    def current_table(self) -> TableFile:
        """The table as its file says now, read again where it changed (the watcher's look follows it);
        a stat a frame, the lock only to read it again."""
        if self._stamp_now() != self._stamp:
            with self._lock:
                self._table_as_stored()
        return self.table

    def _stamp_now(self) -> tuple[int, int] | None:
        try:
            st = self._file.stat() if self._file is not None else None
        except OSError:
            return None
        return None if st is None else (st.st_mtime_ns, st.st_size)

    def _table_as_stored(self) -> None:
        """The table file read again where it changed since it was read; one that cannot be read now
        (written half, or broken) leaves the table as it was, and each reading says so until it can."""
        stamp = self._stamp_now()
        if self._file is None or stamp == self._stamp or stamp is None:
            return
        try:
            table = load(self.table.name)
        except CalibrationError as e:
            self._file_said = (f"the table file changed but cannot be read ({e}): read with the one read before",)
            return
        self.table, self._stamp, self._file_said = table, stamp, ()
        self._readers.clear()           # each holds the table and its tracker

    def table_windows(self, frame: np.ndarray) -> list[np.ndarray]:
        """The camera's frame rectified top-down as the reader reads it, in region-sized squares, the
        table's centre first (the teach page's rows are cut from them, so a table's set learns its
        tiles as the reader will cut them). CalibrationError without markers or a stored fit."""
        with self._lock:
            self._table_as_stored()
        fit = Tracker(self.table.layout, self.table.lens, last_good=self.table.fit).update(frame)
        return table_windows(top_view(self.table, frame, fit))

    def _read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        key = (context.rules, getattr(context.preset, "digest", None))
        reader = self._readers.get(key)
        if reader is None:
            wall, gari = set_of(context.rules, context.preset)
            reader = self._readers[key] = TableReader(self.table, context.rules, detector=self.detector,
                                                      gari_kinds=gari or DEFAULT_GARI, wall=wall)
        try:
            reading = reader.read(frame)
        except CalibrationError as e:
            return Reading(self.name, None, (), (str(e),))
        zones = [self._zone_of(p) for p in reading.pieces]          # (kind, seat) of each piece
        detections = tuple(Detection(p.tile, *reader.frame_box(p.box), score=p.score, zone=kind,
                                     rotation=reader.frame_rotation(p) or 0)
                           for p, (kind, _) in zip(reading.pieces, zones))
        # the zones' seats are the first deal's; the record's are this deal's (east: the dealer)
        record, said = mended(context.seats_now(reading.record) if reading.record else None, reading.hand,
                              context.preset, reading.gari, self.mend)
        record, left_out = vouched(record, context.preset)      # discards misread: no count blocked for them
        said += left_out
        if record is not None:
            record = {**record, "honba": context.honba}
        cuts = tuple(Cut(p.tile, image, kind, context.seat_now(seat), box=i) for i, (p, image, (kind, seat)) in
                     enumerate(zip(reading.pieces, reader.upright_cuts(reading.pieces), zones)) if image is not None)
        # the calibration this frame was read with: a confirmed count's labels carry it (service.photo_labels)
        table = reader.table.with_fit(reader.tracker.last_good).to_dict()
        return Reading(self.name, record, detections, tuple(reading.warnings) + said, cuts=cuts, table=table)

    def _zone_of(self, piece) -> tuple[str, str | None]:
        """The kind and seat of the table zone a piece lies in (its centre), or empty and None."""
        return next(((z.kind, z.seat) for z in self.table.zones if z.contains(piece.centre)), ("", None))


def from_env() -> VisionReader:
    table = os.environ.get(ENV_TABLE)
    if not table:
        raise CalibrationError(f"set {ENV_TABLE} to the calibrated table's name (python -m calibration fit)")
    return VisionReader(table)
