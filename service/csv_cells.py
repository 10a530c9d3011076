"""CSV a spreadsheet reads as written: a text cell is never taken for a formula, and the file's
Japanese is read as UTF-8.

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return before one) as a formula, so a player named ``=HYPERLINK(...)`` would
become a link when the export is opened. Such a text cell is written with a single
quote in front (``'=HYPERLINK(...)``), which spreadsheets show as text. Numbers stay
numbers: ``-5`` is a number, not a formula.

Excel on a Japanese Windows reads a CSV file with no byte-order mark as Shift_JIS: every player
named in kanji or kana comes out garbled (文字化け). A CSV file made for people to open
(``for_spreadsheets``: the downloads, ``export --output``) starts with UTF-8's byte-order mark,
which Excel, LibreOffice, Numbers and Google Sheets all take as "UTF-8" and do not show.
"""

from __future__ import annotations

from typing import Any, Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


def text_cell(value: Any) -> Any:
    """``value`` as a CSV cell: a text cell that begins like a formula gets a leading ``'``;
    numbers, None and other text pass as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_row(values: Iterable[Any]) -> list[Any]:
    """A row of cells, each through ``text_cell``."""
    return [text_cell(v) for v in values]


def for_spreadsheets(text: str) -> bytes:
    """CSV ``text`` as the bytes of a file to open in a spreadsheet: UTF-8, its byte-order mark first."""
    return (BOM + text).encode("utf-8")
