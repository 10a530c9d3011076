"""Every price a rule was given, from when (``ledger_price_history``): a session is settled at the
price in force when it started, so a price changed later leaves the settlements and receipts of
sessions already played as they were (service/ledger/money.py). Seeded with the prices set so far.

Revision ID: 0005
Revises: 0004
"""
from alembic import op
import sqlalchemy as sa

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_price_history",
        sa.Column("rule", sa.String(64), primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), primary_key=True),
        sa.Column("rate", sa.Float, nullable=False),
        sa.Column("fee", sa.Float, nullable=False),
        sa.Column("fee_per", sa.String(8), nullable=False),
    )
    op.execute("INSERT INTO ledger_price_history (rule, since, rate, fee, fee_per) "
               "SELECT rule, updated_at, rate, fee, fee_per FROM ledger_prices")


def downgrade() -> None:
    op.drop_table("ledger_price_history")
