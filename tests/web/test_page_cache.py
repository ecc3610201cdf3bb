"""The round page is drawn once per state of the game, and never shows a stale or foreign one."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.ascenseur import views
from scorekeeper.ascenseur.models import RoundRecord
from scorekeeper.extensions import db
from scorekeeper.games.models import Game
from tests.web.table import TOKEN, Table, text
from tests.web.test_sharing import scorer_token


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
    counting = views.render_play

    def slow(*args: object, **kwargs: object) -> tuple[str, int]:
        time.sleep(0.3)  # long enough for the other phones to arrive meanwhile
        return counting(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(views, "render_play", slow)
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
    bids = {f"bid_{seat}": "0" for seat in range(4)} | {"version": "3", "trump": ""}
    response = second.post(
        f"{game.game_url}/rounds/2/bids", data={**bids, "csrf_token": second_token.group(1)}
    )
    assert response.status_code == 302
    assert "Confirm the tricks" in text(second.get(game.game_url))


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


def test_a_one_time_message_shows_once_and_is_never_kept(game: Table, app: Flask) -> None:
    second = app.test_client()
    second.get(f"{game.game_url}/score/{scorer_token(app)}")
    assert "can now enter and correct" in text(second.get(game.game_url))
    assert "can now enter and correct" not in text(second.get(game.game_url))
    assert "can now enter and correct" not in text(game.client.get(game.game_url))
