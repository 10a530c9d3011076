"""A player entered twice (a regular typed by an old name became a new player) is merged into
the one kept: ``ledger_players.merged_into`` names the kept player's id. Nothing else changes:
sessions keep the ids they were started with, and what reads the register follows the merge.
And ``ix_ledger_events_snapshot``: which hand a snapshot was logged as (a picture is one hand: a
reading offered before a session started, or confirmed twice, is not logged again).

Revision ID: 0006
Revises: 0005
"""
from alembic import op
import sqlalchemy as sa

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("ledger_players", sa.Column("merged_into", sa.Integer, nullable=True))
    op.add_column("ledger_players", sa.Column("merged_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_ledger_events_snapshot", "ledger_events", ["snapshot"])


def downgrade() -> None:
    op.drop_index("ix_ledger_events_snapshot", table_name="ledger_events")
    with op.batch_alter_table("ledger_players") as batch:
        batch.drop_column("merged_at")
        batch.drop_column("merged_into")
