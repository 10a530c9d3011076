"""The table's SQLite file held by another program (a backup, a database browser left in a write)
past the ledger's wait: a press says so in one line (HTTP 503), in the tablet's flash too, nothing
is saved, and once the program lets go the same press saves, once. A real second connection holds
the real file's lock."""

from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError

from service.app import create_app
from service.errors import database_away, database_busy
from service.ledger import db
from table_fixtures import PIN, PLAYERS, record

BUSY = "held by another program"


def test_a_press_while_another_program_holds_the_file_is_503_and_the_same_press_saves_after(settings,
                                                                                           monkeypatch):
    monkeypatch.setattr(db, "SQLITE_BUSY_S", 0.3)         # the wait itself is SQLite's: 30 s at a table
    app = create_app(settings.model_copy(update={"camera": "", "reader": ""}))
    with TestClient(app, headers={"X-Table-PIN": PIN}, raise_server_exceptions=False) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        win = {"records": [record("east", "tsumo")], "hand": 1}
        other = sqlite3.connect(settings.data_dir / "ledger.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")                  # a browser's write, never committed
        try:
            r = client.post(f"/api/sessions/{sid}/wins", json=win)
            assert r.status_code == 503, r.text
            detail = r.json()["detail"]
            assert BUSY in detail and "0.3 s" in detail and "nothing was saved" in detail and "\n" not in detail
            page = client.get(f"/s/{sid}/history", headers={"HX-Request": "true"})
            assert page.status_code == 503 and page.headers["HX-Retarget"] == "#flash" and BUSY in page.text
        finally:
            other.execute("ROLLBACK")
            other.close()
        r = client.post(f"/api/sessions/{sid}/wins", json=win)
        assert r.status_code == 201 and r.json()["event"]["seq"] == 1, r.text
        assert client.post(f"/api/sessions/{sid}/wins", json=win).status_code == 409      # not saved twice


@pytest.mark.parametrize("error, busy", [
    (sqlite3.OperationalError("database is locked"), True),
    (sqlite3.OperationalError("database table is locked"), True),
    (sqlite3.OperationalError("no such table: ledger_events"), False),
    (sqlite3.DatabaseError("file is not a database"), False),
])
def test_only_a_lock_held_past_the_wait_is_busy(error, busy):
    wrapped = OperationalError("INSERT", {}, error)
    assert database_busy(wrapped) is busy
    assert not database_away(wrapped)
