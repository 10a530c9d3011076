"""What the tablet shows before Confirm is what the ledger logs: a double ron's preview pays
the honba as the table's rule says (chinton: to the head winner only, 積み棒も上家取り)."""

from __future__ import annotations

import json
import re

from table_fixtures import PLAYERS

# chinton's two pinzu hands off east (tests/service/ledger/ledger_play.py): west's hatsu, south's chun
WEST = {"seat": "west", "win": "ron", "discarder": "east", "concealed": "11p234p678p999p666z",
        "win_tile": "6p", "gari": "1m"}
SOUTH = {"seat": "south", "win": "ron", "discarder": "east", "concealed": "234p678p123p66p777z",
         "win_tile": "6p", "gari": "1m"}


def _shown(html: str) -> dict[str, int]:
    """Each winner's total as the preview shows it."""
    return {name: int(total) for name, total in
            re.findall(r"<h3>(\w+)</h3>.*?id=\"total\">(\d+)</b>", html, re.S)}


def test_a_double_ron_preview_pays_the_honba_as_the_ledger_will(client):
    sid = client.post("/api/sessions", json={"rules": "chinton", "players": list(PLAYERS)}).json()["id"]
    assert client.post(f"/api/sessions/{sid}/draws", json={"tenpai": ["Aki"]}).status_code == 201  # 1 honba
    form = {**SOUTH, "first": json.dumps({**WEST, "rules": "chinton"}), "hand": "2"}
    preview = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert preview.status_code == 200, preview.text
    shown = _shown(preview.text)
    assert sorted(shown) == ["Ben", "Chie"]               # south is Ben, west is Chie
    confirmed = client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"})
    assert confirmed.status_code == 204, confirmed.text
    logged = client.get(f"/api/sessions/{sid}/hands").json()["hands"][-1]
    paid = {logged["seats"][r["seat"]]: total for r, total in zip(logged["records"], logged["totals"])}
    assert shown == paid
    assert paid == {"Ben": 9, "Chie": 8}                   # the head (Ben, first after east) has the honba
