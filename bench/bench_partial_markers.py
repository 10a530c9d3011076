"""Fits from part of the rim's markers: which are taken, and how far off the felt they place.

    .venv/bin/python bench/bench_partial_markers.py [--poses 3] [--per-k 40] [--no-sway]

Arms and a player's things cover markers. For k of the nine markers (k = 3, 4, 5, 6 and all nine,
up to ``--per-k`` subsets each, drawn at random) the frames are rendered as the tests' are
(calibration/synth.py, a camera pose within the mount's tolerance per ``--poses``), fitted, and
each fit's true error measured over the felt (a 25 mm grid, against the pose that drew it).
Prints, per k: fits taken and refused, the worst true error of a fit taken, fits taken 3 mm or
more off, fits refused though within 2 mm. ``--no-sway`` leaves out the felt-sway check
(``calibration.homography.MAX_FELT_SWAY_MM``): the spread rule alone, as before it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from options import at_least, quiet_pipe  # noqa: E402

import numpy as np  # noqa: E402

from calibration import homography, synth  # noqa: E402
from calibration.errors import CalibrationError  # noqa: E402
from calibration.markers import MarkerLayout, default_layout  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--poses", type=at_least(1), default=3)
    ap.add_argument("--per-k", type=at_least(1), default=40)
    ap.add_argument("--no-sway", action="store_true", help="the spread rule alone (no felt-sway check)")
    args = ap.parse_args()
    if args.no_sway:
        homography.MAX_FELT_SWAY_MM = float("inf")
    layout = default_layout()
    rng = np.random.default_rng(7)
    poses = [synth.random_pose(rng, layout) for _ in range(args.poses)]
    grid = synth.felt_grid(layout, 25)
    print(f"felt-sway bar: {homography.MAX_FELT_SWAY_MM} mm; {args.poses} poses")
    for k in (3, 4, 5, 6, 9):
        subsets = list(itertools.combinations(range(9), k))
        if len(subsets) > args.per_k:
            pick = np.random.default_rng(k).choice(len(subsets), args.per_k, replace=False)
            subsets = [subsets[i] for i in pick]
        taken, refused, worst, off, lost = 0, 0, 0.0, 0, 0
        for sub in subsets:
            top = synth.topdown(MarkerLayout(markers=tuple(m for m in layout.markers if m.id in sub)))
            for pose in poses:
                frame = synth.render(top, pose, rng)
                det = homography.detect_markers(frame, layout)
                truth = homography.Fit(H=np.eye(3), image_size=(frame.shape[1], frame.shape[0]), source="pose")
                try:
                    fit = homography.fit_homography(det, layout, truth.image_size)
                except CalibrationError:
                    refused += 1
                    # how good a fit would have been, had it been taken
                    was = homography.MAX_FELT_SWAY_MM
                    homography.MAX_FELT_SWAY_MM = float("inf")
                    try:
                        loose = homography.fit_homography(det, layout, truth.image_size)
                        lost += float(synth.table_error_mm(pose, loose.H, grid).max()) < 2.0
                    except CalibrationError:
                        pass
                    finally:
                        homography.MAX_FELT_SWAY_MM = was
                    continue
                taken += 1
                err = float(synth.table_error_mm(pose, fit.H, grid).max())
                worst = max(worst, err)
                off += err >= 3.0
        print(f"{k} markers seen: {taken} taken, {refused} refused; worst taken {worst:.1f} mm off the felt, "
              f"{off} taken 3 mm or more off; {lost} refused though within 2 mm")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    sys.exit(main())
