"""The table file: one JSON file per table with everything the camera needs.

It lives in ``$CALIBRATION_DIR`` if set, else ``tables/`` in the user's data
folder (platformdirs, e.g. ``~/.local/share/toutenkou/tables``), named
``<table>.json``. It is written whole to a temporary file and renamed, so a
crash leaves the old file or the new one, never half of one.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .errors import CalibrationError
from .homography import Fit
from .lens import Lens
from .markers import MarkerLayout, default_layout
from .whitebalance import MAX_GAIN
from .zones import REMAKE, Zone, default_zones, zones_from_list, zones_to_list

ENV_DIR = "CALIBRATION_DIR"
FORMAT = 1
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def tables_dir() -> Path:
    """``$CALIBRATION_DIR``, else ``tables/`` in the user's data folder."""
    env = os.environ.get(ENV_DIR)
    if env:
        return Path(env)
    from platformdirs import user_data_dir
    return Path(user_data_dir("toutenkou", appauthor=False)) / "tables"


def table_path(name: str, folder: Path | None = None) -> Path:
    if not _NAME.match(name):
        raise CalibrationError(f"table name {name!r}: use letters, digits, '-', '_' or '.'")
    return (folder or tables_dir()) / f"{name}.json"


@dataclass
class TableFile:
    """One table: its markers, zones, camera settings, and the last good fit.

    ``homography`` maps image px (undistorted, when ``lens`` is set) to table mm.
    ``camera`` is free-form settings for whoever opens the camera (device,
    resolution, fixed exposure/focus/white balance), kept as given.
    ``white_balance_at``: when the gains were measured (the fit's time), None if not known."""
    name: str
    layout: MarkerLayout = field(default_factory=default_layout)
    zones: list[Zone] | None = None
    fit: Fit | None = None
    camera: dict = field(default_factory=dict)
    lens: Lens | None = None
    white_balance: tuple[float, float, float] | None = None
    white_balance_at: float | None = None

    def __post_init__(self):
        if self.zones is None:
            self.zones = default_zones(self.layout)

    def to_dict(self) -> dict:
        f = self.fit
        return {
            "format": FORMAT,
            "table": self.name,
            "markers": self.layout.to_dict(),
            "homography": None if f is None else {
                "H": np.round(f.H, 12).tolist(),
                "image_size": list(f.image_size),
                "source": f.source,
                "error_mm": round(f.error_mm, 4),
                "marker_ids": list(f.marker_ids),
                "last_good": _iso(f.made_at),
            },
            "camera": self.camera,
            "lens": None if self.lens is None else self.lens.to_dict(),
            "white_balance": None if self.white_balance is None else {
                "gains_bgr": [round(g, 5) for g in self.white_balance],
                **({} if self.white_balance_at is None else {"measured": _iso(self.white_balance_at)})},
            "zones": zones_to_list(self.zones),
        }

    @classmethod
    def from_dict(cls, d: dict, name: str | None = None, lens_checked: bool = True) -> "TableFile":
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise CalibrationError(f"table file: not a format-{FORMAT} table file")
        layout = MarkerLayout.from_dict(d.get("markers") or {})
        if d.get("zones") == []:
            raise CalibrationError(f"zones: none, so no hand is ever read ({REMAKE})")
        return cls(
            name=name or str(d.get("table", "")),
            layout=layout,
            zones=zones_from_list(d["zones"]) if d.get("zones") is not None else None,
            fit=_fit_from(d.get("homography")),
            camera=_camera_from(d.get("camera")),
            lens=Lens.from_dict(d["lens"], lens_checked) if d.get("lens") else None,
            white_balance=_gains_from(d.get("white_balance")),
            white_balance_at=_measured_from(d.get("white_balance")),
        )

    def with_fit(self, fit: Fit) -> "TableFile":
        return replace(self, fit=fit)


def load(name: str, folder: Path | None = None, missing_ok: bool = False, lens_checked: bool = True) -> TableFile:
    """The table file, or (``missing_ok``) a new one with the default layout and zones. ``lens_checked``
    False: a lens no camera has is loaded all the same (the lens command, which replaces or clears it)."""
    path = table_path(name, folder)
    if not path.exists():
        if missing_ok:
            return TableFile(name)
        raise CalibrationError(f"no table file {path} (run: python -m calibration fit FRAME --table {name})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise CalibrationError(f"{path}: not JSON ({e})") from None
    except RecursionError:
        raise CalibrationError(f"{path}: its JSON is nested too deeply to be a table file") from None
    try:
        return TableFile.from_dict(data, name, lens_checked)
    except CalibrationError as e:
        raise CalibrationError(f"{path}: {e}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:   # a shape no part's check foresaw
        raise CalibrationError(f"{path}: not a table file ({type(e).__name__}: {e})") from None


def save(table: TableFile, folder: Path | None = None) -> Path:
    path = table_path(table.name, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".json.{os.getpid()}.tmp")
    tmp.write_text(to_json(table.to_dict()), encoding="utf-8")
    os.replace(tmp, path)
    return path


def to_json(data: dict) -> str:
    """Indented JSON with each innermost list (a point, a matrix row) on one line,
    so the file stays short enough to edit by hand."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    flat = lambda m: "[" + ", ".join(v.strip() for v in m.group(1).split(",")) + "]"
    return re.sub(r"\[\s*([^\[\]{}\"]+?)\s*\]", flat, text) + "\n"


def list_tables(folder: Path | None = None) -> list[str]:
    folder = folder or tables_dir()
    return sorted(p.stem for p in folder.glob("*.json")) if folder.is_dir() else []


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat(timespec="seconds")


def _fit_from(d) -> Fit | None:
    if not d:
        return None
    try:
        H = np.array(d["H"], np.float64)
        if H.shape != (3, 3) or not np.isfinite(H).all() or abs(np.linalg.det(H)) < 1e-15:
            raise ValueError("H must be an invertible 3x3 matrix")
        made = datetime.fromisoformat(d["last_good"]).timestamp() if d.get("last_good") else time.time()
        given = d["image_size"]
        if not isinstance(given, (list, tuple)) or len(given) != 2:      # "960x720" was read as 9x6
            raise ValueError(f"image_size must be [width, height] in px, not {given!r:.40}")
        size = (int(given[0]), int(given[1]))
        if min(size) < 1:
            raise ValueError(f"image_size must be two sizes of 1 px or more, not {list(size)}")
        return Fit(H=H, image_size=size,
                   source=str(d.get("source", "markers")), error_mm=float(d.get("error_mm", 0.0)),
                   marker_ids=tuple(int(i) for i in d.get("marker_ids", ())), inliers=0,
                   made_at=made, fresh=False)
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise CalibrationError(f"table file: bad homography ({e})") from None


def _camera_from(d) -> dict:
    if d is not None and not isinstance(d, dict):
        raise CalibrationError("table file: camera must be an object")
    return dict(d or {})


def _measured_from(d) -> float | None:
    if not d or d.get("measured") is None:
        return None
    try:
        return datetime.fromisoformat(d["measured"]).timestamp()
    except (TypeError, ValueError):
        raise CalibrationError("table file: white_balance.measured must be a time like "
                               "2025-01-31T18:00:00+00:00, or null") from None


def _gains_from(d):
    if not d:
        return None
    try:
        g = tuple(float(x) for x in d["gains_bgr"])
        if len(g) != 3 or not all(1 / MAX_GAIN <= x <= MAX_GAIN for x in g):    # as a fit refuses them
            raise ValueError
        return g
    except (KeyError, TypeError, ValueError):
        raise CalibrationError(f"table file: white_balance.gains_bgr must be three numbers from "
                               f"{1 / MAX_GAIN:g} to {MAX_GAIN:g}") from None
