"""Reading a posted form once, in the event loop, so page routes can stay plain functions."""

from __future__ import annotations

from typing import Annotated

import numpy as np
from fastapi import Depends, Request
from starlette.datastructures import FormData

from ..errors import ServiceError
from ..settings import Settings
from ..snapshots import decode


async def read_form(request: Request) -> FormData:
    return await request.form()


FormDep = Annotated[FormData, Depends(read_form)]


def text(form: FormData, key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def texts(form: FormData, key: str) -> list[str]:
    """Every value posted as ``key`` (a box ticked per player: riichi, tenpai). A file sent in its
    place is refused: the page sends names there."""
    values = form.getlist(key)
    if not all(isinstance(v, str) for v in values):
        raise ServiceError(f"{key}: a file was sent where the page sends names", 422)
    return values


def number(form: FormData, key: str) -> int | None:
    """The whole number posted as ``key`` (a hand's, an offer's); None when none was sent. Anything
    else is refused, a digit of another script ("²") or one past 18 digits (no hand reaches it)
    as much as a word: a hand's number guards against a stale page, so a garbled one is no guard."""
    value = text(form, key)
    if not value:
        return None
    if not (value.isascii() and value.isdigit() and len(value) <= 18):
        raise ServiceError(f"{key}: {value[:20]!r} is not a whole number", 422)
    return int(value)


def image(form: FormData, settings: Settings, key: str = "image") -> np.ndarray:
    """The uploaded image of ``key``, decoded and checked (``snapshots.decode``: 413, 415, 422)."""
    upload = form.get(key)
    if upload is None or isinstance(upload, str) or not upload.filename:
        raise ServiceError("choose an image to upload first", 422)
    data = upload.file.read(settings.max_upload_bytes + 1)
    return decode(data, max_bytes=settings.max_upload_bytes, max_side=settings.max_image_side)
