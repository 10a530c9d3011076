"""Datasets written from rendered scenes.

``write_dataset(out, n, seed)`` writes, for scenes ``seed .. seed+n-1``:

    images/<split>/<id>.jpg      the scene
    labels/<split>/<id>.txt      YOLO rows: class cx cy w h (normalised); class 0 "tile" for the
                                 locator (``classes="locate"``) or the 38-class index (``"full"``)
    truth/<split>/<id>.json      every tile: mpsz class, box, rotation, face corners
    cls/<split>/<label>/<id>_<k>.png     the classifier's cuts (``crops=True``): label = class, class_ud
                                         (the cut shows it upside down), back, or none (no tile)
    debug/<split>/<id>.jpg       the scene with its truth drawn (``draw=True``)
    data.yaml                    the ultralytics dataset file

Scene ``i`` depends on the seed alone, so a run can stop and resume (files that
exist are kept), and the held-out split (``split="val"``, other seeds) never
overlaps training.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from .art import TileArt
from .capture import captured
from ..classes import CLASS_INDEX, CLASSES
from .crops import classifier_samples
from .fonts import FontDesign, random_design
from .suits import SuitDesign, random_suits
from .scene import Annotation, Scene, draw_annotations, render_scene

LOCATE_NAMES = ("tile",)
OBLIQUE_SEED = 3_000_000     # scenes from this seed up are seen by a slanted camera (``oblique.py``)
RIM_SEED = 4_000_000         # ... and from this one up, half of them have tiles on the table's rim
RIM_TILES = 0.5
CONSOLE_SEED = 5_000_000     # ... and from this one up, a seat view's console across the bottom (``console.py``)
DETAILS_SEED = 6_000_000     # ... and from this one up, the console has keys and tray compartments too
SEAT_SEED = 7_000_000        # ... and from this one up, a photo from the winner's seat: the hand line near the camera
DETAILS_STREAM = 13          # the generator that draws them is seeded (seed, this): the scene's own draws stay
DESIGNS_STREAM = 7           # the generator that picks a scene's design family is seeded (seed, this)
REAL_FACES_STREAM = 11       # ... and the one that picks the scenes drawn with real tiles' faces
FONTS_STREAM = 17            # ... and the one that picks, and draws, the scenes' typefaces
CAPTURE_STREAM = 19          # ... and the one that picks, and draws, the scenes cut through a camera's capture
SUITS_STREAM = 23            # ... and the one that picks, and draws, the scenes' circles and bamboos
LOW_SEATS_STREAM = 29        # ... and the one that picks, and draws, the seat photos taken lower over the hand


def view_for(seed: int) -> str:
    """The camera of scene ``seed``: overhead below ``OBLIQUE_SEED``, oblique from it (its own
    training, validation and test ranges: +0, +500,000, +600,000)."""
    return "oblique" if seed >= OBLIQUE_SEED else "overhead"


def rim_tiles_for(seed: int) -> float:
    """How likely scene ``seed``'s rim is open to tiles: ``RIM_TILES`` from ``RIM_SEED`` up (training,
    validation and test: +0, +500,000, +600,000), never below it, so every scene rendered before the
    rim opened (the shipped models' training data, the stored test sets) renders as it did."""
    return RIM_TILES if seed >= RIM_SEED else 0.0


def console_for(seed: int) -> bool:
    """Whether scene ``seed`` shows a player's console (rail, display, stick tray) across its bottom:
    from ``CONSOLE_SEED`` up (training, validation and test: +0, +500,000, +600,000); no scene below
    it spends a draw on one, so every scene rendered before renders as it did."""
    return seed >= CONSOLE_SEED


def seat_for(seed: int) -> bool:
    """Whether scene ``seed`` is a photo from the winner's seat (``scene._seat_hand``): from ``SEAT_SEED``
    up (training, validation and test: +0, +500,000, +600,000); below it no scene is."""
    return seed >= SEAT_SEED


def console_details_for(seed: int) -> np.random.Generator | None:
    """The generator that draws scene ``seed``'s console keys and tray compartments (``console.py``),
    from ``DETAILS_SEED`` up (training, validation and test: +0, +500,000, +600,000); None below it."""
    return np.random.default_rng([seed, DETAILS_STREAM]) if seed >= DETAILS_SEED else None


def _picked(seed: int, share: float, stream: int) -> np.random.Generator | None:
    """The generator (seed, ``stream``) when it picks scene ``seed`` for a ``share`` of scenes (its first
    draw), else None: each option picks on a generator of its own, so the scene's own draws are
    untouched and ``share`` 0 renders as before."""
    if share <= 0:
        return None
    rng = np.random.default_rng([seed, stream])
    return rng if rng.random() < share else None


def designs_for(seed: int, share: float) -> bool:
    """Whether scene ``seed`` draws its set from many designs: a ``share`` of scenes (``_picked``)."""
    return _picked(seed, share, DESIGNS_STREAM) is not None


def real_faces_for(seed: int, share: float) -> bool:
    """Whether scene ``seed`` lays real tiles' faces on its tiles (``synth/real_faces.py``): a ``share`` of
    scenes (``_picked``)."""
    return _picked(seed, share, REAL_FACES_STREAM) is not None


def font_for(seed: int, share: float) -> FontDesign | None:
    """The typeface scene ``seed`` draws its character tiles in (``synth/fonts.py``): for a ``share`` of
    scenes (``_picked``), drawn on the same generator; None for the rest, and where no font is installed."""
    rng = _picked(seed, share, FONTS_STREAM)
    return random_design(rng) if rng is not None else None


def suits_for(seed: int, share: float) -> SuitDesign | None:
    """The circles and bamboos scene ``seed`` draws (``synth/suits.py``): for a ``share`` of scenes
    (``_picked``), drawn on the same generator; None for the rest."""
    rng = _picked(seed, share, SUITS_STREAM)
    return random_suits(rng) if rng is not None else None


def capture_for(seed: int, share: float) -> np.random.Generator | None:
    """The generator that draws scene ``seed`` 's capture (``synth/capture.py``) for a ``share`` of scenes
    (``_picked``); None for the rest."""
    return _picked(seed, share, CAPTURE_STREAM)


def low_seat_for(seed: int, share: float) -> np.random.Generator | None:
    """The generator that draws how much lower scene ``seed`` was taken over the hand, and its tiles'
    ivory sides (``scene.LOW_SEAT_PLANE``), for a ``share`` of the photos from the seat (``_picked``); None
    for the rest and for every other scene."""
    return _picked(seed, share, LOW_SEATS_STREAM) if seat_for(seed) else None


def scene_for(seed: int, art: TileArt, size: tuple[int, int], designs: float = 0.0,
              real_faces: float = 0.0, fonts: float = 0.0, tight_boxes: bool = False, suits: float = 0.0,
              low_seats: float = 0.0) -> Scene:
    return render_scene(np.random.default_rng(seed), art, size=size, view=view_for(seed),
                        rim_tiles=rim_tiles_for(seed), designs=designs_for(seed, designs),
                        console=console_for(seed), real_faces=real_faces_for(seed, real_faces),
                        console_details=console_details_for(seed), font=font_for(seed, fonts),
                        seat=seat_for(seed), tight_boxes=tight_boxes, suits=suits_for(seed, suits),
                        low_seat=low_seat_for(seed, low_seats))


def yolo_rows(scene: Scene, classes: str) -> list[str]:
    h, w = scene.image.shape[:2]
    rows = []
    for a in scene.tiles:
        x1, y1, x2, y2 = a.box
        k = 0 if classes == "locate" else CLASS_INDEX[a.cls]
        rows.append(f"{k} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return rows


def write_cuts(out: Path, split: str, stem: str, scene: Scene, seed: int) -> None:
    """The classifier's cuts of one scene, under cls/<split>/<label>/."""
    for k, (label, cut) in enumerate(classifier_samples(scene, np.random.default_rng(seed))):
        d = out / "cls" / split / label
        d.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(d / f"{stem}_{k:03d}.png"), cut)


def recut(out: Path, split: str = "train") -> int:
    """Write the classifier's cuts again from the saved scenes and truth (after a change to the cut)."""
    out = Path(out)
    n = 0
    for f in sorted((out / "truth" / split).glob("*.json")):
        truth = json.loads(f.read_text())
        image = cv2.imread(str(out / truth["image"]))
        tiles = [Annotation(t["tile"], tuple(t["box"]), t["rotation"], tuple(map(tuple, t["face"])))
                 for t in truth["tiles"]]
        write_cuts(out, split, f.stem, Scene(image, tiles), int(f.stem[1:]))
        n += 1
    return n


def write_dataset(out: Path, n: int, seed: int, split: str = "train", *, art: TileArt | None = None,
                  size: tuple[int, int] = (960, 720), classes: str = "locate", crops: bool = False,
                  draw: bool = False, designs: float = 0.0, real_faces: float = 0.0, fonts: float = 0.0,
                  capture: float = 0.0, tight_boxes: bool = False, suits: float = 0.0,
                  low_seats: float = 0.0) -> int:
    """Render and write ``n`` scenes; returns how many were written now (existing ones are kept).
    ``designs``: the share of scenes whose set is one of many tile designs (``designs_for``);
    ``real_faces``: the share drawn with real tiles' faces (``real_faces_for``); ``fonts``: the share whose
    character tiles are drawn in a typeface (``font_for``); ``suits``: the share whose circles and bamboos
    are drawn in another maker's design (``suits_for``); ``low_seats``: the share of photos from the seat
    taken lower over the hand (``low_seat_for``); ``capture``: the share whose classifier cuts
    are taken from the scene as a camera would capture it (``capture_for``; the locator's image stays);
    ``tight_boxes``: oblique scenes' boxes leave out the slivers of a tile seen beside a nearer one
    (``render_scene``)."""
    if classes not in ("locate", "full"):
        raise ValueError(f"classes must be 'locate' or 'full', not {classes!r}")
    art = art or TileArt()
    out = Path(out)
    for sub in ("images", "labels", "truth"):
        (out / sub / split).mkdir(parents=True, exist_ok=True)
    written = 0
    for i in range(seed, seed + n):
        stem = f"s{i:07d}"
        if (out / "truth" / split / f"{stem}.json").exists():
            continue
        scene = scene_for(i, art, size, designs, real_faces, fonts, tight_boxes, suits, low_seats)
        cv2.imwrite(str(out / "images" / split / f"{stem}.jpg"), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
        (out / "labels" / split / f"{stem}.txt").write_text("\n".join(yolo_rows(scene, classes)) + "\n")
        if crops:
            rng = capture_for(i, capture)
            write_cuts(out, split, stem, replace(scene, image=captured(scene.image, rng)) if rng else scene, i)
        if draw:
            (out / "debug" / split).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / "debug" / split / f"{stem}.jpg"), draw_annotations(scene))
        # the truth file last: its presence marks the scene complete (resume skips it)
        (out / "truth" / split / f"{stem}.json").write_text(
            json.dumps({"image": f"images/{split}/{stem}.jpg", "tiles": [a.to_dict() for a in scene.tiles]}))
        written += 1
    names = LOCATE_NAMES if classes == "locate" else CLASSES
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\n"
        f"names:\n" + "".join(f"  {i}: '{c}'\n" for i, c in enumerate(names)))
    return written
