"""Each kind's prior for a table's tile set: what the kind looks like across makers.

A set names a cut by the kind whose prototype it lies nearest (``vision.tileset``). Enrolled with
a few crops a kind, a prototype is one maker's tile seen once or three times, and its place in the
embedding is partly that tile's lighting and cut. The prior is the kind's mean embedding over the
fitting two thirds of the real single tiles (``vision.build.real_tiles``: about ten crops a kind,
of many makers), each crop set in the detector's margin (``crop.with_margin``) and seen as a set
sees an enrolled crop (``vision.tileset.embeddings``). A set counts it as ``PRIOR_WEIGHT`` crops in
each prototype, so a set of few crops leans on it and one that has learnt many of its own tiles
hardly does. Red fives and backs have none (no such crop is in that fit), nor has 白 (``NO_PRIOR``):
a face with nothing drawn on it looks, across makers, like any blank thing, and its prior drew a
table's pale grey backs onto a set's 白 (bench/bench_learn.py, design 70,105 taught and learning:
9 records of 24 exact without it, 5 with). Theirs stay the set's own.

The file lies beside the classifier (``vision.classifier.priors_path``) and names the classifier's
id: a classifier changed later (``vision.build.projection`` writes its priors again) does not use
priors made on the old one. Needs ``../shared/real-tiles``::

    python -m vision.build.priors models/tile-classifier.onnx
    python -m vision.build.priors models/oblique/tile-classifier.onnx
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import numpy as np

from vision.classifier import Classifier, file_id, priors_path, unit
from vision.crop import with_margin
from vision.tileset import embeddings, stored

from .features import NotAClassifier, open_classifier
from .real_tiles import fitting_crops

NO_PRIOR = ("5z",)          # 白: its common look is a blank face, as a pale back's is


def kind_priors(classifier: Classifier) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each kind's prior, upright and upside down (unit vectors): the mean of its fitting crops' unit
    embeddings, each crop in the detector's margin and stored as a set stores it (none for
    ``NO_PRIOR``).
    ``FileNotFoundError`` when the real crops are missing."""
    by_kind: dict[str, list[tuple[str, np.ndarray]]] = collections.defaultdict(list)
    for place, kind, image in fitting_crops():
        if kind in NO_PRIOR:
            continue
        by_kind[kind].append((f"{kind}/{place}", stored(with_margin(image))))
    out = {}
    for kind, items in sorted(by_kind.items()):
        vectors = list(embeddings(items, classifier).values())
        out[kind] = (unit(np.mean([v[0] for v in vectors], axis=0)), unit(np.mean([v[1] for v in vectors], axis=0)))
    return out


def write_priors(model: Path) -> Path:
    """The priors of the classifier at ``model``, written beside it; returns the file's path."""
    classifier = open_classifier(model)
    if not classifier.has_embedding:
        raise NotAClassifier(f"{model}: has no embedding output (python -m vision.build.projection first)")
    priors = kind_priors(classifier)
    path = priors_path(model)
    kinds = sorted(priors)
    np.savez_compressed(path, classifier=np.array(file_id(model)), kinds=np.array(kinds),
                        up=np.array([priors[k][0] for k in kinds], np.float32),
                        down=np.array([priors[k][1] for k in kinds], np.float32))
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vision.build.priors", description=__doc__.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="a tile classifier ONNX file with an embedding output")
    a = ap.parse_args(argv)
    try:
        path = write_priors(a.model)
    except (NotAClassifier, FileNotFoundError) as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{path}: the priors of {a.model}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
