"""The tablet at a table whose disk has filled: Count says in the flash area that nothing was saved and
what to do, not "server error"; the same press works once there is room again."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from table_fixtures import fill
from tablet_steps import start_session


def test_count_on_a_full_disk_says_so_and_works_again_once_there_is_room(page, small_disk_server, small_disk):
    start_session(page, small_disk_server)
    fill(small_disk)
    page.click("#count")
    flash = page.locator("#flash")
    expect(flash).to_contain_text("disk is full")
    expect(flash).to_contain_text("nothing was saved")
    expect(flash).not_to_contain_text("server error")
    Path(small_disk / "filler").unlink()
    page.click("#count")
    expect(page.locator("#snapshot-img")).to_be_visible()
