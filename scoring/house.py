"""House rules: a parlour's own variant of a rule, as a small TOML file that extends one.

A house rule file names its base (``extends``: a built-in preset or another
house rule), its names (``name_ja``, ``name_en``) and only what differs:

    extends = "dunhill"
    name_ja = "雀荘ルール"
    name_en = "Our parlour"
    [options]
    open_riichi_points = 1          # an option the base declares, one of its choices
    [table]
    noten_total = 10                # any key of the base's sections, same type

The rule's name is the file's name (``ours.toml`` is ``ours``); it may not be a
built-in's. House rules live in the rules folder: ``$TOUTENKOU_RULES_DIR``, else
``rules/`` in the user's data folder (platformdirs). ``extends`` finds a
built-in first, then a house rule beside the file, then one in the rules folder.

What a section may set: the keys the base has there, the keys any built-in
preset has there (``[items] five`` from balance, ``[karasu] closed`` from
toutenkou, ...) and, in ``[yaku]`` and ``[yakuman]``, any yaku the engine knows.
A value replaces the base's whole (an inline table too) and must have the
type the base's value (or the built-ins' values) has; a value the house rule
sets wins over an option: that option's choices stop patching that key, here and in every
house rule that extends this one (``HouseRule.set_by``; a rule choosing that option gets a note).

Loading checks everything (scoring/house_check.py: each value, then the merged rule as a whole:
its tiles, table sums, each mode's companion values, seven pairs' by_quads) and raises ScoringError
naming the file and the key with what is allowed. The result is an ordinary ``Preset`` (its ``extends`` and
``path`` set), cached per file until the file (or one it extends) changes.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .errors import ScoringError
from .house_check import changes, check_resolved, check_top, check_wall, merge, toml_key, toml_value  # noqa: F401  (changes, toml_*: re-exported)
from .presets import PRESET_DIR, Preset, _build, _freeze, _raw_data, builtin, is_builtin, preset_ids
from .table import Table

ENV_DIR = "TOUTENKOU_RULES_DIR"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


def check_name(name: str, where: str) -> None:
    """A house rule's name (its file's name): letters, digits, '-' or '_', and no built-in's name
    (built-ins are read-only). ``ScoringError`` saying so, after ``where``."""
    if not NAME_RE.match(name):
        raise ScoringError(f"{where}: a house rule's name is its file's name: use letters, digits, '-' or '_' "
                           f"(at most 64), got {name!r}")
    if name.lower() in preset_ids():          # "Dunhill" beside dunhill: one rule to players, two to the ledger
        raise ScoringError(f"{where}: {name!r} is a built-in rule's name; built-ins are read-only, "
                           f"so name yours otherwise (e.g. {name}-house)")


def rules_dir() -> Path:
    """``$TOUTENKOU_RULES_DIR``, else ``rules/`` in the user's data folder."""
    return Path(os.environ.get(ENV_DIR) or _default_dir())


@lru_cache(maxsize=None)
def _default_dir() -> str:
    from platformdirs import user_data_dir
    return str(Path(user_data_dir("toutenkou", appauthor=False)) / "rules")


def house_rule_files(folder: Path | None = None) -> list[Path]:
    """The ``*.toml`` files in the rules folder, by name (none if it does not exist). A folder or a
    broken link that happens to end in .toml is no rule."""
    folder = folder or rules_dir()
    return sorted(p for p in folder.glob("*.toml") if p.is_file()) if folder.is_dir() else []


@dataclass(frozen=True)
class HouseRule:
    """A loaded house rule: its file, its base, and the resolved preset."""

    name: str
    path: Path
    extends: str
    preset: Preset                 # the house rule, options at its defaults
    base: Preset                   # what it extends, options at the base's defaults
    chain: tuple[str, ...]         # the bases in order, nearest first, ending at a built-in
    notes: tuple[str, ...]         # "option X no longer changes K": a value here won over it
    stamps: tuple[tuple[str, int, int], ...]   # (path, mtime_ns, size) of every file it read
    # ("section.key", name): each key this rule or one it extends sets, and the nearest rule setting it
    set_by: tuple[tuple[str, str], ...] = ()


# --- finding and loading ----------------------------------------------------------------

def load(preset_id: str, options: Mapping[str, Any] | None = None) -> Preset:
    """The rule named ``preset_id`` with ``options`` applied over its defaults.

    A built-in first; any other name is a house rule in the rules folder."""
    if not isinstance(preset_id, str):
        raise ScoringError(f"rules must be a preset id, got {preset_id!r}")
    if is_builtin(preset_id):
        return builtin(preset_id, options)
    return load_named(preset_id, options)


def load_named(name: str, options: Mapping[str, Any] | None = None) -> Preset:
    """The house rule ``name`` from the rules folder (the engine's fallback after built-ins).

    Asked once per hand: a rule already read costs one stat per file it reads."""
    key = (os.environ.get(ENV_DIR) or _default_dir(), name)
    rule = _BY_NAME.get(key)
    if rule is None or not _fresh(rule.stamps):
        path = _in_folder(name, Path(key[0]))
        if path is None:
            raise ScoringError(_unknown(name))
        rule = _BY_NAME[key] = read(path)
    return _with_options(rule, options)


def load_rules(name_or_path: str, options: Mapping[str, Any] | None = None) -> Preset:
    """A built-in or house rule by name, or a house rule file by path (``.toml`` or a path)."""
    if _is_path(name_or_path):
        path = Path(name_or_path)
        if path.suffix == ".toml" and path.resolve().parent == PRESET_DIR.resolve():
            return builtin(path.stem, options)   # a built-in preset's own file
        return _with_options(read(path), options)
    return load(name_or_path, options)


def house_rule(name_or_path: str) -> HouseRule:
    """The house rule by path, or by name in the rules folder (for ``rules check``)."""
    if _is_path(name_or_path):
        return read(Path(name_or_path))
    if name_or_path in preset_ids():
        raise ScoringError(f"{name_or_path} is a built-in rule, not a house rule")
    path = _in_folder(name_or_path, rules_dir())
    if path is None:
        raise ScoringError(_unknown(name_or_path))
    return read(path)


def resolve_base(name: str, near: Path | None = None) -> Preset:
    """A rule to extend: a built-in, else a house rule beside ``near``, else in the rules folder."""
    if name in preset_ids():
        return builtin(name)
    path = _find_base(name, near)
    if path is None:
        raise ScoringError(f"no such rule {name!r} to extend; {_known(near.parent if near is not None else None)}")
    return read(path).preset


_CACHE: dict[str, HouseRule] = {}
_BY_NAME: dict[tuple[str, str], HouseRule] = {}
_WITH_OPTIONS: dict[tuple, Preset] = {}


def read(path: Path, *, own_folder: bool = False) -> HouseRule:
    """Load and check the house rule file at ``path`` (cached until a file of it changes).

    ``own_folder``: every rule it extends is a built-in or lies beside it. A table's rules folder is
    all it counts by: a base found in the user's rules folder (``$TOUTENKOU_RULES_DIR``) is refused,
    or one table's stray file there would count a rule its sisters sharing the folder count
    otherwise, and the table itself could not start a session under that base."""
    rule = _read(Path(path), ())
    if own_folder:
        folder = Path(path).absolute().parent
        stray = [Path(p) for p, _, _ in rule.stamps if Path(p).absolute().parent != folder]
        if stray:               # read again, the chain afresh: a base may have been put beside it since
            for p, _, _ in rule.stamps:
                _CACHE.pop(str(Path(p).absolute()), None)
            rule = _read(Path(path), ())
            stray = [Path(p) for p, _, _ in rule.stamps if Path(p).absolute().parent != folder]
        if stray:
            raise ScoringError(f"{path}: it extends {stray[0].stem!r}, found at {stray[0]}, outside this rules "
                               f"folder ({folder}): a table counts by its own folder's rules (copy that file "
                               "here, or extend a built-in)")
    return rule


def _read(path: Path, seen: tuple[str, ...]) -> HouseRule:
    key = str(path.absolute())
    hit = _CACHE.get(key)
    if hit is not None and _fresh(hit.stamps) and not any(s[0] in seen for s in hit.stamps):
        return hit
    label = str(path)
    if key in seen:
        names = [Path(p).stem for p in (*seen[seen.index(key):], key)]
        raise ScoringError(f"{label}: extends makes a cycle: {' -> '.join(names)}")
    raw, stamp = _parse(path, label)
    name = path.stem
    check_name(name, label)
    check_top(raw, label)
    extends = raw["extends"]
    if extends in preset_ids():
        base, base_raw, chain, stamps = builtin(extends), _raw_data(extends), (extends,), ()
        set_by: dict[str, str] = {}
    else:
        base_path = _find_base(extends, path) if NAME_RE.match(extends) else None
        if base_path is None:
            raise ScoringError(f"{label}: extends = {extends!r}: no such rule (not a built-in, not beside "
                               f"this file, not in the rules folder); {_known(path.parent)}")
        parent = _read(base_path, (*seen, key))
        base, base_raw = parent.preset, parent.preset.source
        chain, stamps = (extends, *parent.chain), parent.stamps
        set_by = dict(parent.set_by)
    merged, notes = merge(raw, base, base_raw, label, _raw_data(chain[-1]).get("options", {}), set_by)
    set_by.update((f"{section}.{key}", name) for section, table in raw.items()
                  if isinstance(table, dict) and section != "options" for key in table)
    merged["id"], merged["name_ja"], merged["name_en"] = name, raw["name_ja"], raw["name_en"]
    try:
        preset = replace(_build(name, merged, {}), extends=extends, path=str(path))
        table = Table.of(preset)            # the engine's own reading: bad tiles, bad numbers
    except (ScoringError, ValueError, TypeError, KeyError, AttributeError) as e:
        raise ScoringError(f"{label}: the rule does not load: {e}") from None
    check_wall(label, table)
    check_resolved(label, preset)
    rule = HouseRule(name, path, extends, preset, base, chain, tuple(notes), (stamp, *stamps),
                     tuple(sorted(set_by.items())))
    _CACHE[key] = rule
    return rule


def _with_options(rule: HouseRule, options: Mapping[str, Any] | None) -> Preset:
    if not options:
        return rule.preset
    key = (rule.stamps, _freeze(options))
    p = _WITH_OPTIONS.get(key)
    if p is None:
        if len(_WITH_OPTIONS) > 512:
            _WITH_OPTIONS.clear()
        p = _WITH_OPTIONS[key] = rule.preset.with_options(options)
    return p


def _parse(path: Path, label: str) -> tuple[dict[str, Any], tuple[str, int, int]]:
    try:
        st = path.stat()
        with path.open("rb") as f:
            raw = tomllib.load(f)
    except OSError as e:
        raise ScoringError(f"cannot read house rule {label}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ScoringError(f"{label}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise ScoringError(f"{label}: not UTF-8 text") from None
    except RecursionError:       # the TOML reader recurses: a file nested thousands deep
        raise ScoringError(f"{label}: nested deeper than {MAX_DEPTH} levels of [ ] or {{ }}") from None
    if _depth(raw) > MAX_DEPTH:  # every check after this recurses too
        raise ScoringError(f"{label}: nested deeper than {MAX_DEPTH} levels of [ ] or {{ }}")
    return raw, (str(path.absolute()), st.st_mtime_ns, st.st_size)


MAX_DEPTH = 8         # the deepest a built-in goes is 7 (toutenkou's [options] choice patches)


def _depth(value: Any) -> int:
    """How deep lists and tables nest in ``value`` (a scalar: 0), without recursing."""
    deepest, todo = 0, [(value, 0)]
    while todo:
        v, d = todo.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            if d + 1 > MAX_DEPTH:
                return d + 1
            deepest = max(deepest, d + 1)
            todo.extend((x, d + 1) for x in v)
    return deepest


def _fresh(stamps: tuple[tuple[str, int, int], ...]) -> bool:
    for p, mtime, size in stamps:
        try:
            st = os.stat(p)
        except OSError:
            return False
        if st.st_mtime_ns != mtime or st.st_size != size:
            return False
    return True


def _is_path(text: str) -> bool:
    return text.endswith(".toml") or "/" in text or os.sep in text


def _in_folder(name: str, folder: Path) -> Path | None:
    if not NAME_RE.match(name):
        return None
    p = folder / f"{name}.toml"
    return p if p.is_file() else None


def _find_base(name: str, near: Path | None) -> Path | None:
    folders = [near.parent] if near is not None else []
    folders.append(rules_dir())
    for folder in folders:
        p = _in_folder(name, folder)
        if p is not None:
            return p
    return None


def _known(folder: Path | None = None) -> str:
    """The rules there are: the built-ins, and the house rules of ``folder`` (default: the rules folder)."""
    folder = folder or rules_dir()
    house = [p.stem for p in house_rule_files(folder) if p.stem not in preset_ids()]
    return (f"built-ins: {', '.join(preset_ids())}; house rules in {folder}: "
            f"{', '.join(house) or 'none'}")


def _unknown(name: str) -> str:
    return f"unknown rules preset {name!r}; {_known()}"
