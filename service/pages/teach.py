"""Teach this table's tiles: one of each kind laid face up in four rows and three backs in a fifth,
one picture (the camera's frame or a photo), the kinds checked on the tablet, Confirm enrols them
into the table's tile set."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from calibration.errors import CalibrationError
from vision.classes import BACK
from vision.teach import LAYOUT
from vision.tileset import KINDS

from .. import teaching
from ..deps import CameraDep, SettingsDep, TilesDep
from ..errors import ServiceError
from ..table_tiles import TableTiles
from .forms import FormDep, image, text
from .render import render

router = APIRouter()
FACES = len(KINDS) - 1          # 37 kinds of face (34, and the three red fives), and the back


def _set_view(tiles: TableTiles) -> dict:
    kinds = tiles.kinds()
    return {"faces": sum(k != BACK for k in kinds), "of": FACES, "back": BACK in kinds,
            "folder": str(tiles.folder) if tiles.folder is not None else ""}


@router.get("/teach")
def teach_page(request: Request, settings: SettingsDep, tiles: TilesDep) -> Response:
    return render(request, "teach.html", table_name=settings.table_name, layout=LAYOUT, tileset=_set_view(tiles),
                  camera=request.app.state.camera is not None, ready=tiles.folder is not None)


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


def _lesson(request: Request, tiles: TableTiles, frame) -> Response:
    if tiles.folder is None:
        raise ServiceError("no calibrated table, so no tile set to teach: fit the table "
                           "(python -m calibration fit) and set TABLE_CALIBRATION=<table>", 409)
    lesson = teaching.read_lesson(tiles.detector, frame)
    tiles.lessons.put(lesson.token, lesson)
    return render(request, "_lesson.html", lesson=lesson, kinds=KINDS, thumb=teaching.thumbnail_url)


@router.post("/teach/confirm")
def confirm(request: Request, form: FormDep, tiles: TilesDep) -> Response:
    token = text(form, "token")
    lesson = tiles.lessons.get(token)
    if lesson is None:
        raise ServiceError("this reading of the tiles is gone (the service restarted, or it was confirmed "
                           "already): read the tiles again", 409)
    named = teaching.chosen(lesson, [str(k) for k in form.getlist("kind")])
    tiles.enroll(named)
    tiles.lessons.pop(token)
    return render(request, "_taught.html", enrolled=len(named), kinds=len({k for k, _ in named}),
                  tileset=_set_view(tiles))
