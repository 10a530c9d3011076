"""Character tiles in other typefaces: the manzu and the honours drawn as other sets cut them."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from vision.synth.fonts import FontDesign, available, draws, font_glyph
from vision.synth.tile import FH, FW, face_image, random_style

from share_fixtures import share_leaves_other_scenes


@pytest.fixture(scope="module")
def fonts():
    found = available()
    if not found:
        pytest.skip("no CJK font or no Pillow here (vision/synth/fonts.py names the Debian packages)")
    return found


def _design(fonts, k=0, **kw) -> FontDesign:
    font, index = fonts[k % len(fonts)]
    return FontDesign(font, index, **kw)


def _red(g: np.ndarray) -> np.ndarray:
    bgr, a = g[..., :3], g[..., 3] > 0.5
    return a & (bgr[..., 2] > bgr[..., 1] + 0.3) & (bgr[..., 2] > bgr[..., 0] + 0.3)


def _inked(g: np.ndarray) -> np.ndarray:
    return g[..., 3] > 0.5


def test_a_font_draws_the_characters_and_leaves_circles_and_bamboos_to_the_art(art, fonts):
    style = random_style(np.random.default_rng(0))
    typed = replace(style, font=_design(fonts))
    for cls in ("3p", "7s", "0p", "back"):
        a, b = np.random.default_rng(1), np.random.default_rng(1)
        assert not draws(cls)
        assert np.array_equal(face_image(art, cls, style, 60, a), face_image(art, cls, typed, 60, b))
    for cls in ("3m", "1z", "7z"):
        assert draws(cls)
        a, b = np.random.default_rng(1), np.random.default_rng(1)
        assert not np.allclose(face_image(art, cls, style, 60, a), face_image(art, cls, typed, 60, b), atol=0.05)


def test_a_manzu_tile_is_its_numeral_over_a_red_wan(fonts):
    """The numeral in the upper part in ink, 萬 below it in red; each numeral its own shape."""
    design = _design(fonts)
    top, bottom = slice(0, int(0.45 * FH)), slice(int(0.47 * FH), FH)
    glyphs = {n: font_glyph(f"{n}m", design, 0, FW, FH) for n in range(1, 10)}
    for g in glyphs.values():
        assert _inked(g[top]).sum() > 0 and _red(g[top]).sum() < 0.1 * _inked(g[top]).sum()
        assert _red(g[bottom]).sum() > 0.8 * _inked(g[bottom]).sum() > 0
    masks = [_inked(g[top]) for g in glyphs.values()]
    assert all(not np.array_equal(masks[i], masks[j]) for i in range(9) for j in range(i + 1, 9))


def test_a_red_five_is_red_in_every_typeface_and_a_plain_five_is_not(fonts):
    top = slice(0, int(0.45 * FH))
    for k in range(len(fonts)):
        design = _design(fonts, k)
        red, plain = font_glyph("0m", design, 0, FW, FH), font_glyph("5m", design, 0, FW, FH)
        assert np.array_equal(_inked(red), _inked(plain))                  # the same 五萬
        assert _red(red[top]).sum() > 0.8 * _inked(red[top]).sum()
        assert _red(plain[top]).sum() < 0.1 * _inked(plain[top]).sum()


def test_the_dragons_keep_their_colours_and_white_is_blank_or_a_frame(fonts):
    for k in range(len(fonts)):
        design = _design(fonts, k)
        chun, hatsu = font_glyph("7z", design, 0, FW, FH), font_glyph("6z", design, 0, FW, FH)
        assert _red(chun).sum() > 0.8 * _inked(chun).sum() > 0
        ink = hatsu[..., :3][_inked(hatsu)]
        assert len(ink) and (ink[:, 1] > ink[:, 2] + 0.2).mean() > 0.8      # green
        assert not _inked(font_glyph("5z", design, 0, FW, FH)).any()
        frame = font_glyph("5z", replace(design, white_frame=True), 0, FW, FH)
        ink = frame[..., :3][_inked(frame)]
        assert len(ink) and (ink[:, 0] > ink[:, 2] + 0.3).mean() > 0.8       # blue
        assert not _inked(frame)[FH // 3: 2 * FH // 3, FW // 3: 2 * FW // 3].any()   # a frame, not a block


def test_a_corner_index_is_printed_only_where_the_set_prints_it(fonts):
    corner = (slice(0, int(0.16 * FH)), slice(0, int(0.18 * FW)))
    for cls in ("3m", "2z"):
        plain = font_glyph(cls, _design(fonts), 0, FW, FH)
        indexed = font_glyph(cls, _design(fonts, corner_index=True), 0, FW, FH)
        assert _inked(indexed[corner]).sum() > 20 and _inked(indexed[corner]).sum() > _inked(plain[corner]).sum()


def test_bolder_strokes_ink_more_of_the_face(fonts):
    design = _design(fonts)
    thin, normal, bold = (_inked(font_glyph("1z", design, s, FW, FH)).sum() for s in (-1, 0, 1))
    assert thin < normal < bold


def test_the_share_of_fonts_leaves_other_scenes_as_they_were(art, fonts):
    from vision.synth.dataset import font_for
    share_leaves_other_scenes(art, font_for, "fonts", "font")
    assert len({font_for(s, 1.0).font for s in range(50)}) == len(fonts)


def test_the_cli_refuses_a_share_of_fonts_out_of_range(tmp_path):
    r = subprocess.run([sys.executable, "-m", "vision", "train", "--data", str(tmp_path), "--runs", str(tmp_path),
                        "--stage", "data", "--fonts", "1.5"], capture_output=True, text=True)
    assert r.returncode == 2 and "--fonts must be a share from 0 to 1" in r.stderr
    assert "Traceback" not in r.stderr
