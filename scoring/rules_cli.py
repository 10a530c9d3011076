"""The ``rules`` commands and the ``presets`` listing (house rules: scoring/house.py).

    python -m scoring rules new NAME --from dunhill [--out FILE]
    python -m scoring rules check FILE_OR_NAME [--examples DIR]
    python -m scoring presets

``new`` writes a starting file: every key a house rule of that base may set,
commented out at the base's current value, grouped by section with the base
file's own comments. ``check`` loads a house rule (every check of house.py),
prints what differs from its base, and scores the base's worked examples
(``examples/*.json`` whose ``rules`` is the base or one of its bases) under
both, side by side. Bad input: exit 2 with one line.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from .engine import Result, score
from .errors import ScoringError
from .house import HouseRule, check_name, house_rule, house_rule_files, read, resolve_base, rules_dir
from .house_check import allowed_keys, changes, toml_key, toml_value, vocabulary
from .presets import PRESET_DIR, Preset, preset_ids

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


def add_parser(sub: argparse._SubParsersAction) -> None:
    rp = sub.add_parser("rules", help="a parlour's house rules: write a starting file, check one")
    rsub = rp.add_subparsers(dest="rules_command", required=True)
    np = rsub.add_parser("new", help="write a commented starting file for a house rule")
    np.add_argument("name", help="the house rule's name (its file is NAME.toml)")
    np.add_argument("--from", dest="base", required=True, metavar="BASE",
                    help="the rule it extends: a built-in (dunhill, ...) or a house rule")
    np.add_argument("--out", metavar="FILE",
                    help="write here (a file NAME.toml, or a folder) instead of the rules folder")
    cp = rsub.add_parser("check", help="validate a house rule, show its changes and the base's examples")
    cp.add_argument("rule", metavar="FILE_OR_NAME", help="a house rule file, or a name in the rules folder")
    cp.add_argument("--examples", metavar="DIR", default=str(EXAMPLES_DIR),
                    help="the worked examples to score (default: the repository's examples/)")


def run(args: argparse.Namespace) -> int:
    try:
        if args.rules_command == "new":
            return _new(args.name, args.base, args.out)
        return _check(args.rule, Path(args.examples))
    except ScoringError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def listing() -> str:
    """One line per rule: the built-ins, then the house rules in the rules folder."""
    lines = [f"{pid:<12} built-in" for pid in preset_ids()]
    for path in house_rule_files():
        try:
            rule = read(path)
        except ScoringError as e:
            msg = str(e).removeprefix(f"{path}: ")
            lines.append(f"{path.stem:<12} house rule, file {path}: not loadable: {msg}")
            continue
        lines.append(f"{rule.name:<12} house rule, extends {rule.extends}, file {path}")
    return "\n".join(lines)


# --- rules new --------------------------------------------------------------------------

def _new(name: str, base_name: str, out: str | None) -> int:
    check_name(name, "rules new")
    if out is None:
        path = rules_dir() / f"{name}.toml"
    else:
        path = Path(out)
        if path.is_dir() or out.endswith(("/", os.sep)):        # a folder, there or to be made
            path = path / f"{name}.toml"
        elif path.name != f"{name}.toml":
            raise ScoringError(f"--out {out}: a house rule is named by its file: write {name}.toml "
                               f"(or give a folder)")
    base = resolve_base(base_name, path)
    text = template(name, base, check_as=name if out is None else str(path))
    made = False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as f:
            made = True
            f.write(text)
    except FileExistsError:
        raise ScoringError(f"{path} exists already; not overwriting it (edit it, or choose another name)") from None
    except OSError as e:
        if made:        # cut short (a full disk): half a rule file would pass for one and block the retry
            path.unlink(missing_ok=True)
        raise ScoringError(f"cannot write {path}: {e.strerror}") from None
    print(f"wrote {path}: a house rule extending {base.id}; uncomment and change what differs, "
          f"then: python -m scoring rules check {path}")
    return 0


def template(name: str, base: Preset, check_as: str | None = None) -> str:
    """A house rule file that changes nothing: every settable key commented out at its value."""
    notes = _comments(base)
    data = base.data
    out = [
        f"# {name}: a house rule extending {base.id} ({data.get('name_ja', '')} / {data.get('name_en', '')}).",
        f"# Only what differs from {base.id} belongs here: uncomment a line and change its value.",
        f"# Each line shows {base.id}'s current value. A value replaces the base's whole (an inline",
        "# table too); a value set here wins over an option that patches the same key.",
        f"# Check it: python -m scoring rules check {check_as or name}    Format: docs/house-rules.md",
        "",
        f"extends = {toml_value(base.id)}",
        f"name_ja = {toml_value(str(data.get('name_ja', base.id)) + f' ({name})')}   # the name the table shows",
        f"name_en = {toml_value(str(data.get('name_en', base.id)) + f' ({name})')}",
        "",
        "[options]",
        f"# The options {base.id} declares; each line is its default.",
    ]
    patched: dict[str, str] = {}
    for opt, spec in data.get("options", {}).items():
        for patches in (spec.get("choices") or {}).values():
            for where in patches:
                patched.setdefault(where, opt)
        doc = str(spec.get("doc", "")).strip()
        choices = spec.get("choices")
        allowed = f" Choices: {', '.join(choices)}." if choices else ""
        out.append(f"# {doc}{allowed}".rstrip())
        out.append(f"# {toml_key(opt)} = {toml_value(base.options.get(opt, spec.get('default')))}")
    for section, table in data.items():
        if section == "options" or not isinstance(table, dict):
            continue
        out += ["", f"[{section}]"]
        head = notes.get(section, {}).get("")
        if head:
            out.append(f"# {head}")
        for key, value in table.items():
            note = notes.get(section, {}).get(key)
            opt = patched.get(f"{section}.{key}")
            if opt:
                note = f"{note + ' ' if note else ''}(set by option {opt}; a value here wins over it)"
            if note:
                out.append(f"# {note}")
            out.append(f"# {toml_key(key)} = {toml_value(value)}")
        others = [k for k in allowed_keys(section, base) if k not in table]
        if others:
            out += _wrap(f"Also settable here (the engine reads them; see the other built-ins): "
                         f"{', '.join(others)}.")
    for section in sorted(set(vocabulary()) - set(data)):
        out += ["", f"# [{section}] (none in {base.id}; the other built-ins have it): "
                f"{', '.join(vocabulary()[section])}"]
    return "\n".join(out) + "\n"


def _wrap(text: str, width: int = 88) -> list[str]:
    lines, line = [], "#"
    for word in text.split():
        if len(line) + 1 + len(word) > width:
            lines.append(line)
            line = "#"
        line += " " + word
    return lines + [line]


def _comments(base: Preset) -> dict[str, dict[str, str]]:
    """Section -> key -> the comment beside it, from the base's file and the files it extends
    (nearest first); key "" is the section's own comment."""
    files = []
    p = base
    while p.extends is not None and p.path:
        files.append(Path(p.path))
        p = read(Path(p.path)).base
    files.append(PRESET_DIR / f"{p.id}.toml")
    merged: dict[str, dict[str, str]] = {}
    for f in reversed(files):
        for section, keys in file_comments(f).items():
            merged.setdefault(section, {}).update(keys)
    return merged


_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]")
_KEY = re.compile(r"^([A-Za-z0-9_-]+)\s*=")


def file_comments(path: Path) -> dict[str, dict[str, str]]:
    """The comments of a rule file: section -> key -> text; key "" is the section's own.

    A comment line before a key (or a header) and the comment after it on its
    line belong to it; an indented comment line carries on the one above."""
    out: dict[str, dict[str, str]] = {}
    section, pending, last = "", [], None
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return out

    def put(key: str, words: list[str]) -> None:
        words = [w for w in words if w]
        if words:
            sec = out.setdefault(section, {})
            sec[key] = " ".join(filter(None, [sec.get(key, ""), *words]))

    for line in text.splitlines():
        s = line.strip()
        m = _HEADER.match(s)
        if m:
            section = m.group(1).strip().strip('"')
            if section.startswith("options."):
                section = "options"
            put("", [*pending, _inline(s)])
            pending, last = [], ""
        elif s.startswith("#"):
            words = s.lstrip("#").strip()
            if last is not None and (last == "" or line[:1].isspace()):
                put(last, [words])
            else:
                pending.append(words)
        elif not s:
            pending, last = [], None
        elif (m := _KEY.match(s)) is not None:
            last = m.group(1)
            put(last, [*pending, _inline(s)])
            pending = []
    return out


def _inline(line: str) -> str:
    """The comment after a value on one line ('' if none); quotes are skipped."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[i + 1:].strip()
    return ""


# --- rules check ------------------------------------------------------------------------

def _check(rule_arg: str, examples_dir: Path) -> int:
    if examples_dir != EXAMPLES_DIR and not examples_dir.is_dir():      # one asked for, not there
        raise ScoringError(f"--examples {examples_dir}: no such folder")
    rule = house_rule(rule_arg)
    p, base = rule.preset, rule.base
    print(f"{rule.name}: {p.data['name_ja']} / {p.data['name_en']}")
    print(f"  house rule, extends {' -> '.join(rule.chain)}, file {rule.path}")
    print(f"  digest {p.digest} ({base.id}: {base.digest})")
    diff = changes(p, base)
    print(f"changes from {base.id}:" if diff else f"changes from {base.id}: none (it counts as {base.id})")
    for key, a, b in diff:
        print(f"  {key}: {toml_value(a)} -> {toml_value(b)}")
    for note in rule.notes:
        print(f"  note: {note}")
    _examples(rule, examples_dir)
    return 0


def _examples(rule: HouseRule, folder: Path) -> None:
    bases = set(rule.chain)
    found = []
    for f in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            rec = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            continue
        if isinstance(rec, dict) and rec.get("rules") in bases:
            found.append((f.name, rec))
    names = " or ".join(rule.chain)
    if not found:
        print(f"worked examples: none in {folder} with rules {names}")
        return
    base, house = rule.base, rule.preset
    cells = [(n, _cell(rec, base), _cell(rec, house)) for n, rec in found]
    w0 = max(len("example"), *(len(c[0]) for c in cells))
    w1 = max(len(base.id), *(len(c[1]) for c in cells))
    print(f"worked examples with rules {names} ({folder}), each payer's total and who pays:")
    print(f"  {'example':<{w0}}  {base.id:<{w1}}  {house.id}")
    for n, a, b in cells:
        mark = "" if a == b else "   <- differs"
        print(f"  {n:<{w0}}  {a:<{w1}}  {b}{mark}")


def _cell(rec: dict[str, Any], preset: Preset) -> str:
    try:
        r: Result = score({**rec, "rules": preset.id}, preset)
    except ScoringError as e:
        return f"refused: {e}"
    pays = ", ".join(f"{seat} {amount}" for seat, amount in r.payments.items())
    return f"{r.total} ({pays})"
