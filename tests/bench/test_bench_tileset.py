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
    photo = photos["0123456789abcdef0123"]
    assert photo["path"] == snapshots / SNAPSHOT and photo["hand_line"] == LINE
    assert bench_tileset.hand_tiles(photo) == photo["tiles"]
