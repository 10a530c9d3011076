"""Load: ten tables posting frames and confirmations at once against one table service on loopback.

    .venv/bin/python bench/bench_service.py [--tables 10] [--hands 6] [--time-limit 120]

Starts ``python -m service`` in its own process on 127.0.0.1 (a fresh SQLite
file in a temp folder, the demo camera), then one thread per table does, for
each hand: POST /api/read (a demo frame, multipart), POST /api/score, POST
/api/sessions/{id}/wins with the snapshot and the hand number, and re-sends
every third confirmation as a tablet would after a lost answer (it must come
back 409 stale). Prints requests/s and p50/p95 latency per call, then checks
the log of every table: exactly ``--hands`` wins, numbered 1..n, each with its
snapshot, no hand lost or doubled. Exits 1 if any check fails.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

import httpx

from options import above_zero, at_least, quiet_pipe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PIN = "135790"
FRAMES = sorted((ROOT / "service" / "demo" / "frames").glob("*.jpg"))
RECORD = {"seat": "east", "win": "tsumo", "concealed": "234p678p234s66s777z", "win_tile": "6s", "gari": "1m"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: Path, port: int, settings: dict[str, str] | None = None) -> subprocess.Popen:
    """``python -m service`` on the demo camera, SQLite in ``data`` (``settings``: more TABLE_* variables)."""
    env = {**os.environ, "TABLE_DATA_DIR": str(data), "TABLE_PIN": PIN, "TABLE_HOST": "127.0.0.1",
           "TABLE_PORT": str(port), "TABLE_DB_URL": "", "LEDGER_DB_URL": "", **(settings or {})}
    proc = subprocess.Popen([sys.executable, "-m", "service"], cwd=data, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/login", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit(f"the service did not start:\n{proc.stdout.read()}")


def table(base: str, n: int, hands: int, stop_at: float, timings: dict, errors: list, lock: threading.Lock) -> None:
    with httpx.Client(base_url=base, headers={"X-Table-PIN": PIN}, timeout=30) as c:
        def call(name: str, method: str, url: str, expect: int, **kw) -> httpx.Response:
            t0 = time.perf_counter()
            r = c.request(method, url, **kw)
            dt = time.perf_counter() - t0
            with lock:
                timings[name].append(dt)
            if r.status_code != expect:
                errors.append(f"table {n} {name}: {r.status_code} {r.text[:120]}")
            return r

        sid = call("start", "POST", "/api/sessions", 201,
                   json={"rules": "dunhill", "players": [f"T{n}a", f"T{n}b", f"T{n}c"]}).json()["id"]
        for hand in range(1, hands + 1):
            if time.monotonic() > stop_at:
                errors.append(f"table {n}: time limit reached at hand {hand}")
                return
            frame = FRAMES[(n + hand) % len(FRAMES)].read_bytes()
            read = call("read", "POST", "/api/read", 200, files={"image": ("f.jpg", frame, "image/jpeg")},
                        data={"session": sid}).json()
            rec = {"rules": "dunhill", **RECORD}
            call("score", "POST", "/api/score", 200, json={"record": rec, "session": sid})
            body = {"records": [rec], "hand": hand, "snapshot": read["snapshot"], "confirmed_by": f"table {n}"}
            call("confirm", "POST", f"/api/sessions/{sid}/wins", 201, json=body)
            if hand % 3 == 0:                        # the answer was "lost": the tablet sends it again
                call("confirm again", "POST", f"/api/sessions/{sid}/wins", 409, json=body)
        with lock:
            timings["_sessions"].append(sid)


def check(base: str, sessions: list[str], hands: int) -> list[str]:
    problems = []
    with httpx.Client(base_url=base, headers={"X-Table-PIN": PIN}, timeout=30) as c:
        for sid in sessions:
            events = c.get(f"/api/sessions/{sid}/export.json").json()["events"]
            state = c.get(f"/api/sessions/{sid}").json()
            seqs = [e["seq"] for e in events]
            if [e["kind"] for e in events] != ["win"] * hands or seqs != list(range(1, hands + 1)):
                problems.append(f"{sid}: log is {[(e['seq'], e['kind']) for e in events]}")
            if state["hands"] != hands or state["honba"] != hands:
                problems.append(f"{sid}: state says {state['hands']} hands, {state['honba']} honba")
            if any(not e["snapshot"] for e in events):
                problems.append(f"{sid}: a hand without its snapshot")
    return problems


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tables", type=at_least(1), default=10)
    p.add_argument("--hands", type=at_least(1), default=6)
    p.add_argument("--time-limit", type=above_zero, default=120.0)
    args = p.parse_args()
    if not 1 <= args.tables <= 50 or not 1 <= args.hands <= 100:
        raise SystemExit("bounded: 1-50 tables, 1-100 hands")
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        proc = start_server(Path(tmp), port)
        base = f"http://127.0.0.1:{port}"
        timings: dict[str, list] = defaultdict(list)
        errors: list[str] = []
        lock = threading.Lock()
        stop_at = time.monotonic() + args.time_limit
        t0 = time.perf_counter()
        threads = [threading.Thread(target=table, args=(base, n, args.hands, stop_at, timings, errors, lock))
                   for n in range(args.tables)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        sessions = timings.pop("_sessions", [])
        problems = errors + check(base, sessions, args.hands)
        if len(sessions) != args.tables:
            problems.append(f"only {len(sessions)} of {args.tables} tables finished")
        proc.terminate()
        proc.wait(timeout=10)
    total = sum(len(v) for v in timings.values())
    print(f"{args.tables} tables x {args.hands} hands on one service (loopback, SQLite, {os.cpu_count()} cores)")
    print(f"  {total} requests in {wall:.2f} s = {total / wall:.1f} requests/s")
    for name, ts in timings.items():
        ts = sorted(ts)
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"  {name:<14} n={len(ts):<4} p50 {statistics.median(ts) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms")
    all_ts = sorted(t for ts in timings.values() for t in ts)
    print(f"  all            p95 {all_ts[int(0.95 * (len(all_ts) - 1))] * 1000:.1f} ms")
    if problems:
        print("FAILED:")
        for line in problems[:20]:
            print("  " + line)
        return 1
    print(f"  every table logged exactly {args.hands} hands, numbered 1..{args.hands}, each with its snapshot; "
          "every re-sent confirmation was refused as stale: no hand lost or doubled")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    sys.exit(main())
