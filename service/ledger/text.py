"""Free text the ledger keeps (a player's name and reading, a session's label, who confirmed a hand):
no control characters, no lone surrogates, and a bound on its length.

PostgreSQL's text holds no NUL (its driver refuses the whole statement before sending it), and a
control character prints as nothing on a tablet or a receipt: either is refused in one line, on
SQLite as on PostgreSQL. Whitespace (a tab, a line break) is not refused here; a name folds it.
"""

from __future__ import annotations

import unicodedata

from .errors import LedgerError

MAX_LABEL = 200         # a session's label: a line on the tablet and the counter
MAX_CONFIRMER = 100     # who confirmed a hand: a name (its column's width)
MAX_SNAPSHOT = 500      # a snapshot's name or URL (its column's width)
MAX_TABLE_NAME = 100    # a table's name (TABLE_TABLE_NAME; its column's width)


def checked(text: str | None, what: str, max_len: int) -> str | None:
    """``text`` as given, or ``LedgerError`` naming ``what`` when it holds a control character
    or is longer than ``max_len``; None stays None."""
    if text is None:
        return None
    text = str(text)
    if bad := next((c for c in text if unicodedata.category(c) == "Cc" and not c.isspace()), None):
        raise LedgerError(f"{what} holds a control character (U+{ord(bad):04X}): type it again")
    if bad := next((c for c in text if unicodedata.category(c) == "Cs"), None):
        # half of a UTF-16 pair, or a byte a terminal could not decode: no character, and no
        # database takes it
        raise LedgerError(f"{what} holds U+{ord(bad):04X}, which is no character: type it again")
    if len(text) > max_len:
        raise LedgerError(f"{what} has at most {max_len} characters, not {len(text):,}")
    return text
