"""Reading a posted form once, in the event loop, so page routes can stay plain functions."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from starlette.datastructures import FormData


async def read_form(request: Request) -> FormData:
    return await request.form()


FormDep = Annotated[FormData, Depends(read_form)]


def text(form: FormData, key: str) -> str:
    value = form.get(key)
    return value.strip() if isinstance(value, str) else ""


def number(form: FormData, key: str) -> int | None:
    value = text(form, key)
    return int(value) if value.isdigit() else None
