"""The capture thread's share of the CPU on a live IP camera, by its stream's size.

    .venv/bin/python bench/bench_camera.py [--sizes 1280x720,1920x1080,3840x2160] [--fps 25] [--seconds 10]

An IP camera's HTTP MJPEG stream is served from another process on 127.0.0.1
(tests/service/mjpeg_camera.py: ten frames of textured noise, encoded once,
sent ``--fps`` a second), and
``service.camera.Camera`` reads it as the service does, nobody asking for a
frame. Printed per size: the frames a second the capture keeps up with and
the CPU this process spent, in percent of one core (the service's two cores
are shared with the reader and the watcher). Decoding is the floor: FFmpeg
decodes each frame as it is taken off the stream, whether or not it is used.
Then, at 1080p, one tablet's live preview open: what it sends a second and
the CPU in all, as the service sends it (TABLE_PREVIEW_FPS, TABLE_PREVIEW_WIDTH)
and as every frame whole (noise: a table's picture makes smaller JPEGs, the
ratio stands).
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))           # the project, run from anywhere

from options import above_zero, at_least, quiet_pipe  # noqa: E402

from service.camera import Camera  # noqa: E402
from service.settings import Settings  # noqa: E402

STREAM = ROOT / "tests" / "service" / "mjpeg_camera.py"        # the tests' IP camera, in a process of its own


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _cpu() -> float:
    t = os.times()
    return t.user + t.system


def measure(width: int, height: int, fps: int, seconds: float,
            preview: tuple[float | None, int | None] | None = None) -> tuple[float, float, float]:
    """(frames a second taken, percent of a core, preview kilobytes a second) for a stream of
    ``width``x``height``; ``preview``: one tablet's preview open meanwhile, at (fps, width)."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, str(STREAM), str(width), str(height), str(fps), str(port)])
    try:
        deadline = time.monotonic() + 30
        while True:                             # the server encodes its frames first
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit(f"the stream at port {port} did not start")
                time.sleep(0.2)
        camera = Camera(f"http://127.0.0.1:{port}/video.mjpg").start()
        sent = [0]
        try:
            camera.latest(timeout=20)
            if preview is not None:
                def watch():
                    for part in camera.mjpeg(None, *preview):
                        sent[0] += len(part)
                threading.Thread(target=watch, daemon=True).start()
            time.sleep(1.0)                     # past the stream's start
            t0, c0, n0, b0 = time.monotonic(), _cpu(), camera.frames, sent[0]
            time.sleep(seconds)
            t1, c1, n1, b1 = time.monotonic(), _cpu(), camera.frames, sent[0]
        finally:
            camera.stop()
    finally:
        server.kill()
        server.wait()
    return (n1 - n0) / (t1 - t0), 100 * (c1 - c0) / (t1 - t0), (b1 - b0) / 1024 / (t1 - t0)


def sizes(text: str) -> list[str]:
    """``--sizes``: WxH,WxH... (each side a whole number of 16 px or more)."""
    out = []
    for size in text.split(","):
        w, _, h = size.lower().partition("x")
        if not (w.isdigit() and h.isdigit() and int(w) >= 16 and int(h) >= 16):
            raise argparse.ArgumentTypeError(f"{size!r} is not WIDTHxHEIGHT (e.g. 1920x1080)")
        out.append(size)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=sizes, default=sizes("1280x720,1920x1080,3840x2160"))
    ap.add_argument("--fps", type=at_least(1), default=25)
    ap.add_argument("--seconds", type=above_zero, default=10.0)
    args = ap.parse_args()
    print(f"a live IP camera (HTTP MJPEG, {args.fps} frames/s sent), the capture alone, {args.seconds:.0f} s each")
    for size in args.sizes:
        w, h = (int(v) for v in size.lower().split("x"))
        taken, core, _ = measure(w, h, args.fps, args.seconds)
        print(f"  {w}x{h}: {taken:.1f} frames/s taken, {core:.0f}% of a core")
    defaults = Settings(_env_file=None)
    print("1920x1080 with one tablet's preview open:")
    for label, preview in ((f"the preview ({defaults.preview_fps:g}/s, {defaults.preview_width} wide)",
                            (defaults.preview_fps, defaults.preview_width)),
                           ("every frame whole", (None, None))):
        taken, core, kb = measure(1920, 1080, args.fps, args.seconds, preview)
        print(f"  {label}: {kb:,.0f} KB/s to the tablet, {core:.0f}% of a core in all")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    sys.exit(main())
