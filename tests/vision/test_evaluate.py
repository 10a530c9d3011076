"""How the detector is scored: matching by overlap, and the figures the issue asks for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.evaluate import Report, iou, match


def tile(name, box, rotation=0, score=0.9):
    return {"tile": name, "box": list(box), "rotation": rotation, "score": score}


def test_a_detection_matches_the_tile_it_overlaps_by_half():
    truth = [tile("1p", (0, 0, 10, 10)), tile("2p", (20, 0, 30, 10))]
    dets = [tile("2p", (21, 0, 31, 10)), tile("1p", (6, 0, 16, 10))]     # IoU 0.82 and 0.25
    pairs = match(dets, truth)
    assert [(t["tile"], d["tile"]) for t, d in pairs] == [("2p", "2p")]
    assert iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(1 / 3)


def test_each_tile_is_matched_once_the_best_scored_detection_first():
    truth = [tile("5m", (0, 0, 10, 10))]
    dets = [tile("0m", (0, 0, 10, 10), score=0.6), tile("5m", (1, 0, 11, 10), score=0.95)]
    report = Report("t")
    report.add(dets, truth)
    assert report.matched == 1 and report.named == 1
    assert report.precision == 0.5 and report.recall == 1.0


def test_red_and_plain_fives_are_counted_apart():
    truth = [tile("0p", (0, 0, 10, 10)), tile("5p", (20, 0, 30, 10)), tile("5s", (40, 0, 50, 10))]
    dets = [tile("5p", (0, 0, 10, 10)), tile("0p", (20, 0, 30, 10)), tile("5s", (40, 0, 50, 10))]
    report = Report("t")
    report.add(dets, truth)
    assert report.red_plain() == {"red_as_plain": 1, "plain_as_red": 1, "reds": 1, "plain_fives": 2}
    assert report.accuracy == pytest.approx(1 / 3)
    assert report.per_class() == {"5p": (0, 1), "5s": (1, 1), "0p": (0, 1)}


def test_found_and_named_counts_missed_tiles_against_the_detector():
    truth = [tile("1z", (0, 0, 10, 10)), tile("2z", (20, 0, 30, 10)), tile("back", (40, 0, 50, 10))]
    report = Report("t")
    report.add([tile("1z", (0, 0, 10, 10), rotation=180), tile("back", (40, 0, 50, 10), rotation=90)], truth)
    assert report.recall == pytest.approx(2 / 3) and report.found_and_named == pytest.approx(2 / 3)
    # of the two face-up tiles (the back left out) one is found and named right
    assert (report.face_up_named, report.face_up) == (1, 2) and report.face_up_found_and_named == 0.5
    # a back's rotation is not scored; the 1z's is, and it is wrong
    assert (report.rotations_right, report.rotations_known) == (0, 1)
    assert report.to_dict()["rotation"] == 0.0


def test_rotations_the_labels_call_ambiguous_are_not_scored():
    report = Report("t")
    report.add([tile("1p", (0, 0, 10, 10), rotation=180)], [tile("1p", (0, 0, 10, 10))],
               ambiguous_rotation=["1p"])
    assert report.rotations_known == 0 and report.to_dict()["rotation"] is None


def test_rim_test_scenes_are_their_own_held_out_set(art):
    # evaluate --rim N: scenes from the rim test seeds, apart from every training and validation seed
    from vision.detect import Detector
    from vision.evaluate_run import RIM_TEST, run_evaluation
    from vision.synth.dataset import RIM_SEED
    from vision.build.train import OBLIQUE_VAL
    assert RIM_TEST >= RIM_SEED + OBLIQUE_VAL + 100_000
    reports = run_evaluation(scenes=0, rim=1, detector=Detector.for_view("oblique"), real=[])
    assert len(reports) == 1 and f"seeds {RIM_TEST}..{RIM_TEST}" in reports[0].name
    assert "rim" in reports[0].name and reports[0].truth > 0


def test_console_test_scenes_are_their_own_held_out_set(art):
    # evaluate --console N: scenes from the console test seeds, apart from every training and validation seed
    from vision.build.train import OBLIQUE_VAL
    from vision.detect import Detector
    from vision.evaluate_run import CONSOLE_TEST, run_evaluation
    from vision.synth.dataset import CONSOLE_SEED
    assert CONSOLE_TEST >= CONSOLE_SEED + OBLIQUE_VAL + 100_000
    reports = run_evaluation(scenes=0, console=1, detector=Detector.for_view("oblique"), real=[])
    assert len(reports) == 1 and f"seeds {CONSOLE_TEST}..{CONSOLE_TEST}" in reports[0].name
    assert "console" in reports[0].name and reports[0].truth > 0


def test_console_detail_test_scenes_are_their_own_held_out_set(art):
    # evaluate --details N: consoles with keys and compartments, from test seeds apart from their training ones
    from vision.build.train import OBLIQUE_VAL
    from vision.detect import Detector
    from vision.evaluate_run import DETAILS_TEST, run_evaluation
    from vision.synth.dataset import DETAILS_SEED
    assert DETAILS_TEST >= DETAILS_SEED + OBLIQUE_VAL + 100_000
    reports = run_evaluation(scenes=0, details=1, detector=Detector.for_view("oblique"), real=[])
    assert len(reports) == 1 and f"seeds {DETAILS_TEST}..{DETAILS_TEST}" in reports[0].name
    assert "keys and compartments" in reports[0].name


def test_seat_photo_test_scenes_are_their_own_held_out_set(art):
    # evaluate --seat N: photos from the winner's seat, from test seeds apart from their training ones
    from vision.build.train import OBLIQUE_VAL
    from vision.detect import Detector
    from vision.evaluate_run import SEAT_TEST, run_evaluation
    from vision.synth.dataset import SEAT_SEED
    assert SEAT_TEST >= SEAT_SEED + OBLIQUE_VAL + 100_000
    reports = run_evaluation(scenes=0, seat=1, detector=Detector.for_view("oblique"), real=[])
    assert len(reports) == 1 and f"seeds {SEAT_TEST}..{SEAT_TEST}" in reports[0].name
    assert "winner's seat" in reports[0].name and reports[0].truth >= 14


def test_evaluate_scores_the_seats_own_detector_when_asked(art, tmp_path):
    # evaluate --seat-detector: what the tablet reads a photo from the seat with, not --view's models
    import json

    from vision.evaluate_run import run_evaluation
    from vision.hand_photo import seat_detector
    r = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--scenes", "0", "--seat", "1", "--seat-detector",
                        "--photos", str(tmp_path), "--json"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    [seat] = json.loads(r.stdout)
    [want] = run_evaluation(scenes=0, seat=1, detector=seat_detector(), real=[])
    mine = {k: v for k, v in seat.items() if "ms" not in k}
    assert mine == {k: v for k, v in want.to_dict().items() if "ms" not in k}


def test_evaluate_takes_a_candidate_locator_and_tightly_boxed_truth(art, tmp_path):
    """evaluate --locator ONNX --tight-boxes: a candidate in the view's locator's place, scored on slanted
    test scenes boxed as a person boxes a photo (what a locator trained with --tight-boxes learnt)."""
    import json

    from vision.detect import LOCATOR, Detector
    from vision.evaluate_run import run_evaluation
    r = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--scenes", "0", "--oblique", "1", "--view",
                        "oblique", "--locator", str(LOCATOR), "--tight-boxes", "--photos", str(tmp_path), "--json"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    [got] = json.loads(r.stdout)
    assert "tight boxes" in got["set"]
    [want] = run_evaluation(scenes=0, oblique=1, detector=Detector.for_view("oblique", locator=LOCATOR), real=[],
                            tight_boxes=True)
    assert {k: v for k, v in got.items() if "ms" not in k} == {k: v for k, v in want.to_dict().items() if "ms" not in k}
    [plain] = run_evaluation(scenes=0, oblique=1, detector=Detector.for_view("oblique", locator=LOCATOR), real=[])
    assert "tight boxes" not in plain.to_dict()["set"]


def test_a_candidate_locator_that_is_no_file_exits_2_naming_it(tmp_path):
    r = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--locator", str(tmp_path / "no.onnx")],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "--locator" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("content", [b"version https://git-lfs.github.com/spec/v1\noid sha256:00\n", b""])
def test_a_candidate_locator_onnxruntime_cannot_load_exits_2_naming_it(tmp_path, content):
    # a Git LFS pointer left in the weights' place, or a file cut short to nothing
    bad = tmp_path / "locator.onnx"
    bad.write_bytes(content)
    r = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--scenes", "1", "--locator", str(bad)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert str(bad) in r.stderr and "not an ONNX model onnxruntime can load" in r.stderr


@pytest.mark.parametrize("flag", ["--scenes", "--oblique", "--rim", "--console", "--details", "--seat"])
def test_a_negative_count_of_test_scenes_exits_2_naming_it(flag):
    r = subprocess.run([sys.executable, "-m", "vision", "evaluate", flag, "-1"], capture_output=True, text=True)
    assert r.returncode == 2 and flag in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("edit, words", [
    (lambda d: d.__setitem__("image", 7), "needs 'image', a file name"),
    (lambda d: d["tiles"].__setitem__(0, 4), "tile 1 is not"),
    (lambda d: d["tiles"][2].__setitem__("box", [1, 2]), "tile 3 is not"),
    (lambda d: d["tiles"][1].__setitem__("rotation", "sideways"), "tile 2 is not"),
])
def test_a_labels_file_of_the_wrong_shape_exits_2_naming_the_tile(tmp_path, edit, words):
    labels = json.loads((Path(__file__).resolve().parents[2] / "vision" / "labels" / "hand-92345ff1.json").read_text())
    edit(labels)
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    r = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--scenes", "0", "--view", "oblique",
                        "--real", str(tmp_path / "labels.json"), "--photos", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert words in r.stderr


def test_rotation_of_kinds_with_an_up_is_also_told_apart():
    # an 8p reads the same both ways up, so its rotation counts in the whole figure only; a 1z's in both
    report = Report("t")
    report.add([tile("8p", (0, 0, 10, 10), rotation=180), tile("1z", (20, 0, 30, 10))],
               [tile("8p", (0, 0, 10, 10)), tile("1z", (20, 0, 30, 10))])
    r = report.to_dict()
    assert r["rotation"] == 0.5 and r["rotation_with_an_up"] == 1.0
    assert "kinds with an up 100.00%" in report.text()
