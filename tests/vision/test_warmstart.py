"""Fine-tuning starts from the shipped models: an ONNX file turned back into a checkpoint computes what it did.

Needs the training extra (torch, ultralytics, onnx), which the runtime and CI never install: skips without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ultralytics", reason="the training extra (ultralytics, torch) is not installed")
torch = pytest.importorskip("torch")

from vision.detect import CLASSIFIER, LOCATOR, VIEWS  # noqa: E402
from vision.build.warmstart import rebuild  # noqa: E402


def _onnx(path: Path, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort
    s = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return s.run(None, {s.get_inputs()[0].name: x})[0]


OBLIQUE_LOCATOR = VIEWS["oblique"][0]
# the overhead locator's export lost a bias of its box branch (model.22.cv2.2.2) to the graph's
# simplifier: it cannot be warm-started (a known gap of the training path; the oblique one can)
OVERHEAD_LOCATOR = pytest.param(LOCATOR, "yolov8n.yaml", (1, 3, 512, 512),
                                marks=pytest.mark.xfail(raises=ValueError, strict=True,
                                                        reason="no ONNX weight for model.22.cv2.2.2.bias"))


@pytest.mark.parametrize("path, yaml, shape", [(CLASSIFIER, "yolov8n-cls.yaml", (3, 3, 64, 64)),
                                               (OBLIQUE_LOCATOR, "yolov8n.yaml", (1, 3, 512, 512)),
                                               OVERHEAD_LOCATOR])
def test_the_rebuilt_model_computes_what_the_onnx_file_does(path, yaml, shape):
    x = np.random.default_rng(0).random(shape, dtype=np.float32)
    with torch.no_grad():
        out = rebuild(path, yaml)(torch.from_numpy(x))
    out = (out[0] if isinstance(out, (tuple, list)) else out).numpy()
    ref = _onnx(path, x)
    assert out.shape == ref.shape
    assert np.abs(out - ref).max() <= 1e-3 * max(1.0, float(np.abs(ref).max()))


def test_a_model_of_another_architecture_is_refused():
    with pytest.raises(ValueError, match="does not fit"):
        rebuild(CLASSIFIER, "yolov8s-cls.yaml")


def test_a_calibrated_rebuild_computes_the_same_while_training():
    """Training normalises each batch norm by its batch: rebuilt with identity batch norms the classifier
    then computes something else, calibrated on such batches it computes what the ONNX file does."""
    x = np.random.default_rng(1).random((8, 3, 64, 64), dtype=np.float32)
    ref = _onnx(CLASSIFIER, x)
    outs = {}
    for calibrated in (False, True):
        model = rebuild(CLASSIFIER, "yolov8n-cls.yaml", x if calibrated else None).train()
        with torch.no_grad():
            outs[calibrated] = torch.softmax(model(torch.from_numpy(x)), 1).numpy()
    assert np.abs(outs[True] - ref).max() <= 1e-3
    assert np.abs(outs[False] - ref).max() > 0.1


@pytest.mark.parametrize("path, yaml, shape", [(CLASSIFIER, "yolov8n-cls.yaml", (4, 3, 64, 64)),
                                               (OBLIQUE_LOCATOR, "yolov8n.yaml", (2, 3, 512, 512))])
def test_calibrating_leaves_what_the_model_computes_in_eval_mode(path, yaml, shape):
    x = np.random.default_rng(2).random(shape, dtype=np.float32)
    with torch.no_grad():
        out = rebuild(path, yaml, calibration=x)(torch.from_numpy(x[:1]))
    out = (out[0] if isinstance(out, (tuple, list)) else out).numpy()
    ref = _onnx(path, x[:1])
    assert np.abs(out - ref).max() <= 1e-3 * max(1.0, float(np.abs(ref).max()))
