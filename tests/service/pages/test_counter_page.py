"""The counter in the browser: two table services on one database, the staff log in with their own PIN,
see both tables (and a session started meanwhile, without reloading), open a settlement in yen and a
player's receipt, sized for an 80 mm printer."""

from __future__ import annotations

import re
from contextlib import ExitStack

import httpx
import pytest
from playwright.sync_api import expect

from live_server import free_port, served
from service.settings import DEMO_FRAMES, Settings
from table_fixtures import PIN, PLAYERS, record

STAFF = "8765"


@pytest.fixture
def parlour(tmp_path):
    """Two tables on one SQLite file: table 1 (the demo camera, no reader) serving the counter too,
    table 2 (no camera); yields both URLs."""
    db = {"TABLE_DB_URL": f"sqlite:///{tmp_path / 'parlour.sqlite3'}"}
    common = dict(pin=PIN, reader="", camera_fps=5, watch=False, heartbeat_s=0.5, host="127.0.0.1")
    one = Settings(_env_file=None, **db, **common, port=free_port(), data_dir=tmp_path / "t1", table_name="table 1",
                   camera=str(DEMO_FRAMES), staff_pin=STAFF)
    two = Settings(_env_file=None, **db, **common, port=free_port(), data_dir=tmp_path / "t2", table_name="table 2",
                   camera="")
    with ExitStack() as stack:
        yield stack.enter_context(served(one))[0], stack.enter_context(served(two))[0]


def test_staff_log_in_see_both_tables_open_a_settlement_and_a_receipt(parlour, page):
    url1, url2 = parlour
    with httpx.Client(base_url=url1, headers={"X-Table-PIN": PIN}) as t1:
        sid = t1.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        assert t1.post(f"/api/sessions/{sid}/wins", json={"records": [record("east", "tsumo")]}).status_code == 201
        balances = [b["balance"] for b in t1.get(f"/api/sessions/{sid}").json()["balances"]]
        r = t1.put("/api/counter/prices", json={"rule": "dunhill", "rate": 100, "fee": 500},
                   headers={"X-Staff-PIN": STAFF})
        assert r.status_code == 200, r.text

    page.goto(url1 + "/counter")
    expect(page).to_have_url(re.compile(r"/counter/login$"))
    page.fill("#pin", PIN)                                    # a table's PIN: not the counter's
    page.click("button[type=submit]")
    expect(page.locator("#wrong")).to_be_visible()
    page.fill("#pin", STAFF)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/counter$"))

    one, two = page.locator('[data-table="table 1"]'), page.locator('[data-table="table 2"]')
    expect(one).to_have_attribute("data-state", "in session")
    expect(one).to_contain_text("Aki ツモ tsumo")
    expect(two).to_have_attribute("data-state", "idle")
    expect(two.locator("[data-warning]").first).to_contain_text("no camera")
    for name, balance in zip(PLAYERS, balances):
        expect(one.locator("table.points")).to_contain_text(name)
        expect(one.locator("table.points")).to_contain_text(str(balance))

    # a session started at table 2 shows up without a reload (the page refreshes itself)
    with httpx.Client(base_url=url2, headers={"X-Table-PIN": PIN}) as t2:
        assert t2.post("/api/sessions", json={"rules": "dunhill", "players": ["Dai", "Eri", "Fumi"]}).status_code == 201
    expect(two).to_have_attribute("data-state", "in session", timeout=15_000)

    one.get_by_role("link", name=re.compile("Settle")).click()
    expect(page).to_have_url(re.compile(rf"/counter/s/{sid}$"))
    rows = page.locator("#money tr[data-seat]")
    expect(rows).to_have_count(3)
    for i, balance in enumerate(balances):
        total = balance * 100 - 500
        expect(rows.nth(i)).to_contain_text(f"¥{abs(total):,}")

    page.click('[data-receipt="1"]')
    expect(page).to_have_url(re.compile(rf"/counter/s/{sid}/receipt/1$"))
    expect(page.locator("#receipt-name")).to_have_text("Ben")
    expect(page.locator('link[rel=icon][href="data:,"]')).to_have_count(1)    # no favicon asked for: no 404
    expect(page.locator("#receipt-code")).to_have_text("0002")
    ben = balances[1] * 100 - 500
    expect(page.locator("#receipt-total")).to_contain_text(f"¥{abs(ben):,}")
    expect(page.locator("#receipt-total")).to_contain_text("To pay" if ben < 0 else "To receive")
    expect(page.locator("#print")).to_be_visible()
    width = page.locator("#receipt").bounding_box()["width"]
    assert 290 <= width <= 315, width                        # 80 mm at 96 px an inch: about 302 px
    page.emulate_media(media="print")
    expect(page.locator("#print")).to_be_hidden()             # the button is not printed
