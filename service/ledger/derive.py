"""The session state as a fold over its events: pure functions, no database.

``effective(events)`` resolves corrections and undos into the hands that count,
numbered 1..n; ``fold(config, slots)`` plays them from the opening state. Each
step is one rule of the table, written as one small function:

- a win: the payers pay the winner what the engine counted (``payments``, a
  lateral ron's bounty included); the winner takes the pool; the winner becomes
  the dealer: a dealer win adds a honba, a new dealer starts at
  ``new_dealer_honba``.
- a double ron: both win and both are paid; the pool and the deal go to the
  head winner (first in turn after the discarder), or the dealer keeps the deal
  if one of them (``double_ron_dealer = "dealer_keeps"``); without
  ``double_ron_bounty_exchange`` the other winner does not pay the lateral bounty.
- a draw: riichi sticks stay in the pool; each noten player pays each tenpai
  player ``noten_total / 2`` (or into the pool); a honba is added; the dealer keeps
  the deal (``draw_dealer = "stays"``), or only when tenpai (``"tenpai"``, 聴牌連荘),
  else the deal passes to the next in turn (下家).
- a chombo: the offender pays ``chombo_each`` to each other player; the hand is
  replayed by the same dealer (honba kept, or added: ``chombo_honba``); its riichi
  sticks go back or into the pool (``chombo_riichi``).
- riichi: each declarer puts ``riichi_stick`` (open riichi: ``open_riichi_sticks``
  sticks) into the pool when the hand is played.
- a 罰符 (isshokai: a false call of pon, kan or riichi) during a hand: its offender puts
  ``penalty`` into the pool, whatever the hand's end (the hand's ``penalties``, a name
  a stick).
- a stick game (isshokai) starts everyone at ``start_sticks`` and is over when a
  hand would start with someone at ``end_at_or_below`` or less.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from .events import HAND_KINDS, Event, Slot
from .rules import TableRules

SEATS = ("east", "south", "west")


@dataclass(frozen=True)
class SessionConfig:
    """A session's fixed facts: who sits where, the house rule, the first dealer."""

    id: str
    rules: str
    players: tuple[str, str, str]     # in turn order (each is the next one's 上家)
    first_dealer: int
    table: TableRules
    overrides: Mapping[str, Any]
    label: str = ""
    # The rule every hand is counted with (scoring.Preset): the one stored when the session
    # started (``rule_digest`` its digest), or for a session from before, its built-in by name.
    preset: Any = field(default=None, compare=False, repr=False)
    rule_digest: str | None = None
    table_name: str = ""                              # the table it is played at ('' from before 0003)
    player_ids: tuple[int, ...] | None = None         # the register's ids, seat by seat as ``players``
    created_at: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class State:
    """Where the table stands before the next hand."""

    hands: int                     # hands played (the next one is hands + 1)
    dealer: int                    # index into players
    honba: int
    pool: int                      # units on the table (供託): riichi sticks, pooled noten
    balances: tuple[int, int, int]
    # the players who have won, the latest first (a double ron's winners in turn from its
    # dealer): a stick game's tie for top goes to the tied player who won last
    winners_latest_first: tuple[int, ...] = ()
    over: bool = False             # a stick game has ended
    warnings: tuple[str, ...] = ()

    def seat_of(self, player: int) -> str:
        return SEATS[(player - self.dealer) % 3]

    def player_at(self, seat: str) -> int:
        return (self.dealer + SEATS.index(seat)) % 3

    def seats(self, players: Sequence[str]) -> dict[str, str]:
        return {seat: players[self.player_at(seat)] for seat in SEATS}


@dataclass(frozen=True)
class Step:
    """One hand played: the slot, the change to each balance and to the pool, the state after."""

    slot: Slot
    deltas: tuple[int, int, int]
    pool_delta: int
    after: State


def opening(config: SessionConfig) -> State:
    t = config.table
    return State(hands=0, dealer=config.first_dealer, honba=t.new_dealer_honba, pool=0,
                 balances=(t.start_balance,) * 3)


def effective(events: Iterable[Event]) -> list[Slot]:
    """The hands that count, in order: corrections replace their slot, undos remove it."""
    slots: dict[int, Slot] = {}
    for e in events:
        if e.kind in HAND_KINDS:
            slots[e.seq] = Slot(e.seq, 0, e)
        elif e.kind == "correct":
            target = int(e.body["target"])
            if target in slots:
                inner = e.body["event"]
                new = Event(e.seq, inner["kind"], inner["body"], e.confirmed_by, e.created_at, e.snapshot)
                old = slots[target]
                slots[target] = Slot(target, 0, new, old.corrected_by + (e.seq,))
        elif e.kind == "undo":
            slots.pop(int(e.body["target"]), None)
    return [replace(s, number=i) for i, s in enumerate(slots.values(), 1)]


def fold(config: SessionConfig, slots: Iterable[Slot], start: State | None = None) -> State:
    """The state after the given hands (from the opening, or from ``start``)."""
    state = start or opening(config)
    for slot in slots:
        state = play(config, state, slot).after
    return state


def history(config: SessionConfig, slots: Iterable[Slot]) -> list[Step]:
    """Every hand with its payments and the state after it."""
    state, steps = opening(config), []
    for slot in slots:
        step = play(config, state, slot)
        steps.append(step)
        state = step.after
    return steps


def check(config: SessionConfig, state: State, kind: str, body: Mapping[str, Any]) -> list[str]:
    """Why a hand event does not fit ``state`` (empty when it fits)."""
    problems = []
    if state.over:
        problems.append("the game is over (a player started a hand at or below "
                        f"{config.table.end_at_or_below})")
    want = state.seats(config.players)
    if dict(body.get("seats", {})) != want:
        seats = ", ".join(f"{s}={p}" for s, p in want.items())
        problems.append(f"seats are now {seats}, the hand says "
                        + ", ".join(f"{s}={p}" for s, p in dict(body.get("seats", {})).items()))
    if body.get("honba") != state.honba:
        problems.append(f"the table is at {state.honba} honba, the hand says {body.get('honba')}")
    return problems


def play(config: SessionConfig, state: State, slot: Slot) -> Step:
    """One hand: its payments and the next state. Total: stored history never raises here."""
    t, body = config.table, slot.body
    problems = check(config, state, slot.kind, body)
    idx = {name: i for i, name in enumerate(config.players)}
    # A stored hand names its players by its own seats; use them even if they disagree.
    seats = dict(body.get("seats") or state.seats(config.players))
    deltas, pool = [0, 0, 0], 0
    if not (slot.kind == "chombo" and t.chombo_riichi == "return"):
        pool += _riichi(t, body, idx, deltas)   # a void hand's sticks go back to their owners
    for name in body.get("penalties", ()):      # a 罰符 is paid whatever the hand's end
        deltas[idx[name]] -= t.penalty
        pool += t.penalty
    dealer, honba = state.dealer, state.honba
    won = state.winners_latest_first
    if slot.kind == "win":
        winners, pool_taker, next_dealer = _win(t, body, seats, idx, deltas)
        deltas[pool_taker] += state.pool + pool
        pool = -state.pool
        honba = honba + 1 if next_dealer == state.dealer else t.new_dealer_honba
        dealer = next_dealer
        latest = tuple(sorted(winners, key=lambda i: (i - state.dealer) % 3))
        won = latest + tuple(i for i in won if i not in latest)
    elif slot.kind == "draw":
        pool += _noten(t, body, idx, deltas)
        honba += 1
        dealer = _dealer_after_draw(t, body, idx, dealer)
    elif slot.kind == "chombo":
        off = idx[body["offender"]]
        for i in range(3):
            if i != off:
                deltas[i] += t.chombo_each
                deltas[off] -= t.chombo_each
        if t.chombo_honba == "add":
            honba += 1
    balances = tuple(b + d for b, d in zip(state.balances, deltas))
    over = t.end_at_or_below is not None and any(b <= t.end_at_or_below for b in balances)
    warnings = state.warnings + tuple(f"hand {slot.number}: {p}" for p in problems)
    after = State(hands=state.hands + 1, dealer=dealer, honba=honba, pool=state.pool + pool,
                  balances=balances, winners_latest_first=won, over=over or state.over, warnings=warnings)
    return Step(slot, tuple(deltas), pool, after)


def riichi_sticks(t: TableRules, kind: str) -> int:
    """Units one declarer puts in the pool: a riichi stick, or open riichi's sticks."""
    return t.riichi_stick * (t.open_riichi_sticks if kind == "open" else 1)


def _riichi_paid(t: TableRules, body: Mapping[str, Any], idx: Mapping[str, int]) -> list[int]:
    paid = [0, 0, 0]
    for name, kind in dict(body.get("riichi", {})).items():
        paid[idx[name]] += riichi_sticks(t, kind)
    return paid


def _riichi(t: TableRules, body: Mapping[str, Any], idx: Mapping[str, int], deltas: list[int]) -> int:
    paid = _riichi_paid(t, body, idx)
    for i, p in enumerate(paid):
        deltas[i] -= p
    return sum(paid)


def head_order(discarder: str) -> tuple[str, str]:
    """The two other seats, first in turn after the discarder first (上家取り / 頭ハネ)."""
    i = SEATS.index(discarder)
    return SEATS[(i + 1) % 3], SEATS[(i + 2) % 3]


def paid(t: TableRules, payments: Mapping[str, int], discarder: str | None, double: bool) -> dict[str, int]:
    """What a win's payers (seat -> amount, the count's) pay at the table: all of it, but in a double
    ron without ``double_ron_bounty_exchange`` the discarder's alone (the other payer is the other
    winner, not "uninvolved": no lateral bounty). The tablet shows a double ron's payers by it."""
    return {s: a for s, a in payments.items() if not double or s == discarder or t.double_ron_bounty_exchange}


def _win(t: TableRules, body: Mapping[str, Any], seats: Mapping[str, str],
         idx: Mapping[str, int], deltas: list[int]) -> tuple[tuple[int, ...], int, int]:
    """Pay each win; return the winners (head first), who takes the pool, the next dealer."""
    wins = list(body["wins"])
    double = len(wins) == 2
    win_seats = [w["record"]["seat"] for w in wins]
    for w in wins:
        winner = idx[seats[w["record"]["seat"]]]
        for payer_seat, amount in paid(t, w["score"]["payments"], w["record"].get("discarder"), double).items():
            payer = idx[seats[payer_seat]]
            deltas[payer] -= amount
            deltas[winner] += amount
    if double:
        order = [s for s in head_order(wins[0]["record"]["discarder"]) if s in win_seats]
        winners = tuple(idx[seats[s]] for s in order)
        head = winners[0]
        dealer_idx = idx[seats["east"]]
        if t.double_ron_dealer == "dealer_keeps" and dealer_idx in winners:
            return winners, head, dealer_idx
        return winners, head, head
    winner = idx[seats[win_seats[0]]]
    return (winner,), winner, winner


def _dealer_after_draw(t: TableRules, body: Mapping[str, Any], idx: Mapping[str, int], dealer: int) -> int:
    """Who deals after a draw: the dealer (親続行), or under 聴牌連荘 (``draw_dealer = "tenpai"``)
    the dealer only when tenpai, else the next in turn (下家)."""
    if t.draw_dealer == "tenpai" and dealer not in {idx[n] for n in body.get("tenpai", [])}:
        return (dealer + 1) % 3
    return dealer


def _noten(t: TableRules, body: Mapping[str, Any], idx: Mapping[str, int], deltas: list[int]) -> int:
    tenpai = {idx[n] for n in body.get("tenpai", [])}
    if len(tenpai) in (0, 3):
        return 0
    each, to_pool = t.noten_each(), 0
    for payer in set(range(3)) - tenpai:
        for taker in tenpai:
            deltas[payer] -= each
            if t.noten_to == "pool":
                to_pool += each
            else:
                deltas[taker] += each
    return to_pool
