"""``python -m vision tileset``: enrol a table's own tiles, name crops with them, measure them.

    python -m vision tileset enroll SET --crops DIR [--view overhead|oblique] [--margin F]
    python -m vision tileset name SET CROP... [--json] [--margin F]
    python -m vision tileset evaluate SET --crops DIR [--json] [--margin F]
    python -m vision tileset rebuild SET [--view overhead|oblique]

``DIR/<kind>/`` holds upright images of single tiles of that kind (``1m``, ``0p``,
``5z``, ``back``; png or jpg). Crops are taken as cut at the tile's edges and read
with the margin the detector's cuts have (``--margin``, a share of the crop on each
side, 0.04 by default; 0 for crops cut with their surroundings). Bad input exits 2
with one line (``TileSetError``).
"""

from __future__ import annotations

import argparse
import json
import shutil
import time
from pathlib import Path

from .crop import MARGIN

VIEWS = ("overhead", "oblique")
MARGIN_HELP = (f"grey margin added on each side of every crop, as a share of it (default {MARGIN:g}, the "
               "detector's cut; 0 for crops that already show what surrounds the tile)")


def crop_margin(text: str) -> float:
    """``--margin``'s value: a share of a crop, 0 to 0.5 a side (argparse names what is wrong)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 0.5:
        raise argparse.ArgumentTypeError(f"{value:g} is out of range (0 to 0.5 of the crop on each side)")
    return value


def add_parser(sub) -> None:
    t = sub.add_parser("tileset", help="a table's own tile set: enroll, name, evaluate, rebuild")
    ts = t.add_subparsers(dest="action", required=True, parser_class=type(t))
    e = ts.add_parser("enroll", help="make or extend SET from DIR/<kind>/ crops")
    e.add_argument("set", type=Path, metavar="SET")
    e.add_argument("--crops", type=Path, required=True, metavar="DIR")
    e.add_argument("--view", choices=VIEWS, default=None,
                   help="whose classifier a new set is built on: the table rig's (default) or a phone's beside it")
    e.add_argument("--margin", type=crop_margin, default=MARGIN, help=MARGIN_HELP)
    n = ts.add_parser("name", help="name single-tile crops with SET")
    n.add_argument("set", type=Path, metavar="SET")
    n.add_argument("crops", type=Path, nargs="+", metavar="CROP")
    n.add_argument("--json", action="store_true")
    n.add_argument("--margin", type=crop_margin, default=MARGIN, help=MARGIN_HELP)
    v = ts.add_parser("evaluate", help="accuracy per kind, red vs plain fives, the worst crops")
    v.add_argument("set", type=Path, metavar="SET")
    v.add_argument("--crops", type=Path, required=True, metavar="DIR")
    v.add_argument("--json", action="store_true")
    v.add_argument("--margin", type=crop_margin, default=MARGIN, help=MARGIN_HELP)
    r = ts.add_parser("rebuild", help="embed SET's crops again with the current classifier")
    r.add_argument("set", type=Path, metavar="SET")
    r.add_argument("--view", choices=VIEWS, help="build it on this view's classifier (default: the set's)")


def classifier_for(view: str):
    from .classifier import Classifier
    from .detect import VIEWS as MODELS

    return Classifier(MODELS[view][1])


def run(a: argparse.Namespace) -> int:
    from .tileset import TileSet, enroll_folder, evaluate_folder, open_or_create, read_crop, writing

    if a.action == "enroll":
        if a.set.exists() and not a.set.is_dir():
            raise_usage(f"{a.set}: a file, not a tile set folder")
        started = time.perf_counter()
        a.view_given, a.view = a.view is not None, a.view or "overhead"
        made = not a.set.exists()
        a.set.mkdir(parents=True, exist_ok=True)           # to hold the lock of a set made now
        try:
            with writing(a.set):
                view = TileSet.load(a.set, vectors=False).view if (a.set / "index.json").is_file() else a.view
                classifier = classifier_for(view)
                tileset = open_or_create(a.set, classifier, view)
                counts = enroll_folder(tileset, a.crops, classifier, a.margin)
                tileset.save()
        finally:
            if made and not (a.set / "index.json").exists():       # refused: no folder left behind
                shutil.rmtree(a.set, ignore_errors=True)
        added = {k: n for k, n in counts.items() if n}
        print(f"{sum(added.values())} crop(s) of {len(added)} kind(s) enrolled into {a.set} "
              f"({len(tileset.kinds())} kinds in the set, {view} classifier) in {time.perf_counter() - started:.1f} s"
              + ("; nothing new: the set holds every crop already" if not added else "")
              + (f"; --view {a.view} ignored: the set is built on the {view} classifier (rebuild --view to change it)"
                 if a.view != view and a.view_given else ""))
        return 0
    if a.action == "rebuild":
        with writing(a.set):
            tileset = TileSet.load(a.set, vectors=False)             # every crop is embedded anew
            classifier = classifier_for(a.view or tileset.view)
            tileset.rebuild(classifier, a.view)
            tileset.save()
        dropped = tileset.log[-1].get("dropped", [])
        print(f"{a.set}: rebuilt on {classifier.path.name} ({classifier.id}), "
              f"{sum(len(v) for v in tileset.crops.values())} crops"
              + (f"; {len(dropped)} that could not be read dropped: {', '.join(dropped)}" if dropped else ""))
        return 0
    tileset = TileSet.load(a.set)
    classifier = classifier_for(tileset.view)
    if a.action == "name":
        named = tileset.name_images([read_crop(p, a.margin) for p in a.crops], classifier)
        rows = [{"file": str(p), "tile": n.tile, "score": round(n.score, 4)} for p, n in zip(a.crops, named)]
        if a.json:
            print(json.dumps(rows))
        else:
            for row, n in zip(rows, named):
                print(f"{row['tile']:>4}  {row['score']:.2f}  ({n.by})  {row['file']}")
        return 0
    result = evaluate_folder(tileset, a.crops, classifier, margin=a.margin)
    if a.json:
        print(json.dumps(result.to_dict(), indent=1))
        return 0
    print(f"{result.right} of {result.total} named right ({result.accuracy:.2%}); "
          f"{result.by_set} named by the set (rule: {result.rule}), the rest by the classifier alone")
    for kind, (right, n) in sorted(result.per_kind.items()):
        print(f"  {kind:>4}  {right}/{n}")
    print("red vs plain: " + ", ".join(f"{k} {v}" for k, v in result.red_plain.items()))
    for f, truth, named, score in result.worst:
        print(f"  worst: {f}: {truth} named {named} ({score:.2f})")
    return 0


def raise_usage(message: str):
    from .tileset import TileSetError

    raise TileSetError(message)
