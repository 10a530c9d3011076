"""The standings' per-session summaries, kept in memory and brought up to date from the log.

Nothing derived is written to the database: each session is summarised from its
events (``service.ledger.standings.summarise``) and kept here by session id with the
last seq it was read at. Events are only ever appended, so one look at the log,
``count(*)`` and ``max(id)`` of ``ledger_events``, tells whether anything changed:

- nothing changed: the summaries stand;
- the rows above the last ``max(id)`` account for the whole change in count: only the
  sessions they belong to are read again;
- they do not (a row committed late, under an id below one already seen): every
  session's ``max(seq)`` is compared with the one its summary was read at;
- the count went down (a database swapped under the service): everything is read again.

The count, the max and the rows above the last max come from one statement, so the
comparison is exact; everything read after it can only see more rows, which are read
again on the next refresh at worst.
Events are read in bulk, one query for all the sessions that need it, streamed in
session order so a parlour's year is never in memory at once.
"""

from __future__ import annotations

import gc
import logging
import threading
from itertools import groupby
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Connection, func, select

from .ledger import Ledger, SessionConfig, effective, history
from .ledger import db
from .ledger.events import Event
from .ledger.players import Player
from .ledger.standings import SessionSummary, summarise

FREEZE_AT = 2000    # sessions: from this many, a cold read is frozen out of the garbage collector's walks
BULK = 500          # more sessions than this to read again: read them all (no long IN list)


class StandingsCache:
    """Summaries of every session with events, refreshed on each ``summaries()`` call."""

    def __init__(self, ledger: Ledger, zone: str = "Asia/Tokyo", day_starts_hour: int = 6):
        self.ledger = ledger
        self.zone, self.day_starts_hour = zone, day_starts_hour
        self._lock = threading.Lock()
        self._by_session: dict[str, SessionSummary] = {}
        self._ordered: list[SessionSummary] = []
        self._count = self._max_id = 0
        self.summarised = 0          # sessions summarised so far (what a refresh cost; tests and bench read it)
        self.rescans = 0             # refreshes that compared every session's max(seq)

    def summaries(self) -> list[SessionSummary]:
        """Every session's summary, up to date with the log, in the order the sessions started."""
        with self._lock:
            self._refresh()
            return self._ordered

    def players(self) -> dict[int, Player]:
        """The register now, by id: standings show each player's current name."""
        return {p.id: p for p in self.ledger.players()}

    def merged(self) -> dict[int, int]:
        """The register's merges now (read each time: the counter may merge in another process)."""
        return self.ledger.merged_ids()

    # -- refreshing ---------------------------------------------------------
    def _refresh(self) -> None:
        count, max_id, stale = self._look()
        if stale == set():
            self._count, self._max_id = count, max_id
            return
        if stale is None:
            self._by_session.clear()
        # the ledger's own connections, one at a time: on SQLite each takes the write lock
        configs = self._configs(stale)
        with self.ledger.engine.connect() as conn:
            self._read(conn, stale, configs)
        self._count, self._max_id = count, max_id
        self._ordered = sorted(self._by_session.values(), key=lambda s: (s.started, s.session_id))
        if stale is None and len(self._ordered) >= FREEZE_AT:
            # A year's summaries and configs are a few hundred thousand long-lived objects that every
            # full garbage collection would walk again (~0.2 s, a request in ten): set them aside.
            gc.collect()
            gc.freeze()

    def _look(self) -> tuple[int, int, set[str] | None]:
        """The log's count and max(id) now, and the sessions to read again (None: all of them).

        Count, max and the rows above the last max come from one statement (one snapshot), so
        "they account for the change" is exact; the sessions are found by a later statement,
        which can only see more rows: a session read early is read again next time, none is missed."""
        ev = db.events.c
        with self.ledger.engine.connect() as conn:
            above = select(func.count()).where(ev.id > self._max_id).scalar_subquery()
            count, max_id, new = conn.execute(
                select(func.count(), func.coalesce(func.max(ev.id), 0), above).select_from(db.events)).one()
            if (count, max_id) == (self._count, self._max_id):
                return count, max_id, set()
            if count < self._count or not self._by_session:
                return count, max_id, None                 # cold, or a log that shrank: read everything
            if count - self._count == new:
                stale = set(conn.execute(select(ev.session_id).where(ev.id > self._max_id).distinct()).scalars())
            else:                                          # a row committed late, below an id seen before
                self.rescans += 1
                stale = {sid for sid, last in conn.execute(
                    select(ev.session_id, func.max(ev.seq)).group_by(ev.session_id))
                    if sid not in self._by_session or self._by_session[sid].last_seq != last}
        return count, max_id, None if len(stale) > BULK else stale

    def _read(self, conn: Connection, stale: set[str] | None, configs: dict[str, SessionConfig]) -> None:
        """Summarise ``stale`` sessions again (None: every session), from one streamed query. A
        session started since the configs were read waits for the next refresh (its rows are new)."""
        ev = db.events.c
        query = select(ev.session_id, ev.seq, ev.kind, ev.body).order_by(ev.session_id, ev.seq)
        if stale is not None:
            query = query.where(ev.session_id.in_(sorted(stale)))
        rows = conn.execute(query.execution_options(yield_per=2000))      # streamed: a server-side cursor
        for sid, group in groupby(rows, key=lambda r: r.session_id):
            events = [Event(r.seq, r.kind, r.body) for r in group]
            cfg = configs.get(sid)
            if cfg is not None:
                self._by_session[sid] = self._summary(cfg, events)
                self.summarised += 1

    def _configs(self, stale: set[str] | None) -> dict[str, SessionConfig]:
        """The sessions' fixed facts: every session's in one query when cold; else each stale one's
        (the ledger keeps those it has read: only a session new since the last look is queried)."""
        if stale is None:
            return {cfg.id: cfg for cfg in self.ledger.sessions()}
        return {sid: self.ledger.config(sid) for sid in stale}

    def _summary(self, cfg: SessionConfig, events: list[Event]) -> SessionSummary:
        steps = history(cfg, effective(events))
        return summarise(cfg, steps, last_seq=events[-1].seq, zone=self.zone, day_starts_hour=self.day_starts_hour)


_made = threading.Lock()
log = logging.getLogger(__name__)


def warm_in_background(app) -> threading.Thread:
    """Summarise every session now, in a thread, so the first standings page after a start does
    not wait for a year of log (about half a minute on a parlour's year, bench_standings)."""
    cache = _cache_of(app.state)

    def warm() -> None:
        try:
            cache.summaries()
        except Exception as e:          # a database gone or the app stopped: the first page reads it then
            log.warning("standings not warmed: %s", e)
    thread = threading.Thread(target=warm, name="standings-warm", daemon=True)
    thread.start()
    return thread


def get_standings(request: Request) -> StandingsCache:
    """The app's cache, made on first use over the parlour's handle (every table's sessions)."""
    return _cache_of(request.app.state)


def _cache_of(state) -> StandingsCache:
    cache = getattr(state, "standings_cache", None)
    if cache is None or cache.ledger is not state.parlour:       # a restarted app has a new handle
        with _made:
            cache = getattr(state, "standings_cache", None)
            if cache is None or cache.ledger is not state.parlour:
                s = state.settings
                cache = state.standings_cache = StandingsCache(state.parlour, s.timezone, s.day_starts_hour)
    return cache


StandingsDep = Annotated[StandingsCache, Depends(get_standings)]
