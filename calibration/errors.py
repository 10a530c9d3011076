"""The one error the calibration stages raise for bad input or a failed fit.

The CLI turns it into a one-line message and exit status 2.
"""


class CalibrationError(Exception):
    """Bad input (a file that is not an image, a bad table file) or a fit that cannot be made."""


class NoHomography(CalibrationError):
    """No markers good enough in this frame and nothing to fall back on."""
