"""A whole copy of a table's SQLite ledger, taken while the service runs, and putting one back.

The ledger runs in WAL mode: a confirmed hand is written to ``ledger.sqlite3-wal``
beside the database and moved into ``ledger.sqlite3`` only at a checkpoint (SQLite
makes one every thousand pages or so, and when the last connection closes). So a
copy of ``ledger.sqlite3`` alone, taken while the service runs, lacks the night's
hands: on a new database, every table. ``backup`` uses SQLite's online backup,
which copies the database as one reader sees it at one instant, WAL included,
while the service goes on writing; the copy is one file (no ``-wal``), checked
whole before it takes its name.

``restore`` puts a backup back, refused while another program (the table's service)
has the ledger open: the database as it is now is first kept aside beside it
(``<name>.before-restore-<UTC stamp>``, itself a backup), then the backup's pages
are written into the database through SQLite, so the old ``-wal`` can never be
played over them. PostgreSQL has its own tools (``pg_dump``).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import create_engine, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from .db import SQLITE_BUSY_S, metadata
from .errors import LedgerError

TABLES = ("ledger_sessions", "ledger_events")      # a file without these is no ledger
BESIDE = ("", "-wal", "-shm")                       # a SQLite database's files: itself, its WAL and index


@dataclass(frozen=True)
class Copied:
    """What a backup or a restore holds: its file, sessions, logged events (None: not readable as a
    ledger) and size."""
    path: Path
    sessions: int | None
    events: int | None
    size: int

    def __str__(self) -> str:
        held = ("not readable as a ledger" if self.sessions is None
                else f"{self.sessions} session(s), {self.events} event(s)")
        return f"{self.path}: {held}, {self.size / 1e6:.1f} MB"


def sqlite_path(url: str) -> Path:
    """The SQLite file of ``url``; ``LedgerError`` for another database or none."""
    try:
        parsed = make_url(url)
    except Exception as e:               # SQLAlchemy's ArgumentError, or a port that is no number
        raise LedgerError(f"the database URL is not one ({e})") from None
    if not parsed.get_backend_name().startswith("sqlite"):
        raise LedgerError(f"{parsed.get_backend_name()}: this copies a SQLite ledger; back a PostgreSQL "
                          "database up with its own tools (pg_dump -Fc, pg_restore)")
    if not parsed.database or parsed.database == ":memory:":
        raise LedgerError("the database URL names no file")
    return Path(parsed.database)


def backup(url: str, dest: Path) -> Copied:
    """Copy the ledger at ``url`` into the new file ``dest`` (never one that exists), consistent
    at one instant however the service writes meanwhile."""
    return _copy_new(_ledger_file(url), Path(dest))


def _copy_new(source: Path, dest: Path) -> Copied:
    """The checked ledger ``source`` copied into the new file ``dest``, checked before it takes its name."""
    if dest.exists():
        raise LedgerError(f"{dest}: already exists; name a new file (a backup is never written over)")
    if not dest.parent.is_dir():
        raise LedgerError(f"{dest.parent}: no such folder")
    part = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    try:
        _copy(source, part)
        copied = _check(part)
        part.replace(dest)
    finally:
        part.unlink(missing_ok=True)
    return Copied(dest, copied.sessions, copied.events, copied.size)


def restore(url: str, backup_file: Path) -> tuple[Copied | None, Copied]:
    """Put the backup ``backup_file`` back as the ledger at ``url``; returns (what was kept aside,
    None where there was no ledger; what the ledger now holds). A ledger that cannot be read
    (damaged: why one restores) is kept aside as its files lie. Stop the table's service first."""
    target, backup_file = sqlite_path(url), Path(backup_file)
    if not backup_file.is_file():
        raise LedgerError(f"{backup_file}: no such file")
    if target.exists() and target.samefile(backup_file):    # copied onto itself, it never ended
        raise LedgerError(f"{backup_file} is the ledger itself: restore a backup of it; nothing was changed")
    _check(backup_file)
    _rows_read(backup_file)
    aside = None
    if target.exists():
        kept = _aside_name(target)
        try:
            _check(target)
        except LedgerError:     # damaged, or no ledger: kept aside as it lies, its -wal with it
            for suffix in BESIDE:
                if (part := Path(f"{target}{suffix}")).exists():
                    part.replace(f"{kept}{suffix}")
            aside = Copied(kept, None, None, kept.stat().st_size)
        else:
            _not_in_use(target)
            aside = _copy_new(target, kept)
    _copy(backup_file, target)
    return aside, _check(target)


def _not_in_use(target: Path) -> None:
    """``LedgerError`` when another program has the ledger open (the table's service keeps its
    connections open): a ledger in WAL mode leaves it only when no other connection is open.
    Restored under a running service, the night would vanish from its tablets at once."""
    conn = _connect(target)
    try:
        conn.execute("PRAGMA busy_timeout = 0")
        mode = conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    except sqlite3.OperationalError:            # "database is locked": another connection holds it
        mode = "wal"
    finally:
        conn.close()
    if mode.lower() == "wal":
        raise LedgerError(f"{target}: in use by another program (the table's service?): stop it, then "
                          "restore; nothing was changed")


def _aside_name(target: Path) -> Path:
    """``<name>.before-restore-<UTC stamp>``, with -2, -3... where one of that second is there."""
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    kept, n = target.with_name(f"{target.name}.before-restore-{stamp}"), 1
    while any(Path(f"{kept}{suffix}").exists() for suffix in BESIDE):
        n += 1
        kept = target.with_name(f"{target.name}.before-restore-{stamp}-{n}")
    return kept


def no_ledger_at(path: Path) -> LedgerError:
    """The one line for a SQLite ledger that is not there: a mistyped or relative path, read from the
    wrong folder, must not open a new, empty ledger ("no sessions" would read as the night lost)."""
    return LedgerError(f"no ledger at {path.resolve()} (check --db or LEDGER_DB_URL; a new one "
                       f"is made by start, import or migrate)")


SQLITE_HEADER = 100      # bytes every SQLite database begins with: a shorter file holds none


def ledger_path(url: str) -> Path:
    """The SQLite ledger file at ``url``, where there is one: ``LedgerError`` for none, or for a file
    shorter than any SQLite database (opened, SQLite made an empty or 1-byte file a new ledger)."""
    path = sqlite_path(url)
    if not path.is_file():
        raise no_ledger_at(path)
    if path.stat().st_size < SQLITE_HEADER:
        raise LedgerError(f"{path.resolve()}: no ledger in it (shorter than any SQLite file; check --db or "
                          "LEDGER_DB_URL)")
    return path


def _ledger_file(url: str) -> Path:
    path = ledger_path(url)
    _check(path)
    return path


def _copy(source: Path, dest: Path) -> None:
    """SQLite's online backup of ``source`` into ``dest`` (made or replaced page by page, in one
    transaction on it), then ``dest`` made a file that stands alone (rollback journal, no -wal)."""
    src = _connect(source)
    try:
        out = _connect(dest)
        try:
            src.backup(out)
            out.execute("PRAGMA journal_mode=DELETE")
        finally:
            out.close()
    except sqlite3.DatabaseError as e:
        raise LedgerError(f"{source} -> {dest}: {e}") from None
    finally:
        src.close()


def _check(path: Path) -> Copied:
    """The ledger in ``path`` counted, after SQLite's integrity check; ``LedgerError`` naming what is off."""
    try:
        conn = _connect(path)
        try:
            if (ok := conn.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
                raise LedgerError(f"{path}: damaged ({ok})")
            have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if missing := [t for t in TABLES if t not in have]:
                raise LedgerError(f"{path}: no ledger in it (no table {', '.join(missing)})")
            sessions, events = (conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES)
        finally:
            conn.close()
    except sqlite3.DatabaseError as e:           # "file is not a database", and the like
        raise LedgerError(f"{path}: {e}") from None
    return Copied(path, sessions, events, path.stat().st_size)


def _rows_read(path: Path) -> None:
    """Every row of the ledger in ``path`` read as the service reads it (its JSON bodies parsed, its
    times), so a backup whose pages are whole but one row's bytes are not (SQLite's check reads
    pages, not what they hold) is refused before it is put back, not met as a 500 on every page after
    it; ``LedgerError`` naming the table. A column an older schema lacks is left to the migrations."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"           # a name holding % or ? read as it is
    engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True))
    try:
        with engine.connect() as conn:
            for table in metadata.sorted_tables:
                held = {r[1] for r in conn.exec_driver_sql(f'PRAGMA table_info("{table.name}")')}
                columns = [c for c in table.columns if c.name in held]
                try:
                    for row in conn.execute(select(*columns)) if columns else ():
                        tuple(row)
                except (ValueError, TypeError, DBAPIError) as e:
                    raise LedgerError(f"{path}: damaged: a row of {table.name} cannot be read "
                                      f"({type(e).__name__}: {str(e).splitlines()[0][:120]})") from None
    finally:
        engine.dispose()


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(str(path), timeout=SQLITE_BUSY_S, isolation_level=None)
