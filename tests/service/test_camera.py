"""The capture thread on real sources: a folder of images and a video file, read by OpenCV."""

from __future__ import annotations

import socket

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
