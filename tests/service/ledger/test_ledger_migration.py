"""The schema's migrations on a database with sessions in it: 0001 (sessions and their log) to
0002 (stored rules). A session made before 0002 keeps working under its built-in by name; one
started after stores its rule. SQLite, and PostgreSQL when LEDGER_TEST_POSTGRES_URL is set."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

import scoring
from ledger_play import PLAYERS, hand
from service.ledger import Event, Ledger, SessionConfig, Slot, db, export, fold, opening, table_rules
from service.ledger.hands import build_draw, build_win

A, B, C = PLAYERS
OLD_ID = "00000000-0000-4000-8000-000000000001"
HEAD = "0006"              # the newest revision: opening a database brings it there


def _alembic(engine: sa.Engine, action: str, revision: str) -> None:
    cfg = Config()
    cfg.set_main_option("script_location", str(db.MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        getattr(command, action)(cfg, revision)


def _version(engine: sa.Engine) -> str:
    with engine.connect() as c:
        return c.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one()


def _old_database(url: str) -> sa.Engine:
    """A database at 0001 holding a dunhill session as the code before 0002 wrote it: Aki's dealer
    tsumo (6 from each), then a draw with Aki alone tenpai (3 from each)."""
    engine = db.make_engine(url)
    db.upgrade(engine, "0001")
    cfg = SessionConfig(OLD_ID, "dunhill", PLAYERS, 0, table_rules("dunhill"), {})
    win = build_win(cfg, opening(cfg), [hand("dunhill", "east", "tsumo", honba=0)])
    after_win = fold(cfg, [Slot(1, 1, Event(1, "win", win))])
    assert (after_win.balances, after_win.honba) == ((12, -6, -6), 1)
    draw = build_draw(cfg, after_win, [A])
    now = datetime.now(timezone.utc)
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO ledger_sessions (id, created_at, rules, players, first_dealer, "
                          "table_overrides, label) VALUES (:id, :at, 'dunhill', :players, 0, :o, 'before')")
                  .bindparams(sa.bindparam("players", type_=sa.JSON), sa.bindparam("o", type_=sa.JSON)),
                  {"id": OLD_ID, "at": now, "players": list(PLAYERS), "o": {}})
        for seq, kind, body in ((1, "win", win), (2, "draw", draw)):
            c.execute(sa.text("INSERT INTO ledger_events (session_id, seq, kind, body, created_at) "
                              "VALUES (:s, :seq, :kind, :body, :at)")
                      .bindparams(sa.bindparam("body", type_=sa.JSON)),
                      {"s": OLD_ID, "seq": seq, "kind": kind, "body": body, "at": now})
    return engine


def test_a_session_from_before_stored_rules_migrates_and_keeps_counting(db_url):
    engine = _old_database(db_url)
    assert _version(engine) == "0001"
    assert not {"ledger_rules", "ledger_tilesets"} & set(sa.inspect(engine).get_table_names())

    ledger = Ledger(db_url)                                   # opening migrates to head
    assert _version(engine) == HEAD
    names = sa.inspect(engine).get_table_names()
    assert "ledger_rules" in names
    assert "rule_digest" in {c["name"] for c in sa.inspect(engine).get_columns("ledger_sessions")}

    cfg = ledger.config(OLD_ID)
    assert (cfg.rules, cfg.rule_digest, cfg.label) == ("dunhill", None, "before")
    assert cfg.preset.digest == scoring.load_preset("dunhill").digest        # its built-in, by name
    assert ledger.stored_rule(OLD_ID) is None
    st = ledger.state(OLD_ID)
    assert (st.hands, st.balances, st.honba) == (2, (18, -9, -9), 2)
    # A new hand in it, and a correction of an old one, count under the built-in as before.
    ledger.add_win(OLD_ID, [hand("dunhill", "east", "tsumo", honba=2)])      # 6 + 2 honba = 8 each
    assert ledger.state(OLD_ID).balances == (34, -17, -17)
    ledger.correct(OLD_ID, 1, "win", records=[hand("dunhill", "east", "ron", "south", honba=0)])
    assert ledger.events(OLD_ID)[-1].body["event"]["body"]["wins"][0]["score"]["total"] == 5   # ron: no tsumo
    data = export.to_json(ledger, OLD_ID)
    assert "rule" not in data["session"]                      # nothing stored: nothing claimed
    # A session started now stores its rule beside the old one.
    new = ledger.start("dunhill", PLAYERS)
    assert new.rule_digest == scoring.load_preset("dunhill").digest
    assert ledger.stored_rule(new.id)["data"]["table"]["noten_total"] == 6
    assert [c.id for c in ledger.sessions()] == [OLD_ID, new.id]
    ledger.close()

    fresh = Ledger(db_url)                                    # a second open: nothing to do, same state
    assert _version(engine) == HEAD and fresh.state(OLD_ID).balances == (27, -16, -11)
    fresh.close()
    engine.dispose()


def test_the_migration_goes_back_down_and_up(db_url):
    engine = _old_database(db_url)
    Ledger(db_url).close()
    _alembic(engine, "downgrade", "0001")
    assert _version(engine) == "0001"
    assert not {"ledger_rules", "ledger_tilesets"} & set(sa.inspect(engine).get_table_names())
    assert "rule_digest" not in {c["name"] for c in sa.inspect(engine).get_columns("ledger_sessions")}
    ledger = Ledger(db_url)
    assert _version(engine) == HEAD and ledger.state(OLD_ID).balances == (18, -9, -9)
    assert "ledger_tilesets" in sa.inspect(engine).get_table_names()
    ledger.close()
    engine.dispose()


def test_on_postgresql_the_session_names_its_stored_rule_by_a_foreign_key(db_url):
    if not db_url.startswith("postgresql"):
        pytest.skip("SQLite cannot add a constraint to a table in place; the ledger writes both at once")
    Ledger(db_url).close()
    engine = db.make_engine(db_url)
    fks = sa.inspect(engine).get_foreign_keys("ledger_sessions")
    assert [(f["constrained_columns"], f["referred_table"], f["referred_columns"]) for f in fks] == [
        (["rule_digest", "rules"], "ledger_rules", ["digest", "name"])]
    width = {c["name"]: getattr(c["type"], "length", None) for c in sa.inspect(engine).get_columns("ledger_sessions")}["rules"]
    assert width == 64                                        # a house rule's name fits
    with pytest.raises(sa.exc.IntegrityError):
        with engine.begin() as c:
            c.execute(sa.insert(db.sessions).values(
                id="x", created_at=datetime.now(timezone.utc), rules="ours", players=list(PLAYERS),
                first_dealer=0, table_overrides={}, label="", rule_digest="0" * 20))
    engine.dispose()


def test_the_prices_set_before_0005_become_the_first_of_their_history(db_url):
    from service.ledger.money import price_at, set_price
    engine = _old_database(db_url)
    ledger = Ledger(db_url)
    set_price(ledger.engine, "dunhill", 50, 300)
    ledger.close()
    _alembic(engine, "downgrade", "0004")
    assert "ledger_price_history" not in sa.inspect(engine).get_table_names()
    ledger = Ledger(db_url)                                          # up again: seeded from the prices
    assert (price_at(ledger.engine, "dunhill", ledger.config(OLD_ID).created_at).rate) == 50.0
    ledger.close()
    engine.dispose()
