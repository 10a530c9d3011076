"""The refiner's training samples: the locator's misplaced candidates, each with its tile's true box."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision.refine import edge_deltas, moved
from vision.build.refine_train import HARD, PER_SCENE_GOOD, PER_SCENE_HARD, PER_SCENE_SHIFTED, iou_after, iou_matrix, \
    pairs, shifted, truth_files

TILES = np.array([[100, 100, 140, 160], [140, 100, 180, 160], [300, 50, 340, 110]], float)


def test_a_misplaced_candidate_is_paired_with_the_tile_it_overlaps_most():
    low = np.array([[140, 125, 180, 185]], float)                  # the second tile, 25 px too low
    out = pairs(low, TILES, random.Random(0))
    assert len(out) == 1 + min(PER_SCENE_SHIFTED, len(TILES))
    box, tile = out[0]
    assert box.tolist() == low[0].tolist() and tile.tolist() == TILES[1].tolist()
    assert moved(box, edge_deltas(box, tile)) == pytest.approx(tuple(tile))


def test_candidates_far_from_every_tile_teach_nothing():
    far = np.array([[500, 500, 540, 560]], float)
    out = pairs(far, TILES, random.Random(0))
    assert all(iou_matrix(b[None], t[None])[0, 0] > 0 for b, t in out)    # only the shifted true boxes
    assert len(out) == len(TILES)


def test_a_scene_gives_at_most_its_share_of_misplaced_and_well_placed_boxes():
    rng = np.random.default_rng(1)
    many = np.concatenate([TILES[1] + rng.uniform(-20, 20, (200, 4)), TILES[2] + rng.uniform(-2, 2, (50, 4))])
    out = pairs(many, TILES, random.Random(0))
    ious = [iou_matrix(b[None], t[None])[0, 0] for b, t in out[:-len(TILES)]]
    assert sum(HARD[0] <= v < HARD[1] for v in ious) <= PER_SCENE_HARD
    assert sum(v >= HARD[1] for v in ious) <= PER_SCENE_GOOD


def test_a_shifted_true_box_moves_mostly_up_or_down():
    rng = random.Random(3)
    tile = (100.0, 100.0, 140.0, 160.0)
    for _ in range(200):
        x1, y1, x2, y2 = shifted(tile, rng)
        assert abs((x1 + x2) / 2 - 120) <= 0.15 * 40 + 1e-9 and abs((y1 + y2) / 2 - 130) <= 0.45 * 60 + 1e-9
        assert 0.8 * 40 - 1e-9 <= x2 - x1 <= 1.2 * 40 + 1e-9 and 0.75 * 60 - 1e-9 <= y2 - y1 <= 1.25 * 60 + 1e-9


def test_the_iou_after_refinement_is_one_when_the_refiner_is_right():
    target = np.array([[0.1, -0.2, 0.0, 0.3], [0.0, 0.0, 0.0, 0.0]])
    assert iou_after(target, target) == pytest.approx([1.0, 1.0])
    assert iou_after(np.zeros((1, 4)), np.array([[0.0, 0.5, 0.0, 0.5]]))[0] == pytest.approx(0.5 / 1.5)


def test_an_oblique_refiner_learns_oblique_rim_and_a_quarter_of_the_overhead_scenes(tmp_path):
    folder = tmp_path / "truth" / "train"
    folder.mkdir(parents=True)
    names = [f"s{seed:07d}" for seed in (*range(8), 3_000_000, 3_000_001, 4_000_000)]
    for n in names:
        (folder / f"{n}.json").write_text("{}")
    got = [f.stem for f in truth_files(tmp_path)]
    assert got == ["s3000000", "s3000001", "s4000000", "s0000000", "s0000004"]
    assert [f.stem for f in truth_files(tmp_path, "overhead")] == [f"s{seed:07d}" for seed in range(8)]


def test_fitting_writes_an_onnx_refiner_the_run_time_loads(tmp_path):
    pytest.importorskip("torch", reason="training needs the train extra (torch)")
    from vision.refine import Refiner
    from vision.build.refine_train import Samples, fit

    rng = np.random.default_rng(0)
    samples = Samples(rng.integers(0, 255, (64, 64, 64, 3), dtype=np.uint8), rng.uniform(-0.2, 0.2, (64, 4)).astype(
        np.float32), rng.uniform(0.3, 0.9, 64).astype(np.float32), np.array([f"s{k % 8}" for k in range(64)]))
    lines = []
    out = fit(samples, tmp_path / "r.onnx", epochs=1, batch=16, log=lines.append)
    assert out.is_file() and lines and "IoU >= 0.5" in lines[0]
    boxes = Refiner(out).refine(np.zeros((200, 200, 3), np.uint8), [(50, 50, 90, 110)])
    assert len(boxes) == 1 and len(boxes[0]) == 4


def test_samples_from_scenes_hold_cuts_edge_moves_and_their_scene():
    from pathlib import Path

    from vision.detect import Detector
    from vision.refine import REF_SIZE
    from vision.build.refine_train import collect

    data = Path(__file__).resolve().parent / "data"
    scenes = sorted((data / "truth" / "oblique").glob("*.json"))[:2]
    samples = collect(Detector.for_view("oblique", refine=False), data, scenes)
    n = len(samples.cuts)
    assert 2 * PER_SCENE_SHIFTED <= n <= 2 * (PER_SCENE_HARD + PER_SCENE_GOOD + PER_SCENE_SHIFTED)
    assert samples.cuts.shape == (n, REF_SIZE, REF_SIZE, 3) and samples.deltas.shape == (n, 4)
    assert np.abs(samples.deltas).max() <= 1.0 and set(samples.scene) == {p.stem for p in scenes}
    # the locator's candidates are misplaced ones mostly: IoU 0.25-0.75 with their tile
    assert np.mean((samples.iou >= HARD[0]) & (samples.iou < HARD[1])) > 0.4


def test_no_scenes_no_samples(tmp_path):
    from vision.detect import Detector
    from vision.build.refine_train import collect

    with pytest.raises(ValueError, match="no training scenes"):
        collect(Detector.for_view("oblique", refine=False), tmp_path, [])
