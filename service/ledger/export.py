"""Export a session as JSON (the whole log, re-importable) or CSV (one row per hand that counts).

The JSON carries the session's stored rule whole (``session.rule``: its data,
options, name, base and digest), so an import counts with it in any database;
each CSV row names the table, the session's label, the rule and its digest.

Every text cell of the CSV (a player's name, a label, the table's name) goes
through ``csv_cells.text_cell``: one that begins with ``=``, ``+``, ``-`` or
``@`` is written with a leading ``'``, so a spreadsheet shows it as text and
never runs it as a formula. Numbers (a -6 paid) are written as numbers.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any, Mapping

from ..csv_cells import safe_row
from .derive import SessionConfig
from .errors import LedgerError
from .events import KINDS, Event
from .repo import Ledger

FORMAT = "toutenkou-ledger/1"


def to_json(ledger: Ledger, session_id: str) -> dict[str, Any]:
    cfg = ledger.config(session_id)
    session = _session(cfg)
    if cfg.player_ids:       # who sat, as the register knows them now: an import finds them by code
        people = ledger.players_by_id(cfg.player_ids)
        session["seats"] = [{"name": p.name, "kana": p.kana, "code": p.code} if p else None
                            for p in (people.get(i) for i in cfg.player_ids)]
    rule = ledger.stored_rule(session_id)
    if rule is not None:
        session["rule"] = rule
    return {"format": FORMAT, "session": session,
            "events": [e.to_dict() for e in ledger.events(session_id)]}


def dumps(ledger: Ledger, session_id: str) -> str:
    return json.dumps(to_json(ledger, session_id), ensure_ascii=False, indent=1, sort_keys=True)


def from_json(ledger: Ledger, data: Any) -> SessionConfig:
    """Import a JSON export into ``ledger``; the session keeps its id and its whole log."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise LedgerError(f"not a ledger export (want \"format\": \"{FORMAT}\")")
    events, session = data.get("events"), data.get("session")
    if not isinstance(events, list) or not all(isinstance(e, Mapping) for e in events):
        raise LedgerError('not a ledger export: "events" must be a list of objects')
    if not isinstance(session, Mapping):
        raise LedgerError('not a ledger export: "session" must be an object')
    try:
        events = [Event.from_dict(e) for e in events]
        created = session.get("created_at")
        created = datetime.fromisoformat(created) if created else None
    except (KeyError, TypeError, ValueError) as e:
        raise LedgerError(f"not a ledger export: bad event or session ({e})") from None
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(events) + 1)) or any(e.kind not in KINDS for e in events):
        raise LedgerError("not a ledger export: events must be numbered 1..n with known kinds")
    return ledger.import_session(session, events, created)


def to_csv(ledger: Ledger, session_id: str) -> str:
    """One row per hand that counts: what happened, who paid what, and the state after."""
    cfg = ledger.config(session_id)
    out = io.StringIO()
    w = csv.writer(out)
    p = cfg.players
    w.writerow(safe_row(["hand", "kind", "winners", "discarder", "dealer", "honba", "riichi"]
                        + [f"{x} change" for x in p] + ["pool change"] + [f"{x} balance" for x in p]
                        + ["pool", "next dealer", "next honba", "confirmed_by", "created_at", "snapshot",
                           "corrected", "table", "label", "rules", "rule digest"]))
    for step in ledger.history(session_id):
        b, e = step.slot.body, step.slot.event
        if step.slot.kind == "win":
            who = " ".join(x["winner"] for x in b["wins"])
        elif step.slot.kind == "draw":
            who = "tenpai: " + " ".join(b.get("tenpai", []))
        else:
            who = "chombo: " + b["offender"]
        if b.get("penalties"):
            who += "; penalty: " + " ".join(b["penalties"])
        a = step.after
        w.writerow(safe_row([step.slot.number, step.slot.kind, who, b.get("discarder") or "",
                             b["seats"]["east"], b["honba"],
                             " ".join(f"{k}:{v}" for k, v in b.get("riichi", {}).items())]
                            + list(step.deltas) + [step.pool_delta] + list(a.balances)
                            + [a.pool, p[a.dealer], a.honba, e.confirmed_by or "",
                               e.created_at.isoformat() if e.created_at else "", e.snapshot or "",
                               " ".join(map(str, step.slot.corrected_by)), cfg.table_name, cfg.label,
                               cfg.rules, cfg.rule_digest or ""]))
    return out.getvalue()


def _session(cfg: SessionConfig) -> dict[str, Any]:
    # its start: the business day, the price in force and the hours of the fee follow it
    return {"id": cfg.id, "rules": cfg.rules, "players": list(cfg.players),
            "first_dealer": cfg.first_dealer, "table_overrides": dict(cfg.overrides),
            "label": cfg.label, "table_name": cfg.table_name,
            "created_at": cfg.created_at.isoformat() if cfg.created_at else None}
