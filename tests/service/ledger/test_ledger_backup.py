"""Backing up a table's SQLite ledger while its service writes, and putting a backup back.

The ledger is in WAL mode: the night's hands sit in ``ledger.sqlite3-wal`` until a
checkpoint, so a copy of the database file alone lacks them. ``backup`` copies the
database as it stands at one instant, WAL included, into one file; ``restore``
keeps the ledger as it is aside before putting a backup back.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ledger_play import PLAYERS
from service.ledger import Ledger
from service.ledger.__main__ import main

WRITER = Path(__file__).with_name("ledger_writer.py")
ROOT = Path(__file__).resolve().parents[3]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def events_in(path: Path) -> list[int]:
    """The seqs logged in the SQLite file ``path``, opened alone (read-only: nothing beside it is read)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    try:
        return [r[0] for r in conn.execute("SELECT seq FROM ledger_events ORDER BY seq")]
    except sqlite3.OperationalError:          # no such table: the file holds no ledger yet
        return []
    finally:
        conn.close()


def writer(url: str, sid: str, count: int, *more: str) -> subprocess.Popen:
    """A real second process appending ``count`` hands to ``sid``; prints "confirmed N" after each."""
    return subprocess.Popen([sys.executable, str(WRITER), url, sid, str(count), *more], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def killed_after(url: str, sid: str, hands: int) -> None:
    """A writer killed (SIGKILL) once the session holds ``hands`` hands: its -wal left as a power cut
    leaves it. The writer stops at that hand and holds (it ran on and was killed one hand later
    now and then, on a busy machine)."""
    with Ledger(url) as ledger:
        held = ledger.state(sid).hands
    proc = writer(url, sid, hands - held, "hold")
    for line in proc.stdout:
        if line.startswith("statements"):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)


@pytest.fixture
def night(tmp_path):
    """A table's ledger with a session started: (url, file, session id)."""
    path = tmp_path / "ledger.sqlite3"
    with Ledger(sqlite_url(path)) as ledger:
        sid = ledger.start("dunhill", PLAYERS).id
    return sqlite_url(path), path, sid


def test_a_backup_holds_the_hands_a_copy_of_the_file_alone_lacks(night, tmp_path, capsys):
    url, path, sid = night
    with Ledger(url) as ledger:                   # the service, still running: nothing checkpointed
        for _ in range(30):
            ledger.add_draw(sid, [PLAYERS[0]])
        live = ledger.state(sid)
        assert Path(f"{path}-wal").stat().st_size > 0
        copied = tmp_path / "copied.sqlite3"
        shutil.copy(path, copied)
        assert len(events_in(copied)) < 30        # why a backup is needed: the hands are in the -wal
        code, out, err = run(capsys, "--db", url, "backup", str(tmp_path / "night.sqlite3"))
        assert (code, err) == (0, "")
        assert "1 session(s), 30 event(s)" in out
    backed = tmp_path / "night.sqlite3"
    assert not Path(f"{backed}-wal").exists()     # one file, nothing beside it
    assert events_in(backed) == list(range(1, 31))
    with Ledger(sqlite_url(backed)) as ledger:
        again = ledger.state(sid)
    assert (again.hands, again.balances, again.dealer, again.honba) == \
        (live.hands, live.balances, live.dealer, live.honba)


def test_a_backup_taken_while_another_process_writes_is_whole(night, tmp_path, capsys):
    url, path, sid = night
    proc = writer(url, sid, 400)
    taken = []
    try:
        for line in proc.stdout:
            if line.startswith("confirmed") and int(line.split()[1]) in (50, 150, 250):
                dest = tmp_path / f"at-{line.split()[1]}.sqlite3"
                assert run(capsys, "--db", url, "backup", str(dest))[0] == 0
                taken.append(dest)
    finally:
        proc.wait(timeout=120)
    assert proc.returncode == 0 and len(taken) == 3
    counts = []
    for dest in taken:
        conn = sqlite3.connect(dest)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        seqs = events_in(dest)
        assert seqs == list(range(1, len(seqs) + 1))      # no hand half there, none missing
        with Ledger(sqlite_url(dest)) as ledger:
            counts.append(ledger.state(sid).hands)
    assert counts == sorted(counts) and counts[0] >= 50 and counts[-1] >= 250


def test_restore_puts_the_backup_back_and_keeps_the_ledger_aside(night, tmp_path, capsys):
    url, path, sid = night
    killed_after(url, sid, 10)
    backed = tmp_path / "ten.sqlite3"
    assert run(capsys, "--db", url, "backup", str(backed))[0] == 0
    killed_after(url, sid, 16)                    # six more, then a power cut: the -wal holds them
    assert Path(f"{path}-wal").stat().st_size > 0
    code, out, err = run(capsys, "--db", url, "restore", str(backed))
    assert (code, err) == (0, "")
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("ledger.sqlite3.before-restore-")]
    assert len(aside) == 1 and f"kept aside {aside[0]}: 1 session(s), 16 event(s)" in out
    assert "restored" in out and "1 session(s), 10 event(s)" in out
    assert events_in(aside[0]) == list(range(1, 17))
    assert not Path(f"{path}-wal").exists()       # the old -wal is not played over the backup
    with Ledger(url) as ledger:
        assert ledger.state(sid).hands == 10
        ledger.add_draw(sid, [PLAYERS[0]])        # and the table goes on from there
        assert ledger.state(sid).hands == 11


@pytest.mark.parametrize("name", ["night%2041.sqlite3", "table 1?.sqlite3", "夜#1.sqlite3"])
def test_a_backup_named_with_odd_characters_is_put_back(night, tmp_path, capsys, name):
    """The rows of a backup are read through an SQLite URI: a name holding % or ? was read as one."""
    url, path, sid = night
    with Ledger(url) as ledger:
        ledger.add_draw(sid, [PLAYERS[0]])
    backed = tmp_path / name
    assert run(capsys, "--db", url, "backup", str(backed))[0] == 0
    code, out, err = run(capsys, "--db", url, "restore", str(backed))
    assert (code, err) == (0, "") and "1 session(s), 1 event(s)" in out


def test_a_restore_under_a_running_service_is_refused_and_changes_nothing(night, tmp_path, capsys):
    """The service keeps its connections open; restored under it, the night would vanish from its
    tablets at once. Before, the restore went through and then said "database is locked" (exit 2)."""
    url, path, sid = night
    backed = tmp_path / "backup.sqlite3"
    assert run(capsys, "--db", url, "backup", str(backed))[0] == 0
    with Ledger(url) as running:
        running.add_draw(sid, [PLAYERS[0]])
        code, out, err = run(capsys, "--db", url, "restore", str(backed))
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "in use by another program (the table's service?): stop it" in err
        assert running.state(sid).hands == 1
        running.add_draw(sid, [PLAYERS[0]])                          # the table goes on
    assert not [p for p in tmp_path.iterdir() if ".before-restore-" in p.name]
    assert events_in(path) == [1, 2]
    assert run(capsys, "--db", url, "restore", str(backed))[0] == 0  # once it has stopped
    assert events_in(path) == []


def test_restore_over_a_damaged_ledger_keeps_its_files_as_they_lie(night, tmp_path, capsys):
    url, path, sid = night
    backed = tmp_path / "backup.sqlite3"
    assert run(capsys, "--db", url, "backup", str(backed))[0] == 0
    damaged = b"SQLite format 3\x00" + os.urandom(8000)
    path.write_bytes(damaged)
    code, out, err = run(capsys, "--db", url, "restore", str(backed))
    assert (code, err) == (0, "")
    assert "not readable as a ledger" in out
    (aside,) = [p for p in tmp_path.iterdir() if p.name.startswith("ledger.sqlite3.before-restore-")]
    assert aside.read_bytes() == damaged
    with Ledger(url) as ledger:
        assert ledger.state(sid).hands == 0


def test_two_restores_within_a_second_keep_both_ledgers_aside(night, tmp_path, capsys):
    url, path, sid = night
    backed = tmp_path / "backup.sqlite3"
    assert run(capsys, "--db", url, "backup", str(backed))[0] == 0
    with Ledger(url) as ledger:
        ledger.add_draw(sid, [PLAYERS[0]])
    assert run(capsys, "--db", url, "restore", str(backed))[0] == 0
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(4000))          # then damaged, restored again
    assert run(capsys, "--db", url, "restore", str(backed))[0] == 0
    aside = sorted(p for p in tmp_path.iterdir() if ".before-restore-" in p.name)
    assert len(aside) == 2 and events_in(aside[0]) == [1]                   # the draw, kept
    assert aside[1].read_bytes().startswith(b"SQLite format 3") and aside[1].stat().st_size == 4016


@pytest.mark.parametrize("case, said", [
    ("written over", "already exists; name a new file"),
    ("no folder", "no such folder"),
    ("no database", "no ledger at"),
    ("not a database", "file is not a database"),
    ("no ledger", "no ledger in it (no table ledger_sessions, ledger_events)"),
    ("postgresql", "back a PostgreSQL database up with its own tools"),
])
def test_a_backup_refused_says_why_in_one_line(night, tmp_path, capsys, case, said):
    url, path, _ = night
    dest = tmp_path / "b.sqlite3"
    if case == "written over":
        dest.write_bytes(b"an older backup")
    elif case == "no folder":
        dest = tmp_path / "gone" / "b.sqlite3"
    elif case == "no database":
        url = sqlite_url(tmp_path / "none.sqlite3")
    elif case == "not a database":
        (tmp_path / "junk").write_text("junk " * 500)
        url = sqlite_url(tmp_path / "junk")
    elif case == "no ledger":
        sqlite3.connect(tmp_path / "other.sqlite3").execute("CREATE TABLE t (x)").connection.close()
        url = sqlite_url(tmp_path / "other.sqlite3")
    elif case == "postgresql":
        url = "postgresql://ledger@127.0.0.1/ledger"
    before = dest.read_bytes() if dest.is_file() else None
    code, out, err = run(capsys, "--db", url, "backup", str(dest))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and said in err
    assert (dest.read_bytes() if dest.is_file() else None) == before
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


# one byte of a row gone bad on the backup's disk: its pages whole (SQLite's check passes), the row not
ROTTED = {"a hand's body": "UPDATE ledger_events SET body = replace(body, '{', 'x')",
          "a session's time": "UPDATE ledger_sessions SET created_at = replace(created_at, '-', '?')"}


@pytest.mark.parametrize("case, said", [
    ("no file", "no such file"),
    ("not a ledger", "no ledger in it"),
    ("a hand's body", "damaged: a row of ledger_events cannot be read"),
    ("a session's time", "damaged: a row of ledger_sessions cannot be read"),
])
def test_a_restore_refused_says_why_and_leaves_the_ledger_alone(night, tmp_path, capsys, case, said):
    url, path, sid = night
    given = tmp_path / "given.sqlite3"
    if case == "not a ledger":
        sqlite3.connect(given).execute("CREATE TABLE t (x)").connection.close()
    elif case in ROTTED:
        with Ledger(url) as ledger:
            ledger.add_draw(sid, [PLAYERS[0]])
        assert run(capsys, "--db", url, "backup", str(given))[0] == 0
        with sqlite3.connect(given) as conn:
            assert conn.execute(ROTTED[case]).rowcount >= 1
        conn.close()
    before = path.read_bytes()
    code, out, err = run(capsys, "--db", url, "restore", str(given))
    assert code == 2 and out == "" and said in err and err.count("\n") == 1
    assert path.read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if "before-restore" in p.name]
