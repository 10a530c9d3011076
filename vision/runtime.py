"""What every ONNX model of the detector shares at run time: loading a session, feeding it images."""

from __future__ import annotations

from pathlib import Path

import numpy as np


class ModelMissing(FileNotFoundError):
    """The ONNX weights are not where they were looked for."""


def session(path: Path, threads: int):
    """An onnxruntime CPU session for ``path``, on ``threads`` threads."""
    import onnxruntime as ort

    if not path.is_file():
        raise ModelMissing(f"model file not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def blob(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images -> NCHW float32 RGB 0..1."""
    x = np.stack(images)[..., ::-1].transpose(0, 3, 1, 2)
    return np.ascontiguousarray(x, dtype=np.float32) / 255.0
