"""The presets' [table] sections say what the seeds say (RULES.md, seeds 000-004)."""

import pytest

from service.ledger import LedgerError, table_rules


def test_new_dealer_honba():
    # dunhill "親が移動したら必ず0本場"; balance "必ず1本場からスタート"
    assert [table_rules(r).new_dealer_honba for r in ("dunhill", "balance", "toutenkou", "chinton", "isshokai")] \
        == [0, 1, 0, 0, 0]


def test_noten():
    # 場に6 / 場に10 / 場に10 (30 an option) / 場に40; isshokai 1 per tenpai player from each noten player
    assert {r: table_rules(r).noten_each() for r in ("dunhill", "balance", "toutenkou", "chinton", "isshokai")} \
        == {"dunhill": 3, "balance": 5, "toutenkou": 5, "chinton": 20, "isshokai": 1}
    assert table_rules("toutenkou", {"noten_total": 30}).noten_each() == 15


def test_chombo_and_sticks():
    d, i = table_rules("dunhill"), table_rules("isshokai")
    assert (d.chombo_each, d.chombo_honba, d.riichi_stick, d.open_riichi_sticks, d.unit_value) == \
        (20, "same", 10, 2, 100)
    assert (i.chombo_each, i.chombo_honba, i.chombo_riichi, i.riichi_stick, i.unit_value) == \
        (8, "add", "pool", 1, 1000)
    assert (i.start_sticks, i.return_sticks, i.top_bonus, i.end_at_or_below) == (25, 30, 15, 0)


def test_double_ron():
    assert table_rules("dunhill").double_ron_bounty_exchange
    assert table_rules("chinton").double_ron_honba == "head"
    assert table_rules("isshokai").double_ron_dealer == "dealer_keeps"


def test_overrides_are_checked():
    with pytest.raises(LedgerError, match="must be int"):
        table_rules("dunhill", {"chombo_each": "20"})
    with pytest.raises(LedgerError, match="one of players, pool"):
        table_rules("chinton", {"noten_to": "kitty"})


def test_an_override_out_of_reason_is_refused():
    """A session that started at honba -1 refused every win after; a riichi stick of 10^23 broke
    the counter's settlement."""
    with pytest.raises(LedgerError, match="new_dealer_honba must not be negative"):
        table_rules("dunhill", {"new_dealer_honba": -1})
    with pytest.raises(LedgerError, match="riichi_stick must be within 1,000,000"):
        table_rules("dunhill", {"riichi_stick": 10**23})
    assert table_rules("isshokai", {"end_at_or_below": -5}).end_at_or_below == -5   # a debt game may go on


def test_an_override_that_makes_money_appear_or_vanish_is_refused():
    """場に7 cannot be split between two players (6 was paid); a stick game starting at 30 each paid
    out 15 sticks more than it took in; a point worth 0 settled every night at nothing."""
    with pytest.raises(LedgerError, match="noten_total must be even"):
        table_rules("dunhill", {"noten_total": 7})
    with pytest.raises(LedgerError, match=r"stick game must settle to nothing.*= 15, not 0"):
        table_rules("isshokai", {"start_sticks": 30})
    with pytest.raises(LedgerError, match="unit_value must be at least 1"):
        table_rules("dunhill", {"unit_value": 0})
    both = table_rules("isshokai", {"start_sticks": 30, "return_sticks": 35})     # changed together: sums to 0
    assert (both.start_sticks, both.return_sticks, both.top_bonus) == (30, 35, 15)
    # a session logged before these checks reads back as it was played
    assert table_rules("dunhill", {"noten_total": 7, "unit_value": 0}, logged=True).noten_total == 7
