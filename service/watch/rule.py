"""When the watcher reads, and when what it read is offered as a win: the trigger rule, pure.

The rule sees the table through cheap looks (``look.Look``: motion, face-up tiles per hand zone)
and, once it asks, the detector's readings of still frames. It decides with what a camera sees:

1. **One hand laid down.** Exactly one seat's hand zone shows at least ``reveal_tiles`` face-up
   tiles (a row of backs or an empty rail shows none). Two or more seats showing their hands is
   a draw's tenpai display (or a double ron): nothing is read (Count still works).
2. **Still.** The felt has not moved (``motion < still_share``) since the previous look; the
   detector reads the newest frame each time the view is still, and any motion throws the
   readings away. A frame the camera has not replaced (a stall) is not looked at again: one
   frame is one reading in the vote, and stillness is seen in new frames only.
3. **Settled.** The view has been still for ``settle_s`` and at least ``frames`` frames were
   read; the record most readings agree on wins the vote (``vision.layout.vote``; without a
   majority up to twice as many frames are read).
4. **A win, not a show.** The voted record holds a full hand: its concealed tiles (with the
   winning tile) plus three per meld come to ``win_tiles`` (14) or more. A tenpai display shows
   13 (no winning tile), a hand resting over the row or a half-laid row fewer: the rule holds
   (reads nothing more) until the table moves again, then looks afresh.
5. **Once.** After an offer the rule waits until the winner's hand zone has shown no face-up
   row for ``clear_s`` (the tiles pushed into the table, the next deal's backs), then re-arms.
   A record offered in the last ``repeat_s`` is never offered again (an arm resting on the row
   long enough to re-arm, then lifted).

Discards, a tile pushed into the automatic table, arms crossing the table: none lays a row of
faces in a hand zone, so none is read; the detector runs only on still frames with one hand laid.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping

from scoring.errors import ScoringError
from scoring.tiles import KIND_OF, parse_mpsz

from .look import Look

# The states, as the tablet shows them.
OFF, WATCHING, READING, HELD, OFFERED = "off", "watching", "reading", "held", "offered"
# Where a message names the seat whose hand zone it watches: the zone keeps its player while the deal
# moves on, so the watcher fills in that player's seat in the deal now (ReadContext.seat_now).
SEAT = "<seat>"


@dataclass(frozen=True)
class Thresholds:
    reveal_tiles: float = 1.5       # face-up tiles in a hand zone that make a row laid down
    still_share: float = 0.0005     # share of the felt that may change between looks on a still table
    settle_s: float = 0.6           # still this long before an offer
    frames: int = 3                 # frames read and voted
    win_tiles: int = 14             # a win shows this many (concealed + 3 per meld)
    clear_s: float = 1.0            # the winner's row gone this long re-arms the rule
    repeat_s: float = 600.0         # a record offered within this long is not offered again


def hand_size(record: Mapping[str, Any] | None) -> int:
    """The tiles a record's hand counts: concealed (with the winning tile) plus three per meld."""
    if not record:
        return 0
    concealed = sum(ch.isdigit() for ch in str(record.get("concealed", "")))
    return concealed + 3 * len(record.get("melds") or [])


def tiles_of(record: Mapping[str, Any] | None) -> Counter:
    """The kinds a record's hand holds, red fives as fives: its concealed tiles and its melds'.
    Empty where the record names none, or names them in text that is not mpsz."""
    if not record:
        return Counter()
    texts = [record.get("concealed", "")] + [m.get("tiles", "") for m in record.get("melds") or []
                                              if isinstance(m, Mapping)]
    try:
        return Counter(KIND_OF[t] for text in texts for t in parse_mpsz(text))
    except ScoringError:
        return Counter()


def another_hand(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    """Whether two records surely hold different hands: they share at most half the tiles of the
    smaller. One hand read twice (a tile or two misread, an arm over it) shares nearly all its
    tiles; the next deal's win, a few. Not sure (either names no tiles): False."""
    ta, tb = tiles_of(a), tiles_of(b)
    if not ta or not tb:
        return False
    return 2 * sum((ta & tb).values()) <= min(sum(ta.values()), sum(tb.values()))


def same_hand(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None, misread: int = 2) -> bool:
    """Whether two records surely hold one hand read twice: all the tiles of the larger but
    ``misread`` are the other's too. The next deal's win, even of one suit (chinton), shares far fewer
    (``another_hand`` asks the opposite: surely not one hand). Not sure (either names no tiles): False."""
    ta, tb = tiles_of(a), tiles_of(b)
    if not ta or not tb:
        return False
    return max(sum(ta.values()), sum(tb.values())) - sum((ta & tb).values()) <= misread


def record_key(record: Mapping[str, Any] | None) -> str:
    """What makes two readings the same hand (the session's rule and honba aside)."""
    if not record:
        return ""
    return json.dumps({k: v for k, v in record.items() if k not in ("rules", "honba")}, sort_keys=True)


@dataclass
class Trigger:
    """The rule's state for one table. ``see`` each look; when it returns True, read that frame and
    ``add`` the reading; when ``ready``, vote and ``decide``."""

    limits: Thresholds = field(default_factory=Thresholds)
    state: str = WATCHING
    seat: str | None = None
    message: str = "見ています · watching the table"
    readings: list[tuple[str, Any]] = field(default_factory=list)     # (record key, payload)
    _still_since: float | None = None
    _prev_t: float | None = None
    _gone_since: float | None = None
    _offered: list[tuple[float, str]] = field(default_factory=list)  # (when, record key)

    def see(self, look: Look) -> bool:
        """Take one look; True when this frame should be read by the detector."""
        moving = look.motion >= self.limits.still_share
        if moving:
            self._still_since = None
        elif self._still_since is None:
            self._still_since = look.t if self._prev_t is None else self._prev_t
        self._prev_t = look.t
        if self.state == OFF:
            return False
        if self.state == OFFERED:
            self._watch_for_clear(look)
            return False
        if self.state == HELD:
            if moving:
                self._arm("見ています · watching the table")
            return False
        shown = look.revealing(self.limits.reveal_tiles)
        if moving or len(shown) != 1:
            self.readings.clear()
            self.state, self.seat = WATCHING, None
            self.message = ("手牌が複数 · several hands shown (a draw?): not counted by itself" if len(shown) > 1
                            else "手牌が動いています · a hand is being laid down" if shown
                            else "見ています · watching the table")
            return False
        if shown[0] != self.seat:
            self.readings.clear()
            self.seat = shown[0]
        self.state = READING
        self.message = f"読んでいます · reading {SEAT}'s hand"
        n = len(self.readings)
        return n < self.limits.frames or (not self._majority() and n < 2 * self.limits.frames)

    def add(self, record: Mapping[str, Any] | None, payload: Any = None) -> None:
        """One reading of a frame ``see`` asked for."""
        self.readings.append((record_key(record), payload))

    def still_for(self, t: float) -> float:
        return 0.0 if self._still_since is None else t - self._still_since

    def ready(self, t: float) -> bool:
        """Enough still frames read, the view settled, and a majority (or twice the frames) read."""
        n = len(self.readings)
        if self.state != READING or n < self.limits.frames or self.still_for(t) < self.limits.settle_s:
            return False
        return self._majority() or n >= 2 * self.limits.frames

    def _majority(self) -> bool:
        keys = [k for k, _ in self.readings]
        return bool(keys) and max(keys.count(k) for k in keys) * 2 > len(keys)

    def decide(self, record: Mapping[str, Any] | None, t: float) -> bool:
        """The voted record: True when it is offered as a win (the rule then waits for the clear)."""
        self.readings.clear()
        size = hand_size(record)
        if size < self.limits.win_tiles:
            self.state = HELD
            self.message = (f"{SEAT}: {size} 枚 · {size} tiles shown: a tenpai display? not counted by itself"
                            if size == self.limits.win_tiles - 1 else
                            f"{SEAT}: {size} 枚 · {size} tiles read: not a whole hand; waiting")
            return False
        key = record_key(record)
        self._offered = [(at, k) for at, k in self._offered if t - at < self.limits.repeat_s]
        self.state, self._gone_since = OFFERED, None
        if any(k == key for _, k in self._offered):
            self.message = f"{SEAT}: 読み済み · this hand was already offered"
            return False
        self._offered.append((t, key))
        self.message = f"{SEAT}: 和了を読みました · a win was read"
        return True

    def undecide(self, why: str) -> None:
        """The win just decided could not be offered (its snapshot not saved): forget it was offered
        and watch again, so the same win is read and offered once it can be."""
        if self._offered:
            self._offered.pop()
        self._arm(why)

    def rearm(self, why: str = "見ています · watching the table") -> None:
        """Back to watching (the table cleared, a new table on a slideshow camera, switched on)."""
        self._arm(why)

    def counted(self) -> None:
        """A win was logged (a count the players confirmed, the watcher's or one they tapped): the hand
        lying on the table is that one, so nothing is offered until the table clears (the winner's
        hand zone, where the rule knows it; else every hand zone) and the rule re-arms. Before, a hand
        counted by a tap while an arm kept the view moving was offered again once the arm left."""
        if self.state == OFF:
            return
        self.readings.clear()
        self.state, self._gone_since = OFFERED, None
        self.message = "記録済み · the hand is logged: waiting for the table to clear"

    def switch(self, on: bool) -> None:
        if on and self.state == OFF:
            self._arm("見ています · watching the table")
        elif not on:
            self.readings.clear()
            self.state, self.seat, self.message = OFF, None, "自動カウント停止中 · auto count off"

    def _arm(self, message: str) -> None:
        self.readings.clear()
        self.state, self.seat, self.message = WATCHING, None, message
        self._gone_since = None

    def _watch_for_clear(self, look: Look) -> None:
        zones = [look.shown.get(self.seat, 0.0)] if self.seat else look.shown.values()
        if any(v >= self.limits.reveal_tiles for v in zones):
            self._gone_since = None
            return
        if self._gone_since is None:
            self._gone_since = look.t
        if look.t - self._gone_since >= self.limits.clear_s:
            self._arm("見ています · watching the table (cleared)")
