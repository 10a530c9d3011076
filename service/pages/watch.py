"""The tablet's switch for the watcher (auto count): on or off for this table until the service restarts."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from ..deps import WatcherDep
from ..errors import ServiceError
from ..watch import NEEDS_VISION
from .forms import FormDep, text
from .render import render

router = APIRouter()


@router.post("/watch")
def switch(request: Request, form: FormDep, watcher: WatcherDep) -> Response:
    if watcher is None:
        raise ServiceError(NEEDS_VISION, 409)
    watcher.switch(text(form, "on") == "1")
    return render(request, "_watch.html", watch=watcher.status())
