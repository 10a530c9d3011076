"""Small files the service keeps beside its data, written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str) -> Path:
    """``text`` at ``path``, all or nothing: a temporary file beside it, moved into place (a reader
    never sees half a file, and a crash leaves the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    return path
