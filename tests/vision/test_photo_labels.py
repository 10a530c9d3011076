"""The hand labels of the real AMOS table photo must be well formed and sit on tiles.

The structural checks always run.  The pixel checks need the photo at
``../shared/photos`` beside the repository (it is not copied into the project);
without it they skip.
"""

from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from vision.classes import BACK, CLASSES
from vision.evaluate import iou

REPO = Path(__file__).resolve().parents[2]
LABELS = REPO / "vision" / "labels" / "amos-table-overhead.json"

# A clean patch of bare felt (left of the bottom-left meld, no grooves, no tiles).
FELT_PATCH = (600, 2300, 720, 2420)


@pytest.fixture(scope="module")
def labels() -> dict:
    return json.loads(LABELS.read_text(encoding="utf-8"))


def _face_up(labels):
    return [t for t in labels["tiles"] if t["tile"] != BACK]


def test_the_file_names_its_photo_and_size(labels):
    assert labels["image"] == "amos-table-overhead.jpg"
    assert labels["size"] == [4096, 3072]
    assert labels["tiles"], "no tiles labelled"
    assert isinstance(labels.get("unreadable", []), list)


def test_every_tile_has_a_known_class_and_a_quarter_turn(labels):
    for t in labels["tiles"]:
        assert set(t) == {"tile", "box", "rotation"}, t
        assert t["tile"] in CLASSES, t
        assert t["rotation"] in (0, 90, 180, 270), t
        if t["tile"] == BACK:
            assert t["rotation"] == 0, t


# every box inside the image, every unreadable entry saying why: tests/vision/test_hand_labels.py, for all files


def test_no_face_up_tile_is_labelled_twice(labels):
    tiles = _face_up(labels)
    for a, b in combinations(tiles, 2):
        assert iou(a["box"], b["box"]) <= 0.5, (a, b)


def test_the_photo_has_the_labelled_size(labels, photo):
    h, w = photo.shape[:2]
    assert [w, h] == labels["size"]


def test_every_face_up_box_is_on_a_tile_not_bare_felt(labels, photo):
    import cv2

    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY).astype(np.float32)
    x1, y1, x2, y2 = FELT_PATCH
    felt = gray[y1:y2, x1:x2]
    felt_std, felt_top = float(felt.std()), float(np.percentile(felt, 99))
    assert felt_std < 10, f"the reference felt patch is not plain felt (std {felt_std:.1f})"
    for t in _face_up(labels):
        x1, y1, x2, y2 = t["box"]
        crop = gray[y1:y2, x1:x2]
        # Even a blank Haku has its edges and shading: well above the felt's grain ...
        assert crop.std() > 2.5 * felt_std, (t, float(crop.std()), felt_std)
        # ... and its ivory brighter than anything in a well-lit felt patch (the felt in the
        # shaded corners is far darker still).
        assert np.percentile(crop, 95) > felt_top + 5, (t, float(np.percentile(crop, 95)), felt_top)
