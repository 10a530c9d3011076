"""A preset digested once into the plain values the engine reads per hand.

The preset file stays the source of truth; this only looks its values up
ahead of time so that scoring a hand does no dictionary digging.
"""

from __future__ import annotations

from typing import Any, Mapping

from .presets import Preset
from .tiles import CHUN, EAST, HAKU, HATSU, NORTH, SOUTH, WEST, kind, parse_tile
from .yaku import CHIITOI, KOKUSHI, REPLACED_BY, STANDARD, YAKU, YAKUMAN, Yaku

# The reading needs, as (group, bit): units are asked group by group, in this
# order, and in preset order within a group (the order of the count's lines);
# dragon and wind triplets are one group. bit: the reading_asks bit (0: always).
_NEEDS = {"reading": (0, 0), "seqs": (1, 1), "three_trips": (2, 2), "dragon_trips": (3, 4), "wind_trips": (3, 8)}
SIDES = (0, 1)   # index of a yaku's value: closed, open


def _kind(text: str) -> int:
    return kind(parse_tile(text))


def reading_asks(r) -> int:
    """Which of the reading _NEEDS a reading meets, as bits: 1 it has
    sequences, 2 three or more triplets, 4 a dragon triplet, 8 a wind triplet."""
    asks = 1 if r.seqs else 0
    if r.trip_kinds:
        kinds = r.trip_kinds
        if len(kinds) >= 3:
            asks |= 2
        if r.honor_trips:
            if HAKU in kinds or HATSU in kinds or CHUN in kinds:
                asks |= 4
            if EAST in kinds or SOUTH in kinds or WEST in kinds or NORTH in kinds:
                asks |= 8
    return asks


def _asked(units: tuple, form: str, asks: int) -> tuple:
    """Units of one reading form that a reading with these asks bits is asked, in _NEEDS order."""
    picked = [(y, v) for y, v in units if y.needs in _NEEDS and form in y.forms
              and (not _NEEDS[y.needs][1] or asks & _NEEDS[y.needs][1])]
    return tuple(sorted(picked, key=lambda unit: _NEEDS[unit[0].needs][0]))  # stable: preset order kept


class Table:
    """The engine's view of one resolved preset (cached per preset object)."""

    _cache: dict[int, "Table"] = {}

    @classmethod
    def of(cls, preset: Preset) -> "Table":
        t = cls._cache.get(id(preset))
        if t is None or t.preset is not preset:
            t = cls._cache[id(preset)] = cls(preset)
        return t

    def __init__(self, preset: Preset) -> None:
        self.preset = preset
        self.options: Mapping[str, Any] = preset.options
        self.unit = preset.unit
        tiles = preset.section("tiles")
        self.manzu = frozenset(n - 1 for n in tiles.get("manzu", [1, 5, 9]))
        self.copies = int(tiles.get("copies", 4))
        self.suit_copies = int(tiles.get("suit_copies", self.copies))
        self.single_suit = bool(tiles.get("single_suit", False))
        red = tiles.get("red", {})
        self.red_limit = tuple(int(red.get(s, 0)) for s in "mps")
        self.red_total = sum(self.red_limit)
        self.gari = frozenset(_kind(x) for x in tiles.get("gari", []))
        self.gari_total = 4 * len(self.gari)
        gih = tiles.get("gari_in_hand", {})
        self.gari_in_hand = frozenset(_kind(x) for x in gih.get("kinds", []))
        self.gari_in_hand_for = tuple(gih.get("for", []))
        self.gari_in_hand_not_for = frozenset(gih.get("not_for", []))   # yaku that may not use one
        self.gari_in_hand_concealed = bool(gih.get("concealed", False))  # never called, never a kan
        self.gari_not_in_hand = tuple(k for k in self.gari if k not in self.gari_in_hand)
        self.round_winds = tuple(_kind(x) for x in tiles.get("round_winds", ["1z"]))
        self.dora_next = {_kind(a): _kind(b) for a, b in tiles.get("dora_next", {}).items()}
        self.wildcard = _kind(tiles["wildcard"]) if tiles.get("wildcard") else None
        self.green_needs_hatsu = bool(self.options.get("ryuuiisou_needs_hatsu", False))
        self.deal_in_to_open_riichi = bool(self.options.get("open_riichi_deal_in", False))
        # seat -> (seat wind, round winds that count, winds whose pair has value).
        # Option double_wind = 1: a wind that is both round and seat wind counts once.
        self._winds = {}
        for seat, wind in (("east", EAST), ("south", EAST + 1), ("west", EAST + 2)):
            counted = (tuple(w for w in self.round_winds if w != wind)
                       if self.options.get("double_wind", 2) == 1 else self.round_winds)
            self._winds[seat] = (wind, counted, (wind, *self.round_winds))

        rules = preset.section("rules")
        self.riichi_with_double = bool(rules.get("riichi_with_double", False))
        self.max_kans = int(rules.get("max_kans", 4))
        self.rinshan_on_gari = bool(rules.get("rinshan_on_gari", True))
        self.nagashi_lost_by_riichi = bool(rules.get("nagashi_lost_by_riichi", False))

        values = preset.section("yaku")
        self.yaku: tuple[tuple[Yaku, list], ...] = tuple(
            (y, values[y.key]) for y in YAKU if y.key in values)
        ym = preset.section("yakuman")
        self.yakuman: tuple[tuple[Yaku, int], ...] = tuple(
            (y, int(ym[y.id])) for y in YAKUMAN if ym.get(y.id) and y.id != "nagashi")
        # The units a hand is asked, looked up ahead (reading units) or once per
        # kind of hand (hand units, hand_units()), so that a hand asks nothing
        # else (see Yaku.needs). Units keep their order (it is the order of the
        # count's lines). Yaku come with their value on the hand's side, and one
        # worth nothing on that side is never asked: it would not be counted.
        self._hand_units: dict[tuple, tuple[tuple, tuple]] = {}
        # reading_yaku[form][side][asks], reading_yakuman[form][asks] (asks: reading_asks)
        self.reading_yaku = {form: tuple(tuple(tuple((y, v[side]) for y, v in _asked(self.yaku, form, asks)
                                                     if v[side] != 0) for asks in range(16))
                                         for side in SIDES)
                             for form in (STANDARD, CHIITOI, KOKUSHI)}
        self.reading_yakuman = {form: tuple(_asked(self.yakuman, form, asks) for asks in range(16))
                                for form in (STANDARD, CHIITOI, KOKUSHI)}
        self.yakuman_value = int(ym.get("value", 50))
        self.yakuman_stack = bool(ym.get("stack", True))
        self.with_yaku = ym.get("with_yaku", "none")
        self.nagashi_yakuman = int(ym.get("nagashi", 0))
        self.nagashi_fixed = preset.section("fixed").get("nagashi")
        self.implies = {k: tuple(v) for k, v in preset.section("implies").items()}
        # yaku id -> the ordinary yaku it removes from a count: the one it replaces,
        # riichi beside double riichi (unless the preset counts both), its implied ones.
        drops: dict[str, set[str]] = {}
        for weaker, stronger in REPLACED_BY.items():
            drops.setdefault(stronger, set()).add(weaker)
        if not self.riichi_with_double:
            drops.setdefault("double_riichi", set()).add("riichi")
        for k, v in self.implies.items():
            drops.setdefault(k, set()).update(v)
        self.drops = {k: frozenset(v) for k, v in drops.items()}

        chi = preset.section("chiitoitsu")
        self.chiitoitsu_max_use = int(chi.get("max_use", 2))
        self._chi = chi
        # Whether an ordinary yaku can count as a yakuman (a preset value, or seven pairs' rules).
        self.yaku_can_be_yakuman = (any("yakuman" in v for _, v in self.yaku)
                                    or "yakuman_quads" in chi or "yakuman_use" in chi
                                    or "yakuman" in chi.get("by_quads", ()))

        items = preset.section("items")
        self.honba_points = int(items.get("honba", 1))
        self.banban = int(items.get("banban", 2))
        self.banban_ja, self.banban_en = (("場ゾロ", "Bazoro") if self.unit == "sticks"
                                          else ("バンバン", "Banban"))
        self.dealer = int(items.get("dealer", 0))
        self.menzen = int(items.get("menzen", 0))
        self.dora = int(items.get("dora", 1))
        self.ura = int(items.get("ura", 1))
        self.north = int(items.get("north", 0))
        self.gari_points = int(items.get("gari", 1))
        five = items.get("five", {})
        self.five = tuple(int(five.get(s, 0)) for s in "mps")
        self.red = tuple(int(red_pts) for red_pts in (items.get("red", {}).get(s, 0) for s in "mps"))
        self.ankan = int(items.get("ankan", 0))
        self.minkan = int(items.get("minkan", 0))
        self.ankan_extra = int(items.get("ankan_extra", 0))
        self.minkan_extra = int(items.get("minkan_extra", 0))
        self.allows_added_kan = "ankan_extra" in items or "minkan_extra" in items
        self.ippatsu_item = int(items.get("ippatsu", 0))
        self.ippatsu_item_names = (("一発ボーナス", "Ippatsu bonus") if "ippatsu" in values
                                   else ("一発", "Ippatsu"))
        self.dora_counts_gari = bool(self.options.get("dora_counts_gari", True))
        self.gari_bai = bool(self.options.get("gari_bai", False))

        gs = preset.section("gari_set")
        self.gari_set_mode = gs.get("mode")
        self.gari_set_factor = int(gs.get("factor", 1))
        self._gari_set_points = gs.get("points", 0)

        k = preset.section("karasu")
        self.karasu_mode = k.get("mode")
        self.karasu_strict = bool(k.get("strict", False))
        self.karasu_factor = int(k.get("factor", 1))
        self.karasu_value = int(k.get("value", 0))
        self.karasu_closed = int(k.get("closed", 0))
        self.karasu_open = int(k.get("open", 0))
        self.karasu_when = int(k.get("when", -1))
        self.karasu_plain_add = int(k.get("plain_add", 0))    # every no-gari win besides (balance's 2種類)

        b = preset.section("bounty")
        self.bounty_from = int(b["from_honba"]) if b else None
        self.bounty_dealer = int(b.get("dealer", 0))
        self.bounty_nondealer = int(b.get("nondealer", 0))
        self.bounty_before_multiplier = bool(b.get("before_multiplier", False))
        self._standing = {}
        for dealer in (False, True):
            for closed in (False, True):
                lines = tuple(line for line in (
                    ("banban", self.banban_ja, self.banban_en, self.banban, 1, 1, "table"),
                    ("dealer", "親", "Dealer", self.dealer, 1, 1, "dealer") if dealer else None,
                    ("menzen", "門前", "Menzen", self.menzen, 1, 1, "yaku") if closed else None,
                ) if line and line[3])
                self._standing[dealer, closed] = (lines, sum(line[3] for line in lines))
        self.gari_sorted = tuple(sorted(self.gari))
        # dora_of[indicator code]: the dora kind, or None for the wildcard (it depends on the hand)
        self.dora_of = tuple(None if k == self.wildcard and k not in self.dora_next else self.dora_kind(k, [])
                             for k in map(kind, range(37)))
        self._kokushi: dict[int | None, tuple[int, ...]] = {}
        self._limits: dict[int | None, tuple[int, ...]] = {}
        self._floors: dict[int | None, tuple[int, tuple[int, ...]]] = {}

    def seat_winds(self, seat: str) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
        """(seat wind, round winds that count as yakuhai, winds whose pair has value)."""
        return self._winds[seat]

    def hand_units(self, flags: frozenset[str], closed: bool, one_suit: bool,
                   no_simples: bool) -> tuple[tuple, tuple]:
        """(yaku, value) and (yakuman, multiplier) asked once of a hand with these facts."""
        key = (flags, closed, one_suit, no_simples)
        units = self._hand_units.get(key)
        if units is None:
            asked = {"hand": True, "one_suit": one_suit, "no_simples": no_simples}
            side = 0 if closed else 1

            def ask(y: Yaku) -> bool:
                return asked.get(y.needs, False) or (y.needs == "flags" and not flags.isdisjoint(y.flags))
            units = self._hand_units[key] = (
                tuple((y, v[side]) for y, v in self.yaku if ask(y) and v[side] != 0),
                tuple((y, m) for y, m in self.yakuman if ask(y)))
        return units

    def standing(self, dealer: bool, closed: bool) -> tuple[tuple[tuple, ...], int]:
        """The count's opening lines after honba: banban, dealer, menzen (those worth
        something), and what they add up to."""
        return self._standing[dealer, closed]

    def copy_floor(self, suit_in_play: int | None) -> tuple[int, tuple[int, ...]]:
        """(the fewest copies of any kind in this hand's wall, the kinds not in it)."""
        floor = self._floors.get(suit_in_play)
        if floor is None:
            limits = self.copy_limits(suit_in_play)
            floor = self._floors[suit_in_play] = (min(n for n in limits if n),
                                                  tuple(k for k, n in enumerate(limits) if not n))
        return floor

    def copy_limits(self, suit_in_play: int | None) -> tuple[int, ...]:
        """Copies of each kind in this hand's wall (0: not in the wall)."""
        lim = self._limits.get(suit_in_play)
        if lim is None:
            c = []
            for k in range(34):
                if k < 9:
                    c.append(self.copies if k in self.manzu else 0)
                elif k < 27:
                    s = k // 9
                    if suit_in_play is None:
                        c.append(self.copies)
                    else:
                        c.append(self.suit_copies if s == suit_in_play else 0)
                else:
                    c.append(self.copies)
            lim = self._limits[suit_in_play] = tuple(c)
        return lim

    def gari_set_points(self, name: str) -> int:
        p = self._gari_set_points
        return int(p.get(name, 0) if isinstance(p, Mapping) else p)

    def chiitoitsu_value(self, pairs: tuple[int, ...], base: Any) -> Any:
        """Seven pairs' value: a kind used 4, 6 or 8 times scores as the preset says."""
        chi = self._chi
        if not chi:
            return base
        uses: dict[int, int] = {}
        for k in pairs:
            uses[k] = uses.get(k, 0) + 2
        quads = sum(1 for n in uses.values() if n == 4)
        if "yakuman_quads" in chi and quads >= chi["yakuman_quads"]:
            return "yakuman"
        if "yakuman_use" in chi and max(uses.values()) >= chi["yakuman_use"]:
            return "yakuman"
        if "by_quads" in chi:
            return chi["by_quads"][quads]
        bonus = chi.get("bonus_per_kind", {})
        return base + sum(bonus.get(str(n), 0) for n in uses.values())

    def dora_kind(self, indicator: int, held: list[int]) -> int:
        """The dora an indicator points at. A wildcard indicator names an honour
        (option ``haku_dora``; ``auto`` names the honour held most of ``held``: the tiles that count)."""
        if indicator in self.dora_next:
            return self.dora_next[indicator]
        if indicator >= 27:
            if indicator == self.wildcard:
                return self._named_honour(held)
            if indicator <= NORTH:
                return EAST if indicator == NORTH else indicator + 1
            return HAKU if indicator == CHUN else indicator + 1
        return indicator + 1 if indicator % 9 != 8 else indicator - 8

    def _named_honour(self, held: list[int]) -> int:
        from .errors import ScoringError
        named = self.options.get("haku_dora", "auto")
        if named == "auto":
            return max(range(27, 34), key=lambda k: (held[k], -k))
        try:
            k = _kind(named)
        except ScoringError:
            k = -1
        if k < 27:
            raise ScoringError(f"option haku_dora must name an honour 1z-7z, got {named!r}")
        return k

    def kokushi_required(self, suit_in_play: int | None) -> tuple[int, ...]:
        """The 13 tiles of kokushi as 34 counts: 1 and 9 of each suit in the wall
        (a one-suit wall takes its suit's twice each) and the seven honours."""
        req = self._kokushi.get(suit_in_play)
        if req is None:
            c = [0] * 34
            for n in (0, 8):
                if n in self.manzu:
                    c[n] = 1
            for s in ((1, 2) if suit_in_play is None else (suit_in_play,)):
                for n in (0, 8):
                    c[9 * s + n] = 1 if suit_in_play is None else 2
            for k in range(27, 34):
                c[k] = 1
            req = self._kokushi[suit_in_play] = tuple(c)
        return req

    def wall_kinds(self, suit_in_play: int | None) -> tuple[int, ...]:
        suits = (1, 2) if suit_in_play is None else (suit_in_play,)
        return tuple(sorted(self.manzu) + [9 * s + n for s in suits for n in range(9)]
                     + list(range(27, 34)))
