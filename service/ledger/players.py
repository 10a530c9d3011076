"""The player register: the parlour's regulars, known across sessions and tables.

A player is a name, its reading in kana (optional, for search) and a short
member code (会員番号; given, or the next number: 0001, 0002, ...). Sessions name
their players by id; renaming a player changes the register only: the log of
every session stays as it was logged, and standings follow the id.

``resolve`` is how a name typed on the new-session page becomes a player: a
member code, or a name that only one player has (exactly, else as search
compares names: "aki" finds Aki), finds that player; a name
nobody has adds a new player; a name two players share asks for the code.

``merge`` mends a player entered twice (a regular typed by an old name became a
second player): the second is merged into the one kept. The register lists the
kept one only; the second's member code and id find the kept one; standings add
both up as one player. No session's log changes, and ``unmerge`` undoes it.
Two players who sat at one session are two people: merging them is refused.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlalchemy import Connection, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import db
from .errors import LedgerError
from .text import checked

CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,15}")
MAX_NAME = 100


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    kana: str
    code: str

    @property
    def label(self) -> str:
        """How a choice shows it: ``Aki (0003)``."""
        return f"{self.name} ({self.code})"

    def to_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "kana": self.kana, "code": self.code, "label": self.label}


def fold_text(text: str) -> str:
    """What search compares: NFKC, lower case, katakana as hiragana (ア and あ match)."""
    text = unicodedata.normalize("NFKC", text).strip().lower()
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


def clean_name(name: str) -> str:
    name = " ".join(str(name).split())
    if not name:
        raise LedgerError("a player's name is empty")
    return checked(name, "a player's name", MAX_NAME)        # its length too


def clean_code(code: str) -> str:
    code = str(code).strip()
    if not CODE.fullmatch(code):
        raise LedgerError(f"a member code is 1-16 letters, digits or '-' (starting with a letter or digit), "
                          f"not {code!r}")
    return code


def clean_kana(kana: str) -> str:
    return checked(" ".join(str(kana).split()), "a player's reading", MAX_NAME)


def _with_code(conn: Connection, code: str, other_than: int | None = None):
    """The register's row holding member code ``code`` (codes compare without case), if any but
    player ``other_than``."""
    query = select(db.players).where(func.lower(db.players.c.code) == code.lower())
    if other_than is not None:
        query = query.where(db.players.c.id != other_than)
    return conn.execute(query).first()


def _player(row) -> Player:
    return Player(row.id, row.name, row.kana or "", row.code)


LIVE = db.players.c.merged_into.is_(None)       # the register's own rows: no player merged into another


def all_players(conn: Connection) -> list[Player]:
    """The register, in order of joining (a player merged into another is that other)."""
    return [_player(r) for r in conn.execute(select(db.players).where(LIVE).order_by(db.players.c.id))]


MAX_ID = 2**63 - 1        # the widest integer either database stores: no player's id is past it


def by_ids(conn: Connection, ids: Sequence[int]) -> dict[int, Player]:
    """The players these ids name; an id merged into another player names the one kept at the end
    of its merges (C into B, B into A: A)."""
    ids = [i for i in ids if 0 < i <= MAX_ID]             # past it, the driver refuses the query itself
    rows = conn.execute(select(db.players).where(db.players.c.id.in_(ids))).all()
    roots = merged_ids(conn) if any(r.merged_into is not None for r in rows) else {}
    wanted = {roots.get(r.id, r.id) for r in rows}
    found = {r.id: _player(r) for r in rows if r.id in wanted}
    if wanted - set(found):
        found |= {r.id: _player(r) for r in conn.execute(select(db.players).where(db.players.c.id.in_(wanted - set(found))))}
    return {r.id: found[roots.get(r.id, r.id)] for r in rows if roots.get(r.id, r.id) in found}


def merged_ids(conn: Connection) -> dict[int, int]:
    """Each merged player's id -> the kept player's id at the end of its merges (what standings add
    up as one). Each merge is kept as it was made (C into B, then B into A: C's row still says B),
    so undoing B's puts C back under B."""
    direct = {r.id: r.merged_into for r in conn.execute(
        select(db.players.c.id, db.players.c.merged_into).where(db.players.c.merged_into.is_not(None)))}
    roots = {}
    for pid in direct:
        seen, at = {pid}, direct[pid]
        while at in direct and at not in seen:            # a loop (none is made, under the lock) ends it
            seen.add(at)
            at = direct[at]
        roots[pid] = at
    return roots


def merges(conn: Connection) -> list[tuple[Player, Player]]:
    """(the merged player as they were, the player they were merged into) for every merge, the
    latest first."""
    gone = conn.execute(select(db.players).where(db.players.c.merged_into.is_not(None))
                        .order_by(db.players.c.merged_at.desc(), db.players.c.id.desc())).all()
    into = {r.id: _player(r) for r in conn.execute(select(db.players).where(
        db.players.c.id.in_({r.merged_into for r in gone})))}
    return [(_player(r), into[r.merged_into]) for r in gone if r.merged_into in into]


def same_name(players: Sequence[Player], name: str) -> list[Player]:
    """The players whose name is ``name`` as search compares it (case, width, kana)."""
    folded = fold_text(name)
    return [p for p in players if fold_text(p.name) == folded]


def kept_for_name(conn: Connection, name: str) -> list[Player]:
    """The players kept for merged players of ``name`` (as search compares names), by id."""
    folded = fold_text(name)
    merged = [r.id for r in conn.execute(select(db.players.c.id, db.players.c.name)
                                         .where(db.players.c.merged_into.is_not(None)))
              if fold_text(r.name) == folded]
    kept = by_ids(conn, merged)
    return sorted({p.id: p for p in kept.values()}.values(), key=lambda p: p.id)


def find(conn: Connection, query: str, limit: int = 10) -> list[Player]:
    """``search`` over the whole register, a merged player's code or old name finding the player
    kept (once, where that player is found too)."""
    every = [_player(r) for r in conn.execute(select(db.players).order_by(db.players.c.id))]
    hits = search(every, query, len(every))
    kept = by_ids(conn, [p.id for p in hits[:limit * 4]])     # the hits alone (a register holds thousands)
    out: dict[int, Player] = {}
    for p in hits[:limit * 4]:
        if p.id in kept:
            out.setdefault(kept[p.id].id, kept[p.id])
    return list(out.values())[:limit]


def search(players: Sequence[Player], query: str, limit: int = 10) -> list[Player]:
    """Players whose name, reading or code starts with ``query`` (then those that contain it),
    most recent regulars first within each group; an empty query finds nobody."""
    q = fold_text(query)
    if not q:
        return []
    starts, contains = [], []
    for p in players:
        fields = (fold_text(p.name), fold_text(p.kana), p.code.lower())
        if any(f.startswith(q) for f in fields if f):
            starts.append(p)
        elif any(q in f for f in fields if f):
            contains.append(p)
    return (starts + contains)[:limit]


def add(conn: Connection, name: str, kana: str = "", code: str | None = None) -> Player:
    """A new player; without a code, the next free number (0001, ...)."""
    name, kana = clean_name(name), clean_kana(kana)
    if code is not None:
        code = clean_code(code)
        if _with_code(conn, code):
            raise LedgerError(f"member code {code!r} is taken")
        _code_no_name(conn, code)
    now = db.now(conn)
    pid = conn.execute(insert(db.players).values(name=name, kana=kana, code=code or "~" + secrets.token_hex(7),
                                                 created_at=now)).inserted_primary_key[0]
    if code is None:
        code = _free_code(conn, pid)
        conn.execute(update(db.players).where(db.players.c.id == pid).values(code=code))
    return Player(pid, name, kana, code)


def _free_code(conn: Connection, pid: int) -> str:
    """The player's id as a four-digit code, or the next number no one holds."""
    n = pid
    while conn.execute(select(db.players.c.id).where(db.players.c.code == f"{n:04d}")).first():
        n += 1
    return f"{n:04d}"


def _row(conn: Connection, player_id: int):
    """The register's row of ``player_id`` (a merged player's own); LedgerError where there is none."""
    row = conn.execute(select(db.players).where(db.players.c.id == player_id)).first() \
        if 0 < player_id <= MAX_ID else None           # past it, the driver refuses the query itself
    if row is None:
        raise LedgerError(f"no player {player_id}")
    return row


def rename(conn: Connection, player_id: int, name: str | None = None, kana: str | None = None,
           code: str | None = None) -> Player:
    """Change a player's name, reading or code; no session's log changes."""
    row = _row(conn, player_id)
    if row.merged_into is not None:
        raise LedgerError(f"{_player(row).label} is merged into another player: change that player")
    values = {}
    if name is not None:
        values["name"] = clean_name(name)
    if kana is not None:
        values["kana"] = clean_kana(kana)
    if code is not None:
        values["code"] = clean_code(code)
        if _with_code(conn, values["code"], other_than=player_id):
            raise LedgerError(f"member code {values['code']!r} is taken")
        _code_no_name(conn, values["code"], other_than=player_id)
    if values:
        try:
            conn.execute(update(db.players).where(db.players.c.id == player_id).values(**values))
        except IntegrityError:
            raise LedgerError(f"member code {values.get('code')!r} is taken") from None
    return _player(conn.execute(select(db.players).where(db.players.c.id == player_id)).one())


def _code_no_name(conn: Connection, code: str, other_than: int | None = None) -> None:
    """Refuse a member code that is another player's name: typed at a session's start, it would seat
    the code's holder where the named player sat down (a code is found before a name)."""
    named = conn.execute(select(db.players.c.id).where(LIVE, db.players.c.name == code)).scalars().all()
    if any(pid != other_than for pid in named):
        raise LedgerError(f"member code {code!r} is another player's name: typed at a session's start it would "
                          f"seat the wrong player; choose a code no one is called")


def looks_like_code(text: str) -> bool:
    """Whether ``text`` is digits alone (full-width too, as a Japanese keyboard types them): what a
    member code looks like, and no player's name."""
    text = unicodedata.normalize("NFKC", text).strip()
    return text.isascii() and text.isdigit()


def resolve(conn: Connection, given: str | int, *, create: bool = True, digits_are_codes: bool = False) -> Player:
    """The player ``given`` names: an id (int), ``Name (CODE)`` as a choice shows it, a member
    code (full-width digits as typed on a Japanese keyboard too), or a name only one player has;
    a new name adds a player when ``create``. ``digits_are_codes`` (a session being started):
    digits no one's member code are refused, not made a new player named by them (a code since
    changed, or mistyped); a log being imported keeps its names whatever they are. A player
    merged into another (by code, id or old name) is that other."""
    if isinstance(given, int):
        found = by_ids(conn, [given]).get(given)
        if found is None:
            raise LedgerError(f"no player {given}")
        return found
    text = " ".join(str(given).split())
    if not text:
        raise LedgerError("a player's name is empty")
    row = _find(conn, text)
    if row is not None:
        return _kept(conn, row)
    if not create:
        raise LedgerError(f"no player named {text!r}")
    if digits_are_codes and looks_like_code(text):
        raise LedgerError(f"no member code {text}: type the player's name (a new player is added by name)")
    return add(conn, text)


def _find(conn: Connection, text: str):
    """The register row ``text`` names (a merged player's own row too), or None; LedgerError when
    it names several. In order: ``Name (CODE)``; a member code exactly as typed; the one player of
    that exact name; a code in another case ("Dan" is the player named Dan, not the one whose code
    is DAN); the name typed another way ("aki" for Aki, "ｱｷ" for アキ); a merged player's old name
    (the regular typed by it again is the one kept, not a third entry)."""
    m = re.fullmatch(r"(.+?) \(([^()]+)\)", text)
    if m:
        row = _with_code(conn, m.group(2))
        if row is not None and row.name == m.group(1):
            return row
    typed = unicodedata.normalize("NFKC", text)
    coded = _with_code(conn, typed)
    if coded is not None and coded.code == typed:
        also = conn.execute(select(db.players).where(LIVE, db.players.c.name == text,   # a code given before
                                                     db.players.c.id != coded.id)).first()   # the name came
        if also is not None:
            raise LedgerError(f"{text!r} is {coded.name}'s member code and {also.name}'s name: type "
                              f"{coded.name} ({coded.code}) or {also.name} ({also.code})")
        return coded
    rows = conn.execute(select(db.players).where(LIVE).order_by(db.players.c.id)).all()
    named = [r for r in rows if r.name == text]
    if not named and coded is not None:
        return coded
    if not named:
        named = [r for r in rows if fold_text(r.name) == fold_text(text)]
    if not named:
        merged = conn.execute(select(db.players).where(db.players.c.merged_into.is_not(None))
                              .order_by(db.players.c.id)).all()
        named = [r for r in merged if fold_text(r.name) == fold_text(text)]
        roots = merged_ids(conn)
        if len({roots.get(r.id) for r in named}) == 1:
            return named[0]
        named = [r for r in rows if r.id in {roots.get(m.id) for m in named}]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        codes = ", ".join(r.code for r in named)
        raise LedgerError(f"{len(named)} players are named {text!r}: choose one by member code ({codes})")
    return None


def seated(conn: Connection, logged: str, entry: Any = None) -> Player:
    """The player an imported session's seat names in this register. ``entry`` is the seat's
    player as the exporting register knew them (name, kana, code): the holder of that code here
    if they have that name (the same person, however the seat was logged: before a rename, or
    ``Aki (0003)`` beside another Aki), a new player with that code where no one holds it; else
    the player found by that name as ``resolve`` finds one. Without it (an older export), by the
    seat's logged name."""
    if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        return resolve(conn, logged)
    name, code, kana = entry["name"], entry.get("code"), entry.get("kana")
    if isinstance(code, str) and CODE.fullmatch(code.strip()):
        row = _with_code(conn, code.strip())
        if row is None:
            return add(conn, name, kana if isinstance(kana, str) else "", code.strip())
        here = _kept(conn, row)
        if fold_text(name) in (fold_text(row.name), fold_text(here.name)):
            return here
    return resolve(conn, name)


def _kept(conn: Connection, row) -> Player:
    """The player a register row stands for: itself, or the player it was merged into."""
    return _player(row) if row.merged_into is None else by_ids(conn, [row.id])[row.id]


def own_id(conn: Connection, given: str | int) -> int:
    """The register id ``given`` names as ``resolve`` finds it, but a merged player's own id (not
    the kept one's): what a merge is asked about."""
    if isinstance(given, int):
        return given
    text = " ".join(given.split())
    row = _find(conn, text) if text else None
    if row is None:
        raise LedgerError(f"no player named {text!r}")
    return row.id


def merge(conn: Connection, gone_id: int, kept_id: int) -> Player:
    """Player ``gone_id`` (entered twice) becomes ``kept_id``: standings add them up, the old
    code finds the kept player, the register lists the kept one only. Players merged into
    ``gone_id`` before follow it (their own merges kept as made: ``unmerge`` of this one puts them
    back under ``gone_id``). Refused when the two (or any merged into either) sat at one session:
    two people, not one entered twice."""
    db.lock_register(conn)
    players = by_ids(conn, [gone_id, kept_id])
    for pid in (gone_id, kept_id):
        row = _row(conn, pid)
        if row.merged_into is not None:
            raise LedgerError(f"{_player(row).label} is merged into {players[pid].label} already")
    gone, kept = players[gone_id], players[kept_id]
    if gone.id == kept.id:
        raise LedgerError(f"{gone.label} cannot be merged into themselves")
    roots = merged_ids(conn)
    sides = ({gone.id} | {i for i, k in roots.items() if k == gone.id},
             {kept.id} | {i for i, k in roots.items() if k == kept.id})
    for row in conn.execute(select(db.sessions.c.id, db.sessions.c.created_at, db.sessions.c.table_name,
                                   db.sessions.c.player_ids).where(db.sessions.c.player_ids.is_not(None))):
        ids = set(row.player_ids or ())
        if ids & sides[0] and ids & sides[1]:
            where = f" at {row.table_name}" if row.table_name else ""
            raise LedgerError(f"{gone.label} and {kept.label} played in one session ({row.id}{where}, "
                              f"{row.created_at:%Y-%m-%d}): they are two players, not one entered twice")
    conn.execute(update(db.players).where(db.players.c.id == gone.id).values(merged_into=kept.id,
                                                                              merged_at=db.now(conn)))
    return kept


def unmerge(conn: Connection, player_id: int) -> Player:
    """Undo ``merge``: the player stands alone again (as they were, name and code)."""
    db.lock_register(conn)
    row = _row(conn, player_id)
    if row.merged_into is None:
        raise LedgerError(f"{_player(row).label} is not merged into anyone")
    conn.execute(update(db.players).where(db.players.c.id == player_id).values(merged_into=None, merged_at=None))
    return _player(row)


def seat_names(chosen: Sequence[Player]) -> tuple[str, ...]:
    """The names the session's log uses for its seats: each player's name, with the member code
    where two of them share a name."""
    names = [p.name for p in chosen]
    return tuple(p.label if names.count(p.name) > 1 else p.name for p in chosen)
