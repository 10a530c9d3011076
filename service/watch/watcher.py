"""The table's watcher: a thread on the capture thread's frames that offers a win to the tablets
by itself once the winner's hand lies still.

Each step takes the camera's newest frame (never a second camera handle), looks at it cheaply
(``look.Looker``: a millisecond), lets the trigger rule decide (``rule.Trigger``), reads the
frames the rule asks for with the table's reader (the detector: a few hundred ms), votes
(``vote.voted``), and for a win saves the voted frame as the snapshot, keeps its cuts for the
tile set, and publishes the offer (``offers.Offers``): every tablet listening is told at once.

``step(frame, number, t)`` is the whole of it, synchronous: the thread calls it at ``fps`` with
the monotonic clock; tests and the bench call it with recorded or rendered frames and their times.
"""

from __future__ import annotations

import logging
import re
import shutil
import threading
import time
from pathlib import Path
from typing import Callable

import numpy as np

from calibration.errors import CalibrationError
from calibration.store import TableFile

from ..camera import Camera, CameraError
from ..errors import storage_full
from ..reader import Reader, ReadContext, Reading
from ..snapshots import SnapshotStore
from .look import Looker
from .offers import Offer, Offers
from .rule import HELD, OFF, OFFERED, SEAT, Thresholds, Trigger
from .vote import voted

log = logging.getLogger(__name__)
DISK_FULL = ("ディスクがいっぱい · the table's disk is full: the win was read but cannot be offered "
             "until space is freed (Count still reads it)")
CAMERA_LOST = "カメラが見えません · camera lost, not watching:"      # then why (Camera.lost)
LOST = "lost"           # the state the tablets are told while the camera gives no frame
ROOM = 512 * 1024       # free bytes that make room for snapshots again (a frame's JPEG: 100-200 KB)
SEAT_CHECK_S = 1.0      # how stale the seat a status names may be (a draw moves the dealer unseen)
_DIGITS = re.compile(r"\d+")  # a status that differs only in its numbers is no news


class Watcher:
    def __init__(self, reader: Reader, table: TableFile, store: SnapshotStore, offers: Offers,
                 context: Callable[[], ReadContext] = lambda: ReadContext(""), *, tiles=None,
                 limits: Thresholds | None = None, fps: float = 8.0, camera: Camera | None = None,
                 enabled: bool = True, slideshow: bool = False, logged: Callable[[str], bool] | None = None):
        self.reader, self.store, self.offers, self.context, self.tiles = reader, store, offers, context, tiles
        # whether a snapshot is a hand logged already (the ledger's word): the demo's slideshow come
        # round again, or a service restarted, shows the very picture of a logged hand
        self.logged = logged
        self.looker = Looker(table)
        self.trigger = Trigger(limits or Thresholds())
        self.fps, self.camera = fps, camera
        self.slideshow = slideshow          # the camera's images are different tables (the demo's stills)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._looked: int | None = None                        # the last frame number looked at
        self._logged = offers.hands_logged                     # wins logged at the table, as last seen
        self._scene: int | None = None
        self._said: tuple[str, str] | None = None
        self._seat_said: tuple[tuple, float, str] | None = None   # (zone, wins logged, session), when, seat now
        self._full = False                                     # the disk was full at the last offer: said once
        self._lost = ""                                        # why the camera gives no frame now ('' it does)
        self.reads = 0                                         # detector runs (the bench counts them)
        if not enabled:
            self.trigger.switch(False)

    # -- one frame --------------------------------------------------------------------------------------
    def step(self, frame: np.ndarray, number: int, t: float, scene: int | None = None) -> Offer | None:
        """Look at frame ``number`` seen at ``t`` (seconds); the offer when this frame completes a win.
        ``scene``: a slideshow's image number (the demo camera's stills: a new one is another table,
        and the rule re-arms as if this one had been cleared)."""
        with self._lock:
            try:
                return self._step(frame, number, t, scene)
            finally:
                self._tell_status()

    def idle(self) -> Offer | None:
        """A tick with no frame to look at (the camera out): a win logged meanwhile is heard all the
        same, so the next deal's win, read before it, is offered anew (``_heard``) without waiting for
        the camera to come back."""
        with self._lock:
            try:
                return self._heard()
            finally:
                self._tell_status()

    def _heard(self) -> Offer | None:
        """A win logged since the last look: the hand lying there is counted, and the next deal's win
        read before the Confirm is offered again at this deal's seats (``_offer_again``)."""
        if self.offers.hands_logged == self._logged:
            return None
        self._logged = self.offers.hands_logged
        self.trigger.counted()
        return self._offer_again(self.offers.offered_since())

    def _step(self, frame, number, t, scene) -> Offer | None:
        if self._full and _room(self.store.folder):   # freed while the table was cleared: no offer tells it
            self._full = False
        self._heard()
        if number == self._looked:          # the camera gave no newer frame (a stall): nothing new seen, so
            return None                     # it neither reads as still nor counts again in the vote
        self._looked = number
        if scene is not None and scene != self._scene:
            if self._scene is not None and self.trigger.state in (OFFERED, HELD):
                self.trigger.rearm("見ています · watching the table (a new table)")
            self._scene = scene
        table = self.reader.current_table() if hasattr(self.reader, "current_table") else self.looker.table
        if table is not self.looker.table:    # the table file changed (a refit, a lens, zones): look with it
            self.looker = Looker(table)
        try:
            look = self.looker.look(frame, t)
        except CalibrationError as e:
            self.trigger.message = f"テーブルが見えません · {e}"
            return None
        if self.trigger.see(look):
            context = self.context()
            reading = self._read(frame, context)
            self.trigger.add(reading.record, (frame, reading, context.turn))
        if not self.trigger.ready(t):
            return None
        payloads = [p for _, p in self.trigger.readings]
        i, reading = voted([r for _, r, _ in payloads])
        if not self.trigger.decide(reading.record, t):
            return None
        if self.offers.logged_hand(reading.record):
            self.trigger.message = f"{SEAT}: 記録済み · this hand is logged already"
            return None
        try:
            snap = self.store.save(payloads[i][0])
        except OSError as e:
            if not storage_full(e):
                raise
            self.trigger.undecide(DISK_FULL)      # watched again: offered once there is room
            if not self._full:
                log.error("a win was read but not offered: %s", e)
            self._full = True
            return None
        self._full = False
        if self._logged_already(snap.name):
            self.trigger.message = f"{SEAT}: 記録済み · this picture is a hand logged already"
            return None
        if self.tiles is not None:
            self.tiles.remember(snap.name, reading.cuts)
        offer = self.offers.offer(snap.name, reading, (snap.width, snap.height), frames=len(payloads),
                                  turn=payloads[i][2])
        log.info("offered a win read over %d frames: %s", len(payloads), snap.name)
        return offer

    def _logged_already(self, snapshot: str) -> bool:
        try:
            return self.logged is not None and self.logged(snapshot)
        except Exception as e:          # the database away a moment: offered, the page checks again
            log.warning("whether %s is logged could not be read: %s", snapshot, e)
            return False

    def _offer_again(self, offer: Offer | None) -> Offer | None:
        """The next deal's win, offered before the last deal's was logged, offered anew: news to the
        tablets (the page the players open after their Confirm drafts it), its vote as it was (the
        tiles the frames read otherwise still marked unsure), its seats and cuts turned to the deal
        now."""
        if offer is None:
            return None
        context = self.context()
        reading = context.turned(offer.reading, offer.turn)
        if self.tiles is not None:
            self.tiles.remember(offer.snapshot, reading.cuts)
        log.info("the next deal's win, offered before the last was logged, offered again: %s", offer.snapshot)
        return self.offers.offer(offer.snapshot, reading, offer.size, frames=offer.frames, turn=context.turn)

    def _read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        reading = self.reader.read(frame, context)
        self.reads += 1
        return reading

    # -- on and off ---------------------------------------------------------------------------------------
    @property
    def enabled(self) -> bool:
        return self.trigger.state != OFF

    def switch(self, on: bool) -> None:
        with self._lock:
            self.trigger.switch(on)
            self.looker.reset()
            self._tell_status()

    def status(self) -> dict:
        return {"enabled": self.enabled, "state": LOST if self._lost and self.enabled else self.trigger.state,
                "seat": self._seat_now(), "message": self._message(), "camera": self.camera is not None}

    def _seat_now(self) -> str | None:
        """The seat, in this deal, of the player whose hand zone the rule watches. The trigger knows
        the zone (named by the first deal's winds); after the dealer moves on, its player sits
        elsewhere (a win logged, a draw, a hand taken back). Asked of the ledger when the zone, the
        session or the wins logged change, else at most once every ``SEAT_CHECK_S``."""
        seat = self.trigger.seat
        if seat is None:
            return None
        key, now = (seat, self.offers.hands_logged, self.offers.session), time.monotonic()
        if self._seat_said is None or self._seat_said[0] != key or now - self._seat_said[1] >= SEAT_CHECK_S:
            try:
                named = self.context().seat_now(seat) or seat
            except Exception as e:      # the database away a moment: the status says what it said, not fails
                log.warning("the deal's seats could not be read for the status: %s", e)
                named = self._seat_said[2] if self._seat_said is not None and self._seat_said[0][0] == seat else seat
            self._seat_said = (key, now, named)
        return self._seat_said[2]

    def _message(self) -> str:
        """What the tablets read: the rule's, but the camera lost while it gives no frame (the players
        would wait for a count that cannot come), and the full disk while a win cannot be offered for it
        (until a save succeeds, or a step finds the snapshots' disk with ``ROOM`` again)."""
        if self._lost and self.enabled:
            return f"{CAMERA_LOST} {self._lost}"
        if self._full:
            return DISK_FULL
        message = self.trigger.message
        return message.replace(SEAT, self._seat_now() or "") if SEAT in message else message

    def _see_camera(self, lost: str) -> None:
        """The camera lost (why), or giving frames (''): the tablets are told when that changes, not
        when the why only counts on ("no new frame for 6 s", 7 s...: news to every tablet each second)."""
        if lost != self._lost:
            with self._lock:
                news = _DIGITS.sub("#", lost) != _DIGITS.sub("#", self._lost)
                self._lost = lost
                if news:
                    self._tell_status()

    def _tell_status(self) -> None:
        status = self.status()
        now = (status["state"], status["message"])
        if now != self._said:
            self._said = now
            self.offers.tell("status", status)

    # -- the thread -------------------------------------------------------------------------------------------
    def start(self) -> "Watcher":
        if self.camera is None:
            raise RuntimeError("a watcher thread needs a camera")
        self._thread = threading.Thread(target=self._run, name="table watcher", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        period = 1.0 / self.fps
        next_at = time.monotonic()
        while not self._stop.is_set():
            next_at = max(next_at + period, time.monotonic())
            if self._stop.wait(max(0.0, next_at - time.monotonic())):
                break
            if not self.enabled:
                continue
            try:
                number, frame = self.camera.latest(timeout=1.0)
            except CameraError as e:
                self._see_camera(str(e))
                try:
                    self.idle()
                except Exception:
                    log.exception("the watcher failed to offer again with the camera out")
                continue
            self._see_camera("")
            try:
                self.step(frame, number, time.monotonic(), self.camera.scene if self.slideshow else None)
            except Exception:            # never let one bad frame end the watching
                log.exception("the watcher failed on a frame")


def _room(folder: Path) -> bool:
    """Whether the disk of ``folder`` (or of the nearest folder above it that exists) has ``ROOM``."""
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free >= ROOM
    except OSError:
        return False
