"""Standings as JSON and CSV: per player over a day, a month or all time, per house rule.

``GET /api/standings?period=month&month=2024-05&rule=dunhill`` (``period`` day with
``date`` YYYY-MM-DD, month with ``month`` YYYY-MM, or all; ``rule`` a rule's name or
all: every rule summed in stick value). Bad input: 422 naming the parameter.
"""

from __future__ import annotations

from fastapi import APIRouter, Response

from ..csv_cells import for_spreadsheets
from ..deps import SettingsDep
from ..standings_cache import StandingsDep
from ..standings_view import read, to_csv, to_json

router = APIRouter(tags=["standings"])


@router.get("/standings", summary="standings per player (成績表) over a period, per rule")
def standings_json(cache: StandingsDep, settings: SettingsDep, period: str = "month", date: str = "",
                   month: str = "", rule: str = "all") -> dict:
    table, rules = read(cache, settings, period, date, month, rule)
    return to_json(table, cache.players(), rules)


@router.get("/standings.csv", summary="the standings as CSV, one row per player")
def standings_csv(cache: StandingsDep, settings: SettingsDep, period: str = "month", date: str = "",
                  month: str = "", rule: str = "all") -> Response:
    table, _ = read(cache, settings, period, date, month, rule)
    name = f"standings-{table.period.value}-{table.rule or 'all'}.csv"
    return Response(for_spreadsheets(to_csv(table, cache.players())), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})
