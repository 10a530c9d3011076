"""Ledger test fixtures: a real database per test (SQLite file, or PostgreSQL when
LEDGER_TEST_POSTGRES_URL is set), and the few hands the session tests play.

The hands the session tests play are in ledger_play.py.
"""

from __future__ import annotations

import pytest

from service.ledger import Ledger

# db_url (a SQLite file, or a fresh PostgreSQL schema per test) is in tests/service/conftest.py.


@pytest.fixture
def ledger(db_url):
    led = Ledger(db_url)
    yield led
    led.close()
