"""Bad input, as one line and an HTTP status: every refusal the service makes goes through here."""

from __future__ import annotations

from scoring import ScoringError
from vision.tileset import TileSetError

from .camera import CameraError
from .editing import EditError
from .ledger import LedgerError, StaleState, UnknownSession
from .pin_guard import TooManyWrongPins
from .snapshots import ImageError


class ServiceError(ValueError):
    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


# Most specific first: a StaleState is a LedgerError too.
STATUS = ((UnknownSession, 404), (StaleState, 409), (LedgerError, 422), (ScoringError, 422),
          (EditError, 422), (CameraError, 503), (TileSetError, 422))
REFUSALS = (ServiceError, ImageError, LedgerError, ScoringError, EditError, CameraError, TooManyWrongPins,
            TileSetError)


def status_of(exc: Exception) -> int:
    if isinstance(exc, (ServiceError, ImageError, TooManyWrongPins)):
        return exc.status
    for kind, status in STATUS:
        if isinstance(exc, kind):
            return status
    return 500
