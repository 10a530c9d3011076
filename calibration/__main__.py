"""python -m calibration: print the marker sheet, fit a table from a frame, show tables.

Bad input (a file that is not an image, a frame without enough markers and no
stored fit, a bad table file) exits 2 with a one-line message on stderr, never
a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .debug import Debug
from .errors import CalibrationError, NoHomography
from .homography import moved_mm, rectify, scale_px_per_mm
from .lens import calibrate
from .overlay import draw_overlay
from .sheet import write_sheet
from .store import to_json, list_tables, load, save, table_path, tables_dir
from .tracker import TAP_ORDER, Tracker
from .whitebalance import apply_gains, gains_from_frame
from .zones import MIN_ON_FELT, REMAKE, default_zones, off_felt


# Corners of a sharp view fit to ~0.5 mm; a barrel lens leaves 2 mm and more.
LENS_HINT_MM = 1.0


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:     # one line, exit 2
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.dir is not None and args.dir.exists() and not args.dir.is_dir():
        return _fail(f"--dir {args.dir}: a file, not a folder of table files")
    try:
        return args.run(args)
    except CalibrationError as e:
        return _fail(str(e))
    except (OSError, cv2.error) as e:
        return _fail(str(e).strip().splitlines()[-1] if str(e).strip() else type(e).__name__)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m calibration", description=__doc__.splitlines()[0])
    p.add_argument("--dir", type=Path, help="folder of table files (default: $CALIBRATION_DIR, "
                                            "else tables/ in the user data folder)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    m = sub.add_parser("markers", help="write the marker sheet (A4, true size) as .pdf or .png")
    m.add_argument("out", type=Path, metavar="OUT.pdf")
    m.add_argument("--dpi", type=int, default=300)
    m.add_argument("--table", help="this table's markers (default: the default layout)")
    m.add_argument("--board", action="store_true", help="the ChArUco board for lens calibration instead")
    m.set_defaults(run=_markers)

    f = sub.add_parser("fit", help="fit the table from a frame; writes the table file and an overlay")
    f.add_argument("frame", type=Path, metavar="FRAME.jpg")
    f.add_argument("--table", required=True)
    f.add_argument("--overlay", type=Path, help="overlay image (default: <dir>/<table>.overlay.jpg)")
    f.add_argument("--debug", type=Path, metavar="DIR", help="write each stage's image here")
    f.add_argument("--corners", nargs=4, metavar="X,Y",
                   help="felt corners tapped in the frame (" + ", ".join(TAP_ORDER)
                        + "), used when the markers give no fit")
    f.set_defaults(run=_fit)

    s = sub.add_parser("show", help="list the tables, or show one")
    s.add_argument("--table")
    s.add_argument("--json", action="store_true", help="print the table file")
    s.set_defaults(run=_show)

    le = sub.add_parser("lens", help="calibrate the lens from ChArUco board frames; stored with the table")
    le.add_argument("frames", nargs="*", type=Path, metavar="FRAME")
    le.add_argument("--table", required=True)
    le.add_argument("--clear", action="store_true", help="remove the table's lens (and its fit) instead")
    le.set_defaults(run=_lens)
    return p


def read_frame(path: Path) -> np.ndarray:
    """The image at ``path`` as BGR; CalibrationError if it is none."""
    if not path.is_file():
        raise CalibrationError(f"{path}: {'a folder, not an image file' if path.is_dir() else 'no such file'}")
    frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if frame is None:
        raise CalibrationError(f"{path}: not an image OpenCV can read")
    return frame


def _markers(args) -> int:
    # a table named is a table file (a typo printed the default sheet, maybe the very table next door's)
    layout = load(args.table, args.dir).layout if args.table else None
    if layout is None:
        from .markers import default_layout
        layout = default_layout()
    page = write_sheet(args.out, layout, args.dpi, board=args.board)
    h, w = page.shape[:2]
    what = "lens board" if args.board else (f"{len(layout.markers)} markers (ids {_ids(layout.ids)}, "
                                            f"{layout.size_mm:g} mm, {layout.dictionary})")
    print(f"wrote {args.out}: {what}, {w / args.dpi * 25.4:.0f} x {h / args.dpi * 25.4:.0f} mm "
          f"at {args.dpi} dpi; print at 100 %")
    return 0


OVERLAY_SUFFIXES = (".jpg", ".jpeg", ".png")


def _fit(args) -> int:
    # the outputs are checked before the fit is saved: a failed write at the end would leave half a run
    if args.overlay and args.overlay.suffix.lower() not in OVERLAY_SUFFIXES:
        raise CalibrationError(f"--overlay {args.overlay}: name a .jpg or .png file")
    out = args.overlay or table_path(args.table, args.dir).with_suffix(".overlay.jpg")
    _check_writable(out, "--overlay" if args.overlay else "overlay")
    if args.debug and args.debug.exists() and not args.debug.is_dir():
        raise CalibrationError(f"--debug {args.debug}: a file, not a folder for the stages' images")
    if args.debug:
        _check_writable(args.debug, "--debug", folder=True)
    table = load(args.table, args.dir, missing_ok=True)
    off = off_felt(table.zones, table.layout)
    if off and table.zones != default_zones(table.layout):     # drawn for another table: refused
        raise CalibrationError(f"{table_path(table.name, args.dir)}: {_off_felt(off, table.layout)}; "
                               "nothing fitted")
    if off:                                                   # the defaults, on a table this small: said
        print(f"warning: {_off_felt(off, table.layout)}", file=sys.stderr)
    frame = read_frame(args.frame)
    debug = Debug(args.debug)
    stored = table.fit
    tracker = Tracker(table.layout, table.lens, last_good=stored)
    try:
        fit = tracker.update(frame, debug)
    except NoHomography:
        if not args.corners:
            raise
        fit = None
    if not fit or not fit.fresh:
        if args.corners:
            fit = tracker.tap_corners([_xy(c) for c in args.corners], (frame.shape[1], frame.shape[0]))
    label = f"table {table.name}"
    if fit.source == "markers" and fit.fresh:
        print(f"{label}: fitted from {len(fit.marker_ids)} markers (ids {_ids(fit.marker_ids)}), "
              f"RMS {fit.error_mm:.2f} mm over {fit.inliers} corners")
        if args.corners:
            print("--corners not used: the markers gave a fit (the corners are for a frame without one)")
        if fit.error_mm > LENS_HINT_MM and table.lens is None:
            print(f"hint: over {LENS_HINT_MM:g} mm RMS is what a distorting lens gives; "
                  f"see python -m calibration lens")
    elif fit.fresh:
        print(f"{label}: fitted from the four tapped corners ({tracker.last_error})")
    else:
        print(f"{label}: no fresh fit ({tracker.last_error}); kept the stored one from "
              f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(fit.made_at))} ({fit.source})")
    centre = [(a + b) / 2 for a, b in zip(table.layout.felt[:2], table.layout.felt[2:])]
    line = f"scale {scale_px_per_mm(fit, centre):.2f} px/mm at the felt's centre"
    if stored is not None and fit.fresh and tuple(stored.image_size) == fit.image_size:
        line += f"; the camera moved {moved_mm(stored, fit, table.layout):.1f} mm since the stored fit"
    print(line)
    measured = False
    if fit.fresh:
        table.fit = fit
        if fit.source == "markers":
            try:
                table.white_balance = gains_from_frame(frame, tracker.last_detection, table.layout)
                table.white_balance_at, measured = fit.made_at, True
            except CalibrationError as e:
                print(f"white balance: not measured ({str(e).removeprefix('white balance: ')})")
        table.camera["resolution"] = list(fit.image_size)     # the frames it was fitted on, now
    if table.white_balance:
        b, g, r = table.white_balance
        kept = "" if measured else "; kept from " + (
            "an earlier fit" if table.white_balance_at is None
            else f"the fit of {time.strftime('%Y-%m-%d %H:%M', time.localtime(table.white_balance_at))}")
        print(f"white balance gains: B {b:.2f} G {g:.2f} R {r:.2f}{kept}")
        balanced = apply_gains(frame, table.white_balance, debug)
    else:
        balanced = frame
    rectify(balanced, fit, table.layout, 1.0, table.lens, debug)
    overlay = draw_overlay(balanced, fit, table.layout, table.zones, table.lens, debug)
    out.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(out), overlay):
        raise CalibrationError(f"{out}: cannot write an image there; the table's fit was not saved")
    print(f"wrote overlay {out}")
    if fit.fresh:       # saved last: a run that fails (a full disk at the overlay) leaves the table as it was
        print(f"wrote {save(table, args.dir)}")
    if debug.written:
        print(f"wrote {len(debug.written)} debug images to {args.debug}")
    return 0


def _show(args) -> int:
    if not args.table:
        names = list_tables(args.dir)
        print(f"{len(names)} table(s) in {args.dir or tables_dir()}")
        for name in names:
            try:
                print("  " + _summary(load(name, args.dir)))
            except CalibrationError as e:     # a stray file among them: said, and the others still listed
                print(f"  {name}: not read ({e})")
        return 0
    table = load(args.table, args.dir)
    if args.json:
        print(to_json(table.to_dict()), end="")
        return 0
    print(_summary(table))
    lay = table.layout
    print(f"  markers: {len(lay.markers)} x {lay.size_mm:g} mm ({lay.dictionary}), ids {_ids(lay.ids)}; "
          f"table {lay.table_mm[0]:g} x {lay.table_mm[1]:g} mm, rim {lay.rim_mm:g} mm")
    for z in table.zones:
        xs, ys = zip(*z.polygon)
        print(f"  zone {z.name:<16} {min(xs):5.0f}..{max(xs):<5.0f} x {min(ys):5.0f}..{max(ys):<5.0f} mm")
    if table.camera:
        print(f"  camera: {json.dumps(table.camera)}")
    off = off_felt(table.zones, table.layout)
    if off:
        print(f"warning: {_off_felt(off, table.layout)}", file=sys.stderr)
    return 0


def _lens(args) -> int:
    if args.clear and args.frames:
        raise CalibrationError("lens: --clear takes no frames (it removes the table's lens)")
    if not args.clear and not args.frames:
        raise CalibrationError("lens: give the board's frames, or --clear to remove the table's lens")
    if args.clear:          # a lens no camera has, refused everywhere else, is cleared here
        table = load(args.table, args.dir, lens_checked=False)
        if table.lens is None:
            print(f"table {table.name} has no lens: nothing to remove")
            return 0
        table.lens = table.fit = None      # the fit is in the lens's undistorted pixels
        print(f"lens removed; wrote {save(table, args.dir)} (fit the table again: its homography was cleared)")
        return 0
    table = load(args.table, args.dir, missing_ok=True, lens_checked=False)     # its lens is replaced
    lens = calibrate([read_frame(p) for p in args.frames])
    table.lens = lens
    # A stored fit is in the old (distorted) pixels: it no longer holds.
    table.fit = None
    print(f"lens: {lens.views} views, RMS {lens.rms_px:.2f} px, "
          f"f {lens.camera_matrix[0, 0]:.0f} px, k1 {lens.dist[0]:+.3f} k2 {lens.dist[1]:+.3f}")
    print(f"wrote {save(table, args.dir)} (fit the table again: its homography was cleared)")
    return 0


def _summary(table) -> str:
    f = table.fit
    fit = "no fit" if f is None else (
        f"fit {f.source} {time.strftime('%Y-%m-%d %H:%M', time.localtime(f.made_at))}, "
        f"RMS {f.error_mm:.2f} mm, {f.image_size[0]}x{f.image_size[1]}")
    lens = "lens" if table.lens else "no lens"
    wb = "white balance" if table.white_balance else "no white balance"
    off = off_felt(table.zones, table.layout)
    zones = f"{len(table.zones)} zones" + (f" ({len(off)} off the felt)" if off else "")
    return f"{table.name}: {fit}; {lens}; {wb}; {zones}"


def _off_felt(zones, layout) -> str:
    """What is wrong, and the way out: the defaults made again where they lie on this felt, else the
    zones edited (the defaults' melds zones reach past the felt of a table under 800 mm)."""
    x0, y0, x1, y1 = layout.felt
    where = (f"zones {', '.join(z.name for z in zones)} lie off the felt ({x0:g}..{x1:g} x {y0:g}..{y1:g} mm; "
             f"less than {MIN_ON_FELT:.0%} on it): tiles laid on this felt fall outside them")
    if not off_felt(default_zones(layout), layout):
        return f"{where}: {REMAKE}, or edit them onto it"
    return f"{where}: the default zones do not fit a table this small either; edit them onto the felt"


def _check_writable(path: Path, what: str, folder: bool = False) -> None:
    """CalibrationError unless a file (``folder``: files in a folder) can be made at ``path``:
    the nearest of its folders that exists (``folder``: or itself) is a folder one may write in."""
    if path.is_dir() and not folder:
        raise CalibrationError(f"{what} {path}: a folder, not a file")
    for up in [path] * folder + list(path.parents):
        if up.exists():
            if not up.is_dir():
                raise CalibrationError(f"{what} {path}: {up} is a file, not a folder")
            if not os.access(up, os.W_OK | os.X_OK):
                raise CalibrationError(f"{what} {path}: no permission to write in {up}")
            return


def _ids(ids) -> str:
    return " ".join(str(i) for i in sorted(ids))


def _xy(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
        return x, y
    except ValueError:
        raise CalibrationError(f"--corners: {text!r} is not X,Y") from None


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends it quietly, as any Unix tool
    sys.exit(main())
