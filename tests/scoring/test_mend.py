"""A hand read one tile off a win is mended by the reader's next choice for that tile.

The winner reveals a winning hand. Where the tiles as read make none, the one change of one tile to a
face the reader gave it (``FLOOR`` or more) that makes a win is made; of several, the likeliest, and
only when it is ``MARGIN`` times as likely as the next. A hand that wins is never touched.
"""

import pytest

from rulebook import pon, record
from scoring import ScoringError, load_preset, score
from scoring.engine import is_a_win
from scoring.mend import (FLOOR, MARGIN, Doubt, a_winners_hand, changes_that_win, is_waiting, mend, mend_gari,
                          waits, winning_tile)
from scoring.tiles import parse_mpsz, tile_name


def doubts(concealed: str, win_tile: str = "", **others) -> list[Doubt]:
    """The record's tiles as a reader gives them, the winning tile last; ``others``: for the tile at
    place ``t<i>`` (in written order), its other faces, e.g. ``t3=(("4p", 0.2),)``."""
    placed = [(i, tile_name(c)) for i, c in enumerate(parse_mpsz(concealed))]
    if win_tile:
        last = max(k for k, (_, t) in enumerate(placed) if t == win_tile)
        placed.append(placed.pop(last))
    return [Doubt(t, others.get(f"t{i}", ())) for i, t in placed]


# 234p 678p 234s 678s 99s, won on 3p; read with the 4p of 234p as 9p
WON = record("dunhill", "234678p234678s99s", "3p", gari="1m", riichi=True)
MISREAD = dict(WON, concealed="239678p234678s99s")


def test_a_hand_that_wins_is_left_as_read():
    assert mend(WON, doubts(WON["concealed"], "3p", t2=(("1p", 0.4),))) is None


def test_one_misread_tile_is_counted_as_the_readers_next_choice():
    done = mend(MISREAD, doubts(MISREAD["concealed"], "3p", t2=(("4p", 0.2), ("7p", 0.1))))
    assert done is not None
    assert sorted(parse_mpsz(done.record["concealed"])) == sorted(parse_mpsz(WON["concealed"]))
    assert (done.read, done.tile, done.likelihood) == ("9p", "4p", 0.2)
    assert "read 9p, counted as 4p" in done.says()
    assert is_a_win(done.record)


def test_the_rest_of_the_record_is_kept():
    done = mend(MISREAD, doubts(MISREAD["concealed"], "3p", t2=(("4p", 0.2),)))
    assert {k: v for k, v in done.record.items() if k != "concealed"} == \
        {k: v for k, v in MISREAD.items() if k != "concealed"}


def test_a_face_the_reader_gave_too_little_is_not_tried():
    low = FLOOR / 2
    assert mend(MISREAD, doubts(MISREAD["concealed"], "3p", t2=(("4p", low),))) is None


def test_a_face_that_makes_no_win_is_not_taken():
    # 7p for the 9p makes 237p: no set
    assert mend(MISREAD, doubts(MISREAD["concealed"], "3p", t2=(("7p", 0.6),))) is None


# 134p 678p 234678s 99s makes no win; the 1p as 2p (234p) or the 4p as 2p (123p) each make one
TWO_WAYS = record("dunhill", "134678p234678s99s", "9s", gari="1m", riichi=True)


def test_two_ways_to_a_win():
    for concealed in ("234678p234678s99s", "123678p234678s99s"):
        assert is_a_win(dict(TWO_WAYS, concealed=concealed))
    assert not is_a_win(TWO_WAYS)


def test_of_two_changes_that_win_the_likeliest_is_taken_when_clearly_ahead():
    ds = doubts(TWO_WAYS["concealed"], "9s", t0=(("2p", 0.3),), t2=(("2p", 0.3 / MARGIN / 2),))
    done = mend(TWO_WAYS, ds)
    assert done is not None and (done.read, done.tile) == ("1p", "2p")


def test_changes_alike_in_likelihood_leave_the_hand_to_the_players():
    ds = doubts(TWO_WAYS["concealed"], "9s", t0=(("2p", 0.3),), t2=(("2p", 0.3 / MARGIN * 1.1),))
    assert mend(TWO_WAYS, ds) is None


def test_the_winning_tile_misread_moves_the_winning_tile():
    read = dict(WON, concealed="24678p234678s99s1p", win_tile="1p")         # the winning 3p read as 1p
    done = mend(read, doubts(read["concealed"], "1p", t13=(("3p", 0.1),)))
    assert done is not None and done.record["win_tile"] == "3p"
    assert is_a_win(done.record)


def test_thirteen_tiles_must_wait_on_a_tile():
    # the winning tile not shown: 24p 678p 234678s 99s waits on 3p; read with the 8p as 9p it waits on nothing
    waiting = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "24678p234678s99s", "win_tile": ""}
    assert is_waiting(waiting)
    read = dict(waiting, concealed="24679p234678s99s")
    assert not is_waiting(read)
    done = mend(read, doubts(read["concealed"], t4=(("8p", 0.2),)))
    assert done is not None and done.record["win_tile"] == "" and is_waiting(done.record)


def test_a_hand_of_another_size_is_not_mended():
    short = dict(MISREAD, concealed="39678p234678s99s")            # 13 tiles with a winning tile: a tile missed
    assert mend(short, doubts(short["concealed"], "3p", t1=(("4p", 0.5),))) is None


def test_doubts_that_are_not_the_records_tiles_are_ignored():
    # the players changed the hand since it was read: the reader's doubts no longer describe it
    assert mend(MISREAD, doubts(WON["concealed"], "3p", t2=(("4p", 0.5),))) is None


def test_melds_count_three_tiles():
    hand = record("dunhill", "234678p234s99s", "3p", gari="1m", melds=[pon("777z")])
    assert is_a_win(hand)
    read = dict(hand, concealed="239678p234s99s")
    done = mend(read, doubts(read["concealed"], "3p", t2=(("4p", 0.2),)))
    assert done is not None and done.record["melds"] == hand["melds"]


def test_kokushi_is_a_win_where_the_rule_counts_it():
    # balance lets North stand in the hand; the 3z read as 4z (4z twice, no 3z) is mended
    read = record("balance", "19m19p19s12444567z", "4z")
    assert not is_a_win(read)
    done = mend(read, doubts(read["concealed"], "4z", t10=(("3z", 0.1),)))
    assert done is not None and done.record["win_tile"] == "3z" and is_a_win(done.record)


def test_what_a_win_is_follows_the_rule_given():
    # dunhill sets North aside as gari: the same kokushi is no win there, mended or not
    read = record("dunhill", "19m19p19s12444567z", "4z")
    assert mend(read, doubts(read["concealed"], "4z", t10=(("3z", 0.1),))) is None
    balance = load_preset("balance")
    done = mend(read, doubts(read["concealed"], "4z", t10=(("3z", 0.1),)), preset=balance)
    assert done is not None and is_a_win(done.record, balance)


def test_a_record_the_rule_refuses_is_no_win():
    assert not is_a_win(record("dunhill", "234p234678s99s222m", "3p", gari="1m"))     # 2m: not in the wall
    assert not is_a_win({"rules": "nosuch"})


def test_a_hand_shown_without_its_winning_tile_waits_on_the_tiles_that_complete_it():
    two_sided = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "23678p234678s99s", "win_tile": ""}
    assert waits(two_sided) == ["1p", "4p"]
    record, on = winning_tile(two_sided)
    assert on == ("1p", "4p") and record == two_sided            # two waits: the players pick


def test_a_hand_that_waits_on_one_tile_alone_won_on_it():
    closed_wait = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "24678p234678s99s", "win_tile": ""}
    record, on = winning_tile(closed_wait)
    assert on == ("3p",) and record["win_tile"] == "3p" and is_a_win(record)
    assert sorted(parse_mpsz(record["concealed"])) == sorted(parse_mpsz("234678p234678s99s"))


def test_a_hand_holding_the_wall_s_plain_fives_waits_on_the_red_one():
    """Two plain 5p in the hand: the 5p it waits on is red (the wall holds two plain). Before, only plain
    kinds were tried, and a third plain 5p is no hand of the wall: 34p 55p waited on 2p alone, taken as
    the winning tile (18 where 0p counts 30), and 46p 55p waited on nothing (a winner's hand refused)."""
    two_ways = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "123s456s789s55p34p", "gari": "1m"}
    assert waits(two_ways) == ["2p", "0p"] and winning_tile(two_ways)[1] == ("2p", "0p")
    closed = {**two_ways, "concealed": "123p456s789s55p46p"}
    assert waits(closed) == ["0p"] and a_winners_hand(closed)
    record, on = winning_tile(closed)
    assert on == ("0p",) and score(record).total > 0


def test_a_red_five_read_as_plain_is_pointed_at():
    """Three plain 5p read, one of them red at the table: the change that makes it a hand is pointed at."""
    read = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "555p123456789s11z", "win_tile": "1z",
            "gari": "1m"}
    read_as = [Doubt(tile_name(t), ()) for t in parse_mpsz(read["concealed"])]      # the winning 1z last
    assert ("5p", "0p") in changes_that_win(read, read_as)


def test_a_hand_with_its_winning_tile_or_of_another_size_has_no_waits_asked():
    assert winning_tile(WON) == (WON, ())
    short = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "4678p234678s99s", "win_tile": ""}
    assert winning_tile(short) == (short, ())



def test_a_winner_reveals_fourteen_tiles_that_win_or_thirteen_that_wait():
    """What a photo of a winner's hand must show: 14 tiles with the winning tile that make a win, or
    13 without it that wait on a tile; a tile more, a tile fewer, or tiles that make nothing, no."""
    assert a_winners_hand(WON)
    assert not a_winners_hand(MISREAD)
    waiting = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "24678p234678s99s", "win_tile": ""}
    assert a_winners_hand(waiting)
    assert not a_winners_hand(dict(waiting, concealed="24679p234678s99s"))          # waits on nothing
    assert not a_winners_hand(dict(WON, concealed="39678p234678s99s"))               # a tile missed
    assert not a_winners_hand(dict(waiting, concealed="4678p234678s99s"))            # 12 tiles
    assert not a_winners_hand(dict(WON, concealed="not tiles"))



def test_a_misread_no_offered_face_mends_is_pointed_at_not_changed():
    """239p 678p 234s 678s 99s won on 3p, its 9p offered nothing else: no mend. Read as 4p or as 1p
    that 9p would make a win (234p, 123p): both changes are named, and each does make one."""
    read = doubts(MISREAD["concealed"], "3p")
    assert mend(MISREAD, read) is None
    hints = changes_that_win(MISREAD, read)
    assert {("9p", "4p"), ("9p", "1p")} <= set(hints)
    for was, tile in hints:
        tiles = [tile_name(c) for c in parse_mpsz(MISREAD["concealed"])]
        tiles.remove(was)
        changed = dict(MISREAD, concealed="".join(t[0] + t[1] for t in tiles + [tile]))
        if was == MISREAD["win_tile"]:
            changed["win_tile"] = tile
        assert is_a_win(changed), (was, tile)


def test_nothing_is_pointed_at_in_a_hand_that_wins_or_shows_no_winning_tile():
    assert changes_that_win(WON, doubts(WON["concealed"], "3p")) == ()
    waiting = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "24679p234678s99s", "win_tile": ""}
    assert changes_that_win(waiting, doubts(waiting["concealed"])) == ()


# ---- the gari -------------------------------------------------------------------------------------------

def test_a_gari_read_as_a_kind_that_is_no_gari_is_counted_as_the_gari_kind_offered():
    # dunhill's gari are 1m 5m 9m and North: a 9p in the gari pile is a misread 9m
    read = {**WON, "gari": "9p4z"}
    record, done = mend_gari(read, [Doubt("9p", (("9m", 0.2), ("8p", 0.1))), Doubt("4z")])
    assert record["gari"] == "9m4z" and score(record).total > 0
    assert done[0].says() == ("read 9p in the gari, counted as 9m: 9p is no gari under this rule, and 9m was "
                              "the reader's next choice for that tile (20%)")


def test_gari_kinds_are_the_rules():
    # North is gari under dunhill, an ordinary honour under balance: a 3z read there is left as read
    read = {**WON, "gari": "3z"}
    assert mend_gari(read, [Doubt("3z", (("4z", 0.5),))])[0]["gari"] == "4z"
    balance = {**read, "rules": "balance"}
    assert mend_gari(balance, [Doubt("3z", (("4z", 0.5),))]) == (balance, ())
    assert mend_gari(read, [Doubt("3z", (("4z", 0.5),))], preset=load_preset("balance")) == (read, ())


def test_a_red_five_is_a_five_as_gari():
    read = {**WON, "gari": "5p"}
    assert mend_gari(read, [Doubt("5p", (("0m", 0.4),))])[0]["gari"] == "0m"


def test_a_gari_already_a_gari_kind_is_left_and_two_kinds_alike_leave_it_to_the_players():
    assert mend_gari({**WON, "gari": "9m"}, [Doubt("9m", (("1m", 0.4),))]) == ({**WON, "gari": "9m"}, ())
    alike = {**WON, "gari": "9p"}
    assert mend_gari(alike, [Doubt("9p", (("9m", 0.2), ("1m", 0.15)))]) == (alike, ())
    assert mend_gari(alike, [Doubt("9p", (("9m", 0.2), ("1m", 0.05)))])[0]["gari"] == "9m"     # 4x: clearly ahead
    assert mend_gari(alike, [Doubt("9p", (("9m", FLOOR / 2),))]) == (alike, ())


def test_gari_doubts_that_are_not_the_records_gari_change_nothing():
    read = {**WON, "gari": "9p"}
    assert mend_gari(read, [Doubt("8p", (("9m", 0.5),))]) == (read, ())
    assert mend_gari(WON, []) == (WON, ())


def test_a_discard_no_wall_holds_undoes_no_win_nor_its_mending():
    """The discards are no part of the hand's tiles: a 4s read among them beside the hand's four
    made is_a_win say no, so the reader's mending and its choice of the winning tile went without."""
    hand = {"rules": "dunhill", "seat": "south", "win": "tsumo", "concealed": "222234444888s66z",
            "win_tile": "4s", "dora_indicators": "5s", "discards": "4s9m"}
    assert is_a_win(hand)
    with pytest.raises(ScoringError, match="discards: 1 4s discarded and 4 in the hand"):
        score(hand)
