"""A hand read one tile off a win, mended by the reader's own second choice.

The winner reveals a winning hand, so concealed tiles that make no win hold a misread. The reader
knows, for each tile it read, the other faces the cut might be and how likely each is (``Doubt``).
The mend is the one change of one concealed tile to one of those faces that makes the hand a win.
With 13 tiles and the winning tile not shown (the players pick it), the hand must wait on some tile
instead: one tile from a win.

A wrong mend is worse than none: a hand that makes no win cannot be confirmed until the players fix
it, a mended one can. So a face is tried only where the reader gave it ``FLOOR`` or more, and where
several changes make a win the likeliest is taken only at ``MARGIN`` times the next or more.
A hand that already wins, one whose size is neither 14 nor 13 without its winning tile, and one no
single change mends, or more than one does alike, are left as read. It is a reading, not a fact: the
caller tells the players which tile was changed, and they confirm.

Both bars were chosen on hands of real tiles the classifiers learnt (the fitting two thirds of
``../shared/real-tiles/camerash``, ``bench/bench_mend.py --fitting``), not on the held-out third.

The gari (``mend_gari``) are mended by the same reasoning, tile by tile: a tile the winner set aside
as gari is of a gari kind under the rule, so one read as another kind was misread, and is counted as
the gari kind the reader gave it next, by the same two bars. A gari that is no gari is a record the
rule refuses (no count at all, and no hand of it a win), so the gari are mended first.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from .engine import gari_kinds, is_a_win
from .errors import ScoringError
from .presets import Preset
from .tiles import RED_FIVES, format_mpsz, kind, parse_mpsz, parse_tile, tile_name

HAND = 14
FLOOR = 0.03         # a face the reader gave less than this is not tried ...
MARGIN = 2.0         # ... and of several changes that make a win, the likeliest must be this many times the next
KINDS = tuple(tile_name(k) for k in range(34))     # every kind, fives plain
REDS = tuple(tile_name(t) for t in RED_FIVES)      # 0m 0p 0s


class Doubt(NamedTuple):
    """A concealed tile as read, and the other faces the reader gave it, (tile, probability)."""

    tile: str
    others: tuple[tuple[str, float], ...] = ()


class Mend(NamedTuple):
    """The record mended: the tile ``read`` counted as ``tile``, which the reader gave ``likelihood``;
    ``gari``: a gari tile (``mend_gari``), else a concealed one."""

    record: dict[str, Any]
    read: str
    tile: str
    likelihood: float
    gari: bool = False

    def says(self) -> str:
        where, why = ((" in the gari", f"{self.read} is no gari under this rule") if self.gari else
                      ("", "as read the tiles make no winning hand"))
        return (f"read {self.read}{where}, counted as {self.tile}: {why}, and "
                f"{self.tile} was the reader's next choice for that tile ({self.likelihood:.0%})")


def mend_gari(record: Mapping[str, Any], doubts: Sequence[Doubt], preset: Preset | None = None
              ) -> tuple[Mapping[str, Any], tuple[Mend, ...]]:
    """``record`` with each gari tile read as a kind that is no gari under its rule counted as the gari
    kind its reader gave it next (``FLOOR`` or more, and ``MARGIN`` times the next gari kind offered),
    and the changes made. ``doubts``: the gari tiles as read, in any order; they must be the record's
    gari (else nothing is changed: the players have changed them since). A tile no gari kind is
    offered for stays as read, for the players."""
    gari = _tiles(record, "gari")
    if not gari or sorted(gari) != sorted(_codes(d.tile for d in doubts)):
        return record, ()
    try:
        kinds = gari_kinds(record, preset)
    except ScoringError:
        return record, ()
    done = []
    for d in doubts:
        if _plain(d.tile) in kinds:
            continue
        offered = sorted(((p, t) for t, p in d.others if p >= FLOOR and _is_tile(t) and _plain(t) in kinds),
                         reverse=True)
        if offered and (len(offered) == 1 or offered[0][0] >= MARGIN * offered[1][0]):
            p, tile = offered[0]
            gari.remove(parse_tile(d.tile))
            gari.append(parse_tile(tile))
            done.append((d.tile, tile, p))
    if not done:
        return record, ()
    out = {**record, "gari": format_mpsz(sorted(gari))}
    return out, tuple(Mend(out, read, tile, p, gari=True) for read, tile, p in done)


def _plain(tile: str) -> str:
    """A tile's kind, a red five named plain."""
    return tile_name(kind(parse_tile(tile)))


def _winning_tiles(record: Mapping[str, Any], preset: Preset | None):
    base = {k: v for k, v in record.items() if k not in ("concealed", "win_tile")}
    tiles = record.get("concealed", "")
    wins = lambda k: is_a_win({**base, "concealed": f"{tiles}{k}", "win_tile": k}, preset)     # noqa: E731
    for k in KINDS:
        if wins(k):
            yield k
        elif k[0] == "5" and k[1] != "z" and wins(red := "0" + k[1]):
            yield red           # the wall's plain ones are all in the hand: the five it waits on is red


def waits(record: Mapping[str, Any], preset: Preset | None = None) -> list[str]:
    """The tiles 13 concealed tiles (no winning tile given) wait on: with any of them they win (a five
    named plain: red or plain, the tiles shown cannot say; named red where the hand holds every plain
    one of the wall already)."""
    return list(_winning_tiles(record, preset))


def is_waiting(record: Mapping[str, Any], preset: Preset | None = None) -> bool:
    """Whether 13 concealed tiles (no winning tile given) wait on some tile: with it they win."""
    return any(_winning_tiles(record, preset))


def a_winners_hand(record: Mapping[str, Any], preset: Preset | None = None) -> bool:
    """Whether the record's tiles are what a winner reveals: 14 (a kan counting three) with the
    winning tile, a win; or 13 without it (a photo that does not show it), waiting on some tile."""
    shown = _concealed(record)
    if shown is None:
        return False
    size = _size(record, shown)
    if record.get("win_tile"):
        return size == HAND and is_a_win(record, preset)
    return size == HAND - 1 and is_waiting(record, preset)


def winning_tile(record: Mapping[str, Any], preset: Preset | None = None
                 ) -> tuple[Mapping[str, Any], tuple[str, ...]]:
    """A hand shown with 13 tiles and no winning tile (a photo without it): the record, completed with
    its winning tile where it waits on one tile alone (that tile is the winning one), and the tiles it
    waits on. Any other record: as it is, and ()."""
    shown = _concealed(record)
    if shown is None or record.get("win_tile") or _size(record, shown) != HAND - 1:
        return record, ()
    on = tuple(waits(record, preset))
    if len(on) != 1:
        return record, on
    return {**record, "concealed": format_mpsz(sorted(shown + [parse_tile(on[0])])), "win_tile": on[0]}, on


def mend(record: Mapping[str, Any], doubts: Sequence[Doubt], preset: Preset | None = None) -> Mend | None:
    """The likeliest one-tile change of ``record``'s concealed tiles, among ``doubts``, that makes it a
    win (module doc); None where the record needs none, or none does. ``doubts`` are the concealed
    tiles in any order, the winning tile last where the record has one; they must be the record's
    concealed tiles (else None: the players have changed the hand since it was read)."""
    shown = _concealed(record)
    if shown is None or sorted(shown) != sorted(_codes(d.tile for d in doubts)):
        return None
    win = str(record.get("win_tile") or "")
    size = _size(record, shown)
    if win and size == HAND:
        wins = lambda r: is_a_win(r, preset)        # noqa: E731
    elif not win and size == HAND - 1:
        wins = lambda r: is_waiting(r, preset)      # noqa: E731
    else:
        return None
    if wins(record):
        return None
    found: dict[tuple[str, str], Mend] = {}        # by the hand it makes: one tile read twice alike is one change
    for i, d in enumerate(doubts):
        for tile, p in d.others:
            if p < FLOOR or tile == d.tile or not _is_tile(tile):
                continue
            changed = _changed(record, shown, d.tile, tile, is_win_tile=bool(win) and i == len(doubts) - 1)
            key = (changed["concealed"], changed.get("win_tile", ""))
            if (key not in found or p > found[key].likelihood) and wins(changed):
                found[key] = Mend(changed, d.tile, tile, p)
    ranked = sorted(found.values(), key=lambda m: -m.likelihood)
    if not ranked or (len(ranked) > 1 and ranked[0].likelihood < MARGIN * ranked[1].likelihood):
        return None
    return ranked[0]


def changes_that_win(record: Mapping[str, Any], doubts: Sequence[Doubt], preset: Preset | None = None
                     ) -> tuple[tuple[str, str], ...]:
    """Where 14 concealed tiles with their winning tile make no win: each change of one tile as read to
    another kind, any kind, that would make them one, as (read, kind), one a hand it makes. Nothing is
    changed: the reader did not offer those faces (else ``mend`` would have), so they are where the
    players should look, not a reading. ``doubts`` as for ``mend``; () for a hand that wins, one of
    another size, or one shown without its winning tile (a 13-tile hand two tiles from a win has too
    many ways to be one)."""
    shown = _concealed(record)
    win = str(record.get("win_tile") or "")
    if (shown is None or not win or _size(record, shown) != HAND
            or sorted(shown) != sorted(_codes(d.tile for d in doubts)) or is_a_win(record, preset)):
        return ()
    found: dict[tuple[str, str], tuple[str, str]] = {}
    for i, d in enumerate(doubts):
        for tile in KINDS + REDS:           # a red five read as plain too: more plain than the wall holds
            if tile == d.tile or (tile == _plain(d.tile) and d.tile[0] == "0"):
                continue
            changed = _changed(record, shown, d.tile, tile, is_win_tile=i == len(doubts) - 1)
            key = (changed["concealed"], changed["win_tile"])
            if key not in found and is_a_win(changed, preset):
                found[key] = (d.tile, tile)
    return tuple(dict.fromkeys(found.values()))


def _changed(record: Mapping[str, Any], shown: list[int], read: str, tile: str, is_win_tile: bool) -> dict:
    codes = list(shown)
    codes.remove(parse_tile(read))
    codes.append(parse_tile(tile))
    out = dict(record)
    out["concealed"] = format_mpsz(sorted(codes))
    if is_win_tile:
        out["win_tile"] = tile
    return out


def _size(record: Mapping[str, Any], shown: list[int]) -> int:
    """The hand's tiles, a meld (a kan too) counting three."""
    return len(shown) + 3 * len(record.get("melds") or ())


def _concealed(record: Mapping[str, Any]) -> list[int] | None:
    return _tiles(record, "concealed")


def _tiles(record: Mapping[str, Any], field: str) -> list[int] | None:
    try:
        return list(parse_mpsz(str(record.get(field) or "")))
    except ValueError:
        return None


def _codes(tiles: Iterable[str]) -> list[int]:
    try:
        return [parse_tile(t) for t in tiles]
    except ValueError:
        return [-1]


def _is_tile(text: str) -> bool:
    try:
        return tile_name(parse_tile(text)) == text
    except ValueError:
        return False
