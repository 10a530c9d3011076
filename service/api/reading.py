"""Images and scores: read an uploaded image or the camera's frame, score a hand record."""

from __future__ import annotations

from typing import Literal

import numpy as np
from fastapi import APIRouter, File, Form, Query, UploadFile
from fastapi.responses import FileResponse, Response, StreamingResponse

from .. import table
from ..camera import BOUNDARY
from ..deps import (CameraDep, HandPhotosDep, LedgerDep, OffersDep, ReaderDep, SettingsDep, SnapshotsDep,
                    TilesDep)
from ..errors import ServiceError
from ..reader import ReadContext, Reading
from ..settings import Settings
from ..snapshots import Snapshot, decode
from .schemas import ReadingOut, ScoreIn

router = APIRouter(tags=["reading"])
Seat = Literal["east", "south", "west"]
Win = Literal["tsumo", "ron"]


@router.post("/score", summary="score a hand record (nothing is written)")
def score(body: ScoreIn, ledger: LedgerDep) -> dict:
    return table.score_in_session(body.record, ledger, body.session)


# The routes that read an image are plain functions, run on the server's worker threads: a reading
# takes a tenth of a second to a second or more (a photo from the seat read again at other sizes), and
# run in the event loop it held every other request, the tablets' pages and their news, until it ended.

def _uploaded(image: UploadFile, settings: Settings) -> np.ndarray:
    """The uploaded image, read no further than one byte past the limit, decoded and checked
    (``snapshots.decode``: 413, 415, 422)."""
    return decode(image.file.read(settings.max_upload_bytes + 1), max_bytes=settings.max_upload_bytes,
                  max_side=settings.max_image_side)


@router.post("/read", response_model=ReadingOut, summary="read an uploaded image (JPEG/PNG)")
def read_upload(settings: SettingsDep, ledger: LedgerDep, reader: ReaderDep, store: SnapshotsDep,
                tiles: TilesDep, offers: OffersDep,
                image: UploadFile = File(description="the table seen from above"),
                session: str | None = Form(None, description="the session, for the reader's context"),
                rules: str = Form("dunhill", description="the rule without a session")) -> dict:
    context = _context(ledger, session, rules)
    frame = _uploaded(image, settings)
    snap, reading = table.read_frame(reader, store, frame, context, tiles, offers)
    return _reading_out(snap, reading, ledger, session)


@router.post("/read/hand-photo", response_model=ReadingOut,
             summary="read a photo of the revealed hand taken at the seat (JPEG/PNG)")
def read_hand_photo(settings: SettingsDep, ledger: LedgerDep, photos: HandPhotosDep, store: SnapshotsDep,
                    offers: OffersDep,
                    image: UploadFile = File(description="the revealed hand, photographed from the seat"),
                    session: str | None = Form(None, description="the session: its rule and honba"),
                    rules: str = Form("dunhill", description="the rule without a session"),
                    seat: Seat = Form("east", description="the winner's seat"),
                    win: Win = Form("tsumo"),
                    discarder: Seat | None = Form(None, description="for ron: who dealt in")) -> dict:
    cfg = ledger.config(session) if session else None
    preset = cfg.preset if cfg else ledger.rule(rules)      # an unknown rule: 422 naming it, before the upload is read
    photo = _uploaded(image, settings)
    draft = {"rules": cfg.rules if cfg else rules, "seat": seat, "win": win}
    if win == "ron" and discarder:
        draft["discarder"] = discarder
    snap, reading = table.read_hand_photo(photos, store, offers, photo, draft, preset)
    return _reading_out(snap, reading, ledger, session)


@router.post("/camera/read", response_model=ReadingOut, summary="grab the camera's frame and read it")
def read_camera(camera: CameraDep, ledger: LedgerDep, reader: ReaderDep, store: SnapshotsDep, tiles: TilesDep,
                offers: OffersDep, session: str | None = Query(None),
                rules: str = Query("dunhill", description="the rule without a session")) -> dict:
    context = _context(ledger, session, rules)
    _, frame = camera.latest()
    snap, reading = table.read_frame(reader, store, frame, context, tiles, offers)
    return _reading_out(snap, reading, ledger, session)


@router.get("/camera/frame.jpg", summary="the camera's newest frame")
def camera_frame(camera: CameraDep) -> Response:
    _, data = camera.jpeg()
    return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/camera/stream", summary="live MJPEG preview")
def camera_stream(camera: CameraDep, settings: SettingsDep,
                  frames: int | None = Query(None, ge=1, description="stop after N frames")):
    """At most ``TABLE_PREVIEW_FPS`` frames a second, ``TABLE_PREVIEW_WIDTH`` wide: a preview."""
    return StreamingResponse(camera.mjpeg(frames, settings.preview_fps, settings.preview_width),
                             media_type=f"multipart/x-mixed-replace; boundary={BOUNDARY}",
                             headers={"Cache-Control": "no-store"})


@router.get("/snapshots/{name}", summary="a snapshot image", response_class=FileResponse)
def snapshot(name: str, store: SnapshotsDep) -> FileResponse:
    path = store.path(name)
    if path is None:
        raise ServiceError(f"no snapshot {name!r}", 404)
    return FileResponse(path, media_type="image/jpeg")


def _context(ledger, session: str | None, rules: str) -> ReadContext:
    """The reader's context: the session's table, else ``rules`` alone (an unknown rule: 422 naming it,
    before anything is read). Without one, a reading named no rule and could not be scored."""
    if session:
        return table.context_of(ledger, session)
    return ReadContext(rules, preset=ledger.rule(rules))


def _reading_out(snap: Snapshot, reading: Reading, ledger, session: str | None) -> dict:
    out = {"snapshot": snap.name, "snapshot_url": f"/api/snapshots/{snap.name}", "width": snap.width,
           "height": snap.height, **reading.to_dict()}
    if reading.record is not None:
        try:
            out["score"] = table.score_in_session(reading.record, ledger, session)
        except ValueError as e:      # a misread hand: show it, let the players fix it
            # a hand read without its winning tile: what is wrong with its tiles, if anything, else that
            out["score_error"] = (str(e) if reading.record.get("win_tile") else
                                  table.tiles_refused(reading.record,
                                                      lambda r: table.score_in_session(r, ledger, session))
                                  or "no winning tile: the hand was read with 13 tiles; name the winning tile")
    return out
