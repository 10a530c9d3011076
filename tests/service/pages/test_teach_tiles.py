"""Teaching the table its tiles in a real browser: open the page from the index, upload a photo of the
five rows, see the cuts named as laid, change one, confirm, and find that kind in the set on disk."""

from __future__ import annotations

import re

import numpy as np

from playwright.sync_api import expect

from table_fixtures import PIN, STAFF_PIN
from tablet_steps import start_session
from teach_fixtures import jpeg, rows_photo, tile_art
from vision.teach import LAYOUT
from vision.tileset import TileSet

LAID = [k for row in LAYOUT for k in row]


def _log_in(page, url: str) -> None:
    page.goto(url + "/")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")


def _teach_rows(page, url: str, photo) -> None:
    """The teach page at ``url`` taught the rows' photo, every cut as laid."""
    page.goto(url + "/teach")
    page.set_input_files("#teach-image", str(photo))
    page.click("#teach-upload button[type=submit]")
    expect(page.locator("#lesson .cut")).to_have_count(len(LAID))
    page.click("#teach-confirm")


def test_upload_the_rows_change_a_kind_and_confirm(page, server, tmp_path):
    photo = tmp_path / "rows.jpg"
    photo.write_bytes(jpeg(rows_photo(tile_art())))

    _log_in(page, server)
    page.click("#teach-link")
    expect(page).to_have_url(re.compile(r"/teach$"))
    expect(page.locator("#layout .tile")).to_have_count(len(LAID))
    expect(page.locator("#kinds-count")).to_have_text("0")

    page.set_input_files("#teach-image", str(photo))
    page.click("#teach-upload button[type=submit]")
    expect(page.locator("#lesson .cut")).to_have_count(len(LAID))
    shown = page.locator("#lesson select[name=kind]").evaluate_all("ss => ss.map(s => s.value)")
    assert shown == LAID
    assert page.locator("#lesson .cut img").first.evaluate("i => i.complete && i.naturalWidth > 0")

    seven = LAID.index("7z")
    page.select_option(f"#kind-{seven}", "0p")      # the players say this one is a red 5p
    page.click("#teach-confirm")
    expect(page.locator("#taught")).to_contain_text("learnt 34 tile(s) of 31 kind(s)")
    expect(page.locator("#kinds-count")).to_have_text("30")

    tileset = TileSet.load(tmp_path / "data" / "demo.tileset")
    assert "7z" not in tileset.kinds() and len(tileset.crops["0p"]) == 2
    assert tileset.kinds() == sorted(set(LAID) - {"7z"})


def test_the_session_page_links_to_the_teach_page(page, server):
    start_session(page, server)
    page.click("#teach-link")
    expect(page.locator("h1")).to_contain_text("Teach this table's tiles")
    expect(page.locator("#teach-camera")).to_be_enabled()


def test_a_sister_table_takes_the_set_taught_at_another(page, sister_servers, tmp_path):
    """Tables A and B of one parlour (one database): A is taught in the browser; B's teach page lists
    A's set, and a tap on it makes B's set of A's tiles; the set it replaced is put back, and the
    one kept aside then removed."""
    a, b = sister_servers
    photo = tmp_path / "rows.jpg"
    photo.write_bytes(jpeg(rows_photo(tile_art())))
    for url in (a, b):
        _log_in(page, url)
    _teach_rows(page, a, photo)
    expect(page.locator("#taught")).to_contain_text("Other tables of the parlour")

    page.goto(b + "/teach")
    expect(page.locator("#kinds-count")).to_have_text("0")
    expect(page.locator("#sisters .sister")).to_have_count(1)
    expect(page.locator("#sisters .sister")).to_contain_text("A")
    page.click("#sisters .sister button")
    expect(page.locator("#taught")).to_contain_text("took table A's set: 34 tile(s) of 32 kind(s)")
    expect(page.locator("#kinds-count")).to_have_text("31")

    mine = TileSet.load(tmp_path / "B" / "data" / "demo.tileset")
    assert mine.kinds() == sorted(set(LAID))

    # taking A's set again keeps the one in use aside, and a tap puts it back
    expect(page.locator("#kept .sister")).to_have_count(0)
    page.click("#sisters .sister button")
    expect(page.locator("#kept .sister")).to_have_count(1)          # redrawn with the answer
    expect(page.locator("#kept .sister")).to_contain_text("34枚 32種")
    page.click("#kept .sister button.put-back")
    expect(page.locator("#taught")).to_contain_text("put back the set kept aside")
    expect(page.locator("#kinds-count")).to_have_text("31")
    expect(page.locator("#kept .sister")).to_have_count(1)          # the one it replaced, kept in its turn

    # the set in use reads well: the one kept aside is removed, the page asking first
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("#kept .sister button.remove")
    expect(page.locator("#kept-removed")).to_contain_text("removed the set kept aside at")
    assert asked and "Remove this kept set for good?" in asked[0]
    expect(page.locator("#kept .sister")).to_have_count(0)
    expect(page.locator("#kinds-count")).to_have_text("31")
    assert not list((tmp_path / "B" / "data").glob("demo.tileset.replaced-*"))

    # the staff stop offering A's set: B's teach page no longer lists it, and B reads with its own still
    page.goto(b + "/counter/table?name=A")
    page.fill("#pin", STAFF_PIN)
    page.click("button[type=submit]")
    page.goto(b + "/counter/table?name=A")
    expect(page.locator("#shared-tiles")).to_contain_text("34枚 32種")
    page.click("#withdraw-tiles")
    expect(page.locator("#shared-tiles")).to_contain_text("none offered")
    page.goto(b + "/teach")
    expect(page.locator("#sisters")).to_have_count(0)
    expect(page.locator("#kinds-count")).to_have_text("31")


def test_a_refusal_goes_once_the_next_photo_is_read(page, server, tmp_path):
    """A photo of bare felt is refused in the flash area; the rows' photo read after it clears that
    line, so the page never says "no tiles found" above the tiles it found."""
    felt, photo = tmp_path / "felt.jpg", tmp_path / "rows.jpg"
    felt.write_bytes(jpeg(np.full((480, 640, 3), (40, 110, 30), np.uint8)))
    photo.write_bytes(jpeg(rows_photo(tile_art())))
    _log_in(page, server)
    page.click("#teach-link")

    page.set_input_files("#teach-image", str(felt))
    page.click("#teach-upload button[type=submit]")
    expect(page.locator("#flash .flash.error")).to_have_count(1)

    page.set_input_files("#teach-image", str(photo))
    page.click("#teach-upload button[type=submit]")
    expect(page.locator("#lesson .cut")).to_have_count(len(LAID))
    expect(page.locator("#flash .flash.error")).to_have_count(0)


def test_a_set_that_cannot_be_read_is_said_so_started_over_and_removed(page, server, tmp_path):
    """The table's index cut short: the page says the set cannot be read and what is wrong; Start over
    keeps it aside, the line going with the answer; the set kept aside is listed as damaged, with
    Remove and no Put back."""
    photo = tmp_path / "rows.jpg"
    photo.write_bytes(jpeg(rows_photo(tile_art())))
    _log_in(page, server)
    _teach_rows(page, server, photo)
    expect(page.locator("#taught")).to_contain_text("learnt 34 tile(s)")
    index = tmp_path / "data" / "demo.tileset" / "index.json"
    index.write_text(index.read_text()[:500])

    page.goto(server + "/teach")
    expect(page.locator("#damage")).to_contain_text("not a tile set index")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#start-over")
    expect(page.locator("#taught")).to_contain_text("the set that could not be read is kept aside")
    expect(page.locator("#tileset-damaged")).to_be_empty()
    expect(page.locator("#kept .sister.damaged")).to_contain_text("34 crop file(s)")
    expect(page.locator("#kept .sister .put-back")).to_have_count(0)
    page.set_viewport_size({"width": 390, "height": 844})          # a phone: its line wraps, Remove on screen
    box = page.locator("#kept .sister button.remove").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#kept .sister button.remove")
    expect(page.locator("#kept-removed")).to_be_visible()
    assert not list((tmp_path / "data").glob("demo.tileset.replaced-*"))
