"""Whether a picture holds the colour a red five is told by.

A red five differs from a plain five by its ink alone, so a black-and-white picture (a phone's mono
filter, a camera in night mode, a greyscale scan) reads every red five as plain, and sure of it: the
classifier learnt red from colour. Such a picture is said to the players, not silently trusted.
"""

from __future__ import annotations

import cv2
import numpy as np

LOOK_PX = 256          # the picture is judged at about this many pixels on its longer side: colour is no fine detail
SPREAD = 12.0          # chroma (CIELAB a*b* distance from grey) of the most colourful 1% over the median's
NO_COLOUR = ("the picture has no colour (black and white, or one tint): red fives cannot be told from plain "
             "ones in it; check each 5")


def colourless(image: np.ndarray) -> bool:
    """Whether ``image`` (BGR, or one channel) holds no colour to tell red ink by: its most colourful
    pixels are no more colourful than its median (grey: no chroma at all; a sepia or tinted
    monochrome: the same tint everywhere). A colour photo of tiles on grey felt has a median near
    grey and red, green and blue inks far from it."""
    if image.ndim < 3 or image.shape[2] == 1:
        return True
    step = max(1, max(image.shape[:2]) // LOOK_PX)     # every step-th pixel: a shrink cost 8 ms a frame
    small = np.ascontiguousarray(image[::step, ::step, :3])
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)
    chroma = np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0)
    low, high = np.percentile(chroma, [50, 99])
    return bool(high - low < SPREAD)
