"""Where a reading waits for the tablets: the newest offer of the watcher, the readings of recent
counts by snapshot (the overlay is drawn from them on every edit), and the tablets listening for
news (server-sent events).

The watcher's thread publishes; each tablet's event stream is an asyncio queue on the server's
loop, fed with ``call_soon_threadsafe``. An offer is news for a session until that session logs a
hand after it (its Confirm, a draw, a chombo) or ``KEEP_S`` pass.

"After" is told by the ledger's clock (``clock``), the one its hands are stamped by: on PostgreSQL
the server's, not this machine's, whose own clock may be off (no battery, no NTP). A hand that
names the offer's snapshot was confirmed from it, whatever the clocks say.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Mapping, Sequence

from ..reader import Reading
from ..recent import Recent
from .rule import another_hand, same_hand

KEEP_S = 30 * 60            # an offer nobody confirmed is not shown to a newly opened page after this
REMEMBER = 32               # readings kept by snapshot name (the overlay on the tablet)
log = logging.getLogger(__name__)


def _here() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class Offer:
    """A win the watcher read: its number, when, the snapshot (and its size), the voted reading."""

    id: int
    at: datetime
    snapshot: str
    size: tuple[int, int]
    reading: Reading
    frames: int = 1
    turn: int = 0               # the deal's turn its seats were read at (ReadContext.turn)

    def event(self) -> dict[str, Any]:
        rec = self.reading.record or {}
        return {"id": self.id, "snapshot": self.snapshot, "seat": rec.get("seat"), "frames": self.frames,
                "warnings": len(self.reading.warnings), "at": self.at.isoformat()}


class Offers:
    def __init__(self, keep_s: float = KEEP_S, clock: Callable[[], datetime] = _here):
        self.keep_s = keep_s
        self.clock = clock                     # the ledger's (the service sets it once its ledger is open)
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.latest: Offer | None = None
        self.session: str | None = None        # the session a tablet looked at last (the watcher's context)
        self._readings: Recent[str, tuple[Reading, tuple[int, int]]] = Recent(REMEMBER)
        self._offered: Recent[str, int] = Recent(REMEMBER)      # snapshot -> the id of its newest offer
        self._records: Recent[int, Mapping[str, Any] | None] = Recent(REMEMBER)   # offer id -> its record
        self._logged: tuple[str | None, tuple[Mapping[str, Any], ...]] = (None, ())   # the last win logged
        self._listeners: set[tuple[asyncio.AbstractEventLoop, asyncio.Queue]] = set()
        self.hands_logged = 0                  # wins logged at this table (``logged``): the watcher reads it

    def logged(self, snapshot: str | None = None, records: Sequence[Mapping[str, Any]] = ()) -> None:
        """A win was logged at this table (the players confirmed a count, the watcher's or a tap's),
        naming ``snapshot`` and holding ``records``: the watcher takes the hand lying on the table as
        counted (``Trigger.counted``), unless it is the next deal's win offered since (``offered_since``)."""
        with self._lock:
            self._logged = (snapshot, tuple(records))
            self.hands_logged += 1

    def relogged(self, was: str | None, snapshot: str | None = None,
                 records: Sequence[Mapping[str, Any]] = ()) -> None:
        """The win logged from ``was`` (None: typed, no picture) undone (no ``records``) or corrected
        into ``records`` from ``snapshot``: where it is the last win logged here, the watcher knows it
        so. Undone, the hand laid again is no hand logged (it was refused as "logged already")."""
        with self._lock:
            if self._logged[0] == was:
                self._logged = (snapshot, tuple(records)) if records else (None, ())

    def known(self, snapshot: str | None, records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any] | None]:
        """A logged win as its hand is known: its ``records`` as confirmed, then the record read from
        its picture ``snapshot`` (None where no picture or its reading is forgotten). A hand misread,
        fixed a lot and confirmed, is read again the way it was read, not the way it was logged."""
        kept = self.reading(snapshot) if snapshot else None
        return [*records, kept[0].record if kept is not None else None]

    def logged_hand(self, record: Mapping[str, Any] | None) -> bool:
        """Whether ``record`` holds the win logged last at this table (``known``): the hand still lying
        there, read again once an arm left the row, is no new win."""
        with self._lock:
            snapshot, records = self._logged
        return any(same_hand(k, record) for k in self.known(snapshot, records))

    def offered_since(self) -> Offer | None:
        """The newest offer, when it came after the offer the last win was logged from and holds
        another hand than that win: the next deal's win, read while the players had yet to confirm
        the last. It is not news to a page opened after the Confirm, so the watcher offers it anew.
        Only the next deal's: every offer between the one logged from and it holds one of those two
        hands (one read twice); with two deals waiting, the newest is not the next deal's (a tap on
        Count reads it). A hand read twice (one tile otherwise) is the hand logged, never offered
        again: it is told by its tiles against both the win as confirmed and the reading it was
        confirmed from (a hand misread, then fixed a lot)."""
        with self._lock:
            latest, (snapshot, records) = self.latest, self._logged
        logged_from = self._offered.get(snapshot) if snapshot else None
        if latest is None or logged_from is None or latest.id <= logged_from or latest.snapshot == snapshot:
            return None
        known = self.known(snapshot, records)
        if not records or known[-1] is None or not all(another_hand(latest.reading.record, r) for r in known):
            return None
        between = [self._records.get(i) for i in range(logged_from + 1, latest.id)]
        if any(r is None or (another_hand(r, latest.reading.record)
                             and all(another_hand(r, k) for k in known)) for r in between):
            return None             # another deal's hand offered between (or one forgotten): not the next
        return latest

    # -- readings by snapshot ------------------------------------------------------------------------
    def remember(self, snapshot: str, reading: Reading, size: tuple[int, int]) -> None:
        self._readings.put(snapshot, (reading, size))

    def reading(self, snapshot: str) -> tuple[Reading, tuple[int, int]] | None:
        return self._readings.get(snapshot)

    # -- offers ------------------------------------------------------------------------------------------
    def offer(self, snapshot: str, reading: Reading, size: tuple[int, int], frames: int = 1,
              turn: int = 0) -> Offer:
        """A new offer, told to every listening tablet (from any thread); ``turn``: the deal's turn
        its seats were read at, so a page drafting it later turns them to its own deal."""
        offer = Offer(next(self._ids), self._now(), snapshot, size, reading, frames, turn)
        self.remember(snapshot, reading, size)
        self._offered.put(snapshot, offer.id)
        self._records.put(offer.id, reading.record)
        with self._lock:
            self.latest = offer
        self.tell("offer", offer.event(), offer.id)
        return offer

    def get(self, offer_id: int) -> Offer | None:
        latest = self.latest
        return latest if latest is not None and latest.id == offer_id else None

    def pending(self, last_hand_at: datetime | None, last_snapshot: str | None = None,
                now: datetime | None = None) -> Offer | None:
        """The newest offer if it is news for a session whose last hand was logged at ``last_hand_at``
        (by the ledger's clock; a session with no hand yet: when it started) naming ``last_snapshot``."""
        offer = self.latest
        if offer is None or ((now or self._now()) - offer.at) > timedelta(seconds=self.keep_s):
            return None
        if last_snapshot is not None and last_snapshot == offer.snapshot:
            return None
        if last_hand_at is not None and _utc(last_hand_at) >= offer.at:
            return None
        return offer

    def _now(self) -> datetime:
        try:
            return self.clock()
        except Exception as e:      # the parlour's database away this instant: this machine's clock
            log.warning("the ledger's clock could not be read (%s): this machine's is used", e)
            return _here()

    # -- listeners (server-sent events) --------------------------------------------------------------------
    def listen(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Queue]:
        """A queue of (event, data, id) on the running loop; ``unlisten`` it when the stream ends."""
        entry = (asyncio.get_running_loop(), asyncio.Queue(maxsize=64))
        with self._lock:
            self._listeners.add(entry)
        return entry

    def unlisten(self, entry) -> None:
        with self._lock:
            self._listeners.discard(entry)

    @property
    def listeners(self) -> int:
        return len(self._listeners)

    def tell(self, event: str, data: dict[str, Any], event_id: int | None = None) -> None:
        message = (event, json.dumps(data, ensure_ascii=False), event_id)
        with self._lock:
            listeners = list(self._listeners)
        for loop, queue in listeners:
            try:
                loop.call_soon_threadsafe(_put, queue, message)
            except RuntimeError:         # that stream's loop is gone
                self.unlisten((loop, queue))


def _put(queue: asyncio.Queue, message) -> None:
    if queue.full():                     # a tablet that stopped reading: drop its oldest news
        queue.get_nowait()
    queue.put_nowait(message)


def _utc(at: datetime) -> datetime:
    return at if at.tzinfo is not None else at.replace(tzinfo=timezone.utc)
