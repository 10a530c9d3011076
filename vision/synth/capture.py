"""A camera's capture on a rendered scene: what a phone or a cheap camera does to the tiles it sees.

A renderer's image is clean; a photo is taken smaller than the table (and enlarged again when cut),
blurred a little, noisy and JPEG-compressed. A tile the classifier reads surely in one photo can read
as its neighbour kind in the same photo saved again (models/README.md: the hand lines read from
photos taken again). Scenes drawn through ``captured`` teach the classifier cuts of such photos.
"""

from __future__ import annotations

import cv2
import numpy as np

SCALE = (0.5, 1.0)      # the photo's size against the rendered scene's, before the cut enlarges it back
BLUR = (0.0, 1.0)       # Gaussian sigma, px, half the time
NOISE = (0.0, 4.0)      # sensor noise, grey levels
QUALITY = (40, 95)      # JPEG quality


def captured(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``image`` (BGR uint8) as a camera of a random size and quality would give it, at its own size."""
    h, w = image.shape[:2]
    s = rng.uniform(*SCALE)
    small = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(*BLUR) + 1e-3)
    noisy = np.clip(small + rng.normal(0, rng.uniform(*NOISE), small.shape), 0, 255).astype(np.uint8)
    jpeg = jpeg_again(noisy, int(rng.integers(QUALITY[0], QUALITY[1] + 1)))
    return cv2.resize(jpeg, (w, h), interpolation=cv2.INTER_LINEAR)


def jpeg_again(image: np.ndarray, quality: int) -> np.ndarray:
    """``image`` (BGR uint8) saved as a JPEG of ``quality`` and read back."""
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)
