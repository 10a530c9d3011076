"""The standings as the page, the JSON and the CSV show them: the query read, names from the register.

A query names a period (``period`` = day, month or all; ``date`` YYYY-MM-DD, ``month``
YYYY-MM; without one, today's business day or month) and a rule (a rule's name, or
``all``). Bad input is a LedgerError (422) naming the parameter. Every rule together
is summed in stick value (100 per point, 1,000 per stick), and the headers say so.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import scoring

from . import house_rules
from .chart import balance_chart
from .csv_cells import safe_row
from .ledger import db
from .ledger.errors import LedgerError
from .ledger.players import Player
from .ledger.standings import STICK_VALUE, BestHand, Row, Standings, business_day, parse_period, standings
from .settings import Settings
from .standings_cache import StandingsCache

UNIT_WORDS = {"points": "points", "sticks": "sticks", STICK_VALUE: "stick value: 100 per point, 1000 per stick"}
UNIT_JA = {"points": "点", "sticks": "本", STICK_VALUE: "点棒換算 (1点=100, 1本=1000)"}


def read(cache: StandingsCache, settings: Settings, period: str = "month", date: str | None = None,
         month: str | None = None, rule: str | None = None) -> tuple[Standings, list[str]]:
    """The standings a query asks for, and the rules that have sessions (the rule chooser's)."""
    summaries = cache.summaries()
    today = business_day(db.clock(cache.ledger.engine), settings.timezone, settings.day_starts_hour)   # as hands are stamped
    chosen = parse_period(period, date or None, month or None, today=today)
    played = sorted({s.rule for s in summaries if s.steps})
    rule = None if rule in (None, "", "all") else rule
    if rule is not None and rule not in played and rule not in _known_rules(settings):
        raise LedgerError(f"rule: unknown rule {rule!r} (rules with sessions: {', '.join(played) or 'none'})")
    return standings(summaries, chosen, rule, cache.merged()), played


def _known_rules(settings: Settings) -> set[str]:
    """A built-in or one of the parlour's house rules: a known rule, if nobody played it yet."""
    return set(scoring.preset_ids()) | {c.name for c in house_rules.choices(settings.house_rules_dir)}


def _rate(x: float | None, places: int = 4) -> float | None:
    return None if x is None else round(x, places)


def best_dict(best: BestHand | None) -> dict[str, Any] | None:
    if best is None:
        return None
    return {"total": best.total, "value": best.value, "rule": best.rule, "session_id": best.session_id,
            "hand": best.hand, "day": best.day.isoformat(), "text": best.text}


def row_dict(row: Row, names: dict[int, Player]) -> dict[str, Any]:
    player = names.get(row.player_id)
    return {"player_id": row.player_id, "name": player.name if player else f"#{row.player_id}",
            "code": player.code if player else "", "sessions": row.sessions, "hands": row.hands,
            "wins": row.wins, "win_rate": _rate(row.win_rate), "deal_ins": row.deal_ins,
            "deal_in_rate": _rate(row.deal_in_rate), "tsumo": row.tsumo, "tsumo_share": _rate(row.tsumo_share),
            "total": row.total, "average": _rate(row.average, 2), "chombos": row.chombos,
            "best": best_dict(row.best), "stick_sessions": row.stick_sessions, "tops": row.tops,
            "sticks": row.sticks, "series": list(row.series)}


def to_json(table: Standings, names: dict[int, Player], rules: list[str]) -> dict[str, Any]:
    return {"period": {"kind": table.period.kind, "value": table.period.value},
            "rule": table.rule or "all", "unit": table.unit, "unit_words": UNIT_WORDS[table.unit],
            "sessions": table.sessions, "rules": rules, "rows": [row_dict(r, names) for r in table.rows]}


CSV_HEAD = ["player_id", "code", "name", "sessions", "hands", "wins", "win rate", "deal-ins", "deal-in rate",
            "tsumo wins", "tsumo share", "total ({})", "average ({})", "chombos", "best hand total",
            "best hand rule", "best hand day", "best hand session", "best hand number", "best hand",
            "stick games", "tops", "sticks"]


def to_csv(table: Standings, names: dict[int, Player]) -> str:
    """One row per player; text cells through csv_cells (never a formula), numbers as numbers."""
    out = io.StringIO()
    w = csv.writer(out)
    words = UNIT_WORDS[table.unit]
    w.writerow(safe_row(h.format(words) for h in CSV_HEAD))
    for row in table.rows:
        d = row_dict(row, names)
        b = d["best"] or {}
        w.writerow(safe_row([d["player_id"], d["code"], d["name"], d["sessions"], d["hands"], d["wins"],
                             _blank(d["win_rate"]), d["deal_ins"], _blank(d["deal_in_rate"]), d["tsumo"],
                             _blank(d["tsumo_share"]), d["total"], _blank(d["average"]), d["chombos"],
                             _blank(b.get("total")), b.get("rule", ""), b.get("day", ""),
                             b.get("session_id", ""), _blank(b.get("hand")), b.get("text", ""),
                             d["stick_sessions"], d["tops"], d["sticks"]]))
    return out.getvalue()


def _blank(x: Any) -> Any:
    return "" if x is None else x


CHART_POINTS = 60      # a 260-pixel chart shows no more; the JSON keeps every session


def small_chart(name: str, series: list[int]) -> str:
    """A player's running total over their sessions, from 0: chart.py's chart, drawn small, with
    at most CHART_POINTS points (evenly spaced, the last always kept)."""
    points = [0, *series]
    if len(points) > CHART_POINTS:
        step = (len(points) - 1) / (CHART_POINTS - 1)
        points = [points[round(i * step)] for i in range(CHART_POINTS)]
    return balance_chart({name: points}, width=260, height=96, pad=32)
