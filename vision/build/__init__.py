"""What builds the detector's models, apart from what runs at the table: training both stages
(``train``), the box refiner's training (``refine_train``), weight soups (``soup``), warm starts
from shipped ONNX (``warmstart``) and the classifier's embedding output (``embedding``). The
synthetic data they learn from is ``vision.synth``. Needs the ``train`` extra (torch, ultralytics)
except where a module says otherwise; nothing here is imported at run time."""
