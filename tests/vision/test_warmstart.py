"""Fine-tuning starts from the shipped models: an ONNX file turned back into a checkpoint computes what it did.

Needs the training extra (torch, ultralytics, onnx), which the runtime and CI never install: skips without it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ultralytics", reason="the training extra (ultralytics, torch) is not installed")
torch = pytest.importorskip("torch")

from vision.detect import CLASSIFIER, LOCATOR  # noqa: E402
from vision.build.warmstart import rebuild  # noqa: E402


def _onnx(path: Path, x: np.ndarray) -> np.ndarray:
    import onnxruntime as ort
    s = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return s.run(None, {s.get_inputs()[0].name: x})[0]


@pytest.mark.parametrize("path, yaml, shape", [(CLASSIFIER, "yolov8n-cls.yaml", (3, 3, 64, 64)),
                                               (LOCATOR, "yolov8n.yaml", (1, 3, 512, 512))])
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
