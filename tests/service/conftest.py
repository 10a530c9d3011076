"""Service test fixtures: a real app on a real SQLite file, real snapshots on disk, the demo camera."""

from __future__ import annotations

import os
import subprocess
import uuid

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import DEMO_FRAMES, Settings

from mjpeg_camera import MjpegCamera
from table_fixtures import PIN, PLAYERS
from watch_fixtures import STAGE_SEED, write_folder


@pytest.fixture
def settings(tmp_path) -> Settings:
    # the watcher off: a test of counting by tap must not race the watcher's own reads (watch tests switch it on)
    return Settings(_env_file=None, data_dir=tmp_path / "data", pin=PIN, camera=str(DEMO_FRAMES),
                    camera_fps=20, max_upload_bytes=200_000, max_image_side=2000, watch=False)


@pytest.fixture
def client(settings):
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as c:
        yield c


@pytest.fixture
def manual_client(settings):
    """The service with no reader installed (TABLE_READER empty): Count only takes the snapshot."""
    with TestClient(create_app(settings.model_copy(update={"reader": ""})), headers={"X-Table-PIN": PIN}) as c:
        yield c


@pytest.fixture
def session(client) -> dict:
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS})
    assert r.status_code == 201, r.text
    return r.json()


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MB filesystem of its own (tmpfs), to fill: where this machine lets a test mount one."""
    folder = tmp_path / "small"
    folder.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small filesystem here: {mounted.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], check=True)


# -- the database: a SQLite file, or a fresh PostgreSQL schema per test ---------------------------------

PG_URL = os.environ.get("LEDGER_TEST_POSTGRES_URL")


def _backends():
    yield "sqlite"
    yield pytest.param("postgres", marks=pytest.mark.skipif(
        not PG_URL, reason="LEDGER_TEST_POSTGRES_URL not set (run .ci/postgres.sh)"))


@pytest.fixture(params=list(_backends()))
def db_url(request, tmp_path) -> str:
    """An empty database's URL (nothing migrated yet): a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    return _fresh_pg_schema(request)


def _fresh_pg_schema(request) -> str:
    """A schema of its own for this test, dropped afterwards (search_path in the URL)."""
    import sqlalchemy as sa
    schema = "t_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as c:
        c.exec_driver_sql(f"CREATE SCHEMA {schema}")

    def drop():
        with admin.begin() as c:
            c.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()
    request.addfinalizer(drop)
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options=-csearch_path%3D{schema}"


# -- the watcher's rendered table (needs the tile art, ../shared/tiles; skips without it) -----------------

@pytest.fixture(scope="session")
def art():
    from vision.synth.art import ArtMissing, TileArt
    try:
        return TileArt()
    except ArtMissing as e:
        pytest.skip(f"tile art not available: {e}")


@pytest.fixture(scope="session")
def stage(art):
    """One deal's table in its states, seen by one camera (vision.synth.motion.Stage)."""
    from vision.synth.motion import Stage
    return Stage(STAGE_SEED, art)


@pytest.fixture(scope="session")
def win(stage):
    """The deal's win: play, a discard, the hand laid down, pointed at, still, pushed in, the next deal."""
    from vision.synth.motion import win_clip
    return win_clip(stage, seed=1, push_after=True)


@pytest.fixture(scope="session")
def watch_folder(win, tmp_path_factory):
    """A camera folder (a recorded sequence): play, then the win lying still."""
    return write_folder(win, tmp_path_factory.mktemp("watch-camera"))


@pytest.fixture(scope="session")
def vision_reader():
    """The real vision reader for the table the rendered frames show (the default markers and zones)."""
    from service.vision_reader import VisionReader, demo_table
    return VisionReader(demo_table())


@pytest.fixture
def ip_camera():
    """An IP camera on 127.0.0.1 (HTTP MJPEG) the test can unplug, plug back and stall."""
    camera = MjpegCamera()
    yield camera
    camera.resume()
    camera.unplug()
