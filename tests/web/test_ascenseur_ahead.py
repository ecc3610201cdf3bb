"""A home game's steps drawn ahead for the network's outages (ascenseur.views.ahead): the pages
the scorer's phone keeps so that, with the network down, it enters a whole round of bids and
tricks; each step's form, drawn before the steps before it were entered, is entered as the
live page's would be once the network is back."""

from __future__ import annotations

import html
import random
import re

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.ascenseur.models import AscenseurGame, RoundRecord
from scorekeeper.extensions import db
from scorekeeper.rules import ascenseur as rules
from tests.web.crawler import as_drawn, forms_of
from tests.web.table import Table, text

NAMES = ("Anne", "Bruno", "Chloé", "Denis", "Emma")
DEALER = re.compile(r'<p class="dealer"><span>[^<]*</span> <strong>([^<]*)</strong>')
CARDS = re.compile(r'<p class="cards"><strong>(\d+)</strong>')


def plans(app: Flask, game_url: str) -> tuple[rules.RoundPlan, ...]:
    with app.app_context():
        game = db.session.get(AscenseurGame, game_url.rsplit("/", 1)[1])
        assert game is not None
        return game.sheet().plans


def numbers(plan: rules.RoundPlan, step: str, draw: random.Random) -> list[int]:
    """Numbers the engine takes for this step: bids whose total is not the cards where the
    dealer may not make it; tricks that add up to the cards."""
    seats = len(plan.bidding_order)
    if step == "tricks":
        taken = [0] * seats
        for _ in range(plan.cards):
            taken[draw.randrange(seats)] += 1
        return taken
    bids = [draw.randint(0, plan.cards) for _ in range(seats)]
    if plan.hook and sum(bids) == plan.cards:
        bids[plan.dealer] = (bids[plan.dealer] + 1) % (plan.cards + 1)
    return bids


def stored_rounds(app: Flask, game_url: str) -> list[tuple[int, list[int], list[int] | None]]:
    with app.app_context():
        game_id = game_url.rsplit("/", 1)[1]
        rows = db.session.scalars(
            select(RoundRecord).where(RoundRecord.game_id == game_id).order_by(RoundRecord.number)
        )
        return [(row.number, list(row.bids), row.tricks and list(row.tricks)) for row in rows]


def sent(client: FlaskClient, page: str, fields: dict[str, str]) -> int:
    """The round form of ``page`` as drawn, with these numbers: the answer's status."""
    (form,) = [form for form in forms_of(page) if "/rounds/" in form.action]
    return client.post(form.action, data={**as_drawn(form), **fields}).status_code


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    preset=st.sampled_from(sorted(rules.PRESETS)),
    players=st.integers(min_value=3, max_value=5),
    played=st.integers(min_value=0, max_value=3),
    on_tricks=st.booleans(),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_the_steps_drawn_ahead_are_entered_as_the_live_pages_would_be(
    app: Flask,
    client: FlaskClient,
    preset: str,
    players: int,
    played: int,
    on_tricks: bool,
    seed: int,
) -> None:
    draw = random.Random(seed)
    names = NAMES[:players]
    offline, live = Table(client), Table(client)
    offline_url, live_url = offline.start(preset, names), live.start(preset, names)
    schedule = plans(app, offline_url)
    # Both games played alike up to where the network goes.
    steps = [(plan, step) for plan in schedule for step in ("bids", "tricks")]
    at = 2 * played + on_tricks
    values = [numbers(plan, step, draw) for plan, step in steps]
    for table in (offline, live):
        for (plan, step), entered in zip(steps[:at], values[:at], strict=True):
            answer = (
                table.bids(plan.number, entered)
                if step == "bids"
                else table.tricks(plan.number, entered)
            )
            assert answer.status_code == 302, text(answer)

    # The page the phone is on names the steps ahead, to the end of the next round.
    page = text(client.get(offline_url))
    kept = re.search(r'data-keep-pages="([^"]*)"', page)
    assert kept
    ahead = html.unescape(kept.group(1)).split()
    expected = steps[at + 1 : at + 1 + (2 if on_tricks else 3)]
    assert ahead == [f"{offline_url}/ahead/{plan.number}/{step}" for plan, step in expected], ahead
    # Every other step of the game, played or further on, is no page to keep.
    # The step being played is the live page's: a phone that asks for it is sent there.
    for index, (plan, step) in enumerate(steps):
        address = f"{offline_url}/ahead/{plan.number}/{step}"
        if index == at:
            answer = client.get(address)
            assert answer.status_code == 303 and answer.headers["Location"].endswith(offline_url)
        elif address not in ahead:
            assert client.get(address).status_code == 404, address
    drawn = {address: client.get(address) for address in ahead}
    assert all(answer.headers["Scorekeeper-Offline"] == "keep" for answer in drawn.values())
    pages = {address: text(answer) for address, answer in drawn.items()}

    # With the network down the phone enters its step on the page it is on, then each step
    # drawn ahead; back, they arrive in order, and each is entered.
    for (plan, step), entered, address in zip(
        steps[at:], values[at:], [offline_url, *ahead], strict=False
    ):
        shown = pages.get(address, page)
        assert DEALER.findall(shown) == [names[plan.dealer]]
        assert CARDS.findall(shown) == [str(plan.cards)]
        prefix = "bid" if step == "bids" else "tricks"
        fields = {f"{prefix}_{seat}": str(value) for seat, value in enumerate(entered)}
        assert sent(client, shown, fields) == 302
        answer = (
            live.bids(plan.number, entered) if step == "bids" else live.tricks(plan.number, entered)
        )
        assert answer.status_code == 302
    assert stored_rounds(app, offline_url) == stored_rounds(app, live_url)
    assert len(stored_rounds(app, offline_url)) == min(len(schedule), played + 2)


def test_the_steps_ahead_are_the_scorers_alone_and_not_followed_live(
    app: Flask, client: FlaskClient
) -> None:
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    tricks = text(client.get(f"{game}/ahead/1/tricks"))
    assert "data-live=" not in tricks
    assert "Drawn ahead on this phone for when the network is down" in tricks
    # The bids are the phone's to write in: the server does not know them yet.
    assert tricks.count('data-bid-of="') == 2 * 3
    assert f'data-bids-from="{game}/rounds/1/bids"' in tricks
    assert f'data-offline-next="{game}/ahead/2/bids|{game}/rounds/2/bids ' in tricks
    for missing in ("99/bids", "0/tricks", "1/deal", "x/bids"):
        assert client.get(f"{game}/ahead/{missing}").status_code == 404, missing
    viewer = app.test_client()
    page = text(viewer.get(game))
    assert "data-keep-pages" not in page and "data-offline-next" not in page
    assert viewer.get(f"{game}/ahead/1/tricks").status_code == 403


def test_a_game_played_to_its_end_has_no_step_ahead(app: Flask, client: FlaskClient) -> None:
    table = Table(client)
    game = table.start("ascenseur", ("Anne", "Bruno", "Chloé"))
    draw = random.Random(7)
    schedule = plans(app, game)
    for plan in schedule:
        assert table.bids(plan.number, numbers(plan, "bids", draw)).status_code == 302
        assert table.tricks(plan.number, numbers(plan, "tricks", draw)).status_code == 302
    assert "data-keep-pages" not in text(client.get(game))
    for plan in schedule:
        for step in ("bids", "tricks"):
            assert client.get(f"{game}/ahead/{plan.number}/{step}").status_code == 404
