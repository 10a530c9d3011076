"""python -m service.ledger: start a session, add hands, draws and chombos, show balances.

Bad input (a bad file, an invalid record, an unknown session, a stale state)
exits 2 with a one-line message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dotenv import dotenv_values

from ..csv_cells import for_spreadsheets
from ..files import write_whole
from . import backup, export
from .db import database_error, default_url
from .derive import SessionConfig, State
from .errors import LedgerError
from .repo import Ledger
from .settle import settle


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:     # one line, exit 2
        raise SystemExit(_fail(f"{self.prog}: {message}"))


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except LedgerError as e:
        return _fail(str(e))
    except OSError as e:
        return _fail(f"{e.filename}: {e.strerror}" if e.filename and e.strerror else str(e) or type(e).__name__)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        return _fail(str(e).splitlines()[0] if str(e) else type(e).__name__)
    except UnicodeEncodeError as e:   # a byte the terminal could not decode, in an id or a word
        return _fail(f"{e.object[e.start:e.end]!a} is no character: type it again in UTF-8")
    except Exception as e:   # a database that cannot be opened, a bad URL...
        reason = database_error(e)
        if reason is None:
            raise
        return _fail(f"database: {reason}")


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m service.ledger", description=__doc__.splitlines()[0])
    p.add_argument("--db", help="database URL (default: $LEDGER_DB_URL, else a SQLite file in the user data folder)")
    p.add_argument("--rules-dir", help="the house rules folder a new session's --rules is looked up in "
                                       "(default: $TOUTENKOU_RULES_DIR, else scoring's rules folder)")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)

    s = sub.add_parser("start", help="start a session; prints its id")
    s.add_argument("--rules", required=True,
                   help="a built-in (dunhill, balance, toutenkou, isshokai, chinton) or a house rule in the "
                        "rules folder ($TOUTENKOU_RULES_DIR): stored with the session")
    s.add_argument("--players", nargs=3, required=True, metavar="NAME", help="the three players in turn order")
    s.add_argument("--dealer", help="the first dealer (default: the first player)")
    s.add_argument("--table", action="append", default=[], metavar="KEY=VALUE",
                   help="override a [table] rule for this session, e.g. noten_total=30 (value in TOML/JSON)")
    s.add_argument("--label", default="")
    s.set_defaults(run=_start)

    h = sub.add_parser("hand", help="add a won hand from a hand-record file (two files: a double ron)")
    h.add_argument("session")
    h.add_argument("files", nargs="+", metavar="FILE")
    h.add_argument("--winner", action="append", help="cross-check: the winner's name")
    _common(h)
    h.set_defaults(run=_hand)

    d = sub.add_parser("draw", help="add an exhaustive draw")
    d.add_argument("session")
    d.add_argument("--tenpai", nargs="*", default=[], metavar="NAME")
    _common(d)
    d.set_defaults(run=_draw)

    c = sub.add_parser("chombo", help="add a chombo; the hand is replayed")
    c.add_argument("session")
    c.add_argument("offender")
    _common(c)
    c.set_defaults(run=_chombo)

    k = sub.add_parser("correct", help="replace hand N (the old one stays in the log)")
    k.add_argument("session")
    k.add_argument("number", type=int)
    g = k.add_mutually_exclusive_group(required=True)
    g.add_argument("--hand", dest="hand_files", nargs="+", metavar="FILE")   # not --hand-number's ``hand``
    g.add_argument("--draw", action="store_true")
    g.add_argument("--chombo", metavar="NAME")
    k.add_argument("--tenpai", nargs="*", default=[], metavar="NAME")
    _common(k)
    k.set_defaults(run=_correct)

    u = sub.add_parser("undo", help="undo the last hand (it stays in the log)")
    u.add_argument("session")
    u.add_argument("--by", dest="confirmed_by")
    u.set_defaults(run=_undo)

    sh = sub.add_parser("show", help="balances, dealer, honba, pool and settlement")
    sh.add_argument("session")
    sh.add_argument("--json", action="store_true")
    sh.set_defaults(run=_show)

    hi = sub.add_parser("history", help="the whole log, corrections and undos included")
    hi.add_argument("session")
    hi.set_defaults(run=_history)

    ls = sub.add_parser("list", help="the sessions in the database")
    ls.set_defaults(run=_list)

    ex = sub.add_parser("export", help="export a session as JSON (re-importable) or CSV")
    ex.add_argument("session")
    ex.add_argument("--format", choices=("json", "csv"), default="json")
    ex.add_argument("-o", "--output")
    ex.set_defaults(run=_export)

    im = sub.add_parser("import", help="import a JSON export")
    im.add_argument("file")
    im.set_defaults(run=_import)

    bk = sub.add_parser("backup", help="copy a SQLite ledger into a new file, while the service runs "
                                       "(a copy of the file alone lacks what its -wal holds)")
    bk.add_argument("dest", metavar="NEW_FILE")
    bk.set_defaults(run=_backup)

    rs = sub.add_parser("restore", help="put a backup back (the ledger as it is is kept aside first); "
                                        "stop the table's service first")
    rs.add_argument("backup", metavar="BACKUP_FILE")
    rs.set_defaults(run=_restore)

    mg = sub.add_parser("migrate", help="bring the database schema up to date (done on every open too)")
    mg.set_defaults(run=lambda a: (_ledger(a).close(), print("schema up to date"))[0] or 0)
    return p


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--riichi", action="append", default=[], metavar="NAME[:open]",
                   help="a player who declared riichi this hand (repeat; NAME:open for open riichi)")
    p.add_argument("--penalty", action="append", default=[], metavar="NAME",
                   help="a player who paid a 罰符 into the pool this hand (isshokai: a false call; repeat)")
    p.add_argument("--by", dest="confirmed_by", help="who confirmed the hand")
    p.add_argument("--snapshot", help="reference to the snapshot image")
    if p.prog.split()[-1] != "correct":
        p.add_argument("--hand-number", dest="hand", type=int,
                       help="cross-check: the number of this hand (refused if the session is elsewhere)")


MAKES_ONE = ("start", "import", "migrate")      # the commands that may make a new SQLite ledger


def _ledger(args: argparse.Namespace) -> Ledger:
    url = args.db or default_url()
    if args.command not in MAKES_ONE and url.startswith("sqlite"):
        # nor a stray file left where the command was run
        backup.ledger_path(url)
    return Ledger(url, rules_dir=args.rules_dir)


def _meta(args: argparse.Namespace) -> dict[str, Any]:
    meta = {"confirmed_by": getattr(args, "confirmed_by", None), "snapshot": getattr(args, "snapshot", None)}
    if getattr(args, "hand", None) is not None:
        meta["hand"] = args.hand
    return meta


def _read_json(path: str) -> Any:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise LedgerError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
    except RecursionError:
        raise LedgerError(f"{path}: its JSON is nested too deeply") from None
    except OSError as e:
        raise LedgerError(f"{path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise LedgerError(f"{path}: not UTF-8 text") from None


def _start(args: argparse.Namespace) -> int:
    table = {}
    for kv in args.table:
        key, sep, value = kv.partition("=")
        if not sep:
            raise LedgerError(f"--table wants KEY=VALUE, got {kv!r}")
        try:
            table[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            table[key.strip()] = value
        except RecursionError:
            raise LedgerError(f"--table {key.strip()}: the value is nested too deeply") from None
    with _ledger(args) as ledger:
        cfg = ledger.start(args.rules, args.players, dealer=args.dealer, table=table, label=args.label)
    print(cfg.id)
    return 0


def _hand(args: argparse.Namespace) -> int:
    records = [_read_json(f) for f in args.files]
    with _ledger(args) as ledger:
        _, state = ledger.add_win(args.session, records, riichi=args.riichi, winners=args.winner,
                                  penalties=args.penalty, **_meta(args))
        _print_state(ledger.config(args.session), state)
    return 0


def _draw(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        _, state = ledger.add_draw(args.session, args.tenpai, riichi=args.riichi, penalties=args.penalty,
                                   **_meta(args))
        _print_state(ledger.config(args.session), state)
    return 0


def _chombo(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        _, state = ledger.add_chombo(args.session, args.offender, riichi=args.riichi, penalties=args.penalty,
                                     **_meta(args))
        _print_state(ledger.config(args.session), state)
    return 0


def _correct(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        if args.hand_files:
            kind, kw = "win", {"records": [_read_json(f) for f in args.hand_files]}
        elif args.draw:
            kind, kw = "draw", {}
        else:
            kind, kw = "chombo", {"offender": args.chombo}
        kw["tenpai"] = args.tenpai          # given to a win or a chombo: refused, not dropped (Ledger.correct)
        _, state = ledger.correct(args.session, args.number, kind, riichi=args.riichi, penalties=args.penalty,
                                  **kw, **_meta(args))
        _print_state(ledger.config(args.session), state)
    return 0


def _undo(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        _, state = ledger.undo(args.session, confirmed_by=args.confirmed_by)
        _print_state(ledger.config(args.session), state)
    return 0


def _show(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        cfg = ledger.config(args.session)
        state = ledger.state(args.session)
        if args.json:
            print(json.dumps(state_dict(cfg, state), ensure_ascii=False, indent=1))
        else:
            _print_state(cfg, state, full=True)
    return 0


def state_dict(cfg: SessionConfig, state: State) -> dict[str, Any]:
    return {
        "session": cfg.id, "rules": cfg.rules, "unit": cfg.table.unit, "hands": state.hands,
        "dealer": cfg.players[state.dealer], "honba": state.honba, "pool": state.pool,
        "balances": dict(zip(cfg.players, state.balances)), "over": state.over,
        "settlement": [{"player": l.player, "result": l.result, "in_sticks": l.in_sticks, "top": l.top}
                       for l in settle(cfg, state)],
        "warnings": list(state.warnings),
    }


def _print_state(cfg: SessionConfig, state: State, full: bool = False) -> None:
    unit = cfg.table.unit
    print(f"{cfg.rules} session {cfg.id}: after {state.hands} hand(s)")
    print(f"  next hand: {cfg.players[state.dealer]} deals, {state.honba} honba, pool {state.pool} {unit}"
          + ("  [GAME OVER]" if state.over else ""))
    for line in settle(cfg, state):
        held = f"{line.held:+d}" if not cfg.table.stick_game else f"{line.held}"
        extra = f" -> {line.result:+d}{' (top)' if line.top else ''}" if cfg.table.stick_game else ""
        print(f"  {line.player:<12} {held:>6} {unit}{extra}  = {line.in_sticks:+,d} in sticks"
              if full else f"  {line.player:<12} {held:>6} {unit}{extra}")
    for w in state.warnings:
        print(f"  warning: {w}")


def _zone() -> ZoneInfo:
    """The parlour's time zone, as the service reads it (``TABLE_TIMEZONE``, in the environment or
    the working folder's ``.env``; default Asia/Tokyo):
    the history's times are the clock on the parlour's wall, as the counter's pages show them."""
    name = os.environ.get("TABLE_TIMEZONE")
    if name is None and Path(".env").is_file():          # the service's settings file, as it reads it
        name = dotenv_values(".env").get("TABLE_TIMEZONE")
    name = (name or "").strip() or "Asia/Tokyo"
    try:
        return ZoneInfo(name)
    except (ValueError, ZoneInfoNotFoundError):
        raise LedgerError(f"TABLE_TIMEZONE: {name!r} is not a time zone (say Asia/Tokyo)") from None


def _history(args: argparse.Namespace) -> int:
    zone = _zone()
    with _ledger(args) as ledger:
        cfg = ledger.config(args.session)
        live = {s.event.seq for s in ledger.slots(args.session)}
        for e in ledger.events(args.session):
            mark = "" if e.seq in live or e.kind in ("undo",) else "  (superseded)"
            what = _describe(e.kind, e.body)
            print(f"#{e.seq:<4} {e.created_at.astimezone(zone):%Y-%m-%d %H:%M:%S %Z} {e.kind:<7} {what}"
                  f"{' by ' + e.confirmed_by if e.confirmed_by else ''}{mark}")
        _print_state(cfg, ledger.state(args.session), full=True)
    return 0


def _describe(kind: str, body: Any) -> str:
    penalties = body.get("penalties")
    return _outcome(kind, body) + (f"; penalty: {', '.join(penalties)}" if penalties else "")


def _outcome(kind: str, body: Any) -> str:
    if kind == "win":
        return ", ".join(f"{w['winner']} {w['record']['win']} {w['score']['total']}" for w in body["wins"]) \
            + (f" off {body['discarder']}" if body.get("discarder") else "")
    if kind == "draw":
        return "tenpai: " + (", ".join(body["tenpai"]) or "none")
    if kind == "chombo":
        return f"by {body['offender']}"
    if kind == "correct":
        return f"hand {body.get('number')} -> {body['event']['kind']}: {_describe(body['event']['kind'], body['event']['body'])}"
    return f"hand {body.get('number')}"


def _list(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        for cfg in ledger.sessions():
            print(f"{cfg.id}  {cfg.rules:<9} {' '.join(cfg.players)}  {cfg.label}")
    return 0


def _export(args: argparse.Namespace) -> int:
    with _ledger(args) as ledger:
        text = export.dumps(ledger, args.session) if args.format == "json" else export.to_csv(ledger, args.session)
    text = text if text.endswith("\n") else text + "\n"
    if args.output:
        # a CSV file is for a spreadsheet (csv_cells: Excel on Japanese Windows needs the BOM); stdout is not.
        # Written whole or not at all: a full disk left the last export cut short, no longer JSON
        out = Path(args.output)
        if not out.parent.is_dir():
            raise LedgerError(f"{out}: no folder {out.parent} to write it in")
        try:
            write_whole(out, for_spreadsheets(text) if args.format == "csv" else text.encode("utf-8"), shared=True)
        except OSError as e:            # named as given, not as the temporary file beside it
            raise LedgerError(f"{out}: {e.strerror or e}") from None
    else:
        sys.stdout.write(text)
    return 0


def _backup(args: argparse.Namespace) -> int:
    print(f"backed up {backup.backup(args.db or default_url(), Path(args.dest))}")
    return 0


def _restore(args: argparse.Namespace) -> int:
    aside, now = backup.restore(args.db or default_url(), Path(args.backup))
    if aside is not None:
        print(f"kept aside {aside}")
    print(f"restored {now}")
    return 0


def _import(args: argparse.Namespace) -> int:
    data = _read_json(args.file)
    with _ledger(args) as ledger:
        cfg = export.from_json(ledger, data)
    print(cfg.id)
    return 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # `| head` ends it quietly, as any Unix tool
    sys.exit(main())
