"""Steps the browser tests share (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from table_fixtures import PIN, PLAYERS


def start_session(page, url: str, rules: str = "dunhill") -> str:
    """Log in with the table's PIN (the index sends a tablet with no cookie to the login page), start a
    session of the usual three players under ``rules``; returns its id."""
    page.goto(url + "/")
    expect(page).to_have_url(re.compile(r"/login$"))
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.select_option("#rules", rules)
    for i, name in enumerate(PLAYERS, 1):
        page.fill(f"#player{i}", name)
    page.click("#start")
    expect(page).to_have_url(re.compile(r"/s/[0-9a-f-]+$"))
    return page.url.rsplit("/", 1)[1]


def type_a_winning_hand(page):
    """Open the typing panel, type a winning hand (234p678p234s66s777z, won on 6s) and apply it: its
    count shows."""
    page.click("details.typed summary")
    page.fill("#concealed", "234p678p234s66s777z")
    page.fill("#win_tile", "6s")
    page.click("#apply")
    expect(page.locator("#total")).to_be_visible()
