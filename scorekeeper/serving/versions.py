"""A game's version, read on every request without the ORM: the live poll's, and the one a kept
page is kept under."""

from __future__ import annotations

import contextlib
import os
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from time import time
from typing import Any

from flask import Flask, current_app, session
from sqlalchemy import Engine, QueuePool, Select, bindparam, event, select

from scorekeeper.extensions import db
from scorekeeper.games.lookup import GAME_ID
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES
from scorekeeper.serving.watch import WROTE_AT, WROTE_LATELY, VersionWatch

STATE = select(Game.version + Game.parts_version, Game.family).where(
    Game.id == bindparam("game_id")
)
"""A game's live version (its row's and its parts' changes, see Game.live_version)."""


PART_NUMBERS = range(2**31)
"""The numbers a game's part may have (a club table's): what a database's integer holds. An
address naming another (400 digits) names no part."""


def stored_version(game_id: str, family: str, part: int | None = None) -> int | None:
    """The version of the game of this family, as the database has it now, or that of one of
    its ``part``s (see :func:`part_state`); ``None`` if there is no such game or part."""
    if part is not None and part not in PART_NUMBERS:
        return None
    reads: VersionReads = current_app.extensions["version_reads"]
    return reads.version(game_id, family, part)


def page_versions(
    game_id: str, family: str, part: int | None = None
) -> tuple[int, int | None] | None:
    """The versions a kept page of the game is kept under: the game's, and that of its
    ``part`` where the page is a part's (else ``None``); ``None`` if there is no such game or
    part.

    They are what a poll is given (:meth:`VersionReads.polled_version`): on PostgreSQL, what
    the server process was told, and so may be a moment older than the database's, which the
    page's own poll then finds. Not for a browser that changed the game lately: its change,
    committed by another process, may not have been told to this one yet, and its phone must
    see it at once."""
    if part is not None and part not in PART_NUMBERS:
        return None
    reads: VersionReads = current_app.extensions["version_reads"]
    lately = reads.watch is not None and time() - session.get(WROTE_AT, 0.0) < WROTE_LATELY
    if part is not None:
        return (reads.versions if lately else reads.polled_versions)(game_id, family, part)
    version = (reads.version if lately else reads.polled_version)(game_id, family)
    return None if version is None else (version, None)


PART_STATES: dict[type[Any], Select[int, int, str]] = {}


def part_state(parts: type[Any]) -> Select[int, int, str]:
    """The game's live version, then the version a page of one of its parts follows (a club
    table's phone): the game row's own, which counts the changes of the whole game (a
    director's), and the part's row's, which counts the part's own (the table's entries); not
    the other parts'."""
    query = PART_STATES.get(parts)
    if query is None:
        query = PART_STATES[parts] = (
            select(Game.version + Game.parts_version, Game.version + parts.version, Game.family)
            .join(parts, parts.game_id == Game.id)
            .where(Game.id == bindparam("game_id"), parts.number == bindparam("part"))
        )
    return query


def init_app(app: Flask) -> None:
    with app.app_context():
        app.extensions["version_reads"] = VersionReads(db.engine)


class DatabaseWentAway(Exception):
    """The connection was closed under the read (the database restarted)."""


class VersionReads:
    """The version read, most of a server's traffic (five phones a table ask every few
    seconds): one statement, compiled once and handed to the driver as it is, outside any
    transaction, on a connection each server thread keeps for it.

    On PostgreSQL a transaction costs two round trips more than the query (BEGIN, and ROLLBACK
    when the connection goes back to the pool), SQLAlchemy's result objects cost more than the
    query itself, and taking a connection from the pool and giving it back costs as much as the
    query again. A thread's connection is closed by that thread, never under its feet by
    another: when the engine is disposed each thread opens a new one at its next read; when
    the thread ends, its connection goes with it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.statements: dict[Select[*tuple[Any, ...]], Any] = {}
        # Only a pool of many connections can spare one to each thread: SQLite in memory has
        # one connection, and a thread's own would be the ORM's.
        self.keeps_connections = isinstance(engine.pool, QueuePool)
        self.mine = threading.local()
        self.generation = 0
        self.watch = VersionWatch(engine) if engine.dialect.name == "postgresql" else None
        event.listen(engine, "engine_disposed", self.renew)

    def polled_version(self, game_id: str, family: str, part: int | None = None) -> int | None:
        """The version a live poll is given: on PostgreSQL, what the server process was told
        (:mod:`scorekeeper.serving.watch`) where it knows the game (or part), else the
        database's."""
        if part is not None:
            both = self.polled_versions(game_id, family, part)
            return None if both is None else both[1]
        if self.watch is None:
            return self.version(game_id, family)
        self.watch.start()
        told = self.watch.version(game_id)
        version: int | None
        if told is not None:
            version, its_family = told
            return version if its_family == family else None
        token = self.watch.read_token()
        version = self.version(game_id, family)
        if version is not None and token is not None:
            self.watch.keep_read(game_id, version, family, token)
        return version

    def polled_versions(self, game_id: str, family: str, part: int) -> tuple[int, int] | None:
        """The versions of the game and of its ``part`` (see :meth:`versions`) as a poll is
        given them: from what the server process was told, where it knows both."""
        if self.watch is None:
            return self.versions(game_id, family, part)
        self.watch.start()
        told = self.watch.version(game_id)
        if told is not None and told[1] != family:
            return None
        both = self.watch.part_versions(game_id, part)
        if both is not None:
            return both
        token = self.watch.read_token()
        both = self.versions(game_id, family, part)
        if both is not None and token is not None:
            self.watch.keep_part_read(game_id, both, family, part, token)
        return both

    def version(self, game_id: str, family: str, part: int | None = None) -> int | None:
        """The version of the game of this family, or of its ``part``; ``None`` if there is no
        such game or part."""
        if part is not None:
            both = self.versions(game_id, family, part)
            return None if both is None else both[1]
        if FAMILIES.get(family) is None or not GAME_ID.fullmatch(game_id):
            return None
        row = self.row(STATE, {"game_id": game_id})
        return int(row[0]) if row is not None and row[1] == family else None

    def versions(self, game_id: str, family: str, part: int) -> tuple[int, int] | None:
        """The game's live version (see :data:`STATE`) and its ``part``'s (see
        :func:`part_state`), in that order; ``None`` if there is no such game or part."""
        known = FAMILIES.get(family)
        if known is None or known.parts is None or not GAME_ID.fullmatch(game_id):
            return None
        row = self.row(part_state(known.parts), {"game_id": game_id, "part": part})
        if row is None or row[2] != family:
            return None
        return int(row[0]), int(row[1])

    def row(self, query: Select[*tuple[Any, ...]], values: dict[str, Any]) -> Sequence[Any] | None:
        compiled = self.statements.get(query)
        if compiled is None:
            compiled = self.statements[query] = query.compile(dialect=self.engine.dialect)
        named = compiled.construct_params(values)
        positions = compiled.positiontup
        parameters = tuple(named[name] for name in positions) if positions else named
        if not self.keeps_connections:
            with self.engine.connect() as connection:
                return connection.exec_driver_sql(compiled.string, parameters).first()
        try:
            return self.read(compiled.string, parameters)
        except DatabaseWentAway:
            # The database restarted: the pool's connections are gone too, new ones answer.
            self.engine.dispose(close=False)
            return self.read(compiled.string, parameters)

    def read(self, statement: str, parameters: Any) -> Sequence[Any] | None:
        dialect = self.engine.dialect
        held = None
        try:
            held = self.connection()
            if dialect.name == "postgresql":
                return held.prepared_read(statement, parameters)
            cursor = held.dbapi_connection.cursor()
            try:
                cursor.execute(statement, parameters)
                return cursor.fetchone()  # type: ignore[no-any-return]
            finally:
                cursor.close()
        except dialect.loaded_dbapi.Error as error:
            connection = held.dbapi_connection if held is not None else None
            gone = dialect.is_disconnect(error, connection, None) or (
                held is not None and held.broken()
            )
            self.forget()  # a connection in doubt serves no more reads
            if gone:
                raise DatabaseWentAway from error
            raise

    def connection(self) -> ThreadsConnection:
        """This thread's connection, opened through the pool (whose events set it up)."""
        held: ThreadsConnection | None = getattr(self.mine, "held", None)
        if held is not None:
            if held.generation == self.generation and held.pid == os.getpid():
                return held
            self.forget()
        generation = self.generation  # before opening: a dispose meanwhile makes it old
        pooled = self.engine.raw_connection()
        pooled.detach()
        assert pooled.dbapi_connection is not None  # just opened
        try:
            self.engine.dialect.set_isolation_level(pooled.dbapi_connection, "AUTOCOMMIT")
        except Exception:
            close_in_its_process(pooled.dbapi_connection, os.getpid())
            raise
        held = ThreadsConnection(pooled.dbapi_connection, generation, os.getpid())
        # When the thread ends, its connection is closed (the finalizer must not hold `held`).
        closer = weakref.finalize(held, close_in_its_process, held.dbapi_connection, held.pid)
        closer.atexit = False
        self.mine.held = held
        return held

    def forget(self) -> None:
        """Close this thread's connection."""
        held: ThreadsConnection | None = getattr(self.mine, "held", None)
        self.mine.held = None
        if held is not None:
            close_in_its_process(held.dbapi_connection, held.pid)

    def renew(self, _engine: Engine | None = None) -> None:
        """The engine is disposed (the database restarted, or a test ends): this thread's
        connection is closed now, every other thread's at its next read."""
        self.generation += 1
        self.forget()
        if self.watch is not None:
            self.watch.stop()


@dataclass(frozen=True)
class ThreadsConnection:
    dbapi_connection: Any
    generation: int
    pid: int
    prepared: dict[str, tuple[bytes, tuple[str, ...]]] = field(default_factory=dict)
    """On PostgreSQL, the statements prepared on the connection: each one's name, and the
    names of its parameters in order."""

    def prepared_read(self, statement: str, parameters: dict[str, str]) -> tuple[Any, ...] | None:
        """The first row of ``statement`` (in the driver's ``%(name)s`` style) on PostgreSQL,
        through libpq itself: prepared once on the connection, then each read one call that
        gives up the interpreter while it waits. Psycopg's cursor spent more of the server's
        time on a read (the statement and its parameters adapted, the result converted) than
        libpq and the round trip did."""
        from psycopg import OperationalError, pq

        pgconn = self.dbapi_connection.pgconn
        known = self.prepared.get(statement)
        if known is None:
            names: list[str] = []

            def numbered(found: re.Match[str]) -> str:
                if found[1] not in names:
                    names.append(found[1])
                return f"${names.index(found[1]) + 1}"

            text = PYFORMAT.sub(numbered, statement).replace("%%", "%")
            known = (f"scorekeeper_{len(self.prepared)}".encode(), tuple(names))
            answer = pgconn.prepare(known[0], text.encode())
            if answer.status != pq.ExecStatus.COMMAND_OK:
                raise OperationalError(pgconn.get_error_message())
            self.prepared[statement] = known
        name, order = known
        answer = pgconn.exec_prepared(name, [str(parameters[key]).encode() for key in order])
        if answer.status != pq.ExecStatus.TUPLES_OK:
            raise OperationalError(pgconn.get_error_message())
        if not answer.ntuples:
            return None
        # Text values: versions, integers, and the family, a word.
        return tuple(
            None if value is None else value.decode()
            for value in (answer.get_value(0, column) for column in range(answer.nfields))
        )

    def broken(self) -> bool:
        """Whether a PostgreSQL connection was lost (libpq saw it, psycopg may not have)."""
        pgconn = getattr(self.dbapi_connection, "pgconn", None)
        return pgconn is not None and pgconn.status != 0  # CONNECTION_OK


PYFORMAT = re.compile(r"%\((\w+)\)s")


def close_in_its_process(dbapi_connection: Any, pid: int) -> None:
    # A forked server shares its parent's socket: closing it there would end the parent's.
    if os.getpid() == pid:
        with contextlib.suppress(Exception):
            dbapi_connection.close()
