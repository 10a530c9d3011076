"""Vision tests read the tile art from ../shared/tiles (or TOUTENKOU_TILE_ART); without it they skip."""

from __future__ import annotations

import pytest

from vision.art import ArtMissing, TileArt


@pytest.fixture(scope="session")
def art() -> TileArt:
    try:
        return TileArt()
    except ArtMissing as e:
        pytest.skip(f"tile art not available: {e}")
