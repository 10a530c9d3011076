"""The renderer's truth must be the truth: boxes on tiles, classes and rotations that match the pixels."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.classes import BACK, CLASSES, REDS
from vision.synth.crops import upright_crop
from vision.synth.dataset import write_dataset
from vision.synth.scene import render_scene
from vision.synth.tile import face_image


def _scene(art, seed):
    return render_scene(np.random.default_rng(seed), art)


def test_a_scene_is_fixed_by_its_seed(art):
    a, b, c = _scene(art, 7), _scene(art, 7), _scene(art, 8)
    assert np.array_equal(a.image, b.image) and a.tiles == b.tiles
    assert not np.array_equal(a.image, c.image)


def test_every_tile_is_in_the_frame_with_a_class_and_a_quarter_turn(art):
    seen = set()
    for seed in range(6):
        s = _scene(art, seed)
        h, w = s.image.shape[:2]
        assert len(s.tiles) >= 5
        for t in s.tiles:
            x1, y1, x2, y2 = t.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            assert t.cls in CLASSES and t.rotation in (0, 90, 180, 270)
            seen.add(t.cls)
    assert BACK in seen and seen & set(REDS), "scenes show backs and red fives"


def _ncc(a: np.ndarray, b: np.ndarray) -> float:
    a = a.astype(np.float32).ravel() - a.mean()
    b = b.astype(np.float32).ravel() - b.mean()
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b) + 1e-6))


def test_each_labelled_face_looks_most_like_its_own_class(art):
    # Cut every face-up tile out upright by its truth and compare it with clean faces of
    # every class drawn in the scene's style: its own class must match best. A wrong class,
    # a wrong corner order or a rotation off by a quarter turn would fail this.
    hits = total = 0
    rotated_hits = 0
    for seed in range(3):
        s = _scene(art, seed)
        rng = np.random.default_rng(0)
        templates = {c: (face_image(art, c, s.style, 48, rng)[..., :3] * 255)[:64] for c in CLASSES if c != BACK}
        templates = {c: cv2.resize(t, (24, 32)) for c, t in templates.items()}
        for t in s.tiles:
            if t.cls == BACK:
                continue
            crop = cv2.resize(upright_crop(s.image, t.face), (24, 32)).astype(np.float32)
            best = max(templates, key=lambda c: _ncc(crop, templates[c]))
            hits += best == t.cls
            turned = cv2.resize(cv2.rotate(crop, cv2.ROTATE_180), (24, 32))
            rotated_hits += max(templates, key=lambda c: _ncc(turned, templates[c])) == t.cls
            total += 1
    assert total >= 30
    assert hits / total >= 0.9, f"only {hits}/{total} faces match their label"
    assert rotated_hits < hits * 0.6, "upside-down crops should not match as well"


def test_dataset_writes_yolo_rows_for_every_tile_and_resumes(art, tmp_path):
    n = write_dataset(tmp_path, 3, seed=100, classes="full", crops=True, art=art)
    assert n == 3
    for stem in ("s0000100", "s0000101", "s0000102"):
        truth = json.loads((tmp_path / "truth" / "train" / f"{stem}.json").read_text())
        rows = (tmp_path / "labels" / "train" / f"{stem}.txt").read_text().split("\n")[:-1]
        assert len(rows) == len(truth["tiles"])
        for row, tile in zip(rows, truth["tiles"]):
            k, *xywh = row.split()
            assert CLASSES[int(k)] == tile["tile"]
            assert all(0 <= float(v) <= 1 for v in xywh)
        assert cv2.imread(str(tmp_path / truth["image"])) is not None
    cuts = [p for p in (tmp_path / "cls" / "train").rglob("*.png") if p.parent.name != "none"]
    assert len(cuts) == sum(len(json.loads(p.read_text())["tiles"])
                            for p in (tmp_path / "truth" / "train").glob("*.json"))
    assert list((tmp_path / "cls" / "train" / "none").glob("*.png")), "no refusal cuts written"
    assert write_dataset(tmp_path, 3, seed=100, classes="full", art=art) == 0     # resumed: nothing new
    assert "names:\n  0: '1m'" in (tmp_path / "data.yaml").read_text()


def _cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "vision", *args], capture_output=True, text=True, env=env)


def test_cli_rejects_a_bad_size_with_one_line():
    r = _cli("synth", "/tmp/x", "--size", "big")
    assert r.returncode == 2 and "size must be WxH" in r.stderr and "Traceback" not in r.stderr


def test_cli_refuses_to_write_scenes_into_a_file(tmp_path):
    out = tmp_path / "scenes.jpg"
    out.write_bytes(b"a photo the user keeps")
    r = _cli("synth", str(out), "--scenes", "1")
    assert r.returncode == 2 and "a file, not a folder" in r.stderr and "Traceback" not in r.stderr
    assert out.read_bytes() == b"a photo the user keeps"


def test_cli_without_art_says_where_it_looked(tmp_path):
    import os
    env = dict(os.environ, TOUTENKOU_TILE_ART=str(tmp_path / "nowhere"))
    r = _cli("synth", str(tmp_path / "out"), "--scenes", "1", env=env)
    assert r.returncode == 2 and "no tile art at" in r.stderr and "Traceback" not in r.stderr


# --- the oblique view (a camera beside the table, as in the real photo) ---

def test_seeds_from_the_oblique_range_are_seen_from_one_side():
    from vision.synth.dataset import OBLIQUE_SEED, view_for
    assert view_for(0) == view_for(1_100_000) == view_for(2_000_000) == "overhead"
    assert view_for(OBLIQUE_SEED) == view_for(OBLIQUE_SEED + 600_000) == "oblique"


def test_an_unknown_view_is_refused(art):
    with pytest.raises(ValueError, match="view must be"):
        render_scene(np.random.default_rng(0), art, view="fisheye")


def test_oblique_faces_are_squeezed_and_labelled_in_the_frame(art):
    # a slanted camera squeezes depth: an upright face (26 x 35 mm) looks about as wide as tall or wider
    ratios, seen = [], set()
    for seed in range(3_000_000, 3_000_004):
        s = render_scene(np.random.default_rng(seed), art, view="oblique")
        h, w = s.image.shape[:2]
        assert len(s.tiles) >= 5
        for t in s.tiles:
            x1, y1, x2, y2 = t.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h and t.cls in CLASSES
            seen.add(t.rotation)
            if t.rotation == 0:
                f = np.float32(t.face)
                ratios.append(np.linalg.norm(f[3] - f[0]) / np.linalg.norm(f[1] - f[0]))
    assert seen == {0, 90, 180, 270}
    assert np.median(ratios) < 1.1, f"faces still stand tall ({np.median(ratios):.2f})"


def test_overhead_scenes_are_unchanged_by_the_oblique_view(art):
    # the held-out and test seeds must render what they always did
    a = render_scene(np.random.default_rng(1_100_000), art)
    b = render_scene(np.random.default_rng(1_100_000), art, view="overhead")
    assert np.array_equal(a.image, b.image) and a.tiles == b.tiles


def test_a_tile_behind_another_is_boxed_around_what_is_seen_of_it():
    from vision.synth.oblique import visible_boxes
    ids = np.zeros((100, 100), np.int32)
    ids[10:50, 20:40] = 1          # far tile, its lower part hidden by the near one
    ids[30:70, 20:40] = 2          # near tile, drawn last
    ids[80:82, 80:82] = 3          # a tile almost wholly hidden
    outline = lambda x1, y1, x2, y2: np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    m = np.eye(3, dtype=np.float64)
    boxes = visible_boxes(ids, m, 100, 100, [outline(20, 10, 40, 50), outline(20, 30, 40, 70),
                                             outline(80, 80, 90, 90)])
    assert boxes[0] == (20.0, 10.0, 40.0, 30.0)
    assert boxes[1] == (20.0, 30.0, 40.0, 70.0)
    assert boxes[2] is None


def test_tight_boxes_leave_out_a_far_tiles_sides_peeking_beside_a_nearer_one():
    """A person boxing a photo stops a far tile's box where the nearer tile starts; the pixels of the
    far tile's side seen beside a slightly narrower nearer tile would stretch it half way down."""
    from vision.synth.oblique import SLIVER, visible_boxes
    ids = np.zeros((100, 100), np.int32)
    ids[10:50, 20:40] = 1          # far tile
    ids[30:70, 22:38] = 2          # near tile, drawn last, 2 px narrower each side: the far tile peeks out
    outline = lambda x1, y1, x2, y2: np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    outlines = [outline(20, 10, 40, 50), outline(22, 30, 38, 70)]
    m = np.eye(3, dtype=np.float64)
    assert visible_boxes(ids, m, 100, 100, outlines)[0] == (20.0, 10.0, 40.0, 50.0)
    tight = visible_boxes(ids, m, 100, 100, outlines, sliver=SLIVER)
    assert tight[0] == (20.0, 10.0, 40.0, 30.0)
    assert tight[1] == (22.0, 30.0, 38.0, 70.0)     # a tile seen whole keeps its box


def test_tight_boxes_change_only_the_boxes_of_an_oblique_scene(art):
    plain = render_scene(np.random.default_rng(3_600_000), art, view="oblique")
    tight = render_scene(np.random.default_rng(3_600_000), art, view="oblique", tight_boxes=True)
    assert np.array_equal(plain.image, tight.image)
    assert [(t.cls, t.face) for t in plain.tiles] == [(t.cls, t.face) for t in tight.tiles]
    heights = [(a.box[3] - a.box[1], b.box[3] - b.box[1]) for a, b in zip(plain.tiles, tight.tiles)]
    assert all(b <= a + 1e-6 for a, b in heights)
    assert sum(b < 0.8 * a for a, b in heights) >= 5          # far tiles in columns stop at the nearer one


def test_the_stored_fixture_scenes_are_what_their_seeds_render(art):
    # the fixtures' truth was written from these seeds: a renderer change that moves them shows here
    # (and so does one that would make the training scenes of the shipped models unrebuildable)
    from pathlib import Path
    from vision.synth.dataset import scene_for
    data = Path(__file__).parent / "data" / "truth"
    for f in [*sorted((data / "val").glob("*.json"))[:2], *sorted((data / "oblique").glob("*.json"))[:2]]:
        seed = int(f.stem.split("-")[-1].lstrip("s"))
        truth = json.loads(f.read_text())["tiles"]
        assert [a.to_dict() for a in scene_for(seed, art, (960, 720)).tiles] == truth, f.name


def test_a_rim_open_to_tiles_is_drawn_but_left_free_for_groups():
    # at a real table melds and the gari pile are pushed onto the rim: an open rim is drawn the same,
    # but no longer marked as taken, so groups may land on it
    from vision.synth.oblique import rim
    drawn = {}
    for open_to_tiles in (False, True):
        plane = np.full((200, 300, 3), 0.5, np.float32)
        occupied = np.zeros((200, 300), np.uint8)
        rim(np.random.default_rng(7), plane, occupied, 20.0, open_to_tiles=open_to_tiles)
        drawn[open_to_tiles] = plane
        changed = np.abs(plane - 0.5).max(axis=2) > 0.01
        assert changed.any(), "no rim drawn"
        assert occupied[changed].all() != open_to_tiles
        assert (occupied.any()) != open_to_tiles
    assert np.array_equal(drawn[False], drawn[True])


def test_only_scenes_from_the_rim_seeds_put_tiles_on_the_rim(art):
    # the scenes rendered before the rim opened (training data, stored test sets) must not move
    from vision.synth.dataset import RIM_SEED, rim_tiles_for, scene_for
    assert rim_tiles_for(RIM_SEED - 1) == rim_tiles_for(3_600_000) == 0.0
    assert 0 < rim_tiles_for(RIM_SEED) == rim_tiles_for(RIM_SEED + 600_000) < 1
    # a rim seed renders the same scene twice (the open-rim draw comes from the seed too)
    a, b = scene_for(RIM_SEED, art, (480, 360)), scene_for(RIM_SEED, art, (480, 360))
    assert np.array_equal(a.image, b.image) and a.tiles == b.tiles


def test_many_designs_recolour_the_inks_and_keep_red_fives_red(art):
    """A scene drawn in one of many designs has its own inks (發 black in one, the winds blue in
    another), but a red five stays red in every one of them: red is what makes it red."""
    from vision.synth.tile import random_style

    def share_red(face):
        bgr, a = face[..., :3], face[..., 3] > 0.5
        red = (bgr[..., 2] > bgr[..., 1] + 0.25) & (bgr[..., 2] > bgr[..., 0] + 0.25)
        return float((red & a).sum()) / float(a.sum())

    styles = [random_style(np.random.default_rng(s), designs=True) for s in range(24)]
    assert len({st.inks for st in styles}) >= 8 and any(st.engraved for st in styles)
    for k, st in enumerate(styles):
        rng = np.random.default_rng(k)
        for red in REDS:
            assert share_red(face_image(art, red, st, 60, rng)) > share_red(face_image(art, "5" + red[1], st, 60, rng))
    hatsu_black = next(st for st in styles if st.inks[1] == (0.08, 0.08, 0.08))
    face = face_image(art, "6z", hatsu_black, 60, np.random.default_rng(0))
    ink = face[..., :3][(face[..., :3].max(axis=2) < 0.5)]
    assert len(ink) and (ink[:, 1] - ink[:, 2]).mean() < 0.1       # no green left in 發's strokes


def test_the_share_of_designs_leaves_other_scenes_as_they_were(art):
    from vision.synth.dataset import designs_for, scene_for
    assert not any(designs_for(s, 0.0) for s in range(50))
    assert all(designs_for(s, 1.0) for s in range(50))
    plain = next(s for s in range(50) if not designs_for(s, 0.5))
    a, b = scene_for(plain, art, (320, 240)), scene_for(plain, art, (320, 240), designs=0.5)
    assert np.array_equal(a.image, b.image)
    drawn = next(s for s in range(50) if designs_for(s, 0.5))
    assert scene_for(drawn, art, (320, 240), designs=0.5).style.inks is not None


def test_a_table_can_be_drawn_in_a_chosen_design(art):
    """The same deal, pose and light in two designs that differ only in the back's colour: the frames
    differ only where the tiles lie, and the red-backed table is redder there (bench_teach draws a
    design's teach rows and its hands this way)."""
    from dataclasses import replace

    from calibration.markers import default_layout
    from vision.synth.table import Laid, render_laid
    from vision.synth.tile import random_style

    layout = default_layout()
    cx, cy = np.array(layout.table_mm) / 2
    backs = [Laid(BACK, cx + dx, cy, 0.0) for dx in (-60.0, -30.0, 0.0, 30.0, 60.0)]
    design = random_style(np.random.default_rng(5), designs=True)
    red, blue = replace(design, back_colour=(20, 20, 230)), replace(design, back_colour=(230, 20, 20))
    a, _ = render_laid(backs, np.random.default_rng(9), art, layout, style=red)
    b, _ = render_laid(backs, np.random.default_rng(9), art, layout, style=blue)
    changed = np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 40
    assert 0 < changed.mean() < 0.05                        # the five tiles, not the table

    def redness(frame: np.ndarray) -> float:
        return float((frame[..., 2].astype(int) - frame[..., 0].astype(int))[changed].mean())

    assert redness(a) > redness(b) + 50


def test_only_scenes_from_the_console_seeds_show_a_seat_console(art):
    # a photo from a seat shows the table's own rail, score display and stick tray below the hand;
    # scenes below the console seeds (every training and test set rendered before) do not move
    from vision.synth.dataset import CONSOLE_SEED, RIM_SEED, console_for, scene_for
    assert not console_for(RIM_SEED) and not console_for(CONSOLE_SEED - 1)
    assert console_for(CONSOLE_SEED) and console_for(CONSOLE_SEED + 600_000)
    assert scene_for(RIM_SEED, art, (480, 360)).console is None
    a, b = scene_for(CONSOLE_SEED, art, (480, 360)), scene_for(CONSOLE_SEED, art, (480, 360))
    assert np.array_equal(a.image, b.image) and a.tiles == b.tiles
    assert a.console is not None and a.console.shape == (480,)


def test_console_keys_and_compartments_only_from_their_own_seeds(art):
    """Real consoles have labelled keys beside the numbers and a tray of compartments; scenes from
    the details seeds draw them, on a generator of their own, so the same scene without them has the
    same tiles, and every console scene rendered before (training and test sets) stays as it was."""
    import vision.synth.scene as scene_module
    from vision.synth.dataset import (CONSOLE_SEED, DETAILS_SEED, console_details_for, rim_tiles_for, scene_for,
                                      view_for)
    assert console_details_for(DETAILS_SEED - 1) is None and console_details_for(CONSOLE_SEED + 600_000) is None
    assert console_details_for(DETAILS_SEED) is not None
    with_details = scene_for(DETAILS_SEED, art, (480, 360))
    plain = scene_module.render_scene(np.random.default_rng(DETAILS_SEED), art, (480, 360), view=view_for(DETAILS_SEED),
                                      rim_tiles=rim_tiles_for(DETAILS_SEED), console=True)
    assert with_details.tiles == plain.tiles and np.array_equal(with_details.console, plain.console)
    below = np.arange(360)[:, None] >= plain.console[None, :]
    changed = np.abs(with_details.image.astype(int) - plain.image.astype(int)).sum(axis=2) > 30
    assert changed[below].sum() > 50 and changed[~below].sum() == 0


def test_no_tile_is_labelled_under_the_console(art):
    """The console hides what lies below its top edge: every labelled box ends above it, and a tile
    mostly hidden is not labelled at all."""
    from vision.synth.dataset import CONSOLE_SEED, scene_for
    labelled = 0
    for seed in range(CONSOLE_SEED, CONSOLE_SEED + 6):
        scene = scene_for(seed, art, (640, 480))
        edge = scene.console
        for t in scene.tiles:
            x1, _, x2, y2 = t.box
            assert y2 <= edge[int(x1):int(np.ceil(x2))].min() + 1e-6, (seed, t)
        labelled += len(scene.tiles)
    assert labelled > 50


def test_cover_keeps_a_tile_mostly_seen_and_drops_one_mostly_hidden():
    from vision.synth.console import cover
    edge = np.full(100, 50.0)
    assert cover((10, 10, 20, 40), edge) == (10, 10, 20, 40)          # above the console
    assert cover((10, 20, 20, 60), edge) == (10, 20, 20, 50.0)        # 30 of 40 rows seen
    assert cover((10, 40, 20, 60), edge) is None                      # 10 of 20 rows seen


def test_console_scenes_give_the_classifier_cuts_of_no_tile_on_the_console(art):
    from vision.classifier import NONE
    from vision.synth.crops import _console_cuts
    from vision.synth.dataset import CONSOLE_SEED, scene_for
    scene = scene_for(CONSOLE_SEED + 1, art, (640, 480))
    boxes = [t.box for t in scene.tiles]
    cuts = _console_cuts(scene, boxes, np.random.default_rng(0), 4)
    assert len(cuts) == 4 and all(label == NONE and cut.shape == (64, 64, 3) for label, cut in cuts)


def test_real_faces_are_laid_only_on_the_kinds_real_tiles_hold(art):
    """A scene drawn with real faces shows, on a kind the fitting real tiles hold, one of their faces;
    a red five and a back (which they lack) stay the art, and spend no draw."""
    from dataclasses import replace

    from vision.synth.real_faces import bank
    from vision.synth.tile import random_style

    if not bank():
        pytest.skip("../shared/real-tiles/camerash is missing")
    style = random_style(np.random.default_rng(0))
    real = replace(style, real_faces=True)
    drawn = face_image(art, "1z", real, 60, np.random.default_rng(1))
    assert not np.allclose(drawn, face_image(art, "1z", style, 60, np.random.default_rng(1)), atol=0.05)
    options = [cv2.resize(f, (60, drawn.shape[0]), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
               for f in bank()["1z"]]
    assert min(float(np.abs(drawn[..., :3] - f).mean()) for f in options) < 0.01
    for cls in ("0p", BACK):
        a, b = np.random.default_rng(2), np.random.default_rng(2)
        assert np.array_equal(face_image(art, cls, real, 60, a), face_image(art, cls, style, 60, b))
        assert a.random() == b.random()


def test_the_real_faces_are_the_fitting_two_thirds_only():
    from vision.build.real_tiles import camerash, held_out
    from vision.synth.real_faces import bank

    every = camerash()
    if not every:
        pytest.skip("../shared/real-tiles/camerash is missing")
    fitting = {}
    for name, kind, _ in every:
        if not held_out(name):
            fitting[kind] = fitting.get(kind, 0) + 1
    assert {k: len(v) for k, v in bank().items()} == fitting


def test_the_share_of_real_faces_leaves_other_scenes_as_they_were(art):
    from vision.synth.dataset import real_faces_for, scene_for
    assert not any(real_faces_for(s, 0.0) for s in range(50))
    assert all(real_faces_for(s, 1.0) for s in range(50))
    plain = next(s for s in range(50) if not real_faces_for(s, 0.5))
    a, b = scene_for(plain, art, (320, 240)), scene_for(plain, art, (320, 240), real_faces=0.5)
    assert np.array_equal(a.image, b.image) and not b.style.real_faces
    drawn = next(s for s in range(50) if real_faces_for(s, 0.5))
    assert scene_for(drawn, art, (320, 240), real_faces=0.5).style.real_faces


def test_a_capture_keeps_the_scene_size_and_softens_its_detail():
    from vision.synth.capture import captured
    rng = np.random.default_rng(0)
    sharp = (np.indices((120, 160)).sum(axis=0) % 2 * 255).astype(np.uint8)     # a one-pixel checkerboard
    image = np.dstack([sharp] * 3)
    taken = captured(image, rng)
    assert taken.shape == image.shape and taken.dtype == np.uint8
    # a camera smaller than the scene, blur and JPEG cannot keep detail finer than a pixel
    assert np.abs(np.diff(taken.astype(int), axis=1)).mean() < 0.5 * np.abs(np.diff(image.astype(int), axis=1)).mean()


def test_only_the_captured_share_of_scenes_gives_cuts_through_a_camera(art, tmp_path):
    from vision.synth.dataset import capture_for
    assert not any(capture_for(s, 0.0) for s in range(50))
    assert all(capture_for(s, 1.0) for s in range(50))
    plain = next(s for s in range(50) if not capture_for(s, 0.5))
    drawn = next(s for s in range(50) if capture_for(s, 0.5))

    def cuts(folder, seed, share):
        write_dataset(folder, 1, seed=seed, crops=True, art=art, capture=share, size=(320, 240))
        return {p.relative_to(folder): cv2.imread(str(p)) for p in sorted((folder / "cls").rglob("*.png"))}

    for seed, changed in ((plain, False), (drawn, True)):
        a, b = cuts(tmp_path / f"a{seed}", seed, 0.0), cuts(tmp_path / f"b{seed}", seed, 0.5)
        assert a.keys() == b.keys()             # the same cuts, labelled alike
        assert any(not np.array_equal(a[k], b[k]) for k in a) == changed
        # the locator's image is the scene as rendered either way
        image = f"images/train/s{seed:07d}.jpg"
        assert np.array_equal(cv2.imread(str(tmp_path / f"a{seed}" / image)),
                              cv2.imread(str(tmp_path / f"b{seed}" / image)))


def test_a_seat_line_is_a_won_hand_pushed_together():
    """The winner lays the hand out for the photo: the concealed tiles touching (at most ``SEAT_GAP``
    apart, at least seven of them: two called melds leave 13 - 6), the winning tile, then any called
    melds to the right; fourteen tiles or more, each further right than the last but a kakan's
    stacked one."""
    from vision.synth.layouts import SEAT_GAP, seat_line
    for seed in range(20):
        line = seat_line(np.random.default_rng(seed))
        assert len(line) >= 14, seed
        steps = np.diff([p.x for p in line[:7]])
        assert np.allclose(steps, steps[0]) and 1.0 <= steps[0] <= 1.0 + SEAT_GAP, seed
        row = [p.x for p in line if p.y >= 0]
        assert row == sorted(row) and len(set(row)) == len(row), seed


def _longest_row(boxes) -> int:
    """The most boxes in one chain side by side: each the next one right of the last, overlapping it in
    height by half, at most a tenth of a tile's width of felt between them."""
    def beside(a, b):
        return (b[0] >= a[0] + 0.5 * (a[2] - a[0]) and min(a[3], b[3]) - max(a[1], b[1]) > 0.5 * (a[3] - a[1])
                and b[0] - a[2] <= 0.1 * (a[2] - a[0]))
    best = 0
    for first in boxes:
        n, at = 1, first
        while (after := [b for b in boxes if beside(at, b)]):
            at, n = min(after, key=lambda b: b[0]), n + 1
        best = max(best, n)
    return best


def test_only_scenes_from_the_seat_seeds_show_a_hand_across_the_picture(art):
    """A photo from the winner's seat: a row of ten or more tiles side by side across the picture,
    touching, each a twentieth of its width or more; no scene below the seat seeds is one, so every
    set rendered before stays as it was."""
    from vision.synth.dataset import DETAILS_SEED, SEAT_SEED, scene_for, seat_for
    assert not seat_for(DETAILS_SEED) and not seat_for(SEAT_SEED - 1)
    assert seat_for(SEAT_SEED) and seat_for(SEAT_SEED + 600_000)
    rows = []
    for seed in range(SEAT_SEED, SEAT_SEED + 6):
        scene = scene_for(seed, art, (640, 480))
        for t in scene.tiles:
            x1, y1, x2, y2 = t.box
            assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= 480, (seed, t)
        rows.append(_longest_row([t.box for t in scene.tiles if t.box[2] - t.box[0] >= 640 / 20]))
    assert sum(r >= 10 for r in rows) >= 5, rows
    # an oblique scene from the details seeds holds no such row of large tiles
    assert _longest_row([t.box for t in scene_for(DETAILS_SEED, art, (640, 480)).tiles
                         if t.box[2] - t.box[0] >= 640 / 20]) < 10


def _face_depth(scene) -> float:
    """The median upright face's depth over its width in the picture: how squeezed the camera sees faces."""
    ratios = [np.linalg.norm(np.float32(t.face)[3] - np.float32(t.face)[0])
              / np.linalg.norm(np.float32(t.face)[1] - np.float32(t.face)[0]) for t in scene.tiles if t.rotation == 0]
    return float(np.median(ratios))


def test_low_seats_are_only_photos_from_the_seat_and_leave_the_others_as_they_were(art):
    from vision.synth.dataset import DETAILS_SEED, SEAT_SEED, low_seat_for, scene_for
    assert low_seat_for(SEAT_SEED, 0.0) is None and low_seat_for(DETAILS_SEED, 1.0) is None
    assert all(low_seat_for(s, 1.0) is not None for s in range(SEAT_SEED, SEAT_SEED + 20))
    plain = next(s for s in range(SEAT_SEED, SEAT_SEED + 50) if low_seat_for(s, 0.5) is None)
    a, b = scene_for(plain, art, (320, 240)), scene_for(plain, art, (320, 240), low_seats=0.5)
    assert np.array_equal(a.image, b.image)
    other = scene_for(DETAILS_SEED, art, (320, 240))
    assert np.array_equal(other.image, scene_for(DETAILS_SEED, art, (320, 240), low_seats=1.0).image)


def test_a_low_seat_sees_the_hands_faces_more_squeezed_and_their_sides_ivory(art):
    """The same photos from the seat taken lower over the hand: the faces' depth shrinks in the picture,
    and the tiles' sides are ivory for most of their depth, as real sets' thin back layers show."""
    from vision.synth.dataset import SEAT_SEED, scene_for
    from vision.synth.scene import LOW_SEAT_IVORY
    high, low = [], []
    for seed in range(SEAT_SEED, SEAT_SEED + 6):
        high.append(_face_depth(scene_for(seed, art, (640, 480))))
        scene = scene_for(seed, art, (640, 480), low_seats=1.0)
        low.append(_face_depth(scene))
        assert LOW_SEAT_IVORY[0] <= scene.style.ivory <= LOW_SEAT_IVORY[1]
    assert np.median(low) < 0.8 * np.median(high), (low, high)


def test_a_tiles_side_is_ivory_for_its_styles_share_then_the_back_layer():
    from dataclasses import replace

    from vision.synth.tile import TileStyle, draw_tile
    style = TileStyle("png-regular", 0, (1.0, 1.0, 1.0), (235, 245, 250), (20, 120, 245), 1.0)
    face = np.zeros((80, 60, 4), np.float32)                        # a clear face: only the body shows
    quad = np.float32([[20, 10], [80, 10], [80, 90], [20, 90]])
    body = np.float32([0, 60])                                       # the side reaches 60 px down the picture

    def back_rows(ivory: float) -> int:
        canvas = np.zeros((200, 100, 3), np.float64)
        draw_tile(canvas, face, quad, body, replace(style, ivory=ivory), face_down=False)
        side = canvas[91:150, 50]
        return int(np.sum(np.abs(side - np.array(style.back_colour) / 255 * 0.85).max(axis=1) < 0.05))

    assert back_rows(0.55) > 20 and back_rows(0.85) < 12
