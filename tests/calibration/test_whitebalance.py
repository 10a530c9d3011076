"""White balance from the markers' white quiet zones under a warm parlour light."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.synth import SIZE, pose_homography, render, topdown
from calibration.errors import CalibrationError
from calibration.homography import detect_markers, fit_homography, table_to_image
from calibration.markers import default_layout
from calibration.whitebalance import apply_gains, gains_from_frame

LAYOUT = default_layout()
# Patches on the felt (table mm) and their true colour (BGR).
GREY = ((300.0, 780.0, 340.0, 820.0), (128, 128, 128))
TILE = ((360.0, 780.0, 386.0, 815.0), (215, 215, 215))     # a white tile face
RED5 = ((400.0, 780.0, 420.0, 800.0), (40, 40, 190))       # a red five's pips
# Warm light, under-exposed a little so the paper does not clip: blue weak, red strong.
WARM = (0.62, 0.82, 0.95)


def _colour(frame, fit, patch) -> np.ndarray:
    (x0, y0, x1, y1), _ = patch
    cx, cy = table_to_image(fit, [[(x0 + x1) / 2, (y0 + y1) / 2]])[0].round().astype(int)
    return np.median(frame[cy - 3:cy + 4, cx - 3:cx + 4].reshape(-1, 3), axis=0)


def _spread(bgr) -> float:
    """Max over min channel: 1.0 is neutral."""
    return float(max(bgr) / min(bgr))


@pytest.fixture(scope="module")
def warm_scene():
    rng = np.random.default_rng(30)
    H = pose_homography(LAYOUT, tilt=np.deg2rad([3, 2]))
    frame = render(topdown(LAYOUT, patches=[GREY, TILE, RED5]), H, rng, cast=WARM)
    det = detect_markers(frame, LAYOUT)
    return frame, fit_homography(det, LAYOUT, SIZE), det


def test_the_cast_is_there_before(warm_scene):
    frame, fit, _ = warm_scene
    b, g, r = _colour(frame, fit, GREY)
    assert r / b > 1.4 and _spread(_colour(frame, fit, TILE)) > 1.4


def test_gains_make_grey_and_white_neutral_and_red_stays_red(warm_scene):
    frame, fit, det = warm_scene
    gains = gains_from_frame(frame, det, LAYOUT)
    assert gains[1] == 1.0 and gains[0] > 1.2 and gains[2] < 0.95     # more blue, less red
    balanced = apply_gains(frame, gains)
    # Neutral to 4 %: noise (sigma 3) and blur over a small patch leave a little.
    assert _spread(_colour(balanced, fit, GREY)) < 1.04
    assert _spread(_colour(balanced, fit, TILE)) < 1.04
    b, g, r = _colour(balanced, fit, RED5)
    assert r > 3 * g and r > 3 * b
    hsv = cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0]
    assert (hsv[0] <= 6 or hsv[0] >= 174) and hsv[1] > 150            # red hue, saturated


def test_gains_are_near_one_in_neutral_light():
    rng = np.random.default_rng(31)
    H = pose_homography(LAYOUT)
    frame = render(topdown(LAYOUT), H, rng, cast=(0.85, 0.85, 0.85))
    assert np.allclose(gains_from_frame(frame, detect_markers(frame, LAYOUT), LAYOUT), 1.0, atol=0.03)


def test_a_clipped_white_gives_no_gains(warm_scene):
    _, _, det = warm_scene
    white = np.full((SIZE[1], SIZE[0], 3), 255, np.uint8)
    with pytest.raises(CalibrationError, match="unclipped"):
        gains_from_frame(white, det, LAYOUT)
