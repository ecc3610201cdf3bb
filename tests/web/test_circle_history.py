"""A circle's Ascenseur season read from the database, against the same season scored straight
from its entries: the league, each person's bidding, and the games taken out of it."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from flask import Flask

from scorekeeper.ascenseur.models import AscenseurGame, RoundRecord
from scorekeeper.circles.history import circle_history
from scorekeeper.circles.models import Circle, Person
from scorekeeper.extensions import db
from scorekeeper.games.models import Player
from scorekeeper.rules import ascenseur as rules
from scorekeeper.rules.history import Finish, PlayedGame, bidding_record, league

NAMES = ("Anne", "Bruno", "Chloé", "Denis", "Emma")


def ascenseur_league_games(circle: Circle, preset: str) -> list[PlayedGame]:
    """The league of ``preset`` as the circle's pages read it, through the registry."""
    found = circle_history(circle).leagues().get(f"ascenseur:{preset}")
    return found.games if found is not None else []


def bidding_shown(circle: Circle, person: str) -> object:
    """What the person's page shows of their Ascenseur bidding (``None``: no section)."""
    figures = dict((family.key, found) for family, found in circle_history(circle).figures(person))
    return figures.get("ascenseur")


def random_entries(rng: random.Random, players: int, first_dealer: int) -> list[rules.RoundEntry]:
    """A whole game's entries that obey the rules: the dealer's bid never the forbidden one, and
    the tricks of each round sharing out its cards."""
    entries = []
    for plan in rules.plan_game(rules.PRESETS["ascenseur"], players, first_dealer):
        bids = [0] * players
        for seat in plan.bidding_order[:-1]:
            bids[seat] = rng.randint(0, plan.cards)
        forbidden = plan.forbidden_bid(bids[seat] for seat in plan.bidding_order[:-1])
        bids[plan.dealer] = rng.choice([b for b in range(plan.cards + 1) if b != forbidden])
        tricks = [0] * players
        for _card in range(plan.cards):
            tricks[rng.randrange(players)] += 1
        entries.append(rules.RoundEntry(tuple(bids), tuple(tricks)))
    return entries


def test_a_season_read_from_the_database_is_the_season_scored_from_its_entries(
    app: Flask,
) -> None:
    rng = random.Random(38)
    opening = datetime(2026, 9, 6, 15)
    with app.app_context():
        circle = Circle(name="Les Martin", people=[Person(name=name) for name in NAMES])
        db.session.add(circle)
        db.session.flush()
        ids = {person.name: str(person.id) for person in circle.people}
        expected_games, expected_sheets = [], []
        for number in range(12):
            names = rng.sample(NAMES, rng.randint(3, 5))
            seated = [*names[:-1], "Invité"] if number % 4 == 3 else names  # a guest
            first_dealer = rng.randrange(len(seated))
            entries = random_entries(rng, len(seated), first_dealer)
            game = AscenseurGame(
                preset="ascenseur",
                first_dealer=first_dealer,
                circle_id=circle.id,
                created_at=opening + timedelta(days=7 * number),
                players=[
                    Player(
                        seat=seat,
                        name=name,
                        person_id=circle.person_named(name).id if name in NAMES else None,
                    )
                    for seat, name in enumerate(seated)
                ],
                rounds=RoundRecord.from_entries(entries),
            )
            db.session.add(game)
            sheet = rules.score_game(rules.PRESETS["ascenseur"], seated, first_dealer, entries)
            people = tuple(ids.get(name) for name in seated)
            expected_sheets.append((sheet, people))
            expected_games.append(
                PlayedGame(
                    (opening + timedelta(days=7 * number)).date(),
                    tuple(
                        Finish(ids[name], sheet.totals[seat], sheet.places[seat])
                        for seat, name in enumerate(seated)
                        if name in ids
                    ),
                )
            )
        db.session.commit()

        assert league(ascenseur_league_games(circle, "ascenseur")) == league(expected_games)
        for key in ids.values():
            counted = bidding_record(expected_sheets, key)
            assert bidding_shown(circle, key) == (counted if counted.overall.rounds else None)
        assert ascenseur_league_games(circle, "escalier") == []

        taken_out = circle_history(circle).games["ascenseur"][0].game
        taken_out.out_of_history = True
        db.session.commit()
        assert league(ascenseur_league_games(circle, "ascenseur")) == league(expected_games[1:])
