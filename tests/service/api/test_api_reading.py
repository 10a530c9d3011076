"""Images and scores over the API: uploads checked before anything is written, the camera, the reader seam."""

from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from service.settings import DEMO_FRAMES, DEMO_HANDS
from service.reader import NoReader
from mjpeg_camera import MjpegCamera, textured_frames
from table_fixtures import PIN, PLAYERS, record
from scoring.tiles import parse_mpsz, tile_name
from service.app import create_app
from vision.evaluate import photos_dir


def _png(w: int = 320, h: int = 240) -> bytes:
    img = np.zeros((h, w, 3), np.uint8)
    cv2.rectangle(img, (10, 10), (w // 2, h // 2), (0, 200, 0), -1)
    return cv2.imencode(".png", img)[1].tobytes()


def _stored(settings) -> list:
    folder = settings.snapshot_dir
    return sorted(folder.iterdir()) if folder.exists() else []


def test_an_uploaded_image_becomes_a_snapshot_and_no_reader_says_so(manual_client, settings):
    client = manual_client
    session = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()
    r = client.post("/api/read", files={"image": ("t.png", _png(), "image/png")}, data={"session": session["id"]})
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["width"], out["height"]) == (320, 240)
    assert out["installed"] is False and out["record"] is None and out["detections"] == []
    assert out["warnings"] == [NoReader.MESSAGE]
    img = client.get(out["snapshot_url"])
    assert img.status_code == 200 and img.headers["content-type"] == "image/jpeg"
    assert [p.name for p in _stored(settings)] == [out["snapshot"]]
    # the snapshot can go with the confirmed hand
    r = client.post(f"/api/sessions/{session['id']}/wins", json={"records": [record()], "snapshot": out["snapshot"]})
    assert r.status_code == 201 and r.json()["event"]["snapshot"] == out["snapshot"]
    assert client.get(f"/api/sessions/{session['id']}/hands").json()["hands"][0]["snapshot"] == out["snapshot"]


def test_bad_uploads_are_refused_and_nothing_is_written(client, settings):
    cases = [
        (("t.txt", b"not an image at all", "text/plain"), 415, "not an image"),
        (("t.png", b"", "image/png"), 422, "empty"),
        (("big.png", b"\x89PNG" + b"0" * 300_000, "image/png"), 413, "limit"),
        (("wide.png", _png(2400, 10), "image/png"), 413, "2400x10"),
    ]
    for file, status, words in cases:
        r = client.post("/api/read", files={"image": file})
        assert r.status_code == status, (file[0], r.text)
        assert words in r.json()["detail"]
    r = client.post("/api/read", data={"session": "x"})
    assert r.status_code == 422 and "image" in r.json()["detail"]
    assert _stored(settings) == []


def test_reading_for_an_unknown_session_writes_nothing(client, settings):
    r = client.post("/api/read", files={"image": ("t.png", _png(), "image/png")}, data={"session": "nope"})
    assert r.status_code == 404 and _stored(settings) == []


def test_the_demo_camera_frame_is_read_by_the_vision_reader(client, session):
    r = client.post(f"/api/camera/read?session={session['id']}")
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["width"], out["height"]) == (1920, 1080)     # the demo frames' size
    assert out["reader"] == "vision" and out["installed"] is True
    demo = json.loads(DEMO_HANDS.read_text()).values()
    assert out["record"]["seat"] in {h["seat"] for h in demo} and len(out["detections"]) > 14
    frame = client.get("/api/camera/frame.jpg")
    assert frame.status_code == 200 and frame.content[:2] == b"\xff\xd8"


def test_a_reading_without_a_session_is_counted_under_the_rule_asked_for(client, settings):
    """Without a session the record named the rule "" and its score said "rules must be a preset id",
    a field the caller never sent. It is read under ``rules`` (dunhill unless said), as the hand photo's
    route reads it; an unknown rule is refused before anything is read or written."""
    jpeg = (DEMO_FRAMES / "frame-01.jpg").read_bytes()
    for asked in ({}, {"rules": "balance"}):
        read = client.post("/api/read", files={"image": ("f.jpg", jpeg, "image/jpeg")}, data=asked).json()
        assert read["record"]["rules"] == asked.get("rules", "dunhill")
        assert read.get("score_error") is None, read["score_error"]
        assert read["score"]["total"] > 0
    camera = client.post("/api/camera/read?rules=toutenkou").json()        # whichever frame the demo shows
    assert camera["record"]["rules"] == "toutenkou" and "rules must be" not in (camera.get("score_error") or "")
    before = _stored(settings)
    refused = client.post("/api/read", files={"image": ("f.jpg", jpeg, "image/jpeg")}, data={"rules": "mystery"})
    assert refused.status_code in (404, 422) and "mystery" in refused.json()["detail"]
    assert _stored(settings) == before


def test_after_the_deal_moves_on_a_read_win_names_the_player_in_the_winners_zone(client, session):
    """Aki deals first, so Aki's zone is East, Ben's South, Chie's West. Ben wins: Ben deals. Then
    Chie wins in the West zone (demo frame 04): the record names Chie's seat in this deal, south, so
    Chie is paid; before, it said west, which is Aki's seat now."""
    sid = session["id"]
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record("south")], "hand": 1}).status_code == 201
    seats = client.get(f"/api/sessions/{sid}").json()["seats"]
    assert seats == {"east": "Ben", "south": "Chie", "west": "Aki"}
    shown = json.loads(DEMO_HANDS.read_text())["frame-04.jpg"]
    assert shown["seat"] == "west"
    jpeg = (DEMO_FRAMES / "frame-04.jpg").read_bytes()
    read = client.post("/api/read", files={"image": ("f.jpg", jpeg, "image/jpeg")}, data={"session": sid}).json()
    assert seats[read["record"]["seat"]] == "Chie"
    count = client.post("/api/score", json={"record": read["record"], "session": sid}).json()
    assert set(count["payments"]) == {"east", "west"}           # Ben and Aki pay


def test_a_hand_read_again_to_correct_it_names_the_seats_of_its_own_deal(client, session):
    """Hand 1 (Aki dealing) corrected from the history after Ben took the deal: its picture read again
    names the seats as they were at hand 1, where the reader took the deal of now."""
    sid = session["id"]
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record("south")], "hand": 1}).status_code == 201
    jpeg = (DEMO_FRAMES / "frame-04.jpg").read_bytes()          # the West zone's win: Chie's
    now = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", jpeg, "image/jpeg")}, data={"hand": "2"})
    then = client.post(f"/s/{sid}/upload", files={"image": ("f.jpg", jpeg, "image/jpeg")},
                       data={"hand": "1", "correct": "1"})
    seat = lambda page: re.search(r'name="seat" value="(\w+)"[^>]*checked', page.text).group(1)     # noqa: E731
    assert (seat(now), seat(then)) == ("south", "west")         # Chie: south under Ben's deal, west under Aki's


def test_a_count_after_the_camera_is_lost_is_refused_not_read_from_its_last_frame(settings, ip_camera):
    """The last frame shows the table as it was (the hand before): it is not counted as this one."""
    on_ip = settings.model_copy(update={"reader": "", "camera": ip_camera.url, "camera_fps": None})
    with TestClient(create_app(on_ip), headers={"X-Table-PIN": PIN}) as client:
        counted = client.post("/api/camera/read")
        assert counted.status_code == 200, counted.text
        ip_camera.unplug()
        for _ in range(50):                                  # the capture sees the stream end
            if client.app.state.camera.error:
                break
            time.sleep(0.1)
        refused = client.post("/api/camera/read")
        assert refused.status_code == 503, refused.text
        assert f"127.0.0.1:{ip_camera.port}" in refused.json()["detail"]
        assert client.get("/api/camera/frame.jpg").status_code == 503          # nor shown as the table now
        assert [p.name for p in _stored(on_ip)] == [counted.json()["snapshot"]]     # nothing more written


def _parts(body: bytes) -> list[bytes]:
    """The JPEGs of a multipart MJPEG body."""
    return [part.split(b"\r\n\r\n", 1)[1].rsplit(b"\r\n", 1)[0]
            for part in body.split(b"--frame\r\n")[1:]]


def test_the_live_preview_is_paced_and_narrowed_not_every_frame_of_a_live_camera(settings):
    """A live camera sends 20 frames a second of 640x480 here; the tablet's preview takes 4 a second,
    320 wide (TABLE_PREVIEW_FPS, TABLE_PREVIEW_WIDTH): every frame whole was megabytes a second of
    the parlour's Wi-Fi for each open tablet."""
    ip_camera = MjpegCamera(textured_frames(640, 480), fps=20)
    try:
        on_ip = settings.model_copy(update={"reader": "", "camera": ip_camera.url, "camera_fps": None,
                                            "preview_fps": 4.0, "preview_width": 320})
        with TestClient(create_app(on_ip), headers={"X-Table-PIN": PIN}) as client:
            client.app.state.camera.latest(timeout=10)
            started = time.monotonic()
            r = client.get("/api/camera/stream?frames=5")
            took = time.monotonic() - started
            assert r.status_code == 200
            shown = [cv2.imdecode(np.frombuffer(p, np.uint8), cv2.IMREAD_COLOR) for p in _parts(r.content)]
            assert [im.shape for im in shown] == [(240, 320, 3)] * 5
            assert took >= 4 / 4.0 * 0.9, took                # four gaps of a quarter second at the least
            whole = client.get("/api/camera/frame.jpg")      # the frame itself stays whole
            assert cv2.imdecode(np.frombuffer(whole.content, np.uint8), cv2.IMREAD_COLOR).shape == (480, 640, 3)
    finally:
        ip_camera.unplug()


def test_the_live_preview_is_mjpeg(client):
    r = client.get("/api/camera/stream?frames=2")
    assert r.status_code == 200 and r.headers["content-type"].startswith("multipart/x-mixed-replace")
    assert r.content.count(b"--frame\r\nContent-Type: image/jpeg") == 2


def test_score_refuses_an_invalid_record_with_its_reason(client):
    r = client.post("/api/score", json={"record": record(seat="north")})
    assert r.status_code == 422 and "seat" in r.json()["detail"]
    r = client.post("/api/score", json={"record": record(shape={"concealed": "123m", "win_tile": "1m"})})
    assert r.status_code == 422
    r = client.post("/api/score", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "JSON" in r.json()["detail"]


def test_unknown_snapshot_is_404(client):
    assert client.get("/api/snapshots/../../etc/passwd").status_code == 404
    assert client.get("/api/snapshots/" + "a" * 20 + ".jpg").status_code == 404


HAND_LABELS = json.loads((Path(__file__).resolve().parents[3] / "vision" / "labels" / "hand-92345ff1.json")
                         .read_text(encoding="utf-8"))


@pytest.fixture
def roomy_client(settings):
    """No reader of the table (no camera needed for a photo of the hand); uploads up to 2 MB."""
    roomy = settings.model_copy(update={"reader": "", "max_upload_bytes": 2_000_000})
    with TestClient(create_app(roomy), headers={"X-Table-PIN": PIN}) as c:
        yield c


def test_a_photo_of_the_hand_is_read_and_scored_as_the_players_say_it_was_won(roomy_client, settings):
    photo = photos_dir() / HAND_LABELS["image"]
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    client = roomy_client
    session = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()
    r = client.post("/api/read/hand-photo", files={"image": (photo.name, photo.read_bytes(), "image/jpeg")},
                    data={"session": session["id"], "seat": "south", "win": "ron", "discarder": "east"})
    assert r.status_code == 200, r.text
    out = r.json()
    rec = out["record"]
    assert (rec["rules"], rec["seat"], rec["win"], rec["discarder"]) == ("dunhill", "south", "ron", "east")
    assert rec["win_tile"] == HAND_LABELS["hand_line"][-1]
    assert sorted(tile_name(t) for t in parse_mpsz(rec["concealed"])) == sorted(HAND_LABELS["hand_line"])
    assert [d["tile"] for d in out["detections"]] == HAND_LABELS["hand_line"]
    assert out["score"]["total"] > 0 and out["score"]["payments"] == {"east": out["score"]["total"]}
    assert [p.name for p in _stored(settings)] == [out["snapshot"]]


@pytest.mark.parametrize("rules, said", [("chinton", "plays one suit per hand"),
                                          ("dunhill", "9m is a gari under dunhill")])
def test_a_hand_photo_read_without_its_winning_tile_says_what_is_wrong_with_its_tiles(roomy_client, rules, said):
    """hand-70008812's line: 13 tiles and a 9m kan, pinzu and souzu. Its score_error said only
    "'' is not one tile"; its tiles are no hand at all under either rule, whatever tile won.
    (Tiles that are fine are told to name the winning tile: ``table.tiles_refused``'s test.)"""
    photo = photos_dir() / "hand-70008812.jpg"
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    session = roomy_client.post("/api/sessions", json={"rules": rules, "players": PLAYERS}).json()
    r = roomy_client.post("/api/read/hand-photo", files={"image": (photo.name, photo.read_bytes(), "image/jpeg")},
                          data={"session": session["id"], "seat": "south", "win": "tsumo"})
    assert r.status_code == 200, r.text
    assert r.json()["record"]["win_tile"] == "" and said in r.json()["score_error"]


def test_a_13_mp_tablet_photo_of_the_hand_is_read_not_refused_as_too_large(settings):
    """The same real photo as a 13 MP tablet takes it (4128x3096): before, "larger than 4096 pixels
    on a side". Read at half size, the hand is read as from the photo itself."""
    photo = photos_dir() / HAND_LABELS["image"]
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    big = cv2.resize(cv2.imread(str(photo)), (4128, 3096), interpolation=cv2.INTER_CUBIC)
    data = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    roomy = settings.model_copy(update={"reader": "", "max_upload_bytes": 8 << 20, "max_image_side": 4096})
    with TestClient(create_app(roomy), headers={"X-Table-PIN": PIN}) as client:
        r = client.post("/api/read/hand-photo", files={"image": ("tablet.jpg", data, "image/jpeg")},
                        data={"seat": "south", "win": "ron", "discarder": "east"})
    assert r.status_code == 200, r.text
    out = r.json()
    assert (out["width"], out["height"]) == (2064, 1548)
    assert [d["tile"] for d in out["detections"]] == HAND_LABELS["hand_line"]


def test_a_hand_photo_with_a_seat_that_is_no_seat_is_refused_and_nothing_is_kept(manual_client, settings):
    r = manual_client.post("/api/read/hand-photo", files={"image": ("t.png", _png(), "image/png")},
                           data={"seat": "north"})
    assert r.status_code == 422 and "seat" in r.text
    assert _stored(settings) == []
    r = manual_client.post("/api/read/hand-photo", data={"seat": "east"})
    assert r.status_code == 422 and "image" in r.text
    r = manual_client.post("/api/read/hand-photo", files={"image": ("t.png", _png(), "image/png")},
                           data={"seat": "east", "session": "no-such-session"})
    assert r.status_code == 404 and _stored(settings) == []
    for rules in ("nope", "../../etc/passwd"):        # was read under no rule at all, and kept
        r = manual_client.post("/api/read/hand-photo", files={"image": ("t.png", _png(), "image/png")},
                               data={"seat": "east", "rules": rules})
        assert r.status_code == 422 and rules in r.json()["detail"] and _stored(settings) == []


class _Gated:
    """A reader that waits, once it has begun, until the test lets it go, then reads as ``real``
    does: a reading that takes its time, held as long as the test needs."""

    def __init__(self, real):
        self.real, self.begun, self.go = real, threading.Event(), threading.Event()

    def read(self, *args, **kwargs):
        self.begun.set()
        self.go.wait(30)
        return self.real.read(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.real, name)


@pytest.mark.parametrize("route, reader", [("/api/read", "reader"), ("/api/read/hand-photo", "hand_photos")])
def test_the_tablets_pages_answer_while_an_image_is_read(client, route, reader):
    """A reading takes a tenth of a second to a second or more (a photo from the seat read again at
    other sizes); meanwhile the other tablet's pages, and its news of the table, must still come."""
    gated = _Gated(getattr(client.app.state, reader))
    setattr(client.app.state, reader, gated)
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    frame = (Path(DEMO_HANDS).parent / "frames" / "frame-01.jpg").read_bytes()
    answers = {}
    reading = threading.Thread(target=lambda: answers.setdefault("read", client.post(
        route, files={"image": ("f.jpg", frame, "image/jpeg")}, data={"session": sid})))
    reading.start()
    try:
        assert gated.begun.wait(30), "the reading never began"
        page = threading.Thread(target=lambda: answers.setdefault("page", client.get(f"/s/{sid}")))
        page.start()
        page.join(10)
        assert not page.is_alive(), "the table's page waited for the reading"
        assert answers["page"].status_code == 200
    finally:
        gated.go.set()
        reading.join(60)
    assert answers["read"].status_code == 200, answers["read"].text
