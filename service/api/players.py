"""The player register: search, add."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["players"])
