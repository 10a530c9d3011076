"""The detector's 38 classes: the 34 kinds, the three red fives, and a face-down tile.

Names are mpsz (``1m`` ... ``7z``, red fives ``0m 0p 0s``) so a detection feeds
the hand record directly; ``back`` is a tile seen from its back.
"""

from __future__ import annotations

KINDS: tuple[str, ...] = tuple(f"{n}{s}" for s in "mps" for n in range(1, 10)) + tuple(
    f"{n}z" for n in range(1, 8))
REDS: tuple[str, ...] = ("0m", "0p", "0s")
BACK = "back"
BLANK = "5z"          # 白: a blank face (or a thin frame), the face most like a back
CLASSES: tuple[str, ...] = KINDS + REDS + (BACK,)
CLASS_INDEX: dict[str, int] = {c: i for i, c in enumerate(CLASSES)}

# 三人花: the kinds a three-player table holds (2m-4m, 6m-8m are out of the wall).
SANMA_KINDS: tuple[str, ...] = tuple(k for k in KINDS if not (k[1] == "m" and k[0] not in "159"))

# kinds whose faces read the same after a half turn in most real sets (circles 1-5, 8, 9; bamboo 2, 4, 5,
# 6, 8, 9; 白, blank or a frame): which way up such a tile lies is a guess from its face alone
HALF_TURN_SAME: frozenset[str] = frozenset({"1p", "2p", "3p", "4p", "5p", "8p", "9p",
                                            "2s", "4s", "5s", "6s", "8s", "9s", "5z"})

_HONOUR_ART = {"1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun"}
_SUIT_ART = {"m": "Man", "p": "Pin", "s": "Sou"}


def art_name(cls: str) -> str:
    """The art file's stem for a class: ``1m`` -> ``Man1``, ``0p`` -> ``Pin5-Dora``, ``back`` -> ``Back``."""
    if cls == BACK:
        return "Back"
    if cls in _HONOUR_ART:
        return _HONOUR_ART[cls]
    n, s = cls[0], cls[1]
    if s not in _SUIT_ART or not (n.isascii() and n.isdigit()):
        raise ValueError(f"not a tile class: {cls!r}")
    return f"{_SUIT_ART[s]}5-Dora" if n == "0" else f"{_SUIT_ART[s]}{n}"

