"""The tile detector at run time: locate tiles, then name each one (onnxruntime, NumPy, OpenCV).

Two stages, both exported from ultralytics to ONNX:

    locator     a one-class YOLO run on the whole image, letterboxed to its input size:
                an axis-aligned box around every tile, face-up or face-down
    classifier  each box cut from the full-resolution image (``vision.crop.cut_tile``:
                sideways boxes turned portrait), squashed to 64x64: its kind or
                ``back``, upright or upside down (``5m`` / ``5m_ud``), or ``none``

A tile's class is the kind with the most probability summed over both ways up;
its rotation comes from the box's shape and the way up (``vision.crop``). A box
the classifier calls ``none`` is dropped.

``refiner`` (the oblique view's, ``vision/refine.py``) moves each box's edges onto
its tile; the moved box is read again and kept where it reads as a tile more surely.

``mirror`` (off unless asked for) runs the locator a second time on the image
mirrored left to right and fuses the two passes' boxes (it has one class, so a
mirrored glyph is still a tile to it): it finds rendered tiles the first pass
misses, but on real photos its fused boxes read fewer tiles right and land more
boxes on clear ground, at the cost of a second locator run. See models/README.md.

Two boxes side by side, each read unsurely as a face, whose union reads surely as one
tile are a sideways tile the locator boxed as two upright halves (``_joined_halves``):
the union replaces them.

``second`` (the oblique view's console locator, ``SECOND_LOCATORS``) keeps a tile only
where that locator, which learnt a seat's rail, score display and stick tray as no
tile, also proposes a box: a second opinion against boxes on the console.

``perspective`` (the oblique view's, ``PERSPECTIVE_VIEWS``) drops a box much smaller than
the sure tiles just beyond it: seen from beside the table, nothing on the table nearer
the camera looks smaller than the tiles behind it (``in_perspective``).

``trim`` (the oblique view's, ``TRIM_VIEWS``) stops a tile's box where the nearer tile in
front of it starts: seen from beside the table, a nearer tile hides the foot of the one
behind it (``hidden_feet``); the trimmed box is read again and kept where it reads as a tile.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from .boxes import area, around, inside_share, iou
from .classes import BACK
from .classifier import FLIP_SUFFIX, NONE, RUNNER_UP_FLOOR, RUNNERS_UP, Classifier, runners_up  # noqa: F401  (callers import these from here)
from .crop import CLS_SIZE, cut_tile, is_ambiguous, is_sideways, rotation_of
from .refine import Refiner
from .runtime import ModelMissing, blob, session  # noqa: F401  (callers catch detect.ModelMissing)

MODELS = Path(__file__).resolve().parent.parent / "models"
LOCATOR = MODELS / "tile-locator.onnx"
CLASSIFIER = MODELS / "tile-classifier.onnx"
# the models for each camera view: over the table (the rig) or beside it (a phone, the real photo)
VIEWS = {"overhead": (LOCATOR, CLASSIFIER),
         "oblique": (MODELS / "oblique" / "tile-locator.onnx", MODELS / "oblique" / "tile-classifier.onnx")}
# a view's box refiner (vision/refine.py), where one was trained for it
REFINERS = {"oblique": MODELS / "oblique" / "tile-refiner.onnx"}
# a view's second locator, which must see a tile where the first did (``SECOND_OPINION``): the oblique
# locator fine-tuned on scenes with a seat's console (synth/console.py), which knows rails and displays
SECOND_LOCATORS = {"oblique": MODELS / "oblique" / "tile-locator-console.onnx"}
# the locator a photo from the winner's seat is read with (``hand_photo.seat_detector``): the oblique
# locator fine-tuned on rendered seat photos and souped half and half with its start (models/README.md)
SEAT_LOCATOR = MODELS / "oblique" / "tile-locator-seat.onnx"
# the views whose tiles recede up the image (a camera beside the table), where ``in_perspective`` applies
PERSPECTIVE_VIEWS = ("oblique",)
UNDER_BAR_VIEWS = ("overhead",)    # the views that read faces in boxes scored under the bar (``_under_bar``)
TRIM_VIEWS = ("oblique",)          # the views whose boxes stop where a nearer tile starts (``hidden_feet``)


@dataclass(frozen=True)
class Detection:
    """One tile found: its class (mpsz, ``0m`` for a red five, ``back``), box in image pixels,
    rotation (clockwise turn of the face's top: 0/90/180/270) and score (0..1). ``others``: the
    next likeliest faces for the cut, (tile, probability), likeliest first (the classifier's; where a
    table's tile set named the cut, the set's or the classifier's: ``tileset.Naming``): where a read
    hand is no win, the one tile that makes it one is looked for among them (``scoring.mend``)."""

    tile: str
    box: tuple[float, float, float, float]
    rotation: int
    score: float
    others: tuple[tuple[str, float], ...] = ()

    def to_dict(self) -> dict:
        return {"tile": self.tile, "box": [round(v, 1) for v in self.box], "rotation": self.rotation,
                "score": round(self.score, 4)}


MIN_WINDOW = 32    # px a side: ``detect(grid=)`` cuts no window smaller (no tile fits in less)


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """The image scaled to fit ``size`` x ``size`` and padded grey (as ultralytics trains): (input, scale, pad)."""
    h, w = image.shape[:2]
    s = min(size / w, size / h)
    nw, nh = max(1, int(round(w * s))), max(1, int(round(h * s)))     # a sliver of an image keeps a pixel
    px, py = (size - nw) // 2, (size - nh) // 2
    canvas = np.full((size, size, 3), 114, np.uint8)
    canvas[py:py + nh, px:px + nw] = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if s < 1
                                                else cv2.INTER_LINEAR)
    return canvas, s, (px, py)


class Detector:
    """The ONNX sessions (locator, classifier, and a box refiner where given), loaded once.
    ``detect(image)`` returns the tiles of a BGR image. With a table's ``tileset``
    (``vision.tileset``) the classifier's reading of each tile is named by that set where it is sure.
    The defaults are the overhead view's (``for_view`` sets each view's own)."""

    def __init__(self, locator: Path = LOCATOR, classifier: Path = CLASSIFIER, threads: int = 2,
                 min_box_score: float = 0.25, iou: float = 0.5, mirror: bool = False,
                 refiner: Path | None = None, tileset=None, second: Path | None = None,
                 perspective: bool = False, trim: bool = False, under_bar: bool = True):
        self.locator = session(Path(locator), threads)
        self.second = session(Path(second), threads) if second is not None else None
        self.classifier = Classifier(Path(classifier), threads)
        self.tileset = None
        if tileset is not None:
            self.use_tileset(tileset)
        self.refiner = Refiner(refiner, threads) if refiner is not None else None
        shape = self.locator.get_inputs()[0].shape
        self.size = int(shape[-1]) if isinstance(shape[-1], int) else 640
        self.class_names = self.classifier.class_names
        self.min_box_score = min_box_score
        self.iou = iou
        self.mirror = mirror
        self.perspective = perspective
        self.trim = trim
        self.under_bar = under_bar

    def use_tileset(self, tileset) -> None:
        """Name tiles with a table's tile set from now on (``None``: the classifier alone). Raises
        ``vision.tileset.StaleTileSet`` when the set was built on another classifier."""
        if tileset is not None:
            tileset.check(self.classifier)
        self.tileset = tileset

    @classmethod
    def for_view(cls, view: str = "overhead", refine: bool = True, second: bool = True,
                 classifier: Path | None = None, perspective: bool = True, locator: Path | None = None,
                 trim: bool = True, under_bar: bool = True, **kwargs) -> "Detector":
        """The detector for a camera's view: ``overhead`` (over the table: the shipped default) or
        ``oblique`` (beside it, looking across: fine-tuned on oblique scenes, with a box refiner;
        see models/README.md). ``refine=False`` leaves a view's refiner out, ``second=False`` its second
        locator (``SECOND_LOCATORS``), ``perspective=False`` its perspective check (``in_perspective``),
        ``trim=False`` its boxes left reaching into the nearer tile (``hidden_feet``), ``under_bar=False``
        the faces it reads in boxes the locator scored under its bar (``UNDER_BAR_VIEWS``: ``_under_bar``);
        ``classifier=PATH`` or ``locator=PATH`` another model in the view's place (a candidate measured
        against the shipped one, or the seat's own locator: ``hand_photo.seat_detector``)."""
        if view not in VIEWS:
            raise ValueError(f"view must be one of {', '.join(VIEWS)}, not {view!r}")
        shipped_locator, shipped = VIEWS[view]
        return cls(locator or shipped_locator, classifier or shipped, refiner=REFINERS.get(view) if refine else None,
                   second=SECOND_LOCATORS.get(view) if second else None,
                   perspective=perspective and view in PERSPECTIVE_VIEWS, trim=trim and view in TRIM_VIEWS,
                   under_bar=under_bar and view in UNDER_BAR_VIEWS, **kwargs)

    def _candidates(self, image: np.ndarray, mirrored: bool = False, locator=None,
                    floor: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The locator's boxes (N x 4, x1 y1 x2 y2 in image pixels) and scores above ``min_box_score``
        (or ``floor``), before suppression; ``mirrored`` runs it on the image mirrored left to right
        and mirrors the boxes back. ``locator``: another session of the same input (the second)."""
        locator = locator or self.locator
        h, w = image.shape[:2]
        inp, s, (px, py) = letterbox(image[:, ::-1] if mirrored else image, self.size)
        out = locator.run(None, {locator.get_inputs()[0].name: blob([inp])})[0][0]   # (4+nc, N)
        scores = out[4:].max(axis=0)
        keep = scores >= (self.min_box_score if floor is None else floor)
        cx, cy, bw, bh = out[:4, keep]
        x1, x2 = (cx - bw / 2 - px) / s, (cx + bw / 2 - px) / s
        if mirrored:
            x1, x2 = w - x2, w - x1
        boxes = np.stack([np.clip(x1, 0, w), np.clip((cy - bh / 2 - py) / s, 0, h),
                          np.clip(x2, 0, w), np.clip((cy + bh / 2 - py) / s, 0, h)], axis=1)
        return boxes, scores[keep]

    def candidates(self, image: np.ndarray, locator=None, floor: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Every box the locator (or another, ``locator``) proposes, before suppression (both passes'
        with ``mirror``): boxes (N x 4, image pixels) and scores."""
        boxes, scores = self._candidates(image, locator=locator, floor=floor)
        if self.mirror:
            more, more_scores = self._candidates(image, mirrored=True, locator=locator, floor=floor)
            boxes, scores = np.concatenate([boxes, more]), np.concatenate([scores, more_scores])
        return boxes, scores

    def locate(self, image: np.ndarray, found: tuple[np.ndarray, np.ndarray] | None = None
               ) -> list[tuple[tuple[float, float, float, float], float]]:
        """Boxes around tiles (image pixels) with the locator's score, after non-maximum suppression.
        With ``mirror``, both passes' boxes compete in one suppression and each kept box becomes the
        score-weighted mean of the boxes that overlap it by IoU > ``MIRROR_FUSE`` (both passes agree
        on where a tile's edges are better than either alone). ``found``: the image's ``candidates``,
        when already run (those under the bar are left out here)."""
        boxes, scores = self.candidates(image) if found is None else found
        boxes, scores = boxes[scores >= self.min_box_score], scores[scores >= self.min_box_score]
        kept = suppressed(boxes, scores, self.iou)
        if self.mirror:
            return [(_fused(boxes[i], boxes, scores), float(scores[i])) for i in kept]
        return [(tuple(float(v) for v in boxes[i]), float(scores[i])) for i in kept]

    def _cuts(self, image: np.ndarray, boxes) -> tuple[list[np.ndarray], list[tuple[int, bool]]]:
        """Each box cut the way its shape says; a nearly square one also cut the other way.
        Returns the cuts and, per cut, (box index, turned a quarter)."""
        cuts, owners = [], []
        for k, box in enumerate(boxes):
            turns = (is_sideways(box), not is_sideways(box)) if is_ambiguous(box) else (is_sideways(box),)
            for turn in turns:
                cuts.append(cut_tile(image, box, size=CLS_SIZE, turn=turn))
                owners.append((k, turn))
        return cuts, owners

    def _name(self, p: np.ndarray, sure_box: bool = False, named=None) -> tuple[str, float, bool, tuple]:
        """(class, its probability summed over both ways up, upside down?, the next likeliest faces) of
        one cut's probabilities (the next faces: ``Detection.others``).
        A box the locator is sure of (``sure_box``) keeps its likeliest tile over ``none`` when that
        tile has at least ``KEEP_TILE``: it is reported with that low score, so the table warns of it.
        With a tile set, a cut read as a tile is named as the set ``named`` it (``TileSet.name_all``,
        the frame's cuts named at once; None: the classifier alone names it).
        The set says which tile, not whether one lies there: a box kept over ``none`` keeps its low
        score whoever names it (a box half over two tiles, named by the set at the set's share,
        would otherwise read surer than the tiles it straddles and push one of them out)."""
        totals = self.classifier.totals(p)
        tile = max(totals, key=totals.get)
        kept = tile == NONE and sure_box       # kept over none only because the locator is sure of the box
        if kept:
            likeliest = max((c for c in totals if c != NONE), key=totals.get)
            if totals[likeliest] >= KEEP_TILE:
                tile = likeliest
        if named is not None and tile != NONE:
            score = min(named.score, totals[tile]) if kept else named.score
            return named.tile, score, named.flipped and named.tile != BACK, named.others
        flipped = self.classifier.upside_down(p, tile) and tile != BACK
        return tile, totals[tile], flipped, runners_up(totals, tile)

    def _read_as_tiles(self, probs: np.ndarray, sure_box: list[bool]) -> list[int]:
        """Which of N cuts ``_name`` reads as a tile rather than none (with ``sure_box[j]``, a cut whose
        likeliest tile reaches ``KEEP_TILE`` counts): the cuts a tile set has a name to give. A tie
        counts as a tile, as in ``_name``, where the faces come before none."""
        faces = self.classifier.face_totals(probs).max(axis=1, initial=0.0)
        none = self.classifier.none_totals(probs)
        return [j for j in range(len(probs)) if faces[j] >= none[j] or (sure_box[j] and faces[j] >= KEEP_TILE)]

    def detect(self, image: np.ndarray, grid: int = 1) -> list[Detection]:
        """Every tile in a BGR image, as ``Detection`` s in reading order (top to bottom, left to right).

        ``grid`` > 1 detects in grid x grid overlapping windows and merges them: for a large
        photo whose tiles would shrink below the locator's training sizes when the whole
        image is letterboxed to its input (a 4096 px photo at 512 px makes a tile ~15 px)."""
        if image is None or image.ndim != 3 or image.shape[2] != 3:
            raise ValueError("expected a BGR colour image")
        if grid > 1 and min(image.shape[:2]) >= grid * MIN_WINDOW:     # an image too small to cut: read it whole
            return self._detect_windows(image, grid)
        found = self.candidates(image, floor=UNDER_BAR_FLOOR) if self.under_bar else None
        located = self.locate(image, found)
        boxes = [b for b, _ in located]
        sure = [score >= SURE_BOX for _, score in located]
        plain: dict = {}            # each box's reading by the classifier alone, where a set names tiles
        named = self.name_boxes(image, boxes, sure, plain=plain)
        if self.refiner is not None:
            named = self._refined(image, named, sure, plain)
        named = self._joined_halves(image, self._split_pairs(image, named, plain), plain)
        out: list[Detection] = []
        for d in sorted(named, key=lambda d: -d.score):
            if d.tile == NONE or any(_same_tile(d.box, d.score, k) for k in out):
                continue
            out.append(d)
        if found is not None:
            out += self._under_bar(image, *found, out)
        if self.second is not None and out:
            out = self._seconded(image, out)
        if self.perspective:
            out = in_perspective(out)
        if self.trim:
            out = self._trimmed(image, out)
        return reading_order(out)

    def _under_bar(self, image: np.ndarray, boxes: np.ndarray, scores: np.ndarray,
                   kept: list[Detection]) -> list[Detection]:
        """Faces in the boxes the locator scored under its bar (down to ``UNDER_BAR_FLOOR``) and apart
        from every tile ``kept``, where they are named a face at ``UNDER_BAR_SURE`` or more (as any box
        is named: by the classifier, with the table's set where one is in use). A design's ink unlike
        any the locator learnt (dark green circles, red centres) scores its tiles low, and the
        classifier reads them as surely as any; a back is left out, since a wall's sides and the
        felt's shading score low too."""
        low = scores < self.min_box_score
        boxes, scores = boxes[low], scores[low]
        apart = [tuple(float(v) for v in boxes[i]) for i in suppressed(boxes, scores, self.iou)
                 if all(iou(boxes[i], d.box) < UNDER_BAR_APART and inside_share(boxes[i], d.box) <= NESTED
                        for d in kept)]
        if not apart:
            return []
        out: list[Detection] = []
        for d in sorted(self.name_boxes(image, apart), key=lambda d: -d.score):
            if (d.tile not in (NONE, BACK) and d.score >= UNDER_BAR_SURE
                    and not any(_same_tile(d.box, d.score, k) for k in kept + out)):
                out.append(d)
        return out

    def _trimmed(self, image: np.ndarray, found: list[Detection]) -> list[Detection]:
        """Each box whose foot a nearer tile hides (``hidden_feet``) trimmed there and read again; the
        trimmed box replaces the found one where it reads as a tile. The locator learnt rendered boxes
        that reach into the nearer tile (docs/vision.md, "Boxes hold what is seen"): such a cut holds a
        third of another face, and a table's own tiles lying sideways were named worst by it."""
        boxes = hidden_feet(found)
        moved = [k for k, (d, b) in enumerate(zip(found, boxes)) if tuple(b) != tuple(d.box)]
        if not moved:
            return found
        out = list(found)
        for k, reading in zip(moved, self.name_boxes(image, [boxes[k] for k in moved])):
            if reading.tile != NONE:
                out[k] = reading
        return out

    def _seconded(self, image: np.ndarray, found: list[Detection]) -> list[Detection]:
        """The tiles the second locator also sees: some box of its, scored ``SECOND_OPINION`` or more,
        overlapping the tile's by IoU ``SECOND_IOU``. It learnt a seat's console (rail, score display,
        stick tray) as no tile, where the first finds backs in a rail's highlights."""
        boxes, _ = self.candidates(image, locator=self.second, floor=SECOND_OPINION)
        return [d for d in found if any(iou(d.box, b) >= SECOND_IOU for b in boxes)]

    def name_boxes(self, image: np.ndarray, boxes, sure: list[bool] | None = None,
                   use_set: bool = True, plain: dict | None = None) -> list[Detection]:
        """The classifier's reading of each given box (image pixels), one ``Detection`` per box, in
        order; a box that holds no tile reads ``none`` (unless ``sure[k]``: see ``_name``). Of a nearly
        square box's two cuts, the one read as a tile (not none) and surer wins. ``use_set=False``:
        the classifier alone, even where a tile set is in use; ``plain``, where a set is in use, gets
        each box's reading by the classifier alone too (keyed by the box), from the same run.

        A box the locator is sure of that reads ``none`` the way its shape turns it is also read
        turned the other way: seen from beside the table, depth is squeezed, and an upright face
        can look wider than tall (its box then says sideways, and the cut lies on its side)."""
        cuts, owners = self._cuts(image, boxes)
        best: dict[int, tuple[str, float, bool, bool]] = {}
        alone: dict[int, tuple[str, float, bool, bool]] = {}
        keep_alone = plain is not None and use_set and self.tileset is not None

        def keep(into, k, reading):
            if k not in into or (reading[0] != NONE, reading[1]) > (into[k][0] != NONE, into[k][1]):
                into[k] = reading

        def read(owners, cuts, trust_box: bool):
            probs, embeddings = self.classifier.read(cuts)
            trusted = [trust_box and bool(sure and sure[k]) for k, _ in owners]
            by_set: list = [None] * len(probs)
            if use_set and self.tileset is not None and embeddings is not None:
                # the set names the cuts read as tiles at once (what they share done once); a cut read as
                # no tile stays none whoever names it (_name), and from beside the table 2 cuts in 5 read so
                at = self._read_as_tiles(probs, trusted)
                for j, named in zip(at, self.tileset.name_all(probs[at], embeddings[at], self.classifier,
                                                              cuts=[cuts[j] for j in at])):
                    by_set[j] = named
            for j, ((k, turn), p) in enumerate(zip(owners, probs)):
                tile, score, flipped, others = self._name(p, trusted[j], by_set[j])
                keep(best, k, (tile, score, flipped, turn, others))
                if keep_alone:
                    tile, score, flipped, others = self._name(p, trusted[j])
                    keep(alone, k, (tile, score, flipped, turn, others))

        read(owners, cuts, trust_box=True)
        other = [(k, not best[k][3]) for k in sorted(best)
                 if best[k][0] == NONE and sure and sure[k] and not is_ambiguous(boxes[k])]
        if other:
            # the other turn must read as a tile outright: a sure box's benefit of the doubt is spent
            read(other, [cut_tile(image, boxes[k], size=CLS_SIZE, turn=turn) for k, turn in other], trust_box=False)
        if keep_alone:
            plain.update({tuple(boxes[k]): _detection(boxes[k], *r) for k, r in alone.items()})
        return [_detection(boxes[k], *best[k]) for k in sorted(best)]

    def _refined(self, image: np.ndarray, named: list[Detection], sure: list[bool],
                 plain: dict | None = None) -> list[Detection]:
        """Each box moved by the refiner and read again: the moved box replaces the located one where it
        reads as a tile more surely (``prefer_moved``; the refiner learnt rendered tiles only: see
        vision/refine.py)."""
        second = self.name_boxes(image, self.refiner.refine(image, [d.box for d in named]), sure, plain=plain)
        return [m if prefer_moved(d, m) else d for d, m in zip(named, second)]

    def _split_pairs(self, image: np.ndarray, named: list[Detection], plain: dict | None = None) -> list[Detection]:
        """A box twice a tile's size around two touching tiles (kakan's added tile stacked on the
        called one) reads as no tile or a muddle: read its two halves (split across its long side)
        instead, when both are surely tiles. A tile's size is the median of the boxes read as tiles."""
        areas = [area(d.box) for d in named if d.tile != NONE]
        if len(areas) < 3:
            return named
        typical = float(np.median(areas))
        big = [d for d in named if area(d.box) > PAIR_AREA * typical and (d.tile == NONE or d.score < PAIR_SURE)]
        if not big:
            return named
        halves = [h for d in big for h in _halves(d.box)]
        read = self.name_boxes(image, halves, plain=plain)
        out = [d for d in named if d not in big]
        for k, d in enumerate(big):
            a, b = read[2 * k], read[2 * k + 1]
            if min(a.score, b.score) >= PAIR_SURE and NONE not in (a.tile, b.tile):
                out += [a, b]
            else:
                out.append(d)
        return out

    def _joined_halves(self, image: np.ndarray, named: list[Detection], plain: dict | None = None) -> list[Detection]:
        """A sideways tile the locator boxed as two upright halves side by side (seen from beside the
        table, a turned tile's face is about two narrow tiles wide), each read as a face, one of them
        unsurely: their union read as one face, kept where it reads surely (``JOIN_SURE``) and surer
        than either half. A face beside a box read as no tile may join too (``_half_pair``: of one
        height, overlapping); its union need only read surely. Each reading joins at most one pair,
        the surest union first. Judged on the
        classifier's own probabilities, even with a tile set (its scores are not probabilities);
        a joined tile is then named as any other. Backs never join: two backs look like one.
        ``plain``: the boxes' readings by the classifier alone, where a set named them (``name_boxes``)."""
        pairs = [(i, j) for i, a in enumerate(named) for j, b in enumerate(named)
                 if i < j and (_face(a) or _face(b)) and BACK not in (a.tile, b.tile)
                 and _side_by_side(a.box, b.box)]
        if not pairs:
            return named
        alone = dict(enumerate(named))
        if self.tileset is not None:
            plain = {} if plain is None else plain
            missing = [named[k].box for pair in pairs for k in pair if tuple(named[k].box) not in plain]
            if missing:                 # boxes given from elsewhere, not read by this detect() run
                self.name_boxes(image, missing, plain=plain)
            alone = {k: plain[tuple(named[k].box)] for pair in pairs for k in pair}
        pairs = [(i, j) for i, j in pairs if _half_pair(alone[i], alone[j])]
        unions = [around(named[i].box, named[j].box) for i, j in pairs]
        union_plain: dict = {}
        union_named = self.name_boxes(image, unions, plain=union_plain)    # by the set too, where there is one
        read = union_named if self.tileset is None else [union_plain[tuple(u)] for u in unions]
        used: set[int] = set()
        joined = []
        for k in sorted(range(len(pairs)), key=lambda k: -surely(read[k])):
            (i, j), u = pairs[k], read[k]
            faces = [alone[x].score for x in (i, j) if _face(alone[x])]
            if (i in used or j in used or not _face(u) or u.score < JOIN_SURE
                    or (len(faces) == 2 and u.score <= max(faces))):
                continue
            used |= {i, j}
            joined.append(union_named[k])
        return [d for k, d in enumerate(named) if k not in used] + joined

    def _detect_windows(self, image: np.ndarray, grid: int, overlap: float = 0.15) -> list[Detection]:
        h, w = image.shape[:2]
        ww, wh = int(w / (grid - (grid - 1) * overlap)), int(h / (grid - (grid - 1) * overlap))
        found: list[tuple[tuple[int, int, int, int], Detection]] = []
        for y0 in np.linspace(0, h - wh, grid).astype(int):
            for x0 in np.linspace(0, w - ww, grid).astype(int):
                window = (int(x0), int(y0), int(x0) + ww, int(y0) + wh)
                for d in self.detect(image[y0:y0 + wh, x0:x0 + ww]):
                    x1, y1, x2, y2 = d.box
                    found.append((window, replace(d, box=(x1 + x0, y1 + y0, x2 + x0, y2 + y0))))
        return merge_windows(found, (w, h))


def merge_windows(found, size: tuple[int, int]) -> list[Detection]:
    """Tiles found in overlapping windows (``(window x1 y1 x2 y2, detection in image pixels)``) of
    an image of ``size`` (w, h), each tile once, in reading order. A tile in two windows' overlap
    is found by both: the box that mostly lies inside a kept one is the same tile. A window's edge
    cuts the tiles it crosses, and a cut tile's box is short and often misnamed (half a 2s reads
    5z), so a box a window cut gives way to a box of the same tile that another window saw whole,
    however sure the cut one is; among whole (or among cut) boxes the surer one is kept."""
    kept: list[Detection] = []
    for _, d in sorted(((cut_by_window(d.box, win, size), d) for win, d in found),
                       key=lambda cd: (cd[0], -cd[1].score)):
        if all(inside_share(d.box, k.box) < 0.5 for k in kept):
            kept.append(d)
    return reading_order(kept)


def in_perspective(found: list[Detection]) -> list[Detection]:
    """The tiles whose boxes are no smaller than the tiles beyond them allow. Seen from beside the
    table, the table recedes up the image, and a tile nearer the camera (lower) looks at least as
    large as the tiles beyond it, up to how each lies: an upright face flat on the table is about three
    quarters as long as a standing or sideways tile at the same distance. So a box whose longer side
    is less than ``PERSPECTIVE`` of the median of the ``PERSPECTIVE_REFS`` nearest sure tiles wholly
    beyond it (read as a face or a back with ``SURE_BOX`` or more; their bottom edge above its top) is
    no tile lying on the table: a label on a seat's score display, a glint on its rail. A box with
    fewer than ``PERSPECTIVE_LEAST`` sure tiles beyond it is kept (nothing to judge it by)."""
    sure = sorted((d for d in found if d.tile != NONE and d.score >= SURE_BOX), key=lambda k: -k.box[3])
    kept = []
    for d in found:
        beyond = [k for k in sure if k is not d and k.box[3] <= d.box[1]]      # nearest first, as ``sure``
        if len(beyond) >= PERSPECTIVE_LEAST:
            typical = float(np.median([_long_side(k.box) for k in beyond[:PERSPECTIVE_REFS]]))
            if _long_side(d.box) < PERSPECTIVE * typical:
                continue
        kept.append(d)
    return kept


def hidden_feet(found: list[Detection]) -> list[tuple[float, float, float, float]]:
    """Each tile's box (image pixels, in order) with its bottom moved up to the top of the nearest
    tile in front of it. Seen from beside the table, a nearer tile lower in the image hides the foot
    of the tile behind it, so what is seen of the far tile ends where the nearer one's box starts.
    A box is in front when it lines up with the tile (both side edges within ``NEAR_COLUMN`` of the
    tile's width), starts below ``NEAR_BELOW`` of its height, reaches at least ``NEAR_REACH`` of it
    above its bottom edge, and ends below it. A back is left as it is (two stacked backs look like
    one), and no box is trimmed to less than ``TRIM_LEAST`` of its height."""
    out = []
    for d in found:
        x1, y1, x2, y2 = d.box
        w, h, bottom = x2 - x1, y2 - y1, y2
        if d.tile != BACK:
            for near in found:
                nx1, ny1, nx2, ny2 = near.box
                if (near is not d and abs(nx1 - x1) <= NEAR_COLUMN * w and abs(nx2 - x2) <= NEAR_COLUMN * w
                        and y1 + NEAR_BELOW * h < ny1 < bottom - NEAR_REACH * h and ny2 > y2):
                    bottom = ny1
        out.append((x1, y1, x2, max(bottom, y1 + TRIM_LEAST * h)) if bottom < y2 else d.box)
    return out


def _long_side(box) -> float:
    return max(box[2] - box[0], box[3] - box[1])


def reading_order(found: list[Detection]) -> list[Detection]:
    """Top to bottom in bands of 20 px, then left to right."""
    return sorted(found, key=lambda d: (round(d.box[1] / 20), d.box[0]))


def cut_by_window(box, window, size: tuple[int, int]) -> bool:
    """Whether a box touches an edge of its window that lies inside the image (boxes are clipped
    to their window, so a tile the edge crosses ends on it)."""
    (x1, y1, x2, y2), (wx1, wy1, wx2, wy2), (w, h) = box, window, size
    return ((wx1 > 0 and x1 < wx1 + CUT_EDGE) or (wy1 > 0 and y1 < wy1 + CUT_EDGE)
            or (wx2 < w and x2 > wx2 - CUT_EDGE) or (wy2 < h and y2 > wy2 - CUT_EDGE))


CUT_EDGE = 2      # px: a box this near a window's inner edge was cut by it

NESTED = 0.6     # a box whose area lies this much inside a surer one is the same tile
STRADDLE = 0.25  # ... or this much, when it is itself unsure: a box straddling a tile and its neighbour
UNSURE = 0.6      # (both chosen on the validation scenes, seeds 1,000,000-1,000,059)


SURE_BOX = 0.5    # a locator score this high: a tile is there, even when the classifier leans to none ...
KEEP_TILE = 0.1   # ... and its likeliest tile has this much (both chosen on the validation scenes,
                  # seeds 1,000,000-1,000,199: 12 more tiles found, 1 false box; 0.2 was tried against
                  # the real photos' boxes on clear ground and not kept: docs/vision.md)
UNDER_BAR_FLOOR = 0.05  # the least locator score of a box the classifier reads again under the bar ...
UNDER_BAR_SURE = 0.95   # ... the least it must read a face there at ...
UNDER_BAR_APART = 0.3   # ... and the most IoU it may share with a tile kept
SECOND_OPINION = 0.05  # the second locator's least score for a place it agrees holds a tile, and ...
SECOND_IOU = 0.3       # ... how well its box must meet the tile's. Of bars 0.05-0.25, the one costing no more
                       # than a point of found and named right on oblique validation (seeds 3,500,000-3,500,059: 91.24%
                       # -> 90.43%, precision 95.35% -> 97.25%; 0.1: 89.99%; console validation 5,500,000
                       # up: precision 79.86% -> 85.78%). See models/README.md.
PERSPECTIVE = 0.65     # a box's longer side below this share of the sure tiles' just beyond it: no tile on the table
PERSPECTIVE_REFS = 5   # ... judged by the median of the nearest this many ...
PERSPECTIVE_LEAST = 3  # ... and only with at least this many. Of 0.6, 0.65 and 0.7 (rendered validation: oblique
                       # seeds 3,500,000-3,500,059, rim 4,500,000 up, console 5,500,000 up), the largest costing no
                       # more than a tile: found and named right 89.29 -> 89.26 / 89.26 / 88.95% (oblique), console
                       # precision 89.11 -> 89.39 / 89.86 / 90.20% (15 boxes off the tiles dropped at 0.65, 1 tile)
NEAR_REACH = 0.1    # a box in front of a tile hides its foot when it starts this share of the tile's height above
NEAR_COLUMN = 0.2   # its bottom, lines up with it (both side edges within this share of its width), starts below
NEAR_BELOW = 0.3    # this share of its height and ends below it; a trimmed box keeps at least TRIM_LEAST of its
TRIM_LEAST = 0.5    # height. Chosen on rendered validation scored on tight boxes (oblique seeds 3,500,000-3,500,039,
                    # rim 4,500,000-019, console 5,500,000-019): found and named right 85.27 / 84.40 / 83.55% ->
                    # 87.76 / 86.97 / 86.43%; reaches of 0.05 and 0.2, side edges within 0.1-0.35 or overlapping
                    # by half, a start of 0.2 lie within 0.3 points; a start of 0.5 keeps most boxes as they were
                    # (85.57%), and so does keeping a trimmed box only where it reads surer (85.55%)
PAIR_AREA = 1.6   # a box this many typical tiles large may hold two
PAIR_SURE = 0.9   # a pair box read less surely than this is read as two halves
JOIN_SURE = 0.9     # two unsure halves' union read this surely (and surer than both) is one sideways tile ...
JOIN_OVERLAP = 0.8  # ... when the halves overlap by at most this share of the narrower (a half and a wider box
                    # over most of the tile, too: hand-eafe5f63's retakes) ...
JOIN_GAP = 0.15     # ... or stand apart by at most this share of it ...
JOIN_LEVEL = 0.7    # ... and share this much of the shorter one's height ...
JOIN_WIDE = 1.3     # ... and their union is this much wider than tall (a sideways tile's shape)
HALF_HEIGHTS = 0.85  # a face and a box read as no tile join only when the lower is this share of the taller ...
HALF_OVERLAP = 0.2   # ... and they overlap by this share of the narrower (one tile's halves; neighbours barely do)


REFINE_MARGIN = 0.0  # a moved box must read as a tile more surely than the located one by this much: surer at
                     # all. Oblique validation (seeds 3,500,000-3,500,149), found and named right: no refiner
                     # 88.99%; margin 0 / 0.1 / 0.2: 92.16% / 90.65% / 90.49%; rim validation (4,500,000 up)
                     # 88.02% -> 91.52% / 89.95% / 89.70%. Every box moved, no reading asked: better still on
                     # rendered scenes, 8 tiles fewer on the real photo (models/README.md).


MIRROR_FUSE = 0.7  # boxes this alike (IoU) are one tile's, averaged (chosen on the oblique validation
                   # scenes, seeds 3,500,000-3,500,149: 0.5 / 0.6 / 0.7 / 0.8 found and named right
                   # 85.4% / 86.4% / 86.8% / 86.8%, no mirror 85.5%; overhead seeds 1,000,000-1,000,299
                   # at 0.7: 99.29%, no mirror 99.26%)


def _fused(box: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> tuple[float, float, float, float]:
    """The score-weighted mean of ``boxes`` that overlap ``box`` by IoU > ``MIRROR_FUSE`` (itself included)."""
    iw = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = iw * ih
    union = area(box) + (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) - inter
    alike = inter > MIRROR_FUSE * union
    alike |= (boxes == box).all(axis=1)    # a zero-area box is still its own
    weights = scores[alike]
    return tuple(float(v) for v in (boxes[alike] * weights[:, None]).sum(axis=0) / weights.sum())


def surely(d: Detection) -> float:
    """How surely a reading is a tile: its score, or 0 when it says no tile is there."""
    return 0.0 if d.tile == NONE else d.score


def prefer_moved(located: Detection, moved: Detection) -> bool:
    """Whether the refiner's moved box is kept over the located one: it reads as a tile (not ``none``)
    and by ``REFINE_MARGIN`` more surely than the located box does (a ``none`` reading counts 0)."""
    return moved.tile != NONE and surely(moved) > surely(located) + REFINE_MARGIN


def _halves(box) -> list[tuple[float, float, float, float]]:
    """The two halves of a box, cut across its longer side."""
    x1, y1, x2, y2 = box
    if x2 - x1 > y2 - y1:
        xm = (x1 + x2) / 2
        return [(x1, y1, xm, y2), (xm, y1, x2, y2)]
    ym = (y1 + y2) / 2
    return [(x1, y1, x2, ym), (x1, ym, x2, y2)]


def _side_by_side(a, b) -> bool:
    """Two boxes next to each other across the image (overlapping by at most ``JOIN_OVERLAP`` of the
    narrower, apart by at most ``JOIN_GAP`` of it), level (sharing ``JOIN_LEVEL`` of the shorter's
    height), their union ``JOIN_WIDE`` times as wide as tall: where a sideways tile's two halves
    would be in a row seen from beside the table. Stacked boxes never join: a kakan's two sideways
    tiles, one above the other, look like one upright tile."""
    (l, r) = (a, b) if a[0] <= b[0] else (b, a)
    narrow = min(a[2] - a[0], b[2] - b[0])
    shared = min(a[3], b[3]) - max(a[1], b[1])
    short = min(a[3] - a[1], b[3] - b[1])
    u = around(a, b)
    return (narrow > 0 and -JOIN_OVERLAP * narrow <= r[0] - l[2] <= JOIN_GAP * narrow
            and shared >= JOIN_LEVEL * short and u[2] - u[0] >= JOIN_WIDE * (u[3] - u[1]))


def _half_pair(a: Detection, b: Detection) -> bool:
    """Two readings that may be a sideways tile's halves: two faces, one read unsurely (the union
    must then read surer than both), or a face beside a box read as no tile, of the face's height
    within ``HALF_HEIGHTS`` and overlapping it by ``HALF_OVERLAP`` of the narrower (a turned 西's
    left half reads 北 surely, its right half nothing: the union need only read a face surely; the
    halves of one tile share its top and bottom edges and overlap, where neighbours barely do)."""
    if _face(a) and _face(b):
        return min(a.score, b.score) < PAIR_SURE
    low, high = sorted((a.box[3] - a.box[1], b.box[3] - b.box[1]))
    shared = min(a.box[2], b.box[2]) - max(a.box[0], b.box[0])
    narrow = min(a.box[2] - a.box[0], b.box[2] - b.box[0])
    return (NONE in (a.tile, b.tile) and (_face(a) or _face(b)) and low >= HALF_HEIGHTS * high
            and shared >= HALF_OVERLAP * narrow)


def _detection(box, tile: str, score: float, flipped: bool, turn: bool, others=()) -> Detection:
    return Detection(tile, tuple(box), 0 if tile in (BACK, NONE) else rotation_of(turn, flipped), score,
                     others)


def _face(d: Detection) -> bool:
    return d.tile not in (NONE, BACK)


def suppressed(boxes: np.ndarray, scores: np.ndarray, overlap: float) -> np.ndarray:
    """The indices of the boxes (N x 4, x1 y1 x2 y2) non-maximum suppression keeps: each box that no
    higher-scored kept one overlaps by IoU over ``overlap`` (OpenCV's)."""
    rects = [[float(a), float(b), float(c - a), float(d - b)] for a, b, c, d in boxes]
    idx = cv2.dnn.NMSBoxes(rects, np.asarray(scores, float).tolist(), 0.0, overlap) if rects else []
    return np.asarray(idx, int).reshape(-1)


def _same_tile(box, score: float, surer: Detection) -> bool:
    """NMS keeps a box inside another, or half over two tiles, when their IoU is low: one tile, once."""
    share = inside_share(box, surer.box)
    return share > NESTED or (share > STRADDLE and score < UNSURE)
