"""The session ledger: each confirmed hand of a real table, logged, and the state derived from the log.

    >>> from service.ledger import Ledger
    >>> ledger = Ledger("sqlite:///night.sqlite3")
    >>> s = ledger.start("dunhill", ["Aki", "Ben", "Chie"])
    >>> ledger.add_win(s.id, [record])          # scored by the engine, checked against the state
    >>> ledger.state(s.id).balances

See docs/ledger.md.
"""

from .derive import SEATS, SessionConfig, State, Step, effective, fold, history, opening, play
from .errors import LedgerError, LedgerGone, StaleState, UnknownSession, ViewOutdated
from .events import Event, Slot
from .repo import Ledger
from .rules import TableRules, table_rules
from .settle import Line, settle, top_player

__all__ = ["Ledger", "LedgerError", "LedgerGone", "StaleState", "UnknownSession", "ViewOutdated", "Event", "Slot", "SessionConfig",
           "State", "Step", "TableRules", "table_rules", "effective", "fold", "history", "opening",
           "play", "settle", "top_player", "Line", "SEATS"]
