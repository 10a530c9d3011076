"""A hand the reader read one tile off a win is mended before the tablet shows it, and the players are
told which tile (service.mending over scoring.mend); under a session's own house rule, by that rule.
The real app on a real SQLite file, the real vision reader on a rendered table."""

from __future__ import annotations

import numpy as np
from fastapi.testclient import TestClient

from calibration.markers import default_layout
from calibration.store import TableFile
from scoring.engine import is_a_win
from scoring.tiles import parse_mpsz, tile_name
from service import table
from service.app import create_app
from service.mending import mended
from service.reader import ReadContext
from service.settings import Settings
from service.vision_reader import VisionReader
from table_fixtures import PIN, PLAYERS, house_rule, write_rule
from vision.layout import Piece

# 234p 678p 234s 678s 99s won on 3p, the 4p read as 9p: the classifier's next choice for it was 4p
READ = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "239678p234678s99s",
        "win_tile": "3p", "gari": "1m"}


def pieces(concealed: str, win_tile: str, doubted: dict[str, tuple]) -> list[Piece]:
    """The hand's pieces, the winning tile last; ``doubted[tile]``: the other faces of that tile's piece."""
    tiles = [tile_name(c) for c in parse_mpsz(concealed)]
    tiles.remove(win_tile)
    return [Piece(t, (0, 0, 1, 1), 0.9, 0, doubted.get(t, ())) for t in tiles + [win_tile]]


def test_a_hand_one_tile_off_a_win_is_mended_and_the_players_told():
    record, said = mended(READ, pieces(READ["concealed"], "3p", {"9p": (("4p", 0.3),)}))
    assert sorted(parse_mpsz(record["concealed"])) == sorted(parse_mpsz("234678p234678s99s"))
    assert is_a_win(record)
    assert said == ("read 9p, counted as 4p: as read the tiles make no winning hand, and 4p was the "
                    "reader's next choice for that tile (30%)",)


def test_a_misread_no_offered_face_mends_is_pointed_at_and_left_as_read(monkeypatch):
    """The 9p offered nothing: the tiles stay as read, and the players are told which tiles, read
    otherwise, would make a win; more such tiles than ``HINTS`` tell them nothing."""
    from service import mending

    hand = pieces(READ["concealed"], "3p", {})
    record, said = mended(READ, hand)
    assert record == READ
    assert said == ("as read the tiles make no winning hand; one tile read otherwise would make one: "
                    "a 9p as 1p or 4p, or a 6p as 1p or 4p (check it)",)     # 123p or 234p, and 789p
    monkeypatch.setattr(mending, "HINTS", 1)
    assert mended(READ, hand) == (READ, ())


def test_a_hand_that_wins_and_no_hand_at_all_pass_as_they_are():
    won = dict(READ, concealed="234678p234678s99s")
    assert mended(won, pieces(won["concealed"], "3p", {"4p": (("9p", 0.3),)})) == (won, ())
    assert mended(None, []) == (None, ())


def test_a_session_s_context_carries_its_stored_house_rule(settings):
    write_rule(settings.house_rules_dir, "ours", house_rule())
    with TestClient(create_app(settings), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "ours", "players": PLAYERS}).json()["id"]
        context = table.context_of(client.app.state.ledger, sid)
    assert context.rules == "ours" and context.preset.id == "ours"
    ours = dict(READ, rules="ours")
    hand = pieces(ours["concealed"], "3p", {"9p": (("4p", 0.3),)})
    # the built-in presets know no rule "ours": only the session's stored rule says what a win is
    assert mended(ours, hand) == (ours, ())
    record, said = mended(ours, hand, context.preset)
    assert is_a_win(record, context.preset) and said


def test_the_vision_reader_leaves_a_hand_read_right_as_it_is(art):
    # a winning hand on a rendered table, read by the real reader: no tile to change, nothing said
    from vision.synth.table import deal, render_deal
    hand = "2p 3p 4p 6p 7p 8p 2s 3s 4s 6s 7s 8s 9s 9s".split()
    rng = np.random.default_rng(5)
    scene = render_deal(deal(rng, hand), rng, art, default_layout())
    reading = VisionReader(TableFile("synthetic")).read(scene.image, ReadContext("dunhill"))
    assert reading.record is not None and is_a_win(reading.record)
    assert not any("counted as" in w for w in reading.warnings), reading.warnings


def test_a_hand_shown_without_its_winning_tile_is_completed_when_it_waits_on_one_tile():
    # 24p 678p 234678s 99s waits on 3p alone: that is the winning tile
    shown = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "24678p234678s99s", "win_tile": ""}
    record, said = mended(shown, [Piece(t, (0, 0, 1, 1)) for t in "2p 4p 6p 7p 8p 2s 3s 4s 6s 7s 8s 9s 9s".split()])
    assert record["win_tile"] == "3p" and is_a_win(record)
    assert said == ("the winning tile is not shown: the hand waits on 3p alone, so it is taken as the winning tile",)


def test_a_hand_shown_without_its_winning_tile_that_waits_on_several_is_left_to_the_players():
    shown = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "23678p234678s99s", "win_tile": ""}
    record, said = mended(shown, [Piece(t, (0, 0, 1, 1)) for t in "2p 3p 6p 7p 8p 2s 3s 4s 6s 7s 8s 9s 9s".split()])
    assert record == shown and said == ("the hand waits on 1p 4p: pick the winning tile",)


def test_a_gari_read_off_the_rule_is_mended_first_so_the_hand_can_be_mended_too():
    # a 9p in dunhill's gari is no gari: as read the record is refused, so no hand of it is a win
    read = dict(READ, gari="9p")
    hand = pieces(read["concealed"], "3p", {"9p": (("4p", 0.3),)})
    gari = [Piece("9p", (0, 0, 1, 1), 0.8, 0, (("9m", 0.25),))]
    assert mended(read, hand) == (read, ())
    record, said = mended(read, hand, gari=gari)
    assert record["gari"] == "9m" and is_a_win(record)
    assert sorted(parse_mpsz(record["concealed"])) == sorted(parse_mpsz("234678p234678s99s"))
    assert said[0].startswith("read 9p in the gari, counted as 9m") and said[1].startswith("read 9p, counted as 4p")


def test_with_mending_off_every_tile_stays_as_read_for_the_players_to_fix():
    read = dict(READ, gari="9p")
    hand = pieces(read["concealed"], "3p", {"9p": (("4p", 0.3),)})
    gari = [Piece("9p", (0, 0, 1, 1), 0.8, 0, (("9m", 0.25),))]
    assert mended(read, hand, gari=gari, mend_tiles=False) == (read, ())
    # finding the winning tile a photo does not show changes no tile read: it stays on
    shown = {"rules": "dunhill", "seat": "east", "win": "tsumo", "concealed": "24678p234678s99s", "win_tile": ""}
    record, _ = mended(shown, [Piece(t, (0, 0, 1, 1)) for t in "2p 4p 6p 7p 8p 2s 3s 4s 6s 7s 8s 9s 9s".split()],
                       mend_tiles=False)
    assert record["win_tile"] == "3p"


def test_the_table_s_setting_turns_the_mend_off_for_the_camera_and_the_seat_photo(settings, monkeypatch):
    monkeypatch.setenv("TABLE_MEND_READS", "false")
    off = Settings(_env_file=None, **settings.model_dump(exclude={"mend_reads"}))
    assert off.mend_reads is False and settings.mend_reads is True
    for s, expected in ((settings, True), (off, False)):
        with TestClient(create_app(s), headers={"X-Table-PIN": PIN}) as client:
            state = client.app.state
            assert isinstance(state.reader, VisionReader)
            assert (state.reader.mend, state.hand_photos.mend) == (expected, expected)


def test_the_reader_is_told_what_the_rule_s_set_holds():
    """The layout stage takes its copies, red fives and gari from the session's rule: chinton's set holds
    eight of each pinzu and souzu kind and four red of each of their fives, and no 5m; the 三人花 rules
    four of each kind, two red of each five."""
    from scoring import load_preset
    from service.mending import set_of
    from vision.layout import SANMA, SetCounts

    assert set_of("chinton") == (SetCounts(copies=4, suit_copies=8, reds=(0, 4, 4)), ("1m", "4z", "9m"))
    assert set_of("isshokai")[0] == SANMA and set_of("dunhill")[1] == ("1m", "4z", "5m", "9m")
    assert set_of("a-rule-no-one-wrote") == (SANMA, ())
    # a session's stored rule is read as stored, whatever its name
    assert set_of("ours", load_preset("chinton"))[0].suit_copies == 8
