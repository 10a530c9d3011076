"""Teaching a table its tiles: detections grouped into the laid rows and named by their place
(vision/teach.py). Detections are made by hand here: the rules are pure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.detect import Detection
from vision.teach import LAYOUT, assign, facing, rows_and_strays, rows_of, upright_cut

W, H, PITCH, ROW = 40, 54, 44, 80       # a tile's box, the step along a row and between rows (px)


def laid(layout=LAYOUT, x0=100.0, y0=50.0, slant=0.0, rotation=0, named=None) -> list[Detection]:
    """A detection per tile laid in rows, upright to the camera; ``slant`` px of y per tile along a row."""
    out = []
    for r, row in enumerate(layout):
        for i, kind in enumerate(row):
            x, y = x0 + i * PITCH, y0 + r * ROW + i * slant
            out.append(Detection(named or kind, (x, y, x + W, y + H), rotation, 0.9))
    return out


def kinds(pairs) -> list[str | None]:
    return [k for _, k in pairs]


def flat(layout=LAYOUT) -> list[str]:
    return [k for row in layout for k in row]


def test_the_layout_is_the_five_rows_the_tablet_shows():
    assert [" ".join(r) for r in LAYOUT] == ["1p 2p 3p 4p 5p 6p 7p 8p 9p", "1s 2s 3s 4s 5s 6s 7s 8s 9s",
                                             "1m 5m 9m 0m 0p 0s", "1z 2z 3z 4z 5z 6z 7z", "back back back"]


def test_rows_are_found_in_any_order_and_read_left_to_right():
    found = laid(named="9m")
    rng = np.random.default_rng(1)
    shuffled = [found[i] for i in rng.permutation(len(found))]
    rows = rows_of(shuffled)
    assert [len(r) for r in rows] == [9, 9, 6, 7, 3]
    assert [d.box for r in rows for d in r] == [d.box for d in found]


def test_a_row_laid_a_little_crooked_stays_one_row():
    found = laid(slant=3.0)                         # 24 px lower at the row's end: under half a tile
    rng = np.random.default_rng(2)
    jittered = [Detection(d.tile, (d.box[0], d.box[1] + dy, d.box[2], d.box[3] + dy), 0, 0.9)
                for d, dy in zip(found, rng.uniform(-4, 4, len(found)))]
    pairs, warnings = assign(rows_of(jittered))
    assert kinds(pairs) == flat() and warnings == []


def test_rows_seen_from_across_the_table_are_read_the_players_way():
    """The players sit across from the camera: their faces show upside down, their first row lies at
    the bottom of the picture, and their left is the picture's right."""
    upright = laid()
    turned = [Detection(d.tile, (1000 - d.box[2], 600 - d.box[3], 1000 - d.box[0], 600 - d.box[1]), 180, 0.9)
              for d in upright]
    assert facing(turned) == 180
    assert [d.tile for r in rows_of(turned) for d in r] == flat()


def test_rows_seen_from_the_side_are_read_the_players_way():
    """Faces turned a quarter clockwise (tops to the picture's right): the players sit at its right."""
    upright = laid()
    turned = [Detection(d.tile, (600 - d.box[3], d.box[0], 600 - d.box[1], d.box[2]), 90, 0.9) for d in upright]
    assert [d.tile for r in rows_of(turned) for d in r] == flat()


def test_the_laid_rows_are_assigned_place_by_place():
    pairs, warnings = assign(rows_of(laid(named="1z")))       # whatever the detector named them
    assert kinds(pairs) == flat() and warnings == []
    assert rows_of([]) == []


def test_a_tile_seen_as_a_back_keeps_its_place_but_teaches_nothing():
    found = laid()
    found[1] = Detection("back", found[1].box, 0, 0.9)
    pairs, warnings = assign(rows_of(found))
    assert kinds(pairs) == ["1p", None] + flat()[2:]
    assert warnings == ["row 1: the 2p show(s) a back: left out (turn it face up, or name it)"]


def test_a_tile_too_many_has_no_kind_and_is_said():
    found = laid()
    extra = Detection("1s", (100 + 9 * PITCH, 50.0, 100 + 9 * PITCH + W, 50.0 + H), 0, 0.9)
    pairs, warnings = assign(rows_of(found + [extra]))
    assert kinds(pairs)[:10] == list(LAYOUT[0]) + [None]
    assert len(pairs) == 35 and any(w.startswith("row 1: 10 tiles, 9 laid") for w in warnings)


def test_a_tile_missing_is_said_naming_what_was_not_seen():
    found = [d for d in laid() if d.tile != "7z"]
    pairs, warnings = assign(rows_of(found))
    assert kinds(pairs) == [k for k in flat() if k != "7z"]
    assert len(warnings) == 1 and "row 4: 6 tiles, 7 laid: 7z not seen" in warnings[0]


def test_a_row_too_many_or_too_few_is_said():
    six = laid(LAYOUT + (("1p", "1p"),))
    pairs, warnings = assign(rows_of(six))
    assert kinds(pairs)[-2:] == [None, None] and any("row 6" in w for w in warnings)
    pairs, warnings = assign(rows_of(laid(LAYOUT[:2])))
    assert kinds(pairs) == flat(LAYOUT[:2])
    assert warnings == ["row 3 (1m 5m 9m 0m 0p 0s) not seen", "row 4 (1z 2z 3z 4z 5z 6z 7z) not seen",
                        "row 5 (back back back) not seen"]


def test_the_backs_laid_face_down_are_taught_as_backs_whatever_the_detector_saw():
    """A set's backs are laid in the fifth row: a pale back the detector reads as 白 (5z) is the very
    tile the set must learn is a back."""
    found = laid()
    found[-2] = Detection("5z", found[-2].box, 0, 0.9)
    pairs, warnings = assign(rows_of(found))
    assert kinds(pairs)[-3:] == ["back", "back", "back"] and warnings == []


def _marked_tile() -> np.ndarray:
    """A 40x54 tile on felt whose top edge is red: the way up can be seen in any cut."""
    image = np.full((200, 200, 3), (40, 110, 70), np.uint8)
    image[60:114, 80:120] = 240
    image[60:66, 80:120] = (0, 0, 255)
    return image


@pytest.mark.parametrize("turn, rotation", [(None, 0), (cv2.ROTATE_180, 180), (cv2.ROTATE_90_CLOCKWISE, 90),
                                            (cv2.ROTATE_90_COUNTERCLOCKWISE, 270)])
def test_a_cut_is_turned_upright(turn, rotation):
    image = _marked_tile() if turn is None else cv2.rotate(_marked_tile(), turn)
    ys, xs = np.where(image[..., 0] == 240)
    ys2, xs2 = np.where(image[..., 2] == 255)
    box = (float(min(xs.min(), xs2.min())), float(min(ys.min(), ys2.min())),
           float(max(xs.max(), xs2.max()) + 1), float(max(ys.max(), ys2.max()) + 1))
    cut = upright_cut(image, Detection("1p", box, rotation, 0.9))
    assert cut.shape[0] > cut.shape[1]                      # portrait
    red = (cut[..., 2] == 255) & (cut[..., 0] == 0)
    rows = np.where(red.any(axis=1))[0]
    assert rows.max() < cut.shape[0] / 4                     # the red edge is at the top


def test_a_box_of_no_pixels_is_refused():
    with pytest.raises(ValueError):
        upright_cut(np.zeros((10, 10, 3), np.uint8), Detection("1p", (20.0, 20.0, 30.0, 30.0), 0, 0.9))


@pytest.mark.parametrize("rotation", [0, 180])
def test_an_upright_tile_in_a_box_wider_than_tall_is_not_turned(rotation):
    """Seen aslant, a standing tile's box can be a little wider than tall (``is_ambiguous``): its
    rotation, not the box's shape, says it stands, so the cut keeps its face the right way up."""
    tile = _marked_tile()[60:114, 80:120]                   # the tile alone, 40x54, red edge on top
    image = tile if rotation == 0 else cv2.rotate(tile, cv2.ROTATE_180)
    h = image.shape[0]
    wide = cv2.resize(image, (int(h * 1.1), h))             # stretched wider than tall, as seen aslant
    cut = upright_cut(wide, Detection("1p", (0.0, 0.0, float(wide.shape[1]), float(h)), rotation, 0.9))
    red = (cut[..., 2] > 200) & (cut[..., 0] < 60)
    rows = np.where(red.any(axis=1))[0]
    cols = np.where(red.any(axis=0))[0]
    assert rows.max() < cut.shape[0] / 4                     # the red edge is at the top
    assert cols.max() - cols.min() > cut.shape[1] / 2        # ... running across it, not down a side


def test_a_marker_beside_the_first_row_shifts_no_kind():
    # a box left of 1p at its height, the size of no laid tile (a rim marker's edge): set aside, named by no one
    marker = Detection("2s", (20.0, 50.0, 38.0, 124.0), 0, 0.93)
    rows, strays = rows_and_strays([marker, *laid()])
    pairs, warnings = assign(rows, LAYOUT, strays)
    assert kinds(pairs) == flat() + [None] and pairs[-1][0] is marker
    assert [d.box for d, _ in pairs[:-1]] == [d.box for d in laid()]
    assert any("away from the rows" in w for w in warnings)


def test_a_tile_sized_box_far_along_a_row_is_no_tile_of_that_row():
    # the same size as the laid tiles, but twelve tiles along from the end of the third row
    far = Detection("back", (100.0 + 18 * PITCH, 50.0 + 2 * ROW, 100.0 + 18 * PITCH + W, 50.0 + 2 * ROW + H), 0, 1.0)
    rows, strays = rows_and_strays([*laid(), far])
    assert [len(r) for r in rows] == [9, 9, 6, 7, 3] and strays == [far]
    pairs, warnings = assign(rows, LAYOUT, strays)
    assert kinds(pairs) == flat() + [None]


def test_rows_laid_as_asked_have_no_strays():
    rows, strays = rows_and_strays(laid(slant=3.0))
    assert strays == [] and [len(r) for r in rows] == [9, 9, 6, 7, 3]
    assert rows_and_strays([]) == ([], [])


def test_rows_photographed_aslant_keep_their_far_tiles():
    # a phone held a little aslant: the far row's tiles at 0.7 of the near row's size, all still laid tiles
    found = []
    for r, row in enumerate(LAYOUT):
        scale = 0.7 + 0.15 * r
        for i, kind in enumerate(row):
            x, y = 100 + i * PITCH * scale, 50 + r * ROW
            found.append(Detection(kind, (x, y, x + W * scale, y + H * scale), 0, 0.9))
    rows, strays = rows_and_strays(found)
    assert strays == [] and [len(r) for r in rows] == [9, 9, 6, 7, 3]


def test_a_tile_the_detector_missed_in_a_row_is_cut_where_it_lies_and_keeps_the_kinds_after_it():
    laid_tiles = laid()
    missed = next(d for d in laid_tiles if d.tile == "4p")
    rows, strays = rows_and_strays([d for d in laid_tiles if d is not missed])
    pairs, warnings = assign(rows, LAYOUT, strays)
    assert kinds(pairs) == flat() and strays == []
    cut, kind = pairs[3]
    assert kind == "4p" and cut.tile == "none" and cut.score == 0.0
    assert np.allclose(cut.box, missed.box)
    assert warnings == ["row 1: the 4p not found, cut where it lies between the tiles beside it: check it"]


def test_two_tiles_missed_side_by_side_are_both_cut():
    found = [d for d in laid() if d.tile not in ("4s", "5s")]
    pairs, warnings = assign(*rows_and_strays(found)[:1])
    assert kinds(pairs) == flat()
    assert [d.tile for d, k in pairs if k in ("4s", "5s")] == ["none", "none"]
    assert any("the 4s 5s not found" in w for w in warnings)


def test_a_box_over_two_tiles_is_set_aside_and_the_two_tiles_are_cut_in_their_places():
    found = laid()
    six, seven = (next(d for d in found if d.tile == k) for k in ("6p", "7p"))
    both = Detection("8p", (six.box[0], six.box[1], seven.box[2], seven.box[3]), 0, 0.8)
    rows, strays = rows_and_strays([d for d in found if d not in (six, seven)] + [both])
    pairs, warnings = assign(rows, LAYOUT, strays)
    assert kinds(pairs) == flat() + [None] and strays == [both]
    assert np.allclose(pairs[5][0].box, six.box) and np.allclose(pairs[6][0].box, seven.box)


def test_a_missed_far_tile_is_cut_at_its_own_size():
    # seen aslant: each tile along the row a little smaller than the one before
    row = []
    x = 100.0
    for i, kind in enumerate(LAYOUT[0]):
        s = 1.0 - 0.04 * i
        row.append(Detection(kind, (x, 50.0, x + W * s, 50.0 + H * s), 0, 0.9))
        x += PITCH * s
    missed = row[6]
    rows, _ = rows_and_strays([d for d in row if d is not missed])
    assert [d.tile for d in rows[0]] == ["1p", "2p", "3p", "4p", "5p", "6p", "none", "8p", "9p"]
    assert np.allclose(rows[0][6].box, missed.box, atol=2.0)


def test_tiles_laid_apart_evenly_are_not_taken_for_missed_ones():
    # the players left half a tile between the tiles: one place a step, nothing to cut
    found = [Detection(k, (100.0 + i * 1.5 * W, 50.0, 100.0 + i * 1.5 * W + W, 50.0 + H), 0, 0.9)
             for i, k in enumerate(LAYOUT[0])]
    rows, strays = rows_and_strays(found)
    assert rows == [found] and strays == []


def test_a_gap_cut_past_the_rows_layout_is_named_by_its_place():
    """The players read which tile to check: "tile 10" of a nine-tile row, never "the ?"."""
    laid_tiles = [d for d in laid() if d.tile in LAYOUT[0]]
    last = max(laid_tiles, key=lambda d: d.box[0])
    step = last.box[2] - last.box[0] + 4
    gap = Detection("none", (last.box[0] + step, last.box[1], last.box[2] + step, last.box[3]), 0, 0.0)
    _, warnings = assign([laid_tiles + [gap]], LAYOUT[:1])
    assert any("the tile 10 not found" in w for w in warnings), warnings
    assert not any("the ?" in w for w in warnings)
