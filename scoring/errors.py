"""The one error the engine raises for bad input."""


class ScoringError(ValueError):
    """A hand record that cannot be scored; the message says what is wrong, in one line."""
