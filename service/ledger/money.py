"""Money at the counter: each rule's prices, and a session's settlement in yen per player.

A price is set per rule (a built-in or a house rule, by name): the rate (レート,
money per point of the rule's result; isshokai: per stick) and the table fee
(場代) each player pays, per ``game`` (once per session) or per ``hour``. A rule
with no price set plays at rate 0, fee 0 per game.

A player's money: ``result x rate`` (rounded to whole yen, half away from zero)
minus the fee. Per hour the fee is charged for every started hour from the
session's start (when the tablet started it: the players sat down) to its last
hand (when that was logged): ``ceil(minutes / 60)``, at least one, so a session
of exactly 60 minutes pays one hour and one of 61 pays two. A session with no
hand pays no fee (it was started by mistake, or nothing was played). The
arithmetic (``settle_money``, ``hours``) is pure; ``price``/``prices``/``set_price``
read and write ``ledger_prices``.

A session is settled at the price in force when it started (``price_at``: every price set is kept
in ``ledger_price_history`` from when it was set), so a price changed later, for the next nights,
leaves the settlements and receipts of sessions already played as they were. A session started
before its rule had any price is settled at the first price the rule was given.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Sequence

from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError

from . import db
from .errors import LedgerError
from .settle import Line

FEE_PER = ("game", "hour")
MONEY_TEXT = re.compile(r"(\d{1,3}(,\d{3})+|\d+)(\.\d+)?")
MAX_AMOUNT = 10_000_000        # a rate or fee above this is a typo, not a price


@dataclass(frozen=True)
class Price:
    rule: str
    rate: float = 0.0          # yen per point (isshokai: per stick)
    fee: float = 0.0           # yen per player, per game or per hour
    fee_per: str = "game"
    updated_at: datetime | None = None
    stored: bool = False       # False: nobody set it (the defaults)

    def to_dict(self) -> dict:
        return {"rule": self.rule, "rate": self.rate, "fee": self.fee, "fee_per": self.fee_per, "stored": self.stored,
                "updated_at": self.updated_at.isoformat() if self.updated_at else None}


@dataclass(frozen=True)
class Money:
    """One player's settlement: the result in the rule's unit, then yen."""

    seat: int
    player: str
    result: int                # in the rule's unit (points, or sticks for isshokai)
    won: int                   # result x rate, in yen
    fee: int                   # the table fee charged, in yen
    total: int                 # won - fee: > 0 the player receives, < 0 pays

    def to_dict(self) -> dict:
        return {"seat": self.seat, "player": self.player, "result": self.result, "won": self.won, "fee": self.fee,
                "total": self.total}


def checked(rule: str, rate: object, fee: object, fee_per: object) -> Price:
    """A price as given, checked: rate and fee finite numbers from 0, fee_per game or hour."""
    values = {}
    for key, value in (("rate", rate), ("fee", fee)):
        if isinstance(value, bool):         # no amount (float(True) is 1)
            raise LedgerError(f"{key} must be a number of yen (0 or more), got {value!r}")
        # full-width digits are digits as a Japanese keyboard types them; ² or ① is no amount
        if isinstance(value, str) and any(unicodedata.category(ch) == "No" for ch in value):
            raise LedgerError(f"{key} must be a number of yen written as digits (1,000 or 0.5), got {value!r}")
        if isinstance(value, str):          # "1,000", "¥500" as staff write money
            typed = unicodedata.normalize("NFKC", value).replace("¥", "").strip()
            # a comma groups thousands, nothing else ("5,0" is no price: 50? 5.0?); no exponent ("1e-9")
            if not MONEY_TEXT.fullmatch(typed):
                raise LedgerError(f"{key} must be a number of yen written as digits (1,000 or 0.5), got {value!r}")
            value = typed.replace(",", "")
        try:
            number = float(value)           # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise LedgerError(f"{key} must be a number of yen (0 or more), got {value!r}") from None
        if not math.isfinite(number) or not 0 <= number <= MAX_AMOUNT:
            raise LedgerError(f"{key} must be from 0 to {MAX_AMOUNT:,} yen, got {value!r}")
        values[key] = number
    if fee_per not in FEE_PER:
        raise LedgerError(f"fee_per must be 'game' or 'hour', got {fee_per!r}")
    if not rule:
        raise LedgerError("a price is for a rule: name it")
    return Price(rule, values["rate"], values["fee"], str(fee_per))


def yen(amount: Decimal) -> int:
    """Whole yen, half away from zero (-0.5 -> -1, as +0.5 -> +1)."""
    return int(amount.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def hours(start: datetime | None, last_hand: datetime | None) -> int:
    """Started hours from ``start`` to ``last_hand``: ceil, at least 1 (no hand yet: 1)."""
    if start is None or last_hand is None:
        return 1
    seconds = (db.aware(last_hand) - db.aware(start)).total_seconds()
    return max(1, math.ceil(seconds / 3600))


def fee_units(price: Price, start: datetime | None, last_hand: datetime | None) -> int:
    """How many fees a player pays: one per game, or one per started hour."""
    return 1 if price.fee_per == "game" else hours(start, last_hand)


def settle_money(lines: Sequence[Line], price: Price, start: datetime | None = None,
                 last_hand: datetime | None = None, played: bool = True) -> list[Money]:
    """Each player's money from the settlement's lines (settle.py), seat by seat in their order.
    ``played`` False: a session with no hand (started by mistake) charges no fee."""
    rate = Decimal(str(price.rate))
    fee = yen(Decimal(str(price.fee)) * fee_units(price, start, last_hand)) if played else 0
    return [Money(seat, line.player, line.result, won, fee, won - fee)
            for seat, (line, won) in enumerate(zip(lines, whole_yen([Decimal(l.result) * rate for l in lines])))]


def whole_yen(amounts: Sequence[Decimal]) -> list[int]:
    """Each amount in whole yen (half away from zero), so that they add up to their sum in whole
    yen: where rounding each alone would not (results 3, 3, -6 at ¥0.5 a point round to 2, 2, -3,
    and the parlour would pay out a yen it never took), the yen too many or too few comes off the
    amounts rounding moved furthest that way, the first seat first on a tie."""
    rounded = [yen(a) for a in amounts]
    off = sum(rounded) - yen(sum(amounts, Decimal(0)))
    step = 1 if off > 0 else -1
    moved = sorted(range(len(amounts)), key=lambda i: (-(rounded[i] - amounts[i]) * step, i))
    for i in moved[:abs(off)]:
        rounded[i] -= step
    return rounded


# -- the prices table --------------------------------------------------------------------------

def price(engine: Engine, rule: str) -> Price:
    """The price of ``rule`` now: the one a session started now settles at (``price_at`` the ledger's
    clock now); the defaults when none is set. Two counters saving at once are each stamped before
    their transactions, so the row of prices holds the one committed last while the history (which
    settles sessions) orders them by stamp: read from the row, the counter showed ¥100 a point while
    the next session settled at ¥1."""
    return price_at(engine, rule, db.clock(engine))


def prices(engine: Engine) -> dict[str, Price]:
    """Every price set, by rule, as ``price`` reads it."""
    with engine.connect() as conn:
        rules = conn.execute(select(db.prices.c.rule).order_by(db.prices.c.rule)).scalars().all()
    now = db.clock(engine)          # once for them all (on PostgreSQL, a query)
    return {rule: price_at(engine, rule, now) for rule in rules}


def price_at(engine: Engine, rule: str, when: datetime | None) -> Price:
    """The price of ``rule`` in force at ``when`` (a session's start): the last set at or before it,
    else the first the rule was given, else the defaults; ``when`` None: the price now."""
    if when is None:
        when = db.clock(engine)
    h = db.price_history
    mine = select(h).where(h.c.rule == rule)
    with engine.connect() as conn:
        row = (conn.execute(mine.where(h.c.since <= when).order_by(h.c.since.desc()).limit(1)).first()
               or conn.execute(mine.order_by(h.c.since).limit(1)).first())
        if row is None:          # no history (a ledger from before it was kept): the row, or the defaults
            stored = conn.execute(select(db.prices).where(db.prices.c.rule == rule)).first()
            return _price(stored) if stored is not None else Price(rule)
    return Price(row.rule, float(row.rate), float(row.fee), row.fee_per, db.aware(row.since), True)


def set_price(engine: Engine, rule: str, rate: object, fee: object, fee_per: object = "game") -> Price:
    """Set (or replace) the price of ``rule`` from now on; LedgerError (422) for a bad value."""
    p = checked(rule, rate, fee, fee_per)
    now = db.clock(engine)
    values = {"rate": p.rate, "fee": p.fee, "fee_per": p.fee_per}
    try:
        with engine.begin() as conn:
            _keep(conn, rule, now, values)
            if not conn.execute(update(db.prices).where(db.prices.c.rule == rule)
                                .values(updated_at=now, **values)).rowcount:
                conn.execute(db.prices.insert().values(rule=rule, updated_at=now, **values))
    except IntegrityError:       # two counters saved it at once: the other's insert won, update it
        with engine.begin() as conn:
            _keep(conn, rule, now, values)       # rolled back with the insert: written again
            conn.execute(update(db.prices).where(db.prices.c.rule == rule).values(updated_at=now, **values))
    return Price(p.rule, p.rate, p.fee, p.fee_per, now, True)


def _keep(conn, rule: str, since: datetime, values: dict) -> None:
    """The price from ``since`` on, in the history (set twice in one instant: the second stands)."""
    h = db.price_history
    if not conn.execute(update(h).where((h.c.rule == rule) & (h.c.since == since)).values(**values)).rowcount:
        conn.execute(h.insert().values(rule=rule, since=since, **values))


def _price(row) -> Price:
    return Price(row.rule, float(row.rate), float(row.fee), row.fee_per, db.aware(row.updated_at), True)
