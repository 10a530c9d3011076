"""The table's heartbeat: each table service writes its row of ``ledger_tables`` for the counter.

At start, then every ``TABLE_HEARTBEAT_S``, a table service upserts its row:
``seen_at`` (now) and ``status``: the camera (``ok``; ``lost``: it says it
cannot read, or no new frame for three beats and at least 2 s; ``none``: no camera), whether the
reader reads a calibrated table, the reader's name, the session a tablet shows,
the service's own default rule, how the reader read its last confirmed counts
(``service.read_tally``), and its beat. On a clean stop it marks the row
``stopped``. A beat that cannot reach the database is logged and tried again at
the next one: the table goes on counting. The counter shows a table whose last
beat is older than three of its beats (or stopped) as offline.

The row's ``default_rule`` is the counter's choice for the table (the
new-session page offers it first); a beat never touches it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import Engine, select, update

import scoring
from calibration.store import TableFile
from scoring.house import house_rule_files

from .ledger import db

BEATS_TO_OFFLINE = 3
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableRow:
    """A table as its last beat left it."""

    name: str
    seen_at: datetime
    status: dict[str, Any]
    default_rule: str | None

    def online(self, now: datetime | None = None, beat_s: float = 10.0) -> bool:
        """Beating (not stopped, the last beat within three of its own beats)."""
        if self.status.get("stopped"):
            return False
        every = float(self.status.get("heartbeat_s") or beat_s)
        now = now or datetime.now(timezone.utc)
        return (now - self.seen_at).total_seconds() <= BEATS_TO_OFFLINE * every


class Heartbeat:
    """One table service's beat: what it says of itself, written to its row."""

    def __init__(self, app, engine: Engine):
        self.app, self.engine = app, engine
        self.settings = app.state.settings
        self._failing = ""
        self.instance = secrets.token_hex(6)       # this run of the service: tells a twin from itself
        self.twin = False

    # -- what the table says -----------------------------------------------------------------------
    def camera_state(self) -> tuple[str, str]:
        """``ok``, ``lost`` (with why) or ``none``: lost as the camera says (``Camera.lost``: it cannot
        read, or no new frame came for its ``stale_s``), the very rule by which a Count is refused."""
        camera = self.app.state.camera
        if camera is None:
            return "none", ""
        why = camera.lost()
        return ("lost", why) if why else ("ok", "")

    def status(self) -> dict[str, Any]:
        state = self.app.state
        camera, why = self.camera_state()
        reader = state.reader
        return {"camera": camera, "camera_error": why,
                "calibrated": isinstance(getattr(reader, "table", None), TableFile),
                "calibration": self.settings.calibration, "reader": getattr(reader, "name", ""),
                "reader_message": getattr(reader, "message", ""), "session": state.offers.session,
                "default_rule": self.settings.default_rule,
                "house_rules": self.house_rules(),
                "watcher": state.watcher is not None and bool(state.watcher.status().get("enabled")),
                "heartbeat_s": self.settings.heartbeat_s, "stopped": False,
                "instance": self.instance, "twin": self.twin, "reads": state.read_tally.summary()}

    def house_rules(self) -> list[str] | None:
        """The house rules this table finds (its rules folder), for the counter's warnings; None when
        the folder cannot be read now (a share gone): unknown, and the beat goes out all the same."""
        try:
            return [p.stem for p in house_rule_files(self.settings.house_rules_dir)]
        except OSError:
            return None

    # -- writing -----------------------------------------------------------------------------------
    def beat(self, stopped: bool = False) -> bool:
        """Write the row now; False (logged once per kind of failure) when the database is away."""
        try:
            self.twin = not stopped and self._twin_beating()
            status = {**self.status(), "stopped": stopped}
            upsert(self.engine, self.settings.table_name, status)
        except Exception as e:       # the database gone for a moment: the table goes on, next beat retries
            if str(e) != self._failing:
                log.warning("heartbeat of %r not written (retrying every beat): %s", self.settings.table_name, e)
            self._failing = str(e)
            return False
        self._failing = ""
        return True

    def _twin_beating(self) -> bool:
        """Whether another running service beats as this table (the same ``TABLE_TABLE_NAME`` set on
        two): the row's last beat is another instance's, not stopped, and fresher than one of its
        beats and a half. Both then say so at every beat, and the counter shows it; a service
        restarted after a crash says it at most once (the dead run's last beat)."""
        row = table(self.engine, self.settings.table_name)
        if row is None or row.status.get("stopped"):
            return False
        other = row.status.get("instance")
        if other in (None, self.instance):
            return False
        every = float(row.status.get("heartbeat_s") or self.settings.heartbeat_s)
        fresh = (db.clock(self.engine) - row.seen_at).total_seconds() <= 1.5 * every
        if fresh and not self.twin:
            log.warning("another service beats as table %r: give each table its own TABLE_TABLE_NAME",
                        self.settings.table_name)
        return fresh

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self.settings.heartbeat_s)
            await asyncio.to_thread(self.beat)

    async def stop(self) -> None:
        """Mark the row stopped (waiting a few seconds at most for a database that is away)."""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.beat, True), timeout=5)
        except asyncio.TimeoutError:
            log.warning("heartbeat of %r: could not mark it stopped", self.settings.table_name)


def upsert(engine: Engine, name: str, status: dict[str, Any]) -> None:
    """Insert or update ``name``'s row in one statement (SQLite and PostgreSQL both say ON CONFLICT)."""
    if engine.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    with engine.begin() as conn:
        stmt = insert(db.tables).values(name=name, seen_at=db.now(conn), status=status)
        stmt = stmt.on_conflict_do_update(index_elements=[db.tables.c.name],
                                          set_={"seen_at": stmt.excluded.seen_at, "status": stmt.excluded.status})
        conn.execute(stmt)


# -- what the counter reads and sets ---------------------------------------------------------------


def tables(engine: Engine) -> list[TableRow]:
    """Every table that ever beat, by name."""
    with engine.connect() as conn:
        rows = conn.execute(select(db.tables).order_by(db.tables.c.name)).all()
    return [_table_row(r) for r in rows]


def table(engine: Engine, name: str) -> TableRow | None:
    """Table ``name``'s row as its last beat left it (None: it never beat)."""
    with engine.connect() as conn:
        r = conn.execute(select(db.tables).where(db.tables.c.name == name)).first()
    return _table_row(r) if r is not None else None


def _table_row(r) -> TableRow:
    return TableRow(r.name, db.aware(r.seen_at), dict(r.status or {}), r.default_rule)



def default_rule(engine: Engine, name: str) -> str | None:
    """The rule the counter chose for table ``name`` (None: not chosen, or no row)."""
    with engine.connect() as conn:
        return conn.execute(select(db.tables.c.default_rule).where(db.tables.c.name == name)).scalar()


def rule_missing(status: dict[str, Any], rule: str) -> bool:
    """Whether a table whose last beat said ``status`` lacks house rule ``rule``: its service does not
    find that file in its own rules folder. Each service reads its own folder: a rule made at the
    counter reaches a table only through one folder for all. Unknown (a service from before) is
    not missing. The counter shows it among the table's warnings (its beat may be a few seconds old:
    a rule just made is not refused for it)."""
    found = status.get("house_rules")
    return found is not None and rule not in found and rule not in scoring.preset_ids()


def set_default_rule(engine: Engine, name: str, rule: str | None) -> bool:
    """Choose (``None``: clear) table ``name``'s default rule; False when no such table ever beat."""
    with engine.begin() as conn:
        return bool(conn.execute(update(db.tables).where(db.tables.c.name == name)
                                 .values(default_rule=rule or None)).rowcount)
