"""Tile detection: synthetic training data, the detector (ONNX on onnxruntime), and layout reading.

What runs at the table is this package's top level, each stage importable alone:
    classes    the 38 tile classes and their names in mpsz
    crop, classifier, detect, refine, runtime   locating and naming tiles (onnxruntime)
    tileset, teach                              a table's own tiles, taught and learnt
    layout, read, hand_photo                    a table after a win (or a photo of the hand), to the hand record
    evaluate                                    scoring the detector against labelled tiles

What builds models is apart; the reader never imports it (the demo camera renders with synth/):
    synth/     the tile art (``synth.art``, read from a path, never committed here) and rendered
               scenes with ground truth, for training and tests
    build/     training both stages, ONNX export, the tile set's space fitted on real tiles
"""
