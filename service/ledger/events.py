"""The events of a session log, as stored: one row each, never changed once written.

Kinds:

- ``win``: one hand won (``wins`` holds one entry, or two for a double ron).
- ``draw``: an exhaustive draw (who was tenpai).
- ``chombo``: a chombo (who paid); the hand is replayed.
- ``correct``: replaces the hand in slot ``target`` by ``event`` (a win, draw or chombo).
- ``undo``: removes the hand in slot ``target`` (only the last hand).

A *slot* is named by the seq of the event that first filled it; corrections keep
the slot, so hand numbers do not move. Every hand event stores the state it was
made for (``seats``: seat -> player, ``honba``) so the fold can tell when a
correction made a later hand inconsistent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Mapping

HAND_KINDS = ("win", "draw", "chombo")
KINDS = HAND_KINDS + ("correct", "undo")


@dataclass(frozen=True)
class Event:
    """One logged event: its kind and JSON body, who confirmed it, when, and its snapshot."""

    seq: int
    kind: str
    body: Mapping[str, Any]
    confirmed_by: str | None = None
    created_at: datetime | None = None
    snapshot: str | None = None      # a reference to the snapshot image (path or URL)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq, "kind": self.kind, "body": _plain(self.body),
            "confirmed_by": self.confirmed_by,
            "created_at": self.created_at.isoformat() if self.created_at else None,
            "snapshot": self.snapshot,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Event":
        at = d.get("created_at")
        return cls(seq=int(d["seq"]), kind=str(d["kind"]), body=dict(d["body"]),
                   confirmed_by=d.get("confirmed_by"),
                   created_at=datetime.fromisoformat(at) if at else None,
                   snapshot=d.get("snapshot"))


@dataclass(frozen=True)
class Slot:
    """A hand in the effective history: the slot id, the event now filling it, and its number."""

    slot: int
    number: int
    event: Event
    corrected_by: tuple[int, ...] = field(default=())   # seqs of correction events applied

    @property
    def kind(self) -> str:
        return self.event.kind

    @property
    def body(self) -> Mapping[str, Any]:
        return self.event.body


def _plain(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v
