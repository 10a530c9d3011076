"""Geometry of axis-aligned boxes ``(x1, y1, x2, y2)`` in image pixels, shared by the detector at run
time and by what measures it (``vision.evaluate``)."""

from __future__ import annotations


def area(box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


def around(a, b) -> tuple[float, float, float, float]:
    """The smallest box holding both."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def intersection(a, b) -> float:
    """The area two boxes share; 0 when they do not overlap."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    return iw * ih if iw > 0 and ih > 0 else 0.0


def iou(a, b) -> float:
    """Intersection over union."""
    inter = intersection(a, b)
    if inter == 0:
        return 0.0
    return inter / (area(a) + area(b) - inter)


def inside_share(a, b) -> float:
    """Intersection over the smaller box's area."""
    inter = intersection(a, b)
    if inter == 0:
        return 0.0
    return inter / min(area(a), area(b))
