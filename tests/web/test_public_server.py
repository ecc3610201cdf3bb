"""What a public server needs: a browser keeps every game it scores, a form's nonce is no key to
another's game, new games are limited per client, games never played can be removed, the page
cache is bounded whatever the Host header says, and what leaves the server is safe to open."""

from __future__ import annotations

import csv
import gzip
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import cli
from scorekeeper.ascenseur.models import AscenseurGame, RoundRecord
from scorekeeper.extensions import db
from scorekeeper.games.models import BrowserGame, Game, Player, utcnow
from scorekeeper.games.rights import RECENT
from scorekeeper.serving.pages import KeptPage, PageCache
from tests.web.table import TOKEN, Table, text


def games_count(app: Flask) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Game.id))) or 0


def test_a_browser_keeps_scoring_every_game_it_started(app: Flask, client: FlaskClient) -> None:
    app.config["NEW_GAMES_LIMIT"] = "1000 per minute"
    table = Table(client)
    first = table.start("ascenseur", ("Anne", "Bruno"))
    urls = [first] + [table.start("ascenseur", (f"A{n}", f"B{n}")) for n in range(RECENT + 5)]
    table.game_url = first  # the oldest game, long out of the cookie's recent list
    assert 'name="bid_0"' in text(client.get(first))
    assert table.bids(1, (1, 1)).status_code == 302
    home = text(client.get("/"))
    assert all(url in home for url in urls)
    assert app.test_client().get(first).status_code == 200
    assert 'name="bid_0"' not in text(app.test_client().get(first))  # a stranger only looks


def test_a_cookie_from_before_browser_ids_keeps_its_games(app: Flask, client: FlaskClient) -> None:
    table = Table(client)
    url = table.start("ascenseur", ("Anne", "Bruno"))
    game_id = url.rsplit("/", 1)[1]
    with client.session_transaction() as session:
        del session["browser"]
    with app.app_context():
        db.session.execute(db.delete(BrowserGame))
        db.session.commit()
    client.get("/")  # the first visit since: the cookie's games go to the database
    with app.app_context():
        rows = db.session.execute(db.select(BrowserGame)).scalars().all()
        assert [row.game_id for row in rows] == [game_id]


def test_browsers_that_only_look_write_nothing_to_the_database(game: Table, app: Flask) -> None:
    with app.app_context():
        before = db.session.scalar(db.select(db.func.count()).select_from(BrowserGame))
    for _visit in range(5):  # crawlers, link previews: no cookie comes back
        assert app.test_client(use_cookies=False).get(game.game_url).status_code == 200
    viewer = app.test_client()
    viewer.get(game.game_url)
    assert "Anne, Bruno, Chloé, Denis" in text(viewer.get("/"))  # its cookie remembers it
    with app.app_context():
        after = db.session.scalar(db.select(db.func.count()).select_from(BrowserGame))
    assert after == before


def test_another_browser_sending_a_forms_nonce_gets_a_game_of_its_own(
    app: Flask, client: FlaskClient
) -> None:
    table = Table(client)
    data = table.setup_data("ascenseur", ("Anne", "Bruno", "Chloé"))
    first = client.post("/ascenseur/new/ascenseur", data=data).headers["Location"]
    assert client.post("/ascenseur/new/ascenseur", data=data).headers["Location"] == first
    stranger = app.test_client()
    data["csrf_token"] = TOKEN.search(text(stranger.get("/ascenseur/new/ascenseur"))).group(1)  # type: ignore[union-attr]
    theirs = stranger.post("/ascenseur/new/ascenseur", data=data).headers["Location"]
    assert theirs != first
    assert 'name="bid_0"' not in text(stranger.get(first))  # no scorer of the first game
    assert games_count(app) == 2


def test_new_games_are_limited_per_client_on_a_public_server(
    app: Flask, client: FlaskClient
) -> None:
    app.config["NEW_GAMES_LIMIT"] = "3 per minute"
    table = Table(client)
    for _ in range(3):
        table.start("ascenseur", ("Anne", "Bruno"))
    data = table.setup_data("ascenseur", ("Anne", "Bruno"))
    preview = client.post("/ascenseur/new/ascenseur", data={**data, "action": "add"})
    assert preview.status_code == 200  # redrawing the form starts no game: not counted
    refused = client.post("/ascenseur/new/ascenseur", data=data)
    assert refused.status_code == 429
    assert "Too many games were started or imported from here" in text(refused)
    assert "Retry-After" in refused.headers
    token = TOKEN.search(text(client.get("/ascenseur/import"))).group(1)  # type: ignore[union-attr]
    imported = client.post(
        "/ascenseur/import",
        data={"csrf_token": token, "file": (io.BytesIO(b"{}"), "game.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 429  # importing counts with starting
    imported = client.post(
        "/ascenseur/import",
        data={"csrf_token": token, "action": "add", "file": (io.BytesIO(b"{}"), "game.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 429  # no field of the form lifts the limit
    assert games_count(app) == 3
    other = app.test_client()
    other_table = Table(other)
    data = other_table.setup_data("ascenseur", ("Anne", "Bruno"))
    response = other.post(
        "/ascenseur/new/ascenseur", data=data, environ_base={"REMOTE_ADDR": "192.0.2.9"}
    )
    assert response.status_code == 302  # another client has its own count


@pytest.mark.parametrize(
    "setup,fields",
    [
        ("/bridge/new", {"north": "A", "east": "B", "south": "C", "west": "D"}),
        ("/echelons/new", {"player_a": "Zoé"}),
        ("/tarot/new", {"players-0": "A", "players-1": "B", "players-2": "C"}),
        ("/club/new", {"movement": "mitchell", "tables": "3", "boards_per_round": "2"}),
        ("/teams/new", {"team_a": "Nord", "team_b": "Sud", "boards": "8", "first_board": "1"}),
    ],
)
def test_every_family_s_new_game_form_counts_whatever_its_fields(
    app: Flask, client: FlaskClient, setup: str, fields: dict[str, str]
) -> None:
    app.config["NEW_GAMES_LIMIT"] = "2 per minute"
    for action in ("preview", "add", "start"):
        page = text(client.get(setup))
        token = TOKEN.search(page)
        nonce = re.search(r'name="nonce" type="hidden" value="([^"]*)"', page)
        assert token and nonce
        data = {"csrf_token": token.group(1), "nonce": nonce.group(1), "action": action, **fields}
        response = client.post(setup, data=data)
        if action == "start":
            assert response.status_code == 429, text(response)
        else:
            assert response.status_code in (302, 422), text(response)
    assert games_count(app) <= 2


def test_a_private_server_does_not_limit_new_games(app: Flask, client: FlaskClient) -> None:
    app.config.update(NEW_GAMES_LIMIT="2 per minute", PRIVATE_SERVER=True)
    table = Table(client)
    for _ in range(4):
        table.start("ascenseur", ("Anne", "Bruno"))
    assert games_count(app) == 4


def stored(app: Flask, names: tuple[str, ...], days_ago: int, *, played: bool) -> str:
    with app.app_context():
        game = AscenseurGame(
            preset="ascenseur",
            house_rules={},
            first_dealer=0,
            created_at=utcnow() - timedelta(days=days_ago),
            players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
            rounds=[RoundRecord(number=1, bids=[0, 0], tricks=[0, 1])] if played else [],
        )
        db.session.add(game)
        db.session.flush()
        db.session.add(BrowserGame(browser="b", game_id=game.id))
        db.session.commit()
        return game.id


def test_the_operator_removes_games_never_played_after_a_chosen_age(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_unplayed = stored(app, ("Anne", "Bruno"), 40, played=False)
    old_played = stored(app, ("Chloé", "Denis"), 40, played=True)
    new_unplayed = stored(app, ("Élodie", "Fred"), 2, played=False)
    monkeypatch.setattr(cli, "create_app", lambda: app)
    runner = CliRunner()
    dry = runner.invoke(cli.main, ["prune", "--days", "30", "--dry-run"])
    assert dry.exit_code == 0 and "Games never played, started before" in dry.output
    assert "UTC: 1 would be removed." in dry.output
    assert games_count(app) == 3
    result = runner.invoke(cli.main, ["prune", "--days", "30"])
    assert result.exit_code == 0 and "UTC: 1 removed." in result.output
    with app.app_context():
        left = set(db.session.execute(db.select(Game.id)).scalars())
        assert left == {old_played, new_unplayed}
        assert db.session.get(Game, old_unplayed) is None
        players = db.session.execute(db.select(Player.game_id)).scalars().all()
        notes = db.session.execute(db.select(BrowserGame.game_id)).scalars().all()
        assert old_unplayed not in players and old_unplayed not in notes
    assert runner.invoke(cli.main, ["prune", "--days", "0"]).exit_code != 0


def test_forged_hosts_share_one_kept_page_and_each_sees_its_own_links(
    app: Flask, game: Table
) -> None:
    cache: PageCache = app.extensions["page_cache"]
    app.config["PRIVATE_SERVER"] = True  # the cookie of localhost does not go to other hosts
    cache.pages.clear()
    for number in range(300):
        page = text(game.client.get(game.game_url, base_url=f"http://forged-{number}.example"))
        assert f'value="http://forged-{number}.example{game.game_url}/follow"' in page
    assert len(cache.pages) == 1  # a private server: every phone scores, none is a viewer


def test_the_page_cache_is_bounded_by_bytes() -> None:
    cache = PageCache(limit_bytes=200_000)
    for number in range(100):
        cache.put(number, KeptPage.of(f"<p>{number}</p>" + "x" * 10_000))
    assert cache.size <= 200_000 and 5 < len(cache.pages) < 20
    assert 99 in cache.pages and 0 not in cache.pages  # the least recently used went first


def test_csv_cells_that_would_run_as_formulas_are_neutralised(
    app: Flask, client: FlaskClient
) -> None:
    names = ('=HYPERLINK("http://x")', "+1", "-Anne", "@Bruno")
    table = Table(client)
    table.start("ascenseur", names)
    table.play(1, (0, 0, 0, 0), (1, 0, 0, 0))
    rows = list(csv.reader(io.StringIO(text(client.get(f"{table.game_url}/sheet.csv")))))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    assert not [cell for cell in cells if cell.startswith("-") and not cell[1:].isdigit()]
    assert '\'=HYPERLINK("http://x") bid' in rows[0] and "'-Anne bid" in rows[0]
    assert "-1" in rows[1]  # a number stays a number


def test_pages_are_kept_in_no_cache_and_https_is_remembered(game: Table, app: Flask) -> None:
    page = game.client.get(game.game_url)
    assert page.headers["Cache-Control"] == "no-store"
    assert "Strict-Transport-Security" not in page.headers
    secure = app.test_client().get("/", base_url="https://scores.example.org")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")
    assert game.client.get(f"{game.game_url}/qr/scorer.svg").headers["Cache-Control"] == "no-store"


# --- Compression and the app's own files -------------------------------------------------------


def test_a_browser_that_refuses_gzip_gets_plain_pages(game: Table) -> None:
    for refusal in ("gzip;q=0", "identity", "br"):
        response = game.client.get(game.game_url, headers={"Accept-Encoding": refusal})
        assert "Content-Encoding" not in response.headers, refusal
        assert text(response).startswith("<!doctype html>")
    star = game.client.get(game.game_url, headers={"Accept-Encoding": "*"})
    assert star.headers["Content-Encoding"] == "gzip"


def gunzip(client: FlaskClient, url: str) -> tuple[str, str]:
    """The page as a browser that accepts gzip gets it, and as one that does not."""
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    return gzip.decompress(packed.get_data()).decode(), text(client.get(url))


def signed_the_same_second(page: str, other: str) -> str:
    """``page`` with its form token as ``other`` has it: a session's token is signed anew by
    each request, with the time in seconds, so two requests astride a second differ there."""
    mine, theirs = TOKEN.search(page), TOKEN.search(other)
    assert mine and theirs
    # The token itself, before its time and signature, is the same.
    assert mine.group(1).split(".")[0] == theirs.group(1).split(".")[0]
    return page.replace(mine.group(0), theirs.group(0))


def test_pages_are_sent_compressed_and_kept_compressed(game: Table, app: Flask) -> None:
    first, plain = gunzip(game.client, game.game_url)  # drawn, then kept
    second, _plain = gunzip(game.client, game.game_url)  # from the cache: spliced
    assert signed_the_same_second(first, second) == second
    assert signed_the_same_second(plain, second) == second
    other = app.test_client()
    other.get("/")
    app.config["PRIVATE_SERVER"] = True  # a second scorer: another form token in the same page
    theirs, _ = gunzip(other, game.game_url)
    mine = TOKEN.search(second).group(1)  # type: ignore[union-attr]
    their_token = TOKEN.search(theirs).group(1)  # type: ignore[union-attr]
    assert mine != their_token and theirs.replace(their_token, mine) == second
    sheet, plain_sheet = gunzip(game.client, f"{game.game_url}/sheet")
    assert sheet == plain_sheet


def asset_url(page: str, name: str) -> str:
    match = re.search(rf'src="(/static/{re.escape(name)}\?v=[0-9a-f]{{12}})"', page)
    assert match, name
    return match.group(1)


def test_the_apps_files_are_kept_a_year_under_addresses_naming_their_content(
    game: Table, app: Flask
) -> None:
    page = text(game.client.get(game.game_url))
    script = asset_url(page, "scorekeeper.js")
    response = game.client.get(script, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    source = (Path(str(app.static_folder)) / "scorekeeper.js").read_bytes()
    assert gzip.decompress(response.get_data()) == source
    unversioned = game.client.get("/static/scorekeeper.js")
    assert unversioned.headers["Cache-Control"] == "no-cache"
    assert unversioned.get_data() == source
    etag = unversioned.headers["ETag"]
    assert (
        game.client.get("/static/scorekeeper.js", headers={"If-None-Match": etag}).status_code
        == 304
    )
    stale = game.client.get("/static/scorekeeper.js?v=000000000000")
    assert stale.headers["Cache-Control"] == "no-cache"  # an old address is not kept a year
    assert '<link rel="icon" href="data:image/svg+xml;base64,' in page
    assert "<style>" in page and "</style>" in page  # the stylesheet comes with the page
    video = game.client.get(asset_url(page.replace("data-awake-mp4=", "src="), "awake.mp4"))
    assert video.headers["Cache-Control"].startswith("public")
    assert "Content-Encoding" not in video.headers
