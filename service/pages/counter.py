"""The counter's pages (staff PIN): every table at a glance, settlement as money, receipts, the
prices, each table's default rule, the player register and the house rule files.

The staff log in at /counter/login with the staff PIN (its own: no table's PIN opens the counter);
the cookie holds a signed token that expires after ``TABLE_STAFF_LOGIN_HOURS``, never the PIN.
What the pages show is what the counter's API answers (api/counter.py). A write answers with a
redirect (htmx: HX-Redirect); a refusal is one line (htmx: in the flash area).

A house rule is edited as its file: the text is saved only when it loads as a file of the rules
folder would (scoring's checks, in a copy of the folder) and every rule that extends it still
loads; else 422 with scoring's line (the file, the key, what is allowed) and the file on disk is
unchanged. Built-ins are read-only (403).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from datetime import datetime
from pathlib import Path
from urllib.parse import quote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response

import scoring
from scoring.house import NAME_RE, check_name, house_rule_files, read, resolve_base
from scoring.presets import PRESET_DIR
from scoring.rules_cli import template

from .. import heartbeat, house_rules, shared_tiles
from ..api.counter import price_list, receipt_view, save_price, settlement_view, tables_view
from ..deps import STAFF_COOKIE, ParlourDep, SettingsDep, checked_pin
from ..errors import ServiceError
from ..settings import Settings
from .forms import FormDep, text
from .render import render

router = APIRouter()
public = APIRouter()      # the staff login: no PIN needed
TITLE = "カウンター Counter"
MAX_RULE_TEXT = 64 * 1024
_SAVING = threading.Lock()     # one rule file written at a time (``_write``)


def _page(request: Request, template_name: str, status: int = 200, /, **context) -> Response:
    settings: Settings = request.app.state.settings
    return render(request, template_name, status, table_name=TITLE, home_url="/counter", yen=yen_text,
                  price_text=lambda x: format(x, ",.12g"), when=lambda iso: local_time(iso, settings.timezone),
                  **context)


def yen_text(amount: int) -> str:
    """Whole yen as the counter prints them: ¥1,200, −¥600."""
    return f"−¥{-amount:,}" if amount < 0 else f"¥{amount:,}"


def _done(request: Request, url: str) -> Response:
    """After a write: htmx follows HX-Redirect, a plain form post the 303."""
    if request.headers.get("hx-request"):
        return Response(status_code=204, headers={"HX-Redirect": url})
    return RedirectResponse(url, status_code=303)


def local_time(iso: str | None, zone: str, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """An ISO time in the parlour's time zone (``TABLE_TIMEZONE``), as the counter prints it."""
    if not iso:
        return "—"
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        tz = None
    return datetime.fromisoformat(iso).astimezone(tz).strftime(fmt)


def _off(settings: Settings) -> None:
    if not settings.staff_pin:
        raise ServiceError("the counter is off: set TABLE_STAFF_PIN (not any table's PIN)", 404)


# -- logging in --------------------------------------------------------------------------------------

@public.get("/counter/login")
def login_page(request: Request, settings: SettingsDep) -> Response:
    _off(settings)
    return _page(request, "counter_login.html", wrong=False)


@public.post("/counter/login")
def login(request: Request, form: FormDep, settings: SettingsDep) -> Response:
    _off(settings)
    if not checked_pin(request, settings.staff_pin, text(form, "pin")):
        return _page(request, "counter_login.html", 401, wrong=True)
    response = RedirectResponse("/counter", status_code=303)
    ttl_s = settings.staff_login_hours * 3600
    token = request.app.state.tokens.issue("staff", settings.staff_pin, ttl_s)
    response.set_cookie(STAFF_COOKIE, token, httponly=True, samesite="strict", max_age=int(ttl_s))
    return response


@public.post("/counter/logout")
def logout() -> Response:
    response = RedirectResponse("/counter/login", status_code=303)
    response.delete_cookie(STAFF_COOKIE)
    return response


# -- the tables ------------------------------------------------------------------------------------

@router.get("")
def counter(request: Request, parlour: ParlourDep, settings: SettingsDep) -> Response:
    return _page(request, "counter.html", tables=tables_view(parlour, settings))


@router.get("/tables")
def tables_fragment(request: Request, parlour: ParlourDep, settings: SettingsDep) -> Response:
    """The tables, refreshed by the counter page every few seconds (htmx)."""
    return _page(request, "counter_tables.html", tables=tables_view(parlour, settings))


@router.get("/table")
def table_page(request: Request, name: str, parlour: ParlourDep, settings: SettingsDep,
               shown: Annotated[int, Query(ge=1, le=10_000)] = 20) -> Response:
    """A table's sessions, newest first, each settled in yen: the newest ``shown`` (a year holds hundreds)."""
    row = next((t for t in tables_view(parlour, settings) if t["name"] == name), None)
    if row is None:
        raise ServiceError(f"no table {name!r}: no service of that name has beaten yet", 404)
    every = parlour.sessions(name)
    sessions = [settlement_view(parlour, cfg.id) for cfg in reversed(every[-shown:])]
    shared = next((s for s in shared_tiles.listing(parlour.engine) if s.table_name == name), None)
    return _page(request, "counter_table.html", t=row, sessions=sessions, total=len(every), shown=shown,
                 rules=[c for c in house_rules.choices(settings.house_rules_dir) if c.error is None],
                 shared=shared)


@router.post("/s/{session_id}/discard")
def discard_session(request: Request, session_id: str, parlour: ParlourDep) -> Response:
    """A session started by mistake, nothing logged in it: taken away, back to its table's page."""
    cfg = parlour.discard(session_id)
    return _done(request, f"/counter/table?name={quote(cfg.table_name)}")


@router.post("/table/rule")
def choose_rule(request: Request, form: FormDep, parlour: ParlourDep, settings: SettingsDep) -> Response:
    """A table's default rule (the new-session page offers it first); empty: the service's own."""
    name, rule = text(form, "name"), text(form, "rule")
    usable = [c.name for c in house_rules.choices(settings.house_rules_dir) if c.error is None]
    if rule and rule not in usable:
        raise ServiceError(f"no rule {rule!r} to choose: rules that load are {', '.join(usable)}", 422)
    if not heartbeat.set_default_rule(parlour.engine, name, rule or None):
        raise ServiceError(f"no table {name!r}: no service of that name has beaten yet", 404)
    return _done(request, f"/counter/table?name={quote(name, safe='')}")


@router.post("/table/tiles/withdraw")
def withdraw_tiles(request: Request, form: FormDep, parlour: ParlourDep) -> Response:
    """A table's taught tile set no longer offered to the parlour's other tables (a set taught wrong,
    or of tiles no other table has); the table keeps using it, and its next teaching offers it again."""
    name = text(form, "name")
    if not shared_tiles.withdraw(parlour.engine, name):
        raise ServiceError(f"table {name!r} offers no taught tile set", 404)
    return _done(request, f"/counter/table?name={quote(name, safe='')}")


# -- money -----------------------------------------------------------------------------------------

@router.get("/s/{session_id}")
def settlement_page(request: Request, session_id: str, parlour: ParlourDep) -> Response:
    return _page(request, "counter_settlement.html", s=settlement_view(parlour, session_id))


@router.get("/s/{session_id}/receipt/{seat}")
def receipt_page(request: Request, session_id: str, seat: int, parlour: ParlourDep) -> Response:
    return _page(request, "receipt.html", r=receipt_view(parlour, session_id, seat))


@router.get("/prices")
def prices_page(request: Request, parlour: ParlourDep, settings: SettingsDep) -> Response:
    return _page(request, "counter_prices.html", prices=price_list(parlour, settings))


@router.post("/prices")
def set_price(request: Request, form: FormDep, parlour: ParlourDep, settings: SettingsDep) -> Response:
    # a box left empty is refused, not read as 0: one slip would take a rule's fee off the nights to come
    save_price(parlour, settings, text(form, "rule"), text(form, "rate"), text(form, "fee"),
               text(form, "fee_per") or "game")
    return _done(request, "/counter/prices")


# -- the player register ---------------------------------------------------------------------------

@router.get("/players")
def players_page(request: Request, parlour: ParlourDep, q: str = "") -> Response:
    found = parlour.find_players(q, 100) if q.strip() else parlour.players()
    return _page(request, "counter_players.html", players=found, q=q, merges=parlour.merges())


@router.post("/players")
def add_player(request: Request, form: FormDep, parlour: ParlourDep) -> Response:
    """A player added to the register by the staff (a member's card: name, reading, code)."""
    parlour.add_player(text(form, "name"), text(form, "kana"), text(form, "code") or None)
    return _done(request, "/counter/players")


@router.post("/players/merge")
def merge_players(request: Request, form: FormDep, parlour: ParlourDep) -> Response:
    """A regular typed by an old name became a second player: staff merge that one into the first."""
    parlour.merge_players(text(form, "gone"), text(form, "kept"))
    return _done(request, "/counter/players")


@router.post("/players/{player_id}/unmerge")
def unmerge_player(request: Request, player_id: int, parlour: ParlourDep) -> Response:
    parlour.unmerge_player(player_id)
    return _done(request, "/counter/players")


@router.post("/players/{player_id}")
def rename_player(request: Request, player_id: int, form: FormDep, parlour: ParlourDep) -> Response:
    # every field as given: an empty name or code is refused by the register, an empty reading clears it
    parlour.rename_player(player_id, name=text(form, "name"), kana=text(form, "kana"), code=text(form, "code"))
    return _done(request, "/counter/players")


# -- house rule files ------------------------------------------------------------------------------

@router.get("/rules")
def rules_page(request: Request, settings: SettingsDep) -> Response:
    return _page(request, "counter_rules.html", rules=house_rules.choices(settings.house_rules_dir),
                 folder=settings.house_rules_dir)


@router.post("/rules")
def new_rule(request: Request, form: FormDep, settings: SettingsDep) -> Response:
    """A new house rule file from a base: every key it may set, commented out (``rules new``)."""
    name, base = text(form, "name"), text(form, "base")
    folder = settings.house_rules_dir
    check_name(name, "new house rule")                 # a built-in's name: 422, built-ins are read-only
    path = folder / f"{name}.toml"
    if path.exists():
        raise ServiceError(f"{path} exists already: edit it, or choose another name", 409)
    folder.mkdir(parents=True, exist_ok=True)
    body = template(name, resolve_base(base or "dunhill", path), check_as=name)
    save_rule(folder, name, body, new=True)
    return _done(request, f"/counter/rules/{name}")


@router.get("/rules/{name}")
def rule_page(request: Request, name: str, settings: SettingsDep, saved: int = 0) -> Response:
    path, builtin = _rule_file(name, settings.house_rules_dir)
    error = None
    if not builtin:
        try:
            read(path, own_folder=True)
        except scoring.ScoringError as e:
            error = str(e)
    # a file not in UTF-8 is shown as best it reads (the error above says what is wrong with it)
    text = path.read_text(encoding="utf-8", errors="replace")
    return _page(request, "counter_rule.html", name=name, text=text, file=str(path),
                 builtin=builtin, error=error, saved=bool(saved))


@router.post("/rules/{name}")
def save_rule_page(request: Request, name: str, form: FormDep, settings: SettingsDep) -> Response:
    path, builtin = _rule_file(name, settings.house_rules_dir)
    if builtin:
        raise ServiceError(f"{name} is a built-in rule: built-ins are read-only; make a house rule from it "
                           f"(/counter/rules, New)", 403)
    body = form.get("text")
    body = body.replace("\r\n", "\n") if isinstance(body, str) else ""
    try:
        save_rule(settings.house_rules_dir, name, body)
    except ServiceError as e:          # the form again, with the text as typed and why; the file unchanged
        return _page(request, "counter_rule.html", e.status, name=name, text=body, file=str(path),
                     builtin=False, error=str(e), saved=False)
    return _done(request, f"/counter/rules/{name}?saved=1")


def _rule_file(name: str, folder: Path) -> tuple[Path, bool]:
    """The file of rule ``name`` and whether it is a built-in (404: neither)."""
    if name in scoring.preset_ids():
        return PRESET_DIR / f"{name}.toml", True
    path = folder / f"{name}.toml"
    if not NAME_RE.match(name) or not path.is_file():
        raise ServiceError(f"no house rule {name!r} in {folder}", 404)
    return path, False


def save_rule(folder: Path, name: str, body: str, *, new: bool = False) -> Path:
    """Write ``folder/name.toml`` only if it loads (every check a file of the folder gets, run on a copy
    of the folder) and the rules extending it still load; else ServiceError 422, nothing written."""
    check_name(name, "house rule")
    if len(body.encode("utf-8")) > MAX_RULE_TEXT:
        raise ServiceError(f"a house rule file is at most {MAX_RULE_TEXT // 1024} KiB", 413)
    path = folder / f"{name}.toml"
    with tempfile.TemporaryDirectory(prefix="rules-check-") as tmp:
        trial = Path(tmp)
        others = [p for p in house_rule_files(folder) if p.name != path.name]
        for other in others:
            shutil.copy2(other, trial / other.name)
        (trial / path.name).write_text(body, encoding="utf-8")

        def said(e: Exception) -> str:       # scoring names the copy: name the folder's file
            return str(e).replace(str(trial), str(folder))
        try:
            read(trial / path.name, own_folder=True)
        except scoring.ScoringError as e:
            raise ServiceError(said(e), 422) from None
        for other in others:                  # a rule extending this one must go on loading
            try:
                read(other, own_folder=True)
            except scoring.ScoringError:
                continue                      # broken before the edit: not this edit's doing
            try:
                read(trial / other.name, own_folder=True)
            except scoring.ScoringError as e:
                raise ServiceError(f"saving {name} would break {other.stem}, which extends it: {said(e)}",
                                   422) from None
    _write(path, body, new)
    return path


def _write(path: Path, body: str, new: bool) -> None:
    """All or nothing (a temporary file of its own moved into place: two saves at once shared one,
    and a table could read a rule cut short); the time moves on, so a reader sees it. One save at a
    time in this process, so a new rule's name is taken once."""
    with _SAVING:
        before = path.stat() if path.exists() else None
        if new and before is not None:
            raise ServiceError(f"{path} exists already: edit it, or choose another name", 409)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".saving", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(body)
            if before is not None:
                # scoring keeps a file until its time or size changes: a coarse clock must not hide the edit
                later = max(os.stat(tmp).st_mtime_ns, before.st_mtime_ns + 1_000_000)
                os.utime(tmp, ns=(later, later))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

