"""The one error the engine raises for bad input."""


class ScoringError(ValueError):
    """A hand record that cannot be scored; the message says what is wrong, in one line."""


class DiscardsError(ScoringError):
    """A record's ``discards`` no tile of its wall could be: the rest of the record may stand (a
    tablet carries the camera's discards unconfirmed, and may leave them out)."""
