"""The tablet's server-rendered pages (Jinja2 + htmx served from /static, no CDN)."""

from fastapi import APIRouter, Depends

from ..deps import require_pin
from . import rules, session, teach, watch, work

router = APIRouter(include_in_schema=False)
router.include_router(session.public)
router.include_router(session.router, dependencies=[Depends(require_pin)])
router.include_router(work.router, dependencies=[Depends(require_pin)])
router.include_router(teach.router, dependencies=[Depends(require_pin)])
router.include_router(watch.router, dependencies=[Depends(require_pin)])
router.include_router(rules.router, dependencies=[Depends(require_pin)])
