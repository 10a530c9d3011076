"""What the service tests share: the PIN, the players, hand records (imported by name: tests/service is on sys.path)."""

from __future__ import annotations

PIN = "4321"
STAFF_PIN = "8765"          # the counter's, where a test serves it
PLAYERS = ["Aki", "Ben", "Chie"]
# A closed hand with a chun triplet and one gari, winning on 6s (tests/service/ledger/ledger_play.py).
CHUN = {"concealed": "234p678p234s66s777z", "win_tile": "6s", "gari": "1m"}
HATSU = {"concealed": "234p678p678s11s666z", "win_tile": "6s", "gari": "1m"}


def record(seat: str = "east", win: str = "tsumo", discarder: str | None = None, rules: str = "dunhill",
           shape: dict = CHUN, **flags) -> dict:
    rec = {"rules": rules, "seat": seat, "win": win, **shape, **flags}
    if discarder:
        rec["discarder"] = discarder
    return rec


# A parlour's house rule: dunhill with its dealer item and no-ten payment changed (docs/house-rules.md).
HOUSE_RULE = """extends = "dunhill"
name_ja = "うちのルール"
name_en = "Ours"

[items]
dealer = {dealer}              # dunhill: 1

[table]
noten_total = {noten}          # dunhill: 6
"""


def house_rule(dealer: int = 2, noten: int = 10) -> str:
    return HOUSE_RULE.format(dealer=dealer, noten=noten)


def write_rule(folder, name: str, text: str) -> None:
    """Write (or edit) ``folder/<name>.toml``; its time moves on by a second, so an edit is seen even where
    the file system's clock is coarse."""
    import os

    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    before = path.stat().st_mtime_ns if path.exists() else None
    path.write_text(text, encoding="utf-8")
    if before is not None:
        later = max(path.stat().st_mtime_ns, before + 1_000_000_000)
        os.utime(path, ns=(later, later))


def fill(folder) -> None:
    """Write into ``folder`` until its filesystem is full."""
    with open(folder / "filler", "wb", buffering=0) as f:     # unbuffered: nothing left to flush at close
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass


def huge_jpeg(w: int = 20000, h: int = 20000) -> bytes:
    """A 16x16 JPEG whose frame header says ``w`` x ``h``: about 600 bytes that OpenCV decodes into a
    picture of that size (2.3 GB of memory at 20000x20000), the missing rows filled in grey."""
    import struct

    import cv2
    import numpy as np
    data = bytearray(cv2.imencode(".jpg", np.zeros((16, 16, 3), np.uint8))[1].tobytes())
    at = data.index(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", h, w)
    return bytes(data)


def machine_clock(monkeypatch, minutes: float, *modules) -> None:
    """This machine's clock ``minutes`` off (no battery, no NTP on the parlour's network) in ``modules``,
    the ones that read it: the one thing a test cannot set for real. A PostgreSQL server's clock stays
    the real one."""
    from datetime import datetime, timedelta

    class Off(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime.now(tz) + timedelta(minutes=minutes)
    for module in modules:
        monkeypatch.setattr(module, "datetime", Off)
