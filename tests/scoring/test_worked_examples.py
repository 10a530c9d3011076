"""Every worked example printed in the seeds comes out exactly.

Seeds: /work/shared/seeds/000 (dunhill), 001 (balance), 002 (toutenkou),
003 (isshokai). Each hand is built to hold exactly what the seed lists, and
the expected numbers are the seed's own arithmetic, written out beside them.
"""

from rulebook import lines, win


class TestDunhillWorkedExamples:
    def test_example_1_norths_as_a_set_double_48_to_96(self):
        """点数数え方参考例 1: ドラ2 北4 親1 ピンフツモリャンペーコー5 バンバン5本場7
        ガリ8 赤❺赤❺赤伍11 親の懸賞場10 = 48; 北がセットで倍 48x2 = 96."""
        r = win("dunhill", "334400p667788s99s", "3p", seat="east", win="tsumo",
                gari="4444z0m1m9m9m", dora_indicators="8s", honba=5)
        assert [(i.key, i.points if i.factor == 1 else f"x{i.factor}") for i in r.items] == [
            ("honba", 5),          # 5本場
            ("banban", 2),         # バンバン   (5 + 2 = 7)
            ("dealer", 1),         # 親
            ("menzen_tsumo", 1),   # ツモ
            ("pinfu", 1),          # ピンフ
            ("ryanpeikou", 3),     # リャンペーコー (1 + 1 + 3 = 5)
            ("dora", 2),           # 8s indicator -> 9s, the 99s pair
            ("north", 4),          # 北 x4 at 1 each here; their gari point comes with ガリ
            ("gari", 8),           # 北北北北 赤伍 一 九 九 = 8 gari
            ("red", 11),           # 赤❺ 4 + 赤❺ 4 + 赤伍 3 (its gari 1 is in ガリ)
            ("bounty", 10),        # 親の懸賞場 (5 honba >= 3)
            ("gari_set", "x2"),    # 北がセットで倍
        ]
        # 2 + 4 + 1 + 5 + 7 + 8 + 11 + 10 = 48; 48 x 2 = 96
        assert r.total == 96
        assert r.bounty == 10
        assert dict(r.payments) == {"south": 96, "west": 96}
        assert r.received == 192

    def test_example_2_no_gari_triples_20_to_60(self):
        """参考例 2: 親1 ツモ一通3 バンバン2本場4 赤❺赤5赤5 12 = 20; ノーガリで3倍 = 60."""
        # 123p 4(0)6p 789p (ittsu), 34(0)s, pair 5(0)s; won on the 8p kanchan (no pinfu).
        r = win("dunhill", "123406789p3405s0s", "8p", seat="east", win="tsumo", honba=2)
        assert [(i.key, i.points if i.factor == 1 else f"x{i.factor}") for i in r.items] == [
            ("honba", 2),          # 2本場
            ("banban", 2),         # バンバン   (2 + 2 = 4)
            ("dealer", 1),         # 親
            ("menzen_tsumo", 1),   # ツモ
            ("ittsu", 2),          # 一通      (1 + 2 = 3)
            ("red", 12),           # 赤❺ 4 + 赤5 4 + 赤5 4
            ("karasu", "x3"),      # ノーガリで3倍
        ]
        # 1 + 3 + 4 + 12 = 20; 20 x 3 = 60
        assert r.total == 60
        assert r.bounty == 0       # 2 honba is below the bounty round (3)


class TestBalanceWorkedExample:
    def test_gari_1m1m_5m5m0m0m_9m9m9m_is_34_gari_points(self):
        """一一伍伍伍(赤)伍(赤)九九九: 一 2x2=4, 伍 (2+2+4+4)x2=24, 九 2x3=6; 4+24+6 = 34."""
        r = win("balance", "234678p234678s22s", "3p", gari="11m55m00m999m", honba=1)
        got = lines(r)
        # ガリ 9 x 2 = 18; 赤 (on the two red 5m gari) 2 x 2 = 4  -> 伍 unset would be 2+2+4+4 = 12;
        # the set of 伍 doubles it: + (2+2) + (2+2)... i.e. + 12 -> 伍 24.
        assert got["gari"] == 18
        assert got["red"] == 4
        assert got["gari_set"] == 12
        assert got["gari"] + got["gari_set"] + got["red"] == 34
        # The whole count: 1本場 1 + 場ゾロ 2 + タンヤオ 2 + 34 = 39
        assert r.total == 39


class TestToutenkouWorkedExamples:
    def test_example_1_twelve_all_twenty_four_in_all(self):
        """門前1 + 立直1 + 自摸1 + 白1 + 混一色3 + ガリ3 3 + バンバン2 = 12点オールで計24点."""
        r = win("toutenkou", "234567888p11p555z", "4p", win="tsumo", riichi=True, gari="19m4z")
        got = lines(r)
        assert got == {"banban": 2, "menzen": 1, "riichi": 1, "menzen_tsumo": 1,
                       "yakuhai_haku": 1, "honitsu": 3, "gari": 3}
        assert r.total == 12
        assert dict(r.payments) == {"east": 12, "west": 12}
        assert r.received == 24

    def test_example_2_chun_gari_banban_is_4_the_lowest_win(self):
        """中(1点) + ガリ1(1点) + バンバン(2点) = 4点(最低点)."""
        r = win("toutenkou", "234p567888s11p", "2p", melds=[{"kind": "pon", "tiles": "777z", "from": "west"}],
                gari="1m")
        assert lines(r) == {"banban": 2, "yakuhai_chun": 1, "gari": 1}
        assert r.total == 4

    def test_example_2_without_gari_is_karasu_not_3(self):
        """中 + バンバンのみの3点 ... それだとガリなしのカラスになってしまう: open karasu 20 is added."""
        r = win("toutenkou", "234p567888s11p", "2p", melds=[{"kind": "pon", "tiles": "777z", "from": "west"}])
        assert r.total != 3
        # 中 1 + バンバン 2 + 鳴きカラス 20 = 23 (karasu is one of the article's additive items)
        assert lines(r) == {"banban": 2, "yakuhai_chun": 1, "karasu": 20}
        assert r.total == 23


class TestIsshokaiWorkedExample:
    def test_red_5m_nukidora_under_a_5m_indicator_is_4_han(self):
        """ドラ表示牌が5萬のときの赤5萬は、通常のドラ・抜きドラ・5ドラ・赤ドラであるので、4 翻."""
        r = win("isshokai", "234678p234678s22s", "3p", gari="0m", dora_indicators="5m")
        got = lines(r)
        assert (got["dora"], got["gari"], got["fives"], got["red"]) == (1, 1, 1, 1)
        # 場ゾロ 2 + 門前 1 + タンヤオ 1 + (ドラ 1 + 抜きドラ 1 + 5ドラ 1 + 赤 1 = 4) = 8
        assert r.total == 8
