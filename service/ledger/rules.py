"""Table rules of a session: the preset's ``[table]`` section, read into one frozen value.

The preset file is the data (scoring/presets/<id>.toml, ``[table]``, or a house
rule's file; a session reads the rule it stored when it started); a session
may override a key for the night (``noten_total = 30`` for toutenkou), checked
here against the key's type and, where the file lists ``<key>_choices``, its
allowed values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import scoring
from scoring.house_check import AT_LEAST_ONE, LARGEST, SIGNED, WORDS, check_table_sums

from .errors import LedgerError

# the words a [table] key takes: the ones a house rule file is checked against (one list for both)
_CHOICES = {key.removeprefix("table."): words for key, words in WORDS.items() if key.startswith("table.")}


@dataclass(frozen=True)
class TableRules:
    """How a session moves: dealer and honba, sticks and pool, noten, chombo, double ron."""

    rules: str
    unit: str                      # "points" or "sticks" (isshokai)
    unit_value: int                # one unit paid in sticks: 100 (a point) or 1,000 (a stick)
    riichi_stick: int              # units per riichi stick
    open_riichi_sticks: int
    new_dealer_honba: int
    noten_total: int               # 場にN: each noten player pays each tenpai player N/2
    noten_to: str
    chombo_each: int
    chombo_honba: str
    chombo_riichi: str
    double_ron: bool
    double_ron_dealer: str
    double_ron_honba: str
    double_ron_bounty_exchange: bool
    bounty_from: int | None        # from the preset's [bounty] (the engine counts it)
    start_sticks: int | None = None   # a stick game (isshokai) has these four
    return_sticks: int = 0
    top_bonus: int = 0
    end_at_or_below: int | None = None
    end_pool: str = "top"
    draw_dealer: str = "stays"     # after a draw: "stays" (親続行), or "tenpai" (聴牌連荘)
    penalty: int = 0               # a 罰符 puts this many units in the pool (0: the rule has none)

    @property
    def stick_game(self) -> bool:
        return self.start_sticks is not None

    @property
    def start_balance(self) -> int:
        return self.start_sticks or 0

    def noten_each(self) -> int:
        """What one noten player pays one tenpai player (three players: two pairs change hands)."""
        return self.noten_total // 2


# What a [table] key added since sessions store their rule meant before it was added: a session
# from before (no stored rule, counted under its built-in by name) replays as it was played.
BEFORE_STORED = {"draw_dealer": "stays"}


def table_rules(rules: str | scoring.Preset, overrides: Mapping[str, Any] | None = None, *,
                stored: bool = True, logged: bool = False) -> TableRules:
    """The table rules of preset ``rules`` (a name, or a resolved rule such as a session's
    stored one) with a session's ``overrides`` applied. ``stored=False``: a session from before
    rules were stored, read with ``BEFORE_STORED``. ``logged``: a session read back from the log,
    whose overrides stand as they were started even where a later check would refuse them."""
    if isinstance(rules, scoring.Preset):
        preset, rules = rules, rules.id
    else:
        try:
            preset = scoring.load_preset(rules)
        except scoring.ScoringError as e:
            raise LedgerError(str(e)) from None
    table = dict(preset.table) if stored else {**preset.table, **BEFORE_STORED}
    for key, value in (overrides or {}).items():
        table[key] = _checked(rules, table, key, value, logged)
    if overrides and not logged:
        try:
            check_table_sums(f"{rules} with this session's table rules", table)
        except scoring.ScoringError as e:
            raise LedgerError(str(e)) from None
    bounty = preset.section("bounty")
    try:
        return TableRules(
            rules=rules, unit=preset.unit, unit_value=table["unit_value"],
            riichi_stick=table["riichi_stick"], open_riichi_sticks=table["open_riichi_sticks"],
            new_dealer_honba=table["new_dealer_honba"], noten_total=table["noten_total"],
            noten_to=table["noten_to"], chombo_each=table["chombo_each"],
            chombo_honba=table["chombo_honba"], chombo_riichi=table["chombo_riichi"],
            double_ron=table["double_ron"], double_ron_dealer=table["double_ron_dealer"],
            double_ron_honba=table["double_ron_honba"],
            double_ron_bounty_exchange=table["double_ron_bounty_exchange"],
            bounty_from=bounty.get("from_honba"),
            start_sticks=table.get("start_sticks"), return_sticks=table.get("return_sticks", 0),
            top_bonus=table.get("top_bonus", 0), end_at_or_below=table.get("end_at_or_below"),
            end_pool=table.get("end_pool", "top"), draw_dealer=table.get("draw_dealer", "stays"),
            penalty=table.get("penalty", 0),
        )
    except KeyError as e:
        raise LedgerError(f"preset {rules}: [table] lacks {e.args[0]!r}") from None


def _checked(rules: str, table: Mapping[str, Any], key: str, value: Any, logged: bool = False) -> Any:
    if key not in table or key.endswith("_choices"):
        known = ", ".join(k for k in sorted(table) if not k.endswith("_choices"))
        raise LedgerError(f"unknown table rule {key!r} for {rules} (known: {known})")
    old = table[key]
    if isinstance(old, bool) or isinstance(value, bool):
        if not (isinstance(old, bool) and isinstance(value, bool)):
            raise LedgerError(f"table rule {key} must be {type(old).__name__}, got {value!r}")
    elif type(value) is not type(old):
        raise LedgerError(f"table rule {key} must be {type(old).__name__}, got {value!r}")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0 and f"table.{key}" not in SIGNED:
            raise LedgerError(f"table rule {key} must not be negative, got {value}")
        if value < 1 and f"table.{key}" in AT_LEAST_ONE and not logged:
            raise LedgerError(f"table rule {key} must be at least 1, got {value}")
        if abs(value) > LARGEST:
            raise LedgerError(f"table rule {key} must be within {LARGEST:,}, got {value:,}")
    allowed = table.get(f"{key}_choices") or _CHOICES.get(key)
    if allowed is not None and value not in allowed:
        raise LedgerError(f"table rule {key} must be one of {', '.join(map(str, allowed))}, got {value!r}")
    return value
