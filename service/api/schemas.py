"""Request and response bodies of the JSON API (they make its OpenAPI document)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

# Riichi declarers: ["Aki", "Ben:open"] or {"Aki": "riichi", "Ben": "open"}.
Riichi = list[str] | dict[str, Literal["riichi", "open"]]
# Players who paid a 罰符 into the pool in the hand, a name a stick (isshokai: a false call).
Penalties = Annotated[list[str], Field(max_length=12, description="players who paid a 罰符 into the pool this "
                                       "hand, a name a stick (isshokai: a false call of pon, kan or riichi)")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SessionIn(_Body):
    rules: str = Field(description="a built-in (dunhill, balance, toutenkou, isshokai, chinton) or a house rule "
                                   "in the rules folder (GET /api/rules): stored with the session")
    players: list[str] = Field(min_length=3, max_length=3, description="the three players in turn order")
    dealer: str | None = Field(None, description="the first dealer (default: the first player)")
    table: dict[str, Any] = Field(default_factory=dict, description="[table] rule overrides for the night")
    label: str = ""


class WinIn(_Body):
    records: list[dict[str, Any]] = Field(min_length=1, max_length=2,
                                          description="one hand record, two for a double ron (docs/hand-record.md)")
    riichi: Riichi = Field(default_factory=list, description="riichi declarers besides what the records say")
    penalties: Penalties = Field(default_factory=list)
    hand: StrictInt | None = Field(None, ge=1, description="the hand number the tablet believes this is (stale guard)")
    snapshot: str | None = Field(None, description="a snapshot name from /api/read or /api/camera/read")
    confirmed_by: str | None = Field(None, max_length=100)


class DrawIn(_Body):
    tenpai: list[str] = Field(default_factory=list, description="the players who were tenpai")
    riichi: Riichi = Field(default_factory=list)
    penalties: Penalties = Field(default_factory=list)
    hand: StrictInt | None = Field(None, ge=1)
    confirmed_by: str | None = Field(None, max_length=100)


class ChomboIn(_Body):
    offender: str
    riichi: Riichi = Field(default_factory=list)
    penalties: Penalties = Field(default_factory=list)
    hand: StrictInt | None = Field(None, ge=1)
    confirmed_by: str | None = Field(None, max_length=100)


class CorrectIn(_Body):
    kind: Literal["win", "draw", "chombo"]
    seen: StrictInt | None = Field(None, ge=0, description="the seq of the event seen as that hand: refused (409) "
                                                      "if another correction came since")
    records: list[dict[str, Any]] = Field(default_factory=list, max_length=2)
    tenpai: list[str] = Field(default_factory=list)
    offender: str | None = None
    riichi: Riichi = Field(default_factory=list)
    penalties: Penalties = Field(default_factory=list)
    snapshot: str | None = None
    confirmed_by: str | None = Field(None, max_length=100)


class UndoIn(_Body):
    hand: StrictInt | None = Field(None, ge=1, description="the number of the hand to undo: it must be the last")
    confirmed_by: str | None = Field(None, max_length=100)


class ScoreIn(_Body):
    record: dict[str, Any] = Field(description="a hand record (docs/hand-record.md)")
    session: str | None = Field(None, description="a session: fills honba and names payers by seat")


class Balance(BaseModel):
    player: str
    seat: str
    balance: int
    result: int
    in_sticks: int
    top: bool


class SessionOut(BaseModel):
    id: str
    rules: str
    rule_digest: str | None = None        # the stored rule's digest; None: a session from before stored rules
    label: str
    unit: str
    players: list[str]
    hands: int
    next_hand: int
    dealer: str
    honba: int
    pool: int
    seats: dict[str, str]
    over: bool
    warnings: list[str]
    balances: list[Balance]


class EventOut(BaseModel):
    seq: int
    kind: str
    snapshot: str | None


class WrittenOut(BaseModel):
    event: EventOut
    session: SessionOut


class ReadingOut(BaseModel):
    snapshot: str
    snapshot_url: str
    width: int
    height: int
    reader: str
    installed: bool
    record: dict[str, Any] | None
    detections: list[dict[str, Any]]
    warnings: list[str]
    score: dict[str, Any] | None = None
    score_error: str | None = None


class WatchIn(_Body):
    on: bool = Field(description="switch the table's watcher on (true) or off")
