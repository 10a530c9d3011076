"""isshokai's 罰符 from the tablet's editor: ticked beside a win, the offender's stick goes into the
pool and the winner of that hand takes it ("罰符は 1 本支払って、供託とする")."""

from __future__ import annotations

import re

from service.settings import DEMO_FRAMES
from table_fixtures import CHUN, PLAYERS

HTMX = {"HX-Request": "true"}


def test_a_penalty_ticked_beside_a_win_is_taken_by_its_winner(client):
    sid = client.post("/api/sessions", json={"rules": "isshokai", "players": PLAYERS}).json()["id"]
    form = {"seat": "east", "win": "tsumo", "concealed": CHUN["concealed"], "win_tile": CHUN["win_tile"],
            "gari": "5m", "melds": "[]", "hand": "1", "penalty": "Chie"}          # isshokai: 5m and North are gari
    r = client.post(f"/s/{sid}/confirm", data=form, headers=HTMX)
    assert r.status_code == 204, r.text
    hand = client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]
    assert hand["penalties"] == ["Chie"] and hand["pool_after"] == 0
    assert hand["deltas"]["Chie"] == hand["deltas"]["Ben"] - 1                  # her stick, to Aki
    assert sum(hand["deltas"].values()) == 0


def test_a_reading_that_arrives_keeps_the_penalties_ticked(client):
    """Count, an upload or the watcher's offer replaces the hand with what was read; the 罰符
    ticked meanwhile (like others' riichi sticks) stays."""
    sid = client.post("/api/sessions", json={"rules": "isshokai", "players": PLAYERS}).json()["id"]
    frame = (DEMO_FRAMES / "frame-01.jpg").read_bytes()
    r = client.post(f"/s/{sid}/upload", data={"penalty": "Ben", "riichi_others": "Chie", "hand": "1"},
                    files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
    assert r.status_code == 200
    assert re.search(r'name="penalty" value="Ben" checked', r.text)


def test_what_a_player_ticked_or_held_is_work_a_reload_must_not_drop(client):
    """The page reads the table anew by itself, or takes the watcher's next reading, only while it
    holds nothing of the players' own ("clean"). A 罰符 or others' riichi ticked, or a double ron's
    first winner held with the second's hand still empty, counted as nothing: another tablet's
    hand reloaded the page and they were gone."""
    sid = client.post("/api/sessions", json={"rules": "isshokai", "players": PLAYERS}).json()["id"]
    frame = (DEMO_FRAMES / "frame-01.jpg").read_bytes()

    def clean_after_reading(**ticked) -> str:
        r = client.post(f"/s/{sid}/upload", data={"hand": "1", **ticked},
                        files={"image": ("f.jpg", frame, "image/jpeg")}, headers=HTMX)
        return re.search(r'data-clean="(\d)"', r.text).group(1)

    assert clean_after_reading() == "1"                                  # as read: the watcher may replace it
    assert clean_after_reading(penalty="Ben") == "0"
    assert clean_after_reading(riichi_others="Chie") == "0"
    ron = {"seat": "south", "win": "ron", "discarder": "east", "concealed": CHUN["concealed"],
           "win_tile": CHUN["win_tile"], "gari": "5m", "melds": "[]", "hand": "1"}
    held = client.post(f"/s/{sid}/edit", data={**ron, "op": "double"}, headers=HTMX)
    assert 'name="first"' in held.text and re.search(r'data-clean="(\d)"', held.text).group(1) == "0"
