"""The hands the ledger tests play: real hand records, scored by the real engine.

Their values are worked out in the tests from the seeds; these helpers only write the records.
"""

from __future__ import annotations

PLAYERS = ("Aki", "Ben", "Chie")     # in turn order; Aki deals first


# The winning hands. "chun": a closed hand with a chun triplet and one gari,
# winning on 6s (chinton: its one-suit twin on 6p). "hatsu": a second hand
# winning on the same tile, for double rons.
CHUN = {
    "dunhill": dict(concealed="234p678p234s66s777z", win_tile="6s", gari="1m"),
    "balance": dict(concealed="234p678p234s66s777z", win_tile="6s", gari="1m"),
    "toutenkou": dict(concealed="234p678p234s66s777z", win_tile="6s", gari="1m"),
    "chinton": dict(concealed="234p678p123p66p777z", win_tile="6p", gari="1m"),
    "isshokai": dict(concealed="234p678p234s66s777z", win_tile="6s", gari="4z"),
}
HATSU = {
    "dunhill": dict(concealed="234p678p678s11s666z", win_tile="6s", gari="1m"),
    "balance": dict(concealed="234p678p678s11s666z", win_tile="6s", gari="1m"),
    "toutenkou": dict(concealed="234p678p678s11s666z", win_tile="6s", gari="1m"),
    "chinton": dict(concealed="11p234p678p999p666z", win_tile="6p", gari="1m"),
    "isshokai": dict(concealed="234p678p678s11s666z", win_tile="6s", gari="4z"),
}


def hand(rules: str, seat: str, win: str, discarder: str | None = None, *, honba: int,
         shape: str = "chun", **flags) -> dict:
    """A hand record: ``seat`` wins by ``win`` (off ``discarder``) at ``honba``."""
    rec = {"rules": rules, "seat": seat, "win": win, "honba": honba,
           **(CHUN if shape == "chun" else HATSU)[rules], **flags}
    if discarder:
        rec["discarder"] = discarder
    return rec
