"""Circles and bamboos as other makers draw them: a 6p is six circles however they are drawn."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.synth.suits import CIRCLES, STICKS, SuitDesign, draws, random_suits, suit_glyph
from vision.synth.tile import FH, FW, face_image, random_style

from share_fixtures import share_leaves_other_scenes

# the designs at the ends of what random_suits draws: the largest circles packed tightest, the smallest spread
EXTREMES = [SuitDesign(circle=c, stick=s, size=size, spread=spread)
            for c, s in zip(CIRCLES, STICKS * 2) for size, spread in ((1.15, 0.85), (0.85, 1.08), (1.0, 1.0))]


def _inked(g: np.ndarray) -> np.ndarray:
    return (g[..., 3] > 0.5).astype(np.uint8)


def _red(g: np.ndarray) -> np.ndarray:
    bgr = g[..., :3]
    return (g[..., 3] > 0.5) & (bgr[..., 2] > bgr[..., 1] + 0.3) & (bgr[..., 2] > bgr[..., 0] + 0.3)


def _marks(mask: np.ndarray, close: int = 0) -> int:
    """How many separate marks a mask holds: its outer outlines, after closing gaps of ``close`` px."""
    if close:
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((close, close), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return sum(cv2.contourArea(c) > 20 for c in contours)


def test_a_design_draws_circles_and_bamboos_and_leaves_characters_honours_and_the_bird_to_the_art(art):
    style = random_style(np.random.default_rng(0))
    drawn = replace(style, suits=random_suits(np.random.default_rng(1)))
    for cls in ("3m", "1z", "5z", "1s", "back"):
        assert not draws(cls)
        a, b = np.random.default_rng(1), np.random.default_rng(1)
        assert np.array_equal(face_image(art, cls, style, 60, a), face_image(art, cls, drawn, 60, b))
    for cls in ("1p", "6p", "0p", "2s", "8s", "0s"):
        assert draws(cls)
        a, b = np.random.default_rng(1), np.random.default_rng(1)
        assert not np.allclose(face_image(art, cls, style, 60, a), face_image(art, cls, drawn, 60, b), atol=0.05)
    with pytest.raises(ValueError):
        suit_glyph("1s", SuitDesign(), 0, FW, FH)


@pytest.mark.parametrize("design", EXTREMES, ids=lambda d: f"{d.circle}-{d.size}-{d.spread}")
def test_each_circles_tile_shows_its_number_of_circles_none_touching(design):
    for n in range(1, 10):
        assert _marks(_inked(suit_glyph(f"{n}p", design, 0, FW, FH))) == n, f"{n}p"
    assert _marks(_inked(suit_glyph("0p", design, 0, FW, FH))) == 5


@pytest.mark.parametrize("design", EXTREMES, ids=lambda d: f"{d.stick}-{d.size}-{d.spread}")
def test_each_bamboo_tile_shows_its_number_of_sticks(design):
    """A stick's nodes and middle line part its ink; closed over them, each stick is one mark. The 8s's
    slanted sticks meet in its M and W, so it is told by its slants' ink between its columns."""
    for n in (2, 3, 4, 5, 6, 7, 9):
        assert _marks(_inked(suit_glyph(f"{n}s", design, 0, FW, FH)), close=7) == n, f"{n}s"
    eight, four = _inked(suit_glyph("8s", design, 0, FW, FH)), _inked(suit_glyph("4s", design, 0, FW, FH))
    middle = (slice(int(0.1 * FH), int(0.45 * FH)), slice(int(0.45 * FW), int(0.55 * FW)))
    assert eight[middle].sum() > 0 and four[middle].sum() == 0    # the M's slants reach in where a 4s leaves a gap


def test_a_red_five_is_red_all_over_and_a_plain_five_only_at_its_heart():
    for design in EXTREMES:
        for suit in "ps":
            red, plain = suit_glyph(f"0{suit}", design, 0, FW, FH), suit_glyph(f"5{suit}", design, 0, FW, FH)
            assert _red(red).sum() > 0.8 * _inked(red).sum()
            assert 0 < _red(plain).sum() < 0.4 * _inked(plain).sum()
            assert not _red(suit_glyph(f"5{suit}", replace(design, accent=False), 0, FW, FH)).any()


def test_a_six_of_circles_may_print_its_top_pair_in_another_ink():
    design = SuitDesign(pin_ink=(0.08, 0.08, 0.08), pin_top=(0.15, 0.5, 0.1))
    g = suit_glyph("6p", design, 0, FW, FH)
    top, bottom = g[: int(0.33 * FH)], g[int(0.4 * FH):]
    ink = top[..., :3][top[..., 3] > 0.5]
    assert len(ink) and (ink[:, 1] > ink[:, 2] + 0.2).mean() > 0.8                 # green above
    assert _red(bottom).sum() > 0.8 * _inked(bottom).sum()                          # red below


def test_bolder_strokes_ink_more_of_the_face():
    thin, normal, bold = (_inked(suit_glyph("6p", SuitDesign(circle="rings"), s, FW, FH)).sum() for s in (-1, 0, 1))
    assert thin < normal < bold


def test_the_share_of_suit_designs_leaves_other_scenes_as_they_were(art):
    from vision.synth.dataset import suits_for
    without, drawn = share_leaves_other_scenes(art, suits_for, "suits", "suits")
    assert not np.array_equal(without, drawn)                               # its circles and bamboos
    assert len({suits_for(s, 1.0).circle for s in range(50)}) == len(CIRCLES)

