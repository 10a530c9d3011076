"""python -m vision: synthetic data for the tile detector.

    python -m vision synth OUT [--scenes N] [--seed S] [--split train|val] [--classes locate|full]
                               [--crops] [--size 960x720] [--draw]

Bad input exits 2 with one line saying what is wrong.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Sequence

from .art import ArtMissing


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        print(f"error: {self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WxH, e.g. 960x720, not {text!r}") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (64..4096)")
    return w, h


def main(argv: Sequence[str] | None = None) -> int:
    p = _Parser(prog="python -m vision", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    s = sub.add_parser("synth", help="render table scenes with ground truth (YOLO labels, truth JSON, crops)")
    s.add_argument("out", type=Path)
    s.add_argument("--scenes", type=int, default=100)
    s.add_argument("--seed", type=int, default=0, help="first scene's seed (held-out sets use other seeds)")
    s.add_argument("--split", choices=("train", "val"), default="train")
    s.add_argument("--classes", choices=("locate", "full"), default="locate")
    s.add_argument("--crops", action="store_true", help="also write upright face crops for the classifier")
    s.add_argument("--size", type=_size, default=(960, 720))
    s.add_argument("--draw", action="store_true", help="also write each new scene with its truth drawn (debug/)")
    a = p.parse_args(argv)
    try:
        return _synth(a)
    except ArtMissing as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _synth(a: argparse.Namespace) -> int:
    from .art import TileArt
    from .synth.dataset import write_dataset

    if a.scenes < 1:
        print("error: --scenes must be at least 1", file=sys.stderr)
        return 2
    art = TileArt()
    n = write_dataset(a.out, a.scenes, a.seed, a.split, art=art, size=a.size, classes=a.classes,
                      crops=a.crops, draw=a.draw)
    print(f"{a.out}: {n} scene(s) written, {a.scenes - n} already there ({a.split}, classes {a.classes})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
