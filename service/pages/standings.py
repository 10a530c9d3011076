"""Standings (成績表): per player over a day, a month or all time, per house rule."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
