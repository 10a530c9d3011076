"""The tablet's main flow in a real browser: log in, start a session, count a hand from the demo
camera, enter it, change a tile, confirm, and see the balance change; then the history."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scoring import score
from scoring.tiles import parse_mpsz, tile_name
from service.settings import DEMO_HANDS
from tablet_steps import start_session, type_a_winning_hand
from vision.evaluate import photos_dir

ROOT = Path(__file__).resolve().parents[3]


def _balance(page, player: str) -> int:
    return int(page.locator(f'#balances [data-player="{player}"] .balance').inner_text())


def test_count_reads_the_hand_from_the_camera_and_confirm_logs_it(page, reading_server):
    shown = json.loads(DEMO_HANDS.read_text())["frame-01.jpg"]       # the hand the camera sees
    start_session(page, reading_server)
    expect(page.locator("#no-reader")).to_have_count(0)

    page.click("#count")
    expect(page.locator("#snapshot-img")).to_be_visible()
    expect(page.locator("#total")).to_be_visible()
    read = page.locator("#hand button.tile").evaluate_all("bs => bs.map(b => b.dataset.tile)")
    assert sorted(read) == sorted(tile_name(t) for t in parse_mpsz(shown["concealed"]))
    assert int(page.locator("#total").inner_text()) == score(shown).total    # what scoring says of that hand

    winner = {"east": "Aki", "south": "Ben", "west": "Chie"}[shown["seat"]]
    paid = [int(x.split("→")[1]) for x in page.locator(".payers li").all_inner_texts()]
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 recorded")
    assert _balance(page, winner) == sum(paid) > 0


def test_a_counted_hand_is_corrected_on_its_own_snapshot(page, reading_server, tmp_path):
    """The correction opens on the count it corrects: its snapshot and the boxes read on it, and its
    Confirm names the snapshot again, so the table's tile set takes back what the first Confirm taught
    and learns the count as corrected. Before, the correction page showed no snapshot and named none."""
    sid = start_session(page, reading_server)
    page.click("#count")
    expect(page.locator("#snapshot-img")).to_be_visible()
    snapshot = page.locator("#snapshot-img").get_attribute("src").rsplit("/", 1)[1]
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 recorded")

    page.goto(f"{reading_server}/s/{sid}/history")
    page.click('#hands tr[data-hand="1"] a:has-text("Correct")')
    expect(page.locator("#snapshot-img")).to_have_attribute("src", f"/api/snapshots/{snapshot}")
    assert page.locator("#snap svg.boxes rect").count() >= 11                 # the reading, still remembered
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 corrected")
    index = tmp_path / "tables" / "t1.tileset" / "index.json"
    events = lambda: [e["event"] for e in json.loads(index.read_text())["log"]]     # noqa: E731
    deadline = time.monotonic() + 20                       # the set learns after the answer is sent
    while events()[-3:] != ["learnt", "forgot", "learnt"] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert events()[-3:] == ["learnt", "forgot", "learnt"]
    assert json.loads(index.read_text())["log"][-2]["origin"] == snapshot


def test_count_change_a_tile_confirm(page, server):
    start_session(page, server)
    assert _balance(page, "Aki") == 0
    expect(page.locator("#no-reader")).to_be_visible()

    page.click("#count")
    expect(page.locator("#snapshot-img")).to_be_visible()
    expect(page.locator("#snap")).to_contain_text("no reader installed")

    page.click("details.typed summary")
    page.fill("#concealed", "234p678p234s66s777z")
    page.fill("#win_tile", "6s")
    page.click("#apply")
    expect(page.locator("#total")).to_be_visible()

    page.click("text=ガリ gari")                          # tap target: gari
    page.click('#palette button[data-tile="1m"]')
    expect(page.locator(".extra button[data-tile='1m']")).to_have_count(1)

    page.click('#hand button[data-tile="2p"]')          # change a tile: 2p out...
    expect(page.locator("#score-error")).to_be_visible()   # 13 tiles do not score
    page.click("text=手牌 hand")
    page.click('#palette button[data-tile="5p"]')       # ...5p in
    expect(page.locator('#hand button[data-tile="5p"]')).to_have_count(1)
    expect(page.locator('#hand button[data-tile="2p"]')).to_have_count(0)
    expect(page.locator("#total")).to_be_visible()

    paid = [int(x.split("→")[1]) for x in page.locator(".payers li").all_inner_texts()]
    assert len(paid) == 2 and paid[0] > 0
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 recorded")
    assert _balance(page, "Aki") == sum(paid)
    assert _balance(page, "Ben") == -paid[0]
    expect(page.locator("#honba")).to_have_text("1")

    page.click("#history-link")
    expect(page.locator('#hands tr[data-hand="1"]')).to_contain_text("Aki ツモ tsumo")
    expect(page.locator('#hands tr[data-hand="1"] img.thumb')).to_be_visible()
    expect(page.locator("svg.chart polyline")).to_have_count(3)


def test_a_stale_confirm_shows_the_reason_and_writes_nothing(page, server):
    start_session(page, server)
    type_a_winning_hand(page)
    # another tablet logs a draw in the meantime
    other = page.context.new_page()
    other.goto(page.url)
    other.locator("summary", has_text="流局 Draw").click()
    other.click("#draw-confirm")
    expect(other.locator("#honba")).to_have_text("1")
    other.close()
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("stale state")
    page.reload()
    expect(page.locator("#next-hand")).to_have_text("2")
    assert _balance(page, "Aki") == 0


def test_a_tap_while_the_last_is_on_its_way_is_not_lost(page, server):
    """Every tap posts the whole draft and the answer replaces it: a tap made before the
    answer comes would be posted from a form about to be replaced and dropped. While an
    edit is on its way, the editor's controls (confirm included) wait, disabled."""
    start_session(page, server)
    type_a_winning_hand(page)

    held = []
    edits = re.compile(r"/edit$")

    def hold(route):
        held.append(route)                                  # the next edit stays on its way

    page.route(edits, hold)
    page.click("text=ガリ gari")
    page.wait_for_function("document.querySelector('#work').classList.contains('htmx-request')")
    expect(page.locator('#palette button[data-tile="1m"]')).to_be_disabled()
    expect(page.locator("#confirm")).to_be_disabled()       # nor can the old draft be confirmed
    assert len(held) == 1
    held[0].continue_()
    page.unroute(edits, hold)

    page.click('#palette button[data-tile="1m"]')          # waits for the answer, then counts
    expect(page.locator(".extra button[data-tile='1m']")).to_have_count(1)
    expect(page.locator("#confirm")).to_be_enabled()


def test_an_upright_tablet_shows_the_count_and_confirm_within_the_screen(page, server):
    """At 800 px wide (a tablet held upright) the page is one column: the count and Confirm
    come under the snapshot, above the editor, and nothing runs off the right edge."""
    page.set_viewport_size({"width": 800, "height": 1280})
    start_session(page, server)
    type_a_winning_hand(page)
    confirm = page.locator("#confirm").bounding_box()
    palette = page.locator("#palette").bounding_box()
    assert confirm["x"] >= 0 and confirm["x"] + confirm["width"] <= 800
    assert confirm["y"] < palette["y"]                      # the count before the tile picker
    assert page.evaluate("document.documentElement.scrollWidth") <= 800


def test_a_photo_of_the_hand_taken_at_the_seat_fills_the_hand(page, server):
    """No camera reader at all: the players photograph the revealed hand from the seat, the tablet reads
    its line (a real photo: seven pairs, the last 4s laid across), they choose ron from Chie and confirm."""
    labels = json.loads((ROOT / "vision" / "labels" / "hand-92345ff1.json").read_text(encoding="utf-8"))
    photo = photos_dir() / labels["image"]
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    start_session(page, server)
    page.set_input_files("#hand-image", str(photo))
    page.click("#hand-photo button[type=submit]")
    # a read takes a second or four: said while it runs, and not sent twice (before, a second tap queued
    # a second whole read)
    expect(page.locator("#reading")).to_be_visible()
    expect(page.locator("#hand-photo-read")).to_be_disabled()
    expect(page.locator("#snapshot-img")).to_be_visible()
    expect(page.locator("#hand-photo-read")).to_be_enabled()
    expect(page.locator("#reading")).to_be_hidden()
    expect(page.locator("#work")).to_have_attribute("data-entered", "1")     # read, not logged: leaving asks
    expect(page.locator("#hand button.tile")).to_have_count(len(labels["hand_line"]))
    read = page.locator("#hand button.tile").evaluate_all("bs => bs.map(b => b.dataset.tile)")
    assert sorted(read) == sorted(tile_name(t) for t in parse_mpsz(" ".join(labels["hand_line"])))
    assert page.locator("#win_tile").input_value() == labels["hand_line"][-1]

    page.click("text=ロン ron")
    page.click(".row label.choice:has(input[name=discarder][value=west])")
    expect(page.locator("#total")).to_be_visible()
    paid = [int(x.split("→")[1]) for x in page.locator(".payers li").all_inner_texts()]
    assert len(paid) == 1 and paid[0] > 0
    page.click("#confirm")
    expect(page.locator("#flash")).to_contain_text("hand 1 recorded")
    assert _balance(page, "Aki") == paid[0] and _balance(page, "Chie") == -paid[0]
