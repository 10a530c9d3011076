"""The classifier's last layer refitted on real tiles as well as rendered cuts (``vision.build.head``)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from vision.build.features import POOLED
from vision.build.head import HEAD, keep_refusals, main, put_head, refit, softmax
from vision.classifier import EMBEDDING, Classifier
from vision.detect import VIEWS
from vision.runtime import blob


MEANS = np.pad(np.random.default_rng(0).normal(0, 1, (4, 12)), ((0, 0), (0, 4)))


def two_designs(rng, n: int):
    """Four kinds on 16 features. Rendered cuts vary in the first 12 only. Real cuts of a kind look
    like the next kind there, and carry what tells them apart in the last 4, where the rendered never
    vary: as a real set's ink moves a crop's pooled features where the rendered art never went."""
    y = np.repeat(np.arange(4), n)
    rendered = MEANS[y] + np.pad(rng.normal(0, 0.3, (len(y), 12)), ((0, 0), (0, 4)))
    real = MEANS[(y + 1) % 4] + rng.normal(0, 0.3, (len(y), 16))
    real[:, 12:] += 2.0 * np.eye(4)[y]
    return y, rendered, real


def accuracy(w, b, x, y) -> float:
    return float(np.mean(np.argmax(x @ w.T + b, axis=1) == y))


def test_a_refit_with_real_cuts_names_real_ones_and_keeps_the_rendered():
    y, rendered, real = two_designs(np.random.default_rng(1), 100)
    _, _, real_test = two_designs(np.random.default_rng(2), 100)
    w0, b0 = refit(rendered, y, np.ones(len(y)), np.zeros((4, 16)), np.zeros(4), pull=0.0)
    assert accuracy(w0, b0, rendered, y) > 0.95
    assert accuracy(w0, b0, real_test, y) < 0.3                                # a design it never saw
    x = np.concatenate([rendered, real[::5]])
    labels = np.concatenate([y, y[::5]])
    weight = np.concatenate([np.full(len(y), 0.8 / len(y)), np.full(len(y[::5]), 0.2 / len(y[::5]))])
    w, b = refit(x, labels, weight, w0, b0)
    assert accuracy(w, b, real_test, y) > 0.9
    assert accuracy(w, b, rendered, y) > 0.95


def test_the_pull_keeps_the_refit_near_the_trained_weights():
    y, rendered, real = two_designs(np.random.default_rng(3), 50)
    w0, b0 = refit(rendered, y, np.ones(len(y)), np.zeros((4, 16)), np.zeros(4), pull=0.0)
    loose, _ = refit(real, y, np.ones(len(y)), w0, b0, pull=0.0)
    held, _ = refit(real, y, np.ones(len(y)), w0, b0, pull=1.0)
    assert np.linalg.norm(held - w0) < 0.5 * np.linalg.norm(loose - w0)


def test_boxes_on_nothing_are_refused_as_often_as_the_trained_layer_refused_them():
    # three classes, the last "none"; ten cuts of nothing, each a point on two features
    rng = np.random.default_rng(4)
    x = rng.normal(0, 1, (10, 2))
    w0 = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]])
    b0 = np.array([0.0, 0.0, 2.0])
    named_before = int(np.sum(np.argmax(x @ w0.T + b0, axis=1) != 2))
    w = w0 * 3                                                 # a refit sure of tiles everywhere
    b = np.array([0.0, 0.0, 0.5])
    assert int(np.sum(np.argmax(x @ w.T + b, axis=1) != 2)) > named_before
    raised = keep_refusals(x, w, b, w0, b0, none=2)
    assert int(np.sum(np.argmax(x @ w.T + raised, axis=1) != 2)) <= named_before
    assert np.array_equal(raised[:2], b[:2].astype(np.float32)) and raised[2] > b[2]
    assert np.array_equal(keep_refusals(x, w0, b0, w0, b0, none=2), b0.astype(np.float32))   # nothing to keep


def test_a_head_put_into_a_classifier_is_its_new_output_and_touches_nothing_else(tmp_path):
    pytest.importorskip("onnx")
    path = tmp_path / "classifier.onnx"
    shutil.copy(VIEWS["overhead"][1], path)
    rng = np.random.default_rng(3)
    cuts = [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(4)]
    before = Classifier(path)
    feed = {before.session.get_inputs()[0].name: blob(cuts)}
    emb0, pooled0 = before.session.run([EMBEDDING, POOLED], feed)
    w = rng.normal(0, 0.01, (len(before.class_names), pooled0.shape[1])).astype(np.float32)
    b = rng.normal(0, 1, len(before.class_names)).astype(np.float32)
    put_head(path, w, b, {"fit": "test"})
    after = Classifier(path)
    probs, emb, pooled = after.session.run(["output0", EMBEDDING, POOLED], feed)
    assert np.array_equal(emb, emb0) and np.array_equal(pooled, pooled0)
    assert np.allclose(probs, softmax(pooled.astype(np.float64) @ w.T + b), atol=1e-5)
    meta = after.session.get_modelmeta().custom_metadata_map
    assert json.loads(meta[HEAD]) == {"fit": "test"}


def test_a_file_refitted_once_is_refused_with_one_line(tmp_path, capsys):
    pytest.importorskip("onnx")
    path = tmp_path / "classifier.onnx"
    shutil.copy(VIEWS["overhead"][1], path)
    probe = Classifier(path)
    put_head(path, np.zeros((len(probe.class_names), 1280), np.float32), np.zeros(len(probe.class_names), np.float32),
             {"fit": "test"})
    assert main([str(path), "--view", "overhead"]) == 2
    err = capsys.readouterr().err
    assert "refitted already" in err and "Traceback" not in err
