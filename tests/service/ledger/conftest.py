"""Ledger test fixtures: a real database per test (SQLite file, or PostgreSQL when
LEDGER_TEST_POSTGRES_URL is set), and the few hands the session tests play.

The hands the session tests play are in ledger_play.py.
"""

from __future__ import annotations

import os
import uuid

import pytest

from service.ledger import Ledger

PG_URL = os.environ.get("LEDGER_TEST_POSTGRES_URL")



def _backends():
    yield "sqlite"
    yield pytest.param("postgres", marks=pytest.mark.skipif(
        not PG_URL, reason="LEDGER_TEST_POSTGRES_URL not set (run .ci/postgres.sh)"))


@pytest.fixture(params=list(_backends()))
def db_url(request, tmp_path) -> str:
    """An empty database's URL (nothing migrated yet): a SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ledger.sqlite3'}"
    return _fresh_pg_schema(request)


@pytest.fixture
def ledger(db_url):
    led = Ledger(db_url)
    yield led
    led.close()


def _fresh_pg_schema(request) -> str:
    """A schema of its own for this test, dropped afterwards (search_path in the URL)."""
    import sqlalchemy as sa
    schema = "t_" + uuid.uuid4().hex[:12]
    admin = sa.create_engine(PG_URL.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as c:
        c.exec_driver_sql(f"CREATE SCHEMA {schema}")

    def drop():
        with admin.begin() as c:
            c.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()
    request.addfinalizer(drop)
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}options=-csearch_path%3D{schema}"
