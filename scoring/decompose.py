"""Every way a concealed hand can be read.

A hand wins as four sets and a pair (melds are sets already), as seven pairs
(chiitoitsu, where some presets let one kind make two, three or four pairs),
or as kokushi. The standard reading is found suit by suit: the readings of one
suit depend only on that suit's nine counts, so they are computed once per
count pattern and remembered (the usual way to make this fast).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple
from itertools import product

# A set inside one suit is encoded as an int: 0-6 a sequence starting at that
# number-1, 10-18 a triplet of number-9. Globally a set is (kind, is_seq).


@lru_cache(maxsize=None)
def suit_readings(counts: tuple[int, ...], allow_seq: bool) -> tuple[tuple[tuple[int, ...], int], ...]:
    """All (sets, pair) readings of one suit's counts; pair is -1 when there is none.

    >>> suit_readings((1, 1, 1, 0, 0, 0, 0, 0, 0), True)
    (((0,), -1),)
    """
    total = sum(counts)
    if total % 3 == 1:  # a suit holds sets (3n) or sets and the pair (3n+2)
        return ()
    return tuple(sorted({(tuple(sorted(sets)), pair) for sets, pair in _ways(counts, allow_seq, total % 3 == 2)}))


@lru_cache(maxsize=None)
def _ways(counts: tuple[int, ...], allow_seq: bool, with_pair: bool) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every (sets, pair) reading of counts, with exactly one pair if with_pair.

    The lowest tile left is a triplet, starts a sequence or is the pair; what
    remains is read the same way. Remembered per remainder: hands that differ
    in a few sets share the rest of the work.
    """
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        return () if with_pair else (((), -1),)
    out = []
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        out += [((10 + i,) + sets, pair) for sets, pair in _ways(tuple(c), allow_seq, with_pair)]
        c[i] += 3
    if allow_seq and i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1; c[i + 1] -= 1; c[i + 2] -= 1
        out += [((i,) + sets, pair) for sets, pair in _ways(tuple(c), allow_seq, with_pair)]
        c[i] += 1; c[i + 1] += 1; c[i + 2] += 1
    if with_pair and c[i] >= 2:
        c[i] -= 2
        out += [(sets, i) for sets, _ in _ways(tuple(c), allow_seq, False)]
    return tuple(out)


class Standard(NamedTuple):
    """Concealed sets and the pair of a four-sets-and-a-pair reading."""

    seqs: tuple[int, ...]      # start kinds of concealed sequences, ascending
    trips: tuple[int, ...]     # kinds of concealed triplets
    pair: int


# Per group (man, pin, sou, honours): its counts -> its readings with global
# kinds, as (seqs, trips, pair or -1, number of sets). Filled as hands come.
_GROUP_READINGS: tuple[dict, ...] = ({}, {}, {}, {})
_EMPTY = ((0,) * 9, (0,) * 9, (0,) * 9, (0,) * 7)   # a group with no tiles reads as nothing


def _group_readings(chunk: tuple[int, ...], g: int) -> tuple[tuple, ...]:
    base = 9 * g
    found = tuple([
        (tuple([base + x for x in sets if x < 10]), tuple([base + x - 10 for x in sets if x >= 10]),
         base + pair if pair >= 0 else -1, len(sets))
        for sets, pair in suit_readings(chunk if g < 3 else chunk + (0, 0), g < 3)])
    _GROUP_READINGS[g][chunk] = found
    return found


_GROUPS = ((0, 0, 9), (1, 9, 18), (2, 18, 27), (3, 27, 34))   # (group, first kind, end)


def standard_readings(counts: list[int] | tuple[int, ...], sets_needed: int) -> list[Standard]:
    """Readings of 34 concealed counts as ``sets_needed`` sets plus one pair."""
    counts = tuple(counts)
    per_group = []
    for g, lo, hi in _GROUPS:
        chunk = counts[lo:hi]
        if chunk == _EMPTY[g]:  # a group with no tiles reads as nothing
            continue
        rs = _GROUP_READINGS[g].get(chunk)
        if rs is None:
            rs = _group_readings(chunk, g)
        if not rs:
            return []
        per_group.append(rs)
    out = []
    for combo in product(*per_group):
        seqs = trips = ()
        pair = -1
        n_sets = 0
        for part_seqs, part_trips, p, n in combo:
            if p >= 0:
                if pair >= 0:
                    break
                pair = p
            n_sets += n
            seqs += part_seqs
            trips += part_trips
        else:
            if pair >= 0 and n_sets == sets_needed:
                out.append(Standard(seqs, trips, pair))
    return out


def chiitoitsu_pairs(counts: list[int] | tuple[int, ...], max_use: int) -> tuple[int, ...] | None:
    """Kinds of the seven pairs (a kind used 4 times appears twice), or None.

    ``max_use`` is how many copies of one kind a preset lets count as pairs:
    2 in the ordinary game, 4, 6 or 8 where the preset allows it.
    """
    if 1 in counts or 3 in counts:  # the usual hand: an odd count, no seven pairs
        return None
    pairs: list[int] = []
    for k, n in enumerate(counts):
        if n:
            if n % 2 or n > max_use:
                return None
            pairs.extend([k] * (n // 2))
    return tuple(pairs) if len(pairs) == 7 else None


def is_kokushi(counts: list[int] | tuple[int, ...], required: tuple[int, ...]) -> bool:
    """``required`` is the 13-tile kokushi set as 34 counts; the 14th tile pairs any of its kinds."""
    extra = 0
    for k in range(34):
        need = required[k]
        have = counts[k]
        if have < need or (need == 0 and have):
            return False
        extra += have - need
    return extra == 1
