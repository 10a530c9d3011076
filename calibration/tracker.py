"""Per-frame homography with fallbacks, so a bumped camera keeps working.

Every frame: find the markers and fit afresh (a bumped camera is re-fitted on
the next frame that shows enough markers). When the markers are hidden (arms on
the rim) or too few, the last good fit is used, with ``fresh=False``. With no
last good fit at all, four felt corners tapped on the tablet (``tap_corners``)
give one; a tap replaces the last good fit, since it is the newest knowledge of
where the camera points. A fit is only reused for frames of its own size.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .errors import CalibrationError, NoHomography
from .homography import Detection, Fit, detect_markers, fit_from_points, fit_homography, moved_mm
from .markers import MarkerLayout

if TYPE_CHECKING:  # pragma: no cover
    from .lens import Lens

# The felt corners the tablet asks for, in this order (table mm from layout.felt):
TAP_ORDER = ("west-north", "west-south", "east-south", "east-north")


def felt_corners(layout: MarkerLayout) -> np.ndarray:
    """The felt's corners in TAP_ORDER: top-left, top-right, bottom-right, bottom-left."""
    x0, y0, x1, y1 = layout.felt
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)


class Tracker:
    """Holds the last good fit for one table and one camera."""

    def __init__(self, layout: MarkerLayout, lens: "Lens | None" = None, last_good: Fit | None = None):
        self.layout = layout
        self.lens = lens
        self.last_good = last_good
        self.last_error: str | None = None     # why the latest frame had no fresh fit
        self.moved_mm: float | None = None     # camera shift at the latest fresh fit
        self.last_detection: Detection | None = None   # the latest frame's markers (white balance reads them)

    def update(self, frame: np.ndarray, debug=None) -> Fit:
        """This frame's fit: fresh from markers, else the last good one.

        Raises NoHomography when neither is to be had."""
        size = (frame.shape[1], frame.shape[0])
        if self.lens is not None and tuple(self.lens.image_size) != size:
            raise CalibrationError(f"the lens was calibrated for {_wh(self.lens.image_size)} frames, "
                                   f"this one is {_wh(size)}")
        det = self.last_detection = detect_markers(frame, self.layout, debug)
        try:
            fit = fit_homography(det, self.layout, size, self.lens)
        except CalibrationError as e:
            self.last_error = str(e)
            return self._fallback(size)
        self.moved_mm = None if self.last_good is None else moved_mm(self.last_good, fit, self.layout)
        self.last_good, self.last_error = fit, None
        return fit

    def tap_corners(self, image_points, image_size: tuple[int, int]) -> Fit:
        """A fit from the four felt corners tapped on the frame, in TAP_ORDER.

        The taps must lie on the frame and form a convex quadrilateral going the
        same way round as the felt (else they were tapped out of order)."""
        pts = np.asarray(image_points, np.float64).reshape(-1, 2)
        if pts.shape != (4, 2):
            raise CalibrationError("tap four corners: " + ", ".join(TAP_ORDER))
        w, h = image_size
        outside = [f"{x:g},{y:g}" for x, y in pts if not (0 <= x <= w and 0 <= y <= h)]
        if outside:                 # a tap is on the frame: a corner off it is a typo
            raise CalibrationError(f"corner(s) {' '.join(outside)} lie outside the {_wh(image_size)} frame")
        if not _convex_same_turn(pts, felt_corners(self.layout)):
            raise CalibrationError("the four taps are not the felt's corners in order: " + ", ".join(TAP_ORDER))
        fit = fit_from_points(pts, felt_corners(self.layout), image_size, "tapped", self.lens)
        self.last_good = fit
        return fit

    def _fallback(self, size: tuple[int, int]) -> Fit:
        last = self.last_good
        if last is None:
            raise NoHomography(f"no homography: {self.last_error}; no last good fit either (clear the "
                               f"markers, or fit the table giving the felt corners: python -m calibration fit "
                               f"FRAME --table NAME --corners X,Y X,Y X,Y X,Y, {', '.join(TAP_ORDER)})")
        if tuple(last.image_size) != size:
            raise NoHomography(f"no homography: {self.last_error}; the last good fit is for "
                               f"{_wh(last.image_size)} frames, this one is {_wh(size)}")
        return replace(last, fresh=False)


def _wh(size) -> str:
    return f"{size[0]}x{size[1]}"


def _convex_same_turn(img: np.ndarray, table: np.ndarray) -> bool:
    def turns(p):
        d = np.roll(p, -1, axis=0) - p
        e = np.roll(d, -1, axis=0)
        return d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]
    t_img, t_tab = turns(img), turns(table)
    return bool(np.all(np.sign(t_img) == np.sign(t_tab[0])) and cv2.contourArea(img.astype(np.float32)) > 100)
