"""Jinja2 templates and the small helpers every page uses (tile faces, flash messages)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from scoring.tiles import HONOR_NAMES_JA, parse_mpsz, tile_name

from ..refusal_ja import bilingual

templates = Jinja2Templates(directory=Path(__file__).parent.parent / "templates")

_NUM_JA = "一二三四五六七八九"
_SUIT_JA = {"m": "萬", "p": "筒", "s": "索"}


def tile_face(name: str) -> dict[str, str]:
    """How a tile is drawn without tile art: a top glyph, a suit mark, a CSS class."""
    if name == "back":
        return {"top": "", "bottom": "", "cls": "back", "name": name}
    n, suit = name[0], name[1]
    if suit == "z":
        return {"top": HONOR_NAMES_JA[int(n) - 1], "bottom": "", "cls": f"z z{n}", "name": name}
    red = n == "0"
    number = 5 if red else int(n)
    top = _NUM_JA[number - 1] if suit == "m" else str(number)
    return {"top": top, "bottom": _SUIT_JA[suit], "cls": f"{suit}{' red' if red else ''}", "name": name}


def tile_names(mpsz: str) -> list[str]:
    return [tile_name(t) for t in parse_mpsz(mpsz)]


templates.env.globals["tile_face"] = tile_face
templates.env.filters["tiles"] = tile_names
templates.env.filters["ja"] = bilingual          # a reading's warning in Japanese first, where a gloss is known


def render(request: Request, template: str, status: int = 200, /, **context: Any) -> Response:
    # positional-only: a template may have a ``status`` of its own (error.html shows it)
    response = templates.TemplateResponse(request, template, context, status_code=status)
    # A page shows the session as it is now: Back must not bring an older one from the cache (the
    # balances before an undo), and the browser keeps no copy of a table's pages.
    response.headers["Cache-Control"] = "no-store"
    return response


def flash(request: Request, message: str, status: int) -> Response:
    """A refusal shown in the page's flash area, leaving the rest of the page as it was."""
    response = render(request, "_flash.html", status, message=message, kind="error")
    response.headers["HX-Retarget"] = "#flash"
    response.headers["HX-Reswap"] = "innerHTML"
    return response


def error_page(request: Request, message: str, status: int) -> Response:
    return render(request, "error.html", status, message=message, status=status)
