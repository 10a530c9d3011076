"""The renderer of tables in motion (vision.synth.motion): its truth must be the truth of its pixels."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.store import TableFile
from vision.layout import record_diff
from vision.read import TableReader
from vision.synth.motion import Stage, deal_clip, discard_clip, push_clip, tenpai_clip, win_clip


@pytest.fixture(scope="module")
def stage(art):
    return Stage(5, art)


def _diff(a: np.ndarray, b: np.ndarray, mask: np.ndarray | None = None) -> float:
    d = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2) > 40
    return float(d[mask > 0].mean() if mask is not None else d.mean())


def test_a_win_clip_lays_the_hand_down_under_an_arm_and_then_lies_still(stage):
    clip = win_clip(stage, seed=1, push_after=True)
    assert 0 < clip.settled < clip.until < len(clip) and clip.record == stage.record
    zone = stage.zone_mask(stage.seat, -210, 210, 0, 80)
    first, still, later = clip.frame(0), clip.frame(clip.settled), clip.frame(clip.until - 1)
    assert _diff(first, still, zone) > 0.15                     # backs, then a row of faces
    assert _diff(first, still, 255 - zone) < 0.01               # nothing else changed on the table
    assert _diff(still, later) < 0.001                          # the still view: sensor noise only
    moving = [_diff(clip.frame(i), clip.frame(i - 1)) for i in range(clip.marks[1][0] + 1, clip.settled)]
    assert max(moving) > 0.01                                    # an arm moves over the table
    assert np.array_equal(clip.frame(3), win_clip(stage, seed=1, push_after=True).frame(3))   # fixed by its seed
    end = clip.frame(len(clip) - 1)
    assert _diff(end, stage.frame("next")) < 0.01               # after the push: the next deal's backs


def test_the_still_win_reads_as_its_record(stage):
    clip = win_clip(stage, seed=1)
    reading = TableReader(TableFile("synthetic"), "dunhill").read(clip.frame(clip.settled + 1))
    assert record_diff(clip.record, reading.record) == []


def test_clips_that_must_not_fire_show_no_single_laid_down_hand(stage):
    d = discard_clip(stage, seed=2, rounds=1)
    assert d.settled is None and d.record is None
    seat = d.marks[0][1].split()[0]
    pond = stage.tile_mask([stage.laid[stage.discards[seat][-1]]], 2.0)
    assert _diff(d.frame(0), d.frame(len(d) - 1), pond) > 0.2       # the discard lies in the pond now
    t = tenpai_clip(stage, seed=3)
    last = t.frame(len(t) - 1)
    for seat in (stage.seat, stage.other):                            # two hands of faces at the draw
        assert _diff(t.frame(0), last, stage.zone_mask(seat, -210, 210, 0, 80)) > 0.15
    p = push_clip(stage, seed=4)
    assert any("pushed" in what for _, what in p.marks) and p.settled is None


def test_a_deal_for_the_bench_has_its_ending(stage):
    win = deal_clip(stage, seed=6, ending="win")
    draw = deal_clip(stage, seed=6, ending="draw")
    assert win.kind == "win" and win.settled is not None and win.record == stage.record
    assert draw.kind == "draw" and draw.settled is None and draw.record is None
    with pytest.raises(ValueError):
        deal_clip(stage, ending="chombo")
