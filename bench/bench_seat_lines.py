"""Rendered photos from the winner's seat: the revealed line read, tile for tile, against the line its
labelled boxes make.

    .venv/bin/python bench/bench_seat_lines.py [--photos 100] [--seed 7600000] [--designs 0 1] [--low-seats 0]
        [--classifier ONNX] [--seat-locator ONNX]

Photo ``seed + i`` is rendered by ``vision.synth.dataset.scene_for`` (960x720; from seed 7,000,000 up a
photo from the winner's seat, the hand line near the camera; 7,600,000 up the test seeds, 7,500,000 up
validation; needs the tile art at ../shared/tiles), once in the art as shipped (``--designs 0``) and
once with every set drawn in one of many designs (``1``); ``--low-seats 1``: every photo taken lower
over the hand (faces more squeezed, the tiles' sides mostly ivory: ``synth.scene.LOW_SEAT_PLANE``).
The truth is the line ``vision.hand_photo.find_line`` makes of the labelled boxes (a photo whose
boxes make none is left out); each photo is read as ``python -m vision hand`` reads it
(``read_photo``, one window, second looks along the line), and again from the detector's boxes
alone (``read_hand``: no second looks), so the looks' share is told apart. Prints lines exact and tiles in order (the longest run both lines share,
gaps allowed) for each, and the milliseconds of the second looks.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_tileset import in_order  # noqa: E402
from options import add_classifier, at_least, onnx_file, run_on_art  # noqa: E402
from vision.detect import VIEWS  # noqa: E402
from vision.evaluate_run import SEAT_TEST  # noqa: E402
from vision.hand_photo import find_line, look_again, read_hand, seat_detector  # noqa: E402


def seat_lines(photos: int, seed: int, designs: float, detector, low_seats: float = 0.0) -> dict:
    from vision.synth.art import TileArt
    from vision.synth.dataset import scene_for

    art = TileArt()
    out = {"photos": 0, "tiles": 0, "exact": 0, "in_order": 0, "exact_alone": 0, "in_order_alone": 0,
           "look_ms": []}
    for s in range(seed, seed + photos):
        scene = scene_for(s, art, (960, 720), designs=designs, low_seats=low_seats)
        truth = find_line([{"tile": a.cls, "box": a.box, "score": 1.0, "rotation": a.rotation} for a in scene.tiles])
        if truth is None:
            continue
        want = [t.tile for t in truth.tiles]
        found = detector.detect(scene.image)
        started = time.perf_counter()
        looked, _ = look_again(found, scene.image, detector)
        out["look_ms"].append((time.perf_counter() - started) * 1000)
        for suffix, hand in (("", read_hand(looked)), ("_alone", read_hand(found))):
            line = hand.line_tiles
            out["exact" + suffix] += line == want
            out["in_order" + suffix] += in_order(want, line)
        out["photos"] += 1
        out["tiles"] += len(want)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--photos", type=at_least(1), default=100)
    p.add_argument("--seed", type=int, default=SEAT_TEST, help="the first photo's seed (default: the test seeds)")
    p.add_argument("--designs", type=float, nargs="+", default=[0.0, 1.0],
                   help="the share of photos drawn in many tile designs, one run each (default: 0 and 1)")
    p.add_argument("--low-seats", type=float, default=0.0,
                   help="the share of photos taken lower over the hand (default 0: as the seat photos are drawn)")
    add_classifier(p, VIEWS["oblique"][1])
    p.add_argument("--seat-locator", type=onnx_file, metavar="ONNX",
                   help="a candidate locator in place of the seat's own (default: hand_photo.seat_detector's)")
    a = p.parse_args(argv)
    if a.photos < 1:
        p.error("--photos must be 1 or more")
    if a.seed < 7_000_000:
        p.error("--seed must be 7000000 or more: below it no rendered photo is from the seat")
    if any(not 0.0 <= d <= 1.0 for d in a.designs):
        p.error("--designs must each be 0-1")
    if not 0.0 <= a.low_seats <= 1.0:
        p.error("--low-seats must be 0-1")
    detector = seat_detector(classifier=a.classifier, locator=a.seat_locator)
    low = f", {a.low_seats:.0%} of them taken lower" if a.low_seats else ""
    print(f"rendered photos from the seat, seeds {a.seed}-{a.seed + a.photos - 1}{low} (the line of the labelled "
          f"boxes against the line read):")
    for designs in a.designs:
        r = seat_lines(a.photos, a.seed, designs, detector, a.low_seats)
        n, t = r["photos"], r["tiles"]
        print(f"  many designs {designs:g}: {n} photos with a line, {t} tiles; read as vision hand reads them: lines "
              f"exact {r['exact']}/{n}, tiles in order {r['in_order']}/{t} ({r['in_order'] / max(t, 1):.1%}); from the "
              f"detector's boxes alone: {r['exact_alone']}/{n}, {r['in_order_alone']}/{t}; second looks "
              f"{statistics.median(r['look_ms']):.1f} ms median a photo")
    return 0


if __name__ == "__main__":
    run_on_art(main)
