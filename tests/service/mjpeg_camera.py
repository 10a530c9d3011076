"""An IP camera a test can unplug, plug back and stall: HTTP MJPEG on 127.0.0.1, read by OpenCV's
FFmpeg as a real camera's stream is. Run as a script it serves textured frames of a given size in
a process of its own (bench/bench_camera.py):

    python tests/service/mjpeg_camera.py WIDTH HEIGHT FPS PORT
"""

from __future__ import annotations

import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Sequence

import cv2
import numpy as np


def grey_frames(n: int = 10) -> list[bytes]:
    """Small JPEG frames of rising grey."""
    return [cv2.imencode(".jpg", np.full((60, 80, 3), 10 + 20 * i, np.uint8))[1].tobytes() for i in range(n)]


def textured_frames(width: int, height: int, n: int = 10) -> list[bytes]:
    """JPEG frames of blurred noise, as costly to decode as a camera's picture of that size."""
    noise = cv2.GaussianBlur(np.random.default_rng(0).integers(0, 255, (height, width, 3), dtype=np.uint8),
                             (9, 9), 0)
    return [cv2.imencode(".jpg", np.roll(noise, 8 * i, 1))[1].tobytes() for i in range(n)]


class _Server(ThreadingHTTPServer):
    allow_reuse_address = True          # plugged back on its port at once
    daemon_threads = True


class MjpegCamera:
    """Streams ``jpegs`` in turn, ``fps`` a second, at ``url``, until ``unplug()`` (the stream
    ends, new connections are refused); ``plug()`` serves on the same port again. ``stall()`` keeps
    the connection open and sends nothing until ``resume()``."""

    def __init__(self, jpegs: Sequence[bytes] | None = None, fps: float = 20, port: int = 0):
        self.jpegs, self.fps = list(jpegs or grey_frames()), fps
        self.port, self._server, self._gone = port, None, threading.Event()
        self._flowing = threading.Event()
        self._flowing.set()
        self.plug()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/video.mjpg"

    def plug(self) -> None:
        camera = self

        class Stream(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=f")
                self.end_headers()
                i = 0
                try:
                    while not camera._gone.is_set():
                        if not camera._flowing.wait(0.05):
                            continue
                        jpg = camera.jpegs[i % len(camera.jpegs)]
                        self.wfile.write(b"--f\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
                                         % len(jpg) + jpg + b"\r\n")
                        i += 1
                        time.sleep(1 / camera.fps)
                except OSError:
                    pass

        self._gone.clear()
        self._server = _Server(("127.0.0.1", self.port), Stream)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def unplug(self) -> None:
        self._gone.set()                        # every stream ends...
        self._server.shutdown()                 # ... and no new one is served
        self._server.server_close()

    def stall(self) -> None:
        self._flowing.clear()

    def resume(self) -> None:
        self._flowing.set()


if __name__ == "__main__":
    w, h, fps, port = (int(v) for v in sys.argv[1:5])
    MjpegCamera(textured_frames(w, h), fps, port)
    threading.Event().wait()
