"""Real tiles, with and without a table's tile set: what the camera names right on its first day.

    .venv/bin/python bench/bench_tileset.py [--view oblique|overhead] [--repeats 20] [--grid 1] [--mirror] [--json]
        [--tile-width PX] [--camera] [--retakes 20] [--classifier C.onnx] [--locator L.onnx] [--seat-locator S.onnx]
        [--seat-classifier C.onnx] [--labels DIR]

Three parts, each on real material only (``../shared``; a part whose material is
missing is skipped with a line saying so):

1. **Single real tiles** (``../shared/real-tiles/camerash``, 540 crops of the 34
   kinds from many sets): the classifier alone on the held-out third and on all,
   then a set enrolled with 1, 3 and 5 crops a kind of the third the tile set's
   space was never fitted on
   (``vision.build.real_tiles.held_out``), named on that third's other crops
   (random splits, ``--repeats`` of them, mean and worst). The crops come from
   many designs, so a set here mixes designs: a harder test than one parlour's set.
   Then the same for the 三人花 kinds alone (no 2m-8m: all a 三人花 table's set enrols).
2. **Real photos** (``../shared/photos`` with ``vision/labels/*.json``; ``--labels DIR`` with
   ``TOUTENKOU_PHOTOS``: other labelled photos, such as a table's confirmed photos of the hand and
   its camera's confirmed frames, kept beside its snapshots by ``service.photo_labels``): the
   detector zero-shot (no set; a table camera's frame is read as the table read it, with the
   calibration its labels carry and the overhead view's detector: ``as_the_table_read``), then a
   set enrolled from the labelled tiles of another photo of the same tile set and used on this one.
   Per photo: labelled tiles found and named right (IoU >= 0.5), the revealed hand line (every tile found once, in
   order), extra boxes by the line, boxes on ground the labels mark clear of tiles
   (felt, rails, the table's panels: ``clear``), and the found boxes' height over the
   labels' (upright and sideways tiles apart). The hand read from the photo alone
   (the detector the tablet reads a seat's photo with: ``hand_photo.seat_detector``),
   then each hand photo taken again ``--retakes`` times (a little larger or smaller,
   turned, shifted, exposed and compressed otherwise: ``taken_again``), its line read
   as the tablet reads an upload (once; and read again at other sizes where the line is no
   winner's hand, as the service does: ``winners_shape``), and its labelled boxes, moved with the photo, named
   (naming alone: a line lost to its boxes told from one lost to its names); the same
   retakes as the service takes them, under a house rule that holds the hand
   (``as_the_tablet``: mended, read again, the players pointed at a tile); the
   same retakes again with a set taught from the photo's own labelled tiles (the
   most teaching can give) and from another photo of its tile set.
   Then one set's own tiles: the detector's cuts of the labelled tiles of a tile
   set's photos (a table's confirmed frames are one set: ``tile_sets``), a set of up to 3 of them
   a kind, named on the others; by how each tile lay (upright or sideways), and the same splits
   cut at the labels' boxes.
3. **Speed**: enrolling 37 kinds x 3 crops, and what naming with a set adds per image.
"""

from __future__ import annotations

import argparse
import collections
import difflib
import json
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Iterable, Mapping

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from calibration.store import TableFile  # noqa: E402
from service.read_tally import fields_fixed  # noqa: E402
from vision.classes import BACK, KINDS, REDS, SANMA_KINDS  # noqa: E402
from vision.classifier import Classifier  # noqa: E402
from vision.crop import MARGIN, upright_cut, with_margin  # noqa: E402
from vision.detect import VIEWS, Detector  # noqa: E402
from vision.evaluate import iou, match, on_clear_ground, photos_dir  # noqa: E402
from vision.hand_photo import Tile, as_read, look_again, read_hand, read_photo, seat_detector  # noqa: E402
from vision.build.real_tiles import REAL_TILES, camerash, held_out  # noqa: E402
from vision.read import TableReader  # noqa: E402
from vision.synth.capture import jpeg_again  # noqa: E402
from vision.tileset import FUSED, RULES, SET, TileSet, square_cut  # noqa: E402
from vision.tileset_cli import crop_margin  # noqa: E402

from options import at_least, labels_folder, new_file, onnx_file, quiet_pipe  # noqa: E402

LABELS = ROOT / "vision" / "labels"
# enrol from the first photo, read the second: photos of one tile set (vision/labels/README.md)
SAME_SET = [("hand-92345ff1", "hand-839f5eac"), ("hand-839f5eac", "hand-92345ff1"),
            ("amos-table-overhead", "hand-eafe5f63"), ("hand-eafe5f63", "amos-table-overhead")]
# the photos of each tile set (vision/labels/README.md)
TILE_SETS = {"AMOS REXX III": ["amos-table-overhead", "hand-eafe5f63"],
             "grey felt, red backs": ["hand-92345ff1", "hand-839f5eac"],
             "green felt, purple backs": ["hand-70008812"]}
OWN_SET_SPLITS = 20
CAMERA_BLUR = 0.8          # px (Gaussian sigma) at the tile's size: focus and motion of a cheap camera
CAMERA_NOISE = 4.0         # grey levels (sigma) of sensor noise
CAMERA_JPEG = 60           # quality of the frame's compression
PHONE_PX = 4032            # a 12 MP phone photo's longer side
RETAKES = 20               # each hand photo taken again this many times (``taken_again``)
RETAKE_SCALE = (0.6, 1.1)  # the retake's size against the photo's
RETAKE_TURN = 3.0          # degrees either way
RETAKE_SHIFT = 0.02        # of the photo's width and height, either way
RETAKE_LIGHT = (0.8, 1.2)  # exposure (a gain) ...
RETAKE_GAMMA = (0.85, 1.15)  # ... and tone curve
RETAKE_JPEG = (55, 95)     # JPEG quality
WORST_CROPS = 3             # the crops missed most, printed for each number of crops enrolled
SHOTS = (1, 3, 5)           # the held-out third has 4-8 crops a kind: every kind keeps some to name
# the kinds whose face is a picture each maker draws its own way (the 1s's bird): a set of mixed designs
# cannot teach one maker's bird by another's, and one parlour's set enrols its own
PICTURES = ("1s",)
DEMO = ROOT / "service" / "demo" / "frames"     # rendered tables the demo camera shows (speed: a whole frame)
DEMO_FRAMES = 30


def shrunk(image: np.ndarray, width: int | None) -> np.ndarray:
    """A crop as a camera that sees the tile ``width`` px wide would cut it (None: as it is)."""
    if not width or image.shape[1] <= width:
        return image
    h = max(1, round(image.shape[0] * width / image.shape[1]))
    return cv2.resize(image, (width, h), interpolation=cv2.INTER_AREA)


def through_camera(image: np.ndarray, seed: int) -> np.ndarray:
    """A crop as a cheap camera would give it at its size: blurred, noisy, JPEG-compressed."""
    rng = np.random.default_rng(seed)
    blurred = cv2.GaussianBlur(image, (0, 0), CAMERA_BLUR)
    noisy = np.clip(blurred + rng.normal(0, CAMERA_NOISE, image.shape), 0, 255).astype(np.uint8)
    return jpeg_again(noisy, CAMERA_JPEG)


def single_tiles(classifier: Classifier, repeats: int, folder: Path, width: int | None = None,
                 camera: bool = False, margin: float = MARGIN) -> dict:
    """The classifier alone on every crop, then sets enrolled and named within the held-out third
    (``vision.build.real_tiles.held_out``: the crops the set's projection was never fitted on);
    with ``width``, every crop first shrunk to that many px wide; with ``camera``, then seen through
    a cheap camera (``through_camera``), enrolled crops as well as named ones. Each crop is then set
    in ``margin`` grey on each side, as ``python -m vision tileset`` reads a folder's crops
    (``crop.with_margin``: camerash's crops are cut at the tile's edges)."""
    every = [(name, kind, shrunk(image, width)) for name, kind, image in camerash()]
    if camera:
        every = [(name, kind, through_camera(image, zlib.crc32(name.encode()))) for name, kind, image in every]
    every = [(name, kind, with_margin(image, margin)) for name, kind, image in every]
    if not every:
        print(f"single tiles: skipped, no {REAL_TILES}")
        return {}
    crops = [(kind, image) for name, kind, image in every if held_out(name)]
    names = [name for name, _, _ in every if held_out(name)]
    kinds = sorted({k for k, _ in crops})
    alone = TileSet.create(folder / "none", classifier).name_images([c for *_, c in every], classifier)
    right = np.array([n.tile == k for n, (_, k, _) in zip(alone, every)])
    kept_out = np.array([held_out(name) for name, _, _ in every])
    out = {"crops": len(every), "held_out": len(crops), "kinds": len(kinds), "width": width, "camera": camera,
           "margin": margin, "zero_shot": float(right[kept_out].mean()), "zero_shot_all": float(right.mean())}
    size = ((f", each shrunk to {width} px wide" if width else "") + (f", set in {margin:g} grey a side" if margin else "")
            + (f", through a cheap camera (blur {CAMERA_BLUR} px, noise {CAMERA_NOISE:g}, JPEG {CAMERA_JPEG})"
               if camera else ""))
    print(f"single real tiles ({len(every)} crops, {len(kinds)} kinds, many designs; sets on the held-out "
          f"{len(crops)}{size}), {classifier.path.parent.name}/{classifier.path.name}:")
    print(f"  classifier alone: {out['zero_shot']:.2%} of the held-out third ({out['zero_shot_all']:.2%} of all "
          f"crops, two thirds of them fitted on)")
    out.update(enrolled_splits(crops, kinds, classifier, repeats, folder / "all", names))
    # a table set to 三人花 holds no 2m-8m: its set enrols the 28 kinds it has, and only they are laid
    sanma = [k for k in kinds if k in SANMA_KINDS]
    held = [(k, image) for k, image in crops if k in SANMA_KINDS]
    held_names = [name for name, (k, _) in zip(names, crops) if k in SANMA_KINDS]
    zero_shot = float(right[kept_out & np.array([k in SANMA_KINDS for _, k, _ in every])].mean())
    print(f"  the 三人花 kinds alone ({len(sanma)} kinds, {len(held)} crops): classifier alone {zero_shot:.2%}")
    out["sanma"] = {"kinds": len(sanma), "held_out": len(held), "zero_shot": zero_shot,
                    **enrolled_splits(held, sanma, classifier, repeats, folder / "sanma", held_names)}
    return out


def enrolled_splits(crops: list[tuple[str, np.ndarray]], kinds: list[str], classifier: Classifier,
                    repeats: int, folder: Path, names: list[str] | None = None) -> dict:
    """Sets of 1, 3 and 5 crops a kind, each named on the rest: ``repeats`` random splits (seed 0); with
    the crops' file ``names``, the crops missed most (each miss as named, of the splits that named it);
    and each of the set's rules forced on every split in place of the one the set chose (``forced``)."""
    truth = np.array([k for k, _ in crops])
    probs, emb = classifier.read([square_cut(c) for _, c in crops])
    rng = np.random.default_rng(0)
    out = {}
    for shots in SHOTS:
        accs, others = [], []
        forced = {rule: [] for rule in RULES}
        misses: collections.Counter = collections.Counter()
        missed: collections.Counter = collections.Counter()     # (crop, named as): times
        named_times: collections.Counter = collections.Counter()
        for r in range(repeats):
            enrol, by_kind = split_by_kind(truth, kinds, shots, rng)
            rest = [i for kind in kinds for i in by_kind[kind]]
            tileset = TileSet.create(folder / f"s{shots}-{r}", classifier)
            for kind in kinds:
                tileset.enroll(kind, [crops[i][1] for i in enrol[kind]], classifier)
            named = tileset.name_all(probs[rest], emb[rest], classifier)     # as name_images names them
            right = [n.tile == truth[i] for n, i in zip(named, rest)]
            for rule, got in forced.items():
                got.append(float(np.mean([n.tile == truth[i] for n, i in zip(
                    tileset.name_all(probs[rest], emb[rest], classifier, rule=rule), rest)])))
            accs.append(float(np.mean(right)))
            others.append(float(np.mean([ok for ok, i in zip(right, rest) if truth[i] not in PICTURES])))
            misses.update(truth[i] for ok, i in zip(right, rest) if not ok)
            named_times.update(rest)
            missed.update((i, n.tile) for n, ok, i in zip(named, right, rest) if not ok)
        worst = [(names[i], truth[i], tile, times, named_times[i])
                 for (i, tile), times in missed.most_common(WORST_CROPS)] if names else []
        out[f"enrolled_{shots}"] = {"mean": statistics.mean(accs), "worst": min(accs), "best": max(accs),
                                    "misses_by_kind": dict(misses.most_common()),
                                    "without_pictures": statistics.mean(others),
                                    "forced": {rule: statistics.mean(got) for rule, got in forced.items()},
                                    "worst_crops": [{"file": f, "kind": k, "named": t, "missed": m, "named_in": n}
                                                    for f, k, t, m, n in worst]}
        print(f"  {shots:>2} crop(s) a kind enrolled: {statistics.mean(accs):.2%} named right "
              f"(worst split {min(accs):.2%}, best {max(accs):.2%}, {repeats} splits); "
              f"without the {'/'.join(PICTURES)} (each maker's own picture) {statistics.mean(others):.2%}; "
              f"each rule forced: {', '.join(f'{rule} {statistics.mean(got):.2%}' for rule, got in forced.items())}; "
              f"misses by kind: {', '.join(f'{k} {n}' for k, n in misses.most_common(6)) or 'none'}"
              + (f"; crops missed most: {', '.join(f'{f} ({k} as {t}) {m} of {n}' for f, k, t, m, n in worst)}"
                 if worst else ""))
    return out


def split_by_kind(truth: np.ndarray, kinds: Iterable[str], shots: int, rng: np.random.Generator
                  ) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """One random split of crops whose kinds are ``truth``: for each of ``kinds`` (drawn in that order),
    ``shots`` of its crops to enrol and the rest to name, as indices into ``truth``."""
    enrol, rest = {}, {}
    for kind in kinds:
        idx = [int(i) for i in rng.permutation(np.where(truth == kind)[0])]
        enrol[kind], rest[kind] = idx[:shots], idx[shots:]
    return enrol, rest


def labelled_photos(folder: Path = LABELS) -> dict[str, dict]:
    """The labels files in ``folder`` whose photo is in ``photos_dir()``, by name, each with its path; a
    photo there that is no image is left out with a line saying so."""
    out = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        image = photos_dir() / data["image"]
        if image.is_file() and not cv2.haveImageReader(str(image)):
            print(f"real photos: {image} is no image: {path.name} left out")
        elif image.is_file():
            out[path.stem] = {**data, "path": image}
    return out


def enrol_photo(tileset: TileSet, photo: dict, classifier: Classifier) -> int:
    image = cv2.imread(str(photo["path"]))
    by_kind: dict[str, list[np.ndarray]] = {}
    for t in photo["tiles"]:
        by_kind.setdefault(t["tile"], []).append(upright_cut(image, t["box"], t["rotation"]))
    for kind, cuts in by_kind.items():
        tileset.enroll(kind, cuts, classifier)
    return sum(len(v) for v in by_kind.values())


def near_line(box, hand: list[dict]) -> bool:
    """Whether a box's centre lies in the band of the revealed hand line: its tiles' span, half a
    tile above and below it and a tile beyond each end (the felt and the rail beside the line)."""
    if not hand:
        return False
    x1 = min(t["box"][0] for t in hand)
    x2 = max(t["box"][2] for t in hand)
    y1 = min(t["box"][1] for t in hand)
    y2 = max(t["box"][3] for t in hand)
    w = statistics.median(t["box"][2] - t["box"][0] for t in hand)
    h = statistics.median(t["box"][3] - t["box"][1] for t in hand)
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return x1 - w <= cx <= x2 + w and y1 - h / 2 <= cy <= y2 + h / 2


def as_the_table_read(photo: dict, image: np.ndarray, detector: Detector) -> tuple[list[dict], list[str]]:
    """A table camera's confirmed frame (``service.photo_labels``; its labels carry the calibration it
    was read with, ``table``) read as the table reads it: rectified, its winner's region and the dead
    wall detected by ``detector`` (the overhead view's), the layout's second looks. Each tile as a box
    on the frame, turned as the frame shows it, with its ``cut`` as the table cuts it for its set (from
    the rectified table, upright: ``TableReader.upright_cuts``; None for a back); and the fields of the
    hand record read that differ from the count as confirmed (``record_misses``)."""
    reader = TableReader(TableFile.from_dict(photo["table"]), photo.get("rules") or "dunhill", detector=detector)
    reading = reader.read(image)
    out = []
    for p, cut in zip(reading.pieces, reader.upright_cuts(reading.pieces)):
        x, y, w, h = reader.frame_box(p.box)
        out.append({"tile": p.tile, "box": [x, y, x + w, y + h], "rotation": reader.frame_rotation(p) or 0,
                    "score": p.score, "cut": cut})
    return out, record_misses(photo.get("records") or [], reading.record)


def record_misses(confirmed: list[dict], read: Mapping | None) -> list[str]:
    """The fields of the hand record read (the layout's, before the service mends it) that differ from
    the last confirmed record (a double ron's second is the hand the frame shows last), as the table's
    tally counts them (``service.read_tally.fields_fixed``: discards aside). ["record"] where none was
    read or none was confirmed."""
    if not confirmed or read is None:
        return ["record"]
    return fields_fixed(confirmed[-1], read)


def score_photo(found: list[dict], photo: dict) -> dict:
    """Found and named right (of labelled face-up tiles), the hand line, extra boxes by the line (on
    no labelled or unreadable tile) and boxes on ground marked clear of tiles."""
    face_up = [t for t in photo["tiles"] if t["tile"] != BACK]
    pairs = match(found, face_up)
    right = sum(t["tile"] == d["tile"] for t, d in pairs)
    red_plain = sum(red_plain_pair(t["tile"], d["tile"]) for t, d in pairs)
    hand = sorted((t for t in face_up if t.get("group") == "hand"), key=lambda t: t["box"][0])
    line = []
    for t in hand:
        hits = [d for d in found if iou(d["box"], t["box"]) >= 0.5]
        line.append(hits[0]["tile"] if len(hits) == 1 else ("?" if not hits else "x2"))
    # a box on any tile (a hand tile, another labelled one, a labelled back, an unreadable tile) is no extra box
    tiles = [t["box"] for t in photo["tiles"]] + [u["box"] for u in photo.get("unreadable", [])]
    stray = [d for d in found if near_line(d["box"], hand) and all(iou(d["box"], b) < 0.5 for b in tiles)]
    clear = [c["box"] for c in photo.get("clear", [])]
    return {"tiles": len(face_up), "right": right, "hand_truth": "".join(photo.get("hand_line") or
                                                                          [t["tile"] for t in hand]),
            "hand_read": line, "hand_right": sum(a == t["tile"] for a, t in zip(line, hand)),
            "hand_in_order": line == [t["tile"] for t in hand], "stray_boxes": len(stray),
            "on_clear": sum(on_clear_ground(d["box"], clear) for d in found) if clear else None,
            "red_plain": red_plain, "box_height": box_heights(pairs)}


def box_heights(pairs: list[tuple[dict, dict]]) -> dict[str, float | None]:
    """The median of found boxes' heights over their labels' (matched pairs: label, detection), for tiles
    found upright and sideways apart: seen from beside the table, a sideways tile's box that reaches into
    the tile beyond it shows here (the labels stop where the next tile starts)."""
    ratios: dict[str, list[float]] = {"upright": [], "sideways": []}
    for t, d in pairs:
        lie = "sideways" if d["rotation"] % 180 == 90 else "upright"
        ratios[lie].append((d["box"][3] - d["box"][1]) / max(t["box"][3] - t["box"][1], 1e-6))
    return {lie: float(np.median(r)) if r else None for lie, r in ratios.items()}


def height_text(s: dict) -> str:
    h = s["box_height"]
    return ", ".join(f"{lie} {v:.2f}" for lie, v in h.items() if v is not None)


def hand_alone(photo: dict, image: np.ndarray, detector: Detector) -> dict:
    """The revealed hand read from the photo alone, as ``python -m vision hand`` reads it (no labels:
    ``vision.hand_photo`` finds the line among every box ``detector``, the seat's, found, after its second
    looks along the line, ``look_again``, whose time is the line's): its tiles in
    order against the labelled line, the winning tile and the melds it read; then the photo enlarged
    to a phone's ``PHONE_PX`` on its longer side and read as the tablet reads an upload (``read_photo``)."""
    if not photo.get("hand_line"):
        return {"line_alone": None, "line_exact": None, "win_tile": None, "melds": None, "seat_stray": None,
                "seat_on_clear": None, "shown_stray": None, "shown_on_clear": None}
    found = detector.detect(image)
    started = time.perf_counter()
    found, _ = look_again(found, image, detector)
    hand = read_hand(found)
    ms = (time.perf_counter() - started) * 1000
    boxes = score_photo([d.to_dict() for d in found], photo)
    # what the tablet draws of a seat's photo: the line's boxes alone (service.hand_photos)
    shown = score_photo([{"tile": t.tile, "box": list(t.box), "rotation": t.rotation, "score": t.score}
                         for t in (hand.line.tiles if hand.line else [])], photo)
    line = hand.line_tiles
    k = PHONE_PX / max(image.shape[:2])
    phone = read_photo(cv2.resize(image, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC), detector)
    return {"line_alone": line, "line_exact": line == list(photo["hand_line"]), "win_tile": hand.win_tile,
            "melds": " ".join(f"{m['kind']} {m['tiles']}" for m in hand.melds), "line_ms": ms,
            "seat_stray": boxes["stray_boxes"], "seat_on_clear": boxes["on_clear"],
            "shown_stray": shown["stray_boxes"], "shown_on_clear": shown["on_clear"],
            "phone_exact": bool(phone.line) and [t.tile for t in phone.line.tiles] == list(photo["hand_line"])}


def taken_again(image: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The photo as a phone might take it again a moment later: a little larger or smaller, turned and
    shifted a little, exposed a little otherwise, JPEG-compressed again; with the 2x3 matrix that moved
    the photo's pixels to the retake's."""
    h, w = image.shape[:2]
    s = rng.uniform(*RETAKE_SCALE)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-RETAKE_TURN, RETAKE_TURN), s)
    m[:, 2] += np.array([(w * s - w) / 2, (h * s - h) / 2]) + rng.uniform(-RETAKE_SHIFT, RETAKE_SHIFT, 2) * (w * s, h * s)
    moved = cv2.warpAffine(image, m, (round(w * s), round(h * s)), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REFLECT)
    lit = 255 * (moved / 255.0) ** rng.uniform(*RETAKE_GAMMA) * rng.uniform(*RETAKE_LIGHT)
    return jpeg_again(np.clip(lit, 0, 255).astype(np.uint8), int(rng.integers(RETAKE_JPEG[0], RETAKE_JPEG[1] + 1))), m


def at_the_labels(image: np.ndarray, m: np.ndarray, labelled: list[dict], detector: Detector) -> list[str]:
    """The labelled boxes of a hand line's tiles (``hand_tiles``), moved by ``m`` as the retake moved
    them (each the box around its moved corners), named in the retake as ``read_photo`` reads it
    (``hand_photo.as_read``): the naming alone, with every tile's box given."""
    small, scale = as_read(image)
    boxes = []
    for t in labelled:
        x1, y1, x2, y2 = t["box"]
        corners = np.array([[x1, y1, 1], [x2, y1, 1], [x1, y2, 1], [x2, y2, 1]], dtype=float) @ m.T * scale
        boxes.append((*corners.min(axis=0), *corners.max(axis=0)))
    return [d.tile for d in detector.name_boxes(small, boxes, [True] * len(boxes))]


def hand_tiles(photo: dict) -> list[dict]:
    """The labelled tiles of a photo's revealed hand line, left to right."""
    return sorted((t for t in photo["tiles"] if t.get("group") == "hand" and t["tile"] != BACK),
                  key=lambda t: t["box"][0])


def winners_shape(hand) -> bool:
    """Whether a read hand's tiles are a winner's, by their shape alone: 14 (a meld counting three) that
    make four sets and a pair, seven pairs or kokushi, or 13 a tile from one. The photos are hands of
    four-player sets, which no three-player house rule holds (the service asks the table's rule:
    ``scoring.mend.a_winners_hand``, after mending the hand by one tile where it can; this does not mend,
    so it reads again more often than the service would)."""
    from mahjong.shanten import Shanten

    size = len(hand.concealed) + 3 * len(hand.melds)
    counts = [0] * 34
    for t in hand.concealed:
        counts["mpsz".index(t[1]) * 9 + (5 if t[0] == "0" else int(t[0])) - 1] += 1
    if size not in (13, 14) or max(counts, default=0) > 4:
        return False
    return Shanten().calculate_shanten(counts) == (-1 if size == 14 else 0)


def in_order(want: list[str], line: list[str]) -> int:
    """Tiles of ``want`` read in order in ``line``: the longest run both share, gaps allowed."""
    return sum(b.size for b in difflib.SequenceMatcher(a=want, b=line, autojunk=False).get_matching_blocks())


def retaken(name: str, photo: dict, image: np.ndarray, detector: Detector, n: int, again: bool = True) -> dict:
    """The hand line read (``read_photo``, as the tablet reads an upload) from ``n`` retakes of the photo
    (``taken_again``; each retake's draw fixed by the photo's name and its number): lines exact, the
    labelled tiles read in order (the longest run both lines share, gaps allowed), and what went wrong:
    a tile read as another kind in its place, or a line longer or shorter than the labelled one. With
    ``again``, also the lines exact where a line that is no winner's hand (``winners_shape``) is read
    again at other sizes (``read_photo(accept=)``), and how many more reads that took. And
    the lines named right at their labelled boxes (``at_the_labels``): what naming alone gives, so a
    line lost to its boxes is told from one lost to its names."""
    want = list(photo["hand_line"])
    labelled = hand_tiles(photo)
    exact = right = named = exact_again = reads_again = 0
    wrong: collections.Counter = collections.Counter()
    for k in range(n):
        retake, m = taken_again(image, np.random.default_rng([zlib.crc32(name.encode()), k]))
        seen: list = []                     # every reading read_photo made, the first (read once) first
        chosen = read_photo(retake, detector, accept=(lambda h: seen.append(h) or winners_shape(h)) if again else None)
        hand = seen[0] if seen else chosen
        line = hand.line_tiles
        exact += line == want
        exact_again += bool(chosen.line) and [t.tile for t in chosen.line.tiles] == want
        reads_again += max(len(seen) - 1, 0)
        named += at_the_labels(retake, m, labelled, detector) == [t["tile"] for t in labelled]
        right += in_order(want, line)
        if len(line) == len(want):
            wrong.update(f"{b}->{a}" for a, b in zip(line, want) if a != b)
        else:
            wrong[f"{len(line)} tiles"] += 1
    return {"retakes": n, "exact": exact, "right": right, "tiles": n * len(want), "named_at_labels": named,
            "wrong": dict(wrong.most_common())} | ({"exact_again": exact_again, "reads_again": reads_again}
                                                   if again else {})


def retake_text(r: dict) -> str:
    again = (f"; read again where no winner's hand: lines exact {r['exact_again']}/{r['retakes']} "
             f"({r['reads_again']} more reads)") if "exact_again" in r else ""
    return (f"lines exact {r['exact']}/{r['retakes']}, tiles read in order {r['right']}/{r['tiles']}, named right at "
            f"their labelled boxes {r['named_at_labels']}/{r['retakes']}; misses: {miss_text(r['wrong'])}{again}")


def as_the_tablet(found_photos: dict, seat: Detector, n: int) -> dict:
    """Each hand photo's ``n`` retakes (the draws ``retaken`` reads) as the service takes an upload
    (``service.hand_photos.HandPhotoReader``: mended under the table's rule, read again at other sizes
    where it makes no win, the players pointed at the tiles one change of which would make one), under
    the first built-in house rule in which the labelled hand's tiles make a winner's hand
    (``scoring.mend.a_winners_hand``: the tiles' shape under the rule, yaku and the count aside). The
    photos are of four-player sets; a hand of tiles no three-player set holds (2m-8m) is skipped.
    Per photo: records right as the players get them (concealed tiles, winning tile and melds), as read
    once, and the records not right whose players were pointed at a tile (``service.mending``)."""
    from scoring.mend import a_winners_hand
    from scoring.presets import preset_ids
    from service.hand_photos import HandPhotoReader

    readers = {"service": HandPhotoReader(seat), "once": HandPhotoReader(seat, again=False)}
    out = {}
    print("  the same retakes as the service takes them (mended, read again where no win, pointed at a tile), "
          "under a house rule that holds the hand:")
    for name, photo in found_photos.items():
        if not photo.get("hand_line"):
            continue
        truth = read_hand([Tile(t["tile"], tuple(t["box"]), rotation=t["rotation"]) for t in photo["tiles"]
                           if t.get("group") == "hand"])
        draft = {"seat": "east", "win": "tsumo"}
        rule = next((r for r in preset_ids() if a_winners_hand(truth.into({**draft, "rules": r}))), None)
        if rule is None:
            print(f"    {name}: skipped, no house rule holds its hand ({''.join(photo['hand_line'])})")
            continue
        want = hand_key(truth.into({**draft, "rules": rule}))
        image = cv2.imread(str(photo["path"]))
        right = {"service": 0, "once": 0}
        pointed = 0
        for k in range(n):
            retake, _ = taken_again(image, np.random.default_rng([zlib.crc32(name.encode()), k]))
            for how, reader in readers.items():
                reading = reader.read(retake, {**draft, "rules": rule})
                ok = reading.record is not None and hand_key(reading.record) == want
                right[how] += ok
                if how == "service" and not ok:
                    pointed += any("one tile read otherwise" in w for w in reading.warnings)
        out[name] = {"rule": rule, "retakes": n, "right": right["service"], "right_once": right["once"],
                     "pointed_at": pointed}
        print(f"    {name} ({rule}): records right {right['service']}/{n} (read once, mended: {right['once']}); "
              f"of the {n - right['service']} not right, the players pointed at a tile in {pointed}")
    return out


def hand_key(record: Mapping) -> tuple:
    """A record's hand as the players get it: its concealed tiles (in any order), winning tile and melds."""
    from scoring.tiles import parse_mpsz

    return (sorted(parse_mpsz(str(record.get("concealed") or ""))), record.get("win_tile") or "",
            sorted((m["kind"], m["tiles"]) for m in record.get("melds") or ()))


def taught_retakes(found_photos: dict, seat: Detector, n: int, folder: Path) -> dict:
    """The retakes read again with a set taught from the labelled tiles of the photo itself (the same
    tiles at the same angle: the most a set taught at the seat can give) and from another photo of its
    tile set (``SAME_SET``)."""
    print("  the same retakes read with a set taught from the photo's own labelled tiles, "
          "and from another photo of its tile set:")
    out = {}
    for name, photo in found_photos.items():
        if not photo.get("hand_line"):
            continue
        image = cv2.imread(str(photo["path"]))
        for source in [name] + [s for s, t in SAME_SET if t == name and s in found_photos]:
            tileset = TileSet.create(folder / f"retakes-{source}-{name}", seat.classifier, "oblique")
            crops = enrol_photo(tileset, found_photos[source], seat.classifier)
            seat.use_tileset(tileset)
            try:
                r = out[f"{source}->{name}"] = retaken(name, photo, image, seat, n, again=False)
            finally:
                seat.use_tileset(None)
            r.update(crops=crops, kinds=len(tileset.kinds()), rule=tileset.rule(seat.classifier))
            taught = "its own tiles" if source == name else source
            print(f"    {name}, a set of {taught} ({crops} crops, {r['kinds']} kinds, rule {r['rule']}): "
                  f"{retake_text(r)}")
    return out


def clear_text(s: dict) -> str:
    return "" if s["on_clear"] is None else f"{s['on_clear']} on clear ground, "


def grid_for(image: np.ndarray, grid: int) -> int:
    """``grid``, or with 0 one window per 1,600 px of the longer side (a seat-view phone photo: 1; the
    4096 px table photo: 3, as its figures have always been taken)."""
    return grid or max(1, round(max(image.shape[:2]) / 1600))


def totals(scores: dict[str, dict]) -> dict:
    """The zero-shot figures summed over the photos, and over those with a revealed hand line."""
    def summed(names: list[str]) -> dict:
        s = [scores[n] for n in names]
        return {"photos": len(s), "right": sum(x["right"] for x in s), "tiles": sum(x["tiles"] for x in s),
                "lines_in_order": sum(x["hand_in_order"] for x in s if x["hand_read"]),
                "lines": sum(bool(x["hand_read"]) for x in s),
                "on_clear": sum(x["on_clear"] or 0 for x in s), "stray_boxes": sum(x["stray_boxes"] for x in s),
                "lines_alone": sum(bool(x.get("line_exact")) for x in s),
                "lines_phone": sum(bool(x.get("phone_exact")) for x in s),
                "seat_stray": sum(x.get("seat_stray") or 0 for x in s),
                "seat_on_clear": sum(x.get("seat_on_clear") or 0 for x in s),
                "shown_stray": sum(x.get("shown_stray") or 0 for x in s),
                "shown_on_clear": sum(x.get("shown_on_clear") or 0 for x in s),
                "records": sum(x.get("record_misses") is not None for x in s),
                "records_exact": sum(x.get("record_misses") == [] for x in s)}
    return {"all": summed(list(scores)), "hands": summed([n for n, s in scores.items() if s["hand_read"]])}


def total_text(label: str, t: dict) -> str:
    return (f"  {label} ({t['photos']} photos): {t['right']}/{t['tiles']} ({t['right'] / max(t['tiles'], 1):.1%}), "
            f"hand lines in order {t['lines_in_order']}/{t['lines']} (read from the photo alone "
            f"{t['lines_alone']}/{t['lines']}, at a phone's size {t['lines_phone']}/{t['lines']}), "
            f"{t['stray_boxes']} extra box(es) by the lines, {t['on_clear']} on clear ground; "
            f"the seat's detector {t['seat_stray']} by the lines, {t['seat_on_clear']} on clear ground "
            f"(of the line's boxes, all the tablet shows: {t['shown_stray']} by the lines, "
            f"{t['shown_on_clear']} on clear ground)"
            + (f"; the table camera's frames: hand records exact {t['records_exact']}/{t['records']}"
               if t["records"] else ""))


def photos(view: str, grid: int, folder: Path, mirror: bool = False, retakes: int = RETAKES,
           classifier: Path | None = None, seat_locator: Path | None = None, locator: Path | None = None,
           seat_classifier: Path | None = None, labels: Path = LABELS) -> dict:
    found_photos = labelled_photos(labels)
    if not found_photos:
        print(f"real photos: skipped, none of {labels}/*.json has its photo in {photos_dir()}")
        return {}
    started = time.perf_counter()
    detector = Detector.for_view(view, mirror=mirror, classifier=classifier, locator=locator)
    load_s = time.perf_counter() - started
    # what the tablet reads a seat's photo with (``seat_locator``, ``seat_classifier``: candidates for it alone)
    seat = seat_detector(mirror=mirror, classifier=seat_classifier or classifier, locator=seat_locator)
    out: dict = {"view": view, "grid": grid, "zero_shot": {}, "enrolled": {}, "ms": {}, "load_s": load_s}
    overhead = None     # a table camera's frames: the overhead view's detector (``as_the_table_read``)
    print(f"\nreal photos, {view} view, grid {grid or 'by size'} (labelled face-up tiles found and named right; the hand line; "
          f"the detector loaded in {load_s:.2f} s):")
    for name, photo in found_photos.items():
        image = cv2.imread(str(photo["path"]))
        started = time.perf_counter()
        misses = None
        if photo.get("table"):
            overhead = overhead or (detector if view == "overhead" else Detector.for_view("overhead"))
            found, misses = as_the_table_read(photo, image, overhead)
        else:
            found = [d.to_dict() for d in detector.detect(image, grid=grid_for(image, grid))]
        ms = (time.perf_counter() - started) * 1000
        s = score_photo(found, photo)
        s.update(hand_alone(photo, image, seat), record_misses=misses)
        out["zero_shot"][name] = s
        photo["found"] = found
        out["ms"][name] = {"without_set": ms}
        print(f"  {name}{' (the table camera, read as the table read it)' if photo.get('table') else ''}: "
              f"zero-shot {s['right']}/{s['tiles']}, hand {s['hand_right']}/{len(s['hand_read'])} "
              f"{'in order' if s['hand_in_order'] else 'read ' + ' '.join(s['hand_read'])}, "
              f"{s['stray_boxes']} extra box(es) by the line, {clear_text(s)}{s['red_plain']} red/plain mix-up(s), "
              f"boxes' height over the labels' ({height_text(s)}), {ms:.0f} ms"
              + ("" if misses is None else
                 f"; the hand record {'exact' if not misses else 'wrong: ' + ', '.join(misses)}"))
        if s["line_alone"] is not None:
            print(f"    the hand read from the photo alone: line {' '.join(s['line_alone']) or 'none'} "
                  f"({'exact' if s['line_exact'] else 'not ' + ' '.join(photo['hand_line'])}); "
                  f"win tile {s['win_tile'] or 'none'}, melds {s['melds'] or 'none'}; the line read in "
                  f"{s['line_ms']:.1f} ms after the detector (its second looks included); enlarged to {PHONE_PX} px, "
                  f"as a phone takes it: "
                  f"{'exact' if s['phone_exact'] else 'not exact'}; the seat's detector: {s['seat_stray']} extra "
                  f"box(es) by the line" + ("" if s["seat_on_clear"] is None else
                                             f", {s['seat_on_clear']} on clear ground")
                  + f"; of the line's boxes, all the tablet shows: {s['shown_stray']} by the line"
                  + ("" if s["shown_on_clear"] is None else f", {s['shown_on_clear']} on clear ground"))
    out["zero_shot_totals"] = totals(out["zero_shot"])
    print(total_text("zero-shot, all", out["zero_shot_totals"]["all"]))
    print(total_text("zero-shot, the hand photos", out["zero_shot_totals"]["hands"]))
    if retakes:
        out["retaken"] = {}
        print(f"  each hand photo taken again {retakes} times (taken_again), its line read as the tablet reads it:")
        for name, photo in found_photos.items():
            if photo.get("hand_line"):
                r = out["retaken"][name] = retaken(name, photo, cv2.imread(str(photo["path"])), seat, retakes)
                print(f"    {name}: {retake_text(r)}")
        summed = {k: sum(r[k] for r in out["retaken"].values())
                  for k in ("retakes", "exact", "right", "tiles", "named_at_labels", "exact_again", "reads_again")}
        out["retaken_totals"] = summed
        print(f"    all: lines exact {summed['exact']}/{summed['retakes']}, tiles read in order "
              f"{summed['right']}/{summed['tiles']} ({summed['right'] / max(summed['tiles'], 1):.1%}), named right "
              f"at their labelled boxes {summed['named_at_labels']}/{summed['retakes']}; read again where no "
              f"winner's hand: lines exact {summed['exact_again']}/{summed['retakes']} ({summed['reads_again']} more "
              f"reads)")
        out["as_the_tablet"] = as_the_tablet(found_photos, seat, retakes)
        out["retaken_taught"] = taught_retakes(found_photos, seat, retakes, folder)
    for source, target in SAME_SET:
        if source not in found_photos or target not in found_photos:
            continue
        tileset = TileSet.create(folder / f"{source}.tileset", detector.classifier, view)
        n = enrol_photo(tileset, found_photos[source], detector.classifier)
        detector.use_tileset(tileset)
        image = cv2.imread(str(found_photos[target]["path"]))
        started = time.perf_counter()
        found = [d.to_dict() for d in detector.detect(image, grid=grid_for(image, grid))]
        ms = (time.perf_counter() - started) * 1000
        detector.use_tileset(None)
        s = score_photo(found, found_photos[target])
        out["enrolled"][f"{source}->{target}"] = {**s, "enrolled_crops": n, "kinds": len(tileset.kinds())}
        out["ms"][target]["with_set"] = ms
        print(f"  {target} with a set from {source} ({n} crops, {len(tileset.kinds())} kinds): "
              f"{s['right']}/{s['tiles']}, hand {s['hand_right']}/{len(s['hand_read'])} "
              f"{'in order' if s['hand_in_order'] else 'read ' + ' '.join(s['hand_read'])}, "
              f"{s['stray_boxes']} extra box(es) by the line, {clear_text(s)}"
              f"{s['red_plain']} red/plain mix-up(s), {ms:.0f} ms")
    out["own_set"] = own_sets(found_photos, detector.classifier, view, folder)
    return out


def tile_sets(found_photos: dict) -> dict[str, list[str]]:
    """The photos of each tile set: the project's (``TILE_SETS``), and a table's confirmed frames, one
    set a table (the calibration's name their labels carry): a table plays with one set."""
    out = {name: list(members) for name, members in TILE_SETS.items()}
    for name, photo in found_photos.items():
        if photo.get("table"):
            out.setdefault(f"table {photo['table'].get('table') or '?'}", []).append(name)
    return out


def own_sets(found_photos: dict, classifier: Classifier, view: str, folder: Path) -> dict:
    """One set's own tiles: the detector's cuts of each tile set's labelled face-up tiles (boxes of
    IoU >= 0.5, as found zero-shot), a set of up to 3 crops a kind of the kinds seen twice or more,
    named on the rest (``OWN_SET_SPLITS`` random splits), against the classifier alone on the same; then
    the sets together: a parlour enrols its own set, so this is the issue's "3 crops a kind" asked of
    one maker's tiles, where camerash's held-out third (part 1) asks it across makers. Each figure is
    also given by how the tile lay in the photo (upright or sideways: a tile seen from beside the table
    lying across the view shows its body beside its face, and the locator's box often reaches into the
    tile beyond it), and the same splits are named again cut at the labels' own boxes: what a locator
    placing every box as labelled would give, so a miss is told to lie in the box or in the naming."""
    print("\none set's own tiles (the detector's cuts of a set's labelled tiles; <= 3 crops a kind enrolled, "
          "named on the others):")
    rng = np.random.default_rng(0)
    no_set = TileSet.create(folder / "no-set", classifier, view)     # names as the classifier alone
    out = {}
    for set_name, members in tile_sets(found_photos).items():
        found, at_labels = [], []               # (kind, cut, sideways) at the detector's box; at the label's
        for m in (m for m in members if m in found_photos):
            image = cv2.imread(str(found_photos[m]["path"]))
            face = [t for t in found_photos[m]["tiles"] if t["tile"] != BACK]
            for t, d in match(found_photos[m]["found"], face):
                sideways = d["rotation"] % 180 == 90
                cut = d.get("cut")              # a table camera's frame: as the table cut it
                if cut is None:
                    cut = upright_cut(image, d["box"], d["rotation"])
                found.append((t["tile"], cut, sideways))
                at_labels.append((t["tile"], upright_cut(image, t["box"], t["rotation"]), sideways))
        if not found:
            continue
        truth = np.array([k for k, *_ in found])
        splits = []
        for _ in range(OWN_SET_SPLITS):
            enrol, rest = [], []
            for kind in sorted(set(truth)):
                idx = rng.permutation(np.where(truth == kind)[0])
                if len(idx) >= 2:                   # at least one to enrol and one to name
                    k = min(3, len(idx) - 1)
                    enrol += list(idx[:k])
                    rest += list(idx[k:])
            splits.append((enrol, rest))
        s = named_over_splits(found, splits, classifier, view, folder / f"own-{len(out)}", no_set)
        s["at_labels"] = named_over_splits(at_labels, splits, classifier, view, folder / f"own-{len(out)}-labels",
                                           no_set)
        s["cuts"] = len(found)
        out[set_name] = s
        at = s["at_labels"]
        print(f"  {set_name} ({len(found)} cuts of {', '.join(members)}): with a set {s['with_set']}/{s['named']} "
              f"({s['with_set'] / max(s['named'], 1):.1%}), the classifier alone {s['alone']}/{s['named']} "
              f"({s['alone'] / max(s['named'], 1):.1%}); upright {lie_text(s, 'upright')}, sideways "
              f"{lie_text(s, 'sideways')}; the sets' rules: {' '.join(s['rules'])} ({forced_text(s)}); "
              f"misses: {miss_text(s['misses'])}\n"
              f"    cut at the labels' boxes: with a set {at['with_set']}/{at['named']}, alone {at['alone']}/"
              f"{at['named']}; upright {lie_text(at, 'upright')}, sideways {lie_text(at, 'sideways')}")
    if out:
        keys = ("named", "with_set", "alone", "red_plain")
        every = {k: sum(o[k] for o in out.values()) for k in keys}
        every["forced"] = {r: sum(o["forced"][r] for o in out.values()) for r in (SET, FUSED)}
        for lie in ("upright", "sideways"):
            every[lie] = {k: sum(o[lie][k] for o in out.values()) for k in ("named", "with_set", "alone")}
        labels = {k: sum(o["at_labels"][k] for o in out.values()) for k in keys}
        print(f"  the {len(out)} sets together: with a set {every['with_set']}/{every['named']} "
              f"({every['with_set'] / max(every['named'], 1):.1%}), the classifier alone {every['alone']}/{every['named']} "
              f"({every['alone'] / max(every['named'], 1):.1%}; {forced_text(every)}); upright "
              f"{lie_text(every, 'upright')}, sideways "
              f"{lie_text(every, 'sideways')}; red and plain fives mixed up {every['red_plain']} time(s); cut at the "
              f"labels' boxes: with a set {labels['with_set']}/{labels['named']}, alone {labels['alone']}/{labels['named']}")
        out = {"sets": out, "together": every, "together_at_labels": labels}
    return out


def named_over_splits(cuts: list[tuple[str, np.ndarray, bool]], splits: list[tuple[list, list]],
                      classifier: Classifier, view: str, folder: Path, no_set: TileSet) -> dict:
    """Cuts (kind, upright cut, whether the tile lay sideways) named by a set enrolled with each split's
    first list and named on its second, and by the classifier alone: counts in all and by how each lay.
    Also each of the set's rules forced on every split in place of the one the set chose
    (``TileSet.rule``; ``forced``; the third, ``base``, names as the classifier alone): what the set's
    choice of rule gains or costs."""
    truth = np.array([k for k, *_ in cuts])
    probs, emb = classifier.read([square_cut(c) for _, c, _ in cuts])
    counts = {lie: {"named": 0, "with_set": 0, "alone": 0} for lie in ("upright", "sideways")}
    rules = []
    misses: collections.Counter = collections.Counter()
    forced = {SET: 0, FUSED: 0}
    for r, (enrol, rest) in enumerate(splits):
        tileset = TileSet.create(folder / f"split-{r}", classifier, view)
        for kind in sorted(set(truth[enrol])):
            tileset.enroll(kind, [cuts[i][1] for i in enrol if truth[i] == kind], classifier)
        rules.append(tileset.rule(classifier))
        for i in rest:
            tile = tileset.name(probs[i], emb[i], classifier).tile
            c = counts["sideways" if cuts[i][2] else "upright"]
            c["named"] += 1
            c["with_set"] += tile == truth[i]
            c["alone"] += no_set.name(probs[i], emb[i], classifier).tile == truth[i]
            misses.update([f"{truth[i]}->{tile}"] if tile != truth[i] else [])
        for rule in forced:
            named = tileset.name_all(probs[rest], emb[rest], classifier, rule=rule)
            forced[rule] += sum(n.tile == truth[i] for n, i in zip(named, rest))
    red_plain = sum(v for k, v in misses.items() if red_plain_pair(*k.split("->")))
    return {**{k: counts["upright"][k] + counts["sideways"][k] for k in ("named", "with_set", "alone")},
            **counts, "rules": rules, "forced": forced, "misses": dict(misses.most_common()), "red_plain": red_plain}


def forced_text(s: dict) -> str:
    return f"each rule forced: set {s['forced'][SET]}, fused {s['forced'][FUSED]}, base {s['alone']}"


def lie_text(s: dict, lie: str) -> str:
    return f"{s[lie]['with_set']}/{s[lie]['named']} (alone {s[lie]['alone']})"


def red_plain_pair(a: str, b: str) -> bool:
    """Whether two tiles are a red five and a plain five of one suit."""
    return {a[0], b[0]} == {"0", "5"} and a[1] == b[1]


def miss_text(misses: Mapping[str, int]) -> str:
    """What went wrong and how often, the most often first."""
    return ", ".join(f"{k} x{v}" for k, v in sorted(misses.items(), key=lambda kv: -kv[1])) or "none"


def speed(classifier: Classifier, folder: Path, view: str = "overhead") -> dict:
    crops = [(kind, image) for _, kind, image in camerash()]
    if not crops:
        return {}
    by_kind: dict[str, list[np.ndarray]] = {}
    for kind, image in crops:
        by_kind.setdefault(kind, []).append(image)
    started = time.perf_counter()
    tileset = TileSet.create(folder / "speed", classifier)
    for kind in (*KINDS, *REDS):            # camerash has no red fives: their plain fives stand in
        tileset.enroll(kind, by_kind[kind if kind in by_kind else "5" + kind[1]][:3], classifier)
    tileset.save()
    enrol_s = time.perf_counter() - started
    started = time.perf_counter()
    rule = tileset.rule(classifier)         # once a change, before the set names a frame (the service does it then)
    check_s = time.perf_counter() - started
    cuts = [cv2.resize(c, (64, 64)) for _, c in crops[:60]]
    probs, emb = classifier.read(cuts)

    def per_frame_ms(name) -> float:        # the median of 20 namings of the 60 cuts, after 3 to warm up
        times = []
        for k in range(23):
            started = time.perf_counter()
            name()
            times.append((time.perf_counter() - started) * 1000)
        return float(np.median(times[3:]))

    with_set = per_frame_ms(lambda: tileset.name_all(probs, emb, classifier))
    empty = TileSet.create(folder / "empty", classifier)         # no kinds: the classifier alone names every cut
    alone = per_frame_ms(lambda: empty.name_all(probs, emb, classifier))
    in_frames, in_frames_alone = frame_naming_ms(classifier, (tileset, empty), view)
    print(f"\nspeed: enrolling {len(tileset.kinds())} kinds x 3 crops {enrol_s:.2f} s, the set checking itself "
          f"{check_s * 1000:.0f} ms (rule: {rule}); naming 60 tiles (beyond the classifier's own run) with the set "
          f"{with_set:.2f} ms, by the classifier alone {alone:.2f} ms: the set adds {with_set - alone:.2f} ms; "
          f"naming a whole frame's cuts (the demo frames, {DEMO_FRAMES} frames read; median, 90th percentile) "
          f"with the set {in_frames[0]:.1f}, {in_frames[1]:.1f} ms, by the classifier alone {in_frames_alone[0]:.1f}, "
          f"{in_frames_alone[1]:.1f} ms: the set adds {in_frames[0] - in_frames_alone[0]:.1f} ms a frame")
    return {"enrol_37x3_s": enrol_s, "check_ms": check_s * 1000, "rule": rule, "name_60_tiles_ms": with_set,
            "name_60_tiles_alone_ms": alone, "set_adds_60_tiles_ms": with_set - alone,
            "frame_naming_ms": in_frames, "frame_naming_alone_ms": in_frames_alone,
            "set_adds_a_frame_ms": in_frames[0] - in_frames_alone[0]}


def frame_naming_ms(classifier: Classifier, tilesets: Iterable[TileSet], view: str) -> list[tuple[float, float]]:
    """The naming's share of reading a whole frame (the service's demo frames, rendered tables of about
    57 tiles: 150 or so cuts a frame, over the classifier's two or three runs), for each of
    ``tilesets`` (one with no kinds names as the classifier alone, by the same code), read by ``view``'s
    detector with ``classifier``: median and 90th percentile over ``DEMO_FRAMES`` frames. The
    detector's own ONNX runs come between the namings, as at a table: the 60 cuts above, named alone,
    cannot show that."""
    frames = [cv2.imread(str(f)) for f in sorted(DEMO.glob("frame-*.jpg"))]
    detector = Detector.for_view(view, classifier=classifier.path)
    out = []
    for tileset in tilesets:
        if not frames:
            out.append((float("nan"), float("nan")))
            continue
        spent: list[float] = []
        name_all = tileset.name_all

        def timed(*args, **kwargs):                     # the set's own naming, timed where the detector calls it
            started = time.perf_counter()
            named = name_all(*args, **kwargs)
            spent.append((time.perf_counter() - started) * 1000)
            return named

        tileset.name_all = timed
        detector.use_tileset(tileset)
        detector.detect(frames[0])                      # warm up
        per_frame = []
        for k in range(DEMO_FRAMES):
            before = len(spent)
            detector.detect(frames[k % len(frames)])
            per_frame.append(sum(spent[before:]))
        del tileset.name_all                            # the class's own again
        out.append((float(np.median(per_frame)), float(np.percentile(per_frame, 90))))
    detector.use_tileset(None)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--view", choices=tuple(VIEWS), default="oblique",
                   help="whose classifier and locator (default oblique: the photos are taken from beside the table)")
    p.add_argument("--repeats", type=at_least(1), default=20)
    p.add_argument("--grid", type=int, default=0, choices=range(0, 5),
                   help="windows per side on the photos (default 0: by the photo's size, see grid_for)")
    p.add_argument("--json", type=new_file, help="also write every figure there")
    p.add_argument("--no-photos", dest="photos", action="store_false", help="skip the photos (part 2)")
    p.add_argument("--mirror", action="store_true",
                   help="the detector with its mirrored locator pass too (off by default: docs/vision.md)")
    p.add_argument("--classifier", type=onnx_file, metavar="ONNX", help="a candidate classifier ONNX file (default: the view's shipped "
                                                     "one; the photos keep the view's locators)")
    p.add_argument("--locator", type=onnx_file, metavar="ONNX",
                   help="a candidate locator for the view's table detector alone (the photos read whole, one "
                        "set's own tiles; default: the view's shipped one; the seat's detector keeps its own)")
    p.add_argument("--seat-locator", type=onnx_file, metavar="ONNX",
                   help="a candidate locator for the seat's detector alone (the hand read from a photo, the "
                        "retakes; default: hand_photo.seat_detector's own)")
    p.add_argument("--seat-classifier", type=onnx_file, metavar="ONNX",
                   help="a candidate classifier for the seat's detector alone (the hand read from a photo, the "
                        "retakes; default: --classifier's, else the view's shipped one)")
    p.add_argument("--labels", type=labels_folder, default=LABELS, metavar="DIR",
                   help="the labelled photos to read (default vision/labels; a table's confirmed counts, photos "
                        "of the hand and camera frames: its labels folder beside its snapshots, with "
                        "TOUTENKOU_PHOTOS at the snapshots)")
    p.add_argument("--retakes", type=at_least(0), default=RETAKES,
                   help=f"retakes of each hand photo to read (part 2; default {RETAKES}, 0: none)")
    p.add_argument("--tile-width", type=at_least(1), metavar="PX",
                   help="shrink the single real tiles to this many px wide first (part 1: a camera that sees "
                        "tiles this small; camerash's are 240)")
    p.add_argument("--margin", type=crop_margin, default=MARGIN,
                   help=f"grey margin set around each single real tile, a share of it a side (default {MARGIN:g}, "
                        "as python -m vision tileset reads a folder's crops; 0: the crops as they are)")
    p.add_argument("--camera", action="store_true",
                   help="then blur, noise and JPEG-compress them as a cheap camera would (part 1)")
    a = p.parse_args()
    if a.retakes < 0:
        p.error("--retakes must be 0 or more")
    if a.tile_width is not None and not 8 <= a.tile_width <= 240:
        p.error("--tile-width must be 8-240 px")
    classifier = Classifier(a.classifier or VIEWS[a.view][1])
    with tempfile.TemporaryDirectory() as tmp:
        figures = {"single_tiles": single_tiles(classifier, a.repeats, Path(tmp), a.tile_width, a.camera,
                                                    a.margin),
                   "photos": photos(a.view, a.grid, Path(tmp), a.mirror, a.retakes, a.classifier,
                                              a.seat_locator, a.locator, a.seat_classifier, a.labels)
                   if a.photos else {},
                   "speed": speed(classifier, Path(tmp), a.view)}
    if a.json:
        a.json.write_text(json.dumps(figures, indent=1, default=float))
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
