"""The standings page in a real browser: it loads with every player, a click on a header sorts the
table (again: the other way), each player has a chart, the choosers and the export links work."""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import expect

from table_fixtures import PIN, record

PLAYERS = ["Aki", "Ben", "Chie", "Dan"]


def _play(server: str) -> None:
    """Two dunhill nights and one isshokai night over the service's API (what the tablet writes)."""
    with httpx.Client(base_url=server, headers={"X-Table-PIN": PIN}) as c:
        def session(rules, players, hands):
            sid = c.post("/api/sessions", json={"rules": rules, "players": players}).json()["id"]
            for kind, body in hands:
                assert c.post(f"/api/sessions/{sid}/{kind}", json=body).status_code == 201
        session("dunhill", PLAYERS[:3], [("wins", {"records": [record("east", "tsumo")]}),
                                         ("wins", {"records": [record("east", "ron", "west")]})])
        session("dunhill", PLAYERS[1:], [("wins", {"records": [record("south", "ron", "east")]}),
                                         ("draws", {"tenpai": ["Dan"]})])
        session("isshokai", PLAYERS[:3], [("wins", {"records": [record("west", "ron", "east", rules="isshokai",
                                                                        gari="4z")]})])


def _names(page) -> list[str]:
    return page.locator("#standings tbody tr td:first-child b").all_inner_texts()


def _numbers(page, col: int) -> list[float]:
    cells = page.locator(f"#standings tbody tr td:nth-child({col})")
    return [float(v) for v in cells.evaluate_all("cells => cells.map(c => c.dataset.value)")]


def test_standings_page_sorts_by_a_click_and_draws_a_chart_per_player(page, server):
    _play(server)
    page.goto(server + "/login")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.goto(server + "/standings?period=all")
    expect(page.locator("h1")).to_contain_text("成績表")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(4)
    expect(page.locator("#standings-what")).to_contain_text("stick value")
    totals = _numbers(page, 2)
    assert totals == sorted(totals, reverse=True)               # first shown by total, highest first
    assert len(set(totals)) > 1
    # a chart per player: its line ends at the player's total (the legend shows it)
    for i in range(4):
        row = rows.nth(i)
        expect(row.locator("svg.chart polyline")).to_have_count(1)
        name = row.locator("td:first-child b").inner_text()
        expect(row.locator("svg.chart text").last).to_have_text(f"{name} {int(totals[i])}")

    page.click("#standings th:has-text('名前 name')")
    assert _names(page) == sorted(PLAYERS)
    page.click("#standings th:has-text('名前 name')")
    assert _names(page) == sorted(PLAYERS, reverse=True)
    expect(page.locator("#standings th:has-text('名前 name')")).to_have_attribute("aria-sort", "descending")

    sessions = page.locator("#standings th:has-text('回 sessions')")
    sessions.click()
    counted = _numbers(page, 5)
    assert counted == sorted(counted, reverse=True) and counted[0] == 3 and counted[-1] == 1
    sessions.click()
    assert _numbers(page, 5) == sorted(counted)

    # the rule chooser lists the rules played; isshokai alone shows its sticks and tops
    expect(page.locator("#rule option")).to_have_count(3)
    page.select_option("#rule", "isshokai")
    page.click("#standings-form button[type=submit]")
    expect(page).to_have_url(re.compile(r"rule=isshokai"))
    expect(rows).to_have_count(3)
    expect(page.locator("#standings th:has-text('トップ tops')")).to_be_visible()
    expect(page.locator("#csv-link")).to_have_attribute("href", re.compile(r"/api/standings\.csv\?period=all&rule=isshokai"))
    with page.expect_download() as download:
        page.click("#csv-link")
    saved = open(download.value.path(), "rb").read()
    assert saved.startswith(b"\xef\xbb\xbf")          # the file as saved keeps UTF-8's mark, for Excel
    text = saved.decode("utf-8-sig")
    assert text.splitlines()[0].startswith("player_id,code,name") and "total (sticks)" in text

    # a day with nothing played says so
    page.goto(server + "/standings?period=day&date=2001-01-01")
    expect(page.locator("#standings-empty")).to_be_visible()
    expect(page.locator("#date")).to_have_value("2001-01-01")
