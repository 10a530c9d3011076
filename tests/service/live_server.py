"""The real app served by uvicorn on loopback, in a thread: for tests that need a real HTTP server
(a browser's, or a raw socket's)."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import contextmanager
from typing import Iterator

import uvicorn
from fastapi import FastAPI

from service.app import create_app
from service.settings import DEMO_FRAMES, Settings
from table_fixtures import PIN


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def served(settings: Settings) -> Iterator[tuple[str, FastAPI]]:
    """The service of ``settings`` on its host and port (several at once, where each has its own); its
    URL and the app, until the block ends."""
    app = create_app(settings)
    server = uvicorn.Server(uvicorn.Config(app, host=settings.host, port=settings.port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the service did not start")
        time.sleep(0.05)
    try:
        yield f"http://{settings.host}:{settings.port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def serve(tmp_path, **overrides):
    """The service on 127.0.0.1 with a fresh SQLite file; yields its URL and the app."""
    given = dict(data_dir=tmp_path / "data", pin=PIN, camera=str(DEMO_FRAMES), camera_fps=5, host="127.0.0.1",
                 port=free_port(), watch=False)
    with served(Settings(_env_file=None, **{**given, **overrides})) as got:
        yield got
