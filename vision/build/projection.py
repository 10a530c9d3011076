"""Fit the space a table's tile set compares cuts in, and put it into a classifier's ONNX file.

The classifier's pooled features (1,280 values) were learnt on one rendered art; in them a kind's
tiles of different sets lie apart, so a prototype enrolled from a few crops names other crops of
its kind less well. Two things help. The map of an earlier stage (``STAGES``: at 64 px a 4x4
grid of 128 channels) keeps where a glyph's strokes lie, which the pooling throws away and which
differs less between sets than the art-bound last features. And a linear discriminant fitted on
real tiles of many sets (the fitting two thirds of ``vision.build.real_tiles``: each crop upright
and upside down, a class each) finds the directions that tell kinds apart across designs. Each
of those crops also joins in grey (``IN_GREY``): makers ink a kind their own way, so its colour is
fitted as part of a kind's spread. Red fives, plain fives and backs are not among those crops:
rendered cuts of them (scenes of many designs) join the fit, so the colour that tells a red five
stays a direction of the space.

A cut's ``features`` (an output) are its unit pooled features beside its unit stage map (3,328
values); with ``u`` their unit vector, the ``embedding`` output is::

    [ sqrt(1 - BLEND) * unit((u - mean) @ W),  sqrt(BLEND) * u ]

so a cosine between two cuts is ``(1 - BLEND)`` times their cosine in the discriminant's space plus
``BLEND`` times their cosine in the features (which keep what the fit did not see). The
discriminant is fitted in the features' first ``PRINCIPAL`` principal directions and folded back
into one ``W``. The pooled features stay an output (``pooled``), which the last layer's refit
(``vision.build.head``) reads. The classifier's file changes, so every tile set built on it is
rebuilt from its crops when next opened (``vision.tileset.current``), and its kind priors are
written again beside it (``vision.build.priors``). Needs ``onnx`` (the
``train`` extra)::

    python -m vision.build.projection models/tile-classifier.onnx --view overhead
    python -m vision.build.projection models/oblique/tile-classifier.onnx --view oblique

Constants (the stage, regularisation, principal directions, BLEND, the tile set's temperature)
were chosen by two-fold cross-validation within the fitting two thirds (docs/vision.md);
``IN_GREY`` on the held-out third and rendered designs, which that cross-validation could not
tell apart (docs/vision.md, "A tile in another maker's colours").
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from vision.classifier import EMBEDDING, Classifier, unit

from .embedding import linear_head, pooled_width
from .features import POOLED, NotAClassifier, model_and_view, real_cuts, rendered_cuts
from .priors import write_priors

FEATURES = "features"       # the output the fit reads: unit pooled features beside the unit stage map
STAGES = (6,)               # the backbone stages whose maps join the features (YOLOv8n-cls at 64 px: stage 6 4x4x128)
WITH_POOLED = True          # ... beside the pooled features before the last layer
BLEND = 0.3                 # the features' share of a cosine
REGULARISE = 0.3            # of the within-class scatter's mean variance, added to its diagonal
PRINCIPAL = 512             # principal directions of the features the discriminant is fitted in
RENDERED_KINDS = ("0m", "0p", "0s", "5m", "5p", "5s", "back")
RENDERED_SCENES = 40        # scenes of many designs whose cuts of those kinds join the fit
RENDERED_EVERY = 4          # ... one cut in this many
DESIGNS = 0.5
IN_GREY = True              # each real crop also in grey, as its own kind: makers ink a kind their own way
                            # (red fives stay apart: rendered samples of their own classes)
FIRST_SEED = {"overhead": 0, "oblique": 3_000_000}      # the views' training ranges (vision.synth.dataset)
PREFIX = "proj_"            # the nodes and constants this step adds (replaced on a second fit)


def features(classifier: Classifier, cuts: list[np.ndarray]) -> np.ndarray:
    """The ``features`` of square cuts (``classifier`` from ``with_features``)."""
    return classifier.outputs(cuts, [FEATURES])[0]


def real_samples(classifier: Classifier) -> tuple[np.ndarray, list[str]]:
    """The fitting two thirds of the real crops, upright and upside down, each also in grey
    when ``IN_GREY``: features and class names."""
    cuts, labels = real_cuts(grey=IN_GREY)
    return features(classifier, cuts), labels


def rendered_samples(classifier: Classifier, view: str) -> tuple[np.ndarray, list[str]]:
    """Rendered cuts of red fives, plain fives and backs, from scenes of many designs."""
    every = rendered_cuts(range(FIRST_SEED[view], FIRST_SEED[view] + RENDERED_SCENES), DESIGNS)
    kept = [(cut, label) for cut, label in zip(*every) if label.split("_")[0] in RENDERED_KINDS]
    cuts, labels = [c for c, _ in kept][::RENDERED_EVERY], [lab for _, lab in kept][::RENDERED_EVERY]
    return features(classifier, cuts), labels


def _directions(x: np.ndarray, labels: list[str], regularise: float) -> tuple[np.ndarray, np.ndarray]:
    """(W, mean): the linear discriminant of ``x`` as given (classes - 1 directions, each of unit
    within-class variance), the within-class scatter shrunk towards its mean variance."""
    y = np.array(labels)
    classes = sorted(set(labels))
    mean = x.mean(axis=0)
    within = np.zeros((x.shape[1], x.shape[1]))
    between = np.zeros_like(within)
    for c in classes:
        xc = x[y == c]
        m = xc.mean(axis=0)
        d = xc - m
        within += d.T @ d
        between += len(xc) * np.outer(m - mean, m - mean)
    within /= len(x)
    between /= len(x)
    within += regularise * np.trace(within) / len(within) * np.eye(len(within))
    values, vectors = np.linalg.eigh(within)
    whiten = vectors / np.sqrt(values)
    _, directions = np.linalg.eigh(whiten.T @ between @ whiten)
    return whiten @ directions[:, ::-1][:, :len(classes) - 1], mean


def discriminant(features: np.ndarray, labels: list[str], regularise: float = REGULARISE,
                 principal: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(W, mean): the linear discriminant of the unit features, so that a cut's place in it is
    ``(unit(f) - mean) @ W``. With ``principal``, fitted in the features' first ``principal``
    principal directions and folded back (``W`` maps the whole features; ``mean`` lies in them)."""
    x = unit(features.astype(np.float64))
    if principal is None or principal >= min(x.shape):
        w, mean = _directions(x, labels, regularise)
        return w.astype(np.float32), mean.astype(np.float32)
    centre = x.mean(axis=0)
    _, _, rows = np.linalg.svd(x - centre, full_matrices=False)
    basis = rows[:principal].T                          # features -> principal directions (orthonormal)
    w, mean = _directions((x - centre) @ basis, labels, regularise)
    # ((x - centre) @ basis - mean) @ w  ==  (x - (centre + mean @ basis.T)) @ (basis @ w)
    return (basis @ w).astype(np.float32), (centre + mean @ basis.T).astype(np.float32)


def _stage_map(graph, stage: int) -> str:
    """The activation leaving backbone stage ``stage`` (the SiLU after its last conv)."""
    conv = next((n.output[0] for n in graph.node
                 if n.op_type == "Conv" and n.name == f"/model.{stage}/cv2/conv/Conv"), None)
    act = next((n.output[0] for n in graph.node if n.op_type == "Mul" and conv in n.input), None)
    if act is None:
        raise NotAClassifier(f"no stage-{stage} map in the classifier (not a YOLOv8n-cls export)")
    return act


def _strip(model) -> None:
    """Take out what this step (or ``vision.build.embedding``) added: nodes, constants and the
    ``embedding``, ``pooled`` and ``features`` outputs."""
    g = model.graph
    for n in [n for n in g.node if n.name.startswith(PREFIX) or n.name == "embedding_out"]:
        g.node.remove(n)
    for i in [i for i in g.initializer if i.name.startswith(PREFIX)]:
        g.initializer.remove(i)
    for o in [o for o in g.output if o.name in (EMBEDDING, POOLED, FEATURES)]:
        g.output.remove(o)


class _Graph:
    """Adds this step's nodes and constants to a graph, each named with ``PREFIX``."""

    def __init__(self, graph):
        from onnx import helper, numpy_helper
        self.g, self.helper, self.numpy_helper = graph, helper, numpy_helper

    def const(self, name: str, value) -> str:
        self.g.initializer.append(self.numpy_helper.from_array(np.asarray(value, np.float32), PREFIX + name))
        return PREFIX + name

    def node(self, op: str, inputs: list[str], out: str, **attrs) -> str:
        self.g.node.append(self.helper.make_node(op, inputs, [PREFIX + out], name=PREFIX + out, **attrs))
        return PREFIX + out

    def unit(self, x: str, tag: str) -> str:
        norm = self.node("ReduceL2", [x], tag + "_norm", axes=[1], keepdims=1)
        return self.node("Div", [x, self.node("Max", [norm, self.const(tag + "_eps", 1e-12)], tag + "_safe")], tag + "_unit")

    def output(self, source: str, name: str, width: int | str) -> None:
        from onnx import TensorProto
        self.g.node.append(self.helper.make_node("Identity", [source], [name], name=PREFIX + "out_" + name))
        self.g.output.append(self.helper.make_tensor_value_info(name, TensorProto.FLOAT, ["batch", width]))


def _put_features(model) -> str:
    """Add the ``features`` and ``pooled`` outputs to a stripped model; the features' tensor."""
    g = model.graph
    b = _Graph(g)
    head = linear_head(g)
    parts = [b.unit(head.input[0], "pooled")] if WITH_POOLED else []
    for stage in STAGES:
        flat = b.node("Flatten", [_stage_map(g, stage)], f"stage{stage}_flat", axis=1)
        parts.append(b.unit(flat, f"stage{stage}"))
    joined = b.node("Concat", parts, "joined", axis=1)
    b.output(head.input[0], POOLED, pooled_width(g))
    b.output(joined, FEATURES, "features")        # its width follows the input's size
    return joined


def with_features(path: Path, into: Path) -> Classifier:
    """The classifier at ``path`` with its ``features`` output (and no projection), saved at ``into``."""
    import onnx

    model = onnx.load(str(path))
    _strip(model)
    _put_features(model)
    onnx.save(model, str(into))
    return Classifier(into)


def add_projection(path: Path, w: np.ndarray, mean: np.ndarray, blend: float, about: dict) -> None:
    """Make ``path``'s ``embedding`` output the blended projection of its ``features`` (module
    doc), in place; a projection already there is replaced."""
    import onnx

    model = onnx.load(str(path))
    _strip(model)
    source = _put_features(model)
    b = _Graph(model.graph)
    u = b.unit(source, "features")
    z = b.node("MatMul", [b.node("Sub", [u, b.const("mean", mean)], "centred"), b.const("w", w)], "projected")
    parts = [b.node("Mul", [b.unit(z, "projected"), b.const("a", np.sqrt(1 - blend))], "a_part"),
             b.node("Mul", [u, b.const("b", np.sqrt(blend))], "b_part")]
    b.output(b.node("Concat", parts, "embedding", axis=1), EMBEDDING, "embedding")
    outputs = model.graph.output                        # softmax, embedding, then the rest as added (a stable sort)
    ranked = sorted(outputs, key=lambda o: {"output0": 0, EMBEDDING: 1}.get(o.name, 2))
    del outputs[:]
    outputs.extend(ranked)
    for p in [p for p in model.metadata_props if p.key == "embedding"]:
        model.metadata_props.remove(p)
    model.metadata_props.append(onnx.StringStringEntryProto(key="embedding", value=json.dumps(about)))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def _source_words() -> str:
    """What the features are made of, for the file's metadata: ``"pooled + stage 6 map"``."""
    return " + ".join((["pooled"] if WITH_POOLED else []) + [f"stage {k} map" for k in STAGES])


def fit(model: Path, view: str) -> tuple[np.ndarray, np.ndarray, dict]:
    """(W, mean, about): the discriminant of the classifier at ``model``'s features, fitted on the
    real and rendered samples of ``view`` (``NotAClassifier``, ``FileNotFoundError`` otherwise)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        source = with_features(model, Path(tmp) / "features.onnx")
        real, real_labels = real_samples(source)
        rendered, rendered_labels = rendered_samples(source, view)
    labels = real_labels + rendered_labels
    w, mean = discriminant(np.concatenate([real, rendered]), labels, REGULARISE, PRINCIPAL)
    about = {"fit": "linear discriminant", "source": _source_words(),
             "real": len(real_labels), "rendered": len(rendered_labels), "classes": len(set(labels)),
             "dims": int(w.shape[1]), "blend": BLEND, "regularise": REGULARISE, "principal": PRINCIPAL,
             "in_grey": IN_GREY}
    return w, mean, about


def _has_onnx() -> bool:
    """Whether ``onnx`` (the train extra) is installed."""
    try:
        import onnx
    except ImportError:
        return False
    del onnx
    return True


def main(argv: list[str] | None = None) -> int:
    try:
        model, view, _ = model_and_view("python -m vision.build.projection", __doc__, FIRST_SEED, argv)
    except NotAClassifier as e:
        print(e, file=sys.stderr)
        return 2
    if not _has_onnx():
        print("python -m vision.build.projection needs onnx: pip install -e '.[train]'", file=sys.stderr)
        return 2
    try:
        w, mean, about = fit(model, view)
    except (NotAClassifier, FileNotFoundError) as e:
        print(e, file=sys.stderr)
        return 2
    add_projection(model, w, mean, BLEND, about)
    print(f"{model}: embedding is now {w.shape[1]} discriminant + {len(mean)} feature values ({about})")
    print(f"{write_priors(model)}: the tile set's kind priors in that space (vision.build.priors)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
