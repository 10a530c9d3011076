"""One small unit per yaku: its names, its condition, what it implies.

Values are not here: each preset file says what a yaku is worth closed and
open (``[yaku]``) or as a yakuman (``[yakuman]``). A condition returns how
many times the yaku applies (0 = it does not; yakuhai can apply more than
once). ``Hand`` holds the facts of the whole hand, ``Reading`` one way of
reading it (see decompose.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

from .tiles import CHUN, DRAGONS, HAKU, HATSU, NORTH, WINDS

STANDARD, CHIITOI, KOKUSHI = "standard", "chiitoitsu", "kokushi"
_GREEN = frozenset({19, 20, 21, 23, 25, HATSU})  # 2s 3s 4s 6s 8s and hatsu


def _mask(kinds) -> int:
    m = 0
    for k in kinds:
        m |= 1 << k
    return m


TERMINAL_MASK = _mask(k for k in range(27) if k % 9 in (0, 8))
SIMPLE_MASK = _mask(k for k in range(27) if k % 9 not in (0, 8))
HONOR_MASK = _mask(range(27, 34))
GREEN_MASK = _mask(_GREEN)
SUIT_MASKS = tuple(_mask(range(9 * s, 9 * s + 9)) for s in range(3))
KIND_BITS = tuple(1 << k for k in range(34))


class Hand(NamedTuple):
    """Facts of a whole hand that do not depend on how it is read.

    ``mask`` has bit k set when kind k is in the concealed tiles or the melds.
    """

    counts: tuple[int, ...]        # concealed, 34 kinds
    mask: int
    closed: bool
    tsumo: bool
    n_kans: int
    seat_wind: int
    round_winds: tuple[int, ...]
    value_winds: tuple[int, ...]
    flags: frozenset[str]          # the record's true flags (riichi, ippatsu, ...)
    suit: int | None               # the one suit of a one-suit-and-honours hand, else None
    dealer: bool
    green_needs_hatsu: bool = False
    deal_in_to_open_riichi: bool = False
    six_reds: bool = False
    all_gari: bool = False


class Reading(NamedTuple):
    """One reading. ``trips`` are (kind, concealed, kan) for every triplet and kan,
    melds included; a triplet completed by ron is not concealed."""

    form: str
    seqs: tuple[int, ...] = ()
    trips: tuple[tuple[int, bool, bool], ...] = ()
    pair: int = -1
    pairs: tuple[int, ...] = ()
    wait: str = ""
    trip_kinds: tuple[int, ...] = ()
    n_concealed: int = 0
    n_kans: int = 0
    honor_trips: bool = False


def readings_by_wait(seqs, trips, pair, waits) -> list[Reading]:
    """Standard readings of one set of sets and pair, one per wait (their facts are shared)."""
    if not trips:  # all sequences
        return [Reading(STANDARD, seqs, trips, pair, (), wait, (), 0, 0, False) for wait in waits]
    kinds = tuple([k for k, _, _ in trips])
    n_concealed = n_kans = 0
    for _, concealed, kan in trips:
        n_concealed += concealed
        n_kans += kan
    honor_trips = bool(kinds) and max(kinds) >= 27
    return [Reading(STANDARD, seqs, trips, pair, (), wait, kinds, n_concealed, n_kans, honor_trips)
            for wait in waits]


@dataclass(frozen=True)
class Yaku:
    id: str
    ja: str
    en: str
    test: Callable[[Hand, Reading], int]
    forms: tuple[str, ...] = (STANDARD,)
    implies: tuple[str, ...] = ()   # yaku always present with this one (not added beside a yakuman)
    value_key: str = ""             # preset key holding its value, when not its id
    # What the condition looks at, so the engine asks it only when it can hold.
    # Asked once per hand: "hand" (the whole hand), "flags" (the record's flags:
    # only when one of ``flags`` is set), "one_suit" (only a hand of one suit and
    # honours), "no_simples" (only a hand without simples). Asked per reading:
    # "seqs", "three_trips", "dragon_trips", "wind_trips" (a reading with
    # sequences / three or more triplets / a dragon triplet / a wind triplet),
    # or "reading".
    needs: str = "reading"
    flags: tuple[str, ...] = ()     # for needs "flags": the flags the condition reads

    @property
    def key(self) -> str:
        return self.value_key or self.id


ALL_FORMS = (STANDARD, CHIITOI, KOKUSHI)
NOT_KOKUSHI = (STANDARD, CHIITOI)


def _flag(name: str) -> Callable[[Hand, Reading], int]:
    return lambda h, r: int(name in h.flags)


def _blocks_all(r: Reading, ok: tuple[bool, ...]) -> bool:
    """Every set and the pair contain a kind k for which ok[k] holds."""
    if r.form == CHIITOI:
        return all(map(ok.__getitem__, r.pairs))
    # The pair first: it is the likeliest to fail.
    return (ok[r.pair] and all([ok[s] or ok[s + 2] for s in r.seqs])
            and all(map(ok.__getitem__, r.trip_kinds)))


# ok tables for _blocks_all, per kind 0-33
_TERMINAL_OR_HONOR = tuple(k >= 27 or k % 9 in (0, 8) for k in range(34))
_TERMINAL = tuple(k < 27 and k % 9 in (0, 8) for k in range(34))


# --- situational yaku -----------------------------------------------------

def riichi(h: Hand, r: Reading) -> int:
    """Riichi (立直): declared closed; an open riichi is a riichi too."""
    return int("riichi" in h.flags or "open_riichi" in h.flags)


def menzen_tsumo(h: Hand, r: Reading) -> int:
    """Menzen tsumo (門前清自摸和): a closed hand wins on its own draw."""
    return int(h.closed and h.tsumo)


# --- hand shape -----------------------------------------------------------

def pinfu(h: Hand, r: Reading) -> int:
    """Pinfu (平和): closed, four sequences, a pair of no value, a two-sided wait."""
    return int(h.closed and len(r.seqs) == 4 and r.wait == "ryanmen"
               and r.pair not in DRAGONS and r.pair not in h.value_winds)


def _peikou(r: Reading) -> int:
    if len(set(r.seqs)) == len(r.seqs):  # the usual case: no sequence twice
        return 0
    seen: dict[int, int] = {}
    for s in r.seqs:
        seen[s] = seen.get(s, 0) + 1
    return sum(n // 2 for n in seen.values())


def iipeikou(h: Hand, r: Reading) -> int:
    """Iipeikou (一盃口): two identical sequences (ryanpeikou replaces it)."""
    return int(_peikou(r) == 1)


def ryanpeikou(h: Hand, r: Reading) -> int:
    """Ryanpeikou (二盃口): two pairs of identical sequences, closed."""
    return int(h.closed and _peikou(r) == 2)


def tanyao(h: Hand, r: Reading) -> int:
    """Tanyao (断么九): simples only."""
    return int(not h.mask & (TERMINAL_MASK | HONOR_MASK))


def _yakuhai(tile: int) -> Callable[[Hand, Reading], int]:
    def test(h: Hand, r: Reading) -> int:
        return int(tile in r.trip_kinds)
    return test


def yakuhai_seat(h: Hand, r: Reading) -> int:
    """Seat wind (自風): a triplet of one's own wind."""
    return int(h.seat_wind in r.trip_kinds)


def yakuhai_round(h: Hand, r: Reading) -> int:
    """Round wind (場風): one per triplet of a round wind (balance has two)."""
    return sum(1 for w in h.round_winds if w in r.trip_kinds)


def chiitoitsu(h: Hand, r: Reading) -> int:
    """Chiitoitsu (七対子): seven pairs (presets say whether a kind may make two)."""
    return 1


def toitoi(h: Hand, r: Reading) -> int:
    """Toitoi (対々和): four triplets or kans."""
    return int(len(r.trips) == 4)


def sanankou(h: Hand, r: Reading) -> int:
    """Sanankou (三暗刻): three concealed triplets (ankan count; a triplet won by ron does not)."""
    return int(r.n_concealed == 3)


def sankantsu(h: Hand, r: Reading) -> int:
    """Sankantsu (三槓子): three kans."""
    return int(r.n_kans == 3)


def _kinds_tripled(r: Reading, kinds) -> set[int]:
    # a kind can make two triplets where a wildcard adds copies (chinton's haku): one kind still counts
    # once, as the seed's 四喜和 must hold 東南西北
    return set(r.trip_kinds).intersection(kinds)


def shousangen(h: Hand, r: Reading) -> int:
    """Shousangen (小三元): triplets of two dragons and a pair of the third."""
    tripled = _kinds_tripled(r, DRAGONS)
    return int(len(tripled) == 2 and r.pair in DRAGONS and r.pair not in tripled)


def honroutou(h: Hand, r: Reading) -> int:
    """Honroutou (混老頭): terminals and honours only, both present."""
    m = h.mask
    return int(not m & ~(TERMINAL_MASK | HONOR_MASK) and bool(m & HONOR_MASK) and bool(m & TERMINAL_MASK))


def ittsu(h: Hand, r: Reading) -> int:
    """Ittsu (一気通貫): 123, 456 and 789 of one suit."""
    if len(r.seqs) < 3:
        return 0
    s = set(r.seqs)
    return int(any(b in s and b + 3 in s and b + 6 in s for b in (0, 9, 18)))


def sanshoku_doukou(h: Hand, r: Reading) -> int:
    """Sanshoku doukou (三色同刻): triplets of one number in all three suits."""
    t = r.trip_kinds
    return int(len(t) >= 3 and any(n in t and n + 9 in t and n + 18 in t for n in t if n < 9))


def chanta(h: Hand, r: Reading) -> int:
    """Chanta (混全帯么九): every set and the pair hold a terminal or honour; a sequence; an honour."""
    return int(bool(r.seqs) and bool(h.mask & HONOR_MASK) and _blocks_all(r, _TERMINAL_OR_HONOR))


def junchan(h: Hand, r: Reading) -> int:
    """Junchan (純全帯么九): every set and the pair hold a terminal; a sequence; no honours."""
    return int(bool(r.seqs) and not h.mask & HONOR_MASK and _blocks_all(r, _TERMINAL))


def honitsu(h: Hand, r: Reading) -> int:
    """Honitsu (混一色): one suit and honours (chinitsu when no honours)."""
    return int(h.suit is not None and bool(h.mask & HONOR_MASK))


def chinitsu(h: Hand, r: Reading) -> int:
    """Chinitsu (清一色): one suit only."""
    return int(h.suit is not None and not h.mask & HONOR_MASK)


def _runs(r: Reading) -> int:
    """Longest run of suited triplets on consecutive numbers of one suit."""
    t = {k for k in r.trip_kinds if k < 27}
    best = 0
    for k in t:
        if k % 9 == 0 or k - 1 not in t:
            n = 1
            while (k + n) % 9 and k + n in t:
                n += 1
            best = max(best, n)
    return best


def sanrenkou(h: Hand, r: Reading) -> int:
    """Sanrenkou (三連刻): triplets of three consecutive numbers of one suit."""
    return int(_runs(r) == 3)


# --- yakuman ----------------------------------------------------------------

def kokushi(h: Hand, r: Reading) -> int:
    """Kokushi musou (国士無双): one of each terminal and honour, one of them paired."""
    return 1


def suuankou(h: Hand, r: Reading) -> int:
    """Suuankou (四暗刻): four concealed triplets."""
    return int(r.n_concealed == 4)


def daisangen(h: Hand, r: Reading) -> int:
    """Daisangen (大三元): triplets of all three dragons."""
    return int(len(_kinds_tripled(r, DRAGONS)) == 3)


def shousuushii(h: Hand, r: Reading) -> int:
    """Shousuushii (小四喜): triplets of three winds and a pair of the fourth."""
    tripled = _kinds_tripled(r, WINDS)
    return int(len(tripled) == 3 and r.pair in WINDS and r.pair not in tripled)


def daisuushii(h: Hand, r: Reading) -> int:
    """Daisuushii (大四喜): four wind triplets."""
    return int(len(_kinds_tripled(r, WINDS)) == 4)


def tsuuiisou(h: Hand, r: Reading) -> int:
    """Tsuuiisou (字一色): honours only."""
    return int(not h.mask & ~HONOR_MASK)


def chinroutou(h: Hand, r: Reading) -> int:
    """Chinroutou (清老頭): terminals only."""
    return int(not h.mask & ~TERMINAL_MASK)


def ryuuiisou(h: Hand, r: Reading) -> int:
    """Ryuuiisou (緑一色): 2 3 4 6 8 sou and hatsu only (hatsu required where a preset says)."""
    return int(not h.mask & ~GREEN_MASK and (bool(h.mask >> HATSU & 1) or not h.green_needs_hatsu))


def chuuren(h: Hand, r: Reading) -> int:
    """Chuuren poutou (九蓮宝燈): closed 1112345678999 of one suit plus any tile of it."""
    if not h.closed or h.n_kans or h.suit is None or h.mask & HONOR_MASK:
        return 0
    c = h.counts[9 * h.suit: 9 * h.suit + 9]
    return int(all(n >= need for n, need in zip(c, (3, 1, 1, 1, 1, 1, 1, 1, 3))))


def suukantsu(h: Hand, r: Reading) -> int:
    """Suukantsu (四槓子): four kans."""
    return int(r.n_kans == 4)


def suurenkou(h: Hand, r: Reading) -> int:
    """Suurenkou (四連刻): triplets of four consecutive numbers of one suit."""
    return int(_runs(r) == 4)


def daisharin(h: Hand, r: Reading) -> int:
    """Daisharin (大車輪): pairs of 2p to 8p."""
    return int(r.form == CHIITOI and sorted(r.pairs) == list(range(10, 17)))


def tenhou(h: Hand, r: Reading) -> int:
    """Tenhou (天和): the dealer wins on the first draw."""
    return int("tenhou" in h.flags and h.dealer and h.tsumo)


def chiihou(h: Hand, r: Reading) -> int:
    """Chiihou (地和): a non-dealer wins on the first draw."""
    return int("chiihou" in h.flags and not h.dealer and h.tsumo)


def renhou(h: Hand, r: Reading) -> int:
    """Renhou (人和): a non-dealer wins by ron before the first draw."""
    return int("renhou" in h.flags and not h.dealer and not h.tsumo)


def open_riichi_deal_in(h: Hand, r: Reading) -> int:
    """A deal-in to an open riichi that the rule counts as yakuman (the option says so: dunhill
    and balance "手詰まりでオープンリーチ放銃は役満扱い", chinton "立直者以外が放銃すると役満")."""
    return int(h.deal_in_to_open_riichi and "open_riichi" in h.flags and not h.tsumo)


def all_reds(h: Hand, r: Reading) -> int:
    """A win using all six red fives (dunhill): yakuman."""
    return int(h.six_reds)


def all_gari(h: Hand, r: Reading) -> int:
    """Every gari of the wall collected (toutenkou): yakuman."""
    return int(h.all_gari)


def _y(id, ja, en, test, forms=(STANDARD,), implies=(), value_key="", needs="reading", flags=()):
    return Yaku(id, ja, en, test, forms, implies, value_key, needs, flags)


def _flag_unit(id, ja, en):
    """A yaku that is its record flag of the same name, whatever the hand."""
    return _y(id, ja, en, _flag(id), ALL_FORMS, needs="flags", flags=(id,))


YAKU: tuple[Yaku, ...] = (
    _y("riichi", "立直", "Riichi", riichi, ALL_FORMS, needs="flags", flags=("riichi", "open_riichi")),
    _flag_unit("double_riichi", "ダブル立直", "Double riichi"),
    _flag_unit("open_riichi", "オープン立直", "Open riichi"),
    _flag_unit("ippatsu", "一発", "Ippatsu"),
    _y("menzen_tsumo", "門前清自摸和", "Menzen tsumo", menzen_tsumo, ALL_FORMS, needs="hand"),
    _y("pinfu", "平和", "Pinfu", pinfu, needs="seqs"),
    _y("tanyao", "断么九", "Tanyao", tanyao, NOT_KOKUSHI, needs="hand"),
    _y("iipeikou", "一盃口", "Iipeikou", iipeikou, needs="seqs"),
    _y("ryanpeikou", "二盃口", "Ryanpeikou", ryanpeikou, needs="seqs"),
    _y("yakuhai_haku", "役牌 白", "Yakuhai: haku", _yakuhai(HAKU), value_key="yakuhai", needs="dragon_trips"),
    _y("yakuhai_hatsu", "役牌 發", "Yakuhai: hatsu", _yakuhai(HATSU), value_key="yakuhai", needs="dragon_trips"),
    _y("yakuhai_chun", "役牌 中", "Yakuhai: chun", _yakuhai(CHUN), value_key="yakuhai", needs="dragon_trips"),
    _y("yakuhai_seat_wind", "自風", "Seat wind", yakuhai_seat, value_key="yakuhai", needs="wind_trips"),
    _y("yakuhai_round_wind", "場風", "Round wind", yakuhai_round, value_key="yakuhai", needs="wind_trips"),
    _flag_unit("rinshan", "嶺上開花", "Rinshan kaihou"),
    _flag_unit("chankan", "槍槓", "Chankan"),
    _flag_unit("haitei", "海底摸月", "Haitei"),
    _flag_unit("houtei", "河底撈魚", "Houtei"),
    _y("chiitoitsu", "七対子", "Chiitoitsu", chiitoitsu, (CHIITOI,)),
    _y("toitoi", "対々和", "Toitoi", toitoi, needs="three_trips"),
    _y("sanankou", "三暗刻", "Sanankou", sanankou, needs="three_trips"),
    _y("sankantsu", "三槓子", "Sankantsu", sankantsu, needs="three_trips"),
    _y("shousangen", "小三元", "Shousangen", shousangen,
       implies=("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun"), needs="dragon_trips"),
    _y("honroutou", "混老頭", "Honroutou", honroutou, NOT_KOKUSHI, needs="no_simples"),
    _y("ittsu", "一気通貫", "Ittsu", ittsu, needs="seqs"),
    _y("sanshoku_doukou", "三色同刻", "Sanshoku doukou", sanshoku_doukou, needs="three_trips"),
    _y("chanta", "混全帯么九", "Chanta", chanta, needs="seqs"),
    _y("junchan", "純全帯么九", "Junchan", junchan, needs="seqs"),
    _y("honitsu", "混一色", "Honitsu", honitsu, NOT_KOKUSHI, needs="one_suit"),
    _y("chinitsu", "清一色", "Chinitsu", chinitsu, NOT_KOKUSHI, needs="one_suit"),
    _y("sanrenkou", "三連刻", "Sanrenkou", sanrenkou, needs="three_trips"),
)

YAKUMAN: tuple[Yaku, ...] = (
    _y("kokushi", "国士無双", "Kokushi musou", kokushi, (KOKUSHI,)),
    _y("suuankou", "四暗刻", "Suuankou", suuankou, implies=("sanankou", "toitoi"), needs="three_trips"),
    _y("daisangen", "大三元", "Daisangen", daisangen,
       implies=("yakuhai_haku", "yakuhai_hatsu", "yakuhai_chun"), needs="dragon_trips"),
    _y("shousuushii", "小四喜", "Shousuushii", shousuushii, needs="wind_trips"),
    _y("daisuushii", "大四喜", "Daisuushii", daisuushii,
       implies=("toitoi", "yakuhai_seat_wind", "yakuhai_round_wind"), needs="wind_trips"),
    _y("tsuuiisou", "字一色", "Tsuuiisou", tsuuiisou, NOT_KOKUSHI, implies=("honroutou",), needs="no_simples"),
    _y("chinroutou", "清老頭", "Chinroutou", chinroutou, NOT_KOKUSHI,
       implies=("toitoi", "honroutou", "junchan", "chanta"), needs="no_simples"),
    _y("ryuuiisou", "緑一色", "Ryuuiisou", ryuuiisou, NOT_KOKUSHI, needs="hand"),
    _y("chuuren", "九蓮宝燈", "Chuuren poutou", chuuren, implies=("chinitsu",), needs="one_suit"),
    _y("suukantsu", "四槓子", "Suukantsu", suukantsu, implies=("sankantsu", "toitoi"), needs="three_trips"),
    _y("suurenkou", "四連刻", "Suurenkou", suurenkou, implies=("toitoi", "sanrenkou"), needs="three_trips"),
    _y("daisharin", "大車輪", "Daisharin", daisharin, (CHIITOI,),
       implies=("chiitoitsu", "tanyao", "chinitsu")),
    _y("tenhou", "天和", "Tenhou", tenhou, ALL_FORMS, implies=("menzen_tsumo",), needs="flags",
       flags=("tenhou",)),
    _y("chiihou", "地和", "Chiihou", chiihou, ALL_FORMS, implies=("menzen_tsumo",), needs="flags",
       flags=("chiihou",)),
    _y("renhou", "人和", "Renhou", renhou, ALL_FORMS, needs="flags", flags=("renhou",)),
    _y("open_riichi_deal_in", "オープン立直放銃", "Deal-in to open riichi", open_riichi_deal_in,
       ALL_FORMS, needs="flags", flags=("open_riichi",)),
    _y("all_reds", "赤6枚", "All six reds", all_reds, ALL_FORMS, needs="hand"),
    _y("all_gari", "ガリ全部", "All gari", all_gari, ALL_FORMS, needs="hand"),
    # Scored apart from the hand's shape (engine._nagashi); listed for its names.
    _y("nagashi", "流し満貫", "Nagashi mangan", lambda h, r: 0, ()),
)

BY_ID: dict[str, Yaku] = {y.id: y for y in YAKU + YAKUMAN}
# Ordinary yaku that a stronger one replaces (never both counted).
REPLACED_BY = {"iipeikou": "ryanpeikou"}
NORTH_KIND = NORTH
