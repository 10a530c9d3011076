"""Turning what the table confirms into hand events, checked against the session state.

A win is one hand record (two for a double ron) scored by the engine under the
session's rule (``SessionConfig.preset``: the rule stored when it started). The
ledger owns the table state: a record's ``honba`` is filled in from the state
when missing and must agree with it when present, and its seats are read
against the current dealer; a record made for another state is refused as stale.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

import scoring

from .derive import SEATS, SessionConfig, State, check, head_order
from .errors import LedgerError, StaleState
from .rules import TableRules

RIICHI_KINDS = ("riichi", "open")


def is_double_ron(records: Sequence[Mapping[str, Any]]) -> bool:
    """Two rons off one discarder by the two other players."""
    discarder = records[0].get("discarder")
    return (len(records) == 2 and all(r.get("win") == "ron" for r in records)
            and records[1].get("discarder") == discarder
            and {r.get("seat") for r in records} | {discarder} == set(SEATS))


def head_first(records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A double ron's two records, the head winner's (first in turn after the discarder) first."""
    order = head_order(records[0]["discarder"])
    return sorted(records, key=lambda r: order.index(r["seat"]))


def scored_honba(t: TableRules, index: int, honba: int) -> int:
    """The honba a win counts: the table's, but for a double ron's second winner where the
    honba goes to the head winner only (double_ron_honba = "head")."""
    return 0 if index == 1 and t.double_ron_honba == "head" else honba


def build_win(config: SessionConfig, state: State, records: Sequence[Mapping[str, Any]],
              riichi: Mapping[str, str] | Iterable[str] | None = None,
              winners: Sequence[str] | None = None, penalties: Iterable[str] = ()) -> dict[str, Any]:
    """The body of a ``win`` event; ``winners`` (player names), when given, must match the records."""
    t = config.table
    if not 1 <= len(records) <= 2:
        raise LedgerError("a win has one hand record, or two for a double ron")
    recs = [_checked_record(config, state, r, i) for i, r in enumerate(records)]
    seats = state.seats(config.players)
    if len(recs) == 2:
        if not t.double_ron:
            raise LedgerError(f"{config.rules} has no double ron")
        if not is_double_ron(recs):
            raise LedgerError("a double ron is two rons by the two other players off the same discarder")
        recs = head_first(recs)       # it takes the pool (and the deal)
    names = [seats[r["seat"]] for r in recs]
    if winners is not None and sorted(winners) != sorted(names):
        raise StaleState(f"the record names {' and '.join(names)} as winner (seat "
                         f"{', '.join(r['seat'] for r in recs)} with {seats['east']} dealing), "
                         f"not {' and '.join(winners)}")
    sticks = _riichi(config, riichi)
    for rec, name in zip(recs, names):
        kind = "open" if rec.get("open_riichi") else (
            "riichi" if rec.get("riichi") or rec.get("double_riichi") else None)
        if kind and sticks.setdefault(name, kind) != kind:
            raise LedgerError(f"{name}'s record says {kind}, the riichi list says {sticks[name]}")
        if not kind and name in sticks:
            raise LedgerError(f"{name} is listed as in riichi but the winning record has no riichi flag")
    wins = []
    for i, (rec, name) in enumerate(zip(recs, names)):
        scored = dict(rec, honba=scored_honba(t, i, rec["honba"]))
        try:
            # the session's own rule, as stored; the bounty round is the table's whoever counts the honba
            res = scoring.score(scored, config.preset, round_honba=rec["honba"])
        except scoring.ScoringError as e:
            raise LedgerError(f"hand record{_which(recs, i)}: {e}") from None
        entry = {"winner": name, "record": rec, "score": res.to_dict()}
        if scored["honba"] != rec["honba"]:
            entry["scored_honba"] = scored["honba"]
        wins.append(entry)
    discarder = recs[0].get("discarder")
    return _with_penalties(config, {"seats": seats, "honba": state.honba, "riichi": sticks, "wins": wins,
                                    "discarder": seats[discarder] if discarder else None}, penalties)


def build_draw(config: SessionConfig, state: State, tenpai: Iterable[str],
               riichi: Mapping[str, str] | Iterable[str] | None = None,
               penalties: Iterable[str] = ()) -> dict[str, Any]:
    """The body of a ``draw`` event: who was tenpai, who had declared riichi."""
    tenpai = _names(config, tenpai, "tenpai")
    sticks = _riichi(config, riichi)
    noten_riichi = sorted(set(sticks) - set(tenpai))
    if noten_riichi:
        raise LedgerError(f"{', '.join(noten_riichi)} declared riichi but was not tenpai: "
                          "that is a chombo after the draw, log it with 'chombo'")
    body = {"seats": state.seats(config.players), "honba": state.honba, "riichi": sticks,
            "tenpai": [p for p in config.players if p in tenpai]}
    _fits(config, state, "draw", body)
    return _with_penalties(config, body, penalties)


def build_chombo(config: SessionConfig, state: State, offender: str,
                 riichi: Mapping[str, str] | Iterable[str] | None = None,
                 penalties: Iterable[str] = ()) -> dict[str, Any]:
    """The body of a ``chombo`` event: who pays, and the riichi sticks out when it happened."""
    (offender,) = _names(config, [offender], "chombo")
    body = {"seats": state.seats(config.players), "honba": state.honba,
            "riichi": _riichi(config, riichi), "offender": offender}
    _fits(config, state, "chombo", body)
    return _with_penalties(config, body, penalties)


def _with_penalties(config: SessionConfig, body: dict[str, Any], penalties: Iterable[str]) -> dict[str, Any]:
    """``body`` with the hand's 罰符: a player's name once for each (isshokai "罰符は 1 本支払って、
    供託とする"); none, no key (a body as before). A rule without 罰符 refuses one."""
    names = list(penalties)
    if not names:
        return body
    if not config.table.penalty:
        raise LedgerError(f"{config.rules} has no 罰符 (a penalty into the pool): table.penalty is not set")
    for n in names:
        _names(config, [n], "penalty")
    return {**body, "penalties": names}


def _fits(config: SessionConfig, state: State, kind: str, body: Mapping[str, Any]) -> None:
    problems = check(config, state, kind, body)
    if problems:
        raise StaleState("; ".join(problems))


def _checked_record(config: SessionConfig, state: State, rec: Any, i: int) -> dict[str, Any]:
    if not isinstance(rec, Mapping):
        raise LedgerError("a hand record must be a JSON object")
    rec = dict(rec)
    if state.over:
        raise StaleState("the game is over (a player started a hand at or below "
                         f"{config.table.end_at_or_below})")
    try:
        scoring.HandRecord.from_dict(rec)
    except scoring.ScoringError as e:
        raise LedgerError(f"hand record: {e}") from None
    if rec["rules"] != config.rules:
        raise LedgerError(f"the record is for {rec['rules']}, the session plays {config.rules}")
    if rec.get("honba") is None:        # null is none given, as the record's format says: the table's
        rec["honba"] = state.honba
    elif rec["honba"] != state.honba:
        raise StaleState(f"stale state: the record says {rec['honba']} honba, "
                         f"the table is at {state.honba} (hand {state.hands + 1})")
    if rec["win"] == "ron" and not rec.get("discarder"):
        raise LedgerError("a ron record must name its discarder (seat) for the ledger")
    return rec


def _which(recs: Sequence[Any], i: int) -> str:
    return f" {i + 1}" if len(recs) > 1 else ""


def _names(config: SessionConfig, names: Iterable[str], what: str) -> list[str]:
    names = list(names)
    for n in names:
        if n not in config.players:
            raise LedgerError(f"{what}: {n!r} is not a player here ({', '.join(config.players)})")
    if len(set(names)) != len(names):
        raise LedgerError(f"{what}: a player is named twice")
    return names


def _riichi(config: SessionConfig, riichi: Mapping[str, str] | Iterable[str] | None) -> dict[str, str]:
    """Riichi declarers as {player: "riichi"|"open"}; a list may say "name" or "name:open"."""
    if riichi is None:
        return {}
    if isinstance(riichi, Mapping):
        pairs = list(riichi.items())
    else:
        pairs = [_declared(config, r) for r in riichi]
    out: dict[str, str] = {}
    for name, kind in pairs:
        _names(config, [name], "riichi")
        if kind not in RIICHI_KINDS:
            raise LedgerError(f"riichi kind for {name} must be riichi or open, got {kind!r}")
        if name in out:
            raise LedgerError(f"riichi: {name} is named twice")
        out[name] = kind
    return out


def _declared(config: SessionConfig, entry: str) -> tuple[str, str]:
    """One list entry as (name, kind): a player's whole name first (a name may hold a colon, "Mr:T"),
    else the kind after the last colon ("Mr:T:open")."""
    name, colon, kind = entry.rpartition(":")
    if entry in config.players or not colon:
        return entry, "riichi"
    return name, kind


__all__ = ["build_win", "build_draw", "build_chombo", "SEATS"]
