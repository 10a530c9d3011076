"""An upload's size is read from its header before it is decoded (service/image_header.py): a decoder
makes room for the whole picture a header states, so a small file stating a huge one is refused unread."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from service.image_header import stated_size
from service.snapshots import ImageError, decode
from table_fixtures import huge_jpeg

ROOT = Path(__file__).resolve().parents[2]
DEMO_FRAMES = sorted((ROOT / "service" / "demo" / "frames").glob("*.jpg"))
PICTURE = np.random.default_rng(7).integers(0, 255, (123, 457, 3), np.uint8)


def encoded(ext: str, *params: int) -> bytes:
    ok, buf = cv2.imencode(ext, PICTURE, list(params))
    assert ok
    return buf.tobytes()


@pytest.mark.parametrize("kind, data", [
    ("JPEG", encoded(".jpg")),
    ("JPEG", encoded(".jpg", cv2.IMWRITE_JPEG_PROGRESSIVE, 1)),
    ("PNG", encoded(".png")),
    ("WebP", encoded(".webp", cv2.IMWRITE_WEBP_QUALITY, 80)),        # lossy: VP8
    ("WebP", encoded(".webp", cv2.IMWRITE_WEBP_QUALITY, 101)),       # lossless: VP8L
    ("BMP", encoded(".bmp")),
], ids=["jpeg", "progressive jpeg", "png", "lossy webp", "lossless webp", "bmp"])
def test_the_header_states_the_size_the_picture_decodes_to(kind, data):
    assert stated_size(data) == (kind, 457, 123)
    assert decode(data, max_bytes=10**7, max_side=457).shape == (123, 457, 3)


def test_pillow_s_webp_with_alpha_and_jpeg_with_exif_are_sized_too():
    from PIL import Image
    out = io.BytesIO()
    Image.new("RGBA", (300, 200)).save(out, "WEBP")                  # extended: VP8X
    assert stated_size(out.getvalue()) == ("WebP", 300, 200)
    exif = Image.Exif()
    exif[0x0112] = 6                                                  # turned: the stored size is stated
    out = io.BytesIO()
    Image.new("RGB", (300, 200)).save(out, "JPEG", exif=exif)
    assert stated_size(out.getvalue()) == ("JPEG", 300, 200)


def _tablet_photo(w: int = 4128, h: int = 3096, turned: bool = True) -> bytes:
    """A 13 MP tablet's photo (its camera's size), taken upright (EXIF: stored turned), progressive."""
    from PIL import Image
    stored = np.zeros((h, w, 3), np.uint8)
    stored[:100, :200] = (255, 0, 0)                                 # red at the stored top left
    exif = Image.Exif()
    if turned:
        exif[0x0112] = 6                                              # shown turned a quarter clockwise
    out = io.BytesIO()
    Image.fromarray(stored).save(out, "JPEG", exif=exif, quality=90, progressive=True)
    return out.getvalue()


def test_a_tablet_s_photo_over_the_side_limit_is_read_at_half_size_turned_as_taken():
    """Before: "the image is 4128x3096, larger than 4096 pixels on a side", a player's photo of the
    hand refused. A JPEG up to twice the limit is read at half size (libjpeg scales as it decodes)."""
    frame = decode(_tablet_photo(), max_bytes=10**7, max_side=4096)
    assert frame.shape == (2064, 1548, 3)                             # halved, and upright as shown
    ys, xs = np.nonzero((frame[..., 2] > 200) & (frame[..., 1] < 60))
    assert ys.max() < 110 and xs.min() > 1548 - 60                    # the red corner is now top right
    assert decode(_tablet_photo(turned=False), max_bytes=10**7, max_side=4096).shape == (1548, 2064, 3)
    with pytest.raises(ImageError, match="the image is 8200x100, larger than 8192 pixels on a side") as e:
        decode(_tablet_photo(8200, 100), max_bytes=10**7, max_side=4096)
    assert e.value.status == 413
    png = cv2.imencode(".png", np.zeros((10, 4128, 3), np.uint8))[1].tobytes()
    with pytest.raises(ImageError, match="the image is 4128x10, larger than 4096 pixels on a side"):
        decode(png, max_bytes=10**7, max_side=4096)                  # no format but JPEG scales as it decodes


@pytest.mark.parametrize("frame", DEMO_FRAMES[:3], ids=lambda p: p.name)
def test_a_camera_s_jpeg_is_sized_as_it_decodes(frame):
    data = frame.read_bytes()
    h, w = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape[:2]
    assert stated_size(data) == ("JPEG", w, h)


@pytest.mark.parametrize("data", [
    encoded(".png")[:20], encoded(".jpg")[:40], encoded(".webp", cv2.IMWRITE_WEBP_QUALITY, 80)[:24],
    b"BM" + b"\x00" * 10, b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xd9",
], ids=["png", "jpeg", "webp", "bmp", "png signature alone", "jpeg with no frame"])
def test_a_header_cut_short_states_no_size_and_is_refused_as_damaged(data):
    """It was refused as "not an image this service reads (send a JPEG, PNG...)": the player was
    told to send the very format they had sent. A file cut short in sending is damaged."""
    assert stated_size(data) is None
    with pytest.raises(ImageError, match=r"image is damaged or cut short") as e:
        decode(data, max_bytes=10**7, max_side=4096)
    assert e.value.status == 422 and "send it again" in str(e.value)


def test_a_text_that_happens_to_begin_with_bm_is_no_image_not_a_damaged_bmp():
    with pytest.raises(ImageError, match="not an image this service reads") as e:
        decode(b"BMW 320i, the hand I won", max_bytes=10**7, max_side=4096)
    assert e.value.status == 415


@pytest.mark.parametrize("ext", [".jpg", ".png"])
def test_an_image_whose_data_stops_after_its_header_is_refused_as_damaged(ext):
    data = encoded(ext)[:200]
    assert stated_size(data) is not None
    with pytest.raises(ImageError, match=r"image is damaged or cut short") as e:
        decode(data, max_bytes=10**7, max_side=4096)
    assert e.value.status == 422


@pytest.mark.parametrize("ext", [".tiff", ".ppm"])
def test_a_format_whose_size_is_not_read_first_is_refused(ext):
    data = encoded(ext)
    assert cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR) is not None   # OpenCV reads it
    with pytest.raises(ImageError, match=r"send a JPEG, PNG, WebP or BMP image") as e:
        decode(data, max_bytes=10**7, max_side=4096)
    assert e.value.status == 415


def test_a_small_file_stating_a_huge_picture_is_refused_before_it_is_decoded():
    """Before: OpenCV decoded the 600 bytes into 20000x20000 (2.3 GB, the service's machine short of
    memory) before the size was checked. Measured in a process of its own: its peak memory."""
    data = huge_jpeg()
    assert len(data) < 2000 and stated_size(data) == ("JPEG", 20000, 20000)
    script = (
        "import re, sys\n"
        "from service.snapshots import ImageError, decode\n"
        "try:\n"
        "    decode(sys.stdin.buffer.read(), max_bytes=8 << 20, max_side=4096)\n"
        "except ImageError as e:\n"
        "    print(e.status, e)\n"
        # this process's own peak (getrusage's maxrss keeps the forking test process's, pytest's)
        "print(int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1]) // 1024)\n")
    out = subprocess.run([sys.executable, "-c", script], input=data, capture_output=True, cwd=ROOT,
                         timeout=120, check=True).stdout.decode().splitlines()
    assert out[0] == "413 the image is 20000x20000, larger than 8192 pixels on a side"      # a JPEG: twice
    assert int(out[1]) < 400, f"peak memory {out[1]} MB"
