"""The count comes by itself: a tablet open on the table page is told at once (server-sent events) when
the watcher reads a win on the camera, and opens with it: the hand, the snapshot with each read tile's
box and name, a tap on a wrong tile to fix it."""

from __future__ import annotations

from dataclasses import replace

from playwright.sync_api import expect

from calibration.store import TableFile, save
from live_server import serve

from scoring.tiles import parse_mpsz, tile_name
from tablet_steps import start_session


def _hand(page) -> list[str]:
    return page.locator("#hand button.tile").evaluate_all("bs => bs.map(b => b.dataset.tile)")


def _tiles(mpsz: str) -> list[str]:
    return sorted(tile_name(t) for t in parse_mpsz(mpsz))


def test_a_win_read_by_the_watcher_is_pushed_to_the_open_tablet_and_fixed_in_two_taps(page, watch_server, win):
    url, app = watch_server
    start_session(page, url)
    expect(page.locator("#strip")).to_have_count(0)
    expect(page.locator("#watch-on")).not_to_be_checked()

    page.click("#watch-switch label.toggle")                  # the tablet's switch: auto count on
    expect(page.locator("#watch-on")).to_be_checked()
    # nothing tapped: the camera's win reaches this open page by itself
    expect(page.locator("#strip")).to_be_visible(timeout=45_000)
    assert sorted(_hand(page)) == _tiles(win.record["concealed"])
    expect(page.locator("#offer-note")).to_contain_text("read by itself")
    expect(page.locator("#snap")).to_contain_text("tsumo or ron cannot be seen")     # the reading's warnings

    # what was read, where it was read: a box and a name per tile over the snapshot
    hand_boxes = page.locator('#strip .det[data-op^="pick:concealed"]')
    expect(hand_boxes).to_have_count(11)
    labels = page.locator('#strip .det[data-op^="pick:concealed"] text').all_text_contents()
    assert sorted(x.rstrip("?") for x in labels) == _tiles(win.record["concealed"])
    assert page.locator('#strip .det[data-op^="pick:meld"]').count() == 3
    assert page.locator("#snap svg.boxes rect").count() >= 11 + 3 + 1          # hand, pon, a dora at least
    strip = page.locator("#strip svg").bounding_box()
    assert strip["width"] >= 500                                               # large enough to check by eye

    # one tap on a tile of the snapshot picks it, one tap in the picker puts the right tile there
    target = hand_boxes.nth(0)
    was = target.get_attribute("data-tile")
    target.click()
    expect(page.locator("#picked")).to_contain_text(was)
    expect(page.locator("#hand button.tile.picked")).to_have_count(1)
    expect(page.locator("#strip .det.picked")).to_have_count(1)
    new = "9p" if was != "9p" else "8p"
    page.click(f'#palette button[data-tile="{new}"]')
    expect(page.locator("#picked")).to_have_count(0)
    after = _hand(page)
    expected = _tiles(win.record["concealed"])
    expected.remove(was)
    assert sorted(after) == sorted(expected + [new])

    # a newer reading while the players are fixing this one does not overwrite their fix: a banner asks
    offers = app.state.offers
    first = offers.latest
    offers.offer(first.snapshot, replace(first.reading, record={**first.reading.record, "concealed": "123456789p11z22z"}),
                 first.size)
    expect(page.locator("#offer-banner")).to_be_visible()
    assert sorted(_hand(page)) == sorted(expected + [new])
    page.click("#show-offer")
    expect(page.locator('#hand button[data-tile="9p"]')).to_have_count(1)
    expect(page.locator('#hand button[data-tile="1p"]')).to_have_count(1)


def test_the_snapshot_zooms_and_a_tap_there_picks_the_tile_and_a_new_tablet_opens_with_the_reading(
        page, watch_server, win):
    url, app = watch_server
    start_session(page, url)
    app.state.watcher.switch(True)
    expect(page.locator("#strip")).to_be_visible(timeout=45_000)

    page.click("#snap .frame")                                 # tap the snapshot: the whole frame, large
    zoom = page.locator("#zoom")
    expect(zoom).to_be_visible()
    full = zoom.locator("svg").bounding_box()
    assert full["width"] >= 1100
    unsure = app.state.settings.unsure_score
    dets = app.state.offers.latest.reading.detections
    assert zoom.locator(".det.unsure").count() == sum(
        d.score < unsure or (d.agree is not None and d.agree < 1) for d in dets if d.tile != "back")
    zoom.locator('.det[data-op^="pick:meld"]').first.click()  # a tile of the pon: the meld is picked
    expect(zoom).to_be_hidden()
    expect(page.locator(".meld.picked")).to_have_count(1)
    page.click("#unpick")
    expect(page.locator(".meld.picked")).to_have_count(0)

    other = page.context.new_page()                          # a tablet opened later: the reading is there
    other.goto(page.url)
    expect(other.locator("#strip")).to_be_visible()
    assert sorted(_hand(other)) == _tiles(win.record["concealed"])
    other.close()


def test_the_open_tablet_shows_the_camera_lost_and_watching_again(page, ip_camera, tmp_path, monkeypatch):
    """Auto count on over a real IP camera; unplugged, the tablet's line says so at once (pushed, no tap),
    in the warning colour; plugged back, it watches again."""
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    save(TableFile("t1"), tmp_path / "tables")
    for url, _ in serve(tmp_path, camera=ip_camera.url, camera_fps=None, calibration="t1", watch=True):
        start_session(page, url)
        state = page.locator("#watch-state")
        expect(state).to_have_attribute("data-state", "watching", timeout=15_000)
        ip_camera.unplug()
        expect(state).to_have_attribute("data-state", "lost", timeout=15_000)
        expect(state).to_contain_text("camera lost, not watching")
        assert state.evaluate("e => getComputedStyle(e).fontWeight") == "700"
        ip_camera.plug()
        expect(state).to_have_attribute("data-state", "watching", timeout=15_000)
        expect(state).not_to_contain_text("camera lost")      # the rule's own line again (grey frames: no table)


def test_a_newer_reading_waits_behind_a_banner_while_the_players_type_or_look_closely(page, watch_server, win):
    """Typing not applied yet and the snapshot zoomed are the players' own work as much as a tap: a
    newer offer replaced the draft under them (the typed hand gone, the zoom shut)."""
    url, app = watch_server
    start_session(page, url)
    app.state.watcher.switch(True)
    expect(page.locator("#strip")).to_be_visible(timeout=45_000)
    offers = app.state.offers
    first = offers.latest

    def newer(concealed: str) -> None:
        offers.offer(first.snapshot, replace(first.reading, record={**first.reading.record, "concealed": concealed}),
                     first.size)

    newer("111222333p44z55z6z")                                # a draft untouched: the newer one replaces it
    expect(page.locator('#hand button[data-tile="6z"]')).to_have_count(1)
    expect(page.locator("#offer-banner")).to_have_count(0)

    page.locator("summary", has_text="Type the hand").click()
    page.fill("#concealed", "123456789p11z22z5z")              # typed, not applied
    newer("123456789p11z22z")
    expect(page.locator("#offer-banner")).to_be_visible()
    expect(page.locator("#concealed")).to_have_value("123456789p11z22z5z")
    expect(page.locator('#hand button[data-tile="6z"]')).to_have_count(1)
    page.click("#show-offer")                                  # the players choose to see it
    expect(page.locator("#offer-banner")).to_have_count(0)
    expect(page.locator('#hand button[data-tile="1p"]')).to_have_count(1)

    page.click("#snap .frame")                                 # zoomed in on the snapshot
    expect(page.locator("#zoom")).to_be_visible()
    newer("111222333p44z55z6z")
    expect(page.locator("#offer-banner")).to_be_visible()
    expect(page.locator("#zoom")).to_be_visible()
    expect(page.locator('#hand button[data-tile="1p"]')).to_have_count(1)
