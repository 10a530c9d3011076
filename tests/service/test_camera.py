"""The capture thread on real sources: a folder of images, a video file and an IP camera's MJPEG
stream, read by OpenCV."""

from __future__ import annotations

import socket
import time

import cv2
import numpy as np
import pytest

from service.camera import Camera, CameraError, describe
from service.shown import shown_url


def _frames(n: int, w: int = 160, h: int = 120) -> list[np.ndarray]:
    return [np.full((h, w, 3), 20 * (i + 1), np.uint8) for i in range(n)]


def test_a_folder_is_shown_frame_by_frame(tmp_path):
    for i, f in enumerate(_frames(3)):
        cv2.imwrite(str(tmp_path / f"{i}.png"), f)
    cam = Camera(str(tmp_path), fps=50).start()
    try:
        n, frame = cam.latest()
        assert frame.shape == (120, 160, 3)
        seen = {int(cam.latest()[1][0, 0, 0]) for _ in range(40) if not cam.jpeg(after=cam.latest()[0])[0] is None}
        assert seen <= {20, 40, 60} and len(seen) >= 2         # it moves through the folder
        parts = list(cam.mjpeg(limit=2))
        assert len(parts) == 2 and all(p.startswith(b"--frame\r\n") for p in parts)
    finally:
        cam.stop()


def test_a_slideshow_s_image_is_a_still_table_given_as_new_frames_while_it_is_shown(tmp_path):
    """The demo's folder shows each image 4 s. Given once, the watcher (which sees a table still only
    over frames it has not seen) never saw one still, and the demo's hands were never counted by
    themselves. A camera on a still table gives new frames of one view: so does the slideshow."""
    for i, f in enumerate(_frames(2)):
        cv2.imwrite(str(tmp_path / f"{i}.png"), f)
    cam = Camera(str(tmp_path), fps=0.5).start()        # an image every 2 s
    try:
        seen = []
        deadline = time.monotonic() + 1.6
        while time.monotonic() < deadline:
            n, frame = cam.latest()
            seen.append((n, int(frame[0, 0, 0]), cam.scene))
            time.sleep(0.05)
        numbers = {n for n, _, _ in seen}
        assert len(numbers) >= 4                         # new frames while the first image is shown
        assert {(v, sc) for _, v, sc in seen} == {(20, 0)}   # all of it, one scene
    finally:
        cam.stop()


def test_a_video_file_loops(tmp_path):
    path = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for f in _frames(3):
        out.write(f)
    out.release()
    assert describe(str(path)) == "file"
    cam = Camera(str(path), fps=60).start()
    try:
        first, _ = cam.latest()
        later, _ = cam.jpeg(after=first + 5, timeout=5)     # past the clip's 3 frames: it looped
        assert later > first + 5
    finally:
        cam.stop()


def test_a_video_file_plays_at_its_pace(tmp_path):
    """A file plays at ``fps`` (TABLE_CAMERA_FPS, 2 by default): the slideshow's giving an image again
    every 0.25 s waited a quarter second, not the period, so a file at 2 fps played at 4."""
    path = tmp_path / "clip.avi"
    out = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for f in _frames(3):
        out.write(f)
    out.release()
    cam = Camera(str(path), fps=2).start()
    try:
        first, _ = cam.latest()
        time.sleep(2.0)
        assert 3 <= cam.frames - first <= 5           # about four frames in two seconds, not eight
    finally:
        cam.stop()


def test_a_still_image_file_is_shown_as_a_camera_that_never_moves(tmp_path):
    """TABLE_CAMERA set to one photo: OpenCV read it once, then gave no frame, and the camera flapped
    between a frame and "lost" (Count refused two times in three). Shown as a folder of one."""
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), _frames(1)[0])
    assert describe(str(path)) == "file"
    cam = Camera(str(path), fps=20).start()
    try:
        first, _ = cam.latest()
        later, frame = cam.jpeg(after=first + 10, timeout=5)
        assert later > first + 10 and cam.error == "" and cam.lost() == ""
        path.write_bytes(b"\x89PNG half written")                # being replaced: no frame for a while
        for _ in range(50):
            if cam.error:
                break
            time.sleep(0.1)
        assert "gave no frame" in cam.error
        cv2.imwrite(str(path), _frames(2)[1])                     # written whole: shown again
        now = cam.frames
        assert cam.jpeg(after=now, timeout=5)[0] > now and cam.error == ""
    finally:
        cam.stop()


def test_a_folder_shows_the_images_after_one_that_does_not_read(tmp_path):
    """A half-copied file in the middle: the show went back to its first image at it, so the
    images after it were never shown, and the camera flapped lost."""
    frames = _frames(3)
    cv2.imwrite(str(tmp_path / "a.png"), frames[0])
    (tmp_path / "b.jpg").write_bytes(b"\xff\xd8 not a whole jpeg")
    cv2.imwrite(str(tmp_path / "c.png"), frames[2])
    cam = Camera(str(tmp_path), fps=50).start()
    try:
        seen, n = set(), cam.latest()[0]
        for _ in range(20):
            n, frame = cam.jpeg(after=n, timeout=5)[0], cam.latest()[1]
            seen.add(int(frame[0, 0, 0]))
        assert seen == {20, 60} and cam.error == ""
    finally:
        cam.stop()


def test_sources_are_told_apart():
    assert describe("0") == "usb"
    assert describe("rtsp://cam.local/stream") == "url"
    with pytest.raises(CameraError, match="not a USB index"):
        describe("/no/such/thing")


def test_an_empty_folder_reports_why(tmp_path):
    cam = Camera(str(tmp_path), fps=10).start()
    try:
        with pytest.raises(CameraError, match="holds no images"):
            cam.latest(timeout=2)
    finally:
        cam.stop()


def test_a_lost_camera_is_logged_once_not_at_every_retry(tmp_path, caplog):
    cam = Camera(str(tmp_path), fps=10).start()          # an empty folder: no frame, retried each second
    try:
        with pytest.raises(CameraError):
            cam.latest(timeout=2.5)                         # long enough for two retries
    finally:
        cam.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "service.camera"]
    assert len(said) == 1 and "holds no images" in said[0] and "retrying" in said[0]


def test_a_urls_password_is_never_said():
    assert shown_url("rtsp://admin:s3cret@10.0.0.5:554/Streaming/101") == "rtsp://admin:***@10.0.0.5:554/Streaming/101"
    assert shown_url("rtsp://admin:a:b%40c@cam/x") == "rtsp://admin:***@cam/x"     # a colon in it too
    for kept in ("rtsp://10.0.0.5/live", "http://viewer@cam/mjpeg", "0", "/srv/frames", "http://cam:8080/a:b@c"):
        assert shown_url(kept) == kept                    # no password: said as given


def test_a_lost_ip_camera_is_said_without_its_password(caplog):
    with socket.socket() as s:                               # a port nothing listens on: refused at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cam = Camera(f"rtsp://admin:s3cret@127.0.0.1:{port}/stream", fps=10).start()
    try:
        with pytest.raises(CameraError) as lost:
            cam.latest(timeout=2.5)
    finally:
        cam.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "service.camera"] + [str(lost.value), cam.error]
    assert all("s3cret" not in m for m in said), said
    assert f"admin:***@127.0.0.1:{port}" in said[0] and "cannot open camera" in said[0]


def _lost_within(cam: Camera, seconds: float) -> str:
    """What ``latest`` says once the camera is lost (waited for up to ``seconds``); '' if it never is."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            cam.latest(timeout=0.2)
        except CameraError as e:
            return str(e)
        time.sleep(0.1)
    return ""


def test_a_folder_camera_that_goes_away_gives_no_frame_until_it_is_back(tmp_path):
    """Its last frame is the table as it was: a Count then would score the hand before. The capture
    retries, and frames come again once the folder is back (a network share remounted)."""
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, f in enumerate(_frames(2)):
        cv2.imwrite(str(folder / f"{i}.png"), f)
    cam = Camera(str(folder), fps=20).start()
    try:
        cam.latest()
        folder.rename(tmp_path / "away")
        said = _lost_within(cam, 3)
        assert "gave no frame" in said or "cannot be read" in said, said
        (tmp_path / "away").rename(folder)
        n, frame = cam.latest(timeout=4)                 # retried each second: back
        assert frame.shape == (120, 160, 3) and cam.error == ""
    finally:
        cam.stop()


def test_an_ip_camera_unplugged_mid_stream_gives_no_stale_frame_and_comes_back(ip_camera, capfd):
    cam = Camera(ip_camera.url, fps=2).start()
    try:
        first, frame = cam.latest(timeout=10)
        assert frame.shape == (60, 80, 3)
        ip_camera.unplug()
        said = _lost_within(cam, 5)
        assert said and str(ip_camera.port) in said, said
        assert cam.lost() == said
        ip_camera.plug()
        later, _ = cam.latest(timeout=10)
        assert later > first and cam.lost() == ""
    finally:
        cam.stop()
    assert "Connection refused" not in capfd.readouterr().err      # FFmpeg's line at each retry: not said


def test_a_stream_that_stalls_is_lost_after_stale_s_and_not_at_a_short_pause(ip_camera):
    """A stalled stream says nothing (FFmpeg's read just waits): no new frame for ``stale_s`` is lost."""
    cam = Camera(ip_camera.url, fps=2, stale_s=1.5).start()
    try:
        cam.latest(timeout=10)
        ip_camera.stall()
        time.sleep(0.3)
        assert cam.lost() == ""                             # a pause is not a lost camera
        said = _lost_within(cam, 4)
        assert said.startswith("no new frame for") and str(ip_camera.port) in said, said
        ip_camera.resume()
        cam.latest(timeout=5)
        assert cam.lost() == ""
    finally:
        ip_camera.resume()
        cam.stop()


def test_a_live_camera_giving_smaller_frames_than_asked_is_said_once(ip_camera, caplog):
    """An IP camera set to 80x60 here, the table asking for 1920x1080 (TABLE_CAMERA_SIZE): the tiles
    would be read from frames too small, and nothing said why."""
    cam = Camera(ip_camera.url, size=(1920, 1080)).start()
    try:
        first, _ = cam.latest(timeout=10)
        cam.jpeg(after=first + 3, timeout=5)                # a few frames more: said once, not each
    finally:
        cam.stop()
    said = [r.getMessage() for r in caplog.records if r.name == "service.camera"]
    assert len(said) == 1 and "gives 80x60 frames, smaller than 1920x1080" in said[0], said
    caplog.clear()
    cam = Camera(ip_camera.url, size=(80, 60)).start()      # as asked: nothing said
    try:
        cam.latest(timeout=10)
    finally:
        cam.stop()
    assert [r for r in caplog.records if r.name == "service.camera"] == []


def test_the_preview_of_a_lost_camera_keeps_sending_so_a_closed_tablet_frees_its_worker(tmp_path):
    """A stream that sent nothing while the camera was lost never learnt its tablet had gone, and
    held a server worker for good: 40 page loads and the service answered no one. It now sends a
    "no picture" frame after its first look and every few seconds, and a still camera's frame again."""
    from service.camera import KEEPALIVE_S, lost_picture

    folder = tmp_path / "frames"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), _frames(1)[0])
    cam = Camera(str(folder), fps=20).start()
    try:
        stream = cam.mjpeg(fps=5)
        started = time.monotonic()
        first, again = next(stream), next(stream)           # a still folder: one frame, sent again
        assert time.monotonic() - started < KEEPALIVE_S + 2
        assert first.split(b"\r\n\r\n", 1)[1] == again.split(b"\r\n\r\n", 1)[1]
        folder.rename(tmp_path / "away")
        assert _lost_within(cam, 3)
        started = time.monotonic()
        part = next(stream)
        while lost_picture() not in part:                    # the frame before, then the camera lost
            part = next(stream)
        assert time.monotonic() - started < KEEPALIVE_S * 2 + 2
        stream.close()
    finally:
        cam.stop()
    (tmp_path / "empty").mkdir()
    lost = Camera(str(tmp_path / "empty"), fps=5).start()
    try:
        started = time.monotonic()
        assert lost_picture() in next(lost.mjpeg())          # a camera lost from the start: said at its first look
        assert time.monotonic() - started < KEEPALIVE_S + 2
    finally:
        lost.stop()


def test_count_with_the_camera_lost_tells_the_players_in_japanese_what_to_do(tmp_path):
    """Before, the tablet said "camera folder ... holds no images" in English alone."""
    from fastapi.testclient import TestClient
    from service.app import create_app
    from service.settings import Settings
    from table_fixtures import PIN, PLAYERS

    (tmp_path / "cam").mkdir()
    settings = Settings(_env_file=None, data_dir=tmp_path / "data", pin=PIN, camera=str(tmp_path / "cam"),
                        watch=False)
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        r = client.post(f"/s/{sid}/count", headers={"HX-Request": "true"})
        assert r.status_code == 503
        assert "カメラの映像がありません" in r.text and "手で入力" in r.text and "holds no images" in r.text
