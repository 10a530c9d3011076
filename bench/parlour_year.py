"""A parlour's year in a PostgreSQL database: 50 tables x 300 days x 40 hands, for the benches.

    .venv/bin/python bench/parlour_year.py [URL] [--tables 50] [--days 300] [--hands 40] [--players 300]

URL defaults to LEDGER_TEST_POSTGRES_URL (start one with ``eval "$(bash .ci/postgres.sh)"``),
in a schema of its own (``--schema``, default ``bench_parlour_year``), dropped and made again.

A handful of template sessions are played for real through the Ledger (every hand scored
by the engine: random winning records, draws, a chombo, a correction and an undo), one or
two per rule (dunhill, balance, toutenkou, chinton, isshokai). Their event rows are then
cloned into one session per table and day with bulk COPYs: each clone has its own id,
date (evenings, some past midnight), table, and three players drawn from a register of
``--players``. The clones keep the template's seat names (hands name seats, and a session
names its players by id), so every clone counts exactly as its template does. The tables
are VACUUM ANALYZEd at the end, as autovacuum would have done over a year.

Other benches import ``build(url, ...)`` and ``schema_url(url, schema)``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from options import at_least, quiet_pipe  # noqa: E402

import sqlalchemy as sa  # noqa: E402

from scoring import ScoringError, score  # noqa: E402
from scoring.random_hands import random_winning_record  # noqa: E402
from service.ledger import SEATS, Ledger, LedgerError  # noqa: E402
from service.ledger import db  # noqa: E402

JST = timezone(timedelta(hours=9))
FIRST_DAY = datetime(2024, 1, 1, tzinfo=JST)
TEMPLATE_PLAYERS = ("Aki", "Ben", "Chie")
# (rule, how many templates): isshokai's stick game often ends before 40 hands, so two of it
TEMPLATE_RULES = (("dunhill", 2), ("balance", 1), ("toutenkou", 1), ("chinton", 1), ("isshokai", 2))


@dataclass
class Template:
    session: dict          # the ledger_sessions row, less id, created_at, table_name, player_ids
    events: list[tuple]    # (seq, kind, body as JSON text, confirmed_by, offset from the start)
    hands: int


def schema_url(url: str, schema: str) -> str:
    """``url`` with its search_path set to ``schema`` (a psycopg URL)."""
    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{schema}"


def fresh_schema(url: str, schema: str) -> str:
    admin = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with admin.begin() as c:
        c.exec_driver_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        c.exec_driver_sql(f"CREATE SCHEMA {schema}")
    admin.dispose()
    return schema_url(url, schema)


# two plain hands (a chun or a hatsu triplet, closed, one North gari: about 5 sticks): a stick game
# of random hands, whose yaku run to many sticks, is over in three or four
SMALL = (dict(concealed="234p678p234s66s777z", win_tile="6s", gari="4z"),
         dict(concealed="234p678p678s11s666z", win_tile="6s", gari="4z"))


def _record(rng: random.Random, rules: str, seat: str) -> dict:
    """A random winning hand for ``seat`` that ``rules`` accepts; the ledger fills in the honba."""
    while True:
        if rules == "isshokai" and rng.random() < 0.9:
            rec = dict(rng.choice(SMALL), win=rng.choice(("tsumo", "ron")))
        else:
            rec = random_winning_record(rng, "dunhill")
        rec.update(rules=rules, seat=seat)
        rec.pop("honba", None)
        if rec["win"] == "ron":
            rec["discarder"] = rng.choice([s for s in SEATS if s != seat])
        try:
            score({**rec, "honba": 0})
            return rec
        except ScoringError:
            continue


def play_template(ledger: Ledger, rules: str, hands: int, rng: random.Random) -> str:
    """One real session of ``hands`` hands (fewer if a stick game ends): wins, draws, a chombo,
    then hand 2 corrected to a draw and the last hand undone and played again."""
    sid = ledger.start(rules, TEMPLATE_PLAYERS, label="template", table_name="template").id
    names = list(TEMPLATE_PLAYERS)
    for n in range(hands - 1):            # the fixes below add one more
        if ledger.state(sid).over:
            break
        roll = rng.random()
        try:
            if n == 5:
                ledger.add_chombo(sid, rng.choice(names))
            elif roll < (0.4 if rules == "isshokai" else 0.2):
                ledger.add_draw(sid, [p for p in names if rng.random() < 0.5])
            else:
                ledger.add_win(sid, [_record(rng, rules, rng.choice(SEATS))])
        except LedgerError:                       # e.g. a hand the state refuses: a draw instead
            ledger.add_draw(sid, [])
    for fix in (lambda: ledger.correct(sid, 2, "draw", tenpai=[]),        # fits only some logs
                lambda: ledger.correct(sid, ledger.state(sid).hands, "draw", tenpai=[]),
                lambda: ledger.add_draw(sid, names[:1]),
                lambda: ledger.undo(sid),
                lambda: ledger.add_draw(sid, [])):
        try:
            fix()
        except LedgerError:
            pass
    return sid


def templates(ledger: Ledger, hands: int, seed: int) -> list[Template]:
    rng = random.Random(seed)
    out = []
    for rules, n in TEMPLATE_RULES:
        for _ in range(n):
            sid = play_template(ledger, rules, hands, rng)
            with ledger.engine.connect() as c:
                row = c.execute(sa.select(db.sessions).where(db.sessions.c.id == sid)).one()
                rows = c.execute(sa.select(db.events).where(db.events.c.session_id == sid)
                                 .order_by(db.events.c.seq)).all()
            start = row.created_at
            session = {k: row._mapping[k] for k in ("rules", "players", "first_dealer", "table_overrides",
                                                    "label", "rule_digest")}
            events = [(r.seq, r.kind, json.dumps(r.body, ensure_ascii=False), r.confirmed_by,
                       r.created_at - start) for r in rows]
            out.append(Template(session, events, ledger.state(sid).hands))
    return out


def _copy_text(values) -> str:
    """One row of COPY text format: tab-separated, \\N for NULL, backslash and tab escaped."""
    cells = []
    for v in values:
        if v is None:
            cells.append("\\N")
        else:
            s = v if isinstance(v, str) else (v.isoformat() if isinstance(v, datetime) else str(v))
            cells.append(s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r"))
    return "\t".join(cells) + "\n"


def build(url: str | None = None, *, schema: str = "bench_parlour_year", tables: int = 50, days: int = 300,
          hands: int = 40, players: int = 300, seed: int = 1, log=print) -> str:
    """Fill a fresh schema with the parlour's year; returns the schema's URL."""
    url = url or os.environ.get("LEDGER_TEST_POSTGRES_URL")
    if not url or not url.startswith("postgresql"):
        raise SystemExit("parlour_year: a PostgreSQL URL is needed (or LEDGER_TEST_POSTGRES_URL)")
    t0 = time.perf_counter()
    target = fresh_schema(url, schema)
    ledger = Ledger(target)
    rng = random.Random(seed)
    with ledger.engine.begin() as c:
        now = datetime.now(timezone.utc)
        c.execute(sa.insert(db.players), [{"name": f"Player {i:03d}", "kana": "", "code": f"P{i:04d}",
                                            "created_at": now} for i in range(1, players + 1)])
    register = [p.id for p in ledger.players()]
    made = templates(ledger, hands, seed)
    t_templates = time.perf_counter() - t0
    played = ", ".join(f"{t.session['rules']} {t.hands}" for t in made)
    log(f"parlour_year: {len(made)} template sessions played through the ledger ({played} hands) "
        f"in {t_templates:.1f} s")

    plan = []               # (id, start, template, table, player ids): one session per table and day
    for day in range(days):
        for table in range(1, tables + 1):
            # an evening start; about one in five after midnight (still that business day's night)
            start = FIRST_DAY + timedelta(days=day, hours=rng.choice((17, 18, 19, 20, 21, 22, 23, 24, 25)),
                                          minutes=rng.randrange(60))
            plan.append((str(uuid.uuid4()), start, made[rng.randrange(len(made))], table, rng.sample(register, 3)))
    n_events = 0
    raw = ledger.engine.raw_connection()
    try:
        with raw.cursor() as cur:
            with cur.copy("COPY ledger_sessions (id, created_at, rules, players, first_dealer, table_overrides, "
                          "label, rule_digest, table_name, player_ids) FROM STDIN") as cp:
                for sid, start, t, table, ids in plan:
                    s = t.session
                    cp.write(_copy_text([sid, start, s["rules"], json.dumps(s["players"], ensure_ascii=False),
                                         s["first_dealer"], json.dumps(s["table_overrides"]), s["label"] or "",
                                         s["rule_digest"], f"table {table:02d}", json.dumps(ids)]))
            with cur.copy("COPY ledger_events (session_id, seq, kind, body, confirmed_by, created_at) "
                          "FROM STDIN") as cp:
                for sid, start, t, _, _ in plan:
                    cp.write("".join(_copy_text([sid, seq, kind, body, confirmed_by, start + offset])
                                     for seq, kind, body, confirmed_by, offset in t.events))
                    n_events += len(t.events)
        raw.commit()
    finally:
        raw.close()
    n_sessions = len(plan)
    vacuum = sa.create_engine(target, isolation_level="AUTOCOMMIT")
    with vacuum.connect() as c:
        c.exec_driver_sql("VACUUM ANALYZE ledger_events")
        c.exec_driver_sql("VACUUM ANALYZE ledger_sessions")
    vacuum.dispose()
    ledger.close()
    log(f"parlour_year: {n_sessions:,} sessions, {n_events:,} event rows ({tables} tables x {days} days), "
        f"{players} players, schema {schema}, in {time.perf_counter() - t0:.1f} s")
    return target


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The year's arguments a bench that reads it takes: the URL, --reuse, --small."""
    ap.add_argument("url", nargs="?", default=os.environ.get("LEDGER_TEST_POSTGRES_URL"))
    ap.add_argument("--reuse", action="store_true", help="use the year already built in its schema")
    ap.add_argument("--small", action="store_true", help="5 tables x 10 days (a quick run)")


def from_arguments(a: argparse.Namespace, bench: str) -> tuple[str, int, int]:
    """The year's schema URL (built now, unless --reuse finds it there), its tables and days."""
    if not a.url:
        raise SystemExit(f"{bench}: a PostgreSQL URL is needed (or LEDGER_TEST_POSTGRES_URL)")
    tables, days = (5, 10) if a.small else (50, 300)
    schema = "bench_parlour_small" if a.small else "bench_parlour_year"
    url = schema_url(a.url, schema)
    if not (a.reuse and has_year(url)):
        url = build(a.url, schema=schema, tables=tables, days=days)
    return url, tables, days


def has_year(url: str) -> bool:
    """Whether the schema holds sessions already."""
    try:
        with sa.create_engine(url).connect() as c:
            return bool(c.execute(sa.select(sa.func.count()).select_from(db.sessions)).scalar())
    except sa.exc.SQLAlchemyError:
        return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("url", nargs="?", help="PostgreSQL URL (default LEDGER_TEST_POSTGRES_URL)")
    ap.add_argument("--schema", default="bench_parlour_year")
    ap.add_argument("--tables", type=at_least(1), default=50)
    ap.add_argument("--days", type=at_least(1), default=300)
    ap.add_argument("--hands", type=at_least(1), default=40)
    ap.add_argument("--players", type=at_least(1), default=300)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    build(a.url, schema=a.schema, tables=a.tables, days=a.days, hands=a.hands, players=a.players, seed=a.seed)
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
