"""The tile set's space: a linear discriminant fitted on real tiles, put into the classifier's
``embedding`` output next to its features, the pooled features beside an earlier stage's map
(``vision.build.projection``)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from vision.build.projection import BLEND, FEATURES, POOLED, add_projection, discriminant
from vision.classifier import EMBEDDING, Classifier
from vision.detect import VIEWS
from vision.runtime import blob


def nearest_mean_accuracy(x: np.ndarray, y: np.ndarray) -> float:
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    classes = sorted(set(y))
    means = np.stack([x[y == c].mean(axis=0) for c in classes])
    means /= np.linalg.norm(means, axis=1, keepdims=True)
    named = np.array(classes)[np.argmax(x @ means.T, axis=1)]
    return float(np.mean(named == y))


def test_the_discriminant_keeps_what_tells_kinds_apart_and_drops_what_a_design_changes():
    # four kinds told apart by small moves on two axes; the "design" moves every crop far along
    # twenty others, as a tile set's ink and glyphs move a real crop's features
    rng = np.random.default_rng(0)
    kinds = np.repeat(np.arange(4), 200)
    signal = np.stack([kinds % 2, kinds // 2], axis=1) * 0.6 - 0.3 + rng.normal(0, 0.05, (len(kinds), 2))
    design = rng.normal(0, 1.0, (len(kinds), 20))
    x = np.concatenate([signal, design, np.full((len(kinds), 1), 3.0)], axis=1)
    labels = [str(k) for k in kinds]
    w, mean = discriminant(x, labels)
    assert w.shape == (23, 3)                          # kinds - 1 directions
    unit = x / np.linalg.norm(x, axis=1, keepdims=True)
    before = nearest_mean_accuracy(x, np.array(labels))
    after = nearest_mean_accuracy((unit - mean) @ w, np.array(labels))
    assert before < 0.6
    assert after > 0.95                                # the shrunk scatter (REGULARISE) keeps a little of the design


def test_a_discriminant_fitted_in_principal_directions_is_folded_back_onto_the_whole_features():
    # the same four kinds, the fit made in the first ten principal directions: W maps all 23
    # values, and the kinds still come apart
    rng = np.random.default_rng(3)
    kinds = np.repeat(np.arange(4), 200)
    signal = np.stack([kinds % 2, kinds // 2], axis=1) * 0.6 - 0.3 + rng.normal(0, 0.05, (len(kinds), 2))
    x = np.concatenate([signal, rng.normal(0, 0.1, (len(kinds), 20)), np.full((len(kinds), 1), 3.0)], axis=1)
    labels = [str(k) for k in kinds]
    w, mean = discriminant(x, labels, principal=10)
    assert w.shape == (23, 3) and mean.shape == (23,)
    unit = x / np.linalg.norm(x, axis=1, keepdims=True)
    z = (unit - mean) @ w
    assert nearest_mean_accuracy(z, np.array(labels)) > 0.99
    assert np.allclose(z.mean(axis=0), 0, atol=1e-4)      # centred on the fitted features, as unfolded
    w_all, _ = discriminant(x, labels, principal=23)      # as many as the features: no folding
    assert w_all.shape == (23, 3)


@pytest.mark.parametrize("view", ["overhead", "oblique"])
def test_the_shipped_classifiers_embed_as_documented(view):
    classifier = Classifier(VIEWS[view][1])
    about = json.loads(classifier.session.get_modelmeta().custom_metadata_map["embedding"])
    assert about["blend"] == BLEND and about["dims"] > 0
    rng = np.random.default_rng(1)
    cuts = [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(3)]
    emb, pooled, feats = classifier.session.run([EMBEDDING, POOLED, FEATURES],
                                                {classifier.session.get_inputs()[0].name: blob(cuts)})
    dims = about["dims"]
    assert emb.shape == (3, dims + feats.shape[1]) and feats.shape[1] > pooled.shape[1]
    # the features: the unit pooled features, then the unit map of an earlier stage
    assert np.allclose(feats[:, :pooled.shape[1]], pooled / np.linalg.norm(pooled, axis=1, keepdims=True), atol=1e-5)
    assert np.allclose(np.linalg.norm(feats[:, pooled.shape[1]:], axis=1), 1, atol=1e-4)
    assert np.allclose(np.linalg.norm(emb[:, :dims], axis=1), np.sqrt(1 - BLEND), atol=1e-4)
    expected_tail = np.sqrt(BLEND) * feats / np.linalg.norm(feats, axis=1, keepdims=True)
    assert np.allclose(emb[:, dims:], expected_tail, atol=1e-5)


def test_a_projection_put_into_a_classifier_is_the_formula_and_replaces_the_last(tmp_path):
    pytest.importorskip("onnx")
    path = tmp_path / "classifier.onnx"
    shutil.copy(VIEWS["overhead"][1], path)
    rng = np.random.default_rng(2)
    cuts = [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(4)]
    width = Classifier(Path(path)).outputs(cuts[:1], [FEATURES])[0].shape[1]
    for dims in (5, 9):                                 # the second replaces the first
        w = rng.normal(size=(width, dims)).astype(np.float32)
        mean = rng.normal(size=width).astype(np.float32) * 0.01
        add_projection(path, w, mean, 0.4, {"dims": dims, "blend": 0.4})
        classifier = Classifier(Path(path))
        outputs = [o.name for o in classifier.session.get_outputs()]
        assert outputs == ["output0", EMBEDDING, POOLED, FEATURES]
        emb, feats = classifier.session.run([EMBEDDING, FEATURES], {classifier.session.get_inputs()[0].name: blob(cuts)})
        u = feats / np.linalg.norm(feats, axis=1, keepdims=True)
        z = (u - mean) @ w
        expected = np.concatenate([np.sqrt(0.6) * z / np.linalg.norm(z, axis=1, keepdims=True), np.sqrt(0.4) * u], 1)
        assert np.allclose(emb, expected, atol=1e-4)


def test_the_fit_refuses_a_classifier_without_the_stage_map_it_reads_with_one_line(tmp_path, capsys):
    onnx = pytest.importorskip("onnx")
    from vision.build.projection import STAGES, main

    model = onnx.load(str(VIEWS["overhead"][1]))
    for n in model.graph.node:                         # a classifier exported under other names
        if n.name == f"/model.{STAGES[0]}/cv2/conv/Conv":
            n.name = "renamed"
    path = tmp_path / "classifier.onnx"
    onnx.save(model, str(path))
    assert main([str(path), "--view", "overhead"]) == 2
    err = capsys.readouterr().err
    assert f"no stage-{STAGES[0]} map" in err and "Traceback" not in err


def test_the_fit_without_onnx_installed_says_which_extra_it_needs(monkeypatch, capsys):
    from vision.build.projection import main

    monkeypatch.setitem(sys.modules, "onnx", None)    # as in the runtime install: no train extra
    assert main([str(VIEWS["overhead"][1]), "--view", "overhead"]) == 2
    err = capsys.readouterr().err
    assert "needs onnx" in err and ".[train]" in err and "Traceback" not in err


@pytest.mark.parametrize("view", ["overhead", "oblique"])
def test_the_shipped_classifiers_place_a_tile_in_grey_where_the_tile_lies(view):
    # makers ink a kind their own way (a 7p red above or green above): the space was fitted with
    # each real crop also in grey, its own kind still, so a tile's grey copy lies by it in the
    # discriminant's part (held-out crops, never fitted on; before the grey copies joined the
    # fit: 0.91 overhead and 0.95 oblique on average)
    from vision.build.features import in_grey
    from vision.build.real_tiles import camerash, held_out, present
    from vision.crop import with_margin
    from vision.tileset import square_cut

    if not present():
        pytest.skip("../shared/real-tiles/camerash is missing")
    classifier = Classifier(VIEWS[view][1])
    about = json.loads(classifier.session.get_modelmeta().custom_metadata_map["embedding"])
    assert about["in_grey"] is True
    dims = about["dims"]
    cuts = [square_cut(with_margin(image)) for name, _, image in camerash() if held_out(name)]
    own = classifier.read(cuts)[1][:, :dims]
    grey = classifier.read([in_grey(c) for c in cuts])[1][:, :dims]
    cosine = (own * grey).sum(axis=1) / np.linalg.norm(own, axis=1) / np.linalg.norm(grey, axis=1)
    assert cosine.mean() >= 0.96
