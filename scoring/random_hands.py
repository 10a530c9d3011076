"""Seeded random WINNING hand records for the three-player tile set.

Used by the cross-check against the ``mahjong`` package and by the speed
benchmark::

    import random
    from scoring.random_hands import random_winning_record
    rec = random_winning_record(random.Random(7))      # a dunhill hand record dict

Every record is a legal, complete winning hand in the record format of
``scoring/record.py``:

* tiles from the dunhill hand set only: pinzu, souzu and the honours
  1z 2z 3z 5z 6z 7z (manzu 1m 5m 9m and North are gari and never in the hand);
* closed and open hands: pon / minkan / kakan / ankan (no chi), each called
  meld ``from`` a seat other than the winner's; chiitoitsu sometimes; hand
  "styles" (flush, honour-heavy, all-triplet, terminal, ittsu, peikou,
  simples, kans, dragons, all-green, chuuren) so that honitsu, chinitsu,
  toitoi, yakuhai, chanta, junchan, ittsu, iipeikou, ryanpeikou, tanyao,
  sankantsu and the reachable yakuman (suuankou, daisangen, tsuuiisou,
  ryuuiisou, chuuren, suukantsu, tenhou, chiihou) actually occur;
* tsumo or ron (ron names a discarder), consistent flags: riichi / double
  riichi / open riichi only on a closed hand, ippatsu only with a riichi,
  haitei and rinshan only on tsumo (rinshan only with one of the winner's
  kans, never with haitei or ippatsu), houtei and chankan only on ron (chankan
  only when the winning tile is a lone copy in the hand, never with houtei),
  tenhou / chiihou rarely, alone;
* 0-8 gari from 1m 5m 9m 4z, 0-3 dora indicators (ura indicators only with a
  riichi), honba 0-5; at most 4 copies of a kind over hand, melds, gari and
  indicators together, at most 2 red fives of each of 0m 0p 0s and so at most 2 plain.

Each record has at least one yaku under standard riichi rules: the generator
keeps a hand only when the reading it built it from carries a yaku (a
sufficient check; it never needs another scorer). Pure Python, no I/O.

The tile set is dunhill's (112 tiles, gari 1m 5m 9m 4z). ``rules`` only names
the preset in the record: presets with another wall or other gari (balance,
toutenkou, isshokai, chinton) will refuse many of these hands.
"""

from __future__ import annotations

import random
from typing import Any

from .tiles import format_mpsz, is_simple, tile_name

__all__ = ["random_winning_record", "random_winning_records", "HAND_KINDS", "GARI_KINDS"]

SEATS = ("east", "south", "west")
PIN = tuple(range(9, 18))
SOU = tuple(range(18, 27))
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
HAND_HONOURS = (EAST, SOUTH, WEST, HAKU, HATSU, CHUN)
DRAGONS = (HAKU, HATSU, CHUN)
HAND_KINDS = PIN + SOU + HAND_HONOURS
GARI_KINDS = (0, 4, 8, NORTH)          # 1m 5m 9m 4z
ALL_KINDS = GARI_KINDS + HAND_KINDS    # the 112-tile set (28 kinds)
FIVES = {4: 34, 13: 35, 22: 36}        # kind of a five -> code of its red five
SEAT_WIND = {"east": EAST, "south": SOUTH, "west": WEST}

_STYLES = (
    ("mixed", 30), ("flush", 14), ("honours", 10), ("triplets", 9), ("terminal", 9),
    ("simples", 9), ("ittsu", 5), ("peikou", 6), ("chiitoitsu", 8),
    ("kans", 3), ("dragons", 2), ("green", 1), ("chuuren", 1),
)
GREEN = (19, 20, 21, 23, 25, HATSU)   # 2s 3s 4s 6s 8s 6z


def _suit_of(k: int) -> int:
    return k // 9 if k < 27 else 3


def _num(k: int) -> int:
    return k % 9 + 1


def _is_term_or_honour(k: int) -> bool:
    return k >= 27 or k % 9 in (0, 8)


def _weighted(rng: random.Random, pairs) -> Any:
    total = sum(w for _, w in pairs)
    x = rng.random() * total
    for v, w in pairs:
        x -= w
        if x < 0:
            return v
    return pairs[-1][0]


# --------------------------------------------------------------------------- shapes
# A group is ("seq", first_kind) or ("trip", kind); a shape is 4 groups + pair kind.

def _group_tiles(g: tuple[str, int]) -> list[int]:
    t, k = g
    return [k, k + 1, k + 2] if t == "seq" else [k, k, k]


def _fits(counts: list[int], tiles: list[int]) -> bool:
    add: dict[int, int] = {}
    for k in tiles:
        add[k] = add.get(k, 0) + 1
    return all(counts[k] + n <= 4 for k, n in add.items())


def _take(counts: list[int], tiles: list[int]) -> None:
    for k in tiles:
        counts[k] += 1


def _rand_seq(rng: random.Random, suits: tuple[int, ...], lo: int = 1, hi: int = 7) -> tuple[str, int]:
    s = rng.choice(suits)
    return ("seq", s * 9 + rng.randint(lo, hi) - 1)


def _suit_kinds(s: int) -> tuple[int, ...]:
    return PIN if s == 1 else SOU


def _regular_shape(rng: random.Random, style: str):
    """4 groups + a pair for ``style``, or None when the draw broke a copy limit."""
    counts = [0] * 34
    groups: list[tuple[str, int]] = []
    suit = rng.choice((1, 2))

    def add(g) -> bool:
        tiles = _group_tiles(g)
        if not _fits(counts, tiles):
            return False
        _take(counts, tiles)
        groups.append(g)
        return True

    if style == "ittsu":
        for start in (1, 4, 7):
            add(("seq", suit * 9 + start - 1))
    elif style == "dragons":
        for k in rng.sample(DRAGONS, 3 if rng.random() < 0.6 else 2):
            add(("trip", k))
    elif style == "peikou":
        g = _rand_seq(rng, (1, 2))
        add(g), add(g)
        if rng.random() < 0.35:
            g2 = _rand_seq(rng, (1, 2))
            add(g2), add(g2)

    tries = 0
    while len(groups) < 4 and tries < 40:
        tries += 1
        if style == "mixed":
            if rng.random() < 0.62:
                g = _rand_seq(rng, (1, 2))
            else:
                g = ("trip", rng.choice(HAND_KINDS))
        elif style == "flush":
            with_honours = rng.random() < 0.55
            if with_honours and rng.random() < 0.3:
                g = ("trip", rng.choice(HAND_HONOURS))
            elif rng.random() < 0.6:
                g = _rand_seq(rng, (suit,))
            else:
                g = ("trip", rng.choice(_suit_kinds(suit)))
        elif style == "honours":
            if rng.random() < 0.65:
                g = ("trip", rng.choice(HAND_HONOURS))
            elif rng.random() < 0.5:
                g = _rand_seq(rng, (suit,))
            else:
                g = ("trip", rng.choice(PIN + SOU))
        elif style in ("triplets", "kans"):
            g = ("trip", rng.choice(HAND_KINDS))
        elif style == "green":
            g = ("seq", 19) if rng.random() < 0.3 else ("trip", rng.choice(GREEN))
        elif style == "terminal":
            r = rng.random()
            if r < 0.45:
                s = rng.choice((1, 2))
                g = ("seq", s * 9 + rng.choice((0, 6)))
            elif r < 0.75:
                g = ("trip", rng.choice((9, 17, 18, 26)))
            else:
                g = ("trip", rng.choice(HAND_HONOURS))
        elif style == "simples":
            if rng.random() < 0.65:
                g = _rand_seq(rng, (1, 2), 2, 6)
            else:
                g = ("trip", rng.choice([k for k in PIN + SOU if is_simple(k)]))
        else:  # ittsu / peikou fill
            if rng.random() < 0.6:
                g = _rand_seq(rng, (1, 2))
            else:
                g = ("trip", rng.choice(HAND_KINDS))
        add(g)
    if len(groups) < 4:
        return None

    if style == "flush":
        pool = [k for k in _suit_kinds(suit)] + list(HAND_HONOURS) * (1 if rng.random() < 0.5 else 0)
        if any(g[1] >= 27 for g in groups):
            pool += list(HAND_HONOURS)
        # keep it a one-suit hand: drop other-suit kinds
        pool = [k for k in pool if k >= 27 or _suit_of(k) == suit]
    elif style == "honours":
        pool = list(HAND_HONOURS) * 2 + list(PIN + SOU)
    elif style == "terminal":
        pool = [9, 17, 18, 26] + list(HAND_HONOURS)
    elif style == "simples":
        pool = [k for k in PIN + SOU if is_simple(k)]
    elif style == "green":
        pool = list(GREEN)
    elif style == "dragons":
        pool = list(DRAGONS) + list(HAND_KINDS)
    else:
        pool = list(HAND_KINDS)
    for _ in range(20):
        p = rng.choice(pool)
        if counts[p] + 2 <= 4:
            counts[p] += 2
            return groups, p, counts
    return None


def _chiitoitsu_shape(rng: random.Random, style_pool: tuple[int, ...]) -> list[int] | None:
    if len(style_pool) < 7:
        return None
    return rng.sample(style_pool, 7)


# --------------------------------------------------------------------------- yaku check

def _constructed_reading_has_yaku(groups, pair, meld_kinds, win_idx, rec) -> bool:
    """Whether the reading the hand was built from has a standard-riichi yaku.

    ``meld_kinds[i]`` is the meld kind of group i (None when concealed);
    ``win_idx`` is the index of the group holding the winning tile (4 = pair).
    """
    tsumo = rec["win"] == "tsumo"
    closed = all(m in (None, "ankan") for m in meld_kinds)
    if any(rec.get(f) for f in ("riichi", "double_riichi", "open_riichi", "haitei", "houtei",
                                 "rinshan", "chankan", "tenhou", "chiihou")):
        return True
    if tsumo and closed:
        return True
    kinds = [k for g in groups for k in _group_tiles(g)] + [pair, pair]
    if all(is_simple(k) for k in kinds):
        return True                                            # tanyao
    seat = SEAT_WIND[rec["seat"]]
    trips = [g[1] for g in groups if g[0] == "trip"]
    if any(k in DRAGONS or k == EAST or k == seat for k in trips):
        return True                                            # yakuhai
    suits = {_suit_of(k) for k in kinds if k < 27}
    if len(suits) <= 1:
        return True                                            # honitsu / chinitsu / tsuuiisou
    if len(trips) == 4:
        return True                                            # toitoi
    seqs = [g[1] for g in groups if g[0] == "seq"]
    if closed and len(seqs) != len(set(seqs)):
        return True                                            # iipeikou
    for s in (1, 2):
        if all(s * 9 + d in seqs for d in (0, 3, 6)):
            return True                                        # ittsu
    if all(any(_is_term_or_honour(k) for k in _group_tiles(g)) for g in groups) and _is_term_or_honour(pair):
        return True                                            # chanta / junchan / honroutou
    if sum(1 for m in meld_kinds if m in ("minkan", "kakan", "ankan")) >= 3:
        return True                                            # sankantsu
    concealed_trips = 0
    for i, g in enumerate(groups):
        if g[0] == "trip" and meld_kinds[i] in (None, "ankan"):
            if meld_kinds[i] is None and i == win_idx and not tsumo:
                continue                                       # completed by the ron tile
            concealed_trips += 1
    if concealed_trips >= 3:
        return True                                            # sanankou
    if closed and not meld_kinds.count("ankan") and len(seqs) == 4 and win_idx < 4:
        if pair not in DRAGONS and pair != EAST and pair != seat:
            first = groups[win_idx][1]
            w = rec["_win_kind"]
            if (w == first and _num(first) <= 6) or (w == first + 2 and _num(first) >= 2):
                return True                                    # pinfu
    return False


# --------------------------------------------------------------------------- records

def random_winning_record(
    rng: random.Random,
    rules: str = "dunhill",
    *,
    p_tsumo: float = 0.5,
    p_closed: float = 0.5,
    max_tries: int = 200,
) -> dict[str, Any]:
    """One random winning hand record (a JSON-ready dict) for the three-player set.

    ``p_tsumo``: chance of a tsumo win; ``p_closed``: chance that a regular hand
    makes no called meld (it may still hold an ankan). Deterministic for a given
    ``rng`` state.
    """
    for _ in range(max_tries):
        rec = _attempt(rng, rules, p_tsumo, p_closed)
        if rec is not None:
            return rec
    raise RuntimeError("random_winning_record: no hand after max_tries (generator bug)")


def random_winning_records(n: int, seed: int = 0, rules: str = "dunhill", **kw) -> list[dict[str, Any]]:
    """``n`` records from ``random.Random(seed)``."""
    rng = random.Random(seed)
    return [random_winning_record(rng, rules, **kw) for _ in range(n)]


def _attempt(rng: random.Random, rules: str, p_tsumo: float, p_closed: float):
    style = _weighted(rng, _STYLES)
    seat = rng.choice(SEATS)
    others = [s for s in SEATS if s != seat]
    tsumo = rng.random() < p_tsumo
    rec: dict[str, Any] = {"rules": rules, "seat": seat, "win": "tsumo" if tsumo else "ron"}

    melds: list[dict[str, Any]] = []
    if style == "chuuren":
        base = rng.choice((9, 18))
        concealed_kinds = [base] * 3 + [base + i for i in range(1, 8)] + [base + 8] * 3
        concealed_kinds.append(base + rng.randrange(9))
        counts = [0] * 34
        for k in concealed_kinds:
            counts[k] += 1
        groups, pair, meld_kinds, win_idx = None, None, [], None
        win_kind = rng.choice(concealed_kinds)
    elif style == "chiitoitsu":
        sub = _weighted(rng, (("any", 5), ("flush", 2), ("simples", 2), ("terminal", 1)))
        if sub == "flush":
            s = rng.choice((1, 2))
            pool = tuple(_suit_kinds(s)) + (HAND_HONOURS if rng.random() < 0.6 else ())
        elif sub == "simples":
            pool = tuple(k for k in PIN + SOU if is_simple(k))
        elif sub == "terminal":
            pool = (9, 17, 18, 26) + HAND_HONOURS
        else:
            pool = HAND_KINDS
        pairs = _chiitoitsu_shape(rng, pool)
        if pairs is None:
            return None
        counts = [0] * 34
        for k in pairs:
            counts[k] += 2
        concealed_kinds = [k for k in pairs for _ in range(2)]
        groups, pair, meld_kinds, win_idx = None, None, [], None
        win_kind = rng.choice(concealed_kinds)
    else:
        shape = _regular_shape(rng, style)
        if shape is None:
            return None
        groups, pair, counts = shape
        rng.shuffle(groups)
        meld_kinds: list[str | None] = [None] * 4
        open_hand = rng.random() >= p_closed
        for i, g in enumerate(groups):
            if g[0] != "trip":
                continue
            r = rng.random()
            if style == "kans" and r < 0.85:
                mk = _weighted(rng, (("minkan", 30), ("kakan", 30), ("ankan", 40)) if open_hand
                               else (("ankan", 1),))
            elif open_hand and r < 0.55:
                mk = _weighted(rng, (("pon", 60), ("minkan", 14), ("kakan", 14), ("ankan", 12)))
            elif r < 0.10:
                mk = "ankan"
            else:
                continue
            if mk != "pon":
                if counts[g[1]] != 3:
                    mk = "pon" if open_hand else None
                    if mk is None:
                        continue
                else:
                    counts[g[1]] = 4
            meld_kinds[i] = mk
        # concealed part: non-meld groups + pair
        concealed_kinds = []
        owners = []                     # group index of each concealed tile (4 = pair)
        for i, g in enumerate(groups):
            if meld_kinds[i] is None:
                for k in _group_tiles(g):
                    concealed_kinds.append(k)
                    owners.append(i)
        concealed_kinds += [pair, pair]
        owners += [4, 4]
        j = rng.randrange(len(concealed_kinds))
        win_kind, win_idx = concealed_kinds[j], owners[j]
    rec["_win_kind"] = win_kind

    closed = all(m in (None, "ankan") for m in meld_kinds)
    has_own_kan = any(m in ("minkan", "kakan", "ankan") for m in meld_kinds)
    dealer = seat == "east"

    # ---- flags
    flags: dict[str, bool] = {}
    if not any(meld_kinds) and rng.random() < 0.006:
        flags["tenhou" if dealer else "chiihou"] = True
        if not tsumo:
            rec["win"] = "tsumo"
            tsumo = True
    else:
        if closed:
            r = rng.random()
            if r < 0.04:
                flags["double_riichi"] = True
            elif r < 0.40:
                flags["riichi"] = True
            if (flags.get("riichi") or flags.get("double_riichi")) and rng.random() < 0.08:
                flags["open_riichi"] = True
                if not flags.get("double_riichi"):
                    flags["riichi"] = True
        riichi = flags.get("riichi") or flags.get("double_riichi")
        if tsumo:
            if has_own_kan and rng.random() < 0.25:
                flags["rinshan"] = True
            elif rng.random() < 0.05:
                flags["haitei"] = True
        else:
            r = rng.random()
            if r < 0.05:
                flags["houtei"] = True
            elif r < 0.09 and concealed_kinds.count(win_kind) == 1 and counts[win_kind] == 1:
                flags["chankan"] = True
                counts[win_kind] = 4    # the robbed pon (3) and its added tile are elsewhere
        if riichi and not flags.get("rinshan") and not has_own_kan and rng.random() < 0.2:
            flags["ippatsu"] = True
    rec.update(flags)

    # chiitoitsu and chuuren shapes (groups None) carry a yaku of their own
    if groups is not None and not _constructed_reading_has_yaku(groups, pair, meld_kinds, win_idx, rec):
        return None
    del rec["_win_kind"]

    # ---- tiles -> codes, with red fives (<= 2 of each suit over everything, and so <= 2 plain: a
    # five past its two plain is red)
    reds = {34: 0, 35: 0, 36: 0}
    plain = {34: 0, 35: 0, 36: 0}

    def code(k: int, p_red: float = 0.25) -> int:
        r = FIVES.get(k)
        if r is None:
            return k
        if reds[r] < 2 and (plain[r] >= 2 or rng.random() < p_red):
            reds[r] += 1
            return r
        plain[r] += 1
        return k

    concealed = [code(k) for k in concealed_kinds]
    cand = [c for c in concealed if (c if c < 34 else {34: 4, 35: 13, 36: 22}[c]) == win_kind]
    win_tile = rng.choice(cand)
    if groups is not None:
        for i, g in enumerate(groups):
            mk = meld_kinds[i]
            if mk is None:
                continue
            n = 3 if mk == "pon" else 4
            tiles = [code(g[1]) for _ in range(n)]
            m: dict[str, Any] = {"kind": mk, "tiles": format_mpsz(tiles)}
            if mk != "ankan":
                m["from"] = rng.choice(others)
            melds.append(m)
    rng.shuffle(concealed)
    rec["concealed"] = format_mpsz(concealed)
    rec["win_tile"] = tile_name(win_tile)
    if melds:
        rec["melds"] = melds
    if not tsumo:
        rec["discarder"] = rng.choice(others)

    # ---- gari: 0-8 tiles of 1m 5m 9m 4z (a quarter of the hands are karasu)
    n_gari = 0 if rng.random() < 0.25 else _weighted(rng, ((1, 22), (2, 22), (3, 16), (4, 14), (5, 9),
                                                           (6, 7), (7, 5), (8, 5)))
    gari: list[int] = []
    for _ in range(n_gari):
        free = [k for k in GARI_KINDS if counts[k] < 4]
        if not free:
            break
        # sometimes collect a full set of one kind
        k = rng.choice(free)
        counts[k] += 1
        gari.append(code(k, 0.3))
    if gari:
        rec["gari"] = format_mpsz(gari)

    # ---- dora indicators (any tile of the 112-tile set), ura only with a riichi
    def indicators(n: int) -> list[int]:
        out = []
        for _ in range(n):
            free = [k for k in ALL_KINDS if counts[k] < 4]
            k = rng.choice(free)
            counts[k] += 1
            out.append(code(k, 0.2))
        return out

    n_dora = _weighted(rng, ((0, 15), (1, 55), (2, 20), (3, 10)))
    dora = indicators(n_dora)
    if dora:
        rec["dora_indicators"] = format_mpsz(dora)
    if (rec.get("riichi") or rec.get("double_riichi")) and dora and rng.random() < 0.8:
        rec["ura_indicators"] = format_mpsz(indicators(len(dora)))
    honba = _weighted(rng, ((0, 60), (1, 15), (2, 10), (3, 7), (4, 4), (5, 4)))
    if honba:
        rec["honba"] = honba
    return rec
