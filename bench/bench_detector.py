"""Accuracy and speed: our two-stage tile detector against the `mahjong-detector` package, same images, one run.

    .venv/bin/pip install mahjong-detector==0.0.6      # the bench extra: .[bench]
    .venv/bin/python bench/bench_detector.py [--scenes 50] [--threads 2] [--mirror]
                                             [--view overhead|oblique] [--no-refine]

Images: held-out synthetic scenes (960x720, seeds from 1,100,000, rendered now
from ../shared/tiles) and the hand-labelled real photo (../shared/photos), when
present. For each detector it prints recall, found-and-named-right (a labelled
tile matched by a box of IoU >= 0.5 carrying the right class) and the median
milliseconds per image, then the ratios. `mahjong-detector` is a YOLOv8 model for
screenshots of online mahjong with 34 classes: it has no red fives and no
backs, so it is also scored on face-up tiles with red fives counted as plain
fives ("its own classes"), the fairest reading of it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from options import at_least, quiet_pipe  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.detect import Detector  # noqa: E402
from vision.evaluate_run import TEST_SEED  # noqa: E402
from vision.evaluate import REAL_LABELS, Report, load_labels, photos_dir  # noqa: E402

THEIR_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z", "sha": "3z", "tou": "1z"}


class TheirDetector:
    """mahjong-detector 0.0.6: its preprocessing and YOLO post-processing, boxes in image pixels."""

    def __init__(self):
        from mahjong_detector.predict import CLASS_NAMES
        self.names = [THEIR_NAMES.get(n, n) for n in CLASS_NAMES]

    def detect(self, image: np.ndarray) -> list[dict]:
        from PIL import Image
        from mahjong_detector.predict import predict
        from mahjong_detector.preprocess import preprocess_image

        pil = Image.fromarray(cv2.cvtColor(image, cv2.COLOR_BGR2RGB))
        img, pad = preprocess_image(pil)
        return [{"tile": self.names[d.class_id], "box": [d.x1, d.y1, d.x2, d.y2], "rotation": 0,
                 "score": float(d.confidence)} for d in predict(img, pad)]


def _dicts(found) -> list[dict]:
    return [d.to_dict() for d in found]


class _Windows:
    """Our detector over N x N overlapping windows (for a large photo)."""

    def __init__(self, detector: Detector, grid: int):
        self.detector, self.grid = detector, grid

    def detect(self, image):
        return self.detector.detect(image, grid=self.grid)


def _plain(tiles: list[dict]) -> list[dict]:
    """Face-up tiles only, red fives as plain fives: the classes mahjong-detector has."""
    return [{**t, "tile": "5" + t["tile"][1] if t["tile"].startswith("0") else t["tile"]}
            for t in tiles if t["tile"] != "back"]


def images(scenes: int) -> list[tuple[str, np.ndarray, list[dict]]]:
    out = []
    try:
        from vision.synth.art import TileArt
        from vision.synth.dataset import scene_for

        art = TileArt()
        for i in range(TEST_SEED, TEST_SEED + scenes):
            s = scene_for(i, art, (960, 720))
            out.append(("synthetic", s.image, [t.to_dict() for t in s.tiles]))
    except Exception as e:            # the art lives outside the project
        print(f"no synthetic scenes: {e}")
    labels = load_labels(REAL_LABELS)
    photo = cv2.imread(str(photos_dir() / labels["image"]))
    if photo is not None:
        out.append(("real", photo, labels["tiles"]))
    else:
        print(f"no real photo at {photos_dir() / labels['image']}")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=at_least(1), default=50)
    ap.add_argument("--threads", type=at_least(0), default=2)
    ap.add_argument("--real-grid", type=at_least(1), default=3, help="our windows per side on the real photo")
    ap.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=False,
                    help="ours with its mirrored locator pass too (vision.detect.Detector; off by default)")
    ap.add_argument("--view", choices=("overhead", "oblique"), default="overhead",
                    help="our models for a camera over the table (default) or beside it (the real photo's)")
    ap.add_argument("--no-refine", dest="refine", action="store_false",
                    help="ours without the view's box refiner (the oblique view has one)")
    args = ap.parse_args()
    ours = Detector.for_view(args.view, threads=args.threads, mirror=args.mirror, refine=args.refine)
    print(f"ours: {args.view} view, mirrored locator pass {'on' if args.mirror else 'off'}, "
          f"box refiner {'on' if ours.refiner else 'off'}")
    try:
        theirs = TheirDetector()
    except ImportError:
        print("mahjong-detector is not installed: pip install mahjong-detector==0.0.6", file=sys.stderr)
        return 2
    data = images(args.scenes)
    rows = []
    windows = _Windows(ours, args.real_grid)
    runs = (("ours", ours, _dicts, ("synthetic", "real")),
            (f"ours {args.real_grid}x{args.real_grid}", windows, _dicts, ("real",)),
            ("mahjong-detector", theirs, list, ("synthetic", "real")))
    for name, det, to_dicts, kinds in runs:
        for kind in kinds:
            full, plain, ms = Report(f"{name} {kind}"), Report(f"{name} {kind} (its own classes)"), []
            for k, image, truth in data:
                if k != kind:
                    continue
                det.detect(image)                      # warm-up: first-run allocations are not timed
                t = time.perf_counter()
                found = to_dicts(det.detect(image))
                ms.append((time.perf_counter() - t) * 1000)
                full.add(found, truth)
                plain.add(_plain(found), _plain(truth))
            if full.images:
                rows.append((name, kind, full, plain, statistics.median(ms)))
    print(f"{'detector':<18}{'set':<11}{'images':>7}{'recall':>9}{'named':>9}{'named*':>9}{'ms/img':>9}")
    for name, kind, full, plain, ms in rows:
        print(f"{name:<18}{kind:<11}{full.images:>7}{full.recall:>9.2%}{full.found_and_named:>9.2%}"
              f"{plain.found_and_named:>9.2%}{ms:>9.1f}")
    print("named: found and named right over all labelled tiles (38 classes); "
          "named*: over face-up tiles, red fives as plain (its own classes)")
    by = {(n, k): (f, p, m) for n, k, f, p, m in rows}
    for kind in ("synthetic", "real"):
        if ("ours", kind) in by and ("mahjong-detector", kind) in by:
            (of, op, om), (tf, tp, tm) = by[("ours", kind)], by[("mahjong-detector", kind)]
            acc = f"{op.found_and_named / tp.found_and_named:.1f}x" if tp.found_and_named else "inf"
            print(f"{kind}: accuracy (named*) ours/theirs {acc}; speed theirs/ours ms {tm / om:.2f}x "
                  f"({om:.1f} ms vs {tm:.1f} ms)")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
