"""Synthetic table frames for tests and benches: real marker images on a
top-down table, seen by a pinhole camera over it.

Table coordinates are mm with x right, y down, so z = x cross y points *into*
the table; the camera hangs at z = -height looking along +z. A pose within a
mount's tolerance: height 1.25-1.35 m, within 40 mm of the table's centre,
tilted up to 5 degrees about each axis, turned up to 4 degrees. With f = 1050 px
a 1920x1080 frame sees ~1.3 m, the whole 1 m table with room for the tilt.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.markers import MarkerLayout, marker_image

SIZE = (1920, 1080)
K = np.array([[1050.0, 0, 960.0], [0, 1050.0, 540.0], [0, 0, 1]])
FELT = (70, 115, 45)        # BGR green
RIM = (40, 110, 200)        # BGR orange, like the AMOS photo's rim
FLOOR = (45, 45, 50)
TOP_PX_PER_MM = 2.0


def topdown(layout: MarkerLayout, px_per_mm: float = TOP_PX_PER_MM, patches=()) -> np.ndarray:
    """The table from above at ``px_per_mm``: rim, felt, markers in white quiet
    zones, and ``patches`` = [((x0, y0, x1, y1) mm, BGR)] drawn on the felt."""
    p = px_per_mm
    w, h = (int(round(v * p)) for v in layout.table_mm)
    img = np.full((h, w, 3), RIM, np.uint8)
    x0, y0, x1, y1 = (int(round(v * p)) for v in layout.felt)
    img[y0:y1, x0:x1] = FELT
    for (a, b, c, d), colour in patches:
        img[int(b * p):int(d * p), int(a * p):int(c * p)] = colour
    for m in layout.markers:
        quiet = layout.corners_mm(m.id, layout.size_mm / 2 + layout.quiet_mm) * p
        cv2.fillConvexPoly(img, np.round(quiet).astype(np.int32), (255, 255, 255))
        side = int(round(layout.size_mm * p))
        mk = cv2.cvtColor(marker_image(layout, m.id, side), cv2.COLOR_GRAY2BGR)
        mk = np.rot90(mk, k=-(m.rotation // 90) % 4)       # clockwise turns
        cx, cy = (int(round(v * p)) for v in m.center)
        img[cy - side // 2:cy - side // 2 + side, cx - side // 2:cx - side // 2 + side] = mk
    return img


def rotation(ax: float, ay: float, az: float) -> np.ndarray:
    return cv2.Rodrigues(np.array([0.0, 0.0, az]))[0] @ cv2.Rodrigues(np.array([ax, ay, 0.0]))[0]


def pose_homography(layout: MarkerLayout, height=1300.0, shift=(0.0, 0.0), tilt=(0.0, 0.0), turn=0.0,
                    camera=K) -> np.ndarray:
    """H mapping table mm to image px for a camera at ``height`` mm over the table's
    centre + ``shift``, tilted by ``tilt`` (radians about x, y), turned by ``turn``."""
    R = rotation(tilt[0], tilt[1], turn)
    C = np.array([layout.table_mm[0] / 2 + shift[0], layout.table_mm[1] / 2 + shift[1], -height])
    t = -R @ C
    H = camera @ np.column_stack([R[:, 0], R[:, 1], t])
    return H / H[2, 2]


def random_pose(rng: np.random.Generator, layout: MarkerLayout, camera=K) -> np.ndarray:
    """A pose anywhere within the mount's tolerance (see the module's docstring)."""
    return pose_homography(layout, height=rng.uniform(1250, 1350), shift=rng.uniform(-40, 40, 2),
                           tilt=np.deg2rad(rng.uniform(-5, 5, 2)), turn=np.deg2rad(rng.uniform(-4, 4)),
                           camera=camera)


def distort_maps(camera: np.ndarray, dist: np.ndarray, size=SIZE):
    """remap() maps that turn an ideal pinhole image into the one a lens with
    ``dist`` captures: each captured pixel looks up its undistorted position."""
    xs, ys = np.meshgrid(np.arange(size[0], dtype=np.float32), np.arange(size[1], dtype=np.float32))
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    und = cv2.undistortPoints(pts, camera, dist, P=camera).reshape(size[1], size[0], 2)
    return und[..., 0].astype(np.float32), und[..., 1].astype(np.float32)


def render(top: np.ndarray, H_table_to_image: np.ndarray, rng: np.random.Generator | None = None,
           px_per_mm: float = TOP_PX_PER_MM, size=SIZE, blur: float = 0.7, noise: float = 3.0,
           maps=None, cast=None) -> np.ndarray:
    """The frame the camera captures: the top-down image warped by the pose, then
    lens distortion (``maps``), a light cast (BGR factors), blur and noise."""
    # Pre-blur so the ~2.5x downsampling does not alias the marker edges.
    src = cv2.GaussianBlur(top, (0, 0), 0.5 * px_per_mm)
    # Top-down pixel i covers [i, i+1) / px_per_mm mm: its centre is (i + 0.5) / px_per_mm.
    half = 0.5 / px_per_mm
    M = H_table_to_image @ np.array([[1 / px_per_mm, 0, half], [0, 1 / px_per_mm, half], [0, 0, 1.0]])
    frame = cv2.warpPerspective(src, M, size, flags=cv2.INTER_LINEAR, borderValue=FLOOR)
    if maps is not None:
        frame = cv2.remap(frame, maps[0], maps[1], cv2.INTER_LINEAR, borderValue=FLOOR)
    frame = frame.astype(np.float32)
    if cast is not None:
        frame *= np.asarray(cast, np.float32)
    if blur:
        frame = cv2.GaussianBlur(frame, (0, 0), blur)
    if noise and rng is not None:
        frame += rng.normal(0, noise, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8)


def felt_grid(layout: MarkerLayout, step: float = 50.0) -> np.ndarray:
    """Table points over the whole felt, every ``step`` mm."""
    x0, y0, x1, y1 = layout.felt
    xs, ys = np.meshgrid(np.arange(x0, x1 + 1, step), np.arange(y0, y1 + 1, step))
    return np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.float64)


def table_error_mm(H_true_table_to_image: np.ndarray, H_fit_image_to_table: np.ndarray,
                   pts_mm: np.ndarray, lens=None, dist_camera=None) -> np.ndarray:
    """Per point: how far (mm) the fit puts the image of a table point from the point."""
    img = cv2.perspectiveTransform(pts_mm.reshape(-1, 1, 2), H_true_table_to_image).reshape(-1, 2)
    if dist_camera is not None:                    # the captured image is distorted
        Kc, d = dist_camera
        norm = np.column_stack([(img[:, 0] - Kc[0, 2]) / Kc[0, 0], (img[:, 1] - Kc[1, 2]) / Kc[1, 1],
                                np.ones(len(img))])
        img = cv2.projectPoints(norm, np.zeros(3), np.zeros(3), Kc, d)[0].reshape(-1, 2)
    if lens is not None:
        img = lens.undistort_points(img)
    back = cv2.perspectiveTransform(img.reshape(-1, 1, 2), H_fit_image_to_table).reshape(-1, 2)
    return np.linalg.norm(back - pts_mm, axis=1)
