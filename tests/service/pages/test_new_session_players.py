"""Choosing the players of a new session from the register, in a real browser: type the first
letters of a regular and tap the suggestion, type a name nobody has (a new player, with its
reading), be refused a name two players share until one is picked by code, start; the table
page and the history show those players and the register holds the new one."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from table_fixtures import PIN


def _api(url: str) -> httpx.Client:
    return httpx.Client(base_url=url, headers={"X-Table-PIN": PIN}, timeout=10)


def _log_in(page, url: str) -> None:
    page.goto(url + "/")
    expect(page).to_have_url(re.compile(r"/login$"))
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    expect(page.locator("#player1")).to_be_visible()


def _type(page, seat: int, text: str) -> None:
    """Type as a player would, key by key, so the page asks the register as it goes."""
    page.fill(f"#player{seat}", "")
    page.locator(f"#player{seat}").press_sequentially(text, delay=30)


def test_players_are_picked_from_the_register_and_a_new_name_joins_it(page, server):
    with _api(server) as api:
        for body in ({"name": "Akiko", "kana": "あきこ", "code": "A1"}, {"name": "Ben", "code": "B1"},
                     {"name": "Ben", "code": "B2"}):
            assert api.post("/api/players", json=body).status_code == 201
    _log_in(page, server)
    page.select_option("#rules", "dunhill")

    _type(page, 1, "Ak")                       # a regular: the first letters, then the tap
    pick = page.locator("#suggest1 .pick", has_text="Akiko")
    expect(pick).to_contain_text("あきこ")
    pick.click()
    expect(page.locator("#player1")).to_have_value("Akiko (A1)")
    expect(page.locator("#player1-note")).to_contain_text("registered: Akiko (A1)")

    _type(page, 2, "Dora")                     # nobody has this name: a new player, with its reading
    expect(page.locator("#player2-note")).to_contain_text("new player")
    page.fill("#kana2", "どら")

    _type(page, 3, "Ben")                      # two players share it: the form refuses until one is picked
    expect(page.locator("#player3-note")).to_contain_text("2 players are named Ben")
    page.click("#start")
    expect(page.locator("#flash")).to_contain_text("choose one by member code (B1, B2)")
    expect(page).not_to_have_url(re.compile(r"/s/"))
    with _api(server) as api:
        assert [p["name"] for p in api.get("/api/players").json()] == ["Akiko", "Ben", "Ben"]   # nothing written

    page.locator("#suggest3 .pick", has_text="B2").click()
    expect(page.locator("#player3")).to_have_value("Ben (B2)")
    page.click("#start")
    expect(page).to_have_url(re.compile(r"/s/[0-9a-f-]+$"))
    sid = page.url.rsplit("/", 1)[1]

    for name in ("Akiko", "Dora", "Ben"):
        expect(page.locator("#balances")).to_contain_text(name)
    with _api(server) as api:
        register = api.get("/api/players").json()
        assert [(p["name"], p["kana"]) for p in register] == [("Akiko", "あきこ"), ("Ben", ""), ("Ben", ""),
                                                              ("Dora", "どら")]
        assert api.get(f"/api/sessions/{sid}").json()["players"] == ["Akiko", "Dora", "Ben"]
    page.goto(f"{server}/s/{sid}/history")
    for name in ("Akiko", "Dora", "Ben"):
        expect(page.locator("main")).to_contain_text(name)


def test_an_old_name_of_players_merged_into_two_others_asks_for_the_code(client):
    """Two Sams, each merged into another player: typed "Sam", the note said "new player", and the
    session was then refused as two players of that name."""
    from service.pages.players import typed
    ledger = client.app.state.ledger
    ledger.start("dunhill", ["Sam", "A1", "B1"])
    ledger.add_player("Sam", code="S2")
    ledger.start("dunhill", ["S2", "A2", "B2"])
    ledger.merge_players(ledger.player("Sam (0001)").id, "A2")
    ledger.merge_players(ledger.player("S2").id, "A1")
    ledger.add_player("Samantha")                               # a name that starts alike is no Sam
    status, _, shared = typed(ledger, "Sam")
    assert status == "shared" and sorted(p.name for p in shared) == ["A1", "A2"]
