"""Small helpers so the rule tests read like the rulebook.

``win(rules, concealed, win_tile, **fields)`` scores one hand record and
returns the Result; ``lines(result)`` maps each item key to the points it
adds (a multiplier line maps to ``"x2"`` etc.).

Defaults are the plainest case: the south seat (not the dealer) wins by ron
from west, 0 honba, nothing else. A test names every other fact it needs.
"""

from __future__ import annotations

from typing import Any

from scoring import ScoringError, score  # noqa: F401  (re-exported for the tests)


def record(rules: str, concealed: str, win_tile: str, **fields: Any) -> dict[str, Any]:
    rec: dict[str, Any] = {"rules": rules, "seat": "south", "win": "ron",
                           "concealed": concealed, "win_tile": win_tile}
    rec.update(fields)
    if rec["win"] == "ron" and "discarder" not in fields:
        rec["discarder"] = "west" if rec["seat"] != "west" else "south"
    if rec["win"] == "tsumo":
        rec.pop("discarder", None)
    return rec


def pon(tiles: str, frm: str = "west") -> dict[str, str]:
    """A pon called from ``frm`` (west by default: the discarder of the default ron)."""
    return {"kind": "pon", "tiles": tiles, "from": frm}


PON_CHUN = pon("777z")


def win(rules: str, concealed: str, win_tile: str, **fields: Any):
    return score(record(rules, concealed, win_tile, **fields))


def lines(result) -> dict[str, Any]:
    """Item key -> points added (summed when a key repeats); multipliers as 'xN'."""
    out: dict[str, Any] = {}
    for it in result.items:
        if it.factor != 1:
            name = it.key if it.key not in out else f"{it.key}:{it.ja}"
            out[name] = f"x{it.factor}"
        else:
            out[it.key] = out.get(it.key, 0) + it.points
    return out


def factors(result) -> list[int]:
    return [it.factor for it in result.items if it.factor != 1]


def yaku_lines(result) -> dict[str, int]:
    """Only the yaku and yakuman lines."""
    return {it.key: it.points for it in result.items if it.group in ("yaku", "yakuman")
            and it.key not in ("menzen", "ippatsu_bonus")}
