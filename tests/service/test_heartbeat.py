"""The table's heartbeat (service/heartbeat.py): two table services on one database both show on the
counter (SQLite, and PostgreSQL when LEDGER_TEST_POSTGRES_URL is set); a stopped or silent table is
offline; a lost camera and an uncalibrated table are said; a database away for a while does not stop
the table; a counter-only service runs no table. Real apps (TestClient), real databases."""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta, timezone

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from service import heartbeat
from service.app import create_app
from service.ledger import db
from service.settings import DEMO_FRAMES, Settings
from table_fixtures import PIN, PLAYERS, machine_clock, record

STAFF = "8765"


def table(tmp_path, db_url: str, name: str, **given) -> Settings:
    """A table service's settings: its own data folder, the parlour's database."""
    values = dict(data_dir=tmp_path / name.replace(" ", "-"), pin=PIN, staff_pin=STAFF, table_name=name,
                  camera=str(DEMO_FRAMES), camera_fps=20, watch=False, heartbeat_s=0.2)
    return Settings(_env_file=None, db_url=db_url, **{**values, **given})


def counter_tables(client) -> dict[str, dict]:
    r = client.get("/api/counter/tables", headers={"X-Staff-PIN": STAFF})
    assert r.status_code == 200, r.text
    return {t["name"]: t for t in r.json()}


def wait_for(check, timeout: float = 10.0):
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got or time.monotonic() > deadline:
            return got
        time.sleep(0.05)


def camera_lost(client) -> dict | None:
    """Table 1 as the counter shows it, when its camera shows as lost."""
    t = counter_tables(client)["table 1"]
    return t if t["camera"] == "lost" else None


def all_online(seen: dict[str, dict]) -> dict[str, dict] | None:
    """The counter's reading when every table on it is online, else None."""
    return seen if all(t["online"] for t in seen.values()) else None


def test_two_tables_on_one_database_both_show_on_the_counter(tmp_path, db_url):
    one = table(tmp_path, db_url, "table 1")
    two = table(tmp_path, db_url, "table 2", camera="", reader="")
    with TestClient(create_app(one)) as c1:
        with TestClient(create_app(two)) as c2:
            sid = c2.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS},
                          headers={"X-Table-PIN": PIN}).json()["id"]
            # beats come every 0.2 s; a loaded machine can let one slip past three: read the counter
            # once both are online, and judge that reading (an earlier one may show a table offline)
            # table 1's camera may still be giving its first frame: judge the steady state
            seen = wait_for(lambda: (lambda s: s if s and s["table 1"]["camera"] == "ok" else None)(
                all_online(counter_tables(c1))))
            assert seen, f"both tables never showed online with table 1's camera ok: {counter_tables(c1)}"
            assert set(seen) == {"table 1", "table 2"}
            assert seen["table 1"]["camera"] == "ok" and seen["table 1"]["calibrated"] is True
            assert seen["table 1"]["session"] is None and seen["table 1"]["state"] == "idle"
            # table 2: no camera, no reader; its session, just started, counts as in session
            t2 = seen["table 2"]
            assert (t2["camera"], t2["calibrated"], t2["reader"]) == ("none", False, "none")
            assert "not calibrated" in t2["warnings"] and "no camera" in t2["warnings"]
            assert t2["session"]["id"] == sid and t2["state"] == "in session"
            assert [b["player"] for b in t2["session"]["balances"]] == PLAYERS
            # each beat moves seen_at on
            first = heartbeat.table(c1.app.state.parlour.engine, "table 2").seen_at
            assert wait_for(lambda: heartbeat.table(c1.app.state.parlour.engine, "table 2").seen_at > first)
        # table 2 stopped: its row says so and the counter shows it offline
        seen = counter_tables(c1)
        assert seen["table 2"]["stopped"] and seen["table 2"]["state"] == "offline"
        assert wait_for(lambda: counter_tables(c1)["table 1"]["online"])


def test_a_table_whose_clock_is_slow_beats_and_files_hands_by_the_servers_clock(tmp_path, db_url, monkeypatch):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite's tables share one machine, and so its clock")
    # the table's clock is this process's, in the modules that stamp its beats and hands: the one thing
    # a test cannot set for real; the counter's view below is computed as the counter machine would
    from service.ledger import repo
    machine_clock(monkeypatch, -10, heartbeat, repo, db)       # the table machine's clock ten minutes slow
    with TestClient(create_app(table(tmp_path, db_url, "table 1")), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        logged = client.post(f"/api/sessions/{sid}/wins", json={"records": [record("east", "tsumo")]})
        assert logged.status_code == 201, logged.text
        stamped = client.app.state.parlour.events(sid)[-1].created_at      # as the database holds it
        assert abs((stamped - datetime.now(timezone.utc)).total_seconds()) < 60, stamped   # not 10 minutes ago
        t = counter_tables(client)["table 1"]
        assert t["online"] and t["seen_ago_s"] < 60, t


def test_a_table_silent_for_three_beats_is_offline(tmp_path, db_url):
    settings = table(tmp_path, db_url, "table 1", heartbeat_s=5.0)
    with TestClient(create_app(settings)) as client:
        assert counter_tables(client)["table 1"]["online"]
        engine = client.app.state.parlour.engine
        # the service's last beat 16 s ago (a service that died without a word): more than 3 x 5 s
        with engine.begin() as conn:
            conn.execute(update(db.tables).values(seen_at=datetime.now(timezone.utc) - timedelta(seconds=16)))
        t = counter_tables(client)["table 1"]
        assert (t["online"], t["state"], t["stopped"]) == (False, "offline", False)
        row = heartbeat.table(engine, "table 1")
        assert row.online(row.seen_at + timedelta(seconds=15))            # 3 beats: still online
        assert not row.online(row.seen_at + timedelta(seconds=15.5))


def test_a_lost_camera_is_said_on_the_counter(tmp_path):
    frames = tmp_path / "camera"
    frames.mkdir()
    (frames / "frame.jpg").write_bytes(b"not a picture")        # the camera opens, and gives no frame
    settings = table(tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}", "table 1", camera=str(frames))
    with TestClient(create_app(settings)) as client:
        t = wait_for(lambda: camera_lost(client))
        assert t, counter_tables(client)["table 1"]
        assert any(w.startswith("camera lost") and "gave no frame" in w for w in t["warnings"])


def test_a_lost_ip_camera_shows_on_the_counter_without_its_password(tmp_path):
    url = "rtsp://admin:s3cret@127.0.0.1:1/stream"          # port 1: nothing listens, refused at once
    settings = table(tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}", "table 1", camera=url)
    with TestClient(create_app(settings)) as client:
        t = wait_for(lambda: camera_lost(client))
        assert t, counter_tables(client)["table 1"]
        assert "s3cret" not in json.dumps(t) and any("admin:***@127.0.0.1:1" in w for w in t["warnings"]), t
        stored = heartbeat.table(client.app.state.parlour.engine, "table 1").status
        assert "s3cret" not in json.dumps(stored)             # nor in the parlour's database


def test_a_camera_that_stops_giving_frames_is_lost(tmp_path):
    """As the camera judges it (a pause under its ``stale_s`` is not lost: tests/service/test_camera.py)."""
    settings = table(tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}", "table 1")
    with TestClient(create_app(settings)) as client:
        assert wait_for(lambda: counter_tables(client)["table 1"]["camera"] == "ok")
        camera = client.app.state.camera
        camera.stale_s = 0.5
        camera.stop()                          # the capture thread ends: no new frame from now on
        time.sleep(camera.stale_s + 0.1)
        state, why = heartbeat.Heartbeat(client.app, client.app.state.parlour.engine).camera_state()
        assert state == "lost" and why.startswith("no new frame for"), (state, why)
        t = wait_for(lambda: camera_lost(client))
        assert t and any(w.startswith("camera lost") and "no new frame" in w for w in t["warnings"]), t


def test_a_database_away_for_a_while_does_not_stop_the_table(tmp_path, db_url, caplog):
    with TestClient(create_app(table(tmp_path, db_url, "table 1")), headers={"X-Table-PIN": PIN}) as client:
        engine = client.app.state.parlour.engine
        beat = heartbeat.Heartbeat(client.app, engine)
        with engine.begin() as conn:           # the heartbeat's table gone: every beat fails
            conn.exec_driver_sql("ALTER TABLE ledger_tables RENAME TO ledger_tables_away")
        try:
            assert beat.beat() is False
            assert "heartbeat of 'table 1' not written" in caplog.text
            time.sleep(0.5)                    # the service's own beats fail too, and it serves on
            assert client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).status_code == 201
        finally:
            with engine.begin() as conn:
                conn.exec_driver_sql("ALTER TABLE ledger_tables_away RENAME TO ledger_tables")
        assert beat.beat() is True
        before = heartbeat.table(engine, "table 1").seen_at
        assert wait_for(lambda: heartbeat.table(engine, "table 1").seen_at > before)   # beating again


def test_a_counter_only_service_runs_no_table(tmp_path, db_url):
    settings = table(tmp_path, db_url, "counter", counter_only=True)
    with TestClient(create_app(settings)) as client:
        state = client.app.state
        assert state.camera is None and state.watcher is None and state.reader.name == "none"
        r = client.get("/", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/counter"
        assert client.get("/api/sessions", headers={"X-Table-PIN": PIN}).status_code == 401
        time.sleep(0.5)
        assert heartbeat.tables(state.parlour.engine) == []          # no beat: it is no table
        assert counter_tables(client) == {}


def test_two_services_set_to_one_table_name_are_told_at_the_counter(tmp_path, db_url):
    """A misconfigured parlour: two services beating as "table 1" (both would show and write its
    sessions). Each sees the other's beat and says so; the counter warns; one stopping clears it."""
    first = table(tmp_path, db_url, "table 1", camera="", reader="", heartbeat_s=30.0)
    second = first.model_copy(update={"data_dir": tmp_path / "twin"})
    with TestClient(create_app(first)) as c1:
        assert "two services" not in " ".join(counter_tables(c1)["table 1"]["warnings"])   # alone: no warning
        with TestClient(create_app(second)):
            beat_one = heartbeat.Heartbeat(c1.app, c1.app.state.parlour.engine)
            assert beat_one.beat() and beat_one.twin          # c2's start beat is the freshest: another's
            warnings = counter_tables(c1)["table 1"]["warnings"]
            assert any("two services beat as this table" in w for w in warnings), warnings
        # the second stopped (its row says so): the next beat is alone again
        assert beat_one.beat() and not beat_one.twin
        assert not any("two services" in w for w in counter_tables(c1)["table 1"]["warnings"])


def test_a_rules_folder_that_cannot_be_read_leaves_the_beat_going(tmp_path):
    """The beat says which house rules the table finds; a folder that cannot be read now (a share
    gone: here a name past the system's length, which no stat takes) leaves that unknown, and the
    table beats on. Before, every beat failed and the counter showed a working table offline."""
    unreadable = tmp_path / ("x" * 300) / "rules"
    settings = table(tmp_path, f"sqlite:///{tmp_path / 'p.sqlite3'}", "table 1", rules_dir=str(unreadable))
    with TestClient(create_app(settings)) as client:
        beat = heartbeat.Heartbeat(client.app, client.app.state.parlour.engine)
        assert beat.house_rules() is None and beat.beat()
        row = counter_tables(client)["table 1"]
        assert row["online"]
