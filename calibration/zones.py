"""Where things lie on the table: named polygons in table millimetres.

Three seats on three sides (East at the bottom, South on the right, West at the
top, the North side empty, as in markers.py). Per seat: ``hand`` (the revealed
hand, along the player's edge), ``melds`` (to the player's right, out to the
corner), ``gari`` (the set-aside gari, the row in front of the hand) and
``discards`` (towards the centre). Plus ``dead_wall`` on the empty North side,
where the dora indicators are turned up.

Zones are data: the default is built from one seat-local template, turned to
each side; the table file stores the resulting polygons and anyone may edit
them there. ``zone_at`` returns the first zone in file order that holds a point,
so a small zone listed before a large one wins.
"""

from __future__ import annotations

import math

from dataclasses import dataclass

from .errors import CalibrationError
from .markers import MarkerLayout

SEATS = ("east", "south", "west")
KINDS = ("hand", "melds", "gari", "discards", "dead_wall")

# Seat-local rectangles (u0, u1, v0, v1) in mm: u along the player's edge of the
# felt, to the player's right, 0 at the edge's middle; v from that edge towards
# the centre. Sizes fit 26 x 35 mm tiles: a hand of 14 is ~370 mm, melds of up
# to four kans need the corner, discards run six to a row.
SEAT_TEMPLATE = {
    "hand": (-200.0, 200.0, 5.0, 75.0),
    "melds": (200.0, 420.0, 5.0, 110.0),
    "gari": (-200.0, 200.0, 80.0, 150.0),
    "discards": (-95.0, 95.0, 190.0, 330.0),
}
DEAD_WALL = (-150.0, 150.0, 5.0, 120.0)     # on the empty side, same local frame
MIN_ON_FELT = 0.5           # of a zone's area: less, and it was drawn for another table
REMAKE = 'set "zones" to null in the table file and the default zones for its markers are made'


@dataclass(frozen=True)
class Zone:
    """A named polygon in table mm; ``seat`` is None for the table's own zones."""
    name: str
    kind: str
    seat: str | None
    polygon: tuple[tuple[float, float], ...]

    def contains(self, point) -> bool:
        """Even-odd rule; a point on the boundary may fall either way."""
        x, y = float(point[0]), float(point[1])
        inside = False
        pts = self.polygon
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
        return inside

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "seat": self.seat,
                "polygon": [[round(x, 2), round(y, 2)] for x, y in self.polygon]}

    @classmethod
    def from_dict(cls, d: dict) -> "Zone":
        try:
            poly = tuple((float(p[0]), float(p[1])) for p in d["polygon"])
            zone = cls(str(d["name"]), str(d["kind"]), d.get("seat"), poly)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise CalibrationError(f"zones: bad zone {d!r:.60} ({type(e).__name__})") from None
        if len(poly) < 3:
            raise CalibrationError(f"zones: {zone.name}: a polygon needs 3 points")
        if not all(math.isfinite(v) for p in poly for v in p):     # NaN: a zone where nothing is ever read
            raise CalibrationError(f"zones: {zone.name}: a polygon's points must be numbers (mm), not NaN or inf")
        if zone.kind not in KINDS:
            raise CalibrationError(f"zones: {zone.name}: kind must be one of {', '.join(KINDS)}")
        if zone.seat is not None and zone.seat not in SEATS:
            raise CalibrationError(f"zones: {zone.name}: seat must be one of {', '.join(SEATS)} or null")
        # a zone is named <seat>.<kind> (the overlay and show print the name): a seat edited apart from
        # its name credited the wrong player with a win, where no check by eye could see it
        named_seat, dot, named_kind = zone.name.partition(".")
        if dot and ((named_seat in SEATS and named_seat != zone.seat)
                    or (named_kind in KINDS and named_kind != zone.kind)):
            raise CalibrationError(f"zones: {zone.name}: its name says {named_seat}'s {named_kind}; its fields "
                                   f"say seat {zone.seat}, kind {zone.kind}")
        return zone


def side_frame(layout: MarkerLayout, side: str):
    """(edge middle, inward unit vector, player's-right unit vector) of a side of the felt."""
    x0, y0, x1, y1 = layout.felt
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    mid, inward = {
        "east": ((cx, y1), (0.0, -1.0)),
        "south": ((x1, cy), (-1.0, 0.0)),
        "west": ((cx, y0), (0.0, 1.0)),
        "north": ((x0, cy), (1.0, 0.0)),
    }[side]
    right = (-inward[1], inward[0])          # facing `inward`, the right hand (y down)
    return mid, inward, right


def _rect(layout: MarkerLayout, side: str, u0: float, u1: float, v0: float, v1: float):
    (mx, my), (ix, iy), (rx, ry) = side_frame(layout, side)
    return tuple((mx + u * rx + v * ix, my + u * ry + v * iy)
                 for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1)))


def default_zones(layout: MarkerLayout) -> list[Zone]:
    """The template turned to each seat, plus the dead wall on the North side."""
    zones = [Zone(f"{seat}.{kind}", kind, seat, _rect(layout, seat, *box))
             for seat in SEATS for kind, box in SEAT_TEMPLATE.items()]
    zones.append(Zone("dead_wall", "dead_wall", None, _rect(layout, "north", *DEAD_WALL)))
    return zones


def off_felt(zones: list[Zone], layout: MarkerLayout) -> list[Zone]:
    """The zones with less than MIN_ON_FELT of their area on the layout's felt: no tile
    lying on the felt is ever found in them (zones kept from a bigger table, say)."""
    off = []
    for z in zones:
        area = _area(z.polygon)
        if area > 0 and _area(_clip(z.polygon, layout.felt)) < MIN_ON_FELT * area:
            off.append(z)
    return off


def _area(polygon) -> float:
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]))) / 2


def _clip(polygon, rect) -> tuple:
    """The part of ``polygon`` inside ``rect`` (x0, y0, x1, y1), by Sutherland-Hodgman."""
    x0, y0, x1, y1 = rect
    pts = tuple(polygon)
    for axis, bound, side in ((0, x0, 1), (1, y0, 1), (0, x1, -1), (1, y1, -1)):
        inside = [side * (p[axis] - bound) >= 0 for p in pts]
        out = []
        for i, (a, b) in enumerate(zip(pts, pts[1:] + pts[:1])):
            if inside[i]:
                out.append(a)
            if inside[i] != inside[(i + 1) % len(pts)]:
                t = (bound - a[axis]) / (b[axis] - a[axis])
                out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
        pts = tuple(out)
        if not pts:
            break
    return pts


def zone_at(zones: list[Zone], point) -> Zone | None:
    """The first zone (file order) holding ``point`` (table mm), or None."""
    return next((z for z in zones if z.contains(point)), None)


def zones_to_list(zones: list[Zone]) -> list[dict]:
    return [z.to_dict() for z in zones]


def zones_from_list(data) -> list[Zone]:
    if not isinstance(data, list):
        raise CalibrationError("zones: expected a list of zones")
    zones = [Zone.from_dict(d) for d in data]
    names = [z.name for z in zones]
    if len(set(names)) != len(names):
        raise CalibrationError("zones: a zone name is used twice")
    return zones
