"""Tiles and the mpsz notation.

A tile is a small int. Kinds 0-33 follow the usual order: 0-8 are 1m-9m,
9-17 are 1p-9p, 18-26 are 1s-9s, 27-33 are the honours 1z-7z
(East, South, West, North, Haku, Hatsu, Chun). The three red fives have
codes of their own, 34 (0m), 35 (0p) and 36 (0s): a red five is the same
kind as its plain five for every hand shape, and differs only where a rule
pays for red.

mpsz: digits followed by their suit letter, ``0`` for a red five, e.g.
``"123p406s77z"``. Spaces are ignored.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from .errors import ScoringError

MAN, PIN, SOU, HONOR = 0, 1, 2, 3
SUIT_LETTERS = "mpsz"
EAST, SOUTH, WEST, NORTH, HAKU, HATSU, CHUN = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (HAKU, HATSU, CHUN)
RED_FIVES = (34, 35, 36)
_RED_KIND = {34: 4, 35: 13, 36: 22}
FIVE_KINDS = tuple(_RED_KIND.values())      # the kinds 5m, 5p, 5s, by suit

HONOR_NAMES_EN = ("East", "South", "West", "North", "Haku", "Hatsu", "Chun")
HONOR_NAMES_JA = ("東", "南", "西", "北", "白", "發", "中")


def kind(tile: int) -> int:
    """The kind (0-33) of a tile code; a red five is its plain five."""
    return tile if tile < 34 else _RED_KIND[tile]


KIND_OF = tuple(kind(t) for t in range(37))   # kind() as a table, for map() over many tiles


def is_red(tile: int) -> bool:
    return tile >= 34


def suit(k: int) -> int:
    """0 man, 1 pin, 2 sou, 3 honour."""
    return k // 9 if k < 27 else HONOR


def number(k: int) -> int:
    """1-9 for suited kinds, 1-7 for honours."""
    return k % 9 + 1 if k < 27 else k - 26


def is_simple(k: int) -> bool:
    return k < 27 and k % 9 not in (0, 8)


def red_suit(tile: int) -> int:
    """Suit (0-2) of a red five code."""
    return tile - 34


def tile_name(tile: int) -> str:
    """mpsz name of one tile code: ``5p``, ``0s``, ``7z``."""
    if tile >= 34:
        return "0" + SUIT_LETTERS[tile - 34]
    return f"{number(tile)}{SUIT_LETTERS[suit(tile)]}"


def parse_tile(text: str) -> int:
    """One tile from its two-character mpsz name."""
    code = _TILE_CODE.get(text) if type(text) is str else None
    if code is not None:
        return code
    tiles = parse_mpsz(text)
    if len(tiles) != 1:
        raise ScoringError(f"{text!r} is not one tile")
    return tiles[0]


_CODE = {(str(n), "mps"[s]): (34 + s if n == 0 else 9 * s + n - 1) for s in range(3) for n in range(10)}
_CODE.update({(str(n), "z"): 26 + n for n in range(1, 8)})


def parse_mpsz(text: str) -> tuple[int, ...]:
    """Tile codes from mpsz text, in written order.

    >>> parse_mpsz("12m0p7z")
    (0, 1, 35, 33)
    """
    if not isinstance(text, str):
        raise ScoringError(f"tiles must be an mpsz string, got {type(text).__name__}")
    if len(text) > MAX_TILE_TEXT:      # before the pattern, whose search of a long digit run is quadratic
        raise ScoringError(f"tile text of {len(text):,} characters: no field of a hand holds that many "
                           f"tiles (at most {MAX_TILE_TEXT} characters)")
    return _parse(text)


# The longest tile text a hand's field may be: a winner's discards, every tile of the wall twice over,
# spaced. A long one took seconds to parse, every other request of the table waiting (a frozen tablet).
MAX_TILE_TEXT = 400
_TILE_CODE = {d + letter: c for (d, letter), c in _CODE.items()}   # "5p" -> 13: the usual one-tile text
_SEGMENT = re.compile(r"([0-9]+)([mpsz])")
_SUIT_CODES = {ch: {d: c for (d, letter), c in _CODE.items() if letter == ch} for ch in "mpsz"}


@lru_cache(maxsize=8192)
def _parse(text: str) -> tuple[int, ...]:
    # Fast path: the text is nothing but well-formed digit runs with their suit
    # letters (the segments cover it whole). Anything else, errors included,
    # goes through the character walk, which says what is wrong.
    out: list[int] = []
    used = 0
    try:
        for digits, letter in _SEGMENT.findall(text):
            out += map(_SUIT_CODES[letter].__getitem__, digits)
            used += len(digits) + 1
    except KeyError:  # 0z, 8z, 9z
        return _parse_walk(text)
    return tuple(out) if used == len(text) else _parse_walk(text)


def _parse_walk(text: str) -> tuple[int, ...]:
    out: list[int] = []
    digits = ""
    for ch in text:
        if "0" <= ch <= "9":
            digits += ch
        elif ch in "mpsz":
            if not digits:
                raise ScoringError(f"bad tile text {text!r}: suit letter {ch!r} has no digits before it")
            for d in digits:
                code = _CODE.get((d, ch))
                if code is None:
                    raise ScoringError(f"bad tile {d}z in {text!r}: honours are 1z-7z")
                out.append(code)
            digits = ""
        elif ch != " ":
            raise ScoringError(f"bad tile text {text!r}: {ch!r} is not a digit or one of m, p, s, z")
    if digits:
        raise ScoringError(f"bad tile text {text!r}: digits {digits} have no suit letter")
    return tuple(out)


def format_mpsz(tiles: Iterable[int]) -> str:
    """Compact sorted mpsz text: ``(0, 1, 35, 33)`` -> ``"12m0p7z"``."""
    groups: dict[int, list[str]] = {0: [], 1: [], 2: [], 3: []}
    for t in sorted(tiles, key=lambda t: (kind(t), t)):
        groups[suit(kind(t))].append("0" if t >= 34 else str(number(t)))
    return "".join("".join(g) + SUIT_LETTERS[s] for s, g in groups.items() if g)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """34 counts per kind (red fives counted as their five)."""
    c = [0] * 34
    for t in tiles:
        c[kind(t)] += 1
    return c
