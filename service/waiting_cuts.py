"""The cuts of counts waiting for their Confirm, on disk, so that a count read before a restart of
the service still teaches the table's tile set when it is confirmed after it (``service.table_tiles``).

- One file a count, ``<snapshot stem>.npz`` in the folder (``<table>.tileset/waiting/``): each cut's
  image (``cut0``, ``cut1``, ...) and its ``tiles``, ``zones`` and ``seats`` (unicode arrays; a
  seat not known is empty, and a file written before seats were kept reads as none known) and
  ``boxes`` (each cut's box in its reading, -1 where not known; none in a file written before
  boxes were kept), no pickle either way. It is written to a temporary file in the folder, then
  renamed over the name: a crash never leaves half a file under a count's name.
- Only a snapshot store's name (``<20 hex>.jpg``) names a file; a count under another name is not
  kept here.
- At most ``keep`` files: writing one more removes the oldest (by modification time).
- ``pop`` removes the file it read; a file that cannot be read (broken, not a count's cuts) is
  logged and removed. A write or a removal that fails is logged, never raised: a count and a
  Confirm never fail for this folder.
"""

from __future__ import annotations

import logging
import os
import tempfile
import threading
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from .reader import Cut
from .snapshots import NAME

log = logging.getLogger(__name__)
SUFFIX = ".npz"
PARTIAL = ".partial"        # a file being written
STALE_S = 60                # a partial file this old was left by a crash: removed


class WaitingCuts:
    """Counts' cuts by snapshot name in ``folder``, the newest ``keep`` (thread-safe)."""

    def __init__(self, folder: Path, keep: int):
        self.folder = Path(folder)
        self.keep = keep
        self._lock = threading.Lock()       # one write, read or removal at a time

    def path(self, snapshot: str) -> Path | None:
        """The file of ``snapshot``'s cuts; None for a name no snapshot has (it names no path)."""
        return self.folder / (snapshot[:-len(".jpg")] + SUFFIX) if NAME.fullmatch(snapshot) else None

    def put(self, snapshot: str, cuts: Sequence[Cut]) -> None:
        """``snapshot``'s cuts written, the oldest file over ``keep`` removed."""
        path = self.path(snapshot)
        if path is None or not cuts:
            return
        arrays = {f"cut{i}": np.asarray(c.image) for i, c in enumerate(cuts)}
        arrays["tiles"] = np.array([c.tile for c in cuts], dtype=str)
        arrays["zones"] = np.array([c.zone for c in cuts], dtype=str)
        arrays["seats"] = np.array([c.seat or "" for c in cuts], dtype=str)
        arrays["boxes"] = np.array([-1 if c.box is None else c.box for c in cuts], dtype=np.int64)
        try:
            with self._lock:
                self.folder.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(suffix=PARTIAL, dir=self.folder)
                try:
                    with os.fdopen(fd, "wb") as f:
                        np.savez_compressed(f, allow_pickle=False, **arrays)
                    # the oldest is found by modification time: stamped from the fine clock, as the
                    # file system's may be too coarse to order counts a few ms apart (a rename keeps it)
                    now = time.time_ns()
                    os.utime(tmp, ns=(now, now))
                    os.replace(tmp, path)
                except BaseException:
                    Path(tmp).unlink(missing_ok=True)
                    raise
                self._bound()
        except (OSError, ValueError) as e:  # the count stands: its cuts wait in memory only
            log.warning("the cuts of %s are not kept on disk: %s", snapshot, e)

    def pop(self, snapshot: str) -> tuple[Cut, ...] | None:
        """``snapshot``'s cuts, their file removed; None when there is none or it cannot be read."""
        path = self.path(snapshot)
        if path is None:
            return None
        with self._lock:
            try:
                cuts = _read(path)
            except FileNotFoundError:
                return None
            except Exception as e:          # broken in any way (cut short, not a zip, not cuts)
                log.warning("the waiting cuts %s cannot be read, removed: %s", path, e)
                cuts = None
            _remove(path)
            return cuts

    def move(self, snapshot: str, to: "WaitingCuts") -> bool:
        """``snapshot``'s file moved, as it is, into ``to`` (bounded there); False where there was
        none to move or it could not be moved (logged)."""
        src, dst = self.path(snapshot), to.path(snapshot)
        if src is None or dst is None:
            return False
        try:
            with self._lock, to._lock:
                to.folder.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
                to._bound()
        except FileNotFoundError:
            return False
        except OSError as e:
            log.warning("the cuts %s could not be moved to %s: %s", src, to.folder, e)
            return False
        return True

    def remove(self, snapshot: str) -> None:
        """``snapshot``'s file removed (its cuts were taken from memory)."""
        path = self.path(snapshot)
        if path is not None:
            with self._lock:
                _remove(path)

    def _bound(self) -> None:
        files = sorted(self.folder.glob("*" + SUFFIX), key=lambda p: (p.stat().st_mtime_ns, p.name))
        for p in files[:max(len(files) - self.keep, 0)]:
            p.unlink(missing_ok=True)
        stale = time.time() - STALE_S
        for p in self.folder.glob("*" + PARTIAL):
            if p.stat().st_mtime < stale:
                p.unlink(missing_ok=True)


def _read(path: Path) -> tuple[Cut, ...]:
    with np.load(path, allow_pickle=False) as z:
        tiles, zones = z["tiles"], z["zones"]
        if tiles.dtype.kind != "U" or zones.dtype.kind != "U" or tiles.ndim != 1 or zones.shape != tiles.shape:
            raise ValueError("no tiles and zones in it")
        seats = z["seats"] if "seats" in z.files else np.full(tiles.shape, "")
        if seats.dtype.kind != "U" or seats.shape != tiles.shape:
            raise ValueError("its seats do not go with its tiles")
        boxes = z["boxes"] if "boxes" in z.files else np.full(tiles.shape, -1)
        if boxes.dtype.kind != "i" or boxes.shape != tiles.shape:
            raise ValueError("its boxes do not go with its tiles")
        cuts = tuple(Cut(str(t), z[f"cut{i}"], str(zone), str(seat) or None, None if box < 0 else int(box))
                     for i, (t, zone, seat, box) in enumerate(zip(tiles, zones, seats, boxes)))
    if not cuts or any(c.image.dtype != np.uint8 or c.image.ndim != 3 for c in cuts):
        raise ValueError("its cuts are not images")
    return cuts


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as e:
        log.warning("the waiting cuts %s could not be removed: %s", path, e)
