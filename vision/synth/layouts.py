"""The groups of tiles a table shows after a win, in a group's own frame.

Units: a tile face is 1 wide and ``FACE_ASPECT`` tall. A group runs along +x
with its tiles upright (face top towards -y, the owner sitting at +y); the
scene turns and places it. A called tile lies sideways (turned 90 or 270) on
the row's near edge; kakan stacks a second sideways tile beyond it; ankan shows
two backs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ..classes import BACK, KINDS, REDS, SANMA_KINDS
from .tile import FACE_ASPECT

H = FACE_ASPECT
GAP = 0.04                 # the small gap between neighbouring tiles
SEAT_GAP = 0.02            # ... and the most between a revealed hand's tiles, pushed together for the photo


@dataclass(frozen=True)
class Placed:
    """A tile in a group's frame: class, centre, its own turn (0/90/180/270) and whether it lies face down."""

    cls: str
    x: float
    y: float
    turn: int = 0

    @property
    def face_down(self) -> bool:
        return self.cls == BACK


def _row(classes: list[str], turns: list[int] | None = None, x0: float = 0.0,
         gap: float = GAP) -> tuple[list[Placed], float]:
    """Tiles side by side from x0, ``gap`` apart; sideways tiles sit on the near edge (+y). Returns tiles
    and the end x."""
    out, x = [], x0
    for i, c in enumerate(classes):
        t = (turns or [0] * len(classes))[i]
        w = _along(t)
        y = (H - 1.0) / 2 if t in (90, 270) else 0.0
        out.append(Placed(c, x + w / 2, y, t))
        x += w + gap
    return out, x


def _along(turn: int) -> float:
    """How long a tile lies along its row: a face's width upright, its height sideways."""
    return H if turn in (90, 270) else 1.0


def _shifted(tiles: list[Placed], dy: float) -> list[Placed]:
    """The same tiles one or more rows further from the group's owner."""
    return [replace(p, y=p.y + dy) for p in tiles]


def random_face(rng: np.random.Generator) -> str:
    """A face-up class: mostly the 三人花 kinds, red fives often (their confusion costs points), and
    every kind often enough (2m-8m are out of a 三人花 wall, but the detector names all 38 classes)."""
    r = rng.random()
    if r < 0.12:
        return REDS[int(rng.integers(3))]
    if r < 0.40:
        return KINDS[int(rng.integers(len(KINDS)))]
    return SANMA_KINDS[int(rng.integers(len(SANMA_KINDS)))]


def hand_row(rng: np.random.Generator) -> list[Placed]:
    """A revealed hand: 1-13 tiles in a row, the winning tile set apart by a gap."""
    n = int(rng.choice([13, 13, 10, 10, 7, 4, 1]))
    tiles, x = _row([random_face(rng) for _ in range(n)])
    win, _ = _row([random_face(rng)], x0=x + float(rng.uniform(0.25, 0.8)))
    return tiles + win


def seat_line(rng: np.random.Generator) -> list[Placed]:
    """A revealed hand as the winner lays it out for a photo from the seat: the concealed tiles pushed
    together (``SEAT_GAP`` apart at most: the tiles touch), the winning tile touching them or set a
    little apart, then any called melds further right, each a little apart."""
    gap = float(rng.uniform(0.0, SEAT_GAP))
    melds = int(rng.choice([0, 0, 0, 1, 1, 2]))
    tiles, x = _row([random_face(rng) for _ in range(13 - 3 * melds)], gap=gap)
    apart = float(rng.uniform(0.15, 0.6)) if rng.random() < 0.5 else gap
    win, x = _row([random_face(rng)], x0=x + apart, gap=gap)
    tiles += win
    for _ in range(melds):
        called = meld(rng)
        shift = x + float(rng.uniform(0.2, 0.7)) - min(p.x - _along(p.turn) / 2 for p in called)
        tiles += [replace(p, x=p.x + shift) for p in called]
        x = max(p.x + _along(p.turn) / 2 for p in tiles)
    return tiles


def meld(rng: np.random.Generator) -> list[Placed]:
    """pon / minkan (one sideways tile), kakan (two stacked sideways), ankan (two backs)."""
    kind = rng.choice(["pon", "pon", "minkan", "kakan", "ankan"])
    c = random_face(rng)
    side = int(rng.choice([90, 270]))
    if kind == "ankan":
        backs_at_ends = rng.random() < 0.7
        cls = [BACK, c, c, BACK] if backs_at_ends else [c, BACK, BACK, c]
        return _row(cls)[0]
    n = 4 if kind == "minkan" else 3
    at = int(rng.integers(n))
    turns = [side if i == at else 0 for i in range(n)]
    tiles, _ = _row([c] * n, turns)
    if kind == "kakan":
        s = tiles[at]
        tiles.append(Placed(c, s.x, s.y - 1.0 - GAP, side))
    return tiles


def gari_row(rng: np.random.Generator) -> list[Placed]:
    """Set-aside nukidora: 1-8 face-up tiles, in one row or two."""
    n = int(rng.integers(1, 9))
    pool = ["1m", "5m", "0m", "9m", "4z", "4z", "5m", "1m"]
    cls = [pool[int(rng.integers(len(pool)))] if rng.random() < 0.8 else random_face(rng) for _ in range(n)]
    if n > 4 and rng.random() < 0.5:
        a, _ = _row(cls[:4])
        b, _ = _row(cls[4:])
        return a + _shifted(b, H + GAP)
    return _row(cls)[0]


def pond(rng: np.random.Generator) -> list[Placed]:
    """Discards: rows of six, the riichi tile sideways."""
    n = int(rng.integers(3, 19))
    riichi = int(rng.integers(n)) if rng.random() < 0.4 else -1
    out: list[Placed] = []
    for r in range((n + 5) // 6):
        idx = range(r * 6, min(n, r * 6 + 6))
        turns = [90 if i == riichi else 0 for i in idx]
        row, _ = _row([random_face(rng) for _ in idx], turns)
        out += _shifted(row, r * (H + GAP))
    return out


def wall(rng: np.random.Generator) -> list[Placed]:
    """A wall or dead wall: backs in a row, sometimes with face-up dora indicators."""
    n = int(rng.integers(3, 12))
    cls = [BACK] * n
    for _ in range(int(rng.integers(0, 3))):
        cls[int(rng.integers(n))] = random_face(rng)
    return _row(cls)[0]


GROUPS = {"hand": hand_row, "meld": meld, "gari": gari_row, "pond": pond, "wall": wall}
GROUP_WEIGHTS = {"hand": 0.25, "meld": 0.25, "gari": 0.15, "pond": 0.2, "wall": 0.15}
