"""The hand record: one revealed win, as JSON.

This is the project's contract between vision (which writes it), the tablet
(which edits it) and scoring (which reads it). docs/hand-record.md documents
every field; :func:`HandRecord.from_dict` is the one place that checks the
shape of a record. Whether its tiles are legal under a house rule (copies,
tile set, gari) is checked by the engine, which knows the preset.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from functools import cached_property, lru_cache
from collections.abc import Mapping
from typing import Any

from .errors import ScoringError
from .tiles import KIND_OF, format_mpsz, kind, parse_mpsz, parse_tile, tile_name

SEATS = ("east", "south", "west")
WIN_KINDS = ("tsumo", "ron")
MELD_KINDS = ("pon", "minkan", "ankan", "kakan")
FLAGS = (
    "riichi", "double_riichi", "open_riichi", "ippatsu", "rinshan", "chankan",
    "haitei", "houtei", "tenhou", "chiihou", "renhou", "nagashi",
)
MAX_HONBA = 999        # no table comes near; 1e30 gave totals past what a tablet's JavaScript holds exactly
_TILE_FIELDS = ("gari", "dora_indicators", "ura_indicators", "discards")


@dataclass(frozen=True)
class Meld:
    """A meld laid on the table: pon (3), minkan, kakan or ankan (4, or more in chinton).

    ``source`` is the seat the called tile came from (``from`` in JSON); an
    ankan has none.
    """

    kind: str
    tiles: tuple[int, ...]
    source: str | None = None

    # Cached: the engine asks these of every meld several times per hand
    # (from_dict fills them in when it builds the meld).
    @cached_property
    def tile_kind(self) -> int:
        return kind(self.tiles[0])

    @cached_property
    def is_kan(self) -> bool:
        return self.kind != "pon"

    @cached_property
    def is_open(self) -> bool:
        return self.kind != "ankan"

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "tiles": format_mpsz(self.tiles)}
        if self.source:
            d["from"] = self.source
        return d

    @classmethod
    def from_dict(cls, data: Any, index: int, winner: str) -> "Meld":
        if type(data) is not dict and not isinstance(data, Mapping):
            raise ScoringError(f"melds[{index}] must be an object with kind, tiles and from")
        if not _MELD_FIELDS.issuperset(data):
            unknown = set(data) - _MELD_FIELDS
            raise ScoringError(f"melds[{index}] has unknown field(s): {', '.join(sorted(unknown))}")
        k, text, src = data.get("kind"), data.get("tiles", ""), data.get("from")
        if type(k) is str and type(text) is str and (src is None or type(src) is str):
            meld = _checked_meld(k, text, src, index)  # the same meld text comes again and again
        else:
            meld = _check_meld(k, text, src, index)
        if src is not None and src == winner:  # the last check, the one that needs the winner
            raise ScoringError(f"melds[{index}].from is the winner's own seat")
        return meld


def _check_meld(k: Any, text: Any, src: Any, index: int) -> Meld:
    """The meld of a JSON meld's kind, tiles and from, checked but for the winner's seat."""
    if k not in MELD_KINDS:
        raise ScoringError(f"melds[{index}].kind must be one of {', '.join(MELD_KINDS)}, got {k!r}")
    if not isinstance(text, str):
        raise ScoringError(f"melds[{index}].tiles must be an mpsz string such as \"555z\", got "
                           f"{type(text).__name__} {text!r}"[:200])
    tiles = parse_mpsz(text)
    if len(set(map(KIND_OF.__getitem__, tiles))) != 1:
        raise ScoringError(f"melds[{index}]: a {k} is tiles of one kind, got {format_mpsz(tiles) or 'none'}")
    if (k == "pon" and len(tiles) != 3) or (k != "pon" and len(tiles) < 4):
        want = "3" if k == "pon" else "4 or more"
        raise ScoringError(f"melds[{index}]: a {k} has {want} tiles, got {len(tiles)}")
    if k == "ankan":
        if src is not None:
            raise ScoringError(f"melds[{index}]: an ankan is not called from anyone, drop 'from'")
    elif src is not None and src not in SEATS:
        raise ScoringError(f"melds[{index}].from must be one of {', '.join(SEATS)}, got {src!r}")
    # Filled in one step, as HandRecord.from_dict does, with the cached properties.
    meld = object.__new__(Meld)
    object.__setattr__(meld, "__dict__", {"kind": k, "tiles": tuple(sorted(tiles)), "source": src,
                                          "tile_kind": KIND_OF[tiles[0]], "is_kan": k != "pon",
                                          "is_open": k != "ankan"})
    return meld


# A meld is immutable: one parsed from the same text is shared (refusals are not remembered).
_checked_meld = lru_cache(maxsize=4096)(_check_meld)


@dataclass(frozen=True)
class HandRecord:
    """A revealed winning hand, parsed. Tile fields hold tile codes (see tiles.py)."""

    rules: str
    seat: str
    win: str
    concealed: tuple[int, ...]
    win_tile: int
    melds: tuple[Meld, ...] = ()
    gari: tuple[int, ...] = ()
    dora_indicators: tuple[int, ...] = ()
    ura_indicators: tuple[int, ...] = ()
    honba: int = 0
    discarder: str | None = None
    riichi: bool = False
    double_riichi: bool = False
    open_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    nagashi: bool = False
    discards: tuple[int, ...] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    # Cached, and filled in by from_dict: the engine asks these many times per hand.
    @cached_property
    def is_dealer(self) -> bool:
        return self.seat == "east"

    @cached_property
    def is_tsumo(self) -> bool:
        return self.win == "tsumo"

    @cached_property
    def is_closed(self) -> bool:
        """No open meld (an ankan keeps a hand closed)."""
        return all(m.kind == "ankan" for m in self.melds)

    @cached_property
    def any_riichi(self) -> bool:
        return self.riichi or self.double_riichi or self.open_riichi

    @classmethod
    def from_dict(cls, data: Any) -> "HandRecord":
        """Parse and shape-check a JSON object; raises ScoringError naming the bad field."""
        if type(data) is not dict and not isinstance(data, Mapping):  # JSON gives dicts
            raise ScoringError("a hand record must be a JSON object")
        if not _KNOWN_FIELDS.issuperset(data):
            unknown = set(data) - _KNOWN_FIELDS
            raise ScoringError(f"unknown field(s) in hand record: {', '.join(sorted(unknown))}")
        if not data.keys() >= _REQUIRED_SET:
            for name in _REQUIRED:
                if name not in data:
                    raise ScoringError(f"hand record is missing {name!r}")
        rules = data["rules"]
        if not isinstance(rules, str) or not rules:
            raise ScoringError("rules must be a preset id such as 'dunhill'")
        seat = data["seat"]
        if seat not in SEATS:
            _choice(data, "seat", SEATS)
        win = data["win"]
        if win not in WIN_KINDS:
            _choice(data, "win", WIN_KINDS)
        discarder = data.get("discarder")
        if discarder is not None:
            discarder = _choice(data, "discarder", SEATS)
            if discarder == seat:
                raise ScoringError("discarder is the winner's own seat")
            if win == "tsumo":
                raise ScoringError("a tsumo win has no discarder")
        for name in ("concealed", "win_tile"):
            if not isinstance(data[name], str):
                raise ScoringError(f"{name} must be an mpsz string such as \"123p\", got "
                                   f"{type(data[name]).__name__} {data[name]!r}"[:200])
        concealed = parse_mpsz(data["concealed"])
        win_tile = parse_tile(data["win_tile"])
        if win_tile not in concealed:
            raise ScoringError(
                f"win_tile {tile_name(win_tile)} is not in concealed (concealed includes the winning tile)")
        melds_raw = data.get("melds")
        if melds_raw is None:                       # missing or null: the ordinary case, no melds
            melds_raw = []
        if not isinstance(melds_raw, list):
            raise ScoringError("melds must be a list")
        melds = tuple(Meld.from_dict(m, i, seat) for i, m in enumerate(melds_raw)) if melds_raw else ()
        # Filled in one step: the frozen dataclass __init__ would set each of the
        # 25 fields through object.__setattr__, a cost paid on every record.
        values = dict(_DEFAULTS)
        values.update(rules=rules, seat=seat, win=win, concealed=concealed, win_tile=win_tile,
                      melds=melds, discarder=discarder)
        for name in _TILE_FIELDS:
            if name in data:
                given = data[name]
                if given is not None and not isinstance(given, str):   # 0, [] or {}: not "none", a mistake
                    raise ScoringError(f"{name} must be an mpsz string such as \"1m4z\" (or \"\" for none), "
                                       f"got {type(given).__name__} {given!r}"[:200])
                values[name] = parse_mpsz(given or "")
        honba = data.get("honba")
        if honba is None:
            honba = 0
        if not isinstance(honba, int) or isinstance(honba, bool) or not 0 <= honba <= MAX_HONBA:
            raise ScoringError(f"honba must be a whole number from 0 to {MAX_HONBA}, got {honba!r}"[:200])
        values["honba"] = honba
        on = None
        for name in _FLAG_SET.intersection(data):
            v = data[name]
            if v is None:                           # null: the ordinary case, not so
                continue
            if not isinstance(v, bool):
                raise ScoringError(f"{name} must be true or false, got {v!r}")
            values[name] = v
            if v:
                on = [name] if on is None else on + [name]
        options = data.get("options")
        if options is None:
            options = {}
        if type(options) is not dict and not isinstance(options, Mapping):
            raise ScoringError("options must be an object")
        values["options"] = dict(options)
        if data.get("discards") is None:
            values["discards"] = None
        # The cached properties are known here already: no flag set is the usual case.
        values["true_flags"] = _flags_on(on, values["double_riichi"]) if on else _NO_FLAGS
        values["is_closed"] = all(m.kind == "ankan" for m in melds) if melds else True
        values["is_dealer"] = seat == "east"
        values["is_tsumo"] = win == "tsumo"
        values["any_riichi"] = values["riichi"] or values["double_riichi"] or values["open_riichi"]
        rec = object.__new__(cls)
        object.__setattr__(rec, "__dict__", values)  # values becomes the record's own: no copy
        return rec

    @cached_property
    def true_flags(self) -> frozenset[str]:
        """The names of the situational flags that are set (double riichi implies riichi)."""
        return _flags_on([f for f in FLAGS if getattr(self, f)], self.double_riichi)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; round-trips through from_dict. Ordinary-case fields are left out."""
        d: dict[str, Any] = {
            "rules": self.rules, "seat": self.seat, "win": self.win,
            "concealed": format_mpsz(self.concealed), "win_tile": tile_name(self.win_tile),
        }
        if self.discarder:
            d["discarder"] = self.discarder
        if self.melds:
            d["melds"] = [m.to_dict() for m in self.melds]
        for name in _TILE_FIELDS:
            v = getattr(self, name)
            if v:
                d[name] = format_mpsz(v)
        if self.honba:
            d["honba"] = self.honba
        for name in FLAGS:
            if getattr(self, name):
                d[name] = True
        if self.options:
            d["options"] = dict(self.options)
        return d


_KNOWN_FIELDS = frozenset(f.name for f in fields(HandRecord))
_REQUIRED = ("rules", "seat", "win", "concealed", "win_tile")
_REQUIRED_SET = frozenset(_REQUIRED)
_DEFAULTS = {f.name: f.default for f in fields(HandRecord) if f.default is not MISSING}
_FLAG_SET = frozenset(FLAGS)
_MELD_FIELDS = frozenset({"kind", "tiles", "from"})
_NO_FLAGS: frozenset[str] = frozenset()


def _flags_on(on, double_riichi: bool) -> frozenset[str]:
    """true_flags from the set flags' names: nagashi is not one, double riichi implies riichi."""
    out = set(on)
    out.discard("nagashi")
    if double_riichi:
        out.add("riichi")
    return frozenset(out)


def _choice(data: Mapping[str, Any], name: str, allowed: tuple[str, ...]) -> str:
    v = data.get(name)
    if v not in allowed:
        raise ScoringError(f"{name} must be one of {', '.join(allowed)}, got {v!r}")
    return v
