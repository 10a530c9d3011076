"""The generic engine: a hand record and a preset in, an itemised count out.

Every reading of the hand is scored under the preset's table and the highest
count is kept, as players at a table would. Nothing here names a house rule:
what differs between rules is data in scoring/presets/*.toml.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any, Iterator, Mapping

from . import decompose
from .errors import ScoringError
from .presets import Preset, load
from .record import SEATS, HandRecord
from .tiles import (CHUN, EAST, HAKU, NORTH, RED_FIVES, format_mpsz, is_red, kind, number,
                    parse_tile, red_suit, suit, tile_name)
from .validate import validate
from .yaku import (BY_ID, CHIITOI, KOKUSHI, REPLACED_BY, STANDARD, YAKU, YAKUMAN, Hand, Reading,
                   Yaku)

_SEAT_WIND = {"east": EAST, "south": EAST + 1, "west": EAST + 2}


@dataclass(frozen=True)
class Item:
    """One line of the count as players say it aloud.

    ``points`` is what the line adds; a multiplier line has ``factor`` > 1 and
    adds nothing; ``count`` is how many tiles, honba or times it stands for.
    """

    key: str
    ja: str
    en: str
    points: int = 0
    count: int = 1
    factor: int = 1
    group: str = ""

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"key": self.key, "ja": self.ja, "en": self.en, "group": self.group}
        if self.factor != 1:
            d["factor"] = self.factor
        else:
            d["points"] = self.points
        if self.count != 1:
            d["count"] = self.count
        return d


@dataclass(frozen=True)
class Result:
    """The count of one win. ``total`` is what each payer pays (ron: the discarder;
    tsumo: each of the two others); ``payments`` says who pays what, a lateral
    ron's bounty from the uninvolved player included."""

    rules: str
    unit: str
    total: int
    payments: Mapping[str, int]
    items: tuple[Item, ...]
    yaku: tuple[str, ...]
    yakuman: int
    bounty: int
    reading: str
    record: HandRecord = field(repr=False, compare=False)

    @property
    def received(self) -> int:
        return sum(self.payments.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "unit": self.unit, "total": self.total,
            "payments": dict(self.payments), "received": self.received,
            "yaku": list(self.yaku), "yakuman": self.yakuman, "bounty": self.bounty,
            "reading": self.reading, "items": [i.to_dict() for i in self.items],
        }


def score(record: HandRecord | Mapping[str, Any]) -> Result:
    """Score a winning hand under its preset; raises ScoringError saying what is wrong."""
    rec = record if isinstance(record, HandRecord) else HandRecord.from_dict(record)
    preset = load(rec.rules, rec.options)
    table = _Table.of(preset)
    suit_in_play = validate(rec, preset, table)
    fixed = _fixed_items(rec, preset, table, suit_in_play)
    if rec.nagashi:
        return _nagashi(rec, preset, table, fixed)
    best: tuple[int, Result] | None = None
    gari_held = any(kind(t) in table.gari for t in rec.concealed) or any(
        m.tile_kind in table.gari for m in rec.melds)
    reason = "not a winning hand: the tiles do not make four sets and a pair, seven pairs or kokushi"
    for hand, w in _variants(rec, preset, table, suit_in_play):
        for reading in _readings(hand, rec, table, w, suit_in_play):
            hits = _yaku_hits(hand, reading, preset, table)
            if not hits:
                reason = f"no yaku: {rec.rules} needs at least one yaku (dora, gari and bonuses are not yaku)"
                continue
            if gari_held and not _gari_in_hand_allowed(hits, table):
                reason = (f"gari in the hand: under {rec.rules} a gari kind may be held only for "
                          f"{', '.join(table.gari_in_hand_for) or 'no hand'}")
                continue
            result = _count(rec, preset, table, hand, reading, hits, fixed)
            key = (result.total, result.received)
            if best is None or key > best[0]:
                best = (key, result)
    if best is None:
        raise ScoringError(reason)
    return best[1]


# --- the preset as the engine needs it ------------------------------------

@dataclass(frozen=True)
class _Table:
    preset: Preset
    manzu: frozenset[int]
    gari: frozenset[int]
    gari_in_hand: frozenset[int]
    gari_in_hand_for: tuple[str, ...]
    round_winds: tuple[int, ...]
    dora_next: Mapping[int, int]
    wildcard: int | None
    yaku: tuple[tuple[Yaku, list], ...]
    yakuman: tuple[tuple[Yaku, int], ...]
    implies: Mapping[str, tuple[str, ...]]

    @staticmethod
    def of(preset: Preset) -> "_Table":
        cached = _TABLES.get(id(preset))
        if cached is not None and cached.preset is preset:
            return cached
        t = preset.section("tiles")
        gih = t.get("gari_in_hand", {})
        yaku_values = preset.section("yaku")
        ym = preset.section("yakuman")
        table = _Table(
            preset=preset,
            manzu=frozenset(n - 1 for n in t.get("manzu", [1, 5, 9])),
            gari=frozenset(kind(parse_tile(x)) for x in t.get("gari", [])),
            gari_in_hand=frozenset(kind(parse_tile(x)) for x in gih.get("kinds", [])),
            gari_in_hand_for=tuple(gih.get("for", [])),
            round_winds=tuple(kind(parse_tile(x)) for x in t.get("round_winds", ["1z"])),
            dora_next={kind(parse_tile(a)): kind(parse_tile(b)) for a, b in t.get("dora_next", {}).items()},
            wildcard=kind(parse_tile(t["wildcard"])) if t.get("wildcard") else None,
            yaku=tuple((y, yaku_values[y.key]) for y in YAKU if y.key in yaku_values),
            yakuman=tuple((y, int(ym[y.id])) for y in YAKUMAN if ym.get(y.id)),
            implies={k: tuple(v) for k, v in preset.section("implies").items()},
        )
        _TABLES[id(preset)] = table
        return table

    def kokushi_required(self, suit_in_play: int | None) -> tuple[int, ...]:
        req = [0] * 34
        for n in (0, 8):
            if n in self.manzu:
                req[n] = 1
        suits = (1, 2) if suit_in_play is None else (suit_in_play,)
        for s in suits:
            for n in (0, 8):
                req[9 * s + n] = 1 if suit_in_play is None else 2
        for k in range(27, 34):
            req[k] = 1
        return tuple(req)


_TABLES: dict[int, _Table] = {}


def _gari_in_hand_allowed(hits: list[tuple[Yaku, int, Any]], table: _Table) -> bool:
    allowed = table.gari_in_hand_for
    return any(v == "yakuman" and ("yakuman" in allowed or y.id in allowed) for y, _, v in hits)


# --- hand variants (chinton's haku wildcard) and readings -----------------

def _base_counts(rec: HandRecord) -> list[int]:
    c = [0] * 34
    for t in rec.concealed:
        c[kind(t)] += 1
    return c


def _variants(rec: HandRecord, preset: Preset, table: _Table,
              suit_in_play: int | None) -> Iterator[tuple[Hand, int]]:
    """Each way of reading wildcards, as (hand facts, winning kind)."""
    counts = _base_counts(rec)
    w = kind(rec.win_tile)
    wild = table.wildcard
    if wild is None or not counts[wild]:
        yield _hand(rec, preset, table, counts, suit_in_play), w
        return
    n = counts[wild]
    honours = range(27, 34)
    # On a riichi ippatsu tsumo a drawn haku stands for any tile of the wall.
    any_tile = (w == wild and rec.is_tsumo and rec.ippatsu and rec.any_riichi)
    seen: set[tuple[tuple[int, ...], int]] = set()
    free = _wall_kinds(table, suit_in_play) if any_tile else ()
    for subst in combinations_with_replacement(honours, n - 1 if any_tile else n):
        win_choices: tuple[int, ...]
        extra: tuple[int, ...]
        if any_tile:
            options = [(subst + (x,), x) for x in free]
        elif w == wild:
            options = [(subst, x) for x in set(subst)]
        else:
            options = [(subst, w)]
        for chosen, win_kind in options:
            c = counts[:]
            c[wild] -= n
            for k in chosen:
                c[k] += 1
            key = (tuple(c), win_kind)
            if key in seen:
                continue
            seen.add(key)
            yield _hand(rec, preset, table, c, suit_in_play), win_kind


def _wall_kinds(table: _Table, suit_in_play: int | None) -> tuple[int, ...]:
    suits = (1, 2) if suit_in_play is None else (suit_in_play,)
    return tuple(sorted(table.manzu) + [9 * s + n for s in suits for n in range(9)] + list(range(27, 34)))


def _hand(rec: HandRecord, preset: Preset, table: _Table, counts: list[int],
          suit_in_play: int | None) -> Hand:
    all_counts = counts[:]
    for m in rec.melds:
        all_counts[m.tile_kind] += len(m.tiles)
    kinds = frozenset(k for k in range(34) if all_counts[k])
    suits = {suit(k) for k in kinds if k < 27}
    flags = frozenset(f for f in ("riichi", "double_riichi", "open_riichi", "ippatsu", "rinshan",
                                  "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou")
                      if getattr(rec, f))
    reds = sum(1 for t in _all_physical(rec) if is_red(t))
    red_limit = sum(preset.section("tiles").get("red", {}).values())
    gari_total = 4 * len(table.gari)
    return Hand(
        counts=tuple(counts), all_counts=tuple(all_counts), kinds=kinds, closed=rec.is_closed,
        tsumo=rec.is_tsumo, n_kans=sum(1 for m in rec.melds if m.is_kan),
        seat_wind=_SEAT_WIND[rec.seat], round_winds=table.round_winds,
        flags=flags | ({"riichi"} if rec.double_riichi else frozenset()),
        suit=suits.pop() if len(suits) == 1 else None, dealer=rec.is_dealer,
        green_needs_hatsu=bool(preset.options.get("ryuuiisou_needs_hatsu", False)),
        deal_in_to_open_riichi=bool(preset.options.get("open_riichi_deal_in", False)),
        six_reds=red_limit > 0 and reds == red_limit,
        all_gari=gari_total > 0 and len(rec.gari) == gari_total,
    )


def _all_physical(rec: HandRecord) -> Iterator[int]:
    yield from rec.concealed
    for m in rec.melds:
        yield from m.tiles
    yield from rec.gari


def _readings(hand: Hand, rec: HandRecord, table: _Table, w: int,
              suit_in_play: int | None) -> Iterator[Reading]:
    meld_trips = tuple((m.tile_kind, not m.is_open, m.is_kan) for m in rec.melds)
    counts = hand.counts
    for std in decompose.standard_readings(counts, 4 - len(rec.melds)):
        yield from _placements(std, meld_trips, w, hand.tsumo)
    if not rec.melds:
        max_use = int(table.preset.section("chiitoitsu").get("max_use", 2))
        pairs = decompose.chiitoitsu_pairs(counts, max_use)
        if pairs is not None:
            yield Reading(CHIITOI, pairs=pairs, wait="tanki")
        if decompose.is_kokushi(counts, table.kokushi_required(suit_in_play)):
            yield Reading(KOKUSHI, wait="kokushi")


def _placements(std: decompose.Standard, meld_trips, w: int, tsumo: bool) -> Iterator[Reading]:
    """One reading per place the winning tile can have completed (it decides the wait)."""
    conc = tuple((k, True, False) for k in std.trips)
    for s in sorted(set(std.seqs)):
        if s <= w <= s + 2:
            pos = w - s
            if pos == 1:
                wait = "kanchan"
            elif (pos == 2 and s % 9 == 0) or (pos == 0 and s % 9 == 6):
                wait = "penchan"
            else:
                wait = "ryanmen"
            yield Reading(STANDARD, std.seqs, conc + meld_trips, std.pair, wait=wait)
    if w in std.trips:
        # A triplet completed by ron counts as open for sanankou and suuankou.
        trips = tuple((k, tsumo or k != w or i != std.trips.index(w), False)
                      for i, k in enumerate(std.trips))
        yield Reading(STANDARD, std.seqs, trips + meld_trips, std.pair, wait="shanpon")
    if std.pair == w:
        yield Reading(STANDARD, std.seqs, conc + meld_trips, std.pair, wait="tanki")


# --- yaku -------------------------------------------------------------------

def _yaku_hits(hand: Hand, r: Reading, preset: Preset, table: _Table) -> list[tuple[Yaku, int, Any]]:
    """(unit, times, value) for each yaku that counts; value is points or "yakuman"."""
    hits: list[tuple[Yaku, int, Any]] = []
    for y, values in table.yaku:
        if r.form not in y.forms:
            continue
        n = y.test(hand, r)
        if not n:
            continue
        value = values[0] if hand.closed else values[1]
        if value == 0:
            continue
        if y.id == "chiitoitsu":
            value = _chiitoitsu_value(r, preset, value)
        hits.append((y, n, value))
    ids = {y.id for y, _, _ in hits}
    rules = preset.section("rules")
    drop = {k for k, v in REPLACED_BY.items() if v in ids}
    if "double_riichi" in ids and not rules.get("riichi_with_double", False):
        drop.add("riichi")
    for y, _, _ in hits:
        drop.update(table.implies.get(y.id, ()))
    hits = [h for h in hits if h[0].id not in drop]
    for y, mult in table.yakuman:
        if r.form in y.forms:
            n = y.test(hand, r)
            if n:
                hits.append((y, n * mult, "yakuman"))
    if any(v == "yakuman" for _, _, v in hits):
        hits = _with_yakuman(hits, preset, table)
    return hits


def _chiitoitsu_value(r: Reading, preset: Preset, base: int) -> Any:
    spec = preset.section("chiitoitsu")
    uses: dict[int, int] = {}
    for k in r.pairs:
        uses[k] = uses.get(k, 0) + 2
    quads = sum(1 for n in uses.values() if n == 4)
    if "yakuman_quads" in spec and quads >= spec["yakuman_quads"]:
        return "yakuman"
    if "yakuman_use" in spec and max(uses.values()) >= spec["yakuman_use"]:
        return "yakuman"
    if "by_quads" in spec:
        return spec["by_quads"][quads]
    bonus = spec.get("bonus_per_kind", {})
    return base + sum(bonus.get(str(n), 0) for n in uses.values())


def _with_yakuman(hits: list[tuple[Yaku, int, Any]], preset: Preset, table: _Table):
    """Keep what a yakuman is counted with, as the preset says."""
    ym = preset.section("yakuman")
    yakuman = [h for h in hits if h[2] == "yakuman"]
    if not ym.get("stack", True):
        yakuman = [max(yakuman, key=lambda h: h[1])]
    rule = ym.get("with_yaku", "none")
    ordinary = [h for h in hits if h[2] != "yakuman"]
    if rule == "none":
        ordinary = []
    elif rule == "non_implied":
        implied: set[str] = set()
        for y, _, _ in yakuman:
            implied.update(y.implies)
            implied.update(table.implies.get(y.id, ()))
        ordinary = [h for h in ordinary if h[0].id not in implied]
    else:
        ordinary = [h for h in ordinary if h[0].id in rule]
    return ordinary + yakuman


# --- items that do not depend on the reading --------------------------------

@dataclass(frozen=True)
class _Fixed:
    """Counts of the hand's tiles that every reading shares."""

    dora: int
    ura: int
    north: int
    fives: int          # points from fives
    red: int            # points from red
    red_on_gari: dict   # gari kind -> red points on that kind's gari
    kans: tuple[Item, ...]
    gari_count: int
    gari_kinds: dict    # kind -> count


def _dora_kind(indicator: int, table: _Table, rec: HandRecord, preset: Preset) -> int:
    k = kind(indicator)
    if k in table.dora_next:
        return table.dora_next[k]
    if k >= 27:
        if table.wildcard is not None and k == table.wildcard:
            return _named_honour(rec, preset)
        if k <= NORTH:
            return EAST if k == NORTH else k + 1
        return HAKU if k == CHUN else k + 1
    return k + 1 if k % 9 != 8 else k - 8


def _named_honour(rec: HandRecord, preset: Preset) -> int:
    """The honour the winner names as dora for a wildcard indicator ('auto': the most held)."""
    named = preset.options.get("haku_dora", "auto")
    if named != "auto":
        k = kind(parse_tile(named))
        if k < 27:
            raise ScoringError(f"haku_dora must name an honour 1z-7z, got {named!r}")
        return k
    held = [0] * 34
    for t in _all_physical(rec):
        held[kind(t)] += 1
    return max(range(27, 34), key=lambda k: (held[k], -k))


def _fixed_items(rec: HandRecord, preset: Preset, table: _Table, suit_in_play) -> _Fixed:
    items = preset.section("items")
    counts_gari_as_dora = bool(preset.options.get("dora_counts_gari", True))
    held = [0] * 34
    for t in rec.concealed:
        held[kind(t)] += 1
    for m in rec.melds:
        for t in m.tiles:
            held[kind(t)] += 1
    gari_kinds: dict[int, int] = {}
    for t in rec.gari:
        gari_kinds[kind(t)] = gari_kinds.get(kind(t), 0) + 1

    def dora_count(indicators) -> int:
        n = 0
        for ind in indicators:
            dk = _dora_kind(ind, table, rec, preset)
            n += held[dk] + (gari_kinds.get(dk, 0) if counts_gari_as_dora else 0)
        return n

    five = items.get("five", {})
    red = items.get("red", {})
    fives = red_pts = 0
    red_on_gari: dict[int, int] = {}
    for t in _all_physical(rec):
        k = kind(t)
        if k in (4, 13, 22):
            s = "mps"[suit(k)]
            fives += five.get(s, 0)
            if is_red(t):
                red_pts += red.get(s, 0)
    for t in rec.gari:
        if is_red(t):
            k = kind(t)
            red_on_gari[k] = red_on_gari.get(k, 0) + red.get("mps"[suit(k)], 0)
    kans = []
    n_ankan = sum(1 for m in rec.melds if m.kind == "ankan")
    n_minkan = sum(1 for m in rec.melds if m.kind in ("minkan", "kakan"))
    extra_an = sum(len(m.tiles) - 4 for m in rec.melds if m.kind == "ankan")
    extra_min = sum(len(m.tiles) - 4 for m in rec.melds if m.kind in ("minkan", "kakan"))
    for key, ja, en, n, per in (
        ("ankan", "暗槓", "Ankan", n_ankan, items.get("ankan", 0)),
        ("minkan", "明槓", "Minkan", n_minkan, items.get("minkan", 0)),
        ("ankan_extra", "暗加槓", "Added concealed kan", extra_an, items.get("ankan_extra", 0)),
        ("minkan_extra", "明加槓", "Added open kan", extra_min, items.get("minkan_extra", 0)),
    ):
        if n and per:
            kans.append(Item(key, ja, en, n * per, n, group="kan"))
    return _Fixed(
        dora=dora_count(rec.dora_indicators) * items.get("dora", 1),
        ura=dora_count(rec.ura_indicators) * items.get("ura", 1) if rec.any_riichi else 0,
        north=gari_kinds.get(NORTH, 0) * items.get("north", 0),
        fives=fives, red=red_pts, red_on_gari=red_on_gari, kans=tuple(kans),
        gari_count=len(rec.gari), gari_kinds=gari_kinds,
    )


# --- the count ------------------------------------------------------------

def _count(rec: HandRecord, preset: Preset, table: _Table, hand: Hand, r: Reading,
           hits: list[tuple[Yaku, int, Any]], fx: _Fixed) -> Result:
    items = preset.section("items")
    ym_value = int(preset.section("yakuman").get("value", 50))
    lines: list[Item] = []

    def add(key: str, ja: str, en: str, points: int, count: int = 1, group: str = "") -> None:
        if points:
            lines.append(Item(key, ja, en, points, count, group=group))

    add("honba", "本場", "Honba", rec.honba * items.get("honba", 1), rec.honba, "table")
    banban_ja = "場ゾロ" if preset.unit == "sticks" else "バンバン"
    add("banban", banban_ja, "Banban", items.get("banban", 2), 1, "table")
    if rec.is_dealer:
        add("dealer", "親", "Dealer", items.get("dealer", 0), 1, "dealer")
    if hand.closed:
        add("menzen", "門前", "Menzen", items.get("menzen", 0), 1, "yaku")
    yaku_points = 0
    yakuman_units = 0
    yaku_ids: list[str] = []
    for y, n, value in hits:
        yaku_ids.extend([y.id] * n)
        if value == "yakuman":
            yakuman_units += n
            lines.append(Item(y.id, y.ja, y.en, n * ym_value, n, group="yakuman"))
        else:
            yaku_points += n * value
            lines.append(Item(y.id, y.ja, y.en, n * value, n, group="yaku"))
    lines.extend(fx.kans)
    if rec.ippatsu:
        ja, en = ("一発ボーナス", "Ippatsu bonus") if "ippatsu" in preset.section("yaku") else ("一発", "Ippatsu")
        add("ippatsu_bonus", ja, en, items.get("ippatsu", 0), 1, "yaku")
    add("dora", "ドラ", "Dora", fx.dora, fx.dora, "dora")
    add("ura", "裏ドラ", "Ura dora", fx.ura, fx.ura, "dora")
    add("north", "北", "North", fx.north, fx.north // max(items.get("north", 1), 1), "dora")
    add("fives", "五", "Fives", fx.fives, 1, "dora")
    gari_pts, set_lines, factor_lines = _gari(rec, preset, table, fx)
    add("gari", "ガリ", "Gari", gari_pts, fx.gari_count, "gari")
    lines.extend(set_lines)
    add("red", "赤", "Red fives", fx.red, 1, "red")

    karasu = preset.section("karasu")
    no_gari = fx.gari_count == 0
    mode = karasu.get("mode")
    subtotal = sum(i.points for i in lines)
    strict_ok = _karasu_strict_ok(rec, preset, hits, lines)
    if no_gari and mode == "add" and (not karasu.get("strict") or strict_ok):
        pts = karasu["closed"] if hand.closed else karasu["open"]
        lines.append(Item("karasu", "カラス", "Karasu (no gari)", pts, group="karasu"))
        subtotal += pts
    bounty = _bounty(rec, preset)
    bounty_spec = preset.section("bounty")
    before = bool(bounty_spec.get("before_multiplier", False))
    if bounty and before:
        lines.append(Item("bounty", "懸賞", "Bounty", bounty, group="bounty"))
        subtotal += bounty
    factor = 1
    for f in factor_lines:
        lines.append(f)
        factor *= f.factor
    if no_gari and mode == "multiply":
        f = int(karasu["factor"])
        lines.append(Item("karasu", "ノーガリ", "No gari", count=1, factor=f, group="multiplier"))
        factor *= f
    total = subtotal * factor
    if bounty and not before:
        lines.append(Item("bounty", "懸賞", "Bounty", bounty, group="bounty"))
    fixed_total = None
    if no_gari and mode == "fixed" and (not karasu.get("strict") or strict_ok):
        fixed_total = int(karasu["value"])
    elif no_gari and mode == "fixed_by_state":
        fixed_total = int(karasu["closed"] if hand.closed else karasu["open"])
    if fixed_total is not None:
        lines.append(Item("karasu_fixed", "カラス", "Karasu: fixed count", fixed_total, group="fixed"))
        total = fixed_total
    if bounty and not before:
        total += bounty
    if mode == "final_count" and total == int(karasu["when"]):
        lines.append(Item("karasu_fixed", "カラス", "Karasu: a count of exactly "
                          f"{karasu['when']} becomes {karasu['value']}", int(karasu["value"]), group="fixed"))
        total = int(karasu["value"])
    return Result(
        rules=rec.rules, unit=preset.unit, total=total,
        payments=_payments(rec, total, bounty), items=tuple(lines), yaku=tuple(yaku_ids),
        yakuman=yakuman_units, bounty=bounty, reading=_describe(r, rec), record=rec,
    )


def _gari(rec: HandRecord, preset: Preset, table: _Table, fx: _Fixed) -> tuple[int, list[Item], list[Item]]:
    """Gari points, the gari-set lines that add, and the gari-set lines that multiply."""
    items = preset.section("items")
    per = int(items.get("gari", 1))
    pts = fx.gari_count * per
    if preset.options.get("gari_bai"):
        inds = [kind(t) for t in rec.dora_indicators]
        if any(is_red(t) for t in rec.dora_indicators):
            pts *= 3
        elif any(k in table.gari for k in inds):
            pts *= 2
    spec = preset.section("gari_set")
    mode = spec.get("mode")
    sets = sorted(k for k, n in fx.gari_kinds.items() if n >= 4)
    adds: list[Item] = []
    mults: list[Item] = []
    for k in sets:
        name = tile_name(k)
        if mode == "multiply":
            mults.append(Item("gari_set", f"ガリセット {name}", f"Gari set {name}", factor=int(spec["factor"]),
                              group="multiplier"))
        elif mode == "double_kind":
            kind_pts = fx.gari_kinds[k] * per + fx.red_on_gari.get(k, 0)
            adds.append(Item("gari_set", f"ガリセット {name}", f"Gari set {name} (doubled)", kind_pts,
                             group="gari"))
        elif mode == "add":
            p = spec.get("points", 0)
            p = p.get(name, 0) if isinstance(p, Mapping) else p
            if p:
                adds.append(Item("gari_set", f"セット {name}", f"Gari set {name}", int(p), group="gari"))
    return pts, adds, mults


def _karasu_strict_ok(rec: HandRecord, preset: Preset, hits, lines: list[Item]) -> bool:
    """Balance's karasu: one 1-point yaku, no dora of any kind, no 5p/5s among the discards."""
    ordinary = [h for h in hits if h[2] != "yakuman"]
    if len(ordinary) != 1 or ordinary[0][1] != 1 or ordinary[0][2] != 1 or len(hits) != 1:
        return False
    if any(i.points for i in lines if i.group not in ("table", "dealer", "yaku")):
        return False
    if rec.discards is not None:
        return not any(kind(t) in (13, 22) for t in rec.discards)
    return not preset.options.get("discarded_five", False)


def _bounty(rec: HandRecord, preset: Preset) -> int:
    b = preset.section("bounty")
    if not b or rec.honba < int(b["from_honba"]):
        return 0
    return int(b["dealer"] if rec.is_dealer else b["nondealer"])


def _payments(rec: HandRecord, total: int, bounty: int) -> dict[str, int]:
    others = [s for s in SEATS if s != rec.seat]
    if rec.is_tsumo:
        return {s: total for s in others}
    payer = rec.discarder or "discarder"
    pay = {payer: total}
    if bounty:
        third = [s for s in others if s != rec.discarder]
        pay[third[0] if rec.discarder else "uninvolved"] = bounty
    return pay


def _describe(r: Reading, rec: HandRecord) -> str:
    parts: list[str] = []
    if r.form == CHIITOI:
        parts = [format_mpsz([k, k]) for k in r.pairs]
    elif r.form == KOKUSHI:
        parts = [format_mpsz(rec.concealed)]
    else:
        parts = [format_mpsz([s, s + 1, s + 2]) for s in r.seqs]
        parts += [format_mpsz([k] * 3) for k, conc, kan in r.trips[:len(r.trips) - len(rec.melds)]]
        parts += [m.kind + " " + format_mpsz(m.tiles) for m in rec.melds]
        parts.append(format_mpsz([r.pair, r.pair]))
    return f"{r.form}: {' '.join(parts)} (wait: {r.wait})"


def _nagashi(rec: HandRecord, preset: Preset, table: _Table, fx: _Fixed) -> Result:
    """Nagashi: a yakuman where the preset lists it, else the preset's fixed count."""
    ym = preset.section("yakuman")
    fixed = preset.section("fixed")
    if ym.get("nagashi"):
        value = int(ym["value"]) * int(ym["nagashi"])
        lines = [Item("nagashi", "流し満貫", "Nagashi mangan", value, group="yakuman")]
        total = value
    elif "nagashi" in fixed:
        total = int(fixed["nagashi"])
        lines = [Item("nagashi", "流し満貫", "Nagashi mangan (fixed)", total, group="fixed")]
    else:
        raise ScoringError(f"nagashi is not a win under {rec.rules}")
    return Result(rules=rec.rules, unit=preset.unit, total=total,
                  payments=_payments(rec, total, 0), items=tuple(lines), yaku=("nagashi",),
                  yakuman=1 if ym.get("nagashi") else 0, bounty=0, reading="nagashi", record=rec)
