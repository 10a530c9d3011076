"""Grouping rules of the layout stage, each on tiles laid out as at a real table after a win.

Tiles are placed in a seat's own frame (u along the player's edge to the right,
v towards the centre) on the default three-seat table, 26 x 35 mm each.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.markers import default_layout
from calibration.zones import SEAT_TEMPLATE, default_zones
from vision.layout import Piece, Reading, SeatFrame, SetCounts, read_layout, tiles_of, vote

W, H = 26.0, 35.0
HAND_U0, HAND_V0 = SEAT_TEMPLATE["hand"][0], SEAT_TEMPLATE["hand"][2]
ZONES = default_zones(default_layout())


def frame(seat: str, kind: str = "hand") -> SeatFrame:
    zone = next(z for z in ZONES if z.seat == seat and z.kind == kind)
    return SeatFrame.of_zone(zone.polygon)


def at(seat: str, tile: str, u: float, v: float, sideways: bool = False, score: float = 0.99) -> Piece:
    """A tile centred at (u, v) in the seat's template frame (calibration.zones.SEAT_TEMPLATE: u from the
    middle of the player's edge, v from the edge), upright or turned a quarter."""
    f = frame(seat)
    c = f.origin + (u - HAND_U0) * f.u + (v - HAND_V0) * f.v
    du, dv = (H, W) if sideways else (W, H)
    half = np.abs(f.u) * du / 2 + np.abs(f.v) * dv / 2
    return Piece(tile, (c[0] - half[0], c[1] - half[1], c[0] + half[0], c[1] + half[1]), score)


def row(seat: str, tiles: list[str], u0: float, v: float, gap: float = 1.0) -> list[Piece]:
    return [at(seat, t, u0 + i * (W + gap), v) for i, t in enumerate(tiles)]


HAND = ["1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "5z", "5z", "5z", "9p"]


def revealed(seat: str, tiles=HAND, win: str = "9p", apart: float = 14.0) -> list[Piece]:
    pieces = row(seat, tiles, -185.0, 40.0)
    return pieces + [at(seat, win, -185.0 + len(tiles) * (W + 1) + apart, 40.0)]


def test_the_winner_is_the_seat_with_a_face_up_hand_and_the_win_tile_is_set_apart():
    reading = read_layout(revealed("south"), ZONES, "dunhill")
    assert reading.record["seat"] == "south"
    assert reading.record["concealed"] == "123456p789s555z99p"
    assert reading.record["win_tile"] == "9p"
    assert not [w for w in reading.warnings if "set apart" in w or "not 14" in w]


def test_a_win_tile_without_a_gap_is_taken_with_a_warning():
    reading = read_layout(revealed("east", apart=1.0), ZONES, "dunhill")
    assert reading.record["win_tile"] == "9p"
    assert any("not set apart" in w for w in reading.warnings)


@pytest.mark.parametrize("seat, position, source", [
    # East's right is South, across is West, left is the empty North side
    ("east", 2, "south"), ("east", 1, "west"),
    ("south", 2, "west"), ("south", 0, "east"),
    ("west", 0, "south"), ("west", 1, "east"),
])
def test_the_sideways_tile_says_from_whom_a_pon_came(seat, position, source):
    hand = ["1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "9p"]
    pieces = revealed(seat, hand, "9p")
    u = 210.0
    for i in range(3):
        side = i == position
        w = H if side else W
        pieces.append(at(seat, "5z", u + w / 2, 40.0 - (H - W) / 2 * side, sideways=side))
        u += w + 1
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "pon", "tiles": "555z", "from": source}]
    assert not [w for w in reading.warnings if "not 14" in w]


def test_a_sideways_tile_pointing_at_the_empty_side_is_warned_about():
    pieces = revealed("east", HAND[:10], "9p")
    pieces += [at("east", "5z", 240 + H / 2, 40, sideways=True), at("east", "5z", 240 + H + 1 + W / 2, 40),
               at("east", "5z", 240 + H + W + 2 + W / 2, 40)]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "pon", "tiles": "555z"}]
    assert any("empty side" in w for w in reading.warnings)


def test_two_backs_among_four_are_an_ankan():
    pieces = revealed("west", HAND[:10], "9p")
    pieces += [at("west", t, 240 + i * (W + 1), 40) for i, t in enumerate(["back", "1m", "1m", "back"])]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "ankan", "tiles": "1111m"}]


@pytest.mark.parametrize("seen, tiles", [
    (["1m", "1m", "back"], "1111m"),        # its first back not seen
    (["back", "1m", "back"], "1111m"),      # a face not seen
    (["back", "0p", "5p"], "0055p"),        # of fives: the set's two reds and two plain, whatever shows
])
def test_an_ankan_with_one_tile_not_seen_is_still_an_ankan_and_said(seen, tiles):
    # Only an ankan shows backs in the meld zone, one at each end, so three of its four seen are enough.
    pieces = revealed("west", HAND[:10], "9p")
    pieces += [at("west", t, 240 + i * (W + 1), 40) for i, t in enumerate(seen)]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "ankan", "tiles": tiles}]
    assert any("not seen: check it" in w for w in reading.warnings)


def _pale(piece: Piece, runner_up: str | None, score: float = 0.6) -> Piece:
    """``piece`` named a back instead, its face the runner-up (as a set with backs as pale as its faces
    names its 白); no runner-up: no face in the running."""
    return Piece("back", piece.box, 0.97, piece.rotation, ((runner_up, score),) if runner_up else ())


def test_a_back_in_the_revealed_row_is_its_likeliest_face_and_said():
    # The winner's row lies face up: a back there can only be a face misread (白, blank as it is,
    # where the backs are as pale as the faces).
    pieces = revealed("south")
    pieces[9] = _pale(pieces[9], "5z")
    pieces += row("south", ["1m", "5z"], -50, 220)                        # the discards, face up too
    pieces[-1] = _pale(pieces[-1], "5z")
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["concealed"] == "123456p789s555z99p"
    assert reading.record["discards"] == "1m5z"
    assert [p.tile for p in reading.hand].count("5z") == 3
    assert any("back read as 5z" in w and "0.60 5z against 0.97 back" in w for w in reading.warnings)
    assert not any("back(s) in" in w for w in reading.warnings)


def test_however_unsure_its_face_a_back_in_the_row_is_read_as_it_but_with_none_stays_a_back():
    pieces = revealed("south")
    pieces[0] = _pale(pieces[0], "1p", 0.02)            # backs the colour of the circles' ink
    pieces[1] = _pale(pieces[1], None)
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["concealed"] == "13456p789s555z99p"
    assert any("back read as 1p" in w and "0.02 1p against 0.97 back" in w for w in reading.warnings)
    assert any("1 back(s) in south's hand row: not read" in w for w in reading.warnings)


def test_a_pon_of_haku_read_as_backs_is_a_pon_and_an_ankan_keeps_its_backs():
    # Only an ankan shows backs, and it lies upright: a meld with a sideways tile lies face up.
    hand = ["1p", "2p", "3p", "4p", "5p", "6p", "7s", "8s", "9s", "9p"]
    pieces = revealed("south", hand, "9p")
    pieces += [_pale(at("south", "5z", 210 + H / 2, 40 - (H - W) / 2, sideways=True), "5z"),
               _pale(at("south", "5z", 210 + H + 1 + W / 2, 40), "5z"),
               _pale(at("south", "5z", 210 + H + W + 2 + W / 2, 40), "5z")]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "pon", "tiles": "555z", "from": "east"}]
    assert sum("back read as 5z" in w for w in reading.warnings) == 3
    pieces = revealed("west", HAND[:10], "9p")
    pieces += [_pale(at("west", "back", 240 + i * (W + 1), 40), "5z") if t == "back" else
               at("west", t, 240 + i * (W + 1), 40) for i, t in enumerate(["back", "1m", "1m", "back"])]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "ankan", "tiles": "1111m"}]
    assert not any("back read as" in w for w in reading.warnings)


def test_a_back_between_two_faces_is_no_ankan():
    pieces = revealed("west", HAND[:10], "9p")
    pieces += [at("west", t, 240 + i * (W + 1), 40) for i, t in enumerate(["1m", "back", "1m"])]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert not reading.record.get("melds") and any("back(s): not read" in w for w in reading.warnings)


def kakan_from_the_right(seat: str, tile: str, u: float) -> tuple[list[Piece], float]:
    """A kakan laid from ``u``: two upright, then the called tile sideways on the near line and the
    added one beyond it; and the u just past it."""
    pieces = []
    for _ in range(2):
        pieces.append(at(seat, tile, u + W / 2, 40))
        u += W + 1
    pieces.append(at(seat, tile, u + H / 2, 40 - (H - W) / 2, sideways=True))
    pieces.append(at(seat, tile, u + H / 2, 40 - (H - W) / 2 + W + 1, sideways=True))   # added beyond it
    return pieces, u + H + 1


def test_a_kakan_is_two_sideways_tiles_stacked_and_melds_split_at_a_gap():
    # kakan of 9s from South (right end), then a gap, then a pon of 5z from West (middle)
    kakan, u = kakan_from_the_right("east", "9s", 215.0)
    pieces = revealed("east", HAND[:7], "9p") + kakan
    u += 12                                            # the gap between melds
    for i in range(3):
        side = i == 1
        w = H if side else W
        pieces.append(at("east", "5z", u + w / 2, 40 - ((H - W) / 2 if side else 0), sideways=side))
        u += w + 1
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "kakan", "tiles": "9999s", "from": "south"},
                                       {"kind": "pon", "tiles": "555z", "from": "west"}]


def test_gari_dora_and_ura_are_read_from_their_zones():
    pieces = revealed("south")
    pieces += row("south", ["4z", "4z", "1m", "0m"], -150, 115)            # the gari row
    pieces += [at("south", "7z", -50, 115)]                                # not a gari: warned
    dead = next(z for z in ZONES if z.kind == "dead_wall")
    f = SeatFrame.of_zone(dead.polygon)
    for k, (tile, dv) in enumerate([("back", 25), ("3p", 25), ("back", 25), ("1z", 62)]):
        c = f.origin + (100 + k * 27) * f.u + dv * f.v
        half = np.abs(f.u) * W / 2 + np.abs(f.v) * H / 2
        pieces.append(Piece(tile, (c[0] - half[0], c[1] - half[1], c[0] + half[0], c[1] + half[1])))
    reading = read_layout(pieces, ZONES, "dunhill", gari_kinds=("1m", "5m", "9m", "4z"))
    assert reading.record["gari"] == "44z10m7z"
    assert reading.record["dora_indicators"] == "3p" and reading.record["ura_indicators"] == "1z"
    assert any("7z in the gari zone is no gari" in w for w in reading.warnings)


def test_impossible_copies_low_scores_and_a_short_hand_are_warned_about():
    pieces = revealed("east", HAND[:12], "5z")
    pieces[0] = Piece("5z", pieces[0].box, 0.4)
    warnings = read_layout(pieces, ZONES, "dunhill").warnings
    assert any("5 copies of 5z" in w for w in warnings)
    assert any("unsure of the 5z" in w for w in warnings)
    assert any("13, not 14" in w for w in warnings)
    assert any("tsumo or ron" in w for w in warnings)


def test_an_empty_table_reads_no_hand():
    reading = read_layout([], ZONES, "dunhill")
    assert reading.record == {} and "no revealed hand" in reading.warnings[0]


def test_frames_are_voted_and_a_hand_reaching_in_is_outvoted():
    good = read_layout(revealed("south"), ZONES, "dunhill")
    hidden = read_layout(revealed("south")[4:], ZONES, "dunhill")
    assert vote([good, hidden, good, good, hidden]).record == good.record
    split = vote([good, hidden])
    assert any("frames disagree" in w for w in split.warnings)
    with pytest.raises(ValueError):
        vote([])
    assert isinstance(split, Reading)


@pytest.mark.parametrize("shown, hidden", [
    (["0s", "5s"], "0055s"),        # the set's four fives are two red and two plain: the backs hide one of each
    (["0s", "0s"], "0055s"),
    (["5s", "5s"], "0055s"),
    (["7z", "7z"], "7777z"),
])
def test_an_ankan_of_fives_holds_the_sets_two_reds(shown, hidden):
    pieces = revealed("west", HAND[:10], "9p")
    pieces += [at("west", t, 240 + i * (W + 1), 40) for i, t in enumerate(["back", *shown, "back"])]
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "ankan", "tiles": hidden}]


# chinton's set: eight of each pinzu and souzu kind, four of their fives red; no 5m
CHINTON = SetCounts(copies=4, suit_copies=8, reds=(0, 4, 4))


def test_an_ankan_of_fives_of_a_set_holding_more_may_hide_reds_and_says_so():
    """Of chinton's eight 5p four are red: two plain faces shown leave the backs' reds unknown. They
    were taken as the 三人花 set's two reds (0055p, red +4 from each payer); now plain, as the
    tablet's own tap makes them, and the players are asked to check."""
    pieces = revealed("west", ["1p", "2p", "3p", "4p", "4p", "4p", "6p", "7p", "8p", "9p"], "9p")
    pieces += [at("west", t, 240 + i * (W + 1), 40) for i, t in enumerate(["back", "5p", "5p", "back"])]
    reading = read_layout(pieces, ZONES, "chinton", ("1m", "9m", "4z"), CHINTON)
    assert reading.record["melds"] == [{"kind": "ankan", "tiles": "5555p"}]
    assert any("may hide red fives (4 0p of 8 5p in the set)" in w for w in reading.warnings)
    assert read_layout(pieces, ZONES, "dunhill").record["melds"] == [{"kind": "ankan", "tiles": "0055p"}]


def test_copies_beyond_four_are_no_misread_where_the_set_holds_eight():
    pieces = revealed("east", ["1p"] * 6 + ["2p", "3p", "4p", "0p", "0p", "0p", "7p"], "7p")
    said = read_layout(pieces, ZONES, "chinton", ("1m", "9m", "4z"), CHINTON).warnings
    assert not [w for w in said if "copies of" in w], said
    said = read_layout(pieces, ZONES, "dunhill").warnings
    assert "6 copies of 1p on the table (a set has 4)" in said and "3 copies of 0p on the table (a set has 2)" in said


def test_two_pons_of_one_kind_are_two_melds_where_the_set_holds_eight():
    """Six 3p in two pons side by side: chinton's set holds eight. Read as one group of six they made
    no meld, and the hand was eight tiles short."""
    pieces = revealed("east", ["1p", "2p", "3p", "4p", "5p", "6p", "7p"], "7p")
    u = 215.0
    for _ in range(2):
        for i in range(3):
            side = i == 1
            w = H if side else W
            pieces.append(at("east", "3p", u + w / 2, 40 - ((H - W) / 2 if side else 0), sideways=side))
            u += w + 1
        u += 12                                        # the gap between melds
    reading = read_layout(pieces, ZONES, "chinton", ("1m", "9m", "4z"), CHINTON)
    assert [(m["kind"], m["tiles"]) for m in reading.record["melds"]] == [("pon", "333p"), ("pon", "333p")]


@pytest.mark.parametrize("off", [1, 2])
def test_a_kan_with_a_box_drawn_off_stays_one_where_the_set_holds_eight(off):
    # the gap a box drawn 8 mm off opens inside a minkan is no gap between two melds
    pieces = revealed("south", ["1p", "2p", "3p", "4p", "4p", "4p", "6p", "7p", "8p", "9p"], "9p")
    u = 240.0
    pieces.append(at("south", "5p", u + H / 2, 40 - (H - W) / 2, sideways=True))
    u += H + 1
    for i, tile in enumerate(["0p", "5p", "5p"]):
        pieces.append(at("south", tile, u + W / 2 + (8.0 if i == off else 0.0), 40))
        u += W + 1
    reading = read_layout(pieces, ZONES, "chinton", ("1m", "9m", "4z"), CHINTON)
    assert reading.record["melds"] == [{"kind": "minkan", "tiles": "0555p", "from": "east"}]


def test_a_pon_beside_a_kan_of_its_kind_is_parted_at_the_felt_between_them():
    pieces = revealed("east", ["1p", "1p", "4p", "5p", "6p", "7p", "8p"], "9p")
    u = 201.0                                           # the meld zone is 220 mm: a pon, 10 mm, a kan
    for n in (3, 4):
        for i in range(n):
            side = i == n - 1                           # called from the right
            w = H if side else W
            pieces.append(at("east", "3p", u + w / 2, 40 - ((H - W) / 2 if side else 0), sideways=side))
            u += w + 1
        u += 10
    reading = read_layout(pieces, ZONES, "chinton", ("1m", "9m", "4z"), CHINTON)
    assert [(m["kind"], m["tiles"]) for m in reading.record["melds"]] == [("pon", "333p"), ("minkan", "3333p")]
    assert not [w for w in reading.warnings if "not 14" in w or "not read" in w], reading.warnings


def test_a_nearly_square_box_is_turned_as_its_face_reads():
    # A sideways tile whose body strip, seen aslant, makes its box as deep as wide: the face's
    # rotation decides. East's row runs along the image x axis: a face at 90/270 lies sideways.
    f = frame("east")
    square = at("east", "4p", 0, 40).box
    x1, y1, x2, y2 = square
    square = (x1, y1, x1 + (y2 - y1), y2)               # as wide as deep
    assert f.sideways(Piece("4p", square, 0.99, 270))
    assert not f.sideways(Piece("4p", square, 0.99, 0))
    # a plainly long box is believed over a rotation (haku shows none to read)
    assert f.sideways(Piece("5z", at("east", "5z", 0, 40, sideways=True).box, 0.99, 0))
    assert not f.sideways(Piece("5z", at("east", "5z", 0, 40).box, 0.99, 90))
    # South's row runs along the image y axis: there a face at 0/180 lies sideways
    s = frame("south")
    x1, y1, x2, y2 = at("south", "4p", 0, 40).box
    side = min(x2 - x1, y2 - y1)
    assert s.sideways(Piece("4p", (x1, y1, x1 + side, y1 + side), 0.99, 180))
    assert not s.sideways(Piece("4p", (x1, y1, x1 + side, y1 + side), 0.99, 90))


# --- runs of one kind: a row's length says how many tiles it holds ----------------------------

RUN_HAND = ["1p", "2p", "3p", "7s", "8s", "9s", "9s", "9s", "9s", "2z", "2z", "3z", "3z"]


def _boxes_over(seat: str, tile: str, u0: float, tiles: int, boxes: int, score: float) -> list[Piece]:
    """``boxes`` boxes of ``tile`` spread evenly over the length ``tiles`` touching tiles take."""
    pitch = (tiles * (W + 1) - W) / max(boxes - 1, 1)
    return [at(seat, tile, u0 + k * pitch, 40.0, score=score - 0.01 * k) for k in range(boxes)]


def test_four_identical_tiles_boxed_five_times_are_read_as_four():
    # the locator splits a run of identical touching tiles (9s 9s 9s 9s) into five narrower boxes
    u0 = -185.0 + 5 * (W + 1)
    pieces = (row("west", RUN_HAND[:5], -185.0, 40.0) + _boxes_over("west", "9s", u0, 4, 5, 0.99)
              + row("west", RUN_HAND[9:], u0 + 4 * (W + 1), 40.0)
              + [at("west", "2z", -185.0 + 13 * (W + 1) + 14.0, 40.0)])
    reading = read_layout(pieces, ZONES, "dunhill")
    assert sorted(tiles_of(reading.record["concealed"])) == sorted(tiles_of("123p789999s22233z"))
    assert any("5 boxes of 9s" in w and "read as 4" in w for w in reading.warnings)
    assert not any("not 14" in w for w in reading.warnings)


def test_one_tile_boxed_twice_is_read_once():
    pieces = revealed("south")
    twice = at("south", "7s", -185.0 + 6 * (W + 1) + 6.0, 40.0, score=0.5)   # a second box over 7s
    reading = read_layout(pieces + [twice], ZONES, "dunhill")
    assert reading.record["concealed"] == "123456p789s555z99p"
    assert any("2 boxes of 7s" in w for w in reading.warnings)


def test_a_run_of_touching_identical_tiles_boxed_right_is_kept_whole():
    tiles = ["5z", "5z", "5z", "5z", "1p", "1p", "1p", "9s", "9s", "9s", "7z", "7z", "7z"]
    reading = read_layout(revealed("east", tiles=tiles, win="9p"), ZONES, "dunhill")
    assert sorted(tiles_of(reading.record["concealed"])) == sorted(tiles_of("1119p999s5555777z"))
    assert not any("boxes of" in w for w in reading.warnings)


# --- melds the locator boxed awkwardly ----------------------------------------------------------

def boxed(seat: str, tile: str, u: float, v: float, along: float, deep: float, score: float = 0.99) -> Piece:
    """A box of ``along`` x ``deep`` mm (along the seat's row x towards the centre) centred at (u, v)."""
    f = frame(seat)
    c = f.origin + (u - HAND_U0) * f.u + (v - HAND_V0) * f.v
    half = np.abs(f.u) * along / 2 + np.abs(f.v) * deep / 2
    return Piece(tile, (c[0] - half[0], c[1] - half[1], c[0] + half[0], c[1] + half[1]), score)


def _kakan_with_pair_box(seat: str, along: float, deep: float) -> list[Piece]:
    """Two upright 7p, then the called 7p and the one added on it in one box (from the right end)."""
    pieces = revealed(seat, HAND[:10], "9p")
    u = 215.0
    for _ in range(2):
        pieces.append(at(seat, "7p", u + W / 2, 40))
        u += W + 1
    near = 40 - (H - W) / 2                                          # the called tile's centre line
    pieces.append(boxed(seat, "7p", u + H / 2, near + (W + 1) / 2, along, deep))
    return pieces


@pytest.mark.parametrize("seat, right", [("east", "south"), ("south", "west")])
def test_a_kakans_stacked_pair_boxed_as_one_is_read_as_two_sideways_tiles(seat, right):
    reading = read_layout(_kakan_with_pair_box(seat, along=H + 7, deep=2 * W + 5), ZONES, "dunhill")
    assert reading.record.get("melds") == [{"kind": "kakan", "tiles": "7777p", "from": right}]
    assert any("stacked pair" in w for w in reading.warnings)


def test_an_upright_tile_boxed_a_little_large_is_not_cut():
    reading = read_layout(_kakan_with_pair_box("south", along=W + 8, deep=H + 9), ZONES, "dunhill")
    assert not any("stacked pair" in w for w in reading.warnings)
    assert "melds" not in reading.record                              # three upright 7p: no meld


def test_melds_of_two_kinds_with_too_small_a_gap_are_read_apart():
    kakan, u = kakan_from_the_right("east", "6z", 215.0)
    pieces = revealed("east", HAND[:7], "9p") + kakan
    u += 3                                             # 3 mm: under the gap that splits melds
    pieces.append(at("east", "8s", u + H / 2, 40 - (H - W) / 2, sideways=True))
    u += H + 1
    for _ in range(2):
        pieces.append(at("east", "8s", u + W / 2, 40))
        u += W + 1
    reading = read_layout(pieces, ZONES, "dunhill")
    assert [(m["kind"], m["tiles"]) for m in reading.record["melds"]] == [("kakan", "6666z"), ("pon", "888s")]


def test_a_meld_tile_boxed_a_little_off_opens_a_gap_but_not_a_second_meld():
    # A minkan of 5s whose third box the locator drew 8 mm along: felt opens inside the meld. Four
    # tiles of a kind is all a set holds, so faces of one kind a gap apart under a tile's width are
    # one meld; of another kind the same gap splits them (the test above).
    pieces = revealed("south", HAND[:10], "9p")
    u = 240.0
    pieces.append(at("south", "5s", u + H / 2, 40 - (H - W) / 2, sideways=True))
    u += H + 1
    for i, tile in enumerate(["0s", "0s", "5s"]):
        shift = 8.0 if i == 1 else 0.0
        pieces.append(at("south", tile, u + W / 2 + shift, 40))
        u += W + 1
    reading = read_layout(pieces, ZONES, "dunhill")
    assert reading.record["melds"] == [{"kind": "minkan", "tiles": "0055s", "from": "east"}]
    far = pieces[:-1] + [at("south", "5s", u + W / 2 + W + 8, 40)]          # a tile's width and more apart
    assert read_layout(far, ZONES, "dunhill").record.get("melds") != [{"kind": "minkan", "tiles": "0055s",
                                                                       "from": "east"}]
