"""Settlement: what each player is up or down, in the rule's unit and in sticks.

Point rules: the balance is the count of points won and lost (1 point is paid as
``unit_value`` = 100 in sticks: 18 points = 1,800); riichi sticks still in the
pool are shown apart. The stick game (isshokai): 25 sticks each, 30 returned,
the top takes +15 (and, by this ledger's choice, the sticks left in the pool);
a tie for top goes to the one who won last, and within a double ron to the
winner first in turn from that hand's dealer ("親の位置から頭ハネ").
"""

from __future__ import annotations

from dataclasses import dataclass

from .derive import SessionConfig, State


@dataclass(frozen=True)
class Line:
    player: str
    held: int          # balance in the rule's unit (isshokai: sticks held)
    result: int        # the settled result in the rule's unit
    in_sticks: int     # result paid in sticks (points x 100, sticks x 1,000)
    top: bool = False


def top_player(config: SessionConfig, state: State) -> int:
    """The top: most held. A tie goes to the tied player who won last (isshokai 1.3 "最後に和了した者";
    a double ron's two winners in turn from that hand's dealer, "親の位置から頭ハネ"); where none of
    the tied has won, to the first of them in turn from the dealer."""
    best = max(state.balances)
    tied = [i for i, b in enumerate(state.balances) if b == best]
    for w in state.winners_latest_first:
        if w in tied:
            return w
    return min(tied, key=lambda i: (i - state.dealer) % 3)


def settle(config: SessionConfig, state: State) -> list[Line]:
    """Each player's line. A stick game with no hand that counts (none logged, or all undone) was
    not played: every result is 0, with no return of 30 and no top's +15 for the first seat."""
    t = config.table
    if not t.stick_game:
        return [Line(p, b, b, b * t.unit_value) for p, b in zip(config.players, state.balances)]
    if state.hands == 0:
        return [Line(p, b, 0, 0) for p, b in zip(config.players, state.balances)]
    top = top_player(config, state)
    lines = []
    for i, (p, b) in enumerate(zip(config.players, state.balances)):
        r = b - t.return_sticks
        if i == top:
            r += t.top_bonus + (state.pool if t.end_pool == "top" else 0)
        lines.append(Line(p, b, r, r * t.unit_value, top=i == top))
    return lines
