"""The rule a session is played under, stored with it (``ledger_rules``).

A session resolves its rule once, when it starts: a built-in (scoring/presets)
or a house rule (a ``NAME.toml`` in the rules folder, docs/house-rules.md). The
resolved rule is stored whole, as JSON, keyed by its digest and name:

    {"name": "ours", "extends": "dunhill", "digest": "4965402636f54f63fd2a",
     "name_ja": "...", "name_en": "...", "file": "/data/rules/ours.toml",
     "options": {...}, "data": {...}, "source": {...}}

``data`` and ``options`` are what the engine counts with (``Preset.data`` and
``Preset.options``; the digest is theirs), ``source`` what a hand record's own
options are applied over (``Preset.with_options``). Every hand of the session,
a correction included, is counted with this stored rule: editing the file later
changes the sessions started after the edit, not this one.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from sqlalchemy import Connection, insert, select, update

import scoring
from scoring.presets import Preset

from . import db
from .errors import LedgerError

BODY_KEYS = ("name", "digest", "options", "data", "source")


def resolve(name: Any, folder: Path | None = None) -> Preset:
    """The rule named ``name``: a built-in, else the house rule ``folder/NAME.toml`` (the
    service's rules folder), else, with no folder given, scoring's rules folder
    (``$TOUTENKOU_RULES_DIR``). A file that does not load raises LedgerError with its message."""
    if not isinstance(name, str) or not name:
        raise LedgerError(f"rules must be a rule's name such as 'dunhill', got {name!r}")
    try:
        if name in scoring.preset_ids():
            return scoring.load_preset(name)
        if folder is None:
            return scoring.load_preset(name)
        from scoring.house import NAME_RE, house_rule_files, read
        path = Path(folder) / f"{name}.toml"
        if not NAME_RE.match(name) or not path.is_file():
            house = ", ".join(p.stem for p in house_rule_files(Path(folder))) or "none"
            raise LedgerError(f"unknown rules {name!r}: not a built-in ({', '.join(scoring.preset_ids())}) "
                              f"nor a house rule in {folder} ({house})")
        return read(path, own_folder=True).preset
    except scoring.ScoringError as e:
        raise LedgerError(str(e)) from None


def to_body(preset: Preset) -> dict[str, Any]:
    """The stored form of a resolved rule (plain JSON)."""
    data = _plain(preset.data)
    return {"name": preset.id, "extends": preset.extends, "digest": preset.digest,
            "name_ja": data.get("name_ja", preset.id), "name_en": data.get("name_en", preset.id),
            "file": preset.path, "options": _plain(preset.options), "data": data,
            "source": _plain(preset.source)}


def from_body(body: Any) -> Preset:
    """The rule a stored body holds; refused when its data do not give its digest (edited by hand)."""
    if not isinstance(body, Mapping) or any(k not in body for k in BODY_KEYS):
        raise LedgerError(f"a stored rule needs {', '.join(BODY_KEYS)}")
    data, options, source = body["data"], body["options"], body["source"]
    if not all(isinstance(x, Mapping) for x in (data, options, source)):
        raise LedgerError("a stored rule's data, options and source are JSON objects")
    preset = Preset(str(body["name"]), MappingProxyType(copy.deepcopy(dict(data))),
                    MappingProxyType(copy.deepcopy(dict(options))), copy.deepcopy(dict(source)),
                    extends=body.get("extends"), path=body.get("file"))
    if preset.digest != body["digest"]:
        raise LedgerError(f"the stored rule {body['name']!r} does not match its digest "
                          f"({body['digest']}; its data give {preset.digest}): it was changed after it was stored")
    return preset


def save(conn: Connection, body: Mapping[str, Any]) -> None:
    """Store ``body`` unless a rule of that digest and name is stored already (two sessions started
    at once under a new rule: both keep one row). The digest leaves the names out (they count
    nothing), so a rule renamed and nothing else keeps its row with the names it has now: every
    session of it, earlier ones too, shows the name the parlour gave it last."""
    row = {"digest": body["digest"], "name": body["name"], "extends": body.get("extends"),
           "body": dict(body), "created_at": db.now(conn)}
    same = (db.rules.c.digest == row["digest"], db.rules.c.name == row["name"])
    dialect = conn.dialect.name
    if dialect in ("postgresql", "sqlite"):
        if dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert
        conn.execute(upsert(db.rules).values(**row).on_conflict_do_nothing(index_elements=["digest", "name"]))
    elif conn.execute(select(db.rules.c.digest).where(*same)).first() is None:
        conn.execute(insert(db.rules).values(**row))
    stored = conn.execute(select(db.rules.c.body).where(*same)).scalar_one()
    if any(stored.get(k) != body.get(k) for k in NAME_KEYS):
        names = {k: body.get(k) for k in NAME_KEYS}
        data = {**stored["data"], **{k: body["data"].get(k) for k in NAME_KEYS}}
        conn.execute(update(db.rules).where(*same).values(body={**stored, **names, "data": data}))


NAME_KEYS = ("name_ja", "name_en")


def _plain(v: Any) -> Any:
    """A JSON copy of preset data (mappings to dicts, tuples to lists)."""
    return json.loads(json.dumps(v, default=_jsonable, ensure_ascii=False))


def _jsonable(v: Any) -> Any:
    if isinstance(v, Mapping):
        return dict(v)
    if isinstance(v, (tuple, set, frozenset)):
        return list(v)
    raise TypeError(f"not JSON: {v!r}")
