"""The cuts a build step fits on (real tiles and rendered scenes), and the classifier's pooled features of them.

Shared by the fits on the classifier's features: the tile set's space (``vision.build.projection``,
which reads its own ``features`` of these cuts) and the last layer refitted on real tiles
(``vision.build.head``, on the pooled features: the 1,280 values before the last layer). Only the
fitting two thirds of the real crops are read here (``vision.build.real_tiles.held_out`` names
the third no fit sees).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import EMBEDDING, Classifier
from vision.runtime import ModelMissing, ModelUnreadable
from vision.tileset import square_cut, views

from .real_tiles import fitting_crops

POOLED = "pooled"


class NotAClassifier(Exception):
    """A build step's model file is missing or no tile classifier (one line, for exit 2)."""


def open_classifier(path: Path) -> Classifier:
    """The tile classifier at ``path``; ``NotAClassifier`` saying what is wrong otherwise."""
    try:
        return Classifier(path)
    except ModelUnreadable:
        raise NotAClassifier(f"{path}: not a tile classifier ONNX file (onnxruntime cannot load it)") from None
    except ModelMissing as e:
        raise NotAClassifier(str(e)) from None
    except Exception as e:          # onnxruntime's load errors, or no class names: not a tile classifier
        raise NotAClassifier(f"{path}: not a tile classifier ONNX file ({type(e).__name__})") from None


def pooled(classifier: Classifier, cuts: list[np.ndarray]) -> np.ndarray:
    """The pooled features of square cuts: the ``pooled`` output where the file has one (a
    projection is in it already), else ``embedding``."""
    names = [o.name for o in classifier.session.get_outputs()]
    return classifier.outputs(cuts, [POOLED if POOLED in names else EMBEDDING])[0]


def model_and_view(prog: str, doc: str, choices: Iterable[str],
                   argv: list[str] | None) -> tuple[Path, str, Classifier]:
    """A build step's command line, ``MODEL --view V``: the file (changed in place), the view and
    the classifier read from it (``NotAClassifier`` when it is none)."""
    ap = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    ap.add_argument("model", type=Path, help="a tile classifier ONNX file (changed in place)")
    ap.add_argument("--view", choices=sorted(choices), required=True, help="the camera view it reads")
    a = ap.parse_args(argv)
    return a.model, a.view, open_classifier(a.model)


def in_grey(cut: np.ndarray) -> np.ndarray:
    """``cut`` in grey (three equal channels): the tile's strokes without the ink's colour, which
    makers choose their own way (one set's 7p is red above and green below where most are green
    above; another's 發 is black)."""
    return cv2.cvtColor(cv2.cvtColor(cut, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def real_cuts(variants: int = 0, grey: bool = False) -> tuple[list[np.ndarray], list[str]]:
    """Square cuts of the fitting two thirds of the real crops, each crop and ``variants`` of it
    (``vision.tileset.views``: edges moved, light changed), with ``grey`` each also in grey
    (``in_grey``), upright and upside down (class ``kind`` and ``kind_ud``).
    ``FileNotFoundError`` when the crops are missing."""
    cuts, labels = [], []
    for seed, kind, image in fitting_crops():
        for v in views(image, variants, seed):
            cut = square_cut(v)
            for c in [cut] + ([in_grey(cut)] if grey else []):
                cuts += [c, cv2.rotate(c, cv2.ROTATE_180)]
                labels += [kind, kind + "_ud"]
    return cuts, labels


def real_nothing() -> list[np.ndarray]:
    """Square cuts of no tile made from the fitting real crops, as the rendered scenes make their
    ``none`` cuts: each crop turned a quarter (a box cut the wrong way), and a box straddling it
    and the next crop laid beside it (half of each). ``FileNotFoundError`` when they are missing."""
    crops = [image for _, _, image in fitting_crops()]
    cuts = []
    for k, image in enumerate(crops):
        turn = cv2.ROTATE_90_CLOCKWISE if k % 2 else cv2.ROTATE_90_COUNTERCLOCKWISE
        cuts.append(square_cut(cv2.rotate(image, turn)))
        h, w = image.shape[:2]
        other = cv2.resize(crops[(k + 1) % len(crops)], (w, h), interpolation=cv2.INTER_AREA)
        pair = np.hstack([image, other])
        cuts.append(square_cut(pair[:, w // 2: w // 2 + w]))
    return cuts


def rendered_cuts(seeds: Iterable[int], designs: float) -> tuple[list[np.ndarray], list[str]]:
    """The classifier's training cuts (``vision.synth.crops.classifier_samples``) of the scenes
    ``seeds``, a ``designs`` share of them in many tile designs."""
    from vision.synth.art import TileArt
    from vision.synth.crops import classifier_samples
    from vision.synth.dataset import scene_for

    art = TileArt()
    cuts, labels = [], []
    for seed in seeds:
        scene = scene_for(seed, art, (960, 720), designs=designs)
        for label, cut in classifier_samples(scene, np.random.default_rng(seed)):
            cuts.append(cut)
            labels.append(label)
    return cuts, labels
