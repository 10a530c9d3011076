"""A weight soup is the parameter-wise mean of fine-tunes of one model; the command refuses what is no soup."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from vision.build.soup import average


def test_floating_weights_are_averaged_and_counters_taken_from_the_first():
    a = {"conv.weight": np.array([1.0, 3.0], np.float32), "bn.num_batches_tracked": np.array(7)}
    b = {"conv.weight": np.array([3.0, 5.0], np.float32), "bn.num_batches_tracked": np.array(2)}
    out = average([a, b])
    assert out["conv.weight"].tolist() == [2.0, 4.0]
    assert int(out["bn.num_batches_tracked"]) == 7


def test_three_ingredients_weigh_the_same():
    states = [{"w": np.array([float(v)])} for v in (0, 3, 9)]
    assert average(states)["w"].tolist() == [4.0]


def test_models_of_other_architectures_are_no_soup():
    with pytest.raises(ValueError, match="not the same architecture"):
        average([{"a": np.zeros(2)}, {"b": np.zeros(2)}])
    with pytest.raises(ValueError, match="another shape"):
        average([{"a": np.zeros(2)}, {"a": np.zeros(3)}])


def _soup(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", "soup", *args], capture_output=True, text=True)


def test_a_missing_checkpoint_exits_2_naming_it(tmp_path):
    r = _soup(str(tmp_path / "a.pt"), str(tmp_path / "b.pt"), "--into", str(tmp_path / "out.onnx"))
    assert r.returncode == 2 and "a.pt" in r.stderr and "Traceback" not in r.stderr


def test_one_checkpoint_is_no_soup(tmp_path):
    (tmp_path / "a.pt").write_bytes(b"x")
    r = _soup(str(tmp_path / "a.pt"), "--into", str(tmp_path / "out.onnx"))
    assert r.returncode == 2 and "two checkpoints" in r.stderr
    assert not (tmp_path / "out.onnx").exists()


def test_a_soup_of_a_model_with_itself_computes_what_the_model_does(tmp_path):
    """End to end through ultralytics (the train extra; skipped where it is not installed, as in CI)."""
    pytest.importorskip("ultralytics", reason="the training extra (ultralytics, torch) is not installed")
    import onnxruntime as ort

    from vision.detect import CLASSIFIER
    from vision.build.soup import soup
    from vision.build.warmstart import checkpoint

    pts = [checkpoint(CLASSIFIER, "yolov8n-cls.yaml", tmp_path / f"{n}.pt") for n in "ab"]
    out = soup(pts, tmp_path / "soup.onnx")
    x = np.random.default_rng(1).random((2, 3, 64, 64), dtype=np.float32)

    def run(path):
        s = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        return s.run(None, {s.get_inputs()[0].name: x})[0]

    assert np.abs(run(out) - run(CLASSIFIER)).max() < 1e-4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pt", "b.pt", "soup.onnx"], "no leftovers"
