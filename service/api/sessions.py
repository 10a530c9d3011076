"""Sessions: start one (under a built-in or a house rule: rules.py lists them), see where it stands,
its hands, and export it."""

from __future__ import annotations

from fastapi import APIRouter, Response

from ..deps import LedgerDep
from ..csv_cells import for_spreadsheets
from ..ledger import export, opening
from ..views import balance_series, hand_view, session_view
from .schemas import SessionIn, SessionOut

router = APIRouter(tags=["sessions"])


@router.post("/sessions", status_code=201, response_model=SessionOut, summary="start a session")
def start(body: SessionIn, ledger: LedgerDep) -> dict:
    # a built-in or a house rule of the rules folder, resolved now and stored with the session
    # (unknown, or a file that does not load: 422 saying why)
    cfg = ledger.start(body.rules, body.players, dealer=body.dealer, table=body.table, label=body.label)
    return session_view(cfg, ledger.state(cfg.id))


@router.get("/sessions", response_model=list[SessionOut], summary="all sessions, oldest first")
def sessions(ledger: LedgerDep) -> list[dict]:
    return [session_view(cfg, ledger.state(cfg.id)) for cfg in ledger.sessions()]


@router.get("/sessions/{session_id}", response_model=SessionOut,
            summary="balances, dealer, honba, pool and settlement")
def session(session_id: str, ledger: LedgerDep) -> dict:
    return session_view(ledger.config(session_id), ledger.state(session_id))


@router.get("/sessions/{session_id}/hands", summary="the hands that count, with payments and snapshots")
def hands(session_id: str, ledger: LedgerDep) -> dict:
    cfg = ledger.config(session_id)
    steps = ledger.history(session_id)
    return {"hands": [hand_view(cfg, s) for s in steps],
            "series": balance_series(cfg, steps, opening(cfg).balances)}


@router.get("/sessions/{session_id}/export.json", summary="the whole log, re-importable")
def export_json(session_id: str, ledger: LedgerDep) -> Response:
    return Response(export.dumps(ledger, session_id), media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="session-{session_id}.json"'})


@router.get("/sessions/{session_id}/export.csv", summary="one row per hand that counts")
def export_csv(session_id: str, ledger: LedgerDep) -> Response:
    return Response(for_spreadsheets(export.to_csv(ledger, session_id)), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="session-{session_id}.csv"'})
