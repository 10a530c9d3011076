"""The counter's JSON (staff PIN): every table at a glance, a session's settlement in yen, the prices.

What the counter shows is built here as plain dicts (``tables_view``, ``settlement_view``); the
counter's pages (pages/counter.py) render the same dicts.

A table is ``offline`` when its last heartbeat is older than three of its beats (or it stopped:
heartbeat.py); otherwise ``in session`` when its session (the one a tablet shows, else its newest)
is not over and its last hand (or its start, before the first hand) is within
``TABLE_IDLE_MINUTES``, else ``idle``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, Strict

from .. import heartbeat, house_rules
from ..deps import ParlourDep, SettingsDep
from ..errors import ServiceError
from ..ledger import Ledger, SessionConfig, UnknownSession, db, money, settle
from ..ledger.events import HAND_KINDS
from ..read_tally import reads_poorly
from ..settings import Settings
from ..views import session_view, summary

router = APIRouter(tags=["counter"])


class PriceIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rule: str = Field(description="a built-in or a house rule, by name")
    # strict: JSON true is no price (it was read as ¥1)
    rate: Annotated[float, Strict()] = Field(description="yen per point of the result (isshokai: per stick), 0 or more")
    fee: Annotated[float, Strict()] = Field(0, description="the table fee (場代) per player, in yen, 0 or more")
    fee_per: Literal["game", "hour"] = Field("game", description="the fee once per session, or per started hour")


@router.get("/tables", summary="every table at a glance")
def tables(parlour: ParlourDep, settings: SettingsDep) -> list[dict]:
    return tables_view(parlour, settings)


@router.get("/sessions/{session_id}/settlement", summary="a session's settlement in yen, player by player")
def settlement(session_id: str, parlour: ParlourDep) -> dict:
    return settlement_view(parlour, session_id)


@router.get("/prices", summary="every rule's price (the defaults where none is set)")
def prices(parlour: ParlourDep, settings: SettingsDep) -> list[dict]:
    return [p.to_dict() for p in price_list(parlour, settings)]


@router.put("/prices", summary="set one rule's price")
def put_price(body: PriceIn, parlour: ParlourDep, settings: SettingsDep) -> dict:
    return save_price(parlour, settings, body.rule, body.rate, body.fee, body.fee_per).to_dict()


@router.delete("/sessions/{session_id}", status_code=204, summary="take away a session started by mistake "
               "(only one with nothing logged)")
def discard_session(session_id: str, parlour: ParlourDep) -> None:
    parlour.discard(session_id)


class MergeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    gone: str | int = Field(description="the player entered twice: id, member code or a name only one player has")
    kept: str | int = Field(description="the player they are: id, member code or a name only one player has")


@router.post("/players/merge", summary="merge a player entered twice into the one kept")
def merge_players(body: MergeIn, parlour: ParlourDep) -> dict:
    return parlour.merge_players(body.gone, body.kept).to_dict()


@router.post("/players/{player_id}/unmerge", summary="undo a merge: the player stands alone again")
def unmerge_player(player_id: int, parlour: ParlourDep) -> dict:
    return parlour.unmerge_player(player_id).to_dict()


# -- what the counter shows ------------------------------------------------------------------------

def known_rules(parlour: Ledger, settings: Settings) -> list[str]:
    """Rules a price may be set for: the built-ins and house rules now, then any rule a stored session
    played (a house rule since deleted still settles)."""
    # each rule once: a file named for a built-in (put there by hand) is listed broken, and was a second row
    names = list(dict.fromkeys(c.name for c in house_rules.choices(settings.house_rules_dir)))
    played = sorted(parlour.rules_played() - set(names))
    return names + played


def price_list(parlour: Ledger, settings: Settings) -> list[money.Price]:
    stored = money.prices(parlour.engine)
    return [stored.get(rule) or money.Price(rule) for rule in known_rules(parlour, settings)]


def save_price(parlour: Ledger, settings: Settings, rule: str, rate: Any, fee: Any, fee_per: Any) -> money.Price:
    rules = known_rules(parlour, settings)
    if rule not in rules:
        raise ServiceError(f"no rule {rule!r} to price: rules are {', '.join(rules)}", 422)
    return money.set_price(parlour.engine, rule, rate, fee, fee_per)


def tables_view(parlour: Ledger, settings: Settings, now: datetime | None = None) -> list[dict]:
    """Each table that ever beat: online or not, its state, rule, points, last hand, warnings."""
    now = now or db.clock(parlour.engine)    # beats and hands are stamped by the database's clock
    newest, counts = parlour.latest_sessions(), parlour.session_counts()    # a query each, not a year of sessions
    out = []
    for row in heartbeat.tables(parlour.engine):
        s = row.status
        online = row.online(now, settings.heartbeat_s)
        shown = _shown(parlour, row.name, s.get("session")) or newest.get(row.name)
        try:
            session = _session_glance(parlour, shown, now, settings.idle_minutes) if shown is not None else None
        except UnknownSession:          # taken away meanwhile (the counter's 取消): the table shows none
            session = None
        warnings = []
        if online and s.get("camera") == "lost":
            warnings.append(f"camera lost: {s.get('camera_error') or 'no frame'}")
        if online and s.get("camera") == "none":
            warnings.append("no camera")
        if online and not s.get("calibrated"):
            warnings.append("not calibrated")
        if poorly := reads_poorly(s.get("reads")):
            warnings.append(poorly)
        if online and s.get("twin"):
            warnings.append("two services beat as this table: give each its own TABLE_TABLE_NAME")
        if row.default_rule and heartbeat.rule_missing(s, row.default_rule):
            warnings.append(f"its default rule {row.default_rule!r} is not in its rules folder: give every table "
                            "one rules folder (TABLE_RULES_DIR)")
        state = "offline" if not online else ("in session" if session and session["active"] else "idle")
        out.append({"name": row.name, "online": online, "stopped": bool(s.get("stopped")), "state": state,
                    "seen_at": row.seen_at.isoformat(), "seen_ago_s": round((now - row.seen_at).total_seconds()),
                    "camera": s.get("camera"), "camera_error": s.get("camera_error", ""),
                    "calibrated": bool(s.get("calibrated")), "reader": s.get("reader", ""),
                    "default_rule": row.default_rule or s.get("default_rule") or "",
                    "default_rule_chosen": row.default_rule, "sessions": counts.get(row.name, 0), "session": session,
                    "reads": s.get("reads") or {},
                    "warnings": warnings})
    return out


def _shown(parlour: Ledger, table: str, session_id: str | None):
    """The session the table's tablet shows, if it is that table's."""
    if not session_id:
        return None
    try:
        cfg = parlour.config(session_id)
    except UnknownSession:
        return None
    return cfg if cfg.table_name == table else None


def _session_glance(parlour: Ledger, cfg, now: datetime, idle_minutes: float) -> dict:
    state, slots = parlour.state_and_slots(cfg.id)
    view = session_view(cfg, state)
    last = _last_hand(parlour, cfg.id, slots)
    since = last["at_time"] if last else cfg.created_at
    active = not state.over and since is not None and (now - since).total_seconds() <= idle_minutes * 60
    if last:
        last = {k: v for k, v in last.items() if k != "at_time"}
    return {"id": cfg.id, "rules": cfg.rules, "label": cfg.label, "hands": state.hands, "over": state.over,
            "started_at": cfg.created_at.isoformat() if cfg.created_at else None, "active": active,
            "balances": [{"player": b["player"], "balance": b["balance"]} for b in view["balances"]],
            "pool": state.pool, "unit": cfg.table.unit, "last_hand": last}


def _last_hand(parlour: Ledger, session_id: str, slots=None) -> dict | None:
    """The last hand that counts: number, kind, winners, its summary and when it was first logged
    (a corrected hand: when the hand it corrects was)."""
    slots = parlour.slots(session_id) if slots is None else slots
    if not slots:
        return None
    slot = slots[-1]
    at = slot.event.created_at
    if slot.corrected_by:           # the event filling the slot is the correction: find the hand's own
        logged = {e.seq: e.created_at for e in parlour.events(session_id) if e.kind in HAND_KINDS}
        at = logged.get(slot.slot) or at
    body = slot.body
    winners = [w["winner"] for w in body.get("wins", [])]
    return {"number": slot.number, "kind": slot.kind, "winners": winners, "summary": summary(slot.kind, body),
            "at": at.isoformat() if at else None, "at_time": at}


def rule_title(cfg: SessionConfig) -> str:
    """The rule as the players know it (its names as stored with the session: 東天紅 Toutenkou),
    else its file name."""
    data = cfg.preset.data if cfg.preset is not None else {}
    return " ".join(n for n in (data.get("name_ja"), data.get("name_en")) if n) or cfg.rules


def settlement_view(parlour: Ledger, session_id: str) -> dict:
    """A session's settlement: each player's result, the rule's price, the fee, the yen to pay or
    receive, with the register's current name and code."""
    cfg = parlour.config(session_id)
    state, slots = parlour.state_and_slots(session_id)
    lines = settle(cfg, state)
    price = money.price_at(parlour.engine, cfg.rules, cfg.created_at)      # in force when it started
    last = _last_hand(parlour, session_id, slots)
    last_at = last["at_time"] if last else None
    people = parlour.players_by_id(cfg.player_ids) if cfg.player_ids else {}
    players = []
    for m, line in zip(money.settle_money(lines, price, cfg.created_at, last_at, played=state.hands > 0), lines):
        p = people.get(cfg.player_ids[m.seat]) if cfg.player_ids else None
        players.append({**m.to_dict(), "name": p.name if p else m.player, "code": p.code if p else "",
                        "held": line.held, "top": line.top})
    return {"session": {"id": cfg.id, "table": cfg.table_name, "rule": cfg.rules, "rule_title": rule_title(cfg),
                        "label": cfg.label,
                        "unit": cfg.table.unit, "hands": state.hands, "over": state.over, "pool": state.pool,
                        # anything in its log (a hand undone too): a session with a log is kept
                        "logged": state.hands > 0 or bool(parlour.events(session_id)),
                        "started_at": cfg.created_at.isoformat() if cfg.created_at else None,
                        "last_hand_at": last_at.isoformat() if last_at else None},
            "price": price.to_dict(),
            "fee_units": money.fee_units(price, cfg.created_at, last_at) if state.hands else 0,
            "players": players}


def receipt_view(parlour: Ledger, session_id: str, seat: int) -> dict:
    """One player's line of the settlement, with the session's facts (404 for a seat that is none)."""
    view = settlement_view(parlour, session_id)
    if not 0 <= seat < len(view["players"]):
        raise UnknownSession(f"no seat {seat} in session {session_id}: seats are 0, 1 and 2")
    return {**view, "player": view["players"][seat]}
