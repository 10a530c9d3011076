"""The generic engine: a hand record and a preset in, an itemised count out.

Every reading of the hand is scored under the preset's table and the highest
count is kept, as players at a table would. Nothing here names a house rule:
what differs between rules is data in scoring/presets/*.toml, digested once
per preset into a ``Table`` (table.py).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement, compress, repeat
from typing import Any, Iterable, Iterator, Mapping, NamedTuple

from . import decompose
from .errors import ScoringError
from .house import load
from .presets import Preset
from .record import SEATS, HandRecord
from .table import Table, reading_asks
from .tiles import FIVE_KINDS, KIND_OF, NORTH, format_mpsz, is_red, kind, tile_name
from .validate import Tally, stood_in, tally, validate
from .yaku import BY_ID, CHIITOI, KIND_BITS, KOKUSHI, SIMPLE_MASK, SUIT_MASKS, Hand, Reading, Yaku, readings_by_wait



class Item(NamedTuple):
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


class Result(NamedTuple):
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
    shape: Reading | None
    record: HandRecord

    @property
    def received(self) -> int:
        return sum(self.payments.values())

    @property
    def reading(self) -> str:
        """The winning reading, written out (e.g. ``standard: 123p 456p ... (wait: kanchan)``)."""
        return _describe(self.shape, self.record) if self.shape else "nagashi"

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules, "unit": self.unit, "total": self.total,
            "payments": dict(self.payments), "received": self.received,
            "yaku": list(self.yaku), "yakuman": self.yakuman, "bounty": self.bounty,
            "reading": self.reading, "items": [i.to_dict() for i in self.items],
        }


def score(record: HandRecord | Mapping[str, Any], preset: Preset | None = None, *,
          round_honba: int | None = None) -> Result:
    """Score a winning hand under its preset; raises ScoringError saying what is wrong.

    ``preset``: score under this rule (e.g. a house rule file) instead of the one
    the record names; the record's options still apply over it. ``round_honba``: the
    table's honba where the record's is not (a double ron's second winner when the honba
    goes to the head winner alone counts none): whether the hand is a bounty round
    (懸賞) is the table's, whoever counts the honba; None: the record's."""
    rec, t, counted, suit_in_play = _checked(record, preset)
    fx = _fixed_items(rec, t, counted)
    if rec.nagashi:
        return _nagashi(rec, t)
    # validate() refused gari kinds in the hand unless the preset allows some
    gari_held = bool(t.gari_in_hand) and any(counted.hand[k] for k in t.gari)
    bounty = _bounty(t, rec.is_dealer, rec.honba if round_honba is None else round_honba)
    best_total = 0
    best: tuple[list, Reading, list] | None = None
    reason = "not a winning hand: the tiles do not make four sets and a pair, seven pairs or kokushi"
    meld_trips = _meld_trips(rec)
    for hand, w in _variants(rec, t, counted, suit_in_play):
        pre = _hand_hits(hand, t)
        for reading in _readings(hand, rec, t, w, suit_in_play, meld_trips):
            hits = _yaku_hits(hand, reading, t, pre, gari_held)
            if not hits:
                reason = f"no yaku: {rec.rules} needs at least one yaku (dora, gari and bonuses are not yaku)"
                continue
            if gari_held and not _gari_in_hand_allowed(hits, t):
                reason = (f"gari in the hand: under {rec.rules} a gari kind may be held only for "
                          f"{', '.join(t.gari_in_hand_for) or 'no hand'}")
                continue
            total, lines = _count(rec, t, hand, hits, fx, bounty)
            if best is None or total > best_total:  # the first of equal counts stays
                best_total = total
                best = (lines, reading, hits)
    if best is None:
        raise ScoringError(reason)
    lines, reading, hits = best
    # Positional, in Result's field order (rules, unit, total, payments, items,
    # yaku, yakuman, bounty, shape, record): keywords cost a NamedTuple a dict.
    return Result(
        rec.rules, t.unit, best_total, _payments(rec, best_total, bounty),
        tuple(map(_new_tuple, repeat(Item), lines)),
        tuple([y.id for y, n, _ in hits for _ in range(n)]),
        sum([n for _, n, v in hits if v == "yakuman"]),
        bounty, reading, rec,
    )


def is_a_win(record: HandRecord | Mapping[str, Any], preset: Preset | None = None) -> bool:
    """Whether the record's tiles make a hand its rule counts (four sets and a pair, seven pairs or
    kokushi, the rule's wildcards read every way), yaku aside: a riichi the players have yet to set
    is no part of the tiles, nor are the discards (a discard misread no win undoes, and the
    mending and the winning tile's choice that ask this went without). A record the rule refuses
    (a tile it does not hold, a fifth copy, a malformed record) is no win."""
    if isinstance(record, HandRecord):
        record = replace(record, discards=None) if record.discards else record
    elif isinstance(record, Mapping) and record.get("discards"):
        record = {k: v for k, v in record.items() if k != "discards"}
    try:
        rec, t, counted, suit_in_play = _checked(record, preset)
    except ScoringError:
        return False
    if rec.nagashi:
        return True
    meld_trips = _meld_trips(rec)
    return any(_readings(hand, rec, t, w, suit_in_play, meld_trips)
               for hand, w in _variants(rec, t, counted, suit_in_play))


def gari_kinds(record: Mapping[str, Any], preset: Preset | None = None) -> frozenset[str]:
    """The kinds a record's rule (``preset``, else the rule the record names, with its ``options``) sets
    aside as gari, fives named plain (a red 5m is a 5m). Only those two fields are read, so a record
    still missing its tiles will do; ScoringError for a rule that does not load."""
    t = _rule_table(record.get("rules"), record.get("options") or {}, preset)
    return frozenset(tile_name(k) for k in t.gari)


def _checked(record: HandRecord | Mapping[str, Any], preset: Preset | None
             ) -> tuple[HandRecord, Table, Tally, int | None]:
    """The record parsed, its rule's table, its tiles counted and checked against the rule (the suit in
    play); ScoringError naming what the rule refuses."""
    rec = record if isinstance(record, HandRecord) else HandRecord.from_dict(record)
    t = _rule_table(rec.rules, rec.options, preset)
    counted = tally(rec)
    return rec, t, counted, validate(rec, t, counted)


def _rule_table(rules: Any, options: Mapping[str, Any], preset: Preset | None) -> Table:
    """The table a record is counted by: ``preset``'s (a session's stored rule), else the one ``rules``
    names; the record's ``options`` over it either way."""
    return _table(rules, options) if preset is None else _given_table(preset, options)


def _meld_trips(rec: HandRecord) -> tuple:
    """Each meld as (kind, concealed?, kan?), as the readings place them."""
    return tuple([(m.tile_kind, not m.is_open, m.is_kan) for m in rec.melds]) if rec.melds else ()


_new_tuple = tuple.__new__  # Item lines are checked 7-tuples already: skip Item._make's length check
_PLAIN_TABLES: dict[str, Table] = {}


def _table(rules: Any, options: Mapping[str, Any]) -> Table:
    """The table of a preset; a record without options looks it up by name only."""
    if options or type(rules) is not str:
        return Table.of(load(rules, options))
    t = _PLAIN_TABLES.get(rules)
    if t is None:
        p = load(rules, options)
        t = Table.of(p)
        if p.extends is None:   # a built-in; a house rule's file may change under a running service
            _PLAIN_TABLES[rules] = t
    return t


_GIVEN_TABLES: dict[tuple, Table] = {}


def _given_table(preset: Preset, options: Mapping[str, Any]) -> Table:
    """The table of a preset handed to score(), with the record's options over it."""
    if not options:
        return Table.of(preset)
    key = (preset.digest, preset.id, tuple(sorted((k, repr(v)) for k, v in options.items())))
    t = _GIVEN_TABLES.get(key)
    if t is None:
        if len(_GIVEN_TABLES) > 256:
            _GIVEN_TABLES.clear()
        t = _GIVEN_TABLES[key] = Table.of(preset.with_options(options))
    return t


def _gari_in_hand_allowed(hits: list[tuple[Yaku, int, Any]], t: Table) -> bool:
    allowed = t.gari_in_hand_for
    return any(v == "yakuman" and ("yakuman" in allowed or y.id in allowed) for y, _, v in hits)


# --- hand variants (chinton's haku wildcard) and readings -----------------

def _variants(rec: HandRecord, t: Table, counted: Tally,
              suit_in_play: int | None) -> Iterable[tuple[Hand, int]]:
    """Each way of reading wildcards, as (hand facts, winning kind); a hand with none has one."""
    counts = counted.concealed
    w = KIND_OF[rec.win_tile]
    wild = t.wildcard
    if wild is None or not counts[wild]:
        return [(_hand(rec, t, counts, counted), w)]
    return _wildcard_variants(rec, t, counted, suit_in_play, w, wild)


def _wildcard_variants(rec: HandRecord, t: Table, counted: Tally, suit_in_play: int | None,
                       w: int, wild: int) -> Iterator[tuple[Hand, int]]:
    counts = counted.concealed
    n = counts[wild]
    # On a riichi ippatsu tsumo a drawn haku stands for any tile of the wall.
    any_tile = w == wild and rec.is_tsumo and rec.ippatsu and rec.any_riichi
    free = t.wall_kinds(suit_in_play) if any_tile else ()
    seen: set[tuple[tuple[int, ...], int]] = set()
    for subst in combinations_with_replacement(range(27, 34), n - 1 if any_tile else n):
        if any_tile:
            options = [(subst + (x,), x) for x in free]
        elif w == wild:
            options = [(subst, x) for x in set(subst)]
        else:
            options = [(subst, w)]
        for chosen, win_kind in options:
            c = list(counts)
            c[wild] -= n
            for k in chosen:
                c[k] += 1
            key = (tuple(c), win_kind)
            if key not in seen:
                seen.add(key)
                yield _hand(rec, t, key[0], counted), win_kind


def _hand(rec: HandRecord, t: Table, counts: tuple[int, ...], counted: Tally) -> Hand:
    mask = sum(compress(KIND_BITS, counts))
    n_kans = 0
    for m in rec.melds:
        mask |= KIND_BITS[m.tile_kind]
        n_kans += m.is_kan
    in_suits = [s for s, bits in enumerate(SUIT_MASKS) if mask & bits]
    seat_wind, round_winds, value_winds = t.seat_winds(rec.seat)
    # Positional, in Hand's field order: keywords cost a NamedTuple a dict per call.
    return Hand(
        counts, mask, rec.is_closed, rec.is_tsumo, n_kans, seat_wind, round_winds, value_winds,
        rec.true_flags, in_suits[0] if len(in_suits) == 1 else None, rec.is_dealer,
        t.green_needs_hatsu, t.deal_in_to_open_riichi,
        t.red_total > 0 and sum(counted.reds) == t.red_total,
        t.gari_total > 0 and len(rec.gari) == t.gari_total,
    )


def _readings(hand: Hand, rec: HandRecord, t: Table, w: int,
              suit_in_play: int | None, meld_trips: tuple) -> list[Reading]:
    counts = hand.counts
    out: list[Reading] = []
    for std in decompose.standard_readings(counts, 4 - len(rec.melds)):
        out += _placements(std, meld_trips, w, hand.tsumo)
    if not rec.melds:
        pairs = decompose.chiitoitsu_pairs(counts, t.chiitoitsu_max_use)
        if pairs is not None:
            out.append(Reading(CHIITOI, pairs=pairs, wait="tanki"))
        # kokushi holds no simple: most hands are not asked
        if not hand.mask & SIMPLE_MASK and decompose.is_kokushi(counts, t.kokushi_required(suit_in_play)):
            out.append(Reading(KOKUSHI, wait="kokushi"))
    return out


def _placements(std: decompose.Standard, meld_trips, w: int, tsumo: bool) -> list[Reading]:
    """One reading per place the winning tile can have completed (it decides the wait),
    in this order: each sequence it is in (ascending), a triplet (shanpon), the pair (tanki)."""
    seqs, pair = std.seqs, std.pair
    waits = []
    # The sequences that hold w start at w-2, w-1 or w (each read once).
    if w - 2 in seqs:
        waits.append("penchan" if (w - 2) % 9 == 0 else "ryanmen")
    if w - 1 in seqs:
        waits.append("kanchan")
    if w in seqs:
        waits.append("penchan" if w % 9 == 6 else "ryanmen")
    if pair == w:
        waits.append("tanki")
    # Every wait but shanpon reads the concealed triplets as concealed: one set of facts.
    out = readings_by_wait(seqs, tuple(map(_CONCEALED_TRIP.__getitem__, std.trips)) + meld_trips, pair, waits)
    if w in std.trips:
        # A triplet completed by ron counts as open for sanankou and suuankou.
        first = std.trips.index(w)
        trips = tuple([(k, tsumo or i != first, False) for i, k in enumerate(std.trips)])
        shanpon = readings_by_wait(seqs, trips + meld_trips, pair, ("shanpon",))[0]
        out.insert(len(out) - 1 if pair == w else len(out), shanpon)  # before tanki
    return out


_CONCEALED_TRIP = tuple((k, True, False) for k in range(34))   # kind -> a concealed triplet's (kind, concealed, kan)


# --- yaku -------------------------------------------------------------------

def _hand_hits(hand: Hand, t: Table) -> tuple[list, list]:
    """Units that look only at the whole hand, asked once: (unit, times, value) and
    (unit, times) for yakuman. The value is the closed or open one, as the hand is."""
    yaku_units, yakuman_units = t.hand_units(hand.flags, hand.closed, hand.suit is not None,
                                             not hand.mask & SIMPLE_MASK)
    yaku = [(y, n, v) for y, v in yaku_units if (n := y.test(hand, None))]
    yakuman = [(y, n * m) for y, m in yakuman_units if (n := y.test(hand, None))]
    return yaku, yakuman


def _yaku_hits(hand: Hand, r: Reading, t: Table, pre: tuple[list, list],
               gari_held: bool = False) -> list[tuple[Yaku, int, Any]]:
    """(unit, times, value) for each yaku that counts; value is points or "yakuman". With a gari
    kind held in the hand, the yaku that may not use one are not counted (``gari_in_hand.not_for``:
    chinton "字一色は北を使えない")."""
    form = r.form
    asks = reading_asks(r)
    hits: list[tuple[Yaku, int, Any]] = [h for h in pre[0] if form in h[0].forms]
    for y, value in t.reading_yaku[form][0 if hand.closed else 1][asks]:
        n = y.test(hand, r)
        if n:
            if y.id == "chiitoitsu":
                value = t.chiitoitsu_value(r.pairs, value)
            hits.append((y, n, value))
    if len(hits) > 1:
        drops = t.drops
        drop: set[str] = set()
        for y, _, _ in hits:
            d = drops.get(y.id)
            if d:
                drop.update(d)
        if drop:
            hits = [h for h in hits if h[0].id not in drop]
    yakuman = False
    for y, n in pre[1]:
        if form in y.forms:
            hits.append((y, n, "yakuman"))
            yakuman = True
    for y, mult in t.reading_yakuman[form][asks]:
        n = y.test(hand, r)
        if n:
            hits.append((y, n * mult, "yakuman"))
            yakuman = True
    if gari_held and t.gari_in_hand_not_for:
        hits = [h for h in hits if h[0].id not in t.gari_in_hand_not_for]
        yakuman = any(v == "yakuman" for _, _, v in hits)
    if yakuman or (t.yaku_can_be_yakuman and any(v == "yakuman" for _, _, v in hits)):
        hits = _with_yakuman(hits, t)
    return hits


def _with_yakuman(hits: list[tuple[Yaku, int, Any]], t: Table) -> list[tuple[Yaku, int, Any]]:
    """Keep what a yakuman is counted with, as the preset says."""
    yakuman = [h for h in hits if h[2] == "yakuman"]
    if not t.yakuman_stack:
        yakuman = [max(yakuman, key=lambda h: h[1])]
    rule = t.with_yaku
    ordinary = [h for h in hits if h[2] != "yakuman"]
    if rule == "none":
        ordinary = []
    elif rule == "non_implied":
        implied: set[str] = set()
        for y, _, _ in yakuman:
            implied.update(y.implies)
            implied.update(t.implies.get(y.id, ()))
        ordinary = [h for h in ordinary if h[0].id not in implied]
    else:
        ordinary = [h for h in ordinary if h[0].id in rule]
    return ordinary + yakuman


# --- items that do not depend on the reading --------------------------------

class _Fixed(NamedTuple):
    """Item lines every reading shares, split where the count needs them apart."""

    before_yaku: tuple       # honba, banban, dealer, menzen
    after_yaku: tuple        # kans, ippatsu bonus, dora, ura, north, fives, gari, sets, red
    points: int              # the sum of both
    tile_points: int         # points of dora, ura, fives, red and kans (balance's karasu needs none)
    factors: tuple           # gari-set multiplier lines
    no_gari: bool


def _fixed_items(rec: HandRecord, t: Table, c: Tally) -> _Fixed:
    # Only lines that add something are kept; the lines every hand of a kind
    # shares (banban, dealer, menzen) come ready-made from the table.
    before, points = t.standing(rec.is_dealer, rec.is_closed)
    honba = rec.honba * t.honba_points
    if honba:
        before = (("honba", "本場", "Honba", honba, rec.honba, 1, "table"),) + before
        points += honba
    after = []
    kan_points = 0
    if rec.melds:
        ankan = minkan = extra_an = extra_min = 0
        for m in rec.melds:
            if m.kind == "ankan":
                ankan += 1
                extra_an += len(m.tiles) - 4
            elif m.is_kan:
                minkan += 1
                extra_min += len(m.tiles) - 4
        if ankan or minkan:
            for line in (
                ("ankan", "暗槓", "Ankan", ankan * t.ankan, ankan, 1, "kan"),
                ("minkan", "明槓", "Minkan", minkan * t.minkan, minkan, 1, "kan"),
                ("ankan_extra", "暗加槓", "Added concealed kan", extra_an * t.ankan_extra, extra_an, 1, "kan"),
                ("minkan_extra", "明加槓", "Added open kan", extra_min * t.minkan_extra, extra_min, 1, "kan"),
            ):
                if line[3]:
                    after.append(line)
                    kan_points += line[3]
    if rec.ippatsu and t.ippatsu_item:
        after.append(("ippatsu_bonus", *t.ippatsu_item_names, t.ippatsu_item, 1, 1, "yaku"))
        points += t.ippatsu_item
    dora = _dora_count(rec.dora_indicators, t, c) * t.dora if rec.dora_indicators else 0
    ura = _dora_count(rec.ura_indicators, t, c) * t.ura if rec.any_riichi and rec.ura_indicators else 0
    north = c.gari[NORTH] * t.north
    held = c.all
    five = t.five
    fives = held[4] * five[0] + held[13] * five[1] + held[22] * five[2]
    reds = c.reds
    red_pts = t.red
    red = reds[0] * red_pts[0] + reds[1] * red_pts[1] + reds[2] * red_pts[2]
    if dora:
        after.append(("dora", "ドラ", "Dora", dora, max(dora // max(t.dora, 1), 1), 1, "dora"))
    if ura:
        after.append(("ura", "裏ドラ", "Ura dora", ura, max(ura // max(t.ura, 1), 1), 1, "dora"))
    if north:
        after.append(("north", "北", "North", north, c.gari[NORTH], 1, "dora"))
    if fives:
        after.append(("fives", "五", "Fives", fives, 1, 1, "dora"))
    factors: list = []
    if rec.gari:
        gari_lines, factors = _gari(rec, t, c)
        for x in gari_lines:
            if x[3]:
                after.append(x)
                points += x[3]
    if red:
        after.append(("red", "赤", "Red fives", red, 1, 1, "red"))
    tile_points = dora + ura + fives + red + kan_points
    points += tile_points + north
    return _Fixed(before, tuple(after), points, tile_points, tuple(factors), not rec.gari)


def _dora_count(indicators: tuple[int, ...], t: Table, c: Tally) -> int:
    """The dora the indicators point at among the tiles that count. A wildcard counts as itself (docs/
    rules.md): hakus recorded in a meld as the honour they stand for are taken back to hakus, as many
    as that honour's copies show at least (``validate.stood_in``)."""
    n = 0
    dora_of = t.dora_of
    hand = c.hand
    gari = c.gari if t.dora_counts_gari else None
    # honours only: a suit's kinds hold more than ``copies`` where the wall does (chinton's eight)
    stood = ({k: n for k, n in stood_in(c.seen, (t.copies,) * 34).items() if k >= 27}
             if t.wildcard is not None else {})
    for ind in indicators:
        dk = dora_of[ind]
        if dk is None:  # the wildcard names an honour: the best for the winner, of the tiles that count
            dk = t.dora_kind(KIND_OF[ind], c.all if gari is not None else hand)
        n += hand[dk] + gari[dk] if gari is not None else hand[dk]
        if stood:
            n += sum(stood.values()) if dk == t.wildcard else -stood.get(dk, 0)
    return n


def _gari(rec: HandRecord, t: Table, c: Tally) -> tuple[list, list]:
    """Gari lines that add (gari, sets) and gari-set lines that multiply."""
    pts = len(rec.gari) * t.gari_points
    if t.gari_bai and rec.gari:
        if any(is_red(x) for x in rec.dora_indicators):
            pts *= 3
        elif any(kind(x) in t.gari for x in rec.dora_indicators):
            pts *= 2
    adds = [("gari", "ガリ", "Gari", pts, len(rec.gari), 1, "gari")]
    mults = []
    mode = t.gari_set_mode
    gari = c.gari
    for k in t.gari_sorted if len(rec.gari) >= 4 else ():  # a set is four of a kind
        if gari[k] < 4:
            continue
        name = tile_name(k)
        if mode == "multiply":
            mults.append(("gari_set", f"ガリセット {name}", f"Gari set {name}", 0, 1, t.gari_set_factor,
                          "multiplier"))
        elif mode == "double_kind":
            five_suit = (4, 13, 22).index(k) if k in (4, 13, 22) else None
            red_bonus = 0 if five_suit is None else c.red_gari[five_suit] * t.red[five_suit]
            adds.append(("gari_set", f"ガリセット {name}", f"Gari set {name} (doubled)",
                         gari[k] * t.gari_points + red_bonus, 1, 1, "gari"))
        elif mode == "add":
            p = t.gari_set_points(name)
            adds.append(("gari_set", f"セット {name}", f"Gari set {name}", p, 1, 1, "gari"))
    return adds, mults


# --- the count ------------------------------------------------------------

def _count(rec: HandRecord, t: Table, hand: Hand, hits: list[tuple[Yaku, int, Any]],
           fx: _Fixed, bounty: int) -> tuple[int, list]:
    """The total of one reading and its item lines, in the order counted aloud."""
    lines = list(fx.before_yaku)
    subtotal = fx.points
    ym = t.yakuman_value
    for y, n, value in hits:
        if value == "yakuman":
            pts, group = n * ym, "yakuman"
        else:
            pts, group = n * value, "yaku"
        lines.append((y.id, y.ja, y.en, pts, n, 1, group))
        subtotal += pts
    lines.extend(fx.after_yaku)
    mode = t.karasu_mode
    no_gari = fx.no_gari
    strict_ok = no_gari and t.karasu_strict and _karasu_strict_ok(rec, t, hits, fx)
    karasu_applies = no_gari and (not t.karasu_strict or strict_ok)
    if karasu_applies and mode == "add":
        pts = t.karasu_closed if hand.closed else t.karasu_open
        lines.append(("karasu", "カラス", "Karasu (no gari)", pts, 1, 1, "karasu"))
        subtotal += pts
    if no_gari and t.karasu_plain_add and not (karasu_applies and mode in ("fixed", "fixed_by_state")):
        # the other kind: no gari is enough, added once the yaku are counted (a fixed karasu replaces it)
        lines.append(("karasu", "ノーガリ", "No gari", t.karasu_plain_add, 1, 1, "karasu"))
        subtotal += t.karasu_plain_add
    if bounty and t.bounty_before_multiplier:
        lines.append(("bounty", "懸賞", "Bounty", bounty, 1, 1, "bounty"))
        subtotal += bounty
    factor = 1
    for f in fx.factors:
        lines.append(f)
        factor *= f[5]
    if no_gari and mode == "multiply":
        lines.append(("karasu", "ノーガリ", "No gari", 0, 1, t.karasu_factor, "multiplier"))
        factor *= t.karasu_factor
    total = subtotal * factor
    if karasu_applies and mode in ("fixed", "fixed_by_state"):
        if mode == "fixed":
            total = t.karasu_value
        else:
            total = t.karasu_closed if hand.closed else t.karasu_open
        lines.append(("karasu_fixed", "カラス", "Karasu: fixed count", total, 1, 1, "fixed"))
    if bounty and not t.bounty_before_multiplier:
        lines.append(("bounty", "懸賞", "Bounty", bounty, 1, 1, "bounty"))
        total += bounty
    if mode == "final_count" and total == t.karasu_when:
        total = t.karasu_value
        lines.append(("karasu_fixed", "カラス", f"Karasu: a count of exactly {t.karasu_when} becomes "
                      f"{total}", total, 1, 1, "fixed"))
    return total, lines


def _karasu_strict_ok(rec: HandRecord, t: Table, hits, fx: _Fixed) -> bool:
    """Balance's karasu: one 1-point yaku, no dora of any kind, no 5p/5s among the discards."""
    if len(hits) != 1 or hits[0][1] != 1 or hits[0][2] != 1 or fx.tile_points:
        return False
    if isinstance(rec.options.get("discarded_five"), bool):     # the players' word over the camera's discards
        return not rec.options["discarded_five"]
    if rec.discards is not None:
        return not any(kind(x) in FIVE_KINDS[1:] for x in rec.discards)      # a 5p or 5s
    return not t.options.get("discarded_five", False)


def _bounty(t: Table, dealer: bool, honba: int) -> int:
    """What the uninvolved player pays a ron's winner at ``honba`` (the table's): from ``bounty_from`` on."""
    if t.bounty_from is None or honba < t.bounty_from:
        return 0
    return t.bounty_dealer if dealer else t.bounty_nondealer


_OTHERS = {seat: [s for s in SEATS if s != seat] for seat in SEATS}


def _payments(rec: HandRecord, total: int, bounty: int) -> dict[str, int]:
    others = _OTHERS.get(rec.seat) or [s for s in SEATS if s != rec.seat]
    if rec.is_tsumo:
        return dict.fromkeys(others, total)
    payer = rec.discarder or "discarder"
    pay = {payer: total}
    if bounty:
        third = [s for s in others if s != rec.discarder]
        pay[third[0] if rec.discarder else "uninvolved"] = bounty
    return pay


def _describe(r: Reading, rec: HandRecord) -> str:
    if r.form == CHIITOI:
        parts = [format_mpsz([k, k]) for k in r.pairs]
    elif r.form == KOKUSHI:
        parts = [format_mpsz(rec.concealed)]
    else:
        parts = [format_mpsz([s, s + 1, s + 2]) for s in r.seqs]
        parts += [format_mpsz([k] * 3) for k, _, _ in r.trips[:len(r.trips) - len(rec.melds)]]
        parts += [m.kind + " " + format_mpsz(m.tiles) for m in rec.melds]
        parts.append(format_mpsz([r.pair, r.pair]))
    return f"{r.form}: {' '.join(parts)} (wait: {r.wait})"


def _nagashi(rec: HandRecord, t: Table) -> Result:
    """Nagashi: a yakuman where the preset lists it, else the preset's fixed count."""
    y = BY_ID["nagashi"]
    if t.nagashi_yakuman:
        total = t.yakuman_value * t.nagashi_yakuman
        line = Item(y.id, y.ja, y.en, total, t.nagashi_yakuman, group="yakuman")
    elif t.nagashi_fixed is not None:
        total = t.nagashi_fixed
        line = Item(y.id, y.ja, y.en + " (fixed)", total, group="fixed")
    else:
        raise ScoringError(f"nagashi is not a win under {rec.rules}")
    return Result(rules=rec.rules, unit=t.unit, total=total, payments=_payments(rec, total, 0),
                  items=(line,), yaku=("nagashi",), yakuman=t.nagashi_yakuman, bounty=0,
                  shape=None, record=rec)
