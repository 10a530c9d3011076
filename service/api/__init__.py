"""The JSON API under /api: everything the tablet page does (OpenAPI at /docs), and the counter's
under /api/counter (the staff PIN)."""

from fastapi import APIRouter, Depends

from ..deps import require_pin, require_staff
from . import counter, hands, players, reading, rules, sessions, standings, watch

router = APIRouter(prefix="/api")
for _module in (sessions, hands, reading, watch, rules, players, standings):
    router.include_router(_module.router, dependencies=[Depends(require_pin)])
for _module in (counter, standings):
    router.include_router(_module.router, prefix="/counter", dependencies=[Depends(require_staff)])
