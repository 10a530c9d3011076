"""Page tests: the real app served by uvicorn on loopback, driven by Debian's chromium via Playwright."""

from __future__ import annotations

import shutil

import pytest

from calibration.store import TableFile, save
from live_server import serve
from service.settings import DEMO_FRAMES
from table_fixtures import PIN, STAFF_PIN

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
def server(tmp_path):
    """The service with no reader: Count takes a snapshot and the players enter the hand."""
    for url, _ in serve(tmp_path, reader=""):
        yield url


@pytest.fixture
def small_disk_server(small_disk):
    """The service with no reader, its data folder on a 1 MB filesystem of its own (to fill)."""
    for url, _ in serve(small_disk, reader=""):
        yield url


@pytest.fixture
def sister_servers(tmp_path):
    """Tables A and B of one parlour on one SQLite file, no reader: yields their URLs, B's by the name
    localhost (a cookie is a host's, whatever its port: the two logins stay apart). B serves the
    counter too (``STAFF_PIN``)."""
    shared = f"sqlite:///{tmp_path / 'parlour.sqlite3'}"
    for a, _ in serve(tmp_path / "A", reader="", db_url=shared, table_name="A"):
        for b, _ in serve(tmp_path / "B", reader="", db_url=shared, table_name="B", staff_pin=STAFF_PIN):
            yield a, b.replace("127.0.0.1", "localhost")


@pytest.fixture
def reading_server(tmp_path, monkeypatch):
    """The service as a calibrated table runs it: a camera over the demo's first table (one frame,
    so every Count sees it) and the vision reader for that table's calibration."""
    frames = tmp_path / "camera"
    frames.mkdir()
    shutil.copy(DEMO_FRAMES / "frame-01.jpg", frames)
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    save(TableFile("t1"), tmp_path / "tables")
    for url, _ in serve(tmp_path, camera=str(frames), calibration="t1"):
        yield url


@pytest.fixture
def watch_server(tmp_path, monkeypatch, watch_folder):
    """The service watching a camera folder (play, then a win lying still) over a calibrated table, the
    watcher switched off until a tablet switches it on; yields its URL and the app."""
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    save(TableFile("t1"), tmp_path / "tables")
    yield from serve(tmp_path, camera=str(watch_folder), camera_fps=4, calibration="t1", watch=False)


@pytest.fixture
def page():
    if CHROMIUM is None:
        pytest.skip("chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install '.[test]')")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport={"width": 1280, "height": 800})   # a 10-inch tablet, landscape
        page = context.new_page()
        page.set_default_timeout(10_000)
        yield page
        context.close()
        browser.close()
