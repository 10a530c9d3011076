"""Refit a classifier's last layer on real tiles as well as rendered cuts, and put it into its ONNX file.

The classifier learnt one rendered art. Its pooled features (the 1,280 values before the last
layer) already hold what tells real kinds apart across sets: a tile set enrolled on them names
real crops better than the classifier does. So the last layer (1,280 -> 76, a linear map and a
softmax) is fitted again, in NumPy, on the pooled features of:

* rendered cuts, the classifier's own training cuts (``vision.synth.crops``) of scenes in the
  view's training seeds, a third of them in many tile designs; and
* the fitting two thirds of the real single tiles (``vision.build.features.real_cuts``), each crop
  and ``VARIANTS`` variants, upright and upside down, and two cuts of no tile made from each
  (``real_nothing``: turned a quarter, and straddling it and the next crop),

the real cuts carrying ``REAL_SHARE`` of the loss, the weights pulled towards the trained ones
(``PULL``) so that what the rendered scenes taught stays. Real cuts are all tiles, so a refit
leans away from ``none`` (a box on felt or a rail): ``none``'s bias is then raised until boxes
off the tiles of rendered scenes neither layer saw (``CHECK``) are named tiles no more often than
the trained layer named them. The rest of the network is untouched:
the pooled features, the tile set's space and every set's crops stay as they were; ``output0``,
what names a tile with no set, changes. A file refitted once says so in its metadata (``refit``)
and is refused, so the pull is always towards weights learnt from rendered scenes::

    python -m vision.build.head models/tile-classifier.onnx --view overhead

Constants were chosen by two-fold cross-validation within the fitting two thirds (docs/vision.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from vision.classifier import NONE, Classifier

from .embedding import linear_head
from .features import NotAClassifier, model_and_view, pooled, real_cuts, real_nothing, rendered_cuts

REAL_SHARE = 0.1           # of the loss, carried by the real cuts
PULL = 1e-3                 # L2 pull of the weights towards the trained ones
VARIANTS = 4                # of each real crop besides itself
STEPS, RATE = 300, 0.01     # full-batch Adam
DESIGNS_SEED = 10_000       # a scene's seed plus this: the same layout drawn in many designs
# (first seed, scenes) of the view's training ranges (vision.synth.dataset): overhead, then oblique
SCENES = {"overhead": [(0, 300)], "oblique": [(0, 100), (3_000_000, 200)]}
# scenes in the training ranges that no model was trained on: where ``none`` is kept
CHECK = {"overhead": [(500_000, 200)], "oblique": [(500_000, 60), (3_400_000, 140)]}
HEAD = "refit"              # the metadata key (ultralytics writes its own "head")


def softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def refit(x: np.ndarray, y: np.ndarray, weight: np.ndarray, w0: np.ndarray, b0: np.ndarray,
          pull: float = PULL, steps: int = STEPS, rate: float = RATE) -> tuple[np.ndarray, np.ndarray]:
    """(W, b) minimising the ``weight``-ed cross-entropy of ``softmax(x @ W.T + b)`` against the class
    indices ``y``, plus ``pull / 2`` times the squared distance of (W, b) from (w0, b0); full-batch
    Adam from (w0, b0)."""
    x = x.astype(np.float64)
    params = [w0.astype(np.float64), b0.astype(np.float64)]
    start = [p.copy() for p in params]
    moments = [[np.zeros_like(p), np.zeros_like(p)] for p in params]
    target = np.zeros((len(y), len(b0)))
    target[np.arange(len(y)), y] = 1.0
    weight = weight / weight.sum()
    for t in range(1, steps + 1):
        g = (softmax(x @ params[0].T + params[1]) - target) * weight[:, None]
        grads = [g.T @ x + pull * (params[0] - start[0]), g.sum(axis=0) + pull * (params[1] - start[1])]
        for p, grad, (m, v) in zip(params, grads, moments):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            p -= rate * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return params[0].astype(np.float32), params[1].astype(np.float32)


def keep_refusals(x: np.ndarray, w: np.ndarray, b: np.ndarray, w0: np.ndarray, b0: np.ndarray,
                  none: int) -> np.ndarray:
    """``b`` with the ``none`` column raised (never lowered) until the cuts ``x``, all of nothing,
    are named something else by (w, b) no more often than by (w0, b0)."""
    def named_tiles(weights, bias) -> int:
        return int(np.sum(np.argmax(x @ weights.T + bias, axis=1) != none))

    allowed = named_tiles(w0, b0)
    raised = b.astype(np.float64)
    margin = x @ w.T + raised
    # the smallest raise that turns a cut to none is its best other logit minus its none logit
    others = np.delete(margin, none, axis=1).max(axis=1) - margin[:, none]
    needed = np.sort(others[others >= 0])                    # the cuts named tiles now
    if len(needed) > allowed:
        raised[none] += needed[len(needed) - allowed - 1] + 1e-4
    return raised.astype(np.float32)


def head_of(path: Path) -> tuple[np.ndarray, np.ndarray, dict]:
    """The last layer's weight (classes x features) and bias, and the file's metadata."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    gemm = linear_head(model.graph)
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    return init[gemm.input[1]], init[gemm.input[2]], {p.key: p.value for p in model.metadata_props}


def put_head(path: Path, w: np.ndarray, b: np.ndarray, about: dict) -> None:
    """Write (w, b) as ``path``'s last layer, in place, and ``about`` as its ``HEAD`` metadata."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    gemm = linear_head(model.graph)
    for name, value in ((gemm.input[1], w), (gemm.input[2], b)):
        old = next(i for i in model.graph.initializer if i.name == name)
        if tuple(old.dims) != value.shape:
            raise ValueError(f"{path.name}: {name} is {tuple(old.dims)}, the new one {value.shape}")
        old.CopyFrom(numpy_helper.from_array(value.astype(np.float32), name))
    for p in [p for p in model.metadata_props if p.key == HEAD]:
        model.metadata_props.remove(p)
    model.metadata_props.append(onnx.StringStringEntryProto(key=HEAD, value=json.dumps(about)))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def seeds_of(ranges: list[tuple[int, int]]) -> list[int]:
    """Every seed of (first seed, scenes) ranges."""
    return [s for first, n in ranges for s in range(first, first + n)]


def samples(classifier: Classifier, view: str) -> tuple[np.ndarray, list[str], np.ndarray, int]:
    """Pooled features, class names and loss weights of the rendered and the real cuts, and how many
    are real (the last ones)."""
    plain = seeds_of(SCENES[view])
    designed = [s + DESIGNS_SEED for s in seeds_of([(first, n // 2) for first, n in SCENES[view]])]
    real, real_labels = real_cuts(VARIANTS)
    nothing_real = real_nothing()
    real, real_labels = real + nothing_real, real_labels + [NONE] * len(nothing_real)
    drawn = [rendered_cuts(plain, 0.0), rendered_cuts(designed, 1.0)]
    cuts = [c for part, _ in drawn for c in part]
    labels = [lab for _, part in drawn for lab in part]
    weight = np.concatenate([np.full(len(labels), (1 - REAL_SHARE) / len(labels)),
                             np.full(len(real_labels), REAL_SHARE / len(real_labels))])
    return pooled(classifier, cuts + real), labels + real_labels, weight, len(real)


def nothing(classifier: Classifier, view: str) -> np.ndarray:
    """Pooled features of the boxes off the tiles (``none``) in the ``CHECK`` scenes, half of them
    in many designs."""
    cuts, labels = rendered_cuts(seeds_of(CHECK[view]), 0.5)
    return pooled(classifier, [c for c, lab in zip(cuts, labels) if lab == NONE])


def main(argv: list[str] | None = None) -> int:
    try:
        model, view, classifier = model_and_view("python -m vision.build.head", __doc__, SCENES, argv)
    except NotAClassifier as e:
        print(e, file=sys.stderr)
        return 2
    try:
        w0, b0, meta = head_of(model)
    except ImportError:
        print("refitting needs the onnx package (the train extra: pip install -e '.[train]')", file=sys.stderr)
        return 2
    if HEAD in meta:
        print(f"{model}: its last layer was refitted already ({meta[HEAD]}); refit the file the training "
              f"exported", file=sys.stderr)
        return 2
    if not classifier.has_embedding:
        print(f"{model}: no pooled features output; first: python -m vision.build.embedding {model}",
              file=sys.stderr)
        return 2
    try:
        x, labels, weight, real = samples(classifier, view)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    index = {n: i for i, n in enumerate(classifier.class_names)}
    w, fitted = refit(x, np.array([index[lab] for lab in labels]), weight, w0, b0)
    b = keep_refusals(nothing(classifier, view), w, fitted, w0, b0, index[NONE])
    about = {"fit": "last layer, rendered and real cuts", "cuts": len(labels), "real": real,
             "real_share": REAL_SHARE, "pull": PULL, "variants": VARIANTS,
             "none_raised": round(float(b[index[NONE]] - fitted[index[NONE]]), 4)}
    put_head(model, w, b, about)
    print(f"{model}: last layer refitted ({about})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
