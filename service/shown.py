"""A URL as the service says it to people (the start-up lines, logs, errors, the counter's screen): its
password hidden. Cameras and databases alike are commonly given their login in the URL
(``rtsp://admin:password@10.0.0.5/...``, ``postgresql://staff:password@db/parlour``), and a console or a
counter is read over shoulders."""

from __future__ import annotations

import re

_PASSWORD = re.compile(r"(://[^/:@]*:)[^/@]*@")


def shown_url(url: str) -> str:
    """``url`` with the password of its login as ``***``; anything else as given (a path, a USB index, a
    URL with no password). By pattern, not by parsing: a URL no parser reads is hidden all the same."""
    return _PASSWORD.sub(r"\1***@", url)
