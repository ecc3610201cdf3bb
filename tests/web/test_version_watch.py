"""On PostgreSQL, each server process is told of the games' new versions and answers the live
poll from memory (scorekeeper.serving.watch): never older than what it committed itself,
soon after another process commits, and from the database whenever it can't be sure."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator

import psycopg
import pytest
from flask import Flask
from flask_migrate import downgrade, upgrade

from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.serving import versions
from scorekeeper.serving import watch as version_watch
from scorekeeper.serving.versions import VersionReads
from scorekeeper.serving.watch import VersionWatch
from tests.conftest import app_on
from tests.postgres import PostgresServer
from tests.web.table import TOKEN, Table, text
from tests.web.test_club import CONFIRM, CONFIRMED_FROM, SMALL, Club
from tests.web.test_sharing import StatementLog

DATA_VERSION = re.compile(r'data-version="(\d+)"')
CLOSE_VERSION = re.compile(
    r'action="[^"]+/close".*?name="drawn_from" type="hidden" value="(\d+)"', re.S
)


def soon(condition: Callable[[], object], seconds: float = 10.0) -> None:
    """Wait for what another thread or process does, failing if it never comes."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "it never came"
        time.sleep(0.01)


def reads_of(app: Flask) -> VersionReads:
    reads: VersionReads = app.extensions["version_reads"]
    return reads


def listening(app: Flask) -> Callable[[], bool]:
    def check() -> bool:
        watch = reads_of(app).watch
        return watch is not None and watch.trusted

    return check


def knowing(app: Flask, table: Table) -> tuple[VersionWatch, int]:
    """The app's watch once it answers the table's game from memory, and the game's version."""
    started = version_of(app, table.game_url)
    soon(listening(app))
    version_of(app, table.game_url)  # read once more, now kept
    watch = reads_of(app).watch
    game_id = table.game_url.rsplit("/", 1)[1]
    assert watch is not None and watch.version(game_id) == (started, "ascenseur")
    return watch, started


@pytest.fixture
def two_servers(
    postgres: PostgresServer, migrated_template: str
) -> Iterator[tuple[Flask, Flask, Table, StatementLog]]:
    """Two server processes' apps on one PostgreSQL database (each with its own engine and its
    own watch), a game started through the first, and the database's statement log."""
    name = postgres.create_database(migrated_template)
    log = StatementLog(postgres, name)
    for first in app_on(postgres.url(name), TESTING=True):
        for second in app_on(postgres.url(name), TESTING=True):
            table = Table(first.test_client())
            table.start("ascenseur", ("Anne", "Bruno", "Chloé", "Denis"))
            yield first, second, table, log


def version_of(client_app: Flask, game_url: str) -> int:
    answer = client_app.test_client().get(f"{game_url}/version")
    assert answer.status_code == 200
    version: int = answer.json["version"]  # type: ignore[index]
    return version


def test_a_known_game_is_polled_without_asking_the_database(
    two_servers: tuple[Flask, Flask, Table, StatementLog],
) -> None:
    first, _second, table, log = two_servers
    poll = f"{table.game_url}/version"
    started = table.client.get(poll).json  # starts the watch
    soon(listening(first))
    log.mark()
    assert table.client.get(poll).json == started  # read once more, and kept
    for _poll in range(3):
        assert table.client.get(poll).json == started
    statements = log.since_mark()
    assert len(statements) == 1 and statements[0].startswith("SELECT game.version"), statements


def test_a_process_polls_at_once_what_it_committed_and_another_soon_after(
    two_servers: tuple[Flask, Flask, Table, StatementLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second, table, log = two_servers
    started = version_of(first, table.game_url)
    for app in (first, second):
        version_of(app, table.game_url)
        soon(listening(app))
        assert version_of(app, table.game_url) == started
    # The first process's own notice would come back to it too, a moment later: not heeded
    # here, what it polls at once is what its commit told it.
    monkeypatch.setattr(reads_of(first).watch, "heard", lambda _payload: None)
    table.bids(1, (1, 0, 0, 1))
    log.mark()
    assert version_of(first, table.game_url) == started + 1  # it knows what it committed
    assert log.since_mark() == []
    watch = reads_of(second).watch
    assert watch is not None
    soon(lambda: watch.version(table.game_url.rsplit("/", 1)[1]) == (started + 1, "ascenseur"))
    assert version_of(second, table.game_url) == started + 1
    assert log.since_mark() == [], "the other process was told, and asked nothing"


def test_every_change_to_a_game_is_told_if_and_when_it_commits(
    two_servers: tuple[Flask, Flask, Table, StatementLog],
) -> None:
    """The database's trigger sends the notice from within the transaction that changes the
    row, the app's or any other (psql, prune): delivered on commit, never on rollback."""
    first, second, table, _log = two_servers
    game_id = table.game_url.rsplit("/", 1)[1]
    watch, started = knowing(second, table)
    url = first.config["SQLALCHEMY_DATABASE_URI"].replace("+psycopg", "")
    with psycopg.connect(url) as elsewhere:
        elsewhere.execute("UPDATE game SET version = version + 5 WHERE id = %s", (game_id,))
        elsewhere.rollback()
        elsewhere.execute("UPDATE game SET version = version + 1 WHERE id = %s", (game_id,))
        elsewhere.commit()
        # The rolled back version, higher, would have been kept over the committed one.
        soon(lambda: watch.version(game_id) == (started + 1, "ascenseur"))
        assert table.bids(1, (1, 0, 0, 1)).status_code == 302
        soon(lambda: watch.version(game_id) == (started + 2, "ascenseur"))
        elsewhere.execute("DELETE FROM game WHERE id = %s", (game_id,))
        elsewhere.commit()
    soon(lambda: watch.version(game_id) is None)
    assert second.test_client().get(f"{table.game_url}/version").status_code == 404


def test_when_the_database_restarts_nothing_is_answered_from_memory_until_told_again(
    two_servers: tuple[Flask, Flask, Table, StatementLog], postgres: PostgresServer
) -> None:
    first, second, table, _log = two_servers
    game_id = table.game_url.rsplit("/", 1)[1]
    watch, started = knowing(second, table)
    database = first.config["SQLALCHEMY_DATABASE_URI"].rsplit("/", 1)[1]
    with psycopg.connect(postgres.url("postgres").replace("+psycopg", "")) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
            (database,),
        )
    soon(lambda: watch.version(game_id) is None)  # the notices it may have missed
    # While it listens again, a change made elsewhere is read from the database.
    with psycopg.connect(first.config["SQLALCHEMY_DATABASE_URI"].replace("+psycopg", "")) as db_:
        db_.execute("UPDATE game SET version = version + 1 WHERE id = %s", (game_id,))
    assert version_of(second, table.game_url) == started + 1
    # The poll that found the database gone let the engine go, and the watch with it: the
    # next poll starts it again.
    soon(lambda: version_of(second, table.game_url) and listening(second)())
    with first.app_context():
        db.engine.dispose()  # as the first read after a restart does
    assert table.bids(1, (1, 0, 0, 1)).status_code == 302  # told to the second
    soon(lambda: watch.version(game_id) == (started + 2, "ascenseur"))
    assert version_of(second, table.game_url) == started + 2


def test_what_it_was_not_told_is_read_again_soon(
    two_servers: tuple[Flask, Flask, Table, StatementLog], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change whose notice was lost is read again once what memory holds is no longer
    trusted."""
    first, _second, table, _log = two_servers
    monkeypatch.setattr(version_watch, "TRUSTED_FOR", 0.3)
    started = version_of(first, table.game_url)
    soon(listening(first))
    assert version_of(first, table.game_url) == started
    monkeypatch.setattr(reads_of(first).watch, "heard", lambda _payload: None)
    with first.app_context():
        db.session.execute(db.text("DELETE FROM game"))
        db.session.commit()
    soon(lambda: first.test_client().get(f"{table.game_url}/version").status_code == 404, 5)


def test_a_poll_at_another_familys_address_is_not_answered_from_memory(
    two_servers: tuple[Flask, Flask, Table, StatementLog],
) -> None:
    first, _second, table, _log = two_servers
    version_of(first, table.game_url)
    soon(listening(first))
    version_of(first, table.game_url)
    elsewhere = f"{table.game_url}/version".replace("/ascenseur/", "/bridge/")
    assert first.test_client().get(elsewhere).status_code == 404


def test_sqlite_has_no_watch(app: Flask) -> None:
    is_postgresql = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    assert (reads_of(app).watch is not None) == is_postgresql


class Listening:
    """A watch whose thread is not started: its memory alone, listening or not."""

    def __init__(self) -> None:
        self.engine = type("Engine", (), {})()
        self.watch = VersionWatch(self.engine)  # type: ignore[arg-type]
        self.watch.trusted_until = float("inf")


def test_a_read_older_than_a_notice_does_not_replace_it() -> None:
    watch = Listening().watch
    token = watch.read_token()
    assert token is not None
    watch.told("g", 5, "ascenseur")  # committed while the read was under way
    watch.keep_read("g", 4, "ascenseur", token)
    assert watch.version("g") == (5, "ascenseur")
    watch.keep_read("g", 6, "ascenseur", token)
    assert watch.version("g") == (6, "ascenseur")
    watch.told("g", 6, "ascenseur")
    watch.told("g", 5, "ascenseur")  # a notice that came late
    assert watch.version("g") == (6, "ascenseur")


def test_a_club_sessions_notices_tell_its_version_as_any_games() -> None:
    """A club session's version is its row's and its tables' changes, both in its row: its
    notice tells it. A notice that says only that it changed (as a trigger of an older
    revision sent it) makes the process forget it, and no read begun before is kept."""
    watch = Listening().watch
    watch.heard("g 4 ascenseur")
    watch.told("h", 9, "club")
    watch.heard("h 12 club")
    assert watch.version("g") == (4, "ascenseur") and watch.version("h") == (12, "club")
    token = watch.read_token()
    assert token is not None
    watch.heard("h changed club")
    assert "h" not in watch.known
    watch.keep_read("h", 12, "club", token)  # read before the change
    assert watch.version("h") is None
    token = watch.read_token()
    assert token is not None
    watch.keep_read("h", 13, "club", token)
    assert watch.version("h") == (13, "club")
    watch.heard("h gone club")
    assert watch.version("h") is None
    watch.heard("g gone ascenseur")
    assert watch.version("g") is None


def test_a_read_begun_before_listening_began_again_is_not_kept() -> None:
    watch = Listening().watch
    token = watch.read_token()
    assert token is not None
    watch.forget_all()  # the connection was lost: notices may have been missed
    watch.keep_read("g", 4, "ascenseur", token)
    assert watch.version("g") is None
    assert watch.read_token() is None  # nothing listens: nothing read is kept
    watch.told("g", 4, "ascenseur")
    assert watch.version("g") is None


def test_a_version_is_trusted_for_a_while_only(monkeypatch: pytest.MonkeyPatch) -> None:
    watch = Listening().watch
    now = [1000.0]
    monkeypatch.setattr(version_watch, "monotonic", lambda: now[0])
    watch.told("g", 4, "ascenseur")
    now[0] += version_watch.TRUSTED_FOR - 0.1
    assert watch.version("g") == (4, "ascenseur")
    now[0] += 0.2
    assert watch.version("g") is None


def test_a_tables_versions_are_kept_with_its_sessions_and_not_for_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A club table's versions, read with its session's, are good while the session's is the
    one known and the table was told of no change; and, as any version, for a while only, even
    while the session's is read again unchanged."""
    watch = Listening().watch
    now = [1000.0]
    monkeypatch.setattr(version_watch, "monotonic", lambda: now[0])

    def read(versions: tuple[int, int], part: int = 2) -> None:
        token = watch.read_token()
        assert token is not None
        watch.keep_part_read("h", versions, "club", part, token)

    read((7, 3))
    read((7, 5), part=3)
    assert watch.part_versions("h", 2) == (7, 3) and watch.version("h") == (7, "club")
    watch.heard("h part2 club")  # East-West's tick at table 2
    assert watch.part_versions("h", 2) is None and watch.part_versions("h", 3) == (7, 5)
    read((7, 4))
    watch.heard("h 8 club")  # another table's entry
    assert watch.part_versions("h", 2) is None and watch.version("h") == (8, "club")
    read((8, 4))
    now[0] += version_watch.TRUSTED_FOR - 1
    token = watch.read_token()
    assert token is not None
    watch.keep_read("h", 8, "club", token)  # the session's poll, read again unchanged
    assert watch.part_versions("h", 2) == (8, 4)
    now[0] += 2
    assert watch.version("h") == (8, "club") and watch.part_versions("h", 2) is None
    watch.heard("h part²1 club")  # nothing this code sends: the session is read again
    assert watch.version("h") is None


def test_a_game_removed_by_the_app_is_forgotten_by_every_process(
    two_servers: tuple[Flask, Flask, Table, StatementLog],
) -> None:
    first, second, table, _log = two_servers
    game_id = table.game_url.rsplit("/", 1)[1]
    watch, _started = knowing(second, table)
    with first.app_context():
        db.session.delete(db.session.get(Game, game_id))
        db.session.commit()
    soon(lambda: watch.version(game_id) is None)
    assert second.test_client().get(f"{table.game_url}/version").status_code == 404


def test_past_so_many_games_those_no_longer_trusted_are_let_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watch = Listening().watch
    now = [1000.0]
    monkeypatch.setattr(version_watch, "monotonic", lambda: now[0])
    monkeypatch.setattr(version_watch, "KEPT_AT_MOST", 4)
    for number in range(3):
        watch.told(f"old{number}", 1, "ascenseur")
    now[0] += version_watch.TRUSTED_FOR + 1
    watch.told("new0", 1, "ascenseur")
    assert set(watch.known) == {"old0", "old1", "old2", "new0"}
    token = watch.read_token()
    assert token is not None
    watch.keep_read("new1", 1, "ascenseur", token)
    assert set(watch.known) == {"new0", "new1"}


def test_memory_is_trusted_only_while_the_watchs_own_notice_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    watch = Listening().watch
    now = [1000.0]
    monkeypatch.setattr(version_watch, "monotonic", lambda: now[0])
    watch.trusted_until = now[0] + 2 * version_watch.HEARTBEAT
    watch.told("g", 4, "ascenseur")
    assert watch.version("g") == (4, "ascenseur")
    now[0] += 2 * version_watch.HEARTBEAT + 0.1  # the last notice came back too long ago
    assert watch.version("g") is None and watch.read_token() is None


@pytest.mark.parametrize(
    ("trigger", "table_name", "revision"),
    [
        ("game_version_notice", "game", "d1c2b3a4e5f6"),
        ("club_table_version_notice", "club_table", "6b1e9f4d2c83"),
    ],
)
def test_without_a_trigger_nothing_is_answered_from_memory(
    two_servers: tuple[Flask, Flask, Table, StatementLog],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    trigger: str,
    table_name: str,
    revision: str,
) -> None:
    """The code served before ``flask db upgrade`` put a trigger in place: its notices would
    never come, so every poll reads the database, and the log says why."""
    first, _second, table, _log = two_servers
    monkeypatch.setattr(version_watch, "HEARTBEAT", 0.2)
    url = first.config["SQLALCHEMY_DATABASE_URI"].replace("+psycopg", "")
    with psycopg.connect(url) as elsewhere:
        elsewhere.execute(f"DROP TRIGGER {trigger} ON {table_name}")  # type: ignore[arg-type]
    version_of(first, table.game_url)  # starts the watch
    watch = reads_of(first).watch
    assert watch is not None
    soon(lambda: f"no {trigger} trigger on the {table_name} table" in caplog.text)
    time.sleep(2.5)  # heartbeats come back meanwhile
    assert not watch.trusted
    with first.app_context():
        downgrade(revision=revision)  # the migration, down and up again
        upgrade()
    soon(listening(first))


def test_the_listening_connection_closes_when_the_engine_is_let_go(
    two_servers: tuple[Flask, Flask, Table, StatementLog], postgres: PostgresServer
) -> None:
    first, second, table, _log = two_servers
    database = first.config["SQLALCHEMY_DATABASE_URI"].rsplit("/", 1)[1]

    def listeners() -> int:
        with psycopg.connect(postgres.url("postgres").replace("+psycopg", "")) as admin:
            return len(
                admin.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s"
                    " AND (query LIKE 'LISTEN%%' OR query LIKE 'SELECT pg_notify%%')",
                    (database,),
                ).fetchall()
            )

    for app in (first, second):
        version_of(app, table.game_url)
        soon(listening(app))
    soon(lambda: listeners() == 2)
    for app in (first, second):
        with app.app_context():
            db.engine.dispose()
    soon(lambda: listeners() == 0)


@pytest.fixture
def club_on_two_servers(
    postgres: PostgresServer, migrated_template: str
) -> Iterator[tuple[Flask, Flask, Club, StatementLog]]:
    """Two server processes' apps on one PostgreSQL database, a club session set up through
    the first (whose client is the director's, and opens the tables' links too)."""
    name = postgres.create_database(migrated_template)
    log = StatementLog(postgres, name)
    for first in app_on(postgres.url(name), TESTING=True):
        for second in app_on(postgres.url(name), TESTING=True):
            club = Club(first.test_client())
            club.start(**SMALL)
            yield first, second, club, log


def club_watch(app: Flask, club: Club) -> tuple[VersionWatch, str, int]:
    """The app's watch once it answers the session's poll from memory, the session's id and
    its version."""
    started = version_of(app, club.url)
    soon(listening(app))
    version_of(app, club.url)  # read once more, now kept
    watch = reads_of(app).watch
    game_id = club.url.rsplit("/", 1)[1]
    assert watch is not None and watch.version(game_id) == (started, "club")
    return watch, game_id, started


def test_a_club_session_is_polled_from_memory_even_after_a_tables_entry(
    club_on_two_servers: tuple[Flask, Flask, Club, StatementLog],
) -> None:
    """The director's page polls the session's version: another process's table entry counts
    in the session's row, whose trigger tells the new version; no poll reads the database."""
    first, second, club, log = club_on_two_servers
    watch, game_id, started = club_watch(second, club)
    log.mark()
    for _poll in range(3):
        assert version_of(second, club.url) == started
    assert club.enter(1, {"result": "passed"})[2] == 302  # through the first process
    soon(lambda: watch.version(game_id) == (started + 1, "club"))
    log.mark()
    for _poll in range(3):
        assert version_of(second, club.url) == started + 1
    assert log.since_mark() == []
    # The count changed any other way (psql) is told too, if and when it commits.
    url = first.config["SQLALCHEMY_DATABASE_URI"].replace("+psycopg", "")
    with psycopg.connect(url) as elsewhere:
        elsewhere.execute(
            "UPDATE game SET parts_version = parts_version + 5 WHERE id = %s", (game_id,)
        )
        elsewhere.rollback()
        elsewhere.execute(
            "UPDATE game SET parts_version = parts_version + 1 WHERE id = %s", (game_id,)
        )
        elsewhere.commit()
    soon(lambda: watch.version(game_id) == (started + 2, "club"))
    assert version_of(second, club.url) == started + 2


def test_a_process_polls_at_once_the_tables_entry_it_committed(
    club_on_two_servers: tuple[Flask, Flask, Club, StatementLog],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its own notice would come back a moment later: not heeded here, what it polls at once
    is what its commit told it (the session's version, read again)."""
    first, _second, club, _log = club_on_two_servers
    watch, game_id, started = club_watch(first, club)
    monkeypatch.setattr(watch, "heard", lambda _payload: None)
    assert club.enter(2, {"result": "passed"})[2] == 302
    assert version_of(first, club.url) == started + 1
    assert watch.version(game_id) == (started + 1, "club")
    # The director's change to the session's own row, and to every table's (closing it).
    page = text(club.client.get(club.url))
    token, drawn_from = TOKEN.search(page), CLOSE_VERSION.search(page)
    assert token and drawn_from
    closed = club.client.post(
        f"{club.url}/close",
        data={"csrf_token": token.group(1), "drawn_from": drawn_from.group(1)},
    )
    assert closed.status_code == 302
    with first.app_context():
        stored = db.session.get(Game, game_id)
        assert stored is not None and stored.live_version > started + 1
        assert version_of(first, club.url) == stored.live_version


def table_poll(app: Flask, club: Club, table: int) -> int:
    answer = app.test_client().get(f"{club.url}/part/{table}/version")
    assert answer.status_code == 200
    version: int = answer.json["version"]  # type: ignore[index]
    return version


def east_west_confirm(club: Club, table: int) -> None:
    """East-West tick the table's last result: a change its own page alone shows."""
    page = text(club.client.get(club.tables[table]))
    confirm, token, version = CONFIRM.search(page), TOKEN.search(page), CONFIRMED_FROM.search(page)
    assert confirm and token and version, page
    answer = club.client.post(
        confirm.group(1), data={"csrf_token": token.group(1), "drawn_from": version.group(1)}
    )
    assert answer.status_code == 302


def test_a_club_tables_poll_and_page_are_answered_from_memory_until_the_table_changes(
    club_on_two_servers: tuple[Flask, Flask, Club, StatementLog],
) -> None:
    """A table's phone polls its table's version and reloads its page, kept under it: both
    are answered from what the process was told, read again once that table changes (here
    through another process), its session's row or not."""
    first, second, club, log = club_on_two_servers
    assert club.enter(2, {"result": "passed"})[2] == 302
    watch, game_id, _started = club_watch(second, club)
    phone = second.test_client()
    table_page = text(phone.get(club.tables[2]))
    before = table_poll(second, club, 2)
    assert f'data-version="{before}"' in table_page
    soon(lambda: watch.part_versions(game_id, 2) is not None)
    log.mark()
    for _reload in range(3):
        assert table_poll(second, club, 2) == before
        assert text(phone.get(club.tables[2])) == table_page
    assert log.since_mark() == []
    # Another table's entry changes the session's version, not this table's.
    assert club.enter(1, {"result": "passed"})[2] == 302
    soon(lambda: watch.part_versions(game_id, 2) is None)
    assert table_poll(second, club, 2) == before
    # East-West's tick at this table, through the first process, rewrites the table's row
    # alone: its trigger tells every process, which reads that table's version again (not
    # the other tables').
    table_poll(second, club, 1)
    soon(lambda: watch.part_versions(game_id, 1) is not None)
    east_west_confirm(club, 2)
    soon(lambda: watch.part_versions(game_id, 2) is None)
    assert watch.part_versions(game_id, 1) is not None
    assert table_poll(second, club, 2) != before
    assert "confirmed" in text(phone.get(club.tables[2]))
    with first.app_context():
        stored = reads_of(first).versions(game_id, "club", 2)
    assert stored is not None and table_poll(second, club, 2) == stored[1]


def test_the_phone_that_made_a_change_sees_it_where_the_process_was_not_told_yet(
    club_on_two_servers: tuple[Flask, Flask, Club, StatementLog],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its next page may be asked of a process that has not heard of the change yet: for a
    few seconds after its change, its pages read the database; another phone's are those of
    the version its process was told, as its poll is, until it is told."""
    _first, second, club, _log = club_on_two_servers
    assert club.enter(2, {"result": "passed"})[2] == 302
    watch, game_id, _started = club_watch(second, club)
    onlooker = second.test_client()
    kept = text(onlooker.get(club.tables[2]))
    soon(lambda: watch.part_versions(game_id, 2) is not None)
    monkeypatch.setattr(watch, "heard", lambda _payload: None)  # deaf from here on
    east_west_confirm(club, 2)  # by the director's phone, through the first process
    cookie = club.client.get_cookie("session")
    assert cookie is not None
    writer = second.test_client()
    writer.set_cookie("session", cookie.value)
    told = DATA_VERSION.findall(kept)
    assert told
    page = text(writer.get(club.tables[2]))
    assert "confirmed" in page and DATA_VERSION.findall(page) != told
    assert text(onlooker.get(club.tables[2])) == kept
    # Later, the writer's page too follows what its process was told.
    now = time.time()
    monkeypatch.setattr(versions, "time", lambda: now + version_watch.WROTE_LATELY)
    assert DATA_VERSION.findall(text(writer.get(club.tables[2]))) == told
