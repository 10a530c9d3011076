"""Running the detector over held-out synthetic scenes and labelled real photos (``python -m vision evaluate``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from .detect import Detector
from .evaluate import REAL_LABELS, Report, load_labels, photos_dir

TEST_SEED = 1_100_000       # the first test scene: training renders seeds below 1,000,000, and
                            # 1,000,000 up are its validation scenes (they chose the best epoch)
OBLIQUE_TEST = 3_600_000    # the first oblique test scene (oblique training 3,000,000 up, validation 3,500,000 up)
RIM_TEST = 4_600_000        # the first oblique test scene with tiles on the rim (training 4,000,000 up)
CONSOLE_TEST = 5_600_000    # the first oblique test scene with a seat's console (training 5,000,000 up)
DETAILS_TEST = 6_600_000    # ... whose console has keys and tray compartments too (training 6,000,000 up)
SEAT_TEST = 7_600_000       # the first photo from the winner's seat (training 7,000,000 up)


def _timed(detector: Detector, image: np.ndarray, grid: int = 1) -> tuple[list[dict], float]:
    t = time.perf_counter()
    found = detector.detect(image, grid=grid)
    return [d.to_dict() for d in found], (time.perf_counter() - t) * 1000


def synthetic_rendered(detector: Detector, scenes: int, seed: int = TEST_SEED, tight_boxes: bool = False) -> Report:
    """Scenes rendered now from held-out seeds (needs the tile art); ``tight_boxes``: their truth boxed
    as a person boxes a photo (``render_scene``)."""
    from .synth.art import TileArt
    from .synth.dataset import console_details_for, console_for, rim_tiles_for, scene_for, seat_for, view_for

    # the set's name from what its seeds render (dataset.py owns the seed ranges)
    view = ("" if view_for(seed) == "overhead" else
            "oblique, photos from the winner's seat, " if seat_for(seed) else
            "oblique, a seat's console with keys and compartments, " if console_details_for(seed) is not None
            else "oblique, a seat's console, " if console_for(seed)
            else "oblique, tiles on the rim, " if rim_tiles_for(seed) else "oblique ")
    tight = "tight boxes, " if tight_boxes and view_for(seed) == "oblique" else ""
    art, report = TileArt(), Report(f"synthetic {view}test ({tight}seeds {seed}..{seed + scenes - 1})")
    for i in range(seed, seed + scenes):
        s = scene_for(i, art, (960, 720), tight_boxes=tight_boxes)
        found, ms = _timed(detector, s.image)
        report.add(found, [t.to_dict() for t in s.tiles], ms)
    return report


def synthetic_folder(detector: Detector, folder: Path, split: str) -> Report:
    """A dataset written by ``python -m vision synth`` (its truth JSON files)."""
    files = sorted((folder / "truth" / split).glob("*.json"))
    if not files:
        raise ValueError(f"{folder}: no truth/{split}/*.json files (write one with python -m vision synth)")
    report = Report(f"synthetic {folder}/{split}")
    for f in files:
        truth = json.loads(f.read_text())
        image = cv2.imread(str(folder / truth["image"]))
        found, ms = _timed(detector, image)
        report.add(found, truth["tiles"], ms)
    return report


def real_photo(detector: Detector, labels_path: Path, photos: Path, grid: int = 1) -> Report:
    """A hand-labelled real photo. Its rotation is scored only where the labels say it can be told."""
    labels = load_labels(labels_path)
    path = photos / labels["image"]
    image = cv2.imread(str(path)) if path.is_file() else None
    if image is None:
        raise FileNotFoundError(f"photo {path} not found or unreadable (set TOUTENKOU_PHOTOS or --photos)")
    report = Report(f"real {labels['image']}" + (f" ({grid}x{grid} windows)" if grid > 1 else ""))
    found, ms = _timed(detector, image, grid)
    report.add(found, labels["tiles"], ms, ambiguous_rotation=labels.get("rotation_ambiguous", ()))
    return report


def run_evaluation(scenes: int = 100, synth: Path | None = None, split: str = "val",
                   real: list[Path] | None = None, photos: Path | None = None,
                   detector: Detector | None = None, real_grid: int = 1, oblique: int = 0,
                   view: str = "overhead", mirror: bool = False, rim: int = 0,
                   refine: bool = True, console: int = 0, second: bool = True, details: int = 0,
                   perspective: bool = True, seat: int = 0, locator: Path | None = None,
                   tight_boxes: bool = False, trim: bool = True, under_bar: bool = True) -> list[Report]:
    """Reports for the synthetic set and each real labels file (the shared photo's when none is named;
    skipped quietly when that photo is absent, an error when a named one is, or a named ``photos``
    folder; checked before any scene is read). ``mirror``: the locator's second, mirrored pass;
    ``refine``: the view's box refiner, if it has one; ``second``: the view's second locator, if it has
    one; ``perspective``: the view's perspective check, if it has one; ``trim``: the view's boxes
    stopped where a nearer tile starts, if it does so; ``under_bar``: faces read in boxes the locator
    scored under its bar, if the view keeps them (``detect.Detector``); ``locator``: a candidate
    in the view's locator's place; ``tight_boxes``: the rendered scenes' truth boxed as a person boxes
    a photo (``synth.scene.render_scene``)."""
    if photos is not None and not photos.is_dir():
        raise FileNotFoundError(f"--photos {photos}: no such folder")
    detector = detector or Detector.for_view(view, mirror=mirror, refine=refine, second=second,
                                             perspective=perspective, locator=locator, trim=trim,
                                             under_bar=under_bar)
    reports = []
    if synth is not None:
        reports.append(synthetic_folder(detector, synth, split))
    elif scenes > 0:
        reports.append(synthetic_rendered(detector, scenes))
    for n, first in ((oblique, OBLIQUE_TEST), (rim, RIM_TEST), (console, CONSOLE_TEST), (details, DETAILS_TEST),
                     (seat, SEAT_TEST)):
        if n > 0:
            reports.append(synthetic_rendered(detector, n, first, tight_boxes))
    photos = photos or photos_dir()
    explicit = real is not None
    for lp in real if explicit else [REAL_LABELS]:
        try:
            reports.append(real_photo(detector, lp, photos, real_grid))
        except FileNotFoundError:
            if explicit:
                raise
    return reports
