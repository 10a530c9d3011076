"""The rule pages: every rule the table may play (/rules), one house rule beside its base, item by
item in the players' words (/rules/{name}), and "try it": a pasted hand record, or the table's
reading, counted under both side by side. Nothing here writes."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import Response

from .. import house_rules
from ..deps import LedgerDep, ReaderDep, SettingsDep, get_camera
from ..errors import ServiceError
from ..reader import ReadContext
from .forms import FormDep
from .render import render

router = APIRouter()


@router.get("/rules")
def rules_page(request: Request, settings: SettingsDep) -> Response:
    return render(request, "rules.html", table_name=settings.table_name,
                  rules=house_rules.choices(settings.house_rules_dir), folder=settings.house_rules_dir)


@router.get("/rules/{name}")
def rule_page(request: Request, name: str, settings: SettingsDep, ledger: LedgerDep,
              session: str | None = None) -> Response:
    """The rule as its file is now; with ``session`` (the table page's link), the rule that session
    plays, stored at its start, where the file has changed or gone since."""
    folder = settings.house_rules_dir
    played = _stored_rule(ledger, session, name)
    try:
        rule = house_rules.describe(name, folder)
        if played is not None and played.digest != rule["digest"]:
            rule = house_rules.describe_stored(played, folder)
    except (house_rules.BrokenRule, ServiceError) as e:
        if played is not None:
            rule = house_rules.describe_stored(played, folder)
            return render(request, "rule.html", table_name=settings.table_name, name=name, rule=rule, broken=None,
                          camera=False, example=_example(rule))
        if not isinstance(e, house_rules.BrokenRule):
            raise
        # the file as it is, and scoring's message naming the file, the key and what is allowed
        return render(request, "rule.html", 422, table_name=settings.table_name, name=name, rule=None,
                      broken=str(e), text=e.text, file=str(e.path), camera=False)
    return render(request, "rule.html", table_name=settings.table_name, name=name, rule=rule, broken=None,
                  camera=request.app.state.camera is not None and not rule.get("stored"), example=_example(rule))


def _stored_rule(ledger, session: str | None, name: str):
    """The rule session ``session`` was started under, when it plays ``name`` and stored it; else None."""
    if not session:
        return None
    cfg = ledger.config(session)              # an unknown session: 404
    return cfg.preset if cfg.rules == name and cfg.rule_digest is not None else None


@router.post("/rules/{name}/try")
def try_it(request: Request, name: str, form: FormDep, settings: SettingsDep) -> Response:
    text = form.get("record")
    record = house_rules.parse_record(text if isinstance(text, str) else "")
    result = house_rules.try_record(name, settings.house_rules_dir, record)
    return render(request, "_rule_try.html", result=result, read=None)


@router.post("/rules/{name}/try/camera")
def try_camera(request: Request, name: str, settings: SettingsDep, reader: ReaderDep) -> Response:
    house_rules.house_rule(name, settings.house_rules_dir)          # 404 / 422 before the camera
    _, frame = get_camera(request).latest()
    reading = reader.read(frame, ReadContext(rules=name))
    if reading.record is None:
        why = "; ".join(reading.warnings) or getattr(reader, "message", "") or "no hand read"
        raise ServiceError(f"卓から読めませんでした the reader read no hand from the table: {why}", 422)
    result = house_rules.try_record(name, settings.house_rules_dir, reading.record)
    return render(request, "_rule_try.html", result=result,
                  read=json.dumps(reading.record, ensure_ascii=False, indent=1))


def _example(rule: dict) -> str:
    """A record to start from in the try box: the base's worked example hand, as a placeholder."""
    base = (rule.get("chain") or [rule["name"]])[-1]
    return json.dumps({"rules": base, "seat": "east", "win": "tsumo", "concealed": "234p678p234s66s777z",
                       "win_tile": "6s", "gari": "1m"}, ensure_ascii=False)
