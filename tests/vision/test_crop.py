"""The classifier's cut: sideways boxes stand portrait, and the way up maps back to the tile's rotation."""

from __future__ import annotations

import numpy as np
import pytest

from vision.crop import GREY, MARGIN, CLS_SIZE, cut_box, cut_tile, is_ambiguous, is_sideways, rotation_of, upside_down, with_margin
from vision.synth.crops import sample_label


@pytest.mark.parametrize("rotation, box", [
    (0, (10, 10, 40, 50)), (180, (10, 10, 40, 50)),      # upright boxes: a hand row, seat across
    (90, (10, 10, 50, 40)), (270, (10, 10, 50, 40)),     # sideways boxes: a called tile
])
def test_the_way_up_and_the_box_shape_give_back_the_rotation(rotation, box):
    sideways = is_sideways(box)
    assert rotation_of(sideways, upside_down(rotation, sideways)) == rotation


def test_a_sideways_cut_is_turned_a_quarter_clockwise():
    # A sideways tile whose face top points left (rotation 270) must come out upright:
    # its marked top edge (the left column of the box) ends up on top of the cut.
    image = np.zeros((100, 100, 3), np.uint8)
    image[20:50, 10:16] = 255                   # the face's top: the left edge of a 60x30 box
    cut = cut_tile(image, (10, 20, 70, 50), margin=0.0)
    assert cut.shape == (CLS_SIZE, CLS_SIZE, 3)
    assert cut[:6].mean() > 200 and cut[-20:].mean() < 10
    assert not upside_down(270, True) and upside_down(90, True)


def test_a_box_outside_the_image_is_refused():
    with pytest.raises(ValueError, match="holds no pixels"):
        cut_tile(np.zeros((50, 50, 3), np.uint8), (60, 60, 90, 100))


def test_a_nearly_square_box_is_ambiguous_and_a_tile_shaped_one_is_not():
    assert is_ambiguous((0, 0, 30, 32)) and is_ambiguous((0, 0, 33, 30))
    assert not is_ambiguous((0, 0, 26, 40)) and not is_ambiguous((0, 0, 40, 26))


@pytest.mark.parametrize("tile, rotation, label", [
    ("5m", 0, "5m"), ("5m", 180, "5m_ud"), ("5m", 270, "5m"), ("5m", 90, "5m_ud"), ("back", 90, "back")])
def test_training_labels_follow_the_true_rotation(tile, rotation, label):
    assert sample_label(tile, rotation) == label


def test_a_crop_given_alone_is_set_in_the_margin_a_located_box_is_cut_with():
    """A photo of one tile, cut at its edges, is read as the detector reads a box around that tile
    on plain grey: the same pixels, the same margin."""
    rng = np.random.default_rng(0)
    tile = rng.integers(0, 256, (100, 80, 3), dtype=np.uint8)
    table = np.full((200, 200, 3), GREY, np.uint8)
    table[50:150, 60:140] = tile
    alone = with_margin(tile)
    assert alone.shape == (108, 86, 3) and MARGIN == 0.04
    assert np.array_equal(alone, cut_box(table, (60, 50, 140, 150)))
    assert np.array_equal(with_margin(tile, 0), tile)
