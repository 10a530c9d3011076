"""The labelling rule: which kind each read tile of a confirmed count is learnt as (service/learning.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np

from service.learning import confirmed_cuts, confirmed_labels, face_up_tiles, labels
from service.reader import Cut
from service.settings import DEMO_FRAMES, Settings
from service.recent import Recent
from service.table_tiles import tileset_folder

HAND = ["1p", "2p", "3p", "0s", "5s", "6s", "7z", "7z", "7z"]


def test_a_read_that_was_confirmed_as_it_was_is_learnt_tile_for_tile():
    read = ["7z", "1p", "0s", "2p", "7z", "3p", "5s", "6s", "7z"]
    assert labels(read, HAND) == read


def test_one_fix_labels_the_one_tile_the_players_changed():
    read = ["1p", "2p", "3p", "0s", "5s", "6s", "7z", "7z", "6z"]      # the last 7z read as 6z
    assert labels(read, HAND) == HAND


def test_two_fixes_leave_both_tiles_unlabelled():
    read = ["1p", "2p", "4p", "0s", "5s", "6s", "7z", "7z", "6z"]      # 3p read 4p, a 7z read 6z
    assert labels(read, HAND) == ["1p", "2p", None, "0s", "5s", "6s", "7z", "7z", None]


def test_a_red_five_is_its_own_kind():
    confirmed = ["0p", "5p", "5p"]
    assert labels(["5p", "5p", "0p"], confirmed) == ["5p", "5p", "0p"]
    # the red five read plain: which of the three fives is red only the players' tap says
    assert labels(["5p", "5p", "5p"], confirmed) == [None, None, None]
    assert labels(["5p", "5p", "5p"], confirmed, fixed={1}) == ["5p", "0p", "5p"]
    # a plain five read red, with another tile also wrong: no five read red is learnt
    assert labels(["0p", "0p", "5p"], ["0p", "5p", "5p", "1s"]) == [None, None, "5p"]


def test_a_fix_to_a_kind_the_hand_also_holds_teaches_only_the_tile_the_players_tapped():
    """A 4s read as 8s in a hand of 2222 3 4444 888s 66z: matched in reading order, the misread 4s was
    learnt as an 8s and the last true 8s as the 4s, and the next count read every 8s as 4s."""
    hand = ["2s"] * 4 + ["3s"] + ["4s"] * 4 + ["8s"] * 3 + ["6z"] * 2
    read = ["2s"] * 4 + ["3s"] + ["8s"] + ["4s"] * 3 + ["8s"] * 3 + ["6z"] * 2
    assert labels(read, hand) == [k if k != "8s" else None for k in read]          # no 8s cut is sure
    tapped = labels(read, hand, fixed={5})
    assert tapped == hand[:5] + ["4s"] + ["4s"] * 3 + ["8s"] * 3 + ["6z"] * 2
    # a fix to a kind the hand holds none of was never in doubt, tapped or not
    assert labels(["1p", "9m"], ["1p", "1m"]) == labels(["1p", "9m"], ["1p", "1m"], fixed={1}) == ["1p", "1m"]


def test_a_misread_tile_taken_in_by_a_closed_kans_face_down_places_teaches_nothing():
    """A 4s read as 8s beside an 8s ankan, fixed by typing: the ankan's four (two face down) took the
    misread cut in, none was left over, and the 4s was learnt as an 8s."""
    shown, maybe = ["1m", "2m", "3m", "4s"], ["8s"] * 4
    read = ["1m", "2m", "3m", "8s", "8s", "8s"]                # the hand's 8s is the 4s
    assert labels(read, shown, maybe) == ["1m", "2m", "3m", None, None, None]
    assert labels(read, shown, maybe, fixed={3}) == ["1m", "2m", "3m", "4s", "8s", "8s"]     # tapped: known


def test_the_boxes_the_players_tapped_name_their_cuts():
    record = {"seat": "east", "concealed": "0p5p", "dora_indicators": "5p"}
    cuts = [Cut("5p", np.zeros((64, 48, 3), np.uint8), "hand", "east", box=3),
            Cut("5p", np.ones((64, 48, 3), np.uint8), "hand", "east", box=4),
            Cut("5p", np.zeros((64, 48, 3), np.uint8), "dead_wall", None, box=9)]
    assert [kind for kind, _ in confirmed_cuts(cuts, [record])] == ["5p"]             # the indicator alone
    taught = confirmed_cuts(cuts, [record], fixed_boxes={4})
    assert [(kind, int(image.max())) for kind, image in taught] == [("5p", 0), ("0p", 1), ("5p", 0)]


def test_a_tile_the_players_removed_or_added_is_not_learnt():
    assert labels(HAND + ["9s"], HAND) == HAND + [None]                # read a tile too many
    assert labels(HAND[:-1], HAND) == HAND[:-1]                        # read a tile too few
    assert labels([], HAND) == []


def test_face_up_tiles_of_a_record():
    record = {"concealed": "123p0s56s777z", "win_tile": "6s", "gari": "1m4z", "dora_indicators": "5s",
              "ura_indicators": "9p", "discards": "19m",
              "melds": [{"kind": "pon", "tiles": "222z", "from": "west"}, {"kind": "ankan", "tiles": "0055p"}]}
    shown, maybe = face_up_tiles([record])
    # the winning tile is in concealed, counted once; discards are not confirmed by the tablet
    assert Counter(shown) == Counter(["1p", "2p", "3p", "0s", "5s", "6s", "7z", "7z", "7z", "1m", "4z", "5s", "9p",
                                      "2z", "2z", "2z"])
    assert sorted(maybe) == ["0p", "0p", "5p", "5p"]


def test_an_ankan_shows_two_of_its_tiles_and_does_not_stand_in_the_way_of_a_fix():
    record = {"concealed": "11p", "melds": [{"kind": "ankan", "tiles": "0055p"}]}
    shown, maybe = face_up_tiles([record])
    # the two faces of the kan read, one hand tile misread: the ankan's hidden two are no fix
    assert labels(["5p", "0p", "1p", "2p"], shown, maybe) == ["5p", "0p", "1p", "1p"]


def test_a_double_rons_dead_wall_counts_once():
    first = {"concealed": "11p", "dora_indicators": "3s"}
    second = {"concealed": "22p", "dora_indicators": "3s"}
    shown, _ = face_up_tiles([first, second])
    assert Counter(shown) == Counter(["1p", "1p", "2p", "2p", "3s"])


def test_a_double_ron_whose_second_record_lacks_the_indicators_still_shows_them():
    """The second winner's record held no dora indicator (the tablet's second draft began without
    them): the dead wall's face-up indicator was learnt from nothing, the last record's being taken."""
    first = {"concealed": "11p", "dora_indicators": "3s"}
    shown, _ = face_up_tiles([first, {"concealed": "22p"}])
    assert Counter(shown) == Counter(["1p", "1p", "2p", "2p", "3s"])


def test_a_cut_outside_the_confirmed_zones_is_not_learnt():
    cuts = [("1p", "hand"), ("9s", "discards"), ("2p", "")]
    assert confirmed_labels(cuts, [{"concealed": "12p"}]) == ["1p", None, None]


def _cut(tile: str, zone: str, seat: str | None) -> Cut:
    return Cut(tile, np.full((64, 48, 3), len(tile), np.uint8), zone, seat)


def test_only_the_winners_own_zones_teach_the_set():
    # grey backs in another seat's hand read as 白 (one of them took the seat); the hand as confirmed
    # holds a 白, but no cut of the south seat is the winner's tile
    record = {"seat": "east", "concealed": "15z", "dora_indicators": "3s"}
    cuts = [_cut("1z", "hand", "east"), _cut("5z", "hand", "east"), _cut("5z", "hand", "south"),
            _cut("5z", "melds", "south"), _cut("3s", "dead_wall", None)]
    assert [kind for kind, _ in confirmed_cuts(cuts, [record])] == ["1z", "5z", "3s"]
    # the reader took the south row for the winner's: the count, confirmed at east, teaches only the indicator
    read_south = [_cut("5z", "hand", "south")] * 13 + [_cut("3s", "dead_wall", None)]
    assert [kind for kind, _ in confirmed_cuts(read_south, [record])] == ["3s"]


def test_a_double_ron_teaches_from_both_winners_and_a_cut_of_no_known_seat_as_before():
    records = [{"seat": "east", "concealed": "1p"}, {"seat": "west", "concealed": "2p"}]
    cuts = [_cut("1p", "hand", "east"), _cut("2p", "hand", "west"), _cut("2p", "hand", "south"),
            _cut("1p", "hand", None)]
    assert [kind for kind, _ in confirmed_cuts(cuts, records)] == ["1p", "2p"]
    assert [kind for kind, _ in confirmed_cuts(cuts[2:], records)] == ["1p"]


def test_a_dead_wall_tile_that_is_none_of_the_confirmed_tiles_is_a_back():
    # lilac backs read as 白 beside the indicator; the players took the 白s off the indicators
    record = {"concealed": "11p", "dora_indicators": "3s"}
    cuts = [("1p", "hand"), ("1p", "hand"), ("5z", "dead_wall"), ("3s", "dead_wall"), ("5z", "dead_wall")]
    assert confirmed_labels(cuts, [record]) == ["1p", "1p", "back", "3s", "back"]


def test_a_dead_wall_back_is_learnt_only_when_every_confirmed_tile_was_read():
    record = {"concealed": "11p", "dora_indicators": "3s4s"}
    # the 4s indicator was not read at all: the dead wall's 白 may be it, misread, so nothing is guessed
    cuts = [("1p", "hand"), ("1p", "hand"), ("5z", "dead_wall"), ("3s", "dead_wall")]
    assert confirmed_labels(cuts, [record]) == ["1p", "1p", "4s", "3s"]             # one fix: that one tile
    cuts.append(("5z", "dead_wall"))
    assert confirmed_labels(cuts, [record]) == ["1p", "1p", None, "3s", None]        # two unknowns: neither


def test_a_fix_in_the_hand_names_the_hands_cut_though_the_indicator_shows_the_kind_it_was_read_as():
    # the hand's 3s read as 5s, the dora indicator a 5s read right: the fix is the hand's, not the indicator's
    record = {"concealed": "123s", "dora_indicators": "5s"}
    cuts = [("1s", "hand"), ("2s", "hand"), ("5s", "hand"), ("5s", "dead_wall"), ("back", "dead_wall")]
    assert confirmed_labels(cuts, [record]) == ["1s", "2s", "3s", "5s", "back"]


def test_a_cut_read_as_a_back_is_a_back_only_where_the_count_lays_one():
    # the dead wall's backs once its indicator was read; a closed kan's in the melds; never in the gari
    record = {"concealed": "123s", "dora_indicators": "5s", "melds": [{"kind": "ankan", "tiles": "7777z"}]}
    cuts = [("1s", "hand"), ("2s", "hand"), ("3s", "hand"), ("back", "melds"), ("7z", "melds"),
            ("back", "gari"), ("5s", "dead_wall"), ("back", "dead_wall")]
    assert confirmed_labels(cuts, [record]) == ["1s", "2s", "3s", "back", "7z", None, "5s", "back"]
    # no closed kan: a back in the melds is no tile the count lays; the indicator not read: the wall unsure
    assert confirmed_labels(cuts[:4] + [("back", "dead_wall")],
                            [{**record, "melds": []}]) == ["1s", "2s", "3s", None, None]


def test_an_unmatched_tile_in_the_hand_is_never_called_a_back():
    record = {"concealed": "11p"}
    assert confirmed_labels([("1p", "hand"), ("1p", "hand"), ("5z", "hand")], [record]) == ["1p", "1p", None]


def test_where_the_tables_set_lives(tmp_path, monkeypatch):
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path / "tables"))
    base = dict(_env_file=None, data_dir=tmp_path / "data")
    assert tileset_folder(Settings(**base, calibration="t1")) == tmp_path / "tables" / "t1.tileset"
    assert tileset_folder(Settings(**base, camera=str(DEMO_FRAMES))) == tmp_path / "data" / "demo.tileset"
    assert tileset_folder(Settings(**base, camera="0")) is None
    assert tileset_folder(Settings(**base, calibration="../x")) is None       # no table file can be named so


def test_recent_keeps_the_last_ones():
    recent: Recent[str, int] = Recent(2)
    for i, key in enumerate("abc"):
        recent.put(key, i)
    assert recent.get("a") is None and recent.get("b") == 1
    assert recent.pop("c") == 2 and recent.pop("c") is None


def test_learning_is_on_by_default_and_the_setting_says_what_it_does(monkeypatch):
    assert Settings(_env_file=None).learn_tiles is True
    monkeypatch.setenv("TABLE_LEARN_TILES", "false")
    assert Settings(_env_file=None).learn_tiles is False
    assert "tile set" in Settings.model_fields["learn_tiles"].description
