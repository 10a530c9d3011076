"""The single real tiles in ``../shared/real-tiles/camerash`` (MIT; not committed): photos of one tile
each from many, mostly Chinese, sets, labelled 1-42. Read here for the benches and for fitting the
tile set's projection (``vision.build.projection``).

A third of them, by their file name (``held_out``), is never fitted on: every figure on these crops
that the project reports for a model fitted on them comes from that third.
"""

from __future__ import annotations

import csv
import zlib
from pathlib import Path

import cv2
import numpy as np

REAL_TILES = Path(__file__).resolve().parents[3] / "shared" / "real-tiles" / "camerash"
# camerash's labels (1-34) to mpsz; 35-42 are flowers and seasons, not in a Japanese set
CAMERASH = {**{c: f"{c}p" for c in range(1, 10)}, **{c: f"{c - 9}s" for c in range(10, 19)},
            **{c: f"{c - 18}m" for c in range(19, 28)}, **{c: f"{c - 27}z" for c in range(28, 32)},
            32: "7z", 33: "6z", 34: "5z"}
HELD_OUT_EVERY = 3


def held_out(name: str) -> bool:
    """Whether the crop named ``name`` is in the third never fitted on (crc32 of the name)."""
    return zlib.crc32(name.encode()) % HELD_OUT_EVERY == 0


def _label_table(folder: Path | None) -> Path:
    return (folder or REAL_TILES) / "tiles-data" / "data.csv"


def present(folder: Path | None = None) -> bool:
    """Whether the real single tiles are in ``folder`` (default ``REAL_TILES``): their label table;
    no image is read."""
    return _label_table(folder).is_file()


def camerash(folder: Path | None = None) -> list[tuple[str, str, np.ndarray]]:
    """(file name, kind, BGR image) of the crops of the 34 Japanese kinds in ``folder`` (default
    ``REAL_TILES``), by name; [] when the folder is missing."""
    folder = folder or REAL_TILES
    table = _label_table(folder)
    if not table.is_file():
        return []
    with table.open(newline="") as f:
        labels = {r["image-name"]: CAMERASH.get(int(r["label"])) for r in csv.DictReader(f)}
    out = []
    for name, kind in sorted(labels.items()):
        image = cv2.imread(str(folder / "tiles-resized" / name)) if kind else None
        if image is not None:
            out.append((name, kind, image))
    return out


def fitting_crops() -> list[tuple[int, str, np.ndarray]]:
    """(place among all the real crops, kind, BGR image) of the fitting two thirds;
    ``FileNotFoundError`` when the crops are missing."""
    every = camerash()
    if not every:
        raise FileNotFoundError(f"no real tiles to fit on: {REAL_TILES} is missing")
    return [(k, kind, image) for k, (name, kind, image) in enumerate(every) if not held_out(name)]
