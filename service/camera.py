"""The table camera: one capture thread per source, the latest frame always at hand.

A source is a USB index (``"0"``), an RTSP/HTTP URL, a video file (looped) or a
folder of images (cycled: the demo camera). The thread keeps only the newest
frame, so a slow page never backs up the capture; readers and the MJPEG
preview take that frame when they want it.

A camera lost after its first frame (unplugged, its stream ended or stalled, its folder gone) is
retried every second, and meanwhile ``latest`` gives no frame: the last one it gave shows the table
as it was, the hand before, and a Count must not score it as this one.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
import time
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from .snapshots import encode_jpeg
from .shown import shown_url

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}
BOUNDARY = "frame"
KEEPALIVE_S = 2.0        # seconds: the preview sends a part at least this often (mjpeg)
STILL_EVERY_S = 0.25    # a slideshow's image given again this often while it is shown (a still table)
STALE_MIN_S = 5.0       # no new frame for this long (or three of a slow slideshow's): the camera is lost
log = logging.getLogger(__name__)

# A lost camera is retried every second and said once, in our words (CameraError):
# OpenCV's own warning for each failed open would fill the log.
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
# ... and FFmpeg's, written straight to stderr ("Connection refused" at each retry of an IP camera):
# fatal only, unless set otherwise to look into a camera. Read once, at the first stream opened.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "8")


class CameraError(RuntimeError):
    pass


def describe(source: str) -> str:
    """What kind of source ``source`` is: usb, url, folder or file."""
    if source.strip().isascii() and source.strip().isdigit():
        return "usb"
    if "://" in source:
        return "url"
    path = Path(source)
    if path.is_dir():
        return "folder"
    if path.is_file():
        return "file"
    raise CameraError(f"camera source {shown_url(source)!r} is not a USB index, a URL, a video file or a folder")


class _Folder:
    """Images of a folder in name order, as if a camera were showing them (a still image file: a
    folder of one)."""

    def __init__(self, folder: Path):
        try:
            self.files = ([folder] if folder.is_file() else
                          sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES))
        except OSError as e:                # gone, or a share that went away: retried as any lost camera
            raise CameraError(f"camera folder {folder} cannot be read ({e.strerror or e})") from None
        if not self.files:
            raise CameraError(f"camera folder {folder} holds no images")
        self.i = 0

    def read(self) -> tuple[bool, np.ndarray | None]:
        """The next image that reads (one that does not is passed over: a half-copied file would
        otherwise send the show back to its first image, and those after it were never shown)."""
        for _ in range(len(self.files)):
            frame = cv2.imread(str(self.files[self.i % len(self.files)]), cv2.IMREAD_COLOR)
            self.i += 1
            if frame is not None:
                return True, frame
        return False, None

    def release(self) -> None:
        pass


class Camera:
    """A capture thread over one source; ``latest()`` is the newest frame and its number, while the
    camera gives frames."""

    def __init__(self, source: str, fps: float = 2.0, stale_s: float = STALE_MIN_S,
                 size: tuple[int, int] | None = None):
        self.source, self.kind = source, describe(source)
        self.shown = shown_url(source)
        self.size = size                    # (width, height) a USB camera is asked for; None: as it gives
        self.period = 1.0 / fps
        self.stale_s = max(stale_s, 3 * self.period)
        self._lock = threading.Condition()
        self._frame: np.ndarray | None = None
        # the newest frame encoded as JPEG yet, and its number, by the width it was shown at (None: as taken)
        self._jpegs: dict[int | None, tuple[int, bytes]] = {}
        self._count = 0
        self._at = 0.0                      # when the newest frame came (monotonic)
        self._scene = 0
        self._shape: tuple[int, int] | None = None      # the frames' size last said (``_say_size``)
        self._error = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- lifecycle ----------------------------------------------------------
    def start(self) -> "Camera":
        self._at = time.monotonic()         # a first frame is awaited from now, as a new one is after it
        self._thread = threading.Thread(target=self._run, name=f"camera {self.shown}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _open(self):
        if self.kind == "folder" or (self.kind == "file" and Path(self.source).suffix.lower() in IMAGE_SUFFIXES):
            return _Folder(Path(self.source))
        cap = cv2.VideoCapture(int(self.source) if self.kind == "usb" else self.source)
        if not cap.isOpened():
            raise CameraError(f"cannot open camera {self.shown!r}")
        if self.kind == "usb" and self.size:
            # OpenCV opens a USB camera at 640x480 unless asked; MJPG first, as a USB 2 link carries
            # 1080p uncompressed at a few frames a second only. A camera that cannot is said (_say_size).
            cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter_fourcc(*"MJPG"))
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        return cap

    def _run(self) -> None:
        cap = None
        paced = self.kind in ("folder", "file")   # live sources pace themselves
        while not self._stop.is_set():
            try:
                if cap is None:
                    cap = self._open()
                ok, frame = cap.read()
                if not ok and self.kind == "file" and not isinstance(cap, _Folder):      # loop a video file
                    cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                    ok, frame = cap.read()
                if not ok or frame is None:
                    raise CameraError(f"camera {self.shown!r} gave no frame")
                self._say_size(frame)
                scene = (cap.i - 1) % len(cap.files) if isinstance(cap, _Folder) else 0
                self._publish(frame, scene)
            except (CameraError, cv2.error, OSError) as e:
                if str(e) != self._error:          # said once, not at every retry
                    log.warning("%s (retrying every second)", e)
                self._error = str(e)
                if cap is not None:
                    cap.release()
                cap = None
                self._stop.wait(1.0)             # a lost camera: try again shortly
                continue
            if paced:
                self._show_for(frame, scene)
        if cap is not None:
            cap.release()

    def _show_for(self, frame: np.ndarray, scene: int) -> None:
        """Wait out the frame's period; a folder's image is a table lying still, so it is given again
        every ``STILL_EVERY_S`` meanwhile, new frames of one view as a camera gives them (the watcher
        sees a still table only over frames it has not seen: the demo's slideshow, one frame an image,
        never showed one, and its hands were never counted by themselves)."""
        until = time.monotonic() + self.period
        step = STILL_EVERY_S if self.kind == "folder" else self.period      # a video file: its next frame
        while not self._stop.wait(max(0.0, min(step, until - time.monotonic()))):
            if time.monotonic() >= until - 1e-3:
                return
            self._publish(frame, scene)

    def _say_size(self, frame: np.ndarray) -> None:
        """A live camera whose frames come smaller than ``size`` is said in the log, once a size: the
        tiles it shows are too small to read well (a USB camera that could not give what it was asked,
        an IP camera set to a low resolution)."""
        shape = frame.shape[1], frame.shape[0]
        if self.size and self.kind in ("usb", "url") and shape != self._shape:
            self._shape = shape
            if shape[0] < self.size[0] or shape[1] < self.size[1]:
                log.warning("camera %r gives %dx%d frames, smaller than %dx%d (TABLE_CAMERA_SIZE): tiles are "
                            "read less well; set the camera to %dx%d", self.shown, *shape, *self.size, *self.size)

    def _publish(self, frame: np.ndarray, scene: int = 0) -> None:
        with self._lock:
            self._frame, self._error, self._scene = frame, "", scene
            self._at = time.monotonic()
            self._count += 1
            self._lock.notify_all()

    # -- reading ------------------------------------------------------------
    @property
    def error(self) -> str:
        return self._error

    @property
    def scene(self) -> int | None:
        """A folder's image number now shown (a slideshow: each image is another table); None for
        a live camera or a video file, whose view changes only as the table does."""
        return self._scene if self.kind == "folder" else None

    @property
    def frames(self) -> int:
        """How many frames the camera has given so far (never waits)."""
        return self._count

    def lost(self) -> str:
        """Why the newest frame is not the table now ('' when it is): the camera failed since, or has
        given no new frame for ``stale_s`` (a stream that stalls without an error; a first frame that
        has not come yet)."""
        if self._error:
            return self._error
        age = time.monotonic() - self._at
        return f"no new frame for {age:.0f} s from camera {self.shown!r}" if age > self.stale_s else ""

    def latest(self, timeout: float = 3.0) -> tuple[int, np.ndarray]:
        """The newest frame and its number, waiting up to ``timeout`` for one that shows the table now.
        ``CameraError`` saying why when there is none: no frame yet, or the camera lost since its
        last one (that frame is an earlier table)."""
        with self._lock:
            self._lock.wait_for(lambda: (self._frame is not None and not self.lost()) or self._stop.is_set(),
                                timeout)
            self._check_now()
            return self._count, self._frame

    def _check_now(self) -> None:
        """``CameraError`` saying why the newest frame is not the table now: there is none yet, or the
        camera was lost since it came. Under the lock."""
        if self._frame is None:
            raise CameraError(self._error or f"camera {self.shown!r} has no frame yet")
        lost = self.lost()
        if lost:
            raise CameraError(lost)

    def jpeg(self, after: int = 0, timeout: float = 3.0, width: int | None = None) -> tuple[int, bytes]:
        """The newest frame as JPEG (made ``width`` pixels wide where it is wider), newer than frame
        number ``after`` (waits for it); ``CameraError`` while the camera is lost. Encoded here, when
        asked, once a frame and width: not as each frame comes, for a preview no one may be watching
        (a live camera's 25 frames a second at 1080p took 48% of a core to capture, 32% now:
        bench/bench_camera.py)."""
        with self._lock:
            self._lock.wait_for(lambda: self._count > after or self._stop.is_set(), timeout)
            self._check_now()                   # as ``latest``: a lost camera's last frame is not shown
            count, frame, shown = self._count, self._frame, self._jpegs.get(width)
        if shown is not None and shown[0] == count:
            return shown
        data = encode_jpeg(_narrowed(frame, width), 80)     # outside the lock: the capture goes on
        with self._lock:
            if width not in self._jpegs or self._jpegs[width][0] < count:
                self._jpegs[width] = (count, data)
        return count, data

    def mjpeg(self, limit: int | None = None, fps: float | None = None,
              width: int | None = None) -> Iterator[bytes]:
        """multipart/x-mixed-replace parts, one per new frame (``limit`` frames, or until stopped), at
        most ``fps`` a second and ``width`` pixels wide: a tablet's preview, not the camera's every
        frame (a live 1080p camera sent whole took megabytes a second of the parlour's Wi-Fi, each
        open tablet). With no new frame for ``KEEPALIVE_S`` (a still camera, or a lost one: then a
        "no picture" frame) a part is sent all the same: the server hears a tablet gone only when
        a part cannot be sent, and a stream that sends nothing held its worker for good (at a
        camera lost for the night, 40 page loads took every worker and the service answered no one)."""
        seen, sent, next_at, last = 0, 0, 0.0, float("-inf")      # a lost camera: said at its first look (the first part after KEEPALIVE_S)
        data = b""
        while not self._stop.is_set() and (limit is None or sent < limit):
            if fps and self._stop.wait(max(0.0, next_at - time.monotonic())):
                break
            try:
                n, data = self.jpeg(after=seen, timeout=KEEPALIVE_S, width=width)
            except CameraError:
                n, data = seen, lost_picture()
                if self._stop.wait(0.5):
                    break
            if n == seen:
                if time.monotonic() - last < KEEPALIVE_S or not data:
                    continue
            else:
                seen, sent = n, sent + 1
            next_at = last = time.monotonic()
            next_at += 1.0 / fps if fps else 0.0
            yield (f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(data)}\r\n\r\n"
                   .encode() + data + b"\r\n")


@functools.cache
def lost_picture() -> bytes:
    """What the preview shows while the camera gives no frame (lost, or not started yet): a dark
    frame saying so (the tablet's status line says it in Japanese, and what to do)."""
    frame = np.full((180, 320, 3), 40, np.uint8)
    cv2.putText(frame, "no picture", (70, 85), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (200, 200, 200), 2, cv2.LINE_AA)
    cv2.putText(frame, "from the camera", (52, 120), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (200, 200, 200), 2, cv2.LINE_AA)
    return encode_jpeg(frame, 80)


def _narrowed(frame: np.ndarray, width: int | None) -> np.ndarray:
    """``frame`` made ``width`` pixels wide, its shape kept, where it is wider."""
    h, w = frame.shape[:2]
    if not width or w <= width:
        return frame
    return cv2.resize(frame, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
