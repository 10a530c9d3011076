"""The parlour's tile sets: the set each table was taught (``ledger_tilesets``), for its sister tables.

A table's teach page keeps the enrolled crops of its set here (a zip), so another table with the
same tiles can take them rather than be taught again (service/shared_tiles.py, docs/service.md).

Revision ID: 0004
Revises: 0003
"""
from alembic import op
import sqlalchemy as sa

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_tilesets",
        sa.Column("table_name", sa.String(100), primary_key=True),
        sa.Column("taught_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kinds", sa.Integer, nullable=False),
        sa.Column("crops", sa.Integer, nullable=False),
        sa.Column("archive", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ledger_tilesets")
