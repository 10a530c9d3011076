"""Command-line options the benches share."""

from __future__ import annotations

import argparse
from pathlib import Path


def onnx_file(text: str) -> Path:
    """An ``argparse`` type: a model file that exists (a candidate measured against a shipped one), else
    the option's error, one line and exit 2."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no ONNX file at {path}")
    return path


def labels_folder(text: str) -> Path:
    """An ``argparse`` type: a folder holding labels files (``vision/labels``' format), else the
    option's error."""
    path = Path(text)
    if not path.is_dir() or not any(path.glob("*.json")):
        raise argparse.ArgumentTypeError(f"no labels (*.json) in {path}")
    return path


def add_classifier(parser: argparse.ArgumentParser, shipped: Path) -> None:
    """``--classifier ONNX``: a candidate in place of the ``shipped`` classifier, which it defaults to (its
    ``.kinds.npz`` beside it, as ``python -m vision.build.projection`` writes them)."""
    parser.add_argument("--classifier", type=onnx_file, metavar="ONNX", default=shipped,
                        help=f"a candidate classifier in place of the shipped one (default: {shipped.name} in "
                             f"{shipped.parent.name}/)")
