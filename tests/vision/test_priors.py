"""Each kind's prior for a table's tile set (vision/build/priors.py): what a kind looks like across
makers, shipped beside each classifier and used only by the classifier it was made on."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from vision.build.priors import main, write_priors
from vision.classes import REDS
from vision.classifier import Classifier, file_id, priors_path
from vision.detect import VIEWS


@pytest.mark.parametrize("view", ["overhead", "oblique"])
def test_the_shipped_classifiers_carry_the_priors_of_every_kind_a_maker_draws(view):
    # the 34 kinds of the real tiles' fit but 白, whose common look is any blank thing's (a pale
    # back's); red fives and backs are no fitted maker's crops: none
    classifier = Classifier(VIEWS[view][1])
    priors = classifier.priors
    assert len(priors) == 33
    assert not set(priors) & {*REDS, "back", "5z"}
    width = classifier.read([np.full((64, 64, 3), 200, np.uint8)])[1].shape[1]
    for up, down in priors.values():
        assert up.shape == down.shape == (width,)
        assert np.linalg.norm(up) == pytest.approx(1, abs=1e-4)
        assert np.linalg.norm(down) == pytest.approx(1, abs=1e-4)


def test_priors_made_on_another_classifier_are_not_used(tmp_path):
    model = tmp_path / "tile-classifier.onnx"
    shutil.copy(VIEWS["overhead"][1], model)
    assert Classifier(model).priors == {}                           # none beside it
    shutil.copy(priors_path(VIEWS["overhead"][1]), priors_path(model))
    assert len(Classifier(model).priors) == 33                      # the same file's: used
    with np.load(priors_path(model)) as z:
        kept = {k: z[k] for k in z.files}
    assert str(kept["classifier"]) == file_id(model)
    np.savez_compressed(priors_path(model), **{**kept, "classifier": np.array("0" * 16)})
    assert Classifier(model).priors == {}                           # another classifier's: not


def test_the_shipped_priors_are_what_the_build_makes_of_the_real_tiles(tmp_path):
    from vision.build.real_tiles import present

    if not present():
        pytest.skip("../shared/real-tiles/camerash is missing")
    model = tmp_path / "tile-classifier.onnx"
    shutil.copy(VIEWS["oblique"][1], model)
    assert main([str(model)]) == 0
    made, shipped = Classifier(model).priors, Classifier(VIEWS["oblique"][1]).priors
    assert sorted(made) == sorted(shipped)
    for kind in made:
        assert np.allclose(made[kind][0], shipped[kind][0], atol=1e-4)
        assert np.allclose(made[kind][1], shipped[kind][1], atol=1e-4)


def test_the_priors_alone_name_most_real_tiles_of_makers_they_never_saw():
    # camerash's held-out third (never in the priors' fit), the kinds that have a prior: each crop,
    # as a set sees it, lies nearest its own kind's prior (either way up) far more often than not
    from vision.build.real_tiles import camerash, held_out, present
    from vision.crop import with_margin
    from vision.tileset import embeddings, stored

    if not present():
        pytest.skip("../shared/real-tiles/camerash is missing")
    classifier = Classifier(VIEWS["oblique"][1])
    kinds = sorted(classifier.priors)
    up = np.array([classifier.priors[k][0] for k in kinds])
    down = np.array([classifier.priors[k][1] for k in kinds])
    crops = [(name, kind, stored(with_margin(image))) for name, kind, image in camerash()
             if held_out(name) and kind in classifier.priors]
    vectors = embeddings([(name, image) for name, _, image in crops], classifier)
    right = 0
    for name, kind, _ in crops:
        e = vectors[name][0]
        right += kinds[int(np.maximum(up @ e, down @ e).argmax())] == kind
    assert right >= 0.85 * len(crops)


def test_the_build_refuses_a_file_that_is_no_classifier_with_one_line(tmp_path, capsys):
    bad = tmp_path / "tile-classifier.onnx"
    bad.write_bytes(b"not a model")
    assert main([str(bad)]) == 2
    err = capsys.readouterr().err
    assert "not a tile classifier" in err and "Traceback" not in err
    assert not priors_path(bad).exists()


def test_the_build_writes_the_classifiers_id_beside_its_priors(tmp_path):
    from vision.build.real_tiles import present

    if not present():
        pytest.skip("../shared/real-tiles/camerash is missing")
    model = tmp_path / "tile-classifier.onnx"
    shutil.copy(VIEWS["overhead"][1], model)
    path = write_priors(model)
    with np.load(path) as z:
        assert str(z["classifier"]) == file_id(model)
        assert z["up"].shape == z["down"].shape == (33, Classifier(model).priors["1p"][0].shape[0])
