"""The per-frame tracker: a bumped camera is re-fitted; hidden markers fall back to
the last good fit; four tapped felt corners give a fit when nothing else does."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.synth import SIZE, felt_grid, pose_homography, render, table_error_mm, topdown
from calibration.errors import CalibrationError, NoHomography
from calibration.markers import default_layout
from calibration.tracker import Tracker, felt_corners

LAYOUT = default_layout()
TOL_MM = 1.0          # as in test_homography: well under a tile's width


@pytest.fixture(scope="module")
def top():
    return topdown(LAYOUT)


POSE_A = pose_homography(LAYOUT, height=1300, shift=(10, -5), tilt=np.deg2rad([2, -1]), turn=np.deg2rad(1))
# Bumped: 30 mm sideways, tilted 3 degrees more and turned 2: tens of px in the frame.
POSE_B = pose_homography(LAYOUT, height=1290, shift=(40, 10), tilt=np.deg2rad([5, -1]), turn=np.deg2rad(3))


def hide_markers(frame: np.ndarray, H: np.ndarray, ids) -> np.ndarray:
    """Arms on the rim: a skin-coloured blob over each listed marker."""
    out = frame.copy()
    for i in ids:
        quad = cv2.perspectiveTransform(LAYOUT.corners_mm(i, 40.0).reshape(-1, 1, 2), H).reshape(-1, 2)
        cv2.fillConvexPoly(out, np.round(quad).astype(np.int32), (120, 160, 210))
    return out


def test_a_bumped_camera_is_refitted_on_the_next_frame(top):
    rng = np.random.default_rng(20)
    tr = Tracker(LAYOUT)
    a = tr.update(render(top, POSE_A, rng))
    assert a.fresh and table_error_mm(POSE_A, a.H, felt_grid(LAYOUT)).max() < TOL_MM
    b = tr.update(render(top, POSE_B, rng))
    assert b.fresh and table_error_mm(POSE_B, b.H, felt_grid(LAYOUT)).max() < TOL_MM
    # The old fit is far off for the new view; the tracker saw the move.
    assert table_error_mm(POSE_B, a.H, felt_grid(LAYOUT)).max() > 20
    assert tr.moved_mm > 20 and tr.last_good is b


def test_hidden_markers_fall_back_to_the_last_good_fit(top):
    rng = np.random.default_rng(21)
    tr = Tracker(LAYOUT)
    good = tr.update(render(top, POSE_A, rng))
    # Arms over all but two markers: too few for a fit.
    covered = hide_markers(render(top, POSE_A, rng), POSE_A, [0, 1, 2, 4, 5, 6, 7])
    fb = tr.update(covered)
    assert not fb.fresh and fb.source == "markers" and np.array_equal(fb.H, good.H)
    assert "2 of the table's markers" in tr.last_error
    # The markers come back: fresh again.
    assert tr.update(render(top, POSE_A, rng)).fresh


def test_no_markers_and_no_last_good_asks_for_taps():
    blank = np.full((SIZE[1], SIZE[0], 3), 60, np.uint8)
    with pytest.raises(NoHomography, match="giving the felt corners"):
        Tracker(LAYOUT).update(blank)


def test_a_last_good_fit_for_another_frame_size_is_not_used(top):
    rng = np.random.default_rng(22)
    tr = Tracker(LAYOUT)
    tr.update(render(top, POSE_A, rng))
    with pytest.raises(NoHomography, match="1920x1080 frames, this one is 1280x720"):
        tr.update(np.zeros((720, 1280, 3), np.uint8))


def test_four_tapped_corners_give_a_fit():
    # Taps are a finger on a tablet showing the frame: a couple of pixels off.
    rng = np.random.default_rng(23)
    true = cv2.perspectiveTransform(felt_corners(LAYOUT).reshape(-1, 1, 2), POSE_B).reshape(-1, 2)
    taps = true + rng.uniform(-2, 2, true.shape)
    tr = Tracker(LAYOUT)
    fit = tr.tap_corners(taps, SIZE)
    assert fit.source == "tapped" and tr.last_good is fit
    # 2 px at ~0.8 px/mm is up to ~2.5 mm at a corner; inside the felt it shrinks.
    assert table_error_mm(POSE_B, fit.H, felt_grid(LAYOUT)).max() < 4.0
    # A frame without markers now falls back to the tapped fit.
    blank = np.full((SIZE[1], SIZE[0], 3), 60, np.uint8)
    fb = tr.update(blank)
    assert fb.source == "tapped" and not fb.fresh


def test_taps_out_of_order_or_too_few_are_refused():
    true = cv2.perspectiveTransform(felt_corners(LAYOUT).reshape(-1, 1, 2), POSE_A).reshape(-1, 2)
    tr = Tracker(LAYOUT)
    with pytest.raises(CalibrationError, match="not the felt's corners in order"):
        tr.tap_corners(true[[0, 2, 1, 3]], SIZE)          # crossed
    with pytest.raises(CalibrationError, match="not the felt's corners in order"):
        tr.tap_corners(true[::-1], SIZE)                   # mirrored (anticlockwise)
    with pytest.raises(CalibrationError, match="tap four corners"):
        tr.tap_corners(true[:3], SIZE)
    far = true * 300                                        # "1000000,0"-like: a typo, off the frame
    with pytest.raises(CalibrationError, match="outside the .* frame"):
        tr.tap_corners(far, SIZE)
    assert tr.last_good is None
