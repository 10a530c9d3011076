"""Errors the ledger raises for bad input; each message is one line."""


class LedgerError(ValueError):
    """Input the ledger refuses: a bad record, an unknown session, an impossible event."""


class StaleState(LedgerError):
    """The event was made for a state the session is no longer in (honba, dealer, hand number)."""


class UnknownSession(LedgerError):
    """No session with that id."""
