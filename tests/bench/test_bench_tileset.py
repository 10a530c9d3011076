"""bench_tileset reads other labelled photos as it reads the project's: a table's confirmed photos of the hand."""

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import bench_tileset  # noqa: E402
from service.photo_labels import PhotoLabels  # noqa: E402
from service.reader import Detection, Reading  # noqa: E402

SNAPSHOT = "0123456789abcdef0123.jpg"
LINE = "1m 1m 1m 9m 9m 9m 1p 2p 3p 5s 6s 7s 4z 4z".split()


def test_a_tables_confirmed_photos_are_read_as_labelled_photos(tmp_path, monkeypatch):
    snapshots, labels = tmp_path / "snapshots", tmp_path / "labels"
    snapshots.mkdir()
    cv2.imwrite(str(snapshots / SNAPSHOT), np.zeros((48, 64, 3), np.uint8))
    reading = Reading("hand-photo", {}, tuple(Detection(t, 4 * i, 10, 4, 6, zone="hand") for i, t in enumerate(LINE)),
                      from_seat=True)
    kept = PhotoLabels(labels, {SNAPSHOT: (reading, (64, 48))}.get)
    kept.keep(SNAPSHOT, [{"concealed": "111999m123p567s44z", "win_tile": "4z"}])
    (labels / "ffffffffffffffffffff.json").write_text((labels / "0123456789abcdef0123.json").read_text()
                                                        .replace(SNAPSHOT, "ffffffffffffffffffff.jpg"))
    monkeypatch.setenv("TOUTENKOU_PHOTOS", str(snapshots))
    photos = bench_tileset.labelled_photos(labels)
    assert list(photos) == ["0123456789abcdef0123"]          # a label whose photo is not there is left out
    (snapshots / "ffffffffffffffffffff.jpg").write_bytes(b"no image")
    assert list(bench_tileset.labelled_photos(labels)) == ["0123456789abcdef0123"]     # nor one that is no image
    photo = photos["0123456789abcdef0123"]
    assert photo["path"] == snapshots / SNAPSHOT and photo["hand_line"] == LINE
    assert bench_tileset.hand_tiles(photo) == photo["tiles"]


def test_a_tables_confirmed_camera_frame_is_read_again_as_the_table_read_it(tmp_path, monkeypatch):
    import json
    import shutil

    from service.reader import ReadContext
    from service.settings import DEMO_FRAMES, DEMO_HANDS
    from service.vision_reader import VisionReader, demo_table

    snapshots, labels = tmp_path / "snapshots", tmp_path / "labels"
    snapshots.mkdir()
    shutil.copy(DEMO_FRAMES / "frame-03.jpg", snapshots / SNAPSHOT)
    frame = cv2.imread(str(snapshots / SNAPSHOT))
    truth = json.loads(DEMO_HANDS.read_text())["frame-03.jpg"]
    reading = VisionReader(demo_table()).read(frame, ReadContext(truth["rules"]))
    kept = PhotoLabels(labels, {SNAPSHOT: (reading, (frame.shape[1], frame.shape[0]))}.get)
    assert kept.keep(SNAPSHOT, [truth]) is not None
    monkeypatch.setenv("TOUTENKOU_PHOTOS", str(snapshots))
    photo = bench_tileset.labelled_photos(labels)["0123456789abcdef0123"]
    found, misses = bench_tileset.as_the_table_read(photo, frame, bench_tileset.Detector.for_view("overhead"))
    assert misses == []                                  # the hand record read is the count as confirmed
    score = bench_tileset.score_photo(found, photo)
    assert score["tiles"] >= 14 and score["right"] == score["tiles"] and score["red_plain"] == 0
    # the cuts are the table's own (upright, from the rectified table), for a set of this table's tiles
    assert all(d["cut"].shape == (64, 64, 3) for d in found if d["tile"] != "back")
    assert bench_tileset.tile_sets({"0123456789abcdef0123": photo})["table demo"] == ["0123456789abcdef0123"]


def test_a_hand_record_read_is_checked_against_the_count_as_confirmed_discards_aside():
    confirmed = {"seat": "south", "concealed": "123s", "win_tile": "3s", "dora_indicators": "5s", "discards": "9m"}
    assert bench_tileset.record_misses([confirmed], {**confirmed, "discards": "1p"}) == []
    assert bench_tileset.record_misses([confirmed], {**confirmed, "concealed": "124s"}) == ["concealed"]
    assert bench_tileset.record_misses([confirmed], None) == ["record"]
    assert bench_tileset.record_misses([], confirmed) == ["record"]
