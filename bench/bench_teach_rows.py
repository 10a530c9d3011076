"""The teach page's rows when the detector misses tiles: cuts named as laid, with the missed tiles cut
where they lie (``vision.teach.with_gaps``) and without.

    .venv/bin/python bench/bench_teach_rows.py [--designs 6] [--drops 3] [--seed 0]

A tile the detector misses in a laid row used to shift the kind of every tile after it. Measured:

1. Real tiles: each hand photo's revealed line (../shared/photos, labels in vision/labels) read as a
   laid row, as the teach page reads an upload, by the oblique view's detector (the photos' own) and
   by the seat's (``vision.hand_photo.seat_detector``, which reads the tablet's hand photos): the
   boxes in the line's band grouped into rows (``rows_and_strays``), the longest given the labelled
   line's kinds in order (``assign``), each box cut at a gap kept where the classifier sees a face
   in it (``without_empty_gaps``, as the page keeps them). A stacked or aslant tile (a kakan's, a
   winning tile laid across above the line) is no place of the row and is left out. A cut is named
   as laid when its kind is the labelled tile its box lies on (IoU >= 0.5).
2. Rendered: bench_teach.py's five rows in designs no model learnt, read as the page reads them; then
   1 .. ``--drops`` of the boxes found taken away at random (20 draws each), as a detector that
   misses tiles of a set it does not know; a cut is named as laid when its kind is the laid tile
   under its centre. Then the same rows laid with a tile's room left empty in the two long rows
   (players do not always push the tiles together): a gap's box where no tile shows must not be
   given a kind.

"Without" takes the cut-in boxes out of the rows again before the kinds are given: the rows as they
were read before (one run of a row per row either way; the run's bar was 3.0 tile widths, now 3.5).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from options import at_least, quiet_pipe  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from bench_teach import DESIGN_SEED, design_style, page_read, rows_frame, tile_art  # noqa: E402
from calibration.markers import default_layout  # noqa: E402
from calibration.store import TableFile  # noqa: E402
from vision.detect import NONE, Detector  # noqa: E402
from vision.evaluate import iou, photos_dir  # noqa: E402
from vision.hand_photo import seat_detector  # noqa: E402
from vision.read import TableReader  # noqa: E402
from vision.synth.table import STEP, Laid, render_laid  # noqa: E402
from vision.teach import LAYOUT, assign, rows_and_strays, without_empty_gaps  # noqa: E402

LABELS = ROOT / "vision" / "labels"
DRAWS = 20


def without_gaps(rows):
    """The rows as read before: the boxes cut where a tile was missed taken out again."""
    return [[d for d in row if not (d.tile == NONE and d.score == 0.0)] for row in rows]


def line_places(photo: dict) -> list[dict]:
    """The labelled tiles of a photo's revealed line that are places of the row, left to right: those
    whose centre lies in the line's band (a stacked tile, or one laid across above, does not)."""
    hand = [t for t in photo["tiles"] if t.get("group") == "hand" and t["tile"] != "back"]
    mid = np.median([(t["box"][1] + t["box"][3]) / 2 for t in hand])
    h = np.median([t["box"][3] - t["box"][1] for t in hand])
    return sorted((t for t in hand if abs((t["box"][1] + t["box"][3]) / 2 - mid) < h / 3),
                  key=lambda t: t["box"][0])


def real_rows(detector: Detector) -> dict:
    """Part 1: each hand photo's line as a laid row, cuts named as laid with the gaps cut and without."""
    out = {}
    for path in sorted(LABELS.glob("hand-*.json")):
        photo = json.loads(path.read_text(encoding="utf-8"))
        image_path = photos_dir() / photo["image"]
        if not image_path.is_file():
            continue
        places = line_places(photo)
        if not places:
            continue
        x1, x2 = places[0]["box"][0], places[-1]["box"][2]
        y1 = np.median([t["box"][1] for t in places])
        y2 = np.median([t["box"][3] for t in places])
        w = np.median([t["box"][2] - t["box"][0] for t in places])
        image = cv2.imread(str(image_path))
        found = [d for d in detector.detect(image)
                 if x1 - w <= (d.box[0] + d.box[2]) / 2 <= x2 + w and y1 <= (d.box[1] + d.box[3]) / 2 <= y2]
        rows = without_empty_gaps(rows_and_strays(found)[0], image, detector)
        layout = (tuple(t["tile"] for t in places),)
        figures = {}
        for name, chosen in (("with gaps cut", rows), ("without", without_gaps(rows))):
            row = max(chosen, key=len) if chosen else []
            pairs, _ = assign([row], layout)
            right = sum(any(iou(d.box, t["box"]) >= 0.5 and t["tile"] == kind for t in places) for d, kind in pairs)
            cut = sum(d.tile == NONE for d, _ in pairs)
            figures[name] = {"right": right, "cuts": len(pairs), "cut_in": cut}
        out[path.stem] = {"places": len(places), **figures}
        f = figures
        print(f"  {path.stem}: {len(places)} places; named as laid {f['with gaps cut']['right']} of "
              f"{f['with gaps cut']['cuts']} cuts ({f['with gaps cut']['cut_in']} cut where a tile was missed), "
              f"without {f['without']['right']} of {f['without']['cuts']}", flush=True)
    return out


def named_as_laid(rows, strays, laid_under) -> int:
    pairs, _ = assign(rows, LAYOUT, strays)
    return sum(kind is not None and kind == laid_under(d.box) for d, kind in pairs)


def with_room(laid: list[Laid]) -> list[Laid]:
    """The rows laid with a tile's room left empty after the fourth tile of the two long rows."""
    length = Counter(round(t.y) for t in laid)
    out, seen = [], Counter()
    for t in laid:
        row = round(t.y)
        shift = STEP if seen[row] >= 4 and length[row] == 9 else 0.0
        seen[row] += 1
        out.append(Laid(t.tile, t.x + shift, t.y, t.turn))
    return out


def rendered_rows(designs: int, drops: int, seed: int) -> dict:
    """Part 2: bench_teach's rows in ``designs`` designs, 1 .. ``drops`` boxes taken away at random;
    then the same rows laid with room left in the two long rows, read whole."""
    art = tile_art()
    if art is None:
        return {}
    layout = default_layout()
    reader = TableReader(TableFile("synthetic"), "dunhill", Detector())
    totals = {k: {"with gaps cut": 0, "without": 0, "tiles": 0} for k in range(drops + 1)}
    room = {"kept where a tile shows": 0, "every gap cut": 0, "without": 0, "tiles": 0}
    for d in range(designs):
        style = design_style(seed, d)
        reader.tracker.last_good = None
        laid, frame = rows_frame(art, layout, style, seed, d)
        found, window, laid_under = page_read(reader, laid, frame)
        rng = np.random.default_rng(DESIGN_SEED + seed + d)
        for k in range(drops + 1):
            for _ in range(DRAWS if k else 1):
                kept = [found[i] for i in sorted(rng.choice(len(found), len(found) - k, replace=False))]
                rows, strays = rows_and_strays(kept)
                rows = without_empty_gaps(rows, window, reader.detector)
                totals[k]["with gaps cut"] += named_as_laid(rows, strays, laid_under)
                totals[k]["without"] += named_as_laid(without_gaps(rows), strays, laid_under)
                totals[k]["tiles"] += sum(len(r) for r in LAYOUT)
        spaced = with_room(laid)
        reader.tracker.last_good = None
        frame, _ = render_laid(spaced, np.random.default_rng(DESIGN_SEED + seed + d), art, layout, style=style)
        found, window, laid_under = page_read(reader, spaced, frame)
        rows, strays = rows_and_strays(found)
        room["every gap cut"] += named_as_laid(rows, strays, laid_under)
        room["kept where a tile shows"] += named_as_laid(without_empty_gaps(rows, window, reader.detector),
                                                         strays, laid_under)
        room["without"] += named_as_laid(without_gaps(rows), strays, laid_under)
        room["tiles"] += sum(len(r) for r in LAYOUT)
        print(f"  design {d}: {len(found)} boxes found in the rows' picture", flush=True)
    for k, t in totals.items():
        print(f"  {k} box(es) taken away{'' if not k else f' ({DRAWS} draws a design)'}: named as laid "
              f"{t['with gaps cut']} of {t['tiles']} laid tiles with the gaps cut "
              f"({t['with gaps cut'] / t['tiles']:.1%}), {t['without']} without ({t['without'] / t['tiles']:.1%})")
    print(f"  the rows laid with a tile's room left in the two long rows: named as laid "
          f"{room['kept where a tile shows']} of {room['tiles']} (a gap's box kept where the classifier sees a face), "
          f"{room['every gap cut']} (every gap's box kept), {room['without']} without")
    return {"drops": totals, "room": room}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--designs", type=at_least(1), default=6)
    ap.add_argument("--drops", type=at_least(0), default=3)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    for name, detector in (("the oblique view's", Detector.for_view("oblique")), ("the seat's", seat_detector())):
        print(f"real tiles: each hand photo's line as a laid row ({name} detector):")
        real_rows(detector)
    print(f"rendered: the teach page's rows in {a.designs} designs, boxes taken away at random:")
    rendered_rows(a.designs, a.drops, a.seed)
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
