"""python -m calibration: markers, fit, show, lens; bad input exits 2 in one line."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.synth import SIZE, felt_grid, pose_homography, render, table_error_mm, topdown
from calibration.__main__ import main
from calibration.lens import find_board
from calibration.markers import default_layout
from calibration.store import load
from calibration.tracker import felt_corners

LAYOUT = default_layout()
POSE = pose_homography(LAYOUT, tilt=np.deg2rad([3, -2]), turn=np.deg2rad(2))


@pytest.fixture(scope="module")
def frame_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("frames") / "frame.jpg"
    cv2.imwrite(str(path), render(topdown(LAYOUT), POSE, np.random.default_rng(50)), [cv2.IMWRITE_JPEG_QUALITY, 92])
    return path


@pytest.fixture
def blank_file(tmp_path) -> Path:
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((SIZE[1], SIZE[0], 3), 70, np.uint8))
    return path


def run(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def test_markers_pdf_and_png_are_a4_at_true_size(tmp_path, capsys):
    rc, out, _ = run(capsys, "markers", tmp_path / "m.pdf")
    assert rc == 0 and "210 x 297 mm" in out
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", (tmp_path / "m.pdf").read_bytes()).groups()
    assert [round(float(v) / 72 * 25.4, 2) for v in box] == [210.0, 297.0]
    rc, out, _ = run(capsys, "markers", tmp_path / "m.png", "--dpi", 150)
    data = (tmp_path / "m.png").read_bytes()
    ppm = struct.unpack(">I", data[data.index(b"pHYs") + 4:][:4])[0]
    page = cv2.imread(str(tmp_path / "m.png"))
    assert rc == 0 and ppm == round(150 / 0.0254)
    assert page.shape[1] / 150 * 25.4 == pytest.approx(210, abs=0.2)
    assert page.shape[0] / 150 * 25.4 == pytest.approx(297, abs=0.2)


def test_markers_board_prints_the_lens_board(tmp_path, capsys):
    rc, out, _ = run(capsys, "markers", tmp_path / "b.png", "--board", "--dpi", 150)
    assert rc == 0 and "lens board" in out
    assert find_board(cv2.imread(str(tmp_path / "b.png"))) is not None


def test_fit_writes_the_table_file_and_an_overlay(tmp_path, capsys, frame_file):
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t1", "--debug", tmp_path / "dbg")
    assert rc == 0, err
    assert "fitted from 9 markers (ids 0 1 2 3 4 5 6 7 8)" in out and "white balance gains" in out
    table = load("t1", tmp_path)
    assert table.fit.source == "markers" and table.fit.image_size == SIZE
    assert table_error_mm(POSE, table.fit.H, felt_grid(LAYOUT)).max() < 1.0
    assert table.white_balance is not None and table.camera["resolution"] == [1920, 1080]
    overlay = cv2.imread(str(tmp_path / "t1.overlay.jpg"))
    assert overlay.shape == (SIZE[1], SIZE[0], 3)
    assert "wrote overlay" in out
    names = sorted(p.name for p in (tmp_path / "dbg").iterdir())
    assert names == ["01-detected.png", "02-white-balanced.png", "03-rectified.png", "04-overlay.png"]
    # A second fit from the same view: the camera did not move.
    rc, out, _ = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t1", "--overlay", tmp_path / "o.png")
    assert rc == 0 and re.search(r"camera moved 0\.\d mm", out) and (tmp_path / "o.png").exists()


def test_fit_without_markers_keeps_the_stored_fit(tmp_path, capsys, frame_file, blank_file):
    assert run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t")[0] == 0
    before = load("t", tmp_path).fit
    rc, out, _ = run(capsys, "--dir", tmp_path, "fit", blank_file, "--table", "t")
    assert rc == 0 and "no fresh fit" in out and "kept the stored one" in out
    assert np.array_equal(load("t", tmp_path).fit.H, before.H)


def test_fit_with_tapped_corners(tmp_path, capsys, blank_file):
    taps = cv2.perspectiveTransform(felt_corners(LAYOUT).reshape(-1, 1, 2), POSE).reshape(-1, 2)
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", blank_file, "--table", "t",
                       "--corners", *[f"{x:.1f},{y:.1f}" for x, y in taps])
    assert rc == 0, err
    assert "four tapped corners" in out
    fit = load("t", tmp_path).fit
    assert fit.source == "tapped" and table_error_mm(POSE, fit.H, felt_grid(LAYOUT)).max() < 1.0


@pytest.mark.parametrize("make, message", [
    (lambda d: d / "none.jpg", "no such file"),
    (lambda d: d, "a folder, not an image file"),
    (lambda d: (d / "notes.jpg").write_text("not an image") and d / "notes.jpg", "not an image OpenCV can read"),
])
def test_fit_on_a_non_image_exits_2_in_one_line(tmp_path, capsys, make, message):
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", make(tmp_path), "--table", "t")
    assert rc == 2 and message in err and err.count("\n") == 1 and out == ""


def test_fit_without_markers_or_stored_fit_exits_2(tmp_path, capsys, blank_file):
    rc, _, err = run(capsys, "--dir", tmp_path, "fit", blank_file, "--table", "t")
    assert rc == 2 and err.count("\n") == 1
    assert "0 of the table's markers found" in err and "--corners X,Y" in err
    assert not (tmp_path / "t.json").exists()


def test_bad_arguments_exit_2(tmp_path, capsys, blank_file):
    with pytest.raises(SystemExit) as e:                                             # no --table
        run(capsys, "fit", blank_file)
    assert e.value.code == 2 and capsys.readouterr().err.count("\n") == 1
    rc, _, err = run(capsys, "--dir", tmp_path, "fit", blank_file, "--table", "t", "--corners", "1,2", "3", "4,5", "6,7")
    assert rc == 2 and "'3' is not X,Y" in err
    rc, _, err = run(capsys, "markers", tmp_path / "m.svg")
    assert rc == 2 and ".pdf or a .png" in err
    rc, _, err = run(capsys, "--dir", tmp_path, "show", "--table", "nope")
    assert rc == 2 and "no table file" in err
    rc, out, err = run(capsys, "--dir", blank_file, "show")                          # a file as the folder
    assert rc == 2 and "a file, not a folder of table files" in err and out == ""


def test_fit_refuses_outputs_it_cannot_write_before_saving_anything(tmp_path, capsys, frame_file, blank_file):
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t", "--overlay", tmp_path / "o.txt")
    assert rc == 2 and "--overlay" in err and ".jpg or .png" in err and err.count("\n") == 1 and out == ""
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t", "--debug", blank_file)
    assert rc == 2 and "--debug" in err and "a file, not a folder" in err and err.count("\n") == 1 and out == ""
    assert not (tmp_path / "t.json").exists()


def test_show_lists_and_prints_tables(tmp_path, capsys, frame_file):
    run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "parlour")
    rc, out, _ = run(capsys, "--dir", tmp_path, "show")
    assert rc == 0 and "1 table(s)" in out and "parlour: fit markers" in out
    rc, out, _ = run(capsys, "--dir", tmp_path, "show", "--table", "parlour")
    assert rc == 0 and "zone east.hand" in out and "zone dead_wall" in out
    rc, out, _ = run(capsys, "--dir", tmp_path, "show", "--table", "parlour", "--json")
    assert rc == 0 and json.loads(out)["table"] == "parlour"


def test_show_lists_every_table_though_a_stray_file_lies_among_them(tmp_path, capsys, frame_file):
    """A copy named "parlour (copy).json" or some notes.json in the tables folder: show printed
    "2 table(s)", listed one, and stopped (exit 2) before the rest."""
    run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "parlour")
    (tmp_path / "a-notes.json").write_text('{"what": "not a table"}')
    rc, out, _ = run(capsys, "--dir", tmp_path, "show")
    assert rc == 0 and "2 table(s)" in out and "parlour: fit markers" in out and "a-notes: not read" in out


def test_lens_without_a_board_exits_2(tmp_path, capsys, blank_file):
    rc, _, err = run(capsys, "--dir", tmp_path, "lens", blank_file, blank_file, "--table", "t")
    assert rc == 2 and "found in 0 frames" in err


def test_the_module_runs_and_never_shows_a_traceback(tmp_path):
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"\xff\xd8 not really a jpeg")
    p = subprocess.run([sys.executable, "-m", "calibration", "--dir", str(tmp_path), "fit", str(junk),
                        "--table", "t"], capture_output=True, text=True)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert p.stderr.startswith("error: ") and p.stderr.count("\n") == 1

