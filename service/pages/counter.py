"""The counter's pages (staff PIN): every table at a glance, settlement as money, receipts."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
public = APIRouter()      # the staff login: no PIN needed
