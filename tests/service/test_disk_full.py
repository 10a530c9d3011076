"""A full disk at the table: the press that could not be saved says so in one line (HTTP 507), saves
nothing half-way, and the same press once space is freed saves as if nothing had happened. Real SQLite
at its page limit (SQLITE_FULL, "database or disk is full"), and a real full filesystem (a small tmpfs)
where this machine lets a test mount one."""

from __future__ import annotations

import errno
import sqlite3

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from service.app import create_app
from service.errors import storage_full, storage_full_message
from table_fixtures import PIN, PLAYERS, fill, record

FULL = "disk is full"


def _ledger_stops_growing(engine):
    """Every new connection of ``engine`` may not grow the SQLite file past the pages it has now."""
    def cap(dbapi_conn, _record):
        cursor = dbapi_conn.cursor()
        pages = cursor.execute("PRAGMA page_count").fetchone()[0]
        cursor.execute(f"PRAGMA max_page_count = {pages}")
        cursor.close()
    event.listen(engine, "connect", cap)
    engine.dispose()
    return cap


def test_a_win_the_full_ledger_cannot_take_is_507_and_saved_once_there_is_room(settings):
    app = create_app(settings)
    with TestClient(app, headers={"X-Table-PIN": PIN}, raise_server_exceptions=False) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        engine = app.state.ledger.engine
        cap = _ledger_stops_growing(engine)
        saved = 0
        for _ in range(40):                    # the file's free pages take a few wins, then it is full
            r = client.post(f"/api/sessions/{sid}/wins", json={"records": [record("east", "tsumo")]})
            if r.status_code != 201:
                break
            saved += 1
        assert r.status_code == 507, r.text
        detail = r.json()["detail"]
        assert FULL in detail and "nothing was saved" in detail and str(settings.data_dir) in detail
        assert "\n" not in detail and "INSERT" not in detail
        assert client.get(f"/api/sessions/{sid}").json()["hands"] == saved
        event.remove(engine, "connect", cap)
        engine.dispose()
        r = client.post(f"/api/sessions/{sid}/wins", json={"records": [record("east", "tsumo")]})
        assert r.status_code == 201 and r.json()["event"]["seq"] == saved + 1      # nothing half-saved
        assert client.get(f"/api/sessions/{sid}").json()["hands"] == saved + 1


def test_a_count_on_a_full_disk_is_507_and_leaves_no_half_snapshot(settings, small_disk):
    app = create_app(settings.model_copy(update={"data_dir": small_disk / "data"}))
    with TestClient(app, headers={"X-Table-PIN": PIN}, raise_server_exceptions=False) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        fill(small_disk)
        r = client.post(f"/api/camera/read?session={sid}")
        assert r.status_code == 507 and FULL in r.json()["detail"], r.text
        # the tablet's Count (htmx): the same line in the page's flash area
        page = client.post(f"/s/{sid}/count", headers={"HX-Request": "true"})
        assert page.status_code == 507 and page.headers["HX-Retarget"] == "#flash" and FULL in page.text
        assert not list((small_disk / "data" / "snapshots").glob("*.part"))
        (small_disk / "filler").unlink()
        assert client.post(f"/api/camera/read?session={sid}").status_code == 200


def test_what_is_full_is_told_from_the_error_itself():
    """PostgreSQL says disk_full by its SQLSTATE (53100), SQLite by SQLITE_FULL's words, a file by ENOSPC
    (or a quota's EDQUOT); other errors of the same kinds are no full disk and stay the server's 500."""
    psycopg = pytest.importorskip("psycopg")
    assert storage_full(OperationalError("INSERT", {}, psycopg.errors.DiskFull("could not extend file"))) == "database"
    assert storage_full(OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full"))) == "disk"
    assert storage_full(OSError(errno.ENOSPC, "No space left on device")) == "disk"
    assert storage_full(OSError(errno.EDQUOT, "Disk quota exceeded")) == "disk"
    assert storage_full(OSError(errno.EACCES, "Permission denied")) == ""
    assert storage_full(OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked"))) == ""
    assert storage_full(OperationalError("SELECT", {}, psycopg.errors.QueryCanceled("canceling statement"))) == ""
    # the server's disk is no snapshot folder of this table's
    said = storage_full_message("database", "data")
    assert "database server is out of space" in said and "snapshots" not in said and "nothing was saved" in said
