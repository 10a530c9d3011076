"""The SQLite ledger deleted (or replaced) while the service runs: every press was answered 201 and
written into a file no one could open again; at the next start an empty ledger was served, the
night gone without a word. Now a press says so (HTTP 503) and writes nothing, and a start that
finds the ledger's journal without the ledger refuses in one line."""

from __future__ import annotations

import sqlite3

import pytest

from table_fixtures import PLAYERS, record
from test_run_command import _start


def test_a_press_after_the_ledger_file_is_deleted_is_503_and_names_the_file(client, settings):
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    assert client.post(f"/api/sessions/{sid}/wins", json={"records": [record()], "hand": 1}).status_code == 201
    ledger = settings.data_dir / "ledger.sqlite3"
    ledger.unlink()
    r = client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [], "hand": 2})
    assert r.status_code == 503, r.text
    assert str(ledger) in r.json()["detail"] and "removed or replaced" in r.json()["detail"]


def test_a_ledger_replaced_by_another_file_is_refused_too(client, settings):
    sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
    ledger = settings.data_dir / "ledger.sqlite3"
    copy = ledger.with_name("copy.sqlite3")
    with sqlite3.connect(ledger) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    copy.replace(ledger)                        # another file under the same name: not the one opened
    r = client.post(f"/api/sessions/{sid}/draws", json={"tenpai": [], "hand": 1})
    assert r.status_code == 503 and "removed or replaced" in r.json()["detail"]


def test_a_start_that_finds_the_journal_without_the_ledger_is_one_line_and_exit_2(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "ledger.sqlite3-wal").write_bytes(b"\x37\x7f\x06\x82" + b"\x00" * 60)
    out = _start(tmp_path)
    assert out.returncode == 2 and out.stdout == "" and out.stderr.count("\n") == 1, out.stderr
    assert "ledger.sqlite3 is missing but its journal" in out.stderr
    assert not (data / "ledger.sqlite3").exists()


def test_a_connection_opened_after_the_delete_makes_no_new_empty_ledger(tmp_path):
    """A second request at the same moment needs a new connection: SQLite made a new empty file
    where the ledger was, that connection took it for the ledger, and the next start served it."""
    from service.ledger import Ledger, LedgerGone
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(f"sqlite:///{path}")
    ledger.start("dunhill", PLAYERS)
    path.unlink()
    busy = ledger.engine.connect()             # one request holds the pooled connection
    try:
        with pytest.raises(LedgerGone, match="removed or replaced"):
            ledger.add_player("Zed")           # another needs a connection of its own
    finally:
        busy.close()
        ledger.close()
    assert not path.exists()
