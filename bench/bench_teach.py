"""Teaching a table its tiles, end to end, on rendered tables in tile designs no model learnt.

    .venv/bin/python bench/bench_teach.py [--designs 6] [--frames 20] [--seed 0] [--classifier ONNX]

Rendered, so it says little of a real parlour (bench_tileset.py measures real tiles);
what it measures is the whole path a parlour's staff take, on the table rig's own
camera: per design (``vision.synth.tile.random_style(designs=True)``: other inks, 發 in
black, engraving, glyph size and place, face and back colours; drawn from
``--seed``), the teach page's five rows (four of faces, one of three backs) laid in
the middle of the table are read as the page reads them (the frame rectified,
region-sized windows, centre first: ``service.teaching.best_picture``), each cut
fixed to the tile it shows, as a careful player would (the laid tile under its
centre), and enrolled (one crop a face, three backs). Then ``--frames`` whole-table
frames of hands in that design are read by ``vision.read.TableReader``, without
the set and with it, and compared field by field with the records they were drawn
from. Needs the tile art at ../shared/tiles.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from calibration.markers import default_layout  # noqa: E402
from calibration.store import TableFile  # noqa: E402
from service.teaching import best_picture  # noqa: E402
from vision.synth.art import ArtMissing, TileArt  # noqa: E402
from vision.detect import CLASSIFIER, Detector  # noqa: E402
from vision.layout import record_diff  # noqa: E402
from vision.read import PX_PER_MM, TableReader, table_windows, top_view, window_spots  # noqa: E402
from vision.synth.table import STEP, TH, TW, Laid, deal, render_deal, render_laid  # noqa: E402
from vision.synth.tile import random_style  # noqa: E402
from vision.teach import LAYOUT, assign, rows_and_strays, upright_cut  # noqa: E402
from vision.tileset import TileSet  # noqa: E402

from options import add_classifier, at_least, quiet_pipe  # noqa: E402

DESIGN_SEED = 70_000            # design d is drawn from seed DESIGN_SEED + --seed + d
FRAME_SEED = 80_000             # its frames from FRAME_SEED + 1,000 d + i


def rows_laid(layout) -> list[Laid]:
    """The teach page's five rows (faces, then three backs) in the middle of the table."""
    cx, cy = np.array(layout.table_mm) / 2
    return [Laid(kind, cx + (i - (len(row) - 1) / 2) * STEP, cy + (r - (len(LAYOUT) - 1) / 2) * TH * 1.6, 0.0)
            for r, row in enumerate(LAYOUT) for i, kind in enumerate(row)]


def page_read(reader: TableReader, laid: list[Laid], frame: np.ndarray):
    """The teach page's reading of a rendered frame of ``laid`` tiles: the boxes found in the window it
    teaches from (``best_picture``), that window, and the player's eye: the laid tile under a box's
    centre (None: none)."""
    top = top_view(reader.table, frame, reader.tracker.update(frame))
    windows = table_windows(top)
    chosen, found = best_picture(reader.detector, windows)
    ox, oy = window_spots(top)[1][chosen]
    at = np.array([(t.x, t.y) for t in laid])

    def laid_under(box) -> str | None:
        mm = np.array([((box[0] + box[2]) / 2 + ox) / PX_PER_MM, ((box[1] + box[3]) / 2 + oy) / PX_PER_MM])
        k = int(np.argmin(np.linalg.norm(at - mm, axis=1)))
        return laid[k].tile if np.linalg.norm(at[k] - mm) < TW / 2 else None

    return found, windows[chosen], laid_under


def teach(reader: TableReader, frame: np.ndarray, laid: list[Laid], folder: Path) -> tuple[TileSet, int, int, int]:
    """The set a careful player makes on the teach page from ``frame``: (set, cuts the page shows,
    of them already named as laid, cuts enrolled). The player fixes every cut to the tile it shows
    (here: the laid tile under the cut's centre) and leaves out a cut on no laid tile."""
    found, window, laid_under = page_read(reader, laid, frame)
    rows, strays = rows_and_strays(found)
    shown, _ = assign(rows, LAYOUT, strays)                      # its tiles as the page names them
    by_kind: dict[str, list[np.ndarray]] = {}
    for d in found:
        kind = laid_under(d.box)
        if kind is not None:
            by_kind.setdefault(kind, []).append(upright_cut(window, d))
    tileset = TileSet.create(folder, reader.detector.classifier, "overhead")
    for kind, images in by_kind.items():
        tileset.enroll(kind, images, reader.detector.classifier)
    return tileset, len(shown), sum(d.tile == kind for d, kind in shown), sum(len(v) for v in by_kind.values())


def design_options(doc: str, frames: int, frames_help: str, flags: dict[str, str] | None = None) -> argparse.Namespace:
    """The options of a bench over rendered designs: ``--designs``, ``--frames``, ``--seed``, ``--classifier``
    (the shipped overhead classifier unless a candidate is named), and the bench's own ``flags``
    (``--name``: what it does)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--designs", type=at_least(1), default=6)
    ap.add_argument("--frames", type=at_least(1), default=frames, help=frames_help)
    ap.add_argument("--seed", type=int, default=0)
    add_classifier(ap, CLASSIFIER)
    for flag, said in (flags or {}).items():
        ap.add_argument(flag, action="store_true", help=said)
    return ap.parse_args()


def design_style(seed: int, d: int):
    """Design ``d``'s tile style (``--seed`` ``seed``)."""
    return random_style(np.random.default_rng(DESIGN_SEED + seed + d), designs=True)


def hand_scene(art: TileArt, layout, style, seed: int, d: int, i: int):
    """Hand ``i`` of design ``d``, rendered on the table rig's camera."""
    rng = np.random.default_rng(FRAME_SEED + 1000 * (seed + d) + i)
    return render_deal(deal(rng), rng, art, layout, style=style)


def rows_frame(art: TileArt, layout, style, seed: int, d: int) -> tuple[list[Laid], np.ndarray]:
    """The teach page's five rows laid in design ``d``, and the table rig's frame of them."""
    laid = rows_laid(layout)
    frame, _ = render_laid(laid, np.random.default_rng(DESIGN_SEED + seed + d), art, layout, style=style)
    return laid, frame


def tile_art() -> TileArt | None:
    """The tile art the designs are drawn from, or None (said why) where ../shared/tiles is missing."""
    try:
        return TileArt()
    except ArtMissing as e:
        print(f"skipped: {e}")
        return None


def main() -> int:
    a = design_options(__doc__, 20, "whole-table frames read per design")
    art = tile_art()
    if art is None:
        return 0
    layout = default_layout()
    reader = TableReader(TableFile("synthetic"), "dunhill", Detector(classifier=a.classifier))
    totals = {"alone": 0, "with_set": 0, "frames": 0}
    with tempfile.TemporaryDirectory() as tmp:
        for d in range(a.designs):
            style = design_style(a.seed, d)
            reader.detector.use_tileset(None)
            reader.tracker.last_good = None
            laid, frame = rows_frame(art, layout, style, a.seed, d)
            started = time.perf_counter()
            tileset, read, as_laid, enrolled = teach(reader, frame, laid, Path(tmp) / f"design-{d}")
            teach_s = time.perf_counter() - started
            exact = {"alone": 0, "with_set": 0}
            for i in range(a.frames):
                scene = hand_scene(art, layout, style, a.seed, d, i)
                for mode, tiles in (("alone", None), ("with_set", tileset)):
                    reader.detector.use_tileset(tiles)
                    reader.tracker.last_good = None             # each frame on its own markers
                    exact[mode] += not record_diff(scene.record, reader.read(scene.image).record)
            print(f"design {d} ({style.art_style}, inks {tuple(round(g, 2) for g in style.ink_gain)}, "
                  f"rule {tileset.rule(reader.detector.classifier)}): the page shows {read} cuts, {as_laid} named "
                  f"as laid; {enrolled} enrolled as they are, {len(tileset.kinds())} kinds, {teach_s:.1f} s; exact records "
                  f"{exact['alone']}/{a.frames} alone, {exact['with_set']}/{a.frames} with the set", flush=True)
            for k in exact:
                totals[k] += exact[k]
            totals["frames"] += a.frames
    n = totals["frames"]
    print(f"\n{a.designs} designs x {a.frames} frames: exact hand records {totals['alone']}/{n} "
          f"({totals['alone'] / n:.1%}) with the classifier alone, {totals['with_set']}/{n} "
          f"({totals['with_set'] / n:.1%}) with the set taught from one frame of the five rows")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
