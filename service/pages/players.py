"""The player register on the tablet: search as you type on the new-session page.

Each of the three player inputs asks ``/players/suggest`` as it is typed in and
shows what comes back beside it: the players whose name, reading or member code
matches (a tap fills the input with ``Name (CODE)``), and what the typed text
is now:

- a registered player (a member code, ``Name (CODE)``, or a name only one has);
- a name several players share: the session will not start until one is
  chosen by code;
- a name nobody has: "new player", with a field for its reading (kana); the
  player joins the register when the session starts.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import LedgerDep
from ..errors import ServiceError
from ..ledger import Ledger, LedgerError
from ..ledger.players import Player, looks_like_code, same_name
from .render import render

router = APIRouter()

SEATS = (1, 2, 3)


def typed(ledger: Ledger, text: str) -> tuple[str, Player | None, list[Player]]:
    """What ``text`` names: ("known", the player, []), ("shared", None, the players sharing the
    name), ("new", None, []), ("no code", None, []) for digits no member has, or ("", None, []) for
    nothing typed."""
    text = " ".join(text.split())
    if not text:
        return "", None, []
    try:
        return "known", ledger.player(text), []
    except LedgerError as e:     # nobody, or more than one: the register says which
        same = same_name(ledger.players(), text)
        if len(same) > 1:
            return "shared", None, same
        if "players are named" in str(e):     # old names of players merged into two others
            return "shared", None, ledger.kept_for_name(text)
        return ("no code", None, []) if looks_like_code(text) else ("new", None, [])


@router.get("/players/suggest")
def suggest(request: Request, ledger: LedgerDep, seat: int = 1, q: str | None = None) -> Response:
    """The choices for one player input; ``q`` is the typed text (or the input's own value,
    ``player<seat>``, as htmx sends it)."""
    if seat not in SEATS:
        raise ServiceError(f"seat is 1, 2 or 3, not {seat}")
    text = q if q is not None else request.query_params.get(f"player{seat}", "")
    status, player, shared = typed(ledger, text)
    choices = ledger.find_players(text) if status else []
    return render(request, "_player_suggest.html", seat=seat, status=status, player=player,
                  shared=shared, choices=choices, text=" ".join(text.split()))
