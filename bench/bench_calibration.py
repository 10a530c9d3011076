"""Speed: detect the rim markers, fit the homography and rectify, per 1920x1080 frame.

    .venv/bin/python bench/bench_calibration.py [--frames 50] [--px-per-mm 1.0] [--frame FILE]

By default the frames are rendered like the tests' (calibration/synth.py:
the real markers on a synthetic table, a camera pose within the mount's
tolerance, blur and noise), a different pose per frame; ``--frame`` times a real
photo instead (it must show the markers). Prints the median ms per frame of each
stage and of the whole (detect + homography + rectify), plus white balance
(gains + apply) for the record.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from options import above_zero, at_least, quiet_pipe  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.homography import detect_markers, fit_homography, rectify  # noqa: E402
from calibration.markers import default_layout  # noqa: E402
from calibration.whitebalance import apply_gains, gains_from_frame  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=at_least(1), default=50)
    ap.add_argument("--px-per-mm", type=above_zero, default=1.0, help="rectified image scale (1.0: 1000x1000 px)")
    ap.add_argument("--frame", type=Path, help="time this image instead of rendered ones")
    args = ap.parse_args()
    layout = default_layout()
    if args.frame:
        frame = cv2.imread(str(args.frame))
        if frame is None:
            print(f"error: {args.frame}: not an image", file=sys.stderr)
            return 2
        frames = [frame]
    else:
        from calibration.synth import random_pose, render, topdown
        rng = np.random.default_rng(0)
        top = topdown(layout)
        frames = [render(top, random_pose(rng, layout), rng) for _ in range(min(args.frames, 10))]
    cv2.setNumThreads(cv2.getNumberOfCPUs())
    times = {"detect": [], "homography": [], "rectify": [], "total": [], "white balance": []}
    for k in range(args.frames):
        frame = frames[k % len(frames)]
        size = (frame.shape[1], frame.shape[0])
        t0 = time.perf_counter()
        det = detect_markers(frame, layout)
        t1 = time.perf_counter()
        fit = fit_homography(det, layout, size)
        t2 = time.perf_counter()
        rectify(frame, fit, layout, args.px_per_mm)
        t3 = time.perf_counter()
        apply_gains(frame, gains_from_frame(frame, det, layout))
        t4 = time.perf_counter()
        for name, dt in zip(times, (t1 - t0, t2 - t1, t3 - t2, t3 - t0, t4 - t3)):
            times[name].append(dt * 1000)
    h, w = frames[0].shape[:2]
    print(f"calibration bench: {args.frames} frames of {w}x{h}, {len(det.ids)} markers, "
          f"rectified at {args.px_per_mm:g} px/mm; OpenCV {cv2.__version__}, "
          f"{cv2.getNumberOfCPUs()} CPUs, {platform.processor() or platform.machine()}")
    for name, ts in times.items():
        print(f"  {name:<14} {statistics.median(ts):7.1f} ms median   {min(ts):7.1f} min   {max(ts):7.1f} max")
    print(f"detect + homography + rectify: {statistics.median(times['total']):.1f} ms per frame "
          f"({1000 / statistics.median(times['total']):.0f} frames/s)")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    sys.exit(main())
