"""White balance from the markers' white quiet zones.

The paper around every marker is the one surface on the table known to be
white. Under a warm parlour light it reads orange-ish; the gains make its blue,
green and red equal (green is kept, so exposure does not change), which turns
white tiles white again and leaves red fives red instead of letting every
bright thing look a little red.

The sample is the middle half of each quiet zone's width (away from the black
marker edge and the rim, both blurred into it), placed by each marker's own
detected corners rather than by the table's fit: a fit a few mm off (an
uncalibrated lens) would slide the sample onto the rim. Saturated pixels are
left out (a clipped channel says nothing), and the per-channel median over all
markers is the white.
"""

from __future__ import annotations

import cv2
import numpy as np

from .errors import CalibrationError
from .homography import Detection
from .markers import MarkerLayout

SATURATED = 250
MIN_PIXELS = 50
MAX_GAIN = 4.0          # a stronger correction means the "white" was not white


def white_mask(frame_shape, det: Detection, layout: MarkerLayout) -> np.ndarray:
    """A mask of the frame: the middle of the quiet zone around each detected marker."""
    mask = np.zeros(frame_shape[:2], np.uint8)
    s, q = layout.size_mm / 2, layout.quiet_mm
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    for corners in det.corners:
        # The marker's own homography: its square (in mm about its centre) -> its detected corners.
        H = cv2.getPerspectiveTransform(square * s, corners.astype(np.float32))
        ring = lambda half: cv2.perspectiveTransform((square * half).reshape(-1, 1, 2), H).reshape(-1, 2)
        outer, inner = ring(s + 0.75 * q), ring(s + 0.25 * q)
        cv2.fillConvexPoly(mask, np.round(outer).astype(np.int32), 255)
        cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 0)
    return mask


def gains_from_frame(frame: np.ndarray, det: Detection, layout: MarkerLayout) -> tuple[float, float, float]:
    """BGR gains that make the detected markers' white neutral (green gain 1)."""
    if frame.ndim != 3:
        raise CalibrationError("white balance needs a colour frame")
    if not det.ids:
        raise CalibrationError("white balance: no markers in the frame")
    mask = white_mask(frame.shape, det, layout)
    px = frame[mask > 0]
    px = px[(px < SATURATED).all(axis=1)]
    if len(px) < MIN_PIXELS:
        raise CalibrationError("white balance: too little unclipped white around the markers")
    white = np.median(px, axis=0).astype(np.float64)
    if white.min() < 8:
        raise CalibrationError("white balance: the markers' white is too dark")
    gains = white[1] / white
    if gains.max() > MAX_GAIN or gains.min() < 1 / MAX_GAIN:
        raise CalibrationError(f"white balance: gains {np.round(gains, 2).tolist()} are out of range")
    return tuple(float(g) for g in gains)


def apply_gains(frame: np.ndarray, gains, debug=None) -> np.ndarray:
    """The frame with each channel scaled by its gain (clipped to 255), by lookup table."""
    ramp = np.arange(256, dtype=np.float64)
    lut = np.stack([np.clip(ramp * g, 0, 255) for g in gains], axis=1).astype(np.uint8).reshape(256, 1, 3)
    out = cv2.LUT(frame, lut)
    if debug is not None:
        debug.write("white-balanced", out)
    return out
