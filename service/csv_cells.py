"""CSV cells a spreadsheet reads as written: a text cell is never taken for a formula.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return before one) as a formula, so a player named ``=HYPERLINK(...)`` would
become a link when the export is opened. Such a text cell is written with a single
quote in front (``'=HYPERLINK(...)``), which spreadsheets show as text. Numbers stay
numbers: ``-5`` is a number, not a formula.
"""

from __future__ import annotations

from typing import Any, Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: Any) -> Any:
    """``value`` as a CSV cell: a text cell that begins like a formula gets a leading ``'``;
    numbers, None and other text pass as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_row(values: Iterable[Any]) -> list[Any]:
    """A row of cells, each through ``text_cell``."""
    return [text_cell(v) for v in values]
