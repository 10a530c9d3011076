"""The work area of the table page: snapshot, hand editor with tile picker, live score, confirm.

Every tap posts the whole editor form and gets this fragment back (htmx swaps
it); confirming logs the hand and reloads the page.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.responses import Response

from scoring.record import SEATS

from .. import table
from ..deps import (AfterConfirmDep, CameraDep, HandPhotosDep, LedgerDep, OffersDep, ReaderDep, SettingsDep,
                    SnapshotsDep, TilesDep)
from ..editing import FLAGS, HAND_OPTIONS, PALETTE, RARE_FLAGS, RIICHI_FLAGS, TARGETS, Draft, wall_of
from ..errors import ServiceError
from ..mending import vouched
from ..refusal_ja import bilingual
from ..ledger import Ledger
from ..ledger.derive import paid
from ..ledger.hands import head_first, is_double_ron, scored_honba
from ..overlay import views
from ..reader import Reading
from ..table_tiles import TableTiles
from ..views import seat_names
from ..watch import Offers
from .forms import FormDep, image, number, text, texts
from .render import render

router = APIRouter()


def draft_of(form) -> Draft:
    return Draft.from_form(form, lambda key: texts(form, key))


def table_at(ledger: Ledger, session_id: str, correct: int | None) -> dict[str, Any]:
    """Seats and honba the hand is edited for: now, or those of hand ``correct``."""
    cfg, state = ledger.config(session_id), ledger.state(session_id)
    if correct:
        slots = ledger.slots(session_id)
        if not 1 <= correct <= len(slots):
            raise ServiceError(f"no hand {correct}: the session has {len(slots)} hand(s)", 404)
        body = slots[correct - 1].body
        return {"cfg": cfg, "state": state, "seats": dict(body["seats"]), "honba": body["honba"],
                "number": correct, "seen": slots[correct - 1].event.seq}
    return {"cfg": cfg, "state": state, "seats": state.seats(cfg.players), "honba": state.honba,
            "number": state.hands + 1}


def work_context(ledger: Ledger, session_id: str, draft: Draft, *, correct: int | None = None,
                 seen: int | None = None,
                 snapshot: str = "", reading: Reading | None = None, size: tuple[int, int] = (0, 0),
                 clean: bool = True, unsure_score: float = 0.6, offer: int = 0) -> dict[str, Any]:
    """Everything the work area shows: the draft's tiles, its live score (or why it does not score),
    the reading drawn over its snapshot. ``clean``: the draft is as read (or empty), so a win the
    watcher reads next may replace it without losing a fix."""
    at = table_at(ledger, session_id, correct)
    cfg = at["cfg"]
    draft = vouched_draft(draft, cfg)
    records = draft.records(cfg.rules)
    double = is_double_ron(records)
    if double:
        records = head_first(records)       # in the order, and with the honba, the ledger will count
    scores, error = [], "; ".join(bilingual(p) for p in draft.problems())
    if not error:
        error = _winner_ticked(draft, at["seats"])
    if not error and draft.first is not None:
        error = _held_refused(draft, records, at, cfg)
    if not error and not draft.concealed:
        error = "手牌を入力 enter the hand: tap tiles below, or type it"
    if not error and not draft.win_tile:
        error = ("和了牌を選ぶ choose the winning tile: tap 和了牌 winning tile above, then the tile in the hand"
                 if draft.whole() else
                 "和了牌を下の牌から選ぶ choose the winning tile: 13 tiles, so it is not among them: tap 和了牌 "
                 "winning tile above, then the tile in the picker below")
        error = _tiles_refused(draft.record(cfg.rules), at, cfg) or error      # the hand being drafted
    if not error:
        for i, rec in enumerate(records):
            try:
                score = table.score_record({**rec, "honba": scored_honba(cfg.table, i, at["honba"])},
                                           at["seats"], cfg.preset, at["honba"])      # the session's stored rule
            except ValueError as e:
                scores, error = [], bilingual(str(e))
                break
            # the payers as the ledger pays them (a double ron's bounty between its winners, by the rule)
            kept = paid(cfg.table, score["payments"], rec.get("discarder"), double)
            scores.append({**score, "payers": [p for p in score["payers"] if p["seat"] in kept]})
    # anything in the hand, read or entered: not logged yet, so a link away asks first (table.js)
    entered = bool(draft.concealed or draft.melds or draft.gari or draft.dora_indicators or draft.first
                   or draft.riichi_others or draft.penalties)
    if correct:                         # a correction: at stake is only what differs from the hand as logged
        logged = _as_logged(ledger, session_id, correct, cfg)     # (a draw's or chombo's: in its own form)
        entered = logged is not None and logged != _comparable(draft, cfg)
    clean = clean or not (draft.concealed or draft.melds or draft.gari or draft.dora_indicators)
    # what a player ticked or held is theirs, whatever the tiles: a double ron's first winner, others'
    # riichi sticks, a 罰符 (a reading or a reload would drop it)
    clean = clean and not (draft.first or draft.riichi_others or draft.penalties)
    return dict(session_id=session_id, cfg=cfg, at=at, draft=draft, seats=seat_names(at["seats"]),
                scores=scores, error=error, correct=correct, snapshot=snapshot, reading=reading,
                reading_w=size[0], reading_h=size[1], palette=PALETTE, targets=TARGETS, flags=FLAGS,
                rare_flags=_rare_flags(cfg.preset, draft), records=records, view=views(reading, size, draft, unsure_score),
                # each with the rule's default, what the box shows where the hand does not say
                hand_options=[(*o, bool(cfg.preset.options[o[0]])) for o in HAND_OPTIONS
                              if cfg.preset and o[0] in cfg.preset.options],
                clean=clean and not correct, entered=entered, offer=offer, unsure_score=unsure_score,
                # others' open riichi asked where the rule makes it cost more (dunhill: 2 sticks), or
                # the hand says one already (logged by the API under another rule)
                open_riichi=cfg.table.open_riichi_sticks != 1 or bool(draft.open_others),
                # the hand being corrected as the page first showed it: kept through every edit, so a
                # correction made meanwhile on another tablet is refused at Confirm (Ledger.correct)
                seen=seen if seen is not None else at.get("seen"))


def vouched_draft(draft: Draft, cfg) -> Draft:
    """``draft`` without the camera's discards where the engine refuses them (``mending.vouched``):
    its count, its 5p/5s toggle (which they would tick) and what Confirm logs all go without them.
    A double ron's held record too, as Confirm logs it: the dead wall on screen is its own, and an
    indicator fixed there can make its discards one copy too many."""
    shown, held = draft.extra.get("discards"), (draft.first or {}).get("discards")
    if not shown and not held:
        return draft
    records = draft.records(cfg.rules)              # the held record first, the hand on screen last
    if shown and vouched(records[-1], cfg.preset)[1]:
        draft = replace(draft, extra={k: v for k, v in draft.extra.items() if k != "discards"})
    if held and vouched(records[0], cfg.preset)[1]:
        draft = replace(draft, first={k: v for k, v in draft.first.items() if k != "discards"})
    return draft


def _rare_flags(preset, draft: Draft) -> tuple:
    """The rare flags the tablet offers: 人和 only where the rule counts it (isshokai's seed lists it;
    the others defer to four-player play, and a tick there counted nothing, unseen), or the hand
    says it already."""
    data = preset.data if preset is not None else {}
    renhou = bool((data.get("yakuman") or {}).get("renhou")) or any((data.get("yaku") or {}).get("renhou") or ())
    return tuple(f for f in RARE_FLAGS if f[0] != "renhou" or renhou or "renhou" in draft.flags)


def _winner_ticked(draft: Draft, seats: dict[str, str]) -> str:
    """A winner (the one on screen, or a double ron's held one) ticked among others' riichi (ticked,
    then made the winner) with no riichi of her hand's: said, so Confirm (and ダブロン, which would
    hold her hand) waits. Before, the tick was dropped unseen (no stick, no riichi counted); made
    her riichi by itself, a mis-tap of the winner gave it to the wrong player."""
    name = seats.get(draft.seat)
    # an open tick asks for the open riichi (it is a riichi too): asked for 立直 first, the players
    # were then asked again for オープン
    if name in draft.open_others and "open_riichi" not in draft.flags:     # her sticks: open riichi's
        return bilingual(f"{name} is ticked among others' open riichi and is the winner: tick オープン "
                         "open riichi for the hand, or untick it")
    if name in draft.riichi_others and not draft.flags & RIICHI_FLAGS:
        return bilingual(f"{name} is ticked among others' riichi and is the winner: tick 立直 riichi for "
                         "the hand, or choose the winner again")
    held = seats.get(draft.first.get("seat")) if draft.first is not None else None
    if held in draft.open_others and not draft.first.get("open_riichi"):
        return bilingual(f"{held} is ticked among others' open riichi and is the held winner: もう一人を直す "
                         f"(edit the other's hand) to tick オープン open riichi there, or untick {held}")
    if held in draft.riichi_others and not any(draft.first.get(f) for f in RIICHI_FLAGS):
        return bilingual(f"{held} is ticked among others' riichi and is the held winner: もう一人を直す "
                         f"(edit the other's hand) to tick 立直 riichi there, or untick {held}")
    return ""


def _held_refused(draft: Draft, records: list[dict[str, Any]], at: dict[str, Any], cfg) -> str:
    """A double ron's held hand (not the one on screen) as the engine refuses it, said at once:
    before, it showed only once the hand on screen was whole, and named no one. The players
    bring it to the editor with もう一人を直す (``swap``), the hand on screen held meanwhile."""
    for i, rec in enumerate(records):
        if rec.get("seat") == draft.first.get("seat"):
            try:
                table.score_record({**rec, "honba": scored_honba(cfg.table, i, at["honba"])}, at["seats"],
                                   cfg.preset, at["honba"])
            except ValueError as e:
                return bilingual(f"the other winner's hand, held, is refused ({rec.get('seat')}: {e}): "
                                 "edit it with もう一人を直す")
    return ""



def _comparable(draft: Draft, cfg) -> tuple:
    """What a correction's Confirm would log of ``draft``: its records, others' riichi (and which
    were open), penalties (a name once for each)."""
    return (draft.records(cfg.rules), draft.riichi_others, draft.open_others, tuple(sorted(draft.penalties)))


def _as_logged(ledger: Ledger, session_id: str, correct: int, cfg) -> tuple | None:
    """The hand ``correct`` as the editor opens it (``Draft.from_logged``), comparable; None
    where it is no win (a draw or chombo is corrected in its own form)."""
    slots = ledger.slots(session_id)
    if not 0 < correct <= len(slots) or slots[correct - 1].kind != "win":
        return None
    return _comparable(Draft.from_logged(slots[correct - 1].body), cfg)


def _tiles_refused(rec, at, cfg) -> str:
    """The engine's refusal of ``rec``'s tiles themselves (``table.tiles_refused``), said bilingual."""
    said = table.tiles_refused(rec, lambda r: table.score_record({**r, "honba": at["honba"]}, at["seats"], cfg.preset))
    return bilingual(said) if said else ""


def work(request: Request, ledger: Ledger, session_id: str, draft: Draft, *, status: int = 200,
         oob_snapshot: bool = False, **kw: Any) -> Response:
    kw.setdefault("unsure_score", request.app.state.settings.unsure_score)
    return render(request, "_work.html", status, oob_snapshot=oob_snapshot,
                  **work_context(ledger, session_id, draft, **kw))


@router.post("/s/{session_id}/edit")
def edit(request: Request, session_id: str, form: FormDep, ledger: LedgerDep, offers: OffersDep) -> Response:
    rule = ledger.config(session_id).preset
    op = text(form, "op")
    before = replace(draft_of(form), wall=wall_of(rule))
    draft = before.apply(op)
    dropped_riichi = op == "single" and before.first is not None and before.flags & RIICHI_FLAGS
    if op == "double" or dropped_riichi:        # the seats read only for these taps, not every one
        seats = table_at(ledger, session_id, number(form, "correct"))["seats"]
        if op == "double":  # the second winner, chosen by the double ron: her riichi ticked among others' is hers
            draft = draft.winner_riichi(seats)
        else:               # the hand on screen dropped: its winner's riichi stick stays, among others'
            name = seats[before.seat]           # (an open riichi's sticks, as open)
            draft = replace(draft, riichi_others=draft.riichi_others | {name},
                            open_others=draft.open_others | ({name} if "open_riichi" in before.flags else set()))
    snapshot = text(form, "snapshot")
    reading, size = (offers.reading(snapshot) if snapshot else None) or (None, (0, 0))
    # any tap is the players' own: a win the watcher reads next no longer replaces this draft
    return work(request, ledger, session_id, draft, correct=number(form, "correct"), seen=number(form, "seen"),
                snapshot=snapshot, reading=reading, size=size, clean=False, offer=number(form, "offer") or 0)


@router.post("/s/{session_id}/count")
def count(request: Request, session_id: str, form: FormDep, ledger: LedgerDep, camera: CameraDep,
          reader: ReaderDep, store: SnapshotsDep, tiles: TilesDep, offers: OffersDep) -> Response:
    _, frame = camera.latest()
    return _read(request, session_id, form, ledger, reader, store, tiles, offers, frame)


@router.post("/s/{session_id}/upload")
def upload(request: Request, session_id: str, form: FormDep, ledger: LedgerDep, reader: ReaderDep,
           store: SnapshotsDep, settings: SettingsDep, tiles: TilesDep, offers: OffersDep) -> Response:
    """An image of the table as its camera sees it, read by the table's reader."""
    return _read(request, session_id, form, ledger, reader, store, tiles, offers, image(form, settings),
                 hint=SEAT_PHOTO_HINT)


# a photo from the seat sent as the table camera's: its reader finds no markers in it
SEAT_PHOTO_HINT = ("席から撮った手牌の写真なら「手牌の写真を読む」で読んでください · a photo of the hand taken "
                   "from the seat? Send it with 手牌の写真を読む Read a photo of the hand")


@router.post("/s/{session_id}/hand-photo")
def hand_photo(request: Request, session_id: str, form: FormDep, ledger: LedgerDep, photos: HandPhotosDep,
               store: SnapshotsDep, settings: SettingsDep, offers: OffersDep) -> Response:
    """A photo of the revealed hand taken at the seat: its tiles replace the draft's hand (service.hand_photos)."""
    photo = image(form, settings, "hand_image")
    cfg = ledger.config(session_id)
    snap, reading = table.read_hand_photo(photos, store, offers, photo, draft_of(form).record(cfg.rules), cfg.preset)
    return _show(request, session_id, form, ledger, snap.name, reading, (snap.width, snap.height), offers=offers)


def _read(request, session_id, form, ledger, reader, store, tiles: TableTiles, offers: Offers, frame,
          hint: str = "") -> Response:
    context = table.context_of(ledger, session_id, number(form, "correct"))     # a correction: as at its hand
    snap, reading = table.read_frame(reader, store, frame, context, tiles, offers)
    if hint and reading.record is None and any(w.startswith("no homography") for w in reading.warnings):
        reading = replace(reading, warnings=(hint,) + tuple(reading.warnings))
    return _show(request, session_id, form, ledger, snap.name, reading, (snap.width, snap.height), offers=offers)


@router.post("/s/{session_id}/offer")
def offer(request: Request, session_id: str, form: FormDep, ledger: LedgerDep, offers: OffersDep,
          tiles: TilesDep) -> Response:
    """The watcher's offer ``offer`` (a win it read by itself) in the work area."""
    wanted = number(form, "offer") or 0
    found = offers.get(wanted)
    if found is None:
        raise ServiceError(f"読み取り {wanted} はもうありません · reading {wanted} was replaced by a newer one", 409)
    if said := table.logged_already(ledger, session_id, found.snapshot, found.reading.record, offers):
        raise ServiceError(said, 409)
    reading = table.drafted(ledger, session_id, found, offers, tiles)        # at this deal's seats
    return _show(request, session_id, form, ledger, found.snapshot, reading, found.size, offer=found.id)


KEPT_JA = "この写真からは手牌が読めません。前の写真と読みのままです"
DISCARDER_READ = ("読んだのは放銃者の手牌です。二人目の和了者の手牌を撮ってください · the hand read lies at the "
                  "discarder's seat, no winner's: read the second winner's hand (a photo of it, or enter it)")
FIRST_AGAIN = ("読んだのは一人目の和了者の手牌です。二人目の手牌を撮ってください · the hand read is the double ron's "
               "first winner's, held already: read the second winner's hand (a photo of it, or enter it)")


def _second_ron(read: Draft, first) -> Draft:
    """A double ron's second hand as read: a ron off the first's discarder by the seat that is
    neither (a reading names whichever seat its row lay at, and as a tsumo where it cannot tell)."""
    discarder = first.get("discarder") or ""
    seat = next((s for s in SEATS if s not in (first.get("seat"), discarder)), read.seat)
    return replace(read, seat=seat, win="ron", discarder=discarder)


def _show(request, session_id, form, ledger, snapshot: str, reading: Reading, size, offer: int = 0,
          offers: Offers | None = None) -> Response:
    draft = draft_of(form)
    if reading.record is not None and draft.first and reading.record.get("seat") == draft.first.get("seat"):
        # both winners' hands lie revealed, and the reader took the first one's again: it is no second hand
        reading = replace(reading, warnings=(FIRST_AGAIN,) + tuple(reading.warnings))
    elif reading.record is not None and draft.first and reading.record.get("seat") == draft.first.get("discarder"):
        reading = replace(reading, warnings=(DISCARDER_READ,) + tuple(reading.warnings))
    elif reading.record is not None:    # what the reader saw replaces the draft; players fix it
        # a double ron's first hand, held, stays: the reading is the second winner's
        read = Draft.from_record(reading.record, draft.riichi_others, draft.first, draft.open_others)
        draft = replace(_second_ron(read, draft.first) if draft.first else read, penalties=draft.penalties)
    else:
        # nothing read (felt, a blur): a picture that read the hand stays the count's, or Confirm
        # would log the hand with a photo of the felt, and what it taught would be lost
        earlier = text(form, "snapshot")
        kept = offers.reading(earlier) if offers is not None and earlier and earlier != snapshot else None
        if kept is not None and kept[0].record is not None:
            why = "; ".join(reading.warnings) or "nothing read"
            snapshot, (reading, size) = earlier, kept
            reading = replace(reading, warnings=(f"{KEPT_JA} · the new picture read no hand ({why}): the "
                                                 "earlier one and its reading are kept",) + tuple(reading.warnings))
        else:                           # a new picture: the boxes fixed on the one before are not its own
            draft = replace(draft, fixed=frozenset(), pick="")
    if not number(form, "correct") and (logged := table.logged_already(ledger, session_id, snapshot, None)):
        # a Count of the very picture a hand was logged from (a camera stalled, the demo come round):
        # said, not refused, since the players may know better
        reading = replace(reading, warnings=(f"{logged}: confirmed again, it is logged twice",)
                          + tuple(reading.warnings))
    return work(request, ledger, session_id, draft, correct=number(form, "correct"), seen=number(form, "seen"),
                snapshot=snapshot, reading=reading, size=size, oob_snapshot=True, offer=offer)


@router.post("/s/{session_id}/confirm")
def confirm(request: Request, session_id: str, form: FormDep, ledger: LedgerDep,
            store: SnapshotsDep, after: AfterConfirmDep, offers: OffersDep, background: BackgroundTasks) -> Response:
    cfg = ledger.config(session_id)
    at_seats = table_at(ledger, session_id, number(form, "correct"))["seats"]
    draft = draft_of(form)
    if draft.problems():
        raise ServiceError("; ".join(draft.problems()))
    if ticked := _winner_ticked(draft, at_seats):
        raise ServiceError(ticked)
    records = vouched_draft(draft, cfg).records(cfg.rules)
    winners = {at_seats[r["seat"]] for r in records if r.get("seat") in at_seats}
    # others' riichi as the ledger takes it: an open one as "name:open" (dunhill: its 2 sticks)
    riichi = [f"{n}:open" if n in draft.open_others else n for n in sorted(draft.riichi_others - winners)]
    snapshot = text(form, "snapshot") or None
    correct = number(form, "correct")
    if correct:
        table.checked_snapshot(store, snapshot)
        table.correct(ledger, session_id, correct, "win", records=records, riichi=riichi, snapshot=snapshot,
                      seen=number(form, "seen"), penalties=sorted(draft.penalties), confirmed_by="tablet",
                      after=after, background=background)
        target = f"/s/{session_id}/history?corrected={correct}"
    else:
        if number(form, "offer") and (said := table.logged_already(ledger, session_id, snapshot, records[0],
                                                                       offers)):
            raise ServiceError(said, 409)           # the watcher's offer of a hand logged meanwhile
        if (found := offers.get(number(form, "offer") or 0)) is not None and found.snapshot == snapshot:
            table.drafted(ledger, session_id, found, offers, after.tiles)   # at this deal, whoever drafted it last
        event, state = table.add_win(ledger, store, session_id, records, riichi=riichi,
                                     hand=number(form, "hand"), snapshot=snapshot, confirmed_by="tablet",
                                     penalties=sorted(draft.penalties), offers=offers)
        target = f"/s/{session_id}?recorded={state.hands}"
    after.queue(background, snapshot, records, draft.fixed)
    return Response(status_code=204, headers={"HX-Redirect": target})
