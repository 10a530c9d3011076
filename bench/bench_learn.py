"""A table that learns from its confirmed counts: a session of hands, read one after another.

    .venv/bin/python bench/bench_learn.py [--designs 6] [--frames 24] [--seed 0] [--classifier ONNX] [--typed]

Rendered, so it says little of a real parlour (bench_tileset.py measures real tiles);
what it measures is item 4 of the tile set's path as the service runs it: per tile
design no model learnt (drawn as ``bench_teach.py`` draws them), ``--frames`` hands of
a session are read in turn by the service's vision reader, and after each the count
is confirmed as the hand truly was (the players fix every misread tile, tapping its
box on the snapshot: the box whose tile is not the one laid there; ``--typed``: by
typing, no box known, so ``service.learning`` learns only the fixes that are sure): its
cuts, labelled by ``service.learning`` from the confirmed record and the boxes tapped,
are learnt by the table's set (``TileSet.learn``, kept-out check and all), as
``service.table_tiles`` does on Confirm. Four tables read the same frames:

- ``alone``: no set, the classifier alone;
- ``learning``: no teaching, a set that starts empty and learns from every count;
- ``taught``: the teach page's set (``bench_teach.teach``), learning nothing more;
- ``taught+learning``: that set, learning from every count.

Printed: exact hand records per table, over the first and the second half of the
session, and how many updates each set accepted and refused. Needs the tile art at
../shared/tiles.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from options import quiet_pipe  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench_teach import design_options, design_style, hand_scene, rows_frame, teach, tile_art  # noqa: E402
from calibration.markers import default_layout  # noqa: E402
from calibration.store import TableFile  # noqa: E402
from service.learning import confirmed_cuts  # noqa: E402
from service.reader import ReadContext  # noqa: E402
from service.vision_reader import VisionReader  # noqa: E402
from vision.classes import BACK  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.layout import record_diff  # noqa: E402
from vision.read import TableReader  # noqa: E402
from vision.tileset import TileSet  # noqa: E402

TABLES = ("alone", "learning", "taught", "taught+learning")
LEARNS = {"learning", "taught+learning"}


def tapped(detections, scene) -> set[int]:
    """The boxes a player taps to fix on the snapshot: each face-up box whose tile is not the tile laid
    nearest its centre (within half the box), the laid tiles put on the frame by the scene's own
    homography."""
    laid = scene.tiles
    at = cv2.perspectiveTransform(np.array([[[t.x, t.y]] for t in laid], np.float32), scene.H).reshape(-1, 2)
    out = set()
    for i, d in enumerate(detections):
        centre = np.array([d.x + d.w / 2, d.y + d.h / 2])
        j = int(np.argmin(((at - centre) ** 2).sum(1)))
        if d.tile != BACK and np.hypot(*(at[j] - centre)) < max(d.w, d.h) / 2 and laid[j].tile != d.tile:
            out.add(i)
    return out


def session(reader: VisionReader, tileset: TileSet | None, scenes, context: ReadContext, learn: bool,
            tap: bool = True) -> dict:
    """Read ``scenes`` in turn with ``tileset`` (None: none), the set learning from each confirmed
    count when ``learn``, its fixes tapped on the snapshot (``tap``) or typed."""
    exact, accepted, refused, learn_s, taps = [], 0, 0, [], 0
    reader.use_tileset(tileset)                             # learnt in place: the reader sees each update
    for hand, scene in enumerate(scenes):
        for r in reader._readers.values():
            r.tracker.last_good = None                      # each frame on its own markers
        reading = reader.read(scene.image, context)
        exact.append(reading.record is not None and not record_diff(scene.record, reading.record))
        if tileset is not None and learn:
            started = time.perf_counter()
            # named by the hand, not the clock: which cuts are kept out (by their names' hash) is the same each run
            fixed = tapped(reading.detections, scene) if tap else set()
            taps += len(fixed)
            update = tileset.learn(confirmed_cuts(reading.cuts, [scene.record], fixed), reader.detector.classifier,
                                   stamp=f"hand{hand:04d}")
            learn_s.append(time.perf_counter() - started)
            accepted += update.accepted
            refused += not update.accepted
    return {"exact": exact, "accepted": accepted, "refused": refused, "learn_s": learn_s, "taps": taps}


def main() -> int:
    a = design_options(__doc__, 24, "hands in each design's session",
                       {"--typed": "the players fix tiles by typing, not by tapping their boxes"})
    if a.designs < 1 or a.frames < 2:
        print("error: --designs must be at least 1 and --frames at least 2", file=sys.stderr)
        return 2
    art = tile_art()
    if art is None:
        return 0
    layout = default_layout()
    context = ReadContext("dunhill")
    reader = VisionReader(TableFile("synthetic"), Detector(classifier=a.classifier))
    half = a.frames // 2
    totals = {t: [0, 0] for t in TABLES}
    learn_s: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for d in range(a.designs):
            style = design_style(a.seed, d)
            scenes = [hand_scene(art, layout, style, a.seed, d, i) for i in range(a.frames)]
            laid, frame = rows_frame(art, layout, style, a.seed, d)
            reader.use_tileset(None)
            taught = {table: teach(TableReader(reader.table, "dunhill", reader.detector), frame, laid,
                                   Path(tmp) / f"{table}-{d}")[0] for table in ("taught", "taught+learning")}
            sets = {"alone": None,
                    "learning": TileSet.create(Path(tmp) / f"learning-{d}", reader.detector.classifier, "overhead"),
                    **taught}
            line = []
            for table in TABLES:
                got = session(reader, sets[table], scenes, context, table in LEARNS, not a.typed)
                first, second = sum(got["exact"][:half]), sum(got["exact"][half:])
                totals[table][0] += first
                totals[table][1] += second
                learn_s += got["learn_s"]
                extra = (f" (updates {got['accepted']} accepted, {got['refused']} refused; {got['taps']} boxes tapped)"
                         if table in LEARNS else "")
                line.append(f"{table} {first}/{half} then {second}/{a.frames - half}{extra}")
            print(f"design {d} ({style.art_style}): " + "; ".join(line), flush=True)
    print(f"\n{a.designs} designs x {a.frames} hands, exact hand records in the first / second half of each session:")
    for table in TABLES:
        first, second = totals[table]
        print(f"  {table:>15}: {first}/{a.designs * half} then {second}/{a.designs * (a.frames - half)}")
    if learn_s:
        print(f"learning from one confirmed count: median {1000 * float(np.median(learn_s)):.0f} ms, "
              f"slowest {1000 * max(learn_s):.0f} ms")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
