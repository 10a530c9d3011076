"""Synthetic table scenes with ground truth: the detector's training and test data.

    tile       one tile drawn on the table plane: face art, body, back layer, shadow
    real_faces faces of real tiles (the fitting two thirds of ../shared/real-tiles) laid on rendered tiles
    layouts    the groups a table shows: hand rows, melds, ankan, gari, ponds, walls
    scene      a table plane filled with groups and clutter, then a camera's view of it
    dataset    YOLO-format and crop datasets written from scenes
"""

from .scene import Annotation, Scene, render_scene

__all__ = ["Annotation", "Scene", "render_scene"]
