"""python -m vision train needs the training extra; without it, it says so (the runtime never needs torch)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from vision.build.train import CPU_PLAN, GPU_PLAN


@pytest.mark.skipif(importlib.util.find_spec("ultralytics") is not None, reason="ultralytics is installed here")
def test_training_without_the_extra_exits_2_naming_it(tmp_path):
    r = subprocess.run([sys.executable, "-m", "vision", "train", "--data", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "train extra" in r.stderr and "Traceback" not in r.stderr


def test_the_runtime_imports_no_torch():
    code = "import sys, vision.detect, vision.read, vision.layout; print('torch' in sys.modules)"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "False", r.stderr


def test_what_runs_at_the_table_imports_nothing_that_builds_models():
    runtime = ("vision.detect, vision.read, vision.layout, vision.tileset, vision.tileset_cli, vision.teach, "
               "vision.evaluate, vision.hand_photo")
    code = (f"import sys, {runtime}; "
            "print(sorted(m for m in sys.modules if m.startswith(('vision.synth', 'vision.build'))))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0 and r.stdout.strip() == "[]", r.stdout + r.stderr


def test_a_gpu_trains_bigger_than_the_cpu():
    assert GPU_PLAN.scenes > CPU_PLAN.scenes and GPU_PLAN.locator_epochs > CPU_PLAN.locator_epochs
    assert GPU_PLAN.device == "0" and CPU_PLAN.device == "cpu"


def test_fine_tuning_starts_from_the_shipped_models_on_both_views():
    from vision.build.train import FINETUNE_PLAN
    assert FINETUNE_PLAN.start == "overhead" and CPU_PLAN.start == "scratch"
    assert FINETUNE_PLAN.oblique_scenes > 0 and FINETUNE_PLAN.scenes > 0, "half of each view, not one"


def test_an_unknown_starting_point_is_refused(tmp_path):
    from vision.build.train import _start
    with pytest.raises(ValueError, match="start must be"):
        _start(tmp_path, replace(CPU_PLAN, start="yesterday"), 0, "yolov8n.yaml", tmp_path)


def test_the_train_command_takes_the_number_of_oblique_scenes():
    from vision.__main__ import _parser
    a = _parser().parse_args(["train", "--finetune", "--start", "oblique", "--oblique-scenes", "1800"])
    assert a.oblique_scenes == 1800 and a.start == "oblique" and a.finetune


def test_the_train_command_takes_a_seed_and_the_locators_scale_augmentation():
    from vision.__main__ import _parser
    a = _parser().parse_args(["train", "--seed", "3", "--locator-scale", "0.6"])
    assert (a.seed, a.locator_scale) == (3, 0.6)
    b = _parser().parse_args(["train"])
    assert b.seed is None and b.locator_scale is None, "unset: the plan's own values stand"
    assert (CPU_PLAN.seed, CPU_PLAN.locator_scale) == (0, 0.3)


def test_the_data_stage_renders_rim_scenes_from_their_own_seeds(tmp_path, art):
    from vision.__main__ import _parser
    from vision.synth.dataset import RIM_SEED
    from vision.build.train import make_data
    assert _parser().parse_args(["train", "--rim-scenes", "1000"]).rim_scenes == 1000
    make_data(tmp_path, replace(CPU_PLAN, scenes=0, val_scenes=0, rim_scenes=1))
    assert [p.name for p in (tmp_path / "truth" / "train").iterdir()] == [f"s{RIM_SEED:07d}.json"]


def test_the_data_stage_boxes_tiles_tightly_when_asked(tmp_path, art):
    """--tight-boxes: the slanted scenes' truth as a person boxes a photo, the images as they were."""
    import json

    from vision.__main__ import _parser
    from vision.build.train import make_data
    from vision.synth.dataset import OBLIQUE_SEED
    assert _parser().parse_args(["train", "--tight-boxes"]).tight_boxes
    assert not _parser().parse_args(["train"]).tight_boxes and not CPU_PLAN.tight_boxes
    one = replace(CPU_PLAN, scenes=0, val_scenes=0, oblique_scenes=1)
    make_data(tmp_path / "plain", one)
    make_data(tmp_path / "tight", replace(one, tight_boxes=True))
    stem = f"s{OBLIQUE_SEED:07d}"
    boxes = {k: [t["box"] for t in json.loads((tmp_path / k / "truth" / "train" / f"{stem}.json").read_text())["tiles"]]
             for k in ("plain", "tight")}
    assert len(boxes["plain"]) == len(boxes["tight"]) and boxes["plain"] != boxes["tight"]
    assert all(t[3] - t[1] <= p[3] - p[1] for p, t in zip(boxes["plain"], boxes["tight"]))
    assert ((tmp_path / "plain" / "images" / "train" / f"{stem}.jpg").read_bytes()
            == (tmp_path / "tight" / "images" / "train" / f"{stem}.jpg").read_bytes())


def test_seat_photos_to_validate_on_come_from_the_seat_ranges_validation_seeds(tmp_path, art):
    """A seat locator's best epoch is chosen on seat photos it never trained on: 7,500,000 up."""
    from vision.__main__ import _parser
    from vision.synth.dataset import SEAT_SEED, seat_for
    from vision.build.train import OBLIQUE_VAL, make_data
    assert _parser().parse_args(["train", "--seat-val", "40"]).seat_val == 40
    make_data(tmp_path, replace(CPU_PLAN, scenes=0, val_scenes=0, seat_val=1))
    assert [p.name for p in (tmp_path / "truth" / "val").iterdir()] == [f"s{SEAT_SEED + OBLIQUE_VAL:07d}.json"]
    assert not (tmp_path / "truth" / "train").exists() or not any((tmp_path / "truth" / "train").iterdir())
    assert seat_for(SEAT_SEED + OBLIQUE_VAL)


def test_rendering_in_runs_covers_every_seed_once():
    from vision.build.train import _chunks
    runs = _chunks(10, 100, 3)
    assert runs == [(4, 100), (4, 104), (2, 108)]
    assert sorted(s + k for n, s in runs for k in range(n)) == list(range(100, 110))
    assert _chunks(0, 5, 4) == [] and _chunks(2, 0, 8) == [(1, 0), (1, 1)]


def test_scenes_rendered_side_by_side_are_the_scenes_rendered_in_turn(tmp_path, art):
    from vision.build.train import make_data
    plan = replace(CPU_PLAN, scenes=3, val_scenes=1)
    make_data(tmp_path / "one", plan)
    make_data(tmp_path / "two", replace(plan, jobs=2))
    for split, n in (("train", 3), ("val", 1)):
        one = sorted((tmp_path / "one" / "labels" / split).iterdir())
        two = sorted((tmp_path / "two" / "labels" / split).iterdir())
        assert len(one) == n and [p.name for p in one] == [p.name for p in two]
        assert [p.read_text() for p in one] == [p.read_text() for p in two]


def test_a_time_cap_and_the_image_cache_reach_ultralytics_only_when_asked():
    from vision.build.train import _budget
    assert _budget(CPU_PLAN) == {}
    assert _budget(replace(CPU_PLAN, hours=0.1, cache=True)) == {"time": 0.1, "cache": "ram"}
    a = _parser_args(["train", "--hours", "0.1", "--cache", "--jobs", "16", "--locator-model", "yolov8n.yaml",
                      "--classifier-model", "yolov8n-cls.yaml",
                      "--workers", "12", "--locator-batch", "64"])
    assert (a.hours, a.cache, a.jobs, a.locator_model, a.classifier_model, a.workers, a.locator_batch) == \
        (0.1, True, 16, "yolov8n.yaml", "yolov8n-cls.yaml", 12, 64)


def _parser_args(argv):
    from vision.__main__ import _parser
    return _parser().parse_args(argv)


@pytest.mark.parametrize("flag, value", [("--jobs", "0"), ("--hours", "-1"), ("--capture", "1.5"),
                                         ("--suits", "-0.1"), ("--low-seats", "1.5")])
def test_a_bad_job_count_or_time_cap_exits_2_naming_it(tmp_path, flag, value):
    r = subprocess.run([sys.executable, "-m", "vision", "train", "--data", str(tmp_path), flag, value],
                       capture_output=True, text=True)
    assert r.returncode == 2 and flag in r.stderr and "Traceback" not in r.stderr


def test_a_warm_start_is_calibrated_on_the_classifiers_own_training_cuts(tmp_path):
    import cv2
    import numpy as np
    from vision.build.train import calibration_inputs
    blue = np.zeros((50, 40, 3), np.uint8)
    blue[..., 0] = 255                                   # BGR on disk
    for k in range(3):
        (tmp_path / "cls" / "train" / "1m").mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(tmp_path / "cls" / "train" / "1m" / f"c{k}.png"), blue)
    x = calibration_inputs(tmp_path, 1, 512)
    assert x.shape == (3, 3, 64, 64) and x.dtype == np.float32
    assert x[:, 2].min() == 1.0 and x[:, :2].max() == 0.0, "RGB 0..1, as the model takes it"


def test_a_warm_start_without_training_images_names_the_missing_step(tmp_path):
    from vision.build.train import calibration_inputs
    with pytest.raises(ValueError, match="render them first"):
        calibration_inputs(tmp_path, 0, 512)


def test_the_classifier_can_go_on_from_an_earlier_runs_checkpoint(tmp_path):
    from vision.build.train import FINE_TUNE, _classifier_start
    pt = tmp_path / "best.pt"
    pt.write_bytes(b"a checkpoint")
    assert _classifier_start(tmp_path, replace(CPU_PLAN, classifier_start=str(pt)), tmp_path) == (str(pt), FINE_TUNE)
    with pytest.raises(ValueError, match="no classifier checkpoint"):
        _classifier_start(tmp_path, replace(CPU_PLAN, classifier_start=str(tmp_path / "gone.pt")), tmp_path)


def test_a_missing_classifier_start_exits_2_naming_it(tmp_path):
    r = subprocess.run([sys.executable, "-m", "vision", "train", "--data", str(tmp_path), "--classifier-start",
                        str(tmp_path / "gone.pt")], capture_output=True, text=True)
    assert r.returncode == 2 and "--classifier-start: no checkpoint at" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("env, says", [({"VIEW": "sideways"}, "VIEW must be oblique or overhead"),
                                       ({"REANCHOR": "some"}, "REANCHOR must be a number of scenes")])
def test_the_gpu_script_refuses_a_bad_setting_before_it_renders_anything(tmp_path, env, says):
    script = Path(__file__).resolve().parents[2] / "vision" / "build" / "gpu_classifier.sh"
    r = subprocess.run(["bash", str(script), str(tmp_path / "out")], capture_output=True, text=True,
                       env={**os.environ, **env})
    assert r.returncode == 2 and says in r.stderr and not (tmp_path / "out").exists()


def test_a_runs_results_read_without_polars_as_ultralytics_stores_them(tmp_path):
    # the lent GPU machine has no polars (its wheel is too large to carry there): the checkpoint's
    # results are read by the csv module, column by column
    from vision.build.train import read_results_csv
    csv = tmp_path / "results.csv"
    assert read_results_csv(csv) == {}
    csv.write_text("epoch,time,train/loss,metrics/accuracy_top1\n1,4.36,3.61,0.3476\n2,8.1,2.9,0.51\n")
    assert read_results_csv(csv) == {"epoch": [1.0, 2.0], "time": [4.36, 8.1], "train/loss": [3.61, 2.9],
                                     "metrics/accuracy_top1": [0.3476, 0.51]}


def test_readying_the_device_refuses_before_it_moves_anything(tmp_path):
    # pack moves the locators out of the checkout; it must check the shared assets first
    root = Path(__file__).resolve().parents[2]
    script = root / "vision" / "build" / "device_prep.sh"
    before = sorted(p.name for p in (root / "models" / "oblique").iterdir())
    r = subprocess.run(["bash", str(script)], capture_output=True, text=True)
    assert r.returncode == 2 and "usage" in r.stderr
    r = subprocess.run(["bash", str(script), "pack"], capture_output=True, text=True,
                       env={**os.environ, "SHARED": str(tmp_path / "no-shared")})
    assert r.returncode == 2 and "no-shared/tiles is missing" in r.stderr
    assert sorted(p.name for p in (root / "models" / "oblique").iterdir()) == before
    assert not (root / ".device-stash").exists()
