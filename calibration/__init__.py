"""Camera-to-table geometry: rim markers, the homography to the table plane,
zones, white balance, optional lens calibration, and the per-table file.

One module per stage; data flows one way (nothing here imports vision/ or
service/). See docs/calibration.md.
"""

from .errors import CalibrationError, NoHomography
from .homography import Detection, Fit, detect_markers, fit_homography, image_to_table, rectify, table_to_image
from .lens import Lens
from .markers import MarkerLayout, MarkerPlace, default_layout
from .store import TableFile, load, save, tables_dir
from .tracker import TAP_ORDER, Tracker
from .whitebalance import apply_gains, gains_from_frame
from .zones import Zone, default_zones, zone_at

__all__ = [
    "CalibrationError", "NoHomography", "Detection", "Fit", "detect_markers", "fit_homography",
    "image_to_table", "rectify", "table_to_image", "Lens", "MarkerLayout", "MarkerPlace",
    "default_layout", "TableFile", "load", "save", "tables_dir", "TAP_ORDER", "Tracker",
    "apply_gains", "gains_from_frame", "Zone", "default_zones", "zone_at",
]
