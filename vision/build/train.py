"""Training both stages with ultralytics and exporting them to ONNX (the ``train`` extra; never at run time).

    python -m vision train [--data DIR] [--stage data|locator|classifier|export|all] ...

One command, resumable at every step: scenes already rendered are kept, a
stage whose run stopped resumes from its ``last.pt``, a finished stage is
skipped. The sizes default to what fits about two hours of a 2-core CPU; on a
machine with a CUDA GPU the same command trains bigger (more scenes, epochs
and a larger input), see ``Plan``.

Augmentation is chosen for tiles: no flips (a mirrored glyph is no tile, and
the classifier must tell upright from upside down), no hue shift (red fives
must stay red), mild crops only (the cut is the whole tile).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from ..detect import VIEWS
from ..crop import CLS_SIZE

VAL_SEED = 1_000_000        # held-out scenes start here; training seeds stay below
OBLIQUE_VAL = 500_000       # a range's validation seeds: its first seed + this (oblique, seat)


@dataclass(frozen=True)
class Plan:
    """Sizes of one training run. The CPU defaults are what trained the shipped models in about
    80 minutes of a 2-core machine (both stages side by side)."""
    scenes: int = 2000
    val_scenes: int = 60
    locator_model: str = "yolov8n.yaml"
    locator_imgsz: int = 512
    locator_epochs: int = 10
    locator_batch: int = 16
    locator_scale: float = 0.3        # scale augmentation: tiles drawn at 1 -/+ this
    seed: int = 0                     # ultralytics' seed (batch order, augmentation): fine-tunes to average differ by it
    classifier_model: str = "yolov8n-cls.yaml"
    classifier_epochs: int = 8
    classifier_batch: int = 256
    device: str = "cpu"
    workers: int = 2
    oblique_scenes: int = 0           # scenes seen by a slanted camera, as in the real photo
    oblique_val: int = 0
    rim_scenes: int = 0               # oblique scenes with tiles on the rim half the time (seeds 4,000,000 up)
    console_scenes: int = 0           # oblique scenes with a seat's console across the bottom (seeds 5,000,000 up)
    details_scenes: int = 0           # ... whose console has keys and tray compartments too (seeds 6,000,000 up)
    seat_scenes: int = 0              # photos from the winner's seat, the hand near the camera (seeds 7,000,000 up)
    seat_val: int = 0                 # ... and held out to validate on (seeds 7,500,000 up): a seat locator's best epoch
    start: str = "scratch"            # or a view (detect.VIEWS): fine-tune that shipped ONNX pair
    classifier_start: str = ""        # an earlier run's classifier checkpoint (.pt) to fine-tune on, in place of ``start``
    view: str = "overhead"            # which models/ pair the export writes (detect.VIEWS)
    hours: float = 0.0                # > 0: each stage stops after this long (ultralytics fits its epochs to it)
    cache: bool = False               # hold the decoded images in memory (a GPU waits on decoding otherwise)
    jobs: int = 1                     # processes rendering the scenes side by side
    designs: float = 0.0              # share of scenes drawing their set from many designs (synth.tile.random_style)
    real_variants: int = 0            # > 0: the fitting real tiles, this many variants each, join the classifier's cuts
    real_faces: float = 0.0           # share of scenes whose tiles show real tiles' faces (synth/real_faces.py)
    fonts: float = 0.0                # share of scenes whose character tiles are drawn in a typeface (synth/fonts.py)
    suits: float = 0.0                # share of scenes whose circles and bamboos are another maker's (synth/suits.py)
    low_seats: float = 0.0            # share of photos from the seat taken lower over the hand (synth/scene.py)
    capture: float = 0.0              # share of scenes whose classifier cuts come through a camera's capture (synth/capture.py)
    tight_boxes: bool = False         # oblique boxes leave out a tile's slivers seen beside a nearer one (synth/oblique.py)


CPU_PLAN = Plan()
GPU_PLAN = Plan(scenes=12000, val_scenes=400, locator_model="yolov8s.yaml", locator_imgsz=640,
                locator_epochs=60, locator_batch=32, classifier_model="yolov8s-cls.yaml",
                classifier_epochs=40, classifier_batch=512, device="0", workers=8)


# Fine-tuning the shipped models on half overhead, half oblique scenes: what trained models/oblique/
# on a 2-core CPU, about 12 minutes of rendering and 25 of training (see models/README.md).
FINETUNE_PLAN = Plan(scenes=1000, val_scenes=40, oblique_scenes=900, oblique_val=40, locator_epochs=3,
                     classifier_epochs=3, start="overhead", view="oblique")


def default_plan() -> Plan:
    import torch

    return GPU_PLAN if torch.cuda.is_available() else CPU_PLAN


def _budget(plan: Plan) -> dict:
    """The plan's time cap and image cache, as ultralytics' train arguments (absent when unset)."""
    return {**({"time": plan.hours} if plan.hours > 0 else {}), **({"cache": "ram"} if plan.cache else {})}


def _write(args: tuple) -> int:
    from ..synth.dataset import write_dataset

    data, n, seed, split, designs, real_faces, fonts, capture, tight_boxes, suits, low_seats = args
    return write_dataset(data, n, seed, split, crops=True, designs=designs, real_faces=real_faces, fonts=fonts,
                         capture=capture, tight_boxes=tight_boxes, suits=suits, low_seats=low_seats)


def _chunks(n: int, seed: int, parts: int) -> list[tuple[int, int]]:
    """(count, first seed) of ``parts`` nearly equal runs covering seeds seed .. seed+n-1."""
    size = -(-n // parts) if n else 0
    return [(min(size, n - k), seed + k) for k in range(0, n, size)] if size else []


def make_data(data: Path, plan: Plan) -> None:
    """Render every set the plan names; with ``jobs`` > 1, in that many processes (each scene depends on
    its seed alone, so the split into runs changes no image)."""
    from ..synth.dataset import CONSOLE_SEED, DETAILS_SEED, OBLIQUE_SEED, RIM_SEED, SEAT_SEED

    sets = [(plan.scenes, 0, "train"), (plan.oblique_scenes, OBLIQUE_SEED, "train"),
            (plan.rim_scenes, RIM_SEED, "train"), (plan.console_scenes, CONSOLE_SEED, "train"),
            (plan.details_scenes, DETAILS_SEED, "train"), (plan.seat_scenes, SEAT_SEED, "train"),
            (plan.val_scenes, VAL_SEED, "val"),
            (plan.oblique_val, OBLIQUE_SEED + OBLIQUE_VAL, "val"), (plan.seat_val, SEAT_SEED + OBLIQUE_VAL, "val")]
    work = [(data, n, s, split, plan.designs, plan.real_faces, plan.fonts, plan.capture, plan.tight_boxes,
             plan.suits, plan.low_seats)
            for total, first, split in sets
            for n, s in _chunks(total, first, max(1, plan.jobs))]
    if plan.jobs > 1:
        from multiprocessing import get_context

        with get_context("spawn").Pool(plan.jobs) as pool:
            pool.map(_write, work, chunksize=1)
    else:
        for w in work:
            _write(w)
    if plan.real_variants > 0:
        from .real_cls import write_real_cuts

        write_real_cuts(data, plan.real_variants)


# a fine-tune's settings: a tenth of a fresh run's learning rate, hardly any warm-up
FINE_TUNE = {"optimizer": "AdamW", "lr0": 0.0003, "warmup_epochs": 0.1, "cos_lr": True, "pretrained": True}


def _start(runs: Path, plan: Plan, stage: int, yaml: str, data: Path) -> tuple[str, dict]:
    """What a stage (0: locator, 1: classifier) trains from, and the settings that go with it: its yaml
    from scratch, or a shipped pair's ONNX model (``plan.start`` names the view) turned back into a
    checkpoint, its batch norms set by ``data`` 's training images (``calibration_inputs``), fine-tuned at
    a tenth of the learning rate."""
    if plan.start == "scratch":
        return yaml, {}
    if plan.start not in VIEWS:
        raise ValueError(f"start must be 'scratch' or one of {', '.join(VIEWS)}, not {plan.start!r}")
    from .warmstart import checkpoint

    shipped = VIEWS[plan.start][stage]
    pt = runs / "start" / f"{plan.start}-{shipped.stem}.pt"
    if not pt.exists():
        checkpoint(shipped, yaml, pt, calibration_inputs(data, stage, plan.locator_imgsz))
    return str(pt), FINE_TUNE


def _classifier_start(runs: Path, plan: Plan, data: Path) -> tuple[str, dict]:
    """What the classifier trains from: ``plan.classifier_start``, an earlier run's checkpoint, fine-tuned
    further as a shipped start is (a fine-tune in many designs taken on in the plain art: vision/build/
    gpu_classifier.sh, ``REANCHOR``); else as ``_start`` says."""
    if not plan.classifier_start:
        return _start(runs, plan, 1, plan.classifier_model, data)
    if not Path(plan.classifier_start).is_file():
        raise ValueError(f"no classifier checkpoint at {plan.classifier_start}")
    return str(plan.classifier_start), FINE_TUNE


CALIBRATION = {0: 16, 1: 256}    # training images a warm start's batch norms are set by: locator, classifier


def calibration_inputs(data: Path, stage: int, imgsz: int, seed: int = 0):
    """A few of ``data`` 's training images (stage 0: scenes letterboxed to ``imgsz``; 1: the classifier's
    cuts at its size), as the model takes them (N x 3 x H x W, RGB 0..1): what a warm start's batch norms
    are set by (``warmstart.calibrate``)."""
    import cv2
    import numpy as np

    from ..detect import letterbox
    from ..runtime import blob

    files = sorted((data / "images" / "train").glob("*.jpg") if stage == 0 else (data / "cls" / "train").glob("*/*.png"))
    if not files:
        raise ValueError(f"no training images under {data} to start a fine-tune from: render them first (--stage data)")
    picked = np.random.default_rng(seed).choice(len(files), min(CALIBRATION[stage], len(files)), replace=False)
    size = imgsz if stage == 0 else CLS_SIZE
    images = [cv2.imread(str(files[k])) for k in sorted(picked)]
    return blob([letterbox(image, size)[0] if stage == 0 else cv2.resize(image, (size, size), interpolation=cv2.INTER_AREA)
                 for image in images])


def read_results_csv(path: Path) -> dict[str, list]:
    """A run's results.csv as columns (name -> values), as ultralytics stores it in each checkpoint; {} when
    there is none yet. It reads the file with polars, whose wheel (over 50 MB) is too large to carry to the
    lent GPU machine, which has none; this reads it with the csv module instead."""
    import csv

    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return {}
    return {k.strip(): [_number(r[k]) for r in rows] for k in (rows[0] if rows else {})}


def _number(text: str):
    try:
        return float(text)
    except (TypeError, ValueError):
        return text


def _without_polars() -> None:
    """Where polars is not installed, ultralytics' checkpoints read their results.csv by ``read_results_csv``
    (its own reader imports polars outside its try, so a run would stop at its first checkpoint)."""
    try:
        import polars  # noqa: F401
    except ImportError:
        from ultralytics.engine.trainer import BaseTrainer

        BaseTrainer.read_results_csv = lambda trainer: read_results_csv(trainer.csv)


def _run(runs: Path, name: str, model: str, **train_args) -> Path:
    """Train (or resume, or skip when done) one ultralytics run; returns its best weights."""
    from ultralytics import YOLO

    _without_polars()

    wdir = runs / name / "weights"
    best, last = wdir / "best.pt", wdir / "last.pt"
    if (runs / name / "done").exists() and best.exists():
        return best
    if last.exists():
        YOLO(str(last)).train(resume=True)
    else:
        YOLO(model).train(**{"project": str(runs), "name": name, "exist_ok": True, "pretrained": False,
                             "plots": False, **train_args})
    (runs / name / "done").write_text("finished\n")
    return best


def train_locator(data: Path, runs: Path, plan: Plan) -> Path:
    model, tune = _start(runs, plan, 0, plan.locator_model, data)
    return _run(runs, "locator", model, data=str(data / "data.yaml"), imgsz=plan.locator_imgsz,
                epochs=plan.locator_epochs, batch=plan.locator_batch, device=plan.device, workers=plan.workers,
                seed=plan.seed, single_cls=True, fliplr=0.0, flipud=0.0, hsv_h=0.0, mosaic=0.5, close_mosaic=2,
                degrees=0.0, scale=plan.locator_scale, translate=0.1, patience=100, **_budget(plan), **tune)


def train_classifier(data: Path, runs: Path, plan: Plan) -> Path:
    model, tune = _classifier_start(runs, plan, data)
    # from scratch on a short budget: a real learning rate at once, not 3 epochs of warm-up
    settings = {"optimizer": "AdamW", "lr0": 0.003, "warmup_epochs": 0.3, "cos_lr": True, **tune}
    return _run(runs, "classifier", model, data=str(data / "cls"), imgsz=CLS_SIZE,
                epochs=plan.classifier_epochs, batch=plan.classifier_batch, device=plan.device,
                workers=plan.workers, seed=plan.seed, fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.3,
                erasing=0.0, auto_augment=None, scale=0.1, patience=100, **_budget(plan), **settings)


def export(weights: Path, to: Path, imgsz: int, dynamic: bool) -> Path:
    """ONNX export (needs ``onnx`` and ``onnxslim`` installed: ultralytics cannot fetch them offline). A
    classifier (``dynamic``) gets its ``embedding`` output too, which a table's tile set reads."""
    from ultralytics import YOLO

    from .embedding import add_embedding_output

    onnx = Path(YOLO(str(weights)).export(format="onnx", imgsz=imgsz, dynamic=dynamic, simplify=True,
                                          opset=17, device="cpu"))
    to.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(onnx, to)
    if dynamic:
        add_embedding_output(to)
    return to


def train(data: Path, runs: Path, stage: str = "all", plan: Plan | None = None, **overrides) -> list[Path]:
    """Run ``stage`` (data, locator, classifier, export or all); returns the files it wrote."""
    plan = replace(plan or default_plan(), **{k: v for k, v in overrides.items() if v is not None})
    written: list[Path] = []
    if stage in ("data", "all"):
        make_data(data, plan)
        written.append(data)
    if stage in ("locator", "all"):
        written.append(train_locator(data, runs, plan))
    if stage in ("classifier", "all"):
        written.append(train_classifier(data, runs, plan))
    if stage in ("export", "all"):
        locator, classifier = VIEWS[plan.view]
        written.append(export(runs / "locator" / "weights" / "best.pt", locator, plan.locator_imgsz, False))
        written.append(export(runs / "classifier" / "weights" / "best.pt", classifier, CLS_SIZE, True))
    return written
