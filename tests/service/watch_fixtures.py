"""What the watcher's tests share (imported by name: tests/service is on sys.path): one rendered deal,
its clips, and a camera folder that shows play, then the win lying still."""

from __future__ import annotations

import os
from pathlib import Path

import cv2

STAGE_SEED = 3      # east wins with a pon of fives (a red one in it), 11 tiles in the row: read exactly
FOLDER_PLAY = 2     # frames of play in the camera folder
FOLDER_WIN = 24     # then the win lying still (6 s at 4 fps: room for three reads on a busy CPU)


def step_through(watcher, clip, t0: float = 0.0, n0: int = 0) -> list:
    """Every frame of a clip through ``watcher.step`` at the clip's fps; the (frame, offer) pairs."""
    got = []
    for i, frame in enumerate(clip):
        offer = watcher.step(frame, n0 + i, t0 + i / clip.fps)
        if offer is not None:
            got.append((i, offer))
    return got


def write_folder(clip, folder: Path) -> Path:
    """A camera folder: the clip's first frame (play) FOLDER_PLAY times, then its still win FOLDER_WIN times
    (hard links: one file each on disk)."""
    folder.mkdir(parents=True, exist_ok=True)
    play, win = folder / "f000.jpg", folder / f"f{FOLDER_PLAY:03d}.jpg"
    cv2.imwrite(str(play), clip.frame(0), [cv2.IMWRITE_JPEG_QUALITY, 92])
    cv2.imwrite(str(win), clip.frame(clip.settled + 2), [cv2.IMWRITE_JPEG_QUALITY, 92])
    for i in range(1, FOLDER_PLAY):
        os.link(play, folder / f"f{i:03d}.jpg")
    for i in range(FOLDER_PLAY + 1, FOLDER_PLAY + FOLDER_WIN):
        os.link(win, folder / f"f{i:03d}.jpg")
    return folder
