"""Fit the space a table's tile set compares cuts in, and put it into a classifier's ONNX file.

The classifier's pooled features (1,280 values) were learnt on one rendered art; in them a kind's
tiles of different sets lie apart, so a prototype enrolled from a few crops names other crops of
its kind less well. A linear discriminant fitted on real tiles of many sets (the fitting two
thirds of ``vision.build.real_tiles``: each crop upright and upside down, a class each) finds the
directions that tell kinds apart across designs. Red fives, plain fives and backs are not among
those crops: rendered cuts of them (scenes of many designs) join the fit, so the colour that
tells a red five stays a direction of the space.

The ``embedding`` output then becomes, per cut (``e``: the pooled features, ``u = e / |e|``)::

    [ sqrt(1 - BLEND) * unit((u - mean) @ W),  sqrt(BLEND) * u ]

so a cosine between two cuts is ``(1 - BLEND)`` times their cosine in the discriminant's space plus
``BLEND`` times their cosine in the pooled features (which keep what the fit did not see). The
pooled features stay an output (``pooled``), which a later fit reads. The classifier's file
changes, so every tile set built on it is rebuilt from its crops when next opened
(``vision.tileset.current``). Needs ``onnx`` (the ``train`` extra)::

    python -m vision.build.projection models/tile-classifier.onnx --view overhead
    python -m vision.build.projection models/oblique/tile-classifier.onnx --view oblique

Constants (regularisation, BLEND, the tile set's temperature) were chosen by two-fold
cross-validation within the fitting two thirds (docs/vision.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from vision.classifier import EMBEDDING, Classifier

from .embedding import linear_head
from .features import POOLED, NotAClassifier, model_and_view, pooled, real_cuts, rendered_cuts
BLEND = 0.3                 # the pooled features' share of a cosine
REGULARISE = 0.1            # of the within-class scatter's mean variance, added to its diagonal
RENDERED_KINDS = ("0m", "0p", "0s", "5m", "5p", "5s", "back")
RENDERED_SCENES = 40        # scenes of many designs whose cuts of those kinds join the fit
RENDERED_EVERY = 4          # ... one cut in this many
DESIGNS = 0.5
FIRST_SEED = {"overhead": 0, "oblique": 3_000_000}      # the views' training ranges (vision.synth.dataset)


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


def real_samples(classifier: Classifier) -> tuple[np.ndarray, list[str]]:
    """The fitting two thirds of the real crops, upright and upside down: features and class names."""
    cuts, labels = real_cuts()
    return pooled(classifier, cuts), labels


def rendered_samples(classifier: Classifier, view: str) -> tuple[np.ndarray, list[str]]:
    """Rendered cuts of red fives, plain fives and backs, from scenes of many designs."""
    every = rendered_cuts(range(FIRST_SEED[view], FIRST_SEED[view] + RENDERED_SCENES), DESIGNS)
    kept = [(cut, label) for cut, label in zip(*every) if label.split("_")[0] in RENDERED_KINDS]
    cuts, labels = [c for c, _ in kept][::RENDERED_EVERY], [lab for _, lab in kept][::RENDERED_EVERY]
    return pooled(classifier, cuts), labels


def discriminant(features: np.ndarray, labels: list[str], regularise: float = REGULARISE) -> tuple[np.ndarray, np.ndarray]:
    """(W, mean): the linear discriminant of the unit features (classes - 1 directions, each of unit
    within-class variance), the within-class scatter shrunk towards its mean variance."""
    x = _unit(features.astype(np.float64))
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
    w = whiten @ directions[:, ::-1][:, :len(classes) - 1]
    return w.astype(np.float32), mean.astype(np.float32)


def add_projection(path: Path, w: np.ndarray, mean: np.ndarray, blend: float, about: dict) -> None:
    """Make ``path``'s ``embedding`` output the blended projection (module doc), in place; a
    projection already there is replaced."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    model = onnx.load(str(path))
    g = model.graph
    ours = [n for n in g.node if n.name.startswith("proj_") or n.name == "embedding_out"]
    source = linear_head(g).input[0]
    for n in ours:
        g.node.remove(n)
    for i in [i for i in g.initializer if i.name.startswith("proj_")]:
        g.initializer.remove(i)
    for o in [o for o in g.output if o.name == POOLED]:
        g.output.remove(o)

    def const(name: str, value) -> str:
        g.initializer.append(numpy_helper.from_array(np.asarray(value, np.float32), "proj_" + name))
        return "proj_" + name

    def node(op: str, inputs: list[str], out: str, **attrs) -> str:
        g.node.append(helper.make_node(op, inputs, ["proj_" + out], name="proj_" + out, **attrs))
        return "proj_" + out

    def unit(x: str, tag: str) -> str:
        norm = node("ReduceL2", [x], tag + "_norm", axes=[1], keepdims=1)
        return node("Div", [x, node("Max", [norm, const(tag + "_eps", 1e-12)], tag + "_safe")], tag + "_unit")

    u = unit(source, "pooled")
    z = node("MatMul", [node("Sub", [u, const("mean", mean)], "centred"), const("w", w)], "projected")
    parts = [node("Mul", [unit(z, "projected"), const("a", np.sqrt(1 - blend))], "a_part"),
             node("Mul", [u, const("b", np.sqrt(blend))], "b_part")]
    g.node.append(helper.make_node("Concat", parts, [EMBEDDING], name="proj_embedding", axis=1))
    g.node.append(helper.make_node("Identity", [source], [POOLED], name="proj_pooled"))
    out = next(o for o in g.output if o.name == EMBEDDING)
    out.type.tensor_type.shape.dim[1].dim_value = w.shape[1] + len(mean)
    g.output.append(helper.make_tensor_value_info(POOLED, TensorProto.FLOAT, ["batch", len(mean)]))
    for p in [p for p in model.metadata_props if p.key == "embedding"]:
        model.metadata_props.remove(p)
    model.metadata_props.append(onnx.StringStringEntryProto(key="embedding", value=json.dumps(about)))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def main(argv: list[str] | None = None) -> int:
    try:
        model, view, classifier = model_and_view("python -m vision.build.projection", __doc__, FIRST_SEED, argv)
    except NotAClassifier as e:
        print(e, file=sys.stderr)
        return 2
    if not classifier.has_embedding:
        print(f"{model}: no embedding output; first: python -m vision.build.embedding {model}", file=sys.stderr)
        return 2
    try:
        real, real_labels = real_samples(classifier)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 2
    rendered, rendered_labels = rendered_samples(classifier, view)
    labels = real_labels + rendered_labels
    w, mean = discriminant(np.concatenate([real, rendered]), labels)
    about = {"fit": "linear discriminant", "real": len(real_labels), "rendered": len(rendered_labels),
             "classes": len(set(labels)), "dims": int(w.shape[1]), "blend": BLEND, "regularise": REGULARISE}
    add_projection(model, w, mean, BLEND, about)
    print(f"{model}: embedding is now {w.shape[1]} discriminant + {len(mean)} pooled values ({about})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
