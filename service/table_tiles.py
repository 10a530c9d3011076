"""The table's own tile set as the service keeps it (``vision.tileset``): where it lives, what it
learns from each confirmed count, what the teach page enrols, and the reader switched to it.

- Where: beside the table's calibration (``<CALIBRATION_DIR>/<table>.tileset/``) on a
  calibrated table; on the demo camera, ``<TABLE_DATA_DIR>/demo.tileset``; else nowhere
  (``tileset_folder``).
- Count keeps the reading's cuts, by snapshot name, until Confirm (``remember``): in memory, and
  on disk in the set's ``waiting/`` folder (``service.waiting_cuts``), so a count read before a
  restart is still learnt from when it is confirmed after it; the last ``KEEP`` counts are kept.
- Confirm labels them by the confirmed hand (``service.learning``) and the set
  learns them (``TileSet.learn``: refused, and logged in the set, when it would
  name fewer kept-out cuts right), then it is saved and the reader uses it. It
  runs after the answer is sent, and an error is logged, never raised: a hand is
  logged whatever learning does (``learn``). The cuts are kept on (``learnt/``,
  the last ``KEEP`` counts): a correction of the count replaces what it taught.
- The teach page enrols cuts of one of each kind laid out (``enroll``), or takes the set a sister
  table was taught (``adopt``, from the parlour's database: ``service.shared_tiles``). The set it
  replaces is kept aside (``<set>.replaced-<UTC time>``), listed (``kept_aside``) and can be put
  back (``restore``), the one in use then kept aside in its turn: nothing taught or learnt is lost
  until the staff remove a kept set (``discard``), once the set in use reads well.
- A set whose index cannot be read (cut short, edited by hand: ``unreadable``) is said so on the
  teach page, learns nothing (one warning a Confirm), and Start over keeps it aside like any other:
  listed as damaged, with its crop files counted, to be removed; it cannot be put back.

Changes to the set are made on a copy loaded from disk, under one lock, and
the reader is handed the new set: the set a running detector names with is
never changed under it.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Collection, Mapping, Sequence

import numpy as np

from calibration.errors import CalibrationError
from vision.tileset import (INDEX, KINDS, TileSet, TileSetError, Update, open_or_create, ready,
                            table_tileset_path, writing)

from .learning import confirmed_cuts
from .reader import Cut, Reader
from .recent import Recent
from .settings import Settings
from .waiting_cuts import WaitingCuts

log = logging.getLogger(__name__)
KEEP = 32               # counts whose cuts wait for their Confirm
LESSONS = 8             # teach-page readings waiting for theirs
DEMO_SET = "demo.tileset"
WAITING = "waiting"     # the set's sub-folder of counts' cuts (TileSet keeps index, embeddings, crops/)
LEARNT = "learnt"       # ... and of the counts learnt from, for a correction
KEPT = ".replaced-"     # <set>.replaced-<UTC time>: a set put aside for another (adopt, restore)
REMOVED = ".removed-"   # <set>.removed-<UTC time>: a kept set being deleted (discard); never listed
STAMP = "%Y%m%dT%H%M%S"
KEPT_STAMP = re.compile(r"(\d{8}T\d{6})(-\d+)?")     # its time, and -2, -3... for swaps within a second
NO_TABLE = ("no calibrated table, so no tile set to teach: fit the table "
            "(python -m calibration fit) and set TABLE_CALIBRATION=<table>")

def tileset_folder(settings: Settings) -> Path | None:
    """Where the table's tile set lives: beside the calibration of ``TABLE_CALIBRATION``'s table;
    with no table calibrated, on the demo camera, ``demo.tileset`` in the data folder; else None
    (a camera over no known table has no set)."""
    if settings.calibration:
        try:
            return table_tileset_path(settings.calibration)
        except CalibrationError as e:          # a name no table file can have: the reader says so too
            log.warning("no tile set: %s", e)
            return None
    if settings.demo_camera:
        return settings.data_dir / DEMO_SET
    return None


@dataclass(frozen=True)
class KeptSet:
    """A set the table had before it took another: when it was put aside, what it holds. A set whose
    index cannot be read is ``damaged`` (what is wrong, in a line): its crops are then the image files
    in its ``crops/<kind>/`` folders, and it can only be removed."""

    stamp: str                  # its folder's suffix: the UTC time it was put aside
    at: datetime
    crops: int
    kinds: int
    damaged: str = ""
    folder: Path | None = None


def _held(folder: Path) -> tuple[int, int] | None:
    """(crops, kinds) of the set in ``folder``, read from its index alone; None when it is no set."""
    try:
        kinds = json.loads((folder / INDEX).read_text(encoding="utf-8"))["kinds"]
        return sum(len(v) for v in kinds.values()), sum(1 for v in kinds.values() if v)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _damage(folder: Path) -> str | None:
    """What is wrong with the set in ``folder`` when its index cannot be read as a set (no index, cut
    short, edited wrong, a view that is none), in a line; None when it reads. Damaged embeddings are
    no damage here: ``ready`` rebuilds them from the crops."""
    try:
        TileSet.load(folder, vectors=False).view       # noqa: B018 -- a set naming no view names nothing
    except TileSetError as e:
        return str(e)
    except OSError as e:
        return f"{folder / INDEX}: cannot be read ({e.strerror or e})"
    return None


def _holds_a_set(folder: Path) -> bool:
    """Whether ``folder`` holds a set, readable or not: its index, or crop files without one (an index
    lost or deleted by hand). A folder of counts alone (started over) holds none."""
    return (folder / INDEX).is_file() or _files_held(folder)[0] > 0


def _files_held(folder: Path) -> tuple[int, int]:
    """(crop files, kinds holding any) in a set folder's ``crops/<kind>/``, whatever its index says:
    what a damaged set still holds on the disk."""
    try:
        held = [sum(1 for f in sub.iterdir() if f.is_file()) for sub in (folder / "crops").iterdir() if sub.is_dir()]
    except OSError:
        return 0, 0
    return sum(held), sum(1 for n in held if n)


class TableTiles:
    """The table's tile set in the service: one per app (``app.state.tiles``)."""

    def __init__(self, folder: Path | None, reader: Reader, learn: bool = True):
        self.folder = Path(folder) if folder is not None else None
        self.reader = reader
        self.learning = learn
        self.counts: Recent[str, tuple[Cut, ...]] = Recent(KEEP)
        self.waiting = WaitingCuts(self.folder / WAITING, KEEP) if self.folder is not None else None
        # counts learnt from, their cuts kept for a correction of the count (``learn``)
        self.learnt = WaitingCuts(self.folder / LEARNT, KEEP) if self.folder is not None else None
        self.lessons: Recent[str, Any] = Recent(LESSONS)    # the teach page's readings (service.teaching)
        self._lock = threading.Lock()       # one change to the set at a time
        self._loading = threading.Lock()
        self._detector = None
        self._in_use: TileSet | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="tile-set")     # learning's own (``learn``)

    # ---- the detector and the set in use --------------------------------------------------------

    @property
    def detector(self):
        """The reader's detector (one classifier for reading and teaching), or, with a reader that
        has none, the overhead view's, loaded on first use."""
        own = getattr(self.reader, "detector", None)
        if own is not None:
            return own
        with self._loading:
            if self._detector is None:
                from vision.detect import Detector
                self._detector = Detector.for_view("overhead")
        return self._detector

    def start(self) -> None:
        """At start: the saved set, rebuilt when its classifier changed, put in the reader. A set that
        cannot be read is logged and left out (the reader names tiles by its classifier alone)."""
        if self.folder is None or not (self.folder / INDEX).is_file() or not hasattr(self.reader, "use_tileset"):
            return
        try:
            with self._lock:
                self._use(ready(self.folder, self.detector.classifier))
        except (TileSetError, OSError, ValueError) as e:
            log.warning("the table's tile set is not used: %s", e)

    def kinds(self) -> list[str]:
        """The kinds the table's set holds crops of now (``back`` included), [] with no set."""
        if self._in_use is not None:
            return self._in_use.kinds()
        if self.folder is None or not (self.folder / INDEX).is_file():
            return []
        try:
            return TileSet.load(self.folder, vectors=False).kinds()     # the index alone: no embeddings read
        except TileSetError:
            return []

    def holds_a_set(self) -> bool:
        """Whether the table has a set, readable or not: what another set taking its place keeps aside
        (``_swap_in``)."""
        return self.folder is not None and _holds_a_set(self.folder)

    def unreadable(self) -> str | None:
        """What is wrong with the table's set on disk, in a line, when its index cannot be read (a copy
        cut short, an edit by hand); None when it reads or there is none. Said on the teach page: the
        page counted such a set as none, and its players never knew why it learnt nothing."""
        if not self.holds_a_set():
            return None                 # no set, or one started over (its counts alone)
        return _damage(self.folder)

    def crops(self) -> int:
        """How many crops the table's set holds now (taught and learnt), 0 with no set."""
        if self._in_use is not None:
            return sum(len(v) for v in self._in_use.crops.values())
        held = _held(self.folder) if self.folder is not None else None
        return held[0] if held else 0

    def _use(self, tileset: TileSet) -> None:
        tileset.rule(self.detector.classifier)      # the set checks itself here, not on the next frame
        self._in_use = tileset
        if hasattr(self.reader, "use_tileset"):
            self.reader.use_tileset(tileset)
        if self._detector is not None:
            self._detector.use_tileset(tileset)

    def _open(self) -> TileSet:
        """The set on disk (rebuilt when stale), or a new empty one: a fresh copy to change.
        TileSetError where crops lie there without an index: a new index made over them left them
        out of the set and out of the teach page's reach (Start over keeps them aside)."""
        classifier = self.detector.classifier
        if (self.folder / INDEX).is_file():
            return ready(self.folder, classifier)
        if _holds_a_set(self.folder):
            raise TileSetError(_damage(self.folder) or f"{self.folder}: crops without an index")
        return open_or_create(self.folder, classifier)

    def _open_for(self, count: str, doing: str) -> TileSet | None:
        """The set to change for the count ``count`` (``_open``), or None, logged in one line, when it
        cannot be read: a damaged set is no error of the count, and a traceback at every Confirm said
        nothing the teach page does not (``unreadable``; its Start over keeps the set aside)."""
        try:
            return self._open()
        except TileSetError as e:
            log.warning("the tile set %s cannot be read, so it %s the count %s: %s (the teach page's "
                        "Start over keeps it aside)", self.folder, doing, count, e)
            return None

    # ---- learning from confirmed counts ---------------------------------------------------------

    def remember(self, snapshot: str, cuts: Sequence[Cut]) -> None:
        """A count's cuts, kept until its snapshot is confirmed: in memory, and on disk (a snapshot
        store's name only) to outlive a restart. A write that fails is logged: the count stands."""
        if cuts and self.learning and self.waiting is not None:
            self.counts.put(snapshot, tuple(cuts))
            self.waiting.put(snapshot, cuts)

    def learn(self, snapshot: str | None, records: Sequence[Mapping[str, Any]],
              fixed: Collection[int] = ()) -> Update | None:
        """The confirmed count of ``snapshot`` taught to the set: its cuts labelled by the confirmed
        ``records`` and the boxes the players fixed on it (``fixed``: ``service.learning``), learnt,
        saved, put in the reader. None when there was
        nothing to learn (no cuts kept for it, learning off) or it failed: never raises. The cuts are
        taken from memory, else from disk (a count read before a restart), and then kept in the
        set's ``learnt/`` folder (the last ``KEEP`` counts): a correction of the count confirms it
        again, and what its first Confirm taught (``TileSet.forget``) is learnt again as corrected,
        so a tile the players fix after the Confirm is not kept under the name they took back.

        It runs on the set's own thread, the caller waiting. Run on whichever of the server's worker
        threads was free, a Confirm's learning (the whole set loaded, its crops embedded) left memory
        in each one's allocator arena: a night of confirms grew the service by a megabyte a Confirm
        (bench/bench_night.py)."""
        if not self.learning or self.waiting is None or not snapshot:
            return None
        return self._thread.submit(self._learn, snapshot, records, fixed).result()

    def _learn(self, snapshot: str, records: Sequence[Mapping[str, Any]], fixed: Collection[int]) -> Update | None:
        try:
            cuts = self._cuts_of(snapshot)
            named = confirmed_cuts(cuts, records, fixed) if cuts else []
            if not named and not self._taught(snapshot):
                return None             # nothing to learn, and nothing this count taught to take back
            with self._lock, writing(self.folder):    # the command line enrolling waits, or we do
                if (tileset := self._open_for(snapshot, "learns nothing from")) is None:
                    return None
                forgot = tileset.forget(snapshot)       # what an earlier Confirm of this count taught
                update = tileset.learn(named, self.detector.classifier, origin=snapshot) if named else None
                tileset.save()          # a refused update is in the set's log too
                self._use(tileset)
            log.info("tile set %s learnt from %s: %s%s", self.folder, snapshot, update,
                     f" (in place of {forgot} crops its earlier Confirm taught)" if forgot else "")
            return update
        except Exception:               # learning is a bonus: the hand is logged whatever happens here
            log.exception("the tile set could not learn from the confirmed count %s", snapshot)
            return None

    def unlearn(self, snapshot: str | None) -> int:
        """What the count ``snapshot`` taught taken back (its hand undone); how many crops. Never
        raises: the undo stands whatever happens here."""
        if self.folder is None or not snapshot:
            return 0
        try:        # on the set's thread, after any learning of that count still queued there
            return self._thread.submit(self._unlearn, snapshot).result()
        except Exception:
            log.exception("the tile set could not take back what the undone count %s taught", snapshot)
            return 0

    def _unlearn(self, snapshot: str) -> int:
        if not self._taught(snapshot):
            return 0
        with self._lock, writing(self.folder):
            if (tileset := self._open_for(snapshot, "takes nothing back for")) is None:
                return 0
            gone = tileset.forget(snapshot)
            tileset.save()
            self._use(tileset)
        log.info("tile set %s: %d crops the undone count %s taught taken back", self.folder, gone, snapshot)
        return gone

    def _cuts_of(self, snapshot: str) -> tuple[Cut, ...] | None:
        """The count's cuts, then kept in ``learnt/`` for a correction: from memory (its waiting file
        moved over as it is), else from ``waiting/`` (a count read before a restart) or ``learnt/``
        (a correction). None when none are kept: a count learnt more than ``KEEP`` counts ago."""
        cuts = self.counts.pop(snapshot)
        if cuts:
            if self.waiting.move(snapshot, self.learnt):
                return cuts
            self.waiting.remove(snapshot)
        else:
            cuts = self.waiting.pop(snapshot) or self.learnt.pop(snapshot)
        if cuts:
            self.learnt.put(snapshot, cuts)
        return cuts

    def _taught(self, snapshot: str) -> bool:
        """Whether the set in use holds crops learnt from the count ``snapshot``."""
        in_use = self._in_use
        return in_use is not None and any(c.origin == snapshot for v in in_use.crops.values() for c in v)

    # ---- enrolling (the teach page) -------------------------------------------------------------

    def _require_folder(self) -> Path:
        if self.folder is None:
            raise TileSetError(NO_TABLE)
        return self.folder

    @staticmethod
    def _by_kind(named: Sequence[tuple[str, np.ndarray]]) -> dict[str, list[np.ndarray]]:
        """The cuts grouped by kind; ``TileSetError`` naming any kind that is none."""
        bad = sorted({k for k, _ in named if k not in KINDS})
        if bad:
            raise TileSetError(f"not a kind: {', '.join(bad)}")
        by_kind: dict[str, list[np.ndarray]] = {}
        for kind, image in named:
            by_kind.setdefault(kind, []).append(image)
        return by_kind

    def enroll(self, named: Sequence[tuple[str, np.ndarray]]) -> tuple[TileSet, dict[str, int]]:
        """Upright cuts of known kinds enrolled into the set, which is saved and put in the reader;
        the set and how many cuts it took of each kind it took any of (a cut it holds already, pixel
        for pixel, is not taken twice). ``TileSetError`` naming what is wrong (no set for this
        table, a kind that is none)."""
        self._require_folder()
        by_kind = self._by_kind(named)
        with self._lock, writing(self.folder):
            tileset = self._open()
            added = {kind: n for kind, images in by_kind.items()
                     if (n := len(tileset.enroll(kind, images, self.detector.classifier)))}
            tileset.save()
            self._use(tileset)
        return tileset, added

    def adopt(self, named: Sequence[tuple[str, np.ndarray]]) -> TileSet:
        """The table's set made anew of these upright cuts (a sister table's taught set), saved and put
        in the reader. The set it replaces is kept beside it, renamed ``<set>.replaced-<UTC time>``
        (nothing a table learnt is deleted), and counts waiting for their Confirm move to the new set."""
        folder = self._require_folder()
        by_kind = self._by_kind(named)
        if not by_kind:
            raise TileSetError("no crops to take")
        with self._lock:
            fresh = folder.with_name(folder.name + ".new")
            shutil.rmtree(fresh, ignore_errors=True)           # a try that died half way
            tileset = open_or_create(fresh, self.detector.classifier)
            for kind, images in by_kind.items():
                tileset.enroll(kind, images, self.detector.classifier)
            tileset.save()
            self._swap_in(fresh, tileset)
        return tileset

    def _swap_in(self, folder: Path, tileset: TileSet) -> None:
        """Put the set saved in ``folder`` in the table's place (the one there kept aside, the counts
        waiting for their Confirm and those kept for a correction moved over: a count read or confirmed
        before the swap is learnt by the set in use) and in the reader. Under the lock."""
        own = self.folder
        if _holds_a_set(own):           # readable or not (crops without an index: kept, listed damaged)
            self._counts_into(self._put_aside(own), folder)
        elif own.exists():              # no set in it (started over): nothing to keep aside but its counts
            self._counts_into(own, folder)
            shutil.rmtree(own)
        folder.rename(own)
        tileset.folder = own                                    # its files are named relative to it
        self._use(tileset)

    @staticmethod
    def _put_aside(own: Path) -> Path:
        """The set folder renamed ``<set>.replaced-<UTC time>`` (listed by ``kept_aside``); where it went."""
        stamp = datetime.now(timezone.utc).strftime(STAMP)
        aside = own.with_name(f"{own.name}{KEPT}{stamp}")
        n = 1
        while aside.exists():                                   # two swaps within a second
            n += 1
            aside = own.with_name(f"{own.name}{KEPT}{stamp}-{n}")
        return own.rename(aside)

    @staticmethod
    def _counts_into(old: Path, folder: Path) -> None:
        """The counts waiting for their Confirm, and those kept for a correction, moved from a set's
        folder to the one taking its place."""
        for counts in (WAITING, LEARNT):
            if (old / counts).is_dir() and not (folder / counts).exists():
                (old / counts).rename(folder / counts)

    def start_over(self) -> None:
        """A set taught wrong, or one that cannot be read, started again: the set kept aside
        (``kept_aside``: put back in a tap; one that cannot be read listed, to be removed) and none
        in its place, so the reader names tiles by its classifier alone until the table is taught
        again (or learns from its counts). ``TileSetError`` with no set to start over."""
        own = self._require_folder()
        with self._lock:
            if not _holds_a_set(own):
                raise TileSetError("this table has no tile set yet: nothing to start over")
            fresh = own.with_name(own.name + ".new")
            shutil.rmtree(fresh, ignore_errors=True)            # a try that died half way
            fresh.mkdir(parents=True)
            self._counts_into(self._put_aside(own), fresh)
            fresh.rename(own)
            self._in_use = None
            if hasattr(self.reader, "use_tileset"):
                self.reader.use_tileset(None)
            if self._detector is not None:
                self._detector.use_tileset(None)

    def kept_aside(self) -> list[KeptSet]:
        """The sets this table put aside for another, newest first ([] with no set folder). One whose
        index cannot be read is listed too, as damaged: left out, its crops lay on the disk out of
        the page's reach, neither put back nor removed."""
        if self.folder is None or not self.folder.parent.is_dir():
            return []
        out = []
        for p in self.folder.parent.glob(f"{self.folder.name}{KEPT}*"):
            stamp = p.name[len(self.folder.name) + len(KEPT):]
            m = KEPT_STAMP.fullmatch(stamp)
            try:
                at = datetime.strptime(m.group(1), STAMP).replace(tzinfo=timezone.utc) if m else None
            except ValueError:
                at = None
            if at is None or not p.is_dir():
                continue
            damaged = _damage(p)
            held = _held(p) if damaged is None else None
            out.append(KeptSet(stamp, at, *(held or _files_held(p)), damaged=damaged or "", folder=p))
        return sorted(out, key=lambda k: k.stamp, reverse=True)

    def discard(self, kept: KeptSet) -> None:
        """The set kept aside as ``kept`` (one of ``kept_aside``) removed from the disk, for good; the
        set in use is untouched. ``TileSetError`` when there is no set folder."""
        folder = self._kept_folder(kept)
        with self._lock:
            # renamed first, in one step that the disk takes or refuses whole (OSError: the service's
            # 503), so a folder the disk will not let go of stays a whole set, listed, never a part
            gone = folder.with_name(folder.name.replace(KEPT, REMOVED, 1))
            shutil.rmtree(gone, ignore_errors=True)         # what an earlier removal left
            folder.rename(gone)
            shutil.rmtree(gone, ignore_errors=True)
            if gone.exists():
                log.warning("tile set %s: the files of the set kept aside at %s stay in %s (the disk refused "
                            "to delete them); it is no longer listed", self.folder, kept.stamp, gone)
        log.info("tile set %s: the set kept aside at %s (%d crops) removed", self.folder, kept.stamp, kept.crops)

    def _kept_folder(self, kept: KeptSet) -> Path:
        """Where the set kept aside as ``kept`` lies; ``TileSetError`` when there is no set folder."""
        folder = self._require_folder()
        return folder.with_name(f"{folder.name}{KEPT}{kept.stamp}")

    def restore(self, kept: KeptSet) -> TileSet:
        """The set kept aside as ``kept`` (one of ``kept_aside``) put back in use (rebuilt if its
        classifier changed); the set in use is kept aside in its turn. ``TileSetError`` naming what is
        wrong (no set folder; the kept set gone meanwhile)."""
        aside = self._kept_folder(kept)
        with self._lock:
            tileset = ready(aside, self.detector.classifier)
            self._swap_in(aside, tileset)
        return tileset
