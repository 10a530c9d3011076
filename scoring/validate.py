"""Is this record a legal revealed hand under its preset?

Checks the tiles (tile set, copies, red fives, gari), the hand's size and the
flags against each other. Each failure is one ScoringError naming what is wrong.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import ScoringError
from .presets import Preset
from .record import HandRecord
from .tiles import format_mpsz, is_red, kind, suit, tile_name

if TYPE_CHECKING:
    from .engine import _Table


def suit_in_play(rec: HandRecord, preset: Preset) -> int | None:
    """For a one-suit wall (chinton): the suit of this hand (1 pin, 2 sou), else None."""
    if not preset.section("tiles").get("single_suit"):
        return None
    chosen = preset.options.get("suit", "auto")
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


def validate(rec: HandRecord, preset: Preset, table: "_Table") -> int | None:
    """Raise ScoringError for an illegal record; return the suit in play (one-suit walls)."""
    tiles = preset.section("tiles")
    one_suit = suit_in_play(rec, preset)
    copies = int(tiles.get("copies", 4))
    suit_copies = int(tiles.get("suit_copies", copies))
    red_limit = tiles.get("red", {})
    held = [0] * 34
    reds = [0, 0, 0]
    for t in _physical(rec):
        k = kind(t)
        held[k] += 1
        if is_red(t):
            reds[t - 34] += 1
    for k in range(34):
        if not held[k]:
            continue
        s = suit(k)
        if s == 0 and k not in table.manzu:
            raise ScoringError(f"{tile_name(k)} is not in the {rec.rules} wall (manzu: "
                               f"{', '.join(str(n + 1) for n in sorted(table.manzu))} only)")
        if one_suit is not None and s in (1, 2) and s != one_suit:
            raise ScoringError(f"{tile_name(k)} is not in this hand's wall: {rec.rules} plays "
                               f"{'mps'[one_suit]} this hand")
        limit = suit_copies if (one_suit is not None and s == one_suit) else copies
        if held[k] > limit:
            raise ScoringError(f"too many copies of {tile_name(k)}: {held[k]} seen "
                               f"(hand, melds, gari and indicators), the wall has {limit}")
    for s, n in enumerate(reds):
        limit = int(red_limit.get("mps"[s], 0))
        if n > limit:
            raise ScoringError(f"too many red fives 0{'mps'[s]}: {n} seen, {rec.rules} has {limit}")
    for t in rec.gari:
        if kind(t) not in table.gari:
            raise ScoringError(f"{tile_name(t)} in gari is not a gari under {rec.rules} "
                               f"(gari: {format_mpsz(sorted(table.gari))})")
    for t in list(rec.concealed) + [x for m in rec.melds for x in m.tiles]:
        k = kind(t)
        if k in table.gari and k not in table.gari_in_hand:
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
    max_kans = int(preset.section("rules").get("max_kans", 4))
    kans = sum(1 for m in rec.melds if m.is_kan)
    if kans > max_kans:
        raise ScoringError(f"{kans} kans: {rec.rules} allows at most {max_kans}")
    for m in rec.melds:
        if len(m.tiles) > 4 and preset.section("items").get("ankan_extra") is None:
            raise ScoringError(f"a kan of {len(m.tiles)} tiles: {rec.rules} has no added kan of a fifth tile")
    _check_flags(rec)
    return one_suit


def _check_flags(rec: HandRecord) -> None:
    tsumo = rec.is_tsumo
    need = [
        (rec.ippatsu and not rec.any_riichi, "ippatsu needs riichi"),
        (rec.any_riichi and not rec.is_closed, "riichi needs a closed hand (ankan only)"),
        (rec.rinshan and not tsumo, "rinshan is a tsumo win"),
        (rec.rinshan and not (any(m.is_kan for m in rec.melds) or rec.gari),
         "rinshan needs a kan or a gari replacement draw"),
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
