"""What the service tests share: the PIN, the players, hand records (imported by name: tests/service is on sys.path)."""

from __future__ import annotations

PIN = "4321"
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
