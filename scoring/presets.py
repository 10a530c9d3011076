"""House-rule presets: one TOML file each in scoring/presets/.

A preset is data: tile set, yaku values, items, multipliers, table rules and
named options. An option either patches preset values (a ``choices`` table
mapping each allowed value to ``"section.key" = value`` patches) or is a plain
value the engine reads (``Preset.option``). A parlour's variant is a house
rule: a small file that extends a preset (scoring/house.py, docs/house-rules.md).
``builtin`` loads a built-in; ``scoring.house.load`` (``scoring.load_preset``) finds a
name among the built-ins first, then in the rules folder.
``load_file`` still reads a whole preset file from any path.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from .errors import ScoringError
from .tiles import kind, parse_tile

PRESET_DIR = Path(__file__).parent / "presets"


def preset_ids() -> list[str]:
    """The built-in presets (house rules are listed by scoring.house)."""
    return list(_builtin_ids())


@lru_cache(maxsize=None)
def _builtin_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in PRESET_DIR.glob("*.toml")))


@dataclass(frozen=True)
class Preset:
    """A house rule with its options resolved. ``data`` is the (patched) TOML table.

    ``extends`` and ``path`` are set for a house rule (scoring/house.py): the
    rule it extends and its file; a built-in has neither."""

    id: str
    data: Mapping[str, Any]
    options: Mapping[str, Any]
    source: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    extends: str | None = field(default=None, compare=False)
    path: str | None = field(default=None, repr=False, compare=False)

    @cached_property
    def digest(self) -> str:
        """A stable hash of what counts: the resolved data and options, not the rule's names.

        A house rule that changes nothing has its base's digest."""
        body = {k: v for k, v in self.data.items() if k not in ("id", "name_ja", "name_en")}
        text = json.dumps({"data": body, "options": self.options}, sort_keys=True, ensure_ascii=False,
                          separators=(",", ":"), default=_jsonable)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def section(self, name: str) -> Mapping[str, Any]:
        return self.data.get(name, {})

    def option(self, name: str) -> Any:
        return self.options[name]

    @property
    def unit(self) -> str:
        return self.data.get("unit", "points")

    @property
    def table(self) -> Mapping[str, Any]:
        """Table rules for the ledger: dealer, honba, noten, chombo, sticks."""
        return self.section("table")

    def with_options(self, chosen: Mapping[str, Any]) -> "Preset":
        """This preset with record-level options applied (unknown or bad ones raise)."""
        if not chosen:
            return self
        built = _build(self.id, self.source, {**_base_choices(self), **chosen})
        return built if self.extends is None else replace(built, extends=self.extends, path=self.path)


def _jsonable(v: Any) -> Any:
    return dict(v) if isinstance(v, Mapping) else str(v)


@lru_cache(maxsize=None)
def _raw_data(preset_id: str) -> dict[str, Any]:
    if not is_builtin(preset_id):
        raise _unknown_builtin(preset_id)
    with (PRESET_DIR / f"{preset_id}.toml").open("rb") as f:
        return tomllib.load(f)


def is_builtin(preset_id: Any) -> bool:
    """Whether ``preset_id`` names a built-in preset (any other name may be a house rule)."""
    return isinstance(preset_id, str) and preset_id in _builtin_ids()


def _unknown_builtin(preset_id: Any) -> ScoringError:
    return ScoringError(f"unknown rules preset {preset_id!r}; known: {', '.join(preset_ids())}")


def builtin(preset_id: str, options: Mapping[str, Any] | None = None) -> Preset:
    """The built-in preset ``preset_id`` with ``options`` applied over its defaults. A name that may
    also be a house rule is loaded by ``scoring.house.load``, which tries the built-ins first."""
    if not is_builtin(preset_id):
        raise _unknown_builtin(preset_id)
    return _resolve(preset_id, _freeze(options or {}))


def load_file(path: str | Path, options: Mapping[str, Any] | None = None) -> Preset:
    """A preset from any TOML file (a parlour's own variant)."""
    try:
        with Path(path).open("rb") as f:
            raw = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ScoringError(f"cannot read preset file {path}: {e}") from None
    pid = raw.get("id") or Path(path).stem
    return _build(pid, raw, dict(options or {}))


def _freeze(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted((k, _hashable(v)) for k, v in options.items()))


def _hashable(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _hashable(x)) for k, x in v.items()))
    return v


@lru_cache(maxsize=256)
def _resolve(preset_id: str, options: tuple[tuple[str, Any], ...]) -> Preset:
    return _build(preset_id, _raw_data(preset_id), dict(options))


def _base_choices(preset: Preset) -> dict[str, Any]:
    """The options a preset was built with that differ from its file's defaults."""
    declared = preset.data.get("options", {})
    return {k: v for k, v in preset.options.items() if declared.get(k, {}).get("default") != v}


def _build(preset_id: str, raw: Mapping[str, Any], chosen: dict[str, Any]) -> Preset:
    declared = raw.get("options", {})
    unknown = set(chosen) - set(declared)
    if unknown:
        names = ", ".join(sorted(declared)) or "none"
        raise ScoringError(
            f"unknown option(s) for {preset_id}: {', '.join(sorted(unknown))} (known: {names})")
    data = copy.deepcopy(dict(raw))
    values: dict[str, Any] = {}
    for name, spec in declared.items():
        value = chosen.get(name, spec.get("default"))
        choices = spec.get("choices")
        if choices is not None:
            key = _choice_key(value)
            if key not in choices:
                raise ScoringError(
                    f"option {name} for {preset_id} must be one of {', '.join(choices)}, got {value!r}")
            for path, patch in choices[key].items():
                _set_path(data, path, copy.deepcopy(patch))
        else:
            default = spec.get("default")
            if default is not None and type(value) is not type(default):
                raise ScoringError(
                    f"option {name} for {preset_id} must be {type(default).__name__}, got {value!r}")
        values[name] = value
    _check(preset_id, data)
    return Preset(preset_id, MappingProxyType(data), MappingProxyType(values), raw)


def _choice_key(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _set_path(data: dict[str, Any], path: str, value: Any) -> None:
    section, _, key = path.partition(".")
    data.setdefault(section, {})[key] = value


_SECTIONS = {"tiles", "rules", "yaku", "yakuman", "items", "gari_set", "karasu", "bounty",
             "table", "options", "chiitoitsu", "implies", "fixed"}


def _check(preset_id: str, data: Mapping[str, Any]) -> None:
    """Catch a mistyped preset file early, with its name in the message."""
    extra = set(k for k, v in data.items() if isinstance(v, dict)) - _SECTIONS
    if extra:
        raise ScoringError(f"preset {preset_id}: unknown section(s) {', '.join(sorted(extra))}")
    tiles = data.get("tiles", {})
    for t in tiles.get("gari", []):
        kind(parse_tile(t))
    for name, v in data.get("yaku", {}).items():
        if not (isinstance(v, list) and len(v) == 2):
            raise ScoringError(f"preset {preset_id}: yaku.{name} must be [closed, open]")
