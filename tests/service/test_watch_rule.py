"""The watcher's rule, vote and overlay, without images: looks and readings made by hand."""

from __future__ import annotations

import pytest

from service.editing import Draft
from service.overlay import pick_of, turn_for, views
from service.reader import Detection, Reading
from service.watch.look import Look
from service.watch.rule import HELD, OFF, OFFERED, READING, WATCHING, Thresholds, Trigger, hand_size
from service.watch.vote import voted

WIN = {"seat": "east", "concealed": "123456789p11z222z", "win_tile": "2z"}       # 14 tiles
SHOW = {"seat": "east", "concealed": "123456789p11z22z", "win_tile": "2z"}       # 13: a tenpai display


def look(t: float, motion: float = 0.0, **shown: float) -> Look:
    return Look(t, motion, {"east": 0.0, "south": 0.0, "west": 0.0, **shown})


def settle(trigger: Trigger, record, t0: float = 0.0, seat: str = "east", n: int = 8) -> tuple[bool, float]:
    """A row laid down in ``seat`` and still from t0: each asked-for frame read as ``record``;
    whether the rule offered it, and the time it got to."""
    t = t0
    trigger.see(look(t, 0.05, **{seat: 11.0}))             # the arm leaves
    for k in range(1, n + 1):
        t = t0 + k * 0.125
        if trigger.see(look(t, **{seat: 11.0})):
            trigger.add(record)
        if trigger.ready(t):
            return trigger.decide(record, t), t
    return False, t


def test_a_whole_hand_still_for_settle_s_is_offered_after_three_reads():
    tr = Trigger()
    assert not tr.see(look(0.0, 0.05, east=11.0))           # moving: nothing read
    asked = [tr.see(look(k * 0.125, east=11.0)) for k in range(1, 4)]
    assert asked == [True, True, True] and tr.state == READING
    for _ in asked:
        tr.add(WIN)
    assert not tr.ready(0.375)                                # still 0.375 s < settle_s 0.6
    assert not tr.see(look(0.625, east=11.0)) and tr.ready(0.625)
    assert tr.decide(WIN, 0.625) and tr.state == OFFERED


def test_motion_while_reading_throws_the_readings_away():
    tr = Trigger()
    tr.see(look(0.0, 0.05, east=11.0))
    tr.see(look(0.125, east=11.0))
    tr.add(WIN)
    tr.see(look(0.25, 0.01, east=11.0))                       # a hand comes back over the row
    assert tr.readings == [] and tr.state == WATCHING


def test_several_hands_shown_is_a_draw_and_nothing_is_read():
    tr = Trigger()
    for k in range(12):
        assert not tr.see(look(k * 0.125, east=13.0, south=12.0))
    assert "several hands" in tr.message


def test_thirteen_tiles_are_held_as_a_tenpai_display_until_the_table_moves():
    tr = Trigger()
    offered, t = settle(tr, SHOW)
    assert not offered and tr.state == HELD and "13" in tr.message
    assert not tr.see(look(t + 0.125, east=11.0))               # still: nothing read again
    tr.see(look(t + 0.25, 0.02, east=11.0))                      # the winning tile put down: look afresh
    assert tr.state == WATCHING
    offered, _ = settle(tr, WIN, t0=t + 0.25)
    assert offered


def test_after_an_offer_it_rearms_only_once_the_row_is_gone_and_never_offers_the_same_hand_twice():
    tr = Trigger()
    assert settle(tr, WIN)[0]
    t = 2.0
    for k in range(10):                                          # an arm over the row, still, for half a second
        tr.see(look(t + k * 0.05, 0.0, east=0.5))
    assert tr.state == OFFERED                                   # 0.5 s < clear_s
    tr.see(look(3.0, 0.0, east=11.0))
    for k in range(10):                                          # gone for 1.1 s: re-armed
        tr.see(look(3.5 + k * 0.125, 0.0))
    assert tr.state == WATCHING
    offered, t = settle(tr, WIN, t0=5.0)                          # the same hand back (the arm lifted)
    assert not offered and tr.state == OFFERED and "already" in tr.message
    for k in range(10):
        tr.see(look(t + 1 + k * 0.125, 0.0))
    other = dict(WIN, concealed="123456789s11z222z")
    assert settle(tr, other, t0=t + 3)[0]                        # the next deal's win


def test_a_hand_logged_while_the_rule_still_reads_it_is_not_offered_when_it_settles():
    """Count tapped and confirmed while an arm kept the view moving: the hand lying there is logged,
    so once the arm leaves it is not offered as another win; the next deal's, after the table
    clears, is."""
    tr = Trigger()
    for k in range(8):                                           # the row laid, an arm moving over the felt
        tr.see(look(k * 0.125, 0.01, east=11.0))
    tr.counted()                                                  # the players' tapped count is logged
    offered, t = settle(tr, WIN, t0=1.0)
    assert not offered and tr.state == OFFERED and "logged" in tr.message
    for k in range(10):                                           # every hand zone clear for 1.25 s
        tr.see(look(t + 1 + k * 0.125, 0.0))
    assert tr.state == WATCHING
    other = dict(WIN, concealed="123456789s11z222z")
    assert settle(tr, other, t0=t + 3, seat="south")[0]


def test_a_split_vote_reads_more_frames_and_off_reads_nothing():
    tr = Trigger(Thresholds(frames=3))
    tr.see(look(0.0, 0.05, east=11.0))
    for k, rec in enumerate([WIN, SHOW, dict(WIN, seat="x")], 1):
        assert tr.see(look(k * 0.125, east=11.0))
        tr.add(rec)
    assert not tr.ready(1.0) and tr.see(look(1.0, east=11.0))     # no majority yet: a fourth frame
    tr.switch(False)
    assert tr.state == OFF and not tr.see(look(1.2, east=11.0))


def test_hand_size_counts_melds_as_three():
    assert hand_size(WIN) == 14 and hand_size(SHOW) == 13 and hand_size(None) == 0
    assert hand_size({"concealed": "11123p", "melds": [{"kind": "ankan", "tiles": "5555s"}] * 3}) == 14


def det(tile, x, y, w=40, h=54, score=0.95, zone="hand"):
    return Detection(tile, x, y, w, h, score, zone)


def test_the_vote_keeps_the_majority_and_says_how_many_frames_saw_each_tile():
    a = Reading("vision", WIN, (det("1p", 100, 800), det("2z", 300, 800)))
    b = Reading("vision", WIN, (det("1p", 102, 801), det("2z", 301, 799)))
    c = Reading("vision", SHOW, (det("1p", 101, 800),), warnings=("hand of 13",))
    i, r = voted([c, a, b])
    assert i == 1 and r.record == WIN
    assert [d.agree for d in r.detections] == [1.0, pytest.approx(0.67)]
    i, r = voted([a, c])
    assert any("frames disagree" in w for w in r.warnings)


def test_the_strip_turns_each_seat_s_row_upright_and_picks_map_to_the_draft():
    size = (1920, 1080)
    bottom = [det(t, 600 + 42 * k, 900) for k, t in enumerate(["1p", "2p", "3p"])]
    right = [det(t, 1500, 300 + 42 * k, 54, 40) for k, t in enumerate(["1p", "2p", "3p"])]
    assert turn_for(bottom, size) == 0 and turn_for(right, size) == 90
    assert turn_for([det("1p", 600 + 42 * k, 100) for k in range(3)], size) == 180
    assert turn_for([det("1p", 300, 300 + 42 * k, 54, 40) for k in range(3)], size) == 270
    draft = Draft(concealed="123p", win_tile="3p", gari="1m", dora_indicators="4z",
                  melds=({"kind": "pon", "tiles": "550s", "from": "west"},))
    assert pick_of(det("2p", 0, 0), draft) == "concealed:2p"
    assert pick_of(det("5s", 0, 0, zone="melds"), draft) == "meld:0"
    assert pick_of(det("0s", 0, 0, zone="melds"), draft) == "meld:0"
    assert pick_of(det("4z", 0, 0, zone="dead_wall"), draft) == "dora_indicators:4z"
    assert pick_of(det("9p", 0, 0), draft) == "" and pick_of(det("1p", 0, 0, zone="discards"), draft) == ""
    reading = Reading("vision", {}, tuple(right) + (det("4z", 200, 500, zone="dead_wall", score=0.4),))
    v = views(reading, size, draft, 0.6)
    strip = v["strip"]
    assert strip.turn == 90 and strip.vw > strip.vh                  # the row now runs across
    assert [b.pick for b in strip.boxes] == ["concealed:1p:0", "concealed:2p:1", "concealed:3p:2"]
    xs = [b.x for b in strip.boxes]
    # the player on the right of the frame faces its middle: their left is at the bottom of the frame,
    # so the row read top to bottom in the frame runs right to left for them, and so in the strip
    assert xs == sorted(xs, reverse=True)
    unsure = [b for b in v["full"].boxes if b.unsure]
    assert [b.tile for b in unsure] == ["4z"] and unsure[0].label == "4z?"
    picked = views(reading, size, Draft(**{**draft.__dict__, "pick": "concealed:2p:1"}), 0.6)["strip"]
    assert [b.picked for b in picked.boxes] == [False, True, False]


def test_the_winning_tiles_own_box_picks_the_winning_tile_where_the_hand_holds_its_kind_again():
    size = (1920, 1080)
    draft = Draft(concealed="566p", win_tile="6p")
    bottom = tuple(det(t, 600 + 42 * k + (30 if k == 2 else 0), 900) for k, t in enumerate(["5p", "6p", "6p"]))
    picks = [b.pick for b in views(Reading("vision", {}, bottom), size, draft, 0.6)["full"].boxes]
    assert picks == ["concealed:5p:0", "concealed:6p:1", "win_tile:6p:2"]      # the last, set apart
    # the player on the right: the row's last tile is the highest in the frame
    right = tuple(det(t, 1500, 400 - 42 * k, 54, 40) for k, t in enumerate(["5p", "6p", "6p"]))
    picks = [b.pick for b in views(Reading("vision", {}, right), size, draft, 0.6)["full"].boxes]
    assert picks == ["concealed:5p:0", "concealed:6p:1", "win_tile:6p:2"]
    one = Draft(concealed="56p6s", win_tile="6p")                   # one copy: any tap on it fixes the win
    assert [b.pick for b in views(Reading("vision", {}, bottom[:2]), size, one, 0.6)["full"].boxes] == \
        ["concealed:5p:0", "concealed:6p:1"]


def test_a_photo_taken_at_the_seat_shows_its_row_as_it_lies_wherever_the_row_is():
    size = (1920, 1440)
    top = tuple(det(t, 600 + 42 * k, 100) for k, t in enumerate(["1p", "2p", "3p"]))   # high in the photo
    from_above = views(Reading("vision", {}, top), size, Draft(concealed="123p"), 0.6)["strip"]
    from_seat = views(Reading("hand photo", {}, top, from_seat=True), size, Draft(concealed="123p"), 0.6)["strip"]
    assert from_above.turn == 180 and from_seat.turn == 0
    xs = [b.x for b in from_seat.boxes]
    assert xs == sorted(xs)                 # left to right as the player laid them
