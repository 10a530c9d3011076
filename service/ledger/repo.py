"""The ledger over a database: start sessions, append hand events, derive the state.

Each append is one transaction: lock the session (``BEGIN IMMEDIATE`` on SQLite,
``SELECT ... FOR UPDATE`` on PostgreSQL), derive the state from the log, check
the new hand against it, insert one row, commit. A crash before the commit
leaves nothing; after it, the hand is there in full. The state is never stored:
an in-process cache keyed by the last seq saves re-folding a long log, and is
refolded from the rows whenever another writer has moved on.

A handle made for one table (``table_name``) sees that table's sessions only: a
session of another table is unknown to it, as if it did not exist. A handle
without one (the command line, the counter) sees every table's.

A session's players come from the register (players.py): names typed at the
start are resolved to players (a new name adds one) in the transaction that
starts the session, and the session keeps their ids seat by seat.

A session stores the rule it starts under (stored_rules.py): every hand of it,
a correction included, is counted with that stored rule, whatever its file says
later. House rules are found in ``rules_dir`` (the service's rules folder), else
in scoring's (``$TOUTENKOU_RULES_DIR``).
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from sqlalchemy import Connection, Engine, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from scoring import Preset

from . import db, players as register
from .derive import SessionConfig, Slot, State, Step, effective, fold, history, play
from .errors import LedgerError, StaleState, UnknownSession, ViewOutdated
from .events import Event
from .hands import build_chombo, build_draw, build_win
from .rules import table_rules
from .stored_rules import from_body, resolve, save, to_body
from .text import MAX_CONFIRMER, MAX_LABEL, MAX_SNAPSHOT, checked

log = logging.getLogger(__name__)

@dataclass(frozen=True)
class _Cached:
    last_seq: int
    slots: tuple[Slot, ...]
    state: State


FIELD_OF_KIND = {"records": "win", "winners": "win", "tenpai": "draw", "offender": "chombo"}  # a correction's own fields


class Ledger:
    """A handle on one database holding any number of sessions."""

    def __init__(self, url: str | None = None, *, migrate: bool = True, rules_dir: str | Path | None = None,
                 table_name: str | None = None):
        self.engine: Engine = db.make_engine(url)
        if migrate:
            db.upgrade(self.engine)
        self.rules_dir = Path(rules_dir) if rules_dir is not None else None
        self.table_name = table_name         # None: every table's sessions (the counter, the command line)
        self._cache: dict[str, _Cached] = {}
        self._configs: dict[str, SessionConfig] = {}
        self._stored: dict[tuple[str, str], Preset] = {}
        # told (session id, the new event's seq, state after) when a hand is added, corrected or
        # undone here: the service tells the session's other tablets (the ledger knows no tablets)
        self.on_change: Callable[[str, int, State], None] | None = None

    def rule(self, name: str) -> Preset:
        """The rule ``name`` as a session started now would store it (a built-in, or the house
        rule's file as it is now); LedgerError says why not (unknown, or a file that does not load)."""
        return resolve(name, self.rules_dir)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Ledger":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- sessions ---------------------------------------------------------
    def start(self, rules: str, players: Sequence[str | int], *, dealer: str | int | None = None,
              table: Mapping[str, Any] | None = None, label: str = "",
              session_id: str | None = None, preset: Preset | None = None,
              table_name: str | None = None) -> SessionConfig:
        """A new session; ``players`` in turn order (names, member codes or register ids: a new
        name adds a player), ``dealer`` the first dealer (as given in ``players``, or its seat
        name; default the first), ``table`` the table-rule overrides, ``table_name`` the table
        it is played at (default this handle's table).

        The rule ``rules`` is resolved now (or ``preset``, already resolved, is used) and stored
        with the session: its hands are counted with it from now on."""
        given = [p if isinstance(p, int) else " ".join(str(p).split()) for p in players]
        if len(given) != 3 or not all(given):
            raise LedgerError("a session has three players, each named")
        for p in given:              # a name or a member code, looked up before a new name is cleaned
            if isinstance(p, str):
                checked(p, "a player's name", register.MAX_NAME)
        label = checked(label, "a session's label", MAX_LABEL)
        overrides = dict(table or {})
        if preset is None:
            preset = self.rule(rules)
        elif preset.id != rules:
            raise LedgerError(f"the rule given is {preset.id!r}, not {rules!r}")
        body = to_body(preset)
        stored = self._stored_preset(body)
        where = self.table_name if table_name is None else table_name
        with self.engine.begin() as conn:
            db.lock_register(conn)          # no merge of two of them checked meanwhile
            chosen = [register.resolve(conn, p, digits_are_codes=True) for p in given]
            if len({p.id for p in chosen}) != 3:
                twice = next(p for p in chosen if [q.id for q in chosen].count(p.id) > 1)
                raise LedgerError(f"a session has three players, all different: {twice.label} is given twice")
            names = register.seat_names(chosen)
            if dealer is None:
                first = 0
            elif dealer in given or dealer in names:
                first = given.index(dealer) if dealer in given else names.index(dealer)
            else:
                raise LedgerError(f"dealer {dealer!r} is not one of the players")
            created = db.now(conn)
            cfg = SessionConfig(session_id or str(uuid.uuid4()), rules, names, first,
                                table_rules(stored, overrides), overrides, label, stored, body["digest"],
                                where or "", tuple(p.id for p in chosen), created)
            save(conn, body)
            conn.execute(insert(db.sessions).values(
                id=cfg.id, created_at=created, rules=rules, players=list(names),
                first_dealer=first, table_overrides=overrides, label=label, rule_digest=body["digest"],
                table_name=cfg.table_name, player_ids=list(cfg.player_ids)))
        self._configs[cfg.id] = cfg
        return cfg

    # -- players ----------------------------------------------------------
    def players(self) -> list[register.Player]:
        """The register, in order of joining."""
        with self.engine.connect() as conn:
            return register.all_players(conn)

    def players_by_id(self, ids: Sequence[int]) -> dict[int, register.Player]:
        """The register's entries for these ids (a session's three, say)."""
        with self.engine.connect() as conn:
            return register.by_ids(conn, ids)

    def find_players(self, query: str, limit: int = 10) -> list[register.Player]:
        """Search as you type: name, reading or member code (players.search)."""
        with self.engine.connect() as conn:
            return register.find(conn, query, limit)

    def kept_for_name(self, name: str) -> list[register.Player]:
        """The players kept for merged players of that name (an old name typed again)."""
        with self.engine.connect() as conn:
            return register.kept_for_name(conn, name)

    def player(self, given: str | int) -> register.Player:
        """The player an id, a member code, ``Name (CODE)`` or a unique name names (LedgerError if none)."""
        with self.engine.connect() as conn:
            return register.resolve(conn, given, create=False)

    def add_player(self, name: str, kana: str = "", code: str | None = None) -> register.Player:
        with self.engine.begin() as conn:
            db.lock_register(conn)          # two tables adding at once would pick the same free code
            return register.add(conn, name, kana, code)

    def rename_player(self, player_id: int, *, name: str | None = None, kana: str | None = None,
                      code: str | None = None) -> register.Player:
        """A new name, reading or code for a player; no session's log changes."""
        with self.engine.begin() as conn:
            return register.rename(conn, player_id, name, kana, code)

    def merge_players(self, gone: str | int, kept: str | int) -> register.Player:
        """Player ``gone`` (entered twice) merged into ``kept`` (each an id, a member code or a
        unique name); the kept player. players.merge says what follows and what is refused."""
        with self.engine.begin() as conn:
            db.lock_register(conn)          # before the players are looked up: a merge meanwhile is seen
            return register.merge(conn, register.own_id(conn, gone), register.own_id(conn, kept))

    def unmerge_player(self, player_id: int) -> register.Player:
        """Undo a merge: the player stands alone again."""
        with self.engine.begin() as conn:
            return register.unmerge(conn, player_id)

    def merges(self) -> list[tuple[register.Player, register.Player]]:
        """(merged player, kept player) for every merge, latest first."""
        with self.engine.connect() as conn:
            return register.merges(conn)

    def merged_ids(self) -> dict[int, int]:
        """Each merged player's id -> the kept player's id."""
        with self.engine.connect() as conn:
            return register.merged_ids(conn)

    def adopt_unassigned(self, table_name: str) -> int:
        """Sessions from before tables were named ('' from migration 0003) become ``table_name``'s;
        how many. A one-table service does it at start, so its old nights stay on its tablet."""
        with self.engine.begin() as conn:
            done = conn.execute(update(db.sessions).where(db.sessions.c.table_name == "")
                                .values(table_name=table_name)).rowcount
        self._configs.clear()
        return done

    def sessions(self, table_name: str | None = None) -> list[SessionConfig]:
        """The sessions this handle sees (its table's, or every table's), oldest first;
        ``table_name`` narrows an unscoped handle to one table."""
        query = _with_rule().order_by(db.sessions.c.created_at)
        for name in {self.table_name, table_name} - {None}:
            query = query.where(db.sessions.c.table_name == name)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [self._configs.get(r.id) or self._keep(self._config(r)) for r in rows]

    def latest_sessions(self) -> dict[str, SessionConfig]:
        """Each table's newest session, by table name (one query: what the counter shows at a glance)."""
        newest = (select(db.sessions.c.table_name, func.max(db.sessions.c.created_at).label("at"))
                  .group_by(db.sessions.c.table_name).subquery())
        query = _with_rule().join(newest, and_(newest.c.table_name == db.sessions.c.table_name,
                                               newest.c.at == db.sessions.c.created_at))
        if self.table_name is not None:
            query = query.where(db.sessions.c.table_name == self.table_name)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(db.sessions.c.created_at)).all()
        return {r.table_name: self._configs.get(r.id) or self._keep(self._config(r)) for r in rows}

    def session_counts(self) -> dict[str, int]:
        """How many sessions each table has started."""
        query = select(db.sessions.c.table_name, func.count()).group_by(db.sessions.c.table_name)
        with self.engine.connect() as conn:
            return {name: n for name, n in conn.execute(query)}

    def discard(self, session_id: str) -> SessionConfig:
        """Take away a session started by mistake: only one with nothing logged (no hand, and no
        hand undone: a log, once written, is the parlour's record and stays). A tablet still on
        it is refused its next press as an unknown session; nothing is written anywhere else."""
        with self.engine.begin() as conn:
            cfg = self.config(session_id, conn)
            self._lock(conn, session_id)           # a first hand being logged now waits, then is seen
            logged = conn.execute(select(func.count()).select_from(db.events)
                                  .where(db.events.c.session_id == session_id)).scalar_one()
            if logged:
                raise LedgerError(f"session {session_id} has {logged} logged "
                                  f"{'entry' if logged == 1 else 'entries'}: a session with hands is kept "
                                  "(its log is the parlour's record)")
            conn.execute(delete(db.sessions).where(db.sessions.c.id == session_id))
        self._configs.pop(session_id, None)
        self._cache.pop(session_id, None)
        return cfg

    def rules_played(self) -> set[str]:
        """Every rule a stored session was played under."""
        with self.engine.connect() as conn:
            return set(conn.execute(select(db.sessions.c.rules).distinct()).scalars())

    def config(self, session_id: str, conn: Connection | None = None) -> SessionConfig:
        """The session's fixed facts; UnknownSession for none, or for another table's session."""
        cfg = self._configs.get(session_id)
        if cfg is None:
            if conn is None:
                with self.engine.connect() as c:
                    return self.config(session_id, c)
            row = conn.execute(_with_rule().where(db.sessions.c.id == session_id)).first()
            if row is None:
                raise UnknownSession(f"unknown session {session_id!r}")
            cfg = self._keep(self._config(row))
        if self.table_name is not None and cfg.table_name != self.table_name:
            raise UnknownSession(f"unknown session {session_id!r}")     # another table's: not this one's to see
        return cfg

    def _keep(self, cfg: SessionConfig) -> SessionConfig:
        self._configs[cfg.id] = cfg
        return cfg

    def stored_rule(self, session_id: str) -> dict[str, Any] | None:
        """The rule the session stored when it started, as stored (None: a session from before
        rules were stored, counted under its built-in by name)."""
        with self.engine.connect() as conn:
            self.config(session_id, conn)
            body = conn.execute(select(db.rules.c.body).select_from(_JOINED)
                                .where(db.sessions.c.id == session_id)).scalar()
        return dict(body) if body is not None else None

    # -- reading ----------------------------------------------------------
    def snapshots_in_use(self, since: datetime | None = None) -> set[str]:
        """Every snapshot a logged event names, in any session (undone and corrected ones too:
        the log keeps them); ``since``: only those an event logged at or after it names."""
        e = db.events
        named = select(e.c.snapshot).where(e.c.snapshot.is_not(None))
        if since is not None:
            named = named.where(e.c.created_at >= since)
        with self.engine.connect() as conn:
            return set(conn.execute(named.distinct()).scalars())

    def events(self, session_id: str) -> list[Event]:
        with self.engine.connect() as conn:
            self.config(session_id, conn)
            events = _events(conn, session_id)
            if not events:
                self._still_there(conn, session_id)
            return events

    def _still_there(self, conn: Connection, session_id: str) -> None:
        """UnknownSession where a session with nothing logged was taken away (``discard``, maybe by
        the counter's service: this one's caches still held it)."""
        if conn.execute(select(db.sessions.c.id).where(db.sessions.c.id == session_id)).first() is None:
            self._gone(session_id)

    def _gone(self, session_id: str) -> None:
        self._configs.pop(session_id, None)
        self._cache.pop(session_id, None)
        raise UnknownSession(f"unknown session {session_id!r}: taken away at the counter, or never started")

    def state(self, session_id: str) -> State:
        with self.engine.connect() as conn:
            return self._derive(conn, session_id)[1].state

    def last_seq(self, session_id: str) -> int:
        """The seq of the session's newest event (0: none): which version of it a page shows."""
        with self.engine.connect() as conn:
            return self._derive(conn, session_id)[1].last_seq

    def history(self, session_id: str) -> list[Step]:
        with self.engine.connect() as conn:
            cfg, cached = self._derive(conn, session_id)
        return history(cfg, cached.slots)

    def slots(self, session_id: str) -> list[Slot]:
        with self.engine.connect() as conn:
            return list(self._derive(conn, session_id)[1].slots)

    def hand_of_snapshot(self, snapshot: str) -> tuple[SessionConfig, int] | None:
        """The session and number of the hand that stands (not undone, not corrected away) naming
        ``snapshot``, in the sessions this handle sees; None where none does. A picture is one hand."""
        with self.engine.connect() as conn:
            sids = conn.execute(select(db.events.c.session_id).where(db.events.c.snapshot == snapshot)
                                .distinct()).scalars().all()
        for sid in sids:
            try:
                slots = self.slots(sid)
            except UnknownSession:           # another table's session: not this handle's to see
                continue
            found = next((s.number for s in slots if s.event.snapshot == snapshot), None)
            if found is not None:
                return self.config(sid), found
        return None

    def state_and_slots(self, session_id: str) -> tuple[State, list[Slot]]:
        """The state and the hands that count, read together (one look at the log, not two)."""
        with self.engine.connect() as conn:
            cached = self._derive(conn, session_id)[1]
        return cached.state, list(cached.slots)

    # -- writing ----------------------------------------------------------
    def add_win(self, session_id: str, records: Sequence[Mapping[str, Any]], *,
                riichi: Any = None, winners: Sequence[str] | None = None, penalties: Iterable[str] = (),
                **meta: Any) -> tuple[Event, State]:
        """A won hand (two records for a double ron). ``meta``: confirmed_by, snapshot, and
        ``hand`` (the hand number the caller believes this is: a stale-state guard)."""
        return self._append(session_id, "win",
                            lambda cfg, st: build_win(cfg, st, records, riichi, winners, penalties), **meta)

    def add_draw(self, session_id: str, tenpai: Iterable[str] = (), *, riichi: Any = None,
                 penalties: Iterable[str] = (), **meta: Any) -> tuple[Event, State]:
        """An exhaustive draw; ``tenpai`` names the players who were tenpai."""
        tenpai = list(tenpai)
        return self._append(session_id, "draw", lambda cfg, st: build_draw(cfg, st, tenpai, riichi, penalties),
                            **meta)

    def add_chombo(self, session_id: str, offender: str, *, riichi: Any = None, penalties: Iterable[str] = (),
                   **meta: Any) -> tuple[Event, State]:
        """A chombo by ``offender``; the hand is replayed."""
        return self._append(session_id, "chombo",
                            lambda cfg, st: build_chombo(cfg, st, offender, riichi, penalties), **meta)

    def correct(self, session_id: str, number: int, kind: str, *, records: Sequence[Any] = (),
                tenpai: Iterable[str] = (), offender: str | None = None, riichi: Any = None,
                winners: Sequence[str] | None = None, seen: int | None = None, penalties: Iterable[str] = (),
                **meta: Any) -> tuple[Event, State]:
        """Replace hand ``number`` by a corrected hand; the old one stays in the log. ``seen``, the
        seq of the event the caller saw as that hand (``Slot.event.seq``), is checked inside the
        transaction: two tablets correcting one hand at once cannot overwrite each other unseen."""
        tenpai = list(tenpai)
        # what belongs to another kind of hand is refused, not dropped: a wrong kind turned a win into a draw
        given = {"records": bool(records), "winners": bool(winners), "tenpai": bool(tenpai),
                 "offender": offender is not None}
        stray = [name for name, there in given.items() if there and FIELD_OF_KIND[name] != kind]
        if stray:
            raise LedgerError(f"a {kind} correction has no {' or '.join(stray)}: "
                              f"was it meant as a {FIELD_OF_KIND[stray[0]]}?")

        def build(cfg: SessionConfig, slots: Sequence[Slot]) -> tuple[dict[str, Any], list[Slot]]:
            if not 1 <= number <= len(slots):
                raise LedgerError(f"no hand {number}: the session has {len(slots)} hand(s)")
            if seen is not None and slots[number - 1].event.seq != seen:
                raise ViewOutdated(f"stale state: hand {number} was corrected meanwhile; look at it again")
            before = fold(cfg, slots[:number - 1])
            if kind == "win":
                body = build_win(cfg, before, records, riichi, winners, penalties)
            elif kind == "draw":
                body = build_draw(cfg, before, tenpai, riichi, penalties)
            elif kind == "chombo":
                if offender is None:
                    raise LedgerError("a chombo correction names the offender")
                body = build_chombo(cfg, before, offender, riichi, penalties)
            else:
                raise LedgerError(f"a hand is a win, a draw or a chombo, not {kind!r}")
            return {"target": slots[number - 1].slot, "number": number,
                    "event": {"kind": kind, "body": body}}, list(slots)
        return self._rewrite(session_id, "correct", build, **meta)

    def undo(self, session_id: str, *, hand: int | None = None, **meta: Any) -> tuple[Event, State]:
        """Undo the last hand; the undone hand stays in the log. ``hand``, the number the caller
        believes is the last, is checked inside the transaction, so two undos at once cannot
        take two hands."""
        def build(cfg: SessionConfig, slots: Sequence[Slot]) -> tuple[dict[str, Any], list[Slot]]:
            if not slots:
                raise LedgerError("nothing to undo: the session has no hands")
            if hand is not None and hand != len(slots):
                raise ViewOutdated(f"stale state: hand {hand} is not the last hand (the session has {len(slots)})")
            return {"target": slots[-1].slot, "number": len(slots)}, list(slots)
        return self._rewrite(session_id, "undo", build, **meta)

    def import_session(self, config: Mapping[str, Any], events: Sequence[Event],
                       created_at: datetime | None = None) -> SessionConfig:
        """Store a session and its log as exported (same id, same seqs), in one transaction.

        The export's stored rule (``rule``) comes along: the session counts with it here too,
        whether or not this database's rules folder has that rule. An export without one (made
        before rules were stored) counts under its built-in by name, as it did."""
        body = config.get("rule") if isinstance(config, Mapping) else None
        try:
            players = tuple(str(p) for p in config["players"])
            if len(players) != 3 or int(config["first_dealer"]) not in range(3):
                raise LedgerError("not a ledger export: a session has three players and a first dealer 0, 1 or 2")
            if body is not None:
                preset = from_body(body)          # checked against its digest, whatever is cached
                if preset.id != config["rules"]:
                    raise LedgerError(f"not a ledger export: the session plays {config['rules']!r}, "
                                      f"its stored rule is {preset.id!r}")
            else:
                preset = self.rule(config["rules"])
            overrides = config.get("table_overrides") or {}
            if not isinstance(overrides, Mapping):
                raise LedgerError("not a ledger export: the session's table_overrides must be an object")
            overrides = dict(overrides)
            where = self.table_name if self.table_name is not None else str(config.get("table_name") or "")
            cfg = SessionConfig(str(config["id"]), config["rules"], players,
                                int(config["first_dealer"]),
                                # a session played: its overrides replayed as logged, as config() reads them
                                table_rules(preset, overrides, stored=body is not None, logged=True),
                                overrides, checked(config.get("label", ""), "a session's label", MAX_LABEL), preset,
                                body["digest"] if body is not None else None, where)
        except LedgerError:
            raise
        except KeyError as e:
            raise LedgerError(f"not a ledger export: session lacks {e}") from None
        except (TypeError, ValueError) as e:
            raise LedgerError(f"not a ledger export: a bad session ({e})") from None
        state = _replayed(cfg, events)
        if state.warnings:
            raise LedgerError(f"the imported log does not add up: {state.warnings[0]}")
        with self.engine.begin() as conn:
            if conn.execute(select(db.sessions.c.id).where(db.sessions.c.id == cfg.id)).first():
                raise LedgerError(f"session {cfg.id} already exists in this database")
            if body is not None:
                save(conn, body)
            # the seats' players, found in this register by the code each carried, else by name
            db.lock_register(conn)
            entries = config.get("seats") if isinstance(config.get("seats"), list) else []
            entries = (entries + [None] * 3)[:3]
            ids = [register.seated(conn, name, entry).id for name, entry in zip(players, entries)]
            if len(set(ids)) != 3:
                raise LedgerError("not a ledger export: its three players are not three different players here")
            now = db.now(conn)
            conn.execute(insert(db.sessions).values(
                id=cfg.id, created_at=db.utc(created_at) or now, rules=cfg.rules,
                players=list(players), first_dealer=cfg.first_dealer,
                table_overrides=dict(cfg.overrides), label=cfg.label, rule_digest=cfg.rule_digest,
                table_name=cfg.table_name, player_ids=ids))
            cfg = replace(cfg, player_ids=tuple(ids))
            if events:
                conn.execute(insert(db.events), [
                    {"session_id": cfg.id, "seq": e.seq, "kind": e.kind, "body": dict(e.body),
                     "confirmed_by": checked(e.confirmed_by, f"hand {e.seq}'s confirmer", MAX_CONFIRMER),
                     "created_at": db.utc(e.created_at) or now,
                     "snapshot": checked(e.snapshot, f"hand {e.seq}'s snapshot", MAX_SNAPSHOT)} for e in events])
        return cfg

    # -- internals --------------------------------------------------------
    def _stored_preset(self, body: Mapping[str, Any]) -> Preset:
        """The rule of a stored body, built once per (digest, name, names) in this handle."""
        key = (str(body.get("digest")), str(body.get("name")), str(body.get("name_ja")), str(body.get("name_en")))
        preset = self._stored.get(key)
        if preset is None:
            preset = self._stored[key] = from_body(body)
        return preset

    def _config(self, row: Any) -> SessionConfig:
        overrides = dict(row.table_overrides or {})
        if row.rule_digest is not None:
            if row.rule_body is None:
                raise LedgerError(f"session {row.id}: its stored rule {row.rules} {row.rule_digest} is missing")
            preset = self._stored_preset(row.rule_body)
        else:
            preset = self.rule(row.rules)    # a session from before rules were stored: its built-in
        return SessionConfig(row.id, row.rules, tuple(row.players), row.first_dealer,
                             table_rules(preset, overrides, stored=row.rule_digest is not None, logged=True),
                             overrides,
                             row.label or "", preset,
                             row.rule_digest, row.table_name or "",
                             tuple(row.player_ids) if row.player_ids else None, db.aware(row.created_at))

    def _derive(self, conn: Connection, session_id: str) -> tuple[SessionConfig, _Cached]:
        """The session's config and its state from the log."""
        cfg = self.config(session_id, conn)
        # the log's last seq, and (in the same statement) whether the session is still there: one
        # with nothing logged may have been taken away by another service (``discard``)
        there = select(func.count()).where(db.sessions.c.id == session_id).scalar_subquery()
        last, found = conn.execute(select(func.coalesce(func.max(db.events.c.seq), 0), there)
                                   .where(db.events.c.session_id == session_id)).one()
        if not found:
            self._gone(session_id)
        cached = self._cache.get(session_id)
        if cached is None or cached.last_seq != last:
            slots = tuple(effective(_events(conn, session_id)))
            cached = _Cached(last, slots, fold(cfg, slots))
            self._cache[session_id] = cached
        return cfg, cached

    def _lock(self, conn: Connection, session_id: str) -> None:
        found = conn.execute(select(db.sessions.c.id).where(db.sessions.c.id == session_id)
                             .with_for_update()).first()
        if found is None:
            raise UnknownSession(f"unknown session {session_id!r}")

    def _append(self, session_id: str, kind: str, build: Callable[[SessionConfig, State], dict[str, Any]],
                **meta: Any) -> tuple[Event, State]:
        try:
            with self.engine.begin() as conn:
                self._lock(conn, session_id)
                cfg, cached = self._derive(conn, session_id)
                expect = meta.pop("hand", None)
                if expect is not None and expect != cached.state.hands + 1:
                    raise ViewOutdated(f"stale state: this is hand {expect}, the session is at hand "
                                     f"{cached.state.hands + 1}")
                body = build(cfg, cached.state)
                event = self._insert(conn, session_id, cached.last_seq + 1, kind, body, meta)
        except IntegrityError:
            self._cache.pop(session_id, None)
            raise ViewOutdated("another writer added a hand at the same time; look again and retry") from None
        slot = Slot(event.seq, len(cached.slots) + 1, event)
        step = play(cfg, cached.state, slot)
        self._cache[session_id] = _Cached(event.seq, cached.slots + (slot,), step.after)
        self._changed(session_id, event.seq, step.after)
        return event, step.after

    def _rewrite(self, session_id: str, kind: str,
                 build: Callable[[SessionConfig, Sequence[Slot]], tuple[dict[str, Any], list[Slot]]],
                 **meta: Any) -> tuple[Event, State]:
        try:
            with self.engine.begin() as conn:
                self._lock(conn, session_id)
                cfg, cached = self._derive(conn, session_id)
                body, _ = build(cfg, cached.slots)
                trial = Event(cached.last_seq + 1, kind, body)
                slots = effective(_with_slots(cached.slots, trial))
                state = fold(cfg, slots)
                if len(state.warnings) > len(cached.state.warnings):
                    new = state.warnings[len(cached.state.warnings)]
                    what = "correction" if kind == "correct" else kind
                    raise StaleState(f"this {what} would not fit the later hands ({new}); "
                                     "undo those hands first, then add them again")
                event = self._insert(conn, session_id, cached.last_seq + 1, kind, body, meta)
        except IntegrityError:
            self._cache.pop(session_id, None)
            raise ViewOutdated("another writer changed the session at the same time; retry") from None
        self._cache.pop(session_id, None)
        state = self.state(session_id)
        self._changed(session_id, event.seq, state)
        return event, state

    def _changed(self, session_id: str, seq: int, state: State) -> None:
        if self.on_change is not None:
            try:
                self.on_change(session_id, seq, state)
            except Exception:       # the hand is logged whatever a listener does
                log.exception("telling the tablets of session %s failed", session_id)

    def _insert(self, conn: Connection, session_id: str, seq: int, kind: str, body: dict[str, Any],
                meta: Mapping[str, Any]) -> Event:
        unknown = set(meta) - {"confirmed_by", "snapshot"}
        if unknown:
            raise TypeError(f"unknown argument(s): {', '.join(sorted(unknown))}")
        confirmed_by = checked(meta.get("confirmed_by"), "who confirmed", MAX_CONFIRMER)
        snapshot = checked(meta.get("snapshot"), "the snapshot's name", MAX_SNAPSHOT)
        now = db.now(conn)
        conn.execute(insert(db.events).values(
            session_id=session_id, seq=seq, kind=kind, body=body, created_at=now,
            confirmed_by=confirmed_by, snapshot=snapshot))
        return Event(seq, kind, body, confirmed_by, now, snapshot)


# what replaying a body the ledger never writes raises (a player who is not seated, a hand's field missing)
_REPLAY_ERRORS = (KeyError, TypeError, ValueError, IndexError, AttributeError)


def _replayed(cfg: SessionConfig, events: Sequence[Event]) -> State:
    """The state an imported log adds up to. A log the ledger wrote always replays; one edited by hand may
    hold an event that cannot be: LedgerError names the first such event (found by replaying the log
    event by event, only when the whole log failed)."""
    try:
        return fold(cfg, effective(events))
    except _REPLAY_ERRORS:
        pass
    for k, event in enumerate(events, 1):
        try:
            fold(cfg, effective(events[:k]))
        except _REPLAY_ERRORS as e:
            raise LedgerError(f"the imported log does not add up: event {event.seq} ({event.kind}) cannot be "
                              f"replayed ({type(e).__name__}: {e})") from None
    raise LedgerError("the imported log does not add up: it cannot be replayed")


def _with_slots(slots: Sequence[Slot], trial: Event) -> list[Event]:
    """The events a fold needs for the current slots plus one correction: each slot's own event."""
    out = [Event(s.slot, s.event.kind, s.event.body) for s in slots]   # keyed by slot id
    return out + [trial]


def _events(conn: Connection, session_id: str) -> list[Event]:
    rows = conn.execute(select(db.events).where(db.events.c.session_id == session_id)
                        .order_by(db.events.c.seq)).all()
    return [Event(r.seq, r.kind, r.body, r.confirmed_by, db.aware(r.created_at), r.snapshot) for r in rows]


_JOINED = db.sessions.outerjoin(db.rules, and_(db.rules.c.digest == db.sessions.c.rule_digest,
                                                db.rules.c.name == db.sessions.c.rules))


def _with_rule():
    """Sessions with their stored rule's body (``rule_body``; NULL for a session from before)."""
    return select(db.sessions, db.rules.c.body.label("rule_body")).select_from(_JOINED)


