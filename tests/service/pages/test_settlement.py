"""The history page shows the settlement as it would stand if the session ended now: points
games pay their balance at 100 a point; isshokai returns 30 sticks and pays the top +15."""

from __future__ import annotations

import re

from table_fixtures import PLAYERS, record


def _settlement(html: str) -> dict[str, tuple[str, str]]:
    table = re.search(r'<table class="list settlement" id="settlement">(.*?)</table>', html, re.S).group(1)
    rows = re.findall(r'<tr data-player="(\w+)">.*?class="num result">([^<]*)</td>\s*<td class="num">([^<]*)</td>',
                      table, re.S)
    return {player: (result, paid) for player, result, paid in rows}


def test_isshokai_settles_thirty_returned_and_the_top_bonus(client):
    sid = client.post("/api/sessions", json={"rules": "isshokai", "players": list(PLAYERS)}).json()["id"]
    # no hand played: nothing to settle (no return of 30, no top's +15 for the first seat)
    assert _settlement(client.get(f"/s/{sid}/history").text) == {p: ("+0", "+0") for p in PLAYERS}
    # a draw, Ben alone tenpai: Aki and Chie pay him a stick each (24, 27, 24); Ben is top, 27 - 30 + 15
    assert client.post(f"/api/sessions/{sid}/draws", json={"tenpai": ["Ben"]}).status_code == 201
    shown = _settlement(client.get(f"/s/{sid}/history").text)
    assert shown == {"Aki": ("-6", "-6,000"), "Ben": ("+12", "+12,000"), "Chie": ("-6", "-6,000")}
    api = {b["player"]: b["result"] for b in client.get(f"/api/sessions/{sid}").json()["balances"]}
    assert {p: int(r) for p, (r, _) in shown.items()} == api


def test_a_points_game_pays_its_balance_at_a_hundred_a_point(client, session):
    assert client.post(f"/api/sessions/{session['id']}/wins", json={"records": [record()]}).status_code == 201
    balances = {b["player"]: b["balance"] for b in client.get(f"/api/sessions/{session['id']}").json()["balances"]}
    shown = _settlement(client.get(f"/s/{session['id']}/history").text)
    assert {p: (f"{b:+d}", f"{b * 100:+,}") for p, b in balances.items()} == shown
    assert sum(balances.values()) == 0 and max(balances.values()) > 0
