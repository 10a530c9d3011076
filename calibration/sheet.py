"""The printable marker sheet: an A4 page at true size, as PNG (with its DPI) or PDF.

Each marker is drawn ``size_mm`` wide inside its white quiet zone, with a thin
grey cut line around the quiet zone and a label: its id and where it goes. Print
at 100 % ("actual size"), never "fit to page"; the 100 mm ruler on the page
checks the printer.

The PDF is written by hand (one page, one grayscale Flate image drawn at its
physical size): no PDF library needed.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from .errors import CalibrationError
from .markers import MarkerLayout, marker_image

A4_MM = (210.0, 297.0)
MM_PER_INCH = 25.4
PT_PER_INCH = 72.0


def mm_to_px(mm: float, dpi: float) -> int:
    return int(round(mm / MM_PER_INCH * dpi))


def where(layout: MarkerLayout, marker_id: int) -> str:
    """Where a marker goes, in words, for its label."""
    m = layout.place(marker_id)
    w, h = layout.table_mm
    x, y = m.center
    side_x = "North" if x < w / 3 else ("South" if x > 2 * w / 3 else "")
    side_y = "West" if y < h / 3 else ("East" if y > 2 * h / 3 else "")
    spot = "-".join(s for s in (side_y, side_x) if s) or "centre"
    return f"{spot} ({x:.0f},{y:.0f} mm)"


def render_sheet(layout: MarkerLayout, dpi: int = 300, page_mm: tuple[float, float] = A4_MM) -> np.ndarray:
    """The page as a grayscale image at ``dpi``: markers in a grid, each with its
    quiet zone, cut line and label, plus a 100 mm ruler."""
    page = np.full((mm_to_px(page_mm[1], dpi), mm_to_px(page_mm[0], dpi)), 255, np.uint8)
    margin, label = 10.0, 7.0                       # mm: printer margin, label line
    cell = layout.size_mm + 2 * layout.quiet_mm + 4.0
    cols = int((page_mm[0] - 2 * margin) // cell)
    rows = int((page_mm[1] - 2 * margin - 15.0) // (cell + label))
    if cols * rows < len(layout.markers):
        raise CalibrationError(f"markers: {len(layout.markers)} markers do not fit on one page")
    side = mm_to_px(layout.size_mm, dpi)
    font_scale = dpi / 300 * 0.9
    for k, m in enumerate(layout.markers):
        r, c = divmod(k, cols)
        x0 = margin + c * cell
        y0 = margin + r * (cell + label)
        # Cut line around the quiet zone (grey, outside the white area).
        q0 = (mm_to_px(x0, dpi), mm_to_px(y0, dpi))
        q1 = (mm_to_px(x0 + layout.size_mm + 2 * layout.quiet_mm, dpi),
              mm_to_px(y0 + layout.size_mm + 2 * layout.quiet_mm, dpi))
        cv2.rectangle(page, q0, q1, 160, max(1, dpi // 150))
        mx, my = mm_to_px(x0 + layout.quiet_mm, dpi), mm_to_px(y0 + layout.quiet_mm, dpi)
        page[my:my + side, mx:mx + side] = marker_image(layout, m.id, side)
        text = f"id {m.id}  {where(layout, m.id)}  top -> West, turn {m.rotation}"
        cv2.putText(page, text, (q0[0], q1[1] + mm_to_px(5.0, dpi)), cv2.FONT_HERSHEY_SIMPLEX,
                    font_scale * 0.75, 0, max(1, dpi // 200), cv2.LINE_AA)
    # 100 mm ruler with 10 mm ticks.
    y = mm_to_px(page_mm[1] - margin - 5.0, dpi)
    x0, x1 = mm_to_px(margin, dpi), mm_to_px(margin + 100.0, dpi)
    cv2.line(page, (x0, y), (x1, y), 0, max(1, dpi // 100))
    for t in range(11):
        x = mm_to_px(margin + 10.0 * t, dpi)
        cv2.line(page, (x, y), (x, y - mm_to_px(3.0 if t % 5 else 5.0, dpi)), 0, max(1, dpi // 150))
    cv2.putText(page, f"100 mm - print at 100 %  ({layout.dictionary}, markers {layout.size_mm:g} mm)",
                (x1 + mm_to_px(4.0, dpi), y), cv2.FONT_HERSHEY_SIMPLEX, font_scale * 0.75, 0,
                max(1, dpi // 200), cv2.LINE_AA)
    return page


def render_board_sheet(dpi: int = 300) -> np.ndarray:
    """The lens calibration's ChArUco board at true size, centred on A4 landscape."""
    from .lens import board_image
    page = np.full((mm_to_px(A4_MM[0], dpi), mm_to_px(A4_MM[1], dpi)), 255, np.uint8)
    img = board_image(dpi / MM_PER_INCH)
    y, x = (page.shape[0] - img.shape[0]) // 2, (page.shape[1] - img.shape[1]) // 2
    page[y:y + img.shape[0], x:x + img.shape[1]] = img
    cv2.putText(page, "lens board - print at 100 %, glue flat", (mm_to_px(10, dpi), mm_to_px(8, dpi)),
                cv2.FONT_HERSHEY_SIMPLEX, dpi / 300 * 0.7, 0, max(1, dpi // 200), cv2.LINE_AA)
    return page


def write_png(path: Path, image: np.ndarray, dpi: int) -> None:
    """A PNG whose pHYs chunk states the DPI, so viewers and printers know its size."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:
        raise CalibrationError(f"cannot encode {path}")
    data = buf.tobytes()
    ppm = int(round(dpi / MM_PER_INCH * 1000))     # pixels per metre
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body))
    ihdr_end = 8 + 8 + 13 + 4                      # signature, IHDR length+type, data, CRC
    Path(path).write_bytes(data[:ihdr_end] + chunk + data[ihdr_end:])


def write_pdf(path: Path, image: np.ndarray, dpi: int, page_mm: tuple[float, float] | None = None) -> None:
    """A one-page PDF of ``page_mm`` (default: the image's own size) with the
    grayscale image drawn at its physical size (pixels / dpi) from the top-left."""
    h, w = image.shape[:2]
    wpt, hpt = w / dpi * PT_PER_INCH, h / dpi * PT_PER_INCH
    pw, ph = ((wpt, hpt) if page_mm is None else
              (page_mm[0] / MM_PER_INCH * PT_PER_INCH, page_mm[1] / MM_PER_INCH * PT_PER_INCH))
    pixels = zlib.compress(np.ascontiguousarray(image, np.uint8).tobytes(), 6)
    content = f"q {wpt:.4f} 0 0 {hpt:.4f} 0 {ph - hpt:.4f} cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.4f} {ph:.4f}] "
         f"/Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>").encode(),
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n").encode()
        + pixels + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    Path(path).write_bytes(bytes(out))


def write_sheet(path: Path, layout: MarkerLayout, dpi: int = 300, board: bool = False) -> np.ndarray:
    """Render the marker sheet (or, ``board``, the lens board) and write it as
    ``.pdf`` or ``.png`` by the file's suffix."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise CalibrationError(f"markers: {path}: write a .pdf or a .png")
    if not 100 <= dpi <= 1200:
        raise CalibrationError("markers: dpi must be 100..1200")
    page = render_board_sheet(dpi) if board else render_sheet(layout, dpi)
    if suffix == ".pdf":
        write_pdf(Path(path), page, dpi, page_mm=A4_MM[::-1] if board else A4_MM)
    else:
        write_png(Path(path), page, dpi)
    return page
