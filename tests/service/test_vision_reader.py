"""The vision reader plugged into the service's reader seam (TABLE_READER=service.vision_reader:from_env)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.markers import default_layout
from calibration.store import TableFile, save
from calibration.synth import SIZE, pose_homography, render, topdown
from scoring import score
from service.reader import NoReader, ReadContext, ReaderLoadError, load_reader
from service.reader_choice import AUTO, reader_for
from service.settings import DEMO_FRAMES, DEMO_HANDS
from service.vision_reader import ENV_TABLE, VisionReader
from vision.layout import record_diff


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


# --- the reader a table runs with (TABLE_READER=auto, the default) ------------------------------

def test_auto_on_the_demo_camera_reads_the_demo_tables():
    """The demo frames are whole tables after a win (service/demo/render.py); the demo table reads
    them from their rim markers alone. Their hands are in hands.json, as the layout stage writes them."""
    reader = reader_for(AUTO, demo_camera=True)
    assert isinstance(reader, VisionReader)
    hands = json.loads(DEMO_HANDS.read_text())
    assert sorted(hands) == sorted(p.name for p in DEMO_FRAMES.glob("*.jpg"))
    exact = 0
    for name, shown in hands.items():
        reading = reader.read(cv2.imread(str(DEMO_FRAMES / name)), ReadContext("dunhill", honba=1))
        assert reading.record is not None and reading.record["honba"] == 1, (name, reading.warnings)
        exact += record_diff(shown, dict(reading.record)) == []
        score(shown)                                   # each shows a hand that scores
    print(f"demo frames read exactly: {exact} of {len(hands)}")
    assert exact >= len(hands) - 1


def test_each_cut_carries_its_zone_and_the_zone_s_seat():
    # what a confirmed count teaches goes by them: the winner's own zones (service.learning)
    reader = reader_for(AUTO, demo_camera=True)
    name, shown = next(iter(json.loads(DEMO_HANDS.read_text()).items()))
    reading = reader.read(cv2.imread(str(DEMO_FRAMES / name)), ReadContext("dunhill"))
    hand = [c for c in reading.cuts if c.zone == "hand"]
    assert len(hand) >= 13 and {c.seat for c in hand} == {shown["seat"]}
    assert {c.seat for c in reading.cuts if c.zone == "dead_wall"} == {None}
    # the tablet's boxes carry the zone's kind alone
    assert {d.zone for d in reading.detections} <= {"hand", "melds", "gari", "discards", "dead_wall", ""}
    assert sum(d.zone == "hand" for d in reading.detections) == len(hand)


@pytest.mark.parametrize("turn, seat, pon_from", [(0, "south", "west"), (1, "east", "south"), (2, "west", "east")])
def test_the_record_names_this_deal_s_seats_as_the_deal_moves_on(turn, seat, pon_from):
    """The zones are named by the first deal's winds and keep their players; a hand record's east is
    the dealer. South's zone wins with a pon from West's zone: after one turn of the deal the South
    zone's player deals (east) and West's sits south; after two, they sit west and east. Before,
    the record kept the zones' names, and the tablet paid the wrong player from the second dealer on."""
    reader = reader_for(AUTO, demo_camera=True)
    shown = json.loads(DEMO_HANDS.read_text())["frame-02.jpg"]
    assert (shown["seat"], shown["melds"][0]["from"]) == ("south", "west")
    reading = reader.read(cv2.imread(str(DEMO_FRAMES / "frame-02.jpg")), ReadContext("dunhill", turn=turn))
    assert reading.record["seat"] == seat and [m["from"] for m in reading.record["melds"]] == [pon_from]
    assert {c.seat for c in reading.cuts if c.zone == "hand"} == {seat}      # what learning pairs them by


def test_auto_on_an_uncalibrated_camera_reads_nothing_and_says_how_to_calibrate():
    reader = reader_for(AUTO, calibration="", demo_camera=False)
    reading = reader.read(np.zeros((8, 8, 3), np.uint8), ReadContext("dunhill"))
    assert reading.record is None and not reading.installed
    assert "python -m calibration fit" in reading.warnings[0]


def test_auto_with_a_calibrated_table_reads_with_it(tmp_path, monkeypatch):
    monkeypatch.setenv("CALIBRATION_DIR", str(tmp_path))
    save(TableFile("t7"), tmp_path)
    assert reader_for(AUTO, calibration="t7").table.name == "t7"
    with pytest.raises(ReaderLoadError, match="nope"):
        reader_for(AUTO, calibration="nope")


def test_an_empty_reader_setting_installs_none():
    assert reader_for("", calibration="t7", demo_camera=True).read(
        np.zeros((8, 8, 3), np.uint8), ReadContext("dunhill")).warnings == (NoReader.MESSAGE,)


def test_a_table_file_changed_while_the_table_runs_is_read_from_the_next_frame(calibrated, tmp_path):
    """A refit, a lens or zones edited while the table runs were ignored until the service restarted.
    The file is read again when it changes; one that cannot be read leaves the table as it was, said."""
    reader = load_reader("service.vision_reader:from_env")
    frame = cv2.imread(str(DEMO_FRAMES / "frame-02.jpg"))
    first = reader.read(frame, ReadContext("dunhill"))
    assert first.record is not None and first.table["white_balance"] is None
    path = tmp_path / "t1.json"
    data = json.loads(path.read_text())
    data["white_balance"] = {"gains_bgr": [1.02, 1.0, 0.98]}
    path.write_text(json.dumps(data))
    assert reader.read(frame, ReadContext("dunhill")).table["white_balance"]["gains_bgr"] == [1.02, 1.0, 0.98]
    path.write_text("{")                                  # caught half written
    broken = reader.read(frame, ReadContext("dunhill"))
    assert broken.record == first.record and broken.table["white_balance"]["gains_bgr"] == [1.02, 1.0, 0.98]
    assert any("the table file changed but cannot be read" in w for w in broken.warnings)
    data["zones"] = [z for z in data["zones"] if not (z["kind"] == "hand" and z["seat"] == first.record["seat"])]
    data["white_balance"] = None
    path.write_text(json.dumps(data))
    moved = reader.read(frame, ReadContext("dunhill"))
    assert moved.record != first.record and not any("cannot be read" in w for w in moved.warnings)
