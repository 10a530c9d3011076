"""What a table does, shared by the JSON API and the pages: read a frame, score, log.

Data flows one way: frame -> reader -> hand record -> scoring -> (players
confirm) -> ledger. Nothing here writes unless every check has passed: a
snapshot is saved only once its image decodes, a hand is logged only by the
ledger's one transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Collection, Mapping, Sequence

import numpy as np

import scoring

from .errors import ServiceError
from .hand_photos import HandPhotoReader
from .ledger import Event, Ledger, State
from .photo_labels import PhotoLabels
from .read_tally import ReadTally
from .reader import Reader, ReadContext, Reading
from .snapshots import Snapshot, SnapshotStore
from .table_tiles import TableTiles
from .watch.offers import Offer, Offers
from .watch.rule import same_hand
from .views import score_view, session_view


def read_frame(reader: Reader, store: SnapshotStore, frame: np.ndarray, context: ReadContext,
               tiles: TableTiles | None = None, offers: Offers | None = None) -> tuple[Snapshot, Reading]:
    """Save the frame as a snapshot and let the reader read it; the reading's cuts wait in ``tiles``
    for the count's Confirm (``TableTiles.learn``), and the reading is remembered by the snapshot's
    name (``offers``: the tablet's overlay, and what its Confirm keeps and tallies, ``AfterConfirm``)."""
    snap = store.save(frame)
    reading = reader.read(frame, context)
    if tiles is not None:
        tiles.remember(snap.name, reading.cuts)
    if offers is not None:
        offers.remember(snap.name, reading, (snap.width, snap.height))
    return snap, reading


def read_hand_photo(photos: HandPhotoReader, store: SnapshotStore, offers: Offers, photo: np.ndarray,
                    draft: Mapping[str, Any], preset: scoring.Preset | None = None) -> tuple[Snapshot, Reading]:
    """Save a photo of the hand taken at the seat as a snapshot and read its hand into ``draft`` (a
    hand record as the players have it so far; ``preset``: the session's rule, which says what a win
    is where the hand as read makes none); nothing waits to teach the tile set. The reading is
    remembered by the snapshot's name (``offers``: the tablet's overlay, and what its Confirm keeps
    and tallies, ``AfterConfirm``)."""
    snap, reading = store.save(photo), photos.read(photo, draft, preset)
    offers.remember(snap.name, reading, (snap.width, snap.height))
    return snap, reading


@dataclass(frozen=True)
class AfterConfirm:
    """What a confirmed win sets going once its answer is sent, never failing it: the count's cuts
    teach the table's tile set (``tiles``; None: no table here), its image is kept as labels
    (``labels``), and how the reader read it is tallied (``tally``)."""

    tiles: TableTiles | None
    labels: PhotoLabels
    tally: ReadTally
    offers: Offers | None = None     # what the watcher knows of the last win logged (``Offers.logged``)

    def queue(self, background, snapshot: str | None, records: Sequence[Mapping[str, Any]],
              fixed: Collection[int] = ()) -> None:
        """Each task in ``background`` (the route's), run after the answer; ``fixed``: the snapshot's
        boxes the players fixed (``editing.Draft.fixed``), which tell the tile set which cuts they fixed."""
        if self.tiles is not None:
            background.add_task(self.tiles.learn, snapshot, records, frozenset(fixed))
        background.add_task(self.labels.keep, snapshot, records)
        background.add_task(self.tally.add, snapshot, records)

    def undone(self, background, snapshot: str | None) -> None:
        """A hand undone: what its count taught the tile set is taken back, so a wrong fix undone is
        not read again at the next count."""
        if self.tiles is not None and snapshot:
            background.add_task(self.tiles.unlearn, snapshot)


def drafted(ledger: Ledger, session_id: str, offer: Offer, offers: Offers, tiles: TableTiles | None) -> Reading:
    """The watcher's ``offer`` as this session's deal drafts it: its seats and cuts turned from the
    deal it was read at (``ReadContext.turned``), and what is kept of it by snapshot made so too: the
    reading a Confirm is tallied against and the cuts it teaches. A win read at one deal and
    confirmed at another (a tablet left on the last session, a hand taken back) taught the set 2 of
    its 16 tiles, its winner's cuts taken for another seat's, and tallied "seat" as fixed."""
    reading = context_of(ledger, session_id).turned(offer.reading, offer.turn)
    kept = offers.reading(offer.snapshot)
    # kept as this deal has it, whichever tablet drafted it last (one left on another session turns
    # it its own way): the Confirm drafts it again, so what it tallies and teaches is its own deal's
    if (kept is None or kept[0].record != reading.record
            or [c.seat for c in kept[0].cuts] != [c.seat for c in reading.cuts]):
        offers.remember(offer.snapshot, reading, offer.size)
        if tiles is not None:
            tiles.remember(offer.snapshot, reading.cuts)
    return reading


def context_of(ledger: Ledger, session_id: str | None, hand: int | None = None) -> ReadContext:
    """What the reader may know of the session's table: now, or as it stood at hand ``hand`` (a
    correction read again: that hand's seats and honba, the deal's turn then)."""
    if not session_id:
        return ReadContext(rules="")
    cfg = ledger.config(session_id)
    slots = ledger.slots(session_id) if hand else ()
    if hand and 1 <= hand <= len(slots):
        body = slots[hand - 1].body
        seats, honba = dict(body["seats"]), body["honba"]
    else:
        state = ledger.state(session_id)
        seats, honba = state.seats(cfg.players), state.honba
    dealer = cfg.players.index(seats["east"])
    return ReadContext(cfg.rules, honba, seats, cfg.preset, turn=(dealer - cfg.first_dealer) % 3)


def score_record(record: Mapping[str, Any], seats: Mapping[str, str] | None = None,
                 preset: scoring.Preset | None = None, round_honba: int | None = None) -> dict[str, Any]:
    """The engine's count of ``record`` (under ``preset``: a session's stored rule; else the rule the
    record names; ``round_honba``: the table's honba where the record counts other, ``scoring.score``),
    each line with its running total, payers named by seat."""
    return score_view(scoring.score(record, preset, round_honba=round_honba).to_dict(), seats or {})


# what the engine refuses of the tiles themselves, whichever the winning tile: said before the
# players are asked for one (a 13-tile photo's 6m under dunhill is no tile of its wall; both
# pinzu and souzu under chinton)
TILES_REFUSED = re.compile(r"not in (the|this hand's) .*wall|is a gari under|too many copies|too many (red|plain) fives"
                           r"|plays one suit per hand")


def tiles_refused(record: Mapping[str, Any], count: Callable[[dict[str, Any]], Any]) -> str:
    """The engine's refusal of ``record``'s tiles, where it is one of ``TILES_REFUSED`` (else ''):
    ``count`` (a record's score, or ValueError) tried with each concealed tile as the winning one
    in turn, so a hand read without its winning tile (13 tiles) is told what is wrong with its
    tiles rather than only to pick one."""
    try:
        tiles = [scoring.tiles.tile_name(t) for t in scoring.tiles.parse_mpsz(record.get("concealed") or "")]
    except scoring.ScoringError:
        return ""
    for tile in dict.fromkeys(tiles):
        try:
            count({**record, "win_tile": tile})
            return ""                       # some winning tile scores: the tiles themselves are fine
        except ValueError as e:
            if TILES_REFUSED.search(str(e)):
                return str(e)
    return ""


def score_in_session(record: Mapping[str, Any], ledger: Ledger, session_id: str | None) -> dict[str, Any]:
    """Score ``record`` at the session's table: its rule and honba filled in when missing, counted
    with the rule the session stored; without a session, the rule the record names (a built-in or
    a house rule in the service's rules folder)."""
    if not session_id:
        rules = record.get("rules") if isinstance(record, Mapping) else None
        return score_record(record, preset=ledger.rule(rules) if isinstance(rules, str) and rules else None)
    cfg, state = ledger.config(session_id), ledger.state(session_id)
    record = {"rules": cfg.rules, "honba": state.honba, **record}
    preset = cfg.preset if record["rules"] == cfg.rules else ledger.rule(record["rules"])
    return score_record(record, state.seats(cfg.players), preset)


def checked_snapshot(store: SnapshotStore, name: str | None) -> str | None:
    if name is None or name == "":
        return None
    if store.path(name) is None:
        raise ServiceError(f"unknown snapshot {name!r}: post the image to /api/read first", 422)
    return name


def add_win(ledger: Ledger, store: SnapshotStore, session_id: str, records: Sequence[Mapping[str, Any]], *,
            riichi: Any = None, hand: int | None = None, snapshot: str | None = None,
            confirmed_by: str | None = None, penalties: Sequence[str] = (),
            offers: Offers | None = None) -> tuple[Event, State]:
    """Log a won hand. ``offers``: the table's watcher is told a hand was logged, so the hand lying
    on the table now (counted by a tap, or still being read) is not offered as another."""
    snap = checked_snapshot(store, snapshot)
    written = ledger.add_win(session_id, list(records), riichi=riichi or None, hand=hand, penalties=penalties,
                             snapshot=snap, confirmed_by=confirmed_by)
    if offers is not None:
        offers.logged(snap, records)
    return written


def logged_already(ledger: Ledger, session_id: str, snapshot: str | None,
                   record: Mapping[str, Any] | None, offers: Offers | None = None) -> str | None:
    """Why the watcher's offer is no news to this session, or None: its picture is a hand logged
    already, or its hand is the session's last hand (its tiles: the service restarted with the hand
    still on the table, or the demo's slideshow come round again). Confirmed, it was paid twice.
    The last hand is known by its tiles as confirmed and, with ``offers``, as read from its picture:
    a hand misread, fixed in three tiles and confirmed, then read again the same way after an arm
    passed over it, is that hand, not the next."""
    found = ledger.hand_of_snapshot(snapshot) if snapshot else None
    if found is not None:
        return f"この写真は第{found[1]}局として記録済みです · this picture is hand {found[1]}, logged already"
    slots = ledger.slots(session_id)
    if not record or not slots or slots[-1].kind != "win":
        return None
    known = [w["record"] for w in slots[-1].body.get("wins", ())]
    if offers is not None:
        known = offers.known(slots[-1].event.snapshot, known)
    if any(same_hand(k, record) for k in known):
        n = slots[-1].number
        return f"この和了は第{n}局として記録済みです · this win is hand {n}, logged already"
    return None


def undo(ledger: Ledger, session_id: str, hand: int | None, confirmed_by: str | None,
         after: AfterConfirm | None = None, background=None) -> tuple[Event, State]:
    """Undo the last hand; ``hand`` (its number) guards against undoing one the tablet has not seen.
    With ``after``, what the undone win's count taught the tile set is taken back."""
    slots = ledger.slots(session_id)
    win = bool(slots) and slots[-1].kind == "win"
    taught = slots[-1].event.snapshot if win else None
    event, state = ledger.undo(session_id, hand=hand, confirmed_by=confirmed_by)
    _take_back(ledger, taught, after, background)
    if after is not None and after.offers is not None and win:
        after.offers.relogged(taught)       # no longer a hand logged: laid again, it is offered again
    return event, state


def correct(ledger: Ledger, session_id: str, number: int, kind: str, *, snapshot: str | None = None,
            after: AfterConfirm | None = None, background=None, **given: Any) -> tuple[Event, State]:
    """Hand ``number`` corrected (``Ledger.correct``, ``given`` passed on). With ``after``, what the
    count it was logged with taught the tile set is taken back where the correction names another
    picture, or none, or is no win: that count's tiles were confirmed as a hand the players took
    back (a correction read from a new picture learns from that one; one naming the same picture
    learns it again as corrected, ``TableTiles.learn``)."""
    slots = ledger.slots(session_id)
    was = slots[number - 1].event.snapshot if 1 <= number <= len(slots) else None
    a_win = 1 <= number <= len(slots) and slots[number - 1].kind == "win"
    event, state = ledger.correct(session_id, number, kind, snapshot=snapshot, **given)
    if was != snapshot or kind != "win":
        _take_back(ledger, was, after, background)
    if after is not None and after.offers is not None and a_win:    # the watcher knows the hand as corrected
        after.offers.relogged(was, snapshot, given.get("records", ()) if kind == "win" else ())
    return event, state


def _take_back(ledger: Ledger, snapshot: str | None, after: AfterConfirm | None, background) -> None:
    """What the count of ``snapshot`` taught the tile set taken back (``after``, in ``background``),
    but where another standing hand names that picture: it still teaches what it taught (the demo's
    identical frames)."""
    if after is not None and background is not None and snapshot and ledger.hand_of_snapshot(snapshot) is None:
        after.undone(background, snapshot)


def written(ledger: Ledger, session_id: str, event: Event, state: State) -> dict[str, Any]:
    return {"event": {"seq": event.seq, "kind": event.kind, "snapshot": event.snapshot},
            "session": session_view(ledger.config(session_id), state)}
