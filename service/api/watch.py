"""The watcher: its state, switching it, and the tablets' event stream (server-sent events).

``GET /api/watch/events`` is a plain ``text/event-stream``: ``offer`` events (a win was read: its
number, snapshot, seat) and ``status`` events (what the watcher is doing), a comment every
``KEEPALIVE_S``. A stream opened with ``since`` (or a reconnecting EventSource's
``Last-Event-ID``) older than the newest offer gets that offer at once.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse

from ..deps import OffersDep, WatcherDep
from ..errors import ServiceError
from ..watch import NEEDS_VISION, Offers, Watcher
from .schemas import WatchIn

router = APIRouter(prefix="/watch", tags=["watch"])
KEEPALIVE_S = 15.0


def watch_status(watcher: Watcher | None, offers: Offers) -> dict:
    out = watcher.status() if watcher is not None else {"enabled": False, "state": "unavailable",
                                                           "message": NEEDS_VISION, "camera": False}
    out["available"] = watcher is not None
    latest = offers.latest
    out["offer"] = None if latest is None else {**latest.event(), **latest.reading.to_dict(),
                                                "snapshot_url": f"/api/snapshots/{latest.snapshot}"}
    return out


@router.get("", summary="the watcher: on or off, what it sees now, the newest offer")
def status(watcher: WatcherDep, offers: OffersDep) -> dict:
    return watch_status(watcher, offers)


@router.post("", summary="switch the watcher on or off (until the service restarts: TABLE_WATCH)")
def switch(body: WatchIn, watcher: WatcherDep, offers: OffersDep) -> dict:
    if watcher is None:
        raise ServiceError(NEEDS_VISION, 409)
    watcher.switch(body.on)
    return watch_status(watcher, offers)


@router.get("/events", summary="server-sent events: offer (a win was read), status",
            response_class=StreamingResponse)
async def events(watcher: WatcherDep, offers: OffersDep,
                 session: str | None = Query(None, description="the session this tablet shows (the watcher "
                                                                 "reads for the session a tablet looked at last)"),
                 since: int = Query(0, ge=0, description="the newest offer this tablet knows"),
                 last_event_id: Annotated[str | None, Header()] = None) -> StreamingResponse:
    if session:
        offers.session = session
    if last_event_id and last_event_id.isascii() and last_event_id.isdigit() and len(last_event_id) <= 18:
        since = max(since, int(last_event_id))
    return StreamingResponse(_stream(watcher, offers, since), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _event(event: str, data: str, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


async def _stream(watcher: Watcher | None, offers: Offers, since: int):
    entry = offers.listen()
    queue = entry[1]
    try:
        yield "retry: 2000\n\n"
        yield _event("status", json.dumps(watch_status(watcher, offers) | {"offer": None}, ensure_ascii=False))
        latest = offers.latest
        if latest is not None and latest.id > since:
            yield _event("offer", json.dumps(latest.event(), ensure_ascii=False), latest.id)
        while True:          # ends when the tablet goes (Starlette cancels the stream, or a send fails)
            try:
                event, data, event_id = await asyncio.wait_for(queue.get(), KEEPALIVE_S)
            except asyncio.TimeoutError:
                yield ": keepalive\n\n"
                continue
            yield _event(event, data, event_id)
    finally:
        offers.unlisten(entry)
