"""囲将会三麻 (seed 003): han counted as sticks, 1 han = 1 stick.

Nukidora are 5m and North; 1m and 9m are ordinary tiles. Unless a test says
otherwise the south seat (not the dealer) wins by ron from west with no
nukidora (isshokai has no karasu for a missing nukidora).
"""

import pytest

from rulebook import PON_CHUN, ScoringError, lines, pon, win, yaku_lines

R = "isshokai"
PLAIN = dict(concealed="234678p234678s99s", win_tile="3p")



def test_a_nukidora_is_no_draw_so_its_replacement_makes_no_rinshan():
    """「抜きドラは、0 回のツモと見なされるので、一発系(天和・地和・嶺上含む)は消えない」: the
    nukidora keeps a kan's rinshan alive; without a kan the replacement draw is an ordinary tsumo
    (option ``rinshan_on_gari`` = true counts it as rinshan)."""
    with pytest.raises(ScoringError, match="rinshan needs a kan"):
        win(R, **PLAIN, win="tsumo", rinshan=True, gari="5m")
    counted = win(R, **PLAIN, win="tsumo", rinshan=True, gari="5m", options={"rinshan_on_gari": True})
    assert lines(counted)["rinshan"] == 4


def test_counts_are_reported_in_sticks():
    assert win(R, **PLAIN, riichi=True).unit == "sticks"


# --- 3.2 役満複合役 and 3.3 役満非複合役: closed (open) ------------------------------------

YAKU = [
    ("riichi", dict(PLAIN, riichi=True), 1),
    ("double_riichi", dict(PLAIN, double_riichi=True), 2),
    ("menzen_tsumo", dict(PLAIN, win="tsumo"), 1),
    ("rinshan", dict(concealed="234678p234s99s", win_tile="3p", win="tsumo", rinshan=True,
                     melds=[{"kind": "ankan", "tiles": "1111s"}]), 4),
    ("chankan", dict(PLAIN, chankan=True), 4),
    ("haitei", dict(PLAIN, win="tsumo", haitei=True), 4),
    ("houtei", dict(PLAIN, houtei=True), 4),
    ("pinfu", dict(PLAIN, win_tile="2p"), 1),
    ("tanyao", dict(concealed="234678p234678s88s", win_tile="3p"), 1),
    ("iipeikou", dict(concealed="223344p678p234s99s", win_tile="3p"), 1),
    ("ryanpeikou", dict(concealed="223344p667788s99s", win_tile="3p"), 6),
    ("yakuhai_chun", dict(concealed="234678p234s99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("shousangen", dict(concealed="555666z77z234789p", win_tile="3p"), 2),
    ("toitoi", dict(concealed="666p888s99s", win_tile="9s", melds=[pon("222p"), pon("777s")]), 2),
    ("sanankou", dict(concealed="222p666p888s234s99s", win_tile="3s"), 3),
    ("sanrenkou", dict(concealed="222333444p678s99s", win_tile="7s"), 2),
    ("sanshoku_doukou", dict(concealed="111m111p111s234s99s", win_tile="3s"), 2),
    ("ittsu", dict(concealed="123456789p234s99s", win_tile="3s"), 2),
    ("ittsu", dict(concealed="123456789p99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("chanta", dict(concealed="123789p123s99s777z", win_tile="3s"), 4),
    ("chanta", dict(concealed="123789p123s99s", win_tile="3s", melds=[PON_CHUN]), 1),
    ("honroutou", dict(concealed="111p999p111s99s", win_tile="9s", melds=[PON_CHUN]), 4),
    ("junchan", dict(concealed="123789p123789s11p", win_tile="3s"), 6),
    ("junchan", dict(concealed="789p123789s99s", win_tile="3s", melds=[pon("111p")]), 2),
    ("honitsu", dict(concealed="234678888p99p777z", win_tile="3p"), 5),
    ("honitsu", dict(concealed="234678888p99p", win_tile="3p", melds=[PON_CHUN]), 3),
    ("chinitsu", dict(concealed="123234678888p99p", win_tile="2p"), 8),
    ("chinitsu", dict(concealed="123234678p99p", win_tile="2p", melds=[pon("888p")]), 5),
    ("chiitoitsu", dict(concealed="11339977p226688s", win_tile="1p"), 3),
]


@pytest.mark.parametrize("yaku,hand,value", YAKU,
                         ids=[f"{c[0]}-{'open' if 'melds' in c[1] else 'closed'}" for c in YAKU])
def test_yaku_han_are_the_seeds(yaku, hand, value):
    """3. 役: 括弧内は喰い下りの翻数."""
    assert yaku_lines(win(R, **hand))[yaku] == value


def test_sankantsu_is_6():
    r = win(R, "234s99s", "3s", melds=[
        {"kind": "ankan", "tiles": "7777p"}, {"kind": "minkan", "tiles": "2222p", "from": "west"},
        {"kind": "minkan", "tiles": "8888s", "from": "east"}])
    assert yaku_lines(r)["sankantsu"] == 6


def test_double_riichi_is_2_in_all():
    assert yaku_lines(win(R, **PLAIN, double_riichi=True)) == {"double_riichi": 2}


# --- 3.1 無役 ----------------------------------------------------------------------------

def test_menzen_1_closed_0_open():
    assert lines(win(R, **PLAIN, riichi=True))["menzen"] == 1
    assert "menzen" not in lines(win(R, "234678p234s99s", "3p", melds=[PON_CHUN], honba=1))


def test_bazoro_2_dealer_1_honba_1_each():
    r = win(R, **PLAIN, riichi=True, seat="east", honba=2)
    got = lines(r)
    assert (got["banban"], got["dealer"], got["honba"]) == (2, 1, 2)
    # 場ゾロ 2 + 親 1 + 2本場 2 + 門前 1 + リーチ 1 = 7
    assert r.total == 7


def test_ankan_4_minkan_1():
    r = win(R, "234678p234s99s", "3p", riichi=True, melds=[{"kind": "ankan", "tiles": "6666s"}])
    assert lines(r)["ankan"] == 4
    r = win(R, "234678p99s", "3p", melds=[{"kind": "minkan", "tiles": "6666s", "from": "west"},
                                            PON_CHUN])
    assert lines(r)["minkan"] == 1


def test_ippatsu_is_a_4_han_item():
    """一発 4 (無役)."""
    r = win(R, **PLAIN, riichi=True, ippatsu=True)
    assert lines(r)["ippatsu_bonus"] == 4
    # 場ゾロ 2 + 門前 1 + リーチ 1 + 一発 4 = 8
    assert r.total == 8


# --- 2. ドラ -------------------------------------------------------------------------------------

def test_manzu_dora_wrap_1m_to_9m_to_1m():
    """萬子は 1萬 → 9萬 → 1萬と循環."""
    r = win(R, "111m999m234678p99s", "3p", riichi=True, dora_indicators="9m")
    assert lines(r)["dora"] == 3        # 9m indicator -> 1m, the 111m triplet
    r = win(R, "111m999m234678p99s", "3p", riichi=True, dora_indicators="1m")
    assert lines(r)["dora"] == 3        # 1m indicator -> 9m


def test_5m_indicator_makes_5m_dora():
    """5萬 → 5萬."""
    r = win(R, **PLAIN, riichi=True, gari="5m", dora_indicators="5m")
    assert lines(r)["dora"] == 1


def test_every_five_is_dora_and_a_red_five_one_more():
    """5筒、5索、5萬は、常にドラ; 赤5 はさらに 1 翻."""
    r = win(R, "234406p234456s99s", "3p", riichi=True)
    got = lines(r)
    assert got["fives"] == 2 and got["red"] == 1


def test_each_nukidora_is_1():
    assert lines(win(R, **PLAIN, riichi=True, gari="5m4z"))["gari"] == 2


def test_four_5m_add_2():
    """5萬を一人で 4 枚集めたときには、2 翻増える."""
    got = lines(win(R, **PLAIN, riichi=True, gari="0055m"))
    assert got["gari_set"] == 2
    # each 5m: 抜きドラ 1 + 5ドラ 1; four of them 8, + 2 = 10
    assert got["gari"] + got["fives"] + got["gari_set"] == 10


def test_nuki_pei_4_default_reads_all_four_norths():
    """抜き北 4 (ambiguous): default 'set', four Norths add 4."""
    got = lines(win(R, **PLAIN, riichi=True, gari="4444z"))
    assert got["gari"] == 4 and got["gari_set"] == 4


def test_nuki_pei_each_option_every_north_is_4():
    got = lines(win(R, **PLAIN, riichi=True, gari="4z", options={"nuki_pei": "each"}))
    assert got["gari"] + got["north"] == 4


def test_nuki_pei_none_option():
    got = lines(win(R, **PLAIN, riichi=True, gari="4444z", options={"nuki_pei": "none"}))
    assert got["gari"] == 4 and "gari_set" not in got and "north" not in got


def test_1m_and_9m_are_ordinary_tiles_not_nukidora():
    with pytest.raises(ScoringError, match="not a gari"):
        win(R, **PLAIN, riichi=True, gari="1m")


# --- 3.4 役満 30, 3.5 流し 20, 3.6 カラス 15 -------------------------------------------------------

def test_yakuman_is_30_with_only_the_combining_yaku():
    """役満複合役 (リーチ, ツモ) are added; 役満非複合役 (三暗刻, 対々, 三連刻) are not."""
    r = win(R, "222333444055p99s", "9s", win="tsumo", riichi=True)
    got = yaku_lines(r)
    assert got == {"riichi": 1, "menzen_tsumo": 1, "suuankou": 30, "suurenkou": 30}
    # 場ゾロ 2 + 門前 1 + リーチ 1 + ツモ 1 + 30 + 30 + 5ドラ 3 (055p) + 赤ドラ 1 (0p) = 69
    assert r.total == 69


def test_suurenkou_is_a_yakuman():
    """四連刻 (in the 役満 list)."""
    r = win(R, "055p99s", "9s", melds=[pon("222p"), pon("333p"), pon("444p")])
    assert yaku_lines(r)["suurenkou"] == 30


def test_kokushi_keeps_riichi_and_tsumo():
    r = win(R, "19m19p19s1234567z1p", "1p", win="tsumo", riichi=True)
    assert yaku_lines(r) == {"riichi": 1, "menzen_tsumo": 1, "kokushi": 30}


def test_north_may_be_held_for_a_yakuman():
    """北は役満和了時のみ手の内で使用できる."""
    r = win(R, "111222333z44z234p", "3p")
    assert yaku_lines(r)["shousuushii"] == 30


def test_north_in_the_hand_without_a_yakuman_is_rejected():
    with pytest.raises(ScoringError, match="gari in the hand"):
        win(R, "444z234678p234s99s", "3p", riichi=True)


def test_nagashi_is_20():
    """流し満貫 20 本."""
    r = win(R, **PLAIN, win="tsumo", nagashi=True)
    assert r.total == 20 and r.yakuman == 0


def test_karasu_a_final_count_of_exactly_3_becomes_15():
    """役を数えて最終的に 3 本のときは、カラスとして 15 本."""
    r = win(R, "234678p234s99s", "3p", melds=[PON_CHUN])   # 場ゾロ 2 + 中 1 = 3
    assert r.total == 15


@pytest.mark.parametrize("change", [dict(seat="east"), dict(honba=1)])
def test_karasu_only_at_exactly_3(change):
    """子の 0 本場、非門前でしかありえない: a dealer or a honba makes it 4."""
    r = win(R, "234678p234s99s", "3p", melds=[PON_CHUN], **change)
    assert r.total == 4


def test_round_wind_option_south():
    r = win(R, "234678p234s99s", "3p", melds=[pon("222z")], options={"round_wind": "2z"})
    got = yaku_lines(r)
    assert got == {"yakuhai_seat_wind": 1, "yakuhai_round_wind": 1}
    with pytest.raises(ScoringError, match="no yaku"):
        win(R, "234678p234s99s", "3p", melds=[pon("111z")], options={"round_wind": "2z"})
