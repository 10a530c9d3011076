"""Intermediate images for debugging: each stage hands its picture to a Debug.

``Debug(None)`` writes nothing, so stages call it unconditionally when given one.
Files are numbered in the order written: ``01-detected.png``, ``02-rectified.png``...
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np


class Debug:
    def __init__(self, folder: str | Path | None):
        self.folder = Path(folder) if folder else None
        self.written: list[Path] = []
        if self.folder:
            self.folder.mkdir(parents=True, exist_ok=True)

    def write(self, name: str, image: np.ndarray) -> None:
        if self.folder is None:
            return
        path = self.folder / f"{len(self.written) + 1:02d}-{name}.png"
        cv2.imwrite(str(path), image)
        self.written.append(path)
