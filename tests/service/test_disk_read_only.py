"""A disk that refuses writes at the table (remounted read-only after an error, a folder the service
may not write, a failing disk): the press says so in one line (HTTP 503), saves nothing half-way, and
the same press once the disk takes writes again goes through. Made real with the immutable flag
(``chattr +i``) on the data folder, where this machine's filesystem and rights allow it: the kernel
refuses writes into it as a read-only disk's, the service's files open all along (a remount cannot
be made under them: "mount point is busy")."""

from __future__ import annotations

import errno
import os
import sqlite3
import subprocess

import pytest
from sqlalchemy import create_engine
from sqlalchemy.exc import OperationalError

from service.errors import storage_unwritable, storage_unwritable_message
from table_fixtures import PLAYERS

REFUSED = "the table cannot write to its disk"


@pytest.fixture
def freeze(settings):
    """``freeze()`` makes the data folder and all in it refuse writes; undone after the test."""
    data = settings.data_dir

    def chattr(flag: str) -> subprocess.CompletedProcess:
        return subprocess.run(["chattr", "-R", flag, str(data)], capture_output=True, text=True)

    def freeze() -> None:
        done = chattr("+i")
        if done.returncode != 0:
            chattr("-i")
            pytest.skip(f"cannot make a folder refuse writes here: {done.stderr.strip()}")

    yield freeze
    chattr("-i")


def _session(client) -> str:
    r = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def test_a_count_the_disk_cannot_keep_is_503_and_counts_once_it_can(client, settings, freeze):
    sid = _session(client)
    freeze()
    r = client.post(f"/api/camera/read?session={sid}")
    assert r.status_code == 503, r.text
    detail = r.json()["detail"]
    assert REFUSED in detail and "snapshots" in detail and "nothing was saved" in detail
    assert str(settings.data_dir) in detail and "\n" not in detail
    page = client.post(f"/s/{sid}/count", headers={"HX-Request": "true"})      # the tablet's Count
    assert page.status_code == 503 and page.headers["HX-Retarget"] == "#flash" and REFUSED in page.text
    subprocess.run(["chattr", "-R", "-i", str(settings.data_dir)], check=True)
    assert client.post(f"/api/camera/read?session={sid}").status_code == 200


def test_what_the_disk_refused_is_told_from_the_error_itself(tmp_path):
    """A file the disk refuses (read-only, no right to it, failing) by its errno; the SQLite ledger by
    SQLite's own words, here from a real connection that may only read (the file frozen under an open
    ledger crashes SQLite's shared memory map instead, so the service's ledger is not frozen above).
    A missing file or a full disk is none of these."""
    for code in (errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO):
        said = storage_unwritable(OSError(code, os.strerror(code), "/data/snapshots/a.jpg"))
        assert said == f"/data/snapshots/a.jpg ({os.strerror(code)})"
    assert storage_unwritable(OSError(errno.ENOENT, "No such file or directory", "x")) == ""
    assert storage_unwritable(OSError(errno.ENOSPC, "No space left on device", "x")) == ""
    path = tmp_path / "ledger.sqlite3"
    sqlite3.connect(path).execute("CREATE TABLE t (x)").connection.close()
    engine = create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")
    with pytest.raises(OperationalError) as refused, engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO t VALUES (1)")
    engine.dispose()
    assert storage_unwritable(refused.value) == "the ledger (attempt to write a readonly database)"
    message = storage_unwritable_message(storage_unwritable(refused.value), tmp_path)
    assert message.startswith(REFUSED) and "nothing was saved" in message and str(tmp_path) in message
