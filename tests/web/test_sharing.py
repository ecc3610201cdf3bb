"""One game, several phones: the scorer and viewer links, the live version, the headers."""

from __future__ import annotations

import gc
import random
import re
import threading
import warnings
from collections.abc import Iterator

import psycopg
import pytest
from flask import Flask, request, url_for
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.games import links
from scorekeeper.games.models import Game
from scorekeeper.games.registry import FAMILIES
from scorekeeper.serving import LIVE_PACE
from tests.conftest import app_on
from tests.postgres import PostgresServer
from tests.web.table import TOKEN, Table, text


def scorer_token(app: Flask) -> str:
    with app.app_context():
        return db.session.execute(db.select(Game.scorer_token)).scalar_one()


def test_a_game_address_is_not_a_counter(game: Table) -> None:
    assert re.fullmatch(r"/ascenseur/[\w-]{12}", game.game_url)


def test_the_scorer_sees_both_links_as_qr_codes_and_text(
    game: Table, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = scorer_token(app)
    app.config["PRIVATE_SERVER"] = True  # the cookie of localhost does not go to other hosts
    page = text(game.client.get(game.game_url, base_url="http://scores.example.org"))
    assert f'value="http://scores.example.org{game.game_url}/follow"' in page
    assert f'value="http://scores.example.org{game.game_url}/score/{token}"' in page
    # Opened on the laptop itself, the links give its address on the network, for the phones.
    monkeypatch.setattr(links, "network_addresses", lambda: ["192.168.1.20"])
    page = text(game.client.get(game.game_url, base_url="http://127.0.0.1:8000"))
    assert f'value="http://192.168.1.20:8000{game.game_url}/follow"' in page
    for link in ("viewer", "scorer"):
        response = game.client.get(f"{game.game_url}/qr/{link}.svg")
        assert response.mimetype == "image/svg+xml"
        assert text(response).startswith("<svg") and "<path" in text(response)


def test_a_viewer_sees_the_round_and_standings_and_can_change_nothing(
    game: Table, app: Flask
) -> None:
    viewer = app.test_client()
    page = text(viewer.get(game.game_url))
    assert "Round 2 of 23" in page and "Standings" in page
    assert "<form" not in page
    assert scorer_token(app) not in page
    assert "Refresh" in page
    assert viewer.get(f"{game.game_url}/sheet").status_code == 200
    assert viewer.get(f"{game.game_url}/qr/scorer.svg").status_code == 403
    assert viewer.get(f"{game.game_url}/rounds/1/edit").status_code == 403
    token = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"',
        text(viewer.get("/ascenseur/new/ascenseur")),
    )
    assert token
    response = viewer.post(
        f"{game.game_url}/rounds/2/bids",
        data={"csrf_token": token.group(1), **{f"bid_{s}": "0" for s in range(4)}},
    )
    assert response.status_code == 403
    assert "Ask the scorer for the scorer link" in text(response)


def test_the_scorer_link_lets_a_second_phone_score(game: Table, app: Flask) -> None:
    second = app.test_client()
    assert second.get(f"{game.game_url}/score/wrong-token").status_code == 403
    response = second.get(f"{game.game_url}/score/{scorer_token(app)}")
    assert response.status_code == 302 and response.headers["Location"] == game.game_url
    assert scorer_token(app) not in response.headers["Location"]
    page = text(second.get(game.game_url))
    assert 'name="bid_0"' in page
    assert "can now enter and correct" in page


def test_a_public_server_lists_only_this_browsers_games(game: Table, app: Flask) -> None:
    assert "Anne, Bruno, Chloé, Denis" in text(game.client.get("/"))
    stranger = app.test_client()
    assert "Anne, Bruno, Chloé, Denis" not in text(stranger.get("/"))
    stranger.get(game.game_url)  # opened through the viewer link: now listed
    assert "Anne, Bruno, Chloé, Denis" in text(stranger.get("/"))


def test_a_private_server_lists_every_game_and_lets_every_phone_score(
    game: Table, app: Flask
) -> None:
    app.config["PRIVATE_SERVER"] = True
    stranger = app.test_client()
    assert "Anne, Bruno, Chloé, Denis" in text(stranger.get("/"))
    assert 'name="bid_0"' in text(stranger.get(game.game_url))


def test_the_live_version_answers_304_while_nothing_changed(game: Table) -> None:
    url = f"{game.game_url}/version"
    first = game.client.get(url)
    assert first.status_code == 200 and first.json == {"version": 3}
    etag = first.headers["ETag"]
    unchanged = game.client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.get_data() == b""
    game.bids(2, (0, 0, 1, 0))
    changed = game.client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json == {"version": 4}
    assert game.client.get("/ascenseur/nosuchgame/version").status_code == 404


def test_the_poll_of_a_game_is_answered_before_flask(
    game: Table, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No session, no language, no limiter: the poll of a game that exists never reaches Flask,
    and answers as Flask's route would, with every page's headers."""
    reached_flask: list[str] = []
    dispatch = app.full_dispatch_request

    def counted() -> object:
        reached_flask.append(request.path)
        return dispatch()

    monkeypatch.setattr(app, "full_dispatch_request", counted)
    url = f"{game.game_url}/version"
    first = game.client.get(url)
    assert first.status_code == 200 and first.json == {"version": 3}
    assert first.headers["ETag"] == f'"{game.game_url.rsplit("/", 1)[1]}-3"'
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in first.headers["Content-Security-Policy"]
    assert "Set-Cookie" not in first.headers
    etag = first.headers["ETag"]
    for asked in (etag, f"W/{etag}", f'"other", {etag}', "*"):
        unchanged = game.client.get(url, headers={"If-None-Match": asked})
        assert unchanged.status_code == 304 and unchanged.get_data() == b"", asked
        assert "Content-Length" not in unchanged.headers
    head = game.client.head(url)
    assert head.status_code == 200 and head.get_data() == b"" and head.headers["ETag"] == etag
    secure = game.client.get(url, base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert reached_flask == []
    # Anything else is Flask's: a game that does not exist, of another family, another method.
    assert game.client.get("/ascenseur/nosuchgame/version").status_code == 404
    assert game.client.get(url.replace("/ascenseur/", "/bridge/")).status_code == 404
    assert game.client.post(url).status_code == 405
    assert game.client.get("/static/js/version").status_code == 404
    assert game.client.get("/club/new/version").status_code == 404
    assert len(reached_flask) == 5


def test_every_familys_poll_is_at_its_key(app: Flask) -> None:
    """The poll is answered before Flask where its address names the family by its key."""
    with app.test_request_context():
        for key in FAMILIES:
            assert url_for(f"{key}.game_version", game_id="abc") == f"/{key}/abc/version"


def test_a_poll_whose_read_fails_goes_on_to_flask(
    game: Table, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Flask reads the version again, and a database that still fails gives its error page."""
    reads = app.extensions["version_reads"]
    read = reads.row
    failures = [1]

    def failing_once(*args: object) -> object:
        if failures:
            raise RuntimeError(failures.pop())
        return read(*args)

    monkeypatch.setattr(reads, "row", failing_once)
    if reads.watch is not None:  # on PostgreSQL: what the server process was told, forgotten
        monkeypatch.setattr(reads.watch, "version", lambda _game_id: None)
    answer = game.client.get(f"{game.game_url}/version")
    assert answer.status_code == 200 and answer.json == {"version": 3}
    failures[:] = [1, 2]
    app.config["PROPAGATE_EXCEPTIONS"] = False
    broken = game.client.get(f"{game.game_url}/version")
    assert broken.status_code == 500 and "text/html" in broken.headers["Content-Type"]


def test_pages_follow_the_game_live(game: Table) -> None:
    page = text(game.client.get(game.game_url))
    assert f'data-live="{game.game_url}/version" data-version="3"' in page
    assert f'data-live-pace="{LIVE_PACE.attribute()}"' in page
    assert LIVE_PACE.attribute() == "2000 5000 15000"


def test_the_live_pace_slows_once_the_game_is_quiet() -> None:
    assert LIVE_PACE.every(0) == LIVE_PACE.every(14.9) == 2.0
    assert LIVE_PACE.every(15) == LIVE_PACE.every(3600) == 5.0


class StatementLog:
    """What PostgreSQL's log shows of the statements of one database, from a mark on."""

    def __init__(self, postgres: PostgresServer, name: str) -> None:
        url = postgres.url(name).replace("+psycopg", "")
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} SET log_statement = 'all'")  # type: ignore[arg-type]
        self.file = postgres.root / "server.log"
        self.seen = 0

    def mark(self) -> None:
        self.seen = self.file.stat().st_size

    def since_mark(self) -> list[str]:
        with self.file.open("rb") as log:
            log.seek(self.seen)  # a byte offset: the names logged before it are not ASCII
            written = log.read().decode(errors="replace")
        # One entry a line, but a statement of several lines goes on, unprefixed, over the next.
        entries = re.split(r"^(?=\d{4}-\d\d-\d\d )", written, flags=re.MULTILINE)
        found = (re.search(r"(?:statement|execute [^:]*): (.*)", e, re.DOTALL) for e in entries)
        return [" ".join(match.group(1).split()) for match in found if match]


def game_with_statement_log(
    postgres: PostgresServer, migrated_template: str
) -> Iterator[tuple[Flask, Table, StatementLog]]:
    """A game started on a fresh PostgreSQL database whose statements are logged."""
    name = postgres.create_database(migrated_template)
    log = StatementLog(postgres, name)
    for app in app_on(postgres.url(name), TESTING=True):
        table = Table(app.test_client())
        table.start("ascenseur", ("Anne", "Bruno", "Chloé", "Denis"))
        yield app, table, log


def test_on_postgresql_a_poll_is_one_statement_and_no_transaction(
    postgres: PostgresServer, migrated_template: str
) -> None:
    """No BEGIN, no ROLLBACK: one round trip to the database a poll, where the server process
    does not know the version already (tests/web/test_version_watch.py)."""
    for app, table, log in game_with_statement_log(postgres, migrated_template):
        app.extensions["version_reads"].watch = None
        assert table.client.get(table.game_url).status_code == 200
        log.mark()
        for _poll in range(3):
            assert table.client.get(f"{table.game_url}/version").status_code == 200
        statements = log.since_mark()
        assert len(statements) == 3, statements
        read = "SELECT game.version + game.parts_version AS anon_1, game.family"
        assert all(s.startswith(read) for s in statements), statements


def test_on_postgresql_a_round_page_is_drawn_in_three_statements_and_no_transaction(
    postgres: PostgresServer, migrated_template: str
) -> None:
    """The game's version; the game with its players, and whether it has corrections, in one
    statement; its rounds. No BEGIN, no ROLLBACK: each statement is a round trip to the
    database. The corrections are read only where there are some."""
    for app, table, log in game_with_statement_log(postgres, migrated_template):
        table.play(1, (1, 0, 0, 1), (1, 0, 0, 0))
        app.extensions["page_cache"].pages.clear()
        log.mark()
        page = table.client.get(table.game_url)
        statements = log.since_mark()
        assert page.status_code == 200
        assert "Round 2" in text(page)
        assert len(statements) == 3, statements
        version, game, rounds = statements
        assert version.startswith("SELECT game.version + game.parts_version AS anon_1, game.family")
        assert "FROM game" in game and "player_1.name" in game
        assert "EXISTS (SELECT * FROM correction WHERE correction.game_id = game.id)" in game
        assert rounds.startswith("SELECT round.id")
        log.mark()
        assert table.client.get(table.game_url).status_code == 200
        assert len(log.since_mark()) == 1  # kept: the version alone

        # Round 1 corrected: Denis took the trick, not Anne.
        assert table.correct(1, (1, 0, 0, 1), (0, 0, 0, 1)).status_code == 302
        app.extensions["page_cache"].pages.clear()
        log.mark()
        page = table.client.get(table.game_url)
        statements = log.since_mark()
        assert "Corrections" in text(page)
        assert len(statements) == 4, statements
        assert statements[3].startswith("SELECT correction.id")


def test_on_postgresql_a_club_table_reads_its_two_versions_in_one_statement(
    postgres: PostgresServer, migrated_template: str
) -> None:
    """A table's page follows both the session's version and its own table's: the two are one
    round trip, and a kept table page costs that round trip alone."""
    from tests.web.test_club import SMALL, Club, random_result

    name = postgres.create_database(migrated_template)
    log = StatementLog(postgres, name)
    for app in app_on(postgres.url(name), TESTING=True):
        club = Club(app.test_client())
        club.start(**SMALL)
        assert club.enter(1, random_result(random.Random(1)))[2] == 302
        for _drawn_then_kept in range(2):  # the first one shows the entry's message
            assert club.client.get(club.tables[1]).status_code == 200
        log.mark()
        page = club.client.get(club.tables[1])
        statements = log.since_mark()
        assert page.status_code == 200
        assert len(statements) == 1, statements
        (read,) = statements
        assert read.startswith(
            "SELECT game.version + game.parts_version AS anon_1, "
            "game.version + club_table.version AS anon_2, game.family"
        ), read
        app.extensions["page_cache"].pages.clear()
        log.mark()
        drawn = club.client.get(club.tables[1])
        statements = log.since_mark()
        # The form's token is signed with the second it was drawn in: compare the rest.
        assert drawn.status_code == 200
        assert TOKEN.sub("", text(drawn)) == TOKEN.sub("", text(page))
        assert [s for s in statements if s.startswith("SELECT game.version")] == [read]


def test_on_postgresql_an_entry_is_one_transaction_of_four_statements(
    postgres: PostgresServer, migrated_template: str
) -> None:
    """The game with its players, its rounds, the game's new version (whose notice to the other
    server processes the database's trigger sends), the round written."""
    for _app, table, log in game_with_statement_log(postgres, migrated_template):
        # The form comes from a page drawn outside a transaction, on the same pooled
        # connection: the entry's BEGIN shows that connection back in a transaction.
        data = table.round_data("bid", (1, 0, 0, 1))
        log.mark()
        response = table.client.post(f"{table.game_url}/rounds/1/bids", data={**data, "trump": ""})
        statements = log.since_mark()
        assert response.status_code == 302
        assert [s.split()[0] for s in statements] == [
            "BEGIN",
            "SELECT",
            "SELECT",
            "UPDATE",
            "INSERT",
            "COMMIT",
        ], statements
        assert "player_1.name" in statements[1]
        assert statements[2].startswith("SELECT round.id")


def test_after_the_database_restarts_the_poll_still_answers(
    postgres: PostgresServer, migrated_template: str
) -> None:
    name = postgres.create_database(migrated_template)
    for app in app_on(postgres.url(name), TESTING=True):
        table = Table(app.test_client())
        table.start("ascenseur", ("Anne", "Bruno", "Chloé", "Denis"))
        poll = f"{table.game_url}/version"
        assert table.client.get(poll).status_code == 200
        with psycopg.connect(postgres.url("postgres").replace("+psycopg", "")) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
        assert table.client.get(poll).status_code == 200
        assert table.client.get(poll).status_code == 200


def closed(dbapi_connection: object) -> bool:
    try:
        dbapi_connection.cursor().execute("SELECT 1")  # type: ignore[attr-defined]
    except Exception as error:
        if "closed" in str(error):  # SQLite: "a closed database"; psycopg: "is closed"
            return True
        raise
    return False


def test_a_server_thread_keeps_one_connection_for_its_polls(game: Table, app: Flask) -> None:
    """The poll takes no connection from the pool: each server thread keeps its own, and only
    that thread closes it: when it ends, or at its next read after the engine is disposed."""
    # What earlier tests left to the collector (a database restarted leaves its dead
    # connections to it) is collected here, not counted against this test's own.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
    poll = f"{game.game_url}/version"
    reads = app.extensions["version_reads"]
    reads.watch = None  # every poll reads the database
    assert game.client.get(poll).status_code == 200
    mine = reads.connection().dbapi_connection
    taken = []
    with app.app_context():
        event.listen(db.engine, "checkout", lambda *_args: taken.append(1))
    for _poll in range(3):
        assert game.client.get(poll).status_code == 200
        assert reads.connection().dbapi_connection is mine
    assert not taken, "a poll took a connection from the pool"
    theirs, answers = [], []
    polled, go_on = threading.Event(), threading.Event()

    def another_server_thread() -> None:
        answers.append(game.client.get(poll).status_code)
        theirs.append(reads.connection().dbapi_connection)
        polled.set()
        go_on.wait(10)
        answers.append(game.client.get(poll).status_code)
        theirs.append(reads.connection().dbapi_connection)

    thread = threading.Thread(target=another_server_thread)
    thread.start()
    polled.wait(10)
    assert theirs[0] is not mine
    with app.app_context():
        db.engine.dispose()
    assert closed(mine) and not closed(theirs[0])
    go_on.set()
    thread.join()
    del thread
    gc.collect()
    assert answers == [200, 200]
    assert theirs[1] is not theirs[0] and closed(theirs[0]) and closed(theirs[1])
    assert game.client.get(poll).status_code == 200
    assert reads.connection().dbapi_connection is not mine


@pytest.mark.parametrize("url", ["/", "/ascenseur/new/ascenseur", "/nowhere"])
def test_every_page_sends_the_security_headers(client: FlaskClient, url: str) -> None:
    headers = client.get(url).headers
    csp = headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp and "http" not in csp
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"  # no address of this site elsewhere


def test_the_session_cookie_is_httponly_lax_and_secure_over_https(game: Table, app: Flask) -> None:
    response = app.test_client().get(game.game_url)
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    secure = app.test_client().get(game.game_url, base_url="https://localhost")
    assert "Secure" in secure.headers["Set-Cookie"]


def test_forms_never_expire_while_a_phone_lies_on_the_table() -> None:
    assert create_app({"SECRET_KEY": "x", "TESTING": True}).config["WTF_CSRF_TIME_LIMIT"] is None
