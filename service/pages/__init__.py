"""The tablet's and the counter's server-rendered pages (Jinja2 + htmx served from /static, no CDN)."""

from fastapi import APIRouter, Depends

from ..deps import require_pin, require_staff
from . import counter, players, rules, session, standings, teach, watch, work

router = APIRouter(include_in_schema=False)
router.include_router(session.public)
router.include_router(counter.public)
for _module in (session, work, teach, watch, rules, players, standings):
    router.include_router(_module.router, dependencies=[Depends(require_pin)])
for _module in (counter, standings):       # standings: the counter's too (/counter/standings)
    router.include_router(_module.router, prefix="/counter", dependencies=[Depends(require_staff)])
