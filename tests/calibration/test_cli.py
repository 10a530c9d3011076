"""python -m calibration: markers, fit, show, lens; bad input exits 2 in one line."""

from __future__ import annotations

import json
import re
import struct
import subprocess
import sys
import time
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



def test_lens_refuses_views_of_one_pose_and_keeps_the_table(tmp_path, capsys, frame_file):
    """Four copies of one board view were stored as f 17345 px, k2 +47590 and the table's fit
    cleared; every later fit then failed."""
    from calibration.lens import board_image
    from test_lens import board_view
    assert run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t")[0] == 0
    before = (tmp_path / "t.json").read_bytes()
    view, flat = tmp_path / "board.png", tmp_path / "flat.png"
    cv2.imwrite(str(view), board_view(np.random.default_rng(1), None, (0.0, 0.0), (0, 0), 600))
    rc, out, err = run(capsys, "--dir", tmp_path, "lens", "--table", "t", view, view, view, view)
    assert rc == 2 and "tilted alike" in err and "film the board again" in err and err.count("\n") == 1
    assert out == "" and (tmp_path / "t.json").read_bytes() == before
    frame, board = np.full((SIZE[1], SIZE[0]), 255, np.uint8), board_image(2.0)
    frame[300:300 + board.shape[0], 600:600 + board.shape[1]] = board      # pasted: OpenCV's calibration fails
    cv2.imwrite(str(flat), frame)
    rc, out, err = run(capsys, "--dir", tmp_path, "lens", "--table", "t", flat, flat, flat, flat)
    assert rc == 2 and "film the board again" in err and "OpenCV(" not in err and err.count("\n") == 1


def test_lens_clear_removes_the_lens_and_the_fit_made_with_it(tmp_path, capsys, frame_file):
    from calibration.lens import Lens
    from calibration.store import save
    assert run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t")[0] == 0
    table = load("t", tmp_path)
    table.lens = Lens(np.array([[1050.0, 0, 960], [0, 1050, 540], [0, 0, 1]]), np.zeros(5), SIZE)
    save(table, tmp_path)
    rc, out, err = run(capsys, "--dir", tmp_path, "lens", "--table", "t", "--clear")
    assert rc == 0 and "lens removed" in out and "fit the table again" in out, err
    table = load("t", tmp_path)
    assert table.lens is None and table.fit is None and table.white_balance is not None
    rc, out, _ = run(capsys, "--dir", tmp_path, "lens", "--table", "t", "--clear")
    assert rc == 0 and "no lens" in out
    rc, _, err = run(capsys, "--dir", tmp_path, "lens", "--table", "t", "--clear", frame_file)
    assert rc == 2 and "--clear takes no frames" in err
    rc, _, err = run(capsys, "--dir", tmp_path, "lens", "--table", "t")
    assert rc == 2 and "or --clear" in err


def test_fit_refuses_zones_off_the_felt_and_show_warns(tmp_path, capsys, frame_file):
    """The docs said a smaller table only needs its markers edited: the 1000 mm table's zones
    then lay off the 900 mm table's felt, and every read found no hand."""
    from calibration.store import TableFile, save, table_path
    path = save(TableFile("t"), tmp_path)
    data = json.loads(path.read_text())
    data["markers"]["table_mm"] = [900, 900]
    for m in data["markers"]["markers"]:
        m["center"] = [min(c, 862.5) for c in m["center"]]
    path.write_text(json.dumps(data))
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t")
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert "zones east.hand, east.melds, south.hand, south.melds lie off the felt" in err
    assert 'set "zones" to null' in err and load("t", tmp_path).fit is None
    rc, out, err = run(capsys, "--dir", tmp_path, "show", "--table", "t")
    assert rc == 0 and "4 off the felt" in out and "warning: zones east.hand" in err
    data["zones"] = None                                  # as the error says: the defaults for this felt
    table_path("t", tmp_path).write_text(json.dumps(data))
    rc, out, err = run(capsys, "--dir", tmp_path, "show", "--table", "t")
    assert rc == 0 and "off the felt" not in out + err


def test_fit_takes_a_small_table_s_own_default_zones_and_warns(tmp_path, capsys):
    """On a 750 mm table the default melds zones reach past the felt: fit refused them and told the
    staff to set the zones to null, which they were: a loop. It fits, and says what to edit."""
    from calibration.store import TableFile, save, table_path
    path = save(TableFile("t"), tmp_path)
    data = json.loads(path.read_text())
    data["markers"]["table_mm"] = [750, 750]
    for m in data["markers"]["markers"]:
        m["center"] = [min(c, 712.5) for c in m["center"]]
    data["zones"] = None
    path.write_text(json.dumps(data))
    layout = load("t", tmp_path).layout
    frame = tmp_path / "small.png"
    cv2.imwrite(str(frame), render(topdown(layout), pose_homography(layout), np.random.default_rng(3)))
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame, "--table", "t")
    assert rc == 0 and "fitted from" in out and load("t", tmp_path).fit is not None
    assert "the default zones do not fit a table this small either" in err and 'to null' not in err


def test_fit_refuses_an_overlay_under_a_file_before_saving(tmp_path, capsys, frame_file):
    """It saved the fit, then stopped on "[Errno 17] File exists"."""
    (tmp_path / "notes").write_text("a file")
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t",
                       "--overlay", tmp_path / "notes" / "o.jpg")
    assert rc == 2 and f"{tmp_path / 'notes'} is a file, not a folder" in err and out == ""
    rc, out, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t",
                       "--debug", tmp_path / "notes" / "dbg")
    assert rc == 2 and "--debug" in err and "is a file, not a folder" in err and out == ""
    assert not (tmp_path / "t.json").exists()


def test_white_balance_not_measured_says_the_stored_gains_were_kept(tmp_path, capsys, frame_file, monkeypatch):
    from calibration.errors import CalibrationError
    """It printed "not measured", then the older fit's gains as if just measured."""
    assert run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t")[0] == 0
    before = load("t", tmp_path)
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(before.fit.made_at))

    def clipped(*_):
        raise CalibrationError("white balance: too little unclipped white around the markers")
    monkeypatch.setattr("calibration.__main__.gains_from_frame", clipped)
    rc, out, _ = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t")
    assert rc == 0 and f"white balance gains: B 1.00 G 1.00 R 1.00; kept from the fit of {when}" in out
    assert "white balance: not measured (too little unclipped white" in out
    after = load("t", tmp_path)
    assert after.white_balance == before.white_balance and after.white_balance_at == before.fit.made_at


def test_fit_says_corners_were_not_used_when_the_markers_gave_a_fit(tmp_path, capsys, frame_file):
    rc, out, _ = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t",
                     "--corners", "100,100", "1800,100", "1800,1000", "100,1000")
    assert rc == 0 and "fitted from 9 markers" in out and "--corners not used" in out
    assert load("t", tmp_path).fit.source == "markers"


def test_a_fit_whose_overlay_cannot_be_written_leaves_the_table_as_it_was(tmp_path, capsys, frame_file):
    """It saved the new fit, then failed at the overlay (a full disk) and exited 2: the table changed
    by a command that said it failed. The table is saved last now."""
    import resource
    import signal

    def limit():                  # writes past 30 KB fail as on a full disk: the table file fits, the overlay not
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (30 * 1024, 30 * 1024))

    assert run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t1")[0] == 0
    before = (tmp_path / "t1.json").read_bytes()
    (tmp_path / "t1.overlay.jpg").unlink()
    p = subprocess.run([sys.executable, "-m", "calibration", "--dir", str(tmp_path), "fit", str(frame_file),
                        "--table", "t1"], capture_output=True, text=True, preexec_fn=limit)
    assert p.returncode == 2 and "the table's fit was not saved" in p.stderr, p.stderr
    assert "wrote " + str(tmp_path / "t1.json") not in p.stdout
    assert (tmp_path / "t1.json").read_bytes() == before


def test_markers_for_a_table_with_no_file_is_refused_not_the_default_sheet(tmp_path, capsys):
    """A typo in --table printed the default sheet (ids 0-8) without a word: glued on, that table
    never fitted, and a neighbour with the default ids saw its markers twice."""
    rc, out, err = run(capsys, "--dir", tmp_path, "markers", tmp_path / "m.png", "--table", "parlour2")
    assert rc == 2 and "no table file" in err and not (tmp_path / "m.png").exists()


def test_a_stored_lens_no_camera_has_is_refused_but_can_be_cleared(tmp_path, capsys, frame_file):
    """A lens typed by hand (k1 -15 for -0.15) is refused wherever the table is read; the command that
    removes it must still read the file, or only a hand edit could mend it."""
    assert run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t1")[0] == 0
    data = json.loads((tmp_path / "t1.json").read_text())
    data["lens"] = {"camera_matrix": [[1500, 0, 960], [0, 1500, 540], [0, 0, 1]], "dist": [-15, 0, 0, 0, 0],
                    "image_size": [1920, 1080]}
    (tmp_path / "t1.json").write_text(json.dumps(data))
    rc, _, err = run(capsys, "--dir", tmp_path, "fit", frame_file, "--table", "t1")
    assert rc == 2 and "lens: no camera's" in err and "lens --clear" in err
    rc, out, err = run(capsys, "--dir", tmp_path, "lens", "--table", "t1", "--clear")
    assert rc == 0 and "lens removed" in out, err
    assert load("t1", tmp_path).lens is None
