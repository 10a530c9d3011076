"""Snapshots on disk: a count never confirmed is deleted after TABLE_SNAPSHOT_KEEP_DAYS, one the log names never."""

from __future__ import annotations

import os
import time

import numpy as np
from fastapi.testclient import TestClient

from service.app import create_app
from service.snapshots import SnapshotStore
from table_fixtures import PIN, PLAYERS, record

DAY = 86400


def _frame(shade: int) -> np.ndarray:
    return np.full((48, 64, 3), shade, np.uint8)


def _age(path, days: float) -> None:
    then = time.time() - days * DAY
    os.utime(path, (then, then))


def test_prune_deletes_old_unnamed_snapshots_and_partial_writes_only(tmp_path):
    store = SnapshotStore(tmp_path)
    named, old, young = (store.save(_frame(s)).name for s in (10, 20, 30))
    part = tmp_path / "tmpabc.part"
    part.write_bytes(b"half")
    notes = tmp_path / "notes.txt"
    notes.write_text("not ours")
    for p in (named, old, part.name, notes.name):
        _age(tmp_path / p, 8)
    _age(tmp_path / young, 6)
    assert store.prune({named}, 7 * DAY) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([named, young, notes.name])


def test_a_snapshot_folder_tidied_away_while_the_service_runs_comes_back(tmp_path):
    import shutil
    store = SnapshotStore(tmp_path / "snapshots")
    shutil.rmtree(tmp_path / "snapshots")
    assert store.prune(set(), 0) == 0
    snap = store.save(_frame(40))
    assert store.path(snap.name) is not None and store.path(snap.name).stat().st_size > 0


def test_the_service_prunes_at_start_and_keeps_what_the_log_names(settings):
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        kept = client.post(f"/api/camera/read?session={sid}").json()["snapshot"]
        assert client.post(f"/api/sessions/{sid}/wins",
                           json={"records": [record()], "snapshot": kept}).status_code == 201
    folder = settings.snapshot_dir
    dropped = SnapshotStore(folder).save(_frame(99)).name     # a count never confirmed
    for name in (kept, dropped):
        _age(folder / name, settings.snapshot_keep_days + 1)
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as client:
        assert sorted(p.name for p in folder.iterdir()) == [kept]
        assert client.get(f"/api/snapshots/{kept}").status_code == 200


def test_a_running_service_prunes_again_on_its_own(settings):
    settings = settings.model_copy(update={"snapshot_prune_every_s": 0.2})
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}):
        folder = settings.snapshot_dir
        old = SnapshotStore(folder).save(_frame(77)).name          # after the prune at start
        young = SnapshotStore(folder).save(_frame(88)).name
        _age(folder / old, settings.snapshot_keep_days + 1)
        deadline = time.time() + 10
        while (folder / old).exists() and time.time() < deadline:
            time.sleep(0.05)
        assert not (folder / old).exists(), "the running service never pruned"
        assert (folder / young).exists()


def test_a_logged_hand_s_snapshot_goes_with_its_labels_once_older_than_the_parlour_keeps_them(settings,
                                                                                           monkeypatch):
    """Every logged hand's picture was kept for good: a parlour's tables fill their disks over a
    year. TABLE_SNAPSHOT_KEEP_LOGGED_DAYS deletes them (and their photo labels) that many days after
    the hand; 0, the default, keeps them."""
    from datetime import timedelta
    from service.ledger import db as ledger_db
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        logged = client.post(f"/api/camera/read?session={sid}").json()["snapshot"]
        assert client.post(f"/api/sessions/{sid}/wins",
                           json={"records": [record()], "snapshot": logged}).status_code == 201
    folder, labels = settings.snapshot_dir, settings.photo_labels_dir
    labels.mkdir(parents=True, exist_ok=True)
    label = labels / f"{logged.rsplit('.', 1)[0]}.json"
    label.write_text("{}")
    _age(folder / logged, 41)
    real_clock = ledger_db.clock
    monkeypatch.setattr(ledger_db, "clock", lambda engine: real_clock(engine) + timedelta(days=40))
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}):
        assert (folder / logged).exists() and label.exists()                   # by default: kept for good
    with TestClient(create_app(settings.model_copy(update={"snapshot_keep_logged_days": 30}))):
        assert not (folder / logged).exists() and not label.exists()
    monkeypatch.undo()
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as client:
        assert client.get(f"/api/sessions/{sid}/hands").json()["hands"][0]["snapshot"] == logged   # the log stays
        history = client.get(f"/s/{sid}/history")
        assert history.status_code == 200 and logged not in history.text           # no broken picture
