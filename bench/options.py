"""Command-line options the benches share."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

from calibration.errors import CalibrationError
from calibration.store import TableFile


def onnx_file(text: str) -> Path:
    """An ``argparse`` type: a model file that exists (a candidate measured against a shipped one), else
    the option's error, one line and exit 2."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no ONNX file at {path}")
    return path


def labels_folder(text: str) -> Path:
    """An ``argparse`` type: a folder holding labels files (``vision/labels``' format: a JSON object
    with ``image`` and ``tiles`` at least), else the option's error, naming the first file that is not
    one (a parlour's folder copied by hand may hold others)."""
    path = Path(text)
    if not path.is_dir() or not any(path.glob("*.json")):
        raise argparse.ArgumentTypeError(f"no labels (*.json) in {path}")
    for file in sorted(path.glob("*.json")):
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise argparse.ArgumentTypeError(f"{file} is not a labels file: {e}") from None
        if not (isinstance(data, dict) and isinstance(data.get("image"), str) and isinstance(data.get("tiles"), list)):
            raise argparse.ArgumentTypeError(f"{file} is not a labels file: it needs image and tiles "
                                             "(vision/labels/README.md)")
        if "table" in data:             # a table camera's frame: read again with the calibration it carries
            try:
                TableFile.from_dict(data["table"])
            except (CalibrationError, KeyError, TypeError, ValueError) as e:
                raise argparse.ArgumentTypeError(f"{file} is not a labels file: its table is no calibration: "
                                                 f"{e}") from None
    return path


def add_classifier(parser: argparse.ArgumentParser, shipped: Path) -> None:
    """``--classifier ONNX``: a candidate in place of the ``shipped`` classifier, which it defaults to (its
    ``.kinds.npz`` beside it, as ``python -m vision.build.projection`` writes them)."""
    parser.add_argument("--classifier", type=onnx_file, metavar="ONNX", default=shipped,
                        help=f"a candidate classifier in place of the shipped one (default: {shipped.name} in "
                             f"{shipped.parent.name}/)")


def at_least(least: int):
    """An ``argparse`` type: a whole number of ``least`` or more (a count of hands, frames, repeats:
    0 divided a figure by zero, and a negative one ran and printed figures of nothing)."""
    def count(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < least:
            raise argparse.ArgumentTypeError(f"must be {least} or more, not {n}")
        return n
    return count


def above_zero(text: str) -> float:
    """An ``argparse`` type: a number above 0 (a rate, a time, a scale)."""
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not x > 0 or x == float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return x


def new_file(text: str) -> Path:
    """An ``argparse`` type: a file to write, in a folder that is there (said at once, not after the run)."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder, not a file to write")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"no folder {path.parent} to write {path.name} in")
    return path


def folder(text: str) -> Path:
    """An ``argparse`` type: a folder, there or to be made (not a file)."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a file, not a folder")
    return path


def quiet_pipe() -> None:
    """A bench piped into ``head`` ends quietly, as any Unix tool, not in a BrokenPipeError."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)


def run_on_art(main) -> None:
    """Run a bench that renders from ``../shared/tiles`` (``quiet_pipe`` too): the art missing is
    one line and exit 2, not a traceback."""
    from vision.synth.art import ArtMissing      # here: the other benches need no renderer
    quiet_pipe()
    try:
        code = main()
    except ArtMissing as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    raise SystemExit(code)
