"""Speed: append hands to one ledger session, then derive its state from the log.

    .venv/bin/python bench/bench_ledger.py [--hands 10000] [--db URL] [--seed 1]

Plays one dunhill session of ``--hands`` hands into a fresh database (a SQLite
file in a temporary folder unless ``--db`` names one; PostgreSQL by URL): about
one in five hands is an exhaustive draw, the rest are random winning hands
(scoring/random_hands.py) by tsumo or ron, made before the clock starts and
filled in with the session's own honba by the ledger. Every append is the real thing: one transaction that
locks the session, checks the hand against the state, scores it and commits.
Prints appends/s, then the time to derive the balances from the whole log in
a fresh process-level handle (no cache: every event read and folded again).
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from options import at_least, quiet_pipe  # noqa: E402

from scoring import ScoringError, score  # noqa: E402
from scoring.random_hands import random_winning_record  # noqa: E402
from service.ledger import SEATS, Ledger  # noqa: E402

PLAYERS = ("Aki", "Ben", "Chie")


def _win_record(rng: random.Random, winner_seat: str) -> dict:
    """A random winning dunhill hand for ``winner_seat`` that the engine accepts; no honba, so
    the ledger fills in the session's own."""
    while True:
        rec = random_winning_record(rng, "dunhill")
        rec["seat"] = winner_seat
        rec.pop("honba", None)
        if rec["win"] == "ron":
            rec["discarder"] = rng.choice([s for s in SEATS if s != winner_seat])
        try:
            score(rec)
            return rec
        except ScoringError:
            continue


def plan(hands: int, rng: random.Random) -> list[tuple[str, object]]:
    """The session's hands, made before the clock starts: ("draw", tenpai) or ("win", record)."""
    out: list[tuple[str, object]] = []
    for _ in range(hands):
        if rng.random() < 0.2:
            out.append(("draw", [p for p in PLAYERS if rng.random() < 0.5]))
        else:
            out.append(("win", _win_record(rng, rng.choice(SEATS))))
    return out


def play(ledger: Ledger, session_id: str, hands: list[tuple[str, object]]) -> None:
    for kind, what in hands:
        if kind == "draw":
            ledger.add_draw(session_id, what)
        else:
            ledger.add_win(session_id, [what])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=at_least(1), default=10_000, help="hands to append (default 10000)")
    ap.add_argument("--db", help="database URL (default: a SQLite file in a temporary folder)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        url = a.db or f"sqlite:///{Path(tmp) / 'bench-ledger.sqlite3'}"
        ledger = Ledger(url)
        sid = ledger.start("dunhill", PLAYERS, label="bench").id
        hands = plan(a.hands, random.Random(a.seed))
        wins = sum(kind == "win" for kind, _ in hands)
        draws = a.hands - wins
        t0 = time.perf_counter()
        play(ledger, sid, hands)
        t_append = time.perf_counter() - t0
        cached = ledger.state(sid)
        ledger.close()

        fresh = Ledger(url, migrate=False)       # a new handle: nothing cached
        t0 = time.perf_counter()
        derived = fresh.state(sid)
        t_derive = time.perf_counter() - t0
        fresh.close()

    if derived != cached:
        print("bench_ledger: the state derived from the log differs from the running state", file=sys.stderr)
        return 1
    backend = url.split(":", 1)[0]
    print(f"bench_ledger: {a.hands} hands ({wins} wins, {draws} draws) into one dunhill session, "
          f"{backend}, Python {platform.python_version()}")
    print(f"  append   {a.hands / t_append:10,.0f} hands/s  ({t_append * 1e3 / a.hands:6.2f} ms/hand, "
          f"each a locked transaction that scores and commits)")
    print(f"  derive   {t_derive * 1e3:10,.0f} ms for the whole log ({derived.hands} hands) "
          f"from a fresh handle")
    print(f"  balances {dict(zip(PLAYERS, derived.balances))}, pool {derived.pool}, honba {derived.honba}")
    return 0


if __name__ == "__main__":
    quiet_pipe()
    raise SystemExit(main())
