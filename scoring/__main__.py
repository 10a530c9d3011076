"""Command line: ``python -m scoring score HAND.json [--text]`` (``-`` reads stdin).

Prints the count as JSON (with ``total``), or with --text as a person reads it.
Bad input exits 2 with one line saying what is wrong.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import ScoringError
from .engine import score
from .presets import preset_ids
from .text import render


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("score", help="score a hand record (JSON file, or - for stdin)")
    sp.add_argument("hand", help="hand record JSON file, or - to read stdin")
    sp.add_argument("--text", action="store_true", help="print the count as a person reads it")
    sub.add_parser("presets", help="list the house-rule presets")
    args = parser.parse_args(argv)
    if args.command == "presets":
        print("\n".join(preset_ids()))
        return 0
    try:
        record = _read(args.hand)
        result = score(record)
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


if __name__ == "__main__":
    sys.exit(main())
