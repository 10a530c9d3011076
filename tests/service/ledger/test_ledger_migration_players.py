"""Migration 0003 on a database made with the schema before it (0002: sessions name their players
only by name): each distinct name becomes a player, each session names its players by id, nothing
in the log changes, and the sessions count as they did. SQLite, and PostgreSQL when
LEDGER_TEST_POSTGRES_URL is set."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa

from ledger_play import PLAYERS, hand
from test_ledger_migration import HEAD
from service.ledger import Event, Ledger, SessionConfig, Slot, db, fold, opening, table_rules
from service.ledger.hands import build_draw, build_win
from service.ledger.stored_rules import resolve, save, to_body

A, B, C = PLAYERS
FIRST, SECOND = "00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"


def _database_at_0002(url: str) -> sa.Engine:
    """Two sessions as the code at 0002 wrote them: Aki, Ben and Chie, then Chie, Dai and Aki."""
    engine = db.make_engine(url)
    db.upgrade(engine, "0002")
    body = to_body(resolve("dunhill"))
    t0 = datetime(2026, 11, 1, 20, 0, tzinfo=timezone.utc)
    with engine.begin() as c:
        save(c, body)
        for sid, players, at in ((FIRST, [A, B, C], t0), (SECOND, [C, "Dai", A], t0 + timedelta(days=1))):
            cfg = SessionConfig(sid, "dunhill", tuple(players), 0, table_rules("dunhill"), {})
            win = build_win(cfg, opening(cfg), [hand("dunhill", "east", "tsumo", honba=0)])
            draw = build_draw(cfg, fold(cfg, [Slot(1, 1, Event(1, "win", win))]), [players[0]])
            c.execute(sa.text("INSERT INTO ledger_sessions (id, created_at, rules, players, first_dealer, "
                              "table_overrides, label, rule_digest) VALUES (:id, :at, 'dunhill', :players, 0, "
                              ":o, 'old', :digest)")
                      .bindparams(sa.bindparam("players", type_=sa.JSON), sa.bindparam("o", type_=sa.JSON)),
                      {"id": sid, "at": at, "players": players, "o": {}, "digest": body["digest"]})
            for seq, kind, ev in ((1, "win", win), (2, "draw", draw)):
                c.execute(sa.text("INSERT INTO ledger_events (session_id, seq, kind, body, created_at) "
                                  "VALUES (:s, :seq, :kind, :body, :at)")
                          .bindparams(sa.bindparam("body", type_=sa.JSON)),
                          {"s": sid, "seq": seq, "kind": kind, "body": ev, "at": at})
    return engine


def _log(engine: sa.Engine) -> list[tuple]:
    with engine.connect() as c:
        return [tuple(r) for r in c.execute(sa.text(
            "SELECT session_id, seq, kind, body FROM ledger_events ORDER BY session_id, seq"))]


def test_every_name_becomes_a_player_and_sessions_name_them_by_id(db_url):
    engine = _database_at_0002(db_url)
    log_before = _log(engine)
    ledger = Ledger(db_url)                        # opening migrates to head
    with engine.connect() as c:
        assert c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == HEAD

    register = {p.name: p for p in ledger.players()}
    assert sorted(register) == sorted([A, B, C, "Dai"])          # four distinct names, four players
    assert [register[n].code for n in (A, B, C, "Dai")] == ["0001", "0002", "0003", "0004"]   # by first seat
    first, second = ledger.config(FIRST), ledger.config(SECOND)
    assert first.player_ids == tuple(register[n].id for n in (A, B, C))
    assert second.player_ids == tuple(register[n].id for n in (C, "Dai", A))
    assert first.table_name == second.table_name == ""            # no table named before 0003
    assert _log(engine) == log_before                             # the log is as it was
    # They count as they did: Aki's dealer tsumo (6 each), then Aki alone tenpai (3 each).
    assert ledger.state(FIRST).balances == (18, -9, -9)
    assert ledger.state(SECOND).balances == (18, -9, -9)

    # A new session finds the migrated players by name: no second Aki.
    new = ledger.start("dunhill", [A, "Dai", "Eri"])
    assert new.player_ids[:2] == (register[A].id, register["Dai"].id)
    assert len(ledger.players()) == 5                             # Eri is new
    # Renaming a player changes the register, not the history.
    ledger.rename_player(register[A].id, name="Akiko")
    fresh = Ledger(db_url)
    assert fresh.config(FIRST).players == (A, B, C) and fresh.state(FIRST).balances == (18, -9, -9)
    assert fresh.player(register[A].id).name == "Akiko"
    assert _log(engine)[:len(log_before)] == log_before
    fresh.close()
    ledger.close()
    engine.dispose()


def test_a_one_table_service_adopts_the_sessions_from_before(db_url):
    engine = _database_at_0002(db_url)
    Ledger(db_url).close()
    table = Ledger(db_url, table_name="table 1", migrate=False)
    assert table.sessions() == []                                  # nobody's yet
    assert table.adopt_unassigned("table 1") == 2
    assert [c.id for c in table.sessions()] == [FIRST, SECOND]
    other = Ledger(db_url, table_name="table 2", migrate=False)
    assert other.sessions() == []                                  # adopted by one table only
    table.close()
    other.close()
    engine.dispose()


def test_the_migration_goes_down_and_up_again(db_url):
    from test_ledger_migration import _alembic
    engine = _database_at_0002(db_url)
    Ledger(db_url).close()
    _alembic(engine, "downgrade", "0002")
    assert "ledger_players" not in sa.inspect(engine).get_table_names()
    ledger = Ledger(db_url)
    assert len(ledger.players()) == 4 and ledger.state(SECOND).balances == (18, -9, -9)
    ledger.close()
    engine.dispose()
