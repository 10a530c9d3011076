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


def test_a_cut_in_grey_keeps_its_shape_and_light_without_its_colour():
    from vision.build.features import in_grey

    rng = np.random.default_rng(4)
    cut = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)     # BGR, as OpenCV reads it
    grey = in_grey(cut)
    assert grey.shape == cut.shape and grey.dtype == np.uint8
    assert (grey[..., 0] == grey[..., 1]).all() and (grey[..., 1] == grey[..., 2]).all()
    # its light: the weighted mean of the channels (green most), not one channel alone
    luma = 0.114 * cut[..., 0] + 0.587 * cut[..., 1] + 0.299 * cut[..., 2]
    assert np.abs(grey[..., 0] - luma).max() <= 1


def test_the_real_cuts_in_grey_too_keep_their_kind_upright_and_upside_down():
    from vision.build.features import real_cuts
    from vision.build.real_tiles import present

    if not present():
        pytest.skip("../shared/real-tiles/camerash is missing")
    cuts, labels = real_cuts()
    both, both_labels = real_cuts(grey=True)
    assert len(both) == 2 * len(cuts)
    # each crop: itself, then in grey; each of them upright then upside down
    assert both_labels[:4] == labels[:2] * 2
    assert (both[0] == cuts[0]).all() and (both[1] == cuts[1]).all()
    grey = both[2]
    assert (grey[..., 0] == grey[..., 2]).all() and not (cuts[0][..., 0] == cuts[0][..., 2]).all()
