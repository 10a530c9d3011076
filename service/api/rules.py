"""Rules: the built-ins and the parlour's house rules, one rule beside its base, and a hand record
counted under both (nothing is written)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from .. import house_rules
from ..deps import CameraDep, ReaderDep, SettingsDep
from ..reader import ReadContext

router = APIRouter(tags=["rules"])


class TryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    record: dict[str, Any] = Field(description="a hand record (docs/hand-record.md); its 'rules' is replaced")


@router.get("/rules", summary="the rules a session may start under: built-ins, then house rules")
def rules(settings: SettingsDep, detail: bool = False) -> Any:
    """Names (``?detail=true``: each with its kind, names, base, file, digest, or why its file does
    not load). A house rule file that does not load is left out of the names."""
    found = house_rules.choices(settings.house_rules_dir)
    if detail:
        return [c.to_dict() for c in found]
    return [c.name for c in found if c.error is None]


@router.get("/rules/{name}", summary="a rule beside its base: what it changes, in words")
def rule(name: str, settings: SettingsDep) -> dict:
    return house_rules.describe(name, settings.house_rules_dir)


@router.post("/rules/{name}/try", summary="count a hand record under the rule and its base (nothing written)")
def try_it(name: str, body: TryIn, settings: SettingsDep) -> dict:
    return house_rules.try_record(name, settings.house_rules_dir, body.record)


@router.post("/rules/{name}/try/camera", summary="read the table's newest frame and count it under both")
def try_camera(name: str, settings: SettingsDep, camera: CameraDep, reader: ReaderDep) -> Any:
    house_rules.house_rule(name, settings.house_rules_dir)         # 404 / 422 before the camera
    _, frame = camera.latest()
    reading = reader.read(frame, ReadContext(rules=name))
    if reading.record is None:
        why = "; ".join(reading.warnings) or getattr(reader, "message", "") or "no hand read"
        return JSONResponse({"detail": f"the reader read no hand from the table: {why}",
                             "reading": reading.to_dict()}, status_code=422)
    return {**house_rules.try_record(name, settings.house_rules_dir, reading.record), "reading": reading.to_dict()}
