"""Snapshot images on disk beside the ledger: checked, re-encoded as JPEG, named by content.

An upload is refused before anything is written when it is too large, is not
an image OpenCV can decode, or is larger than the table's camera could make (read
from its header, before it is decoded: ``image_header``). A JPEG up to twice that
size is read at half size as it is decoded (libjpeg's own scaling: the whole picture
is never in memory): a 13 MP tablet's photo of the hand (4128x3096) or a phone's 24 MP
one is what a player sends, and was refused.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .files import write_whole
from .image_header import FORMATS, format_of, stated_size

NAME = re.compile(r"^[0-9a-f]{20}\.jpg$")
NOT_AN_IMAGE = f"the upload is not an image this service reads (send a {FORMATS} image)"
# a file of a format read here that does not decode: told so, not to send the format it was sent in
DAMAGED = "the {} image is damaged or cut short (it does not decode): send it again"


class ImageError(ValueError):
    """An upload that is not a usable image; ``status`` is the HTTP status that says why."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Snapshot:
    name: str          # "<20 hex>.jpg": what the ledger stores and the URL serves
    width: int
    height: int


def decode(data: bytes, *, max_bytes: int, max_side: int) -> np.ndarray:
    """The image in ``data`` as a BGR array (a JPEG over ``max_side``, up to twice it, at half
    size), or ImageError naming what is wrong."""
    if not data:
        raise ImageError(f"the upload is empty: send a {FORMATS} image", 422)
    if len(data) > max_bytes:
        raise ImageError(f"the upload is {len(data):,} bytes, the limit is {max_bytes:,}", 413)
    stated = stated_size(data)          # before decoding: a decoder makes room for what the header says
    if stated is None:
        kind = format_of(data)
        raise ImageError(DAMAGED.format(kind), 422) if kind else ImageError(NOT_AN_IMAGE, 415)
    kind, w, h = stated
    halved = kind == "JPEG" and max_side < max(w, h) <= 2 * max_side
    if max(w, h) > max_side and not halved:
        largest = 2 * max_side if kind == "JPEG" else max_side
        raise ImageError(f"the image is {w}x{h}, larger than {largest} pixels on a side", 413)
    flags = cv2.IMREAD_REDUCED_COLOR_2 if halved else cv2.IMREAD_COLOR     # EXIF's turn applied either way
    frame = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if frame is None:
        raise ImageError(DAMAGED.format(kind), 422)
    return frame


def encode_jpeg(frame: np.ndarray, quality: int = 85) -> bytes:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:   # pragma: no cover - a decoded BGR frame always encodes
        raise ImageError("could not encode the frame as JPEG", 500)
    return buf.tobytes()


class SnapshotStore:
    """A folder of JPEG snapshots; writes are atomic (temp file, then rename)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)

    def save(self, frame: np.ndarray) -> Snapshot:
        data = encode_jpeg(frame)
        name = hashlib.sha256(data).hexdigest()[:20] + ".jpg"
        path = self.folder / name
        if not path.exists():
            write_whole(path, data)         # (its folder made again if someone tidied it away while we ran)
        h, w = frame.shape[:2]
        return Snapshot(name, w, h)

    def path(self, name: str) -> Path | None:
        """The file of a snapshot name, or None when the name is not one of ours."""
        if not NAME.match(name or ""):
            return None
        path = self.folder / name
        return path if path.is_file() else None

    def prune(self, keep: set[str], older_than_s: float, now: float | None = None,
              labels: Path | None = None) -> int:
        """Delete the snapshots not in ``keep`` (those the log names, or names still) that are older
        than ``older_than_s``, and leftover partial writes; with them their photo labels
        (``labels/<stem>.json``: a label of no picture measures nothing); how many went."""
        cutoff = (time.time() if now is None else now) - older_than_s
        gone = 0
        if not self.folder.is_dir():
            return gone
        for path in self.folder.iterdir():
            ours = NAME.match(path.name) and path.name not in keep
            if (ours or path.suffix == ".part") and path.is_file() and path.stat().st_mtime < cutoff:
                path.unlink(missing_ok=True)
                if ours and labels is not None:
                    (labels / f"{path.stem}.json").unlink(missing_ok=True)
                gone += 1
        return gone
