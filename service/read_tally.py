"""How the reader reads this table: each confirmed count set against the reading it was confirmed from.

A parlour's staff teach a table its tiles once (the teach page) and the table learns from every
count; what tells them whether it reads their tiles is how often the players confirm a count as it
was read. On each Confirm that names a read snapshot, the reading's hand record, as the tablet was
shown it, is set against the record confirmed (``outcome``): the fields the players changed
(``vision.layout.record_diff``; discards aside, which the tablet does not confirm) and the tiles,
those read that were not there and those there that were not read. The last ``KEEP`` outcomes are
kept in a small JSON file in the data folder (written whole; a file that cannot be read is logged
and started afresh). ``summary`` gives, for the table camera and for photos taken at the seat apart,
how many were confirmed as read and the tiles the players fixed most (the kinds truly there). The
table's heartbeat carries it to the counter, which asks for the tiles to be taught again when the
camera's share falls below ``LOW_SHARE`` over at least ``LOW_AFTER`` counts.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from vision.layout import record_diff

from .files import write_whole
from .learning import face_up_tiles
from .reader import Reading

log = logging.getLogger(__name__)
KEEP = 100                  # the outcomes kept: a few evenings of one table
CAMERA, SEAT = "camera", "seat photo"
LOW_SHARE = 0.8             # the counter asks for the tiles to be taught again below this share ...
LOW_AFTER = 10              # ... of at least this many of the camera's counts
FIXED_MOST = 5              # the tiles named in the summary


def fields_fixed(confirmed: Mapping[str, Any], read: Mapping[str, Any]) -> list[str]:
    """The fields of the hand record ``read`` the players changed to confirm it (``vision.layout.record_diff``,
    tile order aside); discards are left out: the tablet does not confirm them."""
    return [k for k in record_diff(dict(confirmed), dict(read)) if k != "discards"]


def outcome(read: Mapping[str, Any] | None, confirmed: Sequence[Mapping[str, Any]], from_seat: bool = False
            ) -> dict[str, Any] | None:
    """How a count was confirmed against the record ``read`` (None: nothing was read, no outcome): the
    last confirmed record (a double ron's second is the hand read last) field by field, and its
    face-up tiles (``service.learning.face_up_tiles``: an ankan's included) as kinds."""
    if read is None or not confirmed:
        return None
    truth = confirmed[-1]
    fields = fields_fixed(truth, read)
    got, there = Counter(_tiles(read)), Counter(_tiles(truth))
    return {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "source": SEAT if from_seat else CAMERA,
            "as_read": not fields, "fields": fields,
            "misread": sorted((got - there).elements()), "missed": sorted((there - got).elements())}


def summary(outcomes: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per source (``CAMERA``, ``SEAT``) that has any: ``counts``, ``as_read`` (confirmed as read)
    and ``fixed_most`` ([kind, times], the tiles truly there that the reading lacked, most first)."""
    out = {}
    for source in (CAMERA, SEAT):
        mine = [o for o in outcomes if o.get("source") == source]
        if mine:
            fixed = Counter(t for o in mine for t in o.get("missed", ()))
            out[source] = {"counts": len(mine), "as_read": sum(bool(o.get("as_read")) for o in mine),
                           "fixed_most": [[t, n] for t, n in fixed.most_common(FIXED_MOST)]}
    return out


def reads_poorly(reads: Mapping[str, Any] | None) -> str:
    """The counter's warning for a table whose camera's counts are confirmed as read too seldom
    (``LOW_SHARE`` of ``LOW_AFTER`` or more), or empty."""
    camera = (reads or {}).get(CAMERA) or {}
    n, k = int(camera.get("counts") or 0), int(camera.get("as_read") or 0)
    if n < LOW_AFTER or k >= LOW_SHARE * n:
        return ""
    fixed = ", ".join(f"{t} x{c}" for t, c in camera.get("fixed_most") or [])
    return (f"the camera read {k} of its last {n} counts as confirmed" + (f" (fixed most: {fixed})" if fixed else "")
            + ": teach the table its tiles again (the teach page)")


class ReadTally:
    """The outcomes of this table's confirmed counts (``path``: where they are kept; None: in memory
    only), from the readings the tablet was shown (``reading_of``: a snapshot's reading and size)."""

    def __init__(self, path: Path | None, reading_of: Callable[[str], tuple[Reading, tuple[int, int]] | None],
                 keep: int = KEEP):
        self.path, self.reading_of, self.keep = path, reading_of, keep
        self._lock = threading.Lock()
        self._outcomes: list[dict[str, Any]] = self._load()

    def add(self, snapshot: str | None, records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        """The outcome of ``snapshot``'s count confirmed as ``records``, kept (in place of the snapshot's
        earlier one: a correction; the oldest past ``keep`` dropped); None where the count was not read
        by the reader (typed, or its reading forgotten).
        Never raises: the hand is logged whatever happens here."""
        try:
            found = self.reading_of(snapshot) if snapshot else None
            if found is None:
                return None
            reading, _ = found
            done = outcome(reading.record, records, reading.from_seat)
            if done is None:
                return None
            done["snapshot"] = snapshot
            with self._lock:            # a correction of a count replaces its outcome
                kept = [o for o in self._outcomes if o.get("snapshot") != snapshot]
                self._outcomes = (kept + [done])[-self.keep:]
                self._save(self._outcomes)
            return done
        except Exception:
            log.exception("the count of %s could not be tallied", snapshot)
            return None

    def summary(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            return summary(self._outcomes)

    def _load(self) -> list[dict[str, Any]]:
        if self.path is None or not self.path.exists():
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(data, list) or not all(isinstance(o, dict) for o in data):
                raise ValueError("not a list of outcomes")
            return data[-self.keep:]
        except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:   # JSONDecodeError is a ValueError
            log.warning("the reads tally %s could not be read (%s): started afresh", self.path, e)
            return []

    def _save(self, outcomes: list[dict[str, Any]]) -> None:
        if self.path is not None:
            write_whole(self.path, json.dumps(outcomes, ensure_ascii=False))


def _tiles(record: Mapping[str, Any]) -> list[str]:
    shown, maybe = face_up_tiles([record])
    return shown + maybe
