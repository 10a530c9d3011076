"""Teach this table's tiles: one of each kind laid face up in four rows and three backs in a fifth,
one picture (the camera's frame or a photo), the kinds checked on the tablet, Confirm enrols them
into the table's tile set and keeps them in the parlour's database (``TABLE_SHARE_TILES``). Or take
the set a sister table was taught, from that database (``service.shared_tiles``); the set it replaces
is kept aside and listed here, to be put back in a tap (``TableTiles.restore``) or removed once the
set in use reads well (``TableTiles.discard``)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request
from fastapi.responses import Response

from calibration.errors import CalibrationError
from vision.classes import BACK
from vision.teach import LAYOUT
from vision.tileset import KINDS

from .. import heartbeat, shared_tiles, teaching
from ..deps import CameraDep, LedgerDep, OffersDep, ReadTallyDep, SettingsDep, TilesDep
from ..errors import ServiceError
from ..ledger import UnknownSession
from ..read_tally import CAMERA, reads_poorly
from ..table_tiles import NO_TABLE, TableTiles
from .counter import local_time
from .forms import FormDep, image, text, texts
from .render import render

log = logging.getLogger(__name__)
router = APIRouter()
SECONDS = "%Y-%m-%d %H:%M:%S"   # sets kept aside within a minute of each other stay apart
FACES = len(KINDS) - 1          # 37 kinds of face (34, and the three red fives), and the back


def _set_view(tiles: TableTiles) -> dict:
    """The table's set as the page counts it; ``damaged``: what is wrong with it, when it cannot be read
    (the page said "0 kinds, 0 tiles" of such a set, as if the table had none)."""
    kinds = tiles.kinds()
    return {"faces": sum(k != BACK for k in kinds), "of": FACES, "back": BACK in kinds, "crops": tiles.crops(),
            "folder": str(tiles.folder) if tiles.folder is not None else "", "damaged": tiles.unreadable() or ""}


def _sisters(ledger, settings) -> list[shared_tiles.SharedSet]:
    """The sets other tables of the parlour were taught ([] when the database cannot say)."""
    try:
        return [s for s in shared_tiles.listing(ledger.engine) if s.table_name != settings.table_name]
    except Exception:           # the page works without them: the database is the ledger's to report
        log.exception("the parlour's tile sets could not be listed")
        return []


def _kept_view(tiles: TableTiles, settings) -> dict:
    """The sets kept aside, as the page lists them (``_kept.html``)."""
    return {"kept": tiles.kept_aside(), "ready": tiles.folder is not None,
            "when": lambda at: local_time(at.isoformat(), settings.timezone, SECONDS)}


@router.get("/teach")
def teach_page(request: Request, settings: SettingsDep, tiles: TilesDep, ledger: LedgerDep,
               tally: ReadTallyDep, offers: OffersDep) -> Response:
    reads = tally.summary().get(CAMERA)         # how the camera reads this table so far
    return render(request, "teach.html", table_name=settings.table_name, layout=LAYOUT, tileset=_set_view(tiles),
                  back=_back(ledger, offers),
                  camera=request.app.state.camera is not None, sisters=_sisters(ledger, settings),
                  reads=reads, reads_poorly=reads_poorly({CAMERA: reads} if reads else None),
                  **_kept_view(tiles, settings))


@router.post("/teach/read")
def read_camera(request: Request, camera: CameraDep, tiles: TilesDep) -> Response:
    _, frame = camera.latest()
    windows = getattr(request.app.state.reader, "table_windows", None)     # a calibrated table's reader
    if windows is not None:
        try:
            return _lesson(request, tiles, windows(frame))
        except CalibrationError as e:
            raise ServiceError(f"the camera's frame cannot be laid flat: {e}") from None
    return _lesson(request, tiles, frame)


@router.post("/teach/upload")
def read_upload(request: Request, form: FormDep, settings: SettingsDep, tiles: TilesDep) -> Response:
    return _lesson(request, tiles, image(form, settings))


def _back(ledger, offers) -> str:
    """Where 戻る Back goes: the session the table's tablet showed last (the teach page is opened
    from it), else the table's first page."""
    try:
        return f"/s/{ledger.config(offers.session).id}" if offers.session else "/"
    except UnknownSession:
        return "/"


def _need_table(tiles: TableTiles) -> None:
    if tiles.folder is None:
        raise ServiceError(NO_TABLE, 409)


def _lesson(request: Request, tiles: TableTiles, frame) -> Response:
    _need_table(tiles)
    lesson = teaching.read_lesson(tiles.detector, frame)
    tiles.lessons.put(lesson.token, lesson)
    return render(request, "_lesson.html", lesson=lesson, kinds=KINDS, thumb=teaching.thumbnail_url)


@router.post("/teach/confirm")
def confirm(request: Request, form: FormDep, tiles: TilesDep, settings: SettingsDep, ledger: LedgerDep) -> Response:
    token = text(form, "token")
    lesson = tiles.lessons.pop(token)           # taken at once: a second Confirm of it, even now, is refused
    if lesson is None:
        raise ServiceError("this reading of the tiles is gone (the service restarted, or it was confirmed "
                           "already): read the tiles again", 409)
    try:
        named = teaching.chosen(lesson, texts(form, "kind"))
        tileset, added = tiles.enroll(named)
    except BaseException:
        tiles.lessons.put(token, lesson)        # refused (a kind that is none, a disk error): fix and confirm again
        raise
    shared = False
    if settings.share_tiles:
        try:
            shared_tiles.publish(ledger.engine, settings.table_name, tileset)
            # said only where another table beats on this database: at a table alone, no one can take it
            shared = any(t.name != settings.table_name for t in heartbeat.tables(ledger.engine))
        except Exception:       # the set is taught here whatever the database does
            log.exception("table %r's tile set could not be kept for the parlour", settings.table_name)
    return render(request, "_taught.html", enrolled=sum(added.values()), kinds=len(added),
                  held=len(named) - sum(added.values()), tileset=_set_view(tiles), shared=shared,
                  **_kept_view(tiles, settings))


@router.post("/teach/adopt")
def adopt(request: Request, form: FormDep, tiles: TilesDep, settings: SettingsDep, ledger: LedgerDep) -> Response:
    """This table's set made of the set table ``table`` was taught (the one it replaces is kept)."""
    source = text(form, "table")
    if not source:
        raise ServiceError("say which table's tile set to take (table)")
    if source == settings.table_name:
        raise ServiceError(f"table {source} is this table: its set is the one in use", 409)
    _need_table(tiles)
    named = shared_tiles.crops_of(ledger.engine, source)
    had_one = tiles.holds_a_set()       # a set to keep aside (none: the table was never taught)
    taken = tiles.adopt(named)
    return render(request, "_taught.html", enrolled=sum(map(len, taken.crops.values())), kinds=len(taken.crops),
                  tileset=_set_view(tiles), source=source, kept_one=had_one, **_kept_view(tiles, settings))


def _kept_named(form, tiles: TableTiles, doing: str):
    """The kept set the form names (``kept``: its time); refused, naming what is wrong."""
    stamp = text(form, "kept")
    if not stamp:
        raise ServiceError(f"say which kept set to {doing} (kept)")
    _need_table(tiles)
    kept = next((k for k in tiles.kept_aside() if k.stamp == stamp), None)
    if kept is None:
        raise ServiceError(f"no tile set was kept aside at {stamp}", 404)
    return kept


@router.post("/teach/restore")
def restore(request: Request, form: FormDep, tiles: TilesDep, settings: SettingsDep) -> Response:
    """The set kept aside at ``kept`` (its time) put back in use; the one in use is kept aside."""
    kept = _kept_named(form, tiles, "put back")
    had_one = tiles.holds_a_set()       # none after a start over: nothing is kept aside in its turn
    tiles.restore(kept)
    return render(request, "_taught.html", enrolled=kept.crops, kinds=kept.kinds, tileset=_set_view(tiles),
                  restored=local_time(kept.at.isoformat(), settings.timezone, SECONDS), kept_one=had_one,
                  **_kept_view(tiles, settings))


@router.post("/teach/start-over")
def start_over(request: Request, tiles: TilesDep, settings: SettingsDep, ledger: LedgerDep) -> Response:
    """A set taught wrong (a cut confirmed as another kind): the set in use kept aside, listed to be
    put back, and the table taught again from nothing. A set that cannot be read is kept aside too,
    listed to be removed (the answer says it cannot be put back). The set it offered the other tables is
    withdrawn with it (the one taught wrong is no set to take)."""
    _need_table(tiles)
    damaged = tiles.unreadable()        # kept aside all the same, to be removed: it cannot be put back
    tiles.start_over()
    try:
        shared_tiles.withdraw(ledger.engine, settings.table_name)
    except Exception:           # the table starts over whatever the database does
        log.exception("table %r's offered tile set could not be withdrawn", settings.table_name)
    return render(request, "_taught.html", enrolled=0, kinds=0, started_over=True, tileset=_set_view(tiles),
                  damaged_one=bool(damaged), **_kept_view(tiles, settings))


@router.post("/teach/discard")
def discard(request: Request, form: FormDep, tiles: TilesDep, settings: SettingsDep) -> Response:
    """The set kept aside at ``kept`` (its time) removed for good (the page asks first); the list
    is redrawn saying so."""
    kept = _kept_named(form, tiles, "remove")
    tiles.discard(kept)
    return render(request, "_kept.html", removed=local_time(kept.at.isoformat(), settings.timezone, SECONDS),
                  **_kept_view(tiles, settings))
