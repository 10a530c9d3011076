"""Errors the ledger raises for bad input; each message is one line."""


class LedgerError(ValueError):
    """Input the ledger refuses: a bad record, an unknown session, an impossible event."""


class StaleState(LedgerError):
    """The event was made for a state the session is no longer in (honba, dealer, hand number)."""


class ViewOutdated(StaleState):
    """The caller's view of the session is older than the session (another tablet logged, undid or
    corrected a hand meanwhile): look at it again, then press again."""


class UnknownSession(LedgerError):
    """No session with that id."""


class LedgerGone(LedgerError):
    """The SQLite file the service opened was removed or replaced while it ran: nothing more is
    written (it would go to a file no one can open again)."""


class SchemaError(Exception):
    """A ledger this program cannot migrate (a schema from a newer version)."""
