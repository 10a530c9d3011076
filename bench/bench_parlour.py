"""A parlour's night: ten table services on one PostgreSQL, each logging its hands at once.

    eval "$(bash .ci/postgres.sh 2>/dev/null)"; export LEDGER_TEST_POSTGRES_URL
    .venv/bin/python bench/bench_parlour.py [--tables 10] [--hands 200] [--db-url URL] [--keep]

Starts ``--tables`` real ``python -m service`` processes on 127.0.0.1 (TABLE_TABLE_NAME,
TABLE_PIN and TABLE_DATA_DIR of their own, TABLE_DB_URL one fresh PostgreSQL schema for
all of them, no camera, no reader, no watcher), then one client thread per table (httpx)
starts a session of three players of its own and confirms ``--hands`` hands over the API,
one after another as a tablet does: wins with real hand records (tsumo and ron, two hand
shapes), draws and a few chombos, each with the hand number it believes it is.

Prints p50/p95/max latency per confirm and the throughput, then checks from the database
(not the services): each table's session has exactly ``--hands`` hands, no (session, seq)
twice, no seq missing (lost and duplicated are counted), the balances each service shows
equal a straightforward recount of the log's rows, and, where the service has
``/api/standings``, its per-player wins, hands and total equal the same recount.
Exits 1 when any check fails. The schema is dropped afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

import httpx
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from options import at_least, quiet_pipe  # noqa: E402

from service.ledger import Ledger, db  # noqa: E402

RULES = "dunhill"
SHAPES = ({"concealed": "234p678p234s66s777z", "win_tile": "6s", "gari": "1m"},     # chun, one gari
          {"concealed": "234p678p678s11s666z", "win_tile": "6s", "gari": "1m"})     # hatsu, one gari
SEATS = ("east", "south", "west")


# -- the database -----------------------------------------------------------------------------------

def fresh_schema(base: str) -> tuple[str, str]:
    """A new schema in ``base``'s database; the URL that uses it (search_path) and its name."""
    schema = "parlour_" + uuid.uuid4().hex[:10]
    with _admin(base) as c:
        c.exec_driver_sql(f"CREATE SCHEMA {schema}")
    return f"{base}{'&' if '?' in base else '?'}options=-csearch_path%3D{schema}", schema


def drop_schema(base: str, schema: str) -> None:
    with _admin(base) as c:
        c.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")


class _admin:
    def __init__(self, base: str):
        self.engine = sa.create_engine(base.replace("postgresql://", "postgresql+psycopg://", 1))

    def __enter__(self):
        self.conn = self.engine.connect()
        return self.conn

    def __exit__(self, *exc):
        self.conn.commit()
        self.conn.close()
        self.engine.dispose()


# -- the services -----------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pin_of(n: int) -> str:
    return f"{n:02d}{n:02d}{n:02d}"          # each table its own PIN


def start_services(url: str, tables: int, folder: Path) -> list[tuple[subprocess.Popen, str, Path]]:
    """One ``python -m service`` per table; returns each with its base URL and log once all answer."""
    started = []
    for n in range(1, tables + 1):
        port, data = free_port(), folder / f"table-{n:02d}"
        data.mkdir()
        env = {**os.environ, "TABLE_DB_URL": url, "TABLE_TABLE_NAME": f"卓{n:02d}", "TABLE_PIN": pin_of(n),
               "TABLE_CAMERA": "", "TABLE_READER": "", "TABLE_WATCH": "false", "TABLE_DATA_DIR": str(data),
               "TABLE_HOST": "127.0.0.1", "TABLE_PORT": str(port), "LEDGER_DB_URL": ""}
        log = open(data / "service.log", "w")
        proc = subprocess.Popen([sys.executable, "-m", "service"], cwd=ROOT, env=env, stdout=log,
                                stderr=subprocess.STDOUT)
        started.append((proc, f"http://127.0.0.1:{port}", data / "service.log"))
    deadline = time.monotonic() + 180          # ten Pythons importing at once on a small machine
    for proc, base, log in started:
        while True:
            if proc.poll() is not None:
                stop_services(started)
                raise SystemExit(f"a service exited:\n{log.read_text()}")
            try:
                if httpx.get(base + "/login", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                stop_services(started)
                raise SystemExit(f"a service did not start:\n{log.read_text()}")
            time.sleep(0.25)
    return started


def stop_services(started) -> None:
    for proc, *_ in started:
        proc.terminate()
    for proc, *_ in started:
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


# -- one table's night ------------------------------------------------------------------------------

def next_hand(rng: random.Random, players: list[str]) -> tuple[str, dict]:
    """The next hand a table confirms: ~65 % wins, ~28 % draws, ~7 % chombos."""
    x = rng.random()
    if x < 0.07:
        return "chombos", {"offender": rng.choice(players)}
    if x < 0.35:
        return "draws", {"tenpai": sorted(rng.sample(players, rng.choice((0, 1, 1, 2, 2, 3))))}
    seat = rng.choice(SEATS)
    rec = {"rules": RULES, "seat": seat, **rng.choice(SHAPES)}
    if rng.random() < 0.5:
        rec.update(win="tsumo")
    else:
        rec.update(win="ron", discarder=rng.choice([s for s in SEATS if s != seat]))
    return "wins", {"records": [rec]}


def play_table(n: int, base: str, hands: int, out: dict, lock: threading.Lock) -> None:
    rng = random.Random(n)
    latencies, failures = [], []
    with httpx.Client(base_url=base, headers={"X-Table-PIN": pin_of(n)}, timeout=60) as c:
        names = [f"T{n:02d}-{x}" for x in ("Aki", "Ben", "Chie")]
        r = c.post("/api/sessions", json={"rules": RULES, "players": names, "label": f"bench {n}"})
        if r.status_code != 201:
            failures.append(f"start: {r.status_code} {r.text[:200]}")
            with lock:
                out[n] = {"sid": None, "latencies": latencies, "failures": failures, "confirmed": 0}
            return
        sid, players = r.json()["id"], r.json()["players"]
        confirmed = 0
        for hand in range(1, hands + 1):
            kind, body = next_hand(rng, players)
            t0 = time.perf_counter()
            r = c.post(f"/api/sessions/{sid}/{kind}", json={**body, "hand": hand, "confirmed_by": "bench"})
            latencies.append(time.perf_counter() - t0)
            if r.status_code == 201:
                confirmed += 1
            else:
                failures.append(f"hand {hand} ({kind}): {r.status_code} {r.text[:200]}")
    with lock:
        out[n] = {"sid": sid, "latencies": latencies, "failures": failures, "confirmed": confirmed}


# -- the checks -------------------------------------------------------------------------------------

def log_rows(url: str) -> dict[str, list]:
    """Every event row, per session, in seq order: read from the database, not a service."""
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.select(db.events.c.session_id, db.events.c.seq, db.events.c.kind,
                                          db.events.c.body).order_by(db.events.c.session_id,
                                                                     db.events.c.seq)).all()
    finally:
        engine.dispose()
    by_session = defaultdict(list)
    for r in rows:
        by_session[r.session_id].append(r)
    return by_session


def recount(rows, players: tuple[str, ...], table) -> tuple[list[int], dict[str, Counter]]:
    """The balances and per-player wins and hands, counted straight from the rows: a win pays
    what its stored score says each seat pays; a draw, each noten player pays each tenpai player
    ``noten_each`` (nothing when all or none are tenpai); a chombo, the offender pays each of the
    others ``chombo_each``. (The bench declares no riichi and no double ron, and undoes nothing.)
    Hands: every win and every draw once for each seat; a chombo is no hand played."""
    at = {p: i for i, p in enumerate(players)}
    balances = [table.start_balance] * 3
    counts = {p: Counter() for p in players}
    for r in rows:
        b = r.body
        if r.kind == "win":
            for w in b["wins"]:
                winner = at[w["winner"]]
                for seat, amount in w["score"]["payments"].items():
                    balances[at[b["seats"][seat]]] -= amount
                    balances[winner] += amount
                counts[w["winner"]]["wins"] += 1
        elif r.kind == "draw":
            tenpai = set(b["tenpai"])
            if 0 < len(tenpai) < 3:
                for payer in set(players) - tenpai:
                    for taker in tenpai:
                        balances[at[payer]] -= table.noten_each()
                        balances[at[taker]] += table.noten_each()
        elif r.kind == "chombo":
            for p in players:
                if p != b["offender"]:
                    balances[at[p]] += table.chombo_each
                    balances[at[b["offender"]]] -= table.chombo_each
        if r.kind in ("win", "draw"):
            for p in players:
                counts[p]["hands"] += 1
    return balances, counts


def compare_standings(standings: dict, expected: dict[int, dict]) -> list[str]:
    """STANDINGS CHECK: ``/api/standings`` (period=all, rule=dunhill) against the recount, per player
    id: wins, hands and total (a dunhill result is the balance). Returns what differs."""
    got = {row["player_id"]: row for row in standings.get("rows", [])}
    problems = []
    for pid, want in expected.items():
        row = got.get(pid)
        if row is None:
            problems.append(f"player {pid} ({want['name']}) is not in the standings")
            continue
        for key in ("wins", "hands", "total"):
            if row[key] != want[key]:
                problems.append(f"player {pid} ({want['name']}): standings {key} {row[key]}, recount {want[key]}")
    extra = set(got) - set(expected)
    if extra:
        problems.append(f"the standings have players the bench never seated: {sorted(extra)}")
    return problems


def check(url: str, results: dict, hands: int, services: list) -> tuple[list[str], dict]:
    problems, figures = [], {"lost": 0, "duplicated": 0}
    by_session = log_rows(url)
    expected: dict[int, dict] = {}
    with Ledger(url, migrate=False) as parlour:
        for n, res in sorted(results.items()):
            sid = res["sid"]
            if sid is None:
                figures["lost"] += hands
                continue
            rows = by_session.get(sid, [])
            seqs = [r.seq for r in rows]
            twice = sum(c - 1 for c in Counter(seqs).values() if c > 1)
            in_log = len(set(seqs))
            figures["duplicated"] += twice + max(0, in_log - hands)
            figures["lost"] += max(0, hands - in_log)
            if sorted(set(seqs)) != list(range(1, in_log + 1)):
                problems.append(f"table {n}: seqs missing in 1..{in_log}")
            if in_log != hands or res["confirmed"] != hands:
                problems.append(f"table {n}: {in_log} hands in the log, {res['confirmed']} confirmed, "
                                f"{hands} sent")
            cfg = parlour.config(sid)
            balances, counts = recount(rows, cfg.players, cfg.table)
            shown = httpx.get(f"{services[n - 1][1]}/api/sessions/{sid}", headers={"X-Table-PIN": pin_of(n)},
                              timeout=30).json()
            by_name = {b["player"]: b["balance"] for b in shown["balances"]}
            if [by_name[p] for p in cfg.players] != balances:
                problems.append(f"table {n}: the service shows {by_name}, the recount "
                                f"{dict(zip(cfg.players, balances))}")
            if shown["hands"] != hands:
                problems.append(f"table {n}: the service shows {shown['hands']} hands")
            for pid, name, bal in zip(cfg.player_ids, cfg.players, balances):
                expected[pid] = {"name": name, "wins": counts[name]["wins"], "hands": counts[name]["hands"],
                                 "total": bal}
    r = httpx.get(f"{services[0][1]}/api/standings", params={"period": "all", "rule": RULES},
                  headers={"X-Table-PIN": pin_of(1)}, timeout=60)
    if r.status_code == 200 and "rows" in r.json():
        diff = compare_standings(r.json(), expected)
        problems += diff
        figures["standings"] = "equal to the recount" if not diff else f"{len(diff)} differences"
    else:
        figures["standings"] = f"not compared (/api/standings answered {r.status_code})"
    return problems, figures


# -- the run ----------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=at_least(1), default=10)
    p.add_argument("--hands", type=at_least(1), default=200)
    p.add_argument("--db-url", default=os.environ.get("LEDGER_TEST_POSTGRES_URL", ""),
                   help="a PostgreSQL database (default: $LEDGER_TEST_POSTGRES_URL); a fresh schema is made in it")
    p.add_argument("--keep", action="store_true", help="keep the schema afterwards")
    args = p.parse_args(argv)
    if not args.db_url.startswith("postgresql"):
        print("error: give --db-url postgresql://... or run .ci/postgres.sh (LEDGER_TEST_POSTGRES_URL)",
              file=sys.stderr)
        return 2
    url, schema = fresh_schema(args.db_url)
    Ledger(url).close()                      # migrate once, before ten services race to
    folder = Path(tempfile.mkdtemp(prefix="parlour-"))
    print(f"{args.tables} table services on PostgreSQL schema {schema}, {args.hands} hands each; "
          f"{os.cpu_count()} CPUs", flush=True)
    t0 = time.perf_counter()
    services = start_services(url, args.tables, folder)
    print(f"  started in {time.perf_counter() - t0:.1f} s", flush=True)
    try:
        results, lock = {}, threading.Lock()
        threads = [threading.Thread(target=play_table, args=(n, base, args.hands, results, lock))
                   for n, (_, base, _) in enumerate(services, 1)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        problems, figures = check(url, results, args.hands, services)
    finally:
        stop_services(services)
        if not args.keep:
            drop_schema(args.db_url, schema)

    latencies = sorted(x for r in results.values() for x in r["latencies"])
    failures = [f"table {n}: {f}" for n, r in sorted(results.items()) for f in r["failures"]]
    confirmed = sum(r["confirmed"] for r in results.values())
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    print(f"confirms: {confirmed} of {args.tables * args.hands} in {wall:.1f} s = {confirmed / wall:.0f} hands/s "
          f"across the parlour")
    print(f"per confirm: p50 {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    print(f"lost: {figures['lost']}, duplicated: {figures['duplicated']}; standings: {figures['standings']}")
    for line in (failures + problems)[:20]:
        print(f"  FAIL {line}")
    ok = not failures and not problems
    print("ok" if ok else f"FAILED: {len(failures)} refused confirms, {len(problems)} problems")
    return 0 if ok else 1


if __name__ == "__main__":
    quiet_pipe()
    sys.exit(main())
