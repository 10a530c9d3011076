"""A tile's face cut out of an image and turned upright: the classifier's input."""

from __future__ import annotations

import cv2
import numpy as np

CROP_W, CROP_H = 48, 64


def upright_crop(image: np.ndarray, face, size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """Warp a face to an upright ``size`` crop.

    ``face`` lists the face's corners in the face's own order (its top-left,
    top-right, bottom-right, bottom-left, wherever they lie in the image), so the
    crop comes out upright whatever the tile's rotation on the table.
    """
    w, h = size
    quad = np.asarray(face, np.float32).reshape(4, 2)
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    m = cv2.getPerspectiveTransform(quad, dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
