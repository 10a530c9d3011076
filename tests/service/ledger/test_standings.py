"""Standings from the log: short real sessions played through the ledger (SQLite and PostgreSQL),
each figure checked against what was played.

Players sit Aki, Ben, Chie in turn order and Aki deals first (ledger_play.py):
    Aki deals: Aki east, Ben south, Chie west
    Ben deals: Ben east, Chie south, Aki west
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest
from sqlalchemy import insert

from ledger_play import PLAYERS, hand
from service.ledger import LedgerError, db, export, settle
from service.ledger.standings import STICK_VALUE, Period, business_day, parse_period, standings
from service.standings_cache import StandingsCache

A, B, C = PLAYERS
JST = timezone(timedelta(hours=9))
ALL = Period("all")


def rows_by_name(ledger, cache, period=ALL, rule=None):
    """The standings' rows keyed by each player's name in the register now."""
    names = {p.id: p.name for p in ledger.players()}
    table = standings(cache.summaries(), period, rule)
    return table, {names[r.player_id]: r for r in table.rows}


def ids(ledger):
    return {p.name: p.id for p in ledger.players()}


def test_each_figure_follows_the_hands_that_count(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    # 1. Aki (east, dealing) tsumo: a win, by tsumo. Aki deals again, 1 honba.
    ledger.add_win(s, [hand("dunhill", "east", "tsumo", honba=0)])
    # 2. Aki rons Ben (south): Ben deals in (corrected below to Chie). 2 honba.
    ledger.add_win(s, [hand("dunhill", "east", "ron", "south", honba=1)])
    # 3. A draw, Aki tenpai: a hand played by all three, no win. 3 honba.
    ledger.add_draw(s, [A])
    # 4. Chombo by Chie: void, replayed at 3 honba; not a hand played.
    ledger.add_chombo(s, C)
    # 5. Double ron off Aki (east): Ben (south) and Chie (west) both win; Aki deals in once.
    ledger.add_win(s, [hand("dunhill", "south", "ron", "east", honba=3),
                       hand("dunhill", "west", "ron", "east", honba=3, shape="hatsu")])
    # 6. Ben deals now (the head winner): Chie (south) rons Ben (east) ... then it is undone.
    ledger.add_win(s, [hand("dunhill", "south", "ron", "east", honba=0)])
    # Hand 2 corrected: Aki ronned Chie (west), not Ben; same winner, dealer and honba.
    ledger.correct(s, 2, "win", records=[hand("dunhill", "east", "ron", "west", honba=1)])
    ledger.undo(s)

    cache = StandingsCache(ledger)
    table, rows = rows_by_name(ledger, cache)
    a, b, c = rows[A], rows[B], rows[C]
    assert table.sessions == 1 and table.unit == STICK_VALUE
    assert [r.sessions for r in (a, b, c)] == [1, 1, 1]
    assert [r.hands for r in (a, b, c)] == [4, 4, 4]            # hands 1, 2, 3 and 5
    assert [r.wins for r in (a, b, c)] == [2, 1, 1]
    assert [r.tsumo for r in (a, b, c)] == [1, 0, 0]
    assert [r.deal_ins for r in (a, b, c)] == [1, 0, 1]         # Aki: one for the double ron; Chie: hand 2 as corrected
    assert [r.chombos for r in (a, b, c)] == [0, 0, 1]
    assert (a.win_rate, a.deal_in_rate, a.tsumo_share) == (2 / 4, 1 / 4, 1 / 2)
    assert (b.tsumo_share, c.deal_in_rate) == (0.0, 1 / 4)
    # results: the session settled from the ledger's own state, summed in stick value (x100 a point)
    lines = {line.player: line for line in settle(ledger.config(s), ledger.state(s))}
    assert [r.total for r in (a, b, c)] == [lines[p].in_sticks for p in PLAYERS]
    assert [r.average for r in (a, b, c)] == [lines[p].in_sticks for p in PLAYERS]
    assert a.series == [a.total]
    # the best hand: Aki's highest total among his two wins as they stand, with its hand number
    slots = ledger.slots(s)
    aki = [(w["score"]["total"], slot.number) for slot in slots if slot.kind == "win"
           for w in slot.body["wins"] if w["winner"] == A]
    assert [n for _, n in aki] == [1, 2]
    top_total, top_hand = max(aki, key=lambda t: (t[0], -t[1]))
    assert (a.best.total, a.best.hand, a.best.rule) == (top_total, top_hand, "dunhill")
    assert a.best.value == top_total * 100 and "役牌 中" in a.best.text
    assert c.best.text.endswith("(ロン)") and "役牌 發" in c.best.text


def test_only_sessions_with_changes_are_read_again(ledger):
    s1 = ledger.start("dunhill", PLAYERS).id
    s2 = ledger.start("dunhill", PLAYERS).id
    ledger.add_draw(s1, [])
    ledger.add_draw(s2, [])
    cache = StandingsCache(ledger)
    cache.summaries()
    assert cache.summarised == 2                    # cold: both, from one query
    cache.summaries()
    assert cache.summarised == 2                    # nothing new: nothing read
    ledger.add_win(s2, [hand("dunhill", "east", "tsumo", honba=1)])
    _, rows = rows_by_name(ledger, cache)
    assert cache.summarised == 3 and rows[A].wins == 1 and rows[A].hands == 3
    ledger.undo(s2)                                 # an undo is a new row too
    _, rows = rows_by_name(ledger, cache)
    assert cache.summarised == 4 and rows[A].wins == 0 and rows[A].hands == 2
    assert cache.rescans == 0


def test_a_row_committed_late_below_a_seen_id_is_found(ledger):
    """PostgreSQL hands out ids before commit: a row may appear under an id below one already seen."""
    if ledger.engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one writer at a time: rows commit in id order")
    s1 = ledger.start("dunhill", PLAYERS).id
    s2 = ledger.start("dunhill", PLAYERS).id
    ledger.add_draw(s1, [])
    cache = StandingsCache(ledger)
    cache.summaries()
    st = ledger.state(s2)
    late = ledger.engine.connect()
    tx = late.begin()
    # a draw for s2 inserted (its id taken) but not committed yet ...
    late.execute(insert(db.events).values(session_id=s2, seq=1, kind="draw", created_at=datetime.now(timezone.utc),
                                          body={"seats": st.seats(ledger.config(s2).players), "honba": 0,
                                                "riichi": {}, "tenpai": [A]}))
    ledger.add_draw(s1, [])                         # ... while a later id commits first
    _, rows = rows_by_name(ledger, cache)
    assert rows[A].hands == 2 and rows[A].sessions == 1
    tx.commit()
    late.close()
    _, rows = rows_by_name(ledger, cache)
    assert cache.rescans == 1
    assert rows[A].hands == 3 and rows[A].sessions == 2 and rows[B].total == -3 * 100   # s2's draw: 3 to Aki


def test_business_day_starts_at_six_in_the_parlours_zone():
    def at(*args):
        return datetime(*args, tzinfo=JST).astimezone(timezone.utc)
    assert business_day(at(2024, 5, 1, 5, 59)) == date(2024, 4, 30)
    assert business_day(at(2024, 5, 1, 6, 0)) == date(2024, 5, 1)
    assert business_day(at(2024, 5, 2, 3, 0)) == date(2024, 5, 1)         # a night past midnight
    assert business_day(at(2024, 5, 2, 3, 0), "UTC", 0) == date(2024, 5, 1)   # 18:00 UTC on the 1st
    assert business_day(at(2024, 5, 1, 5, 59), day_starts_hour=0) == date(2024, 5, 1)


def _copy_at(ledger, sid: str, new_id: str, started: datetime) -> None:
    """The session exported and imported again as another night, started at ``started``."""
    data = export.to_json(ledger, sid)
    session = dict(data["session"], id=new_id)
    ledger.import_session(session, ledger.events(sid), started.astimezone(timezone.utc))


def test_periods_count_sessions_by_the_business_day_they_started(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    ledger.add_win(s, [hand("dunhill", "east", "tsumo", honba=0)])
    nights = {"n1": datetime(2024, 5, 1, 5, 59, tzinfo=JST),     # still April 30th's night
              "n2": datetime(2024, 5, 1, 6, 0, tzinfo=JST),
              "n3": datetime(2024, 5, 1, 23, 30, tzinfo=JST),
              "n4": datetime(2024, 5, 2, 3, 0, tzinfo=JST),      # past midnight: May 1st's night
              "n5": datetime(2024, 6, 1, 7, 0, tzinfo=JST)}
    for new_id, started in nights.items():
        _copy_at(ledger, s, new_id, started)
    cache = StandingsCache(ledger)
    one = max(line.in_sticks for line in settle(ledger.config(s), ledger.state(s)))   # Aki's night, each copy
    today = date(2024, 5, 1)

    def sessions(kind, day=None, month=None):
        table = standings(cache.summaries(), parse_period(kind, day, month, today=today))
        assert table.sessions == 0 or table.rows[0].total == one * table.sessions
        return table.sessions
    assert sessions("day", "2024-05-01") == 3
    assert sessions("day") == 3                                   # no date: today's
    assert sessions("day", "2024-04-30") == 1
    assert sessions("day", "2024-05-02") == 0
    assert sessions("month", month="2024-04") == 1
    assert sessions("month", month="2024-05") == 3
    assert sessions("month") == 3
    assert sessions("month", month="2024-06") == 1
    assert sessions("all") == 6                                   # with the one played now


def test_bad_periods_are_refused_naming_what_is_wrong():
    today = date(2024, 5, 1)
    for args, words in [(("week",), "period: 'week'"), (("day", "2024-5-1"), "date: '2024-5-1'"),
                        (("day", "2024-02-30"), "date: '2024-02-30'"), (("month", None, "2024-13"), "month: '2024-13'"),
                        (("month", None, "May"), "month: 'May'"),
                        # the calendar's ends: no day after 9999-12-31, no month after 9999-12, no year 0
                        (("day", "9999-12-31"), "date: '9999-12-31'"), (("month", None, "9999-12"), "month: '9999-12'"),
                        (("month", None, "0000-05"), "month: '0000-05'")]:
        with pytest.raises(LedgerError, match=words):
            parse_period(*args, today=today)
    assert parse_period("month", None, "2024-02", today=today) == Period("month", date(2024, 2, 1))


def test_per_rule_and_an_isshokai_stick_result(ledger):
    d = ledger.start("dunhill", PLAYERS).id
    ledger.add_win(d, [hand("dunhill", "east", "tsumo", honba=0)])
    i = ledger.start("isshokai", PLAYERS).id
    # the stick game of test_ledger_sessions: Aki tsumo in riichi, a draw, a double ron off Chie that
    # ends it: Aki +36 (top), Ben -5, Chie -31 sticks.
    ledger.add_win(i, [hand("isshokai", "east", "tsumo", honba=0, riichi=True)])
    ledger.add_draw(i, [A, B])
    ledger.add_win(i, [hand("isshokai", "east", "ron", "west", honba=2),
                       hand("isshokai", "south", "ron", "west", honba=2, shape="hatsu")], riichi=[C])
    cache = StandingsCache(ledger)
    dunhill = {p.player: p.result for p in settle(ledger.config(d), ledger.state(d))}

    table, rows = rows_by_name(ledger, cache, rule="isshokai")
    assert table.unit == "sticks" and table.sessions == 1
    assert [(rows[p].total, rows[p].sticks, rows[p].tops, rows[p].stick_sessions) for p in PLAYERS] == \
        [(36, 36, 1, 1), (-5, -5, 0, 1), (-31, -31, 0, 1)]
    assert [(rows[p].hands, rows[p].wins, rows[p].deal_ins) for p in PLAYERS] == [(3, 2, 0), (3, 1, 0), (3, 0, 1)]

    table, rows = rows_by_name(ledger, cache, rule="dunhill")
    assert table.unit == "points" and table.sessions == 1
    assert [(rows[p].total, rows[p].stick_sessions, rows[p].tops) for p in PLAYERS] == \
        [(dunhill[p], 0, 0) for p in PLAYERS]

    table, rows = rows_by_name(ledger, cache)                   # every rule: in stick value
    assert table.unit == STICK_VALUE and table.sessions == 2
    assert [rows[p].total for p in PLAYERS] == [dunhill[p] * 100 + s * 1000 for p, s in zip(PLAYERS, (36, -5, -31))]
    assert [rows[p].series for p in PLAYERS] == [[dunhill[p] * 100, rows[p].total] for p in PLAYERS]
    assert rows[A].sticks == 36 and rows[A].tops == 1 and rows[A].hands == 4
    # the best hand compared in stick value: an isshokai stick (1,000) outweighs a dunhill point (100)
    assert rows[A].best.rule == "isshokai"
    assert rows[A].best.value == rows[A].best.total * 1000


def test_renaming_a_player_keeps_their_standings(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    ledger.add_win(s, [hand("dunhill", "east", "ron", "south", honba=0)])
    cache = StandingsCache(ledger)
    before = {r.player_id: r for r in standings(cache.summaries(), ALL).rows}
    aki = ids(ledger)[A]
    ledger.rename_player(aki, name="Akiko")
    after = {r.player_id: r for r in standings(cache.summaries(), ALL).rows}
    assert after == before and after[aki].wins == 1
    assert cache.players()[aki].name == "Akiko"
    # a new session under the new name adds to the same player
    s2 = ledger.start("dunhill", ["Akiko", B, C]).id
    ledger.add_draw(s2, [])
    _, rows = rows_by_name(ledger, cache)
    assert rows["Akiko"].sessions == 2 and rows["Akiko"].player_id == aki and A not in rows
