"""Many tables in one ledger: a handle made for one table sees that table's sessions only; an
unscoped handle (the counter's) sees each table's newest session and counts at a glance."""

from __future__ import annotations

import pytest

from service.ledger import Ledger, UnknownSession


def test_a_table_handle_sees_its_own_sessions_only(db_url):
    counter = Ledger(db_url)
    one = Ledger(db_url, table_name="卓1", migrate=False)
    two = Ledger(db_url, table_name="卓2", migrate=False)
    a = one.start("dunhill", ["Aki", "Ben", "Chie"])
    b = two.start("isshokai", ["Aki", "Dai", "Eri"])
    assert (a.table_name, b.table_name) == ("卓1", "卓2")
    assert [s.id for s in one.sessions()] == [a.id] and [s.id for s in two.sessions()] == [b.id]
    with pytest.raises(UnknownSession):
        one.state(b.id)                               # another table's: unknown here, to read ...
    with pytest.raises(UnknownSession):
        one.add_draw(b.id, [])                        # ... and to write
    assert two.events(b.id) == []
    assert a.player_ids[0] == b.player_ids[0]         # one Aki across the parlour
    assert [s.id for s in counter.sessions()] == [a.id, b.id]
    for handle in (counter, one, two):
        handle.close()


def test_the_counter_sees_each_tables_newest_session_and_how_many(db_url):
    counter = Ledger(db_url)
    one = Ledger(db_url, table_name="卓1", migrate=False)
    two = Ledger(db_url, table_name="卓2", migrate=False)
    one.start("dunhill", ["Aki", "Ben", "Chie"])
    newest_one = one.start("balance", ["Aki", "Ben", "Chie"])
    newest_two = two.start("isshokai", ["Dai", "Eri", "Fumi"])
    assert {t: c.id for t, c in counter.latest_sessions().items()} == {"卓1": newest_one.id, "卓2": newest_two.id}
    assert {t: c.id for t, c in one.latest_sessions().items()} == {"卓1": newest_one.id}
    assert counter.session_counts() == {"卓1": 2, "卓2": 1}
    assert counter.rules_played() == {"dunhill", "balance", "isshokai"}
    for handle in (counter, one, two):
        handle.close()
