"""Standings (成績表): what each player did, read from the log, per session and then over a period.

Pure functions, no I/O. ``summarise(config, steps)`` reads one session's hands that
count (``history(config, effective(events))``: corrections applied, undone hands
gone) into one line per seat; ``standings(summaries, period, rule)`` adds those lines
up per player id (the register's id: a renamed player keeps their standings, and a
player entered twice and merged, ``players.merge``, is added up as the one kept).

The figures, and the rule each follows:

- **sessions**: sessions with at least one hand that counts (a win, a draw or a chombo).
- **hands**: hands played, counted from the seats' hands: every win and every draw
  counts once for each of the three seats. A chombo voids its hand (it is replayed by
  the same dealer), so it is not a hand played; it is counted under chombos.
- **wins** (和了): each win a player makes; both winners of a double ron win.
  **win rate** (和了率) = wins / hands.
- **deal-ins** (放銃): the discarder of a ron; a double ron is one deal-in (one discard).
  **deal-in rate** (放銃率) = deal-ins / hands.
- **tsumo share** (ツモ率) = wins by tsumo / wins.
- **result**: the session settled as ``settle`` settles it (a session still going: as if
  it ended now), in the rule's unit (points, or sticks for isshokai). **total** is the sum
  of a player's results, **average** the total / sessions. With every rule together the
  results are summed in stick value (``in_sticks``: 100 per point, 1,000 per stick),
  since a point and a stick are not the same money.
- **chombos**: the chombos a player was the offender of.
- **best hand**: the win with the highest score total (compared in stick value across
  rules; the first one on a tie), with its session, hand number and yaku.
- **stick games** (isshokai): sessions played, tops (the settled top), and the sticks
  result (the sum of their results in sticks, the top's bonus included).
- A session belongs to the **business day** (営業日) it started on in the parlour's time
  zone, a day starting at ``day_starts_hour`` (a night past midnight counts to the day it
  began); a month is the business days of that month.
"""

from __future__ import annotations

import re
from operator import attrgetter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, Iterable, Mapping, Sequence
from zoneinfo import ZoneInfo

from .derive import SessionConfig, Step
from .errors import LedgerError
from .settle import settle

STICK_VALUE = "stick value"          # the unit of every-rule totals: 100 per point, 1,000 per stick
PERIODS = ("day", "month", "all")


@dataclass(frozen=True, slots=True)
class BestHand:
    """One win: its score total (in the rule's unit) and that total in stick value."""

    total: int
    value: int
    rule: str
    session_id: str
    hand: int
    day: date
    text: str


@dataclass(frozen=True, slots=True)
class SeatLine:
    """One seat of one session."""

    player_id: int | None
    seat_name: str
    wins: int = 0
    deal_ins: int = 0
    tsumo: int = 0
    chombos: int = 0
    result: int = 0          # settled, in the rule's unit
    in_sticks: int = 0       # the result in stick value
    top: bool = False        # a stick game's top
    best: BestHand | None = None


@dataclass(frozen=True, slots=True)
class SessionSummary:
    """A session read once: its day, rule, table, the hands that count, and one line per seat."""

    session_id: str
    last_seq: int            # the log's last seq when summarised (the cache's key)
    rule: str
    table_name: str
    started: datetime
    day: date                # the business day it started on
    unit: str
    unit_value: int
    stick_game: bool
    steps: int               # hands that count: wins, draws and chombos
    hands: int               # hands played: wins and draws
    seats: tuple[SeatLine, ...]


def business_day(at: datetime, zone: str | ZoneInfo = "Asia/Tokyo", day_starts_hour: int = 6) -> date:
    """The business day ``at`` falls in: its local date, a day starting at ``day_starts_hour``."""
    tz = ZoneInfo(zone) if isinstance(zone, str) else zone
    return (at.astimezone(tz) - timedelta(hours=day_starts_hour)).date()


def win_text(win: Mapping[str, Any]) -> str:
    """A win in a few words: its yaku (役満 first when it is one) and how it was won."""
    score = win.get("score", {})
    names = [i.get("ja") or i.get("key", "") for i in score.get("items", ())
             if i.get("group") in ("yaku", "yakuman", "fixed")]
    how = "ツモ" if win.get("record", {}).get("win") == "tsumo" else "ロン"
    head = "役満 " if score.get("yakuman") else ""
    return f"{head}{'・'.join(names) or '—'} ({how})"


def summarise(config: SessionConfig, steps: Sequence[Step], *, last_seq: int = 0,
              zone: str | ZoneInfo = "Asia/Tokyo", day_starts_hour: int = 6) -> SessionSummary:
    """One session's figures per seat, from its hands that count (``history``)."""
    if config.created_at is None:
        raise LedgerError(f"session {config.id}: no start time, so no business day")
    t = config.table
    day = business_day(config.created_at, zone, day_starts_hour)
    idx = {name: i for i, name in enumerate(config.players)}
    wins, deal_ins, tsumo, chombos = [0] * 3, [0] * 3, [0] * 3, [0] * 3
    best: list[BestHand | None] = [None] * 3
    hands = 0
    for step in steps:
        kind, body = step.slot.kind, step.slot.body
        if kind == "chombo":
            chombos[idx[body["offender"]]] += 1
            continue
        hands += 1
        if kind != "win":
            continue
        seats = body.get("seats") or {}
        for w in body["wins"]:
            i = idx[w["winner"]]
            wins[i] += 1
            if w["record"].get("win") == "tsumo":
                tsumo[i] += 1
            total = int(w["score"]["total"])
            if best[i] is None or total * t.unit_value > best[i].value:
                best[i] = BestHand(total, total * t.unit_value, config.rules, config.id, step.slot.number, day,
                                   win_text(w))
        discarder = _discarder(body, seats)
        if discarder is not None:
            deal_ins[idx[discarder]] += 1          # one discard: one deal-in, a double ron too
    lines = settle(config, steps[-1].after) if steps else None
    ids = config.player_ids or (None, None, None)
    seat_lines = tuple(
        SeatLine(ids[i], name, wins[i], deal_ins[i], tsumo[i], chombos[i],
                 lines[i].result if lines else 0, lines[i].in_sticks if lines else 0,
                 bool(lines and lines[i].top), best[i])
        for i, name in enumerate(config.players))
    return SessionSummary(config.id, last_seq, config.rules, config.table_name, config.created_at, day,
                          t.unit, t.unit_value, t.stick_game, len(steps), hands, seat_lines)


def _discarder(body: Mapping[str, Any], seats: Mapping[str, str]) -> str | None:
    """The player who dealt in: the body's ``discarder``, else the ron record's discarder seat."""
    if body.get("discarder"):
        return body["discarder"]
    for w in body["wins"]:
        if w["record"].get("win") == "ron" and w["record"].get("discarder"):
            return seats.get(w["record"]["discarder"])
    return None


# -- periods -------------------------------------------------------------------

@dataclass(frozen=True)
class Period:
    """A business day, a month (``start`` its first day), or all time."""

    kind: str
    start: date | None = None

    def bounds(self) -> tuple[date, date] | None:
        """The first business day and the one after the last (None: all time)."""
        if self.kind == "all":
            return None
        if self.kind == "day":
            return self.start, self.start + timedelta(days=1)
        after = date(self.start.year + self.start.month // 12, self.start.month % 12 + 1, 1)
        return self.start, after

    @property
    def value(self) -> str:
        """As a query names it: ``2024-05-01``, ``2024-05`` or ``all``."""
        if self.kind == "all":
            return "all"
        return self.start.isoformat() if self.kind == "day" else self.start.strftime("%Y-%m")


def parse_period(kind: str, day: str | None = None, month: str | None = None, *, today: date) -> Period:
    """The period a query asks for: ``day`` (``day`` YYYY-MM-DD, default ``today``), ``month``
    (``month`` YYYY-MM, default today's) or ``all``; LedgerError naming what is wrong."""
    if kind == "all":
        return Period("all")
    if kind == "day":
        if not day:
            return Period("day", today)
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", day):
            try:
                return _bounded(Period("day", date.fromisoformat(day)))
            except (ValueError, OverflowError):      # 2024-02-30; 9999-12-31, whose next day is none
                pass
        raise LedgerError(f"date: {day!r} is not a date (YYYY-MM-DD)")
    if kind == "month":
        if not month:
            return Period("month", today.replace(day=1))
        m = re.fullmatch(r"(\d{4})-(\d{2})", month)
        if m and 1 <= int(m.group(2)) <= 12:
            try:
                return _bounded(Period("month", date(int(m.group(1)), int(m.group(2)), 1)))
            except (ValueError, OverflowError):      # year 0000; 9999-12, whose next month is none
                pass
        raise LedgerError(f"month: {month!r} is not a month (YYYY-MM)")
    raise LedgerError(f"period: {kind!r} is not one of {', '.join(PERIODS)}")


def _bounded(period: Period) -> Period:
    """``period``, once its bounds are dates (ValueError or OverflowError at the calendar's ends)."""
    period.bounds()
    return period


# -- standings -----------------------------------------------------------------

@dataclass(slots=True)
class Row:
    """One player's figures over the period (totals in the standings' unit)."""

    player_id: int
    sessions: int = 0
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    tsumo: int = 0
    chombos: int = 0
    total: int = 0
    best: BestHand | None = None
    stick_sessions: int = 0
    tops: int = 0
    sticks: int = 0                                   # stick games' results, in sticks
    series: list[int] = field(default_factory=list)   # the running total after each session

    @property
    def win_rate(self) -> float | None:
        """和了率: wins / hands played (None with no hand)."""
        return self.wins / self.hands if self.hands else None

    @property
    def deal_in_rate(self) -> float | None:
        """放銃率: deal-ins / hands played."""
        return self.deal_ins / self.hands if self.hands else None

    @property
    def tsumo_share(self) -> float | None:
        """ツモ率: tsumo wins / wins."""
        return self.tsumo / self.wins if self.wins else None

    @property
    def average(self) -> float | None:
        """The total / sessions."""
        return self.total / self.sessions if self.sessions else None


@dataclass(frozen=True)
class Standings:
    period: Period
    rule: str | None          # None: every rule
    unit: str                 # "points", "sticks", or STICK_VALUE for every rule together
    sessions: int             # sessions counted
    rows: list[Row]           # by total, highest first


def standings(summaries: Iterable[SessionSummary], period: Period, rule: str | None = None,
              merged: Mapping[int, int] | None = None) -> Standings:
    """Each player's figures over the sessions of ``period`` under ``rule`` (None: every rule,
    totals in stick value), in the order the sessions started; a player ``merged`` into another
    (entered twice: players.merge) is counted as that other."""
    merged = merged or {}
    rows: dict[int, Row] = {}
    ruled = [s for s in summaries if s.steps and (rule is None or s.rule == rule)]
    units = {s.unit for s in ruled}      # a rule's unit, whatever the period holds
    unit = units.pop() if rule is not None and len(units) == 1 else STICK_VALUE
    bounds = period.bounds()
    if bounds is not None:
        first, after = bounds
        ruled = [s for s in ruled if first <= s.day < after]
    chosen = sorted(ruled, key=attrgetter("started", "session_id"))
    in_sticks = unit == STICK_VALUE
    for s in chosen:       # the hot loop of a year's standings: plain attribute reads, no calls
        hands, stick_game = s.hands, s.stick_game
        for line in s.seats:
            pid = line.player_id
            if pid is None:
                continue
            pid = merged.get(pid, pid)
            row = rows.get(pid)
            if row is None:
                row = rows[pid] = Row(pid)
            row.sessions += 1
            row.hands += hands
            row.wins += line.wins
            row.deal_ins += line.deal_ins
            row.tsumo += line.tsumo
            row.chombos += line.chombos
            row.total += line.in_sticks if in_sticks else line.result
            row.series.append(row.total)
            best = line.best
            if best is not None and (row.best is None or best.value > row.best.value):
                row.best = best
            if stick_game:
                row.stick_sessions += 1
                row.tops += line.top
                row.sticks += line.result
    ordered = sorted(rows.values(), key=lambda r: (-r.total, r.player_id))
    return Standings(period, rule, unit, len(chosen), ordered)
