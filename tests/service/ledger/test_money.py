"""Money at the counter (service/ledger/money.py): a session's result in yen, the table fee per game or
per started hour, the prices kept per rule (SQLite, and PostgreSQL when LEDGER_TEST_POSTGRES_URL is set)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from service.ledger import LedgerError, settle
from service.ledger.money import Price, hours, price, price_at, prices, set_price, settle_money, yen
from service.ledger.settle import Line

from ledger_play import hand

T0 = datetime(2025, 5, 1, 19, 0, tzinfo=timezone.utc)


def lines(*results: int) -> list[Line]:
    return [Line(name, r, r, r * 100) for name, r in zip(("Aki", "Ben", "Chie"), results)]


def test_per_game_the_result_times_the_rate_less_one_fee():
    out = settle_money(lines(30, -12, -18), Price("dunhill", rate=50, fee=600, fee_per="game"))
    assert [(m.won, m.fee, m.total) for m in out] == [(30 * 50, 600, 30 * 50 - 600), (-12 * 50, 600, -12 * 50 - 600),
                                                      (-18 * 50, 600, -18 * 50 - 600)]
    assert [m.player for m in out] == ["Aki", "Ben", "Chie"] and [m.seat for m in out] == [0, 1, 2]


def test_negative_results_pay_and_a_fee_can_turn_a_small_win_into_paying():
    out = settle_money(lines(2, -1, -1), Price("dunhill", rate=100, fee=500))
    assert [m.total for m in out] == [200 - 500, -100 - 500, -100 - 500]
    assert all(m.total < 0 for m in out)


def test_a_fractional_rate_rounds_to_whole_yen_half_away_from_zero():
    # 点5 (half a yen a point) on odd results: +0.5 -> 1, -0.5 -> -1, 2.5 -> 3
    out = settle_money(lines(1, -1, 5), Price("dunhill", rate=0.5))
    assert [m.won for m in out] == [1, -1, 3]
    assert yen(Decimal("-2.5")) == -3
    # 0.1 is not exact in binary: 3 x 0.1 must still be 0 yen, not a float's 0.30000000000000004 rounded oddly
    assert [m.won for m in settle_money(lines(3, 15, -18), Price("x", rate=0.1))] == [0, 2, -2]


def test_the_hourly_fee_counts_started_hours_at_least_one():
    assert hours(T0, T0) == 1                                      # no time at all: still one hour
    assert hours(T0, T0 + timedelta(minutes=59)) == 1
    assert hours(T0, T0 + timedelta(minutes=60)) == 1              # exactly an hour: one
    assert hours(T0, T0 + timedelta(minutes=60, seconds=1)) == 2   # a second into the next: two
    assert hours(T0, T0 + timedelta(hours=3, minutes=5)) == 4
    assert hours(T0, None) == 1                                    # no hand yet
    naive = T0.replace(tzinfo=None)                                # SQLite's zoneless UTC
    assert hours(naive, T0 + timedelta(minutes=150)) == 3


def test_per_hour_the_fee_is_charged_for_each_started_hour():
    p = Price("dunhill", rate=10, fee=400, fee_per="hour")
    out = settle_money(lines(20, -5, -15), p, T0, T0 + timedelta(hours=2, minutes=1))
    assert [m.fee for m in out] == [3 * 400] * 3
    assert [m.total for m in out] == [200 - 1200, -50 - 1200, -150 - 1200]
    assert settle_money(lines(20, -5, -15), p, T0, None)[0].fee == 400


def test_isshokai_is_priced_per_stick(ledger):
    cfg = ledger.start("isshokai", ["A", "B", "C"])
    ledger.add_win(cfg.id, [hand("isshokai", "east", "tsumo", honba=0)])
    state = ledger.state(cfg.id)
    settled = settle(cfg, state)
    assert cfg.table.unit == "sticks"
    out = settle_money(settled, Price("isshokai", rate=1000, fee=0))
    assert [m.result for m in out] == [line.result for line in settled]       # sticks, not sticks x 1,000
    assert [m.won for m in out] == [line.result * 1000 for line in settled]
    assert sum(m.total for m in out) == 1000 * sum(line.result for line in settled)


@pytest.mark.parametrize("undone", [False, True])
def test_an_isshokai_game_no_one_played_settles_at_nothing(ledger, undone):
    """Started, or its one hand undone: no return of 30 and no top's +15 for the first seat, so no
    yen changes hands (before: the first seat was paid 15 sticks and the others charged 5 each)."""
    cfg = ledger.start("isshokai", ["A", "B", "C"])
    if undone:
        ledger.add_win(cfg.id, [hand("isshokai", "east", "tsumo", honba=0)])
        ledger.undo(cfg.id)
    settled = settle(cfg, ledger.state(cfg.id))
    assert [(line.result, line.in_sticks, line.top) for line in settled] == [(0, 0, False)] * 3
    out = settle_money(settled, Price("isshokai", rate=1000, fee=500), played=False)
    assert [m.total for m in out] == [0, 0, 0]


def test_a_point_session_settles_from_its_balances(ledger):
    cfg = ledger.start("dunhill", ["A", "B", "C"])
    ledger.add_win(cfg.id, [hand("dunhill", "east", "tsumo", honba=0)])
    state = ledger.state(cfg.id)
    out = settle_money(settle(cfg, state), Price("dunhill", rate=30, fee=100))
    assert [m.total for m in out] == [b * 30 - 100 for b in state.balances]
    assert any(b < 0 for b in state.balances)


@pytest.mark.parametrize("rate, fee, per, said", [
    (-1, 0, "game", "rate must be from 0"), (1, -5, "game", "fee must be from 0"),
    ("abc", 0, "game", "rate must be a number"), (1, 0, "week", "fee_per must be 'game' or 'hour'"),
    (float("nan"), 0, "game", "rate must be from 0"), (1, float("inf"), "game", "fee must be from 0"),
    (True, 0, "game", "rate must be a number"), (1, True, "game", "fee must be a number"),
    ("²", 0, "game", "rate must be a number of yen written as digits"),
    (1, "①,000", "game", "fee must be a number of yen written as digits")])
def test_a_bad_price_is_refused_naming_what_is_wrong(ledger, rate, fee, per, said):
    with pytest.raises(LedgerError, match=said):
        set_price(ledger.engine, "dunhill", rate, fee, per)
    assert price(ledger.engine, "dunhill") == Price("dunhill")                  # nothing written


def test_prices_are_kept_per_rule_with_defaults_where_unset(ledger):
    assert price(ledger.engine, "dunhill") == Price("dunhill", 0.0, 0.0, "game")
    assert not price(ledger.engine, "dunhill").stored
    set_price(ledger.engine, "dunhill", 50, 500, "hour")
    set_price(ledger.engine, "isshokai", "1000", "0")
    got = price(ledger.engine, "dunhill")
    assert (got.rate, got.fee, got.fee_per, got.stored) == (50.0, 500.0, "hour", True)
    set_price(ledger.engine, "dunhill", 30, 0, "game")                        # replaced, not added
    assert {r: (p.rate, p.fee, p.fee_per) for r, p in prices(ledger.engine).items()} == {
        "dunhill": (30.0, 0.0, "game"), "isshokai": (1000.0, 0.0, "game")}
    assert price(ledger.engine, "dunhill").updated_at.tzinfo is not None


def test_a_session_is_settled_at_the_price_in_force_when_it_started(ledger):
    """A price changed for the next nights leaves the settlements of sessions played as they were."""
    set_price(ledger.engine, "dunhill", 30, 400)
    played = ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    set_price(ledger.engine, "dunhill", 100, 1000)                           # from now on
    later = ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    then, now = price_at(ledger.engine, "dunhill", played.created_at), price_at(ledger.engine, "dunhill",
                                                                                  later.created_at)
    assert (then.rate, then.fee) == (30.0, 400.0) and (now.rate, now.fee) == (100.0, 1000.0)
    assert (price(ledger.engine, "dunhill").rate, price_at(ledger.engine, "dunhill", None).rate) == (100.0, 100.0)
    before_any = played.created_at - timedelta(days=1)          # before the rule had a price: its first
    assert price_at(ledger.engine, "dunhill", before_any).rate == 30.0
    assert not price_at(ledger.engine, "isshokai", played.created_at).stored     # none set: the defaults


def test_two_counters_saving_a_price_at_once_show_the_price_the_next_session_settles_at(ledger, monkeypatch):
    """Each save is stamped before its transaction. B (¥1, stamped later) committed first, then A
    (¥100, stamped earlier): the counter showed ¥100 a point while the next session settled at ¥1.
    What the counter shows is the price in force now, as a session started now settles."""
    from service.ledger import db
    t = datetime.now(timezone.utc)
    stamps = iter([t + timedelta(seconds=1), t])
    monkeypatch.setattr(db, "clock", lambda engine: next(stamps))
    set_price(ledger.engine, "toutenkou", 1, 0)                  # B
    set_price(ledger.engine, "toutenkou", 100, 0)                # A, committed last, stamped first
    later = t + timedelta(seconds=2)                              # a session started then, and the counter then
    monkeypatch.setattr(db, "clock", lambda engine: later)
    shown = price(ledger.engine, "toutenkou")
    assert shown.rate == price_at(ledger.engine, "toutenkou", later).rate == 1.0
    assert prices(ledger.engine)["toutenkou"].rate == 1.0
    assert price_at(ledger.engine, "toutenkou", t).rate == 100.0                # A held from its own stamp


def test_yen_rounded_still_add_up_to_what_the_results_add_up_to():
    """At ¥0.5 a point, results 3, 3, -6 each rounded alone pay out 2 + 2 and take in 3: the parlour
    would give a yen it never took. The yen too many comes off an amount rounded up, the first seat's."""
    from decimal import Decimal
    from service.ledger.money import whole_yen

    assert whole_yen([Decimal("1.5"), Decimal("1.5"), Decimal("-3")]) == [1, 2, -3]
    assert whole_yen([Decimal("-1.5"), Decimal("-1.5"), Decimal("3")]) == [-1, -2, 3]
    assert whole_yen([Decimal("2.5"), Decimal("-1.25"), Decimal("-1.25")]) == [2, -1, -1]   # 2.5 moved most
    assert whole_yen([Decimal("700"), Decimal("-300"), Decimal("-400")]) == [700, -300, -400]
    for cents in range(-300, 301, 7):           # any three that add up to 0 still do in whole yen
        amounts = [Decimal(cents) / 100, Decimal(-cents) / 200, Decimal(-cents) / 200]
        assert sum(whole_yen(amounts)) == 0, amounts
