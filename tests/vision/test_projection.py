"""The tile set's space: a linear discriminant fitted on real tiles, put into the classifier's
``embedding`` output next to the pooled features (``vision.build.projection``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.build.projection import BLEND, POOLED, add_projection, discriminant
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
    assert after > 0.99


@pytest.mark.parametrize("view", ["overhead", "oblique"])
def test_the_shipped_classifiers_embed_as_documented(view):
    classifier = Classifier(VIEWS[view][1])
    about = json.loads(classifier.session.get_modelmeta().custom_metadata_map["embedding"])
    assert about["blend"] == BLEND and about["dims"] > 0
    rng = np.random.default_rng(1)
    cuts = [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(3)]
    emb, pooled = classifier.session.run([EMBEDDING, POOLED], {classifier.session.get_inputs()[0].name: blob(cuts)})
    dims = about["dims"]
    assert emb.shape == (3, dims + pooled.shape[1])
    assert np.allclose(np.linalg.norm(emb[:, :dims], axis=1), np.sqrt(1 - BLEND), atol=1e-4)
    expected_tail = np.sqrt(BLEND) * pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    assert np.allclose(emb[:, dims:], expected_tail, atol=1e-5)


def test_a_projection_put_into_a_classifier_is_the_formula_and_replaces_the_last(tmp_path):
    pytest.importorskip("onnx")
    path = tmp_path / "classifier.onnx"
    shutil.copy(VIEWS["overhead"][1], path)
    rng = np.random.default_rng(2)
    cuts = [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(4)]
    for dims in (5, 9):                                 # the second replaces the first
        w = rng.normal(size=(1280, dims)).astype(np.float32)
        mean = rng.normal(size=1280).astype(np.float32) * 0.01
        add_projection(path, w, mean, 0.4, {"dims": dims, "blend": 0.4})
        classifier = Classifier(Path(path))
        outputs = [o.name for o in classifier.session.get_outputs()]
        assert outputs.count(POOLED) == 1 and outputs[:2] == ["output0", EMBEDDING]
        emb, pooled = classifier.session.run([EMBEDDING, POOLED], {classifier.session.get_inputs()[0].name: blob(cuts)})
        u = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
        z = (u - mean) @ w
        expected = np.concatenate([np.sqrt(0.6) * z / np.linalg.norm(z, axis=1, keepdims=True), np.sqrt(0.4) * u], 1)
        assert np.allclose(emb, expected, atol=1e-4)
