"""The watcher's cheap look at a frame: is anything moving on the table, and whose hand zone shows
face-up tiles. A few milliseconds a frame, no detector.

The frame is shrunk (to about ``LOOK_PX_PER_MM`` on the table), and from it two small top-down
images are warped with the table's homography (refitted from the rim markers every ``REFIT_S``,
else the last good fit):

- the felt at ``FELT_PX_PER_MM``, grey and lightly blurred: ``motion`` is the share of its pixels
  that changed by more than ``MOTION_LEVEL`` grey levels since the previous look (an arm, a tile
  put down, the tiles pushed in; sensor noise and JPEG stay below it);
- each seat's hand zone as a strip at ``STRIP_PX_PER_MM``, the player's edge at the bottom:
  ``shown[seat]`` is how many face-up tiles it holds, counted as the length of the strip whose
  columns are ivory (unsaturated, brighter than the felt, as ``vision.read.ivory_share`` sees a
  face; over a pale felt by less, ``IVORY_OVER_FELT``) over at least ``FACE_MM`` of the zone's
  depth, divided by a tile's pitch. A row of backs shows only its thin body strip (under
  ``FACE_MM``), an empty rail shows felt: both count 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.homography import Fit, scale_px_per_mm, table_to_image
from calibration.store import TableFile
from calibration.tracker import Tracker
from calibration.whitebalance import apply_gains

LOOK_PX_PER_MM = 0.6      # the frame is halved while it holds more than twice this many pixels per mm
FELT_PX_PER_MM = 0.2      # the felt image motion is measured on (850 mm felt: 170 px)
STRIP_PX_PER_MM = 0.5     # a hand zone's strip
MOTION_LEVEL = 18         # grey levels: a pixel changed by more than this moved
FACE_MM = 12.0            # an ivory column this deep (of the zone's ~70 mm) is a face, not a back's body strip
IVORY_S = 70              # a face is unsaturated (HSV S below this) ...
IVORY_OVER_FELT = (20.0, 35.0, 0.33)   # ... and brighter than the felt by a third of the felt's headroom to
                                       # white, within these bounds: 35 over a dark felt, ~25 over a pale one
PITCH_MM = 27.0           # a tile's width and a hair: tiles per ivory length
REFIT_S = 2.0             # the markers are looked for again this often (16 ms at 1080p)
BLANK_STD = 1.5           # grey levels: a felt view flatter than this is no picture of the table (black, covered)


@dataclass(frozen=True)
class Look:
    """One frame seen cheaply: when, how much of the felt moved since the previous look (1.0 for the
    first), and the face-up tiles each seat's hand zone shows."""

    t: float
    motion: float
    shown: dict[str, float]

    def revealing(self, tiles: float) -> list[str]:
        """The seats whose hand zone shows at least ``tiles`` face-up tiles."""
        return sorted(s for s, n in self.shown.items() if n >= tiles)


def changed(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels that differ by more than MOTION_LEVEL between two felt images."""
    if a.shape != b.shape:
        return 1.0
    return float(np.count_nonzero(cv2.absdiff(a, b) > MOTION_LEVEL)) / a.size


class Looker:
    """Looks at one table's frames (its calibration: markers, zones, lens)."""

    def __init__(self, table: TableFile, refit_s: float = REFIT_S):
        self.table = table
        self.tracker = Tracker(table.layout, table.lens, last_good=table.fit)
        self.refit_s = refit_s
        self._fit_at: float | None = None
        self._warps: tuple | None = None       # (fit, frame size, scale, felt warp, {seat: strip warp})
        self._last: np.ndarray | None = None
        self.hands = [z for z in table.zones if z.kind == "hand" and z.seat]

    def look(self, frame: np.ndarray, t: float) -> Look:
        """Raises calibration's NoHomography while no markers have been seen and no fit is stored."""
        fit = self._fit(frame, t)
        scale, felt_m, strips = self._warp(fit, frame.shape[1], frame.shape[0])
        small = frame
        for _ in range(int(round(-np.log2(scale)))):      # halvings: INTER_AREA's fast path
            small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
        scale = small.shape[1] / frame.shape[1]
        if self.table.white_balance is not None:      # as the reader sees it: under a warm light the faces
            small = apply_gains(small, self.table.white_balance)   # were orange, not ivory, and none was seen
        x0, y0, x1, y1 = self.table.layout.felt
        size = (int(round((x1 - x0) * FELT_PX_PER_MM)), int(round((y1 - y0) * FELT_PX_PER_MM)))
        felt = cv2.warpPerspective(small, felt_m, size, flags=cv2.INTER_LINEAR)
        hsv = cv2.cvtColor(felt, cv2.COLOR_BGR2HSV)
        felt_v = float(np.median(hsv[..., 2]))
        grey = cv2.GaussianBlur(cv2.cvtColor(felt, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
        if float(grey.std()) < BLANK_STD:     # the last fit placed the felt on a picture of nothing
            raise CalibrationError("the camera's picture is blank (all black or one flat colour): a lens cap, "
                                   "the light off, or the camera's fault")
        motion = 1.0 if self._last is None else changed(grey, self._last)
        self._last = grey
        shown = {seat: self._tiles(small, m, sz, felt_v) for seat, (m, sz) in strips.items()}
        return Look(t, motion, shown)

    def reset(self) -> None:
        """Forget the previous frame (the next look counts as motion)."""
        self._last = None

    def _fit(self, frame: np.ndarray, t: float) -> Fit:
        size = (frame.shape[1], frame.shape[0])
        last = self.tracker.last_good
        if self._fit_at is None or t - self._fit_at >= self.refit_s or last is None or tuple(last.image_size) != size:
            self._fit_at = t
            try:
                return self.tracker.update(frame)
            except CalibrationError:
                # no markers now: the last fit, if it is for frames of this size (one for another size
                # placed the hand zones anywhere, and the watcher said "watching" for good)
                last = self.tracker.last_good
                if last is None or tuple(last.image_size) != size:
                    raise
        return self.tracker.last_good

    def _warp(self, fit: Fit, w: int, h: int):
        key = (id(fit), w, h)
        if self._warps is not None and self._warps[0] == key:
            return self._warps[1:]
        x0, y0, x1, y1 = self.table.layout.felt
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        ppm = max(scale_px_per_mm(fit, centre), 1e-6)
        scale = 0.5 ** max(0, int(np.floor(np.log2(ppm / LOOK_PX_PER_MM))))     # halvings down to ~LOOK_PX_PER_MM
        felt_corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        fw, fh = (x1 - x0) * FELT_PX_PER_MM, (y1 - y0) * FELT_PX_PER_MM
        felt_m = self._quad(fit, felt_corners, scale, [(0, 0), (fw, 0), (fw, fh), (0, fh)])
        strips = {}
        for z in self.hands:
            quad = _quad_of(z.polygon)
            along = float(np.linalg.norm(np.subtract(quad[1], quad[0])))
            deep = float(np.linalg.norm(np.subtract(quad[3], quad[0])))
            sw, sh = along * STRIP_PX_PER_MM, deep * STRIP_PX_PER_MM
            # the polygon runs (u0, v0) (u1, v0) (u1, v1) (u0, v1): the player's edge first; the strip
            # puts that edge at the bottom, the player's left on the left
            m = self._quad(fit, quad, scale, [(0, sh), (sw, sh), (sw, 0), (0, 0)])
            strips[z.seat] = (m, (int(round(sw)), int(round(sh))))
        self._warps = (key, scale, felt_m, strips)
        return scale, felt_m, strips

    def _quad(self, fit: Fit, mm, scale: float, to) -> np.ndarray:
        img = table_to_image(fit, mm, self.table.lens) * scale
        return cv2.getPerspectiveTransform(np.float32(img), np.float32(to))

    def _tiles(self, small: np.ndarray, m: np.ndarray, size: tuple[int, int], felt_v: float) -> float:
        strip = cv2.warpPerspective(small, m, size, flags=cv2.INTER_LINEAR)
        hsv = cv2.cvtColor(strip, cv2.COLOR_BGR2HSV)
        low, high, share = IVORY_OVER_FELT
        ivory = (hsv[..., 1] < IVORY_S) & (hsv[..., 2] > felt_v + min(high, max(low, share * (255 - felt_v))))
        deep = ivory.sum(axis=0)
        faces = np.count_nonzero(deep >= FACE_MM * STRIP_PX_PER_MM)
        return round(faces / (PITCH_MM * STRIP_PX_PER_MM), 2)


def _quad_of(polygon) -> list[tuple[float, float]]:
    """A zone's four corners: the polygon itself, or for another shape its minimum-area rectangle."""
    pts = [tuple(map(float, p)) for p in polygon]
    if len(pts) == 4:
        return pts
    box = cv2.boxPoints(cv2.minAreaRect(np.float32(pts)))
    return [tuple(map(float, p)) for p in box]
