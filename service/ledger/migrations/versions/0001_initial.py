"""The session table and the append-only event log.

Revision ID: 0001
Revises:
"""
from alembic import op
import sqlalchemy as sa

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_sessions",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rules", sa.String(32), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("table_overrides", sa.JSON, nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
    )
    op.create_table(
        "ledger_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.String(36), sa.ForeignKey("ledger_sessions.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("confirmed_by", sa.String(100)),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("snapshot", sa.String(500)),
        sa.UniqueConstraint("session_id", "seq", name="uq_ledger_events_session_seq"),
    )


def downgrade() -> None:
    op.drop_table("ledger_events")
    op.drop_table("ledger_sessions")
