"""Service test fixtures: a real app on a real SQLite file, real snapshots on disk, the demo camera."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.settings import DEMO_FRAMES, Settings

from table_fixtures import PIN, PLAYERS


@pytest.fixture
def settings(tmp_path) -> Settings:
    return Settings(_env_file=None, data_dir=tmp_path / "data", pin=PIN, camera=str(DEMO_FRAMES),
                    camera_fps=20, max_upload_bytes=200_000, max_image_side=2000)


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
