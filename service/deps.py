"""Typed dependencies: what a route needs, taken from the app's state (set up in app.py)."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Request

from .camera import Camera, CameraError
from .ledger import Ledger
from .reader import Reader
from .settings import Settings
from .snapshots import SnapshotStore
from .table_tiles import TableTiles
from .watch import Offers, Watcher

PIN_COOKIE = "table_pin"


class NotLoggedIn(Exception):
    """No PIN, or the wrong one: the API answers 401, a page sends the tablet to /login."""


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_ledger(request: Request) -> Ledger:
    return request.app.state.ledger


def get_reader(request: Request) -> Reader:
    return request.app.state.reader


def get_snapshots(request: Request) -> SnapshotStore:
    return request.app.state.snapshots


def get_tiles(request: Request) -> TableTiles:
    return request.app.state.tiles


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


def pin_ok(settings: Settings, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(given.encode(), settings.table_pin.encode())


def checked_pin(request: Request, settings: Settings, given: str | None) -> bool:
    """Whether ``given`` is the table's PIN, counting wrong ones per client address
    (TooManyWrongPins once there were too many). No PIN at all is not a guess."""
    guard = request.app.state.pin_guard
    client = request.client.host if request.client else "?"
    guard.check(client)
    if pin_ok(settings, given):
        guard.passed(client)
        return True
    if given:
        guard.failed(client)
    return False


def require_pin(request: Request, settings: Annotated[Settings, Depends(get_settings)],
                x_table_pin: Annotated[str | None, Header(description="the table's PIN")] = None) -> None:
    """Only the table's tablet (or a client with its PIN) reads or writes this table's log."""
    if not checked_pin(request, settings, x_table_pin or request.cookies.get(PIN_COOKIE)):
        raise NotLoggedIn()


SettingsDep = Annotated[Settings, Depends(get_settings)]
LedgerDep = Annotated[Ledger, Depends(get_ledger)]
ReaderDep = Annotated[Reader, Depends(get_reader)]
SnapshotsDep = Annotated[SnapshotStore, Depends(get_snapshots)]
CameraDep = Annotated[Camera, Depends(get_camera)]
TilesDep = Annotated[TableTiles, Depends(get_tiles)]
OffersDep = Annotated[Offers, Depends(get_offers)]
WatcherDep = Annotated[Watcher | None, Depends(get_watcher)]
