"""Which kind each tile of a confirmed count was: the read tiles labelled by the hand as confirmed.

A count's cuts teach the table's tile set (``service.table_tiles``) only under a
name the players stood behind: the hand record they confirmed, after their
fixes. The record says which tiles lay face up, not where, so the cuts are
matched to it by kind (``labels``); pure functions, which pass a cut's image through untouched.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Collection, Mapping, Sequence

from vision.classes import BACK
from vision.layout import tiles_of

# The zones whose tiles a hand record names (concealed row, melds, gari, the dead wall's indicators);
# the tablet does not confirm discards, so their cuts are never labelled.
DEAD_WALL = "dead_wall"
CONFIRMED_ZONES = ("hand", "melds", "gari", DEAD_WALL)
_WINNERS_ZONES = CONFIRMED_ZONES[:3]             # the winners' own tiles lie there; the indicators in the dead wall
_KAN_ZONES = CONFIRMED_ZONES[:2]                 # where a closed kan's backs lie (the hand, the melds)
_SHOWN_FIELDS = ("concealed", "gari")            # the winner's own; ``concealed`` holds the winning tile
_TABLE_FIELDS = ("dora_indicators", "ura_indicators")


def face_up_tiles(records: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    """``(shown, maybe)``: the tiles the confirmed records say lie face up, and those that may.

    Shown: the winners' own (``winners_tiles``), then the dead wall's indicators (``indicator_tiles``).
    Maybe: an ankan's tiles, two of which lie face down, and which two (of a five: red or plain) the
    record does not say. Red fives are their own kind (``0p`` is not ``5p``)."""
    shown, maybe = winners_tiles(records)
    return shown + indicator_tiles(records), maybe


def winners_tiles(records: Sequence[Mapping[str, Any]]) -> tuple[list[str], list[str]]:
    """``(shown, maybe)`` of the winners' own tiles: each record's ``concealed`` (which holds its
    ``win_tile``: that is not counted twice), its pon/minkan/kakan tiles and its ``gari``; maybe, an
    ankan's tiles."""
    shown: list[str] = []
    maybe: list[str] = []
    for record in records:
        for name in _SHOWN_FIELDS:
            shown += tiles_of(str(record.get(name) or ""))
        for meld in record.get("melds") or ():
            (maybe if meld.get("kind") == "ankan" else shown).extend(tiles_of(str(meld.get("tiles") or "")))
    return shown, maybe


def indicator_tiles(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The dora and ura indicators, once: a double ron's two records name the same dead wall, so of
    each field the record naming the most (the second winner's record may lack them, or hold no ura
    without a riichi)."""
    return [t for name in _TABLE_FIELDS
            for t in max((tiles_of(str(r.get(name) or "")) for r in records), key=len, default=[])]


def labels(read: Sequence[str], shown: Sequence[str], maybe: Sequence[str] = (),
           fixed: Collection[int] = ()) -> list[str | None]:
    """The kind to learn each read tile as, or None: not learnt from.

    ``read`` is what the reader named each face-up cut; ``shown`` and ``maybe`` are the confirmed
    tiles (``face_up_tiles``); ``fixed``, the read tiles (indices) the players tapped and fixed on
    the snapshot. A read tile whose kind is among the confirmed ones is labelled that kind, each
    confirmed tile taken once (first ``shown``, then ``maybe``); a tapped tile is never so matched,
    as its read kind is the one the players took back. Of what is left: when exactly one read tile
    and exactly one shown tile are unmatched, the players fixed that one tile, and it is labelled as
    they fixed it; otherwise (two fixes or more, a tile the players removed, one they added) the
    unmatched cuts are not learnt from, as which cut became which tile is not known.

    A read tile left over whose kind the hand also holds, not tapped, while a confirmed tile was not
    read, says one of the cuts read as that kind is that tile, and not which: none of them is learnt
    from (a 4s read as 8s in a hand holding three 8s; matched in reading order, the misread 4s was
    learnt as an 8s and a true 8s as the 4s, and the next count read every 8s as 4s). So too a
    confirmed tile no cut is left over for, where more cuts were matched to a closed kan than its two
    faces up: the cut read as it was taken in by the kan's face-down places (``maybe`` holds all four
    of an ankan), and the kan's kind is not learnt from. A red five is its own kind: a ``5p`` read
    where ``0p`` was confirmed is a fix, and of two fives read plain, one confirmed red, the red one
    is known only by the players' tap."""
    held = Counter(shown) + Counter(maybe)
    left, extra = Counter(shown), Counter(maybe)
    out: list[str | None] = [None] * len(read)
    from_maybe: Counter = Counter()         # cuts matched to an ankan's tiles, by kind a five's red or plain
    for pool in (left, extra):
        for i, tile in enumerate(read):
            if out[i] is None and i not in fixed and pool[tile] > 0:
                pool[tile] -= 1
                out[i] = tile
                if pool is extra:
                    from_maybe[_plain(tile)] += 1
    unmatched = [i for i, kind in enumerate(out) if kind is None]
    missing = list((+left).elements())
    # a cut left over whose fix is plain: tapped, or read as a kind the hand holds none of
    plain = [i for i in unmatched if i in fixed or held[read[i]] == 0]
    doubtful: set[str] = set()
    if missing:     # a confirmed tile not read: some cut is it, misread
        doubtful = {read[i] for i in unmatched if i not in plain}
        # no leftover cut is it: where more cuts were matched to an ankan than its two faces up, its
        # face-down places took the misread cut in
        face_up = Counter(_plain(k) for k in maybe)
        over = {k for k, n in from_maybe.items() if 2 * n > face_up[k]}
        if len(missing) > len(plain) and over:
            doubtful |= {tile for tile in read if _plain(tile) in over}
    out = [None if i not in fixed and tile in doubtful else kind for i, (tile, kind) in enumerate(zip(read, out))]
    if len(unmatched) == 1 and len(missing) == 1 and read[unmatched[0]] not in doubtful:
        out[unmatched[0]] = missing[0]
    return out


def _plain(tile: str) -> str:
    """A tile's kind with a red five taken as its plain five (an ankan's two faces up may be either)."""
    return "5" + tile[1:] if tile.startswith("0") else tile


def confirmed_labels(cuts: Sequence[tuple[str, str]], records: Sequence[Mapping[str, Any]],
                     fixed: Collection[int] = ()) -> list[str | None]:
    """The kind to learn each cut ``(tile read, zone)`` of a count as, once ``records`` are confirmed;
    None: not learnt from. ``fixed``: the cuts (indices) the players tapped and fixed.

    A cut outside ``CONFIRMED_ZONES`` is not learnt from. The winners' zones (hand, melds, gari) are
    labelled by ``labels`` against the winners' tiles, the dead wall against its indicators, each on
    its own: a fix in the hand to a kind the indicators also show (a 3s read as the 5s that is the
    dora indicator) names the hand's cut, not the indicator's. Then the dead wall: when every
    indicator was matched by a read tile there, a dead-wall cut still unlabelled is a back. The dead
    wall holds its indicators face up and every other tile face down, so a cut there that is none of
    them is a back the reader named a face (a set's lilac backs read as 白), which the players took
    off the indicators. So the set learns that back, and reads it right the next time.

    A cut read as a back is no face to match: it is a back on the dead wall as above, in the hand or
    the melds where the hand holds a closed kan (two of its tiles lie face down), else unlabelled.
    (The table's own cuts are faces only; a confirmed frame's labels, ``service.photo_labels``, name
    its backs too.)"""
    out: list[str | None] = [None] * len(cuts)
    shown, maybe = winners_tiles(records)
    own = [i for i, (tile, zone) in enumerate(cuts) if zone in _WINNERS_ZONES and tile != BACK]
    for i, kind in zip(own, labels([cuts[i][0] for i in own], shown, maybe, _among(own, fixed))):
        out[i] = kind
    indicators = indicator_tiles(records)
    wall = [i for i, (tile, zone) in enumerate(cuts) if zone == DEAD_WALL and tile != BACK]
    named = labels([cuts[i][0] for i in wall], indicators, fixed=_among(wall, fixed))
    for i, kind in zip(wall, named):
        out[i] = kind
    wall_found = not (Counter(indicators) - Counter(k for k in named if k is not None))
    for i, (tile, zone) in enumerate(cuts):
        if out[i] is None and (zone == DEAD_WALL and wall_found
                               or tile == BACK and bool(maybe) and zone in _KAN_ZONES):
            out[i] = BACK
    return out


def _among(chosen: Sequence[int], fixed: Collection[int]) -> set[int]:
    """The places in ``chosen`` (indices) of the indices in ``fixed``."""
    return {k for k, i in enumerate(chosen) if i in fixed}


def confirmed_cuts(cuts: Sequence[Any], records: Sequence[Mapping[str, Any]],
                   fixed_boxes: Collection[int] = ()) -> list[tuple[str, Any]]:
    """``(kind, image)`` of each cut (``service.reader.Cut``: ``tile``, ``zone``, ``seat``, ``image``,
    ``box``) that a count confirmed as ``records`` teaches, by ``confirmed_labels``; the images pass
    through untouched. ``fixed_boxes``: the reading's boxes the players tapped and fixed on the
    snapshot (``editing.Draft.fixed``), which are the cuts of those ``box``. A cut in the hand, melds
    or gari of a seat that no record names the winner (``seat``) teaches nothing: it is another
    player's tile, not one the players confirmed. A reader can take a row for the winner's that is
    not (a set's pale backs read as 白, thirteen of them, took the seat) or read a face on another
    seat's row, and matched by kind such a cut was learnt as the winner's tile of its name: a back
    learnt as 白, and the set then read every pale back as 白 (docs/vision.md). A cut whose seat is
    not known is matched as before."""
    winners = {r.get("seat") for r in records}
    kept = [(c.tile, c.zone if c.seat is None or c.zone not in _WINNERS_ZONES or c.seat in winners else "")
            for c in cuts]
    tapped = {i for i, c in enumerate(cuts) if c.box is not None and c.box in fixed_boxes}
    kinds = confirmed_labels(kept, records, tapped)
    return [(kind, c.image) for kind, c in zip(kinds, cuts) if kind is not None]
