"""The hand the tablet is editing (a draft): form fields in, one tap applied, a hand record out.

The page holds the whole draft in its form, so the server keeps no editing
state: each tap posts the form with one ``op`` and gets the editor back.
Tile fields are mpsz text (typed, or built by taps); they are kept sorted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from scoring import ScoringError
from scoring.record import SEATS
from scoring.table import Table
from scoring.tiles import FIVE_KINDS, format_mpsz, kind, parse_mpsz, tile_name

TILE_FIELDS = ("concealed", "gari", "dora_indicators", "ura_indicators")
MELD_KINDS = {"pon": 3, "minkan": 4, "ankan": 4, "kakan": 4}
# 三人花's four fives of a suit hold two red, so two plain: a meld of three fives made by a tap holds one
# red, of four two (an ankan tapped as 5p was 5555p, counted two reds short). A rule's wall says its own
# (``wall_of``: chinton's suit holds four plain); ``red:I:J`` turns a meld's five red or plain.
PLAIN_FIVES = (2, 2, 2)
# The most tiles a kan of each suit (m, p, s, z) may hold: four, where the rule has no added kan. Chinton's
# suit in play holds eight of each number, and a kan of them grows to eight, a tile at a time (暗加カン onto an
# ankan, 明加カン onto a minkan or kakan): ``Wall.kan_most``.
KAN_MOST = (4, 4, 4, 4)
TARGETS = (("concealed", "手牌", "hand"), ("win_tile", "和了牌", "winning tile"), ("gari", "ガリ", "gari"),
           ("dora_indicators", "ドラ表示", "dora"), ("ura_indicators", "裏ドラ", "ura"),
           ("pon", "ポン", "pon"), ("minkan", "明槓", "kan"), ("ankan", "暗槓", "closed kan"),
           ("kakan", "加槓", "added kan"))
FLAGS = (("riichi", "立直", "riichi"), ("double_riichi", "W立直", "double riichi"),
         ("open_riichi", "オープン", "open riichi"), ("ippatsu", "一発", "ippatsu"),
         ("rinshan", "嶺上", "rinshan"), ("chankan", "搶槓", "chankan"), ("haitei", "海底", "haitei"),
         ("houtei", "河底", "houtei"))
RARE_FLAGS = (("tenhou", "天和", "tenhou"), ("chiihou", "地和", "chiihou"),
         ("renhou", "人和", "renhou"), ("nagashi", "流し", "nagashi"))
# Facts of one hand the tiles do not show, as a rule that needs them declares them (a record's
# ``options``, docs/hand-record.md): offered where the session's rule has them.
HAND_OPTIONS = (("discarded_five", "5筒・5索を捨てた", "a 5p/5s among the winner's discards (no karasu)"),
                ("open_riichi_deal_in", "オープン立直に放銃", "a deal-in to an open riichi the rule counts as yakuman"))
# 三人花: 1m 5m 9m, all pinzu and souzu, all honours, red fives.
PALETTE = (("1m", "5m", "0m", "9m"), tuple(f"{n}p" for n in "1234567890"),
           tuple(f"{n}s" for n in "1234567890"), tuple(f"{n}z" for n in "1234567"))


# the flags that declare a riichi: a player ticked among others' riichi who wins with none of them
RIICHI_FLAGS = frozenset({"riichi", "double_riichi", "open_riichi"})
# a record's fields the editor keeps as text (a hand-made form's list there is refused, not a 500)
TEXT_FIELDS = ("seat", "win", "discarder", "concealed", "win_tile", "gari", "dora_indicators", "ura_indicators")


@dataclass(frozen=True)
class Wall:
    """A rule's wall as the editor takes it (``wall_of``): the plain fives of each suit (m, p, s) and
    the most tiles a kan of each suit (m, p, s, z) may hold."""

    plain_fives: tuple[int, int, int] = PLAIN_FIVES
    kan_most: tuple[int, int, int, int] = KAN_MOST


class EditError(ValueError):
    pass


@dataclass(frozen=True)
class Draft:
    seat: str = "east"
    win: str = "tsumo"
    discarder: str = ""
    concealed: str = ""
    win_tile: str = ""
    gari: str = ""
    dora_indicators: str = ""
    ura_indicators: str = ""
    melds: tuple[Mapping[str, Any], ...] = ()
    flags: frozenset[str] = frozenset()
    riichi_others: frozenset[str] = frozenset()    # non-winners who declared riichi (their sticks)
    # of those, who declared open riichi: its sticks (dunhill: 2, ``open_riichi_sticks``); always
    # among ``riichi_others`` too (an open tick is a riichi)
    open_others: frozenset[str] = frozenset()
    # who paid a 罰符 this hand (isshokai), a name once for each: one player may pay two (sorted)
    penalties: tuple[str, ...] = ()
    target: str = "concealed"
    meld_from: str = ""
    first: Mapping[str, Any] | None = None         # the first record of a double ron
    pick: str = ""                                 # a tile picked on the snapshot to fix: FIELD:TILE or meld:I
    fixed: frozenset[int] = frozenset()            # the snapshot's boxes fixed so (shown as fixed, not picked again)
    grown: str = ""                                # a kan's last tap: MELD:TILES:ADDED (what − takes back)
    options: frozenset[str] = frozenset()          # HAND_OPTIONS set for this hand
    # HAND_OPTIONS the players (or the record) say are not so: written false, as a house rule whose
    # default is true would otherwise count them so (an unticked box wrote nothing)
    options_off: frozenset[str] = frozenset()
    wall: Wall = field(default=Wall(), compare=False)     # the rule's wall: its plain fives, its kans' sizes
    # what a record held that the editor does not show (the camera's ``discards``, other options):
    # carried through, so a hand confirmed or corrected untouched counts as it was read or logged
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    # -- in and out -----------------------------------------------------------
    @classmethod
    def from_form(cls, form: Mapping[str, Any], getlist=None) -> "Draft":
        getlist = getlist or (lambda k: [form[k]] if k in form else [])
        text = lambda k: str(form.get(k) or "").strip()
        try:
            melds = json.loads(text("melds") or "[]")
            first = json.loads(text("first")) if text("first") else None
        except json.JSONDecodeError as e:
            raise EditError(f"the editor's melds or first record are not JSON ({e.msg})") from None
        except RecursionError:
            raise EditError("the editor's melds or first record are nested too deeply") from None
        # The page writes these hidden fields; a stale or hand-made form may not have.
        if not _melds_ok(melds):
            raise EditError("the editor's melds must be a list of {kind, tiles, from} objects")
        if first is not None and not isinstance(first, dict):
            raise EditError("the editor's first record (double ron) must be an object")
        bad = next((k for k in TEXT_FIELDS if not isinstance((first or {}).get(k, ""), str)), None)
        if bad:
            raise EditError(f"the editor's first record (double ron): its {bad} must be text")
        if first is not None and not _melds_ok(first.get("melds") or []):
            raise EditError("the editor's first record (double ron): its melds must be a list of "
                            "{kind, tiles, from} objects")
        if first is not None and not isinstance(first.get("options") or {}, dict):
            raise EditError("the editor's first record (double ron): its options must be an object")
        melds = tuple(melds)
        seat = text("seat") or "east"
        return cls(seat=seat, win=text("win") or "tsumo", discarder=text("discarder"),
                   concealed=_sorted(text("concealed")), win_tile=text("win_tile"), gari=_sorted(text("gari")),
                   dora_indicators=_sorted(text("dora_indicators")),
                   ura_indicators=_sorted(text("ura_indicators")),
                   melds=melds, flags=frozenset(f for f, _, _ in FLAGS + RARE_FLAGS if text(f)),
                   # an open riichi ticked is a riichi, its own box ticked or not
                   riichi_others=frozenset(getlist("riichi_others")) | frozenset(getlist("riichi_open")),
                   open_others=frozenset(getlist("riichi_open")), penalties=tuple(sorted(getlist("penalty"))),
                   target=text("target") or "concealed",
                   meld_from=text("meld_from"), first=first, pick=text("pick"), fixed=_boxes(text("fixed")),
                   grown=text("grown"),
                   options=frozenset(k for k, _, _ in HAND_OPTIONS if text(f"option_{k}")),
                   options_off=frozenset(k for k, _, _ in HAND_OPTIONS
                                         if k in getlist("options_shown") and not text(f"option_{k}")),
                   extra=_extra(text("extra")))

    @classmethod
    def from_record(cls, record: Mapping[str, Any], riichi_others: frozenset[str] = frozenset(),
                    first: Mapping[str, Any] | None = None, open_others: frozenset[str] = frozenset()) -> "Draft":
        return cls(seat=record.get("seat", "east"), win=record.get("win", "tsumo"),
                   discarder=record.get("discarder") or "", concealed=_sorted(record.get("concealed") or ""),
                   # null is none, as the record's format says: not the text "None" in the field
                   win_tile=record.get("win_tile") or "", gari=_sorted(record.get("gari") or ""),
                   dora_indicators=_sorted(record.get("dora_indicators") or ""),
                   ura_indicators=_sorted(record.get("ura_indicators") or ""),
                   melds=tuple(dict(m) for m in record.get("melds") or []),
                   flags=frozenset(f for f, _, _ in FLAGS + RARE_FLAGS if record.get(f)),
                   riichi_others=riichi_others | open_others, open_others=open_others,
                   first=first, options=frozenset(k for k, v in _said(record).items() if v),
                   options_off=frozenset(k for k, v in _said(record).items() if not v),
                   extra=_kept_extra(record))

    @classmethod
    def from_logged(cls, body: Mapping[str, Any]) -> "Draft":
        """A logged win's hand as the editor opens it to correct it: the last winner's record, a
        double ron's first held apart, others' riichi sticks (an open riichi's as open) and the hand's
        penalties (a player's name once for each)."""
        wins = body["wins"]
        first = wins[0]["record"] if len(wins) == 2 else None
        winners = {w["winner"] for w in wins}
        riichi = dict(body.get("riichi", {}))
        others = frozenset(riichi) - winners
        opened = frozenset(n for n, k in riichi.items() if k == "open") - winners
        return replace(cls.from_record(wins[-1]["record"], others, first, opened),
                       penalties=tuple(sorted(body.get("penalties", ()))))

    def record(self, rules: str) -> dict[str, Any]:
        """The hand record this draft says (honba is the ledger's to fill)."""
        rec: dict[str, Any] = {"rules": rules, "seat": self.seat, "win": self.win,
                               "concealed": self.concealed, "win_tile": self.win_tile}
        if self.win == "ron" and self.discarder:
            rec["discarder"] = self.discarder
        if self.melds:
            rec["melds"] = [dict(m) for m in self.melds]
        for f in ("gari", "dora_indicators", "ura_indicators"):
            if getattr(self, f):
                rec[f] = getattr(self, f)
        rec.update({f: True for f, _, _ in FLAGS + RARE_FLAGS if f in self.flags})
        rec.update({k: v for k, v in self.extra.items() if k != "options"})
        options = {**self.extra.get("options", {}), **{k: False for k in sorted(self.options_off)},
                   **{k: True for k in sorted(self.options)}}
        if options:
            rec["options"] = options
        return rec

    def records(self, rules: str) -> list[dict[str, Any]]:
        """What Confirm logs: a double ron's first winner's record (held apart) and the hand on
        screen. One dead wall for both: where the hand on screen names dora indicators, they are the
        first's too, so a fix made in the second draft is the first winner's (it was paid on the
        indicator just corrected), and its ura where both name ura. A screen with none (cleared, or
        a logged record that named them on the head's hand only) leaves the first's as they are."""
        second = self.record(rules)
        if self.first is None:
            return [second]
        first = {**self.first, "rules": rules}
        if self.dora_indicators:
            first["dora_indicators"] = self.dora_indicators
        if self.ura_indicators and first.get("ura_indicators"):
            first["ura_indicators"] = self.ura_indicators
        return [first, second]

    def winner_riichi(self, seats: Mapping[str, str]) -> "Draft":
        """A player ticked among others' riichi who is the winner now (the winner changed after the
        tick, or a double ron made her its second winner) declared riichi: the tick becomes her
        hand's 立直, where it was dropped unseen (no stick, no riichi counted); ticked open, her
        hand's オープン立直 (its sticks: dunhill 2). ``seats``: seat -> player."""
        name = seats.get(self.seat)
        if name is None or name not in self.riichi_others:
            return self
        riichi = set() if self.flags & RIICHI_FLAGS else {"riichi"}
        if name in self.open_others:
            riichi = {"open_riichi"}
        return replace(self, flags=self.flags | riichi, riichi_others=self.riichi_others - {name},
                       open_others=self.open_others - {name})

    def _reds(self, tile: str, n: int, tapped: int) -> int:
        """The red fives in a meld of ``n`` of ``tile``'s kind: those tapped, and at least as many as
        the wall's plain ones leave (a kan of 5p in 三人花: two); none for any other kind."""
        if not is_five(tile):
            return 0
        return min(n, max(int(tapped), n - self.wall.plain_fives["mps".index(tile[1])]))

    def kan_most(self, tile: str) -> int:
        """The most tiles a kan of ``tile``'s kind may hold under the rule: 4, or chinton's suit 8."""
        return self.wall.kan_most["mpsz".index(tile[1])]

    def ticked(self, key: str, default: bool) -> bool:
        """Whether the box of the HAND_OPTIONS toggle ``key`` shows ticked: as the hand says, else for
        ``discarded_five`` as the camera's ``discards`` say (a 5p or 5s among them, as the engine reads
        them), else the rule's ``default``. The page posts it whole: true or false, the players' word."""
        if key in self.options or key in self.options_off:
            return key in self.options
        discards = self.extra.get("discards")
        if key == "discarded_five" and isinstance(discards, str) and discards:
            try:
                return any(kind(t) in FIVE_KINDS[1:] for t in parse_mpsz(discards))     # a 5p or 5s
            except ScoringError:
                pass
        return default

    def tiles(self, name: str) -> list[str]:
        """The tiles of one field as names, or [] while the typed text does not parse."""
        try:
            return [tile_name(t) for t in parse_mpsz(getattr(self, name))]
        except ScoringError:
            return []

    def whole(self) -> bool:
        """Whether the hand holds its winning tile: 14 tiles, a meld counting three."""
        try:
            return len(parse_mpsz(self.concealed)) + 3 * len(self.melds) == 14
        except ScoringError:
            return False

    def win_index(self) -> int:
        """Where the winning tile sits among the concealed tiles (its last copy), or -1."""
        tiles = self.tiles("concealed")
        return len(tiles) - 1 - tiles[::-1].index(self.win_tile) if self.win_tile in tiles else -1

    def problems(self) -> list[str]:
        out = []
        for f in TILE_FIELDS:
            try:
                parse_mpsz(getattr(self, f))
            except ScoringError as e:
                out.append(f"{f}: {e}")
        return out

    # -- one tap ----------------------------------------------------------------
    def apply(self, op: str) -> "Draft":
        """``add:5p`` (to the target; with a tile picked, in its place), ``pick:FIELD:TILE`` or
        ``pick:meld:I`` (a tile tapped on the snapshot; again, or ``pick:``, lets go), ``del:FIELD:I``,
        ``win:I`` (the hand's tile I is the winning tile: it stays in the hand), ``red:I:J`` (meld I's
        five J red or plain), ``less:I`` (a kan of five or more tiles one tile fewer), ``delmeld:I``,
        ``double``, ``swap`` (a double ron's other hand to edit, this one held), ``single``, ``clear``."""
        verb, _, arg = op.partition(":")
        if verb == "add":
            return self._swap(_tile(arg)) if self.pick else self._add(_tile(arg))
        if verb == "pick":
            return self._pick(arg)
        if verb == "del":
            name, _, index = arg.partition(":")
            return replace(self._remove(name, _index(index)), pick="")
        if verb == "win":           # with the winning-tile target: a tile of the hand tapped is the one won on
            tiles = sorted(parse_mpsz(self.concealed), key=_order)
            i = _index(arg)
            if i >= len(tiles):
                raise EditError(f"the hand has no tile {i + 1}")
            if not self.whole():    # 13 tiles: the winning tile is not among them (the picker adds it)
                raise EditError("the hand does not hold its winning tile yet (13 tiles): tap it in the picker")
            return replace(self, win_tile=tile_name(tiles[i]), pick="")
        if verb == "red":           # a five of a meld tapped: red <-> plain (a kan may hold both reds)
            i, _, j = arg.partition(":")
            i, j = _index(i), _index(j)
            if i >= len(self.melds):
                raise EditError(f"no meld {i + 1}")
            tiles = tile_names(self.melds[i]["tiles"])
            if j >= len(tiles) or not is_five(tiles[j]):
                raise EditError(f"tile {j + 1} of meld {i + 1} is no five")
            tiles[j] = ("5" if tiles[j][0] == "0" else "0") + tiles[j][1]
            meld = {**self.melds[i], "tiles": format_mpsz(parse_mpsz("".join(tiles)))}
            return replace(self, melds=self.melds[:i] + (meld,) + self.melds[i + 1:], pick="")
        if verb == "less":          # a kan grown past four (暗加カン, 明加カン): its last added tile taken back
            return self._less(_index(arg))
        if verb == "delmeld":
            i = _index(arg)
            if i >= len(self.melds):
                raise EditError(f"no meld {i + 1}")
            return replace(self, melds=self.melds[:i] + self.melds[i + 1:], pick="")
        if verb == "clear":
            return replace(Draft(), seat=self.seat, first=self.first)
        if verb == "double":
            return self._double()
        if verb == "swap":              # a double ron: the other winner's hand to the editor, this one held
            if self.first is None:
                return self
            held, shown = self.records("_")    # one dead wall: the indicators on screen are both hands'
            return replace(Draft.from_record(held, self.riichi_others, shown, self.open_others),
                           penalties=self.penalties, fixed=self.fixed, wall=self.wall)
        if verb == "single":            # the double ron taken back: the held hand alone, the dead wall as on screen
            if self.first is None:
                return self
            held = self.records("_")[0]
            return replace(Draft.from_record(held, self.riichi_others, open_others=self.open_others),
                           penalties=self.penalties, fixed=self.fixed, wall=self.wall)
        if verb in ("", "refresh"):
            return self
        raise EditError(f"unknown editor action {op!r}")

    def _add(self, tile: str) -> "Draft":
        t = self.target
        if t == "kakan":            # the pon it adds to becomes the kan (it was a second meld beside it)
            plain = plain_five(tile)
            for i, m in enumerate(self.melds):
                if m.get("kind") == "pon" and set(map(plain_five, tile_names(m["tiles"]))) == {plain}:
                    had = sum(t[0] == "0" for t in tile_names(m["tiles"])) + (tile[0] == "0")
                    kan = {**m, "kind": "kakan", "tiles": meld_tiles(tile, 4, self._reds(tile, 4, had))}
                    return replace(self, melds=self.melds[:i] + (kan,) + self.melds[i + 1:])
        if t in ("ankan", "kakan"):     # chinton: a kan of this kind takes one tile more (暗加カン, 明加カン)
            grown = self._grown(tile, ("ankan",) if t == "ankan" else ("minkan", "kakan"))
            if grown is not None:
                return grown
        if t in MELD_KINDS:
            source = None if t == "ankan" else (self.meld_from or _other_seat(self.seat))
            n = MELD_KINDS[t]
            meld = {"kind": t, "tiles": meld_tiles(tile, n, self._reds(tile, n, tile[0] == "0"))}
            if source:
                meld["from"] = source
            return replace(self, melds=self.melds + (meld,))
        if t == "win_tile":
            return self._with_win_tile(tile)
        if t not in TILE_FIELDS:
            raise EditError(f"unknown target {t!r}")
        return replace(self, **{t: _sorted(getattr(self, t) + tile)})

    def _grown(self, tile: str, kinds: tuple[str, ...]) -> "Draft | None":
        """The first kan of ``kinds`` of ``tile``'s kind one tile larger, where the rule lets it grow (its
        reds as the wall's plain fives leave, and those tapped); None where none may (三人花: never, so a
        second kan of the kind is made as before, and the count says the wall has no such hand)."""
        plain, most = plain_five(tile), self.kan_most(tile)
        full = False                    # a kan of the kind holds all the wall may
        for i, m in enumerate(self.melds):
            names = tile_names(m["tiles"])
            if m.get("kind") not in kinds or len(names) < 4 or set(map(plain_five, names)) != {plain}:
                continue
            if len(names) >= most:
                full = True
            else:
                n = len(names) + 1
                before = sum(x[0] == "0" for x in names)
                reds = self._reds(tile, n, before + (tile[0] == "0"))
                kan = {**m, "tiles": meld_tiles(tile, n, reds)}
                added = ("0" if reds > before else "5") + plain[1] if is_five(plain) else plain
                return replace(self, melds=self.melds[:i] + (kan,) + self.melds[i + 1:],
                               grown=f"{i}:{kan['tiles']}:{added}")
        if full and most > 4:
            raise EditError(f"a kan of {plain} holds {most} already: the wall has no more")
        return None

    def _less(self, i: int) -> "Draft":
        """Meld ``i``, a kan of five or more tiles, one tile fewer: the tile the last tap added, where the
        kan is as that tap left it (``grown``: 5555p and a 5p tapped is 55550p, and − gives 5555p; 5550p
        and a 5p tapped is 55550p too, and − gives 5550p); else a plain five while the kan holds fewer
        than the wall's plain ones, so the reds a tap on a five set stay."""
        if i >= len(self.melds):
            raise EditError(f"no meld {i + 1}")
        names = tile_names(self.melds[i]["tiles"])
        if len(set(map(plain_five, names))) != 1:
            raise EditError(f"meld {i + 1} is not of one kind of tile")
        if len(names) <= 4:
            raise EditError(f"meld {i + 1} has no added tile to take back (× removes the meld)")
        n, reds = len(names) - 1, sum(x[0] == "0" for x in names)
        meld, tiles, added = (self.grown.split(":") + ["", "", ""])[:3]
        if meld == str(i) and tiles == self.melds[i]["tiles"]:
            reds -= added[0] == "0"
        elif reds and is_five(names[0]) and len(names) - reds >= self.wall.plain_fives["mps".index(names[0][1])]:
            reds -= 1
        kan = {**self.melds[i], "tiles": meld_tiles(names[0], n, self._reds(names[0], n, reds))}
        return replace(self, melds=self.melds[:i] + (kan,) + self.melds[i + 1:], pick="", grown="")

    def _with_win_tile(self, tile: str) -> "Draft":
        """``tile`` is the winning tile: it takes the old one's place in the hand (which holds it)."""
        hand = list(parse_mpsz(self.concealed))
        if self.win_tile:
            old = parse_mpsz(self.win_tile)[0]
            if old in hand:
                hand.remove(old)          # the old winning tile leaves the hand
        return replace(self, win_tile=tile, concealed=format_mpsz(hand + list(parse_mpsz(tile))))

    def picked(self) -> tuple[str, str]:
        """The picked tile's field and tile (``concealed``, ``3p``), or (``meld``, index), or ("", "")."""
        name, _, what = self.pick.partition(":")
        return (name, what.partition(":")[0]) if what else ("", "")

    def _pick(self, arg: str) -> "Draft":
        """``FIELD:TILE[:BOX]`` or ``meld:I[:BOX]``: BOX is the box tapped on the snapshot (shown picked)."""
        if not arg or arg == self.pick:
            return replace(self, pick="")
        name, _, rest = arg.partition(":")
        what, _, box = rest.partition(":")
        if box and not (box.isascii() and box.isdigit() and len(box) <= 6):
            raise EditError(f"bad box {box!r}")
        if name == "meld":
            if _index(what) >= len(self.melds):
                raise EditError(f"no meld {int(what) + 1} in the hand: read again or add it")
        elif name in TILE_FIELDS + ("win_tile",):
            what = _tile(what)
            if what not in self.tiles(name):
                raise EditError(f"{what} is no longer in {name.replace('_', ' ')}: it was fixed already")
        else:
            raise EditError(f"cannot pick {arg!r}")
        return replace(self, pick=f"{name}:{what}" + (f":{box}" if box else ""))

    def _swap(self, tile: str) -> "Draft":
        """The picked tile becomes ``tile`` (a meld: every tile of it, a red five kept as one); the
        snapshot's box it was picked on is marked fixed."""
        box = self.pick.split(":")[2] if self.pick.count(":") >= 2 else ""
        new = self._swapped(tile)
        fields = ("concealed", "win_tile", "gari", "dora_indicators", "ura_indicators", "melds")
        changed = any(getattr(new, f) != getattr(self, f) for f in fields)     # the same tile again: not fixed
        return replace(new, fixed=new.fixed | {int(box)}) if box.isdigit() and changed else new

    def _swapped(self, tile: str) -> "Draft":
        name, what = self.picked()
        if name == "meld":
            i = _index(what)
            if i >= len(self.melds):
                raise EditError(f"no meld {i + 1}")
            meld = dict(self.melds[i])
            n = len(parse_mpsz(meld["tiles"]))
            meld["tiles"] = meld_tiles(tile, n, self._reds(tile, n, tile[0] == "0"))
            return replace(self, melds=self.melds[:i] + (meld,) + self.melds[i + 1:], pick="")
        if name == "win_tile":         # the winning tile's own box tapped: its copy in the hand goes too
            return replace(self._with_win_tile(tile), pick="")
        if name not in TILE_FIELDS:
            return replace(self, pick="")
        tiles = self.tiles(name)
        if what not in tiles:
            raise EditError(f"{what} is no longer in {name.replace('_', ' ')}")
        tiles.remove(what)
        new = replace(self, pick="", **{name: _sorted("".join(tiles) + tile) if tiles else tile})
        if name == "concealed" and self.win_tile == what and what not in tiles:
            new = replace(new, win_tile=tile)       # the winning tile itself was misread
        return new

    def _remove(self, name: str, i: int) -> "Draft":
        if name not in TILE_FIELDS:
            raise EditError(f"unknown tile field {name!r}")
        tiles = sorted(parse_mpsz(getattr(self, name)), key=_order)
        if i >= len(tiles):
            raise EditError(f"{name} has no tile {i + 1}")
        gone = tiles.pop(i)
        new = replace(self, **{name: format_mpsz(tiles)})
        if name == "concealed" and self.win_tile and parse_mpsz(self.win_tile)[0] == gone and gone not in tiles:
            new = replace(new, win_tile="")
        return new

    def _double(self) -> "Draft":
        if self.first is not None:
            raise EditError("this is already a double ron")
        if self.win != "ron" or not self.discarder:
            raise EditError("a double ron starts from a ron with its discarder")
        other = next(s for s in SEATS if s not in (self.seat, self.discarder))
        # one dead wall: the second winner's dora indicators are the first's (the second counted without)
        return Draft(seat=other, win="ron", discarder=self.discarder, first=self.record("_"),
                     dora_indicators=self.dora_indicators, riichi_others=self.riichi_others,
                     open_others=self.open_others, penalties=self.penalties, fixed=self.fixed, wall=self.wall)


def _melds_ok(melds: Any) -> bool:
    """Melds as the page writes them: a list of {kind, tiles, from} objects, kind and tiles text."""
    return isinstance(melds, list) and all(
        isinstance(m, dict) and isinstance(m.get("kind"), str) and isinstance(m.get("tiles"), str) for m in melds)


def _order(t: int) -> tuple[int, int]:
    return kind(t), t


def _sorted(text: str) -> str:
    try:
        return format_mpsz(parse_mpsz(text))
    except ScoringError:
        return text         # keep what was typed; the editor shows why it does not parse


def _tile(text: str) -> str:
    try:
        tiles = parse_mpsz(text)
    except ScoringError as e:
        raise EditError(str(e)) from None
    if len(tiles) != 1:
        raise EditError(f"{text!r} is not one tile")
    return tile_name(tiles[0])


def tile_names(mpsz: str) -> list[str]:
    """The tiles of ``mpsz`` as names ([] where it does not parse: a form typed half way)."""
    try:
        return [tile_name(t) for t in parse_mpsz(mpsz)]
    except ScoringError:
        return []


def wall_of(preset) -> Wall:
    """The rule's wall as the editor takes it: the plain fives of each suit (m, p, s), its fives less
    its red ones (三人花: 2 each; chinton's suit in play 4), and the most tiles a kan of each suit may
    hold: a suit's copies where the rule counts an added kan (chinton: its suit in play 8, honours
    4), else 4. ``Wall()`` without a rule."""
    if preset is None:
        return Wall()
    t = Table(preset)
    copies = (t.copies, t.suit_copies, t.suit_copies, t.copies)
    most = tuple(max(4, c) for c in copies) if t.allows_added_kan else KAN_MOST
    return Wall(tuple(max(0, copies[s] - t.red_limit[s]) for s in range(3)), most)


def is_five(tile: str) -> bool:
    """A five of a suit, plain or red (``5p``, ``0p``; not ``5z``)."""
    return tile[0] in "05" and tile[1] != "z"


def meld_tiles(tile: str, n: int, reds: int) -> str:
    """``n`` tiles of ``tile``'s kind, ``reds`` of them red (a five's), in mpsz."""
    base = plain_five(tile)
    return format_mpsz(parse_mpsz("".join("0" + base[1] if k < reds else base for k in range(n))))


def plain_five(tile: str) -> str:
    """A red five's plain kind (``0p`` -> ``5p``); any other tile as it is: a meld is of one kind."""
    return "5" + tile[1] if tile[0] == "0" else tile


EXTRA = ("discards", "options")      # record fields the editor carries without showing them


def _said(record: Mapping[str, Any]) -> dict[str, bool]:
    """What a record's ``options`` say of each HAND_OPTIONS toggle, true or false."""
    given = record.get("options") or {}
    return {k: given[k] for k, _, _ in HAND_OPTIONS if isinstance(given.get(k), bool)}


def _kept_extra(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record's ``discards`` and its options other than the toggles (``HAND_OPTIONS``)."""
    out: dict[str, Any] = {}
    if isinstance(record.get("discards"), str) and record["discards"]:
        out["discards"] = record["discards"]
    toggles = {k for k, _, _ in HAND_OPTIONS}
    options = {k: v for k, v in (record.get("options") or {}).items() if k not in toggles}
    if options:
        out["options"] = options
    return out


def _extra(text: str) -> dict[str, Any]:
    """The page's hidden ``extra`` (JSON): what ``_kept_extra`` keeps, checked as the page wrote it."""
    if not text:
        return {}
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise EditError("the editor's extra record fields are not JSON") from None
    if not isinstance(data, dict) or set(data) - set(EXTRA) or not isinstance(data.get("options", {}), dict) \
            or not isinstance(data.get("discards", ""), str):
        raise EditError("the editor's extra record fields must be {discards: mpsz, options: {...}}")
    return _kept_extra(data)


def _boxes(text: str) -> frozenset[int]:
    """The fixed boxes as the page keeps them: ``3,7`` (what is no box number is dropped)."""
    return frozenset(int(b) for b in text.split(",") if b.isascii() and b.isdigit() and len(b) <= 6)


def _index(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise EditError(f"bad tile position {text!r}")
    return int(text)


def _other_seat(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 2) % 3] if seat in SEATS else "east"
