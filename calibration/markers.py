"""The ArUco markers on the table rim: dictionary, ids, size and where each one sits.

Table coordinates are millimetres on the table top seen from above, origin at
the top-left outer corner, x to the right, y down (the image a camera over the
table would see when rectified). Seats: East at the bottom edge, South on the
right, West at the top, the left (North) side empty; turn order runs
counter-clockwise seen from above, as at any mahjong table.

Every marker is a black ArUco square of ``size_mm`` inside a white quiet zone of
``quiet_mm`` (the white patch white balance reads). A marker with rotation 0 is
glued with its printed top towards y = 0 (the West seat's edge); ``rotation``
turns it clockwise in steps of 90 degrees.
"""

from __future__ import annotations

import math

from dataclasses import dataclass, field

import cv2
import numpy as np

from .errors import CalibrationError

# 4x4 bits: the biggest cells for a given marker size, so the markers still
# decode at ~1 px/mm from a camera 1.3 m up. 50 ids are plenty for one rim.
DEFAULT_DICTIONARY = "DICT_4X4_50"


MAX_SIDE_MM = 5000.0        # no mahjong table is 5 m a side: a larger number is a typo
MIN_MARKERS = 4             # a homography needs four points


@dataclass(frozen=True)
class MarkerPlace:
    """One marker: its id, its centre in table mm, its rotation (0/90/180/270, clockwise)."""
    id: int
    center: tuple[float, float]
    rotation: int = 0


@dataclass(frozen=True)
class MarkerLayout:
    """The table top, its felt, and the markers on the rim, all in table millimetres."""
    table_mm: tuple[float, float] = (1000.0, 1000.0)
    rim_mm: float = 75.0
    size_mm: float = 45.0
    quiet_mm: float = 7.0
    dictionary: str = DEFAULT_DICTIONARY
    markers: tuple[MarkerPlace, ...] = field(default_factory=tuple)

    @property
    def felt(self) -> tuple[float, float, float, float]:
        """The play surface inside the rim: (x0, y0, x1, y1) in table mm."""
        w, h = self.table_mm
        return (self.rim_mm, self.rim_mm, w - self.rim_mm, h - self.rim_mm)

    @property
    def ids(self) -> list[int]:
        return [m.id for m in self.markers]

    def place(self, marker_id: int) -> MarkerPlace | None:
        return next((m for m in self.markers if m.id == marker_id), None)

    def corners_mm(self, marker_id: int, half: float | None = None) -> np.ndarray:
        """The marker's four corners in table mm, in ArUco's order (its top-left,
        top-right, bottom-right, bottom-left as printed). ``half`` overrides the
        half side (to outline the quiet zone)."""
        m = self.place(marker_id)
        if m is None:
            raise CalibrationError(f"marker {marker_id} is not in the layout")
        h = self.size_mm / 2 if half is None else half
        square = np.array([[-h, -h], [h, -h], [h, h], [-h, h]], dtype=np.float64)
        turns = (m.rotation // 90) % 4
        a = np.deg2rad(90 * turns)        # clockwise on screen = counter-clockwise in y-up maths
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return square @ rot.T + np.asarray(m.center, dtype=np.float64)

    def to_dict(self) -> dict:
        return {
            "table_mm": list(self.table_mm), "rim_mm": self.rim_mm,
            "size_mm": self.size_mm, "quiet_mm": self.quiet_mm,
            "dictionary": self.dictionary,
            "markers": [{"id": m.id, "center": list(m.center), "rotation": m.rotation}
                        for m in self.markers],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "MarkerLayout":
        try:
            markers = tuple(MarkerPlace(int(m["id"]), (float(m["center"][0]), float(m["center"][1])),
                                        int(m.get("rotation", 0))) for m in d["markers"])
            layout = cls(table_mm=(float(d["table_mm"][0]), float(d["table_mm"][1])),
                         rim_mm=float(d["rim_mm"]), size_mm=float(d["size_mm"]),
                         quiet_mm=float(d["quiet_mm"]), dictionary=str(d["dictionary"]),
                         markers=markers)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CalibrationError(f"markers: bad layout ({type(e).__name__}: {e})") from None
        layout.validate()
        return layout

    def validate(self) -> None:
        """A layout that can fit a table, else CalibrationError naming what cannot: a size typed
        wrong in a table file by hand (a rim of 750 for 75, a side of 0) divided by zero at every
        frame, or fitted nothing, where it should be refused at load."""
        dictionary(self.dictionary)       # raises for an unknown name
        w, h = self.table_mm
        if not all(math.isfinite(x) and 0 < x <= MAX_SIDE_MM for x in (w, h)):
            raise CalibrationError(f"markers: table_mm must be two sides of 1-{MAX_SIDE_MM:.0f} mm, not {[w, h]}")
        if not (math.isfinite(self.rim_mm) and 0 < self.rim_mm < min(w, h) / 2):
            raise CalibrationError(f"markers: rim_mm must be more than 0 and less than half the table's "
                                   f"shorter side ({min(w, h) / 2:g} mm), not {self.rim_mm:g}")
        if not (math.isfinite(self.size_mm) and 0 < self.size_mm <= self.rim_mm * 2):
            raise CalibrationError(f"markers: size_mm must be more than 0 and fit the rim, not {self.size_mm:g}")
        if not (math.isfinite(self.quiet_mm) and 0 <= self.quiet_mm <= self.size_mm):
            raise CalibrationError(f"markers: quiet_mm must be 0 to the marker's size, not {self.quiet_mm:g}")
        if len(self.markers) < MIN_MARKERS:
            raise CalibrationError(f"markers: a table needs at least {MIN_MARKERS} markers to be fitted, "
                                   f"not {len(self.markers)}")
        off = [m.id for m in self.markers
               if not all(math.isfinite(c) and 0 <= c <= side for c, side in zip(m.center, (w, h)))]
        if off:
            raise CalibrationError(f"markers: marker(s) {off} lie off the table ({w:g} x {h:g} mm)")
        ids = self.ids
        if len(set(ids)) != len(ids):
            raise CalibrationError("markers: an id is used twice")
        n = dictionary(self.dictionary).bytesList.shape[0]
        if any(not 0 <= i < n for i in ids):
            raise CalibrationError(f"markers: ids must be 0..{n - 1} in {self.dictionary}")
        if any(m.rotation % 90 for m in self.markers):
            raise CalibrationError("markers: rotation must be a multiple of 90")


def default_layout() -> MarkerLayout:
    """Nine markers centred on a 75 mm rim of a 1000 mm table: the four corners
    (least often under an arm), two more on the empty North side, and one at the
    middle of each seat's side."""
    w, h, r = 1000.0, 1000.0, 75.0
    c = r / 2
    places = [
        (0, (c, c)), (1, (w - c, c)), (2, (w - c, h - c)), (3, (c, h - c)),   # corners
        (4, (c, 350.0)), (5, (c, 650.0)),                                     # North, empty
        (6, (w / 2, c)), (7, (w - c, h / 2)), (8, (w / 2, h - c)),            # West, South, East
    ]
    return MarkerLayout(table_mm=(w, h), rim_mm=r,
                        markers=tuple(MarkerPlace(i, p) for i, p in places))


def dictionary(name: str) -> cv2.aruco.Dictionary:
    """OpenCV's predefined dictionary by name, e.g. ``DICT_4X4_50``."""
    code = getattr(cv2.aruco, name, None)
    if not name.startswith("DICT_") or not isinstance(code, int):
        raise CalibrationError(f"markers: unknown ArUco dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(code)


def marker_image(layout: MarkerLayout, marker_id: int, side_px: int) -> np.ndarray:
    """The marker as printed: black square ``side_px`` wide (grayscale, no quiet zone)."""
    return cv2.aruco.generateImageMarker(dictionary(layout.dictionary), marker_id, side_px, borderBits=1)
