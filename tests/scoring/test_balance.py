"""ばらんすルール (seed 001): each yaku and item, as the seed's tables say.

Unless a test says otherwise the south seat (not the dealer) wins by ron from
west and holds one gari, 1m (2 points), so that karasu is out of the count.
"""

import pytest

from rulebook import PON_CHUN, ScoringError, lines, pon, win, yaku_lines
from scoring import load_preset

R = "balance"
G = {"gari": "1m"}



# --- 役と点数: closed (面前) and open (鳴き) values ---------------------------------

# A plain closed hand with no 5p/5s: 234p 678p 234s 678s 99s, won on the 3p kanchan.
PLAIN = dict(concealed="234678p234678s99s", win_tile="3p")

CLOSED = [
    ("menzen_tsumo", dict(PLAIN, win="tsumo"), 1),
    ("riichi", dict(PLAIN, riichi=True), 2),
    ("ippatsu", dict(PLAIN, riichi=True, ippatsu=True), 2),
    ("tanyao", dict(concealed="234678p234678s88s", win_tile="3p"), 2),
    ("pinfu", dict(concealed="234678p234678s99s", win_tile="2p"), 2),
    ("iipeikou", dict(concealed="223344p678p234s99s", win_tile="3p"), 2),
    ("chankan", dict(PLAIN, chankan=True), 1),
    ("houtei", dict(PLAIN, houtei=True), 1),
    ("haitei", dict(PLAIN, win="tsumo", haitei=True), 1),
    ("chiitoitsu", dict(concealed="11339977p226688s", win_tile="1p"), 4),
    ("toitoi", dict(concealed="222p666p777s888s99s", win_tile="8s"), 6),
    ("sanankou", dict(concealed="222p666p777s888s99s", win_tile="8s"), 6),
    ("ittsu", dict(concealed="123456789p234s99s", win_tile="3s"), 4),
    ("chanta", dict(concealed="123789p123s99s777z", win_tile="3s"), 8),
    ("honitsu", dict(concealed="234678888p99p777z", win_tile="3p"), 6),
    ("junchan", dict(concealed="123789p123789s11p", win_tile="3s"), 12),
    ("ryanpeikou", dict(concealed="223344p667788s99s", win_tile="3p"), 8),
    ("chinitsu", dict(concealed="123234678888p99p", win_tile="2p"), 12),
    ("sanrenkou", dict(concealed="222333444p678s99s", win_tile="7s"), 6),
]


@pytest.mark.parametrize("yaku,hand,value", CLOSED, ids=[c[0] for c in CLOSED])
def test_closed_value_is_the_seeds(yaku, hand, value):
    """役と点数, 面前 column."""
    assert yaku_lines(win(R, **hand, **G))[yaku] == value


OPEN = [
    ("tanyao", dict(concealed="234678p234s66s", win_tile="3p", melds=[pon("888s")]), 1),
    ("iipeikou", dict(concealed="223344p234s99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("yakuhai_chun", dict(concealed="234678p234s99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("toitoi", dict(concealed="666p888s99s", win_tile="9s", melds=[pon("222p"), pon("777s")]), 4),
    ("sanankou", dict(concealed="222p666p888s99s", win_tile="9s", melds=[pon("333s")]), 4),
    ("ittsu", dict(concealed="123456789p99s", win_tile="3p", melds=[PON_CHUN]), 2),
    ("chanta", dict(concealed="123789p123s99s", win_tile="3s", melds=[PON_CHUN]), 6),
    ("honitsu", dict(concealed="234678888p99p", win_tile="3p", melds=[PON_CHUN]), 4),
    ("junchan", dict(concealed="789p123789s99s", win_tile="3s", melds=[pon("111p")]), 10),
    ("chinitsu", dict(concealed="123234678p99p", win_tile="2p", melds=[pon("888p")]), 10),
    ("sanrenkou", dict(concealed="678s99s", win_tile="7s",
                       melds=[pon("222p"), pon("333p"), pon("444p")]), 4),
    ("shousangen", dict(concealed="77z234789p", win_tile="3p", melds=[pon("555z"), pon("666z")]), 6),
]


@pytest.mark.parametrize("yaku,hand,value", OPEN, ids=[c[0] for c in OPEN])
def test_open_value_is_the_seeds(yaku, hand, value):
    """役と点数, 鳴き column (open iipeikou is allowed: 1)."""
    assert yaku_lines(win(R, **hand, **G))[yaku] == value


def test_open_toitoi_is_4():
    r = win(R, "666p888s99s", "9s", melds=[pon("222p"), pon("777s")], **G)
    # 場ゾロ 2 + トイトイ 4 + ガリ 2 = 8
    assert r.total == 8


def test_double_riichi_is_4_and_6_with_riichi():
    """ダブリー 4点(リーチ込み6点)."""
    got = yaku_lines(win(R, **PLAIN, double_riichi=True, **G))
    assert got == {"double_riichi": 4, "riichi": 2}


def test_shousangen_is_6_and_8_with_its_yakuhai():
    """小三元 6点(役牌込み8点)."""
    got = yaku_lines(win(R, "555666z77z234789p", "3p", **G))
    assert got["shousangen"] == 6
    assert got["shousangen"] + got["yakuhai_haku"] + got["yakuhai_hatsu"] == 8


def test_sankantsu_is_6_closed_4_open_with_ankan_2_and_minkan_1():
    """三槓子 6/4, アンカン 2点, ミンカン 1点."""
    ankans = [{"kind": "ankan", "tiles": t} for t in ("2222p", "7777p", "8888s")]
    closed = win(R, "234s99s", "3s", melds=ankans, **G)
    assert yaku_lines(closed)["sankantsu"] == 6
    assert lines(closed)["ankan"] == 6            # 3 x 2
    opened = win(R, "234s99s", "3s", **G, melds=[
        {"kind": "ankan", "tiles": "7777p"},
        {"kind": "minkan", "tiles": "2222p", "from": "west"},
        {"kind": "minkan", "tiles": "8888s", "from": "east"}])
    assert yaku_lines(opened)["sankantsu"] == 4
    assert lines(opened)["ankan"] == 2 and lines(opened)["minkan"] == 2


def test_rinshan_counts_on_a_gari_replacement_draw():
    """嶺上開花 ※ガリを抜いても嶺上扱い: no kan needed."""
    r = win(R, **dict(PLAIN, win="tsumo"), rinshan=True, **G)
    assert yaku_lines(r)["rinshan"] == 1


def test_honroutou_is_not_in_the_balance_table():
    r = win(R, "111p999p111s99s", "9s", melds=[PON_CHUN], **G)
    assert "honroutou" not in yaku_lines(r)


# --- winds: round East and North for everyone, seat winds for their seat ---------------

@pytest.mark.parametrize("seat,wind,counts", [
    ("south", "111z", 1), ("south", "444z", 1), ("south", "222z", 1), ("south", "333z", 0),
    ("west", "111z", 1), ("west", "444z", 1), ("west", "333z", 1), ("west", "222z", 0),
    ("east", "444z", 1), ("east", "222z", 0), ("east", "333z", 0),
])
def test_value_winds(seat, wind, counts):
    """場風は常に東・北; 南家は西以外、西家は南以外の字牌が役; 親は南と西がオタ風."""
    frm = "east" if seat != "east" else "west"
    hand = dict(concealed="234678p234s99s", win_tile="3p", seat=seat, discarder=frm,
                melds=[pon(wind, frm)], **G)
    if counts:
        assert sum(yaku_lines(win(R, **hand)).values()) == counts
    else:
        with pytest.raises(ScoringError, match="no yaku"):
            win(R, **hand)


def test_dealer_east_counts_twice_by_default_and_once_with_double_wind_1():
    """East for the dealer is round and seat wind: 2 (option double_wind = 1: once)."""
    hand = dict(concealed="234678p234s99s", win_tile="3p", seat="east",
                melds=[pon("111z")], **G)
    assert sum(yaku_lines(win(R, **hand)).values()) == 2
    assert sum(yaku_lines(win(R, **hand, options={"double_wind": 1})).values()) == 1


# --- chiitoitsu with four of a kind ----------------------------------------------------

@pytest.mark.parametrize("hand,value", [
    ("11339977p226688s", 4),     # 七対子 4
    ("11113399p226688s", 6),     # 4枚七対子 (one kind as two pairs) 6
    ("11113399p222288s", 8),     # two kinds as two pairs 8
])
def test_chiitoitsu_with_four_of_a_kind(hand, value):
    assert yaku_lines(win(R, hand, "3p" if "33" in hand else "1p", **G))["chiitoitsu"] == value


def test_chiitoitsu_with_three_four_of_a_kinds_is_a_yakuman():
    """12枚七対子 50点(役満扱い)."""
    r = win(R, "11113333p222288s", "8s", **G)
    assert r.yakuman == 1
    # 50 + 場ゾロ 2 + ガリ 2 = 54
    assert r.total == 54


# --- その他点数アップするもの ----------------------------------------------------------

def test_dealer_1_banban_2_honba_1_each():
    r = win(R, **PLAIN, seat="east", riichi=True, honba=2, **G)
    got = lines(r)
    assert (got["dealer"], got["banban"], got["honba"]) == (1, 2, 2)
    # 2本場 2 + 場ゾロ 2 + 親 1 + リーチ 2 + ガリ 2 = 9
    assert r.total == 9


def test_gari_are_2_each():
    assert lines(win(R, **PLAIN, riichi=True, gari="19m"))["gari"] == 4


def test_red_5m_gari_is_4():
    """ガリ赤伍 4点."""
    got = lines(win(R, **PLAIN, riichi=True, gari="0m"))
    assert got["gari"] + got["red"] == 4


def test_every_5p_and_5s_is_2():
    """ピンズ5・ソウズ5 2点 × 枚数."""
    r = win(R, "234567p234s456s99s", "3p", riichi=True, **G)
    assert lines(r)["fives"] == 4


def test_red_5p_is_4_in_all_not_2_plus_4():
    """赤5 4点 (黒黒黒赤 = 10: a red five is two gari's worth)."""
    got = lines(win(R, "234406p234678s99s", "3p", riichi=True, **G))
    assert got["fives"] + got["red"] == 4


def test_seed_gari_zone_example_black_black_black_red_is_10():
    """赤5ソウ 4 + 黒5ソウ 2 + 壱萬 2 + 九萬 2 = 10."""
    got = lines(win(R, "234678p345s067s99s", "3p", riichi=True, gari="19m"))
    assert got["fives"] + got["red"] + got["gari"] == 10


def test_dora_and_ura_1_each():
    got = lines(win(R, **PLAIN, riichi=True, dora_indicators="8s", ura_indicators="1p", **G))
    assert got["dora"] == 2 and got["ura"] == 1


def test_a_gari_set_doubles_that_kinds_gari_points():
    """一萬が4枚あるとその時点で2点×4枚で8点ですが、さらに8点増し (16)."""
    got = lines(win(R, **PLAIN, riichi=True, gari="1111m"))
    assert got["gari"] + got["gari_set"] == 16


# --- karasu (カラス): 30 fixed, strict conditions ---------------------------------------

KARASU = dict(concealed="234678p234s99s", win_tile="3p", melds=[PON_CHUN])


def test_karasu_is_30_fixed():
    """ガリ無し, 1点役が一つのみ, ドラ無し, 捨て牌に5無し: 30点固定."""
    r = win(R, **KARASU)
    assert r.total == 30


@pytest.mark.parametrize("honba", [0, 1, 3])
def test_karasu_is_30_at_any_honba(honba):
    """何本場であっても30点固定."""
    assert win(R, **KARASU, honba=honba).total == 30


def test_dealer_karasu_is_30_too():
    """※親の場合は5点で完成 (still 30)."""
    assert win(R, **KARASU, seat="east", discarder="west").total == 30


def test_karasu_in_a_bounty_round_adds_the_bounty_on_top():
    """懸賞場でアガった場合は30点+懸賞がアガり点数."""
    r = win(R, **KARASU, honba=4)
    assert r.total == 30 + 5
    assert dict(r.payments) == {"west": 35, "east": 5}


@pytest.mark.parametrize("spoiler", [
    dict(dora_indicators="8s"),          # a dora
    dict(discards="1s5p"),               # a 5p among the discards
    dict(discards="0s"),                 # a red 5s among the discards
    dict(options={"discarded_five": True}),
    dict(houtei=True),                   # two 1-point yaku
    dict(gari="1m"),                     # a gari: not karasu at all
])
def test_karasu_conditions_each_one_breaks_it(spoiler):
    r = win(R, **KARASU, **spoiler)
    assert r.total != 30 and "karasu_fixed" not in lines(r)


def test_the_players_word_on_a_discarded_five_is_taken_over_the_camera_s_discards():
    """The camera read a 5p among the discards (a misread 6p): the players untick the fact on the
    tablet, and the hand is karasu (before, the discards were taken whatever the hand said: 4)."""
    assert win(R, **KARASU, discards="1s5p", options={"discarded_five": False}).total == 30
    assert win(R, **KARASU, discards="1s6p", options={"discarded_five": True}).total != 30


def test_a_five_in_the_hand_breaks_karasu():
    """5p/5s are 2 points each: no longer the bare 4-point count."""
    r = win(R, "234567p234s99s", "3p", melds=[PON_CHUN])
    # 場ゾロ 2 + 中 1 + 5p 2 = 5
    assert r.total == 5


def test_karasu_with_a_2_point_yaku_is_no_karasu():
    r = win(R, "234678p234678s88s", "3p")     # closed tanyao 2
    assert r.total == 2 + 2                    # 場ゾロ + タンヤオ


def test_karasu_plus5_option_adds_5_instead():
    """The other reading: 役を数え終わった後に5点を加算."""
    r = win(R, **KARASU, options={"karasu": "plus5"})
    # 場ゾロ 2 + 中 1 + 5 = 8
    assert r.total == 8


def test_karasu_read_as_two_kinds_adds_5_to_any_win_with_no_gari_and_keeps_the_30():
    """「カラスには2種類あります。抜きドラが一枚もないことが条件です。役を数え終わった後に5点を
    加算します。」 then the karasu with conditions, 30 fixed: option ``karasu`` = ``two_kinds``."""
    two = {"karasu": "two_kinds"}
    r = win(R, "123p789p234s678s99p", "2s", seat="south", win="tsumo", riichi=True, honba=1, options=two)
    base = win(R, "123p789p234s678s99p", "2s", seat="south", win="tsumo", riichi=True, honba=1)
    assert r.total == base.total + 5 and lines(r)["karasu"] == 5
    assert win(R, **KARASU, options=two).total == 30                      # both kinds: the fixed one
    assert win(R, **PLAIN, riichi=True, **G, options=two).total == win(R, **PLAIN, riichi=True, **G).total


# --- bounty (懸賞場): from 4 honba, added last -------------------------------------------

def test_no_bounty_at_3_honba():
    assert win(R, **PLAIN, riichi=True, honba=3, **G).bounty == 0


@pytest.mark.parametrize("seat,bounty", [("east", 10), ("south", 5)])
def test_bounty_from_4_honba(seat, bounty):
    r = win(R, **PLAIN, riichi=True, seat=seat, discarder="west", honba=4, **G)
    dealer = 1 if seat == "east" else 0
    # 4本場 4 + 場ゾロ 2 + 親 + リーチ 2 + ガリ 2 + 懸賞
    assert r.total == 4 + 2 + dealer + 2 + 2 + bounty


def test_lateral_ron_the_uninvolved_player_pays_the_bounty():
    r = win(R, **PLAIN, riichi=True, honba=4, seat="south", discarder="west", **G)
    assert dict(r.payments) == {"west": 4 + 2 + 2 + 2 + 5, "east": 5}


def test_bounty_comes_after_the_gari_set_doubling():
    r = win(R, **PLAIN, riichi=True, honba=4, gari="1111m")
    # 4 + 2 + リーチ 2 + ガリ 8 + セット 8 + 懸賞 5 = 29 (nothing multiplies the bounty)
    assert r.total == 29
    assert [i.key for i in r.items][-1] == "bounty"


# --- open riichi, yakuman, nagashi ------------------------------------------------------

def test_open_riichi_is_2_plus_riichi_2():
    """オープン2点 + リーチ2点."""
    got = yaku_lines(win(R, **PLAIN, riichi=True, open_riichi=True, **G))
    assert got["open_riichi"] == 2 and got["riichi"] == 2


def test_deal_in_to_an_open_riichi_is_a_yakuman():
    r = win(R, **PLAIN, riichi=True, open_riichi=True, options={"open_riichi_deal_in": True}, **G)
    assert r.yakuman == 1 and r.total == 50 + 2 + 2


def test_nagashi_is_30_fixed():
    """流し満貫 30点固定."""
    r = win(R, **PLAIN, win="tsumo", nagashi=True)
    assert r.total == 30 and r.yakuman == 0


def test_yakuman_are_50_and_stack():
    """役満 ※複合あり: daisangen + tsuuiisou (North is an ordinary honour here) = 100."""
    r = win(R, "666777z444z22z", "2z", melds=[pon("555z")], **G)
    assert yaku_lines(r) == {"daisangen": 50, "tsuuiisou": 50}
    assert r.total == 100 + 2 + 2


def test_kokushi_may_hold_1m_and_9m():
    """国士無双 exists in balance (暗槓アガりあり), so 1m 9m may be held for it."""
    r = win(R, "19p19s1234567z1m9m1p", "1p")
    assert yaku_lines(r) == {"kokushi": 50}


def test_1m_in_hand_for_anything_but_kokushi_is_rejected():
    with pytest.raises(ScoringError, match="gari"):
        win(R, "234678p234s111m99s", "3p", riichi=True)


def test_a_new_dealer_starts_at_1_honba():
    """親が移動したら必ず1本場からスタート (table rule for the ledger)."""
    assert load_preset("balance").table["new_dealer_honba"] == 1
