"""The counter's JSON (staff PIN): tables, prices, settlements."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["counter"])
