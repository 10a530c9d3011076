"""Hand records -> arguments for the ``mahjong`` PyPI package (v2.1.0).

Test / benchmark helper only: ``mahjong`` is the independent engine the suite
cross-checks against (``pip install -e .[test]``); it is imported lazily, so
the scoring package itself never needs it.

    from scoring.mahjong_bridge import to_mahjong, mahjong_yaku_ids
    args = to_mahjong(record)                 # MahjongArgs: tiles, win_tile, melds, dora, ura, config
    resp = HandCalculator.estimate_hand_value(**args.kwargs())
    ids = mahjong_yaku_ids(resp.yaku, record["seat"])   # our yaku ids, dora items left out

Configuration (faithful to the dunhill reading of the hand, not its points):
open tanyao on, aka dora OFF (red fives are items in every preset, not
yaku), round wind East, seat wind by seat (east = dealer), three-player dora
order, double yakuman off (every yakuman is one unit, as in the presets), no
kiriage, renhou / nagashi / sashikomi / paarenchan not used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from .tiles import kind, parse_mpsz, parse_tile

EAST = 27
_SEAT_WIND = {"east": 27, "south": 28, "west": 29}

# mahjong yaku name -> our yaku ids (a name may stand for two of ours).
# Seat / round wind names are resolved separately (they depend on the seat).
NAME_TO_IDS: dict[str, tuple[str, ...]] = {
    "Menzen Tsumo": ("menzen_tsumo",),
    "Riichi": ("riichi",),
    "Open Riichi": ("riichi", "open_riichi"),
    "Double Riichi": ("double_riichi",),
    "Double Open Riichi": ("double_riichi", "open_riichi"),
    "Ippatsu": ("ippatsu",),
    "Chankan": ("chankan",),
    "Rinshan Kaihou": ("rinshan",),
    "Haitei Raoyue": ("haitei",),
    "Houtei Raoyui": ("houtei",),
    "Pinfu": ("pinfu",),
    "Tanyao": ("tanyao",),
    "Iipeiko": ("iipeikou",),
    "Yakuhai (haku)": ("yakuhai_haku",),
    "Yakuhai (hatsu)": ("yakuhai_hatsu",),
    "Yakuhai (chun)": ("yakuhai_chun",),
    "Chiitoitsu": ("chiitoitsu",),
    "Chantai": ("chanta",),
    "Ittsu": ("ittsu",),
    "Sanshoku Doujun": ("sanshoku_doujun",),
    "Sanshoku Doukou": ("sanshoku_doukou",),
    "San Kantsu": ("sankantsu",),
    "Toitoi": ("toitoi",),
    "San Ankou": ("sanankou",),
    "Shou Sangen": ("shousangen",),
    "Honroutou": ("honroutou",),
    "Ryanpeikou": ("ryanpeikou",),
    "Junchan": ("junchan",),
    "Honitsu": ("honitsu",),
    "Chinitsu": ("chinitsu",),
    "Kokushi Musou": ("kokushi",),
    "Kokushi Musou Juusanmen Matchi": ("kokushi",),
    "Chuuren Poutou": ("chuuren",),
    "Daburu Chuuren Poutou": ("chuuren",),
    "Suu Ankou": ("suuankou",),
    "Suu Ankou Tanki": ("suuankou",),
    "Daisangen": ("daisangen",),
    "Shousuushii": ("shousuushii",),
    "Dai Suushii": ("daisuushii",),
    "Tsuu Iisou": ("tsuuiisou",),
    "Chinroutou": ("chinroutou",),
    "Ryuuiisou": ("ryuuiisou",),
    "Suu Kantsu": ("suukantsu",),
    "Tenhou": ("tenhou",),
    "Chiihou": ("chiihou",),
}
# items, not yaku: left out of the comparison
ITEM_NAMES = frozenset({"Dora", "Aka Dora", "Ura Dora"})


def _lazy():
    from mahjong.constants import EAST as M_EAST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld
    assert M_EAST == EAST
    return HandCalculator, HandConfig, OptionalRules, Meld


@dataclass
class MahjongArgs:
    tiles: list[int]
    win_tile: int
    melds: list[Any]
    dora_indicators: list[int]
    ura_dora_indicators: list[int]
    config: Any

    def kwargs(self) -> dict[str, Any]:
        return {"tiles": self.tiles, "win_tile": self.win_tile, "melds": self.melds,
                "dora_indicators": self.dora_indicators, "config": self.config,
                "ura_dora_indicators": self.ura_dora_indicators}


def make_config(record: Mapping[str, Any], *, dunhill_han: bool = False):
    """A HandConfig for ``record``.

    ``dunhill_han``: give mahjong's yaku the dunhill values where they differ
    (chanta 4/2, junchan 6/3) so that, with :class:`HanOnlyScores`, mahjong
    picks the reading the dunhill count prefers (see the cross-check test).
    """
    _, HandConfig, OptionalRules, _ = _lazy()
    g = record.get
    double = bool(g("double_riichi"))
    cfg = HandConfig(
        is_tsumo=g("win") == "tsumo",
        is_riichi=bool(g("riichi") or g("open_riichi")) and not double,
        is_daburu_riichi=double,
        is_open_riichi=bool(g("open_riichi")),
        is_ippatsu=bool(g("ippatsu")),
        is_rinshan=bool(g("rinshan")),
        is_chankan=bool(g("chankan")),
        is_haitei=bool(g("haitei")),
        is_houtei=bool(g("houtei")),
        is_tenhou=bool(g("tenhou")),
        is_chiihou=bool(g("chiihou")),
        player_wind=_SEAT_WIND[record["seat"]],
        round_wind=EAST,
        tsumi_number=int(g("honba") or 0),
        options=OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=False,
            has_double_yakuman=False,
            is_three_player=True,
        ),
    )
    if dunhill_han:
        cfg.yaku.chantai.han_closed, cfg.yaku.chantai.han_open = 4, 2
        cfg.yaku.junchan.han_closed, cfg.yaku.junchan.han_open = 6, 3
    return cfg


class HanOnlyScores:
    """A ``scores_calculator_factory`` that ranks readings by han alone.

    The dunhill count has no fu and no limits: a reading is worth the sum of
    its yaku values, a yakuman 50 points each (more than any sum of yaku).
    """

    @staticmethod
    def calculate_scores(han: int, fu: int, config: Any, is_yakuman: bool = False) -> dict:
        total = han * 1000 if is_yakuman else han
        return {"main": total, "additional": 0, "main_bonus": 0, "additional_bonus": 0,
                "kyoutaku_bonus": 0, "total": total, "yaku_level": ""}


def to_mahjong(record: Mapping[str, Any], *, dunhill_han: bool = False) -> MahjongArgs:
    """The 136-tile arrays, melds and config for ``record`` (concealed + meld tiles)."""
    _, _, _, Meld = _lazy()
    used = [0] * 34

    def ids(codes) -> list[int]:
        out = []
        for c in codes:
            k = kind(c)
            out.append(k * 4 + used[k] % 4)
            used[k] += 1
        return out

    concealed = parse_mpsz(record["concealed"])
    win_code = parse_tile(record["win_tile"])
    c_ids = ids(concealed)
    win_tile = c_ids[concealed.index(win_code)]
    tiles = list(c_ids)
    melds = []
    for m in record.get("melds") or ():
        m_ids = ids(parse_mpsz(m["tiles"]))
        tiles += m_ids
        mk = m["kind"]
        if mk == "pon":
            melds.append(Meld(Meld.PON, m_ids, opened=True))
        elif mk == "kakan":
            melds.append(Meld(Meld.SHOUMINKAN, m_ids, opened=True))
        else:
            melds.append(Meld(Meld.KAN, m_ids, opened=(mk == "minkan")))
    dora = ids(parse_mpsz(record.get("dora_indicators") or ""))
    ura = ids(parse_mpsz(record.get("ura_indicators") or ""))
    return MahjongArgs(tiles, win_tile, melds, dora, ura, make_config(record, dunhill_han=dunhill_han))


def mahjong_yaku_ids(yaku_list, seat: str) -> list[str]:
    """mahjong's yaku (a HandResponse.yaku list) as our ids, items left out.

    Raises KeyError for a yaku name this map does not know (so a new name fails loudly).
    """
    seat_name = {"east": "East", "south": "South", "west": "West"}[seat]
    out: list[str] = []
    for y in yaku_list or ():
        name = y.name
        if name in ITEM_NAMES:
            continue
        if name.startswith("Yakuhai (seat wind"):
            out.append("yakuhai_seat_wind")
        elif name.startswith("Yakuhai (round wind"):
            out.append("yakuhai_round_wind")
        elif name.startswith("Yakuhai (wind of place") or name.startswith("Yakuhai (wind of round"):
            out.append("yakuhai_seat_wind" if "place" in name else "yakuhai_round_wind")
        else:
            out.extend(NAME_TO_IDS[name])
    return out
