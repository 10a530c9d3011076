"""The vision reader plugged into the service's reader seam (TABLE_READER=service.vision_reader:from_env)."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.markers import default_layout
from calibration.store import TableFile, save
from calibration.synth import SIZE, pose_homography, render, topdown
from service.reader import ReadContext, ReaderLoadError, load_reader
from service.vision_reader import ENV_TABLE


@pytest.fixture
def calibrated(tmp_path, monkeypatch):
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path))
    monkeypatch.setenv(ENV_TABLE, "t1")
    save(TableFile("t1"), tmp_path)


def test_without_a_calibrated_table_the_reader_names_the_setting(monkeypatch):
    monkeypatch.delenv(ENV_TABLE, raising=False)
    with pytest.raises(ReaderLoadError, match=ENV_TABLE):
        load_reader("service.vision_reader:from_env")


def test_a_frame_without_markers_reads_nothing_and_says_why(calibrated):
    reader = load_reader("service.vision_reader:from_env")
    reading = reader.read(np.full((SIZE[1], SIZE[0], 3), 70, np.uint8), ReadContext("dunhill"))
    assert reading.record is None and "no homography" in reading.warnings[0]


def test_an_empty_table_reads_no_hand(calibrated):
    layout = default_layout()
    frame = render(topdown(layout), pose_homography(layout), np.random.default_rng(2))
    reading = load_reader("service.vision_reader:from_env").read(frame, ReadContext("balance", honba=2))
    assert reading.reader == "vision" and reading.record is None
    assert any("no revealed hand" in w for w in reading.warnings)
