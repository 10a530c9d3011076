"""The parlour's tile sets: each table's taught set kept in the shared database, so a sister table
with the same tiles takes it rather than be taught again.

A parlour's tables are often one model with one set of tiles. The teach page of a table (on its
Confirm) keeps the enrolled crops of the table's set in ``ledger_tilesets`` (one row a table, the
newest teaching), zipped as ``<kind>/<n>.png``; another table's teach page lists them, and "use
these tiles" makes that table's set of those crops, embedded by its own classifier
(``TableTiles.adopt``). Only enrolled crops travel: what a table learnt from its own confirmed
counts stays with it.

An archive read back is checked as an upload is: a zip of at most ``MAX_CROPS`` png images, at most
``MAX_BYTES`` in all, each in a folder named as a kind (``ServiceError`` otherwise).
"""

from __future__ import annotations

import io
import zipfile
import zlib
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import PurePosixPath

import cv2
import numpy as np
from sqlalchemy import Engine, delete, insert, select

from vision.tileset import ENROLLED, KEEP_SIDE, KINDS, TileSet

from .errors import ServiceError
from .image_header import stated_size
from .ledger import db

MAX_CROPS = 38 * 40              # every kind, forty crops each: more than any teaching lays
MAX_BYTES = 64 * 1024 * 1024     # the images unpacked (a crop is kept at most 192 px a side)


@dataclass(frozen=True)
class SharedSet:
    """A table's taught set as the parlour's database keeps it (the archive aside)."""

    table_name: str
    taught_at: datetime
    kinds: int
    crops: int


def pack(tileset: TileSet) -> tuple[bytes, int, int]:
    """(zip, kinds, crops) of ``tileset``'s enrolled crops, the png files as the set keeps them."""
    buf = io.BytesIO()
    kinds = crops = 0
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as z:        # png is compressed already
        for kind in sorted(tileset.crops):
            files = [c.file for c in tileset.crops[kind] if c.source == ENROLLED]
            for n, file in enumerate(files):
                z.write(tileset.folder / file, f"{kind}/{n:05d}.png")
            kinds += bool(files)
            crops += len(files)
    return buf.getvalue(), kinds, crops


def unpack(data: bytes, source: str) -> list[tuple[str, np.ndarray]]:
    """The (kind, BGR image) crops of an archive ``pack`` made; ``ServiceError`` naming what is
    wrong with it (``source`` says whose it is)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise ServiceError(f"{source}: not a tile set archive (not a zip)") from None
    with z:
        members = [m for m in z.infolist() if not m.is_dir()]
        if not members:
            raise ServiceError(f"{source}: no crops in it")
        if len(members) > MAX_CROPS or sum(m.file_size for m in members) > MAX_BYTES:
            raise ServiceError(f"{source}: more than {MAX_CROPS} crops or {MAX_BYTES // 2**20} MB")
        out = []
        for m in members:
            path = PurePosixPath(m.filename)
            if len(path.parts) != 2 or path.parts[0] not in KINDS:
                raise ServiceError(f"{source}: {m.filename} is not in a folder named as a kind")
            try:
                data = z.read(m)
            except (zipfile.BadZipFile, zlib.error, EOFError) as e:     # a member cut short or spoilt
                raise ServiceError(f"{source}: {m.filename} is damaged ({e})") from None
            stated = stated_size(data)       # before decoding: a decoder makes room for what it states
            if stated is not None and max(stated[1:]) > KEEP_SIDE:
                raise ServiceError(f"{source}: {m.filename} is {stated[1]}x{stated[2]}, a crop is kept "
                                   f"at most {KEEP_SIDE} px a side")
            image = None if stated is None else cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                raise ServiceError(f"{source}: {m.filename} is not an image")
            out.append((path.parts[0], image))
    return out


def publish(engine: Engine, table_name: str, tileset: TileSet) -> SharedSet:
    """Keep ``tileset``'s enrolled crops as ``table_name``'s taught set (replacing its last)."""
    archive, kinds, crops = pack(tileset)
    shared = SharedSet(table_name, datetime.now(timezone.utc), kinds, crops)
    with engine.begin() as conn:        # delete, then insert: one statement set on SQLite and PostgreSQL
        conn.execute(delete(db.tilesets).where(db.tilesets.c.table_name == table_name))
        conn.execute(insert(db.tilesets).values(table_name=table_name, taught_at=shared.taught_at,
                                                kinds=kinds, crops=crops, archive=archive))
    return shared


def listing(engine: Engine) -> list[SharedSet]:
    """Every table's taught set, by table name."""
    t = db.tilesets
    with engine.connect() as conn:
        rows = conn.execute(select(t.c.table_name, t.c.taught_at, t.c.kinds, t.c.crops)
                            .order_by(t.c.table_name)).all()
    return [SharedSet(r.table_name, db.aware(r.taught_at), r.kinds, r.crops) for r in rows]


def withdraw(engine: Engine, table_name: str) -> bool:
    """``table_name``'s taught set no longer offered to the other tables (its own set is untouched);
    False when it offered none."""
    with engine.begin() as conn:
        return conn.execute(delete(db.tilesets).where(db.tilesets.c.table_name == table_name)).rowcount > 0


def crops_of(engine: Engine, table_name: str) -> list[tuple[str, np.ndarray]]:
    """The crops of ``table_name``'s taught set; ``ServiceError`` (404) when it has none."""
    with engine.connect() as conn:
        data = conn.execute(select(db.tilesets.c.archive)
                            .where(db.tilesets.c.table_name == table_name)).scalar()
    if data is None:
        raise ServiceError(f"no tile set was taught at table {table_name}", 404)
    return unpack(bytes(data), f"table {table_name}'s tile set")
