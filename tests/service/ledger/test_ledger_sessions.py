"""Whole sessions, one per house rule, played hand by hand.

Every expected number is worked out in the comments from the seeds
(/work/shared/seeds, summarised in RULES.md) and the preset's [table]; the
hands are real records scored by the real engine. Players sit Aki, Ben, Chie
in turn order and Aki deals first, so seats are:
    Aki deals: Aki east, Ben south, Chie west
    Ben deals: Ben east, Chie south, Aki west
    Chie deals: Chie east, Aki south, Ben west
"""

from __future__ import annotations

import pytest

from ledger_play import PLAYERS, hand
from service.ledger import LedgerError, StaleState, settle

A, B, C = PLAYERS


def expect(ledger, sid, balances, dealer, honba, pool=0):
    st = ledger.state(sid)
    assert dict(zip(PLAYERS, st.balances)) == dict(zip(PLAYERS, balances)), "balances"
    assert (PLAYERS[st.dealer], st.honba, st.pool) == (dealer, honba, pool), "dealer, honba, pool"
    assert not st.warnings
    return st


def test_dunhill_draws_into_the_bounty_round_then_chombo_double_ron_and_lateral_ron(ledger):
    # dunhill [table]: new dealer at 0 honba; bounty from 3 honba (dealer +10,
    # non-dealer +5); noten 場に6 (3 from/to each); chombo 20 each; riichi stick
    # 10 points, open riichi 2 sticks; double ron: pool and deal to the head,
    # honba to both, bounties exchanged.
    # The chun hand (dunhill): banban 2 + chun 1 + gari 1 = 4, plus dealer 1,
    # honba, tsumo 1, riichi 1 (open riichi 2), bounty; one gari: no multiplier.
    # The hatsu hand counts the same: banban 2 + hatsu 1 + gari 1 = 4.
    s = ledger.start("dunhill", PLAYERS).id
    expect(ledger, s, (0, 0, 0), A, 0)

    # 1. Draw, nobody tenpai: no noten payment; Aki keeps the deal, +1 honba.
    ledger.add_draw(s, [])
    expect(ledger, s, (0, 0, 0), A, 1)
    # 2. Draw, Aki alone tenpai: Ben and Chie pay 3 each (場に6).
    ledger.add_draw(s, [A])
    expect(ledger, s, (6, -3, -3), A, 2)
    # 3. Draw, Aki and Ben tenpai: Chie pays 3 to each. 3 honba: a bounty round.
    ledger.add_draw(s, [A, B])
    expect(ledger, s, (9, 0, -9), A, 3)
    # 4. Aki (dealer, east) tsumo with riichi at 3 honba:
    #    4 + dealer 1 + honba 3 + tsumo 1 + riichi 1 + dealer bounty 10 = 20 from each.
    #    Aki: -10 (stick) + 40 + 10 (takes the pool) = +40 -> 49; Ben -20; Chie -29.
    #    A dealer win: Aki deals again, 4 honba.
    ledger.add_win(s, [hand("dunhill", "east", "tsumo", honba=3, riichi=True)])
    expect(ledger, s, (49, -20, -29), A, 4)
    # 5. Chombo by Chie while Ben was in riichi: Chie pays 20 to each; the hand is
    #    replayed (same dealer, same 4 honba) and Ben's stick goes back to him.
    ledger.add_chombo(s, C, riichi=[B])
    expect(ledger, s, (69, 0, -69), A, 4)
    # 6. Double ron in the bounty round: Chie (west) in riichi deals in to
    #    Aki (east, dealer) and Ben (south). Head winner = first after west = east: Aki.
    #    Aki: 4 + dealer 1 + honba 4 + bounty 10 = 19 from Chie.
    #    Ben: 4 + honba 4 (honba paid to both) + bounty 5 = 13 from Chie.
    #    The winners exchange bounties: Ben pays Aki 10, Aki pays Ben 5.
    #    Chie's riichi stick (10) joins the pool, which goes to the head, Aki.
    #    Aki +19 +10 -5 +10 = +34 -> 103; Ben +13 +5 -10 = +8 -> 8;
    #    Chie -10 -19 -13 = -42 -> -111. The deal goes to the head, Aki, the
    #    dealer: a dealer win, 5 honba.
    ledger.add_win(s, [hand("dunhill", "east", "ron", "west", honba=4),
                       hand("dunhill", "south", "ron", "west", honba=4, shape="hatsu")],
                   riichi=[C])
    expect(ledger, s, (103, 8, -111), A, 5)
    # 7. Lateral ron in the bounty round: Ben (south), in open riichi (2 sticks:
    #    20 points to the pool), rons Chie (west) at 5 honba:
    #    4 + honba 5 + riichi 1 + open 1 + non-dealer bounty 5 = 16 from Chie,
    #    and Aki, uninvolved, pays Ben the bounty 5.
    #    Ben -20 +16 +5 +20 (pool) = +21 -> 29; Chie -16 -> -127; Aki -5 -> 98.
    #    Ben becomes the dealer and starts at 0 honba.
    ledger.add_win(s, [hand("dunhill", "south", "ron", "west", honba=5, open_riichi=True)])
    expect(ledger, s, (98, 29, -127), B, 0)
    # 8. Ben deals: Aki is west. Aki tsumo at 0 honba: 4 + tsumo 1 = 5 from each.
    #    Aki deals next, 0 honba.
    ledger.add_win(s, [hand("dunhill", "west", "tsumo", honba=0)])
    st = expect(ledger, s, (108, 24, -132), A, 0)
    # Settlement: 1 point is paid as 100 (18 points = 1,800).
    assert [(l.player, l.result, l.in_sticks) for l in settle(ledger.config(s), st)] == \
        [(A, 108, 10_800), (B, 24, 2_400), (C, -132, -13_200)]


def test_balance_new_dealer_starts_at_one_honba_and_bounty_from_four(ledger):
    # balance [table]: a new dealer (and the session) starts at 1 honba; bounty
    # from 4 honba; noten 場に10 (5 from/to each); riichi stick 10 points; double
    # ron: the discarder pays both, pool and deal to the head.
    # The chun hand (balance): banban 2 + chun 1 + gari 2 = 5, plus dealer 1,
    # honba, tsumo 1, riichi 2; the bounty is added last. No fives in the hand.
    # The hatsu hand counts the same (banban 2 + hatsu 1 + gari 2 = 5).
    s = ledger.start("balance", PLAYERS).id
    expect(ledger, s, (0, 0, 0), A, 1)            # "常に1本場からスタート"
    # 1. Ben (south) rons Chie (west) at 1 honba: 5 + honba 1 = 6.
    #    Ben becomes the dealer: a new dealer starts at 1 honba.
    ledger.add_win(s, [hand("balance", "south", "ron", "west", honba=1)])
    expect(ledger, s, (0, 6, -6), B, 1)
    # 2. Draw, Ben alone tenpai: Aki and Chie pay 5 each; 2 honba.
    ledger.add_draw(s, [B])
    expect(ledger, s, (-5, 16, -11), B, 2)
    # 3. Draw, Chie tenpai in riichi (10 to the pool), Aki and Ben noten pay her 5 each.
    ledger.add_draw(s, [C], riichi=[C])
    expect(ledger, s, (-10, 11, -11), B, 3, pool=10)
    # 4. Draw, nobody tenpai: nothing paid; 4 honba, a bounty round.
    ledger.add_draw(s, [])
    expect(ledger, s, (-10, 11, -11), B, 4, pool=10)
    # 5. Ben (east, dealer) tsumo at 4 honba: 5 + dealer 1 + honba 4 + tsumo 1
    #    + dealer bounty 10 = 21 from each; Ben takes the pool (10).
    #    Ben +42 +10 -> 63; Aki -21 -> -31; Chie -21 -> -32. Dealer win: 5 honba.
    ledger.add_win(s, [hand("balance", "east", "tsumo", honba=4)])
    expect(ledger, s, (-31, 63, -32), B, 5)
    # 6. Lateral ron: Ben deals, so Aki is west and Chie south. Aki rons Chie at
    #    5 honba: 5 + honba 5 + non-dealer bounty 5 = 15 from Chie, and Ben
    #    (uninvolved) pays Aki the bounty 5. Aki -31 +20 -> -11; Chie -47; Ben 58.
    #    Aki deals, at 1 honba.
    ledger.add_win(s, [hand("balance", "west", "ron", "south", honba=5)])
    expect(ledger, s, (-11, 58, -47), A, 1)
    # 7. Double ron at 1 honba: Ben (south) deals in to Aki (east, dealer) and
    #    Chie (west). Aki: 5 + dealer 1 + honba 1 = 7; Chie (hatsu): 5 + honba 1 = 6.
    #    Ben pays 13. Head = first after south = west: Chie takes the deal,
    #    a new dealer at 1 honba.
    ledger.add_win(s, [hand("balance", "east", "ron", "south", honba=1),
                       hand("balance", "west", "ron", "south", honba=1, shape="hatsu")])
    expect(ledger, s, (-4, 45, -41), C, 1)


def test_toutenkou_noten_thirty_as_the_sessions_option(ledger):
    # toutenkou [table]: noten 場に10, "場に30点など" as an option (noten_total = 30
    # here: 15 from/to each); riichi stick 10 points; new dealer at 0 honba.
    # The chun hand (toutenkou): banban 2 + menzen 1 + chun 1 + gari 1 = 5, plus
    # honba, tsumo 1, riichi 1 (the article has no dealer point).
    s = ledger.start("toutenkou", PLAYERS, table={"noten_total": 30}).id
    # 1. Draw, Aki alone tenpai: Ben and Chie pay 15 each; Aki keeps the deal, 1 honba.
    ledger.add_draw(s, [A])
    expect(ledger, s, (30, -15, -15), A, 1)
    # 2. Draw, Aki and Ben (in riichi: 10 to the pool) tenpai: Chie pays 15 to each.
    ledger.add_draw(s, [A, B], riichi=[B])
    expect(ledger, s, (45, -10, -45), A, 2, pool=10)
    # 3. Chie (west) tsumo in riichi at 2 honba: 5 + honba 2 + tsumo 1 + riichi 1 = 9
    #    from each; her stick joins the pool and she takes it (20).
    #    Chie -10 +18 +20 = +28 -> -17; Aki 36; Ben -19. Chie deals at 0 honba.
    ledger.add_win(s, [hand("toutenkou", "west", "tsumo", honba=2, riichi=True)])
    expect(ledger, s, (36, -19, -17), C, 0)


def test_toutenkou_noten_default_is_ten(ledger):
    # "ノーテン罰符は場に10点(1人テンパイなら他2人から5点ずつ)"
    s = ledger.start("toutenkou", PLAYERS).id
    ledger.add_draw(s, [B])
    expect(ledger, s, (-5, 10, -5), A, 1)


def test_chinton_noten_forty_chombo_replay_and_double_ron_honba_to_the_head(ledger):
    # chinton [table]: "不聴罰符は場に40点" (20 from/to each); chombo "20点オール,
    # 局のやり直し" (same dealer, same honba); double ron: "親権、積み棒も上家取り"
    # (the deal and the honba go to the head winner only).
    # The chun hand (chinton, pinzu): banban 2 + menzen 1 + honitsu 3 + chun 1 +
    # gari 1 = 8, plus dealer 1, honba. The hatsu hand: the same with hatsu = 8.
    s = ledger.start("chinton", PLAYERS).id
    # 1. Draw, Aki alone tenpai: Ben and Chie pay 20 each; 1 honba.
    ledger.add_draw(s, [A])
    expect(ledger, s, (40, -20, -20), A, 1)
    # 2. Chombo by Ben: 20 to each; the hand is replayed by Aki at 1 honba.
    ledger.add_chombo(s, B)
    expect(ledger, s, (60, -60, 0), A, 1)
    # 3. Double ron: Aki (east) deals in to Ben (south) and Chie (west) at 1 honba.
    #    Head = first after east = south: Ben. Ben: 8 + honba 1 = 9.
    #    Chie: 8, without the honba (積み棒も上家取り). Aki pays 17.
    #    Ben takes the deal: a new dealer at 0 honba.
    ledger.add_win(s, [hand("chinton", "west", "ron", "east", honba=1, shape="hatsu"),
                       hand("chinton", "south", "ron", "east", honba=1)])
    expect(ledger, s, (43, -51, 8), B, 0)


def test_chinton_dealer_keeps_the_deal_after_a_draw_only_when_tenpai(ledger):
    # chinton "聴牌連荘": the dealer continues after a draw only when tenpai. The seed
    # leaves the rest open ("詳細は決まっていない"): the deal passes to the next in
    # turn and the draw's honba is added, as in the other seeds ("本場を追加").
    s = ledger.start("chinton", PLAYERS).id
    # 1. Draw, Aki (dealer) and Ben tenpai: Chie pays 20 to each. Aki keeps the deal.
    ledger.add_draw(s, [A, B])
    expect(ledger, s, (20, 20, -40), A, 1)
    # 2. Draw, Ben alone tenpai: Aki and Chie pay 20 each. Aki, noten, loses the deal
    #    to Ben, the next in turn; 2 honba.
    ledger.add_draw(s, [B])
    expect(ledger, s, (0, 60, -60), B, 2)
    # 3. Draw, nobody tenpai: no payment; Ben, noten, passes the deal to Chie.
    ledger.add_draw(s, [])
    expect(ledger, s, (0, 60, -60), C, 3)
    # 4. Chie deals: Chie east, Aki south, Ben west. Aki (south) rons Ben at 3 honba.
    #    The chun hand: 8 + honba 3 = 11. Aki takes the deal at 0 honba.
    ledger.add_win(s, [hand("chinton", "south", "ron", "west", honba=3)])
    expect(ledger, s, (11, 49, -60), A, 0)


def test_a_draw_keeps_the_dealer_under_the_other_rules_even_when_noten(ledger):
    # dunhill, balance: "流局した場合は親権移動なし"; isshokai: "理由の如何によらず、親続行";
    # toutenkou: "前局の和了者が次局の親".
    for rules in ("dunhill", "balance", "toutenkou", "isshokai"):
        s = ledger.start(rules, PLAYERS).id
        ledger.add_draw(s, [B])
        assert PLAYERS[ledger.state(s).dealer] == A, rules


def test_a_session_may_choose_tenpai_renchan_for_its_draws(ledger):
    s = ledger.start("dunhill", PLAYERS, table={"draw_dealer": "tenpai"}).id
    ledger.add_draw(s, [C])
    expect(ledger, s, (-3, -3, 6), B, 1)


def test_chinton_noten_to_the_pool_as_the_issues_reading(ledger):
    # The issue reads "場に40点" as "to the pool": a session may choose it. One
    # tenpai: each noten player puts 20 in the pool; the next winner takes it.
    s = ledger.start("chinton", PLAYERS, table={"noten_to": "pool"}).id
    ledger.add_draw(s, [A])
    expect(ledger, s, (0, -20, -20), A, 1, pool=40)
    # Ben (south) rons Chie (west) at 1 honba: 8 + honba 1 = 9, and the pool 40.
    ledger.add_win(s, [hand("chinton", "south", "ron", "west", honba=1)])
    expect(ledger, s, (0, 29, -29), B, 0)


def test_isshokai_stick_game_ends_when_a_player_goes_below_zero(ledger):
    # isshokai [table]: 25 sticks each, 30 returned, top +15; 1 han = 1 stick;
    # riichi stick 1; noten: each noten player pays 1 per tenpai player; double
    # ron: the dealer keeps the deal if one of the winners; the game is over when
    # someone would start a hand at 0 or below.
    # The chun hand (isshokai): bazoro 2 + menzen 1 + chun 1 + North 1 = 5, plus
    # dealer 1, honba, tsumo 1, riichi 1. The hatsu hand: 5 likewise.
    s = ledger.start("isshokai", PLAYERS).id
    expect(ledger, s, (25, 25, 25), A, 0)
    # 1. Aki (east, dealer) tsumo in riichi at 0 honba: 5 + dealer 1 + tsumo 1 +
    #    riichi 1 = 8 sticks from each. Aki 25 -1 +16 +1 (pool) = 41; 17; 17. 1 honba.
    ledger.add_win(s, [hand("isshokai", "east", "tsumo", honba=0, riichi=True)])
    expect(ledger, s, (41, 17, 17), A, 1)
    # 2. Draw, Aki and Ben tenpai: Chie pays 1 to each tenpai player. 2 honba.
    ledger.add_draw(s, [A, B])
    expect(ledger, s, (42, 18, 15), A, 2)
    # 3. Double ron: Chie (west) in riichi deals in to Aki (east) and Ben (south).
    #    Aki: 5 + dealer 1 + honba 2 = 8; Ben (hatsu): 5 + honba 2 = 7; Chie pays 15
    #    and her riichi stick joins the pool, which goes to the head (after west:
    #    east, Aki). Chie 15 -1 -15 = -1: below zero. Aki 42 +8 +1 = 51; Ben 25.
    #    The dealer won: Aki keeps the deal, 3 honba.
    ledger.add_win(s, [hand("isshokai", "east", "ron", "west", honba=2),
                       hand("isshokai", "south", "ron", "west", honba=2, shape="hatsu")], riichi=[C])
    st = expect(ledger, s, (51, 25, -1), A, 3)
    assert st.over                       # Chie would start the next hand at -1
    with pytest.raises(StaleState, match="game is over"):
        ledger.add_draw(s, [])
    # Settlement: 30 returned, top +15: Aki 51-30+15 = +36, Ben -5, Chie -31 (sum 0);
    # a stick is 1,000.
    assert [(l.player, l.result, l.in_sticks, l.top) for l in settle(ledger.config(s), st)] == \
        [(A, 36, 36_000, True), (B, -5, -5_000, False), (C, -31, -31_000, False)]


def test_isshokai_penalty_stick_goes_into_the_pool(ledger):
    # "罰符は 1 本支払って、供託とする。誤ポン・誤カン・誤リーチの発声は、罰符とする。"
    s = ledger.start("isshokai", PLAYERS).id
    # 1. Ben calls a false pon, then the hand is drawn with Aki tenpai: Ben's stick stays in the
    #    pool; Ben and Chie pay Aki 1 each for noten. Aki keeps the deal, 1 honba.
    ledger.add_draw(s, [A], penalties=[B])
    expect(ledger, s, (27, 23, 24), A, 1, pool=1)
    # 2. Chie calls a false riichi (a 罰符) and Ben (south) rons Chie (west) at 1 honba: 5 + the
    #    honba 1 = 6, and Ben takes the pool (the stick of hand 1 and Chie's of this hand).
    ledger.add_win(s, [hand("isshokai", "south", "ron", "west", honba=1)], penalties=[C])
    expect(ledger, s, (27, 23 + 6 + 2, 24 - 1 - 6), B, 0)


def test_a_rule_without_penalty_refuses_one(ledger):
    s = ledger.start("dunhill", PLAYERS).id
    with pytest.raises(LedgerError, match="dunhill has no 罰符"):
        ledger.add_draw(s, [A], penalties=[B])
    assert ledger.state(s).hands == 0


def test_isshokai_tie_for_top_goes_to_the_tied_player_who_won_last_not_only_the_last_winner(ledger):
    # "同点の場合: 1. 最後に和了した者": of the tied players, the one who won most recently,
    # even when the hand's very last winner is not among them.
    s = ledger.start("isshokai", PLAYERS).id
    # 1. Ben (south) rons Chie (west): 5 sticks. Ben deals.
    ledger.add_win(s, [hand("isshokai", "south", "ron", "west", honba=0)])
    expect(ledger, s, (25, 30, 20), B, 0)
    # 2. Ben deals: Chie south, Aki west. Chie (south) rons Ben (east): 5. Chie deals.
    ledger.add_win(s, [hand("isshokai", "south", "ron", "east", honba=0)])
    expect(ledger, s, (25, 25, 25), C, 0)
    # 3. Draw, Aki and Ben tenpai: Chie pays 1 to each. Aki and Ben tie at 26.
    #    Chie won last but is not tied; of Aki (never won) and Ben (won hand 1), Ben.
    ledger.add_draw(s, [A, B])
    st = expect(ledger, s, (26, 26, 23), C, 1)
    assert [(l.player, l.top) for l in settle(ledger.config(s), st)] == [(A, False), (B, True), (C, False)]


def test_isshokai_tie_with_no_tied_winner_goes_in_turn_from_the_dealer(ledger):
    s = ledger.start("isshokai", PLAYERS).id
    ledger.add_draw(s, [B, C])           # Aki pays 1 to each: Ben and Chie tie at 26
    st = expect(ledger, s, (23, 26, 26), A, 1)
    assert [l.player for l in settle(ledger.config(s), st) if l.top] == [B]


def test_isshokai_tie_for_top_goes_to_the_last_winner_and_chombo_adds_a_honba(ledger):
    s = ledger.start("isshokai", PLAYERS).id
    # 1. Ben (south) rons Chie (west) at 0 honba: 5 sticks. Ben deals at 0 honba.
    ledger.add_win(s, [hand("isshokai", "south", "ron", "west", honba=0)])
    expect(ledger, s, (25, 30, 20), B, 0)
    # 2. Ben deals: Aki is west, Chie south. Aki rons Chie: 5. Aki and Ben tie at 30;
    #    "同点の場合: 1. 最後に和了した者": Aki, who won last, is top.
    ledger.add_win(s, [hand("isshokai", "west", "ron", "south", honba=0)])
    st = expect(ledger, s, (30, 30, 15), A, 0)
    assert [(l.player, l.result) for l in settle(ledger.config(s), st)] == [(A, 15), (B, 0), (C, -15)]
    # 3. Chombo by Chie while Aki was in riichi: "8 本オール...親継続、リーチ棒供託、
    #    本場加算": Chie pays 8 to each, Aki's stick stays in the pool, 1 honba.
    #    Chie 15 - 16 = -1: the game is over. Ben 38 is top: 38-30+15 = 23, and the
    #    pool's stick left on the table goes to the top (ledger's choice): 24.
    #    Aki 30 -1 +8 = 37 -> 7; Chie -31.
    ledger.add_chombo(s, C, riichi=[A])
    st = expect(ledger, s, (37, 38, -1), A, 1, pool=1)
    assert st.over
    assert [(l.player, l.result) for l in settle(ledger.config(s), st)] == [(A, 7), (B, 24), (C, -31)]


def test_a_session_taken_away_elsewhere_is_unknown_to_a_table_that_had_it(ledger, db_url):
    """The counter's service took it away; the table's service, its config cached, still showed it
    as a live game, and its export could be imported back."""
    from service.ledger import Ledger, UnknownSession

    sid = ledger.start("dunhill", ["Aki", "Ben", "Chie"]).id
    counter = Ledger(db_url)
    assert ledger.state(sid).hands == 0 and ledger.config(sid).id == sid        # the table has it cached
    counter.discard(sid)
    counter.close()
    for read in (ledger.state, ledger.events, ledger.slots):
        with pytest.raises(UnknownSession, match="unknown session"):
            read(sid)


def test_a_name_holding_a_colon_declares_riichi_and_open_riichi_as_any_other(ledger):
    """A list entry is a player's whole name first ("Mr:T"), else the kind after its last colon
    ("Mr:T:open"): the name was cut at its first colon and the hand refused as "'Mr' is not a player".
    dunhill: a draw, Mr:T tenpai in open riichi (2 sticks, 20 to the pool), Aki tenpai in riichi (10):
    Ben, noten, pays each of them 3 (場に6)."""
    players = ["Aki", "Ben", "Mr:T"]
    s = ledger.start("dunhill", players).id
    ledger.add_draw(s, ["Aki", "Mr:T"], riichi=["Mr:T:open", "Aki"])
    st = ledger.state(s)
    assert (st.balances, st.pool) == ((3 - 10, -6, 3 - 20), 30)
    ledger.add_chombo(s, "Ben", riichi=["Mr:T"])
    assert ledger.events(s)[-1].body["riichi"] == {"Mr:T": "riichi"}
