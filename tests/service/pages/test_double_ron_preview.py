"""What the tablet shows before Confirm is what the ledger logs: a double ron's preview pays
the honba as the table's rule says (chinton: to the head winner only, 積み棒も上家取り)."""

from __future__ import annotations

import json
import re

import pytest

from scoring.tiles import parse_mpsz
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


def _double_ron(client, rules="dunhill"):
    """A session and south's ron off east, Chie (west) ticked among others' riichi, made a double ron:
    the second draft's form, as the page wrote it."""
    from test_snapshot_fix import EditorForm
    sid = client.post("/api/sessions", json={"rules": rules, "players": list(PLAYERS)}).json()["id"]
    form = {"seat": "south", "win": "ron", "discarder": "east", "concealed": "123789p234s666z22z",
            "win_tile": "2z", "dora_indicators": "3p", "riichi_others": "Chie", "melds": "[]", "op": "double"}
    doubled = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert doubled.status_code == 200, doubled.text
    return sid, EditorForm(doubled.text).values


def _logged(client, sid):
    hand = client.get(f"/api/sessions/{sid}/hands").json()["hands"][-1]
    return hand, {r["seat"]: r for r in hand["records"]}


def test_a_riichi_ticked_for_the_player_who_becomes_the_second_winner_is_her_riichi(client):
    """Chie declared riichi and was ticked among others' riichi; the double ron made her its second
    winner. Her draft opened with 立直 unticked and her box gone: the ledger logged no riichi for her,
    no stick and no riichi counted, and nothing on screen said so."""
    from test_snapshot_fix import EditorForm
    sid, second = _double_ron(client)
    assert second["seat"] == "west" and second.get("riichi")                 # her 立直, ticked
    form = {**second, "concealed": "234p567p789p11s555z", "win_tile": "1s", "op": ""}
    shown = EditorForm(client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"}).text).values
    assert shown.get("riichi") and "Chie" not in shown.get("riichi_others", "")
    assert client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"}).status_code == 204
    hand, records = _logged(client, sid)
    assert records["west"].get("riichi") is True
    assert "Chie" in hand["riichi"]                                           # her stick is on the table


def test_a_dora_indicator_fixed_in_the_second_draft_is_the_first_winner_s_too(client):
    """One dead wall: the players corrected the indicator (3p read, 1p lies there) in the second
    winner's draft. The first winner, held apart, was paid on the 3p just corrected."""
    sid, second = _double_ron(client)
    form = {**second, "concealed": "234p567p789p11s555z", "win_tile": "1s", "dora_indicators": "1p", "op": ""}
    r = client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"})
    assert r.status_code == 204, r.text
    _, records = _logged(client, sid)
    assert records["south"]["dora_indicators"] == records["west"]["dora_indicators"] == "1p"


def test_a_first_record_whose_seat_is_no_text_is_refused_not_a_500(client):
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": list(PLAYERS)}).json()["id"]
    form = {**WEST, "rules": "dunhill", "discarder": "south",
            "first": json.dumps({**SOUTH, "seat": [1], "rules": "dunhill"}), "melds": "[]"}
    for route in ("edit", "confirm"):
        r = client.post(f"/s/{sid}/{route}", data=form, headers={"HX-Request": "true"})
        assert r.status_code == 422 and "its seat must be text" in r.text
    assert client.get(f"/api/sessions/{sid}/hands").json()["hands"] == []


def test_either_winner_of_a_logged_double_ron_can_be_corrected(client):
    """The correction opened the last winner's hand with the other held: the head winner's could
    be reached only by 取消, which turned the double ron into one ron (ダブロン is not offered in
    a correction). もう一人を直す brings the held hand to the editor, the other held in its turn."""
    from test_snapshot_fix import EditorForm
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": list(PLAYERS)}).json()["id"]
    south = {"rules": "dunhill", "seat": "south", "win": "ron", "discarder": "east",
             "concealed": "123789p234s666z22z", "win_tile": "2z"}
    west = {"rules": "dunhill", "seat": "west", "win": "ron", "discarder": "east",
            "concealed": "234p567p789p11s555z", "win_tile": "1s"}
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [south, west], "hand": 1}).status_code == 201
    opened = client.get(f"/s/{sid}?correct=1")
    assert 'id="swap"' in opened.text
    shown = EditorForm(opened.text).values
    assert (shown["seat"], json.loads(shown["first"])["seat"]) == ("west", "south")     # south: the head
    other = EditorForm(client.post(f"/s/{sid}/edit", data={**shown, "op": "swap"},
                                   headers={"HX-Request": "true"}).text).values
    assert other["seat"] == "south" and json.loads(other["first"])["seat"] == "west"
    fixed = {**other, "concealed": "123789p345s666z22z", "op": ""}                   # a 2s read for the 5s
    r = client.post(f"/s/{sid}/confirm", data=fixed, headers={"HX-Request": "true"})
    assert r.status_code == 204, r.text
    records = {r["seat"]: r for r in client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]["records"]}
    assert sorted(records) == ["south", "west"]
    assert sorted(parse_mpsz(records["south"]["concealed"])) == sorted(parse_mpsz("123789p345s666z22z"))
    assert sorted(parse_mpsz(records["west"]["concealed"])) == sorted(parse_mpsz(west["concealed"]))


def test_a_double_ron_corrected_untouched_keeps_the_head_winner_s_dora(client):
    """Logged with the dora indicator on the head's record only, a correction confirmed untouched
    dropped it (totals 18, 4 became 15, 4); clearing the second draft dropped it too."""
    from test_snapshot_fix import EditorForm
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": list(PLAYERS)}).json()["id"]
    south = {"rules": "dunhill", "seat": "south", "win": "ron", "discarder": "east",
             "concealed": "123789p234s666z22z", "win_tile": "2z", "dora_indicators": "1z"}
    west = {"rules": "dunhill", "seat": "west", "win": "ron", "discarder": "east",
            "concealed": "234p567p789p11s555z", "win_tile": "1s"}
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [south, west], "hand": 1}).status_code == 201
    before = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]["totals"]
    shown = EditorForm(client.get(f"/s/{sid}?correct=1").text).values
    r = client.post(f"/s/{sid}/confirm", data={**shown, "op": ""}, headers={"HX-Request": "true"})
    assert r.status_code == 204, r.text
    after = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert after["totals"] == before
    assert {r["seat"]: r.get("dora_indicators") for r in after["records"]}["south"] == "1z"
    cleared = EditorForm(client.post(f"/s/{sid}/edit", data={**shown, "op": "clear"},
                                     headers={"HX-Request": "true"}).text).values
    assert json.loads(cleared["first"])["dora_indicators"] == "1z"


def test_a_winner_ticked_among_others_riichi_is_asked_about_and_a_mis_tap_undoes_cleanly(client):
    """Ticked among others' riichi, then made the winner: the tick was dropped unseen (no stick, no
    riichi). Made her riichi by itself, a mis-tap of the winner gave Ben a riichi he never declared
    and lost Aki's stick. Now the page asks, and choosing the winner again gives the tick back."""
    from test_snapshot_fix import EditorForm
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": list(PLAYERS)}).json()["id"]
    hand = {"win": "tsumo", "concealed": "234p567p789p11s555z", "win_tile": "1s", "melds": "[]",
            "riichi_others": "Aki"}
    mistap = client.post(f"/s/{sid}/edit", data={**hand, "seat": "east", "op": ""}, headers={"HX-Request": "true"})
    assert "Aki is ticked among others&#39; riichi and is the winner" in mistap.text
    assert "和了者の Aki が他家立直に入っています" in mistap.text
    refused = client.post(f"/s/{sid}/confirm", data={**hand, "seat": "east"}, headers={"HX-Request": "true"})
    assert refused.status_code == 422 and client.get(f"/api/sessions/{sid}/hands").json()["hands"] == []
    back = EditorForm(client.post(f"/s/{sid}/edit", data={**EditorForm(mistap.text).values, "seat": "south",
                                                          "op": ""}, headers={"HX-Request": "true"}).text).values
    assert back.get("riichi_others") == "Aki" and not back.get("riichi")
    assert client.post(f"/s/{sid}/confirm", data={**back, "op": ""}, headers={"HX-Request": "true"}).status_code == 204
    logged = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert logged["riichi"] == {"Aki": "riichi"} and not logged["records"][0].get("riichi")


def test_a_double_ron_asks_about_a_held_winner_ticked_among_others_riichi(client):
    """ダブロン held the winner's hand with its question unanswered: her tick among others' riichi
    was then dropped unseen at Confirm (no stick, no riichi: 42/39 where it paid 42/42). Refusing
    ダブロン and もう一人を直す instead left no way to her hand's 立直. The held winner is asked about,
    Confirm waits, and もう一人を直す brings her hand to tick it."""
    from test_snapshot_fix import EditorForm
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": list(PLAYERS)}).json()["id"]
    hand = {"seat": "south", "win": "ron", "discarder": "west", "concealed": "123789p234s666z22z", "win_tile": "2z",
            "melds": "[]", "riichi_others": "Ben", "op": "double"}
    doubled = client.post(f"/s/{sid}/edit", data=hand, headers={"HX-Request": "true"})
    assert doubled.status_code == 200 and "Ben is ticked among others&#39; riichi and is the held winner" in doubled.text
    second = {**EditorForm(doubled.text).values, "concealed": "234p567p789p11s555z", "win_tile": "1s", "op": ""}
    assert client.post(f"/s/{sid}/confirm", data=second, headers={"HX-Request": "true"}).status_code == 422
    swapped = EditorForm(client.post(f"/s/{sid}/edit", data={**second, "op": "swap"},
                                     headers={"HX-Request": "true"}).text).values
    assert swapped["seat"] == "south"
    r = client.post(f"/s/{sid}/confirm", data={**swapped, "riichi": "1", "op": ""}, headers={"HX-Request": "true"})
    assert r.status_code == 204, r.text
    assert client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]["riichi"] == {"Ben": "riichi"}


def test_taking_a_double_ron_back_keeps_the_dropped_winner_s_stick_and_the_dora_fixed_on_screen(client):
    """取消 rebuilt the held hand as it was held: the dropped winner's riichi stick vanished from the
    table, and a dora indicator fixed on screen went back to the one read."""
    from test_snapshot_fix import EditorForm
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": list(PLAYERS)}).json()["id"]
    hand = {"seat": "south", "win": "ron", "discarder": "east", "concealed": "123789p234s666z22z", "win_tile": "2z",
            "dora_indicators": "3p", "melds": "[]", "riichi_others": "Chie", "op": "double"}
    second = EditorForm(client.post(f"/s/{sid}/edit", data=hand, headers={"HX-Request": "true"}).text).values
    assert second["seat"] == "west" and second.get("riichi")                # Chie's tick: her riichi
    back = EditorForm(client.post(f"/s/{sid}/edit", data={**second, "concealed": "234p567p789p11s555z",
                                                          "win_tile": "1s", "dora_indicators": "1p", "op": "single"},
                                  headers={"HX-Request": "true"}).text).values
    assert back["seat"] == "south" and back["dora_indicators"] == "1p" and back.get("riichi_others") == "Chie"
    assert client.post(f"/s/{sid}/confirm", data={**back, "op": ""}, headers={"HX-Request": "true"}).status_code == 204
    logged = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert logged["riichi"] == {"Chie": "riichi"} and logged["records"][0]["dora_indicators"] == "1p"


def _paid_as_shown(html: str) -> dict[str, int]:
    """Each player's net as the preview's payer lists say: a winner takes her payers' amounts."""
    net: dict[str, int] = {}
    for winner, payers in re.findall(r"<h3>(\w+)</h3>.*?<ul class=\"payers\">(.*?)</ul>", html, re.S):
        for payer, amount in re.findall(r"<li>(\w+) → (\d+)</li>", payers):
            net[winner] = net.get(winner, 0) + int(amount)
            net[payer] = net.get(payer, 0) - int(amount)
    return net


@pytest.mark.parametrize("rules", ["balance", "dunhill"])
def test_a_double_ron_in_a_bounty_round_shows_the_payments_the_ledger_makes(client, rules):
    """At 4 honba and more both winners of a double ron count the bounty the uninvolved player pays.
    Under dunhill the winners exchange it (アガった者同士で懸賞分をやり取りする); under balance the
    discarder alone pays both wins. The balance preview listed the other winner as a payer (Aki
    paying Chie 5, Chie paying Aki 10), payments the ledger never made: the tablet said Aki +33
    where the log said +28."""
    sid = client.post("/api/sessions", json={"rules": rules, "players": list(PLAYERS)}).json()["id"]
    for hand in range(1, 5):                                   # four draws, the dealer on: 4 honba and more
        assert client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [], "hand": hand}).status_code == 201
    east = {"seat": "east", "win": "ron", "discarder": "south", "concealed": "446688s22336677z", "win_tile": "4s",
            "rules": rules}
    form = {"seat": "west", "win": "ron", "discarder": "south", "concealed": "123456789p11222z", "win_tile": "9p",
            "first": json.dumps(east), "hand": "5"}
    preview = client.post(f"/s/{sid}/edit", data=form, headers={"HX-Request": "true"})
    assert preview.status_code == 200, preview.text
    shown = _paid_as_shown(preview.text)
    assert client.post(f"/s/{sid}/confirm", data=form, headers={"HX-Request": "true"}).status_code == 204
    balances = {b["player"]: b["balance"] for b in client.get(f"/api/sessions/{sid}").json()["balances"]}
    assert shown == balances
    assert ("Aki" in shown and shown["Aki"] > 0 and shown["Chie"] > 0 and shown["Ben"] < 0)
