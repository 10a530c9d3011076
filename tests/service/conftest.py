"""Service test fixtures: a real app on a real SQLite file, real snapshots on disk, the demo camera."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import DEMO_FRAMES, Settings

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


# -- the watcher's rendered table (needs the tile art, ../shared/tiles; skips without it) -----------------

@pytest.fixture(scope="session")
def art():
    from vision.art import ArtMissing, TileArt
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
