"""What PostgreSQL tells each server process of the games' new versions, so that the live poll
is answered from memory rather than by a round trip to the database.

Every change to a game rewrites its row, whose version the ORM counts; the transaction that
writes it also sends the new version on a channel (``NOTIFY``), which PostgreSQL delivers to
every listening process when, and only if, the transaction commits. Each server process
listens on a connection of its own, in a thread of its own, and keeps the versions it was told
or read. A poll whose game is known is answered from there; any other reads the database,
and the version read is kept unless the game changed meanwhile.

Under load a round trip costs a server thread more than the query: the thread gives up the
interpreter while it waits, and waits again for another thread to hand it back. The poll is
most of the requests, so on PostgreSQL that waiting was most of the time its threads held.

What memory answers is never trusted for long (``TRUSTED_FOR``), and not at all while the
listening connection is down: a change the watch could not be told of (a game removed by
``scorekeeper prune``, a notice lost while the database restarted) is read again soon. The
round pages and the forms read the database itself: a page kept under a version must be the
page of that version, in whichever process the phone's request lands.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from time import monotonic
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import Mapper, Session, object_session

from scorekeeper.games.models import Game

CHANNEL = "game_version"
TRUSTED_FOR = 30.0
"""Seconds a version is answered from memory before the database is asked again."""
RETRY_AFTER = 1.0
"""Seconds between two attempts to listen again after the connection was lost."""
KEPT_AT_MOST = 20_000
"""Past this many games known, those no longer trusted are let go."""
WATCHES: weakref.WeakKeyDictionary[Engine, VersionWatch] = weakref.WeakKeyDictionary()


class VersionWatch:
    """One server process's memory of the games' versions, kept by what PostgreSQL tells it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.lock = threading.Lock()
        self.known: dict[str, tuple[int, str, float]] = {}  # id: version, family, when learnt
        self.listening = False
        self.generation = 0  # counts the times listening began or ended
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.pid = 0
        WATCHES[engine] = self

    def start(self) -> None:
        """Listen, from this process, unless it already does (a forked worker starts its own)."""
        if self.pid == os.getpid() and self.thread is not None and self.thread.is_alive():
            return
        with self.lock:
            if self.pid == os.getpid() and self.thread is not None and self.thread.is_alive():
                return
            self.pid = os.getpid()
            self.listening, self.known = False, {}
            self.stopping = threading.Event()
            self.thread = threading.Thread(
                target=self.listen, args=(self.stopping,), name="version-watch", daemon=True
            )
            self.thread.start()

    def stop(self) -> None:
        """Stop listening (the engine is disposed); the next poll starts again."""
        self.stopping.set()
        self.forget_all()

    def version(self, game_id: str) -> tuple[int, str] | None:
        """The game's version and family, if known and trusted still."""
        entry = self.known.get(game_id)
        if entry is None or not self.listening or monotonic() - entry[2] > TRUSTED_FOR:
            return None
        return entry[0], entry[1]

    def reading(self) -> int | None:
        """Before a read of the database: what :meth:`read` must be given, ``None`` where what
        is read can't be kept (nothing listens, so a change meanwhile would go unseen)."""
        return self.generation if self.listening else None

    def read(self, game_id: str, version: int, family: str, reading: int) -> None:
        """Keep a version read from the database, unless listening stopped or began again
        since the read began, or a newer version was told meanwhile."""
        with self.lock:
            if reading != self.generation or not self.listening:
                return
            entry = self.known.get(game_id)
            if entry is None or entry[0] <= version:
                self.keep(game_id, version, family)

    def told(self, game_id: str, version: int | None, family: str) -> None:
        """A committed change, from the channel or from this process's own transaction; a
        version of ``None`` tells that the game was removed."""
        with self.lock:
            entry = self.known.get(game_id)
            if version is None:
                self.known.pop(game_id, None)
            elif self.listening and (entry is None or entry[0] < version):
                self.keep(game_id, version, family)

    def keep(self, game_id: str, version: int, family: str) -> None:
        now = monotonic()
        self.known[game_id] = (version, family, now)
        if len(self.known) > KEPT_AT_MOST:
            self.known = {
                known_id: known
                for known_id, known in self.known.items()
                if now - known[2] <= TRUSTED_FOR
            }

    def forget_all(self) -> None:
        with self.lock:
            self.listening, self.known = False, {}
            self.generation += 1

    def listen(self, stopping: threading.Event) -> None:
        """The watch's thread: listen, note what comes, and listen again if the connection
        is lost, until stopped."""
        while not stopping.is_set():
            connection = None
            try:
                pooled = self.engine.raw_connection()
                pooled.detach()  # the thread's own for as long as it listens
                connection = pooled.dbapi_connection
                self.engine.dialect.set_isolation_level(connection, "AUTOCOMMIT")
                connection.execute(f"LISTEN {CHANNEL}")
                with self.lock:
                    self.generation += 1
                    self.listening = not stopping.is_set()
                while not stopping.is_set():
                    for notice in connection.notifies(timeout=RETRY_AFTER):
                        self.heard(notice.payload)
            except Exception:  # the database went away: what it might have said is lost
                pass
            finally:
                self.forget_all()
                if connection is not None:
                    with contextlib.suppress(Exception):
                        connection.close()
            stopping.wait(RETRY_AFTER)

    def heard(self, payload: str) -> None:
        game_id, version, family = payload.split(" ", 2)
        self.told(game_id, None if version == GONE else int(version), family)


GONE = "gone"


@event.listens_for(Game, "after_update", propagate=True)
def announce_change(_mapper: Mapper[Any], connection: Connection, game: Game) -> None:
    """The game's row was rewritten with a new version: tell every process, if it commits."""
    announce(connection, game, game.version)


@event.listens_for(Game, "after_delete", propagate=True)
def announce_removal(_mapper: Mapper[Any], connection: Connection, game: Game) -> None:
    announce(connection, game, None)


def announce(connection: Connection, game: Game, version: int | None) -> None:
    watch = WATCHES.get(connection.engine)
    if watch is None:
        return
    payload = f"{game.id} {GONE if version is None else version} {game.family}"
    connection.exec_driver_sql("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
    session = object_session(game)
    if session is not None:
        session.info.setdefault("versions_told", []).append((watch, game.id, version, game.family))


@event.listens_for(Session, "after_commit")
def tell_this_process(session: Session) -> None:
    """This process knows at once what it committed: its next poll must not answer older."""
    for watch, game_id, version, family in session.info.pop("versions_told", ()):
        watch.told(game_id, version, family)


@event.listens_for(Session, "after_rollback")
def nothing_to_tell(session: Session) -> None:
    session.info.pop("versions_told", None)
