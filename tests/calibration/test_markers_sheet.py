"""The marker layout and the printed sheet: true size, in PNG and PDF, and readable."""

from __future__ import annotations

import re
import struct
import zlib

import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.homography import detect_markers
from calibration.markers import MarkerLayout, MarkerPlace, default_layout
from calibration.sheet import write_sheet

DPI = 200


def _side_mm(corners: np.ndarray, dpi: float) -> float:
    """Mean side of a detected marker, in mm at ``dpi``."""
    c = corners.reshape(4, 2)
    return float(np.mean(np.linalg.norm(c - np.roll(c, -1, axis=0), axis=1))) / dpi * 25.4


def test_default_layout_is_valid_and_on_the_rim():
    lay = default_layout()
    lay.validate()
    x0, y0, x1, y1 = lay.felt
    assert len(lay.markers) == 9 and sorted(lay.ids) == list(range(9))
    for m in lay.markers:
        quiet = lay.corners_mm(m.id, lay.size_mm / 2 + lay.quiet_mm)
        # Marker and quiet zone lie on the table top and off the felt.
        assert (quiet >= 0).all() and (quiet <= 1000).all()
        assert not ((quiet[:, 0] > x0) & (quiet[:, 0] < x1) & (quiet[:, 1] > y0) & (quiet[:, 1] < y1)).any()


def test_rotation_turns_corners_clockwise():
    lay = MarkerLayout(markers=(MarkerPlace(0, (100.0, 100.0), 0), MarkerPlace(1, (100.0, 100.0), 90)))
    plain, turned = lay.corners_mm(0), lay.corners_mm(1)
    # The printed top-left corner of a marker turned 90 degrees clockwise sits top-right.
    assert np.allclose(turned[0], plain[1]) and np.allclose(turned[3], plain[0])


def test_layout_round_trips_and_rejects_duplicates():
    lay = default_layout()
    assert MarkerLayout.from_dict(lay.to_dict()) == lay
    bad = lay.to_dict()
    bad["markers"][1]["id"] = bad["markers"][0]["id"]
    with pytest.raises(CalibrationError, match="twice"):
        MarkerLayout.from_dict(bad)
    bad = lay.to_dict() | {"dictionary": "DICT_NOPE"}
    with pytest.raises(CalibrationError, match="dictionary"):
        MarkerLayout.from_dict(bad)


def test_png_sheet_states_its_dpi_and_prints_markers_at_true_size(tmp_path):
    lay = default_layout()
    out = tmp_path / "sheet.png"
    write_sheet(out, lay, DPI)
    data = out.read_bytes()
    at = data.index(b"pHYs")
    ppm_x, ppm_y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert unit == 1 and ppm_x == ppm_y == round(DPI / 0.0254)
    page = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    # A4 at 200 dpi, to the pixel.
    assert page.shape == (round(297 / 25.4 * DPI), round(210 / 25.4 * DPI))
    det = detect_markers(page, lay)
    assert sorted(det.ids) == lay.ids
    for c in det.corners:
        assert _side_mm(c, DPI) == pytest.approx(lay.size_mm, abs=0.3)   # 0.3 mm: ~2 px of 200 dpi


def test_pdf_sheet_is_a4_with_the_image_at_physical_size(tmp_path):
    lay = default_layout()
    out = tmp_path / "sheet.pdf"
    write_sheet(out, lay, DPI)
    pdf = out.read_bytes()
    assert pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
    box = [float(v) for v in re.search(rb"/MediaBox \[([\d. ]+)\]", pdf).group(1).split()]
    assert box[2] / 72 * 25.4 == pytest.approx(210, abs=0.01)
    assert box[3] / 72 * 25.4 == pytest.approx(297, abs=0.01)
    # The image XObject: its pixels, and the size it is drawn at (the cm matrix).
    w, h = (int(v) for v in re.search(rb"/Width (\d+) /Height (\d+)", pdf).groups())
    a, _, _, d = (float(v) for v in re.search(rb"q ([\d.]+) (\S+) (\S+) ([\d.]+) ", pdf).groups())
    assert a / 72 * 25.4 == pytest.approx(w / DPI * 25.4, abs=0.01)
    assert d / 72 * 25.4 == pytest.approx(h / DPI * 25.4, abs=0.01)
    start = pdf.index(b"stream\n", pdf.index(b"/Subtype /Image")) + len(b"stream\n")
    length = int(re.search(rb"/Subtype /Image.*?/Length (\d+)", pdf, re.S).group(1))
    page = np.frombuffer(zlib.decompress(pdf[start:start + length]), np.uint8).reshape(h, w)
    det = detect_markers(page, lay)
    assert sorted(det.ids) == lay.ids
    # Drawn at a / w points per pixel: the marker's printed side in mm.
    mm_per_px = a / w / 72 * 25.4
    for c in det.corners:
        assert _side_mm(c, 25.4 / mm_per_px) == pytest.approx(lay.size_mm, abs=0.3)
    # xref offsets point at their objects.
    xref = int(re.search(rb"startxref\n(\d+)", pdf).group(1))
    assert pdf[xref:xref + 4] == b"xref"
    offsets = [int(m) for m in re.findall(rb"(\d{10}) 00000 n", pdf)]
    assert [pdf[o:o + 7] for o in offsets] == [b"%d 0 obj" % i for i in range(1, 6)]


def test_sheet_refuses_other_formats(tmp_path):
    with pytest.raises(CalibrationError, match=r"\.pdf or a \.png"):
        write_sheet(tmp_path / "sheet.jpg", default_layout())
