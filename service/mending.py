"""A read hand that makes no win, mended by the reader's next choice for one tile (``scoring.mend``).

The winner reveals a winning hand. Where the tiles as read make none (or, with 13 tiles and the
winning tile left to the players, wait on nothing), one of them was misread; the reader knows what
else each tile might be, and the one change of one tile to one of those that makes a win is made,
the likeliest where several do. The players are told which tile was changed, and confirm as ever.
A hand shown with 13 tiles and no winning tile (a photo without it) that waits on one tile alone
won on that tile; one that waits on several is told which, and the players pick. A hand of 14 that no
face the reader offered mends is pointed at the tiles that, read otherwise, would make it a win (at
most ``HINTS`` tiles; more say nothing). A gari tile read as a
kind that is no gari under the rule is counted as the gari kind the reader gave it next (first: a gari
that is no gari leaves no count at all).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import scoring
from scoring import Preset
from scoring.mend import Doubt, changes_that_win, mend, mend_gari, winning_tile
from scoring.table import Table
from scoring.tiles import tile_name
from vision.layout import SANMA, SetCounts

HINTS = 3           # at most this many tiles, each of which read otherwise would make a win, are pointed at


def set_of(rules: str, preset: Preset | None = None) -> tuple[SetCounts, tuple[str, ...]]:
    """What the table's set holds under the session's rule (``preset``, else the built-in ``rules``
    names), for the reader: its copies and red fives (chinton: eight of each pinzu and souzu, four
    of their fives red) and its gari kinds. An unknown rule: 三人花's, and the reader's own gari."""
    try:
        t = Table(preset if preset is not None else scoring.load_preset(rules))
    except (scoring.ScoringError, OSError, ValueError):
        return SANMA, ()
    return (SetCounts(t.copies, t.suit_copies, t.red_limit),
            tuple(sorted(tile_name(k) for k in t.gari)))


def mended(record: Mapping[str, Any] | None, hand: Iterable[Any], preset: Preset | None = None,
           gari: Iterable[Any] = (), mend_tiles: bool = True) -> tuple[Mapping[str, Any] | None, tuple[str, ...]]:
    """``record`` mended where it needs it, and what to tell the players (nothing where it needs no
    mend, or no one change mends it). ``hand``: the pieces its concealed tiles were read from (each
    with ``tile`` and ``others``), the winning tile last; ``gari``: those of its gari; ``preset``: the
    session's rule (else the one the record names). ``mend_tiles=False`` (the table's setting
    ``mend_reads`` off): no read tile is changed, the players fix them; a winning tile the photo does
    not show is still found where the hand waits on one tile alone (that changes no tile read)."""
    if not record:
        return record, ()
    said: tuple[str, ...] = ()
    if mend_tiles:
        record, changed = mend_gari(record, _doubts(gari), preset)
        said = tuple(g.says() for g in changed)
        done = mend(record, _doubts(hand), preset)
        if done is not None:
            record, said = done.record, said + (done.says(),)
    said += _pointed_at(changes_that_win(record, _doubts(hand), preset))
    record, on = winning_tile(record, preset)
    if len(on) == 1:
        five = " (a five: red or plain, check)" if on[0][0] == "5" and on[0][1] != "z" else ""
        said += (f"the winning tile is not shown: the hand waits on {on[0]} alone, so it is taken as the winning tile{five}",)
    elif on:
        said += (f"the hand waits on {' '.join(on)}: pick the winning tile",)
    return record, said


DISCARDS_LEFT_OUT = "discards read as tiles the wall cannot hold: left out (check the 5p/5s toggle)"


def vouched(record: Mapping[str, Any] | None, preset: Preset | None = None) -> tuple[Any, tuple[str, ...]]:
    """``record`` without its ``discards`` where the engine finds them no tiles of its wall
    (``scoring.DiscardsError``), and what to tell the players: the camera's discards are never shown
    or confirmed, so a discard misread must not block a count the players cannot fix. Any other
    refusal is left to the count."""
    if not record or not record.get("discards"):
        return record, ()
    try:
        scoring.score(record, preset)
    except scoring.DiscardsError:
        return {k: v for k, v in record.items() if k != "discards"}, (DISCARDS_LEFT_OUT,)
    except ValueError:
        pass
    return record, ()


def _doubts(pieces: Iterable[Any]) -> list[Doubt]:
    return [Doubt(p.tile, tuple(p.others)) for p in pieces]


def _pointed_at(changes: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """What to tell the players of the one-tile changes that would make a win, by the tile read."""
    kinds: dict[str, list[str]] = {}
    for read, tile in changes:
        kinds.setdefault(read, []).append(tile)
    if not 0 < len(kinds) <= HINTS:
        return ()
    return ("as read the tiles make no winning hand; one tile read otherwise would make one: "
            + ", or ".join(f"a {read} as {' or '.join(tiles)}" for read, tiles in kinds.items()) + " (check it)",)
