"""Vision tests read the tile art from ../shared/tiles (or TOUTENKOU_TILE_ART); without it they skip."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.synth.art import ArtMissing, TileArt


@pytest.fixture(scope="session")
def art() -> TileArt:
    try:
        return TileArt()
    except ArtMissing as e:
        pytest.skip(f"tile art not available: {e}")


PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "photos"


@pytest.fixture(scope="module")
def photo(labels):
    """The real photo a test module's ``labels`` name, from ../shared/photos (it is not in the repo);
    the test skips, saying where it looked, without it."""
    path = PHOTOS / labels["image"]
    if not path.is_file():
        pytest.skip(f"photo not available at {path} (it lives outside the repo, in ../shared/photos)")
    cv2 = pytest.importorskip("cv2")
    image = cv2.imread(str(path))
    assert image is not None, f"could not decode {path}"
    return image
