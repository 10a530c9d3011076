"""Confirming a count the vision reader read teaches the table's tile set its cuts (service/table_tiles.py).

The demo camera shows the demo's first table (a folder camera shows its first
image until its next turn, here 100 s away), read by the real vision reader;
the set lives in the data folder (demo.tileset) and is read back from disk.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter

import pytest
from fastapi.testclient import TestClient

from service.app import create_app
from service.learning import face_up_tiles
from service.settings import DEMO_HANDS
from vision.tileset import INDEX, KEPT_OUT, LEARNT, TileSet

from table_fixtures import PIN, PLAYERS

SHOWN = json.loads(DEMO_HANDS.read_text())["frame-01.jpg"]       # the hand the camera shows first


@pytest.fixture
def still(settings):
    return settings.model_copy(update={"camera_fps": 0.01})


def _client(settings):
    return TestClient(create_app(settings), headers={"X-Table-PIN": PIN})


def _count(client) -> tuple[str, str]:
    """A session and the snapshot of a Count on the tablet page."""
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    page = client.post(f"/s/{sid}/count", data={"hand": "1"})
    assert page.status_code == 200, page.text
    return sid, re.search(r'name="snapshot" value="([0-9a-f]{20}\.jpg)"', page.text).group(1)


def _confirm(client, sid: str, snapshot: str, **changes) -> None:
    record = {**SHOWN, **changes}
    form = {"snapshot": snapshot, "hand": "1", "seat": record["seat"], "win": "tsumo",
            "concealed": record["concealed"], "win_tile": record["win_tile"],
            "dora_indicators": record["dora_indicators"], "melds": "[]"}
    r = client.post(f"/s/{sid}/confirm", data=form)
    assert r.status_code == 204, r.text
    assert client.get(f"/api/sessions/{sid}").json()["hands"] == 1


def _crops(folder) -> Counter:
    index = json.loads((folder / INDEX).read_text())
    sources = {c["source"] for crops in index["kinds"].values() for c in crops}
    assert sources <= {LEARNT, KEPT_OUT}
    for crops in index["kinds"].values():
        assert all((folder / c["file"]).is_file() for c in crops)
    return Counter({kind: len(crops) for kind, crops in index["kinds"].items()})


def test_confirm_after_count_teaches_the_set_the_confirmed_tiles(still):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        assert not folder.exists()
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot)
        # every face-up tile of the hand and the dora indicator, named as confirmed; no discard
        shown, _ = face_up_tiles([SHOWN])
        assert _crops(folder) == Counter(shown)
        log = json.loads((folder / INDEX).read_text())["log"]
        assert log[-1]["event"] == "learnt" and log[-1]["added"] + log[-1]["kept_out"] == len(shown)
        # the running reader names tiles with the set as saved
        in_use = client.app.state.reader.detector.tileset
        assert in_use is not None and in_use.kinds() == TileSet.load(folder).kinds()


def test_a_tile_the_players_fixed_is_learnt_as_fixed(still):
    folder = still.data_dir / "demo.tileset"
    assert SHOWN["dora_indicators"] == "5s"
    with _client(still) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot, dora_indicators="6s")     # one fix: the indicator read 5s was a 6s
        expected = Counter(face_up_tiles([{**SHOWN, "dora_indicators": "6s"}])[0])
        assert _crops(folder) == expected and expected["6s"] == 1


def test_a_count_confirmed_through_the_api_teaches_the_set_too(still):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        read = client.post(f"/api/camera/read?session={sid}").json()
        r = client.post(f"/api/sessions/{sid}/wins", json={"records": [SHOWN], "snapshot": read["snapshot"],
                                                            "hand": 1})
        assert r.status_code == 201, r.text
        assert sum(_crops(folder).values()) == len(face_up_tiles([SHOWN])[0])


def test_with_learning_off_a_confirm_adds_nothing(still):
    settings = still.model_copy(update={"learn_tiles": False})
    with _client(settings) as client:
        sid, snapshot = _count(client)
        _confirm(client, sid, snapshot)
        assert not (settings.data_dir / "demo.tileset").exists()
        assert client.app.state.reader.detector.tileset is None


def test_a_set_that_cannot_learn_never_fails_the_confirm(still, caplog):
    folder = still.data_dir / "demo.tileset"
    with _client(still) as client:
        sid, snapshot = _count(client)
        folder.mkdir(parents=True)
        (folder / INDEX).write_text("{not json")          # broken after the service started
        with caplog.at_level(logging.ERROR, logger="service.table_tiles"):
            _confirm(client, sid, snapshot)
        assert "could not learn" in caplog.text and "not a tile set index" in caplog.text
        assert (folder / INDEX).read_text() == "{not json"


def test_a_count_from_before_a_restart_teaches_nothing(still):
    with _client(still) as client:
        sid, snapshot = _count(client)
    with _client(still) as client:                      # the cuts were kept in memory only
        _confirm(client, sid, snapshot)
        assert not (still.data_dir / "demo.tileset").exists()
