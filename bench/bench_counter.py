"""Speed: the counter's pages over a parlour's year on PostgreSQL (the staff PIN, a counter-only service).

    .venv/bin/python bench/bench_counter.py [URL] [--reuse] [--small] [--repeat 20]

Uses the year bench/parlour_year.py builds (50 tables x 300 days x 40 hands; ``--reuse``: the one
already in its schema, as bench_standings leaves it), gives each of its tables a heartbeat row (as a
running table service writes it), then serves it with the real app in counter-only mode (TestClient,
the staff PIN) and times each of the counter's reads ``--repeat`` times: p50 and p95 in ms.

- the counter page (every table at a glance) and the fragment it refreshes every few seconds;
- /api/counter/tables (the same, as JSON);
- one table's page (its newest 20 sessions, each settled in yen);
- one session's settlement page and one receipt.

It checks what it shows: every table listed, online, with its newest session.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from options import at_least, quiet_pipe  # noqa: E402

import sqlalchemy as sa  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

import parlour_year  # noqa: E402
from bench_standings import ms, timed  # noqa: E402
from service.app import create_app  # noqa: E402
from service.ledger import Ledger, db  # noqa: E402
from service.settings import Settings  # noqa: E402

STAFF = "86420"


def beat_every_table(url: str) -> list[str]:
    """A fresh heartbeat row for each table that has sessions (what its service writes each beat)."""
    engine = sa.create_engine(url)
    with engine.begin() as c:
        names = sorted(set(c.execute(sa.select(db.sessions.c.table_name).distinct()).scalars()) - {""})
        c.execute(sa.delete(db.tables))
        now = datetime.now(timezone.utc)
        c.execute(sa.insert(db.tables), [{"name": n, "seen_at": now, "default_rule": None,
                                          "status": {"camera": "ok", "calibrated": True, "reader": "vision",
                                                     "heartbeat_s": 3600}} for n in names])
    engine.dispose()
    return names


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parlour_year.add_arguments(ap)
    ap.add_argument("--repeat", type=at_least(1), default=20)
    a = ap.parse_args(argv)
    url, tables, days = parlour_year.from_arguments(a, "bench_counter")
    names = beat_every_table(url)
    reader = Ledger(url, migrate=False)
    newest = reader.latest_sessions()
    n_sessions = sum(reader.session_counts().values())
    reader.close()
    table = names[len(names) // 2]
    session = newest[table].id

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, data_dir=Path(tmp), db_url=url, counter_only=True, staff_pin=STAFF,
                            camera="", reader="", watch=False)
        with TestClient(create_app(settings, camera=False), headers={"X-Staff-PIN": STAFF}) as client:
            shown = client.get("/api/counter/tables").json()
            if sorted(t["name"] for t in shown) != names or not all(t["online"] for t in shown):
                raise SystemExit("bench_counter: the counter does not show every table online")
            wrong = [t["name"] for t in shown if (t["session"] or {}).get("id") != newest[t["name"]].id]
            if wrong:
                raise SystemExit(f"bench_counter: tables {wrong[:3]} do not show their newest session")
            first = timed(client, "/counter")
            reads = [("/counter", "the counter page (every table)"),
                     ("/counter/tables", "its refresh (fragment)"),
                     ("/api/counter/tables", "JSON: every table"),
                     (f"/counter/table?name={table.replace(' ', '%20')}", "one table's page (20 sessions)"),
                     (f"/counter/s/{session}", "a settlement"),
                     (f"/counter/s/{session}/receipt/0", "a receipt")]
            results = [(what, ms([timed(client, path) for _ in range(a.repeat)])) for path, what in reads]

    print(f"bench_counter: {n_sessions:,} sessions at {len(names)} tables ({tables} tables x {days} days), "
          f"PostgreSQL, counter-only service, {a.repeat} requests each")
    print(f"  first GET /counter after start: {first * 1e3:,.0f} ms")
    print(f"  {'warm':<34} {'p50 ms':>8} {'p95 ms':>8}")
    for what, (p50, p95) in results:
        print(f"  {what:<34} {p50:8.1f} {p95:8.1f}")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
