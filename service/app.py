"""The table service: ``create_app(settings)`` builds the FastAPI app a parlour runs beside a table.

The app owns one ledger (the database), one snapshot folder, one camera thread,
one reader, the table's tile set (table_tiles.py) and the watcher (watch/: a win laid down is read
and pushed to the tablets by itself); routes reach them through typed dependencies (deps.py). Every
refusal is a 4xx with one line saying why: JSON for /api, a message in the
page's flash area for the tablet.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from datetime import timedelta
from functools import partial
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DBAPIError

from .body_limit import BodyLimit
from .camera import Camera
from .deps import NotLoggedIn, NotStaff
from .errors import (NUL_MESSAGE, REFUSALS, database_away, database_away_message, database_busy,
                     database_busy_message, holds_nul, status_of, storage_full, storage_full_message,
                     storage_unwritable, storage_unwritable_message)
from .hand_photos import HandPhotoReader
from .heartbeat import Heartbeat
from .ledger import Ledger, ViewOutdated
from .refusal_ja import bilingual
from .ledger import db as ledger_db
from .pages.render import error_page, flash
from .photo_labels import PhotoLabels
from .read_tally import ReadTally
from .reader import NoReader
from .reader_choice import reader_for
from .pin_guard import PinGuard
from .settings import Settings
from .shown import shown_url
from .snapshots import SnapshotStore
from .standings_cache import warm_in_background
from .table import AfterConfirm
from .tokens import Tokens, load_secret
from .table_tiles import TableTiles, tileset_folder
from .watch import Offers, watcher_for

STATIC = Path(__file__).parent / "static"
log = logging.getLogger(__name__)
# a tablet's view is older than the session: another tablet logged, undid or corrected a hand
OUTDATED_JA = "別のタブレットで記録が進みました。画面を再読み込みしてください"


def prune_snapshots(app: FastAPI) -> int:
    """Delete the snapshots of counts never confirmed once older than TABLE_SNAPSHOT_KEEP_DAYS, and,
    where TABLE_SNAPSHOT_KEEP_LOGGED_DAYS is set, those of hands logged longer ago than that (with
    their photo labels)."""
    settings, ledger = app.state.settings, app.state.ledger
    keep_s = settings.snapshot_keep_days * 86400
    since = None
    if settings.snapshot_keep_logged_days:
        since = ledger_db.clock(ledger.engine) - timedelta(days=settings.snapshot_keep_logged_days)
    return app.state.snapshots.prune(ledger.snapshots_in_use(since), keep_s, labels=settings.photo_labels_dir)


async def _prune_every(app: FastAPI, every_s: float) -> None:
    # A service that runs for weeks would otherwise keep every unconfirmed count until restarted.
    while True:
        await asyncio.sleep(every_s)
        try:
            await asyncio.to_thread(prune_snapshots, app)
        except Exception as e:      # a full disk or a database gone for a moment: try again next round
            log.warning("snapshot pruning failed: %s", e)


def create_app(settings: Settings | None = None, *, camera: bool = True) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        # this table's sessions only (the counter alone sees every table's); house rules: house_rules.py
        app.state.ledger = Ledger(settings.ledger_url, rules_dir=settings.house_rules_dir,
                                  table_name=None if settings.counter_only else settings.table_name)
        if settings.ledger_url.startswith("sqlite") and not settings.counter_only:
            app.state.ledger.adopt_unassigned(settings.table_name)    # one table: its nights from before 0003
        app.state.parlour = Ledger(settings.ledger_url, rules_dir=settings.house_rules_dir, migrate=False)
        # an offer is news until a hand is logged after it: both told by the clock hands are stamped by
        app.state.offers.clock = partial(ledger_db.clock, app.state.ledger.engine)
        # a hand logged, corrected or undone: the session's other open tablets read the table anew
        app.state.ledger.on_change = lambda session, seq, state: app.state.offers.tell(
            "logged", {"session": session, "seq": seq, "hands": state.hands})
        app.state.tokens = Tokens(load_secret(settings.data_dir))
        app.state.snapshots = SnapshotStore(settings.snapshot_dir)
        prune_snapshots(app)
        if settings.counter_only:        # the counter alone: no table, so no reader, camera, watcher or beat
            app.state.reader, app.state.tiles = NoReader("the counter serves no table"), None
        else:
            app.state.reader = reader_for(settings.reader, settings.calibration, settings.demo_camera,
                                          settings.mend_reads)
            app.state.tiles = TableTiles(tileset_folder(settings), app.state.reader, settings.learn_tiles)
            app.state.tiles.start()
            app.state.camera = (Camera(settings.camera, settings.frame_rate, size=settings.frame_size).start()
                                if camera and settings.camera else None)
            app.state.watcher = watcher_for(settings, app.state.reader, app.state.camera, app.state.snapshots,
                                            app.state.offers, app.state.ledger, app.state.tiles)
        app.state.after_confirm = AfterConfirm(app.state.tiles, app.state.photo_labels, app.state.read_tally,
                                               app.state.offers)
        pruner = asyncio.create_task(_prune_every(app, settings.snapshot_prune_every_s))
        if not settings.ledger_url.startswith("sqlite"):
            warm_in_background(app)         # a parlour's database: the standings' first page need not wait
        heartbeat = None if settings.counter_only else Heartbeat(app, app.state.parlour.engine)
        if heartbeat is not None:
            await asyncio.to_thread(heartbeat.beat)       # the counter sees the table from its start
        beating = asyncio.create_task(heartbeat.run()) if heartbeat is not None else None
        try:
            yield
        finally:
            pruner.cancel()
            if beating is not None:
                beating.cancel()
                await heartbeat.stop()
            if app.state.watcher is not None:
                app.state.watcher.stop()
            if app.state.camera is not None:
                app.state.camera.stop()
            app.state.ledger.close()
            app.state.parlour.close()

    app = FastAPI(title="東天紅 table service", lifespan=lifespan,
                  description="Count, verify and log a three-player 東天紅 session at one table. "
                              "Every call needs the table's PIN (header X-Table-PIN, or the tablet's cookie).")
    app.state.settings = settings
    app.state.camera = None
    app.state.watcher = None
    app.state.offers = Offers()          # the watcher's offers and the tablets listening for them
    # a confirmed count's image kept as labels, from the reading the tablet was shown
    app.state.photo_labels = PhotoLabels(settings.photo_labels_dir if settings.keep_photo_labels else None,
                                         app.state.offers.reading)
    # how the reader read each confirmed count, for the counter (the heartbeat carries its summary)
    app.state.read_tally = ReadTally(settings.read_tally_path, app.state.offers.reading)
    # photos of a hand from the seat; its detector loads on the first photo
    app.state.hand_photos = HandPhotoReader(mend=settings.mend_reads)
    app.state.pin_guard = PinGuard(settings.pin_tries, lock_s=settings.pin_lock_s)

    from . import api, pages
    if settings.counter_only:        # before the tablet's pages: this service's / is the counter
        app.add_api_route("/", lambda: RedirectResponse("/counter", status_code=303), include_in_schema=False)
    app.include_router(api.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    _handlers(app, settings)
    return app


def _handlers(app: FastAPI, settings: Settings) -> None:
    # an upload's form around the image: 64 KB; refused before the multipart parser spools it to disk
    app.add_middleware(BodyLimit, limit=settings.max_upload_bytes + 64 * 1024, image=settings.max_upload_bytes,
                       refuse=lambda request, message: _refusal(request, message, 413))

    @app.exception_handler(NotLoggedIn)
    async def not_logged_in(request: Request, exc: NotLoggedIn):
        return _log_in_first(request, "the table's PIN is missing or wrong (header X-Table-PIN)", "/login")

    @app.exception_handler(NotStaff)
    async def not_staff(request: Request, exc: NotStaff):
        if not settings.staff_pin:
            return _refusal(request, "the counter is off: set TABLE_STAFF_PIN (not any table's PIN)", 404)
        return _log_in_first(request, "the staff PIN is missing or wrong (header X-Staff-PIN)", "/counter/login")

    for kind in REFUSALS:
        @app.exception_handler(kind)
        async def refused(request: Request, exc: Exception):
            message = str(exc)
            if isinstance(exc, ViewOutdated) and not _is_api(request):     # a tablet showing an older table
                message = f"{OUTDATED_JA} · {message}: reload the page"
            elif not _is_api(request):
                message = bilingual(message)
            return _refusal(request, message, status_of(exc))

    @app.exception_handler(OSError)
    @app.exception_handler(DBAPIError)
    async def unavailable(request: Request, exc: Exception):
        """A full disk (507), a disk that refuses writes (503: read-only, permissions, failing), a
        database out of reach or its file held by another program (503) is no
        fault of the request, but the players must know what became of their press (one line); a
        NUL that PostgreSQL cannot keep is the request's (422); any other error of these kinds
        stays the server's own (500, logged)."""
        if where := storage_full(exc):
            message, status = storage_full_message(where, settings.data_dir), 507
        elif what := storage_unwritable(exc):
            message, status = storage_unwritable_message(what, settings.data_dir), 503
        elif holds_nul(exc):
            message, status = NUL_MESSAGE, 422
        elif database_away(exc):
            message, status = database_away_message(shown_url(settings.ledger_url)), 503
        elif database_busy(exc):
            message = database_busy_message(shown_url(settings.ledger_url), ledger_db.SQLITE_BUSY_S)
            status = 503
        else:
            raise exc
        log.error("%s %s: %s (%s)", request.method, request.url.path, message, getattr(exc, "orig", None) or exc)
        return _refusal(request, message, status)

    @app.exception_handler(UnicodeEncodeError)
    async def no_character(request: Request, exc: UnicodeEncodeError):
        """A text holding a lone surrogate (``"\\ud800"`` in JSON: half of a UTF-16 pair) is no
        character: no database stores it, no page shows it. UTF-8 encodes every other one."""
        if exc.encoding.replace("-", "").lower() != "utf8":
            raise exc
        return _refusal(request, f"a text sent holds {exc.object[exc.start:exc.end]!a}, which is no character: "
                                 "nothing was read or saved", 422)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        lines = [f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()]
        return _refusal(request, "; ".join(lines), 422)


def _log_in_first(request: Request, detail: str, login: str) -> Response:
    """No PIN, or the wrong one: the API answers 401 saying which; a page goes to ``login``."""
    if _is_api(request):
        return JSONResponse({"detail": detail}, status_code=401)
    if request.headers.get("hx-request"):
        return Response(status_code=401, headers={"HX-Redirect": login})
    return RedirectResponse(login, status_code=303)


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _refusal(request: Request, message: str, status: int) -> Response:
    message = message.encode("utf-8", "backslashreplace").decode("utf-8")   # a lone surrogate quoted
    if _is_api(request):
        return JSONResponse({"detail": message}, status_code=status)
    if request.headers.get("hx-request"):
        return flash(request, message, status)
    return error_page(request, message, status)
