"""The pages on a phone (390x844, Chromium): nothing wider than the screen. Before, the table page
was 674 px wide (its header's buttons off to the right), the history 583, the new session 735 (its
players' box wider than its card): every Correct button and the downloads off-screen. A wide table
(the history, the standings) scrolls inside its own box."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tablet_steps import start_session

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(page):
    page.set_viewport_size(PHONE)
    return page


def test_no_page_is_wider_than_a_phone(phone, server):
    sid = start_session(phone, server)
    phone.click("#draw summary")
    phone.click("#draw-confirm")
    expect(phone.locator("#honba")).to_have_text("1")
    for path in (f"/s/{sid}", f"/s/{sid}/history", f"/s/{sid}?correct=1", "/standings", "/teach", "/", "/rules"):
        phone.goto(server + path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        wide = phone.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 4)
            .map(e => e.tagName + '#' + e.id + '.' + e.className)""")
        assert width <= PHONE["width"], f"{path}: {width} px wide ({wide})"
    phone.goto(f"{server}/s/{sid}/history")
    correct = phone.locator('#hands tr[data-hand="1"] a:has-text("Correct")')
    correct.scroll_into_view_if_needed()
    box = correct.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"]   # reached by scrolling its table
    correct.click()
    expect(phone).to_have_url(re.compile(r"correct=1"))


def test_a_tile_picked_on_the_snapshot_brings_the_picker_into_view_on_a_phone(phone, reading_server):
    """On a phone the picker lies far below the snapshot: a tile tapped there to fix it left the
    player to scroll for the tile to put in its place."""
    start_session(phone, reading_server)
    phone.click("#count")
    box = phone.locator('#strip .det[data-op^="pick:concealed"]').first
    expect(box).to_be_visible()
    box.click()
    picked = phone.locator("#picked")
    expect(picked).to_be_visible()
    expect(picked).to_be_in_viewport()


def test_the_counters_pages_fit_a_phone_too(phone, sister_servers):
    """Staff check a table from a phone: the table's page at the counter was 498 px wide (its
    default-rule select 482), and its Settle and 取消 buttons were off-screen."""
    from table_fixtures import STAFF_PIN
    a, b = sister_servers
    start_session(phone, a)                      # table A has a session, and has beaten
    phone.goto(b + "/counter/login")
    phone.fill("#pin", STAFF_PIN)
    phone.click("button[type=submit]")
    expect(phone).to_have_url(re.compile(r"/counter$"))
    for path in ("/counter", "/counter/table?name=A", "/counter/players", "/counter/prices", "/counter/rules"):
        phone.goto(b + path)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path}: {width} px wide"
