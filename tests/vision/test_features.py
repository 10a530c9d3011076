"""What the build steps that read the classifier's pooled features share (``vision.build.features``):
their command line refuses a file that is no tile classifier with exit 2 and one line."""

from __future__ import annotations

import importlib

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
