"""Find the rim markers in a frame and the homography from the image to the table plane.

The homography ``H`` maps image pixels to table millimetres (see markers.py for
the table's axes). With a lens calibration the pixels are those of the
*undistorted* image: detected corners are undistorted before the fit, and
``image_to_table``/``table_to_image`` undistort/distort on the way.

A fit needs at least ``MIN_MARKERS`` known markers whose centres span at least
``MIN_SPREAD`` of the table top: markers bunched on one side would extrapolate
badly across the felt. RANSAC drops corners more than ``RANSAC_MM`` off, and a
fit whose RMS corner error is over ``MAX_ERROR_MM`` is refused.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .errors import CalibrationError
from .markers import MarkerLayout, dictionary

if TYPE_CHECKING:  # pragma: no cover
    from .lens import Lens

MIN_MARKERS = 3
MIN_SPREAD = 0.10       # of the table top's area, convex hull of the marker centres
RANSAC_MM = 4.0         # a corner further off than this is an outlier (a misread or a moved marker)
MAX_ERROR_MM = 3.0      # RMS over inlier corners; a tile is ~26 mm wide
MAX_FELT_SWAY_MM = 6.0  # the felt's corners moved by leaving one marker out (``_felt_sway_mm``)


@dataclass(frozen=True)
class Detection:
    """Markers of the layout found in one frame: ids and their corners in image pixels
    (ArUco order, as detected: distorted if the lens distorts). ``unknown`` counts
    markers found that are not in the layout."""
    ids: tuple[int, ...]
    corners: np.ndarray          # (n, 4, 2) float32
    unknown: int = 0


@dataclass(frozen=True)
class Fit:
    """A homography image px -> table mm and how it was made.

    ``source`` is ``markers`` or ``tapped``; ``fresh`` is False when a tracker
    hands back an earlier fit because this frame had none; ``made_at`` is a
    Unix time; ``image_size`` (w, h) is the frame size it holds for."""
    H: np.ndarray
    image_size: tuple[int, int]
    source: str = "markers"
    error_mm: float = 0.0
    marker_ids: tuple[int, ...] = ()
    inliers: int = 0
    made_at: float = field(default_factory=time.time)
    fresh: bool = True

    @property
    def H_inv(self) -> np.ndarray:
        return np.linalg.inv(self.H)


_detectors: dict[str, cv2.aruco.ArucoDetector] = {}


def detector_for(layout: MarkerLayout) -> cv2.aruco.ArucoDetector:
    """One ArucoDetector per dictionary, reused across frames (building one costs)."""
    det = _detectors.get(layout.dictionary)
    if det is None:
        params = cv2.aruco.DetectorParameters()
        # Sub-pixel corners: the homography is only as good as the corners.
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        det = _detectors[layout.dictionary] = cv2.aruco.ArucoDetector(dictionary(layout.dictionary), params)
    return det


def detect_markers(frame: np.ndarray, layout: MarkerLayout, debug=None) -> Detection:
    """The layout's markers in ``frame`` (BGR or grayscale)."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    corners, ids, _rejected = detector_for(layout).detectMarkers(gray)
    known = set(layout.ids)
    keep = [] if ids is None else [k for k, i in enumerate(ids.ravel()) if int(i) in known]
    found = tuple(int(ids.ravel()[k]) for k in keep)
    pts = np.array([corners[k].reshape(4, 2) for k in keep], np.float32).reshape(-1, 4, 2)
    det = Detection(found, pts, 0 if ids is None else len(ids) - len(keep))
    if debug is not None:
        shown = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        if found:
            cv2.aruco.drawDetectedMarkers(shown, [c.reshape(1, 4, 2) for c in pts],
                                          np.array(found, np.int32).reshape(-1, 1))
        debug.write("detected", shown)
    return det


def fit_homography(det: Detection, layout: MarkerLayout, image_size: tuple[int, int],
                   lens: "Lens | None" = None) -> Fit:
    """The homography from the detected corners to their known table positions.

    Raises CalibrationError when the markers are too few, too bunched, or the
    fit is worse than ``MAX_ERROR_MM``."""
    # an id seen twice is another table's marker, or a spare from the sheet: neither copy can be told
    # from the other, so neither is used
    twice = sorted({i for i in det.ids if det.ids.count(i) > 1})
    keep = [k for k, i in enumerate(det.ids) if i not in twice]
    ids, corners = tuple(det.ids[k] for k in keep), det.corners[keep]
    seen_twice = f" (ids {', '.join(map(str, twice))} seen twice, not used: another table's markers in view?)" \
        if twice else ""
    if len(ids) < MIN_MARKERS:
        raise CalibrationError(f"{len(ids)} of the table's markers found, a fit needs {MIN_MARKERS}{seen_twice}")
    _check_spread(ids, layout, seen_twice)
    img = corners.reshape(-1, 2).astype(np.float64)
    if lens is not None:
        img = lens.undistort_points(img)
    table = np.concatenate([layout.corners_mm(i) for i in ids])
    H, _ = cv2.findHomography(img, table, cv2.RANSAC, RANSAC_MM)
    if H is None:
        raise CalibrationError("the marker corners give no homography")
    # RANSAC stops at the first model good enough and may leave good corners
    # out; refit on every corner within RANSAC_MM of the model until stable.
    inl = np.zeros(len(img), bool)
    for _ in range(4):
        now = _residuals_mm(H, img, table) < RANSAC_MM
        if now.sum() < 4 or np.array_equal(now, inl):
            break
        inl = now
        H, _ = cv2.findHomography(img[inl], table[inl], 0)
    err = rms_error_mm(H, img[inl], table[inl])
    if inl.sum() < 4 * MIN_MARKERS or err > MAX_ERROR_MM:
        raise CalibrationError(f"the markers disagree: RMS {err:.1f} mm over {int(inl.sum())} corners "
                               f"(at most {MAX_ERROR_MM} mm over {4 * MIN_MARKERS}){seen_twice}")
    # the markers the fit stands on: all four corners within RANSAC_MM. A stray marker that passed the
    # spread rule for a row of them along one side is an outlier here, and the row alone is bunched.
    whole = inl.reshape(-1, 4).all(axis=1)
    used = tuple(i for i, ok in zip(ids, whole) if ok)
    _check_spread(used, layout, seen_twice, " (the others disagree with them)" if len(used) < len(ids) else "")
    if (off := _felt_sway_mm(H, img, table, whole, layout)) > MAX_FELT_SWAY_MM:
        raise CalibrationError(f"markers {list(used)} place the felt only to about {off:.0f} mm (leaving one of "
                               f"them out moves its corners that far; at most {MAX_FELT_SWAY_MM:.0f}): show the "
                               f"camera more of the table's markers, round the whole table{seen_twice}")
    return Fit(H=H / H[2, 2], image_size=image_size, source="markers", error_mm=err,
               marker_ids=used, inliers=int(inl.sum()))


def _check_spread(ids, layout: MarkerLayout, *why: str) -> None:
    """CalibrationError when the markers ``ids`` span less than ``MIN_SPREAD`` of the table top."""
    centers = np.array([layout.place(i).center for i in ids], np.float32).reshape(-1, 2)
    spread = cv2.contourArea(cv2.convexHull(centers)) / (layout.table_mm[0] * layout.table_mm[1]) if len(ids) else 0
    if spread < MIN_SPREAD:
        raise CalibrationError(f"markers {list(ids)} are bunched on one side of the table "
                               f"({spread:.0%} of it, a fit needs {MIN_SPREAD:.0%}){''.join(why)}")


def _felt_sway_mm(H: np.ndarray, img: np.ndarray, table: np.ndarray, whole: np.ndarray,
                  layout: MarkerLayout) -> float:
    """How far the felt's corners move when the fit leaves out one of the markers it stands on (the
    most, over each marker in turn): four markers can agree at their own corners to a fraction of a
    mm and still place the far side of the felt 10 mm off, which the corners' RMS never shows. 0 with
    three markers (none to leave out)."""
    marks = np.flatnonzero(whole)
    if len(marks) < 4:
        return 0.0
    x0, y0, x1, y1 = layout.felt
    felt = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    at = cv2.perspectiveTransform(felt.reshape(-1, 1, 2), np.linalg.inv(H))       # the felt's corners in the image
    worst = 0.0
    for m in marks:
        rest = np.concatenate([np.arange(4 * k, 4 * k + 4) for k in marks if k != m])
        Hm, _ = cv2.findHomography(img[rest], table[rest], 0)
        if Hm is None:
            return float("inf")
        moved = cv2.perspectiveTransform(at, Hm).reshape(-1, 2)
        worst = max(worst, float(np.linalg.norm(moved - felt, axis=1).max()))
    return worst


def fit_from_points(image_pts, table_pts, image_size: tuple[int, int], source: str,
                    lens: "Lens | None" = None) -> Fit:
    """An exact homography from four (or more) image points and their table mm."""
    img = np.asarray(image_pts, np.float64).reshape(-1, 2)
    table = np.asarray(table_pts, np.float64).reshape(-1, 2)
    if lens is not None:
        img = lens.undistort_points(img)
    H, _ = cv2.findHomography(img, table, 0)
    if H is None:
        raise CalibrationError("these points give no homography")
    return Fit(H=H / H[2, 2], image_size=image_size, source=source,
               error_mm=rms_error_mm(H, img, table), inliers=len(img))


def _residuals_mm(H: np.ndarray, img: np.ndarray, table: np.ndarray) -> np.ndarray:
    mapped = cv2.perspectiveTransform(img.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2)
    return np.linalg.norm(mapped - table, axis=1)


def rms_error_mm(H: np.ndarray, img: np.ndarray, table: np.ndarray) -> float:
    """RMS distance, in table mm, between H(image points) and where they should be."""
    return float(np.sqrt(np.mean(_residuals_mm(H, img, table) ** 2)))


def image_to_table(fit: Fit, pts, lens: "Lens | None" = None) -> np.ndarray:
    """Image pixels (as captured) -> table mm."""
    img = np.asarray(pts, np.float64).reshape(-1, 2)
    if lens is not None:
        img = lens.undistort_points(img)
    return cv2.perspectiveTransform(img.reshape(-1, 1, 2), fit.H).reshape(-1, 2)


def table_to_image(fit: Fit, pts, lens: "Lens | None" = None) -> np.ndarray:
    """Table mm -> image pixels (as captured)."""
    mm = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    img = cv2.perspectiveTransform(mm, fit.H_inv).reshape(-1, 2)
    return lens.distort_points(img) if lens is not None else img


def table_to_rectified(layout: MarkerLayout, px_per_mm: float) -> np.ndarray:
    """The 3x3 scale from table mm to pixels of the rectified (top-down) image."""
    return np.diag([px_per_mm, px_per_mm, 1.0])


def rectify(frame: np.ndarray, fit: Fit, layout: MarkerLayout, px_per_mm: float = 1.0,
            lens: "Lens | None" = None, debug=None) -> np.ndarray:
    """The frame warped to a top-down image of the whole table top at ``px_per_mm``:
    pixel (u, v) shows table point (u / px_per_mm, v / px_per_mm)."""
    if lens is not None:
        frame = lens.undistort(frame)
    size = (int(round(layout.table_mm[0] * px_per_mm)), int(round(layout.table_mm[1] * px_per_mm)))
    top = cv2.warpPerspective(frame, table_to_rectified(layout, px_per_mm) @ fit.H, size,
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    if debug is not None:
        debug.write("rectified", top)
    return top


def moved_mm(a: Fit, b: Fit, layout: MarkerLayout) -> float:
    """How far apart two fits put the felt's corners, in table mm: how much the
    camera moved between them (0 for the same view)."""
    x0, y0, x1, y1 = layout.felt
    felt = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    in_a = table_to_image(a, felt)
    back = image_to_table(b, in_a)
    return float(np.max(np.linalg.norm(back - felt, axis=1)))


def scale_px_per_mm(fit: Fit, point_mm) -> float:
    """Image pixels per table mm at a table point (undistorted pixels)."""
    x, y = float(point_mm[0]), float(point_mm[1])
    pts = np.array([[[x - 0.5, y]], [[x + 0.5, y]], [[x, y - 0.5]], [[x, y + 0.5]]], np.float64)
    img = cv2.perspectiveTransform(pts, fit.H_inv).reshape(-1, 2)
    return float((np.linalg.norm(img[1] - img[0]) + np.linalg.norm(img[3] - img[2])) / 2)
