"""Optional lens calibration from a ChArUco board, and undistortion.

Most webcams over a table need none: the homography absorbs everything but
barrel distortion, which bends the table's straight edges by a few mm at the
rim. When it matters, print the board (``python -m calibration markers
board.pdf --board``), film it flat at a dozen tilts across the view, and run
``python -m calibration lens --table T FRAME...``; the result is stored with the
table and every stage then works in undistorted pixels.

The board uses a different dictionary from the rim markers, so neither is
mistaken for the other.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .errors import CalibrationError
from .markers import dictionary

BOARD_DICTIONARY = "DICT_5X5_100"
BOARD_SQUARES = (7, 5)          # columns, rows: fits A4 landscape at 30 mm
BOARD_SQUARE_MM = 30.0
BOARD_MARKER_MM = 22.0
MIN_VIEWS = 4                   # fewer views do not pin down the distortion
MIN_CORNERS = 8                 # per view
# What the views must hold, and what a result must be, to be stored. Four copies of one
# view "calibrated" to f 17345 px, k2 +47590 (RMS 0.05 px: nothing to disagree with).
MIN_TILT_SPREAD_DEG = 15.0      # between the most differently tilted views: boards tilted alike leave f open
MIN_COVER = 0.25                # of the frame, inside the board's corners over all views: the distortion
                                # is only measured where the board was
FOCAL_RANGE = (0.25, 4.0)       # f / frame width: 127 down to 14 degrees across
AREA_RANGE = (0.67, 3.0)        # the undistorted frame's area / the frame's: barrel grows it, pincushion shrinks it


def board() -> cv2.aruco.CharucoBoard:
    return cv2.aruco.CharucoBoard(BOARD_SQUARES, BOARD_SQUARE_MM, BOARD_MARKER_MM,
                                  dictionary(BOARD_DICTIONARY))


def board_image(px_per_mm: float, margin_mm: float = 10.0) -> np.ndarray:
    """The board as a grayscale image at ``px_per_mm``, with a white margin."""
    w = BOARD_SQUARES[0] * BOARD_SQUARE_MM + 2 * margin_mm
    h = BOARD_SQUARES[1] * BOARD_SQUARE_MM + 2 * margin_mm
    size = (int(round(w * px_per_mm)), int(round(h * px_per_mm)))
    return board().generateImage(size, marginSize=int(round(margin_mm * px_per_mm)), borderBits=1)


@dataclass(frozen=True)
class Lens:
    """A pinhole camera matrix and OpenCV's distortion coefficients
    (k1, k2, p1, p2, k3) for frames of ``image_size`` (w, h)."""
    camera_matrix: np.ndarray
    dist: np.ndarray
    image_size: tuple[int, int]
    rms_px: float = 0.0
    views: int = 0

    def undistort_points(self, pts) -> np.ndarray:
        """Captured pixels -> pixels of the undistorted image (same camera matrix)."""
        p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(p, self.camera_matrix, self.dist, P=self.camera_matrix).reshape(-1, 2)

    def distort_points(self, pts) -> np.ndarray:
        """Pixels of the undistorted image -> captured pixels."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        K = self.camera_matrix
        norm = np.column_stack([(p[:, 0] - K[0, 2]) / K[0, 0], (p[:, 1] - K[1, 2]) / K[1, 1],
                                np.ones(len(p))])
        out, _ = cv2.projectPoints(norm, np.zeros(3), np.zeros(3), K, self.dist)
        return out.reshape(-1, 2)

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        maps = _maps(self)
        return cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR)

    def to_dict(self) -> dict:
        return {"camera_matrix": self.camera_matrix.tolist(), "dist": self.dist.ravel().tolist(),
                "image_size": list(self.image_size), "rms_px": self.rms_px, "views": self.views}

    @classmethod
    def from_dict(cls, d: dict, checked: bool = True) -> "Lens":
        try:
            K = np.array(d["camera_matrix"], np.float64)
            dist = np.array(d["dist"], np.float64).ravel()
            size = (int(d["image_size"][0]), int(d["image_size"][1]))
            if K.shape != (3, 3) or len(dist) not in (4, 5, 8, 12, 14):
                raise ValueError("camera_matrix must be 3x3, dist 4/5/8/12/14 numbers")
            if not (np.isfinite(K).all() and np.isfinite(dist).all()) or min(size) < 1:
                raise ValueError("camera_matrix and dist must be numbers, image_size two sizes of 1 px or more")
            lens = cls(K, dist, size, float(d.get("rms_px", 0.0)), int(d.get("views", 0)))
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CalibrationError(f"lens: {e}") from None
        # a lens typed by hand (-15 for -0.15) fitted and read a table bent into a circle: what the
        # lens command refuses of a lens it measures, a file is refused too (but by the lens command,
        # which replaces or clears it: ``checked=False``)
        if checked and (why := implausible(lens)):
            raise CalibrationError(f"lens: no camera's ({why}); measure it again (python -m calibration lens), "
                                   "or remove it (lens --clear)")
        return lens


_map_cache: dict[int, tuple] = {}


def _maps(lens: Lens):
    # Undistortion maps cost ~50 ms for 1080p; a table keeps one lens.
    key = id(lens)
    hit = _map_cache.get(key)
    if hit is None or hit[0] is not lens:
        m1, m2 = cv2.initUndistortRectifyMap(lens.camera_matrix, lens.dist, None, lens.camera_matrix,
                                             lens.image_size, cv2.CV_16SC2)
        hit = _map_cache[key] = (lens, (m1, m2))
    return hit[1]


def find_board(frame: np.ndarray):
    """ChArUco corners in one frame: (object points mm, image points px) or None."""
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    b = board()
    corners, ids, _, _ = cv2.aruco.CharucoDetector(b).detectBoard(gray)
    if ids is None or len(ids) < MIN_CORNERS:
        return None
    obj, img = b.matchImagePoints(corners, ids)
    return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)


def calibrate(frames: list[np.ndarray]) -> Lens:
    """Calibrate from frames of the ChArUco board (all the same size).

    Raises CalibrationError with fewer than MIN_VIEWS usable views, views that
    do not vary enough (tilt, cover), or a result no camera has (see
    ``implausible``)."""
    if not frames:
        raise CalibrationError("lens: no frames")
    size = (frames[0].shape[1], frames[0].shape[0])
    objs, imgs = [], []
    for f in frames:
        if (f.shape[1], f.shape[0]) != size:
            raise CalibrationError("lens: frames of different sizes")
        found = find_board(f)
        if found is not None:
            objs.append(found[0])
            imgs.append(found[1])
    if len(objs) < MIN_VIEWS:
        raise CalibrationError(f"lens: the board was found in {len(objs)} frames, calibration needs {MIN_VIEWS}")
    again = "; nothing stored: film the board again, a dozen views tilted every way, out to the frame's corners"
    try:
        rms, K, dist, rvecs, _ = cv2.calibrateCamera(objs, imgs, size, None, None)
    except cv2.error:       # views so alike that its equations are degenerate
        raise CalibrationError(f"lens: OpenCV could not calibrate from these views{again}") from None
    normals = [cv2.Rodrigues(r)[0][:, 2] for r in rvecs]
    spread = max(np.degrees(np.arccos(min(1.0, abs(float(a @ b))))) for a in normals for b in normals)
    if spread < MIN_TILT_SPREAD_DEG:
        raise CalibrationError(f"lens: the board's views are tilted alike (at most {spread:.0f} degrees apart, "
                               f"calibration needs {MIN_TILT_SPREAD_DEG:g}){again}")
    hull = cv2.convexHull(np.concatenate(imgs).astype(np.float32))
    cover = cv2.contourArea(hull) / (size[0] * size[1])
    if cover < MIN_COVER:
        raise CalibrationError(f"lens: the board covered {cover:.0%} of the frame over all views, "
                               f"calibration needs {MIN_COVER:.0%}{again}")
    lens = Lens(K, dist.ravel(), size, float(rms), len(objs))
    wrong = implausible(lens)
    if wrong:
        raise CalibrationError(f"lens: the result is no camera's ({wrong}){again}")
    return lens


def implausible(lens: Lens) -> str | None:
    """What no real camera has in this lens, or None: f within FOCAL_RANGE of the frame's width,
    and the frame's border undistorting one-to-one (back to within 1 px) to an area within AREA_RANGE."""
    w, h = lens.image_size
    f = float(lens.camera_matrix[0, 0])
    lo, hi = (r * w for r in FOCAL_RANGE)
    if not lo <= f <= hi or not lo <= lens.camera_matrix[1, 1] <= hi:
        return f"f {f:.0f} px for a frame {w} px wide; a camera's is {lo:.0f}-{hi:.0f}"
    t = np.linspace(0.0, 1.0, 32, endpoint=False)
    border = np.concatenate([np.column_stack([t * w, 0 * t]), np.column_stack([w + 0 * t, t * h]),
                             np.column_stack([w - t * w, h + 0 * t]), np.column_stack([0 * t, h - t * h])])
    converge = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 200, 1e-9)
    flat = cv2.undistortPoints(border.reshape(-1, 1, 2), lens.camera_matrix, lens.dist, None, None,
                               lens.camera_matrix, converge).reshape(-1, 2)
    coeffs = " ".join(f"{name} {k:+.3f}" for name, k in zip(("k1", "k2", "p1", "p2", "k3"), lens.dist)
                      if name[0] == "k")
    if not np.isfinite(flat).all() or np.abs(lens.distort_points(flat) - border).max() > 1.0:
        return f"{coeffs} fold the frame's edge over on itself"
    area = cv2.contourArea(flat.astype(np.float32)) / (w * h)
    if not AREA_RANGE[0] <= area <= AREA_RANGE[1]:
        return f"{coeffs} would undistort the frame to {area:.2f} times its area"
    return None
