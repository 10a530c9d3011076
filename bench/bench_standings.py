"""Speed: the standings page over a parlour's year on PostgreSQL, cold and warm, checked by a recount.

    .venv/bin/python bench/bench_standings.py [URL] [--reuse] [--small] [--repeat 20]

Builds the year (bench/parlour_year.py: 50 tables x 300 days x 40 hands; ``--small``: 5 x 10)
in its schema, or with ``--reuse`` uses the one already there. Then serves it with the real
app (TestClient, the table's PIN, the app's own standings cache over the parlour's handle):

- cold: the first GET /standings after start (every session summarised from one streamed query);
- warm: GET /standings for a day, a month and all time, GET /api/standings and the CSV, each
  ``--repeat`` times: p50 and p95 in ms;
- one new hand: a draw appended through the ledger, then GET /standings (one session read again).

Last, the standings of a month, a day and, for a few players, all time are recounted from the
log by a plain loop here (corrections and undos resolved by hand; results from the ledger's own
state of each session, settled) and must equal what /api/standings says.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from options import at_least, quiet_pipe  # noqa: E402

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import parlour_year  # noqa: E402
from service.app import create_app  # noqa: E402
from service.ledger import Ledger, db, settle  # noqa: E402
from service.settings import Settings  # noqa: E402

PIN = "4321"
ZONE_HOURS, DAY_STARTS = 9, 6          # Asia/Tokyo has no summer time: +9 all year


def ms(samples: list[float]) -> tuple[float, float]:
    s = sorted(samples)
    return statistics.median(s) * 1e3, s[min(len(s) - 1, round(0.95 * (len(s) - 1)))] * 1e3


def timed(client: TestClient, path: str, params: dict | None = None) -> float:
    t0 = time.perf_counter()
    r = client.get(path, params=params)
    took = time.perf_counter() - t0
    if r.status_code != 200:
        raise SystemExit(f"{Path(sys.argv[0]).stem}: {path} {params}: {r.status_code} {r.text[:200]}")
    return took


# -- the recount: a plain loop over the log, nothing shared with the standings' code but the fold ----

def business_day(created) -> date:
    """Tokyo's clock (UTC + 9 h, no summer time), less 6 h: the business day's date."""
    return (created.astimezone(timezone(timedelta(hours=ZONE_HOURS))) - timedelta(hours=DAY_STARTS)).date()


def recount(url: str, keep) -> dict[int, dict]:
    """Per player id: sessions, hands, wins, tsumo, deal-ins, chombos and the total in stick value,
    over the sessions ``keep(day, player_ids)`` chooses."""
    ledger = Ledger(url, migrate=False)
    out: dict[int, dict] = defaultdict(lambda: dict(sessions=0, hands=0, wins=0, tsumo=0, deal_ins=0,
                                                    chombos=0, total=0))
    with ledger.engine.connect() as c:
        rows = c.execute(sa.select(db.sessions.c.id, db.sessions.c.created_at, db.sessions.c.players,
                                   db.sessions.c.player_ids)).all()
        chosen = [r for r in rows if keep(business_day(r.created_at), r.player_ids)]
        for r in chosen:
            slots: dict[int, tuple[str, dict]] = {}
            for e in c.execute(sa.select(db.events.c.seq, db.events.c.kind, db.events.c.body)
                               .where(db.events.c.session_id == r.id).order_by(db.events.c.seq)):
                if e.kind in ("win", "draw", "chombo"):
                    slots[e.seq] = (e.kind, e.body)
                elif e.kind == "correct" and e.body["target"] in slots:
                    slots[e.body["target"]] = (e.body["event"]["kind"], e.body["event"]["body"])
                elif e.kind == "undo":
                    slots.pop(e.body["target"], None)
            if not slots:
                continue
            pid = dict(zip(r.players, r.player_ids))
            hands = sum(kind != "chombo" for kind, _ in slots.values())
            for p in r.player_ids:
                out[p]["sessions"] += 1
                out[p]["hands"] += hands
            for kind, body in slots.values():
                if kind == "chombo":
                    out[pid[body["offender"]]]["chombos"] += 1
                elif kind == "win":
                    for w in body["wins"]:
                        out[pid[w["winner"]]]["wins"] += 1
                        out[pid[w["winner"]]]["tsumo"] += w["record"]["win"] == "tsumo"
                    if body.get("discarder"):
                        out[pid[body["discarder"]]]["deal_ins"] += 1
            for line in settle(ledger.config(r.id), ledger.state(r.id)):
                out[pid[line.player]]["total"] += line.in_sticks
    ledger.close()
    return dict(out)


def check(client: TestClient, url: str, params: dict, keep, players: set[int] | None = None) -> int:
    """The API's standings against the recount; the number of players compared."""
    api = {r["player_id"]: r for r in client.get("/api/standings", params=params).json()["rows"]}
    want = recount(url, keep)
    ids = players if players is not None else set(api) | set(want)
    fields = ("sessions", "hands", "wins", "tsumo", "deal_ins", "chombos", "total")
    for p in ids:
        got = {k: api[p][k] for k in fields} if p in api else None
        if got != want.get(p):
            raise SystemExit(f"bench_standings: {params} player {p}: standings {got}, recount {want.get(p)}")
    return len(ids)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parlour_year.add_arguments(ap)
    ap.add_argument("--repeat", type=at_least(1), default=20)
    a = ap.parse_args(argv)
    url, tables, days = parlour_year.from_arguments(a, "bench_standings")
    with sa.create_engine(url).connect() as c:
        n_sessions = c.execute(sa.select(sa.func.count()).select_from(db.sessions)).scalar()
        n_events = c.execute(sa.select(sa.func.count()).select_from(db.events)).scalar()

    mid = parlour_year.FIRST_DAY.date() + timedelta(days=days // 2)
    queries = [("/standings", {"period": "day", "date": mid.isoformat()}, "page, a day"),
               ("/standings", {"period": "month", "month": mid.strftime("%Y-%m")}, "page, a month"),
               ("/standings", {"period": "all"}, "page, all time"),
               ("/standings", {"period": "all", "rule": "isshokai"}, "page, all time, isshokai"),
               ("/api/standings", {"period": "all"}, "JSON, all time"),
               ("/api/standings.csv", {"period": "all"}, "CSV, all time")]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), pin=PIN, db_url=url, camera="", reader="",
                            watch=False, table_name="table 01")
        with TestClient(create_app(settings, camera=False), headers={"X-Table-PIN": PIN}) as client:
            cold = timed(client, "/standings", {"period": "all"})
            cache = client.app.state.standings_cache
            summarised = cache.summarised
            results = []
            for path, params, what in queries:
                results.append((what, ms([timed(client, path, params) for _ in range(a.repeat)])))
            # one new hand at one table, then the page: one session read again
            writer = Ledger(url, migrate=False)
            sid = next(s.id for s in writer.sessions("table 01") if not writer.state(s.id).over)
            writer.add_draw(sid, [])
            writer.close()
            before = cache.summarised
            after_write = timed(client, "/standings", {"period": "all"})
            reread = cache.summarised - before

            t0 = time.perf_counter()
            rng = random.Random(7)
            month = mid.strftime("%Y-%m")
            n_month = check(client, url, {"period": "month", "month": month},
                            lambda d, ids: d.strftime("%Y-%m") == month)
            n_day = check(client, url, {"period": "day", "date": mid.isoformat()}, lambda d, ids: d == mid)
            sample = set(rng.sample(sorted(cache.players()), 5))
            n_all = check(client, url, {"period": "all"}, lambda d, ids: bool(sample & set(ids)), sample)
            t_check = time.perf_counter() - t0

    print(f"bench_standings: {n_sessions:,} sessions, {n_events:,} event rows ({tables} tables x {days} days), "
          f"PostgreSQL, {a.repeat} requests each")
    print(f"  cold    {cold * 1e3:9,.0f} ms  first GET /standings?period=all ({summarised:,} sessions summarised)")
    print(f"  {'warm':<30} {'p50 ms':>8} {'p95 ms':>8}")
    for what, (p50, p95) in results:
        print(f"  {what:<30} {p50:8.1f} {p95:8.1f}")
    print(f"  after one new hand: GET /standings?period=all {after_write * 1e3:.1f} ms ({reread} session read again)")
    print(f"  recount: equal for {n_month} players over {month}, {n_day} over {mid}, "
          f"{n_all} sampled players over all time ({t_check:.1f} s)")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
