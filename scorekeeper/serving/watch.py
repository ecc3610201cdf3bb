"""What PostgreSQL tells each server process of the games' new versions, so that the live poll
is answered from memory rather than by a round trip to the database.

Every change to a game rewrites its row, whose version the ORM counts. A trigger on the game
table (migration ``f2a6c1d8e9b3``) sends the row's new version on a channel (``NOTIFY``) from
within the transaction that writes it, which PostgreSQL delivers to every listening process
when, and only if, that transaction commits: the app's entries, ``scorekeeper prune``'s
deletes and a row changed with psql alike, at no round trip more for the entry. Each server
process listens on a connection of its own, in a thread of its own, and keeps the versions it
was told or read. A poll whose game is known is answered from there; any other reads the
database, and the version read is kept unless the game changed meanwhile.

A game's live version is its row's own and the count of its parts' changes (a club session's
tables, each entering under a row of its own), both in the game's row, which every write
rewrites: the trigger (as migration ``e8b4d2f6a1c3`` has it) tells their sum. In the process
that writes a part, the game's row it holds may be older than the database's (another table
wrote meanwhile): it forgets the game instead, and its next poll reads it once.

A part's page (a club table's phone) follows the part's version too, read with the game's; the
two are kept together, good for as long as the game's is the one known. A change that shows on
the part's page alone rewrites the part's row but not the game's: a trigger on the parts' table
(migration ``5d2f8a3c6e91``) tells that the part changed, and its versions are read again.

Under load a round trip costs a server thread more than the query: the thread gives up the
interpreter while it waits, and waits again for another thread to hand it back. The poll is
most of the requests: under 300 tables, a fifth of the time a worker's threads were busy went
on polls waiting for PostgreSQL's answer.

What memory answers is never trusted for long (``TRUSTED_FOR``), and not at all unless the
channel is known to work: the thread sends itself a notice every few seconds, and checks that
the triggers are in place; until the notice comes back, nothing is answered from memory (a
connection lost, or half-open after a network fault, or a pooler in front of PostgreSQL that
does not pass notices on), nor ever while a trigger is missing (the code served before
``flask db upgrade`` ran, which logs a warning). ``TRUNCATE game`` fires no row trigger: a
game emptied that way is read again within ``TRUSTED_FOR``.

A kept page (scorekeeper.serving.pages) is kept under the version its poll is given, and found
by it: a page drawn from the database after that version was told is that version's or newer.
Only the phone that made a change must see it at once, in whichever process its next request
lands, told yet or not: for a few seconds after a change, its browser's pages read the database
(``WROTE_LATELY``). The forms, and the pages' own contents, read the database itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import weakref
from collections.abc import Iterable
from time import monotonic, time
from typing import Any

from flask import has_request_context
from flask import session as browser_session
from sqlalchemy import Connection, Engine, event
from sqlalchemy.orm import Mapper, Session, SessionTransaction, object_session

from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES

CHANNEL = "game_version"
TRUSTED_FOR = 30.0
"""Seconds a version is answered from memory before the database is asked again."""
HEARTBEAT = 5.0
"""Seconds between two notices the thread sends itself; memory is trusted only while the
last came back less than two heartbeats ago."""
WAIT = 1.0
"""Seconds the thread waits for notices at a time: how soon it sees that it must stop."""
WROTE_LATELY = 2 * HEARTBEAT + WAIT + 4.0
"""Seconds after a browser's own change during which its pages read the database: longer than
a worker whose notices stopped coming goes on answering from memory (two heartbeats), so that
the phone that made a change never finds it missing."""
RETRY_AFTER = 1.0
"""Seconds before listening again after the connection was lost."""
KEPT_AT_MOST = 20_000
"""Past this many games known, those no longer trusted are let go."""
GONE = "gone"
"""The version a notice gives for a game removed."""
CHANGED = "changed"
"""What this process notes of a game whose live version it must read again."""
PING = "ping"
TRIGGER = "game_version_notice"
"""The trigger that sends the notices (migration ``f2a6c1d8e9b3``)."""
WROTE_AT = "wrote_at"
"""Where a browser's session notes when it last changed a game (see
scorekeeper.serving.versions.page_versions)."""
log = logging.getLogger(__name__)
WATCHES: weakref.WeakKeyDictionary[Engine, VersionWatch] = weakref.WeakKeyDictionary()


class NoticesLost(Exception):
    """The thread's own notice did not come back in time."""


class VersionWatch:
    """One server process's memory of the games' versions, kept by what PostgreSQL tells it."""

    def __init__(self, engine: Engine) -> None:
        self.engine = weakref.ref(engine)  # the engine's watch must not keep it alive
        self.lock = threading.Lock()
        self.known: dict[str, tuple[int, str, float]] = {}  # id: version, family, when learnt
        # A game's parts' versions read (a club session's tables'), each with the game's live
        # version read with it and when: good while the game's is still the one known, and
        # not for longer than any version.
        self.parts: dict[str, dict[int, tuple[int, int, float]]] = {}
        self.trusted_until = 0.0  # two heartbeats after the thread's own notice came back
        self.generation = 0  # counts the times listening began or ended
        self.pruned_at = 0.0
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
            self.trusted_until, self.known, self.parts = 0.0, {}, {}
            self.stopping = threading.Event()
            self.thread = threading.Thread(
                target=self.listen, args=(self.stopping,), name="version-watch", daemon=True
            )
            self.thread.start()

    def stop(self) -> None:
        """Stop listening (the engine is disposed). The thread ends within ``WAIT`` seconds;
        the first poll after that starts another."""
        self.stopping.set()
        self.forget_all()

    @property
    def trusted(self) -> bool:
        return monotonic() < self.trusted_until

    def version(self, game_id: str) -> tuple[int, str] | None:
        """The game's version and family, if known and trusted still."""
        entry = self.known.get(game_id)
        if entry is None or not self.trusted or monotonic() - entry[2] > TRUSTED_FOR:
            return None
        return entry[0], entry[1]

    def part_versions(self, game_id: str, part: int) -> tuple[int, int] | None:
        """The game's live version and its ``part``'s, if both are known and trusted still: the
        part's was read with the game's, and neither changed since."""
        game = self.version(game_id)
        read = self.parts.get(game_id, {}).get(part)
        if game is None or read is None or read[0] != game[0]:
            return None
        if monotonic() - read[2] > TRUSTED_FOR:
            return None
        return read[0], read[1]

    def read_token(self) -> int | None:
        """Before a read of the database: what :meth:`keep_read` must be given, ``None`` where
        what is read can't be kept (a change meanwhile might go unseen)."""
        return self.generation if self.trusted else None

    def keep_read(self, game_id: str, version: int, family: str, token: int) -> None:
        """Keep a version read from the database, unless listening stopped or began again
        since the read began, or a newer version was told meanwhile."""
        with self.lock:
            if token != self.generation or not self.trusted:
                return
            entry = self.known.get(game_id)
            if entry is None or entry[0] <= version:
                self.keep(game_id, version, family)

    def keep_part_read(
        self, game_id: str, versions: tuple[int, int], family: str, part: int, token: int
    ) -> None:
        """Keep the versions of a game and of its ``part`` read together from the database, on
        the terms of :meth:`keep_read`."""
        with self.lock:
            if token != self.generation or not self.trusted:
                return
            entry = self.known.get(game_id)
            if entry is not None and entry[0] > versions[0]:
                return
            self.keep(game_id, versions[0], family)
            self.parts.setdefault(game_id, {})[part] = (*versions, monotonic())

    def told(self, game_id: str, version: int | None, family: str) -> None:
        """A committed change, from the channel or from this process's own transaction; a
        version of ``None`` tells that the game was removed."""
        with self.lock:
            entry = self.known.get(game_id)
            if version is None:
                self.known.pop(game_id, None)
                self.parts.pop(game_id, None)
            elif entry is None or entry[0] < version:
                self.keep(game_id, version, family)

    def keep(self, game_id: str, version: int, family: str) -> None:
        now = monotonic()
        self.known[game_id] = (version, family, now)
        if len(self.known) > KEPT_AT_MOST and now - self.pruned_at > TRUSTED_FOR:
            self.pruned_at = now
            self.known = {
                known_id: known
                for known_id, known in self.known.items()
                if now - known[2] <= TRUSTED_FOR
            }
            self.parts = {
                known_id: parts for known_id, parts in self.parts.items() if known_id in self.known
            }

    def forget(self, game_id: str) -> None:
        """The game changed, to a version not told: its next poll reads the database. A read
        begun before is not kept (it may be older than the change)."""
        with self.lock:
            self.known.pop(game_id, None)
            self.parts.pop(game_id, None)
            self.generation += 1

    def forget_part(self, game_id: str, part: int) -> None:
        """One of the game's parts changed (a club table's row): its next page or poll reads
        the database."""
        with self.lock:
            self.parts.get(game_id, {}).pop(part, None)
            self.generation += 1

    def forget_all(self) -> None:
        with self.lock:
            self.trusted_until, self.known, self.parts = 0.0, {}, {}
            self.generation += 1

    def listen(self, stopping: threading.Event) -> None:
        """The watch's thread: listen, note what comes, and listen again if the connection
        is lost, until stopped."""
        while not stopping.is_set() and (engine := self.engine()) is not None:
            connection = None
            try:
                pooled = engine.raw_connection()
                pooled.detach()  # the thread's own for as long as it listens
                connection = pooled.dbapi_connection
                del engine
                self.keep_listening(connection, stopping)
            except Exception:  # the database went away: what it might have said is lost
                pass
            finally:
                self.forget_all()
                if connection is not None:
                    with contextlib.suppress(Exception):
                        connection.close()
            stopping.wait(RETRY_AFTER)

    def keep_listening(self, connection: Any, stopping: threading.Event) -> None:
        connection.rollback()  # whatever setting the connection up left open
        connection.autocommit = True
        connection.execute(f"LISTEN {CHANNEL}")
        with self.lock:
            # From here on every change is told: what was noted before, this process's own
            # commits while nothing listened, may since have been overtaken unseen.
            self.generation += 1
            self.known, self.parts = {}, {}
        mine = f"{PING} {os.getpid()} {threading.get_ident()}"  # a game's id has no space
        triggers = notice_triggers()
        heartbeat = heartbeat_query(triggers)
        sent_at, came_back, told_of_changes, warned = 0.0, True, False, False
        while not stopping.is_set():
            if monotonic() - sent_at >= HEARTBEAT:
                if not came_back:
                    raise NoticesLost
                _sent, *in_place = connection.execute(heartbeat, (CHANNEL, mine)).fetchone()
                told_of_changes = all(in_place)
                if not told_of_changes and not warned:
                    warned = True
                    for (trigger, table), there in zip(triggers, in_place, strict=True):
                        if not there:
                            log.warning(
                                "There is no %s trigger on the %s table (run `flask db "
                                "upgrade`): every live poll reads the database.",
                                trigger,
                                table,
                            )
                sent_at, came_back = monotonic(), False
            for notice in connection.notifies(timeout=WAIT):
                if notice.payload == mine:
                    came_back = True
                    with self.lock:
                        if told_of_changes and not stopping.is_set():
                            self.trusted_until = monotonic() + 2 * HEARTBEAT
                elif not notice.payload.startswith(f"{PING} "):
                    self.heard(notice.payload)

    def heard(self, payload: str) -> None:
        game_id, version, family = payload.split(" ", 2)
        known = FAMILIES.get(family)
        if known is None:
            return
        if version == GONE:
            self.told(game_id, None, family)
        elif version.startswith("part") and version[4:].isdecimal():
            self.forget_part(game_id, int(version[4:]))
        elif version.isdecimal():
            self.told(game_id, int(version), family)
        else:  # a notice as a trigger of an older revision sent it
            self.forget(game_id)


def notice_triggers() -> list[tuple[str, str]]:
    """The triggers that tell of the games' changes, and their tables: the game table's, and
    those of the rows a family's parts' pages follow (migration ``5d2f8a3c6e91``)."""
    return [(TRIGGER, "game")] + [
        (f"{family.parts.__tablename__}_version_notice", family.parts.__tablename__)
        for family in FAMILIES.values()
        if family.parts is not None
    ]


def heartbeat_query(triggers: list[tuple[str, str]]) -> str:
    """The thread's own notice, and whether the database sends the games' notices at all: not
    before ``flask db upgrade`` has put each trigger in place."""
    in_place = (
        f"EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = '{trigger}'"
        f" AND tgrelid = to_regclass('{table}') AND tgenabled <> 'D')"
        for trigger, table in triggers
    )
    return f"SELECT pg_notify(%s, %s), {', '.join(in_place)}"


@event.listens_for(Game, "after_update", propagate=True)
def note_change(_mapper: Mapper[Any], connection: Connection, game: Game) -> None:
    """The game's row was rewritten with a new version: the database's trigger tells every
    process when it commits; this one is told at once (:func:`tell_this_process`)."""
    known = FAMILIES.get(game.family)
    # The count of its parts' changes this process holds may be older than the database's.
    has_parts = known is not None and known.parts is not None
    note(connection, game, game.id, game.family, CHANGED if has_parts else game.live_version)


@event.listens_for(Game, "after_delete", propagate=True)
def note_removal(_mapper: Mapper[Any], connection: Connection, game: Game) -> None:
    note(connection, game, game.id, game.family, None)


@event.listens_for(Mapper, "after_update")
@event.listens_for(Mapper, "after_delete")
def note_other_row(_mapper: Mapper[Any], connection: Connection, row: Any) -> None:
    """A game's part (a club table) was written, and the game's count of them with it: the
    game's live version is read again after the commit."""
    for family in FAMILIES.values():
        if family.parts is not None and isinstance(row, family.parts):
            note(connection, row, row.game_id, family.key, CHANGED)


def note(connection: Connection, row: Any, game_id: str, family: str, version: object) -> None:
    watch = WATCHES.get(connection.engine)
    if watch is None or family not in FAMILIES:
        return
    session = object_session(row)
    if session is not None:
        session.info.setdefault("versions_told", []).append((watch, game_id, version, family))


def note_counted_elsewhere(session: Session, game_ids: Iterable[str], family: str) -> None:
    """Games whose count of their parts' changes an update wrote with another game's change
    (a field's other sections, whose pages show its results): their live versions are read
    again after the commit, as a part's change has them read."""
    bind = session.get_bind()
    watch = WATCHES.get(bind if isinstance(bind, Engine) else bind.engine)
    if watch is None or family not in FAMILIES:
        return
    told = session.info.setdefault("versions_told", [])
    told.extend((watch, game_id, CHANGED, family) for game_id in game_ids)


def note_change_by_this_browser() -> None:
    """This request committed a change to a game (see :data:`WROTE_AT`)."""
    if has_request_context():
        browser_session[WROTE_AT] = round(time(), 3)


@event.listens_for(Session, "after_commit")
def tell_this_process(session: Session) -> None:
    """This process knows at once what it committed: its next poll must not answer older. The
    browser that asked for the change is noted: another process may not have been told yet
    when its next page is asked for there (see scorekeeper.serving.versions.page_versions)."""
    told = session.info.pop("versions_told", ())
    if told:
        note_change_by_this_browser()
    for watch, game_id, version, family in told:
        if version == CHANGED:
            watch.forget(game_id)
        else:
            watch.told(game_id, version, family)


@event.listens_for(Session, "after_transaction_end")
def nothing_more_to_tell(session: Session, transaction: SessionTransaction) -> None:
    """What a transaction rolled back or closed without committing wrote is never told."""
    if transaction.parent is None:
        session.info.pop("versions_told", None)
