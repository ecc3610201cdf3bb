"""The round page is drawn once per state of the game, and never shows a stale or foreign one."""

from __future__ import annotations

import gzip as gzip_module
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.ascenseur import views
from scorekeeper.ascenseur.models import RoundRecord
from scorekeeper.club import table as club_table
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from scorekeeper.rules import ascenseur as rules
from scorekeeper.serving import pages
from tests.web.table import TOKEN, Table, text
from tests.web.test_club import SMALL, Club
from tests.web.test_sharing import scorer_token
from tests.web.test_version_watch import CLOSE_VERSION


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The game ids of the round pages actually drawn."""
    drawn: list[str] = []
    draw = views.render_play

    def counting(game: Game, *args: object, **kwargs: object) -> tuple[str, int]:
        drawn.append(game.id)
        return draw(game, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "render_play", counting)
    return drawn


def slow_drawing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing the round page takes long enough for the other phones to arrive meanwhile."""
    counting = views.render_play

    def slow(*args: object, **kwargs: object) -> tuple[str, int]:
        time.sleep(0.3)
        return counting(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "render_play", slow)


def test_phones_reloading_an_unchanged_game_get_the_page_drawn_once(
    game: Table, app: Flask, draws: list[str]
) -> None:
    pages = [text(app.test_client().get(game.game_url)) for _ in range(5)]
    assert len(draws) == 1
    assert all("Round 2 of 23" in page for page in pages)


def test_phones_reloading_at_the_same_moment_wait_for_one_drawing(
    game: Table, app: Flask, draws: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The moment a game changes, every phone at the table reloads its page."""
    slow_drawing(monkeypatch)
    with ThreadPoolExecutor(5) as phones:
        pages = list(phones.map(lambda _: text(app.test_client().get(game.game_url)), range(5)))
    assert len(draws) == 1
    assert all("Round 2 of 23" in page for page in pages)
    assert not app.extensions["page_cache"].drawing  # nothing left behind


def test_each_phone_gets_its_own_form_token_from_a_kept_page(
    game: Table, app: Flask, draws: list[str]
) -> None:
    app.config["PRIVATE_SERVER"] = True  # every phone scores, so the page has forms
    first, second = app.test_client(), app.test_client()
    first_page, second_page = text(first.get(game.game_url)), text(second.get(game.game_url))
    assert len(draws) == 1
    first_token, second_token = TOKEN.search(first_page), TOKEN.search(second_page)
    assert first_token and second_token
    assert first_token.group(1) != second_token.group(1)
    assert "\x00" not in second_page
    bids = {f"bid_{seat}": "0" for seat in range(4)} | {"drawn_from": "3", "trump": ""}
    response = second.post(
        f"{game.game_url}/rounds/2/bids", data={**bids, "csrf_token": second_token.group(1)}
    )
    assert response.status_code == 302
    assert "Confirm the tricks" in text(second.get(game.game_url))


def test_a_phone_reloading_a_kept_page_is_sent_its_own_copy_again(
    game: Table, app: Flask, draws: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its form token signed once, its copy compressed once: reloading an unchanged page costs
    neither again, and another phone's reload in between gets its own."""
    app.config["PRIVATE_SERVER"] = True  # every phone scores, so the page has forms
    first, second = app.test_client(), app.test_client()
    gzip = {"Accept-Encoding": "gzip"}
    sent = first.get(game.game_url, headers=gzip).data
    signed: list[str] = []
    monkeypatch.setattr(pages, "generate_csrf", lambda: signed.append("signed") or "x")
    spliced: list[bytes] = []
    splice = pages.gzip_spliced
    monkeypatch.setattr(pages, "gzip_spliced", lambda *parts: spliced.append(b"") or splice(*parts))
    assert first.get(game.game_url, headers=gzip).data == sent
    assert (signed, spliced) == ([], [])
    others = second.get(game.game_url, headers=gzip).data
    assert others != sent and signed == ["signed"] and len(spliced) == 1
    assert first.get(game.game_url, headers=gzip).data == sent and len(spliced) == 2
    assert len(draws) == 1
    token = TOKEN.search(gzip_module.decompress(sent).decode())
    assert token
    bids = {f"bid_{seat}": "0" for seat in range(4)} | {"drawn_from": "3", "trump": ""}
    response = first.post(f"{game.game_url}/rounds/2/bids", data={**bids, "csrf_token": token[1]})
    assert response.status_code == 302


def test_a_change_made_through_another_process_shows_at_once(
    game: Table, app: Flask, draws: list[str]
) -> None:
    assert "Round 2 of 23" in text(game.client.get(game.game_url))
    other_process = create_app(
        {"SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]}
    )
    with other_process.app_context():
        stored = db.session.execute(db.select(Game)).scalar_one()
        stored.rounds.append(RoundRecord(number=2, bids=[0, 0, 1, 0], tricks=[0, 0, 1, 1]))
        stored.changed()
        db.session.commit()
        db.engine.dispose()
    page = text(game.client.get(game.game_url))
    assert "Round 3 of 23" in page
    assert len(draws) == 2


def test_a_kept_page_is_kept_per_language_and_per_role(
    game: Table, app: Flask, draws: list[str]
) -> None:
    viewer = app.test_client()
    english = text(viewer.get(game.game_url))
    french = text(viewer.get(game.game_url, headers={"Accept-Language": "fr"}))
    scorer = text(game.client.get(game.game_url))
    assert "Round 2 of 23" in english and "Manche 2 sur 23" in french
    assert "<form" not in english and 'name="bid_0"' in scorer
    assert len(draws) == 3


def test_a_phone_reloading_a_kept_page_is_not_sent_its_cookie_again(
    game: Table, app: Flask
) -> None:
    """Signing the session cookie again costs a kept page a sixth of its time: a phone is sent
    it when what it holds changes (its first visit, a game it had not opened), not when it
    reloads. A viewer's first visit gives it its id along with the game it opened."""
    for phone in (app.test_client(), game.client):
        first = phone.get(game.game_url)
        assert first.status_code == 200
        for _reload in range(3):
            again = phone.get(game.game_url)
            assert again.status_code == 200 and "Set-Cookie" not in again.headers
    other = Table(app.test_client())
    other.start()  # a game this viewer has not opened yet
    viewer = app.test_client()
    viewer.get(game.game_url)
    assert "Set-Cookie" in viewer.get(other.game_url).headers
    assert "Set-Cookie" not in viewer.get(other.game_url).headers
    assert "Set-Cookie" in viewer.get(game.game_url).headers  # first in its list again


def test_a_cookie_read_from_memory_is_the_cookie_sent(game: Table, app: Flask) -> None:
    """The session cookies read lately are kept by their signed value: a cookie changed by
    a byte is checked again, and refused; what a request changes in its session goes out in
    its own cookie, never into the session kept for the cookie it came with."""
    viewer = app.test_client()
    viewer.get(game.game_url)
    cookie = viewer.get_cookie("session")
    assert cookie is not None
    value = cookie.value
    assert "Set-Cookie" not in viewer.get(game.game_url).headers  # read from memory
    forged = value[:-2] + ("AA" if value[-2:] != "AA" else "BB")
    stranger = app.test_client()
    stranger.set_cookie("session", forged)
    stranger.get(game.game_url)
    assert stranger.get_cookie("session").value != forged  # a new session, not the kept one
    # A scorer link opened with this cookie changes the session: the next request with the
    # old cookie is a viewer's still.
    other = app.test_client()
    other.set_cookie("session", value)
    other.get(f"{game.game_url}/score/{scorer_token(app)}")
    assert other.get_cookie("session").value != value
    again = app.test_client()
    again.set_cookie("session", value)
    assert "<form" not in text(again.get(game.game_url))
    assert "<form" in text(other.get(game.game_url))


def test_a_one_time_message_shows_once_and_is_never_kept(game: Table, app: Flask) -> None:
    second = app.test_client()
    second.get(f"{game.game_url}/score/{scorer_token(app)}")
    assert "can now enter and correct" in text(second.get(game.game_url))
    assert "can now enter and correct" not in text(second.get(game.game_url))
    assert "can now enter and correct" not in text(game.client.get(game.game_url))


def test_the_scorers_drawing_gives_the_phones_looking_on_their_copy(
    game: Table, app: Flask, draws: list[str]
) -> None:
    """After an entry the scorer's phone draws the page first: drawn once for both roles,
    the other phones at the table find theirs kept."""
    assert game.bids(2, (0, 0, 1, 0)).status_code == 302
    draws.clear()  # the form's page, drawn before the entry
    scorer = text(game.client.get(game.game_url))
    viewers = [text(app.test_client().get(game.game_url)) for _ in range(3)]
    assert len(draws) == 1
    assert 'name="tricks_0"' in scorer and "You are looking on" not in scorer
    for page in viewers:
        assert "You are looking on" in page and "<form" not in page and "\x00" not in page
        assert scorer_token(app) not in page and "/edit" not in page


def test_the_phones_looking_on_that_reload_meanwhile_wait_for_the_scorers_drawing(
    game: Table, app: Flask, draws: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert game.bids(2, (0, 0, 1, 0)).status_code == 302
    draws.clear()
    slow_drawing(monkeypatch)
    with ThreadPoolExecutor(4) as phones:
        scorer = phones.submit(lambda: text(game.client.get(game.game_url)))
        time.sleep(0.1)
        viewers = list(phones.map(lambda _: text(app.test_client().get(game.game_url)), range(3)))
    assert len(draws) == 1
    assert 'name="tricks_0"' in scorer.result()
    assert all('class="viewer-note"' in page for page in viewers)


def test_a_scorer_after_a_viewer_draws_its_own_copy_only(
    game: Table, app: Flask, draws: list[str]
) -> None:
    viewer = app.test_client()
    kept_for_viewers = text(viewer.get(game.game_url))
    assert 'name="bid_0"' in text(game.client.get(game.game_url))
    assert text(viewer.get(game.game_url)) == kept_for_viewers
    assert len(draws) == 2


FORM_TOKEN = re.compile(r'(name="csrf_token" type="hidden" value=")[^"]+"')


def as_drawn(page: str) -> str:
    """A page without its form tokens, which are signed anew at every request."""
    return FORM_TOKEN.sub(r'\1"', page)


def pages_drawn_for_both(game: Table, viewer: FlaskClient, app: Flask) -> tuple[str, str]:
    app.extensions["page_cache"].pages.clear()
    scorer = as_drawn(text(game.client.get(game.game_url)))  # drawn for both roles
    return scorer, as_drawn(text(viewer.get(game.game_url)))


def pages_drawn_alone(game: Table, viewer: FlaskClient, app: Flask) -> tuple[str, str]:
    app.extensions["page_cache"].pages.clear()
    scorer = as_drawn(text(game.client.get(game.game_url, query_string={"again": "x"})))
    return scorer, as_drawn(text(viewer.get(game.game_url)))


def play_to_the_end(game: Table, from_round: int) -> None:
    """Every round left: nobody bids, and the dealer takes every trick."""
    for number in range(from_round, len(rules.schedule(rules.PRESETS["ascenseur"], 4)) + 1):
        plan = rules.plan_round(rules.PRESETS["ascenseur"], 4, 0, number)
        game.play(number, (0,) * 4, [plan.cards if s == plan.dealer else 0 for s in range(4)])


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_roles_copy_is_the_page_drawn_for_that_role_alone(
    game: Table, app: Flask, language: str
) -> None:
    """At every stage of a game, cutting one role's parts out of the page drawn for both gives,
    byte for byte, the page drawn for the other role alone."""
    headers = {"Accept-Language": language}
    game.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    viewer = app.test_client()
    viewer.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    stages = [
        lambda: None,  # round 2 to bid
        lambda: game.bids(2, (0, 0, 1, 0), trump="H"),  # its tricks to enter
        lambda: game.tricks(2, (0, 0, 1, 1)),
        lambda: game.client.post(
            f"{game.game_url}/rounds/1/edit",
            data={**game.edit_data(1), **game.round_data("bid", (1, 1, 0, 0)), "trump": ""}
            | {f"tricks_{seat}": t for seat, t in enumerate((1, 0, 0, 0))},
            headers=headers,
        ),  # a correction in the log
        lambda: play_to_the_end(game, from_round=3),  # the final standings
    ]
    for stage in stages:
        stage()
        game.client.get(game.game_url)  # the message a correction leaves, shown once
        both = pages_drawn_for_both(game, viewer, app)
        assert both == pages_drawn_alone(game, viewer, app)
        scorers, viewers = both
        assert scorer_token(app) in scorers and scorer_token(app) not in viewers
        if 'class="final"' not in viewers:
            assert 'class="viewer-note"' not in scorers and 'class="viewer-note"' in viewers
    assert 'class="final"' in viewers


@pytest.fixture
def table_draws(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The tables whose page was actually drawn."""
    drawn: list[int] = []
    draw = club_table.render_table

    def counting(
        game: Game, movement: object, table: int, *args: object, **kwargs: object
    ) -> tuple[str, int]:
        drawn.append(table)
        return draw(game, movement, table, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(club_table, "render_table", counting)
    return drawn


def test_a_club_tables_page_is_drawn_once_per_change_of_the_session(
    app: Flask, table_draws: list[int]
) -> None:
    """A table's page shows what other tables entered (a round it sits out lasts while they
    play it): it is kept under the session's version, drawn again once anything changed."""
    club = Club(app.test_client())
    club.start(**SMALL)
    phones = [app.test_client() for _ in range(3)]
    pages = [as_drawn(text(phone.get(club.tables[1]))) for phone in phones]
    assert table_draws == [1]
    assert pages[0] == pages[1] == pages[2] and "Board 1" in pages[0]
    # Each phone's own form token, in its own copy.
    tokens = {TOKEN.findall(text(phone.get(club.tables[1])))[0] for phone in phones}
    assert len(tokens) == 3 and table_draws == [1]
    assert club.enter(2, {"result": "passed"})[2] == 302  # another table's entry
    table_draws.clear()
    assert as_drawn(text(phones[0].get(club.tables[1]))) == pages[0]
    assert text(phones[1].get(club.tables[1], query_string={"round": "2"})).count("Round 2") == 1
    assert table_draws == [1, 1]
    assert club.enter(1, {"result": "passed"})[2] == 302  # this table's own
    table_draws.clear()
    page = text(phones[2].get(club.tables[1]))
    assert "Board 2" in page and "passed out" in page
    phones[0].get(club.tables[1])
    assert table_draws == [1]


def test_a_club_tables_kept_page_is_for_its_own_link_alone(
    app: Flask, table_draws: list[int]
) -> None:
    club = Club(app.test_client())
    club.start(**SMALL)
    phone = app.test_client()
    assert phone.get(club.tables[1]).status_code == 200
    link, token = club.tables[1].rsplit("/", 1)
    wrong = f"{link}/{'0' if token[0] != '0' else '1'}{token[1:]}"
    assert phone.get(wrong).status_code == 403
    assert phone.get(f"{link.rsplit('/', 1)[0]}/2/{token}").status_code == 403
    assert phone.get(club.tables[1]).status_code == 200
    assert table_draws == [1]  # kept for its own link; a wrong one is refused, and kept nothing


LIVE = re.compile(r'data-live="([^"]+)" data-version="([^"]+)"')


def followed(page: str) -> tuple[str, str]:
    """What a page follows live: its poll's address, and the version it shows."""
    found = LIVE.search(page)
    assert found, "the page follows nothing"
    return found.group(1), found.group(2)


def poll(client: FlaskClient, address: str, version: str) -> int:
    """A phone's poll, as the page's script asks it: 304 while its page shows ``version``."""
    game_id = address.split("/")[2]
    part = address.split("/part/")[1].split("/")[0] if "/part/" in address else None
    etag = f'"{game_id}-{part}-{version}"' if part else f'"{game_id}-{version}"'
    response = client.get(address, headers={"If-None-Match": etag})
    assert "Set-Cookie" not in response.headers  # no session read, none written
    return response.status_code


def test_a_club_tables_phone_follows_its_own_table_and_the_directors_changes(
    app: Flask, table_draws: list[int]
) -> None:
    """Another table's entry reloads no other phone (it shows at this table's next entry,
    or a reload); this table's own entry does, and so does the director's change."""
    club = Club(app.test_client())
    club.start(**SMALL)
    phone = app.test_client()
    address, version = followed(text(phone.get(club.tables[1])))
    assert address.endswith("/part/1/version")
    assert poll(phone, address, version) == 304
    assert club.enter(2, {"result": "passed"})[2] == 302  # another table's entry
    assert poll(phone, address, version) == 304
    table_draws.clear()
    page = text(phone.get(club.tables[1]))  # reloaded by hand: drawn as the session is now
    assert table_draws == [1] and followed(page) == (address, version)
    assert club.enter(1, {"result": "passed"})[2] == 302  # this table's own
    assert poll(phone, address, version) == 200
    assert json.loads(phone.get(address).data)["version"] == int(version) + 1
    address, version = followed(text(phone.get(club.tables[1])))
    assert poll(phone, address, version) == 304
    page = text(club.client.get(club.url))  # the director closes the session
    token, drawn_from = TOKEN.search(page), CLOSE_VERSION.search(page)
    assert token and drawn_from
    closing = {"csrf_token": token.group(1), "drawn_from": drawn_from.group(1)}
    assert club.client.post(f"{club.url}/close", data=closing).status_code == 302
    assert poll(phone, address, version) == 200
    assert "The session is closed" in text(phone.get(club.tables[1]))


def test_a_table_sitting_its_round_out_follows_the_whole_session(app: Flask) -> None:
    """Its round ends when the other tables have played it: it follows them all."""
    club = Club(app.test_client())
    club.start(
        movement="mitchell", tables="3", boards_per_round="2", pairs="odd", scoring="matchpoints"
    )
    phone = app.test_client()
    address, version = followed(text(phone.get(club.tables[3])))  # the phantom's table
    assert address == f"{club.url}/version"
    for table in (1, 2):
        for _board in range(2):
            assert poll(phone, address, version) == 304
            assert club.enter(table, {"result": "passed"})[2] == 302
            assert poll(phone, address, version) == 200
            address, version = followed(text(phone.get(club.tables[3])))
    assert "/part/3/" in address  # round 2: it plays


def test_a_part_poll_answers_only_for_a_part_that_is_there(app: Flask, game: Table) -> None:
    club = Club(app.test_client())
    club.start(**SMALL)
    phone = app.test_client()
    assert phone.get(f"{club.url}/part/3/version").status_code == 200
    for missing in (
        f"{club.url}/part/4/version",  # no table 4
        f"{club.url}/part/0/version",
        f"{club.url}/part/99999/version",
        f"{game.game_url}/part/1/version",  # a game without parts
        f"/club/{game.game_url.rsplit('/', 1)[1]}/part/1/version",  # another family's game
        "/club/nosuchgame/part/1/version",
    ):
        assert phone.get(missing).status_code == 404, missing
