"""Typed dependencies: what a route needs, taken from the app's state (set up in app.py)."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Request

from .camera import Camera, CameraError
from .hand_photos import HandPhotoReader
from .ledger import Ledger
from .read_tally import ReadTally
from .reader import Reader
from .settings import Settings
from .snapshots import SnapshotStore
from .table import AfterConfirm
from .table_tiles import TableTiles
from .watch import Offers, Watcher

TABLE_COOKIE = "table_token"       # a signed, expiring token (tokens.py), never the PIN
STAFF_COOKIE = "staff_token"


class NotLoggedIn(Exception):
    """No PIN, or the wrong one: the API answers 401, a page sends the tablet to /login."""


class NotStaff(Exception):
    """No staff PIN, or the wrong one: the counter's API answers 401, its pages go to /counter/login."""


def table_scope(settings: Settings) -> str:
    return f"table:{settings.table_name}"


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_ledger(request: Request) -> Ledger:
    return request.app.state.ledger


def get_parlour(request: Request) -> Ledger:
    """A handle on the same database that sees every table's sessions (the counter, the standings)."""
    return request.app.state.parlour


def get_reader(request: Request) -> Reader:
    return request.app.state.reader


def get_hand_photos(request: Request) -> HandPhotoReader:
    return request.app.state.hand_photos


def get_snapshots(request: Request) -> SnapshotStore:
    return request.app.state.snapshots


def get_tiles(request: Request) -> TableTiles:
    return request.app.state.tiles


def get_after_confirm(request: Request) -> AfterConfirm:
    return request.app.state.after_confirm


def get_read_tally(request: Request) -> ReadTally:
    return request.app.state.read_tally


def get_offers(request: Request) -> Offers:
    return request.app.state.offers


def get_watcher(request: Request) -> Watcher | None:
    """The table's watcher, or None where the reader reads no calibrated table."""
    return request.app.state.watcher


def get_camera(request: Request) -> Camera:
    camera = request.app.state.camera
    if camera is None:
        raise CameraError("no camera: set TABLE_CAMERA to a USB index, a URL, a video file or a folder")
    return camera


def pin_ok(expected: str, given: str | None) -> bool:
    return bool(given) and bool(expected) and hmac.compare_digest(given.encode(), expected.encode())


def checked_pin(request: Request, expected: str, given: str | None) -> bool:
    """Whether ``given`` is the PIN ``expected`` (the table's or the staff's), counting wrong
    ones per client address (TooManyWrongPins once there were too many). No PIN is not a guess."""
    guard = request.app.state.pin_guard
    client = request.client.host if request.client else "?"
    guard.check(client)
    if pin_ok(expected, given):
        guard.passed(client)
        return True
    if given:
        guard.failed(client)
    return False


def require_pin(request: Request, settings: Annotated[Settings, Depends(get_settings)],
                x_table_pin: Annotated[str | None, Header(description="the table's PIN")] = None) -> None:
    """Only the table's tablet (its login token) or a client with its PIN reads or writes this
    table's log; the ledger handle is this table's, so another table's session is unknown here."""
    if settings.counter_only:
        raise NotLoggedIn()
    if request.app.state.tokens.valid(request.cookies.get(TABLE_COOKIE), table_scope(settings), settings.table_pin):
        return
    if not checked_pin(request, settings.table_pin, x_table_pin):
        raise NotLoggedIn()


def require_staff(request: Request, settings: Annotated[Settings, Depends(get_settings)],
                  x_staff_pin: Annotated[str | None, Header(description="the staff PIN")] = None) -> None:
    """The counter: staff only, by the staff PIN (its own; no table's PIN opens it)."""
    if not settings.staff_pin:
        raise NotStaff()
    if request.app.state.tokens.valid(request.cookies.get(STAFF_COOKIE), "staff", settings.staff_pin):
        return
    if not checked_pin(request, settings.staff_pin, x_staff_pin):
        raise NotStaff()


SettingsDep = Annotated[Settings, Depends(get_settings)]
LedgerDep = Annotated[Ledger, Depends(get_ledger)]
ParlourDep = Annotated[Ledger, Depends(get_parlour)]
ReaderDep = Annotated[Reader, Depends(get_reader)]
HandPhotosDep = Annotated[HandPhotoReader, Depends(get_hand_photos)]
SnapshotsDep = Annotated[SnapshotStore, Depends(get_snapshots)]
CameraDep = Annotated[Camera, Depends(get_camera)]
TilesDep = Annotated[TableTiles, Depends(get_tiles)]
OffersDep = Annotated[Offers, Depends(get_offers)]
AfterConfirmDep = Annotated[AfterConfirm, Depends(get_after_confirm)]
ReadTallyDep = Annotated[ReadTally, Depends(get_read_tally)]
WatcherDep = Annotated[Watcher | None, Depends(get_watcher)]
