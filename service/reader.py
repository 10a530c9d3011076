"""The seam for reading a hand from a frame: frame -> (hand record, detections, warnings).

``TABLE_READER=auto`` (the default, ``service.reader_choice.reader_for``) is the vision reader for
the calibrated table, or for the demo table on the demo camera;
``TABLE_READER=module:factory`` names a callable returning another :class:`Reader`.
Without one, :class:`NoReader` reads nothing and says why, and the tablet falls
back to the snapshot shown as-is plus a hand typed or picked by the players.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Protocol, runtime_checkable

import numpy as np

from scoring.record import SEATS


@dataclass(frozen=True)
class Detection:
    """One tile seen in the frame: its mpsz name, its box in frame pixels, the confidence, the kind
    of table zone it lies in (``hand``, ``melds``, ``gari``, ``dead_wall``, ``discards``; empty:
    unknown), and when several frames were voted on, the share of them that read it there.
    ``rotation`` (not in ``to_dict``): the face's clockwise turn in the frame (0/90/180/270; what
    ``service.photo_labels`` keeps)."""

    tile: str
    x: int
    y: int
    w: int
    h: int
    score: float = 1.0
    zone: str = ""
    agree: float | None = None
    rotation: int = 0

    def to_dict(self) -> dict[str, Any]:
        out = {"tile": self.tile, "box": [self.x, self.y, self.w, self.h], "score": round(self.score, 3)}
        if self.zone:
            out["zone"] = self.zone
        if self.agree is not None:
            out["agree"] = self.agree
        return out


@dataclass(frozen=True, eq=False)
class Cut:
    """One face-up tile as the reader's classifier saw it: the tile it read, the upright BGR cut,
    the kind of table zone it lay in (``hand``, ``melds``, ``gari``, ``dead_wall``,
    ``discards``; empty: none) and that zone's seat (None: the table's own zone, the dead wall, or
    not known), and the reading's box it was cut from (its index in ``Reading.detections``: a box
    the players fixed on the snapshot says which cut they fixed; None: not known). What a confirmed
    count teaches the table's tile set."""

    tile: str
    image: np.ndarray = field(repr=False)
    zone: str = ""
    seat: str | None = None
    box: int | None = None


@dataclass(frozen=True)
class Reading:
    """What a reader made of one frame. ``record`` is a hand record (docs/hand-record.md)
    or None when nothing could be read; ``warnings`` say what the players should check.
    ``cuts`` (not in ``to_dict``) are the read tiles' images, kept until the count is confirmed.
    ``from_seat``: the frame is a photo taken at the winner's seat, whose row reads as it lies
    (the table camera's frames are seen from above, each seat's row turned its own way). ``table``
    (not in ``to_dict``): for the table camera, the calibration the frame was read with (a table
    file's dict, ``calibration.store.TableFile.to_dict``, holding this frame's fit)."""

    reader: str
    record: Mapping[str, Any] | None = None
    detections: tuple[Detection, ...] = ()
    warnings: tuple[str, ...] = ()
    installed: bool = True
    cuts: tuple[Cut, ...] = field(default=(), repr=False, compare=False)
    from_seat: bool = False
    table: Mapping[str, Any] | None = field(default=None, repr=False, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"reader": self.reader, "installed": self.installed,
                "record": dict(self.record) if self.record is not None else None,
                "detections": [d.to_dict() for d in self.detections], "warnings": list(self.warnings)}


@dataclass(frozen=True)
class ReadContext:
    """What the table knows that a reader may use: the rule, the honba, the seats, the rule as the
    session stored it (``preset``: a house rule's own table; None: the built-in ``rules`` names), and
    ``turn``: how many seats the deal has moved on since the session's first deal."""

    rules: str
    honba: int = 0
    seats: Mapping[str, str] = field(default_factory=dict)
    preset: Any = None
    turn: int = 0

    def seat_now(self, zone_seat: str | None) -> str | None:
        """The seat, in this deal, of the player at the table zone named ``zone_seat``. The
        calibration names its zones by the first deal's winds (docs/calibration.md): a zone keeps
        its player while the deal moves on, so after one turn the player in the East zone sits
        West, and a hand record's ``east`` is the dealer."""
        return SEATS[(SEATS.index(zone_seat) - self.turn) % 3] if zone_seat in SEATS else zone_seat

    def turned(self, reading: "Reading", read_at: int) -> "Reading":
        """``reading``, made at turn ``read_at``, with its record's seats and its cuts' turned to this
        context's deal (a win read before the last deal's was logged, drafted after it: or after a
        hand was taken back)."""
        if read_at == self.turn:
            return reading
        moved = ReadContext(self.rules, turn=self.turn - read_at)
        record = moved.seats_now(reading.record) if reading.record is not None else None
        cuts = tuple(replace(c, seat=moved.seat_now(c.seat)) for c in reading.cuts)
        return replace(reading, record=record, cuts=cuts)

    def seats_now(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """``record`` as the table camera reads it (its seats the zones'), its seats (the winner's,
        the discarder's, each meld's ``from``) turned to this deal's (``seat_now``)."""
        now = self.seat_now
        out = dict(record)
        for key in ("seat", "discarder"):
            if key in out:
                out[key] = now(out[key])
        if isinstance(out.get("melds"), list):
            out["melds"] = [{**m, "from": now(m["from"])} if isinstance(m, Mapping) and "from" in m else m
                            for m in out["melds"]]
        return out


@runtime_checkable
class Reader(Protocol):
    name: str

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading: ...


class NoReader:
    """The reader in force while no vision is installed: it reads nothing, and says why."""

    name = "none"
    MESSAGE = ("no reader installed: the snapshot is shown as taken; "
               "enter the hand with the tile picker")
    NOT_CALIBRATED = ("no calibrated table: the snapshot is shown as taken; enter the hand with the "
                      "tile picker (python -m calibration fit, then TABLE_CALIBRATION=<table>)")

    def __init__(self, message: str = MESSAGE):
        self.message = message

    def read(self, frame: np.ndarray, context: ReadContext) -> Reading:
        return Reading(self.name, None, (), (self.message,), installed=False)


class ReaderLoadError(RuntimeError):
    pass


def load_reader(spec: str) -> Reader:
    """The reader named by ``module:factory`` (empty: :class:`NoReader`)."""
    if not spec:
        return NoReader()
    module, _, attr = spec.partition(":")
    if not attr:
        raise ReaderLoadError(f"TABLE_READER must be 'module:factory', got {spec!r}")
    try:
        factory = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ReaderLoadError(f"cannot load reader {spec!r}: {e}") from None
    try:
        reader = factory()
    except Exception as e:      # a reader that cannot start (no calibration, no weights) is named, not traced
        raise ReaderLoadError(f"reader {spec!r} could not start: {e}") from None
    if not isinstance(reader, Reader):
        raise ReaderLoadError(f"{spec!r} did not return a reader (needs .name and .read(frame, context))")
    return reader
