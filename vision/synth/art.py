"""The tile art the renderer draws with: public-domain PNGs read from a folder, never committed here.

The folder (``TOUTENKOU_TILE_ART``, default ``../shared/tiles`` beside the
checkout) holds ``png-regular/`` and ``png-black/``: 600x800 RGBA faces to
composite onto ``Front.png``, ``Back.png`` a back, ``*5-Dora.png`` the red fives.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from ..classes import art_name

ENV_ART = "TOUTENKOU_TILE_ART"
STYLES = ("png-regular", "png-black")
DEFAULT_ART = Path(__file__).resolve().parents[3] / "shared" / "tiles"


class ArtMissing(RuntimeError):
    """The tile art folder is absent or incomplete (it lives outside the project)."""


def art_dir() -> Path:
    return Path(os.environ.get(ENV_ART) or DEFAULT_ART)


@dataclass(eq=False)      # hashed by identity: renderers cache per art set
class TileArt:
    """The RGBA art of every class in each style, loaded once (BGRA, uint8)."""

    root: Path = field(default_factory=art_dir)
    _cache: dict[tuple[str, str], np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        missing = [s for s in STYLES if not (self.root / s / "Front.png").is_file()]
        if missing:
            raise ArtMissing(f"no tile art at {self.root} (missing {', '.join(missing)}); "
                             f"set {ENV_ART} to the folder holding png-regular/ and png-black/")

    def image(self, stem: str, style: str = "png-regular") -> np.ndarray:
        key = (stem, style)
        if key not in self._cache:
            path = self.root / style / f"{stem}.png"
            im = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
            if im is None or im.ndim != 3 or im.shape[2] != 4:
                raise ArtMissing(f"cannot read {path} as an RGBA image")
            self._cache[key] = im
        return self._cache[key]

    def face(self, cls: str, style: str = "png-regular") -> np.ndarray:
        """The face overlay of a class (transparent where the tile's body shows)."""
        return self.image(art_name(cls), style)

    @property
    def front(self) -> np.ndarray:
        return self.image("Front", "png-regular")
