"""Small files the service keeps beside its data, written whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_whole(path: Path, data: str | bytes, shared: bool = False) -> Path:
    """``data`` (text, written as UTF-8, or bytes) at ``path``, all or nothing: a temporary file
    beside it, moved into place (a reader never sees half a file, and a crash or a full disk leaves
    the old one and no temporary file). ``shared``: readable by others as a file the user made is
    (the umask's), not the temporary file's owner-only mode."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # a file of its own for each writer: two writing one path at once (two confirms of one snapshot)
    # each move a whole file in, rather than one moving the other's half-written one, or finding none
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        if shared:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:                       # a full disk: no half-written file left behind
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
