"""A parlour's tables powered on together, each its own process opening the one PostgreSQL database:
the first migrates it, the others wait for it and find it done, and every table starts. (Without the
wait, all but one stopped on a duplicate table.) Real processes, real PostgreSQL."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
import sqlalchemy as sa

from service.ledger import Ledger, db

# a table service's start, as far as the ledger goes: open (and migrate) the database at a given moment
OPEN_AT = ("import sys, time\n"
           "from service.ledger import Ledger\n"
           "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
           "Ledger(sys.argv[1]).close()\n")


def _table(url: str, at: float) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", OPEN_AT, url, str(at)], stderr=subprocess.PIPE, text=True)


@pytest.fixture
def pg_url(db_url) -> str:
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite takes its write lock at BEGIN (IMMEDIATE): tables there wait already")
    return db_url


def test_a_table_opening_the_database_waits_while_another_migrates_it(pg_url):
    engine = db.make_engine(pg_url)
    with engine.begin() as conn:           # another table, in the middle of migrating
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(db.MIGRATION_LOCK)))
        table = _table(pg_url, 0.0)
        time.sleep(3.0)                    # long enough to import the service and open the database
        assert table.poll() is None, f"it did not wait: {table.communicate()[1][-400:]}"
    _, err = table.communicate(timeout=60)
    assert table.returncode == 0, err[-400:]
    engine.dispose()


def test_four_tables_started_at_once_all_start_and_the_schema_is_made_once(pg_url):
    at = time.time() + 8.0                 # all four past their imports, then opening together
    tables = [_table(pg_url, at) for _ in range(4)]
    errors = [err[-300:] for t in tables for _, err in [t.communicate(timeout=90)] if t.returncode]
    assert errors == []
    ledger = Ledger(pg_url, migrate=False)
    with ledger.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM alembic_version")).scalar_one() == 1
    ledger.close()
