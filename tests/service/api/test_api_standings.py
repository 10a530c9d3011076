"""Standings over the API: JSON and CSV from sessions played through the service (SQLite, and
PostgreSQL when LEDGER_TEST_POSTGRES_URL is set), a formula-like name written as text, bad queries."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timezone

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.ledger.standings import business_day
from table_fixtures import PIN, record

FORMULA = '=HYPERLINK("http://x","y")'


@pytest.fixture
def api(db_url, settings):
    settings = settings.model_copy(update={"db_url": db_url})
    with TestClient(create_app(settings, camera=False), headers={"X-Table-PIN": PIN}) as c:
        yield c


def play(c, rules: str, players: list[str], hands: list[tuple[str, dict]]) -> dict:
    sid = c.post("/api/sessions", json={"rules": rules, "players": players}).json()["id"]
    for kind, body in hands:
        r = c.post(f"/api/sessions/{sid}/{kind}", json=body)
        assert r.status_code == 201, r.text
    return c.get(f"/api/sessions/{sid}").json()


def test_json_standings_per_rule_and_all_rules(api):
    players = ["Aki", "Ben", "Chie"]
    # dunhill: Aki (east) tsumo, then Aki rons Ben (south): Ben deals in.
    d = play(api, "dunhill", players, [("wins", {"records": [record("east", "tsumo")]}),
                                       ("wins", {"records": [record("east", "ron", "south")]})])
    # isshokai: Aki (east) rons Chie (west), then a draw, nobody tenpai.
    i = play(api, "isshokai", players, [("wins", {"records": [record("east", "ron", "west", rules="isshokai",
                                                                     gari="4z")]}),
                                        ("draws", {"tenpai": []})])
    result = {s["rules"]: {b["player"]: b for b in s["balances"]} for s in (d, i)}

    every = api.get("/api/standings", params={"period": "all"}).json()
    assert every["rule"] == "all" and every["unit"] == "stick value" and "100 per point" in every["unit_words"]
    assert every["rules"] == ["dunhill", "isshokai"] and every["sessions"] == 2
    rows = {r["name"]: r for r in every["rows"]}
    for p in players:
        assert rows[p]["total"] == result["dunhill"][p]["in_sticks"] + result["isshokai"][p]["in_sticks"]
        assert rows[p]["sessions"] == 2 and rows[p]["hands"] == 4
    assert (rows["Aki"]["wins"], rows["Aki"]["tsumo_share"], rows["Aki"]["win_rate"]) == (3, round(1 / 3, 4), 0.75)
    assert (rows["Ben"]["deal_ins"], rows["Chie"]["deal_ins"], rows["Ben"]["deal_in_rate"]) == (1, 1, 0.25)
    assert rows["Aki"]["tops"] == 1 and rows["Aki"]["sticks"] == result["isshokai"]["Aki"]["result"]
    assert [r["total"] for r in every["rows"]] == sorted((r["total"] for r in every["rows"]), reverse=True)

    one = api.get("/api/standings", params={"period": "all", "rule": "dunhill"}).json()
    assert one["unit"] == "points" and one["sessions"] == 1
    assert {r["name"]: r["total"] for r in one["rows"]} == {p: result["dunhill"][p]["result"] for p in players}

    # today's business day and month (a session started now): both sessions; another day: none
    before = business_day(datetime.now(timezone.utc), "Asia/Tokyo", 6)
    day = api.get("/api/standings", params={"period": "day"}).json()
    month = api.get("/api/standings").json()                  # default: this month
    if business_day(datetime.now(timezone.utc), "Asia/Tokyo", 6) == before:      # not across 06:00 JST
        assert day["period"] == {"kind": "day", "value": before.isoformat()} and day["sessions"] == 2
        assert month["period"]["value"] == before.strftime("%Y-%m") and month["sessions"] == 2
    assert api.get("/api/standings", params={"period": "day", "date": "2001-01-01"}).json()["rows"] == []


def test_csv_writes_a_formula_like_name_as_text(api):
    play(api, "dunhill", [FORMULA, "-Ben", "Chie"], [("wins", {"records": [record("east", "ron", "south")]})])
    r = api.get("/api/standings.csv", params={"period": "all", "rule": "all"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="standings-all-all.csv"' in r.headers["content-disposition"]
    table = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    head, rows = table[0], {row[2]: dict(zip(table[0], row)) for row in table[1:]}
    assert "total (stick value: 100 per point, 1000 per stick)" in head
    assert set(rows) == {"'" + FORMULA, "'-Ben", "Chie"}        # text cells: a leading quote
    winner = rows["'" + FORMULA]
    assert int(winner["total (stick value: 100 per point, 1000 per stick)"]) > 0
    loser = rows["'-Ben"]
    assert loser["total (stick value: 100 per point, 1000 per stick)"].startswith("-")   # a number stays a number
    assert int(loser["deal-ins"]) == 1 and float(loser["deal-in rate"]) == 1.0
    # the JSON keeps the name as it is
    names = {x["name"] for x in api.get("/api/standings", params={"period": "all"}).json()["rows"]}
    assert FORMULA in names


@pytest.mark.parametrize("query, words", [
    ({"period": "week"}, "period: 'week' is not one of day, month, all"),
    ({"period": "day", "date": "2024-13-01"}, "date: '2024-13-01'"),
    ({"period": "day", "date": "yesterday"}, "date: 'yesterday'"),
    ({"period": "month", "month": "2024-5"}, "month: '2024-5'"),
    ({"rule": "mahjong"}, "rule: unknown rule 'mahjong'"),
])
def test_bad_queries_are_422_naming_what_is_wrong(client, query, words):
    for path in ("/api/standings", "/api/standings.csv"):
        r = client.get(path, params=query)
        assert r.status_code == 422 and r.json()["detail"].startswith(words), r.text
    assert client.get("/standings", params=query).status_code == 422


def test_a_known_rule_nobody_played_is_empty_and_the_pin_is_needed(client, settings):
    r = client.get("/api/standings", params={"rule": "chinton", "period": "all"})
    assert r.status_code == 200 and r.json()["rows"] == [] and r.json()["rules"] == []
    with TestClient(create_app(settings, camera=False)) as anon:
        assert anon.get("/api/standings").status_code == 401
        assert anon.get("/api/standings.csv").status_code == 401
