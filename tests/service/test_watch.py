"""The watcher on rendered sequences of a whole table (vision.synth.motion), with the real vision reader:
a win laid down is offered once, after it lies still, and read exactly; a discard, a tenpai display at a
draw and tiles pushed into the table are not. Then the watcher's thread on a camera folder in the service."""

from __future__ import annotations

import json
import time

import pytest

from calibration.store import TableFile, save
from service.reader import ReadContext
from service.snapshots import SnapshotStore
from service.watch import Offers, Watcher
from service.watch.rule import HELD, OFFERED, WATCHING
from vision.layout import record_diff
from vision.synth.motion import discard_clip, push_clip, tenpai_clip

from table_fixtures import PIN, fill, record
from watch_fixtures import step_through


@pytest.fixture
def watching(vision_reader, tmp_path):
    def make(**kw) -> tuple[Watcher, Offers]:
        offers = Offers()
        table = vision_reader.table
        return Watcher(vision_reader, table, SnapshotStore(tmp_path / "snapshots"), offers,
                       lambda: ReadContext("dunhill"), **kw), offers
    return make


def test_a_win_laid_down_is_offered_once_after_it_lies_still_and_read_exactly(watching, win, tmp_path):
    watcher, offers = watching()
    got = step_through(watcher, win)
    assert [i for i, _ in got] and len(got) == 1, got
    i, offer = got[0]
    # not before the view has been still for settle_s (0.6 s: five frames at 8 fps), and before the push
    assert win.settled + 5 <= i < win.until
    assert record_diff(win.record, dict(offer.reading.record)) == []
    assert offers.latest is offer and offer.frames >= 3
    assert (tmp_path / "snapshots" / offer.snapshot).exists()
    hand = [d for d in offer.reading.detections if d.zone == "hand"]
    assert len(hand) == 11 and all(d.agree == 1.0 for d in hand)       # every frame read every tile there
    # the detector ran only on still frames with one hand laid down: a handful, not one per frame
    assert watcher.reads <= 10 < len(win)
    # after the push the watcher watches again
    assert watcher.trigger.state == WATCHING


def test_the_picture_of_a_hand_logged_already_is_not_offered_again(watching, win):
    """The demo's slideshow come round again, or a service restarted over a hand still lying there,
    shows the very picture of a logged hand (one snapshot name): offered, a second Confirm paid it
    twice. The ledger says which pictures are hands; the watcher asks it before offering."""
    asked = []
    watcher, offers = watching(logged=lambda snapshot: asked.append(snapshot) or True)
    assert step_through(watcher, win) == [] and offers.latest is None
    assert len(asked) == 1                  # the win was read and decided: the ledger was asked once


def test_the_hand_logged_last_read_again_in_a_new_picture_is_not_offered(watching, win):
    """An arm over the winner's row, lifted: the hand just logged is read again in a new picture (its
    discards otherwise, so another record). Offered, it was drafted as the next hand and paid twice.
    The watcher knows it by its tiles, as confirmed or as read from the logged hand's picture."""
    watcher, offers = watching()
    offers.logged(None, [dict(win.record)])
    watcher._logged = offers.hands_logged           # as if logged before it looked: nothing lies "counted"
    assert step_through(watcher, win) == [] and offers.latest is None


def test_after_the_deal_moves_on_the_status_names_the_seat_the_hand_s_player_sits_in_now(vision_reader, win,
                                                                                       tmp_path):
    """A zone keeps its player while the dealer moves on. The status said "reading south's hand" by
    the first deal's winds when the player in that zone was east (the dealer) in this deal, and the
    offer the tablet then showed named east: two seats for one hand."""
    from scoring.record import SEATS
    context = ReadContext("dunhill", turn=1)
    watcher = Watcher(vision_reader, vision_reader.table, SnapshotStore(tmp_path / "snapshots"), Offers(),
                      lambda: context)
    statuses, got = [], []
    for i in range(len(win)):
        if offer := watcher.step(win.frame(i), i, i / win.fps):
            got.append(offer)
        statuses.append(watcher.status())
    zone = win.record["seat"]
    now = SEATS[(SEATS.index(zone) - 1) % 3]
    assert len(got) == 1 and got[0].reading.record["seat"] == now                # the offer: this deal's seat
    said = [s for s in statuses if s["state"] in ("reading", "offered") and s["seat"]]
    assert said and all(s["seat"] == now for s in said)
    assert any(f"reading {now}'s hand" in s["message"] for s in said)
    assert any(s["message"].startswith(f"{now}: ") for s in said)                 # "a win was read"
    assert not any(f"{zone}'s hand" in s["message"] or s["message"].startswith(f"{zone}:") for s in said)


def test_a_ledger_away_a_moment_leaves_the_status_as_it_was_not_a_failing_frame(vision_reader, win, tmp_path):
    """The status names the deal's seat from the ledger; a database gone for a moment made every
    frame's status (and the tablets' page) fail."""
    def away() -> ReadContext:
        raise OSError("could not connect to server")
    watcher = Watcher(vision_reader, vision_reader.table, SnapshotStore(tmp_path / "snapshots"), Offers(), away)
    watcher.trigger.seat = win.record["seat"]
    status = watcher.status()
    assert status["seat"] == win.record["seat"] and status["enabled"]


def test_a_camera_stalled_on_one_frame_offers_nothing_until_new_frames_show_the_hand_still(watching, win):
    """A stream that stalls (under the camera-lost limit) hands the watcher its last frame again and
    again: before, each was read again and voted, so one frame, caught with a tile still sliding in,
    was offered as a settled win. One frame is one look: the offer waits for new frames."""
    watcher, offers = watching()
    still = win.frame(win.settled + 2)
    for k in range(40):                                  # 5 s of the same frame number at 8 looks a second
        assert watcher.step(still, 7, k / 8) is None
    assert offers.latest is None and watcher.reads <= 1
    got = [o for k in range(1, 20) if (o := watcher.step(still, 7 + k, 5 + k / 8))]
    assert len(got) == 1 and got[0].frames >= 3 and record_diff(win.record, dict(got[0].reading.record)) == []


def test_a_win_logged_by_a_tapped_count_is_not_offered_again_when_the_view_settles(watching, win, client,
                                                                                   session):
    """The players tap Count and confirm while the watcher still waits for the view to settle: the
    table's offers hear of the logged win (the API's, as the tablet's Confirm), and the watcher takes
    the hand lying there as counted. Before, it offered it once the arm left: a second hand to log."""
    sid = session["id"]
    logged = client.app.state.offers
    r = client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "hand": 1})
    assert r.status_code == 201 and logged.hands_logged == 1
    watcher, offers = watching()
    step = lambda i: watcher.step(win.frame(i), i, i / win.fps)                 # noqa: E731
    assert [i for i in range(win.settled) if step(i)] == []                    # laid down, not yet still
    offers.logged()                                                            # the tapped count confirmed
    assert [i for i in range(win.settled, win.until) if step(i)] == [] and offers.latest is None
    assert watcher.trigger.state == OFFERED and "logged" in watcher.status()["message"]
    assert [i for i in range(win.until, len(win)) if step(i)] == []            # pushed in: watching again
    assert watcher.trigger.state == WATCHING


def test_a_camera_sending_black_frames_is_said_to_show_nothing(watching, win):
    """The table fitted, then the picture goes black (the light off, a lens cap): before, the last fit
    placed the felt on it and the tablets read "watching the table" for good."""
    import numpy as np
    watcher, offers = watching()
    assert watcher.step(win.frame(0), 0, 0.0) is None
    black = np.zeros_like(win.frame(0))
    for k in range(1, 20):
        assert watcher.step(black, k, k / 8) is None
    said = watcher.status()["message"]
    assert "blank" in said and "watching the table" not in said and offers.latest is None
    assert watcher.step(win.frame(0), 20, 20 / 8) is None and "blank" not in watcher.status()["message"]


def test_a_lost_camera_is_news_once_not_each_second_its_age_counts_on(vision_reader, tmp_path):
    """A stalled stream's "no new frame for 6 s", 7 s, 8 s... went to every tablet once a second."""
    class Told(Offers):
        def __init__(self):
            super().__init__()
            self.said: list[str] = []

        def tell(self, event, data, event_id=None):
            self.said.append(data["message"])
            super().tell(event, data, event_id)

    offers = Told()
    watcher = Watcher(vision_reader, vision_reader.table, SnapshotStore(tmp_path / "s"), offers,
                      lambda: ReadContext("dunhill"))
    for age in range(6, 21):
        watcher._see_camera(f"no new frame for {age} s from camera 'rtsp://cam'")
    watcher._see_camera("cannot open camera 'rtsp://cam'")
    watcher._see_camera("")
    lost = [m for m in offers.said if "camera lost" in m]
    assert len(lost) == 2 and "6 s" in lost[0] and "cannot open" in lost[1]
    assert "camera lost" not in offers.said[-1]


def test_discards_and_tiles_pushed_into_the_table_are_not_read(watching, stage):
    watcher, offers = watching()
    assert step_through(watcher, discard_clip(stage, seed=2)) == []
    assert watcher.reads == 0                       # no hand laid down: the cheap look alone
    assert step_through(watcher, push_clip(stage, seed=3), t0=100.0, n0=1000) == []
    assert offers.latest is None


def test_a_tenpai_display_at_a_draw_is_not_offered(watching, stage):
    watcher, offers = watching()
    clip = tenpai_clip(stage, seed=4)
    got = step_through(watcher, clip)
    assert got == [] and offers.latest is None
    # the first seat's 13 tiles alone were read and held as no win; the second seat's made it a display
    assert "several hands" in watcher.trigger.message


def test_switched_off_it_reads_nothing_and_a_tap_on_count_still_works(watching, win):
    watcher, offers = watching(enabled=False)
    assert step_through(watcher, win) == [] and watcher.reads == 0
    watcher.switch(True)
    assert watcher.enabled


def first_offer(client, within_s: float) -> dict:
    """The watcher's status once it holds an offer (polled as a tablet would), within ``within_s``."""
    deadline = time.monotonic() + within_s
    while (st := client.get("/api/watch").json())["offer"] is None:
        assert time.monotonic() < deadline, st
        time.sleep(0.25)
    return st


def test_the_service_watches_its_camera_and_offers_the_win(settings, watch_folder, win, tmp_path,
                                                          monkeypatch):
    """The app with a camera folder (play, then the win lying still), a calibrated table and the
    watcher on: the capture thread's frames reach the watcher's thread, and the offer is there."""
    from fastapi.testclient import TestClient

    from service.app import create_app

    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    save(TableFile("t1"), tmp_path / "tables")
    s = settings.model_copy(update={"camera": str(watch_folder), "camera_fps": 4.0, "calibration": "t1",
                                    "watch": True, "data_dir": tmp_path / "watch-data"})
    with TestClient(create_app(s), headers={"X-Table-PIN": PIN}) as c:
        st = first_offer(c, 40)
        offer = st["offer"]
        assert st["available"] and st["enabled"] and st["state"] in (OFFERED, WATCHING, HELD)
        assert record_diff(win.record, offer["record"]) == []
        assert c.get(offer["snapshot_url"]).status_code == 200
        assert {d["zone"] for d in offer["detections"]} >= {"hand", "melds", "dead_wall"}
        # the offer's reading is remembered: confirmed as read, its frame is kept as labels, with the
        # calibrated table it was read with (the deal's record is a layout's, not a scored hand: kept directly)
        kept = c.app.state.photo_labels.keep(offer["snapshot"], [offer["record"]])
        label = json.loads(kept.read_text())
        assert label["table"]["table"] == "t1" and {t["zone"] for t in label["tiles"]} >= {"hand", "melds"}
        off = c.post("/api/watch", json={"on": False}).json()
        assert off["enabled"] is False and off["state"] == "off"
        assert c.post("/api/watch", json={"on": "maybe"}).status_code == 422


def test_on_the_demo_camera_a_table_s_win_is_offered_by_itself(settings):
    """The README's main job: the demo camera's slideshow of tables after a win, each shown 4 s, and
    its hands counted by themselves. Each image came as one frame, so the watcher never saw a table
    still and offered nothing."""
    from fastapi.testclient import TestClient

    from service.app import create_app
    from service.settings import DEMO_HANDS

    s = settings.model_copy(update={"camera_fps": None, "watch": True})
    assert s.demo_camera and s.frame_rate == 0.25
    # its tables come round every 24 s: a session opened after they were first offered gets one soon
    assert s.repeat_s == 30 and s.model_copy(update={"watch_repeat_s": 600.0}).repeat_s == 600
    hands = json.loads(DEMO_HANDS.read_text())
    with TestClient(create_app(s), headers={"X-Table-PIN": PIN}) as c:
        offer = first_offer(c, 60)["offer"]
    shown = [h for h in hands.values() if h["seat"] == offer["seat"]]
    assert any(record_diff(h, offer["record"]) == [] for h in shown), offer["record"]


def test_the_tablets_are_told_when_the_camera_is_lost_and_when_it_is_back(settings, ip_camera, tmp_path,
                                                                          monkeypatch):
    """Auto count on and the camera unplugged: before, the switch kept saying "watching" and the players
    waited for a count that could not come."""
    from fastapi.testclient import TestClient

    from service.app import create_app

    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    save(TableFile("t1"), tmp_path / "tables")
    s = settings.model_copy(update={"camera": ip_camera.url, "camera_fps": None, "calibration": "t1",
                                    "watch": True, "data_dir": tmp_path / "watch-data"})

    def told(pred) -> dict:
        deadline = time.monotonic() + 15
        while not pred(st := c.get("/api/watch").json()):
            assert time.monotonic() < deadline, st
            time.sleep(0.2)
        return st

    with TestClient(create_app(s), headers={"X-Table-PIN": PIN}) as c:
        assert told(lambda st: st["state"] == WATCHING)["message"].startswith("見ています")
        ip_camera.unplug()
        lost = told(lambda st: st["state"] == "lost")
        assert lost["message"].startswith("カメラが見えません · camera lost") and str(ip_camera.port) in lost["message"]
        ip_camera.plug()
        assert "camera lost" not in told(lambda st: st["state"] == WATCHING)["message"]


def test_without_the_vision_reader_there_is_no_watcher_and_the_switch_says_why(manual_client):
    st = manual_client.get("/api/watch").json()
    assert st["available"] is False and st["offer"] is None and "vision reader" in st["message"]
    r = manual_client.post("/api/watch", json={"on": True})
    assert r.status_code == 409 and "vision reader" in r.json()["detail"]


def test_a_win_read_on_a_full_disk_says_so_and_is_offered_once_there_is_room(vision_reader, win, small_disk):
    offers = Offers()
    watcher = Watcher(vision_reader, vision_reader.table, SnapshotStore(small_disk / "snapshots"), offers,
                      lambda: ReadContext("dunhill"))
    fill(small_disk)
    lying = range(win.until)                                    # play, then the win lying still
    assert [i for i in lying if watcher.step(win.frame(i), i, i / win.fps)] == []     # read, not saved
    said = watcher.status()["message"]                          # what the tablets are told
    assert "disk is full" in said and "cannot be offered" in said and offers.latest is None
    (small_disk / "filler").unlink()
    # freed while the table shows no win (play again): the tablets are told so without an offer
    assert watcher.step(win.frame(0), len(lying), len(lying) / win.fps) is None
    assert "disk is full" not in watcher.status()["message"] and offers.latest is None
    later = len(lying) + 1
    got = [o for i in range(win.settled, win.until)
           if (o := watcher.step(win.frame(i), later + i, (later + i) / win.fps))]
    assert len(got) == 1 and record_diff(win.record, dict(got[0].reading.record)) == []
    assert "disk is full" not in watcher.status()["message"]


def test_under_a_warm_light_the_look_sees_the_hand_with_the_tables_white_balance(vision_reader, win):
    """Under a parlour's warm light the faces are orange, not ivory: the watcher's look saw no tile of
    the hand laid down and never read it, though the table was fitted under that light and the
    reader, balancing the colours, read it right. The look balances them too."""
    from dataclasses import replace as replaced
    import numpy as np
    from calibration.whitebalance import gains_from_frame
    from calibration.homography import detect_markers
    from service.watch.look import Looker

    still = win.frame(win.settled + 2)
    warm = np.clip(still * np.array([0.5, 0.72, 0.9]), 0, 255).astype(np.uint8)      # a tungsten cast
    table = vision_reader.table
    gains = gains_from_frame(warm, detect_markers(warm, table.layout), table.layout)   # a fit under that light
    seat = win.record["seat"]
    plain = Looker(table).look(still, 0.0).shown[seat]
    blind = Looker(table).look(warm, 0.0).shown[seat]
    balanced = Looker(replaced(table, white_balance=gains)).look(warm, 0.0).shown[seat]
    assert plain >= 10 and blind < 1.5                       # before: the hand was not there
    assert balanced >= 0.8 * plain


def test_the_look_follows_the_table_file_edited_while_the_table_runs(win, tmp_path, monkeypatch):
    """The reader read a changed table file again, but the watcher's look kept the table it started
    with (its white balance, lens, hand zones): a zone edited stayed watched, and a new lens never
    reached the look that decides when to read. It looks with the file as it is now."""
    from service.vision_reader import VisionReader

    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path))
    save(TableFile("t1"), tmp_path)
    reader = VisionReader("t1")
    watcher = Watcher(reader, reader.table, SnapshotStore(tmp_path / "snapshots"), Offers(),
                      lambda: ReadContext("dunhill"))
    watcher.step(win.frame(0), 0, 0.0)
    seat = win.record["seat"]
    assert f"{seat}.hand" in [z.name for z in watcher.looker.hands]
    path = tmp_path / "t1.json"
    data = json.loads(path.read_text())
    data["zones"] = [z for z in data["zones"] if z["name"] != f"{seat}.hand"]
    data["white_balance"] = {"gains_bgr": [1.1, 1.0, 0.9]}
    path.write_text(json.dumps(data))
    watcher.step(win.frame(1), 1, 0.1)
    assert f"{seat}.hand" not in [z.name for z in watcher.looker.hands]
    assert watcher.looker.table.white_balance == (1.1, 1.0, 0.9) and watcher.looker.table is reader.table
