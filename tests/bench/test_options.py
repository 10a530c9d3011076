"""The benches' shared options: a candidate model measured in the shipped one's place."""

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from options import add_classifier, labels_folder, onnx_file  # noqa: E402
from vision.detect import CLASSIFIER  # noqa: E402

# every bench that reads with a classifier takes a candidate in its place
CANDIDATE_BENCHES = ["bench_read.py", "bench_teach.py", "bench_learn.py", "bench_seat_lines.py", "bench_tileset.py"]


def test_a_candidate_must_be_a_file(tmp_path):
    model = tmp_path / "cand.onnx"
    model.write_bytes(b"onnx")
    assert onnx_file(str(model)) == model
    with pytest.raises(argparse.ArgumentTypeError, match="no ONNX file at"):
        onnx_file(str(tmp_path / "missing.onnx"))
    with pytest.raises(argparse.ArgumentTypeError, match="no ONNX file at"):
        onnx_file(str(tmp_path))                           # a folder is no model


def test_no_candidate_means_the_shipped_classifier():
    parser = argparse.ArgumentParser()
    add_classifier(parser, CLASSIFIER)
    assert parser.parse_args([]).classifier == CLASSIFIER
    assert parser.parse_args(["--classifier", __file__]).classifier == Path(__file__)


@pytest.mark.parametrize("bench", CANDIDATE_BENCHES)
def test_a_missing_candidate_is_exit_2_naming_it(bench, tmp_path):
    missing = tmp_path / "nowhere.onnx"
    r = subprocess.run([sys.executable, str(ROOT / "bench" / bench), "--classifier", str(missing)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2
    assert f"--classifier: no ONNX file at {missing}" in r.stderr
    assert "Traceback" not in r.stderr


def test_labels_must_be_a_folder_of_labels_files(tmp_path):
    with pytest.raises(argparse.ArgumentTypeError, match="no labels"):
        labels_folder(str(tmp_path / "missing"))
    with pytest.raises(argparse.ArgumentTypeError, match="no labels"):
        labels_folder(str(tmp_path))                       # a folder with none in it
    (tmp_path / "0123456789abcdef0123.json").write_text('{"image": "0123456789abcdef0123.jpg", "tiles": []}')
    assert labels_folder(str(tmp_path)) == tmp_path


@pytest.mark.parametrize("text, why", [("{", "not a labels file: Expecting"), ("[]", "it needs image and tiles"),
                                       ('{"image": "a.jpg"}', "it needs image and tiles"),
                                       ('{"image": "a.jpg", "tiles": [], "table": {"format": 0}}',
                                        "its table is no calibration")])
def test_a_file_in_the_labels_folder_that_is_no_labels_file_is_named(tmp_path, text, why):
    (tmp_path / "a.json").write_text('{"image": "a.jpg", "tiles": []}')
    (tmp_path / "b.json").write_text(text)
    with pytest.raises(argparse.ArgumentTypeError, match=f"{tmp_path / 'b.json'} is .*{why}"):
        labels_folder(str(tmp_path))


def test_bench_tileset_with_no_labels_there_is_exit_2_naming_the_folder(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_tileset.py"), "--labels", str(tmp_path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and f"--labels: no labels (*.json) in {tmp_path}" in r.stderr
    assert "Traceback" not in r.stderr
