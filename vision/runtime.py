"""What every ONNX model of the detector shares at run time: loading a session, feeding it images."""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import numpy as np


class ModelMissing(FileNotFoundError):
    """The ONNX weights are not where they were looked for."""


class ModelUnreadable(ModelMissing):
    """A model file is there but onnxruntime cannot load it: cut short, corrupt, or a Git LFS pointer
    a clone without git-lfs left in the weights' place. Caught where ``ModelMissing`` is."""


def session(path: Path, threads: int):
    """An onnxruntime CPU session for ``path``, on ``threads`` threads."""
    import onnxruntime as ort

    if not path.is_file():
        raise ModelMissing(f"model file not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    # a frame is many short runs of four sessions with NumPy between them: threads left spinning after
    # a run hold the cores that work needs (the demo frames read in 105-114 ms without, 145-163 with)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # onnxruntime raises its own types (InvalidProtobuf, Fail, ...), none of them a RuntimeError
    state = ort.capi.onnxruntime_pybind11_state
    unloadable = tuple(getattr(state, n) for n in ("Fail", "InvalidProtobuf", "InvalidArgument", "InvalidGraph",
                                                   "NoSuchFile", "RuntimeException", "NotImplemented")
                       if hasattr(state, n))
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except unloadable as e:
        first = (str(e).splitlines() or [type(e).__name__])[0]
        raise ModelUnreadable(f"{path}: not an ONNX model onnxruntime can load ({first[:160]}); "
                              "a shipped model: check models/ out again (models/README.md)") from None


def blob(images: list[np.ndarray]) -> np.ndarray:
    """BGR uint8 images -> NCHW float32 RGB 0..1."""
    x = np.stack(images)[..., ::-1].transpose(0, 3, 1, 2)
    return np.ascontiguousarray(x, dtype=np.float32) / 255.0


@lru_cache(maxsize=1)
def _blas():
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()       # finds the loaded BLAS libraries once (about a millisecond)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """NumPy's BLAS on one thread for the products inside. A tile set compares a frame's cuts with its
    prototypes in one product (about 150 cuts x 3,402 values x 74 prototypes); OpenBLAS splits it over
    every core, and where another process or the detector's own ONNX threads hold a core its threads
    wait on each other: 60 cuts took a median of 72 ms so on this 2-core machine with another bench
    running, against 0.7 ms on one thread (docs/vision.md, "Naming a cut"). Entering and leaving
    costs about 30 microseconds."""
    with _blas().limit(limits=1, user_api="blas"):
        yield
