"""The parlour's PostgreSQL out of reach (the network to it cut): a press says so in one line (HTTP 503),
with the database's URL but not its password, in the tablet's flash too, and once the network is back
the same press saves, once. Real PostgreSQL behind a real TCP proxy the test cuts and mends."""

from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DataError, OperationalError

from service.app import create_app
from service.errors import database_away
from table_fixtures import PIN, PLAYERS, record
from tcp_proxy import Proxy

AWAY = "database cannot be reached"


def test_a_press_while_the_database_is_away_is_503_and_the_same_press_saves_once_it_is_back(settings, db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite is a file on this machine: no network to lose")
    url = make_url(db_url)
    proxy = Proxy((url.host, url.port))
    through = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
    app = create_app(settings.model_copy(update={"db_url": through, "camera": "", "reader": ""}))
    with TestClient(app, headers={"X-Table-PIN": PIN}, raise_server_exceptions=False) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        win = {"records": [record("east", "tsumo")], "hand": 1}
        proxy.cut()
        r = client.post(f"/api/sessions/{sid}/wins", json=win)
        assert r.status_code == 503, r.text
        detail = r.json()["detail"]
        assert AWAY in detail and "\n" not in detail and "press again" in detail
        assert f"{url.username}:***@" in detail and f":{url.password}@" not in detail
        page = client.get(f"/s/{sid}/history", headers={"HX-Request": "true"})
        assert page.status_code == 503 and page.headers["HX-Retarget"] == "#flash" and AWAY in page.text
        proxy.mend()
        r = client.post(f"/api/sessions/{sid}/wins", json=win)
        assert r.status_code == 201 and r.json()["event"]["seq"] == 1, r.text
        assert client.post(f"/api/sessions/{sid}/wins", json=win).status_code == 409      # not saved twice
    proxy.cut()


def test_a_database_away_is_told_from_an_error_it_answered():
    psycopg = pytest.importorskip("psycopg")
    assert database_away(OperationalError("SELECT 1", {}, psycopg.OperationalError("connection failed: refused")))
    assert not database_away(OperationalError("INSERT", {}, psycopg.errors.DiskFull("could not extend file")))
    assert not database_away(OperationalError("INSERT", {}, sqlite3.OperationalError("database is locked")))
    assert not database_away(OSError("no such file"))
    # refused by the driver itself, the server up: no SQLSTATE, yet no network to check
    nul = psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
    assert nul.sqlstate is None and not database_away(DataError("SELECT", {}, nul))
