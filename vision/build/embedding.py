"""Give a shipped classifier ONNX file a second output: ``embedding``, the pooled features before its
last layer (YOLOv8n-cls: the 1,280 values of the Flatten that feeds the linear head).

A table's tile set (``vision.tileset``) names a cut by the nearest enrolled prototype in this space,
so the classifier must expose it; the softmax stays the first output, so everything that reads
``output0`` is unchanged. Needs ``onnx`` (the ``train`` extra)::

    python -m vision.build.embedding models/tile-classifier.onnx models/oblique/tile-classifier.onnx
"""

from __future__ import annotations

import sys
from pathlib import Path

EMBEDDING = "embedding"


def linear_head(graph):
    """The classifier's last layer (its one Gemm node): input 0 is the pooled features, inputs 1 and
    2 its weight and bias."""
    return next(n for n in graph.node if n.op_type == "Gemm")


def pooled_width(graph) -> int:
    """How many pooled features feed the classifier's last layer (its weight's second side)."""
    head = linear_head(graph)
    return next(i for i in graph.initializer if i.name == head.input[1]).dims[1]


def add_embedding_output(path: Path) -> bool:
    """Add the ``embedding`` output to the classifier at ``path`` in place; False when it has one already."""
    import onnx

    model = onnx.load(str(path))
    graph = model.graph
    if any(o.name == EMBEDDING for o in graph.output):
        return False
    head = linear_head(graph)
    pooled = head.input[0]
    graph.node.append(onnx.helper.make_node("Identity", [pooled], [EMBEDDING], name="embedding_out"))
    graph.output.append(onnx.helper.make_tensor_value_info(EMBEDDING, onnx.TensorProto.FLOAT,
                                                           ["batch", pooled_width(graph)]))
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return True


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        print(arg, "embedding added" if add_embedding_output(Path(arg)) else "has an embedding already")
