"""What the build steps that read the classifier's pooled features share (``vision.build.features``):
their command line refuses a file that is no tile classifier with exit 2 and one line."""

from __future__ import annotations

import importlib

import numpy as np
import pytest


@pytest.mark.parametrize("step", ["vision.build.projection", "vision.build.head"])
@pytest.mark.parametrize("content, says", [(None, "model file not found"), (b"not a model", "not a tile classifier")])
def test_a_build_step_refuses_a_file_that_is_no_classifier_with_one_line(tmp_path, capsys, step, content, says):
    main = importlib.import_module(step).main
    path = tmp_path / "classifier.onnx"
    if content is not None:
        path.write_bytes(content)
    assert main([str(path), "--view", "overhead"]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_cut_in_other_colours_is_the_same_tile_in_grey_and_with_red_and_green_swapped():
    from vision.build.features import in_other_colours

    rng = np.random.default_rng(4)
    cut = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)     # BGR, as OpenCV reads it
    grey, swapped = in_other_colours(cut)
    assert grey.shape == swapped.shape == cut.shape
    assert (grey[..., 0] == grey[..., 1]).all() and (grey[..., 1] == grey[..., 2]).all()
    assert (swapped[..., 0] == cut[..., 0]).all()               # blue kept
    assert (swapped[..., 1] == cut[..., 2]).all() and (swapped[..., 2] == cut[..., 1]).all()


def test_the_real_cuts_in_other_colours_keep_their_kind_upright_and_upside_down():
    from vision.build.features import real_cuts
    from vision.build.real_tiles import present

    if not present():
        pytest.skip("../shared/real-tiles/camerash is missing")
    cuts, labels = real_cuts()
    coloured, coloured_labels = real_cuts(colours=True)
    assert len(coloured) == 3 * len(cuts)
    # each crop: itself, grey, swapped; each of them upright then upside down
    assert coloured_labels[:6] == labels[:2] * 3
    assert (coloured[0] == cuts[0]).all() and (coloured[1] == cuts[1]).all()
    grey = coloured[2]
    assert (grey[..., 0] == grey[..., 2]).all() and not (cuts[0][..., 0] == cuts[0][..., 2]).all()
