"""An uploaded image's size as its header states it, read before anything is decoded.

A decoder makes room for the whole picture its header announces before it reads a
pixel, and a PNG of one colour compresses a thousandfold: a 2.6 MB upload stating
30000x30000 made OpenCV take 5.3 GB and 13 s before the service could refuse it as
too large. So an upload's size is read from its header first (JPEG, PNG, WebP, BMP:
what phones, tablets and cameras send); an image of another format is refused, as
its size cannot be known before it is decoded.
"""

from __future__ import annotations

import struct

FORMATS = "JPEG, PNG, WebP or BMP"
# JPEG frame headers (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC): they hold the height and width
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_STANDALONE = {0x01, *range(0xD0, 0xD8)}        # TEM, RST0-7: markers without a length


def stated_size(data: bytes) -> tuple[str, int, int] | None:
    """``(format, width, height)`` as ``data``'s header states them; None for another format, or a
    header cut short or stating no size."""
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
            w, h = struct.unpack(">II", data[16:24])
            return _sized("PNG", w, h)
        if data.startswith(b"\xff\xd8"):
            return _jpeg(data)
        if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
            return _webp(data)
        if data.startswith(b"BM"):
            (header,) = struct.unpack("<I", data[14:18])
            if header == 12:                                  # OS/2 BITMAPCOREHEADER
                w, h = struct.unpack("<HH", data[18:22])
            else:
                w, h = struct.unpack("<ii", data[18:26])
            return _sized("BMP", abs(w), abs(h))               # a negative height: rows top down
    except struct.error:                                       # cut short
        return None
    return None


def format_of(data: bytes) -> str | None:
    """The format ``data``'s first bytes name (JPEG, PNG, WebP, BMP), whether or not the rest is
    whole: a file cut short in sending is still the format it began as."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data.startswith(b"\xff\xd8"):
        return "JPEG"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "WebP"
    if data.startswith(b"BM") and data[6:10] == b"\0\0\0\0":      # BMP's two reserved words: zero
        return "BMP"
    return None


def _sized(kind: str, w: int, h: int) -> tuple[str, int, int] | None:
    return (kind, w, h) if w > 0 and h > 0 else None


def _jpeg(data: bytes) -> tuple[str, int, int] | None:
    """The first frame header's size, skipping every segment before it by its length (an EXIF
    thumbnail inside APP1 is not the picture's)."""
    i = 2
    while i < len(data):
        if data[i] != 0xFF:
            return None
        while i < len(data) and data[i] == 0xFF:             # fill bytes
            i += 1
        if i >= len(data):
            return None
        marker = data[i]
        i += 1
        if marker in _STANDALONE:
            continue
        if marker in (0xD9, 0xDA):                            # the end, or the scan, before any frame header
            return None
        (length,) = struct.unpack(">H", data[i:i + 2])
        if marker in _SOF:
            h, w = struct.unpack(">HH", data[i + 3:i + 7])
            return _sized("JPEG", w, h)                       # a height of 0 (set later by DNL): no size
        i += length
    return None


def _webp(data: bytes) -> tuple[str, int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":                                      # extended: the canvas, 24 bits each, less one
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return _sized("WebP", w, h) if len(data) >= 30 else None
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":   # lossy: 14 bits each after the start code
        w, h = struct.unpack("<HH", data[26:30])
        return _sized("WebP", w & 0x3FFF, h & 0x3FFF)
    if chunk == b"VP8L" and data[20:21] == b"\x2f":           # lossless: 14 bits each, less one
        (bits,) = struct.unpack("<I", data[21:25])
        return _sized("WebP", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    return None
