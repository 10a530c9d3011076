"""The table watcher: a win laid down on the table is read over several still frames and offered to
every tablet by itself (docs/service.md, "The watcher").

    look.py     the cheap look at a frame: motion on the felt, face-up tiles per hand zone
    rule.py     the trigger rule: when to read, when a reading is a win, when to re-arm
    vote.py     several readings voted into one (vision.layout.vote), agreement per tile
    watcher.py  the thread on the capture thread's frames: look, rule, read, vote, offer
    offers.py   the newest offer, readings by snapshot, the tablets listening (server-sent events)
"""

from __future__ import annotations

from calibration.store import TableFile

from ..ledger import Ledger, UnknownSession
from ..reader import ReadContext, Reader
from .offers import Offer, Offers
from .watcher import Watcher

NEEDS_VISION = ("自動カウントは校正済みの卓で動きます · the watcher needs the vision reader "
                "(TABLE_CALIBRATION, or the demo camera)")

__all__ = ["Offer", "Offers", "Watcher", "watcher_for", "NEEDS_VISION"]


def watcher_for(settings, reader: Reader, camera, store, offers: Offers, ledger: Ledger, tiles=None
                ) -> Watcher | None:
    """The table's watcher (its thread started when there is a camera), or None when the reader
    reads no calibrated table (the watcher looks at the table's zones through its calibration)."""
    table = getattr(reader, "table", None)
    if not isinstance(table, TableFile):
        return None
    watcher = Watcher(reader, table, store, offers, lambda: current_context(ledger, offers), tiles=tiles,
                      limits=settings.watch_limits, fps=settings.watch_fps, camera=camera, enabled=settings.watch,
                      slideshow=settings.demo_camera,
                      logged=lambda snapshot: ledger.hand_of_snapshot(snapshot) is not None)
    if camera is not None:
        watcher.start()
    return watcher


def current_context(ledger: Ledger, offers: Offers) -> ReadContext:
    """The reader's context for the watcher: the session a tablet looked at last, else the newest."""
    from ..table import context_of
    sid = offers.session
    try:
        if sid:
            return context_of(ledger, sid)
    except UnknownSession:
        pass
    sessions = ledger.sessions()
    return context_of(ledger, sessions[-1].id if sessions else None)
