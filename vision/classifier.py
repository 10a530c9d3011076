"""The tile classifier at run time: square cuts -> class probabilities and the pooled embedding.

The ONNX file (``models/tile-classifier.onnx``) gives the softmax over its 76
classes (each face upright and upside down, ``back``, ``none``) as its first
output and, where it has one, ``embedding``: what a table's tile set
(``vision.tileset``) compares cuts by. In the shipped files that is the pooled
features before the last layer and an earlier stage's map, beside a discriminant
of them fitted on real tiles of many sets (``vision/build/projection.py``);
``vision/build/embedding.py`` gives a file the pooled features alone.

Beside the file may lie its *kind priors* (``tile-classifier.kinds.npz``, ``priors_path``): each
kind's mean embedding over real tiles of many makers, upright and upside down
(``vision/build/priors.py``). A tile set weighs them into its prototypes as a few crops more
(``vision.tileset.PRIOR_WEIGHT``). They belong to one classifier file: the ``classifier`` id they
were made on must be this file's, or they are not used.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cached_property
from pathlib import Path
from typing import Sequence

import numpy as np

from .classes import BACK, CLASSES
from .runtime import blob, session

NONE = "none"                # the classifier's "no tile here"
FLIP_SUFFIX = "_ud"          # an upside-down cut's class: "5m_ud" (the training folders use the same names)
EMBEDDING = "embedding"
RUNNERS_UP = 3           # a cut keeps this many next likeliest faces ...
RUNNER_UP_FLOOR = 0.005  # ... each with at least this probability (a misread's true face is mostly among them)
PRIORS_SUFFIX = ".kinds.npz"    # beside ``tile-classifier.onnx``: ``tile-classifier.kinds.npz``


def _names(sess) -> list[str]:
    """The class names ultralytics writes into the ONNX metadata (``{0: 'back', 1: '0m', ...}``)."""
    meta = sess.get_modelmeta().custom_metadata_map
    names = ast.literal_eval(meta["names"])
    return [names[i] for i in range(len(names))]


def priors_path(model: Path) -> Path:
    """Where a classifier file's kind priors lie: beside it, ``<name>.kinds.npz``."""
    model = Path(model)
    return model.with_name(model.stem + PRIORS_SUFFIX)


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` scaled to length 1 along its last axis (a zero vector stays zero): embeddings are
    compared by cosine, the product of unit vectors."""
    return v / np.maximum(np.linalg.norm(v, axis=-1, keepdims=True), 1e-12)


def file_id(path: Path) -> str:
    """A short content hash of a model file: what a tile set records as the base it was built on."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


class Classifier:
    """One classifier session. ``read(cuts)`` -> (probabilities, embeddings or None)."""

    def __init__(self, path: Path, threads: int = 2):
        self.path = Path(path)
        self.session = session(self.path, threads)
        self.id = file_id(self.path)
        self.class_names = _names(self.session)
        self._outputs = [o.name for o in self.session.get_outputs()]
        self.has_embedding = EMBEDDING in self._outputs
        # columns of the output that add up to each of our 38 classes (and none)
        self.columns = {c: [i for i, n in enumerate(self.class_names) if n in (c, c + FLIP_SUFFIX)]
                        for c in (*CLASSES, NONE)}
        self.flipped = np.array([n.endswith(FLIP_SUFFIX) for n in self.class_names])
        self._summed = [c for c, cols in self.columns.items() if cols]
        self._sum = np.zeros((len(self.class_names), len(self._summed)), np.float32)    # output -> class
        for j, c in enumerate(self._summed):
            self._sum[self.columns[c], j] = 1.0
        self.faces = [c for c in self._summed if c != NONE]     # what a cut may be named, in totals' order
        self._face_sum = self._sum[:, [j for j, c in enumerate(self._summed) if c != NONE]]

    @cached_property
    def priors(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each kind's prior, upright and upside down (unit embeddings), from the file beside this one
        (``priors_path``); none where there is no such file or it was made on another classifier."""
        path = priors_path(self.path)
        if not self.has_embedding or not path.is_file():
            return {}
        with np.load(path) as z:
            if str(z["classifier"]) != self.id:
                return {}
            kinds, up, down = z["kinds"], z["up"], z["down"]     # each z[name] unzips its array anew: once
        return {str(k): (up[i], down[i]) for i, k in enumerate(kinds)}

    def read(self, cuts: list[np.ndarray], batch: int = 64) -> tuple[np.ndarray, np.ndarray | None]:
        """Probabilities (rows: cuts; columns: ``class_names``) and, where the model has it, the
        embedding of each square BGR cut."""
        if not cuts:
            return np.zeros((0, len(self.class_names)), np.float32), None
        out = self.outputs(cuts, self._outputs[:2] if self.has_embedding else self._outputs[:1], batch)
        return out[0], (out[1] if self.has_embedding else None)

    def outputs(self, cuts: list[np.ndarray], names: list[str], batch: int = 64) -> list[np.ndarray]:
        """The named outputs of the model for the square BGR cuts (at least one), in batches (a model
        exported with a fixed batch gets its last batch padded)."""
        inp = self.session.get_inputs()[0]
        fixed = inp.shape[0] if isinstance(inp.shape[0], int) else None
        step = fixed or batch
        parts: list[list[np.ndarray]] = [[] for _ in names]
        for k in range(0, len(cuts), step):
            part = cuts[k:k + step]
            pad = (fixed - len(part)) if fixed else 0
            for got, out in zip(parts, self.session.run(names, {inp.name: blob(part + [part[-1]] * pad)})):
                got.append(out[:len(part)])
        return [np.concatenate(p) for p in parts]

    def totals(self, p: np.ndarray) -> dict[str, float]:
        """Each class's probability summed over both ways up (``none`` included)."""
        return dict(zip(self._summed, (p @ self._sum).tolist()))

    def face_totals(self, probs: np.ndarray) -> np.ndarray:
        """N cuts' probabilities (N x outputs) summed over both ways up into each of ``faces`` (N x F,
        ``none`` left out), in double precision."""
        return (np.asarray(probs, np.float32) @ self._face_sum).astype(np.float64)

    def none_totals(self, probs: np.ndarray) -> np.ndarray:
        """N cuts' probability of holding no tile (``none`` over both ways up; N values, 0 where the
        model has no such class), in double precision."""
        cols = self.columns[NONE]
        return np.asarray(probs, np.float32)[:, cols].sum(axis=1).astype(np.float64)

    def upside_down(self, p: np.ndarray, tile: str) -> bool:
        """Whether the cut reads as ``tile`` upside down rather than upright."""
        cols = self.columns[tile]
        return bool(self.flipped[cols[int(np.argmax(p[cols]))]])


def runners_up(totals: dict[str, float], tile: str, n: int = RUNNERS_UP,
               floor: float = RUNNER_UP_FLOOR) -> tuple[tuple[str, float], ...]:
    """The faces other than ``tile`` given ``floor`` or more in ``totals`` (each face's share: the
    classifier's, or a tile set's), likeliest first, at most ``n`` (neither ``none`` nor a back: a
    hand's tile misread is another face)."""
    faces = [k for k in totals if k != NONE]
    return ranked_runners_up(np.array([totals[k] for k in faces]), faces, tile, n, floor)


def ranked_runners_up(shares: np.ndarray, faces: Sequence[str], tile: str, n: int = RUNNERS_UP,
                      floor: float = RUNNER_UP_FLOOR) -> tuple[tuple[str, float], ...]:
    """``runners_up`` of one cut's ``shares`` of ``faces`` (an array in their order; ``none`` not among
    them), as a tile set names a frame's cuts: ties keep the faces' order."""
    out = []
    for j in np.argsort(-shares, kind="stable"):
        if shares[j] < floor or len(out) == n:
            break
        if faces[j] not in (tile, BACK):
            out.append((faces[j], round(float(shares[j]), 4)))
    return tuple(out)
