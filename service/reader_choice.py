"""Which reader a table runs with: ``TABLE_READER`` (``auto`` or ``module:factory``) to a
:class:`service.reader.Reader`. Apart from ``service.reader``, which only names the seam, so that
the vision reader (which imports the seam's types) is imported here and nowhere back.
"""

from __future__ import annotations

from .reader import NoReader, Reader, ReaderLoadError, load_reader

AUTO = "auto"


def reader_for(spec: str, calibration: str = "", demo_camera: bool = False, mend: bool = True) -> Reader:
    """The reader a table runs with. ``auto`` (the default) is the vision reader for the calibrated
    table ``calibration``, else for the demo table when the camera is the demo's frames, else
    none (saying the table is not calibrated); anything else is ``service.reader.load_reader``'s. ``mend``: the
    vision reader mends a hand read one tile off a win (``service.mending``)."""
    if spec != AUTO:
        return load_reader(spec)
    if not calibration and not demo_camera:
        return NoReader(NoReader.NOT_CALIBRATED)
    from calibration.errors import CalibrationError

    from .vision_reader import VisionReader, demo_table   # the detector's models load only when used
    try:
        return VisionReader(calibration or demo_table(), mend=mend)
    except CalibrationError as e:       # an unknown or unreadable table file is named
        raise ReaderLoadError(f"the vision reader could not start: {e}") from None
