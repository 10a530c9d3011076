"""python -m service: run the table service (settings from TABLE_* / .env) and print its URL and PIN.

    python -m service                       # the demo camera, SQLite in ./data
    TABLE_CAMERA=0 TABLE_PIN=2468 python -m service --port 8080
"""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

import uvicorn
from pydantic import ValidationError

from .app import create_app
from .camera import CameraError, describe
from .ledger.backup import sqlite_path
from .ledger.db import database_error
from .ledger.errors import LedgerError
from .ledger.repo import Ledger
from .reader import ReaderLoadError
from .reader_choice import reader_for
from .settings import ENV_FILE, Settings, settings_error
from .shown import shown_url


def lan_address() -> str:
    """This machine's address on the LAN (what the tablet types), without sending anything."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"


def can_listen(host: str, port: int) -> None:
    """OSError naming the address when nothing can listen there (in use, not this machine's)."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)    # as uvicorn binds
            s.bind((host, port))
    except OSError as e:
        raise OSError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None


def settings_from(overrides: dict) -> Settings:
    """The settings (TABLE_* and the working folder's .env, then the command line's); a .env that is
    not UTF-8 text is a StorageError naming it (its reader raises a bare UnicodeDecodeError)."""
    try:
        return Settings(**overrides)
    except UnicodeDecodeError as e:
        raise StorageError(f"{Path(ENV_FILE).resolve()}: not UTF-8 text ({e.reason} at byte {e.start}); "
                           "save the settings file as UTF-8") from None


class StorageError(Exception):
    """A settings file, a data or house rules folder, or the database, that cannot be used; one line."""


def open_storage(settings: Settings) -> None:
    """Make the data folders and open the ledger once (migrating it), so a data or house rules folder that
    is a file, a database URL no dialect reads, a server that does not answer or a file that is no database
    is named in one line before the service starts (StorageError), not as a traceback from its start-up."""
    for folder in (settings.data_dir, settings.snapshot_dir):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            why = "a file, not a folder" if isinstance(e, FileExistsError) else e.strerror or str(e)
            raise StorageError(f"data folder {e.filename or folder}: {why} (TABLE_DATA_DIR, TABLE_DB_URL)") from None
    rules = settings.house_rules_dir
    if rules.exists() and not rules.is_dir():
        raise StorageError(f"house rules folder {rules}: a file, not a folder (TABLE_RULES_DIR)")
    orphan = _journal_without_ledger(settings.ledger_url)
    if orphan is not None:
        raise StorageError(f"{orphan.with_name(orphan.name.removesuffix('-wal'))} is missing but its journal {orphan} "
                           f"is there: the ledger was deleted; put it back (python -m service.ledger restore), or move "
                           f"the -wal and -shm files away to start an empty one")
    try:
        Ledger(settings.ledger_url).close()
    except Exception as e:
        reason = database_error(e)
        if reason is None:
            raise
        raise StorageError(f"database {shown_url(settings.ledger_url)}: {reason} (TABLE_DB_URL)") from None


def _journal_without_ledger(url: str) -> Path | None:
    """A SQLite ledger's ``-wal`` journal left where its file is gone (deleted while a service ran):
    a new empty ledger would be served there as if the night had not happened."""
    if not url.startswith("sqlite"):
        return None
    try:
        path = sqlite_path(url)
    except LedgerError:
        return None
    wal = path.with_name(path.name + "-wal")
    return wal if not path.exists() and wal.is_file() and wal.stat().st_size > 0 else None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m service", description=__doc__.splitlines()[0])
    p.add_argument("--host", help="default: TABLE_HOST or 0.0.0.0")
    p.add_argument("--port", type=int, help="default: TABLE_PORT or 8000")
    p.add_argument("--camera", help="USB index, URL, video file or image folder (default: TABLE_CAMERA, the demo)")
    args = p.parse_args(argv)
    overrides = {k: v for k, v in {"host": args.host, "port": args.port, "camera": args.camera}.items()
                 if v is not None}
    try:                                   # a bad setting, camera, reader or port: one line, exit 2
        settings = settings_from(overrides)
        describe(settings.camera)
        reader_for(settings.reader, settings.calibration, settings.demo_camera)
        can_listen(settings.host, settings.port)
        open_storage(settings)
    except ValidationError as e:
        print(f"error: {settings_error(e)}", file=sys.stderr)
        return 2
    except (CameraError, ReaderLoadError, OSError, StorageError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    host = lan_address() if settings.host in ("0.0.0.0", "") else settings.host
    if settings.counter_only:
        print(f"東天紅 counter: http://{host}:{settings.port}/counter  (the staff PIN, TABLE_STAFF_PIN)", flush=True)
    else:
        print(f"東天紅 table service ({settings.table_name}): http://{host}:{settings.port}/  PIN {settings.table_pin}",
              flush=True)
        if settings.staff_pin:
            print(f"  counter: http://{host}:{settings.port}/counter  (the staff PIN)", flush=True)
    print(f"  database {shown_url(settings.ledger_url)}, snapshots {settings.snapshot_dir}, camera {shown_url(settings.camera)}",
          flush=True)
    print(f"  house rules {settings.house_rules_dir} (TABLE_RULES_DIR)", flush=True)
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port, log_level="warning",
                timeout_graceful_shutdown=3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
