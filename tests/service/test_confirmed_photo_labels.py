"""A confirmed photo of the hand is kept as a labelled real photo: the line's boxes, each named as the
players confirmed it, in vision/labels' format, beside the snapshot it labels."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import cv2

import pytest
from fastapi.testclient import TestClient

from calibration.store import TableFile
from service.app import create_app
from service.learning import face_up_tiles
from service.photo_labels import PhotoLabels, photo_labels
from service.reader import Detection, Reading
from service.settings import DEMO_FRAMES, DEMO_HANDS
from vision.classes import HALF_TURN_SAME
from vision.detect import Detector
from vision.evaluate import load_labels, photos_dir

from table_fixtures import PIN, PLAYERS

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1920, 1440)


def line_of(tiles: list[str], rotation: int = 0) -> Reading:
    """A photo from the seat whose line holds ``tiles``, left to right, 100 px apart."""
    return Reading("hand-photo", {}, tuple(Detection(t, 100 * i, 500, 90, 120, zone="hand", rotation=rotation)
                                           for i, t in enumerate(tiles)), from_seat=True)


HAND = "1m 1m 1m 9m 9m 9m 1p 2p 3p 5s 6s 7s 4z 4z".split()


def test_a_line_read_right_is_labelled_box_by_box_in_its_order():
    label = photo_labels(line_of(HAND, rotation=180), SIZE, "0123456789abcdef0123.jpg",
                         [{"concealed": "111999m123p567s44z", "win_tile": "4z", "gari": "4z4z"}])
    assert label["image"] == "0123456789abcdef0123.jpg" and label["size"] == [1920, 1440]
    assert label["hand_line"] == HAND                      # the gari lie apart: not in the line
    assert [t["tile"] for t in label["tiles"]] == HAND
    assert label["tiles"][2] == {"tile": "1m", "box": [200, 500, 290, 620], "rotation": 180, "group": "hand"}


def test_the_players_one_fix_is_the_name_of_the_box_they_fixed():
    read = HAND[:9] + ["3s"] + HAND[10:]                   # 5s read as 3s; confirmed as 5s
    label = photo_labels(line_of(read), SIZE, "a.jpg", [{"concealed": "111999m123p567s44z", "win_tile": "4z"}])
    assert label["hand_line"] == HAND and "3s" in label["notes"]


def test_a_line_of_thirteen_is_labelled_though_the_hand_holds_a_fourteenth():
    label = photo_labels(line_of(HAND[:13]), SIZE, "a.jpg", [{"concealed": "111999m123p567s44z", "win_tile": "4z"}])
    assert label["hand_line"] == HAND[:13]


@pytest.mark.parametrize("read, why", [
    (HAND[:8] + ["4p", "3s"] + HAND[10:], "two fixes: which box became which tile is not known"),
    (HAND + ["7z"], "a box the players took away"),
    (HAND[:12] + ["5z"], "a fix and a tile the line did not show: two tiles unmatched"),
])
def test_a_line_the_confirmed_hand_does_not_name_box_by_box_is_not_labelled(read, why):
    confirmed = [{"concealed": "111999m123p567s44z", "win_tile": "4z"}]
    assert photo_labels(line_of(read), SIZE, "a.jpg", confirmed) is None, why


def test_a_closed_kans_backs_are_labelled_backs():
    read = HAND[:6] + ["back", "2z", "2z", "back"] + HAND[10:]
    records = [{"concealed": "111999m567s44z", "win_tile": "4z", "melds": [{"kind": "ankan", "tiles": "2222z"}]}]
    label = photo_labels(line_of(read), SIZE, "a.jpg", records)
    assert label["hand_line"] == read
    # without a closed kan in the hand, a back in the line is no tile the players confirmed
    assert photo_labels(line_of(read), SIZE, "a.jpg", [{"concealed": "111999m2z2z567s44z", "win_tile": "4z"}]) is None


def test_a_reading_neither_from_the_seat_nor_from_the_table_camera_is_not_labelled():
    neither = Reading("vision", {}, line_of(HAND).detections, from_seat=False)
    assert photo_labels(neither, SIZE, "a.jpg", [{"concealed": "111999m123p567s44z", "win_tile": "4z"}]) is None


# ---- the table camera's frame ----------------------------------------------------------------------------

COUNT = {"rules": "dunhill", "concealed": "222234444888s66z", "win_tile": "4s", "dora_indicators": "5s"}
CALIBRATION = {"format": 1, "table": "t1", "zones": []}


def frame_of(read: list[tuple[str, str]]) -> Reading:
    """The table camera's frame read as ``read`` (tile, zone), each face a quarter turned in the frame."""
    return Reading("vision", {}, tuple(Detection(t, 40 * i, 300, 30, 40, zone=z, rotation=90)
                                       for i, (t, z) in enumerate(read)), table=CALIBRATION)


SEEN = ([(t, "hand") for t in "2s 2s 2s 2s 3s 4s 4s 4s 4s 8s 8s 8s 6z 6z".split()]
        + [("5s", "dead_wall"), ("back", "dead_wall"), ("back", "dead_wall"), ("9m", "discards"), ("7z", "")])


def test_a_table_frame_is_labelled_in_the_zones_a_count_names_with_the_calibration_it_was_read_with():
    label = photo_labels(frame_of(SEEN), SIZE, "f.jpg", [COUNT])
    assert [(t["tile"], t["zone"]) for t in label["tiles"]] == SEEN[:17]     # no discard, nothing outside a zone
    assert label["tiles"][0] == {"tile": "2s", "box": [0, 300, 30, 340], "rotation": 90, "zone": "hand"}
    assert {t["rotation"] for t in label["tiles"] if t["tile"] == "back"} == {0}
    assert label["table"] == CALIBRATION and label["rules"] == "dunhill" and "hand_line" not in label


def test_the_players_one_fix_names_the_box_they_fixed_and_the_dead_walls_backs_stay_backs():
    read = [("5z", "dead_wall") if (t, z) == ("back", "dead_wall") else (t, z) for t, z in SEEN[:16]] + SEEN[16:]
    fixed = [("3s", "hand") if i == 4 else (t, z) for i, (t, z) in enumerate(SEEN)]     # 3s read as 5s
    fixed[4] = ("5s", "hand")
    assert [t["tile"] for t in photo_labels(frame_of(fixed), SIZE, "f.jpg", [COUNT])["tiles"]][4] == "3s"
    # a back read as 白 on the dead wall, which the players took off the indicators: a back
    assert [t["tile"] for t in photo_labels(frame_of(read), SIZE, "f.jpg", [COUNT])["tiles"]][15] == "back"
    # the indicator fixed (read 5s, a 6s), its dead wall's backs read as backs: each box named
    label = photo_labels(frame_of(SEEN), SIZE, "f.jpg", [{**COUNT, "dora_indicators": "6s"}])
    assert [t["tile"] for t in label["tiles"]][14:] == ["6s", "back", "back"]


def test_a_closed_kans_backs_in_the_melds_are_labelled_backs_on_the_table_frame():
    count = {"concealed": "123s", "win_tile": "3s", "melds": [{"kind": "ankan", "tiles": "7777z"}],
             "dora_indicators": "5s"}
    read = [("1s", "hand"), ("2s", "hand"), ("3s", "hand"), ("back", "melds"), ("7z", "melds"), ("7z", "melds"),
            ("back", "melds"), ("5s", "dead_wall"), ("back", "dead_wall")]
    assert [t["tile"] for t in photo_labels(frame_of(read), SIZE, "f.jpg", [count])["tiles"]] == [t for t, _ in read]
    # without the closed kan, the backs in the melds are no tiles the players confirmed
    assert photo_labels(frame_of(read), SIZE, "f.jpg", [{**count, "concealed": "123s77z", "melds": []}]) is None


def test_a_double_rons_two_hands_and_their_one_dead_wall_are_labelled_together():
    first = {"concealed": "123s", "win_tile": "3s", "dora_indicators": "5s"}
    second = {"concealed": "789p", "win_tile": "9p", "dora_indicators": "5s"}
    read = [(t, "hand") for t in "1s 2s 3s 7p 8p 9p".split()] + [("5s", "dead_wall"), ("back", "dead_wall")]
    label = photo_labels(frame_of(read), SIZE, "f.jpg", [first, second])
    assert [t["tile"] for t in label["tiles"]] == [t for t, _ in read] and len(label["records"]) == 2


@pytest.mark.parametrize("read, why", [
    (SEEN[:3] + SEEN[4:], "a tile of the hand the reader did not box: the labels would leave it out"),
    ([("1p", "hand"), ("1p", "hand")] + SEEN[2:], "two fixes: which box became which tile is not known"),
    (SEEN + [("7z", "hand")], "a box in the hand the players took away"),
    (SEEN[:14] + [("back", "hand")] + SEEN[14:], "a back in a hand with no closed kan"),
])
def test_a_table_frame_the_count_does_not_name_box_by_box_is_not_labelled(read, why):
    assert photo_labels(frame_of(read), SIZE, "f.jpg", [COUNT]) is None, why


def test_labels_are_written_whole_and_read_back_as_the_projects_labels(tmp_path):
    readings = {"0123456789abcdef0123.jpg": (line_of(HAND), SIZE)}
    kept = PhotoLabels(tmp_path / "labels", readings.get)
    path = kept.keep("0123456789abcdef0123.jpg", [{"concealed": "111999m123p567s44z", "win_tile": "4z"}])
    assert path == tmp_path / "labels" / "0123456789abcdef0123.json"
    assert load_labels(path)["hand_line"] == HAND
    assert [p.name for p in path.parent.iterdir()] == [path.name]          # no part file left
    assert kept.keep("ffffffffffffffffffff.jpg", [{"concealed": "111m"}]) is None      # no reading of it
    assert kept.keep(None, []) is None
    assert PhotoLabels(None, readings.get).keep("0123456789abcdef0123.jpg", [{"concealed": "1m"}]) is None


def test_keeping_labels_never_fails_a_confirm(tmp_path, caplog):
    def broken(snapshot):
        raise OSError("disk gone")
    assert PhotoLabels(tmp_path, broken).keep("a.jpg", [{"concealed": "111m"}]) is None
    assert "could not be kept as labels" in caplog.text


# ---- at the table: a photo of the hand read, confirmed, kept ---------------------------------------------

LABELS = json.loads((ROOT / "vision" / "labels" / "hand-92345ff1.json").read_text(encoding="utf-8"))
PHOTO = photos_dir() / LABELS["image"]
DRAFT = {"hand": "1", "seat": "south", "win": "tsumo", "gari": "", "melds": "[]"}


def _confirmed_photo(settings, keep: bool) -> tuple[Path, str]:
    if not PHOTO.is_file():
        pytest.skip(f"{PHOTO} is not here (../shared/photos)")
    roomy = settings.model_copy(update={"max_upload_bytes": 2_000_000, "keep_photo_labels": keep})
    with TestClient(create_app(roomy), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "balance", "players": PLAYERS}).json()["id"]
        r = client.post(f"/api/read/hand-photo", data={"seat": "south", "win": "tsumo", "session": sid},
                        files={"image": (PHOTO.name, PHOTO.read_bytes(), "image/jpeg")})
        assert r.status_code == 200, r.text
        read = r.json()
        done = client.post(f"/api/sessions/{sid}/wins", json={"records": [read["record"]],
                                                               "snapshot": read["snapshot"]})
        assert done.status_code == 201, done.text
    return roomy.photo_labels_dir, read["snapshot"]


def test_a_confirmed_photo_of_the_hand_is_kept_as_labels_beside_its_snapshot(settings):
    folder, snapshot = _confirmed_photo(settings, keep=True)
    label = load_labels(folder / snapshot.replace(".jpg", ".json"))
    assert label["image"] == snapshot and label["hand_line"] == LABELS["hand_line"]
    assert (folder.parent / "snapshots" / snapshot).is_file()
    # the boxes are the reader's, on the labelled tiles drawn by eye
    by_eye = [t["box"] for t in LABELS["tiles"] if t["group"] == "hand"]
    assert all(_iou(t["box"], b) >= 0.5 for t, b in zip(label["tiles"], by_eye))


def test_with_the_setting_off_no_labels_are_kept(settings):
    folder, _ = _confirmed_photo(settings, keep=False)
    assert not folder.exists() or not any(folder.iterdir())


def _iou(a, b) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


# ---- at the table: the table camera's frame read, confirmed, kept ---------------------------------------

SHOWN = json.loads(DEMO_HANDS.read_text())["frame-01.jpg"]       # the hand the demo camera shows first


def test_a_confirmed_count_of_the_table_camera_is_kept_as_labels_its_tiles_turned_as_the_frame_shows_them(settings):
    still = settings.model_copy(update={"camera_fps": 0.01})
    with TestClient(create_app(still), headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": "dunhill", "players": PLAYERS}).json()["id"]
        page = client.post(f"/s/{sid}/count", data={"hand": "1"})
        snapshot = re.search(r'name="snapshot" value="([0-9a-f]{20}\.jpg)"', page.text).group(1)
        form = {"snapshot": snapshot, "hand": "1", "seat": SHOWN["seat"], "win": "tsumo", "melds": "[]",
                **{k: SHOWN[k] for k in ("concealed", "win_tile", "dora_indicators")}}
        assert client.post(f"/s/{sid}/confirm", data=form).status_code == 204
    label = load_labels(still.photo_labels_dir / snapshot.replace(".jpg", ".json"))
    faces = [t for t in label["tiles"] if t["tile"] != "back"]
    assert Counter(t["tile"] for t in faces) == Counter(face_up_tiles([SHOWN])[0])
    assert {t["zone"] for t in label["tiles"] if t["tile"] == "back"} == {"dead_wall"}
    assert TableFile.from_dict(label["table"]).name == "demo" and label["rules"] == "dunhill"
    # each face, cut from the frame at its box and read by the classifier, is the tile named, turned as kept
    frame = cv2.imread(str(still.snapshot_dir / snapshot))
    read = Detector().name_boxes(frame, [t["box"] for t in faces])
    assert [d.tile for d in read] == [t["tile"] for t in faces]
    assert all(d.rotation % 180 == t["rotation"] % 180 if t["tile"] in HALF_TURN_SAME else d.rotation == t["rotation"]
               for d, t in zip(read, faces))


def test_a_count_read_through_the_api_is_remembered_and_kept_as_labels_too(settings):
    frame = (DEMO_FRAMES / "frame-02.jpg").read_bytes()
    truth = {k: v for k, v in json.loads(DEMO_HANDS.read_text())["frame-02.jpg"].items() if k != "discards"}
    with TestClient(create_app(settings.model_copy(update={"max_upload_bytes": 2_000_000})),
                    headers={"X-Table-PIN": PIN}) as client:
        sid = client.post("/api/sessions", json={"rules": truth["rules"], "players": PLAYERS}).json()["id"]
        read = client.post("/api/read", data={"session": sid}, files={"image": ("f.jpg", frame, "image/jpeg")}).json()
        done = client.post(f"/api/sessions/{sid}/wins", json={"records": [truth], "snapshot": read["snapshot"]})
        assert done.status_code == 201, done.text
    label = load_labels(settings.photo_labels_dir / read["snapshot"].replace(".jpg", ".json"))
    assert Counter(t["tile"] for t in label["tiles"] if t["tile"] != "back") == Counter(face_up_tiles([truth])[0])
    assert [r["concealed"] for r in label["records"]] == [truth["concealed"]]      # the count as confirmed
