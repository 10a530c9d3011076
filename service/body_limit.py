"""Requests no larger than an image upload may be, counted as they arrive.

A body that says its length (``Content-Length``) over the limit is refused before a byte of it is
read. One sent in chunks says no length: its bytes are counted as the app reads them, and past the
limit reading stops and the answer is the same refusal (413), whatever the route was doing with the
body. Without the count, the multipart parser spooled such an upload to a temporary file to its end,
before any route or PIN check ran: enough to fill the table's disk.
"""

from __future__ import annotations

from typing import Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class _TooLarge(Exception):
    """The body grew past the limit while the app read it."""


class BodyLimit:
    """ASGI middleware: ``refuse(request, message)`` answers a body over ``limit`` bytes (``image``: the
    image's own limit, which the message names; the body may hold the form around it besides)."""

    def __init__(self, app: ASGIApp, limit: int, image: int, refuse: Callable[[Request, str], Response]):
        self.app, self.limit, self.image, self.refuse = app, limit, image, refuse

    def message(self, size: int | None = None) -> str:
        said = f"{size:,} bytes" if size is not None else f"over {self.limit:,} bytes"
        return f"the request is {said}, the limit is {self.image:,} for an image"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"").decode("latin-1")
        if length.isascii() and length.isdigit() and int(length) > self.limit:
            await self.refuse(Request(scope), self.message(int(length)))(scope, receive, send)
            return
        read, over, started = 0, False, False

        async def counted() -> Message:
            nonlocal read, over
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.limit:
                    over = True
                    raise _TooLarge
            return message

        async def answer(message: Message) -> None:
            nonlocal started
            if over:            # the app's answer to a body it could not finish: ours goes instead
                return
            started = True
            await send(message)

        try:
            await self.app(scope, counted if not (length.isascii() and length.isdigit()) else receive, answer)
        except Exception:
            if not over:        # the app's own error, not the body cut short
                raise
        if over and not started:
            await self.refuse(Request(scope), self.message())(scope, receive, send)
