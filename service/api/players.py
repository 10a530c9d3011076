"""The player register: search, add.

``GET /api/players?q=`` searches names, readings (katakana and hiragana alike)
and member codes, those that start with ``q`` first; without ``q`` it lists the
whole register in order of joining. ``POST /api/players`` adds a player; a code
already taken, an empty name or a bad code is a 422 saying which.
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from ..deps import LedgerDep

router = APIRouter(tags=["players"])


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=100, description="the name the tablet shows")
    kana: str = Field("", max_length=100, description="its reading in kana, for search")
    code: str | None = Field(None, max_length=16, description="a member code (会員番号); default the next number")


class PlayerOut(BaseModel):
    id: int
    name: str
    kana: str
    code: str
    label: str = Field(description="as a choice shows it: Name (CODE)")


@router.get("/players", response_model=list[PlayerOut], summary="search the register (or list it all)")
def players(ledger: LedgerDep, q: str | None = Query(None, max_length=100, description="name, reading or code"),
            limit: int = Query(10, ge=1, le=100, description="at most this many matches")) -> list[dict]:
    found = ledger.players() if q is None else ledger.find_players(q, limit)
    return [p.to_dict() for p in found]


@router.post("/players", status_code=201, response_model=PlayerOut, summary="add a player to the register")
def add(body: PlayerIn, ledger: LedgerDep) -> dict:
    return ledger.add_player(body.name, body.kana, body.code).to_dict()
