"""Is this record a legal revealed hand under its preset?

Checks the tiles (tile set, copies, red fives, gari), the hand's size and the
flags against each other. Each failure is one ScoringError naming what is wrong.
"""

from __future__ import annotations

from operator import add, gt
from typing import TYPE_CHECKING, NamedTuple, Sequence

from .errors import DiscardsError, ScoringError
from .record import HandRecord
from .tiles import FIVE_KINDS, KIND_OF, format_mpsz, kind, suit, tile_name

if TYPE_CHECKING:
    from .table import Table


def suit_in_play(rec: HandRecord, t: "Table") -> int | None:
    """For a one-suit wall (chinton): the suit of this hand (1 pin, 2 sou), else None."""
    if not t.single_suit:
        return None
    chosen = t.options.get("suit", "auto")
    if chosen in ("p", "s"):
        return "mps".index(chosen)
    if chosen != "auto":
        raise ScoringError(f"option suit must be p, s or auto, got {chosen!r}")
    present = {suit(kind(t)) for t in _physical(rec) if 9 <= kind(t) < 27}
    if len(present) > 1:
        raise ScoringError(f"{rec.rules} plays one suit per hand, but the tiles hold both pinzu and souzu")
    if not present and rec.discards:        # a hand of honours alone: its wall's suit is the discards'
        present = {suit(kind(t)) for t in rec.discards if 9 <= kind(t) < 27}
        if len(present) > 1:
            raise DiscardsError(f"discards: {rec.rules} plays one suit per hand, but the discards hold both "
                                "pinzu and souzu")
    return present.pop() if present else 1


def _fields(rec: HandRecord) -> tuple[tuple[str, Sequence[int]], ...]:
    """The record's fields of tiles that lie on the table, each named as a refusal names it."""
    return (("hand", rec.concealed), ("melds", [x for m in rec.melds for x in m.tiles]), ("gari", rec.gari),
            ("dora indicators", rec.dora_indicators), ("ura indicators", rec.ura_indicators))


def _physical(rec: HandRecord):
    for _, tiles in _fields(rec):
        yield from tiles


def _where_plain(rec: HandRecord, five: int) -> str:
    """Where a record holds plain fives of kind ``five``, field by field ("hand 3, dora indicators
    1"): the players are told which tile to make red, not only that one is."""
    return ", ".join(f"{name} {n}" for name, tiles in _fields(rec) if (n := sum(x == five for x in tiles)))


class Tally(NamedTuple):
    """The record's tiles counted once, per kind (34 counts) and red fives per suit."""

    concealed: tuple[int, ...]   # concealed tiles
    hand: list[int]              # concealed and melds
    gari: list[int]
    all: list[int]               # hand and gari
    seen: list[int]              # everything on the table the record names, indicators too
    reds: tuple[int, int, int]   # red fives in hand, melds and gari
    red_gari: tuple[int, int, int]
    reds_seen: tuple[int, int, int]


def _by_code(tiles) -> list[int]:
    """37 counts per tile code (red fives apart)."""
    c = [0] * 37
    for t in tiles:
        c[t] += 1
    return c


def _kinds(by_code: list[int]) -> list[int]:
    """34 counts per kind from 37 per code: a red five is its five."""
    c = by_code[:34]
    c[4] += by_code[34]
    c[13] += by_code[35]
    c[22] += by_code[36]
    return c


_NONE = [0] * 34   # the counts of no tiles, shared: a Tally's lists are only read


def tally(rec: HandRecord) -> Tally:
    # Most records have no melds and few gari or indicators: what they would
    # add is skipped rather than added as zeros, and unchanged lists are shared.
    conc_codes = _by_code(rec.concealed)
    conc = _kinds(conc_codes)
    reds = conc_codes[34:]
    hand = conc
    if rec.melds:
        hand = conc[:]
        for m in rec.melds:
            hand[m.tile_kind] += len(m.tiles)
            if m.tile_kind in (4, 13, 22):
                for t in m.tiles:
                    if t >= 34:
                        reds[t - 34] += 1
    if rec.gari:
        gari_codes = _by_code(rec.gari)
        gari = _kinds(gari_codes)
        red_gari = tuple(gari_codes[34:])
        allc = hand[:]
        for t in rec.gari:  # a few tiles: cheaper than adding 34 counts
            allc[KIND_OF[t]] += 1
        reds = tuple(map(add, reds, red_gari))
    else:
        gari, red_gari, allc, reds = _NONE, (0, 0, 0), hand, tuple(reds)
    seen = allc
    reds_seen = reds
    indicators = rec.dora_indicators + rec.ura_indicators
    if indicators:
        seen = allc[:]
        reds_seen = list(reds)
        for t in indicators:
            if t >= 34:
                reds_seen[t - 34] += 1
                t = KIND_OF[t]
            seen[t] += 1
        reds_seen = tuple(reds_seen)
    return Tally(tuple(conc), hand, gari, allc, seen, reds, red_gari, reds_seen)


def validate(rec: HandRecord, t: "Table", c: Tally) -> int | None:
    """Raise ScoringError for an illegal record; return the suit in play (one-suit walls)."""
    one_suit = suit_in_play(rec, t) if t.single_suit else None
    limits = t.copy_limits(one_suit)
    # Fast check: no kind over the fewest copies any kind in the wall has, and no
    # kind the wall lacks. Else the exact check, kind by kind.
    least, absent = t.copy_floor(one_suit)
    seen = c.seen
    if max(seen) > least or any(map(seen.__getitem__, absent)):
        if any(map(gt, seen, limits)) and not _hakus_stand_in(rec, seen, limits, t):
            _too_many(rec, t, c, limits, one_suit)
    # Each check asks its question of all tiles at once; the loops that name the culprit run on failure.
    if any(map(gt, c.reds_seen, t.red_limit)):
        for s, n in enumerate(c.reds_seen):
            if n > t.red_limit[s]:
                raise ScoringError(f"too many red fives 0{'mps'[s]}: {n} seen, {rec.rules} has {t.red_limit[s]}")
    # the wall's fives of a suit hold its red ones: the rest are plain, and more plain fives than that
    # (an ankan of 5p entered 5555p, where two of the four are red) is no hand of this wall
    for s, five in enumerate(FIVE_KINDS):
        plain = seen[five] - c.reds_seen[s]
        if plain > limits[five] - t.red_limit[s] >= 0 and limits[five]:
            raise ScoringError(f"too many plain fives 5{'mps'[s]}: {plain} seen ({_where_plain(rec, five)}); "
                               f"the {rec.rules} wall has {limits[five] - t.red_limit[s]} plain and "
                               f"{t.red_limit[s]} red (0{'mps'[s]}): a red one taken for plain?")
    if rec.gari and not t.gari.issuperset(map(KIND_OF.__getitem__, rec.gari)):
        for k, n in enumerate(c.gari):
            if n and k not in t.gari:
                raise ScoringError(f"{tile_name(k)} in gari is not a gari under {rec.rules} "
                                   f"(gari: {format_mpsz(sorted(t.gari))})")
    hand = c.hand
    if any(map(hand.__getitem__, t.gari_not_in_hand)):
        for k in t.gari_not_in_hand:
            if hand[k]:
                raise ScoringError(f"{tile_name(k)} is a gari under {rec.rules}: it is set aside in gari, "
                                   "never part of the hand")
    size = len(rec.concealed) + 3 * len(rec.melds)
    if rec.nagashi:
        if rec.melds:
            raise ScoringError("nagashi is lost by any call: a nagashi hand has no melds")
        if not rec.is_tsumo:
            raise ScoringError("nagashi is paid like a tsumo: set win to tsumo")
        if t.nagashi_lost_by_riichi and rec.any_riichi:
            raise ScoringError(f"nagashi is lost by a riichi under {rec.rules}: a nagashi hand has no riichi")
    elif size != 14:
        raise ScoringError(f"the hand has {size} tile{'s' if size != 1 else ''} counting 3 per meld; a win has 14 "
                           "(concealed includes the winning tile)")
    if rec.melds:
        kans = sum(1 for m in rec.melds if m.is_kan)
        if kans > t.max_kans:
            raise ScoringError(f"{kans} kans: {rec.rules} allows at most {t.max_kans}")
        for m in rec.melds:
            called = [k for k in map(KIND_OF.__getitem__, m.tiles) if k in t.gari] if t.gari_in_hand_concealed else ()
            if called:
                raise ScoringError(f"{tile_name(called[0])} is a gari under {rec.rules}: held in a hand "
                                   "only concealed, never called or made a kan")
            if len(m.tiles) > 4 and not t.allows_added_kan:
                raise ScoringError(f"a kan of {len(m.tiles)} tiles: {rec.rules} has no added kan of a fifth tile")
    if len(rec.dora_indicators) > 1 + t.max_kans:     # one, and one more for each kan the table may make
        raise ScoringError(f"{len(rec.dora_indicators)} dora indicators: a table shows at most "
                           f"{1 + t.max_kans} under {rec.rules} (one, and one per kan)")
    if rec.any_riichi and len(rec.ura_indicators) > len(rec.dora_indicators):   # without: the flags' check says it
        raise ScoringError(f"{len(rec.ura_indicators)} ura indicators under {len(rec.dora_indicators)} dora "
                           "indicator(s): one ura lies under each dora indicator")
    # Every flag check below is about a flag that is set (or ura indicators): most hands have none.
    if rec.true_flags or rec.ura_indicators:
        _check_flags(rec, t.rinshan_on_gari)
    if rec.discards:
        _check_discards(rec, t, c, limits)
    return one_suit


def _check_discards(rec: HandRecord, t: "Table", c: Tally, limits: tuple[int, ...]) -> None:
    """The winner's discards are tiles of the wall too, none of them also in the hand, melds, gari or
    indicators: no kind the wall lacks, no more copies or red fives than it holds with the rest.
    (Balance counts karasu from them: a 5p the wall could not hold was no 5p discarded.) Honours
    under a rule with a wildcard are not counted: a meld of one may hold wildcards recorded as it."""
    codes = _by_code(rec.discards)
    counts = _kinds(codes)
    for k, n in enumerate(counts):
        if not n:
            continue
        if not limits[k]:
            raise DiscardsError(f"discards: {tile_name(k)} is not in "
                                + (f"this hand's {rec.rules} wall" if t.single_suit else f"the {rec.rules} wall"))
        # an honour under a wildcard rule (chinton's haku): a meld of it may hold hakus recorded as it,
        # so how many real ones the hand holds is not known
        if c.seen[k] + n > limits[k] and not (t.wildcard is not None and k >= 27):
            raise DiscardsError(f"discards: {n} {tile_name(k)} discarded and {c.seen[k]} in the hand, melds, gari "
                                f"and indicators; the {rec.rules} wall has {limits[k]}")
    for s, n in enumerate(codes[34:]):
        if n and c.reds_seen[s] + n > t.red_limit[s]:
            raise DiscardsError(f"discards: {n} red 0{'mps'[s]} discarded and {c.reds_seen[s]} in the hand, melds, "
                                f"gari and indicators; the {rec.rules} wall has {t.red_limit[s]}")


def _hakus_stand_in(rec: HandRecord, seen: tuple[int, ...], limits: tuple[int, ...], t: "Table") -> bool:
    """Whether the rule's wildcard (chinton's haku) covers every honour seen beyond its copies: a meld
    made with hakus is recorded as the kind it stands for (docs/rules.md), so two Easts in the hand
    and a pon of East made with two hakus are five Easts. Only a meld's tiles may be hakus so
    recorded (a concealed haku is written 5z, an indicator is the tile turned), each meld holding one
    real tile at least, and no more hakus than the wall's, less those seen as themselves."""
    w = t.wildcard
    if w is None:
        return False
    beyond = stood_in(seen, limits)
    if any(k < 27 or k == w for k in beyond):
        return False
    called = [0] * 34
    for m in rec.melds:
        called[m.tile_kind] += len(m.tiles) - 1
    return (all(n <= called[k] for k, n in beyond.items())
            and seen[w] + sum(beyond.values()) <= limits[w])


def stood_in(seen, limits) -> dict[int, int]:
    """Kind -> how many of it are seen beyond its copies: under a wildcard rule (``_hakus_stand_in``),
    at least that many are wildcards recorded as it."""
    return {k: n - lim for k, (n, lim) in enumerate(zip(seen, limits)) if n > lim}


def _too_many(rec: HandRecord, t: "Table", c: Tally, limits: tuple[int, ...], one_suit: int | None) -> None:
    """Raise for the first kind seen more often than this hand's wall holds it."""
    over = [k for k, (n, lim) in enumerate(zip(c.seen, limits)) if n > lim]
    for k in over:
        n = c.seen[k]
        s = k // 9 if k < 27 else 3
        if s == 0 and k not in t.manzu:
            raise ScoringError(f"{tile_name(k)} is not in the {rec.rules} wall (manzu: "
                               f"{', '.join(str(x + 1) for x in sorted(t.manzu))} only)")
        if one_suit is not None and s in (1, 2) and s != one_suit:
            raise ScoringError(f"{tile_name(k)} is not in this hand's wall: {rec.rules} plays "
                               f"{'mps'[one_suit]} this hand")
        stand_in = (f" and {limits[t.wildcard]} {tile_name(t.wildcard)} to stand in for honours in melds, "
                    f"{c.seen[t.wildcard]} of them seen as themselves"
                    if t.wildcard is not None and k >= 27 and k != t.wildcard else "")
        raise ScoringError(f"too many copies of {tile_name(k)}: {n} seen "
                           f"(hand, melds, gari and indicators), the wall has {limits[k]}{stand_in}")


def _check_flags(rec: HandRecord, rinshan_on_gari: bool = True) -> None:
    """The set flags against the hand and each other; the first misfit, in this order, is the error."""
    tsumo = rec.is_tsumo
    riichi = rec.any_riichi
    if rec.ippatsu and not riichi:
        raise ScoringError("ippatsu needs riichi")
    if riichi and not rec.is_closed:
        raise ScoringError("riichi needs a closed hand (ankan only)")
    if rec.rinshan:
        if not tsumo:
            raise ScoringError("rinshan is a tsumo win")
        kan = any(m.is_kan for m in rec.melds)
        if rinshan_on_gari and not (kan or rec.gari):
            raise ScoringError("rinshan needs a kan or a gari replacement draw")
        if not rinshan_on_gari and not kan:
            raise ScoringError(f"rinshan needs a kan under {rec.rules} (a gari replacement draw is not rinshan)")
    if rec.chankan and tsumo:
        raise ScoringError("chankan is a ron win")
    if rec.haitei and not tsumo:
        raise ScoringError("haitei is a tsumo win (houtei is the ron)")
    if rec.houtei and tsumo:
        raise ScoringError("houtei is a ron win (haitei is the tsumo)")
    if rec.tenhou and not (rec.is_dealer and tsumo and not rec.melds):
        raise ScoringError("tenhou is the dealer's closed tsumo")
    if rec.chiihou and (rec.is_dealer or not tsumo or rec.melds):
        raise ScoringError("chiihou is a non-dealer's closed tsumo")
    if rec.renhou and (rec.is_dealer or tsumo or rec.melds):
        raise ScoringError("renhou is a non-dealer's closed ron")
    if (rec.tenhou or rec.chiihou or rec.renhou) and (riichi or rec.ippatsu):
        raise ScoringError("tenhou, chiihou and renhou come before the winner's first discard: "
                           "no riichi, double riichi or ippatsu can be with them")
    if rec.ura_indicators and not riichi:
        raise ScoringError("ura_indicators are only turned for a riichi")
