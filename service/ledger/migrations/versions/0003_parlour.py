"""The parlour: many tables on one database, a player register, the counter's heartbeats and prices.

- ``ledger_players``: a player (name, reading in kana, member code). Every distinct
  name in the sessions logged so far becomes a player (codes 0001, 0002, ... in
  order of first appearance), and each session's ``player_ids`` names them by id,
  seat by seat. Nothing in the log is rewritten: a hand names its players by the
  seat names it was logged with, and the session maps those to ids.
- ``ledger_sessions.table_name``: the table a session is played at ('' for a
  session from before: a one-table service adopts them, docs/parlour.md).
- ``ledger_tables``: each table service's heartbeat; ``ledger_prices``: rate and
  table fee per rule, set at the counter.

Revision ID: 0003
Revises: 0002
"""
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    players = op.create_table(
        "ledger_players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("kana", sa.String(100), nullable=False, server_default=""),
        sa.Column("code", sa.String(16), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "ledger_tables",
        sa.Column("name", sa.String(100), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.JSON, nullable=False),
        sa.Column("default_rule", sa.String(64)),
    )
    op.create_table(
        "ledger_prices",
        sa.Column("rule", sa.String(64), primary_key=True),
        sa.Column("rate", sa.Float, nullable=False),
        sa.Column("fee", sa.Float, nullable=False),
        sa.Column("fee_per", sa.String(8), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("ledger_sessions", sa.Column("table_name", sa.String(100), nullable=False, server_default=""))
    op.add_column("ledger_sessions", sa.Column("player_ids", sa.JSON, nullable=True))
    op.create_index("ix_ledger_sessions_table", "ledger_sessions", ["table_name", "created_at"])
    _players_from_names(players)


def _players_from_names(players: sa.Table) -> None:
    """Each distinct name of the sessions so far becomes a player; each session names them by id."""
    conn = op.get_bind()
    sessions = sa.table("ledger_sessions", sa.column("id", sa.String), sa.column("created_at", sa.DateTime),
                        sa.column("players", sa.JSON), sa.column("player_ids", sa.JSON))
    rows = conn.execute(sa.select(sessions.c.id, sessions.c.players)
                        .order_by(sessions.c.created_at, sessions.c.id)).all()
    ids: dict[str, int] = {}
    now = datetime.now(timezone.utc)
    for row in rows:
        for name in row.players:
            if name not in ids:
                number = len(ids) + 1
                conn.execute(players.insert().values(id=number, name=name, kana="", code=f"{number:04d}",
                                                     created_at=now))
                ids[name] = number
        conn.execute(sessions.update().where(sessions.c.id == row.id)
                     .values(player_ids=[ids[name] for name in row.players]))
    if ids and conn.dialect.name == "postgresql":
        # the rows above were given their ids: the sequence goes on after them
        conn.exec_driver_sql("SELECT setval(pg_get_serial_sequence('ledger_players', 'id'), "
                             "(SELECT max(id) FROM ledger_players))")


def downgrade() -> None:
    op.drop_index("ix_ledger_sessions_table", "ledger_sessions")
    op.drop_column("ledger_sessions", "player_ids")
    op.drop_column("ledger_sessions", "table_name")
    op.drop_table("ledger_prices")
    op.drop_table("ledger_tables")
    op.drop_table("ledger_players")
