"""python -m vision read: a frame of the table to the hand record, and its refusals."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from calibration.markers import default_layout
from calibration.store import TableFile, save
from calibration.synth import SIZE, pose_homography, render, topdown


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "vision", "read", *args], capture_output=True, text=True)


@pytest.fixture
def tables(tmp_path):
    save(TableFile("t1"), tmp_path)            # a table calibrated once, with no homography stored yet
    return tmp_path


def test_a_frame_with_no_markers_and_no_stored_homography_exits_2_saying_so(tmp_path, tables):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((SIZE[1], SIZE[0], 3), 70, np.uint8))
    r = _cli(str(blank), "--table", "t1", "--tables", str(tables))
    assert r.returncode == 2 and "no homography" in r.stderr and "Traceback" not in r.stderr


def test_an_unknown_table_is_named(tmp_path, tables):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((64, 64, 3), 70, np.uint8))
    r = _cli(str(blank), "--table", "nope", "--tables", str(tables))
    assert r.returncode == 2 and "nope" in r.stderr


def test_an_empty_table_reads_no_hand_with_a_warning(tmp_path, tables):
    layout = default_layout()
    frame = render(topdown(layout), pose_homography(layout), np.random.default_rng(1))
    path = tmp_path / "empty.jpg"
    cv2.imwrite(str(path), frame)
    r = _cli(str(path), "--table", "t1", "--tables", str(tables), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["record"] == {} and any("no revealed hand" in w for w in out["warnings"])
