"""Lens calibration from rendered ChArUco views, and a distorted table fitted with it.

The camera: f = 1050 px and barrel distortion k1 = -0.15, k2 = 0.03, a wide
webcam; at the table's corners it moves the image ~20 px, which no homography
can absorb. Calibrated from ten board views, the fit on the distorted table
frame is held to the same 1 mm as an ideal lens (test_homography).
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.synth import K, SIZE, distort_maps, felt_grid, pose_homography, render, rotation, table_error_mm, topdown
from calibration.errors import CalibrationError
from calibration.homography import detect_markers, fit_homography, rectify
from calibration.lens import BOARD_SQUARE_MM, BOARD_SQUARES, Lens, board_image, calibrate
from calibration.markers import default_layout
from calibration.whitebalance import gains_from_frame

DIST = np.array([-0.15, 0.03, 0.0, 0.0, 0.0])
LAYOUT = default_layout()
BOARD_PPM = 4.0
MARGIN_MM = 10.0


@pytest.fixture(scope="module")
def maps():
    return distort_maps(K, DIST)


def board_view(rng, maps, at, tilt_deg, distance):
    """The board seen with its centre on the ray through normalised image point
    ``at``, ``distance`` mm away, tilted by ``tilt_deg`` about x and y."""
    img = board_image(BOARD_PPM, MARGIN_MM)
    w_mm = BOARD_SQUARES[0] * BOARD_SQUARE_MM + 2 * MARGIN_MM
    h_mm = BOARD_SQUARES[1] * BOARD_SQUARE_MM + 2 * MARGIN_MM
    R = rotation(*np.deg2rad(tilt_deg), np.deg2rad(rng.uniform(-10, 10)))
    T = np.array([at[0] * distance, at[1] * distance, distance])
    H = K @ np.column_stack([R[:, 0], R[:, 1], T]) @ np.array([[1, 0, -w_mm / 2], [0, 1, -h_mm / 2], [0, 0, 1.0]])
    top = np.dstack([img] * 3)
    frame = render(top, H, rng, px_per_mm=BOARD_PPM, maps=maps)
    return frame


@pytest.fixture(scope="module")
def lens(maps):
    rng = np.random.default_rng(40)
    spots = [(-0.6, -0.35), (0.6, -0.35), (-0.6, 0.35), (0.6, 0.35), (0.0, 0.0),
             (-0.3, 0.0), (0.3, 0.0), (0.0, -0.35), (0.0, 0.35), (0.45, 0.1)]
    tilts = [(25, 0), (0, 25), (-25, 0), (0, -25), (20, 20), (-20, 15), (15, -20), (30, 0), (0, 30), (-15, -15)]
    frames = [board_view(rng, maps, at, tilt, rng.uniform(550, 700)) for at, tilt in zip(spots, tilts)]
    return calibrate(frames)


def test_calibration_recovers_the_camera(lens):
    assert lens.views >= 8 and lens.rms_px < 0.5
    assert lens.camera_matrix[0, 0] == pytest.approx(1050, rel=0.02)
    assert lens.camera_matrix[:2, 2] == pytest.approx([960, 540], abs=15)
    # The distortion it found matches the true one where the table is (r < 0.6).
    r = np.linspace(0, 0.6, 13)
    true = 1 + DIST[0] * r**2 + DIST[1] * r**4
    found = 1 + lens.dist[0] * r**2 + lens.dist[1] * r**4 + lens.dist[4] * r**6
    assert np.abs(true - found).max() < 0.005


def test_a_distorted_table_fits_within_1mm_with_the_lens_and_not_without(lens, maps):
    rng = np.random.default_rng(41)
    H_true = pose_homography(LAYOUT, tilt=np.deg2rad([2, -2]))
    frame = render(topdown(LAYOUT), H_true, rng, maps=maps)
    det = detect_markers(frame, LAYOUT)
    fit = fit_homography(det, LAYOUT, SIZE, lens)
    err = table_error_mm(H_true, fit.H, felt_grid(LAYOUT), lens=lens, dist_camera=(K, DIST))
    assert err.max() < 1.0, f"max {err.max():.2f} mm"
    # White balance reads each marker's own white, wherever the table fit puts it:
    # neutral light stays neutral even through the barrel.
    assert np.allclose(gains_from_frame(frame, det, LAYOUT), 1.0, atol=0.03)
    # The same frame without the lens: the barrel bends the felt by many mm
    # (or the markers disagree so much that there is no fit at all).
    try:
        plain = fit_homography(det, LAYOUT, SIZE)
    except CalibrationError:
        return
    assert table_error_mm(H_true, plain.H, felt_grid(LAYOUT), dist_camera=(K, DIST)).max() > 3.0
    # Rectified with the lens, the output is the same size as without.
    assert rectify(frame, fit, LAYOUT, 0.5, lens).shape == (500, 500, 3)


def test_lens_round_trips_and_points_go_both_ways(lens):
    back = Lens.from_dict(lens.to_dict())
    assert np.allclose(back.camera_matrix, lens.camera_matrix) and np.allclose(back.dist, lens.dist)
    pts = np.array([[100.0, 100.0], [960.0, 540.0], [1800.0, 1000.0]])
    assert np.abs(lens.distort_points(lens.undistort_points(pts)) - pts).max() < 0.05


def test_too_few_board_views_are_refused():
    blank = np.full((SIZE[1], SIZE[0], 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="found in 0 frames"):
        calibrate([blank] * 5)
    with pytest.raises(CalibrationError, match="no frames"):
        calibrate([])


def _board_frames(maps, views, distance=600):
    rng = np.random.default_rng(42)
    return [board_view(rng, maps, at, tilt, distance) for at, tilt in views]


def test_views_tilted_alike_are_refused(maps):
    """Four copies of one view "calibrated" to f 17345 px, k2 +47590 at RMS 0.05 px, and
    `lens` stored it; four views tilted 5 degrees either way gave k3 +23."""
    same = _board_frames(maps, [((0.0, 0.0), (0, 0))])
    with pytest.raises(CalibrationError, match=r"tilted alike \(at most 0 degrees apart"):
        calibrate(same * 4)
    near = _board_frames(maps, [((0, 0), (5, 0)), ((0.05, 0), (0, 5)), ((0, 0.05), (-5, 0)), ((0.02, 0.02), (0, -5))])
    with pytest.raises(CalibrationError, match="tilted alike"):
        calibrate(near)


def test_views_in_one_spot_are_refused(maps):
    """Tilted every way, but all in the middle of the view: the distortion at the edges is a guess."""
    tilts = [(25, 0), (0, 25), (-25, 0), (0, -25), (20, 20)]
    frames = _board_frames(maps, [((0.0, 0.0), t) for t in tilts], distance=1100)
    with pytest.raises(CalibrationError, match=r"covered \d+% of the frame over all views, calibration needs 25%"):
        calibrate(frames)


@pytest.mark.parametrize("f, dist, words", [
    (17345.0, [-56.099, 47590.46, -0.238, 0.036, 27.207], "f 17345 px for a frame 1920 px wide"),
    (1067.0, [-0.152, -1.279, 0.0, 0.001, 23.153], "k3 +23.153 would undistort the frame to 0.48 times"),
    (1050.0, [-0.4, 0.0, 0.0, 0.0, 0.0], "fold the frame's edge over"),
    (1050.0, DIST, None),
    (500.0, [-0.2, 0.03, 0.0, 0.0, 0.0], None),          # a wide lens's strong barrel is a lens
])
def test_a_result_no_camera_has_is_named(f, dist, words):
    from calibration.lens import implausible
    K_ = np.array([[f, 0, 960], [0, f, 540], [0, 0, 1.0]])
    said = implausible(Lens(K_, np.array(dist, np.float64), SIZE))
    assert said == words if words is None else words in said
