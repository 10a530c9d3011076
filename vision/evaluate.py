"""Scoring the detector against labelled tiles: found, named right, turned right, red fives apart.

A detection matches a labelled tile when their boxes overlap by IoU >= 0.5
(greedily, best score first, each tile once). Then:

    recall          labelled tiles matched / labelled tiles
    precision       detections matched / detections
    accuracy        matched tiles named right / matched tiles  (per-tile accuracy)
    found & named   tiles matched and named right / labelled tiles  (the real photo's target)
    rotation        matched face-up tiles turned right / those whose rotation can be told; and the same
                    for kinds with an up (not ``HALF_TURN_SAME``: a 8p's way up is a guess on real tiles)
    red vs plain    labelled red fives named as plain fives, and the reverse (a 3-4 point error)
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from .boxes import intersection, iou  # noqa: F401  (callers measure with these from here)
from .classes import BACK, CLASSES, HALF_TURN_SAME

ENV_PHOTOS = "TOUTENKOU_PHOTOS"
DEFAULT_PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "photos"
REAL_LABELS = Path(__file__).resolve().parent / "labels" / "amos-table-overhead.json"
IOU = 0.5


def photos_dir() -> Path:
    return Path(os.environ.get(ENV_PHOTOS) or DEFAULT_PHOTOS)


def on_clear_ground(box, clear: Iterable) -> bool:
    """Whether a box lies mostly (half its area or more) on one of the ``clear`` boxes: ground a photo's
    labels mark clear of tiles (felt, rails, the table's panels: ``clear`` in vision/labels)."""
    area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-9)
    return any(intersection(box, c) >= 0.5 * area for c in clear)


def match(detections: list[dict], truth: list[dict], threshold: float = IOU) -> list[tuple[dict, dict]]:
    """(truth tile, detection) pairs: greedy by detection score, each tile and detection used once."""
    pairs, used = [], set()
    for d in sorted(detections, key=lambda d: -d.get("score", 1.0)):
        best, best_iou = None, threshold
        for k, t in enumerate(truth):
            if k in used:
                continue
            v = iou(d["box"], t["box"])
            if v >= best_iou:
                best, best_iou = k, v
        if best is not None:
            used.add(best)
            pairs.append((truth[best], d))
    return pairs


@dataclass
class Report:
    """Counts gathered over images; the figures are properties."""

    name: str
    images: int = 0
    truth: int = 0
    detections: int = 0
    matched: int = 0
    named: int = 0
    face_up: int = 0             # labelled tiles that are not backs: the ones a player reads
    rotations_known: int = 0
    rotations_right: int = 0
    rotations_known_up: int = 0        # of those, tiles of kinds with an up (not HALF_TURN_SAME)
    rotations_right_up: int = 0
    confusion: Counter = field(default_factory=Counter)        # (truth class, named class) -> count
    milliseconds: list[float] = field(default_factory=list)

    def add(self, detections: list[dict], truth: list[dict], ms: float | None = None,
            ambiguous_rotation: Iterable[str] = ()) -> None:
        ambiguous = set(ambiguous_rotation)
        self.images += 1
        self.truth += len(truth)
        self.face_up += sum(t["tile"] != BACK for t in truth)
        self.detections += len(detections)
        for t, d in match(detections, truth):
            self.matched += 1
            self.named += t["tile"] == d["tile"]
            self.confusion[(t["tile"], d["tile"])] += 1
            if t["tile"] != BACK and t["tile"] not in ambiguous and "rotation" in t:
                self.rotations_known += 1
                self.rotations_right += t["rotation"] == d["rotation"]
                if t["tile"] not in HALF_TURN_SAME:
                    self.rotations_known_up += 1
                    self.rotations_right_up += t["rotation"] == d["rotation"]
        if ms is not None:
            self.milliseconds.append(ms)

    @property
    def recall(self) -> float:
        return self.matched / self.truth if self.truth else 0.0

    @property
    def precision(self) -> float:
        return self.matched / self.detections if self.detections else 0.0

    @property
    def accuracy(self) -> float:
        return self.named / self.matched if self.matched else 0.0

    @property
    def found_and_named(self) -> float:
        return self.named / self.truth if self.truth else 0.0

    @property
    def face_up_named(self) -> int:
        """Face-up tiles found and named right (backs left out)."""
        return sum(n for (t, d), n in self.confusion.items() if t == d != BACK)

    @property
    def face_up_found_and_named(self) -> float:
        """Found and named right over the face-up tiles only (backs left out)."""
        return self.face_up_named / self.face_up if self.face_up else 0.0

    def red_plain(self) -> dict[str, int]:
        """Red fives named plain, plain fives named red, and how many of each were matched."""
        out = {"red_as_plain": 0, "plain_as_red": 0, "reds": 0, "plain_fives": 0}
        for (t, d), n in self.confusion.items():
            if t in ("0m", "0p", "0s"):
                out["reds"] += n
                out["red_as_plain"] += n * (d == "5" + t[1])
            elif t in ("5m", "5p", "5s"):
                out["plain_fives"] += n
                out["plain_as_red"] += n * (d == "0" + t[1])
        return out

    def per_class(self) -> dict[str, tuple[int, int]]:
        """class -> (named right, matched)."""
        out: dict[str, list[int]] = {}
        for (t, d), n in self.confusion.items():
            row = out.setdefault(t, [0, 0])
            row[0] += n * (t == d)
            row[1] += n
        return {c: (out[c][0], out[c][1]) for c in CLASSES if c in out}

    def to_dict(self) -> dict:
        ms = sorted(self.milliseconds)
        return {
            "set": self.name, "images": self.images, "tiles": self.truth, "detections": self.detections,
            "recall": round(self.recall, 4), "precision": round(self.precision, 4),
            "accuracy": round(self.accuracy, 4), "found_and_named": round(self.found_and_named, 4),
            "face_up": self.face_up, "face_up_found_and_named": round(self.face_up_found_and_named, 4),
            "rotation": round(self.rotations_right / self.rotations_known, 4) if self.rotations_known else None,
            "rotation_with_an_up": (round(self.rotations_right_up / self.rotations_known_up, 4)
                                    if self.rotations_known_up else None),
            "red_plain": self.red_plain(),
            "per_class": {c: list(v) for c, v in self.per_class().items()},
            "confusions": sorted(([t, d, n] for (t, d), n in self.confusion.items() if t != d),
                                 key=lambda r: -r[2]),
            "ms_median": round(ms[len(ms) // 2], 1) if ms else None,
        }

    def text(self) -> str:
        r = self.to_dict()
        rp = r["red_plain"]
        lines = [
            f"{self.name}: {self.images} image(s), {self.truth} tiles, {self.detections} detections",
            f"  recall {r['recall']:.2%}  precision {r['precision']:.2%}  per-tile accuracy {r['accuracy']:.2%}"
            f"  found and named right {r['found_and_named']:.2%}"
            f" (face-up tiles {r['face_up_found_and_named']:.2%}: {self.face_up_named} of {self.face_up})",
            (f"  rotation right {r['rotation']:.2%}" + (f" (kinds with an up {r['rotation_with_an_up']:.2%})"
                                                         if r["rotation_with_an_up"] is not None else "")
             if r["rotation"] is not None else "  rotation: none to tell"),
            f"  red fives named plain {rp['red_as_plain']}/{rp['reds']}, "
            f"plain fives named red {rp['plain_as_red']}/{rp['plain_fives']}",
        ]
        if r["ms_median"] is not None:
            lines.append(f"  median {r['ms_median']} ms per image")
        worst = [f"{c} {a}/{n}" for c, (a, n) in self.per_class().items() if a < n]
        if worst:
            lines.append("  classes with misses: " + ", ".join(worst))
        if r["confusions"]:
            lines.append("  confusions (truth->named x n): " +
                         ", ".join(f"{t}->{d} x{n}" for t, d, n in r["confusions"][:15]))
        return "\n".join(lines)


def load_labels(path: Path) -> dict:
    """A labelled real image: {"image": file name, "tiles": [{tile, box, rotation}], ...}."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such labels file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a labels file (not JSON: {e})") from None
    if (not isinstance(data, dict) or not isinstance(data.get("tiles"), list)
            or not isinstance(data.get("image"), str) or not data["image"]):
        raise ValueError(f"{path}: not a labels file (needs 'image', a file name, and a 'tiles' list)")
    for k, tile in enumerate(data["tiles"]):
        if not (isinstance(tile, dict) and isinstance(tile.get("tile"), str) and _is_box(tile.get("box"))
                and isinstance(tile.get("rotation", 0), int)):
            raise ValueError(f"{path}: tile {k + 1} is not {{tile, box: [x1, y1, x2, y2], rotation}}")
    return data


def _is_box(box) -> bool:
    return (isinstance(box, list) and len(box) == 4
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box))


def labelled_photo(name: str) -> tuple[dict, Path]:
    """The labels ``vision/labels/<name>.json`` and where their photo lies (``photos_dir``; it may not be there)."""
    labels = load_labels(REAL_LABELS.parent / f"{name}.json")
    return labels, photos_dir() / labels["image"]
