"""Tile detection: synthetic training data, the detector (ONNX on onnxruntime), and layout reading.

Stages, each importable alone:
    classes    the 38 tile classes and their names in mpsz
    art        the public-domain tile art, read from a path (never committed here)
    synth/     rendered table scenes with ground truth, for training and tests
"""
