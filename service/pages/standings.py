"""Standings (成績表): per player over a day, a month or all time, per house rule.

One page, for a table (``/standings``, its PIN) and for the counter (``/counter/standings``, the
staff PIN): the period and rule choosers, a table sorted by a click on any header
(static/standings.js), each player's running total as a small chart, and links to
the same standings as CSV and JSON (api/standings.py).
"""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import SettingsDep
from ..standings_cache import StandingsDep
from ..standings_view import UNIT_JA, UNIT_WORDS, read, row_dict, small_chart
from .render import render

router = APIRouter()


@router.get("/standings")
def standings_page(request: Request, cache: StandingsDep, settings: SettingsDep, period: str = "month",
                   date: str = "", month: str = "", rule: str = "all") -> Response:
    table, rules = read(cache, settings, period, date, month, rule)
    names = cache.players()
    rows = []
    for r in table.rows:
        d = row_dict(r, names)
        d["chart"] = small_chart(d["name"], d["series"])
        rows.append(d)
    shown = table.period.value
    kind = table.period.kind
    # the links export what the page shows (a day or month left out of the query: the one shown)
    # the same page serves a table (its PIN) and the counter (/counter/standings, the staff PIN)
    counter = request.url.path.startswith("/counter/")
    query = urlencode({"period": kind, **({"date": shown} if kind == "day" else {}),
                       **({"month": shown} if kind == "month" else {}), "rule": table.rule or "all"})
    return render(request, "standings.html", table_name="カウンター counter" if counter else settings.table_name,
                  t=table, rows=rows, rules=rules,
                  rule=table.rule or "all", period=table.period.kind,
                  day=shown if table.period.kind == "day" else "",
                  month=shown if table.period.kind == "month" else "",
                  unit_words=UNIT_WORDS[table.unit], unit_ja=UNIT_JA[table.unit],
                  sticks=any(r["stick_sessions"] for r in rows), query=query, day_starts=settings.day_starts_hour,
                  page=request.url.path, home="/counter" if counter else "/",
                  api="/api/counter" if counter else "/api", home_url="/counter" if counter else "/")
