"""Sessions keep the rule they were played under: ledger_rules, and the session's rule_digest.

A session started from now on stores its resolved rule (a built-in or a house
rule: its data, options, name, base and digest) in ``ledger_rules``, keyed by
(digest, name), and names it by ``rule_digest`` beside its ``rules``. A session
from before has no digest and keeps counting under its built-in by name.
``ledger_sessions.rules`` widens to 64 characters (a house rule's name).

Revision ID: 0002
Revises: 0001
"""
from alembic import op
import sqlalchemy as sa

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_rules",
        sa.Column("digest", sa.String(20), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("extends", sa.String(64)),
        sa.Column("body", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.add_column("ledger_sessions", sa.Column("rule_digest", sa.String(20), nullable=True))
    if op.get_context().dialect.name != "sqlite":
        # SQLite neither enforces VARCHAR lengths nor can add a constraint to a table in place
        # (a batch copy would drop the sessions the log refers to): the ledger writes the rule
        # row and the session in one transaction there.
        op.alter_column("ledger_sessions", "rules", type_=sa.String(64), existing_type=sa.String(32),
                        existing_nullable=False)
        op.create_foreign_key("fk_ledger_sessions_rule", "ledger_sessions", "ledger_rules",
                              ["rule_digest", "rules"], ["digest", "name"])


def downgrade() -> None:
    if op.get_context().dialect.name != "sqlite":
        op.drop_constraint("fk_ledger_sessions_rule", "ledger_sessions", type_="foreignkey")
        op.alter_column("ledger_sessions", "rules", type_=sa.String(32), existing_type=sa.String(64),
                        existing_nullable=False)
    op.drop_column("ledger_sessions", "rule_digest")
    op.drop_table("ledger_rules")
