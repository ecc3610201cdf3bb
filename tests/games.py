"""Whole games for the tests, played out at random but always by the rules."""

from __future__ import annotations

import random
from collections.abc import Sequence

from flask import Flask

from scorekeeper.ascenseur.models import AscenseurGame, RoundRecord
from scorekeeper.extensions import db
from scorekeeper.games.models import Player
from scorekeeper.rules import ascenseur as rules


def play_out(
    variant: rules.Variant, players: int, first_dealer: int, seed: int, rounds: int | None = None
) -> list[rules.RoundEntry]:
    """Entries for the first ``rounds`` rounds (all by default): bids that obey the hook,
    tricks that add up, about half the bids made."""
    rng = random.Random(seed)
    entries = []
    for plan in rules.plan_game(variant, players, first_dealer)[:rounds]:
        tricks = [0] * players
        for _ in range(plan.cards):
            tricks[rng.randrange(players)] += 1
        bids = [t if rng.random() < 0.5 else rng.randint(0, plan.cards) for t in tricks]
        earlier = [bids[seat] for seat in plan.bidding_order[:-1]]
        if plan.forbidden_bid(earlier) == bids[plan.dealer]:
            bids[plan.dealer] = (bids[plan.dealer] + 1) % (plan.cards + 1)
        entries.append(rules.RoundEntry(tuple(bids), tuple(tricks)))
    return entries


def store_game(
    app: Flask,
    preset: str,
    names: Sequence[str],
    entries: Sequence[rules.RoundEntry],
    first_dealer: int = 0,
    **house_rules: object,
) -> str:
    """A game stored as the pages would store it; its id."""
    with app.app_context():
        game = AscenseurGame(
            preset=preset,
            house_rules=house_rules,
            first_dealer=first_dealer,
            players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
            rounds=RoundRecord.from_entries(entries),
        )
        db.session.add(game)
        db.session.commit()
        return game.id
