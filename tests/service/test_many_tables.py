"""Many tables, one database (docs/parlour.md): three table services, each with its own name and
PIN, on one PostgreSQL (when LEDGER_TEST_POSTGRES_URL is set) or one SQLite file.

Each table sees and writes its own sessions only: another table's session is a 404 on it, and
another table's PIN (or login) a 401. The player register is the parlour's: a regular who plays
at two tables is one player in both. Hands logged at the three tables at once do not collide:
session ids differ, and each session's log is numbered 1..n with nothing lost or doubled.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from service.app import create_app
from service.ledger import Ledger, db
from service.settings import Settings
from table_fixtures import record

PINS = {"A": "1111", "B": "2222", "C": "3333"}
SEATED = {"A": ["Aki", "Ben", "Chie"], "B": ["Aki", "Dai", "Emi"], "C": ["Fumi", "Gen", "Hana"]}
DRAWS = 8        # per table, logged by the three tables at once


@pytest.fixture
def tables(db_url, tmp_path):
    """The three table services on ``db_url``, each with its own data folder (its login secret, its
    snapshots); their clients send no PIN unless a call gives one."""
    with ExitStack() as stack:
        clients = {}
        for name, pin in PINS.items():
            settings = Settings(_env_file=None, data_dir=tmp_path / name, db_url=db_url, table_name=name,
                                pin=pin, camera="", reader="", watch=False)
            assert settings.ledger_url == db_url
            clients[name] = stack.enter_context(TestClient(create_app(settings)))
        yield clients


def _pin(name: str) -> dict:
    return {"X-Table-PIN": PINS[name]}


def _start(tables, name: str) -> str:
    r = tables[name].post("/api/sessions", json={"rules": "dunhill", "players": SEATED[name]}, headers=_pin(name))
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_each_table_sees_and_writes_its_own_sessions_only(tables, db_url):
    sids = {name: _start(tables, name) for name in PINS}
    a, b = tables["A"], tables["B"]
    assert a.post(f"/api/sessions/{sids['A']}/wins", json={"records": [record("south", "ron", "west")]},
                  headers=_pin("A")).status_code == 201

    for name, client in tables.items():
        seen = [s["id"] for s in client.get("/api/sessions", headers=_pin(name)).json()]
        assert seen == [sids[name]]

    # A's session on B's service, with B's PIN: unknown there, to read and to write
    assert b.get(f"/api/sessions/{sids['A']}", headers=_pin("B")).status_code == 404
    assert b.get(f"/api/sessions/{sids['A']}/export.csv", headers=_pin("B")).status_code == 404
    r = b.post(f"/api/sessions/{sids['A']}/draws", json={"tenpai": []}, headers=_pin("B"))
    assert r.status_code == 404 and "unknown session" in r.json()["detail"]
    assert b.get(f"/s/{sids['A']}", headers=_pin("B")).status_code == 404
    # B's PIN on A's service: not A's PIN
    assert a.get(f"/api/sessions/{sids['A']}", headers=_pin("B")).status_code == 401
    assert a.get("/api/sessions", headers=_pin("B")).status_code == 401
    # A's tablet login (a signed token for table A) opens nothing at table B
    assert a.post("/login", data={"pin": PINS["A"]}, follow_redirects=False).status_code == 303
    token = a.cookies.get("table_token")
    assert token and a.get("/api/sessions").status_code == 200       # the cookie, no PIN
    b.cookies.set("table_token", token)
    assert b.get("/api/sessions").status_code == 401
    b.cookies.clear()

    state = a.get(f"/api/sessions/{sids['A']}", headers=_pin("A")).json()
    assert state["hands"] == 1                    # B's refused draw wrote nothing
    with Ledger(db_url, migrate=False) as parlour:  # every table's sessions, each kept with its table
        assert {cfg.id: cfg.table_name for cfg in parlour.sessions()} == {sid: n for n, sid in sids.items()}


def test_a_regular_at_two_tables_is_one_player(tables, db_url):
    sids = {name: _start(tables, name) for name in ("A", "B")}
    with Ledger(db_url, migrate=False) as parlour:
        at_a, at_b = parlour.config(sids["A"]).player_ids, parlour.config(sids["B"]).player_ids
        assert at_a[0] == at_b[0] == parlour.player("Aki").id
        assert len(set(at_a) | set(at_b)) == 5       # Aki, Ben, Chie, Dai, Emi
    for name in PINS:                                # one register, the same at every table
        found = tables[name].get("/api/players", params={"q": "aki"}, headers=_pin(name)).json()
        assert [(p["name"], p["id"]) for p in found] == [("Aki", at_a[0])]


def test_hands_logged_at_three_tables_at_once_do_not_collide(tables, db_url):
    sids = {name: _start(tables, name) for name in PINS}
    failures: list[str] = []

    def play(name: str) -> None:
        client, sid = tables[name], sids[name]
        for n in range(1, DRAWS + 1):
            r = client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [SEATED[name][n % 3]], "hand": n},
                            headers=_pin(name))
            if r.status_code != 201:
                failures.append(f"{name} hand {n}: {r.status_code} {r.text}")

    threads = [threading.Thread(target=play, args=(name,)) for name in PINS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures

    engine = db.make_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.select(db.events.c.session_id, db.events.c.seq)).all()
            session_ids = conn.execute(sa.select(db.sessions.c.id)).scalars().all()
    finally:
        engine.dispose()
    assert sorted(session_ids) == sorted(sids.values())
    for name, sid in sids.items():
        seqs = sorted(seq for s, seq in rows if s == sid)
        assert seqs == list(range(1, DRAWS + 1)), name
        shown = tables[name].get(f"/api/sessions/{sid}", headers=_pin(name)).json()
        assert shown["hands"] == DRAWS and sum(b["balance"] for b in shown["balances"]) + shown["pool"] == 0
