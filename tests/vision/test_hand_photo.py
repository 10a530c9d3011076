"""A revealed hand photographed from the seat: the line of tiles, left to right, into the hand record."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scoring import HandRecord
from vision.evaluate import labelled_photo, photos_dir
from vision.hand_photo import MIN_LINE, Tile, _neighbours, find_line, read_hand
from vision.layout import SetCounts

ROOT = Path(__file__).resolve().parents[2]
W, H = 60, 80            # a tile's box in the photo, upright: face and the strip of its near side


def line_of(tiles: str, x: float = 100, y: float = 500, gaps: dict[int, float] | None = None,
            sideways: set[int] = frozenset()) -> list[Tile]:
    """Boxes of ``tiles`` (space-separated mpsz names) side by side, touching; ``gaps[i]`` tile widths
    of felt before tile i; a sideways tile lies across (its box as long as an upright one is tall)."""
    out = []
    for i, name in enumerate(tiles.split()):
        x += (gaps or {}).get(i, 0) * W
        w, h = (H, W) if i in sideways else (W, H)
        top = y + (H - h)
        out.append(Tile(name, (x, top, x + w, top + h), 0.9, 90 if i in sideways else 0))
        x += w
    return out


SEVEN_PAIRS = "4s 6s 6s 8s 8s 2z 2z 3z 3z 6z 6z 7z 7z 4s"


def test_the_last_tile_set_apart_is_the_winning_tile():
    hand = read_hand(line_of(SEVEN_PAIRS, gaps={13: 0.5}))
    assert hand.concealed == tuple(SEVEN_PAIRS.split()) and hand.win_tile == "4s"
    assert hand.melds == () and hand.warnings == ()


def test_a_last_tile_laid_across_is_the_winning_tile_without_a_gap():
    hand = read_hand(line_of(SEVEN_PAIRS, sideways={13}))
    assert hand.win_tile == "4s" and hand.warnings == ()


def test_a_winning_tile_neither_apart_nor_across_is_taken_with_a_warning():
    hand = read_hand(line_of(SEVEN_PAIRS))
    assert hand.win_tile == "4s"
    assert hand.warnings == ("the winning tile is not set apart: took the last tile of the line",)


def test_thirteen_tiles_leave_the_winning_tile_to_the_players():
    hand = read_hand(line_of("1m 1m 1m 2p 3p 4p 5p 6p 7p 9s 9s 9s 5z"))
    assert hand.win_tile == "" and len(hand.concealed) == 13
    assert any("pick it" in w for w in hand.warnings)


def test_the_longest_line_is_the_hand_not_a_discard_row_or_loose_tiles():
    discards = line_of("1p 9m 4z 5z 1z 3s", x=300, y=100)             # a pond's row, further off
    loose = [Tile("7s", (50, 50, 110, 130), 0.8, 0), Tile("5z", (1200, 900, 1290, 990), 0.95, 0)]
    hand = line_of(SEVEN_PAIRS, gaps={13: 0.5})
    read = read_hand(discards + loose + hand)
    assert [t.tile for t in read.line.tiles] == SEVEN_PAIRS.split()


def test_a_tile_off_the_line_in_height_breaks_no_line_and_joins_none():
    hand = line_of(SEVEN_PAIRS, gaps={13: 0.5})
    above = Tile("1s", (hand[4].box[0], 380, hand[4].box[2], 460), 0.9, 0)   # lies above, not stacked
    assert [t.tile for t in find_line(hand + [above]).tiles] == SEVEN_PAIRS.split()


def test_a_triplet_set_apart_at_the_right_end_is_a_pon():
    hand = read_hand(line_of("2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z 7z 7z 7z", gaps={11: 0.6}, sideways={12}))
    assert hand.melds == ({"kind": "pon", "tiles": "777z"},)
    assert hand.concealed == tuple("2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z".split())
    assert hand.win_tile == "1z"
    assert any("called from" in w for w in hand.warnings)


def test_a_winning_tile_between_the_hand_and_a_meld_is_apart():
    hand = read_hand(line_of("2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z 7z 7z 7z", gaps={10: 0.5, 11: 0.6}))
    assert hand.win_tile == "1z" and hand.melds == ({"kind": "pon", "tiles": "777z"},)
    assert not any("not set apart" in w for w in hand.warnings)


def test_a_tile_lying_on_a_meld_makes_it_an_added_kan():
    tiles = line_of("2p 3p 4p 6s 7s 8s 1z 1z 1z 5z 5z 9m 9m 9m", gaps={10: 0.5, 11: 0.6}, sideways={11})
    base = tiles[11]
    stacked = Tile("9m", (base.box[0], base.box[1] - base.height + 4, base.box[2], base.box[1] + 4), 0.9, 90)
    hand = read_hand(tiles + [stacked])
    assert hand.melds == ({"kind": "kakan", "tiles": "9999m"},)
    assert [t.tile for t in hand.line.tiles][-4:] == ["9m"] * 4
    assert hand.win_tile == "5z"


def test_a_tile_lying_on_a_run_makes_it_an_added_kan_even_touching_the_hand():
    tiles = line_of("2p 3p 4p 6s 7s 8s 1z 1z 1z 5z 9m 9m 9m", sideways={10})
    base = tiles[10]
    stacked = Tile("9m", (base.box[0], base.box[1] - base.height + 4, base.box[2], base.box[1] + 4), 0.9, 90)
    hand = read_hand(tiles + [stacked])
    assert hand.melds == ({"kind": "kakan", "tiles": "9999m"},)
    assert hand.concealed == tuple("2p 3p 4p 6s 7s 8s 1z 1z 1z 5z".split())
    assert hand.win_tile == "" and any("pick it" in w for w in hand.warnings)     # 13: the winning tile lies elsewhere


def test_four_of_a_kind_touching_the_hand_with_none_on_top_stay_in_the_hand():
    hand = read_hand(line_of("2p 3p 4p 6s 7s 8s 1z 1z 1z 9m 9m 9m 9m 5z", gaps={13: 0.5}))
    assert hand.melds == () and len(hand.concealed) == 14 and hand.win_tile == "5z"


def test_two_backs_around_two_faces_are_a_closed_kan_of_the_sets_fives():
    hand = read_hand(line_of("2p 3p 4p 6s 7s 8s 1z 1z 1z 5z 5z back 5p 5p back", gaps={11: 0.6}))
    assert hand.melds == ({"kind": "ankan", "tiles": "0055p"},)     # 三人花: both red 5p in every 5p kan
    assert hand.win_tile == "5z" and len(hand.concealed) == 11


def test_a_closed_kan_of_fives_of_a_set_holding_more_is_taken_plain_and_said():
    # chinton's set: eight 5p, four of them red: the backs may hide none, one or two
    chinton = SetCounts(copies=4, suit_copies=8, reds=(0, 4, 4))
    hand = read_hand(line_of("1p 2p 3p 4p 4p 4p 6p 7p 8p 9p 9p back 5p 5p back", gaps={11: 0.6}), chinton)
    assert hand.melds == ({"kind": "ankan", "tiles": "5555p"},)
    assert any("its backs may hide red fives" in w for w in hand.warnings)


def test_a_hand_photographed_from_across_the_table_runs_right_to_left():
    laid = "2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z 7z 7z 7z".split()
    seen = line_of(" ".join(reversed(laid)), gaps={3: 0.6})          # the pon now at the photo's left
    upside_down = [Tile(t.tile, t.box, t.score, 180) for t in seen]
    hand = read_hand(upside_down)
    assert [t.tile for t in hand.line.tiles] == laid
    assert hand.melds == ({"kind": "pon", "tiles": "777z"},) and hand.win_tile == "1z"


def test_faces_with_no_up_do_not_turn_a_line_round():
    # seen from the seat, the classifier guesses which way up a 4s or a red 5s lies; the characters know
    laid = "1m 5m 9m 2s 2s 4s 4s 0s 6s 8s 5p 8p 9p".split()
    seen = [Tile(t.tile, t.box, t.score, 0 if t.tile[1] == "m" else 180)    # the circles and bamboos guessed
            for t in line_of(" ".join(laid))]
    assert [t.tile for t in find_line(seen).tiles] == laid


def test_a_line_of_faces_with_no_up_is_turned_round_by_all_of_them():
    laid = "2p 3p 4p 5p 8p 9p 2s 4s 5s 6s 8s 9s 5z 5z".split()
    seen = line_of(" ".join(reversed(laid)))
    assert [t.tile for t in find_line([Tile(t.tile, t.box, t.score, 180) for t in seen]).tiles] == laid


def test_boxes_holding_the_tiles_sides_overlap_their_neighbours_and_still_chain():
    # seen from the seat each box holds its tile's side too: the first box reaches 0.45 of a tile into
    # the second (hand-92345ff1's 4s and 6s), which is still its neighbour; a box half over another is not
    laid = line_of(SEVEN_PAIRS)
    widened = [Tile(t.tile, (t.box[0], t.box[1], t.box[2] + 0.45 * W, t.box[3]), t.score) if i in (0, 12) else t
               for i, t in enumerate(laid)]
    assert [t.tile for t in find_line(widened).tiles] == SEVEN_PAIRS.split()
    x = laid[0].box[0]
    assert _neighbours(widened[0], laid[1])
    assert not _neighbours(widened[0], Tile("6s", (x + 0.85 * W, 500, x + 1.85 * W, 500 + H), 0.9))  # 0.6 over it


def test_a_box_over_the_seam_between_two_tiles_is_no_tile_of_the_line():
    # a narrow box over the seam between the 9s and the 9m (a hair of felt between them) chains to both,
    # and the longest chain would take it as a fifteenth tile; two tiles a pitch apart leave no room
    hand = line_of("5z 6z 7z 2z 1z 4z 4z 1p 9p 1s 9s 9m 1m 3z", gaps={11: 0.15, 13: 0.5})
    over = Tile("5z", (hand[10].box[2] - 0.37 * W, 505, hand[11].box[0] + 0.37 * W, 500 + H), 0.78)
    assert _neighbours(hand[10], over) and _neighbours(over, hand[11])
    assert [t.tile for t in find_line(hand + [over]).tiles] == [t.tile for t in hand]
    # a tile of its own between them, two pitches apart, stays
    spaced = line_of("5z 6z 7z 2z 1z 4z 4z 1p 9p 1s 9s 5z 9m 1m 3z", gaps={14: 0.5})
    assert len(find_line(spaced).tiles) == 15


def test_a_wall_of_backs_is_no_line():
    wall = line_of(" ".join(["back"] * 17), y=200)
    assert find_line(wall) is None
    hand = line_of(SEVEN_PAIRS, gaps={13: 0.5})
    assert [t.tile for t in find_line(wall + hand).tiles] == SEVEN_PAIRS.split()


def test_fewer_tiles_side_by_side_than_a_hand_are_no_line():
    read = read_hand(line_of(" ".join(["1p"] * (MIN_LINE - 1))))
    assert read.line is None and read.concealed == () and "no revealed hand" in read.warnings[0]


def test_felt_wider_than_a_tile_ends_the_line():
    tiles = line_of("1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z 7z", gaps={7: 1.6})
    assert [t.tile for t in find_line(tiles).tiles] == "1m 9m 1p 9p 1s 9s 1z".split()


def test_the_photo_fills_the_hand_and_keeps_what_the_tablet_knows():
    hand = read_hand(line_of("2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z 7z 7z 7z", gaps={11: 0.6}, sideways={12}))
    record = hand.into({"rules": "dunhill", "seat": "south", "win": "ron", "discarder": "east",
                        "gari": "4z", "concealed": "111m", "win_tile": "1m"})
    assert record["seat"] == "south" and record["gari"] == "4z" and record["discarder"] == "east"
    assert record["win_tile"] == "1z" and record["melds"] == [{"kind": "pon", "tiles": "777z"}]
    parsed = HandRecord.from_dict(record)          # a record scoring takes as it is
    assert len(parsed.melds) == 1


def test_detections_as_the_detector_writes_them_are_read():
    found = [{"tile": t.tile, "box": list(t.box), "score": t.score, "rotation": t.rotation}
             for t in line_of(SEVEN_PAIRS, gaps={13: 0.5})]
    assert read_hand(found).win_tile == "4s"


def test_the_hand_keeps_the_tiles_it_was_read_from_with_their_other_faces():
    # what a hand that makes no win is mended from (service.mending): the concealed tiles' own
    # tiles, in their order, each with the detector's next likeliest faces
    tiles = line_of("2p 3p 4p 6s 7s 8s 9m 9m 1z 1z 1z 7z 7z 7z", gaps={11: 0.6})
    doubted = [Tile(t.tile, t.box, t.score, t.rotation, (("5p", 0.2),) if k == 2 else ()) for k, t in enumerate(tiles)]
    hand = read_hand(doubted)
    assert [t.tile for t in hand.hand] == list(hand.concealed)
    assert hand.hand[2].others == (("5p", 0.2),)
    as_dicts = [{"tile": t.tile, "box": list(t.box), "score": t.score, "rotation": t.rotation,
                 "others": [list(o) for o in t.others]} for t in doubted]
    assert read_hand(as_dicts).hand[2].others == (("5p", 0.2),)


def test_the_command_refuses_what_is_no_image(tmp_path):
    bad = tmp_path / "hand.jpg"
    bad.write_text("not a picture")
    r = subprocess.run([sys.executable, "-m", "vision", "hand", str(bad)], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "not an image" in r.stderr and "Traceback" not in r.stderr


PHOTOS = photos_dir()
LABELS = ROOT / "vision" / "labels"


# hand-839f5eac's line at its own pixels holds by a hair (saved again at JPEG quality 85 it is lost with any
# locator, and none of its 20 retakes reads it); the seat's own locator boxes its 6p and 7p across two tiles
# there (read 8p). Chosen knowingly: over 22 draws of each hand photo the seat locator reads more lines
# (docs/vision.md, "The seat's own locator"). Read again on the line's pitch (look_again) the box is cut
# at the 6p's place, but the classifier alone names this set's 6p and 7p wrong wherever they are cut; with
# a set of its own tiles the line reads (the test at the end). Strict: a model that reads it must say so here.
SEAT_LOST = pytest.mark.xfail(strict=True, reason="the seat locator boxes its 6p and 7p across two tiles, "
                                                  "and the classifier misnames them")


@pytest.mark.parametrize("name", ["hand-92345ff1", pytest.param("hand-839f5eac", marks=SEAT_LOST), "hand-eafe5f63"])
def test_a_real_photo_of_a_hand_reads_its_line(name):
    labels = json.loads((LABELS / f"{name}.json").read_text(encoding="utf-8"))
    photo = PHOTOS / labels["image"]
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    r = subprocess.run([sys.executable, "-m", "vision", "hand", str(photo), "--json"], capture_output=True,
                       text=True, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["line"] == labels["hand_line"]
    if len(labels["hand_line"]) == 14:          # the last tile, laid across, is the winning tile
        assert out["record"]["win_tile"] == labels["hand_line"][-1]
        HandRecord.from_dict(out["record"])
    else:                                       # 13 tiles: the players pick the winning tile
        assert out["record"]["win_tile"] == "" and any("pick it" in w for w in out["warnings"])


def test_the_seat_photos_line_keeps_the_tiles_the_console_locator_would_veto():
    """hand-eafe5f63 taken a little smaller and brighter: the oblique view's second opinion (the
    console locator) sees no tile at the 白 that opens the line and vetoes it; the seat's detector
    asks no second opinion, and the line keeps its 14 tiles."""
    from vision.detect import Detector
    from vision.hand_photo import read_photo, seat_detector

    labels = json.loads((LABELS / "hand-eafe5f63.json").read_text(encoding="utf-8"))
    photo = PHOTOS / labels["image"]
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    small = cv2.resize(cv2.imread(str(photo)), None, fx=0.8, fy=0.8, interpolation=cv2.INTER_AREA)
    brighter = (255 * (small / 255.0) ** 0.85).clip(0, 255).astype("uint8")
    vetoed = read_photo(brighter, Detector.for_view("oblique"))
    assert [t.tile for t in vetoed.line.tiles][0] != "5z"          # what the second opinion costs
    assert [t.tile for t in read_photo(brighter, seat_detector()).line.tiles] == labels["hand_line"]


def _photo(name: str):
    labels, photo = labelled_photo(name)
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    return labels, cv2.imread(str(photo))


def test_the_seats_own_locator_reads_a_line_the_oblique_locator_loses():
    """hand-eafe5f63 taken at 0.7 of its size and saved at JPEG quality 80, as a second photo of the hand
    might come: the seat's own locator, which learnt photos from the seat, reads its 14 tiles; the
    oblique view's locator in its place does not."""
    from vision.detect import VIEWS
    from vision.hand_photo import read_photo, seat_detector

    labels, image = _photo("hand-eafe5f63")
    small = cv2.resize(image, None, fx=0.7, fy=0.7, interpolation=cv2.INTER_AREA)
    again = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_COLOR)
    read = read_photo(again, seat_detector())
    assert [t.tile for t in read.line.tiles] == labels["hand_line"]
    oblique = read_photo(again, seat_detector(locator=VIEWS["oblique"][0]))
    assert oblique.line is None or [t.tile for t in oblique.line.tiles] != labels["hand_line"]


def test_the_seats_own_locator_lands_no_box_on_the_felt_around_a_hand():
    """hand-839f5eac's felt, marked clear of tiles in its labels: the oblique view's locator, read without
    its console locator's veto, lands boxes there; the seat's own locator none."""
    from vision.detect import VIEWS
    from vision.evaluate import on_clear_ground
    from vision.hand_photo import as_read, seat_detector

    labels, image = _photo("hand-839f5eac")
    small, scale = as_read(image)
    clear = [[v * scale for v in c["box"]] for c in labels["clear"]]

    def on_clear(detector) -> int:
        found = detector.detect(small)
        return sum(on_clear_ground(d.box, clear) for d in found)

    assert on_clear(seat_detector()) == 0
    assert on_clear(seat_detector(locator=VIEWS["oblique"][0])) > 0


def test_a_reading_its_caller_refuses_is_read_again_at_other_sizes():
    """A caller that knows a winning hand when it sees one (the service, by the table's rule) refuses a
    reading that makes none: the photo is read again at each of ``AGAIN_AT``'s sizes and turns in turn,
    and the first reading taken is the hand, its boxes in the photo's pixels; where none is taken,
    the first reading stands."""
    from vision.hand_photo import AGAIN_AT, read_photo, seat_detector

    labels, image = _photo("hand-92345ff1")
    detector = seat_detector()
    first = read_photo(image, detector)
    asked = []

    def second_please(hand) -> bool:
        asked.append(hand)
        return len(asked) == 2

    again = read_photo(image, detector, accept=second_please)
    assert len(asked) == 2 and again.line == asked[1].line and again.warnings[:-1] == asked[1].warnings
    assert [t.tile for t in again.line.tiles] == labels["hand_line"]
    assert again.warnings[-1].startswith(f"read again at {AGAIN_AT[0][0]:g} times the size")
    for a, b in zip(first.line.tiles, again.line.tiles):     # the same tiles, in the photo's pixels
        assert max(abs(u - v) for u, v in zip(a.box, b.box)) < 0.15 * a.width
    asked.clear()
    k, (size, turn) = next((k, a) for k, a in enumerate(AGAIN_AT) if a[1])      # the first turned reading
    turned = read_photo(image, detector, accept=lambda hand: asked.append(hand) or len(asked) == k + 2)
    at = "its own size" if size == 1 else f"{size:g} times the size"          # never "1 times the size"
    assert turned.warnings[-1].startswith(f"read again at {at}, turned {turn:g} degrees")
    assert [t.tile for t in turned.line.tiles] == labels["hand_line"]
    for a, b in zip(first.line.tiles, turned.line.tiles):    # turned back into the photo's pixels: the same centres
        assert abs(a.box[0] + a.box[2] - b.box[0] - b.box[2]) / 2 < 0.15 * a.width
        assert abs(a.box[1] + a.box[3] - b.box[1] - b.box[3]) / 2 < 0.15 * a.width
    asked.clear()
    never = read_photo(image, detector, accept=lambda hand: asked.append(hand) and False)
    assert len(asked) == 1 + len(AGAIN_AT)
    assert [t.tile for t in never.line.tiles] == [t.tile for t in first.line.tiles]
    assert never.warnings == first.warnings


# second looks along the line: the tiles of a hand lie at one pitch (look_again)

def test_a_tile_missing_from_the_line_is_looked_for_where_the_pitch_puts_it():
    """Two neighbours two pitches apart hold a tile between them; the places one pitch beyond each
    end are looked at too, more strictly (a tile there may be felt, a meld set apart, a wall)."""
    from vision.hand_photo import _missed_places

    tiles = line_of("1m 2m 3m 4m 5m 6m 7m")
    line = find_line(tiles[:3] + tiles[4:])                 # the 4m missed
    places = _missed_places(line)
    assert [at_end for _, at_end in places] == [False, True, True]
    (gap, _), (right, _), (left, _) = places
    assert max(abs(u - v) for u, v in zip(gap, tiles[3].box)) < 1e-6
    assert right[0] == pytest.approx(tiles[-1].box[2]) and left[2] == pytest.approx(tiles[0].box[0])


def test_felt_before_a_tile_set_apart_is_no_missed_tile():
    """A winning tile half a tile apart is no whole number of pitches on: no place between."""
    from vision.hand_photo import _missed_places

    places = _missed_places(find_line(line_of(SEVEN_PAIRS, gaps={13: 0.5})))
    assert [box for box, at_end in places if not at_end] == []


def test_a_blank_face_beyond_the_lines_end_is_not_taken_but_between_two_tiles_it_is():
    """白 has no ink: felt or a rail beyond the line's end can read as it. Between two tiles a pitch
    apart either way, a tile must lie there."""
    from vision.detect import Detection
    from vision.hand_photo import GAP_SURE, LOOK_SURE, _missed_tile

    white = Detection("5z", (0, 0, 60, 80), 0, 0.99)
    assert not _missed_tile(white, at_end=True) and _missed_tile(white, at_end=False)
    assert _missed_tile(replace(white, tile="6z"), at_end=True)
    assert not _missed_tile(replace(white, tile="6z", score=LOOK_SURE - 0.01), at_end=True)
    assert _missed_tile(replace(white, tile="6z", score=GAP_SURE), at_end=False)
    assert not _missed_tile(replace(white, tile="none"), at_end=False)


def test_a_box_over_two_tiles_named_unsurely_is_read_again_at_the_first_ones_place():
    from vision.hand_photo import _wide_places

    tiles = line_of("1p 2p 3p 4p 5p 6p")
    x1, y1, _, y2 = tiles[4].box
    both = Tile("8p", (x1, y1, tiles[5].box[2], y2), 0.7)            # the 5p and 6p boxed as one, read 8p
    ((wide, place),) = _wide_places(find_line(tiles[:4] + [both]))
    assert wide == both
    assert max(abs(u - v) for u, v in zip(place, tiles[4].box)) < 1e-6
    sure = replace(both, score=0.99)                                 # named surely: left as it is
    assert _wide_places(find_line(tiles[:4] + [sure])) == []


def test_end_tiles_widened_by_the_camera_close_to_them_are_not_two_tiles():
    """Seen from the seat the nearest tiles show their sides: each box a little wider than the one
    before it, never a quarter wider than its neighbour."""
    from vision.hand_photo import _wide_places

    tiles, x = [], 100.0
    for i, w in enumerate([80, 70, 64, 62, 62, 64, 70, 80, 92]):
        tiles.append(Tile("1s", (x, 500, x + w, 580), 0.7))
        x += w * 0.85                                               # boxes holding their sides overlap
    assert _wide_places(find_line(tiles)) == []


@pytest.fixture(scope="module")
def seat_scene():
    """A rendered photo from the winner's seat (test seeds) whose line the seat's detector reads as
    the labelled boxes' line: the photo, what it found, the line's detections left to right, the line's
    tiles and the detector."""
    from vision.evaluate_run import SEAT_TEST
    from vision.hand_photo import seat_detector
    from vision.synth.art import TileArt
    from vision.synth.dataset import scene_for

    try:
        art = TileArt()
    except Exception as e:  # the tile art is in ../shared
        pytest.skip(f"no tile art: {e}")
    detector = seat_detector()
    for seed in range(SEAT_TEST, SEAT_TEST + 20):
        scene = scene_for(seed, art, (960, 720))
        truth = find_line([{"tile": a.cls, "box": a.box, "score": 1.0, "rotation": a.rotation} for a in scene.tiles])
        found = detector.detect(scene.image)
        line = find_line(found)
        if truth and line and [t.tile for t in line.tiles] == [t.tile for t in truth.tiles] and not line.stacked:
            run = sorted((d for d in found if Tile.of(d) in line.tiles), key=lambda d: d.box[0])
            return scene.image, found, run, [t.tile for t in line.tiles], detector
    pytest.fail("no rendered seat photo of 20 read exactly")


def test_a_line_tile_the_locator_missed_is_found_again(seat_scene):
    from vision.hand_photo import look_again

    image, found, run, want, detector = seat_scene
    missed = run[len(run) // 2]
    kept = [d for d in found if d is not missed]
    assert [t.tile for t in find_line(kept).tiles] != want
    again, said = look_again(kept, image, detector)
    assert [t.tile for t in find_line(again).tiles] == want
    assert said == (f"{missed.tile} read where the line's spacing says a tile was missed; check it",)


def test_two_line_tiles_boxed_as_one_are_read_as_two(seat_scene):
    from vision.detect import Detection
    from vision.hand_photo import look_again

    image, found, run, want, detector = seat_scene
    upright = [i for i in range(1, len(run) - 1) if run[i].rotation % 180 == 0 and run[i + 1].rotation % 180 == 0
               and run[i - 1].rotation % 180 == 0]
    i = upright[len(upright) // 2]
    a, b = run[i], run[i + 1]
    both = Detection("8p", (a.box[0], min(a.box[1], b.box[1]), b.box[2], max(a.box[3], b.box[3])), 0, 0.6)
    boxed = [d for d in found if d is not a and d is not b] + [both]
    assert [t.tile for t in find_line(boxed).tiles] != want
    again, said = look_again(boxed, image, detector)
    assert [t.tile for t in find_line(again).tiles] == want
    assert said[0] == f"a box read 8p held two tiles: read again as {a.tile} where the first lies; check it"
    assert said[1:] == (f"{b.tile} read where the line's spacing says a tile was missed; check it",)


def _vision(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", *map(str, args)], capture_output=True, text=True, cwd=ROOT)


def test_a_real_hand_read_with_a_set_of_its_tiles_gets_the_tiles_boxed_as_one(tmp_path):
    """hand-839f5eac, read with a set enrolled from its own labelled tiles (``vision hand --tileset``):
    the seat's locator boxes its 6p with half its 7p, and the set names that box 8p; read again one
    pitch after its 5p, it is the 6p, and the line is the labelled one."""
    from vision.crop import upright_cut

    labels, image = _photo("hand-839f5eac")
    for n, t in enumerate(labels["tiles"]):
        (tmp_path / "crops" / t["tile"]).mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(tmp_path / "crops" / t["tile"] / f"{n}.png"), upright_cut(image, t["box"], t["rotation"]))
    enrolled = _vision("tileset", "enroll", tmp_path / "own.tileset", "--crops", tmp_path / "crops",
                       "--view", "oblique")
    assert enrolled.returncode == 0, enrolled.stderr
    read = _vision("hand", PHOTOS / labels["image"], "--tileset", tmp_path / "own.tileset", "--json")
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)["line"] == labels["hand_line"]


def _one_crop_set(tmp_path: Path, name: str, *view: str) -> tuple[Path, Path]:
    """A tile set of one plain crop (any crop: what is refused is the set, not its tiles), enrolled
    with ``view`` options, and a plain photo to read with it."""
    crops = tmp_path / "crops" / "1m"
    crops.mkdir(parents=True)
    cv2.imwrite(str(crops / "a.png"), np.full((40, 30, 3), 230, np.uint8))
    assert _vision("tileset", "enroll", tmp_path / name, "--crops", tmp_path / "crops", *view).returncode == 0
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), np.full((200, 300, 3), 90, np.uint8))
    return tmp_path / name, photo


def test_a_hand_photo_refuses_a_tile_set_of_the_overhead_view(tmp_path):
    tileset, photo = _one_crop_set(tmp_path, "top.tileset")
    r = _vision("hand", photo, "--tileset", tileset)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [f"error: {tmp_path / 'top.tileset'}: a tile set for the overhead view; "
                                             "a photo from the seat is read in the oblique view (enrol a set with "
                                             "--view oblique)"]


def test_a_hand_photo_refuses_a_tile_set_made_on_another_classifier_and_says_how_to_rebuild(tmp_path):
    tileset, photo = _one_crop_set(tmp_path, "s.tileset", "--view", "oblique")
    index = json.loads((tileset / "index.json").read_text())
    index["base"]["id"] = "0123456789abcdef"          # as if the shipped classifier had changed since
    (tileset / "index.json").write_text(json.dumps(index))
    r = _vision("hand", photo, "--tileset", tileset)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1
    assert f"python -m vision tileset rebuild {tmp_path / 's.tileset'}" in r.stderr


def test_a_black_and_white_photo_says_its_red_fives_cannot_be_told_and_a_colour_one_does_not():
    """hand-839f5eac holds 0m and 0s; its greyscale copy read them as 5m and 5s at 0.87 and 0.98,
    with no word that the photo had no colour to tell them by."""
    from vision.colour import NO_COLOUR
    from vision.hand_photo import read_photo

    photo = PHOTOS / "hand-839f5eac.jpg"
    if not photo.is_file():
        pytest.skip(f"{photo} is not here (../shared/photos)")
    colour = cv2.imread(str(photo))
    grey = cv2.cvtColor(cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    sepia = (grey * np.array([0.8, 0.95, 1.1])).clip(0, 255).astype(np.uint8)     # one tint over all
    assert NO_COLOUR not in read_photo(colour).warnings
    assert NO_COLOUR in read_photo(grey).warnings
    assert NO_COLOUR in read_photo(sepia).warnings
    # a set without red fives has nothing to tell: said nowhere
    assert NO_COLOUR not in read_photo(grey, wall=SetCounts(reds=(0, 0, 0))).warnings


@pytest.mark.parametrize("shape", [(1, 4096), (4096, 1), (2, 8000)])
def test_a_picture_a_pixel_thin_reads_no_hand_and_raises_nothing(shape):
    """Shrunk to 1,920 on its long side, a 1x4096 picture had a side of no pixels, and OpenCV raised
    (a 500 on the tablet, a traceback from the command)."""
    from vision.hand_photo import as_read, read_photo

    image = np.full(shape + (3,), 200, np.uint8)
    small, _ = as_read(image)
    assert min(small.shape[:2]) >= 1
    hand = read_photo(image)
    assert hand.concealed == () and not hand.line
