"""清一色東天紅 (Waseda "Chinton", seed 004), its 点数計算表 and special rules.

One suit per hand (8 of each number), 1m 9m and honours x4; manzu and North
are gari; haku is a wildcard for honours. Unless a test says otherwise the
south seat wins by ron from west holding one gari, 1m (1 point), so karasu
is out of the count. The plain hand is 123p 234p 456p 789p 99p won on 3p:
門前 1 + バンバン 2 + 清一色 6 + 一通 2 + 5p 1.
"""

import pytest

from rulebook import PON_CHUN, ScoringError, lines, pon, record, score, win, yaku_lines

R = "chinton"
G = {"gari": "1m"}
PLAIN = dict(concealed="123456789p234p99p", win_tile="3p")



def test_plain_hand_count():
    r = win(R, **PLAIN, **G)
    # 門前 1 + バンバン 2 + 清一色 6 + 一通 2 + 5p 1 + ガリ 1 = 13
    assert r.total == 13


# --- ⑤ 点数計算表 ----------------------------------------------------------------------

def test_menzen_1_banban_2_dealer_1_honba_1_each():
    r = win(R, **PLAIN, seat="east", honba=2, **G)
    got = lines(r)
    assert (got["menzen"], got["banban"], got["dealer"], got["honba"]) == (1, 2, 1, 2)


def test_each_5p_is_1_and_red_adds_2():
    """5p、5s 1枚につき1点; 赤 2点(赤5pなら 1点+2点)."""
    got = lines(win(R, "123406789p234p99p", "3p", **G))
    assert got["fives"] == 1 and got["red"] == 2


def test_four_red_fives_of_the_suit_in_play():
    """Both sets' reds of the suit: four 0p may be seen (choice)."""
    got = lines(win(R, "123406789p340p00p", "3p", **G))
    assert got["red"] == 4 * 2


def test_ippatsu_is_1_plus_5():
    """一発 1点+嬉しいな5点."""
    got = lines(win(R, **PLAIN, riichi=True, ippatsu=True, **G))
    assert got["ippatsu"] + got["ippatsu_bonus"] == 6


def test_riichi_1_open_riichi_2():
    """オープン立直 2点(通常立直は1点)."""
    assert yaku_lines(win(R, **PLAIN, riichi=True, **G))["riichi"] == 1
    got = yaku_lines(win(R, **PLAIN, riichi=True, open_riichi=True, **G))
    assert got["riichi"] + got["open_riichi"] == 2


def test_deal_in_to_an_open_riichi_is_a_yakuman():
    r = win(R, **PLAIN, riichi=True, open_riichi=True, options={"open_riichi_deal_in": True}, **G)
    assert r.yakuman == 1


def test_karasu_closed_30_open_20():
    """カラス 門前30、鳴き20(1枚もガリを抜いていないときに成立)."""
    closed = win(R, **PLAIN)
    assert lines(closed)["karasu"] == 30
    assert closed.total == 1 + 2 + 6 + 2 + 1 + 30
    opened = win(R, "123456p234p99p", "3p", melds=[PON_CHUN])
    assert lines(opened)["karasu"] == 20
    # バンバン 2 + 混一色 2 + 中 1 + 5p 1 + 20 = 26
    assert opened.total == 26


def test_karasu_fixed_option():
    assert win(R, **PLAIN, options={"karasu": "fixed"}).total == 30


def test_gari_1_each_and_a_set_4():
    """セット 4点 (同じガリを4枚抜くと成立)."""
    got = lines(win(R, **PLAIN, gari="1111m4z"))
    assert got["gari"] == 5 and got["gari_set"] == 4


def test_ankan_2_and_2_more_per_added_concealed_kan():
    """暗カン 2点、暗加カン1回につき2点追加."""
    for tiles, extra in (("1111p", 0), ("11111p", 2), ("111111p", 4), ("11111111p", 8)):
        got = lines(win(R, "345p666777p99p", "3p", melds=[{"kind": "ankan", "tiles": tiles}], **G))
        assert got["ankan"] == 2 and got.get("ankan_extra", 0) == extra, tiles


def test_minkan_1_and_1_more_per_added_open_kan():
    """明カン 1点、明加カン1回につき1点追加."""
    got = lines(win(R, "345p666777p99p", "3p", melds=[{"kind": "kakan", "tiles": "11111p", "from": "west"}],
                    **G))
    assert got["minkan"] == 1 and got["minkan_extra"] == 1


def test_rinshan_only_on_a_kans_replacement_draw():
    """嶺上開花は槓によるツモ時のみ数える(1点)."""
    r = win(R, "123456789p99p", "3p", win="tsumo", rinshan=True,
            melds=[{"kind": "ankan", "tiles": "2222p"}], **G)
    assert yaku_lines(r)["rinshan"] == 1
    with pytest.raises(ScoringError, match="rinshan needs a kan"):
        win(R, **PLAIN, win="tsumo", rinshan=True, **G)


# --- 七対子: 4枚使い +2, 6枚使い +4, 8枚使い 役満 ------------------------------------------

def test_chiitoitsu_is_2():
    assert yaku_lines(win(R, "1133557799p1166z", "3p", **G))["chiitoitsu"] == 2


def test_chiitoitsu_with_a_kind_used_4_times_adds_2():
    assert yaku_lines(win(R, "11112233446677p", "2p", **G))["chiitoitsu"] == 2 + 2


def test_chiitoitsu_with_a_kind_used_6_times_adds_4():
    assert yaku_lines(win(R, "11111122334466p", "2p", **G))["chiitoitsu"] == 2 + 4


def test_chiitoitsu_with_two_kinds_used_4_times_adds_2_each():
    assert yaku_lines(win(R, "11112222334466p", "3p", **G))["chiitoitsu"] == 2 + 2 + 2


def test_chiitoitsu_with_a_kind_used_8_times_is_a_yakuman():
    r = win(R, "11111111223344p", "2p", **G)
    assert r.yakuman == 1


# --- 役満 and the yaku it does not add ------------------------------------------------------

def test_daisharin_is_a_yakuman():
    """大車輪(ピンズ2~8各2枚を使用しての和了)."""
    r = win(R, "22334455667788p", "2p", **G)
    assert yaku_lines(r) == {"daisharin": 50}
    # 50 + 門前 1 + バンバン 2 + 5p 2 + ガリ 1 = 56 (chinitsu, tanyao, chiitoitsu are implied)
    assert r.total == 56


def test_ryuuiisou_with_hatsu_is_a_yakuman_and_adds_honitsu():
    """緑一色(發の有無は任意) ... 清一色、ホンイツ複合可."""
    got = yaku_lines(win(R, "223344666888s66z", "2s", **G))
    assert got["ryuuiisou"] == 50 and got["honitsu"] == 3


def test_ryuuiisou_without_hatsu_is_a_yakuman_and_adds_chinitsu():
    got = yaku_lines(win(R, "223344666888s88s", "2s", **G))
    assert got["ryuuiisou"] == 50 and got["chinitsu"] == 6


def test_shousangen_is_a_yakuman():
    """小三元は役満."""
    got = yaku_lines(win(R, "555666z77z123789p", "3p", **G))
    assert got["shousangen"] == 50
    assert not any(k.startswith("yakuhai") for k in got)   # its two dragon triplets are implied


def test_daisangen_is_a_double_yakuman():
    """大三元はダブル役満."""
    r = win(R, "555666777z123p99p", "3p", **G)
    assert yaku_lines(r)["daisangen"] == 100
    assert r.yakuman == 2


def test_junchan_closed_is_yakuman_in_chinton():
    """ジュンチャン 門前役満 (清一色と複合しない)."""
    got = yaku_lines(win(R, "123789p123789p11p", "3p", **G))
    assert got["junchan"] == 50 and "chinitsu" not in got


def test_junchan_open_is_30_without_chinitsu():
    """ジュンチャン 鳴き30 (清一色と複合しない)."""
    r = win(R, "789p123789p11p", "3p", melds=[pon("111p")], **G)
    assert yaku_lines(r) == {"junchan": 30}
    assert r.yakuman == 0
    # バンバン 2 + 30 + ガリ 1 = 33
    assert r.total == 33


def test_chanta_closed_20_open_10_without_honitsu():
    """チャンタ 門前20、鳴き10(ホンイツと複合しない)."""
    closed = yaku_lines(win(R, "123789p123p99p777z", "3p", **G))
    assert closed["chanta"] == 20 and "honitsu" not in closed
    opened = yaku_lines(win(R, "123789p123p99p", "3p", melds=[PON_CHUN], **G))
    assert opened["chanta"] == 10 and "honitsu" not in opened


def test_chuuren_adds_no_chinitsu():
    """九蓮は清一色と必ず複合するので清一色を計算しない."""
    got = yaku_lines(win(R, "11123456789999p", "2p", **G))
    assert got["chuuren"] == 50 and "chinitsu" not in got


def test_chinroutou_adds_no_chinitsu():
    """One suit a hand and 1m 9m only as gari: a chinroutou is always a chinitsu, so "必ず複合してしまう
    手役は計算しない" leaves chinitsu out (it added 6 from each payer)."""
    got = yaku_lines(win(R, "11111111p999999p", "9p", win="tsumo", **G))
    assert got["chinroutou"] == 50 and "chinitsu" not in got


def test_yakuman_stack():
    """Daisangen (double) and tsuuiisou: 150."""
    r = win(R, "666777z111z22z", "2z", melds=[pon("555z")], **G)
    got = yaku_lines(r)
    assert got["daisangen"] == 100 and got["tsuuiisou"] == 50
    assert r.yakuman == 3


# --- 国士無双 and 四喜和 may hold gari -------------------------------------------------------------

def test_kokushi_uses_1_and_9_of_the_suit_twice_each_and_may_hold_gari():
    """ソウズ(ピンズ)1,9を2枚ずつ組み込んでの和了; 抜きドラが手牌にあっても良い."""
    r = win(R, "1199p1234567z1m9m1p", "1p")
    assert yaku_lines(r) == {"kokushi": 50}


def test_kokushi_in_souzu():
    r = win(R, "1199s1234567z1m9m9s", "9s")
    assert yaku_lines(r) == {"kokushi": 50}


def test_kokushi_needs_the_suits_1_and_9_twice():
    with pytest.raises(ScoringError, match="not a winning hand|gari in the hand"):
        win(R, "199p1234567z1m9m77z", "1p")     # 1p once only


def test_daisuushii_may_hold_north():
    """四喜和の和了時は北が手牌にあっても良い."""
    r = win(R, "111222333444z99p", "9p")
    assert yaku_lines(r)["daisuushii"] == 50


def test_tsuuiisou_cannot_use_north():
    """字一色は北を使えない: with North held, daisuushii counts and tsuuiisou does not."""
    r = win(R, "111222333444z66z", "6z", win="tsumo", **G)
    assert "tsuuiisou" not in yaku_lines(r) and yaku_lines(r)["daisuushii"] == 50


def test_tsuuiisou_without_north_counts():
    r = win(R, "111222333666z77z", "7z", win="tsumo", **G)
    assert yaku_lines(r)["tsuuiisou"] == 50


def test_an_all_honours_hand_holding_north_without_suushii_is_rejected():
    with pytest.raises(ScoringError, match="gari in the hand"):
        win(R, "111z222z666z777z44z", "4z", win="tsumo", **G)


def test_gari_in_hand_for_an_ordinary_hand_is_rejected():
    with pytest.raises(ScoringError, match="gari in the hand"):
        win(R, "123456789p234p44z", "3p", riichi=True)


# --- haku: a wildcard for honours; anything on a riichi ippatsu tsumo ------------------------------

def test_haku_stands_for_an_honour():
    """白を「字牌に限りマイティ牌」: 東 + 白 is a pair of East."""
    r = win(R, "123456789p234p15z", "3p", riichi=True, **G)
    assert r.reading.endswith("11z (wait: penchan)")


def test_haku_is_not_a_suit_tile_outside_a_riichi_ippatsu_tsumo():
    with pytest.raises(ScoringError, match="not a winning hand"):
        win(R, "123456789p234p9p5z", "5z", riichi=True, win="tsumo", **G)


def test_haku_drawn_on_a_riichi_ippatsu_tsumo_is_any_tile():
    """リーチ一発ツモ時に引いたらマイティ扱いで和了: the haku is the 9p of the pair."""
    r = win(R, "123456789p234p9p5z", "5z", riichi=True, ippatsu=True, win="tsumo", **G)
    assert "99p" in r.reading


def test_hakus_making_a_second_triplet_of_a_wind_make_no_four_winds():
    """四喜和は「4面子1雀頭の中に東南西北を含む必要がある」: East twice (the second with two hakus),
    South and a West pair hold no North."""
    r = win(R, "123p1111z222z33z55z", "2p", **G)
    assert "shousuushii" not in yaku_lines(r)
    assert r.total == 28


def test_the_four_winds_may_take_a_haku_for_one_of_them():
    """East, South, West triplets and a pair of North made with two hakus: all four winds are there."""
    r = win(R, "123p111z222z333z55z", "2p", **G)
    assert "shousuushii" in yaku_lines(r)


def test_hakus_making_a_second_dragon_triplet_make_no_three_dragons():
    """大三元 and 小三元 hold all three dragons: two chun triplets (one with two hakus standing in)
    and hatsu are no 大三元, two chun triplets and a hatsu pair no 小三元."""
    assert "daisangen" not in yaku_lines(win(R, "123p7777z55z666z11p", "2p", **G))
    assert "shousangen" not in yaku_lines(win(R, "123p456p7777z55z66z", "2p", **G))


def test_a_pon_made_with_hakus_is_recorded_as_the_kind_it_stands_for():
    """白2枚を晒してのポン, recorded as East (docs/rules.md): two Easts in the hand and a pon of East
    are five Easts, a haku at least in the pon."""
    r = win(R, "123456789p11z", "1z", seat="east", win="tsumo", melds=[pon("111z", "south")])
    assert "yakuhai_seat_wind" in yaku_lines(r)


def test_hakus_stand_in_only_in_melds_and_as_far_as_the_wall_holds_them():
    # four hakus turned as dora indicators leave none to make the fifth East
    with pytest.raises(ScoringError, match=r"too many copies of 1z: 5 seen .* the wall has 4 and 4 5z"):
        win(R, "123456789p11z", "1z", seat="east", win="tsumo", melds=[pon("111z", "south")],
            dora_indicators="5555z")
    # a concealed haku is written 5z, and an indicator is the tile turned: neither stands in
    with pytest.raises(ScoringError, match="too many copies of 1z"):
        win(R, "123456789p11111z", "1z", seat="east", win="tsumo")
    with pytest.raises(ScoringError, match="too many copies of 1z"):
        win(R, "123456789p11122z", "2z", seat="east", win="tsumo", dora_indicators="1z1z")


def test_a_haku_standing_in_a_meld_is_dora_as_a_haku():
    """A wildcard counts as the physical tile for dora (docs/rules.md). Five Easts recorded hold a
    haku at least: with North turned (East dora) it is four Easts' dora, not five."""
    r = win(R, "123456789p11z", "1z", seat="east", win="tsumo", melds=[pon("111z", "south")],
            dora_indicators="4z", gari="1m")
    assert lines(r)["dora"] == 4


def test_every_copy_of_a_suit_kind_held_beyond_four_is_dora():
    """Eight of each number: five 6p held under a 5p indicator are five dora (no haku stands in a suit)."""
    r = win(R, "12366666788889p", "2p", riichi=True, dora_indicators="5p", **G)
    assert lines(r)["dora"] == 5


def test_haku_dora_indicator_names_one_honour():
    """ドラとして白がめくれた場合は字牌1種類を選んでドラとする."""
    hand = dict(concealed="123456789p234p11z", win_tile="3p", riichi=True, dora_indicators="5z", **G)
    assert lines(win(R, **hand))["dora"] == 2                                       # auto: East
    assert lines(win(R, **hand, options={"haku_dora": "1z"}))["dora"] == 2
    assert "dora" not in lines(win(R, **hand, options={"haku_dora": "7z"}))


def test_haku_auto_names_the_honour_that_counts_when_gari_are_no_dora():
    """The winner picks the honour, so ``auto`` is the best for her. With North gari held apart and
    not counted as dora, it named North (held most, counting the gari): no dora, where East is 3."""
    hand = dict(seat="south", win="ron", discarder="west", concealed="123p456p789p111z22p", win_tile="2p",
                gari="4444z", dora_indicators="5z", options={"dora_counts_gari": False})
    assert lines(win(R, **hand))["dora"] == 3
    assert win(R, **hand).total == win(R, **{**hand, "options": {**hand["options"], "haku_dora": "1z"}}).total


# --- the wall -----------------------------------------------------------------------------------------

def test_eight_of_a_suit_kind_may_be_seen():
    r = win(R, "11111111223344p", "2p", **G)
    assert r.total > 0


def test_the_other_suit_is_not_in_the_wall():
    with pytest.raises(ScoringError, match="one suit per hand|not in this hand's wall"):
        win(R, "123456789p234s99p", "3p", **G)


def test_5m_is_not_in_the_chinton_wall():
    with pytest.raises(ScoringError, match="5m is not in the chinton wall"):
        win(R, **PLAIN, gari="5m")


def test_discards_beside_honours_a_haku_may_stand_in_for_and_of_a_hand_without_a_suit_are_taken():
    """The discards are checked against the wall, but chinton's hakus recorded as an honour leave
    how many real ones the hand holds unknown; and a hand of honours alone plays the discards' suit."""
    pon_of_east = record("chinton", "123456789p11z", "1z", win="tsumo", discards="11z",
                         melds=[{"kind": "pon", "tiles": "111z", "from": "west"}])
    assert score(pon_of_east).total > 0
    honours = record("chinton", "111222333666z77z", "7z", win="tsumo", discards="12s")
    assert score(honours).total > 0
    with pytest.raises(ScoringError, match="discards: chinton plays one suit per hand"):
        score({**honours, "discards": "1s1p"})
