"""The log: append-only, corrections and undo as new events, stale-state checks,
and export / import."""

from __future__ import annotations

import csv
import io
import json
import threading

import pytest
import sqlalchemy as sa

from ledger_play import PLAYERS, hand
from service.ledger import LedgerError, Ledger, StaleState, UnknownSession, db
from service.ledger import export

A, B, C = PLAYERS


def rows(ledger):
    with ledger.engine.connect() as c:
        return c.execute(sa.select(db.events.c.seq, db.events.c.kind)).all()


def test_state_is_derived_not_stored(ledger):
    # Only the session and its events are tables: no balance, dealer or honba column.
    cols = {c.name for t in db.metadata.tables.values() for c in t.columns}
    assert not cols & {"balance", "balances", "dealer", "honba", "pool"}
    s = ledger.start("dunhill", PLAYERS).id
    ledger.add_draw(s, [A])
    fresh = Ledger(ledger.engine.url.render_as_string(hide_password=False))   # no cache
    assert fresh.state(s) == ledger.state(s)
    fresh.close()


def test_correction_supersedes_and_history_stays_readable(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    # 1. Ben (south) rons Chie (west): 4.  2. Draw, Ben alone tenpai (Ben deals): 3 each.
    ledger.add_win(s, [hand("dunhill", "south", "ron", "west", honba=0)], confirmed_by=A, snapshot="snap/1.jpg")
    ledger.add_draw(s, [B])
    assert ledger.state(s).balances == (-3, 10, -7)
    # Hand 1 was a tsumo after all: 4 + tsumo 1 = 5 from each. The deal and honba
    # are unchanged (Ben won), so hand 2 still fits: balances -5-3, 10+6, -5-3.
    ledger.correct(s, 1, "win", records=[hand("dunhill", "south", "tsumo", honba=0)], confirmed_by=B)
    st = ledger.state(s)
    assert (st.balances, PLAYERS[st.dealer], st.honba) == ((-8, 16, -8), B, 1)
    # The log keeps all three events; hand 1 is now filled by the correction.
    assert [k for _, k in rows(ledger)] == ["win", "draw", "correct"]
    slots = ledger.slots(s)
    assert [(x.number, x.kind, x.event.seq, x.corrected_by) for x in slots] == \
        [(1, "win", 3, (3,)), (2, "draw", 2, ())]
    old = ledger.events(s)[0]
    assert (old.confirmed_by, old.snapshot) == (A, "snap/1.jpg")
    assert old.body["wins"][0]["score"]["total"] == 4        # the old score is still readable


def test_correction_that_breaks_later_hands_is_refused(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    ledger.add_win(s, [hand("dunhill", "south", "ron", "west", honba=0)])   # Ben deals next
    ledger.add_draw(s, [B])
    # Making hand 1 a draw would leave Aki dealing at 1 honba: hand 2 was played
    # with Ben dealing at 0. Refused; undo hand 2 first.
    with pytest.raises(StaleState, match="hand 2"):
        ledger.correct(s, 1, "draw", tenpai=[])
    ledger.undo(s)
    ledger.correct(s, 1, "draw", tenpai=[])
    st = ledger.state(s)
    assert (st.hands, st.balances, PLAYERS[st.dealer], st.honba) == (1, (0, 0, 0), A, 1)


def test_undo_removes_the_last_hand_only_and_keeps_it_in_the_log(ledger):
    s = ledger.start("balance", PLAYERS).id
    ledger.add_draw(s, [A])                  # Aki +10, 2 honba
    ledger.add_draw(s, [A, B])               # Chie pays 5 to each, 3 honba
    ledger.undo(s)
    st = ledger.state(s)
    assert (st.hands, st.balances, st.honba) == (1, (10, -5, -5), 2)
    ledger.undo(s)
    assert ledger.state(s).hands == 0
    with pytest.raises(LedgerError, match="nothing to undo"):
        ledger.undo(s)
    assert [k for _, k in rows(ledger)] == ["draw", "draw", "undo", "undo"]


def test_a_second_undo_of_the_same_hand_is_stale_not_a_second_hand_gone(ledger):
    # Two tablets both ask to undo hand 2: the first takes it, the second is told its view is stale.
    s = ledger.start("dunhill", PLAYERS).id
    ledger.add_draw(s, [A])
    ledger.add_draw(s, [B])
    ledger.undo(s, hand=2)
    with pytest.raises(StaleState, match="hand 2 is not the last hand"):
        ledger.undo(s, hand=2)
    assert ledger.state(s).hands == 1
    assert [k for _, k in rows(ledger)] == ["draw", "draw", "undo"]


def test_two_tablets_undoing_at_the_same_instant_take_one_hand(ledger):
    """Each writer has its own connection; both wait at a barrier, then undo hand 3 at once.
    The guard is checked inside the transaction: one undo lands, the other is stale."""
    s = ledger.start("dunhill", PLAYERS).id
    for tenpai in ([A], [B], [C]):
        ledger.add_draw(s, tenpai)
    url = ledger.engine.url.render_as_string(hide_password=False)
    tablets = [Ledger(url), Ledger(url)]        # opened one after the other (opening migrates)
    start = threading.Barrier(2, timeout=30)
    outcome: list[str] = []

    def undo(tablet):
        start.wait()
        try:
            tablet.undo(s, hand=3)
            outcome.append("undone")
        except StaleState:
            outcome.append("stale")
    threads = [threading.Thread(target=undo, args=(t,)) for t in tablets]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    for t in tablets:
        t.close()
    assert sorted(outcome) == ["stale", "undone"]
    ledger._cache.clear()                      # another writer wrote: read the log afresh
    assert ledger.state(s).hands == 2
    assert [k for _, k in rows(ledger)] == ["draw", "draw", "draw", "undo"]


def test_stale_state_is_refused(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    ledger.add_draw(s, [])                                   # now 1 honba
    with pytest.raises(StaleState, match="stale state: the record says 0 honba, the table is at 1"):
        ledger.add_win(s, [hand("dunhill", "south", "ron", "west", honba=0)])
    with pytest.raises(StaleState, match="this is hand 1, the session is at hand 2"):
        ledger.add_draw(s, [], hand=1)
    with pytest.raises(StaleState, match="names Ben as winner"):
        ledger.add_win(s, [hand("dunhill", "south", "ron", "west", honba=1)], winners=[C])
    rec = hand("dunhill", "south", "ron", "west", honba=1)
    del rec["honba"]                                         # filled in from the state
    _, st = ledger.add_win(s, [rec], winners=[B], hand=2)
    assert ledger.events(s)[-1].body["wins"][0]["record"]["honba"] == 1
    assert len(rows(ledger)) == 2


def test_bad_input_is_refused_with_one_line(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    cases = [
        (lambda: ledger.add_win(s, [{"rules": "dunhill"}]), "missing"),
        (lambda: ledger.add_win(s, [hand("balance", "south", "ron", "west", honba=0)]), "session plays dunhill"),
        (lambda: ledger.add_win(s, [dict(hand("dunhill", "south", "ron", "west", honba=0), concealed="123p")]), "hand record"),
        (lambda: ledger.add_win(s, [hand("dunhill", "south", "ron", None, honba=0)]), "discarder"),
        (lambda: ledger.add_draw(s, ["Zed"]), "not a player"),
        (lambda: ledger.add_draw(s, [], riichi=[A]), "chombo"),
        (lambda: ledger.add_chombo("no-such-session", A), "unknown session"),
        (lambda: ledger.start("dunhill", [A, A, B]), "three players"),
        (lambda: ledger.start("nope", PLAYERS), "unknown rules preset"),
        (lambda: ledger.start("toutenkou", PLAYERS, table={"noten_total": 20}), "one of 10, 30"),
        (lambda: ledger.start("dunhill", PLAYERS, table={"bogus": 1}), "unknown table rule"),
    ]
    for call, msg in cases:
        with pytest.raises(LedgerError, match=msg) as e:
            call()
        assert "\n" not in str(e.value)
    assert rows(ledger) == []


def _play(ledger):
    s = ledger.start("dunhill", PLAYERS, label="Friday").id
    ledger.add_draw(s, [A], confirmed_by=B)
    ledger.add_win(s, [hand("dunhill", "east", "tsumo", honba=1, riichi=True)], snapshot="s/2.jpg")
    ledger.add_chombo(s, C)
    ledger.correct(s, 3, "chombo", offender=B)
    ledger.add_win(s, [hand("dunhill", "south", "ron", "west", honba=2)])
    ledger.undo(s)
    return s


def test_json_export_imports_back_the_same(ledger, tmp_path):
    s = _play(ledger)
    data = json.loads(export.dumps(ledger, s))
    other = Ledger(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    assert export.from_json(other, data).id == s
    assert json.loads(export.dumps(other, s)) == data
    assert other.state(s) == ledger.state(s)
    with pytest.raises(LedgerError, match="already exists"):
        export.from_json(other, data)
    other.close()


def test_a_session_played_under_overrides_a_later_check_refuses_imports_as_it_was_played(ledger, tmp_path):
    """An isshokai night with a top bonus of 20 (its sticks did not settle to nothing) was exported
    before that check; its import was refused, though the same session in its own ledger reads."""
    s = ledger.start("isshokai", PLAYERS).id
    data = json.loads(export.dumps(ledger, s))
    data["session"]["table_overrides"] = {"top_bonus": 20}
    other = Ledger(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    assert export.from_json(other, data).table.top_bonus == 20
    other.close()


def test_an_import_keeps_when_the_session_started_and_who_sat(ledger, tmp_path):
    """The export dates its session and names each seat's player by member code: an import puts
    the night on its own business day (its price, its hours) and keeps one player one player,
    across a rename and beside another player of the same name, whatever zone its times are in."""
    from datetime import datetime, timedelta, timezone
    from service.ledger.standings import business_day

    s1 = ledger.start("dunhill", PLAYERS).id
    ledger.add_win(s1, [hand("dunhill", "east", "tsumo", honba=0)])
    ben = ledger.player(B)
    ledger.rename_player(ben.id, name="Benji")
    s2 = ledger.start("dunhill", ["Tanaka", "Benji", C]).id
    ledger.add_player("Tanaka", code="T2")
    s3 = ledger.start("dunhill", ["T2", ledger.player("Tanaka (0004)").code, A]).id    # two Tanakas
    started = datetime(2026, 3, 31, 14, 0, tzinfo=timezone.utc)       # 23:00 in Tokyo
    with ledger.engine.begin() as conn:
        conn.execute(sa.update(db.sessions).values(created_at=started))
        conn.execute(sa.update(db.events).values(created_at=started + timedelta(hours=2)))
    ledger._configs.clear()
    exports = {s: json.loads(export.dumps(ledger, s)) for s in (s1, s2, s3)}
    assert exports[s1]["session"]["seats"][1] == {"name": "Benji", "kana": "", "code": ben.code}

    other = Ledger(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    tokyo = timezone(timedelta(hours=9))
    exports[s3]["session"]["created_at"] = started.astimezone(tokyo).isoformat()    # the same instant
    for s, data in exports.items():
        export.from_json(other, data)
    for s in (s1, s2, s3):
        here, there = ledger.config(s), other.config(s)
        assert there.created_at == started and business_day(there.created_at) == business_day(started)
        assert there.players == here.players                          # the log's names as logged
        assert [other.players_by_id([i])[i].code for i in there.player_ids] == \
            [ledger.players_by_id([i])[i].code for i in here.player_ids]
    assert other.config(s1).player_ids[1] == other.config(s2).player_ids[1]   # Ben is Benji
    assert sorted(p.label for p in other.players()) == sorted(p.label for p in ledger.players())
    assert [e.created_at for e in other.events(s1)] == [started + timedelta(hours=2)]
    other.close()


def _edited(data, change):
    data = json.loads(json.dumps(data))
    change(data)
    return data


@pytest.mark.parametrize("change, words", [
    (lambda d: d["events"].__setitem__(0, "a hand"), '"events" must be a list of objects'),
    (lambda d: d.__setitem__("session", ["not", "an", "object"]), '"session" must be an object'),
    (lambda d: d["session"].__setitem__("players", ["Aki", "Ben"]), "three players and a first dealer"),
    (lambda d: d["session"].__setitem__("first_dealer", 5), "three players and a first dealer"),
    (lambda d: d["session"].__setitem__("table_overrides", "none"), "table_overrides must be an object"),
    (lambda d: d["events"][1]["body"].__setitem__("seats", {"east": "Zed", "south": B, "west": C}),
     "event 2 (win) cannot be replayed (KeyError"),
    (lambda d: d["events"][1]["body"].pop("wins"), "event 2 (win) cannot be replayed"),
])
def test_an_export_edited_by_hand_is_refused_in_one_line_and_nothing_is_stored(ledger, tmp_path, change, words):
    s = _play(ledger)
    data = _edited(json.loads(export.dumps(ledger, s)), change)
    other = Ledger(f"sqlite:///{tmp_path / 'other.sqlite3'}")
    with pytest.raises(LedgerError) as e:
        export.from_json(other, data)
    assert words in str(e.value) and "\n" not in str(e.value)
    assert rows(other) == [] and other.sessions() == []
    other.close()


def test_csv_export_has_a_row_per_hand_that_counts(ledger):
    s = _play(ledger)
    table = list(csv.DictReader(io.StringIO(export.to_csv(ledger, s))))
    assert [r["kind"] for r in table] == ["draw", "win", "chombo"]
    last = table[-1]
    st = ledger.state(s)
    assert [int(last[f"{p} balance"]) for p in PLAYERS] == list(st.balances)
    assert last["corrected"] and last["winners"] == "chombo: Ben"


def test_unknown_session(ledger):
    with pytest.raises(UnknownSession):
        ledger.state("nope")
