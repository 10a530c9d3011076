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


def number(form: FormData, key: str) -> int | None:
    value = text(form, key)
    return int(value) if value.isdigit() else None


def image(form: FormData, settings: Settings, key: str = "image") -> np.ndarray:
    """The uploaded image of ``key``, decoded and checked (``snapshots.decode``: 413, 415, 422)."""
    upload = form.get(key)
    if upload is None or isinstance(upload, str) or not upload.filename:
        raise ServiceError("choose an image to upload first", 422)
    data = upload.file.read(settings.max_upload_bytes + 1)
    return decode(data, max_bytes=settings.max_upload_bytes, max_side=settings.max_image_side)
