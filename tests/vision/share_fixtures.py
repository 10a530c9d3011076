"""What every renderer option drawn for a share of scenes must keep (``--fonts``, ``--suits``)."""

from __future__ import annotations

import numpy as np

from vision.synth.dataset import scene_for


def share_leaves_other_scenes(art, design_for, option: str, field: str):
    """A renderer option drawn for a share of scenes (``design_for(seed, share)``: the design, or None):
    share 0 draws none and share 1 draws every scene, each scene's design fixed by its seed; a scene it
    does not pick renders exactly as without the option, and one it picks keeps its deal (the same tiles
    in the same places), only drawn in that design (the scene's style ``field``). Returns that scene's
    image without and with it."""
    assert not any(design_for(s, 0.0) for s in range(50))
    assert all(design_for(s, 1.0) for s in range(50))
    assert design_for(7, 1.0) == design_for(7, 1.0)
    plain = next(s for s in range(50) if design_for(s, 0.5) is None)
    a, b = scene_for(plain, art, (320, 240)), scene_for(plain, art, (320, 240), **{option: 0.5})
    assert np.array_equal(a.image, b.image) and getattr(b.style, field) is None
    drawn = next(s for s in range(50) if design_for(s, 0.5) is not None)
    a, b = scene_for(drawn, art, (320, 240)), scene_for(drawn, art, (320, 240), **{option: 0.5})
    assert getattr(b.style, field) == design_for(drawn, 0.5) and a.tiles == b.tiles
    return a.image, b.image
