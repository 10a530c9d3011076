"""An IP camera a test can unplug, plug back and stall: HTTP MJPEG on 127.0.0.1, read by OpenCV's
FFmpeg as a real camera's stream is."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import cv2
import numpy as np


class MjpegCamera:
    """Streams frames whose grey level counts up (``frame[0, 0]``), 20 a second, at ``url``, until
    ``unplug()`` (the stream ends, new connections are refused); ``plug()`` serves on the same port
    again. ``stall()`` keeps the connection open and sends nothing until ``resume()``."""

    def __init__(self):
        self.port, self._server, self._gone = 0, None, threading.Event()
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
                        jpg = cv2.imencode(".jpg", np.full((60, 80, 3), 10 + i % 200, np.uint8))[1].tobytes()
                        self.wfile.write(b"--f\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n"
                                         % len(jpg) + jpg + b"\r\n")
                        i += 1
                        time.sleep(0.05)
                except OSError:
                    pass

        self._gone.clear()
        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Stream)
        self._server.daemon_threads = True
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
