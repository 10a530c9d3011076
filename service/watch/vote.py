"""Several readings of one still table voted into one: ``vision.layout.vote`` (the record most frames
agree on, a split vote warned about), then how many frames saw each of its tiles where it lies."""

from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from vision.layout import Reading as LayoutReading
from vision.layout import vote

from ..reader import Detection, Reading

SAME_PLACE = 0.5        # boxes overlapping by this IoU in two frames are the same tile's place


def voted(readings: Sequence[Reading]) -> tuple[int, Reading]:
    """The index of the frame whose reading won the vote, and that reading with the vote's warnings
    and, on each detection, the share of frames that read the same tile at its place (``agree``)."""
    if not readings:
        raise ValueError("no readings to vote on")
    layout = [LayoutReading(dict(r.record or {}), list(r.warnings)) for r in readings]
    winner = vote(layout)
    i = next(k for k, r in enumerate(layout) if r.key() == winner.key())
    chosen = readings[i]
    detections = tuple(replace(d, agree=round(agreement(d, readings), 2)) for d in chosen.detections)
    return i, replace(chosen, detections=detections, warnings=tuple(winner.warnings))


def agreement(d: Detection, readings: Sequence[Reading]) -> float:
    """The share of readings with a detection of ``d``'s tile at ``d``'s place."""
    same = sum(any(e.tile == d.tile and iou(d, e) >= SAME_PLACE for e in r.detections) for r in readings)
    return same / len(readings)


def iou(a: Detection, b: Detection) -> float:
    x1, y1 = max(a.x, b.x), max(a.y, b.y)
    x2, y2 = min(a.x + a.w, b.x + b.w), min(a.y + a.h, b.y + b.h)
    inter = max(0, x2 - x1) * max(0, y2 - y1)
    union = a.w * a.h + b.w * b.h - inter
    return inter / union if union > 0 else 0.0
