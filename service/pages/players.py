"""The player register on the tablet: search as you type on the new-session page."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
