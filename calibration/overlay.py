"""The zones and markers drawn over a frame, to check a fit by eye."""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from .homography import Fit, table_to_image
from .markers import MarkerLayout
from .zones import Zone

if TYPE_CHECKING:  # pragma: no cover
    from .lens import Lens

# BGR per zone kind.
COLOURS = {"hand": (0, 200, 255), "melds": (255, 120, 0), "gari": (200, 0, 200),
           "discards": (0, 220, 0), "dead_wall": (0, 0, 255)}


def _polyline(fit: Fit, pts_mm, lens, step_mm: float = 20.0) -> np.ndarray:
    # Edges are sampled so they bend with the lens, as the real table's do.
    pts = np.asarray(pts_mm, np.float64)
    dense = []
    for a, b in zip(pts, np.roll(pts, -1, axis=0)):
        n = max(1, int(np.linalg.norm(b - a) // step_mm))
        dense.extend(a + (b - a) * t for t in np.arange(n) / n)
    return np.round(table_to_image(fit, np.array(dense), lens)).astype(np.int32)


def draw_overlay(frame: np.ndarray, fit: Fit, layout: MarkerLayout, zones: list[Zone],
                 lens: "Lens | None" = None, debug=None) -> np.ndarray:
    """A copy of the frame with the felt, each zone (named) and each marker's square."""
    out = frame.copy() if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    thick = max(1, round(out.shape[1] / 800))
    x0, y0, x1, y1 = layout.felt
    cv2.polylines(out, [_polyline(fit, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]], lens)], True,
                  (255, 255, 255), thick)
    for z in zones:
        colour = COLOURS.get(z.kind, (255, 255, 255))
        poly = _polyline(fit, z.polygon, lens)
        cv2.polylines(out, [poly], True, colour, thick, cv2.LINE_AA)
        cx, cy = poly.mean(axis=0).astype(int)
        cv2.putText(out, z.name, (int(cx) - 40, int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick,
                    colour, thick, cv2.LINE_AA)
    for m in layout.markers:
        seen = m.id in fit.marker_ids and fit.fresh
        sq = _polyline(fit, layout.corners_mm(m.id), lens)
        cv2.polylines(out, [sq], True, (0, 255, 0) if seen else (0, 0, 255), thick)
        cv2.putText(out, str(m.id), tuple(int(v) for v in sq[0]), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5 * thick, (0, 255, 0) if seen else (0, 0, 255), thick, cv2.LINE_AA)
    if debug is not None:
        debug.write("overlay", out)
    return out
