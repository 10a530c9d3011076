"""Command line: ``python -m scoring score HAND.json [--text] [--rules FILE_OR_NAME]`` (``-`` reads stdin).

Prints the count as JSON (with ``total``), or with --text as a person reads it.
``--rules`` scores under another rule than the record names: a built-in or
house rule by name, or a house rule file. ``presets`` lists the rules;
``rules new`` / ``rules check`` write and check a house rule (docs/house-rules.md).
Bad input exits 2 with one line saying what is wrong.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys

from . import rules_cli
from .errors import ScoringError
from .engine import score
from .house import load_rules
from .text import render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("score", help="score a hand record (JSON file, or - for stdin)")
    sp.add_argument("hand", help="hand record JSON file, or - to read stdin")
    sp.add_argument("--text", action="store_true", help="print the count as a person reads it")
    sp.add_argument("--rules", metavar="FILE_OR_NAME",
                    help="score under this rule instead of the record's: a built-in or house rule name, "
                         "or a house rule file (.toml)")
    sub.add_parser("presets", help="list the rules: the built-in presets and the house rules")
    rules_cli.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "presets":
        print(rules_cli.listing())
        return 0
    if args.command == "rules":
        return rules_cli.run(args)
    try:
        record = _read(args.hand)
        if args.rules is None:
            result = score(record)
        else:
            preset = load_rules(args.rules)
            if isinstance(record, dict):
                record = {**record, "rules": preset.id}
            result = score(record, preset)
    except ScoringError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(render(result) if args.text else json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    return 0


def _read(path: str) -> object:
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as e:
        raise ScoringError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ScoringError(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ScoringError(f"{path} is not valid JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise ScoringError(f"{path}: its JSON is nested too deeply to be a hand record") from None
    except ValueError as e:         # a number of thousands of digits (Python's int limit)
        raise ScoringError(f"{path}: a number in it is too long to read ({e})"[:200]) from None


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends it quietly, as any Unix tool
    signal.signal(signal.SIGINT, signal.SIG_DFL)    # and Ctrl-C (waiting on stdin, or a long read): no traceback
    sys.exit(main())
