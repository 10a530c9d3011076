"""Logging hands: a win (two records: a double ron), a draw, a chombo; correct and undo."""

from __future__ import annotations

from fastapi import APIRouter, BackgroundTasks

from .. import table
from ..deps import AfterConfirmDep, LedgerDep, OffersDep, SnapshotsDep
from .schemas import ChomboIn, CorrectIn, DrawIn, UndoIn, WinIn, WrittenOut

router = APIRouter(tags=["hands"])


@router.post("/sessions/{session_id}/wins", status_code=201, response_model=WrittenOut,
             summary="confirm a won hand (two records for a double ron)")
def win(session_id: str, body: WinIn, ledger: LedgerDep, store: SnapshotsDep, after: AfterConfirmDep,
        offers: OffersDep, background: BackgroundTasks) -> dict:
    event, state = table.add_win(ledger, store, session_id, body.records, riichi=body.riichi, hand=body.hand,
                                 penalties=body.penalties, snapshot=body.snapshot, confirmed_by=body.confirmed_by,
                                 offers=offers)
    after.queue(background, body.snapshot, body.records)
    return table.written(ledger, session_id, event, state)


@router.post("/sessions/{session_id}/draws", status_code=201, response_model=WrittenOut,
             summary="an exhaustive draw")
def draw(session_id: str, body: DrawIn, ledger: LedgerDep) -> dict:
    event, state = ledger.add_draw(session_id, body.tenpai, riichi=body.riichi or None, hand=body.hand,
                                   penalties=body.penalties, confirmed_by=body.confirmed_by)
    return table.written(ledger, session_id, event, state)


@router.post("/sessions/{session_id}/chombos", status_code=201, response_model=WrittenOut,
             summary="a chombo; the hand is replayed")
def chombo(session_id: str, body: ChomboIn, ledger: LedgerDep) -> dict:
    event, state = ledger.add_chombo(session_id, body.offender, riichi=body.riichi or None, hand=body.hand,
                                     penalties=body.penalties, confirmed_by=body.confirmed_by)
    return table.written(ledger, session_id, event, state)


@router.post("/sessions/{session_id}/hands/{number}/correct", status_code=201, response_model=WrittenOut,
             summary="replace hand N (the old one stays in the log)")
def correct(session_id: str, number: int, body: CorrectIn, ledger: LedgerDep, store: SnapshotsDep,
            after: AfterConfirmDep, background: BackgroundTasks) -> dict:
    snap = table.checked_snapshot(store, body.snapshot)
    event, state = table.correct(ledger, session_id, number, body.kind, records=body.records, tenpai=body.tenpai,
                                 offender=body.offender, riichi=body.riichi or None, seen=body.seen,
                                 penalties=body.penalties, confirmed_by=body.confirmed_by, snapshot=snap,
                                 after=after, background=background)
    if body.kind == "win" and body.records:
        after.queue(background, snap, body.records)
    return table.written(ledger, session_id, event, state)


@router.post("/sessions/{session_id}/undo", status_code=201, response_model=WrittenOut,
             summary="undo the last hand (it stays in the log)")
def undo(session_id: str, body: UndoIn, ledger: LedgerDep, after: AfterConfirmDep,
         background: BackgroundTasks) -> dict:
    event, state = table.undo(ledger, session_id, body.hand, body.confirmed_by, after, background)
    return table.written(ledger, session_id, event, state)
