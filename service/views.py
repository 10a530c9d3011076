"""The session as the tablet and the API show it: plain dicts built from the ledger's state.

Balances are in the rule's unit (points, or sticks for isshokai); a score's
payments name seats, shown here with the players sitting there.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .ledger import SEATS, SessionConfig, State, Step, settle

SEAT_JA = {"east": "東", "south": "南", "west": "西"}


def session_view(cfg: SessionConfig, state: State) -> dict[str, Any]:
    seats = state.seats(cfg.players)
    seat_of = {name: seat for seat, name in seats.items()}
    lines = settle(cfg, state)
    return {
        "id": cfg.id, "rules": cfg.rules, "rule_digest": cfg.rule_digest, "label": cfg.label, "unit": cfg.table.unit,
        "players": list(cfg.players), "hands": state.hands, "next_hand": state.hands + 1,
        "dealer": cfg.players[state.dealer], "honba": state.honba, "pool": state.pool,
        "seats": seats, "over": state.over, "warnings": list(state.warnings),
        "balances": [{"player": line.player, "seat": seat_of[line.player], "balance": line.held,
                      "result": line.result, "in_sticks": line.in_sticks, "top": line.top}
                     for line in lines],
    }


def hand_view(cfg: SessionConfig, step: Step, snapshot_url: str = "/snapshots/") -> dict[str, Any]:
    body, event = step.slot.body, step.slot.event
    return {
        "number": step.slot.number, "seq": event.seq,      # seq: a correction's ``seen``
        "kind": step.slot.kind, "summary": summary(step.slot.kind, body),
        "seats": dict(body.get("seats", {})), "honba": body.get("honba"),
        "riichi": dict(body.get("riichi", {})),
        "records": [w["record"] for w in body.get("wins", [])],
        "totals": [w["score"]["total"] for w in body.get("wins", [])],
        "tenpai": list(body.get("tenpai", [])), "offender": body.get("offender"),
        "penalties": list(body.get("penalties", [])),
        "deltas": dict(zip(cfg.players, step.deltas)), "pool_delta": step.pool_delta,
        "balances_after": dict(zip(cfg.players, step.after.balances)), "pool_after": step.after.pool,
        "confirmed_by": event.confirmed_by,
        "created_at": event.created_at.isoformat() if event.created_at else None,
        "snapshot": event.snapshot, "snapshot_url": snapshot_url + event.snapshot if event.snapshot else None,
        "corrected": bool(step.slot.corrected_by),
    }


def summary(kind: str, body: Mapping[str, Any]) -> str:
    penalties = body.get("penalties")
    return _outcome(kind, body) + (f"; 罰符 penalty: {', '.join(penalties)}" if penalties else "")


def _outcome(kind: str, body: Mapping[str, Any]) -> str:
    if kind == "win":
        wins = ", ".join(f"{w['winner']} {'ロン ron' if w['record']['win'] == 'ron' else 'ツモ tsumo'} "
                         f"{w['score']['total']}" for w in body["wins"])
        return wins + (f" ← {body['discarder']}" if body.get("discarder") else "")
    if kind == "draw":   # a draw's riichi sticks go to the pool: the line says whose they were
        riichi = ", ".join(p + (" (open)" if k == "open" else "") for p, k in dict(body.get("riichi", {})).items())
        return ("流局 draw; 聴牌 tenpai: " + (", ".join(body.get("tenpai", [])) or "—")
                + (f"; 立直 riichi: {riichi}" if riichi else ""))
    return f"チョンボ chombo: {body.get('offender')}"


def score_view(result: Mapping[str, Any], seats: Mapping[str, str]) -> dict[str, Any]:
    """A scored hand with a running total per line and payments by player name."""
    running, lines = 0, []
    for item in result["items"]:
        if "factor" in item:
            running *= item["factor"]
        elif item.get("group") == "fixed":     # a fixed count (karasu's 30, nagashi's) is the count so far
            running = item["points"]
        else:
            running += item["points"]
        lines.append({**item, "running": running})
    return {**result, "lines": lines,
            "payers": [{"seat": s, "player": seats.get(s, s), "amount": a}
                       for s, a in result["payments"].items()]}


def seat_names(seats: Mapping[str, str]) -> list[dict[str, str]]:
    return [{"seat": s, "ja": SEAT_JA[s], "player": seats[s]} for s in SEATS]


def balance_series(cfg: SessionConfig, steps: Sequence[Step], start: Sequence[int]) -> dict[str, list[int]]:
    """Each player's balance after each hand, the opening balance first."""
    series = {p: [b] for p, b in zip(cfg.players, start)}
    for step in steps:
        for p, b in zip(cfg.players, step.after.balances):
            series[p].append(b)
    return series
