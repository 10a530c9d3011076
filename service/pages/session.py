"""The tablet's pages: log in with the PIN, start a session, the table page, draws, chombos,
undo, and the history with its chart and exports."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

import scoring

from .. import table
from ..chart import balance_chart
from ..deps import PIN_COOKIE, LedgerDep, SettingsDep, checked_pin
from ..editing import Draft
from ..errors import ServiceError
from ..ledger import opening
from ..views import balance_series, hand_view, session_view
from .forms import FormDep, number, text
from .render import render
from .work import table_at, work_context

public = APIRouter()      # no PIN needed
router = APIRouter()


def _go(url: str) -> Response:
    """After a write: htmx follows HX-Redirect, a plain form post follows the 303."""
    return Response(status_code=204, headers={"HX-Redirect": url}) if url else Response(status_code=204)


@public.get("/login")
def login_page(request: Request, settings: SettingsDep) -> Response:
    return render(request, "login.html", table_name=settings.table_name, wrong=False)


@public.post("/login")
def login(request: Request, form: FormDep, settings: SettingsDep) -> Response:
    pin = text(form, "pin")
    if not checked_pin(request, settings, pin):
        return render(request, "login.html", 401, table_name=settings.table_name, wrong=True)
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(PIN_COOKIE, pin, httponly=True, samesite="strict", max_age=60 * 60 * 24 * 30)
    return response


@router.get("/")
def index(request: Request, ledger: LedgerDep, settings: SettingsDep) -> Response:
    sessions = [session_view(cfg, ledger.state(cfg.id)) for cfg in reversed(ledger.sessions())]
    return render(request, "index.html", table_name=settings.table_name, sessions=sessions,
                  rules=scoring.preset_ids())


@router.post("/sessions")
def start(form: FormDep, ledger: LedgerDep) -> Response:
    rules = text(form, "rules")
    if rules not in scoring.preset_ids():
        raise ServiceError(f"choose a house rule: {', '.join(scoring.preset_ids())}")
    players = [text(form, f"player{i}") for i in (1, 2, 3)]
    cfg = ledger.start(rules, players, dealer=text(form, "dealer") or None, label=text(form, "label"))
    return _go(f"/s/{cfg.id}")


@router.get("/s/{session_id}")
def table_page(request: Request, session_id: str, ledger: LedgerDep, settings: SettingsDep,
               correct: int | None = None, recorded: int | None = None) -> Response:
    at = table_at(ledger, session_id, correct)
    cfg, state = at["cfg"], at["state"]
    draft = Draft(meld_from="")
    if correct:
        hand = ledger.slots(session_id)[correct - 1]
        if hand.kind == "win":
            wins = hand.body["wins"]
            first = wins[0]["record"] if len(wins) == 2 else None
            others = frozenset(hand.body.get("riichi", {})) - {w["winner"] for w in wins}
            draft = Draft.from_record(wins[-1]["record"], others, first)
    return render(request, "table.html", table_name=settings.table_name, s=session_view(cfg, state),
                  recorded=recorded, camera=request.app.state.camera is not None,
                  reader=request.app.state.reader.name,
                  reader_message=getattr(request.app.state.reader, "message", ""), oob_snapshot=False,
                  **work_context(ledger, session_id, draft, correct=correct))


@router.post("/s/{session_id}/draw")
def draw(session_id: str, form: FormDep, ledger: LedgerDep) -> Response:
    tenpai, riichi = form.getlist("tenpai"), form.getlist("riichi")
    correct = number(form, "correct")
    if correct:
        ledger.correct(session_id, correct, "draw", tenpai=tenpai, riichi=riichi, confirmed_by="tablet")
        return _go(f"/s/{session_id}/history?corrected={correct}")
    ledger.add_draw(session_id, tenpai, riichi=riichi, hand=number(form, "hand"), confirmed_by="tablet")
    return _go(f"/s/{session_id}")


@router.post("/s/{session_id}/chombo")
def chombo(session_id: str, form: FormDep, ledger: LedgerDep) -> Response:
    offender, riichi = text(form, "offender"), form.getlist("riichi")
    if not offender:
        raise ServiceError("choose who made the chombo")
    correct = number(form, "correct")
    if correct:
        ledger.correct(session_id, correct, "chombo", offender=offender, riichi=riichi, confirmed_by="tablet")
        return _go(f"/s/{session_id}/history?corrected={correct}")
    ledger.add_chombo(session_id, offender, riichi=riichi, hand=number(form, "hand"), confirmed_by="tablet")
    return _go(f"/s/{session_id}")


@router.post("/s/{session_id}/undo")
def undo(session_id: str, form: FormDep, ledger: LedgerDep) -> Response:
    table.undo(ledger, session_id, number(form, "hand"), "tablet")
    return _go(f"/s/{session_id}/history")


@router.get("/s/{session_id}/history")
def history(request: Request, session_id: str, ledger: LedgerDep, settings: SettingsDep,
            corrected: int | None = None) -> Response:
    cfg = ledger.config(session_id)
    state = ledger.state(session_id)
    steps = ledger.history(session_id)
    chart = balance_chart(balance_series(cfg, steps, opening(cfg).balances))
    return render(request, "history.html", table_name=settings.table_name, s=session_view(cfg, state),
                  session_id=session_id, hands=[hand_view(cfg, st, "/api/snapshots/") for st in reversed(steps)],
                  chart=chart, corrected=corrected)
