"""The JSON API under /api: everything the tablet page does (OpenAPI at /docs)."""

from fastapi import APIRouter, Depends

from ..deps import require_pin
from . import hands, reading, rules, sessions, watch

router = APIRouter(prefix="/api", dependencies=[Depends(require_pin)])
for _module in (sessions, hands, reading, watch, rules):
    router.include_router(_module.router)
