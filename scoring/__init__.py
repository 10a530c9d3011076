"""Scoring engine for three-player 東天紅 mahjong under five house rules.

    >>> from scoring import score
    >>> result = score({"rules": "dunhill", "seat": "east", "win": "tsumo", ...})
    >>> result.total

See docs/hand-record.md for the input and docs/rules.md for the rules.
"""

from .errors import DiscardsError, ScoringError
from .record import HandRecord, Meld
from .house import load as load_preset
from .presets import Preset, preset_ids
from .engine import Item, Result, score

__all__ = ["score", "Result", "Item", "HandRecord", "Meld", "Preset", "load_preset",
           "preset_ids", "ScoringError", "DiscardsError"]
