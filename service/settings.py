"""The table service's settings: environment variables (``TABLE_*``) or a ``.env`` file.

One service runs beside one table; everything it writes (the ledger's SQLite
file, the snapshots) lives under ``data_dir`` unless a database URL says otherwise.
A parlour runs one service per table against one PostgreSQL (``TABLE_DB_URL``),
each with its own ``TABLE_TABLE_NAME`` and PIN; any of them (or one with
``TABLE_COUNTER_ONLY``) serves the counter's pages under the staff PIN
(docs/parlour.md).
"""

from __future__ import annotations

import secrets
from functools import cached_property
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .ledger.errors import LedgerError
from .ledger.text import MAX_TABLE_NAME, checked

DEMO_FRAMES = Path(__file__).parent / "demo" / "frames"
DEMO_HANDS = DEMO_FRAMES.parent / "hands.json"      # the hand record each demo frame shows
DEMO_REPEAT_S = 30.0                                # the demo's six tables at 4 s each come round in 24 s
ENV_FILE = ".env"                                   # the settings file, in the working folder
MIN_PIN = 4                                         # characters: a shorter PIN falls to the tries allowed


class Settings(BaseSettings):
    # allow_inf_nan: "inf" or "nan" is no number of days or seconds
    model_config = SettingsConfigDict(env_prefix="TABLE_", env_file=ENV_FILE, extra="ignore", populate_by_name=True,
                                      allow_inf_nan=False)

    table_name: str = Field("table 1", min_length=1, max_length=MAX_TABLE_NAME,
                            description="the table's name: shown on the tablet, kept with every session it "
                                        "starts; each table of a parlour has its own")
    pin: str = Field("", description="the table's PIN; empty: a random one is made at start and printed")
    staff_pin: str = Field("", description="the counter's PIN (staff only; not any table's PIN); empty: "
                                           "the counter's pages are off")
    counter_only: bool = Field(False, description="this service serves the counter alone: no table, no camera, "
                                                  "no reader; / goes to /counter")
    tablet_login_days: float = Field(30.0, gt=0, le=3650, description="a tablet's login lasts this long (a signed token "
                                                             "in its cookie, not the PIN)")
    staff_login_hours: float = Field(12.0, gt=0, le=8760, description="a staff login at the counter lasts this long")
    heartbeat_s: float = Field(10.0, gt=0, le=3600, description="how often the table tells the counter how it stands")
    timezone: str = Field("Asia/Tokyo", description="the parlour's time zone: days and months of the standings")
    day_starts_hour: int = Field(6, ge=0, le=23, description="a business day (営業日) starts at this hour: a night "
                                                            "that runs past midnight counts to the day it began")
    idle_minutes: float = Field(30.0, gt=0, le=7 * 1440, description="a table with no hand for this long shows as idle")
    data_dir: Path = Field(Path("data"), description="SQLite file and snapshots live here")
    db_url: str = Field("", validation_alias=AliasChoices("TABLE_DB_URL", "LEDGER_DB_URL"),
                        description="ledger database URL; empty: SQLite file in data_dir")
    camera: str = Field(str(DEMO_FRAMES),
                        description="USB index (0), rtsp:// or http:// URL, a video file, or a folder of images")
    camera_fps: float | None = Field(None, gt=0, le=60,
                                     description="frames per second read from a folder or file; empty: a folder "
                                                 "cycles one image every 4 s (a slideshow), a file plays at 2")
    camera_size: str = Field("1920x1080", pattern=r"^(\d{3,5}x\d{3,5})?$",
                             description="WIDTHxHEIGHT a USB camera is asked for (OpenCV opens one at 640x480 "
                                         "else); a live camera whose frames come smaller is said in the log; "
                                         "empty: as the camera gives")
    preview_fps: float = Field(4.0, gt=0, le=30, description="frames per second of the tablet's live preview "
                                                            "(the camera may give more: each is Wi-Fi)")
    preview_width: int = Field(960, ge=160, le=7680, description="the live preview's width in pixels (a wider "
                                                                "frame is scaled down; counts read it whole)")
    reader: str = Field("auto", description="'auto': the vision reader for the calibrated table (calibration), "
                                            "or for the demo table on the demo camera, else none; "
                                            "'module:factory' of another reader; empty: none installed")
    calibration: str = Field("", description="the calibrated table's name (python -m calibration fit, "
                                             "in CALIBRATION_DIR), read by the 'auto' reader")
    rules_dir: str = Field("", description="the parlour's house rule files (NAME.toml, docs/house-rules.md); "
                                           "empty: <data_dir>/rules")
    default_rule: str = Field("", description="the rule the new-session page offers first (a built-in or a house "
                                              "rule); empty: the first built-in")
    snapshot_keep_days: float = Field(7.0, gt=0, le=36500, description="a snapshot no logged hand names (a count never "
                                                             "confirmed) is deleted after this many days")
    snapshot_keep_logged_days: float = Field(0.0, ge=0, le=36500, description="a snapshot a logged hand names, and "
                                             "its photo labels, are deleted this many days after the hand was "
                                             "logged (a parlour's disk over a year); 0: kept for good")
    snapshot_prune_every_s: float = Field(6 * 3600.0, gt=0, le=7 * 86400, description="how often a running service deletes "
                                                                        "them (and once at start)")
    pin_tries: int = Field(10, ge=1, description="wrong PINs from one address within 10 minutes before it waits "
                                                 "(a tablet's stale cookie after a restart counts too: not too few)")
    pin_lock_s: float = Field(60.0, gt=0, le=86400, description="how long an address with too many wrong PINs waits (429)")
    learn_tiles: bool = Field(True, description="on Confirm of a count the vision reader read, its tiles' cuts, "
                                                "named as confirmed, join the table's tile set (vision.tileset) "
                                                "and the reader names tiles with the updated set")
    keep_photo_labels: bool = Field(True, description="on Confirm of a count, its image's tiles named as confirmed "
                                                      "are kept beside the snapshots (labels/<snapshot>.json, "
                                                      "vision/labels' format: service.photo_labels): a photo of the "
                                                      "hand's line from the seat, or the table camera frame's "
                                                      "confirmed zones with its calibration; for measuring the "
                                                      "detector on the parlour's own tiles")
    mend_reads: bool = Field(True, description="a hand the vision reader read one tile off a win is counted with "
                                               "that tile as the reader's next choice for it, and a gari read as "
                                               "no gari under the rule as its next gari kind, the players told "
                                               "which (service.mending); off: every tile as read, for the "
                                               "players to fix")
    share_tiles: bool = Field(True, description="on Confirm on the teach page, the table's taught tile set is "
                                                "kept in the parlour's database, so a sister table with the same "
                                                "tiles can take it on its own teach page (service.shared_tiles)")
    watch: bool = Field(True, description="the watcher: a win laid down and lying still is read over several frames "
                                          "and offered to the tablets by itself (needs the vision reader and a "
                                          "camera); the tablet switches it on and off too")
    watch_fps: float = Field(8.0, gt=0, le=30, description="looks per second at the camera's newest frame")
    watch_reveal_tiles: float = Field(1.5, gt=0, description="face-up tiles a hand zone must show for a row laid down")
    watch_still_share: float = Field(0.0005, gt=0, lt=1, description="share of the felt that may change between "
                                                                      "looks on a still table")
    watch_settle_s: float = Field(0.6, ge=0, description="the view still this long before a win is offered")
    watch_frames: int = Field(3, ge=1, le=10, description="frames read and voted per win")
    watch_win_tiles: int = Field(14, ge=1, description="a win's hand: concealed tiles plus three per meld")
    watch_clear_s: float = Field(1.0, ge=0, description="the winner's row gone this long re-arms the watcher")
    watch_repeat_s: float = Field(600.0, ge=0, description="a hand offered within this long is not offered again")
    unsure_score: float = Field(0.6, ge=0, le=1, description="read tiles less sure than this are marked on the "
                                                              "snapshot (the layout's warning threshold)")
    max_upload_bytes: int = Field(16 * 1024 * 1024, gt=0, description="larger uploads are refused (a phone's "
                                                                      "24 MP JPEG can pass 8 MB)")
    max_image_side: int = Field(4096, gt=0, description="larger uploads are refused, but a JPEG up to twice as "
                                                        "large (a 13 MP tablet's photo), read at half size")
    host: str = "0.0.0.0"
    port: int = Field(8000, ge=1, le=65535)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, zone: str) -> str:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):          # ValueError: a path-like key
            raise ValueError(f"unknown time zone {zone!r} (an IANA name such as Asia/Tokyo)") from None
        return zone

    @field_validator("table_name")
    @classmethod
    def _table_name_plain(cls, name: str) -> str:
        try:
            return checked(name, "the table's name", MAX_TABLE_NAME)
        except LedgerError as e:
            raise ValueError(str(e)) from None

    @model_validator(mode="after")
    def _pins_differ(self) -> "Settings":
        # at pin_tries wrong PINs a minute (pin_lock_s), 3 digits fall within 100 minutes, 4 within a day
        for name, pin, empty in (("TABLE_PIN", self.pin, "a random one is made"),
                                 ("TABLE_STAFF_PIN", self.staff_pin, "the counter is off")):
            if pin and len(pin) < MIN_PIN:
                raise ValueError(f"{name}: a PIN needs {MIN_PIN} characters or more (empty: {empty})")
        if self.staff_pin and self.staff_pin == self.pin:
            raise ValueError("TABLE_STAFF_PIN: the staff PIN must differ from the table's PIN (TABLE_PIN)")
        if self.counter_only and not self.staff_pin:
            raise ValueError("TABLE_COUNTER_ONLY: a counter needs its staff PIN (TABLE_STAFF_PIN)")
        return self

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
    def frame_size(self) -> tuple[int, int] | None:
        """``camera_size`` as (width, height), None when empty."""
        if not self.camera_size:
            return None
        w, h = self.camera_size.split("x")
        return int(w), int(h)

    @property
    def demo_camera(self) -> bool:
        """The camera is the demo's frames (their table is the demo table)."""
        return Path(self.camera).resolve() == DEMO_FRAMES.resolve()

    @property
    def watch_limits(self):
        """The watcher's trigger thresholds (service.watch.rule)."""
        from .watch.rule import Thresholds
        return Thresholds(reveal_tiles=self.watch_reveal_tiles, still_share=self.watch_still_share,
                          settle_s=self.watch_settle_s, frames=self.watch_frames, win_tiles=self.watch_win_tiles,
                          clear_s=self.watch_clear_s, repeat_s=self.repeat_s)

    @property
    def repeat_s(self) -> float:
        """``watch_repeat_s``; on the demo camera, unless set, one turn of its slideshow: a session
        opened after its tables were first offered (before any session) gets one within half a
        minute, not ten (a picture logged already is never offered again)."""
        if self.demo_camera and "watch_repeat_s" not in self.model_fields_set:
            return DEMO_REPEAT_S
        return self.watch_repeat_s

    @property
    def ledger_url(self) -> str:
        return self.db_url or f"sqlite:///{self.data_dir / 'ledger.sqlite3'}"

    @property
    def photo_labels_dir(self) -> Path:
        """Confirmed photos' labels: beside the snapshots they label."""
        return self.snapshot_dir.with_name("labels")

    @property
    def read_tally_path(self) -> Path:
        """How the reader read this table's last confirmed counts (service.read_tally)."""
        return self.data_dir / "reads.json"

    @property
    def snapshot_dir(self) -> Path:
        """Beside the SQLite file when there is one, else in data_dir."""
        url = self.ledger_url
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            return Path(url[len("sqlite:///"):]).parent / "snapshots"
        return self.data_dir / "snapshots"

    @property
    def house_rules_dir(self) -> Path:
        """Where the house rules live (TABLE_RULES_DIR, else the data folder's rules/)."""
        return Path(self.rules_dir) if self.rules_dir else self.data_dir / "rules"


def settings_error(e: ValidationError) -> str:
    """A refused setting in one line, named as it is set: ``TABLE_PORT: Input should be ... (got '-5')``."""
    first = e.errors()[0]
    if not first["loc"]:       # a check across settings: its message names them (and shows no PIN)
        return first["msg"].removeprefix("Value error, ")
    name = "TABLE_" + "_".join(str(p) for p in first["loc"]).upper() if first["loc"] else "settings"
    return f"{name}: {first['msg']} (got {first.get('input')!r})"
