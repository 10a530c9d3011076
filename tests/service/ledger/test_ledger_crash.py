"""A writer killed (SIGKILL, a real subprocess) between any two statements loses
no confirmed hand and never leaves a half-written one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import sqlalchemy as sa

from ledger_play import PLAYERS
from service.ledger import Ledger, db

WRITER = Path(__file__).with_name("ledger_writer.py")
ROOT = Path(__file__).resolve().parents[3]


def _url(ledger) -> str:
    return ledger.engine.url.render_as_string(hide_password=False)


def _writer(url, sid, count, kill_after=None, **kw):
    args = [sys.executable, str(WRITER), url, sid, str(count)] + ([str(kill_after)] if kill_after else [])
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, **kw)


def _confirmed(out: str) -> int:
    got = [int(line.split()[1]) for line in out.splitlines() if line.startswith("confirmed")]
    return got[-1] if got else 0


def _killed_writer_gone(ledger, timeout=15.0):
    """PostgreSQL goes on with a statement its client was killed during (a COMMIT may still land):
    wait until no other backend is at work, so the checks below read one settled database."""
    if ledger.engine.dialect.name != "postgresql":
        return
    deadline = time.monotonic() + timeout
    with ledger.engine.connect() as c:
        while c.exec_driver_sql(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')").scalar():
            assert time.monotonic() < deadline, "the killed writer's backend did not finish"
            time.sleep(0.05)
            c.rollback()


def _check_reopened(url, sid, confirmed_at_least):
    """Reopen from scratch: every row whole, hands numbered 1..n, the fold consistent."""
    ledger = Ledger(url)
    try:
        _killed_writer_gone(ledger)
        with ledger.engine.connect() as c:
            if url.startswith("sqlite"):
                assert c.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
            seqs = c.execute(sa.select(db.events.c.seq).where(db.events.c.session_id == sid)
                             .order_by(db.events.c.seq)).scalars().all()
        assert seqs == list(range(1, len(seqs) + 1))
        events = ledger.events(sid)
        for e in events:      # each row whole: a complete, scored hand or draw
            assert e.kind in ("win", "draw") and e.body["seats"] and "honba" in e.body
            if e.kind == "win":
                assert e.body["wins"][0]["score"]["total"] > 0
        st = ledger.state(sid)
        assert not st.warnings
        assert st.hands == len(events) >= confirmed_at_least
        assert sum(st.balances) + st.pool == 0
        return st.hands
    finally:
        ledger.close()


def test_kill_after_every_statement(ledger):
    url = _url(ledger)
    sid = ledger.start("dunhill", PLAYERS).id
    ledger.close()
    probe = _writer(url, sid, 2)
    out, err = probe.communicate(timeout=60)
    assert probe.returncode == 0, err
    statements = int(out.split("statements")[1])
    hands = _check_reopened(url, sid, 2)
    # Now kill a writer right after statement 1, 2, ..., n of opening and appending
    # two hands; each time the database reopens whole and keeps what was confirmed.
    for n in range(1, statements + 1):
        p = _writer(url, sid, 2, kill_after=n)
        out, _ = p.communicate(timeout=60)
        assert p.returncode == -signal.SIGKILL, f"statement {n}: writer was not killed"
        confirmed = _confirmed(out)
        now = _check_reopened(url, sid, max(confirmed, hands))
        # at most one hand more than the writer saw confirmed: committed, then killed
        assert now <= max(confirmed, hands) + 1
        hands = now


def test_kill_at_random_moments(ledger):
    url = _url(ledger)
    sid = ledger.start("dunhill", PLAYERS).id
    ledger.close()
    hands = 0
    for wait in (0.9, 1.3, 1.7):
        p = _writer(url, sid, 10_000)
        time.sleep(wait)
        p.send_signal(signal.SIGKILL)
        out, _ = p.communicate(timeout=60)
        confirmed = _confirmed(out)
        now = _check_reopened(url, sid, max(confirmed, hands))
        assert now <= max(confirmed, hands) + 1
        assert now > hands or confirmed == 0
        hands = now
