"""Frame to hand record on the fixed synthetic test set: exact records, failures by kind, milliseconds.

    .venv/bin/python bench/bench_read.py [--frames 200] [--seed 0] [--cache DIR] [--mirror] [--classifier ONNX]

Frame ``seed + i`` is rendered by ``vision.synth.table.render_table`` (a whole
1920x1080 table with rim markers, a camera pose within the mount's tolerance and
lens distortion; needs the tile art at ../shared/tiles), so the set is the same
on every machine; ``--cache`` keeps the frames and their truth on disk. Each
frame is read alone (no stored homography: markers every time) by
``vision.read.TableReader`` and compared field by field with the record it was
drawn from (``vision.layout.record_diff``). Prints the share of exact records,
the failures by field, and the median and 95th-percentile milliseconds from
frame to record on this machine.

Seeds 0-199 are the fixed test set, on which the reader's layout rules were
made; ``--seed 1000`` reads 200 frames no rule was made on (held out). A frame
rendered fresh and the same frame read back from ``--cache`` (re-encoded as
JPEG) can read differently: compare figures taken the same way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from calibration.errors import CalibrationError  # noqa: E402
from calibration.store import TableFile  # noqa: E402
from vision.detect import CLASSIFIER, Detector  # noqa: E402
from vision.layout import record_diff  # noqa: E402
from vision.read import TableReader  # noqa: E402

from options import add_classifier, at_least, folder, run_on_art  # noqa: E402


def frames(n: int, seed: int, cache: Path | None):
    from vision.synth.art import TileArt
    from vision.synth.table import render_table

    art = None
    for i in range(seed, seed + n):
        img_path = cache / f"frame-{i:04d}.jpg" if cache else None
        truth_path = cache / f"frame-{i:04d}.json" if cache else None
        if cache and img_path.exists() and truth_path.exists():
            yield i, cv2.imread(str(img_path)), json.loads(truth_path.read_text())
            continue
        art = art or TileArt()
        scene = render_table(i, art)
        if cache:
            cache.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(img_path), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            truth_path.write_text(json.dumps(scene.record))
        yield i, scene.image, scene.record


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=at_least(1), default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=folder)
    ap.add_argument("--show", type=at_least(0), default=5, help="print this many failed frames in full")
    ap.add_argument("--mirror", action="store_true",
                    help="the detector with its mirrored locator pass (off in TableReader: see vision/read.py)")
    add_classifier(ap, CLASSIFIER)
    args = ap.parse_args()
    detector = Detector(mirror=args.mirror, classifier=args.classifier)
    reader = TableReader(TableFile("synthetic"), "dunhill", detector)
    ms, failures, exact, shown = [], Counter(), 0, 0
    total = 0
    for i, image, truth in frames(args.frames, args.seed, args.cache):
        total += 1
        reader.tracker.last_good = None                     # each frame on its own markers
        t = time.perf_counter()
        try:
            reading = reader.read(image)
            diff = record_diff(truth, reading.record)
        except CalibrationError as e:
            diff, reading = ["homography"], None
            print(f"frame {i}: {e}")
        ms.append((time.perf_counter() - t) * 1000)
        failures.update(diff)
        exact += not diff
        if diff and shown < args.show and reading is not None:
            shown += 1
            print(f"frame {i}: wrong {', '.join(diff)}")
            for k in diff:
                print(f"   truth {k}: {truth.get(k)}\n   read  {k}: {reading.record.get(k)}")
    ms.sort()
    print(f"\nmirrored locator pass: {'on' if args.mirror else 'off'}")
    print(f"{total} frames: exact hand record {exact}/{total} = {exact / total:.1%}")
    print("failures by field: " + (", ".join(f"{k} {n}" for k, n in failures.most_common()) or "none"))
    print(f"frame -> record: median {statistics.median(ms):.0f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.0f} ms")
    return 0


if __name__ == "__main__":
    run_on_art(main)
