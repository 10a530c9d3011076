"""東天紅 as the encyclopedia article describes it (seed 002).

Yaku are the four-player han values; the article's own items (本場, 門前,
明槓, ガリ 1; バンバン 2; セット 4; 鳴きカラス 20, 門前カラス 30; ガリを全て集める
50) are added and do not count toward the one-yaku minimum. Unless a test
says otherwise the south seat wins by ron from west holding one gari, 1m.
"""

import pytest

from rulebook import PON_CHUN, ScoringError, lines, pon, win, yaku_lines

R = "toutenkou"
G = {"gari": "1m"}
PLAIN = dict(concealed="234678p234678s99s", win_tile="3p")



YAKU = [
    # (yaku, hand, value)
    ("riichi", dict(PLAIN, riichi=True), 1),
    ("double_riichi", dict(PLAIN, double_riichi=True), 2),
    ("ippatsu", dict(PLAIN, riichi=True, ippatsu=True), 1),
    ("menzen_tsumo", dict(PLAIN, win="tsumo"), 1),
    ("pinfu", dict(PLAIN, win_tile="2p"), 1),
    ("tanyao", dict(concealed="234678p234678s88s", win_tile="3p"), 1),
    ("iipeikou", dict(concealed="223344p678p234s99s", win_tile="3p"), 1),
    ("ryanpeikou", dict(concealed="223344p667788s99s", win_tile="3p"), 3),
    ("yakuhai_chun", dict(concealed="234678p234s99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("chiitoitsu", dict(concealed="11339977p226688s", win_tile="1p"), 2),
    ("toitoi", dict(concealed="666p888s99s", win_tile="9s", melds=[pon("222p"), pon("777s")]), 2),
    ("sanankou", dict(concealed="222p666p888s234s99s", win_tile="3s"), 2),
    ("ittsu", dict(concealed="123456789p234s99s", win_tile="3s"), 2),
    ("ittsu", dict(concealed="123456789p99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("chanta", dict(concealed="123789p123s99s777z", win_tile="3s"), 2),
    ("chanta", dict(concealed="123789p123s99s", win_tile="3s", melds=[PON_CHUN]), 1),
    ("junchan", dict(concealed="123789p123789s11p", win_tile="3s"), 3),
    ("junchan", dict(concealed="789p123789s99s", win_tile="3s", melds=[pon("111p")]), 2),
    ("honitsu", dict(concealed="234678888p99p777z", win_tile="3p"), 3),
    ("honitsu", dict(concealed="234678888p99p", win_tile="3p", melds=[PON_CHUN]), 2),
    ("chinitsu", dict(concealed="123234678888p99p", win_tile="2p"), 6),
    ("chinitsu", dict(concealed="123234678p99p", win_tile="2p", melds=[pon("888p")]), 5),
    ("honroutou", dict(concealed="111p999p111s99s", win_tile="9s", melds=[PON_CHUN]), 2),
    ("shousangen", dict(concealed="555666z77z234789p", win_tile="3p"), 2),
]


@pytest.mark.parametrize("yaku,hand,value", YAKU,
                         ids=[f"{c[0]}-{'open' if 'melds' in c[1] else 'closed'}" for c in YAKU])
def test_yaku_are_the_four_player_han_values(yaku, hand, value):
    """東天紅の役: 和了役の単位は「点」; values as in four-player mahjong."""
    assert yaku_lines(win(R, **hand, **G))[yaku] == value


# --- the article's own items ------------------------------------------------------------

def test_menzen_1_for_a_closed_hand_and_none_open():
    assert lines(win(R, **PLAIN, riichi=True, **G))["menzen"] == 1
    assert "menzen" not in lines(win(R, "234678p234s99s", "3p", melds=[PON_CHUN], **G))


def test_menzen_is_not_a_yaku():
    """一飜縛りの役には含まない: a closed hand with only 門前 has no yaku."""
    with pytest.raises(ScoringError, match="no yaku"):
        win(R, **PLAIN, **G)


def test_honba_1_each_banban_2_gari_1_each():
    r = win(R, **PLAIN, riichi=True, honba=3, gari="19m4z")
    got = lines(r)
    assert (got["honba"], got["banban"], got["gari"]) == (3, 2, 3)
    # 3 + 2 + 門前 1 + リーチ 1 + ガリ 3 = 10
    assert r.total == 10


def test_no_dealer_point_and_no_bounty_in_the_article():
    r = win(R, **PLAIN, riichi=True, seat="east", honba=5, **G)
    assert "dealer" not in lines(r) and r.bounty == 0


def test_minkan_1_ankan_2():
    r = win(R, "234s99s", "3s", **G, melds=[
        {"kind": "ankan", "tiles": "7777p"}, {"kind": "minkan", "tiles": "2222p", "from": "west"},
        PON_CHUN])
    got = lines(r)
    assert got["minkan"] == 1 and got["ankan"] == 2


def test_ankan_option_0():
    r = win(R, "234678p234s99s", "3s", riichi=True, melds=[{"kind": "ankan", "tiles": "6666s"}],
            options={"ankan": 0}, **G)
    assert "ankan" not in lines(r)


def test_a_gari_set_adds_4():
    """セット(ガリで同種牌を4枚すべて集める) 4点."""
    r = win(R, **PLAIN, riichi=True, gari="1111m")
    got = lines(r)
    assert got["gari"] == 4 and got["gari_set"] == 4
    # 2 + 門前 1 + リーチ 1 + ガリ 4 + セット 4 = 12
    assert r.total == 12


def test_closed_karasu_adds_30():
    """門前カラス(門前の状態でガリを一枚も引かずに和了する) 30点."""
    r = win(R, **PLAIN, riichi=True)
    # バンバン 2 + 門前 1 + リーチ 1 + 30 = 34
    assert lines(r)["karasu"] == 30 and r.total == 34


def test_open_karasu_adds_20():
    """鳴きカラス 20点."""
    r = win(R, "234678p234s99s", "3p", melds=[PON_CHUN])
    assert lines(r)["karasu"] == 20 and r.total == 2 + 1 + 20


def test_karasu_fixed_option_is_the_whole_count():
    assert win(R, "234678p234s99s", "3p", melds=[PON_CHUN], options={"karasu": "fixed"}).total == 20
    assert win(R, **PLAIN, riichi=True, options={"karasu": "fixed"}).total == 30


def test_all_gari_collected_is_a_yakuman():
    """ガリを全て集める 50点(役満): 1m, 9m and North four each in the 108-tile wall."""
    r = win(R, **PLAIN, riichi=True, gari="1111m9999m4444z")
    assert yaku_lines(r) == {"all_gari": 50}
    # 50 + バンバン 2 + 門前 1 + ガリ 12 + セット 3 x 4 = 77 (riichi is not added to a yakuman)
    assert r.total == 77


def test_all_gari_in_the_112_tile_wall_needs_the_5m_too():
    r = win(R, **PLAIN, riichi=True, gari="1111m9999m4444z", options={"tiles": "112"})
    assert r.yakuman == 0
    r = win(R, **PLAIN, riichi=True, gari="1111m0055m9999m4444z", options={"tiles": "112"})
    assert r.yakuman == 1


def test_nagashi_is_a_yakuman():
    """流し満貫は役満として扱う."""
    assert win(R, **PLAIN, win="tsumo", nagashi=True).total == 50


def test_nagashi_after_a_riichi_still_counts():
    """Only dunhill's seed takes nagashi away for a riichi; the article does not."""
    assert win(R, **PLAIN, win="tsumo", nagashi=True, riichi=True).total == 50


# --- options the article names ----------------------------------------------------------------

def test_108_tiles_by_default_5m_is_not_in_the_wall():
    with pytest.raises(ScoringError, match="5m is not in the toutenkou wall"):
        win(R, **PLAIN, riichi=True, gari="5m")


def test_112_tiles_option_makes_5m_a_gari():
    r = win(R, **PLAIN, riichi=True, gari="5m", options={"tiles": "112"})
    assert lines(r)["gari"] == 1


def test_red_fives_are_akadora_1_by_default_and_black_fives_nothing():
    got = lines(win(R, "234406p234456s99s", "3p", riichi=True, **G))
    assert got["red"] == 1 and "fives" not in got


def test_fives_option_dora_every_5p_5s_is_dora():
    """筒子・索子の五を常時ドラとするルール: black 5 1, red 5 1 + 1."""
    got = lines(win(R, "234406p234456s99s", "3p", riichi=True, options={"fives": "dora"}, **G))
    assert got["fives"] == 2 and got["red"] == 1


def test_fives_option_red_gari_black_1_red_3():
    """黒5牌は1点ガリ、赤5牌は3点ガリ."""
    got = lines(win(R, "234406p234456s99s", "3p", riichi=True, options={"fives": "red_gari"}, **G))
    assert got["fives"] + got["red"] == 1 + 3


def test_gari_bai_doubles_gari_when_a_gari_is_a_dora_indicator():
    """ガリ倍: ドラ表示牌にガリがめくれた場合はガリの点数を倍."""
    r = win(R, **PLAIN, riichi=True, gari="19m", dora_indicators="4z", options={"gari_bai": True})
    assert lines(r)["gari"] == 4
    r = win(R, **PLAIN, riichi=True, gari="19m", dora_indicators="4z")
    assert lines(r)["gari"] == 2


def test_gari_tori_triples_gari_for_a_red_indicator():
    """ガリトリ: ドラ表示牌に赤牌がめくれた場合はガリの点数を3倍."""
    r = win(R, **PLAIN, riichi=True, gari="19m", dora_indicators="0p", options={"gari_bai": True})
    assert lines(r)["gari"] == 6


def test_gari_in_hand_for_kokushi_only_with_the_option():
    """国士無双・小四喜・大四喜・清老頭の場合のみガリを手牌の中で使ってもよい (option)."""
    with pytest.raises(ScoringError, match="1m is a gari"):
        win(R, "19p19s1234567z1m9m1p", "1p")
    r = win(R, "19p19s1234567z1m9m1p", "1p", options={"gari_in_hand": True})
    assert yaku_lines(r) == {"kokushi": 50}


def test_gari_in_hand_option_does_not_allow_an_ordinary_hand():
    with pytest.raises(ScoringError, match="gari in the hand"):
        win(R, "234678p234s111m99s", "3p", riichi=True, options={"gari_in_hand": True})


def test_no_sanshoku_doujun_yaku():
    """三色同順を除くすべての通常役: the preset has no sanshoku doujun."""
    from scoring import load_preset
    assert "sanshoku_doujun" not in load_preset(R).section("yaku")
