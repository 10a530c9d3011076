"""The database: the parlour's tables, an engine per URL, and migrations run by Alembic.

``ledger_sessions`` holds what a session is (its table, rule, players, first
dealer, table overrides); ``ledger_events`` is its append-only log;
``ledger_players`` is the player register (a session names its three players by
id, beside the names they sat under); ``ledger_tables`` is each table service's
heartbeat (what the counter shows); ``ledger_prices`` is the counter's money per
rule (rate and table fee); ``ledger_rules`` keeps
each resolved rule a session was started under, by its digest and name (the
session's ``rule_digest``; a session from before it has none and counts under
its built-in by name); ``ledger_tilesets`` holds the tile set each table was
last taught on its teach page (its enrolled crops, zipped: service/shared_tiles.py),
so a sister table with the same tiles can take it. Nothing derived (balances, dealer, honba, pool) is stored. SQLite (the default, a file in the user's data
folder, WAL mode, ``synchronous=FULL``, every write transaction ``BEGIN
IMMEDIATE``) or PostgreSQL (``postgresql+psycopg://...``) by URL.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone
from functools import partial
from pathlib import Path

from sqlalchemy import (JSON, Column, Connection, DateTime, Engine, Float, ForeignKey, ForeignKeyConstraint, Index,
                        Integer, LargeBinary, MetaData, String, Table, UniqueConstraint, create_engine, event, func,
                        select)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from .errors import LedgerGone, SchemaError

ENV_URL = "LEDGER_DB_URL"
MIGRATION_LOCK = 0x746F7574656E6B6F   # PostgreSQL advisory lock key of the ledger's migrations ("toutenko")
REGISTER_LOCK = 0x706C6179657273     # ... and of the player register's merges and seatings ("players")
MIGRATIONS = Path(__file__).parent / "migrations"

metadata = MetaData()

sessions = Table(
    "ledger_sessions", metadata,
    Column("id", String(36), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("rules", String(64), nullable=False),
    Column("players", JSON, nullable=False),
    Column("first_dealer", Integer, nullable=False),
    Column("table_overrides", JSON, nullable=False),
    Column("label", String(200), nullable=False, default=""),
    # the stored rule (ledger_rules, with ``rules`` as its name); NULL: a session from before 0002
    Column("rule_digest", String(20)),
    # the table the session is played at (TABLE_TABLE_NAME of the service that started it); '' before 0003
    Column("table_name", String(100), nullable=False, server_default=""),
    # ledger_players ids, one per seat in ``players``' order (the names are the seats' names in the log)
    Column("player_ids", JSON),
    # declared on PostgreSQL by migration 0002 (SQLite cannot add a constraint to a table)
    ForeignKeyConstraint(["rule_digest", "rules"], ["ledger_rules.digest", "ledger_rules.name"],
                         name="fk_ledger_sessions_rule"),
)

Index("ix_ledger_sessions_table", sessions.c.table_name, sessions.c.created_at)

players = Table(
    "ledger_players", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(100), nullable=False),
    Column("kana", String(100), nullable=False, server_default=""),   # the name's reading, for search
    Column("code", String(16), nullable=False, unique=True),         # the member code (会員番号)
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("merged_into", Integer),         # entered twice: the id of the player merged into (players.merge)
    Column("merged_at", DateTime(timezone=True)),
)

tables = Table(
    "ledger_tables", metadata,
    Column("name", String(100), primary_key=True),
    Column("seen_at", DateTime(timezone=True), nullable=False),      # the service's last heartbeat
    Column("status", JSON, nullable=False),                          # camera, calibration, reader, rule, session
    Column("default_rule", String(64)),                              # set at the counter: the new-session page's first
)

prices = Table(
    "ledger_prices", metadata,
    Column("rule", String(64), primary_key=True),                    # a built-in or a house rule's name
    Column("rate", Float, nullable=False),                           # money per point (isshokai: per stick)
    Column("fee", Float, nullable=False),                            # the table fee (場代) per player ...
    Column("fee_per", String(8), nullable=False),                    # ... per "game" (session) or per "hour"
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

price_history = Table(
    "ledger_price_history", metadata,                                # every price set, from when
    Column("rule", String(64), primary_key=True),
    Column("since", DateTime(timezone=True), primary_key=True),
    Column("rate", Float, nullable=False),
    Column("fee", Float, nullable=False),
    Column("fee_per", String(8), nullable=False),
)

rules = Table(
    "ledger_rules", metadata,
    Column("digest", String(20), primary_key=True),     # scoring's Preset.digest: what counts
    Column("name", String(64), primary_key=True),       # the rule's name (a house rule's file name)
    Column("extends", String(64)),                      # a house rule's base; NULL for a built-in
    Column("body", JSON, nullable=False),               # the resolved rule (service.ledger.stored_rules)
    Column("created_at", DateTime(timezone=True), nullable=False),
)

tilesets = Table(
    "ledger_tilesets", metadata,
    Column("table_name", String(100), primary_key=True),             # the table it was taught at
    Column("taught_at", DateTime(timezone=True), nullable=False),
    Column("kinds", Integer, nullable=False),                        # kinds with crops (``back`` counts)
    Column("crops", Integer, nullable=False),
    Column("archive", LargeBinary, nullable=False),                  # a zip: <kind>/<n>.png, the enrolled crops
)

events = Table(
    "ledger_events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", String(36), ForeignKey("ledger_sessions.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("body", JSON, nullable=False),
    Column("confirmed_by", String(100)),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("snapshot", String(500)),
    UniqueConstraint("session_id", "seq", name="uq_ledger_events_session_seq"),
)
Index("ix_ledger_events_snapshot", events.c.snapshot)       # which hand a picture was logged as


def now(conn: Connection) -> datetime:
    """Now, by the clock every table of a parlour shares: PostgreSQL's (the server's, at the
    transaction's start), so a table machine whose own clock is off (no battery, no NTP on the
    parlour's network) still files its hands on the right day and beats on time for the counter;
    with SQLite, whose tables share one machine, that machine's."""
    if conn.dialect.name == "postgresql":
        return aware(conn.execute(select(func.now())).scalar_one())
    return datetime.now(timezone.utc)


def clock(engine: Engine) -> datetime:
    """``now`` outside a transaction of one's own (a beat's age, a price's stamp, today's date)."""
    if engine.dialect.name != "postgresql":
        return datetime.now(timezone.utc)          # no connection needed for this machine's clock
    with engine.connect() as conn:
        return now(conn)


def aware(at: datetime | None) -> datetime | None:
    """A time read back from the database, in UTC: SQLite hands times back without their zone
    (every time is written in UTC)."""
    return at.replace(tzinfo=timezone.utc) if at is not None and at.tzinfo is None else at


def lock_register(conn: Connection) -> None:
    """Hold the player register until the transaction ends: a merge, its undo, and the seating of
    a session's players run one at a time (else two merges crossing each other loop, or a session
    seats both players of a merge being checked). SQLite's BEGIN IMMEDIATE serialises them already;
    PostgreSQL, at read committed, needs the lock."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(REGISTER_LOCK)))


def utc(at: datetime | None) -> datetime | None:
    """A time to write: in UTC, as every time is stored (SQLite keeps a time's digits and drops its
    zone, so 23:00+09:00 written as it is would read back as 23:00 UTC); a time without a zone
    is taken as UTC already."""
    return None if at is None else aware(at).astimezone(timezone.utc)


def default_url() -> str:
    """``LEDGER_DB_URL``, else a SQLite file in the user's data folder."""
    url = os.environ.get(ENV_URL)
    if url:
        return url
    try:
        from platformdirs import user_data_dir
        folder = Path(user_data_dir("toutenkou", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        folder = Path.home() / ".local" / "share" / "toutenkou"
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ledger.sqlite3'}"


SQLITE_BUSY_S = 30.0     # a write waits this long for another program's lock on the SQLite file


def make_engine(url: str | None = None) -> Engine:
    url = url or default_url()
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    try:
        make_url(url)
    except ValueError as e:              # a port that is no number: SQLAlchemy's int() says so, not its own error
        raise ArgumentError(f"the database URL's port is no number ({e})") from None
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_S})
        opened: dict[str, tuple[str, int, int]] = {}       # the file the engine first opened: its identity
        event.listen(engine, "do_connect", partial(_sqlite_before_connect, opened))
        event.listen(engine, "connect", partial(_sqlite_connect, opened))
        event.listen(engine, "begin", partial(_sqlite_begin, opened))
        return engine
    return create_engine(url, pool_pre_ping=True)


def database_error(error: BaseException) -> str | None:
    """One line saying why the database could not be opened or used (a URL no dialect reads, a server that
    does not answer, a file that is no database, a driver not installed); None for any other error."""
    from sqlalchemy.exc import SQLAlchemyError
    if isinstance(error, (SQLAlchemyError, ImportError, SchemaError)):
        text = str(error).strip()
        return text.splitlines()[0] if text else type(error).__name__
    return None


def _sqlite_before_connect(opened: dict, _dialect, _record, _cargs, _cparams) -> None:
    """A new connection, once the engine has opened its file: the same file, or none (SQLite would
    make a new empty one where the ledger was, and the night would go on into it)."""
    if "file" in opened:
        _check_same_file(opened["file"])


def _sqlite_connect(opened: dict, dbapi_conn, _record) -> None:
    # which file the engine opened: removed or replaced later, a connection would write into a file no
    # one opens again (``_sqlite_begin``), or a new one would make an empty ledger there
    name = dbapi_conn.execute("PRAGMA database_list").fetchone()[2]
    if name and "file" not in opened:
        st = os.stat(name)
        opened["file"] = (name, st.st_dev, st.st_ino)
    dbapi_conn.isolation_level = None          # we issue BEGIN ourselves
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")     # a committed hand survives a power cut too
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _sqlite_begin(opened: dict, conn) -> None:
    if "file" in opened:
        _check_same_file(opened["file"])
    conn.exec_driver_sql("BEGIN IMMEDIATE")   # take the write lock before reading the state


def _check_same_file(opened: tuple[str, int, int]) -> None:
    """LedgerGone unless the file ``opened`` (name, device, inode) is still there under its name."""
    name, dev, ino = opened
    try:
        st = os.stat(name)
        same = (st.st_dev, st.st_ino) == (dev, ino)
    except OSError:
        same = False
    if not same:
        raise LedgerGone(f"the ledger file {name} was removed or replaced while the service ran: nothing more "
                         f"is written; stop the service, put the file back (python -m service.ledger restore) "
                         f"and start it again")


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` with Alembic (a no-op when it is there)."""
    from alembic import command
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # configparser reads '%' as interpolation: a URL's %-escapes must be doubled.
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    cfg.set_main_option("sqlalchemy.url", url)
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # a parlour's tables powered on together: one migrates, the others wait here and find it done
            # (without it they create the same tables at once and all but one stop on a duplicate).
            # SQLite's BEGIN IMMEDIATE serialises them already.
            conn.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
        cfg.attributes["connection"] = conn
        try:
            command.upgrade(cfg, revision)
        except CommandError as e:       # a revision this program does not know: a newer program wrote it
            known = ScriptDirectory.from_config(cfg).get_current_head()
            found = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all()
            raise SchemaError(f"the ledger's schema is {', '.join(found) or '?'}, which this program does not "
                              f"know (it knows up to {known}): a newer version wrote it; run that version, "
                              f"or restore a backup made by this one ({e})") from None

