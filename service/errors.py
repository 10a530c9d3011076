"""Bad input, as one line and an HTTP status: every refusal the service makes goes through here."""

from __future__ import annotations

import errno
import sqlite3

from scoring import ScoringError
from vision.tileset import TileSetError

from .camera import CameraError
from .editing import EditError
from .ledger import LedgerError, LedgerGone, StaleState, UnknownSession
from .pin_guard import TooManyWrongPins
from .snapshots import ImageError


class ServiceError(ValueError):
    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


# Most specific first: a StaleState is a LedgerError too.
STATUS = ((UnknownSession, 404), (StaleState, 409), (LedgerGone, 503), (LedgerError, 422), (ScoringError, 422),
          (EditError, 422), (CameraError, 503), (TileSetError, 422))
REFUSALS = (ServiceError, ImageError, LedgerError, ScoringError, EditError, CameraError, TooManyWrongPins,
            TileSetError)


def status_of(exc: Exception) -> int:
    if isinstance(exc, (ServiceError, ImageError, TooManyWrongPins)):
        return exc.status
    for kind, status in STATUS:
        if isinstance(exc, kind):
            return status
    return 500


DISK_FULL_ERRNOS = (errno.ENOSPC, errno.EDQUOT)
PG_DISK_FULL = "53100"          # PostgreSQL's SQLSTATE disk_full


def storage_full(exc: BaseException) -> str:
    """What is full when ``exc`` says so: ``"disk"`` (this machine's: a snapshot, a file, the SQLite
    ledger's SQLITE_FULL), ``"database"`` (the PostgreSQL server's), else ``""``. Nothing was
    saved then: a snapshot is written whole or not at all, a ledger write is one transaction."""
    if isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS:
        return "disk"
    orig = getattr(exc, "orig", None)              # a database error, as SQLAlchemy wraps it
    if getattr(orig, "sqlstate", None) == PG_DISK_FULL:
        return "database"
    if orig is not None and "database or disk is full" in str(orig):
        return "disk"
    return ""


UNWRITABLE_ERRNOS = (errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO)
# SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN as sqlite3 words them
SQLITE_UNWRITABLE = ("attempt to write a readonly database", "disk I/O error", "unable to open database file")


def storage_unwritable(exc: BaseException) -> str:
    """What the disk refused to write when ``exc`` says so (a disk gone read-only after an error, a
    folder the service may not write, a failing disk): the file and why, or ``the ledger (why)``;
    else ``""``. Nothing was saved then, as on a full disk."""
    if isinstance(exc, OSError) and exc.errno in UNWRITABLE_ERRNOS:
        return f"{exc.filename or 'a file'} ({exc.strerror or exc})"
    orig = getattr(exc, "orig", None)
    if isinstance(orig, sqlite3.OperationalError) and any(w in str(orig) for w in SQLITE_UNWRITABLE):
        return f"the ledger ({orig})"
    return ""


def storage_unwritable_message(what: str, data_dir) -> str:
    """The one line the players and staff read (HTTP 503) when the disk refused to write ``what``."""
    return (f"the table cannot write to its disk: {what}; nothing was saved. Check that its data folder "
            f"{data_dir} is on a disk mounted read-write that the service may write, then press again")


def storage_full_message(where: str, data_dir) -> str:
    """The one line the players and staff read (HTTP 507) when ``where`` is full."""
    if where == "database":
        return "the parlour's database server is out of space: nothing was saved. Free space on it and press again"
    return (f"the table's disk is full (its data folder {data_dir}): nothing was saved. Free some space "
            "(snapshots older than TABLE_SNAPSHOT_KEEP_DAYS can go) and press again")


def database_away(exc: BaseException) -> bool:
    """Whether ``exc`` says the database could not be reached at all (refused, dropped, timed out):
    the driver's OperationalError (PostgreSQL's psycopg) with no SQLSTATE, the server never having
    answered. Not any error without one: the driver refuses some statements itself before sending
    them (a NUL in a text: a DataError), with the server up."""
    orig = getattr(exc, "orig", None)
    return (hasattr(orig, "sqlstate") and orig.sqlstate is None
            and any(c.__name__ == "OperationalError" for c in type(orig).__mro__))


def holds_nul(exc: BaseException) -> bool:
    """Whether ``exc`` is PostgreSQL's driver refusing a text that holds a NUL (U+0000), which its
    text cannot keep: an id or a word sent with one, where the ledger's own checks do not look."""
    return "NUL (0x00)" in str(getattr(exc, "orig", None) or "")


NUL_MESSAGE = "a text sent holds a NUL character (U+0000), which the database cannot take: nothing was read or saved"


def database_busy(exc: BaseException) -> bool:
    """Whether ``exc`` says the SQLite file stayed locked by another program (a backup, a database
    browser left in a write) past the wait (``ledger.db.SQLITE_BUSY_S``): nothing was saved."""
    orig = getattr(exc, "orig", None)
    return isinstance(orig, sqlite3.OperationalError) and "locked" in str(orig)


def database_busy_message(shown_url: str, wait_s: float) -> str:
    """The one line for a press made while the SQLite file is locked (HTTP 503)."""
    return (f"the table's database ({shown_url}) has been held by another program for {wait_s:g} s (a backup, "
            "a database browser): nothing was saved. Close that program and press again")


def database_away_message(shown_url: str) -> str:
    """The one line for a press made while the database is out of reach (HTTP 503)."""
    return (f"the parlour's database cannot be reached ({shown_url}): check the network to it and that "
            "it runs, then press again (a hand already saved is not saved twice)")
