"""Standings as JSON and CSV."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter(tags=["standings"])
