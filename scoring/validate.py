"""Is this record a legal revealed hand under its preset?

Checks the tiles (tile set, copies, red fives, gari), the hand's size and the
flags against each other. Each failure is one ScoringError naming what is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .errors import ScoringError
from .record import HandRecord
from .tiles import _RED_KIND, format_mpsz, kind, suit, tile_name

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
    return present.pop() if present else 1


def _physical(rec: HandRecord):
    yield from rec.concealed
    for m in rec.melds:
        yield from m.tiles
    yield from rec.gari
    yield from rec.dora_indicators
    yield from rec.ura_indicators


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


def tally(rec: HandRecord) -> Tally:
    conc = [0] * 34
    for t in rec.concealed:
        conc[t if t < 34 else _RED_KIND[t]] += 1
    hand = conc[:]
    for m in rec.melds:
        hand[m.tile_kind] += len(m.tiles)
    gari = [0] * 34
    for t in rec.gari:
        gari[t if t < 34 else _RED_KIND[t]] += 1
    allc = [a + b for a, b in zip(hand, gari)]
    seen = allc[:]
    for t in rec.dora_indicators + rec.ura_indicators:
        seen[t if t < 34 else _RED_KIND[t]] += 1
    reds = [0, 0, 0]
    for t in rec.concealed:
        if t >= 34:
            reds[t - 34] += 1
    for m in rec.melds:
        for t in m.tiles:
            if t >= 34:
                reds[t - 34] += 1
    red_gari = [0, 0, 0]
    for t in rec.gari:
        if t >= 34:
            red_gari[t - 34] += 1
    reds_seen = [a + b for a, b in zip(reds, red_gari)]
    for t in rec.dora_indicators + rec.ura_indicators:
        if t >= 34:
            reds_seen[t - 34] += 1
    return Tally(tuple(conc), hand, gari, allc, seen,
                 tuple(a + b for a, b in zip(reds, red_gari)), tuple(red_gari), tuple(reds_seen))


def validate(rec: HandRecord, t: "Table", c: Tally) -> int | None:
    """Raise ScoringError for an illegal record; return the suit in play (one-suit walls)."""
    one_suit = suit_in_play(rec, t) if t.single_suit else None
    limits = t.copy_limits(one_suit)
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
        raise ScoringError(f"too many copies of {tile_name(k)}: {n} seen "
                           f"(hand, melds, gari and indicators), the wall has {limits[k]}")
    for s, n in enumerate(c.reds_seen):
        if n > t.red_limit[s]:
            raise ScoringError(f"too many red fives 0{'mps'[s]}: {n} seen, {rec.rules} has {t.red_limit[s]}")
    for k, n in enumerate(c.gari):
        if n and k not in t.gari:
            raise ScoringError(f"{tile_name(k)} in gari is not a gari under {rec.rules} "
                               f"(gari: {format_mpsz(sorted(t.gari))})")
    for k in t.gari:
        if c.hand[k] and k not in t.gari_in_hand:
            raise ScoringError(f"{tile_name(k)} is a gari under {rec.rules}: it is set aside in gari, "
                               "never part of the hand")
    size = len(rec.concealed) + 3 * len(rec.melds)
    if rec.nagashi:
        if rec.melds:
            raise ScoringError("nagashi is lost by any call: a nagashi hand has no melds")
        if not rec.is_tsumo:
            raise ScoringError("nagashi is paid like a tsumo: set win to tsumo")
    elif size != 14:
        raise ScoringError(f"the hand has {size} tiles counting 3 per meld; a win has 14 "
                           "(concealed includes the winning tile)")
    kans = sum(1 for m in rec.melds if m.is_kan)
    if kans > t.max_kans:
        raise ScoringError(f"{kans} kans: {rec.rules} allows at most {t.max_kans}")
    for m in rec.melds:
        if len(m.tiles) > 4 and not t.allows_added_kan:
            raise ScoringError(f"a kan of {len(m.tiles)} tiles: {rec.rules} has no added kan of a fifth tile")
    _check_flags(rec, bool(t.preset.section("rules").get("rinshan_on_gari", True)))
    return one_suit


def _check_flags(rec: HandRecord, rinshan_on_gari: bool = True) -> None:
    tsumo = rec.is_tsumo
    need = [
        (rec.ippatsu and not rec.any_riichi, "ippatsu needs riichi"),
        (rec.any_riichi and not rec.is_closed, "riichi needs a closed hand (ankan only)"),
        (rec.rinshan and not tsumo, "rinshan is a tsumo win"),
        (rec.rinshan and rinshan_on_gari and not (any(m.is_kan for m in rec.melds) or rec.gari),
         "rinshan needs a kan or a gari replacement draw"),
        (rec.rinshan and not rinshan_on_gari and not any(m.is_kan for m in rec.melds),
         f"rinshan needs a kan under {rec.rules} (a gari replacement draw is not rinshan)"),
        (rec.chankan and tsumo, "chankan is a ron win"),
        (rec.haitei and not tsumo, "haitei is a tsumo win (houtei is the ron)"),
        (rec.houtei and tsumo, "houtei is a ron win (haitei is the tsumo)"),
        (rec.tenhou and not (rec.is_dealer and tsumo and not rec.melds), "tenhou is the dealer's closed tsumo"),
        (rec.chiihou and (rec.is_dealer or not tsumo or rec.melds), "chiihou is a non-dealer's closed tsumo"),
        (rec.renhou and (rec.is_dealer or tsumo or rec.melds), "renhou is a non-dealer's closed ron"),
        (bool(rec.ura_indicators) and not rec.any_riichi, "ura_indicators are only turned for a riichi"),
    ]
    for bad, msg in need:
        if bad:
            raise ScoringError(msg)
