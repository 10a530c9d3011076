"""The parlour's house rules in the service: which rules a new session may choose, one rule beside
its base, and a hand record counted under both ("try it").

House rules are ``NAME.toml`` files in the service's rules folder (``TABLE_RULES_DIR``, else
``<TABLE_DATA_DIR>/rules``; docs/house-rules.md). The service hands the folder to scoring
explicitly (a file's own path; its ``extends`` is found beside it), so two services in one
process never share one. A session stores the rule it starts under (service/ledger/stored_rules.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

import scoring
from scoring.house import NAME_RE, HouseRule, house_rule_files, read

from .errors import ServiceError
from .rule_words import differences
from .views import score_view

BUILT_IN, HOUSE = "built-in", "house rule"


class BrokenRule(ServiceError):
    """A house rule file that does not load: 422 with scoring's message (the file, the key, what is
    allowed) and the file's text."""

    def __init__(self, name: str, path: Path, message: str):
        super().__init__(message, 422)
        self.name, self.path = name, path
        try:
            self.text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            self.text = ""


@dataclass(frozen=True)
class RuleChoice:
    """A rule a session may be started under (or, with ``error``, a house rule file that does not load)."""

    name: str
    kind: str                        # BUILT_IN or HOUSE
    name_ja: str
    name_en: str
    extends: str | None = None
    file: str | None = None
    digest: str | None = None
    error: str | None = None

    @property
    def label(self) -> str:
        """How the new-session page lists it."""
        if self.kind == BUILT_IN:
            return f"{self.name} · {self.name_ja}"
        if self.error:
            return f"{self.name} · 読めません cannot load (house rule)"
        return f"{self.name} · {self.name_ja} (ハウスルール house rule, {self.extends})"

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "name_ja": self.name_ja, "name_en": self.name_en,
                "extends": self.extends, "file": self.file, "digest": self.digest, "error": self.error}


def choices(folder: Path) -> list[RuleChoice]:
    """The built-ins, then the house rule files of ``folder`` by name (one that does not load too,
    with its error)."""
    out = []
    for pid in scoring.preset_ids():
        p = scoring.load_preset(pid)
        out.append(RuleChoice(pid, BUILT_IN, str(p.data.get("name_ja", pid)), str(p.data.get("name_en", pid)),
                              digest=p.digest))
    for path in house_rule_files(folder):
        try:
            rule = read(path, own_folder=True)
        except scoring.ScoringError as e:
            out.append(RuleChoice(path.stem, HOUSE, path.stem, path.stem, file=str(path), error=str(e)))
            continue
        data = rule.preset.data
        out.append(RuleChoice(rule.name, HOUSE, str(data["name_ja"]), str(data["name_en"]), rule.extends,
                              str(path), rule.preset.digest))
    return out


def house_rule(name: str, folder: Path) -> HouseRule | None:
    """The house rule ``name`` of ``folder`` as its file is now; None for a built-in. Unknown: 404;
    a file that does not load: BrokenRule (422)."""
    if name in scoring.preset_ids():
        return None
    path = folder / f"{name}.toml"
    if not NAME_RE.match(name) or not path.is_file():
        known = ", ".join(c.name for c in choices(folder))
        raise ServiceError(f"no rule {name!r}: not a built-in nor a house rule in {folder} (rules: {known})", 404)
    try:
        return read(path, own_folder=True)
    except scoring.ScoringError as e:
        raise BrokenRule(name, path, str(e)) from None


def describe(name: str, folder: Path) -> dict[str, Any]:
    """A rule as its page shows it: names, base, file, digests, and each change in words."""
    rule = house_rule(name, folder)
    if rule is None:
        return _described(scoring.load_preset(name), None, file=None)
    return _described(rule.preset, rule.base, file=str(rule.path), chain=rule.chain, notes=rule.notes)


def describe_stored(preset: scoring.Preset, folder: Path) -> dict[str, Any]:
    """A session's stored rule (``describe``'s shape) where its file has changed or gone since the
    session started: its own values, each against its base as the base is now (``stored``: the
    page says so)."""
    try:
        base = house_rule(preset.extends, folder) if preset.extends else None
        base_preset = base.preset if base is not None else (scoring.load_preset(preset.extends)
                                                            if preset.extends else None)
    except (ServiceError, scoring.ScoringError):
        base_preset = None                      # the base itself gone or broken: the values alone
    return _described(preset, base_preset, file=preset.path, stored=True)


def _described(p: scoring.Preset, base: scoring.Preset | None, *, file: str | None, chain=(), notes=(),
               **more: Any) -> dict[str, Any]:
    """Rule ``p`` as its page shows it, beside ``base`` (None: a built-in, or a base gone)."""
    return {"name": p.id, "kind": BUILT_IN if p.extends is None else HOUSE,
            "name_ja": p.data.get("name_ja", p.id), "name_en": p.data.get("name_en", p.id),
            "extends": p.extends, "chain": list(chain), "file": file, "digest": p.digest,
            "base": None if base is None else {
                "name": base.id, "name_ja": base.data.get("name_ja", base.id),
                "name_en": base.data.get("name_en", base.id), "digest": base.digest,
                "kind": BUILT_IN if base.extends is None else HOUSE},
            "changes": [] if base is None else differences(p, base), "notes": list(notes), **more}


def parse_record(text: str) -> dict[str, Any]:
    """A pasted hand record: a JSON object (422 saying why not)."""
    if not text.strip():
        raise ServiceError("paste a hand record (JSON), or take the table's reading", 422)
    try:
        record = json.loads(text)
    except json.JSONDecodeError as e:
        raise ServiceError(f"the hand record is not JSON: {e.msg} at line {e.lineno} column {e.colno}", 422) from None
    except RecursionError:
        raise ServiceError("the hand record is nested too deeply to be one", 422) from None
    if not isinstance(record, dict):
        raise ServiceError("a hand record is a JSON object {...} (docs/hand-record.md)", 422)
    return record


def try_record(name: str, folder: Path, record: Mapping[str, Any]) -> dict[str, Any]:
    """``record`` counted under the house rule and under its base, side by side (a built-in: under
    it alone). The record's ``rules`` is replaced, its options still apply. A record neither rule
    counts: 422 with the scoring error."""
    rule = house_rule(name, folder)
    presets = [(scoring.load_preset(name), BUILT_IN)] if rule is None else [(rule.base, "base"),
                                                                            (rule.preset, HOUSE)]
    columns, errors = [], []
    for preset, role in presets:
        rec = {**record, "rules": preset.id}
        try:
            counted = score_view(scoring.score(rec, preset).to_dict(), {})
            columns.append({"rule": preset.id, "role": role, "score": counted, "error": None})
        except scoring.ScoringError as e:
            columns.append({"rule": preset.id, "role": role, "score": None, "error": str(e)})
            errors.append(str(e))
    if len(errors) == len(columns):
        raise ServiceError(errors[0] if len(set(errors)) == 1
                           else "; ".join(f"{c['rule']}: {c['error']}" for c in columns), 422)
    totals = [c["score"]["total"] if c["score"] else None for c in columns]
    return {"rule": name, "record": dict(record), "columns": columns,
            "differs": len(columns) == 2 and (totals[0] != totals[1] or _paid(columns[0]) != _paid(columns[1]))}


def _paid(column: Mapping[str, Any]) -> Any:
    return column["score"]["payments"] if column["score"] else None
