"""Checking a house rule file against its base, merging it, and saying what changed.

scoring/house.py finds and loads house rule files; this checks each value
(docs/house-rules.md, "The format") and raises ScoringError naming the file,
the key and what is allowed.
"""

from __future__ import annotations

import copy
import math
import re
from functools import lru_cache
from typing import Any, Mapping

from .errors import ScoringError
from .presets import Preset, _choice_key, _raw_data, _set_path, preset_ids
from .table import Table
from .tiles import parse_tile, tile_name
from .yaku import YAKU, YAKUMAN

TOP_KEYS = ("extends", "name_ja", "name_en")
NAMES = ("id", "name_ja", "name_en")          # top-level data that names a rule (not in its digest)
SIGNED = ("table.end_at_or_below",)           # the only numbers that may be negative
# Multipliers and the unit's worth: 0 would make every hand, or every settlement, worth nothing.
AT_LEAST_ONE = ("karasu.factor", "gari_set.factor", "table.unit_value")
LARGEST = 1_000_000       # no count, stick, price or multiplier a table plays comes near: a bigger one is a typo

# String values the engine or the ledger reads as words (others are free text or tiles).
WORDS: dict[str, tuple[str, ...]] = {
    "table.noten_to": ("players", "pool"),
    "table.chombo_honba": ("same", "add"),
    "table.chombo_riichi": ("return", "pool"),
    "table.double_ron_dealer": ("head", "dealer_keeps"),
    "table.draw_dealer": ("stays", "tenpai"),
    "table.double_ron_honba": ("both", "head"),
    "table.end_pool": ("top", "table"),
    "table.top_tie": ("last_win_then_head_from_dealer",),
    "gari_set.mode": ("multiply", "double_kind", "add"),
    "karasu.mode": ("multiply", "add", "fixed", "fixed_by_state", "final_count"),
    "yakuman.with_yaku": ("none", "non_implied"),
}


def check_top(raw: Mapping[str, Any], label: str) -> None:
    sections = ", ".join(f"[{s}]" for s in allowed_sections(None))
    for k, v in raw.items():
        if not isinstance(v, dict) and k in allowed_sections(None):
            raise ScoringError(f"{label}: {k} must be a section [{k}] of keys, got {toml_value(v)}")
        if not isinstance(v, dict) and k not in TOP_KEYS:
            raise ScoringError(f"{label}: unknown key {k!r} at the top (allowed: "
                               f"{', '.join(TOP_KEYS)}, and the sections {sections})")
    for k, what in (("extends", "the rule it changes: a built-in such as dunhill, or a house rule"),
                    ("name_ja", "the rule's name in Japanese"), ("name_en", "the rule's name in English")):
        if k not in raw:
            raise ScoringError(f"{label}: missing key {k!r} ({what})")
        if not isinstance(raw[k], str) or not raw[k].strip():
            raise ScoringError(f"{label}: {k} must be a non-empty string, got {raw[k]!r}")


def merge(raw: Mapping[str, Any], base: Preset, base_raw: Mapping[str, Any],
           label: str, root_options: Mapping[str, Any] | None = None,
           set_by: Mapping[str, str] | None = None) -> tuple[dict[str, Any], list[str]]:
    """The base's raw data with this file's values in, checked key by key.

    A key set here stops every option patching it (a note says so). In a chain, ``root_options``
    are the built-in's options as declared (before any house rule stopped a patch) and ``set_by``
    names, for each key a house rule further down the chain set, the nearest one that set it: an
    option this file chooses that would patch such a key gets the same note (that value wins)."""
    merged = copy.deepcopy(dict(base_raw))
    declared = merged.get("options", {})
    root = root_options if root_options is not None else base_raw.get("options", {})
    set_by = set_by or {}
    notes: list[str] = []
    allowed = allowed_sections(base)
    for section, table in raw.items():
        if not isinstance(table, dict):
            continue
        if section not in allowed:
            raise ScoringError(f"{label}: unknown section [{section}] (allowed: "
                               f"{', '.join(f'[{s}]' for s in allowed)})")
        if section == "options":
            for name, value in table.items():
                _check_option(label, base.id, declared, name, value)
                declared[name]["default"] = copy.deepcopy(value)
            continue
        keys = allowed_keys(section, base)
        for key, value in table.items():
            where = f"{section}.{key}"
            if key not in keys:
                raise ScoringError(f"{label}: unknown key {where} (allowed in [{section}]: "
                                   f"{', '.join(keys)})")
            _check_value(label, where, value, keys[key], base.id)
            merged.setdefault(section, {})[key] = copy.deepcopy(value)
            for spec in declared.values():
                for patches in (spec.get("choices") or {}).values():
                    patches.pop(where, None)
            for opt in _patching(root, where):
                notes.append(f"option {opt} no longer changes {where} (the value set here wins)")
    for opt in raw.get("options", {}) if isinstance(raw.get("options"), dict) else ():
        for where in _patched_by(root, opt):
            owner = set_by.get(where)
            if owner is not None and where.partition(".")[2] not in (raw.get(where.partition(".")[0]) or {}):
                notes.append(f"option {opt} no longer changes {where} ({owner} sets it; the value set there wins)")
    check_tiles(label, merged.get("tiles", {}))
    table = merged.get("table", {})
    check_table_sums(label, table)
    for key, value in table.items():
        choices = table.get(f"{key}_choices")
        if isinstance(choices, list) and not choices:
            raise ScoringError(f"{label}: table.{key}_choices must list at least one value "
                               f"(table.{key} must be one of them), got []")
        if isinstance(choices, list) and value not in choices:
            raise ScoringError(f"{label}: table.{key} must be one of "
                               f"{', '.join(map(toml_value, choices))} (table.{key}_choices), got {toml_value(value)}")
    return merged, notes


def _patching(options: Mapping[str, Any], where: str) -> list[str]:
    """The options whose choices patch the key ``where`` ("section.key")."""
    return [opt for opt, spec in options.items()
            if any(where in patches for patches in (spec.get("choices") or {}).values())]


def _patched_by(options: Mapping[str, Any], opt: str) -> list[str]:
    """The keys ("section.key") some choice of option ``opt`` patches, in order."""
    keys: dict[str, None] = {}
    for patches in ((options.get(opt) or {}).get("choices") or {}).values():
        keys.update(dict.fromkeys(patches))
    return list(keys)


def _check_option(label: str, base_id: str, declared: Mapping[str, Any], name: str, value: Any) -> None:
    if name not in declared:
        elsewhere = [pid for pid in preset_ids() if name in _raw_data(pid).get("options", {})]
        hint = f"{name} is declared by {', '.join(elsewhere)}, not {base_id}; " if elsewhere else ""
        raise ScoringError(f"{label}: unknown option options.{name} ({hint}{base_id} declares: "
                           f"{', '.join(declared) or 'none'})")
    spec = declared[name]
    default, choices = spec.get("default"), spec.get("choices")
    if default is not None and _kind(value) != _kind(default):
        raise ScoringError(f"{label}: options.{name} must be {_DESC[_kind(default)]} like {base_id}'s "
                           f"{toml_value(default)}, got {toml_value(value)}")
    if choices is not None and _choice_key(value) not in choices:
        raise ScoringError(f"{label}: options.{name} must be one of {', '.join(choices)}, "
                           f"got {toml_value(value)}")


def allowed_sections(base: Preset | None) -> list[str]:
    names = set(vocabulary())
    if base is not None:
        names.update(k for k, v in base.data.items() if isinstance(v, Mapping))
    names.discard("options")
    return ["options", *sorted(names)]


def allowed_keys(section: str, base: Preset) -> dict[str, list[Any]]:
    """Key -> example values (the base's first) of what a house rule may set in ``section``."""
    keys: dict[str, list[Any]] = {}
    for k, v in base.data.get(section, {}).items():
        keys[k] = [v]
    for k, values in vocabulary().get(section, {}).items():
        keys.setdefault(k, []).extend(values)
    if section == "yaku":
        for y in YAKU:
            keys.setdefault(y.key, [])
    elif section == "yakuman":
        for y in YAKUMAN:
            keys.setdefault(y.id, [])
    return dict(sorted(keys.items()))


@lru_cache(maxsize=None)
def vocabulary() -> dict[str, dict[str, list[Any]]]:
    """Section -> key -> every value the built-in presets (their options included) give it."""
    vocab: dict[str, dict[str, list[Any]]] = {}
    for pid in preset_ids():
        raw = _raw_data(pid)
        for section, table in raw.items():
            if isinstance(table, dict) and section != "options":
                for k, v in table.items():
                    vocab.setdefault(section, {}).setdefault(k, []).append(v)
        for spec in raw.get("options", {}).values():
            for patches in (spec.get("choices") or {}).values():
                for path, v in patches.items():
                    section, _, k = path.partition(".")
                    vocab.setdefault(section, {}).setdefault(k, []).append(v)
    return vocab


_DESC = {"bool": "true or false", "int": "an integer", "float": "a number", "str": "a string",
         "list": "a list", "dict": "a table { ... }"}


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    if isinstance(v, str):
        return "str"
    if isinstance(v, list):
        return "list"
    if isinstance(v, dict):
        return "dict"
    return type(v).__name__


def _check_value(label: str, where: str, value: Any, examples: list[Any], base_id: str) -> None:
    section, _, key = where.partition(".")
    if section == "yaku":
        ok = (isinstance(value, list) and len(value) == 2
              and all(x == "yakuman" or (_kind(x) == "int" and x >= 0) for x in value))
        if not ok:
            raise ScoringError(f"{label}: {where} must be [closed, open], each a number of points "
                               f"(0: not counted that way) or \"yakuman\", got {toml_value(value)}")
        _check_range(label, where, value)
        return
    if section == "yakuman" and not examples:
        if _kind(value) != "int" or value < 0:
            raise ScoringError(f"{label}: {where} must be an integer (how many yakuman; 0: none), "
                               f"got {toml_value(value)}")
        _check_range(label, where, value)
        return
    problem = _misfit(value, examples)
    if problem:
        like = f" like {base_id}'s {toml_value(examples[0])}" if examples else ""
        raise ScoringError(f"{label}: {where}{problem[0]} must be {problem[1]}{like}, got {problem[2]}")
    if where in AT_LEAST_ONE and _kind(value) in ("int", "float") and value < 1:
        raise ScoringError(f"{label}: {where} must be at least 1 (0 would make it worth nothing), got {toml_value(value)}")
    if where not in SIGNED and _negative(value):
        raise ScoringError(f"{label}: {where} must not be negative, got {toml_value(value)}")
    _check_range(label, where, value)
    words = WORDS.get(where)
    if words and not (isinstance(value, str) and value in words) and not (
            where == "yakuman.with_yaku" and isinstance(value, list)):
        raise ScoringError(f"{label}: {where} must be one of {', '.join(words)}, got {toml_value(value)}")
    if where == "tiles.gari_in_hand" and isinstance(value, dict):
        hands = sorted({y.id for y in (*YAKU, *YAKUMAN)})
        for sub, allowed in (("for", ["yakuman", *hands]), ("not_for", hands)):
            bad = [x for x in value.get(sub, []) if x not in allowed]
            if bad:
                raise ScoringError(f"{label}: {where}.{sub} lists {bad[0]!r}, not a yaku "
                                   f"(known: {', '.join(allowed)})")
    if where == "yakuman.with_yaku" and isinstance(value, list):
        known = {y.key for y in YAKU}
        bad = [x for x in value if x not in known]
        if bad:
            raise ScoringError(f"{label}: {where} lists {bad[0]!r}, not a yaku (known: {', '.join(sorted(known))})")


def check_table_sums(label: str, table: Mapping[str, Any]) -> None:
    """The [table] numbers as a whole: a noten payment splits evenly between the two noten players
    (or the two tenpai), and a stick game pays out what it takes in (three players' start less the
    return, plus the top's bonus, is nothing): otherwise money appears or vanishes at settlement."""
    noten = table.get("noten_total")
    if _kind(noten) == "int" and noten % 2:
        raise ScoringError(f"{label}: table.noten_total must be even (one tenpai takes half from each of "
                           f"two noten players; one noten pays half to each of two tenpai), got {noten}")
    start, back, top = table.get("start_sticks"), table.get("return_sticks", 0), table.get("top_bonus", 0)
    if start is not None and all(_kind(v) == "int" for v in (start, back, top)) and 3 * (start - back) + top:
        raise ScoringError(f"{label}: a stick game must settle to nothing: 3 x (table.start_sticks {start} - "
                           f"table.return_sticks {back}) + table.top_bonus {top} = {3 * (start - back) + top}, "
                           f"not 0 (isshokai: 3 x (25 - 30) + 15)")


def check_tiles(label: str, tiles: Mapping[str, Any]) -> None:
    """The [tiles] section's numbers as a whole, after the file's values are in: manzu numbers 1-9 once
    each, at least one copy of each kind, and no more red fives of a suit than its fives (what the
    engine's ``Table`` would take as given). Which tiles lie in the wall: ``check_wall``."""
    manzu = tiles.get("manzu", [1, 5, 9])
    if (not isinstance(manzu, list) or len(set(manzu)) != len(manzu)
            or any(_kind(n) != "int" or not 1 <= n <= 9 for n in manzu)):
        raise ScoringError(f"{label}: tiles.manzu must list numbers 1-9, each once, got {toml_value(manzu)}")
    copies = tiles.get("copies", 4)
    suit_copies = tiles.get("suit_copies", copies)
    for key, n in (("copies", copies), ("suit_copies", suit_copies)):
        if n < 1:
            raise ScoringError(f"{label}: tiles.{key} must be at least 1 (copies of each kind in the wall), got {n}")
    for suit, n in tiles.get("red", {}).items():
        fives = copies if suit == "m" else suit_copies
        if n > fives:
            raise ScoringError(f"{label}: tiles.red.{suit} = {n} is more red fives than the {fives} copies of 5{suit}")


# What the engine reads beside each mode (scoring/table.py, scoring/engine.py): without them a
# mode counts with the reader's default (a fixed karasu of 0, an add of nothing, a x1 multiplier).
COMPANIONS: dict[str, dict[str, tuple[tuple[str, str], ...]]] = {
    "karasu": {
        "multiply": (("factor", "the no-gari multiplier"),),
        "add": (("closed", "points added to a closed hand"), ("open", "points added to an open hand")),
        "fixed": (("value", "the whole count of a win with no gari"),),
        "fixed_by_state": (("closed", "the whole count of a closed hand"),
                           ("open", "the whole count of an open hand")),
        "final_count": (("when", "the final count that karasu replaces"), ("value", "what it becomes")),
    },
    "gari_set": {
        "multiply": (("factor", "the set multiplier"),),
        "add": (("points", "points per set, or a table of them by kind"),),
    },
}


def check_resolved(label: str, preset: Preset) -> None:
    """The resolved rule as a whole, at its options' defaults and with each choice of each option:
    every mode has the values it reads beside it (``COMPANIONS``), and seven pairs counted by their
    quads (``chiitoitsu.by_quads``) have a value for every number of quads a hand can hold short
    of yakuman. A base or an option may supply what the file does not."""
    variants: list[tuple[str, Mapping[str, Any]]] = [("", preset.data)]
    for opt, spec in preset.data.get("options", {}).items():
        for choice, patches in (spec.get("choices") or {}).items():
            if patches and choice != _choice_key(preset.options.get(opt)):
                data = copy.deepcopy(dict(preset.data))
                for path, v in patches.items():
                    _set_path(data, path, copy.deepcopy(v))
                variants.append((f" (with option {opt} = {choice})", data))
    for when, data in variants:
        _check_companions(label, data, when)
        _check_by_quads(label, data.get("chiitoitsu", {}), when)


def _check_companions(label: str, data: Mapping[str, Any], when: str) -> None:
    for section, modes in COMPANIONS.items():
        table = data.get(section, {})
        mode = table.get("mode")
        missing = [(k, what) for k, what in modes.get(mode, ()) if k not in table]
        if missing:
            needs = " and ".join(f"{section}.{k} ({what})" for k, what in missing)
            raise ScoringError(f"{label}: {section}.mode {toml_value(mode)}{when} needs {needs}; "
                               f"set {'them' if len(missing) > 1 else 'it'} in [{section}]")


def _check_by_quads(label: str, chi: Mapping[str, Any], when: str) -> None:
    """``Table.chiitoitsu_value``: a hand of seven pairs whose kinds are used four times ``q`` times
    (0-3, or only 0 where ``max_use`` is under 4) is yakuman at ``q >= yakuman_quads``, or where
    its most-used kind reaches ``yakuman_use`` (a quad: 4 uses); else it counts ``by_quads[q]``."""
    by_quads = chi.get("by_quads")
    if not isinstance(by_quads, list):
        return
    max_use, yq, yu = chi.get("max_use", 2), chi.get("yakuman_quads"), chi.get("yakuman_use")
    counted = [q for q in (range(4) if _kind(max_use) == "int" and max_use >= 4 else range(1))
               if not (_kind(yq) == "int" and q >= yq) and not (_kind(yu) == "int" and (4 if q else 2) >= yu)]
    if counted and len(by_quads) <= counted[-1]:
        short = (f"; chiitoitsu.yakuman_quads = {yq} makes {yq} yakuman" if _kind(yq) == "int"
                 else "; no chiitoitsu.yakuman_quads makes them yakuman")
        raise ScoringError(f"{label}: chiitoitsu.by_quads{when} must have a value for every number of quads "
                           f"0 to {counted[-1]} (chiitoitsu.max_use = {max_use}{short}), "
                           f"got {toml_value(by_quads)}")


def check_wall(label: str, table: Table) -> None:
    """Every tile a rule names, read as the engine reads it (``table``), in its wall: gari, gari in
    hand, round winds, wildcard, and the dora each manzu indicator points at. A rule that drops 5m
    from the wall must say where 1m's dora goes (its base said 5m)."""
    wall = set(table.wall_kinds(None))
    shown = f"(tiles.manzu = {toml_value(table.preset.section('tiles').get('manzu', [1, 5, 9]))})"
    named = [("gari", k) for k in sorted(table.gari)] + [("gari_in_hand.kinds", k) for k in sorted(table.gari_in_hand)]
    named += [("round_winds", k) for k in table.round_winds]
    named += [("wildcard", table.wildcard)] if table.wildcard is not None else []
    for where, k in named:
        if k not in wall:
            raise ScoringError(f"{label}: tiles.{where} names {tile_name(k)}, not in the wall {shown}")
    for indicator in sorted(table.manzu):
        dora = table.dora_kind(indicator, [])
        if dora not in wall:
            raise ScoringError(f"{label}: tiles.dora_next: the indicator {tile_name(indicator)} points at "
                               f"{tile_name(dora)}, not in the wall {shown}; name its dora in tiles.dora_next")


def _negative(v: Any) -> bool:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return v < 0
    if isinstance(v, list):
        return any(map(_negative, v))
    if isinstance(v, dict):
        return any(map(_negative, v.values()))
    return False


def _check_range(label: str, where: str, value: Any) -> None:
    if _out_of_range(value):
        raise ScoringError(f"{label}: {where} must be a finite number within {LARGEST:,}, got {toml_value(value)}")


def _out_of_range(v: Any) -> bool:
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return not math.isfinite(v) or abs(v) > LARGEST
    if isinstance(v, list):
        return any(map(_out_of_range, v))
    if isinstance(v, dict):
        return any(map(_out_of_range, v.values()))
    return False


def _misfit(value: Any, examples: list[Any]) -> tuple[str, str, str] | None:
    """Why ``value`` is not shaped like ``examples``: (sub-key, what it must be, what it is), or None."""
    if not examples:
        return None
    kinds = {_kind(e) for e in examples}
    vk = _kind(value)
    if vk not in kinds and not (vk == "int" and "float" in kinds):
        want = " or ".join(_DESC.get(k, k) for k in sorted(kinds))
        return "", want, toml_value(value)
    if vk == "str" and all(isinstance(e, str) and _is_tile(e) for e in examples) and not _is_tile(value):
        return "", "a tile such as 1m or 4z", toml_value(value)
    if vk == "list":
        elems = [x for e in examples if isinstance(e, list) for x in e]
        if elems:
            for x in value:
                bad = _misfit(x, elems)
                if bad:
                    return " (an element)", bad[1], bad[2]
    elif vk == "dict":
        subs: dict[str, list[Any]] = {}
        for e in examples:
            if isinstance(e, dict):
                for k, v in e.items():
                    subs.setdefault(str(k), []).append(v)
        every = [v for vs in subs.values() for v in vs]
        for k, v in value.items():
            if subs and all(_is_tile(s) for s in subs):
                if not _is_tile(k):
                    return f" key {k!r}", "a tile such as 1m or 4z", repr(k)
                want = every
            elif not subs or set(subs) <= set("mps"):
                if k not in ("m", "p", "s"):
                    return f" key {k!r}", "m, p or s", repr(k)
                want = every
            else:
                if k not in subs:
                    return f" key {k!r}", f"one of {', '.join(subs)}", repr(k)
                want = subs[k]
            bad = _misfit(v, want)
            if bad:
                return f".{k}{bad[0]}", bad[1], bad[2]
    return None


def _is_tile(text: str) -> bool:
    try:
        parse_tile(text)
    except (ScoringError, ValueError, KeyError, IndexError, TypeError):
        return False
    return True


# --- what changed -----------------------------------------------------------------------

_MISSING = object()


def changes(preset: Preset, base: Preset) -> list[tuple[str, Any, Any]]:
    """``(key, base value, new value)`` for every resolved value that differs (options first)."""
    out: list[tuple[str, Any, Any]] = []
    for name in [*base.options, *(k for k in preset.options if k not in base.options)]:
        a, b = base.options.get(name, _MISSING), preset.options.get(name, _MISSING)
        if a != b:
            out.append((f"options.{name}", a, b))
    sections = [*base.data, *(k for k in preset.data if k not in base.data)]
    for section in sections:
        if section == "options" or section in NAMES:
            continue
        a, b = base.data.get(section, _MISSING), preset.data.get(section, _MISSING)
        if not isinstance(a, Mapping) or not isinstance(b, Mapping):
            if a != b:
                out.append((section, a, b))
            continue
        for key in [*a, *(k for k in b if k not in a)]:
            va, vb = a.get(key, _MISSING), b.get(key, _MISSING)
            if va != vb:
                out.append((f"{section}.{key}", va, vb))
    return out


def toml_value(v: Any) -> str:
    """``v`` written as TOML (an inline table for a mapping); ``(none)`` for a missing value."""
    if v is _MISSING:
        return "(none)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(x)}" for k, x in v.items()) + " }"
    return repr(v)


def toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else toml_value(k)
