"""What builds the detector's models, apart from what runs at the table: training both stages
(``train``), the box refiner's training (``refine_train``), weight soups (``soup``), warm starts
from shipped ONNX (``warmstart``), the classifier's embedding output (``embedding``), the tile
set's space (``projection``) and the last layer refitted on real tiles (``head``), both fitted
on ``features`` (the real and rendered cuts, and their pooled features), and real tiles' crops as
classifier cuts (``real_cls``). The
synthetic data they learn from is ``vision.synth``. Needs the ``train`` extra (torch, ultralytics)
except where a module says otherwise; nothing here is imported at run time."""
