"""python -m vision: the tile detector and its data.

    python -m vision detect IMAGE [--json] [--draw OUT.png] [--grid N] [--view overhead|oblique] [--mirror]
                            [--no-refine] [--no-second] [--no-perspective] [--no-trim] [--no-under-bar]
                            [--tileset SET]
    python -m vision evaluate [--view V] [--mirror] [--no-refine] [--no-second] [--no-perspective] [--no-trim] [--no-under-bar] [--scenes N] [--oblique N] [--rim N]
                              [--console N] [--details N] [--seat N] [--seat-detector] [--synth DIR] [--real LABELS.json] [--photos DIR] [--real-grid N] [--json]
    python -m vision synth OUT [--scenes N] [--seed S] [--split train|val] [--classes locate|full]
                               [--crops] [--size 960x720] [--draw]
    python -m vision read FRAME [FRAME...] --table T [--rules R] [--json] [--debug DIR] [--no-tileset]
    python -m vision hand PHOTO [--rules R] [--seat S] [--win tsumo|ron] [--json] [--draw OUT.png] [--tileset SET]
    python -m vision tileset enroll SET --crops DIR [--view V] [--margin F] | name SET CROP... [--json] [--margin F]
                             | evaluate SET --crops DIR [--json] [--margin F] | rebuild SET [--view V]
    python -m vision train [--data DIR] [--runs DIR] [--stage data|locator|classifier|export|all] [--finetune]
                           [--start scratch|overhead|oblique] [--classifier-start PT] [--scenes N] [--oblique-scenes N]
                           [--rim-scenes N] [--seat-scenes N] [--seat-val N] [--...-epochs N]
                           [--locator-scale F] [--seed N]
    python -m vision soup CKPT CKPT [...] --into OUT.onnx
    python -m vision refiner [--data DIR] [--view oblique|overhead] [--epochs N] [--seed N] [--into OUT.onnx]

Bad input exits 2 with one line saying what is wrong.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import Sequence

from . import tileset_cli


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        print(f"error: {self.prog}: {message}", file=sys.stderr)
        raise SystemExit(2)


class UsageError(Exception):
    """Bad input the user can fix: printed as one line, exit 2."""


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must be WxH, e.g. 960x720, not {text!r}") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"size {w}x{h} is out of range (64..4096)")
    return w, h


def _detector_switches(parser: argparse.ArgumentParser) -> None:
    """The detector's optional parts, as detect and evaluate both take them."""
    parser.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=False,
                        help="also run the locator on the image mirrored (off by default: on real photos it "
                             "costs more than it finds; see models/README.md)")
    parser.add_argument("--no-refine", dest="refine", action="store_false",
                        help="leave out the view's box refiner (the oblique view has one; see models/README.md)")
    parser.add_argument("--no-second", dest="second", action="store_false",
                        help="leave out the view's second locator, which must also see each tile (the oblique "
                             "view has one, that knows a seat's console; see models/README.md)")
    parser.add_argument("--no-perspective", dest="perspective", action="store_false",
                        help="keep boxes much smaller than the tiles beyond them (the oblique view drops them: "
                             "nothing nearer the camera looks smaller; see models/README.md)")
    parser.add_argument("--no-trim", dest="trim", action="store_false",
                        help="leave each box reaching into the nearer tile in front of it (the oblique view "
                             "stops it there: a nearer tile hides the foot of the one behind; see docs/vision.md)")
    parser.add_argument("--no-under-bar", dest="under_bar", action="store_false",
                        help="leave out the faces the classifier reads surely in boxes the locator scored under "
                             "its bar (the overhead view keeps them: a design's ink the locator never learnt; "
                             "see docs/vision.md)")


def _parser() -> _Parser:
    p = _Parser(prog="python -m vision", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    d = sub.add_parser("detect", help="find and name every tile in an image")
    d.add_argument("image", type=Path)
    d.add_argument("--json", action="store_true", help="print the detections as JSON")
    d.add_argument("--draw", type=_drawing_path, metavar="OUT.png", help="write the image with boxes and labels")
    d.add_argument("--grid", type=int, default=1, choices=range(1, 7), metavar="N",
                   help="detect in N x N overlapping windows (large photos; default 1)")
    d.add_argument("--view", choices=("overhead", "oblique"), default="overhead",
                   help="the camera's view: over the table (default) or beside it, looking across")
    _detector_switches(d)
    d.add_argument("--tileset", type=Path, metavar="SET",
                   help="name tiles with this tile set (python -m vision tileset enroll); its view is used")

    e = sub.add_parser("evaluate", help="precision, recall, per-class accuracy, red vs plain fives")
    e.add_argument("--scenes", type=int, default=100, help="held-out synthetic scenes rendered now (0: none)")
    e.add_argument("--view", choices=("overhead", "oblique"), default="overhead",
                   help="which models to evaluate: the overhead ones (default) or the oblique ones")
    _detector_switches(e)
    e.add_argument("--oblique", type=int, default=0,
                   help="also this many held-out scenes seen by a slanted camera, as in the real photo")
    e.add_argument("--rim", type=int, default=0,
                   help="also this many held-out slanted scenes with tiles on the table's rim half the time")
    e.add_argument("--console", type=int, default=0,
                   help="also this many held-out slanted scenes with a seat's console (rail, score display, "
                        "stick tray) across the bottom")
    e.add_argument("--details", type=int, default=0,
                   help="also this many held-out console scenes whose console has labelled keys and a tray "
                        "of compartments")
    e.add_argument("--seat", type=int, default=0,
                   help="also this many held-out photos from the winner's seat (the revealed hand across the "
                        "picture, near the camera)")
    e.add_argument("--seat-detector", action="store_true",
                   help="score the detector a photo from the seat is read with (the oblique view's models with "
                        "the seat's own locator, no second locator: vision.hand_photo.seat_detector) in place "
                        "of --view's")
    e.add_argument("--locator", type=Path, metavar="ONNX",
                   help="a candidate locator in the view's locator's place (default: the view's shipped one)")
    e.add_argument("--tight-boxes", action="store_true",
                   help="the slanted scenes' truth boxed as a person boxes a photo: a far tile's box stops where "
                        "the nearer tile starts (python -m vision train --tight-boxes)")
    e.add_argument("--synth", type=Path, help="a dataset folder (python -m vision synth) to score instead")
    e.add_argument("--split", default="val", help="its split (default val)")
    e.add_argument("--real", type=Path, action="append", default=None,
                   help="a labels file of a real photo (default: the shared AMOS photo's labels)")
    e.add_argument("--photos", type=Path, help="folder holding the labelled photos (default ../shared/photos)")
    e.add_argument("--real-grid", type=int, default=3, choices=range(1, 7), metavar="N",
                   help="windows per side on the real photos (default 3, see models/README.md)")
    e.add_argument("--json", action="store_true")

    s = sub.add_parser("synth", help="render table scenes with ground truth (YOLO labels, truth JSON, crops)")
    s.add_argument("out", type=Path)
    s.add_argument("--scenes", type=int, default=100)
    s.add_argument("--seed", type=int, default=0, help="first scene's seed (held-out sets use other seeds)")
    s.add_argument("--split", choices=("train", "val"), default="train")
    s.add_argument("--classes", choices=("locate", "full"), default="locate")
    s.add_argument("--crops", action="store_true", help="also write the classifier's cuts (cls/<split>/<label>/)")
    s.add_argument("--size", type=_size, default=(960, 720))
    s.add_argument("--draw", action="store_true", help="also write each new scene with its truth drawn (debug/)")

    r = sub.add_parser("read", help="a frame of the table after a win -> the hand record and warnings")
    r.add_argument("frames", type=Path, nargs="+", help="one frame, or several of the still table to vote")
    r.add_argument("--table", required=True, help="the table's calibration (python -m calibration fit)")
    r.add_argument("--tables", type=Path, help="folder of table files (default: calibration's)")
    r.add_argument("--rules", default="dunhill",
                   help="the table's house rule, written into the record (not checked: vision knows no rules; "
                        "the frame is read with 三人花's set and gari 1m 5m 9m 4z, where the service reads a "
                        "table with its rule's own, chinton's eight of a kind and gari 1m 9m 4z)")
    r.add_argument("--json", action="store_true", help="print {record, warnings} as JSON")
    r.add_argument("--debug", type=_folder_path, metavar="DIR", help="write every stage's image there")
    r.add_argument("--no-tileset", dest="tileset", action="store_false",
                   help="name tiles with the classifier alone, not with the table's tile set")

    h = sub.add_parser("hand", help="a photo of a revealed hand taken from the seat -> its tiles in the hand record")
    h.add_argument("photo", type=Path)
    h.add_argument("--rules", default="dunhill",
                   help="the table's house rule, written into the record (not checked; read with 三人花's set)")
    h.add_argument("--seat", choices=("east", "south", "west"), default="east", help="the winner's seat")
    h.add_argument("--win", choices=("tsumo", "ron"), default="tsumo")
    h.add_argument("--json", action="store_true", help="print {record, line, warnings} as JSON")
    h.add_argument("--draw", type=_drawing_path, metavar="OUT.png",
                   help="write the photo with the line's tiles drawn")
    h.add_argument("--tileset", type=Path, metavar="SET",
                   help="name tiles with this tile set, enrolled for the oblique view (python -m vision tileset "
                        "enroll SET --crops DIR --view oblique)")

    tileset_cli.add_parser(sub)

    t = sub.add_parser("train", help="render data, train both stages, export ONNX to models/ (train extra)")
    t.add_argument("--data", type=Path, default=Path("data/tiles"))
    t.add_argument("--runs", type=Path, default=Path("runs/vision"))
    t.add_argument("--stage", choices=("data", "locator", "classifier", "export", "all"), default="all")
    t.add_argument("--scenes", type=int, help="overhead training scenes (seeds 0 up)")
    t.add_argument("--oblique-scenes", type=int, help="oblique training scenes (seeds 3,000,000 up)")
    t.add_argument("--rim-scenes", type=int,
                   help="oblique training scenes with tiles on the table's rim half the time (seeds 4,000,000 up)")
    t.add_argument("--console-scenes", type=int,
                   help="oblique training scenes with a player's console (rail, score display, stick tray) "
                        "across the bottom, as a photo from a seat shows (seeds 5,000,000 up)")
    t.add_argument("--details-scenes", type=int,
                   help="console scenes whose console also has labelled keys and a tray of compartments "
                        "(seeds 6,000,000 up)")
    t.add_argument("--seat-scenes", type=int,
                   help="photos from the winner's seat: the revealed hand across the picture near the camera, its "
                        "tiles touching, the console below it often (seeds 7,000,000 up)")
    t.add_argument("--seat-val", type=int,
                   help="photos from the winner's seat held out to validate on (seeds 7,500,000 up): a seat "
                        "locator's best epoch is chosen on them")
    t.add_argument("--locator-epochs", type=int)
    t.add_argument("--classifier-epochs", type=int)
    t.add_argument("--locator-imgsz", type=int)
    t.add_argument("--locator-scale", type=float,
                   help="the locator's scale augmentation (default 0.3: tiles at 0.7-1.3x)")
    t.add_argument("--seed", type=int, help="training seed (default 0): runs to average into a soup differ by it")
    t.add_argument("--finetune", action="store_true",
                   help="fine-tune the shipped models on overhead and oblique scenes (FINETUNE_PLAN)")
    t.add_argument("--start", choices=("scratch", "overhead", "oblique"),
                   help="train from scratch or from a shipped pair (default: scratch; overhead with --finetune)")
    t.add_argument("--classifier-start", type=Path, metavar="PT",
                   help="fine-tune the classifier from this checkpoint of an earlier run (its best.pt) rather "
                   "than from --start")
    t.add_argument("--locator-model", help="the locator's ultralytics yaml (default yolov8n.yaml on a CPU, "
                   "yolov8s.yaml on a GPU)")
    t.add_argument("--classifier-model", help="the classifier's ultralytics yaml (default yolov8n-cls.yaml on a "
                   "CPU, yolov8s-cls.yaml on a GPU)")
    t.add_argument("--locator-batch", type=int)
    t.add_argument("--classifier-batch", type=int)
    t.add_argument("--workers", type=int, help="data-loading processes per stage")
    t.add_argument("--hours", type=float, help="stop each stage after this long (its epochs fitted to it)")
    t.add_argument("--cache", action="store_true", help="hold the decoded training images in memory")
    t.add_argument("--jobs", type=int, help="processes rendering the scenes side by side (default 1)")
    t.add_argument("--designs", type=float, metavar="SHARE",
                   help="share of scenes whose tiles are drawn in one of many designs (inks, engraving, "
                        "glyph size; default 0: the art's two styles)")
    t.add_argument("--real-faces", type=float, metavar="SHARE",
                   help="share of scenes whose tiles show the faces of the fitting real single tiles "
                        "(../shared/real-tiles; vision/synth/real_faces.py; default 0)")
    t.add_argument("--fonts", type=float, metavar="SHARE",
                   help="share of scenes whose character tiles (manzu, honours) are drawn in one of the CJK "
                        "typefaces installed (vision/synth/fonts.py; needs Pillow and the fonts; default 0)")
    t.add_argument("--suits", type=float, metavar="SHARE",
                   help="share of scenes whose circles and bamboos (2p-9p, 2s-9s, their red fives) are drawn as "
                        "another maker draws them: other circles, sticks, inks, spacing (vision/synth/suits.py; "
                        "default 0)")
    t.add_argument("--low-seats", type=float, metavar="SHARE",
                   help="share of the photos from the seat (--seat-scenes, --seat-val) taken lower over the hand: "
                        "faces more squeezed, the tiles' sides mostly ivory (vision/synth/scene.py; default 0)")
    t.add_argument("--capture", type=float, metavar="SHARE",
                   help="share of scenes whose classifier cuts are taken through a camera's capture: smaller, "
                        "blurred, noisy, JPEG-compressed (vision/synth/capture.py; default 0)")
    t.add_argument("--tight-boxes", action="store_true",
                   help="oblique scenes' boxes leave out the slivers of a tile seen beside a nearer one in its "
                        "column, as a person boxes a photo (vision/synth/oblique.py; default: every pixel seen)")
    t.add_argument("--real-variants", type=int, metavar="N",
                   help="add the fitting two thirds of the real single tiles (../shared/real-tiles) to the "
                        "classifier's cuts, each with N variants (vision/build/real_cls.py; default: none)")

    w = sub.add_parser("soup", help="average fine-tunes of one model into one ONNX file (the train extra)")
    w.add_argument("checkpoints", type=Path, nargs="+", help="ultralytics checkpoints (.pt) from one start")
    w.add_argument("--into", type=Path, required=True, metavar="OUT.onnx", help="the ONNX file to write")

    f = sub.add_parser("refiner", help="train a view's box refiner on its locator's candidates (the train extra)")
    f.add_argument("--data", type=Path, default=Path("data/tiles"),
                   help="a training data folder (python -m vision train --stage data)")
    f.add_argument("--view", choices=("overhead", "oblique"), default="oblique",
                   help="whose locator's candidates to learn from (default oblique)")
    f.add_argument("--epochs", type=int, default=6)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--into", type=Path, metavar="OUT.onnx", help="the ONNX file to write (default: the view's "
                   "refiner in models/)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    a = _parser().parse_args(argv)
    from .detect import ModelMissing
    from .tileset import TileSetError

    try:
        return {"detect": _detect, "evaluate": _evaluate, "synth": _synth, "train": _train,
                "read": _read, "hand": _hand, "soup": _soup, "refiner": _refiner, "tileset": tileset_cli.run}[a.command](a)
    except (ModelMissing, UsageError, TileSetError, *_art_missing()) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:      # a read-only or full disk, a path under a file: the path and why, not a traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"error: {where}{e.strerror or e}", file=sys.stderr)
        return 2


DRAWING_SUFFIXES = (".png", ".jpg", ".jpeg")


def _drawing_path(text: str) -> Path:
    """--draw's path, checked before any model runs: an image file OpenCV writes, in a folder that is there."""
    path = Path(text)
    if path.suffix.lower() not in DRAWING_SUFFIXES:
        raise argparse.ArgumentTypeError(f"{text}: name a .png or .jpg file")
    if path.is_dir() or not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: {'a folder' if path.is_dir() else 'no such folder'}; "
                                         "name a .png or .jpg file in a folder that is there")
    return path


def _folder_path(text: str) -> Path:
    """A folder to write into (made where it is not there yet), checked before any model runs."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text}: a file, not a folder")
    return path


def _art_missing() -> tuple[type[Exception], ...]:
    """The tile art's error, where a command loaded the art (rendering, training): the runtime's
    commands never import vision.synth, and importing it for its error loaded ten modules of it."""
    art = sys.modules.get("vision.synth.art")
    return (art.ArtMissing,) if art is not None else ()


def _write_drawing(path: Path, image) -> None:
    import cv2

    try:   # encoded here and written by Python: OpenCV's own write printed a warning line of its own
        ok, encoded = cv2.imencode(Path(path).suffix or ".png", image)
    except cv2.error:   # OpenCV raises, not returns False, for a suffix it cannot encode to
        ok = False
    if not ok:
        raise UsageError(f"{path}: cannot write an image there (use .png or .jpg)")
    try:
        Path(path).write_bytes(encoded.tobytes())
    except OSError as e:
        raise UsageError(f"{path}: cannot write an image there ({e.strerror or e})") from None


def _read_image(path: Path):
    import cv2
    import numpy as np

    if not path.is_file():
        raise UsageError(f"{path}: {'a folder, not an image file' if path.is_dir() else 'no such file'}")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise UsageError(f"{path}: not an image OpenCV can read")
    return image


def _detect(a: argparse.Namespace) -> int:
    import json

    from .detect import Detector
    from .draw import draw_detections

    image = _read_image(a.image)
    tileset = None
    if a.tileset:
        from .tileset import TileSet

        tileset = TileSet.load(a.tileset)
        a.view = tileset.view
    found = Detector.for_view(a.view, mirror=a.mirror, refine=a.refine, second=a.second,
                              perspective=a.perspective, trim=a.trim, under_bar=a.under_bar,
                              tileset=tileset).detect(image, grid=a.grid)
    if a.draw:
        _write_drawing(a.draw, draw_detections(image, found))
    if a.json:
        print(json.dumps([d.to_dict() for d in found]))
    else:
        for d in found:
            x1, y1, x2, y2 = (round(v) for v in d.box)
            print(f"{d.tile:>4}  rot {d.rotation:>3}  score {d.score:.2f}  box {x1},{y1},{x2},{y2}")
        print(f"{len(found)} tile(s)")
    return 0


def _evaluate(a: argparse.Namespace) -> int:
    import json

    from .evaluate_run import run_evaluation

    for flag in ("scenes", "oblique", "rim", "console", "details", "seat"):
        if getattr(a, flag) < 0:
            raise UsageError(f"--{flag} must be 0 or more, not {getattr(a, flag)}")
    if a.locator is not None and not a.locator.is_file():
        raise UsageError(f"--locator: no ONNX file at {a.locator}")
    detector = None
    if a.seat_detector:
        from .hand_photo import seat_detector

        detector = seat_detector(mirror=a.mirror, refine=a.refine, perspective=a.perspective, trim=a.trim,
                                 locator=a.locator)
    try:
        reports = run_evaluation(scenes=a.scenes, synth=a.synth, split=a.split, real=a.real, photos=a.photos,
                                 detector=detector, real_grid=a.real_grid, oblique=a.oblique, view=a.view,
                                 mirror=a.mirror, rim=a.rim, refine=a.refine,
                                 console=a.console, second=a.second, details=a.details,
                                 perspective=a.perspective, trim=a.trim, under_bar=a.under_bar, seat=a.seat,
                                 locator=a.locator,
                                 tight_boxes=a.tight_boxes)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None
    if a.json:
        print(json.dumps([r.to_dict() for r in reports], indent=1))
    else:
        print("\n\n".join(r.text() for r in reports))
    return 0


def _read(a: argparse.Namespace) -> int:
    import json

    from calibration.debug import Debug
    from calibration.errors import CalibrationError
    from calibration.store import load

    frames = [_read_image(f) for f in a.frames]
    try:
        from .detect import Detector
        from .read import TableReader

        table = load(a.table, a.tables)
        detector = Detector()
        reader = TableReader(table, a.rules, detector=detector,
                             tileset=_table_set(a.table, a.tables, detector.classifier) if a.tileset else None)
        reading = reader.read_frames(frames, Debug(a.debug) if a.debug else None)
    except CalibrationError as e:
        raise UsageError(str(e)) from None
    if a.json:
        print(json.dumps({"record": reading.record, "warnings": reading.warnings}, ensure_ascii=False))
    else:
        print(json.dumps(reading.record, ensure_ascii=False, indent=1))
        for w in reading.warnings:
            print(f"warning: {w}")
    return 0


def _table_set(table: str, folder, classifier):
    """The table's tile set ready for the overhead ``classifier``, or None where it has none: loaded
    and (where built on another classifier) rebuilt and saved holding the set's lock, as the service
    and ``tileset enroll`` do (a rebuild here saved over what the service had saved meanwhile)."""
    from .tileset import INDEX, ready, table_tileset_path, writing

    path = table_tileset_path(table, folder)
    if not (path / INDEX).is_file():
        return None
    with writing(path):
        return ready(path, classifier)


def _hand(a: argparse.Namespace) -> int:
    import json

    from .draw import draw_detections
    from .hand_photo import read_photo, seat_detector

    image = _read_image(a.photo)
    detector = None
    if a.tileset:
        from .tileset import TileSet

        tileset = TileSet.load(a.tileset)
        if tileset.view != "oblique":
            raise UsageError(f"{a.tileset}: a tile set for the {tileset.view} view; a photo from the seat is read "
                             "in the oblique view (enrol a set with --view oblique)")
        detector = seat_detector(tileset=tileset)
    hand = read_photo(image, detector)
    record = hand.into({"rules": a.rules, "seat": a.seat, "win": a.win})
    line = hand.line_tiles
    if a.draw:
        _write_drawing(a.draw, draw_detections(image, hand.line.tiles if hand.line else []))
    if a.json:
        print(json.dumps({"record": record, "line": line, "warnings": list(hand.warnings)}, ensure_ascii=False))
    else:
        print(json.dumps(record, ensure_ascii=False, indent=1))
        print("line: " + (" ".join(line) or "none"))
        for w in hand.warnings:
            print(f"warning: {w}")
    return 0


def _synth(a: argparse.Namespace) -> int:
    from .synth.art import TileArt
    from .synth.dataset import write_dataset

    if a.scenes < 1:
        raise UsageError("--scenes must be at least 1")
    if a.out.exists() and not a.out.is_dir():
        raise UsageError(f"{a.out}: a file, not a folder to write the scenes in")
    art = TileArt()
    n = write_dataset(a.out, a.scenes, a.seed, a.split, art=art, size=a.size, classes=a.classes,
                      crops=a.crops, draw=a.draw)
    print(f"{a.out}: {n} scene(s) written, {a.scenes - n} already there ({a.split}, classes {a.classes})")
    return 0


def _need_train_extra(what: str) -> None:
    try:
        import ultralytics  # noqa: F401
    except ImportError:
        raise UsageError(f"{what} needs the train extra: see models/README.md (torch, ultralytics, onnx, "
                         "onnxslim in a separate venv)") from None


def _train(a: argparse.Namespace) -> int:
    if a.jobs is not None and a.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if a.hours is not None and a.hours <= 0:
        raise UsageError("--hours must be more than 0")
    if a.designs is not None and not 0 <= a.designs <= 1:
        raise UsageError("--designs must be a share from 0 to 1")
    if a.real_variants is not None and a.real_variants < 0:
        raise UsageError("--real-variants must be 0 or more")
    if a.real_faces is not None and not 0 <= a.real_faces <= 1:
        raise UsageError("--real-faces must be a share from 0 to 1")
    if a.fonts is not None and not 0 <= a.fonts <= 1:
        raise UsageError("--fonts must be a share from 0 to 1")
    if a.suits is not None and not 0 <= a.suits <= 1:
        raise UsageError("--suits must be a share from 0 to 1")
    if a.capture is not None and not 0 <= a.capture <= 1:
        raise UsageError("--capture must be a share from 0 to 1")
    if a.low_seats is not None and not 0 <= a.low_seats <= 1:
        raise UsageError("--low-seats must be a share from 0 to 1")
    if a.classifier_start is not None and not a.classifier_start.is_file():
        raise UsageError(f"--classifier-start: no checkpoint at {a.classifier_start}")
    from .synth.fonts import available as fonts_available

    if a.fonts and not fonts_available():
        raise UsageError("--fonts needs Pillow and CJK fonts (vision/synth/fonts.py names the Debian packages)")
    from .build.real_tiles import present as real_tiles_present

    if (a.real_variants or a.real_faces) and not real_tiles_present():
        raise UsageError("--real-faces and --real-variants need the real single tiles in ../shared/real-tiles/camerash")
    _need_train_extra("training")
    from .build.train import FINETUNE_PLAN, train

    plan = FINETUNE_PLAN if a.finetune else None
    for path in train(a.data, a.runs.resolve(), a.stage, plan, scenes=a.scenes, oblique_scenes=a.oblique_scenes,
                      rim_scenes=a.rim_scenes, console_scenes=a.console_scenes, details_scenes=a.details_scenes,
                      seat_scenes=a.seat_scenes, seat_val=a.seat_val, locator_epochs=a.locator_epochs,
                      classifier_epochs=a.classifier_epochs,
                      locator_imgsz=a.locator_imgsz, locator_scale=a.locator_scale, seed=a.seed,
                      start=a.start, classifier_start=str(a.classifier_start) if a.classifier_start else None,
                      locator_model=a.locator_model, classifier_model=a.classifier_model,
                      locator_batch=a.locator_batch,
                      classifier_batch=a.classifier_batch, workers=a.workers, hours=a.hours,
                      cache=a.cache or None, jobs=a.jobs, designs=a.designs,
                      real_faces=a.real_faces, real_variants=a.real_variants, fonts=a.fonts, suits=a.suits,
                      low_seats=a.low_seats, capture=a.capture, tight_boxes=a.tight_boxes or None):
        print(path)
    return 0


def _soup(a: argparse.Namespace) -> int:
    missing = [str(p) for p in a.checkpoints if not p.is_file()]
    if missing:
        raise UsageError(f"no such checkpoint: {', '.join(missing)}")
    if len(a.checkpoints) < 2:
        raise UsageError("a soup needs two checkpoints or more")
    if a.into.suffix != ".onnx":
        raise UsageError(f"--into must name an .onnx file, not {a.into}")
    _need_train_extra("a soup")
    from .build.soup import soup

    try:
        print(soup(a.checkpoints, a.into))
    except ValueError as e:
        raise UsageError(str(e)) from None
    return 0


def _refiner(a: argparse.Namespace) -> int:
    from .detect import REFINERS, Detector

    into = a.into or REFINERS.get(a.view)
    if into is None:
        raise UsageError(f"the {a.view} view ships no refiner: name the file to write with --into")
    if into.suffix != ".onnx":
        raise UsageError(f"--into must name an .onnx file, not {into}")
    if a.epochs < 1:
        raise UsageError("--epochs must be at least 1")
    from .build.refine_train import collect, fit, truth_files

    files = truth_files(a.data, a.view)
    if not files:
        raise UsageError(f"{a.data}: no training scenes (python -m vision train --data {a.data} --stage data)")
    try:
        import torch  # noqa: F401
    except ImportError:
        raise UsageError("training the refiner needs the train extra (torch): see models/README.md") from None
    detector = Detector.for_view(a.view, refine=False)
    try:
        samples = collect(detector, a.data, files, a.seed)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None
    print(f"{len(samples.cuts)} samples from {len(files)} scenes", flush=True)
    print(fit(samples, into, a.epochs, seed=a.seed, log=lambda line: print(line, flush=True)))
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends it quietly, as any Unix tool
    signal.signal(signal.SIGINT, signal.SIG_DFL)    # and Ctrl-C (waiting on stdin, or a long read): no traceback
    raise SystemExit(main())
