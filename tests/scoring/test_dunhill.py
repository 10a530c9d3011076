"""だんひるルール (seed 000): each yaku and item, as the seed's table says.

Unless a test says otherwise the south seat (not the dealer) wins by ron from
west and holds one gari, 1m (1 point), so that neither ノーガリ x3 nor 親 is
in the count.
"""

import pytest

from rulebook import PON_CHUN, ScoringError, lines, pon, win, yaku_lines

R = "dunhill"
G = {"gari": "1m"}



# --- yaku: four-player han values, chanta and junchan doubled --------------

# (yaku, hand, closed value) -- every hand is closed, won by ron unless noted.
CLOSED = [
    ("riichi", dict(concealed="234567p234678s99s", win_tile="3p", riichi=True), 1),
    ("double_riichi", dict(concealed="234567p234678s99s", win_tile="3p", double_riichi=True), 2),
    ("ippatsu", dict(concealed="234567p234678s99s", win_tile="3p", riichi=True, ippatsu=True), 1),
    ("menzen_tsumo", dict(concealed="234567p234678s99s", win_tile="3p", win="tsumo"), 1),
    ("pinfu", dict(concealed="234567p234678s99s", win_tile="2p"), 1),
    ("tanyao", dict(concealed="234567p234678s88s", win_tile="3p"), 1),
    ("iipeikou", dict(concealed="223344p567p678s99s", win_tile="3p"), 1),
    ("ryanpeikou", dict(concealed="223344p667788s99s", win_tile="3p"), 3),
    ("chiitoitsu", dict(concealed="11335599p226688s", win_tile="1p"), 2),
    ("sanankou", dict(concealed="222666p888s234s99s", win_tile="3s"), 2),
    ("shousangen", dict(concealed="555666z77z234789p", win_tile="3p"), 2),
    ("ittsu", dict(concealed="123456789p234s99s", win_tile="3s"), 2),
    ("chanta", dict(concealed="123789p123s99s777z", win_tile="3s"), 4),
    ("junchan", dict(concealed="123789p123789s11p", win_tile="3s"), 6),
    ("honitsu", dict(concealed="234567888p99p777z", win_tile="3p"), 3),
    ("chinitsu", dict(concealed="123345567888p99p", win_tile="2p"), 6),
]


@pytest.mark.parametrize("yaku,hand,value", CLOSED, ids=[c[0] for c in CLOSED])
def test_closed_yaku_value_is_the_seeds(yaku, hand, value):
    """四人麻雀と同じ: the closed value of each yaku (chanta 4, junchan 6)."""
    assert yaku_lines(win(R, **hand, **G))[yaku] == value


# (yaku, hand, open value): each hand holds a pon.
OPEN = [
    ("tanyao", dict(concealed="234567p234s66s", win_tile="3p", melds=[pon("888s")]), 1),
    ("yakuhai_chun", dict(concealed="234567p234s99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("toitoi", dict(concealed="666p888s99s", win_tile="9s", melds=[pon("222p"), pon("777s")]), 2),
    ("honroutou", dict(concealed="111p999p111s99s", win_tile="9s", melds=[PON_CHUN]), 2),
    ("ittsu", dict(concealed="123456789p99s", win_tile="3p", melds=[PON_CHUN]), 1),
    ("chanta", dict(concealed="123789p123s99s", win_tile="3s", melds=[PON_CHUN]), 2),
    ("junchan", dict(concealed="789p123789s99s", win_tile="3s", melds=[pon("111p")]), 3),
    ("honitsu", dict(concealed="234567888p99p", win_tile="3p", melds=[PON_CHUN]), 2),
    ("chinitsu", dict(concealed="123345567p99p", win_tile="2p", melds=[pon("888p")]), 5),
    ("shousangen", dict(concealed="77z234789p", win_tile="3p", melds=[pon("555z"), pon("666z")]), 2),
]


@pytest.mark.parametrize("yaku,hand,value", OPEN, ids=[c[0] for c in OPEN])
def test_open_yaku_value_is_the_seeds(yaku, hand, value):
    """鳴き: chanta 2, junchan 3, ittsu 1, honitsu 2, chinitsu 5; the rest keep their value."""
    assert yaku_lines(win(R, **hand, **G))[yaku] == value


def test_chanta_is_4_closed_and_2_open_in_dunhill():
    """チャンタ 4点(鳴き2点): the one yaku the seed doubles besides junchan."""
    closed = win(R, "123789p123s99s777z", "3s", **G)
    opened = win(R, "123789p123s99s", "3s", melds=[PON_CHUN], **G)
    # closed: バンバン 2 + 中 1 + チャンタ 4 + ガリ 1 = 8; open: 2 + 1 + 2 + 1 = 6
    assert (closed.total, opened.total) == (8, 6)


def test_junchan_is_6_closed_and_3_open_in_dunhill():
    """純チャン 6点(鳴き3点)."""
    assert yaku_lines(win(R, "123789p123789s11p", "3s", **G))["junchan"] == 6
    assert yaku_lines(win(R, "789p123789s99s", "3s", melds=[pon("111p")], **G))["junchan"] == 3


def test_double_riichi_replaces_riichi():
    """ダブリー 2 (四人麻雀と同じ): riichi 1 is not added beside it."""
    got = yaku_lines(win(R, "234567p234678s99s", "3p", double_riichi=True, **G))
    assert got == {"double_riichi": 2}


def test_ryanpeikou_replaces_iipeikou():
    got = yaku_lines(win(R, "223344p667788s99s", "3p", **G))
    assert "iipeikou" not in got and got["ryanpeikou"] == 3


def test_sankantsu_is_2_and_kans_count_ankan_4_minkan_2():
    """ミンカン 2点, アンカン 4点, 三槓子 2."""
    r = win(R, "234s99s", "3s", **G, melds=[
        {"kind": "ankan", "tiles": "7777p"},
        {"kind": "minkan", "tiles": "2222p", "from": "west"},
        {"kind": "minkan", "tiles": "8888s", "from": "east"}])
    got = lines(r)
    assert got["sankantsu"] == 2
    assert got["ankan"] == 4          # one ankan
    assert got["minkan"] == 4         # two minkan at 2
    # バンバン 2 + 三槓子 2 + 4 + 4 + ガリ 1 = 13
    assert r.total == 13


def test_yakuhai_dealer_east_counts_seat_and_round():
    """The dealer's East is both seat and round wind (場風は東のみ): 2."""
    r = win(R, "234p567p234s99s", "3s", seat="east", melds=[pon("111z")], **G)
    got = yaku_lines(r)
    assert got["yakuhai_seat_wind"] == 1 and got["yakuhai_round_wind"] == 1


def test_west_is_a_value_tile_only_for_the_west_seat():
    """場風は東のみ: a south seat's West triplet is no yaku."""
    with pytest.raises(ScoringError, match="no yaku"):
        win(R, "234p567p234s99s", "3s", melds=[pon("333z")], **G)
    r = win(R, "234p567p234s99s", "3s", seat="west", discarder="east", melds=[pon("333z", "east")],
            **G)
    assert yaku_lines(r) == {"yakuhai_seat_wind": 1}


@pytest.mark.parametrize("flag,how", [("rinshan", "tsumo"), ("chankan", "ron"),
                                      ("haitei", "tsumo"), ("houtei", "ron")])
def test_situational_yaku_are_1(flag, how):
    """嶺上・槍槓・海底・河底 1 each (四人麻雀と同じ)."""
    r = win(R, "234567p234678s99s", "3p", win=how, **{flag: True}, **G)
    assert yaku_lines(r)[flag] == 1


# --- items -------------------------------------------------------------------

def test_banban_is_2_and_each_honba_1():
    r = win(R, "234567p234678s88s", "3p", honba=2, **G)
    assert lines(r)["banban"] == 2 and lines(r)["honba"] == 2
    # 2本場 2 + バンバン 2 + タンヤオ 1 + ガリ 1 = 6
    assert r.total == 6


def test_dealer_is_1():
    r = win(R, "234567p234678s88s", "3p", seat="east", **G)
    assert lines(r)["dealer"] == 1
    assert r.total == 2 + 1 + 1 + 1   # バンバン 親 タンヤオ ガリ


def test_gari_1_each_north_2_each():
    """ガリ 1点; 北 2点 ※ガリの1点含む."""
    r = win(R, "234567p234678s88s", "3p", gari="1m9m44z")
    got = lines(r)
    assert got["gari"] == 4           # four gari at 1
    assert got["north"] == 2          # two North at 1 more each
    # バンバン 2 + タンヤオ 1 + ガリ 4 + 北 2 = 9 (1m 1, 9m 1, 北 2, 北 2)
    assert r.total == 9


def test_red_5m_gari_is_4_with_its_gari_point():
    """赤伍 4点 ※ガリの1点含む."""
    r = win(R, "234567p234678s88s", "3p", gari="0m")
    got = lines(r)
    assert got["gari"] + got["red"] == 4


def test_red_5p_and_red_5s_are_4_each():
    """赤❺・赤5 4点."""
    assert lines(win(R, "234406p234678s88s", "3p", **G))["red"] == 4   # 4(0)6p
    assert lines(win(R, "234567p234406s88s", "3p", **G))["red"] == 4   # 4(0)6s


def test_dora_and_ura_are_1_each_and_ura_only_counts_under_riichi():
    r = win(R, "234567p234678s99s", "3p", riichi=True, dora_indicators="8s", ura_indicators="8s", **G)
    got = lines(r)
    assert got["dora"] == 2 and got["ura"] == 2   # the 99s pair, twice
    with pytest.raises(ScoringError, match="ura"):
        win(R, "234567p234678s99s", "3p", dora_indicators="8s", ura_indicators="8s",
            melds=[], **G)


def test_no_menzen_item_in_dunhill():
    """だんひる lists no 門前 point (it is the toutenkou/chinton item)."""
    assert "menzen" not in lines(win(R, "234567p234678s88s", "3p", **G))


# --- multipliers ---------------------------------------------------------------

def test_one_gari_set_doubles_the_count():
    """同じ種類のガリが4枚揃ったらアガり点数が倍."""
    r = win(R, "234567p234678s88s", "3p", gari="1111m")
    # (バンバン 2 + タンヤオ 1 + ガリ 4) x 2 = 14
    assert lines(r)["gari_set"] == "x2"
    assert r.total == 14


def test_two_gari_sets_multiply_by_4():
    """2種類セットなら4倍."""
    r = win(R, "234567p234678s88s", "3p", gari="1111m4444z")
    # (2 + 1 + ガリ 8 + 北 4) x 4 = 60
    assert r.total == 60


def test_three_gari_sets_multiply_by_8():
    """3種類なら8倍."""
    r = win(R, "234567p234678s88s", "3p", gari="11119999m4444z")
    # (2 + 1 + ガリ 12 + 北 4) x 8 = 152
    assert r.total == 152


def test_no_gari_triples_the_count():
    """ノーガリ: ガリが一枚もなければ点数3倍."""
    r = win(R, "234567p234678s88s", "3p")
    # (バンバン 2 + タンヤオ 1) x 3 = 9
    assert lines(r)["karasu"] == "x3"
    assert r.total == 9


# --- bounty rounds (懸賞場) ----------------------------------------------------------

def test_no_bounty_below_3_honba():
    r = win(R, "234567p234678s88s", "3p", honba=2, **G)
    assert r.bounty == 0 and "bounty" not in lines(r)


@pytest.mark.parametrize("seat,bounty", [("east", 10), ("south", 5)])
def test_bounty_from_3_honba_dealer_10_non_dealer_5(seat, bounty):
    """3本場以上でアガると 親10点増し, 子5点増し."""
    r = win(R, "234567p234678s88s", "3p", seat=seat, discarder="west", honba=3, **G)
    assert r.bounty == bounty
    dealer = 1 if seat == "east" else 0
    # 3本場 3 + バンバン 2 + 親 + タンヤオ 1 + ガリ 1 + bounty
    assert r.total == 3 + 2 + dealer + 1 + 1 + bounty


def test_the_bounty_round_is_the_tables_whoever_counts_the_honba():
    """A win counting no honba (a double ron's second winner where the honba goes to the head alone)
    at the table's 3 honba is still in the bounty round: ``round_honba``."""
    from rulebook import record, score
    rec = record(R, "234567p234678s88s", "3p", seat="south", discarder="west", honba=0, **G)
    r = score(rec, round_honba=3)
    assert r.bounty == 5 and "honba" not in lines(r) and dict(r.payments) == {"west": r.total, "east": 5}
    assert score(rec).bounty == 0


def test_bounty_is_added_before_the_multiplier():
    """Worked example 1 adds 親の懸賞場 10 to the 48 before doubling."""
    r = win(R, "234567p234678s88s", "3p", honba=3, gari="1111m")
    # (3 + 2 + 1 + ガリ 4 + 懸賞 5) x 2 = 30
    assert r.total == 30


def test_bounty_doubles_on_tsumo_because_both_pay_it():
    """親がツモると二人の子から10点増し: each payer's count includes the bounty."""
    r = win(R, "234567p234678s88s", "3p", seat="east", win="tsumo", honba=3, **G)
    # 3 + 2 + 親 1 + ツモ 1 + タンヤオ 1 + ガリ 1 + 懸賞 10 = 19 from each
    assert dict(r.payments) == {"south": 19, "west": 19}


def test_lateral_ron_the_uninvolved_player_pays_the_bounty():
    """横移動で決着した場合は、無傷だった人はアガった人に懸賞分の点数を払います."""
    r = win(R, "234567p234678s88s", "3p", seat="south", discarder="west", honba=3, **G)
    # discarder: 3 + 2 + 1 + 1 + 5 = 12; the dealer (east), uninvolved, pays the bounty 5
    assert dict(r.payments) == {"west": 12, "east": 5}
    assert r.received == 17


# --- open riichi -----------------------------------------------------------------

def test_open_riichi_counts_2_riichi_included():
    got = yaku_lines(win(R, "234567p234678s99s", "3p", riichi=True, open_riichi=True, **G))
    assert got["riichi"] + got["open_riichi"] == 2


def test_open_riichi_option_1_counts_it_as_a_plain_riichi():
    got = yaku_lines(win(R, "234567p234678s99s", "3p", riichi=True, open_riichi=True,
                         options={"open_riichi_points": 1}, **G))
    assert sum(got.values()) == 1


def test_deal_in_to_an_open_riichi_is_a_yakuman():
    """手詰まりでオープンリーチ放銃は役満扱い (not stuck: option per hand)."""
    r = win(R, "234567p234678s99s", "3p", riichi=True, open_riichi=True,
            options={"open_riichi_deal_in": True}, **G)
    assert r.yakuman == 1
    # 役満 50 + バンバン 2 + ガリ 1 (items stay beside a yakuman, yaku do not)
    assert r.total == 53


# --- yakuman ----------------------------------------------------------------------------

def test_yakuman_is_50_and_ordinary_yaku_are_not_added():
    """Suuankou by tsumo: 役満 50; ツモ, 三暗刻, 対々 are not added, items are."""
    r = win(R, "222666p888s222s99s", "9s", win="tsumo", **G)
    assert yaku_lines(r) == {"suuankou": 50}
    # 50 + バンバン 2 + ガリ 1 = 53
    assert r.total == 53


def test_yakuman_stack():
    """Daisangen and tsuuiisou at once: 100."""
    r = win(R, "666777z111z22z", "2z", melds=[pon("555z")], **G)
    assert yaku_lines(r) == {"daisangen": 50, "tsuuiisou": 50}
    assert r.yakuman == 2
    assert r.total == 100 + 2 + 1


def test_all_six_reds_is_a_yakuman():
    """特殊役満: 赤6枚を使ったアガリ."""
    r = win(R, "340406p22p340406s", "3p", win="tsumo", gari="0m0m1m")
    assert yaku_lines(r) == {"all_reds": 50}
    # 50 + バンバン 2 + ガリ 3 + 赤 (4 x 4 + 3 x 2 = 22) = 77
    assert r.total == 77


def test_five_reds_are_no_yakuman():
    r = win(R, "340406p22p340456s", "3p", win="tsumo", gari="0m0m1m")
    assert r.yakuman == 0


def test_nagashi_is_a_yakuman():
    """特殊役満: 流し."""
    r = win(R, "234567p234678s99s", "3p", win="tsumo", nagashi=True)
    assert r.total == 50 and r.yakuman == 1


def test_nagashi_is_lost_by_a_riichi():
    """流し(鳴きやリーチ、アンカンで流しの権利消失)."""
    with pytest.raises(ScoringError, match="nagashi is lost by a riichi"):
        win(R, "234567p234678s99s", "3p", win="tsumo", nagashi=True, riichi=True)


def test_nagashi_is_lost_by_a_call():
    with pytest.raises(ScoringError, match="nagashi is lost by any call"):
        win(R, "234567p234s99s", "3p", win="tsumo", nagashi=True, melds=[pon("777z")])


def test_kokushi_cannot_hold_gari_in_dunhill():
    """マンズと北が全て抜きドラ: 1m 9m in the hand is rejected."""
    with pytest.raises(ScoringError, match="1m is a gari"):
        win(R, "19p19s1234567z1m9m1p", "1p")


def test_tenhou_and_chiihou_are_yakuman():
    r = win(R, "234678p234678s99s", "3p", seat="east", win="tsumo", tenhou=True, **G)
    assert yaku_lines(r) == {"tenhou": 50}
    r = win(R, "234678p234678s99s", "3p", win="tsumo", chiihou=True, **G)
    assert yaku_lines(r) == {"chiihou": 50}


def test_no_gari_triples_a_yakuman_too():
    """ノーガリ: 点数3倍 applies to whatever the count is: (50 + バンバン 2) x 3 = 156."""
    assert win(R, "222666p888s222s99s", "9s", win="tsumo").total == 156


# --- dora of the manzu and gari (documented choices) -----------------------------------------

def test_a_gari_of_the_dora_kind_counts_as_dora():
    """dora_counts_gari (default): 9m indicator -> 1m dora; the 1m gari is a dora too."""
    hand = dict(concealed="234678p234678s99s", win_tile="3p", riichi=True, gari="1m", dora_indicators="9m")
    assert lines(win(R, **hand))["dora"] == 1
    assert "dora" not in lines(win(R, **hand, options={"dora_counts_gari": False}))


def test_manzu_dora_is_the_next_manzu_in_the_wall():
    """1m 5m 9m in the wall: 1m -> 5m -> 9m -> 1m."""
    r = win(R, "234678p234678s99s", "3p", riichi=True, gari="5m", dora_indicators="1m")
    assert lines(r)["dora"] == 1


def test_lateral_ron_without_a_named_discarder_names_the_uninvolved_player():
    rec = dict(concealed="234567p234678s88s", win_tile="3p", honba=3, **G)
    from rulebook import record, score
    r = record(R, **rec)
    del r["discarder"]
    assert dict(score(r).payments) == {"discarder": 3 + 2 + 1 + 1 + 5, "uninvolved": 5}


# --- what the seed leaves unsaid about yakuman: options -------------------------------------------

SUUANKOU_DAISANGEN = dict(seat="south", win="tsumo", concealed="555z666z777z111z99p", win_tile="9p", gari="1m")


def test_two_yakuman_in_one_hand_count_twice_unless_the_table_says_once():
    """The seed says neither; balance's 「役満 ※複合あり」 is the table's usual reading (option
    ``yakuman_stack``)."""
    assert lines(win(R, **SUUANKOU_DAISANGEN)).keys() >= {"suuankou", "daisangen"}
    once = win(R, **SUUANKOU_DAISANGEN, options={"yakuman_stack": False})
    assert win(R, **SUUANKOU_DAISANGEN).total - once.total == 50


@pytest.mark.parametrize("value", [30, 50, 100])
def test_a_yakuman_is_worth_what_the_table_plays_it_at(value):
    """Not stated in the seed: 50 by the 東天紅 convention (RULES.md), 30 or 100 as an option."""
    r = win(R, **SUUANKOU_DAISANGEN, options={"yakuman_value": value, "yakuman_stack": False})
    assert lines(r)["suuankou"] == value
