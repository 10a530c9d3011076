"""The tablet's pages: log in with the PIN, start a session, the table page, draws, chombos,
undo, and the history with its chart and exports."""

from __future__ import annotations

from fastapi import APIRouter, BackgroundTasks, Request
from fastapi.responses import RedirectResponse, Response

import scoring

from .. import heartbeat, house_rules, table
from ..chart import balance_chart
from ..deps import (TABLE_COOKIE, AfterConfirmDep, LedgerDep, OffersDep, SettingsDep, SnapshotsDep, TilesDep,
                    WatcherDep, checked_pin, table_scope)
from ..editing import Draft
from ..errors import ServiceError
from ..ledger import Ledger, opening
from ..ledger.events import HAND_KINDS
from ..ledger.players import clean_kana
from ..views import balance_series, hand_view, session_view
from .forms import FormDep, number, text, texts
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
    if not checked_pin(request, settings.table_pin, pin):
        return render(request, "login.html", 401, table_name=settings.table_name, wrong=True)
    response = RedirectResponse("/", status_code=303)
    ttl_s = settings.tablet_login_days * 86400
    token = request.app.state.tokens.issue(table_scope(settings), settings.table_pin, ttl_s)
    response.set_cookie(TABLE_COOKIE, token, httponly=True, samesite="strict", max_age=int(ttl_s))
    return response


@router.get("/")
def index(request: Request, ledger: LedgerDep, settings: SettingsDep) -> Response:
    sessions = [session_view(cfg, ledger.state(cfg.id)) for cfg in reversed(ledger.sessions())]
    choices = house_rules.choices(settings.house_rules_dir)     # built-ins, then the parlour's house rules
    usable = [c.name for c in choices if c.error is None]
    # the counter's choice for this table first, then the service's own setting, then the first built-in
    chosen = heartbeat.default_rule(ledger.engine, settings.table_name)
    default = next((r for r in (chosen, settings.default_rule) if r in usable), usable[0])
    return render(request, "index.html", table_name=settings.table_name, sessions=sessions,
                  rules=scoring.preset_ids(), rule_choices=choices, default_rule=default)


@router.post("/sessions")
def start(form: FormDep, ledger: LedgerDep, settings: SettingsDep) -> Response:
    """Start a session of the three players typed or picked (players.py): a name nobody has joins
    the register, with the reading typed beside it; a name two players share is refused (422)
    naming their member codes, and nothing is written."""
    rules = text(form, "rules")
    if not rules:      # else a built-in or a house rule, resolved and stored by the ledger (422 if not)
        raise ServiceError(f"choose a house rule: {', '.join(scoring.preset_ids())}")
    players = [text(form, f"player{i}") for i in (1, 2, 3)]
    kanas = [text(form, f"kana{i}") for i in (1, 2, 3)]
    for kana in filter(None, kanas):    # checked before anything is written: a refusal leaves no session behind
        clean_kana(kana)
    cfg = ledger.start(rules, players, dealer=text(form, "dealer") or None, label=text(form, "label"))
    if text(form, "table_default"):     # the rule the new-session page offers first here (as the counter sets it)
        heartbeat.set_default_rule(ledger.engine, settings.table_name, rules)
    for pid, kana in zip(cfg.player_ids or (), kanas):
        # the reading fills a blank one only: a regular's reading is changed in the register, not here
        if kana and not ledger.player(pid).kana:
            ledger.rename_player(pid, kana=kana)
    return _go(f"/s/{cfg.id}")


def last_hand(ledger: Ledger, session_id: str):
    """The event of the session's last hand (a win, draw or chombo) logged; None before the first."""
    return next((e for e in reversed(ledger.events(session_id)) if e.kind in HAND_KINDS), None)


def counted(snapshot: str | None, store, offers) -> dict:
    """The snapshot (and its reading, while remembered) of a hand being corrected: the correction's
    Confirm names it again, so what the count taught (its labels, its tally, the tile set) follows
    the fix. Nothing where the hand names none, or no longer one on disk."""
    if not snapshot or store.path(snapshot) is None:
        return {}
    found = offers.reading(snapshot)
    return dict(snapshot=snapshot) | (dict(reading=found[0], size=found[1]) if found else {})


@router.get("/s/{session_id}")
def table_page(request: Request, session_id: str, ledger: LedgerDep, settings: SettingsDep, offers: OffersDep,
               watcher: WatcherDep, store: SnapshotsDep, tiles: TilesDep, correct: int | None = None,
               recorded: int | None = None) -> Response:
    at = table_at(ledger, session_id, correct)
    cfg, state = at["cfg"], at["state"]
    offers.session = session_id            # the watcher reads for the session a tablet shows
    draft, shown, corrected = Draft(meld_from=""), {}, None
    if correct:
        hand = ledger.slots(session_id)[correct - 1]
        corrected = hand
        if hand.kind == "win":
            draft = Draft.from_logged(hand.body)
            shown = counted(hand.event.snapshot, store, offers)
    else:                                   # a win the watcher read and nobody logged yet: open with it
        last = last_hand(ledger, session_id)
        # read after this session's last hand, or after its start: a reading from before it started
        # is the last session's hand, and a picture logged as a hand anywhere is that hand
        pending = offers.pending(last.created_at if last else cfg.created_at, last and last.snapshot)
        if pending is not None and table.logged_already(ledger, session_id, pending.snapshot,
                                                        pending.reading.record, offers) is not None:
            pending = None
        if pending is not None and pending.reading.record is not None:
            # read at its deal's seats: turned to this deal's (a hand taken back since, a dealer moved)
            reading = table.drafted(ledger, session_id, pending, offers, tiles)
            draft = Draft.from_record(reading.record)
            shown = dict(snapshot=pending.snapshot, reading=reading, size=pending.size, offer=pending.id)
    latest = offers.latest
    return render(request, "table.html", table_name=settings.table_name, s=session_view(cfg, state),
                  recorded=recorded, camera=request.app.state.camera is not None,
                  reader=request.app.state.reader.name,
                  reader_message=getattr(request.app.state.reader, "message", ""), oob_snapshot=False,
                  corrected=corrected, watch=watcher.status() if watcher is not None else None,
                  seq=ledger.last_seq(session_id),
                  since=latest.id if latest is not None else 0,
                  **work_context(ledger, session_id, draft, correct=correct, unsure_score=settings.unsure_score,
                                 **shown))


def posted_riichi(form) -> list[str]:
    """The riichi of a draw or chombo form as the ledger takes it: a name ticked under 立直, or
    "name:open" ticked under オープン (dunhill: 2 sticks), a riichi whether or not its 立直 box is.
    ``penalty``, posted the same way, is a name once for each 罰符 (a player may pay two)."""
    opened = texts(form, "riichi_open")
    return [r for r in texts(form, "riichi") if r not in opened] + [f"{n}:open" for n in opened]


@router.post("/s/{session_id}/draw")
def draw(session_id: str, form: FormDep, ledger: LedgerDep, after: AfterConfirmDep,
         background: BackgroundTasks) -> Response:
    tenpai, riichi, penalties = texts(form, "tenpai"), posted_riichi(form), texts(form, "penalty")
    correct = number(form, "correct")
    if correct:
        table.correct(ledger, session_id, correct, "draw", tenpai=tenpai, riichi=riichi, seen=number(form, "seen"),
                      penalties=penalties, confirmed_by="tablet", after=after, background=background)
        return _go(f"/s/{session_id}/history?corrected={correct}")
    ledger.add_draw(session_id, tenpai, riichi=riichi, penalties=penalties, hand=number(form, "hand"),
                    confirmed_by="tablet")
    return _go(f"/s/{session_id}")


@router.post("/s/{session_id}/chombo")
def chombo(session_id: str, form: FormDep, ledger: LedgerDep, after: AfterConfirmDep,
           background: BackgroundTasks) -> Response:
    offender, riichi, penalties = text(form, "offender"), posted_riichi(form), texts(form, "penalty")
    if not offender:
        raise ServiceError("choose who made the chombo")
    correct = number(form, "correct")
    if correct:
        table.correct(ledger, session_id, correct, "chombo", offender=offender, riichi=riichi,
                      seen=number(form, "seen"), penalties=penalties, confirmed_by="tablet", after=after,
                      background=background)
        return _go(f"/s/{session_id}/history?corrected={correct}")
    ledger.add_chombo(session_id, offender, riichi=riichi, penalties=penalties, hand=number(form, "hand"),
                      confirmed_by="tablet")
    return _go(f"/s/{session_id}")


@router.post("/s/{session_id}/undo")
def undo(session_id: str, form: FormDep, ledger: LedgerDep, after: AfterConfirmDep,
         background: BackgroundTasks) -> Response:
    table.undo(ledger, session_id, number(form, "hand"), "tablet", after, background)
    return _go(f"/s/{session_id}/history")


@router.get("/s/{session_id}/history")
def history(request: Request, session_id: str, ledger: LedgerDep, settings: SettingsDep, store: SnapshotsDep,
            corrected: int | None = None) -> Response:
    cfg = ledger.config(session_id)
    state = ledger.state(session_id)
    steps = ledger.history(session_id)
    chart = balance_chart(balance_series(cfg, steps, opening(cfg).balances))
    hands = [hand_view(cfg, st, "/api/snapshots/") for st in reversed(steps)]
    for h in hands:     # a picture deleted after TABLE_SNAPSHOT_KEEP_LOGGED_DAYS: no broken image
        if h["snapshot"] and store.path(h["snapshot"]) is None:
            h["snapshot_url"] = None
    return render(request, "history.html", table_name=settings.table_name, s=session_view(cfg, state),
                  session_id=session_id, hands=hands, chart=chart, corrected=corrected)
