"""Real tiles among the classifier's training cuts (``vision.build.real_cls``): only the fitting two
thirds, each seen upright, upside down and from the side, and the held-out third never."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

from vision.build.real_cls import real_training_cuts, seen_from_the_side, write_real_cuts
from vision.build.real_tiles import camerash, held_out
from vision.classifier import FLIP_SUFFIX, NONE
from vision.crop import CLS_SIZE


def framed(w: int = 60, h: int = 80) -> np.ndarray:
    """A white face with a black frame 3 px wide."""
    image = np.zeros((h, w, 3), np.uint8)
    image[3:-3, 3:-3] = 255
    return image


def dark_columns(row: np.ndarray) -> np.ndarray:
    return np.flatnonzero(row.max(axis=1) < 128)


def test_a_face_seen_from_the_side_keeps_its_width_and_loses_up_to_a_third_of_its_height():
    image = framed()
    for seed in range(10):
        h, w = seen_from_the_side(image, np.random.default_rng(seed)).shape[:2]
        assert w == image.shape[1] and 0.7 * image.shape[0] - 1 <= h <= image.shape[0]


def test_the_far_edge_narrows_for_most_seeds():
    image = framed()
    moved = 0
    for seed in range(10):
        side = seen_from_the_side(image, np.random.default_rng(seed))
        h, w = side.shape[:2]
        moved += dark_columns(side[int(0.15 * h), : w // 2]).max(initial=0) > \
            dark_columns(side[int(0.85 * h), : w // 2]).max(initial=0) + 1
    assert moved >= 5


@pytest.fixture(scope="module")
def crops():
    every = camerash()
    if not every:
        pytest.skip("../shared/real-tiles/camerash is missing")
    return every


def test_the_real_cuts_are_the_fitting_crops_upright_upside_down_and_from_the_side(crops):
    fitting = [kind for name, kind, _ in crops if not held_out(name)]
    cuts = real_training_cuts(variants=0)
    labels = Counter(label for label, _ in cuts)
    for kind, n in Counter(fitting).items():
        assert labels[kind] == 2 * n and labels[kind + FLIP_SUFFIX] == 2 * n
    assert labels[NONE] == 2 * len(fitting)
    assert sum(labels.values()) == 6 * len(fitting), "no held-out crop, nothing else"
    assert all(cut.shape == (CLS_SIZE, CLS_SIZE, 3) for _, cut in cuts)
    upright, turned = cuts[0][1], cuts[1][1]
    assert np.array_equal(turned, upright[::-1, ::-1])


def test_variants_multiply_the_tiles_and_land_in_the_classifiers_training_folders(crops, tmp_path):
    fitting = sum(not held_out(name) for name, _, _ in crops)
    written = write_real_cuts(tmp_path, variants=1)
    assert written == 2 * 2 * 2 * fitting + 2 * fitting
    folders = {p.name for p in (tmp_path / "cls" / "train").iterdir()}
    assert NONE in folders and "1z" in folders and "1z" + FLIP_SUFFIX in folders
    assert sum(1 for _ in (tmp_path / "cls" / "train").rglob("real_*.png")) == written


@pytest.mark.parametrize("flag, value", [("--real-variants", "-1"), ("--real-faces", "1.5"), ("--real-faces", "-0.1")])
def test_a_bad_count_or_share_of_real_tiles_exits_2_naming_it(tmp_path, flag, value):
    r = subprocess.run([sys.executable, "-m", "vision", "train", "--data", str(tmp_path), flag, value],
                       capture_output=True, text=True)
    assert r.returncode == 2 and flag in r.stderr and "Traceback" not in r.stderr


def test_real_faces_without_the_real_tiles_exit_2_saying_where_they_belong(tmp_path, monkeypatch, capsys):
    import vision.build.real_tiles as real_tiles
    from vision.__main__ import main

    monkeypatch.setattr(real_tiles, "REAL_TILES", tmp_path / "no-such-folder")
    assert main(["train", "--data", str(tmp_path), "--real-faces", "0.5"]) == 2
    assert "real-tiles/camerash" in capsys.readouterr().err
