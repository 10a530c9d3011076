"""The table service's settings: environment variables (``TABLE_*``) or a ``.env`` file.

One service runs beside one table; everything it writes (the ledger's SQLite
file, the snapshots) lives under ``data_dir`` unless a database URL says otherwise.
"""

from __future__ import annotations

import secrets
from functools import cached_property
from pathlib import Path

from pydantic import AliasChoices, Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

DEMO_FRAMES = Path(__file__).parent / "demo" / "frames"
DEMO_HANDS = DEMO_FRAMES.parent / "hands.json"      # the hand record each demo frame shows


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TABLE_", env_file=".env", extra="ignore")

    table_name: str = Field("table 1", description="shown on the tablet")
    pin: str = Field("", description="the table's PIN; empty: a random one is made at start and printed")
    data_dir: Path = Field(Path("data"), description="SQLite file and snapshots live here")
    db_url: str = Field("", validation_alias=AliasChoices("TABLE_DB_URL", "LEDGER_DB_URL"),
                        description="ledger database URL; empty: SQLite file in data_dir")
    camera: str = Field(str(DEMO_FRAMES),
                        description="USB index (0), rtsp:// or http:// URL, a video file, or a folder of images")
    camera_fps: float | None = Field(None, gt=0, le=60,
                                     description="frames per second read from a folder or file; empty: a folder "
                                                 "cycles one image every 4 s (a slideshow), a file plays at 2")
    reader: str = Field("auto", description="'auto': the vision reader for the calibrated table (calibration), "
                                            "or for the demo table on the demo camera, else none; "
                                            "'module:factory' of another reader; empty: none installed")
    calibration: str = Field("", description="the calibrated table's name (python -m calibration fit, "
                                             "in CALIBRATION_DIR), read by the 'auto' reader")
    snapshot_keep_days: float = Field(7.0, gt=0, description="a snapshot no logged hand names (a count never "
                                                             "confirmed) is deleted after this many days")
    snapshot_prune_every_s: float = Field(6 * 3600.0, gt=0, description="how often a running service deletes "
                                                                        "them (and once at start)")
    pin_tries: int = Field(10, ge=1, description="wrong PINs from one address within 10 minutes before it waits "
                                                 "(a tablet's stale cookie after a restart counts too: not too few)")
    pin_lock_s: float = Field(60.0, gt=0, description="how long an address with too many wrong PINs waits (429)")
    learn_tiles: bool = Field(True, description="on Confirm of a count the vision reader read, its tiles' cuts, "
                                                "named as confirmed, join the table's tile set (vision.tileset) "
                                                "and the reader names tiles with the updated set")
    max_upload_bytes: int = Field(8 * 1024 * 1024, gt=0)
    max_image_side: int = Field(4096, gt=0, description="larger uploads are refused")
    host: str = "0.0.0.0"
    port: int = Field(8000, ge=1, le=65535)

    @cached_property
    def table_pin(self) -> str:
        """The PIN in force: the configured one, or one made for this run."""
        return self.pin or f"{secrets.randbelow(10**6):06d}"

    @property
    def frame_rate(self) -> float:
        """The pace of a folder or file source (live cameras pace themselves)."""
        if self.camera_fps is not None:
            return self.camera_fps
        return 0.25 if Path(self.camera).is_dir() else 2.0

    @property
    def demo_camera(self) -> bool:
        """The camera is the demo's frames (their table is the demo table)."""
        return Path(self.camera).resolve() == DEMO_FRAMES.resolve()

    @property
    def ledger_url(self) -> str:
        return self.db_url or f"sqlite:///{self.data_dir / 'ledger.sqlite3'}"

    @property
    def snapshot_dir(self) -> Path:
        """Beside the SQLite file when there is one, else in data_dir."""
        url = self.ledger_url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            return Path(url[len("sqlite:///"):]).parent / "snapshots"
        return self.data_dir / "snapshots"


def settings_error(e: ValidationError) -> str:
    """A refused setting in one line, named as it is set: ``TABLE_PORT: Input should be ... (got '-5')``."""
    first = e.errors()[0]
    name = "TABLE_" + "_".join(str(p) for p in first["loc"]).upper() if first["loc"] else "settings"
    return f"{name}: {first['msg']} (got {first.get('input')!r})"
